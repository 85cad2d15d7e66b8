//! `permc diff`: what a change of the rule files really grants, with proof
//! (issue 11 pt 1).
//!
//! The regions come from `permc_compiler::diff` (a product walk over the
//! two compiled tries, exact); here each gets a witness decided by the
//! reference interpreter before and after, in a context (`--context`,
//! permc.toml's `[context]`, else developer / runner / the project folder).
//! A change whose witness decides the same before and after has no effect
//! in that context (a ceiling, the IAM floor…), and says why.

use crate::load::Fatal;
use clap::{Args, ValueEnum};
use permc_compiler::diff::{self as core, Class, Direction, Region};
use permc_compiler::{AutonomyOrigin, CompiledPolicy, Resolved};
use permc_grammar::diagnostic::render_plain;
use permc_grammar::rules::{load_autonomy, load_permissions, Autonomy, Permissions};
use permc_grammar::ActionType;
use permc_runtime::request::{Action, Context, Request};
use permc_runtime::{reference, Decision, Rules};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Human,
    /// `{"version": 1, "changes": [...]}` (README "permc diff").
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
    /// files to compare (default: the project's).
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
}

/// One version of the rule files.
struct Version {
    /// Where NEW's permissions.json is (for positions), as shown.
    permissions_name: String,
    /// Where its autonomy.json is, as shown.
    autonomy_name: String,
    rules: Rules,
}

fn load_version(
    perms: Option<(String, Vec<u8>)>,
    auto: Option<(String, Vec<u8>)>,
) -> Result<Version, Fatal> {
    let reject = |name: &str, bytes: &[u8], d: &[permc_grammar::diagnostic::Diagnostic]| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        Fatal(format!(
            "{}error: {name} was rejected: nothing is compared from a partly loaded policy",
            render_plain(d, |_| Some(text.clone()))
        ))
    };
    let (permissions_name, permissions) = match perms {
        None => ("permissions.json".to_string(), Permissions::default()),
        Some((name, bytes)) => {
            let l = load_permissions(&name, &bytes);
            let p = l
                .value
                .ok_or_else(|| reject(&name, &bytes, &l.diagnostics))?;
            (name, p)
        }
    };
    let (autonomy_name, autonomy) = match auto {
        None => ("autonomy.json".to_string(), Autonomy::default()),
        Some((name, bytes)) => {
            let l = load_autonomy(&name, &bytes);
            let a = l
                .value
                .ok_or_else(|| reject(&name, &bytes, &l.diagnostics))?;
            (name, a)
        }
    };
    Ok(Version {
        permissions_name,
        autonomy_name,
        rules: Rules::new(permissions, autonomy),
    })
}

fn is_autonomy(path: &Path, bytes: &[u8]) -> bool {
    permc_analyzer::Kind::detect(&path.display().to_string(), bytes)
        == permc_analyzer::Kind::Autonomy
}

/// A folder or a rule file on disk.
fn version_on_disk(path: &Path) -> Result<Version, Fatal> {
    let read = |p: &Path| -> Result<Option<(String, Vec<u8>)>, Fatal> {
        if !p.exists() {
            return Ok(None);
        }
        Ok(Some((p.display().to_string(), crate::load::read_file(p)?)))
    };
    if path.is_dir() {
        let p = read(&path.join(crate::project::PERMISSIONS))?;
        let a = read(&path.join(crate::project::AUTONOMY))?;
        if p.is_none() && a.is_none() {
            return Err(Fatal(format!(
                "error: {} holds no permissions.json or autonomy.json",
                path.display()
            )));
        }
        return load_version(p, a);
    }
    let bytes = crate::load::read_file(path)?;
    let f = Some((path.display().to_string(), bytes));
    if is_autonomy(path, &f.as_ref().map(|x| x.1.clone()).unwrap_or_default()) {
        load_version(None, f)
    } else {
        load_version(f, None)
    }
}

