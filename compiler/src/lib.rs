//! permc-compiler: rule files → the compiled policy (SPEC §9).
//!
//! [`compile`] turns a loaded permissions.json and autonomy.json into a
//! [`CompiledPolicy`]:
//! - every Terminal pattern of the three lists in one determinized
//!   token-prefix trie ([`matcher`]), so matching a segment costs O(its
//!   bytes) whatever the number of rules, and yields per list the first
//!   entry in file order that matches (the deciding rule);
//! - per action type, the first `Label()` entry of each list;
//! - per (agent, type), the resolved autonomy mode, origin and rule
//!   (SPEC §2.2), with the agent's `*` as fallback;
//! - the decision procedure of SPEC §5.3 as a DAG of stages ([`dag`]);
//! - the text and `file:line:col` of every entry and autonomy rule, so the
//!   compiled engine names the same rule as the reference interpreter.
//!
//! [`artifact`] writes and reads it as a binary file; [`compiled`] decides
//! over it (SPEC §5.3), next to the tables it reads, answering exactly like
//! `permc_core::reference`.
//!
//! ```
//! use permc_grammar::rules::load_permissions;
//! let perms = load_permissions("permissions.json",
//!     br#"{"allow": ["Terminal(pnpm test:*)"], "deny": ["Terminal(pnpm test:e2e)"]}"#).value.unwrap();
//! let policy = permc_compiler::compile(&perms, &Default::default());
//! // The first entry of each list that matches.
//! use permc_grammar::rules::{EntryIx, List};
//! let m = policy.terminal_matches(&["pnpm", "test:e2e"]);
//! assert_eq!((m[List::Deny], m[List::Ask], m[List::Allow]), (Some(EntryIx(0)), None, Some(EntryIx(0))));
//! let bytes = permc_compiler::artifact::encode(&policy, &Default::default());
//! assert_eq!(permc_compiler::artifact::decode(&bytes).unwrap().policy, policy);
//! ```
//!
//! **Invariant.** Nothing here does I/O. The tables' accessors are
//! `pub(crate)`: only [`compiled`] and [`diff`] read them.

#![warn(missing_docs)]
// Lengths become `u32` only through checked conversions, at size guards
// that say their limit.
#![warn(clippy::cast_possible_truncation)]

pub mod artifact;
pub mod compiled;
pub mod dag;
pub mod diff;
pub mod hash;
pub(crate) mod matcher;

use dag::{Shape, Stage, StageGraph};
use matcher::{Matcher, TriePattern, ALLOW, ASK, DENY, NONE};
use permc_core::facts::project::ProjectRows;
use permc_core::Origin;
use permc_grammar::diagnostic::Location;
use permc_grammar::json::Span;
use permc_grammar::pattern::Pattern;
use permc_grammar::rules::{
    Autonomy, AutonomyKey, AutonomyRule, Entry, EntryIx, List, PerList, Permissions,
};
use permc_grammar::{ActionType, Policy};
use std::collections::HashMap;

/// Number of action types (SPEC §1).
pub const TYPES: usize = ActionType::ALL.len();

/// A table of strings: one text, offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrTable {
    pub(crate) text: String,
    pub(crate) off: Vec<u32>,
}

impl Default for StrTable {
    fn default() -> StrTable {
        StrTable {
            text: String::new(),
            off: vec![0],
        }
    }
}

impl StrTable {
    fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.off.push(ix(self.text.len()));
    }

    /// Number of strings.
    pub fn len(&self) -> usize {
        self.off.len().saturating_sub(1)
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// String `i`'s bytes (empty when out of range): for compares, without
    /// the character-boundary checks of [`StrTable::get`].
    pub(crate) fn get_bytes(&self, i: usize) -> &[u8] {
        match (self.off.get(i), self.off.get(i + 1)) {
            (Some(&a), Some(&b)) => self
                .text
                .as_bytes()
                .get(a as usize..b as usize)
                .unwrap_or_default(),
            _ => &[],
        }
    }

    /// String `i` ("" when out of range; loaded tables are checked).
    pub fn get(&self, i: usize) -> &str {
        match (self.off.get(i), self.off.get(i + 1)) {
            (Some(&a), Some(&b)) => self.text.get(a as usize..b as usize).unwrap_or(""),
            _ => "",
        }
    }

    pub(crate) fn valid(&self) -> bool {
        self.off.first() == Some(&0)
            && self.off.windows(2).all(|w| w[0] <= w[1])
            && self.off.last().map(|&l| l as usize) == Some(self.text.len())
            && self
                .off
                .iter()
                .all(|&o| self.text.is_char_boundary(o as usize))
    }
}

