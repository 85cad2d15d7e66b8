//! `decide_many(policy, requests)`: a list of requests in, the list of
//! their answers out, each in its request's slot (`{:ok, map}` or
//! `{:error, %{code, message}}`, as `decide/2` answers it; a binary is a
//! JSON line, as `decide_json/2` answers it). One call for many requests:
//! the policy is decoded once and the VM is crossed twice, not twice per
//! request. On the caller's scheduler the list is as `Permc` passes it:
//! the common request as the values it matched out of the maps
//! ([`typed::common`]), a map or a binary as it is, any other term in a
//! tuple of one ([`unwrapped`]); the dirty call takes the requests as
//! given.
//!
//! A list of light requests is answered on the caller's scheduler, a
//! slice of up to 0.5 ms a call ([`decide_many`]; a dirty call costs a thread and a
//! switch of scheduler, more than a slice's requests). A list longer
//! than 4,096, or the rest of one from a heavy request on, is `:dirty`,
//! and `Permc.decide_many/2` calls [`decide_many_dirty`] on a dirty CPU
//! scheduler, which reads every request, decides them all on a thread
//! with a main thread's stack (a dirty scheduler's is small, as for
//! `decide_dirty`) and builds the answers. A request nested deeper than a dirty scheduler's stack
//! allows the tree reader is answered `:inline` in its slot, and
//! `Permc.decide_many/2` decides it with `decide/2`.

use crate::{
    answer_with, atoms, decision_tuple_parts, error_map, guarded, measure, ok_decision, policy_arg,
    read, text_term, too_heavy_error, typed, DECIDE_STACK, DIRTY_DEPTH, INLINE_WEIGHT, IN_PERMC,
    MAX_WEIGHT,
};
use permc_runtime::answer::Decider;
use permc_runtime::{Parts, Policy, Reason, Request, RuleRef, StringKey};
use rustler::{Encoder, Env, OwnedBinary, Term};
use serde_json::Value;

/// The most requests answered on the caller's scheduler in one call (a
/// slice), which [`SLICE_TIME`] ends first for typical requests (about
/// 600 decide in 0.5 ms). Slices of 64 cost 0.07 µs more a request of
/// `decide_many/2` over maps than slices of 256, and those 0.03 µs more
/// than slices ended by the time (their calls, lists and answers'
/// strings made again each slice).
const SLICE: usize = 1024;

/// The longest a slice runs before it ends, whatever its count: half the
/// millisecond a NIF may hold a scheduler, checked every
/// [`CLOCK_EVERY`] requests (a light request decides in well under a
/// millisecond: `INLINE_WEIGHT`).
const SLICE_TIME: std::time::Duration = std::time::Duration::from_micros(500);

/// How many requests a slice decides between two looks at the clock.
const CLOCK_EVERY: usize = 8;

/// `decide_many(policy, requests)` on the caller's scheduler, a slice at
/// a time: the answers of the first [`SLICE`] requests (fewer when they
/// took [`SLICE_TIME`]), as a list when they were the last, else
/// `{:more, answers, rest}`; `{:dirty, answers, rest}` when `rest` starts
/// with a request heavier than `INLINE_WEIGHT` (`Permc.decide_many/2`
/// sends a list longer than 4,096 to [`decide_many_dirty`] itself).
/// `{:error, …}` when `requests` is not a proper list or `policy` not a
/// policy. Each slice reports the share of a timeslice it took to the
/// VM, so the calling process is preempted as if the work were Erlang
/// code.
#[rustler::nif]
fn decide_many<'a>(env: Env<'a>, policy: Term<'a>, requests: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let start = std::time::Instant::now();
        let mut answers = Vec::with_capacity(256);
        let mut seen = typed::Seen::default();
        let mut strings = Strings::default();
        let mut cell = requests;
        while let Ok((request, tail)) = cell.list_get_cell() {
            let n = answers.len();
            if n == SLICE || (n % CLOCK_EVERY == 0 && n > 0 && start.elapsed() >= SLICE_TIME) {
                consume(env, start);
                return (atoms::more(), answer_terms(env, answers, &strings), cell).encode(env);
            }
            match pending(env, &policy.0, request, &mut seen, &mut strings) {
                Some(a) => answers.push(a),
                None => {
                    return (atoms::dirty(), answer_terms(env, answers, &strings), cell).encode(env)
                }
            }
            cell = tail;
        }
        if !cell.is_empty_list() {
            return not_a_list(env);
        }
        consume(env, start);
        answer_terms(env, answers, &strings).encode(env)
    })
}

