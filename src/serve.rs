//! `permc serve`: a long-running evaluator for the platform's engine and API
//! (an Elixir Port, a Node child process). SPEC §10.1–§10.2 on the wire.
//!
//! The protocol, in short (README "Engine integration" has it whole):
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
use crate::decide::{self, CompiledDecider, Decider, Engine, ReferenceDecider};
use permc_analyzer::output::{self, Source};
use permc_analyzer::Kind;
use permc_grammar::diagnostic::Diagnostic;
use permc_grammar::rules::{load_autonomy, load_permissions};
use permc_grammar::Severity;
use permc_runtime::Rules;
use serde_json::{json, Value};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

/// How often the watcher looks at the rule files. A file replaced by a
/// rename is loaded at the next poll (0–100 ms after the rename); a file
/// written in place once it has held still for one interval (100–200 ms
/// after the last write) — well within the one second the engine is
/// promised.
const POLL: Duration = Duration::from_millis(100);

/// A file whose mtime is this recent may still change without its size or
/// mtime changing (timestamps are coarse); its content is re-read at each
/// poll until it is older than this ("racily clean", as git calls it).
const RACY: Duration = Duration::from_secs(2);

/// A batch of fewer lines is decided on the main thread alone: handing it
/// to workers would cost more than it saves (and an interactive client
/// sends one line at a time).
const PARALLEL_MIN: usize = 32;

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
}

/// The decider type every thread shares.
type Shared = Arc<dyn Decider + Send + Sync>;

/// Which file a watched path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Permissions,
    Autonomy,
    Artifact,
}

/// What `stat` says about a file: enough to notice an edit in place (size,
/// mtime, ctime) and an atomic rename (inode, device).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fingerprint {
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    ino: u64,
    dev: u64,
}

impl Fingerprint {
    fn of(path: &Path) -> Option<Fingerprint> {
        let m = std::fs::metadata(path).ok()?;
        Some(Fingerprint {
            len: m.len(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
            ino: m.ino(),
            dev: m.dev(),
        })
    }

    /// Modified so recently that a further same-size write could leave the
    /// fingerprint unchanged (or dated in the future: clock skew).
    fn is_racy(&self, now: SystemTime) -> bool {
        let Ok(now) = now.duration_since(SystemTime::UNIX_EPOCH) else {
            return true;
        };
        let mtime = Duration::new(
            u64::try_from(self.mtime.0).unwrap_or(0),
            u32::try_from(self.mtime.1).unwrap_or(0),
        );
        mtime + RACY > now
    }
}

/// One read of one watched file: its fingerprint taken *before* the read,
/// whether it was the same *after* (if not, a write raced the read and the
/// bytes may be torn: they are not loaded, the next poll sees the change),
/// and the bytes read, or why they could not be.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileRead {
    fingerprint: Option<Fingerprint>,
    settled: bool,
    bytes: Result<Vec<u8>, String>,
}

/// The files `permc serve` watches, in a fixed order.
#[derive(Debug, Clone)]
struct Sources {
    files: Vec<(Role, PathBuf)>,
}

impl Sources {
    fn of(opts: &Options) -> Sources {
        let mut files = Vec::new();
        if let Some(p) = &opts.permissions {
            files.push((Role::Permissions, p.clone()));
        }
        if let Some(p) = &opts.autonomy {
            files.push((Role::Autonomy, p.clone()));
        }
        if let Some(p) = &opts.policy {
            files.push((Role::Artifact, p.clone()));
        }
        Sources { files }
    }

    fn fingerprints(&self) -> Vec<Option<Fingerprint>> {
        self.files.iter().map(|(_, p)| Fingerprint::of(p)).collect()
    }

    fn read(&self) -> Vec<FileRead> {
        self.files
            .iter()
            .map(|(_, p)| {
                let fingerprint = Fingerprint::of(p);
                let bytes = std::fs::read(p).map_err(|e| e.to_string());
                FileRead {
                    fingerprint,
                    settled: Fingerprint::of(p) == fingerprint,
                    bytes,
                }
            })
            .collect()
    }

    fn names(&self) -> Vec<String> {
        self.files
            .iter()
            .map(|(_, p)| p.display().to_string())
            .collect()
    }
}

/// Why a policy could not be loaded: every diagnostic, as JSON in SPEC §11's
/// shape (the `reload_failed` and `load_failed` events carry them).
#[derive(Debug)]
struct Failure {
    diagnostics: Vec<Value>,
}

