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
//! slice of 64 a call ([`decide_many`]; a dirty call costs a thread and a
//! switch of scheduler, more than a slice's requests). A list longer
//! than 4,096, or the rest of one from a heavy request on, is `:dirty`,
//! and `Permc.decide_many/2` calls [`decide_many_dirty`] on a dirty CPU
//! scheduler, which reads every request, decides them all on a thread
//! with a main thread's stack (a dirty scheduler's is small, as for
//! `decide_dirty`) and builds the answers. A request nested deeper than a dirty scheduler's stack
//! allows the tree reader is answered `:inline` in its slot, and
//! `Permc.decide_many/2` decides it with `decide/2`.

use crate::{
    answer_with, atoms, decision_tuple, decision_tuple_with, error_map, guarded, measure,
    ok_decision, policy_arg, read, too_heavy_error, typed, DECIDE_STACK, DIRTY_DEPTH,
    INLINE_WEIGHT, IN_PERMC, MAX_WEIGHT,
};
use permc_runtime::answer::Decider;
use permc_runtime::{Decision, Policy, Request};
use rustler::{Encoder, Env, OwnedBinary, Term};
use serde_json::Value;

/// The most requests answered on the caller's scheduler in one call (a
/// slice): a typical request decides in a few microseconds, so a slice
/// stays far below the millisecond a NIF may hold a scheduler.
const SLICE: usize = 64;

/// `decide_many(policy, requests)` on the caller's scheduler, a slice at
/// a time: the answers of the first [`SLICE`] requests, as a list when
/// they were the last, else `{:more, answers, rest}`; `{:dirty, answers,
/// rest}` when `rest` starts with a request heavier than `INLINE_WEIGHT`
/// (`Permc.decide_many/2` sends a list longer than 4,096 to
/// [`decide_many_dirty`] itself). `{:error, …}` when `requests` is not a proper list or `policy` not a
/// policy. Each slice reports its share of a timeslice to the VM, so the
/// calling process is preempted as if the work were Erlang code.
#[rustler::nif]
fn decide_many<'a>(env: Env<'a>, policy: Term<'a>, requests: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let mut answers = Vec::with_capacity(SLICE);
        let mut cell = requests;
        while let Ok((request, tail)) = cell.list_get_cell() {
            if answers.len() == SLICE {
                rustler::schedule::consume_timeslice(env, 10);
                return (atoms::more(), answer_terms(env, answers), cell).encode(env);
            }
            match pending(env, &policy.0, request) {
                Some(a) => answers.push(a),
                None => return (atoms::dirty(), answer_terms(env, answers), cell).encode(env),
            }
            cell = tail;
        }
        if !cell.is_empty_list() {
            return not_a_list(env);
        }
        rustler::schedule::consume_timeslice(env, 10);
        answer_terms(env, answers).encode(env)
    })
}

/// A slice's answer before its terms are made: a decision whose tuple
/// waits for its message ([`answer_terms`]), or the term already made (an error,
/// a request with an `id`, one read as its tree).
enum Pending<'a> {
    Decided(Decision),
    Made(Term<'a>),
}

/// The answer to one request of a slice on this scheduler, `None` for
/// one heavier than `INLINE_WEIGHT`: a JSON line as `decide_json/2`
/// answers it, a map as `decide/2` does.
fn pending<'a>(env: Env<'a>, policy: &Policy, request: Term<'a>) -> Option<Pending<'a>> {
    match request.decode_as_binary() {
        Ok(line) if line.len() <= INLINE_WEIGHT => {
            Some(match permc_runtime::answer::read_request(line.as_slice()) {
                (None, Ok(req)) => Pending::Decided(policy.decide(&req)),
                (id, Ok(req)) => Pending::Made(ok_decision(env, &policy.decide(&req), id.as_ref())),
                (_, Err(e)) => Pending::Made(error_map(env, e.code, &e.message)),
            })
        }
        Ok(_) => None,
        Err(_) => {
            let request = match typed::common(request) {
                // A request `Permc` matched as the common one: its values.
                Some((map, Some(t))) => {
                    if t.weight > INLINE_WEIGHT {
                        return None;
                    }
                    if let Some(r) = Request::from_parts(&t.parts) {
                        return Some(match r {
                            Ok(req) => Pending::Decided(policy.decide(&req)),
                            Err(e) => Pending::Made(error_map(env, e.code, &e.message)),
                        });
                    }
                    map
                }
                Some((map, None)) => map,
                None => unwrapped(request),
            };
            if let Some(t) = typed::typed(request) {
                if t.weight > INLINE_WEIGHT {
                    return None;
                }
                // The request borrows the map's binaries: no string copied.
                if let Some(r) = Request::from_parts(&t.parts) {
                    return Some(match r {
                        Ok(req) => Pending::Decided(policy.decide(&req)),
                        Err(e) => Pending::Made(error_map(env, e.code, &e.message)),
                    });
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

/// A slice's answers as terms. The messages longer than a heap binary
/// (six of the eight typical commands' messages: 71–79 bytes) are
/// written end to end into one binary, each answer's a sub-binary of it:
/// one allocation for the slice where each was a reference-counted
/// binary of its own (allocated, then freed by a garbage collection:
/// about 6% of a request in the fourth round's profile). A process that
/// keeps one answer's message keeps the slice's (at most [`SLICE`]
/// messages) until it drops it.
fn answer_terms<'a>(env: Env<'a>, answers: Vec<Pending<'a>>) -> Vec<Term<'a>> {
    let long = |d: &Decision| d.message.len() > HEAP_BINARY;
    let total: usize = answers
        .iter()
        .map(|a| match a {
            Pending::Decided(d) if long(d) => d.message.len(),
            _ => 0,
        })
        .sum();
    let shared = (total > 0)
        .then(|| OwnedBinary::new(total))
        .flatten()
        .map(|mut b| {
            let mut at = 0;
            for a in &answers {
                if let Pending::Decided(d) = a {
                    if long(d) {
                        let m = d.message.as_bytes();
                        b.as_mut_slice()[at..at + m.len()].copy_from_slice(m);
                        at += m.len();
                    }
                }
            }
            b.release(env)
        });
    let mut at = 0;
    answers
        .into_iter()
        .map(|a| match a {
            Pending::Made(t) => t,
            Pending::Decided(d) if long(&d) => {
                // Its place in the shared binary, taken whether or not the
                // binary was made (the next message's comes after it).
                let start = at;
                at += d.message.len();
                match shared
                    .as_ref()
                    .and_then(|b| b.make_subbinary(start, d.message.len()).ok())
                {
                    Some(part) => decision_tuple_with(env, &d, part.to_term(env)),
                    None => decision_tuple(env, &d),
                }
            }
            Pending::Decided(d) => decision_tuple(env, &d),
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
