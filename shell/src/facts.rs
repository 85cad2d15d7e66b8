//! What a command line really does: the facts both engines read off a
//! request, independent of the rules (SPEC §4.3, §5.2, §6.1, §6.2).
//!
//! These are the spec's tables and per-request readings. They depend only
//! on the request, never on the number of rules, so the reference
//! interpreter and the compiled engine share them; the analyzer reads the
//! same tables ([`EXTERNAL_EFFECT`], [`PRIVILEGED`], [`BUILTIN_DENY`]).

use crate::reader::AsStr;
use crate::reader::{self, CommandLine, Known, Unparsed};
use catalogue::builtins::{
    dir_move_of, DirMove, CD_OPTIONS, NAME_ASSIGNING, NAME_OPERANDS_ONLY, SET, SET_OPTIONS,
};
use catalogue::effects::{
    ByWords, BY_WORDS, CLOUD_READ_PREFIXES, CLOUD_READ_VERBS, CLOUD_WRITE, COPY_REMOTE,
    NETWORK_DEVICES, OPTION_GRAMMAR, PREFIX_TOOLS, PUSH_FALSE, PUSH_KEY, REGISTRY_TYPE,
    REMOTE_DAEMON_OPTIONS, REMOTE_DAEMON_VARIABLES, RM_FORCE, RM_OPTIONS, RM_RECURSIVE, SSH_REMOTE,
    SUBCOMMAND_ALIASES, SUBCOMMAND_TREES, TOOLCHAIN_WORD,
};
pub use catalogue::effects::{
    BUILTIN_DENY, BUILTIN_DENY_VERB, EXTERNAL_EFFECT, GH_API_WRITE, PRIVILEGED, PRIVILEGED_SHOWN,
};
use catalogue::git::GLOBAL_VALUE_OPTIONS;
pub use catalogue::git::PROTECTED_BRANCHES;
pub use catalogue::paths::DEV_FILES;
pub(crate) use catalogue::types::const_eq;
pub use catalogue::variables::SAFE_SET_NAMES;
use catalogue::variables::{
    CODE_VARIABLES, COMMAND_VARIABLES, HARMLESS_COMMANDS, SETTING_VARIABLES, VARIABLE_FAMILIES,
};
use std::borrow::Cow;

pub mod catalogue;
pub mod catalogue_doc;
mod code_forms;
pub(crate) mod code_options;
pub mod continuations;
pub mod described;
mod git_editor;
pub mod glob;
pub mod later;
mod listed;
mod name_index;
pub(crate) mod options;
mod positional;
mod possible;
pub use possible::{
    possible_run_builtin_phrase, possible_run_external_phrase, possible_run_phrase,
};
pub mod project;
pub mod protected;
pub mod remote;
#[cfg(test)]
mod rows_attacked;
mod scope;
pub mod sockets;
mod stdin_commands;
mod tmux;
pub(crate) mod wrappers;

pub use scope::ScopeReport;

/// The shapes of [`PRIVILEGED`]'s verbs: most verbs are stopped before a
/// compare ([`GATE_PRIVILEGED`]).
const PRIVILEGED_SHAPES: Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < PRIVILEGED.len() {
        mark_shape(&mut t, PRIVILEGED[i]);
        i += 1;
    }
    t
};

/// `program`'s global options before its subcommand, as the option reader
/// reads them: git's `handle_options` (whole words; the ones of its
/// [`GLOBAL_VALUE_OPTIONS`] row take the next word, and `--name=value`),
/// `-` alone read past as an option.
fn global_grammar(program: &str) -> options::Grammar<'static> {
    let valued = GLOBAL_VALUE_OPTIONS
        .iter()
        .find(|(p, _)| quick_eq(p, program))
        .map_or(&[][..], |(_, v)| *v);
    options::Grammar {
        valued_words: valued,
        lone_dash: true,
        ..options::Grammar::new(options::Mode::Git)
    }
}

/// Where `program`'s subcommand is in `words`, past its global options
/// from `from` ([`global_grammar`]; any other option word is read past
/// alone): the one reading of them every reader shares (the
/// continuations, the code forms, the protected paths). Stops at the first
/// word that is no option or that `exact` says is not known exactly.
pub(crate) fn subcommand_at(
    program: &str,
    words: &[Cow<'_, str>],
    from: usize,
    exact: impl Fn(usize) -> bool,
) -> usize {
    // The commonest run (`git status`): no option before the subcommand,
    // answered before a grammar is built.
    if words.get(from).is_none_or(|w| !w.starts_with('-')) {
        return from;
    }
    let grammar = global_grammar(program);
    let mut options = options::read(grammar, words, from);
    while let Some(item) = options.next() {
        match item {
            _ if !exact(item.index()) => return item.index(),
            options::Item::Operand { index } => return index,
            // git.c knows no `--` (it stops with its usage): read past it
            // as any other unknown option word, the options going on.
            options::Item::End { index } => options = options::read(grammar, words, index + 1),
            _ => {}
        }
    }
    options.position()
}

/// Inner command lines (`sh -c`, `eval`, `env -S`) nest at most this deep.
const MAX_INNER_DEPTH: usize = 8;

/// One command a segment really runs, read past wrappers (SPEC §4.3): a
/// view into [`LineFacts`], which keeps the words once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run<'f> {
    /// The words from the real verb on; the verb by its last path component.
    pub words: &'f [Cow<'f, str>],
    /// What is known of each word (SPEC §4.4), same length as `words`.
    pub known: &'f [Known],
    /// A privileged wrapper (`sudo`, `doas`) was read past, or the verb is
    /// privileged itself.
    pub privileged: bool,
    /// The privileged verb, when there is one (`sudo`, `su`…).
    pub privileged_via: Option<&'static str>,
    /// The index in `line.segments` of the segment this run comes from.
    pub segment: usize,
    /// The words differ from the segment's own (something was read past).
    pub read_past: bool,
    /// A guess, for denies only (SPEC §4.3, round 3): what may run behind
    /// shell keywords or a launcher permc does not place, in a line that
    /// is unparsed already. The ceilings' tables do not read it.
    pub guessed: bool,
    /// Another run's canonical form (SPEC §4.3 round 3: global options
    /// skipped, aliases resolved), for deny and ask.
    pub canonical: bool,
    /// What the checks looked up of the words, kept: the run's as the
    /// facts keep it; `None` for a run made for one check.
    pub cache: Option<&'f continuations::RunCache>,
}

/// A run as [`LineFacts`] keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RunData<'a> {
    /// The run's words and what is known of them; `None` when they are
    /// the segment's own, as the reader gave them (most runs: nothing read
    /// past, the verb without a `/`), so they are not copied. Boxed: the
    /// runs are pushed and read on every line, their own words are rare.
    #[allow(clippy::type_complexity)]
    pub(crate) words: Option<Box<(Vec<Cow<'a, str>>, Vec<Known>)>>,
    pub(crate) privileged: bool,
    pub(crate) privileged_via: Option<&'static str>,
    pub(crate) segment: usize,
    pub(crate) read_past: bool,
    pub(crate) guessed: bool,
    pub(crate) canonical: bool,
    /// What the checks looked up of the run's words, kept.
    pub(crate) cache: continuations::RunCache,
}

/// The facts of one terminal command line.
#[derive(Debug, Clone, Default)]
pub struct LineFacts<'a> {
    /// The line as read (SPEC §4).
    pub line: CommandLine<'a>,
    /// Every real command: one per segment, plus those of inner lines,
    /// `find -exec` and `xargs` ([`LineFacts::runs`] shows them).
    runs: Vec<RunData<'a>>,
    /// Inner command lines (`bash -c '…'`, `eval`…) with the index of the
    /// segment that runs them, checked for scope too.
    pub inner_lines: Vec<(usize, CommandLine<'a>)>,
    /// The line, or what it runs, is unparsed (SPEC §4.2, §4.3, §4.4).
    pub unparsed: bool,
    /// Segments holding a word whose text comes from an expansion.
    pub has_unknown: bool,
    /// Commands a segment's program runs given as argv (SPEC §4.3 round 3:
    /// `find -exec CMD ;`, `xargs CMD`, `npx CMD`, `uv run CMD`…): `(segment,
    /// start, end)`, the words `segment.words[start..end]` as written. Such
    /// a run is a segment for allow too: the segment is covered only when
    /// each of its runs is ([`LineFacts::given_runs`]). Empty on most lines.
    pub given: Vec<(usize, usize, usize)>,
    /// Run `i` is segment `i`'s only run, for every segment (most lines):
    /// the runs index themselves.
    aligned: bool,
    /// The command the line was read from, for what only some checks read
    /// of its text ([`LineFacts::joints`]).
    command: Cow<'a, str>,
    /// Runs read now are guesses ([`Run::guessed`]).
    pub(crate) guessing: bool,
    /// While a top-level segment's runs are read: one of its redirections
    /// opens or duplicates standard input (`exec <f` hands it to the shell).
    pub(crate) stdin_redirected: bool,
    /// While a segment's runs are read: where the line feeds its standard
    /// input from (a pipe, a here-document, a `<`), for the programs that
    /// read commands from it (SPEC §4.2 round 4).
    pub(crate) stdin_fed: Option<stdin_commands::Fed>,
    /// These facts are a possible line's: its own quoted words are not
    /// read again.
    pub(crate) reading_possible: bool,
    /// What no word of the line holds, when the plain reader read it
    /// (`reader::HAS_EQ`… set here means: proven absent). 0, nothing
    /// proven, for any other line: every check then reads the words.
    pub(crate) absent: u8,
    /// A project's rows and what they found (`permc.toml`'s `[[command]]`,
    /// [`LineFacts::of_with`]); `None` without rows. Boxed: 8 bytes in
    /// the facts of every line.
    pub(crate) project: Option<Box<project::ProjectFacts>>,
    /// A run's verb may be one of `listed_places`, or a segment's standard
    /// input is fed: [`listed_places`] has something to read.
    pub(crate) may_list: bool,
    /// A run's verb may be a database client's ([`sockets::database_row`]).
    pub(crate) may_reach_database: bool,
    /// What most lines never hold ([`Rare`]), built by the first fact
    /// that needs it: `None` keeps the facts small to build, move and drop.
    rare: Option<Box<Rare<'a>>>,
}

/// The facts most lines never hold, out of [`LineFacts`] behind one box:
/// the reasons of an unparsed line, what runs behind wrappers on the
/// host, the places read from lists and here-documents, the runs' index
/// for a line whose segments run more than one each. The facts of a
/// typical line are then a third of the bytes to build, move into the
/// answer and drop, and read an empty `Rare`'s field as an empty slice.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rare<'a> {
    /// Why, beyond the reader's conditions: a sentence each, naming the
    /// word (`` `$G` is expanded by the shell… ``).
    pub(crate) unparsed_why: Vec<String>,
    /// **[round 4]** A compose subcommand that starts a service's image
    /// (`docker-compose up`), as shown: privileged unless the command runs
    /// in the running container (SPEC §4.3, §5.3 step 7b), which only the
    /// request says ([`LineFacts::privileged_outside`]).
    pub(crate) privileged_on_host: Option<String>,
    /// **[round 4]** The given runs that are a transparent shell's `-c`
    /// string (`find … -exec sh -c 'prettier --write "$1"' _ {} \;`):
    /// `(segment, start, index in inner_lines)`, for
    /// [`LineFacts::given_transparent`]. Empty on most lines.
    pub(crate) given_inner: Vec<(usize, usize, usize)>,
    /// **[round 4]** The places a segment's program reads from a
    /// here-document or here-string on its standard input (`tar -T -
    /// <<'EOF'`, SPEC §4.2): `(segment, line, known)`, checked words for
    /// the scope and the protected paths. Empty on most lines.
    pub(crate) fed: Vec<(usize, Cow<'a, str>, Known)>,
    /// **[round 4]** Places a segment's program reads, unknown to permc,
    /// from a file or a standard input it does not read (`tar -cf a.tar
    /// -T list`, `listed_places`, SPEC §4.4: unknown words), or from its
    /// script (sed's `r FILE`): `(segment, the word, what is known of
    /// it)`, words for the scope. (Those it writes, `git rm
    /// --pathspec-from-file=list`, are in [`LineFacts::fed`], read by the
    /// protected paths too.) Empty on most lines.
    pub(crate) read_places: Vec<(usize, String, Known)>,
    /// The reasons of `unparsed_why`, to keep them unique in O(1) each: a
    /// line of many distinct expansions (`$a1;$a2;…`) has as many reasons.
    /// Built past [`FEW_REASONS`] (a scan finds repeats among fewer), so
    /// a line without reasons neither builds nor drops a set.
    pub(crate) unparsed_seen: Option<std::collections::HashSet<String>>,
    /// `runs[run_start[i]..run_start[i + 1]]` are the runs of segment `i`
    /// (the runs are kept in segment order), so reading a segment's runs
    /// costs their number, not every run of the line: a decision stays
    /// linear in the line however many segments it holds. Empty when
    /// `aligned` (or for one segment).
    pub(crate) run_start: Vec<usize>,
    /// The possible lines of undescribed programs' quoted words, each
    /// with its segment (SPEC §4.5 item 2, [`possible`]).
    pub(crate) possible: Vec<(usize, Box<LineFacts<'static>>)>,
    /// [round 4] What leaves something that runs later on the person's
    /// machine, found behind a wrapper (`setsid -f`, `nohup … &`: SPEC
    /// §6.1); the runs' own are read by [`LineFacts::later_on_host`].
    pub(crate) later: Option<&'static [&'static str]>,
    /// The top-level segments a `nohup` was read past in: detached when
    /// sent to the background ([`later::backgrounded`]).
    pub(crate) nohup: Vec<usize>,
}

