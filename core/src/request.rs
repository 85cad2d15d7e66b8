//! Requests (SPEC §10.1): read from JSON, strictly, failing closed.

use permc_grammar::{ActionType, Role};
use serde_json::{Map, Value};

use std::borrow::Cow;
use std::fmt;

/// Where the command runs (SPEC §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExecutionMode {
    /// The project's container.
    Container,
    /// The project folder bind-mounted into a container.
    Mounted,
    /// A runner (host or container, unknown to the API).
    Runner,
}

impl ExecutionMode {
    /// The name as written in requests.
    pub fn name(self) -> &'static str {
        match self {
            ExecutionMode::Container => "container",
            ExecutionMode::Mounted => "mounted",
            ExecutionMode::Runner => "runner",
        }
    }

    fn parse(s: &str) -> Option<ExecutionMode> {
        match s {
            "container" => Some(ExecutionMode::Container),
            "mounted" => Some(ExecutionMode::Mounted),
            "runner" => Some(ExecutionMode::Runner),
            _ => None,
        }
    }
}

/// The proposed action. Its strings borrow from what the request was
/// read from where they can (a JSON line's text without escapes, a
/// binding's binaries or buffer): reading a request copies no string
/// that has no escape ([`Request::into_owned`] makes one that outlives
/// its source).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action<'a> {
    /// `type`.
    pub kind: ActionType,
    /// The command line (terminal).
    pub command: Option<Cow<'a, str>>,
    /// Absolute host path; `None` = the project root.
    pub cwd: Option<Cow<'a, str>>,
    /// Agent id.
    pub agent: Option<Cow<'a, str>>,
    /// `targetBranch` (git_merge).
    pub target_branch: Option<Cow<'a, str>>,
    /// `path` (write_file, SPEC §10.1 round 3): the file written, absolute
    /// or relative to `cwd`, else to the scope root.
    pub path: Option<Cow<'a, str>>,
}

/// The context of a decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context<'a> {
    /// The requester's role.
    pub role: Role,
    /// Default `container`.
    pub execution_mode: ExecutionMode,
    /// Default false.
    pub container_running: bool,
    /// Required for terminal actions.
    pub project_scope_root: Option<Cow<'a, str>>,
}

/// One request, its strings borrowed from its source for `'a` (see
/// [`Action`]); `Request<'static>` owns them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The action.
    pub action: Action<'a>,
    /// The context.
    pub context: Context<'a>,
}

/// Why a request cannot be read; answered as `{"error": {...}}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestError {
    /// `invalid_json`, `invalid_request`, `missing_field`, `unknown_type`,
    /// `unknown_role`, `invalid_field`, `unknown_field`, `duplicate_key`.
    pub code: &'static str,
    /// For people.
    pub message: String,
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for RequestError {}

fn err(code: &'static str, message: impl Into<String>) -> RequestError {
    RequestError {
        code,
        message: bounded(message.into()),
    }
}

/// The longest error message, in bytes: a message quotes what it refuses
/// (a cwd, a key, a role), and a request may be megabytes.
const MAX_MESSAGE: usize = 512;

/// `message`, cut to [`MAX_MESSAGE`] bytes (at a character boundary) with
/// the length it had, so an error never echoes a whole oversized input.
fn bounded(mut message: String) -> String {
    if message.len() <= MAX_MESSAGE {
        return message;
    }
    let all = message.len();
    let mut end = MAX_MESSAGE;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    message.truncate(end);
    message.push_str(&format!("… ({all} bytes in all)"));
    message
}

/// The fields permc knows, per object (SPEC §10.1). A field of another
/// action type (`targetBranch` on `git_push`) is known and ignored.
const ROOT_FIELDS: &[&str] = &["action", "context", "id"];
/// The fields of `action` (a binding reads a request's keys against them).
pub const ACTION_FIELDS: &[&str] = &["type", "command", "cwd", "agent", "targetBranch", "path"];
/// The fields of `context`.
pub const CONTEXT_FIELDS: &[&str] = &[
    "role",
    "executionMode",
    "containerRunning",
    "projectScopeRoot",
];

/// A JSON value as written: an object keeps every key in document order,
/// a key given twice included (`serde_json::Value` would keep only one).
/// Strings and keys borrow from the request text where it has no escapes,
/// so reading a request allocates little beyond the tree itself.
///
/// It is also what a binding builds from its runtime's own values (an
/// Elixir map, a JavaScript object) and hands to [`Request::from_node`]:
/// one conversion, read as strictly as JSON text (an atom key and a
/// string key of the same name are two entries, so `duplicate_key`).
#[derive(Debug)]
pub enum Node<'a> {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// A number.
    Number(serde_json::Number),
    /// A string.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Node<'a>>),
    /// An object: every key, in order, repeats kept.
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
}

