//! Hover on a permissions.json entry: what it matches (its tokens, whether
//! a wildcard), two commands it decides and one it does not, and the
//! ceilings that still lower what it allows (SPEC §5.3 step 7).
//!
//! Nothing shown is guessed: candidates are built from the entry's tokens
//! and the catalogue's tables (external effect, privileged verbs, mutating
//! continuations), then each is decided by the reference interpreter
//! ([`permc_core::reference`]) over a policy holding only this entry, in
//! the project's context; only the candidates whose decision says what the
//! hover claims are shown. Each allowed example is also decided over the
//! whole file, and the hover says when another entry decides it there.

use permc_core::decision::Reason;
use permc_core::facts::continuations::{Shape, CONTINUATIONS, DESCRIBED};
use permc_core::facts::LineFacts;
use permc_core::facts::{EXTERNAL_EFFECT, PRIVILEGED};
use permc_core::request::{Action, Context};
use permc_core::{reference, Decision, Request, Rules};
use permc_grammar::pattern::{PatToken, PatternBody};
use permc_grammar::rules::{Entry, List, Permissions};
use permc_grammar::{ActionType, Policy};

/// A command to try, as words (quoted for the shell when shown) and an
/// optional raw tail (`> permissions.json`, which quoting would spoil).
#[derive(Clone, PartialEq, Eq)]
struct Candidate {
    words: Vec<String>,
    tail: &'static str,
}

impl Candidate {
    fn of(words: Vec<String>) -> Candidate {
        Candidate { words, tail: "" }
    }

    fn command(&self) -> String {
        let mut s = permc_runtime::explain::shell_join(&self.words);
        s.push_str(self.tail);
        s
    }
}

/// Words filling a prefix wildcard (`test:*` → `test:unit`, `test:x`).
const FILLERS: [&str; 2] = ["unit", "x"];

/// Arguments after the entry's tokens that most commands read harmlessly.
const ARGUMENTS: &[&str] = &["--help", ".", "src", "-v", "--version", "README.md"];

/// Commands for `Terminal()`, which has no tokens of its own.
const ANY_COMMAND: &[&[&str]] = &[&["ls"], &["git", "status"], &["npm", "test"], &["make"]];

/// The entry's tokens as words, each wildcard filled with `FILLERS[i]`.
fn instance(tokens: &[PatToken], filler: usize) -> Vec<String> {
    tokens
        .iter()
        .map(|t| match t {
            PatToken::Exact(x) => x.clone(),
            PatToken::Prefix(p) => format!("{p}{}", FILLERS[filler]),
        })
        .collect()
}

/// Commands the entry may match: its tokens, then more words after them.
fn matching(tokens: &[PatToken]) -> Vec<Candidate> {
    if tokens.is_empty() {
        return ANY_COMMAND
            .iter()
            .map(|c| Candidate::of(c.iter().map(|w| w.to_string()).collect()))
            .collect();
    }
    let base = instance(tokens, 0);
    let mut out = vec![Candidate::of(base.clone())];
    if tokens.iter().any(|t| matches!(t, PatToken::Prefix(_))) {
        out.push(Candidate::of(instance(tokens, 1)));
    }
    for a in ARGUMENTS {
        let mut w = base.clone();
        w.push((*a).to_string());
        out.push(Candidate::of(w));
    }
    out
}

fn words(ws: &[&str]) -> Vec<String> {
    ws.iter().map(|w| (*w).to_string()).collect()
}

