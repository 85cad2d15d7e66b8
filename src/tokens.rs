//! `permc tokens`: SPEC §4 as JSON.

use permc_grammar::shell;
use serde_json::{json, Value};

/// The JSON of SPEC §10.3 for one command line.
pub fn tokens_json(command: &str) -> Value {
    let line = shell::read(command);
    let segments: Vec<Value> = line
        .segments
        .iter()
        .map(|s| {
            json!({
                "words": s.words,
                "redirects": s.redirects.iter().map(|r| json!({"op": r.op, "target": r.target})).collect::<Vec<_>>(),
                "nested": s.nested,
            })
        })
        .collect();
    json!({ "unparsed": line.is_unparsed(), "segments": segments })
}
