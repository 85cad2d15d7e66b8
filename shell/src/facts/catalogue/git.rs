//! git's own rows: global options, the options and configuration that
//! name code (SPEC §4.3 round 3), protected branches (SPEC §5 step 7e).

/// Each program's global options that take the next word, before its
/// subcommand: one row a program.
pub(crate) const GLOBAL_VALUE_OPTIONS: &[(&str, &[&str])] = &[("git", GIT_VALUE_OPTIONS)];

/// How a git subcommand's option (or word) is given, as git's
/// parse-options reads it: `-x CMD`, `-xCMD`, in a cluster (`-ix CMD`),
/// `--exec CMD`, `--exec=CMD`, or a long name's prefix (`--exe CMD`). A
/// word that only may be one counts (fail closed).
#[derive(Debug, Clone, Copy)]
pub(crate) enum GitSpell {
    /// A long option without a short form: an expandable word may be it.
    Long(&'static str),
    /// A short option and its long name.
    Both(char, &'static str),
    /// An operand word (`submodule foreach`, `bisect run`).
    Word(&'static str),
    /// Any long option ending so (`filter-branch --…-filter`).
    LongEnding(&'static str),
}

/// A git subcommand's option that runs text or words, or sets what a later
/// git command runs: one row each, the subcommands it belongs to, its
/// spellings, and how the reason names it.
pub(crate) struct GitCodeOption {
    /// The subcommands that take it.
    pub(crate) subcommands: &'static [&'static str],
    /// Its spellings (any of them).
    pub(crate) spells: &'static [GitSpell],
    /// As the reason shows it.
    pub(crate) shown: &'static str,
}

/// Every [`GitCodeOption`]: the program a fetch, clone or `ls-remote`
/// runs as `upload-pack` (git runs it with the shell for a local
/// repository), `archive --exec`, send-email's commands, instaweb's
/// server and browser, `rebase -x`, `submodule foreach`, `bisect run`, a
/// `filter-branch` filter, `difftool -x`, `grep -O`, `push --receive-pack`;
/// `clone -c` and a `--template` directory's hooks.
pub(crate) const GIT_CODE_OPTIONS: &[GitCodeOption] = &[
    GitCodeOption {
        subcommands: &["fetch", "pull", "ls-remote", "fetch-pack"],
        spells: &[GitSpell::Long("--upload-pack")],
        shown: "--upload-pack",
    },
    GitCodeOption {
        subcommands: &["ls-remote", "fetch-pack", "archive"],
        spells: &[GitSpell::Long("--exec")],
        shown: "--exec",
    },
    GitCodeOption {
        subcommands: &["clone"],
        spells: &[GitSpell::Both('u', "--upload-pack")],
        shown: "--upload-pack",
    },
    GitCodeOption {
        subcommands: &["clone"],
        spells: &[GitSpell::Both('c', "--config")],
        shown: "--config",
    },
    GitCodeOption {
        subcommands: &["clone", "init"],
        spells: &[GitSpell::Long("--template")],
        shown: "--template",
    },
    GitCodeOption {
        subcommands: &["send-email"],
        spells: &[
            GitSpell::Long("--smtp-server"),
            GitSpell::Long("--sendmail-cmd"),
            GitSpell::Long("--to-cmd"),
            GitSpell::Long("--cc-cmd"),
            GitSpell::Long("--header-cmd"),
        ],
        shown: "--sendmail-cmd",
    },
    GitCodeOption {
        subcommands: &["instaweb"],
        spells: &[
            GitSpell::Both('d', "--httpd"),
            GitSpell::Both('b', "--browser"),
        ],
        shown: "--httpd",
    },
    GitCodeOption {
        subcommands: &["rebase"],
        spells: &[GitSpell::Both('x', "--exec")],
        shown: "--exec",
    },
    GitCodeOption {
        subcommands: &["submodule"],
        spells: &[GitSpell::Word("foreach")],
        shown: "foreach",
    },
    GitCodeOption {
        subcommands: &["bisect"],
        spells: &[GitSpell::Word("run")],
        shown: "run",
    },
    GitCodeOption {
        subcommands: &["filter-branch"],
        spells: &[GitSpell::LongEnding("-filter")],
        shown: "--…-filter",
    },
    GitCodeOption {
        subcommands: &["difftool"],
        spells: &[GitSpell::Both('x', "--extcmd")],
        shown: "--extcmd",
    },
    GitCodeOption {
        subcommands: &["push", "send-pack"],
        spells: &[GitSpell::Long("--receive-pack")],
        shown: "--receive-pack",
    },
    GitCodeOption {
        subcommands: &["push", "send-pack"],
        spells: &[GitSpell::Long("--exec")],
        shown: "--exec",
    },
    GitCodeOption {
        subcommands: &["grep"],
        spells: &[GitSpell::Both('O', "--open-files-in-pager")],
        shown: "--open-files-in-pager",
    },
];

/// git configuration keys that name a command git runs.
pub(crate) const GIT_CODE_KEYS: &[&str] = &[
    "core.pager",
    "core.editor",
    "core.sshcommand",
    "core.fsmonitor",
    "core.hookspath",
    "core.askpass",
    "core.gitproxy",
    "core.alternaterefscommand",
    "diff.external",
    "sequence.editor",
    "interactive.difffilter",
    "web.browser",
    // Its hooks are copied into every repository git init or clone
    // makes, and run there.
    "init.templatedir",
];

/// The last part of a key that names a command in any section
/// (`diff.<driver>.textconv`, `merge.<driver>.driver`…).
pub(crate) const GIT_CODE_NAMES: &[&str] = &[
    "textconv",
    "command",
    "cmd",
    "driver",
    "helper",
    "program",
    "uploadpack",
    "receivepack",
    "proxy",
    // `submodule.<name>.update = !command` runs on `git submodule
    // update`.
    "update",
];

/// `git config`'s subcommands (git 2.46+) that write (SPEC §6.5).
pub(crate) const GIT_CONFIG_WRITING_SUBCOMMANDS: &[&str] =
    &["set", "unset", "rename-section", "remove-section", "edit"];

/// `git config`'s options that take a value (`-f FILE`, `--type bool`):
/// the word after one is its value, not a key or a subcommand.
pub(crate) const GIT_CONFIG_VALUED_OPTIONS: &[&str] =
    &["-f", "--file", "--blob", "--type", "--default"];

/// `git config`'s words that write (SPEC §6.5): its writing options, then
/// its writing subcommands — the continuation row's mutating words.
pub(crate) const GIT_CONFIG_MUTATING: [&str;
    GIT_CONFIG_WRITING_OPTIONS.len() + GIT_CONFIG_WRITING_SUBCOMMANDS.len()] =
    super::concat(&[GIT_CONFIG_WRITING_OPTIONS, GIT_CONFIG_WRITING_SUBCOMMANDS]);

/// `git config`'s words that only read: its reading modes and the options
/// that qualify them — the continuation row's reading words.
pub(crate) const GIT_CONFIG_READING: [&str;
    GIT_CONFIG_READING_MODES.len() + GIT_CONFIG_SETTING_OPTIONS.len()] =
    super::concat(&[GIT_CONFIG_READING_MODES, GIT_CONFIG_SETTING_OPTIONS]);

/// Every ref-filter option, each taking a value: the filters, then how
/// the list is sorted and shown.
pub(crate) const GIT_REF_FILTER_VALUED: [&str; GIT_REF_FILTERS.len() + 2] =
    super::concat(&[GIT_REF_FILTERS, &["--sort", "--format"]]);

/// A git subcommand that may start git's editor (git 2.47): the program
/// `GIT_EDITOR`, `core.editor`, `VISUAL` or `EDITOR` names, else `vi` —
/// one permc does not know, which reads its commands from standard input
/// when that is not a terminal (vi's `:!CMD` runs a shell command, as
/// `ex` and `ed` do, SPEC §4.3): a segment that starts it is unparsed.
/// Its options are read as git's parse-options reads them (unique
/// prefixes, `--no-NAME`, clusters, options after operands).
#[derive(Debug, Clone, Copy)]
pub struct GitEditor {
    /// The subcommand (`commit`).
    pub subcommand: &'static str,
    /// Short options without a value.
    pub flags: &'static str,
    /// Short options with a value (the rest of the word or the next).
    pub valued: &'static str,
    /// Short options whose value is attached only (`-S[KEYID]`).
    pub optional: &'static str,
    /// Long options without a value, without `--`.
    pub long_flags: &'static [&'static str],
    /// Long options with a value.
    pub long_valued: &'static [&'static str],
    /// Long options whose value is given with `=` only.
    pub long_optional: &'static [&'static str],
    /// Options that start the editor (a letter or a long name); their
    /// `--no-` form stops it, the last one given counts.
    pub edit: &'static [&'static str],
    /// Options that start it whatever else is given: the interactive
    /// modes, whose answers on standard input (`e`) start it.
    pub interactive: &'static [&'static str],
    /// Options that give the message, so that the editor is not needed.
    pub message: &'static [&'static str],
    /// The subcommand starts the editor when no `message` option is given.
    pub by_default: bool,
    /// Options that make it start the editor unless a `message` option is
    /// given (`git tag -a`: an annotated tag needs a message).
    pub default_with: &'static [&'static str],
    /// Options git refuses the editor with, each an action of its own
    /// (`git config --get -e` is an error): with one, nothing starts.
    pub excludes: &'static [&'static str],
    /// When not empty, the row reads only a subcommand of the subcommand
    /// given as its first operand (`git notes add`, `git config edit`);
    /// with none, or another, it starts nothing.
    pub verbs: &'static [&'static str],
    /// An option before any operand stands for the first verb (`git stash
    /// -p` is `git stash push -p`; `git stash -q show -p` pushes too).
    pub implied_verb: bool,
}

