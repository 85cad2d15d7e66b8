//! Programs described completely (SPEC §4.5 items 1 and 2): the rows of
//! `shell/catalogue/described/`, turned into [`DESCRIBED`] by
//! `shell/build.rs`, read by `facts::described` (a word a row cannot
//! place means an allow entry does not cover the segment).

/// What a word of a described program is (SPEC §4.5 item 1): an option
/// without a value, or the kind of a value or an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An option without a value.
    Flag,
    /// Data the program never opens as a file.
    Text,
    /// A file read.
    PathRead,
    /// A file created, truncated, appended, moved or removed.
    PathWrite,
    /// A directory written into.
    DirWrite,
    /// A git pathspec.
    Pathspec,
    /// A program run (§4.3).
    Command,
    /// A command line as text.
    Line,
    /// Code of another language, a plugin.
    Code,
    /// A file of settings the program reads.
    Config,
    /// A name the program sets for what it runs.
    Variable,
    /// A host, a URL, an account.
    Remote,
    /// What something permc does not read decides.
    Open,
}

impl Kind {
    /// Every kind with the name the row files give it.
    pub const NAMES: [(Kind, &'static str); 13] = [
        (Kind::Flag, "flags"),
        (Kind::Text, "text"),
        (Kind::PathRead, "path-read"),
        (Kind::PathWrite, "path-write"),
        (Kind::DirWrite, "dir-write"),
        (Kind::Pathspec, "pathspec"),
        (Kind::Command, "command"),
        (Kind::Line, "line"),
        (Kind::Code, "code"),
        (Kind::Config, "config"),
        (Kind::Variable, "variable"),
        (Kind::Remote, "remote"),
        (Kind::Open, "open"),
    ];

    /// Does a word of this kind write or run (SPEC §4.5 item 2, §5.3
    /// 7.0: `code`, `config`, `command`, `line`, `variable`, `path-write`,
    /// `dir-write`)?
    pub const fn writes_or_runs(self) -> bool {
        matches!(
            self,
            Kind::PathWrite
                | Kind::DirWrite
                | Kind::Command
                | Kind::Line
                | Kind::Code
                | Kind::Config
                | Kind::Variable
        )
    }

    /// The kind of this name (`path-read`; `flags` is [`Kind::Flag`]).
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(k, _)| *k)
    }

    /// The name the row files give the kind.
    pub fn name(self) -> &'static str {
        Kind::NAMES
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("", |(_, n)| n)
    }
}