/// One list's entries: text and position of each, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryTable {
    pub(crate) text: StrTable,
    pub(crate) line: Vec<u32>,
    pub(crate) col: Vec<u32>,
}

impl EntryTable {
    fn of(entries: &[Entry]) -> EntryTable {
        let mut t = EntryTable::default();
        for e in entries {
            t.text.push(&e.pattern.text);
            t.line.push(ix(e.location.line));
            t.col.push(ix(e.location.column));
        }
        t
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.line.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }
}

/// A resolved autonomy mode for (agent, type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved {
    /// The mode.
    pub mode: Policy,
    /// Where it came from.
    pub origin: Origin,
    /// The rule's index in autonomy.json's rules.
    pub rule: u32,
}

/// Up to this many agents, [`AutonomyTable::agent`] compares each name
/// instead of hashing.
const AGENTS_SCANNED: usize = 4;

/// The autonomy table, precomputed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AutonomyTable {
    /// The location file name of the rules.
    pub(crate) file: String,
    /// Agent names, in order of first appearance.
    pub(crate) agents: StrTable,
    /// Open-addressed by [`hash::word_hash`]: agent id + 1, or 0.
    pub(crate) agent_slots: Vec<u32>,
    /// Per rule: agent id, key (0 = `*`, 1 + type index), mode code, line,
    /// column.
    pub(crate) rule_agent: Vec<u32>,
    pub(crate) rule_key: Vec<u8>,
    pub(crate) rule_mode: Vec<u8>,
    pub(crate) rule_line: Vec<u32>,
    pub(crate) rule_col: Vec<u32>,
    /// Per (agent, type): `[mode | origin << 8, rule]`, mode [`NONE`] when
    /// the agent has no opinion on the type.
    pub(crate) resolved: Vec<u32>,
}

fn policy_code(p: Policy) -> u8 {
    match p {
        Policy::AutoApprove => 0,
        Policy::RequireApproval => 1,
        Policy::Deny => 2,
    }
}

fn policy_of(c: u8) -> Option<Policy> {
    match c {
        0 => Some(Policy::AutoApprove),
        1 => Some(Policy::RequireApproval),
        2 => Some(Policy::Deny),
        _ => None,
    }
}

impl AutonomyTable {
    fn of(a: &Autonomy) -> AutonomyTable {
        let mut t = AutonomyTable {
            file: a
                .rules
                .first()
                .map(|r| r.location.file.clone())
                .unwrap_or_default(),
            ..AutonomyTable::default()
        };
        let mut agent_ids: HashMap<&str, u32> = HashMap::new();
        // The first rule for (agent, key), as `Autonomy::get` finds it.
        let mut first: HashMap<(u32, u8), u32> = HashMap::new();
        for (i, r) in a.rules.iter().enumerate() {
            let next = ix(agent_ids.len());
            let id = *agent_ids.entry(r.agent.as_str()).or_insert_with(|| {
                t.agents.push(&r.agent);
                next
            });
            let key = match r.key {
                AutonomyKey::Wildcard => 0,
                AutonomyKey::Type(ty) => type_key(ty.index()),
            };
            first.entry((id, key)).or_insert(ix(i));
            t.rule_agent.push(id);
            t.rule_key.push(key);
            t.rule_mode.push(policy_code(r.mode));
            t.rule_line.push(ix(r.location.line));
            t.rule_col.push(ix(r.location.column));
        }
        t.agent_slots = hash::slots((0..t.agents.len()).map(|i| t.agents.get(i).as_bytes()));
        for agent in 0..ix(t.agents.len()) {
            let wildcard = first.get(&(agent, 0)).copied();
            for ty in 0..TYPES {
                let specific = first.get(&(agent, type_key(ty))).copied();
                let mode = |r: u32| a.rules.get(r as usize).map(|r| r.mode);
                // SPEC §2.2, steps 2–5.
                let res = match (specific, wildcard) {
                    (Some(s), Some(w))
                        if mode(s) == Some(Policy::AutoApprove)
                            && mode(w) == Some(Policy::AutoApprove) =>
                    {
                        Some((Policy::AutoApprove, Origin::Wildcard, w))
                    }
                    (Some(s), _) => mode(s).map(|m| (m, Origin::Specific, s)),
                    (None, Some(w)) => mode(w).map(|m| (m, Origin::Wildcard, w)),
                    (None, None) => None,
                };
                match res {
                    Some((m, o, r)) => {
                        let o = u32::from(o == Origin::Wildcard);
                        t.resolved.push(u32::from(policy_code(m)) | (o << 8));
                        t.resolved.push(r);
                    }
                    None => t.resolved.extend([NONE, NONE]),
                }
            }
        }
        t
    }

