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
//! assert_eq!(diags[0].check, "shadowed-by-deny");
//! ```
//!
//! **Invariants.** Nothing here does I/O: files come in as bytes, findings
//! go out as values and strings. Coverage findings (`shadowed-by-deny`,
//! `shadowed-by-ask`, `redundant-rule`) are exact, never heuristic: the
//! analyzer stays silent rather than report a guess ([`coverage`]). The
//! ceiling tables are the runtime's own (`permc_runtime::facts`), never a
//! copy.

pub mod analysis;
pub mod checks;
pub mod coverage;
pub mod output;
pub mod recover;
pub mod words;

use permc_grammar::diagnostic::{Diagnostic, Severity};
use permc_grammar::json::{self, Span, Value};
use permc_grammar::rules::{load_autonomy, load_permissions, Autonomy, Permissions};

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
    /// `autonomy` or `permission`), else by its content: an object with an
    /// `allow`, `deny` or `ask` key, or holding an array, is
    /// permissions.json; another object is autonomy.json (agent → rules).
    /// Text that is not JSON is autonomy.json when it names a mode
    /// (`auto_approve`, `require_approval`) and no list; else, and for an
    /// empty object, permissions.json.
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
        let base = name
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(name)
            .to_ascii_lowercase();
        if base.contains("autonomy") {
            return Kind::Autonomy;
        }
        if base.contains("permission") {
            return Kind::Permissions;
        }
        let text = String::from_utf8_lossy(bytes);
        match json::parse(&text).map(|n| n.value) {
            Ok(Value::Object(members)) => {
                let lists = members.iter().any(|m| {
                    matches!(m.key.as_str(), "allow" | "deny" | "ask")
                        || matches!(m.value.value, Value::Array(_))
                });
                if lists || members.is_empty() {
                    Kind::Permissions
                } else {
                    Kind::Autonomy
                }
            }
            Ok(_) => Kind::Permissions,
            Err(_) => {
                let modes = text.contains("auto_approve") || text.contains("require_approval");
                let lists = ["\"allow\"", "\"ask\"", "["]
                    .iter()
                    .any(|k| text.contains(k));
                if modes && !lists {
                    Kind::Autonomy
                } else {
                    Kind::Permissions
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
    /// The loaded permissions, when the file is a permissions file that
    /// loaded (no error).
    pub permissions: Option<&'a Permissions>,
    /// The coverage analysis of those permissions.
    pub analysis: Option<&'a analysis::Analysis>,
    /// The loaded autonomy rules, when the file is an autonomy file that
    /// loaded.
    pub autonomy: Option<&'a Autonomy>,
    /// The options.
    pub options: &'a Options,
}

/// Runs every check not ignored over one file and returns the findings in
/// file order. `kind` `None` detects it ([`Kind::detect`]).
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
    let kind = kind.unwrap_or_else(|| Kind::detect(name, bytes));
    let text = String::from_utf8_lossy(bytes);
    let load = |bytes: &[u8]| match kind {
        Kind::Permissions => {
            let l = load_permissions(name, bytes);
            (l.diagnostics, l.value, None)
        }
        Kind::Autonomy => {
            let l = load_autonomy(name, bytes);
            (l.diagnostics, None, l.value)
        }
    };
    let (mut reader, permissions, autonomy) = load(bytes);
    if reader.iter().any(|d| d.check == "invalid-json") && std::str::from_utf8(bytes).is_ok() {
        // Every error at once: the syntax errors after the first, and the
        // errors behind them (see `recover`). The file stays rejected:
        // `permissions` and `autonomy` are `None`.
        let repaired = recover::repair(&text);
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
                    "invalid-json",
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
            let (more, _, _) = load(t.as_bytes());
            reader.extend(more.into_iter().filter(|d| d.check != "invalid-json"));
        }
        reader.sort_by_key(|d| (d.span.start, std::cmp::Reverse(d.severity)));
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
        if options.ignore.iter().any(|i| i == check.name) {
            continue;
        }
        (check.run)(&cx, &mut out);
    }
    // File order; at one place, errors first, then the registry's order.
    let rank = |c: &str| {
        checks::CHECKS
            .iter()
            .position(|k| k.name == c)
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
