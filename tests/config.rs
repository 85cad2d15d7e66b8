//! The project config, permc.toml (issue 11 pt 3): `[check]` ignores,
//! severities and suppressions with reasons, stale suppressions reported,
//! `--fail-level`, and a freshly seeded project passing `permc check
//! --fail-level warning` with the config `permc seed` writes.

use std::path::Path;
use std::process::{Command, Output};

#[path = "support/files.rs"]
mod files;
use files::scratch;

const PERMC: &str = env!("CARGO_BIN_EXE_permc");

fn permc(dir: &Path, args: &[&str]) -> Output {
    Command::new(PERMC)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("permc runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_fresh_seeded_project_passes_fail_level_warning() {
    let d = scratch("config", "seeded");
    let o = permc(&d, &["seed", "--permissions", "permissions.json"]);
    assert!(o.status.success(), "{}", text(&o));
    let out: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(out["config"], "./permc.toml");
    let o = permc(
        &d,
        &["check", "--fail-level", "warning", "--color", "never"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(o.stdout.is_empty(), "{}", text(&o));
    // Without the config, the findings are back (two warnings, one info).
    let o = permc(
        &d,
        &["check", "--fail-level", "warning", "--config", "/dev/null"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("found 2 warnings and 1 info"),
        "{}",
        text(&o)
    );
    // A second seed keeps the project's own config.
    std::fs::write(d.join("permc.toml"), "# mine\n").expect("write");
    let o = permc(&d, &["seed"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(d.join("permc.toml")).expect("read"),
        "# mine\n"
    );
}

#[test]
fn suppressions_severities_ignores_and_stale_suppressions() {
    let d = scratch("config", "suppress");
    std::fs::write(
        d.join("permissions.json"),
        r#"{"allow": ["Terminal(npm run)", "Terminal(ls)", "Terminal(ls)", "Terminal(src/*)"]}"#,
    )
    .expect("write");
    std::fs::write(
        d.join("permc.toml"),
        r#"[check]
ignore = ["literal-star"]
severity = { redundant-rule = "info" }

[[check.allow]]
check = "broad-always-expansion"
entry = "Terminal(npm run)"
reason = "our scripts are reviewed"

[[check.allow]]
check = "broad-always-expansion"
entry = "Terminal(bash)"
reason = "gone since"
"#,
    )
    .expect("write");
    let o = permc(&d, &["check", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let found: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .map(|d| {
            (
                d["check"].as_str().unwrap_or("").to_string(),
                d["severity"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("redundant-rule".to_string(), "info".to_string()),
            ("stale-suppression".to_string(), "warning".to_string())
        ],
        "{v:#}"
    );
    let stale = &v["diagnostics"][1];
    assert!(stale["file"].as_str().unwrap_or("").ends_with("permc.toml"));
    assert_eq!(stale["line"], 12);
    // Exit status by --fail-level.
    assert_eq!(permc(&d, &["check"]).status.code(), Some(0));
    let warn = permc(&d, &["check", "--fail-level", "warning"]);
    assert_eq!(warn.status.code(), Some(1));
    assert_eq!(
        permc(&d, &["check", "--fail-level", "info"]).status.code(),
        Some(1)
    );
    // Checking only an autonomy file reports no permissions suppression
    // as stale.
    std::fs::write(d.join("autonomy.json"), r#"{"a": {"*": "deny"}}"#).expect("write");
    let o = permc(&d, &["check", "--fail-level", "warning", "autonomy.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn a_bad_config_is_an_error_naming_it() {
    let d = scratch("config", "bad");
    std::fs::write(d.join("permissions.json"), "{}").expect("write");
    std::fs::write(
        d.join("permc.toml"),
        "[[check.allow]]\ncheck = \"literal-star\"\nentry = \"Terminal(*)\"\n",
    )
    .expect("write");
    let o = permc(&d, &["check"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("permc.toml"), "{}", text(&o));
    assert!(text(&o).contains("reason"), "{}", text(&o));
}
