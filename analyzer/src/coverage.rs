//! Exact coverage of token-prefix patterns (SPEC §3.2): "every match of A
//! is matched by B" — and by B₁ … Bₙ together.
//!
//! A Terminal pattern `p1 … pk` denotes the set of argument-word lists
//! `t1 … tn` with `n ≥ k` and `pi` matching `ti`: a product of token sets
//! followed by anything. A token set is one exact word `{x}` or a prefix
//! set `p·Σ*` (`p*`); the alphabet Σ (every character) is infinite.
//!
//! **Single entry** ([`covers`]). `B = q1 … qk` covers `A = s1 … sm` iff
//! `k ≤ m` and every `si ⊆ qi` ([`token_covers`]): words past `m` are free
//! in `A`, so a longer `B` misses `A`'s shortest matches; and a product of
//! non-empty sets is inside a product iff each factor is. `{x} ⊆ p·Σ*` iff
//! `x` starts with `p`; `q·Σ* ⊆ p·Σ*` iff `q` starts with `p`; a prefix
//! set is never inside one word.
//!
//! **Unions add nothing.** When several entries together match every
//! match of `A`, one of them alone already does: `A` has a *generic* match
//! `w*` of length `m` — each exact token's word, and for each `q*` the
//! text `q` followed by a character no pattern uses (Σ is infinite, the
//! patterns finite). An entry matches `w*` only if it is no longer than
//! `A` and each of its tokens contains `A`'s whole token set there (an
//! exact token cannot hold `q` + a fresh character, a prefix `p*` holds it
//! only when `q` starts with `p`) — that is, only if it covers `A`. So
//! "covered by a union" is exactly "covered by one entry", and
//! [`TokenTrie::covering`] decides it for a whole list at once. (The
//! hardened readings of the built-in denies, SPEC §5.2, are not token
//! prefixes; `crate::analysis` handles them separately.)
//!
//! Tested against brute force over a finite universe with a fresh letter
//! (see the tests below).

use permc_grammar::pattern::PatToken;
/// Does token set `b` contain token set `a`?
///
/// ```
/// use permc_analyzer::coverage::token_covers;
/// use permc_grammar::pattern::PatToken::{Exact, Prefix};
/// assert!(token_covers(&Prefix("ab".into()), &Exact("abc".into())));
/// assert!(token_covers(&Prefix("ab".into()), &Prefix("abd".into())));
/// assert!(!token_covers(&Exact("abc".into()), &Prefix("abc".into())));
/// ```
pub fn token_covers(b: &PatToken, a: &PatToken) -> bool {
    match (b, a) {
        (PatToken::Exact(y), PatToken::Exact(x)) => x == y,
        (PatToken::Prefix(p), PatToken::Exact(x) | PatToken::Prefix(x)) => {
            x.starts_with(p.as_str())
        }
        (PatToken::Exact(_), PatToken::Prefix(_)) => false,
    }
}

/// Does the pattern with tokens `b` match every segment the pattern with
/// tokens `a` matches? (Empty tokens: `Terminal()`, every segment.)
///
/// ```
/// use permc_analyzer::coverage::covers;
/// use permc_grammar::pattern::PatToken::{Exact, Prefix};
/// let git = [Exact("git".into())];
/// let git_push = [Exact("git".into()), Exact("push".into())];
/// assert!(covers(&git, &git_push));
/// assert!(!covers(&git_push, &git));
/// assert!(covers(&[], &git));
/// ```
pub fn covers(b: &[PatToken], a: &[PatToken]) -> bool {
    b.len() <= a.len() && b.iter().zip(a).all(|(q, s)| token_covers(q, s))
}

/// A trie of token lists, to find the entries that cover a pattern without
/// comparing every pair: 100k-entry files stay fast.
///
/// It is flat: the nodes in one vector, their token texts in one string,
/// the edges in one open-addressing table keyed by (parent, kind, text),
/// the ids ending at a node in one chained list — a handful of allocations
/// for the whole trie, however many entries it holds.
#[derive(Debug, Clone, Default)]
pub struct TokenTrie {
    nodes: Vec<Node>,
    /// The token texts of the nodes, one after the other.
    texts: String,
    /// Edges: (node id, high bits of the edge's hash), `EMPTY` ids for free
    /// slots, probed linearly from the edge's hash; the length is a power
    /// of two, at most half full. The hash bits spare most probes a visit
    /// to the node.
    slots: Vec<(u32, u32)>,
    /// Ids ending at nodes: (id, next in the node's chain).
    ends: Vec<(usize, u32)>,
}

const EMPTY: u32 = u32::MAX;

#[derive(Debug, Clone)]
struct Node {
    parent: u32,
    prefix: bool,
    /// The token text: `texts[start..start + len]`.
    start: u32,
    len: u32,
    /// The shortest and longest prefix-token child, in bytes (0, 0 when
    /// none): only those prefixes of a word are looked up.
    prefix_lens: (u32, u32),
    /// First entry of the node's chain in `ends`.
    first_end: u32,
}

