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
//!
//! [`answer`] decides and leaves the strings for later: an [`Answer`]
//! holds what names the rule and the message, and builds them when asked
//! ([`Answer::decision`]); [`decide`] is `answer(p, req).decision()`.

use crate::dag::Stage;
use crate::matcher::{ALLOW, ASK, DENY, NONE};
use crate::{CompiledPolicy, Resolved};
use permc_core::decision::{Decision, Origin, Reason, RuleRef, Verdict};
use permc_core::facts::{self, continuations, protected, LineFacts, ScopeReport};
use permc_core::phrases;
use permc_core::reference;
use permc_core::request::Request;
use permc_grammar::shell::{CommandLine, Known};
use permc_grammar::{ActionType, Policy};
use std::borrow::Cow;

/// The deciding rule, named only when the answer is written: most
/// decisions are read for their policy and reason alone.
#[derive(Debug, Clone)]
enum RuleAt {
    /// A built-in deny, already named ([`Verdict`]): boxed, as it is rare
    /// and the other variants are small (`Current` moves at every stage).
    Named(Box<RuleRef>),
    /// Entry `k` of the list at accept index `list`.
    Entry(usize, u32),
    /// An autonomy rule.
    Autonomy(u32),
}

/// The message, built only when asked for ([`Answer::message`]), from
/// the deciding rule ([`RuleAt`]) where it quotes one.
#[derive(Debug, Clone)]
enum Why {
    Text(Cow<'static, str>),
    /// The resolved autonomy rule (step 4).
    Autonomy(Resolved),
    /// The first `Label()` entry of the list at this accept index (step 5).
    Typed(usize, ActionType),
    /// Segment `i`, denied by the rule (step 6).
    SegmentDeny(usize),
    /// Segment `i`, asked by the rule.
    SegmentAsk(usize),
    /// Every segment allowed; the rule the first allow entry.
    AllAllowed,
    /// Some segment uncovered, the first one's index.
    Uncovered(Option<usize>),
}

/// `current` of SPEC §5.3.
struct Current {
    policy: Policy,
    reason: Reason,
    rule: Option<RuleAt>,
    why: Why,
}

impl Current {
    fn new(policy: Policy, reason: Reason, rule: Option<RuleAt>, why: Why) -> Current {
        Current {
            policy,
            reason,
            rule,
            why,
        }
    }

    fn text(
        policy: Policy,
        reason: Reason,
        rule: Option<RuleAt>,
        message: impl Into<Cow<'static, str>>,
    ) -> Current {
        Current::new(policy, reason, rule, Why::Text(message.into()))
    }

    /// Step 4: the resolved mode replaces current.
    fn autonomy(r: Resolved) -> Current {
        let reason = match r.mode {
            Policy::Deny => Reason::AutonomyDeny,
            Policy::AutoApprove => Reason::AutonomyAutoApprove,
            Policy::RequireApproval => Reason::AutonomyRequireApproval,
        };
        Current::new(
            r.mode,
            reason,
            Some(RuleAt::Autonomy(r.rule)),
            Why::Autonomy(r),
        )
    }

