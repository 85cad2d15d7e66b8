//! What an "always allow" click records (SPEC §7, §10.3), as the JSON
//! `permc always` prints. Writing it stays the CLI's job (`--write`).

use permc_core::always::{self, already_in, Derivation, Recorded, Refusal, REFUSAL_REASON};
use permc_core::request::Request;
use permc_grammar::rules::Permissions;
use permc_grammar::{ActionType, Policy};
use serde_json::{json, Value};

/// `{"outcome": "refused", …}`.
pub fn refused(why: &Refusal) -> Value {
    json!({
        "outcome": "refused",
        "reason": REFUSAL_REASON,
        "message": why.to_string(),
    })
}

/// The sentence of an autonomy outcome.
pub fn autonomy_message(agent: &str, action: ActionType) -> String {
    format!(
        "{agent} is a module agent: it may now run every {} action without asking \
         (autonomy rule `{}: auto_approve`); ceilings still apply",
        action.name(),
        action.name()
    )
}

/// `{"outcome": "autonomy", …}`.
pub fn autonomy(agent: &str, action: ActionType, message: String) -> Value {
    json!({
        "outcome": "autonomy",
        "agent": agent,
        "type": action.name(),
        "mode": Policy::AutoApprove.name(),
        "message": message,
    })
}

/// `{"outcome": "patterns", …}`: `added` are the patterns not yet in allow.
pub fn patterns(recorded: &[Recorded], added: &[String]) -> Value {
    let patterns: Vec<&str> = recorded.iter().map(|r| r.pattern.as_str()).collect();
    let explanations: Vec<Value> = recorded
        .iter()
        .map(|r| {
            let mut s = r.explain();
            if !added.contains(&r.pattern) {
                s.push_str(" (already in allow)");
            }
            Value::from(s)
        })
        .collect();
    json!({
        "outcome": "patterns",
        "patterns": patterns,
        "added": added,
        "explanations": explanations,
    })
}

/// The patterns of `recorded` that `permissions`' allow list does not
/// already hold.
pub fn not_yet_allowed(recorded: &[Recorded], permissions: &Permissions) -> Vec<String> {
    let allow: Vec<_> = permissions.allow.iter().map(|e| &e.pattern).collect();
    recorded
        .iter()
        .map(|r| r.pattern.as_str())
        .filter(|p| !already_in(p, allow.iter().copied()))
        .map(str::to_owned)
        .collect()
}

/// The outcome of always-allowing `req`'s action against `permissions`,
/// without writing anything: what `permc always` (no `--write`) prints.
pub fn outcome(req: &Request, permissions: &Permissions) -> Value {
    outcome_with(req, permissions, &Default::default())
}

/// [`outcome`] with the project's `[[command]]` rows (permc.toml).
pub fn outcome_with(
    req: &Request,
    permissions: &Permissions,
    rows: &permc_core::facts::project::ProjectRows,
) -> Value {
    match always::derive_with(&req.action, rows) {
        Derivation::Refused(why) => refused(&why),
        Derivation::Autonomy { agent, action } => {
            let message = autonomy_message(&agent, action);
            autonomy(&agent, action, message)
        }
        Derivation::Patterns(recorded) => {
            let added = not_yet_allowed(&recorded, permissions);
            patterns(&recorded, &added)
        }
    }
}
