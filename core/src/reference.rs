//! The reference interpreter: SPEC §5 read literally.
//!
//! Linear scans over the rule lists, one function per step, the spec
//! section beside each. It never uses the compiler's structures; when the
//! compiled engine disagrees with it, the compiled engine is wrong.

use crate::decision::{Decision, Origin, Reason, RuleRef, Step, Verdict};
use crate::facts::continuations;
use crate::facts::project::ProjectRows;
use crate::facts::protected;
use crate::facts::unknown::{self, Hit};
use crate::facts::{self, LineFacts};
use crate::phrases::{
    self, STEP_AUTONOMY, STEP_BASE, STEP_BUILTINS, STEP_CEILINGS, STEP_FILE, STEP_FILE_TERMINAL,
    STEP_IAM,
};
use crate::request::{ExecutionMode, Request};
use crate::Rules;
use permc_grammar::rules::{AutonomyKey, AutonomyRule, Entry, Permissions};
use permc_grammar::shell::{CommandLine, Known};
use permc_grammar::{ActionType, Policy};
use std::borrow::Cow;

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

impl Current {
    /// Step 8: current returned, as a decision (SPEC §10.2).
    fn decision(self, autonomy_origin: Option<Origin>, req: &Request) -> Decision {
        Decision {
            policy: self.policy,
            reason: self.reason,
            rule: self.rule,
            autonomy_origin,
            scope_root: facts::scope_root_label(req),
            message: self.message,
        }
    }

