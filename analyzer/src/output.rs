//! Rendering findings: `human` (rustc-style, codespan-reporting), `json`
//! (the shape of SPEC §11), `sarif` (SARIF 2.1.0, for GitHub code
//! scanning) and `github` (workflow-command annotations).
//!
//! Positions are 1-based; columns count characters. An end column is one
//! past the last character of the span, as in SARIF. A related place that
//! is a rule of the spec rather than a place in a file (a built-in deny, a
//! ceiling) has the file `<builtin>` and line and column 0.

use crate::checks::{self, BUILTIN};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::Buffer, Chars, Config};
use permc_grammar::diagnostic::{CheckId, Diagnostic, LineIndex, Severity};
use permc_grammar::json::Span;
use permc_grammar::printable::{escape, Escaped};
use serde::Serialize;
use serde_json::{json, Value};

/// A file the findings point into: its name as given and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The name, as on the command line.
    pub name: String,
    /// The text.
    pub text: String,
}

/// Where a span is, for people and machines: 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Line of the first character.
    pub line: usize,
    /// Column of the first character.
    pub column: usize,
    /// Line of the end.
    pub end_line: usize,
    /// Column one past the last character.
    pub end_column: usize,
}

/// Line indexes of the sources, built once per rendering (a file of 100k
/// rules has as many findings: one index per finding would be quadratic).
pub struct Positions<'a> {
    files: Vec<(&'a str, LineIndex<'a>)>,
}

impl<'a> Positions<'a> {
    /// Indexes every source.
    pub fn new(sources: &'a [Source]) -> Positions<'a> {
        Positions {
            files: sources
                .iter()
                .map(|s| (s.name.as_str(), LineIndex::new(&s.text)))
                .collect(),
        }
    }

    /// Whether the file's text is known (not `<builtin>`, not a file that
    /// could not be read).
    pub fn has(&self, file: &str) -> bool {
        file != BUILTIN && self.files.iter().any(|(n, _)| *n == file)
    }

    /// The position of a span in a file (0s for `<builtin>` and unknown
    /// files).
    pub fn of(&self, file: &str, span: Span) -> Position {
        let Some((_, idx)) = self
            .files
            .iter()
            .find(|(n, _)| *n == file)
            .filter(|_| file != BUILTIN)
        else {
            return Position {
                line: 0,
                column: 0,
                end_line: 0,
                end_column: 0,
            };
        };
        let (line, column) = idx.line_col(span.start);
        let (end_line, end_column) = idx.line_col(span.end.max(span.start));
        Position {
            line,
            column,
            end_line,
            end_column,
        }
    }
}

/// The message with what to do: `message; help`.
pub fn full_message(d: &Diagnostic) -> String {
    match &d.help {
        Some(h) => format!("{}; {h}", d.message),
        None => d.message.clone(),
    }
}

/// Lines longer than this (in bytes) are not quoted in the human output.
pub const MAX_QUOTED_LINE: usize = 400;

/// codespan's severity for a finding's.
fn cs_severity(s: Severity) -> CsSeverity {
    match s {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Info => CsSeverity::Note,
    }
}

/// `span` of the source moved into its escaped text, clamped into it.
fn moved(e: &Escaped, span: Span) -> std::ops::Range<usize> {
    clamp(
        &e.text,
        Span {
            start: e.offset(span.start),
            end: e.offset(span.end),
        },
    )
}

/// Where each line of each source starts (and one past its end), to tell
/// whether a span's lines are short enough to quote.
struct LineStarts<'a>(Vec<(&'a str, Vec<usize>)>);

impl<'a> LineStarts<'a> {
    fn new(sources: &'a [Source]) -> Self {
        LineStarts(
            sources
                .iter()
                .map(|s| {
                    let mut starts = vec![0];
                    starts.extend(s.text.match_indices('\n').map(|(i, _)| i + 1));
                    starts.push(s.text.len() + 1);
                    (s.name.as_str(), starts)
                })
                .collect(),
        )
    }