    /// Step 7: a ceiling lowers auto_approve to require_approval, quoting
    /// current's message.
    fn lowered(
        &self,
        p: &CompiledPolicy,
        line: Option<&LineFacts>,
        reason: Reason,
        phrase: &str,
    ) -> Current {
        let rule = self.rule.as_ref().map(|r| rule_ref(p, r));
        let message = phrases::lowered(&message(p, line, &self.why, rule.as_ref()), phrase);
        Current::text(Policy::RequireApproval, reason, None, message)
    }
}

fn rule_ref(p: &CompiledPolicy, at: &RuleAt) -> RuleRef {
    match at {
        RuleAt::Named(r) => RuleRef::clone(r),
        RuleAt::Entry(list, k) => entry_ref(p, *list, *k),
        RuleAt::Autonomy(rule) => p.autonomy_rule(*rule),
    }
}

/// The sentence for people (SPEC §10.2), from what the stages recorded
/// and the deciding rule they name (built once, for itself and for this).
fn message(
    p: &CompiledPolicy,
    line: Option<&LineFacts>,
    why: &Why,
    rule: Option<&RuleRef>,
) -> Cow<'static, str> {
    let words = |i: usize| -> &[Cow<'_, str>] {
        line.and_then(|f| f.line.segments.get(i))
            .map_or(&[][..], |s| &s.words[..])
    };
    // Every stage that records a message quoting a rule records the rule.
    static NO_RULE: RuleRef = RuleRef {
        rule: String::new(),
        source: String::new(),
    };
    let r = rule.unwrap_or(&NO_RULE);
    match *why {
        Why::Text(ref t) => t.clone(),
        Why::Autonomy(a) => phrases::autonomy_rule(&r.rule, a.origin, a.mode).into(),
        Why::Typed(DENY, action) => phrases::typed_deny(&r.rule, action).into(),
        Why::Typed(ASK, action) => phrases::typed_ask(&r.rule, action).into(),
        Why::Typed(_, action) => phrases::typed_allow(&r.rule, action).into(),
        Why::SegmentDeny(i) => phrases::segment_deny(words(i), r).into(),
        Why::SegmentAsk(i) => phrases::segment_ask(words(i), r).into(),
        Why::AllAllowed => phrases::all_allowed(p.permissions_name(), &r.rule).into(),
        Why::Uncovered(i) => phrases::compound_uncovered(i.map_or(&[][..], words)).into(),
    }
}

/// A decision whose strings are built only when asked for (SPEC §10.2):
/// the policy, the reason and the autonomy origin are decided; the rule,
/// its source, the scope root and the message are put together from the
/// policy, the request and the line's facts by the accessors, or all at
/// once by [`Answer::decision`]. `permc serve`, the bindings and a caller
/// that reads only the policy pay for the strings they use.
pub struct Answer<'a> {
    /// The policy.
    pub policy: Policy,
    /// Why (SPEC §5.3's names).
    pub reason: Reason,
    /// The autonomy origin, when an autonomy rule resolved.
    pub autonomy_origin: Option<Origin>,
    p: &'a CompiledPolicy,
    req: &'a Request<'a>,
    line: Option<LineFacts<'a>>,
    rule: Option<RuleAt>,
    why: Why,
}

/// A key of an answer's string ([`Answer::rule_key`],
/// [`Answer::message_key`]): equal keys of answers of the same policy,
/// equal strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StringKey {
    kind: u64,
    at: u32,
}

/// The line's buffers go to the next line read on this thread
/// ([`LineFacts::recycle`]): a server or a binding answers line after line.
impl Drop for Answer<'_> {
    fn drop(&mut self) {
        LineFacts::recycle_in(&mut self.line);
    }
}

