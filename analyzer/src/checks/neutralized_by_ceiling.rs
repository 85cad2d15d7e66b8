//! ## What it does
//! Reports an allow entry, or an autonomy `auto_approve`, that a ceiling
//! (SPEC §5 step 7) always lowers to `require_approval`:
//! - Terminal entries whose words already run an external-effect command
//!   (SPEC §6.1: `Terminal(git push)`, `Terminal(kubectl apply)`,
//!   `Terminal(gh pr create)`, also behind wrappers and git's global
//!   options) or a privileged one (`Terminal(sudo)`, `doas`, `su`,
//!   `pkexec`, `run0`) — `ceiling.external_effect`, `ceiling.privileged`;
//! - `GitPush()`, `PrOpen()`, `InstructionPatch()`, `Parallelize()`,
//!   `RaiseMaxParallel()`, `ContainerRemove()` in allow, and
//!   `auto_approve` for their types in autonomy.json — the typed ceilings;
//! - Terminal entries with an absolute path that is outside the scope in
//!   every mode: outside `/work`, `/tmp` and the project folder (given
//!   with `--project-root`) — `ceiling.scope`, which lowers them except in
//!   automatic mode;
//! - Terminal entries whose words already name a protected path (SPEC
//!   §6.4) in every match, wherever they run: a program that may write
//!   given a `.git` component or a rule file's name (`Terminal(tee
//!   .git/config)`, `Terminal(cp x permissions.json)`), `git config` that
//!   sets a key (`Terminal(git config user.name bot)`) —
//!   `ceiling.protected_path`, which lowers them in every mode.
//!
//! It uses the runtime's own tables and readings (`permc_core::facts`)
//! and, for the typed ceilings, asks the reference interpreter itself, so
//! it cannot drift from what `decide` does. `GitMerge()` is not reported:
//! the protected-merge ceiling lowers only merges into `dev`, `qa`, `rc`
//! and `main` (and merges with no target), so the entry still
//! auto-approves merges into other branches. Entries that are denied or
//! asked for anyway are left to `shadowed-by-deny` and `shadowed-by-ask`.
//!
//! ## Why is this bad?
//! The entry reads like "this is auto-approved", yet every action it
//! matches still waits for a person. Whoever reads the file is misled
//! about what the agent can do alone; `ask` says what really happens.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(git push)", "GitPush()", "Terminal(cat /etc/hosts)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"ask": ["Terminal(git push)", "GitPush()"], "allow": ["Terminal(cat)"]}
//! ```

use super::{entries, Check, BUILTIN};
use crate::analysis::{exact_prefix, facts_of_words, facts_of_words_with, may_run_table_verb};
use crate::FileContext;
use permc_core::facts::project::ProjectRows;
use permc_core::facts::{normalize, protected, Scope, DEV_FILES};
use permc_core::request::{Action, Context, ExecutionMode, Request};
use permc_core::{phrases, reference, Reason, Rules};
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::json::Span;
use permc_grammar::pattern::{PatToken, PatternBody};
use permc_grammar::rules::{load_permissions, Autonomy, AutonomyKey, Entry, List};
use permc_grammar::{ActionType, Policy, Role};
use std::borrow::Cow;
use std::sync::OnceLock;

/// `neutralized-by-ceiling`.
pub const CHECK: Check = Check {
    id: CheckId::NeutralizedByCeiling,
    severity: Severity::Warning,
    file: "neutralized_by_ceiling.rs",
    source: include_str!("neutralized_by_ceiling.rs"),
    run,
};

/// The ceiling that always lowers an auto-approved action of type `t`,
/// found by asking the reference interpreter: the type allowed by `Label()`,
/// proposed by an owner, merging (for git_merge) into a branch no ceiling
/// protects. A ceiling that still lowers it lowers every such action.
fn typed_ceiling(t: ActionType) -> Option<Reason> {
    static TABLE: OnceLock<Vec<Option<Reason>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| ActionType::ALL.iter().map(|&t| ask_reference(t)).collect());
    table.get(t.index()).copied().flatten()
}

