//! The project config, `permc.toml` beside permissions.json (issue 11 pt
//! 3), found by [`crate::project::discover`] as the rule files are.
//!
//! ```toml
//! [check]
//! ignore = ["literal-star"]            # checks not to run
//! severity = { redundant-rule = "error" }   # per-check severity
//!
//! [[check.allow]]                      # one finding kept quiet, with why
//! check = "broad-always-expansion"
//! entry = "Terminal(npm run)"
//! reason = "npm run only runs the scripts of our package.json, reviewed"
//!
//! [context]                            # the default context of diff and test
//! role = "developer"
//! executionMode = "runner"
//!
//! [[command]]                          # a project row (docs/commands.md)
//! name = "./deploy.sh"
//! effects = ["external"]
//! ```
//!
//! The `[[command]]` rows are read by [`permc_runtime::commands`] (the
//! bindings read them there too); whatever decides refuses a config with
//! a row in error ([`Config::rows_for_deciding`]), and `permc check`
//! reports every finding about them.
//!
//! JSON cannot hold a `# noqa`, so suppressions live here, and each must
//! say why. Unknown keys and checks are errors (a typo must not silently
//! let a finding through); a suppression that matches nothing is reported.

use crate::error::CliError;
use crate::project::CONFIG;
use permc_analyzer::checks;
use permc_core::facts::project::ProjectRows;
use permc_grammar::Severity;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `permc.toml`, read.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Where it was read from (`None`: no config).
    pub path: Option<PathBuf>,
    /// Its text (for positions in findings about it).
    pub text: String,
    /// `[check]`.
    pub check: CheckConfig,
    /// `[context]`: request context fields (SPEC §10.1), as JSON.
    pub context: serde_json::Map<String, serde_json::Value>,
    /// `[[command]]`: the project's rows, and the findings about them.
    pub commands: permc_runtime::commands::Read,
}

/// `[check]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckConfig {
    /// Checks not to run.
    #[serde(default)]
    pub ignore: Vec<String>,
    /// Per-check severity: `error`, `warning` or `info`.
    #[serde(default)]
    pub severity: BTreeMap<String, String>,
    /// Per-entry suppressions.
    #[serde(default)]
    pub allow: Vec<Suppression>,
}

/// One `[[check.allow]]`: a finding of `check` on `entry`, kept quiet.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suppression {
    /// The check's name.
    pub check: String,
    /// The entry as written: a pattern (`Terminal(npm run)`), or an
    /// autonomy rule's agent and key (`dev-api: terminal`).
    pub entry: toml::Spanned<String>,
    /// Why it is fine (required, not empty).
    pub reason: String,
    /// Only in this rule file (its name or a path ending in it).
    #[serde(default)]
    pub file: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigToml {
    #[serde(default)]
    check: CheckConfig,
    #[serde(default)]
    context: Option<toml::Table>,
    /// Read with its spans by [`permc_runtime::commands::read`].
    #[serde(default)]
    #[allow(dead_code)]
    command: Option<toml::Value>,
}

fn bad(path: &Path, why: impl std::fmt::Display) -> CliError {
    CliError::Invalid(format!("{}: {why}", path.display()))
}

fn unknown_check(path: &Path, name: &str) -> CliError {
    let hint = permc_grammar::action::closest(name, checks::CHECKS.iter().map(|c| c.name()))
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default();
    bad(path, format!("unknown check `{name}`{hint}"))
}

/// Parses a severity word.
pub fn severity(word: &str) -> Option<Severity> {
    match word {
        "error" => Some(Severity::Error),
        "warning" => Some(Severity::Warning),
        "info" => Some(Severity::Info),
        _ => None,
    }
}