impl Answer<'_> {
    /// The deciding rule, where one did: its text and `file:line:col`.
    pub fn rule(&self) -> Option<RuleRef> {
        self.rule.as_ref().map(|r| rule_ref(self.p, r))
    }

    /// `mode:last-component` of the scope root (SPEC §6.3).
    pub fn scope_root(&self) -> Option<String> {
        facts::scope_root_label(self.req)
    }

    /// The sentence for people.
    pub fn message(&self) -> Cow<'static, str> {
        message(self.p, self.line.as_ref(), &self.why, self.rule().as_ref())
    }

    /// Whether a rule decided ([`Answer::rule`] is `Some`), without
    /// building its strings.
    pub fn has_rule(&self) -> bool {
        self.rule.is_some()
    }

    /// What the deciding rule's strings are the same for: two answers of
    /// one policy with equal keys have the same [`Answer::rule`]. `None`
    /// for a built-in deny (its strings are at hand) and when no rule
    /// decided. For a binding that keeps the strings it made lately
    /// (answers mostly repeat a few rules) instead of building them again.
    pub fn rule_key(&self) -> Option<StringKey> {
        match self.rule.as_ref()? {
            RuleAt::Named(_) => None,
            RuleAt::Entry(list, k) => Some(StringKey {
                kind: 1 | (*list as u64) << 8,
                at: *k,
            }),
            RuleAt::Autonomy(rule) => Some(StringKey { kind: 2, at: *rule }),
        }
    }

    /// What the message is the same for, as [`Answer::rule_key`]: a
    /// message made of the deciding rule alone (an autonomy rule's, a
    /// typed entry's, "every segment is allowed"); `None` for one that
    /// quotes the line's words or was written by a stage.
    pub fn message_key(&self) -> Option<StringKey> {
        let rule = self.rule_key()?;
        let why = match self.why {
            Why::Autonomy(a) => 1 | (a.origin as u64) << 4 | (a.mode as u64) << 8,
            Why::Typed(list, action) => 2 | (list as u64) << 4 | (action as u64) << 20,
            Why::AllAllowed => 3,
            _ => return None,
        };
        Some(StringKey {
            kind: rule.kind | why << 32,
            at: rule.at,
        })
    }

    /// The message, quoting `rule`, which must be this answer's
    /// [`Answer::rule`] (kept from an answer with the same
    /// [`Answer::rule_key`], or built).
    pub fn message_quoting(&self, rule: Option<&RuleRef>) -> Cow<'static, str> {
        message(self.p, self.line.as_ref(), &self.why, rule)
    }

    /// [`Answer::scope_root`] written into `out` (cleared first), for a
    /// caller that keeps one buffer; `false` when the request has no root.
    pub fn scope_root_into(&self, out: &mut String) -> bool {
        facts::scope_root_label_into(self.req, out)
    }

    /// Every field built (SPEC §10.2); the rule once, for itself and the
    /// message that quotes it.
    pub fn decision(&self) -> Decision {
        let rule = self.rule();
        let message = message(self.p, self.line.as_ref(), &self.why, rule.as_ref());
        Decision {
            policy: self.policy,
            reason: self.reason,
            rule,
            autonomy_origin: self.autonomy_origin,
            scope_root: self.scope_root(),
            message: message.into_owned(),
        }
    }
}

impl std::fmt::Debug for Answer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.decision().fmt(f)
    }
}

fn entry_ref(p: &CompiledPolicy, list: usize, k: u32) -> RuleRef {
    p.entry_rule(crate::list_of(list), permc_grammar::rules::EntryIx(k))
}

/// The scope reading, computed at most once per request, when first needed.
struct LazyScope<'r> {
    req: &'r Request<'r>,
    /// The scope, read off the request once (the scope ceiling and the
    /// protected paths both read it).
    scope: Option<Option<facts::Scope<'r>>>,
    report: Option<Option<ScopeReport>>,
}

impl<'r> LazyScope<'r> {
    fn new(req: &'r Request) -> Self {
        LazyScope {
            req,
            scope: None,
            report: None,
        }
    }

    /// Done with: a scope never read holds nothing, and forgetting it
    /// skips its drop, a call of ~30 instructions, on the lines that never
    /// need the scope (most).
    fn end(self) {
        if self.scope.is_none() && self.report.is_none() {
            std::mem::forget(self);
        }
    }

    fn scope(&mut self) -> Option<&facts::Scope<'r>> {
        let req = self.req;
        self.scope
            .get_or_insert_with(|| facts::scope_of(req))
            .as_ref()
    }

    fn get(&mut self, line: &LineFacts) -> Option<&ScopeReport> {
        if self.report.is_none() {
            let report = self.scope().map(|s| s.check(line));
            self.report = Some(report);
        }
        self.report.as_ref().and_then(Option::as_ref)
    }
}

/// Decides one request over a compiled policy (SPEC §5.3), every string
/// of the decision built: [`answer`] and [`Answer::decision`].
pub fn decide(p: &CompiledPolicy, req: &Request) -> Decision {
    answer(p, req).decision()
}

