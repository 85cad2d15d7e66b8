//! What always-allow records (SPEC §7) and what the analyzer's
//! `broad-always-expansion` warns about (§11): the verbs whose segment is
//! recorded whole, the package runners and their scripts.

include!(concat!(env!("OUT_DIR"), "/catalogue/units.rs"));
