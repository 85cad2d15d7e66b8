//! `permc diff`: what a change of the rule files really grants, with proof
//! (issue 11 pt 1).
//!
//! The regions come from `permc_compiler::diff` (a product walk over the
//! two compiled tries, exact); here each gets a witness decided by the
//! reference interpreter before and after, in a context (`--context`,
//! permc.toml's `[context]`, else developer / runner / the project folder).
//! A change whose witness decides the same before and after has no effect
//! in that context (a ceiling, the IAM floor…), and says why.

mod report;
mod versions;
mod witness;

use crate::error::CliError;
use clap::{Args, ValueEnum};
use permc_compiler::diff::{self as core, Class, Direction, Region};
use permc_compiler::{CompiledPolicy, Resolved};
use permc_core::request::{Action, Context};
use permc_core::Decision;
use permc_core::Origin;
use permc_grammar::rules::EntryIx;
use permc_grammar::ActionType;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use report::{github, human, json_out, sarif};
use versions::{git_groups, version_on_disk, versions_from_git, Version};
use witness::Witnesser;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Human,
    /// `{"version": 1, "changes": [...]}` (docs/diff.md).
    Json,
    /// GitHub Actions workflow-command annotations.
    Github,
    /// SARIF 2.1.0: each change at the entry that causes it.
    Sarif,
}

/// What fails the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Any change that grants more, with an effect in the context (exit 1).
    MorePermissive,
    /// Any change at all (exit 1).
    Any,
}

/// The arguments of `permc diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// OLD NEW: two versions, each a folder (its permissions.json and
    /// autonomy.json) or a rule file. With --base or --staged: the rule
    /// files to compare (default: the project's). With nothing: the
    /// project's rule files in the working tree against HEAD.
    #[arg(value_name = "PATHS")]
    paths: Vec<PathBuf>,
    /// Compare the working tree's files with their versions at this git
    /// revision (a file missing there counts as empty).
    #[arg(long, value_name = "REV", conflicts_with = "staged")]
    base: Option<String>,
    /// Compare the staged versions (the index) with HEAD's.
    #[arg(long)]
    staged: bool,
    /// The context witnesses are decided in: a JSON object of SPEC §10.1's
    /// context fields, over permc.toml's `[context]` and the default
    /// (role developer, runner mode, the project folder as scope root).
    #[arg(long, value_name = "JSON")]
    context: Option<String>,
    /// How to print the changes.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Exit 1 when a change of this kind is found (the "no new access" gate).
    #[arg(long, value_enum, value_name = "KIND")]
    fail_on: Option<FailOn>,
    /// Colors in the human output (`auto`: on a terminal, unless
    /// `NO_COLOR` is set).
    #[arg(long, value_enum, default_value_t = crate::check::Color::Auto)]
    color: crate::check::Color,
}

/// What a change's witness decided, before and after.
pub(super) struct Witness {
    /// The command, or the action (`git_push`, `terminal by dev-api`).
    pub(super) shown: String,
    pub(super) before: Decision,
    pub(super) after: Decision,
}

impl Witness {
    fn effect(&self) -> bool {
        self.before.policy != self.after.policy
    }
}

/// The entry behind a change.
pub(super) struct EntryRef {
    pub(super) rule: String,
    /// `permissions.json:3:5`.
    pub(super) source: String,
    /// `new`, or `old` for an entry removed.
    pub(super) side: &'static str,
}

/// One change, of any kind.
pub(super) struct Change {
    pub(super) kind: &'static str,
    /// NEW's rule file the change is about (permissions.json, or
    /// autonomy.json for autonomy changes), as given.
    pub(super) file: String,
    /// `rm -rf build …`, `GitPush()`, `dev-api: terminal`.
    pub(super) title: String,
    pub(super) region: Option<Region>,
    pub(super) old: String,
    pub(super) new: String,
    pub(super) direction: Direction,
    pub(super) automatic_switch: bool,
    /// Deny or ask entries also match behind wrappers (SPEC §4.3).
    pub(super) behind_wrappers: bool,
    pub(super) entry: Option<EntryRef>,
    pub(super) witness: Witness,
}

