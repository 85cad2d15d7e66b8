//! `permc diff`'s regions are exact (issue 11): over a small universe — a
//! vocabulary of words, every command of up to 3 words, generated policy
//! pairs — brute force (each command classified by a linear scan of the
//! entries, SPEC §5.3 step 6) agrees with the regions of the product
//! walk: every command whose class changes lies in exactly one region,
//! with that region's class pair; no unchanged command lies in any; every
//! witness lies in its region and really changes.
//!
//! The suite runs `PERMC_DIFF_PAIRS` generated pairs (default 300) over
//! commands of up to `PERMC_DIFF_WORDS` words (default 3: every command
//! of 0 to 3 of the 8 words, 585), plus proptest. The larger run docs/diff.md
//! reports, in release — 5 words, 37,449 commands:
//! `PERMC_DIFF_PAIRS=20000 PERMC_DIFF_WORDS=5 cargo test --release --test diff
//! regions_equal_brute_force_exhaustively`.

use permc_compiler::diff::{self, Class, Region};
use permc_compiler::{compile, CompiledPolicy};
use permc_grammar::pattern::Pattern;
use permc_grammar::rules::{load_permissions, Permissions};
use proptest::prelude::*;

/// Words commands are made of: exact tokens of the patterns, words that
/// only a wildcard matches, and words no pattern names.
const WORDS: &[&str] = &["a", "ab", "abc", "b", "-r", "x", "a:1", "a:"];

/// Tokens patterns are made of (`*` at the end: a prefix wildcard).
const TOKENS: &[&str] = &["a", "ab", "b", "-r", "a*", "ab*", "a:*", "x", "b*"];

fn permissions(lists: &[Vec<String>; 3]) -> Permissions {
    let json = serde_json::json!({"deny": lists[0], "ask": lists[1], "allow": lists[2]});
    load_permissions("permissions.json", json.to_string().as_bytes())
        .value
        .expect("generated rules load")
}

/// SPEC §5.3 step 6 for one segment, by a linear scan.
fn brute_class(p: &Permissions, words: &[&str]) -> Class {
    let m = |l: &[permc_grammar::rules::Entry]| l.iter().any(|e| e.pattern.matches_words(words));
    if m(&p.deny) {
        Class::Deny
    } else if m(&p.ask) {
        Class::Ask
    } else if m(&p.allow) {
        Class::Allow
    } else {
        Class::Uncovered
    }
}

