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
//! deciding rule (text and `file:line:col`), autonomy origin, scope root and
//! message, every sentence taken from [`permc_core::phrases`] (tested by the
//! corpus, a differential property test, an exhaustive small universe and
//! the artifact round trip).

use crate::dag::Stage;
use crate::matcher::{ALLOW, ASK, DENY, NONE};
use crate::{CompiledPolicy, Resolved};
use permc_core::decision::{Decision, Origin, Reason, RuleRef, Verdict};
use permc_core::facts::{self, LineFacts, Scope, ScopeReport};
use permc_core::phrases;
use permc_core::reference;
use permc_core::request::Request;
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
    autonomy: Option<Resolved>,
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

    /// Step 4: the resolved mode replaces current, its strings pending.
    fn autonomy(r: Resolved) -> Current {
        let reason = match r.mode {
            Policy::Deny => Reason::AutonomyDeny,
            Policy::AutoApprove => Reason::AutonomyAutoApprove,
            Policy::RequireApproval => Reason::AutonomyRequireApproval,
        };
        let mut c = Current::new(r.mode, reason, None, "");
        c.autonomy = Some(r);
        c
    }

    /// Builds the strings of a pending autonomy rule.
    fn materialize(&mut self, p: &CompiledPolicy) {
        if let Some(r) = self.autonomy.take() {
            let rule = p.autonomy_rule(r.rule);
            self.message = phrases::autonomy_rule(&rule.rule, r.origin, r.mode).into();
            self.rule = Some(rule);
        }
    }

    /// Step 7: a ceiling lowers auto_approve to require_approval, quoting
    /// current's message.
    fn lowered(&mut self, p: &CompiledPolicy, reason: Reason, phrase: &str) -> Current {
        self.materialize(p);
        let message = phrases::lowered(&self.message, phrase);
        Current::new(Policy::RequireApproval, reason, None, message)
    }

    /// Step 8: current returned, as a decision (SPEC §10.2).
    fn decision(mut self, p: &CompiledPolicy, origin: Option<Origin>, req: &Request) -> Decision {
        self.materialize(p);
        Decision {
            policy: self.policy,
            reason: self.reason,
            rule: self.rule,
            autonomy_origin: origin,
            scope_root: facts::scope_root_label(req),
            message: self.message.into_owned(),
        }
    }
}

