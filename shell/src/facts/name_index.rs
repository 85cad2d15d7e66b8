//! A program's rows found by one hash probe, not by a scan of the table.
//!
//! The catalogue's tables keep each program's rows together (the runners,
//! the external-effect entries); a run finds its program's rows with a
//! [`NameIndex`] built from the table at compile time: a hash of the
//! name's length and first, second and last bytes, open addressing over
//! 512 slots. A scan that compared every tool name cost a run of `pnpm`
//! about 200 instructions in the runners and as many in the
//! external-effect entries; a probe costs a few operations and one
//! compare.

/// Positions in a list of at most 255 names, by name: slot `h` holds the
/// position + 1 of a name hashing to `h` (0: empty), the next slots the
/// names that collided.
pub(crate) struct NameIndex {
    slots: [u16; SLOTS],
}

const SLOTS: usize = 512;

/// The slot of a name: its length and its first, second and last bytes,
/// mixed (a few operations whatever the length; the catalogue's names
/// differ there, and a collision costs one more probe).
#[allow(clippy::cast_possible_truncation)] // the length is mixed into a hash: its low bits serve
const fn slot_of(name: &[u8]) -> usize {
    let n = name.len();
    if n == 0 {
        return 0;
    }
    let a = name[0] as u32;
    let b = name[if n > 1 { 1 } else { 0 }] as u32;
    let z = name[n - 1] as u32;
    let h = (a | b << 8 | z << 16 | (n as u32) << 24).wrapping_mul(0x9E37_79B1);
    (h >> 23) as usize % SLOTS
}

impl NameIndex {
    /// The index of `names` (distinct; fewer than half the slots, so that
    /// a probe ends soon).
    pub(crate) const fn new(names: &[&str]) -> NameIndex {
        assert!(names.len() < SLOTS / 2, "a name index holds < 256 names");
        let mut slots = [0u16; SLOTS];
        let mut i = 0;
        while i < names.len() {
            let mut s = slot_of(names[i].as_bytes());
            while slots[s] != 0 {
                s = (s + 1) % SLOTS;
            }
            #[allow(clippy::cast_possible_truncation)] // i + 1 < 256, asserted above
            {
                slots[s] = (i + 1) as u16;
            }
            i += 1;
        }
        NameIndex { slots }
    }

    /// The position of `name` in the list the index was built from
    /// (`name_at` reads it back), if it is there.
    #[inline]
    pub(crate) fn find(
        &self,
        name: &str,
        name_at: impl Fn(usize) -> &'static str,
    ) -> Option<usize> {
        let mut s = slot_of(name.as_bytes());
        loop {
            let v = self.slots[s];
            if v == 0 {
                return None;
            }
            let i = usize::from(v) - 1;
            if super::quick_eq(name_at(i), name) {
                return Some(i);
            }
            s = (s + 1) % SLOTS;
        }
    }
}

/// A set of row numbers below [`Rows::MAX`], a bit each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Rows([u128; 2]);

impl Rows {
    /// The rows a set can hold.
    pub(crate) const MAX: usize = 256;
    /// No row.
    pub(crate) const NONE: Rows = Rows([0; 2]);

    /// The set with row `row` added.
    pub(crate) const fn with(mut self, row: usize) -> Rows {
        assert!(row < Rows::MAX, "a row set covers 256 rows");
        self.0[row / 128] |= 1 << (row % 128);
        self
    }

    /// Does it hold row `row`?
    #[cfg(test)]
    pub(crate) const fn has(&self, row: usize) -> bool {
        row < Rows::MAX && self.0[row / 128] >> (row % 128) & 1 == 1
    }

    /// Does it hold no row?
    pub(crate) const fn is_empty(&self) -> bool {
        self.0[0] == 0 && self.0[1] == 0
    }

    /// The rows both hold.
    pub(crate) const fn and(&self, other: &Rows) -> Rows {
        Rows([self.0[0] & other.0[0], self.0[1] & other.0[1]])
    }