/// The reason of the first word of `line` or its inner lines naming one of
/// [`CODE_VARIABLES`]. A name is assigned or read by a word it begins
/// (`PS4=…`, `PS4+=…`, `BASH_CMDS[x]=…`, `read PS4`, `export PS4`), or
/// inside an expansion (`${PS4:=…}`, an unknown word): an exact word is
/// read only when it starts with the first letter of a name, so a typical
/// word costs one comparison. Then [`COMMAND_VARIABLES`], unless set to
/// one of [`HARMLESS_COMMANDS`].
fn code_variable(
    line: &CommandLine<'_>,
    inner: &[(usize, CommandLine<'_>)],
) -> Option<&'static str> {
    for l in std::iter::once(line).chain(inner.iter().map(|(_, l)| l)) {
        // A `for`/`select` NAME is assigned each word in turn (SPEC §4.3
        // round 4: `for PATH in ./bin; do ls; done`).
        for n in &l.loop_names {
            if let Some(why) = variable_named(&format!("{n}="), true, &[]) {
                return Some(why);
            }
        }
        for s in &l.segments {
            for (w, k) in s.words.iter().zip(&s.known) {
                let exact = !k.is_unknown();
                if exact
                    && !(may_start_with_a_name(w.as_bytes())
                        // A lowercase first letter only for `npm_config_…`.
                        && (w.as_bytes()[0].is_ascii_uppercase()
                            || w.starts_with("npm_")
                            || w.starts_with('_')))
                {
                    continue;
                }
                if let Some(why) = variable_named(w, exact, &s.words) {
                    return Some(why);
                }
            }
        }
    }
    None
}

/// Is a bare word (a name alone) of a segment with these words the
/// operand of a builtin that assigns it (`read HOME`), or, `or_names`, of
/// one that names it (`export PS4`, `unset PS4`: SPEC §4.3's "named")?
/// Any word of the segment counts, not only its first: the builtin may
/// stand behind assignments or wrappers (`X=1 read PS4`, `builtin export
/// PS4`); fail closed. Asked only of a word that is a table's name alone.
fn bare_name(words: &[Cow<'_, str>], or_names: bool) -> bool {
    words.iter().any(|v| {
        NAME_ASSIGNING.contains(&v.as_str())
            || (or_names && NAME_OPERANDS_ONLY.contains(&v.as_str()))
    })
}

/// May word `w` start with a name of the variables' tables, by its first
/// two bytes ([`NAME_SECOND_BYTES`]): `HEAD~1` and `TODO` are stopped
/// before any compare.
fn may_start_with_a_name(w: &[u8]) -> bool {
    match w {
        [f, s, ..] => NAME_SECOND_BYTES[usize::from(*f)] >> (s & 31) & 1 == 1,
        _ => false,
    }
}

/// Per first byte of a variable's name, a bit per second byte (mod 32),
/// from the tables themselves.
const NAME_SECOND_BYTES: [u32; 256] = {
    const fn mark(t: &mut [u32; 256], name: &str) {
        let b = name.as_bytes();
        t[b[0] as usize] |= 1 << (b[1] & 31);
    }
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < CODE_VARIABLES.len() {
        mark(&mut t, CODE_VARIABLES[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < COMMAND_VARIABLES.len() {
        mark(&mut t, COMMAND_VARIABLES[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < SETTING_VARIABLES.len() {
        mark(&mut t, SETTING_VARIABLES[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < VARIABLE_FAMILIES.len() {
        mark(&mut t, VARIABLE_FAMILIES[i].0);
        i += 1;
    }
    let servers = catalogue::remote::net::DATABASE_VARIABLES;
    let elsewhere = catalogue::remote::net::DATABASE_VARIABLES_ELSEWHERE;
    let mut i = 0;
    while i < servers.len() {
        mark(&mut t, servers[i]);
        i += 1;
    }
    let mut i = 0;
    while i < elsewhere.len() {
        mark(&mut t, elsewhere[i]);
        i += 1;
    }
    t
};

/// The segments whose standard input is a here-document or a here-string
/// read by a program that reads paths from it ([`STDIN_PATH_READERS`],
/// SPEC §4.2 round 4): each line of the body is a place of the segment
/// (exact for a quoted here-document or a literal here-string, unknown
/// otherwise), kept in [`LineFacts::fed`]; a diff is read by §6.4's
/// worktree-root rule. `Err`: why the line is unparsed (a body the reader
/// could not place, what a row does not read).
fn stdin_places(facts: &mut LineFacts) -> Result<(), String> {
    use catalogue::wrappers::StdinReads;
    let mut fed = Vec::new();
    for (i, seg) in facts.line.segments.iter().enumerate() {
        // Of several redirections of standard input, the last counts.
        let Some(r) = seg
            .redirects
            .iter()
            .rev()
            .find(|r| wrappers::redirects_stdin(&r.op))
            .filter(|r| r.op.contains("<<"))
        else {
            continue;
        };
        let Some((name, reads)) = facts.runs_of(i).find_map(|run| stdin_reader(run.words)) else {
            continue;
        };
        match reads {
            StdinReads::Patch => {}
            StdinReads::Unread => {
                return Err(format!(
                    "`{name}` reads standard input, here a here-document or here-string, as data permc does not read"
                ))
            }
            StdinReads::Paths => {
                let (body, known) = if r.op.ends_with("<<<") {
                    let k = if r.known.is_unknown() { r.known } else { Known::Exact };
                    (r.target.as_str(), k)
                } else {
                    match r.here.as_deref() {
                        Some(reader::HereDoc { body: Some(b), quoted, .. }) => {
                            (b.as_str(), if *quoted { Known::Exact } else { Known::OneToken })
                        }
                        _ => {
                            return Err(format!(
                                "`{name}` reads paths from standard input, here a here-document whose body permc cannot place"
                            ))
                        }
                    }
                };
                fed.extend(
                    body.split('\n')
                        .filter(|l| !l.is_empty())
                        .map(|l| (i, Cow::Owned(l.to_string()), known)),
                );
            }
        }
    }
    if !fed.is_empty() {
        facts.rare().fed = fed;
    }
    Ok(())
}

/// The row of [`STDIN_PATH_READERS`] a run's words match: its program's
/// name and what it reads.
fn stdin_reader(words: &[Cow<'_, str>]) -> Option<(&'static str, catalogue::wrappers::StdinReads)> {
    let verb = basename(words.first()?);
    catalogue::wrappers::STDIN_PATH_READERS
        .iter()
        .find(|(n, triggers, _)| {
            *n == verb
                && (triggers.is_empty()
                    || words[1..]
                        .iter()
                        .any(|w| triggers.iter().any(|t| w.starts_with(t))))
        })
        .map(|(n, _, reads)| (*n, *reads))
}

/// A `cd` in a transparent shell's string that stays in the scope for
/// certain: `cd DIR`, DIR exact, relative and without a `..` component
/// (the shell starts in the line's directory, which the scope checks).
/// Step 6 counts it as covered, as a top-level `cd` in scope is (SPEC §4.3
/// round 4).
pub fn plain_inner_cd(words: &[Cow<'_, str>], known: &[Known]) -> bool {
    let [verb, dir] = words else {
        return false;
    };
    known.iter().all(|k| *k == Known::Exact)
        && catalogue::builtins::dir_move_of(verb) == Some(catalogue::builtins::DirMove::Cd)
        && !dir.is_empty()
        && !dir.starts_with(['-', '/', '~'])
        && !dir.split('/').any(|c| c == "..")
}

/// The transparent shell of a segment's words and where its options
/// start: `bash …`, `/bin/sh …`, `busybox sh …`.
fn transparent_shell<'w>(words: &'w [Cow<'_, str>]) -> Option<(&'w str, usize)> {
    let verb = basename(words.first()?);
    if catalogue::shells::TRANSPARENT_SHELLS.contains(&verb) {
        return Some((verb, 1));
    }
    let applet = words.get(1)?;
    (verb == catalogue::wrappers::BUSYBOX
        && catalogue::wrappers::BUSYBOX_SHELLS.contains(&applet.as_str()))
    .then_some((applet.as_str(), 2))
}

/// The index of a transparent shell's `-c` string, when every word from
/// `from` to it is an option a transparent shell may take (see
/// [`catalogue::shells::TRANSPARENT_LETTERS`]) and one of them is `-c`.
fn transparent_options(words: &[Cow<'_, str>], from: usize) -> Option<usize> {
    let (mut i, mut c) = (from, false);
    let allowed = |l: &str| {
        l.chars()
            .all(|l| catalogue::shells::TRANSPARENT_LETTERS.contains(l))
    };
    while let Some(w) = words.get(i) {
        if w == "--" {
            return c.then_some(i + 1);
        }
        if catalogue::shells::TRANSPARENT_LONG.contains(&w.as_str()) {
            i += 1;
            continue;
        }
        // The first word that is no option is the string (after `-c`).
        let Some(letters) = w.strip_prefix('-').or_else(|| w.strip_prefix('+')) else {
            return c.then_some(i);
        };
        if letters.is_empty() || letters.starts_with('-') {
            return None;
        }
        c |= w.starts_with('-') && letters.contains('c');
        match letters.strip_suffix('o') {
            // `-o NAME`, `-euo NAME`: a safe name only.
            Some(before) => {
                let name = words.get(i + 1)?;
                if !allowed(before) || !SAFE_SET_NAMES.contains(&name.as_str()) {
                    return None;
                }
                i += 2;
            }
            None if allowed(letters) => i += 1,
            None => return None,
        }
    }
    None
}

/// Is `rest` (what follows `PATH` in a word whose `$PATH` is the
/// shell's expansion) `=$PATH:DIR…` or `=${PATH}:DIR…` whose added
/// directories are literal absolute paths, searched last (SPEC §4.3 round
/// 4)? A prepended directory, an empty one (the cwd) or one with an
/// unknown part (`$HOME/.local/bin`) is code.
fn path_appends_only(rest: &str) -> bool {
    let Some(value) = rest.strip_prefix('=') else {
        return false;
    };
    let Some(added) = value
        .strip_prefix("$PATH")
        .or_else(|| value.strip_prefix("${PATH}"))
    else {
        return false;
    };
    added.is_empty()
        || added.strip_prefix(':').is_some_and(|dirs| {
            dirs.split(':')
                .all(|d| d.starts_with('/') && !d.contains(['$', '`', '~', '*', '?', '[', '\\']))
        })
}

/// The reason for a word that assigns one of [`SETTING_VARIABLES`] or a
/// name of [`VARIABLE_FAMILIES`]: when `exact`, a word that assigns it
/// (`HOME=.`, `NPM_CONFIG_X+=y`) or, when `bare` (the operand of a builtin
/// that assigns names: `read HOME`), is the name; otherwise an expansion
/// that assigns it (`${HOME:=.}`). `cd HOME` and `export HOME` assign
/// nothing.
fn setting_named(w: &str, exact: bool, bare: impl Fn() -> bool) -> Option<&'static str> {
    let b = w.as_bytes();
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    // The name at `i` and whether what follows it assigns (or, exact, ends
    // the word).
    let name_at = |i: usize| {
        let end = i + b[i..].iter().take_while(|&&c| is_name(c)).count();
        let rest = &b[end..];
        let assigns = if i == 0 {
            // An unknown value assigns as a known one does (`LD_PRELOAD=$X`);
            // `BASH_FUNC_f%%=` is how the environment names a function.
            (exact && rest.is_empty() && bare())
                || matches!(
                    rest,
                    [b'=' | b'[', ..] | [b'+', b'=', ..] | [b'%', b'%', b'=', ..]
                )
        } else {
            b[i - 1] == b'{' && matches!(rest, [b'=', ..] | [b':', b'=', ..])
        };
        (&w[i..end], assigns)
    };
    let starts = (0..b.len()).filter(|&i| i == 0 || (!exact && b[i - 1] == b'{'));
    for i in starts {
        let (name, assigns) = name_at(i);
        if !assigns || name.is_empty() {
            continue;
        }
        if i == 0 && !exact && name == "PATH" && path_appends_only(&w[name.len()..]) {
            continue;
        }
        if let Some(&(_, why)) = SETTING_VARIABLES.iter().find(|(n, _)| *n == name) {
            return Some(why);
        }
        if let Some(&(.., why)) = VARIABLE_FAMILIES.iter().find(|(p, s, _)| {
            name.len() > p.len() + s.len() && name.starts_with(p) && name.ends_with(s)
        }) {
            return Some(why);
        }
    }
    None
}

/// The reason for a word that names one of [`CODE_VARIABLES`], one of
/// [`COMMAND_VARIABLES`] not set to one of [`HARMLESS_COMMANDS`], or
/// assigns one of [`SETTING_VARIABLES`].
#[inline(never)]
fn variable_named(w: &str, exact: bool, words: &[Cow<'_, str>]) -> Option<&'static str> {
    let named = || bare_name(words, true);
    if let Some(&(_, why)) = CODE_VARIABLES
        .iter()
        .find(|(n, _)| names(w, n, exact, named))
    {
        return Some(why);
    }
    if let Some(why) = setting_named(w, exact, || bare_name(words, false)) {
        return Some(why);
    }
    if let Some(why) = server_variable_named(w, exact, named) {
        return Some(why);
    }
    // An editor or a pager is run as a command line; one set to a program
    // that runs nothing more is read.
    let &(name, why) = COMMAND_VARIABLES
        .iter()
        .find(|(n, _)| names(w, n, exact, named))?;
    let value = w.strip_prefix(name).and_then(|v| v.strip_prefix('='));
    if exact && value.is_some_and(|v| HARMLESS_COMMANDS.contains(&v)) {
        return None;
    }
    Some(why)
}

/// A database client's server variable (net.toml) named on the line —
/// `export PGHOST=prod` reaches every later `psql` — unless it is an
/// assignment of a local server (SPEC §4.5 item 3's loopback; `PGHOST=
/// 127.0.0.1 psql` is read where it stands, by the client's run).
fn server_variable_named(w: &str, exact: bool, bare: impl Fn() -> bool) -> Option<&'static str> {
    use catalogue::remote::net::{
        DATABASE_VARIABLES, DATABASE_VARIABLES_ELSEWHERE, SERVER_VARIABLE,
    };
    // An expansion only reads the variable, unless it assigns a default.
    if !exact && !w.contains(":=") {
        return None;
    }
    if DATABASE_VARIABLES_ELSEWHERE
        .iter()
        .any(|n| names(w, n, exact, &bare))
    {
        return Some(SERVER_VARIABLE);
    }
    let name = DATABASE_VARIABLES
        .iter()
        .find(|n| names(w, n, exact, &bare))?;
    let value = w.strip_prefix(name).and_then(|v| v.strip_prefix('='));
    if exact && value.is_some_and(sockets::local_server) {
        return None;
    }
    Some(SERVER_VARIABLE)
}

/// Does word `w` name variable `name`: at its start when `exact` (`PS4=…`,
/// `PS4+=…`, `PS4[…]=…`, and `PS4` alone when `bare`, the operand of a
/// builtin that assigns names: `read PS4`, SPEC §4.3's "named" — `grep
/// PAGER src` names nothing), anywhere in an expansion otherwise
/// (`${PS4:=…}`), never as part of a longer name (`PAGERDUTY_KEY`,
/// `EDITORIAL.md`), nor as a file's name (`EDITOR.md`)? `GIT_CONFIG` and
/// `GIT_SSH` stand for their families (`GIT_CONFIG_COUNT`,
/// `GIT_SSH_COMMAND`).
fn names(w: &str, name: &str, exact: bool, bare: impl Fn() -> bool) -> bool {
    let family = name == "GIT_CONFIG" || name == "GIT_SSH";
    let is_name = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let b = w.as_bytes();
    let at = |i: usize| {
        let end = i + name.len();
        b.get(end)
            .is_none_or(|&c| !is_name(c) || (family && c == b'_'))
            && (i == 0 || !is_name(b[i - 1]))
    };
    if exact {
        // As a name, or assigned: `PS4`, `PS4=…`, `PS4+=…`, `PS4[…]…`
        // (not a file `PS4.log`).
        w.starts_with(name)
            && at(0)
            && match b.get(name.len()) {
                None => bare(),
                Some(b'=' | b'[') => true,
                Some(b'+') => b.get(name.len() + 1) == Some(&b'='),
                Some(b'_') => family,
                _ => false,
            }
    } else {
        w.match_indices(name).any(|(i, _)| at(i))
    }
}

/// Up to this many reasons, a new one is checked against them by a scan
/// ([`LineFacts::unparsed_because`]).
const FEW_REASONS: usize = 8;

impl<'a> LineFacts<'a> {
    /// Reads a command line and everything it runs.
    pub fn of(command: &'a str) -> LineFacts<'a> {
        let mut facts = LineFacts::default();
        facts.fill(command);
        facts
    }

    /// [`LineFacts::of`] into `slot`, read in place (a decision keeps the
    /// facts in its answer: built there, they are not copied into it).
    pub fn of_in<'s>(slot: &'s mut Option<LineFacts<'a>>, command: &'a str) -> &'s LineFacts<'a> {
        let facts = slot.insert(LineFacts::default());
        facts.fill(command);
        facts
    }

    /// Gives the vectors of the line's segments, words and runs to the
    /// next line read on this thread (an allocation and a free saved on
    /// each). Only for facts about to be dropped: their other fields still
    /// describe the line.
    pub fn recycle(&mut self) {
        crate::spare::keep(&mut self.line.segments, &mut self.runs);
    }

    /// [`LineFacts::recycle`] for the facts in `slot`, about to be
    /// dropped; then, when they own no memory any more (most lines: the
    /// vectors given away or never allocated, the command borrowed, nothing
    /// rare), they are forgotten, not dropped: their drop glue checked
    /// some fifteen fields to free nothing. (Were one of them ever to own
    /// memory, this would leak it, never free it twice.)
    pub fn recycle_in(slot: &mut Option<LineFacts<'_>>) {
        let Some(f) = slot else {
            return;
        };
        f.recycle();
        // A pipeline's group list (a quarter of the bench's lines) is
        // freed here, so that its facts too are forgotten.
        if f.line.groups.capacity() != 0 {
            f.line.groups = Vec::new();
        }
        if f.owns_nothing() {
            std::mem::forget(slot.take());
        }
    }

    /// No field of the facts owns heap memory. Every field is named, so a
    /// new one must be placed here (`_` for one without memory).
    fn owns_nothing(&self) -> bool {
        let LineFacts {
            line,
            runs,
            inner_lines,
            unparsed: _,
            has_unknown: _,
            given,
            aligned: _,
            command,
            guessing: _,
            stdin_redirected: _,
            stdin_fed: _,
            reading_possible: _,
            absent: _,
            project,
            may_list: _,
            may_reach_database: _,
            rare,
        } = self;
        let CommandLine {
            segments,
            unparsed,
            unparsed_at,
            groups,
            loop_names,
        } = line;
        let vectors = segments.capacity()
            | unparsed.capacity()
            | unparsed_at.capacity()
            | groups.capacity()
            | loop_names.capacity()
            | runs.capacity()
            | inner_lines.capacity()
            | given.capacity();
        vectors == 0 && matches!(command, Cow::Borrowed(_)) && project.is_none() && rare.is_none()
    }

    /// The facts with every word their own text, borrowing nothing from
    /// the command line they were read from (for facts kept past it).
    pub fn into_owned(self) -> LineFacts<'static> {
        let own = |v: Vec<Cow<'a, str>>| -> Vec<Cow<'static, str>> {
            v.into_iter().map(|w| Cow::Owned(w.into_owned())).collect()
        };
        LineFacts {
            line: self.line.into_owned(),
            runs: self
                .runs
                .into_iter()
                .map(|r| RunData {
                    words: r.words.map(|b| {
                        let (w, k) = *b;
                        Box::new((own(w), k))
                    }),
                    privileged: r.privileged,
                    privileged_via: r.privileged_via,
                    segment: r.segment,
                    read_past: r.read_past,
                    guessed: r.guessed,
                    canonical: r.canonical,
                    cache: r.cache,
                })
                .collect(),
            inner_lines: self
                .inner_lines
                .into_iter()
                .map(|(i, l)| (i, l.into_owned()))
                .collect(),
            unparsed: self.unparsed,
            has_unknown: self.has_unknown,
            given: self.given,
            aligned: self.aligned,
            command: Cow::Owned(self.command.into_owned()),
            guessing: self.guessing,
            stdin_redirected: self.stdin_redirected,
            stdin_fed: self.stdin_fed,
            reading_possible: self.reading_possible,
            absent: self.absent,
            project: self.project,
            may_list: self.may_list,
            may_reach_database: self.may_reach_database,
            rare: self.rare.map(|r| {
                let r = *r;
                Box::new(Rare {
                    fed: r
                        .fed
                        .into_iter()
                        .map(|(i, w, k)| (i, Cow::Owned(w.into_owned()), k))
                        .collect(),
                    unparsed_why: r.unparsed_why,
                    privileged_on_host: r.privileged_on_host,
                    given_inner: r.given_inner,
                    read_places: r.read_places,
                    unparsed_seen: r.unparsed_seen,
                    run_start: r.run_start,
                    possible: r.possible,
                    later: r.later,
                    nohup: r.nohup,
                })
            }),
        }
    }

    /// The facts most lines never hold, built at the first write.
    pub(crate) fn rare(&mut self) -> &mut Rare<'a> {
        self.rare.get_or_insert_with(Box::default)
    }

    /// `Rare`'s list `f`, or an empty one when no fact needed it.
    #[inline]
    fn rare_or<'f, T>(&'f self, f: impl FnOnce(&'f Rare<'a>) -> &'f [T]) -> &'f [T] {
        self.rare.as_deref().map_or(&[], f)
    }

    /// Why the line is unparsed beyond the reader's conditions: a sentence
    /// each, naming the word (`` `$G` is expanded by the shell… ``).
    pub fn unparsed_why(&self) -> &[String] {
        self.rare_or(|r| &r.unparsed_why[..])
    }

    /// **[round 4]** The places a segment's program reads from a
    /// here-document or here-string on its standard input (`tar -T -
    /// <<'EOF'`, SPEC §4.2), or writes from a list (`git rm
    /// --pathspec-from-file=list`): `(segment, line, known)`, checked
    /// words for the scope and the protected paths. Empty on most lines.
    pub fn fed(&self) -> &[(usize, Cow<'a, str>, Known)] {
        self.rare_or(|r| &r.fed[..])
    }

    /// Places a segment's program reads, unknown to permc (see
    /// [`Rare::read_places`]). Empty on most lines.
    pub(crate) fn read_places(&self) -> &[(usize, String, Known)] {
        self.rare_or(|r| &r.read_places[..])
    }

    /// The possible lines of undescribed programs' quoted words, each
    /// with its segment ([`possible`]).
    pub(crate) fn possible(&self) -> &[(usize, Box<LineFacts<'static>>)] {
        self.rare_or(|r| &r.possible[..])
    }

    /// How each segment is joined to the one before (`&&`, `;`…), for the
    /// scope's `cd` (SPEC §6.2): read from the text when asked, as most
    /// lines never walk the scope. A lone segment's joint changes nothing
    /// (no segment runs after it): none is read.
    pub(crate) fn joints(&self) -> scope::Joints {
        if self.line.segments.len() > 1 {
            scope::joints(&self.command, &self.line)
        } else {
            scope::Joints::default()
        }
    }

    /// Reads `command` into facts fresh from `default()`.
    fn fill(&mut self, command: &'a str) {
        let facts = self;
        facts.command = Cow::Borrowed(command);
        // The plain reader (SPEC §4's fast path, `reader::read`'s first
        // try) reads a line of words and list operators only: no `$`, `{`,
        // `}` or quote can stand in it. Read here as `read` does, each arm
        // writing the line into its place.
        let plain = match reader::read_simple_noting(command) {
            Some((line, notes)) => {
                put_line(&mut facts.line, line);
                facts.absent = !notes & reader::ANY_NOTE;
                true
            }
            None => {
                put_line(&mut facts.line, reader::read_general(command));
                false
            }
        };
        let segments = facts.line.segments.len();
        facts.unparsed = facts.line.is_unparsed();
        put_in_empty(&mut facts.runs, crate::spare::runs(segments));
        // The segments are taken out while their runs are collected (the
        // runs are pushed into `facts`), then put back: moving a vector
        // moves its header only.
        let line_segments = std::mem::take(&mut facts.line.segments);
        // A deny still denies in an unparsed line: a segment led by shell
        // keywords is read past them too (SPEC §4.3, round 3).
        let keywords = facts.unparsed && facts.line.unparsed.contains(&Unparsed::Keyword);
        for (i, seg) in line_segments.iter().enumerate() {
            facts.has_unknown |= !seg.known.all_exact();
            let words = || wrappers::Words {
                text: &seg.words,
                known: &seg.known,
            };
            facts.stdin_redirected = seg
                .redirects
                .iter()
                .any(|r| wrappers::redirects_stdin(&r.op));
            // A plain line of one segment has no pipe and no redirection.
            facts.stdin_fed = if seg.piped || !seg.redirects.is_empty() {
                stdin_commands::fed(seg)
            } else {
                None
            };
            wrappers::collect_runs(words(), i, 0, facts);
            if keywords {
                wrappers::behind_keywords(words(), i, facts);
            }
        }
        facts.stdin_fed = None;
        // The placeholder `take` left is still empty: the runs never touch
        // the line.
        put_in_empty(&mut facts.line.segments, line_segments);
        // A run sharing its segment's words was counted with the segment.
        facts.has_unknown |= facts.runs.iter().any(|r| {
            r.words
                .as_ref()
                .is_some_and(|w| w.1.iter().any(|k| *k != Known::Exact))
        });
        facts.after_runs(command, segments, plain);
    }

    /// The passes over the whole line once its runs are read: the runs'
    /// index by segment, what a backgrounded `nohup` leaves, the code
    /// variables, the places read from a here-document or a list, the
    /// possible runs of quoted words, `${…@P}`.
    fn after_runs(&mut self, command: &str, segments: usize, plain: bool) {
        let facts = self;
        // One segment needs no index: its runs are all the runs.
        if segments > 1 {
            facts.index_runs(segments);
        }
        if let Some(rare) = facts.rare.as_deref_mut() {
            if rare
                .nohup
                .iter()
                .any(|&s| later::backgrounded(command, &facts.line, s))
            {
                rare.later.get_or_insert(later::NOHUP);
            }
        }
        // A variable's name holds a capital or a `_` (a unit test holds
        // the tables to it): a plain line without either names none.
        let nameless = reader::HAS_UPPER | reader::HAS_UNDERSCORE;
        if facts.absent & nameless != nameless {
            if let Some(why) = code_variable(&facts.line, &facts.inner_lines) {
                facts.unparsed_because(why.into());
            }
        }
        if !plain {
            if let Err(why) = stdin_places(facts) {
                facts.unparsed_because(why);
            }
        }
        if facts.may_list {
            listed::places(facts);
        }
        // A plain line's words hold no blank: no word reads as a line.
        if !plain && !facts.reading_possible {
            possible::collect(facts);
        }
        // A plain line holds no `}`; otherwise a memchr first: most lines
        // hold no `@`.
        if !plain && command.as_bytes().contains(&b'@') && command.contains("@P}") {
            facts.unparsed_because(
                "`${…@P}` expands a value as a prompt string, which can run commands".into(),
            );
        }
    }

    /// Orders the runs by segment (a stable sort: already in order, it is
    /// one linear pass) and records where each segment's runs begin.
    fn index_runs(&mut self, segments: usize) {
        self.runs.sort_by_key(|r| r.segment);
        if self.runs.len() == segments && self.runs.iter().enumerate().all(|(i, r)| r.segment == i)
        {
            self.aligned = true;
            return;
        }
        let mut start = Vec::with_capacity(segments + 1);
        let mut k = 0;
        for i in 0..=segments {
            while self.runs.get(k).is_some_and(|r| r.segment < i) {
                k += 1;
            }
            start.push(k);
        }
        // A run naming no segment of the line stays readable by the scan.
        if k == self.runs.len() {
            self.rare().run_start = start;
        }
    }

    /// A run's words and what is known of them: its own, or its segment's.
    #[inline]
    fn words_of<'f>(&'f self, r: &'f RunData<'a>) -> (&'f [Cow<'a, str>], &'f [Known]) {
        match &r.words {
            Some(w) => (w.0.as_slice(), w.1.as_slice()),
            None => self
                .line
                .segments
                .get(r.segment)
                .map_or((&[][..], &[][..]), |s| {
                    (s.words.as_slice(), s.known.as_slice())
                }),
        }
    }

    /// A run as seen from outside: its own words, or its segment's.
    fn view<'f>(&'f self, r: &'f RunData<'a>) -> Run<'f> {
        let (words, known) = self.words_of(r);
        Run {
            words,
            known,
            privileged: r.privileged,
            privileged_via: r.privileged_via,
            segment: r.segment,
            read_past: r.read_past,
            guessed: r.guessed,
            canonical: r.canonical,
            cache: Some(&r.cache),
        }
    }

    /// Every real command of the line, in segment order: one per segment,
    /// plus those of inner lines, `find -exec` and `xargs`.
    pub fn runs(&self) -> impl Iterator<Item = Run<'_>> {
        self.runs.iter().map(|r| self.view(r))
    }

    /// The runs of segment `i`, in order: a slice of the index, or a scan
    /// when there is none (a line of one segment).
    pub fn runs_of(&self, i: usize) -> impl Iterator<Item = Run<'_>> {
        self.runs_data_of(i).map(|r| self.view(r))
    }

    /// [`LineFacts::runs_of`] as kept.
    fn runs_data_of(&self, i: usize) -> impl Iterator<Item = &RunData<'a>> {
        let run_start = self.rare_or(|r| &r.run_start[..]);
        let (slice, scan) = match (run_start.get(i), run_start.get(i + 1)) {
            _ if self.aligned => (self.runs.get(i..=i).unwrap_or_default(), false),
            (Some(&a), Some(&b)) => (&self.runs[a..b], false),
            _ => (&self.runs[..], true),
        };
        slice.iter().filter(move |r| !scan || r.segment == i)
    }

    /// The cache of segment `i`'s run whose words are the segment's own
    /// (most segments' only run), for the checks that read the segment's
    /// words ([`continuations::mutating_from_with_cached`]).
    pub fn segment_cache(&self, i: usize) -> Option<&continuations::RunCache> {
        // A run's words are the segment's own when it keeps none.
        self.runs_data_of(i)
            .find(|r| r.words.is_none())
            .map(|r| &r.cache)
    }

    /// Marks the line unparsed with a reason for people.
    pub(crate) fn unparsed_because(&mut self, why: String) {
        self.unparsed = true;
        let rare = self.rare();
        if rare.unparsed_why.len() < FEW_REASONS {
            if !rare.unparsed_why.contains(&why) {
                rare.unparsed_why.push(why);
            }
            return;
        }
        let why_list = &rare.unparsed_why;
        let seen = rare
            .unparsed_seen
            .get_or_insert_with(|| why_list.iter().cloned().collect());
        if seen.insert(why.clone()) {
            rare.unparsed_why.push(why);
        }
    }

    /// A command line given by an unknown word (`bash -c "$X"`, `eval $X`):
    /// unparsed, and it may run anything.
    pub(crate) fn unknown_inner(&mut self, seg: usize, word: &str, what: &str) {
        self.unparsed_because(format!(
            "`{}` is expanded by the shell: permc cannot know the command line `{what}` runs",
            wrappers::short(word)
        ));
        self.runs.push(RunData {
            words: Some(Box::new((
                vec![Cow::Owned(word.to_string())],
                vec![Known::AnyTokens],
            ))),
            privileged: false,
            privileged_via: None,
            segment: seg,
            read_past: true,
            guessed: self.guessing,
            canonical: false,
            cache: continuations::RunCache::default(),
        });
    }

    /// Every reason the line is unparsed, for people: the reader's
    /// conditions, then those found behind wrappers.
    pub fn unparsed_reasons(&self) -> Vec<String> {
        self.line
            .unparsed
            .iter()
            .map(|u| u.describe().to_string())
            .chain(self.unparsed_why().iter().cloned())
            .collect()
    }

    /// The command line segment `i` hands to a *transparent* shell (SPEC
    /// §4.3 round 4: `bash -lc 'npm test'`): a segment of `sh`, `bash`,
    /// `dash`, `ash` or `busybox sh|ash` whose only options are `-c`, the
    /// safe ones of `set`, `-l` and `--login|--norc|--noprofile|--posix`,
    /// with an exact string bash and a POSIX shell read alike (for the
    /// POSIX shells), whose every run is one of the string's own segments
    /// (nothing read past a wrapper, no `find -exec`, no `xargs` inside).
    /// Allow covers such a segment when it covers each of these segments.
    pub fn transparent_inner(&self, i: usize) -> Option<&CommandLine<'a>> {
        let seg = self.line.segments.get(i)?;
        let (shell, from) = transparent_shell(&seg.words)?;
        let c = transparent_options(&seg.words, from)?;
        let string = seg.words.get(c)?;
        if seg.known.get(c).is_none_or(|k| *k != Known::Exact)
            || seg.known[..c].iter().any(|k| *k != Known::Exact)
        {
            return None;
        }
        if !catalogue::shells::BASH_READS.contains(&shell)
            && catalogue::shells::BASHISMS
                .iter()
                .any(|b| string.contains(b))
        {
            return None;
        }
        let mut lines = self.inner_lines.iter().filter(|(s, _)| *s == i);
        let (_, inner) = lines.next()?;
        if lines.next().is_some() || inner.is_unparsed() || inner.segments.is_empty() {
            return None;
        }
        // What changes where an inner `cd` goes is read by the scope alone.
        let dirs_named = |l: &CommandLine| {
            l.segments
                .iter()
                .flat_map(|s| &s.words)
                .any(|w| w.contains("CDPATH") || w.contains("cdable") || w.contains("BASHOPTS"))
        };
        if dirs_named(&self.line) {
            return None;
        }
        // Every run of the segment is its own words or one of the string's
        // segments, read as written.
        let own = self.runs_of(i).filter(|r| !r.read_past).count();
        let inner_runs = self.runs_of(i).filter(|r| r.read_past).count();
        let plain = self.runs_of(i).filter(|r| r.read_past).all(|r| {
            inner
                .segments
                .iter()
                .any(|s| s.words[..] == *r.words && s.known[..] == *r.known)
        });
        (own <= 1 && inner_runs == inner.segments.len() && plain).then_some(inner)
    }

    /// The first built-in deny pattern a run matches for certain (SPEC §5.2).
    pub fn builtin_deny(&self) -> Option<&'static str> {
        // The runs' words alone, not their views (~40 instructions an
        // answer: most lines run no `rm`).
        self.runs.iter().find_map(|r| {
            let (words, known) = self.words_of(r);
            // The verb here, a call only for `rm` (~25 instructions).
            words
                .first()
                .is_some_and(|w| w.as_str() == BUILTIN_DENY_VERB)
                .then(|| builtin_deny_known(words, known))
                .flatten()
        })
    }

    /// The inner line of the run segment `i` gives as argv from word
    /// `start`, when that run is a transparent shell (SPEC §4.3 round 4:
    /// `find src -exec sh -c 'prettier --write "$1"' _ {} \;` runs
    /// `prettier --write {}`): allow covers the run when it covers each
    /// segment of the line, as for a segment ([`LineFacts::transparent_inner`]).
    pub fn given_transparent(&self, i: usize, start: usize) -> Option<&CommandLine<'a>> {
        let &(_, _, k) = self
            .rare_or(|r| &r.given_inner[..])
            .iter()
            .find(|&&(s, a, _)| s == i && a == start)?;
        self.inner_lines.get(k).map(|(_, l)| l)
    }

    /// After the runs of `words` (a run given as argv from word `start` of
    /// segment `seg`) were collected — `lines` and `runs` the lengths of
    /// the inner lines and the runs before —: notes it for
    /// [`LineFacts::given_transparent`] when it is a transparent shell
    /// whose string added one line, read, every run of which is one of its
    /// segments as written (no wrapper, `find -exec` or `xargs` inside).
    pub(crate) fn note_given_shell(
        &mut self,
        seg: usize,
        start: usize,
        words: (&[Cow<'_, str>], &[Known]),
        (lines, runs): (usize, usize),
    ) {
        let (text, known) = words;
        let Some((shell, from)) = transparent_shell(text) else {
            return;
        };
        let Some(c) = transparent_options(text, from) else {
            return;
        };
        let exact = known
            .get(..=c)
            .is_some_and(|k| k.iter().all(|k| *k == Known::Exact));
        let bashisms = !catalogue::shells::BASH_READS.contains(&shell)
            && catalogue::shells::BASHISMS
                .iter()
                .any(|b| text[c].contains(b));
        if !exact || bashisms || self.inner_lines.len() != lines + 1 {
            return;
        }
        let inner = &self.inner_lines[lines].1;
        let added = &self.runs[runs.min(self.runs.len())..];
        // The string's runs, then the shell's own.
        let plain = !inner.is_unparsed()
            && !inner.segments.is_empty()
            && added.len() == inner.segments.len() + 1
            && inner.segments.iter().zip(added).all(|(s, r)| {
                r.words
                    .as_ref()
                    .is_some_and(|w| w.0[..] == s.words[..] && w.1[..] == s.known[..])
            });
        if plain {
            self.rare().given_inner.push((seg, start, lines));
        }
    }

    /// The words of each command segment `i` runs given as argv, as
    /// written (see [`LineFacts::given`]), with the index of their first
    /// word in the segment.
    pub fn given_runs(&self, i: usize) -> impl Iterator<Item = (usize, &[Cow<'_, str>], &[Known])> {
        let seg = self.line.segments.get(i);
        self.given
            .iter()
            .filter(move |g| g.0 == i)
            .filter_map(move |&(_, a, b)| {
                let s = seg?;
                if a == b {
                    // `xargs` with no command runs its default.
                    let echo: &[Cow<'_, str>] = &catalogue::wrappers::XARGS_DEFAULT_RUN;
                    return Some((a, echo, &[Known::Exact][..]));
                }
                Some((a, s.words.get(a..b)?, s.known.get(a..b)?))
            })
    }

    /// A run that may be a built-in deny through its unknown words (SPEC
    /// §4.4): the run's words, for the message.
    pub fn builtin_possible(&self) -> Option<Run<'_>> {
        // Only an unknown word makes one possible, and `has_unknown`
        // counts every run's words.
        if !self.has_unknown {
            return None;
        }
        self.runs().find(|r| possible_builtin(r.words, r.known))
    }

    /// A run of a program with code-running forms given an unknown word
    /// where one of them could be (SPEC §4.4 item 3 [round 3]: `make $T`
    /// may be `make CC='curl x|sh'`): the run, for the message.
    pub fn code_possible(&self) -> Option<Run<'_>> {
        if !self.has_unknown {
            return None;
        }
        self.runs()
            .find(|r| code_options::unknown_where_code_may_be(r.words, r.known))
            .or_else(|| self.project_code_possible())
    }

    /// A word of a described program that its row cannot place, where the
    /// row holds a kind that writes or runs (SPEC §4.5 item 2, §5.3 7.0:
    /// `sort --frob F`, `sort "$F"`): the run, the word's index in the
    /// run and the row, for the message. Only a described program's run
    /// is read, found by the rows' shapes.
    pub fn unplaced(&self) -> Option<(Run<'_>, usize, &'static continuations::Described)> {
        self.runs()
            .filter(|r| !r.guessed && !r.canonical)
            .find_map(|r| {
                continuations::unplaced_with_cached(r.words, r.known, self.project_rows(), r.cache)
                    .map(|(i, d)| (r, i, d))
            })
    }

    /// [`LineFacts::unplaced`] for a project row that describes its own
    /// program (`complete = true`, SPEC §4.5 item 6) with a kind that
    /// writes or runs: the run, the word's index and the row.
    pub fn project_unplaced(&self) -> Option<(Run<'_>, usize, &project::CommandRow)> {
        let rows = self.project_rows()?;
        self.runs()
            .filter(|r| !r.guessed && !r.canonical)
            .find_map(|r| {
                continuations::project_unplaced(r.words, r.known, rows).map(|(i, row)| (r, i, row))
            })
    }

    /// The first external-effect entry a run matches, possibly (SPEC §6.1,
    /// §4.4: a possible ceiling acts as a match).
    pub fn external_effect(&self) -> Option<&'static [&'static str]> {
        self.external_effect_where(false)
    }

    /// The run a remote client's external effect `e` was found in (SPEC
    /// §4.5 item 3: its row names it `gh …`), for the sentences that name
    /// the run's own words (`gh pr reopen 12`); `None` for any other `e`.
    pub fn remote_run(&self, e: &[&str]) -> Option<Run<'_>> {
        if e.last() != Some(&catalogue::remote::UNLISTED) {
            return None;
        }
        self.runs().find(|r| {
            !r.guessed && !r.canonical && remote::external_known(r.words, r.known) == Some(e)
        })
    }

    /// Does any word of the line, its inner lines included, name a proxy
    /// (`HTTPS_PROXY=…`, `export all_proxy=…`, `--proxy`)? Then no HTTP
    /// request of it is loopback (SPEC §4.5 item 3, fail closed).
    fn names_a_proxy(&self) -> bool {
        let segments = self
            .line
            .segments
            .iter()
            .chain(self.inner_lines.iter().flat_map(|(_, l)| l.segments.iter()));
        segments
            .flat_map(|s| s.words.iter())
            .any(|w| remote::names_a_proxy(w))
    }

    /// [`LineFacts::external_effect`] for a command that runs in the
    /// running container (`in_container`) or not: there, an HTTP request
    /// to the container's own loopback sends nothing away (SPEC §4.5 item
    /// 3) — unless the line names a proxy anywhere (a `*_proxy` variable
    /// sends it elsewhere).
    pub fn external_effect_where(&self, in_container: bool) -> Option<&'static [&'static str]> {
        // Asked only where a run or a redirection may go to loopback (most
        // lines: never, so their words are not scanned for a proxy).
        let proxy = std::cell::OnceCell::new();
        let loopback_ok =
            || in_container && !self.has_unknown && !*proxy.get_or_init(|| self.names_a_proxy());
        self.runs()
            .filter(|r| !r.guessed)
            .find_map(|r| {
                // A socket client's run to loopback sends nothing away
                // from the running container (SPEC §4.5 item 3).
                let socket_loopback =
                    || loopback_ok() && !r.canonical && sockets::loopback_run(r.words, r.known);
                external_effect_known(r.words, r.known)
                    .filter(|_| !socket_loopback())
                    .or_else(|| {
                        (!r.canonical)
                            .then(|| remote::external_known_where(r.words, r.known, loopback_ok))?
                    })
            })
            .or_else(|| self.network_redirect(&loopback_ok))
            .or_else(|| self.remote_daemon_assigned())
            .or_else(|| {
                self.may_reach_database
                    .then(|| self.database_run(loopback_ok()))
                    .flatten()
            })
    }

    /// A database client's run that may reach a server other than the
    /// running container's own (SPEC §6.1, §4.5 item 3: as a socket
    /// client's, loopback counts only there): its row's name.
    #[inline(never)] // Few lines hold one: kept out of the caller's loop.
    fn database_run(&self, loopback_ok: bool) -> Option<&'static [&'static str]> {
        self.runs()
            .filter(|r| !r.guessed && !r.canonical)
            .find_map(|r| {
                let row = sockets::database_row(r.words.first()?)?;
                if sockets::database_offline(row, r.words) {
                    return None;
                }
                let assigned = self.line.segments.get(r.segment).map_or(&[][..], |s| {
                    let n = s
                        .words
                        .iter()
                        .take_while(|w| is_assignment(w) || basename(w) != r.words[0]);
                    &s.words[..n.count()]
                });
                let local = loopback_ok && sockets::database_local(row, r.words, r.known, assigned);
                (!local).then_some(row.named)
            })
    }

    /// [round 4] What leaves something that runs later on the person's
    /// machine (SPEC §6.1): a run of [`LATER_ON_HOST`](catalogue::effects::LATER_ON_HOST)
    /// (`crontab f`, `tmux new -d`, `systemctl --user enable x`), or a
    /// process a wrapper detaches (`setsid -f`, `nohup … &`). An external
    /// effect unless the command runs in the running container: the
    /// ceiling asks ([`LineFacts::external_effect_at`]).
    pub fn later_on_host(&self) -> Option<&'static [&'static str]> {
        self.rare.as_ref().and_then(|r| r.later).or_else(|| {
            self.runs()
                .filter(|r| !r.guessed)
                .find_map(|r| later::later_known(r.words, r.known))
        })
    }

    /// Step 7a's external effect where the command runs: [`LineFacts::external_effect`],
    /// then, on the host (not `in_container`, §6.2's first case),
    /// [`LineFacts::later_on_host`].
    pub fn external_effect_at(&self, in_container: bool) -> Option<&'static [&'static str]> {
        self.external_effect_where(in_container)
            .or_else(|| (!in_container).then(|| self.later_on_host()).flatten())
    }

    /// A container client run with a variable assigned before it that
    /// sends its commands to another machine (`DOCKER_HOST=ssh://h docker
    /// ps`, `env CONTAINER_HOST=… podman ps`: SPEC §6.1 round 3), or GNU
    /// tar's `TAPE=host:a.tar` (§4.5 item 3). None
    /// on a plain line without a `=`.
    fn remote_daemon_assigned(&self) -> Option<&'static [&'static str]> {
        if self.absent & reader::HAS_EQ != 0 {
            return None;
        }
        let by = |v: &str, kind: ByWords| {
            BY_WORDS
                .iter()
                .any(|(names, how)| *how == kind && names.contains(&v))
        };
        let client = |v: &str| by(v, ByWords::RemoteDaemon) || by(v, ByWords::RemoteArchive);
        for r in self.runs().filter(|r| !r.guessed) {
            let Some(verb) = r.words.first().filter(|v| client(v)) else {
                continue;
            };
            let Some(s) = self.line.segments.get(r.segment) else {
                continue;
            };
            let before = s.words.iter().take_while(|w| basename(w) != verb.as_str());
            for w in before {
                let name = w.split_once('=').map(|(n, _)| n);
                if name.is_some_and(|n| REMOTE_DAEMON_VARIABLES.contains(&n))
                    && by(verb, ByWords::RemoteDaemon)
                {
                    return Some(catalogue::effects::remote_daemon_names(verb).0);
                }
                // GNU tar's default archive (`TAPE=host:a.tar tar -c .`;
                // fail closed: even when `-f` names another one).
                let tape = name.filter(|n| *n == catalogue::effects::TAR_REMOTE_VARIABLE);
                let tape = tape.and_then(|_| w.split_once('=')).map(|(_, v)| v);
                if tape.is_some_and(|v| remote::tar_remote_name(v, v.contains(['$', '`'])))
                    && by(verb, ByWords::RemoteArchive)
                {
                    return Some(catalogue::effects::TAR_REMOTE);
                }
            }
        }
        None
    }

    /// A redirection to `/dev/tcp/…` or `/dev/udp/…`, in the line or an
    /// inner line: bash opens a network connection (SPEC §6.1, round 3).
    /// An unknown target is the scope's (§4.4), not this; a loopback one
    /// (`/dev/tcp/127.0.0.1/8080`) is none when `loopback_ok` (the
    /// command runs in the running container, §4.5 item 3).
    fn network_redirect(&self, loopback_ok: &dyn Fn() -> bool) -> Option<&'static [&'static str]> {
        let lines = std::iter::once(&self.line).chain(self.inner_lines.iter().map(|(_, l)| l));
        let targets = lines.flat_map(|l| &l.segments).flat_map(|s| &s.redirects);
        for r in targets.filter(|r| r.op != "<<<") {
            for (prefix, entry) in NETWORK_DEVICES {
                let loopback = r.known == Known::Exact
                    && loopback_ok()
                    && sockets::loopback_device(&r.target, prefix);
                if r.target.starts_with(prefix) && !loopback {
                    return Some(entry);
                }
            }
        }
        None
    }

    /// [`verb_index`] of segment `i`'s words: the first word, without a
    /// look at it, when the plain reader proved no word holds a `=`.
    pub fn verb_index(&self, i: usize) -> Option<usize> {
        let words = &self.line.segments.get(i)?.words;
        if self.absent & reader::HAS_EQ != 0 {
            return (!words.is_empty()).then_some(0);
        }
        verb_index(words)
    }

    /// The first privileged run (SPEC §5 step 7b).
    pub fn privileged(&self) -> Option<Run<'_>> {
        self.runs().find(|r| r.privileged && !r.guessed)
    }

    /// What runs privileged only outside the running container (SPEC
    /// §4.3 round 4: `docker compose up`), shown, when the command does
    /// not run in it.
    pub fn privileged_outside(&self, in_container: bool) -> Option<&str> {
        self.rare
            .as_ref()
            .and_then(|r| r.privileged_on_host.as_deref())
            .filter(|_| !in_container)
    }

    /// The runs of segment `i` whose words differ from the segment's own
    /// (what deny and ask also read, SPEC §4.3).
    pub fn read_past(&self, i: usize) -> impl Iterator<Item = Run<'_>> {
        self.runs_of(i).filter(|r| r.read_past)
    }
}

