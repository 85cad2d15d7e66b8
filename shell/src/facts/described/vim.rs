//! The `vim` grammar (SPEC §4.5 item 1): Vim's own command line, as
//! main.c's `command_line_scan` reads it. Every word up to `--` that
//! begins with `-` (but `-` alone, stdin: `text`) is options, wherever it
//! is among the file operands; a word `+` or `+NUM` is a line number
//! (`text`), any other `+CMD` a command, of the kind of the row's `-c`
//! (`+/PAT|CMD` runs CMD too). Short options are read letter by letter
//! in one word (`-nR`); a spelling's suffix says where its value is:
//!
//! - none: the next word only (`-u FILE`; `-uFILE` is refused as
//!   garbage) — the value list's kind;
//! - `[+]`: the rest of the word, else the next word (`-cCMD`, `-c CMD`);
//! - `[=]`: the rest of the word only, if any (`-V9log`);
//! - `[N]`: digits attached, if any, then more letters (`-o2R`): text;
//! - `[#]`: digits attached (text), else the next word (`-w FILE`);
//! - `[?]`: the next word unless it begins with `-` (`-S` takes a
//!   default session file then);
//! - `[0]`: no value, the list's kind (`-e[0]`: Ex mode, which reads its
//!   commands from stdin, `code`).
//!
//! A spelling of two letters after one dash (`-nb[=]`) is read where its
//! first letter is followed by its second (`-nb…`, `-Rnb…`): the rest of
//! the word is its value. Long
//! options are whole words in any case (`--CLEAN`; Vim also reads a
//! flag's word that only begins with the name, `--clean9`, which the
//! row leaves unplaced: it only tightens), a valued one's value the next
//! word. This names no program.

use super::{continues, operand_kind, Described, Found, Kind};
use crate::reader::Known;
use std::borrow::Cow;

/// Where a short option's value is (the spelling's suffix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    /// The next word only.
    Next,
    /// `[+]`: the rest of the word, else the next word.
    RestOrNext,
    /// `[=]`: the rest of the word, if any.
    Rest,
    /// `[N]`: digits attached, then more letters.
    Digits,
    /// `[#]`: digits attached, else the next word.
    DigitsOrNext,
    /// `[?]`: the next word unless it begins with `-`.
    NextUnlessOption,
    /// `[0]` or a flag: no value.
    None,
}

const SUFFIXES: [(&str, Arity); 6] = [
    ("[+]", Arity::RestOrNext),
    ("[=]", Arity::Rest),
    ("[N]", Arity::Digits),
    ("[#]", Arity::DigitsOrNext),
    ("[?]", Arity::NextUnlessOption),
    ("[0]", Arity::None),
];

/// A spelling less its suffix, and the arity the suffix gives.
fn arity(s: &str, kind: Kind) -> (&str, Arity) {
    for (suffix, a) in SUFFIXES {
        if let Some(name) = s.strip_suffix(suffix) {
            return (name, a);
        }
    }
    (
        s,
        if kind == Kind::Flag {
            Arity::None
        } else {
            Arity::Next
        },
    )
}

/// The row's option whose spelling (without suffix) passes `test`, its
/// kind and arity.
fn option(row: &Described, test: impl Fn(&str) -> bool) -> Option<(Kind, Arity)> {
    row.entries().find_map(|(kind, e)| {
        e.split(' ').find_map(|s| {
            let (n, a) = arity(s, kind);
            test(n).then_some((kind, a))
        })
    })
}

/// The row's long option `w` spells (in any case).
fn long(row: &Described, w: &str) -> Option<(Kind, Arity)> {
    option(row, |n| n.starts_with("--") && n.eq_ignore_ascii_case(w))
}

/// The row's short option `-c`.
fn letter(row: &Described, c: char) -> Option<(Kind, Arity)> {
    option(row, |n| {
        n.strip_prefix('-')
            .and_then(|l| l.strip_prefix(c))
            .is_some_and(str::is_empty)
    })
}

/// Notes word `i` of `kind` in `found`: unplaced (`None`), or a word
/// that writes or runs — but a writer's own writes (the files it edits).
fn note(row: &Described, found: &mut Found, i: usize, kind: Option<Kind>) {
    match kind {
        None => {
            found.unplaced.get_or_insert(i);
        }
        Some(kind) if continues(row, kind) => {
            found.writes.get_or_insert(i);
        }
        Some(_) => {}
    }
}

/// The row's option of two letters (`-nb`) whose first is `c` and whose
/// second begins `rest` (Vim reads `-Rnb…` as `-R` and `-nb…` too).
fn pair(row: &Described, c: char, rest: &str) -> Option<Kind> {
    row.entries().find_map(|(kind, e)| {
        e.split(' ').find_map(|s| {
            let (n, _) = arity(s, kind);
            let second = n.strip_prefix('-')?.strip_prefix(c)?;
            (second.chars().count() == 1 && rest.starts_with(second)).then_some(kind)
        })
    })
}

