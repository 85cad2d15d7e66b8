//! Reading a described program's words (SPEC §4.5 items 1 and 2) as its
//! row's grammar says the program reads them: which option a word is,
//! its kind, and whether its value is in the word or the next one. The
//! rows are `catalogue::described`; this names no program.

pub use super::catalogue::described::{Described, Kind, DESCRIBED};

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
    let (name, attached) = match word.split_once('=') {
        Some((n, _)) => (n, true),
        None => (word, false),
    };
    let mut found: Option<(Kind, bool, &str)> = None;
    for (list, kind) in row.options() {
        for entry in list {
            let spellings = entry
                .split(' ')
                .filter(|s| s.starts_with("--"))
                .map(|s| s.strip_suffix("[=]").map_or((s, false), |s| (s, true)));
            if let Some((_, optional)) = spellings.clone().find(|(s, _)| *s == name) {
                return Some((kind, value(kind, optional, attached)));
            }
            let Some((_, optional)) = spellings.clone().find(|(s, _)| s.starts_with(name)) else {
                continue;
            };
            found = match found {
                // A prefix of two options: getopt_long refuses it, unless
                // a spelling is the word exactly.
                Some((_, _, e)) if e != *entry => Some((Kind::Flag, false, "")),
                _ => Some((kind, optional, entry)),
            };
        }
    }
    match found {
        Some((kind, optional, e)) if !e.is_empty() && name.len() > 2 => {
            Some((kind, value(kind, optional, attached)))
        }
        _ => None,
    }
}

fn value(kind: Kind, optional: bool, attached: bool) -> Value {
    match (kind, attached) {
        (_, true) => Value::Attached,
        (Kind::Flag, false) => Value::None,
        (_, false) if optional => Value::None,
        _ => Value::Next,
    }
}

/// The kind of the short option `-c`, if the row has one.
pub fn short(row: &Described, c: char) -> Option<Kind> {
    row.options().into_iter().find_map(|(list, kind)| {
        list.iter()
            .any(|entry| {
                entry.split(' ').any(|s| {
                    let mut chars = s.chars();
                    chars.next() == Some('-') && chars.next() == Some(c) && chars.next().is_none()
                })
            })
            .then_some(kind)
    })
}

/// The row's spellings of one kind's options, for the docs.
pub fn spellings<'a>(list: &'a [&'static str]) -> impl Iterator<Item = &'static str> + 'a {
    list.iter().flat_map(|e| e.split(' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str) -> &'static Described {
        DESCRIBED.iter().find(|d| d.program == [name]).unwrap()
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
        let sort = row("sort");
        assert_eq!(short(sort, 'o'), Some(Kind::PathWrite));
        assert_eq!(short(sort, 'T'), Some(Kind::DirWrite));
        assert_eq!(short(sort, 'u'), Some(Kind::Flag));
        assert_eq!(short(sort, 'j'), None);
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
