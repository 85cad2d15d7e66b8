//! ## What it does
//! Reports a rule file that is not valid JSON, at the place where it
//! breaks: a missing comma or quote, a trailing comma, a comment, bytes
//! that are not UTF-8.
//!
//! ## Why is this bad?
//! A file that is not JSON is rejected whole (SPEC §2.1): permc refuses to
//! compile or evaluate it, and never evaluates a partial policy. Until it
//! is fixed, none of its rules apply.
//!
//! ## Example
//! ```json
//! {
//!   "allow": ["Terminal(pnpm test)",],
//! }
//! ```
//!
//! Use instead:
//! ```json
//! {
//!   "allow": ["Terminal(pnpm test)"]
//! }
//! ```

use super::{forward, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};

/// `invalid-json`.
pub const CHECK: Check = Check {
    id: CheckId::InvalidJson,
    severity: Severity::Error,
    file: "invalid_json.rs",
    source: include_str!("invalid_json.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    forward(cx, CHECK.id, out);
}
