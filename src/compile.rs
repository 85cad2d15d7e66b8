//! `permc compile` (SPEC §9, §10.3) and loading artifacts (`--policy`).
//!
//! The artifact API other commands use:
//! - [`compile_to_file`]: rule files → artifact on disk (atomically);
//! - [`load_policy`]: artifact → [`CompiledPolicy`], refusing a corrupt,
//!   truncated, other-version or stale one (exit 2, never a decision).

use crate::error::{ArtifactProblem, CliError};
use crate::load;
use permc_compiler::artifact::{self, SourceHashes};
use permc_compiler::CompiledPolicy;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `--dump` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Dump {
    /// The SPEC §5.3 stage DAG in Graphviz DOT, on standard output.
    Dot,
}

/// `permc compile` arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct CompileArgs {
    /// permissions.json
    #[arg(long, value_name = "P")]
    pub permissions: Option<PathBuf>,
    /// autonomy.json
    #[arg(long, value_name = "A")]
    pub autonomy: Option<PathBuf>,
    /// The project config whose `[[command]]` rows the artifact holds
    /// (default: the permc.toml beside permissions.json).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Where to write the artifact.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "ARTIFACT",
        required_unless_present = "dump"
    )]
    pub output: Option<PathBuf>,
    /// Print the compiled decision procedure instead of (or besides) writing.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub dump: Option<Dump>,
}

/// Runs `permc compile`.
pub fn run(args: &CompileArgs) -> Result<ExitCode, CliError> {
    let (permissions, autonomy) =
        crate::project::rule_files(args.permissions.as_deref(), args.autonomy.as_deref())?;
    let (policy, sources) = compile_sources(
        permissions.as_deref(),
        autonomy.as_deref(),
        args.config.as_deref(),
    )?;
    if let Some(out) = &args.output {
        // `-o .permc/policy.permc` in a new project: the folder is
        // created, as `seed --policy` does.
        crate::write::create_parent(out)?;
        write_artifact(&policy, &sources, out)?;
    }
    if args.dump == Some(Dump::Dot) {
        let graph = policy
            .graph()
            .map_err(|e| CliError::Internal(format!("the stage graph does not check: {e}")))?;
        crate::out::print(&graph.dot())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The rule files compiled, with the `[[command]]` rows of the config
/// given or beside them (an artifact holds them: recompiling after
/// `always --write` or `seed` keeps them).
fn compile_sources(
    permissions: Option<&Path>,
    autonomy: Option<&Path>,
    config: Option<&Path>,
) -> Result<(CompiledPolicy, SourceHashes), CliError> {
    let rows = crate::config::rows_beside(config, [permissions, autonomy])?;
    let (rules, pb, ab) = load::rules(permissions, autonomy)?;
    let sources = SourceHashes::of(
        permissions.map(|_| pb.as_slice()),
        autonomy.map(|_| ab.as_slice()),
    );
    Ok((permc_runtime::compile(&rules.with_project(rows)), sources))
}

/// An artifact used with rule files or a config given: the `[[command]]`
/// rows of the config (given, or beside the rule files) must be the ones
/// it was compiled with, else it is stale (exit 2): an artifact never
/// decides without a row its project now holds.
pub fn check_rows(
    path: &Path,
    policy: &CompiledPolicy,
    config: Option<&Path>,
    rule_files: [Option<&Path>; 2],
) -> Result<(), CliError> {
    let found = crate::config::beside(config, rule_files)?;
    let rows = found.rows_for_deciding()?;
    if &rows == policy.project() {
        return Ok(());
    }
    Err(CliError::Artifact {
        path: path.to_path_buf(),
        problem: ArtifactProblem::Stale {
            file: found
                .path
                .unwrap_or_else(|| PathBuf::from(crate::project::CONFIG)),
            kind: "permc.toml",
            compiled_without: policy.project().is_empty(),
        },
    })
}

fn write_artifact(
    policy: &CompiledPolicy,
    sources: &SourceHashes,
    out: &Path,
) -> Result<(), CliError> {
    // A reader never sees half an artifact, and once written it stays.
    crate::write::atomic(out, &artifact::encode(policy, sources))
}

/// Compiles the rule files into an artifact at `out`, atomically. Rejected
/// rule files are reported and nothing is written.
pub fn compile_to_file(
    permissions: Option<&Path>,
    autonomy: Option<&Path>,
    out: &Path,
) -> Result<(), CliError> {
    let (policy, sources) = compile_sources(permissions, autonomy, None)?;
    write_artifact(&policy, &sources, out)
}

/// Loads an artifact. When rule files are given too, their hashes must be
/// the ones the artifact was compiled from (otherwise it is stale).
pub fn load_policy(
    path: &Path,
    permissions: Option<&Path>,
    autonomy: Option<&Path>,
) -> Result<CompiledPolicy, CliError> {
    let bytes = load::read_file(path)?;
    let loaded = artifact::decode(&bytes).map_err(|e| CliError::Artifact {
        path: path.to_path_buf(),
        problem: ArtifactProblem::Invalid(e),
    })?;
    let mut texts: [Option<Vec<u8>>; 2] = [None, None];
    for ((given, stored, kind), text) in [
        (permissions, loaded.sources.permissions, "permissions"),
        (autonomy, loaded.sources.autonomy, "autonomy"),
    ]
    .into_iter()
    .zip(&mut texts)
    {
        let Some(file) = given else { continue };
        let bytes = load::read_file(file)?;
        let now = permc_compiler::hash::xxh64(&bytes);
        *text = Some(bytes);
        if stored == Some(now) {
            continue;
        }
        return Err(CliError::Artifact {
            path: path.to_path_buf(),
            problem: ArtifactProblem::Stale {
                file: file.to_path_buf(),
                kind,
                compiled_without: stored.is_none(),
            },
        });
    }
    // Every source it was compiled from is given (and hashes as then):
    // its tables must be what they compile to. The checksum alone let a
    // body changed and checksummed again through.
    let [p_text, a_text] = texts;
    let given_all = (loaded.sources.permissions.is_none() || p_text.is_some())
        && (loaded.sources.autonomy.is_none() || a_text.is_some())
        && (p_text.is_some() || a_text.is_some());
    if given_all {
        let p = match &p_text {
            Some(t) => permc_grammar::rules::load_permissions("permissions.json", t).value,
            None => Some(Default::default()),
        };
        let a = match &a_text {
            Some(t) => permc_grammar::rules::load_autonomy("autonomy.json", t).value,
            None => Some(Default::default()),
        };
        let same = match (p, a) {
            // The rows come from permc.toml, which the header does not
            // hash: compared by `check_rows`.
            (Some(p), Some(a)) => permc_compiler::compile(&p, &a)
                .with_project(loaded.policy.project().clone())
                .same_tables(&loaded.policy),
            // It loaded when it was compiled: it does not now, so it is
            // not what the artifact holds.
            _ => false,
        };
        if !same {
            return Err(CliError::Artifact {
                path: path.to_path_buf(),
                problem: ArtifactProblem::Altered,
            });
        }
    }
    Ok(loaded.policy)
}
