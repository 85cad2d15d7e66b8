//! `permc check [FILES…]`: the static analyzer (SPEC §11) on the command
//! line — reading the files, choosing the output, the exit status.
//!
//! Exit status (SPEC §10.3): 0 when nothing fails the run; 1 when the
//! analyzer found an error — a rejected rule file included: under `check`
//! its errors are findings, all reported, not a reason to stop — or a
//! warning under `--deny warnings`; 2 for bad usage (an unknown check
//! name) and files that cannot be read. Infos never fail a run.

use crate::error::CliError;
use clap::{Args, ValueEnum};
use permc_analyzer::checks::{self, CHECKS};
use permc_analyzer::output::{self, Source};
use permc_analyzer::{check_file, Options};
use permc_grammar::action::closest;
use permc_grammar::Severity;
use std::io::Read;
use std::path::{Path, PathBuf};
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

impl Color {
    /// Whether to color output for people: `auto` when standard output is
    /// a terminal or `FORCE_COLOR`/`CLICOLOR_FORCE` asks for it, and not
    /// `to_file` and `NO_COLOR` is not set ([`crate::out::auto_color`]).
    pub fn enabled(self, to_file: bool) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => !to_file && crate::out::auto_color(),
        }
    }
}

/// The least severity that fails the run (`--fail-level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailLevel {
    /// Errors only (the default).
    Error,
    /// Warnings and errors.
    Warning,
    /// Any finding.
    Info,
}

impl FailLevel {
    fn severity(self) -> Severity {
        match self {
            FailLevel::Error => Severity::Error,
            FailLevel::Warning => Severity::Warning,
            FailLevel::Info => Severity::Info,
        }
    }
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
    /// content (a file that is neither is reported as such); a folder
    /// stands for those two files in it; `-` is standard input (see
    /// --stdin-filename). Default: the project's permissions.json and
    /// autonomy.json, found from the current folder upwards.
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
    /// The least severity that fails the run (exit 1); `--deny warnings`
    /// is `--fail-level warning`.
    #[arg(long, value_enum, value_name = "LEVEL", conflicts_with = "deny")]
    fail_level: Option<FailLevel>,
    /// The project config (default: the permc.toml beside the project's
    /// permissions.json, found from the current folder up): its `[check]`
    /// ignores checks, sets severities and suppresses findings on entries.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Checks not to run (repeat it, or separate names with commas).
    #[arg(long, value_name = "CHECK", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Print a check's documentation and exit.
    #[arg(long, value_name = "CHECK", exclusive = true)]
    explain: Option<String>,
    /// The project folder: a scope root besides /work and /tmp
    /// (neutralized-by-ceiling), and `%SRCROOT%` of SARIF's file URIs
    /// (default: the project found from the current folder). A relative
    /// one is taken from the current folder.
    #[arg(long, value_name = "DIR")]
    project_root: Option<String>,
    /// Write the report to this file (whole, or not at all) instead of
    /// standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output_file: Option<PathBuf>,
    /// A count of findings per check instead of the findings (with how
    /// many `permc fix` can fix); `--format json` prints them as JSON.
    #[arg(long)]
    statistics: bool,
    /// Report only the findings that fail the run (at or above
    /// --fail-level), without the summary line: nothing when it passes.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Exit 0 even when findings fail the run (still 2 for a file that
    /// cannot be read): report without gating.
    #[arg(long)]
    exit_zero: bool,
    /// The name of the file read from standard input (`-`), for editors:
    /// it names the findings and tells the file's kind.
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<String>,
}

fn unknown_check(name: &str) -> CliError {
    let hint = match closest(name, CHECKS.iter().map(|c| c.name())) {
        Some(s) => format!(" (did you mean `{s}`?)"),
        None => String::new(),
    };
    let all: Vec<&str> = CHECKS.iter().map(|c| c.name()).collect();
    CliError::Usage(format!(
        "unknown check `{name}`{hint}; the checks are: {}",
        all.join(", ")
    ))
}

