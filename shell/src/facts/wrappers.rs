//! The verb behind wrappers (SPEC §4.3 [hardening]): the option grammar of
//! every wrapper as its manual defines it, and the reading that finds what
//! a segment really runs.
//!
//! An option permc cannot place makes the line unparsed: the verb is never
//! guessed. Each wrapper of SPEC §4.3's table is one row of [`WRAPPERS`]
//! (its names, options with and without a value, long forms, what else is
//! skipped: a command-line option, `env -`, `nice -5`, timeout's duration,
//! xargs' appended words); one function, [`read_options`], reads every row,
//! and [`collect_runs`] reads past them.

use super::catalogue::code::{
    NameGrammar, Names, TextOptions, CODE_FORMS, NAME_OPERANDS, PLAIN_REMOTE_SHELLS, PROGRAM_TEXT,
};
use super::catalogue::effects::COMPOSE_PROGRAMS;
use super::catalogue::git::{
    GitSpell, GIT, GIT_CODE_KEYS, GIT_CODE_NAMES, GIT_CODE_OPTIONS, GIT_CODE_SECTIONS,
};
use super::catalogue::git::{GIT_CODE_GLOBALS, GIT_DASHED};
use super::catalogue::shells::{BASH_OPTIONS, FOREIGN_SHELLS, SHELLS, SHELL_LONG, ZSH_OPTIONS};
use super::catalogue::wrappers::{
    After, Detach, RunsAs, Special, Unreadable, Wrapper, BUSYBOX_OPTIONS, BUSYBOX_SHELLS, READS_AS,
    RUNNERS, RUNNER_SHELL_OPTIONS, SCRIPT_OR_PROGRAM, SPECIAL_READERS, SU, TRAP, UNREADABLE,
    WRAPPERS,
};
use super::catalogue::wrappers::{STDIN_SCRIPTS, STDIN_SCRIPT_PREFIXES, XARGS_DEFAULT};
use super::options::{self, Grammar, Item, Mode, Value};
use super::{basename, is_assignment, LineFacts, RunData, MAX_INNER_DEPTH};
use crate::reader::AsStr;
use crate::reader::{self, Known};
use std::borrow::Cow;

impl Wrapper {
    /// The row's options as the option reader reads them: getopt_long,
    /// stopping at the verb (its first operand).
    pub(crate) fn grammar(&self) -> Grammar<'_> {
        Grammar {
            flags: self.flags,
            valued: self.valued,
            optional: self.optional,
            long_flags: self.long_flags,
            long_valued: self.long_valued,
            long_optional: self.long_optional,
            lone_dash: self.lone_dash,
            numeric: self.numeric,
            ..Grammar::new(Mode::Gnu)
        }
    }
}

impl Unreadable {
    /// The sentence for `program`.
    pub(crate) fn why(self, program: &str) -> String {
        match self {
            Unreadable::Launcher => format!(
                "`{program}` runs a command given in its operands, past options permc does not read"
            ),
            Unreadable::Builds(what) => format!("`{program}` {what}, which permc does not read"),
        }
    }
}

fn wrapper(verb: &str) -> Option<&'static Wrapper> {
    WRAPPERS.iter().find(|w| w.names.contains(&verb))
}

/// The shapes ([`super::Shapes`]) of every verb [`collect_runs`] treats
/// specially: a wrapper, a shell, [`SPECIAL_READERS`], [`UNREADABLE`].
const SPECIAL_SHAPES: super::Shapes = {
    use super::mark_shape as mark;
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < WRAPPERS.len() {
        let mut j = 0;
        while j < WRAPPERS[i].names.len() {
            mark(&mut t, WRAPPERS[i].names[j]);
            j += 1;
        }
        i += 1;
    }
    let mut i = 0;
    while i < SHELLS.len() {
        mark(&mut t, SHELLS[i]);
        i += 1;
    }
    let mut i = 0;
    while i < SPECIAL_READERS.len() {
        let mut j = 0;
        while j < SPECIAL_READERS[i].0.len() {
            mark(&mut t, SPECIAL_READERS[i].0[j]);
            j += 1;
        }
        i += 1;
    }
    let mut i = 0;
    while i < READS_AS.len() {
        let mut j = 0;
        while j < READS_AS[i].0.len() {
            mark(&mut t, READS_AS[i].0[j]);
            j += 1;
        }
        i += 1;
    }
    let mut i = 0;
    while i < UNREADABLE.len() {
        mark(&mut t, UNREADABLE[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < FOREIGN_SHELLS.len() {
        mark(&mut t, FOREIGN_SHELLS[i]);
        i += 1;
    }
    t
};

/// Can `verb` be one [`collect_runs`] treats specially? `false` for most
/// verbs (`git`, `pnpm`, `ls`) in two loads, before any name compare.
fn may_be_special(verb: &str) -> bool {
    super::has_shape(&SPECIAL_SHAPES, verb)
}

/// A word sequence with what is known of each word.
pub(crate) struct Words<'r, 'a> {
    pub text: &'r [Cow<'a, str>],
    pub known: &'r [Known],
}

impl Words<'_, '_> {
    pub(crate) fn known(&self, i: usize) -> Known {
        self.known.get(i).copied().unwrap_or(Known::Exact)
    }
}

/// Single-quotes a word for an inner command line.
pub(crate) fn quote(w: &str) -> String {
    if !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// Reads past assignments and wrappers (SPEC §4.3) and records what the
/// words of segment `seg` run: one [`Run`] for the words themselves, more
/// for inner command lines, `find -exec` and `xargs`.
pub(crate) fn collect_runs<'a>(
    words: Words<'_, 'a>,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    // Most runs start at their first word, a verb read as written: found
    // here, without the setup of `run_start`'s loop (its spills were ~60
    // instructions a run).
    let no_eq = depth == 0 && facts.absent & crate::reader::HAS_EQ != 0;
    let may_fold = depth > 0 || facts.absent & crate::reader::HAS_UPPER == 0;
    // A segment's own words on a plain line without a `/`: the verb is
    // its word, without a scan for one.
    let no_slash = depth == 0 && facts.absent & crate::reader::HAS_SLASH != 0;
    let plain = words.text.first().is_some_and(|w| {
        let verb = if no_slash { w.as_str() } else { basename(w) };
        !((!no_eq && is_assignment(w))
            || words.known(0).is_unknown()
            || (may_fold && depth < MAX_INNER_DEPTH && has_upper(verb))
            || may_be_special(verb))
    });
    let start = if plain {
        Some((0, None, depth > 0))
    } else {
        run_start(&words, seg, depth, facts)
    };
    let Some((i, via, read_past)) = start else {
        return;
    };
    let (verb, gates) = push_run(&words, i, seg, via, read_past, depth == 0, facts);
    if let Some(verb) = verb.filter(|_| gates & super::GATE_RUNNER != 0) {
        runner(&words, i, verb, false, seg, depth, facts);
    }
}

/// Where the run of `words` starts, past assignments, wrappers and the
/// verbs read specially ([`collect_runs`]), with the wrapper it was read
/// past that makes it privileged and whether anything was read past;
/// `None` when every run was recorded (`xargs`).
#[inline(never)]
fn run_start<'a>(
    words: &Words<'_, 'a>,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) -> Option<(usize, Option<&'static str>, bool)> {
    let text = words.text;
    let mut i = 0;
    let mut via: Option<&'static str> = None;
    // What an inner line, `find -exec` or `xargs` runs is never the
    // segment's own words.
    let mut read_past = depth > 0;
    // A segment of a plain line without a `=` holds no assignment, and
    // one without a capital no command word in capitals.
    let no_eq = depth == 0 && facts.absent & crate::reader::HAS_EQ != 0;
    let may_fold = depth > 0 || facts.absent & crate::reader::HAS_UPPER == 0;
    loop {
        while !no_eq && text.get(i).is_some_and(|w| is_assignment(w)) {
            i += 1;
            read_past = true;
        }
        let Some(word) = text.get(i) else { break };
        if words.known(i).is_unknown() {
            break;
        }
        let verb = basename(word);
        if may_fold && depth < MAX_INNER_DEPTH && has_upper(verb) {
            fold(words, i, verb, seg, depth, facts);
        }
        if !may_be_special(verb) {
            // Not a wrapper, a shell, `su`, `eval`, `trap`, `busybox` or
            // `find`: the run starts here. (A verb read specially below
            // has a row: [`SPECIAL_READERS`], [`SHELLS`], [`WRAPPERS`]…)
            break;
        }
        let step = match special_verb(words, i, verb, seg, depth, facts, &mut via) {
            Some(step) => step,
            None => match wrapper(verb) {
                Some(wr) => past_wrapper(wr, words, i, seg, depth, facts, &mut via),
                None => Step::Here,
            },
        };
        match step {
            Step::Here => break,
            Step::Past(j) => {
                (i, read_past) = (j, true);
                break;
            }
            Step::Next(j) => (i, read_past) = (j, true),
            Step::Done => return None,
        }
    }
    Some((i, via, read_past))
}

/// Reads the words from `i` again with the command word (which holds a
/// capital) in lower case. A file system that ignores case (macOS's by
/// default) runs `GIT` as `git`: such a run is also read in lower case (a
/// run read past: deny, ask, the built-ins and the ceilings see it; allow
/// reads the words as written). A subcommand in capitals (`git PUSH`, run
/// through git's `git-push` program there) is the canonical form's.
#[cold]
#[inline(never)]
fn fold<'a>(
    words: &Words<'_, 'a>,
    i: usize,
    verb: &str,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    read_as(
        words,
        i,
        Cow::Owned(verb.to_ascii_lowercase()),
        seg,
        depth,
        facts,
    );
}

/// Reads the words from `i` again with `program` for the command word, a
/// run read past (deny, ask, the built-ins and the ceilings see it; allow
/// reads the words as written): a verb in capitals in lower case, and a
/// program that runs another with its own words (`hub push` is `git
/// push`: [`READS_AS`](super::catalogue::wrappers::READS_AS)).
pub(crate) fn read_as<'a>(
    words: &Words<'_, 'a>,
    i: usize,
    program: Cow<'a, str>,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    if depth >= MAX_INNER_DEPTH {
        facts.unparsed_because("commands nest more than 8 levels deep".to_string());
        return;
    }
    let mut text = words.text[i..].to_vec();
    text[0] = program;
    let known = words.known.get(i..).unwrap_or_default();
    collect_runs(Words { text: &text, known }, seg, depth + 1, facts);
}

/// Does `w` hold a capital letter?
pub(crate) fn has_upper(w: &str) -> bool {
    w.bytes().any(|b| b.is_ascii_uppercase())
}

/// Where [`collect_runs`] goes on after a word it reads specially.
pub(crate) enum Step {
    /// The run is this word on (what was read past stays so).
    Here,
    /// The run starts at this word, past what was read.
    Past(usize),
    /// Read on from this word.
    Next(usize),
    /// Every run was recorded (`xargs`).
    Done,
}

/// `busybox APPLET ARGS…` runs `APPLET ARGS…`; `busybox sh` is a shell.
/// BusyBox's own options (its manual: `--list`, `--list-full`,
/// `--install`, `--show`, `--help`) run no applet; any other `-…` word is
/// not one permc can place, nor an applet the shell expands.
pub(crate) fn busybox<'a>(
    words: &Words<'_, 'a>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
    _: &mut Option<&'static str>,
) -> Step {
    let text = words.text;
    match text.get(i + 1) {
        Some(w) if words.known(i + 1).is_unknown() => {
            // `busybox $X`: the applet may be `sh`, and its words `-c …`.
            facts.unparsed_because(format!(
                "`busybox {}`: the applet is expanded by the shell, so permc cannot know what runs",
                short(w)
            ));
        }
        _ if is_busybox_shell(text.get(i + 1)) => {
            // The shell itself is the run (a script operand is matched
            // like any other command, SPEC §4.3's stated limit).
            shell_words(words, i + 1, seg, depth, facts);
        }
        Some(w) if w.starts_with('-') && !BUSYBOX_OPTIONS.contains(&w.as_str()) => {
            facts.unparsed_because(format!(
                "`{}` is not an option of `busybox` that permc can place: it cannot know what runs",
                short(w)
            ));
        }
        Some(w) if w.starts_with('-') => {}
        Some(_) => return Step::Next(i + 1),
        None => {}
    }
    Step::Here
}

