//! `permc test` end to end (issue 11 pt 2): the shipped example passes and
//! its coverage lists the entries no case exercises; a failing case shows
//! what decided instead; json (version 1) and JUnit XML; both engines
//! agree; errors in a test file name file:line:col and the fix.

#[path = "support/files.rs"]
mod files;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PERMC: &str = env!("CARGO_BIN_EXE_permc");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn permc(dir: &Path, args: &[&str]) -> Output {
    Command::new(PERMC)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("permc runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A project: the example rule files and `tests` as `t.permc-test.toml`.
fn project(name: &str, tests: &str) -> PathBuf {
    let d = files::scratch("test", name);
    for f in ["permissions.json", "autonomy.json"] {
        std::fs::copy(root().join("examples").join(f), d.join(f)).expect("copy");
    }
    std::fs::write(d.join("t.permc-test.toml"), tests).expect("write");
    d
}

#[test]
fn the_examples_pass_and_coverage_lists_the_entries_never_exercised() {
    // From the root of a clone, the folder named; and from inside it, none.
    let o = permc(&root(), &["test", "--coverage", "examples"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("ok   examples/rules.permc-test.toml: 17 passed, 0 failed"),
        "{text}"
    );
    assert!(
        text.contains("Never decided a case (44): add a case for each, or remove it"),
        "{text}"
    );
    assert!(text.contains("      -  allow    Terminal(pwd)"), "{text}");
    assert!(
        text.contains("      1  ask      Terminal(git checkout)"),
        "{text}"
    );
    let o = permc(&root().join("examples"), &["test"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("ok   rules.permc-test.toml: 17 passed"));
    // JSON: the same coverage, every entry once.
    let o = permc(
        &root(),
        &["test", "--coverage", "--format", "json", "examples"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["version"], 1);
    assert_eq!(v["summary"]["passed"], 17);
    let cov = &v["coverage"];
    assert_eq!(cov["entries"], 56);
    assert_eq!(cov["never"].as_array().map(Vec::len), Some(44));
    assert_eq!(cov["decided"].as_array().map(Vec::len), Some(12));
    let never: Vec<&str> = cov["never"]
        .as_array()
        .expect("never")
        .iter()
        .filter_map(|e| e["rule"].as_str())
        .collect();
    assert!(never.contains(&"Spend()"), "{never:?}");
    assert!(never.contains(&"dev-web: write_file = auto_approve"));
    assert_eq!(cov["decided"][0]["source"], "permissions.json:3:5");
}

#[test]
fn both_engines_decide_the_same() {
    let json = |engine: &str| {
        let o = permc(
            &root(),
            &["test", "--format", "json", "--engine", engine, "examples"],
        );
        // The whole decision must agree, message included (one copy of
        // every sentence, permc_core::phrases).
        serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("json")
    };
    assert_eq!(json("compiled"), json("reference"));
}

const FAILING: &str = r#"
auto_approve = ["git push origin main"]

[context]
projectScopeRoot = "/home/ana/p"

[[case]]
name = "a push by dev-api"
action = { type = "git_push", agent = "dev-api" }
context = { role = "maintainer" }
expect = "require_approval"
rule = "dev-api: * = auto_approve"
"#;

#[test]
fn a_failing_case_shows_what_decided_instead() {
    let d = project("failing", FAILING);
    let o = permc(&d, &["test"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    insta::assert_snapshot!("permc_test_failing_human", text);
    let o = permc(&d, &["test", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let case = &v["files"][0]["cases"][0];
    assert_eq!(case["passed"], false);
    assert_eq!(case["decision"]["reason"], "default");
    assert!(case["explain"]
        .as_str()
        .is_some_and(|e| e.contains("silent: no pattern matches any segment")));
    assert_eq!(
        v["files"][0]["cases"][1]["failure"],
        "expected rule dev-api: * = auto_approve, got GitPush()"
    );
    // JUnit XML that an XML parser reads, with the failures in it.
    let o = permc(&d, &["test", "--format", "junit"]);
    assert_eq!(o.status.code(), Some(1));
    let xml = stdout(&o);
    assert!(
        xml.contains("<testsuites name=\"permc test\" tests=\"2\" failures=\"2\""),
        "{xml}"
    );
    std::fs::write(d.join("report.xml"), &xml).expect("write");
    let parsed = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E\nr = E.parse(sys.argv[1]).getroot()\nprint(len(r.findall('.//failure')))",
        ])
        .arg(d.join("report.xml"))
        .output();
    match parsed {
        Ok(p) => assert_eq!(
            String::from_utf8_lossy(&p.stdout).trim(),
            "2",
            "{}",
            String::from_utf8_lossy(&p.stderr)
        ),
        Err(_) => eprintln!("SKIPPED JUnit XML parse: no python3"),
    }
}

#[test]
fn errors_in_a_test_file_name_the_place_and_the_fix() {
    let cases = [
        (
            "[[case]]\ncommand = \"ls\"\nexpect = \"allow\"\n",
            "error: t.permc-test.toml:3:10: expect = \"allow\" is not a policy\n  help: a policy is auto_approve, require_approval or deny (SPEC §10.2)\n",
        ),
        (
            "[[case]]\ncommand = \"ls\"\nexpect = \"deny\"\nreson = \"file.deny\"\n",
            "error: t.permc-test.toml:4:1: unknown field `reson`, expected one of `name`, `command`, `action`, `context`, `expect`, `reason`, `rule`\n  help: did you mean `reason`?\n",
        ),
        (
            "[context]\nrole = \"developer\"\ndeny = [\"curl x\"]\n",
            "error: t.permc-test.toml:1:1: `deny` is inside [context]\n  help: move `deny = …` above the [context] header: TOML puts every key after a header in that table\n",
        ),
    ];
    for (text, want) in cases {
        let d = project("errors", text);
        let o = permc(&d, &["test"]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), want);
    }
    // No test files: say where they go.
    let d = project("none", "");
    std::fs::remove_file(d.join("t.permc-test.toml")).expect("rm");
    let o = permc(&d, &["test"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds no *.permc-test.toml"));
}

/// The context of a case: the default, then permc.toml's `[context]`,
/// then the file's, then the case's.
#[test]
fn contexts_layer_from_the_config_to_the_case() {
    let d = project(
        "contexts",
        "[[case]]\naction = { type = \"git_commit\" }\nexpect = \"deny\"\nreason = \"iam.min_role\"\n\n[[case]]\naction = { type = \"git_commit\" }\ncontext = { role = \"developer\" }\nexpect = \"auto_approve\"\n",
    );
    std::fs::write(d.join("permc.toml"), "[context]\nrole = \"viewer\"\n").expect("write");
    let o = permc(&d, &["test", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(o.status.code(), Some(0), "{v:#}");
    let cases = &v["files"][0]["cases"];
    assert_eq!(cases[0]["request"]["context"]["role"], "viewer");
    assert_eq!(cases[1]["request"]["context"]["role"], "developer");
    assert_eq!(
        cases[0]["request"]["context"]["projectScopeRoot"],
        d.to_string_lossy().as_ref()
    );
    // Rule files given: the test file runs against them, from anywhere.
    let elsewhere = files::scratch("test", "elsewhere");
    let p = d.join("permissions.json").display().to_string();
    let t = d.join("t.permc-test.toml").display().to_string();
    let o = permc(&elsewhere, &["test", "--permissions", &p, &t]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// The console block of the docs page `page` that starts with
/// `$ COMMAND`, the lines after it.
fn doc_block(page: &str, command: &str) -> String {
    let readme = std::fs::read_to_string(root().join(page)).expect("docs page");
    let start = readme
        .find(&format!("$ {command}\n"))
        .unwrap_or_else(|| panic!("{page} shows `{command}`"))
        + command.len()
        + 3;
    let end = readme[start..].find("```").expect("block end") + start;
    readme[start..end].to_string()
}

/// docs/policy-as-code.md's `permc test --coverage examples` is what it
/// prints.
#[test]
fn the_docs_show_real_coverage_output() {
    let o = permc(&root(), &["test", "--coverage", "examples"]);
    assert_eq!(
        doc_block("docs/policy-as-code.md", "permc test --coverage examples"),
        stdout(&o)
    );
}

/// docs/diff.md's `permc diff examples new` is what it prints, `new` being
/// examples/ with two allow entries added and one removed.
#[test]
fn the_docs_show_real_diff_output() {
    let d = files::scratch("test", "readme-diff");
    std::fs::create_dir_all(d.join("examples")).expect("dir");
    std::fs::create_dir_all(d.join("new")).expect("dir");
    for f in ["permissions.json", "autonomy.json"] {
        std::fs::copy(root().join("examples").join(f), d.join("examples").join(f)).expect("copy");
        std::fs::copy(root().join("examples").join(f), d.join("new").join(f)).expect("copy");
    }
    let path = d.join("new/permissions.json");
    let mut p: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    let allow = p["allow"].as_array_mut().expect("allow");
    allow.retain(|e| e != "Terminal(git log)");
    allow.push("Terminal(rm -rf build)".into());
    allow.push("Terminal(git push)".into());
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&p).expect("json") + "\n",
    )
    .expect("write");
    let o = permc(
        &d,
        &["diff", "examples", "new", "--fail-on", "more-permissive"],
    );
    assert_eq!(o.status.code(), Some(1));
    let shown = stdout(&o).replace(&*d.to_string_lossy(), "/tmp/p") + "$ echo $?\n1\n";
    assert_eq!(
        doc_block(
            "docs/diff.md",
            "permc diff examples new --fail-on more-permissive"
        ),
        shown
    );
}

#[test]
fn coverage_has_percentages_and_a_threshold_gate() {
    let o = permc(
        &root(),
        &["test", "--coverage", "--threshold", "21", "examples"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("(21.4%)"), "{}", stdout(&o));
    // Below it: exit 1, and why on stderr; --threshold implies --coverage.
    let o = permc(&root(), &["test", "--threshold", "21.5", "examples"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("Coverage: 12 of 56"));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("coverage 21.42% (12 of 56 entries) is below the threshold 21.5%"));
    let o = permc(
        &root(),
        &["test", "--coverage", "--format", "json", "examples"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["coverage"]["percent"], 21.4);
    assert_eq!(v["coverage"]["lists"]["deny"]["percent"], 50.0);
    assert_eq!(v["coverage"]["lists"]["allow"]["entries"], 43);
    let o = permc(
        &root(),
        &["test", "--coverage", "--format", "junit", "examples"],
    );
    let x = stdout(&o);
    assert!(
        x.contains("<property name=\"coverage\" value=\"21.4\"/>"),
        "{x}"
    );
    assert!(x.contains("<property name=\"coverage.ask\" value=\"66.7\"/>"));
    // Colors only when asked (or on a terminal without NO_COLOR).
    let o = permc(&root(), &["test", "--color", "always", "examples"]);
    assert!(
        stdout(&o).contains("\x1b[32mok   examples/"),
        "{}",
        stdout(&o)
    );
    let o = permc(&root(), &["test", "examples"]);
    assert!(!stdout(&o).contains('\x1b'));
}

/// Issue 43, conventions: "no test files" names the folder it looked in,
/// the current one included (it printed an empty name).
#[test]
fn no_test_files_names_the_folder() {
    let d = files::scratch("permc-test", "no-tests");
    std::fs::write(d.join("permissions.json"), "{}").expect("write");
    let o = permc(&d, &["test"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no test files: the current folder (.) holds no *"),
        "{err}"
    );
    std::fs::create_dir_all(d.join("sub")).expect("dir");
    std::fs::write(d.join("sub/permissions.json"), "{}").expect("write");
    let o = permc(&d, &["test", "--permissions", "sub/permissions.json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no test files: sub holds no *"), "{err}");
}

/// Issue 43, conventions: a failing case's trace says when its context
/// came from permc.toml's `[context]`, which `permc explain` and `permc
/// decide` never read; a case that sets its own context gets no such line.
#[test]
fn a_trace_says_when_it_used_the_configs_context() {
    let d = project(
        "trace-context",
        "[[case]]\naction = { type = \"git_commit\" }\nexpect = \"auto_approve\"\n\n[[case]]\naction = { type = \"spend\" }\ncontext = { role = \"owner\" }\nexpect = \"auto_approve\"\n",
    );
    std::fs::write(d.join("permc.toml"), "[context]\nrole = \"viewer\"\n").expect("write");
    let o = permc(&d, &["test", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let cases = &v["files"][0]["cases"];
    let explain = |i: usize| cases[i]["explain"].as_str().unwrap_or("").to_string();
    assert!(
        explain(0).starts_with("(this trace used permc.toml's [context]: role = \"viewer\"; `permc explain` and `permc decide` never read"),
        "{}",
        explain(0)
    );
    assert!(
        !explain(1).is_empty() && !explain(1).contains("permc.toml"),
        "{}",
        explain(1)
    );
    let o = permc(&d, &["test"]);
    assert!(
        stdout(&o).contains("this trace used permc.toml's [context]"),
        "{}",
        stdout(&o)
    );
}
