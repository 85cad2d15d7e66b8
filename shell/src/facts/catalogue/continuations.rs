//! The mutating continuations (SPEC §3.2, §6.5): one row a command.

use super::concat;
use super::git::{GIT_REF_FILTERS, GIT_REF_FILTER_VALUED};

/// What the words after a command's name do.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// Options and operands (`git branch`, `git tag`): `mutating` options,
    /// `reading` options, `valued` options that take the next word; an
    /// operand mutates (creates) unless a `list_mode` option came first.
    Options {
        /// Options after which operands are patterns, not names to create.
        list_mode: &'static [&'static str],
        /// An operand outside list mode names something to create.
        operand_mutates: bool,
    },
    /// A subcommand after options (`git remote`, `git worktree`, `git
    /// stash`): `mutating` subcommands, or every one but `reading` when
    /// `all_but_reading`.
    Subcommand {
        /// Every subcommand but the reading ones mutates.
        all_but_reading: bool,
    },
    /// `git config`: get and list modes read, a key with a value writes.
    Config,
    /// `find`: primaries anywhere; `mutating` ones write, unknown ones
    /// count as mutating.
    Expression,
}

/// One command's continuations.
#[derive(Debug, Clone, Copy)]
pub struct Continuations {
    /// The command's words (`["git", "branch"]`).
    pub command: &'static [&'static str],
    /// Words that change state.
    pub mutating: &'static [&'static str],
    /// Words known to read (options, subcommands, primaries).
    pub reading: &'static [&'static str],
    /// Options (reading or not) that take the next word as their value.
    pub valued: &'static [&'static str],
    /// How the words after the command are read.
    pub shape: Shape,
    /// The mutating words a message names first (a few of `mutating`; the
    /// analyzer's `unanchored-mutating-verb`).
    pub shown: &'static [&'static str],
    /// Reading words to allow instead of the bare command (SPEC §8's
    /// anchored forms, each among `reading`; the analyzer suggests them).
    pub anchored: &'static [&'static str],
}

/// `git branch`'s options that make it list: its own, then the ref
/// filters.
const BRANCH_LIST_OWN: &[&str] = &[
    "-l",
    "--list",
    "-a",
    "--all",
    "-r",
    "--remotes",
    "--show-current",
];

pub(crate) const BRANCH_LIST: [&str; BRANCH_LIST_OWN.len() + GIT_REF_FILTERS.len()] =
    concat(&[BRANCH_LIST_OWN, GIT_REF_FILTERS]);

/// `git branch`'s own reading options (the ref filters' follow).
const BRANCH_READING_OWN: &[&str] = &[
    "-l",
    "--list",
    "-a",
    "--all",
    "-r",
    "--remotes",
    "-v",
    "-vv",
    "--verbose",
    "-q",
    "--quiet",
    "--show-current",
    "--color",
    "--no-color",
    "--column",
    "--no-column",
    "-i",
    "--ignore-case",
    "--abbrev",
    "--no-abbrev",
    "--omit-empty",
    "--",
];

const BRANCH_READING: [&str; BRANCH_READING_OWN.len() + GIT_REF_FILTER_VALUED.len()] =
    concat(&[BRANCH_READING_OWN, &GIT_REF_FILTER_VALUED]);

/// `git tag`'s options that make it list: its own, then the ref filters.
const TAG_LIST_OWN: &[&str] = &["-l", "--list", "-n", "-v", "--verify"];

const TAG_LIST: [&str; TAG_LIST_OWN.len() + GIT_REF_FILTERS.len()] =
    concat(&[TAG_LIST_OWN, GIT_REF_FILTERS]);

/// `git tag`'s own reading options (the ref filters' follow).
const TAG_READING_OWN: &[&str] = &[
    "-l",
    "--list",
    "-n",
    "-v",
    "--verify",
    "--color",
    "--column",
    "--no-column",
    "-i",
    "--ignore-case",
    "--omit-empty",
    "--",
];

const TAG_READING: [&str; TAG_READING_OWN.len() + GIT_REF_FILTER_VALUED.len()] =
    concat(&[TAG_READING_OWN, &GIT_REF_FILTER_VALUED]);