fn action(kind: ActionType, command: Option<String>, agent: Option<&str>) -> Action<'static> {
    Action {
        kind,
        command: command.map(Into::into),
        cwd: None,
        agent: agent.map(|a| a.to_string().into()),
        // Not a protected branch: the merge's own ceiling would hide the
        // change (SPEC §5.3 7e).
        target_branch: (kind == ActionType::GitMerge).then(|| "feature/permc-diff".into()),
        path: None,
    }
}

fn entry_of(
    class: (Class, Option<EntryIx>),
    p: &CompiledPolicy,
    side: &'static str,
) -> Option<EntryRef> {
    let list = class.0.list()?;
    let k = class.1?;
    let r = p.entry_rule(list, k);
    Some(EntryRef {
        rule: r.rule,
        source: r.source,
        side,
    })
}

/// The entry that causes a change: NEW's deciding entry, else (removed)
/// OLD's.
fn cause(
    old: (Class, Option<EntryIx>),
    new: (Class, Option<EntryIx>),
    po: &CompiledPolicy,
    pn: &CompiledPolicy,
) -> Option<EntryRef> {
    entry_of(new, pn, "new").or_else(|| entry_of(old, po, "old"))
}

fn resolved_text(r: Option<Resolved>) -> String {
    match r {
        None => "no opinion".into(),
        Some(r) => format!(
            "{} ({})",
            r.mode.name(),
            match r.origin {
                Origin::Specific => "specific",
                Origin::Wildcard => "wildcard",
            }
        ),
    }
}

/// Every change between two versions, witnessed in `context`.
fn changes(old: &Version, new: &Version, context: &Context) -> Vec<Change> {
    // With the project's rows, as the witnesses are decided.
    let po = permc_compiler::compile(&old.rules.permissions, &old.rules.autonomy)
        .with_project(old.rules.project.clone());
    let pn = permc_compiler::compile(&new.rules.permissions, &new.rules.autonomy)
        .with_project(new.rules.project.clone());
    let sides = Sides {
        po: &po,
        pn: &pn,
        wo: Witnesser::new(&old.rules),
        wn: Witnesser::new(&new.rules),
        context,
    };
    let mut out = terminal_changes(&sides, new);
    out.extend(typed_changes(&sides, new));
    out.extend(autonomy_changes(&sides, new));
    out
}

/// The two versions compiled, their witnessers and the context: what
/// each kind of change reads.
struct Sides<'a> {
    po: &'a CompiledPolicy,
    pn: &'a CompiledPolicy,
    wo: Witnesser<'a>,
    wn: Witnesser<'a>,
    context: &'a Context<'a>,
}

/// The terminal regions whose class changed, each with a command line.
fn terminal_changes(s: &Sides<'_>, new: &Version) -> Vec<Change> {
    let (po, pn) = (s.po, s.pn);
    let mut out = Vec::new();
    let programs = run_programs(new);
    let programs: Vec<&str> = programs.iter().map(String::as_str).collect();
    for mut r in core::terminal(po, pn) {
        let (words, witness) = terminal_witness(s, &r, &programs);
        let (co, cn) = (
            core::terminal_class(po, &words),
            core::terminal_class(pn, &words),
        );
        r.witness = words;
        out.push(Change {
            kind: "terminal",
            file: new.permissions_name.clone(),
            title: r.pattern.to_string(),
            old: r.old.name().into(),
            new: r.new.name().into(),
            direction: r.direction(),
            automatic_switch: false,
            behind_wrappers: [r.old, r.new]
                .iter()
                .any(|c| matches!(c, Class::Deny | Class::Ask)),
            entry: cause(co, cn, po, pn),
            witness,
            region: Some(r),
        });
    }
    out
}

/// The commands a witness runs after a runner, a wrapper or `-c`: `true`
/// and the first few commands NEW allows whole (`git status`), so that a
/// run is decided as the new rules would decide it.
fn run_programs(new: &Version) -> Vec<String> {
    use permc_grammar::pattern::PatToken;
    let mut out = vec!["true".to_string()];
    for e in &new.rules.permissions.allow {
        if out.len() > 3 || e.pattern.action != ActionType::Terminal {
            continue;
        }
        let words: Option<Vec<&str>> = e.pattern.tokens().and_then(|t| {
            t.iter()
                .map(|t| match t {
                    PatToken::Exact(w) if !w.contains(' ') => Some(w.as_str()),
                    _ => None,
                })
                .collect()
        });
        if let Some(words) = words.filter(|w| !w.is_empty()) {
            out.push(words.join(" "));
        }
    }
    out
}

