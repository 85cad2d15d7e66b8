//! `permc decide` and `permc explain`.

use crate::load::Fatal;
use permc_runtime::request::{Request, RequestError};
use permc_runtime::{reference, Decision, Rules};
use serde_json::{json, Value};
use std::io::{BufRead, Write};

/// Which engine decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// The compiled form (token-prefix trie); the default.
    Compiled,
    /// The reference interpreter: the spec read literally.
    Reference,
}

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
        permc_runtime::compiled::decide(&self.0, req)
    }
}

impl Decider for ReferenceDecider {
    fn decide(&self, req: &Request) -> Decision {
        reference::decide(&self.0, req)
    }
}

fn error_json(e: &RequestError, id: Option<&Value>) -> Value {
    let mut v = json!({"error": {"code": e.code, "message": e.message}});
    if let Some(id) = id {
        v["id"] = id.clone();
    }
    v
}

/// Reads one request: the `id` it carries, when it is JSON and has one,
/// and the request, or why it cannot be read.
fn read_request(line: &[u8]) -> (Option<Value>, Result<Request, RequestError>) {
    match std::str::from_utf8(line) {
        Ok(text) => Request::from_json_with_id(text),
        Err(_) => (None, Err(not_utf8())),
    }
}

fn not_utf8() -> RequestError {
    RequestError {
        code: "invalid_json",
        message: "the request is not valid UTF-8".into(),
    }
}

/// A decision with the request's `id`: the decision's fields (SPEC §10.2,
/// [`Decision::serialize_fields`]), then `id` when the request had one.
struct WithId<'a> {
    decision: &'a Decision,
    id: Option<&'a Value>,
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
    let _ = match req {
        Ok(req) => serde_json::to_writer(
            &mut *out,
            &WithId {
                decision: &decider.decide(&req),
                id,
            },
        ),
        Err(e) => serde_json::to_writer(&mut *out, &error_json(&e, id)),
    };
    out.push(b'\n');
    read
}

/// Decides every line of `input` (JSON Lines), writing one answer a line.
pub fn stream(
    decider: &dyn Decider,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    flush_each: bool,
) -> Result<(), Fatal> {
    let mut buf = Vec::new();
    let mut answer = Vec::new();
    loop {
        buf.clear();
        let n = input
            .read_until(b'\n', &mut buf)
            .map_err(|e| Fatal(format!("error: reading requests: {e}")))?;
        if n == 0 {
            break;
        }
        let line = buf.trim_ascii();
        if line.is_empty() {
            continue;
        }
        answer.clear();
        write_answer_line(decider, line, &mut answer);
        let mut r = out.write_all(&answer);
        if flush_each {
            r = r.and_then(|()| out.flush());
        }
        if crate::out::sent(r)? == crate::out::Sent::Closed {
            return Ok(());
        }
    }
    crate::out::sent(out.flush()).map(|_| ())
}

/// `permc explain`: the decision with every step, for people; or the
/// line saying why the request cannot be read.
pub fn explain_text(rules: &Rules, decider: &dyn Decider, line: &[u8]) -> Result<String, String> {
    let mut out = String::new();
    let parsed = std::str::from_utf8(line)
        .map_err(|_| not_utf8())
        .and_then(Request::from_json);
    let req = match parsed {
        Ok(r) => r,
        Err(e) => {
            return Err(format!(
                "error: the request cannot be read ({}): {}\n",
                e.code, e.message
            ));
        }
    };
    let a = &req.action;
    out.push_str(&format!("action:   {}", a.kind));
    if let Some(c) = &a.command {
        out.push_str(&format!(" `{c}`"));
    }
    if let Some(agent) = &a.agent {
        out.push_str(&format!(" by {agent}"));
    }
    if let Some(t) = &a.target_branch {
        out.push_str(&format!(" into {t}"));
    }
    out.push('\n');
    let c = &req.context;
    out.push_str(&format!(
        "context:  role {}, {} mode, container {}\n",
        c.role,
        c.execution_mode.name(),
        if c.container_running {
            "running"
        } else {
            "not running"
        }
    ));
    if let Some(cmd) = &a.command {
        let facts = permc_runtime::facts::LineFacts::of(cmd);
        out.push_str("segments:\n");
        for (i, s) in facts.line.segments.iter().enumerate() {
            out.push_str(&format!(
                "  {}. {}{}\n",
                i + 1,
                shell_join(&s.words),
                if s.nested { "  (nested)" } else { "" }
            ));
        }
        if facts.line.is_unparsed() {
            let why: Vec<_> = facts.line.unparsed.iter().map(|u| u.describe()).collect();
            out.push_str(&format!("  unparsed: {}\n", why.join(", ")));
        }
    }
    let (reference_decision, steps) = reference::explain(rules, &req);
    out.push_str("steps:\n");
    for s in &steps {
        out.push_str(&format!("  {:<20} {}\n", s.step, s.outcome));
    }
    let d = decider.decide(&req);
    out.push_str(&format!("decision: {} ({})\n", d.policy, d.reason));
    if let Some(r) = &d.rule {
        out.push_str(&format!("  rule:   {} at {}\n", r.rule, r.source));
    }
    if let Some(o) = d.autonomy_origin {
        out.push_str(&format!("  autonomy origin: {}\n", o.name()));
    }
    if let Some(s) = &d.scope_root {
        out.push_str(&format!("  scope:  {s}\n"));
    }
    out.push_str(&format!("  why:    {}\n", d.message));
    // The engines must agree on what is compared in tests (policy, reason,
    // deciding rule, autonomy origin, scope root); messages may be worded
    // differently.
    let same = d.policy == reference_decision.policy
        && d.reason == reference_decision.reason
        && d.rule == reference_decision.rule
        && d.autonomy_origin == reference_decision.autonomy_origin
        && d.scope_root == reference_decision.scope_root;
    if !same {
        out.push_str("  warning: the compiled engine and the reference interpreter disagree; please report this\n");
    }
    Ok(out)
}

fn shell_join(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            shlex::try_quote(w)
                .map(|q| q.into_owned())
                .unwrap_or_else(|_| w.clone())
        })
        .collect::<Vec<_>>()
        .join(" ")
}
