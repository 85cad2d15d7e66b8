//! `permc lsp`, driven over stdio by a scripted client: initialize,
//! didOpen → publishDiagnostics (with related places), hover on a
//! pattern (tokens, examples decided by the engine, ceilings), codeAction
//! (permc fix's fixes), completion, didChange, shutdown and exit; and on a
//! project on disk: permc.toml's suppressions honoured, its mistakes, a
//! test file's mistakes and failing cases.

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
    let mut c = Client::spawn();
    let uri = "file:///project/permissions.json";
    initialize_announces_hover_and_code_actions(&mut c);
    opening_publishes_the_repeated_entry_with_its_first_place(&mut c, uri);
    hover_shows_tokens_examples_and_ceilings(&mut c, uri);
    a_code_action_removes_the_repeated_entry(&mut c, uri);
    completion_offers_rule_kinds(&mut c, uri);
    a_change_publishes_the_findings_again(&mut c, uri);
    send(
        &mut c.w,
        &json!({"jsonrpc": "2.0", "id": 5, "method": "shutdown", "params": null}),
    );
    let down = next(&mut c.r, Some(5), None);
    assert_eq!(down["result"], Value::Null, "{down}");
    send(&mut c.w, &json!({"jsonrpc": "2.0", "method": "exit"}));
    drop(c.w);
    let status = c.child.wait().expect("exits");
    assert!(status.success(), "{status:?}");
}

/// initialize answers with the hover and code-action capabilities.
fn initialize_announces_hover_and_code_actions(c: &mut Client) {
    send(
        &mut c.w,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    let init = next(&mut c.r, Some(1), None);
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps["hoverProvider"], true, "{init}");
    assert_eq!(caps["codeActionProvider"], true);
    send(
        &mut c.w,
        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
}

/// didOpen publishes the repeated `Terminal(ls)` as a warning, related to
/// the entry it repeats.
fn opening_publishes_the_repeated_entry_with_its_first_place(c: &mut Client, uri: &str) {
    send(
        &mut c.w,
        &json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": "json", "version": 1, "text": TEXT}}}),
    );
    let diags = next(&mut c.r, None, Some("textDocument/publishDiagnostics"));
    let d = &diags["params"]["diagnostics"][0];
    assert_eq!(d["code"], "redundant-rule", "{diags}");
    assert_eq!(d["range"]["start"], json!({"line": 3, "character": 4}));
    assert_eq!(d["severity"], 2);
    let related = &d["relatedInformation"][0];
    assert_eq!(
        related["location"]["range"]["start"],
        json!({"line": 2, "character": 4})
    );
}

/// A hover on a pattern: its tokens, commands it allows and one it does
/// not, the ceilings that still lower it.
fn hover_shows_tokens_examples_and_ceilings(c: &mut Client, uri: &str) {
    send(
        &mut c.w,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 4, "character": 10}}}),
    );
    let hover = next(&mut c.r, Some(2), None);
    let md = hover["result"]["contents"]["value"]
        .as_str()
        .expect("markdown");
    assert!(md.contains("`Terminal(pnpm test:*)`"), "{md}");
    assert!(md.contains("`pnpm` `test:*`"), "{md}");
    assert!(md.contains("wildcard: yes"), "{md}");
    // Two commands it allows, one it does not (SPEC §3.2's own example),
    // the ceilings that still lower it.
    assert!(
        md.contains("allows, e.g.:\n- `pnpm test:unit`\n- `pnpm test:x`\n"),
        "{md}"
    );
    assert!(
        md.contains("does not allow: `pnpm test` (require_approval, default)"),
        "{md}"
    );
    assert!(
        md.contains("- `ceiling.scope`: `pnpm test:unit /etc/passwd`"),
        "{md}"
    );
    assert!(
        md.contains("- `ceiling.protected_path`: `pnpm test:unit permissions.json`"),
        "{md}"
    );
}