/// `git show SPEC`, or `None` when git says the path is not there.
fn git_show(spec: &str) -> Result<Option<Vec<u8>>, Fatal> {
    let o = std::process::Command::new("git")
        .args(["show", spec])
        .output()
        .map_err(|e| Fatal(format!("error: cannot run git: {e}")))?;
    if o.status.success() {
        return Ok(Some(o.stdout));
    }
    let err = String::from_utf8_lossy(&o.stderr);
    // `:path` names no revision: git's "unknown revision or path" can only
    // mean the path is not in the index.
    let index_only = spec.starts_with(':');
    if (index_only && err.contains("path not in the working tree"))
        || err.contains("does not exist")
        || err.contains("exists on disk, but not in")
        || err.contains("invalid object name 'HEAD'")
        || err.contains("bad revision 'HEAD")
        || err.contains("ambiguous argument 'HEAD")
    {
        return Ok(None);
    }
    Err(Fatal(format!("error: git show {spec}: {}", err.trim_end())))
}

/// The rule files to read from git, grouped by folder: a permissions.json
/// or autonomy.json given alone brings the other one of its folder (when
/// git or the working tree has it), so its changes are witnessed with the
/// whole policy they belong to.
fn git_groups(args: &DiffArgs) -> Result<Vec<Vec<PathBuf>>, Fatal> {
    use crate::project::{AUTONOMY, PERMISSIONS};
    let files: Vec<PathBuf> = if args.paths.is_empty() {
        let p = crate::project::discover_here().ok_or_else(crate::project::no_rule_files)?;
        let cwd = std::env::current_dir().unwrap_or_default();
        let rel = |f: PathBuf| f.strip_prefix(&cwd).map(Path::to_path_buf).unwrap_or(f);
        vec![rel(p.permissions), rel(p.root.join(AUTONOMY))]
    } else {
        args.paths.clone()
    };
    let mut groups: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    for f in files {
        let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
        match groups.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, v)) => v.push(f),
            None => groups.push((dir, vec![f])),
        }
    }
    for (dir, v) in &mut groups {
        if let [f] = v.as_slice() {
            let other = match f.file_name().and_then(|n| n.to_str()) {
                Some(PERMISSIONS) => Some(AUTONOMY),
                Some(AUTONOMY) => Some(PERMISSIONS),
                _ => None,
            };
            if let Some(other) = other {
                v.push(dir.join(other));
            }
        }
    }
    Ok(groups.into_iter().map(|(_, v)| v).collect())
}

/// The two versions of one folder's rule files from git: `(old, new)`.
fn versions_from_git(args: &DiffArgs, files: &[PathBuf]) -> Result<(Version, Version), Fatal> {
    let mut old: [Option<(String, Vec<u8>)>; 2] = [None, None];
    let mut new: [Option<(String, Vec<u8>)>; 2] = [None, None];
    let mut seen = [false, false];
    for f in files {
        let shown = f.display().to_string();
        // `REV:./path` is relative to the current folder.
        let rel = if f.is_absolute() {
            shown.clone()
        } else {
            format!("./{shown}")
        };
        let (before, after) = if args.staged {
            (
                git_show(&format!("HEAD:{rel}"))?,
                git_show(&format!(":{rel}"))?,
            )
        } else {
            let rev = args.base.as_deref().unwrap_or("HEAD");
            let after = if f.exists() {
                Some(crate::load::read_file(f)?)
            } else {
                None
            };
            (git_show(&format!("{rev}:{rel}"))?, after)
        };
        let sample = after.as_deref().or(before.as_deref()).unwrap_or_default();
        let slot = usize::from(is_autonomy(f, sample));
        // Of two files of one kind in a folder, the first given counts.
        if seen[slot] {
            continue;
        }
        seen[slot] = true;
        old[slot] = before.map(|b| (shown.clone(), b));
        new[slot] = after.map(|b| (shown.clone(), b));
    }
    let [op, oa] = old;
    let [np, na] = new;
    let mut new = load_version(np, na)?;
    for f in files {
        let name = f.display().to_string();
        if is_autonomy(f, b"") {
            new.autonomy_name = name;
        } else {
            new.permissions_name = name;
        }
    }
    Ok((load_version(op, oa)?, new))
}

