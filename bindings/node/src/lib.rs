//! permc as a Node-API addon: what `bindings/node/index.js` calls.
//!
//! The common request (known fields, each once, strings, `containerRunning`
//! a boolean) crosses as its fields, alone or in a batch, the strings
//! copied once ([`decide_batch`], `batch`), is read typed
//! (`Request::from_parts`, the typed reading of the CLI's JSON scanner)
//! and answered as one string of the answers' strings and their codes
//! (`fast`), from which index.js makes the objects;
//! any other, and any that reading refuses, is checked by the JavaScript
//! side to be made of JSON values and crosses as JSON text, read by the
//! CLI's strict reader and answered by the CLI's answer writer
//! (permc-runtime), so the answer is byte for byte `permc decide`'s
//! either way. Errors cross as JSON text in
//! the `Error`'s message (`{"code", "message", "diagnostics"}`), which
//! index.js turns into an `Error` with `code` and `diagnostics`. A panic
//! is caught here and thrown as an error with code `panic`.

/// mimalloc (its v2 line, built `no_thp`) for the addon's own
/// allocations, as in the NIF: a decision allocates a few dozen small
/// strings and vectors. V8's heap is untouched.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use napi::bindgen_prelude::{AsyncTask, Buffer, External, ObjectFinalize};
use napi::{Env, Error, JsObject, JsString, JsUnknown, NapiValue, Result, Status, Task};
use napi_derive::napi;
use permc_runtime::answer::Decider;
use permc_runtime::answer::{read_request, write_answer_line};
use permc_runtime::{LoadError, Parts, Policy, Request};
use serde_json::{json, Value};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

mod batch;
mod fast;

/// An error for index.js: its code, message and diagnostics as JSON
/// (`version` as in `permc check --format json`'s document).
fn error(code: &str, message: &str, diagnostics: Vec<Value>) -> Error {
    let v = json!({"code": code, "message": message, "version": 1, "diagnostics": diagnostics});
    Error::new(Status::GenericFailure, v.to_string())
}

/// The longest request read, in bytes: what `permc serve` takes in one
/// line (16 MiB). A longer one is answered `request_too_large`, unread.
const MAX_REQUEST: usize = 16 << 20;

/// The error for a request over [`MAX_REQUEST`] bytes, if it is.
fn too_large(request: &str) -> Option<(&'static str, String)> {
    (request.len() > MAX_REQUEST).then(|| {
        (
            "request_too_large",
            format!("the request is larger than {MAX_REQUEST} bytes"),
        )
    })
}

thread_local! {
    /// Is permc running on this thread (its panics are caught and
    /// returned, not printed)?
    static IN_PERMC: Cell<bool> = const { Cell::new(false) };
}

/// Installs, once, a panic hook that prints nothing for a panic inside
/// permc (it comes back as an error; a Rust backtrace on node's stderr
/// helps no one) and hands any other panic to the hook before it.
fn quiet_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_PERMC.with(Cell::get) {
                before(info);
            }
        }));
    });
}

/// Runs `f`, turning a panic into an error with code `panic`.
fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    quiet_panics();
    let was = IN_PERMC.with(|c| c.replace(true));
    let outcome = catch_unwind(AssertUnwindSafe(f));
    IN_PERMC.with(|c| c.set(was));
    match outcome {
        Ok(r) => r,
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(error(
                "panic",
                &format!("permc panicked (please report this): {what}"),
                Vec::new(),
            ))
        }
    }
}

/// A load error: the runtime's diagnostics (a rejected file's, an
/// unreadable file's `unreadable-file`), else — not an artifact — one
/// about the whole file, in the same shape (`permc check --format json`).
fn load_error(e: LoadError, file: &str) -> Error {
    let diagnostics = if e.diagnostics.is_empty() {
        vec![json!({
            "check": e.code,
            "severity": "error",
            "file": file,
            "line": null,
            "column": null,
            "endLine": null,
            "endColumn": null,
            "message": e.message,
            "help": null,
            "related": [],
        })]
    } else {
        e.diagnostics
    };
    error(e.code, &e.message, diagnostics)
}

/// A loaded policy: immutable.
#[napi(custom_finalize)]
pub struct NativePolicy {
    /// Shared with the handles `decideBatch` takes ([`NativePolicy::handle`]).
    policy: Arc<Policy>,
    /// The memory it is reported to V8 to hold ([`NativePolicy::new`]).
    external: i64,
}

