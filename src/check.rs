//! `permc check [FILES…]`: the static analyzer (SPEC §11) on the command
//! line — reading the files, choosing the output, the exit status.
//!
//! Exit status (SPEC §10.3): 0 when nothing fails the run; 1 when the
//! analyzer found an error — a rejected rule file included: under `check`
//! its errors are findings, all reported, not a reason to stop — or a
//! warning under `--deny warnings`; 2 for bad usage (an unknown check
//! name) and files that cannot be read. Infos never fail a run.

use crate::load::Fatal;
use clap::{Args, ValueEnum};
use permc_analyzer::checks::{self, CHECKS};
use permc_analyzer::output::{self, Source};
use permc_analyzer::{check_file, Kind, Options};
use permc_grammar::action::closest;
use permc_grammar::Severity;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-style, for people.
    Human,
    /// `{"diagnostics": [...]}` (SPEC §11).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow-command annotations.
    Github,
}

/// When to color the human output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// When standard output is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// What `--deny` can turn into failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DenyLevel {
    /// Warnings fail the run (exit 1) like errors.
    Warnings,
}

/// The arguments of `permc check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Rule files to check: permissions.json and autonomy.json files, told
    /// apart by name (containing `permission` or `autonomy`) or else by
    /// content; a folder stands for those two files in it. Default:
    /// permissions.json and autonomy.json in the current folder, those
    /// that exist.
    #[arg(value_name = "FILES")]
    files: Vec<PathBuf>,
    /// How to print the findings.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Colors in the human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// `--deny warnings`: warnings fail the run too (exit 1).
    #[arg(long, value_enum, value_name = "LEVEL")]
    deny: Option<DenyLevel>,
    /// Checks not to run (repeat it, or separate names with commas).
    #[arg(long, value_name = "CHECK", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Print a check's documentation and exit.
    #[arg(long, value_name = "CHECK", exclusive = true)]
    explain: Option<String>,
    /// The project folder: a scope root besides /work and /tmp
    /// (neutralized-by-ceiling).
    #[arg(long, value_name = "DIR")]
    project_root: Option<String>,
}

fn unknown_check(name: &str) -> Fatal {
    let hint = match closest(name, CHECKS.iter().map(|c| c.name)) {
        Some(s) => format!(" (did you mean `{s}`?)"),
        None => String::new(),
    };
    let all: Vec<&str> = CHECKS.iter().map(|c| c.name).collect();
    Fatal(format!(
        "error: unknown check `{name}`{hint}; the checks are: {}",
        all.join(", ")
    ))
}

/// Runs `permc check`.
pub fn run(args: CheckArgs) -> Result<ExitCode, Fatal> {
    if let Some(name) = &args.explain {
        let check = checks::find(name).ok_or_else(|| unknown_check(name))?;
        crate::out::println(&format!(
            "# {} ({})\n\n{}",
            check.name,
            check.severity.name(),
            check.docs().trim_end()
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    for name in &args.ignore {
        let check = checks::find(name).ok_or_else(|| unknown_check(name))?;
        if check.severity == Severity::Error {
            return Err(Fatal(format!(
                "error: `{name}` cannot be ignored: a file with errors is rejected whole (SPEC §2), whatever the analyzer prints"
            )));
        }
    }
    let files = if args.files.is_empty() {
        // The project's files, found as git finds `.git`; else an
        // autonomy.json alone in the current folder.
        let found: Vec<PathBuf> = match crate::project::discover_here() {
            Some(p) => std::iter::once(p.permissions).chain(p.autonomy).collect(),
            None => [crate::project::AUTONOMY]
                .into_iter()
                .map(PathBuf::from)
                .filter(|p| p.is_file())
                .collect(),
        };
        if found.is_empty() {
            return Err(Fatal(
                "error: no rule files to check: give FILES, or run inside a project (a folder holding permissions.json, or below one)".into(),
            ));
        }
        found
    } else {
        // A folder stands for the rule files in it.
        let mut files = Vec::new();
        for f in &args.files {
            if f.is_dir() {
                let inside: Vec<PathBuf> = ["permissions.json", "autonomy.json"]
                    .into_iter()
                    .map(|n| f.join(n))
                    .filter(|p| p.is_file())
                    .collect();
                if inside.is_empty() {
                    return Err(Fatal(format!(
                        "error: {} holds no permissions.json or autonomy.json",
                        f.display()
                    )));
                }
                files.extend(inside);
            } else {
                files.push(f.clone());
            }
        }
        files
    };
    let options = Options {
        project_root: args.project_root.clone(),
        ignore: args.ignore.clone(),
    };
    let mut sources = Vec::new();
    let mut diags = Vec::new();
    for path in &files {
        let bytes = crate::load::read_file(path)?;
        let name = path.display().to_string();
        let kind = Kind::detect(&name, &bytes);
        diags.extend(check_file(&name, &bytes, Some(kind), &options));
        sources.push(Source {
            name,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        });
    }
    let text = match args.format {
        Format::Human => {
            let color = match args.color {
                Color::Always => true,
                Color::Never => false,
                Color::Auto => {
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            output::human(&diags, &sources, color)
        }
        Format::Json => output::json(&diags, &sources) + "\n",
        Format::Sarif => output::sarif(&diags, &sources) + "\n",
        Format::Github => output::github(&diags, &sources),
    };
    // A closed pipe (`permc check | head`) is not an analyzer failure; a
    // failed write is (exit 2).
    crate::out::print(&text)?;
    let fails = diags.iter().any(|d| {
        d.severity == Severity::Error
            || (d.severity == Severity::Warning && args.deny == Some(DenyLevel::Warnings))
    });
    Ok(if fails {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