/// Prints the documentation of a check or file finding.
fn explain(name: &str) -> Result<ExitCode, CliError> {
    let (name, severity, docs) = checks::all_docs()
        .into_iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| unknown_check(name))?;
    crate::out::println(&format!(
        "# {name} ({})\n\n{}",
        severity.name(),
        docs.trim_end()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// What is checked: a file on disk, or standard input under a name.
enum Input {
    File(PathBuf),
    Stdin(String),
    /// A folder holding no rule file: reported, not checked.
    EmptyFolder(PathBuf),
}

/// The files to check: those given (a folder stands for the rule files in
/// it, `-` for standard input), else the project's.
fn inputs(args: &CheckArgs) -> Result<Vec<Input>, CliError> {
    if args.files.is_empty() {
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
            return Err(CliError::Usage(
                "no rule files to check: give FILES, or run inside a project (a folder holding permissions.json, or below one)".into(),
            ));
        }
        return Ok(found.into_iter().map(Input::File).collect());
    }
    let mut out = Vec::new();
    for f in &args.files {
        if f.as_os_str() == "-" {
            let name = args
                .stdin_filename
                .clone()
                .unwrap_or_else(|| "<stdin>".into());
            out.push(Input::Stdin(name));
        } else if f.is_dir() {
            let inside: Vec<PathBuf> = ["permissions.json", "autonomy.json"]
                .into_iter()
                .map(|n| f.join(n))
                .filter(|p| p.is_file())
                .collect();
            if inside.is_empty() {
                out.push(Input::EmptyFolder(f.clone()));
            }
            out.extend(inside.into_iter().map(Input::File));
        } else {
            out.push(Input::File(f.clone()));
        }
    }
    if args.stdin_filename.is_some() && !args.files.iter().any(|f| f.as_os_str() == "-") {
        return Err(CliError::Usage(
            "--stdin-filename names standard input: give `-` among the files too".into(),
        ));
    }
    Ok(out)
}

/// `--project-root`, absolute: a relative one is taken from the current
/// folder, and said so.
fn project_root(args: &CheckArgs, cwd: &Path) -> Option<String> {
    let given = args.project_root.as_deref()?;
    if Path::new(given).is_absolute() {
        return Some(given.to_string());
    }
    let abs = cwd.join(given);
    let abs = abs.to_string_lossy().into_owned();
    eprintln!("note: --project-root `{given}` is relative: taken as {abs}");
    Some(abs)
}

/// Writes a report whole ([`crate::write::atomic`]).
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    crate::write::atomic(path, bytes)
}

