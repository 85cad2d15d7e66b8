//! `permc check`, as users see it.
//!
//! - every check has a fixture under `tests/fixtures/check/<check>/`
//!   (permissions.json and/or autonomy.json) with hits and near misses,
//!   snapshotted in `human` (no color) and `json` — reviewers read the
//!   snapshots as user output;
//! - every registered check has its documentation and a fixture it fires
//!   on;
//! - false positives: the activation defaults of SPEC §8 and the shipped
//!   `examples/` produce exactly the findings documented below;
//! - SARIF carries what GitHub code scanning needs; exit statuses follow
//!   SPEC §10.3.

use permc_analyzer::checks::{self, CHECKS, FILE_FINDINGS};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `permc` in `dir`; returns stdout, stderr and the exit status.
fn permc_in(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_permc"))
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .args(args)
        .output()
        .expect("permc runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixtures() -> PathBuf {
    root().join("tests/fixtures/check")
}

/// The rule files of a fixture folder, in a fixed order.
fn rule_files(dir: &Path) -> Vec<&'static str> {
    ["permissions.json", "autonomy.json"]
        .into_iter()
        .filter(|f| dir.join(f).is_file())
        .collect()
}

/// The findings of `permc check --format json` as (check, file, line).
fn findings(json: &str) -> Vec<(String, String, u64)> {
    let v: Value = serde_json::from_str(json).expect("JSON output");
    v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["check"].as_str().unwrap_or_default().to_string(),
                d["file"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("check")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[test]
fn fixtures_human_and_json() {
    for check in CHECKS {
        let dir = fixtures().join(check.name());
        let files = rule_files(&dir);
        let mut args = vec!["check", "--color", "never"];
        args.extend(&files);
        let (human, _, code) = permc_in(&dir, &args);
        let with_json: Vec<&str> = ["check", "--format", "json"]
            .into_iter()
            .chain(files.iter().copied())
            .collect();
        let (json, _, json_code) = permc_in(&dir, &with_json);
        assert_eq!(code, json_code, "{}", check.name());
        // A finding's own severity: a warning check can find errors too
        // (`unknown-key`, SPEC §2.1 round 4).
        let v: Value = serde_json::from_str(&json).expect("JSON");
        let expected_code = i32::from(
            v["diagnostics"]
                .as_array()
                .expect("diagnostics")
                .iter()
                .any(|d| d["severity"] == "error"),
        );
        assert_eq!(code, expected_code, "{}: exit status", check.name());
        insta::assert_snapshot!(format!("{}__human", check.name()), human);
        let v: Value = serde_json::from_str(&json).expect("JSON");
        insta::assert_json_snapshot!(format!("{}__json", check.name()), v);
    }
}

#[test]
fn every_check_has_docs_and_a_fixture_that_fires_it() {
    for check in CHECKS {
        let docs = check.docs();
        for section in [
            "## What it does",
            "## Why is this bad?",
            "## Example",
            "Use instead:",
        ] {
            assert!(
                docs.contains(section),
                "{} has no `{section}` in its docs",
                check.name()
            );
        }
        let source = root().join("analyzer/src/checks").join(check.file);
        assert!(
            source.is_file(),
            "{}: no {}",
            check.name(),
            source.display()
        );
        let dir = fixtures().join(check.name());
        let files = rule_files(&dir);
        assert!(
            !files.is_empty(),
            "{} has no fixture in {}",
            check.name(),
            dir.display()
        );
        let args: Vec<&str> = ["check", "--format", "json"]
            .into_iter()
            .chain(files)
            .collect();
        let (json, _, _) = permc_in(&dir, &args);
        assert!(
            findings(&json).iter().any(|(c, _, _)| c == check.name()),
            "the fixture of {} does not fire it",
            check.name()
        );
        let (explained, _, code) = permc_in(&dir, &["check", "--explain", check.name()]);
        assert_eq!(code, 0);
        assert!(
            explained.contains("## Why is this bad?"),
            "{}",
            check.name()
        );
    }
    // No fixture folder without a check.
    for entry in std::fs::read_dir(fixtures()).expect("fixtures") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        assert!(
            CHECKS.iter().any(|c| c.name() == name),
            "fixture `{name}` names no check"
        );
    }
}

/// The permissions.json that activation writes (SPEC §8), built here from
/// the spec's text, not from the seeding code.
fn spec_8_defaults() -> String {
    let reading = "ls, pwd, find, cat, head, tail, grep, wc, echo, git status, git diff, git log";
    let history = "git branch -a, git branch -r, git branch -v, git branch --list, git branch --show-current, \
                   git remote -v, git remote show, git worktree list, git show, git for-each-ref, git ls-tree, \
                   git rev-parse, git config --get";
    let build = "pnpm install, pnpm test, npm run, npm test, npx vitest, mix test, pytest, go test, cargo test, cargo build";
    let allow: Vec<String> = [reading, history, build]
        .iter()
        .flat_map(|group| group.split(", "))
        .map(|p| format!("    \"Terminal({})\"", p.trim()))
        .collect();
    format!("{{\n  \"allow\": [\n{}\n  ]\n}}\n", allow.join(",\n"))
}

/// The findings on the activation defaults of SPEC §8, exactly:
/// - `Terminal(find)` is seeded and unanchored: `find … -delete`;
/// - `Terminal(npm run)` is seeded and runs any script of the package;
/// - `Terminal(npx vitest)` is not reported as broad (SPEC §11 round 4):
///   npx and a program the catalogue describes as no runner and no
///   code-running program, what always-allow records;
/// - no `undescribed-program` (info, SPEC §11 round 4): every seeded
///   program has rows (shell/catalogue/described/), pnpm's included.
///
/// Nothing else: the git reading forms are anchored, nothing is shadowed,
/// redundant or neutralized, and the module agents' autonomy rule
/// (`git_commit: auto_approve`) draws no finding.
#[test]
fn spec_8_defaults_draw_exactly_the_documented_findings() {
    let dir = scratch("spec8");
    std::fs::write(dir.join("permissions.json"), spec_8_defaults()).expect("write");
    std::fs::write(
        dir.join("autonomy.json"),
        "{\"dev-api\": {\"git_commit\": \"auto_approve\"}, \"dev-web\": {\"git_commit\": \"auto_approve\"}}\n",
    )
    .expect("write");
    let (json, _, code) = permc_in(&dir, &["check", "--format", "json"]);
    assert_eq!(code, 0, "warnings do not fail without --deny warnings");
    let got: Vec<(String, u64)> = findings(&json)
        .into_iter()
        .map(|(c, _, l)| (c, l))
        .collect();
    let line_of = |pattern: &str| {
        spec_8_defaults()
            .lines()
            .position(|l| l.contains(&format!("\"Terminal({pattern})\"")))
            .map_or(0, |i| i as u64 + 1)
    };
    assert_eq!(
        got,
        [
            ("unanchored-mutating-verb".to_string(), line_of("find")),
            ("broad-always-expansion".to_string(), line_of("npm run")),
        ]
    );
    let (_, _, denied) = permc_in(&dir, &["check", "--deny", "warnings"]);
    assert_eq!(denied, 1);
}

/// The shipped examples: the two findings of the SPEC §8 defaults they
/// include (find, npm run), and the `terminal: auto_approve`
/// that dev-api writes under its wildcard (autonomy-redundant, an info);
/// besides, `undescribed-program` infos, one per program the catalogue
/// does not describe (as for the SPEC §8 defaults).
#[test]
fn examples_draw_exactly_the_documented_findings() {
    let dir = root().join("examples");
    if !dir.join("permissions.json").is_file() {
        return;
    }
    let (json, _, code) = permc_in(
        &dir,
        &[
            "check",
            "--format",
            "json",
            "permissions.json",
            "autonomy.json",
        ],
    );
    assert_eq!(code, 0);
    let got: Vec<(String, String)> = findings(&json)
        .into_iter()
        .map(|(c, f, _)| (c, f))
        .filter(|(c, _)| c != "undescribed-program")
        .collect();
    assert!(json.contains("undescribed-program"), "{json}");
    let want = [
        ("unanchored-mutating-verb", "permissions.json"),
        ("broad-always-expansion", "permissions.json"),
        ("autonomy-redundant", "autonomy.json"),
    ];
    assert_eq!(
        got,
        want.map(|(c, f)| (c.to_string(), f.to_string())),
        "{json}"
    );
}

#[test]
fn sarif_has_what_code_scanning_needs() {
    let dir = fixtures().join("neutralized-by-ceiling");
    let (out, _, code) = permc_in(
        &dir,
        &[
            "check",
            "--format",
            "sarif",
            "permissions.json",
            "autonomy.json",
        ],
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).expect("SARIF is JSON");
    assert_eq!(v["version"], "2.1.0");
    assert!(v["$schema"]
        .as_str()
        .is_some_and(|s| s.contains("sarif-2.1.0")));
    let run = &v["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "permc");
    let rules = driver["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), CHECKS.len() + FILE_FINDINGS.len());
    let all = checks::all_docs();
    assert_eq!(rules.len(), all.len());
    for (rule, (name, _, _)) in rules.iter().zip(&all) {
        assert_eq!(rule["id"], *name);
        for field in ["shortDescription", "fullDescription"] {
            assert!(
                rule[field]["text"].as_str().is_some_and(|t| !t.is_empty()),
                "{name}: {field}"
            );
        }
        // Every rule's help is its docs page, docs/checks/<name>.md, as
        // plain text and as Markdown.
        let page = std::fs::read_to_string(root().join(permc_analyzer::output::docs_path(name)))
            .expect("docs page");
        assert_eq!(rule["help"]["text"], page.as_str(), "{name}: help.text");
        assert_eq!(
            rule["help"]["markdown"],
            page.as_str(),
            "{name}: help.markdown"
        );
        // helpUri: that page in the repository, absolute, only when Cargo.toml
        // names a real repository — never a made-up address.
        let uri = rule.get("helpUri").map(|u| u.as_str().expect("a string"));
        assert_eq!(
            uri,
            permc_analyzer::output::help_uri(name).as_deref(),
            "{name}"
        );
        if let Some(u) = uri {
            assert!(u.starts_with("https://") && !u.contains(".invalid/"), "{u}");
            assert!(u.ends_with(&format!("/docs/checks/{name}.md")), "{u}");
        }
        assert!(rule["defaultConfiguration"]["level"].is_string());
    }
    assert_eq!(
        driver.get("informationUri").and_then(Value::as_str),
        permc_analyzer::output::repository()
    );
    assert!(!out.contains("example.invalid"), "no made-up address");
    let results = run["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for r in results {
        let id = r["ruleId"].as_str().expect("ruleId");
        let index = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], id);
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().expect("level")));
        assert!(r["message"]["text"].as_str().is_some_and(|t| !t.is_empty()));
        let loc = &r["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(uri == "permissions.json" || uri == "autonomy.json", "{uri}");
        assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        let region = &loc["region"];
        for field in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(region[field].as_u64().is_some_and(|n| n >= 1), "{field}");
        }
    }
}

