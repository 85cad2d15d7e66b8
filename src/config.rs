//! The project config, `permc.toml` beside permissions.json (issue 11 pt
//! 3), found by [`crate::project::discover`] as the rule files are.
//!
//! ```toml
//! protected = ["tools/hooks"]          # protected as the rule files (SPEC §6.4)
//!
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
use toml::Spanned;

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
#[derive(Debug, Clone, Default)]
pub struct CheckConfig {
    /// Checks not to run.
    pub ignore: Vec<String>,
    /// Per-check severity: `error`, `warning` or `info`.
    pub severity: BTreeMap<String, String>,
    /// Per-entry suppressions.
    pub allow: Vec<Suppression>,
}

/// One `[[check.allow]]`: a finding of `check` on `entry`, kept quiet.
#[derive(Debug, Clone)]
pub struct Suppression {
    /// The check's name.
    pub check: String,
    /// The entry as written: a pattern (`Terminal(npm run)`), or an
    /// autonomy rule's agent and key (`dev-api: terminal`).
    pub entry: toml::Spanned<String>,
    /// Why it is fine (required, not empty; read for people, kept here
    /// as written).
    #[allow(dead_code)]
    pub reason: String,
    /// Only in this rule file (its name or a path ending in it).
    pub file: Option<String>,
}