/// A string of the text, borrowed when it has no escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de> serde::Deserialize<'de> for Text<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Text<'de>, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> serde::Deserialize<'de> for Node<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Node<'de>, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Node<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<Node<'de>, E> {
                Ok(Node::Null)
            }
            fn visit_none<E>(self) -> Result<Node<'de>, E> {
                Ok(Node::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Node<'de>, E> {
                Ok(Node::Bool(b))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Node<'de>, E> {
                Ok(Node::Number(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Node<'de>, E> {
                Ok(Node::Number(n.into()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Node<'de>, E> {
                Ok(serde_json::Number::from_f64(n).map_or(Node::Null, Node::Number))
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Node<'de>, E> {
                Ok(Node::String(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Node<'de>, E> {
                Ok(Node::String(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<Node<'de>, E> {
                Ok(Node::String(Cow::Owned(s)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Node<'de>, A::Error> {
                let mut v = Vec::new();
                while let Some(n) = a.next_element()? {
                    v.push(n);
                }
                Ok(Node::Array(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Node<'de>, A::Error> {
                let mut v = Vec::new();
                while let Some((Text(k), n)) = a.next_entry::<Text<'de>, Node<'de>>()? {
                    v.push((k, n));
                }
                Ok(Node::Object(v))
            }
        }
        d.deserialize_any(V)
    }
}

impl Node<'_> {
    fn of(v: &Value) -> Node<'_> {
        match v {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Number(n.clone()),
            Value::String(s) => Node::String(Cow::Borrowed(s)),
            Value::Array(a) => Node::Array(a.iter().map(Node::of).collect()),
            Value::Object(o) => Node::Object(
                o.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Node::of(v)))
                    .collect(),
            ),
        }
    }

    fn to_value(&self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Number(n) => Value::Number(n.clone()),
            Node::String(s) => Value::String(s.to_string()),
            Node::Array(a) => Value::Array(a.iter().map(Node::to_value).collect()),
            Node::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect::<Map<_, _>>(),
            ),
        }
    }
}

/// The keys of an object in document order, each checked: a key given
/// twice is `duplicate_key`, a key not in `known` is `unknown_field`
/// (naming its path and the closest known field).
fn fields<'a, 't: 'a>(
    fields: &'a [(Cow<'t, str>, Node<'t>)],
    path: &'a str,
    known: &'a [&'a str],
) -> impl Iterator<Item = Result<(&'a str, &'a Node<'t>), RequestError>> + 'a {
    fields.iter().enumerate().map(move |(i, (key, value))| {
        // The path is spelled out only for an error: a request that reads
        // formats nothing (this loop runs for every field of every request).
        if fields[..i].iter().any(|(k, _)| k == key) {
            let full = join(path, key);
            return Err(err(
                "duplicate_key",
                format!("`{full}` is given twice: each field is given once"),
            ));
        }
        if !known.contains(&key.as_ref()) {
            let full = join(path, key);
            let hint = match permc_grammar::action::closest(key, known.iter().copied()) {
                Some(c) => format!("did you mean `{c}`?"),
                None => format!("the fields here are {}", quoted(known)),
            };
            return Err(err(
                "unknown_field",
                format!("`{full}` is not a request field: {hint}"),
            ));
        }
        Ok((key.as_ref(), value))
    })
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Any JSON (the `id`): only keys given twice are errors. Linear in the
/// value: the keys of an object are checked with [`first_repeat`], and
/// the path of the key given twice is spelled out only for the error.
fn no_duplicates(node: &Node, path: &str) -> Result<(), RequestError> {
    match first_duplicate(node) {
        None => Ok(()),
        Some(steps) => {
            let mut full = path.to_owned();
            for step in steps.iter().rev() {
                match step {
                    Step::Key(k) => full = join(&full, k),
                    Step::Index(i) => full = format!("{full}[{i}]"),
                }
            }
            Err(err(
                "duplicate_key",
                format!("`{full}` is given twice: each field is given once"),
            ))
        }
    }
}

/// One step of a path into a JSON value.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The path (innermost step first) of the first key given twice in
/// `node`, in document order: the repeat of an object's keys first, then
/// its values in order.
fn first_duplicate<'n>(node: &'n Node<'_>) -> Option<Vec<Step<'n>>> {
    match node {
        Node::Array(a) => a.iter().enumerate().find_map(|(i, n)| {
            let mut steps = first_duplicate(n)?;
            steps.push(Step::Index(i));
            Some(steps)
        }),
        Node::Object(o) => {
            let repeat = first_repeat(o.iter().map(|(k, _)| k.as_ref()));
            // Values before the repeated key are read first, as a reader
            // in document order meets them.
            let before = repeat.unwrap_or(o.len());
            let inner = o[..before].iter().find_map(|(k, v)| {
                let mut steps = first_duplicate(v)?;
                steps.push(Step::Key(k));
                Some(steps)
            });
            inner.or_else(|| repeat.map(|i| vec![Step::Key(o[i].0.as_ref())]))
        }
        _ => None,
    }
}

/// The index of the first key equal to one before it: a scan among a few
/// keys, a hash set past them, so an object of N keys costs O(N).
fn first_repeat<'a>(keys: impl Iterator<Item = &'a str>) -> Option<usize> {
    const FEW: usize = 16;
    let mut seen: Vec<&str> = Vec::new();
    let mut set: Option<std::collections::HashSet<&str>> = None;
    for (i, k) in keys.enumerate() {
        if let Some(set) = set.as_mut() {
            if !set.insert(k) {
                return Some(i);
            }
            continue;
        }
        if seen.contains(&k) {
            return Some(i);
        }
        seen.push(k);
        if seen.len() == FEW {
            set = Some(seen.drain(..).collect());
        }
    }
    None
}

/// A string or null at `parent.key` (the path is formatted only for the error).
fn opt_string<'t>(
    value: &Node<'t>,
    parent: &str,
    key: &str,
) -> Result<Option<Cow<'t, str>>, RequestError> {
    match value {
        Node::Null => Ok(None),
        Node::String(s) => Ok(Some(s.clone())),
        _ => Err(err(
            "invalid_field",
            format!("`{parent}.{key}` must be a string"),
        )),
    }
}

fn object<'a, 't>(
    node: &'a Node<'t>,
    path: &str,
) -> Result<&'a [(Cow<'t, str>, Node<'t>)], RequestError> {
    match node {
        Node::Object(o) => Ok(o),
        _ => Err(err("invalid_field", format!("`{path}` must be an object"))),
    }
}

/// Reads `action`, field by field in document order.
fn read_action<'t>(node: &Node<'t>) -> Result<Action<'t>, RequestError> {
    let mut kind = None;
    let (mut command, mut cwd, mut agent, mut target_branch, mut path) =
        (None, None, None, None, None);
    for field in fields(object(node, "action")?, "action", ACTION_FIELDS) {
        let (key, value) = field?;
        match key {
            "type" => {
                kind = Some(match value {
                    Node::String(s) => ActionType::from_name(s).ok_or_else(|| {
                        let names = ActionType::ALL.iter().map(|t| t.name());
                        err("unknown_type", unknown("action type", s, names))
                    })?,
                    _ => return Err(err("invalid_field", "`action.type` must be a string")),
                })
            }
            "command" => command = opt_string(value, "action", key)?,
            "cwd" => cwd = opt_string(value, "action", key)?,
            "agent" => agent = opt_string(value, "action", key)?,
            "path" => path = opt_string(value, "action", key)?,
            _ => target_branch = opt_string(value, "action", key)?,
        }
    }
    let kind = kind.ok_or_else(|| err("missing_field", "`action.type` is required"))?;
    Ok(Action {
        kind,
        command,
        cwd,
        agent,
        target_branch,
        path,
    })
}

/// serde_json's error with its column in characters, as `permc check` and
/// every file position count them: serde counts bytes, so `"日本語" x`
/// was 6 columns further right in a request than in a rule file (issue
/// 43).
fn json_error(text: &str, e: &serde_json::Error) -> String {
    let shown = e.to_string();
    let (Some(at), true) = (shown.rfind(" at line "), e.line() > 0) else {
        return shown;
    };
    let line = text.split('\n').nth(e.line() - 1).unwrap_or("");
    let mut end = e.column().saturating_sub(1).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let column = line[..end].chars().count() + 1;
    format!("{} at line {} column {column}", &shown[..at], e.line())
}

/// "unknown role `developr`: did you mean `developer`?": the closest name,
/// when one is near, so a typo says what was meant.
fn unknown<'a>(what: &str, s: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    match permc_grammar::action::closest(s, names) {
        Some(n) => format!("unknown {what} `{s}`: did you mean `{n}`?"),
        None => format!("unknown {what} `{s}`"),
    }
}

