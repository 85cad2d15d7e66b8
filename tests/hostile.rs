//! Hostile input: arbitrary strings as commands, cwds and requests never
//! panic, and an unparsed command is never auto-approved — even with
//! `Terminal()` allowed, in automatic mode, in a running container.

use permc_core::facts::LineFacts;
use permc_core::{reference, Request, Rules};
use permc_grammar::rules::{load_autonomy, load_permissions};
use permc_grammar::Policy;
use proptest::prelude::*;
use serde_json::json;
use std::io::Write;
use std::process::{Command, Stdio};

/// The most permissive rules there are: every command allowed, and the
/// agent in automatic mode.
fn allow_everything() -> Rules {
    let p = load_permissions("permissions.json", br#"{"allow": ["Terminal()"]}"#)
        .value
        .expect("loads");
    let a = load_autonomy("autonomy.json", br#"{"dev-x": {"*": "auto_approve"}}"#)
        .value
        .expect("loads");
    Rules::new(p, a)
}

fn terminal(command: &str, cwd: Option<&str>) -> Request<'static> {
    let mut action = json!({"type": "terminal", "command": command, "agent": "dev-x"});
    if let Some(c) = cwd {
        action["cwd"] = json!(c);
    }
    Request::from_value(&json!({
        "action": action,
        "context": {"role": "owner", "executionMode": "container", "containerRunning": true,
                    "projectScopeRoot": "/home/ana/p"}
    }))
    .expect("a valid request")
    .into_owned()
}

/// Pieces of shell that collide: quotes, operators, substitutions, keywords.
fn shellish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("'".to_string()),
        Just("\"".to_string()),
        Just("\\".to_string()),
        Just("$(".to_string()),
        Just(")".to_string()),
        Just("`".to_string()),
        Just("${".to_string()),
        Just("}".to_string()),
        Just("{".to_string()),
        Just("(".to_string()),
        Just(" && ".to_string()),
        Just("|".to_string()),
        Just(";".to_string()),
        Just("&".to_string()),
        Just("\n".to_string()),
        Just("#".to_string()),
        Just(">".to_string()),
        Just("<<".to_string()),
        Just("2>&1".to_string()),
        Just("*".to_string()),
        Just("$'".to_string()),
        Just("if ".to_string()),
        Just("{a,b}".to_string()),
        Just("\0".to_string()),
        Just("\r".to_string()),
        Just("sudo ".to_string()),
        Just("bash -c ".to_string()),
        Just("git push".to_string()),
        Just("rm -rf /".to_string()),
        Just("/etc/x".to_string()),
        Just("..".to_string()),
        Just(" ".to_string()),
        "[a-z]{1,4}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn commands_never_panic_and_unparsed_never_auto_approves(cmd in shellish()) {
        let rules = allow_everything();
        let d = reference::decide(&rules, &terminal(&cmd, None));
        let facts = LineFacts::of(&cmd);
        if facts.unparsed {
            prop_assert_ne!(d.policy, Policy::AutoApprove, "unparsed {:?} → {:?}", cmd, d);
        }
        if facts.external_effect().is_some() || facts.privileged().is_some() {
            prop_assert_ne!(d.policy, Policy::AutoApprove);
        }
    }

    #[test]
    fn arbitrary_cwds_never_panic(cwd in any::<String>(), cmd in "[a-z./ ]{0,20}") {
        // A relative cwd is an invalid request (SPEC §5.1); an absolute one
        // (or none) decides.
        let rules = allow_everything();
        for cwd in [cwd.clone(), format!("/{cwd}")] {
            let v = json!({
                "action": {"type": "terminal", "command": cmd, "agent": "dev-x", "cwd": cwd},
                "context": {"role": "owner", "executionMode": "container", "containerRunning": true,
                            "projectScopeRoot": "/home/ana/p"}
            });
            match Request::from_value(&v) {
                Ok(req) => {
                    let _ = reference::decide(&rules, &req);
                }
                Err(e) => prop_assert!(
                    e.code == "invalid_field" && !cwd.is_empty() && !cwd.starts_with('/'),
                    "{cwd:?}: {}", e.message
                ),
            }
        }
    }

    #[test]
    fn arbitrary_request_text_never_panics(text in any::<String>()) {
        let _ = Request::from_json(&text);
    }

    #[test]
    fn arbitrary_request_shapes_never_auto_approve_by_accident(
        ty in prop_oneof![Just(json!("terminal")), Just(json!("git_push")), Just(json!(3)), Just(json!(null)), Just(json!("nope"))],
        role in prop_oneof![Just(json!("developer")), Just(json!("owner")), Just(json!(1)), Just(json!("root"))],
        command in prop_oneof![Just(json!("ls")), Just(json!(["ls"])), Just(json!(null))],
        root in prop_oneof![Just(json!("/p")), Just(json!("p")), Just(json!(7)), Just(json!(null))],
    ) {
        let v = json!({"action": {"type": ty, "command": command},
                       "context": {"role": role, "projectScopeRoot": root}});
        if let Ok(req) = Request::from_value(&v) {
            // Whatever reads, decides without panicking.
            let _ = reference::decide(&allow_everything(), &req);
        }
    }
}

