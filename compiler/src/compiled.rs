//! The compiled engine: SPEC §5.3 over a [`CompiledPolicy`].
//!
//! It runs the action type's program (the stages the compiler kept, in the
//! order of the stage DAG) over precomputed tables: the token-prefix trie
//! for terminal segments, the first `Label()` entry per type, the resolved
//! autonomy per (agent, type). The per-request facts — wrappers, built-ins,
//! external effect, privileged, unparsed, scope — come from [`permc_core::facts`],
//! shared with the reference interpreter; each is read once per request,
//! and the scope only when a stage needs it.
//!
//! It answers exactly like [`permc_core::reference`]: the same policy, reason,
//! deciding rule (text and `file:line:col`), autonomy origin and scope root
//! (tested by the corpus, a differential property test, an exhaustive small
//! universe and the artifact round trip).

use crate::dag::Stage;
use crate::matcher::{ALLOW, ASK, DENY, NONE};
use crate::{CompiledPolicy, Resolved};
use permc_core::decision::{Decision, Origin, Reason, RuleRef};
use permc_core::facts::{self, LineFacts, Scope, ScopeReport};
use permc_core::request::{ExecutionMode, Request};
use permc_grammar::shell::Known;
use permc_grammar::{ActionType, Policy};
use std::borrow::Cow;

/// `current` of SPEC §5.3.
struct Current {
    policy: Policy,
    reason: Reason,
    rule: Option<RuleRef>,
    message: Cow<'static, str>,
    /// Set when an autonomy rule made `current` and its strings are not
    /// built yet: most of the time the file stage replaces it, so the rule
    /// text, source and message are built only when they are returned or
    /// quoted by a ceiling.
    autonomy: Option<(Resolved, Origin)>,
}

impl Current {
    fn new(
        policy: Policy,
        reason: Reason,
        rule: Option<RuleRef>,
        message: impl Into<Cow<'static, str>>,
    ) -> Current {
        Current {
            policy,
            reason,
            rule,
            message: message.into(),
            autonomy: None,
        }
    }

    /// Builds the strings of a pending autonomy rule.
    fn materialize(&mut self, p: &CompiledPolicy) {
        if let Some((r, o)) = self.autonomy.take() {
            let rule = RuleRef {
                rule: p.autonomy_rule_text(r.rule),
                source: p.autonomy_rule_source(r.rule),
            };
            self.message = [
                "the autonomy rule `",
                rule.rule.as_str(),
                "` (",
                o.name(),
                ") says ",
                r.mode.name(),
            ]
            .concat()
            .into();
            self.rule = Some(rule);
        }
    }
}

fn entry_ref(p: &CompiledPolicy, list: usize, k: u32) -> RuleRef {
    p.entry_rule(list, k)
}

/// The scope reading, computed at most once per request, when first needed.
struct LazyScope<'r> {
    req: &'r Request,
    report: Option<Option<ScopeReport>>,
}

impl LazyScope<'_> {
    fn get(&mut self, line: &LineFacts) -> Option<&ScopeReport> {
        let req = self.req;
        self.report
            .get_or_insert_with(|| Scope::of(req).map(|s| s.check(line)))
            .as_ref()
    }
}

