//! `permc serve`: a long-running evaluator for the platform's engine and API
//! (an Elixir Port, a Node child process). SPEC §10.1–§10.2 on the wire.
//!
//! The protocol, in short (docs/serve.md has it whole):
//! - stdin: one request (SPEC §10.1) per line, JSON Lines; blank lines are
//!   skipped;
//! - stdout: exactly one answer line per request, in request order — a
//!   decision (SPEC §10.2) or `{"error": {...}}` — with the request's `id`
//!   echoed when the line could be read as a JSON object;
//! - stderr: one JSON object per line, each with an `event` field (`ready`,
//!   `reloaded`, `reload_failed`, `load_failed`, `error`, `panic`);
//! - end of input → exit 0; SIGTERM/SIGINT → the lines being decided are
//!   finished, answers are flushed, exit 0.
//!
//! Threads: the main thread reads, decides and writes; long-lived workers
//! (one per core beside it) decide parts of a pipelined batch; a watcher
//! polls the rule files and swaps in a new decider when they change; a
//! signal thread ends the process between two batches. The decider in force
//! is an `Arc` behind a mutex plus a generation counter, so the main thread
//! pays one atomic load per batch and takes the lock only after a reload.

use crate::compile;
use crate::decide;
use crate::engine::{self, Decider, Engine, RulesOrArtifact};
use crate::error::CliError;
use permc_analyzer::output::{self, Source};
use permc_analyzer::Kind;
use permc_core::Rules;
use permc_grammar::diagnostic::Diagnostic;
use permc_grammar::rules::{load_autonomy, load_permissions, Autonomy, Permissions};
use permc_grammar::Severity;
use serde_json::{json, Value};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

mod load;
mod pool;
mod stream;
mod watch;

use load::*;
use pool::*;
use stream::*;
use watch::*;

/// At most this many threads decide one batch.
const MAX_THREADS: usize = 16;

/// How long SIGTERM waits for the line in progress when its answer cannot
/// be written (the client stopped reading stdout) before giving up.
const TERM_GRACE: Duration = Duration::from_secs(2);

/// Read and write buffers: large enough to batch a pipelined stream into
/// few system calls, small enough that memory stays bounded.
const BUF: usize = 1 << 16;

/// What `permc serve` was asked to serve.
#[derive(Debug, Clone)]
pub struct Options {
    /// permissions.json.
    pub permissions: Option<PathBuf>,
    /// autonomy.json.
    pub autonomy: Option<PathBuf>,
    /// A compiled artifact, instead of the sources (SPEC §9).
    pub policy: Option<PathBuf>,
    /// Which engine decides.
    pub engine: Engine,
    /// Longest request line read; a longer one is answered with an error
    /// (and skipped without being buffered), so memory stays bounded.
    pub max_line_bytes: usize,
    /// Threads deciding a pipelined batch; 0 = one per core.
    pub threads: usize,
    /// The project's `[[command]]` rows (permc.toml), as read at start;
    /// `config` is watched and read again with the rule files.
    pub project: permc_core::facts::project::ProjectRows,
    /// Where they were read from (`--config`, or beside the rule files).
    pub config: Option<PathBuf>,
    /// `config` was not given but found beside the rule files: while it
    /// does not exist the project has no rows (created later, it is read
    /// as an edit is).
    pub config_optional: bool,
}

/// The decider type every thread shares.
type Shared = Arc<dyn Decider + Send + Sync>;

/// The decider in force. The watcher stores a new decider, then bumps
/// `generation` (release); the main thread compares `generation` (acquire)
/// with the one it holds at each request and re-reads the decider only when
/// it moved: a request is decided wholly by one policy, old or new.
struct LiveDecider {
    generation: AtomicU64,
    decider: Mutex<Shared>,
}

impl LiveDecider {
    fn get(&self) -> (u64, Shared) {
        let g = self.generation.load(Ordering::Acquire);
        (g, lock(&self.decider).clone())
    }

