//! Mutating continuations (SPEC §3.2, §6.5): the words after which a
//! command changes state rather than reads it. An allow entry covers a
//! segment only when every such word is among the entry's own tokens:
//! `Terminal(git branch -v)` covers `git branch -v --list 'f*'`, not
//! `git branch -v -D feat`; `Terminal(find)` does not cover `find . -delete`.
//!
//! Each command is one [`Continuations`] row: data, read by the decision
//! (both engines), always-allow (§7) and the analyzer's
//! `unanchored-mutating-verb`. A word a row cannot place (an unknown
//! option), an unknown word (§4.4) and a glob that may be a mutating or an
//! option word (§4.4 item 4) count as mutating: fail closed.

pub use super::catalogue::continuations::{
    Continuations, Shape, WriteOptions, CONTINUATIONS, WRITE_OPTIONS,
};
pub use super::catalogue::described::{Described, Kind, DESCRIBED};
use super::catalogue::git::GIT_CONFIG_READING_MODES;
use super::described::Value;
use super::glob::Glob;
use super::project::{CommandRow, ProjectRows};
use crate::reader::AsStr;
use crate::reader::Known;
use std::borrow::Cow;

mod commands;

/// What the checks look up of a run's words, kept once looked up: its
/// described row ([`described_row`]) and what the closed world finds in
/// its words ([`super::described::walk`] reading them all). A run is read
/// by `unknown.word` (every run) and by an allow entry's coverage (its
/// segment's): each looked the row up and walked the words again — a
/// third of the answer's cost on a line of described programs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunCache {
    described: std::cell::Cell<Looked>,
    found: std::cell::Cell<Option<super::described::Found>>,
}

/// A described row as looked up: not yet, none, or the row's index in
/// [`DESCRIBED`] and the word its options begin at.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Looked {
    #[default]
    Not,
    None,
    At(u32, u32),
}