/// How a decision ranks for the gate: deny < ask < auto_approve.
fn rank(p: permc_grammar::Policy) -> u8 {
    match p {
        permc_grammar::Policy::Deny => 0,
        permc_grammar::Policy::RequireApproval => 1,
        permc_grammar::Policy::AutoApprove => 2,
    }
}

/// A region's witness: the first of its commands (its own witness, then
/// each continuation the catalogue places after it, `Region::witnesses`)
/// whose decision moves the way the region does, else the first whose
/// decision changes at all, else the region's own. A gate that decided
/// only the bare words missed `Terminal(sh)`: `sh` asks, `sh deploy.sh`
/// is approved (issue 43).
fn terminal_witness(s: &Sides<'_>, r: &Region, programs: &[&str]) -> (Vec<String>, Witness) {
    let decide = |words: &Vec<String>| {
        let command = core::command_line(words);
        let a = action(ActionType::Terminal, Some(command.clone()), None);
        Witness {
            shown: command,
            before: s.wo.decide(s.context, a.clone()),
            after: s.wn.decide(s.context, a),
        }
    };
    let own = (r.witness.clone(), decide(&r.witness));
    let moves = |before: permc_grammar::Policy, after: permc_grammar::Policy| {
        let (b, a) = (rank(before), rank(after));
        match r.direction() {
            Direction::MorePermissive => a > b,
            Direction::LessPermissive => a < b,
            Direction::Neutral => a != b,
        }
    };
    if moves(own.1.before.policy, own.1.after.policy) {
        return own;
    }
    // The continuations are screened with the compiled engine (the same
    // decisions as the interpreter, tested so, in microseconds: a 10% edit
    // of 100k rules has a thousand changes without effect, each with dozens
    // of continuations); the one kept is decided by the interpreter.
    let quick = |words: &Vec<String>| {
        let command = core::command_line(words);
        let request = permc_core::request::Request {
            action: action(ActionType::Terminal, Some(command), None),
            context: s.context.clone(),
        };
        let before = permc_compiler::compiled::decide(s.po, &request).policy;
        (
            before,
            permc_compiler::compiled::decide(s.pn, &request).policy,
        )
    };
    let mut changed = None;
    for words in r.witnesses(programs).into_iter().skip(1) {
        let (before, after) = quick(&words);
        if moves(before, after) {
            let w = decide(&words);
            if moves(w.before.policy, w.after.policy) {
                return (words, w);
            }
        }
        if changed.is_none() && before != after {
            changed = Some(words);
        }
    }
    if own.1.effect() {
        return own;
    }
    match changed {
        Some(words) => {
            let w = decide(&words);
            (words, w)
        }
        None => own,
    }
}

/// The typed labels whose class changed.
fn typed_changes(s: &Sides<'_>, new: &Version) -> Vec<Change> {
    let (po, pn, wo, wn, context) = (s.po, s.pn, &s.wo, &s.wn, s.context);
    let mut out = Vec::new();
    for t in core::typed(po, pn) {
        let a = action(t.action, None, None);
        out.push(Change {
            kind: "typed",
            file: new.permissions_name.clone(),
            title: format!("{}()", t.action.label()),
            region: None,
            old: t.old.0.name().into(),
            new: t.new.0.name().into(),
            direction: Direction::of_classes(t.old.0, t.new.0),
            automatic_switch: false,
            behind_wrappers: false,
            entry: cause(t.old, t.new, po, pn),
            witness: Witness {
                shown: t.action.name().to_string(),
                before: wo.decide(context, a.clone()),
                after: wn.decide(context, a),
            },
        });
    }
    out
}