/// The verbs read before any wrapper — [`SPECIAL_READERS`]' rows,
/// [`READS_AS`]' programs, the shells, the foreign shells and the
/// unreadable launchers — or `None` for any other verb.
/// The reader a [`SPECIAL_READERS`] row names, at `i` (`name`: the
/// row's first name, as the messages say it).
fn read_special<'a>(
    (name, special): (&'static str, Special),
    words: &Words<'_, 'a>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
    via: &mut Option<&'static str>,
) -> Step {
    match special {
        Special::Su => {
            via.get_or_insert(name);
            su(words, i, seg, depth, facts);
        }
        Special::Eval => {
            let text = words.text;
            let j = if text.get(i + 1).is_some_and(|w| w == "--") {
                i + 2
            } else {
                i + 1
            };
            inner_words(words, j, text.len(), seg, depth, facts, name);
        }
        Special::Trap => trap(words, i, seg, depth, facts),
        Special::Busybox => return busybox(words, i, seg, depth, facts, via),
        Special::Tmux => return super::tmux::tmux(words, i, seg, depth, facts, via),
        Special::FindExec => find_exec(words, i, seg, depth, facts),
        Special::FdExec => fd_exec(words, i, seg, depth, facts),
    }
    Step::Here
}

fn special_verb<'a>(
    words: &Words<'_, 'a>,
    i: usize,
    verb: &str,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
    via: &mut Option<&'static str>,
) -> Option<Step> {
    if let Some((names, special)) = SPECIAL_READERS
        .iter()
        .find(|(names, _)| names.iter().any(|n| super::quick_eq(n, verb)))
    {
        return Some(read_special(
            (names[0], *special),
            words,
            i,
            seg,
            depth,
            facts,
            via,
        ));
    }
    if let Some(&(_, program)) = READS_AS.iter().find(|r| r.0.contains(&verb)) {
        // Read as the program it runs too; its own run is kept.
        read_as(words, i, Cow::Borrowed(program), seg, depth, facts);
        return Some(Step::Here);
    }
    if SHELLS.contains(&verb) {
        // The shell itself is the run (a script operand is matched like
        // any other command, SPEC §4.3's stated limit).
        shell_words(words, i, seg, depth, facts);
    } else if FOREIGN_SHELLS.contains(&verb) {
        foreign_shell(words, i, facts);
    } else {
        let (v, why) = UNREADABLE.iter().find(|(v, _)| super::quick_eq(v, verb))?;
        facts.unparsed_because(why.why(v));
        behind_unplaced(words, i, seg, depth, facts);
    }
    Some(Step::Here)
}

/// Does one of the wrapper's options in `text[range]` (its options, read
/// already) spell one of `names` (canonical letter or long name)?
fn gives_option(
    wr: &Wrapper,
    text: &[Cow<'_, str>],
    range: std::ops::Range<usize>,
    names: &[&str],
) -> bool {
    if names.is_empty() {
        return false;
    }
    for item in options::read(wr.grammar(), text, range.start) {
        if item.index() >= range.end {
            break;
        }
        if let Item::Flag { name, .. } | Item::Valued { name, .. } = item {
            if names.contains(&name) {
                return true;
            }
        }
    }
    false
}

/// Past a wrapper at `i` (SPEC §4.3): its options, its duration or lock
/// file, and what it runs — a command line of its own, an interactive
/// shell, or the words after it.
fn past_wrapper<'a>(
    wr: &'static Wrapper,
    words: &Words<'_, 'a>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
    via: &mut Option<&'static str>,
) -> Step {
    let text = words.text;
    let start = i + 1;
    let outer_via = via.is_some();
    if wr.privileged {
        via.get_or_insert(wr.names[0]);
    }
    if !facts.guessing {
        left_to_run_later(wr, words, i, seg, depth, facts);
    }
    // Where the wrapper stands: a launcher that runs a command line
    // is itself the run, as a shell with `-c` is.
    let mut i = match read_options(wr, words, i + 1, seg, depth, facts) {
        // An option's command line is all that runs (`env -S`,
        // `script -c`).
        Some(usize::MAX) if wr.after == After::Script => return Step::Here,
        Some(usize::MAX) => return Step::Past(usize::MAX),
        Some(next) => next,
        // An option permc cannot place: unparsed, and the wrapper
        // itself is what we know runs (whether it runs it as the caller,
        // permc cannot tell either: unparsed asks already).
        None => {
            if !outer_via && !wr.unprivileged_by.is_empty() {
                *via = None;
            }
            return Step::Here;
        }
    };
    if !outer_via && wr.privileged && gives_option(wr, text, start..i, wr.unprivileged_by) {
        *via = None;
    }
    if matches!(wr.after, After::Duration | After::Lock) {
        if words.known(i).is_unknown() && i < text.len() {
            // An unknown duration (or lock file) may be anything,
            // options included.
            return Step::Past(i);
        }
        if i < text.len() {
            i += 1;
        }
    }
    if wr.after == After::Lock && text.get(i).is_some_and(|w| w == "-c" || w == "--command") {
        // `flock FILE -c CMD`: the command line is all that runs.
        if words.known(i + 1).is_unknown() && i + 1 < text.len() {
            facts.unknown_inner(seg, &text[i + 1], "flock -c");
        } else if let Some(line) = text.get(i + 1) {
            inner_line(line, seg, depth, facts);
        }
        return Step::Here;
    }
    if wr.after == After::ShellLine {
        // `watch CMD…`: `sh -c` runs the words joined by spaces.
        inner_words(words, i, text.len(), seg, depth, facts, wr.names[0]);
        return Step::Here;
    }
    if wr.after == After::Script {
        // No `-c`: an interactive shell reads standard input.
        facts.unparsed_because(format!(
            "`{}` without `-c` runs an interactive shell, which reads its commands from standard input",
            wr.names[0]
        ));
        return Step::Past(i);
    }
    if let Some(step) = without_command(wr, words, i, depth, facts) {
        return step;
    }
    if wr.after == After::Xargs {
        xargs(words, i, seg, depth, facts, *via);
        return Step::Done;
    }
    if wr.after == After::Lines {
        operand_lines(wr, words, i, seg, depth, facts);
        return Step::Here;
    }
    if wr.after == After::Own {
        return Step::Here;
    }
    if wr.given && depth == 0 && i < text.len() {
        // A `command` row: its command is a run for allow too.
        facts.given.push((seg, i, text.len()));
    }
    Step::Next(i)
}

/// A wrapper given no command (`i` past its words): an interactive shell
/// it starts (`bare_shell`), or redirections it makes the shell's own
/// (`bare_input`), unparsed as SPEC §4.3 and §4.2 say; `None` when it
/// has a command or neither applies.
fn without_command(
    wr: &Wrapper,
    words: &Words<'_, '_>,
    i: usize,
    depth: usize,
    facts: &mut LineFacts<'_>,
) -> Option<Step> {
    let text = words.text;
    if wr.bare_shell && i >= text.len() {
        facts.unparsed_because(format!(
            "`{}` without a command runs an interactive shell, which reads its commands from standard input",
            wr.names[0]
        ));
        return Some(Step::Past(i));
    }
    if wr.bare_input && i >= text.len() {
        // `exec 2>/dev/null` changes the shell's own descriptors: its
        // targets are places like any redirection's (SPEC §4.2 round 4).
        // Only standard input made the shell's may feed it later commands;
        // an inner line's redirections are not at hand here (fail closed).
        let why = if depth > 0 {
            "in a command line given as text applies redirections permc does not see there to the shell, which may then read its later commands from one"
        } else if facts.stdin_redirected {
            "makes a redirection of standard input the shell's own, which may then read its later commands from it"
        } else {
            return Some(Step::Here);
        };
        facts.unparsed_because(format!("`{}` without a command {why}", wr.names[0]));
        return Some(Step::Past(i));
    }
    None
}

/// Does a redirection with this operator (`<`, `0>`, `<<<`, `2>`, `{fd}<`)
/// open or duplicate standard input? Its fd is the digits before it, else
/// 0 for `<…` (a `{NAME}` gets a new fd, 10 or above).
pub(crate) fn redirects_stdin(op: &str) -> bool {
    let digits = op.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return op.starts_with('<');
    }
    op[..digits].bytes().all(|b| b == b'0')
}

/// What a wrapper at `i` leaves to run later on the person's machine
/// (SPEC §6.1 round 4): its own words (`screen -dmS x CMD`, `systemd-run
/// CMD`), or a `nohup` sent to the background — the line's text says so,
/// read at the top level once the line is read; within an inner line
/// (`sh -c 'nohup x &'`) it counts (fail closed).
fn left_to_run_later(
    wr: &Wrapper,
    words: &Words<'_, '_>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'_>,
) {
    let known = words.known.get(i..).unwrap_or_default();
    if let Some(e) = super::later::later_known(&words.text[i..], known) {
        facts.rare().later.get_or_insert(e);
    }
    match wr.detach {
        Detach::Backgrounded if depth == 0 => facts.rare().nohup.push(seg),
        Detach::Backgrounded => {
            facts.rare().later.get_or_insert(super::later::NOHUP);
        }
        Detach::Unless(options, entry) if detaches(wr, words.text, i + 1, options) => {
            facts.rare().later.get_or_insert(entry);
        }
        _ => {}
    }
}

/// Does the wrapper run a command, from word `i`, without any of
/// `options` (canonical letter or long name: `setsid` but `-w`, or
/// `--help`, which runs none)? An option it cannot place may be anything:
/// it does, which only asks more.
fn detaches(wr: &Wrapper, text: &[Cow<'_, str>], i: usize, options: &[&str]) -> bool {
    for item in options::read(wr.grammar(), text, i) {
        match item {
            Item::Flag { name, .. } if options.contains(&name) => return false,
            Item::Flag { .. } | Item::Valued { .. } => {}
            Item::End { index } => return index + 1 < text.len(),
            _ => return true,
        }
    }
    false
}

/// The operands of a `line` row from `i` (SPEC §4.5 item 2: `hyperfine
/// CMD…`, `concurrently CMD…`): each a command line `sh -c` runs, a
/// shortcut read as the package script it names (`npm:build` is `npm run
/// build`); the launcher itself is the run.
fn operand_lines<'a>(
    wr: &Wrapper,
    words: &Words<'_, 'a>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    for (k, word) in text.iter().enumerate().skip(i) {
        if words.known(k).is_unknown() {
            facts.unknown_inner(seg, word, wr.names[0]);
            continue;
        }
        if k == i && word == "--" {
            continue;
        }
        let line = wr
            .shortcuts
            .iter()
            .find_map(|(p, run)| word.strip_prefix(p).map(|name| format!("{run}{name}")));
        inner_line(line.as_deref().unwrap_or(word), seg, depth, facts);
    }
}

/// At most this many guesses of the command behind a launcher permc does
/// not place ([`behind_unplaced`]).
const MAX_GUESSES: usize = 4;

/// The words from `k` on, as a word sequence of their own.
fn from<'r, 'a>(words: &Words<'r, 'a>, k: usize) -> Words<'r, 'a> {
    Words {
        text: words.text.get(k..).unwrap_or_default(),
        known: words.known.get(k..).unwrap_or_default(),
    }
}

/// A deny still denies in an unparsed line (SPEC §4.3, round 3): behind a
/// launcher whose options permc does not place (`unshare rm -rf /`,
/// `numactl -C 0 rm -rf /`), each word that may be the command — the
/// first word that is no option, and the next one while the word before
/// may be an option's value — is read as a run, so the built-ins and the
/// deny entries see it. The line is unparsed already: no run read here
/// can approve anything.
fn behind_unplaced<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    if depth >= MAX_INNER_DEPTH {
        return;
    }
    let text = words.text;
    let mut after_option = false;
    let mut guesses = 0;
    let was = std::mem::replace(&mut facts.guessing, true);
    for (k, w) in text.iter().enumerate().skip(at + 1) {
        if words.known(k) != Known::Exact {
            break;
        }
        if w == "--" {
            collect_runs(from(words, k + 1), seg, depth + 1, facts);
            break;
        }
        if w.len() > 1 && w.starts_with('-') {
            after_option = true;
            continue;
        }
        collect_runs(from(words, k), seg, depth + 1, facts);
        guesses += 1;
        if !after_option || guesses >= MAX_GUESSES {
            break;
        }
        after_option = false;
    }
    facts.guessing = was;
}

