//! Reading test files: `*.permc-test.toml` into cases, each a request
//! `permc decide` reads; every mistake at its `file:line:col` with the fix.

use crate::error::CliError;
use permc_core::decision::Reason;
use permc_core::request::Request;
use permc_grammar::action::closest;
use permc_grammar::Policy;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    #[serde(default)]
    context: Option<Spanned<toml::Table>>,
    #[serde(default)]
    auto_approve: Vec<Spanned<String>>,
    #[serde(default)]
    require_approval: Vec<Spanned<String>>,
    #[serde(default)]
    deny: Vec<Spanned<String>>,
    #[serde(default)]
    case: Vec<Spanned<CaseToml>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseToml {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    command: Option<Spanned<String>>,
    #[serde(default)]
    action: Option<Spanned<toml::Table>>,
    #[serde(default)]
    context: Option<Spanned<toml::Table>>,
    expect: Spanned<String>,
    #[serde(default)]
    reason: Option<Spanned<String>>,
    #[serde(default)]
    rule: Option<Spanned<String>>,
}

/// One case, read.
pub struct Case {
    /// Its name: given, else the command or the action.
    pub name: String,
    /// 1-based line and column of the case in its file.
    pub line: usize,
    /// See `line`.
    pub column: usize,
    /// `{"action": …, "context": …}`, as `permc decide` reads it.
    pub request_json: Value,
    /// The request, read.
    pub request: Request<'static>,
    /// The expected policy.
    pub expect: Policy,
    /// The expected reason, if given.
    pub reason: Option<Reason>,
    /// The expected deciding rule's text, if given.
    pub rule: Option<String>,
    /// Its bytes in the file: the shorthand's string, or the `expect`
    /// value of a `[[case]]` (where `permc lsp` shows a failure).
    pub span: std::ops::Range<usize>,
}

/// Line starts of a text, for byte offset → line:column.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// The last offset asked for, with its line and column: the cases of
    /// a shorthand list are asked for in order along one line, and each
    /// column is counted on from the one before (counted from the line's
    /// start, 200k entries on one line took 11 s).
    last: std::cell::Cell<(usize, usize, usize)>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines {
            text,
            starts,
            last: std::cell::Cell::new((0, 1, 1)),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    fn at(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let (last, last_line, last_column) = self.last.get();
        let (from, base) = if last_line == line && last >= start && last <= offset {
            (last, last_column)
        } else {
            (start, 1)
        };
        let column = self
            .text
            .get(from..offset)
            .map_or(offset - from, |s| s.chars().count())
            + base;
        if self.text.is_char_boundary(offset) {
            self.last.set((offset, line, column));
        }
        (line, column)
    }
}

/// A mistake in a test file: where (bytes), what is wrong and the fix.
/// `permc test` prints it as `file:line:col: what` (a [`CliError`]); `permc
/// lsp` shows it at its range.
#[derive(Debug)]
pub struct Mistake {
    /// Its bytes in the file (empty: a place, not a range).
    pub span: std::ops::Range<usize>,
    /// What is wrong.
    pub what: String,
    /// How to fix it (may be empty).
    pub fix: String,
}

impl Mistake {
    /// `file:line:col: what is wrong` and the fix.
    fn into_error(self, file: &str, text: &str) -> CliError {
        let (line, column) = Lines::new(text).at(self.span.start);
        let mut s = format!("{file}:{line}:{column}: {}", self.what);
        if !self.fix.is_empty() {
            s.push_str(&format!("\n  help: {}", self.fix));
        }
        CliError::Invalid(s)
    }
}

fn mistake(offset: usize, what: &str, fix: &str) -> Mistake {
    Mistake {
        span: offset..offset,
        what: what.to_string(),
        fix: fix.to_string(),
    }
}