/// Reads and checks `permc.toml` text.
pub fn parse(path: &Path, text: &str) -> Result<Config, CliError> {
    let raw: ConfigToml = toml::from_str(text).map_err(|e| bad(path, e.to_string().trim_end()))?;
    let c = &raw.check;
    for name in c.ignore.iter().chain(c.severity.keys()) {
        let check = checks::find(name).ok_or_else(|| unknown_check(path, name))?;
        if check.severity == Severity::Error {
            return Err(bad(
                path,
                format!(
                    "`{name}` finds errors, which reject a file whole (SPEC §2): it cannot be ignored or lowered"
                ),
            ));
        }
    }
    for (name, word) in &c.severity {
        if severity(word).is_none() {
            return Err(bad(
                path,
                format!(
                    "[check.severity] {name} = \"{word}\": a severity is error, warning or info"
                ),
            ));
        }
    }
    for s in &c.allow {
        let check = checks::find(&s.check).ok_or_else(|| unknown_check(path, &s.check))?;
        if check.severity == Severity::Error {
            return Err(bad(
                path,
                format!("`{}` finds errors, which cannot be suppressed", s.check),
            ));
        }
        if s.reason.trim().is_empty() {
            return Err(bad(
                path,
                format!(
                    "the suppression of `{}` on `{}` needs a reason: say why the finding is fine",
                    s.check,
                    s.entry.get_ref()
                ),
            ));
        }
    }
    let context = match raw.context {
        None => serde_json::Map::new(),
        Some(t) => match serde_json::to_value(t) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => return Err(bad(path, "[context] must be a table")),
        },
    };
    Ok(Config {
        path: Some(path.to_path_buf()),
        text: text.to_string(),
        check: raw.check,
        context,
        commands: permc_runtime::commands::read(&path.display().to_string(), text),
    })
}

impl Config {
    /// The project's rows for a command that decides: warnings about them
    /// printed on stderr; a row in error refuses the config whole (exit 2,
    /// every finding shown) — never a decision without a row it holds.
    pub fn rows_for_deciding(&self) -> Result<ProjectRows, CliError> {
        let c = &self.commands;
        let name = self
            .path
            .as_ref()
            .map_or_else(|| CONFIG.to_string(), |p| p.display().to_string());
        if c.has_errors() {
            return Err(CliError::Rejected {
                file: name,
                text: self.text.clone(),
                diagnostics: c.diagnostics.clone(),
                refused: crate::error::Refused::Deciding,
            });
        }
        let warnings = permc_analyzer::output::plain(&c.diagnostics, &self.text);
        if !warnings.is_empty() {
            eprint!("{warnings}");
        }
        Ok(c.rows.clone())
    }
}

/// The config of a command that decides: `--config FILE` when given, else
/// the permc.toml beside the rule file it decides with (permissions.json,
/// else autonomy.json), else none.
pub fn beside(given: Option<&Path>, rule_files: [Option<&Path>; 2]) -> Result<Config, CliError> {
    if let Some(path) = given {
        return load(path);
    }
    let Some(file) = rule_files.into_iter().flatten().next() else {
        return Ok(Config::default());
    };
    let dir = std::path::absolute(file)
        .ok()
        .and_then(|f| f.parent().map(Path::to_path_buf));
    match dir.map(|d| d.join(CONFIG)).filter(|c| c.is_file()) {
        Some(c) => load(&c),
        None => Ok(Config::default()),
    }
}

/// [`beside`]'s rows for deciding ([`Config::rows_for_deciding`]).
pub fn rows_beside(
    given: Option<&Path>,
    rule_files: [Option<&Path>; 2],
) -> Result<ProjectRows, CliError> {
    beside(given, rule_files)?.rows_for_deciding()
}

/// Reads a `permc.toml`.
pub fn load(path: &Path) -> Result<Config, CliError> {
    // `--config /dev/null` says "no configuration"; any other path must be
    // a regular file (a FIFO would hang the reader).
    let text = if path == Path::new("/dev/null") {
        String::new()
    } else {
        permc_runtime::file::read_regular_text(path).map_err(|e| CliError::unreadable(path, e))?
    };
    parse(path, &text)
}

/// The config of the project around `start` (empty when there is none).
pub fn discover(start: &Path) -> Result<(Config, Option<PathBuf>), CliError> {
    match crate::project::discover(start) {
        Some(p) => Ok((
            match &p.config {
                Some(c) => load(c)?,
                None => Config::default(),
            },
            Some(p.root),
        )),
        None => Ok((Config::default(), None)),
    }
}

/// The config of the project around the current folder, and its root.
pub fn here() -> Result<(Config, Option<PathBuf>), CliError> {
    let cwd = std::env::current_dir().map_err(CliError::CurrentFolder)?;
    discover(&cwd)
}

