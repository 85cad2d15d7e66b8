//! The shell's builtins that change its own state (SPEC §6.2): where it
//! stands and how it reads later words. The scope follows the first, and
//! reads the second as "cannot follow".

use super::types::{Grammar, Mode};

/// How a builtin moves the shell's directory (SPEC §6.2: the scope
/// follows `cd`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DirMove {
    /// `cd DIR`: to its operand (not without one, nor to `-`).
    Cd,
    /// `pushd DIR`: to its operand, or rotates the stack (`+N`, `-N`).
    Pushd,
    /// `popd`: back to a directory permc did not see pushed.
    Popd,
}

/// The builtins that move the directory, a row each.
pub(crate) const DIRECTORY_MOVES: &[(&str, DirMove)] = &[
    ("cd", DirMove::Cd),
    ("pushd", DirMove::Pushd),
    ("popd", DirMove::Popd),
];

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

/// `set`'s options that permc reads past (SPEC §6.2 round 3), as bash
/// reads them: `-x` and `+x`, `-o NAME` taking the next word.
pub(crate) const SET_OPTIONS: Grammar<'static> = Grammar {
    flags: "euxvET",
    valued: "o",
    plus: true,
    values_apart: true,
    ..Grammar::new(Mode::Bash)
};

/// `cd`'s and `pushd`'s options (`cd [-L|[-P [-e]] [-@]] [dir]`), as
/// bash's `internal_getopt` reads them.
pub(crate) const CD_OPTIONS: Grammar<'static> = Grammar {
    flags: "LPe@",
    ..Grammar::new(Mode::Bash)
};

/// Builtins that only change the shell's flow (SPEC §4.2 round 4):
/// classified like a safe `set` in step 6, with no operand (`true`,
/// `false`, `:`) or one number (`exit 1`, `return 0`, `break 2`).
pub(crate) const FLOW_BUILTINS: &[(&str, bool)] = &[
    ("true", false),
    // `exec` with no command changes only the shell's descriptors (its
    // redirections are read as places; one of standard input is unparsed).
    ("exec", false),
    ("false", false),
    (":", false),
    ("break", true),
    ("continue", true),
    ("exit", true),
    ("return", true),
];

include!(concat!(env!("OUT_DIR"), "/catalogue/builtins.rs"));
