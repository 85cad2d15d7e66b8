//! The pre-commit hooks of `.pre-commit-hooks.yaml` (issue 11 pt 4), run
//! for real: the `pre-commit` tool installs them from a git repository
//! holding this manifest into a scratch project, and `git commit` runs
//! them on the staged rule files — `permc-check-system` and
//! `permc-diff-system` with the permc just built on the PATH. The
//! `language: rust` hooks are the same entries; their manifest is
//! validated by pre-commit itself (building permc from a clone inside the
//! test would take minutes).
//!
//! Needs `pre-commit` (installed here with pip when missing). When it
//! cannot be installed the test is skipped with a message, unless
//! `PERMC_REQUIRE_PRE_COMMIT` is set (as `.ci/run` does).

#[path = "support/files.rs"]
mod files;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PERMC: &str = env!("CARGO_BIN_EXE_permc");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How to run pre-commit here, installing it with pip when missing.
fn pre_commit() -> Option<Vec<String>> {
    let works = |cmd: &[&str]| {
        Command::new(cmd[0])
            .args(&cmd[1..])
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let candidates: [&[&str]; 2] = [&["pre-commit"], &["python3", "-m", "pre_commit"]];
    for c in candidates {
        if works(c) {
            return Some(c.iter().map(|s| s.to_string()).collect());
        }
    }
    for extra in [&[][..], &["--break-system-packages"][..]] {
        let ok = Command::new("python3")
            .args(["-m", "pip", "install", "--quiet", "pre-commit"])
            .args(extra)
            .status()
            .is_ok_and(|s| s.success());
        if ok && works(&["python3", "-m", "pre_commit"]) {
            return Some(vec!["python3".into(), "-m".into(), "pre_commit".into()]);
        }
    }
    None
}

fn run(dir: &Path, cmd: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Output {
    let mut c = Command::new(cmd[0]);
    c.current_dir(dir).args(&cmd[1..]);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("runs")
}

fn git(dir: &Path, args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Output {
    let mut cmd = vec![
        "git",
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "-c",
        "commit.gpgsign=false",
    ];
    cmd.extend_from_slice(args);
    run(dir, &cmd, env)
}

fn ok(o: Output) -> Output {
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn add_allow(path: &Path, extra: &[&str]) {
    let mut p: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).expect("read")).expect("json");
    for e in extra {
        p["allow"]
            .as_array_mut()
            .expect("allow")
            .push(serde_json::Value::from(*e));
    }
    std::fs::write(path, serde_json::to_string_pretty(&p).expect("json")).expect("write");
}

/// The environment the hooks run in: pre-commit's cache in the scratch
/// folder, the permc just built first on the PATH, no colours.
type Env<'a> = [(&'a str, &'a std::ffi::OsStr)];

#[test]
fn the_hooks_run_in_a_real_commit() {
    let Some(pc) = pre_commit() else {
        assert!(
            std::env::var_os("PERMC_REQUIRE_PRE_COMMIT").is_none(),
            "pre-commit is required (PERMC_REQUIRE_PRE_COMMIT) and could not be installed"
        );
        eprintln!(
            "SKIPPED the pre-commit hook test: pre-commit is not installed and \
             `python3 -m pip install pre-commit` failed; install it to run this test"
        );
        return;
    };
    let pc: Vec<&str> = pc.iter().map(String::as_str).collect();
    pre_commit_accepts_the_manifest(&pc);
    let d = files::scratch("hooks", "commit");
    let cache = d.join("pre-commit-cache");
    let bin = Path::new(PERMC).parent().expect("bin folder");
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH");
    let env: &Env = &[
        ("PRE_COMMIT_HOME", cache.as_os_str()),
        ("PATH", path.as_os_str()),
        ("PRE_COMMIT_COLOR", std::ffi::OsStr::new("never")),
    ];
    let (hooks, rev) = a_repository_of_the_hooks(&d, env);
    let p = a_project_with_the_hooks_installed(&d, (&hooks, &rev), &pc, env);
    let perms = p.join("agents").join("permissions.json");
    the_diff_hook_fails_a_change_that_grants_more(&p, &perms, env);
    a_change_a_ceiling_neutralizes_is_shown_and_passes(&p, &perms, env);
    the_check_hook_fails_a_rule_file_permc_rejects(&p, &perms, env);
}

/// pre-commit with `args` after it.
fn pre_commit_run(pc: &[&str], dir: &Path, args: &[&str], env: &Env) -> Output {
    let cmd: Vec<&str> = pc.iter().chain(args).copied().collect();
    run(dir, &cmd, env)
}

/// pre-commit itself accepts the manifest, the rust hooks included.
fn pre_commit_accepts_the_manifest(pc: &[&str]) {
    let manifest = root().join(".pre-commit-hooks.yaml");
    let m = manifest.display().to_string();
    ok(pre_commit_run(pc, &root(), &["validate-manifest", &m], &[]));
}

/// A repository holding the manifest, as a published permc would be: its
/// folder and its commit.
fn a_repository_of_the_hooks(d: &Path, env: &Env) -> (PathBuf, String) {
    let hooks = d.join("permc-hooks");
    std::fs::create_dir_all(&hooks).expect("dir");
    let manifest = root().join(".pre-commit-hooks.yaml");
    std::fs::copy(&manifest, hooks.join(".pre-commit-hooks.yaml")).expect("copy");
    ok(git(&hooks, &["init", "-q"], env));
    ok(git(&hooks, &["add", "."], env));
    ok(git(&hooks, &["commit", "-qm", "hooks"], env));
    let rev = ok(git(&hooks, &["rev-parse", "HEAD"], env));
    let rev = String::from_utf8_lossy(&rev.stdout).trim().to_string();
    (hooks, rev)
}

/// The project: the example rules in a subfolder, committed, the hooks
/// installed.
fn a_project_with_the_hooks_installed(
    d: &Path,
    (hooks, rev): (&Path, &str),
    pc: &[&str],
    env: &Env,
) -> PathBuf {
    let p = d.join("project");
    let rules = p.join("agents");
    std::fs::create_dir_all(&rules).expect("dir");
    for f in ["permissions.json", "autonomy.json"] {
        std::fs::copy(root().join("examples").join(f), rules.join(f)).expect("copy");
    }
    std::fs::write(
        p.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: permc-check-system\n      - id: permc-diff-system\n        args: [--fail-on, more-permissive]\n",
            hooks.display()
        ),
    )
    .expect("write");
    ok(git(&p, &["init", "-q"], env));
    ok(git(&p, &["add", "."], env));
    ok(git(&p, &["commit", "-qm", "rules"], env));
    ok(pre_commit_run(pc, &p, &["install"], env));
    p
}

/// A change that grants more: the diff hook shows it and fails.
fn the_diff_hook_fails_a_change_that_grants_more(p: &Path, perms: &Path, env: &Env) {
    add_allow(perms, &["Terminal(rm -rf build)", "Terminal(git push)"]);
    ok(git(p, &["add", "."], env));
    let o = git(p, &["commit", "-m", "more"], env);
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(
        out.contains("permc check (permc on PATH)") && out.contains("Passed"),
        "{out}"
    );
    assert!(out.contains("permc diff (permc on PATH)"), "{out}");
    assert!(out.contains("Failed"), "{out}");
    assert!(
        out.contains("more-permissive  rm -rf build …: was uncovered, now allow"),
        "{out}"
    );
    assert!(
        out.contains("entry    Terminal(rm -rf build) at agents/permissions.json:46:5"),
        "{out}"
    );
    assert!(
        out.contains("no effect in this context: ceiling.external_effect"),
        "{out}"
    );
}

/// Only the change a ceiling neutralizes: shown (verbose), and passes.
fn a_change_a_ceiling_neutralizes_is_shown_and_passes(p: &Path, perms: &Path, env: &Env) {
    ok(git(p, &["checkout", "--", "."], env));
    ok(git(p, &["reset", "-q", "--hard"], env));
    add_allow(perms, &["Terminal(git push)"]);
    ok(git(p, &["add", "."], env));
    let o = git(p, &["commit", "-m", "push"], env);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("no effect        git push …: was uncovered, now allow"),
        "{out}"
    );
}

/// A rule file permc would reject: the check hook fails the commit.
fn the_check_hook_fails_a_rule_file_permc_rejects(p: &Path, perms: &Path, env: &Env) {
    std::fs::write(perms, "{\"allow\": [\"Terminal(ls\"]}\n").expect("write");
    ok(git(p, &["add", "."], env));
    let o = git(p, &["commit", "-m", "broken"], env);
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("agents/permissions.json:1:"), "{out}");
}
