//! `permc tokens`: SPEC §4 as JSON, with why a line is unparsed (the
//! §4.2 condition and its byte offset).

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
    // Why the line is unparsed (SPEC §4.2): each condition with the byte
    // offset of its first occurrence, in the order they occur.
    let why: Vec<Value> = line
        .unparsed_at
        .iter()
        .map(|&(u, offset)| json!({"condition": u.name(), "offset": offset, "message": u.describe()}))
        .collect();
    json!({ "unparsed": line.is_unparsed(), "why": why, "segments": segments })
}
