//! The two small hashes of the compiled form, written by hand.
//!
//! - [`xxh64`] (XXH64, seed 0) checksums the artifact body and fingerprints
//!   the source files (SPEC §9: "a hash of its sources"). It is not a
//!   security measure — an attacker who can write the artifact can write the
//!   rule files too — it catches truncation, bit rot and stale artifacts.
//!   XXH64 reads 32 bytes a round, so checking a 10 MB body costs a few
//!   milliseconds, well inside the 50 ms load budget; FNV-1a, one byte a
//!   round, would eat most of it. It is ~60 lines, so no crate is pulled in.
//! - [`word_hash`] hashes command words and agent names for the slot
//!   tables: they are a few bytes long, read a word at a time.
//!
//! Both are fixed functions: tables built at compile time are looked up
//! with the same hash after loading, on any machine.
//!
//! [`slots`] and [`find_slot`] are the one open-addressed name table of the
//! compiled form (agent ids, exact tokens): [`word_hash`], linear probing, load
//! factor ≤ 1/2, each slot `id + 1` or 0 for free, the names kept
//! elsewhere (a string table), so the artifact stores it as one `u32`
//! array.

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

fn read_u64(b: &[u8], i: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(a)
}

fn read_u32(b: &[u8], i: usize) -> u64 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[i..i + 4]);
    u64::from(u32::from_le_bytes(a))
}

fn round(acc: u64, input: u64) -> u64 {
    acc.wrapping_add(input.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

fn merge(acc: u64, val: u64) -> u64 {
    (acc ^ round(0, val)).wrapping_mul(P1).wrapping_add(P4)
}

/// XXH64 with seed 0.
///
/// ```
/// assert_eq!(permc_compiler::hash::xxh64(b""), 0xEF46_DB37_51D8_E999);
/// ```
pub fn xxh64(data: &[u8]) -> u64 {
    let len = data.len();
    let mut i = 0;
    let mut h = if len >= 32 {
        let (mut v1, mut v2, mut v3, mut v4) =
            (P1.wrapping_add(P2), P2, 0u64, 0u64.wrapping_sub(P1));
        // Every index below stays under `len`: the loop runs while 32 bytes
        // remain.
        while i + 32 <= len {
            v1 = round(v1, read_u64(data, i));
            v2 = round(v2, read_u64(data, i + 8));
            v3 = round(v3, read_u64(data, i + 16));
            v4 = round(v4, read_u64(data, i + 24));
            i += 32;
        }
        let mut h = v1
            .rotate_left(1)
            .wrapping_add(v2.rotate_left(7))
            .wrapping_add(v3.rotate_left(12))
            .wrapping_add(v4.rotate_left(18));
        h = merge(h, v1);
        h = merge(h, v2);
        h = merge(h, v3);
        merge(h, v4)
    } else {
        P5
    };
    h = h.wrapping_add(len as u64);
    while i + 8 <= len {
        h ^= round(0, read_u64(data, i));
        h = h.rotate_left(27).wrapping_mul(P1).wrapping_add(P4);
        i += 8;
    }
    if i + 4 <= len {
        h ^= read_u32(data, i).wrapping_mul(P1);
        h = h.rotate_left(23).wrapping_mul(P2).wrapping_add(P3);
        i += 4;
    }
    while i < len {
        h ^= u64::from(data[i]).wrapping_mul(P5);
        h = h.rotate_left(11).wrapping_mul(P1);
        i += 1;
    }
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^= h >> 29;
    h = h.wrapping_mul(P3);
    h ^ (h >> 32)
}

/// The hash of a name in the slot tables ([`slots`], [`find_slot`]): a
/// word of up to eight bytes read whole (two four-byte loads that may
/// overlap, or its first, middle and last byte), a longer one eight bytes
/// at a time and its last eight, with its length, then one multiply whose
/// high half is folded into the low bits the table's mask keeps. FNV-1a,
/// a multiply a byte, cost ~25 instructions for a 7-byte name against
/// ~10, and its low bits put the bench's tokens in one slot often (1.7
/// slots read a lookup).
#[inline]
pub fn word_hash(b: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let n = b.len();
    // Each read is one load (indexed byte by byte, the last four were four).
    let x = if let Some(last) = b.last_chunk::<8>() {
        let mut h = 0u64;
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            h = (h ^ u64::from_le_bytes(eight(c)))
                .wrapping_mul(K)
                .rotate_left(31);
        }
        h ^ u64::from_le_bytes(*last)
    } else if let (Some(first), Some(last)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        u64::from(u32::from_le_bytes(*first)) | (u64::from(u32::from_le_bytes(*last)) << 32)
    } else if n > 0 {
        u64::from(b[0]) | (u64::from(b[n / 2]) << 8) | (u64::from(b[n - 1]) << 16)
    } else {
        0
    };
    let h = (x ^ ((n as u64) << 59) ^ (n as u64)).wrapping_mul(K);
    h ^ (h >> 29)
}

/// FNV-1a as a [`std::hash::Hasher`] for the compiler's own maps: the
/// same on every run (so is the artifact built from them) and faster than
/// SipHash on short keys. Not for maps keyed by untrusted input.
#[derive(Debug, Clone, Copy)]
pub struct FnvHasher(u64);

impl Default for FnvHasher {
    fn default() -> FnvHasher {
        FnvHasher(0xCBF2_9CE4_8422_2325)
    }
}

impl std::hash::Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
}

