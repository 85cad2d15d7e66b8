//! The shell reader (SPEC §4): command lines → segments of words.
//!
//! A hand-written, single-pass reader. It reads POSIX quoting without
//! expanding anything, splits at control operators, keeps redirections apart
//! from argument words, descends into nested commands (`$( )`, backticks,
//! `<( )`, `>( )`, `( )`, `{ ;}`) and records every *unparsed* condition of
//! SPEC §4.2 instead of failing.
//!
//! **Invariants.** Reading never panics, recursion is bounded by
//! [`MAX_DEPTH`] (deeper input is marked unparsed and the rest of the line is
//! skipped), and every byte is visited a bounded number of times (backtick
//! bodies are copied once per nesting level, at most `MAX_DEPTH` times), so
//! the time is linear in the input.

use std::fmt;

/// More nesting than this marks the line unparsed (SPEC §4.2).
pub const MAX_DEPTH: usize = 64;
/// Longer lines are unparsed (SPEC §4.2): 256 KiB.
pub const MAX_LEN: usize = 256 * 1024;

/// Shell keywords that make a line unparsed at command position (SPEC §4.2).
pub const KEYWORDS: &[&str] = &[
    "if", "then", "elif", "else", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "function", "select", "coproc", "[[", "]]", "!",
];

/// What the reader can know of a word (SPEC §4.4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Known {
    /// No part outside single quotes comes from an expansion: the text is the word.
    #[default]
    Exact,
    /// **[round 3]** No expansion, but an unquoted glob (`*`, `?`, `[…]`):
    /// bash expands it against the files that exist when the segment runs,
    /// which an earlier segment can create (`touch push; git pu?h`). Its
    /// text is known (allow patterns and the scope read it literally), and
    /// for deny, ask, the built-ins and the ceilings it is possibly any run
    /// of tokens each matching the glob, none included (SPEC §4.4 item 4).
    Glob,
    /// Some part is an expansion (`$x`, `${…}`, `$(…)`, backticks, `$((…))`, `$[…]`),
    /// all such parts inside double quotes (or in an assignment's value, which bash
    /// does not split): possibly any ONE token.
    OneToken,
    /// Some expansion is unquoted: bash splits and globs it: possibly any run of
    /// tokens, none included.
    AnyTokens,
}

impl Known {
    /// Some part of the word comes from an expansion: its text is not the
    /// word ([`Known::OneToken`], [`Known::AnyTokens`]). A glob word's text
    /// is known.
    #[inline]
    pub fn is_unknown(self) -> bool {
        matches!(self, Known::OneToken | Known::AnyTokens)
    }
}

/// One command line, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandLine {
    /// Every simple command, nested ones included, in source order.
    pub segments: Vec<Segment>,
    /// Why the line is unparsed; empty when it parsed (SPEC §4.2). Sorted,
    /// without repeats.
    pub unparsed: Vec<Unparsed>,
    /// Each unparsed condition with the byte offset (in this line) of its
    /// first occurrence, ordered by offset.
    pub unparsed_at: Vec<(Unparsed, usize)>,
    /// The parent of each directory group (see [`Segment::group`]); group
    /// 0 is the line itself, its own parent. Empty when group 0 is the
    /// only one (most lines: nothing to allocate).
    pub groups: Vec<u32>,
}

impl CommandLine {
    /// True when any unparsed condition of SPEC §4.2 holds.
    pub fn is_unparsed(&self) -> bool {
        !self.unparsed.is_empty()
    }
}

/// One simple command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Segment {
    /// Argument words, quotes removed, nothing expanded; redirections are
    /// not among them (SPEC §4.2). Leading `NAME=value` words are kept.
    pub words: Vec<String>,
    /// What is known of each word (SPEC §4.4): same length and order as
    /// `words`.
    pub known: Knowns,
    /// Redirections with their targets, in order.
    pub redirects: Vec<Redirect>,
    /// True for segments inside `$( )`, backticks, `<( )`, `( )`, `{ ;}`.
    pub nested: bool,
    /// Byte offset where the segment starts in its own (sub)line.
    pub start: usize,
    /// The directory group it runs in: a `cd` moves the later segments of
    /// its group and of the groups inside it, never those of an enclosing
    /// group. Subshells `( )`, substitutions, process substitutions, each
    /// element of a pipeline and each `&` command are groups of their own
    /// (bash runs them in a child process, SPEC §6.2).
    pub group: u32,
    /// How many of the segments after this one are nested in its words
    /// (`cd $(pwd)`): bash runs them before it.
    pub holds: usize,
}

/// What is known of each word of a segment ([`Segment::known`]): a slice
/// of [`Known`] (it derefs to one), kept without allocating when every
/// word is exact, as in most segments.
#[derive(Clone, Default)]
pub struct Knowns(KnownsRepr);

#[derive(Clone)]
enum KnownsRepr {
    /// This many words, every one [`Known::Exact`] (at most [`EXACT`]'s
    /// length).
    Exact(usize),
    Listed(Vec<Known>),
}

impl Default for KnownsRepr {
    fn default() -> Self {
        KnownsRepr::Exact(0)
    }
}

/// The words of [`KnownsRepr::Exact`].
static EXACT: [Known; 64] = [Known::Exact; 64];

impl Knowns {
    /// `n` exact words.
    pub fn exact(n: usize) -> Knowns {
        if n <= EXACT.len() {
            Knowns(KnownsRepr::Exact(n))
        } else {
            Knowns(KnownsRepr::Listed(vec![Known::Exact; n]))
        }
    }

    /// Every word exact: without a look at them when kept so (most
    /// segments).
    pub fn all_exact(&self) -> bool {
        match &self.0 {
            KnownsRepr::Exact(_) => true,
            KnownsRepr::Listed(v) => v.iter().all(|k| *k == Known::Exact),
        }
    }

    /// The slice.
    pub fn as_slice(&self) -> &[Known] {
        match &self.0 {
            KnownsRepr::Exact(n) => &EXACT[..*n],
            KnownsRepr::Listed(v) => v,
        }
    }
}

impl std::ops::Deref for Knowns {
    type Target = [Known];
    fn deref(&self) -> &[Known] {
        self.as_slice()
    }
}

impl From<Vec<Known>> for Knowns {
    fn from(v: Vec<Known>) -> Knowns {
        if v.len() <= EXACT.len() && v.iter().all(|k| *k == Known::Exact) {
            Knowns::exact(v.len())
        } else {
            Knowns(KnownsRepr::Listed(v))
        }
    }
}

impl FromIterator<Known> for Knowns {
    fn from_iter<I: IntoIterator<Item = Known>>(iter: I) -> Knowns {
        Knowns::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl<'a> IntoIterator for &'a Knowns {
    type Item = &'a Known;
    type IntoIter = std::slice::Iter<'a, Known>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl PartialEq for Knowns {
    fn eq(&self, other: &Knowns) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Knowns {}

impl fmt::Debug for Knowns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

/// A redirection: its operator (with the fd number, `2>`) and target word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The operator as written, e.g. `2>`, `>>`, `&>`, `<<<`, `>&`.
    pub op: String,
    /// The target word, quotes removed.
    pub target: String,
    /// What is known of the target word (SPEC §4.4).
    pub known: Known,
}

/// Why a command line is unparsed (SPEC §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unparsed {
    /// A `'` or `"` that is never closed.
    UnclosedQuote,
    /// A `$(`, `` ` ``, `${`, `(` or `{` that is never closed.
    UnclosedSubstitution,
    /// A here-document (`<<`).
    HereDocument,
    /// A shell keyword at command position.
    Keyword,
    /// A function definition `name() …`.
    FunctionDefinition,
    /// ANSI-C quoting `$'…'`.
    AnsiCQuote,
    /// An unquoted brace expansion `{a,b}` or `{1..3}`.
    BraceExpansion,
    /// An unquoted `*`, `?` or `[…]` in a command's first word.
    GlobInCommandWord,
    /// A control character other than tab and newline.
    ControlCharacter,
    /// More than [`MAX_DEPTH`] levels of nesting.
    TooDeep,
    /// More than [`MAX_LEN`] bytes.
    TooLong,
    /// An arithmetic context (`$((…))`, `((…))`, `$[…]`, a `${…}` offset or
    /// length, an array subscript) that names a variable or holds a
    /// substitution, or a `${!…}` indirection: bash evaluates the value as
    /// an expression, and an array subscript in it runs commands
    /// (`x='a[$(curl x|sh)]'; echo $((x))`) **[hardening]**.
    ArithmeticVariable,
    /// An array subscript at an assignment's place (`NAME[…]`, read to the
    /// matching `]` as bash does) that holds a blank, a quote, an operator,
    /// a `#` or a newline **[round 3]**: read whole, never split, but not
    /// approved (`a[ #]= rm -rf /`, `a[x y]=1 git push`).
    ArraySubscript,
    /// Something bash would not run as written: an empty command between
    /// operators, a trailing `&&`, a stray `)`, a redirection without
    /// target, `$((…))` holding a command **[hardening]**.
    SyntaxError,
}

impl Unparsed {
    /// A short phrase for people.
    pub fn describe(self) -> &'static str {
        match self {
            Unparsed::UnclosedQuote => "an unclosed quote",
            Unparsed::UnclosedSubstitution => "an unclosed substitution, subshell or group",
            Unparsed::HereDocument => "a here-document (`<<`)",
            Unparsed::Keyword => "a shell keyword at command position",
            Unparsed::FunctionDefinition => "a function definition",
            Unparsed::AnsiCQuote => "ANSI-C quoting (`$'…'`)",
            Unparsed::BraceExpansion => "an unquoted brace expansion",
            Unparsed::GlobInCommandWord => "a glob pattern in a command's first word",
            Unparsed::ControlCharacter => "a control character",
            Unparsed::TooDeep => "more than 64 levels of nesting",
            Unparsed::TooLong => "more than 256 KiB of text",
            Unparsed::ArithmeticVariable => {
                "arithmetic evaluates a variable's value (or a `${!…}` indirection names one), which can run commands"
            }
            Unparsed::ArraySubscript => {
                "an array subscript holding blanks, quotes or operators (`NAME[…]` is read to its `]`)"
            }
            Unparsed::SyntaxError => "a shell syntax error",
        }
    }

    /// The stable name used in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Unparsed::UnclosedQuote => "unclosed_quote",
            Unparsed::UnclosedSubstitution => "unclosed_substitution",
            Unparsed::HereDocument => "here_document",
            Unparsed::Keyword => "keyword",
            Unparsed::FunctionDefinition => "function_definition",
            Unparsed::AnsiCQuote => "ansi_c_quote",
            Unparsed::BraceExpansion => "brace_expansion",
            Unparsed::GlobInCommandWord => "glob_in_command_word",
            Unparsed::ControlCharacter => "control_character",
            Unparsed::TooDeep => "too_deep",
            Unparsed::TooLong => "too_long",
            Unparsed::ArithmeticVariable => "arithmetic_variable",
            Unparsed::ArraySubscript => "array_subscript",
            Unparsed::SyntaxError => "syntax_error",
        }
    }
}

impl fmt::Display for Unparsed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A word with what the reader learned about its quoting.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Word {
    /// The text, quotes removed.
    pub text: String,
    /// Any part of it was quoted or escaped.
    pub quoted: bool,
    /// The last character is an unquoted, unescaped `*` (SPEC §3.2).
    pub trailing_unquoted_star: bool,
    /// An unquoted `*` or `?`, or an unquoted bracket expression.
    pub unquoted_glob: bool,
    /// An unquoted brace expansion.
    pub brace_expansion: bool,
    /// `NAME=value` with an unquoted valid name.
    pub assignment: bool,
    /// Holds a command or process substitution (`$(`, backtick, `<(`,
    /// `>(`): a command runs there. `${…}` and `$((…))` are expansions, kept
    /// literally like `$NAME`.
    pub substitution: bool,
    /// What is known of the word (SPEC §4.4). A leading assignment's value
    /// is not split by bash, so an unquoted expansion there is
    /// [`Known::OneToken`]; a process substitution is one token too (a
    /// `/dev/fd/N` path).
    pub known: Known,
}

/// A segment with its words' quoting details; what [`read_detailed`] returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DetailedSegment {
    /// The words with their quoting details.
    pub words: Vec<Word>,
    /// Redirections.
    pub redirects: Vec<Redirect>,
    /// Inside a nested command.
    pub nested: bool,
    /// Byte offset where the segment starts.
    pub start: usize,
    /// The directory group (see [`Segment::group`]).
    pub group: u32,
    /// How many following segments are nested in its words.
    pub holds: usize,
}

/// A command line with quoting details per word.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DetailedLine {
    /// Segments in source order.
    pub segments: Vec<DetailedSegment>,
    /// Unparsed conditions, sorted, without repeats.
    pub unparsed: Vec<Unparsed>,
    /// Each unparsed condition with the byte offset of its first
    /// occurrence, ordered by offset.
    pub unparsed_at: Vec<(Unparsed, usize)>,
    /// The parent of each directory group; group 0 is the line.
    pub groups: Vec<u32>,
    /// A control operator (`;`, `&`, `|`, `&&`…) or an unquoted newline
    /// separates or ends commands somewhere in the line.
    pub operators: bool,
}

/// Reads a command line (SPEC §4). Never fails: problems are recorded in
/// [`CommandLine::unparsed`].
///
/// ```
/// let line = permc_grammar::shell::read("cd src && pnpm test 2>/dev/null");
/// assert_eq!(line.segments.len(), 2);
/// assert_eq!(line.segments[1].words, ["pnpm", "test"]);
/// assert_eq!(line.segments[1].redirects[0].op, "2>");
/// assert!(!line.is_unparsed());
/// ```
pub fn read(src: &str) -> CommandLine {
    read_simple(src).unwrap_or_else(|| read_general(src))
}

/// [`read`] by the general reader alone, never the fast path of
/// [`read_simple`] (the two are compared by tests and the fuzzer).
#[doc(hidden)]
pub fn read_general(src: &str) -> CommandLine {
    let detailed = read_detailed(src);
    CommandLine {
        segments: detailed
            .segments
            .into_iter()
            .map(|s| Segment {
                known: s.words.iter().map(|w| w.known).collect(),
                words: s.words.into_iter().map(|w| w.text).collect(),
                redirects: s.redirects,
                nested: s.nested,
                start: s.start,
                group: s.group,
                holds: s.holds,
            })
            .collect(),
        unparsed: detailed.unparsed,
        unparsed_at: detailed.unparsed_at,
        groups: if detailed.groups.len() > 1 {
            detailed.groups
        } else {
            Vec::new()
        },
    }
}

/// What [`read_simple`] makes of a byte: [`REFUSED`] (the general reader
/// reads the line), a byte of a word, a blank, or a byte of an operator.
const REFUSED: u8 = 0;
const WORD: u8 = 1;
const BLANK: u8 = 2;
const OPERATOR: u8 = 3;

/// [`read_simple`]'s byte classes, one load a byte: a [`is_plain`] byte,
/// and a few more that mean something only beside bytes it refuses (`.`
/// `,` in a brace expansion, `=` in an array subscript, `~` nowhere to
/// the reader), make words; blanks; the bytes of `;`, `&`, `|`, `&&`,
/// `||`, `|&`. Every other byte is refused. (A unit test holds the table
/// to [`is_plain`].)
const SIMPLE: [u8; 256] = {
    let mut t = [REFUSED; 256];
    let mut b: u8 = 0;
    loop {
        t[b as usize] = if b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'/' | b'_' | b':' | b'+' | b'@' | b'%' | b'^' | b'.' | b',' | b'=' | b'~'
            ) {
            WORD
        } else if b == b' ' || b == b'\t' {
            BLANK
        } else if b == b';' || b == b'&' || b == b'|' {
            OPERATOR
        } else {
            REFUSED
        };
        if b == u8::MAX {
            break;
        }
        b += 1;
    }
    t
};