fn universe(max_words: usize) -> Vec<Vec<&'static str>> {
    let mut all: Vec<Vec<&str>> = vec![vec![]];
    let mut layer: Vec<Vec<&str>> = vec![vec![]];
    for _ in 0..max_words {
        let mut next = Vec::new();
        for c in &layer {
            for w in WORDS {
                let mut v = c.clone();
                v.push(*w);
                next.push(v);
            }
        }
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

/// Checks one pair; returns (changed commands, regions).
fn check_pair(
    old: &[Vec<String>; 3],
    new: &[Vec<String>; 3],
    commands: &[Vec<&str>],
) -> (usize, usize) {
    let (po, pn) = (permissions(old), permissions(new));
    let (co, cn): (CompiledPolicy, CompiledPolicy) = (
        compile(&po, &Default::default()),
        compile(&pn, &Default::default()),
    );
    let regions: Vec<Region> = diff::terminal(&co, &cn);
    let show = || format!("old {old:?}\nnew {new:?}\nregions {regions:#?}");
    for r in &regions {
        assert_ne!(r.old, r.new, "a region without a change\n{}", show());
        assert!(r.contains(&r.witness), "witness outside\n{}", show());
        let w: Vec<&str> = r.witness.iter().map(String::as_str).collect();
        assert_eq!(
            (brute_class(&po, &w), brute_class(&pn, &w)),
            (r.old, r.new),
            "witness {w:?}\n{}",
            show()
        );
        // The witness reads back as the same words.
        let line = diff::command_line(&r.witness);
        let again = permc_grammar::shell::read(&line);
        if !r.witness.is_empty() {
            assert_eq!(again.segments.len(), 1, "{line}");
            assert_eq!(again.segments[0].words, r.witness, "{line}");
        }
    }
    let mut changed = 0;
    for c in commands {
        let pair = (brute_class(&po, c), brute_class(&pn, c));
        let inside: Vec<&Region> = regions.iter().filter(|r| r.contains(c)).collect();
        if pair.0 == pair.1 {
            assert!(inside.is_empty(), "unchanged {c:?} in a region\n{}", show());
        } else {
            changed += 1;
            assert_eq!(inside.len(), 1, "changed {c:?} {pair:?}\n{}", show());
            assert_eq!((inside[0].old, inside[0].new), pair, "{c:?}\n{}", show());
        }
    }
    (changed, regions.len())
}

/// A small deterministic generator (xorshift), so the exhaustive run needs
/// no seed file.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pattern(&mut self) -> String {
        let n = self.below(4); // 0..=3 tokens; 0 is `Terminal()`, rarely kept
        let n = if n == 0 && self.below(4) != 0 { 1 } else { n };
        let toks: Vec<&str> = (0..n).map(|_| TOKENS[self.below(TOKENS.len())]).collect();
        format!("Terminal({})", toks.join(" "))
    }
    fn lists(&mut self) -> [Vec<String>; 3] {
        std::array::from_fn(|_| (0..self.below(4)).map(|_| self.pattern()).collect())
    }
    /// A pair: unrelated, or the new one a small edit of the old.
    fn pair(&mut self) -> ([Vec<String>; 3], [Vec<String>; 3]) {
        let old = self.lists();
        if self.below(2) == 0 {
            return (old, self.lists());
        }
        let mut new = old.clone();
        for _ in 0..=self.below(2) {
            let l = self.below(3);
            if !new[l].is_empty() && self.below(2) == 0 {
                let k = self.below(new[l].len());
                new[l].remove(k);
            } else {
                let p = self.pattern();
                new[l].push(p);
            }
        }
        (old, new)
    }
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn regions_equal_brute_force_exhaustively() {
    let commands = universe(env("PERMC_DIFF_WORDS", 3));
    let mut g = Gen(0x9E37_79B9_7F4A_7C15);
    let (mut changed, mut regions) = (0, 0);
    let pairs = env("PERMC_DIFF_PAIRS", 300);
    for _ in 0..pairs {
        let (old, new) = g.pair();
        let (c, r) = check_pair(&old, &new, &commands);
        changed += c;
        regions += r;
    }
    eprintln!(
        "{pairs} pairs, {} commands each: {changed} changed commands in {regions} regions",
        commands.len()
    );
    // Not vacuous: most pairs change something.
    assert!(
        changed > pairs * 10 && regions > pairs / 2,
        "{changed} {regions}"
    );
}

/// The numbers after `PERMC_DIFF_WORDS=` in `text`.
fn words_knob(text: &str) -> Vec<usize> {
    text.split("PERMC_DIFF_WORDS=")
        .skip(1)
        .filter_map(|t| {
            let n: String = t.chars().take_while(char::is_ascii_digit).collect();
            n.parse().ok()
        })
        .collect()
}

/// docs/diff.md and this file's header name the same larger run, and the
/// number of commands the page gives is what `PERMC_DIFF_WORDS` makes:
/// every command of up to that many words.
#[test]
fn the_larger_run_is_described_as_the_knob_does() {
    let readme = std::fs::read_to_string(root().join("docs/diff.md")).expect("docs/diff.md");
    let here = include_str!("diff.rs");
    let (r, h) = (words_knob(&readme), words_knob(here));
    assert_eq!(r.len(), 1, "docs/diff.md names the larger run once: {r:?}");
    assert!(
        !h.is_empty() && h.iter().all(|n| *n == r[0]),
        "docs/diff.md {r:?}, tests/diff.rs {h:?}"
    );
    let n = r[0];
    let said = format!("every command of up to {n} words (");
    let at = readme
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .split(&said)
        .nth(1)
        .map(|t| {
            t.chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .collect::<String>()
        })
        .unwrap_or_else(|| panic!("docs/diff.md: {said}…"));
    let count: usize = at.replace(',', "").parse().expect("a count");
    assert_eq!(
        count,
        universe(n).len(),
        "docs/diff.md's command count for {n} words"
    );
}

#[test]
fn every_pattern_token_parses() {
    for t in TOKENS {
        Pattern::parse(&format!("Terminal({t})")).expect("parses");
    }
}

fn lists_strategy() -> impl Strategy<Value = [Vec<String>; 3]> {
    let pattern = proptest::collection::vec(proptest::sample::select(TOKENS), 0..4)
        .prop_map(|t| format!("Terminal({})", t.join(" ")));
    let list = proptest::collection::vec(pattern, 0..4);
    (list.clone(), list.clone(), list).prop_map(|(a, b, c)| [a, b, c])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(env("PERMC_DIFF_CASES", 200) as u32))]
    #[test]
    fn regions_equal_brute_force(old in lists_strategy(), new in lists_strategy()) {
        check_pair(&old, &new, &universe(3));
    }
}