/// [`super::walk`] for a `vim` row.
pub(super) fn walk(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    let mut found = Found::default();
    let kn = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    let (mut options, mut operands, mut i) = (true, 0, from);
    while let Some(w) = words.get(i) {
        if !all && found.first().is_some() {
            break;
        }
        let k = kn(i);
        i += 1;
        if options && k != Known::Exact {
            // An unknown part where an option or a `+CMD` may be.
            let open = match k {
                Known::OneToken => w.starts_with(['-', '+', '$', '`']),
                Known::Glob => w.starts_with(['-', '+', '*', '?', '[']),
                _ => true,
            };
            if open {
                note(row, &mut found, i - 1, None);
                continue;
            }
        }
        if options && w == "--" && k == Known::Exact {
            options = false;
        } else if options && w.starts_with('+') {
            let line = w[1..].bytes().all(|b| b.is_ascii_digit());
            let kind = if line {
                Some(Kind::Text)
            } else {
                letter(row, 'c').map(|(kind, _)| kind)
            };
            note(row, &mut found, i - 1, kind);
        } else if options && w == "-" {
            note(row, &mut found, i - 1, Some(Kind::Text));
        } else if options && w.starts_with("--") {
            let (kind, arity) = long(row, w).map_or((None, Arity::None), |(k, a)| (Some(k), a));
            note(row, &mut found, i - 1, kind);
            i += usize::from(arity != Arity::None && words.get(i).is_some());
        } else if options && w.starts_with('-') {
            i += cluster(row, words, i - 1, &mut found);
        } else {
            note(row, &mut found, i - 1, operand_kind(row, operands));
            operands += 1;
        }
    }
    found
}

/// Reads the option word at `i` letter by letter into `found`; how many
/// words after it its last option took as its value (0 or 1).
fn cluster(row: &Described, words: &[Cow<'_, str>], i: usize, found: &mut Found) -> usize {
    let w = &words[i];
    let next = words.get(i + 1).map(|n| &**n);
    let mut at = 1;
    while let Some(c) = w[at..].chars().next() {
        at += c.len_utf8();
        if let Some(kind) = pair(row, c, &w[at..]) {
            // The rest of the word is its value.
            note(row, found, i, Some(kind));
            return 0;
        }
        let Some((kind, arity)) = letter(row, c) else {
            note(row, found, i, None);
            return 0;
        };
        let rest = &w[at..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (value_kind, took) = match arity {
            Arity::None => (kind, None),
            Arity::Digits => {
                at += digits;
                (Kind::Text, None)
            }
            Arity::DigitsOrNext if digits > 0 => {
                at += digits;
                (Kind::Text, None)
            }
            Arity::Rest if rest.is_empty() => (Kind::Flag, None),
            Arity::Rest => (kind, Some(0)),
            Arity::RestOrNext if !rest.is_empty() => (kind, Some(0)),
            // A value next, and nothing attached (else Vim refuses the
            // word as garbage: unplaced).
            _ if !rest.is_empty() => {
                note(row, found, i, None);
                return 0;
            }
            Arity::NextUnlessOption if next.is_none_or(|n| n.starts_with('-')) => (kind, Some(0)),
            _ => (kind, Some(usize::from(next.is_some()))),
        };
        note(row, found, i, Some(value_kind));
        if let Some(took) = took {
            return took;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::super::{walk, DESCRIBED, VIM};

    fn found(line: &str) -> (Option<usize>, Option<usize>) {
        let l = crate::reader::read(line);
        let s = &l.segments[0];
        let row = DESCRIBED
            .iter()
            .find(|d| d.grammar == VIM && d.program == [&*s.words[0]])
            .expect("a vim row");
        let f = walk(row, &s.words, &s.known, 1, true);
        (f.unplaced, f.writes)
    }

    #[test]
    fn vim_reads_its_letters_values_and_plus_commands() {
        let none = (None, None);
        assert_eq!(found("vim --version"), none);
        assert_eq!(found("vim -h"), none);
        assert_eq!(found("vim -R -n +12 +"), none);
        assert_eq!(found("vim -o2R -p -T xterm --CLEAN --not-a-term -"), none);
        // An editor writes what it opens: its own write (a writer).
        assert_eq!(found("vim -R notes.md"), none);
        // Commands, sourced files, keys, settings, Ex mode from stdin.
        assert_eq!(found("vim -c 'w x' f"), (None, Some(1)));
        assert_eq!(found("vim f -cq"), (None, Some(2)));
        assert_eq!(found("vim f +w"), (None, Some(2)));
        assert_eq!(found("vim +/x/|w f"), (None, Some(1)));
        assert_eq!(found("vim --cmd 'w x' f"), (None, Some(1)));
        assert_eq!(found("vim -S s.vim f"), (None, Some(1)));
        assert_eq!(found("vim -u ./x.vim f"), (None, Some(1)));
        assert_eq!(found("vim -s keys f"), (None, Some(1)));
        assert_eq!(found("vim -es f"), (None, Some(1)));
        assert_eq!(found("vim -nE f"), (None, Some(1)));
        assert_eq!(found("vim -nb:h:1:p f"), (None, Some(1)));
        assert_eq!(found("vim -Rnb f"), (None, Some(1)));
        assert_eq!(found("vim -n -b f"), none);
        // The keys, logs and viminfo it writes are its own writes too
        // (the scope and the protected paths read them).
        assert_eq!(found("vim -w keys f"), none);
        assert_eq!(found("vim -w5 f"), none);
        assert_eq!(found("vim -V9log f"), none);
        assert_eq!(found("vim --startuptime t f"), none);
        // `-o` reads digits only: `-ocq` is `-o -c q`.
        assert_eq!(found("vim -ocq f"), (None, Some(1)));
        // Garbage after a letter whose value is the next word; unknown
        // options; after `--`, file names.
        assert_eq!(found("vim -ux f"), (Some(1), None));
        assert_eq!(found("vim --frob f"), (Some(1), None));
        assert_eq!(found("vim -z f"), (Some(1), None));
        assert_eq!(found("vim -- -c x +w"), none);
        // A word with an unknown part where an option may be.
        assert_eq!(found(r#"vim "$F""#), (Some(1), None));
        assert_eq!(found(r#"vim "./$F""#), none);
        // ex reads `-s` as silent mode.
        assert_eq!(found("ex -s f"), none);
    }
}
