//! permc as an Erlang/Elixir NIF: the functions of `Permc.Native`, which
//! `bindings/elixir/lib/permc.ex` loads with `:erlang.load_nif/2`.
//!
//! Every function calls permc-runtime, the library the CLI calls. The
//! common request map (known fields, each once, strings, `nil` or names'
//! atoms) is read straight into its fields ([`typed`],
//! `Request::from_parts`, the typed reading the CLI's JSON scanner does);
//! any other is turned, once, into the JSON tree it stands for (`Node`,
//! strings borrowed from the term's binaries) and read by the CLI's strict
//! reader (SPEC §10.1): an unknown field, a key given twice (`:role` and
//! `"role"`), a value of the wrong type is an error, never a decision. A
//! term with no JSON form (a pid, a function, a tuple…) is an error too.
//!
//! Loading and compiling run on a dirty CPU scheduler. Deciding runs on
//! the normal scheduler when the request is small ([`INLINE_WEIGHT`],
//! measured by [`measure`] with a budget, so the measure itself is
//! bounded): a typical request decides well under a millisecond, the
//! BEAM's budget for a NIF call. A larger one (a 256 KiB command took
//! 919 ms, a 20k-key `id` 980 ms) is answered `:dirty`, and `Permc`
//! calls [`decide_dirty`] on a dirty CPU scheduler, which refuses a
//! request over [`MAX_WEIGHT`] as `permc serve` refuses a line over 16
//! MiB (one nested deeper than [`DIRTY_DEPTH`] is read on the normal
//! scheduler: a dirty scheduler's stack is small). A panic is caught here, without printing (a quiet hook while
//! permc runs), and returned as `{:error, %{code: :panic, …}}`: it never
//! reaches the VM.

/// mimalloc (its v2 line) for the NIF's own allocations: a decision
/// allocates a few dozen small strings and vectors, and glibc's
/// `malloc`/`free` were a fifth of a call. One process: 212,000–259,000 →
/// 294,000–301,000 decisions/s, the 100k-rule artifact loading in the same
/// 11–13 ms (v3, tried before, slowed that load 2–3×). Built `no_thp`
/// (Cargo.toml says why): its memory is not madvised for huge pages. The
/// BEAM's own memory is untouched; mimalloc releases its thread key when
/// unloaded.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use permc_runtime::answer::Decider;
use permc_runtime::{LoadError, Node, Parts, Policy, Reason, Request};
use rustler::{
    Atom, Encoder, Env, ListIterator, MapIterator, NewBinary, ResourceArc, Term, TermType,
};
use serde_json::Value;
use std::borrow::Cow;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::OnceLock;

mod batch;
mod bench;
mod typed;

