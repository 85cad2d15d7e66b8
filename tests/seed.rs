//! Seeding at execution activation (SPEC §8): `permc seed` end to end —
//! the defaults in order, only what is missing, everything else kept, the
//! module agents' git_commit rule, files created, `--policy` compiled, and
//! concurrent seeds and always-allow writers losing nothing.

use permc_core::seed::DEFAULT_ALLOW;
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output};

#[path = "support/files.rs"]
mod files;
use files::{allow_of, ok_json, scratch};

const PERMC: &str = env!("CARGO_BIN_EXE_permc");

fn seed(p: &Path, a: Option<&Path>, modules: &[&str], policy: Option<&Path>) -> Output {
    let mut c = Command::new(PERMC);
    c.args(["seed", "--permissions"]).arg(p);
    if let Some(a) = a {
        c.arg("--autonomy").arg(a);
    }
    for m in modules {
        c.args(["--module", m]);
    }
    if let Some(f) = policy {
        c.arg("--policy").arg(f);
    }
    c.output().expect("permc runs")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).expect("read")
}

#[test]
fn seeds_a_new_project() {
    let dir = scratch("seed", "new");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    let v = ok_json(&seed(&p, Some(&a), &["api", "web"], None));
    assert_eq!(v["added"], json!(DEFAULT_ALLOW));
    assert_eq!(
        v["autonomy"],
        json!([
            {"agent": "dev-api", "type": "git_commit", "mode": "auto_approve"},
            {"agent": "dev-web", "type": "git_commit", "mode": "auto_approve"},
        ])
    );
    assert_eq!(allow_of(&p), DEFAULT_ALLOW);
    let text = read(&p);
    assert!(
        text.starts_with("{\n  \"allow\": [\n    \"Terminal(ls)\",\n"),
        "{text}"
    );
    assert!(
        text.ends_with("\"Terminal(cargo build)\"\n  ]\n}\n"),
        "{text}"
    );
    assert_eq!(
        read(&a),
        "{\n  \"dev-api\": {\n    \"git_commit\": \"auto_approve\"\n  },\n  \"dev-web\": {\n    \"git_commit\": \"auto_approve\"\n  }\n}\n"
    );
    // Seeding again changes nothing, byte for byte.
    let (pb, ab) = (read(&p), read(&a));
    let v = ok_json(&seed(&p, Some(&a), &["api", "web"], None));
    assert_eq!(v["added"], json!([]));
    assert_eq!(v["autonomy"], json!([]));
    assert_eq!((read(&p), read(&a)), (pb, ab));
}

#[test]
fn keeps_what_is_there_and_adds_only_what_is_missing() {
    let dir = scratch("seed", "existing");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    std::fs::write(
        &p,
        r#"{"deny": ["Terminal(curl)"], "allow": ["Terminal(pnpm test:*)", "Terminal(git  status)", "Terminal(ls)"], "x-owner": "ana"}"#,
    )
    .expect("write");
    std::fs::write(
        &a,
        r#"{"dev-web": {"git_commit": "deny"}, "dev-api": {"*": "require_approval"}, "planner": {"spend": "deny"}}"#,
    )
    .expect("write");
    let v = ok_json(&seed(&p, Some(&a), &["web", "api", "api"], None));
    let allow = allow_of(&p);
    // The three entries first, as they were; then the missing defaults in
    // SPEC §8's order (`git  status` counts as `git status`).
    assert_eq!(
        allow[..3],
        [
            "Terminal(pnpm test:*)",
            "Terminal(git  status)",
            "Terminal(ls)"
        ]
    );
    let expected: Vec<&str> = DEFAULT_ALLOW
        .iter()
        .copied()
        .filter(|d| *d != "Terminal(ls)" && *d != "Terminal(git status)")
        .collect();
    assert_eq!(allow[3..], expected[..]);
    assert_eq!(v["added"], json!(expected));
    let pv: Value = serde_json::from_str(&read(&p)).expect("json");
    let keys: Vec<&String> = pv.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["deny", "allow", "x-owner"]);
    assert_eq!(pv["deny"], json!(["Terminal(curl)"]));
    // dev-web keeps its written deny; dev-api gets the rule once.
    assert_eq!(
        v["autonomy"],
        json!([{"agent": "dev-api", "type": "git_commit", "mode": "auto_approve"}])
    );
    assert_eq!(
        read(&a),
        "{\n  \"dev-web\": {\n    \"git_commit\": \"deny\"\n  },\n  \"dev-api\": {\n    \"*\": \"require_approval\",\n    \"git_commit\": \"auto_approve\"\n  },\n  \"planner\": {\n    \"spend\": \"deny\"\n  }\n}\n"
    );
}