    /// Is every line the span touches short enough to quote?
    fn quotable(&self, file: &str, span: Span) -> bool {
        let Some((_, starts)) = self.0.iter().find(|(n, _)| *n == file) else {
            return true;
        };
        let first = starts
            .partition_point(|&s| s <= span.start)
            .saturating_sub(1);
        let last = starts
            .partition_point(|&s| s <= span.end.max(span.start))
            .saturating_sub(1);
        (first..=last).all(|l| match (starts.get(l), starts.get(l + 1)) {
            (Some(a), Some(b)) => b - a <= MAX_QUOTED_LINE,
            _ => true,
        })
    }
}

/// rustc-style text, with colors or without. Lines longer than
/// [`MAX_QUOTED_LINE`] are not quoted: the finding gives its position.
pub fn human(diags: &[Diagnostic], sources: &[Source], color: bool) -> String {
    let pos = Positions::new(sources);
    let lines = LineStarts::new(sources);
    let quotable = |file: &str, span: Span| lines.quotable(file, span);
    let mut files = SimpleFiles::new();
    // Each file's id among `files`, with its text (the spans are clamped
    // into it).
    // Quoted with its control characters escaped (a pattern holding ESC
    // sequences must not reach the terminal raw), spans moved to match.
    let escaped: Vec<Escaped> = sources.iter().map(|s| Escaped::new(&s.text)).collect();
    let ids: Vec<(&str, usize, &Escaped)> = sources
        .iter()
        .zip(&escaped)
        .map(|(s, e)| {
            let id = files.add(escape(&s.name).into_owned(), e.text.clone());
            (s.name.as_str(), id, e)
        })
        .collect();
    let id_of = |name: &str| {
        ids.iter()
            .find(|(n, _, _)| *n == name)
            .map(|&(_, id, e)| (id, e))
    };
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    let mut rendered = Vec::new();
    for d in diags {
        let severity = cs_severity(d.severity);
        let mut labels = Vec::new();
        let mut notes = Vec::new();
        // A minified file is one long line: quoting it for every finding
        // would print it thousands of times. Positions are given instead.
        let quote = quotable(&d.file, d.span)
            && d.related
                .iter()
                .all(|r| r.file == BUILTIN || quotable(&r.file, r.span));
        let at = |file: &str, span: Span| {
            let p = pos.of(file, span);
            format!("{file}:{}:{}", p.line, p.column)
        };
        match id_of(&d.file) {
            Some((id, e)) if quote => labels.push(Label::primary(id, moved(e, d.span))),
            Some(_) => notes.push(format!("at {}", at(&d.file, d.span))),
            // A file whose text is unknown (unreadable): the message names it.
            None => {}
        }
        for r in &d.related {
            match id_of(&r.file).filter(|_| r.file != BUILTIN) {
                Some((id, e)) if quote => labels
                    .push(Label::secondary(id, moved(e, r.span)).with_message(escape(&r.message))),
                Some(_) => notes.push(format!(
                    "note: {} at {}",
                    escape(&r.message),
                    at(&r.file, r.span)
                )),
                None => notes.push(format!("note: {}", escape(&r.message))),
            }
        }
        if let Some(h) = &d.help {
            notes.push(format!("help: {}", escape(h)));
        }
        let cs = CsDiagnostic::new(severity)
            .with_code(d.check.name())
            .with_message(escape(&d.message))
            .with_labels(labels)
            .with_notes(notes);
        // Emitting into a memory buffer fails only if the files do not
        // hold the span, which `clamp` rules out; a failure would only
        // drop the snippet, so the header is written by hand then.
        let mut one = if color {
            Buffer::ansi()
        } else {
            Buffer::no_color()
        };
        if term::emit(&mut one, &config, &files, &cs).is_err() {
            let _ = std::io::Write::write_all(
                &mut one,
                format!("{}[{}]: {}\n", d.severity.name(), d.check, d.message).as_bytes(),
            );
        }
        rendered.extend_from_slice(&severity_word(one.as_slice(), d.severity));
    }
    let mut out = String::from_utf8_lossy(&rendered).into_owned();
    if !diags.is_empty() {
        out.push_str(&summary(diags));
        out.push('\n');
    }
    out
}