mod atoms {
    rustler::atoms! {
        ok,
        error,
        nil,
        code,
        message,
        panic,
        dirty,
        inline,
        more,
        full,
        invalid_argument,
        policy,
        reason,
        rule,
        source,
        autonomy_origin,
        scope_root,
        id,
        auto_approve,
        require_approval,
        deny,
        true_ = "true",
        false_ = "false",
        action,
        context,
        type_ = "type",
        command,
        cwd,
        agent,
        target_branch = "targetBranch",
        role,
        execution_mode = "executionMode",
        container_running = "containerRunning",
        project_scope_root = "projectScopeRoot",
        path,
        terminal,
        git_commit,
        git_push,
        git_merge,
        owner,
        maintainer,
        developer,
        viewer,
        container,
        mounted,
        runner,
        specific,
        wildcard,
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

/// Why a term is not a request: an error code of SPEC §10.1, and what the
/// term at `path` is instead. The path is gathered only for an error, as
/// it travels up from the term (innermost key first).
struct TermError<'a> {
    code: &'static str,
    /// `"is an improper list"`, said of the term at `path`; or, when
    /// `whole`, the whole message (a request too deep names no term).
    what: String,
    whole: bool,
    path: Vec<Key<'a>>,
}

impl<'a> TermError<'a> {
    /// An error about the term where it was found.
    fn here(code: &'static str, what: String) -> TermError<'a> {
        TermError {
            code,
            what,
            whole: false,
            path: Vec::new(),
        }
    }

    /// The same error, one step further from the request's root.
    fn within(mut self, key: Key<'a>) -> TermError<'a> {
        self.path.push(key);
        self
    }

    /// The message for people: `` `action.command` is a pid, … ``.
    fn message(&self) -> String {
        if self.whole {
            return self.what.clone();
        }
        let at = if self.path.is_empty() {
            "the request".to_string()
        } else {
            let parts: Vec<String> = self.path.iter().rev().map(Key::to_string).collect();
            format!("`{}`", parts.join("."))
        };
        format!("{at} {}", self.what)
    }
}

thread_local! {
    /// Is permc running on this thread (its panics are caught and
    /// returned, not printed)?
    static IN_PERMC: Cell<bool> = const { Cell::new(false) };
}

/// Installs, once, a panic hook that prints nothing for a panic inside
/// permc (it comes back as `{:error, …}`; a Rust backtrace on the VM's
/// stderr helps no one) and hands any other panic to the hook before it.
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

/// Runs `f`, turning a panic into `{:error, %{code: :panic, message}}`.
fn guarded<'a>(env: Env<'a>, f: impl FnOnce() -> Term<'a>) -> Term<'a> {
    quiet_panics();
    let was = IN_PERMC.with(|c| c.replace(true));
    let outcome = catch_unwind(AssertUnwindSafe(f));
    IN_PERMC.with(|c| c.set(was));
    match outcome {
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

/// The [`Node`] a request term stands for, strings borrowed from the
/// term's binaries: one conversion, read by the CLI's reader itself
/// ([`Request::from_node`]).
fn node<'a>(term: Term<'a>, depth: usize) -> Result<Node<'a>, TermError<'a>> {
    if depth > MAX_DEPTH {
        return Err(TermError {
            code: "invalid_json",
            what: format!("the request nests deeper than {MAX_DEPTH} levels"),
            whole: true,
            path: Vec::new(),
        });
    }
    Ok(match term.get_type() {
        TermType::Map => {
            let iter = MapIterator::new(term)
                .ok_or_else(|| TermError::here("invalid_request", "is not a map".to_string()))?;
            let mut fields = Vec::with_capacity(term.map_size().unwrap_or(0));
            for (k, v) in iter {
                let key = key_str(k).map_err(|what| {
                    TermError::here(
                        "invalid_request",
                        format!("has a key that is {what}: keys are strings or atoms"),
                    )
                })?;
                let value = match node(v, depth + 1) {
                    Ok(v) => v,
                    Err(e) => return Err(e.within(Key::Name(key))),
                };
                fields.push((key, value));
            }
            Node::Object(fields)
        }
        TermType::List => {
            // An improper list (`[1 | 2]`) has no length; rustler's
            // iterator would panic at its tail.
            let improper = || TermError::here("invalid_field", "is an improper list".to_string());
            let n = term.list_length().map_err(|_| improper())?;
            let iter: ListIterator = term.decode().map_err(|_| improper())?;
            let mut items = Vec::with_capacity(n);
            for (i, v) in iter.enumerate() {
                match node(v, depth + 1) {
                    Ok(v) => items.push(v),
                    Err(e) => return Err(e.within(Key::Index(i))),
                }
            }
            Node::Array(items)
        }
        TermType::Binary => Node::String(Cow::Borrowed(
            binary_str(term).map_err(|e| TermError::here(e.0, format!("is {}", e.1)))?,
        )),
        TermType::Atom => match atom_str(term) {
            Some("nil") => Node::Null,
            Some("true") => Node::Bool(true),
            Some("false") => Node::Bool(false),
            // `type: :terminal` reads as `"type": "terminal"`.
            Some(name) => Node::String(Cow::Borrowed(name)),
            None => Node::String(Cow::Owned(term.atom_to_string().map_err(|_| {
                TermError::here("invalid_field", "is an unreadable atom".to_string())
            })?)),
        },
        TermType::Integer => {
            if let Ok(i) = term.decode::<i64>() {
                Node::Number(i.into())
            } else if let Ok(u) = term.decode::<u64>() {
                Node::Number(u.into())
            } else {
                return Err(TermError::here(
                    "invalid_field",
                    "is an integer too large for JSON".to_string(),
                ));
            }
        }
        TermType::Float => {
            let f: f64 = term.decode().map_err(|_| {
                TermError::here("invalid_field", "is an unreadable float".to_string())
            })?;
            serde_json::Number::from_f64(f).map_or(Node::Null, Node::Number)
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
            return Err(TermError::here(
                "invalid_field",
                format!("is {what}, which has no JSON form"),
            ));
        }
    })
}

/// A step of the path to a term, for error messages.
enum Key<'a> {
    Name(Cow<'a, str>),
    Index(usize),
}

impl std::fmt::Display for Key<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Name(n) => f.write_str(n),
            Key::Index(i) => write!(f, "{i}"),
        }
    }
}

/// A binary's text, or (error code, what it is instead).
fn binary_str<'a>(t: Term<'a>) -> Result<&'a str, (&'static str, &'static str)> {
    let bin = t
        .decode_as_binary()
        .map_err(|_| ("invalid_field", "a bitstring, not a string"))?;
    // As the CLI answers bytes that are not UTF-8.
    std::str::from_utf8(bin.as_slice()).map_err(|_| ("invalid_json", "not valid UTF-8"))
}

