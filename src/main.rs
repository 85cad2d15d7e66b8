//! `permc`: the command line of the permc policy compiler (SPEC §10.3).
//! The only code of permc that does I/O.

/// mimalloc instead of the system allocator: a decision allocates a few
/// dozen small strings and vectors, and glibc's free was a tenth of its
/// instructions (callgrind: 17% fewer instructions per decision, 12%
/// fewer for `shlex::split`; docs/performance.md). Not in the bindings:
/// inside the BEAM, loading the 100k-rule artifact took 30–105 ms with it
/// against 23–30 ms with the system allocator (the < 50 ms target).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod always;
mod check;
mod compile;
mod config;
mod decide;
mod diff;
mod engine;
mod error;
mod fix;
mod load;
mod lsp;
mod out;
mod project;
mod repo;
mod schema;
mod seed;
mod serve;
mod testing;
mod tokens;
mod write;

use clap::{Args, CommandFactory, Parser, Subcommand};
use engine::{Engine, RulesOrArtifact};
use error::CliError;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

/// The exit statuses, one rule for every command (README.md and docs/cli.md, "Exit status").
const EXIT_STATUS: &str = "\
Exit status:
  0  success; a stream (--requests, serve) answered every line, even the
     lines that are errors (each answered in its place)
  1  check found an error (or a warning under --deny warnings, or at
     --fail-level); diff --fail-on found such a change; test had a
     failing case
  2  bad usage; rule files missing, unreadable or rejected; a single
     request (--request) that cannot be read (decide prints its error
     line, explain and always say why); output that cannot be written
A closed output pipe (permc … | head) ends permc quietly with the status
it would have had.";

