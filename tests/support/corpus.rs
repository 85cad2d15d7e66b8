//! The corpus loader (shared by every engine's runner).
//!
//! `tests/corpus/*.toml`: one case a table — rules, request, expected
//! policy, reason and (optionally) deciding rule. The format is documented
//! in `tests/corpus/README.md`. Unknown keys are errors, so a typo never
//! silently drops an expectation.

#![allow(dead_code)]

use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    defaults: Option<Defaults>,
    #[serde(default)]
    case: Vec<CaseToml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Defaults {
    context: Option<toml::Table>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseToml {
    name: String,
    permissions: Option<toml::Table>,
    autonomy: Option<toml::Table>,
    action: Option<toml::Table>,
    context: Option<toml::Table>,
    request: Option<String>,
    policy: Option<String>,
    reason: Option<String>,
    rule: Option<String>,
    #[serde(default)]
    error: bool,
    /// Project rows, as permc.toml's `[[command]]` tables.
    commands: Option<Vec<toml::Table>>,
    /// permc.toml's `protected` paths (SPEC §6.4).
    protected: Option<Vec<String>>,
}

/// What a case expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// A decision.
    Decision {
        policy: String,
        reason: String,
        rule: Option<String>,
    },
    /// The request cannot be read.
    Error,
}

/// One case, ready to run.
#[derive(Debug, Clone)]
pub struct Case {
    /// `file.toml:name`.
    pub id: String,
    /// permissions.json text.
    pub permissions: String,
    /// autonomy.json text.
    pub autonomy: String,
    /// The request line.
    pub request: String,
    /// The expectation.
    pub expect: Expect,
    /// permc.toml's text holding the case's `commands` as `[[command]]`
    /// rows and its `protected` paths; empty without them.
    pub config: String,
}

/// What an engine answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// policy, reason, rule.
    Decision {
        policy: String,
        reason: String,
        rule: Option<String>,
    },
    /// An error object (its code).
    Error(String),
}

fn to_json(t: &toml::Table) -> Value {
    serde_json::to_value(t).expect("TOML converts to JSON")
}

/// The corpus directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Loads every case of every `*.toml` file, failing on malformed files.
pub fn load_all() -> Vec<Case> {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir())
        .expect("tests/corpus exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for f in files {
        cases.extend(load_file(&f));
    }
    cases
}

/// Loads one corpus file.
pub fn load_file(path: &Path) -> Vec<Case> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("?")
        .to_string();
    let text = std::fs::read_to_string(path).expect("readable corpus file");
    let file: FileToml = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let defaults = file.defaults.and_then(|d| d.context).unwrap_or_default();
    let mut seen = std::collections::HashSet::new();
    file.case
        .into_iter()
        .map(|c| {
            let id = format!("{name}:{}", c.name);
            assert!(seen.insert(c.name.clone()), "{id}: duplicate case name");
            let request = match (&c.request, &c.action) {
                (Some(raw), None) => {
                    assert!(c.context.is_none(), "{id}: `request` excludes `context`");
                    raw.clone()
                }
                (None, Some(action)) => {
                    let mut ctx = defaults.clone();
                    for (k, v) in c.context.clone().unwrap_or_default() {
                        ctx.insert(k, v);
                    }
                    serde_json::json!({"action": to_json(action), "context": to_json(&ctx)})
                        .to_string()
                }
                _ => panic!("{id}: give exactly one of `request` or `action`"),
            };
            let expect = if c.error {
                assert!(
                    c.policy.is_none() && c.reason.is_none(),
                    "{id}: error cases have no policy"
                );
                Expect::Error
            } else {
                let policy = c
                    .policy
                    .clone()
                    .unwrap_or_else(|| panic!("{id}: missing `policy`"));
                let reason = c
                    .reason
                    .clone()
                    .unwrap_or_else(|| panic!("{id}: missing `reason`"));
                assert!(
                    ["auto_approve", "require_approval", "deny"].contains(&policy.as_str()),
                    "{id}: unknown policy {policy}"
                );
                assert!(
                    permc_core::Reason::parse(&reason).is_some(),
                    "{id}: unknown reason {reason}"
                );
                Expect::Decision {
                    policy,
                    reason,
                    rule: c.rule.clone(),
                }
            };
            Case {
                id,
                permissions: c
                    .permissions
                    .as_ref()
                    .map_or("{}".into(), |t| to_json(t).to_string()),
                autonomy: c
                    .autonomy
                    .as_ref()
                    .map_or("{}".into(), |t| to_json(t).to_string()),
                request,
                expect,
                config: if c.commands.is_none() && c.protected.is_none() {
                    String::new()
                } else {
                    let mut doc = toml::Table::new();
                    if let Some(paths) = &c.protected {
                        let paths = paths.iter().cloned().map(toml::Value::String).collect();
                        doc.insert("protected".into(), toml::Value::Array(paths));
                    }
                    if let Some(rows) = &c.commands {
                        let rows = rows.iter().cloned().map(toml::Value::Table).collect();
                        doc.insert("command".into(), toml::Value::Array(rows));
                    }
                    toml::to_string(&doc).expect("rows write as TOML")
                },
            }
        })
        .collect()
}

/// Compares an answer with the case; `Err` says how they differ.
pub fn check(case: &Case, answer: &Answer) -> Result<(), String> {
    let ok = match (&case.expect, answer) {
        (Expect::Error, Answer::Error(_)) => true,
        (
            Expect::Decision {
                policy,
                reason,
                rule,
            },
            Answer::Decision {
                policy: p,
                reason: r,
                rule: got_rule,
            },
        ) => policy == p && reason == r && (rule.is_none() || rule == got_rule),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{}\n  request:  {}\n  rules:    {} {}\n  rows:     {}\n  expected: {:?}\n  got:      {:?}",
            case.id, case.request, case.permissions, case.autonomy, case.config, case.expect, answer
        ))
    }
}

/// Reads an answer from decision JSON (as the CLI prints it).
pub fn answer_from_json(v: &Value) -> Answer {
    if let Some(e) = v.get("error") {
        return Answer::Error(
            e.get("code")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
        );
    }
    Answer::Decision {
        policy: v["policy"].as_str().unwrap_or("").to_string(),
        reason: v["reason"].as_str().unwrap_or("").to_string(),
        rule: v.get("rule").and_then(Value::as_str).map(str::to_string),
    }
}

/// Runs every case through `engine`, panicking with every failure.
pub fn run_all(engine_name: &str, engine: impl Fn(&Case) -> Answer) -> usize {
    let cases = load_all();
    let mut failures = Vec::new();
    for case in &cases {
        let answer = engine(case);
        if let Err(e) = check(case, &answer) {
            failures.push(e);
        }
    }
    if !failures.is_empty() {
        panic!(
            "{engine_name}: {} of {} corpus cases failed:\n\n{}",
            failures.len(),
            cases.len(),
            failures.join("\n\n")
        );
    }
    cases.len()
}