/// A deny still denies in an unparsed line (SPEC §4.3, round 3): a
/// segment that starts with shell keywords (`then git push`, `do rm -rf
/// /`, `while git push`, `case x in git push`) is also read past them, as
/// a run of its own, when the reader found a keyword at command position.
pub(crate) fn behind_keywords<'a>(words: Words<'_, 'a>, seg: usize, facts: &mut LineFacts<'a>) {
    let text = words.text;
    let mut k = 0;
    while let Some(w) = text.get(k) {
        match w.as_str() {
            "if" | "then" | "elif" | "else" | "while" | "until" | "do" | "!" | "{" | "time"
            | "coproc" => k += 1,
            "case" => {
                // `case WORD in [(]PATTERN)`: the command follows.
                k += 2;
                if text.get(k).is_some_and(|w| w == "in") {
                    k += 1;
                }
                if text.get(k).is_some_and(|w| w == "(") {
                    k += 1;
                }
                if text.get(k).is_some_and(|w| w.ends_with(')')) {
                    k += 1;
                }
            }
            _ => break,
        }
    }
    if k > 0 && k < text.len() {
        let was = std::mem::replace(&mut facts.guessing, true);
        collect_runs(from(&words, k), seg, 1, facts);
        facts.guessing = was;
    }
}

/// [`code_running`] of `git SUB ARGS…`, for a run of `git-SUB ARGS…`.
#[cold]
#[inline(never)]
fn git_program_running(sub: &str, args: &[Cow<'_, str>]) -> Option<String> {
    let args: Vec<Cow<'_, str>> = std::iter::once(Cow::Borrowed(sub))
        .chain(args.iter().cloned())
        .collect();
    code_running(GIT, &args)
}

/// The shapes of [`RUNNERS`]' tools: most verbs are none, in two loads.
pub(super) const RUNNER_SHAPES: super::Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < RUNNERS.len() {
        super::mark_shape(&mut t, RUNNERS[i].0);
        i += 1;
    }
    t
};

/// How many tools [`RUNNERS`] has rows for.
const RUNNER_TOOL_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < RUNNERS.len() {
        if i == 0 || !super::const_eq(RUNNERS[i].0, RUNNERS[i - 1].0) {
            n += 1;
        }
        i += 1;
    }
    n
};

/// Each tool's rows of [`RUNNERS`] (together in the table: a unit test
/// checks): (tool, first row, rows), built from the table.
const RUNNER_TOOLS: [(&str, usize, usize); RUNNER_TOOL_COUNT] = {
    let mut t = [("", 0, 0); RUNNER_TOOL_COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < RUNNERS.len() {
        if i == 0 || !super::const_eq(RUNNERS[i].0, RUNNERS[i - 1].0) {
            t[n] = (RUNNERS[i].0, i, 0);
            n += 1;
        }
        t[n - 1].2 += 1;
        i += 1;
    }
    t
};

/// [`RUNNER_TOOLS`] by name.
const RUNNER_INDEX: super::name_index::NameIndex = {
    let mut names = [""; RUNNER_TOOL_COUNT];
    let mut i = 0;
    while i < RUNNER_TOOL_COUNT {
        names[i] = RUNNER_TOOLS[i].0;
        i += 1;
    }
    super::name_index::NameIndex::new(&names)
};

/// Each row's own commands of [`SCRIPT_OR_PROGRAM`] by name: one probe,
/// not a binary search of `memcmp` calls.
const OWN_COMMANDS: [super::name_index::NameIndex; SCRIPT_OR_PROGRAM.len()] = {
    let mut t = [const { super::name_index::NameIndex::new(&[]) }; SCRIPT_OR_PROGRAM.len()];
    let mut i = 0;
    while i < SCRIPT_OR_PROGRAM.len() {
        t[i] = super::name_index::NameIndex::new(SCRIPT_OR_PROGRAM[i].1);
        i += 1;
    }
    t
};

/// The rows of [`RUNNERS`] for `tool`, if it has any.
fn runner_rows(tool: &str) -> Option<&'static [(&'static str, &'static str, RunsAs)]> {
    let t = RUNNER_INDEX.find(tool, |i| RUNNER_TOOLS[i].0)?;
    let (_, from, len) = RUNNER_TOOLS[t];
    Some(&RUNNERS[from..from + len])
}

/// `a == b`, by length and first byte before the bytes: a table's names
/// of one length mostly differ at their first byte, and a `memcmp` call
/// costs more than these two loads.
#[inline]
fn same(a: &str, b: &str) -> bool {
    super::quick_eq(a, b)
}

/// At most this many readings of where a runner's command starts (each
/// option word of unknown arity makes two); past it, unparsed.
const MAX_RUNNER_STARTS: usize = 16;

/// The command a package or environment runner ([`RUNNERS`]) runs, read
/// as runs of segment `seg`. The runner's options are not placed: an
/// option word without `=` may take the next word as its value or not, so
/// the command may start after either, and both readings are runs (fail
/// closed: `uv run --with x git push` is a push if `x` is a value, and
/// harmless `x git push` otherwise — both are checked). The options of
/// [`RUNNER_SHELL_OPTIONS`] run a shell line: unparsed.
#[inline(never)]
fn runner<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    tool: &str,
    grouped: bool,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    let Some((runs_as, sub, mut k)) =
        runner_subcommand(words, at, tool, grouped, seg, depth, facts)
    else {
        return;
    };
    if runs_as == RunsAs::Shell {
        facts.unparsed_because(format!(
            "`{tool}` runs a shell command line given in its operands, which permc does not read"
        ));
        return;
    }
    if runs_as == RunsAs::Image {
        if COMPOSE_PROGRAMS.contains(&tool) && !facts.guessing {
            facts
                .rare()
                .privileged_on_host
                .get_or_insert_with(|| format!("{tool} {sub}"));
        }
        facts.unparsed_because(format!(
            "`{tool} {sub}` runs the image's entrypoint with the words after the image, so what runs is the image's: permc cannot know it"
        ));
        return;
    }
    let container = matches!(runs_as, RunsAs::AfterOperand | RunsAs::AfterDashes);
    if runs_as == RunsAs::AfterDashes {
        if let Some(d) = (k..text.len()).find(|&j| text[j] == "--" && !words.known(j).is_unknown())
        {
            // `kubectl exec POD -- CMD…`: the command is all after `--`.
            k = d;
        }
    }
    let Some(mut starts) = runner_starts(words, k, tool, container, facts) else {
        return;
    };
    if container {
        // Each possible start is the container; the command is after it
        // (after `--` itself, for `kubectl exec … -- CMD`).
        let dashes = |s: usize| s > 0 && text[s - 1] == "--" && runs_as == RunsAs::AfterDashes;
        starts = starts
            .into_iter()
            .map(|s| if dashes(s) { s } else { s + 1 })
            .collect();
    }
    for s in starts.into_iter().filter(|&s| s < text.len()) {
        if depth == 0 {
            // Every possible start must be covered (fail closed).
            facts.given.push((seg, s, text.len()));
        }
        if depth >= MAX_INNER_DEPTH {
            facts.unparsed_because("commands nest more than 8 levels deep".to_string());
            return;
        }
        collect_runs(
            Words {
                text: &text[s..],
                known: words.known.get(s..).unwrap_or_default(),
            },
            seg,
            depth + 1,
            facts,
        );
    }
}

/// The runner row that applies at `at` (its own, or its subcommand's: the
/// first word not an option, or the one after it when it may be an
/// option's value), with the subcommand and where its operands start;
/// `None` when it runs nothing permc reads (a group's subcommand was read
/// here).
fn runner_subcommand<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    tool: &str,
    grouped: bool,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) -> Option<(RunsAs, &'static str, usize)> {
    let text = words.text;
    // The tool's rows, together in the table (a unit test checks): found
    // once.
    let tool_rows = runner_rows(tool)?;
    if tool_rows.iter().any(|r| r.2 == RunsAs::Module) {
        module_run(words, at, seg, depth, facts);
        return None;
    }
    let rows = || tool_rows.iter();
    let mut k = at + 1;
    let (runs_as, sub): (RunsAs, &'static str);
    if let Some(&(_, _, how)) = rows().find(|r| r.1.is_empty()) {
        (runs_as, sub) = (how, "");
    } else {
        // The subcommand: the first word not an option, or the one after
        // it when it may be an option's value (`pnpm --filter web exec`).
        let mut may_be_value = false;
        loop {
            let w = text.get(k)?;
            if words.known(k).is_unknown() {
                facts.unparsed_because(format!(
                    "`{}` is expanded by the shell where `{tool}` reads its subcommand: it may be one that runs a command, so permc cannot know what runs",
                    short(w)
                ));
                return None;
            }
            k += 1;
            if w.starts_with('-') {
                may_be_value = !w.contains('=');
                continue;
            }
            if let Some(&(_, row_sub, how)) = rows().find(|r| same(r.1, w)) {
                if let RunsAs::Group(group) = how {
                    // `docker compose exec` is `docker-compose exec`: the
                    // group's subcommand is read after its word, once (a
                    // group word inside a group is another subcommand).
                    if !grouped {
                        runner(words, k - 1, group, true, seg, depth, facts);
                    }
                    return None;
                }
                (runs_as, sub) = (how, row_sub);
                break;
            }
            if let Some(at) = SCRIPT_OR_PROGRAM.iter().position(|r| same(r.0, tool)) {
                let (_, own, again, run) = SCRIPT_OR_PROGRAM[at];
                if again.iter().any(|a| same(a, w)) {
                    may_be_value = true;
                    continue;
                }
                if run.iter().any(|r| same(r, w)) {
                    script_or_program_after(words, k, tool, seg, depth, facts);
                    return None;
                }
                // A name with `:` is a script's (`test:unit`: npm's
                // namespaces for scripts); no program is named so.
                if !super::has_byte(w, b':') && OWN_COMMANDS[at].find(w, |i| own[i]).is_none() {
                    script_or_program(words, k - 1, seg, depth, facts);
                }
            }
            if !std::mem::take(&mut may_be_value) {
                // Another subcommand (`pnpm test`).
                return None;
            }
        }
    }
    Some((runs_as, sub, k))
}

/// The words from `at` on, a command word a package manager runs as the
/// project's script or, with none, as a program ([`SCRIPT_OR_PROGRAM`]):
/// read as a run of segment `seg` that the segment's entry covers (no
/// range of its own to cover: it may be the script the entry names).
fn script_or_program<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    if depth >= MAX_INNER_DEPTH {
        facts.unparsed_because("commands nest more than 8 levels deep".to_string());
        return;
    }
    collect_runs(
        Words {
            text: &words.text[at..],
            known: words.known.get(at..).unwrap_or_default(),
        },
        seg,
        depth + 1,
        facts,
    );
}

/// Python's options that take a value (the next word, or the rest of a
/// cluster): `-c` (code: read by the code forms), `-m`, `-W`, `-X`, and
/// the long `--check-hash-based-pycs`.
const PYTHON_VALUED: &[u8] = b"cmWX";

/// The module `python -m` runs for `module`: a package's `__main__`
/// (`pip.__main__`) is what the package's name runs (`-m pip`).
fn package_of(module: &str) -> &str {
    module
        .strip_suffix(".__main__")
        .filter(|p| !p.is_empty())
        .unwrap_or(module)
}

/// `python [options] -m MODULE ARGS` ([`RunsAs::Module`]): the words from
/// the module on are read as a run of the program of its name, covered by
/// the segment's entry. Stops at `-c`, a script operand or an expansion
/// (what runs is then the code's or the script's, read elsewhere).
fn module_run<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    let mut k = at + 1;
    while let Some(w) = text.get(k) {
        if words.known(k).is_unknown() {
            // It may be a flag (`$OPT` as `-I`): the words after it are
            // read on (reading a script's arguments as a module only asks
            // more).
            k += 1;
            continue;
        }
        if !w.starts_with('-') || w == "-" || w == "--" {
            return;
        }
        if w.starts_with("--") {
            k += if w == "--check-hash-based-pycs" { 2 } else { 1 };
            continue;
        }
        // A cluster: flags, then at most one letter that takes a value
        // (the rest of the word, else the next word).
        let b = w.as_bytes();
        let Some(v) = (1..b.len()).find(|&j| PYTHON_VALUED.contains(&b[j])) else {
            k += 1;
            continue;
        };
        if b[v] != b'm' {
            if b[v] == b'c' {
                return;
            }
            k += if v + 1 < b.len() { 1 } else { 2 };
            continue;
        }
        if v + 1 < b.len() {
            // `-mpip`: the module is the rest of the word.
            let module = package_of(&w[v + 1..]).to_string();
            read_as(words, k, Cow::Owned(module), seg, depth, facts);
            return;
        }
        match text.get(k + 1) {
            // `-m pip.__main__` runs what `-m pip` runs.
            Some(m) if !words.known(k + 1).is_unknown() && package_of(m) != m.as_ref() => {
                let module = package_of(m).to_string();
                read_as(words, k + 1, Cow::Owned(module), seg, depth, facts);
            }
            Some(_) => script_or_program(words, k + 1, seg, depth, facts),
            None => {}
        }
        return;
    }
}

