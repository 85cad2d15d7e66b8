//! The `ssh` grammar (SPEC §4.5 item 1, §6.1): OpenSSH's command line as
//! ssh.c reads it with OpenBSD's getopt (no permutation, no long
//! options). Options are read up to the first operand, the destination;
//! then, unless `--` ended them, options again up to the next operand;
//! every word from there on is the command line the destination runs.
//! Short options go in clusters, a value attached (`-p22`) or in the next
//! word (`-p 22`). A letter the row spells only with a name after it
//! (`-oproxycommand`) is a keyed option: its value is `KEY=VALUE` or
//! `KEY VALUE` (blanks around either), the key read in any case, and the
//! key's list gives the kind; a key the row lacks is unplaced (ssh
//! refuses an unknown one, and `Include`, `Host` and `Match` on the
//! command line). This names no program.

use super::{note_kind, operand_kind, short, Described, Found, Kind};
use crate::reader::Known;
use std::borrow::Cow;

/// [`super::walk`] for an `ssh` row.
pub(super) fn walk(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    all: bool,
) -> Found {
    let mut found = Found::default();
    let kn = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    // Options are read (before the destination, and after it until `--`
    // or the command); `terminated`: `--` came before the destination.
    let (mut options, mut terminated, mut operands, mut i) = (true, false, 0, from);
    while let Some(w) = words.get(i) {
        if !all && found.first().is_some() {
            break;
        }
        let k = kn(i);
        let option_word = options && w.len() > 1 && w.starts_with('-');
        if options && k != Known::Exact && may_be_option(w, k) {
            // Any option (`"$O"`, `-o"$K"`): unplaced, the row runs.
            note_kind(&mut found, i, None, false);
            i += 1;
            continue;
        }
        if options && k == Known::Exact && w == "--" {
            options = false;
            terminated = operands == 0;
            i += 1;
            continue;
        }
        if option_word {
            i += cluster(row, words, known, i, &mut found);
            continue;
        }
        // An operand: the destination, then the command line.
        note_kind(&mut found, i, operand_kind(row, operands), false);
        operands += 1;
        if operands > 1 {
            // The command's words are the destination's: one `line`.
            break;
        }
        options = !terminated;
        i += 1;
    }
    found
}

/// May a word with an unknown part be an option (it begins with `-`, or
/// with the unknown part)?
fn may_be_option(w: &str, k: Known) -> bool {
    match k {
        Known::Exact => false,
        Known::Glob => w.starts_with(['-', '*', '?', '[']),
        Known::OneToken => w.starts_with(['-', '$', '`']),
        Known::AnyTokens => true,
    }
}

