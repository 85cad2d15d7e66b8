//! ## What it does
//! Reports a `$NAME` (also `${NAME}`, `$1`, `$@`…) or a `~` that a shell
//! would expand, in a pattern: unquoted or in double quotes for `$`,
//! unquoted at the start of a word (or after `NAME=`) for `~`.
//!
//! permc keeps environment variables literally on both sides (SPEC §3.2):
//! neither the pattern nor the command is expanded. A `$` in single
//! quotes or escaped (`'$HOME'`, `\$HOME`) says "literal" and is not
//! reported.
//!
//! ## Why is this bad?
//! `Terminal(cat $HOME/.npmrc)` matches only a command that has the text
//! `$HOME/.npmrc` itself, never `cat /home/ana/.npmrc`; `Terminal(ls ~)`
//! never matches `ls /home/ana`. The entry does much less than it seems.
//! (Such words are also outside the scope, SPEC §6.2.)
//!
//! In deny and ask the surprise goes further (SPEC §4.4): a command that
//! really writes `$HOME` there holds an unknown word, which deny and ask
//! read as *possibly any token*, so `Terminal(rm -rf $HOME)` in deny never
//! denies `rm -rf $HOME` (it is asked for as `unknown.word`, like any
//! possible match) and never sees `rm -rf /home/ana`: it denies only the
//! quoted literal `rm -rf '$HOME'`.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(cat $HOME/.npmrc)", "Terminal(ls ~/src)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(cat .npmrc)", "Terminal(ls src)"]}
//! ```

use super::{entries, word_spans, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::json::Span;
use permc_grammar::rules::List;

/// `literal-variable`.
pub const CHECK: Check = Check {
    id: CheckId::LiteralVariable,
    severity: Severity::Warning,
    file: "literal_variable.rs",
    source: include_str!("literal_variable.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    for e in entries(cx) {
        if !e.pattern.text.contains(['$', '~']) {
            continue;
        }
        let Some(words) = word_spans(cx, e) else {
            continue;
        };
        let content = super::content(e);
        for (span, w) in words {
            // Narrow the span to the expansion when the word maps one to
            // one onto the file.
            let narrow = |start: usize, end: usize| {
                if span.end - span.start == w.end - w.start && span != e.span {
                    Span {
                        start: span.start + (start - w.start),
                        end: span.start + (end - w.start),
                    }
                } else {
                    span
                }
            };
            let mut found: Vec<(usize, usize)> = w.variables.clone();
            if let Some(t) = w.tilde {
                found.push((t, t + 1));
            }
            found.sort_unstable();
            for (start, end) in found {
                let what = content.get(start..end).unwrap_or("$");
                let (message, help) = if e.list != List::Allow {
                    literal_in_deny_or_ask(e.list, &e.pattern.text, what)
                } else if what == "~" {
                    (
                        format!("`~` is not expanded: `{}` matches only commands with a literal `~`, not a home folder", e.pattern.text),
                        "write the path as the commands spell it, relative to the project (`src`), or quote it (`'~'`) if the literal text is meant".to_string(),
                    )
                } else {
                    (
                        format!("`{what}` is not expanded: `{}` matches only commands with the literal text `{what}`, not its value", e.pattern.text),
                        format!("write the value as the commands spell it, or quote it (`'{what}'`) if the literal text is meant"),
                    )
                };
                out.push(
                    Diagnostic::new(
                        CHECK.id,
                        CHECK.severity,
                        cx.name,
                        narrow(start, end),
                        message,
                    )
                    .with_help(help),
                );
            }
        }
    }
}

/// The message and help for a `$NAME` or `~` in a deny or ask entry: what
/// the entry really catches under SPEC §4.4.
fn literal_in_deny_or_ask(list: List, text: &str, what: &str) -> (String, String) {
    let verb = if list == List::Deny {
        "denies"
    } else {
        "asks for"
    };
    let name = list.name();
    if what == "~" {
        (
            format!("`~` is not expanded: in {name}, `{text}` {verb} only commands with a literal `~`, not a home folder spelled out"),
            format!("also {} the path as the commands spell it, or a shorter prefix that covers every path", if list == List::Deny { "deny" } else { "ask for" }),
        )
    } else {
        (
            format!("`{what}` is not expanded: in {name}, `{text}` {verb} only the quoted literal text `{what}`; a command that writes `{what}` there is asked for as a possible match (`unknown.word`), and one that writes its value is not matched"),
            format!("{} the value as the commands spell it, or a shorter prefix that covers every value", if list == List::Deny { "deny" } else { "ask for" }),
        )
    }
}