/// codeAction on the repeated entry: permc fix's quick fix removes it.
fn a_code_action_removes_the_repeated_entry(c: &mut Client, uri: &str) {
    send(
        &mut c.w,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 3, "character": 6}, "end": {"line": 3, "character": 6}},
            "context": {"diagnostics": []}}}),
    );
    let actions = next(&mut c.r, Some(3), None);
    let a = &actions["result"][0];
    assert_eq!(a["kind"], "quickfix", "{actions}");
    assert_eq!(a["title"], "remove `Terminal(ls)` from allow");
    let edit = &a["edit"]["changes"][uri][0];
    assert_eq!(
        edit["range"],
        json!({"start": {"line": 3, "character": 4}, "end": {"line": 4, "character": 4}})
    );
    assert_eq!(edit["newText"], "");
}

/// completion inside the allow list offers the rule kinds.
fn completion_offers_rule_kinds(c: &mut Client, uri: &str) {
    send(
        &mut c.w,
        &json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/completion", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 2, "character": 5}}}),
    );
    let items = next(&mut c.r, Some(4), None);
    let labels: Vec<&str> = items["result"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    assert!(labels.contains(&"Terminal()"), "{labels:?}");
    assert!(labels.contains(&"GitPush()"), "{labels:?}");
}

/// A change: the findings are published again, now none.
fn a_change_publishes_the_findings_again(c: &mut Client, uri: &str) {
    send(
        &mut c.w,
        &json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": "{\"allow\": [\"Terminal(ls)\"]}\n"}]}}),
    );
    let diags = next(&mut c.r, None, Some("textDocument/publishDiagnostics"));
    assert_eq!(diags["params"]["diagnostics"], json!([]), "{diags}");
}

/// A client over a running `permc lsp`.
struct Client {
    child: std::process::Child,
    w: std::process::ChildStdin,
    r: BufReader<ChildStdout>,
    id: i64,
}

impl Client {
    /// `permc lsp` started, not yet initialized.
    fn spawn() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_permc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("permc lsp starts");
        let w = child.stdin.take().expect("stdin");
        let r = BufReader::new(child.stdout.take().expect("stdout"));
        Client { child, w, r, id: 0 }
    }

    fn start() -> Client {
        let mut c = Client::spawn();
        c.request("initialize", json!({"capabilities": {}}));
        send(
            &mut c.w,
            &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        );
        c
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.id += 1;
        send(
            &mut self.w,
            &json!({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}),
        );
        next(&mut self.r, Some(self.id), None)
    }

    fn notify(&mut self, method: &str, params: Value) {
        send(
            &mut self.w,
            &json!({"jsonrpc": "2.0", "method": method, "params": params}),
        );
    }

    /// One publication for each of the `open` documents (every change
    /// publishes them all), by URI.
    fn published(&mut self, open: usize) -> std::collections::HashMap<String, Value> {
        let mut by_uri = std::collections::HashMap::new();
        while by_uri.len() < open {
            let m = next(&mut self.r, None, Some("textDocument/publishDiagnostics"));
            let uri = m["params"]["uri"].as_str().expect("uri").to_string();
            by_uri.insert(uri, m["params"]["diagnostics"].clone());
        }
        by_uri
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]}),
        );
    }

    fn hover(&mut self, uri: &str, line: u32, character: u32) -> String {
        let h = self.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        );
        h["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("markdown: {h}"))
            .to_string()
    }

    fn stop(mut self) {
        let down = self.request("shutdown", Value::Null);
        assert_eq!(down["result"], Value::Null, "{down}");
        self.notify("exit", Value::Null);
        drop(self.w);
        let status = self.child.wait().expect("exits");
        assert!(status.success(), "{status:?}");
    }
}

