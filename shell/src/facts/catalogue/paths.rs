//! Paths the facts name: the rule files (SPEC §6.4) and the device files
//! that are never outside the scope (§6.2).

/// Words that never count as outside the scope (SPEC §6.2), exactly.
pub const DEV_FILES: &[&str] = &["/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr"];

/// The rule files: protected in the project root (SPEC §6.4), and by
/// name wherever a literal word points.
pub const RULE_FILES: &[&str] = &["permissions.json", "autonomy.json", "permc.toml"];

/// A compiled policy's name ends so.
pub(crate) const POLICY_SUFFIX: &str = ".permc";

/// Programs that only read their operands (SPEC §6.4): a protected path
/// among their words is read, not written.
pub(crate) const READS_ONLY: &[&str] = &[
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ls",
    "stat",
    "du",
    "tree",
    "wc",
    "diff",
    "cmp",
    "file",
    "echo",
    "printf",
    "pwd",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "test",
    "[",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "nl",
    "od",
    "cut",
    "sort",
    "cd",
    "pushd",
    "popd",
    "true",
    "false",
    ":",
];

/// Programs that only read unless one of these words is among their
/// operands (SPEC §6.4): `find` without `-delete` or a primary that writes
/// a file.
pub(crate) const READS_ONLY_UNLESS: &[(&str, &[&str])] = &[(
    "find",
    &["-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
)];

/// Programs that only read in these subcommands (SPEC §6.4), past their
/// global options: git's that neither write its configuration nor its
/// hooks.
pub(crate) const READING_SUBCOMMANDS: &[(&str, &[&str])] = &[(
    "git",
    &[
        "log",
        "show",
        "diff",
        "status",
        "blame",
        "ls-files",
        "ls-tree",
        "rev-parse",
        "cat-file",
        "grep",
        "shortlog",
        "describe",
        "check-ignore",
        "add",
        "commit",
    ],
)];

/// Reading programs whose `-o FILE` (and `-oFILE`) writes a file (SPEC
/// §6.4), besides the `--output` every program's is.
pub(crate) const OUTPUT_OPTION_O: &[&str] = &["sort", "tree"];