/// The grammars a row may name (`grammar = "…"`): how the program reads
/// its words, read by `facts::described`.
/// GNU getopt_long (SPEC §4.5 item 1): clusters, a value attached or
/// next, long options by a unique prefix, options anywhere before `--`.
pub const GETOPT: &str = "getopt";
/// git's parse-options: getopt's spellings, `--no-` forms, and
/// `--end-of-options`.
pub const GIT: &str = "git";
/// git's setup_revisions and diff options: whole spellings only, each
/// `--no-` form the program reads listed in the row (setup_revisions
/// compares words: `--no-all` is refused, diff's `--no-follow` is read).
pub const GIT_REVISIONS: &str = "git-revisions";
/// Whole spellings only, no prefixes and no `--no-` forms (a program
/// that compares each word: `git rev-parse`).
pub const EXACT: &str = "exact";
/// Options only before the first operand, each word a cluster of the
/// row's one-letter flags; any other word (`--`, `-x`, `--help`) is the
/// first operand, and so is every word after it (bash's `echo`).
pub const LEADING_CLUSTERS: &str = "leading-clusters";
/// GNU getopt_long as `getopt`, and an operand `NAME=VALUE` (or one
/// with an unknown part, which may be one) is a variable assignment the
/// program makes for what it runs: `variable` (GNU make's operands).
pub const MAKE: &str = "make";
/// Go's flag package as `go test` reads it (cmd/go/internal/test/
/// testflag.go): `-flag` or `--flag`, `-flag=v`, a value in the next
/// word unless the option is a flag or its value optional (`[=]`: only
/// `-flag=v`); no clusters, no prefixes; options anywhere. Where the row
/// has `open` options, a flag it lacks is open (the test binary's) and
/// an `open` option (`-args`) makes every later word open but the row's
/// `-test.` options; `--` makes every later word open.
pub const GO: &str = "go";
/// Python's argparse as a program whose plugins add options reads it:
/// short options in clusters, `--name=v` or `--name v`, no prefixes
/// (`allow_abbrev=False`), options anywhere before `--`, a value never a
/// word that begins with `-`; a word beginning with `@` names a file of
/// arguments (`config`), and a word beginning with a short `code`
/// option's spelling is that option wherever it is (a pre-parse reads
/// them, values and operands included; a value `no:NAME` blocks a
/// plugin: text). Where the row has `open`
/// options, an option it lacks is open (a plugin's).
pub const ARGPARSE: &str = "argparse";
/// GNU getopt_long with `+` (POSIX order): options only before the first
/// operand, which ends them (`xargs`, `timeout`: a `command` operand is
/// the run, whose words are a segment of their own, SPEC §4.3).
pub const GETOPT_LEADING: &str = "getopt-leading";
/// find's command line (findutils 4.9): leading options (entries whose
/// spellings are all one letter: `-H`, `-D LIST`, `-O[=]`), the start
/// paths (the operands) up to the first word that begins with `-` or is
/// `(`, `)`, `!` or `,`, then the expression: the operators `(`, `)`,
/// `!`, `,` and the row's primaries, each spelled whole, each taking one
/// value of its list's kind — a `command` primary takes the words up to
/// `;`, or to a `+` right after `{}` (a run, SPEC §4.3; one ending in
/// `[;]` only to `;`: `-ok`); a spelling ending in `[0]` takes no value (its kind is what it does to what
/// it matches: `-delete[0]`), one ending in `[2]` a second, text value
/// (`-fprintf[2] FILE FORMAT`).
pub const FIND: &str = "find";
/// clap (a Rust program's parser): long options by their whole spelling
/// only (no prefixes, no `--no-` forms), the value after `=` or in the
/// next word unless that word begins with `-` (then it is read as an
/// option: an optional value not given), short options in clusters,
/// `--` ending options; `--end-of-options` is no word of it.
pub const CLAP: &str = "clap";
/// [`CLAP`] as clap 2 reads it (ripgrep 13): a flag given a value after
/// `=` (`--count=x`) is that flag, its value ignored.
pub const CLAP2: &str = "clap2";
/// nopt as a node package manager reads its configuration on the line
/// (`facts::described::walk_nopt`): every key of the row by any number
/// of leading dashes, by its whole name or a prefix unique among the
/// row's keys, `--no-KEY`, `KEY=VALUE` or the next word; the row's
/// one-dash spellings (`-C`, `-ws`) are its shorthands, a word of
/// one-letter shorthands a cluster; a word of dashes ends the options;
/// a key the row does not list is `open` (handed to the scripts as a
/// variable) unless it names a listed key once lowercased with `_` read
/// as `-` (how a nested run reads that variable back).
pub const NOPT: &str = "nopt";
/// [`NOPT`] before the row's last program word, which is the package to
/// run: every word after it is that package's (an operand).
pub const NOPT_EXEC: &str = "nopt-exec";
/// curl's own parser (curl 7.88, tool_getparam.c): a long option by its
/// whole name or a unique prefix, its value only ever the next word
/// (`--output=F` is an unknown option); `--no-NAME` of a long flag by
/// its whole name (`--no-sil` is unknown) unless the row's
/// `no-negation` lists it (curl's table names no option `no-…`: `-N
/// --no-buffer` is `--buffer`); short options in clusters, the value
/// attached or next;
/// options anywhere before `--` (no `--end-of-options`).
pub const CURL: &str = "curl";
/// popt as rsync reads it: [`EXACT`]'s whole long spellings (each
/// `--no-` form the row lists), getopt's clusters, values attached or
/// next, options anywhere before `--`; no `--end-of-options`. popt's
/// `-NAME` for `--NAME` is read as a cluster, which only tightens.
pub const POPT: &str = "popt";
/// GNU tar's command line (argp): [`GETOPT`]'s spellings, and a first
/// word that does not begin with `-` read as a cluster of the row's
/// one-letter options without the dash, each valued letter taking the
/// next word not yet taken (`tar cfb a.tar 20 src`).
pub const TAR: &str = "tar";
/// OpenSSH's command line (ssh.c with OpenBSD's getopt,
/// `facts::described::ssh`): short options only, in clusters, a value
/// attached or in the next word; options up to the first operand (the
/// destination, `remote`), then options again up to the next operand
/// (unless `--` came first), and every word from there on the command
/// line run on the destination (`line`). A letter the row spells only
/// with a name after it (`-oproxycommand`) is a keyed option: its value
/// is `KEY=VALUE` or `KEY VALUE`, the key (any case) one of the row's
/// names, whose list gives the kind; any other key is unplaced.
pub const SSH: &str = "ssh";
/// Vim's own command line (main.c's `command_line_scan`,
/// `facts::described::vim`): options up to `--`, anywhere among the file
/// operands; `-` alone is stdin (text); a word `+`, `+NUM` is a line
/// number (text), any other `+CMD` a command, as the row's `-c`; short
/// options letter by letter in one word, a value in the next word only
/// (`-c CMD`), or only attached where the spelling ends in `[=]`
/// (`-V[=]`: `-V9log`), or attached or else the next word where it ends
/// in `[+]` (`-t TAG`, `-tTAG`); a spelling ending in `[0]` takes no
/// value and has its list's kind (`-e[0]`: Ex mode reads commands from
/// stdin, `code`); a spelling of two letters (`-nb[=]`) wherever its
/// letters meet in a word, the rest its value; long options whole and in
/// any case (`--CLEAN`).
pub const VIM: &str = "vim";
/// dd's command line (GNU coreutils 9.1): its long options (`--help`,
/// `--version`, by a unique prefix) anywhere before `--`, and operands
/// `KEY=VALUE`, each key spelled whole as the row lists it with its `=`
/// (`if=`, `of=`): the value has that entry's kind; a word without `=`
/// or with a key the row lacks is refused (dd's "unrecognized operand").
pub const DD: &str = "dd";
/// Every grammar a row may name.
pub const GRAMMARS: [&str; 20] = [
    GETOPT,
    GIT,
    GIT_REVISIONS,
    EXACT,
    LEADING_CLUSTERS,
    MAKE,
    GO,
    ARGPARSE,
    GETOPT_LEADING,
    FIND,
    CLAP,
    CLAP2,
    POPT,
    TAR,
    NOPT,
    NOPT_EXEC,
    CURL,
    SSH,
    VIM,
    DD,
];

