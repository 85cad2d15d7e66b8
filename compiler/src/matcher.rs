//! The token-prefix trie of every Terminal pattern, determinized (SPEC §3.2).
//!
//! **Build.** Every Terminal pattern of the three lists goes into one trie
//! of tokens (an NFA: a prefix wildcard `test:*` is an edge that any word
//! starting with `test:` may take, so a word can follow several edges).
//! The trie is then determinized: a state stands for the set of trie nodes
//! the words read so far can reach, and carries, per list, the first entry
//! (in file order) among the patterns that end in one of its nodes.
//!
//! **Match.** From a state, a word takes the exact edge of its token when
//! there is one (the target already includes every wildcard edge the word
//! also matches); otherwise the word walks the state's byte trie of
//! wildcard prefixes, and the deepest prefix it passes names the target.
//! So one word costs O(its bytes) — a hash of the word, one probe, or one
//! probe per byte — and a segment costs O(its bytes), whatever the number
//! of rules. The first entry of a list matching the segment is the least
//! entry index over the states visited (patterns match a *prefix* of the
//! words, so every visited state's patterns match).
//!
//! **Fallback.** Determinizing can in theory blow up (sets of nodes). Past
//! a cap the compiler keeps the NFA instead: states are single trie nodes,
//! edges lead to lists of states, and matching carries a set of states.
//! Answers are identical (tested by forcing the fallback); only speed
//! changes, and realistic policies never hit the cap.
//!
//! **Tables.** Everything is flat arrays (`u32`, `u64`, bytes) with
//! open-addressed hash tables, so the artifact loads by copying arrays and
//! no table is rebuilt at load time.

use crate::hash::FnvMap;
use crate::ix;
use permc_grammar::pattern::PatToken;
use permc_grammar::rules::List;
use permc_grammar::shell::Known;
use std::collections::BTreeMap;

/// "No entry", "no state": the largest `u32`.
pub const NONE: u32 = u32::MAX;

/// Index of `deny` in a state's `accept` triple: [`List`]'s one order.
pub const DENY: usize = List::Deny.index();
/// Index of `ask` in an accept triple.
pub const ASK: usize = List::Ask.index();
/// Index of `allow` in an accept triple.
pub const ALLOW: usize = List::Allow.index();

/// An open-addressed hash table `u64 → u32` in two flat arrays (linear
/// probing, load factor ≤ 1/2, [`FlatMap::EMPTY`] marks a free slot).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlatMap {
    pub(crate) keys: Vec<u64>,
    pub(crate) vals: Vec<u32>,
}

impl FlatMap {
    /// The key of a free slot; no real key is `u64::MAX` (their high half is
    /// a state or node id, never [`NONE`]).
    pub const EMPTY: u64 = u64::MAX;

    /// Builds the table from distinct keys.
    pub(crate) fn build(pairs: &[(u64, u32)]) -> FlatMap {
        if pairs.is_empty() {
            return FlatMap::default();
        }
        let cap = (pairs.len() * 2).next_power_of_two().max(2);
        let mut m = FlatMap {
            keys: vec![FlatMap::EMPTY; cap],
            vals: vec![0; cap],
        };
        for &(k, v) in pairs {
            let mut i = m.slot(k);
            while m.keys[i] != FlatMap::EMPTY {
                i = (i + 1) & (cap - 1);
            }
            m.keys[i] = k;
            m.vals[i] = v;
        }
        m
    }

