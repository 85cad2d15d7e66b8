//! CI wiring (issue 32 pt 3): the `run:` steps of the repository's
//! `action.yml`, run as GitHub runs a composite action's bash steps
//! (`bash --noprofile --norc -eo pipefail`, `GITHUB_PATH`, `GITHUB_OUTPUT`,
//! the step's `env:` and `working-directory:`), on a scratch git repository
//! with a base commit and a head commit; and the plain git hook
//! `examples/pre-commit` honouring permc.toml. GitHub itself (the
//! `uses:` upload step, `if:` conditions) is not run.

#[path = "support/files.rs"]
mod files;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PERMC: &str = env!("CARGO_BIN_EXE_permc");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One `run:` step of action.yml.
#[derive(Debug, Default)]
struct Step {
    name: String,
    working_directory: Option<String>,
    env: Vec<(String, String)>,
    run: String,
}

fn unquote(v: &str) -> String {
    let v = v.trim();
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v)
        .to_string()
}

/// The inputs' defaults and the `run:` steps: a reader of the shape
/// action.yml is written in (two-space indents, `run: |` blocks), not of
/// YAML at large.
fn read_action(text: &str) -> (BTreeMap<String, String>, Vec<Step>) {
    let mut inputs = BTreeMap::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut section = "";
    let mut input = String::new();
    let mut in_env = false;
    let mut in_run = false;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if indent == 0 && !t.is_empty() && !t.starts_with('#') {
            section = if t == "inputs:" {
                "inputs"
            } else if t == "runs:" {
                "runs"
            } else {
                ""
            };
            continue;
        }
        match section {
            "inputs" => {
                if indent == 2 {
                    input = t.trim_end_matches(':').to_string();
                } else if let Some(d) = t.strip_prefix("default:") {
                    inputs.insert(input.clone(), unquote(d));
                }
            }
            "runs" => {
                if in_run {
                    if indent >= 8 || t.is_empty() {
                        let s = steps.last_mut().expect("a step");
                        s.run.push_str(line.get(8..).unwrap_or(""));
                        s.run.push('\n');
                        continue;
                    }
                    in_run = false;
                }
                if let Some(rest) = t.strip_prefix("- ") {
                    steps.push(Step::default());
                    in_env = false;
                    if let Some(n) = rest.strip_prefix("name:") {
                        steps.last_mut().expect("step").name = unquote(n);
                    }
                    continue;
                }
                let Some(s) = steps.last_mut() else { continue };
                if indent == 6 {
                    in_env = t == "env:";
                    if let Some(w) = t.strip_prefix("working-directory:") {
                        s.working_directory = Some(unquote(w));
                    } else if t == "run: |" {
                        in_run = true;
                    }
                } else if indent == 8 && in_env {
                    let (k, v) = t.split_once(':').expect("KEY: value");
                    s.env.push((k.to_string(), unquote(v)));
                }
            }
            _ => {}
        }
    }
    (
        inputs,
        steps.into_iter().filter(|s| !s.run.is_empty()).collect(),
    )
}

/// `${{ … }}` of the values the steps read: inputs, `runner.temp` and the
/// pull request's base.
fn expand(v: &str, inputs: &BTreeMap<String, String>, temp: &Path, base: &str) -> String {
    let mut out = v.to_string();
    while let Some(start) = out.find("${{") {
        let end = start + out[start..].find("}}").expect("closed") + 2;
        let expr = out[start + 3..end - 2].trim();
        let value = if let Some(name) = expr.strip_prefix("inputs.") {
            expand(&inputs[name], inputs, temp, base)
        } else if expr == "runner.temp" {
            temp.display().to_string()
        } else if expr == "github.event.pull_request.base.sha" {
            base.to_string()
        } else {
            panic!("an expression the test does not know: {expr}")
        };
        out.replace_range(start..end, &value);
    }
    out
}