/// The unknown word to name for segment `i` (SPEC §4.4): the first of its
/// own words, else the first of what it runs (`xargs`, `find -exec`).
pub fn segment_unknown(f: &LineFacts, i: usize) -> Option<String> {
    let own = f.line.segments.get(i).and_then(|s| {
        s.words
            .iter()
            .zip(&s.known)
            .find(|(_, k)| **k != Known::Exact)
            .map(|(w, _)| w.to_string())
    });
    own.or_else(|| {
        f.runs_of(i)
            .find_map(|r| run_unknown(r).map(str::to_string))
    })
}

/// The first unknown word of a run.
pub fn run_unknown(r: Run<'_>) -> Option<&str> {
    r.words
        .iter()
        .zip(r.known)
        .find(|(_, k)| **k != Known::Exact)
        .map(|(w, _)| w.as_str())
}

/// Why an unknown word leaves the words open, for people.
pub fn unknown_clause(word: Option<&str>) -> String {
    match word {
        Some("") => "xargs appends words permc cannot know".to_string(),
        Some(w) if w.contains("{}") && !w.contains('$') && !w.contains('`') => {
            format!("`{w}` is filled in by `find` or `xargs`, so permc cannot know the words")
        }
        Some(w) if !w.contains('$') && !w.contains('`') && w.contains(['*', '?', '[']) => format!(
            "`{}` is a glob the shell expands against the files there (an earlier command can create them), so permc cannot know the words",
            wrappers::short(w)
        ),
        Some(w) => format!(
            "`{}` is expanded by the shell, so permc cannot know the words",
            wrappers::short(w)
        ),
        None => "an expansion leaves the words unknown".to_string(),
    }
}