/// Reads `context`, field by field in document order.
fn read_context<'t>(node: &Node<'t>) -> Result<Context<'t>, RequestError> {
    let mut role = None;
    let mut execution_mode = ExecutionMode::Container;
    let mut container_running = false;
    let mut project_scope_root = None;
    for field in fields(object(node, "context")?, "context", CONTEXT_FIELDS) {
        let (key, value) = field?;
        match key {
            "role" => {
                role = Some(match value {
                    Node::String(s) => Role::parse(s).ok_or_else(|| {
                        let names = Role::ALL.iter().map(|r| r.name());
                        err("unknown_role", unknown("role", s, names))
                    })?,
                    _ => return Err(err("invalid_field", "`context.role` must be a string")),
                })
            }
            "executionMode" => {
                execution_mode = match value {
                    Node::Null => ExecutionMode::Container,
                    Node::String(s) => ExecutionMode::parse(s).ok_or_else(|| {
                        err(
                            "invalid_field",
                            format!("unknown executionMode `{s}` (container, mounted or runner)"),
                        )
                    })?,
                    _ => {
                        return Err(err(
                            "invalid_field",
                            "`context.executionMode` must be a string",
                        ))
                    }
                }
            }
            "containerRunning" => {
                container_running = match value {
                    Node::Null => false,
                    Node::Bool(b) => *b,
                    _ => {
                        return Err(err(
                            "invalid_field",
                            "`context.containerRunning` must be a boolean",
                        ))
                    }
                }
            }
            _ => project_scope_root = opt_string(value, "context", key)?,
        }
    }
    let role = role.ok_or_else(|| err("missing_field", "`context.role` is required"))?;
    Ok(Context {
        role,
        execution_mode,
        container_running,
        project_scope_root,
    })
}

/// Reads a request from its document: every field in document order (the
/// first error met is the one reported), then what the fields require of
/// each other.
fn read<'t>(root: &Node<'t>) -> Result<Request<'t>, RequestError> {
    let Node::Object(root) = root else {
        return Err(err("invalid_request", "a request must be a JSON object"));
    };
    let (mut action, mut context) = (None, None);
    for field in fields(root, "", ROOT_FIELDS) {
        let (key, value) = field?;
        match key {
            "action" => action = Some(read_action(value)?),
            "context" => context = Some(read_context(value)?),
            _ => no_duplicates(value, "id")?,
        }
    }
    let action = action.ok_or_else(|| err("missing_field", "`action` is required"))?;
    let context = context.ok_or_else(|| err("missing_field", "`context` is required"))?;
    complete(action, context)
}

/// What a request's fields require of each other, once each field has
/// read: the last step of [`read`] and of the typed scanner
/// ([`plain::request`]), so both refuse alike.
fn complete<'t>(action: Action<'t>, context: Context<'t>) -> Result<Request<'t>, RequestError> {
    if action.kind == ActionType::Terminal {
        if action.command.is_none() {
            return Err(err(
                "missing_field",
                "`action.command` is required for terminal actions",
            ));
        }
        if context.project_scope_root.is_none() {
            return Err(err(
                "missing_field",
                "`context.projectScopeRoot` is required for terminal actions",
            ));
        }
    }
    // SPEC §10.1 (round 3): a written path is placed against the scope.
    if action.kind == ActionType::WriteFile
        && action.path.is_some()
        && context.project_scope_root.is_none()
    {
        return Err(err(
            "missing_field",
            "`context.projectScopeRoot` is required for write_file with a `path`",
        ));
    }
    // SPEC §5.1: the cwd is an absolute host path (empty is absent, the
    // project root). A relative one names no place: resolving it against
    // the root would guess where the command runs.
    if let Some(c) = action
        .cwd
        .as_deref()
        .filter(|c| !c.is_empty() && !c.starts_with('/'))
    {
        return Err(err(
            "invalid_field",
            format!("`action.cwd` must be an absolute path, not `{c}`"),
        ));
    }
    // SPEC §6.2: a scope root that is relative, or the whole machine, is
    // no scope.
    match &context.project_scope_root {
        Some(r) if !r.starts_with('/') => {
            return Err(err(
                "invalid_field",
                format!("`context.projectScopeRoot` must be an absolute path, not `{r}`"),
            ))
        }
        Some(r) if crate::facts::is_machine_root(r.as_ref()) => {
            return Err(err(
                "invalid_field",
                format!(
                    "`context.projectScopeRoot` is `{r}`, the root of the machine: give the project's folder"
                ),
            ))
        }
        _ => {}
    }
    Ok(Request { action, context })
}

impl Request<'_> {
    /// The request with its strings owned, for one that outlives what it
    /// was read from.
    pub fn into_owned(self) -> Request<'static> {
        let own = |s: Option<Cow<'_, str>>| s.map(|s| Cow::Owned(s.into_owned()));
        let Request { action, context } = self;
        Request {
            action: Action {
                kind: action.kind,
                command: own(action.command),
                cwd: own(action.cwd),
                agent: own(action.agent),
                target_branch: own(action.target_branch),
                path: own(action.path),
            },
            context: Context {
                role: context.role,
                execution_mode: context.execution_mode,
                container_running: context.container_running,
                project_scope_root: own(context.project_scope_root),
            },
        }
    }
}

