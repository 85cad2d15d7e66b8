//! Paths the facts name: the rule files (SPEC §6.4) and the device files
//! that are never outside the scope (§6.2).

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

/// **[round 4]** Files protected wherever they stand in the scope (SPEC
/// §6.4): a path whose last components are one of these. A tool runs what
/// they say without the person naming the tool: git hooks' managers
/// (pre-commit, lefthook), direnv on `cd`, an editor's tasks on open, mise
/// on `cd`, and the configuration of the seeded and described programs
/// (`.cargo/config.toml`, `.npmrc`…; this list is the least, §4.5 item 1).
pub const PROTECTED_FILES: &[&str] = &[
    "permissions.json",
    "autonomy.json",
    "permc.toml",
    ".pre-commit-config.yaml",
    ".pre-commit-hooks.yaml",
    "lefthook.yml",
    "lefthook.yaml",
    "lefthook.json",
    "lefthook.toml",
    "lefthook-local.yml",
    "lefthook-local.yaml",
    "lefthook-local.json",
    "lefthook-local.toml",
    ".lefthook.yml",
    ".lefthook.yaml",
    ".lefthook.json",
    ".lefthook.toml",
    ".lefthook-local.yml",
    ".lefthook-local.yaml",
    ".lefthook-local.json",
    ".lefthook-local.toml",
    // `.config/lefthook.yml` and the others under `.config/` end in a name
    // above, as `.config/mise.toml` ends in `mise.toml`.
    ".envrc",
    ".devcontainer.json",
    ".vscode/tasks.json",
    ".vscode/settings.json",
    "mise.toml",
    ".mise.toml",
    "mise.local.toml",
    ".cargo/config",
    ".cargo/config.toml",
    ".npmrc",
    ".yarnrc.yml",
    ".pnpmfile.cjs",
];

/// **[round 4]** Names protected as patterns (SPEC §6.4): a last component
/// that ends so (a compiled policy, an editor's workspace, which holds
/// tasks and settings).
pub const PROTECTED_SUFFIXES: &[&str] = &[POLICY_SUFFIX, ".code-workspace"];

/// Where a [`DirWrite`] writes.
#[derive(Debug, Clone, Copy)]
pub enum Into {
    /// Its last operand, or the value of one of these options (`cp -t`).
    LastOperand(&'static [&'static str]),
    /// The value of one of these options, else the current directory.
    OptionOrCwd(&'static [&'static str]),
    /// The worktree's root (the names come from a diff or git's data).
    Root,
    /// Each of its operands (`rm -r`: everything below each goes).
    EveryOperand,
}

/// **[round 4]** A program (or git subcommand) that writes into a
/// directory recursively, or under names that come from data permc does
/// not read (SPEC §6.4): it names a protected path when that directory
/// lexically holds one — the project root or above it, or a protected
/// directory or below it.
#[derive(Debug, Clone, Copy)]
pub struct DirWrite {
    /// The program.
    pub program: &'static str,
    /// Its subcommand (git's), `""` for none.
    pub sub: &'static str,
    /// Options that make it such a write (a one-letter one also in a
    /// cluster, a long one also as a unique prefix); empty: always.
    pub when: &'static [&'static str],
    /// Options (exact) with which it writes nothing.
    pub unless: &'static [&'static str],
    /// Where it writes.
    pub into: Into,
    /// Options that let it write `..` or absolute names: anywhere,
    /// outside the scope and protected.
    pub anywhere: &'static [&'static str],
    /// It copies a source's contents into the directory only when a source
    /// ends in `/`, `/.` or `/..`, or is a glob or has an unknown part
    /// (`cp -r x/. .`, `rsync -a x/ ./`); else into a folder named as the
    /// source, which the source's own name says.
    pub contents: bool,
    /// Its first word may be a cluster of options without a `-` (`tar xf`).
    pub bare_cluster: bool,
}

impl DirWrite {
    /// A row of no program that writes always, each operand: what a row
    /// file's row leaves out.
    pub(crate) const EMPTY: Self = Self {
        program: "",
        sub: "",
        when: &[],
        unless: &[],
        into: Into::EveryOperand,
        anywhere: &[],
        contents: false,
        bare_cluster: false,
    };
}

impl PrefixWrite {
    /// A row of no program: what a row file's row leaves out.
    pub(crate) const EMPTY: Self = Self {
        program: "",
        operand: None,
        prefix: &[],
        default: "",
        suffix: &[],
        format: &[],
        valued: "",
        valued_long: &[],
    };
}

/// **[round 4]** git subcommands that write the worktree through their
/// pathspecs (SPEC §6.4): each pathspec is read with its magic and globs.
pub(crate) const GIT_PATHSPEC_WRITES: &[&str] =
    &["rm", "mv", "checkout", "restore", "stash", "clean", "reset"];

/// **[round 4]** A program that writes names made from a prefix
/// (SPEC §6.4): `split IN PREFIX` writes `PREFIXaa`, `PREFIXab`…,
/// `csplit -f PREFIX` `PREFIX00`…. The name is none of its words, so the
/// protected paths read `PREFIX*SUFFIX` as a glob in the prefix's folder.
#[derive(Debug, Clone, Copy)]
pub struct PrefixWrite {
    /// The program.
    pub program: &'static str,
    /// The operand (from 0) that is the prefix; every later one is read
    /// too (only tightens).
    pub operand: Option<usize>,
    /// Options whose value is the prefix.
    pub prefix: &'static [&'static str],
    /// The prefix without one.
    pub default: &'static str,
    /// Options whose value follows the made part (`--additional-suffix`).
    pub suffix: &'static [&'static str],
    /// Options whose value is a printf format of the made part
    /// (`-b %03d.txt`): each conversion is any text.
    pub format: &'static [&'static str],
    /// The one-letter options that take a value (to tell the operands).
    pub valued: &'static str,
    /// The long options that take a value (a unique prefix too).
    pub valued_long: &'static [&'static str],
}

include!(concat!(env!("OUT_DIR"), "/catalogue/paths.rs"));