/// One program's options at one version, each option an entry of the
/// list of its kind: its spellings separated by blanks (`"-o --output"`),
/// a long spelling ending in `[=]` taking its value only after `=`.
#[derive(Debug, Clone, Copy)]
pub struct Described {
    /// The command's words (`["sort"]`).
    pub program: &'static [&'static str],
    /// The version described (docs/commands.md, messages).
    pub version: &'static str,
    /// How the program reads its options (`getopt`: GNU getopt_long).
    pub grammar: &'static str,
    /// The kinds of the operands by position, the last repeating.
    pub operands: &'static [&'static str],
    /// Are its `path-write` and `dir-write` words (operands and options:
    /// cp's DEST, `-t`, `-S`) the program's own writes (SPEC §6.5: "the
    /// operands of a program whose row types it as a writer (`cp`, `mv`,
    /// `mkdir`, `touch`, `tee`) are covered by an entry that names it")?
    /// Else each is a mutating continuation (uniq's OUTPUT, `sort -o`).
    pub writer: bool,
    /// Options without a value.
    pub flags: &'static [&'static str],
    /// Options whose value is text.
    pub text: &'static [&'static str],
    /// Options whose value is a file read.
    pub path_read: &'static [&'static str],
    /// Options whose value is a file written.
    pub path_write: &'static [&'static str],
    /// Options whose value is a directory written into.
    pub dir_write: &'static [&'static str],
    /// Options whose value is a pathspec.
    pub pathspec: &'static [&'static str],
    /// Options whose value is a program run.
    pub command: &'static [&'static str],
    /// Options whose value is a command line.
    pub line: &'static [&'static str],
    /// Options whose value is code.
    pub code: &'static [&'static str],
    /// Options whose value is a file of settings.
    pub config: &'static [&'static str],
    /// Options whose value names a variable set for what the program runs.
    pub variable: &'static [&'static str],
    /// Options whose value is a host, a URL or an account.
    pub remote: &'static [&'static str],
    /// Options whose value something permc does not read decides.
    pub open: &'static [&'static str],
    /// Long spellings of the `git` grammar's options that have no `--no-`
    /// form (parse-options' PARSE_OPT_NONEG: `git status
    /// --no-find-renames` is refused).
    pub no_negation: &'static [&'static str],
    /// Long spellings whose value is only ever the next word (git's
    /// setup_revisions compares `--default` whole: `--default=X` is
    /// refused).
    pub next_only: &'static [&'static str],
    /// Long spellings whose value is the next word unless they are the
    /// last (parse-options' PARSE_OPT_LASTARG_DEFAULT: `git branch
    /// --merged`); read as any valued option, the oracle knows them.
    pub last_arg_default: &'static [&'static str],
    /// Options only before the first operand: every word after it is an
    /// operand (parse-options' PARSE_OPT_STOP_AT_NON_OPTION: `git config
    /// user.name --get` sets user.name to `--get`).
    pub options_first: bool,
    /// The options that give what the first operand otherwise is (grep's
    /// `-e`/`-f` its pattern, sed's its script): given none of them, the
    /// first operand is `text` and [`Described::operands`] types the
    /// operands after it; given one, every operand (SPEC §4.5 items 1
    /// and 4: grep never opens its pattern operand as a file).
    pub operand_given_by: &'static [&'static str],
    /// When not empty, a first word of a dash, digits and then only these
    /// letters is the program's count, `text` (the obsolete `head -20`,
    /// `tail -5c`: coreutils reads it before getopt, only as the first
    /// word).
    pub count_word: &'static str,
    /// The hash of the row (shell/build.rs).
    pub hash: &'static str,
    /// Did the real program verify the row as it is (its `verified`
    /// field holds [`Described::hash`])?
    pub verified: bool,
    /// The version the real program had when it verified the row.
    pub verified_version: &'static str,
    /// The date it verified the row.
    pub verified_on: &'static str,
    /// The row's position in [`DESCRIBED`] (shell/build.rs).
    pub index: usize,
    /// Each spelling of the row's options, sorted (shell/build.rs): the
    /// spelling without `[=]`, its list's position in
    /// [`Described::options`], whether its value is optional, the entry.
    /// Empty: the lists are scanned (a row made by hand, or from another
    /// by struct update, must leave it empty: `spellings: &[]`).
    pub spellings: &'static [(&'static str, usize, bool, &'static str)],
}

