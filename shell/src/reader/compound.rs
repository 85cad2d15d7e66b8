//! Compound commands begun by a reserved word (SPEC §4.2 round 4): `if`,
//! `while`, `until`, `for`, `case` are read — every command in their
//! conditions, bodies and arms is a segment; function definitions,
//! `select`, `coproc` and the arithmetic `for ((…))` are read the same
//! way but leave the line unparsed. The reserved words themselves are
//! never words of a segment.

use super::*;

/// `then`, `elif`, `else`, `fi`: what may end a list of an `if`.
const IF_STOPS: &[&[u8]] = &[b"then", b"elif", b"else", b"fi"];
const DO: &[&[u8]] = &[b"do"];
const DONE: &[&[u8]] = &[b"done"];
const ESAC: &[&[u8]] = &[b"esac"];

impl<'a> Parser<'a> {
    /// A compound command begun by a reserved word at the current
    /// position (command position), read with its redirections: true
    /// when one was read.
    pub(super) fn reserved_compound(&mut self, close: Close) -> bool {
        let first = self.out.len();
        let at = self.pos;
        if self.at_reserved(b"if") {
            self.bump(2);
            self.read_if(close);
        } else if self.at_reserved(b"while") || self.at_reserved(b"until") {
            self.bump(5);
            self.in_loop(|p| {
                p.body(close, DO);
                p.body(close, DONE);
            });
        } else if self.at_reserved(b"for") {
            self.bump(3);
            self.read_for(close, at, false);
        } else if self.at_reserved(b"select") {
            self.mark_at(Unparsed::Keyword, at);
            self.bump(6);
            self.read_for(close, at, true);
        } else if self.at_reserved(b"case") {
            self.bump(4);
            self.read_case(close);
        } else if self.at_reserved(b"function") {
            self.mark_at(Unparsed::FunctionDefinition, at);
            self.bump(8);
            self.read_function(close, true);
        } else if self.at_reserved(b"coproc") {
            self.mark_at(Unparsed::Keyword, at);
            self.bump(6);
            self.read_coproc(close);
        } else {
            return false;
        }
        self.trailing_redirects(first);
        true
    }

    /// Reads `f`'s effect with the context of a loop: its segments may run
    /// any number of times.
    fn in_loop(&mut self, f: impl FnOnce(&mut Self)) {
        let context = std::mem::replace(&mut self.compound.context, Context::LoopBody);
        let repeats = std::mem::replace(&mut self.compound.repeats, true);
        f(self);
        self.compound.context = context;
        self.compound.repeats = repeats;
    }