    /// Its rows, in order.
    #[inline]
    pub(crate) fn iter(self) -> impl Iterator<Item = usize> {
        let [mut low, mut high] = self.0;
        std::iter::from_fn(move || {
            if low != 0 {
                let bit = low.trailing_zeros() as usize;
                low &= low - 1;
                Some(bit)
            } else if high != 0 {
                let bit = high.trailing_zeros() as usize;
                high &= high - 1;
                Some(128 + bit)
            } else {
                None
            }
        })
    }
}

/// The rows of a table that name a program, by name: built at compile time
/// from the rows ([`RowIndex::add`] for each name of each row), read as a
/// set of row numbers (a table of at most 256 rows, 255 names).
pub(crate) struct RowIndex {
    names: [&'static str; MAX_NAMES],
    masks: [Rows; MAX_NAMES],
    len: usize,
    index: NameIndex,
}

const MAX_NAMES: usize = SLOTS / 2 - 1;

impl RowIndex {
    pub(crate) const fn new() -> RowIndex {
        RowIndex {
            names: [""; MAX_NAMES],
            masks: [Rows::NONE; MAX_NAMES],
            len: 0,
            index: NameIndex { slots: [0; SLOTS] },
        }
    }

    /// Row `row` names `name`.
    pub(crate) const fn add(mut self, name: &'static str, row: usize) -> RowIndex {
        let mut i = 0;
        while i < self.len {
            if super::const_eq(self.names[i], name) {
                self.masks[i] = self.masks[i].with(row);
                return self;
            }
            i += 1;
        }
        assert!(self.len < MAX_NAMES, "a row index holds 255 names");
        self.names[self.len] = name;
        self.masks[self.len] = Rows::NONE.with(row);
        self.len += 1;
        self
    }

    /// The index, once every name is added.
    /// [`RowIndex::add`] of each of a row's names.
    pub(crate) const fn add_all(mut self, names: &[&'static str], row: usize) -> RowIndex {
        let mut j = 0;
        while j < names.len() {
            self = self.add(names[j], row);
            j += 1;
        }
        self
    }

    pub(crate) const fn build(mut self) -> RowIndex {
        self.index = NameIndex::new(self.names.split_at(self.len).0);
        self
    }

    /// The rows naming `name` (none: [`Rows::NONE`]).
    #[inline]
    pub(crate) fn rows(&self, name: &str) -> Rows {
        self.index
            .find(name, |i| self.names[i])
            .map_or(Rows::NONE, |i| self.masks[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_name_and_no_other() {
        const NAMES: &[&str] = &["git", "npm", "pnpm", "npx", "docker", "uv", "a", ""];
        const INDEX: NameIndex = NameIndex::new(NAMES);
        for (i, n) in NAMES.iter().enumerate() {
            assert_eq!(INDEX.find(n, |k| NAMES[k]), Some(i), "{n}");
        }
        for n in ["gi", "gitt", "Git", "pnp", "b", "docker-compose"] {
            assert_eq!(INDEX.find(n, |k| NAMES[k]), None, "{n}");
        }
    }

    #[test]
    fn rows_of_a_name_are_every_row_naming_it() {
        const ROWS: RowIndex = RowIndex::new()
            .add("sed", 0)
            .add("awk", 1)
            .add("sed", 3)
            .add("git", 2)
            .add("git", 200)
            .build();
        let set = |rows: &[usize]| rows.iter().fold(Rows::NONE, |m, r| m.with(*r));
        assert_eq!(ROWS.rows("sed"), set(&[0, 3]));
        assert_eq!(ROWS.rows("awk"), set(&[1]));
        assert_eq!(ROWS.rows("git"), set(&[2, 200]));
        assert_eq!(ROWS.rows("git").iter().collect::<Vec<_>>(), [2, 200]);
        assert!(ROWS.rows("gawk").is_empty());
    }
}
