//! A program's rows found by one hash probe, not by a scan of the table.
//!
//! The catalogue's tables keep each program's rows together (the runners,
//! the external-effect entries); a run finds its program's rows with a
//! [`NameIndex`] built from the table at compile time: FNV-1a of the name,
//! open addressing over 256 slots. A scan that compared every tool name
//! cost a run of `pnpm` about 200 instructions in the runners and as many
//! in the external-effect entries; a probe costs the hash of the name and
//! one compare.

/// Positions in a list of at most 255 names, by name: slot `h` holds the
/// position + 1 of a name hashing to `h` (0: empty), the next slots the
/// names that collided.
pub(crate) struct NameIndex {
    slots: [u8; SLOTS],
}

const SLOTS: usize = 256;

/// FNV-1a, 32 bits, in a `const` context too.
const fn fnv(name: &[u8]) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < name.len() {
        h ^= name[i] as u32;
        h = h.wrapping_mul(0x0100_0193);
        i += 1;
    }
    (h ^ (h >> 16)) as usize % SLOTS
}

impl NameIndex {
    /// The index of `names` (distinct; fewer than half the slots, so that
    /// a probe ends soon).
    pub(crate) const fn new(names: &[&str]) -> NameIndex {
        assert!(names.len() < SLOTS / 2, "a name index holds < 128 names");
        let mut slots = [0u8; SLOTS];
        let mut i = 0;
        while i < names.len() {
            let mut s = fnv(names[i].as_bytes());
            while slots[s] != 0 {
                s = (s + 1) % SLOTS;
            }
            slots[s] = (i + 1) as u8;
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
        let mut s = fnv(name.as_bytes());
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
}