    /// A list up to one of the reserved words `stops` at command
    /// position, which is read too: its index, or `None` (a syntax error
    /// marked) when the list ended otherwise.
    fn body(&mut self, close: Close, stops: &'static [&'static [u8]]) -> Option<usize> {
        let was = std::mem::replace(&mut self.compound.stops, stops);
        let arm = std::mem::take(&mut self.compound.arm);
        self.parse_list(close);
        self.compound.stops = was;
        self.compound.arm = arm;
        self.end_word(stops)
    }

    /// Reads the reserved word of `stops` at the current position: its
    /// index, or `None` with a syntax error marked.
    fn end_word(&mut self, stops: &[&[u8]]) -> Option<usize> {
        match stops.iter().position(|w| self.at_reserved(w)) {
            Some(k) => {
                self.bump(stops[k].len());
                Some(k)
            }
            None => {
                self.mark(Unparsed::SyntaxError);
                None
            }
        }
    }

    /// Is one of the current list's reserved words at the position?
    pub(super) fn at_stop_word(&self) -> bool {
        self.compound.stops.iter().any(|w| self.at_reserved(w))
    }

    /// Is a `case` arm's end (`;;`, `;&`, `;;&`) at the position?
    pub(super) fn at_arm_end(&self) -> bool {
        self.compound.arm
            && self.peek() == Some(b';')
            && matches!(self.peek_at(1), Some(b';' | b'&'))
    }

    /// `if LIST; then LIST; [elif LIST; then LIST;]… [else LIST;] fi`,
    /// after `if`.
    fn read_if(&mut self, close: Close) {
        // After `if` or `elif`: a condition, then `then`.
        loop {
            if self.body(close, &[b"then"]).is_none() {
                return;
            }
            match self.body(close, &IF_STOPS[1..]) {
                Some(0) => continue,
                Some(1) => {
                    self.body(close, &IF_STOPS[3..]);
                    return;
                }
                _ => return,
            }
        }
    }

    /// `for NAME [in WORDS] ; do LIST; done` (or `select`), after the
    /// reserved word at `at`; also `for ((…;…;…))`.
    fn read_for(&mut self, close: Close, at: usize, select: bool) {
        self.skip_blanks();
        if !select && self.peek() == Some(b'(') && self.peek_at(1) == Some(b'(') {
            // The arithmetic for names its counter: unparsed (SPEC §4.2).
            self.mark_at(Unparsed::ArithmeticVariable, at);
            if !self.read_arith_for() {
                self.mark(Unparsed::SyntaxError);
                return;
            }
            self.loop_body(close);
            return;
        }
        let name = self.read_word();
        if name.quoted || name.text.is_empty() || !is_name(&name.text) {
            self.mark_at(Unparsed::SyntaxError, at);
        }
        let words = self.loop_words();
        let first = self.out.len();
        let names_before = self.compound.names.len();
        self.loop_body(close);
        // An inner `for`/`select` of the same NAME assigns it too: after
        // that loop `$NAME` is its last word, not this loop's.
        let reassigned = self.compound.names[names_before..].contains(&name.text);
        if !select && !reassigned {
            if let Some(words) = words {
                self.instantiate(first, &name.text, &words);
            }
        }
        self.compound.names.push(name.text);
    }

    /// A loop's `do LIST; done` (or `{ LIST; }`), after its header.
    fn loop_body(&mut self, close: Close) {
        self.skip_separators();
        if self.peek() == Some(b'{') && self.peek_at(1).is_some_and(|b| is_blank(b) || b == b'\n') {
            // `for x in a; { …; }`: bash takes a group as the body.
            self.in_loop(|p| {
                p.compound_command();
            });
            return;
        }
        self.in_loop(|p| {
            if p.end_word(DO).is_some() {
                p.body(close, DONE);
            }
        });
    }

    /// The `((…))` of an arithmetic `for`, its text expanded as double
    /// quotes: false when it does not close with `))`.
    fn read_arith_for(&mut self) -> bool {
        self.bump(2);
        let from = self.pos;
        if !self.scan_matched(b'(', b')') || self.src.get(self.pos) != Some(&b')') {
            return false;
        }
        let to = self.pos - 1;
        self.pos += 1;
        let _ = self.read_arith_body(from, to, false);
        true
    }

    /// After a loop's NAME: `in WORDS` up to `;` or a newline, or nothing
    /// (`for x; do`, `for x do`). The words are data; their substitutions'
    /// commands are segments.
    fn loop_words(&mut self) -> Option<Vec<Word>> {
        let save = self.pos;
        self.skip_blanks();
        while self.peek() == Some(b'\n') {
            self.bump(1);
            self.newline_read();
            self.skip_blanks();
        }
        if !self.at_reserved(b"in") {
            // `for x; do`: the loop runs over `"$@"`, unknown.
            self.pos = save;
            return None;
        }
        self.bump(2);
        Some(self.data_words(|b| matches!(b, b'\n' | b';')))
    }

    /// Reads words as data up to a byte `end` accepts (left unread), or
    /// an operator bash would not take there (a syntax error).
    fn data_words(&mut self, end: impl Fn(u8) -> bool) -> Vec<Word> {
        let mut words = Vec::new();
        loop {
            self.skip_blanks();
            match self.peek() {
                None => return words,
                Some(b) if end(b) => return words,
                Some(b'#') => {
                    self.skip_comment();
                    return words;
                }
                Some(b'&' | b'|' | b'(' | b')' | b'<' | b'>' | b';' | b'\n')
                    if !self.at_process_substitution() =>
                {
                    self.mark(Unparsed::SyntaxError);
                    return words;
                }
                Some(_) => words.push(self.read_word()),
            }
        }
    }

    /// Blanks, newlines and at most one `;` before a `do` or a body.
    fn skip_separators(&mut self) {
        let mut semi = false;
        loop {
            self.skip_blanks();
            match self.peek() {
                Some(b'\n') => {
                    self.bump(1);
                    self.newline_read();
                }
                Some(b';') if !semi && self.peek_at(1) != Some(b';') => {
                    semi = true;
                    self.bump(1);
                }
                Some(b'#') => self.skip_comment(),
                _ => return,
            }
        }
    }

    /// `case WORD in [(]PATTERN[|PATTERN]…) LIST ;;|;&|;;& … esac`, after
    /// `case`. WORD and the patterns are words, not commands.
    fn read_case(&mut self, close: Close) {
        self.skip_blanks();
        let _ = self.read_word();
        self.skip_separators_only_newlines();
        if !self.at_reserved(b"in") {
            self.mark(Unparsed::SyntaxError);
            return;
        }
        self.bump(2);
        loop {
            self.skip_separators_only_newlines();
            if self.at_reserved(b"esac") {
                self.bump(4);
                return;
            }
            if self.peek().is_none() {
                self.mark(Unparsed::SyntaxError);
                return;
            }
            if self.peek() == Some(b'(') {
                self.bump(1);
            }
            if !self.patterns() {
                return;
            }
            if !self.case_arm(close) {
                return;
            }
        }
    }

    /// One arm's list after its `)`: true when `;;`, `;&` or `;;&` ended
    /// it (more arms may follow), false at `esac` (read) or an error.
    fn case_arm(&mut self, close: Close) -> bool {
        let context = std::mem::replace(&mut self.compound.context, Context::CaseArm);
        let was = std::mem::replace(&mut self.compound.stops, ESAC);
        let arm = std::mem::replace(&mut self.compound.arm, true);
        self.parse_list(close);
        self.compound.stops = was;
        self.compound.arm = arm;
        self.compound.context = context;
        if self.peek() == Some(b';') && matches!(self.peek_at(1), Some(b';' | b'&')) {
            let len = if self.peek_at(1) == Some(b';') && self.peek_at(2) == Some(b'&') {
                3
            } else {
                2
            };
            self.bump(len);
            return true;
        }
        self.end_word(ESAC);
        false
    }

    /// An arm's patterns up to and with its `)`: false (a syntax error
    /// marked) when something else ends them.
    fn patterns(&mut self) -> bool {
        loop {
            let _ = self.data_words(|b| b == b')' || b == b'|');
            match self.peek() {
                Some(b'|') => self.bump(1),
                Some(b')') => {
                    self.bump(1);
                    return true;
                }
                _ => {
                    self.mark(Unparsed::SyntaxError);
                    return false;
                }
            }
        }
    }

    /// Newlines and blanks (and comments) only.
    fn skip_separators_only_newlines(&mut self) {
        loop {
            self.skip_blanks();
            match self.peek() {
                Some(b'\n') => {
                    self.bump(1);
                    self.newline_read();
                }
                Some(b'#') => self.skip_comment(),
                _ => return,
            }
        }
    }

    /// A function's body: after `function NAME [()]` (`keyword`), or
    /// after `NAME ()`. A compound command (a simple one is read too: the
    /// line is unparsed anyway). Its segments may run any number of times.
    pub(super) fn read_function(&mut self, close: Close, keyword: bool) {
        if keyword {
            self.skip_blanks();
            let _ = self.read_word();
            self.skip_blanks();
            if self.peek() == Some(b'(') && self.peek_at(1) == Some(b')') {
                self.bump(2);
            }
        }
        self.skip_separators_only_newlines();
        let context = std::mem::replace(&mut self.compound.context, Context::FunctionBody);
        let repeats = std::mem::replace(&mut self.compound.repeats, true);
        let stops = std::mem::take(&mut self.compound.stops);
        let arm = std::mem::take(&mut self.compound.arm);
        if !self.parse_command(close) {
            self.mark(Unparsed::SyntaxError);
        }
        self.compound.stops = stops;
        self.compound.arm = arm;
        self.compound.context = context;
        self.compound.repeats = repeats;
    }

    /// `coproc [NAME] COMMAND`, after `coproc`: a NAME is read only before
    /// a compound command (`coproc c { …; }`), as bash reads it.
    fn read_coproc(&mut self, close: Close) {
        self.skip_blanks();
        let save = self.pos;
        let w = self.read_word();
        self.skip_blanks();
        let compound_next = matches!(self.peek(), Some(b'{' | b'('))
            || [&b"if"[..], b"while", b"until", b"for", b"case", b"select"]
                .iter()
                .any(|r| self.at_reserved(r));
        if !(is_name(&w.text) && !w.quoted && compound_next) {
            self.pos = save;
        }
        if !self.parse_command(close) {
            self.mark(Unparsed::SyntaxError);
        }
    }
}

