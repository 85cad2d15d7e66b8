//! The reference interpreter: SPEC §5 read literally.
//!
//! Linear scans over the rule lists, one function per step, the spec
//! section beside each. It never uses the compiler's structures; when the
//! compiled engine disagrees with it, the compiled engine is wrong.

use crate::decision::{Decision, Origin, Reason, RuleRef, Step};
use crate::facts::unknown::{self, Hit};
use crate::facts::{self, LineFacts, Scope};
use crate::request::Request;
use crate::Rules;
use permc_grammar::rules::{AutonomyKey, AutonomyRule, Entry};
use permc_grammar::shell::Known;
use permc_grammar::{ActionType, Policy};

/// Decides one request (SPEC §5.3).
pub fn decide(rules: &Rules, req: &Request) -> Decision {
    run(rules, req, &mut None)
}

/// Decides one request and records every step that ran, for `explain`.
pub fn explain(rules: &Rules, req: &Request) -> (Decision, Vec<Step>) {
    let mut trace = Some(Vec::new());
    let d = run(rules, req, &mut trace);
    (d, trace.unwrap_or_default())
}

/// `current` of SPEC §5.3: a policy, a reason, the deciding rule.
struct Current {
    policy: Policy,
    reason: Reason,
    rule: Option<RuleRef>,
    message: String,
}

type Trace = Option<Vec<Step>>;

fn note(trace: &mut Trace, step: &'static str, outcome: impl Into<String>) {
    if let Some(t) = trace {
        t.push(Step {
            step,
            outcome: outcome.into(),
        });
    }
}

fn entry_ref(e: &Entry) -> RuleRef {
    RuleRef {
        rule: e.pattern.text.clone(),
        source: e.location.to_string(),
    }
}

fn autonomy_ref(r: &AutonomyRule) -> RuleRef {
    RuleRef {
        rule: format!("{}: {} = {}", r.agent, r.key.name(), r.mode.name()),
        source: r.location.to_string(),
    }
}