/// Diagnostics as JSON, in the one shape of `permc check --format json`
/// (`permc_analyzer::output::diagnostic_json`).
fn diagnostics_json(diags: &[Diagnostic], name: &str, text: &[u8]) -> Vec<Value> {
    let sources = [Source {
        name: name.to_string(),
        text: String::from_utf8_lossy(text).into_owned(),
    }];
    output::diagnostics_json(diags, &sources)
}

/// A finding about a file as a whole (no position), in the one shape.
fn whole_file(check: &'static str, file: &str, message: &str) -> Value {
    let d = Diagnostic::new(
        check,
        permc_grammar::Severity::Error,
        file,
        permc_grammar::json::Span { start: 0, end: 0 },
        message,
    );
    output::diagnostic_json(&d, &output::Positions::new(&[]))
}

fn unreadable(path: &Path, why: &str) -> Value {
    let d = output::unreadable_file(&path.display().to_string(), why);
    output::diagnostic_json(&d, &output::Positions::new(&[]))
}

/// A loaded policy: the decider, and the warnings its files raised.
struct Loaded {
    decider: Box<dyn Decider + Send + Sync>,
    warnings: Vec<Value>,
}

/// Builds a decider from the files just read: the one place that knows
/// the engines.
///
/// From the sources, it loads the bytes read — never a second read of the
/// files, so what is decided is exactly what was fingerprinted — and a file
/// with any error-severity diagnostic rejects the whole policy (SPEC §2.1:
/// never a partial policy); then compiles it (SPEC §9), unless the
/// reference engine was asked for.
fn load_decider(opts: &Options, sources: &Sources, reads: &[FileRead]) -> Result<Loaded, Failure> {
    if let Some(artifact) = &opts.policy {
        return load_artifact(opts, artifact);
    }
    let mut diagnostics = Vec::new();
    let mut failed = false;
    let mut permissions = None;
    let mut autonomy = None;
    for ((role, path), read) in sources.files.iter().zip(reads) {
        let bytes = match &read.bytes {
            Ok(b) => b,
            Err(why) => {
                diagnostics.push(unreadable(path, why));
                failed = true;
                continue;
            }
        };
        let name = path.display().to_string();
        match role {
            Role::Permissions => {
                let l = load_permissions(&name, bytes);
                let diags =
                    crate::load::every_diagnostic(&name, bytes, Kind::Permissions, l.diagnostics);
                diagnostics.extend(diagnostics_json(&diags, &name, bytes));
                failed |= diags.iter().any(|d| d.severity == Severity::Error);
                permissions = l.value;
            }
            Role::Autonomy => {
                let l = load_autonomy(&name, bytes);
                let diags =
                    crate::load::every_diagnostic(&name, bytes, Kind::Autonomy, l.diagnostics);
                diagnostics.extend(diagnostics_json(&diags, &name, bytes));
                failed |= diags.iter().any(|d| d.severity == Severity::Error);
                autonomy = l.value;
            }
            Role::Artifact => {}
        }
    }
    // A rejected file leaves its value `None`; `failed` is then set too, but
    // the check below does not rely on it alone.
    let missing = (opts.permissions.is_some() && permissions.is_none())
        || (opts.autonomy.is_some() && autonomy.is_none());
    if failed || missing {
        return Err(Failure { diagnostics });
    }
    let rules = Rules::new(
        permissions.unwrap_or_default(),
        autonomy.unwrap_or_default(),
    );
    let decider: Box<dyn Decider + Send + Sync> = match opts.engine {
        Engine::Compiled => Box::new(CompiledDecider(permc_compiler::compile(
            &rules.permissions,
            &rules.autonomy,
        ))),
        Engine::Reference => Box::new(ReferenceDecider(rules)),
    };
    Ok(Loaded {
        decider,
        warnings: diagnostics,
    })
}

/// `--policy`: the artifact stands for the sources (SPEC §9), and
/// [`compile::load_policy`] refuses a corrupt, truncated, other-version or
/// stale one (rule files given too must hash as they did when compiled).
/// It reads the files itself; a write racing that read changes their
/// fingerprints, so the next poll loads them again.
fn load_artifact(opts: &Options, path: &Path) -> Result<Loaded, Failure> {
    let fail = |message: String| Failure {
        diagnostics: vec![whole_file(
            "artifact",
            &path.display().to_string(),
            message.strip_prefix("error: ").unwrap_or(&message),
        )],
    };
    let policy = compile::load_policy(path, opts.permissions.as_deref(), opts.autonomy.as_deref())
        .map_err(|f| fail(f.0))?;
    let decider: Box<dyn Decider + Send + Sync> = match opts.engine {
        Engine::Compiled => Box::new(CompiledDecider(policy)),
        Engine::Reference => {
            let (p, a) = policy
                .to_rules()
                .map_err(|e| fail(format!("cannot read the rules back from the artifact: {e}")))?;
            Box::new(ReferenceDecider(Rules::new(p, a)))
        }
    };
    Ok(Loaded {
        decider,
        warnings: Vec::new(),
    })
}

