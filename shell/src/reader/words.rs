//! Words: quoting as bash reads it (`'…'`, `"…"`, `$'…'`, escapes),
//! assignment subscripts, and the scans that find where a quoted or
//! bracketed part ends (bash's `parse_matched_pair`).

use super::*;

impl<'a> Parser<'a> {
    /// Reads one word (SPEC §4.1) at the current position.
    pub(super) fn read_word(&mut self) -> Word {
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
                b'\\' => self.read_escape(&mut w),
                b'\'' => self.read_single_quoted(&mut w),
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

    /// A backslash outside quotes: the next byte taken literally (a
    /// trailing backslash stays itself).
    fn read_escape(&mut self, w: &mut WordBuilder) {
        match self.escaped() {
            Some(c) => {
                w.quoted_byte(c);
                self.bump_escape();
                if c >= 0x80 {
                    self.copy_utf8_tail(w);
                }
            }
            None => {
                w.quoted_byte(b'\\');
                self.bump(1);
            }
        }
    }

    /// `'…'`: read raw; nothing, not even a backslash-newline, is special
    /// inside.
    fn read_single_quoted(&mut self, w: &mut WordBuilder) {
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

    /// `NAME[` at an assignment's place: bash reads the subscript to the
    /// matching `]` (`parse_matched_pair`), blanks, operators, `#`, quotes
    /// and newlines included, and the word goes on after it (SPEC §4.1
    /// round 3). A subscript holding anything but name characters, digits
    /// and arithmetic operators makes the line unparsed; one never closed
    /// is a syntax error to bash. Not followed by `=`/`+=`, the word is no
    /// assignment and its brackets are a glob (`a[1 2]` may match `a1`).
    pub(super) fn read_subscript(&mut self, w: &mut WordBuilder) {
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
    pub(super) fn copy_utf8_tail(&mut self, w: &mut WordBuilder) {
        while let Some(&b) = self.src.get(self.pos) {
            if b & 0xC0 != 0x80 {
                break;
            }
            w.quoted_byte(b);
            self.pos += 1;
        }
    }

    pub(super) fn read_double_quoted(&mut self, w: &mut WordBuilder) {
        self.read_double_quoted_in(w, true);
    }

    /// Double-quoted text after its `"`; `backtick_dq`: a backtick body in
    /// it reads `\"` as `"` (not so inside `${…}`, see
    /// [`Parser::read_dolbrace`]).
    pub(super) fn read_double_quoted_in(&mut self, w: &mut WordBuilder, backtick_dq: bool) {
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
    pub(super) fn scan_matched(&mut self, open: u8, close: u8) -> bool {
        if !self.enter() {
            return false;
        }
        let closed = self.scan_matched_inner(open, close);
        self.leave();
        closed
    }

    pub(super) fn scan_matched_inner(&mut self, open: u8, close: u8) -> bool {
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
    pub(super) fn scan_dollar(&mut self) -> bool {
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
    pub(super) fn scan_single_quoted(&mut self) -> bool {
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
    pub(super) fn scan_double_quoted(&mut self) -> bool {
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
    pub(super) fn scan_backquoted(&mut self) -> bool {
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
    pub(super) fn skip_ansi_c_body(&mut self) -> usize {
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
}

impl WordBuilder {
    /// An expansion is part of the word: inside double quotes it is one
    /// token, unquoted bash splits and globs it (SPEC §4.4).
    pub(super) fn expansion(&mut self, in_double: bool) {
        let k = if in_double {
            Known::OneToken
        } else {
            Known::AnyTokens
        };
        self.known = self.known.max(k);
    }

    pub(super) fn unquoted_byte(&mut self, b: u8) {
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
    pub(super) fn plain_run(&mut self, run: &[u8]) {
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

    pub(super) fn quoted_byte(&mut self, b: u8) {
        self.plus_so_far = false;
        self.quoted_glob_char |= is_glob_char(b);
        self.quoted = true;
        self.name_so_far = false;
        self.last_unquoted_star = false;
        self.last_unquoted_dot = false;
        self.bytes.push(b);
    }

    pub(super) fn literal_quoted(&mut self, s: &[u8]) {
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

    pub(super) fn literal(&mut self, s: &[u8]) {
        self.literal_quoted(s);
    }

    pub(super) fn finish(self) -> Word {
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