/// Does `a` start with `b`, word by word?
fn starts_with(a: &[String], b: &[&str]) -> bool {
    b.len() <= a.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Commands the entry's tokens start but that it may not cover: a mutating
/// continuation after them (SPEC §3.2, §6.5), then near misses (one token
/// fewer, a wildcard's text without its last character, a longer word).
fn near_misses(tokens: &[PatToken]) -> Vec<Candidate> {
    let base = instance(tokens, 0);
    let mut out = Vec::new();
    for row in CONTINUATIONS {
        let Some(m) = row.mutating.first() else {
            continue;
        };
        let overlap = starts_with(&base, row.command)
            || (row.command.len() > base.len()
                && row.command.iter().zip(&base).all(|(x, y)| x == y));
        if !overlap {
            continue;
        }
        let mut w = if base.len() >= row.command.len() {
            base.clone()
        } else {
            words(row.command)
        };
        match row.shape {
            Shape::Expression => w.extend(words(&[".", m])),
            _ => w.extend(words(&[m, "x"])),
        }
        out.push(Candidate::of(w));
    }
    if let Some((last, before)) = tokens.split_last() {
        // One token fewer: the entry needs them all (k ≤ n).
        if !before.is_empty() && matches!(last, PatToken::Exact(_)) {
            out.push(Candidate::of(instance(before, 0)));
        }
        let mut w = instance(before, 0);
        match last {
            PatToken::Prefix(p) => {
                let shorter = p.trim_end_matches(|c: char| !c.is_alphanumeric());
                let shorter = if shorter.len() < p.len() {
                    shorter
                } else {
                    &p[..p.len() - p.chars().last().map_or(0, char::len_utf8)]
                };
                if shorter.is_empty() {
                    w.push("other".into());
                } else {
                    w.push(shorter.to_string());
                }
            }
            PatToken::Exact(x) => w.push(format!("{x}x")),
        }
        out.push(Candidate::of(w));
        if !before.is_empty() {
            out.push(Candidate::of(instance(before, 0)));
        }
    }
    // `Terminal()` covers everything but the floor (SPEC §5.2).
    out.push(Candidate::of(words(&["rm", "-rf", "/"])));
    out
}

/// Commands that may meet a ceiling (SPEC §5.3 step 7) once the entry
/// allows them: the external-effect and privileged tables' rows its tokens
/// start, a path outside the scope, protected paths.
fn ceiling_probes(tokens: &[PatToken]) -> Vec<Candidate> {
    let base = instance(tokens, 0);
    let mut out = matching(tokens);
    for row in EXTERNAL_EFFECT {
        if row.len() > base.len() && row.iter().zip(&base).all(|(x, y)| x == y) {
            out.push(Candidate::of(words(row)));
        }
    }
    if base.is_empty() {
        out.extend(PRIVILEGED.iter().map(|p| Candidate::of(words(&[p, "ls"]))));
    } else if base.len() == 1 && PRIVILEGED.contains(&base[0].as_str()) {
        out.push(Candidate::of(words(&[&base[0], "ls"])));
    }
    let with = |extra: &[&str]| {
        let mut w = if base.is_empty() {
            words(&["cat"])
        } else {
            base.clone()
        };
        w.extend(words(extra));
        Candidate::of(w)
    };
    for extra in [
        &["/etc/passwd"][..],
        &["../other-project"],
        &["permissions.json"],
        &[".git/config"],
    ] {
        out.push(with(extra));
    }
    let mut redirect = with(&[]);
    redirect.tail = " > permissions.json";
    out.push(redirect);
    let mut unparsed = with(&[]);
    unparsed.tail = " \"$(cat x)\"";
    out.push(unparsed);
    out
}

/// What the hover needs to decide: the entry alone, the whole file, the
/// context.
pub struct Probe<'a> {
    alone: Rules,
    whole: Rules,
    context: &'a Context<'a>,
}

impl<'a> Probe<'a> {
    pub fn new(entry: &Entry, file: &Permissions, context: &'a Context) -> Probe<'a> {
        let mut only = Permissions {
            file: file.file.clone(),
            ..Permissions::default()
        };
        let mut e = entry.clone();
        e.index = 0;
        match entry.list {
            List::Allow => only.allow.push(e),
            List::Deny => only.deny.push(e),
            List::Ask => only.ask.push(e),
        }
        Probe {
            alone: Rules::new(only, Default::default()),
            whole: Rules::new(file.clone(), Default::default()),
            context,
        }
    }

    fn request(&self, kind: ActionType, command: Option<String>) -> Request<'a> {
        Request {
            action: Action {
                kind,
                command: command.map(Into::into),
                cwd: None,
                agent: None,
                target_branch: None,
                path: None,
            },
            context: self.context.clone(),
        }
    }

    fn terminal(&self, c: &Candidate) -> (String, Decision, Decision) {
        let command = c.command();
        let req = self.request(ActionType::Terminal, Some(command.clone()));
        (
            command,
            reference::decide(&self.alone, &req),
            reference::decide(&self.whole, &req),
        )
    }
}

/// The reason an entry of `list` gives when it decides.
fn own_reason(list: List) -> Reason {
    match list {
        List::Allow => Reason::FileAllow,
        List::Deny => Reason::FileDeny,
        List::Ask => Reason::FileAsk,
    }
}

fn is_ceiling(r: Reason) -> bool {
    r.name().starts_with("ceiling.") || r == Reason::UnknownWord
}

