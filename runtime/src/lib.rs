//! permc-runtime: permc in the programs that decide: load a policy once,
//! answer requests at high throughput.
//!
//! The command line (`permc decide`, `explain`, `tokens`, `always`,
//! `serve`) and the in-process bindings (the Erlang/Elixir NIF and the
//! Node addon in `bindings/`) call these functions: one core, no copies.
//!
//! - [`Policy`]: rule files ([`Policy::load`]) or an artifact
//!   ([`Policy::load_artifact`]) compiled once, then shared read-only;
//! - [`answer::write_answer_line`]: a request line in, the answer line out
//!   (SPEC §10.1 → §10.2), exactly as `permc decide` writes it;
//! - [`explain::explain`], [`tokens_json`], [`always::outcome`].
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("permc-runtime-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let p = dir.join("permissions.json");
//! std::fs::write(&p, r#"{"allow": ["Terminal(pnpm test)"]}"#).unwrap();
//! let policy = permc_runtime::Policy::load(Some(&p), None).unwrap();
//! let mut out = Vec::new();
//! permc_runtime::answer::write_answer_line(&policy, br#"{"action": {"type": "terminal",
//!   "command": "pnpm test"}, "context": {"role": "developer", "projectScopeRoot": "/p"}}"#, &mut out);
//! assert!(out.starts_with(br#"{"policy":"auto_approve","reason":"file.allow""#));
//! ```

#![warn(missing_docs)]
// Lengths become `u32` only through checked conversions, at size guards
// that say their limit.
#![warn(clippy::cast_possible_truncation)]

pub mod always;
pub mod answer;
pub mod codes;
pub mod commands;
pub mod explain;
pub mod file;

// What the bindings read and answer, without depending on the runtime.
pub use permc_compiler::compiled::{Answer, StringKey};
pub use permc_core::request::{Node, Parts, Request, RequestError, ACTION_FIELDS, CONTEXT_FIELDS};
pub use permc_core::{Decision, Reason, RuleRef};

use answer::Decider;
use permc_analyzer::output::{diagnostics_json, Source};
use permc_analyzer::Kind;
use permc_compiler::CompiledPolicy;
use permc_core::Rules;
use permc_grammar::diagnostic::Diagnostic;
use permc_grammar::rules::{load_autonomy, load_permissions};
use permc_grammar::{shell, Severity};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::OnceLock;

/// Why a policy cannot be loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    /// `unreadable` (a file cannot be read), `rejected` (a rule file has
    /// errors: see `diagnostics`) or `invalid_artifact` (corrupt,
    /// truncated, another format version).
    pub code: &'static str,
    /// For people.
    pub message: String,
    /// Every diagnostic of a rejected file, or the `unreadable-file` one of
    /// a file that cannot be read, as `permc check --format json` gives
    /// them (check, severity, file, line, column, message…).
    pub diagnostics: Vec<Value>,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LoadError {}

/// The diagnostics to show for a file just loaded: the reader's, and when
/// the file is rejected, every error the analyzer finds in it (the JSON
/// syntax errors after the first, the errors behind them) — as `permc
/// check` shows, so one run shows everything.
pub fn every_diagnostic(
    name: &str,
    bytes: &[u8],
    kind: Kind,
    reader: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    if !reader.iter().any(|d| d.severity == Severity::Error) {
        return reader;
    }
    let mut all: Vec<Diagnostic> =
        permc_analyzer::check_file(name, bytes, Some(kind), &Default::default())
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
    all.extend(reader.into_iter().filter(|d| d.severity != Severity::Error));
    all.sort_by_key(|d| (d.span.start, std::cmp::Reverse(d.severity)));
    all
}

fn read(path: &Path) -> Result<Vec<u8>, LoadError> {
    file::read_regular(path).map_err(|e| {
        // The `unreadable-file` finding, as `permc check` reports it.
        let d =
            permc_analyzer::output::unreadable_file(&path.display().to_string(), &e.to_string());
        LoadError {
            code: "unreadable",
            message: d.message.clone(),
            diagnostics: diagnostics_json(&[d], &[]),
        }
    })
}

/// Reads one rule file with `load`, refusing it when it has errors.
fn rule_file<T>(
    path: &Path,
    kind: Kind,
    load: impl Fn(&str, &[u8]) -> permc_grammar::rules::Loaded<T>,
) -> Result<T, LoadError> {
    let bytes = read(path)?;
    rule_bytes(&path.display().to_string(), &bytes, kind, load)
}

/// Reads one rule file's bytes (`name` in its diagnostics) with `load`,
/// refusing it when it has errors.
fn rule_bytes<T>(
    name: &str,
    bytes: &[u8],
    kind: Kind,
    load: impl Fn(&str, &[u8]) -> permc_grammar::rules::Loaded<T>,
) -> Result<T, LoadError> {
    let name = name.to_string();
    let loaded = load(&name, bytes);
    let rejected = loaded
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    match loaded.value {
        Some(v) if !rejected => Ok(v),
        _ => {
            let diags = every_diagnostic(&name, bytes, kind, loaded.diagnostics);
            let source = Source {
                name: name.clone(),
                text: String::from_utf8_lossy(bytes).into_owned(),
            };
            let diagnostics: Vec<Value> = diagnostics_json(&diags, &[source])
                .into_iter()
                .filter(|d| d["severity"] == "error")
                .collect();
            Err(LoadError {
                code: "rejected",
                message: format!(
                    "{name} was rejected ({} error{}): nothing is decided from a partly loaded policy",
                    diagnostics.len(),
                    if diagnostics.len() == 1 { "" } else { "s" }
                ),
                diagnostics,
            })
        }
    }
}

/// The policy of an artifact's bytes (`what` names it in the error). A
/// corrupt one is the `artifact` finding about the whole file, as `permc
/// serve` reports it.
fn artifact(bytes: &[u8], what: &str) -> Result<Policy, LoadError> {
    let loaded = permc_compiler::artifact::decode(bytes).map_err(|e| {
        let message = format!("cannot load {what}: {e}");
        let d = Diagnostic::new(
            permc_grammar::diagnostic::CheckId::Artifact,
            Severity::Error,
            what,
            permc_grammar::json::Span { start: 0, end: 0 },
            &message,
        );
        LoadError {
            code: "invalid_artifact",
            message,
            diagnostics: diagnostics_json(&[d], &[]),
        }
    })?;
    Ok(Policy::from_compiled(loaded.policy))
}

/// The compiled form of `rules`, project rows included.
pub fn compile(rules: &Rules) -> CompiledPolicy {
    permc_compiler::compile(&rules.permissions, &rules.autonomy).with_project(rules.project.clone())
}

/// permc.toml's `[[command]]` rows ([`commands::read`]), refused whole
/// (`rejected`, every diagnostic) when one has an error.
pub fn project_rows(
    name: &str,
    bytes: &[u8],
) -> Result<permc_core::facts::project::ProjectRows, LoadError> {
    let text = String::from_utf8_lossy(bytes);
    let read = commands::read(name, &text);
    if !read.has_errors() {
        return Ok(read.rows);
    }
    let source = Source {
        name: name.to_string(),
        text: text.into_owned(),
    };
    let diagnostics: Vec<Value> = diagnostics_json(&read.diagnostics, &[source])
        .into_iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    Err(LoadError {
        code: "rejected",
        message: format!(
            "{name} was rejected ({} error{} in its [[command]] rows): nothing is decided without the project's rows",
            diagnostics.len(),
            if diagnostics.len() == 1 { "" } else { "s" }
        ),
        diagnostics,
    })
}

/// A compiled policy, loaded once and then read by any number of threads.
pub struct Policy {
    compiled: CompiledPolicy,
    /// This policy among every one made in the process ([`Policy::id`]).
    id: u64,
    /// The rules (for explain and always): given when loaded from rule
    /// files, read back from the artifact on first use otherwise.
    rules: OnceLock<Result<Rules, String>>,
}

impl Policy {
    /// Loads and compiles permissions.json and autonomy.json (`None`: an
    /// empty file), as `permc decide --permissions P --autonomy A` does.
    pub fn load(permissions: Option<&Path>, autonomy: Option<&Path>) -> Result<Policy, LoadError> {
        Policy::load_with(permissions, autonomy, None)
    }

    /// [`Policy::load`] with a project config, permc.toml (`None`: no
    /// config): its `[[command]]` rows are read with the built-in
    /// catalogue by every decision; a row with an error refuses the
    /// config whole (`rejected`, with every diagnostic).
    pub fn load_with(
        permissions: Option<&Path>,
        autonomy: Option<&Path>,
        config: Option<&Path>,
    ) -> Result<Policy, LoadError> {
        let rows = match config {
            Some(path) => {
                let bytes = read(path)?;
                project_rows(&path.display().to_string(), &bytes)?
            }
            None => Default::default(),
        };
        let p = match permissions {
            Some(path) => rule_file(path, Kind::Permissions, load_permissions)?,
            None => Default::default(),
        };
        let a = match autonomy {
            Some(path) => rule_file(path, Kind::Autonomy, load_autonomy)?,
            None => Default::default(),
        };
        Ok(Policy::from_rules(Rules::new(p, a).with_project(rows)))
    }

    /// Compiles rule files held in memory: permissions.json's and
    /// autonomy.json's text (`None`: an empty file), read exactly as
    /// [`Policy::load`] reads the files; diagnostics name them
    /// `permissions.json` and `autonomy.json`.
    pub fn load_text(
        permissions: Option<&[u8]>,
        autonomy: Option<&[u8]>,
    ) -> Result<Policy, LoadError> {
        Policy::load_text_with(permissions, autonomy, None)
    }

    /// [`Policy::load_text`] with permc.toml's text (`None`: no config),
    /// named `permc.toml` in its diagnostics ([`Policy::load_with`]).
    pub fn load_text_with(
        permissions: Option<&[u8]>,
        autonomy: Option<&[u8]>,
        config: Option<&[u8]>,
    ) -> Result<Policy, LoadError> {
        let rows = match config {
            Some(bytes) => project_rows("permc.toml", bytes)?,
            None => Default::default(),
        };
        let p = match permissions {
            Some(bytes) => rule_bytes(
                "permissions.json",
                bytes,
                Kind::Permissions,
                load_permissions,
            )?,
            None => Default::default(),
        };
        let a = match autonomy {
            Some(bytes) => rule_bytes("autonomy.json", bytes, Kind::Autonomy, load_autonomy)?,
            None => Default::default(),
        };
        Ok(Policy::from_rules(Rules::new(p, a).with_project(rows)))
    }

    /// Loads an artifact (`permc compile`), refusing a corrupt, truncated
    /// or other-version one.
    pub fn load_artifact(path: &Path) -> Result<Policy, LoadError> {
        let bytes = read(path)?;
        artifact(&bytes, &path.display().to_string())
    }

    /// Loads an artifact's bytes held in memory, as [`Policy::load_artifact`].
    pub fn load_artifact_bytes(bytes: &[u8]) -> Result<Policy, LoadError> {
        artifact(bytes, "the artifact")
    }

    /// The policy compiled from read rule files (and project rows).
    pub fn from_rules(rules: Rules) -> Policy {
        Policy {
            compiled: compile(&rules),
            id: next_id(),
            rules: OnceLock::from(Ok(rules)),
        }
    }

    /// A policy over an already compiled form.
    pub fn from_compiled(compiled: CompiledPolicy) -> Policy {
        Policy {
            compiled,
            id: next_id(),
            rules: OnceLock::new(),
        }
    }

    /// The policy as an artifact's bytes (`permc compile`'s format, with
    /// no source hashes): what [`Policy::load_artifact_bytes`] loads, in
    /// another thread, worker or process.
    pub fn artifact_bytes(&self) -> Vec<u8> {
        permc_compiler::artifact::encode(&self.compiled, &Default::default())
    }

    /// The compiled form.
    pub fn compiled(&self) -> &CompiledPolicy {
        &self.compiled
    }

    /// A number no other policy of this process has, never 0: a binding
    /// that keeps an answer's strings by their keys
    /// ([`permc_compiler::compiled::Answer::rule_key`]) keeps them for
    /// one policy (a policy dropped and another made at its address has
    /// another number).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// `req`'s answer, its strings built when asked for (the compiled
    /// engine's; [`Decider::decide`] builds every one).
    pub fn answer<'a>(&'a self, req: &'a Request) -> Answer<'a> {
        permc_compiler::compiled::answer(&self.compiled, req)
    }

    /// The policy and reason of `req`'s decision alone, as names (the
    /// compiled engine's answer, whose strings — rule, source, scope
    /// root, message — are never built): the bindings' brief calls.
    pub fn brief(&self, req: &Request) -> (&'static str, Reason) {
        let a = permc_compiler::compiled::answer(&self.compiled, req);
        (a.policy.name(), a.reason)
    }

    /// The rules the policy was compiled from.
    pub fn rules(&self) -> Result<&Rules, String> {
        self.rules
            .get_or_init(|| {
                self.compiled
                    .rules()
                    .map_err(|e| format!("cannot read the rules back from the artifact: {e}"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The explanation `permc explain` prints for `req`.
    pub fn explain(&self, req: &Request) -> Result<String, String> {
        Ok(explain::explain(self.rules()?, self, req))
    }

    /// [`Policy::explain`] as data ([`explain::explain_json`]).
    pub fn explain_json(&self, req: &Request) -> Result<Value, String> {
        Ok(explain::explain_json(self.rules()?, self, req))
    }

    /// What always-allowing `req`'s action records (SPEC §7), as `permc
    /// always` without `--write` prints it.
    pub fn always(&self, req: &Request) -> Result<Value, String> {
        let rules = self.rules()?;
        Ok(always::outcome_with(
            req,
            &rules.permissions,
            &rules.project,
        ))
    }
}

/// [`Policy::id`]'s next number.
fn next_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Decider for Policy {
    fn decide(&self, req: &Request) -> Decision {
        permc_compiler::compiled::decide(&self.compiled, req)
    }
}

/// The JSON of SPEC §10.3 for one command line (`permc tokens`), with why
/// a line is unparsed (the §4.2 condition and its byte offset).
pub fn tokens_json(command: &str) -> Value {
    tokens_json_with(command, &permc_core::facts::project::ProjectRows::default())
}

/// [`tokens_json`] with a project's rows (`permc tokens --config`).
/// `unparsed` and `why` are `decide`'s (SPEC §10.3 round 4: one reading):
/// the facts both engines read, the catalogue's and the rows' conditions
/// besides the reader's, each of those with the condition `program` and
/// the offset of the line's start.
pub fn tokens_json_with(command: &str, rows: &permc_core::facts::project::ProjectRows) -> Value {
    let facts = permc_core::facts::LineFacts::of_with(command, rows);
    let line = shell::read(command);
    let segments: Vec<Value> = line
        .segments
        .iter()
        .map(|s| {
            json!({
                "words": s.words,
                "redirects": s.redirects.iter().map(|r| json!({"op": r.op, "target": r.target})).collect::<Vec<_>>(),
                "nested": s.nested,
                "context": s.context.name(),
            })
        })
        .collect();
    // Why the line is unparsed (SPEC §4.2): each condition with the byte
    // offset of its first occurrence, in the order they occur; then what
    // the facts found behind wrappers and in the catalogue's rows.
    let why: Vec<Value> = line
        .unparsed_at
        .iter()
        .map(|&(u, offset)| json!({"condition": u.name(), "offset": offset, "message": u.describe()}))
        .chain(
            facts
                .unparsed_why()
                .iter()
                .map(|m| json!({"condition": "program", "offset": 0, "message": m})),
        )
        .collect();
    json!({ "unparsed": facts.unparsed, "why": why, "segments": segments })
}

#[cfg(test)]
mod tests {
    use super::*;
    use permc_compiler::artifact::{encode, SourceHashes};

    const REQUEST: &[u8] = br#"{"action": {"type": "terminal", "command": "pnpm test"},
        "context": {"role": "developer", "projectScopeRoot": "/p"}}"#;

    fn answer(policy: &Policy) -> Vec<u8> {
        let mut out = Vec::new();
        answer::write_answer_line(policy, REQUEST, &mut out);
        out
    }

    /// Issue 43 pt 2: what the bindings load refuses a misspelled list
    /// key (`"deney"`, `"Deny"`) as the CLI does, naming its place and the
    /// key to rename; never a policy without the rules under it.
    #[test]
    fn a_misspelled_list_key_is_refused_as_the_bindings_load_it() {
        for key in ["deney", "Deny"] {
            let text =
                format!("{{\"allow\": [\"Terminal(curl)\"],\n \"{key}\": [\"Terminal(curl)\"]}}");
            let e = Policy::load_text(Some(text.as_bytes()), None)
                .err()
                .expect("rejected");
            assert_eq!(e.code, "rejected");
            let d = &e.diagnostics[0];
            assert_eq!(
                (d["check"].as_str(), d["severity"].as_str()),
                (Some("unknown-key"), Some("error"))
            );
            assert_eq!(
                (d["line"].as_u64(), d["column"].as_u64()),
                (Some(2), Some(2))
            );
            assert!(
                d["help"]
                    .as_str()
                    .is_some_and(|h| h.contains("rename it to `deny`")),
                "{d}"
            );
        }
    }

    #[test]
    fn text_and_artifact_bytes_load_as_files_do() {
        let text = br#"{"allow": ["Terminal(pnpm test)"]}"#;
        let policy = Policy::load_text(Some(text), None).expect("loads");
        assert!(answer(&policy).starts_with(br#"{"policy":"auto_approve","reason":"file.allow""#));
        let bytes = policy.artifact_bytes();
        assert_eq!(bytes, encode(policy.compiled(), &SourceHashes::default()));
        let again = Policy::load_artifact_bytes(&bytes).expect("loads");
        assert_eq!(answer(&again), answer(&policy));

        let e = Policy::load_text(Some(b"{\"allow\": [\"Nope(x)\"]}"), None)
            .err()
            .expect("rejected");
        assert_eq!(e.code, "rejected");
        assert_eq!(e.diagnostics[0]["file"], "permissions.json");
        let e = Policy::load_artifact_bytes(&bytes[..bytes.len() / 2])
            .err()
            .expect("refused");
        assert_eq!(e.code, "invalid_artifact");
        // The finding `permc serve` reports for it, about the whole file.
        let d = &e.diagnostics[0];
        assert_eq!(
            (d["check"].as_str(), d["line"].is_null()),
            (Some("artifact"), true),
            "{d}"
        );
    }
}
