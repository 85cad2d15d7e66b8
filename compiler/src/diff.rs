//! What a change of the rule files does, exactly (issue 11): the product
//! of two compiled tries.
//!
//! **Terminal.** The file-stage class of one segment (SPEC §5.3 step 6:
//! deny, ask, allow, else uncovered) is a function of its argument words
//! that each compiled trie computes. [`terminal`] walks both tries in
//! step — a *product walk* — and returns the exact set of word sequences
//! whose class differs, as a few [`Region`]s: a token prefix (each token
//! exact or a prefix wildcard `p*`), *open* (`…`: any continuation, none
//! included) or closed (exactly those words), minus exceptions (more
//! specific prefixes). Regions are disjoint, the class pair is the same for
//! every command in a region, and every region carries a witness (a
//! command in it).
//!
//! **How.** At a pair of trie states, the infinite set of next words falls
//! into finitely many classes: each exact token either trie has an edge
//! for, each wildcard prefix minus its longer prefixes and exact tokens,
//! and "anything else" (both tries stop: the class is settled). A word of
//! a class leads both tries to the same pair of states, so one
//! representative word per class stands for all. Tries are acyclic, so
//! the product is a finite DAG; whether a node's whole subtree has one
//! class pair ("uniform") is memoized, and regions are read off the
//! subtrees that are not.
//!
//! **Scope.** Regions are over a segment's literal words. Deny and ask
//! entries also match behind wrappers and assignments (SPEC §4.3); a
//! region a deny or ask entry changes covers the same words behind them
//! too, which the CLI says, and its witness (run through the interpreter)
//! shows. Typed labels ([`typed`]) and autonomy ([`autonomy`]) are finite
//! tables, compared entry by entry.

use crate::matcher::{Matcher, ALLOW, ASK, DENY, NONE};
use crate::{CompiledPolicy, Resolved, TYPES};
use permc_grammar::pattern::PatToken;
use permc_grammar::rules::{EntryIx, List};
use permc_grammar::ActionType;
use std::collections::{HashMap, HashSet};

/// The file-stage class of one segment (SPEC §5.3 step 6) or of one typed
/// action (step 5, where `Uncovered` is the silent file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// A deny entry matches.
    Deny,
    /// An ask entry matches (and no deny).
    Ask,
    /// An allow entry matches (and no deny, no ask).
    Allow,
    /// No entry matches: the file is silent.
    Uncovered,
}

impl Class {
    /// `deny`, `ask`, `allow`, `uncovered`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Deny => "deny",
            Class::Ask => "ask",
            Class::Allow => "allow",
            Class::Uncovered => "uncovered",
        }
    }

    /// How much the class grants: deny < ask < uncovered < allow. An
    /// uncovered segment leaves the decision to what came before (at best
    /// the container floor), so it grants more than ask and less than allow.
    fn rank(self) -> u8 {
        match self {
            Class::Deny => 0,
            Class::Ask => 1,
            Class::Uncovered => 2,
            Class::Allow => 3,
        }
    }

    /// The list that decides this class, if any.
    pub fn list(self) -> Option<List> {
        match self {
            Class::Deny => Some(List::Deny),
            Class::Ask => Some(List::Ask),
            Class::Allow => Some(List::Allow),
            Class::Uncovered => None,
        }
    }

    /// The class of a packed per-list first-match triple.
    pub(crate) fn of_matches(m: [u32; 3]) -> Class {
        if m[DENY] != NONE {
            Class::Deny
        } else if m[ASK] != NONE {
            Class::Ask
        } else if m[ALLOW] != NONE {
            Class::Allow
        } else {
            Class::Uncovered
        }
    }

    fn of_bits(b: u8) -> Class {
        if b & (1 << DENY) != 0 {
            Class::Deny
        } else if b & (1 << ASK) != 0 {
            Class::Ask
        } else if b & (1 << ALLOW) != 0 {
            Class::Allow
        } else {
            Class::Uncovered
        }
    }
}

/// Which way a change goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// It grants more: uncovered/ask/deny → allow, deny → ask, autonomy up.
    MorePermissive,
    /// It grants less.
    LessPermissive,
    /// Neither (deny ↔ deny by another entry never shows; uncovered ↔ ask
    /// is less, see [`Class`]'s order).
    Neutral,
}