impl Described {
    /// The defaults a row's missing fields take.
    pub const EMPTY: Described = Described {
        program: &[],
        version: "",
        grammar: "getopt",
        operands: &[],
        writer: false,
        flags: &[],
        text: &[],
        path_read: &[],
        path_write: &[],
        dir_write: &[],
        pathspec: &[],
        command: &[],
        line: &[],
        code: &[],
        config: &[],
        variable: &[],
        remote: &[],
        open: &[],
        no_negation: &[],
        next_only: &[],
        last_arg_default: &[],
        options_first: false,
        operand_given_by: &[],
        count_word: "",
        hash: "",
        verified: false,
        verified_version: "",
        verified_on: "",
        index: 0,
        spellings: &[],
    };

    /// The row's option lists in [`Kind::NAMES`]' order, for the tables
    /// built at compile time.
    pub const fn lists(&self) -> [&'static [&'static str]; 13] {
        [
            self.flags,
            self.text,
            self.path_read,
            self.path_write,
            self.dir_write,
            self.pathspec,
            self.command,
            self.line,
            self.code,
            self.config,
            self.variable,
            self.remote,
            self.open,
        ]
    }

    /// The row's option lists with their kinds (in [`Kind::NAMES`]'
    /// order).
    pub const fn options(&self) -> [(&'static [&'static str], Kind); 13] {
        [
            (self.flags, Kind::Flag),
            (self.text, Kind::Text),
            (self.path_read, Kind::PathRead),
            (self.path_write, Kind::PathWrite),
            (self.dir_write, Kind::DirWrite),
            (self.pathspec, Kind::Pathspec),
            (self.command, Kind::Command),
            (self.line, Kind::Line),
            (self.code, Kind::Code),
            (self.config, Kind::Config),
            (self.variable, Kind::Variable),
            (self.remote, Kind::Remote),
            (self.open, Kind::Open),
        ]
    }

    /// Each option entry with its kind.
    pub fn entries(&self) -> impl Iterator<Item = (Kind, &'static str)> + Clone {
        self.options()
            .into_iter()
            .flat_map(|(list, kind)| list.iter().map(move |e| (kind, *e)))
    }

    /// Does the row hold an option that writes or runs (a word that may
    /// be any option may be it)?
    /// The kinds of [`Kind::writes_or_runs`], as a `const fn` so the
    /// shapes of the rows that write are built at compile time.
    pub const fn writes(&self) -> bool {
        !(self.path_write.is_empty()
            && self.dir_write.is_empty()
            && self.command.is_empty()
            && self.line.is_empty()
            && self.code.is_empty()
            && self.config.is_empty()
            && self.variable.is_empty())
    }
}

impl Described {
    /// Does the row hold a kind that writes or runs, an option's or a
    /// writing operand's (SPEC §4.5 item 2: a word the row cannot place
    /// may be one of them, and lowers with `unknown.word` in every mode:
    /// `mkdir --frob x`, whose operands are `path-write`)? Operands of a
    /// kind that runs (a wrapper's `command`) are left to the wrapper's
    /// reading, which leaves a line it cannot read unparsed.
    pub const fn lowers(&self) -> bool {
        if self.writes() {
            return true;
        }
        let mut i = 0;
        while i < self.operands.len() {
            if writing_kind_name(self.operands[i]) {
                return true;
            }
            i += 1;
        }
        false
    }
}

/// Is `name` the row files' name of a kind that writes (`path-write`,
/// `dir-write`), at compile time?
const fn writing_kind_name(name: &str) -> bool {
    let mut k = 0;
    while k < Kind::NAMES.len() {
        let (kind, n) = Kind::NAMES[k];
        if matches!(kind, Kind::PathWrite | Kind::DirWrite) && super::types::const_eq(n, name) {
            return true;
        }
        k += 1;
    }
    false
}

include!(concat!(env!("OUT_DIR"), "/catalogue/described.rs"));
