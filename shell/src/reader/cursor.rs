//! The reader's cursor: where it is in the line, what comes next, how it
//! steps over blanks, comments and escaped newlines, and how it marks a
//! line unparsed (SPEC §4.2).

use super::*;

impl<'a> Parser<'a> {
    /// A parser that only scans `src` from `pos` (extents, never segments).
    pub(super) fn scanner(src: &'a [u8], pos: usize, depth: usize) -> Parser<'a> {
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
            compound: Compound::default(),
        }
    }

    /// Position `p`, past any backslash-newlines there: bash removes them
    /// before it recognizes anything (SPEC §4.1), except inside single
    /// quotes, comments and after an escaping backslash, which read raw.
    pub(super) fn logical(&self, mut p: usize) -> usize {
        while self.src.get(p) == Some(&b'\\') && self.src.get(p + 1) == Some(&b'\n') {
            p += 2;
        }
        p
    }

    /// The current byte, backslash-newlines skipped.
    pub(super) fn peek(&self) -> Option<u8> {
        self.src.get(self.logical(self.pos)).copied()
    }

    /// The byte `off` characters ahead, backslash-newlines skipped.
    pub(super) fn peek_at(&self, off: usize) -> Option<u8> {
        let mut p = self.logical(self.pos);
        for _ in 0..off {
            p = self.logical(p + 1);
        }
        self.src.get(p).copied()
    }

    /// The byte right after the backslash at the current position, raw: an
    /// escaped character is never a line continuation (`\\⏎` is `\`
    /// then a newline).
    pub(super) fn escaped(&self) -> Option<u8> {
        self.src.get(self.logical(self.pos) + 1).copied()
    }

    /// Moves past `n` characters, backslash-newlines skipped.
    pub(super) fn bump(&mut self, n: usize) {
        for _ in 0..n {
            self.pos = (self.logical(self.pos) + 1).min(self.src.len());
        }
    }

    /// Moves past a backslash and the character it escapes.
    pub(super) fn bump_escape(&mut self) {
        self.pos = (self.logical(self.pos) + 2).min(self.src.len());
    }

    /// The offset in the top-level line of position `pos` of `src`.
    pub(super) fn top_offset(&self, pos: usize) -> usize {
        match &self.origin {
            None => pos,
            Some(map) => map.get(pos).or(map.last()).copied().unwrap_or_default(),
        }
    }

    /// Records an unparsed condition at the current position.
    pub(super) fn mark(&mut self, why: Unparsed) {
        self.mark_at(why, self.pos);
    }

    /// Records an unparsed condition at position `pos` of `src`.
    pub(super) fn mark_at(&mut self, why: Unparsed, pos: usize) {
        let at = self.top_offset(pos);
        self.mark_top(why, at);
    }

    /// Records an unparsed condition at top-level offset `at`, keeping the
    /// first (smallest) offset of each condition.
    pub(super) fn mark_top(&mut self, why: Unparsed, at: usize) {
        match self.unparsed.iter_mut().find(|(u, _)| *u == why) {
            Some(entry) => entry.1 = entry.1.min(at),
            None => self.unparsed.push((why, at)),
        }
    }

    /// Skips blanks and backslash-newlines.
    pub(super) fn skip_blanks(&mut self) {
        while self.peek().is_some_and(is_blank) {
            self.bump(1);
        }
    }

    /// Skips a comment to the newline, raw: a backslash at its end does not
    /// continue it.
    pub(super) fn skip_comment(&mut self) {
        self.pos = self.logical(self.pos);
        while let Some(&b) = self.src.get(self.pos) {
            if b == b'\n' {
                return;
            }
            self.pos += 1;
        }
    }

    /// Enters one nesting level; false (and the rest skipped) past the limit.
    pub(super) fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            self.mark(Unparsed::TooDeep);
            self.pos = self.src.len();
            return false;
        }
        self.depth += 1;
        true
    }

    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Is the `}` at the current position a group closer (a word of its own)?
    pub(super) fn at_brace_close(&self) -> bool {
        self.peek() == Some(b'}') && self.peek_at(1).is_none_or(|b| is_word_end(b) || b == b'}')
    }

    /// Does the word just read reach the cut (see [`Parser::cut`])?
    pub(super) fn at_cut(&self) -> bool {
        self.cut != usize::MAX && self.top_offset(self.pos) >= self.cut
    }

    /// The top-level offsets of `src[from..to]` (one more for its end).
    pub(super) fn origin_of(&self, from: usize, to: usize) -> Vec<usize> {
        (from..=to).map(|p| self.top_offset(p)).collect()
    }

    /// `src[from..to]` without its backslash-newlines (outside single
    /// quotes, bash has removed them when it reads the text).
    pub(super) fn logical_text(&self, from: usize, to: usize) -> Vec<u8> {
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
}
