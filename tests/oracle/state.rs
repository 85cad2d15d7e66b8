//! The state of a copy of the fixture project: every file of the worktree
//! and of `.git` by its kind, mode and content (a symlink by its target),
//! except `.git/index`, compared by `git ls-files --stage` so that a stat
//! refresh of the index is no change.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Paths relative to the project, and what each holds.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct State {
    pub files: BTreeMap<String, Vec<u8>>,
}

/// The index's pseudo-path: `git ls-files --stage`'s output.
pub const INDEX: &str = ".git/index";

/// Reads a copy of the project.
pub fn snapshot(root: &Path, ls_files: &str) -> Result<State, String> {
    let mut files = BTreeMap::new();
    walk(root, root, &mut files)?;
    files.insert(INDEX.to_string(), ls_files.as_bytes().to_vec());
    Ok(State { files })
}

fn walk(root: &Path, dir: &Path, files: &mut BTreeMap<String, Vec<u8>>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let path = entry.path();
        let rel = path
            .strip_prefix(root)
            .map_err(|e| e.to_string())?
            .to_string_lossy()
            .into_owned();
        if rel == INDEX {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).map_err(|e| e.to_string())?;
        let mode = meta.permissions().mode();
        let mut held = format!("{mode:o} ").into_bytes();
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path).map_err(|e| e.to_string())?;
            held.extend_from_slice(format!("-> {}", target.display()).as_bytes());
        } else if meta.is_dir() {
            held.extend_from_slice(b"dir");
            walk(root, &path, files)?;
        } else if meta.is_file() {
            held.extend(std::fs::read(&path).map_err(|e| e.to_string())?);
        } else {
            held.extend_from_slice(b"special");
        }
        files.insert(rel, held);
    }
    Ok(())
}

/// The paths that differ between two states: changed, created or removed.
pub fn changes(before: &State, after: &State) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (p, v) in &after.files {
        match before.files.get(p) {
            Some(w) if w == v => {}
            Some(_) => out.push(format!("changed {p}")),
            None => out.push(format!("created {p}")),
        }
    }
    for p in before.files.keys() {
        if !after.files.contains_key(p) {
            out.push(format!("removed {p}"));
        }
    }
    out
}