/// The names a request is made of (fields, types, roles, modes), as
/// static text for an atom that is one of them, without asking the VM
/// for the atom's name; `None` for any other atom.
fn atom_str(t: Term) -> Option<&'static str> {
    const NAMES: &[&str] = &[
        "nil",
        "true",
        "false",
        "action",
        "context",
        "id",
        "type",
        "command",
        "cwd",
        "agent",
        "targetBranch",
        "role",
        "executionMode",
        "containerRunning",
        "projectScopeRoot",
        "terminal",
        "git_commit",
        "git_push",
        "git_merge",
        "owner",
        "maintainer",
        "developer",
        "viewer",
        "container",
        "mounted",
        "runner",
    ];
    let atoms = request_atoms(t.get_env());
    let a = Atom::from_term(t).ok()?;
    atoms.iter().position(|x| *x == a).map(|i| NAMES[i])
}

/// The atoms of [`atom_str`]'s names, in its order.
fn request_atoms(_env: Env) -> &'static [Atom] {
    use std::sync::OnceLock;
    static ATOMS: OnceLock<Vec<Atom>> = OnceLock::new();
    ATOMS.get_or_init(|| {
        vec![
            atoms::nil(),
            atoms::true_(),
            atoms::false_(),
            atoms::action(),
            atoms::context(),
            atoms::id(),
            atoms::type_(),
            atoms::command(),
            atoms::cwd(),
            atoms::agent(),
            atoms::target_branch(),
            atoms::role(),
            atoms::execution_mode(),
            atoms::container_running(),
            atoms::project_scope_root(),
            atoms::terminal(),
            atoms::git_commit(),
            atoms::git_push(),
            atoms::git_merge(),
            atoms::owner(),
            atoms::maintainer(),
            atoms::developer(),
            atoms::viewer(),
            atoms::container(),
            atoms::mounted(),
            atoms::runner(),
        ]
    })
}

/// A map key as text: an atom's name or a UTF-8 binary; otherwise what
/// it is.
fn key_str<'a>(k: Term<'a>) -> Result<Cow<'a, str>, &'static str> {
    match k.get_type() {
        TermType::Atom => match atom_str(k) {
            Some(name) => Ok(Cow::Borrowed(name)),
            None => k
                .atom_to_string()
                .map(Cow::Owned)
                .map_err(|_| "an unreadable atom"),
        },
        TermType::Binary => binary_str(k).map(Cow::Borrowed).map_err(|e| match e.0 {
            "invalid_json" => "not valid UTF-8",
            _ => "a bitstring",
        }),
        _ => Err("neither"),
    }
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
        Value::String(s) => text_term(env, s),
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
/// the request or the `{:error, …}` term. The common request is read
/// typed ([`typed`]); any other is turned into its JSON tree.
fn read<'a>(env: Env<'a>, request: Term<'a>) -> Result<(Option<Value>, Request<'a>), Term<'a>> {
    if let Some(r) = typed::typed(request).and_then(|t| Request::from_parts(&t.parts)) {
        return r
            .map(|r| (None, r))
            .map_err(|e| error_map(env, e.code, &e.message));
    }
    let tree = node(request, 0).map_err(|e| error_map(env, e.code, &e.message()))?;
    let (id, req) = Request::from_node(&tree);
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
            let diagnostics: Vec<Value> = diagnostics.into_iter().map(diagnostic_keys).collect();
            (
                atoms::error(),
                value_term(env, &Value::Array(diagnostics), true),
            )
                .encode(env)
        }
    }
}

/// A diagnostic's keys in Elixir's style, snake_case as a decision's
/// ([`snake_keys`]: `end_line`, `end_column`); the JSON names
/// (`endLine`, `endColumn`) stay beside them for one release, deprecated
/// (issue 43).
fn diagnostic_keys(v: Value) -> Value {
    let (Value::Object(json), Value::Object(snake)) = (v.clone(), snake_keys(v)) else {
        return Value::Null;
    };
    let mut out = snake;
    for (k, v) in json {
        out.entry(k).or_insert(v);
    }
    Value::Object(out)
}

