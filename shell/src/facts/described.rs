//! Reading a described program's words (SPEC §4.5 items 1 and 2) as its
//! row's grammar says the program reads them: which option a word is,
//! its kind, and whether its value is in the word or the next one. The
//! rows are `catalogue::described`; this names no program.

pub use super::catalogue::described::{
    Described, Kind, ARGPARSE, CLAP, CLAP2, CURL, DD, DESCRIBED, EXACT, FIND, GETOPT,
    GETOPT_LEADING, GIT, GIT_REVISIONS, GO, GRAMMARS, LEADING_CLUSTERS, MAKE, NOPT, NOPT_EXEC,
    POPT, SSH, TAR, VIM,
};
use crate::reader::Known;
use std::borrow::Cow;

mod dd;
mod nopt;
mod spelled;
pub(crate) use spelled::same;
mod ssh;
mod tar;
mod vim;

/// Where an option's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// No value (a flag, or a long option's optional value not given).
    None,
    /// In the word itself (`--lines=5`, `-n5`).
    Attached,
    /// The next word (`--lines 5`, `-n 5`).
    Next,
}

/// The option a long word (`--outp=F`) spells, as the row's grammar
/// reads it: `getopt` (GNU getopt_long: a spelling exactly, or a unique
/// prefix of the row's long spellings), `git` (parse-options: the same,
/// and `--no-NAME` for an option `--NAME`, `--NAME` for an option
/// `--no-NAME`, abbreviated too), `git-revisions` (setup_revisions and
/// diff's options: whole spellings only, each `--no-` form the row lists
/// — `git log --outp` and `git log --no-all` are refused, `--no-follow`
/// is read) or `exact` (whole spellings). Two spellings of one option are
/// one option. `None`: no option, or several (the word is unplaced).
pub fn long(row: &Described, word: &str) -> Option<(Kind, Value)> {
    if row.grammar == CURL {
        return curl_long(row, word);
    }
    // A byte loop, not `split_once`: its searcher cost ~110 instructions
    // a word, more than the word's few bytes.
    let (name, attached) = match word.bytes().position(|b| b == b'=') {
        Some(at) => (&word[..at], true),
        None => (word, false),
    };
    let git = row.grammar == GIT;
    let abbreviated = matches!(row.grammar, GETOPT | GETOPT_LEADING | GIT | MAKE | TAR | DD);
    // A flag given a value (`--directory=x`) is refused by getopt_long
    // and parse-options: no option of the row; clap 2 ignores the value.
    let ignored = row.grammar == CLAP2;
    let valued =
        |(kind, optional): (Kind, bool)| kind != Kind::Flag || !attached || optional || ignored;
    if let Some((kind, optional)) = exact(row, name) {
        let refused = attached && row.next_only.contains(&name);
        return (valued((kind, optional)) && !refused)
            .then(|| (kind, value(kind, optional, attached)));
    }
    // git's negations take no value: `--no-NAME` unsets `--NAME`, and an
    // option named `--no-NAME` is also set by `--NAME` — unless the row
    // says the option has none (PARSE_OPT_NONEG).
    let negated = name.strip_prefix("--no-");
    let negatable = |s: &str| !row.no_negation.contains(&s);
    if git && !attached {
        let flipped = |s: &str| {
            negatable(s)
                && match negated {
                    Some(n) => s.strip_prefix("--") == Some(n),
                    None => s.strip_prefix("--no-") == name.strip_prefix("--"),
                }
        };
        if find(row, flipped).one().is_some() {
            return Some((Kind::Flag, Value::None));
        }
    }
    if !abbreviated || name.len() <= 2 {
        return None;
    }
    let mut candidates = prefixed(row, name);
    if git && !attached {
        // parse-options' negations by a prefix: `--no-po` of
        // `--porcelain`, `--n`, `--no` and `--no-` of every negatable
        // option ("negated and abbreviated very much": one alone is
        // read), `--ren` of an option named `--no-renames`.
        let rest = name.strip_prefix("--").unwrap_or(name);
        let negations = match negated {
            Some(n) => find(row, |s| {
                negatable(s) && s.strip_prefix("--").is_some_and(|l| l.starts_with(n))
            }),
            None if "--no-".starts_with(name) => find(row, negatable),
            None => find(row, |s| {
                negatable(s) && s.strip_prefix("--no-").is_some_and(|l| l.starts_with(rest))
            }),
        };
        candidates.add(negations.flagged());
    }
    let (kind, optional, _) = candidates.one()?;
    valued((kind, optional)).then(|| (kind, value(kind, optional, attached)))
}

/// [`long`] for [`CURL`] (curl 7.88's tool_getparam.c): the whole word
/// is the name (no `=`: `--output=F` is no option), a spelling exactly
/// or a unique prefix of one; a word `--no-NAME` is only ever the
/// negation of the flag spelled `--NAME` exactly (curl compares the
/// rest whole: `--no-sil` is unknown), unless `no-negation` lists it.
fn curl_long(row: &Described, word: &str) -> Option<(Kind, Value)> {
    let value = |kind: Kind| {
        let v = if kind == Kind::Flag {
            Value::None
        } else {
            Value::Next
        };
        (kind, v)
    };
    if let Some((kind, _)) = exact(row, word) {
        return Some(value(kind));
    }
    if let Some(n) = word.strip_prefix("--no-") {
        let negates = |s: &str| s.strip_prefix("--") == Some(n) && !row.no_negation.contains(&s);
        return match find(row, negates).one()? {
            (Kind::Flag, _, _) => Some((Kind::Flag, Value::None)),
            _ => None,
        };
    }
    if word.len() <= 2 {
        return None;
    }
    let (kind, _, _) = find(row, |s| s.starts_with(word)).one()?;
    Some(value(kind))
}

/// The options of a row one of whose long spellings satisfies a test:
/// their kind, whether their value is optional, and the entry (one
/// option), and whether they were several.
#[derive(Clone, Copy)]
struct Candidates {
    first: Option<(Kind, bool, &'static str)>,
    several: bool,
}

impl Candidates {
    fn one(self) -> Option<(Kind, bool, &'static str)> {
        (!self.several).then_some(self.first?)
    }

    fn add(&mut self, other: Candidates) {
        self.several |= other.several;
        match (self.first, other.first) {
            (Some(a), Some(b)) if a.2 != b.2 => self.several = true,
            (None, b) => self.first = b,
            _ => {}
        }
    }

