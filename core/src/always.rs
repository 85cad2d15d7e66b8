//! Always allow ("sempre permitir", SPEC §7, RN-642, RN-675, AT-320): what
//! a person's "always allow" click on a pending action records.
//!
//! [`derive`] is pure: it reads the action alone (never the rules, never the
//! context) and answers one of three things:
//!
//! - [`Derivation::Refused`]: nothing may be recorded
//!   (`teto_do_sempre_permitir`): the typed actions a ceiling always lowers,
//!   and terminal commands with an external-effect, privileged or unparsed
//!   part — read with the same [`LineFacts`] the ceilings use, wrappers and
//!   inner `sh -c` lines included;
//! - [`Derivation::Autonomy`]: a module dev agent (`dev-<module>`) gets the
//!   autonomy rule `rules[agent][type] = auto_approve` (RN-509);
//! - [`Derivation::Patterns`]: `Label()` for another typed action, or one
//!   `Terminal(…)` pattern per segment of a command.
//!
//! ```
//! use permc_core::always::{derive, Derivation};
//! use permc_core::request::Request;
//! let req = Request::from_json(r#"{"action": {"type": "terminal",
//!     "command": "cd src/app && npm test"},
//!   "context": {"role": "developer", "projectScopeRoot": "/p"}}"#).unwrap();
//! let Derivation::Patterns(p) = derive(&req.action) else { panic!() };
//! let texts: Vec<&str> = p.iter().map(|r| r.pattern.as_str()).collect();
//! assert_eq!(texts, ["Terminal(cd)", "Terminal(npm test)"]);
//! ```
//!
//! **Which words.** A segment's words are its argument words as the reader
//! gives them (SPEC §4.2): redirections apart, leading `NAME=value` words
//! kept (a team decision — a pattern must match the segment it came from, so
//! it is derived from the words the matcher sees). Only the check "is this
//! unit a prefix of a ceiling entry" reads past assignments and wrappers
//! (SPEC §4.3), so that `env FOO=1 npm test` or `nice git status` never
//! record a bare `Terminal(env)` or `Terminal(nice git)`. The code-running
//! and destroying verbs are matched on the verb's last path component
//! (`/usr/bin/python3 x.py` is recorded whole), and a segment with leading
//! assignments is recorded whole (`X=1 rm x`): what runs depends on them.
//!
//! **Invariants** (tested with proptest in `tests/always.rs`): every pattern
//! reads back, with [`Pattern::parse`], to exact tokens equal to the unit it
//! was made from, and so matches the segment it came from; a refused action
//! records nothing; `Terminal()` (which would match everything) is never
//! recorded; derivation never panics.

use crate::facts::catalogue::{self, RunnerProgram};
use crate::facts::project::ProjectRows;
use crate::facts::protected;
use crate::facts::{
    basename, is_assignment, LineFacts, EXTERNAL_EFFECT, PRIVILEGED, PRIVILEGED_SHOWN,
};
use crate::request::Action;
use permc_grammar::pattern::{PatToken, Pattern, PatternBody};
use permc_grammar::shell;
use permc_grammar::ActionType;
use std::borrow::Cow;
use std::fmt;

/// The reason of every refusal (SPEC §7, §10.3).
pub const REFUSAL_REASON: &str = "teto_do_sempre_permitir";

/// The typed actions always-allow refuses (SPEC §7 step 1): those a ceiling
/// always (or, for git_merge, usually) lowers.
pub const REFUSED_TYPES: &[ActionType] = &[
    ActionType::GitPush,
    ActionType::PrOpen,
    ActionType::GitMerge,
    ActionType::ContainerRemove,
    ActionType::InstructionPatch,
    ActionType::Parallelize,
    ActionType::RaiseMaxParallel,
];

/// The agent-id prefix of module dev agents (`dev-<module>`, RN-509).
pub const MODULE_AGENT_PREFIX: &str = "dev-";

