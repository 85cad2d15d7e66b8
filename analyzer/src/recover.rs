//! Reporting every error of a file that is not JSON, not only the first.
//!
//! The JSON reader stops at the first syntax error. For the usual slips —
//! a trailing comma, a missing comma between two values on separate lines
//! or words, a `//` or `/* */` comment — the analyzer repairs the text
//! *without moving any byte* (the comma becomes a blank, a blank becomes
//! the missing comma, a comment becomes blanks), reads it again, and goes
//! on: every syntax error is reported where it is, and once the text reads,
//! so are the shape and pattern errors behind it. The repaired text is only
//! ever used to find more errors: a file with a syntax error stays
//! rejected (SPEC §2.1), and no check runs on the repaired text's rules.
//! When the repairs do not end in text that reads, only the first error is
//! reported (the later ones may be echoes of it).

use permc_grammar::json::{self, SyntaxError};

/// At most this many repairs per file.
const MAX_REPAIRS: usize = 64;

/// What [`repair`] found: every syntax error, in order, and the repaired
/// text when it reads as JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    /// Every syntax error met, the first one first.
    pub errors: Vec<SyntaxError>,
    /// The text with the slips repaired, same length, when it now parses.
    pub text: Option<String>,
}

/// Repairs `text` as far as it can (see the module docs).
///
/// ```
/// let r = permc_analyzer::recover::repair("{\"allow\": [\"A\",],\n \"deny\": [\"B\"]\n \"ask\": []}");
/// assert_eq!(r.errors.len(), 2);
/// assert!(r.text.is_some());
/// ```
pub fn repair(text: &str) -> Repaired {
    let mut bytes = text.as_bytes().to_vec();
    let mut errors: Vec<SyntaxError> = Vec::new();
    for _ in 0..MAX_REPAIRS {
        // Only ASCII bytes are ever replaced by ASCII bytes, so the text
        // stays UTF-8; were it not, stop repairing.
        let Ok(current) = std::str::from_utf8(&bytes) else {
            break;
        };
        let e = match json::parse(current) {
            Ok(_) => {
                return Repaired {
                    errors,
                    text: Some(current.to_string()),
                }
            }
            Err(e) => e,
        };
        let fixed = fix(&mut bytes, &e);
        errors.push(e);
        if !fixed {
            break;
        }
    }
    Repaired { errors, text: None }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Repairs the slip behind `e` in place; false when it is not one the
/// analyzer knows how to repair.
fn fix(bytes: &mut [u8], e: &SyntaxError) -> bool {
    let at = e.offset;
    // A comment where a value, key or separator was expected.
    if bytes.get(at) == Some(&b'/') {
        match bytes.get(at + 1) {
            Some(b'/') => {
                let mut i = at;
                while i < bytes.len() && bytes[i] != b'\n' {
                    bytes[i] = b' ';
                    i += 1;
                }
                return true;
            }
            Some(b'*') => {
                let mut i = at;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    if !is_ws(bytes[i]) {
                        bytes[i] = b' ';
                    }
                    i += 1;
                }
                if i < bytes.len() {
                    bytes[i] = b' ';
                    if let Some(b) = bytes.get_mut(i + 1) {
                        *b = b' ';
                    }
                }
                return true;
            }
            _ => return false,
        }
    }
    if e.message.starts_with("trailing comma") {
        // The offset is the comma's (else the comma is the last non-blank
        // byte before it).
        if bytes.get(at) == Some(&b',') {
            bytes[at] = b' ';
            return true;
        }
        let mut i = at;
        while i > 0 && is_ws(bytes[i - 1]) {
            i -= 1;
        }
        if i > 0 && bytes[i - 1] == b',' {
            bytes[i - 1] = b' ';
            return true;
        }
        return false;
    }
    if e.message.starts_with("expected `,`") {
        // Two values with only blanks between them: one blank becomes the
        // missing comma.
        let starts_value = bytes.get(at).is_some_and(|b| {
            matches!(
                b,
                b'"' | b'[' | b'{' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
            )
        });
        if starts_value && at > 0 && is_ws(bytes[at - 1]) {
            let mut i = at;
            while i > 0 && is_ws(bytes[i - 1]) {
                i -= 1;
            }
            // Put the comma right after the previous value.
            bytes[i] = b',';
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repairs_keep_every_offset() {
        let src = "{\n  // the lists\n  \"allow\": [\"A\" \"B\",],\n  /* x */ \"deny\": []\n}";
        let r = repair(src);
        assert_eq!(r.errors.len(), 4, "{:?}", r.errors);
        let t = r.text.expect("repaired");
        assert_eq!(t.len(), src.len());
        assert!(json::parse(&t).is_ok());
    }

    #[test]
    fn stops_at_what_it_cannot_repair() {
        let r = repair("{\"allow\": [\"A\",], \"deny\": ");
        assert_eq!(r.errors.len(), 2);
        assert!(r.text.is_none());
        let r = repair("");
        assert_eq!(r.errors.len(), 1);
    }
}
