//! The `nopt` grammar (SPEC §4.5 item 1: "npm's nopt as npm 11 really
//! reads it"): a node package manager's configuration keys on the line,
//! read as nopt 9's `parse` and `resolveShort` read them. Any number of
//! leading dashes is one: `-scrip=X` is `--scrip=X`. A word is, in
//! order: a key by its whole name; a shorthand by its whole name (the
//! row's one-dash spellings, `-C`, `-ws`); a word of one-letter
//! shorthands (`-gC` is `-g -C`, and so is `--gC`: `--gl` is `-g -l`, not
//! a prefix of `global`); a prefix unique among the keys, then among the
//! shorthands; `no-` (any case, repeated) before a key or a unique prefix
//! of one — which still takes a value where the key's type allows a
//! string (`--no-scrip=./x` sets the shell). A key the row does not
//! list is set all the same and handed to the scripts as the variable
//! `<prefix>_config_<key>` (lowercased, `-` as `_`), which a nested run
//! reads back as the key it spells once `_` is read as `-`: such a word
//! takes that key's kind (`--Script_Shell=./x`), any other is `open`.
//!
//! Values: a key whose type is a boolean takes none (its `=VALUE` is read
//! again as a word of its own: `--json=--scrip=./x` sets the shell); any
//! other takes `=VALUE` or the next word. Whether a value that begins
//! with `-` is the value or the next option depends on the key's type
//! (nopt reads it again for a plain string, keeps it for a path), which a
//! row does not say: such a word is unplaced. This names no program.

use super::{operand_kind, short, Candidates, Described, Found, Kind, NOPT_EXEC};
use crate::reader::Known;
use std::borrow::Cow;

/// What one option word sets, as far as the closed world cares.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Read {
    /// A key of a kind that writes or runs.
    writes: bool,
    /// A reading the row does not describe: a valued shorthand inside a
    /// cluster, a value that begins with `-`, a name that is empty.
    unplaced: bool,
    /// The next word is the last key's value.
    next: bool,
}

/// A word before the options end.
enum Word {
    /// A positional word.
    Operand,
    /// A word of dashes alone: the options end.
    End,
    /// An option word.
    Option(Read),
}

/// [`super::walk`] for a `nopt` or `nopt-exec` row: the program reads
/// its keys anywhere, before and after its subcommand, so every word
/// after the verb is read (the subcommand itself, the row's last
/// program word at `from - 1`, is skipped); a positional word before it
/// would be another subcommand, so it is unplaced.
pub(super) fn walk(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    let mut found = Found::default();
    let note = |slot: &mut Option<usize>, i: usize| {
        slot.get_or_insert(i);
    };
    let kn = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    let sub = from.checked_sub(1);
    let start = words
        .iter()
        .position(|w| !crate::facts::is_assignment(w))
        .map_or(from, |v| (v + 1).min(from));
    let exec = row.grammar == NOPT_EXEC;
    let (mut done, mut operands, mut i) = (false, 0, start);
    while let Some(w) = words.get(i) {
        if !all && found.first().is_some() {
            break;
        }
        if Some(i) == sub {
            done |= exec;
            i += 1;
            continue;
        }
        let word = match (done, kn(i)) {
            (true, _) => Word::Operand,
            (false, Known::Exact) => exact_word(row, w),
            (false, k) => partial_word(row, w, k),
        };
        match word {
            Word::End => done = true,
            Word::Operand if i < from => note(&mut found.unplaced, i),
            Word::Operand => {
                match operand_kind(row, operands) {
                    None => note(&mut found.unplaced, i),
                    Some(kind) if kind.writes_or_runs() => note(&mut found.writes, i),
                    Some(_) => {}
                }
                operands += 1;
            }
            Word::Option(read) => {
                if read.writes {
                    note(&mut found.writes, i);
                }
                if read.unplaced {
                    note(&mut found.unplaced, i);
                }
                if read.next {
                    match words.get(i + 1) {
                        None => {}
                        Some(n) if kn(i + 1) == Known::Exact && dashes(n) => {}
                        Some(n) if kn(i + 1) != Known::Exact || dashy(n) || Some(i + 1) == sub => {
                            note(&mut found.unplaced, i)
                        }
                        Some(_) => i += 1,
                    }
                }
            }
        }
        i += 1;
    }
    found
}