impl RunCache {
    /// [`described_row`] of the run's `words`, looked up once.
    pub(crate) fn described_row(
        &self,
        words: &[Cow<'_, str>],
        known: &[Known],
    ) -> Option<(&'static Described, usize)> {
        self.described_row_by(|| described_row(words, known))
    }

    fn described_row_by(
        &self,
        look: impl FnOnce() -> Option<(&'static Described, usize)>,
    ) -> Option<(&'static Described, usize)> {
        match self.described.get() {
            Looked::None => None,
            Looked::At(i, from) => Some((&DESCRIBED[i as usize], from as usize)),
            Looked::Not => {
                let found = look();
                self.described.set(match found {
                    // The row's own index (shell/build.rs): rows are
                    // fewer than u32::MAX, and so are a run's words.
                    #[allow(clippy::cast_possible_truncation)]
                    Some((row, from)) => Looked::At(row.index as u32, from as u32),
                    None => Looked::None,
                });
                found
            }
        }
    }

    /// [`super::described::walk`] of the run's words by `row` from `from`,
    /// every word read (`all`), walked once. Its [`Found::first`] is the
    /// walk that stops at the first word's (the walks only stop early).
    ///
    /// [`Found::first`]: super::described::Found::first
    pub(crate) fn walk(
        &self,
        row: &'static Described,
        words: &[Cow<'_, str>],
        known: &[Known],
        from: usize,
    ) -> super::described::Found {
        if let Some(found) = self.found.get() {
            return found;
        }
        let found = super::described::walk(row, words, known, from, true);
        self.found.set(Some(found));
        found
    }
}

/// The index of the first word past the leading assignments: the verb's.
fn verb_at(words: &[Cow<'_, str>]) -> Option<usize> {
    words.iter().position(|w| !super::is_assignment(w))
}

/// `h` with `w` mixed in: its length and its first, middle and last
/// bytes, then one multiplication (Fibonacci hashing: the product's high
/// byte depends on every bit mixed in). Table words differ there; the
/// bytes between are never read, so a lookup costs the same for a long
/// word (FNV-1a over every byte was ~140 instructions of an answer).
const fn mix(h: u32, w: &[u8]) -> u32 {
    let n = w.len();
    let (a, b, c) = if n == 0 {
        (0, 0, 0)
    } else {
        (w[0] as u32, w[n / 2] as u32, w[n - 1] as u32)
    };
    #[allow(clippy::cast_possible_truncation)] // the length's low byte
    let n = n as u32 & 0xff;
    (h ^ n ^ (a << 8) ^ (b << 16) ^ (c << 24)).wrapping_mul(0x9e37_79b1)
}

/// The first bytes of the rows' commands, and `/` and `.` (a verb given
/// by its path: `/usr/bin/git`, `./git`), built from [`CONTINUATIONS`].
const COMMAND_FIRST_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    t[b'/' as usize] = true;
    t[b'.' as usize] = true;
    let mut i = 0;
    while i < CONTINUATIONS.len() {
        t[CONTINUATIONS[i].command[0].as_bytes()[0] as usize] = true;
        i += 1;
    }
    let mut i = 0;
    while i < WRITE_OPTIONS.len() {
        t[WRITE_OPTIONS[i].command[0].as_bytes()[0] as usize] = true;
        i += 1;
    }
    let mut i = 0;
    while i < DESCRIBED.len() {
        t[DESCRIBED[i].program[0].as_bytes()[0] as usize] = true;
        i += 1;
    }
    t
};

/// The shapes of the programs of [`DESCRIBED`]'s rows that hold a kind
/// that writes or runs (an option's or an operand's: [`Described::lowers`]):
/// only their runs are walked for `unknown.word`.
const WRITING_SHAPES: super::Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < DESCRIBED.len() {
        if DESCRIBED[i].lowers() {
            super::mark_shape(&mut t, DESCRIBED[i].program[0]);
        }
        i += 1;
    }
    t
};

use super::catalogue::code::{TextOptions, PROGRAM_TEXT};

/// The shapes of the programs of [`DESCRIBED`]'s rows with a `code` or
/// `config` option: only their runs are read for [`code_word`].
pub(crate) const CODE_KIND_SHAPES: super::Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < DESCRIBED.len() {
        if !(DESCRIBED[i].code.is_empty() && DESCRIBED[i].config.is_empty()) {
            super::mark_shape(&mut t, DESCRIBED[i].program[0]);
        }
        i += 1;
    }
    t
};

/// A word of a described program that its row types `code` or `config`
/// (SPEC §4.5 item 2: such a word makes the line unparsed, §4.3 — `curl
/// --engine E`, `rsync -M OPT`, `cargo test --manifest-path P`): the
/// word's index and the row, for the reason. Options only, up to `--`,
/// read by the row's grammar (a long spelling or prefix, a cluster up
/// to its valued letter); a value that spells one of them is read as
/// one too, which only asks more.
pub fn code_word(words: &[Cow<'_, str>], known: &[Known]) -> Option<(usize, &'static Described)> {
    let first = words.first()?;
    if !super::has_shape(&CODE_KIND_SHAPES, super::basename(first)) {
        return None;
    }
    if !words.iter().skip(1).any(|w| w.starts_with('-')) {
        return None;
    }
    code_word_past_gates(words, known)
}

/// [`code_word`] of words whose program passed [`CODE_KIND_SHAPES`] and
/// one of whose words past the first starts with `-` (the caller's gates).
pub(crate) fn code_word_past_gates(
    words: &[Cow<'_, str>],
    known: &[Known],
) -> Option<(usize, &'static Described)> {
    let (row, from) = described_row(words, known)?;
    if row.code.is_empty() && row.config.is_empty() {
        return None;
    }
    // The OpenSSH clients' `-o KEY=VALUE` is read key by key by their
    // text reading (catalogue/code.toml `program_text`: `ProxyCommand`
    // runs, `Port` does not), which knows more than a row's one kind.
    let ssh_keys = PROGRAM_TEXT.iter().any(|(names, how)| {
        matches!(how, TextOptions::Ssh { .. }) && names.contains(&row.program[0])
    });
    words
        .iter()
        .enumerate()
        .skip(from)
        .take_while(|(_, w)| *w != "--")
        .filter(|(_, w)| !(ssh_keys && w.starts_with("-o")))
        .find(|(_, w)| super::described::code_kind(row, w))
        .map(|(i, _)| (i, row))
}

/// The index of the first mutating continuation in a segment's words
/// (SPEC §6.5), or `None` when it only reads. An allow entry of `k`
/// tokens covers the segment only when `k` is past it (§3.2).
pub fn mutating_from(words: &[Cow<'_, str>], known: &[Known]) -> Option<usize> {
    mutating_from_cached(words, known, None)
}

/// [`mutating_from`], the described row and its walk kept in `cache`
/// (the run's whose words are `words`).
pub fn mutating_from_cached(
    words: &[Cow<'_, str>],
    known: &[Known],
    cache: Option<&RunCache>,
) -> Option<usize> {
    let first = words.first()?.as_bytes().first().copied()?;
    // Cheap gate: the first bytes of the rows' commands (built from the
    // rows), or a path or an assignment that may hide one.
    if !COMMAND_FIRST_BYTES[usize::from(first)] && !super::is_assignment(&words[0]) {
        return None;
    }
    // A described program's closed world (SPEC §4.5 item 2), a writing
    // option (§6.5 round 4) and the continuation row of the same command
    // all hold: the first word of any of them (a description only ever
    // tightens what a continuation row says). The three rows are one
    // lookup ([`commands::lookup`]).
    let found = commands::lookup(words, known, ALL_TABLES);
    let row_of = |t: usize| found.and_then(|c| c.row(t));
    let written = row_of(commands::WRITE_OPTIONS_AT)
        .and_then(|(r, from)| write_option(&WRITE_OPTIONS[r], words, known, from));
    let row = || described_of(row_of(commands::DESCRIBED_AT));
    let described = match cache {
        Some(c) => c
            .described_row_by(row)
            .and_then(|(row, from)| c.walk(row, words, known, from).first()),
        None => row()
            .and_then(|(row, from)| super::described::walk(row, words, known, from, false).first()),
    };
    let continued = row_of(commands::CONTINUATIONS_AT).and_then(|(r, from)| {
        let row = &CONTINUATIONS[r];
        let kn = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
        match row.shape {
            Shape::Options {
                list_mode,
                operand_mutates,
            } => options(row, words, from, &kn, list_mode, operand_mutates),
            Shape::Subcommand { all_but_reading } => {
                subcommand(row, words, from, &kn, all_but_reading)
            }
            Shape::Config => config(row, words, from, &kn),
            Shape::Expression => expression(row, words, from, &kn),
        }
    });
    [written, described, continued].into_iter().flatten().min()
}

/// The described row of the command `words` start with, and the index of
/// its first word past the command.
pub(crate) fn described_row(
    words: &[Cow<'_, str>],
    known: &[Known],
) -> Option<(&'static Described, usize)> {
    let t = commands::DESCRIBED_AT;
    described_of(commands::lookup(words, known, 1 << t)?.row(t))
}

/// Every table of a [`commands::lookup`].
const ALL_TABLES: u8 = 0b111;

/// A described row as [`commands::lookup`] finds it.
fn described_of(found: Option<(usize, usize)>) -> Option<(&'static Described, usize)> {
    found.map(|(r, from)| (&DESCRIBED[r], from))
}

/// A word of a described program that its row cannot place, where the row
/// holds a kind that writes or runs (SPEC §4.5 item 2, §5.3 7.0: it may be
/// one of them — `sort --frob F`, `sort "$F"`): the word's index and the
/// row, for the message. It lowers with `unknown.word` in every mode.
pub fn unplaced(words: &[Cow<'_, str>], known: &[Known]) -> Option<(usize, &'static Described)> {
    unplaced_cached(words, known, None)
}

/// [`unplaced`], the described row and its walk kept in `cache` (the
/// run's whose words are `words`).
fn unplaced_cached(
    words: &[Cow<'_, str>],
    known: &[Known],
    cache: Option<&RunCache>,
) -> Option<(usize, &'static Described)> {
    let first = words.first()?;
    if !super::is_assignment(first) && !super::has_shape(&WRITING_SHAPES, super::basename(first)) {
        return None;
    }
    let (row, from) = match cache {
        Some(c) => c.described_row(words, known)?,
        None => described_row(words, known)?,
    };
    if !row.lowers() {
        return None;
    }
    let at = match cache {
        Some(c) => c.walk(row, words, known, from),
        None => super::described::walk(row, words, known, from, true),
    }
    .unplaced?;
    Some((at, row))
}

/// [`Shape::Options`]: the first mutating option, unknown option or (outside
/// list mode) name operand.
fn options(
    row: &Continuations,
    words: &[Cow<'_, str>],
    from: usize,
    kn: &dyn Fn(usize) -> Known,
    list_mode: &[&str],
    operand_mutates: bool,
) -> Option<usize> {
    let mut listing = false;
    let mut options_done = false;
    let mut i = from;
    while let Some(w) = words.get(i) {
        match classify(row, w, kn(i)) {
            Word::Unknown | Word::Mutating => return Some(i),
            Word::Literal if !options_done && w == "--" => options_done = true,
            Word::Literal if !options_done && is_option(w) => {
                let name = w.split('=').next().unwrap_or(w);
                if list_mode.contains(&name) {
                    listing = true;
                }
                if !row.reading.contains(&name) {
                    return Some(i);
                }
                // A value is never an option word: git's optional
                // values (`--contains [<commit>]`) leave `-D` an
                // option, so it is read, not skipped.
                if row.valued.contains(&w.as_str())
                    && words.get(i + 1).is_some_and(|n| !n.starts_with('-'))
                {
                    i += 1;
                }
            }
            Word::Literal => {
                if operand_mutates && !listing {
                    return Some(i);
                }
            }
        }
        i += 1;
    }
    None
}

/// [`Shape::Subcommand`]: the subcommand, when it mutates.
fn subcommand(
    row: &Continuations,
    words: &[Cow<'_, str>],
    from: usize,
    kn: &dyn Fn(usize) -> Known,
    all_but_reading: bool,
) -> Option<usize> {
    let mut i = from;
    while let Some(w) = words.get(i) {
        match classify(row, w, kn(i)) {
            Word::Unknown | Word::Mutating => return Some(i),
            Word::Literal if is_option(w) => {
                if !row.reading.contains(&w.as_str()) || all_but_reading {
                    // `git stash -p` is `git stash push -p`.
                    return Some(i);
                }
            }
            Word::Literal => {
                return (all_but_reading && !row.reading.contains(&w.as_str())).then_some(i);
            }
        }
        i += 1;
    }
    None
}

/// [`Shape::Config`]: a writing option, or a key's value outside get and
/// list modes.
fn config(
    row: &Continuations,
    words: &[Cow<'_, str>],
    from: usize,
    kn: &dyn Fn(usize) -> Known,
) -> Option<usize> {
    let mut reading_mode = false;
    let mut operands = 0;
    let mut i = from;
    while let Some(w) = words.get(i) {
        match classify(row, w, kn(i)) {
            Word::Unknown | Word::Mutating => return Some(i),
            // git config reads options only before its first operand
            // (PARSE_OPT_STOP_AT_NON_OPTION): `git config user.name
            // --get` sets user.name to `--get`.
            Word::Literal
                if operands == 0 && (is_option(w) || row.reading.contains(&w.as_str())) =>
            {
                let name = w.split('=').next().unwrap_or(w);
                if !row.reading.contains(&name) {
                    return Some(i);
                }
                reading_mode |= GIT_CONFIG_READING_MODES.contains(&name);
                // A value is never an option word: git's optional
                // values (`--contains [<commit>]`) leave `-D` an
                // option, so it is read, not skipped.
                if row.valued.contains(&w.as_str())
                    && words.get(i + 1).is_some_and(|n| !n.starts_with('-'))
                {
                    i += 1;
                }
            }
            Word::Literal => {
                operands += 1;
                // The key's value: the config is written.
                if operands == 2 && !reading_mode {
                    return Some(i);
                }
            }
        }
        i += 1;
    }
    None
}

/// [`Shape::Expression`]: a writing or unknown primary, `-exec` runs
/// skipped (they are segments of their own).
fn expression(
    row: &Continuations,
    words: &[Cow<'_, str>],
    from: usize,
    kn: &dyn Fn(usize) -> Known,
) -> Option<usize> {
    // find's described row says which primaries take values: a value is
    // the primary's (`-name "$N"`), never a primary itself.
    let known: Vec<Known> = (0..words.len()).map(kn).collect();
    let find = described_row(words, &known)
        .map(|(d, _)| d)
        .filter(|d| d.grammar == super::described::FIND);
    let mut i = from;
    while let Some(w) = words.get(i) {
        if matches!(w.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            // A run, read as a segment of its own (SPEC §4.3):
            // its words are not find's primaries.
            let end = (i + 1..words.len())
                .find(|&j| words[j] == ";" || (words[j] == "+" && words[j - 1] == "{}"));
            i = end.map_or(words.len(), |e| e + 1);
            continue;
        }
        let mutating = match classify(row, w, kn(i)) {
            Word::Unknown | Word::Mutating => true,
            // An unknown primary counts as mutating.
            Word::Literal => {
                w.starts_with('-') && w.len() > 1 && !row.reading.contains(&w.as_str())
            }
        };
        if mutating {
            return Some(i);
        }
        i += 1 + find.map_or(0, |d| super::described::find_values(d, w));
    }
    None
}

/// [`WriteOptions`]: the first word that spells a writing option, or may
/// (SPEC §4.5 item 2: a word that may begin with `-` — an expansion or a
/// glob at its start — may be any option: `sort "$F"` may be `sort -o`,
/// `sort *.txt` a file named `-ofoo.txt`). Options stop at `--`.
fn write_option(
    row: &WriteOptions,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
) -> Option<usize> {
    let spells = |w: &str| {
        if let Some(body) = w.strip_prefix("--") {
            let name = body.split('=').next().unwrap_or(body);
            !name.is_empty() && row.long.iter().any(|l| l[2..].starts_with(name))
        } else {
            w.len() > 1 && w.starts_with('-') && w[1..].chars().any(|c| row.short.contains(c))
        }
    };
    for (i, w) in words.iter().enumerate().skip(from) {
        let k = known.get(i).copied().unwrap_or(Known::Exact);
        // Where an unknown part or a glob may start the word, it may be
        // any option; a word that starts with literal text cannot be one.
        let may_start = |open: &[char]| w.starts_with('-') || w.starts_with(open);
        match k {
            Known::OneToken | Known::AnyTokens if may_start(&['$', '`']) => return Some(i),
            Known::Glob if may_start(&['*', '?', '[']) => return Some(i),
            Known::Exact if w == "--" => return None,
            Known::Exact if spells(w) => return Some(i),
            _ => {}
        }
    }
    None
}

/// The options of a described program as [`walk_described`] reads them: a
/// built-in row's, a project row's, or both.
struct Grammar<'g> {
    long: &'g dyn Fn(&str) -> Option<(Kind, Value)>,
    short: &'g dyn Fn(char) -> Option<Kind>,
    /// Has it an option of a kind that writes or runs?
    writes: bool,
}

/// [`described`] over any grammar: the first word it cannot place or
/// that writes or runs.
fn walk_described(
    g: &Grammar<'_>,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
) -> Option<usize> {
    walk_grammar(g, words, known, from, true)
}

/// [`walk_described`]; without `writes_count`, only the first unplaced
/// word (an option that writes or runs is read as any other).
fn walk_grammar(
    g: &Grammar<'_>,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    writes_count: bool,
) -> Option<usize> {
    let writes = |kind: Kind| writes_count && kind.writes_or_runs();
    let mut i = from;
    while let Some(w) = words.get(i) {
        let k = known.get(i).copied().unwrap_or(Known::Exact);
        let may_start = |open: &[char]| w.starts_with('-') || w.starts_with(open);
        match k {
            Known::OneToken | Known::AnyTokens if may_start(&['$', '`']) && g.writes => {
                return Some(i)
            }
            Known::Glob if may_start(&['*', '?', '[']) && g.writes => return Some(i),
            Known::Exact if w == "--" => return None,
            Known::Exact if w.starts_with("--") => match (g.long)(w) {
                Some((kind, _)) if writes(kind) => return Some(i),
                Some((_, Value::Next)) => i += 1,
                Some(_) => {}
                None => return Some(i),
            },
            Known::Exact if w.len() > 1 && w.starts_with('-') => {
                for (at, c) in w.char_indices().skip(1) {
                    match (g.short)(c) {
                        None => return Some(i),
                        Some(kind) if writes(kind) => return Some(i),
                        Some(Kind::Flag) => {}
                        Some(_) => {
                            // The rest of the word is the value, else the next.
                            if at + c.len_utf8() == w.len() {
                                i += 1;
                            }
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A word a project row that describes its own program (`complete =
/// true`, no built-in row) cannot place, where the row holds a kind that
/// writes or runs (SPEC §4.5 items 2 and 6): its index and the row.
pub fn project_unplaced<'p>(
    words: &[Cow<'_, str>],
    known: &[Known],
    project: &'p ProjectRows,
) -> Option<(usize, &'p CommandRow)> {
    if project.is_empty() {
        return None;
    }
    let v = words.iter().position(|w| !super::is_assignment(w))?;
    if known.get(v).is_some_and(|k| *k != Known::Exact) {
        return None;
    }
    let row = project
        .rows()
        .iter()
        .find(|r| r.description.complete && r.names(&words[v]))?;
    if described_row(words, known).is_some_and(|(_, from)| from == v + 1) {
        // A built-in row's program: [`unplaced_with`] reads it.
        return None;
    }
    let entries = row.description.entries();
    if !entries.clone().any(|(k, _)| k.writes_or_runs()) {
        return None;
    }
    let grammar = Grammar {
        long: &|w| super::described::long_of(entries.clone(), w),
        short: &|c| super::described::short_of(entries.clone(), c),
        writes: true,
    };
    walk_grammar(&grammar, words, known, v + 1, false).map(|i| (i, row))
}

/// [`unplaced`] with a project's rows (SPEC §4.5 item 6): a row of
/// permc.toml that adds options to a built-in described row places them
/// (`sort --my-patch`); the built-in row still names the program and its
/// version. A project row's own program (no built-in row) is read for
/// coverage only ([`mutating_from_with`]).
pub fn unplaced_with(
    words: &[Cow<'_, str>],
    known: &[Known],
    project: Option<&ProjectRows>,
) -> Option<(usize, &'static Described)> {
    unplaced_with_cached(words, known, project, None)
}

/// [`unplaced_with`], the built-in row and its walk kept in `cache` (the
/// run's whose words are `words`).
pub fn unplaced_with_cached(
    words: &[Cow<'_, str>],
    known: &[Known],
    project: Option<&ProjectRows>,
    cache: Option<&RunCache>,
) -> Option<(usize, &'static Described)> {
    let builtin = || unplaced_cached(words, known, cache);
    let Some(project) = project.filter(|p| !p.is_empty()) else {
        return builtin();
    };
    let v = words.iter().position(|w| !super::is_assignment(w))?;
    let Some(row) = project
        .naming(&words[v])
        .find(|r| !r.description.is_empty())
    else {
        return builtin();
    };
    let (base, from) = described_row(words, known).filter(|(_, from)| *from == v + 1)?;
    if !base.writes() {
        return None;
    }
    let mut all: Vec<(Kind, &str)> = Vec::new();
    for (k, e) in base.entries() {
        all.push((k, e));
    }
    all.extend(row.description.entries());
    let entries = all.iter().copied();
    let grammar = Grammar {
        long: &|w| super::described::long_of(entries.clone(), w),
        short: &|c| super::described::short_of(entries.clone(), c),
        writes: true,
    };
    walk_grammar(&grammar, words, known, from, false).map(|i| (i, base))
}

/// [`mutating_from`] with a project's rows (SPEC §4.5 item 6): a row of
/// permc.toml that describes its program (`complete = true`), or adds
/// options to a built-in described row, is read as a described row is —
/// its options after the built-in row's. Without such a row, as
/// [`mutating_from`].
pub fn mutating_from_with(
    words: &[Cow<'_, str>],
    known: &[Known],
    project: Option<&ProjectRows>,
) -> Option<usize> {
    mutating_from_with_cached(words, known, project, None)
}

/// [`mutating_from_with`], the built-in row and its walk kept in `cache`
/// (the run's whose words are `words`: [`super::LineFacts::segment_cache`]).
pub fn mutating_from_with_cached(
    words: &[Cow<'_, str>],
    known: &[Known],
    project: Option<&ProjectRows>,
    cache: Option<&RunCache>,
) -> Option<usize> {
    let builtin = || mutating_from_cached(words, known, cache);
    let Some(project) = project.filter(|p| !p.is_empty()) else {
        return builtin();
    };
    let v = words.iter().position(|w| !super::is_assignment(w))?;
    if known.get(v).is_some_and(|k| *k != Known::Exact) {
        return builtin();
    }
    let rows: Vec<&CommandRow> = project
        .naming(&words[v])
        .filter(|r| !r.description.is_empty())
        .collect();
    let Some(row) = rows.first() else {
        return builtin();
    };
    let own = &row.description;
    let base = described_row(words, known).filter(|(_, from)| *from == v + 1);
    if !own.complete && base.is_none() {
        // Options for a program nobody describes: facts only.
        return builtin();
    }
    let mut all: Vec<(Kind, &str)> = Vec::new();
    if let Some((r, _)) = base {
        // (Pushed one by one: a `&'static str` shortens to the project's.)
        for (k, e) in r.entries() {
            all.push((k, e));
        }
    }
    all.extend(own.entries());
    let entries = all.iter().copied();
    let grammar = Grammar {
        long: &|w| super::described::long_of(entries.clone(), w),
        short: &|c| super::described::short_of(entries.clone(), c),
        writes: entries.clone().any(|(k, _)| k.writes_or_runs()),
    };
    let theirs = walk_described(&grammar, words, known, v + 1);
    // The built-in described row is read above, with the project's
    // additions; its program's write options still count.
    let others = if base.is_some() {
        let t = commands::WRITE_OPTIONS_AT;
        commands::lookup(words, known, 1 << t)
            .and_then(|c| c.row(t))
            .and_then(|(r, from)| write_option(&WRITE_OPTIONS[r], words, known, from))
    } else {
        builtin()
    };
    match (others, theirs) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

enum Word {
    /// Read by its text.
    Literal,
    /// A mutating word of the row.
    Mutating,
    /// An expansion, or a glob that may be a mutating or an option word.
    Unknown,
}

fn classify(row: &Continuations, w: &str, k: Known) -> Word {
    match k {
        Known::OneToken | Known::AnyTokens => Word::Unknown,
        Known::Glob => {
            // Possibly a mutating word (`?D`, `[-]delete`); otherwise read
            // by its text, as an option or an operand.
            let g = Glob::new(w);
            if row.mutating.iter().any(|m| g.matches(m)) {
                Word::Unknown
            } else {
                Word::Literal
            }
        }
        Known::Exact => {
            let name = if w.starts_with("--") {
                w.split('=').next().unwrap_or(w)
            } else {
                w
            };
            if row.mutating.contains(&name) || mutating_cluster(row, w) {
                Word::Mutating
            } else {
                Word::Literal
            }
        }
    }
}

/// A cluster of one-letter options holding a mutating one (`-vD`).
fn mutating_cluster(row: &Continuations, w: &str) -> bool {
    let b = w.as_bytes();
    if b.len() < 3 || b[0] != b'-' || b[1] == b'-' || !matches!(row.shape, Shape::Options { .. }) {
        return false;
    }
    w[1..].chars().any(|c| {
        let mut buf = [0u8; 8];
        let opt = format!("-{}", c.encode_utf8(&mut buf));
        row.mutating.contains(&opt.as_str())
    })
}

fn is_option(w: &str) -> bool {
    w.starts_with('-') && w != "-"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(cmd: &str) -> Option<usize> {
        let l = crate::reader::read(cmd);
        let s = &l.segments[0];
        mutating_from(&s.words, &s.known)
    }

    #[test]
    fn mutating_words() {
        for (cmd, want) in [
            ("git branch -v", None),
            ("git branch -v --list 'f*'", None),
            ("git branch -v -D feat", Some(3)),
            ("git branch -v -f x REV", Some(3)),
            ("git branch -a", None),
            ("git branch --list 'f*'", None),
            ("git branch newb", Some(2)),
            ("git branch -v newb", Some(3)),
            ("git branch -D x", Some(2)),
            ("git branch -vD x", Some(2)),
            ("git branch --contains main", None),
            ("git branch --contains -D feat", Some(3)),
            ("git tag --merged -d v1", Some(3)),
            ("git branch -v ?D feat", Some(3)),
            ("git branch -v $X", Some(3)),
            ("git branch --no-advice", Some(2)),
            ("git remote -v", None),
            ("git remote -v set-url origin x", Some(3)),
            ("git remote -v remove origin", Some(3)),
            ("git remote show origin", None),
            ("git stash list", None),
            ("git stash show -p", None),
            ("git stash drop", Some(2)),
            ("git stash", None),
            ("git stash -p", Some(2)),
            ("git config --get user.name", None),
            ("git config user.name x", Some(3)),
            ("git config user.name", None),
            ("git config --unset x", Some(2)),
            ("git tag", None),
            ("git tag -l 'v*'", None),
            ("git tag v1", Some(2)),
            ("git tag -d v1", Some(2)),
            ("git worktree list", None),
            ("git worktree add x", Some(2)),
            ("git -C x branch -D y", Some(4)),
            ("find . -name x", None),
            ("find . -delete", Some(2)),
            ("find . -name x -fprint out", Some(4)),
            ("find . [-]delete", Some(2)),
            ("find . -newfangled", Some(2)),
            ("find . -exec grep -l x {} +", None),
            ("find . -exec rm {} \\; -delete", Some(6)),
            ("ls -la", None),
            ("git status", None),
            ("sort -o out x", Some(1)),
            ("sort -uo out x", Some(1)),
            ("sort x --outp=F", Some(2)),
            ("sort -u x", None),
            ("sort -- -o", None),
            ("sort -k1,1 x", None),
            ("sort \"$F\"", Some(1)),
            ("sort src/\"$F\"", None),
            ("sort *.txt", Some(1)),
            ("sort src/*.txt", None),
            ("sort -[o] x", Some(1)),
            ("sort -o\"$F\" x", Some(1)),
            ("sort --output=\"$F\" x", Some(1)),
            ("sort -k\"$K\" x", None),
            ("sed -n -i.bak p f", Some(2)),
            ("sed -n --in-pl p f", Some(2)),
            ("sed -n p f", None),
            ("git log --output=src/app.ts", Some(2)),
            ("git diff HEAD --output src/lib.rs", Some(3)),
            ("git -C . show --outp=x", Some(4)),
            ("git log --oneline", None),
            ("git diff --output-indicator-new=x", None),
            ("pwd x", Some(1)),
            ("pwd -P", None),
            ("sort -o x --frob", Some(1)),
        ] {
            assert_eq!(at(cmd), want, "{cmd}");
        }
    }

    fn unplaced_at(cmd: &str) -> Option<usize> {
        let l = crate::reader::read(cmd);
        let s = &l.segments[0];
        unplaced(&s.words, &s.known).map(|(i, _)| i)
    }

    /// SPEC §4.5 item 2: an unplaced word of a row with a kind that writes
    /// or runs (`unknown.word`, §5.3 7.0); a write itself is not one.
    #[test]
    fn unplaced_words_of_rows_that_write() {
        for (cmd, want) in [
            ("sort --frob f", Some(1)),
            ("sort -o out --frob f", Some(3)),
            ("sort -uj f", Some(1)),
            ("sort --r f", Some(1)),
            ("sort \"$F\"", Some(1)),
            ("sort *.txt", Some(1)),
            ("sort -o out f", None),
            ("sort -u --rev -k2 f", None),
            ("sort -- \"$F\"", None),
            ("sort src/*.txt", None),
            ("sort -k \"$K\" f", None),
            ("sort -k\"$K\" f", None),
            ("sort --key=\"$K\" f", None),
            ("sort --frob=\"$K\" f", Some(1)),
            ("sort -u\"$K\" f", Some(1)),
            ("sort --key=$K f", Some(1)),
            ("sort --key=* f", None),
            // No kind that writes or runs: nothing lowers.
            ("cat --frob f", None),
            ("cat \"$F\"", None),
            ("ls --co", None),
            ("pwd x", None),
        ] {
            assert_eq!(unplaced_at(cmd), want, "{cmd}");
        }
    }
}