/// What an "always allow" click records (SPEC §7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Derivation {
    /// Nothing may be recorded: [`REFUSAL_REASON`].
    Refused(Refusal),
    /// The autonomy rule `rules[agent][action] = auto_approve` (step 3).
    Autonomy {
        /// The module dev agent.
        agent: String,
        /// The action type.
        action: ActionType,
    },
    /// Patterns for permissions.json's allow list, in order, without
    /// duplicates (steps 4 and 5). May be empty: a command whose every
    /// segment records nothing (`git`, an empty command).
    Patterns(Vec<Recorded>),
}

/// Why always-allow refuses (all answer [`REFUSAL_REASON`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A typed action of [`REFUSED_TYPES`] (step 1).
    Typed(ActionType),
    /// A segment with an external effect (SPEC §6.1), e.g. `git push`.
    ExternalEffect(String),
    /// A segment that runs privileged (`sudo`, `doas`, `su`, …).
    Privileged(String),
    /// The command, or an inner line of it, is unparsed (SPEC §4.2).
    Unparsed,
    /// A segment may be a built-in deny through its unknown words (SPEC
    /// §4.4): the words.
    UnknownWord(String),
    /// **[round 4]** The pattern would name a subcommand that moves the
    /// worktree to another commit or the stash (`git switch`, `git stash
    /// pop`): such an entry lifts the protected-path check for every such
    /// move (SPEC §6.4), so none is recorded. The pattern and the
    /// subcommand.
    WorktreeMove(String, String),
}

impl Refusal {
    /// The reason as written in JSON: always [`REFUSAL_REASON`].
    pub fn reason(&self) -> &'static str {
        REFUSAL_REASON
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Typed(t) => write!(
                f,
                "{} is always reviewed by a ceiling, so it cannot be allowed for good",
                t.name()
            ),
            Refusal::ExternalEffect(e) => write!(
                f,
                "the command runs `{e}`, which has an effect outside the machine and is always reviewed"
            ),
            Refusal::Privileged(v) => write!(
                f,
                "the command runs privileged (`{v}`) and is always reviewed"
            ),
            Refusal::Unparsed => f.write_str(
                "the command cannot be read exactly (SPEC §4.2), so no pattern can stand for it",
            ),
            Refusal::UnknownWord(w) => write!(
                f,
                "`{w}` may run a built-in deny through words the shell expands (SPEC §4.4), so no pattern can stand for it"
            ),
            Refusal::WorktreeMove(p, sub) => write!(
                f,
                "`{p}` would name `{sub}`, which moves the worktree to another commit or the stash: an entry that names it lets every such move through the protected-path check (an older commit may hold a looser permissions.json or a hook, SPEC §6.4), so a person approves each"
            ),
        }
    }
}

/// How much of a segment a pattern keeps (SPEC §7 step 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// `Label()` of a typed action (step 4).
    Label,
    /// The verb alone: `cat src/x.ts` → `Terminal(cat)`.
    Verb,
    /// Verb and subcommand word: `npm test`.
    Subcommand,
    /// The whole segment, exact: `ls -la src`, `git remote -v`.
    Segment,
}

/// One pattern to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The pattern text, e.g. `Terminal(npm test)`.
    pub pattern: String,
    /// The action type its label names.
    pub action: ActionType,
    /// How it was chosen.
    pub unit: Unit,
    /// The words it stands for (empty for `Label()`); its tokens are
    /// exactly these.
    pub words: Vec<String>,
    /// The index in `CommandLine::segments` of the first segment it came
    /// from (terminal only).
    pub segment: Option<usize>,
}

impl Recorded {
    /// A sentence on what this pattern allows from now on.
    pub fn explain(&self) -> String {
        let shown = render_words(&self.words).unwrap_or_else(|| self.words.join(" "));
        match self.unit {
            Unit::Label => format!(
                "`{}` allows every {} action (ceilings still apply)",
                self.pattern,
                self.action.name()
            ),
            Unit::Verb => format!(
                "`{}` allows `{shown}` with any arguments inside the project",
                self.pattern
            ),
            Unit::Subcommand => format!(
                "`{}` allows `{shown}` with any further arguments inside the project",
                self.pattern
            ),
            Unit::Segment => format!(
                "`{}` allows exactly `{shown}` (and the same followed by more arguments) inside the project",
                self.pattern
            ),
        }
    }
}