#[test]
fn github_annotations() {
    let dir = fixtures().join("shadowed-by-deny");
    let (out, _, _) = permc_in(&dir, &["check", "--format", "github", "permissions.json"]);
    let first = out.lines().next().expect("an annotation");
    // Relative to the repository's top level (issue 32 pt 3); as given
    // when the checkout is not a git repository.
    let in_git = std::process::Command::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .current_dir(&dir)
        .output()
        .is_ok_and(|o| o.status.success());
    let file = if in_git {
        "tests/fixtures/check/shadowed-by-deny/permissions.json"
    } else {
        "permissions.json"
    };
    assert!(
        first.starts_with(&format!("::warning file={file},line=3,col=5,endLine=3,endColumn=33,title=permc shadowed-by-deny::")),
        "{first}"
    );
    assert_eq!(
        out.lines().count(),
        findings(&permc_in(&dir, &["check", "--format", "json"]).0).len()
    );
}

#[test]
fn every_error_of_a_broken_file_at_once() {
    let dir = scratch("broken");
    std::fs::write(
        dir.join("permissions.json"),
        "{\n  \"allow\": [\"Gitpush()\", \"Terminal('x\", 3,],\n  \"deny\": \"Terminal(curl)\",\n  \"alow\": []\n  \"ask\": [\"Terminal(ls) \"]\n}\n",
    )
    .expect("write");
    let (json, _, code) = permc_in(&dir, &["check", "--format", "json"]);
    assert_eq!(code, 1, "a rejected file is an analyzer error");
    let got: Vec<(String, u64)> = findings(&json)
        .into_iter()
        .map(|(c, _, l)| (c, l))
        .collect();
    let want = [
        ("unknown-label", 2),
        ("invalid-pattern", 2),
        ("invalid-shape", 2),
        ("invalid-json", 2),
        ("invalid-shape", 3),
        ("unknown-key", 4),
        ("invalid-json", 5),
        ("invalid-pattern", 5),
    ];
    assert_eq!(got, want.map(|(c, l)| (c.to_string(), l)), "{json}");
}