/// FNV-1a over the edge's parent, kind and text.
fn edge_hash(parent: u32, prefix: bool, text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let parent = parent.to_le_bytes();
    for &b in parent
        .iter()
        .chain([u8::from(prefix)].iter())
        .chain(text.as_bytes())
    {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl TokenTrie {
    /// An empty trie.
    pub fn new() -> TokenTrie {
        TokenTrie {
            nodes: vec![Node {
                parent: EMPTY,
                prefix: false,
                start: 0,
                len: 0,
                prefix_lens: (0, 0),
                first_end: EMPTY,
            }],
            texts: String::new(),
            slots: vec![(EMPTY, 0); 16],
            ends: Vec::new(),
        }
    }

    fn text(&self, n: &Node) -> &str {
        self.texts
            .get(n.start as usize..(n.start + n.len) as usize)
            .unwrap_or("")
    }

    /// The child of `parent` by a token of this kind and text.
    #[allow(clippy::cast_possible_truncation)] // a hash split into a tag and a slot
    fn child(&self, parent: u32, prefix: bool, text: &str) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let h = edge_hash(parent, prefix, text);
        let tag = (h >> 32) as u32;
        let mut i = h as usize & mask;
        loop {
            let (id, t) = self.slots[i];
            if id == EMPTY {
                return None;
            }
            if t == tag {
                let n = &self.nodes[id as usize];
                if n.parent == parent && n.prefix == prefix && self.text(n) == text {
                    return Some(id);
                }
            }
            i = (i + 1) & mask;
        }
    }

    #[allow(clippy::cast_possible_truncation)] // a hash reduced to a slot
    fn place(slots: &mut [(u32, u32)], hash: u64, id: u32) {
        let mask = slots.len() - 1;
        let mut i = hash as usize & mask;
        while slots[i].0 != EMPTY {
            i = (i + 1) & mask;
        }
        slots[i] = (id, (hash >> 32) as u32);
    }

    /// Adds a token list under `id`. Node ids and text offsets are `u32`:
    /// a trie holds less than 4 GiB of token text.
    /// Returns the node where the list ends (equal lists share it).
    pub fn insert(&mut self, tokens: &[PatToken], id: usize) -> u32 {
        if self.nodes.is_empty() {
            *self = TokenTrie::new();
        }
        let mut at: u32 = 0;
        for t in tokens {
            let prefix = matches!(t, PatToken::Prefix(_));
            let text = t.text();
            if prefix {
                let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
                let lens = &mut self.nodes[at as usize].prefix_lens;
                *lens = if lens.1 == 0 {
                    (len, len)
                } else {
                    (lens.0.min(len), lens.1.max(len))
                };
            }
            at = match self.child(at, prefix, text) {
                Some(c) => c,
                None => self.add_node(at, prefix, text),
            };
        }
        let node = &mut self.nodes[at as usize];
        let next = node.first_end;
        node.first_end = u32::try_from(self.ends.len()).unwrap_or(EMPTY);
        self.ends.push((id, next));
        at
    }

    /// The number of nodes (node ids are `0..len`).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the trie holds no list.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn add_node(&mut self, parent: u32, prefix: bool, text: &str) -> u32 {
        // Keep the table at most half full.
        if (self.nodes.len() + 1) * 2 > self.slots.len() {
            let mut slots = vec![(EMPTY, 0); self.slots.len() * 2];
            for (i, n) in self.nodes.iter().enumerate().skip(1) {
                let h = edge_hash(n.parent, n.prefix, self.text(n));
                Self::place(&mut slots, h, ix(i));
            }
            self.slots = slots;
        }
        let id = ix(self.nodes.len());
        self.nodes.push(Node {
            parent,
            prefix,
            start: ix(self.texts.len()),
            len: ix(text.len()),
            prefix_lens: (0, 0),
            first_end: EMPTY,
        });
        self.texts.push_str(text);
        Self::place(&mut self.slots, edge_hash(parent, prefix, text), id);
        id
    }

    /// Ids of every list that covers `a` ([`covers`]), in no set order.
    pub fn covering(&self, a: &[PatToken], out: &mut Vec<usize>) {
        let mut nodes = Vec::new();
        self.covering_nodes(a, &mut nodes);
        for n in nodes {
            let mut e = self.nodes[n as usize].first_end;
            while let Some(&(id, next)) = self.ends.get(e as usize) {
                out.push(id);
                e = next;
            }
        }
    }

    /// The nodes where the lists that cover `a` end (each once): the
    /// lists ending at a node are equal, so callers that keep a summary
    /// per node (the first entry of each list) need not see every one of
    /// a thousand duplicates.
    pub fn covering_nodes(&self, a: &[PatToken], out: &mut Vec<u32>) {
        if self.nodes.is_empty() {
            return;
        }
        // An explicit stack, not recursion: a pattern may have as many
        // tokens as a 256 KiB line holds words.
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        while let Some((at, depth)) = stack.pop() {
            let node = &self.nodes[at as usize];
            if node.first_end != EMPTY {
                out.push(at);
            }
            let Some(s) = a.get(depth) else {
                continue;
            };
            if let PatToken::Exact(x) = s {
                if let Some(c) = self.child(at, false, x) {
                    stack.push((c, depth + 1));
                }
            }
            // Prefix children `p*` with `p` a prefix of the token's text.
            let (shortest, longest) = (node.prefix_lens.0 as usize, node.prefix_lens.1 as usize);
            if longest == 0 {
                continue;
            }
            let text = s.text();
            for end in text
                .char_indices()
                .map(|(i, _)| i)
                .skip(1)
                .chain([text.len()])
            {
                if end < shortest {
                    continue;
                }
                if end > longest {
                    break;
                }
                if let Some(c) = self.child(at, true, &text[..end]) {
                    stack.push((c, depth + 1));
                }
            }
        }
    }
}

