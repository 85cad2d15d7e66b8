//! Safe writes of rule files, shared by `permc always --write` and
//! `permc seed` (SPEC §7 last paragraph, §8).
//!
//! **Invariants.**
//! - *Serialized*: every read-modify-write of a file runs under an advisory
//!   lock on a lock file beside it (`permissions.json.lock`, there only
//!   while a writer holds it: no litter in the user's tree), taken before
//!   the file is read — so concurrent writers never lose an entry. The lock
//!   is on its own file, not on the rule file, because the rule file is
//!   replaced by rename (a lock on the old inode would not exclude a writer
//!   that opened the new one). Locks are taken permissions before autonomy,
//!   never the other way, so two commands cannot deadlock.
//! - *Atomic*: the new text goes to a temporary file in the same folder,
//!   is synced, renamed over the file, and the folder is synced — a reader
//!   sees the old file or the new one, never half of one, even if the
//!   writer is killed at any moment. [`atomic`] is permc's one such
//!   writer: rule files, artifacts (`permc compile`), check reports.
//! - *Conservative*: a file that does not load (SPEC §2: rejected whole) is
//!   never overwritten; existing entries, their order and the other keys
//!   stay (serde_json keeps key order); the output is 2-space JSON ending
//!   in a newline, and it is loaded again before it is written.

use crate::error::{CliError, Refused};
use permc_core::always::already_in;
use permc_grammar::pattern::Pattern;
use permc_grammar::rules::{load_autonomy, load_permissions, Autonomy, Permissions};
use permc_grammar::{ActionType, Policy, Severity};
use serde_json::{Map, Value};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Test hook: milliseconds to pause between writing the temporary file and
/// renaming it, so the crash tests can kill a writer exactly there.
pub const PAUSE_ENV: &str = "PERMC_TEST_PAUSE_BEFORE_RENAME_MS";

/// Which rule file a target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// permissions.json (SPEC §2.1).
    Permissions,
    /// autonomy.json (SPEC §2.2).
    Autonomy,
}

/// An exclusive lock on one rule file; released when dropped.
pub struct Lock {
    /// The rule file (symbolic links resolved, so every name of one file
    /// shares one lock).
    target: PathBuf,
    /// `permissions.json.lock`: removed when the lock is released.
    lock_path: PathBuf,
    kind: Kind,
    /// Held open for the lock's lifetime: closing it releases the lock.
    _lock: File,
}

/// The file the writes go to: a symbolic link is followed (renaming over
/// it would replace the link with a plain file).
fn resolve(path: &Path) -> Result<PathBuf, CliError> {
    if let Ok(real) = fs::canonicalize(path) {
        return Ok(real);
    }
    let name = file_name(path)?;
    let dir = fs::canonicalize(folder(path))
        .map_err(|e| CliError::write("use the folder of", path, e))?;
    Ok(dir.join(name))
}

/// The last part of a path that names a file (not `..`, not `/`).
fn file_name(path: &Path) -> Result<&std::ffi::OsStr, CliError> {
    path.file_name()
        .ok_or_else(|| CliError::Usage(format!("{} does not name a file", path.display())))
}

/// `name.suffix` (`.name.suffix` when hidden) beside `target`, a path that
/// names a file (checked by [`file_name`] before).
fn sibling(target: &Path, suffix: &str, hidden: bool) -> Result<PathBuf, CliError> {
    let name = file_name(target)?.to_string_lossy();
    let name = if hidden {
        format!(".{name}{suffix}")
    } else {
        format!("{name}{suffix}")
    };
    Ok(target.with_file_name(name))
}

/// The folder holding `target` (`.` for a bare file name).
fn folder(target: &Path) -> &Path {
    match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        Some(_) => Path::new("."),
        None => Path::new("/"),
    }
}

/// Takes the exclusive lock of a rule file, waiting for other writers.
///
/// The lock file exists only while a writer holds it: the holder removes
/// it before releasing the lock, so nothing is left in the user's tree. A
/// writer that waited on a lock file since removed (its lock is on a file
/// no other writer can open) finds the name gone or naming another file,
/// and starts again with the current one.
pub fn lock(path: &Path, kind: Kind) -> Result<Lock, CliError> {
    use std::os::unix::fs::MetadataExt;
    let target = resolve(path)?;
    let lock_path = sibling(&target, ".lock", false)?;
    loop {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(|e| CliError::write("open the lock file", &lock_path, e))?;
        file.lock()
            .map_err(|e| CliError::write("lock", &lock_path, e))?;
        let held = file
            .metadata()
            .map_err(|e| CliError::write("lock", &lock_path, e))?;
        match fs::metadata(&lock_path) {
            Ok(now) if now.dev() == held.dev() && now.ino() == held.ino() => {
                return Ok(Lock {
                    target,
                    lock_path,
                    kind,
                    _lock: file,
                })
            }
            // Removed (or replaced) by the writer we waited for: again.
            _ => continue,
        }
    }
}

impl Drop for Lock {
    /// Removes the lock file while still holding it (see [`lock`]); the
    /// lock itself goes when the file is closed, just after.
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.lock_path);
    }
}

