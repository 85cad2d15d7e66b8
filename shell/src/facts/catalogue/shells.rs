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

/// The shells whose `-c` string is *transparent* for allow (SPEC §4.3
/// round 4): an entry for each command of the string covers the shell's
/// segment (`Terminal(npm test)` covers `bash -lc 'npm test'`). `busybox
/// sh|ash` too ([`super::wrappers::BUSYBOX_SHELLS`]).
pub(crate) const TRANSPARENT_SHELLS: &[&str] = &["sh", "bash", "dash", "ash"];

/// Of those, the shells that read a string as bash does.
pub(crate) const BASH_READS: &[&str] = &["bash"];

/// The options a transparent shell may be given besides `-c`: those of
/// `set` that SPEC §6.2 allows (letters; `-o NAME` by
/// [`super::variables::SAFE_SET_NAMES`]), a login shell (`-l`,
/// `--login`: what a login shell reads is the stated limit) and
/// `--norc`, `--noprofile`, `--posix`. `-i`, `-s`, `--rcfile`,
/// `--init-file` and every other option are not.
pub(crate) const TRANSPARENT_LETTERS: &str = "euxvETlc";
pub(crate) const TRANSPARENT_LONG: &[&str] = &["--login", "--norc", "--noprofile", "--posix"];

/// What a POSIX shell (dash) reads differently from bash: a string holding
/// one is still read as a line, but not transparent (`dash -c 'echo hi &>
/// out'` runs `echo hi` in the background).
pub(crate) const BASHISMS: &[&str] = &[
    "&>", "|&", "<(", ">(", "[[", "function", "=(", "$'", "$\"", ";&", "}>", "}<",
];
