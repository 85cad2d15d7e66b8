//! What always-allow records (SPEC §7) and what the analyzer's
//! `broad-always-expansion` warns about (§11): the verbs whose segment is
//! recorded whole, the package runners and their scripts.

/// `find`, whose primaries run and delete (SPEC §7 step 5): recorded whole.
const FIND: &str = "find";

/// The verbs whose unit is the whole segment, exact (SPEC §7 step 5):
/// [`DESTROYERS`] and `find`, derived from them. The verbs that run other
/// code are the catalogue's (`exact_verb` in permc-core), not a list of
/// their own (SPEC §7 round 3).
pub const EXACT_VERBS: [&str; DESTROYERS.len() + 1] = {
    let mut t = [FIND; DESTROYERS.len() + 1];
    let mut i = 0;
    while i < DESTROYERS.len() {
        t[i] = DESTROYERS[i];
        i += 1;
    }
    t
};

include!(concat!(env!("OUT_DIR"), "/catalogue/units.rs"));
