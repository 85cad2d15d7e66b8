//! Loading rule files for the CLI: read, report every diagnostic, refuse
//! to go on with a file that does not load (exit 2).

use permc_analyzer::Kind;
use permc_core::Rules;
use permc_grammar::diagnostic::{render_plain, Diagnostic};
use permc_grammar::rules::{load_autonomy, load_permissions, Autonomy, Permissions};
use permc_grammar::Severity;
use std::path::Path;

/// A failure that ends the command with exit status 2.
#[derive(Debug)]
pub struct Fatal(pub String);

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads a file, naming it in the error.
pub fn read_file(path: &Path) -> Result<Vec<u8>, Fatal> {
    std::fs::read(path).map_err(|e| Fatal(format!("error: cannot read {}: {e}", path.display())))
}

pub use permc_runtime::every_diagnostic;

fn report(diags: &[Diagnostic], name: &str, text: &[u8], kind: Kind) -> Result<(), Fatal> {
    let diags = &every_diagnostic(name, text, kind, diags.to_vec());
    let text = String::from_utf8_lossy(text).into_owned();
    let rendered = render_plain(diags, |_| Some(text.clone()));
    if diags.iter().any(|d| d.severity == Severity::Error) {
        return Err(Fatal(format!(
            "{rendered}error: {name} was rejected: nothing is decided from a partly loaded policy"
        )));
    }
    if !rendered.is_empty() {
        eprint!("{rendered}");
    }
    Ok(())
}

/// Loads permissions.json (`None` path → an empty file).
pub fn permissions(path: Option<&Path>) -> Result<(Permissions, Vec<u8>), Fatal> {
    let Some(path) = path else {
        return Ok((Permissions::default(), Vec::new()));
    };
    let bytes = read_file(path)?;
    let name = path.display().to_string();
    let loaded = load_permissions(&name, &bytes);
    report(&loaded.diagnostics, &name, &bytes, Kind::Permissions)?;
    let value = loaded
        .value
        .ok_or_else(|| Fatal(format!("error: {name} was rejected")))?;
    Ok((value, bytes))
}

/// Loads autonomy.json (`None` path → no autonomy rules).
pub fn autonomy(path: Option<&Path>) -> Result<(Autonomy, Vec<u8>), Fatal> {
    let Some(path) = path else {
        return Ok((Autonomy::default(), Vec::new()));
    };
    let bytes = read_file(path)?;
    let name = path.display().to_string();
    let loaded = load_autonomy(&name, &bytes);
    report(&loaded.diagnostics, &name, &bytes, Kind::Autonomy)?;
    let value = loaded
        .value
        .ok_or_else(|| Fatal(format!("error: {name} was rejected")))?;
    Ok((value, bytes))
}

/// Loads both files into [`Rules`], with their raw bytes (for hashing).
pub fn rules(
    permissions_path: Option<&Path>,
    autonomy_path: Option<&Path>,
) -> Result<(Rules, Vec<u8>, Vec<u8>), Fatal> {
    let (p, pb) = permissions(permissions_path)?;
    let (a, ab) = autonomy(autonomy_path)?;
    Ok((Rules::new(p, a), pb, ab))
}
