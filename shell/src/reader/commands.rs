//! Lists and simple commands: control operators, reserved words, the
//! words of a segment and where its command word is (SPEC §4.1).

use super::*;

impl<'a> Parser<'a> {
    /// A list of pipelines and operators, until `close` (or end of input).
    pub(super) fn parse_list(&mut self, close: Close) {
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
            match self.list_stop(close, need_command, &mut since_pipe) {
                Stop::End => return,
                Stop::Again => continue,
                Stop::Word => {}
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
            if in_pipe {
                // Every command of a later pipeline element reads the pipe.
                for seg in self.out.iter_mut().skip(seg_start) {
                    seg.piped = true;
                }
            }
            self.skip_blanks();
            let (own_process, piped, op) = self.list_operator();
            if let Some(op) = op {
                if matches!(op, Op::Pipe | Op::PipeAmp) {
                    since_pipe = Some((0, matches!(op, Op::PipeAmp)));
                }
                need_command = matches!(op, Op::AndAnd | Op::OrOr | Op::Pipe | Op::PipeAmp);
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
    pub(super) fn regroup(&mut self, seg_start: usize, group_start: usize) {
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
    pub(super) fn at_redirect_amp(&self) -> bool {
        self.peek() == Some(b'&') && self.peek_at(1) == Some(b'>')
    }

    /// An unquoted newline was read: pending here-document bodies follow.
    pub(super) fn newline_read(&mut self) {
        self.operators = true;
        if !self.heredocs.is_empty() {
            self.read_heredoc_bodies();
        }
    }

    /// Is the word at the current position exactly `word`, unquoted (a
    /// reserved word, when at command position)?
    pub(super) fn at_reserved(&self, word: &[u8]) -> bool {
        word.iter()
            .enumerate()
            .all(|(k, &c)| self.peek_at(k) == Some(c))
            && self.peek_at(word.len()).is_none_or(is_word_end)
    }

    pub(super) fn read_operator(&mut self) -> Op {
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

    /// What comes where a command of a list may start: the list's end
    /// (its closer, or the end of the line), something read here (a
    /// newline, a comment, a misplaced operator), or a command.
    fn list_stop(
        &mut self,
        close: Close,
        need_command: bool,
        since_pipe: &mut Option<(usize, bool)>,
    ) -> Stop {
        let Some(b) = self.peek() else {
            if need_command {
                self.mark(Unparsed::SyntaxError);
            }
            if close != Close::Eof {
                self.mark(Unparsed::UnclosedSubstitution);
            }
            return Stop::End;
        };
        if self.at_stop_word() || self.at_arm_end() {
            // The enclosing compound command's `then`, `done`, `;;`…
            if need_command {
                self.mark(Unparsed::SyntaxError);
            }
            return Stop::End;
        }
        match b {
            b'\n' => {
                self.bump(1);
                self.newline_read();
                *since_pipe = since_pipe.map(|(n, amp)| (n + 1, amp));
                // `a &&\n b` is one list in bash: keep need_command.
                Stop::Again
            }
            b'#' => {
                self.skip_comment();
                Stop::Again
            }
            b')' => {
                self.bump(1);
                if close == Close::Paren {
                    if need_command {
                        self.mark(Unparsed::SyntaxError);
                    }
                    return Stop::End;
                }
                self.mark(Unparsed::SyntaxError);
                Stop::Again
            }
            b'}' if close == Close::Brace && self.at_brace_close() => {
                self.bump(1);
                if need_command {
                    self.mark(Unparsed::SyntaxError);
                }
                Stop::End
            }
            b';' | b'|' => {
                // An operator with no command before it.
                self.mark(Unparsed::SyntaxError);
                self.read_operator();
                Stop::Again
            }
            b'&' if self.peek_at(1) != Some(b'>') => {
                self.mark(Unparsed::SyntaxError);
                self.read_operator();
                Stop::Again
            }
            _ => Stop::Word,
        }
    }

    /// The operator after a command, if any: whether the command runs in
    /// a process of its own (`&`, a pipe), whether it is piped into the
    /// next, and the operator read.
    fn list_operator(&mut self) -> (bool, bool, Option<Op>) {
        if self.at_arm_end() {
            // A `case` arm's end: read by the arm.
            return (false, false, None);
        }
        match self.peek() {
            Some(b'\n') => {
                self.bump(1);
                self.newline_read();
                (false, false, None)
            }
            Some(b';' | b'&' | b'|') => {
                let op = self.read_operator();
                if matches!(op, Op::Bad) {
                    self.mark(Unparsed::SyntaxError);
                }
                let piped = matches!(op, Op::Pipe | Op::PipeAmp);
                (piped || matches!(op, Op::Amp), piped, Some(op))
            }
            _ => (false, false, None),
        }
    }

    /// One command: a subshell, a group, or a simple command, with its
    /// redirections. Returns false when nothing was read.
    pub(super) fn parse_command(&mut self, close: Close) -> bool {
        let entry = self.pos;
        self.bang();
        // After a `!` the segment starts at its command: the scope reads
        // the `!` before it (a `cd` there may or may not have happened).
        let start = self.pos;
        let prefix = self.time_prefix();
        self.bang();
        if self.compound_command() || self.reserved_compound(close) {
            return true;
        }
        let index = self.out.len();
        self.out.push(DetailedSegment {
            words: Vec::with_capacity(4),
            redirects: Vec::new(),
            nested: self.nested,
            start,
            group: self.group,
            holds: 0,
            context: self.compound.context,
            repeats: self.compound.repeats,
            piped: false,
        });
        self.cmd_index = prefix.len();
        // One past the last word that is no assignment: the words from the
        // command word on are all assignments when it is at or before
        // the command word, known in O(1) per word (a scan of them per
        // word made a line of `a=$b ` repeated quadratic).
        let after_plain = prefix
            .iter()
            .rposition(|(w, _)| !w.assignment)
            .map_or(0, |i| i + 1);
        if let Some(seg) = self.out.get_mut(index) {
            seg.words.extend(prefix.into_iter().map(|(w, _)| w));
        }
        self.simple_command_words(index, close, after_plain);
        if self.compound.function_at.take() == Some(index) {
            // `NAME ()`: the name is no command; the body follows.
            self.out.remove(index);
            self.read_function(close, false);
            return true;
        }
        let after = self.out.len();
        if let Some(seg) = self.out.get_mut(index) {
            seg.holds = after - index - 1;
        }
        let seg = &self.out[index];
        if seg.words.is_empty() && seg.redirects.is_empty() {
            self.out.truncate(index);
            // Something followed (a closer or operator) but no command.
            return self.pos != entry;
        }
        true
    }

    /// `!` before a pipeline (SPEC §4.2 round 4: read, not unparsed): the
    /// command follows. A `cd` after it may or may not have happened (the
    /// scope reads the `!` before the segment).
    fn bang(&mut self) {
        while self.at_reserved(b"!") {
            self.bump(1);
            self.skip_blanks();
        }
    }

    /// `time`, `time -p`, `time --` (and again: `time time x`): reserved
    /// words, after which the rest is at command position (SPEC §4.1).
    fn time_prefix(&mut self) -> Vec<(Word, usize)> {
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
        prefix
    }

    /// A subshell `( )`, a group `{ ;}` or an arithmetic command `(( ))`
    /// at command position, with its redirections: true when one was read.
    pub(super) fn compound_command(&mut self) -> bool {
        match self.peek() {
            Some(b'(') if self.peek_at(1) == Some(b'(') && self.read_arith_command() => true,
            Some(b'(') => {
                self.bump(1);
                let first = self.out.len();
                self.parse_nested_list(Close::Paren);
                self.trailing_redirects(first);
                true
            }
            Some(b'{') if self.peek_at(1).is_some_and(|b| is_blank(b) || b == b'\n') => {
                self.bump(1);
                let first = self.out.len();
                self.parse_nested_list(Close::Brace);
                self.trailing_redirects(first);
                true
            }
            _ => false,
        }
    }

    /// The words and redirections of a simple command, into segment
    /// `index`, until an operator, a closer or a comment.
    fn simple_command_words(&mut self, index: usize, close: Close, mut after_plain: usize) {
        let mut after_redirect = false;
        loop {
            self.skip_blanks();
            match self.command_stop(index, close) {
                Stop::End => break,
                Stop::Again => continue,
                Stop::Word => {}
            }
            after_redirect = self.command_part(index, &mut after_plain, after_redirect);
        }
    }

    /// What the next byte of a simple command is: its end, a part read
    /// here (a function definition's `()`, a misplaced `(` or `{`), or a
    /// word or redirection to read.
    fn command_stop(&mut self, index: usize, close: Close) -> Stop {
        let Some(b) = self.peek() else {
            return Stop::End;
        };
        match b {
            b'\n' | b';' | b'|' | b')' => Stop::End,
            b'&' if self.peek_at(1) != Some(b'>') => Stop::End,
            b'}' if close == Close::Brace
                && self.segment_words(index) == 0
                && self.at_brace_close() =>
            {
                Stop::End
            }
            b'#' => {
                self.skip_comment();
                Stop::End
            }
            b'(' if self.at_array_value(index) => {
                self.read_array_value(index);
                Stop::Again
            }
            b'(' => {
                // `name()` is a function definition; any other `(` after
                // words is a syntax error. Read what follows anyway.
                if self.segment_words(index) == 1 && self.peek_at(1) == Some(b')') {
                    self.mark(Unparsed::FunctionDefinition);
                    self.bump(2);
                    self.compound.function_at = Some(index);
                    return Stop::End;
                } else {
                    self.mark(Unparsed::SyntaxError);
                    self.bump(1);
                    self.parse_nested_list(Close::Paren);
                }
                Stop::Again
            }
            b'{' if self.segment_words(index) == 0
                && self.peek_at(1).is_some_and(|b| is_blank(b) || b == b'\n') =>
            {
                // Cannot happen (handled above) except after a redirect;
                // bash rejects `>x { a; }`.
                self.mark(Unparsed::SyntaxError);
                self.bump(1);
                Stop::Again
            }
            _ => Stop::Word,
        }
    }

    /// Is the `(` here a compound array value (`a=(x y)`, `a+=(…)`,
    /// `declare -a a=(…)`): right after an assignment word that ends with
    /// `=`?
    fn at_array_value(&self, index: usize) -> bool {
        let adjacent = self.pos > 0 && !is_blank(self.src[self.pos - 1]);
        adjacent
            && self
                .out
                .get(index)
                .and_then(|s| s.words.last())
                .is_some_and(|w| w.assignment && w.text.ends_with('='))
    }

    /// A compound array value (SPEC §4.2 round 4): each element is a word
    /// (its substitutions' commands are segments), joined into the
    /// assignment word as `NAME=(a b)`, unknown when an element is.
    fn read_array_value(&mut self, index: usize) {
        self.bump(1);
        let mut elements: Vec<Word> = Vec::new();
        loop {
            self.skip_blanks();
            match self.peek() {
                None => {
                    self.mark(Unparsed::UnclosedSubstitution);
                    break;
                }
                Some(b')') => {
                    self.bump(1);
                    break;
                }
                Some(b'\n') => {
                    self.bump(1);
                    self.newline_read();
                }
                Some(b'#') => self.skip_comment(),
                Some(b'(' | b';' | b'&' | b'|' | b'<' | b'>')
                    if !self.at_process_substitution() =>
                {
                    self.mark(Unparsed::SyntaxError);
                    self.bump(1);
                }
                Some(_) => elements.push(self.read_word()),
            }
        }
        if let Some(w) = self.out.get_mut(index).and_then(|s| s.words.last_mut()) {
            let inner: Vec<&str> = elements.iter().map(|e| e.text.as_str()).collect();
            w.text = format!("{}({})", w.text, inner.join(" "));
            for e in &elements {
                w.known = w.known.max(e.known);
                w.substitution |= e.substitution;
            }
        }
    }

    /// One word or redirection of a simple command into segment `index`;
    /// returns whether it was a redirection (bash's assignment rule reads
    /// it: `PST_REDIRLIST`).
    fn command_part(
        &mut self,
        index: usize,
        after_plain: &mut usize,
        after_redirect: bool,
    ) -> bool {
        let word_at = self.pos;
        if self.at_process_substitution() {
            let w = self.read_word();
            self.push_word(index, w, word_at, after_plain);
            return after_redirect;
        }
        if let Some(op) = self.read_redirect_op(None) {
            self.redirect_target(index, op, word_at);
            return true;
        }
        // Bash's `assignment_acceptable`: before any word (after
        // redirections too, `PST_REDIRLIST`), or right after an
        // assignment word (not after a redirection that follows one).
        // O(1): `after_plain` says whether every word from the
        // command's place on is an assignment.
        let (assign_ok, split_by_redirect) = self.out.get(index).map_or((false, false), |seg| {
            let cmd = self.cmd_index.min(seg.words.len());
            let none = seg.words.len() == cmd;
            let assignments = cmd >= *after_plain;
            (
                none || (!after_redirect && assignments),
                !none && after_redirect && assignments,
            )
        });
        self.assign_ok = assign_ok;
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
                return true;
            }
        }
        self.push_word(index, w, word_at, after_plain);
        false
    }

    /// `((…))` at command position: an arithmetic command when the `(`
    /// after `((` closes right before a `)` (bash's `parse_arith_cmd`),
    /// its text expanded like double-quoted text; otherwise nothing is read
    /// (false) and `((` is two subshells.
    pub(super) fn read_arith_command(&mut self) -> bool {
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

    pub(super) fn segment_words(&self, index: usize) -> usize {
        self.out.get(index).map_or(0, |s| s.words.len())
    }

    /// Adds word `w`, read at `at`, to segment `index`, with the checks of
    /// SPEC §4.2 on it; `after_plain` is one past the segment's last word
    /// that is no assignment, kept up to date here.
    pub(super) fn push_word(
        &mut self,
        index: usize,
        mut w: Word,
        at: usize,
        after_plain: &mut usize,
    ) {
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
}

/// What [`Parser::command_stop`] found.
enum Stop {
    /// The simple command ends here.
    End,
    /// A part was read: look again.
    Again,
    /// A word or a redirection follows.
    Word,
}