/// `load(permissions_path, autonomy_path | nil)`.
#[rustler::nif(schedule = "DirtyCpu")]
fn load<'a>(env: Env<'a>, permissions: Term<'a>, autonomy: Term<'a>, config: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let c = if config == atoms::nil().to_term(env) {
            None
        } else {
            match path_arg(config) {
                Some(c) => Some(c),
                None => {
                    return error_map(
                        env,
                        "invalid_argument",
                        "the config path must be a string or nil",
                    )
                }
            }
        };
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
        let r = Policy::load_with(
            Some(Path::new(&p)),
            a.as_deref().map(Path::new),
            c.as_deref().map(Path::new),
        );
        // Which file failed, for the one-diagnostic errors.
        let file = match &r {
            Err(e) if c.as_ref().is_some_and(|c| e.message.contains(c.as_str())) => {
                c.clone().unwrap_or_default()
            }
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

/// `load_text(permissions_text, autonomy_text | nil, config_text | nil)`:
/// rule files' text (binaries), named `permissions.json`, `autonomy.json`
/// and `permc.toml`.
#[rustler::nif(schedule = "DirtyCpu")]
fn load_text<'a>(
    env: Env<'a>,
    permissions: Term<'a>,
    autonomy: Term<'a>,
    config: Term<'a>,
) -> Term<'a> {
    guarded(env, || {
        let c = if config == atoms::nil().to_term(env) {
            None
        } else {
            match config.decode_as_binary() {
                Ok(c) => Some(c),
                Err(_) => {
                    return error_map(
                        env,
                        "invalid_argument",
                        "the config text must be a binary or nil",
                    )
                }
            }
        };
        let Ok(p) = permissions.decode_as_binary() else {
            return error_map(
                env,
                "invalid_argument",
                "the permissions text must be a binary",
            );
        };
        let a = if autonomy == atoms::nil().to_term(env) {
            None
        } else {
            match autonomy.decode_as_binary() {
                Ok(a) => Some(a),
                Err(_) => {
                    return error_map(
                        env,
                        "invalid_argument",
                        "the autonomy text must be a binary or nil",
                    )
                }
            }
        };
        let r = Policy::load_text_with(
            Some(p.as_slice()),
            a.as_ref().map(|a| a.as_slice()),
            c.as_ref().map(|c| c.as_slice()),
        );
        load_result(env, r, "permissions.json")
    })
}

/// `load_artifact_bytes(binary)`: an artifact's bytes.
#[rustler::nif(schedule = "DirtyCpu")]
fn load_artifact_bytes<'a>(env: Env<'a>, bytes: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let Ok(b) = bytes.decode_as_binary() else {
            return error_map(env, "invalid_argument", "the artifact must be a binary");
        };
        load_result(
            env,
            Policy::load_artifact_bytes(b.as_slice()),
            "the artifact",
        )
    })
}

/// The policy of a call, borrowed for the call (no reference count
/// taken and given back, as a `ResourceArc` would).
fn policy_arg<'a>(env: Env<'a>, t: Term<'a>) -> Result<&'a PolicyResource, Term<'a>> {
    t.decode::<&'a PolicyResource>().map_err(|_| {
        error_map(
            env,
            "invalid_argument",
            "not a policy: load one with Permc.load/2 or Permc.load_artifact/1",
        )
    })
}

/// A request at most this heavy ([`measure`]) is decided on the caller's
/// scheduler: 2 KiB of strings, or a few hundred entries, decide in well
/// under a millisecond whatever their shape (the slowest 8 KiB command
/// found took 4.7 ms).
const INLINE_WEIGHT: usize = 2048;

/// The heaviest request decided at all: what `permc serve` takes in one
/// line (16 MiB). A heavier one is `{:error, %{code: :request_too_large}}`.
const MAX_WEIGHT: usize = 16 << 20;

/// How heavy a request term is — its binaries' bytes, plus one per map
/// entry, list item and other term — and how deep it nests, counted until
/// the weight is past `budget` (so the count costs at most `budget`
/// steps): the weight is `budget + 1` then, and the depth that of the part
/// walked.
fn measure(term: Term, budget: usize) -> (usize, usize) {
    let mut total = 0usize;
    let mut deepest = 0usize;
    let mut stack = vec![(term, 0usize)];
    while let Some((t, depth)) = stack.pop() {
        total += 1;
        deepest = deepest.max(depth);
        match t.get_type() {
            TermType::Binary => {
                total += t.decode_as_binary().map_or(0, |b| b.len());
            }
            TermType::Map => {
                if let Some(iter) = MapIterator::new(t) {
                    for (k, v) in iter {
                        total += 1;
                        if total > budget {
                            return (budget + 1, deepest);
                        }
                        stack.push((k, depth + 1));
                        stack.push((v, depth + 1));
                    }
                }
            }
            TermType::List => {
                // Cell by cell: an improper list's tail (`[1 | 2]`) ends
                // the walk (reading it is an error later anyway), and no
                // length is asked first (a whole walk of a long list).
                let mut cell = t;
                while let Ok((head, tail)) = cell.list_get_cell() {
                    total += 1;
                    if total > budget {
                        return (budget + 1, deepest);
                    }
                    stack.push((head, depth + 1));
                    cell = tail;
                }
            }
            _ => {}
        }
        if total > budget {
            return (budget + 1, deepest);
        }
    }
    (total, deepest)
}