#[test]
fn usage_and_exit_status() {
    let dir = scratch("usage");
    // No rule file here: bad usage.
    let (_, err, code) = permc_in(&dir, &["check"]);
    assert_eq!(code, 2, "{err}");
    let (_, err, code) = permc_in(&dir, &["check", "missing.json"]);
    assert_eq!(code, 2, "{err}");
    let (_, err, code) = permc_in(&dir, &["check", "--explain", "no-such-check"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown check"), "{err}");
    let (_, err, code) = permc_in(&dir, &["check", "--ignore", "invalid-json", "x.json"]);
    assert_eq!(code, 2, "{err}");
    // Clean, warnings, --deny warnings, --ignore.
    std::fs::write(
        dir.join("permissions.json"),
        "{\"allow\": [\"Terminal(grep -n)\"]}",
    )
    .expect("write");
    let (out, _, code) = permc_in(&dir, &["check"]);
    assert_eq!((out.as_str(), code), ("", 0));
    std::fs::write(
        dir.join("permissions.json"),
        "{\"allow\": [\"Terminal(curl)\"]}",
    )
    .expect("write");
    assert_eq!(permc_in(&dir, &["check"]).2, 0);
    assert_eq!(permc_in(&dir, &["check", "--deny", "warnings"]).2, 1);
    let (out, _, code) = permc_in(
        &dir,
        &[
            "check",
            "--deny",
            "warnings",
            "--ignore",
            "broad-always-expansion",
        ],
    );
    assert_eq!((out.as_str(), code), ("", 0));
    // The kind is known by content when the name does not say it.
    std::fs::write(
        dir.join("agents.json"),
        "{\"dev-api\": {\"*\": \"auto_approve\", \"git_push\": \"auto_approve\"}}",
    )
    .expect("write");
    let (json, _, _) = permc_in(&dir, &["check", "--format", "json", "agents.json"]);
    assert_eq!(findings(&json).len(), 2, "{json}");
    // A folder stands for its rule files.
    let (json, _, _) = permc_in(&fixtures(), &["check", "--format", "json", "duplicate-key"]);
    let files: Vec<String> = findings(&json).into_iter().map(|(_, f, _)| f).collect();
    assert!(
        files.contains(&"duplicate-key/autonomy.json".to_string()),
        "{files:?}"
    );
    assert!(
        files.contains(&"duplicate-key/permissions.json".to_string()),
        "{files:?}"
    );
    assert_eq!(permc_in(&dir, &["check", "."]).2, 0);
    // Colors only when asked (not a terminal here).
    let (plain, _, _) = permc_in(&dir, &["check", "permissions.json"]);
    assert!(!plain.contains('\u{1b}'));
    let (colored, _, _) = permc_in(&dir, &["check", "--color", "always", "permissions.json"]);
    assert!(colored.contains('\u{1b}'));
}

#[test]
fn project_root_widens_the_scope() {
    let dir = scratch("project-root");
    std::fs::write(
        dir.join("permissions.json"),
        "{\"allow\": [\"Terminal(cat /home/ana/loja/README.md)\"]}",
    )
    .expect("write");
    let (json, _, _) = permc_in(&dir, &["check", "--format", "json"]);
    assert_eq!(findings(&json).len(), 1, "{json}");
    let (json, _, _) = permc_in(
        &dir,
        &[
            "check",
            "--format",
            "json",
            "--project-root",
            "/home/ana/loja",
        ],
    );
    assert_eq!(findings(&json).len(), 0, "{json}");
}

/// Point 11: every check and file finding has a real documentation page,
/// `docs/checks/<name>.md`, current with the check's docs (what SARIF's
/// `helpUri` points at). `PERMC_BLESS=1` writes them.
#[test]
fn every_check_has_a_current_docs_page() {
    let bless = std::env::var_os("PERMC_BLESS").is_some();
    for (name, severity, docs) in checks::all_docs() {
        let path = root().join(permc_analyzer::output::docs_path(name));
        let want = checks::docs_page(name, severity, &docs);
        if bless {
            std::fs::create_dir_all(path.parent().expect("folder")).expect("docs/checks");
            std::fs::write(&path, &want).expect("write");
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            have,
            want,
            "{} is missing or stale: run `PERMC_BLESS=1 cargo test --test check every_check_has_a_current_docs_page`",
            path.display()
        );
        let (explained, _, code) = permc_in(&root(), &["check", "--explain", name]);
        assert_eq!(code, 0, "{name}");
        assert_eq!(explained, want, "--explain {name} prints its page");
    }
}

/// Point 11: SARIF is valid against the SARIF 2.1.0 schema (vendored in
/// tests/fixtures from the npm package @microsoft/jest-sarif), its file
/// URIs relative to %SRCROOT% (the project folder), never absolute.
#[test]
fn sarif_is_schema_valid_with_uris_relative_to_the_project() {
    let dir = scratch("sarif-root");
    std::fs::create_dir_all(dir.join("sub")).expect("dirs");
    std::fs::write(
        dir.join("permissions.json"),
        r#"{"allow": ["Terminal(ls && rm x)", "Termnal(ls)"]}"#,
    )
    .expect("write");
    std::fs::write(
        dir.join("autonomy.json"),
        r#"{"dev-api": {"*": "auto_approve", "terminal": "auto_approve"}}"#,
    )
    .expect("write");
    let abs = dir.join("permissions.json");
    let (out, err, code) = permc_in(
        &dir.join("sub"),
        &[
            "check",
            "--format",
            "sarif",
            abs.to_str().expect("utf-8"),
            "../autonomy.json",
            "missing.json",
        ],
    );
    assert_eq!(code, 2, "{err}");
    let v: Value = serde_json::from_str(&out).expect("SARIF");
    let run = &v["runs"][0];
    assert_eq!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        format!("file://{}/", dir.display())
    );
    let uris: Vec<(String, Value)> = run["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let a = &r["locations"][0]["physicalLocation"]["artifactLocation"];
            (
                a["uri"].as_str().unwrap_or("").to_string(),
                a["uriBaseId"].clone(),
            )
        })
        .collect();
    assert!(
        uris.iter()
            .any(|(u, b)| u == "permissions.json" && b == "%SRCROOT%"),
        "{uris:?}"
    );
    assert!(
        uris.iter()
            .any(|(u, b)| u == "autonomy.json" && b == "%SRCROOT%"),
        "{uris:?}"
    );
    assert!(
        uris.iter()
            .any(|(u, b)| u == "sub/missing.json" && b == "%SRCROOT%"),
        "{uris:?}"
    );
    assert!(
        !out.contains(&format!("\"{}", dir.display())),
        "no absolute file names"
    );
    validate_sarif(&dir.join("report.sarif"), &out);
}

