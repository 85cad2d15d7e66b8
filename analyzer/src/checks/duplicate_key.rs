//! ## What it does
//! Reports a JSON key given twice in one object: a list of permissions.json
//! (`"allow"` twice), an agent of autonomy.json, or an action type under
//! one agent. It points at the copy that is ignored and at the one that
//! wins (the last).
//!
//! ## Why is this bad?
//! JSON readers keep only the last value of a repeated key: every pattern
//! of the first `"deny"` list is silently dropped, and a person reading the
//! file sees rules that do not apply.
//!
//! ## Example
//! ```json
//! {"deny": ["Terminal(curl)"], "allow": ["Terminal(ls)"], "deny": ["Terminal(wget)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"deny": ["Terminal(curl)", "Terminal(wget)"], "allow": ["Terminal(ls)"]}
//! ```

use super::{forward, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};

/// `duplicate-key`.
pub const CHECK: Check = Check {
    id: CheckId::DuplicateKey,
    severity: Severity::Warning,
    file: "duplicate_key.rs",
    source: include_str!("duplicate_key.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    forward(cx, CHECK.id, out);
}