/// The catalogue's continuations (SPEC §6.5, git 2.47, findutils 4.9).
pub const CONTINUATIONS: &[Continuations] = &[
    Continuations {
        command: &["git", "branch"],
        mutating: &[
            "-d",
            "-D",
            "--delete",
            "-m",
            "-M",
            "--move",
            "-c",
            "-C",
            "--copy",
            "-f",
            "--force",
            "-u",
            "--set-upstream-to",
            "--unset-upstream",
            "--edit-description",
            "--track",
            "-t",
            "--no-track",
            "--create-reflog",
            "--recurse-submodules",
        ],
        reading: &BRANCH_READING,
        valued: &GIT_REF_FILTER_VALUED,
        shape: Shape::Options {
            list_mode: &BRANCH_LIST,
            operand_mutates: true,
        },
        shown: &["-D", "-m", "-f"],
        anchored: &["-a", "-r", "-v", "--list", "--show-current"],
    },
    Continuations {
        command: &["git", "tag"],
        mutating: &[
            "-d",
            "--delete",
            "-f",
            "--force",
            "-a",
            "--annotate",
            "-s",
            "--sign",
            "-u",
            "--local-user",
            "-m",
            "--message",
            "-F",
            "--file",
            "-e",
            "--edit",
        ],
        reading: &TAG_READING,
        valued: &GIT_REF_FILTER_VALUED,
        shape: Shape::Options {
            list_mode: &TAG_LIST,
            operand_mutates: true,
        },
        shown: &["-d"],
        anchored: &["--list"],
    },
    Continuations {
        command: &["git", "remote"],
        mutating: &[
            "add",
            "remove",
            "rm",
            "rename",
            "set-url",
            "set-head",
            "set-branches",
            "prune",
            "update",
        ],
        reading: &["show", "get-url", "-v", "--verbose"],
        valued: &[],
        shape: Shape::Subcommand {
            all_but_reading: false,
        },
        shown: &["add", "remove", "set-url"],
        anchored: &["-v", "show"],
    },
    Continuations {
        command: &["git", "worktree"],
        mutating: &["add", "remove", "move", "prune", "lock", "unlock", "repair"],
        reading: &["list"],
        valued: &[],
        shape: Shape::Subcommand {
            all_but_reading: false,
        },
        shown: &["add", "remove"],
        anchored: &["list"],
    },
    Continuations {
        command: &["git", "stash"],
        mutating: &[
            "push", "pop", "apply", "drop", "clear", "save", "branch", "create", "store",
        ],
        reading: &["list", "show"],
        valued: &[],
        shape: Shape::Subcommand {
            all_but_reading: true,
        },
        shown: &["drop", "clear"],
        anchored: &["list", "show"],
    },
    Continuations {
        command: &["git", "config"],
        mutating: &super::git::GIT_CONFIG_MUTATING,
        reading: &super::git::GIT_CONFIG_READING,
        valued: super::git::GIT_CONFIG_VALUED_OPTIONS,
        shape: Shape::Config,
        shown: &["--unset"],
        anchored: &["--get"],
    },
    Continuations {
        command: &["find"],
        mutating: &["-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
        reading: FIND_PRIMARIES,
        valued: &[],
        shape: Shape::Expression,
        shown: &["-delete", "-fprint", "-fls"],
        anchored: &[],
    },
];

/// A reading program whose options add a write (SPEC §6.5 round 4): past
/// an entry that does not name the option, it is a mutating
/// continuation — `Terminal(sort)` does not cover `sort -o F`,
/// `Terminal(git log)` not `git log --output=F`, `Terminal(sed -n)` not
/// `sed -n -i`. Other options and operands read (the program is not
/// described here; the closed world of SPEC §4.5 item 2 is not).
#[derive(Debug, Clone, Copy)]
pub struct WriteOptions {
    /// The command's words (`["git", "log"]`).
    pub command: &'static [&'static str],
    /// Long options that write. A word naming any prefix of one counts:
    /// glibc's `getopt_long` takes unique prefixes (`sort --outp=F`); git
    /// refuses them in `log`, `diff` and `show`, and counting them asks
    /// only more (fail closed).
    pub long: &'static [&'static str],
    /// Letters that write, alone or anywhere in a cluster of short
    /// options (`sort -uo F`, `sed -ni.bak`); a valued letter before
    /// them may make them its value, and counting them asks only more.
    pub short: &'static str,
}

/// The reading programs the seeds and the attacks name whose options
/// write and which no described row reads (a described row types its
/// writing options itself, and reads a value position as its kind: `sed`
/// `-i`, `git log|show|diff --output` are theirs, where this coarser
/// reading took `git log --author "$A"` for a possible `--output`):
/// GNU sed 4.9 as `gsed` `-i|--in-place[=SUFFIX]`, `git whatchanged`'s
/// `--output=FILE` (diff options).
pub const WRITE_OPTIONS: &[WriteOptions] = &[
    WriteOptions {
        command: &["gsed"],
        long: &["--in-place"],
        short: "i",
    },
    WriteOptions {
        command: &["git", "whatchanged"],
        long: &["--output"],
        short: "",
    },
];

include!(concat!(env!("OUT_DIR"), "/catalogue/continuations.rs"));