impl Direction {
    /// `more-permissive`, `less-permissive`, `neutral`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::MorePermissive => "more-permissive",
            Direction::LessPermissive => "less-permissive",
            Direction::Neutral => "neutral",
        }
    }

    /// The direction from one class to another.
    pub fn of_classes(old: Class, new: Class) -> Direction {
        Direction::of_ranks(old.rank(), new.rank())
    }

    fn of_ranks(old: u8, new: u8) -> Direction {
        match new.cmp(&old) {
            std::cmp::Ordering::Greater => Direction::MorePermissive,
            std::cmp::Ordering::Less => Direction::LessPermissive,
            std::cmp::Ordering::Equal => Direction::Neutral,
        }
    }
}

/// A token prefix: the commands whose words start with `tokens` (`open`)
/// or are exactly `tokens` (closed).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Prefix {
    /// Exact tokens and prefix wildcards, as in patterns (SPEC §3.2).
    pub tokens: Vec<PatToken>,
    /// True: any continuation, none included (`…`).
    pub open: bool,
}

impl Prefix {
    /// Does a segment with these words lie in this prefix?
    pub fn contains<S: AsRef<str>>(&self, words: &[S]) -> bool {
        let n = self.tokens.len();
        (if self.open {
            words.len() >= n
        } else {
            words.len() == n
        }) && self
            .tokens
            .iter()
            .zip(words)
            .all(|(t, w)| t.matches(w.as_ref()))
    }
}

impl std::fmt::Display for Prefix {
    /// `rm -rf build …`, `pnpm test:*`, `…` (every command).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = self.tokens.iter().map(render_token).collect();
        if self.open {
            parts.push("…".into());
        }
        f.write_str(&parts.join(" "))
    }
}

/// A token as a shell word, quoted where needed; a prefix wildcard keeps
/// its `*` unquoted, a literal `*` at the end is escaped (SPEC §3.2).
fn render_token(t: &PatToken) -> String {
    match t {
        PatToken::Exact(s) => {
            let q = quote(s);
            if q.ends_with('*') && !q.ends_with("\\*") {
                format!("{}\\*", &q[..q.len() - 1])
            } else {
                q
            }
        }
        PatToken::Prefix(p) => format!("{}*", quote(p)),
    }
}