/// A word of two dashes or more alone (nopt's `^-{2,}$`).
fn dashes(w: &str) -> bool {
    w.len() >= 2 && w.bytes().all(|b| b == b'-')
}

/// A word nopt would read as an option if it were a word of its own.
fn dashy(w: &str) -> bool {
    w.starts_with('-') && w.len() > 1
}

fn exact_word(row: &Described, w: &str) -> Word {
    if dashes(w) {
        return Word::End;
    }
    if !dashy(w) {
        return Word::Operand;
    }
    let (name, value) = match w.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (w, None),
    };
    Word::Option(option(row, name.trim_start_matches('-'), value))
}

/// A word with an unknown part: unquoted, it may be several words, any
/// of them an option; else its literal start decides (`--tag="$T"` is
/// the key `tag` with a value that may begin with `-`).
fn partial_word(row: &Described, w: &str, k: Known) -> Word {
    let open: &[char] = match k {
        Known::OneToken => &['$', '`'],
        Known::Glob => &['*', '?', '[', '\\'],
        _ => return Word::Option(UNPLACED),
    };
    let literal = &w[..w.find(open).unwrap_or(w.len())];
    if literal.is_empty() {
        return Word::Option(UNPLACED);
    }
    if !literal.starts_with('-') {
        return Word::Operand;
    }
    match literal.split_once('=') {
        // The value's start is unknown: it may begin with `-`.
        Some((name, v)) => {
            let v = if v.is_empty() { "-?" } else { v };
            Word::Option(option(row, name.trim_start_matches('-'), Some(v)))
        }
        None => Word::Option(UNPLACED),
    }
}

const UNPLACED: Read = Read {
    writes: false,
    unplaced: true,
    next: false,
};

/// The option `name` (its dashes stripped) with its attached value, in
/// nopt's order (see the module's doc).
fn option(row: &Described, name: &str, value: Option<&str>) -> Read {
    if name.is_empty() {
        return UNPLACED;
    }
    let one = |c: Candidates| c.one().map(|(kind, _, _)| kind);
    let whole = one(scan(row, 2, |k| k == name)).or_else(|| one(scan(row, 1, |s| s == name)));
    if let Some(kind) = whole {
        return key(kind, value);
    }
    if name.chars().all(|c| short(row, c).is_some()) {
        return cluster(row, name, value);
    }
    let prefix = one(scan(row, 2, |k| k.starts_with(name)))
        .or_else(|| one(scan(row, 1, |s| s.starts_with(name))));
    if let Some(kind) = prefix {
        return key(kind, value);
    }
    let mut rest = name;
    while rest.len() >= 3 && rest[..3].eq_ignore_ascii_case("no-") {
        rest = &rest[3..];
    }
    if rest.len() < name.len() {
        let negated =
            one(scan(row, 2, |k| k == rest)).or_else(|| one(scan(row, 2, |k| k.starts_with(rest))));
        return key(negated.unwrap_or(Kind::Flag), value);
    }
    match exported(row, name) {
        Some(kind) => Read {
            writes: kind.writes_or_runs(),
            ..Read::default()
        },
        None => Read::default(),
    }
}

/// The listed key a key the row does not list names once handed to the
/// scripts as a variable and read back by a nested run (lowercased, each
/// `_` after the first character read as `-`); nopt hands no key that
/// begins with `/`, `@` or `_`.
fn exported(row: &Described, name: &str) -> Option<Kind> {
    if name.starts_with(['/', '@', '_']) || name.len() > 64 {
        return None;
    }
    let mut buf = [0u8; 64];
    for (i, b) in name.bytes().enumerate() {
        buf[i] = match b.to_ascii_lowercase() {
            b'_' if i > 0 => b'-',
            b => b,
        };
    }
    let spelled = std::str::from_utf8(&buf[..name.len()]).ok()?;
    if spelled == name {
        return None;
    }
    scan(row, 2, |k| k == spelled)
        .one()
        .map(|(kind, _, _)| kind)
}

/// One key of `kind` with its attached value.
fn key(kind: Kind, value: Option<&str>) -> Read {
    match (kind, value) {
        // A boolean's `=VALUE` is read again as a word: an option if it
        // begins with `-`.
        (Kind::Flag, Some(v)) => Read {
            unplaced: dashy(v),
            ..Read::default()
        },
        (Kind::Flag, None) => Read::default(),
        (kind, v) => Read {
            writes: kind.writes_or_runs(),
            unplaced: v.is_some_and(dashy),
            next: v.is_none(),
        },
    }
}