/// codespan-reporting heads an `info` finding `note[…]`, rustc's word;
/// permc's one vocabulary says `info` (SPEC §11), so the header's first
/// word is rewritten (it comes before anything the finding quotes).
fn severity_word(rendered: &[u8], severity: Severity) -> std::borrow::Cow<'_, [u8]> {
    if severity != Severity::Info {
        return rendered.into();
    }
    match rendered.windows(5).position(|w| w == b"note[") {
        Some(i) => {
            let mut out = rendered.to_vec();
            out[i..i + 4].copy_from_slice(b"info");
            out.into()
        }
        None => rendered.into(),
    }
}

/// The diagnostics of one file as plain lines, `file:line:col:
/// severity[check]: message`, each with `  help: …` on the next line when
/// it has one: what the CLI prints for a rule file it loads (warnings, or
/// the errors that reject it), positions read from `text`, the file's text.
pub fn plain(diags: &[Diagnostic], text: &str) -> String {
    let index = LineIndex::new(text);
    let mut out = String::new();
    for d in diags {
        let (line, col) = index.line_col(d.span.start);
        out.push_str(&format!(
            "{}:{line}:{col}: {}[{}]: {}\n",
            escape(&d.file),
            d.severity.name(),
            d.check,
            escape(&d.message)
        ));
        if let Some(h) = &d.help {
            out.push_str(&format!("  help: {}\n", escape(h)));
        }
    }
    out
}

/// `found 1 error, 2 warnings and 1 info`.
pub fn summary(diags: &[Diagnostic]) -> String {
    let count = |s: Severity| diags.iter().filter(|d| d.severity == s).count();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    for (s, one, many) in [
        (Severity::Error, "error", "errors"),
        (Severity::Warning, "warning", "warnings"),
        (Severity::Info, "info", "infos"),
    ] {
        let n = count(s);
        if n > 0 {
            parts.push(plural(n, one, many));
        }
    }
    let text = match parts.len() {
        0 => "nothing".to_string(),
        1 => parts[0].clone(),
        n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
    };
    format!("permc check: found {text}")
}