fn toml_to_json(t: &toml::Table) -> Map<String, Value> {
    match serde_json::to_value(t) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

const FILE_KEYS: &[&str] = &[
    "context",
    "auto_approve",
    "require_approval",
    "deny",
    "case",
];
const CASE_KEYS: &[&str] = &[
    "name", "command", "action", "context", "expect", "reason", "rule",
];

/// A TOML syntax or shape error, with the fix when one is known.
fn toml_error(e: &toml::de::Error) -> Mistake {
    let offset = e.span().map_or(0, |s| s.start);
    let msg = e.message().trim_end().to_string();
    let mut fix = String::new();
    if let Some(rest) = msg.strip_prefix("unknown field `") {
        let word = rest.split('`').next().unwrap_or("");
        let known = if msg.contains("`expect`") {
            CASE_KEYS
        } else {
            FILE_KEYS
        };
        fix = match closest(word, known.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!(
                "a test file holds {}; a [[case]] holds {}",
                FILE_KEYS.join(", "),
                CASE_KEYS.join(", ")
            ),
        };
    } else if msg.starts_with("missing field `expect`") {
        fix = "say what the case must decide: expect = \"auto_approve\", \"require_approval\" or \"deny\"".into();
    }
    let mut m = mistake(offset, &msg, &fix);
    if let Some(span) = e.span() {
        m.span = span;
    }
    m
}

fn policy_of(s: &Spanned<String>) -> Result<Policy, Mistake> {
    Policy::parse(s.get_ref()).ok_or_else(|| {
        let names = ["auto_approve", "require_approval", "deny"];
        let fix = match closest(s.get_ref(), names) {
            Some(c) => format!("did you mean \"{c}\"? A policy is auto_approve, require_approval or deny (SPEC §10.2)"),
            None => "a policy is auto_approve, require_approval or deny (SPEC §10.2)".into(),
        };
        mistake(s.span().start,
            &format!("expect = \"{}\" is not a policy", s.get_ref()),
            &fix,
        )
    })
}

fn reason_of(s: &Spanned<String>) -> Result<Reason, Mistake> {
    Reason::parse(s.get_ref()).ok_or_else(|| {
        let fix = match closest(s.get_ref(), Reason::ALL.iter().map(|r| r.name())) {
            Some(c) => format!("did you mean \"{c}\"?"),
            None => format!(
                "a reason is one of SPEC §5.3's: {}",
                Reason::ALL.map(Reason::name).join(", ")
            ),
        };
        mistake(
            s.span().start,
            &format!("reason = \"{}\" is not a reason of SPEC §5.3", s.get_ref()),
            &fix,
        )
    })
}

/// What a case's request is: a name for people and the action's JSON.
fn action_name(action: &Map<String, Value>) -> String {
    let kind = action.get("type").and_then(Value::as_str).unwrap_or("?");
    let mut s = match action.get("command").and_then(Value::as_str) {
        Some(c) if kind == "terminal" => c.to_string(),
        _ => kind.to_string(),
    };
    if let Some(a) = action.get("agent").and_then(Value::as_str) {
        s.push_str(&format!(" by {a}"));
    }
    if let Some(b) = action.get("targetBranch").and_then(Value::as_str) {
        s.push_str(&format!(" into {b}"));
    }
    s
}

/// Reads a test file's text into its cases; `context` is the project's
/// default context (SPEC §10.1 fields).
pub fn parse(file: &str, text: &str, context: &Map<String, Value>) -> Result<Vec<Case>, CliError> {
    cases(text, context).map_err(|m| m.into_error(file, text))
}

/// [`parse`], its mistake as data.
pub fn cases(text: &str, context: &Map<String, Value>) -> Result<Vec<Case>, Mistake> {
    let lines = Lines::new(text);
    let raw: FileToml = toml::from_str(text).map_err(|e| toml_error(&e))?;
    let (base, file_context_at) = file_context(&raw, context)?;
    let reader = CaseReader {
        base: &base,
        file_context_at,
        lines: &lines,
    };
    let mut cases = Vec::new();
    for (policy, list) in [
        (Policy::AutoApprove, &raw.auto_approve),
        (Policy::RequireApproval, &raw.require_approval),
        (Policy::Deny, &raw.deny),
    ] {
        for c in list {
            cases.push(reader.shorthand(c, policy)?);
        }
    }
    for c in &raw.case {
        cases.push(reader.table(c)?);
    }
    cases.sort_by_key(|c| (c.line, c.column));
    Ok(cases)
}

/// The context every case of the file starts from: permc.toml's, then the
/// file's `[context]`; and where the file's table starts.
fn file_context(
    raw: &FileToml,
    context: &Map<String, Value>,
) -> Result<(Map<String, Value>, Option<usize>), Mistake> {
    let mut base = context.clone();
    let file_context_at = raw.context.as_ref().map(|c| c.span().start);
    if let Some(c) = &raw.context {
        // TOML puts every key after `[context]` in that table.
        if let Some(k) = FILE_KEYS.iter().find(|k| c.get_ref().contains_key(**k)) {
            return Err(mistake(c.span().start,
                &format!("`{k}` is inside [context]"),
                &format!("move `{k} = …` above the [context] header: TOML puts every key after a header in that table"),
            ));
        }
        base.extend(toml_to_json(c.get_ref()));
    }
    Ok((base, file_context_at))
}

/// Reads the cases of one file against its base context.
struct CaseReader<'a> {
    base: &'a Map<String, Value>,
    file_context_at: Option<usize>,
    lines: &'a Lines<'a>,
}

