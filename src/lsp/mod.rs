//! `permc lsp`: a Language Server over stdio for permissions.json,
//! autonomy.json, `*.permc-test.toml` and permc.toml (docs/editors.md).
//!
//! - Diagnostics on open and change: for rule files the analyzer's
//!   (`permc check`'s, related places included, the project's permc.toml
//!   applied: ignored checks, severities, suppressions); for test files
//!   their mistakes and failing cases; for permc.toml its mistakes and
//!   stale suppressions. A change to any open document publishes every
//!   open document's again (a test's outcome depends on the rule files).
//! - Code actions are `permc fix`'s fixes ([`permc_analyzer::fix`]).
//! - Hover on a pattern: [`hover`].
//! - Completion offers labels and action types.
//!
//! The protocol's framing and types come from `lsp-server` and
//! `lsp-types`; documents are kept whole (full sync) in memory. The
//! project's files not open in the editor are read from disk; none is
//! written: the editor applies the edits.

mod hover;
mod project;

use crate::error::CliError;
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types as lt;
use permc_analyzer::fix::{self, Applicability};
use permc_analyzer::Kind;
use permc_grammar::diagnostic::Diagnostic;
use permc_grammar::json::Span;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A byte offset as an LSP position (line, UTF-16 column).
fn position(text: &str, offset: usize) -> lt::Position {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col: usize = before.get(start..).unwrap_or("").encode_utf16().count();
    lt::Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

/// An LSP position as a byte offset.
fn offset(text: &str, p: lt::Position) -> usize {
    let mut at = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i == p.line as usize {
            let mut units = 0;
            for (b, ch) in line.char_indices() {
                if units >= p.character as usize {
                    return at + b;
                }
                units += ch.len_utf16();
            }
            return at + line.trim_end_matches('\n').len();
        }
        at += line.len();
    }
    text.len()
}

fn range(text: &str, s: Span) -> lt::Range {
    lt::Range::new(position(text, s.start), position(text, s.end))
}

