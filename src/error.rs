//! What ends a command with exit status 2, as types: [`CliError`]. Its
//! `Display` is the text printed on stderr, and it writes `error: ` once,
//! before the sentence ([`CliError::message`]); nothing builds that prefix
//! by hand.

use permc_compiler::artifact::ArtifactError;
use permc_core::request::RequestError;
use permc_grammar::diagnostic::Diagnostic;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// A failure that ends the command with exit status 2.
#[derive(Debug)]
pub enum CliError {
    /// The command line asks for what cannot be done; the sentence says
    /// what to give instead.
    Usage(String),
    /// A file or folder cannot be read.
    Unreadable {
        /// As named on the command line (or shown).
        path: PathBuf,
        /// Why.
        io: io::Error,
    },
    /// A step of writing a file failed: `cannot {step} {path}: {io}`.
    Write {
        /// `write`, `lock`, `create the folder`, …
        step: &'static str,
        /// The file (or folder) the step was on.
        path: PathBuf,
        /// Why.
        io: io::Error,
    },
    /// A rule file with errors (SPEC §2: rejected whole): its diagnostics,
    /// then what is refused.
    Rejected {
        /// The file, as named.
        file: String,
        /// Its text (for the diagnostics' positions).
        text: String,
        /// Every diagnostic to show, errors and warnings.
        diagnostics: Vec<Diagnostic>,
        /// What is not done with it.
        refused: Refused,
    },
    /// A compiled artifact (`--policy`) that cannot be used.
    Artifact {
        /// The artifact.
        path: PathBuf,
        /// Why.
        problem: ArtifactProblem,
    },
    /// A request given on the command line cannot be read.
    Request(RequestError),
    /// The stream of requests cannot be read.
    Requests(io::Error),
    /// Standard output cannot be written (a closed pipe is not an error).
    Output(io::Error),
    /// The current folder cannot be known.
    CurrentFolder(io::Error),
    /// The rule files were written, but the artifact was not recompiled.
    Recompile {
        /// The artifact.
        policy: PathBuf,
        /// Why compiling failed.
        cause: Box<CliError>,
    },
    /// An input that cannot be used — a test file, permc.toml, `--context`,
    /// a rule file to rewrite, a request's action — said in a sentence
    /// (with `\n  help: …` lines when there is a fix).
    Invalid(String),
    /// permc failed where it should not (please report it).
    Internal(String),
}

/// What is not done with a rejected rule file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Nothing is decided from it (every command that loads rules).
    Deciding,
    /// It is not rewritten (`always --write`, `seed`).
    Rewriting,
    /// Nothing is compared from it (`permc diff`).
    Comparing,
}

/// Why an artifact cannot be used.
#[derive(Debug)]
pub enum ArtifactProblem {
    /// Corrupt, truncated, or of another format version.
    Invalid(ArtifactError),
    /// A rule file given too is not the one it was compiled from.
    Stale {
        /// The rule file given.
        file: PathBuf,
        /// `permissions` or `autonomy`.
        kind: &'static str,
        /// The artifact was compiled without a file of that kind.
        compiled_without: bool,
    },
    /// Its rules cannot be read back (the reference engine, `explain`).
    NoRules(String),
    /// Its tables are not those compiled from the rule files given, whose
    /// hashes it carries: changed after `permc compile`.
    Altered,
}

impl CliError {
    /// An unreadable file.
    pub fn unreadable(path: impl Into<PathBuf>, io: io::Error) -> CliError {
        CliError::Unreadable {
            path: path.into(),
            io,
        }
    }

    /// A failed step of a write.
    pub fn write(step: &'static str, path: impl Into<PathBuf>, io: io::Error) -> CliError {
        CliError::Write {
            step,
            path: path.into(),
            io,
        }
    }

    /// What went wrong, in the words `Display` puts after `error: ` (for
    /// a [`CliError::Rejected`], the refusal without the diagnostics; for a
    /// [`CliError::Recompile`], without its cause).
    pub fn message(&self) -> Message<'_> {
        Message(self)
    }
}

