//! Answering requests (SPEC §10.1 → §10.2): reading a request, deciding
//! it, writing the answer line. `permc decide`, `permc serve` and both
//! bindings answer through these functions.

use permc_core::request::{Request, RequestError};
use permc_core::{reference, Decision, Rules};
use serde_json::{json, Value};

/// Something that decides requests.
pub trait Decider {
    /// Decides one request.
    fn decide(&self, req: &Request) -> Decision;
}

/// The reference interpreter over loaded rules.
pub struct ReferenceDecider(pub Rules);

/// The compiled engine over a compiled policy (SPEC §9); the default.
pub struct CompiledDecider(pub permc_compiler::CompiledPolicy);

impl Decider for CompiledDecider {
    fn decide(&self, req: &Request) -> Decision {
        permc_compiler::compiled::decide(&self.0, req)
    }
}

impl Decider for ReferenceDecider {
    fn decide(&self, req: &Request) -> Decision {
        reference::decide(&self.0, req)
    }
}

/// The answer to a request that cannot be read: `{"error": {"code",
/// "message"}}`, then `id` when the request had one.
pub fn error_json(e: &RequestError, id: Option<&Value>) -> Value {
    let mut v = json!({"error": {"code": e.code, "message": e.message}});
    if let Some(id) = id {
        v["id"] = id.clone();
    }
    v
}

/// Reads one request: the `id` it carries, when it is JSON and has one,
/// and the request, or why it cannot be read.
pub fn read_request(line: &[u8]) -> (Option<Value>, Result<Request<'_>, RequestError>) {
    match std::str::from_utf8(line) {
        Ok(text) => Request::from_json_with_id(text),
        Err(_) => (None, Err(not_utf8())),
    }
}

/// Why bytes that are not UTF-8 cannot be a request.
pub fn not_utf8() -> RequestError {
    RequestError {
        code: "invalid_json",
        message: "the request is not valid UTF-8".into(),
    }
}

/// A decision with the request's `id`: the decision's fields (SPEC §10.2,
/// [`Decision::serialize_fields`]), then `id` when the request had one.
pub struct WithId<'a> {
    /// The decision.
    pub decision: &'a Decision,
    /// The request's `id`.
    pub id: Option<&'a Value>,
}

impl serde::Serialize for WithId<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        self.decision.serialize_fields(&mut m)?;
        if let Some(id) = self.id {
            m.serialize_entry("id", id)?;
        }
        m.end()
    }
}

/// Answers one request line, appending the answer and a newline to `out`:
/// a decision or an error object, never both; the request's `id`, if it
/// has one, echoed. The decision is written straight from [`Decision`],
/// without building it as a JSON value first (`permc serve` pays this per
/// request). Whether the request could be read.
pub fn write_answer_line(decider: &dyn Decider, line: &[u8], out: &mut Vec<u8>) -> bool {
    let (id, req) = read_request(line);
    let raw = id
        .as_ref()
        .filter(|v| has_float(v))
        .and_then(|_| raw_id(line));
    let id = match (raw, id.as_ref()) {
        (Some(raw), _) => Some(Id::Raw(raw)),
        (None, id) => id.map(Id::Value),
    };
    let read = req.is_ok();
    // Writing into a `Vec` cannot fail: every key is a string and a `Vec`
    // takes every byte.
    match req {
        Ok(req) => write_decision(&decider.decide(&req), id, out),
        Err(e) => {
            let _ = serde_json::to_writer(&mut *out, &ErrorWithId { error: &e, id });
        }
    }
    out.push(b'\n');
    read
}

/// The `id` as echoed: its value, or, when the value would not write back
/// as it was given, its JSON text (SPEC §10.1: the id is echoed).
#[derive(Clone, Copy)]
enum Id<'a> {
    Value(&'a Value),
    Raw(&'a serde_json::value::RawValue),
}

impl serde::Serialize for Id<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Id::Value(v) => v.serialize(s),
            Id::Raw(r) => r.serialize(s),
        }
    }
}

/// Does `v` hold a number that is not an integer? Such a number is read
/// as an `f64`, which writes back otherwise than it was given (`1E2` as
/// `100.0`, `-0` as `-0.0`, a 30-digit integer rounded); integers and
/// strings write back as they came, so the common id costs no second read.
fn has_float(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_f64(),
        Value::Array(a) => a.iter().any(has_float),
        Value::Object(o) => o.values().any(has_float),
        _ => false,
    }
}

/// The JSON text of the request's `id`, compacted (a JSON Lines answer is
/// one line): read again with only `id` kept, its text borrowed.
fn raw_id(line: &[u8]) -> Option<&serde_json::value::RawValue> {
    #[derive(serde::Deserialize)]
    struct IdOnly<'a> {
        #[serde(borrow)]
        id: Option<&'a serde_json::value::RawValue>,
    }
    let raw = serde_json::from_slice::<IdOnly<'_>>(line).ok()?.id?;
    // Whitespace inside the text is kept by RawValue; none may hold a
    // newline (the line has none), so the answer stays one line.
    Some(raw)
}

