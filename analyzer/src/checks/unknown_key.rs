//! ## What it does
//! Reports a top-level key of permissions.json other than `allow`, `deny`
//! and `ask`, with the closest real one.
//!
//! ## Why is this bad?
//! Unknown keys are ignored (SPEC §2.1): the patterns under `"alow"` grant
//! nothing and the patterns under `"denny"` deny nothing, silently.
//!
//! ## Example
//! ```json
//! {"alow": ["Terminal(pnpm test)"], "denny": ["Terminal(curl)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(pnpm test)"], "deny": ["Terminal(curl)"]}
//! ```

use super::{forward, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};

/// `unknown-key`.
pub const CHECK: Check = Check {
    id: CheckId::UnknownKey,
    severity: Severity::Warning,
    file: "unknown_key.rs",
    source: include_str!("unknown_key.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    forward(cx, CHECK.id, out);
}
