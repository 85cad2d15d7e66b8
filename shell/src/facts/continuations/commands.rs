//! One index of the commands of the three tables a segment's command is
//! looked up in — [`DESCRIBED`], [`WRITE_OPTIONS`] and [`CONTINUATIONS`] —
//! built from them at compile time.
//!
//! Each table was indexed alone, and a segment was looked up three times:
//! the verb's path stripped, hashed and compared, its global options read
//! to find the subcommand, the pair hashed and compared, once per table
//! (~270 instructions each, `git diff …` or `cargo test …`). Here the
//! verb is one probe of the programs' [`NameIndex`], the subcommand read
//! once, the pair one probe of [`Pairs`], and each table's row a load.

use super::super::const_eq;
use super::super::described::same;
use super::{CONTINUATIONS, DESCRIBED, WRITE_OPTIONS};
use crate::reader::Known;
use std::borrow::Cow;

/// The tables, by their position in a [`Found`].
pub(super) const DESCRIBED_AT: usize = 0;
pub(super) const WRITE_OPTIONS_AT: usize = 1;
pub(super) const CONTINUATIONS_AT: usize = 2;
const TABLES: usize = 3;

/// A command as the index found it, each table's row read from it by
/// [`Command::row`]: no table's row is built that is not asked for.
#[derive(Clone, Copy)]
pub(super) struct Command<'w> {
    /// The verb's index.
    v: usize,
    program: &'static Program,
    /// The subcommand's index and its pair, where a table wanted has rows
    /// of the program's subcommands and none of the program alone.
    sub: Option<(usize, &'static Pair)>,
    /// The word after the subcommand, where a table wanted has a row of
    /// three words of the pair (`git worktree list`).
    next: Option<&'w str>,
}

/// The command words of row `i` of table `t`.
const fn command(t: usize, i: usize) -> &'static [&'static str] {
    match t {
        DESCRIBED_AT => DESCRIBED[i].program,
        WRITE_OPTIONS_AT => WRITE_OPTIONS[i].command,
        _ => CONTINUATIONS[i].command,
    }
}

const fn rows(t: usize) -> usize {
    match t {
        DESCRIBED_AT => DESCRIBED.len(),
        WRITE_OPTIONS_AT => WRITE_OPTIONS.len(),
        _ => CONTINUATIONS.len(),
    }
}

/// What the tables hold of one program.
#[derive(Clone, Copy)]
struct Program {
    /// Per table, its first row of the program alone (`find`): index + 1,
    /// 0 for none.
    one: [u16; TABLES],
    /// Bit `t`: table `t` has a row of the program alone.
    alone: u8,
    /// Bit `t`: table `t` has a row of one of its subcommands.
    subs: u8,
}

/// What the tables hold of one program's subcommand.
#[derive(Clone, Copy)]
struct Pair {
    /// The program's position in [`Commands::names`] + 1; 0: an empty slot.
    program: u16,
    sub: &'static str,
    /// Per table, its first row of the two words (`git status`): index +
    /// 1, 0 for none.
    two: [u16; TABLES],
    /// Per table, its first row of three words that begin with the two
    /// (`git worktree list`): index + 1, 0 for none.
    three: [u16; TABLES],
    /// Bit `t`: table `t` has such a row.
    threes: u8,
}

const MAX_PROGRAMS: usize = 255;
const PROGRAM_SLOTS: usize = 512;
const PAIR_SLOTS: usize = 256;

/// The programs and their subcommands of the three tables.
pub(super) struct Commands {
    names: [&'static str; MAX_PROGRAMS],
    programs: [Program; MAX_PROGRAMS],
    len: usize,
    /// Slot `h` holds the position + 1 of a program hashing to `h`
    /// (0: empty), the next slots the ones that collided.
    slots: [u8; PROGRAM_SLOTS],
    pairs: [Pair; PAIR_SLOTS],
}

/// The slot of a program: its length and its first, middle and last
/// bytes, mixed.
const fn program_slot(name: &[u8]) -> usize {
    (super::mix(0, name) >> 23) as usize % PROGRAM_SLOTS
}

/// The slot of a program's subcommand: the program's position and the
/// word's length, first, middle and last bytes, mixed (a few operations
/// whatever the length; a collision costs one more probe).
#[allow(clippy::cast_possible_truncation)] // a program's position < 255
const fn pair_slot(program: usize, sub: &[u8]) -> usize {
    (super::mix(program as u32, sub) >> 24) as usize % PAIR_SLOTS
}

/// Row `i` as an index + 1.
const fn plus_one(i: usize) -> u16 {
    assert!(i + 1 < u16::MAX as usize, "a table holds < 65,535 rows");
    #[allow(clippy::cast_possible_truncation)] // asserted above
    let r = (i + 1) as u16;
    r
}

const EMPTY_PROGRAM: Program = Program {
    one: [0; TABLES],
    alone: 0,
    subs: 0,
};

const EMPTY_PAIR: Pair = Pair {
    program: 0,
    sub: "",
    two: [0; TABLES],
    three: [0; TABLES],
    threes: 0,
};

impl Commands {
    const fn build() -> Commands {
        let mut c = Commands {
            names: [""; MAX_PROGRAMS],
            programs: [EMPTY_PROGRAM; MAX_PROGRAMS],
            len: 0,
            slots: [0; PROGRAM_SLOTS],
            pairs: [EMPTY_PAIR; PAIR_SLOTS],
        };
        let mut t = 0;
        while t < TABLES {
            let mut i = 0;
            while i < rows(t) {
                c.add(t, i);
                i += 1;
            }
            t += 1;
        }
        c
    }

