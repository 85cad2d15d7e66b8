//! The checks of SPEC §11, one file each, and their registry [`CHECKS`].
//!
//! Each file opens with the check's documentation in fixed sections
//! (`## What it does`, `## Why is this bad?`, `## Example`, `Use instead:`)
//! and defines `CHECK`, naming its source so that [`Check::docs`] reads
//! the documentation back from the file itself (`permc check --explain`
//! prints it; a test fails when a section is missing). Adding a check:
//! write `checks/<snake_name>.rs`, add it to [`CHECKS`], add fixtures under
//! `tests/fixtures/check/<name>/`.

mod autonomy_redundant;
pub(crate) mod broad_always_expansion;
pub(crate) mod dead_pattern;
mod duplicate_key;
mod invalid_json;
mod invalid_pattern;
mod invalid_shape;
pub(crate) mod literal_star;
mod literal_variable;
pub(crate) mod neutralized_by_ceiling;
mod redundant_rule;
mod shadowed_by_ask;
mod shadowed_by_deny;
pub(crate) mod shell_entry;
pub(crate) mod unanchored_mutating_verb;
mod undescribed_program;
mod unknown_key;
mod unknown_label;

use crate::analysis::Coverer;
use crate::words::raw_words;
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::json::Span;
use permc_grammar::rules::{Entry, List};

/// One check of SPEC §11.
#[derive(Debug, Clone, Copy)]
pub struct Check {
    /// Which check it is; its name (`shadowed-by-deny`) is `id.name()`.
    pub id: CheckId,
    /// The severity of its findings.
    pub severity: Severity,
    /// Its source file's name under `analyzer/src/checks/`.
    pub file: &'static str,
    /// The source of that file (for [`Check::docs`]).
    source: &'static str,
    /// Runs it over one file.
    pub run: fn(&FileContext<'_>, &mut Vec<Diagnostic>),
}

/// Every check, in the order of SPEC §11's table.
pub const CHECKS: &[Check] = &[
    invalid_json::CHECK,
    invalid_shape::CHECK,
    invalid_pattern::CHECK,
    unknown_label::CHECK,
    unknown_key::CHECK,
    duplicate_key::CHECK,
    dead_pattern::CHECK,
    shadowed_by_deny::CHECK,
    shadowed_by_ask::CHECK,
    redundant_rule::CHECK,
    unanchored_mutating_verb::CHECK,
    neutralized_by_ceiling::CHECK,
    broad_always_expansion::CHECK,
    shell_entry::CHECK,
    undescribed_program::CHECK,
    literal_star::CHECK,
    literal_variable::CHECK,
    autonomy_redundant::CHECK,
];

impl Check {
    /// Its name, e.g. `shadowed-by-deny`.
    pub fn name(&self) -> &'static str {
        self.id.name()
    }
}

/// The check with this name.
pub fn find(name: &str) -> Option<&'static Check> {
    CHECKS.iter().find(|c| c.name() == name)
}

/// A finding about a file as a whole rather than its rules, reported
/// by the command line (`unreadable-file`) or before any check runs
/// (`not-a-rule-file`), or about permc.toml (`stale-suppression`,
/// `invalid-command`, `duplicate-command`).
/// Documented like the checks.
#[derive(Debug, Clone, Copy)]
pub struct FileFinding {
    /// Its name.
    pub name: &'static str,
    /// The severity of its findings.
    pub severity: Severity,
    /// Its documentation, in the checks' sections.
    pub docs: &'static str,
}

