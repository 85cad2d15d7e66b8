//! `permc explain`: the decision with every step, for people.

use crate::answer::{not_utf8, Decider};
use permc_core::request::{Request, RequestError};
use permc_core::{reference, Rules};
use permc_grammar::ActionType;

/// The explanation of a request read from JSON text, or why it cannot be
/// read.
pub fn explain_text(
    rules: &Rules,
    decider: &dyn Decider,
    line: &[u8],
) -> Result<String, RequestError> {
    let req = std::str::from_utf8(line)
        .map_err(|_| not_utf8())
        .and_then(Request::from_json)?;
    Ok(explain(rules, decider, &req))
}

/// [`explain_json`] of a request read from one line of JSON text, with
/// the line's `id` as `permc decide` echoes it, or the line's `{"error":
/// …}` (with its `id`); `false` when the request cannot be read.
pub fn explain_json_line(
    rules: &Rules,
    decider: &dyn Decider,
    line: &[u8],
) -> (serde_json::Value, bool) {
    let (id, req) = crate::answer::read_request(line);
    let (mut v, read) = match req {
        Ok(req) => (explain_json(rules, decider, &req), true),
        Err(e) => (
            serde_json::json!({"error": {"code": e.code, "message": e.message}}),
            false,
        ),
    };
    if let Some(id) = id {
        v["id"] = id;
    }
    (v, read)
}

/// The decision of `decider` with every step of SPEC §5.3 that ran (from
/// the reference interpreter over `rules`), for people.
pub fn explain(rules: &Rules, decider: &dyn Decider, req: &Request) -> String {
    let mut out = String::new();
    let a = &req.action;
    out.push_str(&format!("action:   {}", a.kind));
    if let Some(c) = &a.command {
        out.push_str(&format!(" `{c}`"));
    }
    // Every line quotes as the next ones do: commands and patterns in
    // backticks, words shell-quoted where they need it (issue 43).
    if let Some(agent) = &a.agent {
        out.push_str(&format!(" by {agent}"));
    }
    if let Some(t) = &a.target_branch {
        out.push_str(&format!(" into {t}"));
    }
    if let Some(p) = a.path.as_ref().filter(|_| a.kind == ActionType::WriteFile) {
        out.push_str(&format!(" to {p}"));
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
        let facts = permc_core::facts::LineFacts::of_with(cmd, &rules.project);
        out.push_str("segments:\n");
        for (i, s) in facts.line.segments.iter().enumerate() {
            out.push_str(&format!(
                "  {}. `{}`{}\n",
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
    let (reference_decision, steps) = reference::explain(rules, req);
    out.push_str("steps:\n");
    for s in &steps {
        out.push_str(&format!("  {:<20} {}\n", s.step, s.outcome));
    }
    let d = decider.decide(req);
    out.push_str(&format!("decision: {} ({})\n", d.policy, d.reason));
    if let Some(r) = &d.rule {
        out.push_str(&format!("  rule:   `{}` at {}\n", r.rule, r.source));
    }
    if let Some(o) = d.autonomy_origin {
        out.push_str(&format!("  autonomy origin: {}\n", o.name()));
    }
    if let Some(s) = &d.scope_root {
        out.push_str(&format!("  scope:  {s}\n"));
    }
    out.push_str(&format!("  why:    {}\n", d.message));
    // The engines agree on the whole decision, message included (both word
    // it through `permc_core::phrases`).
    if d != reference_decision {
        out.push_str("  warning: the compiled engine and the reference interpreter disagree; please report this\n");
    }
    // A command or agent may hold control characters: escaped for the
    // terminal that shows this (issue 33).
    match permc_grammar::printable::escape(&out) {
        std::borrow::Cow::Owned(escaped) => escaped,
        std::borrow::Cow::Borrowed(_) => out,
    }
}

/// Words as one command line, each quoted for the shell where it needs
/// it (`git '*'`), as `permc explain` shows a segment.
pub fn shell_join<S: AsRef<str>>(words: &[S]) -> String {
    permc_core::phrases::shell_line(words)
}

/// [`explain`] as data (`permc explain --format json`, the bindings): the
/// action and context as read, the command's segments, every step of SPEC
/// §5.3 that ran with its outcome, the decision (SPEC §10.2, with its
/// rule and source) and whether the engines agree.
pub fn explain_json(rules: &Rules, decider: &dyn Decider, req: &Request) -> serde_json::Value {
    use serde_json::{json, Map, Value};
    let a = &req.action;
    let mut action = Map::new();
    action.insert("type".into(), a.kind.name().into());
    for (k, v) in [
        ("command", &a.command),
        ("cwd", &a.cwd),
        ("agent", &a.agent),
        ("targetBranch", &a.target_branch),
    ] {
        if let Some(v) = v {
            action.insert(k.into(), v.as_ref().into());
        }
    }
    let c = &req.context;
    let mut out = Map::new();
    out.insert("action".into(), Value::Object(action));
    let mut context = json!({
        "role": c.role.name(),
        "executionMode": c.execution_mode.name(),
        "containerRunning": c.container_running,
    });
    if let Some(root) = &c.project_scope_root {
        context["projectScopeRoot"] = root.as_ref().into();
    }
    out.insert("context".into(), context);
    if let Some(cmd) = &a.command {
        let facts = permc_core::facts::LineFacts::of_with(cmd, &rules.project);
        let segments: Vec<Value> = facts
            .line
            .segments
            .iter()
            .map(|s| json!({"words": s.words, "nested": s.nested}))
            .collect();
        let unparsed: Vec<&str> = facts.line.unparsed.iter().map(|u| u.describe()).collect();
        out.insert("segments".into(), segments.into());
        out.insert("unparsed".into(), unparsed.into());
    }
    let (reference_decision, steps) = reference::explain(rules, req);
    let steps: Vec<Value> = steps
        .iter()
        .map(|s| json!({"step": s.step, "outcome": s.outcome}))
        .collect();
    out.insert("steps".into(), steps.into());
    let d = decider.decide(req);
    out.insert("decision".into(), json!(d));
    out.insert("enginesAgree".into(), (d == reference_decision).into());
    Value::Object(out)
}