/// Reports the time since `start` to the VM as a share of a timeslice (a
/// millisecond), at least 1%.
fn consume(env: Env<'_>, start: std::time::Instant) {
    let percent = (start.elapsed().as_micros() / 10).clamp(1, 100);
    rustler::schedule::consume_timeslice(env, i32::try_from(percent).unwrap_or(100));
}

/// A slice's answer before its terms are made: a decision whose strings
/// are the slice's [`Strings`] (its tuple made by [`answer_terms`]), or
/// the term already made (an error, a request with an `id`, one read as
/// its tree).
enum Pending<'a> {
    Decided(Decided),
    Made(Term<'a>),
}

/// A decision of a slice: its strings by their index in the slice's
/// [`Strings`].
struct Decided {
    policy: &'static str,
    reason: Reason,
    origin: Option<&'static str>,
    rule: Option<usize>,
    root: Option<usize>,
    message: usize,
}

/// The strings of a slice's answers, each once: a rule's text and source
/// and a message made of the rule alone by their keys
/// ([`permc_runtime::Answer::rule_key`], `message_key`), so that a rule
/// answered before in the slice is not named again nor its message
/// written again; a scope root and any other message by their text
/// among the last few. An answer names them by index ([`Decided`]), and
/// [`answer_terms`] makes each one's term once.
#[derive(Default)]
struct Strings {
    rules: Vec<(Option<StringKey>, RuleRef)>,
    roots: Vec<String>,
    messages: Vec<(Option<StringKey>, String)>,
    /// The scope root of the answer being made, before it is found or kept.
    label: String,
}

/// How many of a table's last entries a string or key is looked for in.
const RECENT: usize = 8;

/// The index of the last entry among the last [`RECENT`] of `items`
/// that `is` says is the one.
fn recent<T>(items: &[T], is: impl Fn(&T) -> bool) -> Option<usize> {
    let from = items.len().saturating_sub(RECENT);
    items[from..].iter().rposition(is).map(|i| from + i)
}

impl Strings {
    /// `req` decided by `policy`, its strings found in the slice's or
    /// made and kept.
    fn decide(&mut self, policy: &Policy, req: &Request<'_>) -> Decided {
        let a = policy.answer(req);
        let mut rule = None;
        if a.has_rule() {
            let key = a.rule_key();
            rule = key.and_then(|k| recent(&self.rules, |(r, _)| *r == Some(k)));
            if rule.is_none() {
                if let Some(r) = a.rule() {
                    self.rules.push((key, r));
                    rule = Some(self.rules.len() - 1);
                }
            }
        }
        let root = a.scope_root_into(&mut self.label).then(|| {
            let label = &self.label;
            recent(&self.roots, |r| r == label).unwrap_or_else(|| {
                self.roots.push(label.clone());
                self.roots.len() - 1
            })
        });
        let key = a.message_key();
        let found = key.and_then(|k| recent(&self.messages, |(m, _)| *m == Some(k)));
        let message = found.unwrap_or_else(|| {
            let text = a.message_quoting(rule.map(|i| &self.rules[i].1));
            recent(&self.messages, |(_, m)| *m == text).unwrap_or_else(|| {
                self.messages.push((key, text.into_owned()));
                self.messages.len() - 1
            })
        });
        Decided {
            policy: a.policy.name(),
            reason: a.reason,
            origin: a.autonomy_origin.map(|o| o.name()),
            rule,
            root,
            message,
        }
    }
}

/// A request read as its parts, decided here: `Some(None)` when it is
/// heavier than `INLINE_WEIGHT` (a dirty scheduler's), `None` when the
/// parts are no request (the caller reads it another way).
fn decide_parts<'a>(
    env: Env<'a>,
    policy: &Policy,
    weight: usize,
    parts: &Parts<'_>,
    strings: &mut Strings,
) -> Option<Option<Pending<'a>>> {
    if weight > INLINE_WEIGHT {
        return Some(None);
    }
    Some(Some(match Request::from_parts(parts)? {
        Ok(req) => Pending::Decided(strings.decide(policy, &req)),
        Err(e) => Pending::Made(error_map(env, e.code, &e.message)),
    }))
}