/// The policy in force. The watcher stores a new decider, then bumps
/// `generation` (release); the main thread compares `generation` (acquire)
/// with the one it holds at each request and re-reads the decider only when
/// it moved: a request is decided wholly by one policy, old or new.
struct Current {
    generation: AtomicU64,
    decider: Mutex<Shared>,
}

impl Current {
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
    let current = Arc::new(Current {
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
        let (opts, current) = (opts.clone(), Arc::clone(&current));
        std::thread::Builder::new()
            .name("permc-watch".into())
            .spawn(move || watch(&opts, &sources, reads, &current))
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
    match serve_stream(&current, &mut input, &out, opts.max_line_bytes, threads) {
        Ok(()) => Ok(()),
        // The client closed our stdout: nobody is left to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(ending(format!("reading requests or writing answers: {e}"))),
    }
}

/// Standard output, shared with the signal thread: the main thread holds
/// the lock from the moment it starts deciding a batch until its answers
/// are written, so SIGTERM, which takes the lock too, lands between two
/// batches.
struct Output {
    writer: Mutex<BufWriter<io::Stdout>>,
    terminating: AtomicBool,
}

impl Output {
    /// Takes the output to answer a batch — unless a signal asked to end:
    /// then the signal thread owns the ending (it flushes and exits as soon
    /// as it gets the lock) and this thread waits for the exit.
    fn begin(&self) -> MutexGuard<'_, BufWriter<io::Stdout>> {
        let w = lock(&self.writer);
        if self.terminating.load(Ordering::Acquire) {
            drop(w);
            loop {
                std::thread::park();
            }
        }
        w
    }
}

/// How one line of input ended.
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    Eof,
    Line,
    TooLong,
}

