//! permc-analyzer: the static analyzer of permc (SPEC §11).
//!
//! People edit permissions.json by hand and by "always allow" clicks; the
//! analyzer tells them, before commit, which rules do not do what they seem
//! to. Each check lives in its own file under [`checks`] with its
//! documentation; [`checks::CHECKS`] is the registry. [`check_file`] runs
//! them over one file; [`output`] renders the findings for people
//! (rustc-style, via codespan-reporting) and for machines (JSON, SARIF,
//! GitHub annotations).
//!
//! ```
//! use permc_analyzer::{check_file, Kind, Options};
//! let text = br#"{"allow": ["Terminal(git push --force)"], "deny": ["Terminal(git push)"]}"#;
//! let diags = check_file("permissions.json", text, Some(Kind::Permissions), &Options::default());
//! assert_eq!(diags[0].check.name(), "shadowed-by-deny");
//! ```
//!
//! **Invariants.** Nothing here does I/O: files come in as bytes, findings
//! go out as values and strings. Coverage findings (`shadowed-by-deny`,
//! `shadowed-by-ask`, `redundant-rule`) are exact, never heuristic: the
//! analyzer stays silent rather than report a guess ([`coverage`]). The
//! ceiling tables are the runtime's own (`permc_core::facts`), never a
//! copy.

#![warn(missing_docs)]
// Lengths become `u32` only through checked conversions, at size guards
// that say their limit.
#![warn(clippy::cast_possible_truncation)]

pub mod analysis;
pub mod checks;
pub mod coverage;
pub mod fix;
pub mod output;
pub mod recover;
pub mod words;

use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::json::{self, Span, Value};
use permc_grammar::rules::{
    load_autonomy_partial, load_permissions_partial, Autonomy, Permissions,
};

/// Which rule file a file is (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// permissions.json (SPEC §2.1).
    Permissions,
    /// autonomy.json (SPEC §2.2).
    Autonomy,
}