/// A shell keyword ([`KEYWORDS`]) or `time`, by length first (a unit test
/// holds it to the table).
fn is_keyword_or_time(w: &str) -> bool {
    matches!(
        w,
        "if" | "then"
            | "elif"
            | "else"
            | "fi"
            | "for"
            | "while"
            | "until"
            | "do"
            | "done"
            | "case"
            | "esac"
            | "function"
            | "select"
            | "coproc"
            | "[["
            | "]]"
            | "!"
            | "time"
    )
}

/// The fast path of [`read`]: most command lines an agent proposes are
/// plain words joined by control operators (`git status && pnpm test`).
/// Such a line has no quoting, expansion, redirection, nesting, newline,
/// glob or brace to read, so its words are the runs of non-blank bytes
/// between operators, every one [`Known::Exact`]. Returns `None` — the
/// general reader then reads the line — for any other byte, any
/// condition of SPEC §4.2 (a keyword or `time` at command position, an
/// operator without a command, `;;`, an empty line), so it never has to
/// record one: a line it reads parses. Its answer equals the general
/// reader's (a unit test, a property test and the `shell` fuzz target
/// compare them). One pass, one table load a byte: a refused byte
/// anywhere returns `None` when the pass reaches it.
pub fn read_simple(src: &str) -> Option<CommandLine> {
    let b = src.as_bytes();
    if b.len() > MAX_LEN {
        return None;
    }
    let class = |i: usize| b.get(i).map(|&c| SIMPLE[usize::from(c)]);
    let mut segments: Vec<Segment> = Vec::with_capacity(4);
    // Group 0 alone is no group at all (see `CommandLine::groups`).
    let mut groups: Vec<u32> = Vec::new();
    let mut i = 0;
    let mut in_pipe = false;
    loop {
        while class(i) == Some(BLANK) {
            i += 1;
        }
        match class(i) {
            None => {
                // The end, after a command, `;` or `&` (an empty line goes
                // to the general reader).
                return (!segments.is_empty()).then_some(CommandLine {
                    segments,
                    unparsed: Vec::new(),
                    unparsed_at: Vec::new(),
                    groups,
                });
            }
            // An operator where a command belongs (a syntax error), or a
            // byte the general reader reads.
            Some(c) if c != WORD => return None,
            Some(_) => {}
        }
        let start = i;
        let mut words = Vec::with_capacity(4);
        while class(i) == Some(WORD) {
            let from = i;
            while class(i) == Some(WORD) {
                i += 1;
            }
            let word = &src[from..i];
            // `time` is a reserved word at command position (and after
            // it); a keyword first makes the line unparsed.
            if word == "time" || (words.is_empty() && is_keyword_or_time(word)) {
                return None;
            }
            words.push(word.to_string());
            while class(i) == Some(BLANK) {
                i += 1;
            }
        }
        // Here the line ends, or an operator or a refused byte stands.
        let (piped, own_process, need_command, len) = match (b.get(i), b.get(i + 1)) {
            (None, _) => (false, false, false, 0),
            (Some(b'&'), Some(b'&')) | (Some(b'|'), Some(b'|')) => (false, false, true, 2),
            (Some(b'|'), Some(b'&')) => (true, true, true, 2),
            (Some(b'|'), _) => (true, true, true, 1),
            (Some(b'&'), _) => (false, true, false, 1),
            (Some(b';'), Some(b';' | b'&')) => return None,
            (Some(b';'), _) => (false, false, false, 1),
            _ => return None,
        };
        i += len;
        let mut group = 0;
        if own_process || in_pipe {
            // A pipeline element or an `&` command: a group of its own.
            if groups.is_empty() {
                groups.push(0);
            }
            group = group_id(groups.len());
            groups.push(0);
        }
        in_pipe = piped;
        segments.push(Segment {
            known: Knowns::exact(words.len()),
            words,
            redirects: Vec::new(),
            nested: false,
            start,
            group,
            holds: 0,
        });
        if need_command {
            while class(i) == Some(BLANK) {
                i += 1;
            }
            if class(i) != Some(WORD) {
                // `a &&` at the end, `a | | b`: a syntax error (or a byte
                // the general reader reads).
                return None;
            }
        }
    }
}

/// The part of a line longer than [`MAX_LEN`] that is read: its first
/// [`MAX_LEN`] bytes, back to a character boundary (SPEC §4.2 round 3:
/// memory and time bounded by that, whatever the line's length); `None`
/// for a line read whole.
fn read_part(src: &str) -> Option<&str> {
    if src.len() <= MAX_LEN {
        return None;
    }
    let mut end = MAX_LEN;
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    Some(&src[..end])
}

/// Like [`read`], keeping each word's quoting details (used for patterns).
pub fn read_detailed(src: &str) -> DetailedLine {
    let mut unparsed = Vec::new();
    let (src, cut) = match read_part(src) {
        Some(part) => {
            unparsed.push((Unparsed::TooLong, MAX_LEN));
            (part, part.len())
        }
        None => (src, usize::MAX),
    };
    if let Some(at) = src
        .bytes()
        .position(|b| (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7f)
    {
        unparsed.push((Unparsed::ControlCharacter, at));
    }
    let mut p = Parser {
        src: src.as_bytes(),
        origin: None,
        pos: 0,
        depth: 0,
        nested: false,
        // Room for a typical line's segments: growing from empty moved
        // them two or three times per line.
        out: Vec::with_capacity(4),
        unparsed,
        group: 0,
        groups: vec![0],
        heredocs: Vec::new(),
        time_ok: true,
        cmd_index: 0,
        assign_ok: false,
        cut,
        operators: false,
        saw_backtick: false,
    };
    p.parse_list(Close::Eof);
    let mut unparsed_at = p.unparsed;
    unparsed_at.sort_by_key(|&(u, at)| (at, u));
    let mut unparsed: Vec<Unparsed> = unparsed_at.iter().map(|&(u, _)| u).collect();
    unparsed.sort();
    unparsed.dedup();
    DetailedLine {
        segments: p.out,
        unparsed,
        unparsed_at,
        groups: p.groups,
        operators: p.operators,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Close {
    Eof,
    Paren,
    Brace,
}

struct Parser<'a> {
    src: &'a [u8],
    /// For a backtick body (an unescaped copy): the offset in the top-level
    /// line of each byte of `src` (one more entry for its end).
    origin: Option<Vec<usize>>,
    pos: usize,
    depth: usize,
    nested: bool,
    out: Vec<DetailedSegment>,
    /// Each condition once, with the top-level offset of its first mark.
    unparsed: Vec<(Unparsed, usize)>,
    /// The directory group segments are put in now.
    group: u32,
    /// The parent of each directory group.
    groups: Vec<u32>,
    /// Here-documents whose bodies start after the next newline.
    heredocs: Vec<PendingHeredoc>,
    /// May `time` be a reserved word at the next command (bash's
    /// `time_command_acceptable`: not right after a `|`)?
    time_ok: bool,
    /// Index of the command word in the segment being read: words before
    /// it are the reserved `time` and its `-p`/`--`.
    cmd_index: usize,
    /// The next word is read where bash accepts an assignment (command
    /// start, or after assignments and redirections): a `NAME[` there is
    /// read to its matching `]` (bash's `parse_matched_pair`, SPEC §4.1).
    /// Taken (and cleared) by [`Parser::read_word`].
    assign_ok: bool,
    /// The top-level offset where the line was cut (SPEC §4.2: only the
    /// first [`MAX_LEN`] bytes are read), `usize::MAX` when it was not: a
    /// word that reaches it may go on past it, so it is unknown.
    cut: usize,
    /// A control operator or newline was read.
    operators: bool,
    /// A backtick was read directly in expanded text (not inside a `$( )`).
    saw_backtick: bool,
}

/// A here-document operator read, whose body is still to come.
struct PendingHeredoc {
    /// The delimiter: the word after `<<`, quotes removed.
    delimiter: Vec<u8>,
    /// `<<-`: leading tabs are stripped from the body's lines.
    strip_tabs: bool,
    /// The delimiter had no quoting: the body is expanded.
    expand: bool,
}

/// How a sub-parser reads its text.
#[derive(Clone, Copy)]
enum SubMode {
    /// A command line (a backtick body, a `$((…)` subshell).
    List,
    /// Text expanded like double-quoted text (arithmetic, a here-document);
    /// `true` when `\"` in a backtick body there stands for `"` (only in
    /// `$[…]` inside double quotes: bash 5.2 reads `$((…))`, `((…))` and
    /// here-document bodies without it).
    Expanded(bool),
}

/// Does raw word text start with an unquoted `NAME=`?
fn looks_like_assignment(raw: &[u8]) -> bool {
    let raw: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|&b| b != b' ' && b != b'\t')
        .collect();
    let name = raw.iter().take_while(|&&b| is_name_char(b)).count();
    name > 0 && is_name_start(raw[0]) && raw.get(name) == Some(&b'=')
}

/// Bash's `chk_arithsub`: are the parentheses of `s` balanced, never
/// closing more than opened, quoted text skipped? Double-quoted text is
/// skipped as bash's `skip_double_quoted` does: a `$( )`, `${ }` or
/// backtick inside it is skipped whole, quotes and parentheses in it
/// included. `depth`: the nesting the text is read at.
fn balanced_arith(s: &[u8], depth: usize) -> bool {
    let mut parens = 0usize;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'(' => parens += 1,
            b')' => {
                if parens == 0 {
                    return false;
                }
                parens -= 1;
            }
            b'\\' => i += 1,
            b'\'' => {
                i += 1;
                while i < s.len() && s[i] != b'\'' {
                    i += 1;
                }
            }
            b'"' => {
                let mut p = Parser::scanner(s, i + 1, depth);
                let _ = p.scan_double_quoted();
                i = p.pos;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parens == 0
}

/// The subscript of an assignment word `NAME[SUB]=…` / `NAME[SUB]+=…`.
fn assignment_subscript(text: &str) -> Option<&[u8]> {
    let t = text.as_bytes();
    let name = t.iter().take_while(|&&b| is_name_char(b)).count();
    if name == 0 || !is_name_start(t[0]) || t.get(name) != Some(&b'[') {
        return None;
    }
    let close = (name + 1..t.len()).find(|&k| {
        t[k] == b']' && (t[k + 1..].starts_with(b"=") || t[k + 1..].starts_with(b"+="))
    })?;
    Some(&t[name + 1..close])
}

/// `NAME[` whose `[` the word does not close.
fn unclosed_subscript(text: &str) -> bool {
    let t = text.as_bytes();
    let name = t.iter().take_while(|&&b| is_name_char(b)).count();
    name > 0 && is_name_start(t[0]) && t.get(name) == Some(&b'[') && !t[name..].contains(&b']')
}

/// Does arithmetic text `s` name a variable (a bare identifier, `$name`,
/// `$1`, `$@`, `${…}` other than `${#name}`) or hold a substitution (`$(…)`,
/// a backtick)? Bash evaluates such a value as an expression, recursively,
/// and an array subscript in it runs command substitutions. Numbers
/// (`0x1F`, `16#ff`) and `$#`, `$?`, `$$`, `$!` are not names.
fn arith_names_variable(s: &[u8]) -> bool {
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c.is_ascii_digit() {
            while i < s.len()
                && (s[i].is_ascii_alphanumeric() || matches!(s[i], b'_' | b'#' | b'@'))
            {
                i += 1;
            }
            continue;
        }
        if is_name_start(c) || c == b'`' {
            return true;
        }
        if c == b'$' {
            match s.get(i + 1) {
                Some(b'#' | b'?' | b'$' | b'!') => i += 2,
                Some(b'(') if s.get(i + 2) == Some(&b'(') => i += 3,
                Some(b'[') => i += 2,
                Some(b'{') => {
                    let name = s[i + 2..]
                        .iter()
                        .skip(1)
                        .take_while(|&&b| is_name_char(b))
                        .count();
                    let len_only = s.get(i + 2) == Some(&b'#')
                        && (name == 0 || s.get(i + 3).copied().is_some_and(is_name_start))
                        && s.get(i + 3 + name) == Some(&b'}');
                    if !len_only {
                        return true;
                    }
                    i += 4 + name;
                }
                None => i += 1,
                Some(_) => return true,
            }
            continue;
        }
        i += 1;
    }
    false
}

/// The id of the next directory group: their number is bounded by the
/// input's length (a few per byte at most), far below `u32::MAX`.
fn group_id(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Does bash's `brace_expand` find a brace expression in the word text
/// `t` (before quote removal)? Its `brace_gobbler` finds an opening `{`
/// and then a closing `}` with a `,` or `..` at its level, quotes tracked
/// as bash tracks them there.
///
/// bash tries every opening brace in turn, each time scanning the rest of
/// the word; past [`BRACE_TRIES`] tries the word counts as a brace
/// expansion (unparsed), which keeps reading linear.
fn brace_expands(t: &[u8], depth: usize) -> bool {
    let mut i = 0;
    for _ in 0..BRACE_TRIES {
        if brace_gobble(t, &mut i, b'{', depth).is_none() {
            return false;
        }
        let mut j = i + 1;
        if brace_gobble(t, &mut j, b'}', depth).is_some() {
            return true;
        }
        i += 1;
    }
    true
}

/// Opening braces of one word tried for a brace expansion.
const BRACE_TRIES: usize = 32;

/// Bash's `brace_gobbler`: from `*i`, the index of the first `satisfy`
/// outside quotes and inner braces (for `}`: only once a `,` or `..` was
/// seen at that level).
fn brace_gobble(t: &[u8], i: &mut usize, satisfy: u8, depth: usize) -> Option<u8> {
    let ws = |c: Option<&u8>| c.is_none_or(|c| matches!(c, b' ' | b'\t' | b'\n'));
    let (mut level, mut quoted, mut pass_next) = (0usize, 0u8, false);
    let mut commas = usize::from(satisfy != b'}');
    while let Some(&c) = t.get(*i) {
        if pass_next {
            pass_next = false;
            *i += 1;
            continue;
        }
        if c == b'\\' && matches!(quoted, 0 | b'"' | b'`') {
            pass_next = true;
            *i += 1;
            continue;
        }
        // `${…}` is read like `\{…}`.
        if c == b'$' && t.get(*i + 1) == Some(&b'{') && quoted != b'\'' {
            pass_next = true;
            *i += 1;
            if quoted == 0 {
                level += 1;
            }
            continue;
        }
        let comsub = t.get(*i + 1) == Some(&b'(')
            && ((quoted == 0 && matches!(c, b'$' | b'<' | b'>')) || (quoted == b'"' && c == b'$'));
        if quoted != 0 && !comsub {
            if c == quoted {
                quoted = 0;
            }
            *i += 1;
            continue;
        }
        if quoted == 0 && matches!(c, b'"' | b'\'' | b'`') {
            quoted = c;
            *i += 1;
            continue;
        }
        if comsub {
            let mut p = Parser::scanner(t, *i + 2, depth);
            let _ = p.scan_matched(b'(', b')');
            *i = p.pos;
            continue;
        }
        if c == satisfy && level == 0 && commas > 0 {
            // An opening brace between blanks (or before `}`) is none.
            if c == b'{'
                && (*i == 0 || ws(t.get(*i - 1)))
                && (ws(t.get(*i + 1)) || t.get(*i + 1) == Some(&b'}'))
            {
                *i += 1;
                continue;
            }
            return Some(c);
        }
        if c == b'{' {
            level += 1;
        } else if c == b'}' && level > 0 {
            level -= 1;
        } else if satisfy == b'}'
            && level == 0
            && (c == b',' || (t[*i..].starts_with(b"..") && t.get(*i + 2) != Some(&b'}')))
        {
            commas += 1;
        }
        *i += 1;
    }
    None
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Bytes that end an unquoted word.
fn is_word_end(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')'
    )
}

/// A byte that, unquoted in a word, is only itself: no quote, escape,
/// expansion, word end, glob, brace, assignment, tilde or dot (the word's
/// flags watch those; see `WordBuilder::unquoted_byte`), nor a newline a
/// backslash could join.
fn is_plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'/' | b'_' | b':' | b'+' | b'@' | b'%' | b'^')
}