    #[inline]
    #[allow(clippy::cast_possible_truncation)] // the top `bits` bits: they fit
    fn slot(&self, key: u64) -> usize {
        // Fibonacci hashing: the top bits of key × 2^64/φ.
        let bits = self.keys.len().trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// The value of `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u32> {
        if self.keys.is_empty() {
            return None;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        // Terminates: the table always holds a free slot (checked at load,
        // `valid`), and `i` stays below the power-of-two length.
        loop {
            let k = self.keys[i];
            if k == key {
                return self.vals.get(i).copied();
            }
            if k == FlatMap::EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Shape checks for a loaded table: a power-of-two length of at least
    /// 2 (or empty), equal arrays, a free slot, values below `bound`.
    pub(crate) fn valid(&self, bound: u32) -> bool {
        let n = self.keys.len();
        if n == 0 {
            return self.vals.is_empty();
        }
        n >= 2
            && n.is_power_of_two()
            && self.vals.len() == n
            && self.keys.contains(&FlatMap::EMPTY)
            && self
                .keys
                .iter()
                .zip(&self.vals)
                .all(|(&k, &v)| k == FlatMap::EMPTY || v < bound)
    }
}

/// The compiled token-prefix matcher.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Matcher {
    /// True when determinized (one state at a time); false in the fallback.
    pub(crate) deterministic: bool,
    /// The start state.
    pub(crate) start: u32,
    /// Per state, `[deny, ask, allow]`: the least entry index of a pattern
    /// ending here, or [`NONE`].
    pub(crate) accept: Vec<u32>,
    /// Per state, the root of its byte trie of wildcard prefixes, or [`NONE`].
    pub(crate) bt_root: Vec<u32>,
    /// Exact tokens, concatenated.
    pub(crate) tok_bytes: Vec<u8>,
    /// Token `i` is `tok_bytes[tok_off[i]..tok_off[i + 1]]`.
    pub(crate) tok_off: Vec<u32>,
    /// Open-addressed by [`word_hash`](crate::hash::word_hash): token id + 1, or 0 for a free slot.
    pub(crate) tok_slots: Vec<u32>,
    /// `(state << 32) | token` → target list.
    pub(crate) edges: FlatMap,
    /// `(byte-trie node << 8) | byte` → byte-trie node.
    pub(crate) bt_edges: FlatMap,
    /// Per byte-trie node: the target list of the deepest prefix ending
    /// here, or [`NONE`] when no prefix ends here.
    pub(crate) bt_target: Vec<u32>,
    /// Target list `i` is `targets[target_off[i]..target_off[i + 1]]`.
    pub(crate) target_off: Vec<u32>,
    /// States.
    pub(crate) targets: Vec<u32>,
    /// Every state's successors and the first entries below it, built on
    /// the first request with an unknown word (never stored: derived from
    /// the tables above).
    pub(crate) reach: std::sync::OnceLock<Reach>,
    /// Every state's labelled edges, built on the first request with a
    /// glob word (never stored: derived from the tables above).
    pub(crate) labels: std::sync::OnceLock<Labels>,
}

/// What the walk over glob words needs (SPEC §4.4 item 4): per state, its
/// exact edges (token, target list) and its wildcard prefixes (text,
/// target list), so a glob is tried against each label.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Labels {
    /// State `s`'s exact edges: `exact[exact_off[s]..exact_off[s + 1]]`.
    exact_off: Vec<u32>,
    exact: Vec<(u32, u32)>,
    /// State `s`'s wildcard prefixes: `wild[wild_off[s]..wild_off[s + 1]]`.
    wild_off: Vec<u32>,
    wild: Vec<(String, u32)>,
}

impl Labels {
    fn exact(&self, s: u32) -> &[(u32, u32)] {
        let i = s as usize;
        match (self.exact_off.get(i), self.exact_off.get(i + 1)) {
            (Some(&a), Some(&b)) => self.exact.get(a as usize..b as usize).unwrap_or_default(),
            _ => &[],
        }
    }

    fn wild(&self, s: u32) -> &[(String, u32)] {
        let i = s as usize;
        match (self.wild_off.get(i), self.wild_off.get(i + 1)) {
            (Some(&a), Some(&b)) => self.wild.get(a as usize..b as usize).unwrap_or_default(),
            _ => &[],
        }
    }
}

/// What the walk over unknown words needs (SPEC §4.4): per state, every
/// state one word away (whatever the word), and per list the least entry
/// of a pattern ending at the state or below it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reach {
    /// Successors of state `s`: `succ[succ_off[s]..succ_off[s + 1]]`.
    succ_off: Vec<u32>,
    succ: Vec<u32>,
    /// Per state, `[deny, ask, allow]` over the state and its descendants.
    below: Vec<[u32; 3]>,
}

/// One pattern to put in the trie: its list and index, and its tokens.
#[derive(Debug, Clone, Copy)]
pub struct TriePattern<'a> {
    /// [`DENY`], [`ASK`] or [`ALLOW`].
    pub list: usize,
    /// The entry's index in its list (file order).
    pub index: u32,
    /// The tokens; empty for `Terminal()`, which matches every segment.
    pub tokens: &'a [PatToken],
}

#[derive(Default)]
struct Node {
    exact: FnvMap<String, u32>,
    prefix: FnvMap<String, u32>,
    accept: [u32; 3],
}

struct Nfa {
    nodes: Vec<Node>,
}

impl Nfa {
    fn build(patterns: &[TriePattern<'_>]) -> Nfa {
        let mut nodes = vec![Node {
            accept: [NONE; 3],
            ..Node::default()
        }];
        for p in patterns {
            let mut n = 0usize;
            for t in p.tokens {
                let next = ix(nodes.len());
                let map = match t {
                    PatToken::Exact(_) => &mut nodes[n].exact,
                    PatToken::Prefix(_) => &mut nodes[n].prefix,
                };
                let key = match t {
                    PatToken::Exact(s) | PatToken::Prefix(s) => s,
                };
                // Look up before inserting: cloning every token of every
                // pattern would dominate the build.
                let child = match map.get(key.as_str()) {
                    Some(&c) => c,
                    None => {
                        map.insert(key.clone(), next);
                        next
                    }
                };
                if child == next {
                    nodes.push(Node {
                        accept: [NONE; 3],
                        ..Node::default()
                    });
                }
                n = child as usize;
            }
            let a = &mut nodes[n].accept[p.list];
            *a = (*a).min(p.index);
        }
        Nfa { nodes }
    }
}

/// A byte trie over the wildcard prefixes leaving one state, while building.
struct ByteTrie {
    children: Vec<BTreeMap<u8, usize>>,
    /// Trie nodes the prefixes ending here lead to.
    own: Vec<Vec<u32>>,
}

impl ByteTrie {
    fn new() -> ByteTrie {
        ByteTrie {
            children: vec![BTreeMap::new()],
            own: vec![Vec::new()],
        }
    }

