//! `permc schema NAME`: the JSON Schemas (2020-12) of `schemas/`, built
//! into the binary, for editors and validators.

/// Each schema's name and text, as `schemas/<name>.schema.json` holds it.
pub const SCHEMAS: &[(&str, &str)] = &[
    (
        "permissions",
        include_str!("../schemas/permissions.schema.json"),
    ),
    ("autonomy", include_str!("../schemas/autonomy.schema.json")),
    ("request", include_str!("../schemas/request.schema.json")),
    ("decision", include_str!("../schemas/decision.schema.json")),
    ("check", include_str!("../schemas/check.schema.json")),
    ("diff", include_str!("../schemas/diff.schema.json")),
    (
        "permc-toml",
        include_str!("../schemas/permc-toml.schema.json"),
    ),
];

/// Which schema `permc schema` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemaName {
    /// permissions.json (SPEC §2.1).
    Permissions,
    /// autonomy.json (SPEC §2.2).
    Autonomy,
    /// A request (SPEC §10.1).
    Request,
    /// An answer line: a decision (SPEC §10.2) or an error.
    Decision,
    /// `permc check --format json`.
    Check,
    /// `permc diff --format json`.
    Diff,
    /// permc.toml (JSON Schema for TOML: taplo, editors).
    PermcToml,
}

impl SchemaName {
    /// The schema's text.
    pub fn text(self) -> &'static str {
        SCHEMAS[self as usize].1
    }
}