/// The deepest request read on a dirty scheduler. Its stack is small
/// (`+sssdcpu`, 40 kilowords, against 128 for a normal scheduler) and the
/// term reader recurses once per level: a request nested deeper is read
/// on the normal scheduler, as before (`:inline`).
const DIRTY_DEPTH: usize = 32;

/// `decide(policy, request)` → `{:ok, map}` (the §10.2 map) or `{:error,
/// …}`; `:dirty` for a request heavier than [`INLINE_WEIGHT`], which
/// `Permc.decide` then hands to [`decide_dirty`]. The common request is
/// read typed ([`typed`]) and weighed as it is read; any other is weighed
/// ([`measure`]) and read as its tree.
#[rustler::nif]
fn decide<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        match answer_light(env, policy, request, INLINE_WEIGHT) {
            Some(answer) => answer,
            None => atoms::dirty().encode(env),
        }
    })
}

/// The answer to a request of at most `budget` ([`measure`]'s weight) on
/// the scheduler this runs on — `{:ok, map}` or `{:error, …}` —, or
/// `None` for a heavier one.
fn answer_light<'a>(
    env: Env<'a>,
    policy: Term<'a>,
    request: Term<'a>,
    budget: usize,
) -> Option<Term<'a>> {
    let policy = match policy_arg(env, policy) {
        Ok(p) => p,
        Err(e) => return Some(e),
    };
    answer_with(env, &policy.0, request, budget)
}

/// [`answer_light`] with the policy decoded.
fn answer_with<'a>(
    env: Env<'a>,
    policy: &Policy,
    request: Term<'a>,
    budget: usize,
) -> Option<Term<'a>> {
    if let Some(t) = typed::typed(request) {
        if t.weight > budget {
            return None;
        }
        // The request borrows the map's binaries: no string copied.
        if let Some(r) = Request::from_parts(&t.parts) {
            return Some(match r {
                Ok(req) => ok_decision(env, &policy.decide(&req), None),
                Err(e) => error_map(env, e.code, &e.message),
            });
        }
    } else if measure(request, budget).0 > budget {
        return None;
    }
    Some(match read(env, request) {
        Ok((id, req)) => ok_decision(env, &policy.decide(&req), id.as_ref()),
        Err(e) => e,
    })
}

/// `decide_common(policy, fields)`: [`decide`] for the common request
/// whose values `Permc` matched out of its maps (`Permc.common/1`, a
/// tuple [`typed::common`] reads), answered as [`decide`] answers the
/// map: the same reading of each value, the request map itself read when
/// a value is not the common request's. `:dirty` as [`decide`].
#[rustler::nif]
fn decide_common<'a>(env: Env<'a>, policy: Term<'a>, fields: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        match common_answer(env, &policy.0, fields, INLINE_WEIGHT) {
            Some(answer) => answer,
            None => atoms::dirty().encode(env),
        }
    })
}

/// The answer to a tuple of [`typed::common`] of at most `budget`
/// (`None` for a heavier one); a term that is not such a tuple is read
/// as a request ([`answer_with`]), which refuses it.
fn common_answer<'a>(
    env: Env<'a>,
    policy: &Policy,
    fields: Term<'a>,
    budget: usize,
) -> Option<Term<'a>> {
    let (request, typed) = match typed::common(fields) {
        Some(c) => c,
        None => return answer_with(env, policy, fields, budget),
    };
    if let Some(t) = typed {
        if t.weight > budget {
            return None;
        }
        // The request borrows the map's binaries: no string copied.
        if let Some(r) = Request::from_parts(&t.parts) {
            return Some(match r {
                Ok(req) => decision_tuple(env, &policy.decide(&req)),
                Err(e) => error_map(env, e.code, &e.message),
            });
        }
    }
    answer_with(env, policy, request, budget)
}

/// `decide_brief(policy, request)` → `{:ok, policy, reason}`, both atoms,
/// for the hot path that needs nothing else: the compiled engine's answer
/// (`Policy::brief`) without the strings of a full decision (rule,
/// source, scope root, message), which it never builds. Only the common
/// request of atom or string keys read typed and light; for any other
/// `:full`, and `Permc.decide_brief/2` takes the two from `decide/2`.
#[rustler::nif]
fn decide_brief<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let parts = match typed::typed(request) {
            Some(t) if t.weight <= INLINE_WEIGHT => t.parts,
            _ => return atoms::full().encode(env),
        };
        brief_answer(env, &policy.0, &parts)
    })
}