/// A byte a glob pattern reads specially.
fn is_glob_char(b: u8) -> bool {
    matches!(b, b'*' | b'?' | b'[' | b']' | b'\\')
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// An unquoted word that bash reads as a redirection's fd when a `<` or `>`
/// follows it directly: digits (`2>x`) or `{NAME}` (`{fd}>x`, which bash
/// takes as "allocate an fd into NAME", not as a word).
fn is_fd_word(w: &Word) -> bool {
    let t = w.text.as_bytes();
    if w.quoted || t.is_empty() {
        return false;
    }
    if t.iter().all(|b| b.is_ascii_digit()) {
        return true;
    }
    matches!(t, [b'{', first, inner @ .., b'}']
        if is_name_start(*first) && inner.iter().all(|&b| is_name_char(b)))
}

impl<'a> Parser<'a> {
    /// A parser that only scans `src` from `pos` (extents, never segments).
    fn scanner(src: &'a [u8], pos: usize, depth: usize) -> Parser<'a> {
        Parser {
            src,
            origin: None,
            pos,
            depth,
            nested: true,
            out: Vec::new(),
            unparsed: Vec::new(),
            group: 0,
            groups: vec![0],
            heredocs: Vec::new(),
            time_ok: false,
            cmd_index: 0,
            assign_ok: false,
            cut: usize::MAX,
            operators: false,
            saw_backtick: false,
        }
    }

    /// Position `p`, past any backslash-newlines there: bash removes them
    /// before it recognizes anything (SPEC §4.1), except inside single
    /// quotes, comments and after an escaping backslash, which read raw.
    fn logical(&self, mut p: usize) -> usize {
        while self.src.get(p) == Some(&b'\\') && self.src.get(p + 1) == Some(&b'\n') {
            p += 2;
        }
        p
    }

    /// The current byte, backslash-newlines skipped.
    fn peek(&self) -> Option<u8> {
        self.src.get(self.logical(self.pos)).copied()
    }

    /// The byte `off` characters ahead, backslash-newlines skipped.
    fn peek_at(&self, off: usize) -> Option<u8> {
        let mut p = self.logical(self.pos);
        for _ in 0..off {
            p = self.logical(p + 1);
        }
        self.src.get(p).copied()
    }

    /// The byte right after the backslash at the current position, raw: an
    /// escaped character is never a line continuation (`\\⏎` is `\`
    /// then a newline).
    fn escaped(&self) -> Option<u8> {
        self.src.get(self.logical(self.pos) + 1).copied()
    }

    /// Moves past `n` characters, backslash-newlines skipped.
    fn bump(&mut self, n: usize) {
        for _ in 0..n {
            self.pos = (self.logical(self.pos) + 1).min(self.src.len());
        }
    }

    /// Moves past a backslash and the character it escapes.
    fn bump_escape(&mut self) {
        self.pos = (self.logical(self.pos) + 2).min(self.src.len());
    }

    /// The offset in the top-level line of position `pos` of `src`.
    fn top_offset(&self, pos: usize) -> usize {
        match &self.origin {
            None => pos,
            Some(map) => map.get(pos).or(map.last()).copied().unwrap_or_default(),
        }
    }

    /// Records an unparsed condition at the current position.
    fn mark(&mut self, why: Unparsed) {
        self.mark_at(why, self.pos);
    }

    /// Records an unparsed condition at position `pos` of `src`.
    fn mark_at(&mut self, why: Unparsed, pos: usize) {
        let at = self.top_offset(pos);
        self.mark_top(why, at);
    }

    /// Records an unparsed condition at top-level offset `at`, keeping the
    /// first (smallest) offset of each condition.
    fn mark_top(&mut self, why: Unparsed, at: usize) {
        match self.unparsed.iter_mut().find(|(u, _)| *u == why) {
            Some(entry) => entry.1 = entry.1.min(at),
            None => self.unparsed.push((why, at)),
        }
    }

    /// Skips blanks and backslash-newlines.
    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(is_blank) {
            self.bump(1);
        }
    }

    /// Skips a comment to the newline, raw: a backslash at its end does not
    /// continue it.
    fn skip_comment(&mut self) {
        self.pos = self.logical(self.pos);
        while let Some(&b) = self.src.get(self.pos) {
            if b == b'\n' {
                return;
            }
            self.pos += 1;
        }
    }

    /// Enters one nesting level; false (and the rest skipped) past the limit.
    fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            self.mark(Unparsed::TooDeep);
            self.pos = self.src.len();
            return false;
        }
        self.depth += 1;
        true
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Is the `}` at the current position a group closer (a word of its own)?
    fn at_brace_close(&self) -> bool {
        self.peek() == Some(b'}') && self.peek_at(1).is_none_or(|b| is_word_end(b) || b == b'}')
    }

    /// A list of pipelines and operators, until `close` (or end of input).
    fn parse_list(&mut self, close: Close) {
        // `need_command`: an operator was read that requires a command next.
        let mut need_command = false;
        // The previous command was piped into this one.
        let mut in_pipe = false;
        // Newlines read since a `|` or `|&` that still needs its command:
        // `time` right after it (or one newline later) is an ordinary
        // command word.
        // With whether that operator was `|&` (after which a single
        // newline already makes `time` the reserved word again).
        let mut since_pipe: Option<(usize, bool)> = None;
        loop {
            self.skip_blanks();
            let Some(b) = self.peek() else {
                if need_command {
                    self.mark(Unparsed::SyntaxError);
                }
                if close != Close::Eof {
                    self.mark(Unparsed::UnclosedSubstitution);
                }
                return;
            };
            match b {
                b'\n' => {
                    self.bump(1);
                    self.newline_read();
                    since_pipe = since_pipe.map(|(n, amp)| (n + 1, amp));
                    // `a &&\n b` is one list in bash: keep need_command.
                    continue;
                }
                b'#' => {
                    self.skip_comment();
                    continue;
                }
                b')' => {
                    self.bump(1);
                    if close == Close::Paren {
                        if need_command {
                            self.mark(Unparsed::SyntaxError);
                        }
                        return;
                    }
                    self.mark(Unparsed::SyntaxError);
                    continue;
                }
                b'}' if close == Close::Brace && self.at_brace_close() => {
                    self.bump(1);
                    if need_command {
                        self.mark(Unparsed::SyntaxError);
                    }
                    return;
                }
                b';' | b'|' => {
                    // An operator with no command before it.
                    self.mark(Unparsed::SyntaxError);
                    self.read_operator();
                    continue;
                }
                b'&' if self.peek_at(1) != Some(b'>') => {
                    self.mark(Unparsed::SyntaxError);
                    self.read_operator();
                    continue;
                }
                _ => {}
            }
            let (seg_start, group_start) = (self.out.len(), self.groups.len());
            if since_pipe.is_some_and(|(n, amp)| n >= 2 || (amp && n >= 1))
                && self.at_reserved(b"time")
            {
                // Bash takes `time` two newlines after `|` (one after `|&`)
                // as the reserved word, which cannot continue a pipeline.
                self.mark(Unparsed::SyntaxError);
            }
            if close != Close::Brace && self.at_brace_close() {
                // `}` at command position closes no group: bash rejects it.
                self.mark(Unparsed::SyntaxError);
            }
            self.time_ok = since_pipe.is_none();
            let _ = since_pipe;
            since_pipe = None;
            let read_something = self.parse_command(close);
            if !read_something {
                // Nothing could be read at this position: skip a byte so the
                // loop always progresses.
                self.mark(Unparsed::SyntaxError);
                self.bump(1);
                continue;
            }
            need_command = false;
            self.skip_blanks();
            let (mut own_process, mut piped) = (false, false);
            match self.peek() {
                None => {}
                Some(b'\n') => {
                    self.bump(1);
                    self.newline_read();
                }
                Some(b';' | b'&' | b'|') => {
                    let op = self.read_operator();
                    piped = matches!(op, Op::Pipe | Op::PipeAmp);
                    own_process = piped || matches!(op, Op::Amp);
                    if matches!(op, Op::Pipe | Op::PipeAmp) {
                        since_pipe = Some((0, matches!(op, Op::PipeAmp)));
                    }
                    match op {
                        Op::AndAnd | Op::OrOr | Op::Pipe | Op::PipeAmp => need_command = true,
                        Op::Semi | Op::Amp => {}
                        Op::Bad => self.mark(Unparsed::SyntaxError),
                    }
                }
                _ => {}
            }
            if own_process || in_pipe {
                self.regroup(seg_start, group_start);
            }
            in_pipe = piped;
        }
    }

    /// Puts the segments and groups made since (`seg_start`, `group_start`)
    /// in the current group into a new child group: a pipeline element or
    /// an `&` command runs in a process of its own.
    fn regroup(&mut self, seg_start: usize, group_start: usize) {
        let g = group_id(self.groups.len());
        let parent = self.group;
        for seg in self.out.iter_mut().skip(seg_start) {
            if seg.group == parent {
                seg.group = g;
            }
        }
        for p in self.groups.iter_mut().skip(group_start) {
            if *p == parent {
                *p = g;
            }
        }
        self.groups.push(parent);
    }

    /// Is the `&` at the current position the start of `&>`?
    fn at_redirect_amp(&self) -> bool {
        self.peek() == Some(b'&') && self.peek_at(1) == Some(b'>')
    }

    /// An unquoted newline was read: pending here-document bodies follow.
    fn newline_read(&mut self) {
        self.operators = true;
        if !self.heredocs.is_empty() {
            self.read_heredoc_bodies();
        }
    }

    /// Is the word at the current position exactly `word`, unquoted (a
    /// reserved word, when at command position)?
    fn at_reserved(&self, word: &[u8]) -> bool {
        word.iter()
            .enumerate()
            .all(|(k, &c)| self.peek_at(k) == Some(c))
            && self.peek_at(word.len()).is_none_or(is_word_end)
    }

    fn read_operator(&mut self) -> Op {
        self.operators = true;
        let b = self.peek();
        let n = self.peek_at(1);
        let (op, len) = match (b, n) {
            (Some(b'&'), Some(b'&')) => (Op::AndAnd, 2),
            (Some(b'|'), Some(b'|')) => (Op::OrOr, 2),
            (Some(b'|'), Some(b'&')) => (Op::PipeAmp, 2),
            (Some(b'|'), _) => (Op::Pipe, 1),
            (Some(b'&'), _) => (Op::Amp, 1),
            (Some(b';'), Some(b';')) => {
                // `;;`, `;;&`: case syntax.
                let len = if self.peek_at(2) == Some(b'&') { 3 } else { 2 };
                (Op::Bad, len)
            }
            (Some(b';'), Some(b'&')) => (Op::Bad, 2),
            (Some(b';'), _) => (Op::Semi, 1),
            _ => (Op::Bad, 1),
        };
        self.bump(len);
        op
    }

    /// One command: a subshell, a group, or a simple command, with its
    /// redirections. Returns false when nothing was read.
    fn parse_command(&mut self, close: Close) -> bool {
        let start = self.pos;
        // `time`, `time -p`, `time --` (and again: `time time x`) are
        // reserved words: what follows is at command position (SPEC §4.1).
        let mut prefix: Vec<(Word, usize)> = Vec::new();
        while self.time_ok && self.at_reserved(b"time") {
            let at = self.pos;
            prefix.push((self.read_word(), at));
            self.skip_blanks();
            if self.at_reserved(b"-p") {
                let at = self.pos;
                prefix.push((self.read_word(), at));
                self.skip_blanks();
            }
            if self.at_reserved(b"--") {
                let at = self.pos;
                prefix.push((self.read_word(), at));
                self.skip_blanks();
            }
        }
        self.time_ok = false;
        if !prefix.is_empty() && matches!(self.peek(), Some(b'|' | b'&')) && !self.at_redirect_amp()
        {
            // `time | a`, `time && a`: a timed pipeline needs a command.
            self.mark(Unparsed::SyntaxError);
        }
        match self.peek() {
            Some(b'(') if self.peek_at(1) == Some(b'(') && self.read_arith_command() => {
                return true;
            }
            Some(b'(') => {
                self.bump(1);
                let first = self.out.len();
                self.parse_nested_list(Close::Paren);
                self.trailing_redirects(first);
                return true;
            }
            Some(b'{') if self.peek_at(1).is_some_and(|b| is_blank(b) || b == b'\n') => {
                self.bump(1);
                let first = self.out.len();
                self.parse_nested_list(Close::Brace);
                self.trailing_redirects(first);
                return true;
            }
            _ => {}
        }
        let index = self.out.len();
        self.out.push(DetailedSegment {
            words: Vec::with_capacity(4),
            redirects: Vec::new(),
            nested: self.nested,
            start,
            group: self.group,
            holds: 0,
        });
        self.cmd_index = prefix.len();
        // One past the last word that is no assignment: the words from the
        // command word on are all assignments when it is at or before
        // the command word, known in O(1) per word (a scan of them per
        // word made a line of `a=$b ` repeated quadratic).
        let mut after_plain = prefix
            .iter()
            .rposition(|(w, _)| !w.assignment)
            .map_or(0, |i| i + 1);
        if let Some(seg) = self.out.get_mut(index) {
            seg.words.extend(prefix.into_iter().map(|(w, _)| w));
        }
        let mut after_redirect = false;
        loop {
            self.skip_blanks();
            let Some(b) = self.peek() else { break };
            match b {
                b'\n' | b';' | b'|' | b')' => break,
                b'&' if self.peek_at(1) != Some(b'>') => break,
                b'}' if close == Close::Brace
                    && self.segment_words(index) == 0
                    && self.at_brace_close() =>
                {
                    break
                }
                b'#' => {
                    self.skip_comment();
                    break;
                }
                b'(' => {
                    // `name()` is a function definition; any other `(` after
                    // words is a syntax error. Read what follows anyway.
                    if self.segment_words(index) == 1 && self.peek_at(1) == Some(b')') {
                        self.mark(Unparsed::FunctionDefinition);
                        self.bump(2);
                    } else {
                        self.mark(Unparsed::SyntaxError);
                        self.bump(1);
                        self.parse_nested_list(Close::Paren);
                    }
                    continue;
                }
                b'{' if self.segment_words(index) == 0
                    && self.peek_at(1).is_some_and(|b| is_blank(b) || b == b'\n') =>
                {
                    // Cannot happen (handled above) except after a redirect;
                    // bash rejects `>x { a; }`.
                    self.mark(Unparsed::SyntaxError);
                    self.bump(1);
                    continue;
                }
                _ => {}
            }
            let word_at = self.pos;
            if self.at_process_substitution() {
                let w = self.read_word();
                self.push_word(index, w, word_at, &mut after_plain);
                continue;
            }
            if let Some(op) = self.read_redirect_op(None) {
                self.redirect_target(index, op, word_at);
                after_redirect = true;
                continue;
            }
            // Bash's `assignment_acceptable`: before any word (after
            // redirections too, `PST_REDIRLIST`), or right after an
            // assignment word (not after a redirection that follows one).
            // O(1): `after_plain` says whether every word from the
            // command's place on is an assignment.
            let (assign_ok, split_by_redirect) =
                self.out.get(index).map_or((false, false), |seg| {
                    let cmd = self.cmd_index.min(seg.words.len());
                    let none = seg.words.len() == cmd;
                    let assignments = cmd >= after_plain;
                    (
                        none || (!after_redirect && assignments),
                        !none && after_redirect && assignments,
                    )
                });
            self.assign_ok = assign_ok;
            after_redirect = false;
            let w = self.read_word();
            if split_by_redirect && unclosed_subscript(&w.text) {
                // `a=1 >f b[x y]=2 …`: bash splits this `NAME[` word (no
                // assignment is accepted after a redirection that follows
                // a word), a reader easily does not: fail closed.
                self.mark_at(Unparsed::ArraySubscript, word_at);
            }
            // `2>x`, `{fd}>x`: an unquoted all-digit or `{NAME}` word
            // directly before `<`/`>` is the redirection's fd.
            if is_fd_word(&w)
                && matches!(self.peek(), Some(b'<' | b'>'))
                && !self.at_process_substitution()
            {
                if let Some(op) = self.read_redirect_op(Some(w.text.clone())) {
                    self.redirect_target(index, op, word_at);
                    after_redirect = true;
                    continue;
                }
            }
            self.push_word(index, w, word_at, &mut after_plain);
        }
        let after = self.out.len();
        if let Some(seg) = self.out.get_mut(index) {
            seg.holds = after - index - 1;
        }
        let seg = &self.out[index];
        if seg.words.is_empty() && seg.redirects.is_empty() {
            self.out.truncate(index);
            // Something followed (a closer or operator) but no command.
            return self.pos != start;
        }
        true
    }

    /// `((…))` at command position: an arithmetic command when the `(`
    /// after `((` closes right before a `)` (bash's `parse_arith_cmd`),
    /// its text expanded like double-quoted text; otherwise nothing is read
    /// (false) and `((` is two subshells.
    fn read_arith_command(&mut self) -> bool {
        let start = self.pos;
        let unparsed_before = self.unparsed.len();
        let out_before = self.out.len();
        self.bump(2);
        let from = self.pos;
        let closed = self.scan_matched(b'(', b')');
        // Bash reads the next character raw: `)\⏎)` is no `))`, and
        // what it then re-reads as subshells is a syntax error to it.
        let split = closed && self.src.get(self.pos) != Some(&b')') && self.peek() == Some(b')');
        if !closed || self.src.get(self.pos) != Some(&b')') {
            self.unparsed.truncate(unparsed_before);
            self.out.truncate(out_before);
            if split {
                self.mark(Unparsed::SyntaxError);
            }
            self.pos = start;
            return false;
        }
        let to = self.pos - 1;
        self.pos += 1;
        let _ = self.read_arith_body(from, to, false);
        self.trailing_redirects(out_before);
        true
    }

    /// Does the word just read reach the cut (see [`Parser::cut`])?
    fn at_cut(&self) -> bool {
        self.cut != usize::MAX && self.top_offset(self.pos) >= self.cut
    }

    fn segment_words(&self, index: usize) -> usize {
        self.out.get(index).map_or(0, |s| s.words.len())
    }

    /// Adds word `w`, read at `at`, to segment `index`, with the checks of
    /// SPEC §4.2 on it; `after_plain` is one past the segment's last word
    /// that is no assignment, kept up to date here.
    fn push_word(&mut self, index: usize, mut w: Word, at: usize, after_plain: &mut usize) {
        let at_cut = self.at_cut();
        let Some(seg) = self.out.get_mut(index) else {
            return;
        };
        let cmd = self.cmd_index.min(seg.words.len());
        let first = seg.words.len() == cmd;
        // The words from `cmd` on are all assignments.
        let leading = cmd >= *after_plain;
        if w.assignment && leading {
            // A leading assignment: bash neither splits nor globs its
            // value, so an expansion there is one token.
            w.known = match w.known {
                Known::Glob => Known::Exact,
                k => k.min(Known::OneToken),
            };
        }
        let keyword = first && !w.quoted && KEYWORDS.contains(&w.text.as_str());
        // `[` alone is the test command (SPEC §4.2).
        let test_command = w.text == "[" && !w.quoted;
        let command_glob = leading && !w.assignment && w.unquoted_glob && !test_command;
        let brace = w.brace_expansion;
        // `NAME[SUB]=value` before the command: SUB is arithmetic.
        let subscript = leading && assignment_subscript(&w.text).is_some_and(arith_names_variable);
        let plain = !w.assignment;
        if at_cut {
            // The cut may split it (SPEC §4.2): `/` of `/tmp/x` is no `/`.
            w.known = Known::AnyTokens;
        }
        seg.words.push(w);
        if plain {
            *after_plain = seg.words.len();
        }
        if subscript {
            self.mark_at(Unparsed::ArithmeticVariable, at);
        }
        if keyword {
            self.mark_at(Unparsed::Keyword, at);
        }
        if command_glob {
            self.mark_at(Unparsed::GlobInCommandWord, at);
        }
        if brace {
            self.mark_at(Unparsed::BraceExpansion, at);
        }
    }

    /// Redirections after `)` or `}`: attached to every segment inside, so
    /// their targets are still checked (SPEC §6.2).
    fn trailing_redirects(&mut self, first: usize) {
        loop {
            self.skip_blanks();
            if self.at_process_substitution() {
                break;
            }
            let at = self.pos;
            // `(a) 2>x`, `{ a; } {fd}<<E`: an fd number or `{NAME}` first.
            let fd = self.fd_prefix();
            let op = match fd {
                Some((fd, len)) => {
                    self.bump(len);
                    self.read_redirect_op(Some(fd))
                }
                None => self.read_redirect_op(None),
            };
            let Some(op) = op else { break };
            self.skip_blanks();
            self.note_here_document(&op, at);
            let target = self.read_target(&op);
            let Some((target, known)) = target else {
                self.mark(Unparsed::SyntaxError);
                break;
            };
            for seg in self.out.iter_mut().skip(first) {
                seg.redirects.push(Redirect {
                    op: op.clone(),
                    target: target.clone(),
                    known,
                });
            }
        }
        self.skip_blanks();
        match self.peek() {
            // A `#` after `)` or `}` begins a comment.
            None | Some(b'\n' | b';' | b'&' | b'|' | b')' | b'#') => {}
            Some(b'}') if self.at_brace_close() => {}
            Some(_) => {
                // `(a) b` is a syntax error in bash.
                self.mark(Unparsed::SyntaxError);
            }
        }
    }

    /// An fd prefix of a redirection at the current position: digits or
    /// `{NAME}` directly followed by `<` or `>`, with its length in
    /// characters (backslash-newlines skipped).
    fn fd_prefix(&self) -> Option<(String, usize)> {
        let mut text = Vec::new();
        let mut k = 0;
        let braced = self.peek() == Some(b'{');
        if braced {
            text.push(b'{');
            k = 1;
        }
        while let Some(c) = self.peek_at(k) {
            let ok = if braced {
                if k == 1 {
                    is_name_start(c)
                } else {
                    is_name_char(c)
                }
            } else {
                c.is_ascii_digit()
            };
            if !ok {
                break;
            }
            text.push(c);
            k += 1;
        }
        if braced {
            if k < 2 || self.peek_at(k) != Some(b'}') {
                return None;
            }
            text.push(b'}');
            k += 1;
        } else if k == 0 {
            return None;
        }
        if !matches!(self.peek_at(k), Some(b'<' | b'>')) || self.peek_at(k + 1) == Some(b'(') {
            return None;
        }
        Some((String::from_utf8_lossy(&text).into_owned(), k))
    }

    /// A here-document operator (`<<`, `<<-`, with any fd before it) makes
    /// the line unparsed; its body is read at the next newline.
    fn note_here_document(&mut self, op: &str, at: usize) {
        if op.contains("<<") && !op.ends_with("<<<") {
            self.mark_at(Unparsed::HereDocument, at);
        }
    }

    /// Reads the target of redirection `op`, read at `at`.
    fn redirect_target(&mut self, index: usize, op: String, at: usize) {
        self.skip_blanks();
        self.note_here_document(&op, at);
        let target_at = self.pos;
        match self.read_target(&op) {
            Some((target, known)) => {
                let known = if self.at_cut() {
                    Known::AnyTokens
                } else {
                    known
                };
                if let Some(seg) = self.out.get_mut(index) {
                    // Bash rejects `>x &>>NAME=v`: after a redirection and
                    // before the command word it lexes the target of `&>>`
                    // as an assignment.
                    let assignment_target = op == "&>>"
                        && seg.words.len() == self.cmd_index
                        && !seg.redirects.is_empty()
                        && looks_like_assignment(&self.src[target_at..self.pos]);
                    seg.redirects.push(Redirect { op, target, known });
                    if assignment_target {
                        self.mark_at(Unparsed::SyntaxError, target_at);
                    }
                }
            }
            None => self.mark(Unparsed::SyntaxError),
        }
    }

    /// The target word of redirection `op` and what is known of it; `None`
    /// when there is none. A here-document's delimiter is queued.
    fn read_target(&mut self, op: &str) -> Option<(String, Known)> {
        match self.peek() {
            // A `#` at the start of a word begins a comment, also here:
            // bash rejects `>#x` as a redirection without target.
            None | Some(b'#') => None,
            Some(b) if is_word_end(b) && !self.at_process_substitution() => None,
            Some(_) => {
                let w = self.read_word();
                // `>12>x`, `>{fd}>x`: bash lexes the word as the next
                // redirection's fd, leaving this one without a target (a
                // syntax error) — except digits after `>&`/`<&`, which are
                // the fd to duplicate (`>&2>x` is fine).
                let digits = w.text.bytes().all(|b| b.is_ascii_digit());
                if is_fd_word(&w)
                    && matches!(self.peek(), Some(b'<' | b'>'))
                    && !(digits && op.ends_with('&'))
                {
                    self.mark(Unparsed::SyntaxError);
                }
                if op.contains("<<") && !op.ends_with("<<<") {
                    self.heredocs.push(PendingHeredoc {
                        delimiter: w.text.as_bytes().to_vec(),
                        strip_tabs: op.ends_with("<<-"),
                        expand: !w.quoted,
                    });
                }
                Some((w.text, w.known))
            }
        }
    }

    fn at_process_substitution(&self) -> bool {
        matches!(self.peek(), Some(b'<' | b'>')) && self.peek_at(1) == Some(b'(')
    }

    /// Reads a redirection operator at the current position, if there is one.
    fn read_redirect_op(&mut self, fd: Option<String>) -> Option<String> {
        // Every operator starts with `<`, `>` or `&`: most words are no
        // redirection, and this runs before each of them.
        if !matches!(self.peek(), Some(b'<' | b'>' | b'&')) {
            return None;
        }
        let ops: &[&str] = &[
            "&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">|", ">&", "<", ">",
        ];
        for op in ops {
            let matches = op
                .bytes()
                .enumerate()
                .all(|(k, c)| self.peek_at(k) == Some(c));
            if matches {
                if fd.is_some() && op.starts_with('&') {
                    return None;
                }
                self.bump(op.len());
                let mut text = fd.unwrap_or_default();
                text.push_str(op);
                return Some(text);
            }
        }
        None
    }

    /// Parses a nested list one level deeper, its segments marked nested.
    fn parse_nested_list(&mut self, close: Close) {
        if !self.enter() {
            return;
        }
        let was = self.nested;
        self.nested = true;
        let was_group = self.group;
        if close == Close::Paren {
            // A subshell or substitution: a child process.
            self.group = group_id(self.groups.len());
            self.groups.push(was_group);
        }
        self.parse_list(close);
        self.group = was_group;
        self.nested = was;
        self.leave();
    }

    /// A command or process substitution body `…)`: a nested list whose
    /// newlines do not collect the enclosing line's here-documents (bash
    /// parses the substitution on its own).
    fn parse_substitution_list(&mut self) {
        let outer = std::mem::take(&mut self.heredocs);
        self.parse_nested_list(Close::Paren);
        self.heredocs = outer;
    }

    /// Parses `text` (a backtick body, already unescaped) as a nested line;
    /// `origin` holds the top-level offset of each of its bytes.
    /// Returns whether a backtick was read directly in expanded text.
    fn parse_nested_text(&mut self, text: &[u8], origin: Vec<usize>, mode: SubMode) -> bool {
        if self.depth >= MAX_DEPTH {
            self.mark(Unparsed::TooDeep);
            self.pos = self.src.len();
            return false;
        }
        let mut sub = Parser {
            src: text,
            origin: Some(origin),
            pos: 0,
            depth: self.depth + 1,
            nested: true,
            out: Vec::new(),
            unparsed: Vec::new(),
            heredocs: Vec::new(),
            time_ok: true,
            cmd_index: 0,
            assign_ok: false,
            cut: self.cut,
            operators: false,
            saw_backtick: false,
            group: group_id(self.groups.len()),
            groups: std::mem::take(&mut self.groups),
        };
        sub.groups.push(self.group);
        match mode {
            SubMode::List => sub.parse_list(Close::Eof),
            SubMode::Expanded(dq) => sub.read_expanded_text(dq),
        }
        self.groups = std::mem::take(&mut sub.groups);
        self.out.append(&mut sub.out);
        for (u, at) in sub.unparsed {
            self.mark_top(u, at);
            if u == Unparsed::TooDeep {
                self.pos = self.src.len();
            }
        }
        sub.saw_backtick
    }

    /// The top-level offsets of `src[from..to]` (one more for its end).
    fn origin_of(&self, from: usize, to: usize) -> Vec<usize> {
        (from..=to).map(|p| self.top_offset(p)).collect()
    }

    /// Reads text that bash expands as it does double-quoted text without
    /// the quotes (an arithmetic expression, a here-document body): every
    /// `$( )`, backtick and `${ }` in it is found, also between single
    /// quotes, which are plain characters there.
    fn read_expanded_text(&mut self, backtick_dq: bool) {
        let mut w = WordBuilder::default();
        while let Some(b) = self.peek() {
            match b {
                b'\\' => self.bump_escape(),
                b'$' => self.read_dollar(&mut w, true),
                b'`' => {
                    self.saw_backtick = true;
                    self.read_backtick(&mut w, backtick_dq);
                }
                _ => self.bump(1),
            }
        }
    }

    /// Reads the bodies of the pending here-documents, which start right
    /// after the newline just read. An unquoted delimiter's body is
    /// expanded (its substitutions run); a quoted one's is plain text.
    fn read_heredoc_bodies(&mut self) {
        let pending = std::mem::take(&mut self.heredocs);
        for doc in pending {
            let body_start = self.pos;
            let mut body_end = self.src.len();
            while self.pos < self.src.len() {
                let line_start = self.pos;
                // One line, as bash's read_a_line builds it: with an
                // unquoted delimiter a backslash-newline joins lines.
                let mut line = Vec::new();
                let mut p = self.pos;
                while let Some(&c) = self.src.get(p) {
                    if c == b'\n' {
                        break;
                    }
                    if c == b'\\' && doc.expand {
                        match self.src.get(p + 1) {
                            Some(b'\n') => {
                                p += 2;
                                continue;
                            }
                            Some(&n) => {
                                line.extend_from_slice(&[c, n]);
                                p += 2;
                                continue;
                            }
                            None => {}
                        }
                    }
                    line.push(c);
                    p += 1;
                }
                self.pos = (p + 1).min(self.src.len());
                let text = if doc.strip_tabs {
                    let tabs = line.iter().take_while(|&&c| c == b'\t').count();
                    &line[tabs..]
                } else {
                    &line[..]
                };
                if text == doc.delimiter.as_slice() {
                    body_end = line_start;
                    break;
                }
            }
            if doc.expand && body_end > body_start {
                // Its text as bash expands it: backslash-newlines removed
                // everywhere, also between single quotes (plain there), and
                // for `<<-` the leading tabs of each line (of each line as
                // joined: a tab after a backslash-newline stays).
                let mut body = Vec::with_capacity(body_end - body_start);
                let mut origin = Vec::with_capacity(body_end - body_start + 1);
                let mut p = body_start;
                let mut line_start = true;
                while p < body_end {
                    match self.src[p] {
                        b'\t' if line_start && doc.strip_tabs => p += 1,
                        b'\\' if self.src.get(p + 1) == Some(&b'\n') => p += 2,
                        b'\\' if p + 1 < body_end => {
                            body.extend_from_slice(&self.src[p..p + 2]);
                            origin.extend([self.top_offset(p), self.top_offset(p + 1)]);
                            p += 2;
                            line_start = false;
                        }
                        c => {
                            body.push(c);
                            origin.push(self.top_offset(p));
                            p += 1;
                            line_start = c == b'\n';
                        }
                    }
                }
                origin.push(self.top_offset(body_end));
                let _ = self.parse_nested_text(&body, origin, SubMode::Expanded(false));
            }
        }
    }

    /// Reads one word (SPEC §4.1) at the current position.
    fn read_word(&mut self) -> Word {
        // Room for a typical word up front: growing byte by byte from
        // empty reallocated two or three times per word.
        let mut w = WordBuilder {
            bytes: Vec::with_capacity(16),
            ..WordBuilder::default()
        };
        let word_start = self.pos;
        let assign_ok = std::mem::take(&mut self.assign_ok);
        while let Some(b) = self.peek() {
            if b == b'[' && assign_ok && w.name_so_far && !w.assignment {
                self.read_subscript(&mut w);
                continue;
            }
            if self.at_process_substitution() {
                // A process substitution, at the start of a word or inside
                // one: bash keeps it in the word (`x<(a)` is one word,
                // `x/dev/fd/63`; so is `2>(a)`).
                let start = self.pos;
                self.bump(2);
                self.parse_substitution_list();
                w.literal(&self.src[start..self.pos.min(self.src.len())]);
                w.substitution = true;
                // Bash passes one `/dev/fd/N` path: one token, not this text.
                w.known = w.known.max(Known::OneToken);
                continue;
            }
            if is_word_end(b) {
                break;
            }
            match b {
                b'\\' => match self.escaped() {
                    Some(c) => {
                        w.quoted_byte(c);
                        self.bump_escape();
                        if c >= 0x80 {
                            self.copy_utf8_tail(&mut w);
                        }
                    }
                    None => {
                        // A trailing backslash stays literal.
                        w.quoted_byte(b'\\');
                        self.bump(1);
                    }
                },
                b'\'' => {
                    // Single quotes read raw: nothing, not even a
                    // backslash-newline, is special inside.
                    self.bump(1);
                    w.quoted = true;
                    match self.src[self.pos..].iter().position(|&c| c == b'\'') {
                        Some(n) => {
                            w.literal_quoted(&self.src[self.pos..self.pos + n]);
                            self.pos += n + 1;
                        }
                        None => {
                            w.literal_quoted(&self.src[self.pos..]);
                            self.pos = self.src.len();
                            self.mark(Unparsed::UnclosedQuote);
                        }
                    }
                }
                b'"' => {
                    self.bump(1);
                    w.quoted = true;
                    self.read_double_quoted(&mut w);
                }
                b'$' => self.read_dollar(&mut w, false),
                b'`' => self.read_backtick(&mut w, false),
                _ if is_plain(b) => {
                    // A run of bytes that mean nothing to the shell nor to
                    // the word's flags (most of every word), taken at once.
                    // From the logical position (a backslash-newline
                    // before it is skipped; one inside ends the run).
                    let at = self.logical(self.pos);
                    let n = self.src[at..]
                        .iter()
                        .position(|&c| !is_plain(c))
                        .unwrap_or(self.src.len() - at);
                    w.plain_run(&self.src[at..at + n]);
                    self.pos = at + n;
                }
                _ => {
                    w.unquoted_byte(b);
                    self.bump(1);
                }
            }
        }
        // Bash brace-expands the word's text with a quote tracking of its
        // own (`brace_gobbler`), which differs from the parser's: a `"` in
        // a backtick body or in a `${…}` inside double quotes ends the
        // quoting there (`"${x:-"{-rf,/}"}"` is two words to bash).
        // Raw text: a backslash-newline the lexer removes is skipped there
        // as an escaped newline, which finds the same braces.
        let end = self.pos.min(self.src.len());
        let raw = &self.src[word_start.min(end)..end];
        if !w.brace && raw.contains(&b'{') {
            w.brace = brace_expands(raw, self.depth);
        }
        w.finish()
    }

    /// `NAME[` at an assignment's place: bash reads the subscript to the
    /// matching `]` (`parse_matched_pair`), blanks, operators, `#`, quotes
    /// and newlines included, and the word goes on after it (SPEC §4.1
    /// round 3). A subscript holding anything but name characters, digits
    /// and arithmetic operators makes the line unparsed; one never closed
    /// is a syntax error to bash. Not followed by `=`/`+=`, the word is no
    /// assignment and its brackets are a glob (`a[1 2]` may match `a1`).
    fn read_subscript(&mut self, w: &mut WordBuilder) {
        let start = self.pos;
        let at = self.pos;
        self.bump(1);
        if !self.scan_matched(b'[', b']') {
            self.mark_at(Unparsed::UnclosedSubstitution, at);
        }
        let raw = self.logical_text(start, self.pos.min(self.src.len()));
        let plain = raw.iter().all(|&c| {
            c.is_ascii_alphanumeric()
                || matches!(
                    c,
                    b'_' | b'['
                        | b']'
                        | b'+'
                        | b'-'
                        | b'*'
                        | b'/'
                        | b'%'
                        | b'^'
                        | b'!'
                        | b'~'
                        | b'='
                        | b','
                        | b'.'
                        | b':'
                        | b'?'
                        | b'@'
                        | b'$'
                        | b'{'
                        | b'}'
                )
        });
        if !plain {
            self.mark_at(Unparsed::ArraySubscript, at);
        }
        w.bytes.extend_from_slice(&raw);
        w.last_unquoted_dot = false;
        w.last_unquoted_star = false;
        if self.peek() == Some(b'+') && self.peek_at(1) == Some(b'=') {
            w.bytes.push(b'+');
            self.bump(1);
        }
        if self.peek() == Some(b'=') {
            // `=` (read next) makes it an assignment.
            w.name_so_far = true;
        } else {
            w.name_so_far = false;
            w.glob = true;
        }
    }

    /// Copies the continuation bytes of a UTF-8 character already started.
    fn copy_utf8_tail(&mut self, w: &mut WordBuilder) {
        while let Some(&b) = self.src.get(self.pos) {
            if b & 0xC0 != 0x80 {
                break;
            }
            w.quoted_byte(b);
            self.pos += 1;
        }
    }

    fn read_double_quoted(&mut self, w: &mut WordBuilder) {
        self.read_double_quoted_in(w, true);
    }

    /// Double-quoted text after its `"`; `backtick_dq`: a backtick body in
    /// it reads `\"` as `"` (not so inside `${…}`, see
    /// [`Parser::read_dolbrace`]).
    fn read_double_quoted_in(&mut self, w: &mut WordBuilder, backtick_dq: bool) {
        loop {
            let Some(b) = self.peek() else {
                self.mark(Unparsed::UnclosedQuote);
                return;
            };
            match b {
                b'"' => {
                    self.bump(1);
                    return;
                }
                b'\\' => match self.escaped() {
                    Some(c @ (b'$' | b'`' | b'"' | b'\\')) => {
                        w.quoted_byte(c);
                        self.bump_escape();
                    }
                    _ => {
                        w.quoted_byte(b'\\');
                        self.bump(1);
                    }
                },
                b'$' => self.read_dollar(w, true),
                b'`' => self.read_backtick(w, backtick_dq),
                _ => {
                    w.quoted_byte(b);
                    self.bump(1);
                }
            }
        }
    }

    /// Scans, without reading any command, to just past the closer of a
    /// construct opened just before the current position, the way bash's
    /// `parse_matched_pair` finds the end of `$((…))`, `((…))`, `${…}` and
    /// `$[…]`: nested pairs counted, quoted text and nested substitutions
    /// skipped. False (at the end of input, or past the nesting limit) when
    /// it never closes.
    fn scan_matched(&mut self, open: u8, close: u8) -> bool {
        if !self.enter() {
            return false;
        }
        let closed = self.scan_matched_inner(open, close);
        self.leave();
        closed
    }

    fn scan_matched_inner(&mut self, open: u8, close: u8) -> bool {
        let mut depth = 1usize;
        while let Some(c) = self.peek() {
            match c {
                b'\\' => self.bump_escape(),
                c if c == close => {
                    self.bump(1);
                    depth -= 1;
                    if depth == 0 {
                        return true;
                    }
                }
                c if c == open => {
                    depth += 1;
                    self.bump(1);
                }
                b'\'' => {
                    self.bump(1);
                    if !self.scan_single_quoted() {
                        return false;
                    }
                }
                b'"' => {
                    self.bump(1);
                    if !self.scan_double_quoted() {
                        return false;
                    }
                }
                b'`' => {
                    self.bump(1);
                    if !self.scan_backquoted() {
                        return false;
                    }
                }
                b'$' => {
                    if !self.scan_dollar() {
                        return false;
                    }
                }
                _ => self.bump(1),
            }
        }
        false
    }

    /// After a `$` (at the current position): skips `$(…)`, `${…}`, `$[…]`,
    /// `$'…'` (marked), or just the dollar.
    fn scan_dollar(&mut self) -> bool {
        match self.peek_at(1) {
            Some(b'(') => {
                self.bump(2);
                self.scan_matched(b'(', b')')
            }
            Some(b'{') => {
                self.bump(2);
                self.scan_matched(b'{', b'}')
            }
            Some(b'[') => {
                self.bump(2);
                self.scan_matched(b'[', b']')
            }
            Some(b'\'') => {
                self.mark(Unparsed::AnsiCQuote);
                self.bump(2);
                self.skip_ansi_c_body();
                true
            }
            _ => {
                self.bump(1);
                true
            }
        }
    }

    /// Skips to just past the closing `'`, raw.
    fn scan_single_quoted(&mut self) -> bool {
        match self.src[self.pos.min(self.src.len())..]
            .iter()
            .position(|&q| q == b'\'')
        {
            Some(n) => {
                self.pos += n + 1;
                true
            }
            None => {
                self.pos = self.src.len();
                false
            }
        }
    }

    /// Skips to just past the closing `"`, nested substitutions included.
    fn scan_double_quoted(&mut self) -> bool {
        while let Some(c) = self.peek() {
            match c {
                b'"' => {
                    self.bump(1);
                    return true;
                }
                b'\\' => self.bump_escape(),
                b'`' => {
                    self.bump(1);
                    if !self.scan_backquoted() {
                        return false;
                    }
                }
                b'$' if matches!(self.peek_at(1), Some(b'(' | b'{' | b'[')) => {
                    if !self.scan_dollar() {
                        return false;
                    }
                }
                _ => self.bump(1),
            }
        }
        false
    }

    /// Skips to just past the closing backtick.
    fn scan_backquoted(&mut self) -> bool {
        while let Some(c) = self.peek() {
            match c {
                b'`' => {
                    self.bump(1);
                    return true;
                }
                b'\\' => self.bump_escape(),
                _ => self.bump(1),
            }
        }
        false
    }

    /// Skips the body of `$'…'` (after the opening quote) past its closing
    /// quote, raw: backslashes escape, nothing else is special. Returns
    /// where the body ends.
    fn skip_ansi_c_body(&mut self) -> usize {
        loop {
            match self.src.get(self.pos) {
                None => {
                    self.mark(Unparsed::UnclosedQuote);
                    return self.pos;
                }
                Some(b'\\') => self.pos = (self.pos + 2).min(self.src.len()),
                Some(b'\'') => {
                    self.pos += 1;
                    return self.pos - 1;
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    /// `src[from..to]` without its backslash-newlines (outside single
    /// quotes, bash has removed them when it reads the text).
    fn logical_text(&self, from: usize, to: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(to.saturating_sub(from));
        let mut p = from;
        while p < to {
            if self.src[p] == b'\\' && self.src.get(p + 1) == Some(&b'\n') {
                p += 2;
                continue;
            }
            out.push(self.src[p]);
            p += 1;
        }
        out
    }

    /// `$((`, at the `$`: arithmetic when its text, `(…)` to the closing
    /// `)`, is `(X)` with `X` balanced (bash's `chk_arithsub`); otherwise a
    /// command substitution that begins with a subshell (`$((a) | b)`). In
    /// both cases bash has taken the text to the closing `)` first.
    fn read_dollar_paren_paren(&mut self, w: &mut WordBuilder, in_double: bool) {
        let start = self.pos;
        self.bump(2);
        let text_from = self.pos;
        if !self.scan_matched(b'(', b')') {
            self.mark_at(Unparsed::UnclosedSubstitution, start);
            w.expansion(in_double);
            w.literal_quoted(&self.src[start..self.pos.min(self.src.len())]);
            return;
        }
        // The text between `$(` and its `)`.
        let text_to = self.pos - 1;
        let text = self.logical_text(text_from, text_to);
        let arithmetic = text.len() >= 2
            && text.first() == Some(&b'(')
            && text.last() == Some(&b')')
            && balanced_arith(&text[1..text.len() - 1], self.depth);
        if arithmetic {
            if text.contains(&b'`') {
                // Bash 5.2 extracts the text of `$((…))` again when it
                // expands it, and a backtick anywhere in it (even inside a
                // `$( )`, even quoted there) can make it run other commands
                // than the ones parsed (even a command `0`): not read
                // reliably.
                self.mark_at(Unparsed::SyntaxError, start);
            }
            // `$((` X `))`: X is what lies between the second `(` and the
            // `)` before the last one.
            let inner_from = self.logical(text_from) + 1;
            let mut inner_to = text_to;
            // Back to the `)` before the final one (past backslash-newlines).
            while inner_to > inner_from {
                inner_to -= 1;
                if self.src[inner_to] == b')' {
                    break;
                }
            }
            let _ = self.read_arith_body(inner_from, inner_to, false);
            w.expansion(in_double);
        } else {
            let origin = self.origin_of(text_from, text_to);
            let body = self.src[text_from..text_to].to_vec();
            let _ = self.parse_nested_text(&body, origin, SubMode::List);
            w.substitution = true;
            w.expansion(in_double);
        }
        w.literal_quoted(&self.src[start..self.pos]);
    }

    /// The text of an arithmetic expression, `src[from..to]`, read for the
    /// substitutions bash expands in it (as in double quotes, SPEC §4.1).
    /// The text as bash keeps it: its parser removes backslash-newlines
    /// outside the single quotes of the expression (plain characters to
    /// arithmetic, but quotes to that parser) and outside the
    /// substitutions it parses there; a substitution that starts between
    /// single quotes is found only when bash expands the text, in what the
    /// parser kept, so it is read from that text here.
    fn read_arith_body(&mut self, from: usize, to: usize, backtick_dq: bool) -> bool {
        if to <= from {
            return false;
        }
        if arith_names_variable(&self.logical_text(from, to)) {
            self.mark_at(Unparsed::ArithmeticVariable, from);
        }
        let mut body = Vec::with_capacity(to - from);
        let mut origin = Vec::with_capacity(to - from + 1);
        let mut p = from;
        while p < to {
            let end = match self.src[p] {
                b'\\' if self.src.get(p + 1) == Some(&b'\n') && p + 1 < to => {
                    p += 2;
                    continue;
                }
                b'\\' => (p + 2).min(to),
                b'\'' => {
                    let close = self.src[p + 1..to]
                        .iter()
                        .position(|&c| c == b'\'')
                        .map_or(to, |n| p + 1 + n);
                    self.check_quoted_substitutions(p + 1, close);
                    (close + 1).min(to)
                }
                c @ (b'"' | b'`' | b'$') => {
                    // Parsed where bash reads it: copied as it is.
                    let mut sc = Parser::scanner(self.src, p, self.depth);
                    match c {
                        b'"' => {
                            sc.bump(1);
                            let _ = sc.scan_double_quoted();
                        }
                        b'`' => {
                            sc.bump(1);
                            let _ = sc.scan_backquoted();
                        }
                        _ => {
                            let _ = sc.scan_dollar();
                        }
                    }
                    sc.pos.clamp(p + 1, to)
                }
                _ => p + 1,
            };
            body.extend_from_slice(&self.src[p..end]);
            origin.extend((p..end).map(|q| self.top_offset(q)));
            p = end;
        }
        origin.push(self.top_offset(to));
        self.parse_nested_text(&body, origin, SubMode::Expanded(backtick_dq))
    }

    /// A substitution that starts between the single quotes
    /// `src[from..close]` of an arithmetic expression and does not end
    /// before the closing quote: bash reads its end only when it expands
    /// the text, in a way permc does not follow exactly: unparsed.
    fn check_quoted_substitutions(&mut self, from: usize, close: usize) {
        let mut k = from;
        while k < close {
            let starts = match self.src[k] {
                b'`' => true,
                b'$' => self.src.get(k + 1) == Some(&b'('),
                _ => false,
            };
            if !starts {
                k += 1;
                continue;
            }
            let mut sc = Parser::scanner(self.src, k, self.depth);
            if self.src[k] == b'`' {
                sc.bump(1);
                let _ = sc.scan_backquoted();
            } else {
                let _ = sc.scan_dollar();
            }
            if sc.pos > close {
                self.mark_at(Unparsed::SyntaxError, k);
                return;
            }
            k = sc.pos.max(k + 1);
        }
    }

    /// `$…`: substitutions are parsed (their text kept literally in the
    /// word); nothing is expanded.
    fn read_dollar(&mut self, w: &mut WordBuilder, in_double: bool) {
        let start = self.pos;
        match self.peek_at(1) {
            Some(b'(') if self.peek_at(2) == Some(b'(') => {
                self.read_dollar_paren_paren(w, in_double)
            }
            Some(b'(') => {
                self.bump(2);
                self.parse_substitution_list();
                w.substitution = true;
                w.expansion(in_double);
                w.literal_quoted(&self.src[start..self.pos.min(self.src.len())]);
            }
            Some(b'[') => {
                // `$[…]`: old arithmetic, expanded like `$((…))`.
                self.bump(2);
                let inner_start = self.pos;
                if self.scan_matched(b'[', b']') {
                    let end = self.pos.saturating_sub(1);
                    // At expansion bash finds the `]` again with a scanner
                    // that skips no substitution: a `]` inside one cuts it
                    // there. A substitution in `$[…]` is not read reliably.
                    let text = self.logical_text(inner_start, end);
                    if text.contains(&b'`') || text.windows(2).any(|p| p == b"$(") {
                        self.mark_at(Unparsed::SyntaxError, start);
                    }
                    let _ = self.read_arith_body(inner_start, end, in_double);
                } else {
                    self.mark_at(Unparsed::UnclosedSubstitution, start);
                }
                w.expansion(in_double);
                w.literal_quoted(&self.src[start..self.pos]);
            }
            Some(b'{') => self.read_dolbrace(w, in_double),
            Some(b'\'') if !in_double => {
                // ANSI-C quoting: unparsed; read to the closing quote.
                self.mark(Unparsed::AnsiCQuote);
                self.bump(2);
                w.quoted = true;
                let body_start = self.pos;
                let end = self.skip_ansi_c_body();
                w.literal_quoted(&self.src[body_start..end]);
            }
            Some(b'"') if !in_double => {
                // Locale quoting `$"…"` reads like `"…"`.
                self.bump(2);
                w.quoted = true;
                self.read_double_quoted(w);
            }
            next => {
                // `$NAME`, `$1`, `$@`…: an expansion, kept literally; any
                // other `$` is a literal dollar.
                if next.is_some_and(|c| is_name_start(c) || c.is_ascii_digit())
                    || matches!(next, Some(b'@' | b'*' | b'#' | b'?' | b'-' | b'$' | b'!'))
                {
                    w.expansion(in_double);
                }
                if in_double {
                    w.quoted_byte(b'$');
                } else {
                    w.unquoted_byte(b'$');
                }
                self.bump(1);
            }
        }
    }

    /// `${…}`, at the `$`: parameter expansion, kept literally (an
    /// expansion, SPEC §4.4). Its end is found as bash's
    /// `parse_matched_pair` finds it (P_FIRSTCLOSE|P_DOLBRACE): quotes and
    /// backticks are read as units, a nested `${…}` counts, and `$( )`,
    /// backticks and `<( )`/`>( )` are commands bash parses there — each
    /// is read as nested segments (SPEC §4.2), since bash runs it when it
    /// expands that part. Where bash runs text it did not parse (between
    /// single quotes that are literal there) or does not run what it
    /// parsed (a process substitution in an arithmetic part, or in a
    /// `:-`-style word inside double quotes), the reader cannot be exact:
    /// the line is unparsed **[hardening]**.
    fn read_dolbrace(&mut self, w: &mut WordBuilder, in_double: bool) {
        let start = self.pos;
        self.bump(2);
        if !self.enter() {
            w.expansion(in_double);
            w.literal_quoted(&self.src[start..self.pos.min(self.src.len())]);
            return;
        }
        let before = self.out.len();
        let closed = self.scan_dolbrace(in_double, start);
        self.leave();
        if !closed {
            self.mark_at(Unparsed::UnclosedSubstitution, start);
        }
        if self.out.len() > before {
            w.substitution = true;
        }
        w.expansion(in_double);
        w.literal_quoted(&self.src[start..self.pos.min(self.src.len())]);
    }

    /// The body of `${…}` after `${`, to just past its `}`; false when it
    /// never closes. `dq`: the expansion is inside double quotes.
    fn scan_dolbrace(&mut self, dq: bool, start: usize) -> bool {
        // The parameter: a `#` or `!` prefix, a name, digits or one special
        // character, an optional `[subscript]`; then the operator decides
        // how bash expands the rest.
        if matches!(self.peek(), Some(b'#' | b'!')) && self.peek_at(1) != Some(b'}') {
            if self.peek() == Some(b'!') {
                // `${!x}`: the value of `x` names the variable expanded,
                // and a subscript there is evaluated (fail closed: every
                // indirection).
                self.mark_at(Unparsed::ArithmeticVariable, start);
            }
            self.bump(1);
        }
        match self.peek() {
            Some(c) if is_name_start(c) => {
                while self.peek().is_some_and(is_name_char) {
                    self.bump(1);
                }
            }
            Some(c) if c.is_ascii_digit() => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump(1);
                }
            }
            Some(b'@' | b'*' | b'#' | b'?' | b'-' | b'$' | b'!') => self.bump(1),
            _ => {}
        }
        if self.peek() == Some(b'[') {
            self.bump(1);
            let sub_from = self.pos;
            // The subscript is arithmetic (an indexed array) or a word (an
            // associative one): either way `$( )` runs there.
            match self.scan_dolbrace_part(BracePart::Subscript, dq) {
                PartEnd::Bracket => {
                    let sub = self.logical_text(sub_from, self.pos - 1);
                    if sub != b"@" && sub != b"*" && arith_names_variable(&sub) {
                        self.mark_at(Unparsed::ArithmeticVariable, start);
                    }
                }
                PartEnd::Brace => {
                    // bash's parser closes at that `}`; expanding `${x[}`
                    // is a bad substitution.
                    self.mark_at(Unparsed::SyntaxError, start);
                    return true;
                }
                PartEnd::Eof => return false,
            }
        }
        let part = match (self.peek(), self.peek_at(1)) {
            (Some(b'}'), _) => {
                self.bump(1);
                return true;
            }
            (Some(b':'), Some(b'-' | b'=' | b'?' | b'+')) => {
                self.bump(2);
                BracePart::Word
            }
            (Some(b':'), _) => {
                self.bump(1);
                BracePart::Arith
            }
            (Some(b'-' | b'=' | b'?' | b'+'), _) => {
                self.bump(1);
                BracePart::Word
            }
            (Some(b'#' | b'%' | b'/' | b'^' | b','), _) => {
                self.bump(1);
                BracePart::Pattern
            }
            _ => BracePart::Other,
        };
        let before = self.out.len();
        let part_from = self.pos;
        let end = self.scan_dolbrace_part(part, dq);
        if part == BracePart::Arith
            && arith_names_variable(&self.logical_text(part_from, self.pos.saturating_sub(1)))
        {
            self.mark_at(Unparsed::ArithmeticVariable, start);
        }
        if part == BracePart::Other && self.out.len() > before {
            // An operator bash does not define (a bad substitution) or a
            // transformation: no word that bash expands.
            self.mark_at(Unparsed::SyntaxError, start);
        }
        end != PartEnd::Eof
    }

    /// One part of a `${…}` body: to just past the `}` that closes it (or,
    /// for a subscript, its `]`, the position left at the next byte).
    fn scan_dolbrace_part(&mut self, part: BracePart, dq: bool) -> PartEnd {
        // bash's LEX_GTLT: a `(` right after one `<` or `>` begins a process
        // substitution (`<<(` is no such thing while parsing).
        let mut gtlt = false;
        let mut brackets = 0usize;
        // Single quotes are literal here: text between them is expanded.
        let quotes_literal = matches!(part, BracePart::Arith | BracePart::Subscript)
            || (dq && part == BracePart::Word);
        // A process substitution bash parses here but does not run.
        let procsub_idle = matches!(part, BracePart::Arith | BracePart::Subscript)
            || (dq && part == BracePart::Word);
        let mut scratch = WordBuilder::default();
        while let Some(c) = self.peek() {
            let was_gtlt = gtlt;
            gtlt = matches!(c, b'<' | b'>') && !was_gtlt;
            match c {
                b'}' => {
                    self.bump(1);
                    return PartEnd::Brace;
                }
                b'[' if part == BracePart::Subscript => {
                    brackets += 1;
                    self.bump(1);
                }
                b']' if part == BracePart::Subscript => {
                    self.bump(1);
                    if brackets == 0 {
                        return PartEnd::Bracket;
                    }
                    brackets -= 1;
                }
                b'\\' => self.bump_escape(),
                b'\'' => {
                    let at = self.pos;
                    self.bump(1);
                    let from = self.pos;
                    if !self.scan_single_quoted() {
                        self.mark_at(Unparsed::UnclosedQuote, at);
                        return PartEnd::Eof;
                    }
                    let body = &self.src[from..self.pos - 1];
                    let code = body.contains(&b'`') || body.windows(2).any(|p| p == b"$(");
                    if quotes_literal && code {
                        // bash expands this text without having parsed it.
                        self.mark_at(Unparsed::SyntaxError, at);
                    }
                }
                // A backtick body anywhere in `${…}` reads `\"` as it is,
                // inside double quotes too (bash parses it as a unit of the
                // `${…}`, then runs its text as written).
                b'"' => {
                    self.bump(1);
                    self.read_double_quoted_in(&mut scratch, false);
                }
                b'`' => self.read_backtick(&mut scratch, false),
                b'$' if self.peek_at(1) == Some(b'$') => self.bump(2),
                b'$' if self.peek_at(1) == Some(b'\'') => {
                    // ANSI-C quoting, translated where bash reads it.
                    self.mark(Unparsed::AnsiCQuote);
                    self.bump(2);
                    let _ = self.skip_ansi_c_body();
                }
                b'$' => self.read_dollar(&mut scratch, dq),
                b'(' if was_gtlt => {
                    let at = self.pos;
                    self.bump(1);
                    self.parse_substitution_list();
                    if procsub_idle {
                        self.mark_at(Unparsed::SyntaxError, at);
                    }
                }
                _ => self.bump(1),
            }
        }
        PartEnd::Eof
    }

    /// Scans a backtick body from the opening backtick past the closing
    /// one, unescaping it as bash does: `\` before `` ` ``, `$`, `\` — and
    /// before `"` when the backticks are inside double quotes — stands for
    /// that character. Returns the body and each byte's top-level offset.
    fn skip_backtick(&mut self, dq: bool) -> (Vec<u8>, Vec<usize>, bool) {
        self.bump(1);
        let mut body = Vec::new();
        let mut origin = Vec::new();
        let mut closed = false;
        while let Some(c) = self.peek() {
            let here = self.logical(self.pos);
            let at = self.top_offset(here);
            match c {
                b'`' => {
                    self.bump(1);
                    closed = true;
                    break;
                }
                b'\\' => match self.escaped() {
                    Some(n) if matches!(n, b'`' | b'$' | b'\\') || (dq && n == b'"') => {
                        body.push(n);
                        origin.push(self.top_offset(here + 1));
                        self.bump_escape();
                    }
                    Some(n) => {
                        body.extend_from_slice(&[b'\\', n]);
                        origin.extend_from_slice(&[at, self.top_offset(here + 1)]);
                        self.bump_escape();
                    }
                    None => {
                        body.push(b'\\');
                        origin.push(at);
                        self.bump(1);
                    }
                },
                _ => {
                    body.push(c);
                    origin.push(at);
                    self.bump(1);
                }
            }
        }
        origin.push(self.top_offset(self.pos));
        (body, origin, closed)
    }

    /// `` `…` ``: the body, unescaped, is read as a nested command line.
    fn read_backtick(&mut self, w: &mut WordBuilder, in_double: bool) {
        let start = self.pos;
        let (body, origin, closed) = self.skip_backtick(in_double);
        if !closed {
            self.mark_at(Unparsed::UnclosedSubstitution, start);
        }
        let end = self.pos;
        let _ = self.parse_nested_text(&body, origin, SubMode::List);
        w.substitution = true;
        w.expansion(in_double);
        w.literal_quoted(&self.src[start..end.min(self.src.len())]);
    }
}

/// Where a part of a `${…}` body ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PartEnd {
    /// Just past the `}` that closes the expansion.
    Brace,
    /// Just past the `]` of a subscript.
    Bracket,
    /// The input ended first.
    Eof,
}

/// Which part of a `${…}` body is read (see [`Parser::read_dolbrace`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum BracePart {
    /// `[…]` after the name: arithmetic, or an associative array's key.
    Subscript,
    /// The word of `-`, `=`, `?`, `+` and their `:` forms.
    Word,
    /// The pattern (and replacement) of `#`, `%`, `/`, `^`, `,`.
    Pattern,
    /// The offset and length of `${x:off:len}`: arithmetic.
    Arith,
    /// `@op` or an operator bash does not define.
    Other,
}

