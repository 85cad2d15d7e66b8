//! Places a program reads from a list: a file an option or an operand
//! names, or a standard input the line feeds (`listed_places` and
//! `stdin_path_readers`, shell/catalogue/wrappers.toml; SPEC §4.4 with
//! §6.2 and §6.4): `git rm --pathspec-from-file=list`, `tar -cf a.tar -T
//! list`, `git ls-files | zip a.zip -@`. Those places are unknown words of
//! the run's segment, for the scope, and for the protected paths where
//! the program writes them. A gate where a run is recorded
//! (the verb's `GATE_LISTED`, then [`may_list`]) keeps the reading off
//! most lines.

use super::{
    basename, catalogue, has_shape, mark_shape, name_index, stdin_commands, stdin_reader,
    subcommand_at, LineFacts, Shapes,
};
use crate::reader::Known;
use std::borrow::Cow;

/// The verbs of [`catalogue::wrappers::LISTED_PLACES`] and of
/// [`catalogue::wrappers::STDIN_PATH_READERS`] ([`READER_SHAPES`]), built
/// from the rows.
pub(super) const LISTED_SHAPES: Shapes = {
    let rows = catalogue::wrappers::LISTED_PLACES;
    let mut t = READER_SHAPES;
    let mut i = 0;
    while i < rows.len() {
        mark_shape(&mut t, rows[i].0);
        i += 1;
    }
    t
};

/// The first three bytes of the rows' long options (`--f`, `-fi`).
const LISTED_HEADS: [&[u8]; 8] = {
    let rows = catalogue::wrappers::LISTED_PLACES;
    let mut heads: [&[u8]; 8] = [b"\0\0\0"; 8];
    let mut n = 0;
    let mut i = 0;
    while i < rows.len() {
        let mut j = 0;
        while j < rows[i].2.len() {
            let o = rows[i].2[j].as_bytes();
            if o.len() > 2 {
                let head = o.split_at(3).0;
                let mut k = 0;
                while k < n && !catalogue::types::const_eq_bytes(heads[k], head) {
                    k += 1;
                }
                if k == n {
                    assert!(n < 8, "at most 8 heads of listed options");
                    heads[n] = head;
                    n += 1;
                }
            }
            j += 1;
        }
        i += 1;
    }
    heads
};