/// The hover's text (Markdown) for `entry` of `file`, in `context`.
pub fn markdown(entry: &Entry, file: &Permissions, context: &Context) -> String {
    let p = &entry.pattern;
    let list = entry.list;
    let mut md = format!("**`{}`** in `{}`\n\n", p.text, list.name());
    let tokens = match &p.body {
        PatternBody::Nothing(why) => {
            md.push_str(&format!(
                "matches nothing: {}",
                match why {
                    permc_grammar::pattern::DeadReason::ContentOnTypedLabel =>
                        "a typed label with content matches no action (SPEC §3.1); write it with empty parentheses",
                    permc_grammar::pattern::DeadReason::NotSimpleCommand =>
                        "its content is not one simple command, and every segment is matched on its own (SPEC §3.1); split it, one entry per segment",
                }
            ));
            return md;
        }
        PatternBody::Any if p.action != ActionType::Terminal => {
            return typed(entry, file, context, md);
        }
        PatternBody::Any => &[][..],
        PatternBody::Tokens(t) => t.as_slice(),
    };
    tokens_text(&mut md, tokens);
    md.push_str("\n\n");
    let probe = Probe::new(entry, file, context);
    let found = examples(list, tokens, &probe);
    let mine = own_reason(list);
    let (verb, not) = match list {
        List::Allow => ("allows", "does not allow"),
        List::Deny => ("denies", "does not deny"),
        List::Ask => ("asks for", "does not ask for"),
    };
    if found.decided.is_empty() {
        md.push_str(&format!(
            "{verb}: no example found (every command tried is lowered, see below)\n\n"
        ));
    } else {
        md.push_str(&format!("{verb}, e.g.:\n"));
        for e in &found.decided {
            let whole = &e.whole;
            md.push_str(&format!("- `{}`", e.command));
            if whole.reason != mine || whole.rule.as_ref().map(|r| &r.rule) != Some(&p.text) {
                md.push_str(&format!(
                    " (in this file: {} by {}, `{}`)",
                    whole.policy,
                    whole.rule.as_ref().map_or_else(
                        || whole.reason.name().to_string(),
                        |r| format!("`{}`", r.rule)
                    ),
                    whole.reason
                ));
            }
            md.push('\n');
        }
        md.push('\n');
    }
    if let Some(e) = &found.miss {
        md.push_str(&format!(
            "{not}: `{}` ({}, {})\n\n",
            e.command, e.alone.policy, e.alone.reason
        ));
    }
    if list == List::Allow {
        described_text(&mut md, tokens);
    }
    ceilings_text(&mut md, list, &found);
    md
}

/// For an entry whose tokens start a program the catalogue describes
/// (SPEC §4.5 item 2): the version described, and what a word its row
/// cannot place does — the sentence the decision gives, from the facts.
fn described_text(md: &mut String, tokens: &[PatToken]) {
    let base = instance(tokens, 0);
    let row = DESCRIBED
        .iter()
        .filter(|d| starts_with(&base, d.program))
        .max_by_key(|d| d.program.len());
    let Some(row) = row else {
        return;
    };
    let mut w = base.clone();
    w.extend(words(&["--frob", "x"]));
    let command = Candidate::of(w).command();
    let facts = LineFacts::of(&command);
    let program = row.program.join(" ");
    md.push_str(&format!(
        "`{program}` is described completely ({}, SPEC §4.5): a word its row cannot place is not covered (`{command}`)",
        row.version
    ));
    match facts.unplaced() {
        Some((r, i, d)) => md.push_str(&format!(
            "; its row holds options that write or run, so such a word lowers with `unknown.word` in every mode, automatic mode and the container floor included: {}\n\n",
            permc_core::phrases::unplaced_phrase(r, i, d)
        )),
        None => md.push_str("\n\n"),
    }
}

/// What the pattern's tokens are and how they match.
fn tokens_text(md: &mut String, tokens: &[PatToken]) {
    let shown: Vec<String> = tokens
        .iter()
        .map(|t| match t {
            PatToken::Exact(x) => format!("`{x}`"),
            PatToken::Prefix(x) => format!("`{x}*` (any word starting `{x}`)"),
        })
        .collect();
    let wildcard = tokens.iter().any(|t| matches!(t, PatToken::Prefix(_)));
    md.push_str(&format!(
        "tokens: {}\n\nwildcard: {}\n\nmatches a command segment whose words start with these tokens, whole words only (SPEC §3.2): more words may follow",
        if shown.is_empty() {
            "none: every command".into()
        } else {
            shown.join(" ")
        },
        if wildcard { "yes" } else { "no" },
    ));
    if tokens
        .iter()
        .any(|t| matches!(t, PatToken::Exact(x) if x.contains('*')))
    {
        md.push_str(
            "\n\na `*` here is a literal character, not a wildcard: only a `*` ending a token after some text is one (SPEC §3.2)",
        );
    }
}