/// The subcommands the seeds and examples name that start the editor:
/// `git commit` without a message (`-m`, `-F`, `-C`, `--no-edit`, a dry
/// run) or with `-e`, `-c`, `-t`, `git add -e|-p|-i`, `git branch
/// --edit-description` and `git tag -a|-s|-u` without a message or with
/// `-e` (the container's floor approves both); `merge -e|--continue`,
/// `revert -e`, `cherry-pick -e`, `notes add|append|edit` without a
/// message, `rebase -i|--edit-todo` (the sequence editor), `pull --edit`,
/// `config -e` and `config edit` (git 2.47, each checked with
/// `GIT_EDITOR` set to a marker in a scratch repository), and
/// `checkout|restore|reset|stash [push|save] -p`, whose `e` answer on
/// standard input edits a hunk in it (git 2.39.5, `printf 'e\n' | git
/// checkout -p` with a marker editor). Not rows: `am -i` (git refuses it
/// unless standard input is a terminal), `difftool` and `mergetool`
/// (code, SPEC §4.3), `var GIT_EDITOR` (prints it).
pub const GIT_EDITOR_STARTS: &[GitEditor] = &[
    GitEditor {
        subcommand: "commit",
        flags: "qvseaipozn",
        valued: "FmcCt",
        optional: "Su",
        long_flags: &[
            "quiet",
            "verbose",
            "reset-author",
            "signoff",
            "edit",
            "status",
            "all",
            "include",
            "interactive",
            "patch",
            "only",
            "verify",
            "no-verify",
            "dry-run",
            "short",
            "branch",
            "ahead-behind",
            "porcelain",
            "long",
            "null",
            "amend",
            "allow-empty",
            "allow-empty-message",
            "post-rewrite",
            "no-post-rewrite",
            "pathspec-file-nul",
            // parse-options negates valued options too (`--no-author`).
            "no-file",
            "no-author",
            "no-date",
            "no-message",
            "no-reedit-message",
            "no-reuse-message",
            "no-fixup",
            "no-squash",
            "no-template",
            "no-cleanup",
            "no-gpg-sign",
            "no-untracked-files",
            "no-pathspec-from-file",
        ],
        long_valued: &[
            "file",
            "author",
            "date",
            "message",
            "reedit-message",
            "reuse-message",
            "fixup",
            "squash",
            "trailer",
            "template",
            "cleanup",
            "pathspec-from-file",
        ],
        long_optional: &["gpg-sign", "untracked-files"],
        // `--no-message` and its kin take back a message given before.
        edit: &[
            "e",
            "edit",
            "c",
            "reedit-message",
            "t",
            "template",
            "no-message",
            "no-file",
            "no-reuse-message",
        ],
        interactive: &["p", "patch", "interactive"],
        message: &[
            "m",
            "message",
            "F",
            "file",
            "C",
            "reuse-message",
            "dry-run",
            "short",
            "porcelain",
            "long",
        ],
        by_default: true,
        default_with: &[],
        verbs: &[],
        implied_verb: false,
        excludes: &[],
    },
    GitEditor {
        subcommand: "add",
        flags: "nvipefuNA",
        valued: "",
        optional: "",
        long_flags: &[
            "dry-run",
            "verbose",
            "interactive",
            "patch",
            "edit",
            "force",
            "update",
            "renormalize",
            "intent-to-add",
            "all",
            "ignore-removal",
            "refresh",
            "ignore-errors",
            "ignore-missing",
            "sparse",
            "pathspec-file-nul",
            "no-chmod",
            "no-pathspec-from-file",
            // Hidden from `-h`, read by git 2.47.
            "warn-embedded-repo",
            "no-warn-embedded-repo",
        ],
        long_valued: &["chmod", "pathspec-from-file"],
        long_optional: &[],
        edit: &["e", "edit"],
        interactive: &["p", "patch", "i", "interactive"],
        message: &[],
        by_default: false,
        default_with: &[],
        verbs: &[],
        implied_verb: false,
        excludes: &[],
    },
    GitEditor {
        subcommand: "branch",
        flags: "vqrdDmMcClafi",
        valued: "u",
        optional: "t",
        long_flags: &[
            "verbose",
            "quiet",
            "unset-upstream",
            "remotes",
            "all",
            "delete",
            "move",
            "omit-empty",
            "copy",
            "list",
            "show-current",
            "create-reflog",
            "edit-description",
            "force",
            "ignore-case",
            "recurse-submodules",
            "no-track",
            "no-set-upstream-to",
            "no-color",
            "no-abbrev",
            "no-column",
            "no-sort",
            "no-points-at",
            "no-format",
        ],
        long_valued: &[
            "set-upstream-to",
            "contains",
            "no-contains",
            "merged",
            "no-merged",
            "sort",
            "points-at",
            "format",
        ],
        long_optional: &["track", "color", "abbrev", "column"],
        edit: &["edit-description"],
        interactive: &[],
        message: &[],
        by_default: false,
        default_with: &[],
        verbs: &[],
        implied_verb: false,
        excludes: &[],
    },
    GitEditor {
        subcommand: "tag",
        flags: "ldvaesfi",
        valued: "mFu",
        optional: "n",
        long_flags: &[
            "list",
            "delete",
            "verify",
            "annotate",
            "edit",
            "sign",
            "force",
            "create-reflog",
            "omit-empty",
            "ignore-case",
            "no-file",
            "no-cleanup",
            "no-local-user",
            "no-column",
            "no-sort",
            "no-points-at",
            "no-format",
            "no-color",
        ],
        long_valued: &[
            "message",
            "file",
            "trailer",
            "cleanup",
            "local-user",
            "contains",
            "no-contains",
            "merged",
            "no-merged",
            "sort",
            "points-at",
            "format",
        ],
        long_optional: &["column", "color"],
        edit: &["e", "edit", "no-file"],
        interactive: &[],
        message: &[
            "m", "message", "F", "file", "l", "list", "d", "delete", "v", "verify",
        ],
        by_default: false,
        default_with: &["a", "annotate", "s", "sign", "u", "local-user"],
        verbs: &[],
        implied_verb: false,
        excludes: &[],
    },
    // git starts the editor for `merge`, `revert` and `cherry-pick` by
    // default only when standard input is a terminal (git 2.47, checked:
    // `GIT_EDITOR=… git merge side </dev/null` and `git revert HEAD
    // </dev/null` start none): an agent's is not, and a standard input the
    // line feeds never is. `-e`/`--edit` starts it whatever standard input
    // is; `merge --continue` commits as `git commit` does, with the editor.
    GitEditor {
        subcommand: "merge",
        flags: "nevq",
        valued: "sXmF",
        optional: "S",
        long_flags: &[
            "stat",
            "summary",
            "squash",
            "commit",
            "edit",
            "ff",
            "ff-only",
            "rerere-autoupdate",
            "verify-signatures",
            "verbose",
            "quiet",
            "abort",
            "quit",
            "continue",
            "allow-unrelated-histories",
            "progress",
            "autostash",
            "overwrite-ignore",
            "signoff",
            "verify",
            "no-verify",
            "no-cleanup",
            "no-strategy",
            "no-strategy-option",
            "no-message",
            "no-into-name",
            "no-gpg-sign",
            "no-log",
        ],
        long_valued: &[
            "cleanup",
            "strategy",
            "strategy-option",
            "message",
            "file",
            "into-name",
        ],
        long_optional: &["log", "gpg-sign"],
        edit: &["e", "edit"],
        interactive: &["continue"],
        message: &[],
        by_default: false,
        default_with: &[],
        verbs: &[],
        implied_verb: false,
        excludes: &[],
    },
    GitEditor {
        subcommand: "revert",
        flags: "nes",
        valued: "mX",
        optional: "S",
        long_flags: &[
            "quit",
            "continue",
            "abort",
            "skip",
            "no-commit",
            "commit",
            "edit",
            "signoff",
            "rerere-autoupdate",
            "reference",
            "no-cleanup",
            "no-mainline",
            "no-strategy",
            "no-strategy-option",
            "no-gpg-sign",
        ],
        long_valued: &["cleanup", "mainline", "strategy", "strategy-option"],
        long_optional: &["gpg-sign"],
        edit: &["e", "edit"],
        interactive: &[],
        message: &[],
        by_default: false,
        default_with: &[],
        verbs: &[],
        implied_verb: false,
        excludes: &[],
    },
    GitEditor {
        subcommand: "cherry-pick",
        flags: "nesx",
        valued: "mX",
        optional: "S",
        long_flags: &[
            "quit",
            "continue",
            "abort",
            "skip",
            "no-commit",
            "commit",
            "edit",
            "signoff",
            "rerere-autoupdate",
            "ff",
            "allow-empty",
            "allow-empty-message",
            "keep-redundant-commits",
            "no-cleanup",
            "no-mainline",
            "no-strategy",
            "no-strategy-option",
            "no-gpg-sign",
        ],
        long_valued: &[
            "cleanup",
            "mainline",
            "strategy",
            "strategy-option",
            "empty",
        ],
        long_optional: &["gpg-sign"],
        edit: &["e", "edit"],
        interactive: &[],
        message: &[],
        by_default: false,
        default_with: &[],
        verbs: &[],
        implied_verb: false,
        excludes: &[],
    },
    // `git notes add|append|edit` without `-m`, `-F` or `-C` (git 2.47,
    // checked; `edit -m` still takes the message).
    GitEditor {
        subcommand: "notes",
        flags: "f",
        valued: "mFcC",
        optional: "",
        long_flags: &[
            "allow-empty",
            "force",
            "stripspace",
            "no-ref",
            "no-message",
            "no-file",
            "no-reedit-message",
            "no-reuse-message",
        ],
        long_valued: &["ref", "message", "file", "reedit-message", "reuse-message"],
        long_optional: &["separator"],
        edit: &["c", "reedit-message"],
        interactive: &[],
        message: &["m", "message", "F", "file", "C", "reuse-message"],
        by_default: true,
        default_with: &[],
        verbs: &["add", "append", "edit"],
        implied_verb: false,
        excludes: &[],
    },
    // `rebase -i` edits the todo list with the sequence editor, which is
    // git's editor unless GIT_SEQUENCE_EDITOR or sequence.editor names
    // another (a variable that names code, SPEC §4.3); `--edit-todo` too.
    GitEditor {
        subcommand: "rebase",
        flags: "qvnfmir",
        valued: "CsXx",
        optional: "S",
        long_flags: &[
            "keep-base",
            "verify",
            "no-verify",
            "quiet",
            "verbose",
            "stat",
            "no-stat",
            "signoff",
            "committer-date-is-author-date",
            "reset-author-date",
            "ignore-whitespace",
            "force-rebase",
            "ff",
            "no-ff",
            "continue",
            "skip",
            "abort",
            "quit",
            "edit-todo",
            "show-current-patch",
            "apply",
            "merge",
            "interactive",
            "rerere-autoupdate",
            "autosquash",
            "update-refs",
            "autostash",
            "fork-point",
            "root",
            "reschedule-failed-exec",
            "reapply-cherry-picks",
            "no-onto",
            "no-whitespace",
            "no-strategy",
            "no-strategy-option",
            "no-exec",
            "no-gpg-sign",
            "no-rebase-merges",
        ],
        long_valued: &[
            "onto",
            "whitespace",
            "empty",
            "exec",
            "strategy",
            "strategy-option",
        ],
        long_optional: &["gpg-sign", "rebase-merges"],
        edit: &[],
        interactive: &["i", "interactive", "edit-todo"],
        message: &[],
        by_default: false,
        default_with: &[],
        verbs: &[],
        implied_verb: false,
        excludes: &[],
    },
    // `git pull --edit` edits the merge's message (`-e` is no option of
    // pull); by default, as `merge`, only on a terminal.
    GitEditor {
        subcommand: "pull",
        flags: "vqrnaftpk46",
        valued: "sXo",
        optional: "Sj",
        long_flags: &[
            "verbose",
            "quiet",
            "progress",
            "stat",
            "squash",
            "commit",
            "edit",
            "ff",
            "ff-only",
            "verify",
            "verify-signatures",
            "autostash",
            "allow-unrelated-histories",
            "all",
            "append",
            "force",
            "tags",
            "prune",
            "dry-run",
            "keep",
            "unshallow",
            "update-shallow",
            "ipv4",
            "ipv6",
            "show-forced-updates",
            "set-upstream",
            "no-recurse-submodules",
            "no-rebase",
            "no-log",
            "no-signoff",
            "no-cleanup",
            "no-strategy",
            "no-strategy-option",
            "no-gpg-sign",
            "no-upload-pack",
            "no-jobs",
            "no-depth",
            "no-shallow-since",
            "no-shallow-exclude",
            "no-deepen",
            "no-server-option",
            "no-negotiation-tip",
        ],
        long_valued: &[
            "cleanup",
            "strategy",
            "strategy-option",
            "upload-pack",
            "depth",
            "shallow-since",
            "shallow-exclude",
            "deepen",
            "refmap",
            "server-option",
            "negotiation-tip",
        ],
        long_optional: &[
            "recurse-submodules",
            "rebase",
            "log",
            "signoff",
            "gpg-sign",
            "jobs",
        ],
        edit: &["edit"],
        interactive: &[],
        message: &[],
        by_default: false,
        default_with: &[],
        verbs: &[],
        implied_verb: false,
        excludes: &[],
    },
    // `git config -e|--edit` and git 2.46's `git config edit`.
    GitEditor {
        subcommand: "config",
        flags: "lez",
        valued: "ft",
        optional: "",
        long_flags: CONFIG_LONG_FLAGS,
        long_valued: CONFIG_LONG_VALUED,
        long_optional: &[],
        edit: &["e", "edit"],
        interactive: &[],
        message: &[],
        by_default: false,
        default_with: &[],
        verbs: &[],
        implied_verb: false,
        excludes: CONFIG_ACTIONS,
    },
    GitEditor {
        subcommand: "config",
        flags: "lez",
        valued: "ft",
        optional: "",
        long_flags: CONFIG_LONG_FLAGS,
        long_valued: CONFIG_LONG_VALUED,
        long_optional: &[],
        edit: &[],
        interactive: &[],
        message: &[],
        by_default: true,
        default_with: &[],
        verbs: &["edit"],
        implied_verb: false,
        excludes: CONFIG_ACTIONS,
    },
    // git 2.39.5's `git checkout -h`, `git restore -h`, `git reset -h`,
    // `git stash push -h` and `git stash save -h`.
    GitEditor {
        subcommand: "checkout",
        flags: "lqmdf23p",
        valued: "bB",
        optional: "t",
        long_flags: &[
            "guess",
            "overlay",
            "quiet",
            "progress",
            "merge",
            "detach",
            "force",
            "overwrite-ignore",
            "ignore-other-worktrees",
            "ours",
            "theirs",
            "patch",
            "ignore-skip-worktree-bits",
            "pathspec-file-nul",
            "no-pathspec-from-file",
            "no-conflict",
            "no-orphan",
        ],
        long_valued: &["conflict", "orphan", "pathspec-from-file"],
        long_optional: &["recurse-submodules", "track"],
        edit: &[],
        interactive: &["p", "patch"],
        message: &[],
        by_default: false,
        default_with: &[],
        excludes: &[],
        verbs: &[],
        implied_verb: false,
    },
    GitEditor {
        subcommand: "restore",
        flags: "SWqm23p",
        valued: "s",
        optional: "",
        long_flags: &[
            "staged",
            "worktree",
            "ignore-unmerged",
            "overlay",
            "quiet",
            "progress",
            "merge",
            "ours",
            "theirs",
            "patch",
            "ignore-skip-worktree-bits",
            "pathspec-file-nul",
            "no-source",
            "no-conflict",
            "no-pathspec-from-file",
        ],
        long_valued: &["source", "conflict", "pathspec-from-file"],
        long_optional: &["recurse-submodules"],
        edit: &[],
        interactive: &["p", "patch"],
        message: &[],
        by_default: false,
        default_with: &[],
        excludes: &[],
        verbs: &[],
        implied_verb: false,
    },
    GitEditor {
        subcommand: "reset",
        flags: "qpN",
        valued: "",
        optional: "",
        long_flags: &[
            "quiet",
            "refresh",
            "mixed",
            "soft",
            "hard",
            "merge",
            "keep",
            "patch",
            "intent-to-add",
            "pathspec-file-nul",
            "no-pathspec-from-file",
        ],
        long_valued: &["pathspec-from-file"],
        long_optional: &["recurse-submodules"],
        edit: &[],
        interactive: &["p", "patch"],
        message: &[],
        by_default: false,
        default_with: &[],
        excludes: &[],
        verbs: &[],
        implied_verb: false,
    },
    GitEditor {
        subcommand: "stash",
        flags: "kSpqua",
        valued: "m",
        optional: "",
        long_flags: &[
            "keep-index",
            "staged",
            "patch",
            "quiet",
            "include-untracked",
            "all",
            "pathspec-file-nul",
            "no-message",
            "no-pathspec-from-file",
        ],
        long_valued: &["message", "pathspec-from-file"],
        long_optional: &[],
        edit: &[],
        interactive: &["p", "patch"],
        message: &[],
        by_default: false,
        default_with: &[],
        excludes: &[],
        verbs: &["push", "save"],
        implied_verb: true,
    },
];