/// [`CliError::message`].
pub struct Message<'a>(&'a CliError);

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            CliError::Usage(s) | CliError::Invalid(s) | CliError::Internal(s) => f.write_str(s),
            CliError::Unreadable { path, io } => write!(f, "cannot read {}: {io}", path.display()),
            CliError::Write { step, path, io } => {
                write!(f, "cannot {step} {}: {io}", path.display())
            }
            CliError::Rejected { file, refused, .. } => match refused {
                Refused::Deciding => write!(
                    f,
                    "{file} was rejected: nothing is decided from a partly loaded policy"
                ),
                Refused::Rewriting => write!(
                    f,
                    "{file} does not load, so it is left as it is: fix it first"
                ),
                Refused::Comparing => write!(
                    f,
                    "{file} was rejected: nothing is compared from a partly loaded policy"
                ),
            },
            CliError::Artifact { path, problem } => match problem {
                ArtifactProblem::Invalid(e) => write!(f, "cannot load {}: {e}", path.display()),
                ArtifactProblem::Stale {
                    file,
                    kind,
                    compiled_without,
                } => {
                    write!(f, "the artifact {} is stale: ", path.display())?;
                    if *compiled_without {
                        write!(
                            f,
                            "it was compiled without a {kind} file, but {} is given",
                            file.display()
                        )?;
                    } else {
                        write!(
                            f,
                            "{} differs from the {kind} file it was compiled from",
                            file.display()
                        )?;
                    }
                    f.write_str("; run `permc compile` again")
                }
                ArtifactProblem::NoRules(e) => {
                    write!(f, "cannot read the rules back from {}: {e}", path.display())
                }
                ArtifactProblem::Altered => write!(
                    f,
                    "the artifact {} does not hold what its rule files compile to: it was changed after `permc compile` (an artifact is protected like the rule files it comes from); run `permc compile` again",
                    path.display()
                ),
            },
            CliError::Request(e) => {
                write!(f, "the request cannot be read ({}): {}", e.code, e.message)
            }
            CliError::Requests(e) => write!(f, "reading requests: {e}"),
            CliError::Output(e) => write!(f, "cannot write the output: {e}"),
            CliError::CurrentFolder(e) => write!(f, "cannot tell the current folder: {e}"),
            CliError::Recompile { policy, .. } => write!(
                f,
                "the rule files were written, but compiling {} failed",
                policy.display()
            ),
        }
    }
}

impl fmt::Display for CliError {
    /// The text for stderr: what comes before the error line (the rejected
    /// file's diagnostics, the cause of a failed recompile), then
    /// `error: ` and [`CliError::message`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Rejected {
                text, diagnostics, ..
            } => f.write_str(&permc_analyzer::output::plain(diagnostics, text))?,
            CliError::Recompile { cause, .. } => writeln!(f, "{cause}")?,
            _ => {}
        }
        write!(f, "error: {}", self.message())
    }
}

impl std::error::Error for CliError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn io() -> io::Error {
        io::Error::new(io::ErrorKind::NotFound, "gone")
    }

    #[test]
    fn display_says_error_once_before_the_message() {
        let all = [
            CliError::Usage("give FILES".into()),
            CliError::unreadable("p.json", io()),
            CliError::write("lock", "p.json.lock", io()),
            CliError::Artifact {
                path: "a.bin".into(),
                problem: ArtifactProblem::Stale {
                    file: "p.json".into(),
                    kind: "permissions",
                    compiled_without: false,
                },
            },
            CliError::Request(RequestError {
                code: "invalid_json",
                message: "not JSON".into(),
            }),
            CliError::Requests(io()),
            CliError::Output(io()),
            CliError::CurrentFolder(io()),
            CliError::Invalid("t.toml:1:1: bad".into()),
            CliError::Internal("a bug".into()),
        ];
        for e in &all {
            let text = e.to_string();
            assert_eq!(text, format!("error: {}", e.message()));
            assert_eq!(text.matches("error: ").count(), 1, "{text}");
        }
        assert_eq!(
            all[1].to_string(),
            "error: cannot read p.json: gone",
            "the words of every other command"
        );
        assert_eq!(
            all[3].to_string(),
            "error: the artifact a.bin is stale: p.json differs from the permissions file \
             it was compiled from; run `permc compile` again"
        );
    }

    #[test]
    fn a_failed_recompile_shows_its_cause_first() {
        let e = CliError::Recompile {
            policy: "a.bin".into(),
            cause: Box::new(CliError::write("write", "a.bin", io())),
        };
        assert_eq!(
            e.to_string(),
            "error: cannot write a.bin: gone\n\
             error: the rule files were written, but compiling a.bin failed"
        );
    }
}