/// Runs `permc check`.
pub fn run(args: CheckArgs) -> Result<ExitCode, CliError> {
    if let Some(name) = &args.explain {
        return explain(name);
    }
    for name in &args.ignore {
        let check = checks::find(name).ok_or_else(|| unknown_check(name))?;
        if check.severity == Severity::Error {
            return Err(CliError::Usage(format!(
                "`{name}` cannot be ignored: a file with errors is rejected whole (SPEC §2), whatever the analyzer prints"
            )));
        }
    }
    let cwd = std::env::current_dir().map_err(CliError::CurrentFolder)?;
    let config = match &args.config {
        Some(path) => crate::config::load(path)?,
        None => crate::config::discover(&cwd)?.0,
    };
    let inputs = inputs(&args)?;
    let mut ignore = args.ignore.clone();
    ignore.extend(config.check.ignore.iter().cloned());
    let options = Options {
        project_root: project_root(&args, &cwd),
        ignore,
        commands: config.commands.rows.clone(),
    };
    let mut suppress = Suppressions::new(&config);
    let (mut sources, mut diags, unreadable, fixable) =
        read_inputs(&inputs, &options, &mut suppress, args.statistics);
    if let Some(path) = &config.path {
        let name = path.display().to_string();
        // The findings about its `[[command]]` rows, then stale
        // suppressions.
        let mut stale = config.commands.diagnostics.clone();
        stale.extend(suppress.stale(&name));
        if !stale.is_empty() {
            diags.extend(stale);
            sources.push(Source {
                name,
                text: config.text.clone(),
            });
        }
    }
    let level = match (args.fail_level, args.deny) {
        (Some(l), _) => l.severity(),
        (None, Some(DenyLevel::Warnings)) => Severity::Warning,
        (None, None) => Severity::Error,
    };
    if args.quiet {
        diags.retain(|d| d.severity >= level);
    }
    let mut text = render(&args, &options, &cwd, &mut diags, &mut sources, &fixable);
    if args.quiet && args.format == Format::Human && !args.statistics {
        let summary = format!("{}\n", output::summary(&diags));
        if let Some(t) = text.strip_suffix(&summary) {
            text = t.trim_end_matches('\n').to_string();
            if !text.is_empty() {
                text.push('\n');
            }
        }
    }
    match &args.output_file {
        // Written whole or not at all: CI never uploads half a report.
        Some(path) => write_whole(path, text.as_bytes())?,
        // A closed pipe (`permc check | head`) is not an analyzer failure; a
        // failed write is (exit 2).
        None => {
            crate::out::print(&text)?;
        }
    }
    if unreadable {
        return Ok(ExitCode::from(2));
    }
    let fails = !args.exit_zero && diags.iter().any(|d| d.severity >= level);
    Ok(if fails {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Every input read and checked (suppressions applied): the sources, the
/// findings, whether one could not be read, and the fixes `--statistics`
/// counts.
#[allow(clippy::type_complexity)]
fn read_inputs(
    inputs: &[Input],
    options: &Options,
    suppress: &mut Suppressions,
    statistics: bool,
) -> (
    Vec<Source>,
    Vec<permc_grammar::diagnostic::Diagnostic>,
    bool,
    Vec<(
        permc_grammar::diagnostic::CheckId,
        permc_analyzer::fix::Applicability,
    )>,
) {
    let mut sources = Vec::new();
    let mut diags = Vec::new();
    let mut unreadable = false;
    let mut fixable = Vec::new();
    for input in inputs {
        let (name, read) = match input {
            Input::File(path) => (
                path.display().to_string(),
                permc_runtime::file::read_regular(path),
            ),
            Input::Stdin(name) => {
                let mut bytes = Vec::new();
                let r = std::io::stdin().lock().read_to_end(&mut bytes);
                (name.clone(), r.map(|_| bytes))
            }
            Input::EmptyFolder(path) => {
                let name = path.display().to_string();
                unreadable = true;
                diags.push(output::unreadable_file(
                    &name,
                    "a folder holding no permissions.json or autonomy.json",
                ));
                continue;
            }
        };
        let bytes = match read {
            Ok(b) => b,
            Err(e) => {
                unreadable = true;
                diags.push(output::unreadable_file(&name, &e.to_string()));
                continue;
            }
        };
        let found = check_file(&name, &bytes, None, options);
        let found = suppress.filter(&name, &bytes, found);
        if statistics {
            fixable.extend(
                permc_analyzer::fix::fixes(&name, &bytes, &found)
                    .into_iter()
                    .map(|f| (f.check, f.applicability)),
            );
        }
        diags.extend(found);
        sources.push(Source {
            name,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        });
    }
    (sources, diags, unreadable, fixable)
}

/// The report in the format asked for (`--statistics` first).
fn render(
    args: &CheckArgs,
    options: &Options,
    cwd: &Path,
    diags: &mut [permc_grammar::diagnostic::Diagnostic],
    sources: &mut [Source],
    fixable: &[(
        permc_grammar::diagnostic::CheckId,
        permc_analyzer::fix::Applicability,
    )],
) -> String {
    match args.format {
        _ if args.statistics => statistics(diags, fixable, args.format),
        Format::Human => {
            let color = args.color.enabled(args.output_file.is_some());
            output::human(diags, sources, color)
        }
        Format::Json => output::json(diags, sources) + "\n",
        Format::Sarif => {
            // Artifact URIs relative to the project folder (%SRCROOT%).
            let root = match &options.project_root {
                Some(r) => PathBuf::from(r),
                None => crate::project::discover(cwd).map_or_else(|| cwd.to_path_buf(), |p| p.root),
            };
            let at = output::SarifRoot { root: &root, cwd };
            output::sarif_at(diags, sources, Some(at)) + "\n"
        }
        Format::Github => {
            // Annotations attach to a pull request's diff only by paths
            // relative to the repository's top level.
            let rename = |name: &mut String| *name = crate::repo::relative_name(name);
            for d in diags.iter_mut() {
                rename(&mut d.file);
            }
            for s in sources.iter_mut() {
                rename(&mut s.name);
            }
            output::github(diags, sources)
        }
    }
}

/// `--statistics`: a line per check found, most found first — count,
/// check, severity, and how many `permc fix` fixes (safe, and unsafe with
/// `--unsafe-fixes`).
fn statistics(
    diags: &[permc_grammar::diagnostic::Diagnostic],
    fixable: &[(
        permc_grammar::diagnostic::CheckId,
        permc_analyzer::fix::Applicability,
    )],
    format: Format,
) -> String {
    use permc_analyzer::fix::Applicability;
    let mut rows: Vec<(&str, Severity, usize, usize, usize)> = Vec::new();
    for d in diags {
        let name = d.check.name();
        match rows.iter_mut().find(|r| r.0 == name) {
            Some(r) => r.2 += 1,
            None => {
                let fixes = |a| {
                    fixable
                        .iter()
                        .filter(|(c, x)| *c == d.check && *x == a)
                        .count()
                };
                rows.push((
                    name,
                    d.severity,
                    1,
                    fixes(Applicability::Safe),
                    fixes(Applicability::Unsafe),
                ));
            }
        }
    }
    rows.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    if format == Format::Json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|(name, sev, n, safe, unsafe_)| {
                serde_json::json!({"check": name, "severity": sev.name(), "count": n,
                    "fixable": safe, "unsafeFixable": unsafe_})
            })
            .collect();
        return serde_json::json!({ "statistics": v }).to_string() + "\n";
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (name, sev, n, safe, unsafe_) in &rows {
        let fix = match (safe, unsafe_) {
            (0, 0) => String::new(),
            (s, 0) => format!("  [{s} fixable]"),
            (0, u) => format!("  [{u} fixable with --unsafe-fixes]"),
            (s, u) => format!("  [{s} fixable, {u} more with --unsafe-fixes]"),
        };
        out.push_str(&format!("{n:>5}  {name:<width$}  {:<7}{fix}\n", sev.name()));
    }
    let total: usize = rows.iter().map(|r| r.2).sum();
    out.push_str(&format!(
        "permc check: {total} finding{}\n",
        if total == 1 { "" } else { "s" }
    ));
    out
}

/// `[check]` of permc.toml applied to findings: severities overridden,
/// suppressed findings dropped, and which suppressions matched.
pub(crate) struct Suppressions<'c> {
    config: &'c crate::config::Config,
    used: Vec<bool>,
    /// A permissions.json, an autonomy.json was checked: a suppression is
    /// stale only when the file its entry would be in was checked.
    seen: [bool; 2],
}

/// The entry a finding is about, as a suppression names it: the pattern
/// (`Terminal(npm run)`) or the autonomy rule's `agent: key`. The entries
/// are those that read, even when others are errors: one broken entry
/// must not turn every suppression of the file off and bury the error
/// among findings the project had answered (issue 43 pt 7). The kind is
/// given only for a file without errors: a suppression is found stale
/// only against a whole file (its entry may be the one that broke).
fn entries_of(name: &str, bytes: &[u8]) -> (Option<usize>, Vec<(std::ops::Range<usize>, String)>) {
    use permc_grammar::rules::{load_autonomy_partial, load_permissions_partial};
    use permc_grammar::Severity;
    let whole =
        |diags: &[permc_grammar::Diagnostic]| !diags.iter().any(|d| d.severity == Severity::Error);
    if permc_analyzer::Kind::detect(name, bytes) == permc_analyzer::Kind::Permissions {
        let (diags, p) = load_permissions_partial(name, bytes);
        let e = p
            .entries()
            .map(|e| (e.span.start..e.span.end, e.pattern.text.clone()))
            .collect();
        return (whole(&diags).then_some(0), e);
    }
    let (diags, a) = load_autonomy_partial(name, bytes);
    let rules = a
        .rules
        .iter()
        .map(|r| {
            let start = r.key_span.start.min(r.span.start);
            let end = r.key_span.end.max(r.span.end);
            (start..end, format!("{}: {}", r.agent, r.key.name()))
        })
        .collect();
    (whole(&diags).then_some(1), rules)
}

impl<'c> Suppressions<'c> {
    pub(crate) fn new(config: &'c crate::config::Config) -> Suppressions<'c> {
        Suppressions {
            config,
            used: vec![false; config.check.allow.len()],
            seen: [false; 2],
        }
    }

    pub(crate) fn filter(
        &mut self,
        name: &str,
        bytes: &[u8],
        found: Vec<permc_grammar::diagnostic::Diagnostic>,
    ) -> Vec<permc_grammar::diagnostic::Diagnostic> {
        let c = &self.config.check;
        if c.allow.is_empty() && c.severity.is_empty() {
            return found;
        }
        let (kind, entries) = entries_of(name, bytes);
        if let Some(k) = kind {
            self.seen[k] = true;
        }
        let mut out = Vec::new();
        for mut d in found {
            let entry = entries
                .iter()
                .find(|(r, _)| r.contains(&d.span.start))
                .map(|(_, t)| t.as_str());
            let hit = c.allow.iter().position(|s| {
                s.check == d.check.name()
                    && Some(s.entry.get_ref().as_str()) == entry
                    && s.file
                        .as_deref()
                        .is_none_or(|f| name == f || name.ends_with(&format!("/{f}")))
            });
            if let Some(i) = hit {
                self.used[i] = true;
                continue;
            }
            if let Some(level) = c
                .severity
                .get(d.check.name())
                .and_then(|w| crate::config::severity(w))
            {
                if d.severity != Severity::Error {
                    d.severity = level;
                }
            }
            out.push(d);
        }
        out
    }

    /// A finding for each suppression that matched nothing: it answers a
    /// finding that is gone, and would hide a new one on the same entry.
    pub(crate) fn stale(&self, config_name: &str) -> Vec<permc_grammar::diagnostic::Diagnostic> {
        self.config
            .check
            .allow
            .iter()
            .zip(&self.used)
            .filter(|(s, used)| {
                // `Label(…)` is a pattern; `agent: key` an autonomy rule.
                let kind = usize::from(!s.entry.get_ref().ends_with(')'));
                !**used && self.seen[kind]
            })
            .map(|(s, _)| {
                let span = s.entry.span();
                let mut d = permc_grammar::diagnostic::Diagnostic::new(
                    permc_grammar::diagnostic::CheckId::StaleSuppression,
                    Severity::Warning,
                    config_name,
                    permc_grammar::json::Span {
                        start: span.start,
                        end: span.end,
                    },
                    format!(
                        "the suppression of `{}` on `{}` matches no finding",
                        s.check,
                        s.entry.get_ref()
                    ),
                );
                d.help = Some(
                    "remove it: the entry or the finding is gone (or the entry is written differently)".into(),
                );
                d
            })
            .collect()
    }
}