/// A count as the trie stores it. Node counts and text offsets are bounded
/// by the rule file's bytes, which the reader keeps under 4 GiB
/// (`permc_grammar::rules::MAX_FILE_BYTES`); past it, saturate rather than
/// wrap.
fn ix(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use PatToken::{Exact, Prefix};

    fn e(s: &str) -> PatToken {
        Exact(s.into())
    }
    fn p(s: &str) -> PatToken {
        Prefix(s.into())
    }

    /// Every word over {a, b, c} up to three letters. Patterns use only a
    /// and b, so `c` is a character no pattern continues with: the finite
    /// universe then decides exactly what the infinite one does (module
    /// docs).
    fn universe_words() -> Vec<String> {
        let mut out = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for w in &last {
                for c in ['a', 'b', 'c'] {
                    next.push(format!("{w}{c}"));
                }
            }
            out.extend(next.iter().cloned());
            last = next;
        }
        out
    }

    fn matches(tokens: &[PatToken], words: &[&String]) -> bool {
        tokens.len() <= words.len() && tokens.iter().zip(words).all(|(t, w)| t.matches(w))
    }

    /// Brute force: every list of up to two universe words.
    fn brute_union(a: &[PatToken], bs: &[Vec<PatToken>], universe: &[String]) -> bool {
        let mut lists: Vec<Vec<&String>> = vec![vec![]];
        for w in universe {
            lists.push(vec![w]);
            for v in universe {
                lists.push(vec![w, v]);
            }
        }
        lists
            .iter()
            .filter(|l| matches(a, l))
            .all(|l| bs.iter().any(|b| matches(b, l)))
    }

    fn token() -> impl Strategy<Value = PatToken> {
        let text = proptest::string::string_regex("[ab]{0,2}").expect("regex");
        let ptext = proptest::string::string_regex("[ab]{1,2}").expect("regex");
        prop_oneof![text.prop_map(Exact), ptext.prop_map(Prefix)]
    }

    fn tokens() -> impl Strategy<Value = Vec<PatToken>> {
        proptest::collection::vec(token(), 0..=2)
    }

    #[test]
    fn spec_examples() {
        assert!(token_covers(&p("ab"), &e("abc")));
        assert!(token_covers(&p("ab"), &p("abd")));
        assert!(token_covers(&p("ab"), &e("ab")));
        assert!(!token_covers(&e("abc"), &p("abc")));
        assert!(!token_covers(&p("abc"), &p("ab")));
        assert!(covers(
            &[e("pnpm"), e("test")],
            &[e("pnpm"), e("test"), e("--watch")]
        ));
        assert!(!covers(
            &[e("pnpm"), e("test"), e("--watch")],
            &[e("pnpm"), e("test")]
        ));
        assert!(covers(&[], &[e("x")]));
        // Several entries never do together what none does alone.
        let u = universe_words();
        let a = [p("ab")];
        assert!(!brute_union(
            &a,
            &[vec![e("ab")], vec![p("abc")], vec![p("abb")]],
            &u
        ));
        let a = [e("b"), p("a")];
        assert!(!brute_union(
            &a,
            &[
                vec![e("b"), e("a")],
                vec![e("b"), p("ab")],
                vec![e("b"), p("aa")]
            ],
            &u
        ));
        assert!(brute_union(
            &a,
            &[vec![e("b"), e("a")], vec![e("b"), p("a")]],
            &u
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn single_cover_matches_brute_force(a in tokens(), b in tokens()) {
            let u = universe_words();
            prop_assert_eq!(covers(&b, &a), brute_union(&a, std::slice::from_ref(&b), &u));
        }

        /// The module's theorem: a union covers only when one member does.
        #[test]
        fn a_union_covers_only_when_one_entry_does(a in tokens(), bs in proptest::collection::vec(tokens(), 0..5)) {
            let u = universe_words();
            prop_assert_eq!(bs.iter().any(|b| covers(b, &a)), brute_union(&a, &bs, &u));
        }

        #[test]
        fn trie_finds_exactly_the_covering_lists(a in tokens(), bs in proptest::collection::vec(tokens(), 0..8)) {
            let mut trie = TokenTrie::new();
            for (i, b) in bs.iter().enumerate() {
                trie.insert(b, i);
            }
            let mut got = Vec::new();
            trie.covering(&a, &mut got);
            got.sort_unstable();
            let want: Vec<usize> = (0..bs.len()).filter(|&i| covers(&bs[i], &a)).collect();
            prop_assert_eq!(got, want);
        }
    }
}