impl<'t> Request<'t> {
    /// Reads a request from JSON text, strictly: unknown fields and keys
    /// given twice are errors (SPEC §10.1). Its strings borrow from
    /// `text` where they have no escape.
    pub fn from_json(text: &'t str) -> Result<Request<'t>, RequestError> {
        Request::from_json_with_id(text).1
    }

    /// Reads a stream line: its `id` (echoed in the answer, when the line
    /// is JSON and has one) and the request, or why it cannot be read.
    pub fn from_json_with_id(text: &'t str) -> (Option<Value>, Result<Request<'t>, RequestError>) {
        // Most lines are plain: objects, strings without escapes, booleans,
        // an integer `id`. A plain line whose every field is known, given
        // once and of its type is read by a small scanner straight into
        // the request (no tree); another plain line into the same tree
        // serde would build, which the strict reader reads (and refuses
        // with its error); anything else (another number, an array, an
        // escape, a control character, a syntax error) goes to
        // serde_json, whose answer — and error message — stands.
        if let Some(read) = plain::request(text) {
            return read;
        }
        if let Some(node) = plain::parse(text) {
            return Request::from_node(&node);
        }
        let node: Node = match serde_json::from_str(text) {
            Ok(n) => n,
            Err(e) => {
                let e = err(
                    "invalid_json",
                    format!("the request is not valid JSON: {}", json_error(text, &e)),
                );
                return (None, Err(e));
            }
        };
        Request::from_node(&node)
    }

    /// Reads a request from a [`Node`] a binding built: its `id` and the
    /// request, exactly as [`Request::from_json_with_id`] reads the same
    /// JSON text.
    pub fn from_node(node: &Node<'t>) -> (Option<Value>, Result<Request<'t>, RequestError>) {
        let id = match node {
            Node::Object(o) => o.iter().find(|(k, _)| k == "id").map(|(_, v)| v.to_value()),
            _ => None,
        };
        (id, read(node))
    }

    /// Reads a request from its fields as a binding found them, each key
    /// given once and no other key (see [`Parts`]): the typed reading of
    /// a plain JSON line ([`Request::from_json_with_id`]'s scanner), with
    /// no tree. `None` when a field does not read as its type would (no
    /// or an unknown `type`, `role` or `executionMode`): the caller then
    /// builds the [`Node`] tree for [`Request::from_node`], whose error
    /// names the field. A request whose every field reads is checked as a
    /// whole as the strict reader checks it ([`complete`]), so its error
    /// is the same too. Its strings are the parts' own, borrowed: a
    /// binding reads a request out of its runtime's values (an Elixir
    /// map's binaries, the addon's buffer) and copies none of them.
    pub fn from_parts(p: &Parts<'t>) -> Option<Result<Request<'t>, RequestError>> {
        let kind = ActionType::from_name(p.kind?)?;
        let role = Role::parse(p.role?)?;
        let execution_mode = match p.execution_mode {
            None => ExecutionMode::Container,
            Some(m) => ExecutionMode::parse(m)?,
        };
        Some(complete(
            Action {
                kind,
                command: p.command.map(Cow::Borrowed),
                cwd: p.cwd.map(Cow::Borrowed),
                agent: p.agent.map(Cow::Borrowed),
                target_branch: p.target_branch.map(Cow::Borrowed),
                path: p.path.map(Cow::Borrowed),
            },
            Context {
                role,
                execution_mode,
                container_running: p.container_running.unwrap_or(false),
                project_scope_root: p.project_scope_root.map(Cow::Borrowed),
            },
        ))
    }

    /// Reads a request from a JSON value. A `Value` keeps one of the keys
    /// given twice: read text with [`Request::from_json`] to refuse those.
    pub fn from_value(v: &'t Value) -> Result<Request<'t>, RequestError> {
        read(&Node::of(v))
    }
}

/// The fields of a request (SPEC §10.1) as a binding reads them from its
/// runtime's own values, for [`Request::from_parts`]: `None` is a field
/// absent or `null`, as the strict reader takes both. Only for a request
/// with no other key (no `id`, no unknown field), each key given once,
/// every value a string (`containerRunning` a boolean): anything else is
/// read from its [`Node`] tree.
#[derive(Debug, Clone, Copy, Default)]
pub struct Parts<'a> {
    /// `action.type`.
    pub kind: Option<&'a str>,
    /// `action.command`.
    pub command: Option<&'a str>,
    /// `action.cwd`.
    pub cwd: Option<&'a str>,
    /// `action.agent`.
    pub agent: Option<&'a str>,
    /// `action.targetBranch`.
    pub target_branch: Option<&'a str>,
    /// `action.path`.
    pub path: Option<&'a str>,
    /// `context.role`.
    pub role: Option<&'a str>,
    /// `context.executionMode`.
    pub execution_mode: Option<&'a str>,
    /// `context.containerRunning`.
    pub container_running: Option<bool>,
    /// `context.projectScopeRoot`.
    pub project_scope_root: Option<&'a str>,
}

/// How many bytes at the start of `s` a JSON string holds as they are:
/// the index of the first `"`, `\\` or control character (below 0x20),
/// or `s.len()`. Eight bytes at a time (SWAR): the request reader and the
/// answer writer run it over every string of every request.
pub fn json_plain_len(s: &[u8]) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while i + 8 <= s.len() {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[i..i + 8]);
        let x = u64::from_le_bytes(w);
        let zero = |v: u64| v.wrapping_sub(LO) & !v & HI;
        // A byte equal to `"` or `\\`, or below 0x20 (bytes of 0x80 and
        // up never set the high bit of `x - 0x20…` without `!x` clearing
        // it). A borrow carries only upwards, so the lowest bit set is the
        // first stop's, exactly.
        let stops =
            zero(x ^ (LO * 0x22)) | zero(x ^ (LO * 0x5C)) | (x.wrapping_sub(LO * 0x20) & !x & HI);
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let stop = |b: &u8| *b == b'"' || *b == b'\\' || *b < 0x20;
    i + s[i..].iter().position(stop).unwrap_or(s.len() - i)
}

/// For the fuzz targets and tests: when the plain scanner reads `text`,
/// serde_json reads it to the same tree (the scanner never accepts what
/// serde would refuse, nor reads it differently); when the typed scanner
/// reads it, the strict reader reads serde's tree to the same `id` and
/// request or error. Panics otherwise.
#[doc(hidden)]
pub fn assert_plain_scanner_agrees(text: &str) {
    if let Some(fast) = plain::request(text) {
        let slow = match serde_json::from_str::<Node>(text) {
            Ok(tree) => Request::from_node(&tree),
            Err(e) => panic!("the typed scanner read {text:?}, which serde_json refuses: {e}"),
        };
        assert_eq!(
            format!("{fast:?}"),
            format!("{slow:?}"),
            "typed scanner vs serde_json and the strict reader on {text:?}"
        );
    }
    if let Some(fast) = plain::parse(text) {
        let slow: Result<Node, _> = serde_json::from_str(text);
        match slow {
            Ok(slow) => assert_eq!(
                format!("{fast:?}"),
                format!("{slow:?}"),
                "plain scanner vs serde_json on {text:?}"
            ),
            Err(e) => panic!("the plain scanner read {text:?}, which serde_json refuses: {e}"),
        }
    }
}

/// The plain-JSON scanner of [`Request::from_json_with_id`].
mod plain {
    use super::{json_plain_len, Action, Context, ExecutionMode, Node, Request, RequestError};
    use permc_grammar::{ActionType, Role};
    use serde_json::Value;
    use std::borrow::Cow;

    /// The tree of `text` when it is one plain JSON value (objects,
    /// strings without escapes or control characters, non-negative
    /// integers, `true`, `false`, `null`) between optional JSON
    /// whitespace; `None` for anything else.
    pub(super) fn parse(text: &str) -> Option<Node<'_>> {
        let mut p = Scan {
            s: text.as_bytes(),
            text,
            at: 0,
        };
        let v = p.value(0)?;
        p.ws();
        (p.at == p.s.len()).then_some(v)
    }