    /// The id of agent `name`. A few agents (most files name one to
    /// four) are compared in order, by length first, off the names' one
    /// text: no hash of the name and no probe (step 4 cost 104
    /// instructions a request with two agents, 82 so). More go through
    /// the slot table.
    fn agent(&self, name: &str) -> Option<u32> {
        let key = name.as_bytes();
        let (off, text) = (&self.agents.off[..], self.agents.text.as_bytes());
        if off.len() <= AGENTS_SCANNED + 1 {
            for (id, w) in (0u32..).zip(off.windows(2)) {
                let (a, b) = (w[0] as usize, w[1] as usize);
                if b.wrapping_sub(a) == key.len()
                    && text.get(a..b).is_some_and(|n| hash::bytes_eq(n, key))
                {
                    return Some(id);
                }
            }
            return None;
        }
        hash::find_slot(&self.agent_slots, key, |id| {
            self.agents.get_bytes(id as usize)
        })
    }

    pub(crate) fn validate(&self) -> Result<(), TableError> {
        let n = self.rule_agent.len();
        let na = self.agents.len();
        let e = |c: bool, w: &'static str| {
            if c {
                Ok(())
            } else {
                Err(TableError::Autonomy(w))
            }
        };
        e(self.agents.valid(), "agent names")?;
        e(
            [
                self.rule_key.len(),
                self.rule_mode.len(),
                self.rule_line.len(),
                self.rule_col.len(),
            ]
            .iter()
            .all(|&l| l == n),
            "rule columns",
        )?;
        e(
            self.rule_agent.iter().all(|&a| (a as usize) < na),
            "rule agent",
        )?;
        e(
            self.rule_key.iter().all(|&k| usize::from(k) <= TYPES),
            "rule key",
        )?;
        e(
            self.rule_mode.iter().all(|&m| policy_of(m).is_some()),
            "rule mode",
        )?;
        e(self.resolved.len() == na * TYPES * 2, "resolution size")?;
        e(
            self.resolved.chunks_exact(2).all(|c| {
                (c[0] == NONE && c[1] == NONE)
                    || (policy_of((c[0] & 0xFF) as u8).is_some()
                        && c[0] >> 8 <= 1
                        && (c[1] as usize) < n)
            }),
            "resolution entries",
        )?;
        e(
            (na == 0 && self.agent_slots.is_empty())
                || (!self.agent_slots.is_empty() && hash::slots_valid(&self.agent_slots, na)),
            "agent index",
        )
    }
}

/// Sizes of a compiled policy, for people and benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Entries of the three lists.
    pub entries: usize,
    /// States of the trie.
    pub states: usize,
    /// Distinct exact tokens.
    pub tokens: usize,
    /// True when the trie is determinized.
    pub deterministic: bool,
    /// Autonomy rules.
    pub autonomy_rules: usize,
}

/// The compiled policy: everything the runtime needs, nothing it does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledPolicy {
    /// permissions.json as named (for messages).
    pub(crate) permissions_file: String,
    /// The location file name of permissions.json's entries.
    pub(crate) permissions_loc: String,
    /// Entries: deny, ask, allow (the order of an accept triple).
    pub(crate) lists: [EntryTable; 3],
    pub(crate) matcher: Matcher,
    /// Per action type, `[deny, ask, allow]`: the first `Label()` entry.
    pub(crate) typed: Vec<u32>,
    pub(crate) autonomy: AutonomyTable,
    /// Per action type, the stages it runs (codes of [`Stage`]).
    pub(crate) programs: Vec<Vec<Stage>>,
    /// The project's command rows (permc.toml's `[[command]]`), read with
    /// the built-in catalogue by every terminal decision.
    pub(crate) project: ProjectRows,
}

