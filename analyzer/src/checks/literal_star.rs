//! ## What it does
//! Reports a `*` that SPEC §3.2 reads literally where a glob or a wildcard
//! was likely meant: a lone `*` (`Terminal(ls *)`), a `*` at the start or
//! in the middle of a word (`*.ts`, `a*b`), a `*` right after `/`
//! (`src/*`). Only a `*` that ends a word after text that does not end in
//! `/` is a prefix wildcard (`Terminal(pnpm test:*)`).
//!
//! A `*` that is quoted or escaped (`'*.ts'`, `\*`) says "literal" and is
//! not reported, and neither is the `/*` of `rm -rf /*`, the built-in
//! deny's own literal word (SPEC §5.2).
//!
//! ## Why is this bad?
//! Patterns are not globs: `Terminal(cat src/*)` matches only a command
//! that has the two characters `src/*` as a word, never `cat src/main.rs`.
//! In allow the entry grants much less than it seems; in deny it denies
//! much less than it seems.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(cat src/*)", "Terminal(tsc *.ts)"], "deny": ["Terminal(rm *)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(cat)", "Terminal(tsc)"], "deny": ["Terminal(rm)"]}
//! ```

use super::{entries, word_spans, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::pattern::PatToken;

/// `literal-star`.
pub const CHECK: Check = Check {
    id: CheckId::LiteralStar,
    severity: Severity::Warning,
    file: "literal_star.rs",
    source: include_str!("literal_star.rs"),
    run,
};

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    for e in entries(cx) {
        if !e.pattern.text.contains('*') {
            continue;
        }
        let (Some(tokens), Some(words)) = (e.pattern.tokens(), word_spans(cx, e)) else {
            continue;
        };
        for (t, (span, w)) in tokens.iter().zip(words) {
            if literal_stars(t, &w).is_empty() {
                continue;
            }
            let word = match t {
                PatToken::Exact(x) => x.clone(),
                PatToken::Prefix(p) => format!("{p}*"),
            };
            let help = if word == "*" {
                "patterns match by token prefix: drop the `*` to match any words from here on (`Terminal()` matches every command); quote it (`'*'`) if the literal text is meant".to_string()
            } else if word.ends_with("/*") {
                format!("a `*` after `/` is literal and there is no path glob: drop `{word}` to match any argument, or write a prefix wildcard that ends after a name (`src/m*`); quote it if the literal text is meant")
            } else {
                format!("only a `*` ending a word is a wildcard (`test:*`): drop `{word}` to match any argument, or quote it (`'{word}'`) if the literal text is meant")
            };
            out.push(
                Diagnostic::new(
                    CHECK.id,
                    CHECK.severity,
                    cx.name,
                    span,
                    format!(
                        "the `*` in `{word}` is literal: `{}` matches only commands with the word `{word}` itself, not what a glob would match",
                        e.pattern.text
                    ),
                )
                .with_help(help),
            );
        }
    }
}

/// The offsets (in the pattern's content) of the `*` of one word that
/// SPEC §3.2 reads literally where a glob or wildcard was likely meant:
/// what this check reports, and what `permc fix` escapes.
pub(crate) fn literal_stars(t: &PatToken, w: &crate::words::RawWord) -> Vec<usize> {
    if t.text() == "/*" {
        return Vec::new();
    }
    // The trailing star of a prefix wildcard is not literal.
    let last = w.end.checked_sub(1);
    w.unquoted_stars
        .iter()
        .copied()
        .filter(|&s| !(matches!(t, PatToken::Prefix(_)) && Some(s) == last))
        .collect()
}
