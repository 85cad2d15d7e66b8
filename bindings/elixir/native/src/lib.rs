//! permc as an Erlang/Elixir NIF: the functions of `Permc.Native`, which
//! `bindings/elixir/lib/permc.ex` loads with `:erlang.load_nif/2`.
//!
//! Every function calls permc-runtime, the library the CLI calls. A request
//! map is written as the JSON text it stands for and read by the CLI's
//! strict reader (SPEC §10.1): an unknown field, a key given twice (`:role`
//! and `"role"`), a value of the wrong type is an error, never a decision.
//! A term with no JSON form (a pid, a function, a tuple…) is an error too.
//!
//! Loading and compiling run on a dirty CPU scheduler; deciding runs on
//! the normal scheduler (well under a millisecond). A panic is caught here
//! and returned as `{:error, %{code: :panic, …}}`: it never reaches the VM.

use permc_runtime::answer::{read_request, Decider};
use permc_runtime::{LoadError, Policy};
use rustler::{Atom, Encoder, Env, ListIterator, MapIterator, ResourceArc, Term, TermType};
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

mod atoms {
    rustler::atoms! {
        ok,
        error,
        nil,
        code,
        message,
        panic,
        invalid_argument,
        policy,
        reason,
        rule,
        source,
        autonomy_origin = "autonomyOrigin",
        scope_root = "scopeRoot",
        id,
        auto_approve,
        require_approval,
        deny,
    }
}

/// A loaded policy: immutable, shared by every process holding it.
struct PolicyResource(Policy);

#[rustler::resource_impl]
impl rustler::Resource for PolicyResource {}

/// How deep a request may nest: serde_json's own limit, so a map nested
/// deeper is refused as the CLI refuses the same JSON, before the stack
/// grows.
const MAX_DEPTH: usize = 128;

/// Why a term is not a request: an error code of SPEC §10.1 and a message.
struct TermError {
    code: &'static str,
    message: String,
}

/// Runs `f`, turning a panic into `{:error, %{code: :panic, message}}`.
fn guarded<'a>(env: Env<'a>, f: impl FnOnce() -> Term<'a>) -> Term<'a> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(t) => t,
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            error_map(
                env,
                "panic",
                &format!("permc panicked (please report this): {what}"),
            )
        }
    }
}

/// `{:error, %{code: :CODE, message: MESSAGE}}`.
fn error_map<'a>(env: Env<'a>, code: &str, message: &str) -> Term<'a> {
    let code = Atom::from_str(env, code).unwrap_or_else(|_| atoms::error());
    let map = Term::map_from_pairs(
        env,
        &[
            (atoms::code().encode(env), code.encode(env)),
            (atoms::message().encode(env), message.encode(env)),
        ],
    )
    .unwrap_or_else(|_| message.encode(env));
    (atoms::error(), map).encode(env)
}