/// `yarn run CMD`: the first word from `k` that is not an option is a
/// script or a program ([`script_or_program`]); an expansion there may be
/// any command.
fn script_or_program_after<'a>(
    words: &Words<'_, 'a>,
    k: usize,
    tool: &str,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    let Some(at) =
        (k..text.len()).find(|&j| !text[j].starts_with('-') || words.known(j).is_unknown())
    else {
        return;
    };
    if words.known(at).is_unknown() {
        facts.unparsed_because(format!(
            "`{}` is expanded by the shell where `{tool} run` reads the script or program it runs, so permc cannot know what runs",
            short(&text[at])
        ));
        return;
    }
    script_or_program(words, at, seg, depth, facts);
}

/// Where the command a runner runs may start, past its options from `k`
/// (both readings of an option that may take a value); `None` when an
/// option runs something permc does not read (marked unparsed).
fn runner_starts<'a>(
    words: &Words<'_, 'a>,
    mut k: usize,
    tool: &str,
    container: bool,
    facts: &mut LineFacts<'a>,
) -> Option<Vec<usize>> {
    let text = words.text;
    let mut starts = Vec::new();
    while let Some(w) = text.get(k) {
        if words.known(k).is_unknown() || !w.starts_with('-') {
            starts.push(k);
            break;
        }
        if w == "--" {
            starts.push(k + 1);
            break;
        }
        if container && (w == "--entrypoint" || w.starts_with("--entrypoint=")) {
            facts.unparsed_because(format!(
                "`{tool} {w}` runs another program with the command's words, which permc does not place"
            ));
            return None;
        }
        if !container
            && RUNNER_SHELL_OPTIONS.iter().any(|o| {
                w == o
                    || (o.starts_with("--")
                        && w.strip_prefix(o).is_some_and(|r| r.starts_with('=')))
            })
        {
            facts.unparsed_because(format!(
                "`{tool} {w}` runs a shell command line, which permc does not read"
            ));
            return None;
        }
        if !w.contains('=') && text.get(k + 1).is_some_and(|n| !n.starts_with('-')) {
            // `--with x CMD` or `--flag CMD`: both readings.
            starts.push(k + 1);
            k += 2;
        } else {
            k += 1;
        }
        if starts.len() > MAX_RUNNER_STARTS {
            facts.unparsed_because(format!(
                "`{tool}` is given more options than permc places: it cannot know what runs"
            ));
            return None;
        }
    }
    Some(starts)
}

/// Reads the options of a wrapper from word `i` by its row of
/// [`WRAPPERS`] (getopt_long, stopping at the verb); returns the index of
/// the first word after them (past the end when an option's command line
/// is all that runs), or `None` (after marking the line unparsed) when an
/// option cannot be placed.
fn read_options<'a>(
    wr: &Wrapper,
    words: &Words<'_, 'a>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) -> Option<usize> {
    let text = words.text;
    let mut options = options::read(wr.grammar(), text, i);
    while let Some(item) = options.next() {
        if words.known(item.index()).is_unknown() {
            // An unknown word where options may be: the verb is unknown.
            return Some(item.index());
        }
        let (name, value) = match item {
            Item::End { index } => return Some(index + 1),
            Item::Operand { index } => return Some(index),
            Item::Unknown { index } => {
                facts.unparsed_because(format!(
                    "`{}` is not an option of `{}` that permc can place: it cannot know what runs",
                    text[index], wr.names[0]
                ));
                return None;
            }
            Item::Flag { .. } => continue,
            Item::Valued { name, value, .. } => (name, value),
        };
        if wr.line_options.contains(&name) {
            // `hyperfine --setup CMD`: a line of its own; options go on.
            match value {
                Value::Next(v) if v < text.len() && words.known(v).is_unknown() => {
                    facts.unknown_inner(seg, &text[v], wr.names[0]);
                }
                _ => {
                    if let Some(line) = value.text(text) {
                        inner_line(line, seg, depth, facts);
                    }
                }
            }
            continue;
        }
        if wr.variable.contains(&name) {
            if let Some(why) = variable_option(wr, words, value) {
                facts.unparsed_because(why);
                return None;
            }
        }
        let command_line = wr.command_line.contains(&name);
        if let Value::Next(v) = value {
            if command_line && v < text.len() && words.known(v).is_unknown() {
                let what = format!("{} -{}", wr.names[0], wr.command_line[0]);
                facts.unknown_inner(seg, &text[v], &what);
            }
        }
        let value = value.text(text);
        if wr.piped.contains(&name) && value.is_some_and(|v| v.starts_with(['|', '!'])) {
            facts.unparsed_because(format!(
                "`{} -{name} {}` runs a command line permc does not read",
                wr.names[0],
                short(value.unwrap_or_default())
            ));
            return None;
        }
        if command_line {
            // `env -S STRING ARGS…`: the string, split, then the rest: a
            // command line of its own.
            if let Some(s) = value {
                let mut line = s.to_string();
                for w in &text[options.position().min(text.len())..] {
                    line.push(' ');
                    line.push_str(&quote(w));
                }
                inner_line(&line, seg, depth, facts);
            }
            // Nothing else runs after `-S`: the inner line is it.
            return Some(usize::MAX);
        }
    }
    Some(options.position())
}

/// The reason a wrapper's `variable` option (`xargs --process-slot-var
/// NAME`) sets a variable that names code for what it runs (SPEC §4.5
/// item 1), or may (its value expanded by the shell); `None` for another
/// name.
fn variable_option(wr: &Wrapper, words: &Words<'_, '_>, value: Value<'_>) -> Option<String> {
    let (text, known) = match value {
        Value::Next(v) => (words.text.get(v).map(AsStr::as_str), words.known(v)),
        _ => (value.text(words.text), Known::Exact),
    };
    let name = text.unwrap_or_default();
    if known.is_unknown() {
        return Some(format!(
            "`{}` names the variable `{}` sets for what it runs, and is expanded by the shell: it may name code",
            short(name),
            wr.names[0]
        ));
    }
    let why = super::variable_named(&format!("{name}="), true, &[])?;
    Some(format!(
        "`{}` sets `{name}` for what it runs: {why}",
        wr.names[0]
    ))
}

fn is_busybox_shell(w: Option<&Cow<'_, str>>) -> bool {
    w.is_some_and(|w| BUSYBOX_SHELLS.contains(&w.as_str()))
}

/// `sh`/`bash`/… with options: `-c STRING` is a command line of its own; a
/// shell with neither `-c` nor a script operand reads standard input.
fn shell_words<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    let shell = basename(&text[at]);
    let Some((i, has_c, stdin)) = shell_options(words, at, shell, facts) else {
        return;
    };
    if has_c {
        match text.get(i) {
            Some(s) if !words.known(i).is_unknown() => {
                // `$0`, `$1`… stand for the words after the string.
                let args: Vec<(Cow<'_, str>, Known)> = (i + 1..text.len())
                    .map(|k| (text[k].clone(), words.known(k)))
                    .collect();
                inner_line_given(s, Some(&args), seg, depth, facts);
            }
            Some(s) => facts.unknown_inner(seg, s, shell),
            None => facts.unparsed_because(format!(
                "`{shell} -c` without a command line is an error bash would report"
            )),
        }
    } else if stdin || text.get(i).is_none_or(|s| reads_stdin(s)) {
        facts.unparsed_because(format!(
            "`{shell}` reads its commands from standard input: permc cannot read them"
        ));
    } else if words.known(i).is_unknown() {
        // After `--`: an unknown script operand may be no word at all
        // (then the shell reads standard input).
        facts.unparsed_because(shell_unknown(&text[i], shell));
    }
}

/// Is a shell's script operand its standard input or another open
/// descriptor ([`STDIN_SCRIPTS`], `/dev/fd/N`, `/proc/…/fd/N`)?
fn reads_stdin(script: &str) -> bool {
    STDIN_SCRIPTS.contains(&script)
        || STDIN_SCRIPT_PREFIXES
            .iter()
            .any(|p| script.starts_with(p) && script.contains("/fd/"))
}

/// A shell's options as the option reader reads them (bash's own option
/// reading): bash's letters, or any letter for the other shells; `-o` and
/// `-O` take a word each; `--rcfile`/`--init-file` a value.
fn shell_grammar(shell: &str) -> Grammar<'static> {
    let bash = BASH_OPTIONS.contains(&shell);
    Grammar {
        flags: if bash {
            "abcefhiklmnprstuvxBCDEHPT"
        } else {
            "abcdefghijklmnpqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ"
        },
        valued: "oO",
        long_flags: SHELL_LONG,
        long_valued: &["rcfile", "init-file"],
        // `bash - script`, `bash +O NAME`.
        lone_dash: true,
        plus: true,
        values_apart: true,
        ..Grammar::new(Mode::Bash)
    }
}

/// What [`shell_options`] holds of the option word being read: the first
/// name it sets that is not a safe one (`-o NAME`, `-O NAME`), the last
/// word its values take, a letter the shell does not know.
#[derive(Default)]
struct ShellWord {
    index: usize,
    unsafe_name: Option<usize>,
    last_value: usize,
    bad: bool,
}

/// A shell's options from `at + 1` (bash's `internal_getopt` and its long
/// options): where its operands start, whether `-c` and `-s` were given;
/// `None` when an option makes the line unreadable (marked unparsed).
fn shell_options<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    shell: &str,
    facts: &mut LineFacts<'a>,
) -> Option<(usize, bool, bool)> {
    let text = words.text;
    let mut options = options::read(shell_grammar(shell), text, at + 1);
    let (mut has_c, mut stdin) = (false, false);
    let mut word = ShellWord::default();
    let end = loop {
        let item = options.next();
        let index = item.map_or(usize::MAX, Item::index);
        if index != word.index {
            // The word before is read whole: what it sets, then whether
            // the shell knows its letters.
            shell_word_done(&word, text, shell, facts)?;
            word = ShellWord {
                index,
                ..ShellWord::default()
            };
        }
        let Some(item) = item else {
            break options.position();
        };
        if words.known(index).is_unknown() {
            // An unknown word where the shell reads its options (`sh $X`,
            // `bash -$X`, `bash -c$X`, what xargs appends, the `{}` of
            // `find -exec … +`): it may be `-c STRING`, `-s` or any option
            // that makes the shell read code permc cannot see.
            facts.unparsed_because(shell_unknown(&text[index], shell));
            return None;
        }
        match item {
            Item::End { index } => break index + 1,
            Item::Operand { index } => break index,
            Item::Flag { name, off, .. } => {
                has_c |= name == "c" && !off;
                stdin |= name == "s" && !off;
            }
            Item::Valued { name, value, .. } => {
                // `-O NAME`/`+O NAME` is `shopt`, `-o NAME` is `set -o`:
                // only `set`'s safe names are read past (SPEC §4.3 round 3).
                if let (Value::Next(v), "o" | "O") = (value, name) {
                    word.last_value = v;
                    let safe = text
                        .get(v)
                        .is_none_or(|n| super::SAFE_SET_NAMES.contains(&n.as_str()));
                    if !safe && word.unsafe_name.is_none() {
                        word.unsafe_name = Some(v);
                    }
                }
            }
            Item::Unknown { index } if text[index].starts_with("--") => {
                let long = &text[index][2..];
                let name = long.split_once('=').map_or(long, |(n, _)| n);
                // A long flag given a value (`--norc=x`) is read past as
                // the flag: bash stops with an error there, and what the
                // line runs is still read (a deny denies).
                if !(SHELL_LONG.contains(&name)
                    || (ZSH_OPTIONS.contains(&shell) && is_zsh_long(name)))
                {
                    facts.unparsed_because(not_an_option(&text[index], shell));
                    return None;
                }
            }
            Item::Unknown { .. } => word.bad = true,
        }
    };
    // The values of `-o`, `-O`, `--rcfile`: an unquoted expansion there
    // may be several words, options among them.
    if let Some(k) = (at + 1..end.min(text.len())).find(|&k| words.known(k).is_unknown()) {
        facts.unparsed_because(shell_unknown(&text[k], shell));
        return None;
    }
    Some((end, has_c, stdin))
}