/// The autonomy resolutions that changed, an agent and type each.
fn autonomy_changes(s: &Sides<'_>, new: &Version) -> Vec<Change> {
    let (po, pn, wo, wn, context) = (s.po, s.pn, &s.wo, &s.wn, s.context);
    let mut out = Vec::new();
    // A command no entry of either version covers shows what autonomy
    // alone does to a terminal action.
    let uncovered = ["make", "true", "permc-diff-witness"]
        .into_iter()
        .find(|w| {
            core::terminal_class(po, &[w]).0 == Class::Uncovered
                && core::terminal_class(pn, &[w]).0 == Class::Uncovered
        })
        .unwrap_or("make");
    for c in core::autonomy(po, pn) {
        let command = (c.action == ActionType::Terminal).then(|| uncovered.to_string());
        let a = action(c.action, command.clone(), Some(&c.agent));
        let rule = |p: &CompiledPolicy, r: Option<Resolved>, side| {
            r.map(|r| {
                let r = p.autonomy_rule(r.rule);
                EntryRef {
                    rule: r.rule,
                    source: r.source,
                    side,
                }
            })
        };
        out.push(Change {
            kind: "autonomy",
            file: new.autonomy_name.clone(),
            title: format!("{}: {}", c.agent, c.action.name()),
            region: None,
            old: resolved_text(c.old),
            new: resolved_text(c.new),
            direction: c.direction(),
            automatic_switch: c.automatic_switch(),
            behind_wrappers: false,
            entry: rule(pn, c.new, "new").or_else(|| rule(po, c.old, "old")),
            witness: Witness {
                shown: match &command {
                    Some(cmd) => format!("{} `{cmd}` by {}", c.action.name(), c.agent),
                    None => format!("{} by {}", c.action.name(), c.agent),
                },
                before: wo.decide(context, a.clone()),
                after: wn.decide(context, a),
            },
        });
    }
    out
}

/// Runs `permc diff`.
pub fn run(mut args: DiffArgs) -> Result<ExitCode, CliError> {
    // No versions named: what the working tree changes against HEAD, as
    // `git diff` does.
    if args.paths.is_empty() && args.base.is_none() && !args.staged {
        args.base = Some("HEAD".into());
    }
    let from_git = args.base.is_some() || args.staged;
    let mut pairs: Vec<(Version, Version)> = if from_git {
        git_groups(&args)?
            .iter()
            .map(|files| versions_from_git(&args, files))
            .collect::<Result<_, _>>()?
    } else {
        match args.paths.as_slice() {
            [o, n] => vec![(version_on_disk(o)?, version_on_disk(n)?)],
            _ => {
                return Err(CliError::Usage(
                    "give OLD and NEW (two folders or two rule files), or --base REV or --staged to read the old versions from git".into(),
                ))
            }
        }
    };
    // The config of the project around the current folder, else, reading
    // from git, of the first folder compared (a hook runs at the
    // repository's root).
    let (mut config, mut root) = crate::config::here()?;
    if root.is_none() && from_git {
        let first = pairs
            .first()
            .map(|(_, n)| PathBuf::from(&n.permissions_name));
        if let Some(dir) = first.as_deref().and_then(Path::parent) {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            (config, root) = crate::config::discover(dir)?;
        }
    }
    let context = crate::config::context(&config, root.as_deref(), args.context.as_deref())?;
    // The witnesses are decided with the project's own tools, as
    // permc.toml describes them (the same rows before and after).
    let rows = config.rows_for_deciding()?;
    for (old, new) in &mut pairs {
        old.rules.project = rows.clone();
        new.rules.project = rows.clone();
    }
    // Deep tries (long patterns) recurse deeply: a thread with room.
    let changes = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let c: Vec<Change> = pairs
                .iter()
                .flat_map(|(old, new)| changes(old, new, &context))
                .collect();
            (c, context)
        })
        .map_err(|e| CliError::Internal(format!("cannot start a thread: {e}")))?
        .join()
        .map_err(|_| CliError::Internal("the diff failed".into()))?;
    let (changes, context) = changes;
    let text = match args.format {
        // Patterns may hold control characters: escaped for people.
        Format::Human => {
            let text = crate::out::printable(human(&changes, &context));
            if args.color.enabled(false) {
                report::colored(&text)
            } else {
                text
            }
        }
        Format::Json => json_out(&changes, &context),
        Format::Github => crate::out::printable(github(&changes)),
        Format::Sarif => sarif(&changes),
    };
    crate::out::print(&text)?;
    let fails = match args.fail_on {
        None => false,
        Some(FailOn::Any) => !changes.is_empty(),
        Some(FailOn::MorePermissive) => changes
            .iter()
            .any(|c| c.direction == Direction::MorePermissive && c.witness.effect()),
    };
    Ok(if fails {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