/// A word quoted for a POSIX shell when it needs it.
pub fn quote(w: &str) -> String {
    let plain = !w.is_empty()
        && w.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'-' | b'_' | b'.' | b'/' | b':' | b',' | b'+' | b'=' | b'@' | b'%'
                )
        });
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// Words as a command line that reads back to the same words.
pub fn command_line<S: AsRef<str>>(words: &[S]) -> String {
    words
        .iter()
        .map(|w| quote(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A set of commands whose class changed one way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// The commands in it…
    pub pattern: Prefix,
    /// …minus these.
    pub except: Vec<Prefix>,
    /// The class in the old rules.
    pub old: Class,
    /// The class in the new rules.
    pub new: Class,
    /// A command in the region (its words).
    pub witness: Vec<String>,
}

impl Region {
    /// Does a segment with these words lie in this region?
    pub fn contains<S: AsRef<str>>(&self, words: &[S]) -> bool {
        self.pattern.contains(words) && !self.except.iter().any(|e| e.contains(words))
    }

    /// Which way it goes.
    pub fn direction(&self) -> Direction {
        Direction::of_classes(self.old, self.new)
    }
}

impl Region {
    /// Commands of the region to decide, the region's own witness first:
    /// one word list cannot show what a changed entry admits (`sh` alone
    /// reads standard input and asks, `sh deploy.sh` does not: issue 43),
    /// so each continuation the catalogue places after the witness — a
    /// script operand, `-c LINE`, an option, a runner's or wrapper's run of
    /// each of `programs` — is tried too, and, where a prefix wildcard or
    /// nothing stands first (`Terminal(s*)`, `Terminal()`), each program
    /// that runs other code in its place. Only commands in the region.
    pub fn witnesses(&self, programs: &[&str]) -> Vec<Vec<String>> {
        use permc_core::facts::catalogue;
        let mut firsts: Vec<Vec<String>> = vec![self.witness.clone()];
        let open_first = match self.pattern.tokens.first() {
            None => self.pattern.open,
            Some(PatToken::Prefix(_)) => true,
            Some(PatToken::Exact(_)) => false,
        };
        if open_first {
            for p in catalogue::witness_programs() {
                let mut w = self.witness.clone();
                match w.first_mut() {
                    Some(first) => *first = p.to_string(),
                    None => w.push(p.to_string()),
                }
                firsts.push(w);
            }
        }
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for base in firsts {
            let words: Vec<&str> = base.iter().map(String::as_str).collect();
            let tails = catalogue::witness_continuations(&words, programs);
            for tail in std::iter::once(Vec::new()).chain(tails) {
                let w: Vec<String> = base
                    .iter()
                    .cloned()
                    .chain(tail.iter().map(|t| t.to_string()))
                    .collect();
                if self.contains(&w) && seen.insert(w.clone()) {
                    out.push(w);
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------------
// One trie, read as an automaton over words.

/// Per state: its exact edges and its wildcard prefixes, with targets.
struct Edges {
    exact: Vec<(String, Vec<u32>)>,
    prefix: Vec<(String, Vec<u32>)>,
}

/// A compiled trie with per-state edge lists (the artifact keeps edges in
/// hash tables keyed by state, which cannot be enumerated per state).
struct Automaton<'a> {
    m: &'a Matcher,
    exact: Vec<Vec<(u32, u32)>>,
    bt_children: HashMap<u32, Vec<(u8, u32)>>,
}

impl<'a> Automaton<'a> {
    fn new(m: &'a Matcher) -> Automaton<'a> {
        let n = m.bt_root.len();
        let mut exact = vec![Vec::new(); n];
        for (&k, &v) in m.edges.keys.iter().zip(&m.edges.vals) {
            if k == crate::matcher::FlatMap::EMPTY {
                continue;
            }
            if let Some(e) = exact.get_mut((k >> 32) as usize) {
                e.push(((k & 0xFFFF_FFFF) as u32, v));
            }
        }
        let mut bt_children: HashMap<u32, Vec<(u8, u32)>> = HashMap::new();
        for (&k, &v) in m.bt_edges.keys.iter().zip(&m.bt_edges.vals) {
            if k == crate::matcher::FlatMap::EMPTY {
                continue;
            }
            bt_children
                .entry(u32::try_from(k >> 8).unwrap_or(NONE))
                .or_default()
                .push(((k & 0xFF) as u8, v));
        }
        Automaton {
            m,
            exact,
            bt_children,
        }
    }

    fn start(&self) -> Vec<u32> {
        if self.m.bt_root.is_empty() {
            Vec::new()
        } else {
            vec![self.m.start]
        }
    }

    fn list(&self, l: u32) -> &[u32] {
        let m = self.m;
        let i = l as usize;
        match (m.target_off.get(i), m.target_off.get(i + 1)) {
            (Some(&a), Some(&b)) => m.targets.get(a as usize..b as usize).unwrap_or_default(),
            _ => &[],
        }
    }

    fn token_text(&self, id: u32) -> &[u8] {
        self.m.token_text(id)
    }

    fn token(&self, word: &[u8]) -> Option<u32> {
        self.m.token(word)
    }

    /// The states a word leads to from `state` (as `Matcher::first_matches`
    /// steps: the exact edge, else the deepest wildcard prefix).
    fn step(&self, state: u32, word: &[u8]) -> &[u32] {
        let m = self.m;
        if let Some(t) = self.token(word) {
            if let Some(l) = m.edges.get((u64::from(state) << 32) | u64::from(t)) {
                return self.list(l);
            }
        }
        let Some(&root) = m.bt_root.get(state as usize) else {
            return &[];
        };
        if root == NONE {
            return &[];
        }
        let (mut b, mut found) = (root, None);
        for &byte in word {
            match m.bt_edges.get((u64::from(b) << 8) | u64::from(byte)) {
                Some(c) => {
                    b = c;
                    if let Some(&t) = m.bt_target.get(c as usize) {
                        if t != NONE {
                            found = Some(t);
                        }
                    }
                }
                None => break,
            }
        }
        found.map_or(&[], |l| self.list(l))
    }

    fn accept_bits(&self, state: u32) -> u8 {
        let i = state as usize * 3;
        let mut bits = 0;
        if let Some(a) = self.m.accept.get(i..i + 3) {
            for (k, &e) in a.iter().enumerate() {
                if e != NONE {
                    bits |= 1 << k;
                }
            }
        }
        bits
    }

    /// The exact tokens and wildcard prefixes leaving a state.
    fn edges(&self, state: u32) -> Edges {
        let mut out = Edges {
            exact: Vec::new(),
            prefix: Vec::new(),
        };
        for &(tok, l) in self.exact.get(state as usize).map_or(&[][..], |v| v) {
            let text = String::from_utf8_lossy(self.token_text(tok)).into_owned();
            out.exact.push((text, self.list(l).to_vec()));
        }
        let root = self.m.bt_root.get(state as usize).copied().unwrap_or(NONE);
        if root != NONE {
            // Depth-first over the byte trie; a node with a target ends a
            // prefix.
            let mut stack = vec![(root, Vec::new())];
            while let Some((node, bytes)) = stack.pop() {
                if let Some(&t) = self.m.bt_target.get(node as usize) {
                    if t != NONE && node != root {
                        let text = String::from_utf8_lossy(&bytes).into_owned();
                        out.prefix.push((text, self.list(t).to_vec()));
                    }
                }
                for &(b, c) in self.bt_children.get(&node).map_or(&[][..], |v| v) {
                    let mut next = bytes.clone();
                    next.push(b);
                    stack.push((c, next));
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------------
// The product.

/// A node of the product: both sides' sets of states (one state each in a
/// determinized trie, none once a trie stopped) and the lists matched so
/// far on each side.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Node {
    a: Vec<u32>,
    b: Vec<u32>,
    bits_a: u8,
    bits_b: u8,
}

type Pair = (Class, Class);

/// One class of next words at a node.
struct WordClass {
    token: PatToken,
    /// The enclosing wildcard class (index), if any.
    parent: Option<usize>,
    /// A word of the class that is in no more specific class.
    rep: String,
    child: Node,
}

struct Product<'a> {
    a: Automaton<'a>,
    b: Automaton<'a>,
    uniform: HashMap<Node, Option<Pair>>,
    classes: HashMap<Node, std::rc::Rc<Vec<WordClass>>>,
}

fn union_step(auto: &Automaton<'_>, states: &[u32], word: &str) -> Vec<u32> {
    let mut out: Vec<u32> = states
        .iter()
        .flat_map(|&s| auto.step(s, word.as_bytes()).iter().copied())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn bits_of(auto: &Automaton<'_>, states: &[u32], mut bits: u8) -> u8 {
    for &s in states {
        bits |= auto.accept_bits(s);
    }
    bits
}

/// A word starting with `p` that is neither an exact token nor starts with
/// a longer prefix of `longer` (all extending `p`).
fn representative(p: &str, exact: &HashSet<String>, longer: &[&str]) -> Option<String> {
    let ok = |w: &str| !exact.contains(w) && !longer.iter().any(|q| w.starts_with(q));
    let mut tries: Vec<String> = ["x", "1", "a", "z", "", "_", "0", "xx", "-", "x1"]
        .iter()
        .map(|s| format!("{p}{s}"))
        .collect();
    for c in ('a'..='z').chain('0'..='9') {
        tries.push(format!("{p}{c}{c}"));
    }
    tries.into_iter().find(|w| ok(w)).or_else(|| {
        // Many exclusions: lengthen until free (exact tokens are finite).
        let mut w = format!("{p}x");
        for _ in 0..4096 {
            w.push('q');
            if ok(&w) {
                return Some(w);
            }
        }
        None
    })
}

impl<'a> Product<'a> {
    fn end(&self, n: &Node) -> Pair {
        (Class::of_bits(n.bits_a), Class::of_bits(n.bits_b))
    }

    fn child(&self, n: &Node, word: &str) -> Node {
        let a = union_step(&self.a, &n.a, word);
        let b = union_step(&self.b, &n.b, word);
        Node {
            bits_a: bits_of(&self.a, &a, n.bits_a),
            bits_b: bits_of(&self.b, &b, n.bits_b),
            a,
            b,
        }
    }

    /// The classes of next words at a node (see the module doc).
    fn classes(&mut self, n: &Node) -> std::rc::Rc<Vec<WordClass>> {
        if let Some(c) = self.classes.get(n) {
            return c.clone();
        }
        let mut exact: HashSet<String> = HashSet::new();
        let mut prefixes: HashSet<String> = HashSet::new();
        for (auto, states) in [(&self.a, &n.a), (&self.b, &n.b)] {
            for &s in states {
                let e = auto.edges(s);
                exact.extend(e.exact.into_iter().map(|(t, _)| t));
                prefixes.extend(e.prefix.into_iter().map(|(p, _)| p));
            }
        }
        let mut plist: Vec<String> = prefixes.iter().cloned().collect();
        plist.sort();
        let mut elist: Vec<String> = exact.iter().cloned().collect();
        elist.sort();
        // The longest proper prefix of `w` among the wildcard prefixes.
        let enclosing = |w: &str, proper: bool| -> Option<String> {
            let mut ends: Vec<usize> = w.char_indices().map(|(i, _)| i).skip(1).collect();
            if !proper {
                ends.push(w.len());
            }
            ends.into_iter()
                .rev()
                .map(|i| &w[..i])
                .find(|q| prefixes.contains(*q))
                .map(str::to_string)
        };
        let index: HashMap<&str, usize> = plist
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_str(), i))
            .collect();
        let mut out = Vec::new();
        for p in &plist {
            let parent = enclosing(p, true).and_then(|q| index.get(q.as_str()).copied());
            let longer: Vec<&str> = plist
                .iter()
                .filter(|q| q.len() > p.len() && q.starts_with(p.as_str()))
                .map(String::as_str)
                .collect();
            let Some(rep) = representative(p, &exact, &longer) else {
                continue;
            };
            let child = self.child(n, &rep);
            out.push(WordClass {
                token: PatToken::Prefix(p.clone()),
                parent,
                rep,
                child,
            });
        }
        for e in &elist {
            let parent = enclosing(e, false).and_then(|q| index.get(q.as_str()).copied());
            let child = self.child(n, e);
            out.push(WordClass {
                token: PatToken::Exact(e.clone()),
                parent,
                rep: e.clone(),
                child,
            });
        }
        let out = std::rc::Rc::new(out);
        self.classes.insert(n.clone(), out.clone());
        out
    }

    /// The one class pair of every command through this node, if there is
    /// one.
    fn uniform(&mut self, n: &Node) -> Option<Pair> {
        if let Some(u) = self.uniform.get(n) {
            return *u;
        }
        let e = self.end(n);
        let mut u = Some(e);
        // A side that matched deny stays deny; with both so, nothing ahead
        // can change the pair.
        let settled = n.bits_a & (1 << DENY) != 0 && n.bits_b & (1 << DENY) != 0;
        let stopped = n.a.is_empty() && n.b.is_empty();
        if !settled && !stopped {
            let classes = self.classes(n);
            for c in classes.iter() {
                if self.uniform(&c.child) != Some(e) {
                    u = None;
                    break;
                }
            }
        }
        self.uniform.insert(n.clone(), u);
        u
    }

    /// The pair of every word of class `i` (its subclasses included).
    fn uniform_class(&mut self, classes: &[WordClass], i: usize) -> Option<Pair> {
        let own = self.uniform(&classes[i].child)?;
        for (k, c) in classes.iter().enumerate() {
            if c.parent == Some(i) && self.uniform_class(classes, k) != Some(own) {
                return None;
            }
        }
        Some(own)
    }
}

struct Emit<'p, 'a> {
    product: &'p mut Product<'a>,
    out: Vec<Region>,
}

fn extended(prefix: &[PatToken], t: &PatToken) -> Vec<PatToken> {
    let mut v = prefix.to_vec();
    v.push(t.clone());
    v
}

fn pushed(words: &[String], w: &str) -> Vec<String> {
    let mut v = words.to_vec();
    v.push(w.to_string());
    v
}

impl Emit<'_, '_> {
    fn region(&mut self, pattern: Prefix, except: Vec<Prefix>, pair: Pair, witness: Vec<String>) {
        self.out.push(Region {
            pattern,
            except,
            old: pair.0,
            new: pair.1,
            witness,
        });
    }

    /// Every changed command through node `n`, reached by `prefix`.
    fn visit(&mut self, prefix: &[PatToken], n: &Node, except: &[Prefix], witness: &[String]) {
        if let Some(u) = self.product.uniform(n) {
            if u.0 != u.1 {
                let p = Prefix {
                    tokens: prefix.to_vec(),
                    open: true,
                };
                self.region(p, except.to_vec(), u, witness.to_vec());
            }
            return;
        }
        let e = self.product.end(n);
        let classes = self.product.classes(n);
        let top: Vec<usize> = (0..classes.len())
            .filter(|&i| classes[i].parent.is_none())
            .collect();
        if e.0 != e.1 {
            // Most words continue as the command ends: one open region,
            // the classes that do not as exceptions.
            let mut bad = Vec::new();
            for &i in &top {
                if self.product.uniform_class(&classes, i) != Some(e) {
                    bad.push(i);
                }
            }
            let mut ex = except.to_vec();
            ex.extend(bad.iter().map(|&i| Prefix {
                tokens: extended(prefix, &classes[i].token),
                open: true,
            }));
            let p = Prefix {
                tokens: prefix.to_vec(),
                open: true,
            };
            self.region(p, ex, e, witness.to_vec());
            for i in bad {
                self.cover(&classes, i, prefix, except, witness);
            }
        } else {
            for i in top {
                self.cover(&classes, i, prefix, except, witness);
            }
        }
    }

    /// Every changed command `prefix w …` with `w` in class `i`.
    fn cover(
        &mut self,
        classes: &[WordClass],
        i: usize,
        prefix: &[PatToken],
        except: &[Prefix],
        witness: &[String],
    ) {
        let c = &classes[i];
        let here = extended(prefix, &c.token);
        let w = pushed(witness, &c.rep);
        if let Some(u) = self.product.uniform_class(classes, i) {
            if u.0 != u.1 {
                let p = Prefix {
                    tokens: here,
                    open: true,
                };
                self.region(p, except.to_vec(), u, w);
            }
            return;
        }
        let subs: Vec<usize> = (0..classes.len())
            .filter(|&k| classes[k].parent == Some(i))
            .collect();
        let own = self.product.uniform(&c.child);
        match own {
            Some(p) if p.0 != p.1 => {
                let mut bad = Vec::new();
                for &k in &subs {
                    if self.product.uniform_class(classes, k) != Some(p) {
                        bad.push(k);
                    }
                }
                let mut ex = except.to_vec();
                ex.extend(bad.iter().map(|&k| Prefix {
                    tokens: extended(prefix, &classes[k].token),
                    open: true,
                }));
                let pat = Prefix {
                    tokens: here,
                    open: true,
                };
                self.region(pat, ex, p, w);
                for k in bad {
                    self.cover(classes, k, prefix, except, witness);
                }
            }
            _ => {
                if own.is_none() {
                    let mut ex = except.to_vec();
                    ex.extend(subs.iter().map(|&k| Prefix {
                        tokens: extended(prefix, &classes[k].token),
                        open: true,
                    }));
                    let child = c.child.clone();
                    self.visit(&here, &child, &ex, &w);
                }
                for k in subs {
                    self.cover(classes, k, prefix, except, witness);
                }
            }
        }
    }
}

/// The exact set of segments (by their literal words) whose file-stage
/// class differs between two compiled policies, as disjoint regions.
pub fn terminal(old: &CompiledPolicy, new: &CompiledPolicy) -> Vec<Region> {
    let a = Automaton::new(&old.matcher);
    let b = Automaton::new(&new.matcher);
    let (sa, sb) = (a.start(), b.start());
    let root = Node {
        bits_a: bits_of(&a, &sa, 0),
        bits_b: bits_of(&b, &sb, 0),
        a: sa,
        b: sb,
    };
    let mut product = Product {
        a,
        b,
        uniform: HashMap::new(),
        classes: HashMap::new(),
    };
    let mut emit = Emit {
        product: &mut product,
        out: Vec::new(),
    };
    emit.visit(&[], &root, &[], &[]);
    emit.out
}

/// The class of a segment with these words, and the deciding entry's
/// index in its list.
pub fn terminal_class<S: AsRef<str>>(p: &CompiledPolicy, words: &[S]) -> (Class, Option<EntryIx>) {
    class_of(p.terminal_matches_packed(words))
}

fn class_of(m: [u32; 3]) -> (Class, Option<EntryIx>) {
    let c = Class::of_matches(m);
    (c, c.list().and_then(|l| crate::entry_ix(m[l.index()])))
}

/// A typed label whose file-stage outcome (SPEC §5.3 step 5) changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedChange {
    /// The action type.
    pub action: ActionType,
    /// Old and new class, with the deciding entry's index in its list.
    pub old: (Class, Option<EntryIx>),
    /// See `old`.
    pub new: (Class, Option<EntryIx>),
}

fn typed_class(p: &CompiledPolicy, t: ActionType) -> (Class, Option<EntryIx>) {
    class_of(p.typed_matches(t))
}

/// Every action type (other than terminal) whose `Label()` outcome changes.
pub fn typed(old: &CompiledPolicy, new: &CompiledPolicy) -> Vec<TypedChange> {
    ActionType::ALL
        .iter()
        .copied()
        .filter(|&t| t != ActionType::Terminal)
        .filter_map(|t| {
            let (o, n) = (typed_class(old, t), typed_class(new, t));
            (o.0 != n.0).then_some(TypedChange {
                action: t,
                old: o,
                new: n,
            })
        })
        .collect()
}

/// An (agent, type) whose resolved autonomy (SPEC §2.2) changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutonomyChange {
    /// The agent id.
    pub agent: String,
    /// The action type.
    pub action: ActionType,
    /// Resolved before (`None`: no opinion).
    pub old: Option<Resolved>,
    /// Resolved after.
    pub new: Option<Resolved>,
}

impl AutonomyChange {
    /// Automatic mode (a wildcard auto_approve) switched on or off.
    pub fn automatic_switch(&self) -> bool {
        automatic(self.old) != automatic(self.new)
    }

    /// Which way it goes: the mode's rank (deny < require_approval = no
    /// opinion < auto_approve), then entering automatic mode (it drops
    /// `compound.uncovered` and lifts the scope ceiling).
    pub fn direction(&self) -> Direction {
        let rank = |r: Option<Resolved>| match r.map(|r| r.mode) {
            Some(permc_grammar::Policy::Deny) => 0,
            Some(permc_grammar::Policy::RequireApproval) | None => 1,
            Some(permc_grammar::Policy::AutoApprove) => 2,
        };
        let d = Direction::of_ranks(rank(self.old), rank(self.new));
        if d != Direction::Neutral {
            return d;
        }
        Direction::of_ranks(u8::from(automatic(self.old)), u8::from(automatic(self.new)))
    }
}

fn automatic(r: Option<Resolved>) -> bool {
    r.is_some_and(|r| {
        r.mode == permc_grammar::Policy::AutoApprove && r.origin == permc_core::Origin::Wildcard
    })
}

/// Every (agent, type) whose resolved mode or origin changes, automatic
/// mode switches first, then by agent and type.
pub fn autonomy(old: &CompiledPolicy, new: &CompiledPolicy) -> Vec<AutonomyChange> {
    let mut agents: Vec<String> = Vec::new();
    for p in [old, new] {
        for i in 0..p.autonomy.agents.len() {
            let a = p.autonomy.agents.get(i).to_string();
            if !agents.contains(&a) {
                agents.push(a);
            }
        }
    }
    agents.sort();
    let mut out = Vec::new();
    for agent in &agents {
        for &t in ActionType::ALL.iter().take(TYPES) {
            let (o, n) = (
                old.resolve_autonomy(Some(agent), t),
                new.resolve_autonomy(Some(agent), t),
            );
            let same = match (o, n) {
                (Some(x), Some(y)) => x.mode == y.mode && x.origin == y.origin,
                (None, None) => true,
                _ => false,
            };
            if !same {
                out.push(AutonomyChange {
                    agent: agent.clone(),
                    action: t,
                    old: o,
                    new: n,
                });
            }
        }
    }
    out.sort_by_key(|c| !c.automatic_switch());
    out
}