    /// Adds row `i` of table `t`; an earlier row of the same words stays
    /// the one found, as in the table's order.
    const fn add(&mut self, t: usize, i: usize) {
        let words = command(t, i);
        let p = self.program(words[0]);
        let row = plus_one(i);
        if words.len() == 1 {
            if self.programs[p].one[t] == 0 {
                self.programs[p].one[t] = row;
                self.programs[p].alone |= 1 << t;
            }
            return;
        }
        self.programs[p].subs |= 1 << t;
        let s = self.pair(p, words[1]);
        let pair = &mut self.pairs[s];
        if words.len() == 2 && pair.two[t] == 0 {
            pair.two[t] = row;
        } else if words.len() == 3 && pair.three[t] == 0 {
            pair.three[t] = row;
            pair.threes |= 1 << t;
        }
    }

    /// The position of `name` among the programs, added if new.
    const fn program(&mut self, name: &'static str) -> usize {
        // A verb that is a program's name is no assignment and its own
        // last path component (`verb`): no `=` and no `/` in the name.
        let b = name.as_bytes();
        let mut k = 0;
        while k < b.len() {
            assert!(
                b[k] != b'=' && b[k] != b'/',
                "a command's program has no `=` or `/`"
            );
            k += 1;
        }
        let mut p = 0;
        while p < self.len {
            if const_eq(self.names[p], name) {
                return p;
            }
            p += 1;
        }
        assert!(
            self.len < MAX_PROGRAMS,
            "the commands index holds 255 programs"
        );
        self.names[self.len] = name;
        self.len += 1;
        let mut s = program_slot(b);
        while self.slots[s] != 0 {
            s = (s + 1) % PROGRAM_SLOTS;
        }
        #[allow(clippy::cast_possible_truncation)] // len < 256, asserted above
        {
            self.slots[s] = self.len as u8;
        }
        self.len - 1
    }

    /// The slot of program `p`'s subcommand `sub`, taken if new.
    const fn pair(&mut self, p: usize, sub: &'static str) -> usize {
        let mut s = pair_slot(p, sub.as_bytes());
        let mut probes = 0;
        loop {
            let pair = &self.pairs[s];
            if pair.program == 0 {
                self.pairs[s] = Pair {
                    program: plus_one(p),
                    sub,
                    ..EMPTY_PAIR
                };
                return s;
            }
            if pair.program as usize == p + 1 && const_eq(pair.sub, sub) {
                return s;
            }
            probes += 1;
            assert!(probes < PAIR_SLOTS / 2, "the pairs index is half empty");
            s = (s + 1) % PAIR_SLOTS;
        }
    }

    /// The program `name`'s position, if a table has it.
    #[inline(always)] // in `verb`, twice at most: a call cost ~10
    fn find(&self, name: &str) -> Option<usize> {
        let mut s = program_slot(name.as_bytes());
        loop {
            let p = usize::from(self.slots[s]).checked_sub(1)?;
            if same(self.names[p], name) {
                return Some(p);
            }
            s = (s + 1) % PROGRAM_SLOTS;
        }
    }

