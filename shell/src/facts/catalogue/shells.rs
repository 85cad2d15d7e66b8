//! The shells (SPEC §4.3): sh's family and the shells of other languages.

/// The shells of SPEC §4.3.
pub const SHELLS: &[&str] = &[
    "sh", "bash", "rbash", "zsh", "dash", "ksh", "ash", "mksh", "lksh", "yash", "posh",
];

/// Shells whose language is not sh's (fish, csh, PowerShell, nushell…):
/// a script operand is the stated limit (SPEC §4.3), as for a shell; any
/// option (`-c` among them) or none (standard input) is code permc does
/// not read.
pub const FOREIGN_SHELLS: &[&str] = &[
    "fish",
    "tcsh",
    "csh",
    "pwsh",
    "powershell",
    "nu",
    "xonsh",
    "elvish",
    "rc",
    "es",
];

/// bash's long options (`--rcfile` and `--init-file` take a value).
pub(crate) const SHELL_LONG: &[&str] = &[
    "login",
    "noprofile",
    "norc",
    "posix",
    "restricted",
    "verbose",
    "version",
    "help",
    "debugger",
    "dump-strings",
    "dump-po-strings",
    "noediting",
    "pretty-print",
];

/// The shells that take bash's option letters (`-O`/`+O NAME` among them);
/// the others take sh's (SPEC §4.3).
pub(crate) const BASH_OPTIONS: &[&str] = &["bash", "rbash"];

/// The shells that also take zsh's long options (`--emulate`, `--no-rcs`…).
pub(crate) const ZSH_OPTIONS: &[&str] = &["zsh"];
