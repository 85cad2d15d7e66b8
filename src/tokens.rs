//! `permc tokens`: SPEC §4 as JSON, with why a line is unparsed (the
//! §4.2 condition and its byte offset); permc-runtime writes it.

pub use permc_runtime::tokens_json_with;
