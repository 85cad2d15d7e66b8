//! The machine-applicable suggestions of the checks, as text edits of a
//! permissions.json: what `permc fix` applies and what `permc lsp` offers
//! as code actions.
//!
//! A fix is derived from a finding the checks reported (so `--ignore` and
//! permc.toml's suppressions hold for fixes too) and from the entry it is
//! about. Edits are byte ranges of the file and the text to put there:
//! the rest of the file — its layout, its other keys — stays as written.
//!
//! | check | fix | applicability |
//! |---|---|---|
//! | `redundant-rule` | remove the entry (a duplicate, or covered by another of the same list) | safe |
//! | `literal-star` | quote the literal `*` (`'*'`): the same pattern, said on purpose | safe |
//! | `dead-pattern` (not one simple command) | one entry per segment | unsafe |
//! | `unanchored-mutating-verb` | the anchored forms instead (SPEC §8) | unsafe |
//!
//! **Invariant.** A safe fix changes no decision (`permc diff` before and
//! after finds nothing; tested): a redundant entry matches nothing its
//! coverer does not, and a quoted `*` is the literal `*` it already was.
//! An unsafe fix changes decisions on purpose: the entries of a split
//! match what the dead entry never did, the anchored forms allow less than
//! the verb alone did.
//!
//! ```
//! use permc_analyzer::fix::{apply_all, Applicability};
//! let text = br#"{"allow": ["Terminal(ls)", "Terminal(ls)"]}"#;
//! let fixed = apply_all("permissions.json", text, Applicability::Safe, &Default::default());
//! assert_eq!(fixed.text, r#"{"allow": ["Terminal(ls)"]}"#);
//! ```

use crate::checks::{dead_pattern, literal_star, unanchored_mutating_verb};
use crate::{check_file, Kind, Options};
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::json::Span;
use permc_grammar::rules::{load_permissions, Entry, Permissions};

/// Whether a fix keeps every decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// Changes no decision: applied by `permc fix`.
    Safe,
    /// Changes decisions on purpose: applied under `--unsafe-fixes` only.
    Unsafe,
}

/// One replacement in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The bytes replaced.
    pub span: Span,
    /// What replaces them.
    pub text: String,
}

/// A fix of one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// The check whose finding it fixes.
    pub check: CheckId,
    /// The finding's span (where an editor offers it).
    pub finding: Span,
    /// The entry it edits (quotes included).
    pub entry: Span,
    /// What it does, for people (`remove the duplicate \`Terminal(ls)\``).
    pub title: String,
    /// Safe or unsafe.
    pub applicability: Applicability,
    /// The edits, in file order, not overlapping.
    pub edits: Vec<Edit>,
    /// The entry this one is redundant with (a removal must keep it).
    keeps: Option<Span>,
}

/// The fixes of these findings of a permissions.json (`text` its bytes).
/// A file that does not load (SPEC §2) has none: its errors come first.
pub fn fixes(name: &str, text: &[u8], findings: &[Diagnostic]) -> Vec<Fix> {
    if findings.iter().any(|d| d.severity == Severity::Error) {
        return Vec::new();
    }
    let Ok(source) = std::str::from_utf8(text) else {
        return Vec::new();
    };
    let Some(perms) = load_permissions(name, text).value else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for d in findings {
        let Some(e) = perms.entries().find(|e| contains(e.span, d.span)) else {
            continue;
        };
        let fix = match d.check {
            CheckId::RedundantRule => remove(source, &perms, e, d),
            CheckId::LiteralStar => escape_stars(e),
            CheckId::DeadPattern => split(source, e),
            CheckId::UnanchoredMutatingVerb => anchor(source, e),
            _ => None,
        };
        if let Some(mut f) = fix {
            f.finding = d.span;
            if !out
                .iter()
                .any(|o: &Fix| o.entry == f.entry && o.check == f.check)
            {
                out.push(f);
            }
        }
    }
    out
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end
}

fn fix(
    check: CheckId,
    e: &Entry,
    title: String,
    applicability: Applicability,
    edits: Vec<Edit>,
) -> Fix {
    Fix {
        check,
        finding: e.span,
        entry: e.span,
        title,
        applicability,
        edits,
        keeps: None,
    }
}

