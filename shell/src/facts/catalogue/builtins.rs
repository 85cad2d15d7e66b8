//! The shell's builtins that change its own state (SPEC §6.2): where it
//! stands and how it reads later words. The scope follows the first, and
//! reads the second as "cannot follow".

use crate::facts::options::{Grammar, Mode};

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

/// The builtin that sets bash's own options (`shopt -s cdable_vars` makes
/// a `cd` operand a variable's value: SPEC §6.2).
pub(crate) const SHOPT: &str = "shopt";

/// The builtin that sets the shell's options; the ones SPEC §6.2 (round 3)
/// reads past are [`super::variables::SAFE_SET_NAMES`].
pub(crate) const SET: &str = "set";

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

/// The builtins whose operands name variables without assigning them
/// (`export PS4`, `unset PS4`): a variable that names code, named there,
/// is named (SPEC §4.3 round 3); one that only sets where programs look
/// (`export HOME`) is not assigned.
pub(crate) const NAME_OPERANDS_ONLY: &[&str] = &["export", "unset", "readonly"];

/// The builtins that assign the names in their operands (`read HOME`,
/// `printf -v HOME`): a variable that names code, named there, is
/// assigned (SPEC §4.3 round 3).
pub(crate) const NAME_ASSIGNING: &[&str] = &[
    "read",
    "mapfile",
    "readarray",
    "printf",
    "getopts",
    "wait",
    "declare",
    "typeset",
    "local",
];

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

/// **[round 4]** What changes a shell's positional parameters, or runs
/// text that may (SPEC §4.3): in a `-c` string that names one, `$1`… no
/// longer stand for the words after the string for certain, and stay
/// unknown (`sh -c 'shift; git "$1"' _ status push` runs `git push`).
pub(crate) const POSITIONAL_SETTERS: &[&str] = &["shift", "set", "eval", "source", "."];