/// The context of `diff` and `test` (SPEC §10.1's `context`): role
/// `developer`, `runner` mode, the project folder as scope root; then the
/// config's `[context]`; then `overrides` (a JSON object).
pub fn context(
    config: &Config,
    root: Option<&Path>,
    overrides: Option<&str>,
) -> Result<permc_core::request::Context, CliError> {
    let mut ctx = context_fields(config, root);
    if let Some(text) = overrides {
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(m)) => ctx.extend(m),
            Ok(_) => return Err(CliError::Usage("--context must be a JSON object".into())),
            Err(e) => return Err(CliError::Usage(format!("--context is not JSON: {e}"))),
        }
    }
    context_of(ctx)
}

/// The default context's JSON fields (SPEC §10.1): role `developer`,
/// `runner` mode, the project folder as scope root; then the config's
/// `[context]` over them.
pub fn context_fields(
    config: &Config,
    root: Option<&Path>,
) -> serde_json::Map<String, serde_json::Value> {
    let mut ctx = serde_json::Map::new();
    ctx.insert("role".into(), "developer".into());
    ctx.insert("executionMode".into(), "runner".into());
    let root = root
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"));
    let root = std::path::absolute(&root).unwrap_or(root);
    ctx.insert("projectScopeRoot".into(), root.display().to_string().into());
    ctx.extend(config.context.clone());
    ctx
}

/// A context from its JSON fields, read as a request's (strictly).
pub fn context_of(
    ctx: serde_json::Map<String, serde_json::Value>,
) -> Result<permc_core::request::Context, CliError> {
    let req = serde_json::json!({
        "action": {"type": "terminal", "command": "true"},
        "context": serde_json::Value::Object(ctx),
    });
    permc_core::Request::from_value(&req)
        .map(|r| r.context)
        .map_err(|e| CliError::Invalid(format!("the context cannot be read ({e})")))
}

/// The text a `permc seed` project's config starts with: the answers to
/// the seeded defaults' own warnings (SPEC §8), each with its reason.
pub const SEEDED: &str = r#"# permc's project config (README "permc.toml"), written by `permc seed`.
# The activation defaults (SPEC §8) hold three entries the analyzer warns
# about; the platform seeds them on purpose, so they are answered here.

[[check.allow]]
check = "unanchored-mutating-verb"
entry = "Terminal(find)"
reason = "seeded default (SPEC §8): agents read the worktree with find; -delete and -exec still run inside the project scope"

[[check.allow]]
check = "broad-always-expansion"
entry = "Terminal(npm run)"
reason = "seeded default (SPEC §8): npm run runs the scripts of the project's package.json, which are reviewed with the code"

[[check.allow]]
check = "broad-always-expansion"
entry = "Terminal(npx vitest)"
reason = "seeded default (SPEC §8, RN-675): npx vitest runs the project's own test runner"

[context]
role = "developer"
executionMode = "runner"
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeded_config_reads() {
        let c = parse(Path::new("permc.toml"), SEEDED).expect("reads");
        assert_eq!(c.check.allow.len(), 3);
        assert_eq!(c.context.get("role"), Some(&"developer".into()));
    }

    #[test]
    fn typos_and_missing_reasons_are_errors() {
        let p = Path::new("permc.toml");
        let e = parse(p, "[check]\nignore = [\"literal-stra\"]\n")
            .expect_err("typo")
            .to_string();
        assert!(e.contains("did you mean `literal-star`"), "{e}");
        let e = parse(p, "[chek]\n").expect_err("unknown table").to_string();
        assert!(e.contains("chek"), "{e}");
        let e = parse(
            p,
            "[[check.allow]]\ncheck = \"literal-star\"\nentry = \"Terminal(*)\"\nreason = \" \"\n",
        )
        .expect_err("no reason")
        .to_string();
        assert!(e.contains("needs a reason"), "{e}");
        let e = parse(p, "[check.severity]\ninvalid-json = \"info\"\n")
            .expect_err("error check")
            .to_string();
        assert!(e.contains("cannot be ignored or lowered"), "{e}");
    }
}
