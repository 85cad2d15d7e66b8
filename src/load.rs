//! Loading rule files for the CLI: read, report every diagnostic, refuse
//! to go on with a file that does not load (exit 2).

use crate::error::{CliError, Refused};
use permc_analyzer::Kind;
use permc_core::Rules;
use permc_grammar::rules::{load_autonomy, load_permissions, Autonomy, Loaded, Permissions};
use permc_grammar::Severity;
use std::path::Path;

/// Reads a rule file or an artifact, naming it in the error: a regular
/// file only (a FIFO hung, `/dev/zero` filled memory), bounded in size.
pub fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    permc_runtime::file::read_regular(path).map_err(|e| CliError::unreadable(path, e))
}

pub use permc_runtime::every_diagnostic;

/// The value of a loaded rule file, its warnings printed on stderr; or,
/// when it has an error (the reader gives no value then), every error
/// found in it and the refusal.
fn accept<T>(loaded: Loaded<T>, name: &str, text: &[u8], kind: Kind) -> Result<T, CliError> {
    let diagnostics = every_diagnostic(name, text, kind, loaded.diagnostics);
    let text = String::from_utf8_lossy(text).into_owned();
    match loaded.value {
        Some(value) if !diagnostics.iter().any(|d| d.severity == Severity::Error) => {
            let warnings = permc_analyzer::output::plain(&diagnostics, &text);
            if !warnings.is_empty() {
                eprint!("{warnings}");
            }
            Ok(value)
        }
        _ => Err(CliError::Rejected {
            file: name.to_string(),
            text,
            diagnostics,
            refused: Refused::Deciding,
        }),
    }
}

/// Loads permissions.json (`None` path → an empty file).
pub fn permissions(path: Option<&Path>) -> Result<(Permissions, Vec<u8>), CliError> {
    let Some(path) = path else {
        return Ok((Permissions::default(), Vec::new()));
    };
    let bytes = read_file(path)?;
    let name = path.display().to_string();
    let value = accept(
        load_permissions(&name, &bytes),
        &name,
        &bytes,
        Kind::Permissions,
    )?;
    Ok((value, bytes))
}

/// Loads autonomy.json (`None` path → no autonomy rules).
pub fn autonomy(path: Option<&Path>) -> Result<(Autonomy, Vec<u8>), CliError> {
    let Some(path) = path else {
        return Ok((Autonomy::default(), Vec::new()));
    };
    let bytes = read_file(path)?;
    let name = path.display().to_string();
    let value = accept(load_autonomy(&name, &bytes), &name, &bytes, Kind::Autonomy)?;
    Ok((value, bytes))
}

/// Loads both files into [`Rules`], with their raw bytes (for hashing).
pub fn rules(
    permissions_path: Option<&Path>,
    autonomy_path: Option<&Path>,
) -> Result<(Rules, Vec<u8>, Vec<u8>), CliError> {
    let (p, pb) = permissions(permissions_path)?;
    let (a, ab) = autonomy(autonomy_path)?;
    Ok((Rules::new(p, a), pb, ab))
}