/// The file findings.
pub const FILE_FINDINGS: &[FileFinding] = &[
    FileFinding {
        name: crate::output::UNREADABLE_FILE,
        severity: Severity::Error,
        docs: include_str!("unreadable_file.md"),
    },
    FileFinding {
        name: crate::output::NOT_A_RULE_FILE,
        severity: Severity::Error,
        docs: include_str!("not_a_rule_file.md"),
    },
    // Reported by the command line, which reads permc.toml.
    FileFinding {
        name: "stale-suppression",
        severity: Severity::Warning,
        docs: include_str!("stale_suppression.md"),
    },
    // Reported by whatever reads permc.toml's `[[command]]` rows.
    FileFinding {
        name: "invalid-command",
        severity: Severity::Error,
        docs: include_str!("invalid_command.md"),
    },
    FileFinding {
        name: "duplicate-command",
        severity: Severity::Warning,
        docs: include_str!("duplicate_command.md"),
    },
    // Reported when permc itself fails (`permc serve`'s reload).
    FileFinding {
        name: "internal-error",
        severity: Severity::Error,
        docs: include_str!("internal_error.md"),
    },
    // Reported by `permc serve --policy`.
    FileFinding {
        name: "artifact",
        severity: Severity::Error,
        docs: include_str!("artifact.md"),
    },
];

/// Every name a finding can carry, checks and file findings, with its
/// severity and documentation: what `--explain`, SARIF's rules and
/// `docs/checks/<name>.md` cover.
pub fn all_docs() -> Vec<(&'static str, Severity, String)> {
    CHECKS
        .iter()
        .map(|c| (c.name(), c.severity, c.docs()))
        .chain(
            FILE_FINDINGS
                .iter()
                .map(|f| (f.name, f.severity, f.docs.to_string())),
        )
        .collect()
}

/// A short description: the first sentence of `## What it does`.
pub fn summary_of(docs: &str) -> String {
    let first = description_of(docs);
    // The first paragraph, without the list it may introduce.
    let paragraph = first.split("\n\n").next().unwrap_or("");
    let paragraph = paragraph.split("\n- ").next().unwrap_or("");
    let flat = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = match flat.find(". ") {
        Some(i) => &flat[..i],
        None => flat.trim_end_matches(['.', ':', ' ']),
    };
    format!("{sentence}.")
}

/// The whole `## What it does` section.
pub fn description_of(docs: &str) -> String {
    let body = docs.split("## What it does").nth(1).unwrap_or("");
    body.split("## Why is this bad?")
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

/// `docs/checks/<name>.md`: the page a finding's SARIF `helpUri` points
/// at, generated from the documentation (a test keeps them equal).
pub fn docs_page(name: &str, severity: Severity, docs: &str) -> String {
    format!("# {name} ({})\n\n{}\n", severity.name(), docs.trim_end())
}

impl Check {
    /// The documentation: the leading `//!` lines of the check's file,
    /// without the comment markers.
    pub fn docs(&self) -> String {
        let mut out = String::new();
        for line in self.source.lines() {
            let Some(rest) = line.strip_prefix("//!") else {
                break;
            };
            out.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            out.push('\n');
        }
        out
    }

    /// The whole `## What it does` section.
    pub fn description(&self) -> String {
        description_of(&self.docs())
    }

    /// One sentence: the first of the `## What it does` section.
    pub fn summary(&self) -> String {
        summary_of(&self.docs())
    }
}

/// Forwards the reader's diagnostics of one check (the reader-level
/// checks: the file's reader already found them, all at once).
fn forward(cx: &FileContext<'_>, check: CheckId, out: &mut Vec<Diagnostic>) {
    out.extend(cx.reader.iter().filter(|d| d.check == check).cloned());
}

/// The file a diagnostic names for a built-in rule or a ceiling.
pub const BUILTIN: &str = "<builtin>";

/// `allow`, `ask`, `deny`.
fn list_name(list: List) -> &'static str {
    list.name()
}

/// "command" for Terminal entries, the type name for the others.
fn what(e: &Entry) -> String {
    if e.pattern.action == permc_grammar::ActionType::Terminal {
        "command".into()
    } else {
        e.pattern.action.name().to_string()
    }
}

/// The entry a coverer names, if it is one.
fn coverer_entry<'a>(cx: &FileContext<'a>, c: Coverer) -> Option<&'a Entry> {
    match c {
        Coverer::Entry { list, index } => cx.permissions?.list(list).get(index),
        Coverer::Builtin(_) => None,
    }
}

/// The coverer's pattern text.
fn coverer_text(cx: &FileContext<'_>, c: Coverer) -> String {
    match c {
        Coverer::Builtin(p) => p.to_string(),
        Coverer::Entry { .. } => coverer_entry(cx, c)
            .map(|e| e.pattern.text.clone())
            .unwrap_or_default(),
    }
}