/// Issue 32 pt 1: each hover's examples are decided by the reference
/// interpreter over the entry alone: the commands shown are really
/// allowed, denied or not, and each ceiling named really lowers one.
#[test]
fn hover_shows_examples_and_the_ceilings_that_lower_an_entry() {
    let mut c = Client::start();
    let uri = "file:///nowhere/permissions.json";
    let text = r#"{
  "allow": [
    "Terminal(git)",
    "Terminal(rm)",
    "Terminal(sudo)",
    "GitPush()",
    "Terminal(git *)",
    "Terminal(git branch -v)"
  ],
  "deny": ["Terminal(curl)"],
  "ask": ["Terminal(npm publish)"]
}
"#;
    c.open(uri, text);
    c.published(1);
    // (line, column, what the hover must say)
    let cases: &[(u32, u32, &[&str])] = &[
        (
            2,
            8,
            &[
                "tokens: `git`",
                "wildcard: no",
                "allows, e.g.:\n- `git`\n- `git --help`\n",
                // A mutating continuation the entry does not name (SPEC
                // §3.2, §6.5).
                "does not allow: `git branch -d x` (require_approval, default)",
                "- `ceiling.external_effect`: `git push`: `git push` has an effect outside the machine, so a person approves it\n",
            ],
        ),
        (
            3,
            8,
            &[
                "- `ceiling.scope`: `rm /etc/passwd`",
                "- `ceiling.protected_path`: `rm permissions.json`",
                "does not allow: `rmx`",
            ],
        ),
        (
            4,
            8,
            &[
                "- `ceiling.privileged`: `sudo`: ",
                "allows: no example found",
            ],
        ),
        (
            5,
            8,
            &[
                "matches every `git_push` action",
                "minimum role: maintainer",
                "- `ceiling.typed_external`: `git_push`",
                "does not match the terminal command `git push`",
            ],
        ),
        // A lone `*` is a literal word, not a wildcard (SPEC §3.2).
        (
            6,
            8,
            &["wildcard: no", "is a literal character", "- `git '*'`"],
        ),
        // Allowed by this entry alone; in the file `Terminal(git)` decides
        // it first, and the hover says so.
        (
            7,
            8,
            &[
                "- `git branch -v` (in this file: auto_approve by `Terminal(git)`, `file.allow`)\n",
                "does not allow: `git branch -v -d x`",
            ],
        ),
        (
            9,
            14,
            &[
                "denies, e.g.:\n- `curl`\n",
                "does not deny: `curlx`",
                "a deny is final",
            ],
        ),
        (
            10,
            14,
            &[
                "asks for, e.g.:\n- `npm publish`\n",
                "does not ask for: `npm`",
            ],
        ),
    ];
    for (line, column, wants) in cases {
        let md = c.hover(uri, *line, *column);
        for want in *wants {
            assert!(md.contains(want), "line {line}: {want:?} in\n{md}");
        }
    }
    c.stop();
}

