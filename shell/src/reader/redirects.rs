//! Redirections and here-documents: operators, targets, file-descriptor
//! prefixes, bodies read at the next newline (SPEC §4.1, §4.2).

use super::*;

impl<'a> Parser<'a> {
    /// Redirections after `)` or `}`: attached to every segment inside, so
    /// their targets are still checked (SPEC §6.2).
    pub(super) fn trailing_redirects(&mut self, first: usize) {
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
            let here = self.here_of(&op, first);
            for seg in self.out.iter_mut().skip(first) {
                seg.redirects.push(Redirect {
                    op: op.clone(),
                    target: target.clone(),
                    known,
                    here: here.clone(),
                });
            }
        }
        self.skip_blanks();
        match self.peek() {
            // A `#` after `)` or `}` begins a comment.
            None | Some(b'\n' | b';' | b'&' | b'|' | b')' | b'#') => {}
            Some(b'}') if self.at_brace_close() => {}
            // `fi fi`, `done done`: a reserved word may follow.
            Some(_) if self.at_stop_word() => {}
            Some(_) => {
                // `(a) b` is a syntax error in bash.
                self.mark(Unparsed::SyntaxError);
            }
        }
    }

    /// An fd prefix of a redirection at the current position: digits or
    /// `{NAME}` directly followed by `<` or `>`, with its length in
    /// characters (backslash-newlines skipped).
    pub(super) fn fd_prefix(&self) -> Option<(String, usize)> {
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

    /// A here-document operator (`<<`, `<<-`, with any fd before it): its
    /// body is read at the next newline (SPEC §4.2 round 4: read, not
    /// unparsed — only a body that never ends, or one whose place permc
    /// cannot settle, makes the line unparsed, see
    /// [`Parser::unread_heredocs`]).
    pub(super) fn note_here_document(&mut self, _op: &str, _at: usize) {}

    /// Here-documents still waiting for their bodies where a list ends
    /// (the line, a substitution, a backtick body): bash reads a body only
    /// after a newline, so this one has none permc can place.
    pub(super) fn unread_heredocs(&mut self) {
        if let Some(doc) = self.heredocs.first() {
            let at = doc.at;
            self.mark_at(Unparsed::HereDocument, at);
        }
    }

    /// The here-document `op` just queued (its target read), its body to
    /// come ([`Parser::read_heredoc_bodies`] fills it in on the segments
    /// from `from` on, where its redirection stands).
    fn here_of(&mut self, op: &str, from: usize) -> Option<Box<HereDoc>> {
        if !op.contains("<<") || op.ends_with("<<<") {
            return None;
        }
        let doc = self.heredocs.last_mut()?;
        doc.from = from;
        let doc = self.heredocs.last()?;
        Some(Box::new(HereDoc {
            at: self.top_offset(doc.at),
            quoted: !doc.expand,
            body: None,
        }))
    }

    /// Reads the target of redirection `op`, read at `at`.
    pub(super) fn redirect_target(&mut self, index: usize, op: String, at: usize) {
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
                let here = self.here_of(&op, index);
                if let Some(seg) = self.out.get_mut(index) {
                    // Bash rejects `>x &>>NAME=v`: after a redirection and
                    // before the command word it lexes the target of `&>>`
                    // as an assignment.
                    let assignment_target = op == "&>>"
                        && seg.words.len() == self.cmd_index
                        && !seg.redirects.is_empty()
                        && looks_like_assignment(&self.src[target_at..self.pos]);
                    seg.redirects.push(Redirect {
                        here,
                        op,
                        target,
                        known,
                    });
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
    pub(super) fn read_target(&mut self, op: &str) -> Option<(String, Known)> {
        match self.peek() {
            // A `#` at the start of a word begins a comment, also here:
            // bash rejects `>#x` as a redirection without target.
            None | Some(b'#') => None,
            Some(b) if is_word_end(b) && !self.at_process_substitution() => None,
            Some(_) => {
                let word_at = self.pos;
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
                        at: word_at,
                        from: self.out.len(),
                        delimiter: w.text.as_bytes().to_vec(),
                        strip_tabs: op.ends_with("<<-"),
                        expand: !w.quoted,
                    });
                }
                Some((w.text, w.known))
            }
        }
    }

    pub(super) fn at_process_substitution(&self) -> bool {
        matches!(self.peek(), Some(b'<' | b'>')) && self.peek_at(1) == Some(b'(')
    }

    /// Reads a redirection operator at the current position, if there is one.
    pub(super) fn read_redirect_op(&mut self, fd: Option<String>) -> Option<String> {
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

    /// Keeps the body of `doc` (`src[start..end]`) on every redirection
    /// its operator gave (a compound command's, each of its segments): its
    /// lines as bash feeds them, tabs stripped for `<<-`, backslash-newline
    /// joined when the delimiter is unquoted.
    fn keep_body(&mut self, doc: &PendingHeredoc, start: usize, end: usize) {
        let at = self.top_offset(doc.at);
        let raw = String::from_utf8_lossy(&self.src[start..end]);
        let joined = if doc.expand {
            raw.replace("\\\n", "")
        } else {
            raw.into_owned()
        };
        let text: String = if doc.strip_tabs {
            joined
                .split_inclusive('\n')
                .map(|l| l.trim_start_matches('\t'))
                .collect()
        } else {
            joined
        };
        // Only the segments its operator reached (a loop's copies come
        // after them): reading stays linear in the line.
        let from = doc.from.min(self.out.len());
        for r in self.out[from..]
            .iter_mut()
            .flat_map(|s| s.redirects.iter_mut())
        {
            if let Some(h) = r.here.as_mut().filter(|h| h.at == at) {
                h.body = Some(text.clone());
            }
        }
    }

    /// Reads the bodies of the pending here-documents, which start right
    /// after the newline just read. An unquoted delimiter's body is
    /// expanded (its substitutions run); a quoted one's is plain text.
    pub(super) fn read_heredoc_bodies(&mut self) {
        let pending = std::mem::take(&mut self.heredocs);
        for doc in pending {
            let body_start = self.pos;
            let mut body_end = self.src.len();
            let mut ended = false;
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
                    ended = true;
                    break;
                }
            }
            if !ended {
                // The line ends inside the body (bash warns and takes it
                // as ended): permc does not guess where it was meant to.
                self.mark_at(Unparsed::HereDocument, doc.at);
            } else {
                self.keep_body(&doc, body_start, body_end);
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
}