/// A rule file read under its lock.
struct Document {
    /// The JSON object, keys in file order.
    object: Map<String, Value>,
    /// The file existed.
    existed: bool,
}

impl Lock {
    /// Reads the file *now*, under the lock; `None` when it does not exist.
    /// A regular file only, bounded (a FIFO would hang the writer).
    fn read(&self) -> Result<Option<Vec<u8>>, CliError> {
        match permc_runtime::file::read_regular(&self.target) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(CliError::unreadable(&self.target, e)),
        }
    }

    /// Loads the file as a rule file (rejecting it whole like every other
    /// command, SPEC §2) and as a JSON object to edit.
    fn load<T>(
        &self,
        loader: fn(&str, &[u8]) -> permc_grammar::rules::Loaded<T>,
    ) -> Result<(T, Document), CliError>
    where
        T: Default,
    {
        let name = self.target.display().to_string();
        let Some(bytes) = self.read()? else {
            let empty = loader(&name, b"{}")
                .value
                .ok_or_else(|| CliError::Internal("an empty rule file does not load".into()))?;
            return Ok((
                empty,
                Document {
                    object: Map::new(),
                    existed: false,
                },
            ));
        };
        let loaded = loader(&name, &bytes);
        let value = match loaded.value {
            Some(v)
                if !loaded
                    .diagnostics
                    .iter()
                    .any(|d| d.severity == Severity::Error) =>
            {
                v
            }
            _ => {
                return Err(CliError::Rejected {
                    file: name,
                    text: String::from_utf8_lossy(&bytes).into_owned(),
                    diagnostics: loaded.diagnostics,
                    refused: Refused::Rewriting,
                })
            }
        };
        // Warnings were shown when the command first loaded the file.
        let object = match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(o)) => o,
            Ok(_) => {
                return Err(CliError::Invalid(format!(
                    "{name}: the top level is not an object"
                )))
            }
            Err(e) => {
                return Err(CliError::Invalid(format!(
                    "{name} cannot be rewritten without changing it ({e}); it is left as it is"
                )))
            }
        };
        Ok((
            value,
            Document {
                object,
                existed: true,
            },
        ))
    }

    /// Writes the object: 2-space JSON and a newline, loaded again before
    /// it replaces the file atomically.
    fn store(&self, object: Map<String, Value>) -> Result<(), CliError> {
        let mut text = serde_json::to_string_pretty(&Value::Object(object))
            .map_err(|e| CliError::Internal(format!("cannot write JSON: {e}")))?;
        text.push('\n');
        self.store_text(&text)
    }

    /// Writes a new text of the file, loaded again before it replaces the
    /// file atomically.
    fn store_text(&self, text: &str) -> Result<(), CliError> {
        let name = self.target.display().to_string();
        let loads = match self.kind {
            Kind::Permissions => !load_permissions(&name, text.as_bytes()).has_errors(),
            Kind::Autonomy => !load_autonomy(&name, text.as_bytes()).has_errors(),
        };
        if !loads {
            // Cannot happen: only loadable entries are added to a file that
            // loaded. Checked anyway: a broken file is never written.
            return Err(CliError::Internal(format!(
                "the new {name} would not load; nothing was written (please report this)"
            )));
        }
        // Temporary files are only created under the lock, so any left
        // while we hold it belong to a writer that died.
        remove_stale_temporaries(&self.target)?;
        write_atomic(&self.target, text.as_bytes(), pause_if_asked)
    }

    /// Rewrites the file's text with `edit`, reading it under the lock
    /// (`permc fix`): `edit` gets the text as it is now and returns the new
    /// text, or `None` to leave the file alone. A file that does not load
    /// is refused, as by every writer. Returns whether it was written.
    pub fn rewrite(&self, edit: impl FnOnce(&[u8]) -> Option<String>) -> Result<bool, CliError> {
        let name = self.target.display().to_string();
        let Some(bytes) = self.read()? else {
            return Err(CliError::unreadable(
                &self.target,
                std::io::Error::from(std::io::ErrorKind::NotFound),
            ));
        };
        let loaded = match self.kind {
            Kind::Permissions => load_permissions(&name, &bytes).diagnostics,
            Kind::Autonomy => load_autonomy(&name, &bytes).diagnostics,
        };
        if loaded.iter().any(|d| d.severity == Severity::Error) {
            return Err(CliError::Rejected {
                file: name,
                text: String::from_utf8_lossy(&bytes).into_owned(),
                diagnostics: loaded,
                refused: Refused::Rewriting,
            });
        }
        match edit(&bytes) {
            Some(text) if text.as_bytes() != bytes => {
                self.store_text(&text)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Appends to allow every pattern not already there (same text or an
    /// equal pattern), in order, reading the file under the lock. Returns
    /// the patterns added. Creates the file when absent.
    pub fn add_allow<S: AsRef<str>>(&self, patterns: &[S]) -> Result<Vec<String>, CliError> {
        debug_assert_eq!(self.kind, Kind::Permissions);
        let (perms, mut doc): (Permissions, Document) = self.load(load_permissions)?;
        let mut present: Vec<Pattern> = perms.allow.into_iter().map(|e| e.pattern).collect();
        let mut added = Vec::new();
        for p in patterns {
            let p = p.as_ref();
            if already_in(p, &present) {
                continue;
            }
            let parsed = Pattern::parse(p).map_err(|e| {
                CliError::Invalid(format!(
                    "`{p}` is not a valid pattern ({e}); nothing was written"
                ))
            })?;
            // Kept current so that two equal new patterns are added once.
            present.push(parsed);
            added.push(p.to_string());
        }
        if added.is_empty() && doc.existed {
            return Ok(added);
        }
        let allow = doc
            .object
            .entry("allow")
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(list) = allow else {
            // Cannot happen: a file whose allow is not an array is rejected
            // by the loader above.
            return Err(CliError::Invalid(
                "`allow` is not an array; nothing was written".into(),
            ));
        };
        list.extend(added.iter().cloned().map(Value::String));
        self.store(doc.object)?;
        Ok(added)
    }

    /// Sets autonomy rules, reading the file under the lock. `decide` sees
    /// the loaded file and returns the rules to set, `(agent, type, mode)`;
    /// an existing rule for the same agent and type is replaced in place,
    /// others are appended. Creates the file when absent (even with nothing
    /// to set).
    pub fn set_autonomy(
        &self,
        decide: impl FnOnce(&Autonomy) -> Result<Vec<(String, ActionType, Policy)>, CliError>,
    ) -> Result<Vec<(String, ActionType, Policy)>, CliError> {
        debug_assert_eq!(self.kind, Kind::Autonomy);
        let (auto, mut doc): (Autonomy, Document) = self.load(load_autonomy)?;
        let set = decide(&auto)?;
        if set.is_empty() && doc.existed {
            return Ok(set);
        }
        for (agent, action, mode) in &set {
            let rules = doc
                .object
                .entry(agent.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(rules) = rules else {
                // Cannot happen: the loader rejects an agent that is not an
                // object.
                return Err(CliError::Invalid(format!(
                    "agent `{agent}` is not an object; nothing was written"
                )));
            };
            rules.insert(action.name().to_string(), Value::from(mode.name()));
        }
        self.store(doc.object)?;
        Ok(set)
    }
}

/// Replaces `target` with `bytes` atomically: a temporary file in the same
/// folder, synced, renamed over the target, the folder synced. A reader
/// sees the old file or the new one, and the new one survives a crash once
/// this returns. Artifacts and reports are written with it; rule files
/// too, under their lock ([`Lock`]).
pub fn atomic(target: &Path, bytes: &[u8]) -> Result<(), CliError> {
    write_atomic(target, bytes, |_| {})
}

/// [`PAUSE_ENV`]'s pause, between a rule file's temporary file and its
/// rename.
fn pause_if_asked(tmp: &Path) {
    if let Some(ms) = std::env::var(PAUSE_ENV)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        eprintln!("permc: paused before rename ({})", tmp.display());
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// [`atomic`], calling `before_rename` with the temporary file once it is
/// written and synced.
fn write_atomic(
    target: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce(&Path),
) -> Result<(), CliError> {
    let dir = folder(target);
    let tmp = sibling(target, &format!(".permc-tmp.{}", std::process::id()), true)?;
    let result = (|| -> std::io::Result<()> {
        let _ = fs::remove_file(&tmp);
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        if let Ok(meta) = fs::metadata(target) {
            f.set_permissions(meta.permissions())?;
        }
        f.sync_all()?;
        drop(f);
        before_rename(&tmp);
        fs::rename(&tmp, target)?;
        // The rename itself reaches the disk with the folder (a folder
        // cannot be opened and synced this way outside Unix).
        #[cfg(unix)]
        File::open(dir)?.sync_all()?;
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        CliError::write("write", target, e)
    })
}

/// Removes the temporary files of `target`'s writers that died (only the
/// holder of its lock may call it: a live writer's file is never there
/// then).
fn remove_stale_temporaries(target: &Path) -> Result<(), CliError> {
    let prefix = format!(".{}.permc-tmp.", file_name(target)?.to_string_lossy());
    let Ok(entries) = fs::read_dir(folder(target)) else {
        return Ok(());
    };
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = fs::remove_file(e.path());
        }
    }
    Ok(())
}

/// Creates the missing folders above `path` (an artifact to be written).
pub fn create_parent(path: &Path) -> Result<(), CliError> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            fs::create_dir_all(dir).map_err(|e| CliError::write("create the folder", dir, e))
        }
        _ => Ok(()),
    }
}

/// Recompiles the artifact from the rule files (`--policy`), with the
/// compiler's own atomic write. A file not there (yet) is left out.
pub fn recompile(
    policy: &Path,
    permissions: &Path,
    autonomy: Option<&Path>,
) -> Result<(), CliError> {
    let permissions = Some(permissions).filter(|p| p.exists());
    let autonomy = autonomy.filter(|a| a.exists());
    crate::compile::compile_to_file(permissions, autonomy, policy).map_err(|cause| {
        CliError::Recompile {
            policy: policy.to_path_buf(),
            cause: Box::new(cause),
        }
    })
}