#[derive(Clone, Copy)]
enum Op {
    AndAnd,
    OrOr,
    Pipe,
    PipeAmp,
    Semi,
    Amp,
    Bad,
}

/// Accumulates a word and its quoting facts.
#[derive(Default)]
struct WordBuilder {
    bytes: Vec<u8>,
    quoted: bool,
    last_unquoted_star: bool,
    glob: bool,
    bracket_open: bool,
    brace_open: bool,
    brace_sep: bool,
    brace: bool,
    last_unquoted_dot: bool,
    /// Every byte so far is an unquoted name character (for `NAME=`).
    name_so_far: bool,
    /// The bytes so far are an unquoted name and a `+` (for `NAME+=`).
    plus_so_far: bool,
    /// A quoted `*`, `?`, `[`, `]` or `\\`: the text alone is no glob.
    quoted_glob_char: bool,
    assignment: bool,
    substitution: bool,
    known: Known,
}

impl WordBuilder {
    /// An expansion is part of the word: inside double quotes it is one
    /// token, unquoted bash splits and globs it (SPEC §4.4).
    fn expansion(&mut self, in_double: bool) {
        let k = if in_double {
            Known::OneToken
        } else {
            Known::AnyTokens
        };
        self.known = self.known.max(k);
    }

    fn unquoted_byte(&mut self, b: u8) {
        if self.bytes.is_empty() {
            self.name_so_far = is_name_start(b);
        } else if !self.assignment && (self.name_so_far || self.plus_so_far) && b == b'=' {
            self.assignment = true;
            self.name_so_far = false;
        } else if self.name_so_far && !is_name_char(b) {
            self.name_so_far = false;
        }
        self.plus_so_far = false;
        match b {
            b'*' | b'?' => self.glob = true,
            b'[' => self.bracket_open = true,
            b']' if self.bracket_open => self.glob = true,
            b'{' => {
                // `${` never reaches here (read_dollar takes it).
                self.brace_open = true;
                self.brace_sep = false;
            }
            b',' if self.brace_open => self.brace_sep = true,
            b'.' if self.brace_open && self.last_unquoted_dot => self.brace_sep = true,
            b'}' if self.brace_open && self.brace_sep => self.brace = true,
            _ => {}
        }
        self.last_unquoted_dot = b == b'.';
        self.last_unquoted_star = b == b'*';
        self.bytes.push(b);
    }