/// `git config`'s long options without a value (git 2.47, its old
/// options and its subcommands' together), for both of its rows.
const CONFIG_LONG_FLAGS: &[&str] = &[
    "global",
    "system",
    "local",
    "worktree",
    "get",
    "get-all",
    "get-regexp",
    "get-urlmatch",
    "replace-all",
    "add",
    "unset",
    "unset-all",
    "rename-section",
    "remove-section",
    "list",
    "edit",
    "get-color",
    "get-colorbool",
    "null",
    "name-only",
    "show-origin",
    "show-scope",
    "show-names",
    "bool",
    "int",
    "bool-or-int",
    "bool-or-str",
    "path",
    "expiry-date",
    "fixed-value",
    "includes",
    "no-file",
    "no-blob",
    "no-type",
    "no-default",
    "no-comment",
    "all",
    "no-value",
    "regexp",
    "no-regexp",
    "append",
    "no-append",
];

/// `git config`'s actions, each refused with `-e` (git 2.47, checked:
/// "options '-e' and '--get' cannot be used together").
const CONFIG_ACTIONS: &[&str] = &[
    "get",
    "get-all",
    "get-regexp",
    "get-urlmatch",
    "replace-all",
    "add",
    "unset",
    "unset-all",
    "rename-section",
    "remove-section",
    "l",
    "list",
    "get-color",
    "get-colorbool",
];

/// `git config`'s long options with a value.
const CONFIG_LONG_VALUED: &[&str] = &["file", "blob", "type", "default", "comment", "value", "url"];

include!(concat!(env!("OUT_DIR"), "/catalogue/git.rs"));