/// JSON text of a string.
fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// Removes an entry from its list, with the comma and blanks before the
/// next entry (or after the previous one, for the last).
fn remove(source: &str, perms: &Permissions, e: &Entry, d: &Diagnostic) -> Option<Fix> {
    let list = perms.list(e.list);
    let span = match (
        list.get(e.index + 1),
        e.index.checked_sub(1).and_then(|i| list.get(i)),
    ) {
        (Some(next), _) => Span {
            start: e.span.start,
            end: next.span.start,
        },
        (None, Some(prev)) => Span {
            start: prev.span.end,
            end: e.span.end,
        },
        (None, None) => e.span,
    };
    source.get(span.start..span.end)?;
    let keeps = d.related.first().map(|r| r.span);
    let mut f = fix(
        CheckId::RedundantRule,
        e,
        format!("remove `{}` from {}", e.pattern.text, e.list.name()),
        Applicability::Safe,
        vec![Edit {
            span,
            text: String::new(),
        }],
    );
    f.keeps = keeps;
    Some(f)
}

/// Replaces one entry by a new pattern text.
fn replace(e: &Entry, pattern: &str) -> Edit {
    Edit {
        span: e.span,
        text: json_string(pattern),
    }
}

/// Replaces one entry by several, laid out as the list is (one a line
/// when the entry starts its line).
fn replace_by_many(source: &str, e: &Entry, patterns: &[String]) -> Edit {
    let line_start = source
        .get(..e.span.start)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |i| i + 1);
    let indent = source.get(line_start..e.span.start).unwrap_or("");
    let sep = if indent.chars().all(|c| c == ' ' || c == '\t') && line_start > 0 {
        format!(",\n{indent}")
    } else {
        ", ".to_string()
    };
    let joined: Vec<String> = patterns.iter().map(|p| json_string(p)).collect();
    Edit {
        span: e.span,
        text: joined.join(&sep),
    }
}

/// Quotes each `*` that `literal-star` reports (`src/*` → `src/'*'`).
fn escape_stars(e: &Entry) -> Option<Fix> {
    let text = &e.pattern.text;
    let open = text.find('(')? + 1;
    let content = text.get(open..text.len().checked_sub(1)?)?;
    let tokens = e.pattern.tokens()?;
    let words = crate::words::raw_words(content);
    if words.len() != tokens.len() {
        return None;
    }
    let mut stars: Vec<usize> = tokens
        .iter()
        .zip(&words)
        .flat_map(|(t, w)| literal_star::literal_stars(t, w))
        .collect();
    if stars.is_empty() {
        return None;
    }
    stars.sort_unstable();
    let mut new = String::with_capacity(content.len() + 2 * stars.len());
    let mut at = 0;
    for s in stars {
        new.push_str(content.get(at..s)?);
        new.push_str("'*'");
        at = s + 1;
    }
    new.push_str(content.get(at..)?);
    let pattern = format!("{}{new})", text.get(..open)?);
    Some(fix(
        CheckId::LiteralStar,
        e,
        format!("quote the literal `*`: `{pattern}`"),
        Applicability::Safe,
        vec![replace(e, &pattern)],
    ))
}

/// One entry per segment of a compound Terminal pattern.
fn split(source: &str, e: &Entry) -> Option<Fix> {
    let per_segment = dead_pattern::suggestions(e);
    if per_segment.is_empty() {
        return None;
    }
    Some(fix(
        CheckId::DeadPattern,
        e,
        format!("write one pattern per segment: {}", per_segment.join(", ")),
        Applicability::Unsafe,
        vec![replace_by_many(source, e, &per_segment)],
    ))
}