/// The file as TOML, each word that can be wrong with its place.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigToml {
    #[serde(default)]
    check: CheckToml,
    #[serde(default)]
    context: Option<toml::Spanned<toml::Table>>,
    /// Read with its spans by [`permc_runtime::commands::read`].
    #[serde(default)]
    #[allow(dead_code)]
    command: Option<toml::Value>,
    /// `protected = [...]` (SPEC §6.4), read with its spans by
    /// [`permc_runtime::commands::read`].
    #[serde(default)]
    #[allow(dead_code)]
    protected: Option<toml::Value>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckToml {
    #[serde(default)]
    ignore: Vec<Spanned<String>>,
    #[serde(default)]
    severity: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    allow: Vec<Spanned<SuppressionToml>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SuppressionToml {
    check: Spanned<String>,
    entry: Spanned<String>,
    reason: Spanned<String>,
    #[serde(default)]
    file: Option<String>,
}

/// A mistake in permc.toml: what is wrong, and the bytes it is about when
/// known. `permc check` and the others print it after the file's name
/// (exit 2); `permc lsp` shows it at its range.
#[derive(Debug, Clone)]
pub struct Mistake {
    /// Its bytes in the file.
    pub span: Option<std::ops::Range<usize>>,
    /// What is wrong, and the fix.
    pub message: String,
    /// What `permc check` prints, when it says more than `message`
    /// (TOML's report quotes the line).
    report: Option<String>,
}

fn mistake(span: std::ops::Range<usize>, message: impl std::fmt::Display) -> Mistake {
    Mistake {
        span: Some(span),
        message: message.to_string(),
        report: None,
    }
}

fn unknown_check(name: &Spanned<String>) -> Mistake {
    let hint =
        permc_grammar::action::closest(name.get_ref(), checks::CHECKS.iter().map(|c| c.name()))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
    mistake(
        name.span(),
        format!("unknown check `{}`{hint}", name.get_ref()),
    )
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
    read(text)
        .map_err(|m| {
            let why = m.report.unwrap_or(m.message);
            CliError::Invalid(format!("{}: {why}", path.display()))
        })
        .map(|mut c| {
            c.path = Some(path.to_path_buf());
            // The `[[command]]` rows' findings name the file.
            c.commands = permc_runtime::commands::read(&path.display().to_string(), text);
            c
        })
}

/// [`parse`], its mistake as data (the config's `path` is left `None`).
pub fn read(text: &str) -> Result<Config, Mistake> {
    let raw: ConfigToml = toml::from_str(text).map_err(|e| Mistake {
        span: e.span(),
        message: e.message().trim_end().to_string(),
        report: Some(e.to_string().trim_end().to_string()),
    })?;
    let c = &raw.check;
    for name in c.ignore.iter().chain(c.severity.keys()) {
        let check = checks::find(name.get_ref()).ok_or_else(|| unknown_check(name))?;
        if check.severity == Severity::Error {
            return Err(mistake(
                name.span(),
                format!(
                    "`{}` finds errors, which reject a file whole (SPEC §2): it cannot be ignored or lowered",
                    name.get_ref()
                ),
            ));
        }
    }
    for (name, word) in &c.severity {
        if severity(word.get_ref()).is_none() {
            return Err(mistake(
                word.span(),
                format!(
                    "[check.severity] {} = \"{}\": a severity is error, warning or info",
                    name.get_ref(),
                    word.get_ref()
                ),
            ));
        }
    }
    for s in &c.allow {
        let s = s.get_ref();
        let check = checks::find(s.check.get_ref()).ok_or_else(|| unknown_check(&s.check))?;
        if check.severity == Severity::Error {
            return Err(mistake(
                s.check.span(),
                format!(
                    "`{}` finds errors, which cannot be suppressed",
                    s.check.get_ref()
                ),
            ));
        }
        if s.reason.get_ref().trim().is_empty() {
            return Err(mistake(
                s.reason.span(),
                format!(
                    "the suppression of `{}` on `{}` needs a reason: say why the finding is fine",
                    s.check.get_ref(),
                    s.entry.get_ref()
                ),
            ));
        }
    }
    let context = match raw.context {
        None => serde_json::Map::new(),
        Some(t) => {
            let span = t.span();
            match serde_json::to_value(t.into_inner()) {
                Ok(serde_json::Value::Object(m)) => m,
                _ => return Err(mistake(span, "[context] must be a table")),
            }
        }
    };
    let check = raw.check;
    Ok(Config {
        path: None,
        text: text.to_string(),
        check: CheckConfig {
            ignore: check.ignore.into_iter().map(Spanned::into_inner).collect(),
            severity: check
                .severity
                .into_iter()
                .map(|(k, v)| (k.into_inner(), v.into_inner()))
                .collect(),
            allow: check
                .allow
                .into_iter()
                .map(|s| {
                    let s = s.into_inner();
                    Suppression {
                        check: s.check.into_inner(),
                        entry: s.entry,
                        reason: s.reason.into_inner(),
                        file: s.file,
                    }
                })
                .collect(),
        },
        context,
        commands: permc_runtime::commands::read(CONFIG, text),
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
    match path_beside(given, rule_files) {
        Some(c) => load(&c),
        None => Ok(Config::default()),
    }
}

/// The permc.toml [`beside`] reads: the one given, else the one in the
/// first rule file's folder when there is one.
pub fn path_beside(given: Option<&Path>, rule_files: [Option<&Path>; 2]) -> Option<PathBuf> {
    let (path, implied) = watched_path(given, rule_files)?;
    (!implied || path.is_file()).then_some(path)
}

/// Where a watcher looks for the project config: the one given, else
/// permc.toml beside the first rule file, whether or not it exists yet
/// (`permc serve` picks up one created after it started). The flag says
/// the path was not given: absent, it means no rows, not an error.
pub fn watched_path(
    given: Option<&Path>,
    rule_files: [Option<&Path>; 2],
) -> Option<(PathBuf, bool)> {
    if let Some(path) = given {
        return Some((path.to_path_buf(), false));
    }
    let file = rule_files.into_iter().flatten().next()?;
    // Named as the rule file is (relative stays relative: every output
    // names paths from the current folder).
    file.file_name()?;
    Some((file.with_file_name(CONFIG), true))
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
) -> Result<permc_core::request::Context<'static>, CliError> {
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
) -> Result<permc_core::request::Context<'static>, CliError> {
    let req = serde_json::json!({
        "action": {"type": "terminal", "command": "true"},
        "context": serde_json::Value::Object(ctx),
    });
    permc_core::Request::from_value(&req)
        .map(|r| r.into_owned().context)
        .map_err(|e| CliError::Invalid(format!("the context cannot be read ({e})")))
}

/// The text a `permc seed` project's config starts with: the answers to
/// the seeded defaults' own warnings (SPEC §8), each with its reason.
pub const SEEDED: &str = r#"# permc's project config (docs/config.md), written by `permc seed`.
# The activation defaults (SPEC §8) hold two entries the analyzer warns
# about; the platform seeds them on purpose, so they are answered here.

[[check.allow]]
check = "unanchored-mutating-verb"
entry = "Terminal(find)"
reason = "seeded default (SPEC §8): agents read the worktree with find; -delete and -exec still run inside the project scope"

[[check.allow]]
check = "broad-always-expansion"
entry = "Terminal(npm run)"
reason = "seeded default (SPEC §8): npm run runs the scripts of the project's package.json, which are reviewed with the code"

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
        assert_eq!(c.check.allow.len(), 2);
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
