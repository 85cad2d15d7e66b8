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
    // No finding: the config suppresses the seeded entries' own, and the
    // catalogue describes every seeded program (no undescribed-program,
    // SPEC §11 round 4).
    let out = String::from_utf8_lossy(&o.stdout);
    let kinds: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("]: "))
        .map(|l| l.split(']').next().unwrap_or(""))
        .collect();
    assert!(kinds.is_empty(), "{out}");
    // Without the config, the findings are back (one warning, one info
    // besides those).
    let o = permc(
        &d,
        &["check", "--fail-level", "warning", "--config", "/dev/null"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("found 1 warning and ") && text(&o).contains("unanchored-mutating-verb"),
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

/// Issue 43 pt 7: an error in permissions.json keeps the suppressions of
/// the entries that still read (they turned all off, burying the error
/// among findings the project had answered), and reports no suppression
/// as stale against a file that did not read whole.
#[test]
fn an_error_in_the_rules_keeps_the_other_suppressions() {
    let d = scratch("config", "suppress-broken");
    std::fs::write(
        d.join("permissions.json"),
        r#"{"allow": ["Terminal(npm run)", "Terminal('x)", "Terminal(ls)"]}"#,
    )
    .expect("write");
    std::fs::write(
        d.join("permc.toml"),
        r#"[[check.allow]]
check = "broad-always-expansion"
entry = "Terminal(npm run)"
reason = "our scripts are reviewed"

[[check.allow]]
check = "literal-star"
entry = "Terminal('x)"
reason = "the entry that broke"
"#,
    )
    .expect("write");
    let o = permc(&d, &["check", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let found: Vec<&str> = v["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .map(|d| d["check"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(found, ["invalid-pattern"], "{v:#}");
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

/// Issue 29 point 5: permc.toml's `[[command]]` rows, read by `permc
/// decide` (the permc.toml beside permissions.json, or `--config`),
/// `explain`, `test`, `compile` (the artifact holds them) and `check`.
#[test]
fn project_rows_reach_decide_explain_test_compile_and_check() {
    let d = scratch("config", "rows");
    std::fs::write(
        d.join("permissions.json"),
        r#"{"allow": ["Terminal(./deploy.sh)", "Terminal(./other.sh)", "Terminal(./with-env)"]}"#,
    )
    .expect("write");
    std::fs::write(
        d.join("permc.toml"),
        "[[command]]\nname = \"./deploy.sh\"\neffects = [\"external\"]\n\n[[command]]\nname = \"./with-env\"\nruns = \"argv\"\n",
    )
    .expect("write");
    decide_reads_the_rows_with_either_engine(&d);
    decide_reads_the_permc_toml_beside_the_rules_unless_config_says(&d);
    explain_names_the_row(&d);
    the_artifact_holds_the_rows_and_is_stale_with_other_rows(&d);
    check_and_always_allow_read_the_rows(&d);
    // permc test reads them too.
    std::fs::write(
        d.join("deploy.permc-test.toml"),
        "require_approval = [\"./deploy.sh prod\"]\nauto_approve = [\"./other.sh prod\"]\n",
    )
    .expect("write");
    let o = permc(&d, &["test", "deploy.permc-test.toml"]);
    assert!(o.status.success(), "{}", text(&o));
}

/// A developer's request, in the runner, to run `cmd`.
fn request(cmd: &str) -> String {
    format!(
        r#"{{"action": {{"type": "terminal", "command": "{cmd}"}}, "context": {{"role": "developer", "executionMode": "runner", "projectScopeRoot": "/p"}}}}"#
    )
}

/// `permc decide` in `d` with `args`, on the request to run `cmd`.
fn decide(d: &Path, args: &[&str], cmd: &str) -> serde_json::Value {
    let req = request(cmd);
    let mut all = vec!["decide", "--request", req.as_str()];
    all.extend(args);
    let o = permc(d, &all);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).expect("json")
}

/// Both engines lower the described script with the row's message; the
/// near miss stays approved.
fn decide_reads_the_rows_with_either_engine(d: &Path) {
    for engine in ["compiled", "reference"] {
        let v = decide(d, &["--engine", engine], "./deploy.sh prod");
        assert_eq!(v["policy"], "require_approval", "{engine}: {v}");
        assert_eq!(v["reason"], "ceiling.external_effect");
        let msg = v["message"].as_str().unwrap_or("");
        assert!(
            msg.contains("`./deploy.sh` has an effect outside the machine (permc.toml)"),
            "{msg}"
        );
        // The near miss stays approved.
        let v = decide(d, &["--engine", engine], "./other.sh prod");
        assert_eq!(v["policy"], "auto_approve", "{v}");
    }
}

/// Rules given explicitly, from elsewhere: the permc.toml beside them;
/// `--config /dev/null`: no rows.
fn decide_reads_the_permc_toml_beside_the_rules_unless_config_says(d: &Path) {
    let v = decide(
        d,
        &[
            "--permissions",
            d.join("permissions.json").to_str().unwrap_or(""),
        ],
        "./deploy.sh",
    );
    assert_eq!(v["reason"], "ceiling.external_effect", "{v}");
    let v = decide(d, &["--config", "/dev/null"], "./deploy.sh");
    assert_eq!(v["policy"], "auto_approve", "{v}");
}

/// explain names the row.
fn explain_names_the_row(d: &Path) {
    let req = request("./deploy.sh prod");
    let o = permc(d, &["explain", "--request", &req]);
    assert!(
        text(&o).contains("`./deploy.sh` has an effect outside the machine (permc.toml)"),
        "{}",
        text(&o)
    );
}

/// The artifact holds the rows; with a permc.toml whose rows differ, it
/// is stale.
fn the_artifact_holds_the_rows_and_is_stale_with_other_rows(d: &Path) {
    let o = permc(d, &["compile", "-o", "policy.permc"]);
    assert!(o.status.success(), "{}", text(&o));
    let v = decide(d, &["--policy", "policy.permc"], "./deploy.sh");
    assert_eq!(v["reason"], "ceiling.external_effect", "{v}");
    let o = permc(
        d,
        &[
            "decide",
            "--policy",
            "policy.permc",
            "--config",
            "/dev/null",
            "--request",
            &request("./deploy.sh"),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("stale"), "{}", text(&o));
}

/// permc check: the allow entry the row's ceiling always lowers, the
/// script no row describes, and the project runner allowed whole; and
/// always-allow refuses what the row says leaves the machine.
fn check_and_always_allow_read_the_rows(d: &Path) {
    let o = permc(d, &["check", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let checks: Vec<&str> = v["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|d| d["check"].as_str())
        .collect();
    assert_eq!(
        checks,
        [
            "neutralized-by-ceiling",
            "undescribed-program",
            "broad-always-expansion"
        ],
        "{v:#}"
    );
    let o = permc(d, &["always", "--request", &request("./deploy.sh prod")]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["reason"], "teto_do_sempre_permitir", "{v}");
}

/// A malformed row is never ignored: `permc check` reports every finding
/// about the rows (rustc-like, file:line:col), and whatever decides
/// refuses the config (exit 2).
#[test]
fn malformed_rows_are_errors_with_their_place() {
    let d = scratch("config", "bad-rows");
    std::fs::write(d.join("permissions.json"), r#"{"allow": ["Terminal(ls)"]}"#).expect("write");
    std::fs::write(
        d.join("permc.toml"),
        r#"[[command]]
name = "./deploy.sh"
efects = ["external"]

[[command]]
name = "./gen"
effects = ["network", "code"]

[[command]]
name = "deploy prod"

[[command]]
name = "./with-env"
options_with_value = ["-e"]

[[command]]
name = "./gen"
effects = ["code"]

[[command]]
name = "./gen"
runs = "shell"
"#,
    )
    .expect("write");
    let o = permc(&d, &["check", "--config", "permc.toml", "--color", "never"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    insta::assert_snapshot!(
        "project_rows_check_human",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = permc(&d, &["check", "--config", "permc.toml", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    insta::assert_json_snapshot!("project_rows_check_json", v);
    let req =
        r#"{"action": {"type": "terminal", "command": "ls"}, "context": {"role": "developer"}}"#;
    let o = permc(&d, &["decide", "--request", req]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("permc.toml:3:1"), "{err}");
    assert!(err.contains("unknown field `efects`"), "{err}");
    assert!(err.contains("nothing is decided"), "{err}");
}
