//! Expansions inside words: `$…`, `${…}` with its operators, `$(( ))`
//! read as arithmetic or as a subshell, whose nested commands are
//! segments (SPEC §4.1).

use super::*;

impl<'a> Parser<'a> {
    /// `$((`, at the `$`: arithmetic when its text, `(…)` to the closing
    /// `)`, is `(X)` with `X` balanced (bash's `chk_arithsub`); otherwise a
    /// command substitution that begins with a subshell (`$((a) | b)`). In
    /// both cases bash has taken the text to the closing `)` first.
    pub(super) fn read_dollar_paren_paren(&mut self, w: &mut WordBuilder, in_double: bool) {
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
                // reliably. Unparsed as arithmetic holding a substitution,
                // not a syntax error: bash accepts it (SPEC §4.2 round 4).
                self.mark_at(Unparsed::ArithmeticVariable, start);
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
    pub(super) fn read_arith_body(&mut self, from: usize, to: usize, backtick_dq: bool) -> bool {
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
    pub(super) fn check_quoted_substitutions(&mut self, from: usize, close: usize) {
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
    pub(super) fn read_dollar(&mut self, w: &mut WordBuilder, in_double: bool) {
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
                        self.mark_at(Unparsed::ArithmeticVariable, start);
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
    pub(super) fn read_dolbrace(&mut self, w: &mut WordBuilder, in_double: bool) {
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
    pub(super) fn scan_dolbrace(&mut self, dq: bool, start: usize) -> bool {
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
    pub(super) fn scan_dolbrace_part(&mut self, part: BracePart, dq: bool) -> PartEnd {
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
}
