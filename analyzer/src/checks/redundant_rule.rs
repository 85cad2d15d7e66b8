//! ## What it does
//! Reports an entry that another entry of the same list already covers:
//! a duplicate (also one written differently, like `Terminal('ls')` and
//! `Terminal(ls)`), or a narrower pattern under a broader one
//! (`Terminal(git status)` under `Terminal(git)`, `Terminal(pnpm test:unit)`
//! under `Terminal(pnpm test:*)`). The coverage is exact, as in
//! `shadowed-by-deny`. Of two duplicates the later is reported. A deny
//! entry that repeats a built-in deny (`Terminal(rm -rf /)`) is not: the
//! built-ins are a floor no file lists, and writing it down is harmless.
//!
//! ## Why is this bad?
//! The entry changes nothing: removing it leaves every decision as it is.
//! It makes the file longer to review, and hides how broad the other
//! entry is.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(git)", "Terminal(git status)", "Terminal(ls)", "Terminal(ls)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(git status)", "Terminal(ls)"]}
//! ```

use super::{entries, list_name, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};

/// `redundant-rule`.
pub const CHECK: Check = Check {
    id: CheckId::RedundantRule,
    severity: Severity::Warning,
    file: "redundant_rule.rs",
    source: include_str!("redundant_rule.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(analysis), Some(perms)) = (cx.analysis, cx.permissions) else {
        return;
    };
    for e in entries(cx) {
        let Some(other) = analysis
            .redundant(e)
            .and_then(|j| perms.list(e.list).get(j))
        else {
            continue;
        };
        let list = list_name(e.list);
        let duplicate =
            other.pattern.body == e.pattern.body && other.pattern.action == e.pattern.action;
        let d = if duplicate {
            Diagnostic::new(
                CHECK.id,
                CHECK.severity,
                cx.name,
                e.span,
                format!(
                    "`{}` repeats `{}` in {list}",
                    e.pattern.text, other.pattern.text
                ),
            )
            .with_help("remove this copy")
            .with_related(cx.name, other.span, "first written here")
        } else {
            Diagnostic::new(
                CHECK.id,
                CHECK.severity,
                cx.name,
                e.span,
                format!(
                    "`{}` is redundant: `{}` in {list} already matches everything it matches",
                    e.pattern.text, other.pattern.text
                ),
            )
            .with_help(format!(
                "remove it, or narrow `{}` if it is broader than meant",
                other.pattern.text
            ))
            .with_related(cx.name, other.span, "this broader entry covers it")
        };
        out.push(d);
    }
}