/// Which ceilings still lower what the entry decides.
fn ceilings_text(md: &mut String, list: List, found: &Examples) {
    match list {
        List::Deny => md.push_str("ceilings: none apply: a deny is final (SPEC §5.3)"),
        List::Ask => {
            md.push_str("ceilings: none apply: a written ask always asks (SPEC §5.3 step 6)")
        }
        List::Allow if found.lowered.is_empty() => {
            md.push_str("ceilings: none met by the commands tried")
        }
        List::Allow => {
            md.push_str("still lowered to require_approval by the ceilings (SPEC §5.3 step 7):\n");
            for e in &found.lowered {
                md.push_str(&format!(
                    "- `{}`: `{}`: {}\n",
                    e.alone.reason,
                    e.command,
                    lowered_why(&e.alone.message)
                ));
            }
        }
    }
}

/// A command tried, decided over the entry alone and over the whole file.
struct Example {
    command: String,
    alone: Decision,
    whole: Decision,
}

/// What a Terminal entry's hover shows, each claim a decision.
struct Examples {
    /// Up to two commands the entry decides (over it alone: its list's
    /// reason), those the whole file agrees with first.
    decided: Vec<Example>,
    /// A command it does not decide and no ceiling lowers.
    miss: Option<Example>,
    /// For an allow entry: one command per ceiling that lowers it.
    lowered: Vec<Example>,
}

fn examples(list: List, tokens: &[PatToken], probe: &Probe) -> Examples {
    let mine = own_reason(list);
    let mut decided: Vec<Example> = Vec::new();
    for c in matching(tokens) {
        let (command, alone, whole) = probe.terminal(&c);
        if alone.reason == mine && !decided.iter().any(|e| e.command == command) {
            decided.push(Example {
                command,
                alone,
                whole,
            });
        }
    }
    // Examples the whole file agrees with first (a stable sort).
    decided.sort_by_key(|e| e.whole.reason != mine);
    decided.truncate(2);
    let miss = near_misses(tokens).into_iter().find_map(|c| {
        let (command, alone, whole) = probe.terminal(&c);
        let matched = alone.reason == mine || is_ceiling(alone.reason);
        (!matched).then_some(Example {
            command,
            alone,
            whole,
        })
    });
    let mut lowered: Vec<Example> = Vec::new();
    if list == List::Allow {
        for c in ceiling_probes(tokens) {
            let (command, alone, whole) = probe.terminal(&c);
            if alone.policy == Policy::RequireApproval
                && is_ceiling(alone.reason)
                && !lowered.iter().any(|e| e.alone.reason == alone.reason)
            {
                lowered.push(Example {
                    command,
                    alone,
                    whole,
                });
            }
        }
    }
    Examples {
        decided,
        miss,
        lowered,
    }
}