/// The end of a shell's option word: a name it sets that changes how bash
/// reads (unparsed, and what it runs is still read: a deny denies), then
/// a letter the shell does not know (`None`: the line is unparsed).
fn shell_word_done(
    word: &ShellWord,
    text: &[Cow<'_, str>],
    shell: &str,
    facts: &mut LineFacts,
) -> Option<()> {
    if let Some(n) = word.unsafe_name.filter(|_| word.last_value < text.len()) {
        facts.unparsed_because(format!(
            "`{shell} {} {}` sets a shell option that changes how bash reads the words it runs",
            text[word.index],
            short(&text[n])
        ));
    }
    if word.bad {
        facts.unparsed_because(not_an_option(&text[word.index], shell));
        return None;
    }
    Some(())
}

fn not_an_option(word: &str, shell: &str) -> String {
    format!("`{word}` is not an option of `{shell}` that permc can place: it cannot know what runs")
}

/// Why an unknown word among a shell's options makes the line unparsed.
fn shell_unknown(word: &str, shell: &str) -> String {
    let what = match word {
        "" => "the words `xargs` appends".to_string(),
        w if w.contains("{}") && !w.contains('$') && !w.contains('`') => {
            format!("`{w}`, filled in by `find` or `xargs`,")
        }
        w => format!("`{}` is expanded by the shell and", short(w)),
    };
    format!(
        "{what} may be `-c STRING` or another option of `{shell}`: permc cannot know what it runs"
    )
}

fn is_zsh_long(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'_')
}

/// `su [options] [-] [user [args]]`: `-c`/`--command` is a command line.
pub(crate) fn su<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    // getopt_long, permuting: `su root -c CMD`.
    let grammar = Grammar {
        permute: true,
        ..SU.grammar()
    };
    for item in options::read(grammar, text, at + 1) {
        let index = item.index();
        if words.known(index).is_unknown() {
            facts.unknown_inner(seg, &text[index], SU.names[0]);
            return;
        }
        match item {
            Item::End { .. } => return,
            Item::Operand { .. } | Item::Flag { .. } => {}
            Item::Unknown { .. } => {
                facts.unparsed_because(format!(
                    "`{}` is not an option of `su` that permc can place: it cannot know what runs",
                    text[index]
                ));
                return;
            }
            Item::Valued { name, value, .. } => {
                if let Value::Next(v) = value {
                    if v < text.len() && words.known(v).is_unknown() {
                        facts.unknown_inner(seg, &text[v], "su -c");
                        return;
                    }
                }
                if SU.command_line.contains(&name) {
                    if let Some(s) = value.text(text) {
                        inner_line(s, seg, depth, facts);
                    }
                }
            }
        }
    }
}

/// `trap [-lp] [--] STRING SIGNAL…`: the string runs later.
pub(crate) fn trap<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    let mut i = at + 1;
    while text
        .get(i)
        .is_some_and(|w| w.starts_with('-') && w != "-" && !words.known(i).is_unknown())
    {
        let end = text[i] == "--";
        i += 1;
        if end {
            break;
        }
    }
    if text.len() >= i + 2 {
        if !words.known(i).is_unknown() {
            inner_line(&text[i], seg, depth, facts);
        } else {
            facts.unknown_inner(seg, &text[i], TRAP);
        }
    } else if text.get(i).is_some() && words.known(i) == Known::AnyTokens {
        // `trap $X`: split, it may be `STRING SIGNAL`.
        facts.unknown_inner(seg, &text[i], TRAP);
    }
}

/// `find … -exec|-execdir|-ok|-okdir CMD … ;|+`: each `CMD …` runs, its
/// `{}` an unknown word (SPEC §4.3, §4.4).
pub(crate) fn find_exec<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    let mut i = at + 1;
    // Words left that are the value of the primary before them (`-name X`).
    let mut values = 0usize;
    while i < text.len() {
        if words.known(i).is_unknown() {
            // An unknown word of find's own may be `-exec CMD … ;` (an
            // unquoted one, split), or `-exec` itself where a primary or a
            // starting point may be, running what follows up to a `;` or
            // `+` (or an unknown word that may be one).
            let is_value = values > 0 && words.known(i) == Known::OneToken;
            let terminator_after = (i + 1..text.len())
                .any(|k| words.known(k).is_unknown() || text[k] == ";" || text[k] == "+");
            if words.known(i) == Known::AnyTokens || (!is_value && terminator_after) {
                facts.unparsed_because(format!(
                    "`{}` is expanded by the shell among `find`'s primaries: it may be `-exec`, so permc cannot know what runs",
                    short(&text[i])
                ));
                break;
            }
            values = values.saturating_sub(1);
            i += 1;
            continue;
        }
        if values > 0 {
            values -= 1;
            i += 1;
            continue;
        }
        values = find_values(&text[i]);
        if matches!(text[i].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")
            && !words.known(i).is_unknown()
        {
            i = find_command(words, i, seg, depth, facts) + 1;
        } else {
            i += 1;
        }
    }
    // The `find` itself: past wrappers or inside another command, never
    // the segment's own words.
    push_run(words, at, seg, None, at > 0 || depth > 0, depth == 0, facts);
}

/// The command of `find`'s `-exec` (`-execdir`, `-ok`, `-okdir`) at `i`,
/// up to its `;` or `{} +`: a run given as argv (SPEC §4.3), `{}` one
/// unknown token (any tokens before `+`). Returns where it ends.
fn find_command<'a>(
    words: &Words<'_, 'a>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) -> usize {
    let text = words.text;
    let start = i + 1;
    let mut end = start;
    let mut plus = false;
    while end < text.len() {
        let t = text[end].as_str();
        if t == ";" {
            break;
        }
        if t == "+" && end > start && text[end - 1] == "{}" {
            plus = true;
            break;
        }
        end += 1;
    }
    // An unknown word of the shell inside CMD may end it (`;`) and
    // start another primary: split, it may be `; -exec CMD2`; one
    // token, it may be the `;` before a later `-exec`.
    let exec_after = |k: usize| {
        (k + 1..text.len()).any(|j| {
            words.known(j).is_unknown()
                || matches!(text[j].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")
        })
    };
    if let Some(k) = (start..end).find(|&k| {
        words.known(k) == Known::AnyTokens || (words.known(k) == Known::OneToken && exec_after(k))
    }) {
        facts.unparsed_because(format!(
            "`{}` is expanded by the shell in `find {}`: it may end the command and start another, so permc cannot know what runs",
            short(&text[k]),
            text[i]
        ));
    }
    if depth == 0 && start < end {
        facts.given.push((seg, start, end));
    }
    let sub: Vec<Cow<'a, str>> = text[start..end].to_vec();
    let known: Vec<Known> = (start..end)
        .map(|k| {
            if text[k].contains("{}") {
                if plus {
                    Known::AnyTokens
                } else {
                    Known::OneToken
                }
            } else {
                words.known(k)
            }
        })
        .collect();
    if depth < MAX_INNER_DEPTH && !sub.is_empty() {
        let before = (facts.inner_lines.len(), facts.runs.len());
        collect_runs(
            Words {
                text: &sub,
                known: &known,
            },
            seg,
            depth + 1,
            facts,
        );
        if depth == 0 {
            facts.note_given_shell(seg, start, (&sub, &known), before);
        }
    } else if !sub.is_empty() {
        facts.unparsed_because("commands nest more than 8 levels deep".to_string());
    }
    end
}

/// `fd … -x|--exec|-X|--exec-batch CMD … [;]`: CMD runs on each path found
/// (or all of them), a run of its own as `find -exec`'s is; a placeholder
/// (`{}`, `{/}`, `{//}`, `{.}`, `{/.}`) is an unknown word, and without
/// one fd appends the paths (unknown words).
pub(crate) fn fd_exec<'a>(
    words: &Words<'_, 'a>,
    at: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    let is_exec = |w: &str| matches!(w, "-x" | "--exec" | "-X" | "--exec-batch");
    let mut i = at + 1;
    while i < text.len() {
        let w = text[i].as_str();
        if words.known(i) != Known::Exact {
            if words.known(i) == Known::AnyTokens || i + 1 < text.len() {
                facts.unparsed_because(format!(
                    "`{}` is expanded by the shell among `fd`'s options: it may be `--exec`, so permc cannot know what runs",
                    short(w)
                ));
                break;
            }
            i += 1;
            continue;
        }
        if w.starts_with("--exec") && !is_exec(w) || w.starts_with("-x") && w.len() > 2 {
            facts.unparsed_because(format!(
                "`{}` runs a command permc does not place",
                short(w)
            ));
            break;
        }
        if !is_exec(w) {
            i += 1;
            continue;
        }
        let start = i + 1;
        let end = (start..text.len())
            .find(|&k| text[k] == ";")
            .unwrap_or(text.len());
        let mut sub: Vec<Cow<'a, str>> = text[start..end].to_vec();
        let mut known: Vec<Known> = (start..end).map(|k| words.known(k)).collect();
        let mut placeholder = false;
        for (t, k) in sub.iter().zip(known.iter_mut()) {
            if ["{}", "{/}", "{//}", "{.}", "{/.}"]
                .iter()
                .any(|p| t.contains(p))
            {
                *k = (*k).max(Known::OneToken);
                placeholder = true;
            }
        }
        if !placeholder {
            sub.push(Cow::Borrowed(""));
            known.push(Known::AnyTokens);
        }
        if depth < MAX_INNER_DEPTH && start < end {
            collect_runs(
                Words {
                    text: &sub,
                    known: &known,
                },
                seg,
                depth + 1,
                facts,
            );
        } else if start < end {
            facts.unparsed_because("commands nest more than 8 levels deep".to_string());
        }
        i = end + 1;
    }
    push_run(words, at, seg, None, at > 0 || depth > 0, depth == 0, facts);
}

/// A shell of another language ([`FOREIGN_SHELLS`]): with a script operand
/// first, the stated limit; with an option (`-c`, `--command`, `-Command`…)
/// or nothing (standard input), code permc does not read.
fn foreign_shell<'a>(words: &Words<'_, 'a>, at: usize, facts: &mut LineFacts<'a>) {
    let shell = basename(&words.text[at]);
    match words.text.get(at + 1) {
        Some(w) if words.known(at + 1) == Known::Exact && !w.starts_with(['-', '+']) => {}
        Some(w) => facts.unparsed_because(format!(
            "`{shell} {}` runs code in a language permc does not read",
            short(w)
        )),
        None => facts.unparsed_because(format!(
            "`{shell}` reads its commands from standard input: permc cannot read them"
        )),
    }
}

/// How many value words a primary (or leading option) of GNU find takes.
fn find_values(w: &str) -> usize {
    const ONE: &[&str] = &[
        "-amin",
        "-anewer",
        "-atime",
        "-cmin",
        "-cnewer",
        "-context",
        "-ctime",
        "-fls",
        "-fprint",
        "-fprint0",
        "-fstype",
        "-gid",
        "-group",
        "-ilname",
        "-iname",
        "-inum",
        "-ipath",
        "-iregex",
        "-iwholename",
        "-links",
        "-lname",
        "-maxdepth",
        "-mindepth",
        "-mmin",
        "-mtime",
        "-name",
        "-newer",
        "-path",
        "-perm",
        "-printf",
        "-regex",
        "-regextype",
        "-samefile",
        "-size",
        "-type",
        "-uid",
        "-used",
        "-user",
        "-wholename",
        "-xtype",
        "-files0-from",
        "-D",
    ];
    if w == "-fprintf" {
        2
    } else if ONE.contains(&w)
        // `-newerXY`: `-newermt DATE`, `-neweraa FILE`…
        || (w.len() == 8 && w.starts_with("-newer"))
    {
        1
    } else {
        0
    }
}