/// Validates a SARIF log against the vendored schema with Python's
/// `jsonschema` (installed by .ci/run; skipped, loudly, where it is
/// missing unless PERMC_REQUIRE_SCHEMA is set).
fn validate_sarif(file: &Path, sarif: &str) {
    std::fs::write(file, sarif).expect("write");
    let schema = root().join("tests/fixtures/sarif-schema-2.1.0.json");
    let script = "import json, sys\n\
        import jsonschema\n\
        schema = json.load(open(sys.argv[1]))\n\
        log = json.load(open(sys.argv[2]))\n\
        v = jsonschema.Draft4Validator(schema)\n\
        errors = [f'{list(e.absolute_path)}: {e.message}' for e in v.iter_errors(log)]\n\
        print('\\n'.join(errors))\n\
        sys.exit(1 if errors else 0)\n";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&schema)
        .arg(file)
        .output();
    let required = std::env::var_os("PERMC_REQUIRE_SCHEMA").is_some();
    match out {
        Ok(o)
            if String::from_utf8_lossy(&o.stderr).contains("No module named 'jsonschema'")
                || o.status.code() == Some(127) =>
        {
            assert!(
                !required,
                "python3 jsonschema is required: pip install jsonschema"
            );
            eprintln!("SKIPPED SARIF schema validation: pip install jsonschema to run it");
        }
        Ok(o) => assert!(
            o.status.success(),
            "SARIF is not schema-valid:\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            assert!(!required, "python3 is required: {e}");
            eprintln!("SKIPPED SARIF schema validation: no python3 ({e})");
        }
    }
}

