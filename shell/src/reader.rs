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

use std::borrow::Cow;
use std::fmt;

mod commands;
mod compound;
mod cursor;
mod expansions;
mod nested;
mod redirects;
mod simple;
mod words;

pub use simple::read_simple;
pub(crate) use simple::{
    read_simple_noting, ANY_NOTE, HAS_COLON, HAS_EQ, HAS_PATH_BYTE, HAS_SLASH, HAS_UNDERSCORE,
    HAS_UPPER,
};

#[cfg(test)]
mod bash_facts;
#[cfg(test)]
mod tests;

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

/// Where the innermost construct around a segment puts it (SPEC §10.3,
/// `permc tokens`' `context`; **[round 4]** §4.2's compound commands).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Context {
    /// The top level, a subshell, a group, an `if` (or `!`).
    #[default]
    Line,
    /// The body of a function definition.
    FunctionBody,
    /// The condition and body of `for`, `while`, `until`, `select`.
    LoopBody,
    /// An arm of `case`.
    CaseArm,
}

impl Context {
    /// The name `permc tokens` prints.
    pub fn name(self) -> &'static str {
        match self {
            Context::Line => "line",
            Context::FunctionBody => "function-body",
            Context::LoopBody => "loop-body",
            Context::CaseArm => "case-arm",
        }
    }
}

/// `as_str` for a word of a [`Segment`], borrowed from the line or owned
/// (as [`String::as_str`], which the words were before they were spans).
pub trait AsStr {
    /// The word's text.
    fn as_str(&self) -> &str;
}

impl AsStr for Cow<'_, str> {
    #[inline]
    fn as_str(&self) -> &str {
        self
    }
}

/// One command line, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandLine<'a> {
    /// Every simple command, nested ones included, in source order.
    pub segments: Vec<Segment<'a>>,
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
    /// The names a `for` or `select` loop assigns (SPEC §4.3 round 4: a
    /// loop's NAME is an assignment, so one that names code makes the
    /// line unparsed). Empty on most lines.
    pub loop_names: Vec<String>,
}

impl CommandLine<'_> {
    /// True when any unparsed condition of SPEC §4.2 holds.
    pub fn is_unparsed(&self) -> bool {
        !self.unparsed.is_empty()
    }

    /// The line with every word its own text, borrowing nothing: for a
    /// line read from text that does not outlive it (an inner line built
    /// from words, `sh -c …`).
    pub fn into_owned(self) -> CommandLine<'static> {
        CommandLine {
            segments: self
                .segments
                .into_iter()
                .map(|s| Segment {
                    words: s
                        .words
                        .into_iter()
                        .map(|w| Cow::Owned(w.into_owned()))
                        .collect(),
                    known: s.known,
                    redirects: s.redirects,
                    nested: s.nested,
                    start: s.start,
                    group: s.group,
                    holds: s.holds,
                    context: s.context,
                    repeats: s.repeats,
                    piped: s.piped,
                })
                .collect(),
            unparsed: self.unparsed,
            unparsed_at: self.unparsed_at,
            groups: self.groups,
            loop_names: self.loop_names,
        }
    }
}

/// One simple command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Segment<'a> {
    /// Argument words, quotes removed, nothing expanded; redirections are
    /// not among them (SPEC §4.2). Leading `NAME=value` words are kept.
    /// A word written plainly is a span of the line (borrowed: most words
    /// of most lines, nothing copied or allocated); a word whose quotes
    /// were removed is text of its own.
    pub words: Vec<Cow<'a, str>>,
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
    /// Where the innermost compound command around it puts it.
    pub context: Context,
    /// It stands in a loop or a function body, at any depth: it may run
    /// any number of times (a `cd` there moves later words to an
    /// unknowable place, SPEC §4.2 round 4).
    pub repeats: bool,
    /// **[round 4]** It is read in a later element of a pipeline (after
    /// `|` or `|&`, at any depth of that element: a group, a loop, a
    /// substitution in its words): its standard input is the output of
    /// the command before it (SPEC §4.2, "What reads the body decides the
    /// rest").
    pub piped: bool,
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
    /// **[round 4]** A here-document's body (`<<`, `<<-`; `None` for any
    /// other redirection).
    pub here: Option<Box<HereDoc>>,
}