/// A typed label (`GitPush()`): every action of its type.
fn typed(entry: &Entry, file: &Permissions, context: &Context, mut md: String) -> String {
    let kind = entry.pattern.action;
    md.push_str(&format!(
        "matches every `{kind}` action (a typed label has no tokens and no wildcard); minimum role: {} (SPEC §1)\n\n",
        kind.min_role()
    ));
    // Below the minimum role every such action is denied first (step 1):
    // the examples are decided for the minimum role.
    let mut raised = context.clone();
    if raised.role < kind.min_role() {
        md.push_str(&format!(
            "a {} is denied it (`iam.min_role`); for a {}:\n\n",
            context.role,
            kind.min_role()
        ));
        raised.role = kind.min_role();
    }
    let probe = Probe::new(entry, file, &raised);
    let mut variants: Vec<Request> = vec![probe.request(kind, None)];
    match kind {
        ActionType::GitMerge => {
            variants[0].action.target_branch = Some("feature/login".into());
            let mut main = probe.request(kind, None);
            main.action.target_branch = Some("main".into());
            variants.push(main);
        }
        ActionType::WriteFile => {
            variants[0].action.path = Some("src/main.rs".into());
            for path in ["/etc/passwd", "permissions.json"] {
                let mut r = probe.request(kind, None);
                r.action.path = Some(path.into());
                variants.push(r);
            }
        }
        _ => {}
    }
    let mine = own_reason(entry.list);
    let mut lowered: Vec<(Reason, String)> = Vec::new();
    for r in &variants {
        let d = reference::decide(&probe.alone, r);
        let what = describe(r);
        if d.reason == mine {
            md.push_str(&format!(
                "decides `{what}`: {} ({})\n\n",
                d.policy, d.reason
            ));
        } else if is_ceiling(d.reason) && !lowered.iter().any(|(x, _)| *x == d.reason) {
            lowered.push((d.reason, format!("`{what}`: {}", lowered_why(&d.message))));
        } else if d.reason == Reason::IamMinRole {
            md.push_str(&format!(
                "`{what}`: {} ({}): {}\n\n",
                d.policy, d.reason, d.message
            ));
        }
    }
    // The git command of the same name (`git push`) is another action
    // type: a terminal one.
    let command = kind.name().replace('_', " ");
    let d = reference::decide(
        &probe.alone,
        &probe.request(ActionType::Terminal, Some(command.clone())),
    );
    if kind.name().starts_with("git_") && d.reason != mine {
        md.push_str(&format!(
            "does not match the terminal command `{command}` ({}, {}): a Terminal pattern does\n\n",
            d.policy, d.reason
        ));
    }
    if entry.list == List::Allow {
        if lowered.is_empty() {
            md.push_str("ceilings: none lower it");
        } else {
            md.push_str("still lowered to require_approval by the ceilings (SPEC §5.3 step 7):\n");
            for (r, s) in lowered {
                md.push_str(&format!("- `{r}`: {s}\n"));
            }
        }
    }
    md
}

/// The ceiling's half of a decision's message: what the entry said is
/// known, so "every segment is allowed by …; but X, so a person approves
/// it" is shown from X.
fn lowered_why(message: &str) -> String {
    message
        .split_once("; but ")
        .map_or(message, |(_, why)| why)
        .to_string()
}

fn describe(r: &Request) -> String {
    let a = &r.action;
    let mut s = a.kind.name().to_string();
    if let Some(t) = &a.target_branch {
        s.push_str(&format!(" into {t}"));
    }
    if let Some(p) = &a.path {
        s.push_str(&format!(" to {p}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use permc_core::request::ExecutionMode;
    use permc_grammar::Role;

    /// Every claim of every hover on the shipped example is decided the
    /// same by the compiled engine over the entry alone: an example shown
    /// as decided is, the miss is not, and each ceiling named lowers its
    /// command. The hover's candidates are the reference interpreter's
    /// choice; this holds the other engine to it too.
    #[test]
    fn the_compiled_engine_agrees_with_every_example() {
        let text = include_str!("../../examples/permissions.json");
        let file = permc_grammar::rules::load_permissions("permissions.json", text.as_bytes())
            .value
            .expect("the example loads");
        let context = Context {
            role: Role::Developer,
            execution_mode: ExecutionMode::Runner,
            container_running: false,
            project_scope_root: Some("/home/ana/loja".into()),
        };
        let mut shown = 0;
        for entry in file.entries() {
            let Some(tokens) = entry.pattern.tokens() else {
                continue;
            };
            let probe = Probe::new(entry, &file, &context);
            let compiled = permc_compiler::compile(&probe.alone.permissions, &probe.alone.autonomy);
            let found = examples(entry.list, tokens, &probe);
            let mine = own_reason(entry.list);
            let decide = |command: &str| {
                let req = probe.request(ActionType::Terminal, Some(command.to_string()));
                permc_compiler::compiled::decide(&compiled, &req)
            };
            assert!(
                !found.decided.is_empty() || entry.list == List::Allow,
                "{}: no example",
                entry.pattern.text
            );
            for e in &found.decided {
                assert_eq!(
                    decide(&e.command).reason,
                    mine,
                    "{}: {}",
                    entry.pattern.text,
                    e.command
                );
                shown += 1;
            }
            if let Some(e) = &found.miss {
                let d = decide(&e.command);
                assert!(
                    d.reason != mine && !is_ceiling(d.reason),
                    "{}: {}",
                    entry.pattern.text,
                    e.command
                );
            }
            for e in &found.lowered {
                assert_eq!(
                    decide(&e.command),
                    e.alone,
                    "{}: {}",
                    entry.pattern.text,
                    e.command
                );
            }
        }
        assert!(shown > 20, "{shown}");
    }
}
