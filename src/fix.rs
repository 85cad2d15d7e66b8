//! `permc fix [FILES…]`: applies the analyzer's machine-applicable
//! suggestions ([`permc_analyzer::fix`]) to permissions.json files, each
//! written atomically under its lock by the rule files' one writer
//! ([`crate::write`], as `permc always --write`).
//!
//! Safe fixes change no decision and are applied by default; unsafe ones
//! (a compound pattern split per segment, an unanchored verb replaced by
//! its anchored forms) only under `--unsafe-fixes`. `--diff` prints the
//! change as a unified diff and writes nothing (exit 1 when there is one,
//! as `ruff --diff`). permc.toml's `[check]` holds here as in `permc
//! check`: an ignored or suppressed finding is not fixed.

use crate::check::{Color, Suppressions};
use crate::error::CliError;
use clap::Args;
use permc_analyzer::fix::{apply_all_filtered, Applicability, Fixed};
use permc_analyzer::{Kind, Options};
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `permc fix`.
#[derive(Debug, Args)]
pub struct FixArgs {
    /// permissions.json files to fix (autonomy.json files have nothing to
    /// fix). Default: the project's, found from the current folder up.
    #[arg(value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Also apply the fixes that change decisions on purpose: a compound
    /// Terminal pattern split into one per segment, an unanchored mutating
    /// verb replaced by its anchored forms.
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print what would change, as a unified diff, and write nothing (exit
    /// 1 when something would change).
    #[arg(long)]
    diff: bool,
    /// The project config (default: the permc.toml beside the project's
    /// permissions.json): its `[check]` ignores and suppressions hold.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Checks whose findings not to fix (repeat it, or separate names with
    /// commas).
    #[arg(long, value_name = "CHECK", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Colors in the diff.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

/// The permissions files to fix.
fn files(args: &FixArgs) -> Result<Vec<PathBuf>, CliError> {
    if !args.files.is_empty() {
        return Ok(args.files.clone());
    }
    match crate::project::discover_here() {
        // Named from the current folder, as a person would.
        Some(p) => Ok(vec![std::env::current_dir()
            .ok()
            .and_then(|cwd| p.permissions.strip_prefix(cwd).ok().map(PathBuf::from))
            .unwrap_or(p.permissions)]),
        None => Err(CliError::Usage(
            "no rule files to fix: give FILES, or run inside a project (a folder holding permissions.json, or below one)".into(),
        )),
    }
}

/// `redundant-rule: 2, literal-star: 1`.
fn counts(fixed: &Fixed) -> String {
    let parts: Vec<String> = fixed
        .applied
        .iter()
        .map(|(c, n)| format!("{}: {n}", c.name()))
        .collect();
    parts.join(", ")
}

/// `a/permissions.json` for a relative name, as git writes it; an absolute
/// name as it is.
fn side(prefix: &str, name: &str) -> String {
    if name.starts_with('/') {
        name.to_string()
    } else {
        format!("{prefix}/{name}")
    }
}

/// A unified diff of a file's change, colored when asked.
fn unified(name: &str, old: &str, new: &str, color: bool) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff
        .unified_diff()
        .context_radius(2)
        .header(&side("a", name), &side("b", name))
        .to_string();
    if !color {
        return text;
    }
    text.lines()
        .map(|l| {
            let code = if l.starts_with("+++") || l.starts_with("---") {
                "1"
            } else if l.starts_with('+') {
                "32"
            } else if l.starts_with('-') {
                "31"
            } else if l.starts_with("@@") {
                "36"
            } else {
                return format!("{l}\n");
            };
            format!("\x1b[{code}m{l}\x1b[0m\n")
        })
        .collect()
}

/// Runs `permc fix`.
pub fn run(args: FixArgs) -> Result<ExitCode, CliError> {
    for name in &args.ignore {
        if permc_analyzer::checks::find(name).is_none() {
            return Err(CliError::Usage(format!("unknown check `{name}`")));
        }
    }
    let cwd = std::env::current_dir().map_err(CliError::CurrentFolder)?;
    let config = match &args.config {
        Some(path) => crate::config::load(path)?,
        None => crate::config::discover(&cwd)?.0,
    };
    let mut ignore = args.ignore.clone();
    ignore.extend(config.check.ignore.iter().cloned());
    let options = Options {
        project_root: None,
        ignore,
        // Fixes read the project's tools as `permc check` does.
        commands: config.commands.rows.clone(),
    };
    let allowed = if args.unsafe_fixes {
        Applicability::Unsafe
    } else {
        Applicability::Safe
    };
    let color = args.color.enabled(false);
    let mut changed = false;
    let mut diffs = String::new();
    for path in files(&args)? {
        let name = path.display().to_string();
        let bytes =
            permc_runtime::file::read_regular(&path).map_err(|e| CliError::unreadable(&path, e))?;
        if Kind::detect(&name, &bytes) != Kind::Permissions {
            eprintln!("{name}: an autonomy.json: nothing to fix");
            continue;
        }
        let fix_text = |bytes: &[u8]| {
            let mut suppress = Suppressions::new(&config);
            apply_all_filtered(&name, bytes, allowed, &options, &mut |b, d| {
                suppress.filter(&name, b, d)
            })
        };
        if args.diff {
            let fixed = fix_text(&bytes);
            let old = String::from_utf8_lossy(&bytes);
            if fixed.text != old {
                changed = true;
                diffs.push_str(&unified(&name, &old, &fixed.text, color));
                eprintln!("{name}: would fix {}", counts(&fixed));
            }
            continue;
        }
        let lock = crate::write::lock(&path, crate::write::Kind::Permissions)?;
        let mut done = None;
        let wrote = lock.rewrite(|now| {
            let fixed = fix_text(now);
            let text = fixed.text.clone();
            done = Some(fixed);
            Some(text)
        })?;
        drop(lock);
        if let (true, Some(fixed)) = (wrote, done) {
            changed = true;
            eprintln!("{name}: fixed {}", counts(&fixed));
        }
    }
    if args.diff {
        crate::out::print(&diffs)?;
        return Ok(if changed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        });
    }
    if !changed {
        eprintln!("nothing to fix");
    }
    Ok(ExitCode::SUCCESS)
}