/// Is this agent a module dev agent, `dev-<module>` with a non-empty module
/// (RN-509)?
pub fn is_module_agent(agent: &str) -> bool {
    agent
        .strip_prefix(MODULE_AGENT_PREFIX)
        .is_some_and(|module| !module.is_empty())
}

/// Derives what "always allow" records for an action (SPEC §7, steps in
/// order: refusals, module agent, `Label()`, terminal patterns).
pub fn derive(action: &Action) -> Derivation {
    derive_with(action, &ProjectRows::default())
}

/// [`derive`] with a project's `[[command]]` rows (permc.toml): a run a
/// row gives an external effect or privilege is refused as the built-in
/// ones are, a code row makes the line unparsed.
pub fn derive_with(action: &Action, rows: &ProjectRows) -> Derivation {
    // 1. Typed actions a ceiling always reviews.
    if REFUSED_TYPES.contains(&action.kind) {
        return Derivation::Refused(Refusal::Typed(action.kind));
    }
    // 2. Terminal commands past a ceiling: the same facts as SPEC §5 step 7
    //    (wrappers, nested commands and inner `sh -c` lines included).
    let facts = (action.kind == ActionType::Terminal)
        .then(|| LineFacts::of_with(action.command.as_deref().unwrap_or(""), rows));
    if let Some(f) = &facts {
        if let Some(refusal) = refusal_of(f) {
            return Derivation::Refused(refusal);
        }
    }
    // 3. Module dev agents get an autonomy rule instead (RN-509).
    if let Some(agent) = action.agent.as_deref().filter(|a| is_module_agent(a)) {
        return Derivation::Autonomy {
            agent: agent.to_string(),
            action: action.kind,
        };
    }
    match facts {
        // 4. Any other typed action: `Label()`.
        None => Derivation::Patterns(vec![Recorded {
            pattern: format!("{}()", action.kind.label()),
            action: action.kind,
            unit: Unit::Label,
            words: Vec::new(),
            segment: None,
        }]),
        // 5. One pattern per segment; none that names a worktree move
        //    (SPEC §6.4 round 4: such an entry lifts its protected-path
        //    check).
        Some(f) => {
            let patterns = terminal_patterns(&f);
            let moving = patterns.iter().find_map(|r| {
                let words: Vec<Cow<'_, str>> =
                    r.words.iter().map(|w| Cow::from(w.as_str())).collect();
                protected::names_worktree_move(&words).map(|sub| (r.pattern.clone(), sub))
            });
            match moving {
                Some((pattern, sub)) => Derivation::Refused(Refusal::WorktreeMove(pattern, sub)),
                None => Derivation::Patterns(patterns),
            }
        }
    }
}

/// The refusal of step 2, if any.
fn refusal_of(f: &LineFacts) -> Option<Refusal> {
    // What runs later on the person's machine (SPEC §6.1 round 4) too: a
    // recorded entry applies wherever the command runs next.
    if let Some(e) = f.external_effect_at(false) {
        // A remote client's unlisted subcommand: the run's words.
        let unlisted = f.remote_run(e);
        let named = match unlisted {
            Some(r) => r
                .words
                .iter()
                .take(6)
                .map(|w| &**w)
                .collect::<Vec<_>>()
                .join(" "),
            None => e.join(" "),
        };
        return Some(Refusal::ExternalEffect(named));
    }
    if let Some(r) = f.privileged() {
        let verb = r.words.first().map_or(PRIVILEGED_SHOWN, |w| &**w);
        return Some(Refusal::Privileged(verb.to_string()));
    }
    // The project's rows (permc.toml).
    if let Some(name) = f.project_external() {
        return Some(Refusal::ExternalEffect(name.to_string()));
    }
    if let Some(name) = f.project_privileged() {
        return Some(Refusal::Privileged(name.to_string()));
    }
    if f.unparsed || f.line.is_unparsed() {
        return Some(Refusal::Unparsed);
    }
    if let Some(r) = f.builtin_possible().or_else(|| f.code_possible()) {
        return Some(Refusal::UnknownWord(r.words.join(" ").trim().to_string()));
    }
    None
}

