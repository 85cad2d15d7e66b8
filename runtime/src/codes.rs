//! The error codes permc answers with: one vocabulary for the command
//! line, `permc serve` and the bindings (SPEC §10.1's request errors, the
//! load errors, the bindings' own). The Node addon's `ErrorCode` type and
//! the docs' table are checked against this list.

/// Every error code, with what it means, in the order the docs list them.
pub const ERROR_CODES: &[(&str, &str)] = &[
    ("invalid_json", "the request is not JSON (or nests too deep)"),
    ("invalid_request", "the request is not a JSON object"),
    ("missing_field", "a required field is absent (`action.type`, `context.role`, a terminal's `projectScopeRoot`)"),
    ("unknown_type", "`action.type` is not an action type of SPEC §1"),
    ("unknown_role", "`context.role` is not a role of SPEC §1"),
    ("invalid_field", "a field has the wrong type or value"),
    ("unknown_field", "a field permc does not know (named with the closest known one)"),
    ("duplicate_key", "a key given twice"),
    ("request_too_large", "a request over 16 MiB (the bindings), unread"),
    ("line_too_long", "a request line over `permc serve`'s limit, unread"),
    ("unreadable", "a rule file or artifact cannot be read"),
    ("rejected", "a rule file has errors: nothing is decided from it"),
    ("invalid_artifact", "an artifact is corrupt, truncated, stale or of another format version"),
    ("invalid_argument", "a binding was called with the wrong kind of argument"),
    ("internal_error", "permc failed on this request (a bug: please report it)"),
    ("panic", "a binding caught a panic (a bug: please report it)"),
];

/// The Markdown table of [`ERROR_CODES`] that docs/error-codes.md holds.
pub fn docs_table() -> String {
    let mut t = String::from("| code | means |\n|---|---|\n");
    for (code, means) in ERROR_CODES {
        t.push_str(&format!("| `{code}` | {means} |\n"));
    }
    t
}

/// Whether `code` is one of [`ERROR_CODES`].
pub fn is_error_code(code: &str) -> bool {
    ERROR_CODES.iter().any(|(c, _)| *c == code)
}

/// The names a binding's types are made of, from the enums that define
/// them: `actionTypes`, `roles` (SPEC §1), `policies`, `reasons` (§5.3)
/// and `errorCodes`. The Node addon's index.d.ts is checked against it.
pub fn vocabulary() -> serde_json::Value {
    use permc_grammar::{ActionType, Policy, Role};
    let policies = [Policy::AutoApprove, Policy::RequireApproval, Policy::Deny];
    serde_json::json!({
        "actionTypes": ActionType::ALL.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "roles": Role::ALL.iter().map(|r| r.name()).collect::<Vec<_>>(),
        "policies": policies.iter().map(|p| p.name()).collect::<Vec<_>>(),
        "reasons": permc_core::Reason::ALL.iter().map(|r| r.name()).collect::<Vec<_>>(),
        "errorCodes": ERROR_CODES.iter().map(|(c, _)| *c).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/error-codes.md holds the table of [`ERROR_CODES`], current.
    /// `PERMC_BLESS=1` writes it.
    #[test]
    fn the_docs_table_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/error-codes.md");
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        let (start, end) = (
            "<!-- table: permc_runtime::codes::ERROR_CODES -->\n",
            "<!-- end table -->",
        );
        let (Some(a), Some(b)) = (have.find(start), have.find(end)) else {
            panic!("{} has no table markers", path.display());
        };
        let want = format!("{}{start}{}{}", &have[..a], docs_table(), &have[b..]);
        if std::env::var_os("PERMC_BLESS").is_some() {
            std::fs::write(&path, &want).expect("write");
        }
        assert_eq!(
            have,
            want,
            "{} is stale: run `PERMC_BLESS=1 cargo test -p permc-runtime codes`",
            path.display()
        );
    }

    #[test]
    fn the_request_and_load_codes_are_in_the_vocabulary() {
        for text in [
            "{",
            "[]",
            r#"{"action": {}, "context": {"role": "developer"}}"#,
            r#"{"action": {"type": "teleport"}, "context": {"role": "developer"}}"#,
            r#"{"action": {"type": "spend"}, "context": {"role": "king"}}"#,
            r#"{"action": {"type": "spend", "cwd": 1}, "context": {"role": "owner"}}"#,
            r#"{"action": {"type": "spend"}, "context": {"role": "owner", "executonMode": "runner"}}"#,
            r#"{"action": {"type": "spend", "type": "spend"}, "context": {"role": "owner"}}"#,
        ] {
            let e = crate::Request::from_json(text).expect_err("an error");
            assert!(is_error_code(e.code), "{} is not in ERROR_CODES", e.code);
        }
        let missing = std::path::Path::new("/nonexistent/permissions.json");
        let e = crate::Policy::load(Some(missing), None)
            .err()
            .expect("an error");
        assert!(is_error_code(e.code), "{}", e.code);
    }
}
