//! Every sentence permc says to people about a decision, in one copy: the
//! `message` of SPEC §10.2, the steps `permc explain` prints, and the
//! analyzer's wording of the same facts. The reference interpreter, the
//! compiled engine and the analyzer all call these, so the engines' messages
//! are equal byte for byte (the equivalence tests compare them).
//!
//! Fixed sentences are `&'static str` constants; a function builds a
//! `String` only where the sentence holds data. The phrases of step 7.0
//! and 7c read the per-request facts, so they live with them in
//! [`crate::facts`] and are re-exported here.

use crate::decision::{Origin, Reason, RuleRef};
use permc_grammar::{ActionType, Policy, Role};
use std::borrow::Cow;
use std::fmt;

pub use crate::facts::{
    possible_builtin_phrase, possible_code_phrase, possible_deny_phrase,
    possible_run_builtin_phrase, possible_run_external_phrase, project_unplaced_phrase,
    unparsed_phrase, unplaced_phrase,
};

/// Step 7.0's sources of `unknown.word` that the facts answer alone, in
/// SPEC §5.3's order, up to the possible deny (which each engine reads
/// from its own form of the rules): a possible built-in, a possible code
/// form, a described row's unplaced word (a built-in row's, then a
/// project row's), a possible run's built-in. One list for both engines,
/// so they cannot order the sources differently.
pub fn unknown_word_before_deny(f: &crate::facts::LineFacts) -> Option<String> {
    if let Some(r) = f.builtin_possible() {
        return Some(possible_builtin_phrase(r));
    }
    if let Some(r) = f.code_possible() {
        return Some(possible_code_phrase(r));
    }
    if let Some((r, i, row)) = f.unplaced() {
        return Some(unplaced_phrase(r, i, row));
    }
    if let Some((r, i, row)) = f.project_unplaced() {
        return Some(project_unplaced_phrase(r, i, row));
    }
    let (i, r) = f.builtin_possible_run()?;
    Some(possible_run_builtin_phrase(f, i, r))
}

/// Step 7.0's last source, after the possible deny: a possible run's
/// §6.1 match.
pub fn unknown_word_after_deny(f: &crate::facts::LineFacts) -> Option<String> {
    let (i, r, e) = f.external_possible()?;
    Some(possible_run_external_phrase(f, i, r, e))
}

// ---------------------------------------------------------------------
// Decision messages (SPEC §10.2), in the order of SPEC §5.3.

/// A part of a sentence [`built`] puts together.
enum Piece<'a> {
    Str(&'a str),
    /// Words joined by single spaces, each quoted for the shell where it
    /// needs it ([`shell_word`]), as a segment is shown.
    Words(&'a [Cow<'a, str>]),
}

/// A word as `permc explain` and every message show it: as is when the
/// shell reads it back unchanged, else quoted (`'a b'`), so that a line of
/// explain and the decision's message quote a word the same way (issue
/// 43). Plain words, nearly all of them, are not copied.
pub fn shell_word(w: &str) -> Cow<'_, str> {
    // `~` expands only at a word's start: `HEAD~1` reads back unchanged.
    let plain = !w.is_empty()
        && !w.starts_with('~')
        && w.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'-' | b'_' | b'.' | b'/' | b':' | b',' | b'+' | b'=' | b'@' | b'%' | b'~'
                )
        });
    if plain {
        return Cow::Borrowed(w);
    }
    shlex::try_quote(w).unwrap_or(Cow::Borrowed(w))
}

/// Words as one shell line, each as [`shell_word`] shows it.
pub fn shell_line<S: AsRef<str>>(words: &[S]) -> String {
    let mut out = String::new();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&shell_word(w.as_ref()));
    }
    out
}

/// The pieces in one string, sized once: what `format!` with a `join`
/// does, without the formatting machinery and the join's own string (the
/// messages of step 6 are built on most decisions).
fn built(pieces: &[Piece<'_>]) -> String {
    let len = pieces
        .iter()
        .map(|p| match p {
            Piece::Str(s) => s.len(),
            Piece::Words(w) => w.iter().map(|w| w.len() + 1).sum(),
        })
        .sum();
    let mut out = String::with_capacity(len);
    for p in pieces {
        match p {
            Piece::Str(s) => out.push_str(s),
            Piece::Words(words) => {
                for (i, w) in words.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push_str(&shell_word(w));
                }
            }
        }
    }
    out
}