/// What a change's witness decided, before and after.
struct Witness {
    /// The command, or the action (`git_push`, `terminal by dev-api`).
    shown: String,
    before: Decision,
    after: Decision,
}

impl Witness {
    fn effect(&self) -> bool {
        self.before.policy != self.after.policy
    }
}

/// The entry behind a change.
struct EntryRef {
    rule: String,
    /// `permissions.json:3:5`.
    source: String,
    /// `new`, or `old` for an entry removed.
    side: &'static str,
}

/// One change, of any kind.
struct Change {
    kind: &'static str,
    /// NEW's rule file the change is about (permissions.json, or
    /// autonomy.json for autonomy changes), as given.
    file: String,
    /// `rm -rf build …`, `GitPush()`, `dev-api: terminal`.
    title: String,
    region: Option<Region>,
    old: String,
    new: String,
    direction: Direction,
    automatic_switch: bool,
    /// Deny or ask entries also match behind wrappers (SPEC §4.3).
    behind_wrappers: bool,
    entry: Option<EntryRef>,
    witness: Witness,
}

/// The reference interpreter, given for each action only the entries
/// that can take part in its decision, so a witness costs what its command
/// touches, not the size of the file (a diff of two 100k-rule files has
/// thousands of witnesses, and the interpreter scans every entry).
///
/// For a terminal action, a Terminal entry is kept when it matches some
/// run of consecutive words of the line that ends a word list — of a
/// segment, of a command read past wrappers, of an inner line — the first
/// of them also taken by its last path component: the interpreter only
/// matches patterns against such word lists (SPEC §3.2, §4.3), so a left
/// out entry could not have matched. For another action, the entries of
/// its label (SPEC §5.3 step 5 reads only those). Kept entries keep their
/// order, so each list's first match, and the decision, are the same
/// (tested against the whole rules in this module's tests).
struct Witnesser<'a> {
    rules: &'a Rules,
    /// First exact token → (list, index) of the Terminal entries it starts.
    exact: std::collections::HashMap<&'a str, Vec<(usize, usize)>>,
    /// Terminal entries with a prefix first token, or none (`Terminal()`).
    open: Vec<(usize, usize)>,
    /// The rules the interpreter reads: the autonomy rules once, the
    /// permissions replaced per action.
    scratch: std::cell::RefCell<Rules>,
}