    struct Scan<'a> {
        s: &'a [u8],
        text: &'a str,
        at: usize,
    }

    impl<'a> Scan<'a> {
        fn ws(&mut self) {
            while matches!(self.s.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                self.at += 1;
            }
        }

        fn eat(&mut self, b: u8) -> Option<()> {
            self.ws();
            (self.s.get(self.at) == Some(&b)).then(|| self.at += 1)
        }

        fn string(&mut self) -> Option<&'a str> {
            self.eat(b'"')?;
            let start = self.at;
            let n = json_plain_len(&self.s[start..]);
            if self.s.get(start + n) != Some(&b'"') {
                return None;
            }
            self.at = start + n + 1;
            // Both ends are ASCII quotes: char boundaries.
            self.text.get(start..start + n)
        }

        fn value(&mut self, depth: usize) -> Option<Node<'a>> {
            // Shallow only: requests nest two levels; deeper goes to serde.
            if depth > 4 {
                return None;
            }
            self.ws();
            match self.s.get(self.at)? {
                b'"' => Some(Node::String(Cow::Borrowed(self.string()?))),
                b'0'..=b'9' => Some(Node::Number(self.integer()?.into())),
                b'{' => {
                    let mut fields = Vec::with_capacity(5);
                    self.object(|p, k| {
                        let v = p.value(depth + 1)?;
                        fields.push((Cow::Borrowed(k), v));
                        Some(())
                    })?;
                    Some(Node::Object(fields))
                }
                _ => Some(match self.word()? {
                    Word::True => Node::Bool(true),
                    Word::False => Node::Bool(false),
                    Word::Null => Node::Null,
                }),
            }
        }

        /// A non-negative integer of at most 19 digits (always a u64, as
        /// serde reads it: the `id` most engines send). A leading zero, a
        /// fraction, an exponent, a minus (`-0` is a float to serde) or
        /// more digits go to serde.
        fn integer(&mut self) -> Option<u64> {
            let start = self.at;
            let len = self.s[start..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let end = start + len;
            if len == 0
                || (len > 1 && self.s[start] == b'0')
                || len > 19
                || matches!(self.s.get(end), Some(b'.' | b'e' | b'E'))
            {
                return None;
            }
            let n: u64 = self.text.get(start..end)?.parse().ok()?;
            self.at = end;
            Some(n)
        }

        /// `true`, `false` or `null` at the cursor.
        fn word(&mut self) -> Option<Word> {
            for (text, w) in [
                ("true", Word::True),
                ("false", Word::False),
                ("null", Word::Null),
            ] {
                if self.s[self.at..].starts_with(text.as_bytes()) {
                    self.at += text.len();
                    return Some(w);
                }
            }
            None
        }

        /// An object, `field` called with the scanner at each key's value
        /// (which it reads); `None` as soon as `field` says so.
        fn object(
            &mut self,
            mut field: impl FnMut(&mut Self, &'a str) -> Option<()>,
        ) -> Option<()> {
            self.eat(b'{')?;
            self.ws();
            if self.s.get(self.at) == Some(&b'}') {
                self.at += 1;
                return Some(());
            }
            loop {
                let k = self.string()?;
                self.eat(b':')?;
                field(self, k)?;
                self.ws();
                match self.s.get(self.at)? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        return Some(());
                    }
                    _ => return None,
                }
            }
        }

        /// A string or `null`, as [`super::opt_string`] reads them.
        fn opt_string(&mut self) -> Option<Option<Cow<'a, str>>> {
            self.ws();
            if self.s.get(self.at) == Some(&b'n') {
                return matches!(self.word()?, Word::Null).then_some(None);
            }
            Some(Some(Cow::Borrowed(self.string()?)))
        }

        /// `null` (`Some(None)`) or `true`/`false`.
        fn opt_bool(&mut self) -> Option<Option<bool>> {
            self.ws();
            match self.word()? {
                Word::True => Some(Some(true)),
                Word::False => Some(Some(false)),
                Word::Null => Some(None),
            }
        }

        /// A field of a typed object, first time seen: `bit` marked in
        /// `seen`; `None` for a key given twice.
        fn once(seen: &mut u8, bit: u8) -> Option<()> {
            (*seen & bit == 0).then(|| *seen |= bit)
        }

        /// `action`, each field known, given once and of its type.
        fn action(&mut self) -> Option<Action<'a>> {
            let (mut kind, mut command, mut cwd, mut agent, mut target_branch, mut path) =
                (None, None, None, None, None, None);
            let mut seen = 0u8;
            self.object(|p, key| {
                match key {
                    "type" => {
                        Self::once(&mut seen, 1)?;
                        kind = Some(ActionType::from_name(p.string()?)?);
                    }
                    "command" => {
                        Self::once(&mut seen, 2)?;
                        command = p.opt_string()?;
                    }
                    "cwd" => {
                        Self::once(&mut seen, 4)?;
                        cwd = p.opt_string()?;
                    }
                    "agent" => {
                        Self::once(&mut seen, 8)?;
                        agent = p.opt_string()?;
                    }
                    "targetBranch" => {
                        Self::once(&mut seen, 16)?;
                        target_branch = p.opt_string()?;
                    }
                    "path" => {
                        Self::once(&mut seen, 32)?;
                        path = p.opt_string()?;
                    }
                    _ => return None,
                }
                Some(())
            })?;
            Some(Action {
                kind: kind?,
                command,
                cwd,
                agent,
                target_branch,
                path,
            })
        }

        /// `context`, each field known, given once and of its type.
        fn context(&mut self) -> Option<Context<'a>> {
            let (mut role, mut mode, mut running, mut root) = (None, None, None, None);
            let mut seen = 0u8;
            self.object(|p, key| {
                match key {
                    "role" => {
                        Self::once(&mut seen, 1)?;
                        role = Some(Role::parse(p.string()?)?);
                    }
                    "executionMode" => {
                        Self::once(&mut seen, 2)?;
                        mode = match p.opt_string()? {
                            None => None,
                            Some(m) => Some(ExecutionMode::parse(&m)?),
                        };
                    }
                    "containerRunning" => {
                        Self::once(&mut seen, 4)?;
                        running = p.opt_bool()?;
                    }
                    "projectScopeRoot" => {
                        Self::once(&mut seen, 8)?;
                        root = p.opt_string()?;
                    }
                    _ => return None,
                }
                Some(())
            })?;
            Some(Context {
                role: role?,
                execution_mode: mode.unwrap_or(ExecutionMode::Container),
                container_running: running.unwrap_or(false),
                project_scope_root: root,
            })
        }

        /// The `id`: a plain string, a non-negative integer, `true`,
        /// `false` or `null` (an object or another number: the tree).
        fn id(&mut self) -> Option<Value> {
            self.ws();
            match self.s.get(self.at)? {
                b'"' => Some(Value::String(self.string()?.to_owned())),
                b'0'..=b'9' => Some(Value::Number(self.integer()?.into())),
                _ => Some(match self.word()? {
                    Word::True => Value::Bool(true),
                    Word::False => Value::Bool(false),
                    Word::Null => Value::Null,
                }),
            }
        }
    }

    enum Word {
        True,
        False,
        Null,
    }

    /// A plain request read straight into its fields, with no tree, when
    /// every field is known, given once and of its type (SPEC §10.1), and
    /// the fields then checked together as the strict reader checks them
    /// ([`super::complete`]); `None` for anything else, which the tree and
    /// the strict reader read (an unknown field, a key given twice, a
    /// wrong type, an unknown role: their errors, in document order).
    pub(super) fn request(
        text: &str,
    ) -> Option<(Option<Value>, Result<Request<'_>, RequestError>)> {
        let mut p = Scan {
            s: text.as_bytes(),
            text,
            at: 0,
        };
        let (mut id, mut action, mut context) = (None, None, None);
        let mut seen = 0u8;
        p.object(|p, key| {
            match key {
                "id" => {
                    Scan::once(&mut seen, 1)?;
                    id = Some(p.id()?);
                }
                "action" => {
                    Scan::once(&mut seen, 2)?;
                    action = Some(p.action()?);
                }
                "context" => {
                    Scan::once(&mut seen, 4)?;
                    context = Some(p.context()?);
                }
                _ => return None,
            }
            Some(())
        })?;
        p.ws();
        if p.at != p.s.len() {
            return None;
        }
        Some((id, super::complete(action?, context?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    #[test]
    fn json_plain_len_stops_where_a_string_needs_escaping() {
        let slow = |s: &[u8]| {
            s.iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(s.len())
        };
        let mut cases: Vec<Vec<u8>> = vec![b"".to_vec(), b"plain text, longer than eight".to_vec()];
        for stop in [b'"', b'\\', 0, 0x1f, b'\n'] {
            for at in 0..20 {
                let mut v = vec![b'a'; 20];
                v[at] = stop;
                cases.push(v);
            }
        }
        // Bytes that are not stops, every one, around every position.
        for b in 0x20..=0xffu8 {
            cases.push(vec![b; 17]);
        }
        cases.push("ünïcødé ✓ \u{7f}\u{80}\u{ff} é\u{1}".as_bytes().to_vec());
        // Two stops in one word, the second first in the word; every length
        // up to three words.
        cases.push(b"ab\\c\"d\x01e".to_vec());
        cases.push(b"\x1f\"".to_vec());
        for len in 0..25 {
            cases.push(vec![b'x'; len]);
            let mut v = vec![b'x'; len];
            v.push(b'\\');
            cases.push(v);
        }
        for c in cases {
            assert_eq!(json_plain_len(&c), slow(&c), "{c:?}");
        }
    }

    /// A JSON object of `fields` (key, value text), joined with `ws`.
    fn object_text(fields: &[(String, String)], ws: &str) -> String {
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{ws}\"{k}\"{ws}:{ws}{v}{ws}"))
            .collect();
        format!("{{{}}}", body.join(","))
    }

    /// Fields of one object: each key of `keys` but the last (a typo) at
    /// most once, in any order, with a value from its pool (mostly of its
    /// type, some not: a wrong type, a bad name, an escape, `null`); now
    /// and then one more field (the typo, or a key given twice).
    fn fields_of(
        keys: &'static [(&'static str, &'static [&'static str])],
    ) -> impl proptest::strategy::Strategy<Value = Vec<(String, String)>> {
        use proptest::prelude::*;
        let known = keys.len() - 1;
        (
            proptest::collection::vec(proptest::option::weighted(0.7, 0..64usize), known),
            proptest::option::weighted(0.15, (0..keys.len(), 0..64usize)),
            0..known,
        )
            .prop_map(move |(picks, extra, rot)| {
                let mut fields: Vec<(String, String)> = picks
                    .iter()
                    .enumerate()
                    .filter_map(|(k, v)| {
                        let (key, pool) = keys[(k + rot) % known];
                        v.map(|v| (key.to_string(), pick(pool, v)))
                    })
                    .collect();
                if let Some((k, v)) = extra {
                    let (key, pool) = keys[k];
                    fields.insert(v % (fields.len() + 1), (key.to_string(), pick(pool, v)));
                }
                fields
            })
    }

    /// Of 64 picks, 56 the pool's first (well-typed) value or one of the
    /// first three, the rest spread over it all.
    fn pick(pool: &[&str], v: usize) -> String {
        let i = if v < 56 {
            v % pool.len().min(3)
        } else {
            v % pool.len()
        };
        pool[i].to_string()
    }

    const TEXT: &[&str] = &[
        "\"ls -la\"",
        "\"/p/src\"",
        "\"/p\"",
        "\"\"",
        "\"src\"",
        "null",
        "\"é ✓\"",
        "\"dev-api\"",
        "\"a\\\"b\"",
        "5",
        "true",
        "{}",
        "nul",
    ];
    const ACTION: &[(&str, &[&str])] = &[
        (
            "type",
            &[
                "\"terminal\"",
                "\"git_push\"",
                "\"git_merge\"",
                "\"teleport\"",
                "null",
                "5",
            ],
        ),
        ("command", TEXT),
        ("cwd", TEXT),
        ("agent", TEXT),
        ("targetBranch", TEXT),
        ("path", TEXT),
        ("typ", &["\"terminal\""]),
    ];
    const CONTEXT: &[(&str, &[&str])] = &[
        (
            "role",
            &[
                "\"developer\"",
                "\"owner\"",
                "\"viewer\"",
                "\"root\"",
                "null",
                "1",
            ],
        ),
        (
            "executionMode",
            &[
                "\"container\"",
                "\"runner\"",
                "\"mounted\"",
                "null",
                "\"host\"",
                "true",
            ],
        ),
        (
            "containerRunning",
            &["true", "false", "null", "\"true\"", "0"],
        ),
        (
            "projectScopeRoot",
            &[
                "\"/p\"",
                "\"/home/a/p\"",
                "\"/\"",
                "\"//.\"",
                "\"p\"",
                "null",
                "\"\"",
            ],
        ),
        ("rol", &["\"owner\""]),
    ];

    const ROOTS: &[&[&str]] = &[
        &["id", "action", "context"],
        &["action", "context"],
        &["context", "action"],
        &["action"],
        &["action", "context", "action"],
        &["action", "context", "actoin"],
        &["action", "id", "context", "id"],
    ];

    proptest::proptest! {
        /// Any bytes: the word-at-a-time scan stops where a byte-at-a-time
        /// one does.
        #[test]
        fn json_plain_len_is_the_first_stop_of_any_bytes(
            s in proptest::collection::vec(
                proptest::sample::select(&[b'a', 0xc3, 0x80, 0xff, 0x7f, 0x20, 0x1f, 0, b'"', b'\\', b'#', b']'][..]),
                0..40,
            ),
        ) {
            let slow = s.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(s.len());
            proptest::prop_assert_eq!(json_plain_len(&s), slow);
        }

        /// Requests made to collide with the strict reader: the typed
        /// scanner reads each as serde's tree and the strict reader do,
        /// request or error, `id` included, or gives way.
        #[test]
        fn the_typed_scanner_reads_requests_as_the_strict_reader(
            action in fields_of(ACTION),
            context in fields_of(CONTEXT),
            id in (0..64usize).prop_map(|v| {
                pick(&["7", "\"x\"", "0", "null", "true", "{}", "[1]", "-0", "1e2", "007"], v)
            }),
            root in (0..64usize).prop_map(|v| if v < 56 { ROOTS[v % 3] } else { ROOTS[v % ROOTS.len()] }),
            ws in proptest::sample::select(&["", " ", "\n\t", " \r\n "][..]),
        ) {
            let fields: Vec<(String, String)> = root
                .iter()
                .map(|&k| {
                    let v = match k {
                        "action" | "actoin" => object_text(&action, ws),
                        "context" => object_text(&context, ws),
                        _ => id.clone(),
                    };
                    (k.to_string(), v)
                })
                .collect();
            let text = object_text(&fields, ws);
            assert_plain_scanner_agrees(&text);
            assert_plain_scanner_agrees(&format!("{text}{ws}x"));
        }

        /// Numbers: the scanner reads serde's tree or gives way, whatever
        /// the digits, signs, leading zeros, fractions and exponents.
        #[test]
        fn the_plain_scanner_reads_numbers_as_serde(
            n in "-?[0-9]{0,22}(\\.[0-9]{0,2})?([eE][+-]?[0-9]{0,3})?[ x,}]?",
        ) {
            assert_plain_scanner_agrees(&format!("{{\"id\":{n}}}"));
            assert_plain_scanner_agrees(&format!("{{\"id\":{n},\"a\":\"b\"}}"));
            assert_plain_scanner_agrees(&n);
        }
    }

    /// Typical lines (`permc serve`'s bench, an engine's) are read by the
    /// typed scanner, with no tree.
    #[test]
    fn typical_requests_are_read_without_a_tree() {
        for t in [
            r#"{"id": 0, "action": {"type": "terminal", "command": "ls -la src", "agent": "dev-web"}, "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": "/home/ana/p"}}"#,
            r#"{"action":{"type":"git_push","agent":"dev-api","targetBranch":null},"context":{"role":"maintainer","executionMode":"container","containerRunning":true}}"#,
            r#"{"id":"r-1","context":{"role":"owner"},"action":{"type":"git_commit"}}"#,
        ] {
            assert!(plain::request(t).is_some(), "{t}");
            assert_plain_scanner_agrees(t);
        }
        // The fields' checks together are the strict reader's own.
        let t = r#"{"id": 3, "action": {"type": "terminal", "command": "ls", "cwd": "src"}, "context": {"role": "developer", "projectScopeRoot": "/p"}}"#;
        let (id, r) = plain::request(t).expect("plain and typed");
        assert_eq!(id, Some(Value::from(3)));
        assert_eq!(r.expect_err("relative cwd").code, "invalid_field");
        assert_plain_scanner_agrees(t);
    }

    /// `from_parts` reads as the strict reader reads the same fields in a
    /// tree, or gives way: every combination of small pools of values,
    /// valid and not (unknown names, empty and relative paths, `/`).
    #[test]
    fn typed_parts_read_as_their_tree_reads_or_give_way() {
        fn opt<T: Copy>(v: &[T]) -> Vec<Option<T>> {
            std::iter::once(None)
                .chain(v.iter().copied().map(Some))
                .collect()
        }
        let kinds = opt(&["terminal", "git_merge", "teleport", ""]);
        let commands = opt(&["ls", ""]);
        let cwds = opt(&["", "/p/x", "rel"]);
        let agents = opt(&["a"]);
        let targets = opt(&["main"]);
        let roles = opt(&["developer", "god"]);
        let modes = opt(&["container", "runner", "x"]);
        let running = opt(&[true, false]);
        let roots = opt(&["/p", "/", "rel", "", "//"]);
        let sizes = [
            kinds.len(),
            commands.len(),
            cwds.len(),
            agents.len(),
            targets.len(),
            roles.len(),
            modes.len(),
            running.len(),
            roots.len(),
        ];
        let all: usize = sizes.iter().product();
        let mut typed = 0;
        for n in 0..all {
            // Case `n` in mixed radix: one index into each pool.
            let mut ix = [0; 9];
            let mut rest = n;
            for (i, size) in ix.iter_mut().zip(sizes) {
                *i = rest % size;
                rest /= size;
            }
            let p = Parts {
                kind: kinds[ix[0]],
                command: commands[ix[1]],
                cwd: cwds[ix[2]],
                agent: agents[ix[3]],
                target_branch: targets[ix[4]],
                path: None,
                role: roles[ix[5]],
                execution_mode: modes[ix[6]],
                container_running: running[ix[7]],
                project_scope_root: roots[ix[8]],
            };
            let Some(fast) = Request::from_parts(&p) else {
                continue;
            };
            typed += 1;
            let s = |k: &'static str, v: Option<&'static str>| {
                v.map(|v| (Cow::Borrowed(k), Node::String(v.into())))
            };
            let action = [
                s("type", p.kind),
                s("command", p.command),
                s("cwd", p.cwd),
                s("agent", p.agent),
                s("targetBranch", p.target_branch),
            ];
            let context = [
                s("role", p.role),
                s("executionMode", p.execution_mode),
                p.container_running
                    .map(|b| (Cow::Borrowed("containerRunning"), Node::Bool(b))),
                s("projectScopeRoot", p.project_scope_root),
            ];
            let tree = Node::Object(vec![
                (
                    "action".into(),
                    Node::Object(action.into_iter().flatten().collect()),
                ),
                (
                    "context".into(),
                    Node::Object(context.into_iter().flatten().collect()),
                ),
            ]);
            let (id, slow) = Request::from_node(&tree);
            assert!(id.is_none());
            assert_eq!(fast, slow, "{p:?}");
        }
        // Both ways are exercised: typed answers and errors, and giving way.
        assert!(typed > 1_000 && typed < all, "{typed} of {all}");
    }

    /// The plain scanner builds serde's tree, or gives way to serde.
    #[test]
    fn the_plain_scanner_reads_as_serde_reads_or_gives_way() {
        let same = |t: &str| {
            let fast = plain::parse(t).map(|n| format!("{n:?}"));
            let slow = serde_json::from_str::<Node>(t)
                .ok()
                .map(|n| format!("{n:?}"));
            assert!(fast.is_none() || fast == slow, "{t}: {fast:?} vs {slow:?}");
            fast.is_some()
        };
        for t in [
            r#"{"action":{"type":"terminal","command":"ls"},"context":{"role":"owner"}}"#,
            " { \"a\" : true , \"b\":null,\"c\":{}, \"d\": false }\n",
            r#"{"a":"x","a":"y"}"#,
            r#"{"é":"ü ✓"}"#,
            r#""x""#,
            "{}",
            r#"{"id":1,"a":"x"}"#,
            r#"{"id": 0 , "b": 1234567890123456789}"#,
            "7",
        ] {
            assert!(same(t), "plain: {t}");
        }
        for t in [
            r#"{"a":"x\"y"}"#,
            r#"{"a":01}"#,
            r#"{"a":-1}"#,
            r#"{"a":-0}"#,
            r#"{"a":1.5}"#,
            r#"{"a":1e3}"#,
            r#"{"a":1E3}"#,
            r#"{"a":12345678901234567890}"#,
            r#"{"a":1x}"#,
            r#"{"a":1 2}"#,
            r#"{"a":[]}"#,
            "{\"a\":\"tab\there\"}",
            r#"{"a":"x"} x"#,
            r#"{"a":"x",}"#,
            r#"{"a" "x"}"#,
            r#"{"a":tru}"#,
            r#"{"a":"x""#,
            r#"{"a":{"b":{"c":{"d":{"e":{}}}}}}"#,
            "",
            "\u{feff}{}",
        ] {
            assert!(!same(t), "not plain: {t}");
        }
    }

    fn code(text: &str) -> (&'static str, String) {
        let e = Request::from_json(text).expect_err("refused");
        (e.code, e.message)
    }

    #[test]
    fn a_typo_in_a_field_is_an_error_naming_the_path_and_the_closest_field() {
        // Read loosely, this asks nothing of the runner: the default
        // container mode would apply (and its floor approve `make build`).
        let (c, m) = code(
            r#"{"action": {"type": "terminal", "command": "make build"},
                "context": {"role": "developer", "executonMode": "runner",
                            "containerRunning": true, "projectScopeRoot": "/p"}}"#,
        );
        assert_eq!(c, "unknown_field");
        assert!(m.contains("`context.executonMode`"), "{m}");
        assert!(m.contains("did you mean `executionMode`?"), "{m}");
        let (c, m) =
            code(r#"{"action": {"type": "git_push", "zzz": 1}, "context": {"role": "owner"}}"#);
        assert_eq!(c, "unknown_field");
        assert!(
            m.contains("`action.zzz`") && m.contains("`targetBranch`"),
            "lists the fields: {m}"
        );
        let (c, m) = code(r#"{"actoin": {"type": "git_push"}, "context": {"role": "owner"}}"#);
        assert_eq!(
            (c, m.contains("did you mean `action`?")),
            ("unknown_field", true),
            "{m}"
        );
    }

    #[test]
    fn a_key_given_twice_is_an_error() {
        let (c, m) = code(
            r#"{"action": {"type": "git_push"}, "context": {"role": "owner", "role": "viewer"}}"#,
        );
        assert_eq!(c, "duplicate_key");
        assert!(m.contains("`context.role`"), "{m}");
        let (c, _) = code(
            r#"{"action": {"type": "git_push"}, "action": {"type": "git_push"}, "context": {"role": "owner"}}"#,
        );
        assert_eq!(c, "duplicate_key");
        let (c, m) = code(
            r#"{"id": {"a": 1, "a": 2}, "action": {"type": "git_push"}, "context": {"role": "owner"}}"#,
        );
        assert_eq!((c, m.contains("`id.a`")), ("duplicate_key", true), "{m}");
    }

    /// Issue 33, 4: an error quotes at most a bounded part of what it
    /// refuses (a 1 MB cwd was echoed whole).
    #[test]
    fn an_error_never_echoes_a_huge_value() {
        let cwd = format!("x{}", "é".repeat(500_000));
        let text = format!(
            r#"{{"action": {{"type": "terminal", "command": "ls", "cwd": "{cwd}"}}, "context": {{"role": "owner", "projectScopeRoot": "/p"}}}}"#
        );
        let (c, m) = code(&text);
        assert_eq!(c, "invalid_field");
        assert!(m.len() < 600 && m.ends_with("bytes in all)"), "{}", m.len());
        let key = "k".repeat(100_000);
        let (c, m) = code(&format!(r#"{{"{key}": 1}}"#));
        assert_eq!(c, "unknown_field");
        assert!(m.len() < 600, "{}", m.len());
    }

    /// Issue 33: an `id` of many keys is read in linear time (a scan of
    /// the keys before each key took 19.7 s at 100k keys; 200k keys here
    /// would take minutes in a debug build), and the key given twice is
    /// still found, with its path, nested and past the hash set's start.
    #[test]
    fn an_id_of_many_keys_reads_and_its_repeat_is_found() {
        let keys: Vec<String> = (0..200_000).map(|i| format!("\"k{i}\": 1")).collect();
        let line = |extra: &str| {
            format!(
                r#"{{"id": {{{}{extra}}}, "action": {{"type": "git_push"}}, "context": {{"role": "owner"}}}}"#,
                keys.join(", ")
            )
        };
        assert!(Request::from_json(&line("")).is_ok());
        let (c, m) = code(&line(r#", "k199999": 2"#));
        assert_eq!(
            (c, m.contains("`id.k199999`")),
            ("duplicate_key", true),
            "{m}"
        );
        let (c, m) = code(&line(r#", "x": [0, {"a": 1, "b": 1, "a": 2}]"#));
        assert_eq!(
            (c, m.contains("`id.x[1].a`")),
            ("duplicate_key", true),
            "{m}"
        );
        // The first in document order: a repeat inside an earlier value.
        let (c, m) = code(&line(r#", "x": [{"q": 1, "q": 1}], "k3": 1"#));
        assert_eq!(
            (c, m.contains("`id.x[0].q`")),
            ("duplicate_key", true),
            "{m}"
        );
    }

    #[test]
    fn a_field_of_another_action_type_is_known_and_ignored() {
        let r = Request::from_json(
            r#"{"id": 7, "action": {"type": "git_push", "targetBranch": "main", "command": null},
                "context": {"role": "owner"}}"#,
        )
        .expect("reads");
        assert_eq!(r.action.kind, ActionType::GitPush);
    }

    #[test]
    fn with_several_errors_the_first_in_document_order_is_reported() {
        let two = |a: &str, b: &str| {
            code(&format!(
                r#"{{"action": {{"type": "git_push", {a}, {b}}}, "context": {{"role": "owner"}}}}"#
            ))
            .0
        };
        assert_eq!(two(r#""agnt": "x""#, r#""cwd": 5"#), "unknown_field");
        assert_eq!(two(r#""cwd": 5"#, r#""agnt": "x""#), "invalid_field");
        assert_eq!(two(r#""cwd": "/a""#, r#""cwd": 5"#), "duplicate_key");
        // An error in `action` comes before one in a later `context`.
        let (c, _) = code(r#"{"action": {"type": "teleport"}, "context": {"rol": "owner"}}"#);
        assert_eq!(c, "unknown_type");
        let (c, _) = code(r#"{"context": {"rol": "owner"}, "action": {"type": "teleport"}}"#);
        assert_eq!(c, "unknown_field");
    }

    #[test]
    fn a_relative_cwd_is_an_invalid_field_like_a_relative_scope_root() {
        for cwd in ["x", "./src", "../p", "~/p", "src/../.."] {
            let (c, m) = code(&format!(
                r#"{{"action": {{"type": "terminal", "command": "ls", "cwd": "{cwd}"}},
                    "context": {{"role": "developer", "projectScopeRoot": "/p"}}}}"#
            ));
            assert_eq!(c, "invalid_field", "{cwd}");
            assert!(m.contains("`action.cwd`") && m.contains(cwd), "{m}");
        }
        let (c, m) = code(
            r#"{"action": {"type": "terminal", "command": "ls"},
                "context": {"role": "developer", "projectScopeRoot": "p"}}"#,
        );
        assert_eq!(c, "invalid_field");
        assert!(m.contains("`context.projectScopeRoot`"), "{m}");
        for cwd in ["/p/src", "/elsewhere", ""] {
            let text = format!(
                r#"{{"action": {{"type": "terminal", "command": "ls", "cwd": "{cwd}"}},
                    "context": {{"role": "developer", "projectScopeRoot": "/p"}}}}"#
            );
            assert!(Request::from_json(&text).is_ok(), "{cwd}");
        }
    }

    #[test]
    fn the_id_is_read_even_from_a_request_that_is_refused() {
        let (id, r) = Request::from_json_with_id(r#"{"id": "x-1", "action": {}, "context": {}}"#);
        assert_eq!(id, Some(Value::from("x-1")));
        assert_eq!(r.expect_err("refused").code, "missing_field");
    }
}

#[cfg(test)]
mod column_tests {
    /// A request's JSON error counts columns in characters, as file
    /// positions do (issue 43): the same byte, the same column.
    #[test]
    fn json_errors_count_columns_in_characters() {
        let message = |text: &str| match super::Request::from_json(text) {
            Err(e) => e.message,
            Ok(_) => String::from("read"),
        };
        let ascii = message(r#"{"action": {"type": "terminal", "command": "abc" x}}"#);
        let wide = message(r#"{"action": {"type": "terminal", "command": "日本語" x}}"#);
        assert!(ascii.ends_with("at line 1 column 50"), "{ascii}");
        assert_eq!(ascii, wide);
    }
}