/// Adds the coverer as a related place.
fn with_coverer(d: Diagnostic, cx: &FileContext<'_>, c: Coverer, what: &str) -> Diagnostic {
    match c {
        Coverer::Builtin(p) => d.with_related(
            BUILTIN,
            Span::default(),
            permc_core::phrases::builtin_covers(p),
        ),
        Coverer::Entry { .. } => match coverer_entry(cx, c) {
            Some(e) => d.with_related(
                cx.name,
                e.span,
                format!("{what} `{}` in {}", e.pattern.text, list_name(e.list)),
            ),
            None => d,
        },
    }
}

/// The byte range of the pattern text inside the file, when the JSON
/// string holds it without escapes (offsets then map one to one).
fn text_offset(cx: &FileContext<'_>, e: &Entry) -> Option<usize> {
    let inner = cx.text.get(e.span.start + 1..e.span.end.checked_sub(1)?)?;
    (inner == e.pattern.text).then_some(e.span.start + 1)
}

/// The spans in the file of each word of a Terminal entry's content, as
/// [`raw_words`] reads them; `None` when the string has escapes or the
/// words do not line up with the pattern's tokens.
fn word_spans(cx: &FileContext<'_>, e: &Entry) -> Option<Vec<(Span, crate::words::RawWord)>> {
    let text = &e.pattern.text;
    let open = text.find('(')? + 1;
    let content = text.get(open..text.len().checked_sub(1)?)?;
    let words = raw_words(content);
    let tokens = e.pattern.tokens()?;
    if words.len() != tokens.len() {
        return None;
    }
    let base = text_offset(cx, e).map(|o| o + open);
    Some(
        words
            .into_iter()
            .map(|w| {
                let span = match base {
                    Some(b) => Span {
                        start: b + w.start,
                        end: b + w.end,
                    },
                    None => e.span,
                };
                (span, w)
            })
            .collect(),
    )
}

/// The pattern's content (between the parentheses).
fn content(e: &Entry) -> &str {
    let t = &e.pattern.text;
    let open = t.find('(').map_or(0, |i| i + 1);
    t.get(open..t.len().saturating_sub(1)).unwrap_or("")
}

/// The loaded permissions' entries, every list, in file order.
fn entries<'a>(cx: &FileContext<'a>) -> Vec<&'a Entry> {
    let Some(p) = cx.permissions else {
        return Vec::new();
    };
    let mut all: Vec<&Entry> = p.entries().collect();
    all.sort_by_key(|e| e.span.start);
    all
}

/// Do the pattern tokens match these verb words, pairwise (as far as both
/// go)? A command word written as a path counts by its last component
/// (SPEC §4.3), so `Terminal(/usr/bin/find)` is `find`.
pub(crate) fn tokens_match_verb(a: &[permc_grammar::pattern::PatToken], words: &[&str]) -> bool {
    use permc_grammar::pattern::PatToken;
    a.iter().zip(words).enumerate().all(|(i, (t, w))| match t {
        PatToken::Exact(x) if i == 0 => permc_core::facts::basename(x) == *w,
        t => t.matches(w),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_is_documented_in_every_section() {
        for c in CHECKS {
            let docs = c.docs();
            for section in [
                "## What it does",
                "## Why is this bad?",
                "## Example",
                "Use instead:",
            ] {
                assert!(docs.contains(section), "{} lacks `{section}`", c.name());
            }
            let summary = c.summary();
            assert!(
                summary.len() > 20 && !summary.contains("\n- "),
                "{}: {summary}",
                c.name()
            );
            assert_eq!(
                c.file,
                format!("{}.rs", c.name().replace('-', "_")),
                "{}",
                c.name()
            );
        }
    }

    #[test]
    fn names_are_unique() {
        for (i, c) in CHECKS.iter().enumerate() {
            assert!(
                CHECKS[i + 1..].iter().all(|d| d.name() != c.name()),
                "{}",
                c.name()
            );
        }
    }
}