    /// `unquoted_byte` of each byte of a run of [`is_plain`] bytes, at once.
    fn plain_run(&mut self, run: &[u8]) {
        let Some(&first) = run.first() else {
            return;
        };
        if self.bytes.is_empty() {
            self.name_so_far = is_name_start(first);
        }
        self.plus_so_far = false;
        if self.name_so_far && !run.iter().all(|&b| is_name_char(b)) {
            self.name_so_far = false;
            // `NAME+` before an `=`: bash's `NAME+=value` assignment.
            if let Some((b'+', name)) = run.split_last() {
                self.plus_so_far = name.iter().all(|&b| is_name_char(b));
            }
        }
        self.last_unquoted_dot = false;
        self.last_unquoted_star = false;
        self.bytes.extend_from_slice(run);
    }

    fn quoted_byte(&mut self, b: u8) {
        self.plus_so_far = false;
        self.quoted_glob_char |= is_glob_char(b);
        self.quoted = true;
        self.name_so_far = false;
        self.last_unquoted_star = false;
        self.last_unquoted_dot = false;
        self.bytes.push(b);
    }

    fn literal_quoted(&mut self, s: &[u8]) {
        self.plus_so_far = false;
        self.quoted_glob_char |= s.iter().any(|&b| is_glob_char(b));
        if s.is_empty() {
            return;
        }
        self.name_so_far = false;
        self.last_unquoted_star = false;
        self.last_unquoted_dot = false;
        self.bytes.extend_from_slice(s);
    }