#[test]
fn huge_and_deep_inputs_are_bounded() {
    let rules = allow_everything();
    let cases = [
        "a".repeat(1 << 20),
        format!("ls {}", "/".repeat(200_000)),
        "$(".repeat(10_000),
        "(".repeat(10_000),
        "`".repeat(10_001),
        "{ ".repeat(10_000),
        "\"$(".repeat(10_000),
        "ls\0rm -rf /".to_string(),
        "a && ".repeat(100_000),
        format!("cat {}", "../".repeat(100_000)),
        // Issue 9's forms, big: deep `$((` and `((`, arithmetic holding
        // substitutions, runs of backslash-newlines everywhere, many
        // here-document operators (with and without bodies), `time` runs.
        "$((".repeat(10_000),
        "((".repeat(10_000),
        format!("{}1{}", "$(( $(".repeat(5_000), ")1 ))".repeat(5_000)),
        "(( '$(".repeat(5_000),
        format!("ls{}", "\\\n".repeat(100_000)),
        "$\\\n(".repeat(20_000),
        "a &\\\n& ".repeat(20_000),
        format!(
            "{}\n{}",
            "cat <<E 3<<-F {x}<<'G' ".repeat(5_000),
            "E\nF\nG\n".repeat(5_000)
        ),
        format!("{}\n", "(a) <<E ".repeat(20_000)),
        format!("cat <<E\n{}E\n", "'$(x)' `y` $((1)) \\\n".repeat(20_000)),
        "time ".repeat(50_000),
        "\"`\\\"".repeat(20_000),
    ];
    for cmd in &cases {
        let d = reference::decide(&rules, &terminal(cmd, None));
        let facts = LineFacts::of(cmd);
        if facts.unparsed {
            assert_ne!(
                d.policy,
                Policy::AutoApprove,
                "{}",
                &cmd[..cmd.len().min(40)]
            );
        }
    }
    // A deep cwd and a long run of slashes in the cwd.
    let d = reference::decide(&rules, &terminal("ls", Some(&"/".repeat(200_000))));
    assert_eq!(
        d.policy,
        Policy::AutoApprove,
        "`/` (the host root) is outside /work but automatic mode lifts scope"
    );
}