/// Verbs that destroy or send data away (SPEC §7 step 5 [hardening]), and
/// `find`: their unit is the whole segment, exact — matched on the verb's
/// last path component. The catalogue's rows, re-exported.
pub use crate::facts::catalogue::units::EXACT_VERBS;

/// Is a segment with this verb recorded whole (SPEC §7 step 5): a verb of
/// [`EXACT_VERBS`], or one that runs text as code (a shell, an
/// interpreter, a script reader such as `sed` or `awk`) or the command in
/// its operands (every wrapper of SPEC §4.3), as the catalogue says.
pub fn exact_verb(verb: &str) -> bool {
    EXACT_VERBS.contains(&verb) || catalogue::runs_text_as_code(verb) || catalogue::is_wrapper(verb)
}

// The package managers whose bare verb is the whole segment (`npx
// ./x.js`): the catalogue's rows.
use crate::facts::catalogue::units::PACKAGE_RUNNERS;

/// SPEC §7 step 5 over every segment of the line (nested ones included,
/// not the inner lines of `sh -c`), in order, without duplicates.
fn terminal_patterns(f: &LineFacts) -> Vec<Recorded> {
    let mut out: Vec<Recorded> = Vec::new();
    for (i, seg) in f.line.segments.iter().enumerate() {
        if let Some(inner) = f.transparent_inner(i) {
            // A transparent shell records nothing of its own: each command
            // of its string by its own unit (SPEC §7 round 4: `bash -lc
            // 'npm test'` → `Terminal(npm test)`), a `cd` or `set` there
            // too as at the top.
            for s in &inner.segments {
                record(&mut out, &s.words, i);
            }
            continue;
        }
        // `exec 2>/dev/null` runs nothing and step 6 needs no entry for
        // it; `Terminal(exec)` would cover every command exec runs.
        let verb = seg.words.first().map(|w| basename(w));
        if verb.is_some_and(catalogue::is_wrapper) && crate::facts::safe_set(&seg.words, &seg.known)
        {
            continue;
        }
        record(&mut out, &seg.words, i);
        // A run the segment's words do not name (`… | xargs` runs `echo`,
        // SPEC §4.3 round 4) is recorded by its own unit.
        for (start, words, _) in f.given_runs(i) {
            if start >= seg.words.len() {
                record(&mut out, words, i);
            }
        }
    }
    out
}