    fn literal(&mut self, s: &[u8]) {
        self.literal_quoted(s);
    }

    fn finish(self) -> Word {
        Word {
            // Valid UTF-8 (the usual case) moves without a copy.
            text: String::from_utf8(self.bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            quoted: self.quoted,
            trailing_unquoted_star: self.last_unquoted_star,
            unquoted_glob: self.glob,
            brace_expansion: self.brace,
            assignment: self.assignment,
            substitution: self.substitution,
            known: match (self.glob, self.known) {
                (false, k) => k,
                // The text is the glob, with no quoted `*?[]\` in it that
                // would read as glob characters.
                (true, Known::Exact) if !self.quoted_glob_char => Known::Glob,
                // A glob that an expansion or a quoted glob character is
                // part of: any run of tokens.
                (true, _) => Known::AnyTokens,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<Vec<String>> {
        read(src).segments.into_iter().map(|s| s.words).collect()
    }

    #[test]
    fn splits_operators_without_blanks() {
        assert_eq!(
            words("a&&b||c;d|e|&f&g"),
            [["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]]
        );
        assert!(!read("a&&b||c;d|e|&f&g").is_unparsed());
    }

    #[test]
    fn quotes_and_escapes() {
        assert_eq!(
            words(r#"echo 'a b' "c \$d \q" e\ f"#),
            [["echo", "a b", "c $d \\q", "e f"]]
        );
    }

    #[test]
    fn redirections_are_not_words() {
        let l = read("cat x 2>/dev/null >>log &>all <in 3<&0");
        assert_eq!(l.segments[0].words, ["cat", "x"]);
        let ops: Vec<_> = l.segments[0]
            .redirects
            .iter()
            .map(|r| r.op.as_str())
            .collect();
        assert_eq!(ops, ["2>", ">>", "&>", "<", "3<&"]);
    }

    #[test]
    fn nested_commands_are_segments() {
        let l = read("echo $(rm -rf /) `ls` && (cd x; make) && { a; }");
        let w: Vec<_> = l
            .segments
            .iter()
            .map(|s| (s.words.join(" "), s.nested))
            .collect();
        assert_eq!(
            w,
            [
                ("echo $(rm -rf /) `ls`".to_string(), false),
                ("rm -rf /".to_string(), true),
                ("ls".to_string(), true),
                ("cd x".to_string(), true),
                ("make".to_string(), true),
                ("a".to_string(), true),
            ]
        );
        assert!(!l.is_unparsed(), "{:?}", l.unparsed);
    }

    #[test]
    fn unparsed_conditions() {
        for (src, why) in [
            ("echo 'a", Unparsed::UnclosedQuote),
            ("echo $(a", Unparsed::UnclosedSubstitution),
            ("cat <<EOF", Unparsed::HereDocument),
            ("if true; then a; fi", Unparsed::Keyword),
            ("f() { a; }", Unparsed::FunctionDefinition),
            ("echo $'a'", Unparsed::AnsiCQuote),
            ("echo {a,b}", Unparsed::BraceExpansion),
            ("echo {1..3}", Unparsed::BraceExpansion),
            ("*.sh", Unparsed::GlobInCommandWord),
            ("a\rb", Unparsed::ControlCharacter),
            ("a &&", Unparsed::SyntaxError),
            ("echo $((x))", Unparsed::ArithmeticVariable),
            ("echo ${!x}", Unparsed::ArithmeticVariable),
        ] {
            let l = read(src);
            assert!(l.unparsed.contains(&why), "{src}: {:?}", l.unparsed);
        }
        assert!(!read("[ -f x ]").is_unparsed());
        assert!(!read("find . -exec rm {} \\;").is_unparsed());
        assert!(!read("ls *.ts").is_unparsed());
    }

    #[test]
    fn commands_in_parameter_expansions_are_segments() {
        // bash parses `$( )`, backticks and `<( )` in `${…}` and runs them
        // when it expands that part.
        for (src, inner) in [
            ("echo ${x:-<(rm -rf /)}", "rm -rf /"),
            ("echo ${x-$(git push)}", "git push"),
            ("echo ${x:=`git push`}", "git push"),
            ("echo ${x:-a${y:-<(git push)}b}", "git push"),
            ("echo \"${x#<(git push)}\"", "git push"),
            ("echo ${x:-<(echo })}", "echo }"),
        ] {
            let l = read(src);
            assert!(!l.is_unparsed(), "{src}: {:?}", l.unparsed);
            let w: Vec<String> = l.segments.iter().map(|s| s.words.join(" ")).collect();
            assert_eq!(w.len(), 2, "{src}: {w:?}");
            assert_eq!(w[1], inner, "{src}");
        }
        // In a subscript or an offset the substitution's output is
        // evaluated as arithmetic: read, and unparsed.
        for src in ["echo ${x[$(git push)]}", "echo ${x:$(git push)}"] {
            let l = read(src);
            assert_eq!(l.unparsed, [Unparsed::ArithmeticVariable], "{src}");
            let w: Vec<String> = l.segments.iter().map(|s| s.words.join(" ")).collect();
            assert_eq!(w[1..], ["git push"], "{src}");
        }
        // Quotes are units: the `}` between them does not close.
        let l = read("echo ${x:-'}'} $(git push) \\'");
        let w: Vec<String> = l.segments.iter().map(|s| s.words.join(" ")).collect();
        assert_eq!(w, ["echo ${x:-'}'} $(git push) '", "git push"]);
        // Where bash runs text it did not parse, or does not run what it
        // parsed: unparsed.
        for src in [
            "echo \"${x:-'$(git push)'}\"",
            "echo \"${x:-<(git push)}\"",
            "echo ${x:<(git push)}",
            "echo ${x@Q$(git push)}",
            "echo ${x[}]}",
        ] {
            assert!(read(src).unparsed.contains(&Unparsed::SyntaxError), "{src}");
        }
        assert!(!read("echo ${x:-'$(a)'} ${x:-\"}\"} ${#x} ${x/a/b}").is_unparsed());
    }

    #[test]
    fn brace_expansion_as_bash_finds_it() {
        // bash's brace_gobbler ends double quotes at a `"` inside a backtick
        // body or a double-quoted `${…}`.
        for src in [
            "rm \"${x:-\"{-rf,/}\"}\"",
            "echo \"`rm -rf \"{/,x}\"`\"",
            "echo {a,b}",
            "echo x{1..3}",
        ] {
            assert!(
                read(src).unparsed.contains(&Unparsed::BraceExpansion),
                "{src}"
            );
        }
        for src in [
            "echo \"{a,b}\" '{a,b}' \\{a,b}",
            "echo \"`echo '{a,b}'`\" ${x:-{a,b}} \"$(echo \"{a,b}\")\"",
            "echo { a,b } {} a{b",
        ] {
            assert!(!read(src).is_unparsed(), "{src}: {:?}", read(src).unparsed);
        }
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let src = "$(".repeat(10_000);
        let l = read(&src);
        assert!(l.unparsed.contains(&Unparsed::TooDeep));
        let src = "(".repeat(100_000);
        assert!(read(&src).is_unparsed());
        let src = "`".repeat(1000);
        let _ = read(&src);
    }

    #[test]
    fn array_subscripts_are_read_to_their_bracket() {
        // SPEC §4.1 round 3: bash's parse_matched_pair at an assignment's
        // place; never split.
        let l = read("a[ #]= rm -rf /");
        assert_eq!(l.segments[0].words, ["a[ #]=", "rm", "-rf", "/"]);
        assert!(l.unparsed.contains(&Unparsed::ArraySubscript));
        let l = read("a[x y]=1 git push");
        assert_eq!(l.segments[0].words, ["a[x y]=1", "git", "push"]);
        assert!(l.is_unparsed());
        let l = read(">f b=1 a[x;y]+=2 c[1|2]=3 git push");
        assert_eq!(l.segments.len(), 1);
        assert_eq!(l.segments[0].words[..3], ["b=1", "a[x;y]+=2", "c[1|2]=3"]);
        // After a redirection that follows a word, bash no longer reads
        // `NAME[` as a subscript (PST_REDIRLIST is cleared).
        let l = read("a=1 >f b[x y]=2 z");
        assert_eq!(l.segments[0].words, ["a=1", "b[x", "y]=2", "z"]);
        assert!(l.unparsed.contains(&Unparsed::ArraySubscript));
        // Digits and operators alone parse, and the word is an assignment.
        let l = read("a[0]=1 a[1+2]+=x ls");
        assert!(!l.is_unparsed(), "{:?}", l.unparsed);
        assert_eq!(l.segments[0].words, ["a[0]=1", "a[1+2]+=x", "ls"]);
        // Not at an assignment's place: split as usual.
        assert_eq!(words("echo a[x y]=1"), [vec!["echo", "a[x", "y]=1"]]);
        // No `=` after it: one word, a glob.
        let l = read("a[1 2] x");
        assert_eq!(l.segments[0].words, ["a[1 2]", "x"]);
        assert!(l.unparsed.contains(&Unparsed::GlobInCommandWord));
        // Never closed: unparsed, nothing after it split off.
        let l = read("a[x; git push");
        assert!(l.is_unparsed());
        assert_eq!(l.segments.len(), 1);
    }

    #[test]
    fn comments() {
        assert_eq!(words("ls # x && rm\npwd"), [["ls"], ["pwd"]]);
        assert_eq!(words("echo a#b"), [["echo", "a#b"]]);
    }

    #[test]
    fn comment_after_redirection_leaves_no_target() {
        // bash: "syntax error near unexpected token `newline'".
        for src in ["cat >#x", "cat > #x y", "cat 2>\\\n#x"] {
            let l = read(src);
            assert!(l.unparsed.contains(&Unparsed::SyntaxError), "{src}: {l:?}");
        }
        let l = read("cat >x#y '#'z");
        assert!(!l.is_unparsed());
        assert_eq!(l.segments[0].redirects[0].target, "x#y");
        assert_eq!(l.segments[0].words, ["cat", "#z"]);
    }

    #[test]
    fn fd_word_right_after_a_redirection_is_a_syntax_error() {
        // bash lexes `12` in `>12>x` as the fd of `>x`: `>` has no target.
        for src in ["a >12>x", "a <<<12>x", "a &>1<x", "a >{fd}>x", "a >&{fd}>x"] {
            assert!(read(src).unparsed.contains(&Unparsed::SyntaxError), "{src}");
        }
        // After `>&`/`<&` the digits are the fd to duplicate.
        for src in ["a >&2>x", "a 2<&0<x", "a >12 >x", "a >'12'>x", "a >1\\2>x"] {
            assert!(!read(src).is_unparsed(), "{src}: {:?}", read(src));
        }
    }

    #[test]
    fn named_fd_redirections() {
        // `{fd}>x` allocates an fd into `fd`: not a word.
        let l = read("exec {fd}>out {rd}<in {_1}>>log {a}>&2 c");
        assert_eq!(l.segments[0].words, ["exec", "c"]);
        let ops: Vec<_> = l.segments[0]
            .redirects
            .iter()
            .map(|r| r.op.as_str())
            .collect();
        assert_eq!(ops, ["{fd}>", "{rd}<", "{_1}>>", "{a}>&"]);
        assert!(!l.is_unparsed());
        // Not of that form, or not directly before `<`/`>`: words.
        assert_eq!(
            words("a {1x}>o \\{q}>o '{r}'>o {s} >o c{x}>o {x}2>o {x}&>o"),
            [["a", "{1x}", "{q}", "{r}", "{s}", "c{x}", "{x}2", "{x}"]]
        );
    }

    #[test]
    fn process_substitution_inside_a_word() {
        // bash passes `x/dev/fd/63`, `2/dev/fd/62`: one word each.
        let l = read("diff x<(ls a) 2>(wc) a\\ <(b)c");
        assert_eq!(
            l.segments[0].words,
            ["diff", "x<(ls a)", "2>(wc)", "a <(b)c"]
        );
        assert!(l.segments[0].redirects.is_empty());
        let nested: Vec<_> = l.segments[1..].iter().map(|s| s.words.join(" ")).collect();
        assert_eq!(nested, ["ls a", "wc", "b"]);
        // A redirection target too: `>y<(a)` writes to `y/dev/fd/63`.
        let l = read("a >y<(b)");
        assert_eq!(l.segments[0].redirects[0].target, "y<(b)");
        assert!(!l.is_unparsed());
    }

    #[test]
    fn known_words() {
        use Known::*;
        let known = |src: &str| -> Vec<Vec<Known>> {
            read(src)
                .segments
                .into_iter()
                .map(|s| s.known.to_vec())
                .collect()
        };
        assert_eq!(known("git $c"), [vec![Exact, AnyTokens]]);
        assert_eq!(known("git \"$c\""), [vec![Exact, OneToken]]);
        assert_eq!(known("git${IFS}push"), [vec![AnyTokens]]);
        assert_eq!(
            known("echo '$x' \\$x \"\\$x\" $ a$ \"$\""),
            [vec![Exact; 7]]
        );
        assert_eq!(
            known("X=$(date) make"),
            [vec![OneToken, Exact], vec![Exact]]
        );
        assert_eq!(
            known("X=`date` Y=$y make Z=$z"),
            [vec![OneToken, OneToken, Exact, AnyTokens], vec![Exact],]
        );
        for (word, k) in [
            ("$1", AnyTokens),
            ("$@", AnyTokens),
            ("\"$@\"", OneToken),
            ("$?", AnyTokens),
            ("$$", AnyTokens),
            ("$#", AnyTokens),
            ("$!", AnyTokens),
            ("$-", AnyTokens),
            ("$*", AnyTokens),
            ("${x}", AnyTokens),
            ("\"${x}\"", OneToken),
            ("$((1+2))", AnyTokens),
            ("\"$((1+2))\"", OneToken),
            ("$[1+2]", AnyTokens),
            ("`date`", AnyTokens),
            ("\"`date`\"", OneToken),
            ("\"$(date)\"$x", AnyTokens),
            ("$\"$x\"", OneToken),
            ("<(ls)", OneToken),
            ("'$(x)'", Exact),
            ("~", Exact),
        ] {
            let l = read(&format!("echo {word}"));
            assert_eq!(l.segments[0].known[..], [Exact, k], "{word}");
        }
        let l = read_detailed("cat \"$f\" >$out 2>\"$err\" <in");
        assert_eq!(l.segments[0].words[1].known, OneToken);
        let r: Vec<_> = l.segments[0].redirects.iter().map(|r| r.known).collect();
        assert_eq!(r, [AnyTokens, OneToken, Exact]);
        let l = read("(a) >$x");
        assert_eq!(l.segments[0].redirects[0].known, AnyTokens);
    }

    #[test]
    fn unparsed_offsets() {
        let l = read("echo {a,b} $'x' && cat <<E");
        assert_eq!(
            l.unparsed_at,
            [
                (Unparsed::BraceExpansion, 5),
                (Unparsed::AnsiCQuote, 11),
                (Unparsed::HereDocument, 23),
            ]
        );
        assert_eq!(
            l.unparsed,
            [
                Unparsed::HereDocument,
                Unparsed::AnsiCQuote,
                Unparsed::BraceExpansion
            ]
        );
        // In a backtick body, offsets are the top-level line's.
        let l = read("echo `a \\`b $'x'\\``");
        assert_eq!(l.unparsed_at, [(Unparsed::AnsiCQuote, 12)]);
        // The first occurrence of each condition counts.
        let l = read("a $'x' $'y'");
        assert_eq!(l.unparsed_at, [(Unparsed::AnsiCQuote, 2)]);
        assert!(read("ls -la").unparsed_at.is_empty());
    }

    #[test]
    fn trailing_star_details() {
        let l = read_detailed(r"pnpm test:* 'a*' b\* /*");
        let w = &l.segments[0].words;
        assert!(w[1].trailing_unquoted_star);
        assert!(!w[2].trailing_unquoted_star);
        assert!(!w[3].trailing_unquoted_star);
        assert!(w[4].trailing_unquoted_star);
    }
    /// The fast path reads a plain line exactly as the general reader
    /// does, and declines every line whose reading records a condition.
    #[test]
    fn simple_lines_read_like_the_general_reader() {
        let taken = [
            "pnpm test",
            "git status && pnpm test:unit",
            "cd src && npm run build | tee out.log",
            "git diff HEAD~1 -- src/main.rs",
            "a | b | c",
            "a |& b; c & d &",
            "a||b&&c;d",
            "  A=1 B=2 cmd -x=y,z ~/f.txt  ",
            "a;",
            "a &",
            "echo if then time2",
        ];
        for line in taken {
            let simple = read_simple(line).unwrap_or_else(|| panic!("{line:?} is simple"));
            assert_eq!(simple, read_general(line), "{line:?}");
        }
        let declined = [
            "",
            "   ",
            "; a",
            "a &&",
            "a | | b",
            "a ;; b",
            "a ;& b",
            "a & & b",
            "if x",
            "time a",
            "a | time b",
            "a\nb",
            "a # c",
            "echo $x",
            "echo 'a'",
            "a > b",
            "a*",
            "{a,b}",
            "(a)",
            "a[1]=x b",
            "echo é",
        ];
        for line in declined {
            assert_eq!(read_simple(line), None, "{line:?}");
        }
    }

    /// The fast path's byte table says what `is_plain` and the few more
    /// bytes say, and its keyword test is the table's.
    #[test]
    fn simple_reader_tables() {
        for c in 0..=255u8 {
            let want = if is_plain(c) || matches!(c, b'.' | b',' | b'=' | b'~') {
                WORD
            } else if is_blank(c) {
                BLANK
            } else if matches!(c, b';' | b'&' | b'|') {
                OPERATOR
            } else {
                REFUSED
            };
            assert_eq!(SIMPLE[usize::from(c)], want, "byte {c}");
        }
        for w in KEYWORDS.iter().chain(&["time"]) {
            assert!(is_keyword_or_time(w), "{w}");
        }
        for w in ["", "iff", "Time", "tim", "[", "]", "!!", "functions", "do."] {
            assert!(!is_keyword_or_time(w), "{w}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// Lines made of the fast path's bytes and a few it refuses: when
        /// it reads one, the general reader reads the same.
        #[test]
        fn simple_reader_agrees(line in "([a-z=.~,:-]{1,4}|time|if|do|[ ;&|]{1,3}|[#*$'>\\n]){0,12}") {
            if let Some(simple) = read_simple(&line) {
                proptest::prop_assert_eq!(simple, read_general(&line));
            }
        }
    }
}

#[cfg(test)]
mod bash_facts {
    //! SPEC §4.1's list of bash facts, one test each.
    use super::*;

    /// Every segment's words, nested ones included.
    fn segs(src: &str) -> Vec<String> {
        read(src)
            .segments
            .into_iter()
            .map(|s| s.words.join(" "))
            .collect()
    }

    fn has(src: &str, segment: &str) -> bool {
        segs(src).iter().any(|s| s == segment)
    }

    #[test]
    fn backslash_newline_is_removed_first() {
        for src in [
            "echo $\\\n(curl x)",
            "echo \"$\\\n(curl x)\"",
            "echo $(\\\ncurl x)",
            "echo $(cu\\\nrl x)",
            "echo `cu\\\nrl x`",
            "echo \"`curl\\\n x`\"",
            "echo ok &\\\n& curl x",
            "echo ok |\\\n curl x",
            "echo ok ;\\\ncurl x",
            "echo <\\\n(curl x)",
            "echo $\\\n(\\\n(curl x) | sh)",
        ] {
            assert!(has(src, "curl x"), "{src:?}: {:?}", segs(src));
            assert!(
                !read(src).is_unparsed(),
                "{src:?}: {:?}",
                read(src).unparsed
            );
        }
        let l = read("echo $\\\n'a'");
        assert!(l.unparsed.contains(&Unparsed::AnsiCQuote), "{l:?}");
        let l = read("cat <\\\n<E\nx\nE");
        assert!(l.unparsed.contains(&Unparsed::HereDocument), "{l:?}");
        // Not inside single quotes, comments, or after an escaping backslash.
        assert_eq!(segs("echo 'a\\\nb'"), ["echo a\\\nb"]);
        assert_eq!(segs("echo a # b \\\nc"), ["echo a", "c"]);
        assert_eq!(segs("echo a\\\\\nc"), ["echo a\\", "c"]);
        // Inside backticks a single quote is no quote yet: removed there too.
        assert!(has("echo `echo 'a\\\nb'`", "echo ab"));
        assert_eq!(segs("ec\\\nho \"a\\\nb\""), ["echo ab"]);
    }

    #[test]
    fn escaped_double_quote_in_backticks_in_double_quotes() {
        let src = "echo \"`echo \\\"'\\\"$(curl x)\\\"'\\\"`\"";
        assert!(has(src, "curl x"), "{:?}", segs(src));
        assert!(has("echo \"`echo \\\"a b\\\"`\"", "echo a b"));
        // Unquoted backticks keep `\"` as an escape of their own.
        assert!(has("echo `echo \\\"a b\\\"`", "echo \"a b\""));
    }

    #[test]
    fn dollar_paren_paren_that_is_no_arithmetic() {
        assert_eq!(
            segs("echo $((curl x) | sh)"),
            ["echo $((curl x) | sh)", "curl x", "sh"]
        );
        assert_eq!(
            segs("x=$((git push);ls)"),
            ["x=$((git push);ls)", "git push", "ls"]
        );
        assert!(!read("echo $((curl x) | sh)").is_unparsed());
        // Real arithmetic: no command.
        assert_eq!(segs("echo $((1 + (2) ))"), ["echo $((1 + (2) ))"]);
        assert_eq!(segs("echo $(( (1) + (2) ))"), ["echo $(( (1) + (2) ))"]);
        assert!(!read("echo $((1 + 2))").is_unparsed());
        assert_eq!(segs("((a) ); b"), ["a", "b"]);
        assert_eq!(segs("(( 1 + 2 )) && b"), ["b"]);
        assert!(!read("(( 1 + 2 )) && b").is_unparsed());
    }

    #[test]
    fn arithmetic_text_expands_like_double_quotes() {
        for src in [
            "(( '$(curl x)' ))",
            "echo $(( '$(curl x)' ))",
            "echo \"$(( '$(curl x)' ))\"",
            "echo $[ '$(curl x)' ]",
            "(( '`curl x`' ))",
            "(( x[$(curl x)] ))",
        ] {
            assert!(has(src, "curl x"), "{src:?}: {:?}", segs(src));
        }
    }

    #[test]
    fn here_documents_in_every_form() {
        for src in [
            "cat <<E\nx\nE",
            "cat 3<<E\nx\nE",
            "cat 0<<E\nx\nE",
            "cat {fd}<<E\nx\nE",
            "cat <<-E\n\tx\n\tE",
            "(cat) <<E\nx\nE",
            "{ cat; } <<E\nx\nE",
            "(cat) 3<<E\nx\nE",
            "{ cat; } {fd}<<E\nx\nE",
            "(cat) 2<<-E\nx\nE",
        ] {
            let l = read(src);
            assert!(
                l.unparsed.contains(&Unparsed::HereDocument),
                "{src:?}: {l:?}"
            );
            // The body is no command.
            assert!(!has(src, "x"), "{src:?}: {:?}", segs(src));
        }
        // An unquoted delimiter's body is expanded: its substitutions run,
        // even between single quotes; a quoted one's is text.
        let src = "cat <<E\n'$(curl x)' \"`wget y`\"\nE\necho after";
        assert_eq!(segs(src), ["cat", "curl x", "wget y", "echo after"]);
        assert_eq!(segs("cat <<'E'\n$(curl x)\nE\nls"), ["cat", "ls"]);
        assert_eq!(segs("cat <<\\E\n$(curl x)\nE\nls"), ["cat", "ls"]);
        // Two bodies in order; `<<-` strips tabs before the delimiter.
        let src = "a <<A; b <<-B\n$(one)\nA\n$(two)\n\tB\nc";
        assert_eq!(segs(src), ["a", "b", "one", "two", "c"]);
        // A backslash-newline joins body lines (unquoted delimiter).
        assert_eq!(segs("a <<E\nx\\\nE\n$(b)\nE\nc"), ["a", "b", "c"]);
    }

    #[test]
    fn time_is_a_reserved_word() {
        assert_eq!(segs("time { git push; }"), ["git push"]);
        assert_eq!(segs("time -p git push"), ["time -p git push"]);
        assert_eq!(segs("time (git push)"), ["git push"]);
        assert_eq!(segs("time git push"), ["time git push"]);
        assert!(!read("time { git push; }").is_unparsed());
        for src in [
            "time ! x",
            "time coproc x",
            "time [[ a ]]",
            "time -p ! x",
            "time if x; then y; fi",
        ] {
            assert!(read(src).unparsed.contains(&Unparsed::Keyword), "{src}");
        }
        assert!(read("time *.sh")
            .unparsed
            .contains(&Unparsed::GlobInCommandWord));
        // After a pipe `time` is an ordinary command.
        assert_eq!(
            segs("a | time { b; }").first().map(String::as_str),
            Some("a")
        );
        assert!(read("a | time { b; }").is_unparsed());
        assert!(!read("a | time b").is_unparsed());
        // Quoted, it is a command name (and the `}` then closes nothing).
        assert_eq!(segs("'time' { a; }")[0], "time { a");
        assert!(read("'time' { a; }")
            .unparsed
            .contains(&Unparsed::SyntaxError));
        assert!(read("time | a").unparsed.contains(&Unparsed::SyntaxError));
        assert!(read("a |\n\ntime b")
            .unparsed
            .contains(&Unparsed::SyntaxError));
        assert!(!read("a |\ntime b").is_unparsed());
        assert!(!read("time; a; time -p").is_unparsed());
    }

    #[test]
    fn known_for_new_forms() {
        use Known::*;
        let known = |src: &str| -> Vec<Known> { read(src).segments[0].known.to_vec() };
        assert_eq!(known("echo $\\\nx"), [Exact, AnyTokens]);
        assert_eq!(known("echo \"$\\\nx\""), [Exact, OneToken]);
        assert_eq!(known("echo $((a) | b)"), [Exact, AnyTokens]);
        assert_eq!(known("echo \"$((a) | b)\""), [Exact, OneToken]);
        assert_eq!(known("X=$((a) | b) c"), [OneToken, Exact]);
        assert_eq!(known("echo $[1]"), [Exact, AnyTokens]);
        assert_eq!(known("echo \"`a \\\"b\\\"`\""), [Exact, OneToken]);
        assert_eq!(known("time -p echo $x"), [Exact, Exact, Exact, AnyTokens]);
    }
}
