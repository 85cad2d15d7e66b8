//! Paths the facts name: the rule files (SPEC §6.4) and the device files
//! that are never outside the scope (§6.2).

/// Words that never count as outside the scope (SPEC §6.2), exactly.
pub const DEV_FILES: &[&str] = &["/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr"];

/// The rule files: protected in the project root (SPEC §6.4), and by
/// name wherever a literal word points.
pub const RULE_FILES: &[&str] = &["permissions.json", "autonomy.json", "permc.toml"];

/// A compiled policy's name ends so.
pub(crate) const POLICY_SUFFIX: &str = ".permc";