    /// The same options read as negations: flags.
    fn flagged(mut self) -> Candidates {
        self.first = self.first.map(|(_, _, e)| (Kind::Flag, false, e));
        self
    }
}

/// The option whose long spelling is `name`, and whether its value is
/// optional: by the row's spellings ([`spelled`]), else a scan of its
/// lists.
fn exact(row: &Described, name: &str) -> Option<(Kind, bool)> {
    if row.spellings.is_empty() {
        return exact_scan(row, name);
    }
    let i = spelled::position_in(row, name)?;
    let (_, list, optional, _) = row.spellings[i];
    // The list's kind: `options()` is in `Kind::NAMES`' order (a load,
    // where `options()` built the row's 13 pairs, ~30 instructions).
    Some((Kind::NAMES[list].0, optional))
}

/// [`exact`] of a row without spellings: the first hit is the only one
/// (a row spells each option once, `rows_have_unique_spellings`), so the
/// scan stops there. Not inlined: [`exact`]'s common path sets up none of
/// its state.
#[inline(never)]
fn exact_scan(row: &Described, name: &str) -> Option<(Kind, bool)> {
    for (list, kind) in row.options() {
        for entry in list {
            for s in entry.split(' ') {
                match s.strip_prefix(name) {
                    Some("") => return Some((kind, false)),
                    Some("[=]") => return Some((kind, true)),
                    _ => {}
                }
            }
        }
    }
    None
}

/// The options one of whose long spellings begins with `name` (`find`
/// by that test): from the row's sorted spellings, the run that begins
/// with it.
fn prefixed(row: &Described, name: &str) -> Candidates {
    if row.spellings.is_empty() {
        return find(row, |s| s.starts_with(name));
    }
    let mut c = Candidates {
        first: None,
        several: false,
    };
    let from = row.spellings.partition_point(|(s, ..)| *s < name);
    let run = row.spellings[from..]
        .iter()
        .take_while(|(s, ..)| s.starts_with(name))
        .filter(|(s, ..)| s.starts_with("--"));
    for (_, list, optional, entry) in run {
        c.add(Candidates {
            first: Some((Kind::NAMES[*list].0, *optional, entry)),
            several: false,
        });
    }
    c
}

fn find(row: &Described, test: impl Fn(&str) -> bool) -> Candidates {
    let mut c = Candidates {
        first: None,
        several: false,
    };
    for (list, kind) in row.options() {
        for entry in list {
            let hit = entry
                .split(' ')
                .filter(|s| s.starts_with("--"))
                .map(|s| s.strip_suffix("[=]").map_or((s, false), |s| (s, true)))
                .find(|(s, _)| test(s));
            if let Some((_, optional)) = hit {
                c.add(Candidates {
                    first: Some((kind, optional, entry)),
                    several: false,
                });
            }
        }
    }
    c
}

fn value(kind: Kind, optional: bool, attached: bool) -> Value {
    match (kind, attached) {
        (_, true) => Value::Attached,
        (Kind::Flag, false) => Value::None,
        (_, false) if optional => Value::None,
        _ => Value::Next,
    }
}

/// The kind of the short option `-c`, if the row has one, and whether
/// its value is optional (`-M[=]`: only ever attached, `-M50%`).
pub fn short(row: &Described, c: char) -> Option<(Kind, bool)> {
    let c = u8::try_from(c).ok().filter(u8::is_ascii)?;
    // A row of the catalogue: its letters' table, built at compile time.
    // (Found by its index, checked by its hash: a `const` table is not
    // one place in memory, so the row's address may not be the table's.)
    if let Some(r) = Some(row.index).filter(|&i| {
        DESCRIBED
            .get(i)
            .is_some_and(|d| std::ptr::eq(d, row) || d.hash == row.hash)
    }) {
        let v = SHORTS[r][usize::from(c)];
        let kind = Kind::NAMES.get(usize::from(v & 63).checked_sub(1)?)?.0;
        return Some((kind, v & 64 != 0));
    }
    for (list, kind) in row.options() {
        for entry in list {
            for s in entry.split(' ') {
                match s.as_bytes() {
                    [b'-', l] if *l == c => return Some((kind, false)),
                    [b'-', l, b'[', b'=', b']'] if *l == c => return Some((kind, true)),
                    _ => {}
                }
            }
        }
    }
    None
}

/// Per row of [`DESCRIBED`], per ASCII letter, its short option: 0 for
/// none, else 1 + the index of its kind in [`Kind::NAMES`], plus 64 when
/// its value is optional (`-M[=]`); the first spelling in the row's
/// lists' order, as [`short`] reads a row. Built from the rows at compile
/// time: a letter costs a load on the decision's path.
static SHORTS: [[u8; 128]; DESCRIBED.len()] = {
    let mut t = [[0u8; 128]; DESCRIBED.len()];
    let mut r = 0;
    while r < DESCRIBED.len() {
        let lists = DESCRIBED[r].lists();
        // A kind's code: 1 + its index (13 kinds: a u8 holds it).
        let mut code: u8 = 1;
        while (code as usize) <= lists.len() {
            let list = lists[code as usize - 1];
            let mut e = 0;
            while e < list.len() {
                mark_shorts(&mut t[r], list[e].as_bytes(), code);
                e += 1;
            }
            code += 1;
        }
        r += 1;
    }
    t
};

/// Marks in `t` the short spellings (`-o`, `-M[=]`) of one entry.
const fn mark_shorts(t: &mut [u8; 128], b: &[u8], code: u8) {
    let mut p = 0;
    while p + 1 < b.len() {
        let starts = p == 0 || b[p - 1] == b' ';
        let c = b[p + 1];
        if starts && b[p] == b'-' && c != b'-' && c.is_ascii() && t[c as usize] == 0 {
            let end = p + 2;
            let plain = end == b.len() || b[end] == b' ';
            let optional = end + 3 <= b.len()
                && b[end] == b'['
                && b[end + 1] == b'='
                && b[end + 2] == b']'
                && (end + 3 == b.len() || b[end + 3] == b' ');
            if plain {
                t[c as usize] = code;
            } else if optional {
                t[c as usize] = code | 64;
            }
        }
        p += 1;
    }
}

/// What the closed world finds in a described program's words (SPEC
/// §4.5 item 2): the first word the row cannot place, and the first
/// option or operand of a kind that writes or runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Found {
    /// The first unplaced word: an option the row lacks, an ambiguous
    /// prefix, an operand past the row's positions, or a word that may
    /// begin with `-` (an expansion or a glob at its start) where the
    /// row has a kind that writes or runs.
    pub unplaced: Option<usize>,
    /// The first option or operand of a kind that writes or runs.
    pub writes: Option<usize>,
}

