//! Loading a policy for `permc serve`: the watched files, one read of
//! them, and the decider built from exactly the bytes read (sources or
//! artifact), with every diagnostic in the one JSON shape.

use super::*;

/// Which file a watched path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WatchedFile {
    Permissions,
    Autonomy,
    Artifact,
    /// permc.toml, for its `[[command]]` rows.
    Config,
}

/// One read of one watched file: its fingerprint taken *before* the read,
/// whether it was the same *after* (if not, a write raced the read and the
/// bytes may be torn: they are not loaded, the next poll sees the change),
/// and the bytes read, or why they could not be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FileRead {
    pub(super) fingerprint: Option<Fingerprint>,
    pub(super) settled: bool,
    pub(super) bytes: Result<Vec<u8>, String>,
}

/// The files `permc serve` watches, in a fixed order.
#[derive(Debug, Clone)]
pub(super) struct Sources {
    pub(super) files: Vec<(WatchedFile, PathBuf)>,
}

impl Sources {
    pub(super) fn of(opts: &Options) -> Sources {
        let mut files = Vec::new();
        if let Some(p) = &opts.permissions {
            files.push((WatchedFile::Permissions, p.clone()));
        }
        if let Some(p) = &opts.autonomy {
            files.push((WatchedFile::Autonomy, p.clone()));
        }
        if let Some(p) = &opts.policy {
            files.push((WatchedFile::Artifact, p.clone()));
        }
        // permc.toml's rows are part of the policy: an edit reloads it as
        // an edit of a rule file does (a broken one keeps the last good).
        if let Some(p) = opts
            .config
            .as_ref()
            .filter(|p| p.as_os_str() != "/dev/null")
        {
            files.push((WatchedFile::Config, p.clone()));
        }
        Sources { files }
    }

    pub(super) fn fingerprints(&self) -> Vec<Option<Fingerprint>> {
        self.files.iter().map(|(_, p)| Fingerprint::of(p)).collect()
    }

    pub(super) fn read(&self) -> Vec<FileRead> {
        self.files
            .iter()
            .map(|(_, p)| {
                let fingerprint = Fingerprint::of(p);
                let bytes = permc_runtime::file::read_regular(p).map_err(|e| e.to_string());
                FileRead {
                    fingerprint,
                    settled: Fingerprint::of(p) == fingerprint,
                    bytes,
                }
            })
            .collect()
    }

    pub(super) fn names(&self) -> Vec<String> {
        self.files
            .iter()
            .map(|(_, p)| p.display().to_string())
            .collect()
    }
}

/// Why a policy could not be loaded: every diagnostic, as JSON in SPEC §11's
/// shape (the `reload_failed` and `load_failed` events carry them).
#[derive(Debug)]
pub(super) struct Failure {
    pub(super) diagnostics: Vec<Value>,
}

/// Diagnostics as JSON, in the one shape of `permc check --format json`
/// (`permc_analyzer::output::diagnostic_json`).
pub(super) fn diagnostics_json(diags: &[Diagnostic], name: &str, text: &[u8]) -> Vec<Value> {
    let sources = [Source {
        name: name.to_string(),
        text: String::from_utf8_lossy(text).into_owned(),
    }];
    output::diagnostics_json(diags, &sources)
}

/// A finding about a file as a whole (no position), in the one shape.
pub(super) fn whole_file(
    check: permc_grammar::diagnostic::CheckId,
    file: &str,
    message: &str,
) -> Value {
    let d = Diagnostic::new(
        check,
        permc_grammar::Severity::Error,
        file,
        permc_grammar::json::Span { start: 0, end: 0 },
        message,
    );
    output::diagnostic_json(&d, &output::Positions::new(&[]))
}

pub(super) fn unreadable(path: &Path, why: &str) -> Value {
    let d = output::unreadable_file(&path.display().to_string(), why);
    output::diagnostic_json(&d, &output::Positions::new(&[]))
}

/// A loaded policy: the decider, and the warnings its files raised.
pub(super) struct Loaded {
    pub(super) decider: engine::AnyDecider,
    pub(super) warnings: Vec<Value>,
}

