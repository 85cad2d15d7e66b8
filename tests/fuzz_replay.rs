//! Replays the committed fuzz corpora on stable (`cargo test`), so every
//! input the fuzzers kept — seeds, coverage-increasing finds and past
//! crashes — stays checked without nightly. The checks are the fuzz
//! targets' own (`fuzz/src/checks.rs`, compiled here through `#[path]`);
//! see docs/testing.md, "Fuzzing", for running the fuzzers.

#[path = "../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

use std::path::Path;

/// Runs `check` on every file of `fuzz/corpus/<target>` and of
/// `fuzz/regressions/<target>` (crashes found, minimized), and says how
/// many it ran (a target with no input is a failure: the corpus is missing).
fn replay(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut ran = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).expect("a corpus file reads");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{target}: {} fails its check", f.display());
            ran += 1;
        }
    }
    assert!(ran > 0, "no corpus for fuzz target `{target}`");
}

#[test]
fn shell() {
    replay("shell", checks::shell);
}

/// The shapes that were quadratic, amplified and decided by both engines
/// (timed only under the fuzzer: see `checks::linear_on`).
#[test]
fn amplified_shapes() {
    checks::amplified_shapes();
}

#[test]
fn pattern() {
    replay("pattern", checks::pattern);
}

#[test]
fn rules() {
    replay("rules", checks::rules);
}

#[test]
fn request() {
    replay("request", checks::request);
}

#[test]
fn artifact() {
    replay("artifact", checks::artifact);
}

#[test]
fn analyzer() {
    replay("analyzer", checks::analyzer);
}

#[test]
fn differential() {
    replay("differential", checks::differential);
}

/// `permc tokens` says a line is unparsed exactly when `decide` reads it
/// so (SPEC §10.3 round 4: one reading), over every line the shell fuzzer
/// kept: both come from the facts the engines read.
#[test]
fn tokens_unparsed_is_decides() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/shell");
    let mut ran = 0;
    for e in std::fs::read_dir(root).expect("the shell corpus").flatten() {
        let data = std::fs::read(e.path()).expect("a corpus file reads");
        let command = String::from_utf8_lossy(&data);
        let tokens = permc_runtime::tokens_json(&command);
        let facts = permc_core::facts::LineFacts::of(&command);
        assert_eq!(
            tokens["unparsed"].as_bool(),
            Some(facts.unparsed),
            "{}: {command:?}",
            e.path().display()
        );
        ran += 1;
    }
    assert!(ran > 0);
}
