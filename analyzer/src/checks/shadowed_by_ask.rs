//! ## What it does
//! Reports an allow entry every match of which an ask entry asks for
//! (`Terminal(npm)` in ask asks for all that `Terminal(npm test)`
//! matches), and points at that ask entry. Entries denied outright are
//! reported by `shadowed-by-deny` instead. The coverage is exact, as in
//! `shadowed-by-deny`.
//!
//! ## Why is this bad?
//! Ask comes before allow, and a written ask always asks — even in
//! automatic mode (SPEC §5 step 6): the entry never auto-approves
//! anything.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(npm test)"], "ask": ["Terminal(npm)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(npm test)"], "ask": ["Terminal(npm publish)", "Terminal(npm install)"]}
//! ```

use super::{coverer_text, entries, what, with_coverer, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};

/// `shadowed-by-ask`.
pub const CHECK: Check = Check {
    id: CheckId::ShadowedByAsk,
    severity: Severity::Warning,
    file: "shadowed_by_ask.rs",
    source: include_str!("shadowed_by_ask.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(analysis) = cx.analysis else {
        return;
    };
    for e in entries(cx) {
        let Some(c) = analysis.asked(e) else {
            continue;
        };
        let by = coverer_text(cx, c);
        let d = Diagnostic::new(
            CHECK.id,
            CHECK.severity,
            cx.name,
            e.span,
            format!(
                "`{}` in allow never auto-approves: every {} it matches is asked for by `{by}`",
                e.pattern.text,
                what(e)
            ),
        )
        .with_help(format!(
            "a written ask always asks: remove it from allow, or narrow `{by}` in ask"
        ));
        out.push(with_coverer(d, cx, c, "asked for by"));
    }
}
