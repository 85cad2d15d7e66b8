//! ## What it does
//! Reports a top-level key of permissions.json other than `allow`, `deny`
//! and `ask`, with the closest real one. A warning; an **error** (the file
//! is rejected whole: `decide`, `serve`, `compile` and the bindings refuse
//! to load it) when the key is within two edits of `allow`, `deny` or
//! `ask` in any case (`"alow"`, `"deney"`, `"Deny"`), or when its value is
//! a list holding a pattern string (`"rules": ["Terminal(make)"]`).
//! `$schema` is read by editors and never reported. An error cannot be
//! ignored or lowered in permc.toml.
//!
//! ## Why is this bad?
//! Unknown keys are ignored (SPEC §2.1): the patterns under `"alow"` would
//! grant nothing and the patterns under `"deney"` would deny nothing,
//! silently — `permc decide` would approve what was meant to be denied.
//!
//! ## Example
//! ```json
//! {"alow": ["Terminal(pnpm test)"], "deney": ["Terminal(curl)"]}
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
