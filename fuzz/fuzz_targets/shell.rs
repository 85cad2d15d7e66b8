#![no_main]
//! See `permc_fuzz::checks::shell`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| permc_fuzz::checks::shell(data));