    fn set(&self, d: Shared) -> u64 {
        *lock(&self.decider) = d;
        self.generation.fetch_add(1, Ordering::AcqRel) + 1
    }
}

/// Locks a mutex even if a thread panicked while holding it: every value
/// behind our mutexes is whole at every instant (a pointer swap, a buffer of
/// complete lines), so a poisoned one is still sound.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes one event line on stderr in a single write (so lines of two
/// threads never interleave). A failed write is ignored: events are
/// advisory, answers on stdout are the contract.
fn event(v: &Value) {
    let mut line = v.to_string();
    line.push('\n');
    let _ = io::stderr().lock().write_all(line.as_bytes());
}

/// Runs `permc serve` until end of input (exit 0) or a signal. What ends it
/// otherwise is reported as an event on stderr (which carries nothing but
/// events), with exit status 2: `load_failed` for a policy that does not
/// load, `error` for anything else.
pub fn run(opts: Options) -> ExitCode {
    match serve(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(ending) => {
            event(&ending);
            ExitCode::from(2)
        }
    }
}

/// The `error` event that ends `permc serve`.
fn ending(message: String) -> Value {
    json!({"event": "error", "message": message})
}

fn serve(opts: Options) -> Result<(), Value> {
    install_panic_hook();
    let sources = Sources::of(&opts);
    let reads = sources.read();
    let loaded = load_decider(&opts, &sources, &reads).map_err(
        |f| json!({"event": "load_failed", "files": sources.names(), "version": output::JSON_VERSION, "diagnostics": f.diagnostics}),
    )?;
    let live = Arc::new(LiveDecider {
        generation: AtomicU64::new(1),
        decider: Mutex::new(Arc::from(loaded.decider)),
    });
    let out = Arc::new(Output {
        writer: Mutex::new(BufWriter::with_capacity(BUF, io::stdout())),
        terminating: AtomicBool::new(false),
    });
    // Signals are handled before `ready` tells the client it may send.
    install_signal_thread(Arc::clone(&out))
        .map_err(|e| ending(format!("cannot handle SIGTERM and SIGINT: {e}")))?;
    event(&json!({
        "event": "ready",
        "generation": 1,
        "files": sources.names(),
        "version": output::JSON_VERSION,
        "diagnostics": loaded.warnings,
    }));
    // Started after `ready`, so that no event comes before it; it compares
    // with the files as first read, so a change since is not missed.
    if !sources.files.is_empty() {
        let (opts, live) = (opts.clone(), Arc::clone(&live));
        std::thread::Builder::new()
            .name("permc-watch".into())
            .spawn(move || watch(&opts, &sources, reads, &live))
            .map_err(|e| ending(format!("cannot start the file watcher: {e}")))?;
    }
    let stdin = io::stdin();
    let mut input = BufReader::with_capacity(BUF, stdin.lock());
    let threads = match opts.threads {
        0 => std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_THREADS),
        n => n.min(MAX_THREADS),
    };
    match serve_stream(&live, &mut input, &out, opts.max_line_bytes, threads) {
        Ok(()) => Ok(()),
        // The client closed our stdout: nobody is left to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(ending(format!("reading requests or writing answers: {e}"))),
    }
}

/// SIGTERM and SIGINT end the process between two batches: the signal
/// thread marks the output as terminating, waits for the lines in progress
/// (the batch being decided: one line when the client waits for each
/// answer, at most 64 KiB of lines when it pipelines — the main thread holds
/// the output lock while deciding and writing them), flushes every answer
/// written so far, and exits 0. If those answers cannot be written within
/// [`TERM_GRACE`] — the client stopped reading — it exits 1 without them.
///
/// signal-hook runs the handler's real work on an ordinary thread, so no
/// `unsafe` (forbidden in this workspace) and no async-signal-safety rules.
fn install_signal_thread(out: Arc<Output>) -> io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT])?;
    std::thread::Builder::new()
        .name("permc-signals".into())
        .spawn(move || {
            if signals.forever().next().is_some() {
                out.terminating.store(true, Ordering::Release);
                // The answers in progress may never be written (a client
                // that stopped reading): then give up after the grace.
                let _ = std::thread::Builder::new()
                    .name("permc-term-deadline".into())
                    .spawn(|| {
                        std::thread::sleep(TERM_GRACE);
                        std::process::exit(1);
                    });
                let code = match lock(&out.writer).flush() {
                    // A client that closed our stdout wants no answers.
                    Err(e) if e.kind() != io::ErrorKind::BrokenPipe => 1,
                    _ => 0,
                };
                std::process::exit(code);
            }
        })?;
    Ok(())
}