/// At most this many WORDS of one `for` loop are instantiated (SPEC §4.2).
const MAX_LOOP_WORDS: usize = 64;

impl Parser<'_> {
    /// In the body of `for NAME in WORDS` (its segments from `first` on),
    /// `$NAME` and `${NAME}` stand for each WORD that is literal: a
    /// segment holding them is read once for each WORD (SPEC §4.2 round
    /// 4), in its place. Left unknown (as read) when a WORD is not
    /// literal, there are more than [`MAX_LOOP_WORDS`], the body assigns
    /// NAME or the line assigns `IFS`; an unquoted `$NAME` whose WORD holds
    /// a blank or a glob character stays unknown too. A segment is copied
    /// with the commands nested in its words (`cat "$(dirname $f)"`), as
    /// one block.
    fn instantiate(&mut self, first: usize, name: &str, words: &[Word]) {
        let body = &self.out[first.min(self.out.len())..];
        let literal = words
            .iter()
            .all(|w| w.known == Known::Exact && !w.unquoted_glob && !w.brace_expansion);
        let assigns = |w: &Word| {
            w.text == name
                || w.text.strip_prefix(name).is_some_and(|r| {
                    r.starts_with('=') || r.starts_with("+=") || r.starts_with('[')
                })
        };
        if !literal
            || words.len() > MAX_LOOP_WORDS
            || body.iter().any(|s| s.words.iter().any(assigns))
            || self.src.windows(4).any(|w| w == b"IFS=")
        {
            return;
        }
        let body: Vec<DetailedSegment> = self.out.drain(first..).collect();
        let mut out = Vec::with_capacity(body.len());
        let mut k = 0;
        while k < body.len() {
            // A segment and the segments nested in its words.
            let block = &body[k..(k + 1 + body[k].holds).min(body.len())];
            k += block.len();
            let named = block
                .iter()
                .any(|s| s.words.iter().any(|w| names_var(w, name)));
            let room = self.compound.instances + words.len() * block.len() <= self.src.len();
            let copies: Option<Vec<DetailedSegment>> = (named && room)
                .then(|| {
                    words
                        .iter()
                        .flat_map(|v| block.iter().map(|s| substituted(s, name, &v.text)))
                        .collect()
                })
                .flatten();
            match copies {
                Some(copies) => {
                    self.compound.instances += copies.len();
                    out.extend(copies);
                }
                None => out.extend_from_slice(block),
            }
        }
        self.out.extend(out);
    }
}