/// `decide_brief_common(policy, fields)`: [`decide_brief`] for the values
/// `Permc` matched out of the common request's maps (as
/// [`decide_common`]); `:full` for any other.
#[rustler::nif]
fn decide_brief_common<'a>(env: Env<'a>, policy: Term<'a>, fields: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        match typed::common(fields) {
            Some((_, Some(t))) if t.weight <= INLINE_WEIGHT => {
                brief_answer(env, &policy.0, &t.parts)
            }
            _ => atoms::full().encode(env),
        }
    })
}

/// `{:ok, policy, reason}` for the parts of a request read typed, its
/// error, or `:full` for parts the typed reading leaves to the tree.
fn brief_answer<'a>(env: Env<'a>, policy: &Policy, parts: &Parts<'_>) -> Term<'a> {
    match Request::from_parts(parts) {
        Some(Ok(req)) => {
            let (p, reason) = policy.brief(&req);
            (atoms::ok(), policy_atom(p), reason_atom(env, reason)).encode(env)
        }
        Some(Err(e)) => error_map(env, e.code, &e.message),
        None => atoms::full().encode(env),
    }
}

/// The answer to a request given as one line of JSON text.
fn answer_line<'a>(env: Env<'a>, policy: &Policy, line: &[u8]) -> Term<'a> {
    match permc_runtime::answer::read_request(line) {
        (id, Ok(req)) => ok_decision(env, &policy.decide(&req), id.as_ref()),
        (_, Err(e)) => error_map(env, e.code, &e.message),
    }
}

/// A decision as the NIF answers it: [`decision_tuple`] (`Permc` makes
/// the map), or `{:ok, map}` ([`decision_term`]'s) for a request with an
/// `id`, which the tuple has no slot for.
fn ok_decision<'a>(env: Env<'a>, d: &permc_runtime::Decision, id: Option<&Value>) -> Term<'a> {
    match id {
        None => decision_tuple(env, d),
        Some(_) => (atoms::ok(), decision_term(env, d, id)).encode(env),
    }
}

/// A decision's fields as one tuple, `{policy, reason, message, rule,
/// source, autonomy_origin, scope_root}` (an absent field `nil`; the
/// autonomy origin an atom, `:specific` or `:wildcard`), from which
/// `Permc.answer/1` makes SPEC §10.2's map, `{:ok, map}`. A map made in
/// Elixir with its keys written out shares one keys tuple, a literal;
/// `enif_make_map_from_arrays` makes a new one each call and sorts its
/// keys by their names' text (a sixth of the crossing).
fn decision_tuple<'a>(env: Env<'a>, d: &permc_runtime::Decision) -> Term<'a> {
    decision_tuple_with(env, d, text_term(env, &d.message))
}

/// [`decision_tuple`] with the message's term already made (a batch's
/// slice makes its long messages as parts of one binary: `batch`).
fn decision_tuple_with<'a>(
    env: Env<'a>,
    d: &permc_runtime::Decision,
    message: Term<'a>,
) -> Term<'a> {
    let nil = atoms::nil().encode(env);
    let (rule, source) = match &d.rule {
        Some(r) => (text_term(env, &r.rule), text_term(env, &r.source)),
        None => (nil, nil),
    };
    let root = d.scope_root.as_deref().map_or(nil, |s| text_term(env, s));
    decision_tuple_of(env, d, message, rule, source, root)
}

/// [`decision_tuple_with`] with its strings' terms already made (`nil`
/// for an absent one).
fn decision_tuple_of<'a>(
    env: Env<'a>,
    d: &permc_runtime::Decision,
    message: Term<'a>,
    rule: Term<'a>,
    source: Term<'a>,
    root: Term<'a>,
) -> Term<'a> {
    let names = (
        d.policy.name(),
        d.reason,
        d.autonomy_origin.map(|o| o.name()),
    );
    decision_tuple_parts(env, names, message, rule, source, root)
}

/// [`decision_tuple_of`] of a decision's policy, reason and autonomy
/// origin (by their names) and its strings' terms.
pub(crate) fn decision_tuple_parts<'a>(
    env: Env<'a>,
    (policy, reason, origin): (&str, Reason, Option<&str>),
    message: Term<'a>,
    rule: Term<'a>,
    source: Term<'a>,
    root: Term<'a>,
) -> Term<'a> {
    let nil = atoms::nil().encode(env);
    let origin = match origin {
        None => nil,
        Some("specific") => atoms::specific().encode(env),
        Some(_) => atoms::wildcard().encode(env),
    };
    (
        policy_atom(policy),
        reason_atom(env, reason),
        message,
        rule,
        source,
        origin,
        root,
    )
        .encode(env)
}

