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
pub fn read_request(line: &[u8]) -> (Option<Value>, Result<Request, RequestError>) {
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
    let id = id.as_ref();
    let read = req.is_ok();
    // Writing into a `Vec` cannot fail: every key is a string and a `Vec`
    // takes every byte.
    match req {
        Ok(req) => write_decision(&decider.decide(&req), id, out),
        Err(e) => {
            let _ = serde_json::to_writer(&mut *out, &error_json(&e, id));
        }
    }
    out.push(b'\n');
    read
}

/// Writes a decision (and `id`) as `serde_json::to_writer` writes
/// [`WithId`], byte for byte (a test holds them equal), without its
/// machinery: the keys are fixed, and a string with nothing to escape is
/// copied as it is.
fn write_decision(d: &Decision, id: Option<&Value>, out: &mut Vec<u8>) {
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
        let _ = serde_json::to_writer(&mut *out, id);
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
                write_decision(&d, id.as_ref(), &mut ours);
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
}
