//! What always-allow records (SPEC §7) and what the analyzer's
//! `broad-always-expansion` warns about (§11): the verbs whose segment is
//! recorded whole, the package runners and their scripts.

/// Verbs that destroy or send data away (SPEC §7 step 5 [hardening], §11
/// verbatim): always-allow records their segment whole, and allowing one
/// broadly is warned about.
pub const DESTROYERS: &[&str] = &["rm", "dd", "mv", "chmod", "chown", "curl", "wget"];

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

/// The package managers whose bare verb is the whole segment (`npx
/// ./x.js`: SPEC §7 step 5).
pub const PACKAGE_RUNNERS: &[&str] = &["npx", "npm", "pnpm", "yarn"];

/// Package scripts, which run other commands (SPEC §11, verbatim).
pub const SCRIPT_RUNNERS: &[&[&str]] = &[&["npm", "run"], &["pnpm", "run"], &["yarn", "run"]];