impl Found {
    /// The first word of either (a mutating continuation, §3.2).
    pub fn first(self) -> Option<usize> {
        match (self.unplaced, self.writes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Reads `words` from `from` as the row's grammar says the program reads
/// them (options anywhere before `--`, or git's `--end-of-options`;
/// short ones in clusters with their value attached or next; operands by
/// position). A valued option that is the last word, with no value, is
/// unplaced (but a `last-arg-default` one): getopt_long refuses it, and
/// GNU Wget 1.21.3, which reads its permuted words twice, gives it the
/// first operand (`wget .git/hooks/x URL -O` writes the URL to
/// `.git/hooks/x`; tests/oracle): either way only tightening. With
/// `all`, reads on past the first write to find the first unplaced word
/// too; else it stops at the first word of either.
pub fn walk(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    match row.grammar {
        GO => return walk_go(row, words, known, from, all),
        ARGPARSE => return walk_argparse(row, words, known, from, all),
        FIND => return walk_find(row, words, known, from, all),
        NOPT | NOPT_EXEC => return nopt::walk(row, words, known, from, all),
        SSH => return ssh::walk(row, words, known, from, all),
        VIM => return vim::walk(row, words, known, from, all),
        DD => return dd::walk(row, words, known, from, all),
        _ => {}
    }
    walk_getopt(row, words, known, from, all)
}

/// [`walk`] for getopt and the grammars read as variants of it (git's,
/// make, clap, popt, tar, curl, leading clusters).
fn walk_getopt(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    // tar's old-style first word, then getopt's reading.
    let (mut found, from) = match row.grammar {
        TAR => tar::old_style(row, words, known, from),
        _ => (
            Found::default(),
            from + usize::from(count_word(row, words, known, from)),
        ),
    };
    let note = |slot: &mut Option<usize>, i: usize| {
        slot.get_or_insert(i);
    };
    let leading = row.grammar == LEADING_CLUSTERS;
    // getopt with `+`: the first operand ends the options.
    let posix = row.grammar == GETOPT_LEADING;
    let consumes = |j: usize| takes_value(row, words, known, j);
    let end_of_options = matches!(row.grammar, GIT | GIT_REVISIONS | EXACT);
    let mut options_done = false;
    let mut operands = 0;
    let mut i = from;
    while let Some(w) = words.get(i) {
        if !all && found.first().is_some() {
            break;
        }
        let k = known.get(i).copied().unwrap_or(Known::Exact);
        let may_start = |open: &[char]| w.starts_with('-') || w.starts_with(open);
        let any_option = !options_done
            && match k {
                Known::OneToken | Known::AnyTokens => may_start(&['$', '`']),
                Known::Glob => may_start(&['*', '?', '[']),
                Known::Exact => false,
            };
        if any_option {
            match partial(row, w, k) {
                Partial::Placed(kind) if continues(row, kind) => note(&mut found.writes, i),
                Partial::Placed(_) => {}
                Partial::Unplaced => note(&mut found.unplaced, i),
                // It may be any option: unplaced where one of them (or a
                // spelling the row lacks) would write or run.
                Partial::Any if row.writes() => note(&mut found.unplaced, i),
                Partial::Any => {}
            }
        } else if options_done
            || k != Known::Exact
            || !w.starts_with('-')
            || w == "-"
            || (leading && !flag_cluster(row, w))
        {
            options_done |= leading || posix || row.options_first;
            let kind = match row.grammar {
                MAKE if k != Known::Exact || w.contains('=') => Some(Kind::Variable),
                _ => operand_kind(row, operands),
            };
            operands += 1;
            match kind {
                None => note(&mut found.unplaced, i),
                // A run (SPEC §4.3): its words are a segment of their own,
                // which every check reads, allow included.
                Some(Kind::Command) => break,
                Some(kind) if continues(row, kind) => note(&mut found.writes, i),
                Some(_) => {}
            }
        } else if w == "--" || (w == "--end-of-options" && end_of_options) {
            options_done = true;
        } else if w.starts_with("--") {
            match long(row, w) {
                None => note(&mut found.unplaced, i),
                Some((kind, value)) => {
                    if continues(row, kind) {
                        note(&mut found.writes, i);
                    }
                    let optional_last = row.last_arg_default.iter().any(|s| s.starts_with(&**w));
                    if value == Value::Next && words.get(i + 1).is_none() && !optional_last {
                        note(&mut found.unplaced, i);
                    } else if value == Value::Next && consumes(i + 1) {
                        i += 1;
                    }
                }
            }
        } else if cluster(row, w, i, &mut found) {
            if words.get(i + 1).is_none() {
                note(&mut found.unplaced, i);
            } else if consumes(i + 1) {
                i += 1;
            }
        }
        i += 1;
    }
    found
}

/// Is the word at `i` the row's count word (`head -20`, `tail -5c`:
/// [`Described::count_word`])? Only a literal word.
pub(crate) fn count_word(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    i: usize,
) -> bool {
    if row.count_word.is_empty() || known.get(i).is_some_and(|k| *k != Known::Exact) {
        return false;
    }
    let Some(rest) = words.get(i).and_then(|w| w.strip_prefix('-')) else {
        return false;
    };
    let letters = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    letters.len() < rest.len() && letters.chars().all(|c| row.count_word.contains(c))
}

/// Reads a cluster of short options (`-uo`, `-n5`) at `i` into `found`;
/// whether its last option takes the next word as its value.
fn cluster(row: &Described, w: &str, i: usize, found: &mut Found) -> bool {
    for (at, c) in w.char_indices().skip(1) {
        let Some((kind, optional)) = short(row, c) else {
            found.unplaced.get_or_insert(i);
            return false;
        };
        if continues(row, kind) {
            found.writes.get_or_insert(i);
        }
        if kind == Kind::Flag {
            continue;
        }
        // The rest of the word is the value, else the next (an optional
        // value is only ever attached).
        return at + c.len_utf8() == w.len() && !optional;
    }
    false
}

/// Where [`walk_go`] is: reading the go command's flags, the test
/// binary's words after an `open` option (`-args`), or after `--`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum GoPart {
    Flags,
    Binary,
    Rest,
}

/// [`walk`] for [`GO`]: Go's flag package as `go test` reads it. Every
/// word that begins with `-` before `--` or an `open` option is read as
/// a flag, also past the packages (go reads its own flags there; one it
/// passes on is only ever read tighter); after an `open` option only the
/// row's `-test.` flags are read (the test binary's own parser); a flag
/// the row lacks is open where the row has `open` options, else unplaced.
fn walk_go(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    let mut found = Found::default();
    let passes = !row.open.is_empty();
    let (mut part, mut operands, mut i) = (GoPart::Flags, 0, from);
    while let Some(w) = words.get(i) {
        if !all && found.first().is_some() {
            break;
        }
        let k = known.get(i).copied().unwrap_or(Known::Exact);
        i += 1;
        if part == GoPart::Rest {
            continue;
        }
        if k != Known::Exact {
            // Any flag (`"$F"`) may be one that writes or runs: unplaced
            // where the row has one, whether or not it passes flags on.
            let (kind, pass) = match unknown_start(w, k) {
                Start::Option(name) => (go_option(row, name).map(|(kind, _)| kind), passes),
                Start::Any if row.writes() => (None, false),
                Start::Any => (Some(Kind::Open), false),
                Start::Operand if part == GoPart::Binary => (Some(Kind::Open), false),
                Start::Operand => (operand_kind(row, operands), false),
            };
            operands += usize::from(part == GoPart::Flags);
            note_kind(&mut found, i - 1, kind, pass);
            continue;
        }
        if part == GoPart::Flags && w == "--" {
            part = GoPart::Rest;
            continue;
        }
        let Some(name) = go_name(w) else {
            if part == GoPart::Flags {
                note_kind(&mut found, i - 1, operand_kind(row, operands), false);
                operands += 1;
            }
            continue;
        };
        if part == GoPart::Binary && !name.starts_with("test.") {
            continue;
        }
        match go_option(row, name) {
            Some((Kind::Open, _)) => part = GoPart::Binary,
            Some((kind, optional)) => {
                note_kind(&mut found, i - 1, Some(kind), passes);
                if kind != Kind::Flag && !optional && !w.contains('=') {
                    i += 1;
                }
            }
            None => note_kind(&mut found, i - 1, None, passes),
        }
    }
    found
}

/// Notes the word at `i` of `kind` in `found`: `None` is a word the row
/// cannot place (open where the row `passes` what it lacks on).
fn note_kind(found: &mut Found, i: usize, kind: Option<Kind>, passes: bool) {
    match kind {
        Some(kind) if kind.writes_or_runs() => {
            found.writes.get_or_insert(i);
        }
        Some(_) => {}
        None if passes => {}
        None => {
            found.unplaced.get_or_insert(i);
        }
    }
}

/// The name of a Go flag word (`-run=X`, `--run`: `run`), `None` for a
/// word that is no flag (`-`, `---x`, `-=x`).
fn go_name(w: &str) -> Option<&str> {
    let rest = w.strip_prefix("--").or_else(|| w.strip_prefix('-'))?;
    let name = rest.split_once('=').map_or(rest, |(n, _)| n);
    (!name.is_empty() && !name.starts_with('-')).then_some(name)
}

/// The option a row spells `-NAME` (Go: one dash or two are one
/// spelling), and whether its value is optional (`-c[=]`: only
/// `-c=v`).
fn go_option(row: &Described, name: &str) -> Option<(Kind, bool)> {
    for (list, kind) in row.options() {
        for entry in list {
            for s in entry.split(' ') {
                let Some(s) = s.strip_prefix('-').filter(|s| !s.starts_with('-')) else {
                    continue;
                };
                match s.strip_prefix(name) {
                    Some("") => return Some((kind, false)),
                    Some("[=]") => return Some((kind, true)),
                    _ => {}
                }
            }
        }
    }
    None
}

/// What a word with an unknown part may be, from its literal start.
enum Start<'w> {
    /// An option whose name the literal start gives (`-run=$X`,
    /// `--k="$X"`): the name.
    Option(&'w str),
    /// Any option, or several words (an unquoted expansion).
    Any,
    /// No option: an operand.
    Operand,
}

/// Reads the literal start of a word with an unknown part, for the
/// grammars without clusters ([`GO`]): in double quotes or a glob the
/// word stays one word, so a literal `-name=` fixes the option.
fn unknown_start(w: &str, k: Known) -> Start<'_> {
    let open: &[char] = match k {
        Known::OneToken => &['$', '`'],
        Known::Glob => &['*', '?', '[', '\\'],
        _ => return Start::Any,
    };
    let literal = &w[..w.find(open).unwrap_or(w.len())];
    if !literal.is_empty() && !literal.starts_with('-') {
        return Start::Operand;
    }
    match (literal.contains('='), go_name(literal)) {
        (true, Some(name)) => Start::Option(name),
        _ => Start::Any,
    }
}

/// [`walk`] for [`ARGPARSE`]: the words its pre-parse reads first (a
/// short `code` option at the start of any word, a `@FILE` word), then
/// options anywhere before `--`, short ones in clusters, long ones whole;
/// a value is never a word that begins with `-`; an option the row lacks
/// is open where the row has `open` options, else unplaced.
fn walk_argparse(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    let mut found = Found::default();
    let passes = !row.open.is_empty();
    for (i, w) in words.iter().enumerate().skip(from) {
        let k = known.get(i).copied().unwrap_or(Known::Exact);
        let next = words.get(i + 1).map(|n| &**n);
        note_kind(&mut found, i, pre_read(row, w, k, next), false);
    }
    let (mut options_done, mut operands, mut i) = (false, 0, from);
    while let Some(w) = words.get(i) {
        if !all && found.first().is_some() {
            break;
        }
        let k = known.get(i).copied().unwrap_or(Known::Exact);
        let next_is_value = words
            .get(i + 1)
            .is_some_and(|n| !(n.starts_with('-') && n.len() > 1));
        i += 1;
        if k != Known::Exact && !options_done {
            let (kind, pass) = match unknown_start(w, k) {
                Start::Option(name) if w.starts_with("--") => (
                    exact(row, &w[..2 + name.len()]).map(|(kind, _)| kind),
                    passes,
                ),
                Start::Operand => (operand_kind(row, operands), false),
                _ if row.writes() => (None, false),
                _ => (Some(Kind::Open), false),
            };
            operands += 1;
            note_kind(&mut found, i - 1, kind, pass);
        } else if options_done || !w.starts_with('-') || w == "-" {
            note_kind(&mut found, i - 1, operand_kind(row, operands), false);
            operands += 1;
        } else if w == "--" {
            options_done = true;
        } else if w.starts_with("--") {
            let (name, attached) = w.split_once('=').map_or((&**w, false), |(n, _)| (n, true));
            let kind = match exact(row, name) {
                Some((Kind::Flag, optional)) if attached && !optional => None,
                Some((kind, optional)) => {
                    if kind != Kind::Flag && !optional && !attached && next_is_value {
                        i += 1;
                    }
                    Some(kind)
                }
                None => None,
            };
            note_kind(&mut found, i - 1, kind, passes);
        } else {
            for (at, c) in w.char_indices().skip(1) {
                let Some((kind, optional)) = short(row, c) else {
                    note_kind(&mut found, i - 1, None, passes);
                    break;
                };
                let last = at + c.len_utf8() == w.len();
                let value = if last {
                    words.get(i).map(|n| &**n)
                } else {
                    Some(&w[at + c.len_utf8()..])
                };
                let kind = if kind == Kind::Code && blocks_plugin(value) {
                    Kind::Text
                } else {
                    kind
                };
                note_kind(&mut found, i - 1, Some(kind), passes);
                if kind == Kind::Flag {
                    continue;
                }
                if last && !optional && next_is_value {
                    i += 1;
                }
                break;
            }
        }
    }
    found
}

/// Does a short `code` option's value block a plugin rather than load
/// one (`-p no:cacheprovider`)?
fn blocks_plugin(value: Option<&str>) -> bool {
    value.is_some_and(|v| v.starts_with("no:"))
}

/// What [`ARGPARSE`]'s pre-parse makes of any word, wherever it is: a
/// `@FILE` word is `config`, a word that begins with a short `code`
/// option (`-pNAME`, `-p NAME`) is `code` unless its value is `no:…`
/// (which blocks a plugin); a word with an unknown part that
/// may be either is unplaced (`None`); anything else is no finding
/// (`Some(Kind::Flag)`).
fn pre_read(row: &Described, w: &str, k: Known, next: Option<&str>) -> Option<Kind> {
    let code_short = |literal: &str, whole: bool| {
        spellings(row.code).any(|s| {
            s.len() == 2
                && s.starts_with('-')
                && !s.starts_with("--")
                && if whole {
                    literal.starts_with(s)
                } else {
                    s.starts_with(literal) || literal.starts_with(s)
                }
        })
    };
    if k == Known::Exact {
        let value = if w.len() > 2 { Some(&w[2..]) } else { next };
        return Some(if w.starts_with('@') {
            Kind::Config
        } else if code_short(w, true) && !blocks_plugin(value) {
            Kind::Code
        } else {
            Kind::Flag
        });
    }
    let open: &[char] = match k {
        Known::OneToken => &['$', '`'],
        Known::Glob => &['*', '?', '[', '\\'],
        _ => return None,
    };
    let literal = &w[..w.find(open).unwrap_or(w.len())];
    if literal.starts_with('@') {
        Some(Kind::Config)
    } else if literal.is_empty() || code_short(literal, false) {
        None
    } else {
        Some(Kind::Flag)
    }
}

/// How many values a find primary takes: none (`-delete[0]`, a flag),
/// one, two (`-fprintf[2]`), or the words of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    None,
    One,
    Two,
    Run,
    /// A run ended by `;` only (`-ok[;]`: `{} +` is refused).
    RunToSemicolon,
}

