//! `permc lsp`: a Language Server over stdio for permissions.json and
//! autonomy.json (docs/editors.md). Diagnostics are the analyzer's
//! (`permc check`'s, related places included) on open and change; code
//! actions are `permc fix`'s fixes ([`permc_analyzer::fix`]); hover on a
//! pattern shows its tokens; completion offers labels and action types.
//!
//! The protocol's framing and types come from `lsp-server` and
//! `lsp-types`; documents are kept whole (full sync) in memory, and no
//! file is read or written: the editor applies the edits.

use crate::error::CliError;
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types as lt;
use permc_analyzer::fix::{self, Applicability};
use permc_analyzer::{check_file, Kind, Options};
use permc_grammar::json::Span;
use std::collections::HashMap;
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

/// The file name the analyzer is told (its kind is read from it).
fn name_of(uri: &lt::Uri) -> String {
    uri.path().as_str().to_string()
}

fn is_rule_file(name: &str) -> bool {
    name.ends_with(".json")
}

fn diagnostics(uri: &lt::Uri, text: &str) -> Vec<lt::Diagnostic> {
    let name = name_of(uri);
    if !is_rule_file(&name) {
        return Vec::new();
    }
    check_file(&name, text.as_bytes(), None, &Options::default())
        .into_iter()
        .map(|d| {
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
        })
        .collect()
}

fn code_actions(uri: &lt::Uri, text: &str, want: lt::Range) -> Vec<lt::CodeActionOrCommand> {
    let name = name_of(uri);
    if Kind::sniff(&name, text.as_bytes()) != Some(Kind::Permissions) {
        return Vec::new();
    }
    let (from, to) = (offset(text, want.start), offset(text, want.end));
    let found = check_file(&name, text.as_bytes(), None, &Options::default());
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

/// What a pattern under the cursor matches: its tokens, and whether it
/// ends in a wildcard.
fn hover(uri: &lt::Uri, text: &str, at: lt::Position) -> Option<lt::Hover> {
    let name = name_of(uri);
    if Kind::sniff(&name, text.as_bytes()) != Some(Kind::Permissions) {
        return None;
    }
    let o = offset(text, at);
    let perms = permc_grammar::rules::load_permissions(&name, text.as_bytes()).value?;
    let e = perms
        .entries()
        .find(|e| e.span.start <= o && o <= e.span.end)?;
    let mut md = format!("**`{}`** in {}\n\n", e.pattern.text, e.list.name());
    match e.pattern.tokens() {
        Some(tokens) => {
            let shown: Vec<String> = tokens
                .iter()
                .map(|t| match t {
                    permc_grammar::pattern::PatToken::Exact(x) => format!("`{x}`"),
                    permc_grammar::pattern::PatToken::Prefix(p) => {
                        format!("`{p}*` (any word starting `{p}`)")
                    }
                })
                .collect();
            let wildcard = tokens
                .iter()
                .any(|t| matches!(t, permc_grammar::pattern::PatToken::Prefix(_)));
            md.push_str(&format!(
                "tokens: {}\n\nwildcard: {}\n\nmatches a command segment whose words start with these tokens (SPEC §3.2): more words may follow",
                if shown.is_empty() { "none: every command".into() } else { shown.join(" ") },
                if wildcard { "yes" } else { "no" },
            ));
        }
        None => md.push_str(&format!(
            "every `{}` action (a typed label has no content)",
            e.pattern.action.name()
        )),
    }
    Some(lt::Hover {
        contents: lt::HoverContents::Markup(lt::MarkupContent {
            kind: lt::MarkupKind::Markdown,
            value: md,
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

fn publish(c: &Connection, uri: &lt::Uri, text: &str) -> Result<(), CliError> {
    let p = lt::PublishDiagnosticsParams::new(uri.clone(), diagnostics(uri, text), None);
    send(
        c,
        Notification::new("textDocument/publishDiagnostics".into(), p).into(),
    )
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
    // Keyed by the URI's text (`Uri` caches inside, so it is no map key).
    let mut docs: HashMap<String, String> = HashMap::new();
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
                    publish(&c, &p.text_document.uri, &p.text_document.text)?;
                    docs.insert(
                        p.text_document.uri.as_str().to_string(),
                        p.text_document.text,
                    );
                }
                "textDocument/didChange" => {
                    let p: lt::DidChangeTextDocumentParams = params(n.params)?;
                    if let Some(last) = p.content_changes.into_iter().last() {
                        publish(&c, &p.text_document.uri, &last.text)?;
                        docs.insert(p.text_document.uri.as_str().to_string(), last.text);
                    }
                }
                "textDocument/didClose" => {
                    let p: lt::DidCloseTextDocumentParams = params(n.params)?;
                    docs.remove(p.text_document.uri.as_str());
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

fn answer(docs: &HashMap<String, String>, r: Request) -> Result<Response, CliError> {
    let value = match r.method.as_str() {
        "textDocument/hover" => {
            let p: lt::HoverParams = params(r.params)?;
            let d = &p.text_document_position_params;
            let h = docs
                .get(d.text_document.uri.as_str())
                .and_then(|t| hover(&d.text_document.uri, t, d.position));
            serde_json::to_value(h)
        }
        "textDocument/codeAction" => {
            let p: lt::CodeActionParams = params(r.params)?;
            let a = docs
                .get(p.text_document.uri.as_str())
                .map(|t| code_actions(&p.text_document.uri, t, p.range))
                .unwrap_or_default();
            serde_json::to_value(a)
        }
        "textDocument/completion" => {
            let p: lt::CompletionParams = params(r.params)?;
            let u = &p.text_document_position.text_document.uri;
            let items = docs
                .get(u.as_str())
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