/// A URI's path, percent-decoded: the file name the analyzer is told (its
/// kind is read from it) and the key of the open documents.
fn path_of(uri: &lt::Uri) -> PathBuf {
    let raw = uri.path().as_str().as_bytes();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let hex = raw
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (raw[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    PathBuf::from(String::from_utf8_lossy(&out).into_owned())
}

fn name_of(uri: &lt::Uri) -> String {
    path_of(uri).display().to_string()
}

/// What an open document is, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DocKind {
    /// permissions.json, autonomy.json: a `.json` the analyzer knows
    /// ([`Kind::sniff`]; `package.json` is none).
    Rules,
    /// `*.permc-test.toml`.
    Test,
    /// permc.toml.
    Config,
    Other,
}

fn kind_of(path: &Path) -> DocKind {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name.ends_with(crate::testing::SUFFIX) {
        DocKind::Test
    } else if name == crate::project::CONFIG {
        DocKind::Config
    } else if name.ends_with(".json") {
        DocKind::Rules
    } else {
        DocKind::Other
    }
}

/// A finding as an LSP diagnostic (related places in the same file kept).
fn to_lsp(uri: &lt::Uri, name: &str, text: &str, d: &Diagnostic) -> lt::Diagnostic {
    let related = d
        .related
        .iter()
        .filter(|r| r.file == name)
        .map(|r| lt::DiagnosticRelatedInformation {
            location: lt::Location::new(uri.clone(), range(text, r.span)),
            message: r.message.clone(),
        })
        .collect::<Vec<_>>();
    let message = match &d.help {
        Some(h) => format!("{}\nhelp: {h}", d.message),
        None => d.message.clone(),
    };
    lt::Diagnostic {
        range: range(text, d.span),
        severity: Some(match d.severity {
            permc_grammar::Severity::Error => lt::DiagnosticSeverity::ERROR,
            permc_grammar::Severity::Warning => lt::DiagnosticSeverity::WARNING,
            _ => lt::DiagnosticSeverity::INFORMATION,
        }),
        code: Some(lt::NumberOrString::String(d.check.name().to_string())),
        source: Some("permc".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

/// A diagnostic of permc's own (not an analyzer check) over `span`; an
/// empty span shows to the end of its line.
fn plain(text: &str, span: std::ops::Range<usize>, code: &str, message: String) -> lt::Diagnostic {
    let start = span.start.min(text.len());
    let end = if span.end > start {
        span.end.min(text.len())
    } else {
        text.get(start..)
            .and_then(|t| t.find('\n'))
            .map_or(text.len(), |n| start + n)
    };
    lt::Diagnostic {
        range: range(text, Span { start, end }),
        severity: Some(lt::DiagnosticSeverity::ERROR),
        code: Some(lt::NumberOrString::String(code.into())),
        source: Some("permc".into()),
        message,
        ..Default::default()
    }
}

fn diagnostics(open: &project::Open, uri: &lt::Uri, text: &str) -> Vec<lt::Diagnostic> {
    let path = path_of(uri);
    let name = name_of(uri);
    match kind_of(&path) {
        DocKind::Rules if Kind::sniff(&name, text.as_bytes()).is_none() => Vec::new(),
        DocKind::Rules => {
            let config = project::config(open, &project::root_of(open, &path));
            project::rule_file_findings(&config, &name, text)
                .iter()
                .map(|d| to_lsp(uri, &name, text, d))
                .collect()
        }
        DocKind::Config => match crate::config::read(text) {
            Err(m) => vec![plain(
                text,
                m.span.unwrap_or(0..0),
                "invalid-config",
                m.message,
            )],
            Ok(config) => {
                let root = path.parent().unwrap_or(Path::new("/"));
                project::stale_suppressions(open, &config, root, &path)
                    .iter()
                    .map(|d| to_lsp(uri, &name, text, d))
                    .collect()
            }
        },
        DocKind::Test => match project::run_tests(open, &path, text) {
            project::TestRun::Mistake(m) => {
                let message = if m.fix.is_empty() {
                    m.what
                } else {
                    format!("{}\nhelp: {}", m.what, m.fix)
                };
                vec![plain(text, m.span, "invalid-test", message)]
            }
            project::TestRun::NoRules(why) => {
                let mut d = plain(text, 0..0, "no-rules", why);
                d.severity = Some(lt::DiagnosticSeverity::WARNING);
                vec![d]
            }
            project::TestRun::Failures(failed) => failed
                .into_iter()
                .map(|(case, why)| {
                    plain(
                        text,
                        case.span,
                        "failing-case",
                        format!("`{}` fails: {why}", case.name),
                    )
                })
                .collect(),
        },
        DocKind::Other => Vec::new(),
    }
}

/// `permc fix`'s fixes for the entries in `want`; an ignored or
/// suppressed finding is not fixed, as with `permc fix`.
fn code_actions(
    open: &project::Open,
    uri: &lt::Uri,
    text: &str,
    want: lt::Range,
) -> Vec<lt::CodeActionOrCommand> {
    let name = name_of(uri);
    if Kind::sniff(&name, text.as_bytes()) != Some(Kind::Permissions) {
        return Vec::new();
    }
    let (from, to) = (offset(text, want.start), offset(text, want.end));
    let config = project::config(open, &project::root_of(open, &path_of(uri)));
    let found = project::rule_file_findings(&config, &name, text);
    fix::fixes(&name, text.as_bytes(), &found)
        .into_iter()
        .filter(|f| f.entry.start <= to && from <= f.entry.end)
        .map(|f| {
            let edits = f
                .edits
                .iter()
                .map(|e| lt::TextEdit::new(range(text, e.span), e.text.clone()))
                .collect();
            let unsafe_ = f.applicability == Applicability::Unsafe;
            lt::CodeActionOrCommand::CodeAction(lt::CodeAction {
                title: if unsafe_ {
                    format!("{} (changes decisions)", f.title)
                } else {
                    f.title.clone()
                },
                kind: Some(lt::CodeActionKind::QUICKFIX),
                is_preferred: Some(!unsafe_),
                edit: Some(lt::WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..Default::default()
                }),
                ..Default::default()
            })
        })
        .collect()
}

/// The entry under the cursor: what it matches, examples decided by the
/// reference interpreter, the ceilings that still lower it ([`hover`]).
fn hover_at(
    open: &project::Open,
    uri: &lt::Uri,
    text: &str,
    at: lt::Position,
) -> Option<lt::Hover> {
    let name = name_of(uri);
    if Kind::sniff(&name, text.as_bytes()) != Some(Kind::Permissions) {
        return None;
    }
    let o = offset(text, at);
    let perms = permc_grammar::rules::load_permissions(&name, text.as_bytes()).value?;
    let e = perms
        .entries()
        .find(|e| e.span.start <= o && o <= e.span.end)?;
    let path = path_of(uri);
    let root = project::root_of(open, &path);
    let config = project::config(open, &root);
    let context =
        crate::config::context_of(crate::config::context_fields(&config, Some(&root))).ok()?;
    Some(lt::Hover {
        contents: lt::HoverContents::Markup(lt::MarkupContent {
            kind: lt::MarkupKind::Markdown,
            value: hover::markdown(e, &perms, &context),
        }),
        range: Some(range(text, e.span)),
    })
}

/// Labels in permissions.json, action types in autonomy.json.
fn completion(uri: &lt::Uri, text: &str) -> Vec<lt::CompletionItem> {
    let name = name_of(uri);
    let autonomy = Kind::detect(&name, text.as_bytes()) == Kind::Autonomy;
    permc_grammar::ActionType::ALL
        .iter()
        .map(|a| {
            let label = if autonomy {
                a.name().to_string()
            } else {
                format!("{}()", a.label())
            };
            lt::CompletionItem {
                label,
                kind: Some(lt::CompletionItemKind::KEYWORD),
                detail: Some(a.name().to_string()),
                ..Default::default()
            }
        })
        .collect()
}

fn params<P: serde::de::DeserializeOwned>(v: serde_json::Value) -> Result<P, CliError> {
    serde_json::from_value(v).map_err(|e| CliError::Usage(format!("lsp: bad params: {e}")))
}

/// The open documents: their text by path, and the URI the editor named
/// each by.
#[derive(Default)]
struct Docs {
    text: project::Open,
    uri: HashMap<PathBuf, lt::Uri>,
}

/// Publishes every open document's diagnostics: a change to one may change
/// another's (a rule file's a test's, permc.toml's a rule file's).
fn publish_all(c: &Connection, docs: &Docs) -> Result<(), CliError> {
    for (path, uri) in &docs.uri {
        let Some(text) = docs.text.get(path) else {
            continue;
        };
        let p = lt::PublishDiagnosticsParams::new(
            uri.clone(),
            diagnostics(&docs.text, uri, text),
            None,
        );
        send(
            c,
            Notification::new("textDocument/publishDiagnostics".into(), p).into(),
        )?;
    }
    Ok(())
}

fn send(c: &Connection, m: Message) -> Result<(), CliError> {
    c.sender
        .send(m)
        .map_err(|e| CliError::Usage(format!("lsp: cannot send: {e}")))
}

/// Runs the server until the client says `exit`.
pub fn run() -> Result<ExitCode, CliError> {
    let (c, threads) = Connection::stdio();
    let caps = lt::ServerCapabilities {
        text_document_sync: Some(lt::TextDocumentSyncCapability::Kind(
            lt::TextDocumentSyncKind::FULL,
        )),
        hover_provider: Some(lt::HoverProviderCapability::Simple(true)),
        code_action_provider: Some(lt::CodeActionProviderCapability::Simple(true)),
        completion_provider: Some(lt::CompletionOptions {
            trigger_characters: Some(vec!["\"".into()]),
            ..Default::default()
        }),
        ..Default::default()
    };
    let caps = serde_json::to_value(caps).map_err(|e| CliError::Internal(e.to_string()))?;
    c.initialize(caps)
        .map_err(|e| CliError::Usage(format!("lsp: initialize: {e}")))?;
    let mut docs = Docs::default();
    for m in &c.receiver {
        match m {
            Message::Request(r) => {
                if c.handle_shutdown(&r)
                    .map_err(|e| CliError::Usage(format!("lsp: {e}")))?
                {
                    break;
                }
                let resp = answer(&docs, r)?;
                send(&c, resp.into())?;
            }
            Message::Notification(n) => match n.method.as_str() {
                "textDocument/didOpen" => {
                    let p: lt::DidOpenTextDocumentParams = params(n.params)?;
                    let path = path_of(&p.text_document.uri);
                    docs.text.insert(path.clone(), p.text_document.text);
                    docs.uri.insert(path, p.text_document.uri);
                    publish_all(&c, &docs)?;
                }
                "textDocument/didChange" => {
                    let p: lt::DidChangeTextDocumentParams = params(n.params)?;
                    if let Some(last) = p.content_changes.into_iter().last() {
                        let path = path_of(&p.text_document.uri);
                        docs.text.insert(path.clone(), last.text);
                        docs.uri.insert(path, p.text_document.uri);
                        publish_all(&c, &docs)?;
                    }
                }
                "textDocument/didClose" => {
                    let p: lt::DidCloseTextDocumentParams = params(n.params)?;
                    let path = path_of(&p.text_document.uri);
                    docs.text.remove(&path);
                    docs.uri.remove(&path);
                    // The others may have read it: now from disk again.
                    publish_all(&c, &docs)?;
                }
                _ => {}
            },
            Message::Response(_) => {}
        }
    }
    drop(c);
    threads
        .join()
        .map_err(|e| CliError::Usage(format!("lsp: {e}")))?;
    Ok(ExitCode::SUCCESS)
}

fn answer(docs: &Docs, r: Request) -> Result<Response, CliError> {
    let value = match r.method.as_str() {
        "textDocument/hover" => {
            let p: lt::HoverParams = params(r.params)?;
            let d = &p.text_document_position_params;
            let h = docs
                .text
                .get(&path_of(&d.text_document.uri))
                .and_then(|t| hover_at(&docs.text, &d.text_document.uri, t, d.position));
            serde_json::to_value(h)
        }
        "textDocument/codeAction" => {
            let p: lt::CodeActionParams = params(r.params)?;
            let a = docs
                .text
                .get(&path_of(&p.text_document.uri))
                .map(|t| code_actions(&docs.text, &p.text_document.uri, t, p.range))
                .unwrap_or_default();
            serde_json::to_value(a)
        }
        "textDocument/completion" => {
            let p: lt::CompletionParams = params(r.params)?;
            let u = &p.text_document_position.text_document.uri;
            let items = docs
                .text
                .get(&path_of(u))
                .map(|t| completion(u, t))
                .unwrap_or_default();
            serde_json::to_value(items)
        }
        _ => {
            return Ok(Response::new_err(
                r.id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("permc lsp does not answer {}", r.method),
            ))
        }
    };
    let value = value.map_err(|e| CliError::Internal(e.to_string()))?;
    Ok(Response::new_ok(r.id, value))
}
