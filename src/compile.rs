//! `permc compile` (SPEC §9, §10.3) and loading artifacts (`--policy`).
//!
//! The artifact API other commands use:
//! - [`compile_to_file`]: rule files → artifact on disk (atomically);
//! - [`load_policy`]: artifact → [`CompiledPolicy`], refusing a corrupt,
//!   truncated, other-version or stale one (exit 2, never a decision).

use crate::load::{self, Fatal};
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
pub fn run(args: &CompileArgs) -> Result<ExitCode, Fatal> {
    let (permissions, autonomy) =
        crate::project::rule_files(args.permissions.as_deref(), args.autonomy.as_deref())?;
    let (policy, sources) = compile_sources(permissions.as_deref(), autonomy.as_deref())?;
    if let Some(out) = &args.output {
        write_artifact(&policy, &sources, out)?;
    }
    if args.dump == Some(Dump::Dot) {
        let graph = policy
            .graph()
            .map_err(|e| Fatal(format!("error: the stage graph does not check: {e}")))?;
        crate::out::print(&graph.dot())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn compile_sources(
    permissions: Option<&Path>,
    autonomy: Option<&Path>,
) -> Result<(CompiledPolicy, SourceHashes), Fatal> {
    let (rules, pb, ab) = load::rules(permissions, autonomy)?;
    let sources = SourceHashes::of(
        permissions.map(|_| pb.as_slice()),
        autonomy.map(|_| ab.as_slice()),
    );
    Ok((
        permc_compiler::compile(&rules.permissions, &rules.autonomy),
        sources,
    ))
}

fn write_artifact(
    policy: &CompiledPolicy,
    sources: &SourceHashes,
    out: &Path,
) -> Result<(), Fatal> {
    let bytes = artifact::encode(policy, sources);
    // Write beside the target, then rename: a reader never sees half a file.
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Fatal(format!("error: cannot write {}: {e}", out.display()))
        })
}

/// Compiles the rule files into an artifact at `out`, atomically. Rejected
/// rule files are reported and nothing is written.
pub fn compile_to_file(
    permissions: Option<&Path>,
    autonomy: Option<&Path>,
    out: &Path,
) -> Result<(), Fatal> {
    let (policy, sources) = compile_sources(permissions, autonomy)?;
    write_artifact(&policy, &sources, out)
}

/// Loads an artifact. When rule files are given too, their hashes must be
/// the ones the artifact was compiled from (otherwise it is stale).
pub fn load_policy(
    path: &Path,
    permissions: Option<&Path>,
    autonomy: Option<&Path>,
) -> Result<CompiledPolicy, Fatal> {
    let bytes = load::read_file(path)?;
    let loaded = artifact::decode(&bytes)
        .map_err(|e| Fatal(format!("error: cannot load {}: {e}", path.display())))?;
    for (given, stored, what) in [
        (permissions, loaded.sources.permissions, "permissions"),
        (autonomy, loaded.sources.autonomy, "autonomy"),
    ] {
        let Some(file) = given else { continue };
        let now = permc_compiler::hash::xxh64(&load::read_file(file)?);
        let why = match stored {
            Some(h) if h == now => continue,
            Some(_) => format!(
                "{} differs from the {what} file it was compiled from",
                file.display()
            ),
            None => format!(
                "it was compiled without a {what} file, but {} is given",
                file.display()
            ),
        };
        return Err(Fatal(format!(
            "error: the artifact {} is stale: {why}; run `permc compile` again",
            path.display()
        )));
    }
    Ok(loaded.policy)
}