/// Decides one request over a compiled policy (SPEC §5.3): the type's
/// program, one stage at a time; a deny returns at once. The answer's
/// strings are built when asked for.
#[inline]
pub fn answer<'a>(p: &'a CompiledPolicy, req: &'a Request) -> Answer<'a> {
    let action = req.action.kind;
    // The line's facts are read into a local moved into the answer at the
    // end (one copy of the facts, as the answer's own move was).
    let mut facts: Option<LineFacts<'a>> = None;
    let mut autonomy_origin = None;
    // Fail closed: a policy without a program for the type (its stage graph
    // failed its check) never approves anything. Compiled and loaded
    // policies always have one.
    let mut current = Current::text(
        Policy::RequireApproval,
        Reason::Default,
        None,
        phrases::DEFAULT,
    );
    let mut automatic = false;
    let line = &mut facts;
    if action == ActionType::Terminal && !p.project.is_empty() {
        // The project's rows are read with the facts (`line_of` finds them).
        LineFacts::of_in_with(
            line,
            req.action.command.as_deref().unwrap_or(""),
            &p.project,
        );
    }
    let mut scope = LazyScope::new(req);
    // The first possible-only deny match (segment, entry), once the file
    // stage has looked (SPEC §4.4, step 7.0).
    let mut possible: Option<Option<(usize, u32)>> = None;

    for &stage in p.program(action) {
        let opinion = match stage {
            // 1. IAM (SPEC §1).
            Stage::Iam => reference::iam(req).map(Current::from),
            // 2. Built-in denies (SPEC §5.2).
            Stage::Builtins => reference::builtins(line_of(line, req)).map(Current::from),
            // 3. Base (ADR 0134).
            Stage::Base => Some(Current::from(reference::base(req))),
            // 4. Autonomy (SPEC §2.2), precomputed per (agent, type).
            Stage::Autonomy => {
                let r = p.resolve_autonomy(req.action.agent.as_deref(), action);
                autonomy_origin = r.map(|r| r.origin);
                automatic = r
                    .is_some_and(|r| r.mode == Policy::AutoApprove && r.origin == Origin::Wildcard);
                r.map(Current::autonomy)
            }
            // 5. The file, non-terminal.
            Stage::FileTyped => file_typed(p, action),
            // 6. The file, terminal.
            Stage::FileTerminal => {
                let f = line_of(line, req);
                // SPEC §5.3 step 6 round 4: the container floor keeps a
                // partly covered line, as automatic mode does.
                let keep = automatic || current.reason == Reason::ContainerFloor;
                file_terminal(p, f, &mut scope, keep, &mut possible)
            }
            // 7. Ceilings, only over auto_approve; the first that holds.
            // Every stage after the first ceiling is a ceiling (`dag`'s
            // order; a loaded program must be the one its tables imply):
            // once current is not auto_approve none can change it, and the
            // loop ends instead of stepping through them (~15 instructions
            // a stage).
            ceiling => {
                if current.policy != Policy::AutoApprove {
                    break;
                }
                let (s, m) = (&mut scope, &mut possible);
                let holds = ceiling_holds(p, ceiling, req, line, s, automatic, m);
                holds.map(|(reason, phrase)| current.lowered(p, line.as_ref(), reason, &phrase))
            }
        };
        // A stage with an opinion replaces current; a deny returns at once.
        if let Some(c) = opinion {
            let deny = c.policy == Policy::Deny;
            current = c;
            if deny {
                break;
            }
        }
    }
    scope.end();
    // 8.
    Answer {
        policy: current.policy,
        reason: current.reason,
        autonomy_origin,
        p,
        req,
        line: facts,
        rule: current.rule,
        why: current.why,
    }
}