impl CompiledPolicy {
    /// This policy with a project's command rows (permc.toml's
    /// `[[command]]`): its terminal decisions read them as the reference
    /// interpreter does over [`permc_core::Rules::project`].
    pub fn with_project(mut self, project: ProjectRows) -> CompiledPolicy {
        self.project = project;
        self
    }

    /// The project's command rows.
    pub fn project(&self) -> &ProjectRows {
        &self.project
    }

    /// The rules read back ([`CompiledPolicy::to_rules`]), with the
    /// project's rows.
    pub fn rules(&self) -> Result<permc_core::Rules, String> {
        let (p, a) = self.to_rules()?;
        Ok(permc_core::Rules::new(p, a).with_project(self.project.clone()))
    }

    /// Do `self` and `other` hold the same tables, whatever their rule
    /// files were named? An artifact's checksum only says it was not
    /// damaged; a body changed and checksummed again is caught by this
    /// comparison with the policy compiled from its sources (issue 33).
    pub fn same_tables(&self, other: &CompiledPolicy) -> bool {
        let mut renamed = other.clone();
        renamed.permissions_file.clone_from(&self.permissions_file);
        renamed.permissions_loc.clone_from(&self.permissions_loc);
        renamed.autonomy.file.clone_from(&self.autonomy.file);
        renamed == *self
    }
}

impl Default for CompiledPolicy {
    fn default() -> CompiledPolicy {
        compile(&Permissions::default(), &Autonomy::default())
    }
}

/// `file:line:col`, built by hand: the runtime builds one per decision
/// that names a rule, and `format!` costs more than the rest of the string.
fn location(file: &str, line: u32, col: u32) -> String {
    let mut s = String::with_capacity(file.len() + 12);
    s.push_str(file);
    for n in [line, col] {
        s.push(':');
        push_u32(&mut s, n);
    }
    s
}

fn push_u32(s: &mut String, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // ASCII digits: always UTF-8.
    s.push_str(std::str::from_utf8(&digits[i..]).unwrap_or("0"));
}

/// The list behind an accept-triple index ([`List`]'s one order).
pub(crate) fn list_of(i: usize) -> List {
    List::ALL.get(i).copied().unwrap_or(List::Allow)
}

fn lists_of(p: &Permissions) -> [(usize, &[Entry]); 3] {
    [(DENY, &p.deny), (ASK, &p.ask), (ALLOW, &p.allow)]
}

/// Why a compiled policy's tables do not hold together: what a loaded
/// artifact is refused for (inside [`artifact::ArtifactError::Tables`]),
/// each variant naming the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableError {
    /// One list's entry table (texts, lines and columns disagree).
    Entries(List),
    /// A part of the token-prefix matcher.
    Matcher(&'static str),
    /// A trie state names an entry that does not exist.
    DanglingEntry,
    /// The typed-label table.
    Typed,
    /// A part of the autonomy table.
    Autonomy(&'static str),
    /// The stage graph the tables imply fails its check.
    Graph(dag::GraphError),
    /// The stage programs do not follow from the tables.
    Programs,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::Entries(l) => write!(f, "{} entry table", l.name()),
            TableError::Matcher(what) => f.write_str(what),
            TableError::DanglingEntry => {
                f.write_str("a trie state names an entry that does not exist")
            }
            TableError::Typed => f.write_str("typed table"),
            TableError::Autonomy(what) => write!(f, "autonomy table: {what}"),
            TableError::Graph(e) => e.fmt(f),
            TableError::Programs => f.write_str("the stage programs do not follow from the tables"),
        }
    }
}

impl std::error::Error for TableError {}

impl From<dag::GraphError> for TableError {
    fn from(e: dag::GraphError) -> TableError {
        TableError::Graph(e)
    }
}

/// A table length or index as the compiled form stores it (`u32`).
///
/// Every count of the compiled form (entries, tokens, token bytes, trie
/// nodes, states) is bounded by the bytes of the rule files it comes from
/// (determinized states by the state cap), and the readers refuse a rule
/// file of 4 GiB or more (`permc_grammar::rules::MAX_FILE_BYTES`), so a
/// value past `u32::MAX` cannot reach here. Were one to, it saturates to
/// `NONE` ("no entry") instead of wrapping into a valid small index.
pub(crate) fn ix(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(NONE)
}

/// An autonomy key as the compiled form stores it: 0 for `*`, else 1 +
/// the action type's index (below [`TYPES`], so it fits a `u8`).
fn type_key(ty: usize) -> u8 {
    u8::try_from(1 + ty).unwrap_or(u8::MAX)
}

