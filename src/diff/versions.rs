//! The two versions compared: folders or rule files on disk, or the
//! versions git holds (`--base REV`, `--staged`), folder by folder.

use crate::error::{CliError, Refused};
use permc_core::Rules;
use permc_grammar::rules::{load_autonomy, load_permissions, Autonomy, Permissions};
use std::path::{Path, PathBuf};

use super::DiffArgs;
/// One version of the rule files.
pub(super) struct Version {
    /// Where NEW's permissions.json is (for positions), as shown.
    pub(super) permissions_name: String,
    /// Where its autonomy.json is, as shown.
    pub(super) autonomy_name: String,
    pub(super) rules: Rules,
}

fn load_version(
    perms: Option<(String, Vec<u8>)>,
    auto: Option<(String, Vec<u8>)>,
) -> Result<Version, CliError> {
    let reject = |name: &str, bytes: &[u8], d: &[permc_grammar::diagnostic::Diagnostic]| {
        CliError::Rejected {
            file: name.to_string(),
            text: String::from_utf8_lossy(bytes).into_owned(),
            diagnostics: d.to_vec(),
            refused: Refused::Comparing,
        }
    };
    let (permissions_name, permissions) = match perms {
        None => ("permissions.json".to_string(), Permissions::default()),
        Some((name, bytes)) => {
            let l = load_permissions(&name, &bytes);
            let p = l
                .value
                .ok_or_else(|| reject(&name, &bytes, &l.diagnostics))?;
            (name, p)
        }
    };
    let (autonomy_name, autonomy) = match auto {
        None => ("autonomy.json".to_string(), Autonomy::default()),
        Some((name, bytes)) => {
            let l = load_autonomy(&name, &bytes);
            let a = l
                .value
                .ok_or_else(|| reject(&name, &bytes, &l.diagnostics))?;
            (name, a)
        }
    };
    Ok(Version {
        permissions_name,
        autonomy_name,
        rules: Rules::new(permissions, autonomy),
    })
}

fn is_autonomy(path: &Path, bytes: &[u8]) -> bool {
    permc_analyzer::Kind::detect(&path.display().to_string(), bytes)
        == permc_analyzer::Kind::Autonomy
}

/// A folder or a rule file on disk.
pub(super) fn version_on_disk(path: &Path) -> Result<Version, CliError> {
    let read = |p: &Path| -> Result<Option<(String, Vec<u8>)>, CliError> {
        if !p.exists() {
            return Ok(None);
        }
        Ok(Some((p.display().to_string(), crate::load::read_file(p)?)))
    };
    if path.is_dir() {
        let p = read(&path.join(crate::project::PERMISSIONS))?;
        let a = read(&path.join(crate::project::AUTONOMY))?;
        if p.is_none() && a.is_none() {
            return Err(CliError::Usage(format!(
                "{} holds no permissions.json or autonomy.json",
                path.display()
            )));
        }
        return load_version(p, a);
    }
    let bytes = crate::load::read_file(path)?;
    let f = Some((path.display().to_string(), bytes));
    if is_autonomy(path, &f.as_ref().map(|x| x.1.clone()).unwrap_or_default()) {
        load_version(None, f)
    } else {
        load_version(f, None)
    }
}

/// The repository's top-level folder (`git rev-parse --show-toplevel`),
/// which the paths given to `git show` are relative to.
fn git_top() -> Result<PathBuf, CliError> {
    let o = std::process::Command::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .output()
        .map_err(|e| CliError::Invalid(format!("cannot run git: {e}")))?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        return Err(CliError::Invalid(format!(
            "--base and --staged read the files from git: {}",
            err.trim_end()
        )));
    }
    let top = String::from_utf8_lossy(&o.stdout).trim_end().to_string();
    Ok(std::fs::canonicalize(&top).unwrap_or_else(|_| PathBuf::from(top)))
}

/// `file` (as given: relative to the current folder, or absolute) as a
/// path relative to the repository's top level `top`, `/`-separated: what
/// `git show REV:PATH` names. Symbolic links are resolved as far as the
/// path exists (the file itself may be gone from the working tree).
fn path_in_repo(top: &Path, file: &Path) -> Result<String, CliError> {
    let cwd = std::env::current_dir().map_err(CliError::CurrentFolder)?;
    let full = crate::repo::resolve(&cwd, file);
    let rel = full.strip_prefix(top).map_err(|_| {
        CliError::Usage(format!(
            "{} is not in the git repository at {}: --base and --staged compare only files git holds",
            file.display(),
            top.display()
        ))
    })?;
    Ok(crate::repo::slashed(rel))
}