/// **[round 4]** A here-document as read (SPEC §4.2): what reads standard
/// input decides what its body is (a program that reads paths from it
/// reads its lines as places).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HereDoc {
    /// Where its delimiter word starts in the line: which operator it is.
    pub at: usize,
    /// Some part of the delimiter was quoted: the body is data.
    pub quoted: bool,
    /// The body's lines as bash feeds them (for `<<-` without their
    /// leading tabs; with an unquoted delimiter, backslash-newlines
    /// joined); `None` when the reader could not place it (a body that
    /// never ends, one inside a substitution).
    pub body: Option<String>,
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
            Unparsed::HereDocument => {
                "a here-document (`<<`) whose body never ends, or that nothing before a newline can hold"
            }
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
    /// See [`Segment::context`].
    pub context: Context,
    /// See [`Segment::repeats`].
    pub repeats: bool,
    /// See [`Segment::piped`].
    pub piped: bool,
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
    /// See [`CommandLine::loop_names`].
    pub loop_names: Vec<String>,
}

/// Reads a command line (SPEC §4). Never fails: problems are recorded in
/// [`CommandLine::unparsed`].
///
/// ```
/// let line = permc_shell::reader::read("cd src && pnpm test 2>/dev/null");
/// assert_eq!(line.segments.len(), 2);
/// assert_eq!(line.segments[1].words, ["pnpm", "test"]);
/// assert_eq!(line.segments[1].redirects[0].op, "2>");
/// assert!(!line.is_unparsed());
/// ```
pub fn read(src: &str) -> CommandLine<'_> {
    read_simple(src).unwrap_or_else(|| read_general(src))
}

/// [`read`] by the general reader alone, never the fast path of
/// [`read_simple`] (the two are compared by tests and the fuzzer).
#[doc(hidden)]
pub fn read_general(src: &str) -> CommandLine<'_> {
    let detailed = read_detailed(src);
    CommandLine {
        segments: detailed
            .segments
            .into_iter()
            .map(|s| Segment {
                known: s.words.iter().map(|w| w.known).collect(),
                words: s.words.into_iter().map(|w| Cow::Owned(w.text)).collect(),
                redirects: s.redirects,
                nested: s.nested,
                start: s.start,
                group: s.group,
                holds: s.holds,
                context: s.context,
                repeats: s.repeats,
                piped: s.piped,
            })
            .collect(),
        unparsed: detailed.unparsed,
        unparsed_at: detailed.unparsed_at,
        loop_names: detailed.loop_names,
        groups: if detailed.groups.len() > 1 {
            detailed.groups
        } else {
            Vec::new()
        },
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
        compound: Compound::default(),
    };
    p.parse_list(Close::Eof);
    p.unread_heredocs();
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
        loop_names: p.compound.names,
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
    /// Where the compound commands being read stand.
    compound: Compound,
}

/// The compound commands around the reader's position (SPEC §4.2 round 4).
#[derive(Default)]
struct Compound {
    /// The reserved words that end the list being read (`then`, `fi`…),
    /// empty outside a compound command's list.
    stops: &'static [&'static [u8]],
    /// The list is a `case` arm: `;;`, `;&`, `;;&` end it too.
    arm: bool,
    /// The context of the segments read now.
    context: Context,
    /// Inside a loop or function body, at any depth.
    repeats: bool,
    /// The segment whose words were a function's name (`f() …`): the
    /// body follows, and the name is no command.
    function_at: Option<usize>,
    /// Every loop NAME read (see [`CommandLine::loop_names`]).
    names: Vec<String>,
    /// Segments a `for` loop's instantiation added so far: at most as many
    /// as the line has bytes, so reading stays linear.
    instances: usize,
}

/// A here-document operator read, whose body is still to come.
struct PendingHeredoc {
    /// Where its delimiter word starts.
    at: usize,
    /// The first segment its redirection may stand on (a compound
    /// command's first, `done <<EOF`).
    from: usize,
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