/// A panic anywhere is reported as an event line, keeping stderr JSON.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        event(&json!({"event": "panic", "message": info.to_string()}));
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(LineRead, Vec<u8>)> {
        let mut r = BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            let mut buf = Vec::new();
            let k = read_line(&mut r, &mut buf, max).expect("in-memory reads do not fail");
            if k == LineRead::Eof {
                return out;
            }
            out.push((k, buf));
        }
    }

    #[test]
    fn reads_lines_across_buffer_boundaries() {
        let got = lines(b"abcdefghij\nxy\n\nlast", 100);
        assert_eq!(
            got,
            vec![
                (LineRead::Line, b"abcdefghij".to_vec()),
                (LineRead::Line, b"xy".to_vec()),
                (LineRead::Line, b"".to_vec()),
                (LineRead::Line, b"last".to_vec()),
            ]
        );
    }

    #[test]
    fn drops_overlong_lines_whole_and_goes_on() {
        let got = lines(b"0123456789abcdef\nok\n0123456789", 8);
        assert_eq!(
            got,
            vec![
                (LineRead::TooLong, Vec::new()),
                (LineRead::Line, b"ok".to_vec()),
                (LineRead::TooLong, Vec::new()),
            ]
        );
    }

    #[test]
    fn a_line_of_exactly_max_bytes_is_read() {
        assert_eq!(
            lines(b"12345678\n", 8),
            vec![(LineRead::Line, b"12345678".to_vec())]
        );
    }

    #[test]
    fn batches_are_cut_at_line_boundaries() {
        let batch = b"a\nbb\nccc\ndddd\ne\n";
        for n in 1..6 {
            let parts = cut(batch, n);
            assert_eq!(parts.len(), n);
            assert_eq!(parts.concat(), batch.to_vec());
            assert!(parts.iter().all(|p| p.is_empty() || p.ends_with(b"\n")));
        }
    }

    #[test]
    fn parallel_answers_equal_sequential_ones_in_order() {
        let decider: Shared = Arc::new(engine::ReferenceDecider(Rules::default()));
        let mut batch = Vec::new();
        for i in 0..500 {
            let line = match i % 3 {
                0 => format!(
                    r#"{{"id": {i}, "action": {{"type": "git_commit"}}, "context": {{"role": "developer"}}}}"#
                ),
                1 => format!(
                    r#"{{"id": {i}, "action": {{"type": "teleport"}}, "context": {{"role": "developer"}}}}"#
                ),
                _ => "not json".to_string(),
            };
            batch.extend(line.bytes());
            batch.push(b'\n');
        }
        let mut sequential = Vec::new();
        Deciders::new(1)
            .answer(&decider, &batch, 1 << 20, &mut sequential)
            .expect("in memory");
        let mut parallel = Vec::new();
        let mut three = Deciders::new(3);
        for _ in 0..2 {
            parallel.clear();
            three
                .answer(&decider, &batch, 1 << 20, &mut parallel)
                .expect("in memory");
            assert_eq!(
                String::from_utf8_lossy(&parallel),
                String::from_utf8_lossy(&sequential)
            );
        }
        assert_eq!(sequential.iter().filter(|&&b| b == b'\n').count(), 500);
    }
}