/// The answer to one request of a slice on this scheduler, `None` for
/// one heavier than `INLINE_WEIGHT`: a JSON line as `decide_json/2`
/// answers it, a map as `decide/2` does.
fn pending<'a>(
    env: Env<'a>,
    policy: &Policy,
    request: Term<'a>,
    seen: &mut typed::Seen<'a>,
    strings: &mut Strings,
) -> Option<Pending<'a>> {
    match request.decode_as_binary() {
        Ok(line) if line.len() <= INLINE_WEIGHT => {
            Some(match permc_runtime::answer::read_request(line.as_slice()) {
                (None, Ok(req)) => Pending::Decided(strings.decide(policy, &req)),
                (id, Ok(req)) => Pending::Made(ok_decision(env, &policy.decide(&req), id.as_ref())),
                (_, Err(e)) => Pending::Made(error_map(env, e.code, &e.message)),
            })
        }
        Ok(_) => None,
        Err(_) => {
            let request = match typed::common_with(request, seen) {
                // A request `Permc` matched as the common one: its values.
                Some((map, Some(t))) => {
                    if let Some(done) = decide_parts(env, policy, t.weight, &t.parts, strings) {
                        return done;
                    }
                    map
                }
                Some((map, None)) => map,
                None => unwrapped(request),
            };
            if let Some(t) = typed::typed(request) {
                // The request borrows the map's binaries: no string copied.
                if let Some(done) = decide_parts(env, policy, t.weight, &t.parts, strings) {
                    return done;
                }
            }
            answer_with(env, policy, request, INLINE_WEIGHT).map(Pending::Made)
        }
    }
}

/// A request as `Permc.decide_many/2` passes it: a map or a binary as it
/// is, the common request as its values ([`typed::common`]), anything
/// else in a tuple of one (so that no term of the caller's is taken for
/// the values' tuple), here unwrapped to be refused as it is.
fn unwrapped(request: Term<'_>) -> Term<'_> {
    let env = request.get_env();
    // SAFETY: the tuple's element is a term of `env`.
    match unsafe { rustler::wrapper::tuple::get_tuple(env.as_c_arg(), request.as_c_arg()) } {
        Ok(&[one]) => unsafe { Term::new(env, one) },
        _ => request,
    }
}

/// The most bytes of a binary made on the process heap
/// (`ERL_ONHEAP_BIN_LIMIT`); a longer one is reference-counted, allocated
/// off the heap and freed by a later garbage collection.
const HEAP_BINARY: usize = 64;

/// A slice's answers as terms, each of the slice's [`Strings`] made once.
/// The messages longer than a heap binary (six of the eight typical
/// commands' messages: 71–79 bytes) are written end to end into one
/// binary, each a sub-binary of it: one allocation for the slice where
/// each was a reference-counted binary of its own (allocated, then freed
/// by a garbage collection: about 6% of a request in the fourth round's
/// profile). A process that keeps one answer's message keeps the
/// slice's (at most [`SLICE`] messages) until it drops it. A binary is a
/// value: answers naming the same string share its term.
fn answer_terms<'a>(env: Env<'a>, answers: Vec<Pending<'a>>, strings: &Strings) -> Vec<Term<'a>> {
    let long = |m: &str| m.len() > HEAP_BINARY;
    let total: usize = strings
        .messages
        .iter()
        .map(|(_, m)| m.len())
        .filter(|&n| n > HEAP_BINARY)
        .sum();
    let shared = (total > 0)
        .then(|| OwnedBinary::new(total))
        .flatten()
        .map(|mut b| {
            let mut at = 0;
            for (_, m) in strings.messages.iter().filter(|(_, m)| long(m)) {
                b.as_mut_slice()[at..at + m.len()].copy_from_slice(m.as_bytes());
                at += m.len();
            }
            b.release(env)
        });
    // Each message's term: a long one's sub-binary of the shared binary
    // (its own binary when that could not be made).
    let mut at = 0;
    let messages: Vec<Term<'a>> = strings
        .messages
        .iter()
        .map(|(_, m)| {
            if !long(m) {
                return text_term(env, m);
            }
            let start = at;
            at += m.len();
            shared
                .as_ref()
                .and_then(|b| b.make_subbinary(start, m.len()).ok())
                .map_or_else(|| text_term(env, m), |part| part.to_term(env))
        })
        .collect();
    let rules: Vec<(Term<'a>, Term<'a>)> = strings
        .rules
        .iter()
        .map(|(_, r)| (text_term(env, &r.rule), text_term(env, &r.source)))
        .collect();
    let roots: Vec<Term<'a>> = strings.roots.iter().map(|r| text_term(env, r)).collect();
    let nil = atoms::nil().encode(env);
    answers
        .iter()
        .map(|a| match a {
            Pending::Made(t) => *t,
            Pending::Decided(d) => {
                let (rule, source) = d.rule.map_or((nil, nil), |i| rules[i]);
                let root = d.root.map_or(nil, |i| roots[i]);
                decision_tuple_parts(
                    env,
                    (d.policy, d.reason, d.origin),
                    messages[d.message],
                    rule,
                    source,
                    root,
                )
            }
        })
        .collect()
}

fn not_a_list(env: Env<'_>) -> Term<'_> {
    error_map(
        env,
        "invalid_argument",
        "the requests must be a proper list",
    )
}

/// A request of a dirty batch once read: decided on the big-stack
/// thread, or already answered (an error term), or left to `decide/2`.
enum Slot<'a> {
    /// The index of its request in the batch's requests.
    Decide(usize),
    Answered(Term<'a>),
    Inline,
}

/// [`decide_many`] on a dirty CPU scheduler, for any length: the list of
/// answers, or `{:inline, answers}` when some slots hold `:inline` (see
/// the module's doc).
#[rustler::nif(schedule = "DirtyCpu")]
fn decide_many_dirty<'a>(env: Env<'a>, policy: Term<'a>, requests: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let (slots, reqs) = match read_all(env, requests) {
            Some(read) => read,
            None => return not_a_list(env),
        };
        let decided = match decide_all(&policy.0, &reqs) {
            Ok(d) => d,
            Err(m) => return error_map(env, "panic", &m),
        };
        let mut inline = false;
        let answers: Vec<Term> = slots
            .into_iter()
            .map(|slot| match slot {
                Slot::Decide(i) => ok_decision(env, &decided[i], reqs[i].0.as_ref()),
                Slot::Answered(t) => t,
                Slot::Inline => {
                    inline = true;
                    atoms::inline().encode(env)
                }
            })
            .collect();
        if inline {
            (atoms::inline(), answers).encode(env)
        } else {
            answers.encode(env)
        }
    })
}