/// Step 1, `iam.min_role`.
pub fn min_role(action: ActionType, needed: Role, have: Role) -> String {
    format!("{action} needs the role {needed} or above; the requester is {have}")
}

/// Step 2, `builtin.deny`.
pub fn builtin_deny(pattern: &str) -> String {
    format!("the command runs `{pattern}`, a built-in deny no file can lift")
}

/// The `source` of a built-in deny's rule.
pub const BUILTIN_SOURCE: &str = "builtin";

/// Step 3, `container.floor`.
pub const CONTAINER_FLOOR: &str = "the command runs in the project's running container";

/// Step 3, `default`.
pub const DEFAULT: &str = "no rule grants this action, so a person approves it";

/// Step 4, every `autonomy.*` reason: `rule` as a decision names it
/// (`dev-api: * = auto_approve`).
pub fn autonomy_rule(rule: &str, origin: Origin, mode: Policy) -> String {
    [
        "the autonomy rule `",
        rule,
        "` (",
        origin.name(),
        ") says ",
        mode.name(),
    ]
    .concat()
}

/// Step 5, `file.deny` by a `Label()` entry.
pub fn typed_deny(rule: &str, action: ActionType) -> String {
    format!("`{rule}` in deny denies every {action}")
}

/// Step 5, `file.ask` by a `Label()` entry.
pub fn typed_ask(rule: &str, action: ActionType) -> String {
    format!("`{rule}` in ask asks for every {action}")
}

/// Step 5, `file.allow` by a `Label()` entry.
pub fn typed_allow(rule: &str, action: ActionType) -> String {
    format!("`{rule}` in allow allows every {action}")
}