/// The letters of the rows' short options (`-T`, `-c`).
const LISTED_SHORT: [bool; 128] = {
    let rows = catalogue::wrappers::LISTED_PLACES;
    let mut t = [false; 128];
    let mut i = 0;
    while i < rows.len() {
        let mut j = 0;
        while j < rows[i].2.len() {
            let o = rows[i].2[j].as_bytes();
            if o.len() == 2 {
                t[(o[1] & 0x7f) as usize] = true;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The verbs of [`catalogue::wrappers::STDIN_PATH_READERS`] alone.
const READER_SHAPES: Shapes = {
    let readers = catalogue::wrappers::STDIN_PATH_READERS;
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < readers.len() {
        mark_shape(&mut t, readers[i].0);
        i += 1;
    }
    t
};

/// May the run `words` (its verb `verb`) read places from a list
/// ([`listed_places`]): a program of the rows given an option, or fed its
/// standard input? Two loads for most runs.
pub(crate) fn may_list(verb: &str, words: &[Cow<'_, str>], fed: bool) -> bool {
    has_shape(&LISTED_SHAPES, verb) && may_list_shaped(verb, words, fed)
}

/// [`may_list`] past its shapes (a run's verb passed `GATE_LISTED`).
pub(crate) fn may_list_shaped(verb: &str, words: &[Cow<'_, str>], fed: bool) -> bool {
    // A program that reads places from standard input, fed; else a
    // `listed_places` option (`wc -l` fed reads no names).
    if fed && has_shape(&READER_SHAPES, verb) {
        return true;
    }
    // Options that may be one of any row's first (`git status` has none,
    // `wc -l` none of theirs), then the program's rows.
    let option = |w: &&Cow<'_, str>| {
        let b = w.as_bytes();
        match b {
            [b'-', b'-', ..] | [b'-', _, _, ..]
                if LISTED_HEADS.iter().any(|h| b.starts_with(h)) =>
            {
                true
            }
            [b'-', rest @ ..] if !rest.starts_with(b"-") => rest
                .iter()
                .any(|&c| LISTED_SHORT[usize::from(c & 0x7f)] && c < 0x80),
            _ => false,
        }
    };
    // tar's old style: a first word without `-` holding a short letter.
    let bare = words.get(1).is_some_and(|w| {
        !w.starts_with('-') && w.bytes().any(|c| c < 0x80 && LISTED_SHORT[usize::from(c)])
    });
    if !bare && !words.iter().skip(1).any(|w| option(&w)) {
        return false;
    }
    let rows = LISTED_ROWS.rows(verb);
    let bare_row = |row: &catalogue::wrappers::ListedPlaces| {
        row.3 == catalogue::wrappers::Listed::ValueOrBare
            && row
                .2
                .iter()
                .any(|o| o.len() == 2 && words[1].contains(&o[1..]))
    };
    if bare
        && rows
            .iter()
            .any(|i| bare_row(&catalogue::wrappers::LISTED_PLACES[i]))
    {
        return true;
    }
    !rows.is_empty()
        && words.iter().skip(1).filter(option).any(|w| {
            rows.iter()
                .any(|i| listed_option(w, catalogue::wrappers::LISTED_PLACES[i].2).is_some())
        })
}

/// [`catalogue::wrappers::LISTED_PLACES`]' rows by program: one probe.
const LISTED_ROWS: name_index::RowIndex = {
    let rows = catalogue::wrappers::LISTED_PLACES;
    let mut x = name_index::RowIndex::new();
    let mut i = 0;
    while i < rows.len() {
        x = x.add(rows[i].0, i);
        i += 1;
    }
    x.build()
};

/// The places runs read from a file or a standard input permc does not
/// read (`listed_places`, SPEC §4.4): `git rm --pathspec-from-file=list`,
/// `tar -cf a.tar -T list`, `git ls-files | zip a.zip -@`. Each is an
/// unknown word of the run's segment, shown as what gives it (`$(cat
/// list)`, `$(cat -)`): for the scope ([`LineFacts::read_places`]), and
/// for the protected paths too where the row says the program writes
/// those places ([`LineFacts::fed`]). A here-document's lines a row reads
/// are [`super::stdin_places`]'.
pub(super) fn places(facts: &mut LineFacts) {
    use catalogue::wrappers::StdinReads;
    let mut found: Vec<(usize, String, bool)> = Vec::new();
    for r in facts.runs().filter(|r| !r.guessed && !r.canonical) {
        let Some(verb) = r.words.first().map(|v| basename(v)) else {
            continue;
        };
        // Standard input, where the line feeds it (most runs: no pipe, no
        // redirection).
        let seg = facts.line.segments.get(r.segment);
        let fed_by = seg.is_some_and(|s| s.piped || !s.redirects.is_empty());
        if !may_list(verb, r.words, fed_by) {
            continue;
        }
        let fed = seg.filter(|_| fed_by).and_then(stdin_commands::fed);
        let row = listed_row(verb, r.words, r.known);
        if row.is_none() && fed.is_none() {
            continue;
        }
        let (files, listed_stdin) = match row {
            Some((_, _, options, listed, _)) => listed_files(r.words, options, *listed),
            None => (Vec::new(), false),
        };
        let written = row.is_some_and(|(.., written)| *written);
        let reads_lines =
            fed.is_some() && matches!(stdin_reader(r.words), Some((_, StdinReads::Paths)));
        for f in files {
            found.push((r.segment, format!("$(cat {f})"), written));
        }
        let unknown = (listed_stdin || reads_lines)
            && match fed {
                Some(stdin_commands::Fed::Pipe | stdin_commands::Fed::Redirect) => true,
                // A body's lines are read where a row reads them as paths.
                Some(_) => !reads_lines,
                None => false,
            };
        if unknown {
            found.push((r.segment, "$(cat -)".to_string(), written));
        }
    }
    for (seg, w, written) in found {
        if written {
            facts
                .rare()
                .fed
                .push((seg, Cow::Owned(w), Known::AnyTokens));
        } else {
            facts.rare().read_places.push((seg, w, Known::AnyTokens));
        }
    }
}

/// The `listed_places` row of the run `words` (its verb `verb`): of its
/// program, and of its subcommand when the row names one (`git rm`, past
/// git's global options, read once).
fn listed_row(
    verb: &str,
    words: &[Cow<'_, str>],
    known: &[Known],
) -> Option<&'static catalogue::wrappers::ListedPlaces> {
    let mut sub: Option<Option<&str>> = None;
    for i in LISTED_ROWS.rows(verb).iter() {
        let row = &catalogue::wrappers::LISTED_PLACES[i];
        if row.1.is_empty() {
            return Some(row);
        }
        let given = *sub.get_or_insert_with(|| {
            let exact = |i: usize| known.get(i).is_none_or(|k| *k == Known::Exact);
            words
                .get(subcommand_at(verb, words, 1, exact))
                .map(|w| &**w)
        });
        if given == Some(row.1) {
            return Some(row);
        }
    }
    None
}

/// The files a run of a `listed_places` row names as its lists of places,
/// and whether it reads one from standard input. A long option matches
/// down to the prefix its `|` marks; a short one alone, with its value
/// attached, or last in a cluster.
fn listed_files<'w>(
    words: &'w [Cow<'_, str>],
    options: &[&str],
    listed: catalogue::wrappers::Listed,
) -> (Vec<&'w str>, bool) {
    use catalogue::wrappers::Listed;
    let mut files = Vec::new();
    let (mut stdin, mut given) = (false, false);
    let mut operands = Vec::new();
    let mut i = 1;
    // tar's old style: the letter in a first word without `-`; which of
    // the next words is its value permc does not count (every one is).
    let bare = words.get(1).filter(|w| {
        listed == Listed::ValueOrBare
            && !w.starts_with('-')
            && options.iter().any(|o| o.len() == 2 && w.contains(&o[1..]))
    });
    if bare.is_some() {
        let rest = words.iter().skip(2).take_while(|w| !w.starts_with('-'));
        for w in rest {
            match &**w {
                "-" | "/dev/stdin" => stdin = true,
                v => files.push(v),
            }
        }
    }
    while let Some(w) = words.get(i) {
        i += 1;
        if !w.starts_with('-') || w == "-" {
            operands.push(&**w);
            continue;
        }
        let Some(attached) = listed_option(w, options) else {
            continue;
        };
        given = true;
        if listed == Listed::Operands {
            continue;
        }
        // The value: attached, or the next word.
        let value = attached.or_else(|| {
            i += 1;
            words.get(i - 1).map(|v| &**v)
        });
        match value {
            Some("-" | "/dev/stdin") | None => stdin = true,
            Some(v) => files.push(v),
        }
    }
    if listed == Listed::Operands && given {
        stdin |= operands.is_empty();
        files.extend(operands.into_iter().filter(|o| *o != "-"));
    }
    (files, stdin)
}

/// Is the word `w` one of `options` (a `listed_places` row's), and its
/// value if attached (`--files-from=list`, `-Tlist`)? A long option (find's
/// `-files0-from` too) down to the prefix its `|` marks; a short one's
/// letter in a cluster (`-cvT`).
fn listed_option<'w>(w: &'w str, options: &[&str]) -> Option<Option<&'w str>> {
    let b = w.as_bytes();
    let eq = b.iter().position(|&c| c == b'=').unwrap_or(b.len());
    let (name, value) = (&b[..eq], w.get(eq + 1..));
    for o in options.iter().map(|o| o.as_bytes()) {
        // Most words differ in their first bytes: no more is read.
        if o.len() <= 2 || b.len() < 3 || b[..3] != o[..3] {
            continue;
        }
        let matched = match o.iter().position(|&c| c == b'|') {
            Some(bar) => {
                let (least, rest) = (&o[..bar], &o[bar + 1..]);
                name.starts_with(least) && rest.starts_with(&name[least.len()..])
            }
            None => name == o,
        };
        if matched {
            return Some(value);
        }
    }
    if w.starts_with("--") {
        return None;
    }
    let at = options.iter().filter(|o| o.len() == 2).find_map(|o| {
        b[1..]
            .iter()
            .position(|&c| c == o.as_bytes()[1])
            .map(|at| at + 2)
    })?;
    Some(Some(&w[at..]).filter(|v| !v.is_empty()))
}
