#![no_main]
//! See `permc_fuzz::checks::differential`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| permc_fuzz::checks::differential(data));