/// `git show SPEC` (SPEC's path relative to the repository's top level
/// `top`), or `None` when git says the path is not there.
fn git_show(top: &Path, spec: &str) -> Result<Option<Vec<u8>>, CliError> {
    let o = std::process::Command::new("git")
        .current_dir(top)
        .args(["show", spec])
        .output()
        .map_err(|e| CliError::Invalid(format!("cannot run git: {e}")))?;
    if o.status.success() {
        return Ok(Some(o.stdout));
    }
    let err = String::from_utf8_lossy(&o.stderr);
    // `:path` names no revision: git's "unknown revision or path" can only
    // mean the path is not in the index.
    let index_only = spec.starts_with(':');
    if (index_only && err.contains("path not in the working tree"))
        || err.contains("does not exist")
        || err.contains("exists on disk, but not in")
        || err.contains("invalid object name 'HEAD'")
        || err.contains("bad revision 'HEAD")
        || err.contains("ambiguous argument 'HEAD")
    {
        return Ok(None);
    }
    Err(CliError::Invalid(format!(
        "git show {spec}: {}",
        err.trim_end()
    )))
}

/// The rule files to read from git, grouped by folder: a permissions.json
/// or autonomy.json given alone brings the other one of its folder (when
/// git or the working tree has it), so its changes are witnessed with the
/// whole policy they belong to.
pub(super) fn git_groups(args: &DiffArgs) -> Result<Vec<Vec<PathBuf>>, CliError> {
    use crate::project::{AUTONOMY, PERMISSIONS};
    let files: Vec<PathBuf> = if args.paths.is_empty() {
        // Named relative to the current folder by discovery; autonomy.json
        // beside it, named the same way (one folder, one group).
        let p = crate::project::discover_here().ok_or_else(crate::project::no_rule_files)?;
        let autonomy = p.permissions.with_file_name(AUTONOMY);
        vec![p.permissions, autonomy]
    } else {
        args.paths.clone()
    };
    let mut groups: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    for f in files {
        let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
        match groups.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, v)) => v.push(f),
            None => groups.push((dir, vec![f])),
        }
    }
    for (dir, v) in &mut groups {
        if let [f] = v.as_slice() {
            let other = match f.file_name().and_then(|n| n.to_str()) {
                Some(PERMISSIONS) => Some(AUTONOMY),
                Some(AUTONOMY) => Some(PERMISSIONS),
                _ => None,
            };
            if let Some(other) = other {
                v.push(dir.join(other));
            }
        }
    }
    Ok(groups.into_iter().map(|(_, v)| v).collect())
}

/// The two versions of one folder's rule files from git: `(old, new)`.
pub(super) fn versions_from_git(
    args: &DiffArgs,
    files: &[PathBuf],
) -> Result<(Version, Version), CliError> {
    let mut old: [Option<(String, Vec<u8>)>; 2] = [None, None];
    let mut new: [Option<(String, Vec<u8>)>; 2] = [None, None];
    let mut seen = [false, false];
    let top = git_top()?;
    for f in files {
        let shown = f.display().to_string();
        // `REV:path` is relative to the repository's top level, wherever
        // permc runs and however the file was named.
        let rel = path_in_repo(&top, f)?;
        let (before, after) = if args.staged {
            (
                git_show(&top, &format!("HEAD:{rel}"))?,
                git_show(&top, &format!(":{rel}"))?,
            )
        } else {
            let rev = args.base.as_deref().unwrap_or("HEAD");
            let after = if f.exists() {
                Some(crate::load::read_file(f)?)
            } else {
                None
            };
            (git_show(&top, &format!("{rev}:{rel}"))?, after)
        };
        let sample = after.as_deref().or(before.as_deref()).unwrap_or_default();
        let slot = usize::from(is_autonomy(f, sample));
        // Of two files of one kind in a folder, the first given counts.
        if seen[slot] {
            continue;
        }
        seen[slot] = true;
        old[slot] = before.map(|b| (shown.clone(), b));
        new[slot] = after.map(|b| (shown.clone(), b));
    }
    let [op, oa] = old;
    let [np, na] = new;
    let mut new = load_version(np, na)?;
    for f in files {
        let name = f.display().to_string();
        if is_autonomy(f, b"") {
            new.autonomy_name = name;
        } else {
            new.permissions_name = name;
        }
    }
    Ok((load_version(op, oa)?, new))
}