/// An entry index from its packed form (`NONE`: no entry).
pub(crate) fn entry_ix(k: u32) -> Option<EntryIx> {
    (k != NONE).then_some(EntryIx(k))
}

/// Compiles the rule files (SPEC §9).
pub fn compile(permissions: &Permissions, autonomy: &Autonomy) -> CompiledPolicy {
    compile_with(permissions, autonomy, false)
}

/// Compiles without determinizing the trie: the fallback of [`matcher`],
/// for testing that both forms answer the same.
pub fn compile_nondeterministic(permissions: &Permissions, autonomy: &Autonomy) -> CompiledPolicy {
    compile_with(permissions, autonomy, true)
}

fn compile_with(permissions: &Permissions, autonomy: &Autonomy, nfa: bool) -> CompiledPolicy {
    let mut trie = Vec::new();
    for (list, entries) in lists_of(permissions) {
        for (k, e) in entries.iter().enumerate() {
            if let Some(tokens) = e.pattern.tokens() {
                trie.push(TriePattern {
                    list,
                    index: ix(k),
                    tokens,
                });
            }
        }
    }
    let matcher = if nfa {
        Matcher::build_nondeterministic(&trie)
    } else {
        Matcher::build(&trie)
    };
    // One pass per list: the first `Label()` entry of each type.
    let mut typed = vec![NONE; TYPES * 3];
    for (list, entries) in lists_of(permissions) {
        for (k, e) in entries.iter().enumerate() {
            let t = e.pattern.action;
            let slot = &mut typed[t.index() * 3 + list];
            if *slot == NONE && e.pattern.matches_type(t) {
                *slot = ix(k);
            }
        }
    }
    let permissions_loc = permissions
        .entries()
        .next()
        .map(|e| e.location.file.clone())
        .unwrap_or_default();
    let mut policy = CompiledPolicy {
        permissions_file: permissions.file.clone(),
        permissions_loc,
        lists: [
            EntryTable::of(&permissions.deny),
            EntryTable::of(&permissions.ask),
            EntryTable::of(&permissions.allow),
        ],
        matcher,
        typed,
        autonomy: AutonomyTable::of(autonomy),
        programs: Vec::new(),
        project: ProjectRows::default(),
    };
    // The graph of a well-formed shape always checks; an empty program set
    // would make every request fail closed in the runtime.
    policy.programs = StageGraph::build(&policy.shape())
        .and_then(|g| g.programs())
        .unwrap_or_default();
    policy
}

impl CompiledPolicy {
    /// What shapes the stage graph, read off the tables.
    pub(crate) fn shape(&self) -> Shape {
        let mut shape = Shape {
            autonomy: [false; TYPES],
            typed: [false; TYPES],
        };
        let a = &self.autonomy;
        let any_wildcard = a.rule_key.contains(&0);
        for (i, s) in shape.autonomy.iter_mut().enumerate() {
            *s = any_wildcard || a.rule_key.iter().any(|&k| usize::from(k) == i + 1);
        }
        for (i, s) in shape.typed.iter_mut().enumerate() {
            *s = self
                .typed
                .get(i * 3..i * 3 + 3)
                .is_none_or(|t| t.iter().any(|&k| k != NONE));
        }
        shape
    }

    /// The stage graph (for `permc compile --dump dot`).
    pub fn graph(&self) -> Result<StageGraph, dag::GraphError> {
        StageGraph::build(&self.shape())
    }

