//! `permc serve` (docs/serve.md): the protocol (ids, errors,
//! order, end of input), hot reload (edit, atomic rename, broken edit, a
//! deleted file), robustness (1 MB lines, invalid UTF-8, over-long lines,
//! a client that stops reading, SIGTERM) and the Node client.
//!
//! No assertion here is about time: waits are for events, with a generous
//! limit only so that a bug fails the test instead of hanging it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_permc");
const ROOT: &str = "/home/ana/projetos/loja-1a2b3c4d";
/// Only a hang guard: a reload lands in well under a second.
const PATIENCE: Duration = Duration::from_secs(60);

fn terminal(id: impl Into<Value>, command: &str) -> String {
    json!({
        "id": id.into(),
        "action": {"type": "terminal", "command": command},
        "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": ROOT},
    })
    .to_string()
}

/// A scratch folder, removed at the end of the test.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("permc-serve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        Scratch(dir)
    }
    fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).expect("write scratch file");
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Replaces a file by writing a temporary one and renaming it over (what
/// editors and `permc always --write` do).
fn atomic_write(path: &Path, text: &str) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).expect("write temp");
    std::fs::rename(&tmp, path).expect("rename");
}

/// A running `permc serve` with its pipes; stderr events arrive on a channel.
struct Serve {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    events: Receiver<Value>,
}