impl NativePolicy {
    /// A policy, its memory reported to V8 (`napi_adjust_external_memory`)
    /// as an estimate from the files it was read from: a compiled policy
    /// holds about 2× its artifact's bytes, about 20× its rule files'
    /// (docs/performance.md's resident-memory figures at 100k rules). V8 sees only a
    /// small wrapper object otherwise, and a process that reloads its
    /// policy (each activation) would keep the replaced ones, tens of MB
    /// each at 100k rules, until an unrelated collection. Taken back when
    /// V8 finalizes the object. (It does not make loading faster: a slow
    /// load of the 100k-rule artifact is system time in page faults of
    /// fresh memory, as many faults as a fast one, docs/performance.md.)
    fn new(env: &mut Env, policy: Policy, files: &[&str], factor: u64) -> NativePolicy {
        let bytes: u64 = files
            .iter()
            .filter_map(|f| std::fs::metadata(f).ok())
            .map(|m| m.len())
            .sum();
        NativePolicy::of_bytes(env, policy, bytes, factor)
    }

    /// As [`NativePolicy::new`], from sources of `bytes` bytes in all.
    fn of_bytes(env: &mut Env, policy: Policy, bytes: u64, factor: u64) -> NativePolicy {
        let external = i64::try_from(bytes.saturating_mul(factor)).unwrap_or(i64::MAX / 2);
        // A failed report only leaves V8's estimate as it was.
        let external = match env.adjust_external_memory(external) {
            Ok(_) => external,
            Err(_) => 0,
        };
        REPORTED.fetch_add(external, Ordering::Relaxed);
        NativePolicy {
            policy: Arc::new(policy),
            external,
        }
    }
}