/// Step 6, `file.deny`: the first denied segment (its words).
pub fn segment_deny(segment: &[Cow<'_, str>], rule: &RuleRef) -> String {
    built(&[
        Piece::Str("`"),
        Piece::Words(segment),
        Piece::Str("` is denied by `"),
        Piece::Str(&rule.rule),
        Piece::Str("` ("),
        Piece::Str(&rule.source),
        Piece::Str(")"),
    ])
}

/// Step 6, `file.allow`: every segment allowed by `file` (permissions.json
/// by its last path component), `first` the first allow entry.
pub fn all_allowed(file: &str, first: &str) -> String {
    [
        "every segment is allowed by ",
        file,
        " (first: `",
        first,
        "`)",
    ]
    .concat()
}

/// Step 6, `scope.cd`.
pub const ALL_CD_IN_SCOPE: &str = "every segment is a `cd` inside the scope";

/// Step 6, `file.ask`: the first asked segment (its words).
pub fn segment_ask(segment: &[Cow<'_, str>], rule: &RuleRef) -> String {
    built(&[
        Piece::Str("`"),
        Piece::Words(segment),
        Piece::Str("` is in ask (`"),
        Piece::Str(&rule.rule),
        Piece::Str("`, "),
        Piece::Str(&rule.source),
        Piece::Str("): a written ask always asks"),
    ])
}

/// Step 6, `compound.uncovered`: the first uncovered segment (its words).
pub fn compound_uncovered(uncovered: &[Cow<'_, str>]) -> String {
    built(&[
        Piece::Str("some segments are allowed but `"),
        Piece::Words(uncovered),
        Piece::Str("` is not covered by any rule"),
    ])
}

/// Step 7: the auto-approving `message`, lowered by a ceiling's phrase.
pub fn lowered(message: &str, ceiling: &str) -> String {
    [message, "; but ", ceiling, ", so a person approves it"].concat()
}

const OUTSIDE_THE_MACHINE: &str = "has an effect outside the machine";

/// Step 7a, `ceiling.external_effect` (the analyzer says it too).
pub fn external_effect(command: &[&str]) -> String {
    ["`", &command.join(" "), "` ", OUTSIDE_THE_MACHINE].concat()
}

/// Step 7a, **[round 4]** what leaves something that runs later on the
/// person's machine (SPEC §6.1).
pub fn later_on_host(command: &[&str]) -> String {
    [
        "`",
        &command.join(" "),
        "` leaves something that runs later on the person's machine, outside this command",
    ]
    .concat()
}

/// Step 7b, `ceiling.privileged`.
pub fn privileged(verb: &str) -> String {
    format!("the command runs privileged (`{verb}`)")
}

/// Step 7a over a line's facts: a built-in external-effect entry a run
/// matches, else a project row with an external effect a run names
/// (permc.toml), named: both engines call this.
/// **[round 4]** Also, on the host (not `in_container`, §6.2's first
/// case), what leaves something that runs later on the person's machine
/// (§6.1): [`later_on_host`].
pub fn external_effect_of(f: &crate::facts::LineFacts, in_container: bool) -> Option<String> {
    if let Some(e) = f.external_effect_where(in_container) {
        if f.remote_run(e).is_some() {
            return Some(remote_unlisted(f, e));
        }
        return Some(external_effect(e));
    }
    if let Some(e) = (!in_container).then(|| f.later_on_host()).flatten() {
        return Some(later_on_host(e));
    }
    f.project_external().map(project_external)
}

/// Step 7a for a remote client's subcommand its row does not list as a
/// read, or an HTTP request that sends something (SPEC §4.5 item 3),
/// naming the run and the row: "`gh pr reopen 1` has an effect outside
/// the machine (a subcommand of GitHub's client, gh 2.46, that its row
/// does not list as a read)".
fn remote_unlisted(f: &crate::facts::LineFacts, e: &[&str]) -> String {
    let run = f.remote_run(e);
    let Some((r, why)) = run.and_then(|r| Some((r, crate::facts::remote::why(r.words, r.known)?)))
    else {
        return external_effect(e);
    };
    let shown: Vec<&str> = r.words.iter().take(6).map(|w| &**w).collect();
    let more = if r.words.len() > 6 { " …" } else { "" };
    format!("`{}{more}` {OUTSIDE_THE_MACHINE} ({why})", shown.join(" "))
}

/// Step 7a, a project row's: "`./deploy.sh` has an effect outside the
/// machine (permc.toml)".
pub fn project_external(name: &str) -> String {
    external_effect(&[name]) + " (" + crate::facts::project::SOURCE + ")"
}

/// Step 7b over a line's facts: a privileged run, else a privileged
/// project row a run names: both engines call this.
/// `in_container`: the command runs in the running container (SPEC
/// §6.2's first case), where a compose service's privileges stay inside.
pub fn privileged_of(f: &crate::facts::LineFacts, in_container: bool) -> Option<String> {
    if let Some(r) = f.privileged() {
        return Some(privileged(
            r.privileged_via.unwrap_or(crate::facts::PRIVILEGED_SHOWN),
        ));
    }
    if let Some(shown) = f.privileged_outside(in_container) {
        return Some(compose_privileged(shown));
    }
    f.project_privileged().map(project_privileged)
}

/// Step 7b, a compose subcommand outside the running container (SPEC
/// §4.3 round 4).
pub fn compose_privileged(shown: &str) -> String {
    format!(
        "`{shown}` starts services whose privileges (`privileged:`, host volumes, devices, capabilities) come from a compose file permc does not read, outside the running container"
    )
}

/// Step 7b, a project row's.
pub fn project_privileged(name: &str) -> String {
    format!(
        "the command runs privileged (`{name}`, {})",
        crate::facts::project::SOURCE
    )
}

/// Step 7d, `ceiling.typed_external`.
pub fn typed_external(action: ActionType) -> String {
    [action.name(), " ", OUTSIDE_THE_MACHINE].concat()
}

/// Step 7e, `ceiling.protected_merge`.
pub fn protected_merge(target: Option<&str>) -> String {
    match target {
        Some(t) if !crate::facts::plain_branch(t) => format!(
            "the merge target `{}` is not a plain branch name (git may read it as a refspec or a revision, or it may stand for a protected branch)",
            t.escape_debug()
        ),
        _ => {
            let t = target.unwrap_or("(no target)");
            format!("the merge targets the protected branch `{t}`")
        }
    }
}

/// Step 7f, `ceiling.instruction_patch`.
pub const INSTRUCTION_PATCH: &str = "instruction patches are always reviewed";

/// Step 7g, `ceiling.parallelism`.
pub const PARALLELISM: &str = "parallelism changes are always reviewed";

/// Step 7h, `ceiling.container_remove`.
pub const CONTAINER_REMOVE: &str = "removing a container is always reviewed";

/// Step 7i, `ceiling.scope`.
pub fn outside_scope(word: &str) -> String {
    format!("`{word}` is outside the project scope")
}

/// Step 7j, `ceiling.protected_path` (SPEC §6.4): what names the path.
pub fn protected_path(shown: &str) -> String {
    format!("`{shown}` names a protected path (a rule file or git's own directory, which change what runs or is allowed later)")
}

// ---------------------------------------------------------------------
// The steps of `permc explain`: a step's name, then what it found.

/// Step 1.
pub const STEP_IAM: &str = "1. IAM";
/// Step 2.
pub const STEP_BUILTINS: &str = "2. Built-ins";
/// Step 3.
pub const STEP_BASE: &str = "3. Base";
/// Step 4.
pub const STEP_AUTONOMY: &str = "4. Autonomy";
/// Step 5.
pub const STEP_FILE: &str = "5. File";
/// Step 6.
pub const STEP_FILE_TERMINAL: &str = "6. File (terminal)";
/// Step 6, one line per segment.
pub const STEP_SEGMENT: &str = "6. Segment";
/// Step 7.
pub const STEP_CEILINGS: &str = "7. Ceilings";

/// A step that denies.
pub fn trace_deny(message: &str) -> String {
    format!("deny: {message}")
}

/// Step 1 passed.
pub fn may_propose(role: Role, action: ActionType) -> String {
    format!("{role} may propose {action}")
}

/// Step 2 passed.
pub const NO_BUILTIN: &str = "no built-in deny matches";

/// A step that sets current (step 3), or a file stage's opinion (steps 5
/// and 6) with the entry that gave it.
pub fn trace_current(policy: Policy, reason: Reason, rule: Option<&RuleRef>) -> String {
    match rule {
        Some(r) => format!("{policy} ({reason}) by `{}` at {}", r.rule, r.source),
        None => format!("{policy} ({reason})"),
    }
}

/// Step 4: the resolved mode and the rule it came from.
pub fn trace_autonomy(mode: Policy, rule: Option<&RuleRef>, origin: Origin) -> String {
    let origin = origin.name();
    match rule {
        Some(r) => format!("{mode} from `{}` at {} (origin {origin})", r.rule, r.source),
        None => format!("{mode} (origin {origin})"),
    }
}

/// Step 4, automatic mode (SPEC §2.2).
pub const AUTOMATIC_MODE: &str = "automatic mode: the wildcard auto_approve is in force";

/// Step 4, no opinion.
pub const NO_AUTONOMY: &str = "no autonomy rule for this agent and type";

/// Step 5 silent: why.
pub fn no_typed_entry(action: ActionType) -> String {
    format!("no `{}()` entry", action.label())
}

/// Step 6 silent: why.
pub const NO_SEGMENT: &str = "the command has no segment";

/// Step 6 silent: why.
pub const NO_PATTERN: &str = "no pattern matches any segment";

/// A silent file stage.
pub fn trace_silent(why: &str) -> String {
    format!("silent: {why}")
}

/// Step 6's compound opinion, dropped in automatic mode (RN-603).
pub fn trace_dropped(why: &str) -> String {
    format!("{why}; automatic mode drops this opinion")
}

/// Step 6 under the container floor (SPEC §5.3 step 6 round 4): the
/// partly covered line keeps the floor.
pub fn trace_floor_kept(why: &str) -> String {
    format!("{why}; the container floor approves the uncovered part on its own, so current is kept")
}

/// Step 6: segment `i` (from 0) and its class.
pub fn trace_segment(i: usize, segment: &[Cow<'_, str>], class: &str) -> String {
    format!("{}. `{}`: {class}", i + 1, shell_line(segment))
}

/// Step 6: a segment's class given by an entry of `list`.
pub fn class_by(list: &str, pattern: &str, location: impl fmt::Display) -> String {
    format!("{list} by `{pattern}` at {location}")
}

/// Step 6: a `cd` inside the scope.
pub const CLASS_CD_IN_SCOPE: &str = "cd-in-scope";

/// Step 6: no pattern covers the segment.
pub const CLASS_UNCOVERED: &str = "uncovered";

/// Step 6: an allow entry matches the segment's words but stops short of
/// one it must name (SPEC §4.5 item 2, §6.5), and why.
pub fn class_short_of(pattern: &str, location: impl fmt::Display, why: &str) -> String {
    format!(
        "{CLASS_UNCOVERED}: the allow entry `{pattern}` at {location} matches its words but \
         does not cover them: {why}"
    )
}

/// Step 6: a segment its allow entry covers, but not a command it runs
/// given as argv (SPEC §4.3 round 3: `find -exec rm {} ;`).
pub fn class_partial(allowed_by: &str, run: &[Cow<'_, str>]) -> String {
    format!(
        "{allowed_by}, but what it runs, `{}`, is not covered by any rule",
        run.join(" ")
    )
}

/// Step 7: the ceiling that holds.
pub fn trace_ceiling(reason: Reason, phrase: &str) -> String {
    format!("{reason}: {phrase}")
}

/// Step 7, over auto_approve.
pub const NO_CEILING: &str = "no ceiling holds";

/// Step 7, skipped.
pub const CEILING_NOT_REACHED: &str = "not reached: current is not auto_approve";

// ---------------------------------------------------------------------
// The analyzer's wording of the same facts, about an entry rather than a
// request.

/// neutralized-by-ceiling, `ceiling.external_effect`.
pub fn external_effect_entry(command: &[&str]) -> String {
    [&external_effect(command), " (SPEC §6.1)"].concat()
}

/// neutralized-by-ceiling, `ceiling.privileged`: the entry's own verb.
pub fn verb_runs_privileged(verb: &str) -> String {
    format!("`{verb}` runs privileged")
}

/// neutralized-by-ceiling, `ceiling.privileged`: behind a wrapper.
pub const RUNS_PRIVILEGED_BEHIND_WRAPPER: &str = "it runs privileged (behind `sudo` or `doas`)";

/// neutralized-by-ceiling, `ceiling.scope`: `roots` says where the scope
/// is in every mode.
pub fn outside_scope_every_mode(path: &str, roots: &str) -> String {
    format!("`{path}` is outside the scope in every mode (not under {roots}); automatic mode alone lifts this ceiling")
}

/// A built-in deny that covers an entry (SPEC §5.2).
pub fn builtin_covers(pattern: &str) -> String {
    format!("`{pattern}` is a built-in deny (SPEC §5.2); no file can lift it")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_sentences_read_like_format() {
        let rule = RuleRef {
            rule: "Terminal(rm)".into(),
            source: "permissions.json:3:5".into(),
        };
        let words: Vec<Cow<'_, str>> = ["rm", "-rf", "x"].map(Cow::Borrowed).to_vec();
        assert_eq!(
            segment_deny(&words, &rule),
            format!(
                "`{}` is denied by `{}` ({})",
                words.join(" "),
                rule.rule,
                rule.source
            )
        );
        assert_eq!(
            segment_ask(&words, &rule),
            "`rm -rf x` is in ask (`Terminal(rm)`, permissions.json:3:5): a written ask always asks"
        );
        assert_eq!(
            compound_uncovered(&[]),
            "some segments are allowed but `` is not covered by any rule"
        );
    }
}