/// Issue 33, 4: past 256 KiB a command is read in part (SPEC §4.2 round
/// 3): a 16 MB line of `a|` is read into at most as many segments as its
/// first 262,144 bytes hold (it was 8M segments, 3 GB), a deny found there
/// still denies, what follows is never approved, and the word the cut
/// splits is unknown (`/` of `/tmp/x` is no certain `rm -rf /`).
#[test]
fn a_command_past_256_kib_is_read_in_part() {
    use permc_grammar::shell::{self, Known, MAX_LEN};
    let big = "a|".repeat(8 << 20);
    let line = shell::read(&big);
    assert!(
        line.segments.len() <= MAX_LEN / 2 + 1,
        "{}",
        line.segments.len()
    );
    assert!(LineFacts::of(&big).unparsed);

    let rules = allow_everything();
    let deny = Rules::new(
        load_permissions(
            "permissions.json",
            br#"{"allow": ["Terminal()"], "deny": ["Terminal(curl)"]}"#,
        )
        .value
        .expect("loads"),
        load_autonomy("autonomy.json", br#"{"dev-x": {"*": "auto_approve"}}"#)
            .value
            .expect("loads"),
    );
    let denied = format!("curl x; {big}");
    assert_eq!(
        reference::decide(&deny, &terminal(&denied, None)).policy,
        Policy::Deny
    );
    let allowed = "ls; ".repeat(1 << 20);
    assert_ne!(
        reference::decide(&rules, &terminal(&allowed, None)).policy,
        Policy::AutoApprove
    );

    // `rm -rf /tmp/x` cut right after its `/`.
    let tail = "rm -rf /";
    let cut = format!("{}{tail}tmp/x", ":;".repeat((MAX_LEN - tail.len()) / 2));
    assert_eq!(cut.find("tmp/x"), Some(MAX_LEN));
    let line = shell::read(&cut);
    let last = line.segments.last().expect("segments");
    assert_eq!(last.words, ["rm", "-rf", "/"]);
    assert_eq!(last.known[2], Known::AnyTokens);
    assert_eq!(last.known[1], Known::Exact);
    // A cut in a multi-byte character is moved back to its start.
    let wide = format!("{}é", "a".repeat(MAX_LEN - 1));
    assert!(shell::read(&wide).is_unparsed());
}

#[test]
fn cli_stream_survives_hostile_lines() {
    let dir = std::env::temp_dir().join(format!("permc-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join("permissions.json");
    std::fs::write(&p, r#"{"allow": ["Terminal()"]}"#).expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_permc"))
        .args(["decide", "--permissions"])
        .arg(&p)
        .args(["--requests", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("permc runs");
    let good = r#"{"action": {"type": "terminal", "command": "ls"}, "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": "/p"}}"#;
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"action\": \xff\xfe}\n"); // invalid UTF-8
    input.extend_from_slice(b"not json\n");
    input.extend_from_slice(b"[1, 2]\n");
    input.extend_from_slice(format!("{}\n", "[".repeat(10_000)).as_bytes());
    let big = json!({"action": {"type": "terminal", "command": "x".repeat(1 << 20)},
                     "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": "/p"}});
    input.extend_from_slice(format!("{big}\n").as_bytes());
    let nul = json!({"action": {"type": "terminal", "command": "ls\u{0}; rm x"},
                     "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": "/p"}});
    input.extend_from_slice(format!("{nul}\n").as_bytes());
    input.extend_from_slice(format!("{good}\n").as_bytes());
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        stdin.write_all(&input).expect("write");
    });
    let out = child.wait_with_output().expect("permc ends");
    writer.join().expect("writer");
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each answer is JSON"))
        .collect();
    assert_eq!(lines.len(), 7, "one answer per request line");
    for l in &lines[..4] {
        assert!(l.get("error").is_some(), "{l}");
    }
    // Over 256 KiB is unparsed, and the one word the cut splits (here
    // the verb) is unknown (SPEC §4.2 round 3), which lowers first (§5.3).
    assert_eq!(lines[4]["policy"], "require_approval");
    assert_eq!(lines[4]["reason"], "unknown.word", "{}", lines[4]);
    assert_eq!(
        lines[5]["policy"], "require_approval",
        "NUL makes it unparsed"
    );
    assert_eq!(lines[5]["reason"], "ceiling.unparsed");
    assert_eq!(lines[6]["policy"], "auto_approve");
    let _ = std::fs::remove_dir_all(&dir);
}