impl Kind {
    /// `permissions` or `autonomy`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Permissions => "permissions",
            Kind::Autonomy => "autonomy",
        }
    }

    /// The kind of a file, by its name when the name says it (it contains
    /// `autonomy` or `permission`), else by its content ([`Kind::sniff`]);
    /// permissions.json when neither fits.
    ///
    /// ```
    /// use permc_analyzer::Kind;
    /// assert_eq!(Kind::detect("ci/autonomy.prod.json", b"{}"), Kind::Autonomy);
    /// assert_eq!(Kind::detect("rules.json", br#"{"dev-api": {"*": "deny"}}"#), Kind::Autonomy);
    /// assert_eq!(Kind::detect("rules.json", br#"{"dev-api": "deny"}"#), Kind::Autonomy);
    /// assert_eq!(Kind::detect("rules.json", br#"{"allow": []}"#), Kind::Permissions);
    /// assert_eq!(Kind::detect("rules.json", br#"{"alow": ["Terminal(ls)"]}"#), Kind::Permissions);
    /// assert_eq!(Kind::detect("rules.json", br#"{"dev-api": {"*": "auto_approve",}}"#), Kind::Autonomy);
    /// ```
    pub fn detect(name: &str, bytes: &[u8]) -> Kind {
        Kind::sniff(name, bytes).unwrap_or(Kind::Permissions)
    }

    /// The kind of a file, or `None` when it is no permc rule file
    /// (`package.json`). By name when the name says it (it contains
    /// `autonomy` or `permission`); else by content:
    /// - permissions.json: an object with an `allow`, `deny` or `ask` key,
    ///   or a list holding a pattern (`"alow": ["Terminal(ls)"]`), or `{}`;
    /// - autonomy.json: an object of agents, each an object or a mode,
    ///   where some value is a mode (`auto_approve`, `require_approval`,
    ///   `deny`);
    /// - text that is not JSON but opens an object (or a comment):
    ///   autonomy.json when it names a mode and no list, permissions.json
    ///   when it names a list or a pattern; other text (Markdown, TOML) is
    ///   no rule file.
    ///
    /// ```
    /// use permc_analyzer::Kind;
    /// let package = br#"{"name": "web", "scripts": {"test": "vitest"}, "files": ["dist"]}"#;
    /// assert_eq!(Kind::sniff("package.json", package), None);
    /// assert_eq!(Kind::sniff("tsconfig.json", br#"[1, 2]"#), None);
    /// assert_eq!(Kind::sniff("rules.json", br#"{"dev-api": {"git_commit": "deny"}}"#), Some(Kind::Autonomy));
    /// assert_eq!(Kind::sniff("rules.json", br#"{"deny": ["GitPush()"]}"#), Some(Kind::Permissions));
    /// assert_eq!(Kind::sniff("permissions.ci.json", br#"[1]"#), Some(Kind::Permissions));
    /// assert_eq!(Kind::sniff("README.md", b"# x\n\n    Terminal(ls) [\"allow\"]"), None);
    /// assert_eq!(Kind::sniff("rules.json", br#"{"allow": ["Terminal(ls)",]}"#), Some(Kind::Permissions));
    /// ```
    pub fn sniff(name: &str, bytes: &[u8]) -> Option<Kind> {
        let base = name
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(name)
            .to_ascii_lowercase();
        if base.contains("autonomy") {
            return Some(Kind::Autonomy);
        }
        if base.contains("permission") {
            return Some(Kind::Permissions);
        }
        const MODES: [&str; 3] = ["auto_approve", "require_approval", "deny"];
        let is_mode =
            |v: &Value| matches!(v, Value::String { text: s, .. } if MODES.contains(&s.as_str()));
        let is_pattern = |v: &Value| {
            matches!(v, Value::String { text: s, .. } if s.split_once('(').is_some_and(|(label, _)| {
                label.starts_with(|c: char| c.is_ascii_uppercase())
                    && label.chars().all(|c| c.is_ascii_alphanumeric())
            }))
        };
        let text = String::from_utf8_lossy(bytes);
        match json::parse(&text).map(|n| n.value) {
            Ok(Value::Object(members)) => {
                let lists = members.iter().any(|m| {
                    matches!(m.key.as_str(), "allow" | "deny" | "ask")
                        || matches!(&m.value.value, Value::Array(items) if items.iter().any(|i| is_pattern(&i.value)))
                });
                if lists || members.is_empty() {
                    return Some(Kind::Permissions);
                }
                let agents = members.iter().all(|m| match &m.value.value {
                    Value::Object(_) => true,
                    v => is_mode(v),
                });
                let modes = members.iter().any(|m| match &m.value.value {
                    Value::Object(rules) => rules.iter().any(|r| is_mode(&r.value.value)),
                    v => is_mode(v),
                });
                (agents && modes).then_some(Kind::Autonomy)
            }
            Ok(_) => None,
            // A rule file is an object: text that does not open one (a
            // comment aside) is some other file, whatever words it holds
            // (README.md quotes patterns, Cargo.toml opens `[`), and is
            // reported as that alone, not as broken JSON.
            Err(_)
                if !text
                    .trim_start_matches('\u{feff}')
                    .trim_start()
                    .starts_with(['{', '/']) =>
            {
                None
            }
            Err(_) => {
                let modes = text.contains("auto_approve") || text.contains("require_approval");
                let lists = ["\"allow\"", "\"ask\"", "\"deny\"", "["]
                    .iter()
                    .any(|k| text.contains(k));
                if modes && !lists {
                    Some(Kind::Autonomy)
                } else if lists || text.contains("Terminal(") {
                    Some(Kind::Permissions)
                } else {
                    None
                }
            }
        }
    }
}

/// What the analyzer is told besides the files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The project folder (`--project-root`): a scope root in the runner
    /// mode (SPEC §6.2), used by `neutralized-by-ceiling`.
    pub project_root: Option<String>,
    /// Checks not to run (`--ignore`).
    pub ignore: Vec<String>,
    /// The project's `[[command]]` rows (permc.toml): read with the
    /// built-in catalogue where a check reads the facts.
    pub commands: permc_core::facts::project::ProjectRows,
}

/// One rule file, read, with what the checks need.
#[derive(Debug)]
pub struct FileContext<'a> {
    /// The file as named on the command line.
    pub name: &'a str,
    /// Its text (lossy UTF-8; offsets are the file's bytes when it is
    /// valid UTF-8, which a file that loads always is).
    pub text: &'a str,
    /// permissions.json or autonomy.json.
    pub kind: Kind,
    /// What the reader reported (the reader-level checks forward these).
    pub reader: &'a [Diagnostic],
    /// The permissions read, when the file is a permissions file that is
    /// JSON: with errors, the entries that were read (the file is still
    /// rejected).
    pub permissions: Option<&'a Permissions>,
    /// The coverage analysis of those permissions.
    pub analysis: Option<&'a analysis::Analysis>,
    /// The autonomy rules read, when the file is an autonomy file that is
    /// JSON (with errors, those that were read).
    pub autonomy: Option<&'a Autonomy>,
    /// The options.
    pub options: &'a Options,
}