/// `xargs [options] CMD …`: CMD runs with words xargs appends (unknown).
fn xargs<'a>(
    words: &Words<'_, 'a>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
    via: Option<&'static str>,
) {
    let text = words.text;
    // The replace string of `-I R` / `-i[R]` / `--replace[=R]`: xargs puts
    // one input line where it appears and appends nothing.
    let replace = replace_string(text);
    let mut sub: Vec<Cow<'a, str>> = text[i.min(text.len())..].to_vec();
    let mut known: Vec<Known> = (i..text.len()).map(|k| words.known(k)).collect();
    if sub.is_empty() {
        // xargs runs `echo` by default.
        sub.push(Cow::Borrowed(XARGS_DEFAULT));
        known.push(Known::Exact);
    }
    if let Some(r) = &replace {
        for (w, k) in sub.iter().zip(known.iter_mut()) {
            if w.contains(r.as_str()) {
                *k = (*k).max(Known::OneToken);
            }
        }
    }
    // What xargs appends (or, with `-I`, puts in the replace string's
    // place): possibly any run of words, and places permc cannot know
    // for the scope (SPEC §4.4 item 5 round 4; the scope reads this mark).
    sub.push(Cow::Borrowed(""));
    known.push(Known::AnyTokens);
    if depth == 0 {
        // With no command, the run is xargs' `echo` (an empty range: see
        // `LineFacts::given_runs`).
        let from = i.min(text.len());
        facts.given.push((seg, from, text.len()));
    }
    let before = facts.runs.len();
    if depth < MAX_INNER_DEPTH {
        collect_runs(
            Words {
                text: &sub,
                known: &known,
            },
            seg,
            depth + 1,
            facts,
        );
    }
    for r in &mut facts.runs[before..] {
        if via.is_some() && r.privileged_via.is_none() {
            r.privileged_via = via;
            r.privileged = true;
        }
        r.read_past = true;
    }
}

fn replace_string(text: &[Cow<'_, str>]) -> Option<String> {
    let mut i = 1;
    while let Some(w) = text.get(i) {
        if w == "--" || !w.starts_with('-') {
            break;
        }
        if w == "-I" {
            return text.get(i + 1).map(|w| w.to_string());
        }
        if let Some(r) = w.strip_prefix("-I") {
            return Some(r.to_string());
        }
        if let Some(r) = w.strip_prefix("-i") {
            return Some(if r.is_empty() {
                "{}".into()
            } else {
                r.to_string()
            });
        }
        if w == "--replace" {
            return Some("{}".into());
        }
        if let Some(r) = w.strip_prefix("--replace=") {
            return Some(r.to_string());
        }
        i += 1;
    }
    None
}

/// Words `from..to` of `eval` joined: a command line of its own.
pub(crate) fn inner_words<'a>(
    words: &Words<'_, 'a>,
    from: usize,
    to: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts<'a>,
    what: &str,
) {
    let text = words.text;
    if from >= to {
        return;
    }
    if let Some(k) = (from..to).find(|&k| words.known(k).is_unknown()) {
        facts.unknown_inner(seg, &text[k], what);
        return;
    }
    inner_line(&text[from..to].join(" "), seg, depth, facts);
}

/// A string run as a command line of its own (`sh -c`, `eval`, `env -S`,
/// `su -c`, `trap`): its segments are read, and their runs belong to `seg`.
pub(crate) fn inner_line(src: &str, seg: usize, depth: usize, facts: &mut LineFacts) {
    inner_line_given(src, None, seg, depth, facts);
}

/// [`inner_line`] of a shell's `-c` string, given the words after it
/// (`$0`, `$1`…, SPEC §4.3 round 4).
fn inner_line_given(
    src: &str,
    args: Option<&super::positional::Arguments<'_>>,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
) {
    if depth >= MAX_INNER_DEPTH {
        facts.unparsed_because("commands nest more than 8 levels deep".to_string());
        return;
    }
    let mut line = reader::read(src).into_owned();
    if let Some(args) = args {
        line = super::positional::substitute(line, src, args);
    }
    if line.is_unparsed() {
        let why: Vec<&str> = line.unparsed.iter().map(|u| u.describe()).collect();
        facts.unparsed_because(format!(
            "the inner command line `{}` holds {}",
            short(src),
            why.join(", ")
        ));
    }
    let outer = facts.stdin_fed;
    for s in &line.segments {
        // An inner command reads the outer one's standard input unless
        // the inner line feeds its own (`bash -c 'vim f' < x`).
        let own = s.piped || s.redirects.iter().any(|r| redirects_stdin(&r.op));
        facts.stdin_fed = if own {
            super::stdin_commands::fed(s)
        } else {
            outer
        };
        collect_runs(
            Words {
                text: &s.words,
                known: &s.known,
            },
            seg,
            depth + 1,
            facts,
        );
    }
    facts.stdin_fed = outer;
    facts.inner_lines.push((seg, line));
}

/// A string shortened for a message.
pub(crate) fn short(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// Records the run of `words[from..]` with the checks on its verb; returns
/// the verb as read (its last path component), when exact, and its
/// [`gates`](super::gates).
fn push_run<'w, 'a>(
    words: &Words<'w, 'a>,
    from: usize,
    seg: usize,
    mut via: Option<&'static str>,
    read_past: bool,
    top: bool,
    facts: &mut LineFacts<'a>,
) -> (Option<&'w str>, u16) {
    let text = words.text;
    let from = from.min(text.len());
    let rest = &text[from..];
    // `git-push …` (`/usr/lib/git-core/git-push`, or on a PATH that holds
    // git's own programs) is `git push …`, as git runs its subcommands:
    // read as such by every check.
    // A segment's own words of a plain line without a `/` (most): no verb
    // is named by a path, without a look at the words.
    let no_slash = top && facts.absent & crate::reader::HAS_SLASH != 0;
    let verb = run_verb(rest.first(), words.known(from), no_slash, read_past);
    // The verb's gates, answered at once for the checks below.
    let gates = verb.map_or(0, super::gates);
    let git_sub = verb
        .and_then(|v| v.strip_prefix(GIT_DASHED))
        .filter(|sub| !sub.is_empty());
    // Read past something, or a verb shown by its last path component:
    // the run's words differ from the segment's.
    let differs = read_past
        || git_sub.is_some()
        || (!no_slash && text.first().is_some_and(|f| super::has_byte(f, b'/')));
    // `top`: `words` are the segment's own, as the reader gave them. Read
    // from the first word, with the verb as written, the run's words are
    // exactly the segment's: kept once, not copied.
    let own = top && from == 0 && !differs;
    if let Some(first) = rest.first() {
        verb_facts(
            words.known(from),
            first,
            verb,
            git_sub,
            rest,
            read_past,
            (gates, &mut via),
            facts,
        );
    }
    gated_facts(verb, gates, rest, seg, facts);
    if let (Some(fed), Some(v)) = (facts.stdin_fed, verb) {
        if let Some(why) = super::stdin_commands::reads_commands(v, &rest[1..], fed) {
            facts.unparsed_because(why);
        }
    }
    if verb.is_some_and(|v| v == GIT) || git_sub.is_some() {
        if let Some(why) = super::git_editor::starts_editor(text, words.known, from, git_sub) {
            facts.unparsed_because(why);
        }
    }
    let words_ref = words;
    let words = (!own).then(|| own_words(words, from, git_sub));
    // The canonical form (SPEC §4.3 round 3): global options skipped,
    // aliases and unique prefixes resolved, for deny and ask. Only for the
    // tools the catalogue describes (one comparison for any other verb).
    let canonical = verb
        .filter(|v| gates & super::GATE_CANONICAL != 0 && super::canonical_tool(v))
        .map(|_| match &words {
            Some(w) => super::canonical_forms(&w.0, &w.1),
            None => super::canonical_forms(rest, words_ref.known.get(from..).unwrap_or_default()),
        })
        .unwrap_or_default();
    facts.runs.push(RunData {
        words,
        privileged: via.is_some(),
        privileged_via: via,
        segment: seg,
        read_past: differs,
        guessed: facts.guessing,
        canonical: false,
        cache: super::continuations::RunCache::default(),
    });
    super::project::at_run(words_ref, from, seg, top, facts); // permc.toml's rows
    let guessed = facts.guessing;
    // Most runs have none: no loop to set up and drop.
    if canonical.is_empty() {
        return (verb, gates);
    }
    for c in canonical {
        facts.runs.push(RunData {
            words: Some(Box::new(c)),
            privileged: via.is_some(),
            privileged_via: via,
            segment: seg,
            read_past: true,
            guessed,
            canonical: true,
            cache: super::continuations::RunCache::default(),
        });
    }
    (verb, gates)
}

/// What a run's verb may hold, by its `gates`: places read from a list, a
/// script's places, a database client.
#[inline(always)] // One caller, on every run.
fn gated_facts(
    verb: Option<&str>,
    gates: u16,
    rest: &[Cow<'_, str>],
    seg: usize,
    facts: &mut LineFacts,
) {
    if let Some(v) = verb.filter(|_| gates & super::GATE_LISTED != 0) {
        facts.may_list |= super::listed::may_list_shaped(v, rest, facts.stdin_fed.is_some());
    }
    if gates & super::GATE_CODE != 0 {
        script_places(verb, rest, seg, facts);
    }
    facts.may_reach_database |= gates & super::GATE_DATABASE != 0;
}

/// The files a sed run's `r`/`R` commands and an awk run's `getline <`
/// read, places for the scope ([`LineFacts::read_places`]): a literal
/// file outside the scope needs a `/` in the line; one with an expansion
/// (`1r $F`), and an awk expression read as a file (`getline < f`,
/// `ARGV` set), is an unknown place.
#[inline(never)] // Only for the programs that may run code: out of push_run.
fn script_places(verb: Option<&str>, rest: &[Cow<'_, str>], seg: usize, facts: &mut LineFacts) {
    let (Some(v), [_, args @ ..]) = (verb, rest) else {
        return;
    };
    // A file named literally can be outside the scope only through a `/`.
    let slash = facts.absent & crate::reader::HAS_SLASH == 0;
    for f in super::code_options::script_read_files(v, args) {
        match f {
            Some(f) if !f.contains(['$', '`']) => {
                if slash {
                    facts
                        .rare()
                        .read_places
                        .push((seg, f.to_string(), Known::Exact));
                }
            }
            Some(f) => facts
                .rare()
                .read_places
                .push((seg, f.to_string(), Known::AnyTokens)),
            None => {
                facts
                    .rare()
                    .read_places
                    .push((seg, "getline < …".to_string(), Known::AnyTokens))
            }
        }
    }
}

/// The verb of a run whose first word is `first` (none when unknown): as
/// written on a plain line without a `/`, else its last path component;
/// past a runner or wrapper without a package's version.
#[inline(always)] // One caller, on every run.
fn run_verb<'w>(
    first: Option<&'w Cow<'_, str>>,
    known: Known,
    no_slash: bool,
    read_past: bool,
) -> Option<&'w str> {
    let verb =
        first
            .filter(|_| !known.is_unknown())
            .map(|f| if no_slash { f.as_str() } else { basename(f) });
    if read_past {
        verb.map(program_of)
    } else {
        verb
    }
}

/// The program a verb word names: its last path component, without the
/// version a package runner takes after `@` (`npx vitest@3`, `npx
/// @scope/tool@latest`, `uvx ruff@0.5`: the package's command).
#[inline(never)] // Past a runner or wrapper only: kept out of push_run.
fn program_of(word: &str) -> &str {
    let b = basename(word);
    // A byte loop: the words are short, and `str::find`'s searcher costs
    // more to set up than the scan.
    match b.bytes().position(|c| c == b'@') {
        Some(at) if at > 0 => &b[..at],
        _ => b,
    }
}

/// A run's words of its own, from word `from`: the verb by its last path
/// component (and without a package's version), `git-SUB` as `git SUB`.
#[allow(clippy::type_complexity)]
fn own_words<'a>(
    words: &Words<'_, 'a>,
    from: usize,
    git_sub: Option<&str>,
) -> Box<(Vec<Cow<'a, str>>, Vec<Known>)> {
    let text = words.text;
    let rest = &text[from..];
    let mut known: Vec<Known> = (from..text.len()).map(|k| words.known(k)).collect();
    let mut run = Vec::with_capacity(rest.len() + 1);
    if let Some(sub) = git_sub {
        run.extend([Cow::Borrowed(GIT), Cow::Owned(sub.to_string())]);
        run.extend(rest[1..].iter().cloned());
        known.insert(0, Known::Exact);
    } else if let Some(first) = rest.first() {
        run.push(match first {
            Cow::Borrowed(f) if known[0] == Known::Exact => Cow::Borrowed(program_of(f)),
            _ if known[0] == Known::Exact => Cow::Owned(program_of(first).to_string()),
            _ => first.clone(),
        });
        run.extend(rest[1..].iter().cloned());
    }
    Box::new((run, known))
}