fn entry_ref(p: &CompiledPolicy, list: usize, k: u32) -> RuleRef {
    p.entry_rule(crate::list_of(list), permc_grammar::rules::EntryIx(k))
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

/// Decides one request over a compiled policy (SPEC §5.3): the type's
/// program, one stage at a time; a deny returns at once.
pub fn decide(p: &CompiledPolicy, req: &Request) -> Decision {
    let action = req.action.kind;
    let finish = |c: Current, origin| c.decision(p, origin, req);
    // Fail closed: a policy without a program for the type (its stage graph
    // failed its check) never approves anything. Compiled and loaded
    // policies always have one.
    let mut current = Current::new(
        Policy::RequireApproval,
        Reason::Default,
        None,
        phrases::DEFAULT,
    );
    let mut origin = None;
    let mut automatic = false;
    let mut line: Option<LineFacts> = None;
    let mut scope = LazyScope { req, report: None };
    // The first possible-only deny match (segment, entry), once the file
    // stage has looked (SPEC §4.4, step 7.0).
    let mut possible: Option<Option<(usize, u32)>> = None;

    for &stage in p.program(action) {
        let opinion = match stage {
            // 1. IAM (SPEC §1).
            Stage::Iam => reference::iam(req).map(Current::from),
            // 2. Built-in denies (SPEC §5.2).
            Stage::Builtins => reference::builtins(line_of(&mut line, req)).map(Current::from),
            // 3. Base (ADR 0134).
            Stage::Base => Some(Current::from(reference::base(req))),
            // 4. Autonomy (SPEC §2.2), precomputed per (agent, type).
            Stage::Autonomy => {
                let r = p.resolve_autonomy(req.action.agent.as_deref(), action);
                origin = r.map(|r| r.origin);
                automatic = r
                    .is_some_and(|r| r.mode == Policy::AutoApprove && r.origin == Origin::Wildcard);
                r.map(Current::autonomy)
            }
            // 5. The file, non-terminal.
            Stage::FileTyped => file_typed(p, action),
            // 6. The file, terminal.
            Stage::FileTerminal => {
                let f = line_of(&mut line, req);
                file_terminal(p, f, &mut scope, automatic, &mut possible)
            }
            // 7. Ceilings, only over auto_approve; the first that holds.
            ceiling if current.policy == Policy::AutoApprove => {
                let (l, s, m) = (&mut line, &mut scope, &mut possible);
                let holds = ceiling_holds(p, ceiling, req, l, s, automatic, m);
                holds.map(|(reason, phrase)| current.lowered(p, reason, &phrase))
            }
            _ => None,
        };
        // A stage with an opinion replaces current; a deny returns at once.
        if let Some(c) = opinion {
            if c.policy == Policy::Deny {
                return finish(c, origin);
            }
            current = c;
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

impl From<Verdict> for Current {
    fn from(v: Verdict) -> Current {
        Current::new(v.policy, v.reason, v.rule, v.message)
    }
}

/// SPEC §5.3 step 5 from the precomputed first `Label()` per list.
fn file_typed(p: &CompiledPolicy, action: ActionType) -> Option<Current> {
    let m = p.typed_matches(action);
    if m[DENY] != NONE {
        let r = entry_ref(p, DENY, m[DENY]);
        let msg = phrases::typed_deny(&r.rule, action);
        return Some(deny(Reason::FileDeny, Some(r), msg));
    }
    if m[ASK] != NONE {
        let r = entry_ref(p, ASK, m[ASK]);
        let msg = phrases::typed_ask(&r.rule, action);
        return Some(Current::new(
            Policy::RequireApproval,
            Reason::FileAsk,
            Some(r),
            msg,
        ));
    }
    if m[ALLOW] != NONE {
        let r = entry_ref(p, ALLOW, m[ALLOW]);
        let msg = phrases::typed_allow(&r.rule, action);
        return Some(Current::new(
            Policy::AutoApprove,
            Reason::FileAllow,
            Some(r),
            msg,
        ));
    }
    None
}

/// What combining the segments' classes (SPEC §5.3 step 6) needs.
#[derive(Default)]
struct Classes {
    first_ask: Option<(usize, u32)>,
    first_allow: Option<u32>,
    first_uncovered: Option<usize>,
    any_covered: bool,
}

/// Step 6, first half, in one pass over the segments: each segment's first
/// deny/ask/allow entry from the trie; `cd` in scope only for segments no
/// pattern covers. `Err`: the first denied segment, which decides.
fn classify(
    p: &CompiledPolicy,
    f: &LineFacts,
    scope: &mut LazyScope<'_>,
    possible: &mut Option<Option<(usize, u32)>>,
) -> Result<Classes, Current> {
    let mut c = Classes::default();
    let mut first_possible: Option<(usize, u32)> = None;
    for (i, s) in f.line.segments.iter().enumerate() {
        let m = segment_matches(p, f, i);
        if m.deny != NONE {
            // The first denied segment decides (SPEC §5.3 step 6).
            let r = entry_ref(p, DENY, m.deny);
            let msg = phrases::segment_deny(&s.words, &r);
            return Err(deny(Reason::FileDeny, Some(r), msg));
        }
        if m.possible_deny != NONE && first_possible.is_none() {
            first_possible = Some((i, m.possible_deny));
        }
        if m.ask != NONE {
            c.first_ask.get_or_insert((i, m.ask));
            c.any_covered = true;
        } else if m.allow != NONE {
            c.first_allow.get_or_insert(m.allow);
            c.any_covered = true;
        } else if facts::cd_target(&s.words).is_some()
            // Only a `cd` segment can be cd-in-scope: the scope is read
            // for it alone, so a line with no uncovered `cd` may never
            // need the scope at all.
            && scope
                .get(f)
                .and_then(|r| r.cd_inside.get(i).copied())
                .unwrap_or(false)
        {
            c.any_covered = true;
        } else {
            c.first_uncovered.get_or_insert(i);
        }
    }
    *possible = Some(first_possible);
    Ok(c)
}

/// Step 6, second half: the classes combined. `None` = silent (or dropped
/// in automatic mode).
fn file_terminal(
    p: &CompiledPolicy,
    f: &LineFacts,
    scope: &mut LazyScope<'_>,
    automatic: bool,
    possible: &mut Option<Option<(usize, u32)>>,
) -> Option<Current> {
    let segments = &f.line.segments;
    let c = match classify(p, f, scope, possible) {
        Ok(c) => c,
        Err(deny) => return Some(deny),
    };
    if !c.any_covered {
        // No segment, or every segment uncovered: silent.
        return None;
    }
    if c.first_ask.is_none() && c.first_uncovered.is_none() {
        return Some(match c.first_allow {
            Some(k) => {
                let r = entry_ref(p, ALLOW, k);
                let msg = phrases::all_allowed(p.permissions_name(), &r.rule);
                Current::new(Policy::AutoApprove, Reason::FileAllow, Some(r), msg)
            }
            None => Current::new(
                Policy::AutoApprove,
                Reason::ScopeCd,
                None,
                phrases::ALL_CD_IN_SCOPE,
            ),
        });
    }
    if let Some((i, k)) = c.first_ask {
        let r = entry_ref(p, ASK, k);
        let msg = phrases::segment_ask(&segments[i].words, &r);
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
    let uncovered = c.first_uncovered.map_or(&[][..], |i| &segments[i].words);
    Some(Current::new(
        Policy::RequireApproval,
        Reason::CompoundUncovered,
        None,
        phrases::compound_uncovered(uncovered),
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
    let m = p.terminal_matches_packed(&s.words);
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
        let m = p.terminal_matches_packed(r.words);
        out.deny = out.deny.min(m[DENY]);
        out.ask = out.ask.min(m[ASK]);
        if r.known.iter().any(|k| *k != Known::Exact) {
            merge(&mut any_possible, p.terminal_possible(r.words, r.known));
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

/// Does one ceiling of SPEC §5.3 step 7 hold? With its phrase for people.
fn ceiling_holds(
    p: &CompiledPolicy,
    stage: Stage,
    req: &Request,
    line: &mut Option<LineFacts>,
    scope: &mut LazyScope<'_>,
    automatic: bool,
    possible: &mut Option<Option<(usize, u32)>>,
) -> Option<(Reason, Cow<'static, str>)> {
    let action = req.action.kind;
    let target = req.action.target_branch.as_deref();
    let (reason, phrase): (Reason, Cow<'static, str>) = match stage {
        Stage::CeilingUnknownWord => {
            let f = line_of(line, req);
            if let Some(r) = f.builtin_possible() {
                (
                    Reason::UnknownWord,
                    phrases::possible_builtin_phrase(r).into(),
                )
            } else {
                let (i, k) = (*possible.get_or_insert_with(|| possible_deny(p, f)))?;
                let rule = p.entry_text(DENY, k);
                (
                    Reason::UnknownWord,
                    phrases::possible_deny_phrase(f, i, rule).into(),
                )
            }
        }
        Stage::CeilingExternalEffect => {
            let e = line_of(line, req).external_effect()?;
            (
                Reason::CeilingExternalEffect,
                phrases::external_effect(e).into(),
            )
        }
        Stage::CeilingPrivileged => {
            let r = line_of(line, req).privileged()?;
            let verb = r.privileged_via.unwrap_or("sudo");
            (Reason::CeilingPrivileged, phrases::privileged(verb).into())
        }
        Stage::CeilingUnparsed => {
            let f = line_of(line, req);
            if !f.unparsed {
                return None;
            }
            (Reason::CeilingUnparsed, phrases::unparsed_phrase(f).into())
        }
        Stage::CeilingTypedExternal => (
            Reason::CeilingTypedExternal,
            phrases::typed_external(action).into(),
        ),
        Stage::CeilingProtectedMerge if facts::protected_branch(target) => (
            Reason::CeilingProtectedMerge,
            phrases::protected_merge(target).into(),
        ),
        Stage::CeilingInstructionPatch => (
            Reason::CeilingInstructionPatch,
            phrases::INSTRUCTION_PATCH.into(),
        ),
        Stage::CeilingParallelism => (Reason::CeilingParallelism, phrases::PARALLELISM.into()),
        Stage::CeilingContainerRemove => (
            Reason::CeilingContainerRemove,
            phrases::CONTAINER_REMOVE.into(),
        ),
        Stage::CeilingScope if !automatic => {
            let f = line_of(line, req);
            let w = scope.get(f)?.outside.as_ref()?;
            (Reason::CeilingScope, phrases::outside_scope(w).into())
        }
        _ => return None,
    };
    Some((reason, phrase))
}