/// Records the unit of a segment's (or a run's) words, once.
fn record(out: &mut Vec<Recorded>, words: &[Cow<'_, str>], i: usize) {
    let all = words;
    let Some((mut unit, mut words)) = segment_unit(words) else {
        return;
    };
    // A unit that would name a worktree move the segment does not name
    // (`git stash list` → `git stash`) is the whole segment (SPEC §6.4
    // round 4: an entry that names the move lifts its protected-path
    // check); one the segment names is refused by `derive_with`.
    if words.len() < all.len()
        && protected::names_worktree_move(words).is_some()
        && protected::names_worktree_move(all).is_none()
    {
        (unit, words) = (Unit::Segment, all);
    }
    if out.iter().any(|r| r.words.iter().eq(words.iter())) {
        return;
    }
    // A unit that cannot be written so that it reads back to the same
    // words records nothing: no pattern beats a wrong one.
    let Some(pattern) = terminal_pattern(words) else {
        return;
    };
    out.push(Recorded {
        pattern,
        action: ActionType::Terminal,
        unit,
        words: words.iter().map(|w| w.to_string()).collect(),
        segment: Some(i),
    });
}

/// The unit of one segment (SPEC §7 step 5), or `None` when it records
/// nothing.
pub fn segment_unit<'w, 'a>(words: &'w [Cow<'a, str>]) -> Option<(Unit, &'w [Cow<'a, str>])> {
    // A remote client's read is recorded whole (SPEC §7 round 4:
    // `Terminal(gh ssh-key)` would cover `gh ssh-key add`).
    if crate::facts::remote::is_read(words) && !is_ceiling_prefix(words) {
        return Some((Unit::Segment, words));
    }
    let (unit, len) = match words {
        [] => return None,
        [_] => (Unit::Verb, 1),
        [_, t2, ..] if t2.starts_with('-') => (Unit::Segment, words.len()),
        [_, t2, ..] if is_subcommand_word(t2) => (Unit::Subcommand, 2),
        _ => (Unit::Verb, 1),
    };
    // The verb as SPEC §4.3 reads it: a path by its last component
    // (`/usr/bin/python3`, `./rm`). A segment with leading assignments is
    // recorded whole: what it runs depends on them (`PATH=…`, `X=1 rm x`).
    // Every wrapper of §4.3 is itself an exact verb, so whatever it runs
    // is never generalized either.
    let verb = basename(&words[0]);
    let runner = catalogue::runner_program(words);
    let (unit, len) = if is_assignment(&words[0])
        || exact_verb(verb)
        || runner == RunnerProgram::Unplaced
        || (PACKAGE_RUNNERS.contains(&verb) && len == 1 && words.len() > 1)
    {
        (Unit::Segment, words.len())
    } else if let RunnerProgram::At(p) = runner {
        // A runner's unit extends to the program it runs (SPEC §7 round
        // 3: `uv run pytest -k x` → `uv run pytest`), whole when that
        // program runs code or commands itself (`npx sh -c …`).
        let program = basename(&words[p]);
        if exact_verb(program)
            || catalogue::runner_program(&words[p..]) != RunnerProgram::NotARunner
        {
            (Unit::Segment, words.len())
        } else {
            (Unit::Subcommand, p + 1)
        }
    } else if len == 1 && words.len() > 1 && catalogue::describes_subcommands(verb) {
        // A program the catalogue describes with subcommands (SPEC §7
        // round 4 step 4): `t1 t2` when `t2` names a subcommand or a task
        // (`mix deps.get`), else the whole segment — never `t1` alone,
        // which would cover every subcommand, described or not.
        if is_task_word(&words[1]) {
            (Unit::Subcommand, 2)
        } else {
            (Unit::Segment, words.len())
        }
    } else {
        (unit, len)
    };
    // A unit that stops at or before a mutating continuation (SPEC §6.5)
    // would not cover the segment it records (§3.2): the whole segment
    // (`git branch -D x`, `git stash drop`).
    let (unit, len) = match crate::facts::continuations::mutating_from(words, &[]) {
        Some(m) if m >= len => (Unit::Segment, words.len()),
        _ => (unit, len),
    };
    // `len` is at most `words.len()`.
    let candidate = &words[..len];
    if !is_ceiling_prefix(candidate) {
        return Some((unit, candidate));
    }
    if len < words.len() && !is_ceiling_prefix(words) {
        return Some((Unit::Segment, words));
    }
    None
}

/// A subcommand or task name of a program described with subcommands
/// (SPEC §7 round 4 step 4): a subcommand word, or one with dots
/// (`deps.get`, `hex.info`: mix's tasks).
fn is_task_word(w: &str) -> bool {
    w.split('.')
        .all(|part| !part.is_empty() && is_subcommand_word(part))
}

/// `[A-Za-z][A-Za-z0-9_:-]*` (SPEC §7: a subcommand word like `test`,
/// `status`, `test:unit`, `for-each-ref`).
pub fn is_subcommand_word(w: &str) -> bool {
    let mut b = w.bytes();
    b.next().is_some_and(|c| c.is_ascii_alphabetic())
        && b.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b':' | b'-'))
}