/// Step 7.0's phrase for a deny pattern that matches only possibly: by an
/// unknown word of the segment, else by one of its possible runs (SPEC
/// §4.5 item 2).
pub fn possible_deny_phrase(f: &LineFacts, i: usize, rule: &str) -> String {
    if segment_unknown(f, i).is_none() {
        if let Some(r) = f.possible_runs(i).next() {
            return possible_run_phrase(f, i, r, &format!("which `{rule}` in deny matches"));
        }
    }
    let shown = f
        .line
        .segments
        .get(i)
        .map(|s| s.words.join(" "))
        .unwrap_or_default();
    format!(
        "`{}` may be `{rule}` in deny: {}",
        wrappers::short(&shown),
        unknown_clause(segment_unknown(f, i).as_deref())
    )
}

/// Step 7.0's phrase for a run that may be a built-in deny.
pub fn possible_builtin_phrase(r: Run<'_>) -> String {
    let shown = r
        .words
        .iter()
        .filter(|w| !w.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "`{}` may run `rm -rf /`, a built-in deny: {}",
        wrappers::short(&shown),
        unknown_clause(run_unknown(r))
    )
}

/// Step 7.0's phrase for a run that may use a code-running form.
pub fn possible_code_phrase(r: Run<'_>) -> String {
    let verb = r.words.first().map_or("", AsStr::as_str);
    format!(
        "`{}` may use a form of `{verb}` that runs code permc does not read: {}",
        wrappers::short(&r.words.join(" ")),
        unknown_clause(run_unknown(r))
    )
}

/// Step 7.0's phrase for a word of a described program its row cannot
/// place (SPEC §4.5 item 2): the word, the program and the version.
pub fn unplaced_phrase(r: Run<'_>, i: usize, row: &continuations::Described) -> String {
    unplaced_words_phrase(r, i, &row.program.join(" "), row.version)
}

/// [`unplaced_phrase`] for a project row that describes its program
/// (SPEC §4.5 item 6): its name and the version it gives, or permc.toml.
pub fn project_unplaced_phrase(r: Run<'_>, i: usize, row: &project::CommandRow) -> String {
    let version = match row.description.version.as_str() {
        "" => project::SOURCE,
        v => v,
    };
    unplaced_words_phrase(r, i, &row.name, version)
}

fn unplaced_words_phrase(r: Run<'_>, i: usize, program: &str, version: &str) -> String {
    let word = r.words.get(i).map_or("", AsStr::as_str);
    let exact = r.known.get(i).is_none_or(|k| *k == Known::Exact);
    unplaced_word_text(word, exact, program, version)
}

/// Explain's phrase for why an allow entry whose tokens match a segment
/// stops short of it (SPEC §4.5 item 2, §6.5): the segment's word `at`,
/// from which an entry must name the words — one the described row
/// cannot place (with the program and its version), or the start of a
/// form that writes (a mutating continuation, a writing option).
pub fn uncovered_word_phrase(words: &[Cow<'_, str>], known: &[Known], at: usize) -> String {
    let word = words.get(at).map_or("", AsStr::as_str);
    let exact = known.get(at).is_none_or(|k| *k == Known::Exact);
    if let Some((row, from)) = continuations::described_row(words, known) {
        if described::walk(row, words, known, from, true).unplaced == Some(at) {
            return unplaced_word_text(word, exact, &row.program.join(" "), row.version);
        }
    }
    format!(
        "`{word}` begins a form that writes or changes state (SPEC §6.5), which an entry \
         covers only when it names it"
    )
}

fn unplaced_word_text(word: &str, exact: bool, program: &str, version: &str) -> String {
    if !exact {
        format!(
            "`{word}` may be an option of `{program}` ({version}) that writes or runs, or one \
             permc does not know"
        )
    } else if word.starts_with('-') {
        format!(
            "`{word}` is not an option permc knows for `{program}` ({version}): it may write \
             or run something, as options of `{program}` can"
        )
    } else {
        format!(
            "`{word}` is not an operand permc knows for `{program}` ({version}): it may write \
             or run something, as words of `{program}` can"
        )
    }
}

/// Step 7c's phrase: every reason the line cannot be read exactly.
pub fn unparsed_phrase(f: &LineFacts) -> String {
    let why = f.unparsed_reasons();
    let why = if why.is_empty() {
        "an inner command line that cannot be read".to_string()
    } else {
        why.join("; ")
    };
    format!("the command cannot be read exactly ({why})")
}

/// The last path component of a command word (`/usr/bin/git` → `git`).
pub fn basename(word: &str) -> &str {
    if has_byte(word, b'/') {
        word.rsplit('/').find(|c| !c.is_empty()).unwrap_or(word)
    } else {
        word
    }
}

/// Puts `v` in `slot`, an empty vector that never allocated (a default,
/// or what `mem::take` left): the placeholder is forgotten, not dropped,
/// as dropping it was a call that freed nothing. (Were it ever not empty,
/// this would leak it, never read freed memory.)
fn put_in_empty<T>(slot: &mut Vec<T>, v: Vec<T>) {
    let placeholder = std::mem::replace(slot, v);
    debug_assert!(placeholder.capacity() == 0);
    std::mem::forget(placeholder);
}

/// Puts `line` in `slot`, a default line (five empty vectors that never
/// allocated): the placeholder is forgotten, not dropped, as dropping it
/// checked each vector for nothing to free. (Were it ever not empty, this
/// would leak it, never read freed memory.)
fn put_line<'a>(slot: &mut CommandLine<'a>, line: CommandLine<'a>) {
    let placeholder = std::mem::replace(slot, line);
    debug_assert!(placeholder.segments.capacity() == 0 && placeholder.unparsed.capacity() == 0);
    std::mem::forget(placeholder);
}

