//! `permc seed`: the activation defaults (SPEC §8), written in place —
//! "precompiling rules at workspace activation" with `--policy`.

use crate::error::CliError;
use crate::load;
use crate::write::{self, Kind};
use permc_core::seed::{self, DEFAULT_ALLOW, MODULE_RULE};
use permc_grammar::rules::Permissions;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// The inputs of `permc seed`.
pub struct Options {
    /// permissions.json (created when absent).
    pub permissions: PathBuf,
    /// autonomy.json (created when absent).
    pub autonomy: Option<PathBuf>,
    /// Modules whose agents `dev-<module>` get `git_commit: auto_approve`.
    pub modules: Vec<String>,
    /// Compile this artifact after seeding.
    pub policy: Option<PathBuf>,
}

/// A module name whose agent id `dev-<name>` is a plain word.
fn valid_module(m: &str) -> bool {
    m.starts_with(|c: char| c.is_ascii_alphanumeric())
        && m.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Runs `permc seed`, printing what it added as JSON.
pub fn run(o: Options) -> Result<ExitCode, CliError> {
    if let Some(m) = o.modules.iter().find(|m| !valid_module(m)) {
        return Err(CliError::Usage(format!(
            "`{m}` is not a module name: its agent id is `dev-{m}`, and a module name is \
             ASCII letters, digits, `-`, `_` and `.`, starting with a letter or a digit (no blanks)"
        )));
    }
    // Every folder the artifact needs exists before a rule file is
    // written: never rule files written and the artifact missing.
    if let Some(policy) = &o.policy {
        crate::write::create_parent(policy)?;
    }
    if !o.modules.is_empty() && o.autonomy.is_none() {
        return Err(CliError::Usage(
            "--module gives module agents an autonomy rule: give --autonomy FILE too".into(),
        ));
    }
    // Both files must load before either is written: a rejected
    // autonomy.json must not leave a half-seeded project behind. (Each is
    // read again under its lock below.)
    if o.permissions.exists() {
        load::permissions(Some(&o.permissions))?;
    }
    if let Some(a) = o.autonomy.as_deref().filter(|a| a.exists()) {
        load::autonomy(Some(a))?;
    }
    // Locks in the one order used everywhere: permissions, then autonomy.
    let plock = write::lock(&o.permissions, Kind::Permissions)?;
    let added = plock.add_allow(DEFAULT_ALLOW)?;
    let alock = match &o.autonomy {
        Some(a) => Some(write::lock(a, Kind::Autonomy)?),
        None => None,
    };
    let mut agents = Vec::new();
    if let Some(lock) = &alock {
        agents = lock.set_autonomy(|auto| {
            let plan = seed::plan(&Permissions::default(), auto, &o.modules);
            Ok(plan
                .agents
                .into_iter()
                .map(|a| (a, MODULE_RULE.0, MODULE_RULE.1))
                .collect())
        })?;
    }
    if let Some(policy) = &o.policy {
        write::recompile(policy, &o.permissions, o.autonomy.as_deref())?;
    }
    let config = write_config(&o.permissions)?;
    drop(alock);
    drop(plock);
    let autonomy: Vec<_> = agents
        .iter()
        .map(|(agent, t, mode)| json!({"agent": agent, "type": t.name(), "mode": mode.name()}))
        .collect();
    let out = json!({
        "permissions": o.permissions.display().to_string(),
        "added": added,
        "autonomy": autonomy,
        "policy": o.policy.as_ref().map(|p| p.display().to_string()),
        "config": config.map(|p| p.display().to_string()),
    });
    crate::out::println(&out.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// Writes permc.toml beside permissions.json when there is none: the
/// answers to the seeded defaults' own warnings (issue 11 pt 3), so a
/// freshly seeded project passes `permc check --fail-level warning`. An
/// existing config is the project's own and is left alone. The path
/// written, if any.
fn write_config(permissions: &std::path::Path) -> Result<Option<PathBuf>, CliError> {
    let dir = match permissions.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let path = dir.join(crate::project::CONFIG);
    if path.exists() {
        return Ok(None);
    }
    // Created only if absent: a config written meanwhile is kept.
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, crate::config::SEEDED.as_bytes()));
    match written {
        Ok(()) => Ok(Some(path)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(None),
        Err(e) => Err(CliError::write("write", path, e)),
    }
}