/// SPEC §4.5 item 2: the hover on an entry of a described program names
/// the version described and the word its row cannot place.
#[test]
fn hover_names_the_described_version_and_an_unplaced_word() {
    let mut c = Client::start();
    let uri = "file:///nowhere/permissions.json";
    let text = "{\n  \"allow\": [\n    \"Terminal(sort)\",\n    \"Terminal(cat)\"\n  ]\n}\n";
    c.open(uri, text);
    c.published(1);
    let md = c.hover(uri, 2, 8);
    for want in [
        "`sort` is described completely (GNU coreutils 9.1, SPEC §4.5)",
        "`unknown.word` in every mode",
        "`--frob` is not an option permc knows for `sort` (GNU coreutils 9.1)",
    ] {
        assert!(md.contains(want), "{want:?} in\n{md}");
    }
    let md = c.hover(uri, 3, 8);
    assert!(
        md.contains("`cat` is described completely (GNU coreutils 9.1, SPEC §4.5): a word its row cannot place is not covered (`cat --frob x`)"),
        "{md}"
    );
    assert!(!md.contains("unknown.word"), "{md}");
    c.stop();
}

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("permc-lsp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

fn range_of(d: &Value) -> (Value, Value) {
    (d["range"]["start"].clone(), d["range"]["end"].clone())
}

/// Issue 32 pt 2: on a project on disk, the server honours permc.toml's
/// suppressions as `permc check` does, reports permc.toml's own mistakes
/// at the word they are about, and a test file's mistakes and failing
/// cases at their place; an unsaved change to one file counts for the
/// others.
#[test]
fn config_and_test_files_have_diagnostics_and_suppressions_hold() {
    let d = scratch("project");
    let rules = "{\"allow\": [\"Terminal(ls)\", \"Terminal(ls)\"]}\n";
    let config = "[[check.allow]]\ncheck = \"redundant-rule\"\nentry = \"Terminal(ls)\"\nreason = \"kept twice on purpose\"\n";
    std::fs::write(d.join("permissions.json"), rules).expect("write");
    std::fs::write(d.join("permc.toml"), config).expect("write");
    let uri = |f: &str| format!("file://{}/{f}", d.display());
    let (p, t, cfg) = (
        uri("permissions.json"),
        uri("ls.permc-test.toml"),
        uri("permc.toml"),
    );
    let mut c = Client::start();

    // permc.toml on disk suppresses the duplicate: nothing to show.
    c.open(&p, rules);
    let got = c.published(1);
    assert_eq!(got[&p], json!([]), "{got:?}");

    // A test file: one case passes, one fails, at its string.
    let test = "auto_approve = [\"ls -la\", \"curl x\"]\n";
    c.open(&t, test);
    let got = c.published(2);
    let fails = got[&t].as_array().expect("list");
    assert_eq!(fails.len(), 1, "{got:?}");
    assert_eq!(fails[0]["code"], "failing-case");
    assert_eq!(fails[0]["severity"], 1);
    assert_eq!(
        range_of(&fails[0]),
        (
            json!({"line": 0, "character": 26}),
            json!({"line": 0, "character": 34})
        )
    );
    let msg = fails[0]["message"].as_str().expect("message");
    assert!(
        msg.starts_with("`curl x` fails: expected auto_approve, got require_approval"),
        "{msg}"
    );

    // A mistake in the test file, at its value, with the fix.
    c.change(&t, "[[case]]\ncommand = \"ls\"\nexpect = \"auto_aprove\"\n");
    let got = c.published(2);
    let m = &got[&t][0];
    assert_eq!(m["code"], "invalid-test", "{got:?}");
    assert_eq!(m["range"]["start"], json!({"line": 2, "character": 9}));
    let msg = m["message"].as_str().expect("message");
    assert!(msg.contains("did you mean \"auto_approve\"?"), "{msg}");

    // permc.toml opened with a typo: its error at the word, and the rule
    // file's suppression no longer holds (the config does not read).
    let typo = config.replace("redundant-rule", "redundant-rul");
    c.open(&cfg, &typo);
    let got = c.published(3);
    let e = &got[&cfg][0];
    assert_eq!(e["code"], "invalid-config", "{got:?}");
    assert_eq!(
        range_of(e),
        (
            json!({"line": 1, "character": 8}),
            json!({"line": 1, "character": 23})
        )
    );
    assert!(
        e["message"]
            .as_str()
            .expect("message")
            .contains("did you mean `redundant-rule`?"),
        "{e}"
    );
    assert_eq!(got[&p][0]["code"], "redundant-rule", "{got:?}");

    // Fixed again; then the duplicate is removed: the suppression is stale.
    c.change(&cfg, config);
    let got = c.published(3);
    assert_eq!(got[&p], json!([]), "{got:?}");
    assert_eq!(got[&cfg], json!([]), "{got:?}");
    c.change(&p, "{\"allow\": [\"Terminal(ls)\"]}\n");
    let got = c.published(3);
    let stale = &got[&cfg][0];
    assert_eq!(stale["code"], "stale-suppression", "{got:?}");
    assert_eq!(stale["range"]["start"], json!({"line": 2, "character": 8}));
    c.stop();
    let _ = std::fs::remove_dir_all(&d);
}