fn run(rules: &Rules, req: &Request, trace: &mut Trace) -> Decision {
    let action = req.action.kind;
    let mut autonomy_origin = None;
    let scope_root = facts::scope_root_label(req);
    let finish = |c: Current, origin: Option<Origin>| Decision {
        policy: c.policy,
        reason: c.reason,
        rule: c.rule,
        autonomy_origin: origin,
        scope_root: scope_root.clone(),
        message: c.message,
    };

    // 1. IAM (SPEC §1, §5.3.1).
    if req.context.role < action.min_role() {
        let msg = format!(
            "{} needs the role {} or above; the requester is {}",
            action.name(),
            action.min_role(),
            req.context.role
        );
        note(trace, "1. IAM", format!("deny: {msg}"));
        return finish(deny(Reason::IamMinRole, None, msg), None);
    }
    note(
        trace,
        "1. IAM",
        format!("{} may propose {}", req.context.role, action.name()),
    );

    // Terminal facts, read once.
    let line = (action == ActionType::Terminal)
        .then(|| LineFacts::of(req.action.command.as_deref().unwrap_or("")));

    // 2. Built-in denies (SPEC §5.2).
    if let Some(f) = &line {
        if let Some(pattern) = f.builtin_deny() {
            let msg = format!("the command runs `{pattern}`, a built-in deny no file can lift");
            note(trace, "2. Built-ins", format!("deny: {msg}"));
            let rule = RuleRef {
                rule: pattern.to_string(),
                source: "builtin".to_string(),
            };
            return finish(deny(Reason::BuiltinDeny, Some(rule), msg), None);
        }
        note(trace, "2. Built-ins", "no built-in deny matches");
    }

    // 3. Base (ADR 0134).
    let mut current = if action == ActionType::Terminal
        && req.context.execution_mode == crate::request::ExecutionMode::Container
        && req.context.container_running
    {
        Current {
            policy: Policy::AutoApprove,
            reason: Reason::ContainerFloor,
            rule: None,
            message: "the command runs in the project's running container".into(),
        }
    } else {
        Current {
            policy: Policy::RequireApproval,
            reason: Reason::Default,
            rule: None,
            message: "no rule grants this action, so a person approves it".into(),
        }
    };
    note(
        trace,
        "3. Base",
        format!("{} ({})", current.policy, current.reason),
    );

    // 4. Autonomy (SPEC §2.2).
    let resolved = resolve_autonomy(rules, req.action.agent.as_deref(), action);
    let automatic = matches!(resolved, Some((Policy::AutoApprove, Origin::Wildcard, _)));
    match resolved {
        Some((mode, origin, rule)) => {
            autonomy_origin = Some(origin);
            let r = autonomy_ref(rule);
            let msg = format!(
                "the autonomy rule `{}` ({}) says {}",
                r.rule,
                origin.name(),
                mode
            );
            note(
                trace,
                "4. Autonomy",
                format!(
                    "{mode} from {} at {} (origin {})",
                    r.rule,
                    r.source,
                    origin.name()
                ),
            );
            if mode == Policy::Deny {
                return finish(deny(Reason::AutonomyDeny, Some(r), msg), autonomy_origin);
            }
            current = Current {
                policy: mode,
                reason: if mode == Policy::AutoApprove {
                    Reason::AutonomyAutoApprove
                } else {
                    Reason::AutonomyRequireApproval
                },
                rule: Some(r),
                message: msg,
            };
            if automatic {
                note(
                    trace,
                    "4. Autonomy",
                    "automatic mode: the wildcard auto_approve is in force",
                );
            }
        }
        None => note(
            trace,
            "4. Autonomy",
            "no autonomy rule for this agent and type",
        ),
    }

    // 5./6. The file.
    let file = match &line {
        None => file_typed(rules, action),
        Some(f) => {
            let scope = Scope::of(req);
            let report = scope.as_ref().map(|s| s.check(f)).unwrap_or_default();
            file_terminal(rules, f, &report.cd_inside, automatic, trace)
        }
    };
    let step = if line.is_some() {
        "6. File (terminal)"
    } else {
        "5. File"
    };
    match file {
        FileOpinion::Silent(why) => note(trace, step, format!("silent: {why}")),
        FileOpinion::Dropped(why) => note(
            trace,
            step,
            format!("{why}; automatic mode drops this opinion"),
        ),
        FileOpinion::Says(c) => {
            note(
                trace,
                step,
                format!(
                    "{} ({}){}",
                    c.policy,
                    c.reason,
                    c.rule
                        .as_ref()
                        .map(|r| format!(" by {} at {}", r.rule, r.source))
                        .unwrap_or_default()
                ),
            );
            if c.policy == Policy::Deny {
                return finish(c, autonomy_origin);
            }
            current = c;
        }
    }

    // 7. Ceilings, only over auto_approve.
    if current.policy == Policy::AutoApprove {
        if let Some((reason, msg)) = ceiling(rules, req, line.as_ref(), automatic) {
            note(trace, "7. Ceilings", format!("{reason}: {msg}"));
            let lowered = format!("{}; but {msg}, so a person approves it", current.message);
            current = Current {
                policy: Policy::RequireApproval,
                reason,
                rule: None,
                message: lowered,
            };
        } else {
            note(trace, "7. Ceilings", "no ceiling holds");
        }
    } else {
        note(
            trace,
            "7. Ceilings",
            "not reached: current is not auto_approve",
        );
    }

    // 8.
    finish(current, autonomy_origin)
}

fn deny(reason: Reason, rule: Option<RuleRef>, message: String) -> Current {
    Current {
        policy: Policy::Deny,
        reason,
        rule,
        message,
    }
}

/// SPEC §2.2: the resolved mode, its origin and the rule it came from.
fn resolve_autonomy<'r>(
    rules: &'r Rules,
    agent: Option<&str>,
    action: ActionType,
) -> Option<(Policy, Origin, &'r AutonomyRule)> {
    let agent = agent?;
    let specific = rules.autonomy.get(agent, AutonomyKey::Type(action));
    let wildcard = rules.autonomy.get(agent, AutonomyKey::Wildcard);
    match (specific, wildcard) {
        (Some(s), Some(w)) if s.mode == Policy::AutoApprove && w.mode == Policy::AutoApprove => {
            Some((Policy::AutoApprove, Origin::Wildcard, w))
        }
        (Some(s), _) => Some((s.mode, Origin::Specific, s)),
        (None, Some(w)) => Some((w.mode, Origin::Wildcard, w)),
        (None, None) => None,
    }
}

enum FileOpinion {
    Silent(String),
    Dropped(String),
    Says(Current),
}

/// SPEC §5.3.5: `Label()` in deny, then ask, then allow.
fn file_typed(rules: &Rules, action: ActionType) -> FileOpinion {
    let p = &rules.permissions;
    let first = |list: &[Entry]| {
        list.iter()
            .find(|e| e.pattern.matches_type(action))
            .map(entry_ref)
    };
    if let Some(r) = first(&p.deny) {
        let msg = format!("`{}` in deny denies every {}", r.rule, action.name());
        return FileOpinion::Says(deny(Reason::FileDeny, Some(r), msg));
    }
    if let Some(r) = first(&p.ask) {
        let msg = format!("`{}` in ask asks for every {}", r.rule, action.name());
        return FileOpinion::Says(Current {
            policy: Policy::RequireApproval,
            reason: Reason::FileAsk,
            rule: Some(r),
            message: msg,
        });
    }
    if let Some(r) = first(&p.allow) {
        let msg = format!("`{}` in allow allows every {}", r.rule, action.name());
        return FileOpinion::Says(Current {
            policy: Policy::AutoApprove,
            reason: Reason::FileAllow,
            rule: Some(r),
            message: msg,
        });
    }
    FileOpinion::Silent(format!("no `{}()` entry", action.label()))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Deny(usize),
    Ask(usize),
    Allow(usize),
    CdInScope,
    Uncovered,
}