/// The atom of a policy's name.
fn policy_atom(name: &str) -> Atom {
    match name {
        "auto_approve" => atoms::auto_approve(),
        "require_approval" => atoms::require_approval(),
        _ => atoms::deny(),
    }
}

/// [`decide`] on a dirty CPU scheduler, for a heavy request; one over
/// [`MAX_WEIGHT`] is refused.
#[rustler::nif(schedule = "DirtyCpu")]
fn decide_dirty<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let (weight, depth) = measure(request, MAX_WEIGHT);
        if weight > MAX_WEIGHT {
            return too_heavy_error(env);
        }
        if depth > DIRTY_DEPTH {
            return atoms::inline().encode(env);
        }
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let (id, req) = match read(env, request) {
            Ok(r) => r,
            Err(e) => return e,
        };
        // A dirty scheduler's stack is small (`+sssdcpu`, 40 kilowords), and
        // the readers recurse as deep as SPEC §4.2 lets a command nest: the
        // decision runs on a thread of its own with a stack of
        // [`DECIDE_STACK`] (the cost of a thread is small beside a request
        // this large).
        let decided = std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(DECIDE_STACK)
                .spawn_scoped(s, || {
                    IN_PERMC.with(|c| c.set(true));
                    policy.0.decide(&req)
                })
                .map(|h| h.join())
        });
        match decided {
            Ok(Ok(decision)) => ok_decision(env, &decision, id.as_ref()),
            Ok(Err(p)) => std::panic::resume_unwind(p),
            Err(e) => error_map(
                env,
                "panic",
                &format!("cannot start a thread to decide: {e}"),
            ),
        }
    })
}

/// `decide_json(policy, line)`: a request as one line of JSON text (a
/// binary), read by the CLI's reader; the decision map, or `{:error, …}`
/// with the CLI's code for the line. On the caller's scheduler: the
/// Elixir side sends a long line (`Permc.decide_json/2` says how long) to
/// `decide_json_dirty`.
#[rustler::nif]
fn decide_json<'a>(env: Env<'a>, policy: Term<'a>, line: Term<'a>) -> Term<'a> {
    decide_json_here(env, policy, line)
}

/// [`decide_json`] on a dirty CPU scheduler, for a long line.
#[rustler::nif(schedule = "DirtyCpu")]
fn decide_json_dirty<'a>(env: Env<'a>, policy: Term<'a>, line: Term<'a>) -> Term<'a> {
    decide_json_here(env, policy, line)
}

fn decide_json_here<'a>(env: Env<'a>, policy: Term<'a>, line: Term<'a>) -> Term<'a> {
    guarded(env, || {
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let Ok(bin) = line.decode_as_binary() else {
            return error_map(
                env,
                "invalid_argument",
                "the request must be a binary of JSON text",
            );
        };
        if bin.len() > MAX_WEIGHT {
            return too_heavy_error(env);
        }
        answer_line(env, &policy.0, bin.as_slice())
    })
}

/// The stack of the thread a dirty decision runs on: as a main thread's.
const DECIDE_STACK: usize = 8 << 20;

/// The error for a request over [`MAX_WEIGHT`], if it is.
fn too_heavy<'a>(env: Env<'a>, request: Term<'a>) -> Option<Term<'a>> {
    (measure(request, MAX_WEIGHT).0 > MAX_WEIGHT).then(|| too_heavy_error(env))
}

/// `{:error, %{code: :request_too_large, …}}`.
fn too_heavy_error(env: Env<'_>) -> Term<'_> {
    error_map(
        env,
        "request_too_large",
        &format!("the request is larger than {MAX_WEIGHT} bytes"),
    )
}

/// [`decide`] without the weighing, on the caller's scheduler: for a
/// heavy request nested deeper than [`DIRTY_DEPTH`] (`decide_dirty` said
/// `:inline`).
#[rustler::nif]
fn decide_inline<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        if let Some(e) = too_heavy(env, request) {
            return e;
        }
        decide_here(env, policy, request)
    })
}

/// Decides a request on the scheduler this runs on.
fn decide_here<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    let policy = match policy_arg(env, policy) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let (id, req) = match read(env, request) {
        Ok(r) => r,
        Err(e) => return e,
    };
    ok_decision(env, &policy.0.decide(&req), id.as_ref())
}

