//! Paths as a git repository names them: `--format github` annotations
//! attach to a pull request's diff only when their `file=` is relative to
//! the repository's top level (issue 32 pt 3), whatever folder permc ran
//! in and however the file was named.

use std::path::{Component, Path, PathBuf};

/// The top level of the git repository holding `dir`
/// (`git rev-parse --show-toplevel`, symbolic links resolved), if any.
pub fn top_of(dir: &Path) -> Option<PathBuf> {
    let o = std::process::Command::new("git")
        .current_dir(dir)
        .args(["rev-parse", "--show-toplevel"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !o.status.success() {
        return None;
    }
    let top = String::from_utf8_lossy(&o.stdout).trim_end().to_string();
    Some(std::fs::canonicalize(&top).unwrap_or_else(|_| PathBuf::from(top)))
}

/// `file` made absolute from `cwd`, symbolic links resolved as far as the
/// path exists (the file itself may be gone from the working tree), the
/// rest as written with `.` and `..` read.
pub fn resolve(cwd: &Path, file: &Path) -> PathBuf {
    let abs = cwd.join(file);
    let mut base = abs.as_path();
    let mut rest: Vec<Component<'_>> = Vec::new();
    let resolved = loop {
        if let Ok(r) = std::fs::canonicalize(base) {
            break r;
        }
        match (base.parent(), base.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                base = parent;
            }
            _ => break PathBuf::from("/"),
        }
    };
    let mut full = resolved;
    for c in rest.into_iter().rev() {
        match c {
            Component::ParentDir => {
                full.pop();
            }
            Component::CurDir => {}
            c => full.push(c),
        }
    }
    full
}

/// `rel` as git writes a path: `/`-separated.
pub fn slashed(rel: &Path) -> String {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// A file's name as an annotation gives it: relative to the top level of
/// the repository holding it (found from the file's folder, else from the
/// current folder); unchanged when no repository holds it, or when it is
/// not a path (`<stdin>`).
pub fn relative_name(name: &str) -> String {
    let Ok(cwd) = std::env::current_dir() else {
        return name.to_string();
    };
    if name.starts_with('<') {
        return name.to_string();
    }
    let full = resolve(&cwd, Path::new(name));
    let top = full
        .parent()
        .and_then(|dir| {
            // The nearest folder of it that exists (the file may be gone).
            dir.ancestors().find(|d| d.is_dir()).and_then(top_of)
        })
        .or_else(|| top_of(&cwd));
    match top.as_deref().and_then(|t| full.strip_prefix(t).ok()) {
        Some(rel) => slashed(rel),
        None => name.to_string(),
    }
}