/// permc decides, explains and checks the Brabo agent platform's permission
/// rules (permissions.json, autonomy.json).
///
/// Commands that need rule files and get none use the project's: the
/// nearest folder holding permissions.json, from the current folder up
/// (autonomy.json beside it).
#[derive(Parser)]
#[command(name = "permc", version, about, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone)]
struct RuleArgs {
    /// permissions.json
    #[arg(long, value_name = "P")]
    permissions: Option<PathBuf>,
    /// autonomy.json
    #[arg(long, value_name = "A")]
    autonomy: Option<PathBuf>,
    /// The project config, whose `[[command]]` rows describe the project's
    /// own tools (default: the permc.toml beside permissions.json).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

#[derive(Args, Clone)]
struct RequestArgs {
    /// One request, as JSON; `-` reads it from standard input, `@FILE`
    /// from a file.
    #[arg(long, value_name = "JSON", conflicts_with = "requests")]
    request: Option<String>,
    /// A JSON Lines file of requests, or `-` for standard input.
    #[arg(long, value_name = "FILE")]
    requests: Option<PathBuf>,
    /// Which engine decides.
    #[arg(long, value_enum, default_value_t = Engine::Compiled)]
    engine: Engine,
    /// A compiled artifact (`permc compile`) instead of the sources; rule
    /// files given too must be the ones it was compiled from.
    #[arg(long, value_name = "ARTIFACT")]
    policy: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// One decision per request, as JSON Lines on stdout.
    Decide {
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        requests: RequestArgs,
    },
    /// The decision with every step of SPEC §5.3 that ran, for people.
    Explain {
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        requests: RequestArgs,
        /// `text` for people; `json`: one object a request (JSON Lines) with
        /// the action, the segments, every step of SPEC §5.3 that ran and
        /// its outcome, and the decision; an unreadable request is its
        /// `{"error": …}` line.
        #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
        format: ExplainFormat,
        /// Colors in the text (`auto`: on a terminal, unless `NO_COLOR` is
        /// set); none in `--format json`.
        #[arg(long, value_enum, default_value_t = check::Color::Auto)]
        color: check::Color,
    },
    /// A long-running evaluator: requests as JSON Lines on stdin, one answer
    /// a line on stdout, reloading the rule files when they change.
    Serve {
        #[command(flatten)]
        rules: RuleArgs,
        /// A compiled artifact (`permc compile`) instead of the sources; rule
        /// files given too must be the ones it was compiled from.
        #[arg(long, value_name = "ARTIFACT")]
        policy: Option<PathBuf>,
        /// Which engine decides.
        #[arg(long, value_enum, default_value_t = Engine::Compiled)]
        engine: Engine,
        /// Longest request line read; a longer one is answered with an error.
        #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
        max_line_bytes: usize,
        /// Threads deciding a pipelined batch (0: one per core).
        #[arg(long, value_name = "N", default_value_t = 0)]
        threads: usize,
    },
    /// The static analyzer (SPEC §11): what in the rule files does not do
    /// what it seems to.
    Check(check::CheckArgs),
    /// Applies the analyzer's machine-applicable fixes to permissions.json,
    /// atomically: the safe ones (no decision changes), and with
    /// --unsafe-fixes those that change decisions on purpose.
    Fix(fix::FixArgs),
    /// A Language Server over stdio for permissions.json and autonomy.json
    /// (docs/editors.md): diagnostics, hover, fixes, completion.
    Lsp,
    /// What a change of the rule files really grants: the exact commands,
    /// typed labels and autonomy rules whose decision changes, each with a
    /// witness decided before and after.
    Diff(diff::DiffArgs),
    /// Decision tests (`*.permc-test.toml`): each case's request decided and
    /// compared with the policy expected, with rule coverage.
    Test(testing::TestArgs),
    /// Compiles the rule files into an artifact (SPEC §9).
    Compile(compile::CompileArgs),
    /// How a command line is read (SPEC §4), as JSON.
    Tokens {
        /// The command line.
        command: String,
        /// The project config whose `[[command]]` rows are read with the
        /// catalogue (default: permc.toml in the current folder, when it
        /// exists).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// What "always allow" records for a request's action (SPEC §7):
    /// patterns, an autonomy rule, or a refusal.
    Always {
        /// permissions.json (created by --write when absent). Default: the
        /// project's, found from the current folder up.
        #[arg(long, value_name = "P")]
        permissions: Option<PathBuf>,
        /// autonomy.json (where module agents' rules are written). Default,
        /// with the project's permissions.json: the autonomy.json beside it.
        #[arg(long, value_name = "A")]
        autonomy: Option<PathBuf>,
        /// The request (SPEC §10.1), as JSON; `-` reads it from standard
        /// input, `@FILE` from a file.
        #[arg(long, value_name = "JSON")]
        request: String,
        /// Record it in permissions.json (or autonomy.json), atomically.
        #[arg(long)]
        write: bool,
        /// Recompile this artifact after writing.
        #[arg(long, value_name = "ARTIFACT", requires = "write")]
        policy: Option<PathBuf>,
    },
    /// Adds the activation defaults (SPEC §8) to the rule files, in place.
    Seed {
        /// permissions.json (created when absent). Default: the project's,
        /// found from the current folder up; outside a project, a new
        /// permissions.json in the current folder.
        #[arg(long, value_name = "P")]
        permissions: Option<PathBuf>,
        /// autonomy.json (created when absent). Default, with the project's
        /// permissions.json: the autonomy.json beside it.
        #[arg(long, value_name = "A")]
        autonomy: Option<PathBuf>,
        /// A module whose agent `dev-<NAME>` gets `git_commit: auto_approve`.
        #[arg(long = "module", value_name = "NAME", num_args = 1..)]
        modules: Vec<String>,
        /// Compile this artifact after seeding.
        #[arg(long, value_name = "ARTIFACT")]
        policy: Option<PathBuf>,
    },
    /// Shell completions, on standard output:
    /// `permc completions bash > /etc/bash_completion.d/permc`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// The manual page (roff), on standard output: `permc man > permc.1`;
    /// with --dir, one page per subcommand too (`permc-check.1`…), as the
    /// main page's references name them.
    Man {
        /// Write `permc.1` and a `permc-<command>.1` for each command into
        /// this folder (created when missing) instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// A JSON Schema (2020-12) of permc's files and outputs, on standard
    /// output: `permc schema permissions > permissions.schema.json`.
    Schema {
        /// Which one.
        #[arg(value_enum)]
        name: schema::SchemaName,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_output(&e),
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => fail(&e),
    }
}

/// Says why the command ends, on stderr: exit status 2.
fn fail(e: &CliError) -> ExitCode {
    // An error may quote a rule file, a test file or a request: escaped for
    // the terminal (issue 33).
    eprintln!("{}", permc_grammar::printable::escape(&e.to_string()));
    ExitCode::from(2)
}

/// What clap has to say instead of a command. Help and the version go to
/// standard output through [`out::print`], as every command's output does
/// (a closed pipe: quietly 0; any other failed write: one line, exit 2);
/// a usage error goes to standard error, exit 2, as clap writes it.
fn clap_output(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit()
    }
    let styled = e.render();
    let text = if out::auto_color() {
        styled.ansi().to_string()
    } else {
        styled.to_string()
    };
    match out::print(&text) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

/// What `decide` and `explain` decide with: the artifact (`--policy`), or
/// the rule files given, or the project's.
fn policy(rules: &RuleArgs, requests: &RequestArgs) -> Result<RulesOrArtifact, CliError> {
    let (p, a) = (rules.permissions.as_deref(), rules.autonomy.as_deref());
    let config = rules.config.as_deref();
    if let Some(artifact) = &requests.policy {
        // The artifact stands for the sources; sources given too are only
        // checked against its hashes (stale → exit 2), a config given (or
        // beside them) against the rows it holds.
        let policy = compile::load_policy(artifact, p, a)?;
        if config.is_some() || p.is_some() || a.is_some() {
            compile::check_rows(artifact, &policy, config, [p, a])?;
        }
        return Ok(RulesOrArtifact::Artifact {
            policy: Box::new(policy),
            path: artifact.clone(),
        });
    }
    let (p, a) = project::rule_files(p, a)?;
    let rows = config::rows_beside(config, [p.as_deref(), a.as_deref()])?;
    let (r, _, _) = load::rules(p.as_deref(), a.as_deref())?;
    Ok(RulesOrArtifact::Rules(r.with_project(rows)))
}

/// The text of `--request`: the JSON given, or read from standard input
/// (`-`) or a file (`@FILE`), as curl reads `--data`.
fn request_text(given: String) -> Result<String, CliError> {
    use std::io::Read;
    if given == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(CliError::Requests)?;
        return Ok(text);
    }
    match given.strip_prefix('@') {
        Some(path) => permc_runtime::file::read_regular_text(std::path::Path::new(path))
            .map_err(|e| CliError::unreadable(path, e)),
        None => Ok(given),
    }
}

fn open_requests(args: &RequestArgs) -> Result<(Box<dyn BufRead>, bool), CliError> {
    match (&args.request, &args.requests) {
        (Some(json), _) => Ok((
            Box::new(std::io::Cursor::new(json.clone().into_bytes())),
            false,
        )),
        (None, Some(p)) if p.as_os_str() == "-" => {
            Ok((Box::new(BufReader::new(std::io::stdin())), true))
        }
        (None, Some(p)) => {
            let f = std::fs::File::open(p).map_err(|e| CliError::unreadable(p, e))?;
            Ok((Box::new(BufReader::with_capacity(1 << 16, f)), false))
        }
        (None, None) => Err(CliError::Usage(
            "give --request JSON or --requests FILE (or - for standard input)".into(),
        )),
    }
}

fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Decide { rules, requests } => run_decide(&rules, requests),
        Command::Explain {
            rules,
            requests,
            format,
            color,
        } => run_explain(&rules, requests, format, color),
        Command::Serve {
            rules,
            policy,
            engine,
            max_line_bytes,
            threads,
        } => run_serve(rules, policy, engine, max_line_bytes, threads),
        Command::Always {
            permissions,
            autonomy,
            request,
            write,
            policy,
        } => {
            let (permissions, autonomy) = project::writable_rule_files(permissions, autonomy)?;
            always::run(always::Options {
                permissions,
                autonomy,
                request: request_text(request)?,
                write,
                policy,
            })
        }
        Command::Seed {
            permissions,
            autonomy,
            modules,
            policy,
        } => {
            let given = autonomy.is_some();
            let (permissions, autonomy) = project::seeded_rule_files(permissions, autonomy);
            // A project's autonomy.json is created only for module agents.
            let autonomy = autonomy.filter(|a| given || a.exists() || !modules.is_empty());
            seed::run(seed::Options {
                permissions,
                autonomy,
                modules,
                policy,
            })
        }
        Command::Check(args) => check::run(args),
        Command::Fix(args) => fix::run(args),
        Command::Lsp => lsp::run(),
        Command::Diff(args) => diff::run(args),
        Command::Test(args) => testing::run(args),
        Command::Compile(args) => compile::run(&args),
        Command::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "permc", &mut buf);
            out::write_to(&mut std::io::stdout().lock(), &buf)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man { dir: Some(dir) } => {
            std::fs::create_dir_all(&dir).map_err(|e| CliError::unreadable(&dir, e))?;
            clap_mangen::generate_to(Cli::command(), &dir).map_err(out::write_error)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man { dir: None } => {
            let mut buf = Vec::new();
            // As --dir renders it: no `help` command, whose page is none.
            clap_mangen::Man::new(Cli::command().disable_help_subcommand(true))
                .render(&mut buf)
                .map_err(out::write_error)?;
            out::write_to(&mut std::io::stdout().lock(), &buf)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Schema { name } => {
            out::print(name.text())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Tokens { command, config } => {
            let here = std::path::Path::new("./permissions.json");
            let rows = config::rows_beside(config.as_deref(), [Some(here), None])?;
            out::println(&tokens::tokens_json_with(&command, &rows).to_string())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `permc decide`: one request, or a stream of them.
fn run_decide(rules: &RuleArgs, mut requests: RequestArgs) -> Result<ExitCode, CliError> {
    requests.request = requests.request.map(request_text).transpose()?;
    let d = engine::build(requests.engine, policy(rules, &requests)?)?;
    if let Some(json) = &requests.request {
        // One request: one JSON value, whatever its whitespace; an
        // unreadable one is answered and the status is 2.
        let mut answer = Vec::new();
        let read = decide::write_answer_line(d.as_ref(), json.as_bytes(), &mut answer);
        out::write_to(&mut std::io::stdout().lock(), &answer)?;
        return Ok(if read {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(2)
        });
    }
    let (mut input, interactive) = open_requests(&requests)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    decide::stream(d.as_ref(), &mut input, &mut out, interactive)?;
    Ok(ExitCode::SUCCESS)
}

/// `permc explain`: the steps of each request's decision, as text or JSON.
fn run_explain(
    rules: &RuleArgs,
    mut requests: RequestArgs,
    format: ExplainFormat,
    color: check::Color,
) -> Result<ExitCode, CliError> {
    requests.request = requests.request.map(request_text).transpose()?;
    let from = policy(rules, &requests)?;
    // The steps are the reference interpreter's, over the rules.
    let r = from.rules()?;
    let d = engine::build(requests.engine, from)?;
    if format == ExplainFormat::Json {
        return explain_json(&r, d.as_ref(), &requests);
    }
    let paint = |text: String| {
        if color.enabled(false) {
            decide::paint_explain(&text)
        } else {
            text
        }
    };
    if let Some(json) = &requests.request {
        return match decide::explain_text(&r, d.as_ref(), json.as_bytes()) {
            Ok(text) => out::print(&paint(text)).map(|_| ExitCode::SUCCESS),
            Err(e) => Err(CliError::Request(e)),
        };
    }
    let (mut input, _) = open_requests(&requests)?;
    let mut buf = Vec::new();
    let mut first = true;
    let stdout = std::io::stdout();
    let mut stdout = stdout.lock();
    loop {
        buf.clear();
        let n = input
            .read_until(b'\n', &mut buf)
            .map_err(CliError::Requests)?;
        if n == 0 {
            break;
        }
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let mut text = String::new();
        if !first {
            text.push('\n');
        }
        first = false;
        // In a stream, an unreadable request is answered in its
        // place and the stream goes on.
        match decide::explain_text(&r, d.as_ref(), &buf) {
            Ok(t) => text.push_str(&paint(t)),
            Err(e) => text.push_str(&format!("{}\n", CliError::Request(e))),
        }
        if out::write_to(&mut stdout, text.as_bytes())? == out::Sent::Closed {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `permc serve`: the rule files (or an artifact) and permc.toml, found and
/// handed to the long-running evaluator.
fn run_serve(
    rules: RuleArgs,
    policy: Option<PathBuf>,
    engine: Engine,
    max_line_bytes: usize,
    threads: usize,
) -> Result<ExitCode, CliError> {
    let (permissions, autonomy) = if policy.is_some() {
        (rules.permissions, rules.autonomy)
    } else {
        project::rule_files(rules.permissions.as_deref(), rules.autonomy.as_deref())?
    };
    // The rows are read at start and watched with the rule files
    // (serve reads permc.toml again on a change); an artifact holds
    // its own.
    let beside = [permissions.as_deref(), autonomy.as_deref()];
    let project = if policy.is_some() {
        Default::default()
    } else {
        config::rows_beside(rules.config.as_deref(), beside)?
    };
    let (config, config_optional) = if policy.is_some() {
        (rules.config, false)
    } else {
        match config::watched_path(rules.config.as_deref(), beside) {
            Some((path, optional)) => (Some(path), optional),
            None => (None, false),
        }
    };
    Ok(serve::run(serve::Options {
        permissions,
        autonomy,
        policy,
        engine,
        max_line_bytes,
        threads,
        project,
        config,
        config_optional,
    }))
}

/// `permc explain --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ExplainFormat {
    Text,
    Json,
}

/// `permc explain --format json`: one line of JSON a request, as `decide`
/// answers (an unreadable request is its error line; a single one exits 2).
fn explain_json(
    rules: &permc_core::Rules,
    d: &dyn engine::Decider,
    requests: &RequestArgs,
) -> Result<ExitCode, CliError> {
    let line = |buf: &[u8]| {
        let (v, read) = permc_runtime::explain::explain_json_line(rules, d, buf);
        (format!("{v}\n"), read)
    };
    let stdout = std::io::stdout();
    let mut stdout = stdout.lock();
    if let Some(json) = &requests.request {
        let (text, read) = line(json.as_bytes());
        out::write_to(&mut stdout, text.as_bytes())?;
        return Ok(if read {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(2)
        });
    }
    let (mut input, _) = open_requests(requests)?;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input
            .read_until(b'\n', &mut buf)
            .map_err(CliError::Requests)?
            == 0
        {
            break;
        }
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if out::write_to(&mut stdout, line(&buf).0.as_bytes())? == out::Sent::Closed {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}