/// SPEC §10.2's map for a decision, with the fields and order of
/// `Decision::serialize_fields` (the binding tests compare every answer
/// with `permc decide`'s), built in one go from pre-made atoms.
fn decision_term<'a>(env: Env<'a>, d: &permc_runtime::Decision, id: Option<&Value>) -> Term<'a> {
    let policy = policy_atom(d.policy.name());
    // At most eight fields: on the stack, not in two vectors. Put in the
    // order of their keys' names (an atom key sorts by its text), which
    // is the map's own order: the VM's sort of the keys then only checks.
    let nil = atoms::nil().encode(env);
    let (mut keys, mut values, mut n) = ([nil; 8], [nil; 8], 0);
    let mut put = |k: Atom, v: Term<'a>| {
        keys[n] = k.encode(env);
        values[n] = v;
        n += 1;
    };
    if let Some(o) = d.autonomy_origin {
        put(atoms::autonomy_origin(), text_term(env, o.name()));
    }
    if let Some(id) = id {
        put(atoms::id(), value_term(env, id, false));
    }
    put(atoms::message(), text_term(env, &d.message));
    put(atoms::policy(), policy.encode(env));
    // An atom, as the policy: both are closed sets of names (SPEC §5.3),
    // matched on, never made from the caller's input; made once.
    put(atoms::reason(), reason_atom(env, d.reason).encode(env));
    if let Some(r) = &d.rule {
        put(atoms::rule(), text_term(env, &r.rule));
    }
    if let Some(s) = &d.scope_root {
        put(atoms::scope_root(), text_term(env, s));
    }
    if let Some(r) = &d.rule {
        put(atoms::source(), text_term(env, &r.source));
    }
    Term::map_from_term_arrays(env, &keys[..n], &values[..n])
        .unwrap_or_else(|_| error_map(env, "panic", "cannot build the decision map"))
}

/// A string as a binary made in the calling process's heap when small
/// (`enif_make_new_binary`: up to 64 bytes on the heap, no allocation
/// outside it), where rustler's `encode` allocates a reference-counted
/// binary for every string (`enif_alloc_binary`), freed by a later
/// garbage collection.
fn text_term<'a>(env: Env<'a>, s: &str) -> Term<'a> {
    let mut b = NewBinary::new(env, s.len());
    b.as_mut_slice().copy_from_slice(s.as_bytes());
    b.into()
}

/// The atom of a reason's name: every reason's made once, on first use
/// (`Atom::from_str` looks the name up in the VM's atom table, under its
/// lock, each time).
fn reason_atom(env: Env, reason: Reason) -> Atom {
    static REASONS: OnceLock<Vec<Atom>> = OnceLock::new();
    let all = REASONS.get_or_init(|| {
        Reason::ALL
            .iter()
            .map(|r| Atom::from_str(env, r.name()).unwrap_or_else(|_| atoms::error()))
            .collect()
    });
    Reason::ALL
        .iter()
        .position(|r| *r == reason)
        .and_then(|i| all.get(i).copied())
        .unwrap_or_else(atoms::error)
}

/// `explain(policy, request)` → the text of `permc explain`, or `{:error, …}`.
#[rustler::nif]
fn explain<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        if let Some(e) = too_heavy(env, request) {
            return e;
        }
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

/// `explain_data(policy, request)` → `permc explain --format json`'s
/// object as a map with snake_case atom keys, its decision as `decide`'s.
#[rustler::nif]
fn explain_data<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        if let Some(e) = too_heavy(env, request) {
            return e;
        }
        let policy = match policy_arg(env, policy) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let (_, req) = match read(env, request) {
            Ok(r) => r,
            Err(e) => return e,
        };
        let mut v = match policy.0.explain_json(&req) {
            Ok(v) => v,
            Err(m) => return error_map(env, "invalid_artifact", &m),
        };
        if let Some(o) = v.as_object_mut() {
            o.remove("decision");
        }
        let map = value_term(env, &snake_keys(v), true);
        let decision = decision_term(env, &policy.0.decide(&req), None);
        let key = Atom::from_str(env, "decision").unwrap_or_else(|_| atoms::error());
        let map = map
            .map_put(key.encode(env), decision)
            .unwrap_or_else(|_| error_map(env, "panic", "cannot build the explanation map"));
        (atoms::ok(), map).encode(env)
    })
}

/// `v` with every object key in snake_case (`executionMode` →
/// `execution_mode`), as the Elixir side's maps have them.
fn snake_keys(v: Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, v)| {
                    let mut snake = String::with_capacity(k.len() + 4);
                    for c in k.chars() {
                        if c.is_ascii_uppercase() {
                            snake.push('_');
                            snake.push(c.to_ascii_lowercase());
                        } else {
                            snake.push(c);
                        }
                    }
                    (snake, snake_keys(v))
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(snake_keys).collect()),
        v => v,
    }
}

/// `always(policy, request)` → SPEC §7's outcome (nothing written).
#[rustler::nif]
fn always<'a>(env: Env<'a>, policy: Term<'a>, request: Term<'a>) -> Term<'a> {
    guarded(env, || {
        if let Some(e) = too_heavy(env, request) {
            return e;
        }
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
