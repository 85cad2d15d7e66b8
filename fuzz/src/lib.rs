//! permc's fuzz targets: each `fuzz_targets/<name>.rs` calls
//! [`checks::<name>`](checks) on libFuzzer's input. The same file is
//! compiled by the stable test suite (`tests/fuzz_replay.rs`), which
//! replays every committed corpus file through it.
#![forbid(unsafe_code)]

pub mod checks;
