//! The analyzer against the reference interpreter (cedar-style): every
//! "this entry never takes effect" finding on the fixtures is replayed as
//! requests — the entry's own words, a wildcard filled in, a word appended
//! — and the reference interpreter must decide what the finding claims:
//! `shadowed-by-deny` → deny; `shadowed-by-ask` → require_approval by
//! `file.ask`; `neutralized-by-ceiling` → require_approval by the ceiling
//! it names.

use permc_analyzer::{check_file, Kind, Options};
use permc_core::always::render_words;
use permc_core::request::{Action, Context, ExecutionMode, Request};
use permc_core::{reference, Rules};
use permc_grammar::diagnostic::Diagnostic;
use permc_grammar::pattern::{PatToken, PatternBody};
use permc_grammar::rules::{load_autonomy, load_permissions, Entry};
use permc_grammar::{ActionType, Policy, Role};
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/check")
}

/// Commands an entry matches: its words, a wildcard filled in with a
/// letter no pattern continues with, and one more word.
fn commands(tokens: &[PatToken]) -> Vec<String> {
    let words: Vec<String> = tokens
        .iter()
        .map(|t| match t {
            PatToken::Exact(x) => x.clone(),
            PatToken::Prefix(p) => format!("{p}Q"),
        })
        .collect();
    let mut more = words.clone();
    more.push("extra".into());
    [words, more]
        .iter()
        .filter_map(|w| render_words(w))
        .collect()
}

fn request(kind: ActionType, command: Option<String>) -> Request<'static> {
    Request {
        action: Action {
            kind,
            command: command.map(Into::into),
            cwd: None,
            agent: None,
            target_branch: Some("feature/x".into()),
            path: None,
        },
        context: Context {
            role: Role::Owner,
            execution_mode: ExecutionMode::Container,
            container_running: true,
            project_scope_root: Some("/home/ana/loja".into()),
        },
    }
}

/// The entry a finding points at.
fn entry_at<'a>(entries: &'a [&'a Entry], d: &Diagnostic) -> Option<&'a Entry> {
    entries.iter().copied().find(|e| e.span == d.span)
}

#[test]
fn findings_agree_with_the_reference_interpreter() {
    let mut replayed = 0;
    for dir in std::fs::read_dir(fixtures()).expect("fixtures") {
        let dir = dir.expect("entry").path();
        let perms_path = dir.join("permissions.json");
        let Ok(bytes) = std::fs::read(&perms_path) else {
            continue;
        };
        let Some(perms) = load_permissions("permissions.json", &bytes).value else {
            continue;
        };
        let autonomy = std::fs::read(dir.join("autonomy.json"))
            .ok()
            .and_then(|b| load_autonomy("autonomy.json", &b).value)
            .unwrap_or_default();
        let rules = Rules::new(perms.clone(), autonomy);
        let entries: Vec<&Entry> = perms.entries().collect();
        let diags = check_file(
            "permissions.json",
            &bytes,
            Some(Kind::Permissions),
            &Options::default(),
        );
        for d in &diags {
            let Some(e) = entry_at(&entries, d) else {
                continue;
            };
            let reqs: Vec<Request> = match (&e.pattern.body, e.pattern.action) {
                (PatternBody::Any, t) if t != ActionType::Terminal => vec![request(t, None)],
                (PatternBody::Tokens(tokens), ActionType::Terminal) => commands(tokens)
                    .into_iter()
                    .map(|c| request(ActionType::Terminal, Some(c)))
                    .collect(),
                _ => continue,
            };
            for req in reqs {
                let decision = reference::decide(&rules, &req);
                let what = format!(
                    "{}: `{}` as {:?}: {decision:?}",
                    d.check, e.pattern.text, req.action.command
                );
                match d.check.name() {
                    "shadowed-by-deny" => assert_eq!(decision.policy, Policy::Deny, "{what}"),
                    "shadowed-by-ask" => {
                        assert_eq!(decision.policy, Policy::RequireApproval, "{what}");
                        assert_eq!(decision.reason.name(), "file.ask", "{what}");
                    }
                    "neutralized-by-ceiling" => {
                        assert_eq!(decision.policy, Policy::RequireApproval, "{what}");
                        assert!(
                            d.message.contains(&format!("`{}`", decision.reason.name())),
                            "{what}"
                        );
                    }
                    _ => continue,
                }
                replayed += 1;
            }
        }
    }
    assert!(replayed > 40, "only {replayed} requests replayed");
}
