//! The shell's builtins that change its own state (SPEC §6.2): where it
//! stands and how it reads later words. The scope follows the first, and
//! reads the second as "cannot follow".

use super::types::{Grammar, Mode};

/// How a builtin moves the shell's directory (SPEC §6.2: the scope
/// follows `cd`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirMove {
    /// `cd DIR`: to its operand (not without one, nor to `-`).
    Cd,
    /// `pushd DIR`: to its operand, or rotates the stack (`+N`, `-N`).
    Pushd,
    /// `popd`: back to a directory permc did not see pushed.
    Popd,
}

/// How `verb` moves the directory, if it does ([`DIRECTORY_MOVES`]).
pub(crate) fn dir_move_of(verb: &str) -> Option<DirMove> {
    DIRECTORY_MOVES
        .iter()
        .find(|(n, _)| crate::facts::quick_eq(n, verb))
        .map(|&(_, m)| m)
}

/// Does `verb` move the directory ([`DIRECTORY_MOVES`])?
pub(crate) fn moves_dir(verb: &str) -> bool {
    dir_move_of(verb).is_some()
}

include!(concat!(env!("OUT_DIR"), "/catalogue/builtins.rs"));