/// Point 6: an unreadable file is a finding (`unreadable-file`, an error
/// with no line or column) in every format; the other files are checked
/// and the run exits 2; `--output-file` writes the report.
#[test]
fn an_unreadable_file_is_reported_and_the_rest_checked() {
    let dir = scratch("unreadable");
    std::fs::write(
        dir.join("ok.json"),
        r#"{"allow": ["Terminal(ls && rm x)"]}"#,
    )
    .expect("write");
    for format in ["human", "json", "sarif", "github"] {
        let (out, err, code) = permc_in(
            &dir,
            &["check", "--format", format, "ok.json", "missing.json"],
        );
        assert_eq!(code, 2, "{format}: {err}");
        assert!(out.contains("unreadable-file"), "{format}: {out}");
        assert!(
            out.contains("dead-pattern"),
            "{format}: the rest is checked: {out}"
        );
    }
    let (out, _, _) = permc_in(
        &dir,
        &["check", "--format", "json", "ok.json", "missing.json"],
    );
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let d = &v["diagnostics"][1];
    assert_eq!(d["check"], "unreadable-file");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["file"], "missing.json");
    assert!(d["line"].is_null() && d["column"].is_null(), "{d}");
    let (out, err, code) = permc_in(
        &dir,
        &[
            "check",
            "--format",
            "sarif",
            "--output-file",
            "report.sarif",
            "ok.json",
            "missing.json",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    let report = std::fs::read_to_string(dir.join("report.sarif")).expect("report written");
    assert!(report.contains("unreadable-file") && report.contains("dead-pattern"));
    validate_sarif(&dir.join("check.sarif"), &report);
}

/// Point 10: one diagnostic shape: `"version": 1`, `message` and `help`
/// apart, `related` always present; one severity word (`info`, SPEC §11)
/// in human, JSON and the summary line (SARIF's level can only say `note`);
/// `permc serve` events share it.
#[test]
fn one_diagnostic_shape_and_one_severity_vocabulary() {
    let dir = fixtures().join("autonomy-redundant");
    let (out, _, _) = permc_in(&dir, &["check", "--format", "json", "autonomy.json"]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["version"], 1);
    for d in v["diagnostics"].as_array().expect("diagnostics") {
        assert!(d["related"].is_array(), "{d}");
        assert!(d.get("help").is_some(), "{d}");
        assert_eq!(d["severity"], "info");
        assert!(
            !d["message"].as_str().expect("message").contains("; "),
            "help apart: {d}"
        );
    }
    let (human, _, _) = permc_in(&dir, &["check", "--color", "never", "autonomy.json"]);
    assert!(human.contains("info[autonomy-redundant]"), "{human}");
    assert!(
        human.contains("found 2 infos") || human.contains("found 1 info"),
        "{human}"
    );
    assert!(!human.contains("note["), "{human}");
    // SARIF's schema has no `info` level: `note` is its word for it.
    let (sarif, _, _) = permc_in(&dir, &["check", "--format", "sarif", "autonomy.json"]);
    assert!(sarif.contains("\"level\": \"note\""), "{sarif}");
    // serve: the same shape in its events.
    let scratch = scratch("serve-shape");
    let p = scratch.join("permissions.json");
    std::fs::write(&p, r#"{"allow": ["Termnal(ls)"]}"#).expect("write");
    let (_, err, code) = permc_in(&scratch, &["serve", "--permissions", "permissions.json"]);
    assert_eq!(code, 2);
    let event: Value = serde_json::from_str(err.lines().next().expect("an event")).expect("JSON");
    assert_eq!(event["version"], 1);
    let d = &event["diagnostics"][0];
    for key in [
        "check",
        "severity",
        "file",
        "line",
        "column",
        "endLine",
        "endColumn",
        "message",
        "help",
        "related",
    ] {
        assert!(d.get(key).is_some(), "{key} in {d}");
    }
}

/// Point 13: a file named neither permissions*.json nor autonomy*.json is
/// told apart by content; one that is neither is one finding.
#[test]
fn a_file_that_is_no_rule_file_is_one_finding() {
    let dir = scratch("kinds");
    std::fs::write(
        dir.join("package.json"),
        r#"{"name": "web", "version": "1.0.0", "scripts": {"test": "vitest"}, "files": ["dist"]}"#,
    )
    .expect("write");
    std::fs::write(
        dir.join("rules.json"),
        r#"{"dev-api": {"git_commit": "auto_approve"}}"#,
    )
    .expect("write");
    let (out, _, code) = permc_in(
        &dir,
        &["check", "--format", "json", "package.json", "rules.json"],
    );
    assert_eq!(code, 1);
    let f = findings(&out);
    assert_eq!(f.len(), 1, "{out}");
    assert_eq!(f[0].0, "not-a-rule-file");
    assert_eq!(f[0].1, "package.json");
    // Text that is not JSON at all — a README quoting patterns, a TOML
    // file opening `[` — is that one finding too, not broken JSON
    // (issue 43, conventions).
    std::fs::write(
        dir.join("README.md"),
        "# rules\n\n    {\"allow\": [\"Terminal(ls)\"]}\n",
    )
    .expect("write");
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"x\"\n").expect("write");
    for file in ["README.md", "Cargo.toml"] {
        let (out, _, code) = permc_in(&dir, &["check", "--format", "json", file]);
        assert_eq!(code, 1);
        let f = findings(&out);
        assert_eq!(f.len(), 1, "{out}");
        assert_eq!(
            (f[0].0.as_str(), f[0].1.as_str()),
            ("not-a-rule-file", file)
        );
    }
    // --project-root must be absolute, or is taken from the current folder
    // and said so.
    let (_, err, _) = permc_in(&dir, &["check", "--project-root", "proj", "rules.json"]);
    assert!(
        err.contains(&format!("taken as {}", dir.join("proj").display())),
        "{err}"
    );
}

/// Point 14: `check -` reads standard input, named by --stdin-filename.
#[test]
fn check_reads_standard_input_for_editors() {
    let dir = scratch("stdin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_permc"))
        .current_dir(&dir)
        .args([
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "autonomy.json",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("permc runs");
    {
        use std::io::Write;
        let mut input = child.stdin.take().expect("stdin");
        input
            .write_all(br#"{"dev-api": {"*": "auto_approve", "terminal": "auto_approve"}}"#)
            .expect("write");
    }
    let out = child.wait_with_output().expect("ends");
    let f = findings(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        f,
        [(
            "autonomy-redundant".to_string(),
            "autonomy.json".to_string(),
            1
        )]
    );
}

/// Point 17: a rejected file still gets the findings of the entries that
/// did parse, so one run shows everything.
#[test]
fn a_rejected_file_still_gets_the_findings_of_its_good_entries() {
    let dir = scratch("partial");
    std::fs::write(
        dir.join("permissions.json"),
        r#"{"allow": ["Terminal(ls && rm x)", "Terminal('x)", "Termnal(ls)"]}"#,
    )
    .expect("write");
    let (out, _, code) = permc_in(&dir, &["check", "--format", "json", "permissions.json"]);
    assert_eq!(code, 1);
    let checks: Vec<String> = findings(&out).into_iter().map(|f| f.0).collect();
    assert_eq!(
        checks,
        ["dead-pattern", "invalid-pattern", "unknown-label"],
        "{out}"
    );
}

/// The analyzer reads the same catalogue as the decision: an allow entry
/// of a remote client's unlisted subcommand, or of a publishing goal, is
/// external whatever follows (SPEC §4.5 item 3), so it never approves —
/// not only the subcommands the external-effect table names. A client's
/// listed read draws nothing.
#[test]
fn entries_of_remote_clients_rows_are_neutralized() {
    let dir = scratch("remote-clients-neutralized");
    std::fs::write(
        dir.join("permissions.json"),
        "{\"allow\": [\"Terminal(supabase db push)\", \"Terminal(op read)\", \
         \"Terminal(sbt publish)\", \"Terminal(kaggle datasets list)\", \
         \"Terminal(op --version)\"]}",
    )
    .expect("write");
    let (json, _, _) = permc_in(&dir, &["check", "--format", "json"]);
    let got: Vec<(String, u64)> = findings(&json)
        .into_iter()
        .map(|(check, _, line)| (check, line))
        .collect();
    let neutralized = got
        .iter()
        .filter(|(c, _)| c == "neutralized-by-ceiling")
        .count();
    assert_eq!(neutralized, 3, "{json}");
}