    fn insert(&mut self, prefix: &[u8], targets: &[u32]) {
        let mut n = 0;
        for &b in prefix {
            n = match self.children[n].get(&b) {
                Some(&c) => c,
                None => {
                    self.children.push(BTreeMap::new());
                    self.own.push(Vec::new());
                    let c = self.children.len() - 1;
                    self.children[n].insert(b, c);
                    c
                }
            };
        }
        self.own[n].extend_from_slice(targets);
    }

    /// Every trie node a word starting with `word` reaches through a
    /// wildcard: the prefixes ending on its path.
    fn matched_by(&self, word: &[u8]) -> Vec<u32> {
        let mut out = self.own[0].clone();
        let mut n = 0;
        for b in word {
            match self.children[n].get(b) {
                Some(&c) => {
                    n = c;
                    out.extend_from_slice(&self.own[n]);
                }
                None => break,
            }
        }
        out
    }
}

fn set_of(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v.dedup();
    v
}

/// The cap on determinized states; past it the NFA is kept (see the module
/// doc). Generous: a realistic policy has about one state per trie node.
fn state_cap(nfa_nodes: usize) -> usize {
    nfa_nodes.saturating_mul(8).max(1 << 16)
}

/// The state of [`Matcher::build_with`]: the states found so far (each a
/// set of trie nodes), in the order their ids were given, and the tables
/// being filled for each.
struct Builder<'n> {
    nfa: &'n Nfa,
    /// Determinizing (the DFA path) or keeping the NFA (the fallback).
    deterministic: bool,
    /// States as sets of trie nodes; a DFA finds them as it goes, the NFA
    /// has one per trie node.
    states: Vec<Vec<u32>>,
    /// DFA: the id of each multi-node state.
    state_ids: FnvMap<Vec<u32>, u32>,
    /// DFA: the id of each single-node state, by its node (most states are
    /// one trie node, and this spares a `Vec` key per edge).
    single_ids: FnvMap<u32, u32>,
    /// NFA: target lists (a DFA's list i is state i).
    lists: Vec<Vec<u32>>,
    list_ids: FnvMap<Vec<u32>, u32>,
    /// Exact tokens, by text and in id order.
    tokens: FnvMap<&'n str, u32>,
    tok_list: Vec<&'n str>,
    accept: Vec<u32>,
    bt_root: Vec<u32>,
    edges: Vec<(u64, u32)>,
    bt_edges: Vec<(u64, u32)>,
    bt_target: Vec<u32>,
}