/// Decides one request over a compiled policy (SPEC §5.3).
pub fn decide(p: &CompiledPolicy, req: &Request) -> Decision {
    let action = req.action.kind;
    let scope_root = facts::scope_root_label(req);
    let finish = |mut c: Current, origin: Option<Origin>| {
        c.materialize(p);
        Decision {
            policy: c.policy,
            reason: c.reason,
            rule: c.rule,
            autonomy_origin: origin,
            scope_root,
            message: c.message.into_owned(),
        }
    };
    let program = p.program(action);
    // Fail closed: a policy without a program for the type (its stage graph
    // failed its check) never approves anything. Compiled and loaded
    // policies always have one.
    let mut current = Current::new(
        Policy::RequireApproval,
        Reason::Default,
        None,
        "no rule grants this action, so a person approves it",
    );
    let mut origin = None;
    let mut automatic = false;
    let mut line: Option<LineFacts> = None;
    let mut scope = LazyScope { req, report: None };
    // The first possible-only deny match (segment, entry), once the file
    // stage has looked (SPEC §4.4, step 7.0).
    let mut possible: Option<Option<(usize, u32)>> = None;

    for &stage in program {
        match stage {
            // 1. IAM (SPEC §1).
            Stage::Iam if req.context.role < action.min_role() => {
                let msg = format!(
                    "{} needs the role {} or above; the requester is {}",
                    action.name(),
                    action.min_role(),
                    req.context.role
                );
                return finish(deny(Reason::IamMinRole, None, msg), None);
            }
            Stage::Iam => {}
            // 2. Built-in denies (SPEC §5.2).
            Stage::Builtins => {
                let f = line_of(&mut line, req);
                if let Some(pattern) = f.builtin_deny() {
                    let msg =
                        format!("the command runs `{pattern}`, a built-in deny no file can lift");
                    let rule = RuleRef {
                        rule: pattern.to_string(),
                        source: "builtin".to_string(),
                    };
                    return finish(deny(Reason::BuiltinDeny, Some(rule), msg), None);
                }
            }
            // 3. Base (ADR 0134).
            Stage::Base
                if action == ActionType::Terminal
                    && req.context.execution_mode == ExecutionMode::Container
                    && req.context.container_running =>
            {
                current = Current::new(
                    Policy::AutoApprove,
                    Reason::ContainerFloor,
                    None,
                    "the command runs in the project's running container",
                );
            }
            Stage::Base => {}
            // 4. Autonomy (SPEC §2.2), precomputed per (agent, type).
            Stage::Autonomy => {
                if let Some(r) = p.resolve_autonomy(req.action.agent.as_deref(), action) {
                    let o = r.origin;
                    origin = Some(o);
                    automatic = r.mode == Policy::AutoApprove && o == Origin::Wildcard;
                    let reason = match r.mode {
                        Policy::Deny => Reason::AutonomyDeny,
                        Policy::AutoApprove => Reason::AutonomyAutoApprove,
                        Policy::RequireApproval => Reason::AutonomyRequireApproval,
                    };
                    current = Current::new(r.mode, reason, None, "");
                    current.autonomy = Some((r, o));
                    if r.mode == Policy::Deny {
                        return finish(current, origin);
                    }
                }
            }
            // 5. The file, non-terminal.
            Stage::FileTyped => {
                if let Some(c) = file_typed(p, action) {
                    if c.policy == Policy::Deny {
                        return finish(c, origin);
                    }
                    current = c;
                }
            }
            // 6. The file, terminal.
            Stage::FileTerminal => {
                let f = line_of(&mut line, req);
                if let Some(c) = file_terminal(p, f, &mut scope, automatic, &mut possible) {
                    if c.policy == Policy::Deny {
                        return finish(c, origin);
                    }
                    current = c;
                }
            }
            // 7. Ceilings, only over auto_approve; the first that holds.
            ceiling if current.policy == Policy::AutoApprove => {
                if let Some((reason, msg)) = ceiling_holds(
                    p,
                    ceiling,
                    req,
                    &mut line,
                    &mut scope,
                    automatic,
                    &mut possible,
                ) {
                    current.materialize(p);
                    let message = [
                        current.message.as_ref(),
                        "; but ",
                        msg.as_str(),
                        ", so a person approves it",
                    ]
                    .concat();
                    current = Current::new(Policy::RequireApproval, reason, None, message);
                }
            }
            _ => {}
        }
    }
    // 8.
    finish(current, origin)
}

fn line_of<'l>(line: &'l mut Option<LineFacts>, req: &Request) -> &'l LineFacts {
    line.get_or_insert_with(|| LineFacts::of(req.action.command.as_deref().unwrap_or("")))
}

fn deny(reason: Reason, rule: Option<RuleRef>, message: String) -> Current {
    Current::new(Policy::Deny, reason, rule, message)
}

/// SPEC §5.3 step 5 from the precomputed first `Label()` per list.
fn file_typed(p: &CompiledPolicy, action: ActionType) -> Option<Current> {
    let m = p.typed_matches(action);
    let name = action.name();
    if m[DENY] != NONE {
        let r = entry_ref(p, DENY, m[DENY]);
        let msg = format!("`{}` in deny denies every {name}", r.rule);
        return Some(deny(Reason::FileDeny, Some(r), msg));
    }
    if m[ASK] != NONE {
        let r = entry_ref(p, ASK, m[ASK]);
        let msg = format!("`{}` in ask asks for every {name}", r.rule);
        return Some(Current::new(
            Policy::RequireApproval,
            Reason::FileAsk,
            Some(r),
            msg,
        ));
    }
    if m[ALLOW] != NONE {
        let r = entry_ref(p, ALLOW, m[ALLOW]);
        let msg = format!("`{}` in allow allows every {name}", r.rule);
        return Some(Current::new(
            Policy::AutoApprove,
            Reason::FileAllow,
            Some(r),
            msg,
        ));
    }
    None
}

