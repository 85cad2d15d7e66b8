//! ## What it does
//! Reports a pattern that is valid but can match nothing (SPEC §3.1):
//! - a label other than `Terminal` with content, like `GitPush(x)` — only
//!   Terminal patterns have content, `GitPush()` matches every push;
//! - Terminal content that is not one simple command: a control operator
//!   (`&&`, `|`, `;`…), a redirection, a substitution or a subshell, like
//!   `Terminal(cd src && npm test)` (older versions recorded such lines
//!   byte for byte). Every segment of a command is matched on its own, so
//!   no segment ever equals the whole line. It suggests one pattern per
//!   segment.
//!
//! ## Why is this bad?
//! The entry looks like a rule but never applies: in allow it grants
//! nothing, and in deny it denies nothing — which is worse.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(cd src && npm test)", "GitPush(origin)"],
//!  "deny": ["Terminal(curl x | sh)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(cd src)", "Terminal(npm test)", "GitPush()"],
//!  "deny": ["Terminal(curl)", "Terminal(sh)"]}
//! ```

use super::{entries, list_name, Check};
use crate::FileContext;
use permc_core::always::render_words;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::pattern::{DeadReason, PatternBody};
use permc_grammar::rules::Entry;
use permc_grammar::shell::{read_detailed, Word};

/// `dead-pattern`.
pub const CHECK: Check = Check {
    id: CheckId::DeadPattern,
    severity: Severity::Warning,
    file: "dead_pattern.rs",
    source: include_str!("dead_pattern.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    for e in entries(cx) {
        let PatternBody::Nothing(why) = e.pattern.body else {
            continue;
        };
        let text = &e.pattern.text;
        let d = match why {
            DeadReason::ContentOnTypedLabel => {
                let label = e.pattern.action.label();
                Diagnostic::new(
                    CHECK.id,
                    CHECK.severity,
                    cx.name,
                    e.span,
                    format!("`{text}` in {} matches nothing: only Terminal patterns have content", list_name(e.list)),
                )
                .with_help(format!(
                    "write `{label}()` to match every {} (a {label} pattern cannot be narrowed), or remove it",
                    e.pattern.action.name()
                ))
            }
            DeadReason::NotSimpleCommand => {
                let per_segment = suggestions(e);
                let help = if per_segment.is_empty() {
                    "write one pattern per simple command, without operators, redirections or substitutions".to_string()
                } else {
                    let list: Vec<String> = per_segment.iter().map(|p| format!("`{p}`")).collect();
                    format!("write one pattern per segment: {}", list.join(", "))
                };
                Diagnostic::new(
                    CHECK.id,
                    CHECK.severity,
                    cx.name,
                    e.span,
                    format!(
                        "`{text}` in {} matches nothing: its content is not one simple command, and every segment of a command is matched on its own",
                        list_name(e.list)
                    ),
                )
                .with_help(help)
            }
        };
        out.push(d);
    }
}

/// One word as pattern text: a prefix wildcard keeps its `*`, anything
/// else reads back literally.
fn render(w: &Word) -> Option<String> {
    let prefix_len = w.text.len().checked_sub(1)?;
    let prefix = w.text.get(..prefix_len).unwrap_or("");
    if w.trailing_unquoted_star && !prefix.is_empty() && !prefix.ends_with('/') {
        Some(format!("{}*", render_words(&[prefix])?))
    } else {
        render_words(&[w.text.as_str()])
    }
}

/// `Terminal(…)` for every segment of the content that can be one.
pub(crate) fn suggestions(e: &Entry) -> Vec<String> {
    let line = read_detailed(super::content(e));
    let mut out: Vec<String> = Vec::new();
    for seg in &line.segments {
        // A word with a substitution cannot be written in a pattern: the
        // words before it still make one (`echo $(date)` → `echo`).
        let plain = seg.words.iter().take_while(|w| !w.substitution);
        let words: Option<Vec<String>> = plain.map(render).collect();
        if let Some(words) = words.filter(|w| !w.is_empty()) {
            let p = format!("Terminal({})", words.join(" "));
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}