impl<'n> Builder<'n> {
    fn new(nfa: &'n Nfa, deterministic: bool) -> Builder<'n> {
        let mut b = Builder {
            nfa,
            deterministic,
            states: Vec::new(),
            state_ids: FnvMap::default(),
            single_ids: FnvMap::default(),
            lists: Vec::new(),
            list_ids: FnvMap::default(),
            tokens: FnvMap::default(),
            tok_list: Vec::new(),
            accept: Vec::new(),
            bt_root: Vec::new(),
            edges: Vec::new(),
            bt_edges: Vec::new(),
            bt_target: Vec::new(),
        };
        if deterministic {
            b.states.push(vec![0]);
            b.state_ids.insert(vec![0], 0);
            b.single_ids.insert(0, 0);
        } else {
            b.states = (0..nfa.nodes.len()).map(|n| vec![ix(n)]).collect();
        }
        b
    }

    /// The id of an exact token, given on first sight.
    fn token(&mut self, t: &'n str) -> u32 {
        let next = ix(self.tok_list.len());
        let list = &mut self.tok_list;
        *self.tokens.entry(t).or_insert_with(|| {
            list.push(t);
            next
        })
    }

    /// The target of a set of trie nodes: a state (DFA) or a target list
    /// (NFA), created on first sight.
    fn target(&mut self, nodes: Vec<u32>) -> u32 {
        let nodes = set_of(nodes);
        if !self.deterministic {
            let next = ix(self.lists.len());
            let lists = &mut self.lists;
            return *self.list_ids.entry(nodes.clone()).or_insert_with(|| {
                lists.push(nodes);
                next
            });
        }
        let next = ix(self.states.len());
        let states = &mut self.states;
        match nodes[..] {
            [c] => *self.single_ids.entry(c).or_insert_with(|| {
                states.push(nodes);
                next
            }),
            _ => *self.state_ids.entry(nodes.clone()).or_insert_with(|| {
                states.push(nodes);
                next
            }),
        }
    }

    /// A DFA state of one trie node without wildcard edges: its exact
    /// edges lead to single-node states one to one.
    fn single_state(&mut self, i: usize, n: u32) {
        let node = &self.nfa.nodes[n as usize];
        self.accept.extend_from_slice(&node.accept);
        self.bt_root.push(NONE);
        for (t, &c) in &node.exact {
            let next = ix(self.states.len());
            let states = &mut self.states;
            let list = *self.single_ids.entry(c).or_insert_with(|| {
                states.push(vec![c]);
                next
            });
            let tok = self.token(t.as_str());
            self.edges.push((((i as u64) << 32) | u64::from(tok), list));
        }
    }

    /// Any other state: the first entry per list over its nodes, its exact
    /// edges (each also taken by the wildcards that match the token), and a
    /// byte trie over its wildcard prefixes.
    fn set_state(&mut self, i: usize) {
        let nfa = self.nfa;
        let set = self.states[i].clone();
        let mut acc = [NONE; 3];
        let mut exact: BTreeMap<&'n str, Vec<u32>> = BTreeMap::new();
        let mut prefix: BTreeMap<&'n str, Vec<u32>> = BTreeMap::new();
        for &n in &set {
            let node = &nfa.nodes[n as usize];
            for (a, b) in acc.iter_mut().zip(node.accept) {
                *a = (*a).min(b);
            }
            for (t, &c) in &node.exact {
                exact.entry(t.as_str()).or_default().push(c);
            }
            for (t, &c) in &node.prefix {
                prefix.entry(t.as_str()).or_default().push(c);
            }
        }
        self.accept.extend_from_slice(&acc);
        let mut trie = ByteTrie::new();
        for (p, targets) in &prefix {
            trie.insert(p.as_bytes(), targets);
        }
        for (t, children) in exact {
            let mut nodes = children;
            nodes.extend(trie.matched_by(t.as_bytes()));
            let list = self.target(nodes);
            let tok = self.token(t);
            self.edges.push((((i as u64) << 32) | u64::from(tok), list));
        }
        if prefix.is_empty() {
            self.bt_root.push(NONE);
        } else {
            self.byte_trie(&trie);
        }
    }

    /// A state's byte trie over its wildcard prefixes, with global node ids.
    fn byte_trie(&mut self, trie: &ByteTrie) {
        let base = ix(self.bt_target.len());
        self.bt_root.push(base);
        let mut inherited: Vec<Vec<u32>> = vec![Vec::new(); trie.children.len()];
        // Children are created after their parent, so index order is a
        // topological order.
        for n in 0..trie.children.len() {
            let mut here = inherited[n].clone();
            here.extend_from_slice(&trie.own[n]);
            for (&b, &c) in &trie.children[n] {
                inherited[c] = here.clone();
                self.bt_edges
                    .push(((u64::from(base + ix(n)) << 8) | u64::from(b), base + ix(c)));
            }
            let t = if trie.own[n].is_empty() {
                NONE
            } else {
                self.target(here)
            };
            self.bt_target.push(t);
        }
    }

    /// The matcher: flat arrays and hash tables.
    fn finish(self) -> Matcher {
        let (target_off, targets) = if self.deterministic {
            let n = ix(self.states.len());
            ((0..=n).collect(), (0..n).collect())
        } else {
            let mut off = vec![0u32];
            let mut flat = Vec::new();
            for l in &self.lists {
                flat.extend_from_slice(l);
                off.push(ix(flat.len()));
            }
            (off, flat)
        };
        let mut tok_bytes = Vec::new();
        let mut tok_off = vec![0u32];
        for t in &self.tok_list {
            tok_bytes.extend_from_slice(t.as_bytes());
            tok_off.push(ix(tok_bytes.len()));
        }
        let tok_slots = crate::hash::slots(self.tok_list.iter().map(|t| t.as_bytes()));
        Matcher {
            deterministic: self.deterministic,
            start: 0,
            accept: self.accept,
            bt_root: self.bt_root,
            tok_bytes,
            tok_off,
            tok_slots,
            edges: FlatMap::build(&self.edges),
            bt_edges: FlatMap::build(&self.bt_edges),
            bt_target: self.bt_target,
            target_off,
            targets,
            reach: std::sync::OnceLock::new(),
            labels: std::sync::OnceLock::new(),
        }
    }
}

impl Matcher {
    /// Compiles patterns into a matcher, determinized when it stays under the
    /// state cap.
    pub fn build(patterns: &[TriePattern<'_>]) -> Matcher {
        let nfa = Nfa::build(patterns);
        let cap = state_cap(nfa.nodes.len());
        Matcher::build_with(&nfa, Some(cap)).unwrap_or_else(|| {
            // `None` as cap never gives up.
            Matcher::build_with(&nfa, None).unwrap_or_default()
        })
    }

    /// Compiles without determinizing (the fallback), for tests.
    pub fn build_nondeterministic(patterns: &[TriePattern<'_>]) -> Matcher {
        Matcher::build_with(&Nfa::build(patterns), None).unwrap_or_default()
    }

    /// `cap: Some(n)` determinizes, giving up past `n` states; `None` keeps
    /// the NFA.
    fn build_with(nfa: &Nfa, cap: Option<usize>) -> Option<Matcher> {
        let mut b = Builder::new(nfa, cap.is_some());
        let mut i = 0usize;
        while i < b.states.len() {
            if cap.is_some_and(|cap| b.states.len() > cap) {
                return None;
            }
            // Fast path: a state that is one trie node without wildcard
            // edges (the common case) maps its exact edges one to one.
            match b.states[i][..] {
                [n] if b.deterministic && nfa.nodes[n as usize].prefix.is_empty() => {
                    b.single_state(i, n);
                }
                _ => b.set_state(i),
            }
            i += 1;
        }
        Some(b.finish())
    }
    /// Number of states.
    pub fn states(&self) -> usize {
        self.bt_root.len()
    }

    /// Number of distinct exact tokens.
    pub fn tokens(&self) -> usize {
        self.tok_off.len().saturating_sub(1)
    }

    /// True when determinized.
    pub fn is_deterministic(&self) -> bool {
        self.deterministic
    }

    /// The text of exact token `id` (empty for an id out of range).
    #[inline]
    pub(crate) fn token_text(&self, id: u32) -> &[u8] {
        let i = id as usize;
        match (self.tok_off.get(i), self.tok_off.get(i + 1)) {
            (Some(&a), Some(&b)) => self
                .tok_bytes
                .get(a as usize..b as usize)
                .unwrap_or_default(),
            _ => &[],
        }
    }

    /// The id of the exact token equal to `word`, if any pattern has it.
    #[inline]
    pub(crate) fn token(&self, word: &[u8]) -> Option<u32> {
        crate::hash::find_slot(&self.tok_slots, word, |id| self.token_text(id))
    }

    /// The target list a word leads to from `state`.
    #[inline]
    fn step(&self, state: u32, word: &[u8], tok: Option<u32>) -> Option<u32> {
        if let Some(t) = tok {
            if let Some(l) = self.edges.get((u64::from(state) << 32) | u64::from(t)) {
                return Some(l);
            }
        }
        let mut b = *self.bt_root.get(state as usize)?;
        if b == NONE {
            return None;
        }
        let mut found = None;
        for &byte in word {
            match self.bt_edges.get((u64::from(b) << 8) | u64::from(byte)) {
                Some(c) => {
                    b = c;
                    match self.bt_target.get(c as usize) {
                        Some(&t) if t != NONE => found = Some(t),
                        _ => {}
                    }
                }
                None => break,
            }
        }
        found
    }

    fn list(&self, l: u32) -> &[u32] {
        let i = l as usize;
        match (self.target_off.get(i), self.target_off.get(i + 1)) {
            (Some(&a), Some(&b)) => self.targets.get(a as usize..b as usize).unwrap_or_default(),
            _ => &[],
        }
    }

    fn absorb(&self, best: &mut [u32; 3], state: u32) {
        let i = state as usize * 3;
        if let Some(a) = self.accept.get(i..i + 3) {
            for k in 0..3 {
                best[k] = best[k].min(a[k]);
            }
        }
    }

    /// Per list (`[deny, ask, allow]`), the index of the first entry in file
    /// order whose pattern matches a segment with these argument words
    /// (SPEC §3.2), or [`NONE`].
    pub fn first_matches<S: AsRef<str>>(&self, words: &[S]) -> [u32; 3] {
        let mut best = [NONE; 3];
        if self.bt_root.is_empty() {
            return best;
        }
        self.absorb(&mut best, self.start);
        if self.deterministic {
            let mut state = self.start;
            for w in words {
                let w = w.as_ref().as_bytes();
                let tok = self.token(w);
                let Some(l) = self.step(state, w, tok) else {
                    break;
                };
                // A DFA's lists hold exactly one state, list `l` at
                // `targets[l]` (its offsets are 0, 1, 2, …: `validate` holds
                // them so): one load, not the list's two offsets.
                let Some(&next) = self.targets.get(l as usize) else {
                    break;
                };
                state = next;
                self.absorb(&mut best, state);
            }
        } else {
            let mut active = vec![self.start];
            let mut next = Vec::new();
            for w in words {
                let w = w.as_ref().as_bytes();
                let tok = self.token(w);
                next.clear();
                for &s in &active {
                    if let Some(l) = self.step(s, w, tok) {
                        next.extend_from_slice(self.list(l));
                    }
                }
                next.sort_unstable();
                next.dedup();
                for &s in &next {
                    self.absorb(&mut best, s);
                }
                std::mem::swap(&mut active, &mut next);
                if active.is_empty() {
                    break;
                }
            }
        }
        best
    }

    /// The first allow entry whose pattern matches these words with at
    /// least `depth` tokens (SPEC §3.2's mutating continuations: an entry
    /// that stops before the first mutating word does not cover), or
    /// [`NONE`]. Only for the rare segment with such a word.
    pub fn first_allow_from<S: AsRef<str>>(&self, words: &[S], depth: usize) -> u32 {
        let mut best = NONE;
        if self.bt_root.is_empty() {
            return best;
        }
        let allow = |s: u32| {
            self.accept
                .get(s as usize * 3 + ALLOW)
                .copied()
                .unwrap_or(NONE)
        };
        if depth == 0 {
            best = allow(self.start);
        }
        let mut active = vec![self.start];
        let mut next = Vec::new();
        for (d, w) in words.iter().enumerate() {
            let w = w.as_ref().as_bytes();
            let tok = self.token(w);
            next.clear();
            for &s in &active {
                if let Some(l) = self.step(s, w, tok) {
                    next.extend_from_slice(self.list(l));
                }
            }
            next.sort_unstable();
            next.dedup();
            if d + 1 >= depth {
                for &s in &next {
                    best = best.min(allow(s));
                }
            }
            std::mem::swap(&mut active, &mut next);
            if active.is_empty() {
                break;
            }
        }
        best
    }

    /// Per list, the least entry whose pattern matches these words for some
    /// values of their unknown words (SPEC §4.4) — or for certain: an
    /// unknown word in double quotes ([`Known::OneToken`]) takes any one
    /// edge, an unquoted one ([`Known::AnyTokens`]) any path, so every
    /// pattern below the states reached so far matches possibly.
    ///
    /// The walk carries a set of states, pruned to those with a deny or ask
    /// pattern at or below them (allow never reads unknown words): a word
    /// costs at most one step per state in the set, so a segment of `n`
    /// words costs O(n × S) steps, where S is the number of states on the
    /// paths of the deny and ask patterns (their total number of tokens),
    /// whatever the number of allow patterns.
    pub fn possible_matches<S: AsRef<str>>(&self, words: &[S], known: &[Known]) -> [u32; 3] {
        let mut best = [NONE; 3];
        if self.bt_root.is_empty() {
            return best;
        }
        let reach = self.reach.get_or_init(|| self.build_reach());
        let useful = |s: u32| {
            reach
                .below
                .get(s as usize)
                .is_some_and(|b| b[DENY] != NONE || b[ASK] != NONE)
        };
        self.absorb(&mut best, self.start);
        let mut active = vec![self.start];
        let mut next = Vec::new();
        for (i, w) in words.iter().enumerate() {
            next.clear();
            match known.get(i).copied().unwrap_or(Known::Exact) {
                Known::Exact => {
                    let w = w.as_ref().as_bytes();
                    let tok = self.token(w);
                    for &s in &active {
                        if let Some(l) = self.step(s, w, tok) {
                            next.extend_from_slice(self.list(l));
                        }
                    }
                }
                Known::Glob => self.glob_step(&active, w.as_ref(), &mut next),
                Known::OneToken => {
                    for &s in &active {
                        let i = s as usize;
                        if let (Some(&a), Some(&b)) =
                            (reach.succ_off.get(i), reach.succ_off.get(i + 1))
                        {
                            next.extend_from_slice(
                                reach.succ.get(a as usize..b as usize).unwrap_or_default(),
                            );
                        }
                    }
                }
                Known::AnyTokens => {
                    // Every pattern at or below an active state matches
                    // possibly; every later state is below one of them.
                    for &s in &active {
                        if let Some(b) = reach.below.get(s as usize) {
                            for k in 0..3 {
                                best[k] = best[k].min(b[k]);
                            }
                        }
                    }
                    return best;
                }
            }
            next.sort_unstable();
            next.dedup();
            next.retain(|&s| useful(s));
            for &s in &next {
                self.absorb(&mut best, s);
            }
            std::mem::swap(&mut active, &mut next);
            if active.is_empty() {
                break;
            }
        }
        best
    }

    /// [`Matcher::possible_matches`]' step over a glob word: nothing (the
    /// glob may vanish), or any run of tokens each matching it — every
    /// state reachable from `active` by labels the glob can be, pushed to
    /// `next` with `active` itself.
    fn glob_step(&self, active: &[u32], word: &str, next: &mut Vec<u32>) {
        let labels = self.labels.get_or_init(|| self.build_labels());
        let glob = permc_core::facts::glob::Glob::new(word);
        let mut seen: std::collections::HashSet<u32> = active.iter().copied().collect();
        next.extend_from_slice(active);
        let mut frontier = active.to_vec();
        while let Some(s) = frontier.pop() {
            let exact = labels.exact(s).iter().filter_map(|&(t, l)| {
                std::str::from_utf8(self.token_text(t))
                    .is_ok_and(|t| glob.matches(t))
                    .then_some(l)
            });
            let wild = labels
                .wild(s)
                .iter()
                .filter_map(|(p, l)| glob.may_start(p).then_some(*l));
            for l in exact.chain(wild) {
                for &t in self.list(l) {
                    if seen.insert(t) {
                        next.push(t);
                        frontier.push(t);
                    }
                }
            }
        }
    }

    /// Builds [`Labels`] from the tables: the exact edges grouped by state,
    /// and each state's byte trie walked for the prefixes that end in a
    /// target.
    fn build_labels(&self) -> Labels {
        let n = self.bt_root.len();
        let mut exact: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
        for (&k, &v) in self.edges.keys.iter().zip(&self.edges.vals) {
            if k != FlatMap::EMPTY {
                if let Some(out) = exact.get_mut((k >> 32) as usize) {
                    #[allow(clippy::cast_possible_truncation)] // the low half
                    out.push((k as u32, v));
                }
            }
        }
        let mut bt_children: Vec<Vec<(u8, u32)>> = vec![Vec::new(); self.bt_target.len()];
        for (&k, &v) in self.bt_edges.keys.iter().zip(&self.bt_edges.vals) {
            if k != FlatMap::EMPTY {
                if let Some(c) = bt_children.get_mut((k >> 8) as usize) {
                    #[allow(clippy::cast_possible_truncation)] // the low byte
                    c.push((k as u8, v));
                }
            }
        }
        let mut by_root: std::collections::HashMap<u32, Vec<(String, u32)>> = Default::default();
        let mut labels = Labels::default();
        for (out, &root) in exact.iter().zip(&self.bt_root) {
            labels.exact_off.push(ix(labels.exact.len()));
            labels.exact.extend_from_slice(out);
            labels.wild_off.push(ix(labels.wild.len()));
            if root == NONE {
                continue;
            }
            let found = by_root.entry(root).or_insert_with(|| {
                let mut out = Vec::new();
                let mut stack = vec![(root, Vec::new())];
                let mut seen = vec![false; self.bt_target.len()];
                while let Some((b, prefix)) = stack.pop() {
                    let bi = b as usize;
                    if bi >= seen.len() || seen[bi] {
                        continue;
                    }
                    seen[bi] = true;
                    if let Some(&t) = self.bt_target.get(bi) {
                        if t != NONE {
                            out.push((String::from_utf8_lossy(&prefix).into_owned(), t));
                        }
                    }
                    for &(byte, c) in &bt_children[bi] {
                        let mut p = prefix.clone();
                        p.push(byte);
                        stack.push((c, p));
                    }
                }
                out
            });
            labels.wild.extend(found.iter().cloned());
        }
        labels.exact_off.push(ix(labels.exact.len()));
        labels.wild_off.push(ix(labels.wild.len()));
        labels
    }

    /// Builds [`Reach`] from the tables: successors from the token edges
    /// and every wildcard target of each state's byte trie; `below` by a
    /// post-order walk (the states form a DAG: a word always goes one
    /// token deeper into the patterns).
    fn build_reach(&self) -> Reach {
        let n = self.bt_root.len();
        let mut succ: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (&k, &v) in self.edges.keys.iter().zip(&self.edges.vals) {
            if k != FlatMap::EMPTY {
                if let Some(out) = succ.get_mut((k >> 32) as usize) {
                    out.extend_from_slice(self.list(v));
                }
            }
        }
        let mut bt_children: Vec<Vec<u32>> = vec![Vec::new(); self.bt_target.len()];
        for (&k, &v) in self.bt_edges.keys.iter().zip(&self.bt_edges.vals) {
            if k != FlatMap::EMPTY {
                if let Some(c) = bt_children.get_mut((k >> 8) as usize) {
                    c.push(v);
                }
            }
        }
        let mut by_root: std::collections::HashMap<u32, Vec<u32>> = Default::default();
        for (s, &root) in self.bt_root.iter().enumerate() {
            if root == NONE {
                continue;
            }
            let targets = by_root.entry(root).or_insert_with(|| {
                let mut out = Vec::new();
                let mut stack = vec![root];
                let mut seen = vec![false; self.bt_target.len()];
                while let Some(b) = stack.pop() {
                    let bi = b as usize;
                    if bi >= seen.len() || seen[bi] {
                        continue;
                    }
                    seen[bi] = true;
                    if let Some(&t) = self.bt_target.get(bi) {
                        if t != NONE {
                            out.extend_from_slice(self.list(t));
                        }
                    }
                    stack.extend_from_slice(&bt_children[bi]);
                }
                out
            });
            succ[s].extend_from_slice(targets);
        }
        let mut succ_off = Vec::with_capacity(n + 1);
        let mut flat = Vec::new();
        for v in &mut succ {
            v.sort_unstable();
            v.dedup();
            succ_off.push(ix(flat.len()));
            flat.extend_from_slice(v);
        }
        succ_off.push(ix(flat.len()));
        let below = self.below(&succ_off, &flat);
        Reach {
            succ_off,
            succ: flat,
            below,
        }
    }

    /// Per state, the first entry of each list accepting at it or at any
    /// state it reaches (`succ_off`/`flat`: the successors), by a
    /// post-order walk, iteratively (patterns may be long).
    fn below(&self, succ_off: &[u32], flat: &[u32]) -> Vec<[u32; 3]> {
        let n = self.bt_root.len();
        let mut below: Vec<[u32; 3]> = (0..n)
            .map(|s| {
                let i = s * 3;
                self.accept
                    .get(i..i + 3)
                    .map_or([NONE; 3], |a| [a[0], a[1], a[2]])
            })
            .collect();
        // 0: not seen, 1: entered, 2: done. A loaded artifact is checked
        // for ranges, not for cycles: an edge back to an entered state is
        // ignored, so the walk ends on any input.
        let mut mark = vec![0u8; n];
        for root in 0..n {
            if mark[root] != 0 {
                continue;
            }
            let mut stack = vec![(root, false)];
            while let Some((s, expanded)) = stack.pop() {
                let kids = &flat[succ_off[s] as usize..succ_off[s + 1] as usize];
                if expanded {
                    let mut b = below[s];
                    for &c in kids {
                        if let Some(cb) = below.get(c as usize) {
                            for k in 0..3 {
                                b[k] = b[k].min(cb[k]);
                            }
                        }
                    }
                    below[s] = b;
                    mark[s] = 2;
                } else if mark[s] == 0 {
                    mark[s] = 1;
                    stack.push((s, true));
                    for &c in kids {
                        if mark.get(c as usize) == Some(&0) {
                            stack.push((c as usize, false));
                        }
                    }
                }
            }
        }
        below
    }

    /// Shape checks of a loaded matcher: every id in range, every hash table
    /// with a free slot. After this, matching never indexes out of bounds
    /// nor loops forever.
    pub(crate) fn validate(&self) -> Result<(), crate::TableError> {
        let n = self.bt_root.len();
        let ok = |c: bool, what: &'static str| {
            if c {
                Ok(())
            } else {
                Err(crate::TableError::Matcher(what))
            }
        };
        if n == 0 {
            return ok(
                self.accept.is_empty() && self.edges.keys.is_empty() && self.tok_slots.is_empty(),
                "an empty matcher with tables",
            );
        }
        ok((self.start as usize) < n, "start state out of range")?;
        ok(self.accept.len() == 3 * n, "accept table size")?;
        let nt = ix(self.tokens());
        ok(!self.tok_off.is_empty(), "token offsets missing")?;
        ok(
            self.tok_off.windows(2).all(|w| w[0] <= w[1])
                && self.tok_off.first() == Some(&0)
                && self.tok_off.last().map(|&l| l as usize) == Some(self.tok_bytes.len()),
            "token offsets",
        )?;
        ok(
            crate::hash::slots_valid(&self.tok_slots, nt as usize),
            "token table",
        )?;
        let nl = ix(self.target_off.len().saturating_sub(1));
        ok(
            !self.target_off.is_empty()
                && self.target_off.first() == Some(&0)
                && self.target_off.windows(2).all(|w| w[0] <= w[1])
                && self.target_off.last().map(|&l| l as usize) == Some(self.targets.len()),
            "target offsets",
        )?;
        ok(
            self.targets.iter().all(|&s| (s as usize) < n),
            "target state out of range",
        )?;
        if self.deterministic {
            ok(
                self.target_off.windows(2).all(|w| w[1] == w[0] + 1),
                "deterministic lists",
            )?;
        }
        ok(self.edges.valid(nl), "edge table")?;
        ok(
            self.edges.keys.iter().all(|&k| {
                k == FlatMap::EMPTY || ((k >> 32) as usize) < n && ((k & 0xFFFF_FFFF) as u32) < nt
            }),
            "edge keys",
        )?;
        let nb = ix(self.bt_target.len());
        ok(self.bt_edges.valid(nb), "byte-trie table")?;
        ok(
            self.bt_root.iter().all(|&b| b == NONE || b < nb),
            "byte-trie roots",
        )?;
        ok(
            self.bt_target.iter().all(|&l| l == NONE || l < nl),
            "byte-trie targets",
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use permc_grammar::pattern::Pattern;

    fn toks(p: &str) -> Vec<PatToken> {
        Pattern::parse(&format!("Terminal({p})"))
            .expect("pattern")
            .tokens()
            .expect("terminal")
            .to_vec()
    }

    fn check(patterns: &[(usize, &str)], words: &str) {
        let toks: Vec<(usize, Vec<PatToken>)> =
            patterns.iter().map(|(l, p)| (*l, toks(p))).collect();
        let mut index = [0u32; 3];
        let tp: Vec<TriePattern<'_>> = toks
            .iter()
            .map(|(l, t)| {
                let i = index[*l];
                index[*l] += 1;
                TriePattern {
                    list: *l,
                    index: i,
                    tokens: t,
                }
            })
            .collect();
        let words: Vec<&str> = words.split(' ').filter(|w| !w.is_empty()).collect();
        let mut expect = [NONE; 3];
        for p in &tp {
            let m = p.tokens.len() <= words.len()
                && p.tokens.iter().zip(&words).all(|(t, w)| t.matches(w));
            if m {
                expect[p.list] = expect[p.list].min(p.index);
            }
        }
        for m in [Matcher::build(&tp), Matcher::build_nondeterministic(&tp)] {
            m.validate().expect("valid");
            assert_eq!(m.first_matches(&words), expect, "{patterns:?} vs {words:?}");
        }
    }

    #[test]
    fn exact_and_wildcards() {
        let ps = [
            (ALLOW, "pnpm test:*"),
            (ALLOW, "pnpm test"),
            (DENY, "pnpm t*"),
            (ASK, "pnpm test:u*"),
            (ALLOW, "p* x"),
            (ALLOW, ""),
        ];
        for w in [
            "pnpm test:unit",
            "pnpm test",
            "pnpm tx",
            "pnpm x",
            "pq x",
            "lsof",
            "",
            "pnpm test:u y",
            "p",
        ] {
            check(&ps, w);
        }
    }

    #[test]
    fn literal_stars_stay_literal() {
        let ps = [(DENY, "rm -rf /*"), (ALLOW, "ls *"), (ALLOW, "a 'b*'")];
        for w in ["rm -rf /*", "rm -rf /home", "ls *", "ls x", "a b*", "a bc"] {
            check(&ps, w);
        }
    }
}