fn line_of<'l, 'r>(line: &'l mut Option<LineFacts<'r>>, req: &'r Request) -> &'l LineFacts<'r> {
    match line {
        Some(f) => f,
        None => LineFacts::of_in(line, req.action.command.as_deref().unwrap_or("")),
    }
}

impl From<Verdict> for Current {
    fn from(v: Verdict) -> Current {
        Current::text(
            v.policy,
            v.reason,
            v.rule.map(|r| RuleAt::Named(Box::new(r))),
            v.message,
        )
    }
}

/// SPEC §5.3 step 5 from the precomputed first `Label()` per list.
fn file_typed(p: &CompiledPolicy, action: ActionType) -> Option<Current> {
    let m = p.typed_matches(action);
    let (list, policy, reason) = [
        (DENY, Policy::Deny, Reason::FileDeny),
        (ASK, Policy::RequireApproval, Reason::FileAsk),
        (ALLOW, Policy::AutoApprove, Reason::FileAllow),
    ]
    .into_iter()
    .find(|&(list, ..)| m[list] != NONE)?;
    let k = m[list];
    Some(Current::new(
        policy,
        reason,
        Some(RuleAt::Entry(list, k)),
        Why::Typed(list, action),
    ))
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
    let read_past = any_read_past(f);
    for (i, s) in f.line.segments.iter().enumerate() {
        let m = segment_matches(p, f, i, read_past);
        if m.deny != NONE {
            // The first denied segment decides (SPEC §5.3 step 6).
            return Err(Current::new(
                Policy::Deny,
                Reason::FileDeny,
                Some(RuleAt::Entry(DENY, m.deny)),
                Why::SegmentDeny(i),
            ));
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
            if !f.given.is_empty() && !given_runs_covered(p, f, i) {
                // A command it runs given as argv is not covered (SPEC
                // §4.3 round 3): covered and uncovered at once.
                c.first_uncovered.get_or_insert(i);
            }
        } else if let Some(k) = transparent_cover(p, f, i) {
            c.first_allow.get_or_insert(k);
            c.any_covered = true;
        } else if f.verb_index(i).is_some_and(|v| {
            // A `set` of safe options is classified like cd-in-scope
            // (SPEC §6.2 round 3).
            facts::safe_set_at(&s.words, &s.known, v)
                // Only a `cd` segment can be cd-in-scope: the scope is
                // read for it alone, so a line with no uncovered `cd` may
                // never need the scope at all.
                || (facts::cd_target_at(&s.words, v).is_some()
                    && scope
                        .get(f)
                        .and_then(|r| r.cd_inside.get(i).copied())
                        .unwrap_or(false))
        }) {
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
            Some(k) => Current::new(
                Policy::AutoApprove,
                Reason::FileAllow,
                Some(RuleAt::Entry(ALLOW, k)),
                Why::AllAllowed,
            ),
            None => Current::text(
                Policy::AutoApprove,
                Reason::ScopeCd,
                None,
                phrases::ALL_CD_IN_SCOPE,
            ),
        });
    }
    if let Some((i, k)) = c.first_ask {
        return Some(Current::new(
            Policy::RequireApproval,
            Reason::FileAsk,
            Some(RuleAt::Entry(ASK, k)),
            Why::SegmentAsk(i),
        ));
    }
    if automatic {
        // RN-603: automatic mode drops the synthesized compound opinion,
        // and the container floor (round 4) keeps current too.
        return None;
    }
    Some(Current::new(
        Policy::RequireApproval,
        Reason::CompoundUncovered,
        None,
        Why::Uncovered(c.first_uncovered),
    ))
}