/// Appends the JSON text of `term` to `out`. `path` names where it is,
/// for errors (`action.command`).
fn write_json(
    term: Term,
    depth: usize,
    path: &mut Vec<String>,
    out: &mut Vec<u8>,
) -> Result<(), TermError> {
    if depth > MAX_DEPTH {
        return Err(TermError {
            code: "invalid_json",
            message: format!("the request nests deeper than {MAX_DEPTH} levels"),
        });
    }
    let here = |path: &Vec<String>| {
        if path.is_empty() {
            "the request".to_string()
        } else {
            format!("`{}`", path.join("."))
        }
    };
    match term.get_type() {
        TermType::Map => {
            let iter = MapIterator::new(term).ok_or_else(|| TermError {
                code: "invalid_request",
                message: format!("{} is not a map", here(path)),
            })?;
            out.push(b'{');
            for (i, (k, v)) in iter.enumerate() {
                let key = key_string(k).map_err(|what| TermError {
                    code: "invalid_request",
                    message: format!(
                        "{} has a key that is {what}: keys are strings or atoms",
                        here(path)
                    ),
                })?;
                if i > 0 {
                    out.push(b',');
                }
                write_str(&key, out);
                out.push(b':');
                path.push(key);
                write_json(v, depth + 1, path, out)?;
                path.pop();
            }
            out.push(b'}');
        }
        TermType::List => {
            // An improper list (`[1 | 2]`) has no length; rustler's
            // iterator would panic at its tail.
            let improper = || TermError {
                code: "invalid_field",
                message: format!("{} is an improper list", here(path)),
            };
            term.list_length().map_err(|_| improper())?;
            let iter: ListIterator = term.decode().map_err(|_| improper())?;
            out.push(b'[');
            for (i, v) in iter.enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                path.push(i.to_string());
                write_json(v, depth + 1, path, out)?;
                path.pop();
            }
            out.push(b']');
        }
        TermType::Binary => {
            let bin = term.decode_as_binary().map_err(|_| TermError {
                code: "invalid_field",
                message: format!("{} is a bitstring, not a string", here(path)),
            })?;
            let s = std::str::from_utf8(bin.as_slice()).map_err(|_| TermError {
                // As the CLI answers bytes that are not UTF-8.
                code: "invalid_json",
                message: format!("{} is not valid UTF-8", here(path)),
            })?;
            write_str(s, out);
        }
        TermType::Atom => {
            let name = Atom::from_term(term)
                .and_then(|a| a.to_term(term.get_env()).atom_to_string())
                .map_err(|_| TermError {
                    code: "invalid_field",
                    message: format!("{} is an unreadable atom", here(path)),
                })?;
            match name.as_str() {
                "nil" => out.extend_from_slice(b"null"),
                "true" | "false" => out.extend_from_slice(name.as_bytes()),
                // `type: :terminal` reads as `"type": "terminal"`.
                _ => write_str(&name, out),
            }
        }
        TermType::Integer => {
            if let Ok(i) = term.decode::<i64>() {
                out.extend_from_slice(i.to_string().as_bytes());
            } else if let Ok(u) = term.decode::<u64>() {
                out.extend_from_slice(u.to_string().as_bytes());
            } else {
                return Err(TermError {
                    code: "invalid_field",
                    message: format!("{} is an integer too large for JSON", here(path)),
                });
            }
        }
        TermType::Float => {
            let f: f64 = term.decode().map_err(|_| TermError {
                code: "invalid_field",
                message: format!("{} is an unreadable float", here(path)),
            })?;
            match serde_json::Number::from_f64(f) {
                Some(n) => out.extend_from_slice(n.to_string().as_bytes()),
                None => out.extend_from_slice(b"null"),
            }
        }
        other => {
            let what = match other {
                TermType::Fun => "a function",
                TermType::Pid => "a pid",
                TermType::Port => "a port",
                TermType::Ref => "a reference",
                TermType::Tuple => "a tuple",
                _ => "a term",
            };
            return Err(TermError {
                code: "invalid_field",
                message: format!("{} is {what}, which has no JSON form", here(path)),
            });
        }
    }
    Ok(())
}

/// A map key as a string: an atom's name or a UTF-8 binary; otherwise
/// what it is.
fn key_string(k: Term) -> Result<String, &'static str> {
    match k.get_type() {
        TermType::Atom => k.atom_to_string().map_err(|_| "an unreadable atom"),
        TermType::Binary => {
            let bin = k.decode_as_binary().map_err(|_| "a bitstring")?;
            std::str::from_utf8(bin.as_slice())
                .map(str::to_owned)
                .map_err(|_| "not valid UTF-8")
        }
        _ => Err("neither"),
    }
}

