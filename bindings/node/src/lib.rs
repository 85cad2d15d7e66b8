//! permc as a Node-API addon: what `bindings/node/index.js` calls.
//!
//! The JavaScript side checks that a request is made of JSON values and
//! writes it as JSON text; here it is read by the CLI's strict reader
//! and answered by the CLI's answer writer (permc-runtime), so the answer
//! line is byte for byte `permc decide`'s. Errors cross as JSON text in
//! the `Error`'s message (`{"code", "message", "diagnostics"}`), which
//! index.js turns into an `Error` with `code` and `diagnostics`. A panic
//! is caught here and thrown as an error with code `panic`.

/// mimalloc (its v2 line, built `no_thp`) for the addon's own
/// allocations, as in the NIF: a decision allocates a few dozen small
/// strings and vectors. V8's heap is untouched.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use napi::{Error, Result, Status};
use napi_derive::napi;
use permc_runtime::answer::Decider;
use permc_runtime::answer::{read_request, write_answer_line};
use permc_runtime::{LoadError, Node, Policy, Request};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// An error for index.js: its code, message and diagnostics as JSON
/// (`version` as in `permc check --format json`'s document).
fn error(code: &str, message: &str, diagnostics: Vec<Value>) -> Error {
    let v = json!({"code": code, "message": message, "version": 1, "diagnostics": diagnostics});
    Error::new(Status::GenericFailure, v.to_string())
}

/// Runs `f`, turning a panic into an error with code `panic`.
fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
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
#[napi]
pub struct NativePolicy {
    policy: Policy,
}

/// Loads and compiles the rule files.
#[napi]
pub fn load(permissions: String, autonomy: Option<String>) -> Result<NativePolicy> {
    guarded(|| {
        let r = Policy::load(
            Some(Path::new(&permissions)),
            autonomy.as_deref().map(Path::new),
        );
        match r {
            Ok(policy) => Ok(NativePolicy { policy }),
            Err(e) => {
                let file = match &autonomy {
                    Some(a)
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
pub fn load_artifact(path: String) -> Result<NativePolicy> {
    guarded(|| match Policy::load_artifact(Path::new(&path)) {
        Ok(policy) => Ok(NativePolicy { policy }),
        Err(e) => Err(load_error(e, &path)),
    })
}

/// SPEC §10.3's JSON for a command line.
#[napi]
pub fn tokens(command: String) -> Result<String> {
    guarded(|| Ok(permc_runtime::tokens_json(&command).to_string()))
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
            let mut out = Vec::with_capacity(256);
            write_answer_line(&self.policy, request.as_bytes(), &mut out);
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
            let (id, req) = read_request(request.as_bytes());
            let (None, Ok(req)) = (id, req) else {
                return self.decide(request.clone());
            };
            Ok(fields_of(&self.policy.decide(&req)).unwrap_or_else(|| self.line_of(&req)))
        })
    }

    /// The same for a request index.js has taken apart: the fields of
    /// SPEC §10.1 as arguments (`undefined` = absent), for a request whose
    /// every key is known and every value a string (`containerRunning` a
    /// boolean), so that no JSON text is written or read. They are put
    /// back into the reader's tree, in this order, and read by the CLI's
    /// strict reader; a request it refuses answers an empty string, and
    /// index.js then sends the JSON text (so the error is the one `permc
    /// decide` gives for the request as written, its key order included).
    #[napi]
    #[allow(clippy::too_many_arguments)]
    pub fn decide_parts(
        &self,
        kind: Option<String>,
        command: Option<String>,
        cwd: Option<String>,
        agent: Option<String>,
        target_branch: Option<String>,
        role: Option<String>,
        execution_mode: Option<String>,
        container_running: Option<bool>,
        project_scope_root: Option<String>,
    ) -> Result<String> {
        guarded(|| {
            fn s<'a>(k: &'static str, v: &'a Option<String>) -> Option<(Cow<'a, str>, Node<'a>)> {
                v.as_deref()
                    .map(|v| (Cow::Borrowed(k), Node::String(Cow::Borrowed(v))))
            }
            let action: Vec<_> = [
                s("type", &kind),
                s("command", &command),
                s("cwd", &cwd),
                s("agent", &agent),
                s("targetBranch", &target_branch),
            ]
            .into_iter()
            .flatten()
            .collect();
            let context: Vec<_> = [
                s("role", &role),
                s("executionMode", &execution_mode),
                container_running.map(|b| (Cow::Borrowed("containerRunning"), Node::Bool(b))),
                s("projectScopeRoot", &project_scope_root),
            ]
            .into_iter()
            .flatten()
            .collect();
            let tree = Node::Object(vec![
                (Cow::Borrowed("action"), Node::Object(action)),
                (Cow::Borrowed("context"), Node::Object(context)),
            ]);
            let Ok(req) = Request::from_node(&tree).1 else {
                return Ok(String::new());
            };
            Ok(fields_of(&self.policy.decide(&req)).unwrap_or_else(|| self.line_of(&req)))
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

impl NativePolicy {
    /// The answer line of a decided request, for a decision
    /// [`fields_of`] cannot carry.
    fn line_of(&self, req: &permc_runtime::Request) -> String {
        let d = self.policy.decide(req);
        serde_json::to_string(&d).unwrap_or_default()
    }
}

fn read(request: &str) -> Result<permc_runtime::Request> {
    read_request(request.as_bytes())
        .1
        .map_err(|e| error(e.code, &e.message, Vec::new()))
}