/// The first allow entry covering these words (SPEC §3.2, §6.5), or
/// `NONE`.
fn allow_covering(p: &CompiledPolicy, words: &[Cow<'_, str>], known: &[Known]) -> u32 {
    let first = p.terminal_matches_packed(words)[ALLOW];
    match continuations::mutating_from_with(words, known, Some(&p.project)) {
        Some(m) if first != NONE => p.terminal_allow_from(words, m + 1),
        _ => first,
    }
}

/// A transparent shell's segment (SPEC §4.3 round 4): covered when each
/// segment of its string is, by an entry (the first such segment's) or as
/// a `cd` in scope or a safe `set`.
fn transparent_cover(p: &CompiledPolicy, f: &LineFacts, i: usize) -> Option<u32> {
    // The string a transparent shell runs is one of the line's inner lines
    // (`LineFacts::transparent_inner` reads it there): a line without any,
    // most, skips the shell's checks (~50 instructions a segment).
    if f.inner_lines.is_empty() {
        return None;
    }
    line_cover(p, f.transparent_inner(i)?)
}

/// Each segment of a transparent shell's string covered: the first such
/// segment's entry.
fn line_cover(p: &CompiledPolicy, inner: &CommandLine<'_>) -> Option<u32> {
    let mut first = None;
    for s in &inner.segments {
        match allow_covering(p, &s.words, &s.known) {
            NONE if facts::plain_inner_cd(&s.words, &s.known)
                || facts::safe_set(&s.words, &s.known) => {}
            NONE => return None,
            k => {
                first.get_or_insert(k);
            }
        }
    }
    first
}

/// Is each command segment `i` runs given as argv covered: by an entry of
/// its own, or by an entry covering the segment that names the run's
/// program (SPEC §4.3 round 3)?
fn given_runs_covered(p: &CompiledPolicy, f: &LineFacts, i: usize) -> bool {
    let s = &f.line.segments[i];
    let outer_depth = continuations::mutating_from_with(&s.words, &s.known, Some(&p.project))
        .map_or(0, |m| m + 1);
    f.given_runs(i).all(|(start, words, known)| {
        allow_covering(p, words, known) != NONE
            || p.terminal_allow_from(&s.words, outer_depth.max(start + 1)) != NONE
            || f.given_transparent(i, start)
                .is_some_and(|inner| line_cover(p, inner).is_some())
    })
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

/// Does any run of the line read past a wrapper? Asked once a line: most
/// lines have none, and looking for segment `i`'s among its runs cost ~45
/// instructions a segment.
fn any_read_past(f: &LineFacts) -> bool {
    f.runs().any(|r| r.read_past)
}

/// One trie lookup of the literal words; a second of each run read past
/// wrappers, only when its words differ (`read_past`: the line has such a
/// run, [`any_read_past`]); a walk over unknown words only when the
/// segment or its runs hold one.
#[inline(always)] // Per segment, in `classify`'s loop: a call was ~30 instructions.
fn segment_matches(p: &CompiledPolicy, f: &LineFacts, i: usize, read_past: bool) -> SegmentMatch {
    let s = &f.line.segments[i];
    let m = p.terminal_matches_packed(&s.words);
    let mut out = SegmentMatch {
        deny: m[DENY],
        possible_deny: NONE,
        ask: m[ASK],
        allow: m[ALLOW],
    };
    if out.allow != NONE {
        // An allow entry that stops before a mutating continuation does
        // not cover the segment (SPEC §3.2, §6.5).
        let cache = f.segment_cache(i);
        if let Some(m) =
            continuations::mutating_from_with_cached(&s.words, &s.known, Some(&p.project), cache)
        {
            out.allow = p.terminal_allow_from(&s.words, m + 1);
        }
    }
    let mut any_possible = [NONE; 3];
    let merge = |a: &mut [u32; 3], b: [u32; 3]| {
        for k in 0..3 {
            a[k] = a[k].min(b[k]);
        }
    };
    if !s.known.all_exact() {
        merge(&mut any_possible, p.terminal_possible(&s.words, &s.known));
    }
    if read_past {
        for r in f.read_past(i) {
            let m = p.terminal_matches_packed(r.words);
            out.deny = out.deny.min(m[DENY]);
            out.ask = out.ask.min(m[ASK]);
            if r.known.iter().any(|k| *k != Known::Exact) {
                merge(&mut any_possible, p.terminal_possible(r.words, r.known));
            }
        }
    }
    // An undescribed program's quoted words read as lines (SPEC §4.5
    // item 2): a match of one of their runs is possible at best. (Most
    // lines have none: the check skips setting up the walk.)
    if f.has_possible() {
        for r in f.possible_runs(i) {
            let m = p.terminal_matches_packed(r.words);
            let mut certain = [NONE; 3];
            certain[DENY] = m[DENY];
            certain[ASK] = m[ASK];
            merge(&mut any_possible, certain);
            if r.known.iter().any(|k| *k != Known::Exact) {
                merge(&mut any_possible, p.terminal_possible(r.words, r.known));
            }
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
    if !f.has_unknown && !f.has_possible() {
        return None;
    }
    let read_past = any_read_past(f);
    (0..f.line.segments.len()).find_map(|i| {
        let m = segment_matches(p, f, i, read_past);
        (m.possible_deny != NONE).then_some((i, m.possible_deny))
    })
}

/// Does one ceiling of SPEC §5.3 step 7 hold? With its phrase for people.
#[inline(always)] // One caller, a call per ceiling stage.
fn ceiling_holds<'r>(
    p: &CompiledPolicy,
    stage: Stage,
    req: &'r Request,
    line: &mut Option<LineFacts<'r>>,
    scope: &mut LazyScope<'_>,
    automatic: bool,
    possible: &mut Option<Option<(usize, u32)>>,
) -> Option<(Reason, Cow<'static, str>)> {
    let action = req.action.kind;
    let target = req.action.target_branch.as_deref();
    let (reason, phrase): (Reason, Cow<'static, str>) = match stage {
        Stage::CeilingUnknownWord => {
            let f = line_of(line, req);
            let phrase = match phrases::unknown_word_before_deny(f) {
                Some(phrase) => phrase,
                None => match *possible.get_or_insert_with(|| possible_deny(p, f)) {
                    Some((i, k)) => phrases::possible_deny_phrase(f, i, p.entry_text(DENY, k)),
                    None => phrases::unknown_word_after_deny(f)?,
                },
            };
            (Reason::UnknownWord, phrase.into())
        }
        Stage::CeilingExternalEffect => {
            let in_container = facts::place(req).in_container;
            let phrase = phrases::external_effect_of(line_of(line, req), in_container)?;
            (Reason::CeilingExternalEffect, phrase.into())
        }
        Stage::CeilingPrivileged => {
            let in_container = facts::place(req).in_container;
            let phrase = phrases::privileged_of(line_of(line, req), in_container)?;
            (Reason::CeilingPrivileged, phrase.into())
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
        Stage::CeilingScope if !automatic && action == ActionType::WriteFile => {
            let path = facts::write_file_outside(req)?;
            (Reason::CeilingScope, phrases::outside_scope(&path).into())
        }
        Stage::CeilingProtectedPath if action == ActionType::WriteFile => {
            let path = facts::write_file_protected(req, &p.project)?;
            (
                Reason::CeilingProtectedPath,
                phrases::protected_path(&path).into(),
            )
        }
        Stage::CeilingScope if !automatic => {
            let f = line_of(line, req);
            let w = scope.get(f)?.outside.as_ref()?;
            (Reason::CeilingScope, phrases::outside_scope(w).into())
        }
        Stage::CeilingProtectedPath => {
            let f = line_of(line, req);
            let texts = &p.lists[ALLOW].text;
            let allow = || (0..texts.len()).map(|k| texts.get(k));
            let lift = |run: &[Cow<'_, str>], k: usize| facts::allow_names_move(allow(), run, k);
            let shown = protected::protected_path_lifted(f, scope.scope()?, &lift)?;
            (
                Reason::CeilingProtectedPath,
                phrases::protected_path(&shown).into(),
            )
        }
        _ => return None,
    };
    Some((reason, phrase))
}
