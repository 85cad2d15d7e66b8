//! The shells (SPEC §4.3): sh's family and the shells of other languages,
//! their options and what a POSIX shell reads differently from bash — the
//! rows of `shell/catalogue/shells.toml` (each list's meaning is written
//! there), turned into constants by `shell/build.rs`.

include!(concat!(env!("OUT_DIR"), "/catalogue/shells.rs"));