#[test]
fn creates_an_empty_autonomy_file_and_needs_it_for_modules() {
    let dir = scratch("seed", "files");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    ok_json(&seed(&p, Some(&a), &[], None));
    assert_eq!(read(&a), "{}\n");
    let q = dir.join("q.json");
    let o = seed(&q, None, &["api"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(!q.exists(), "bad usage writes nothing");
    let o = seed(&q, Some(&a), &[""], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn never_overwrites_a_file_that_does_not_load() {
    let dir = scratch("seed", "rejected");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    let bad_p = "{\"allow\": [\"Terminal(ls\"]";
    std::fs::write(&p, bad_p).expect("write");
    let o = seed(&p, None, &[], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(!o.stderr.is_empty());
    assert_eq!(read(&p), bad_p);
    // A rejected autonomy.json stops the whole seed: permissions.json is not
    // half-seeded either.
    std::fs::write(&p, "{}").expect("write");
    let bad_a = "{\"dev-api\": {\"git_comit\": \"auto_approve\"}}";
    std::fs::write(&a, bad_a).expect("write");
    let o = seed(&p, Some(&a), &["api"], None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(read(&a), bad_a);
    assert_eq!(read(&p), "{}");
}

#[test]
fn policy_is_compiled_at_activation() {
    let dir = scratch("seed", "policy");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    let f = dir.join("policy.permc");
    let v = ok_json(&seed(&p, Some(&a), &["api"], Some(&f)));
    assert_eq!(v["policy"], json!(f.display().to_string()));
    assert!(f.exists());
    let decide = |command: &str, agent: &str| {
        let r = json!({"action": {"type": "terminal", "command": command, "agent": agent},
            "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": "/p"}});
        let o = Command::new(PERMC)
            .args(["decide", "--policy"])
            .arg(&f)
            .arg("--permissions")
            .arg(&p)
            .arg("--autonomy")
            .arg(&a)
            .args(["--request", &r.to_string()])
            .output()
            .expect("runs");
        ok_json(&o)
    };
    assert_eq!(decide("git status", "planner")["reason"], "file.allow");
    assert_eq!(decide("git push", "planner")["policy"], "require_approval");
    let commit = json!({"action": {"type": "git_commit", "agent": "dev-api"},
        "context": {"role": "developer"}});
    let o = Command::new(PERMC)
        .args(["decide", "--policy"])
        .arg(&f)
        .args(["--request", &commit.to_string()])
        .output()
        .expect("runs");
    assert_eq!(ok_json(&o)["reason"], "autonomy.auto_approve");
}

/// Seeds and always-allow writers at the same time, on the same file: the
/// defaults end up there once each, and every always-allow pattern too.
#[test]
fn concurrent_seeds_and_writers() {
    let dir = scratch("seed", "concurrent");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    let mut children = Vec::new();
    for i in 0..8 {
        let mut c = Command::new(PERMC);
        c.args(["seed", "--permissions"])
            .arg(&p)
            .arg("--autonomy")
            .arg(&a);
        c.args(["--module", &format!("m{i}")]);
        children.push(
            c.stdout(std::process::Stdio::null())
                .spawn()
                .expect("spawn"),
        );
        let r = json!({"action": {"type": "terminal", "command": format!("job{i} go")},
            "context": {"role": "developer", "projectScopeRoot": "/p"}});
        let mut c = Command::new(PERMC);
        c.args(["always", "--write", "--permissions"]).arg(&p);
        c.args(["--request", &r.to_string()]);
        children.push(
            c.stdout(std::process::Stdio::null())
                .spawn()
                .expect("spawn"),
        );
    }
    for mut c in children {
        assert!(c.wait().expect("wait").success());
    }
    let allow = allow_of(&p);
    assert_eq!(allow.len(), DEFAULT_ALLOW.len() + 8, "{allow:?}");
    for d in DEFAULT_ALLOW {
        assert_eq!(allow.iter().filter(|x| x == d).count(), 1, "{d}");
    }
    for i in 0..8 {
        assert!(allow.contains(&format!("Terminal(job{i} go)")));
    }
    let av: Value = serde_json::from_str(&read(&a)).expect("json");
    for i in 0..8 {
        assert_eq!(av[format!("dev-m{i}")]["git_commit"], "auto_approve");
    }
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

/// Issue 12 point 8: `--policy` into a folder that does not exist yet
/// creates it: never rule files written and the artifact missing.
#[test]
fn policy_in_a_new_folder_is_written_with_the_rule_files() {
    let dir = scratch("seed", "policy-folder");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    let art = dir.join(".permc/policy.permc");
    let o = seed(&p, Some(&a), &["api"], Some(&art));
    ok_json(&o);
    assert!(art.is_file(), "the artifact is written");
    assert!(p.is_file() && a.is_file());
}

/// Issue 12 point 8: `--policy a/b/policy.permc` where a plain file `a`
/// blocks the folder is refused (exit 2, naming the folder) before
/// anything is written: no rule file, no permc.toml, `a` untouched.
#[test]
fn policy_behind_a_plain_file_is_refused_before_writing() {
    let dir = scratch("seed", "policy-blocked");
    std::fs::write(dir.join("a"), "a plain file\n").expect("write");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    let art = dir.join("a/b/policy.permc");
    let o = seed(&p, Some(&a), &["api"], Some(&art));
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("a/b"), "names the folder: {err}");
    assert!(o.stdout.is_empty(), "{o:?}");
    assert_eq!(names(&dir), ["a"], "nothing written");
    assert_eq!(read(&dir.join("a")), "a plain file\n");
    // The same with rule files already there: they are left as they were.
    std::fs::write(&p, "{\"allow\": []}").expect("write");
    let o = seed(&p, None, &[], Some(&art));
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert_eq!(read(&p), "{\"allow\": []}");
    assert_eq!(names(&dir), ["a", "permissions.json"]);
}

/// Issue 12 point 8: a module name is what can follow `dev-` in an agent
/// id; anything else is refused, saying which characters are allowed,
/// before anything is written.
#[test]
fn module_names_are_valid_agent_ids() {
    let dir = scratch("seed", "module-names");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    for bad in ["my module", " api", "api\t", "", ".x", "a/b", "é"] {
        let o = seed(&p, Some(&a), &[bad], None);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("letters, digits"), "{bad:?}: {err}");
        assert!(!p.exists() && !a.exists(), "{bad:?}: nothing written");
    }
    ok_json(&seed(&p, Some(&a), &["web-2", "api_v1.x"], None));
}

/// Issue 12 point 9: `seed` and `always --write` leave no lock file in the
/// user's tree.
#[test]
fn no_lock_files_are_left_behind() {
    let dir = scratch("seed", "no-litter");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    ok_json(&seed(&p, Some(&a), &["api"], None));
    let o = Command::new(PERMC)
        .args(["always", "--write", "--permissions"])
        .arg(&p)
        .arg("--autonomy")
        .arg(&a)
        .arg("--request")
        .arg(r#"{"action": {"type": "terminal", "command": "make build"}, "context": {"role": "developer", "projectScopeRoot": "/p"}}"#)
        .output()
        .expect("runs");
    ok_json(&o);
    let o = Command::new(PERMC)
        .args(["always", "--write", "--permissions"])
        .arg(&p)
        .arg("--autonomy")
        .arg(&a)
        .arg("--request")
        .arg(r#"{"action": {"type": "git_commit", "agent": "dev-web"}, "context": {"role": "developer"}}"#)
        .output()
        .expect("runs");
    ok_json(&o);
    assert_eq!(
        names(&dir),
        ["autonomy.json", "permc.toml", "permissions.json"]
    );
}

/// Issue 43 pt 3: `permc seed` with no file named, in a folder outside any
/// project, creates the rule files there (its help says they are created
/// when absent) instead of saying there are none; a second run, now
/// inside the project it made, changes nothing.
#[test]
fn seed_outside_a_project_creates_the_rule_files_here() {
    let dir = scratch("seed", "here");
    let run = |args: &[&str]| {
        Command::new(PERMC)
            .current_dir(&dir)
            .arg("seed")
            .args(args)
            .output()
            .expect("permc runs")
    };
    let v = ok_json(&run(&[]));
    assert_eq!(v["permissions"], "permissions.json", "{v}");
    assert_eq!(
        allow_of(&dir.join("permissions.json")).len(),
        DEFAULT_ALLOW.len()
    );
    assert!(dir.join("permc.toml").is_file());
    assert!(
        !dir.join("autonomy.json").exists(),
        "autonomy.json only for modules"
    );
    let v = ok_json(&run(&["--module", "api"]));
    assert_eq!(v["added"], json!([]), "{v}");
    assert_eq!(v["autonomy"][0]["agent"], "dev-api", "{v}");
    assert!(dir.join("autonomy.json").is_file());
}
