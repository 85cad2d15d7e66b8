//! ## What it does
//! Reports values of the wrong type: a top level that is not an object, a
//! list (`allow`, `deny`, `ask`) that is not an array of strings, and in
//! autonomy.json an agent that does not map to an object, an action type
//! that does not exist (SPEC §1) or a mode other than `auto_approve`,
//! `require_approval` and `deny`. Every one of them is reported at once.
//!
//! ## Why is this bad?
//! Such a file is rejected whole (SPEC §2): permc never guesses what a
//! number in a list or a misspelled mode meant, and never evaluates a
//! partial policy.
//!
//! ## Example
//! ```json
//! {"allow": "Terminal(ls)", "deny": [42]}
//! ```
//! ```json
//! {"dev-api": {"terminl": "auto_approve", "git_push": "yes"}}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(ls)"], "deny": ["Terminal(curl)"]}
//! ```
//! ```json
//! {"dev-api": {"terminal": "auto_approve", "git_push": "require_approval"}}
//! ```

use super::{forward, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};

/// `invalid-shape`.
pub const CHECK: Check = Check {
    id: CheckId::InvalidShape,
    severity: Severity::Error,
    file: "invalid_shape.rs",
    source: include_str!("invalid_shape.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    forward(cx, CHECK.id, out);
}
