//! ## What it does
//! Reports a pattern that does not parse (SPEC §3.1): text that is not of
//! the form `Label(content)` with nothing before or after, or Terminal
//! content with an unclosed quote or substitution.
//!
//! ## Why is this bad?
//! One pattern that does not parse rejects the whole file (SPEC §2.1):
//! none of its rules apply until it is fixed.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(echo 'hi)", "Terminal pnpm test", "Terminal(ls) "]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(echo 'hi')", "Terminal(pnpm test)", "Terminal(ls)"]}
//! ```

use super::{forward, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};

/// `invalid-pattern`.
pub const CHECK: Check = Check {
    id: CheckId::InvalidPattern,
    severity: Severity::Error,
    file: "invalid_pattern.rs",
    source: include_str!("invalid_pattern.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    forward(cx, CHECK.id, out);
}
