//! The mutating continuations (SPEC §3.2, §6.5): one row a command.

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

impl Continuations {
    /// A row of no command: what a row file's row leaves out.
    pub const EMPTY: Self = Self {
        command: &[],
        mutating: &[],
        reading: &[],
        valued: &[],
        shape: Shape::Config,
        shown: &[],
        anchored: &[],
    };
}

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

impl WriteOptions {
    /// A row of no command: what a row file's row leaves out.
    pub const EMPTY: Self = Self {
        command: &[],
        long: &[],
        short: "",
    };
}

include!(concat!(env!("OUT_DIR"), "/catalogue/continuations.rs"));
