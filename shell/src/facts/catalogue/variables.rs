//! Variables that name code or change what runs (SPEC §4.3 round 3), and
//! the shell options that do not (§6.2) — the rows of
//! `shell/catalogue/variables.toml` (each list's meaning is written
//! there), turned into constants by `shell/build.rs`.

include!(concat!(env!("OUT_DIR"), "/catalogue/variables.rs"));