#[test]
fn the_issue_example_regions() {
    let old: [Vec<String>; 3] = [vec![], vec![], vec!["Terminal(git status)".into()]];
    let new: [Vec<String>; 3] = [
        vec![],
        vec![],
        vec![
            "Terminal(git status)".into(),
            "Terminal(rm -rf build)".into(),
            "Terminal(git push)".into(),
        ],
    ];
    let (co, cn) = (
        compile(&permissions(&old), &Default::default()),
        compile(&permissions(&new), &Default::default()),
    );
    let r = diff::terminal(&co, &cn);
    let shown: Vec<String> = r
        .iter()
        .map(|r| format!("{} {}→{}", r.pattern, r.old.name(), r.new.name()))
        .collect();
    assert_eq!(
        shown,
        [
            "git push … uncovered→allow",
            "rm -rf build … uncovered→allow"
        ]
    );
    assert_eq!(r[1].witness, ["rm", "-rf", "build"]);
    // A broader allow over a narrower one: one region with an exception.
    let old: [Vec<String>; 3] = [vec![], vec![], vec!["Terminal(git status)".into()]];
    let new: [Vec<String>; 3] = [vec![], vec![], vec!["Terminal(git)".into()]];
    let r = diff::terminal(
        &compile(&permissions(&old), &Default::default()),
        &compile(&permissions(&new), &Default::default()),
    );
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].pattern.to_string(), "git …");
    let ex: Vec<String> = r[0].except.iter().map(ToString::to_string).collect();
    assert_eq!(ex, ["git status …"]);
}

// ---------------------------------------------------------------------
// `permc diff` end to end.

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

