//! Programs and builtins that run text permc does not read (SPEC §4.3
//! round 3, "code is unparsed"): code forms, code-running options, script
//! readers, interpreters.

use super::types::{CodeReading, Grammar, Mode};
/// A form of a builtin or a program that runs text permc does not read
/// (SPEC §4.3): the verbs it applies to and what it reads of their words.
/// A run's verb is asked of its rows in order; the first that answers is
/// the reason its line is unparsed.
#[derive(Debug)]
pub struct CodeForm {
    /// The verbs of the row.
    pub(crate) verbs: &'static [&'static str],
    /// A line the row catches (docs/commands.md shows it; a test runs it).
    pub(crate) example: &'static str,
    /// What of the words (after the verb) makes the verb run text: a tag
    /// the facts read (`facts/code_forms.rs`).
    pub(crate) reading: CodeReading,
    /// The words the reading looks for, where it looks for some (a
    /// subcommand and its group: `alias`, `set`, `import`); its tag's doc
    /// says their order.
    pub(crate) words: &'static [&'static str],
}

impl CodeForm {
    /// A row of no verb that reads nothing: what a row file's row leaves
    /// out.
    pub(crate) const EMPTY: Self = Self {
        verbs: &[],
        example: "",
        reading: CodeReading::Source,
        words: &[],
    };
}

/// Which operands of a name-assigning builtin (the words after its
/// options) are names.
#[derive(Debug, Clone, Copy)]
pub enum Names {
    /// Every operand.
    All,
    /// The second operand (`getopts OPTSTRING NAME`).
    Second,
    /// No operand.
    None,
}

/// How a builtin that assigns the names in its operands reads its words.
#[derive(Debug, Clone, Copy)]
pub enum NameGrammar {
    /// `declare`, `typeset`, `local`, `export`, `readonly`: no option
    /// takes a value (`+x` is an option), `-f`/`-F` name functions.
    Declare,
    /// Options, of which `values` take a value and `named` take a name;
    /// then the operands.
    Options {
        /// The letters that take a value.
        values: &'static str,
        /// The letters whose value is a name.
        named: &'static str,
        /// Which operands are names.
        operands: Names,
    },
    /// `unset`: names, unless `-f` (function names, not evaluated).
    Unset,
}

/// Which options of a program run a command given as text.
#[derive(Debug, Clone, Copy)]
pub enum TextOptions {
    /// GNU tar's (`--to-command`, `-I`…, also in the old-style first word).
    Tar,
    /// rsync's `-e`/`--rsh`, other than plain `ssh`.
    RemoteShell,
    /// ssh's `-o` naming a command; `program`: `-S PROGRAM` (scp, sftp);
    /// `server`: `-D SERVER` (sftp).
    Ssh {
        /// `-S PROGRAM` runs a program (scp, sftp).
        program: bool,
        /// `-D SERVER` runs a server (sftp).
        server: bool,
    },
}

