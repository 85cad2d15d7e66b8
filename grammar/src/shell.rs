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
    /// Some part is an expansion (`$x`, `${…}`, `$(…)`, backticks, `$((…))`, `$[…]`),
    /// all such parts inside double quotes (or in an assignment's value, which bash
    /// does not split): possibly any ONE token.
    OneToken,
    /// Some expansion is unquoted: bash splits and globs it: possibly any run of
    /// tokens, none included.
    AnyTokens,
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
    /// 0 is the line itself, its own parent.
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
    pub known: Vec<Known>,
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
        groups: detailed.groups,
    }
}

/// Like [`read`], keeping each word's quoting details (used for patterns).
pub fn read_detailed(src: &str) -> DetailedLine {
    let mut unparsed = Vec::new();
    if src.len() > MAX_LEN {
        unparsed.push((Unparsed::TooLong, MAX_LEN));
    }
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
        out: Vec::new(),
        unparsed,
        group: 0,
        groups: vec![0],
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
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn peek_at(&self, off: usize) -> Option<u8> {
        self.src.get(self.pos + off).copied()
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
        loop {
            match self.peek() {
                Some(b) if is_blank(b) => self.pos += 1,
                Some(b'\\') if self.peek_at(1) == Some(b'\n') => self.pos += 2,
                _ => return,
            }
        }
    }

    fn skip_comment(&mut self) {
        while let Some(b) = self.peek() {
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
                    self.pos += 1;
                    // `a &&\n b` is one list in bash: keep need_command.
                    continue;
                }
                b'#' => {
                    self.skip_comment();
                    continue;
                }
                b')' => {
                    self.pos += 1;
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
                    self.pos += 1;
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
            let read_something = self.parse_command(close);
            if !read_something {
                // Nothing could be read at this position: skip a byte so the
                // loop always progresses.
                self.mark(Unparsed::SyntaxError);
                self.pos += 1;
                continue;
            }
            need_command = false;
            self.skip_blanks();
            let (mut own_process, mut piped) = (false, false);
            match self.peek() {
                None => {}
                Some(b'\n') => {
                    self.pos += 1;
                }
                Some(b';' | b'&' | b'|') => {
                    let op = self.read_operator();
                    piped = matches!(op, Op::Pipe | Op::PipeAmp);
                    own_process = piped || matches!(op, Op::Amp);
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
        let g = self.groups.len() as u32;
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

    fn read_operator(&mut self) -> Op {
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
        self.pos += len;
        op
    }

    /// One command: a subshell, a group, or a simple command, with its
    /// redirections. Returns false when nothing was read.
    fn parse_command(&mut self, close: Close) -> bool {
        let start = self.pos;
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                let first = self.out.len();
                self.parse_nested_list(Close::Paren);
                self.trailing_redirects(first);
                return true;
            }
            Some(b'{') if self.peek_at(1).is_some_and(|b| is_blank(b) || b == b'\n') => {
                self.pos += 1;
                let first = self.out.len();
                self.parse_nested_list(Close::Brace);
                self.trailing_redirects(first);
                return true;
            }
            _ => {}
        }
        let index = self.out.len();
        self.out.push(DetailedSegment {
            words: Vec::new(),
            redirects: Vec::new(),
            nested: self.nested,
            start,
            group: self.group,
            holds: 0,
        });
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
                        self.pos += 2;
                    } else {
                        self.mark(Unparsed::SyntaxError);
                        self.pos += 1;
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
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            let word_at = self.pos;
            if self.at_process_substitution() {
                let w = self.read_word();
                self.push_word(index, w, word_at);
                continue;
            }
            if let Some(op) = self.read_redirect_op(None) {
                self.redirect_target(index, op, word_at);
                continue;
            }
            let w = self.read_word();
            // `2>x`, `{fd}>x`: an unquoted all-digit or `{NAME}` word
            // directly before `<`/`>` is the redirection's fd.
            if is_fd_word(&w)
                && matches!(self.peek(), Some(b'<' | b'>'))
                && !self.at_process_substitution()
            {
                if let Some(op) = self.read_redirect_op(Some(w.text.clone())) {
                    self.redirect_target(index, op, word_at);
                    continue;
                }
            }
            self.push_word(index, w, word_at);
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

    fn segment_words(&self, index: usize) -> usize {
        self.out.get(index).map_or(0, |s| s.words.len())
    }

    /// Adds word `w`, read at `at`, to segment `index`, with the checks of
    /// SPEC §4.2 on it.
    fn push_word(&mut self, index: usize, mut w: Word, at: usize) {
        let Some(seg) = self.out.get_mut(index) else {
            return;
        };
        let first = seg.words.is_empty();
        let leading = seg.words.iter().all(|p| p.assignment);
        if w.assignment && leading {
            // A leading assignment: bash neither splits nor globs its
            // value, so an expansion there is one token.
            w.known = w.known.min(Known::OneToken);
        }
        let keyword = first && !w.quoted && KEYWORDS.contains(&w.text.as_str());
        // `[` alone is the test command (SPEC §4.2).
        let test_command = w.text == "[" && !w.quoted;
        let command_glob = leading && !w.assignment && w.unquoted_glob && !test_command;
        let brace = w.brace_expansion;
        seg.words.push(w);
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
            let op = if matches!(self.peek(), Some(b'0'..=b'9')) {
                // `(a) 2>x`
                let mut end = self.pos;
                while self.src.get(end).is_some_and(|b| b.is_ascii_digit()) {
                    end += 1;
                }
                if matches!(self.src.get(end), Some(b'<' | b'>')) {
                    let fd = String::from_utf8_lossy(&self.src[self.pos..end]).into_owned();
                    self.pos = end;
                    self.read_redirect_op(Some(fd))
                } else {
                    None
                }
            } else {
                self.read_redirect_op(None)
            };
            let Some(op) = op else { break };
            self.skip_blanks();
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
            None | Some(b'\n' | b';' | b'&' | b'|' | b')') => {}
            Some(b'}') if self.at_brace_close() => {}
            Some(_) => {
                // `(a) b` is a syntax error in bash.
                self.mark(Unparsed::SyntaxError);
            }
        }
    }

    /// Reads the target of redirection `op`, read at `at`.
    fn redirect_target(&mut self, index: usize, op: String, at: usize) {
        self.skip_blanks();
        if op.contains("<<") && !op.ends_with("<<<") {
            self.mark_at(Unparsed::HereDocument, at);
        }
        match self.read_target(&op) {
            Some((target, known)) => {
                if let Some(seg) = self.out.get_mut(index) {
                    seg.redirects.push(Redirect { op, target, known });
                }
            }
            None => self.mark(Unparsed::SyntaxError),
        }
    }

    /// The target word of redirection `op` and what is known of it; `None`
    /// when there is none.
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
                Some((w.text, w.known))
            }
        }
    }

    fn at_process_substitution(&self) -> bool {
        matches!(self.peek(), Some(b'<' | b'>')) && self.peek_at(1) == Some(b'(')
    }

    /// Reads a redirection operator at the current position, if there is one.
    fn read_redirect_op(&mut self, fd: Option<String>) -> Option<String> {
        let rest = &self.src[self.pos.min(self.src.len())..];
        let ops: &[&str] = &[
            "&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">|", ">&", "<", ">",
        ];
        for op in ops {
            if rest.starts_with(op.as_bytes()) {
                if fd.is_some() && op.starts_with('&') {
                    return None;
                }
                self.pos += op.len();
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
            self.group = self.groups.len() as u32;
            self.groups.push(was_group);
        }
        self.parse_list(close);
        self.group = was_group;
        self.nested = was;
        self.leave();
    }

    /// Parses `text` (a backtick body, already unescaped) as a nested line;
    /// `origin` holds the top-level offset of each of its bytes.
    fn parse_nested_text(&mut self, text: &str, origin: Vec<usize>) {
        if self.depth >= MAX_DEPTH {
            self.mark(Unparsed::TooDeep);
            self.pos = self.src.len();
            return;
        }
        let mut sub = Parser {
            src: text.as_bytes(),
            origin: Some(origin),
            pos: 0,
            depth: self.depth + 1,
            nested: true,
            out: Vec::new(),
            unparsed: Vec::new(),
            group: self.groups.len() as u32,
            groups: std::mem::take(&mut self.groups),
        };
        sub.groups.push(self.group);
        sub.parse_list(Close::Eof);
        self.groups = std::mem::take(&mut sub.groups);
        self.out.append(&mut sub.out);
        for (u, at) in sub.unparsed {
            self.mark_top(u, at);
            if u == Unparsed::TooDeep {
                self.pos = self.src.len();
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
        while let Some(b) = self.peek() {
            if self.at_process_substitution() {
                // A process substitution, at the start of a word or inside
                // one: bash keeps it in the word (`x<(a)` is one word,
                // `x/dev/fd/63`; so is `2>(a)`).
                let start = self.pos;
                self.pos += 2;
                self.parse_nested_list(Close::Paren);
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
                b'\\' => match self.peek_at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(c) => {
                        w.quoted_byte(c);
                        self.pos += 2;
                        if c >= 0x80 {
                            self.copy_utf8_tail(&mut w);
                        }
                    }
                    None => {
                        // A trailing backslash stays literal.
                        w.quoted_byte(b'\\');
                        self.pos += 1;
                    }
                },
                b'\'' => {
                    self.pos += 1;
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
                    self.pos += 1;
                    w.quoted = true;
                    self.read_double_quoted(&mut w);
                }
                b'$' => self.read_dollar(&mut w, false),
                b'`' => self.read_backtick(&mut w, false),
                _ => {
                    w.unquoted_byte(b);
                    self.pos += 1;
                }
            }
        }
        w.finish()
    }

    /// Copies the continuation bytes of a UTF-8 character already started.
    fn copy_utf8_tail(&mut self, w: &mut WordBuilder) {
        while let Some(b) = self.peek() {
            if b & 0xC0 != 0x80 {
                break;
            }
            w.quoted_byte(b);
            self.pos += 1;
        }
    }

    fn read_double_quoted(&mut self, w: &mut WordBuilder) {
        loop {
            let Some(b) = self.peek() else {
                self.mark(Unparsed::UnclosedQuote);
                return;
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return;
                }
                b'\\' => match self.peek_at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(c @ (b'$' | b'`' | b'"' | b'\\')) => {
                        w.quoted_byte(c);
                        self.pos += 2;
                    }
                    _ => {
                        w.quoted_byte(b'\\');
                        self.pos += 1;
                    }
                },
                b'$' => self.read_dollar(w, true),
                b'`' => self.read_backtick(w, true),
                _ => {
                    w.quoted_byte(b);
                    self.pos += 1;
                }
            }
        }
    }

    /// `$…`: substitutions are parsed (their text kept literally in the
    /// word); nothing is expanded.
    fn read_dollar(&mut self, w: &mut WordBuilder, in_double: bool) {
        let start = self.pos;
        match self.peek_at(1) {
            Some(b'(') if self.peek_at(2) == Some(b'(') => {
                // Arithmetic expansion: scan to the balancing `))`.
                self.pos += 3;
                let mut depth = 2usize;
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    match c {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        b'`' => self.mark(Unparsed::SyntaxError),
                        b'$' if self.peek() == Some(b'(') => self.mark(Unparsed::SyntaxError),
                        _ => {}
                    }
                }
                if depth != 0 {
                    self.mark(Unparsed::UnclosedSubstitution);
                }
                // An expansion, not a command: the word stays literal.
                w.expansion(in_double);
                w.literal_quoted(&self.src[start..self.pos]);
            }
            Some(b'(') => {
                self.pos += 2;
                self.parse_nested_list(Close::Paren);
                w.substitution = true;
                w.expansion(in_double);
                w.literal_quoted(&self.src[start..self.pos.min(self.src.len())]);
            }
            Some(b'{') => {
                // Parameter expansion, kept literally; a command inside it
                // cannot be seen, so it is unparsed **[hardening]**.
                self.pos += 2;
                let mut depth = 1usize;
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    match c {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        b'\\' if self.peek().is_some() => {
                            self.pos += 1;
                        }
                        b'`' => self.mark(Unparsed::SyntaxError),
                        b'$' if self.peek() == Some(b'(') => self.mark(Unparsed::SyntaxError),
                        _ => {}
                    }
                }
                if depth != 0 {
                    self.mark(Unparsed::UnclosedSubstitution);
                }
                // An expansion, not a command: the word stays literal.
                w.expansion(in_double);
                w.literal_quoted(&self.src[start..self.pos]);
            }
            Some(b'\'') if !in_double => {
                // ANSI-C quoting: unparsed; read to the closing quote.
                self.mark(Unparsed::AnsiCQuote);
                self.pos += 2;
                w.quoted = true;
                let body_start = self.pos;
                loop {
                    match self.peek() {
                        None => {
                            self.mark(Unparsed::UnclosedQuote);
                            break;
                        }
                        Some(b'\\') => self.pos = (self.pos + 2).min(self.src.len()),
                        Some(b'\'') => break,
                        Some(_) => self.pos += 1,
                    }
                }
                w.literal_quoted(&self.src[body_start..self.pos]);
                if self.peek() == Some(b'\'') {
                    self.pos += 1;
                }
            }
            Some(b'"') if !in_double => {
                // Locale quoting `$"…"` reads like `"…"`.
                self.pos += 2;
                w.quoted = true;
                self.read_double_quoted(w);
            }
            next => {
                // `$NAME`, `$1`, `$@`…: an expansion, kept literally; any
                // other `$` is a literal dollar.
                if next.is_some_and(|c| is_name_start(c) || c.is_ascii_digit())
                    || matches!(
                        next,
                        Some(b'@' | b'*' | b'#' | b'?' | b'-' | b'$' | b'!' | b'[')
                    )
                {
                    w.expansion(in_double);
                }
                if in_double {
                    w.quoted_byte(b'$');
                } else {
                    w.unquoted_byte(b'$');
                }
                self.pos += 1;
            }
        }
    }

    /// `` `…` ``: the body, unescaped, is read as a nested command line.
    fn read_backtick(&mut self, w: &mut WordBuilder, in_double: bool) {
        let start = self.pos;
        self.pos += 1;
        let mut body = Vec::new();
        let mut origin = Vec::new();
        let mut closed = false;
        while let Some(c) = self.peek() {
            let at = self.top_offset(self.pos);
            match c {
                b'`' => {
                    self.pos += 1;
                    closed = true;
                    break;
                }
                b'\\' => match self.peek_at(1) {
                    Some(n @ (b'`' | b'$' | b'\\')) => {
                        body.push(n);
                        origin.push(at + 1);
                        self.pos += 2;
                    }
                    Some(n) => {
                        body.extend_from_slice(&[b'\\', n]);
                        origin.extend_from_slice(&[at, at + 1]);
                        self.pos += 2;
                    }
                    None => {
                        body.push(b'\\');
                        origin.push(at);
                        self.pos += 1;
                    }
                },
                _ => {
                    body.push(c);
                    origin.push(at);
                    self.pos += 1;
                }
            }
        }
        if !closed {
            self.mark_at(Unparsed::UnclosedSubstitution, start);
        }
        origin.push(self.top_offset(self.pos));
        let text = String::from_utf8_lossy(&body).into_owned();
        let end = self.pos;
        self.parse_nested_text(&text, origin);
        w.substitution = true;
        w.expansion(in_double);
        w.literal_quoted(&self.src[start..end.min(self.src.len())]);
    }
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
        } else if !self.assignment && self.name_so_far && b == b'=' {
            self.assignment = true;
            self.name_so_far = false;
        } else if self.name_so_far && !is_name_char(b) {
            self.name_so_far = false;
        }
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

    fn quoted_byte(&mut self, b: u8) {
        self.quoted = true;
        self.name_so_far = false;
        self.last_unquoted_star = false;
        self.last_unquoted_dot = false;
        self.bytes.push(b);
    }

    fn literal_quoted(&mut self, s: &[u8]) {
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
            known: self.known,
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
        ] {
            let l = read(src);
            assert!(l.unparsed.contains(&why), "{src}: {:?}", l.unparsed);
        }
        assert!(!read("[ -f x ]").is_unparsed());
        assert!(!read("find . -exec rm {} \\;").is_unparsed());
        assert!(!read("ls *.ts").is_unparsed());
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
            read(src).segments.into_iter().map(|s| s.known).collect()
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
            assert_eq!(l.segments[0].known, [Exact, k], "{word}");
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
}
