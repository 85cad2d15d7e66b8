//! Helpers for tests that run `permc` on rule files in scratch folders.

#![allow(dead_code)]

use permc_grammar::rules::load_permissions;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh folder for one test: `permc-<suite>-<pid>-<name>` in the temp dir.
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("permc-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

/// The one JSON object a successful `permc` run printed.
pub fn ok_json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("stdout is one JSON object")
}

/// The allow list of a permissions.json, as pattern texts.
pub fn allow_of(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).expect("file");
    let p = load_permissions("p", &bytes).value.expect("loads");
    p.allow.into_iter().map(|e| e.pattern.text).collect()
}
