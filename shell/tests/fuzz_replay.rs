//! Replays the `shell` fuzz target's committed corpus (seeds,
//! coverage-increasing finds, past crashes) through the reading half of
//! its check, on stable: permc-shell's own `cargo test -p permc-shell`
//! keeps every input the fuzzer kept read without a panic, with the fast
//! path and the general reader agreeing. The workspace's
//! `tests/fuzz_replay.rs` replays the same inputs through the whole check
//! (both engines, amplified inputs).

#[path = "../../fuzz/src/reading.rs"]
mod reading;

use std::path::Path;

#[test]
fn shell_corpus_reads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut ran = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join("shell")) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).expect("a corpus file reads");
            let src = String::from_utf8_lossy(&data);
            let outcome = std::panic::catch_unwind(|| reading::reading(&src));
            assert!(outcome.is_ok(), "{} fails its check", f.display());
            ran += 1;
        }
    }
    assert!(ran > 0, "no corpus for the shell fuzz target");
}
