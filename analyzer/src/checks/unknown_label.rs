//! ## What it does
//! Reports a pattern whose label is not one of the action table's (SPEC
//! §1), and names the closest real one. Labels are case-sensitive.
//!
//! ## Why is this bad?
//! An unknown label rejects the whole file (SPEC §3.1, §2.1): permc cannot
//! tell which actions `Gitpush()` was meant to match, and never evaluates
//! a partial policy.
//!
//! ## Example
//! ```json
//! {"ask": ["Gitpush()", "terminal(curl)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"ask": ["GitPush()", "Terminal(curl)"]}
//! ```

use super::{forward, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};

/// `unknown-label`.
pub const CHECK: Check = Check {
    id: CheckId::UnknownLabel,
    severity: Severity::Error,
    file: "unknown_label.rs",
    source: include_str!("unknown_label.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    forward(cx, CHECK.id, out);
}