type Read<'a> = (Vec<Slot<'a>>, Vec<(Option<Value>, Request<'a>)>);

/// Every request of the list read (on this scheduler: terms are read
/// where the call runs); `None` for an improper list.
fn read_all<'a>(env: Env<'a>, requests: Term<'a>) -> Option<Read<'a>> {
    let mut slots = Vec::new();
    let mut reqs = Vec::new();
    let mut cell = requests;
    while let Ok((request, tail)) = cell.list_get_cell() {
        let read = read_one(env, request);
        slots.push(match read {
            Ok(Some(r)) => {
                reqs.push(r);
                Slot::Decide(reqs.len() - 1)
            }
            Ok(None) => Slot::Inline,
            Err(t) => Slot::Answered(t),
        });
        cell = tail;
    }
    cell.is_empty_list().then_some((slots, reqs))
}

/// One request of a dirty batch read: the request and its `id`, the
/// error term, or `None` when its tree nests too deep for this stack.
fn read_one<'a>(
    env: Env<'a>,
    request: Term<'a>,
) -> Result<Option<(Option<Value>, Request<'a>)>, Term<'a>> {
    if let Ok(line) = request.decode_as_binary() {
        if line.len() > MAX_WEIGHT {
            return Err(too_heavy_error(env));
        }
        let (id, req) = permc_runtime::answer::read_request(line.as_slice());
        return match req {
            Ok(r) => Ok(Some((id, r.into_owned()))),
            Err(e) => Err(error_map(env, e.code, &e.message)),
        };
    }
    match typed::typed(request) {
        Some(t) if t.weight > MAX_WEIGHT => return Err(too_heavy_error(env)),
        Some(t) => {
            if let Some(r) = Request::from_parts(&t.parts) {
                return r
                    .map(|r| Some((None, r)))
                    .map_err(|e| error_map(env, e.code, &e.message));
            }
        }
        None => {
            let (weight, depth) = measure(request, MAX_WEIGHT);
            if weight > MAX_WEIGHT {
                return Err(too_heavy_error(env));
            }
            if depth > DIRTY_DEPTH {
                return Ok(None);
            }
        }
    }
    read(env, request).map(Some)
}

/// Every request decided, on a thread with a main thread's stack (the
/// command readers recurse as deep as SPEC §4.2 lets a command nest); a
/// panic there is raised again here, where [`guarded`] turns it into an
/// error.
fn decide_all(
    policy: &Policy,
    reqs: &[(Option<Value>, Request<'_>)],
) -> Result<Vec<permc_runtime::Decision>, String> {
    let decided = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(DECIDE_STACK)
            .spawn_scoped(s, || {
                IN_PERMC.with(|c| c.set(true));
                reqs.iter().map(|(_, r)| policy.decide(r)).collect()
            })
            .map(|h| h.join())
    });
    match decided {
        Ok(Ok(d)) => Ok(d),
        Ok(Err(p)) => std::panic::resume_unwind(p),
        Err(e) => Err(format!("cannot start a thread to decide: {e}")),
    }
}
