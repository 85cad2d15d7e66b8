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

/// **[round 4]** Directories protected wherever they stand in the scope
/// (SPEC §6.4): a path with one of them as a component. `.git` holds the
/// hooks and the configuration; the others hold hooks (`.husky`,
/// `.githooks`), or what an editor or a container runs on open
/// (`.devcontainer`, `.idea`, `.run`).
pub const PROTECTED_DIRS: &[&str] = &[
    ".git",
    ".husky",
    ".githooks",
    ".devcontainer",
    ".idea",
    ".run",
];

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

/// **[round 4]** On the host (no running container, SPEC §6.2's second
/// case), protected outside the scope too: the person's shell startup
/// files, git's and ssh's configuration, what starts on login. A written
/// word that begins with `~` is protected there whatever follows; these
/// are matched in absolute words (`/home/ana/.bashrc`) by their last
/// components, a directory as a component run anywhere in the word.
pub const HOME_FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".gitconfig",
];

/// **[round 4]** On the host, directories protected with all they hold
/// (SPEC §6.4), as a run of components.
pub const HOME_DIRS: &[&str] = &[
    ".config/fish",
    ".config/git",
    ".ssh",
    ".config/systemd",
    ".config/autostart",
    "Library/LaunchAgents",
];

/// **[round 4]** Programs whose operands are the files they write (SPEC
/// §6.4): on the host, an operand of theirs that begins with an unknown
/// part (`cp x "$D"`) may be the person's own file. (An archiver's
/// operand is the archive it reads: `unzip -l "$f"` writes nothing; its
/// writes are [`DIR_WRITES`].) (A word that begins
/// with `~` counts for every program that may write.)
pub(crate) const WRITES_OPERANDS: &[&str] = &[
    "cp", "mv", "ln", "install", "tee", "touch", "rm", "rmdir", "mkdir", "truncate", "dd", "chmod",
    "chown", "rsync", "scp",
];

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

/// **[round 4]** The hosted services' checkouts of a change (SPEC §6.4):
/// wholesale moves too.
pub(crate) const HOSTED_CHECKOUTS: &[(&str, &str)] = &[("gh", "pr"), ("glab", "mr")];

/// The subcommand of [`HOSTED_CHECKOUTS`] that moves the worktree.
pub(crate) const HOSTED_CHECKOUT: &str = "checkout";

/// **[round 4]** git subcommands that write the worktree through their
/// pathspecs (SPEC §6.4): each pathspec is read with its magic and globs.
pub(crate) const GIT_PATHSPEC_WRITES: &[&str] =
    &["rm", "mv", "checkout", "restore", "stash", "clean", "reset"];

/// git's subcommand that removes untracked files: without a pathspec,
/// the whole current folder.
pub(crate) const GIT_CLEAN: &str = "clean";

/// The options with which a pathspec-writing git subcommand writes no
/// worktree file: `rm --cached` (the index only), `clean -n|--dry-run`.
pub(crate) const GIT_NO_WORKTREE: &[&str] = &["--cached", "-n", "--dry-run"];

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

/// **[round 4]** The variables that set the suffix of coreutils' backups
/// (SPEC §4.5 item 1), when assigned on the line.
pub(crate) const BACKUP_VARIABLES: &[&str] = &["SIMPLE_BACKUP_SUFFIX", "VERSION_CONTROL"];

/// **[round 4]** The programs that edit files in place with `-i`, whose
/// attached value is a backup suffix, each `*` in it the operand as
/// written (sed's; perl's and ruby's read it so too).
pub(crate) const IN_PLACE_SUFFIX: &[&str] = &["sed", "perl", "ruby"];

/// find, whose `-exec` runs a command on the paths it found.
pub(crate) const FIND: &str = "find";

/// find's placeholder for the path it found, in `-exec` and its kin.
pub(crate) const FIND_PLACEHOLDER: &str = "{}";

/// git's own directory.
pub(crate) const GIT_DIR: &str = ".git";

/// What `.git` holds that counts for find's `{}` (SPEC §6.4): every name
/// but the loose and packed objects under `objects/` (`objects/info/`
/// counts). `*` is any name there; a name at the top may be any too.
pub(crate) const GIT_DIR_NAMES: &[&str] = &[
    "*",
    "config",
    "HEAD",
    "index",
    "hooks/*",
    "info/*",
    "refs/*",
    "logs/*",
    "modules/*",
    "worktrees/*",
    "objects/info/*",
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

/// find's operators that negate or group, which the reading of `{}` does
/// not follow: with one, no test or prune is read (fail closed).
pub(crate) const FIND_UNREAD: &[&str] = &["!", "-not", "(", ")", ","];

/// find's primaries that run a command on what it found.
pub(crate) const FIND_EXECS: &[&str] = &["-exec", "-execdir", "-ok", "-okdir"];
