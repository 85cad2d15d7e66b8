//! What a document's findings depend on beyond its own text: the project
//! around it (its permc.toml, its rule files), read from the editor's open
//! documents first and from disk otherwise, so an unsaved change to
//! permc.toml counts at once.

use crate::config::Config;
use crate::testing::{Case, Mistake};
use permc_analyzer::{check_file, Options};
use permc_grammar::diagnostic::Diagnostic;
use permc_grammar::rules::{load_autonomy, load_permissions};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The open documents: text by path.
pub type Open = HashMap<PathBuf, String>;

/// A file's text: the open document's, else the file on disk.
pub fn text_of(open: &Open, path: &Path) -> Option<String> {
    open.get(path)
        .cloned()
        .or_else(|| permc_runtime::file::read_regular_text(path).ok())
}

/// The project folder of a document: the nearest folder holding
/// permissions.json (open or on disk), from the document's up; else the
/// document's own folder.
pub fn root_of(open: &Open, doc: &Path) -> PathBuf {
    let dir = doc.parent().unwrap_or(Path::new("/"));
    dir.ancestors()
        .find(|d| {
            let p = d.join(crate::project::PERMISSIONS);
            open.contains_key(&p) || p.is_file()
        })
        .unwrap_or(dir)
        .to_path_buf()
}

/// The project's permc.toml as `permc check` reads it; a config that does
/// not read counts as none (its own diagnostics say why).
pub fn config(open: &Open, root: &Path) -> Config {
    let path = root.join(crate::project::CONFIG);
    text_of(open, &path)
        .and_then(|t| crate::config::parse(&path, &t).ok())
        .unwrap_or_default()
}

/// A rule file's findings as `permc check` gives them: the config's
/// ignored checks left out, its severities applied, its suppressions
/// honoured.
pub fn rule_file_findings(config: &Config, name: &str, text: &str) -> Vec<Diagnostic> {
    let options = Options {
        project_root: None,
        ignore: config.check.ignore.clone(),
        commands: config.commands.rows.clone(),
    };
    let found = check_file(name, text.as_bytes(), None, &options);
    crate::check::Suppressions::new(config).filter(name, text.as_bytes(), found)
}

/// The suppressions of `config` (at `path`) that match no finding in the
/// project's rule files (`stale-suppression`, as `permc check` reports).
pub fn stale_suppressions(
    open: &Open,
    config: &Config,
    root: &Path,
    path: &Path,
) -> Vec<Diagnostic> {
    let mut s = crate::check::Suppressions::new(config);
    for f in [crate::project::PERMISSIONS, crate::project::AUTONOMY] {
        let p = root.join(f);
        if let Some(text) = text_of(open, &p) {
            let name = p.display().to_string();
            let options = Options {
                project_root: None,
                ignore: config.check.ignore.clone(),
                commands: config.commands.rows.clone(),
            };
            let found = check_file(&name, text.as_bytes(), None, &options);
            s.filter(&name, text.as_bytes(), found);
        }
    }
    s.stale(&path.display().to_string())
}

/// What became of a test file: a mistake in it, the rule files not
/// loading, or each case that fails with why.
pub enum TestRun {
    Mistake(Mistake),
    NoRules(String),
    Failures(Vec<(Case, String)>),
}

/// Runs a test file's cases as `permc test` does (its engine, the
/// project's rule files and context).
pub fn run_tests(open: &Open, doc: &Path, text: &str) -> TestRun {
    let root = root_of(open, doc);
    let config = config(open, &root);
    let context = crate::config::context_fields(&config, Some(&root));
    let cases = match crate::testing::cases(text, &context) {
        Ok(c) => c,
        Err(m) => return TestRun::Mistake(m),
    };
    let p = root.join(crate::project::PERMISSIONS);
    let Some(ptext) = text_of(open, &p) else {
        return TestRun::NoRules(format!(
            "no permissions.json in {} or above: the cases are not run",
            root.display()
        ));
    };
    let pname = p.display().to_string();
    let Some(perms) = load_permissions(&pname, ptext.as_bytes()).value else {
        return TestRun::NoRules(format!("{pname} does not load: the cases are not run"));
    };
    let a = root.join(crate::project::AUTONOMY);
    let autonomy = match text_of(open, &a) {
        None => Default::default(),
        Some(t) => {
            let aname = a.display().to_string();
            match load_autonomy(&aname, t.as_bytes()).value {
                Some(v) => v,
                None => {
                    return TestRun::NoRules(format!(
                        "{aname} does not load: the cases are not run"
                    ))
                }
            }
        }
    };
    let rules = permc_core::Rules::new(perms, autonomy);
    let decider = match crate::engine::build(
        crate::engine::Engine::Compiled,
        crate::engine::RulesOrArtifact::Rules(rules),
    ) {
        Ok(d) => d,
        Err(e) => return TestRun::NoRules(e.to_string()),
    };
    TestRun::Failures(
        cases
            .into_iter()
            .filter_map(|c| {
                let d = decider.decide(&c.request);
                let why = crate::testing::failure(&c, &d)?;
                Some((c, format!("{why}: {}", d.message)))
            })
            .collect(),
    )
}