/// What makes `git ARGS…` run code permc does not read: `-c` and
/// `--config-env` (aliases and commands for this run), `--exec-path`,
/// `git config` setting a key that names code, a subcommand's option that
/// runs text (SPEC §4.3).
pub(crate) fn git_code(args: &[Cow<'_, str>]) -> Option<String> {
    // git's global options (the shared reading of them): one that gives
    // configuration or programs for this run is code.
    let i = super::subcommand_at(GIT, args, 0, |_| true);
    let found = args[..i.min(args.len())]
        .iter()
        .find(|a| {
            GIT_CODE_GLOBALS.iter().any(|o| {
                a.strip_prefix(o).is_some_and(|rest| {
                    rest.is_empty()
                        || rest.starts_with('=')
                        || (o.len() == 2 && !a.starts_with("--"))
                })
            })
        })
        .cloned();
    if let Some(a) = found {
        Some(format!(
            "`git {a}` can define aliases and commands permc cannot read"
        ))
    } else if args.get(i).is_some_and(|a| a == "config") {
        // What `git -c` gives for one command, `git config` keeps
        // for every later one: `alias.st push` makes `git st` a
        // push; `core.pager` runs a command. Reading one is read
        // (`git config --get alias.st`, SPEC §8's seed).
        let rest = &args[i + 1..];
        if git_config_reads(rest) {
            return None;
        }
        let key = git_config_code_key(rest)?;
        Some(format!(
            "`git config {}` sets an alias or a command git runs later, which permc cannot read",
            short(key)
        ))
    } else {
        let sub = args.get(i)?;
        let how = git_runs_text(sub, &args[i + 1..])?;
        Some(format!(
            "`git {sub} {how}` runs a command permc does not read"
        ))
    }
}

/// What a run's command word says of it: unknown (expanded by the
/// shell), a glob read past a wrapper, code the program runs from its
/// words (SPEC §4.3), a privileged program. `gates`: the verb's
/// [`gates`](super::gates).
#[allow(clippy::too_many_arguments)]
fn verb_facts(
    verb_known: Known,
    first: &str,
    verb: Option<&str>,
    git_sub: Option<&str>,
    rest: &[Cow<'_, str>],
    read_past: bool,
    (gates, via): (u16, &mut Option<&'static str>),
    facts: &mut LineFacts,
) {
    if verb_known.is_unknown() {
        facts.unparsed_because(format!(
            "`{}` is expanded by the shell: permc cannot know the command it runs",
            short(first)
        ));
    } else {
        let v = verb.unwrap_or_default();
        if read_past && first.bytes().any(|b| matches!(b, b'*' | b'?' | b'[')) && first != "[" {
            facts.unparsed_because(format!(
                "the command word `{}` is a glob pattern: permc cannot know what runs",
                short(first)
            ));
        }
        let why = match git_sub {
            Some(sub) => git_program_running(sub, &rest[1..]),
            None if gates & super::GATE_CODE_FORMS != 0 => code_forms_of(v, &rest[1..]),
            None => None,
        };
        // The words' first bytes, read once for the two gates below.
        let args = &rest[1..];
        let leads = if gates & (super::GATE_CODE | super::GATE_CODE_KIND) == 0 {
            0
        } else {
            args.iter().fold(0, |m, a| m | lead_of(a))
        };
        let why = why
            .or_else(|| {
                (gates & super::GATE_CODE != 0)
                    .then(|| {
                        // A spelling starts with `-` or `@`, or holds a `=`:
                        // none on a plain line without one.
                        let may_spell = leads != 0
                            || (facts.absent & crate::reader::HAS_EQ == 0
                                && args.iter().any(|a| super::has_byte(a, b'=')));
                        super::code_options::code_option_shaped(v, args, may_spell)
                    })
                    .flatten()
            })
            .or_else(|| {
                // The run's verb is its first word's last path component
                // unless read past a runner (`npx tool@3`): then the
                // word's own gates.
                if read_past {
                    described_code(super::continuations::code_word(rest, &[])?, rest)
                } else if gates & super::GATE_CODE_KIND != 0 && leads & LEAD_DASH != 0 {
                    described_code(super::continuations::code_word_past_gates(rest, &[])?, rest)
                } else {
                    None
                }
            });
        if let Some(why) = why {
            facts.unparsed_because(why);
        }
        if via.is_none() && gates & super::GATE_PRIVILEGED != 0 {
            *via = super::PRIVILEGED.iter().copied().find(|p| *p == v);
        }
    }
}

/// A word the run's described row types `code` or `config` (SPEC §4.5
/// item 2, §4.3), as an unparsed reason naming the word, the program and
/// the version.
fn described_code(
    (i, row): (usize, &super::continuations::Described),
    run: &[Cow<'_, str>],
) -> Option<String> {
    let word = run.get(i).map_or("", |w| &**w);
    Some(format!(
        "`{word}` makes `{}` ({}) run code or read settings that permc does not read",
        row.program.join(" "),
        row.version
    ))
}

/// [`lead_of`]: a word starts with `-`.
const LEAD_DASH: u8 = 1;

/// What a word's first byte may begin, for the gates of a run's options:
/// [`LEAD_DASH`] for `-`, 2 for `@` (a response file), else 0.
#[inline]
fn lead_of(word: &str) -> u8 {
    match word.as_bytes().first() {
        Some(b'-') => LEAD_DASH,
        Some(b'@') => 2,
        _ => 0,
    }
}

/// The shapes of every verb of [`CODE_FORMS`], built from the rows.
pub(super) const CODE_FORM_SHAPES: super::Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < CODE_FORMS.len() {
        let mut j = 0;
        while j < CODE_FORMS[i].verbs.len() {
            super::mark_shape(&mut t, CODE_FORMS[i].verbs[j]);
            j += 1;
        }
        i += 1;
    }
    t
};

/// Why `verb ARGS…` runs text permc does not read: the first row of
/// [`CODE_FORMS`] that answers.
#[inline] // The gate, in the caller: most verbs leave without a call.
fn code_running(verb: &str, args: &[Cow<'_, str>]) -> Option<String> {
    // Most verbs are none of them: two loads, before any compare.
    if !super::has_shape(&CODE_FORM_SHAPES, verb) {
        return None;
    }
    code_forms_of(verb, args)
}

/// [`code_running`] past its gate: the rows of the verb, read in turn.
#[inline(never)]
fn code_forms_of(verb: &str, args: &[Cow<'_, str>]) -> Option<String> {
    for row in CODE_FORM_ROWS.rows(verb).iter() {
        let r = &CODE_FORMS[row];
        if let Some(why) = super::code_forms::reads(r, verb, args) {
            return Some(why);
        }
    }
    None
}

/// [`CODE_FORMS`]' rows by verb, built from the rows: one probe, not a
/// compare of every row's verbs (`git` is the last row).
const CODE_FORM_ROWS: super::name_index::RowIndex = {
    let mut x = super::name_index::RowIndex::new();
    let mut i = 0;
    while i < CODE_FORMS.len() {
        x = x.add_all(CODE_FORMS[i].verbs, i);
        i += 1;
    }
    x.build()
};

/// May word `a` be something else once bash expands it (a `$…` or a
/// backtick in its text, which the reader keeps as written)? Where an
/// option or a keyword that runs text may stand, such a word may be it
/// (SPEC §4.4: an unknown word is possibly any token).
pub(crate) fn may_expand(a: &str) -> bool {
    a.contains(['$', '`'])
}

/// Is `a` an option word holding one of `letters` (`-x`, in a cluster
/// `-ix`), or a word that may expand to one?
pub(crate) fn option_has(a: &str, letters: &[char]) -> bool {
    (a.starts_with('-') && !a.starts_with("--") && a[1..].contains(letters)) || may_expand(a)
}

/// Is `n` a plain shell name (`[A-Za-z_][A-Za-z0-9_]*`)?
pub(crate) fn is_identifier(n: &str) -> bool {
    let b = n.as_bytes();
    b.first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// Does `test` hold for a name that builtin `verb` assigns (or `unset`
/// removes), as written? The names are its operands past its options and
/// their values, read as bash's `internal_getopt` reads them (a cluster's
/// value-taking letter takes the rest of the word, else the next word):
/// `declare`/`typeset`/`local`/`export`/`readonly` `NAME[=…]` (not with
/// `-f`/`-F`: function names), `read [-a NAME] NAME…`, `mapfile`/
/// `readarray NAME`, `getopts OPTSTRING NAME`, `wait -p NAME`, `unset
/// NAME…` (not with `-f`). `false` for any other verb.
pub(crate) fn assigned_names(
    verb: &str,
    args: &[Cow<'_, str>],
    test: impl Fn(&str) -> bool,
) -> bool {
    let Some(&(_, grammar)) = NAME_OPERANDS
        .iter()
        .find(|(names, _)| names.contains(&verb))
    else {
        return false;
    };
    let (values, named, operands) = match grammar {
        NameGrammar::Declare => {
            let functions = args
                .iter()
                .take_while(|a| *a != "--")
                .any(|a| a.starts_with(['-', '+']) && a.contains(['f', 'F']));
            if functions {
                return false;
            }
            // No option takes a value; `+x` is an option too.
            let mut options = true;
            return args.iter().any(|a| {
                if options && a == "--" {
                    options = false;
                    return false;
                }
                // `local -` keeps the shell's options: no name.
                if options && a.starts_with(['-', '+']) {
                    return false;
                }
                options = false;
                let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
                test(name.strip_suffix('+').unwrap_or(name))
            });
        }
        NameGrammar::Options {
            values,
            named,
            operands,
        } => (values, named, operands),
        // `unset -f`: function names, not evaluated.
        NameGrammar::Unset
            if args
                .iter()
                .take_while(|a| a.starts_with('-') && *a != "--")
                .any(|a| a.contains('f')) =>
        {
            return false
        }
        NameGrammar::Unset => ("", "", Names::All),
    };
    // internal_getopt: a valued letter takes the rest of its word, else
    // the next word; the other letters are passed over.
    let grammar = Grammar {
        valued: values,
        ..Grammar::new(Mode::Bash)
    };
    let mut options = options::read(grammar, args, 0);
    let i = loop {
        match options.next() {
            None => break options.position(),
            Some(Item::End { index }) => break index + 1,
            Some(Item::Operand { index }) => break index,
            Some(Item::Valued { name, value, .. }) => {
                if named.contains(name) && test(value.text(args).unwrap_or("")) {
                    return true;
                }
            }
            Some(_) => {}
        }
    };
    let rest = args.get(i..).unwrap_or_default();
    match operands {
        Names::All => rest.iter().any(|a| test(a)),
        Names::Second => rest.get(1).is_some_and(|a| test(a)),
        Names::None => false,
    }
}

/// The option of a git subcommand that runs a command given as its text
/// or its words (`rebase -x 'git push'`, `submodule foreach …`, `bisect run
/// …`, a `filter-branch` filter, `difftool -x`, `grep -O`, the program a
/// fetch, clone or `ls-remote` runs as `upload-pack` — git runs it with
/// the shell for a local repository —, `archive --exec`, send-email's
/// commands, instaweb's server and browser), or that sets what a later
/// git command runs (`clone -c`, a `--template` directory's hooks), named
/// as git's manual names it; `None` for any other.
fn git_runs_text(sub: &str, args: &[Cow<'_, str>]) -> Option<&'static str> {
    // The subcommand's rows by one probe (most subcommands have none).
    for row in GIT_CODE_OPTION_ROWS.rows(sub).iter() {
        let r = &GIT_CODE_OPTIONS[row];
        if r.spells.iter().any(|s| s.given(args)) {
            return Some(r.shown);
        }
    }
    None
}

/// [`GIT_CODE_OPTIONS`]' rows by subcommand, built from the rows.
const GIT_CODE_OPTION_ROWS: super::name_index::RowIndex = {
    let mut x = super::name_index::RowIndex::new();
    let mut i = 0;
    while i < GIT_CODE_OPTIONS.len() {
        x = x.add_all(GIT_CODE_OPTIONS[i].subcommands, i);
        i += 1;
    }
    x.build()
};

impl GitSpell {
    /// How docs/commands.md shows it, and one word that gives it (for the
    /// tests that attack every row).
    pub(crate) fn spelled(self) -> String {
        match self {
            GitSpell::Long(l) => l.to_string(),
            GitSpell::Both(c, l) => format!("-{c}, {l}"),
            GitSpell::Word(w) => w.to_string(),
            GitSpell::LongEnding(e) => format!("--…{e}"),
        }
    }

    /// A word that gives it.
    #[cfg(test)]
    pub(crate) fn example(self) -> String {
        match self {
            GitSpell::Long(l) => format!("{l}=x"),
            GitSpell::Both(c, _) => format!("-{c}x"),
            GitSpell::Word(w) => w.to_string(),
            GitSpell::LongEnding(e) => format!("--tree{e}=x"),
        }
    }

    /// Is it given among `args`?
    fn given(self, args: &[Cow<'_, str>]) -> bool {
        let long = options::names_long;
        args.iter().any(|a| match self {
            GitSpell::Long(l) => long(a, l) || may_expand(a),
            GitSpell::Both(_, l) if a.starts_with("--") => long(a, l),
            GitSpell::Both(short, _) => option_has(a, &[short]),
            GitSpell::Word(w) => a == w || may_expand(a),
            GitSpell::LongEnding(end) => {
                let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
                (name.starts_with("--") && name.ends_with(end)) || may_expand(a)
            }
        })
    }
}

/// The option of `tar`, `rsync`, `ssh`, `scp` or `sftp` that runs a
/// command given as its text (GNU tar's `--to-command`, `-I`/
/// `--use-compress-program`, `--checkpoint-action`, `-F`/`--info-script`/
/// `--new-volume-script`, `--rsh-command`, `--rmt-command`; rsync's `-e`/
/// `--rsh` other than plain `ssh`; an ssh `-o` option naming a command —
/// `ProxyCommand`, `LocalCommand`, `KnownHostsCommand` —, scp's and sftp's
/// `-S` program, sftp's `-D` server), as the manuals name it; `None` for
/// any other. Long options count by any prefix of two letters or more, as
/// getopt takes them; an expandable word where an option may stand counts
/// (fail closed).
pub(crate) fn program_runs_text(verb: &str, args: &[Cow<'_, str>]) -> Option<&'static str> {
    let (_, how) = PROGRAM_TEXT
        .iter()
        .find(|(names, _)| names.iter().any(|n| super::quick_eq(n, verb)))?;
    match *how {
        TextOptions::Tar => tar_text(args),
        TextOptions::RemoteShell => rsync_text(args),
        TextOptions::Ssh { program, server } => ssh_text(args, program, server),
    }
}

/// [`TextOptions::Tar`].
fn tar_text(args: &[Cow<'_, str>]) -> Option<&'static str> {
    let long = options::names_long;
    const LONG: &[&str] = &[
        "--to-command",
        "--use-compress-program",
        "--checkpoint-action",
        "--info-script",
        "--new-volume-script",
        "--rsh-command",
        "--rmt-command",
    ];
    args.iter().enumerate().find_map(|(i, a)| {
        if let Some(&l) = LONG.iter().find(|&&l| long(a, l)) {
            return Some(l);
        }
        // `-I PROG`, `-F SCRIPT`, in a cluster too, or in the
        // old-style first word (`tar xIf PROG a.tar`).
        let old_style = i == 0 && !a.starts_with('-') && a.contains(['I', 'F']);
        (option_has(a, &['I', 'F']) || old_style).then_some("-I")
    })
}

/// [`TextOptions::RemoteShell`].
fn rsync_text(args: &[Cow<'_, str>]) -> Option<&'static str> {
    let long = options::names_long;
    let mut words = args.iter();
    while let Some(a) = words.next() {
        let value = if long(a, "--rsh") {
            match a.split_once('=') {
                Some((_, v)) => Some(v),
                None => words.next().map(AsStr::as_str),
            }
        } else if a.starts_with('-') && !a.starts_with("--") && a.contains('e') {
            // `-e CMD`, `-avzeCMD`, `-avze CMD`: rsync's short
            // options take no other letter `e`.
            let rest = &a[a.find('e').map_or(a.len(), |k| k + 1)..];
            if rest.is_empty() {
                words.next().map(AsStr::as_str)
            } else {
                Some(rest)
            }
        } else if may_expand(a) {
            return Some("-e");
        } else {
            continue;
        };
        if !value.is_some_and(|v| PLAIN_REMOTE_SHELLS.contains(&v)) {
            return Some("-e");
        }
    }
    None
}

/// [`TextOptions::Ssh`].
fn ssh_text(args: &[Cow<'_, str>], program: bool, server: bool) -> Option<&'static str> {
    // ssh, scp, sftp.
    let mut words = args.iter();
    while let Some(a) = words.next() {
        if may_expand(a) {
            return Some("-o");
        }
        if !a.starts_with('-') || a.starts_with("--") {
            continue;
        }
        if (program && option_has(a, &['S'])) || (server && option_has(a, &['D'])) {
            return Some("-S");
        }
        // SPEC §4.5 item 1 round 4: a configuration file (`-F`: its
        // `ProxyCommand`, `Match exec`…) and a PKCS#11 library (`-I`),
        // read in the cluster before an `-o` value.
        let letters = a.find('o').map_or(&a[1..], |k| &a[1..k]);
        if letters.contains('F') {
            return Some("-F");
        }
        if letters.contains('I') {
            return Some("-I");
        }
        if let Some(k) = a.find('o') {
            let rest = &a[k + 1..];
            let value = if rest.is_empty() {
                words.next().map_or("", AsStr::as_str)
            } else {
                rest
            };
            // A command (`ProxyCommand`, `LocalCommand`…), another
            // configuration file (`Include`), a library loaded
            // (`PKCS11Provider`, `SecurityKeyProvider`).
            let key = value.to_ascii_lowercase();
            if ["command", "include", "provider"]
                .iter()
                .any(|k| key.contains(k))
                || may_expand(value)
            {
                return Some("-o");
            }
        }
    }
    None
}

/// Does `git config` with these words only read (`--get…`, `--list`,
/// `-l`, or the `get` and `list` subcommands)? git reads options only
/// before the first other word: `git config alias.st push --get` sets
/// `alias.st` (`--get` is then a value pattern; git 2.47). The value of
/// `-f`/`--file`, `--blob`, `--type` and `--default` is skipped.
pub(crate) fn git_config_reads(words: &[Cow<'_, str>]) -> bool {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        if !w.starts_with('-') {
            return i == 0 && (w == "get" || w == "list");
        }
        if w == "--" {
            return false;
        }
        if w.starts_with("--get") || w == "--list" || w == "-l" {
            return true;
        }
        let takes_value = super::catalogue::git::GIT_CONFIG_VALUED_OPTIONS.contains(&w.as_str());
        i += if takes_value { 2 } else { 1 };
    }
    false
}

/// The first key among `git config`'s words that defines an alias or a
/// command git runs (or a file or transport it reads them from); `None`
/// when no word is one. Every word not an option is read as a key, so a
/// value or a subcommand word never hides one (`git config set alias.x
/// push`); keys are case-insensitive.
fn git_config_code_key<'w>(words: &'w [Cow<'_, str>]) -> Option<&'w str> {
    words
        .iter()
        .map(|w| &**w)
        .filter(|w| !w.starts_with('-'))
        .find(|w| {
            if may_expand(w) {
                // A key given by an expansion may be any key.
                return true;
            }
            let k = w.to_ascii_lowercase();
            let Some((section, _)) = k.split_once('.') else {
                return false;
            };
            let name = k.rsplit('.').next().unwrap_or("");
            GIT_CODE_SECTIONS.contains(&section)
                || GIT_CODE_KEYS.contains(&k.as_str())
                || GIT_CODE_NAMES.contains(&name)
        })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::facts::code_forms::ASSIGNING;

    /// Every verb `assigned_names` reads is a row's (so the shapes before
    /// it hold it), and every row's verb reads names: `VERB a[x]` (or the
    /// form that names one) is caught.
    #[test]
    fn assigning_verbs_are_the_names_readers() {
        for v in ASSIGNING {
            let args: &[&str] = match v {
                "getopts" => &["ab", "a[x]"],
                "wait" => &["-p", "a[x]"],
                _ => &["a[x]"],
            };
            let args: Vec<Cow<'_, str>> = args.iter().map(|a| Cow::Borrowed(*a)).collect();
            assert!(assigned_names(v, &args, |n| n.contains('[')), "{v}");
            assert!(code_running(v, &args).is_some(), "{v}");
        }
        let args = vec![Cow::Borrowed("a[x]")];
        for v in ["echo", "ls", "cd", "printf"] {
            assert!(!assigned_names(v, &args, |n| n.contains('[')), "{v}");
        }
    }

    /// Every command group reads rows that exist.
    #[test]
    fn runner_groups_lead_to_rows() {
        for r in RUNNERS {
            if let RunsAs::Group(g) = r.2 {
                assert!(
                    RUNNERS
                        .iter()
                        .any(|q| q.0 == g && !matches!(q.2, RunsAs::Group(_))),
                    "{} {}: {g} has no rows",
                    r.0,
                    r.1
                );
            }
        }
    }

    /// Each runner tool's rows are together in the table (`runner` finds
    /// them as one run), and its shapes hold every tool.
    #[test]
    fn script_or_program_own_commands_are_sorted() {
        for (tool, own, _, _) in SCRIPT_OR_PROGRAM {
            assert!(own.windows(2).all(|w| w[0] < w[1]), "{tool}");
        }
    }

    #[test]
    fn runner_rows_are_grouped_by_tool() {
        for (i, r) in RUNNERS.iter().enumerate() {
            assert!(crate::facts::has_shape(&RUNNER_SHAPES, r.0), "{}", r.0);
            let first = RUNNERS.iter().position(|q| q.0 == r.0).unwrap_or(i);
            assert!(
                RUNNERS[first..=i].iter().all(|q| q.0 == r.0),
                "{} is split",
                r.0
            );
        }
    }

    /// The quick test lets through every verb read specially, and stops
    /// the common ones.
    #[test]
    fn the_special_verb_shapes_hold_every_special_verb() {
        let names = WRAPPERS.iter().flat_map(|w| w.names.iter());
        let unreadable = UNREADABLE.iter().map(|(v, _)| v);
        let special = SPECIAL_READERS.iter().flat_map(|(n, _)| n.iter());
        for v in names.chain(SHELLS).chain(special).chain(unreadable) {
            assert!(may_be_special(v), "{v}");
        }
        let common = [
            "git", "pnpm", "ls", "cargo", "grep", "", "npm", "echo", "make", "tee", "wc",
        ];
        for v in common {
            assert!(!may_be_special(v), "{v}");
        }
    }

    /// What a wrapper's row reads of one option word: the last item of
    /// the word, and where its value is.
    fn option(wr: &Wrapper, word: &str) -> Option<(String, Option<String>, bool)> {
        let words = [Cow::Borrowed(wr.names[0]), Cow::Borrowed(word)];
        let mut last = None;
        for item in options::read(wr.grammar(), &words, 1) {
            last = match item {
                Item::Flag { name, .. } => Some((name.to_string(), None, false)),
                Item::Valued { name, value, .. } => Some((
                    name.to_string(),
                    value.text(&words).map(str::to_string),
                    matches!(value, Value::Next(_)),
                )),
                _ => return None,
            };
        }
        last
    }

    #[test]
    fn options_by_manual() {
        let env = wrapper("env").unwrap();
        assert_eq!(option(env, "-vS"), Some(("S".into(), None, true)));
        assert_eq!(
            option(env, "--unset=HOME"),
            Some(("unset".into(), Some("HOME".into()), false))
        );
        assert_eq!(option(env, "--ch"), Some(("chdir".into(), None, true)));
        assert_eq!(option(env, "--frobnicate"), None);
        assert_eq!(option(env, "-z"), None);
        let sudo = wrapper("sudo").unwrap();
        assert_eq!(option(sudo, "--user"), Some(("user".into(), None, true)));
        assert_eq!(
            option(sudo, "-uroot"),
            Some(("u".into(), Some("root".into()), false))
        );
        // `--u` is not ambiguous for sudo: only `user` starts with `u`.
        assert!(option(sudo, "--u").is_some());
        // `--c` is ambiguous (close-from, chdir, chroot, command-timeout).
        assert_eq!(option(sudo, "--c"), None);
    }
}
