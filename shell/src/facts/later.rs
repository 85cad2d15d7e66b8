//! What leaves something that runs later on the person's machine (SPEC
//! §6.1 round 4): a job for cron, atd, systemd or launchd, a repository
//! registered for git's maintenance, a process detached to outlive the
//! command. External-effect unless the command runs in the running
//! container (§6.2's first case): the facts find it, the ceiling asks
//! where the command runs.

use super::catalogue::effects::{
    COMMAND_SEQUENCES, LATER_ON_HOST, LATER_READS, NOHUP_BACKGROUND, OPTION_GRAMMAR,
};
use super::{has_shape, mark_shape, quick_eq, tool_aliases, EntryMatch, Shapes};
use crate::reader::{CommandLine, Known};
use std::borrow::Cow;

/// The shapes of [`LATER_ON_HOST`]'s programs.
const LATER_TOOLS: Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < LATER_ON_HOST.len() {
        mark_shape(&mut t, LATER_ON_HOST[i][0]);
        i += 1;
    }
    t
};

/// The first [`LATER_ON_HOST`] entry a run's words match (options
/// anywhere, aliases, prefixes, short options in clusters; an unknown
/// word possibly any token), unless they are one of [`LATER_READS`] with
/// every word known. Each command of a tmux sequence (`tmux ls \; new
/// -d`) is read as its own.
pub fn later_known(words: &[Cow<'_, str>], known: &[Known]) -> Option<&'static [&'static str]> {
    let verb = words.first()?;
    if known.first().is_some_and(|k| k.is_unknown()) || !has_shape(&LATER_TOOLS, verb) {
        return None;
    }
    if let Some(e) = later_command(words, known) {
        return Some(e);
    }
    if !COMMAND_SEQUENCES.iter().any(|t| quick_eq(t, verb)) {
        return None;
    }
    // `;` ends a command (bash passes `\;` as `;`, and tmux also ends one
    // at a word's final `;`): each next command, after the program name.
    let k = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    (1..words.len())
        .filter(|&i| words[i].ends_with(';') && !k(i).is_unknown())
        .find_map(|i| {
            let rest: Vec<Cow<'_, str>> = std::iter::once(verb.clone())
                .chain(words[i + 1..].iter().cloned())
                .collect();
            let known: Vec<Known> = std::iter::once(Known::Exact)
                .chain((i + 1..words.len()).map(k))
                .collect();
            later_command(&rest, &known)
        })
}

/// [`later_known`] for one command.
fn later_command(words: &[Cow<'_, str>], known: &[Known]) -> Option<&'static [&'static str]> {
    let verb = &words[0];
    let m = EntryMatch {
        tool: verb,
        words,
        known,
        aliases: tool_aliases(verb),
    };
    // `cargo +nightly install`: past the toolchain word.
    let first = super::subcommand_from(words, known);
    let find = |table: &'static [&'static [&'static str]]| {
        table.iter().copied().find(|e| {
            let mut budget = 64;
            quick_eq(e[0], verb) && m.holds(first, e, 1, &mut budget)
        })
    };
    let hit = find(LATER_ON_HOST)?;
    // A read only when every word is known (`crontab $X` may be any form).
    let exact = known.iter().all(|k| *k == Known::Exact);
    if exact && find(LATER_READS).is_some() {
        return None;
    }
    Some(hit)
}

/// Does word `w` hold the short option `t` (`-d`) in a cluster of its
/// tool's letters (`-dmS`, `-ds`), before a letter that takes a value
/// ([`OPTION_GRAMMAR`]: the rest of the word is that value)?
pub(super) fn in_cluster(tool: &str, w: &str, t: &str) -> bool {
    let (Some(letter), Some(cluster)) = (short_letter(t), w.strip_prefix('-')) else {
        return false;
    };
    if cluster.len() < 2 || cluster.starts_with('-') {
        return false;
    }
    let valued = OPTION_GRAMMAR
        .iter()
        .find(|g| quick_eq(g.0, tool))
        .map_or(&[][..], |g| g.1);
    for c in cluster.bytes() {
        if c == letter {
            return true;
        }
        if valued.iter().any(|v| short_letter(v) == Some(c)) {
            return false;
        }
    }
    false
}

/// The letter of a short option word (`-d`), if it is one.
fn short_letter(t: &str) -> Option<u8> {
    match t.as_bytes() {
        [b'-', c] if *c != b'-' => Some(*c),
        _ => None,
    }
}

/// Is the top-level segment `s` of `line` sent to the background (`nohup
/// CMD &`, `nohup a && b &`)? Read off `src`, the line's text: from the
/// segment's start, each command's text up to the next top-level
/// segment, while it ends in `&&`, `||` or a pipe, holds a lone `&`
/// (fail closed: a quoted `&` counts too). A segment in a subshell, a
/// group or a substitution counts (`(nohup x &)` outlives the line).
pub(super) fn backgrounded(src: &str, line: &CommandLine<'_>, s: usize) -> bool {
    let Some(seg) = line.segments.get(s) else {
        return true;
    };
    if seg.nested {
        return true;
    }
    let b = src.as_bytes();
    let mut from = seg.start.min(b.len());
    let mut next = line.segments[s + 1..].iter().filter(|n| !n.nested);
    loop {
        let to = next
            .next()
            .map_or(b.len(), |n| n.start.clamp(from, b.len()));
        let part = &b[from..to];
        if (0..part.len()).any(|i| lone_amp(part, i)) {
            return true;
        }
        let t = part.trim_ascii_end();
        if to == b.len() || !(t.ends_with(b"&&") || t.ends_with(b"||") || t.ends_with(b"|")) {
            return false;
        }
        from = to;
    }
}

/// Is `b[i]` a `&` that ends a command (not `&&`, `|&`, `>&`, `&>`, `<&`,
/// `\&`)?
fn lone_amp(b: &[u8], i: usize) -> bool {
    b[i] == b'&'
        && (i == 0 || !matches!(b[i - 1], b'&' | b'|' | b'>' | b'<' | b'\\'))
        && !matches!(b.get(i + 1), Some(b'&' | b'>'))
}

/// The entry name of a backgrounded `nohup` ([`backgrounded`]).
pub(super) const NOHUP: &[&str] = NOHUP_BACKGROUND;