impl Serve {
    fn start(args: &[&str]) -> Serve {
        let mut child = Command::new(BIN)
            .arg("serve")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start permc serve");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let (tx, events) = channel();
        std::thread::spawn(move || {
            for line in stderr.lines() {
                let Ok(line) = line else { break };
                let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("a stderr line of permc serve is not JSON ({e}): {line}")
                });
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let s = Serve {
            child,
            stdin,
            stdout,
            events,
        };
        let ready = s.event();
        assert_eq!(ready["event"], "ready", "{ready}");
        s
    }

    fn send(&mut self, line: &str) {
        let w = self.stdin.as_mut().expect("stdin open");
        w.write_all(line.as_bytes()).expect("write request");
        w.write_all(b"\n").expect("write newline");
        w.flush().expect("flush");
    }

    fn answer(&mut self) -> Value {
        let mut line = String::new();
        let n = self.stdout.read_line(&mut line).expect("read answer");
        assert!(n > 0, "permc serve ended its output early");
        serde_json::from_str(&line).expect("an answer is JSON")
    }

    /// Sends one request and waits for its answer: an interactive client,
    /// which only works if permc flushes each answer.
    fn ask(&mut self, line: &str) -> Value {
        self.send(line);
        self.answer()
    }

    fn event(&self) -> Value {
        self.events
            .recv_timeout(PATIENCE)
            .expect("permc serve reported no event")
    }

    /// Closes stdin and returns the remaining answers and the exit code.
    fn finish(mut self) -> (Vec<Value>, Option<i32>) {
        drop(self.stdin.take());
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).expect("read rest");
        let answers = rest
            .lines()
            .map(|l| serde_json::from_str(l).expect("an answer is JSON"))
            .collect();
        let status = self.child.wait().expect("wait");
        (answers, status.code())
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn answers_in_order_echoing_ids_and_errors_do_not_stop_the_stream() {
    let dir = Scratch::new("ids");
    let p = dir.file(
        "permissions.json",
        r#"{"allow": ["Terminal(ls)"], "deny": ["Terminal(curl)"]}"#,
    );
    let serve = Serve::start(&["--permissions", p.to_str().expect("utf-8 path")]);
    let mut input = Vec::new();
    input.extend(terminal(1, "ls -la").bytes());
    input.extend(b"\n\n   \n"); // blank lines: no request, no answer
    input.extend(terminal("two", "curl x").bytes());
    input.extend(b"\n");
    input.extend(terminal(json!({"trace": [1, 2]}), "pnpm build").bytes());
    input.extend(b"\nnot json\n");
    input.extend(
        b"{\"id\": 5, \"action\": {\"type\": \"terminal\", \"command\": \"ls \xff\xfe\"}}\n",
    );
    input.extend(br#"{"id": 6, "action": {"type": "teleport"}, "context": {"role": "developer"}}"#);
    input.extend(b"\n[1, 2]\n");
    input.extend(br#"{"action": {"type": "git_commit"}, "context": {"role": "developer"}}"#);
    input.extend(b"\r\n");
    input.extend(terminal(Value::Null, "ls").bytes()); // last line without a newline
    let mut serve = serve;
    serve
        .stdin
        .as_mut()
        .expect("stdin")
        .write_all(&input)
        .expect("write");
    let (answers, code) = serve.finish();
    assert_eq!(code, Some(0));
    let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(
        ids,
        [
            &json!(1),
            &json!("two"),
            &json!({"trace": [1, 2]}),
            &Value::Null, // not JSON: no id to echo
            &Value::Null, // not UTF-8: no id to echo
            &json!(6),
            &Value::Null, // not an object
            &Value::Null, // no id given
            &Value::Null, // id given as null, echoed as null
        ]
    );
    assert!(answers[8].as_object().expect("object").contains_key("id"));
    assert!(!answers[7].as_object().expect("object").contains_key("id"));
    assert_eq!(answers[0]["reason"], "file.allow");
    assert_eq!(answers[1]["policy"], "deny");
    assert_eq!(answers[2]["reason"], "default");
    assert_eq!(answers[3]["error"]["code"], "invalid_json");
    assert_eq!(answers[4]["error"]["code"], "invalid_json");
    assert_eq!(answers[5]["error"]["code"], "unknown_type");
    assert_eq!(answers[6]["error"]["code"], "invalid_request");
    assert_eq!(answers[7]["policy"], "require_approval");
    assert_eq!(answers[8]["rule"], "Terminal(ls)");
    for a in &answers[3..7] {
        assert!(
            a.get("policy").is_none(),
            "an error is never a decision: {a}"
        );
    }
}

#[test]
fn a_megabyte_line_is_decided_and_an_overlong_one_is_an_error() {
    let dir = Scratch::new("long");
    let a = dir.file("autonomy.json", r#"{"dev-api": {"*": "auto_approve"}}"#);
    let mut serve = Serve::start(&[
        "--autonomy",
        a.to_str().expect("utf-8 path"),
        "--max-line-bytes",
        "2000000",
    ]);
    // 1 MB of command in automatic mode: unparsed (over 256 KiB, SPEC §4.2),
    // so never auto-approved.
    let long = format!("echo {}", "a".repeat(1 << 20));
    let req = json!({
        "id": "big",
        "action": {"type": "terminal", "command": long, "agent": "dev-api"},
        "context": {"role": "developer", "executionMode": "container", "containerRunning": true,
                    "projectScopeRoot": ROOT},
    })
    .to_string();
    assert!(req.len() > 1 << 20);
    let d = serve.ask(&req);
    assert_eq!(d["id"], "big");
    assert_eq!(d["reason"], "ceiling.unparsed", "{}", d["message"]);
    // A line over --max-line-bytes: an error, skipped without being kept,
    // and the next line is read as usual.
    serve.send(&format!(
        "{{\"id\": 1, \"pad\": \"{}\"}}",
        "x".repeat(3_000_000)
    ));
    let e = serve.answer();
    assert_eq!(e["error"]["code"], "line_too_long");
    // The limit says how to get past it (issue 43).
    let m = e["error"]["message"].as_str().unwrap_or("");
    assert!(m.contains("--max-line-bytes"), "{m}");
    let d = serve.ask(&terminal(2, "ls"));
    assert_eq!(d["id"], 2);
    assert_eq!(serve.finish().1, Some(0));
}

fn expect_event(serve: &Serve, name: &str) -> Value {
    let e = serve.event();
    assert_eq!(e["event"], name, "{e}");
    e
}

#[test]
fn reload_after_an_edit_in_place() {
    let dir = Scratch::new("edit");
    let p = dir.file("permissions.json", r#"{"deny": ["Terminal(curl)"]}"#);
    let mut serve = Serve::start(&["--permissions", p.to_str().expect("utf-8 path")]);
    assert_eq!(serve.ask(&terminal(1, "curl x"))["policy"], "deny");
    let written = Instant::now();
    std::fs::write(&p, r#"{"allow": ["Terminal(curl)"]}"#).expect("edit");
    let e = expect_event(&serve, "reloaded");
    eprintln!("reloaded {:?} after the edit", written.elapsed());
    assert_eq!(e["generation"], 2);
    let d = serve.ask(&terminal(2, "curl x"));
    assert_eq!(
        (d["policy"].as_str(), d["rule"].as_str()),
        (Some("auto_approve"), Some("Terminal(curl)"))
    );
    // Touching the file without changing it reloads nothing.
    std::fs::write(&p, r#"{"allow": ["Terminal(curl)"]}"#).expect("rewrite");
    std::fs::write(
        &p,
        r#"{"allow": ["Terminal(curl)"], "ask": ["Terminal(ls)"]}"#,
    )
    .expect("edit");
    assert_eq!(expect_event(&serve, "reloaded")["generation"], 3);
    assert_eq!(serve.ask(&terminal(3, "ls"))["reason"], "file.ask");
    assert_eq!(serve.finish().1, Some(0));
}

#[test]
fn reload_after_an_atomic_rename_of_either_file() {
    let dir = Scratch::new("rename");
    let p = dir.file("permissions.json", r#"{"allow": ["Terminal(ls)"]}"#);
    let a = dir.file("autonomy.json", r#"{}"#);
    let mut serve = Serve::start(&[
        "--permissions",
        p.to_str().expect("utf-8 path"),
        "--autonomy",
        a.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(serve.ask(&terminal(1, "ls"))["reason"], "file.allow");
    atomic_write(&p, r#"{"deny": ["Terminal(ls)"]}"#);
    assert_eq!(expect_event(&serve, "reloaded")["generation"], 2);
    assert_eq!(serve.ask(&terminal(2, "ls"))["reason"], "file.deny");
    atomic_write(&a, r#"{"dev-web": {"git_commit": "deny"}}"#);
    assert_eq!(expect_event(&serve, "reloaded")["generation"], 3);
    let commit = json!({"id": 3, "action": {"type": "git_commit", "agent": "dev-web"},
                        "context": {"role": "developer"}});
    assert_eq!(serve.ask(&commit.to_string())["reason"], "autonomy.deny");
    assert_eq!(serve.finish().1, Some(0));
}

#[test]
fn a_broken_edit_keeps_the_last_good_policy_and_says_why() {
    let dir = Scratch::new("broken");
    let p = dir.file("permissions.json", r#"{"allow": ["Terminal(ls)"]}"#);
    let mut serve = Serve::start(&["--permissions", p.to_str().expect("utf-8 path")]);
    // An unknown label on line 3: the whole file is rejected (SPEC §2.1),
    // not just the bad entry.
    atomic_write(
        &p,
        "{\"allow\": [\n  \"Terminal(ls)\",\n  \"Termnal(cat)\"\n], \"deny\": [\"Terminal(rm)\"]}",
    );
    let e = expect_event(&serve, "reload_failed");
    assert_eq!(e["generation"], 1, "{e}");
    let diag = &e["diagnostics"][0];
    assert_eq!(diag["check"], "unknown-label", "{e}");
    assert_eq!(diag["severity"], "error");
    assert_eq!(
        (diag["line"].as_u64(), diag["column"].as_u64()),
        (Some(3), Some(4)),
        "{e}"
    );
    assert!(diag["file"]
        .as_str()
        .is_some_and(|f| f.ends_with("permissions.json")));
    // The last good policy is in force, whole: ls allowed, rm not denied.
    assert_eq!(serve.ask(&terminal(1, "ls"))["reason"], "file.allow");
    assert_eq!(serve.ask(&terminal(2, "rm x"))["reason"], "default");
    // Not JSON at all; then the file deleted: each reported, nothing swapped.
    std::fs::write(&p, "{\"allow\": [").expect("edit");
    assert_eq!(
        expect_event(&serve, "reload_failed")["diagnostics"][0]["check"],
        "invalid-json"
    );
    std::fs::remove_file(&p).expect("delete");
    let e = expect_event(&serve, "reload_failed");
    assert_eq!(e["diagnostics"][0]["check"], "unreadable-file", "{e}");
    assert_eq!(serve.ask(&terminal(3, "ls"))["reason"], "file.allow");
    // Fixed: swapped in.
    atomic_write(&p, r#"{"allow": ["Terminal(rm)"]}"#);
    assert_eq!(expect_event(&serve, "reloaded")["generation"], 2);
    assert_eq!(serve.ask(&terminal(4, "rm x"))["reason"], "file.allow");
    assert_eq!(serve.finish().1, Some(0));
}

/// permc.toml's `[[command]]` rows are part of the policy: found beside
/// the rule files, watched with them, an edit reloads them, a broken edit
/// keeps the last good rows.
#[test]
fn an_edit_of_permc_toml_reloads_its_rows() {
    let dir = Scratch::new("rows");
    let p = dir.file(
        "permissions.json",
        r#"{"allow": ["Terminal(./deploy.sh)"]}"#,
    );
    let config = dir.file("permc.toml", "# no rows yet\n");
    let mut serve = Serve::start(&["--permissions", p.to_str().expect("utf-8 path")]);
    assert_eq!(
        serve.ask(&terminal(1, "./deploy.sh prod"))["policy"],
        "auto_approve"
    );
    atomic_write(
        &config,
        "[[command]]\nname = \"./deploy.sh\"\neffects = [\"code\"]\n",
    );
    assert_eq!(expect_event(&serve, "reloaded")["generation"], 2);
    let d = serve.ask(&terminal(2, "./deploy.sh prod"));
    assert_eq!(
        (d["policy"].as_str(), d["reason"].as_str()),
        (Some("require_approval"), Some("ceiling.unparsed")),
        "{d}"
    );
    // A row in error: reported, the last good rows stay in force.
    atomic_write(
        &config,
        "[[command]]\nname = \"./deploy.sh\"\neffects = [\"codee\"]\n",
    );
    let e = expect_event(&serve, "reload_failed");
    assert_eq!(e["diagnostics"][0]["check"], "invalid-command", "{e}");
    assert_eq!(
        serve.ask(&terminal(3, "./deploy.sh prod"))["policy"],
        "require_approval"
    );
    assert_eq!(serve.finish().1, Some(0));
}

/// A permc.toml created beside the rule files after serve started is read
/// as an edit is; deleted again, its rows go with it (no file, no rows, as
/// at start).
#[test]
fn a_permc_toml_created_after_start_is_read() {
    let dir = Scratch::new("rows-later");
    let p = dir.file(
        "permissions.json",
        r#"{"allow": ["Terminal(./deploy.sh)"]}"#,
    );
    let mut serve = Serve::start(&["--permissions", p.to_str().expect("utf-8 path")]);
    assert_eq!(
        serve.ask(&terminal(1, "./deploy.sh prod"))["policy"],
        "auto_approve"
    );
    let config = dir.0.join("permc.toml");
    atomic_write(
        &config,
        "[[command]]\nname = \"./deploy.sh\"\neffects = [\"external\"]\n",
    );
    assert_eq!(expect_event(&serve, "reloaded")["generation"], 2);
    let d = serve.ask(&terminal(2, "./deploy.sh prod"));
    assert_eq!(
        (d["policy"].as_str(), d["reason"].as_str()),
        (Some("require_approval"), Some("ceiling.external_effect")),
        "{d}"
    );
    std::fs::remove_file(&config).expect("delete");
    assert_eq!(expect_event(&serve, "reloaded")["generation"], 3);
    assert_eq!(
        serve.ask(&terminal(3, "./deploy.sh prod"))["policy"],
        "auto_approve"
    );
    assert_eq!(serve.finish().1, Some(0));
}

/// Issue 33, 6: a FIFO renamed in for permissions.json, then a symlink to
/// `/dev/zero`, each blocked the watcher for good (no event, and the valid
/// file renamed in afterwards was never loaded). Each is now a
/// `reload_failed` naming what the path is, the last good policy stays in
/// force, and the watcher goes on.
#[test]
fn a_fifo_or_a_device_swapped_in_fails_the_reload_and_watching_goes_on() {
    let dir = Scratch::new("fifo");
    let p = dir.file("permissions.json", r#"{"deny": ["Terminal(curl)"]}"#);
    let mut serve = Serve::start(&["--permissions", p.to_str().expect("utf-8 path")]);
    assert_eq!(serve.ask(&terminal(1, "curl x"))["policy"], "deny");
    let fifo = dir.0.join("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    std::fs::rename(&fifo, &p).expect("rename the FIFO in");
    let e = expect_event(&serve, "reload_failed");
    assert_eq!(e["diagnostics"][0]["check"], "unreadable-file", "{e}");
    assert!(e.to_string().contains("FIFO"), "{e}");
    assert_eq!(serve.ask(&terminal(2, "curl x"))["policy"], "deny");
    let link = dir.0.join("zero");
    std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
    std::fs::rename(&link, &p).expect("rename the symlink in");
    let e = expect_event(&serve, "reload_failed");
    assert!(e.to_string().contains("device"), "{e}");
    assert_eq!(serve.ask(&terminal(3, "curl x"))["policy"], "deny");
    atomic_write(&p, r#"{"allow": ["Terminal(curl)"]}"#);
    assert_eq!(expect_event(&serve, "reloaded")["generation"], 2);
    assert_eq!(serve.ask(&terminal(4, "curl x"))["policy"], "auto_approve");
    assert_eq!(serve.finish().1, Some(0));
}

fn compile(permissions: &Path, out: &Path) {
    let status = Command::new(BIN)
        .args(["compile", "--permissions"])
        .arg(permissions)
        .arg("-o")
        .arg(out)
        .status()
        .expect("run permc compile");
    assert!(status.success());
}

#[test]
fn reload_of_a_compiled_artifact_and_a_stale_one_refused() {
    let dir = Scratch::new("artifact");
    let p = dir.file("permissions.json", r#"{"allow": ["Terminal(ls)"]}"#);
    let art = dir.0.join("policy.permc");
    compile(&p, &art);
    let mut serve = Serve::start(&[
        "--policy",
        art.to_str().expect("utf-8 path"),
        "--permissions",
        p.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(serve.ask(&terminal(1, "ls"))["reason"], "file.allow");
    // The source changes, the artifact does not: stale (SPEC §9), refused;
    // the last good policy stays.
    atomic_write(&p, r#"{"deny": ["Terminal(ls)"]}"#);
    let e = expect_event(&serve, "reload_failed");
    assert_eq!(e["diagnostics"][0]["check"], "artifact", "{e}");
    assert!(
        e["diagnostics"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("stale")),
        "{e}"
    );
    assert_eq!(serve.ask(&terminal(2, "ls"))["reason"], "file.allow");
    // Compiled again (permc compile writes by rename): swapped in.
    compile(&p, &art);
    assert_eq!(expect_event(&serve, "reloaded")["generation"], 2);
    assert_eq!(serve.ask(&terminal(3, "ls"))["reason"], "file.deny");
    // A corrupt artifact: refused too.
    std::fs::write(&art, b"not an artifact").expect("corrupt");
    assert_eq!(
        expect_event(&serve, "reload_failed")["diagnostics"][0]["check"],
        "artifact"
    );
    assert_eq!(serve.ask(&terminal(4, "ls"))["reason"], "file.deny");
    assert_eq!(serve.finish().1, Some(0));
}

#[test]
fn a_policy_that_does_not_load_at_start_is_exit_2_with_a_json_event() {
    let dir = Scratch::new("start");
    let p = dir.file("permissions.json", r#"{"allow": ["Terminal(ls"]}"#);
    let out = Command::new(BIN)
        .args(["serve", "--permissions", p.to_str().expect("utf-8 path")])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let events: Vec<Value> = stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON event ({e}): {l}")))
        .collect();
    assert_eq!(events.len(), 1, "{stderr}");
    let e = &events[0];
    assert_eq!(e["event"], "load_failed");
    assert_eq!(e["diagnostics"][0]["check"], "invalid-pattern", "{e}");
    assert!(out.stdout.is_empty());
}

fn kill_term(child: &Child) {
    let ok = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(ok.success());
}

/// A permissions.json holding `{}`: an empty policy, asked for explicitly
/// (with no rule files at all, permc refuses to start).
/// One file per call: tests run at once, and a file another test is
/// rewriting reads empty (`load_failed`, a race seen under load).
fn empty_policy() -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = std::env::temp_dir().join(format!("permc-serve-{}-{n}-empty.json", std::process::id()));
    std::fs::write(&p, "{}").expect("write");
    p.to_str().expect("utf-8 path").to_string()
}

#[test]
fn sigterm_when_idle_exits_0() {
    let mut serve = Serve::start(&["--permissions", &empty_policy()]);
    let d = serve.ask(&terminal(1, "ls"));
    assert_eq!(d["id"], 1);
    kill_term(&serve.child);
    let status = serve.child.wait().expect("wait");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn sigterm_while_pipelining_finishes_the_lines_in_progress_and_exits_0() {
    let mut serve = Serve::start(&["--permissions", &empty_policy()]);
    let mut stdin = serve.stdin.take().expect("stdin");
    const N: usize = 200_000;
    let writer = std::thread::spawn(move || {
        let mut buf = Vec::new();
        for i in 0..N {
            buf.extend(terminal(i, "cat x | grep y").bytes());
            buf.push(b'\n');
            if buf.len() > 1 << 16 {
                if stdin.write_all(&buf).is_err() {
                    return; // permc is gone: that is the point
                }
                buf.clear();
            }
        }
        let _ = stdin.write_all(&buf);
    });
    // Once answers flow, ask it to stop.
    let first = serve.answer();
    assert_eq!(first["id"], 0);
    kill_term(&serve.child);
    let mut rest = String::new();
    serve
        .stdout
        .read_to_string(&mut rest)
        .expect("read to the end");
    let status = serve.child.wait().expect("wait");
    writer.join().expect("writer");
    assert_eq!(status.code(), Some(0));
    // Every answer written is whole, and they are the requests' prefix.
    let mut next = 1;
    for line in rest.lines() {
        let v: Value = serde_json::from_str(line).expect("whole JSON lines only");
        assert_eq!(v["id"], next);
        next += 1;
    }
    assert!(next < N, "it stopped early ({next} answers)");
}

/// Whether the main thread of a live process is blocked writing to a pipe
/// (Linux; `None` when the kernel does not say).
fn blocked_on_a_pipe(pid: u32) -> Option<bool> {
    let wchan = std::fs::read_to_string(format!("/proc/{pid}/wchan")).ok()?;
    if wchan.is_empty() || wchan == "0" {
        return None;
    }
    Some(wchan.contains("pipe_write"))
}

#[test]
fn sigterm_when_the_client_stopped_reading_gives_up_with_status_1() {
    let mut serve = Serve::start(&["--permissions", &empty_policy()]);
    let pid = serve.child.id();
    let mut stdin = serve.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let line = format!("{}\n", terminal(1, "ls"));
        while stdin.write_all(line.as_bytes()).is_ok() {}
    });
    // Wait until permc has filled its stdout pipe and blocks on it.
    let mut blocked = 0;
    while blocked < 2 {
        std::thread::sleep(Duration::from_millis(50));
        match blocked_on_a_pipe(pid) {
            Some(true) => blocked += 1,
            Some(false) => blocked = 0,
            None => {
                eprintln!("SKIPPED: /proc/{pid}/wchan does not say where permc waits");
                return;
            }
        }
    }
    kill_term(&serve.child);
    let status = serve.child.wait().expect("wait");
    assert_eq!(
        status.code(),
        Some(1),
        "answers it could not write are not claimed as done"
    );
    drop(serve);
    writer.join().expect("writer");
}

/// Peak resident memory of a live process, in KiB (Linux).
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_client_that_stops_reading_meets_back_pressure_not_unbounded_memory() {
    let mut serve = Serve::start(&["--permissions", &empty_policy()]);
    let pid = serve.child.id();
    let mut stdin = serve.stdin.take().expect("stdin");
    // 3,000 requests with 20 KB ids: 60 MB each way.
    const N: usize = 3_000;
    let pad = "p".repeat(20_000);
    let writer = std::thread::spawn(move || {
        for i in 0..N {
            let line = format!(
                "{{\"id\": \"{i}-{pad}\", \"action\": {{\"type\": \"git_commit\"}}, \"context\": {{\"role\": \"developer\"}}}}\n"
            );
            stdin.write_all(line.as_bytes()).expect("write");
        }
        stdin // kept open: permc must stay alive until we look at its memory
    });
    // Not reading for a while: the pipes fill, permc blocks on its writes
    // and the writer on its own.
    std::thread::sleep(Duration::from_millis(500));
    let mut count = 0;
    let mut line = String::new();
    while count < N {
        line.clear();
        assert!(serve.stdout.read_line(&mut line).expect("read") > 0);
        count += 1;
    }
    let stdin = writer.join().expect("writer");
    let peak = peak_rss_kib(pid);
    drop(stdin);
    let status = serve.child.wait().expect("wait");
    assert_eq!(status.code(), Some(0));
    if let Some(peak) = peak {
        eprintln!("peak RSS of permc serve after 60 MB through it: {peak} KiB");
        assert!(
            peak < 48 * 1024,
            "permc serve buffered what it could not write: {peak} KiB"
        );
    }
}

#[test]
fn the_node_client() {
    let node = std::env::var("NODE").unwrap_or_else(|_| "node".into());
    match Command::new(&node).arg("--version").output() {
        Ok(o) if o.status.success() => {}
        _ => {
            eprintln!("SKIPPED the_node_client: `{node}` not found (install Node.js ≥ 18 to run examples/node/test.js)");
            return;
        }
    }
    let out = Command::new(&node)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/node/test.js"))
        .env("PERMC_BIN", BIN)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "examples/node/test.js failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("# fail 0"), "{stdout}");
}

/// Reload latency, measured and printed, not asserted (no timed assertion
/// in the suite): from the write of a rule file to the `reloaded` event,
/// by rename and in place.
/// `cargo test --release --test serve reload_latency -- --ignored --nocapture`
#[test]
#[ignore]
fn reload_latency() {
    let dir = Scratch::new("latency");
    let p = dir.file("permissions.json", r#"{"allow": ["Terminal(ls)"]}"#);
    let mut serve = Serve::start(&["--permissions", p.to_str().expect("utf-8 path")]);
    fn in_place(path: &Path, text: &str) {
        std::fs::write(path, text).expect("write");
    }
    type Write = fn(&Path, &str);
    let ways: [(&str, Write); 2] = [("rename", atomic_write), ("in place", in_place)];
    let mut generation = 1;
    for (how, write) in ways {
        let mut ms = Vec::new();
        for i in 0..20 {
            let list = if i % 2 == 0 { "deny" } else { "allow" };
            // Not at a fixed phase of the 100 ms poll.
            std::thread::sleep(Duration::from_millis(37 * (i % 5) + 150));
            let t = Instant::now();
            write(&p, &format!(r#"{{"{list}": ["Terminal(ls)"]}}"#));
            let e = expect_event(&serve, "reloaded");
            ms.push(t.elapsed().as_secs_f64() * 1000.0);
            generation += 1;
            assert_eq!(e["generation"], generation);
            let d = serve.ask(&terminal(i, "ls"));
            assert_eq!(d["reason"], format!("file.{list}"));
        }
        ms.sort_by(f64::total_cmp);
        eprintln!(
            "reload by {how}: min {:.0} ms, median {:.0} ms, max {:.0} ms ({} reloads)",
            ms[0],
            ms[ms.len() / 2],
            ms[ms.len() - 1],
            ms.len()
        );
    }
    assert_eq!(serve.finish().1, Some(0));
}
