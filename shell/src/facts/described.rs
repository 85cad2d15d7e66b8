//! Reading a described program's words (SPEC §4.5 items 1 and 2) as its
//! row's grammar says the program reads them: which option a word is,
//! its kind, and whether its value is in the word or the next one. The
//! rows are `catalogue::described`; this names no program.

pub use super::catalogue::described::{Described, Kind, DESCRIBED};
use crate::reader::Known;
use std::borrow::Cow;

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

/// The option a long word (`--outp=F`) spells, as GNU getopt_long reads
/// it: a spelling exactly, or a unique prefix of the row's long
/// spellings (two spellings of one option are one option). `None`: no
/// option, or several.
pub fn long(row: &Described, word: &str) -> Option<(Kind, Value)> {
    long_of(row.entries(), word)
}

/// [`long`] over any option entries (a built-in row's, a project row's,
/// or both one after the other).
pub fn long_of<'e>(
    entries: impl Iterator<Item = (Kind, &'e str)> + Clone,
    word: &str,
) -> Option<(Kind, Value)> {
    let (name, attached) = match word.split_once('=') {
        Some((n, _)) => (n, true),
        None => (word, false),
    };
    let mut found: Option<(Kind, bool, &str)> = None;
    for (kind, entry) in entries {
        let spellings = entry
            .split(' ')
            .filter(|s| s.starts_with("--"))
            .map(|s| s.strip_suffix("[=]").map_or((s, false), |s| (s, true)));
        if let Some((_, optional)) = spellings.clone().find(|(s, _)| *s == name) {
            // A flag given a value (`--directory=x`) is refused by
            // getopt_long: no option of the row.
            return (kind != Kind::Flag || !attached || optional)
                .then(|| (kind, value(kind, optional, attached)));
        }
        let Some((_, optional)) = spellings.clone().find(|(s, _)| s.starts_with(name)) else {
            continue;
        };
        found = match found {
            // A prefix of two options: getopt_long refuses it, unless
            // a spelling is the word exactly.
            Some((_, _, e)) if e != entry => Some((Kind::Flag, false, "")),
            _ => Some((kind, optional, entry)),
        };
    }
    match found {
        Some((kind, optional, e))
            if !e.is_empty() && name.len() > 2 && (kind != Kind::Flag || !attached || optional) =>
        {
            Some((kind, value(kind, optional, attached)))
        }
        _ => None,
    }
}

/// The kind of the short option `-c` among option entries (the slow
/// form of [`short`], for a project's rows).
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

fn value(kind: Kind, optional: bool, attached: bool) -> Value {
    match (kind, attached) {
        (_, true) => Value::Attached,
        (Kind::Flag, false) => Value::None,
        (_, false) if optional => Value::None,
        _ => Value::Next,
    }
}

/// Each row's short options, built from [`DESCRIBED`] at compile time:
/// for each ASCII character, 1 + the index in [`Kind::NAMES`] of the
/// kind of the option it spells, or 0 (so a cluster costs a load a
/// letter).
static SHORTS: [[u8; 128]; DESCRIBED.len()] = {
    let mut out = [[0u8; 128]; DESCRIBED.len()];
    let mut r = 0;
    while r < DESCRIBED.len() {
        let lists = DESCRIBED[r].options();
        let mut l = 0;
        while l < lists.len() {
            let (list, kind) = lists[l];
            let mut e = 0;
            while e < list.len() {
                let b = list[e].as_bytes();
                let mut at = 0;
                while at < b.len() {
                    // One spelling: `-c` is a short option.
                    let mut end = at;
                    while end < b.len() && b[end] != b' ' {
                        end += 1;
                    }
                    if end - at == 2 && b[at] == b'-' && b[at + 1] != b'-' && b[at + 1] < 128 {
                        out[r][b[at + 1] as usize] = kind as u8 + 1;
                    }
                    at = end + 1;
                }
                e += 1;
            }
            l += 1;
        }
        r += 1;
    }
    out
};