/// A span that lies inside `text` (its file's) and on character boundaries.
fn clamp(text: &str, span: Span) -> std::ops::Range<usize> {
    let fix = |mut i: usize| {
        i = i.min(text.len());
        while i > 0 && !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = fix(span.start);
    let end = fix(span.end).max(start);
    start..end
}

/// The version of the diagnostic JSON shape ([`diagnostic_json`]).
pub const JSON_VERSION: u32 = 1;

/// The finding for a file that cannot be read (`permc check` goes on with
/// the others): an error, with no line or column.
pub const UNREADABLE_FILE: &str = CheckId::UnreadableFile.name();

/// The finding for a file that is neither permissions.json nor
/// autonomy.json by name or content ([`crate::Kind::sniff`]).
pub const NOT_A_RULE_FILE: &str = CheckId::NotARuleFile.name();

/// The `unreadable-file` finding: `why` is the system's reason.
pub fn unreadable_file(file: &str, why: &str) -> Diagnostic {
    // Too large: the path and its permissions are fine; the size is what
    // to change.
    let help = if why.starts_with("it is larger than") {
        "split the rules into smaller files, or remove the entries no command needs; the other files are checked"
    } else {
        "check the path and its permissions; the other files are checked"
    };
    Diagnostic::new(
        CheckId::UnreadableFile,
        Severity::Error,
        file,
        Span { start: 0, end: 0 },
        format!("cannot read {file}: {why}"),
    )
    .with_help(help)
}

/// One diagnostic as JSON — the one shape shared by `permc check --format
/// json`, the events of `permc serve` and the language bindings:
///
/// ```json
/// {"check": "dead-pattern", "severity": "warning", "file": "permissions.json",
///  "line": 3, "column": 5, "endLine": 3, "endColumn": 27,
///  "message": "…", "help": "…" | null,
///  "related": [{"file": "…", "line": 1, "column": 1, "message": "…"}]}
/// ```
///
/// `severity` is `error`, `warning` or `note`; `help` is `null` when there
/// is none; `related` is always present. A file whose text is unknown
/// (`unreadable-file`) has `null` lines and columns. Documents holding
/// diagnostics carry `"version": 1` ([`JSON_VERSION`]).
pub fn diagnostic_json(d: &Diagnostic, positions: &Positions<'_>) -> Value {
    let (line, column, end_line, end_column) = if positions.has(&d.file) {
        let p = positions.of(&d.file, d.span);
        (
            json!(p.line),
            json!(p.column),
            json!(p.end_line),
            json!(p.end_column),
        )
    } else {
        (Value::Null, Value::Null, Value::Null, Value::Null)
    };
    let related: Vec<Value> = d
        .related
        .iter()
        .map(|r| {
            let q = positions.of(&r.file, r.span);
            json!({"file": r.file, "line": q.line, "column": q.column, "message": r.message})
        })
        .collect();
    json!({
        "check": d.check.name(),
        "severity": d.severity.name(),
        "file": d.file,
        "line": line,
        "column": column,
        "endLine": end_line,
        "endColumn": end_column,
        "message": d.message,
        "help": d.help,
        "related": related,
    })
}

/// Every diagnostic as [`diagnostic_json`], in order.
pub fn diagnostics_json(diags: &[Diagnostic], sources: &[Source]) -> Vec<Value> {
    let pos = Positions::new(sources);
    diags.iter().map(|d| diagnostic_json(d, &pos)).collect()
}

/// Pretty JSON of a value made of strings, numbers and lists: serializing
/// it cannot fail.
fn pretty<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// `permc check --format json`: `{"version": 1, "diagnostics": [...]}`.
pub fn json(diags: &[Diagnostic], sources: &[Source]) -> String {
    pretty(&json!({
        "version": JSON_VERSION,
        "diagnostics": diagnostics_json(diags, sources),
    }))
}

/// A file name as a relative URI reference: `/` separators, no `./`,
/// spaces and other reserved characters percent-encoded.
fn uri(file: &str) -> String {
    let f = file.replace('\\', "/");
    let f = f.strip_prefix("./").unwrap_or(&f);
    let mut out = String::new();
    for b in f.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The repository's address (Cargo's `repository`), when it is a real
/// one: an absolute `https://` URL, never a placeholder (`.invalid`,
/// `example.*`). None is configured: then nothing is linked to.
pub fn repository() -> Option<&'static str> {
    real_repository(env!("CARGO_PKG_REPOSITORY"))
}

/// `r` when it is a real repository's address ([`repository`]).
fn real_repository(r: &str) -> Option<&str> {
    let host = r.strip_prefix("https://")?.split('/').next()?;
    let fake = host.is_empty()
        || host.ends_with(".invalid")
        || host.ends_with(".example")
        || ["example.com", "example.org", "example.net"]
            .iter()
            .any(|e| host == *e || host.ends_with(&format!(".{e}")));
    (!fake).then_some(r)
}

/// Where a finding's documentation lives, in the repository:
/// `docs/checks/<name>.md` (generated from the checks' docs; a test keeps
/// every page present and current).
pub fn docs_path(name: &str) -> String {
    format!("docs/checks/{name}.md")
}

/// The `helpUri` of a finding: its docs page in the repository, when the
/// repository has a real address ([`repository`]); else none.
pub fn help_uri(name: &str) -> Option<String> {
    help_uri_in(repository(), name)
}

/// The docs page of check `name` in `repository`, as an absolute URI.
fn help_uri_in(repository: Option<&str>, name: &str) -> Option<String> {
    let r = repository?.trim_end_matches('/');
    let r = r.strip_suffix(".git").unwrap_or(r);
    Some(format!("{r}/blob/main/{}", docs_path(name)))
}

/// Where the files of a SARIF log are: artifact URIs are relative to
/// `%SRCROOT%`, the project folder, as code scanning expects.
#[derive(Debug, Clone, Copy)]
pub struct SarifRoot<'a> {
    /// The project folder (absolute).
    pub root: &'a std::path::Path,
    /// The folder relative file names are taken from (absolute).
    pub cwd: &'a std::path::Path,
}

/// The id of the project folder in SARIF's `originalUriBaseIds`.
pub const SRCROOT: &str = "%SRCROOT%";

