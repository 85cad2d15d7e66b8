//! Reading a described program's words (SPEC §4.5 items 1 and 2) as its
//! row's grammar says the program reads them: which option a word is,
//! its kind, and whether its value is in the word or the next one. The
//! rows are `catalogue::described`; this names no program.

pub use super::catalogue::described::{
    Described, Kind, CLAP, DESCRIBED, EXACT, GETOPT, GIT, GIT_REVISIONS, GRAMMARS,
    LEADING_CLUSTERS, NOPT, NOPT_EXEC,
};
use crate::reader::Known;
use std::borrow::Cow;

mod nopt;

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
/// `--no-NAME`, abbreviated too) or `git-revisions` (setup_revisions
/// and diff's options: whole spellings and their `--no-` forms, no
/// prefixes — `git log --outp` is refused). Two spellings of one option
/// are one option. `None`: no option, or several (the word is unplaced).
pub fn long(row: &Described, word: &str) -> Option<(Kind, Value)> {
    let (name, attached) = match word.split_once('=') {
        Some((n, _)) => (n, true),
        None => (word, false),
    };
    let git = matches!(row.grammar, GIT | GIT_REVISIONS);
    let abbreviated = matches!(row.grammar, GETOPT | GIT);
    // A flag given a value (`--directory=x`) is refused by getopt_long
    // and parse-options: no option of the row.
    let valued = |(kind, optional): (Kind, bool)| kind != Kind::Flag || !attached || optional;
    if let Some((kind, optional)) = exact(row, name) {
        return valued((kind, optional)).then(|| (kind, value(kind, optional, attached)));
    }
    // git's negations take no value: `--no-NAME` unsets `--NAME`, and an
    // option named `--no-NAME` is also set by `--NAME`.
    let negated = name.strip_prefix("--no-");
    if git && !attached {
        let flipped = |s: &str| match negated {
            Some(n) => s.strip_prefix("--") == Some(n),
            None => s.strip_prefix("--no-") == name.strip_prefix("--"),
        };
        if find(row, flipped).one().is_some() {
            return Some((Kind::Flag, Value::None));
        }
    }
    if !abbreviated || name.len() <= 2 || (git && "--no-".starts_with(name)) {
        return None;
    }
    let mut candidates = find(row, |s| s.starts_with(name));
    if git && !attached {
        if let Some(n) = negated {
            let negations = find(row, |s| {
                s.strip_prefix("--").is_some_and(|l| l.starts_with(n))
            });
            candidates.add(negations.flagged());
        }
    }
    let (kind, optional, _) = candidates.one()?;
    valued((kind, optional)).then(|| (kind, value(kind, optional, attached)))
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
/// optional: the first hit is the only one (a row spells each option
/// once, `rows_have_unique_spellings`), so the scan stops there.
fn exact(row: &Described, name: &str) -> Option<(Kind, bool)> {
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
const SHORTS: [[u8; 128]; DESCRIBED.len()] = {
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
/// position). With `all`, reads on past the first write to find the first
/// unplaced word too; else it stops at the first word of either.
pub fn walk(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    if matches!(row.grammar, NOPT | NOPT_EXEC) {
        return nopt::walk(row, words, known, from, all);
    }
    let mut found = Found::default();
    let note = |slot: &mut Option<usize>, i: usize| {
        slot.get_or_insert(i);
    };
    let leading = row.grammar == LEADING_CLUSTERS;
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
                Partial::Placed(kind) if kind.writes_or_runs() => note(&mut found.writes, i),
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
            options_done |= leading;
            let kind = operand_kind(row, operands);
            operands += 1;
            match kind {
                None => note(&mut found.unplaced, i),
                Some(kind) if kind.writes_or_runs() => note(&mut found.writes, i),
                Some(_) => {}
            }
        } else if w == "--" || (w == "--end-of-options" && end_of_options) {
            options_done = true;
        } else if w.starts_with("--") {
            match long(row, w) {
                None => note(&mut found.unplaced, i),
                Some((kind, value)) => {
                    if kind.writes_or_runs() {
                        note(&mut found.writes, i);
                    }
                    if value == Value::Next && consumes(i + 1) {
                        i += 1;
                    }
                }
            }
        } else {
            for (at, c) in w.char_indices().skip(1) {
                let Some((kind, optional)) = short(row, c) else {
                    note(&mut found.unplaced, i);
                    break;
                };
                if kind.writes_or_runs() {
                    note(&mut found.writes, i);
                }
                if kind == Kind::Flag {
                    continue;
                }
                // The rest of the word is the value, else the next (an
                // optional value is only ever attached).
                if at + c.len_utf8() == w.len() && !optional && consumes(i + 1) {
                    i += 1;
                }
                break;
            }
        }
        i += 1;
    }
    found
}

/// Is word `j` the value of the valued option before it? Always for
/// getopt and git; clap takes a word that begins with `-` (or may) as an
/// option, not as the value.
fn takes_value(row: &Described, words: &[Cow<'_, str>], known: &[Known], j: usize) -> bool {
    row.grammar != CLAP
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
    if !row.verified || row.grammar != GETOPT {
        return None;
    }
    text_of(row, from, words, known)
}

/// [`text_words`] by `row`, verified or not, from word `from` on.
fn text_of(
    row: &Described,
    from: usize,
    words: &[Cow<'_, str>],
    known: &[Known],
) -> Option<Vec<bool>> {
    let kn = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    // Past the last listed operand kind, every operand has the last one:
    // there a word that may be several words, or no option after all,
    // moves no later word to another kind.
    let settled = |operand: usize| operand + 1 >= row.operands.len();
    let only_flags = row.lists()[1..].iter().all(|list| list.is_empty());
    let mut text = vec![false; words.len()];
    let (mut i, mut operand, mut options) = (from, 0, true);
    // An unknown word may have been `--`: a later option word may be an
    // operand, so it is text only if an operand there would be.
    let mut uncertain = false;
    while let Some(w) = words.get(i) {
        let exact = kn(i) == Known::Exact;
        let operand_text = operand_kind(row, operand) == Some(Kind::Text);
        if options && exact && w == "--" {
            options = uncertain;
        } else if !exact {
            let may_be_option = options && w.starts_with(['-', '$', '`', '*', '?', '[']);
            let several = kn(i) != Known::OneToken;
            if (may_be_option && !only_flags) || ((several || may_be_option) && !settled(operand)) {
                return None;
            }
            uncertain |= may_be_option;
            text[i] = operand_text;
            operand += 1;
        } else if options && w.starts_with('-') && w.len() > 1 {
            let (kind, value) = option_word(row, w)?;
            // The option's name names no place; an attached value does
            // unless it is text.
            let as_option = value != Value::Attached || matches!(kind, Kind::Flag | Kind::Text);
            text[i] = as_option && (!uncertain || operand_text);
            if value == Value::Next {
                if uncertain && !settled(operand) {
                    return None;
                }
                i += 1;
                if let Some(t) = text.get_mut(i) {
                    *t = kind == Kind::Text && (!uncertain || operand_text);
                }
            }
        } else {
            text[i] = operand_text;
            operand += 1;
        }
        i += 1;
    }
    Some(text)
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
    fn rows_have_unique_spellings() {
        for d in DESCRIBED {
            let mut seen = std::collections::HashSet::new();
            for (list, _) in d.options() {
                for s in spellings(list) {
                    let s = s.trim_end_matches("[=]");
                    assert!(s.starts_with('-'), "{:?}: {s}", d.program);
                    assert!(seen.insert(s), "{:?}: {s} twice", d.program);
                }
            }
        }
    }
}