/// The short options' table of `row` (a row of [`DESCRIBED`], found by
/// its program: a `const` table is not one place in memory).
pub fn shorts(row: &Described) -> &'static [u8; 128] {
    static NONE: [u8; 128] = [0; 128];
    DESCRIBED
        .iter()
        .position(|d| d.program == row.program)
        .map_or(&NONE, |i| &SHORTS[i])
}

/// The kind of the short option `-c` in a row's table ([`shorts`]).
pub fn short(table: &[u8; 128], c: char) -> Option<Kind> {
    let k = *table.get(c as usize)?;
    (k != 0).then(|| Kind::NAMES[usize::from(k - 1)].0)
}

/// SPEC §4.5 item 4: which of a segment's words a verified row types
/// `text` (a value or an operand the program never opens as a file, or
/// an option word with no place in it) — the path scope and the protected
/// paths do not read them. `None` when no verified row describes the
/// segment, or a word cannot be placed (an unknown option, a word that
/// may begin with `-`): then every word is a possible place, as for an
/// undescribed program.
pub fn text_words(words: &[Cow<'_, str>], known: &[Known]) -> Option<Vec<bool>> {
    let (row, from) = super::continuations::described_row(words, known)?;
    if !row.verified {
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
    let table = shorts(row);
    let kn = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    // Past the last listed operand kind, every operand has the last one:
    // there a word that may be several words, or no option after all,
    // moves no later word to another kind.
    let settled = |operand: usize| operand + 1 >= row.operands.len();
    let only_flags = row.options()[1..].iter().all(|(list, _)| list.is_empty());
    let mut text = vec![false; words.len()];
    let (mut i, mut operand, mut options) = (from, 0, true);
    // An unknown word may have been `--`: a later option word may be an
    // operand, so it is text only if an operand there would be.
    let mut uncertain = false;
    while let Some(w) = words.get(i) {
        let exact = kn(i) == Known::Exact;
        let operand_text = operand_kind(row, operand) == Kind::Text;
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
            let (kind, value) = option_word(row, table, w)?;
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
fn option_word(row: &Described, table: &[u8; 128], w: &str) -> Option<(Kind, Value)> {
    if w.starts_with("--") {
        return long(row, w);
    }
    for (at, c) in w.char_indices().skip(1) {
        match short(table, c)? {
            Kind::Flag => {}
            kind => {
                let attached = at + c.len_utf8() < w.len();
                return Some((
                    kind,
                    if attached {
                        Value::Attached
                    } else {
                        Value::Next
                    },
                ));
            }
        }
    }
    Some((Kind::Flag, Value::None))
}

/// The kind of operand `n` (the last of the row's repeats).
fn operand_kind(row: &Described, n: usize) -> Kind {
    let name = row
        .operands
        .get(n)
        .or(row.operands.last())
        .copied()
        .unwrap_or("open");
    Kind::NAMES
        .iter()
        .find(|(_, k)| *k == name)
        .map_or(Kind::Open, |(kind, _)| *kind)
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
            .expect("a row of that program")
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

    #[test]
    fn short_options_by_letter() {
        let sort = shorts(row("sort"));
        assert_eq!(short(sort, 'o'), Some(Kind::PathWrite));
        assert_eq!(short(sort, 'T'), Some(Kind::DirWrite));
        assert_eq!(short(sort, 'u'), Some(Kind::Flag));
        assert_eq!(short(sort, 'j'), None);
        assert_eq!(short(sort, 'é'), None);
        for (i, (kind, _)) in Kind::NAMES.iter().enumerate() {
            assert_eq!(*kind as usize, i, "Kind::NAMES is in the enum's order");
        }
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
        // An unknown option: nothing is known.
        assert_eq!(texts("grep --frob x src"), None);
        // After `--`, operands.
        assert_eq!(texts("cat -- -n").as_deref(), Some("pp"));
        // Not described.
        assert_eq!(texts("mytool -e x"), None);
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
