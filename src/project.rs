//! Project discovery (issue 12, point 14): the rule files a command uses
//! when it is given none, found as git finds `.git` — walking up from the
//! current folder to the first folder holding `permissions.json`.
//!
//! The API other commands build on:
//! - [`discover`]: a folder → the [`Project`] it belongs to, if any;
//! - [`rule_files`]: the `--permissions`/`--autonomy` a command was given,
//!   or the discovered project's files, or exit 2 saying what to pass —
//!   never an empty policy by accident (point 3).

use crate::error::CliError;
use std::path::{Path, PathBuf};

/// The rule file that marks a project's folder.
pub const PERMISSIONS: &str = "permissions.json";
/// The autonomy rules, taken from beside permissions.json.
pub const AUTONOMY: &str = "autonomy.json";
/// The project's permc configuration (read by `config.rs`, not here).
pub const CONFIG: &str = "permc.toml";

/// A project found by [`discover`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The folder holding permissions.json.
    pub root: PathBuf,
    /// `root/permissions.json` (a file).
    pub permissions: PathBuf,
    /// `root/autonomy.json`, when that file exists.
    pub autonomy: Option<PathBuf>,
    /// `root/permc.toml`, when that file exists.
    pub config: Option<PathBuf>,
}

/// Walks up from `start` (a relative path is taken from the current
/// folder) to the first folder holding a `permissions.json` file. The
/// files are named relative to the current folder (`permissions.json`,
/// `../permissions.json`) when it is in or below the project, so every
/// output names them as the user would (issue 43); `root` is absolute
/// (it is the default scope root).
pub fn discover(start: &Path) -> Option<Project> {
    let start = std::path::absolute(start).ok()?;
    let cwd = std::env::current_dir().ok();
    start.ancestors().find_map(|dir| {
        let permissions = dir.join(PERMISSIONS);
        if !permissions.is_file() {
            return None;
        }
        let shown = |p: PathBuf| match &cwd {
            Some(cwd) => relative_to(&p, cwd),
            None => p,
        };
        let beside = |name: &str| Some(dir.join(name)).filter(|p| p.is_file()).map(shown);
        Some(Project {
            root: dir.to_path_buf(),
            permissions: shown(permissions.clone()),
            autonomy: beside(AUTONOMY),
            config: beside(CONFIG),
        })
    })
}

/// `path` (absolute) relative to `cwd` when it is in `cwd` or in a folder
/// above it (`../../permissions.json`); else as it is.
fn relative_to(path: &Path, cwd: &Path) -> PathBuf {
    if let Ok(rest) = path.strip_prefix(cwd) {
        return rest.to_path_buf();
    }
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return path.to_path_buf();
    };
    match cwd.strip_prefix(dir) {
        Ok(below) => {
            let mut p: PathBuf = below.components().map(|_| "..").collect();
            p.push(name);
            p
        }
        Err(_) => path.to_path_buf(),
    }
}

/// [`discover`] from the current folder.
pub fn discover_here() -> Option<Project> {
    discover(&std::env::current_dir().ok()?)
}

/// The rule files a command runs on: those given (either flag counts as an
/// explicit choice), else the project's found from the current folder,
/// else an error saying what to pass.
pub fn rule_files(
    permissions: Option<&Path>,
    autonomy: Option<&Path>,
) -> Result<(Option<PathBuf>, Option<PathBuf>), CliError> {
    if permissions.is_some() || autonomy.is_some() {
        return Ok((
            permissions.map(Path::to_path_buf),
            autonomy.map(Path::to_path_buf),
        ));
    }
    match discover_here() {
        Some(p) => Ok((Some(p.permissions), p.autonomy)),
        None => Err(no_rule_files()),
    }
}

/// The rule files a command that writes them runs on (`always --write`,
/// `seed`): `--permissions` as given, else the project's permissions.json
/// and the autonomy.json beside it (to be created when needed); else an
/// error saying what to pass.
pub fn writable_rule_files(
    permissions: Option<PathBuf>,
    autonomy: Option<PathBuf>,
) -> Result<(PathBuf, Option<PathBuf>), CliError> {
    if let Some(p) = permissions {
        return Ok((p, autonomy));
    }
    let project = discover_here().ok_or_else(no_rule_files)?;
    let autonomy = autonomy.unwrap_or_else(|| project.root.join(AUTONOMY));
    Ok((project.permissions, Some(autonomy)))
}

/// The rule files `permc seed` writes: those given, else the project's,
/// else — no project around the current folder — new ones in it
/// (`./permissions.json`, `./autonomy.json`): seeding is how a project
/// starts (issue 43 pt 3).
pub fn seeded_rule_files(
    permissions: Option<PathBuf>,
    autonomy: Option<PathBuf>,
) -> (PathBuf, Option<PathBuf>) {
    match writable_rule_files(permissions.clone(), autonomy.clone()) {
        Ok(files) => files,
        Err(_) => (
            PathBuf::from(PERMISSIONS),
            Some(autonomy.unwrap_or_else(|| PathBuf::from(AUTONOMY))),
        ),
    }
}

/// Exit 2: no rule files given and none found.
pub fn no_rule_files() -> CliError {
    CliError::Usage(
        "no rule files: give --permissions FILE (and --autonomy FILE), \
         or run inside a project: a folder holding permissions.json, or below one \
         (an empty policy only from a file holding `{}`)"
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("permc-project-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch folder");
        d
    }

    #[test]
    fn finds_the_nearest_folder_with_permissions_json() {
        let d = scratch("nearest");
        let deep = d.join("a/b/c");
        std::fs::create_dir_all(&deep).expect("dirs");
        std::fs::write(d.join(PERMISSIONS), "{}").expect("write");
        std::fs::write(d.join(AUTONOMY), "{}").expect("write");
        std::fs::write(d.join(CONFIG), "").expect("write");
        // A nearer project wins, as a nearer .git does.
        std::fs::write(d.join("a/b").join(PERMISSIONS), "{}").expect("write");
        let p = discover(&deep).expect("found");
        assert_eq!(p.root, d.join("a/b"));
        assert_eq!(p.permissions, d.join("a/b").join(PERMISSIONS));
        assert_eq!(p.autonomy, None);
        assert_eq!(p.config, None);
        let p = discover(&d.join("a")).expect("found");
        assert_eq!(p.root, d);
        assert_eq!(p.autonomy, Some(d.join(AUTONOMY)));
        assert_eq!(p.config, Some(d.join(CONFIG)));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_folder_named_permissions_json_does_not_count() {
        let d = scratch("folder");
        std::fs::create_dir_all(d.join(PERMISSIONS)).expect("dir");
        std::fs::write(d.join(AUTONOMY), "{}").expect("write");
        // autonomy.json alone does not make a project.
        let found = discover(&d);
        assert!(
            found.as_ref().is_none_or(|p| !p.root.starts_with(&d)),
            "{found:?}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn explicit_files_are_used_as_given() {
        let (p, a) = rule_files(Some(Path::new("x.json")), None).expect("given");
        assert_eq!(p, Some(PathBuf::from("x.json")));
        assert_eq!(a, None);
        let (p, a) = rule_files(None, Some(Path::new("a.json"))).expect("given");
        assert_eq!(p, None);
        assert_eq!(a, Some(PathBuf::from("a.json")));
    }
}