    /// Step 7: a ceiling lowers auto_approve to require_approval.
    fn lowered(self, reason: Reason, phrase: &str) -> Current {
        Current {
            policy: Policy::RequireApproval,
            reason,
            rule: None,
            message: phrases::lowered(&self.message, phrase),
        }
    }
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

/// SPEC §5.3: the steps in order, each a function returning what it does
/// to `current`; a deny returns at once. The steps do not write the
/// trace: this does (and [`file`], for step 6's segment lines).
fn run(rules: &Rules, req: &Request, trace: &mut Trace) -> Decision {
    let action = req.action.kind;
    let finish = |c: Current, origin| c.decision(origin, req);

    // 1. IAM (SPEC §1).
    if let Some(c) = iam(req).map(Current::from) {
        note(trace, STEP_IAM, phrases::trace_deny(&c.message));
        return finish(c, None);
    }
    let may = phrases::may_propose(req.context.role, action);
    note(trace, STEP_IAM, may);

    // Terminal facts, read once.
    let line = (action == ActionType::Terminal)
        .then(|| LineFacts::of_with(req.action.command.as_deref().unwrap_or(""), &rules.project));

    // 2. Built-ins (SPEC §5.2).
    if let Some(f) = &line {
        if let Some(c) = builtins(f).map(Current::from) {
            note(trace, STEP_BUILTINS, phrases::trace_deny(&c.message));
            return finish(c, None);
        }
        note(trace, STEP_BUILTINS, phrases::NO_BUILTIN);
    }

    // 3. Base (ADR 0134).
    let mut current = Current::from(base(req));
    let base_note = phrases::trace_current(current.policy, current.reason, None);
    note(trace, STEP_BASE, base_note);

    // 4. Autonomy (SPEC §2.2).
    let resolved = autonomy(rules, req);
    let origin = resolved.as_ref().map(|(_, o)| *o);
    let automatic =
        matches!(&resolved, Some((c, Origin::Wildcard)) if c.policy == Policy::AutoApprove);
    match resolved {
        None => note(trace, STEP_AUTONOMY, phrases::NO_AUTONOMY),
        Some((c, o)) => {
            let from = phrases::trace_autonomy(c.policy, c.rule.as_ref(), o);
            note(trace, STEP_AUTONOMY, from);
            if c.policy == Policy::Deny {
                return finish(c, origin);
            }
            if automatic {
                note(trace, STEP_AUTONOMY, phrases::AUTOMATIC_MODE);
            }
            current = c;
        }
    }

    // 5. / 6. The file.
    let floor = current.reason == Reason::ContainerFloor;
    let (step, opinion) = file(rules, req, line.as_ref(), (automatic, floor), trace);
    match opinion {
        FileOpinion::Silent(why) => note(trace, step, phrases::trace_silent(&why)),
        FileOpinion::Dropped(why) => note(trace, step, phrases::trace_dropped(&why)),
        FileOpinion::FloorKept(why) => note(trace, step, phrases::trace_floor_kept(&why)),
        FileOpinion::Says(c) => {
            let says = phrases::trace_current(c.policy, c.reason, c.rule.as_ref());
            note(trace, step, says);
            if c.policy == Policy::Deny {
                return finish(c, origin);
            }
            current = c;
        }
    }

    // 7. Ceilings, only over auto_approve.
    if current.policy != Policy::AutoApprove {
        note(trace, STEP_CEILINGS, phrases::CEILING_NOT_REACHED);
    } else if let Some((reason, phrase)) = ceilings(rules, req, line.as_ref(), automatic) {
        let lowers = phrases::trace_ceiling(reason, &phrase);
        note(trace, STEP_CEILINGS, lowers);
        current = current.lowered(reason, &phrase);
    } else {
        note(trace, STEP_CEILINGS, phrases::NO_CEILING);
    }

    // 8. Return current.
    finish(current, origin)
}

// Steps 1 to 3 read no rule: the compiled engine takes them from here
// (`permc_compiler::compiled`), so each is written once.

/// Step 1 (SPEC §1): a role below the type's minimum is denied.
pub fn iam(req: &Request) -> Option<Verdict> {
    let (action, role) = (req.action.kind, req.context.role);
    let needed = action.min_role();
    (role < needed).then(|| Verdict {
        policy: Policy::Deny,
        reason: Reason::IamMinRole,
        rule: None,
        message: phrases::min_role(action, needed, role).into(),
    })
}

/// Step 2 (SPEC §5.2): a segment that runs a built-in deny.
pub fn builtins(f: &LineFacts) -> Option<Verdict> {
    let pattern = f.builtin_deny()?;
    Some(Verdict {
        policy: Policy::Deny,
        reason: Reason::BuiltinDeny,
        rule: Some(RuleRef {
            rule: pattern.to_string(),
            source: phrases::BUILTIN_SOURCE.to_string(),
        }),
        message: phrases::builtin_deny(pattern).into(),
    })
}

/// Step 3 (ADR 0134): the container floor, else `default`.
pub fn base(req: &Request) -> Verdict {
    let c = &req.context;
    let floor = req.action.kind == ActionType::Terminal
        && c.execution_mode == ExecutionMode::Container
        && c.container_running;
    let (policy, reason, message) = if floor {
        (
            Policy::AutoApprove,
            Reason::ContainerFloor,
            phrases::CONTAINER_FLOOR,
        )
    } else {
        (Policy::RequireApproval, Reason::Default, phrases::DEFAULT)
    };
    Verdict {
        policy,
        reason,
        rule: None,
        message: message.into(),
    }
}

impl From<Verdict> for Current {
    fn from(v: Verdict) -> Current {
        Current {
            policy: v.policy,
            reason: v.reason,
            rule: v.rule,
            message: v.message.into_owned(),
        }
    }
}

/// Step 4 (SPEC §2.2): the resolved mode, which replaces current (a deny
/// denies), and its origin; `None` when no rule has an opinion.
fn autonomy(rules: &Rules, req: &Request) -> Option<(Current, Origin)> {
    let (mode, origin, rule) =
        resolve_autonomy(rules, req.action.agent.as_deref(), req.action.kind)?;
    let r = autonomy_ref(rule);
    let reason = match mode {
        Policy::Deny => Reason::AutonomyDeny,
        Policy::AutoApprove => Reason::AutonomyAutoApprove,
        Policy::RequireApproval => Reason::AutonomyRequireApproval,
    };
    let message = phrases::autonomy_rule(&r.rule, origin, mode);
    let current = Current {
        policy: mode,
        reason,
        rule: Some(r),
        message,
    };
    Some((current, origin))
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

/// What a file stage does to `current`.
enum FileOpinion {
    /// No change: why.
    Silent(String),
    /// An opinion automatic mode drops (RN-603): what it was.
    Dropped(String),
    /// An opinion the container floor makes moot (SPEC §5.3 step 6 round
    /// 4): what it was.
    FloorKept(String),
    /// Current becomes this (a deny denies).
    Says(Current),
}

/// Step 5: `Label()` in deny, then ask, then allow.
fn file_typed(rules: &Rules, action: ActionType) -> FileOpinion {
    let p = &rules.permissions;
    let first = |list: &[Entry]| {
        list.iter()
            .find(|e| e.pattern.matches_type(action))
            .map(entry_ref)
    };
    let (policy, reason, r, msg) = if let Some(r) = first(&p.deny) {
        let msg = phrases::typed_deny(&r.rule, action);
        (Policy::Deny, Reason::FileDeny, r, msg)
    } else if let Some(r) = first(&p.ask) {
        let msg = phrases::typed_ask(&r.rule, action);
        (Policy::RequireApproval, Reason::FileAsk, r, msg)
    } else if let Some(r) = first(&p.allow) {
        let msg = phrases::typed_allow(&r.rule, action);
        (Policy::AutoApprove, Reason::FileAllow, r, msg)
    } else {
        return FileOpinion::Silent(phrases::no_typed_entry(action));
    };
    FileOpinion::Says(Current {
        policy,
        reason,
        rule: Some(r),
        message: msg,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Deny(usize),
    Ask(usize),
    Allow(usize),
    /// Its own words allowed by the entry, but a command it runs given as
    /// argv (SPEC §4.3 round 3) is not: covered and uncovered at once.
    Partial(usize),
    CdInScope,
    Uncovered,
}

/// Does allow entry `e` cover these words (SPEC §3.2 with §6.5: it matches
/// them and names every mutating continuation in them)?
fn allow_covers(
    e: &Entry,
    words: &[Cow<'_, str>],
    known: &[Known],
    rows: Option<&ProjectRows>,
) -> bool {
    e.pattern.matches_words(words)
        && continuations::mutating_from_with(words, known, rows)
            .is_none_or(|m| e.pattern.tokens().is_some_and(|t| t.len() > m))
}

/// Is each command segment `i` runs given as argv covered (SPEC §4.3
/// round 3)? By an entry of its own, or by an entry covering the segment
/// that names the run's program (`Terminal(npx vitest)` covers the run
/// `vitest run` of `npx vitest run`).
fn given_runs_covered(allow: &[Entry], f: &LineFacts, i: usize) -> bool {
    let s = &f.line.segments[i];
    f.given_runs(i).all(|(start, words, known)| {
        allow.iter().any(|e| {
            allow_covers(e, words, known, f.project_rows())
                || (allow_covers(e, &s.words, &s.known, f.project_rows())
                    && e.pattern.tokens().is_some_and(|t| t.len() > start))
        }) || f
            .given_transparent(i, start)
            .is_some_and(|inner| line_cover(allow, inner, f.project_rows()).is_some())
    })
}

/// A transparent shell's segment (SPEC §4.3 round 4: `bash -lc 'npm
/// test'`) is covered when each segment of its string is: by an allow
/// entry (the first such segment's entry decides), or as a `cd` in scope or
/// a safe `set`, which need none. `None`: not transparent, or a segment of
/// the string is not covered.
fn transparent_cover(allow: &[Entry], f: &LineFacts, i: usize) -> Option<usize> {
    line_cover(allow, f.transparent_inner(i)?, f.project_rows())
}

/// A transparent shell's string is covered when each of its segments is:
/// the first such segment's entry, `None` when one is not.
fn line_cover(
    allow: &[Entry],
    inner: &CommandLine<'_>,
    rows: Option<&ProjectRows>,
) -> Option<usize> {
    let mut first = None;
    for s in &inner.segments {
        match allow
            .iter()
            .position(|e| allow_covers(e, &s.words, &s.known, rows))
        {
            Some(k) => {
                first.get_or_insert(k);
            }
            None if facts::plain_inner_cd(&s.words, &s.known)
                || facts::safe_set(&s.words, &s.known) => {}
            None => return None,
        }
    }
    first
}

/// The word lists deny and ask read for segment `i` (SPEC §4.3): its own
/// words, then every run read past wrappers, with what is known of them.
fn alternatives<'f>(f: &'f LineFacts<'_>, i: usize) -> Vec<(&'f [Cow<'f, str>], &'f [Known])> {
    let s = &f.line.segments[i];
    let mut v = vec![(s.words.as_slice(), s.known.as_slice())];
    for r in f.read_past(i) {
        v.push((r.words, r.known));
    }
    v
}

/// How entry `e` matches segment `i`, at best over its alternatives.
fn entry_hit(e: &Entry, alts: &[(&[Cow<'_, str>], &[Known])]) -> Hit {
    let Some(tokens) = e.pattern.tokens() else {
        return Hit::No;
    };
    alts.iter()
        .map(|(w, k)| unknown::hit(tokens, w, k))
        .max()
        .unwrap_or(Hit::No)
}

/// Does entry `e` match a possible run of segment `i` (SPEC §4.5 item 2:
/// an undescribed program's quoted word read as a line), certainly or
/// possibly? Such a match is possible at best.
fn possible_run_hit(e: &Entry, f: &LineFacts, i: usize) -> bool {
    let Some(tokens) = e.pattern.tokens() else {
        return false;
    };
    f.possible_runs(i)
        .any(|r| unknown::hit(tokens, r.words, r.known) != Hit::No)
}

/// The first deny entry that matches some segment only possibly (SPEC
/// §4.4, §4.5 item 2), when none matches for certain: (segment, entry).
fn possible_deny(rules: &Rules, f: &LineFacts) -> Option<(usize, usize)> {
    (0..f.line.segments.len()).find_map(|i| {
        let alts = alternatives(f, i);
        rules
            .permissions
            .deny
            .iter()
            .position(|e| match entry_hit(e, &alts) {
                Hit::Possible => true,
                Hit::No => possible_run_hit(e, f, i),
                Hit::Certain => false,
            })
            .map(|k| (i, k))
    })
}

/// Step 6, first half: each segment's class, the first that holds. Deny
/// needs certainty; ask acts on a possible match too; allow reads the
/// literal words only (SPEC §4.3, §4.4); `cd` resolves like §6.2.
fn classify(rules: &Rules, req: &Request, f: &LineFacts) -> Vec<Class> {
    let p = &rules.permissions;
    let cd_inside = facts::scope_of(req)
        .map(|s| s.check(f).cd_inside)
        .unwrap_or_default();
    let class = |i: usize| {
        let alts = alternatives(f, i);
        let hit = |e: &Entry| entry_hit(e, &alts);
        if let Some(k) = p.deny.iter().position(|e| hit(e) == Hit::Certain) {
            Class::Deny(k)
        } else if let Some(k) = p
            .ask
            .iter()
            .position(|e| hit(e) != Hit::No || possible_run_hit(e, f, i))
        {
            Class::Ask(k)
        } else if let Some(k) = p.allow.iter().position(|e| {
            // §3.2: an entry that stops before a mutating continuation
            // (§6.5) does not cover the segment.
            let s = &f.line.segments[i];
            allow_covers(e, &s.words, &s.known, f.project_rows())
        }) {
            if given_runs_covered(&p.allow, f, i) {
                Class::Allow(k)
            } else {
                Class::Partial(k)
            }
        } else if let Some(k) = transparent_cover(&p.allow, f, i) {
            Class::Allow(k)
        } else if cd_inside.get(i).copied().unwrap_or(false)
            || facts::safe_set(&f.line.segments[i].words, &f.line.segments[i].known)
        {
            Class::CdInScope
        } else {
            Class::Uncovered
        }
    };
    (0..f.line.segments.len()).map(class).collect()
}

/// Step 6's trace: one line per segment and its class.
fn note_segments(trace: &mut Trace, rules: &Rules, f: &LineFacts, classes: &[Class]) {
    if trace.is_none() {
        return;
    }
    let p = &rules.permissions;
    let by = |list: &str, e: &Entry| phrases::class_by(list, &e.pattern.text, &e.location);
    for (i, c) in classes.iter().enumerate() {
        let class = match *c {
            Class::Deny(k) => by("deny", &p.deny[k]),
            Class::Ask(k) => by("ask", &p.ask[k]),
            Class::Allow(k) => by("allow", &p.allow[k]),
            Class::Partial(k) => {
                let run = f
                    .given_runs(i)
                    .find(|&(_, w, kn)| {
                        !p.allow
                            .iter()
                            .any(|e| allow_covers(e, w, kn, f.project_rows()))
                    })
                    .map_or(&[][..], |(_, w, _)| w);
                phrases::class_partial(&by("allow", &p.allow[k]), run)
            }
            Class::CdInScope => phrases::CLASS_CD_IN_SCOPE.to_string(),
            Class::Uncovered => uncovered_class(p, f, i),
        };
        let words = &f.line.segments[i].words;
        note(
            trace,
            phrases::STEP_SEGMENT,
            phrases::trace_segment(i, words, &class),
        );
    }
}

/// Step 6's class of an uncovered segment: when an allow entry matches
/// its words but a word past the entry's tokens is unplaced or begins a
/// form that writes (SPEC §4.5 item 2, §6.5), the entry and that word.
fn uncovered_class(p: &Permissions, f: &LineFacts, i: usize) -> String {
    let s = &f.line.segments[i];
    let short = p
        .allow
        .iter()
        .find(|e| e.pattern.matches_words(&s.words))
        .zip(continuations::mutating_from_with(
            &s.words,
            &s.known,
            f.project_rows(),
        ));
    match short {
        Some((e, at)) => phrases::class_short_of(
            &e.pattern.text,
            &e.location,
            &facts::uncovered_word_phrase(&s.words, &s.known, at),
        ),
        None => phrases::CLASS_UNCOVERED.to_string(),
    }
}

/// The first segment whose class `pick` reads an entry from: (segment,
/// entry).
fn first(classes: &[Class], pick: impl Fn(Class) -> Option<usize>) -> Option<(usize, usize)> {
    classes
        .iter()
        .enumerate()
        .find_map(|(i, c)| pick(*c).map(|k| (i, k)))
}

/// Steps 5 and 6: the stage for the type, its name, and its opinion;
/// step 6 notes each segment's class.
fn file(
    rules: &Rules,
    req: &Request,
    line: Option<&LineFacts>,
    keep: (bool, bool),
    trace: &mut Trace,
) -> (&'static str, FileOpinion) {
    let Some(f) = line else {
        return (STEP_FILE, file_typed(rules, req.action.kind));
    };
    let classes = classify(rules, req, f);
    note_segments(trace, rules, f, &classes);
    let opinion = file_terminal(rules, f, &classes, keep);
    (STEP_FILE_TERMINAL, opinion)
}

/// Step 6, second half: the classes combined, in the spec's order.
/// `keep`: automatic mode, and current is the container floor — either
/// keeps current over a partly covered line.
fn file_terminal(
    rules: &Rules,
    f: &LineFacts,
    classes: &[Class],
    (automatic, floor): (bool, bool),
) -> FileOpinion {
    let p = &rules.permissions;
    let words = |i: usize| f.line.segments[i].words.as_slice();
    let says = |policy, reason, rule, message| {
        FileOpinion::Says(Current {
            policy,
            reason,
            rule,
            message,
        })
    };
    if classes.is_empty() {
        return FileOpinion::Silent(phrases::NO_SEGMENT.into());
    }
    let denied = first(classes, |c| match c {
        Class::Deny(k) => Some(k),
        _ => None,
    });
    if let Some((i, k)) = denied {
        let r = entry_ref(&p.deny[k]);
        let msg = phrases::segment_deny(words(i), &r);
        return says(Policy::Deny, Reason::FileDeny, Some(r), msg);
    }
    let allowed = first(classes, |c| match c {
        Class::Allow(k) => Some(k),
        _ => None,
    });
    if classes
        .iter()
        .all(|c| matches!(c, Class::Allow(_) | Class::CdInScope))
    {
        let Some((_, k)) = allowed else {
            let msg = phrases::ALL_CD_IN_SCOPE.to_string();
            return says(Policy::AutoApprove, Reason::ScopeCd, None, msg);
        };
        let r = entry_ref(&p.allow[k]);
        let msg = phrases::all_allowed(&p_file(rules), &r.rule);
        return says(Policy::AutoApprove, Reason::FileAllow, Some(r), msg);
    }
    if classes.iter().all(|c| *c == Class::Uncovered) {
        return FileOpinion::Silent(phrases::NO_PATTERN.into());
    }
    let asked = first(classes, |c| match c {
        Class::Ask(k) => Some(k),
        _ => None,
    });
    if let Some((i, k)) = asked {
        let r = entry_ref(&p.ask[k]);
        let msg = phrases::segment_ask(words(i), &r);
        return says(Policy::RequireApproval, Reason::FileAsk, Some(r), msg);
    }
    let uncovered = classes
        .iter()
        .position(|c| matches!(c, Class::Uncovered | Class::Partial(_)));
    let msg = phrases::compound_uncovered(uncovered.map_or(&[], words));
    if automatic {
        return FileOpinion::Dropped(msg);
    }
    if floor {
        return FileOpinion::FloorKept(msg);
    }
    says(
        Policy::RequireApproval,
        Reason::CompoundUncovered,
        None,
        msg,
    )
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

/// Step 7: the first ceiling that holds, in the spec's order, with its
/// phrase for people.
fn ceilings(
    rules: &Rules,
    req: &Request,
    line: Option<&LineFacts>,
    automatic: bool,
) -> Option<(Reason, String)> {
    let action = req.action.kind;
    if let Some(f) = line {
        // 7.0: a built-in or a deny pattern that matches only possibly,
        // a described row's unplaced word, a possible run's match.
        if let Some(phrase) = phrases::unknown_word_before_deny(f) {
            return Some((Reason::UnknownWord, phrase));
        }
        if let Some((i, k)) = possible_deny(rules, f) {
            let rule = &rules.permissions.deny[k].pattern.text;
            let phrase = phrases::possible_deny_phrase(f, i, rule);
            return Some((Reason::UnknownWord, phrase));
        }
        if let Some(phrase) = phrases::unknown_word_after_deny(f) {
            return Some((Reason::UnknownWord, phrase));
        }
        // 7a–c.
        if let Some(phrase) = phrases::external_effect_of(f, facts::place(req).in_container) {
            return Some((Reason::CeilingExternalEffect, phrase));
        }
        if let Some(phrase) = phrases::privileged_of(f, facts::place(req).in_container) {
            return Some((Reason::CeilingPrivileged, phrase));
        }
        if f.unparsed {
            return Some((Reason::CeilingUnparsed, phrases::unparsed_phrase(f)));
        }
    }
    // 7d–h.
    let target = req.action.target_branch.as_deref();
    let typed = match action {
        ActionType::GitPush | ActionType::PrOpen => Some((
            Reason::CeilingTypedExternal,
            phrases::typed_external(action),
        )),
        ActionType::GitMerge if facts::protected_branch(target) => Some((
            Reason::CeilingProtectedMerge,
            phrases::protected_merge(target),
        )),
        ActionType::InstructionPatch => Some((
            Reason::CeilingInstructionPatch,
            phrases::INSTRUCTION_PATCH.to_string(),
        )),
        ActionType::Parallelize | ActionType::RaiseMaxParallel => {
            Some((Reason::CeilingParallelism, phrases::PARALLELISM.to_string()))
        }
        ActionType::ContainerRemove => Some((
            Reason::CeilingContainerRemove,
            phrases::CONTAINER_REMOVE.to_string(),
        )),
        _ => None,
    };
    if typed.is_some() {
        return typed;
    }
    // 7i, not in automatic mode: a terminal word, a written path.
    let scope = facts::scope_of(req);
    if !automatic {
        if let (Some(f), Some(s)) = (line, &scope) {
            if let Some(outside) = s.check(f).outside {
                return Some((Reason::CeilingScope, phrases::outside_scope(&outside)));
            }
        }
        if let Some(path) = facts::write_file_outside(req) {
            return Some((Reason::CeilingScope, phrases::outside_scope(&path)));
        }
    }
    // 7j, in every mode.
    if let Some(path) = facts::write_file_protected(req, &rules.project) {
        let phrase = phrases::protected_path(&path);
        return Some((Reason::CeilingProtectedPath, phrase));
    }
    // A wholesale move of the worktree is lifted by an allow entry that
    // names its subcommand (SPEC §6.4).
    let allow = || {
        rules
            .permissions
            .allow
            .iter()
            .map(|e| e.pattern.text.as_str())
    };
    let lift = |run: &[Cow<'_, str>], k: usize| facts::allow_names_move(allow(), run, k);
    let shown = protected::protected_path_lifted(line?, &scope?, &lift)?;
    Some((
        Reason::CeilingProtectedPath,
        phrases::protected_path(&shown),
    ))
}