    /// The pair of program `p` and `sub`, if a table has it.
    #[inline]
    fn find_pair(&self, p: usize, sub: &str) -> Option<&Pair> {
        let mut s = pair_slot(p, sub.as_bytes());
        loop {
            let pair = &self.pairs[s];
            if pair.program == 0 {
                return None;
            }
            if usize::from(pair.program) == p + 1 && same(pair.sub, sub) {
                return Some(pair);
            }
            s = (s + 1) % PAIR_SLOTS;
        }
    }
}

static COMMANDS: Commands = Commands::build();

/// The command `words` start with, past leading assignments, for the
/// tables `want` names (bit `t` for table `t`); `None` where no table
/// has its program or the verb is not known exactly.
#[inline]
pub(super) fn lookup<'w>(
    words: &'w [Cow<'_, str>],
    known: &[Known],
    want: u8,
) -> Option<Command<'w>> {
    let (v, p) = verb(words)?;
    let exact = |i: usize| known.get(i).is_none_or(|k| *k == Known::Exact);
    if !exact(v) {
        return None;
    }
    let program = &COMMANDS.programs[p];
    let mut command = Command {
        v,
        program,
        sub: None,
        next: None,
    };
    // The tables wanted without a row of the program alone that have rows
    // of its subcommands.
    let subs = program.subs & want & !program.alone;
    if subs == 0 {
        return Some(command);
    }
    let i = super::super::subcommand_at(COMMANDS.names[p], words, v + 1, exact);
    let Some(pair) = words
        .get(i)
        .filter(|_| exact(i))
        .and_then(|sub| COMMANDS.find_pair(p, sub))
    else {
        return Some(command);
    };
    command.sub = Some((i, pair));
    command.next = words
        .get(i + 1)
        .filter(|_| pair.threes & subs != 0 && exact(i + 1))
        .map(|w| &**w);
    Some(command)
}

impl Command<'_> {
    /// The row of table `t` (one [`lookup`] wanted) for the command: its
    /// index in the table and the index of the first word after its
    /// command's words — as a lookup in the table alone found it: the
    /// verb's row alone, else past the program's global options
    /// ([`super::super::subcommand_at`]) the row of its subcommand and
    /// the word after it, else of its subcommand, each the first in the
    /// table's order.
    #[inline(always)] // `t` a constant: a load or two (a call was ~20)
    pub(super) fn row(&self, t: usize) -> Option<(usize, usize)> {
        if let Some(r) = self.program.one[t].checked_sub(1) {
            return Some((usize::from(r), self.v + 1));
        }
        let (i, pair) = self.sub?;
        if let Some(r) = self.next.and_then(|n| third(t, pair, n)) {
            return Some((r, i + 2));
        }
        let r = pair.two[t].checked_sub(1)?;
        Some((usize::from(r), i + 1))
    }
}

/// The first row of table `t` of `pair`'s words and `next` (rare: `git
/// worktree list`): read in the table's order from the pair's first
/// three-word row.
fn third(t: usize, pair: &Pair, next: &str) -> Option<usize> {
    let from = usize::from(pair.three[t].checked_sub(1)?);
    let first = command(t, from);
    (from..rows(t)).find(|&r| {
        let c = command(t, r);
        c.len() == 3 && c[0] == first[0] && c[1] == pair.sub && c[2] == next
    })
}

/// The verb's index, past leading assignments, and its program's
/// position, if a table has it.
#[inline]
fn verb(words: &[Cow<'_, str>]) -> Option<(usize, usize)> {
    let first = words.first()?;
    // The word itself a program's name: no `=` and no `/` in it (asserted
    // when the index is built), so it is no assignment and its own last
    // path component — most verbs are found with no scan of their bytes
    // (`is_assignment`, ~40 instructions; the `/` of `basename`, ~30).
    if let Some(p) = COMMANDS.find(first) {
        return Some((0, p));
    }
    if !super::super::is_assignment(first) {
        return if super::super::has_byte(first, b'/') {
            Some((0, COMMANDS.find(super::super::basename(first))?))
        } else {
            None
        };
    }
    let v = super::verb_at(words)?;
    Some((v, COMMANDS.find(super::super::basename(&words[v]))?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of every table is found by its own words, but where an
    /// earlier row has the same words.
    #[test]
    fn every_row_is_found_by_its_words() {
        for t in 0..TABLES {
            for i in 0..rows(t) {
                let c = command(t, i);
                let words: Vec<Cow<'_, str>> = c.iter().map(|w| Cow::Borrowed(*w)).collect();
                let first = (0..rows(t)).find(|&r| command(t, r) == c);
                let got = lookup(&words, &[], 1 << t).and_then(|c| c.row(t));
                // A row of fewer words of the same program comes first.
                let shorter = (1..c.len()).any(|n| (0..rows(t)).any(|r| command(t, r) == &c[..n]));
                if !shorter {
                    assert_eq!(got, first.map(|r| (r, c.len())), "{c:?}");
                }
            }
        }
    }

    #[test]
    fn the_pairs_index_probes_are_short() {
        let longest = (0..PAIR_SLOTS)
            .map(|s| {
                (0..PAIR_SLOTS)
                    .take_while(|k| COMMANDS.pairs[(s + k) % PAIR_SLOTS].program != 0)
                    .count()
            })
            .max()
            .unwrap_or(0);
        assert!(longest <= 6, "longest run of taken slots: {longest}");
    }
}