fn ask_reference(t: ActionType) -> Option<Reason> {
    let json = format!(r#"{{"allow": ["{}()"]}}"#, t.label());
    let perms = load_permissions("<analyzer>", json.as_bytes()).value?;
    let rules = Rules::new(perms, Autonomy::default());
    let req = Request {
        action: Action {
            kind: t,
            command: None,
            cwd: None,
            agent: None,
            target_branch: Some("permc-analyzer/unprotected".into()),
            path: None,
        },
        context: Context {
            role: Role::Owner,
            execution_mode: ExecutionMode::Runner,
            container_running: false,
            project_scope_root: None,
        },
    };
    let d = reference::decide(&rules, &req);
    (d.policy == Policy::RequireApproval && d.reason.name().starts_with("ceiling."))
        .then_some(d.reason)
}

/// A ceiling that lowers every match of a Terminal entry: its reason and
/// a phrase saying why.
fn terminal_ceiling(
    tokens: &[PatToken],
    project_root: Option<&str>,
    rows: &ProjectRows,
) -> Option<(&'static str, String)> {
    // Every match starts with the leading exact words; running an
    // external-effect or privileged command is kept by appending words.
    let words = exact_prefix(tokens);
    table_ceiling(&words, rows)
        .or_else(|| protected_ceiling(&words))
        .or_else(|| scope_ceiling(tokens, project_root))
}

/// The external-effect and privileged ceilings (the catalogue's tables,
/// then the project's rows) of every match starting with `words`.
fn table_ceiling(words: &[String], rows: &ProjectRows) -> Option<(&'static str, String)> {
    // A project row may name any word: with rows, every entry is read.
    let facts = if may_run_table_verb(words) || !rows.is_empty() {
        facts_of_words_with(words, rows)
    } else {
        None
    };
    if let Some(facts) = facts {
        if let Some(e) = facts.external_effect() {
            return Some((
                Reason::CeilingExternalEffect.name(),
                phrases::external_effect_entry(e),
            ));
        }
        if let Some(r) = facts.privileged() {
            let verb = r
                .words
                .first()
                .map_or(permc_core::facts::PRIVILEGED_SHOWN, |w| &**w);
            let how = if words.first().is_some_and(|w| w == verb) {
                phrases::verb_runs_privileged(verb)
            } else {
                phrases::RUNS_PRIVILEGED_BEHIND_WRAPPER.to_string()
            };
            return Some((Reason::CeilingPrivileged.name(), how));
        }
        // The project's own rows (permc.toml's `[[command]]`).
        if let Some(name) = facts.project_external() {
            return Some((
                Reason::CeilingExternalEffect.name(),
                phrases::project_external(name),
            ));
        }
        if let Some(name) = facts.project_privileged() {
            return Some((
                Reason::CeilingPrivileged.name(),
                phrases::project_privileged(name),
            ));
        }
    }
    None
}

/// A protected path every match starting with `words` names, from
/// whatever folder below the root it runs (a glob names the rule files
/// only from the root).
fn protected_ceiling(words: &[String]) -> Option<(&'static str, String)> {
    if let Some(facts) = facts_of_words(words) {
        let below_root = Scope {
            roots: vec![Cow::Borrowed("/work"), Cow::Borrowed("/tmp")].into(),
            cwd: "/work/permc-analyzer".into(),
        };
        // The entry itself names what it matches: a wholesale move of the
        // worktree it names (`Terminal(git stash)`, `Terminal(git switch)`)
        // is lifted by it (SPEC §6.4 round 4), when the entry's words reach
        // past the program and subcommand path the move needs.
        let named = |_: &[Cow<'_, str>], needed: usize| words.len() >= needed;
        if let Some(shown) = protected::protected_path_lifted(&facts, &below_root, &named) {
            return Some((
                Reason::CeilingProtectedPath.name(),
                phrases::protected_path(&shown),
            ));
        }
    }
    None
}

/// The scope: an exact absolute path among the tokens, outside every
/// mode's roots.
fn scope_ceiling(
    tokens: &[PatToken],
    project_root: Option<&str>,
) -> Option<(&'static str, String)> {
    let mut roots = vec![Cow::Borrowed("/work"), Cow::Borrowed("/tmp")];
    roots.extend(project_root.map(|r| Cow::Owned(normalize(r))));
    let scope = Scope {
        roots: roots.into(),
        cwd: "/work".into(),
    };
    for t in tokens {
        let PatToken::Exact(w) = t else { continue };
        let value = w
            .strip_prefix('-')
            .and_then(|_| w.split_once('='))
            .map(|(_, v)| v);
        for path in [Some(w.as_str()), value].into_iter().flatten() {
            if !path.starts_with('/') {
                continue;
            }
            let p = normalize(path);
            if !scope.contains(&p) && !DEV_FILES.contains(&p.as_str()) {
                let roots = if project_root.is_some() {
                    "/work, /tmp or the project folder"
                } else {
                    "/work or /tmp, and no --project-root was given"
                };
                return Some((
                    Reason::CeilingScope.name(),
                    phrases::outside_scope_every_mode(path, roots),
                ));
            }
        }
    }
    None
}

fn ceiling_related(reason: &str, why: &str) -> (String, String) {
    (
        BUILTIN.to_string(),
        format!("`{reason}` (SPEC §5 step 7): {why}"),
    )
}

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    for e in entries(cx) {
        if e.list != List::Allow {
            continue;
        }
        if let Some(a) = cx.analysis {
            if a.denied(e).is_some() || a.asked(e).is_some() {
                continue;
            }
        }
        if let Some(d) = entry_finding(cx, e) {
            out.push(d);
        }
    }
    if let Some(auto) = cx.autonomy {
        for r in &auto.rules {
            let AutonomyKey::Type(t) = r.key else {
                continue;
            };
            if r.mode != Policy::AutoApprove {
                continue;
            }
            let Some(reason) = typed_ceiling(t) else {
                continue;
            };
            let (file, note) = ceiling_related(
                reason.name(),
                &format!("every {} waits for a person", t.name()),
            );
            out.push(
                Diagnostic::new(
                    CHECK.id,
                    CHECK.severity,
                    cx.name,
                    Span {
                        start: r.key_span.start,
                        end: r.span.end,
                    },
                    format!(
                        "`{}: auto_approve` for agent `{}` never auto-approves: the ceiling `{}` lowers every {} to require_approval",
                        t.name(),
                        r.agent,
                        reason.name(),
                        t.name()
                    ),
                )
                .with_help("write `require_approval`, which says what really happens")
                .with_related(&file, Span::default(), note),
            );
        }
    }
}

/// Does this check report the allow entry `e` (a ceiling always lowers
/// it)? For `undescribed-program`, which leaves such an entry to it.
pub(crate) fn reports(cx: &FileContext<'_>, e: &Entry) -> bool {
    entry_finding(cx, e).is_some()
}

fn entry_finding(cx: &FileContext<'_>, e: &Entry) -> Option<Diagnostic> {
    let text = &e.pattern.text;
    let (reason, why, help) = match (&e.pattern.body, e.pattern.action) {
        (PatternBody::Any, t) if t != ActionType::Terminal => {
            let reason = typed_ceiling(t)?;
            (
                reason.name(),
                format!("every {} waits for a person", t.name()),
                format!("move `{text}` to ask, which says what really happens"),
            )
        }
        (PatternBody::Tokens(tokens), ActionType::Terminal) => {
            let (reason, why) = terminal_ceiling(
                tokens,
                cx.options.project_root.as_deref(),
                &cx.options.commands,
            )?;
            let help = if reason == Reason::CeilingScope.name() {
                "use a path inside the project, pass --project-root if this is the project folder, or move it to ask".to_string()
            } else {
                format!("move `{text}` to ask, which says what really happens")
            };
            (reason, why, help)
        }
        _ => return None,
    };
    let (file, note) = ceiling_related(reason, &why);
    Some(
        Diagnostic::new(
            CHECK.id,
            CHECK.severity,
            cx.name,
            e.span,
            if reason == Reason::CeilingScope.name() {
                format!("`{text}` in allow auto-approves nothing outside automatic mode: the ceiling `{reason}` lowers every match to require_approval")
            } else {
                format!("`{text}` in allow never auto-approves: the ceiling `{reason}` lowers every match to require_approval")
            },
        )
        .with_help(help)
        .with_related(&file, Span::default(), note),
    )
}