/// Builds a decider from the files just read: the one place that knows
/// the engines.
///
/// From the sources, it loads the bytes read — never a second read of the
/// files, so what is decided is exactly what was fingerprinted — and a file
/// with any error-severity diagnostic rejects the whole policy (SPEC §2.1:
/// never a partial policy); then compiles it (SPEC §9), unless the
/// reference engine was asked for.
pub(super) fn load_decider(
    opts: &Options,
    sources: &Sources,
    reads: &[FileRead],
) -> Result<Loaded, Failure> {
    if let Some(artifact) = &opts.policy {
        return load_artifact(opts, artifact);
    }
    let mut diagnostics = Vec::new();
    let mut failed = false;
    // A file not given is an empty one; a file given is `None` until it
    // loads without an error.
    let mut permissions = opts.permissions.is_none().then(Permissions::default);
    let mut autonomy = opts.autonomy.is_none().then(Autonomy::default);
    let mut project = opts.project.clone();
    for ((role, path), read) in sources.files.iter().zip(reads) {
        let bytes = match &read.bytes {
            Ok(b) => b,
            // permc.toml beside the rule files, not there (yet, or any
            // more): no rows.
            Err(_) if *role == WatchedFile::Config && opts.config_optional && !path.exists() => {
                project = Default::default();
                continue;
            }
            Err(why) => {
                diagnostics.push(unreadable(path, why));
                failed = true;
                continue;
            }
        };
        let name = path.display().to_string();
        match role {
            WatchedFile::Permissions => {
                let l = load_permissions(&name, bytes);
                let diags =
                    crate::load::every_diagnostic(&name, bytes, Kind::Permissions, l.diagnostics);
                diagnostics.extend(diagnostics_json(&diags, &name, bytes));
                failed |= diags.iter().any(|d| d.severity == Severity::Error);
                permissions = l.value;
            }
            WatchedFile::Autonomy => {
                let l = load_autonomy(&name, bytes);
                let diags =
                    crate::load::every_diagnostic(&name, bytes, Kind::Autonomy, l.diagnostics);
                diagnostics.extend(diagnostics_json(&diags, &name, bytes));
                failed |= diags.iter().any(|d| d.severity == Severity::Error);
                autonomy = l.value;
            }
            WatchedFile::Config => match std::str::from_utf8(bytes) {
                Ok(text) => {
                    let r = permc_runtime::commands::read(&name, text);
                    diagnostics.extend(diagnostics_json(&r.diagnostics, &name, bytes));
                    failed |= r.has_errors();
                    project = r.rows;
                }
                Err(_) => {
                    diagnostics.push(unreadable(path, "it is not UTF-8 text"));
                    failed = true;
                }
            },
            WatchedFile::Artifact => {}
        }
    }
    // A rejected file leaves its value `None` and sets `failed`; either
    // alone refuses the policy.
    let (false, Some(permissions), Some(autonomy)) = (failed, permissions, autonomy) else {
        return Err(Failure { diagnostics });
    };
    Ok(Loaded {
        decider: engine::from_rules(
            opts.engine,
            Rules::new(permissions, autonomy).with_project(project),
        ),
        warnings: diagnostics,
    })
}

/// `--policy`: the artifact stands for the sources (SPEC §9), and
/// [`compile::load_policy`] refuses a corrupt, truncated, other-version or
/// stale one (rule files given too must hash as they did when compiled).
/// It reads the files itself; a write racing that read changes their
/// fingerprints, so the next poll loads them again.
pub(super) fn load_artifact(opts: &Options, path: &Path) -> Result<Loaded, Failure> {
    let fail = |e: CliError| Failure {
        diagnostics: vec![whole_file(
            permc_grammar::diagnostic::CheckId::Artifact,
            &path.display().to_string(),
            &e.message().to_string(),
        )],
    };
    let (p, a) = (opts.permissions.as_deref(), opts.autonomy.as_deref());
    let policy = compile::load_policy(path, p, a).map_err(fail)?;
    if opts.config.is_some() || p.is_some() || a.is_some() {
        compile::check_rows(path, &policy, opts.config.as_deref(), [p, a]).map_err(fail)?;
    }
    let from = RulesOrArtifact::Artifact {
        policy: Box::new(policy),
        path: path.to_path_buf(),
    };
    Ok(Loaded {
        decider: engine::build(opts.engine, from).map_err(fail)?,
        warnings: Vec::new(),
    })
}
