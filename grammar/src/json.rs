//! A small JSON reader that keeps the byte span of every value and key.
//!
//! serde_json drops positions and silently keeps the last of two equal
//! keys; rule files need both (SPEC §2.1: `source` in decisions, duplicate
//! keys as warnings). Nesting is bounded ([`MAX_DEPTH`]) so hostile files
//! cannot overflow the stack.

/// Deeper JSON than this is rejected.
pub const MAX_DEPTH: usize = 128;

/// A byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// A JSON value with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Where it is.
    pub span: Span,
}

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `true`/`false`
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string, unescaped; `raw` says whether it had no escapes (so offsets
    /// inside it map one to one onto the source).
    String {
        /// The text.
        text: String,
        /// True when the text equals the source bytes between the quotes.
        raw: bool,
    },
    /// An array.
    Array(Vec<Node>),
    /// An object, members in source order, duplicates kept.
    Object(Vec<Member>),
}

/// An object member.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key.
    pub key: String,
    /// The key's span (with quotes).
    pub key_span: Span,
    /// The value.
    pub value: Node,
}

impl Value {
    /// A word for the kind of value, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String { .. } => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

/// A syntax error: where the JSON breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset.
    pub offset: usize,
    /// What was expected.
    pub message: String,
}

/// Parses a JSON document.
pub fn parse(src: &str) -> Result<Node, SyntaxError> {
    // A UTF-8 byte-order mark, as some editors write, is skipped (it was
    // "expected a value" at 1:1); offsets stay those of `src`.
    let bom = if src.starts_with('\u{feff}') { 3 } else { 0 };
    let mut p = JsonParser {
        s: src.as_bytes(),
        pos: bom,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.pos < p.s.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok(v)
}

struct JsonParser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl<'a> JsonParser<'a> {
    fn err(&self, message: &str) -> SyntaxError {
        SyntaxError {
            offset: self.pos.min(self.s.len()),
            message: message.to_string(),
        }
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.pos) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        if depth > MAX_DEPTH {
            return Err(self.err("JSON nested too deeply"));
        }
        let start = self.pos;
        let value = match self.s.get(self.pos) {
            None => return Err(self.err("expected a value, found the end of the file")),
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => {
                let (text, raw) = self.string()?;
                Value::String { text, raw }
            }
            Some(b't') => self.keyword("true", Value::Bool(true))?,
            Some(b'f') => self.keyword("false", Value::Bool(false))?,
            Some(b'n') => self.keyword("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => {
                return Err(self.err(
                    "expected a value (a string, array, object, number, true, false or null)",
                ))
            }
        };
        Ok(Node {
            value,
            span: Span {
                start,
                end: self.pos,
            },
        })
    }

    fn keyword(&mut self, word: &str, v: Value) -> Result<Value, SyntaxError> {
        if self.s[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.err("expected a value (a string, array, object, number, true, false or null)"))
        }
    }

    fn number(&mut self) -> Result<Value, SyntaxError> {
        let start = self.pos;
        if self.s.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let digits = |p: &mut Self| {
            let s = p.pos;
            while p.s.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
            p.pos > s
        };
        if !digits(self) {
            return Err(self.err("expected digits"));
        }
        if self.s.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(self.err("expected digits after `.`"));
            }
        }
        if let Some(b'e' | b'E') = self.s.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.s.get(self.pos) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.err("expected digits in the exponent"));
            }
        }
        Ok(Value::Number(
            String::from_utf8_lossy(&self.s[start..self.pos]).into_owned(),
        ))
    }

    fn string(&mut self) -> Result<(String, bool), SyntaxError> {
        let open = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        let mut raw = true;
        loop {
            let Some(&b) = self.s.get(self.pos) else {
                self.pos = open;
                return Err(self.err("unclosed string: add the closing `\"`"));
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok((String::from_utf8_lossy(&out).into_owned(), raw));
                }
                b'\\' => {
                    raw = false;
                    self.pos += 1;
                    let Some(&e) = self.s.get(self.pos) else {
                        return Err(self.err("unfinished escape in a string"));
                    };
                    self.pos += 1;
                    match e {
                        b'"' => out.push(b'"'),
                        b'\\' => out.push(b'\\'),
                        b'/' => out.push(b'/'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let c = self.hex4()?;
                            let ch = if (0xD800..0xDC00).contains(&c) {
                                // A surrogate pair.
                                if self.s.get(self.pos) == Some(&b'\\')
                                    && self.s.get(self.pos + 1) == Some(&b'u')
                                {
                                    self.pos += 2;
                                    let lo = self.hex4()?;
                                    if !(0xDC00..0xE000).contains(&lo) {
                                        return Err(
                                            self.err("invalid surrogate pair in a \\u escape")
                                        );
                                    }
                                    char::from_u32(0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    None
                                }
                            } else {
                                char::from_u32(c)
                            };
                            let ch = ch.ok_or_else(|| self.err("invalid \\u escape"))?;
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.err("invalid escape: use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"));
                        }
                    }
                }
                0..=0x1f => {
                    return Err(
                        self.err("control character in a string: escape it (\\n, \\t, \\u0000…)")
                    );
                }
                _ => {
                    out.push(b);
                    self.pos += 1;
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = self
                .s
                .get(self.pos)
                .and_then(|b| (*b as char).to_digit(16))
                .ok_or_else(|| self.err("expected four hex digits after \\u"))?;
            v = v * 16 + d;
            self.pos += 1;
        }
        Ok(v)
    }

    fn array(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.ws();
        if self.s.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            match self.s.get(self.pos) {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.ws();
                    if self.s.get(self.pos) == Some(&b']') {
                        // At the comma, the byte to remove.
                        return Err(SyntaxError {
                            offset: comma,
                            message: "trailing comma: remove the `,` before `]`".into(),
                        });
                    }
                }
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                None => return Err(self.err("unclosed array: add `]`")),
                _ => return Err(self.err("expected `,` or `]` in the array")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        self.pos += 1;
        let mut members = Vec::new();
        self.ws();
        if self.s.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.ws();
            if self.s.get(self.pos) != Some(&b'"') {
                return Err(match self.s.get(self.pos) {
                    None => self.err("unclosed object: add `}`"),
                    _ => self.err("expected a key in double quotes"),
                });
            }
            let kstart = self.pos;
            let (key, _) = self.string()?;
            let key_span = Span {
                start: kstart,
                end: self.pos,
            };
            self.ws();
            if self.s.get(self.pos) != Some(&b':') {
                return Err(self.err("expected `:` after the key"));
            }
            self.pos += 1;
            self.ws();
            let value = self.value(depth + 1)?;
            members.push(Member {
                key,
                key_span,
                value,
            });
            self.ws();
            match self.s.get(self.pos) {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.ws();
                    if self.s.get(self.pos) == Some(&b'}') {
                        // At the comma, the byte to remove.
                        return Err(SyntaxError {
                            offset: comma,
                            message: "trailing comma: remove the `,` before `}`".into(),
                        });
                    }
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Value::Object(members));
                }
                None => return Err(self.err("unclosed object: add `}`")),
                _ => return Err(self.err("expected `,` or `}` in the object")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert!(parse("\u{feff}{\"allow\": []}").is_ok());
        assert!(parse("\u{feff}").is_err());
        let loaded = crate::rules::load_permissions(
            "permissions.json",
            "\u{feff}{\"allow\": [\"Terminal(ls)\"]}".as_bytes(),
        );
        assert!(loaded.value.is_some(), "{:?}", loaded.diagnostics);
    }

    #[test]
    fn spans_and_duplicates() {
        let n = parse(r#"{"a": ["x", "y\n"], "a": 1}"#).expect("parses");
        let Value::Object(m) = n.value else { panic!() };
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].key_span, Span { start: 1, end: 4 });
        let Value::Array(items) = &m[0].value.value else {
            panic!()
        };
        assert_eq!(items[0].span, Span { start: 7, end: 10 });
        assert!(matches!(&items[1].value, Value::String { raw: false, .. }));
    }

    #[test]
    fn errors() {
        assert!(parse("{").is_err());
        assert!(parse("[1,]").is_err());
        assert!(parse(&"[".repeat(100_000)).is_err());
        assert!(parse("\"\\ud800\"").is_err());
    }
}
