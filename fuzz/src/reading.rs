//! The reading half of the `shell` fuzz target's check: what permc-shell
//! alone must hold for any line. Compiled three times: by the fuzz crate
//! (through `checks.rs`), by the workspace's `tests/fuzz_replay.rs` and by
//! permc-shell's own `tests/fuzz_replay.rs`, so it uses permc-shell only.

use permc_shell::facts::LineFacts;
use permc_shell::reader as shell;

/// Shell reader (SPEC §4): never panics; `read` and `read_detailed` agree;
/// the fast path reads a line exactly as the general reader does, when it
/// reads it; the facts of the line (wrappers, built-ins, ceilings) never
/// panic.
pub fn reading(src: &str) {
    let line = shell::read(src);
    if let Some(simple) = shell::read_simple(src) {
        assert_eq!(simple, shell::read_general(src), "fast path differs");
    }
    let detailed = shell::read_detailed(src);
    assert_eq!(line.segments.len(), detailed.segments.len());
    assert_eq!(line.unparsed, detailed.unparsed);
    for (s, d) in line.segments.iter().zip(&detailed.segments) {
        assert_eq!(s.words.len(), d.words.len());
    }
    let _ = LineFacts::of(src);
}
