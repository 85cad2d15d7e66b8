//! The `dd` grammar (SPEC §4.5 item 1): GNU dd's command line. Its long
//! options (`--help`, `--version`: parse_gnu_standard_options_only, a
//! unique prefix too) anywhere before `--`; every other word an operand
//! `KEY=VALUE`, split at its first `=`, whose key the row lists whole
//! with its `=` (`if=`, `of=`): the value has that entry's kind. A word
//! without `=`, a key the row lacks, a short option: unplaced (dd refuses
//! them). A word with an unknown part is placed by its key when the key
//! is literal; else it may be any operand (`of=…`) or option: unplaced
//! where the row holds a kind that writes or runs. This names no program.

use super::{continues, long, Described, Found, Kind};
use crate::reader::Known;
use std::borrow::Cow;

/// The kind of the operand key (`of=`), if the row lists it.
fn key_kind(row: &Described, key: &str) -> Option<Kind> {
    row.entries()
        .find(|(_, e)| e.split(' ').any(|s| s == key))
        .map(|(k, _)| k)
}

/// What one word is: `Some(kind)` placed, `None` unplaced.
fn read(row: &Described, w: &str, k: Known, options: bool) -> Option<Kind> {
    let literal = |t: &str| !t.contains(['$', '`', '*', '?', '[', '\\', '"', '\'']);
    if k != Known::Exact {
        return match w.split_once('=') {
            Some((key, _)) if literal(key) => key_kind(row, &format!("{key}=")),
            // Any operand or option: a flag (no write) only where none writes.
            _ => (!row.writes()).then_some(Kind::Flag),
        };
    }
    if options && w.starts_with('-') && w != "-" {
        return match long(row, w) {
            Some((Kind::Flag, _)) if w.starts_with("--") => Some(Kind::Flag),
            _ => None,
        };
    }
    let (key, _) = w.split_once('=')?;
    key_kind(row, &format!("{key}="))
}

/// Reads `words` from `from` as dd does (see the module's notes).
pub fn walk(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    let mut found = Found::default();
    let mut options = true;
    for (i, w) in words.iter().enumerate().skip(from) {
        if !all && found.first().is_some() {
            break;
        }
        let k = known.get(i).copied().unwrap_or(Known::Exact);
        if options && k == Known::Exact && w == "--" {
            options = false;
            continue;
        }
        match read(row, w, k, options) {
            Some(kind) if continues(row, kind) => {
                found.writes.get_or_insert(i);
            }
            Some(_) => {}
            None => {
                found.unplaced.get_or_insert(i);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::{DD, DESCRIBED};
    use super::*;

    fn read_line(line: &str) -> Found {
        let row = DESCRIBED
            .iter()
            .find(|d| d.grammar == DD)
            .expect("a dd row");
        let words: Vec<Cow<'_, str>> = line.split(' ').map(Cow::Borrowed).collect();
        let known = vec![Known::Exact; words.len()];
        walk(row, &words, &known, 1, true)
    }

    #[test]
    fn keys_whole_options_by_a_prefix() {
        let placed = |l: &str| read_line(l).first().is_none();
        assert!(placed("x if=a of=b bs=1M conv=notrunc,fsync status=none"));
        assert!(placed("x --he"));
        assert!(placed("x if=a=b"));
        assert!(placed("x -- if=a"));
        assert_eq!(read_line("x if=a frob=1").unplaced, Some(2));
        assert_eq!(read_line("x count").unplaced, Some(1));
        assert_eq!(read_line("x -x").unplaced, Some(1));
        assert_eq!(read_line("x --frob").unplaced, Some(1));
        assert_eq!(read_line("x -- --help").unplaced, Some(2));
        assert_eq!(read_line("x i=a").unplaced, Some(1));
    }
}