/// SPEC §5.3 step 6 in one pass over the segments: each segment's first
/// deny/ask/allow entry from the trie; `cd` in scope only for segments no
/// pattern covers. `None` = silent (or dropped in automatic mode).
fn file_terminal(
    p: &CompiledPolicy,
    f: &LineFacts,
    scope: &mut LazyScope<'_>,
    automatic: bool,
    possible: &mut Option<Option<(usize, u32)>>,
) -> Option<Current> {
    let segments = &f.line.segments;
    let mut first_ask: Option<(usize, u32)> = None;
    let mut first_allow: Option<u32> = None;
    let mut first_uncovered: Option<usize> = None;
    let mut any_covered = false;
    let mut first_possible: Option<(usize, u32)> = None;
    for (i, s) in segments.iter().enumerate() {
        let m = segment_matches(p, f, i);
        if m.deny != NONE {
            // The first denied segment decides (SPEC §5.3 step 6).
            let r = entry_ref(p, DENY, m.deny);
            let msg = format!(
                "`{}` is denied by `{}` ({})",
                s.words.join(" "),
                r.rule,
                r.source
            );
            return Some(deny(Reason::FileDeny, Some(r), msg));
        }
        if m.possible_deny != NONE && first_possible.is_none() {
            first_possible = Some((i, m.possible_deny));
        }
        if m.ask != NONE {
            first_ask.get_or_insert((i, m.ask));
            any_covered = true;
        } else if m.allow != NONE {
            first_allow.get_or_insert(m.allow);
            any_covered = true;
        } else if facts::cd_target(&s.words).is_some()
            // Only a `cd` segment can be cd-in-scope: the scope is read
            // for it alone, so a line with no uncovered `cd` may never
            // need the scope at all.
            && scope
                .get(f)
                .and_then(|r| r.cd_inside.get(i).copied())
                .unwrap_or(false)
        {
            any_covered = true;
        } else {
            first_uncovered.get_or_insert(i);
        }
    }
    *possible = Some(first_possible);
    if !any_covered {
        // No segment, or every segment uncovered: silent.
        return None;
    }
    if first_ask.is_none() && first_uncovered.is_none() {
        return Some(match first_allow {
            Some(k) => {
                let r = entry_ref(p, ALLOW, k);
                let msg = [
                    "every segment is allowed by ",
                    p.permissions_name(),
                    " (first: `",
                    r.rule.as_str(),
                    "`)",
                ]
                .concat();
                Current::new(Policy::AutoApprove, Reason::FileAllow, Some(r), msg)
            }
            None => Current::new(
                Policy::AutoApprove,
                Reason::ScopeCd,
                None,
                "every segment is a `cd` inside the scope",
            ),
        });
    }
    if let Some((i, k)) = first_ask {
        let r = entry_ref(p, ASK, k);
        let msg = format!(
            "`{}` is in ask (`{}`, {}): a written ask always asks",
            segments[i].words.join(" "),
            r.rule,
            r.source
        );
        return Some(Current::new(
            Policy::RequireApproval,
            Reason::FileAsk,
            Some(r),
            msg,
        ));
    }
    if automatic {
        // RN-603: automatic mode drops the synthesized compound opinion.
        return None;
    }
    let uncovered = first_uncovered
        .map(|i| segments[i].words.join(" "))
        .unwrap_or_default();
    Some(Current::new(
        Policy::RequireApproval,
        Reason::CompoundUncovered,
        None,
        format!("some segments are allowed but `{uncovered}` is not covered by any rule"),
    ))
}

/// How the entries of the trie match segment `i` (SPEC §4.3, §4.4).
struct SegmentMatch {
    /// The first deny entry that matches for certain.
    deny: u32,
    /// The first deny entry that matches only possibly (when `deny` is
    /// none).
    possible_deny: u32,
    /// The first ask entry that matches certainly or possibly.
    ask: u32,
    /// The first allow entry that matches the literal words.
    allow: u32,
}