/// The word lists deny and ask read for segment `i` (SPEC §4.3): its own
/// words, then every run read past wrappers, with what is known of them.
fn alternatives(f: &LineFacts, i: usize) -> Vec<(&[String], &[Known])> {
    let s = &f.line.segments[i];
    let mut v = vec![(s.words.as_slice(), s.known.as_slice())];
    for r in f.read_past(i) {
        v.push((r.words.as_slice(), r.known.as_slice()));
    }
    v
}

/// How entry `e` matches segment `i`, at best over its alternatives.
fn entry_hit(e: &Entry, alts: &[(&[String], &[Known])]) -> Hit {
    let Some(tokens) = e.pattern.tokens() else {
        return Hit::No;
    };
    alts.iter()
        .map(|(w, k)| unknown::hit(tokens, w, k))
        .max()
        .unwrap_or(Hit::No)
}

/// The first deny entry that matches some segment only possibly (SPEC
/// §4.4), when none matches for certain: (segment, entry).
fn possible_deny(rules: &Rules, f: &LineFacts) -> Option<(usize, usize)> {
    (0..f.line.segments.len()).find_map(|i| {
        let alts = alternatives(f, i);
        rules
            .permissions
            .deny
            .iter()
            .position(|e| entry_hit(e, &alts) == Hit::Possible)
            .map(|k| (i, k))
    })
}

/// SPEC §5.3.6: classify every segment, then combine.
fn file_terminal(
    rules: &Rules,
    f: &LineFacts,
    cd_inside: &[bool],
    automatic: bool,
    trace: &mut Trace,
) -> FileOpinion {
    let p = &rules.permissions;
    let segments = &f.line.segments;
    if segments.is_empty() {
        return FileOpinion::Silent("the command has no segment".into());
    }
    let classes: Vec<Class> = segments
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let alts = alternatives(f, i);
            // Deny needs certainty; ask acts on a possible match too;
            // allow reads the literal words only (SPEC §4.3, §4.4).
            if let Some(k) = p
                .deny
                .iter()
                .position(|e| entry_hit(e, &alts) == Hit::Certain)
            {
                Class::Deny(k)
            } else if let Some(k) = p.ask.iter().position(|e| entry_hit(e, &alts) != Hit::No) {
                Class::Ask(k)
            } else if let Some(k) = p
                .allow
                .iter()
                .position(|e| e.pattern.matches_words(&s.words))
            {
                Class::Allow(k)
            } else if cd_inside.get(i).copied().unwrap_or(false) {
                Class::CdInScope
            } else {
                Class::Uncovered
            }
        })
        .collect();
    let show = |i: usize| segments[i].words.join(" ");
    if trace.is_some() {
        for (i, c) in classes.iter().enumerate() {
            let class = match c {
                Class::Deny(k) => format!(
                    "deny by {} at {}",
                    p.deny[*k].pattern.text, p.deny[*k].location
                ),
                Class::Ask(k) => format!(
                    "ask by {} at {}",
                    p.ask[*k].pattern.text, p.ask[*k].location
                ),
                Class::Allow(k) => format!(
                    "allow by {} at {}",
                    p.allow[*k].pattern.text, p.allow[*k].location
                ),
                Class::CdInScope => "cd-in-scope".to_string(),
                Class::Uncovered => "uncovered".to_string(),
            };
            note(
                trace,
                "6. Segment",
                format!("{}. `{}`: {class}", i + 1, show(i)),
            );
        }
    }
    if let Some((i, k)) = classes.iter().enumerate().find_map(|(i, c)| match c {
        Class::Deny(k) => Some((i, *k)),
        _ => None,
    }) {
        let r = entry_ref(&p.deny[k]);
        let msg = format!("`{}` is denied by `{}` ({})", show(i), r.rule, r.source);
        return FileOpinion::Says(deny(Reason::FileDeny, Some(r), msg));
    }
    if classes
        .iter()
        .all(|c| matches!(c, Class::Allow(_) | Class::CdInScope))
    {
        let allowed = classes.iter().find_map(|c| match c {
            Class::Allow(k) => Some(*k),
            _ => None,
        });
        return FileOpinion::Says(match allowed {
            Some(k) => {
                let r = entry_ref(&p.allow[k]);
                let msg = format!(
                    "every segment is allowed by {} (first: `{}`)",
                    p_file(rules),
                    r.rule
                );
                Current {
                    policy: Policy::AutoApprove,
                    reason: Reason::FileAllow,
                    rule: Some(r),
                    message: msg,
                }
            }
            None => Current {
                policy: Policy::AutoApprove,
                reason: Reason::ScopeCd,
                rule: None,
                message: "every segment is a `cd` inside the scope".into(),
            },
        });
    }
    if classes.iter().all(|c| *c == Class::Uncovered) {
        return FileOpinion::Silent("no pattern matches any segment".into());
    }
    if let Some((i, k)) = classes.iter().enumerate().find_map(|(i, c)| match c {
        Class::Ask(k) => Some((i, *k)),
        _ => None,
    }) {
        let r = entry_ref(&p.ask[k]);
        let msg = format!(
            "`{}` is in ask (`{}`, {}): a written ask always asks",
            show(i),
            r.rule,
            r.source
        );
        return FileOpinion::Says(Current {
            policy: Policy::RequireApproval,
            reason: Reason::FileAsk,
            rule: Some(r),
            message: msg,
        });
    }
    let uncovered = classes
        .iter()
        .position(|c| *c == Class::Uncovered)
        .map(show)
        .unwrap_or_default();
    let msg = format!("some segments are allowed but `{uncovered}` is not covered by any rule");
    if automatic {
        return FileOpinion::Dropped(msg);
    }
    FileOpinion::Says(Current {
        policy: Policy::RequireApproval,
        reason: Reason::CompoundUncovered,
        rule: None,
        message: msg,
    })
}

