//! permc as a Node-API addon: what `bindings/node/index.js` calls.
//!
//! The JavaScript side checks that a request is made of JSON values and
//! writes it as JSON text; here it is read by the CLI's strict reader
//! and answered by the CLI's answer writer (permc-runtime), so the answer
//! line is byte for byte `permc decide`'s. Errors cross as JSON text in
//! the `Error`'s message (`{"code", "message", "diagnostics"}`), which
//! index.js turns into an `Error` with `code` and `diagnostics`. A panic
//! is caught here and thrown as an error with code `panic`.

use napi::{Error, Result, Status};
use napi_derive::napi;
use permc_runtime::answer::Decider;
use permc_runtime::answer::{read_request, write_answer_line};
use permc_runtime::{LoadError, Policy};
use serde_json::{json, Value};
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

    /// The decision for a request (JSON text) as its fields in one string,
    /// each ended by a NUL, in `permc decide`'s order (policy, reason,
    /// rule, source, autonomyOrigin, scopeRoot, message; an absent field
    /// is empty): one string crosses to JavaScript, which builds the
    /// object (index.js), instead of an answer JSON.parse reads or seven
    /// strings and properties made through Node-API. A request that
    /// cannot be read, has an `id`, or a field holding a NUL (or present
    /// and empty) answers the JSON line instead (it starts with `{`).
    #[napi]
    pub fn decide_fields(&self, request: String) -> Result<String> {
        guarded(|| {
            let (id, req) = read_request(request.as_bytes());
            let (None, Ok(req)) = (id, req) else {
                return self.decide(request.clone());
            };
            let d = self.policy.decide(&req);
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
            // An empty field reads as absent: one that is present and
            // empty (never made, but cheap to rule out) takes the line.
            let empty_present = d
                .rule
                .as_ref()
                .is_some_and(|r| r.rule.is_empty() || r.source.is_empty())
                || d.scope_root.as_deref() == Some("");
            if empty_present || fields.iter().any(|f| f.contains('\0')) {
                return self.decide(request.clone());
            }
            let mut out = String::with_capacity(fields.iter().map(|f| f.len() + 1).sum());
            for f in fields {
                out.push_str(f);
                out.push('\0');
            }
            Ok(out)
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

fn read(request: &str) -> Result<permc_runtime::Request> {
    read_request(request.as_bytes())
        .1
        .map_err(|e| error(e.code, &e.message, Vec::new()))
}