impl<'a> Witnesser<'a> {
    fn new(rules: &'a Rules) -> Witnesser<'a> {
        use permc_grammar::pattern::PatToken;
        let mut exact: std::collections::HashMap<&str, Vec<(usize, usize)>> =
            std::collections::HashMap::new();
        let mut open = Vec::new();
        for (l, list) in Self::lists(rules).into_iter().enumerate() {
            for (k, e) in list.iter().enumerate() {
                match e.pattern.tokens() {
                    None => {}
                    Some([PatToken::Exact(t), ..]) => {
                        exact.entry(t.as_str()).or_default().push((l, k))
                    }
                    Some(_) => open.push((l, k)),
                }
            }
        }
        let scratch = Rules::new(
            permc_grammar::rules::Permissions {
                file: rules.permissions.file.clone(),
                ..Default::default()
            },
            rules.autonomy.clone(),
        );
        Witnesser {
            rules,
            exact,
            open,
            scratch: std::cell::RefCell::new(scratch),
        }
    }

    fn lists(rules: &Rules) -> [&[permc_grammar::rules::Entry]; 3] {
        let p = &rules.permissions;
        [&p.deny, &p.ask, &p.allow]
    }

    /// The Terminal entries that match some word list of `command` from
    /// some word on.
    fn terminal(&self, command: &str) -> Vec<(usize, usize)> {
        let f = permc_runtime::facts::LineFacts::of(command);
        let lists = Self::lists(self.rules);
        let lines = f
            .line
            .segments
            .iter()
            .chain(&f.inner_segments)
            .map(|s| &s.words)
            .chain(f.runs.iter().map(|r| &r.words));
        let mut keep = Vec::new();
        for words in lines {
            for i in 0..words.len() {
                let mut tail: Vec<&str> = words[i..].iter().map(String::as_str).collect();
                let base = tail[0].rsplit('/').next().unwrap_or(tail[0]);
                let firsts = if base.len() < tail[0].len() {
                    vec![tail[0], base]
                } else {
                    vec![tail[0]]
                };
                for first in firsts {
                    tail[0] = first;
                    let candidates = self.exact.get(first).into_iter().flatten();
                    for &(l, k) in candidates.chain(&self.open) {
                        if lists[l][k].pattern.matches_words(&tail) {
                            keep.push((l, k));
                        }
                    }
                }
            }
        }
        // `Terminal()` and prefix patterns match the empty line too.
        keep.extend(
            self.open
                .iter()
                .filter(|&&(l, k)| lists[l][k].pattern.matches_words::<&str>(&[])),
        );
        keep
    }

    /// The entries that can take part in the decision of `action`.
    fn reduced(&self, action: &Action) -> permc_grammar::rules::Permissions {
        let lists = Self::lists(self.rules);
        let mut keep = if action.kind == ActionType::Terminal {
            self.terminal(action.command.as_deref().unwrap_or(""))
        } else {
            let mut v = Vec::new();
            for (l, list) in lists.iter().enumerate() {
                for (k, e) in list.iter().enumerate() {
                    if e.pattern.action == action.kind {
                        v.push((l, k));
                    }
                }
            }
            v
        };
        keep.sort_unstable();
        keep.dedup();
        let mut out: [Vec<permc_grammar::rules::Entry>; 3] = Default::default();
        for (l, k) in keep {
            out[l].push(lists[l][k].clone());
        }
        let [deny, ask, allow] = out;
        permc_grammar::rules::Permissions {
            file: self.rules.permissions.file.clone(),
            allow,
            deny,
            ask,
        }
    }

    fn decide(&self, context: &Context, action: Action) -> Decision {
        let reduced = self.reduced(&action);
        let mut scratch = self.scratch.borrow_mut();
        scratch.permissions = reduced;
        reference::decide(
            &scratch,
            &Request {
                action,
                context: context.clone(),
            },
        )
    }
}

fn action(kind: ActionType, command: Option<String>, agent: Option<&str>) -> Action {
    Action {
        kind,
        command,
        cwd: None,
        agent: agent.map(str::to_string),
        // Not a protected branch: the merge's own ceiling would hide the
        // change (SPEC §5.3 7e).
        target_branch: (kind == ActionType::GitMerge).then(|| "feature/permc-diff".into()),
    }
}

fn entry_of(
    class: (Class, Option<u32>),
    p: &CompiledPolicy,
    side: &'static str,
) -> Option<EntryRef> {
    let list = class.0.list()?;
    let k = class.1?;
    Some(EntryRef {
        rule: p.entry_text(list, k).to_string(),
        source: p.entry_source(list, k),
        side,
    })
}

/// The entry that causes a change: NEW's deciding entry, else (removed)
/// OLD's.
fn cause(
    old: (Class, Option<u32>),
    new: (Class, Option<u32>),
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
                AutonomyOrigin::Specific => "specific",
                AutonomyOrigin::Wildcard => "wildcard",
            }
        ),
    }
}

