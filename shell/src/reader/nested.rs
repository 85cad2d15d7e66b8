//! Nested command lines: `$( )`, backticks, `<( )`, subshells and groups,
//! and text read again as a line (SPEC §4.1).

use super::*;

impl<'a> Parser<'a> {
    /// Parses a nested list one level deeper, its segments marked nested:
    /// a subshell or a group, whose context is `line`.
    pub(super) fn parse_nested_list(&mut self, close: Close) {
        self.parse_nested(close, false);
    }

    /// [`Parser::parse_nested_list`]; `keep_context` for a substitution,
    /// which is no construct of `permc tokens`' contexts.
    fn parse_nested(&mut self, close: Close, keep_context: bool) {
        if !self.enter() {
            return;
        }
        let was = self.nested;
        self.nested = true;
        // A list of its own: the enclosing compound command's reserved
        // words and `;;` do not end it, and a subshell or group is `line`.
        let stops = std::mem::take(&mut self.compound.stops);
        let arm = std::mem::take(&mut self.compound.arm);
        let context = self.compound.context;
        if !keep_context {
            self.compound.context = Context::Line;
        }
        let was_group = self.group;
        if close == Close::Paren {
            // A subshell or substitution: a child process.
            self.group = group_id(self.groups.len());
            self.groups.push(was_group);
        }
        self.parse_list(close);
        self.group = was_group;
        self.nested = was;
        self.compound.stops = stops;
        self.compound.arm = arm;
        self.compound.context = context;
        self.leave();
    }

    /// A command or process substitution body `…)`: a nested list whose
    /// newlines do not collect the enclosing line's here-documents (bash
    /// parses the substitution on its own).
    pub(super) fn parse_substitution_list(&mut self) {
        let outer = std::mem::take(&mut self.heredocs);
        self.parse_nested(Close::Paren, true);
        self.unread_heredocs();
        self.heredocs = outer;
    }

    /// Parses `text` (a backtick body, already unescaped) as a nested line;
    /// `origin` holds the top-level offset of each of its bytes.
    /// Returns whether a backtick was read directly in expanded text.
    pub(super) fn parse_nested_text(
        &mut self,
        text: &[u8],
        origin: Vec<usize>,
        mode: SubMode,
    ) -> bool {
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
            compound: Compound {
                context: self.compound.context,
                repeats: self.compound.repeats,
                ..Compound::default()
            },
            group: group_id(self.groups.len()),
            groups: std::mem::take(&mut self.groups),
        };
        sub.groups.push(self.group);
        match mode {
            SubMode::List => sub.parse_list(Close::Eof),
            SubMode::Expanded(dq) => sub.read_expanded_text(dq),
        }
        sub.unread_heredocs();
        self.groups = std::mem::take(&mut sub.groups);
        self.out.append(&mut sub.out);
        self.compound.names.append(&mut sub.compound.names);
        for (u, at) in sub.unparsed {
            self.mark_top(u, at);
            if u == Unparsed::TooDeep {
                self.pos = self.src.len();
            }
        }
        sub.saw_backtick
    }

    /// Reads text that bash expands as it does double-quoted text without
    /// the quotes (an arithmetic expression, a here-document body): every
    /// `$( )`, backtick and `${ }` in it is found, also between single
    /// quotes, which are plain characters there.
    pub(super) fn read_expanded_text(&mut self, backtick_dq: bool) {
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

    /// Scans a backtick body from the opening backtick past the closing
    /// one, unescaping it as bash does: `\` before `` ` ``, `$`, `\` — and
    /// before `"` when the backticks are inside double quotes — stands for
    /// that character. Returns the body and each byte's top-level offset.
    pub(super) fn skip_backtick(&mut self, dq: bool) -> (Vec<u8>, Vec<usize>, bool) {
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
    pub(super) fn read_backtick(&mut self, w: &mut WordBuilder, in_double: bool) {
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