impl Arity {
    /// The number of value words (none for a run, which is read apart).
    fn values(self) -> usize {
        match self {
            Arity::One => 1,
            Arity::Two => 2,
            Arity::None | Arity::Run | Arity::RunToSemicolon => 0,
        }
    }
}

/// The primary or leading option `w` spells in a find row (spelled whole)
/// and its kind; `leading`: a leading option (an entry whose spellings
/// are all one letter), else a primary.
fn find_option(row: &Described, w: &str, leading: bool) -> Option<(Kind, Arity, bool)> {
    for (list, kind) in row.options() {
        for entry in list {
            let one_letter = entry
                .split(' ')
                .all(|s| s.trim_end_matches("[=]").len() == 2);
            if one_letter != leading {
                continue;
            }
            for s in entry.split(' ') {
                let (name, arity, optional) = if let Some(n) = s.strip_suffix("[0]") {
                    (n, Arity::None, false)
                } else if let Some(n) = s.strip_suffix("[2]") {
                    (n, Arity::Two, false)
                } else if let Some(n) = s.strip_suffix("[;]") {
                    (n, Arity::RunToSemicolon, false)
                } else if let Some(n) = s.strip_suffix("[=]") {
                    (n, Arity::None, true)
                } else {
                    let arity = match kind {
                        Kind::Flag => Arity::None,
                        Kind::Command => Arity::Run,
                        _ => Arity::One,
                    };
                    (s, arity, false)
                };
                // `-O3`: an optional value, attached.
                let hit = name == w || (optional && w.starts_with(name));
                if hit {
                    return Some((kind, arity, optional));
                }
            }
        }
    }
    None
}

/// [`walk`] for the `find` grammar (findutils 4.9: see
/// [`super::catalogue::described::FIND`]): its leading options, its
/// start paths, then its expression, each read by a step of its own.
fn walk_find(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    let mut found = Found::default();
    let at = find_leading_options(row, words, known, from);
    let at = find_start_paths(row, words, known, at, &mut found);
    find_expression(row, words, known, at, all, &mut found);
    found
}

/// The known word `i` of a find line (a word past `known` is known).
fn find_known(known: &[Known], i: usize) -> Known {
    known.get(i).copied().unwrap_or(Known::Exact)
}

/// find's operators (`(`, `)`, `!`, `,`).
fn find_operator(w: &str) -> bool {
    matches!(w, "(" | ")" | "!" | ",")
}

/// find's leading options (`-H`, `-L`, `-P`, `-D`, `-O3`), up to `--` or
/// the first other word: where the start paths begin.
fn find_leading_options(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    mut i: usize,
) -> usize {
    while let Some(w) = words
        .get(i)
        .filter(|w| find_known(known, i) == Known::Exact && w.starts_with('-'))
    {
        if w == "--" {
            return i + 1;
        }
        match find_option(row, w, true) {
            Some((_, Arity::One, _)) => i += 2,
            Some(_) => i += 1,
            None => break,
        }
    }
    i
}

/// find's start paths, from `i` to the first primary or operator, each of
/// the row's operand kind; where the expression begins.
fn find_start_paths(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    mut i: usize,
    found: &mut Found,
) -> usize {
    let mut operands = 0;
    while let Some(w) = words.get(i) {
        let k = find_known(known, i);
        if k == Known::Exact && ((w.starts_with('-') && w.len() > 1) || find_operator(w)) {
            break;
        }
        // A word that may begin with `-`, `(` or `!`: it may be any primary.
        let may_be_primary = match k {
            Known::Exact => false,
            Known::Glob => w.starts_with(['-', '*', '?', '[', '(', '!']),
            _ => w.starts_with(['-', '$', '`', '(', '!']) || k == Known::AnyTokens,
        };
        if may_be_primary {
            found.unplaced.get_or_insert(i);
        }
        match operand_kind(row, operands) {
            None => {
                found.unplaced.get_or_insert(i);
            }
            Some(kind) if kind.writes_or_runs() => {
                found.writes.get_or_insert(i);
            }
            Some(_) => {}
        }
        operands += 1;
        i += 1;
    }
    i
}

/// find's expression from `i`: each primary by the row (its kind and how
/// many words it takes), a run to its `;` (or `{} +`) a segment of its
/// own; stops at the first finding unless `all`.
fn find_expression(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    mut i: usize,
    all: bool,
    found: &mut Found,
) {
    let kn = |i: usize| find_known(known, i);
    while let Some(w) = words.get(i) {
        if !all && found.first().is_some() {
            break;
        }
        if kn(i) != Known::Exact {
            // A word with an unknown part where a primary is: any primary
            // (or a path, which find refuses).
            found.unplaced.get_or_insert(i);
            i += 1;
            continue;
        }
        if find_operator(w) {
            i += 1;
            continue;
        }
        let Some((kind, arity, _)) = find_option(row, w, false) else {
            found.unplaced.get_or_insert(i);
            i += 1;
            continue;
        };
        if kind.writes_or_runs() && kind != Kind::Command {
            found.writes.get_or_insert(i);
        }
        // An unquoted expansion as a value may be several words: the
        // later ones primaries (`-name $N`, N='x -delete').
        if let Some(j) = (i + 1..=i + arity.values()).find(|&j| kn(j) == Known::AnyTokens) {
            found.unplaced.get_or_insert(j);
        }
        i += match arity {
            Arity::None => 1,
            Arity::One => 2,
            Arity::Two => 3,
            // A run, a segment of its own: to its `;`, or a `+` right
            // after `{}`.
            Arity::Run | Arity::RunToSemicolon => (i + 1..words.len())
                .find(|&j| {
                    let plus = arity == Arity::Run && words[j] == "+" && words[j - 1] == "{}";
                    kn(j) == Known::Exact && (words[j] == ";" || plus)
                })
                .map_or(words.len(), |e| e + 1)
                .saturating_sub(i),
        };
    }
}