/// One trie lookup of the literal words; a second of each run read past
/// wrappers, only when its words differ; a walk over unknown words only
/// when the segment or its runs hold one.
fn segment_matches(p: &CompiledPolicy, f: &LineFacts, i: usize) -> SegmentMatch {
    let s = &f.line.segments[i];
    let m = p.terminal_matches(&s.words);
    let mut out = SegmentMatch {
        deny: m[DENY],
        possible_deny: NONE,
        ask: m[ASK],
        allow: m[ALLOW],
    };
    let mut any_possible = [NONE; 3];
    let merge = |a: &mut [u32; 3], b: [u32; 3]| {
        for k in 0..3 {
            a[k] = a[k].min(b[k]);
        }
    };
    if s.known.iter().any(|k| *k != Known::Exact) {
        merge(&mut any_possible, p.terminal_possible(&s.words, &s.known));
    }
    for r in f.read_past(i) {
        let m = p.terminal_matches(&r.words);
        out.deny = out.deny.min(m[DENY]);
        out.ask = out.ask.min(m[ASK]);
        if r.known.iter().any(|k| *k != Known::Exact) {
            merge(&mut any_possible, p.terminal_possible(&r.words, &r.known));
        }
    }
    out.ask = out.ask.min(any_possible[ASK]);
    if out.deny == NONE {
        out.possible_deny = any_possible[DENY];
    }
    out
}

/// The first deny entry that matches some segment only possibly, when the
/// file stage did not run (no Terminal entry in the trie's program).
fn possible_deny(p: &CompiledPolicy, f: &LineFacts) -> Option<(usize, u32)> {
    if !f.has_unknown {
        return None;
    }
    (0..f.line.segments.len()).find_map(|i| {
        let m = segment_matches(p, f, i);
        (m.possible_deny != NONE).then_some((i, m.possible_deny))
    })
}

/// Does one ceiling of SPEC §5.3 step 7 hold? With a phrase for people.
fn ceiling_holds(
    p: &CompiledPolicy,
    stage: Stage,
    req: &Request,
    line: &mut Option<LineFacts>,
    scope: &mut LazyScope<'_>,
    automatic: bool,
    possible: &mut Option<Option<(usize, u32)>>,
) -> Option<(Reason, String)> {
    let action = req.action.kind;
    match stage {
        Stage::CeilingUnknownWord => {
            let f = line_of(line, req);
            if let Some(r) = f.builtin_possible() {
                return Some((Reason::UnknownWord, facts::possible_builtin_phrase(r)));
            }
            let (i, k) = (*possible.get_or_insert_with(|| possible_deny(p, f)))?;
            let rule = p.entry_text(DENY, k).to_string();
            Some((
                Reason::UnknownWord,
                facts::possible_deny_phrase(f, i, &rule),
            ))
        }
        Stage::CeilingExternalEffect => {
            let e = line_of(line, req).external_effect()?;
            Some((
                Reason::CeilingExternalEffect,
                format!("`{}` has an effect outside the machine", e.join(" ")),
            ))
        }
        Stage::CeilingPrivileged => {
            let r = line_of(line, req).privileged()?;
            let verb = r.privileged_via.unwrap_or("sudo");
            Some((
                Reason::CeilingPrivileged,
                format!("the command runs privileged (`{verb}`)"),
            ))
        }
        Stage::CeilingUnparsed => {
            let f = line_of(line, req);
            if !f.unparsed {
                return None;
            }
            Some((Reason::CeilingUnparsed, facts::unparsed_phrase(f)))
        }
        Stage::CeilingTypedExternal => Some((
            Reason::CeilingTypedExternal,
            format!("{} has an effect outside the machine", action.name()),
        )),
        Stage::CeilingProtectedMerge => {
            if !facts::protected_branch(req.action.target_branch.as_deref()) {
                return None;
            }
            let t = req.action.target_branch.as_deref().unwrap_or("(no target)");
            Some((
                Reason::CeilingProtectedMerge,
                format!("the merge targets the protected branch `{t}`"),
            ))
        }
        Stage::CeilingInstructionPatch => Some((
            Reason::CeilingInstructionPatch,
            "instruction patches are always reviewed".into(),
        )),
        Stage::CeilingParallelism => Some((
            Reason::CeilingParallelism,
            "parallelism changes are always reviewed".into(),
        )),
        Stage::CeilingContainerRemove => Some((
            Reason::CeilingContainerRemove,
            "removing a container is always reviewed".into(),
        )),
        Stage::CeilingScope => {
            if automatic {
                return None;
            }
            let f = line_of(line, req);
            let w = scope.get(f)?.outside.as_ref()?;
            Some((
                Reason::CeilingScope,
                format!("`{w}` is outside the project scope"),
            ))
        }
        _ => None,
    }
}