/// The anchored forms of SPEC §8 instead of an allow entry that stops at a
/// verb with mutating continuations.
fn anchor(source: &str, e: &Entry) -> Option<Fix> {
    let tokens = e.pattern.tokens()?;
    let verb = unanchored_mutating_verb::verbs().iter().find(|v| {
        v.words.len() == tokens.len() && crate::checks::tokens_match_verb(tokens, v.words)
    })?;
    let forms: Vec<String> = verb
        .anchored()
        .iter()
        .map(|f| format!("Terminal({f})"))
        .collect();
    if forms.is_empty() {
        return None;
    }
    Some(fix(
        CheckId::UnanchoredMutatingVerb,
        e,
        format!("allow the anchored forms instead: {}", forms.join(", ")),
        Applicability::Unsafe,
        vec![replace_by_many(source, e, &forms)],
    ))
}

/// The fixes of `fixes` that can be applied together: not overlapping, and
/// no removal of an entry another removal relies on.
pub fn compatible(fixes: &[Fix], allowed: Applicability) -> Vec<&Fix> {
    let mut chosen: Vec<&Fix> = Vec::new();
    for f in fixes.iter().filter(|f| f.applicability <= allowed) {
        let clash = chosen.iter().any(|c| {
            c.edits
                .iter()
                .chain(std::iter::once(&Edit {
                    span: c.entry,
                    text: String::new(),
                }))
                .any(|a| {
                    f.edits.iter().any(|b| overlaps(a.span, b.span))
                        || overlaps(a.span, f.entry)
                        || f.keeps.is_some_and(|k| overlaps(a.span, k))
                })
                || c.keeps.is_some_and(|k| overlaps(k, f.entry))
        });
        if !clash {
            chosen.push(f);
        }
    }
    chosen
}

/// Applies edits (not overlapping) to a text.
pub fn apply(text: &str, fixes: &[&Fix]) -> String {
    let mut edits: Vec<&Edit> = fixes.iter().flat_map(|f| &f.edits).collect();
    edits.sort_by_key(|e| e.span.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        if e.span.start < at {
            continue;
        }
        out.push_str(text.get(at..e.span.start).unwrap_or(""));
        out.push_str(&e.text);
        at = e.span.end;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    out
}

/// The result of [`apply_all`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    /// The file's new text.
    pub text: String,
    /// How many fixes were applied, per check.
    pub applied: Vec<(CheckId, usize)>,
}

/// What a caller does to each round's findings before they are fixed
/// (`permc fix`: permc.toml's suppressions), given the text of the round.
pub type FindingFilter<'a> = dyn FnMut(&[u8], Vec<Diagnostic>) -> Vec<Diagnostic> + 'a;

/// The most rounds [`apply_all`] runs: each applies at least one fix, and
/// a fix never brings back the finding it fixed.
const MAX_ROUNDS: usize = 10_000;

/// Applies every fix up to `allowed`, again and again until none is left
/// (a fix may make another finding's fix applicable). `filter` is what the
/// caller does to each round's findings (suppressions); plain
/// [`apply_all`] keeps them all.
pub fn apply_all_filtered(
    name: &str,
    text: &[u8],
    allowed: Applicability,
    options: &Options,
    filter: &mut FindingFilter<'_>,
) -> Fixed {
    let mut current = String::from_utf8_lossy(text).into_owned();
    let mut applied: Vec<(CheckId, usize)> = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let found = check_file(name, current.as_bytes(), Some(Kind::Permissions), options);
        let found = filter(current.as_bytes(), found);
        let all = fixes(name, current.as_bytes(), &found);
        let chosen = compatible(&all, allowed);
        if chosen.is_empty() {
            break;
        }
        let next = apply(&current, &chosen);
        if load_permissions(name, next.as_bytes()).has_errors() {
            // Cannot happen: every edit writes a JSON string where one
            // was. Stop rather than write a file that does not load.
            break;
        }
        for f in &chosen {
            match applied.iter_mut().find(|(c, _)| *c == f.check) {
                Some((_, n)) => *n += 1,
                None => applied.push((f.check, 1)),
            }
        }
        current = next;
    }
    Fixed {
        text: current,
        applied,
    }
}

/// [`apply_all_filtered`] with every finding.
pub fn apply_all(name: &str, text: &[u8], allowed: Applicability, options: &Options) -> Fixed {
    apply_all_filtered(name, text, allowed, options, &mut |_, d| d)
}