/// What one run of the action's steps printed and exited with, by step.
fn run_action(
    repo: &Path,
    temp: &Path,
    base: &str,
    given: &[(&str, &str)],
) -> Vec<(String, Option<i32>, String)> {
    let text = std::fs::read_to_string(root().join("action.yml")).expect("action.yml");
    let (mut inputs, steps) = read_action(&text);
    for (k, v) in given {
        assert!(inputs.contains_key(*k), "no input {k}");
        inputs.insert(k.to_string(), v.to_string());
    }
    let _ = std::fs::remove_dir_all(temp);
    std::fs::create_dir_all(temp).expect("temp");
    let github_path = temp.join("github_path");
    std::fs::write(&github_path, "").expect("write");
    let mut results = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let script = temp.join(format!("step{i}.sh"));
        std::fs::write(&script, &step.run).expect("script");
        let output = temp.join(format!("output{i}"));
        std::fs::write(&output, "").expect("write");
        let added = std::fs::read_to_string(&github_path).expect("read");
        let path = std::env::join_paths(added.lines().rev().map(PathBuf::from).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ))
        .expect("PATH");
        let dir = match &step.working_directory {
            Some(w) => repo.join(expand(w, &inputs, temp, base)),
            None => repo.to_path_buf(),
        };
        let mut c = Command::new("bash");
        c.args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&script)
            .current_dir(dir)
            .env("PATH", path)
            .env("GITHUB_ACTION_PATH", root())
            .env("RUNNER_TEMP", temp)
            .env("GITHUB_PATH", &github_path)
            .env("GITHUB_OUTPUT", &output);
        for (k, v) in &step.env {
            c.env(k, expand(v, &inputs, temp, base));
        }
        let o = c.output().expect("bash");
        results.push((step.name.clone(), o.status.code(), text_of(&o)));
    }
    results
}

fn text_of(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn git(dir: &Path, args: &[&str]) -> Output {
    let o = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("PERMC", PERMC)
        .output()
        .expect("git");
    o
}

fn git_ok(dir: &Path, args: &[&str]) -> String {
    let o = git(dir, args);
    assert!(o.status.success(), "git {args:?}: {}", text_of(&o));
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

fn add_allow(path: &Path, extra: &str) {
    let mut p: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).expect("read")).expect("json");
    p["allow"]
        .as_array_mut()
        .expect("allow")
        .push(serde_json::Value::from(extra));
    std::fs::write(path, serde_json::to_string_pretty(&p).expect("json")).expect("write");
}

fn step<'r>(results: &'r [(String, Option<i32>, String)], name: &str) -> (Option<i32>, &'r str) {
    let r = results
        .iter()
        .find(|r| r.0.starts_with(name))
        .unwrap_or_else(|| panic!("no step {name}: {results:?}"));
    (r.1, &r.2)
}