/// `a/./b/../c` → `a/c`, without touching the file system.
fn lexical(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

impl SarifRoot<'_> {
    /// The artifact location of a file: relative to `%SRCROOT%` when it
    /// is inside the project folder, else an absolute `file://` URI.
    fn artifact(&self, file: &str) -> SarifArtifact {
        let abs = lexical(&self.cwd.join(file));
        match abs.strip_prefix(lexical(self.root)) {
            Ok(rel) => SarifArtifact {
                uri: uri(&rel.to_string_lossy()),
                uri_base_id: Some(SRCROOT),
            },
            Err(_) => SarifArtifact {
                uri: format!("file://{}", uri(&abs.to_string_lossy())),
                uri_base_id: None,
            },
        }
    }

    fn base(&self) -> Value {
        let mut root = uri(&lexical(self.root).to_string_lossy());
        if !root.ends_with('/') {
            root.push('/');
        }
        json!({ SRCROOT: {"uri": format!("file://{root}")} })
    }
}

/// SARIF 2.1.0 with file names as given (relative URIs, no base).
pub fn sarif(diags: &[Diagnostic], sources: &[Source]) -> String {
    sarif_at(diags, sources, None)
}

/// SARIF 2.1.0 with one rule per check and file finding (id, short and
/// full description, help text, and the docs page as `helpUri` when the
/// repository has a real address), for GitHub code scanning; artifact
/// URIs relative to `%SRCROOT%` when `root` is given.
pub fn sarif_at(diags: &[Diagnostic], sources: &[Source], root: Option<SarifRoot<'_>>) -> String {
    let pos = Positions::new(sources);
    let all = checks::all_docs();
    let rules: Vec<Value> = all
        .iter()
        .map(|(name, severity, docs)| {
            let page = checks::docs_page(name, *severity, docs);
            let mut rule = json!({
                "id": name,
                "name": name,
                "shortDescription": {"text": checks::summary_of(docs)},
                "fullDescription": {"text": checks::description_of(docs)},
                // The check's page, docs/checks/<name>.md, as it is.
                "help": {"text": page, "markdown": page},
                "defaultConfiguration": {"level": sarif_level(*severity)},
                "properties": {"tags": ["permc", "permissions"]},
            });
            if let Some(u) = help_uri(name) {
                rule["helpUri"] = json!(u);
            }
            rule
        })
        .collect();
    let artifact = |file: &str| match root {
        Some(r) => r.artifact(file),
        None => SarifArtifact {
            uri: uri(file),
            uri_base_id: None,
        },
    };
    let location = |file: &str, span: Span| SarifPhysical {
        physical_location: SarifLocation {
            artifact_location: artifact(file),
            region: pos.has(file).then(|| {
                let p = pos.of(file, span);
                SarifRegion {
                    start_line: p.line.max(1),
                    start_column: p.column.max(1),
                    end_line: p.end_line.max(1),
                    end_column: p.end_column.max(1),
                }
            }),
        },
    };
    let results: Vec<SarifResult<'_>> = diags
        .iter()
        .map(|d| {
            let mut message = full_message(d);
            let mut related = Vec::new();
            for (i, r) in d.related.iter().enumerate() {
                if r.file == BUILTIN {
                    message.push_str(&format!(" ({})", r.message));
                    continue;
                }
                related.push(SarifRelated {
                    id: i,
                    message: SarifText {
                        text: r.message.clone(),
                    },
                    location: location(&r.file, r.span),
                });
            }
            SarifResult {
                rule_id: d.check.name(),
                rule_index: all.iter().position(|(n, _, _)| *n == d.check.name()),
                level: sarif_level(d.severity),
                message: SarifText { text: message },
                locations: vec![location(&d.file, d.span)],
                related_locations: related,
            }
        })
        .collect();
    let mut driver = json!({
        "name": "permc",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    if let Some(r) = repository() {
        driver["informationUri"] = json!(r);
    }
    let log = SarifLog {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: vec![SarifRun {
            tool: json!({ "driver": driver }),
            original_uri_base_ids: root.map(|r| r.base()),
            column_kind: "unicodeCodePoints",
            results,
        }],
    };
    pretty(&log)
}

#[derive(Serialize)]
struct SarifLog<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<SarifRun<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRun<'a> {
    tool: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    original_uri_base_ids: Option<Value>,
    column_kind: &'static str,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: SarifText,
    locations: Vec<SarifPhysical>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<SarifRelated>,
}

#[derive(Serialize)]
struct SarifText {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifPhysical {
    physical_location: SarifLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    artifact_location: SarifArtifact,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<SarifRegion>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifArtifact {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRegion {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRelated {
    id: usize,
    message: SarifText,
    #[serde(flatten)]
    location: SarifPhysical,
}

/// Escapes the data of a workflow command.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property of a workflow command.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub Actions workflow commands, one line per finding:
/// `::warning file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`.
pub fn github(diags: &[Diagnostic], sources: &[Source]) -> String {
    let pos = Positions::new(sources);
    let mut out = String::new();
    for d in diags {
        let p = pos.of(&d.file, d.span);
        // GitHub's own command names.
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let at = if pos.has(&d.file) {
            format!(
                ",line={},col={},endLine={},endColumn={}",
                p.line, p.column, p.end_line, p.end_column
            )
        } else {
            String::new()
        };
        out.push_str(&format!(
            "::{command} file={}{at},title={}::{}\n",
            escape_property(&d.file),
            escape_property(&format!("permc {}", d.check)),
            escape_data(&escape(&full_message(d))),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_not_quoted() {
        let text = format!(
            "{{\"allow\": [\"Terminal(git push -f)\", \"Terminal({})\"], \"deny\": [\"Terminal(git push)\"]}}",
            "x".repeat(500)
        );
        let diags = crate::check_file("p.json", text.as_bytes(), None, &crate::Options::default());
        let sources = [Source {
            name: "p.json".into(),
            text: text.clone(),
        }];
        let out = human(&diags, &sources, false);
        assert!(out.contains(" = at p.json:1:12\n"), "{out}");
        assert!(
            out.contains("denied by `Terminal(git push)` in deny at p.json:1:"),
            "{out}"
        );
        assert!(!out.contains(&"x".repeat(500)), "{out}");
    }

    #[test]
    fn plain_lines_give_positions_in_characters_and_the_help() {
        // `é` is two bytes, one column: the `*` is at byte 40, column 40
        // (`ls`: a described program, which draws no finding of its own).
        let text = "{\"allow\": [\"Terminal(ls é)\", \"Terminal(*)\"]}";
        let diags = crate::check_file("p.json", text.as_bytes(), None, &crate::Options::default());
        let [star] = diags.as_slice() else {
            panic!("one finding: {diags:?}");
        };
        assert_eq!(star.span.start, 40);
        let help = star.help.as_deref().expect("literal-star says what to do");
        assert_eq!(
            plain(&diags, text),
            format!(
                "p.json:1:40: warning[literal-star]: {}\n  help: {help}\n",
                star.message
            )
        );
    }

    #[test]
    fn help_uris_point_at_real_repositories_only() {
        let real = real_repository("https://github.com/brabo/permc");
        assert_eq!(
            help_uri_in(real, "dead-pattern").as_deref(),
            Some("https://github.com/brabo/permc/blob/main/docs/checks/dead-pattern.md")
        );
        assert_eq!(
            help_uri_in(real_repository("https://github.com/brabo/permc.git/"), "x").as_deref(),
            Some("https://github.com/brabo/permc/blob/main/docs/checks/x.md")
        );
        for fake in [
            "",
            "https://example.invalid/brabo/permc",
            "https://git.example.com/p",
            "https://example.org/p",
            "http://github.com/brabo/permc",
            "git@github.com:brabo/permc.git",
            "github.com/brabo/permc",
            "https:///p",
        ] {
            assert_eq!(real_repository(fake), None, "{fake}");
            assert_eq!(help_uri_in(real_repository(fake), "x"), None, "{fake}");
        }
    }

    #[test]
    fn uris_and_escapes() {
        assert_eq!(uri("./a b/permissions.json"), "a%20b/permissions.json");
        assert_eq!(escape_property("a,b:c%"), "a%2Cb%3Ac%25");
        assert_eq!(escape_data("a\nb"), "a%0Ab");
    }
}