/// How an option of a row is spelled.
#[derive(Debug, Clone, Copy)]
pub enum Spell {
    /// A getopt short option: alone, with its value attached, or in a
    /// cluster (`-f F`, `-fF`, `-nf F`).
    Short(char),
    /// A long option: `--name`, `--name=V` (a program that does not take
    /// abbreviations: clap, Go's flag).
    Long(&'static str),
    /// A GNU long option, also by any prefix (`--compress-prog`, `--ev`
    /// for make's `--eval`), as getopt_long takes a unique one: a prefix
    /// shared with another option is an error the program reports, so
    /// counting it asks only more.
    GnuLong(&'static str),
    /// A long option as [`Long`](Self::Long) reads it (`--name V` too)
    /// whose value names a module unless it is one of the program's
    /// built-in names (the second field): `vitest --reporter verbose` is
    /// a reporter of vitest's own, `--reporter ./r.js` a module it loads.
    LongUnless(&'static str, &'static [&'static str]),
    /// A word exactly (`-exec`, `-TT`), or with `=V` attached.
    Word(&'static str),
    /// A word that starts so (`-fplugin=…`, `-Zbuild-std`).
    Prefix(&'static str),
    /// An npm configuration key as npm 11's nopt reads it: `--name`,
    /// `--name=V`, `--name V`, and a prefix of two letters or more —
    /// nopt expands a prefix unique among npm's keys (`--scr=` is
    /// `--script-shell=`), and counting a shared one asks only more.
    Nopt(&'static str),
    /// A short option read in a cluster as getopt reads it: its letter
    /// before any of the program's letters that take a value (the second
    /// field: `pytest -Wignore` gives `-W` the value `ignore`), except
    /// when its own value (the rest of the word or the next word) starts
    /// with the third, when not empty (`pytest -p no:cacheprovider` turns
    /// a plugin off; `-p NAME` loads one).
    Getopt(char, &'static str, &'static str),
}

/// One code-running option: the programs that take it, its spelling,
/// and whether its value is code itself or names it.
#[derive(Debug)]
pub struct CodeOption {
    pub(crate) programs: &'static [&'static str],
    pub(crate) spell: Spell,
    pub(crate) kind: OptionKind,
}

/// What a code-running option's value is (SPEC §4.5 item 1). Either makes
/// the line unparsed; only `Code` makes its program one that runs code
/// given as text, for the analyzer (`broad-always-expansion`, §11:
/// `Terminal(uv run pytest)` is what always-allow records).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// A command or code as text (`make --eval`, `gcc -wrapper`).
    Code,
    /// A file of settings or code, a plugin or a directory of code,
    /// named (`config`: `--kubeconfig`, `pytest -c|-p`, `gcc @FILE`).
    Named,
}

impl CodeOption {
    /// A row of no program: what a row file's row leaves out.
    pub(crate) const EMPTY: Self = Self {
        programs: &[],
        spell: Spell::Word(""),
        kind: OptionKind::Code,
    };
}

/// The language of a script reader's script, as permc reads it for a
/// command (SPEC §4.3 round 3, "code is unparsed").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptLanguage {
    /// sed's scripts: `e`, `w`, `W`, or the `e`/`w` flag of `s`.
    Sed,
    /// awk's programs: `system`, `|`, `>`, `getline` from a command.
    Awk,
    /// make's `NAME=VALUE` operands that set a program variable.
    Make,
    /// less's `+CMD` with `!` or `|`.
    Less,
    /// vim's `+CMD` (not `+N`).
    Vim,
    /// Commands read from standard input whatever the operands (`!` runs a
    /// shell command): ed and ex.
    Stdin,
    /// sqlite3's dot-commands (`.shell`, `.system`), or standard input.
    Sqlite,
    /// psql's meta-commands that run a shell command (`\!`, `\o |CMD`,
    /// `COPY … PROGRAM`), a script file (`-f`), output to a command (`-o
    /// '|CMD'`), or standard input.
    Psql,
    /// The mysql client's commands that run a shell command (`system`,
    /// `\!`, `pager`), or standard input.
    Mysql,
    /// A coding agent: it runs the commands it chooses (and sends the
    /// project to its model's service), whatever its operands — unless it
    /// only prints its help or version (one of [`AGENT_OFFLINE`]).
    Agent,
}

/// The language `verb` reads its script in, if it is a script reader
/// ([`SCRIPT_LANGUAGES`]).
#[cfg(test)]
pub(crate) fn script_language(verb: &str) -> Option<ScriptLanguage> {
    SCRIPT_LANGUAGES
        .iter()
        .find(|(names, _)| names.contains(&verb))
        .map(|&(_, l)| l)
}

/// A program that reads commands from standard input (SPEC §4.2 round 4,
/// "What reads the body decides the rest"): when standard input comes from
/// the line — a here-document, a here-string, a `<` redirection, a pipe
/// from the command before it — the line is unparsed, for what it feeds
/// may run a shell command permc does not read.
#[derive(Debug, Clone, Copy)]
pub struct StdinCommandReader {
    /// The program's names.
    pub programs: &'static [&'static str],
    /// What it reads from standard input, and how that runs a command.
    pub reads: &'static str,
    /// Words after which it reads no commands from standard input: its
    /// commands given another way, or only its version or help printed
    /// (exactly, `--long=VALUE`, or a short option with its value
    /// attached).
    pub not_with: &'static [&'static str],
    /// Its commands are its operand at this position (from 0), when
    /// there is one: then standard input is not read.
    pub operand: Option<usize>,
    /// Its options that take the next word as their value (without their
    /// dashes), to count the operands.
    pub valued: &'static [&'static str],
    /// What the real program showed (the version checked, or the manual).
    pub verified: &'static str,
}

impl StdinCommandReader {
    /// A row of no program: what a row file's row leaves out.
    pub const EMPTY: Self = Self {
        programs: &[],
        reads: "",
        not_with: &[],
        operand: None,
        valued: &[],
        verified: "",
    };
}

include!(concat!(env!("OUT_DIR"), "/catalogue/code.rs"));