/// Reads one line into `buf` (without its `\n`), keeping at most `max`
/// bytes: the rest of a longer line is consumed and dropped as it streams
/// by, so a 10 GB line costs no more memory than a short one.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<LineRead> {
    let mut any = false;
    let mut too_long = false;
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => LineRead::Eof,
                (true, true) => LineRead::TooLong,
                (true, false) => LineRead::Line,
            });
        }
        any = true;
        let (chunk, used, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], i + 1, true),
            None => (avail, avail.len(), false),
        };
        if !too_long {
            if buf.len() + chunk.len() > max {
                too_long = true;
                buf.clear();
                buf.shrink_to(BUF);
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        input.consume(used);
        if done {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

fn error_answer(code: &str, message: String) -> Value {
    json!({"error": {"code": code, "message": message}})
}

fn too_long(max_line: usize) -> Value {
    error_answer(
        "line_too_long",
        format!("the request line is longer than {max_line} bytes"),
    )
}

/// Appends the answer to one (non-blank) request line to `out`, as one
/// JSON line.
fn answer_into(
    decider: &(dyn Decider + Send + Sync),
    line: &[u8],
    max_line: usize,
    out: &mut Vec<u8>,
) {
    if line.len() > max_line {
        return write_answer(&too_long(max_line), out);
    }
    let mark = out.len();
    // A panic is an engine bug; it fails closed for this request (an
    // error, never a decision, and nothing half written) and the stream
    // goes on.
    if catch_unwind(AssertUnwindSafe(|| {
        decide::write_answer_line(decider, line, out)
    }))
    .is_err()
    {
        out.truncate(mark);
        let e = error_answer(
            "internal_error",
            "permc failed on this request; please report it".into(),
        );
        write_answer(&e, out);
    }
}

fn write_answer(answer: &Value, out: &mut Vec<u8>) {
    // Serializing a `Value` into memory cannot fail: its keys are strings
    // and a `Vec` takes every byte.
    let _ = serde_json::to_writer(&mut *out, answer);
    out.push(b'\n');
}

/// Answers every line of `bytes` (lines ending in `\n`) into `out`.
fn answer_part(
    decider: &(dyn Decider + Send + Sync),
    bytes: &[u8],
    max_line: usize,
    out: &mut Vec<u8>,
) {
    for line in bytes.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        if !line.is_empty() {
            answer_into(decider, line, max_line, out);
        }
    }
}

/// A part of a batch handed to a worker, and handed back with its answers.
/// The buffers travel back and forth, so a worker allocates none per batch.
struct Job {
    decider: Shared,
    max_line: usize,
    input: Vec<u8>,
    output: Vec<u8>,
}

/// A thread that lives as long as the process and answers parts of
/// pipelined batches. Long-lived rather than spawned per batch: a new
/// thread per 64 KiB costs a stack mapped and unmapped, and a cold
/// allocator cache, each time.
struct Worker {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<Job>,
}

impl Worker {
    fn spawn() -> io::Result<Worker> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, done) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("permc-decide".into())
            .spawn(move || {
                for mut job in inbox {
                    answer_part(
                        job.decider.as_ref(),
                        &job.input,
                        job.max_line,
                        &mut job.output,
                    );
                    if outbox.send(job).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Worker { jobs, done })
    }
}

/// Cuts `batch` (complete lines) into `n` parts at line boundaries, of about
/// equal bytes.
fn cut(batch: &[u8], n: usize) -> Vec<&[u8]> {
    let mut parts = Vec::with_capacity(n);
    let mut start = 0;
    for k in 1..=n {
        let target = (batch.len() * k / n).max(start);
        let end = if k == n {
            batch.len()
        } else {
            batch[target..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(batch.len(), |i| target + i + 1)
        };
        parts.push(&batch[start..end]);
        start = end;
    }
    parts
}

/// The threads that decide a batch: the main thread and the workers.
struct Deciders {
    workers: Vec<Worker>,
    /// Buffers for the workers' jobs, kept between batches.
    spare: Vec<(Vec<u8>, Vec<u8>)>,
    /// The main thread's answers.
    own: Vec<u8>,
}

impl Deciders {
    /// `threads` deciding threads in all, the main thread included. A
    /// worker that cannot be started is done without.
    fn new(threads: usize) -> Deciders {
        let workers: Vec<Worker> = (1..threads).map_while(|_| Worker::spawn().ok()).collect();
        let spare = workers
            .iter()
            .map(|_| (Vec::with_capacity(BUF), Vec::with_capacity(BUF)))
            .collect();
        Deciders {
            workers,
            spare,
            own: Vec::with_capacity(BUF),
        }
    }

    /// Answers every line of `batch` (complete lines) and writes the answers
    /// to `w`, in order. A batch of at least [`PARALLEL_MIN`] lines is cut
    /// into one part per thread; each request is still decided whole by one
    /// thread and one policy. If a worker is gone (it cannot be, short of a
    /// bug), its part is decided here.
    fn answer(
        &mut self,
        decider: &Shared,
        batch: &[u8],
        max_line: usize,
        w: &mut impl Write,
    ) -> io::Result<()> {
        let lines = batch.iter().filter(|&&b| b == b'\n').count();
        let parts = if self.workers.is_empty() || lines < PARALLEL_MIN {
            vec![batch]
        } else {
            cut(batch, self.workers.len() + 1)
        };
        let mut handed = Vec::with_capacity(self.workers.len());
        for (k, part) in parts.iter().enumerate().skip(1) {
            let (mut input, output) = std::mem::take(&mut self.spare[k - 1]);
            input.clear();
            input.extend_from_slice(part);
            let job = Job {
                decider: Arc::clone(decider),
                max_line,
                input,
                output,
            };
            handed.push(self.workers[k - 1].jobs.send(job).is_ok());
        }
        answer_part(decider.as_ref(), parts[0], max_line, &mut self.own);
        w.write_all(&self.own)?;
        self.own.clear();
        self.own.shrink_to(BUF);
        for (k, part) in parts.iter().enumerate().skip(1) {
            let job = if handed[k - 1] {
                self.workers[k - 1].done.recv().ok()
            } else {
                None
            };
            match job {
                Some(mut job) => {
                    w.write_all(&job.output)?;
                    job.output.clear();
                    job.output.shrink_to(BUF);
                    job.input.shrink_to(BUF);
                    self.spare[k - 1] = (job.input, job.output);
                }
                None => {
                    answer_part(decider.as_ref(), part, max_line, &mut self.own);
                    w.write_all(&self.own)?;
                    self.own.clear();
                }
            }
        }
        Ok(())
    }
}

/// The loop of the main thread. Every complete line already buffered is
/// decided as one batch and its answers written in one go; when no complete
/// line is left, the answers are flushed and the next line is awaited. So a
/// pipelined stream is answered in 64 KiB writes and an interactive client
/// gets each answer at once. Writes block when the client does not read:
/// back-pressure instead of unbounded buffering. The output lock is held
/// from the start of a batch until its answers are written, so a signal
/// lands between two batches.
fn serve_stream<R: io::Read>(
    current: &Current,
    input: &mut BufReader<R>,
    out: &Output,
    max_line: usize,
    threads: usize,
) -> io::Result<()> {
    let (mut generation, mut decider) = current.get();
    let mut deciders = Deciders::new(threads);
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut one: Vec<u8> = Vec::with_capacity(4096);
    loop {
        let buffered = input.buffer();
        let complete = buffered
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if complete == 0 {
            lock(&out.writer).flush()?;
            buf.clear();
            let read = read_line(input, &mut buf, max_line)?;
            let line = buf.trim_ascii();
            match read {
                LineRead::Eof => break,
                LineRead::Line if line.is_empty() => continue,
                _ => {}
            }
            let mut w = out.begin();
            if current.generation.load(Ordering::Acquire) != generation {
                (generation, decider) = current.get();
            }
            if read == LineRead::TooLong {
                write_answer(&too_long(max_line), &mut one);
            } else {
                answer_into(decider.as_ref(), line, max_line, &mut one);
            }
            w.write_all(&one)?;
            one.clear();
            one.shrink_to(4096);
            continue;
        }
        let mut w = out.begin();
        if current.generation.load(Ordering::Acquire) != generation {
            (generation, decider) = current.get();
        }
        deciders.answer(&decider, &buffered[..complete], max_line, &mut *w)?;
        drop(w);
        input.consume(complete);
    }
    lock(&out.writer).flush()
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

/// Whether a file changed by being replaced (another inode in its place)
/// rather than written in place.
fn replaced(now: Option<Fingerprint>, before: Option<Fingerprint>) -> bool {
    match (now, before) {
        (Some(n), Some(b)) => (n.ino, n.dev) != (b.ino, b.dev),
        (Some(_), None) => false,
        (None, _) => false,
    }
}

/// The watcher: polls the files' fingerprints every [`POLL`]; once a change
/// has been stable for one poll (at once for a file replaced by a rename)
/// and through the read (so a file being written is not read half way),
/// re-reads the files, and if their bytes
/// differ from the last ones loaded, loads them whole and swaps the new
/// decider in — or, if they do not load, keeps the one in force and says
/// why. Each distinct content is reported once.
fn watch(opts: &Options, sources: &Sources, initial: Vec<FileRead>, current: &Current) {
    let mut seen: Vec<Option<Fingerprint>> = initial.iter().map(|r| r.fingerprint).collect();
    let mut read_at = seen.clone();
    let mut last: Vec<Result<Vec<u8>, String>> = initial.into_iter().map(|r| r.bytes).collect();
    loop {
        std::thread::sleep(POLL);
        let now = sources.fingerprints();
        if now != seen {
            // A file replaced by a rename was written whole before it
            // appeared: read it now. A file changed in place may still be
            // being written: wait for it to hold still for one poll.
            let replaced = now
                .iter()
                .zip(&seen)
                .all(|(n, s)| n == s || replaced(*n, *s));
            seen = now.clone();
            if !replaced {
                continue;
            }
        }
        let racy = now.iter().flatten().any(|f| f.is_racy(SystemTime::now()));
        if now == read_at && !racy {
            continue;
        }
        let started = Instant::now();
        let reads = sources.read();
        let fingerprints: Vec<_> = reads.iter().map(|r| r.fingerprint).collect();
        if fingerprints != now || reads.iter().any(|r| !r.settled) {
            // Written while we read: wait for it to settle.
            continue;
        }
        read_at = fingerprints;
        let bytes: Vec<_> = reads.iter().map(|r| r.bytes.clone()).collect();
        if bytes == last {
            continue;
        }
        last = bytes;
        let result = catch_unwind(AssertUnwindSafe(|| load_decider(opts, sources, &reads)))
            .unwrap_or_else(|_| {
                Err(Failure {
                    diagnostics: vec![whole_file(
                        "internal-error",
                        "",
                        "permc failed while loading the policy; please report it",
                    )],
                })
            });
        match result {
            Ok(loaded) => {
                let generation = current.set(Arc::from(loaded.decider));
                event(&json!({
                    "event": "reloaded",
                    "generation": generation,
                    "files": sources.names(),
                    "loadMs": started.elapsed().as_secs_f64() * 1000.0,
                    "version": output::JSON_VERSION,
                    "diagnostics": loaded.warnings,
                }));
            }
            Err(f) => event(&json!({
                "event": "reload_failed",
                "generation": current.generation.load(Ordering::Acquire),
                "files": sources.names(),
                "version": output::JSON_VERSION,
                "diagnostics": f.diagnostics,
            })),
        }
    }
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
        let decider: Shared = Arc::new(ReferenceDecider(Rules::default()));
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