fn write_str(s: &str, out: &mut Vec<u8>) {
    // Serializing a `str` into a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// The JSON text of a request term.
fn request_text(term: Term) -> Result<Vec<u8>, TermError> {
    let mut out = Vec::with_capacity(256);
    write_json(term, 0, &mut Vec::new(), &mut out)?;
    Ok(out)
}

/// A JSON value as a term: objects as maps with atom keys (`atom_keys`:
/// the fixed field names of permc's answers) or string keys (a request's
/// `id`), `null` as `nil`.
fn value_term<'a>(env: Env<'a>, v: &Value, atom_keys: bool) -> Term<'a> {
    match v {
        Value::Null => atoms::nil().encode(env),
        Value::Bool(b) => b.encode(env),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.encode(env)
            } else if let Some(u) = n.as_u64() {
                u.encode(env)
            } else {
                n.as_f64().unwrap_or(f64::NAN).encode(env)
            }
        }
        Value::String(s) => s.encode(env),
        Value::Array(a) => a
            .iter()
            .map(|v| value_term(env, v, atom_keys))
            .collect::<Vec<_>>()
            .encode(env),
        Value::Object(o) => {
            let mut map = Term::map_new(env);
            for (k, v) in o {
                let key = if atom_keys {
                    Atom::from_str(env, k).map_or_else(|_| k.encode(env), |a| a.encode(env))
                } else {
                    k.encode(env)
                };
                let value = if atom_keys && k == "id" {
                    value_term(env, v, false)
                } else {
                    value_term(env, v, atom_keys)
                };
                map = map.map_put(key, value).unwrap_or(map);
            }
            map
        }
    }
}

/// Reads a request term with the CLI's reader: the request's `id`, and
/// the request or the `{:error, …}` term.
fn read<'a>(
    env: Env<'a>,
    request: Term<'a>,
) -> Result<(Option<Value>, permc_runtime::Request), Term<'a>> {
    let text = request_text(request).map_err(|e| error_map(env, e.code, &e.message))?;
    let (id, req) = read_request(&text);
    match req {
        Ok(r) => Ok((id, r)),
        Err(e) => Err(error_map(env, e.code, &e.message)),
    }
}

fn path_arg(t: Term) -> Option<String> {
    let bin = t.decode_as_binary().ok()?;
    std::str::from_utf8(bin.as_slice()).ok().map(str::to_owned)
}

fn load_result<'a>(env: Env<'a>, r: Result<Policy, LoadError>, file: &str) -> Term<'a> {
    match r {
        Ok(p) => (atoms::ok(), ResourceArc::new(PolicyResource(p))).encode(env),
        Err(e) => {
            let diagnostics: Vec<Value> = if e.diagnostics.is_empty() {
                // Not an artifact: one diagnostic for the whole file, in
                // the shape of `permc check --format json`'s (the
                // runtime gives a rejected or unreadable file's).
                vec![serde_json::json!({
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
            (
                atoms::error(),
                value_term(env, &Value::Array(diagnostics), true),
            )
                .encode(env)
        }
    }
}

/// `load(permissions_path, autonomy_path | nil)`.
#[rustler::nif(schedule = "DirtyCpu")]
fn load<'a>(env: Env<'a>, permissions: Term<'a>, autonomy: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let Some(p) = path_arg(permissions) else {
            return error_map(
                env,
                "invalid_argument",
                "the permissions path must be a string",
            );
        };
        let a = if autonomy == atoms::nil().to_term(env) {
            None
        } else {
            match path_arg(autonomy) {
                Some(a) => Some(a),
                None => {
                    return error_map(
                        env,
                        "invalid_argument",
                        "the autonomy path must be a string or nil",
                    )
                }
            }
        };
        let r = Policy::load(Some(Path::new(&p)), a.as_deref().map(Path::new));
        // Which file failed, for the one-diagnostic errors.
        let file = match &r {
            Err(e)
                if a.as_ref().is_some_and(|a| e.message.contains(a.as_str()))
                    && !e.message.contains(p.as_str()) =>
            {
                a.clone().unwrap_or_default()
            }
            _ => p.clone(),
        };
        load_result(env, r, &file)
    })
}

/// `load_artifact(path)`.
#[rustler::nif(schedule = "DirtyCpu")]
fn load_artifact<'a>(env: Env<'a>, path: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let Some(p) = path_arg(path) else {
            return error_map(
                env,
                "invalid_argument",
                "the artifact path must be a string",
            );
        };
        load_result(env, Policy::load_artifact(Path::new(&p)), &p)
    })
}