/// [`text_words`] of find (SPEC §4.5 item 4): the start paths are
/// places; in the expression a primary's own word and the operators are
/// text, and so are its values where the row types them `text` (`-name
/// "$N"`, `-regex`), not where it types them places (`-newer F`,
/// `-fprint F`); a run's words stay possible places (the run is a
/// segment of its own as well). `None` where a word of the expression
/// has an unknown part or is no primary of the row.
fn find_text(
    row: &Described,
    from: usize,
    words: &[Cow<'_, str>],
    known: &[Known],
) -> Option<Vec<bool>> {
    let exact = |i: usize| known.get(i).is_none_or(|k| *k == Known::Exact);
    let mut text = vec![false; words.len()];
    let mut i = from;
    // Leading options (`-L`, `-D help`, `-O3`) name no place.
    while let Some(w) = words.get(i).filter(|w| exact(i) && w.starts_with('-')) {
        if w == "--" {
            text[i] = true;
            i += 1;
            break;
        }
        let Some((kind, arity, _)) = find_option(row, w, true) else {
            break;
        };
        text[i] = true;
        if arity == Arity::One {
            i += 1;
            *text.get_mut(i)? = kind == Kind::Text;
        }
        i += 1;
    }
    // The start paths are places.
    while let Some(w) = words.get(i) {
        if exact(i) && ((w.starts_with('-') && w.len() > 1) || matches!(&**w, "(" | "!")) {
            break;
        }
        i += 1;
    }
    while let Some(w) = words.get(i) {
        if !exact(i) {
            return None;
        }
        if matches!(&**w, "(" | ")" | "!" | ",") {
            text[i] = true;
            i += 1;
            continue;
        }
        let (kind, arity, _) = find_option(row, w, false)?;
        text[i] = true;
        // A run's words stay possible places, to its end.
        if matches!(arity, Arity::Run | Arity::RunToSemicolon) {
            return Some(text);
        }
        for _ in 0..arity.values() {
            i += 1;
            let one_word = known.get(i).is_none_or(|k| *k != Known::AnyTokens);
            *text.get_mut(i)? = kind == Kind::Text && one_word;
        }
        i += 1;
    }
    Some(text)
}

/// How many words after find's primary `w` are its values, by the
/// described row (`-name "$N"`: one; `-newerXY A`: one): the
/// continuation row's reading of find's expression skips them.
pub(crate) fn find_values(row: &Described, w: &str) -> usize {
    find_option(row, w, false).map_or(0, |(_, arity, _)| arity.values())
}

/// Is a word of this kind a mutating continuation (SPEC §3.2, §6.5): one
/// that writes or runs — but a writer's own writes (`writer = true`: its
/// `path-write` and `dir-write` words, `cp`'s operands and `-t`), which
/// an entry naming the program covers.
fn continues(row: &Described, kind: Kind) -> bool {
    kind.writes_or_runs() && !(row.writer && matches!(kind, Kind::PathWrite | Kind::DirWrite))
}

/// Is word `j` the value of the valued option before it? Always for
/// getopt and git; clap takes a word that begins with `-` (or may) as an
/// option, not as the value.
fn takes_value(row: &Described, words: &[Cow<'_, str>], known: &[Known], j: usize) -> bool {
    !matches!(row.grammar, CLAP | CLAP2)
        || words.get(j).is_some_and(|n| {
            known.get(j).is_none_or(|k| *k == Known::Exact) && !(n.starts_with('-') && n.len() > 1)
        })
}

/// What an option word with an unknown part is, from its literal start.
enum Partial {
    /// The literal start names the option, the unknown part is its value
    /// (`--format="$F"`, `-n"$N"`).
    Placed(Kind),
    /// The literal start is no option of the row (`--frob="$X"`).
    Unplaced,
    /// It may be any option (`"$F"`, `-u"$X"`, `--fo*`).
    Any,
}

/// Reads the literal start of a word with an unknown part (SPEC §4.5 item
/// 2: "an unknown word in a value position takes that position's kind"):
/// in double quotes or a glob, the word stays one word, so a literal
/// `--name=` or a cluster reaching a valued letter fixes the option.
/// Unquoted, an expansion may split into more words: any option.
fn partial(row: &Described, w: &str, k: Known) -> Partial {
    let open: &[char] = match k {
        Known::OneToken => &['$', '`'],
        Known::Glob => &['*', '?', '[', '\\'],
        _ => return Partial::Any,
    };
    let literal = &w[..w.find(open).unwrap_or(w.len())];
    if literal.starts_with("--") {
        if !literal.contains('=') {
            return Partial::Any;
        }
        return long(row, literal).map_or(Partial::Unplaced, |(kind, _)| Partial::Placed(kind));
    }
    for c in literal.chars().skip(1) {
        match short(row, c) {
            None => return Partial::Unplaced,
            Some((Kind::Flag, _)) => {}
            Some((kind, _)) => return Partial::Placed(kind),
        }
    }
    Partial::Any
}

/// Is `w` a cluster of the row's one-letter flags (`-ne`)?
fn flag_cluster(row: &Described, w: &str) -> bool {
    w.len() > 1
        && w[1..]
            .chars()
            .all(|c| short(row, c).is_some_and(|(k, _)| k == Kind::Flag))
}

/// The kind of the operand at position `n` (the last position repeats),
/// `None` when the row has no operands.
fn operand_kind(row: &Described, n: usize) -> Option<Kind> {
    let name = row.operands.get(n).or(row.operands.last())?;
    Kind::NAMES
        .iter()
        .find(|(_, k)| k == name)
        .map(|(kind, _)| *kind)
}

/// The option a long word spells among option entries (a project row's
/// and the built-in row it adds to, SPEC §4.5 item 6), as GNU getopt_long
/// reads it: a spelling exactly, or a unique prefix (two spellings of one
/// option are one option); a flag given a value is none.
pub fn long_of<'e>(
    entries: impl Iterator<Item = (Kind, &'e str)> + Clone,
    word: &str,
) -> Option<(Kind, Value)> {
    let (name, attached) = match word.split_once('=') {
        Some((n, _)) => (n, true),
        None => (word, false),
    };
    let valued = |kind: Kind, optional: bool| kind != Kind::Flag || !attached || optional;
    let mut found: Option<(Kind, bool, &str)> = None;
    for (kind, entry) in entries {
        let spellings = entry
            .split(' ')
            .filter(|s| s.starts_with("--"))
            .map(|s| s.strip_suffix("[=]").map_or((s, false), |s| (s, true)));
        if let Some((_, optional)) = spellings.clone().find(|(s, _)| *s == name) {
            return valued(kind, optional).then(|| (kind, value(kind, optional, attached)));
        }
        let Some((_, optional)) = spellings.clone().find(|(s, _)| s.starts_with(name)) else {
            continue;
        };
        found = match found {
            // A prefix of two options: refused, unless a spelling is the
            // word exactly.
            Some((_, _, e)) if e != entry => Some((Kind::Flag, false, "")),
            _ => Some((kind, optional, entry)),
        };
    }
    match found {
        Some((kind, optional, e)) if !e.is_empty() && name.len() > 2 && valued(kind, optional) => {
            Some((kind, value(kind, optional, attached)))
        }
        _ => None,
    }
}

/// The kind of the short option `-c` among option entries (a project
/// row's, [`long_of`]).
pub fn short_of<'e>(mut entries: impl Iterator<Item = (Kind, &'e str)>, c: char) -> Option<Kind> {
    entries.find_map(|(kind, entry)| {
        entry
            .split(' ')
            .any(|s| {
                let mut chars = s.chars();
                chars.next() == Some('-') && chars.next() == Some(c) && chars.next().is_none()
            })
            .then_some(kind)
    })
}

