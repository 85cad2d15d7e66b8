//! The types the catalogue's rows are written in (SPEC §4.5 item 1):
//! what a row holds, and nothing of how the facts read it. The rows
//! (`shell/catalogue/*.toml`, made Rust by `shell/build.rs`) and the few
//! tables still written in Rust here use them; the logic imports them
//! from here, never the reverse.

/// `a == b`, at compile time: the tables built from the rows (and the
/// logic's own const tables) compare names with it.
pub const fn const_eq(a: &str, b: &str) -> bool {
    const_eq_bytes(a.as_bytes(), b.as_bytes())
}

/// [`const_eq`] of byte slices.
pub const fn const_eq_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// How a program reads its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// glibc's `getopt_long`.
    Gnu,
    /// git's options: `handle_options` before a subcommand, `parse-options`
    /// in one (`abbreviations`).
    Git,
    /// bash's `internal_getopt` and the shell binary's own reading.
    Bash,
}

/// A program's option grammar, borrowed from its row.
#[derive(Debug, Clone, Copy)]
pub struct Grammar<'g> {
    /// How the options are read.
    pub mode: Mode,
    /// Short options without a value, one letter each.
    pub flags: &'g str,
    /// Short options with a value (the rest of the word or the next word;
    /// with `values_apart`, the next word).
    pub valued: &'g str,
    /// Short options whose value, if any, is attached only (`-i[R]`).
    pub optional: &'g str,
    /// Long options without a value, without their `--`.
    pub long_flags: &'g [&'g str],
    /// Long options with a value (`--user root`, `--user=root`).
    pub long_valued: &'g [&'g str],
    /// Long options whose value is given only with `=`.
    pub long_optional: &'g [&'g str],
    /// Options matched as whole words, dashes included, that take the
    /// next word (`-C`, `--git-dir`; a long one also as `--git-dir=x`):
    /// git.c's `handle_options` compares whole words, and the tables of
    /// programs' global options are spelled so.
    pub valued_words: &'g [&'g str],
    /// Options matched as whole words, dashes included, without a value.
    pub flag_words: &'g [&'g str],
    /// A long option is read by any unambiguous prefix of its name
    /// (getopt_long, parse-options); else only by its name.
    pub abbreviations: bool,
    /// Options are read after operands too (getopt_long's permutation);
    /// else the first operand ends them.
    pub permute: bool,
    /// `-` alone is an option (`env -` is `env -i`), not an operand; in
    /// [`Mode::Bash`], it ends the options like `--` (the shell binary:
    /// `bash - script`), where `internal_getopt` leaves it an operand
    /// (`cd -`).
    pub lone_dash: bool,
    /// A valued letter takes the next word, never the rest of its own,
    /// one more word for each such letter of a cluster: the shell binary's
    /// and `set`'s `-o NAME` (`-oo a b`). Else (getopt, `internal_getopt`)
    /// the rest of the word, or the next word when nothing is left.
    pub values_apart: bool,
    /// [`Mode::Bash`]: `+x` is an option too (`set +e`, `bash +O NAME`),
    /// as `internal_getopt` reads it for `set` and the shell binary.
    pub plus: bool,
    /// `-N`, `--N`, `-+N` (digits) is an obsolete option (`nice -5`),
    /// yielded as the valued option `NUMERIC` (`facts::options`).
    pub numeric: bool,
}

impl Grammar<'_> {
    /// A getopt_long grammar that knows no option yet: what a row file's
    /// grammar leaves out (a grammar of another `mode` gives its own
    /// `abbreviations`).
    pub(crate) const EMPTY: Self = Self::new(Mode::Gnu);

    /// A grammar of `mode` that knows no option yet.
    pub(crate) const fn new(mode: Mode) -> Self {
        Grammar {
            mode,
            flags: "",
            valued: "",
            optional: "",
            long_flags: &[],
            long_valued: &[],
            long_optional: &[],
            valued_words: &[],
            flag_words: &[],
            abbreviations: matches!(mode, Mode::Gnu),
            permute: false,
            lone_dash: false,
            plus: false,
            values_apart: false,
            numeric: false,
        }
    }
}

/// The reading of a code form's row ([`CODE_FORMS`](super::code::CODE_FORMS)):
/// what of its verb's words makes it run text permc does not read. A tag,
/// not code: the facts' logic (`facts/code_forms.rs`) reads each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeReading {
    /// `source`, `.`: always (a file's text).
    Source,
    /// `let`: always (arithmetic).
    Let,
    /// `printf -v NAME`, or a first word that may expand to it.
    PrintfAssigns,
    /// `test -v NAME`, `[ -v NAME ]`.
    TestV,
    /// `declare -i`/`-n` (and `typeset`, `local`).
    DeclareEvaluates,
    /// A name assigned or unset that is not a plain name (an array element, an expansion).
    AssignedName,
    /// `mapfile -C CALLBACK`.
    MapfileCallback,
    /// `compgen -C CMD`, `-F FUNCTION`.
    CompgenCommand,
    /// `jobs -x CMD`.
    JobsExec,
    /// `sg GROUP [CMD]`, `newgrp GROUP`: an operand.
    GroupShell,
    /// `alias NAME=TEXT` (or a word that may expand to one).
    Alias,
    /// `hash -p FILE NAME`.
    HashPath,
    /// `export -f`, or a word that may expand to it.
    ExportFunction,
    /// `enable -f FILE`.
    EnableLoad,
    /// `shopt -s|-u NAME`, or a word that may expand.
    Shopt,
    /// `set` with an option bash reads later words differently under.
    Set,
    /// An option of [`PROGRAM_TEXT`](super::code::PROGRAM_TEXT)'s programs that runs a command given as text.
    ProgramText,
    /// `gh alias set|import`: the words are the group, then its subcommands.
    GhAlias,
    /// `gh config set` of a key naming a command (`GH_COMMAND_KEYS`): the
    /// words are the group and the subcommand.
    GhConfig,
    /// `machinectl shell|login` (any of the words), or a word that may expand.
    MachinectlShell,
    /// `ip netns exec` by any prefixes (of the two words, in order), or a
    /// word that may expand.
    IpNetnsExec,
    /// `nix run` (any of the words), or a word that may expand.
    NixRun,
    /// `npm|pnpm|yarn config set`, `c set`, npm's `set`: the words are the
    /// subcommand that sets, then the groups it may follow.
    PackageConfigSet,
    /// git's global and subcommand options and configuration that run code.
    GitCode,
}