    /// The stages `t` runs, in order (SPEC §5.3). Empty only for a policy
    /// whose graph failed its check, which the runtime answers failing closed.
    pub(crate) fn program(&self, t: ActionType) -> &[Stage] {
        self.programs
            .get(t.index())
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// Per list, the first entry matching a segment with these argument
    /// words (SPEC §3.2, §5.3 step 6).
    pub fn terminal_matches<S: AsRef<str>>(&self, words: &[S]) -> PerList<Option<EntryIx>> {
        PerList(self.matcher.first_matches(words).map(entry_ix))
    }

    /// [`Self::terminal_matches`] packed, for the engine: `NONE` for none.
    pub(crate) fn terminal_matches_packed<S: AsRef<str>>(&self, words: &[S]) -> [u32; 3] {
        self.matcher.first_matches(words)
    }

    /// The first allow entry of at least `depth` tokens matching these
    /// words (SPEC §3.2), or `NONE`.
    pub(crate) fn terminal_allow_from<S: AsRef<str>>(&self, words: &[S], depth: usize) -> u32 {
        self.matcher.first_allow_from(words, depth)
    }

    /// Per list, the least entry whose pattern matches these words certainly
    /// or possibly through their unknown words (SPEC §4.4).
    pub(crate) fn terminal_possible<S: AsRef<str>>(
        &self,
        words: &[S],
        known: &[permc_grammar::shell::Known],
    ) -> [u32; 3] {
        self.matcher.possible_matches(words, known)
    }

    /// Per list (`[deny, ask, allow]`), the first `Label()` entry of `t`
    /// (SPEC §5.3 step 5).
    pub(crate) fn typed_matches(&self, t: ActionType) -> [u32; 3] {
        let i = t.index() * 3;
        match self.typed.get(i..i + 3) {
            Some(s) => [s[0], s[1], s[2]],
            None => [NONE; 3],
        }
    }

    /// The pattern text of entry `k` of the list at accept index `list`.
    ///
    /// Every `(list, k)` the engine asks for comes from the matcher's or
    /// the typed table's accept triples, which `validate` (at load) and
    /// `compile` keep below each list's length; the empty fallbacks here
    /// and in [`Self::entry_source`] cannot be reached.
    pub(crate) fn entry_text(&self, list: usize, k: u32) -> &str {
        self.lists.get(list).map_or("", |l| l.text.get(k as usize))
    }

    /// `file:line:col` of entry `k` of the list at accept index `list`.
    pub(crate) fn entry_source(&self, list: usize, k: u32) -> String {
        let (line, col) = self
            .lists
            .get(list)
            .and_then(|l| Some((*l.line.get(k as usize)?, *l.col.get(k as usize)?)))
            .unwrap_or((0, 0));
        location(&self.permissions_loc, line, col)
    }

    /// permissions.json's base name, for messages (`permissions.json` when
    /// it has none).
    pub(crate) fn permissions_name(&self) -> &str {
        let f = &self.permissions_file;
        match f.rsplit('/').next() {
            Some(b) if !b.is_empty() => b,
            _ => "permissions.json",
        }
    }

    /// The resolved autonomy mode for (agent, type) (SPEC §2.2).
    pub(crate) fn resolve_autonomy(&self, agent: Option<&str>, t: ActionType) -> Option<Resolved> {
        let a = &self.autonomy;
        let id = a.agent(agent?)? as usize;
        let i = (id * TYPES + t.index()) * 2;
        let (packed, rule) = (*a.resolved.get(i)?, *a.resolved.get(i + 1)?);
        if packed == NONE {
            return None;
        }
        Some(Resolved {
            mode: policy_of((packed & 0xFF) as u8)?,
            origin: if packed >> 8 == 1 {
                Origin::Wildcard
            } else {
                Origin::Specific
            },
            rule,
        })
    }

    /// An autonomy rule as the reference names it: `agent: key = mode`.
    pub(crate) fn autonomy_rule_text(&self, rule: u32) -> String {
        let a = &self.autonomy;
        let r = rule as usize;
        let agent = a
            .rule_agent
            .get(r)
            .map_or("", |&id| a.agents.get(id as usize));
        let key = match a.rule_key.get(r) {
            Some(0) | None => "*",
            Some(&k) => ActionType::ALL
                .get(usize::from(k) - 1)
                .map_or("*", |t| t.name()),
        };
        let mode = a
            .rule_mode
            .get(r)
            .and_then(|&m| policy_of(m))
            .map_or("", |m| m.name());
        [agent, ": ", key, " = ", mode].concat()
    }

    /// Entry `k` of `list`, as a decision names it: its text and
    /// `file:line:col`.
    pub fn entry_rule(&self, list: List, k: EntryIx) -> permc_core::RuleRef {
        permc_core::RuleRef {
            rule: self.entry_text(list.index(), k.0).to_string(),
            source: self.entry_source(list.index(), k.0),
        }
    }

    /// Autonomy rule `rule`, as a decision names it: `agent: key = mode`
    /// and `file:line:col`.
    pub fn autonomy_rule(&self, rule: u32) -> permc_core::RuleRef {
        permc_core::RuleRef {
            rule: self.autonomy_rule_text(rule),
            source: self.autonomy_rule_source(rule),
        }
    }

    /// `file:line:col` of an autonomy rule.
    pub(crate) fn autonomy_rule_source(&self, rule: u32) -> String {
        let a = &self.autonomy;
        let r = rule as usize;
        let line = a.rule_line.get(r).copied().unwrap_or(0);
        let col = a.rule_col.get(r).copied().unwrap_or(0);
        location(&a.file, line, col)
    }

    /// Sizes.
    pub fn stats(&self) -> Stats {
        Stats {
            entries: self.lists.iter().map(EntryTable::len).sum(),
            states: self.matcher.states(),
            tokens: self.matcher.tokens(),
            deterministic: self.matcher.is_deterministic(),
            autonomy_rules: self.autonomy.rule_agent.len(),
        }
    }

    /// The rule files back, re-read from the texts the artifact carries
    /// (spans are lost; locations are kept). For the reference interpreter
    /// and `permc explain` when only an artifact is given.
    pub fn to_rules(&self) -> Result<(Permissions, Autonomy), String> {
        let mut p = Permissions {
            file: self.permissions_file.clone(),
            ..Permissions::default()
        };
        for (i, table) in self.lists.iter().enumerate() {
            let list = list_of(i);
            let mut entries = Vec::with_capacity(table.len());
            for k in 0..table.len() {
                let text = table.text.get(k);
                let pattern = Pattern::parse(text).map_err(|e| format!("entry `{text}`: {e}"))?;
                entries.push(Entry {
                    pattern,
                    list,
                    index: k,
                    span: Span::default(),
                    location: Location {
                        file: self.permissions_loc.clone(),
                        line: table.line.get(k).copied().unwrap_or(0) as usize,
                        column: table.col.get(k).copied().unwrap_or(0) as usize,
                    },
                });
            }
            match list {
                List::Deny => p.deny = entries,
                List::Ask => p.ask = entries,
                List::Allow => p.allow = entries,
            }
        }
        let a = &self.autonomy;
        let mut rules = Vec::with_capacity(a.rule_agent.len());
        for r in 0..a.rule_agent.len() {
            let key = match a.rule_key.get(r) {
                Some(0) | None => AutonomyKey::Wildcard,
                Some(&k) => AutonomyKey::Type(
                    *ActionType::ALL
                        .get(usize::from(k) - 1)
                        .ok_or("autonomy rule with an unknown type")?,
                ),
            };
            rules.push(AutonomyRule {
                agent: a
                    .agents
                    .get(a.rule_agent.get(r).copied().unwrap_or(0) as usize)
                    .to_string(),
                key,
                mode: a
                    .rule_mode
                    .get(r)
                    .and_then(|&m| policy_of(m))
                    .ok_or("autonomy rule with an unknown mode")?,
                span: Span::default(),
                key_span: Span::default(),
                location: Location {
                    file: a.file.clone(),
                    line: a.rule_line.get(r).copied().unwrap_or(0) as usize,
                    column: a.rule_col.get(r).copied().unwrap_or(0) as usize,
                },
            });
        }
        let autonomy = Autonomy {
            file: String::new(),
            rules,
        };
        Ok((p, autonomy))
    }

    /// Cross-table checks of a loaded policy: every index names an entry,
    /// the programs are the ones the tables imply.
    pub(crate) fn validate(&self) -> Result<(), TableError> {
        for (i, l) in self.lists.iter().enumerate() {
            if !l.text.valid() || l.text.len() != l.line.len() || l.line.len() != l.col.len() {
                return Err(TableError::Entries(list_of(i)));
            }
        }
        self.matcher.validate()?;
        let lens = [
            self.lists[0].len(),
            self.lists[1].len(),
            self.lists[2].len(),
        ];
        let in_list = |chunk: &[u32]| {
            chunk
                .iter()
                .zip(lens)
                .all(|(&k, n)| k == NONE || (k as usize) < n)
        };
        if !self.matcher.accept.chunks_exact(3).all(in_list) {
            return Err(TableError::DanglingEntry);
        }
        if self.typed.len() != TYPES * 3 || !self.typed.chunks_exact(3).all(in_list) {
            return Err(TableError::Typed);
        }
        self.autonomy.validate()?;
        let expect = StageGraph::build(&self.shape())?.programs()?;
        if expect != self.programs {
            return Err(TableError::Programs);
        }
        Ok(())
    }
}
