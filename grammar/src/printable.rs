//! Text from a rule file or a request, made safe to print for people: a
//! control character (other than tab and newline) or a bidirectional
//! override is written as its escape (`\u{1b}`), so a pattern holding ESC
//! sequences cannot rewrite what a reviewer's terminal shows (issue 33).
//! Machine formats (JSON, SARIF) escape by their own rules and do not use
//! this.

use std::borrow::Cow;

/// Is `c` printed as its escape?
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every [`is_hidden`] character written as `\u{…}`; borrowed
/// when there is none (the common case costs one scan).
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_hidden) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(Escaped::new(s).text)
}

/// A text escaped as [`escape`] does, with the way back from an offset
/// in the original to the same place in the escaped text (for a snippet
/// whose spans point into the original).
pub struct Escaped {
    /// The escaped text.
    pub text: String,
    /// `(offset in the original just past an escaped character, bytes
    /// added so far)`, in order.
    shifts: Vec<(usize, usize)>,
}

impl Escaped {
    /// Escapes `s`.
    pub fn new(s: &str) -> Escaped {
        let mut text = String::with_capacity(s.len());
        let mut shifts = Vec::new();
        let mut added = 0;
        for (i, c) in s.char_indices() {
            if is_hidden(c) {
                let e = format!("\\u{{{:x}}}", u32::from(c));
                added += e.len() - c.len_utf8();
                text.push_str(&e);
                shifts.push((i + c.len_utf8(), added));
            } else {
                text.push(c);
            }
        }
        Escaped { text, shifts }
    }

    /// The offset in the escaped text of offset `at` of the original.
    pub fn offset(&self, at: usize) -> usize {
        let k = self.shifts.partition_point(|&(end, _)| end <= at);
        at + k.checked_sub(1).map_or(0, |k| self.shifts[k].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_offsets_follow() {
        assert!(matches!(escape("plain\ttext\n"), Cow::Borrowed(_)));
        assert_eq!(escape("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(
            escape("\r\u{7f}\u{9b}\u{202e}"),
            "\\u{d}\\u{7f}\\u{9b}\\u{202e}"
        );
        let e = Escaped::new("a\u{1b}bc\u{7}d");
        assert_eq!(e.text, "a\\u{1b}bc\\u{7}d");
        assert_eq!(e.offset(0), 0);
        assert_eq!(&e.text[e.offset(2)..e.offset(4)], "bc");
        assert_eq!(&e.text[e.offset(5)..], "d");
    }
}
