//! Requests (SPEC §10.1): read from JSON, strictly, failing closed.

use permc_grammar::{ActionType, Role};
use serde_json::{Map, Value};
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

/// The proposed action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// `type`.
    pub kind: ActionType,
    /// The command line (terminal).
    pub command: Option<String>,
    /// Absolute host path; `None` = the project root.
    pub cwd: Option<String>,
    /// Agent id.
    pub agent: Option<String>,
    /// `targetBranch` (git_merge).
    pub target_branch: Option<String>,
}

/// The context of a decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// The requester's role.
    pub role: Role,
    /// Default `container`.
    pub execution_mode: ExecutionMode,
    /// Default false.
    pub container_running: bool,
    /// Required for terminal actions.
    pub project_scope_root: Option<String>,
}

/// One request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The action.
    pub action: Action,
    /// The context.
    pub context: Context,
}

/// Why a request cannot be read; answered as `{"error": {...}}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestError {
    /// `invalid_json`, `invalid_request`, `missing_field`, `unknown_type`,
    /// `unknown_role`, `invalid_field`.
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
        message: message.into(),
    }
}

fn opt_string(
    obj: &Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<String>, RequestError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(err(
            "invalid_field",
            format!("`{path}.{key}` must be a string"),
        )),
    }
}

impl Request {
    /// Reads a request from JSON text.
    pub fn from_json(text: &str) -> Result<Request, RequestError> {
        let v: Value = serde_json::from_str(text).map_err(|e| {
            err(
                "invalid_json",
                format!("the request is not valid JSON: {e}"),
            )
        })?;
        Request::from_value(&v)
    }

    /// Reads a request from a JSON value.
    pub fn from_value(v: &Value) -> Result<Request, RequestError> {
        let root = v
            .as_object()
            .ok_or_else(|| err("invalid_request", "a request must be a JSON object"))?;
        let action = match root.get("action") {
            Some(Value::Object(o)) => o,
            Some(_) => return Err(err("invalid_field", "`action` must be an object")),
            None => return Err(err("missing_field", "`action` is required")),
        };
        let context = match root.get("context") {
            Some(Value::Object(o)) => o,
            Some(_) => return Err(err("invalid_field", "`context` must be an object")),
            None => return Err(err("missing_field", "`context` is required")),
        };
        let kind = match action.get("type") {
            Some(Value::String(s)) => ActionType::from_name(s)
                .ok_or_else(|| err("unknown_type", format!("unknown action type `{s}`")))?,
            Some(_) => return Err(err("invalid_field", "`action.type` must be a string")),
            None => return Err(err("missing_field", "`action.type` is required")),
        };
        let role = match context.get("role") {
            Some(Value::String(s)) => {
                Role::parse(s).ok_or_else(|| err("unknown_role", format!("unknown role `{s}`")))?
            }
            Some(_) => return Err(err("invalid_field", "`context.role` must be a string")),
            None => return Err(err("missing_field", "`context.role` is required")),
        };
        let execution_mode = match context.get("executionMode") {
            None | Some(Value::Null) => ExecutionMode::Container,
            Some(Value::String(s)) => ExecutionMode::parse(s).ok_or_else(|| {
                err(
                    "invalid_field",
                    format!("unknown executionMode `{s}` (container, mounted or runner)"),
                )
            })?,
            Some(_) => {
                return Err(err(
                    "invalid_field",
                    "`context.executionMode` must be a string",
                ))
            }
        };
        let container_running = match context.get("containerRunning") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(err(
                    "invalid_field",
                    "`context.containerRunning` must be a boolean",
                ))
            }
        };
        let project_scope_root = opt_string(context, "projectScopeRoot", "context")?;
        let command = opt_string(action, "command", "action")?;
        let cwd = opt_string(action, "cwd", "action")?;
        let agent = opt_string(action, "agent", "action")?;
        let target_branch = opt_string(action, "targetBranch", "action")?;
        if kind == ActionType::Terminal {
            if command.is_none() {
                return Err(err(
                    "missing_field",
                    "`action.command` is required for terminal actions",
                ));
            }
            match &project_scope_root {
                None => {
                    return Err(err(
                        "missing_field",
                        "`context.projectScopeRoot` is required for terminal actions",
                    ))
                }
                Some(r) if !r.starts_with('/') => {
                    return Err(err(
                        "invalid_field",
                        "`context.projectScopeRoot` must be an absolute path",
                    ))
                }
                Some(_) => {}
            }
        }
        Ok(Request {
            action: Action {
                kind,
                command,
                cwd,
                agent,
                target_branch,
            },
            context: Context {
                role,
                execution_mode,
                container_running,
                project_scope_root,
            },
        })
    }
}
