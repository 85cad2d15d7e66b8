//! `permc always`: what an "always allow" click records (SPEC §7, §10.3),
//! and with `--write`, recording it.

use crate::error::CliError;
use crate::load;
use crate::write::{self, Kind};
use permc_core::always::{self, Derivation};
use permc_core::request::Request;
use permc_grammar::rules::{AutonomyKey, Permissions};
use permc_grammar::Policy;
use permc_runtime::always as outcome;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The inputs of `permc always`.
pub struct Options {
    /// permissions.json (created by `--write` when absent).
    pub permissions: PathBuf,
    /// autonomy.json (module agents' rules go there).
    pub autonomy: Option<PathBuf>,
    /// The request (SPEC §10.1) whose action a person always-allows.
    pub request: String,
    /// Record the outcome in the rule file.
    pub write: bool,
    /// Recompile this artifact after writing.
    pub policy: Option<PathBuf>,
}

/// Loads a rule file that may not exist yet (read only; `None` → absent).
fn permissions_if_any(path: &Path) -> Result<Permissions, CliError> {
    if path.exists() {
        Ok(load::permissions(Some(path))?.0)
    } else {
        Ok(Permissions::default())
    }
}

/// Runs `permc always`, printing one JSON object.
pub fn run(o: Options) -> Result<ExitCode, CliError> {
    let req = Request::from_json(&o.request).map_err(CliError::Request)?;
    // The artifact's folders exist before a rule file is written.
    if let Some(policy) = o.policy.as_deref().filter(|_| o.write) {
        write::create_parent(policy)?;
    }
    // Rejected rule files stop everything (SPEC §2, exit 2), written or not.
    let perms = permissions_if_any(&o.permissions)?;
    if let Some(a) = o.autonomy.as_deref().filter(|a| a.exists()) {
        load::autonomy(Some(a))?;
    }
    // The project's own tools (permc.toml beside the rule files).
    let rows =
        crate::config::rows_beside(None, [Some(o.permissions.as_path()), o.autonomy.as_deref()])?;
    let out = match always::derive_with(&req.action, &rows) {
        Derivation::Refused(why) => outcome::refused(&why),
        Derivation::Autonomy { agent, action } => {
            let mut message = outcome::autonomy_message(&agent, action);
            if o.write {
                let path = o.autonomy.as_deref().ok_or_else(|| {
                    CliError::Usage(format!(
                        "{agent} is a module agent, so always-allow records an autonomy rule: \
                         give --autonomy FILE to write it"
                    ))
                })?;
                let lock = write::lock(path, Kind::Autonomy)?;
                let set = lock.set_autonomy(|auto| {
                    match auto.get(&agent, AutonomyKey::Type(action)) {
                        // No configuration reverses a deny (SPEC §5.3).
                        Some(r) if r.mode == Policy::Deny => Err(CliError::Invalid(format!(
                            "{} denies {} to {agent} ({}); always-allow does not lift a deny",
                            path.display(),
                            action.name(),
                            r.location
                        ))),
                        Some(r) if r.mode == Policy::AutoApprove => Ok(Vec::new()),
                        _ => Ok(vec![(agent.clone(), action, Policy::AutoApprove)]),
                    }
                })?;
                if set.is_empty() {
                    message.push_str(" (already in autonomy.json)");
                }
                if let Some(policy) = &o.policy {
                    write::recompile(policy, &o.permissions, Some(path))?;
                }
                drop(lock);
            }
            outcome::autonomy(&agent, action, message)
        }
        Derivation::Patterns(recorded) => {
            let added: Vec<String> = if o.write {
                let patterns: Vec<&str> = recorded.iter().map(|r| r.pattern.as_str()).collect();
                let lock = write::lock(&o.permissions, Kind::Permissions)?;
                let added = lock.add_allow(&patterns)?;
                if let Some(policy) = &o.policy {
                    write::recompile(policy, &o.permissions, o.autonomy.as_deref())?;
                }
                drop(lock);
                added
            } else {
                outcome::not_yet_allowed(&recorded, &perms)
            };
            outcome::patterns(&recorded, &added)
        }
    };
    crate::out::println(&out.to_string())?;
    Ok(ExitCode::SUCCESS)
}
