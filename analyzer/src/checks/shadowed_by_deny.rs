//! ## What it does
//! Reports an allow or ask entry every match of which is denied: by a deny
//! entry (`Terminal(git)` in deny denies all that `Terminal(git push)`
//! matches) or by a built-in deny (SPEC §5.2: `Terminal(rm -rf /)`,
//! `Terminal(rm -rf /*)`, `Terminal(rm -fr /)`, and any `rm` that is
//! recursive and forced on `/`, also behind wrappers like `sudo`). It
//! points at what denies it.
//!
//! The coverage is exact for token-prefix patterns (SPEC §3.2): a
//! wildcard `ab*` covers `abc` and `abd*`, an exact word never covers a
//! wildcard, a shorter pattern covers a longer one it is a prefix of,
//! `Terminal()` covers every Terminal pattern, `Label()` every entry of its
//! type. Several deny entries together never cover what none covers
//! alone (a wildcard always has matches no other wildcard foresaw), so
//! the one entry that does is named.
//!
//! ## Why is this bad?
//! Deny is checked first and no configuration reverses a deny (SPEC §5):
//! the entry never takes effect. Either it is a leftover, or the deny is
//! broader than meant.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(git push --dry-run)", "Terminal(rm -rf /)"],
//!  "deny": ["Terminal(git push)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(git status)"], "deny": ["Terminal(git push)"]}
//! ```

use super::{coverer_text, entries, list_name, what, with_coverer, Check};
use crate::analysis::Coverer;
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};

/// `shadowed-by-deny`.
pub const CHECK: Check = Check {
    id: CheckId::ShadowedByDeny,
    severity: Severity::Warning,
    file: "shadowed_by_deny.rs",
    source: include_str!("shadowed_by_deny.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(analysis) = cx.analysis else {
        return;
    };
    for e in entries(cx) {
        let Some(c) = analysis.denied(e) else {
            continue;
        };
        let by = coverer_text(cx, c);
        let help = match c {
            Coverer::Builtin(_) => format!(
                "remove it from {}: no file can lift a built-in deny",
                list_name(e.list)
            ),
            Coverer::Entry { .. } => format!(
                "remove it from {}, or narrow `{by}` in deny if some of these should not be denied",
                list_name(e.list)
            ),
        };
        let d = Diagnostic::new(
            CHECK.id,
            CHECK.severity,
            cx.name,
            e.span,
            format!(
                "`{}` in {} never takes effect: every {} it matches is denied by `{by}`",
                e.pattern.text,
                list_name(e.list),
                what(e)
            ),
        )
        .with_help(help);
        out.push(with_coverer(d, cx, c, "denied by"));
    }
}
