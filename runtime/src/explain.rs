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

/// The decision of `decider` with every step of SPEC §5.3 that ran (from
/// the reference interpreter over `rules`), for people.
pub fn explain(rules: &Rules, decider: &dyn Decider, req: &Request) -> String {
    let mut out = String::new();
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
        let facts = permc_core::facts::LineFacts::of(cmd);
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
    let (reference_decision, steps) = reference::explain(rules, req);
    out.push_str("steps:\n");
    for s in &steps {
        out.push_str(&format!("  {:<20} {}\n", s.step, s.outcome));
    }
    let d = decider.decide(req);
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