/// A word of one-letter shorthands: each letter's key in turn; only the
/// last may take a value (an earlier one would take the next letter's
/// key as its value).
fn cluster(row: &Described, name: &str, value: Option<&str>) -> Read {
    let mut read = Read::default();
    let n = name.chars().count();
    for (at, c) in name.chars().enumerate() {
        let Some((kind, _)) = short(row, c) else {
            return UNPLACED;
        };
        if at + 1 == n {
            let last = key(kind, value);
            read.writes |= last.writes;
            read.unplaced |= last.unplaced;
            read.next = last.next;
        } else {
            read.writes |= kind.writes_or_runs();
            read.unplaced |= kind != Kind::Flag;
        }
    }
    read
}

/// The options of the row one of whose spellings with exactly `dashes`
/// leading dashes (2: a key, 1: a shorthand) satisfies `test` once they
/// are stripped.
fn scan(row: &Described, dashes: usize, test: impl Fn(&str) -> bool) -> Candidates {
    let mut c = Candidates {
        first: None,
        several: false,
    };
    for (list, kind) in row.options() {
        for entry in list {
            let hit = entry.split(' ').any(|s| {
                let name = s.trim_start_matches('-');
                s.len() - name.len() == dashes && test(name)
            });
            if hit {
                c.add(Candidates {
                    first: Some((kind, false, entry)),
                    several: false,
                });
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::super::{Described, DESCRIBED, NOPT};
    use super::*;

    fn row() -> &'static Described {
        DESCRIBED
            .iter()
            .find(|d| d.grammar == NOPT && d.program.len() == 2)
            .expect("a nopt row")
    }

    /// The words of `line` after the row's program, walked.
    fn found(args: &str) -> Found {
        let r = row();
        let line = format!("{} {args}", r.program.join(" "));
        let l = crate::reader::read(&line);
        let s = &l.segments[0];
        walk(r, &s.words, &s.known, r.program.len(), true)
    }

    fn writes(args: &str) -> bool {
        found(args).writes.is_some()
    }

    fn unplaced(args: &str) -> bool {
        found(args).unplaced.is_some()
    }

    #[test]
    fn keys_by_any_dashes_whole_prefix_or_negation() {
        for w in [
            "--script-shell=./x",
            "--scrip=./x",
            "-scrip=./x",
            "---scrip ./x",
            "--script-sh ./x",
            "--no-scrip=./x",
            "--NO-no-scrip ./x",
            "--userconf=./rc",
            "-C ./elsewhere",
            "-gC=./elsewhere",
            "--node-opt=-r",
        ] {
            assert!(writes(w), "{w}");
        }
        // A boolean's value is read again: here, an option.
        assert!(unplaced("--json=--scrip=./x"), "json");
        assert!(!unplaced("--json=true --json false"), "json");
        // A word of one-letter shorthands, not a prefix of a key.
        assert_eq!(found("--gl -ws --iwr -dd"), Found::default());
    }

    #[test]
    fn unknown_keys_are_open_unless_a_nested_run_reads_a_listed_one() {
        assert_eq!(
            found("--frob=x --frob y --scriptShell=./x"),
            Found::default()
        );
        assert!(writes("--Script-Shell=./x"));
        assert!(writes("--script_shell=./x"));
        assert!(!writes("--_script_shell=./x"));
    }

    #[test]
    fn values_and_the_end_of_options() {
        assert_eq!(found("--tag next x -- --scrip=./x"), Found::default());
        assert_eq!(found("-- -C ./x"), Found::default());
        // A value that begins with `-`: nopt keeps it or reads it again by
        // the key's type.
        assert!(unplaced("--tag -scrip=./x"));
        assert!(unplaced("--tag=-scrip=./x"));
        assert!(unplaced(r#"--tag "$T""#));
        assert!(!unplaced(r#"--tag="v$T""#));
        assert!(unplaced(r#""$X""#));
        assert!(unplaced("$X"));
        assert_eq!(found(r#"-- "$X" $Y"#), Found::default());
        // A valued shorthand inside a cluster takes the next key as its
        // value.
        assert!(unplaced("-wg"));
    }
}
