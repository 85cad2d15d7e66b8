#![no_main]
//! See `permc_fuzz::checks::request`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| permc_fuzz::checks::request(data));