impl ObjectFinalize for NativePolicy {
    fn finalize(self, mut env: Env) -> Result<()> {
        if self.external != 0 {
            env.adjust_external_memory(-self.external)?;
            REPORTED.fetch_sub(self.external, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// The bytes the live policies hold reported to V8, in all: what
/// [`NativePolicy::new`] added and finalizing took back. Node's own
/// `process.memoryUsage().external` does not show these adjustments on
/// every version (Node 20 moved by 4 bytes for a 100k-rule policy), so
/// the test of the reporting reads this counter. Not part of the
/// package's API (index.js does not export it).
static REPORTED: AtomicI64 = AtomicI64::new(0);

/// [`REPORTED`], for the addon's tests.
#[napi]
pub fn reported_external_memory() -> i64 {
    REPORTED.load(Ordering::Relaxed)
}

/// Loads and compiles the rule files, with permc.toml's `[[command]]`
/// rows when `config` (its path) is given.
#[napi]
pub fn load(
    mut env: Env,
    permissions: String,
    autonomy: Option<String>,
    config: Option<String>,
) -> Result<NativePolicy> {
    guarded(|| {
        let r = Policy::load_with(
            Some(Path::new(&permissions)),
            autonomy.as_deref().map(Path::new),
            config.as_deref().map(Path::new),
        );
        match r {
            Ok(policy) => {
                let files = [Some(permissions.as_str()), autonomy.as_deref()];
                let files: Vec<&str> = files.into_iter().flatten().collect();
                Ok(NativePolicy::new(&mut env, policy, &files, 20))
            }
            Err(e) => {
                let file = match (&autonomy, &config) {
                    (_, Some(c)) if e.message.contains(c.as_str()) => c.clone(),
                    (Some(a), _)
                        if e.message.contains(a.as_str()) && !e.message.contains(&permissions) =>
                    {
                        a.clone()
                    }
                    _ => permissions.clone(),
                };
                Err(load_error(e, &file))
            }
        }
    })
}

/// Loads an artifact.
#[napi]
pub fn load_artifact(mut env: Env, path: String) -> Result<NativePolicy> {
    guarded(|| match Policy::load_artifact(Path::new(&path)) {
        Ok(policy) => Ok(NativePolicy::new(&mut env, policy, &[&path], 2)),
        Err(e) => Err(load_error(e, &path)),
    })
}

/// Compiles rule files' text held in memory (diagnostics name them
/// `permissions.json`, `autonomy.json` and `permc.toml`).
#[napi]
pub fn load_text(
    mut env: Env,
    permissions: Buffer,
    autonomy: Option<Buffer>,
    config: Option<Buffer>,
) -> Result<NativePolicy> {
    guarded(|| {
        let a = autonomy.as_deref();
        match Policy::load_text_with(Some(&permissions), a, config.as_deref()) {
            Ok(policy) => {
                let bytes = permissions.len() + a.map_or(0, <[u8]>::len);
                Ok(NativePolicy::of_bytes(&mut env, policy, bytes as u64, 20))
            }
            Err(e) => {
                let file = match e.diagnostics.first().and_then(|d| d["file"].as_str()) {
                    Some("autonomy.json") => "autonomy.json",
                    Some("permc.toml") => "permc.toml",
                    _ => "permissions.json",
                };
                Err(load_error(e, file))
            }
        }
    })
}

/// Loading off the main thread: the rule files read and compiled on
/// libuv's thread pool, the policy made on the main thread.
pub struct LoadTask {
    permissions: String,
    autonomy: Option<String>,
    config: Option<String>,
}

impl Task for LoadTask {
    type Output = Policy;
    type JsValue = NativePolicy;

    fn compute(&mut self) -> Result<Policy> {
        guarded(|| {
            Policy::load_with(
                Some(Path::new(&self.permissions)),
                self.autonomy.as_deref().map(Path::new),
                self.config.as_deref().map(Path::new),
            )
            .map_err(|e| {
                let file = match &self.autonomy {
                    _ if self
                        .config
                        .as_ref()
                        .is_some_and(|c| e.message.contains(c.as_str())) =>
                    {
                        self.config.clone().unwrap_or_default()
                    }
                    Some(a)
                        if e.message.contains(a.as_str())
                            && !e.message.contains(&self.permissions) =>
                    {
                        a.clone()
                    }
                    _ => self.permissions.clone(),
                };
                load_error(e, &file)
            })
        })
    }

    fn resolve(&mut self, mut env: Env, policy: Policy) -> Result<NativePolicy> {
        let files = [Some(self.permissions.as_str()), self.autonomy.as_deref()];
        let files: Vec<&str> = files.into_iter().flatten().collect();
        Ok(NativePolicy::new(&mut env, policy, &files, 20))
    }
}

/// [`load`] off the main thread: a promise of the policy.
#[napi(ts_return_type = "Promise<NativePolicy>")]
pub fn load_async(
    permissions: String,
    autonomy: Option<String>,
    config: Option<String>,
) -> AsyncTask<LoadTask> {
    AsyncTask::new(LoadTask {
        permissions,
        autonomy,
        config,
    })
}

/// Loads an artifact's bytes held in memory.
#[napi]
pub fn load_artifact_bytes(mut env: Env, bytes: Buffer) -> Result<NativePolicy> {
    guarded(|| match Policy::load_artifact_bytes(&bytes) {
        Ok(policy) => Ok(NativePolicy::of_bytes(
            &mut env,
            policy,
            bytes.len() as u64,
            2,
        )),
        Err(e) => Err(load_error(e, "the artifact")),
    })
}

/// SPEC §10.3's JSON for a command line.
#[napi]
pub fn tokens(command: String) -> Result<String> {
    guarded(|| Ok(permc_runtime::tokens_json(&command).to_string()))
}

/// The names index.d.ts's types are made of (action types, roles,
/// policies, reasons, error codes), from the Rust enums: a test keeps the
/// two equal.
#[napi]
pub fn vocabulary() -> String {
    permc_runtime::codes::vocabulary().to_string()
}

/// The names `decideBatch` takes as indices (`fast::field_names`), as
/// JSON: `{types, roles, modes}`.
#[napi]
pub fn field_names() -> String {
    let n = fast::field_names();
    json!({"types": n.types, "roles": n.roles, "modes": n.modes}).to_string()
}

/// The common requests index.js has read (`readCommon`), `count` of
/// them, in `ints` (an Int32Array of `batch::STRIDE` numbers a request)
/// and `text` (their strings end to end), decided by the policy of
/// `handle` ([`NativePolicy::handle`]): the answers' strings end to end
/// (`null` when every one was given before), their codes and lengths in `ints` (`-1` for a request whose fields do
/// not read, which index.js then sends as JSON text); `flags`: with
/// `batch::BRIEF`, policy and reason alone, `null`; with
/// `batch::CARRY_ON`, a single call that keeps the last call's strings
/// (`batch::Carry`; see `batch`). A function of the
/// module, not a method: a method's `this` is unwrapped each call
/// (`napi_unwrap`, a private property's lookup: 90 ns of `decide`'s
/// call), a handle's pointer is read off the `External` itself.
#[napi(ts_return_type = "string | null")]
pub fn decide_batch(
    env: Env,
    handle: External<Arc<Policy>>,
    mut ints: JsObject,
    count: u32,
    text: JsUnknown,
    flags: u32,
) -> Result<Option<JsString>> {
    guarded(|| {
        let ints = batch::int32s(&env, &mut ints).ok_or_else(|| {
            error(
                "invalid_argument",
                "ints must be an Int32Array or its ArrayBuffer",
                Vec::new(),
            )
        })?;
        let s = batch::decide_batch(&env, &handle, ints, count as usize, &text, flags)?;
        // SAFETY: `s` is a string just made in `env`.
        Ok(s.map(|s| unsafe { JsString::from_raw_unchecked(env.raw(), s) }))
    })
}

/// Panics, to test that a panic comes back as an error.
#[napi]
pub fn panic_for_test() -> Result<String> {
    guarded(|| panic!("a panic for the test"))
}

#[napi]
impl NativePolicy {
    /// The answer line `permc decide` writes for a request (JSON text):
    /// a decision, or `{"error": …}`.
    #[napi]
    pub fn decide(&self, request: String) -> Result<String> {
        guarded(|| {
            if let Some((code, message)) = too_large(&request) {
                return Ok(json!({"error": {"code": code, "message": message}}).to_string());
            }
            let mut out = Vec::with_capacity(256);
            write_answer_line(&*self.policy, request.as_bytes(), &mut out);
            out.pop();
            String::from_utf8(out).map_err(|e| error("panic", &e.to_string(), Vec::new()))
        })
    }

    /// The decision for a request (JSON text) as its fields in one string
    /// (see [`fields_of`]); a request that cannot be read or has an `id`
    /// answers the JSON line instead (it starts with `{`).
    #[napi]
    pub fn decide_fields(&self, request: String) -> Result<String> {
        guarded(|| {
            if too_large(&request).is_some() {
                return self.decide(request.clone());
            }
            let (id, req) = read_request(request.as_bytes());
            let (None, Ok(req)) = (id, req) else {
                return self.decide(request.clone());
            };
            Ok(fields_of(&self.policy.decide(&req)).unwrap_or_else(|| self.line_of(&req)))
        })
    }

    /// The policy as the handle [`decide_batch`] takes: an `External`
    /// holding a reference to it (freed when V8 collects the handle).
    #[napi(ts_return_type = "object")]
    pub fn handle(&self) -> External<Arc<Policy>> {
        External::new(Arc::clone(&self.policy))
    }

    /// For `bindings/bench.sh` only: nanoseconds a request of the
    /// in-process work over `n` requests cycling through `lines` (JSON
    /// request lines), timed here (same build, allocator and policy), by
    /// `mode`: 0, the decision from a built request with every string of
    /// the answer built (what `decide` returns); 1, a line in and the
    /// answer line out (`permc decide`'s work); 2, policy and reason
    /// alone from a built request (`Policy::brief`, what `decideBrief`
    /// returns).
    #[napi]
    pub fn bench_in_process(&self, lines: Vec<String>, n: u32, mode: u32) -> Result<f64> {
        guarded(|| {
            let reqs: Vec<Request> = lines
                .iter()
                .filter_map(|l| read_request(l.as_bytes()).1.ok())
                .collect();
            if reqs.len() != lines.len() || lines.is_empty() {
                return Err(error(
                    "invalid_argument",
                    "every line must be a request",
                    Vec::new(),
                ));
            }
            let n = n.max(1) as usize;
            let mut out = Vec::with_capacity(512);
            let start = std::time::Instant::now();
            for i in 0..n {
                let req = std::hint::black_box(&reqs[i % reqs.len()]);
                match mode {
                    1 => {
                        out.clear();
                        let line = std::hint::black_box(lines[i % lines.len()].as_bytes());
                        write_answer_line(&*self.policy, line, &mut out);
                        std::hint::black_box(&out);
                    }
                    2 => {
                        std::hint::black_box(self.policy.brief(req));
                    }
                    _ => {
                        std::hint::black_box(self.policy.decide(req));
                    }
                }
            }
            Ok(start.elapsed().as_nanos() as f64 / n as f64)
        })
    }

    /// The text of `permc explain`.
    #[napi]
    pub fn explain(&self, request: String) -> Result<String> {
        guarded(|| {
            let req = read(&request)?;
            self.policy
                .explain(&req)
                .map_err(|m| error("invalid_artifact", &m, Vec::new()))
        })
    }

    /// The policy as an artifact's bytes, for `loadArtifact` in a worker.
    #[napi]
    pub fn artifact(&self) -> Result<Buffer> {
        guarded(|| Ok(Buffer::from(self.policy.artifact_bytes())))
    }

    /// `permc explain --format json`'s object for a request, as JSON text.
    #[napi]
    pub fn explain_json(&self, request: String) -> Result<String> {
        guarded(|| {
            let req = read(&request)?;
            self.policy
                .explain_json(&req)
                .map(|v| v.to_string())
                .map_err(|m| error("invalid_artifact", &m, Vec::new()))
        })
    }

    /// SPEC §7's outcome (JSON text); nothing is written.
    #[napi]
    pub fn always(&self, request: String) -> Result<String> {
        guarded(|| {
            let req = read(&request)?;
            self.policy
                .always(&req)
                .map(|v| v.to_string())
                .map_err(|m| error("invalid_artifact", &m, Vec::new()))
        })
    }
}

/// A decision's fields in one string, each ended by a NUL, in `permc
/// decide`'s order (policy, reason, rule, source, autonomyOrigin,
/// scopeRoot, message; an absent field empty): one string crosses to
/// JavaScript, which builds the object (index.js), instead of an answer
/// line for `JSON.parse` or seven strings and properties made through
/// Node-API. `None` when a field holds a NUL or is present and empty
/// (never made, but cheap to rule out): the caller answers the line.
fn fields_of(d: &permc_runtime::Decision) -> Option<String> {
    let (rule, source) = d
        .rule
        .as_ref()
        .map_or(("", ""), |r| (r.rule.as_str(), r.source.as_str()));
    let fields = [
        d.policy.name(),
        d.reason.name(),
        rule,
        source,
        d.autonomy_origin.map_or("", |o| o.name()),
        d.scope_root.as_deref().unwrap_or(""),
        d.message.as_str(),
    ];
    let empty_present = d
        .rule
        .as_ref()
        .is_some_and(|r| r.rule.is_empty() || r.source.is_empty())
        || d.scope_root.as_deref() == Some("");
    if empty_present || fields.iter().any(|f| f.contains('\0')) {
        return None;
    }
    let mut out = String::with_capacity(fields.iter().map(|f| f.len() + 1).sum());
    for f in fields {
        out.push_str(f);
        out.push('\0');
    }
    Some(out)
}

/// The fields of a request index.js read (`readCommon`): `mask` bit `k`
/// set when field `k` is given (`type`, `command`, `cwd`, `agent`,
/// `targetBranch`, `role`, `executionMode`, `containerRunning`,
/// `projectScopeRoot`), the names (`type`, `role`, `executionMode`) as
/// their indices in [`fast::field_names`]' lists at bits 9, 14 and 19 (5
/// bits each), `containerRunning`'s value at bit 24, and the strings of command, cwd, agent, targetBranch and
/// projectScopeRoot (`None` when not given). `None` when a name's index
/// is not one of [`fast::field_names`]' or a bit past 24 is set.
fn parts_of(mask: u32, f: [Option<&str>; 5]) -> Option<Parts<'_>> {
    if mask >> 25 != 0 {
        return None;
    }
    let (kind, role, execution_mode) = (mask >> 9 & 31, mask >> 14 & 31, mask >> 19 & 31);
    let given = |bit: u32| mask & (1 << bit) != 0;
    let names = fast::field_names();
    let name = |bit: u32, list: &'static [String], i: u32| -> Option<Option<&'static str>> {
        if !given(bit) {
            return Some(None);
        }
        list.get(i as usize).map(|n| Some(n.as_str()))
    };
    Some(Parts {
        kind: name(0, &names.types, kind)?,
        command: f[0],
        cwd: f[1],
        agent: f[2],
        target_branch: f[3],
        // `path` is never passed: a request with one is sent as JSON.
        path: None,
        role: name(5, &names.roles, role)?,
        execution_mode: name(6, &names.modes, execution_mode)?,
        container_running: given(7).then_some(mask & 1 << 24 != 0),
        project_scope_root: f[4],
    })
}

impl NativePolicy {
    /// The answer line of a decided request, for a decision
    /// [`fields_of`] cannot carry.
    fn line_of(&self, req: &permc_runtime::Request) -> String {
        let d = self.policy.decide(req);
        serde_json::to_string(&d).unwrap_or_default()
    }
}

fn read(request: &str) -> Result<permc_runtime::Request<'_>> {
    if let Some((code, message)) = too_large(request) {
        return Err(error(code, &message, Vec::new()));
    }
    read_request(request.as_bytes())
        .1
        .map_err(|e| error(e.code, &e.message, Vec::new()))
}