#[test]
fn the_action_runs_on_a_pull_request() {
    let d = files::scratch("ci", "action");
    let repo = d.join("repo");
    let rules = repo.join("agents");
    std::fs::create_dir_all(&rules).expect("dir");
    for f in ["permissions.json", "autonomy.json"] {
        std::fs::copy(root().join("examples").join(f), rules.join(f)).expect("copy");
    }
    git_ok(&repo, &["init", "-q"]);
    git_ok(&repo, &["add", "."]);
    git_ok(&repo, &["commit", "-qm", "base"]);
    let base = git_ok(&repo, &["rev-parse", "HEAD"]);
    add_allow(&rules.join("permissions.json"), "Terminal(rm -rf build)");
    git_ok(&repo, &["commit", "-qam", "head"]);
    let temp = d.join("runner-temp");

    // A pull request granting more, checked in the rules' folder.
    let r = run_action(
        &repo,
        &temp,
        &base,
        &[("permc", PERMC), ("working-directory", "agents")],
    );
    assert_eq!(r.len(), 4, "build, sarif, annotations, diff: {r:?}");
    assert_eq!(step(&r, "Build").0, Some(0), "{r:?}");
    let (code, out) = step(&r, "permc check (SARIF)");
    assert_eq!(code, Some(0), "{out}");
    let sarif: serde_json::Value =
        serde_json::from_slice(&std::fs::read(temp.join("permc.sarif")).expect("sarif"))
            .expect("json");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty(), "{sarif}");
    let uri = results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        .as_str()
        .expect("uri");
    assert!(!uri.starts_with('/'), "{uri}");
    let output = std::fs::read_to_string(temp.join("output1")).expect("output");
    assert!(output.starts_with("sarif="), "{output}");
    // Warnings only: annotated, and the run passes at fail-level error.
    let (code, out) = step(&r, "permc check (annotations)");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("::warning file=agents/permissions.json,line=30,"),
        "paths relative to the repository's top level: {out}"
    );
    assert!(out.contains("file=agents/autonomy.json,"), "{out}");
    let (code, out) = step(&r, "permc diff");
    assert_eq!(code, Some(1), "more permissive fails: {out}");
    assert!(
        out.contains("::warning file=agents/permissions.json,line=")
            && out.contains("rm -rf build"),
        "{out}"
    );

    // From the top level, the files named; warnings failing the run; the
    // base the head itself: no change.
    let head = git_ok(&repo, &["rev-parse", "HEAD"]);
    let r = run_action(
        &repo,
        &temp,
        &head,
        &[
            ("permc", PERMC),
            ("files", "agents/permissions.json agents/autonomy.json"),
            ("fail-level", "warning"),
        ],
    );
    let (code, out) = step(&r, "permc check (annotations)");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("file=agents/permissions.json,line=30,"),
        "{out}"
    );
    let (code, out) = step(&r, "permc diff");
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("::"), "no change, no annotation: {out}");

    // Not a pull request (no base): the diff says so and passes.
    let r = run_action(
        &repo,
        &temp,
        "",
        &[("permc", PERMC), ("working-directory", "agents")],
    );
    let (code, out) = step(&r, "permc diff");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("no base revision"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The plain git hook checks the staged files with the permc.toml that
/// `permc check` (and so the pre-commit tool's hook) finds from the
/// repository's top level: a suppressed warning does not refuse a commit
/// under `--deny warnings`, another warning does.
#[test]
fn the_plain_hook_honours_permc_toml() {
    let d = files::scratch("ci", "hook");
    git_ok(&d, &["init", "-q"]);
    std::fs::write(
        d.join("permissions.json"),
        "{\"allow\": [\"Terminal(ls)\", \"Terminal(npm run)\"]}\n",
    )
    .expect("write");
    std::fs::write(
        d.join("permc.toml"),
        "[[check.allow]]\ncheck = \"broad-always-expansion\"\nentry = \"Terminal(npm run)\"\nreason = \"our scripts are reviewed\"\n",
    )
    .expect("write");
    let hook = d.join(".git/hooks/pre-commit");
    std::fs::copy(root().join("examples/pre-commit"), &hook).expect("copy");
    let chmod = Command::new("chmod")
        .arg("+x")
        .arg(&hook)
        .status()
        .expect("chmod");
    assert!(chmod.success());
    let commit = |msg: &str| {
        Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.invalid",
                "-c",
                "commit.gpgsign=false",
                "commit",
                "-qm",
                msg,
            ])
            .current_dir(&d)
            .env("PERMC", PERMC)
            .env("PERMC_CHECK_ARGS", "--deny warnings")
            .output()
            .expect("git commit")
    };
    git_ok(&d, &["add", "."]);
    let o = commit("rules");
    assert!(
        o.status.success(),
        "permc check accepts it: {}",
        text_of(&o)
    );
    // Another broad entry, staged, not suppressed.
    std::fs::write(
        d.join("permissions.json"),
        "{\"allow\": [\"Terminal(ls)\", \"Terminal(npm run)\", \"Terminal(npx)\"]}\n",
    )
    .expect("write");
    git_ok(&d, &["add", "permissions.json"]);
    let o = commit("more");
    let out = text_of(&o);
    assert!(!o.status.success(), "{out}");
    assert!(
        out.contains("Terminal(npx)") && !out.contains("`Terminal(npm run)` in allow"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