/// Does word `w`, read with an expansion, hold `$NAME` or `${NAME}`?
fn names_var(w: &Word, name: &str) -> bool {
    w.known.is_unknown() && occurrences(&w.text, name).next().is_some()
}

/// The byte ranges of `$NAME` and `${NAME}` in `text` (not `$NAMEx`).
fn occurrences<'t>(text: &'t str, name: &'t str) -> impl Iterator<Item = (usize, usize)> + 't {
    text.match_indices('$').filter_map(move |(i, _)| {
        let rest = &text[i + 1..];
        if let Some(after) = rest.strip_prefix(name) {
            let next = after.bytes().next();
            if !next.is_some_and(is_name_char) {
                return Some((i, i + 1 + name.len()));
            }
        }
        let braced = rest.strip_prefix('{')?.strip_prefix(name)?;
        braced.starts_with('}').then(|| (i, i + 3 + name.len()))
    })
}

/// `seg` with each `$NAME` of its unknown words replaced by `value`:
/// `None` when it cannot be read so (another expansion stays in the word
/// and it is unquoted, or the value would be split or globbed).
fn substituted(seg: &DetailedSegment, name: &str, value: &str) -> Option<DetailedSegment> {
    let splits = value
        .bytes()
        .any(|b| matches!(b, b' ' | b'\t' | b'\n' | b'*' | b'?' | b'['));
    let mut out = seg.clone();
    for w in out.words.iter_mut().filter(|w| names_var(w, name)) {
        if w.known == Known::AnyTokens && splits {
            return None;
        }
        let mut text = String::with_capacity(w.text.len() + value.len());
        let mut last = 0;
        for (a, b) in occurrences(&w.text, name).collect::<Vec<_>>() {
            text.push_str(&w.text[last..a]);
            text.push_str(value);
            last = b;
        }
        text.push_str(&w.text[last..]);
        let dollars = w.text.matches('$').count();
        let replaced = occurrences(&w.text, name).count();
        if dollars == replaced && !text.contains('`') && !text.contains(['*', '?', '[']) {
            w.known = Known::Exact;
        }
        w.text = text;
    }
    Some(out)
}

/// A shell name: a letter or `_`, then letters, digits, `_`.
fn is_name(t: &str) -> bool {
    let b = t.as_bytes();
    !b.is_empty() && is_name_start(b[0]) && b.iter().all(|&c| is_name_char(c))
}