fn policy_arg<'a>(env: Env<'a>, t: Term<'a>) -> Result<ResourceArc<PolicyResource>, Term<'a>> {
    t.decode::<ResourceArc<PolicyResource>>().map_err(|_| {
        error_map(
            env,
            "invalid_argument",
            "not a policy: load one with Permc.load/2 or Permc.load_artifact/1",
        )
    })
}

/// `decide(policy, request)` → the §10.2 map, or `{:error, …}`.
#[rustler::nif]
fn decide<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let (id, req) = match read(env, request) {
            Ok(r) => r,
            Err(e) => return e,
        };
        let decision = policy.0.decide(&req);
        decision_term(env, &decision, id.as_ref())
    })
}

/// SPEC §10.2's map for a decision, with the fields and order of
/// `Decision::serialize_fields` (the binding tests compare every answer
/// with `permc decide`'s), built in one go from pre-made atoms.
fn decision_term<'a>(env: Env<'a>, d: &permc_runtime::Decision, id: Option<&Value>) -> Term<'a> {
    let policy = match d.policy.name() {
        "auto_approve" => atoms::auto_approve(),
        "require_approval" => atoms::require_approval(),
        _ => atoms::deny(),
    };
    let mut keys = Vec::with_capacity(8);
    let mut values = Vec::with_capacity(8);
    keys.push(atoms::policy().encode(env));
    values.push(policy.encode(env));
    keys.push(atoms::reason().encode(env));
    values.push(d.reason.name().encode(env));
    if let Some(r) = &d.rule {
        keys.push(atoms::rule().encode(env));
        values.push(r.rule.encode(env));
        keys.push(atoms::source().encode(env));
        values.push(r.source.encode(env));
    }
    if let Some(o) = d.autonomy_origin {
        keys.push(atoms::autonomy_origin().encode(env));
        values.push(o.name().encode(env));
    }
    if let Some(s) = &d.scope_root {
        keys.push(atoms::scope_root().encode(env));
        values.push(s.encode(env));
    }
    keys.push(atoms::message().encode(env));
    values.push(d.message.encode(env));
    if let Some(id) = id {
        keys.push(atoms::id().encode(env));
        values.push(value_term(env, id, false));
    }
    Term::map_from_term_arrays(env, &keys, &values)
        .unwrap_or_else(|_| error_map(env, "panic", "cannot build the decision map"))
}

/// `explain(policy, request)` → the text of `permc explain`, or `{:error, …}`.
#[rustler::nif]
fn explain<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let (_, req) = match read(env, request) {
            Ok(r) => r,
            Err(e) => return e,
        };
        match policy.0.explain(&req) {
            Ok(text) => text.encode(env),
            Err(m) => error_map(env, "invalid_artifact", &m),
        }
    })
}

/// `always(policy, request)` → SPEC §7's outcome (nothing written).
#[rustler::nif]
fn always<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let (_, req) = match read(env, request) {
            Ok(r) => r,
            Err(e) => return e,
        };
        match policy.0.always(&req) {
            Ok(v) => value_term(env, &v, true),
            Err(m) => error_map(env, "invalid_artifact", &m),
        }
    })
}

/// `tokens(command)` → SPEC §10.3's JSON as a map.
#[rustler::nif]
fn tokens<'a>(env: Env<'a>, command: Term<'a>) -> Term<'a> {
    guarded(env, || match path_arg(command) {
        Some(c) => value_term(env, &permc_runtime::tokens_json(&c), true),
        None => error_map(
            env,
            "invalid_argument",
            "the command must be a UTF-8 string",
        ),
    })
}

/// Panics, to test that a panic comes back as `{:error, …}`.
#[rustler::nif]
fn panic_for_test<'a>(env: Env<'a>) -> Term<'a> {
    guarded(env, || panic!("a panic for the test"))
}

rustler::init!("Elixir.Permc.Native");