/// The one finding for a file that is no permc rule file.
fn not_a_rule_file(name: &str, bytes: &[u8]) -> Diagnostic {
    Diagnostic::new(
        CheckId::NotARuleFile,
        Severity::Error,
        name,
        Span {
            start: 0,
            end: bytes.len().min(1),
        },
        format!("{name} is not a permc rule file: neither permissions.json (allow, deny and ask lists of patterns) nor autonomy.json (agents and their modes)"),
    )
    .with_help("check only rule files; a rule file named otherwise than permissions*.json or autonomy*.json is told apart by its content")
}

/// The file read as `kind`: the reader's findings, and what it read.
fn load(
    name: &str,
    kind: Kind,
    bytes: &[u8],
) -> (Vec<Diagnostic>, Option<Permissions>, Option<Autonomy>) {
    match kind {
        Kind::Permissions => {
            let (d, p) = load_permissions_partial(name, bytes);
            (d, Some(p), None)
        }
        Kind::Autonomy => {
            let (d, a) = load_autonomy_partial(name, bytes);
            (d, None, Some(a))
        }
    }
}

/// Every error of a file that is not JSON at once: the syntax errors
/// after the reader's first, and the errors behind them (see `recover`),
/// added to `reader` in file order. Offsets of a repaired text are not
/// the file's: its findings beyond the reader's are not reported.
fn every_json_error(name: &str, kind: Kind, text: &str, reader: &mut Vec<Diagnostic>) {
    let repaired = recover::repair(text);
    // When the repairs do not end in JSON, the later errors may only
    // echo the first one: then the first is reported alone.
    let later = if repaired.text.is_some() {
        &repaired.errors[..]
    } else {
        &[]
    };
    for e in later.iter().skip(1) {
        reader.push(
            Diagnostic::new(
                CheckId::InvalidJson,
                Severity::Error,
                name,
                Span {
                    start: e.offset,
                    end: (e.offset + 1).min(text.len()).max(e.offset),
                },
                format!("the file is not valid JSON: {}", e.message),
            )
            .with_help("fix the JSON syntax here; permc does not read a partial file"),
        );
    }
    if let Some(t) = repaired.text {
        let (more, _, _) = load(name, kind, t.as_bytes());
        reader.extend(more.into_iter().filter(|d| d.check != CheckId::InvalidJson));
    }
    reader.sort_by_key(|d| (d.span.start, std::cmp::Reverse(d.severity)));
}

/// Runs every check not ignored over one file and returns the findings in
/// file order. `kind` `None` detects it ([`Kind::sniff`]); a file that is
/// no rule file gets one `not-a-rule-file` finding.
///
/// A file with errors (SPEC §2: rejected whole) gets every error and
/// warning its reader found, all at once; the checks that need a loaded
/// file do not run on it.
pub fn check_file(
    name: &str,
    bytes: &[u8],
    kind: Option<Kind>,
    options: &Options,
) -> Vec<Diagnostic> {
    let kind = match kind.or_else(|| Kind::sniff(name, bytes)) {
        Some(k) => k,
        None => return vec![not_a_rule_file(name, bytes)],
    };
    let text = String::from_utf8_lossy(bytes);
    // A file with errors is rejected whole (SPEC §2), but the entries
    // that were read still get their findings: one run shows everything.
    let (mut reader, mut permissions, mut autonomy) = load(name, kind, bytes);
    if reader.iter().any(|d| d.check == CheckId::InvalidJson) && std::str::from_utf8(bytes).is_ok()
    {
        // The file stays rejected: `permissions` and `autonomy` are `None`.
        (permissions, autonomy) = (None, None);
        every_json_error(name, kind, &text, &mut reader);
    }
    let analysis = permissions.as_ref().map(analysis::Analysis::of);
    let cx = FileContext {
        name,
        text: &text,
        kind,
        reader: &reader,
        permissions: permissions.as_ref(),
        analysis: analysis.as_ref(),
        autonomy: autonomy.as_ref(),
        options,
    };
    let mut out = Vec::new();
    for check in checks::CHECKS {
        if options.ignore.iter().any(|i| i == check.name()) {
            // An error rejects the file whatever the options (SPEC §2):
            // an ignored check that can find one (`unknown-key`, round 4)
            // still reports it.
            let mut found = Vec::new();
            (check.run)(&cx, &mut found);
            out.extend(found.into_iter().filter(|d| d.severity == Severity::Error));
            continue;
        }
        (check.run)(&cx, &mut out);
    }
    // File order; at one place, errors first, then the registry's order.
    let rank = |c: CheckId| {
        checks::CHECKS
            .iter()
            .position(|k| k.id == c)
            .unwrap_or(usize::MAX)
    };
    out.sort_by(|a, b| {
        (a.span.start, std::cmp::Reverse(a.severity), rank(a.check)).cmp(&(
            b.span.start,
            std::cmp::Reverse(b.severity),
            rank(b.check),
        ))
    });
    out
}