/// Every change between two versions, witnessed in `context`.
fn changes(old: &Version, new: &Version, context: &Context) -> Vec<Change> {
    let po = permc_compiler::compile(&old.rules.permissions, &old.rules.autonomy);
    let pn = permc_compiler::compile(&new.rules.permissions, &new.rules.autonomy);
    let (wo, wn) = (Witnesser::new(&old.rules), Witnesser::new(&new.rules));
    let mut out = Vec::new();
    for r in core::terminal(&po, &pn) {
        let command = core::command_line(&r.witness);
        let a = action(ActionType::Terminal, Some(command.clone()), None);
        let witness = Witness {
            shown: command,
            before: wo.decide(context, a.clone()),
            after: wn.decide(context, a),
        };
        let (co, cn) = (
            core::terminal_class(&po, &r.witness),
            core::terminal_class(&pn, &r.witness),
        );
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
            entry: cause(co, cn, &po, &pn),
            witness,
            region: Some(r),
        });
    }
    for t in core::typed(&po, &pn) {
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
            entry: cause(t.old, t.new, &po, &pn),
            witness: Witness {
                shown: t.action.name().to_string(),
                before: wo.decide(context, a.clone()),
                after: wn.decide(context, a),
            },
        });
    }
    // A command no entry of either version covers shows what autonomy
    // alone does to a terminal action.
    let uncovered = ["make", "true", "permc-diff-witness"]
        .into_iter()
        .find(|w| {
            core::terminal_class(&po, &[w]).0 == Class::Uncovered
                && core::terminal_class(&pn, &[w]).0 == Class::Uncovered
        })
        .unwrap_or("make");
    for c in core::autonomy(&po, &pn) {
        let command = (c.action == ActionType::Terminal).then(|| uncovered.to_string());
        let a = action(c.action, command.clone(), Some(&c.agent));
        let rule = |p: &CompiledPolicy, r: Option<Resolved>, side| {
            r.map(|r| EntryRef {
                rule: p.autonomy_rule_text(r.rule),
                source: p.autonomy_rule_source(r.rule),
                side,
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
            entry: rule(&pn, c.new, "new").or_else(|| rule(&po, c.old, "old")),
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

fn counts(changes: &[Change]) -> (usize, usize, usize, usize) {
    let effective = |d| {
        changes
            .iter()
            .filter(|c| c.direction == d && c.witness.effect())
            .count()
    };
    (
        effective(Direction::MorePermissive),
        effective(Direction::LessPermissive),
        effective(Direction::Neutral),
        changes.iter().filter(|c| !c.witness.effect()).count(),
    )
}

fn decision_line(d: &Decision) -> String {
    let mut s = format!("{} ({})", d.policy, d.reason);
    if let Some(r) = &d.rule {
        s.push_str(&format!(" by {}", r.rule));
    }
    s
}

fn context_text(c: &Context) -> String {
    format!(
        "role {}, {} mode{}, scope root {}",
        c.role,
        c.execution_mode.name(),
        if c.container_running {
            ", container running"
        } else {
            ""
        },
        c.project_scope_root.as_deref().unwrap_or("(none)")
    )
}

fn human(changes: &[Change], context: &Context) -> String {
    let mut out = String::new();
    let sections = [
        (
            "terminal",
            "Terminal: commands whose class changes (SPEC §5.3 step 6)",
        ),
        ("typed", "Typed labels (SPEC §5.3 step 5)"),
        (
            "autonomy",
            "Autonomy (SPEC §2.2), automatic-mode switches first",
        ),
    ];
    for (kind, heading) in sections {
        let mine: Vec<&Change> = changes.iter().filter(|c| c.kind == kind).collect();
        if mine.is_empty() {
            continue;
        }
        out.push_str(heading);
        out.push('\n');
        // Autonomy rows that say the same for one agent are shown once,
        // their types listed (JSON keeps one row per type).
        let mut groups: Vec<(&Change, Vec<&str>)> = Vec::new();
        for c in mine {
            let key = |c: &Change| {
                (
                    c.title.split(": ").next().map(str::to_string),
                    c.old.clone(),
                    c.new.clone(),
                    c.direction,
                    c.automatic_switch,
                    c.witness.before.policy,
                    c.witness.before.reason,
                    c.witness.after.policy,
                    c.witness.after.reason,
                )
            };
            match groups.last_mut() {
                Some((first, types)) if c.kind == "autonomy" && key(first) == key(c) => {
                    types.push(c.title.split(": ").nth(1).unwrap_or(""));
                }
                _ => groups.push((c, vec![c.title.split(": ").nth(1).unwrap_or("")])),
            }
        }
        for (c, types) in groups {
            let title = if types.len() > 1 {
                let agent = c.title.split(": ").next().unwrap_or("");
                format!("{agent}: {}", types.join(", "))
            } else {
                c.title.clone()
            };
            let tag = if c.witness.effect() {
                c.direction.name()
            } else {
                "no effect"
            };
            out.push_str(&format!(
                "  {tag:<16} {}: was {}, now {}\n",
                title, c.old, c.new
            ));
            if let Some(r) = &c.region {
                for e in &r.except {
                    out.push_str(&format!("      except   {e}\n"));
                }
            }
            if c.automatic_switch {
                out.push_str("      automatic mode switches (a wildcard auto_approve)\n");
            }
            if let Some(e) = &c.entry {
                let at = if e.side == "old" {
                    format!("{} (removed)", e.source)
                } else {
                    let (file, line, col) = position(c);
                    format!("{file}:{line}:{col}")
                };
                out.push_str(&format!("      entry    {} at {at}\n", e.rule));
            }
            if c.behind_wrappers {
                out.push_str("      also behind wrappers (sudo, env, bash -c…): deny and ask entries read past them\n");
            }
            let w = &c.witness;
            out.push_str(&format!("      witness  {}\n", w.shown));
            out.push_str(&format!("        before {}\n", decision_line(&w.before)));
            out.push_str(&format!("        after  {}\n", decision_line(&w.after)));
            if !w.effect() {
                out.push_str(&format!(
                    "        no effect in this context: {}\n",
                    w.after.reason
                ));
            }
        }
        out.push('\n');
    }
    let (more, less, neutral, none) = counts(changes);
    if changes.is_empty() {
        out.push_str("permc diff: no decision changes\n");
    } else {
        out.push_str(&format!(
            "permc diff: {more} more permissive, {less} less permissive, {neutral} neutral, {none} without effect\n"
        ));
    }
    out.push_str(&format!("  (context: {})\n", context_text(context)));
    out
}

fn context_json(c: &Context) -> Value {
    json!({
        "role": c.role.name(),
        "executionMode": c.execution_mode.name(),
        "containerRunning": c.container_running,
        "projectScopeRoot": c.project_scope_root,
    })
}

fn prefix_json(p: &core::Prefix) -> Value {
    json!({
        "text": p.to_string(),
        "tokens": p.tokens.iter().map(|t| match t {
            permc_grammar::pattern::PatToken::Exact(s) => json!({"exact": s}),
            permc_grammar::pattern::PatToken::Prefix(s) => json!({"prefix": s}),
        }).collect::<Vec<_>>(),
        "open": p.open,
    })
}

fn change_json(c: &Change) -> Value {
    let mut v = json!({
        "kind": c.kind,
        "file": c.file,
        "title": c.title,
        "old": c.old,
        "new": c.new,
        "direction": c.direction.name(),
        "effect": c.witness.effect(),
        "entry": c.entry.as_ref().map(|e| json!({"rule": e.rule, "source": e.source, "side": e.side})),
        "witness": {
            "shown": c.witness.shown,
            "before": c.witness.before.to_json(),
            "after": c.witness.after.to_json(),
        },
    });
    if let Some(r) = &c.region {
        v["region"] = json!({
            "pattern": prefix_json(&r.pattern),
            "except": r.except.iter().map(prefix_json).collect::<Vec<_>>(),
        });
        v["witness"]["words"] = json!(r.witness);
        v["behindWrappers"] = json!(c.behind_wrappers);
    }
    if c.kind == "autonomy" {
        v["automaticSwitch"] = json!(c.automatic_switch);
    }
    v
}

fn json_out(changes: &[Change], context: &Context) -> String {
    let (more, less, neutral, none) = counts(changes);
    json!({
        "version": 1,
        "context": context_json(context),
        "changes": changes.iter().map(change_json).collect::<Vec<_>>(),
        "summary": {
            "morePermissive": more,
            "lessPermissive": less,
            "neutral": neutral,
            "noEffect": none,
        },
    })
    .to_string()
        + "\n"
}

/// `file`, line, column of the entry that causes a change in NEW (sources
/// name files by their base name; the change knows the file as given);
/// line 1 of NEW's file for an entry removed.
fn position(c: &Change) -> (String, usize, usize) {
    if let Some(e) = c.entry.as_ref().filter(|e| e.side == "new") {
        let mut it = e.source.rsplitn(3, ':');
        let col = it.next().and_then(|c| c.parse().ok());
        let line = it.next().and_then(|l| l.parse().ok());
        if let (Some(col), Some(line), Some(_)) = (col, line, it.next()) {
            return (c.file.clone(), line, col);
        }
    }
    (c.file.clone(), 1, 1)
}

fn sentence(c: &Change) -> String {
    let mut s = format!(
        "{}: was {}, now {} ({}",
        c.title,
        c.old,
        c.new,
        c.direction.name()
    );
    if c.witness.effect() {
        s.push_str(&format!(
            "): `{}` was {}, is now {}",
            c.witness.shown,
            decision_line(&c.witness.before),
            decision_line(&c.witness.after)
        ));
    } else {
        s.push_str(&format!(
            ", no effect: `{}` stays {})",
            c.witness.shown,
            decision_line(&c.witness.after)
        ));
    }
    if let Some(e) = c.entry.as_ref().filter(|e| e.side == "old") {
        s.push_str(&format!(" [removed: {} at {}]", e.rule, e.source));
    }
    s
}

fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

fn github(changes: &[Change]) -> String {
    let mut out = String::new();
    for c in changes {
        let (file, line, col) = position(c);
        let level = if c.direction == Direction::MorePermissive && c.witness.effect() {
            "warning"
        } else {
            "notice"
        };
        out.push_str(&format!(
            "::{level} file={},line={line},col={col},title={}::{}\n",
            escape_property(&file),
            escape_property(&format!("permc diff: {}", c.direction.name())),
            escape_data(&sentence(c))
        ));
    }
    out
}

fn sarif(changes: &[Change]) -> String {
    let rules: Vec<Value> = [
        (Direction::MorePermissive, "The change grants more: a decision is more permissive than before."),
        (Direction::LessPermissive, "The change grants less: a decision is less permissive than before."),
        (Direction::Neutral, "The change alters a decision without granting more or less."),
    ]
    .iter()
    .map(|(d, text)| {
        json!({
            "id": d.name(),
            "name": d.name(),
            "shortDescription": {"text": text},
            "defaultConfiguration": {"level": if *d == Direction::MorePermissive { "warning" } else { "note" }},
        })
    })
    .collect();
    let results: Vec<Value> = changes
        .iter()
        .map(|c| {
            let (file, line, col) = position(c);
            let index = match c.direction {
                Direction::MorePermissive => 0,
                Direction::LessPermissive => 1,
                Direction::Neutral => 2,
            };
            let level = if c.direction == Direction::MorePermissive && c.witness.effect() {
                "warning"
            } else {
                "note"
            };
            json!({
                "ruleId": c.direction.name(),
                "ruleIndex": index,
                "level": level,
                "message": {"text": sentence(c)},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": file.trim_start_matches("./")},
                    "region": {"startLine": line, "startColumn": col},
                }}],
                "properties": {"kind": c.kind, "effect": c.witness.effect()},
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "permc diff",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    })
    .to_string()
        + "\n"
}

/// Runs `permc diff`.
pub fn run(args: DiffArgs) -> Result<ExitCode, Fatal> {
    let from_git = args.base.is_some() || args.staged;
    let pairs: Vec<(Version, Version)> = if from_git {
        git_groups(&args)?
            .iter()
            .map(|files| versions_from_git(&args, files))
            .collect::<Result<_, _>>()?
    } else {
        match args.paths.as_slice() {
            [o, n] => vec![(version_on_disk(o)?, version_on_disk(n)?)],
            _ => {
                return Err(Fatal(
                    "error: give OLD and NEW (two folders or two rule files), or --base REV or --staged to read the old versions from git".into(),
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
        .map_err(|e| Fatal(format!("error: cannot start a thread: {e}")))?
        .join()
        .map_err(|_| Fatal("error: the diff failed".into()))?;
    let (changes, context) = changes;
    let text = match args.format {
        Format::Human => human(&changes, &context),
        Format::Json => json_out(&changes, &context),
        Format::Github => github(&changes),
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

#[cfg(test)]
#[path = "../tests/support/corpus.rs"]
mod corpus;

#[cfg(test)]
mod tests {
    use super::*;
    use permc_grammar::rules::load_permissions;

    fn same(rules: &Rules, req: &Request) {
        let w = Witnesser::new(rules);
        assert_eq!(
            w.decide(&req.context, req.action.clone()),
            reference::decide(rules, req),
            "{req:?}"
        );
    }

    /// Every case of the decision corpus: the interpreter on the reduced
    /// entries decides exactly as on the whole rules.
    #[test]
    fn reduced_rules_decide_the_corpus_the_same() {
        let mut n = 0;
        for case in corpus::load_all() {
            let (Some(p), Some(a)) = (
                load_permissions("permissions.json", case.permissions.as_bytes()).value,
                permc_grammar::rules::load_autonomy("autonomy.json", case.autonomy.as_bytes())
                    .value,
            ) else {
                continue;
            };
            if let Ok(req) = Request::from_json(&case.request) {
                same(&Rules::new(p, a), &req);
                n += 1;
            }
        }
        assert!(n > 500, "{n}");
    }

    /// Commands behind wrappers, inner lines, paths and compounds, over
    /// rules whose patterns start with every word they hold.
    #[test]
    fn reduced_rules_decide_wrapped_commands_the_same() {
        let commands = [
            "curl x",
            "sudo curl x",
            "/usr/bin/curl x",
            "X=1 curl x",
            "command curl x",
            "bash -c 'curl x'",
            "sh -c \"git push origin\"",
            "env -S 'git push'",
            "timeout 5 git push",
            "sudo -u root env A=1 /usr/bin/git -C /tmp push",
            "cd src && npm run build | tee out.log",
            "git status; rm -rf build",
            "pnpm test:unit",
            "ls $(curl x)",
            "eval git push",
            "xargs rm -rf",
            "",
            "   ",
            "rm -rf build",
        ];
        let mut words: Vec<String> = commands
            .iter()
            .flat_map(|c| c.split([' ', '\'', '"', ';', '|', '&', '(', ')', '$']))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        words.sort();
        words.dedup();
        let mut patterns = vec!["Terminal()".to_string(), "Terminal(c*)".into()];
        for (i, w) in words.iter().enumerate() {
            let w = w.replace(['(', ')', '*'], "");
            if w.is_empty() {
                continue;
            }
            patterns.push(format!("Terminal({w})"));
            patterns.push(format!("Terminal({w} {})", words[(i * 7) % words.len()]));
            patterns.push(format!("Terminal({}*)", &w[..1]));
        }
        let contexts = [
            r#"{"role": "developer", "executionMode": "runner", "projectScopeRoot": "/home/ana/p"}"#,
            r#"{"role": "maintainer", "executionMode": "container", "containerRunning": true, "projectScopeRoot": "/home/ana/p"}"#,
        ];
        // Each pattern in each list, rotated so every list has a turn first.
        for shift in 0..3 {
            let mut lists: [Vec<&str>; 3] = Default::default();
            for (i, p) in patterns.iter().enumerate() {
                if (i + shift) % 4 != 3 {
                    lists[(i + shift) % 3].push(p);
                }
            }
            let json = serde_json::json!({"deny": lists[0], "ask": lists[1], "allow": lists[2]});
            let perms = load_permissions("permissions.json", json.to_string().as_bytes())
                .value
                .expect("loads");
            let auto = permc_grammar::rules::load_autonomy(
                "autonomy.json",
                br#"{"dev-api": {"*": "auto_approve"}}"#,
            )
            .value
            .expect("loads");
            let rules = Rules::new(perms, auto);
            for c in commands {
                for ctx in contexts {
                    for agent in ["", r#", "agent": "dev-api""#] {
                        let text = format!(
                            r#"{{"action": {{"type": "terminal", "command": {}{agent}}}, "context": {ctx}}}"#,
                            serde_json::Value::from(c)
                        );
                        same(&rules, &Request::from_json(&text).expect("request"));
                    }
                }
            }
        }
    }
}