/// examples/ as OLD, and NEW with `extra` added to allow.
fn example_pair(name: &str, extra: &[&str]) -> PathBuf {
    let d = files::scratch("diff", name);
    for v in ["old", "new"] {
        std::fs::create_dir_all(d.join(v)).expect("dir");
        for f in ["permissions.json", "autonomy.json"] {
            std::fs::copy(root().join("examples").join(f), d.join(v).join(f)).expect("copy");
        }
    }
    add_allow(&d.join("new/permissions.json"), extra);
    d
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

#[test]
fn the_issue_example_end_to_end() {
    let d = example_pair("issue", &["Terminal(rm -rf build)", "Terminal(git push)"]);
    let o = permc(&d, &["diff", "old", "new", "--format", "json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["version"], 1);
    let changes = v["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 2, "{v:#}");
    let by = |title: &str| {
        changes
            .iter()
            .find(|c| c["title"] == title)
            .unwrap_or_else(|| panic!("{title} in {v:#}"))
    };
    let rm = by("rm -rf build …");
    assert_eq!(rm["direction"], "more-permissive");
    assert_eq!(rm["effect"], true);
    assert_eq!(rm["witness"]["shown"], "rm -rf build");
    assert_eq!(rm["witness"]["before"]["policy"], "require_approval");
    assert_eq!(rm["witness"]["after"]["policy"], "auto_approve");
    assert_eq!(rm["entry"]["rule"], "Terminal(rm -rf build)");
    let push = by("git push …");
    assert_eq!(push["effect"], false);
    assert_eq!(
        push["witness"]["after"]["reason"],
        "ceiling.external_effect"
    );
    // The gate.
    let o = permc(&d, &["diff", "old", "new", "--fail-on", "more-permissive"]);
    assert_eq!(o.status.code(), Some(1));
    let human = String::from_utf8_lossy(&o.stdout);
    assert!(
        human.contains("more-permissive  rm -rf build …: was uncovered, now allow"),
        "{human}"
    );
    assert!(
        human.contains("no effect in this context: ceiling.external_effect"),
        "{human}"
    );
    // Only the no-effect change: the gate passes.
    let d = example_pair("push-only", &["Terminal(git push)"]);
    let o = permc(&d, &["diff", "old", "new", "--fail-on", "more-permissive"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // No change at all.
    let o = permc(&d, &["diff", "old", "old"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("no decision changes"));
}

#[test]
fn github_and_sarif_point_at_the_entry_in_new() {
    let d = example_pair("formats", &["Terminal(rm -rf build)"]);
    let o = permc(&d, &["diff", "old", "new", "--format", "github"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with("::warning file=new/permissions.json,line=46,col=5,"),
        "{text}"
    );
    let o = permc(&d, &["diff", "old", "new", "--format", "sarif"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let loc = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "new/permissions.json");
    assert_eq!(loc["region"]["startLine"], 46);
    validate_sarif(&d.join("diff.sarif"), &String::from_utf8_lossy(&o.stdout));
}

/// The SARIF 2.1.0 schema, as tests/check.rs validates check's output.
fn validate_sarif(file: &Path, sarif: &str) {
    std::fs::write(file, sarif).expect("write");
    let schema = root().join("tests/fixtures/sarif-schema-2.1.0.json");
    let script = "import json, sys\nimport jsonschema\n\
        v = jsonschema.Draft4Validator(json.load(open(sys.argv[1])))\n\
        errors = [f'{list(e.absolute_path)}: {e.message}' for e in v.iter_errors(json.load(open(sys.argv[2])))]\n\
        print('\\n'.join(errors))\nsys.exit(1 if errors else 0)\n";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&schema)
        .arg(file)
        .output();
    match out {
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("No module named 'jsonschema'") => {
            assert!(
                std::env::var_os("PERMC_REQUIRE_SCHEMA").is_none(),
                "python3 jsonschema is required"
            );
            eprintln!("SKIPPED SARIF schema validation: pip install jsonschema to run it");
        }
        Ok(o) => assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout)),
        Err(_) => eprintln!("SKIPPED SARIF schema validation: no python3"),
    }
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn base_and_staged_read_the_old_versions_from_git() {
    let d = files::scratch("diff", "git");
    git(&d, &["init", "-q"]);
    std::fs::copy(
        root().join("examples/permissions.json"),
        d.join("permissions.json"),
    )
    .expect("copy");
    git(&d, &["add", "permissions.json"]);
    git(&d, &["commit", "-qm", "rules"]);
    add_allow(&d.join("permissions.json"), &["Terminal(rm -rf build)"]);
    // Unstaged: --staged sees nothing, --base HEAD sees the working tree.
    let o = permc(&d, &["diff", "--staged", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["changes"].as_array().map(Vec::len), Some(0), "{v:#}");
    let o = permc(
        &d,
        &["diff", "--base", "HEAD", "--fail-on", "more-permissive"],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // No arguments: the working tree against HEAD, as `git diff` (issue
    // 43), the same report as --base HEAD.
    let bare = permc(&d, &["diff"]);
    assert_eq!(bare.status.code(), Some(0));
    assert_eq!(bare.stdout, permc(&d, &["diff", "--base", "HEAD"]).stdout);
    assert!(String::from_utf8_lossy(&bare.stdout).contains("rm -rf build …"));
    git(&d, &["add", "permissions.json"]);
    let o = permc(
        &d,
        &["diff", "--staged", "--format", "json", "permissions.json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["changes"][0]["title"], "rm -rf build …", "{v:#}");
    // A file new in the commit: its old version is empty.
    std::fs::write(
        d.join("autonomy.json"),
        r#"{"dev-x": {"*": "auto_approve"}}"#,
    )
    .expect("write");
    git(&d, &["add", "autonomy.json"]);
    let o = permc(&d, &["diff", "--staged", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let autonomy = v["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter(|c| c["kind"] == "autonomy")
        .count();
    assert_eq!(autonomy, 20, "{v:#}");
    assert_eq!(v["changes"][1]["automaticSwitch"], true, "{v:#}");
}

/// The issue's example in every format, as a reviewer and a machine read
/// it (insta snapshots).
#[test]
fn the_issue_example_in_every_format() {
    let d = example_pair(
        "snapshots",
        &["Terminal(rm -rf build)", "Terminal(git push)"],
    );
    let context = r#"{"projectScopeRoot": "/home/ana/p"}"#;
    for format in ["human", "json", "github", "sarif"] {
        let o = permc(
            &d,
            &[
                "diff",
                "old",
                "new",
                "--context",
                context,
                "--format",
                format,
                "--fail-on",
                "more-permissive",
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{format}");
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let text = if format == "json" || format == "sarif" {
            let v: serde_json::Value = serde_json::from_str(&text).expect("json");
            let mut pretty = serde_json::to_string_pretty(&v).expect("json");
            pretty = pretty.replace(env!("CARGO_PKG_VERSION"), "<version>");
            pretty
        } else {
            text
        };
        insta::assert_snapshot!(format!("diff_issue_example_{format}"), text);
    }
}

/// What a pre-commit hook passes: only the staged files, from the
/// repository's root, perhaps in several folders. Each folder is compared
/// with its own other rule file, so an autonomy change is witnessed with
/// the permissions.json beside it.
#[test]
fn staged_files_in_folders_are_compared_with_their_siblings() {
    let d = files::scratch("diff", "folders");
    git(&d, &["init", "-q"]);
    for sub in ["api", "web"] {
        std::fs::create_dir_all(d.join(sub)).expect("dir");
        for f in ["permissions.json", "autonomy.json"] {
            std::fs::copy(root().join("examples").join(f), d.join(sub).join(f)).expect("copy");
        }
    }
    git(&d, &["add", "."]);
    git(&d, &["commit", "-qm", "rules"]);
    add_allow(&d.join("web/permissions.json"), &["Terminal(rm -rf build)"]);
    let auto = d.join("api/autonomy.json");
    let mut a: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&auto).expect("read")).expect("json");
    a["dev-api"]["git_commit"] = "deny".into();
    std::fs::write(&auto, a.to_string()).expect("write");
    git(&d, &["add", "."]);
    let o = permc(
        &d,
        &[
            "diff",
            "--staged",
            "--format",
            "json",
            "api/autonomy.json",
            "web/permissions.json",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let changes = v["changes"].as_array().expect("changes");
    let shown: Vec<(String, String, String)> = changes
        .iter()
        .map(|c| {
            (
                c["file"].as_str().unwrap_or("").to_string(),
                c["title"].as_str().unwrap_or("").to_string(),
                c["direction"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            (
                "api/autonomy.json".to_string(),
                "dev-api: git_commit".to_string(),
                "less-permissive".to_string()
            ),
            (
                "web/permissions.json".to_string(),
                "rm -rf build …".to_string(),
                "more-permissive".to_string()
            ),
        ],
        "{v:#}"
    );
    // The autonomy change's witness was decided with api/permissions.json:
    // GitCommit() in its allow list approved the commit before (without
    // it, dev-api's wildcard would have).
    assert_eq!(
        changes[0]["witness"]["before"]["reason"], "file.allow",
        "{v:#}"
    );
    assert_eq!(changes[0]["witness"]["after"]["policy"], "deny", "{v:#}");
}

/// Issue 11: `--base` and `--staged` read git's versions of the files
/// wherever permc runs: from a subfolder (the project's files found above
/// it) and with absolute paths. A path git is given must name the file,
/// never read as "missing at that revision" (then every entry would be
/// new, or `--fail-on` would pass on a change it cannot see).
#[test]
fn base_and_staged_work_from_a_subfolder_and_with_absolute_paths() {
    let d = files::scratch("diff", "git-subfolder");
    git(&d, &["init", "-q"]);
    std::fs::copy(
        root().join("examples/permissions.json"),
        d.join("permissions.json"),
    )
    .expect("copy");
    std::fs::create_dir_all(d.join("sub")).expect("dir");
    git(&d, &["add", "permissions.json"]);
    git(&d, &["commit", "-qm", "rules"]);
    add_allow(&d.join("permissions.json"), &["Terminal(rm -rf build)"]);
    let sub = d.join("sub");
    let abs = d.join("permissions.json");
    let abs = abs.to_str().expect("utf-8");
    let titles = |o: &Output| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|_| {
            panic!(
                "json: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )
        });
        v["changes"]
            .as_array()
            .expect("changes")
            .iter()
            .map(|c| c["title"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let want = ["rm -rf build …".to_string()];
    // --base: the working tree against HEAD.
    for (dir, paths) in [(&sub, vec![]), (&sub, vec![abs]), (&d, vec![abs])] {
        let mut args = vec!["diff", "--base", "HEAD", "--format", "json"];
        args.extend(&paths);
        assert_eq!(titles(&permc(dir, &args)), want, "{args:?} in {dir:?}");
        let mut args = vec!["diff", "--base", "HEAD", "--fail-on", "more-permissive"];
        args.extend(&paths);
        assert_eq!(permc(dir, &args).status.code(), Some(1), "{args:?}");
    }
    // --staged: nothing staged yet, then the change.
    for (dir, paths) in [(&sub, vec![]), (&sub, vec![abs]), (&d, vec![abs])] {
        let mut args = vec!["diff", "--staged", "--format", "json"];
        args.extend(&paths);
        assert!(titles(&permc(dir, &args)).is_empty(), "{args:?} in {dir:?}");
    }
    git(&d, &["add", "permissions.json"]);
    for (dir, paths) in [(&sub, vec![]), (&sub, vec![abs]), (&d, vec![abs])] {
        let mut args = vec!["diff", "--staged", "--format", "json"];
        args.extend(&paths);
        assert_eq!(titles(&permc(dir, &args)), want, "{args:?} in {dir:?}");
        let mut args = vec!["diff", "--staged", "--fail-on", "more-permissive"];
        args.extend(&paths);
        let o = permc(dir, &args);
        assert_eq!(
            o.status.code(),
            Some(1),
            "{args:?} in {dir:?}: {}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
    // A file outside the repository is an error, never "absent in HEAD".
    let outside = files::scratch("diff", "git-outside");
    std::fs::copy(
        root().join("examples/permissions.json"),
        outside.join("permissions.json"),
    )
    .expect("copy");
    let out = outside.join("permissions.json");
    let o = permc(
        &d,
        &["diff", "--base", "HEAD", out.to_str().expect("utf-8")],
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not in the git repository"), "{err}");
}

/// Moves `entry` from list `from` to list `to` of a permissions.json.
fn move_entry(path: &Path, entry: &str, from: &str, to: &str) {
    let mut p: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).expect("read")).expect("json");
    let list = p[from].as_array_mut().expect("list");
    let before = list.len();
    list.retain(|e| e != entry);
    assert_eq!(list.len() + 1, before, "{entry} in {from}");
    p[to].as_array_mut().expect("list").push(entry.into());
    std::fs::write(path, serde_json::to_string_pretty(&p).expect("json")).expect("write");
}

/// Issue 11: a typed label moved from ask to allow is one `typed` change,
/// more permissive and without effect: in the default context (a
/// developer) git_push needs the role maintainer (`iam.min_role`); for a
/// maintainer the ceiling `ceiling.typed_external` keeps every git_push
/// waiting for a person. So the gate passes in both.
#[test]
fn a_typed_label_change_is_reported_with_why_it_has_no_effect() {
    let d = example_pair("typed", &[]);
    move_entry(&d.join("new/permissions.json"), "GitPush()", "ask", "allow");
    let maintainer = r#"{"role": "maintainer"}"#;
    for (context, policy, before, reason) in [
        (None, "deny", "iam.min_role", "iam.min_role"),
        (
            Some(maintainer),
            "require_approval",
            "file.ask",
            "ceiling.typed_external",
        ),
    ] {
        let mut args = vec!["diff", "old", "new", "--format", "json"];
        args.extend(context.iter().flat_map(|c| ["--context", c]));
        let v = files::ok_json(&permc(&d, &args));
        let changes = v["changes"].as_array().expect("changes");
        assert_eq!(changes.len(), 1, "{v:#}");
        let c = &changes[0];
        assert_eq!(c["kind"], "typed", "{v:#}");
        assert_eq!(c["title"], "GitPush()");
        assert_eq!(c["file"], "new/permissions.json");
        assert_eq!((&c["old"], &c["new"]), (&"ask".into(), &"allow".into()));
        assert_eq!(c["direction"], "more-permissive");
        assert_eq!(c["effect"], false, "{v:#}");
        assert_eq!(c["entry"]["rule"], "GitPush()");
        assert_eq!(c["entry"]["side"], "new");
        assert_eq!(c["entry"]["source"], "permissions.json:46:5");
        assert_eq!(c["witness"]["shown"], "git_push");
        for side in ["before", "after"] {
            assert_eq!(c["witness"][side]["policy"], policy, "{v:#}");
        }
        assert_eq!(c["witness"]["before"]["reason"], before, "{v:#}");
        assert_eq!(c["witness"]["after"]["reason"], reason, "{v:#}");
        assert!(c.get("region").is_none(), "{v:#}");
        assert_eq!(v["summary"]["noEffect"], 1, "{v:#}");
        assert_eq!(v["summary"]["morePermissive"], 0, "{v:#}");
        let mut args = vec!["diff", "old", "new", "--fail-on", "more-permissive"];
        args.extend(context.iter().flat_map(|c| ["--context", c]));
        let o = permc(&d, &args);
        assert_eq!(o.status.code(), Some(0));
        let human = String::from_utf8_lossy(&o.stdout);
        assert!(human.contains("GitPush(): was ask, now allow"), "{human}");
        assert!(
            human.contains(&format!("no effect in this context: {reason}")),
            "{human}"
        );
    }
}

/// Issue 11: an autonomy change's rows: one per agent and action type
/// whose resolved mode changes, each with the mode and its origin before
/// and after, the autonomy rule behind it, and a witness decided by that
/// agent; an agent's new wildcard `auto_approve` is an automatic switch,
/// one row per action type it now approves.
#[test]
fn an_autonomy_change_has_one_row_per_agent_and_type() {
    let d = example_pair("autonomy", &[]);
    change_two_agents_autonomy(&d);
    let maintainer = r#"{"role": "maintainer"}"#;
    let o = permc(
        &d,
        &[
            "diff",
            "old",
            "new",
            "--format",
            "json",
            "--context",
            maintainer,
        ],
    );
    let v = files::ok_json(&o);
    one_row_per_agent_and_type(&v);
    let changes = v["changes"].as_array().expect("changes");
    dev_apis_wildcard_is_an_automatic_switch_without_effect(&changes[0]);
    dev_webs_specific_rule_changes_the_decision(&changes[1]);
    for c in changes {
        assert!(c.get("region").is_none(), "{c:#}");
    }
    assert_eq!(v["summary"]["morePermissive"], 1, "{v:#}");
    assert_eq!(v["summary"]["noEffect"], 1, "{v:#}");
    let o = permc(
        &d,
        &[
            "diff",
            "old",
            "new",
            "--context",
            maintainer,
            "--fail-on",
            "more-permissive",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let human = String::from_utf8_lossy(&o.stdout);
    assert!(
        human.contains(
            "dev-web: container_remove: was deny (specific), now require_approval (specific)"
        ),
        "{human}"
    );
}

/// dev-api's git_push falls back to its wildcard; dev-web's
/// container_remove is asked instead of denied.
fn change_two_agents_autonomy(d: &Path) {
    let auto = d.join("new/autonomy.json");
    let mut a: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&auto).expect("read")).expect("json");
    // dev-api's git_push falls back to its wildcard; dev-web's
    // container_remove is asked instead of denied.
    a["dev-api"]
        .as_object_mut()
        .expect("dev-api")
        .remove("git_push");
    a["dev-web"]["container_remove"] = "require_approval".into();
    std::fs::write(&auto, serde_json::to_string_pretty(&a).expect("json")).expect("write");
}

/// The rows: dev-api's git_push and dev-web's container_remove, each with
/// the mode and its origin before and after.
fn one_row_per_agent_and_type(v: &serde_json::Value) {
    let rows: Vec<[String; 6]> = v["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            [
                c["kind"].as_str().unwrap_or("").to_string(),
                c["file"].as_str().unwrap_or("").to_string(),
                c["title"].as_str().unwrap_or("").to_string(),
                c["old"].as_str().unwrap_or("").to_string(),
                c["new"].as_str().unwrap_or("").to_string(),
                c["direction"].as_str().unwrap_or("").to_string(),
            ]
        })
        .collect();
    let row = |title: &str, old: &str, new: &str| {
        [
            "autonomy",
            "new/autonomy.json",
            title,
            old,
            new,
            "more-permissive",
        ]
        .map(String::from)
    };
    assert_eq!(
        rows,
        [
            row(
                "dev-api: git_push",
                "require_approval (specific)",
                "auto_approve (wildcard)"
            ),
            row(
                "dev-web: container_remove",
                "deny (specific)",
                "require_approval (specific)"
            ),
        ],
        "{v:#}"
    );
}

/// dev-api: its git_push now resolves to its wildcard auto_approve (an
/// automatic switch), but GitPush() in ask still asks: no effect.
fn dev_apis_wildcard_is_an_automatic_switch_without_effect(api: &serde_json::Value) {
    assert_eq!(api["automaticSwitch"], true, "{api:#}");
    assert_eq!(api["entry"]["rule"], "dev-api: * = auto_approve");
    assert_eq!(api["entry"]["side"], "new");
    assert_eq!(api["witness"]["shown"], "git_push by dev-api");
    assert_eq!(api["effect"], false, "{api:#}");
    assert_eq!(api["witness"]["after"]["reason"], "file.ask", "{api:#}");
    assert_eq!(api["witness"]["after"]["autonomyOrigin"], "wildcard");
}

/// dev-web: the specific rule changes, and so does the decision.
fn dev_webs_specific_rule_changes_the_decision(web: &serde_json::Value) {
    assert_eq!(web["automaticSwitch"], false, "{web:#}");
    assert_eq!(
        web["entry"]["rule"],
        "dev-web: container_remove = require_approval"
    );
    assert_eq!(web["witness"]["shown"], "container_remove by dev-web");
    assert_eq!(web["effect"], true, "{web:#}");
    assert_eq!(web["witness"]["before"]["reason"], "autonomy.deny");
    assert_eq!(
        web["witness"]["after"]["reason"],
        "autonomy.require_approval"
    );
}

/// What no command line makes readable: `source` runs a file's text,
/// `bun exec` a shell line it is given as one word, and the image and
/// service runners an entrypoint the line does not show (SPEC §4.3):
/// every command of these entries asks, so adding one has no effect.
const UNREADABLE: &[&str] = &[
    "bun exec",
    // SPEC §4.3 round 4: starting a container or a compose project
    // runs entrypoints too.
    "docker start",
    "podman start",
    "nerdctl start",
    "docker restart",
    "podman restart",
    "nerdctl restart",
    "docker-compose create",
    "docker-compose restart",
    "docker-compose start",
    "docker-compose up",
    "podman-compose create",
    "podman-compose restart",
    "podman-compose start",
    "podman-compose up",
    "docker-compose run",
    "docker-service create",
    "nerdctl create",
    "nerdctl run",
    "oc run",
    "podman create",
    "podman run",
    "podman-compose run",
    "source",
    // osascript runs AppleScript from `-e`, a file or standard input:
    // every line of it is unparsed.
    "osascript",
    // `pueue add` hands its words to a daemon's `sh -c`, as `bun exec`.
    "pueue add",
];

/// The gate's witnesses cover what an added entry admits (issue 43): for
/// every program the catalogue describes as a shell, an interpreter, a
/// script reader, a wrapper or a runner, and for a plain reader, a git
/// subcommand and remote clients, adding its broadest allow entry (the
/// program alone, or a runner's words) to allow is more permissive with an
/// effect — unless a ceiling that no continuation escapes (external
/// effect, privilege) holds every command of it. Before, `Terminal(sh)`
/// was "no effect": its only witness, `sh` alone, reads standard input.
#[test]
fn adding_any_programs_broadest_entry_is_found_by_the_gate() {
    use permc_shell::facts::catalogue;
    let mut entries: Vec<String> = catalogue::code_programs()
        .chain(["cat", "ls", "grep"])
        .map(str::to_string)
        .collect();
    entries.extend(catalogue::runners().map(|r| r.join(" ")));
    entries.extend(
        [
            "git log",
            "git",
            "gh",
            "gh pr",
            "kubectl get",
            "bash -c",
            "sh -c",
        ]
        .map(String::from),
    );
    entries.sort();
    entries.dedup();
    // Patterns can hold only words a pattern can spell.
    entries.retain(|e| !e.contains(['(', ')', '*', '[', '.']));
    let mut missed = Vec::new();
    let mut held = 0;
    for (i, e) in entries.iter().enumerate() {
        let d = example_pair(&format!("broadest-{i}"), &[&format!("Terminal({e})")]);
        let o = permc(&d, &["diff", "old", "new", "--format", "json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|_| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        let changes = v["changes"].as_array().expect("changes");
        if changes.is_empty() {
            // examples/ allows it already, or denies or asks for it.
            continue;
        }
        let found = changes
            .iter()
            .any(|c| c["direction"] == "more-permissive" && c["effect"] == true);
        let ceiling = changes.iter().all(|c| {
            let reason = c["witness"]["after"]["reason"].as_str().unwrap_or("");
            reason.starts_with("ceiling.") && reason != "ceiling.unparsed"
        });
        if found {
            let gate = permc(&d, &["diff", "old", "new", "--fail-on", "more-permissive"]);
            assert_eq!(gate.status.code(), Some(1), "{e}");
        } else if ceiling {
            held += 1;
        } else {
            missed.push(format!("{e}: {:#}", changes[0]["witness"]));
        }
    }
    missed.retain(|m| !UNREADABLE.iter().any(|u| m.starts_with(&format!("{u}: "))));
    assert!(
        missed.is_empty(),
        "not found by the gate:\n{}",
        missed.join("\n")
    );
    assert!(
        held < entries.len() / 4,
        "{held} of {} held by a ceiling",
        entries.len()
    );
}
