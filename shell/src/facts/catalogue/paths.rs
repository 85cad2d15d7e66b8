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

/// **[round 4]** Options whose value is a pattern of names to leave out
/// or take, not a path written (SPEC §6.4), by program: each takes a value
/// (attached with `=`, or the next word). Read per program: `tee
/// --ignore-interrupts` and `git rm --ignore-unmatch` take none, so the
/// word after them is an operand.
pub(crate) const PATTERN_OPTIONS: &[(&str, &[&str])] = &[
    ("rsync", &["--exclude", "--include", "--filter", "-f"]),
    ("tar", &["--exclude"]),
    ("bsdtar", &["--exclude", "--include"]),
    ("grep", &["--exclude", "--include", "--exclude-dir"]),
    ("rg", &["--glob", "-g", "--iglob"]),
    ("du", &["--exclude"]),
    ("zip", &["-x", "--exclude", "-i", "--include"]),
    ("unzip", &["-x"]),
    ("git", &["--exclude", "-e"]),
    ("cp", &[]),
];

/// Where a [`DirWrite`] writes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Into {
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
pub(crate) struct DirWrite {
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

const fn dw(program: &'static str, when: &'static [&'static str], into: Into) -> DirWrite {
    DirWrite {
        program,
        sub: "",
        when,
        unless: &[],
        into,
        anywhere: &[],
        contents: false,
        bare_cluster: false,
    }
}

const fn git_dw(sub: &'static str, when: &'static [&'static str]) -> DirWrite {
    DirWrite {
        sub,
        ..dw("git", when, Into::Root)
    }
}

/// **[round 4]** The rows of [`DirWrite`] (SPEC §6.4).
pub(crate) const DIR_WRITES: &[DirWrite] = &[
    // A recursive removal empties the directory it names: `rm -rf /work`
    // or `rm -r ../app` from a subdirectory removes the rule files and
    // `.git` (rm itself refuses a last component `.` or `..`).
    dw("rm", &["-r", "-R", "--recursive"], Into::EveryOperand),
    DirWrite {
        contents: true,
        ..dw(
            "cp",
            &["-r", "-R", "-a", "--recursive", "--archive"],
            Into::LastOperand(&["-t", "--target-directory"]),
        )
    },
    DirWrite {
        contents: true,
        unless: &["-n", "--dry-run", "--list-only"],
        ..dw(
            "rsync",
            &["-r", "-a", "--recursive", "--archive", "-d", "--dirs"],
            Into::LastOperand(&[]),
        )
    },
    DirWrite {
        unless: &[
            "-t",
            "--list",
            "-c",
            "--create",
            "-r",
            "--append",
            "-u",
            "--update",
            "-d",
            "--diff",
            "--compare",
            "-O",
            "--to-stdout",
            "--to-command",
        ],
        anywhere: &["-P", "--absolute-names"],
        bare_cluster: true,
        ..dw(
            "tar",
            &["-x", "--extract", "--get"],
            Into::OptionOrCwd(&["-C", "--directory"]),
        )
    },
    DirWrite {
        anywhere: &["-P", "--absolute-paths"],
        bare_cluster: true,
        ..dw(
            "bsdtar",
            &["-x"],
            Into::OptionOrCwd(&["-C", "--cd", "--directory"]),
        )
    },
    DirWrite {
        unless: &["-l", "-v", "-t", "-p", "-c", "-Z", "-z"],
        anywhere: &["-:"],
        ..dw("unzip", &[], Into::OptionOrCwd(&["-d"]))
    },
    DirWrite {
        anywhere: &["-:"],
        ..dw("funzip", &[], Into::OptionOrCwd(&[]))
    },
    dw(
        "curl",
        &["-J", "--remote-header-name"],
        Into::OptionOrCwd(&["--output-dir"]),
    ),
    dw(
        "wget",
        &[
            "--content-disposition",
            "--trust-server-names",
            "-r",
            "--recursive",
            "-m",
            "--mirror",
            "-p",
            "--page-requisites",
            "-i",
            "--input-file",
            // GNU Wget 1.21.3 (tests/oracle): the URL's host and path as
            // directories in the cwd (`wget -x -nH http://h/.git/hooks/x`).
            "-x",
            "--force-directories",
            "--directories",
            "--protocol-directories",
        ],
        Into::OptionOrCwd(&["-P", "--directory-prefix"]),
    ),
    DirWrite {
        unless: &["--dry-run"],
        ..dw("patch", &[], Into::OptionOrCwd(&["-d", "--directory"]))
    },
    DirWrite {
        unless: &["--check", "--stat", "--numstat", "--summary"],
        ..git_dw("apply", &[])
    },
    git_dw("am", &[]),
    DirWrite {
        unless: &[],
        ..git_dw("hash-object", &["-w"])
    },
    git_dw("mktree", &[]),
    git_dw("commit-tree", &[]),
    git_dw("update-index", &["--cacheinfo", "--index-info"]),
    git_dw("read-tree", &[]),
    git_dw("checkout-index", &[]),
    git_dw("fast-import", &[]),
];

/// **[round 4]** git's porcelain that moves the worktree to another
/// commit or the stash (SPEC §6.4): the subcommand path, and the options
/// that make it no such move (`checkout -b NEW` creates a branch at
/// `HEAD`). An allow entry that names the subcommand path lifts it.
pub(crate) const GIT_MOVES: &[(&[&str], &[&str])] = &[
    (&["checkout"], &[]),
    (&["switch"], &[]),
    (&["reset"], &[]),
    (&["stash"], &[]),
    (&["stash", "push"], &[]),
    (&["stash", "save"], &[]),
    (&["stash", "pop"], &[]),
    (&["stash", "apply"], &[]),
    (&["rebase"], &[]),
    (&["merge"], &["--abort", "--quit"]),
    (&["cherry-pick"], &[]),
    (&["revert"], &[]),
    (&["pull"], &[]),
];

/// **[round 4]** git subcommands that write the worktree through their
/// pathspecs (SPEC §6.4): each pathspec is read with its magic and globs.
pub(crate) const GIT_PATHSPEC_WRITES: &[&str] =
    &["rm", "mv", "checkout", "restore", "stash", "clean", "reset"];

/// **[round 4]** Backup names (SPEC §4.5 item 1): a program's options
/// whose value is a suffix (or a prefix) added to an operand's name, the
/// file it writes beside the one it changes.
pub(crate) const BACKUP_SUFFIXES: &[(&str, &[&str], &[&str])] = &[
    ("cp", &["-S", "--suffix"], &[]),
    ("mv", &["-S", "--suffix"], &[]),
    ("ln", &["-S", "--suffix"], &[]),
    ("install", &["-S", "--suffix"], &[]),
    (
        "patch",
        &["-z", "--suffix"],
        &["-B", "--prefix", "-Y", "--basename-prefix"],
    ),
    ("rsync", &["--suffix"], &["--backup-dir"]),
];

/// **[round 4]** A program that writes names made from a prefix
/// (SPEC §6.4): `split IN PREFIX` writes `PREFIXaa`, `PREFIXab`…,
/// `csplit -f PREFIX` `PREFIX00`…. The name is none of its words, so the
/// protected paths read `PREFIX*SUFFIX` as a glob in the prefix's folder.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PrefixWrite {
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

/// **[round 4]** The rows of [`PrefixWrite`] (GNU coreutils 9.1).
pub(crate) const PREFIX_WRITES: &[PrefixWrite] = &[
    PrefixWrite {
        program: "split",
        operand: Some(1),
        prefix: &[],
        default: "x",
        suffix: &["--additional-suffix"],
        format: &[],
        valued: "abClnt",
        valued_long: &[
            "--suffix-length",
            "--additional-suffix",
            "--bytes",
            "--line-bytes",
            "--lines",
            "--number",
            "--separator",
            "--filter",
            "---io-blksize",
        ],
    },
    PrefixWrite {
        program: "csplit",
        operand: None,
        prefix: &["-f", "--prefix"],
        default: "xx",
        suffix: &[],
        format: &["-b", "--suffix-format"],
        valued: "bfn",
        valued_long: &["--suffix-format", "--prefix", "--digits"],
    },
];

/// find's tests that select by name, read for `{}` (SPEC §6.4): the
/// case-insensitive ones, and those on the whole path.
pub(crate) const FIND_NAME_TESTS: &[(&str, bool, bool)] = &[
    ("-name", false, false),
    ("-iname", true, false),
    ("-path", false, true),
    ("-ipath", true, true),
    ("-wholename", false, true),
    ("-iwholename", true, true),
];

include!(concat!(env!("OUT_DIR"), "/catalogue/paths.rs"));
