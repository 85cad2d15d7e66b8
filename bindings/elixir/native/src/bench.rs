//! For `bindings/bench.sh` only: the in-process work the NIF's calls are
//! measured against, timed in this process, on this build (allocator and
//! all), on the same requests and policy, so a ratio compares the
//! crossing alone.

use crate::{error_map, guarded, policy_arg, DECIDE_STACK};
use permc_runtime::answer::{read_request, write_answer_line, Decider};
use rustler::{Binary, Encoder, Env, Term};
use std::hint::black_box;
use std::time::Instant;

/// `bench_in_process(policy, lines, n, mode)`: nanoseconds a request,
/// over `n` requests cycling through `lines` (JSON request lines), of
/// (`mode` 0) the decision from a built request with every string of the
/// answer built (what `decide/2` returns), (1) a line in and the answer
/// line out (`permc decide`'s work, `write_answer_line`), or (2) policy
/// and reason alone from a built request (`Policy::brief`, the compiled
/// engine's answer without its strings: what `decide_brief/2` returns).
/// Runs on a thread of its own (a dirty scheduler's stack is small).
#[rustler::nif(schedule = "DirtyCpu")]
fn bench_in_process<'a>(
    env: Env<'a>,
    policy: Term<'a>,
    lines: Vec<Binary<'a>>,
    n: usize,
    mode: u32,
) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let lines: Vec<&[u8]> = lines.iter().map(|b| b.as_slice()).collect();
        let reqs: Vec<_> = lines
            .iter()
            .filter_map(|l| read_request(l).1.ok())
            .collect();
        if reqs.len() != lines.len() || lines.is_empty() {
            return error_map(env, "invalid_argument", "every line must be a request");
        }
        let p = &policy.0;
        let timed = std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(DECIDE_STACK)
                .spawn_scoped(s, || {
                    let start = Instant::now();
                    let mut out = Vec::with_capacity(512);
                    for i in 0..n {
                        let req = black_box(&reqs[i % reqs.len()]);
                        match mode {
                            1 => {
                                out.clear();
                                write_answer_line(p, black_box(lines[i % lines.len()]), &mut out);
                                black_box(&out);
                            }
                            2 => {
                                black_box(p.brief(req));
                            }
                            _ => {
                                black_box(p.decide(req));
                            }
                        }
                    }
                    start.elapsed().as_nanos() as f64 / n.max(1) as f64
                })
                .map(|h| h.join())
        });
        match timed {
            Ok(Ok(ns)) => ns.encode(env),
            _ => error_map(env, "panic", "the in-process timing failed"),
        }
    })
}

/// `cpu_time_ns()`: this OS process's CPU time (every thread's, user and
/// system), in nanoseconds. The bench reads it around each measurement:
/// on a machine shared with other builds, wall time counts the time the
/// VM waited for a core, CPU time only the work done (the bench runs the
/// VM with its schedulers' busy-waiting off, so idle ones add nothing).
#[rustler::nif]
fn cpu_time_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for clock_gettime to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
    if ok {
        (t.tv_sec as u64) * 1_000_000_000 + t.tv_nsec as u64
    } else {
        0
    }
}