/// `word` holds the byte `b`: a byte loop, as command words are a few
/// bytes long (a `memchr` call costs more than scanning them).
#[inline]
pub(crate) fn has_byte(word: &str, b: u8) -> bool {
    word.bytes().any(|c| c == b)
}

/// A shell name's bytes: [`NAME_START`] for a letter or `_` (a name's
/// first byte), 1 for a digit, 0 for any other byte.
const NAME_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b: u8 = 0;
    loop {
        t[b as usize] = if b.is_ascii_alphabetic() || b == b'_' {
            NAME_START
        } else if b.is_ascii_digit() {
            1
        } else {
            0
        };
        if b == u8::MAX {
            break;
        }
        b += 1;
    }
    t
};
const NAME_START: u8 = 2;

/// `NAME=value`, `NAME+=value` or `NAME[…]=value` with a valid name.
pub fn is_assignment(word: &str) -> bool {
    // One pass over the name, a table load a byte (most words are a name
    // to their end: `git`, `pnpm`).
    let b = word.as_bytes();
    if b.first()
        .is_none_or(|&c| NAME_BYTE[usize::from(c)] != NAME_START)
    {
        return false;
    }
    let name = 1 + b[1..]
        .iter()
        .take_while(|&&c| NAME_BYTE[usize::from(c)] != 0)
        .count();
    match &b[name..] {
        [b'=', ..] | [b'+', b'=', ..] => true,
        // `NAME[subscript]=` or `+=`: the subscript runs to the matching
        // `]`, as bash reads it (SPEC §4.1).
        rest @ [b'[', ..] => {
            let mut depth = 0usize;
            let close = rest.iter().position(|&c| {
                match c {
                    b'[' => depth += 1,
                    b']' => depth -= 1,
                    _ => {}
                }
                depth == 0
            });
            close.is_some_and(|k| {
                let after = &rest[k + 1..];
                after.starts_with(b"=") || after.starts_with(b"+=")
            })
        }
        _ => false,
    }
}

fn is_option(word: &str) -> bool {
    word.starts_with('-') && word != "-"
}

/// Where `cd`'s or `pushd`'s operand is, its options read from `i` as
/// bash's `internal_getopt` reads them (`-L`, `-P`, `-e`, `-@`; `cd -` is
/// an operand, `--` ends the options). An option bash does not know is
/// read past as one (bash then fails, and does not move).
fn cd_operand(words: &[Cow<'_, str>], i: usize) -> usize {
    // The commonest `cd` (`cd src`): no option.
    if words.get(i).is_none_or(|w| !w.starts_with('-')) {
        return i;
    }
    let mut options = options::read(CD_OPTIONS, words, i);
    for item in options.by_ref() {
        match item {
            options::Item::End { index } => return index + 1,
            options::Item::Operand { index } => return index,
            _ => {}
        }
    }
    options.position()
}

/// Is this run one of the built-in denies (SPEC §5.2), all its words known?
/// Returns the built-in pattern it counts as.
pub fn builtin_deny(words: &[Cow<'_, str>]) -> Option<&'static str> {
    builtin_deny_known(words, &[])
}

/// [`builtin_deny`] reading only the known words: an unknown word neither
/// gives an option nor a root operand for certain (it may, §4.4: see
/// [`LineFacts::builtin_possible`]).
pub fn builtin_deny_known(words: &[Cow<'_, str>], known: &[Known]) -> Option<&'static str> {
    let exact = |i: usize| known.get(i).is_none_or(|k| !k.is_unknown());
    if words.first().map(AsStr::as_str) != Some(BUILTIN_DENY_VERB) || !exact(0) {
        return None;
    }
    // The literal patterns, as token prefixes.
    for (pattern, tokens) in [
        (BUILTIN_DENY[0], [BUILTIN_DENY_VERB, "-rf", "/"]),
        (BUILTIN_DENY[1], [BUILTIN_DENY_VERB, "-rf", "/*"]),
        (BUILTIN_DENY[2], [BUILTIN_DENY_VERB, "-fr", "/"]),
    ] {
        if words.len() >= 3 && words.iter().zip(tokens).all(|(w, t)| w == t) {
            return Some(pattern);
        }
    }
    // [hardening] Any recursive + force rm of the root.
    let (mut recursive, mut force) = (false, false);
    let mut root = None;
    let mut options_done = false;
    for (i, w) in words.iter().enumerate().skip(1) {
        if !exact(i) {
            continue;
        }
        if !options_done && w == "--" {
            options_done = true;
        } else if !options_done && is_option(w) {
            let (r, f) = rm_option(w);
            recursive |= r;
            force |= f;
        } else if root.is_none() {
            root = root_operand(w);
        }
    }
    if recursive && force {
        root
    } else {
        None
    }
}

/// What one option word of rm gives: (recursive, force), read by the
/// option reader over GNU rm's grammar (clusters, long options by unique
/// prefix). A letter rm does not know is passed over and the others still
/// count, and a long option rm would reject (`--force=x`) counts by its
/// name ([`rm_long`]): this reads for a deny, so it fails closed.
fn rm_option(w: &str) -> (bool, bool) {
    let (mut recursive, mut force) = (false, false);
    for item in options::read(RM_OPTIONS, &[Cow::Borrowed(w)], 0) {
        match item {
            options::Item::Flag { name, .. } => {
                recursive |= RM_RECURSIVE.contains(&name);
                force |= RM_FORCE.contains(&name);
            }
            options::Item::Unknown { .. } if w.starts_with("--") => return rm_long(w),
            _ => {}
        }
    }
    (recursive, force)
}

/// GNU rm's long options by unambiguous prefix: (recursive, force).
/// `--r…` can only be `--recursive` (the other `r` option is none), `--f…`
/// only `--force`.
pub(crate) fn rm_long(w: &str) -> (bool, bool) {
    let name = w[2..].split_once('=').map_or(&w[2..], |(n, _)| n);
    if name.is_empty() {
        return (false, false);
    }
    ("recursive".starts_with(name), "force".starts_with(name))
}

/// The root, lexically: `/` followed only by slashes and glob characters
/// (`/`, `//`, `/*`, `/?*`, `/**`, `//*`, `/[a-z]*`, and at any depth or
/// with a trailing slash: `/*/`, `/*/*`, `/?/`, `/**/`, `/*//`), `.`
/// and `..` components included (`/.`, `/./*`, `/../*`) → the built-in it
/// counts as.
/// Every component of such a word is empty, `.`, `..` or glob characters
/// only, so what it matches is the root or lies below it at any depth:
/// bash passes rm every top-level entry (or everything under them).
pub(crate) fn root_operand(w: &str) -> Option<&'static str> {
    if !w.starts_with('/') {
        return None;
    }
    let mut glob = false;
    for c in w.split('/') {
        match c {
            "" | "." | ".." => {}
            c if is_glob_only(c) => glob = true,
            _ => return None,
        }
    }
    Some(if glob {
        BUILTIN_DENY[1]
    } else {
        BUILTIN_DENY[0]
    })
}

/// A component made only of glob characters (`*`, `?`, `[…]`) and at least
/// one of them.
fn is_glob_only(c: &str) -> bool {
    let b = c.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'*' | b'?' => i += 1,
            b'[' => match b[i + 1..].iter().position(|&x| x == b']') {
                // `[]…]`: a `]` right after `[` is literal.
                Some(0) => match b[i + 2..].iter().position(|&x| x == b']') {
                    Some(e) => i += e + 3,
                    None => return false,
                },
                Some(e) => i += e + 2,
                None => return false,
            },
            _ => return false,
        }
    }
    !b.is_empty()
}

/// Does this run start with an external-effect entry (SPEC §6.1)? All its
/// words known.
pub fn external_effect(words: &[Cow<'_, str>]) -> Option<&'static [&'static str]> {
    external_effect_known(words, &[])
}

/// Word shapes: per first byte, bit `n` set when some word of a table has
/// that first byte and length `n` (lengths from 31 share bit 31); then the
/// same per mix of first and last byte ([`ends`]). Built at compile time from the table itself, it
/// tells in a few loads that a word is none of the table's (most verbs,
/// for every run of every decision: `echo` has the first byte and length
/// of `entr`, not its ends), before any string compare; a word it
/// lets through is then compared exactly.
pub(crate) type Shapes = [u32; 512];

/// Adds `w`'s shape to `t` (for the `const` tables).
pub(crate) const fn mark_shape(t: &mut Shapes, w: &str) {
    let b = w.as_bytes();
    if !b.is_empty() {
        mark_shape_of(t, b[0], b[b.len() - 1], b.len());
    }
}

/// Adds the shape of a word of `len` bytes from `first` to `last` to `t`
/// (a word the table holds by its parts: another case of a name).
pub(crate) const fn mark_shape_of(t: &mut Shapes, first: u8, last: u8, len: usize) {
    let n = if len > 31 { 31 } else { len };
    t[first as usize] |= 1 << n;
    t[256 + ends(first, last)] |= 1 << n;
}

/// A word's first and last bytes, mixed into one table index.
const fn ends(first: u8, last: u8) -> usize {
    (first.wrapping_mul(31) ^ last) as usize
}

/// May `w` be a word of the table `t` was built from?
pub(crate) fn has_shape(t: &Shapes, w: &str) -> bool {
    let b = w.as_bytes();
    let n = b.len().min(31);
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            t[usize::from(f)] >> n & 1 == 1 && t[256 + ends(f, l)] >> n & 1 == 1
        }
        _ => false,
    }
}

/// The verb gates [`wrappers`]' `push_run` asks of every run, as bits of
/// [`gates`]: bit `g` is [`has_shape`] of table `GATE_TABLES[g]`.
pub(crate) const GATE_CANONICAL: u16 = 1;
/// `listed::may_list`'s shapes.
pub(crate) const GATE_LISTED: u16 = 1 << 1;
/// [`code_options::may_run_code`]'s shapes.
pub(crate) const GATE_CODE: u16 = 1 << 2;
/// The shapes of the database clients' names (`sockets::DATABASE_SHAPES`:
/// may say yes for another).
pub(crate) const GATE_DATABASE: u16 = 1 << 3;
/// May the verb be [`PRIVILEGED`]?
pub(crate) const GATE_PRIVILEGED: u16 = 1 << 4;
/// The shapes of the verbs of [`CODE_FORMS`](catalogue::code::CODE_FORMS).
pub(crate) const GATE_CODE_FORMS: u16 = 1 << 5;
/// The runners' shapes (`npx`, `uv run`…).
pub(crate) const GATE_RUNNER: u16 = 1 << 6;
/// The shapes of the described programs with a `code` or `config` option
/// (`continuations::code_word`'s).
pub(crate) const GATE_CODE_KIND: u16 = 1 << 7;

/// The tables of the gates, in bit order.
const GATE_TABLES: [&Shapes; 8] = [
    &CANONICAL_TOOLS,
    &listed::LISTED_SHAPES,
    &code_options::SHAPES,
    &sockets::DATABASE_SHAPES,
    &PRIVILEGED_SHAPES,
    &wrappers::CODE_FORM_SHAPES,
    &wrappers::RUNNER_SHAPES,
    &continuations::CODE_KIND_SHAPES,
];

/// Every gate's half of a [`Shapes`] table from `base` (0: by first byte,
/// 256: by [`ends`]), by index and length: the gates whose bit `n` is set
/// at that index.
const fn gate_table(base: usize) -> [[u16; 32]; 256] {
    let mut t = [[0u16; 32]; 256];
    let mut g = 0;
    while g < GATE_TABLES.len() {
        let mut i = 0;
        while i < 256 {
            let bits = GATE_TABLES[g][base + i];
            let mut n = 0;
            while n < 32 {
                if bits >> n & 1 == 1 {
                    t[i][n] |= 1 << g;
                }
                n += 1;
            }
            i += 1;
        }
        g += 1;
    }
    t
}

/// [`gate_table`] by first byte.
static GATES_BY_FIRST: [[u16; 32]; 256] = gate_table(0);

/// [`gate_table`] by [`ends`].
static GATES_BY_ENDS: [[u16; 32]; 256] = gate_table(256);

/// Every gate of `verb` at once: bit `g` is `has_shape(GATE_TABLES[g],
/// verb)`. Two loads for the seven gates a run asks (seven
/// [`has_shape`] before: ~50 instructions a run).
pub(crate) fn gates(verb: &str) -> u16 {
    let b = verb.as_bytes();
    let n = b.len().min(31);
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => GATES_BY_FIRST[usize::from(f)][n] & GATES_BY_ENDS[ends(f, l)][n],
        _ => 0,
    }
}

/// The shapes of the [`EXTERNAL_EFFECT`] tools' names and of
/// [`EXTERNAL_READ_BY_WORDS`].
const EXTERNAL_TOOLS: Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < EXTERNAL_EFFECT.len() {
        mark_shape(&mut t, EXTERNAL_EFFECT[i][0]);
        i += 1;
    }
    let mut i = 0;
    while i < EXTERNAL_READ_BY_WORDS.len() {
        mark_shape(&mut t, EXTERNAL_READ_BY_WORDS[i]);
        i += 1;
    }
    t
};

/// How many programs [`BY_WORDS`] names.
const BY_WORDS_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < BY_WORDS.len() {
        n += BY_WORDS[i].0.len();
        i += 1;
    }
    n
};

