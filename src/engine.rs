//! The engines, and the one place that builds a decider from a policy:
//! [`build`], used by `permc decide`, `explain` and `serve`.

use crate::error::{ArtifactProblem, CliError};
use permc_compiler::CompiledPolicy;
use permc_core::Rules;
use std::path::PathBuf;

pub use permc_runtime::answer::{CompiledDecider, Decider, ReferenceDecider};

/// Which engine decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// The compiled form (token-prefix trie); the default.
    Compiled,
    /// The reference interpreter: the spec read literally.
    Reference,
}

/// A decider any thread may call.
pub type AnyDecider = Box<dyn Decider + Send + Sync>;

/// What a decider is built from: rule files already loaded, or a compiled
/// artifact (SPEC §9) already checked against the rule files given with it.
pub enum RulesOrArtifact {
    /// Loaded rules, not compiled yet.
    Rules(Rules),
    /// An artifact.
    Artifact {
        /// Its compiled policy (boxed: it is large, and moved once).
        policy: Box<CompiledPolicy>,
        /// Where it was read (named in errors).
        path: PathBuf,
    },
}

impl RulesOrArtifact {
    /// The rules (for `explain`'s steps and the reference engine): as
    /// loaded, or read back from the artifact.
    pub fn rules(&self) -> Result<Rules, CliError> {
        match self {
            RulesOrArtifact::Rules(r) => Ok(r.clone()),
            RulesOrArtifact::Artifact { policy, path } => {
                policy.rules().map_err(|e| CliError::Artifact {
                    path: path.clone(),
                    problem: ArtifactProblem::NoRules(e),
                })
            }
        }
    }
}

/// The decider of `engine` over `from`: the compiled engine compiles the
/// rules (an artifact is already compiled); the reference interpreter
/// reads the rules (an artifact's read back, which alone can fail).
pub fn build(engine: Engine, from: RulesOrArtifact) -> Result<AnyDecider, CliError> {
    Ok(match (engine, from) {
        (_, RulesOrArtifact::Rules(r)) => from_rules(engine, r),
        (Engine::Compiled, RulesOrArtifact::Artifact { policy, .. }) => {
            Box::new(CompiledDecider(*policy))
        }
        (Engine::Reference, artifact) => Box::new(ReferenceDecider(artifact.rules()?)),
    })
}

/// [`build`] over loaded rules, which cannot fail.
pub fn from_rules(engine: Engine, rules: Rules) -> AnyDecider {
    match engine {
        Engine::Compiled => Box::new(CompiledDecider(permc_runtime::compile(&rules))),
        Engine::Reference => Box::new(ReferenceDecider(rules)),
    }
}
