//! `permc fix`: the analyzer's machine-applicable suggestions, applied.
//!
//! - a fixed file passes `permc check` with nothing fixable left (`fix
//!   --diff` then has nothing to say);
//! - the safe fixes change no decision: `permc diff` between the file
//!   before and after finds no change, for a mixed file and for every
//!   check fixture that loads;
//! - unsafe fixes only under `--unsafe-fixes`; `--diff` writes nothing;
//!   a file that does not load is never rewritten; permc.toml's
//!   suppressions hold.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/files.rs"]
mod files;
use files::scratch;

fn permc_in(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_permc"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("permc runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The checks `permc check` reports on a file, in order.
fn checks_of(dir: &Path, file: &str) -> Vec<String> {
    let (out, err, _) = permc_in(dir, &["check", file, "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["check"].as_str().unwrap_or("").to_string())
        .collect()
}

/// The decision changes `permc diff OLD NEW` finds.
fn decision_changes(dir: &Path, old: &str, new: &str) -> Vec<Value> {
    let (out, err, code) = permc_in(dir, &["diff", old, new, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    v["changes"].as_array().expect("changes").clone()
}

const MIXED: &str = r#"{
  "allow": [
    "Terminal(ls)",
    "Terminal(ls -la)",
    "Terminal(cat src/*)",
    "Terminal(cd src && npm test)",
    "Terminal(git branch)",
    "Terminal(ls)",
    "Terminal(pnpm test:*)"
  ],
  "ask": ["Terminal(npm *.ts)"],
  "deny": ["Terminal(rm -rf *)", "Terminal(rm -rf *)"]
}
"#;

fn mixed(name: &str) -> PathBuf {
    let d = scratch("fix", name);
    std::fs::write(d.join("permissions.json"), MIXED).expect("write");
    std::fs::write(d.join("before.json"), MIXED).expect("write");
    d
}

const SAFE: [&str; 2] = ["redundant-rule", "literal-star"];

#[test]
fn safe_fixes_leave_nothing_fixable_and_change_no_decision() {
    let d = mixed("safe");
    let before = checks_of(&d, "permissions.json");
    assert!(before.iter().any(|c| c == "redundant-rule"), "{before:?}");
    assert!(before.iter().any(|c| c == "literal-star"), "{before:?}");
    let (_, err, code) = permc_in(&d, &["fix"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("redundant-rule: 3"), "{err}");
    let after = checks_of(&d, "permissions.json");
    assert!(
        !after.iter().any(|c| SAFE.contains(&c.as_str())),
        "{after:?}"
    );
    // The unsafe ones stay, reported, for a person to decide.
    assert!(after.iter().any(|c| c == "dead-pattern"), "{after:?}");
    let (out, _, code) = permc_in(&d, &["fix", "--diff"]);
    assert_eq!((out.as_str(), code), ("", 0), "nothing fixable is left");
    assert_eq!(
        decision_changes(&d, "before.json", "permissions.json"),
        Vec::<Value>::new()
    );
    let text = std::fs::read_to_string(d.join("permissions.json")).expect("read");
    assert!(text.contains(r#""Terminal(cat src/'*')""#), "{text}");
    assert!(text.contains(r#""Terminal(npm '*'.ts)""#), "{text}");
    assert!(text.contains(r#""Terminal(pnpm test:*)""#), "{text}");
}

#[test]
fn every_fixture_fixed_safely_decides_the_same() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/check");
    let mut fixed = 0;
    for dir in std::fs::read_dir(&fixtures).expect("fixtures").flatten() {
        let src = dir.path().join("permissions.json");
        let Ok(text) = std::fs::read(&src) else {
            continue;
        };
        let name = dir.file_name().to_string_lossy().into_owned();
        let d = scratch("fix-fixture", &name);
        std::fs::write(d.join("permissions.json"), &text).expect("write");
        std::fs::write(d.join("before.json"), &text).expect("write");
        let (_, err, code) = permc_in(&d, &["fix", "permissions.json"]);
        if code == 2 {
            // A fixture that does not load: refused, left as it is.
            assert_eq!(std::fs::read(d.join("permissions.json")).ok(), Some(text));
            continue;
        }
        assert_eq!(code, 0, "{name}: {err}");
        let after = checks_of(&d, "permissions.json");
        assert!(
            !after.iter().any(|c| SAFE.contains(&c.as_str())),
            "{name}: {after:?}"
        );
        assert_eq!(
            decision_changes(&d, "before.json", "permissions.json"),
            Vec::<Value>::new(),
            "{name}"
        );
        fixed += 1;
    }
    assert!(fixed >= 8, "only {fixed} fixtures loaded");
}

#[test]
fn unsafe_fixes_only_when_asked() {
    let d = mixed("unsafe");
    permc_in(&d, &["fix"]);
    let text = std::fs::read_to_string(d.join("permissions.json")).expect("read");
    assert!(text.contains("cd src && npm test"), "{text}");
    assert!(text.contains(r#""Terminal(git branch)""#), "{text}");
    let (_, err, code) = permc_in(&d, &["fix", "--unsafe-fixes"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(d.join("permissions.json")).expect("read");
    for p in [
        "Terminal(cd src)",
        "Terminal(npm test)",
        "Terminal(git branch --list)",
    ] {
        assert!(text.contains(&format!("\"{p}\"")), "{p}: {text}");
    }
    assert!(!text.contains(r#""Terminal(git branch)""#), "{text}");
    let after = checks_of(&d, "permissions.json");
    assert!(
        !after
            .iter()
            .any(|c| c == "dead-pattern" || c == "unanchored-mutating-verb"),
        "{after:?}"
    );
    // They change decisions, on purpose: `npm test` is allowed now.
    assert!(!decision_changes(&d, "before.json", "permissions.json").is_empty());
}

#[test]
fn diff_writes_nothing_and_exits_1() {
    let d = mixed("diff");
    let (out, _, code) = permc_in(&d, &["fix", "--diff"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("--- a/"), "{out}");
    assert!(out.contains("-    \"Terminal(ls -la)\",\n"), "{out}");
    assert!(out.contains("+    \"Terminal(cat src/'*')\",\n"), "{out}");
    assert_eq!(
        std::fs::read_to_string(d.join("permissions.json")).expect("read"),
        MIXED
    );
}

#[test]
fn a_file_that_does_not_load_is_left_alone() {
    let d = scratch("fix", "rejected");
    let bad = r#"{"allow": ["Terminal(ls)", "Terminal(ls)", "Nope(x)"]}"#;
    std::fs::write(d.join("permissions.json"), bad).expect("write");
    let (_, err, code) = permc_in(&d, &["fix"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        std::fs::read_to_string(d.join("permissions.json")).expect("read"),
        bad
    );
}

#[test]
fn suppressed_and_ignored_findings_are_not_fixed() {
    let d = mixed("suppressed");
    std::fs::write(
        d.join("permc.toml"),
        "[check]\nignore = [\"literal-star\"]\n\n[[check.allow]]\ncheck = \"redundant-rule\"\nentry = \"Terminal(ls -la)\"\nreason = \"kept for readers\"\n",
    )
    .expect("write");
    let (_, err, code) = permc_in(&d, &["fix"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(d.join("permissions.json")).expect("read");
    assert!(text.contains(r#""Terminal(ls -la)""#), "{text}");
    assert!(text.contains(r#""Terminal(cat src/*)""#), "{text}");
    assert_eq!(text.matches(r#""Terminal(ls)""#).count(), 1, "{text}");
}

#[test]
fn check_statistics_counts_per_check_and_marks_the_fixable() {
    let d = mixed("statistics");
    let (out, _, code) = permc_in(&d, &["check", "--statistics"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("    3  redundant-rule            warning  [3 fixable]\n"),
        "{out}"
    );
    assert!(
        out.contains("    1  dead-pattern              warning  [1 fixable with --unsafe-fixes]\n"),
        "{out}"
    );
    let (out, _, _) = permc_in(&d, &["check", "--statistics", "--format", "json"]);
    let v: Value = serde_json::from_str(&out).expect("json");
    let first = &v["statistics"][0];
    assert_eq!(
        (&first["check"], &first["count"], &first["fixable"]),
        (
            &Value::from("literal-star"),
            &Value::from(4),
            &Value::from(4)
        )
    );
}