/// An error answer: `{"error": {"code", "message"}, "id"}`, as
/// [`error_json`] builds it, with the id as [`Id`] writes it.
struct ErrorWithId<'a> {
    error: &'a RequestError,
    id: Option<Id<'a>>,
}

impl serde::Serialize for ErrorWithId<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry(
            "error",
            &json!({"code": self.error.code, "message": self.error.message}),
        )?;
        if let Some(id) = &self.id {
            m.serialize_entry("id", id)?;
        }
        m.end()
    }
}

/// Writes a decision (and `id`) as `serde_json::to_writer` writes
/// [`WithId`], byte for byte (a test holds them equal), without its
/// machinery: the keys are fixed, and a string with nothing to escape is
/// copied as it is.
fn write_decision(d: &Decision, id: Option<Id<'_>>, out: &mut Vec<u8>) {
    fn string(s: &str, out: &mut Vec<u8>) {
        if permc_core::request::json_plain_len(s.as_bytes()) < s.len() {
            // Writing a `str` into a `Vec` cannot fail.
            let _ = serde_json::to_writer(&mut *out, s);
        } else {
            out.push(b'"');
            out.extend_from_slice(s.as_bytes());
            out.push(b'"');
        }
    }
    out.extend_from_slice(b"{\"policy\":");
    string(d.policy.name(), out);
    out.extend_from_slice(b",\"reason\":");
    string(d.reason.name(), out);
    if let Some(r) = &d.rule {
        out.extend_from_slice(b",\"rule\":");
        string(&r.rule, out);
        out.extend_from_slice(b",\"source\":");
        string(&r.source, out);
    }
    if let Some(o) = d.autonomy_origin {
        out.extend_from_slice(b",\"autonomyOrigin\":");
        string(o.name(), out);
    }
    if let Some(root) = &d.scope_root {
        out.extend_from_slice(b",\"scopeRoot\":");
        string(root, out);
    }
    out.extend_from_slice(b",\"message\":");
    string(&d.message, out);
    if let Some(id) = id {
        out.extend_from_slice(b",\"id\":");
        let _ = serde_json::to_writer(&mut *out, &id);
    }
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use permc_core::decision::{Origin, Reason, RuleRef};
    use permc_grammar::Policy as P;

    /// The direct writer writes what serde_json writes of [`WithId`].
    #[test]
    fn the_decision_writer_is_serde_byte_for_byte() {
        let texts = [
            "plain",
            "",
            "quote \" and backslash \\ and / slash",
            "control \u{1} \n \t \r \u{7f} \u{1f}",
            "ünïcødé ✓ \u{2028}",
        ];
        let ids = [
            None,
            Some(json!(7)),
            Some(json!("x\"y")),
            Some(json!({"a": [1, 2.5, null]})),
        ];
        for (k, t) in texts.iter().enumerate() {
            for id in &ids {
                let d = Decision {
                    policy: [P::AutoApprove, P::RequireApproval, P::Deny][k % 3],
                    reason: Reason::FileAllow,
                    rule: (k % 2 == 0).then(|| RuleRef {
                        rule: format!("Terminal({t})"),
                        source: t.to_string(),
                    }),
                    autonomy_origin: [None, Some(Origin::Specific), Some(Origin::Wildcard)][k % 3],
                    scope_root: (k != 1).then(|| format!("container:{t}")),
                    message: t.to_string(),
                };
                let mut ours = Vec::new();
                write_decision(&d, id.as_ref().map(Id::Value), &mut ours);
                let theirs = serde_json::to_vec(&WithId {
                    decision: &d,
                    id: id.as_ref(),
                })
                .expect("serializes");
                assert_eq!(
                    String::from_utf8_lossy(&ours),
                    String::from_utf8_lossy(&theirs)
                );
            }
        }
    }

    /// Issue 33, 8: the id is echoed as it was given, on decision and
    /// error lines alike: `1E2`, `-0`, 30-digit integers, nested too.
    #[test]
    fn the_id_is_echoed_as_its_json_text() {
        struct Approve;
        impl Decider for Approve {
            fn decide(&self, _: &Request) -> Decision {
                Decision {
                    policy: P::AutoApprove,
                    reason: Reason::FileAllow,
                    rule: None,
                    autonomy_origin: None,
                    scope_root: None,
                    message: String::new(),
                }
            }
        }
        for id in [
            "1E2",
            "-0",
            "123456789012345678901234567890",
            "1.5e-7",
            r#"{"a":[1E2,-0.0]}"#,
            "7",
            r#""x""#,
        ] {
            for rest in [
                r#""action":{"type":"git_push"},"context":{"role":"owner"}"#,
                r#""action":{"type":"nope"},"context":{"role":"owner"}"#,
            ] {
                let line = format!(r#"{{"id":{id},{rest}}}"#);
                let mut out = Vec::new();
                write_answer_line(&Approve, line.as_bytes(), &mut out);
                let text = String::from_utf8(out).expect("utf-8");
                assert!(text.ends_with(&format!(",\"id\":{id}}}\n")), "{text}");
            }
        }
    }
}
