//! Every catalogue row's spellings by one hash probe, built from
//! [`DESCRIBED`] at compile time: a long option word (`--workspace`) is
//! found in its row in a few operations and one compare, where a binary
//! search over the row's sorted spellings (a few dozen to a few hundred)
//! called `memcmp` at each of its ~7 steps (~180 instructions a word).

use super::{Described, DESCRIBED};

/// The spellings of every row.
const TOTAL: usize = {
    let mut n = 0;
    let mut r = 0;
    while r < DESCRIBED.len() {
        n += DESCRIBED[r].spellings.len();
        r += 1;
    }
    n
};

/// At least twice as many slots as spellings: a probe ends soon.
const SLOTS: usize = (2 * TOTAL).next_power_of_two();

/// Slot `s` holds the position + 1 in its row's spellings of a spelling
/// hashing to `s` (0: empty), the next slots the ones that collided.
static INDEX: [u16; SLOTS] = {
    let mut t = [0u16; SLOTS];
    let mut r = 0;
    while r < DESCRIBED.len() {
        let spellings = DESCRIBED[r].spellings;
        assert!(
            spellings.len() < u16::MAX as usize,
            "a row has < 65,535 spellings"
        );
        let mut k = 0;
        while k < spellings.len() {
            let mut s = slot(r, spellings[k].0.as_bytes());
            while t[s] != 0 {
                s = (s + 1) % SLOTS;
            }
            #[allow(clippy::cast_possible_truncation)] // k + 1 < u16::MAX, asserted above
            {
                t[s] = (k + 1) as u16;
            }
            k += 1;
        }
        r += 1;
    }
    t
};

/// The slot of a spelling of row `row`: the row, the spelling's length
/// and its third (past `--`), middle and last bytes, mixed (a few
/// operations whatever the length).
#[allow(clippy::cast_possible_truncation)] // mixed into a hash: the low bits serve
const fn slot(row: usize, name: &[u8]) -> usize {
    let n = name.len();
    let (a, b, c) = if n == 0 {
        (0, 0, 0)
    } else {
        let third = if n > 2 { 2 } else { n - 1 };
        (name[third] as u32, name[n / 2] as u32, name[n - 1] as u32)
    };
    let h = (row as u32).wrapping_mul(0x9E37_79B1) ^ (n as u32 | a << 8 | b << 16 | c << 24);
    (h.wrapping_mul(0x85EB_CA6B) >> 16) as usize % SLOTS
}

/// The position of `name` in the spellings of `row`, a row of
/// [`DESCRIBED`] (each spelling is in a row once,
/// `rows_have_unique_spellings`).
#[inline]
fn position(row: &Described, name: &str) -> Option<usize> {
    let mut s = slot(row.index, name.as_bytes());
    loop {
        let k = usize::from(INDEX[s]).checked_sub(1)?;
        // Another row's spelling in the slot is told apart by the compare
        // (a position of this row's that spells `name` is its answer).
        if row.spellings.get(k).is_some_and(|(t, ..)| same(t, name)) {
            return Some(k);
        }
        s = (s + 1) % SLOTS;
    }
}

/// The position of `name` in `row`'s spellings: [`position`] for a row
/// of the catalogue, else (a copy of a row with spellings of its own) a
/// binary search over them.
pub(super) fn position_in(row: &Described, name: &str) -> Option<usize> {
    let indexed = DESCRIBED
        .get(row.index)
        .is_some_and(|d| std::ptr::eq(d.spellings, row.spellings));
    if indexed {
        return position(row, name);
    }
    row.spellings
        .binary_search_by(|(s, ..)| (*s).cmp(name))
        .ok()
}

/// `a == b`, eight bytes at a time: the words compared here are a few
/// to a few dozen bytes (`--workspace`), which a byte loop read at ~5
/// instructions each and `memcmp` behind a call and its setup. The last
/// eight (or four) bytes are read overlapping the ones before.
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let eight = |s: &[u8], i: usize| s[i..i + 8].try_into().map_or(0, u64::from_ne_bytes);
    let four = |s: &[u8], i: usize| s[i..i + 4].try_into().map_or(0, u32::from_ne_bytes);
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            if eight(a, i) != eight(b, i) {
                return false;
            }
            i += 8;
        }
        eight(a, n - 8) == eight(b, n - 8)
    } else if n >= 4 {
        four(a, 0) == four(b, 0) && four(a, n - 4) == four(b, n - 4)
    } else {
        a.iter().zip(b).all(|(x, y)| x == y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_is_equality() {
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
        ];
        for a in words {
            for b in words {
                assert_eq!(same(a, b), a == b, "{a} {b}");
            }
            for k in 0..a.len() {
                let mut c = a.as_bytes().to_vec();
                c[k] ^= 1;
                let c = String::from_utf8(c).unwrap_or_default();
                assert!(!same(a, &c), "{a} {c}");
            }
        }
        let long = "--dereference-command-line-symlink-to-dir";
        assert!(same(long, &format!("--{}", &long[2..])));
        assert!(!same(long, &long.replace("link", "lonk")));
    }

    #[test]
    fn the_lists_kinds_are_the_names_order() {
        for (k, (_, kind)) in DESCRIBED[0].options().iter().enumerate() {
            assert_eq!(super::super::Kind::NAMES[k].0, *kind);
        }
    }

    #[test]
    fn every_spelling_is_found_and_probes_are_short() {
        for d in DESCRIBED {
            for (k, (s, ..)) in d.spellings.iter().enumerate() {
                assert_eq!(position_in(d, s), Some(k), "{:?} {s}", d.program);
                assert_eq!(
                    position_in(d, &format!("{s}x")),
                    None,
                    "{:?} {s}x",
                    d.program
                );
            }
        }
        let longest = (0..SLOTS)
            .map(|s| {
                (0..SLOTS)
                    .take_while(|k| INDEX[(s + k) % SLOTS] != 0)
                    .count()
            })
            .max()
            .unwrap_or(0);
        assert!(longest <= 24, "longest run of taken slots: {longest}");
    }
}