/// SPEC §4.5 item 4: which of a segment's words a verified row types
/// `text` (a value or an operand the program never opens as a file, or
/// an option word with no place in it) — the path scope does not read
/// them. `None` when no verified row describes the segment, or a word
/// cannot be placed (an unknown option, a word that may begin with `-`):
/// then every word is a possible place, as for an undescribed program.
pub fn text_words(words: &[Cow<'_, str>], known: &[Known]) -> Option<Vec<bool>> {
    let (row, from) = super::continuations::described_row(words, known)?;
    if !row.verified {
        return None;
    }
    if row.grammar == LEADING_CLUSTERS {
        return leading_text(row, from, words.len());
    }
    if row.grammar == FIND {
        return find_text(row, from, words, known);
    }
    // git's parse-options and setup_revisions read as getopt does here:
    // a valued option takes the next word whatever it is, options are
    // read past operands, `--` ends them (`git log --author "$A"`); clap
    // 2 (ripgrep) the same but for a next word that begins with `-`,
    // which is no value ([`takes_value`]).
    if !(getopt(row) || matches!(row.grammar, GIT | GIT_REVISIONS | CLAP2)) {
        return None;
    }
    text_of(row, from, words, known)
}

/// [`text_words`] of a `leading-clusters` row (`echo`): its options are
/// flags and every operand is text, so no word after the program's names
/// a place — whatever a word expands to, it is a flag or printed.
fn leading_text(row: &Described, from: usize, len: usize) -> Option<Vec<bool>> {
    let flags_only = row.lists()[1..].iter().all(|list| list.is_empty());
    let all_text = row.operands.iter().all(|o| *o == "text");
    (flags_only && all_text).then(|| (0..len).map(|i| i >= from).collect())
}

/// Does the row read its words as GNU getopt_long (`getopt`, `getopt-leading`)?
pub fn getopt(row: &Described) -> bool {
    matches!(row.grammar, GETOPT | GETOPT_LEADING)
}

/// [`text_words`] by `row`, verified or not, from word `from` on.
fn text_of(
    row: &Described,
    from: usize,
    words: &[Cow<'_, str>],
    known: &[Known],
) -> Option<Vec<bool>> {
    let kn = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    // Without an option that gives it, the first operand is `text`
    // (grep's pattern) and the row's operand kinds begin at the second;
    // where a word may be such an option, every operand has its kind.
    let shift = usize::from(
        !row.operand_given_by.is_empty() && operand_given(row, from, words, known) == Some(false),
    );
    let kind_of = |operand: usize| match operand.checked_sub(shift) {
        None => Some(Kind::Text),
        Some(n) => operand_kind(row, n),
    };
    // Past the last listed operand kind, every operand has the last one:
    // there a word that may be several words, or no option after all,
    // moves no later word to another kind.
    let settled = |operand: usize| operand + 1 >= row.operands.len() + shift;
    let only_flags = row.lists()[1..].iter().all(|list| list.is_empty());
    let plus = row.grammar == GETOPT_LEADING || row.options_first;
    let mut text = vec![false; words.len()];
    let (mut i, mut operand, mut options) = (from, 0, true);
    // An unknown word may have been `--`: a later option word may be an
    // operand, so it is text only if an operand there would be.
    let mut uncertain = false;
    while let Some(w) = words.get(i) {
        let exact = kn(i) == Known::Exact;
        let operand_text = kind_of(operand) == Some(Kind::Text);
        let attached = || match partial(row, w, kn(i)) {
            Partial::Placed(kind) => Some(kind),
            _ => None,
        };
        if options && exact && w == "--" {
            options = uncertain;
        } else if let Some(kind) = (options && !exact && w.starts_with('-'))
            .then(attached)
            .flatten()
        {
            // The literal start names a valued option and the unknown
            // part is its attached value (`--grep="$X"`, `-e"$P"`).
            text[i] = kind == Kind::Text && (!uncertain || operand_text);
        } else if !exact {
            let may_be_option = options && w.starts_with(['-', '$', '`', '*', '?', '[']);
            let several = kn(i) != Known::OneToken;
            if (may_be_option && !only_flags) || ((several || may_be_option) && !settled(operand)) {
                return None;
            }
            uncertain |= may_be_option;
            // `getopt-leading`: a word that is no option ends the options.
            options &= may_be_option || !plus;
            text[i] = operand_text;
            operand += 1;
        } else if options && w.starts_with('-') && w.len() > 1 {
            let (kind, value) = option_word(row, w)?;
            // The option's name names no place; an attached value does
            // unless it is text.
            let as_option = value != Value::Attached || matches!(kind, Kind::Flag | Kind::Text);
            text[i] = as_option && (!uncertain || operand_text);
            // clap's value: the next word unless it begins with `-`.
            if value == Value::Next && takes_value(row, words, known, i + 1) {
                if uncertain && !settled(operand) {
                    return None;
                }
                i += 1;
                if let Some(t) = text.get_mut(i) {
                    *t = kind == Kind::Text && (!uncertain || operand_text);
                }
            }
        } else {
            options &= !plus;
            text[i] = operand_text;
            operand += 1;
        }
        i += 1;
    }
    Some(text)
}

/// Is one of the row's [`Described::operand_given_by`] options among
/// `words` from `from` (before `--`), so that the first operand is no
/// pattern or script but a file? `None` when a word may be one (a word
/// with an unknown part where an option may be) or cannot be placed.
fn operand_given(
    row: &Described,
    from: usize,
    words: &[Cow<'_, str>],
    known: &[Known],
) -> Option<bool> {
    let given_short = |c: char| {
        row.operand_given_by
            .iter()
            .flat_map(|e| e.split(' '))
            .map(|s| s.strip_suffix("[=]").unwrap_or(s))
            .any(|s| {
                s.strip_prefix('-')
                    .is_some_and(|l| l.starts_with(c) && l.len() == c.len_utf8())
            })
    };
    let mut i = from;
    while let Some(w) = words.get(i) {
        i += 1;
        if known.get(i - 1).is_some_and(|k| *k != Known::Exact) {
            if w.starts_with(['-', '$', '`', '*', '?', '[']) {
                return None;
            }
            continue;
        }
        if w == "--" {
            break;
        }
        if !w.starts_with('-') || w == "-" {
            continue;
        }
        if w.starts_with("--") {
            let (_, value) = long(row, w)?;
            let name = w.split('=').next().unwrap_or(w);
            if row.operand_given_by.contains(&long_entry(row, name)?) {
                return Some(true);
            }
            if value == Value::Next && takes_value(row, words, known, i) {
                i += 1;
            }
            continue;
        }
        for (at, c) in w.char_indices().skip(1) {
            if given_short(c) {
                return Some(true);
            }
            let (kind, optional) = short(row, c)?;
            if kind != Kind::Flag {
                let attached = at + c.len_utf8() < w.len();
                if !attached && !optional && takes_value(row, words, known, i) {
                    i += 1;
                }
                break;
            }
        }
    }
    Some(false)
}

/// The option entry (`-e --regexp`) a long option word names, whole or
/// by a unique prefix where the grammar takes one ([`long`] says which
/// words are options at all).
fn long_entry(row: &Described, name: &str) -> Option<&'static str> {
    if row.spellings.is_empty() {
        return find(row, |s| s == name).one().map(|(.., entry)| entry);
    }
    // The whole spelling by the spellings' hash probe ([`exact`]'s).
    if let Some(i) = spelled::position_in(row, name) {
        return Some(row.spellings[i].3);
    }
    prefixed(row, name).one().map(|(.., entry)| entry)
}

/// What a run's described row says it writes ([`written_values`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written<'w> {
    /// No row reads the run word by word as getopt or git do.
    NoRow,
    /// A word the row cannot place (an option it lacks, an ambiguous
    /// prefix, an unknown word where an option may stand): any word may
    /// be written.
    Unplaced,
    /// The values and operands the row types `path-write` or `dir-write`.
    Values(Vec<&'w str>),
}

/// SPEC §6.4 with §4.5 item 1: the words a run's described row types
/// `path-write` or `dir-write` — an option's value attached (`--ou=F`,
/// `-uoF`, `--output=F`) or in the next word (`-o F`), or an operand —
/// each spelling as the program reads it, for a program the catalogue
/// says only reads the rest of its words (`sort`, `git log`).
pub fn written_values<'w>(words: &'w [Cow<'_, str>], known: &[Known]) -> Written<'w> {
    let Some((row, from)) = super::continuations::described_row(words, known) else {
        return Written::NoRow;
    };
    if !(getopt(row) || matches!(row.grammar, GIT | GIT_REVISIONS)) {
        return Written::NoRow;
    }
    // A row with no option or operand that writes: a word it cannot place
    // (`ls *`, `cat --frob`) lowers nothing here either (§4.5 item 2).
    let operand_writes = row
        .operands
        .iter()
        .any(|o| matches!(*o, "path-write" | "dir-write"));
    if row.path_write.is_empty() && row.dir_write.is_empty() && !operand_writes {
        return Written::Values(Vec::new());
    }
    written_by(row, from, words, known).map_or(Written::Unplaced, Written::Values)
}

/// [`written_values`] by `row` from word `from`; `None` at an unplaced word.
fn written_by<'w>(
    row: &Described,
    from: usize,
    words: &'w [Cow<'_, str>],
    known: &[Known],
) -> Option<Vec<&'w str>> {
    let writes = |kind: Kind| matches!(kind, Kind::PathWrite | Kind::DirWrite);
    let plus = row.grammar == GETOPT_LEADING || row.options_first;
    let end = matches!(row.grammar, GIT | GIT_REVISIONS);
    let mut out = Vec::new();
    let (mut i, mut operand, mut options) = (from, 0, true);
    // The value in the next word, of an option of `kind`.
    let next = |i: &mut usize, kind: Kind, out: &mut Vec<&'w str>| {
        *i += 1;
        match words.get(*i) {
            Some(v) if writes(kind) => out.push(&**v),
            Some(_) => {}
            None => return None,
        }
        Some(())
    };
    while let Some(w) = words.get(i) {
        let exact = known.get(i).is_none_or(|k| *k == Known::Exact);
        if options && exact && (w == "--" || (end && w == "--end-of-options")) {
            options = false;
        } else if !exact || !options || !w.starts_with('-') || w == "-" {
            if options && !exact && w.starts_with(['-', '$', '`', '*', '?', '[']) {
                return None;
            }
            options &= !plus;
            if operand_kind(row, operand).is_some_and(writes) {
                out.push(&**w);
            }
            operand += 1;
        } else if w.starts_with("--") {
            match long(row, w)? {
                (kind, Value::Attached) if writes(kind) => {
                    out.push(w.split_once('=').map_or("", |(_, v)| v));
                }
                (kind, Value::Next) => next(&mut i, kind, &mut out)?,
                _ => {}
            }
        } else {
            for (at, c) in w.char_indices().skip(1) {
                let (kind, optional) = short(row, c)?;
                if kind == Kind::Flag {
                    continue;
                }
                let rest = &w[at + c.len_utf8()..];
                if !rest.is_empty() {
                    if writes(kind) {
                        out.push(rest);
                    }
                } else if !optional {
                    next(&mut i, kind, &mut out)?;
                }
                break;
            }
        }
        i += 1;
    }
    Some(out)
}

/// Is `w` an option the row types `code` or `config` ([`code_word`](super::continuations::code_word))?
pub(crate) fn code_kind(row: &Described, w: &str) -> bool {
    // argparse (pytest) is read by its own pre-parse, where `-p no:NAME`
    // blocks a plugin rather than loading one (`walk_argparse`).
    if w.len() < 2 || !w.starts_with('-') || row.grammar == ARGPARSE {
        return false;
    }
    if row.grammar == GO {
        // Go's flags: `-name`, `--name`, `-name=value`, whole names only.
        let name = w.trim_start_matches('-').split('=').next().unwrap_or("");
        return spellings(row.code)
            .chain(spellings(row.config))
            .any(|s| s.trim_start_matches('-') == name);
    }
    option_word(row, w).is_some_and(|(kind, _)| matches!(kind, Kind::Code | Kind::Config))
}