fn p_file(rules: &Rules) -> String {
    let f = &rules.permissions.file;
    let base = f.rsplit('/').next().unwrap_or(f);
    if base.is_empty() {
        "permissions.json".into()
    } else {
        base.to_string()
    }
}

/// SPEC §5.3.7: the first ceiling that holds, with a phrase for people.
fn ceiling(
    rules: &Rules,
    req: &Request,
    line: Option<&LineFacts>,
    automatic: bool,
) -> Option<(Reason, String)> {
    let action = req.action.kind;
    if let Some(f) = line {
        // 7.0: a built-in or a deny pattern that matches only possibly.
        if let Some(r) = f.builtin_possible() {
            return Some((Reason::UnknownWord, facts::possible_builtin_phrase(r)));
        }
        if let Some((i, k)) = possible_deny(rules, f) {
            let rule = &rules.permissions.deny[k].pattern.text;
            return Some((Reason::UnknownWord, facts::possible_deny_phrase(f, i, rule)));
        }
        if let Some(e) = f.external_effect() {
            return Some((
                Reason::CeilingExternalEffect,
                format!("`{}` has an effect outside the machine", e.join(" ")),
            ));
        }
        if let Some(r) = f.privileged() {
            let verb = r.privileged_via.unwrap_or("sudo");
            return Some((
                Reason::CeilingPrivileged,
                format!("the command runs privileged (`{verb}`)"),
            ));
        }
        if f.unparsed {
            return Some((Reason::CeilingUnparsed, facts::unparsed_phrase(f)));
        }
    }
    match action {
        ActionType::GitPush | ActionType::PrOpen => {
            return Some((
                Reason::CeilingTypedExternal,
                format!("{} has an effect outside the machine", action.name()),
            ))
        }
        ActionType::GitMerge if facts::protected_branch(req.action.target_branch.as_deref()) => {
            let t = req.action.target_branch.as_deref().unwrap_or("(no target)");
            return Some((
                Reason::CeilingProtectedMerge,
                format!("the merge targets the protected branch `{t}`"),
            ));
        }
        ActionType::InstructionPatch => {
            return Some((
                Reason::CeilingInstructionPatch,
                "instruction patches are always reviewed".into(),
            ))
        }
        ActionType::Parallelize | ActionType::RaiseMaxParallel => {
            return Some((
                Reason::CeilingParallelism,
                "parallelism changes are always reviewed".into(),
            ))
        }
        ActionType::ContainerRemove => {
            return Some((
                Reason::CeilingContainerRemove,
                "removing a container is always reviewed".into(),
            ))
        }
        _ => {}
    }
    if let Some(f) = line {
        if !automatic {
            if let Some(scope) = Scope::of(req) {
                if let Some(w) = scope.check(f).outside {
                    return Some((
                        Reason::CeilingScope,
                        format!("`{w}` is outside the project scope"),
                    ));
                }
            }
        }
    }
    None
}
