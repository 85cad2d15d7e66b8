//! `permc lsp`, driven over stdio by a scripted client: initialize,
//! didOpen → publishDiagnostics (with related places), hover on a
//! pattern, codeAction (permc fix's fixes), completion, didChange,
//! shutdown and exit.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdout, Command, Stdio};

fn send(w: &mut impl Write, v: &Value) {
    let body = v.to_string();
    write!(w, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
    w.flush().expect("flush");
}

fn recv(r: &mut BufReader<ChildStdout>) -> Value {
    let mut len = 0;
    loop {
        let mut line = String::new();
        r.read_line(&mut line).expect("header");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            len = n.parse().expect("length");
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).expect("body");
    serde_json::from_slice(&body).expect("json")
}

/// The next message that answers `id`, or the next notification `method`.
fn next(r: &mut BufReader<ChildStdout>, id: Option<i64>, method: Option<&str>) -> Value {
    loop {
        let m = recv(r);
        if id.is_some() && m["id"].as_i64() == id {
            return m;
        }
        if method.is_some() && m["method"].as_str() == method {
            return m;
        }
    }
}

const TEXT: &str = "{\n  \"allow\": [\n    \"Terminal(ls)\",\n    \"Terminal(ls)\",\n    \"Terminal(pnpm test:*)\"\n  ]\n}\n";

#[test]
fn a_scripted_session() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_permc"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("permc lsp starts");
    let mut w = child.stdin.take().expect("stdin");
    let mut r = BufReader::new(child.stdout.take().expect("stdout"));
    let uri = "file:///project/permissions.json";

    send(
        &mut w,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    let init = next(&mut r, Some(1), None);
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps["hoverProvider"], true, "{init}");
    assert_eq!(caps["codeActionProvider"], true);
    send(
        &mut w,
        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );

    send(
        &mut w,
        &json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": "json", "version": 1, "text": TEXT}}}),
    );
    let diags = next(&mut r, None, Some("textDocument/publishDiagnostics"));
    let d = &diags["params"]["diagnostics"][0];
    assert_eq!(d["code"], "redundant-rule", "{diags}");
    assert_eq!(d["range"]["start"], json!({"line": 3, "character": 4}));
    assert_eq!(d["severity"], 2);
    let related = &d["relatedInformation"][0];
    assert_eq!(
        related["location"]["range"]["start"],
        json!({"line": 2, "character": 4})
    );

    send(
        &mut w,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 4, "character": 10}}}),
    );
    let hover = next(&mut r, Some(2), None);
    let md = hover["result"]["contents"]["value"]
        .as_str()
        .expect("markdown");
    assert!(md.contains("`Terminal(pnpm test:*)`"), "{md}");
    assert!(md.contains("`pnpm` `test:*`"), "{md}");
    assert!(md.contains("wildcard: yes"), "{md}");

    send(
        &mut w,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 3, "character": 6}, "end": {"line": 3, "character": 6}},
            "context": {"diagnostics": []}}}),
    );
    let actions = next(&mut r, Some(3), None);
    let a = &actions["result"][0];
    assert_eq!(a["kind"], "quickfix", "{actions}");
    assert_eq!(a["title"], "remove `Terminal(ls)` from allow");
    let edit = &a["edit"]["changes"][uri][0];
    assert_eq!(
        edit["range"],
        json!({"start": {"line": 3, "character": 4}, "end": {"line": 4, "character": 4}})
    );
    assert_eq!(edit["newText"], "");

    send(
        &mut w,
        &json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/completion", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 2, "character": 5}}}),
    );
    let items = next(&mut r, Some(4), None);
    let labels: Vec<&str> = items["result"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    assert!(labels.contains(&"Terminal()"), "{labels:?}");
    assert!(labels.contains(&"GitPush()"), "{labels:?}");

    // A change: the findings are published again, now none.
    send(
        &mut w,
        &json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": "{\"allow\": [\"Terminal(ls)\"]}\n"}]}}),
    );
    let diags = next(&mut r, None, Some("textDocument/publishDiagnostics"));
    assert_eq!(diags["params"]["diagnostics"], json!([]), "{diags}");

    send(
        &mut w,
        &json!({"jsonrpc": "2.0", "id": 5, "method": "shutdown", "params": null}),
    );
    let down = next(&mut r, Some(5), None);
    assert_eq!(down["result"], Value::Null, "{down}");
    send(&mut w, &json!({"jsonrpc": "2.0", "method": "exit"}));
    drop(w);
    let status = child.wait().expect("exits");
    assert!(status.success(), "{status:?}");
}