/// Are these words, token by token, a prefix of an external-effect entry
/// (SPEC §6.1) or a privileged verb? Read as written, and also past
/// assignments and wrappers (SPEC §4.3): `nice git` runs `git`, a prefix of
/// `git push`; `env FOO=1` runs nothing yet, a prefix of everything.
pub fn is_ceiling_prefix(words: &[Cow<'_, str>]) -> bool {
    if is_table_prefix(words) {
        return true;
    }
    let Some(text) = render_words(words) else {
        // Not renderable: treat as dangerous, fail closed.
        return true;
    };
    let facts = LineFacts::of(&text);
    facts.unparsed
        || facts.external_effect_at(false).is_some()
        || facts.privileged().is_some()
        || facts
            .runs()
            .any(|r| !r.canonical && is_table_prefix(r.words))
}

/// Token prefix of a table entry. The empty sequence is a prefix of all.
fn is_table_prefix(words: &[Cow<'_, str>]) -> bool {
    let prefix_of =
        |entry: &[&str]| words.len() <= entry.len() && words.iter().zip(entry).all(|(w, e)| w == e);
    EXTERNAL_EFFECT.iter().any(|e| prefix_of(e)) || PRIVILEGED.iter().any(|p| prefix_of(&[p]))
}

/// `Terminal(…)` for these words, checked to read back to exactly them
/// (SPEC §7: shell quoting where needed, a literal trailing `*` escaped).
pub fn terminal_pattern(words: &[Cow<'_, str>]) -> Option<String> {
    if words.is_empty() {
        // `Terminal()` matches every command: never recorded.
        return None;
    }
    let text = format!("Terminal({})", render_words(words)?);
    let parsed = Pattern::parse(&text).ok()?;
    let reads_back = match &parsed.body {
        PatternBody::Tokens(t) => {
            t.len() == words.len()
                && t.iter()
                    .zip(words)
                    .all(|(p, w)| matches!(p, PatToken::Exact(e) if e == w))
        }
        _ => false,
    };
    reads_back.then_some(text)
}

/// Words joined by blanks, each quoted so that the shell reader (SPEC §4.1)
/// reads it back as the same single word, and a trailing `*` escaped so
/// that it stays literal (SPEC §3.2). `None` for a word with a NUL byte.
pub fn render_words<S: AsRef<str>>(words: &[S]) -> Option<String> {
    let mut out = String::new();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&render_word(w.as_ref())?);
    }
    Some(out)
}

/// Characters that need no quoting in a word: shlex's safe set plus `=`,
/// `,` and `%`, which are literal inside a word for the shell reader and for
/// bash (`FOO=1`, `--out=x` stay readable).
fn bare_ok(c: char) -> bool {
    c.is_ascii_alphanumeric() || "+-./:@]_=,%".contains(c)
}

fn render_word(w: &str) -> Option<String> {
    let body = w.trim_end_matches('*');
    let stars = w.len() - body.len();
    let mut out = if body.is_empty() {
        if stars == 0 {
            // The empty word.
            "''".to_string()
        } else {
            String::new()
        }
    } else if shell::KEYWORDS.contains(&body) {
        // `'if' x` runs a command named `if`; bare, it would read as a
        // keyword and make the pattern's line unparsed.
        format!("'{body}'")
    } else if body.chars().all(bare_ok) {
        body.to_string()
    } else {
        shlex::try_quote(body).ok()?.into_owned()
    };
    for _ in 0..stars {
        out.push_str("\\*");
    }
    Some(out)
}

/// Is a pattern already in this allow list — the same text, or a pattern
/// that parses equal (same type, same tokens)? Pass
/// `permissions.allow.iter().map(|e| &e.pattern)`.
pub fn already_in<'a>(pattern: &str, allow: impl IntoIterator<Item = &'a Pattern>) -> bool {
    let parsed = Pattern::parse(pattern).ok();
    allow.into_iter().any(|e| {
        e.text == pattern
            || parsed
                .as_ref()
                .is_some_and(|p| p.action == e.action && p.body == e.body)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Request;

    fn action(kind: &str, command: Option<&str>, agent: Option<&str>) -> Action<'static> {
        let mut a = serde_json::json!({"type": kind});
        if let Some(c) = command {
            a["command"] = c.into();
        }
        if let Some(g) = agent {
            a["agent"] = g.into();
        }
        let v = serde_json::json!({"action": a,
            "context": {"role": "owner", "projectScopeRoot": "/p"}});
        Request::from_value(&v)
            .expect("request")
            .into_owned()
            .action
    }

    fn patterns(cmd: &str) -> Vec<String> {
        match derive(&action("terminal", Some(cmd), None)) {
            Derivation::Patterns(p) => p.into_iter().map(|r| r.pattern).collect(),
            other => panic!("{cmd}: {other:?}"),
        }
    }

    #[test]
    fn spec_examples() {
        assert_eq!(patterns("ls -la src"), ["Terminal(ls -la src)"]);
        assert_eq!(patterns("npm test"), ["Terminal(npm test)"]);
        assert_eq!(patterns("git status"), ["Terminal(git status)"]);
        assert_eq!(patterns("npx vitest"), ["Terminal(npx vitest)"]);
        assert_eq!(patterns("cat src/x.ts"), ["Terminal(cat)"]);
        assert_eq!(patterns("cd ../lib"), ["Terminal(cd)"]);
        assert_eq!(patterns("git remote -v"), ["Terminal(git remote -v)"]);
        assert_eq!(patterns("gh pr list"), ["Terminal(gh pr list)"]);
        assert!(patterns("git").is_empty());
        assert_eq!(
            patterns("cd src/app && npm test"),
            ["Terminal(cd)", "Terminal(npm test)"]
        );
    }

    #[test]
    fn the_catalogue_keeps_every_earlier_exact_verb() {
        for v in [
            "bash", "sh", "zsh", "eval", "exec", "source", "xargs", "env", "nohup", "timeout",
            "node", "python", "python3", "perl", "ruby", "python2", "php", "deno", "bun",
            "busybox", "ash", "dash", "ksh", "nice", "stdbuf", "setsid", "command", "builtin",
            "time", "sed", "awk", "lua", "expect",
        ] {
            assert!(exact_verb(v), "{v}");
        }
        for v in ["git", "npm", "cargo", "gcc", "make", "ls"] {
            assert!(!exact_verb(v), "{v}");
        }
    }

    #[test]
    fn rendering() {
        assert_eq!(patterns("rm -f 'x*'"), ["Terminal(rm -f x\\*)"]);
        assert_eq!(
            patterns("grep -r 'a b' src"),
            ["Terminal(grep -r 'a b' src)"]
        );
        assert_eq!(patterns("ls -d '*'"), ["Terminal(ls -d \\*)"]);
        assert_eq!(patterns("FOO=1 npm test"), ["Terminal(FOO=1 npm test)"]);
    }

    #[test]
    fn refusals() {
        for t in [
            "git_push",
            "pr_open",
            "git_merge",
            "container_remove",
            "instruction_patch",
            "parallelize",
            "raise_max_parallel",
        ] {
            assert!(
                matches!(
                    derive(&action(t, None, Some("dev-api"))),
                    Derivation::Refused(Refusal::Typed(_))
                ),
                "{t}"
            );
        }
        for c in [
            "git push",
            "ls && sudo ls",
            "bash -c 'git push'",
            "echo $(git push)",
            "echo 'a",
            "select x in a; do ls; done",
        ] {
            assert!(
                matches!(
                    derive(&action("terminal", Some(c), Some("dev-api"))),
                    Derivation::Refused(_)
                ),
                "{c}"
            );
        }
    }

    #[test]
    fn module_agents_and_labels() {
        assert_eq!(
            derive(&action("terminal", Some("npm test"), Some("dev-api"))),
            Derivation::Autonomy {
                agent: "dev-api".into(),
                action: ActionType::Terminal
            }
        );
        assert!(
            matches!(derive(&action("git_commit", None, Some("dev-")) ), Derivation::Patterns(ref p) if p[0].pattern == "GitCommit()")
        );
        assert!(
            matches!(derive(&action("spend", None, Some("planner")) ), Derivation::Patterns(ref p) if p[0].pattern == "Spend()")
        );
    }
}
