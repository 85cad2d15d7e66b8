//! tmux as a `line` row (SPEC §4.5 item 2 round 4): its own options (`-c
//! CMD` a line, `-f FILE` a configuration), then its commands, each ended
//! by a `;` word or a word's final `;`; the shell command of
//! `new-session`, `new-window`, `split-window`, `respawn-*`, `run-shell`,
//! `pipe-pane` and `display-popup` is read as a line (one word) or a run
//! (several), and what permc does not read (tmux commands as operands,
//! keys typed into a pane, options that name commands, `#(…)` formats)
//! makes the line unparsed. The rows are [`catalogue::tmux`](super::catalogue::tmux).

use super::catalogue::tmux::{
    TMUX, TMUX_COMMANDS, TMUX_CONFIG_OPTION, TMUX_FORMAT_RUN, TMUX_LINES, TMUX_LINE_OPTION,
    TMUX_OPTIONS, TMUX_UNREAD, TMUX_VARIABLE_OPTION,
};
use super::options::{self, Grammar, Item, Mode};
use super::wrappers::{inner_line, quote, short, Step, Words};
use super::LineFacts;
use std::borrow::Cow;

/// Reads `tmux …` at `i` ([`SPECIAL_READERS`](super::catalogue::wrappers::SPECIAL_READERS)):
/// tmux itself is the run.
pub(crate) fn tmux<'a>(
    words: &Words<'_, 'a>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
    _: &mut Option<&'static str>,
) -> Step {
    if let Some(why) = read(words, i, seg, depth, facts) {
        facts.unparsed_because(why);
    }
    Step::Here
}

/// [`tmux`]'s reading: the reason the line is unparsed, if it is.
fn read(
    words: &Words<'_, '_>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'_>,
) -> Option<String> {
    let text = words.text;
    if let Some(k) = (i + 1..text.len()).find(|&k| words.known(k).is_unknown()) {
        return Some(format!(
            "`{}` is expanded by the shell: permc cannot know what `{TMUX}` runs",
            short(&text[k])
        ));
    }
    if let Some(w) = text[i + 1..].iter().find(|w| w.contains(TMUX_FORMAT_RUN)) {
        return Some(format!(
            "`{}` holds a `{TMUX}` format that runs a shell command (`#(…)`), which permc does not read",
            short(w)
        ));
    }
    let mut at = text.len();
    for item in options::read(TMUX_OPTIONS, text, i + 1) {
        match item {
            Item::Flag { .. } => {}
            Item::Valued { name, value, .. } => {
                let v = value.text(text).unwrap_or_default();
                if name == TMUX_CONFIG_OPTION {
                    return Some(format!(
                        "`{TMUX} -{name} {}` reads a configuration file, whose commands permc does not read",
                        short(v)
                    ));
                }
                if name == TMUX_LINE_OPTION {
                    inner_line(v, seg, depth, facts);
                }
            }
            Item::Operand { index } => {
                at = index;
                break;
            }
            Item::End { index } => {
                at = index + 1;
                break;
            }
            Item::Unknown { index } => return Some(not_placed(&text[index], TMUX)),
        }
    }
    let rest = text.get(at..).unwrap_or_default();
    commands(rest)
        .iter()
        .find_map(|command| command_reason(command, seg, depth, facts))
}

/// The commands of a sequence: words up to a `;` word or a word ending in
/// `;` (that `;` taken off).
fn commands(words: &[Cow<'_, str>]) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    for w in words {
        let (word, ends) = match w.strip_suffix(';') {
            Some(rest) if !rest.ends_with('\\') => (rest, true),
            _ => (w.as_ref(), false),
        };
        if !word.is_empty() {
            if let Some(c) = out.last_mut() {
                c.push(word.to_string());
            }
        }
        if ends {
            out.push(Vec::new());
        }
    }
    out.retain(|c| !c.is_empty());
    out
}

/// One tmux command: the reason permc does not read what it runs, if
/// it does not; a shell command read as a line or a run.
fn command_reason(
    command: &[String],
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'_>,
) -> Option<String> {
    let word = command.first()?;
    let Some(name) = resolve(word) else {
        return Some(format!(
            "`{}` is not a `{TMUX}` command permc knows (tmux 3.3a)",
            short(word)
        ));
    };
    if TMUX_UNREAD.contains(&name) {
        return Some(format!(
            "`{TMUX} {name}` runs tmux commands, keys or settings that can name commands, which permc does not read"
        ));
    }
    let (_, flags, valued) = TMUX_LINES.iter().find(|r| r.0 == name)?;
    let grammar = Grammar {
        flags,
        valued,
        abbreviations: false,
        permute: false,
        ..Grammar::new(Mode::Gnu)
    };
    let args: Vec<Cow<'_, str>> = command[1..]
        .iter()
        .map(|w| Cow::Borrowed(w.as_str()))
        .collect();
    let mut operands = args.len();
    for item in options::read(grammar, &args, 0) {
        match item {
            Item::Flag { .. } => {}
            Item::Valued { name: o, value, .. } if o == TMUX_VARIABLE_OPTION => {
                let v = value.text(&args).unwrap_or_default();
                if let Some(why) = super::variable_named(&format!("{v}="), true, &[]) {
                    return Some(format!(
                        "`{TMUX} {name} -{o} {}` sets it for the command it runs: {why}",
                        short(v)
                    ));
                }
            }
            Item::Valued { .. } => {}
            Item::Operand { index } => {
                operands = index;
                break;
            }
            Item::End { index } => {
                operands = index + 1;
                break;
            }
            Item::Unknown { index } => return Some(not_placed(&args[index], name)),
        }
    }
    match &args[operands.min(args.len())..] {
        [] => {}
        [line] => inner_line(line, seg, depth, facts),
        run => {
            let line: Vec<String> = run.iter().map(|w| quote(w)).collect();
            inner_line(&line.join(" "), seg, depth, facts);
        }
    }
    None
}

/// A command word's name: itself, the command of its alias, or the one
/// name it is a unique prefix of.
fn resolve(word: &str) -> Option<&'static str> {
    if let Some(&(name, _)) = TMUX_COMMANDS
        .iter()
        .find(|(n, a)| *n == word || (!a.is_empty() && *a == word))
    {
        return Some(name);
    }
    let mut hits = TMUX_COMMANDS.iter().filter(|(n, _)| n.starts_with(word));
    let hit = hits.next()?;
    hits.next().is_none().then_some(hit.0)
}

/// The sentence for an option permc cannot place.
fn not_placed(word: &str, what: &str) -> String {
    format!(
        "`{}` is not an option of `{what}` that permc can place: it cannot know what runs",
        short(word)
    )
}