/// An option word's kind and where its value is: a long option, or a
/// cluster of short ones (the kind of the one that takes a value, else
/// flags). `None` when a letter or the name is no option of the row.
fn option_word(row: &Described, w: &str) -> Option<(Kind, Value)> {
    if w.starts_with("--") {
        return long(row, w);
    }
    for (at, c) in w.char_indices().skip(1) {
        match short(row, c)? {
            (Kind::Flag, _) => {}
            (kind, optional) => {
                let attached = at + c.len_utf8() < w.len();
                let value = match (attached, optional) {
                    (true, _) => Value::Attached,
                    (false, true) => Value::None,
                    (false, false) => Value::Next,
                };
                return Some((kind, value));
            }
        }
    }
    Some((Kind::Flag, Value::None))
}

/// The row's spellings of one kind's options, for the docs.
pub fn spellings<'a>(list: &'a [&'static str]) -> impl Iterator<Item = &'static str> + 'a {
    list.iter().flat_map(|e| e.split(' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str) -> &'static Described {
        DESCRIBED
            .iter()
            .find(|d| d.program == [name])
            .expect("a described row")
    }

    #[test]
    fn long_options_by_exact_spelling_or_unique_prefix() {
        let sort = row("sort");
        assert_eq!(
            long(sort, "--output=F"),
            Some((Kind::PathWrite, Value::Attached))
        );
        assert_eq!(long(sort, "--outp"), Some((Kind::PathWrite, Value::Next)));
        assert_eq!(long(sort, "--check"), Some((Kind::Text, Value::None)));
        assert_eq!(long(sort, "--unique"), Some((Kind::Flag, Value::None)));
        // `--r` is `--random-sort`, `--random-source` or `--reverse`.
        assert_eq!(long(sort, "--r"), None);
        assert_eq!(long(sort, "--frob"), None);
        // Two spellings of one option are one option.
        let grep = row("grep");
        assert_eq!(
            long(grep, "--col=never"),
            Some((Kind::Text, Value::Attached))
        );
        assert_eq!(long(grep, "--qui"), Some((Kind::Flag, Value::None)));
    }

    fn path(words: &[&str]) -> &'static Described {
        DESCRIBED
            .iter()
            .find(|d| d.program == words)
            .expect("a row")
    }

    #[test]
    fn git_parse_options_prefixes_and_negations() {
        let status = path(&["git", "status"]);
        let flag = Some((Kind::Flag, Value::None));
        assert_eq!(long(status, "--porc"), Some((Kind::Text, Value::None)));
        assert_eq!(
            long(status, "--porc=v1"),
            Some((Kind::Text, Value::Attached))
        );
        // `--no-NAME` unsets `--NAME`, abbreviated too; `--NAME` sets an
        // option named `--no-NAME`.
        assert_eq!(long(status, "--no-porcelain"), flag);
        assert_eq!(long(status, "--no-porc"), flag);
        assert_eq!(long(status, "--renames"), flag);
        assert_eq!(long(status, "--no-renames"), flag);
        // A negation takes no value; `--n` may negate any option.
        assert_eq!(long(status, "--no-porcelain=v1"), None);
        assert_eq!(long(status, "--n"), None);
        // `--ren` is `--renames` of the option `--no-renames`; one
        // negatable option alone is `--n` (git remote's `--no-verbose`);
        // an option without a `--no-` form has none.
        assert_eq!(long(status, "--ren"), flag);
        assert_eq!(long(path(&["git", "remote"]), "--n"), flag);
        assert_eq!(long(status, "--no-find-renames"), None);
        let refs = path(&["git", "for-each-ref"]);
        assert_eq!(long(refs, "--no-contai"), Some((Kind::Text, Value::Next)));
        // setup_revisions: the `--no-` forms the row lists, whole.
        let log = path(&["git", "log"]);
        assert_eq!(long(log, "--no-follow"), flag);
        assert_eq!(long(log, "--no-all"), None);
        assert_eq!(long(log, "--default=HEAD"), None);
        assert_eq!(long(status, "--frob"), None);
        // rev-parse compares whole words.
        let rev_parse = path(&["git", "rev-parse"]);
        assert_eq!(long(rev_parse, "--show-toplevel"), flag);
        assert_eq!(long(rev_parse, "--show-top"), None);
        assert_eq!(long(rev_parse, "--no-verify"), None);
        assert_eq!(
            long(rev_parse, "--short=8"),
            Some((Kind::Text, Value::Attached))
        );
        assert_eq!(long(rev_parse, "--short"), Some((Kind::Text, Value::None)));
    }

    #[test]
    fn clap_reads_whole_spellings_and_no_value_that_begins_with_a_dash() {
        let test = DESCRIBED
            .iter()
            .find(|d| d.grammar == CLAP && d.operands == ["open"])
            .expect("a clap row with operands");
        let found = |args: &str| {
            let line = format!("{} {args}", test.program.join(" "));
            let l = crate::reader::read(&line);
            let s = &l.segments[0];
            walk(test, &s.words, &s.known, test.program.len(), true)
        };
        let n = test.program.len();
        assert_eq!(found("-p foo -rj4 name -- --config=x"), Found::default());
        // No prefixes, no `--end-of-options`.
        assert_eq!(found("--releas").unplaced, Some(n));
        assert_eq!(found("--end-of-options").unplaced, Some(n));
        // An optional value not given: the next word is an option.
        assert_eq!(found("--bin --config=x").writes, Some(n + 1));
        assert_eq!(found("-p -Zx").writes, Some(n + 1));
        // A value that may begin with `-` is not taken either.
        assert_eq!(found(r#"-p "$P""#).unplaced, Some(n + 1));
    }

    #[test]
    fn leading_clusters_are_options_and_every_other_word_text() {
        let echo = DESCRIBED
            .iter()
            .find(|d| d.grammar == LEADING_CLUSTERS)
            .expect("a row");
        let found = |line: &str| {
            let l = crate::reader::read(line);
            let s = &l.segments[0];
            walk(echo, &s.words, &s.known, 1, true)
        };
        assert_eq!(found("x -ne --help -- -x a"), Found::default());
        assert_eq!(found("x \"$X\" -n"), Found::default());
    }

    fn walked(program: &str, line: &str) -> Found {
        let l = crate::reader::read(line);
        let s = &l.segments[0];
        walk(row(program), &s.words, &s.known, 1, true)
    }

    fn at(unplaced: Option<usize>, writes: Option<usize>) -> Found {
        Found { unplaced, writes }
    }

    #[test]
    fn find_reads_leading_options_start_paths_and_primaries() {
        let f = |line: &str| walked("find", line);
        assert_eq!(
            f(
                r"find -L -D tree -O3 . src -name x -a \( -newer f -o ! -path y \) -exec grep -l x {} + -newermt 2020-01-01 -print"
            ),
            Found::default()
        );
        // -delete takes no value and writes; -fprintf takes two.
        assert_eq!(f("find . -delete"), at(None, Some(2)));
        assert_eq!(f("find . -fprintf out fmt -frob"), at(Some(5), Some(2)));
        // A run ends at `;`: the words after it are find's again.
        assert_eq!(f(r"find . -exec rm -frob {} \; -fls x"), at(None, Some(7)));
        assert_eq!(f("find . -exec rm {} + -print"), Found::default());
        // Leading options only lead; a word after the expression began
        // is no start path; an expansion may be any primary.
        assert_eq!(f("find . -D tree"), at(Some(2), None));
        assert_eq!(f("find . -name a b"), at(Some(4), None));
        assert_eq!(f("find . $X"), at(Some(2), None));
        assert_eq!(f(r#"find "$D" -name x"#), at(Some(1), None));
        assert_eq!(f(r#"find "./$D" -name "$N""#), Found::default());
    }

    #[test]
    fn getopt_leading_stops_at_the_command() {
        let x = |line: &str| walked("xargs", line);
        assert_eq!(x("xargs -0 -n1 -i -l grep -l --frob x"), Found::default());
        assert_eq!(x("xargs --process-slot-var=V grep"), at(None, Some(1)));
        assert_eq!(x("xargs --max-l grep"), Found::default());
        assert_eq!(x("xargs --ma=1 grep"), at(Some(1), None));
        assert_eq!(x(r#"xargs "$O" grep"#), at(Some(1), None));
        let sed = |line: &str| walked("sed", line);
        assert_eq!(sed("sed -n p f -i.bak"), at(None, Some(4)));
        assert_eq!(sed("sed -n --in-pl=.bak p f"), at(None, Some(2)));
        assert_eq!(sed("sed -n -f x f"), at(None, Some(2)));
    }

    fn walk_of(line: &str) -> Found {
        let l = crate::reader::read(line);
        let s = &l.segments[0];
        let (row, from) = crate::facts::continuations::described_row(&s.words, &s.known)
            .expect("a described row");
        walk(row, &s.words, &s.known, from, true)
    }

    #[test]
    fn getopt_leading_ends_the_options_at_the_first_operand() {
        // tr's and basename's `+`: a later `--frob` is an operand.
        assert_eq!(walk_of("tr a --frob"), Found::default());
        assert_eq!(walk_of("basename x -a --frob"), Found::default());
        assert_eq!(walk_of("tr --frob a").unplaced, Some(1));
        assert_eq!(texts("basename /etc/x -s").as_deref(), Some("TT"));
    }

    #[test]
    fn a_writers_own_writes_are_no_continuation() {
        // uniq's OUTPUT is a write a reading program adds (§6.5).
        assert_eq!(walk_of("uniq a b").writes, Some(2));
        assert_eq!(walk_of("shuf -o f x").writes, Some(1));
        // cp's DEST, `-t` and `-S` are cp's own writes; a program its
        // `--strip-program` names is not install's.
        assert_eq!(walk_of("cp -S .bak a b"), Found::default());
        assert_eq!(walk_of("cp -t dist a b"), Found::default());
        assert_eq!(walk_of("install --strip-program=x a b").writes, Some(1));
    }

    /// The words of `line`'s first segment a row's types say are text,
    /// as `T` (text) and `p` (a possible place), or `None`.
    fn texts(line: &str) -> Option<String> {
        let l = crate::reader::read(line);
        let s = &l.segments[0];
        let (row, from) = crate::facts::continuations::described_row(&s.words, &s.known)?;
        let t = text_of(row, from, &s.words, &s.known)?;
        Some(
            t[from..]
                .iter()
                .map(|&t| if t { 'T' } else { 'p' })
                .collect(),
        )
    }

    #[test]
    fn text_words_are_the_values_and_operands_typed_text() {
        assert_eq!(texts(r#"grep -e "$PAT" src"#).as_deref(), Some("TTp"));
        assert_eq!(
            texts(r#"grep -n -e "$PAT" -f pats src"#).as_deref(),
            Some("TTTTpp")
        );
        assert_eq!(texts(r#"sort -k2 -o out "$F""#).as_deref(), None);
        assert_eq!(texts("sort -k 2 -t , in").as_deref(), Some("TTTTp"));
        assert_eq!(texts("head --lines=3 f").as_deref(), Some("Tp"));
        // A word that may be an option: sort has valued options.
        assert_eq!(texts(r#"sort "$F""#), None);
        // An unknown option, or a flag given a value: nothing is known.
        assert_eq!(texts("grep --frob x src"), None);
        assert_eq!(texts("ls --directory=/etc"), None);
        // After `--`, operands.
        assert_eq!(texts("cat -- -n").as_deref(), Some("pp"));
        // Not described.
        assert_eq!(texts("mytool -e x"), None);
    }

    /// The first unplaced word and the first that writes or runs, of
    /// `line`'s first segment read by its row.
    fn found(line: &str) -> (Option<usize>, Option<usize>) {
        let l = crate::reader::read(line);
        let s = &l.segments[0];
        let (row, from) = crate::facts::continuations::described_row(&s.words, &s.known)
            .expect("a described row");
        let f = walk(row, &s.words, &s.known, from, true);
        (f.unplaced, f.writes)
    }

    #[test]
    fn make_reads_getopt_prefixes_and_assignments() {
        let none = (None, None);
        assert_eq!(found("make -j4 -k test"), none);
        assert_eq!(found("make test -s --no-print-directory"), none);
        // `--ev` is `--eval` by getopt_long's prefix; `-E` too.
        assert_eq!(found("make test --ev 'x:;sh'"), (None, Some(2)));
        assert_eq!(found("make -sE 'x:;sh' test"), (None, Some(1)));
        // An operand holding `=` is an assignment: a variable make sets.
        assert_eq!(found("make test PATH=./bin"), (None, Some(2)));
        assert_eq!(found("make test X\"$Y\""), (None, Some(2)));
        // getopt's `--end-of-options` is no option of make's.
        assert_eq!(found("make --end-of-options test"), (Some(1), None));
    }

    #[test]
    fn go_flags_whole_with_the_test_binary_open() {
        let none = (None, None);
        assert_eq!(found("go test ./... -run TestX -count=1 -v"), none);
        // An unknown flag is the test binary's; `-args` passes the rest.
        assert_eq!(found("go test -myflag x ./... -args -exec y"), none);
        assert_eq!(found("go test ./... -- -exec y"), none);
        assert_eq!(found("go test -exec ./x ./..."), (None, Some(2)));
        assert_eq!(found("go test ./... --toolexec=./x"), (None, Some(3)));
        assert_eq!(found("go test -c"), (None, Some(2)));
        // A value in the next word: `-run -exec` runs nothing.
        assert_eq!(found("go test -run -exec ./..."), none);
        // No prefixes, no clusters: open, not `-exec`.
        assert_eq!(found("go test -exe ./x"), none);
        // After `-args`, the testing package's own flags.
        assert_eq!(
            found("go test . -args -test.testlogfile=x"),
            (None, Some(4))
        );
        assert_eq!(found(r#"go test -run="$X" ."#), none);
        assert_eq!(found(r#"go test "$F" ."#), (Some(2), None));
    }

    #[test]
    fn argparse_whole_options_plugins_open_and_the_pre_parse() {
        let none = (None, None);
        assert_eq!(found("pytest -k name -x tests/"), none);
        assert_eq!(found("pytest -vx -k name --tb=short"), none);
        // A plugin's option: open.
        assert_eq!(found("pytest --cov=src -n 4 --reruns 2"), none);
        assert_eq!(found("pytest -p evil"), (None, Some(1)));
        assert_eq!(found("pytest -k x -- -pevil"), (None, Some(4)));
        assert_eq!(found("pytest -vp evil"), (None, Some(1)));
        assert_eq!(found("pytest @args"), (None, Some(1)));
        // `no:NAME` blocks a plugin.
        assert_eq!(found("pytest -p no:cacheprovider -qpno:x"), none);
        assert_eq!(found("pytest --basetemp=x"), (None, Some(1)));
        // No prefixes: `--basetem` is a plugin's (open).
        assert_eq!(found("pytest --basetem x"), none);
        // A value never begins with `-`: `-k -c x` gives `-c` its value.
        assert_eq!(found("pytest -k -c x"), (None, Some(2)));
        // A word with an unknown part may be `-pNAME`.
        assert_eq!(found(r#"pytest -k "$K""#), (Some(2), None));
    }

    #[test]
    fn short_options_by_letter() {
        let sort = row("sort");
        assert_eq!(short(sort, 'o'), Some((Kind::PathWrite, false)));
        assert_eq!(short(sort, 'T'), Some((Kind::DirWrite, false)));
        assert_eq!(short(sort, 'u'), Some((Kind::Flag, false)));
        assert_eq!(short(sort, 'j'), None);
    }

    #[test]
    fn the_letters_table_agrees_with_the_rows() {
        for d in DESCRIBED {
            // A copy of the row is not in the catalogue: read by its lists.
            let copy = *d;
            for c in (0u8..128).map(char::from) {
                assert_eq!(short(d, c), short(&copy, c), "{:?} -{c}", d.program);
            }
        }
    }

    #[test]
    fn writes_holds_the_kinds_that_write_or_run() {
        for d in DESCRIBED {
            let by_kind = d
                .options()
                .iter()
                .any(|(list, kind)| kind.writes_or_runs() && !list.is_empty());
            assert_eq!(d.writes(), by_kind, "{:?}", d.program);
        }
    }

    #[test]
    fn rows_name_known_grammars_and_kinds() {
        for d in DESCRIBED {
            assert!(
                GRAMMARS.contains(&d.grammar),
                "{:?}: {}",
                d.program,
                d.grammar
            );
            for o in d.operands {
                assert!(
                    Kind::NAMES.iter().any(|(_, n)| n == o),
                    "{:?}: operand kind {o}",
                    d.program
                );
            }
        }
    }

    #[test]
    fn the_spellings_index_is_the_rows_lists() {
        // build.rs sorts each row's spellings; read back, they are the
        // lists' own, in `options()`' order, and every lookup by them
        // answers as a scan of the lists.
        for d in DESCRIBED {
            let mut scanned: Vec<(&str, usize, bool, &str)> = Vec::new();
            for (n, (list, _)) in d.options().iter().enumerate() {
                for entry in *list {
                    for s in entry.split(' ') {
                        let (t, o) = s.strip_suffix("[=]").map_or((s, false), |t| (t, true));
                        scanned.push((t, n, o, entry));
                    }
                }
            }
            scanned.sort_unstable();
            assert_eq!(d.spellings, &scanned[..], "{:?}", d.program);
            let bare = Described {
                spellings: &[],
                ..*d
            };
            for (s, ..) in d.spellings {
                for end in 1..=s.len() {
                    let name = &s[..end];
                    assert_eq!(exact(d, name), exact(&bare, name), "{name}");
                    let (a, b) = (prefixed(d, name), prefixed(&bare, name));
                    assert_eq!((a.one(), a.several), (b.one(), b.several), "{name}");
                }
            }
        }
    }

    #[test]
    fn rows_have_unique_spellings() {
        for d in DESCRIBED {
            let mut seen = std::collections::HashSet::new();
            for (list, _) in d.options() {
                for s in spellings(list) {
                    let s = s.trim_end_matches("[=]");
                    // dd's operands are spelled `KEY=` (the `dd` grammar).
                    let operand_key = d.grammar == DD && s.ends_with('=');
                    assert!(s.starts_with('-') || operand_key, "{:?}: {s}", d.program);
                    assert!(seen.insert(s), "{:?}: {s} twice", d.program);
                }
            }
        }
    }
}
