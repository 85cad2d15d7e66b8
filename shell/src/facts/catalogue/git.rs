//! git's own rows: global options, the options and configuration that
//! name code (SPEC §4.3 round 3), protected branches (SPEC §5 step 7e).

/// How a git subcommand's option (or word) is given, as git's
/// parse-options reads it: `-x CMD`, `-xCMD`, in a cluster (`-ix CMD`),
/// `--exec CMD`, `--exec=CMD`, or a long name's prefix (`--exe CMD`). A
/// word that only may be one counts (fail closed).
#[derive(Debug, Clone, Copy)]
pub enum GitSpell {
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
#[derive(Debug)]
pub struct GitCodeOption {
    /// The subcommands that take it.
    pub(crate) subcommands: &'static [&'static str],
    /// Its spellings (any of them).
    pub(crate) spells: &'static [GitSpell],
    /// As the reason shows it.
    pub(crate) shown: &'static str,
}

impl GitCodeOption {
    /// A row of no subcommand: what a row file's row leaves out.
    pub(crate) const EMPTY: Self = Self {
        subcommands: &[],
        spells: &[],
        shown: "",
    };
}

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

impl GitEditor {
    /// A row of no subcommand that starts nothing: what a row file's row
    /// leaves out.
    pub const EMPTY: Self = Self {
        subcommand: "",
        flags: "",
        valued: "",
        optional: "",
        long_flags: &[],
        long_valued: &[],
        long_optional: &[],
        edit: &[],
        interactive: &[],
        message: &[],
        by_default: false,
        default_with: &[],
        excludes: &[],
        verbs: &[],
        implied_verb: false,
    };
}

include!(concat!(env!("OUT_DIR"), "/catalogue/git.rs"));