/// Every program of [`BY_WORDS`], built from the rows (the analyzer lists
/// them).
pub const EXTERNAL_READ_BY_WORDS: [&str; BY_WORDS_COUNT] = {
    let mut t = [""; BY_WORDS_COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < BY_WORDS.len() {
        let mut j = 0;
        while j < BY_WORDS[i].0.len() {
            t[n] = BY_WORDS[i].0[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    t
};

/// The shapes of [`EXTERNAL_READ_BY_WORDS`].
const READ_BY_WORDS_SHAPES: Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < EXTERNAL_READ_BY_WORDS.len() {
        mark_shape(&mut t, EXTERNAL_READ_BY_WORDS[i]);
        i += 1;
    }
    t
};

/// Tools whose canonical form (SPEC §4.3 round 3) differs from their
/// words: they take global options before the subcommand, or aliases, or
/// unique prefixes. Asked of a verb that passed [`GATE_CANONICAL`] (the
/// shapes of [`CANONICAL_TOOLS`]): any other verb was stopped before.
pub(crate) fn canonical_tool(verb: &str) -> bool {
    OPTION_GRAMMAR.iter().any(|g| quick_eq(g.0, verb))
        || SUBCOMMAND_ALIASES.iter().any(|a| quick_eq(a.0, verb))
        || PREFIX_TOOLS.iter().any(|p| quick_eq(p.0, verb))
}

/// The shapes of the tools [`canonical_tool`] names, derived from
/// their tables.
const CANONICAL_TOOLS: Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < OPTION_GRAMMAR.len() {
        mark_shape(&mut t, OPTION_GRAMMAR[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < SUBCOMMAND_ALIASES.len() {
        mark_shape(&mut t, SUBCOMMAND_ALIASES[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < PREFIX_TOOLS.len() {
        mark_shape(&mut t, PREFIX_TOOLS[i].0);
        i += 1;
    }
    t
};

/// The canonical forms of a run's words (SPEC §4.3 round 3), for deny and
/// ask: the tool's options before its subcommand skipped (an option of
/// unknown arity read both ways), `helm del` read as `helm uninstall`,
/// `gh pr new` as `gh pr create`, `npm pub` as `npm publish`. Empty when
/// the words are already canonical; at most a few forms.
#[allow(clippy::type_complexity)]
pub(crate) fn canonical_forms<'a>(
    words: &[Cow<'a, str>],
    known: &[Known],
) -> Vec<(Vec<Cow<'a, str>>, Vec<Known>)> {
    let Some(tool) = words.first() else {
        return Vec::new();
    };
    let k = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    // Most runs are canonical already (`git status`, `npm test`): no
    // option before the subcommand, no alias, no prefix to resolve.
    // Answered without building anything.
    let option_at = |i: usize| words.get(i).is_some_and(|w| w.starts_with('-'));
    let aliases = tool_aliases(tool);
    let aliased = |i: usize| {
        !aliases.is_empty()
            && words
                .get(i)
                .is_some_and(|w| aliases.iter().any(|&(_, a, _)| quick_eq(a, w)))
    };
    let tree = SUBCOMMAND_TREES.contains(&tool.as_str());
    let prefixed = PREFIX_TOOLS.iter().any(|p| quick_eq(p.0, tool))
        && words.get(1).is_some_and(|w| {
            tool_entries(tool).iter().any(|e| {
                e.get(1)
                    .is_some_and(|t| t.len() > w.len() && quick_prefix(t, w))
            })
        });
    // A subcommand in capitals: `git PUSH` runs git's `git-push` program
    // on a file system that ignores case.
    let upper = |i: usize| words.get(i).is_some_and(|w| wrappers::has_upper(w));
    if !option_at(1)
        && !aliased(1)
        && !prefixed
        && !upper(1)
        && !(tree && (option_at(2) || aliased(2) || upper(2)))
    {
        return Vec::new();
    }
    let grammar = option_grammar(tool);
    let done = subcommand_starts(words, known, grammar);
    let mut out: Vec<(Vec<Cow<'a, str>>, Vec<Known>)> = Vec::new();
    for s in done {
        let s = s.min(words.len());
        let mut w: Vec<Cow<'a, str>> = std::iter::once(tool.clone())
            .chain(words[s..].iter().cloned())
            .collect();
        let mut kn: Vec<Known> = std::iter::once(Known::Exact)
            .chain((s..words.len()).map(k))
            .collect();
        if SUBCOMMAND_TREES.contains(&tool.as_str()) {
            // Persistent options of the subcommand tree (`gh pr -R o/r
            // create`): read past before the second subcommand word.
            let mut j = 2;
            while w.get(j).is_some_and(|x| x.starts_with('-') && x != "--") && kn[j] == Known::Exact
            {
                j += option_arity(grammar, &w, j).unwrap_or(1);
            }
            let j = j.min(w.len());
            if j > 2 {
                w.drain(2..j);
                kn.drain(2..j);
            }
        }
        for j in 1..w.len().min(3) {
            if kn[j] == Known::Exact {
                if wrappers::has_upper(&w[j]) {
                    w[j] = Cow::Owned(w[j].to_ascii_lowercase());
                }
                if let Some(c) = resolve_subcommand(tool, &w[j], j == 1) {
                    w[j] = Cow::Owned(c);
                }
            }
        }
        if kn.len() != w.len() {
            kn.resize(w.len(), Known::Exact);
        }
        if w.as_slice() != words && !out.iter().any(|(o, _)| *o == w) {
            out.push((w, kn));
        }
    }
    out
}

/// Where a tool's subcommand may start in `words`: past the options
/// before it, both readings of an option of unknown arity (at most a few).
fn subcommand_starts(
    words: &[Cow<'_, str>],
    known: &[Known],
    grammar: options::Grammar<'_>,
) -> Vec<usize> {
    let k = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    let mut starts = vec![1usize];
    let mut done = Vec::new();
    while let Some(i) = starts.pop() {
        match words.get(i) {
            Some(w) if !k(i).is_unknown() && w.starts_with('-') && w != "-" && w != "--" => {
                if let Some(n) = option_arity(grammar, words, i) {
                    starts.push(i + n);
                } else if done.len() + starts.len() < 4 {
                    starts.push(i + 1);
                    starts.push(i + 2);
                } else {
                    done.push(i + 1);
                }
            }
            Some(w) if w == "--" && !k(i).is_unknown() => done.push(i + 1),
            _ => done.push(i),
        }
    }
    done
}

/// A subcommand word's canonical spelling: its alias's command, or (first
/// word only) the one table word it is a unique prefix of.
fn resolve_subcommand(tool: &str, w: &str, first: bool) -> Option<String> {
    if let Some(&(_, _, c)) = tool_aliases(tool).iter().find(|&&(_, a, _)| a == w) {
        return Some(c.to_string());
    }
    let (_, not) = PREFIX_TOOLS.iter().find(|p| quick_eq(p.0, tool))?;
    if !first || w.is_empty() || not.contains(&w) {
        return None;
    }
    // A prefix of exactly one of the tool's table words.
    let mut hits = tool_entries(tool)
        .iter()
        .filter_map(|e| e.get(1))
        .filter(|t| t.starts_with(w) && **t != w);
    let hit = hits.next()?;
    hits.all(|t| t == hit).then(|| (*hit).to_string())
}

/// A tool's row of [`OPTION_GRAMMAR`] as the option reader reads it: each
/// option the whole word the row spells (a valued one also as
/// `--name=value`).
fn option_grammar(tool: &str) -> options::Grammar<'static> {
    let (valued, flags) = OPTION_GRAMMAR
        .iter()
        .find(|g| quick_eq(g.0, tool))
        .map_or((&[][..], &[][..]), |g| (g.1, g.2));
    options::Grammar {
        valued_words: valued,
        flag_words: flags,
        ..options::Grammar::new(options::Mode::Gnu)
    }
}

/// How many words the option word at `i` takes by `grammar`: 1 (a flag,
/// a value attached or after `=`) or 2 (its value the next word); `None`
/// when the grammar does not know it: both readings (fail closed).
fn option_arity(grammar: options::Grammar<'_>, words: &[Cow<'_, str>], i: usize) -> Option<usize> {
    match options::read(grammar, words, i).next()? {
        options::Item::Valued {
            value: options::Value::Next(_),
            ..
        } => Some(2),
        options::Item::Flag { .. } | options::Item::Valued { .. } => Some(1),
        _ if words[i].contains('=') => Some(1),
        _ => None,
    }
}

/// How one tool's option words are read when matching its entries.
struct EntryMatch<'a> {
    tool: &'a str,
    words: &'a [Cow<'a, str>],
    known: &'a [Known],
    /// The tool's rows of [`SUBCOMMAND_ALIASES`] (most have none: no
    /// scan of them for each word).
    aliases: &'static [(&'static str, &'static str, &'static str)],
}

impl EntryMatch<'_> {
    fn k(&self, i: usize) -> Known {
        self.known.get(i).copied().unwrap_or(Known::Exact)
    }

    /// Does word `w` stand for the entry's word `t` (itself, an alias, or,
    /// first after the tool, a unique prefix the tool resolves)?
    fn same_word(&self, w: &str, t: &str, first: bool) -> bool {
        w == t
            || self.aliases.iter().any(|&(_, a, c)| c == t && a == w)
            || (first
                && !w.is_empty()
                && t.starts_with(w)
                && PREFIX_TOOLS
                    .iter()
                    .any(|&(tool, not)| tool == self.tool && !not.contains(&w)))
    }

    /// Do the words from `i` hold the entry's tokens `e[j..]`, options
    /// read past where the tool takes them? `budget` bounds the readings
    /// of options of unknown arity (past it, a match: fail closed).
    fn holds(&self, i: usize, e: &[&str], j: usize, budget: &mut u32) -> bool {
        let Some(&t) = e.get(j) else { return true };
        if *budget == 0 {
            return true;
        }
        *budget -= 1;
        if t.starts_with('-') {
            // An option token: anywhere after (or a word that may be it),
            // a short one also in a cluster; the entry's later tokens
            // from the same place (`screen -d -m`).
            return (i..self.words.len()).any(|k| {
                let w = &self.words[k];
                self.k(k).is_unknown()
                    || (self.k(k) == Known::Glob && glob::glob_matches(w, t))
                    || w == t
                    || w.strip_prefix(t).is_some_and(|r| r.starts_with('='))
                    || later::in_cluster(self.tool, w, t)
                    // `--location=global` also as two words (npm's nopt,
                    // getopt: a valued option's value may be the next
                    // word; where it may not, a match only asks more).
                    || t.split_once('=').is_some_and(|(name, value)| {
                        w == name && self.words.get(k + 1).is_some_and(|v| v == value)
                    })
            }) && self.holds(i, e, j + 1, budget);
        }
        let mut i = i;
        loop {
            let Some(w) = self.words.get(i) else {
                return false;
            };
            match self.k(i) {
                Known::AnyTokens => return true,
                // Possibly the entry's word, or possibly an option.
                Known::OneToken => {
                    return self.holds(i + 1, e, j + 1, budget) || self.holds(i + 1, e, j, budget)
                }
                // Nothing (it may vanish) or options, or a run of the
                // entry's words each matching it (SPEC §4.4 item 4).
                Known::Glob => {
                    if self.holds(i + 1, e, j, budget) {
                        return true;
                    }
                    let g = glob::Glob::new(w);
                    let mut jj = j;
                    while e.get(jj).is_some_and(|t| g.matches(t)) {
                        jj += 1;
                        if self.holds(i + 1, e, jj, budget) {
                            return true;
                        }
                    }
                    return false;
                }
                Known::Exact => {}
            }
            if w == "--" || !w.starts_with('-') || w == "-" {
                if w == "--" {
                    i += 1;
                    continue;
                }
                return self.same_word(w, t, j == 1) && self.holds(i + 1, e, j + 1, budget);
            }
            // The tool's grammar, looked up only for an option word.
            match option_arity(option_grammar(self.tool), self.words, i) {
                Some(n) => i += n,
                // Unknown arity: both readings.
                None => return self.holds(i + 1, e, j, budget) || self.holds(i + 2, e, j, budget),
            }
        }
    }
}

/// Where a tool's subcommand words start in a run's words: after the
/// verb, and after rustup's toolchain word (`cargo +nightly publish`,
/// [`TOOLCHAIN_WORD`]) where the tool takes one — for every table read
/// by subcommand (§6.1's external effects, and what runs later on the
/// host).
pub(crate) fn subcommand_from(words: &[Cow<'_, str>], known: &[Known]) -> usize {
    let toolchain = words
        .first()
        .is_some_and(|v| TOOLCHAIN_WORD.iter().any(|t| quick_eq(t, v)))
        && words.get(1).is_some_and(|w| w.starts_with('+'))
        && !known.get(1).is_some_and(|k| k.is_unknown());
    if toolchain {
        2
    } else {
        1
    }
}

/// [`external_effect`] with unknown words (SPEC §4.4): an unknown word is
/// possibly any one token, an unquoted one any run of tokens, and a match
/// that holds through them counts (a possible ceiling acts as a match). An
/// unknown verb is not read (step 7c covers it). Each entry is found under
/// every spelling of SPEC §6.1 round 3: options anywhere, aliases, unique
/// prefixes ([`OPTION_GRAMMAR`], [`SUBCOMMAND_ALIASES`], [`PREFIX_TOOLS`]).
pub fn external_effect_known(
    words: &[Cow<'_, str>],
    known: &[Known],
) -> Option<&'static [&'static str]> {
    let k = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    let verb = words.first()?;
    if k(0).is_unknown() {
        return None;
    }
    if !has_shape(&EXTERNAL_TOOLS, verb) {
        return None;
    }
    // The table holds each tool's entries together (a unit test checks):
    // found once, the rest compares only the tool's own.
    let tool = tool_entries(verb);
    let by_words = || {
        has_shape(&READ_BY_WORDS_SHAPES, verb) && EXTERNAL_READ_BY_WORDS.contains(&verb.as_str())
    };
    if tool.is_empty() && !by_words() {
        return None;
    }
    let first = subcommand_from(words, known);
    let m = EntryMatch {
        tool: verb,
        words,
        known,
        aliases: tool_aliases(verb),
    };
    // Most lines are all exact words of a tool that resolves neither
    // aliases nor prefixes: then an entry whose subcommand word is not
    // among the words cannot hold (`git status` against git's entries).
    let literal = m.aliases.is_empty()
        && known.iter().all(|k| *k == Known::Exact)
        && !PREFIX_TOOLS.iter().any(|p| quick_eq(p.0, verb));
    let rest = words.get(first..).unwrap_or_default();
    if let Some(e) = tool.iter().copied().find(|e| {
        if literal
            && e.get(1)
                .is_some_and(|t| !t.starts_with('-') && !rest.iter().any(|w| quick_eq(w, t)))
        {
            return false;
        }
        // Each entry's readings are bounded on their own.
        let mut budget = 64;
        m.holds(first, e, 1, &mut budget)
    }) {
        return Some(e);
    }
    if by_words() {
        return external_by_words(verb, words, &k);
    }
    None
}

/// The words from `from` on that are not options, with their indices (a
/// value-taking option's value is read as one: fail closed).
fn positionals<'w>(
    words: &'w [Cow<'_, str>],
    from: usize,
) -> impl Iterator<Item = (usize, &'w Cow<'w, str>)> {
    words
        .iter()
        .enumerate()
        .skip(from)
        .filter(|(_, w)| !w.starts_with('-'))
}

/// `gh api` that writes (SPEC §6.1): the subcommand is the first word
/// after gh's options (`-R o/r` takes a value).
fn gh_external(
    words: &[Cow<'_, str>],
    k: &dyn Fn(usize) -> Known,
) -> Option<&'static [&'static str]> {
    let mut i = 1;
    while words
        .get(i)
        .is_some_and(|w| w.starts_with('-') && !k(i).is_unknown())
    {
        let w = &words[i];
        let valued = catalogue::effects::GH_VALUED_OPTIONS.contains(&w.as_str());
        i += if valued { 2 } else { 1 };
    }
    words.get(i)?;
    let api = words[i] == GH_API_WRITE[1] && !k(i).is_unknown();
    if !api && !k(i).is_unknown() {
        return None;
    }
    let from = if api { i + 1 } else { i };
    gh_api_writes(&words[from..], |j| k(j + from)).then_some(GH_API_WRITE)
}

/// `ssh HOST …` connects (SPEC §6.1); `ssh -V` and `ssh -G` do not.
fn ssh_external(
    words: &[Cow<'_, str>],
    k: &dyn Fn(usize) -> Known,
) -> Option<&'static [&'static str]> {
    const VALUED: &str = "BbcDEeFIiJLlmOoPpQRSWw";
    let mut i = 1;
    while let Some(w) = words.get(i) {
        if k(i).is_unknown() {
            return Some(SSH_REMOTE);
        }
        if w == "--" {
            i += 1;
            break;
        }
        let Some(cluster) = w.strip_prefix('-') else {
            break;
        };
        for (p, c) in cluster.char_indices() {
            if c == 'V' || c == 'G' {
                // `ssh -V` prints its version, `ssh -G` its
                // configuration: neither connects.
                return None;
            }
            if VALUED.contains(c) {
                if p + 1 == cluster.len() {
                    i += 1;
                }
                break;
            }
        }
        i += 1;
    }
    words.get(i).map(|_| SSH_REMOTE)
}

/// [`EXTERNAL_READ_BY_WORDS`]: `gh api` that writes; docker or podman
/// with a remote daemon (`-H`, `--host`, `--context`); `ssh HOST …` (not
/// `-V`, `-G`); scp, sftp or rsync with a remote operand; a cloud CLI's
/// verb that is not a read; `python -m twine upload`.
#[inline(never)]
fn external_by_words(
    verb: &str,
    words: &[Cow<'_, str>],
    k: &dyn Fn(usize) -> Known,
) -> Option<&'static [&'static str]> {
    let (_, how) = BY_WORDS
        .iter()
        .find(|(names, _)| names.iter().any(|n| quick_eq(n, verb)))?;
    let unknown = (1..words.len()).any(|i| k(i).is_unknown());
    match *how {
        ByWords::GhApi => gh_external(words, k),
        ByWords::RemoteDaemon => {
            let remote = leading_options(words).any(|w| {
                let name = w.split_once('=').map_or(w, |(n, _)| n);
                REMOTE_DAEMON_OPTIONS.contains(&name)
                    || (w.starts_with("-H") && !w.starts_with("--"))
            });
            let pushed = || words[1..].iter().any(|w| registry_output(w));
            let (remote_name, push_name) = catalogue::effects::remote_daemon_names(verb);
            if remote {
                Some(remote_name)
            } else {
                pushed().then_some(push_name)
            }
        }
        ByWords::SshHost => ssh_external(words, k),
        ByWords::RemoteOperand { any } => {
            let remote = |w: &str| {
                w.contains("://") || w.find(':').is_some_and(|c| !w[..c].contains('/') && c > 0)
            };
            let found = unknown
                || positionals(words, 1).any(|(_, w)| remote(w))
                || (any && positionals(words, 1).next().is_some());
            found.then_some(COPY_REMOTE)
        }
        ByWords::RemoteArchive => {
            remote::tar_archive_remote(words, k).then_some(catalogue::effects::TAR_REMOTE)
        }
        ByWords::CloudVerb => cloud_external(words, unknown),
        ByWords::Words { words: w, named } => {
            let rest = words.get(1..)?;
            (rest.len() >= w.len() && rest.iter().zip(w).all(|(a, b)| a == b)).then_some(named)
        }
    }
}

/// Does word `w` send a build's output to a registry ([`REGISTRY_TYPE`],
/// [`PUSH_KEY`])? Only the words of a container client's run are asked.
fn registry_output(w: &str) -> bool {
    w.split(',').any(|part| {
        let part = part.to_ascii_lowercase();
        part.ends_with(REGISTRY_TYPE)
            || part
                .rfind(PUSH_KEY)
                .is_some_and(|at| !PUSH_FALSE.contains(&&part[at + PUSH_KEY.len()..]))
    })
}

/// The option words before a program's subcommand, its values read past:
/// an option without `=` may take the next word (fail closed: `docker
/// --log-level debug -H tcp://h ps` reaches `-H`).
fn leading_options<'w>(words: &'w [Cow<'_, str>]) -> impl Iterator<Item = &'w str> {
    let mut i = 1;
    std::iter::from_fn(move || {
        let w = words.get(i).filter(|w| w.starts_with('-'))?;
        i += 1;
        if !w.contains('=') && words.get(i).is_some_and(|v| !v.starts_with('-')) {
            i += 1;
        }
        Some(w.as_str())
    })
}

/// A cloud CLI's verb that is not a read ([`ByWords::CloudVerb`]).
fn cloud_external(words: &[Cow<'_, str>], unknown: bool) -> Option<&'static [&'static str]> {
    if unknown {
        return Some(CLOUD_WRITE);
    }
    let read = |w: &str| {
        CLOUD_READ_PREFIXES.iter().any(|r| w.starts_with(r)) || CLOUD_READ_VERBS.contains(&w)
    };
    let mut any = false;
    for (i, w) in positionals(words, 1).take(4) {
        any = true;
        // A word right after an option may be its value.
        let maybe_value = words[i - 1].starts_with('-') && !words[i - 1].contains('=');
        if read(w) && !maybe_value {
            return None;
        }
    }
    any.then_some(CLOUD_WRITE)
}

/// The [`EXTERNAL_EFFECT`] entries of one tool: a run of the table, found
/// among the tools' runs ([`TOOL_RUNS`]), not by comparing every entry.
fn tool_entries(verb: &str) -> &'static [&'static [&'static str]] {
    TOOL_INDEX.find(verb, |i| TOOL_RUNS[i].0).map_or(&[], |t| {
        let (_, from, len) = TOOL_RUNS[t];
        &EXTERNAL_EFFECT[from..from + len]
    })
}

/// [`TOOL_RUNS`] by name: one probe (a scan compared up to 60 names).
const TOOL_INDEX: name_index::NameIndex = {
    let mut names = [""; TOOL_COUNT];
    let mut i = 0;
    while i < TOOL_COUNT {
        names[i] = TOOL_RUNS[i].0;
        i += 1;
    }
    name_index::NameIndex::new(&names)
};

/// `a == b`, the length and the first byte compared before the bytes
/// (most table words differ there: no call to compare them).
#[inline]
pub(crate) fn quick_eq(a: &str, b: &str) -> bool {
    // Table words are short: compared byte by byte, inline, not by a call
    // to `memcmp` (its call and setup cost more than the bytes).
    a.len() == b.len() && quick_prefix(a, b)
}

/// Does `t` start with `w`? Byte by byte, inline (see [`quick_eq`]).
#[inline]
pub(crate) fn quick_prefix(t: &str, w: &str) -> bool {
    let (t, w) = (t.as_bytes(), w.as_bytes());
    t.len() >= w.len() && {
        let mut i = 0;
        while i < w.len() && t[i] == w[i] {
            i += 1;
        }
        i == w.len()
    }
}

/// A tool's rows of [`SUBCOMMAND_ALIASES`] (one run of the table: the
/// build fails otherwise), empty for most tools.
fn tool_aliases(tool: &str) -> &'static [(&'static str, &'static str, &'static str)] {
    ALIAS_RUNS
        .iter()
        .find(|r| quick_eq(r.0, tool))
        .map_or(&[], |&(_, from, len)| &SUBCOMMAND_ALIASES[from..from + len])
}

/// The tools of [`SUBCOMMAND_ALIASES`], a row each.
const ALIAS_KEYS: [&str; SUBCOMMAND_ALIASES.len()] = {
    let mut k = [""; SUBCOMMAND_ALIASES.len()];
    let mut i = 0;
    while i < k.len() {
        k[i] = SUBCOMMAND_ALIASES[i].0;
        i += 1;
    }
    k
};

/// Each tool's run of [`SUBCOMMAND_ALIASES`]: (tool, first row, rows).
const ALIAS_RUNS: [(&str, usize, usize); run_count(&ALIAS_KEYS)] = runs(&ALIAS_KEYS);

/// The tools of [`EXTERNAL_EFFECT`], an entry each.
const TOOL_KEYS: [&str; EXTERNAL_EFFECT.len()] = {
    let mut k = [""; EXTERNAL_EFFECT.len()];
    let mut i = 0;
    while i < k.len() {
        k[i] = EXTERNAL_EFFECT[i][0];
        i += 1;
    }
    k
};

/// How many tools [`EXTERNAL_EFFECT`] holds.
const TOOL_COUNT: usize = run_count(&TOOL_KEYS);

/// Each tool's run of [`EXTERNAL_EFFECT`]: (tool, first entry, entries),
/// built from the table at compile time.
const TOOL_RUNS: [(&str, usize, usize); TOOL_COUNT] = runs(&TOOL_KEYS);

/// How many runs of equal names `keys` holds.
const fn run_count(keys: &[&str]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < keys.len() {
        if i == 0 || !const_eq(keys[i], keys[i - 1]) {
            n += 1;
        }
        i += 1;
    }
    n
}

/// Each name's run of `keys` (a table's rows grouped by tool): (name,
/// first row, rows). A tool's rows are one run: a second run of them
/// would never be found, so the build fails instead.
const fn runs<const N: usize>(keys: &[&'static str]) -> [(&'static str, usize, usize); N] {
    let mut t = [("", 0, 0); N];
    let mut n = 0;
    let mut i = 0;
    while i < keys.len() {
        if i == 0 || !const_eq(keys[i], keys[i - 1]) {
            let mut k = 0;
            while k < n {
                assert!(
                    !const_eq(t[k].0, keys[i]),
                    "a tool's rows must be one run of its table"
                );
                k += 1;
            }
            t[n] = (keys[i], i, 0);
            n += 1;
        }
        t[n - 1].2 += 1;
        i += 1;
    }
    t
}

/// `gh api` arguments that write: a method other than GET, fields or a
/// body; an unknown word may be any of them.
fn gh_api_writes(args: &[Cow<'_, str>], known: impl Fn(usize) -> Known) -> bool {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if known(i).is_unknown() {
            return true;
        }
        let method = if a == "-X" || a == "--method" {
            i += 1;
            if args.get(i).is_some() && known(i).is_unknown() {
                return true;
            }
            args.get(i).map(AsStr::as_str)
        } else if let Some(m) = a.strip_prefix("--method=") {
            Some(m)
        } else if a.starts_with("-X") && a.len() > 2 {
            Some(&a[2..])
        } else {
            None
        };
        if let Some(m) = method {
            if !m.eq_ignore_ascii_case("GET") {
                return true;
            }
        } else if a == "-f"
            || a == "-F"
            || (a.starts_with("-f") || a.starts_with("-F")) && !a.starts_with("--")
            || ["--field", "--raw-field", "--input"]
                .iter()
                .any(|o| a == o || a.starts_with(&format!("{o}=")))
        {
            return true;
        }
        i += 1;
    }
    false
}

/// Lexical normalization of an absolute path (SPEC §6.2): repeated slashes
/// fold, `.` drops, `..` pops (never above `/`), trailing slashes trim.
/// Linear time.
pub fn normalize(path: &str) -> String {
    // Most paths are already normal: one byte scan, one copy.
    if is_normal(path) {
        return path.to_string();
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    let mut out = String::with_capacity(path.len());
    for p in &parts {
        out.push('/');
        out.push_str(p);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// Does `path` name `/`, the root of the machine (normalized)? Without a
/// copy for a path that is already normal (most roots).
pub fn is_machine_root(path: &str) -> bool {
    if is_normal(path) {
        path == "/"
    } else {
        normalize(path) == "/"
    }
}

/// Is `path` what [`normalize`] would return for it: absolute, no empty,
/// `.` or `..` component, no trailing slash (except `/` itself)?
pub fn is_normal(path: &str) -> bool {
    let b = path.as_bytes();
    if b.first() != Some(&b'/') {
        return false;
    }
    // An empty, `.` or `..` component needs `//`, a trailing `/` or `/.`:
    // without them (most paths) one pass over the bytes decides.
    let suspect = b.last() == Some(&b'/') || slash_then_dot_or_slash(b);
    if b.len() == 1 || !suspect {
        return true;
    }
    let mut start = 1;
    for i in 1..=b.len() {
        if i == b.len() || b[i] == b'/' {
            let c = &b[start..i];
            if (c.is_empty() && b.len() > 1) || c == b"." || c == b".." {
                return false;
            }
            start = i + 1;
        }
    }
    true
}

/// Does `b` hold a `/` followed by `.` or `/`? Eight bytes at a time, the
/// words overlapping by one so a pair across two words is seen: every
/// scope check asks it of the cwd and the root (and most are 30 bytes and
/// more).
fn slash_then_dot_or_slash(b: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HI: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of `x` equal to `c`, exactly (no carry
    // crosses a byte: `(y & 0x7f) + 0x7f` is at most 0xfe).
    let eq = |x: u64, c: u8| {
        let y = x ^ (LO * u64::from(c));
        !(((y & LOW7) + LOW7) | y) & HI
    };
    let mut i = 0;
    while i + 8 <= b.len() {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[i..i + 8]);
        let x = u64::from_le_bytes(w);
        let slash = eq(x, b'/');
        // Byte k is a `/` and byte k + 1 a `.` or `/` (little-endian:
        // byte k + 1's bit, shifted down one byte).
        if slash & ((eq(x, b'.') | slash) >> 8) != 0 {
            return true;
        }
        i += 7;
    }
    b[i..]
        .windows(2)
        .any(|w| w[0] == b'/' && matches!(w[1], b'.' | b'/'))
}

/// Joins a relative path to a directory and normalizes.
pub fn resolve(dir: &str, word: &str) -> String {
    if word.starts_with('/') {
        normalize(word)
    } else {
        let mut s = String::with_capacity(dir.len() + word.len() + 1);
        s.push_str(dir);
        s.push('/');
        s.push_str(word);
        normalize(&s)
    }
}

/// Where a command line runs (SPEC §6.2): what the scope needs of a
/// request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Place<'a> {
    /// The project scope root as given; `None`: no scope.
    pub root: Option<&'a str>,
    /// The working directory as given (absolute, or relative to the root).
    pub cwd: Option<&'a str>,
    /// Runs inside the container (a container or mounted mode with the
    /// container running): the roots are `/work` and `/tmp`.
    pub in_container: bool,
}

/// The scope of a terminal request (SPEC §6.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope<'a> {
    /// Normalized roots (a container's two are static text).
    pub roots: Cow<'a, [Cow<'a, str>]>,
    /// The (translated, normalized) cwd: borrowed from the request, or
    /// static, when nothing was resolved or translated.
    pub cwd: Cow<'a, str>,
}

impl<'a> Scope<'a> {
    /// The scope of a command line run at `place`; `None` without a
    /// project scope root.
    pub fn at(place: Place<'a>) -> Option<Scope<'a>> {
        let raw = place.root?;
        const ROOTS: &[Cow<'static, str>] = &[Cow::Borrowed("/work"), Cow::Borrowed("/tmp")];
        let in_container = place.in_container;
        if in_container && place.cwd.is_none_or(|c| c.is_empty() || c == raw) {
            // At the root, in a container: the cwd is the mount itself,
            // whatever the root's spelling (most requests).
            return Some(Scope {
                roots: Cow::Borrowed(ROOTS),
                cwd: Cow::Borrowed("/work"),
            });
        }
        // Borrowed when already normal (most roots): a container needs the
        // root only to translate the cwd.
        let root: Cow<'_, str> = if is_normal(raw) {
            raw.into()
        } else {
            normalize(raw).into()
        };
        let cwd: Cow<'_, str> = match place.cwd {
            None | Some("") => root.clone(),
            // Most requests run at the root or below it, written normal:
            // nothing to resolve or copy.
            Some(c) if c == raw => root.clone(),
            Some(c) if is_normal(c) => c.into(),
            Some(c) => resolve(&root, c).into(),
        };
        if in_container {
            let cwd: Cow<'a, str> = if cwd == root {
                Cow::Borrowed("/work")
            } else if root == "/" {
                ["/work", &cwd].concat().into()
            } else if let Some(rest) = cwd.strip_prefix(&*root).filter(|r| r.starts_with('/')) {
                ["/work", rest].concat().into()
            } else {
                cwd
            };
            Some(Scope {
                roots: Cow::Borrowed(ROOTS),
                cwd,
            })
        } else {
            Some(Scope {
                roots: Cow::Owned(vec![root]),
                cwd,
            })
        }
    }

    /// Is a normalized absolute path inside a root?
    pub fn contains(&self, path: &str) -> bool {
        self.roots.iter().any(|r| {
            path == r
                || r == "/"
                || (path.len() > r.len()
                    && path.starts_with(&**r)
                    && path.as_bytes()[r.len()] == b'/')
        })
    }
}

/// Are these `set` words (after `set`) only the safe options of SPEC §6.2
/// (round 3): `-e`, `-u`, `-x`, `-v`, `-E`, `-T` and their `+` forms,
/// clusters of them with at most one `o NAME` of [`SAFE_SET_NAMES`] at
/// the end (`set -euo pipefail`)? `set` alone only prints.
pub fn safe_set_args(args: &[Cow<'_, str>]) -> bool {
    options::read(SET_OPTIONS, args, 0).all(|item| match item {
        options::Item::Flag { .. } => true,
        // One `o NAME`, the cluster's last letter.
        options::Item::Valued { value, index, .. } => {
            let a = &args[index];
            a.ends_with('o')
                && a.bytes().filter(|&b| b == b'o').count() == 1
                && value
                    .text(args)
                    .is_some_and(|n| SAFE_SET_NAMES.contains(&n))
        }
        _ => false,
    })
}

/// Is the segment a `set` of safe options only (SPEC §6.2 round 3),
/// every word exact? Step 6 classifies it like `cd-in-scope`: it changes
/// only the shell's own options.
pub fn safe_set(words: &[Cow<'_, str>], known: &[Known]) -> bool {
    verb_index(words).is_some_and(|v| safe_set_at(words, known, v))
}

/// [`safe_set`] with the verb at `v` (from [`verb_index`]).
pub fn safe_set_at(words: &[Cow<'_, str>], known: &[Known], v: usize) -> bool {
    // The verb first, and the flow builtins by their shapes: most verbs
    // are neither, and leave without a scan of the words or of the rows
    // (~50 instructions an answer).
    let verb = &words[v];
    (verb == SET && known.iter().all(|k| *k == Known::Exact) && safe_set_args(&words[v + 1..]))
        || (has_shape(&FLOW_SHAPES, verb)
            && known[..=v].iter().all(|k| *k == Known::Exact)
            && flow_only(&words[v..], &known[v..]))
}

/// The shapes of [`catalogue::builtins::FLOW_BUILTINS`]' names.
const FLOW_SHAPES: Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < catalogue::builtins::FLOW_BUILTINS.len() {
        mark_shape(&mut t, catalogue::builtins::FLOW_BUILTINS[i].0);
        i += 1;
    }
    t
};

/// Is the segment a builtin that only changes the shell's flow (its words
/// name no place: `exit $?`)?
pub(crate) fn flow_segment(words: &[Cow<'_, str>], known: &[Known]) -> bool {
    !words.is_empty() && known[0] == Known::Exact && flow_only(words, known)
}

/// A builtin that only changes the shell's flow ([`catalogue::builtins::FLOW_BUILTINS`]):
/// `exit 1`, `exit $?`, `true`, `:`.
fn flow_only(words: &[Cow<'_, str>], known: &[Known]) -> bool {
    let Some((&(_, number), args)) = words.split_first().and_then(|(v, args)| {
        catalogue::builtins::FLOW_BUILTINS
            .iter()
            .find(|(n, _)| v == n)
            .map(|row| (row, args))
    }) else {
        return false;
    };
    match args {
        [] => true,
        [n] => {
            number
                && (n == "$?"
                    || (known.get(1) == Some(&Known::Exact)
                        && !n.is_empty()
                        && n.bytes().all(|b| b.is_ascii_digit())))
        }
        _ => false,
    }
}

/// The first verb word after assignments.
pub fn verb_index(words: &[Cow<'_, str>]) -> Option<usize> {
    words.iter().position(|w| !is_assignment(w))
}

/// The target of a `cd` segment: `None` when it has none (or `-`).
pub fn cd_target<'w>(words: &'w [Cow<'_, str>]) -> Option<Option<&'w str>> {
    cd_target_at(words, verb_index(words)?)
}

/// [`cd_target`] with the verb at `v` (from [`verb_index`]).
pub fn cd_target_at<'w>(words: &'w [Cow<'_, str>], v: usize) -> Option<Option<&'w str>> {
    if dir_move_of(&words[v]) != Some(DirMove::Cd) {
        return None;
    }
    let i = cd_operand(words, v + 1);
    Some(words.get(i).map(|w| &**w).filter(|t| *t != "-"))
}

/// Is this merge target protected (SPEC §5 step 7e [hardening], round 3)?
/// Its last `/`-separated component, after trimming blanks and trailing
/// slashes, is one of [`PROTECTED_BRANCHES`], ignoring case; a missing or
/// empty target counts as protected. So does any target that is not a
/// plain branch name ([`plain_branch`]): git reads it as a refspec or a
/// revision, or a later normalization may make it `main`.
pub fn protected_branch(target: Option<&str>) -> bool {
    let Some(t) = target else { return true };
    if !plain_branch(t) {
        return true;
    }
    let t = t.trim().trim_end_matches('/').trim();
    let last = t.rsplit('/').next().unwrap_or("").trim();
    last.is_empty()
        || last.eq_ignore_ascii_case("HEAD")
        || PROTECTED_BRANCHES
            .iter()
            .any(|p| p.eq_ignore_ascii_case(last))
}

/// A plain branch name (SPEC §5.3 7e, round 3): after trimming ASCII
/// blanks, only ASCII letters, digits and `._/-`; no leading `-` or `+`;
/// none of `..`, `@{`, `^`, `~`, `:` (the last three cannot pass the
/// first test; `@{` neither, `@` not being allowed).
pub fn plain_branch(t: &str) -> bool {
    let t = t.trim_matches(|c: char| c.is_ascii_whitespace());
    t.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'/' | b'-'))
        && !t.starts_with('-')
        && !t.starts_with('+')
        && !t.contains("..")
}

/// May this run be a built-in deny (SPEC §5.2) for some values of its
/// unknown words? Only when it holds an unknown word: `rm` (or an unknown
/// verb) with recursive, force and a root operand each given by a known
/// word or by an unknown one (one token inside double quotes gives one of
/// them, the options counting as one: `-rf`; an unquoted one gives all).
pub fn possible_builtin(words: &[Cow<'_, str>], known: &[Known]) -> bool {
    let k = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    if words.is_empty() || (0..words.len()).all(|i| k(i) == Known::Exact) {
        return false;
    }
    let rest_from = match k(0) {
        Known::AnyTokens => return true,
        Known::OneToken => 1,
        Known::Glob if glob::glob_matches(&words[0], BUILTIN_DENY_VERB) => 1,
        Known::Exact if words[0] == BUILTIN_DENY_VERB => 1,
        Known::Exact | Known::Glob => return false,
    };
    let (mut recursive, mut force, mut root) = (false, false, false);
    let (mut one, mut any) = (0usize, false);
    let mut options_done = false;
    for (i, w) in words.iter().enumerate().skip(rest_from) {
        match k(i) {
            Known::AnyTokens => any = true,
            Known::OneToken => one += 1,
            // A glob that may be an option may be `-rf` (`rm -r? /`); its
            // text may be a root operand (`/*`), never `/` itself.
            Known::Glob if !options_done && glob::glob_may_start(w, "-") => {
                recursive = true;
                force = true;
            }
            Known::Glob => root |= root_operand(w).is_some(),
            Known::Exact => {
                if !options_done && w == "--" {
                    options_done = true;
                } else if !options_done && is_option(w) {
                    let (r, f) = rm_option(w);
                    recursive |= r;
                    force |= f;
                } else {
                    root |= root_operand(w).is_some();
                }
            }
        }
    }
    if any {
        return true;
    }
    let needed = usize::from(!(recursive && force)) + usize::from(!root);
    needed <= one
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each bit of [`gates`] answers as [`has_shape`] of its table, for
    /// every first and last printable byte and every length.
    #[test]
    fn gates_answer_as_their_shapes() {
        for f in b' '..=b'~' {
            for l in b' '..=b'~' {
                for n in 1..=34 {
                    let mut w = vec![b'a'; n];
                    w[0] = f;
                    w[n - 1] = l;
                    let w = String::from_utf8(w).unwrap_or_default();
                    let g = gates(&w);
                    for (k, t) in GATE_TABLES.iter().enumerate() {
                        assert_eq!(g >> k & 1 == 1, has_shape(t, &w), "{w:?} gate {k}");
                    }
                }
            }
        }
        assert_eq!(gates(""), 0);
    }

    /// The variables' tables as `code_variable` and its gate in `fill`
    /// read them: an exact word is read only when it starts with a capital,
    /// `npm_` or `_`, so every name does, and a plain line without a
    /// capital or a `_` names none.
    #[test]
    fn variable_names_start_with_a_capital_or_npm() {
        let names = CODE_VARIABLES
            .iter()
            .chain(COMMAND_VARIABLES)
            .chain(SETTING_VARIABLES)
            .map(|v| v.0)
            .chain(VARIABLE_FAMILIES.iter().map(|v| v.0));
        for name in names {
            assert!(
                name.as_bytes()[0].is_ascii_uppercase()
                    || name.starts_with("npm_")
                    || name.starts_with('_'),
                "{name}"
            );
            assert!(
                name.bytes().any(|b| b.is_ascii_uppercase() || b == b'_'),
                "{name}"
            );
        }
        for line in ["npm_config_x=1 npm test", "A=1 make", "export PS4"] {
            let f = LineFacts::of(line);
            let gate = reader::HAS_UPPER | reader::HAS_UNDERSCORE;
            assert_ne!(f.absent & gate, gate, "{line}");
        }
    }

    #[test]
    fn possible_builtins() {
        for (cmd, want) in [
            ("rm -rf $X", true),
            ("rm -rf \"$X\"", true),
            ("rm -f \"$X\"", false),
            ("rm -f $X", true),
            ("rm $O /", true),
            ("rm \"$O\" /", true),
            ("rm \"$O\" x", false),
            ("\"$RM\" -rf /", true),
            ("\"$G\"", false),
            ("$G push", true),
            ("ls $X", false),
            ("rm -rf x", false),
        ] {
            let s = reader::read(cmd).segments.remove(0);
            let (w, k) = (s.words, s.known.to_vec());
            assert_eq!(possible_builtin(&w, &k), want, "{cmd}");
        }
    }

    fn w(s: &str) -> Vec<Cow<'_, str>> {
        s.split(' ').map(Cow::Borrowed).collect()
    }

    /// SPEC §6.2 round 3: `set`'s safe options, clusters with at most one
    /// `o NAME` at the end.
    #[test]
    fn safe_set_options() {
        for ok in [
            "-euo pipefail",
            "-Eeuo pipefail",
            "-ex",
            "+ex",
            "-e -u -o nounset",
            "-T",
        ] {
            assert!(safe_set_args(&w(ok)), "{ok}");
        }
        assert!(safe_set_args(&[]));
        for bad in [
            "-f",
            "--",
            "-- a",
            "-o posix",
            "-o",
            "-oo pipefail errexit",
            "-eo",
            "x",
            "-",
            "+o vi",
        ] {
            assert!(!safe_set_args(&w(bad)), "{bad}");
        }
    }

    /// SPEC §5.3 7e round 3: only a plain branch name may be unprotected.
    #[test]
    fn merge_targets() {
        for p in [
            "HEAD:main",
            "+x",
            "x..y",
            "HEAD",
            "a/HEAD",
            "-x",
            "x@{0}",
            "x~1",
            "x^",
            "ｍａｉｎ",
            "x\u{200b}",
            "",
        ] {
            assert!(protected_branch(Some(p)), "{p}");
        }
        for u in ["feature-x", "team/fix_1.2", " feature-x ", "headline"] {
            assert!(!protected_branch(Some(u)), "{u}");
        }
    }

    /// A deny still denies in an unparsed line (SPEC §4.3 round 3): the
    /// runs behind keywords and unplaced launchers are guesses, read by
    /// the built-ins but not by the ceilings' tables.
    #[test]
    fn guessed_runs_deny_only() {
        let f = LineFacts::of("unshare git push");
        assert!(f.unparsed);
        assert!(f.runs().any(|r| r.guessed && r.words == w("git push")));
        assert!(f.external_effect().is_none());
        assert!(LineFacts::of("numactl -C 0 rm -rf /")
            .builtin_deny()
            .is_some());
        assert!(LineFacts::of("numactl -C 0 echo rm -rf /")
            .builtin_deny()
            .is_none());
        // SPEC §4.2 round 4: an `if` is read, its body a segment for
        // every check, the ceilings included; a function body too, though
        // the line stays unparsed.
        let f = LineFacts::of("if true; then sudo git push; fi");
        assert!(!f.unparsed);
        assert!(f.privileged().is_some());
        let f = LineFacts::of("f() { git push; }");
        assert!(f.unparsed);
        assert!(f.external_effect().is_some());
        assert!(LineFacts::of("if true; then rm -rf /; fi")
            .builtin_deny()
            .is_some());
    }

    /// The reasons stay unique and in first-seen order on both sides of
    /// [`FEW_REASONS`] (a scan below it, a set above).
    #[test]
    fn unparsed_reasons_are_unique_in_order() {
        for n in [1, FEW_REASONS - 1, FEW_REASONS, FEW_REASONS + 1, 40] {
            let names: Vec<String> = (0..n).map(|i| format!("$a{i}")).collect();
            let once = names.join("; ");
            let thrice = format!("{once}; {once}; {once}");
            let f = LineFacts::of(&thrice);
            let one = LineFacts::of(&once);
            assert!(f.unparsed, "{n}");
            assert_eq!(f.unparsed_why().len(), n, "{n}: {:?}", f.unparsed_why());
            assert_eq!(f.unparsed_why(), one.unparsed_why(), "{n}");
            for (why, name) in f.unparsed_why().iter().zip(&names) {
                assert!(why.contains(&format!("`{name}`")), "{why}");
            }
        }
    }

    /// Each tool's run found by `tool_entries` is exactly the entries of
    /// the table naming it (so the table holds each tool's entries
    /// together), and a verb of no entry has none.
    #[test]
    fn tool_runs_hold_each_tools_entries() {
        for e in EXTERNAL_EFFECT {
            let all: Vec<_> = EXTERNAL_EFFECT.iter().filter(|f| f[0] == e[0]).collect();
            let run: Vec<_> = tool_entries(e[0]).iter().collect();
            assert_eq!(run, all, "{}", e[0]);
        }
        for v in ["gh", "ls", "", "gitx", "pnp"] {
            assert!(tool_entries(v).iter().all(|e| e[0] == v), "{v}");
        }
        assert!(tool_entries("ls").is_empty());
    }

    /// The tools' shapes let every tool of the table through, and stop
    /// the common verbs.
    #[test]
    fn the_external_tool_shapes_hold_every_tool() {
        for e in EXTERNAL_EFFECT {
            assert!(has_shape(&EXTERNAL_TOOLS, e[0]), "{}", e[0]);
        }
        assert!(has_shape(&EXTERNAL_TOOLS, GH_API_WRITE[0]));
        // Every variable's name passes the one-byte filter of `code_variable`.
        for (name, _) in CODE_VARIABLES.iter().chain(COMMAND_VARIABLES) {
            assert!(may_start_with_a_name(name.as_bytes()), "{name}");
        }
        // Each tool's entries are one run of the table (`tool_entries`).
        for e in EXTERNAL_EFFECT {
            let all: Vec<_> = EXTERNAL_EFFECT.iter().filter(|x| x[0] == e[0]).collect();
            let run: Vec<_> = tool_entries(e[0]).iter().collect();
            assert_eq!(all, run, "{}", e[0]);
        }
        // (`grep` has `glab`'s shape: a word let through is compared.)
        for w in ["ls", "cat", "", "bash", "sudo", "env", "echo", "make"] {
            assert!(!has_shape(&EXTERNAL_TOOLS, w), "{w}");
        }
    }

    /// SPEC §4.2's assignment word (`NAME=…`, `NAME+=…`, `NAME[…]=…`), read
    /// literally: the oracle of the one-pass `is_assignment`.
    fn is_assignment_literal(word: &str) -> bool {
        // NAME, then `[` to its matching `]` (SPEC §4.1 round 3, as bash's
        // parse_matched_pair reads it), then `=` or `+=`.
        let name: String = word
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return false;
        }
        let mut rest = &word[name.len()..];
        if rest.starts_with('[') {
            let mut depth = 0;
            let mut close = None;
            for (i, c) in rest.char_indices() {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            let Some(close) = close else { return false };
            rest = &rest[close + 1..];
        }
        rest.starts_with('=') || rest.starts_with("+=")
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        #[test]
        fn is_assignment_reads_like_the_literal_rule(w in "[a-zA-Z_0-9=+\\[\\]\\-/. é]{0,8}") {
            proptest::prop_assert_eq!(is_assignment(&w), is_assignment_literal(&w), "{:?}", w);
        }
    }

    #[test]
    fn a_quoted_glob_verb_is_unparsed_only_behind_a_wrapper() {
        // Quoted, bash does not expand it in the first word (SPEC §4.2);
        // behind a wrapper the wrapper's exec sees the word as text, but
        // permc reads §4.3 literally: a glob verb found there is unparsed.
        // A `/` in the verb changes neither (it only names the verb by its
        // last component).
        for cmd in ["'/usr/bin/l[s]' x", "'l[s]' x"] {
            let f = LineFacts::of(cmd);
            assert!(!f.unparsed, "{cmd}: {:?}", f.unparsed_reasons());
        }
        for cmd in ["env '/usr/bin/l[s]' x", "env 'l[s]' x"] {
            assert!(LineFacts::of(cmd).unparsed, "{cmd}");
        }
    }

    #[test]
    fn wrappers_are_read_past() {
        let f = LineFacts::of("sudo -u root env A=1 timeout -s KILL 5 /usr/bin/git -C /tmp push");
        let r = f.runs().next().expect("a run");
        assert_eq!(r.words, w("git -C /tmp push"));
        assert!(r.privileged);
        assert_eq!(f.external_effect(), Some(&["git", "push"][..]));
        let f = LineFacts::of("bash -lc 'rm -rf /'");
        assert_eq!(f.builtin_deny(), Some("Terminal(rm -rf /)"));
        let f = LineFacts::of("find . | xargs -n 1 rm -fr /*");
        assert_eq!(f.builtin_deny(), Some("Terminal(rm -rf /*)"));
        assert!(LineFacts::of("eval git push").external_effect().is_some());
        assert!(LineFacts::of("env -S 'git push'")
            .external_effect()
            .is_some());
    }

    #[test]
    fn builtins() {
        for c in [
            "rm -rf /",
            "rm -fr /",
            "rm -r -f /",
            "rm --recursive --force /*",
            "rm -Rfi /",
            "rm / -rf",
            "rm -rf -- /",
            "rm -rf //",
            "rm -rf /*/",
            "rm -rf /*/*",
            "rm -rf /?/",
            "rm -rf //*/",
            "rm -rf /**/",
            "rm -rf /*//",
            "rm -fr /*/",
            "rm -rf /[a-z]*/*",
        ] {
            assert!(builtin_deny(&w(c)).is_some(), "{c}");
        }
        for c in [
            "rm -rf /home",
            "rm -r /",
            "rm -f /",
            "rm -rf ./",
            "rmdir -rf /",
            "rm -rf /*/x",
            "rm -rf /home/*",
            "rm -rf /.*",
            "rm -rf /*/../x",
        ] {
            assert!(builtin_deny(&w(c)).is_none(), "{c}");
        }
    }

    #[test]
    fn external() {
        for c in [
            "git push",
            "git -C x push origin",
            "git --no-pager -c a=b push",
            "kubectl -n prod apply -f x",
            "gh -R o/r pr create",
            "git remote add o u",
        ] {
            assert!(external_effect(&w(c)).is_some(), "{c}");
        }
        for c in ["git status", "git remote -v", "gh pr list", "git log push"] {
            assert!(external_effect(&w(c)).is_none(), "{c}");
        }
    }

    #[test]
    fn normalization_fast_path_agrees() {
        // Every string up to 7 bytes over `/`, `.`, `a`: the fast path must
        // return exactly what the component walk returns.
        fn slow(path: &str) -> String {
            let mut parts: Vec<&str> = Vec::new();
            for c in path.split('/') {
                match c {
                    "" | "." => {}
                    ".." => {
                        parts.pop();
                    }
                    c => parts.push(c),
                }
            }
            let out: String = parts.iter().map(|p| format!("/{p}")).collect();
            if out.is_empty() {
                "/".into()
            } else {
                out
            }
        }
        let mut layer = vec![String::new()];
        for _ in 0..7 {
            let mut next = Vec::new();
            for s in &layer {
                for c in ['/', '.', 'a'] {
                    let t = format!("{s}{c}");
                    assert_eq!(normalize(&t), slow(&t), "{t:?}");
                    next.push(t);
                }
            }
            layer = next;
        }
    }

    #[test]
    fn a_path_is_normal_exactly_when_normalizing_keeps_it() {
        // The word-at-a-time search for `/.` and `//`: the pair at every
        // offset of paths up to 40 bytes, across word boundaries, among
        // bytes that look alike (`.` alone, `a/`, bytes of 0x80 and up).
        let mut paths = Vec::new();
        for k in 0..30 {
            for m in 0..10 {
                for pair in ["//", "/.", "/a", ".a", "a/", "/..", "é/", "/\u{2f}"] {
                    for fill in ["a", ".", "é", "\u{ae}"] {
                        paths.push(format!("/{}{pair}{}", fill.repeat(k), "b".repeat(m)));
                    }
                }
            }
        }
        for p in paths {
            assert_eq!(is_normal(&p), normalize(&p) == p, "{p:?}");
            let slow = p
                .as_bytes()
                .windows(2)
                .any(|w| w[0] == b'/' && matches!(w[1], b'.' | b'/'));
            assert_eq!(slash_then_dot_or_slash(p.as_bytes()), slow, "{p:?}");
        }
    }

    proptest::proptest! {
        /// Any path of `/`, `.`, letters and non-ASCII: the word-at-a-time
        /// search agrees with the pair-at-a-time one.
        #[test]
        fn the_slash_pair_search_agrees_with_a_byte_scan(
            p in "[/.aé\u{2e80}]{0,40}",
        ) {
            let slow = p
                .as_bytes()
                .windows(2)
                .any(|w| w[0] == b'/' && matches!(w[1], b'.' | b'/'));
            proptest::prop_assert_eq!(slash_then_dot_or_slash(p.as_bytes()), slow);
        }
    }

    #[test]
    fn normalization() {
        assert_eq!(normalize("/a//b/./c/../d/"), "/a/b/d");
        assert_eq!(normalize("/../.."), "/");
        assert_eq!(normalize(&"/".repeat(200_000)), "/");
    }
}