/// A `HashMap` with [`FnvHasher`].
pub type FnvMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FnvHasher>>;

/// The open-addressed slot table of `names` (ids in iteration order):
/// a power-of-two length of at least twice their number, each slot
/// `id + 1` or 0 for free; empty for no names.
#[allow(clippy::cast_possible_truncation)] // a hash reduced to a slot: truncation is the point
pub(crate) fn slots<'a>(names: impl ExactSizeIterator<Item = &'a [u8]>) -> Vec<u32> {
    let n = names.len();
    if n == 0 {
        return Vec::new();
    }
    let cap = (n * 2).next_power_of_two().max(2);
    let mut slots = vec![0u32; cap];
    for (id, name) in names.enumerate() {
        let mut s = (word_hash(name) as usize) & (cap - 1);
        while slots[s] != 0 {
            s = (s + 1) & (cap - 1);
        }
        slots[s] = crate::ix(id) + 1;
    }
    slots
}

/// The id whose name (`name_of(id)`) is `key`, in a table built by
/// [`slots`] (or loaded and checked by [`slots_valid`]). Inlined in
/// its two callers (a token per command word, an agent per request): a
/// call was ~15 instructions a word.
#[inline(always)]
#[allow(clippy::cast_possible_truncation)] // a hash reduced to a slot: truncation is the point
pub(crate) fn find_slot<'n>(
    slots: &[u32],
    key: &[u8],
    name_of: impl Fn(u32) -> &'n [u8],
) -> Option<u32> {
    if slots.is_empty() {
        return None;
    }
    let mask = slots.len() - 1;
    let mut s = (word_hash(key) as usize) & mask;
    // Terminates: the table holds a free slot (built so, or checked by
    // `slots_valid` at load), and `s` stays below its power-of-two length.
    loop {
        let v = *slots.get(s)?;
        if v == 0 {
            return None;
        }
        if bytes_eq(name_of(v - 1), key) {
            return Some(v - 1);
        }
        s = (s + 1) & mask;
    }
}

/// `a == b` for the short names of a policy (words, agents): inline, as
/// a `memcmp` call and its setup cost more than the bytes. A name of four
/// to seven bytes is two four-byte words that may overlap, a longer one
/// eight bytes a comparison and its last eight, a shorter one byte by
/// byte: a 7-byte agent name is 3 comparisons, not 7 rounds of a byte
/// loop (callgrind: ~12 instructions against ~42), and no round of the
/// eight-byte loop is set up for it.
#[inline]
pub(crate) fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    if n >= 8 {
        let (mut ca, mut cb) = (a.chunks_exact(8), b.chunks_exact(8));
        for (x, y) in (&mut ca).zip(&mut cb) {
            if u64::from_ne_bytes(eight(x)) != u64::from_ne_bytes(eight(y)) {
                return false;
            }
        }
        // The last eight, which may overlap the rounds'.
        let last = |s: &[u8]| s.last_chunk::<8>().map(|c| u64::from_ne_bytes(*c));
        return last(a) == last(b);
    }
    if n >= 4 {
        let first = |s: &[u8]| s.first_chunk::<4>().map(|c| u32::from_ne_bytes(*c));
        let last = |s: &[u8]| s.last_chunk::<4>().map(|c| u32::from_ne_bytes(*c));
        return first(a) == first(b) && last(a) == last(b);
    }
    (0..n).all(|i| a[i] == b[i])
}

/// An 8-byte chunk as an array (every chunk of `chunks_exact(8)` is one).
#[inline(always)]
fn eight(s: &[u8]) -> [u8; 8] {
    [s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]
}

/// Shape checks for a loaded slot table over `n` names: empty, or a
/// power-of-two length with a free slot and every id below `n`.
pub(crate) fn slots_valid(slots: &[u32], n: usize) -> bool {
    slots.is_empty()
        || (slots.len().is_power_of_two()
            && slots.contains(&0)
            && slots.iter().all(|&v| v as usize <= n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xxh64_known_values() {
        // Published XXH64 test values (seed 0).
        assert_eq!(xxh64(b""), 0xEF46_DB37_51D8_E999);
        assert_eq!(xxh64(b"a"), 0xD24E_C4F1_A98C_6E5B);
        assert_eq!(xxh64(b"abc"), 0x44BC_2CF5_AD77_0999);
        assert_eq!(
            xxh64(b"Nobody inspects the spammish repetition"),
            0xFBCE_A83C_8A37_8BF1
        );
    }

    #[test]
    fn the_word_hash_and_comparison() {
        let text: Vec<u8> = (0u8..40).map(|i| i.wrapping_mul(37) ^ 0x5A).collect();
        let mut seen = std::collections::HashSet::new();
        for n in 0..text.len() {
            let a = &text[..n];
            assert!(seen.insert(word_hash(a)), "length {n}");
            assert!(bytes_eq(a, a));
            assert!(!bytes_eq(a, &text[..n + 1]));
            // One byte changed, at every place: unequal.
            for i in 0..n {
                let mut b = a.to_vec();
                b[i] ^= 1;
                assert!(!bytes_eq(a, &b), "length {n}, byte {i}");
                assert_ne!(word_hash(a), word_hash(&b), "length {n}, byte {i}");
            }
        }
    }
}
