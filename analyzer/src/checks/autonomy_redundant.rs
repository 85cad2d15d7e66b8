//! ## What it does
//! Reports, in autonomy.json, a specific `auto_approve` for an agent that
//! also has a wildcard `"*": "auto_approve"`, and points at the wildcard.
//!
//! Such a rule resolves as the wildcard (SPEC §2.2): the
//! action runs in automatic mode, with origin `wildcard`, exactly as if
//! the specific rule were not there.
//!
//! ## Why is this bad?
//! It reads as if the type had its own, specific rule, but removing it
//! changes no decision. In particular it does not take the type out of
//! automatic mode: an uncovered compound command is still not asked for
//! (SPEC §5 step 6) and the scope ceiling is still lifted (step 7i).
//!
//! ## Example
//! ```json
//! {"dev-api": {"*": "auto_approve", "terminal": "auto_approve"}}
//! ```
//!
//! Use instead:
//! ```json
//! {"dev-api": {"*": "auto_approve"}}
//! ```

use super::Check;
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::json::Span;
use permc_grammar::rules::{AutonomyKey, AutonomyRule};
use permc_grammar::Policy;
use std::collections::HashMap;

/// `autonomy-redundant`.
pub const CHECK: Check = Check {
    id: CheckId::AutonomyRedundant,
    severity: Severity::Info,
    file: "autonomy_redundant.rs",
    source: include_str!("autonomy_redundant.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(auto) = cx.autonomy else {
        return;
    };
    let wildcards: HashMap<&str, &AutonomyRule> = auto
        .rules
        .iter()
        .filter(|r| r.key == AutonomyKey::Wildcard && r.mode == Policy::AutoApprove)
        .map(|r| (r.agent.as_str(), r))
        .collect();
    for r in &auto.rules {
        let AutonomyKey::Type(t) = r.key else {
            continue;
        };
        if r.mode != Policy::AutoApprove {
            continue;
        }
        let Some(w) = wildcards.get(r.agent.as_str()) else {
            continue;
        };
        out.push(
            Diagnostic::new(
                CHECK.id,
                CHECK.severity,
                cx.name,
                Span {
                    start: r.key_span.start,
                    end: r.span.end,
                },
                format!(
                    "`{}: auto_approve` for agent `{}` resolves as its wildcard `*: auto_approve` (automatic mode, origin wildcard)",
                    t.name(),
                    r.agent
                ),
            )
            .with_help("remove it: it changes no decision (SPEC §2.2)")
            .with_related(
                cx.name,
                Span {
                    start: w.key_span.start,
                    end: w.span.end,
                },
                "the wildcard it resolves as",
            ),
        );
    }
}
