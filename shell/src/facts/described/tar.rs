//! The `tar` grammar (SPEC §4.5 item 1): GNU tar 1.34's command line as
//! argp reads it — getopt_long's spellings (clusters, a value attached or
//! next, long options by a unique prefix, options anywhere before `--`)
//! — and tar's old style: a first word that does not begin with `-` is a
//! cluster of the row's one-letter options without the dash (`tar xzf
//! a.tgz`, `tar cf - .`), each letter that takes a value taking the next
//! word not yet taken, in order (`tar cfb a.tar 20 src`: `f` takes
//! `a.tar`, `b` takes `20`). The words after the old-style ones are read
//! as getopt reads them. This names no program.

use super::{continues, short, Described, Found, Kind};
use crate::reader::Known;
use std::borrow::Cow;

/// Reads the old-style first word at `from`, if there is one, and the
/// values its letters take: what it found, and the index of the first
/// word left for getopt's reading.
pub(super) fn old_style(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
) -> (Found, usize) {
    let mut found = Found::default();
    let Some(first) = words.get(from) else {
        return (found, from);
    };
    // A word with an unknown part, or one that begins with `-`: getopt's
    // reading (a word that may be any option is read there as one).
    let exact = known.get(from).is_none_or(|k| *k == Known::Exact);
    if !exact || first.starts_with('-') {
        return (found, from);
    }
    let mut next = from + 1;
    for c in first.chars() {
        let Some((kind, _)) = short(row, c) else {
            found.unplaced.get_or_insert(from);
            continue;
        };
        if continues(row, kind) {
            found.writes.get_or_insert(from);
        }
        if kind == Kind::Flag {
            continue;
        }
        // The letter's value: the next word not yet taken, whatever it
        // is (`tar cf -x` archives into `-x`); a value that may be
        // several words moves every later one.
        if known.get(next).is_some_and(|k| *k == Known::AnyTokens) {
            found.unplaced.get_or_insert(next);
        }
        next += 1;
    }
    (found, next.min(words.len()))
}

#[cfg(test)]
mod tests {
    use super::super::walk;
    use crate::facts::described::{Found, DESCRIBED, TAR};

    fn found(line: &str) -> Found {
        let row = DESCRIBED
            .iter()
            .find(|d| d.grammar == TAR)
            .expect("a tar row");
        let l = crate::reader::read(line);
        let s = &l.segments[0];
        walk(row, &s.words, &s.known, 1, true)
    }

    #[test]
    fn old_style_letters_take_the_next_words_in_order() {
        let none = Found::default();
        assert_eq!(found("tar xzf a.tgz"), none);
        assert_eq!(found("tar cf - ."), none);
        assert_eq!(found("tar cfb a.tar 20 src"), none);
        assert_eq!(found("tar xzf out.tgz -C build"), none);
        assert_eq!(found("tar tvf a.tar --wildcards '*.c'"), none);
        // A letter the row lacks; `-f`'s value is not an option.
        assert_eq!(found("tar xyf a.tar").unplaced, Some(1));
        assert_eq!(found("tar cf --to-command=x src"), none);
        // `I` takes the next word and runs it; `--to-command` after.
        assert_eq!(found("tar xIf gzip a.tar").writes, Some(1));
        assert_eq!(found("tar xf a.tar --to-command=sh").writes, Some(3));
        // Getopt's prefixes after the old-style word.
        assert_eq!(found("tar xf a.tar --to-com=sh").writes, Some(3));
        assert_eq!(found("tar xf a.tar --pre").unplaced, Some(3));
    }
}