/// Reads the cluster at `i` into `found`; the words it took (one, or two
/// when its last option's value is the next word).
fn cluster(
    row: &Described,
    words: &[Cow<'_, str>],
    known: &[Known],
    i: usize,
    found: &mut Found,
) -> usize {
    let w = &words[i];
    for (at, c) in w.char_indices().skip(1) {
        let rest = &w[at + c.len_utf8()..];
        let kind = match short(row, c) {
            Some((Kind::Flag, _)) => continue,
            Some((kind, _)) => Some(kind),
            None if keyed(row, c) => {
                let (value, exact) = if rest.is_empty() {
                    let next = words.get(i + 1).map(|v| &**v);
                    (next, known.get(i + 1).is_none_or(|k| *k == Known::Exact))
                } else {
                    (Some(rest), known.get(i).is_none_or(|k| *k == Known::Exact))
                };
                value.and_then(|v| key_kind(row, c, v, exact))
            }
            None => None,
        };
        note_kind(found, i, kind, false);
        return if rest.is_empty() { 2 } else { 1 };
    }
    1
}

/// Does the row spell letter `c` only with a key after it (`-oport`)?
fn keyed(row: &Described, c: char) -> bool {
    key_spellings(row, c).next().is_some()
}

/// The row's keyed spellings of letter `c` (`-oport`: `port`), with
/// their kinds.
fn key_spellings(row: &Described, c: char) -> impl Iterator<Item = (Kind, &'static str)> + '_ {
    row.entries()
        .flat_map(|(kind, e)| e.split(' ').map(move |s| (kind, s)))
        .filter_map(move |(kind, s)| {
            let key = s.strip_prefix('-')?.strip_prefix(c)?;
            (key.len() > 1 && !key.starts_with('-')).then_some((kind, key))
        })
}

/// The kind of a keyed option's value (`ProxyCommand=x`, `port 22`): its
/// key's, read in any case up to a blank or `=`; `None` when the key is
/// none of the row's or not all known (`exact`: the value has no unknown
/// part; else only a key whose end is seen counts).
fn key_kind(row: &Described, c: char, value: &str, exact: bool) -> Option<Kind> {
    let v = value.trim_start_matches([' ', '\t']);
    let end = v.find([' ', '\t', '=']);
    let key = &v[..end.unwrap_or(v.len())];
    let unknown = |s: &str| s.contains(['$', '`', '*', '?', '[', '\\', '"', '\'']);
    if key.is_empty() || (!exact && (end.is_none() || unknown(key))) {
        return None;
    }
    key_spellings(row, c)
        .find(|(_, k)| k.eq_ignore_ascii_case(key))
        .map(|(kind, _)| kind)
}

#[cfg(test)]
mod tests {
    use super::super::{walk, Found, DESCRIBED, SSH};

    fn found(line: &str) -> (Option<usize>, Option<usize>) {
        let row = DESCRIBED
            .iter()
            .find(|d| d.grammar == SSH)
            .expect("an ssh row");
        let l = crate::reader::read(line);
        let s = &l.segments[0];
        let f: Found = walk(row, &s.words, &s.known, 1, true);
        (f.unplaced, f.writes)
    }

    #[test]
    fn ssh_reads_options_around_the_destination_and_keys_of_o() {
        let none = (None, None);
        assert_eq!(found("ssh -V"), none);
        assert_eq!(found("ssh -G host"), none);
        assert_eq!(found("ssh -G -p 2222 -o ForwardAgent=no host"), none);
        assert_eq!(
            found("ssh -Gp22 -oport=22 host -v -o 'BatchMode yes'"),
            none
        );
        // The command line the destination runs.
        assert_eq!(found("ssh host ls -la"), (None, Some(2)));
        assert_eq!(found("ssh host -v ls"), (None, Some(3)));
        // After `--`, the command begins after the destination.
        assert_eq!(found("ssh -- host -p 2"), (None, Some(3)));
        // Keys that run, load or write; a key the row lacks.
        assert_eq!(found("ssh -G -o ProxyCommand=x host"), (None, Some(2)));
        assert_eq!(found("ssh -G -oPROXYCOMMAND' 'x host"), (None, Some(2)));
        assert_eq!(found("ssh -G host -o 'LocalCommand x'"), (None, Some(3)));
        assert_eq!(found("ssh -G -o Include=./c host"), (Some(2), None));
        assert_eq!(found("ssh -G -F ./cfg host"), (None, Some(2)));
        assert_eq!(found("ssh -G -qF ./cfg host"), (None, Some(2)));
        assert_eq!(found("ssh -G -E log host"), (None, Some(2)));
        assert_eq!(found("ssh -G -Z host"), (Some(2), None));
        // A word with an unknown part where an option may be.
        assert_eq!(found(r#"ssh -G "$O" host"#), (Some(2), None));
        assert_eq!(found(r#"ssh -G -o "$K" host"#), (Some(2), None));
        assert_eq!(found(r#"ssh -G -o "Port=$P" host"#), none);
        assert_eq!(
            found(r#"ssh -G -o "ProxyCommand=$P" host"#),
            (None, Some(2))
        );
    }
}