impl CaseReader<'_> {
    /// One case as a request, or the mistake placed where it is: in the
    /// action, or in the context (the case's, else the file's).
    fn read(
        &self,
        at: usize,
        action: Map<String, Value>,
        action_at: Option<usize>,
        ctx: Map<String, Value>,
        ctx_at: Option<usize>,
    ) -> Result<(Value, Request<'static>), Mistake> {
        let v = json!({"action": action, "context": ctx});
        let r = Request::from_value(&v).map(Request::into_owned).map_err(|e| {
            let about_context = e.code == "unknown_role" || e.message.contains("context");
            let place = if about_context {
                ctx_at.or(self.file_context_at).unwrap_or(at)
            } else {
                action_at.unwrap_or(at)
            };
            let fix = if about_context && ctx_at.is_none() {
                "the context comes from permc.toml's [context], this file's [context] and the case's `context = { … }` (SPEC §10.1 fields: role, executionMode, containerRunning, projectScopeRoot)"
            } else if !about_context {
                "a case is `command = \"…\"` (a terminal action) or `action = { type = \"…\", … }` with SPEC §10.1's action fields (type, command, cwd, agent, targetBranch)"
            } else {
                ""
            };
            mistake(place,
                &format!("this case is not a request permc can read ({}): {}", e.code, e.message),
                fix,
            )
        })?;
        Ok((v, r))
    }

    /// A command listed under `auto_approve`, `require_approval` or `deny`.
    fn shorthand(&self, c: &Spanned<String>, policy: Policy) -> Result<Case, Mistake> {
        let at = c.span().start;
        let mut action = Map::new();
        action.insert("type".into(), "terminal".into());
        action.insert("command".into(), c.get_ref().clone().into());
        let (request_json, request) = self.read(at, action, Some(at), self.base.clone(), None)?;
        let (line, column) = self.lines.at(at);
        Ok(Case {
            span: c.span(),
            name: c.get_ref().clone(),
            line,
            column,
            request_json,
            request,
            expect: policy,
            reason: None,
            rule: None,
        })
    }

    /// A `[[case]]` table.
    fn table(&self, c: &Spanned<CaseToml>) -> Result<Case, Mistake> {
        let at = c.span().start;
        let case = c.get_ref();
        let action = match (&case.command, &case.action) {
            (Some(cmd), None) => {
                let mut a = Map::new();
                a.insert("type".into(), "terminal".into());
                a.insert("command".into(), cmd.get_ref().clone().into());
                (a, cmd.span().start)
            }
            (None, Some(a)) => (toml_to_json(a.get_ref()), a.span().start),
            (Some(_), Some(a)) => {
                return Err(mistake(a.span().start,
                    "this case has both `command` and `action`",
                    "keep one: `command = \"…\"` is short for `action = { type = \"terminal\", command = \"…\" }`",
                ))
            }
            (None, None) => {
                return Err(mistake(at,
                    "this case has no request",
                    "add `command = \"…\"` (a terminal action) or `action = { type = \"…\", … }`",
                ))
            }
        };
        let mut ctx = self.base.clone();
        if let Some(o) = &case.context {
            ctx.extend(toml_to_json(o.get_ref()));
        }
        let name = case.name.clone().unwrap_or_else(|| action_name(&action.0));
        let (request_json, request) = self.read(
            at,
            action.0,
            Some(action.1),
            ctx,
            case.context.as_ref().map(|c| c.span().start),
        )?;
        let (line, column) = self.lines.at(at);
        Ok(Case {
            span: case.expect.span(),
            name,
            line,
            column,
            request_json,
            request,
            expect: policy_of(&case.expect)?,
            reason: case.reason.as_ref().map(reason_of).transpose()?,
            rule: case.rule.as_ref().map(|r| r.get_ref().clone()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("role".into(), "developer".into());
        m.insert("executionMode".into(), "runner".into());
        m.insert("projectScopeRoot".into(), "/p".into());
        m
    }

    #[test]
    fn shorthands_cases_and_contexts_read() {
        let text = "auto_approve = [\"git status\"]\ndeny = [\"curl x\"]\n\n[context]\nrole = \"maintainer\"\n\n[[case]]\naction = { type = \"git_commit\", agent = \"dev-web\" }\ncontext = { role = \"viewer\" }\nexpect = \"deny\"\nreason = \"iam.min_role\"\n";
        let cases = parse("t.permc-test.toml", text, &ctx()).expect("reads");
        assert_eq!(cases.len(), 3);
        assert_eq!((cases[0].line, cases[0].column), (1, 17));
        assert_eq!(cases[0].name, "git status");
        assert_eq!(cases[0].request.context.role.name(), "maintainer");
        assert_eq!(cases[2].name, "git_commit by dev-web");
        assert_eq!(cases[2].request.context.role.name(), "viewer");
        assert_eq!(cases[2].reason, Some(Reason::IamMinRole));
        assert_eq!(cases[2].line, 7);
    }

    /// Issue 33, 10: a shorthand list of many entries on one line reads
    /// in linear time (each column was counted from the line's start:
    /// 200k entries took 11 s), with the columns of a count from the start.
    #[test]
    fn a_long_shorthand_list_reads_with_its_columns() {
        let entries: Vec<String> = (0..100_000).map(|i| format!("\"é{i}\"")).collect();
        let text = format!("auto_approve = [{}]\n", entries.join(", "));
        let cases = parse("t.permc-test.toml", &text, &ctx()).expect("reads");
        assert_eq!(cases.len(), 100_000);
        for c in [&cases[0], &cases[7], &cases[99_999]] {
            let at = text.find(&format!("\"{}\"", c.name)).expect("in the text");
            assert_eq!((c.line, c.column), (1, text[..at].chars().count() + 1));
        }
        // Asked out of order, a place is still right.
        let lines = Lines::new("ab\ncdé f\n");
        assert_eq!(lines.at(9), (2, 6));
        assert_eq!(lines.at(4), (2, 2));
        assert_eq!(lines.at(1), (1, 2));
        assert_eq!(lines.at(9), (2, 6));
    }

    #[test]
    fn errors_name_the_place_and_the_fix() {
        let e = |t: &str| {
            parse("t.permc-test.toml", t, &ctx())
                .err()
                .expect("error")
                .to_string()
        };
        let m = e("[[case]]\ncommand = \"ls\"\nexpect = \"allow\"\n");
        assert!(
            m.starts_with("error: t.permc-test.toml:3:10: expect = \"allow\""),
            "{m}"
        );
        assert!(m.contains("help:"), "{m}");
        let m = e("[[case]]\ncomand = \"ls\"\nexpect = \"deny\"\n");
        assert!(m.starts_with("error: t.permc-test.toml:2:1:"), "{m}");
        assert!(m.contains("did you mean `command`?"), "{m}");
        let m = e("[[case]]\ncommand = \"ls\"\n");
        assert!(m.contains("missing field `expect`"), "{m}");
        let m = e("[[case]]\naction = { type = \"git_pusj\" }\nexpect = \"deny\"\n");
        assert!(m.starts_with("error: t.permc-test.toml:2:10:"), "{m}");
        let m = e("[[case]]\ncommand = \"ls\"\ncontext = { role = \"boss\" }\nexpect = \"deny\"\n");
        assert!(m.starts_with("error: t.permc-test.toml:3:11:"), "{m}");
        let m = e("[[case]]\ncommand = \"ls\"\nexpect = \"deny\"\nreason = \"file.denied\"\n");
        assert!(m.contains("did you mean \"file.deny\"?"), "{m}");
        let m = e("auto_aprove = [\"ls\"]\n");
        assert!(m.contains("did you mean `auto_approve`?"), "{m}");
        let m = e("[context]\nrole = \"viewer\"\ndeny = [\"ls\"]\n");
        assert!(m.contains("`deny` is inside [context]"), "{m}");
        let m = e("[[case]]\nexpect = \"deny\"\n");
        assert!(m.contains("no request"), "{m}");
    }
}
