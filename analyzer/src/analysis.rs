//! The coverage analysis of one permissions.json, computed once and read
//! by `shadowed-by-deny`, `shadowed-by-ask`, `redundant-rule` and
//! `neutralized-by-ceiling`.
//!
//! What is decided, exactly (see [`crate::coverage`]):
//! - an allow or ask entry is *denied* when the deny entries and the
//!   built-in denies (SPEC §5.2) together match every segment it matches,
//!   decided exactly over the token-prefix semantics of SPEC §3.2 (several
//!   entries together cover a pattern only when one of them does: see
//!   [`crate::coverage`], so the one covering entry is named). The three
//!   built-ins are used as
//!   the literal patterns of §5.2; besides, an entry of exact words whose
//!   words alone already run a built-in deny *as the runtime reads it*
//!   (§5.2 \[hardening\]: `rm -r -f /`, `sudo rm -rf /`, `bash -c 'rm -rf /'`)
//!   is denied too, since appending words never undoes that reading;
//! - an allow entry is *asked* when it is not denied but deny, built-ins
//!   and ask entries together match all it matches (deny comes first, then
//!   ask: SPEC §5 step 6);
//! - an entry is *redundant* when one other entry of its list matches
//!   everything it does: a broader one, or an identical one written
//!   earlier (token lists are equal sets only when they are equal, so
//!   `Terminal(ls)` and `Terminal('ls')` are duplicates).
//!
//! Entries are indexed in [`TokenTrie`]s, so a 100k-entry file costs about
//! one trie walk per entry, not a comparison per pair.

use crate::coverage::TokenTrie;
use permc_core::facts::project::ProjectRows;
use permc_core::facts::{
    basename, catalogue, LineFacts, BUILTIN_DENY, EXTERNAL_EFFECT, EXTERNAL_READ_BY_WORDS,
    PRIVILEGED,
};
use permc_grammar::pattern::{PatToken, Pattern, PatternBody};
use permc_grammar::rules::{Entry, List, Permissions};
use permc_grammar::ActionType;

/// Something that matches: an entry of the file, or a built-in deny.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverer {
    /// `permissions.list(list)[index]`.
    Entry {
        /// The list.
        list: List,
        /// The index in it.
        index: usize,
    },
    /// A built-in deny pattern of SPEC §5.2, e.g. `Terminal(rm -rf /)`.
    Builtin(&'static str),
}

/// What the analysis found for one permissions.json.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    /// Per list (`list as usize`), per entry: the deny entry or built-in
    /// that denies every match, if there is one.
    pub denied: [Vec<Option<Coverer>>; 3],
    /// Per allow entry: the ask entry that asks for every match, when the
    /// entry is not denied outright.
    pub asked: Vec<Option<Coverer>>,
    /// Per list, per entry: the other entry of the same list that matches
    /// everything it does.
    pub redundant: [Vec<Option<usize>>; 3],
}

/// The tokens of a pattern that matches Terminal segments.
fn terminal_tokens(p: &Pattern) -> Option<&[PatToken]> {
    p.tokens()
}

/// A typed `Label()` entry's action type.
fn typed_any(p: &Pattern) -> Option<ActionType> {
    (p.action != ActionType::Terminal && p.body == PatternBody::Any).then_some(p.action)
}

/// The leading exact words of a token list (before the first wildcard).
pub fn exact_prefix(tokens: &[PatToken]) -> Vec<String> {
    tokens
        .iter()
        .map_while(|t| match t {
            PatToken::Exact(x) => Some(x.clone()),
            PatToken::Prefix(_) => None,
        })
        .collect()
}

/// The runtime's facts (SPEC §4.3) of a segment made of exactly these
/// words; `None` when they cannot be written as a command line.
pub fn facts_of_words(words: &[String]) -> Option<LineFacts<'static>> {
    facts_of_words_with(words, &ProjectRows::default())
}

/// [`facts_of_words`] with a project's `[[command]]` rows (permc.toml).
pub fn facts_of_words_with(words: &[String], rows: &ProjectRows) -> Option<LineFacts<'static>> {
    if words.is_empty() {
        return None;
    }
    let text = permc_core::always::render_words(words)?;
    let facts = LineFacts::of_with(&text, rows);
    // The rendering must read back to the same single segment.
    (facts.line.segments.len() == 1 && facts.line.segments[0].words == words)
        .then(|| facts.into_owned())
}

/// Could a segment of exactly these words run a command of the runtime's
/// tables — an external-effect tool or a privileged verb (SPEC §4.3, §6.1)?
/// `false` means certainly not: the verb of every run the runtime reads is
/// a word's last path component, or lies inside a word that the runtime
/// reads as a command line of its own (`sh -c '…'`), which then holds a
/// blank or a shell character. A cheap test before [`facts_of_words`].
pub fn may_run_table_verb(words: &[String]) -> bool {
    static VERBS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let verbs = VERBS.get_or_init(|| {
        let mut v: Vec<&'static str> = EXTERNAL_EFFECT
            .iter()
            .filter_map(|e| e.first().copied())
            .collect();
        v.extend(PRIVILEGED);
        v.extend(EXTERNAL_READ_BY_WORDS);
        // The remote clients, publishing goals and network clients, whose
        // rows make a subcommand external without a table entry of its own
        // (`supabase db push`, `op read`).
        v.extend(catalogue::external_programs());
        v.sort_unstable();
        v.dedup();
        v
    });
    words.iter().any(|w| {
        verbs.contains(&basename(w))
            || (w.contains(|c: char| c.is_whitespace() || "'\"\\;&|`$(){}<>=".contains(c))
                && verbs.iter().any(|v| w.contains(v)))
    })
}

/// Every Terminal entry of the three lists and the built-ins in one trie:
/// one walk per entry finds what denies it, asks for it and covers it in
/// its own list. Equal token lists share a node, and each node keeps the
/// first entry of each list ending there, so a thousand duplicates cost
/// one look each, not a thousand.
struct Index {
    trie: TokenTrie,
    /// Per list, per entry: the node where its tokens end.
    node_of: [Vec<u32>; 3],
    /// Per node: the first entry of each list ending there (in [`List`]'s
    /// order), and the first built-in (`NONE` when none).
    first: Vec<[u32; 4]>,
    /// Per list, per action type: the first `Label()` entry.
    first_typed: [Vec<Option<usize>>; 3],
}

/// No entry.
const NONE: u32 = u32::MAX;

fn list_of(i: usize) -> List {
    List::ALL[i]
}

impl Index {
    fn of(perms: &Permissions) -> Index {
        let mut trie = TokenTrie::new();
        let mut node_of: [Vec<u32>; 3] = Default::default();
        let mut ends: Vec<(u32, usize, u32)> = Vec::new();
        let mut first_typed: [Vec<Option<usize>>; 3] = Default::default();
        for li in 0..3 {
            first_typed[li] = vec![None; ActionType::ALL.len()];
            let entries = perms.list(list_of(li));
            node_of[li] = vec![NONE; entries.len()];
            for (i, e) in entries.iter().enumerate() {
                if let Some(t) = terminal_tokens(&e.pattern) {
                    let node = trie.insert(t, i);
                    node_of[li][i] = node;
                    ends.push((node, li, u32::try_from(i).unwrap_or(NONE)));
                }
                if let Some(t) = typed_any(&e.pattern) {
                    first_typed[li][t.index()].get_or_insert(i);
                }
            }
        }
        for (b, text) in BUILTIN_DENY.iter().enumerate() {
            // The built-ins are valid Terminal patterns (a runtime test
            // parses them); one that did not parse would only be skipped.
            if let Some(tokens) = Pattern::parse(text).ok().as_ref().and_then(Pattern::tokens) {
                if !tokens.is_empty() {
                    let node = trie.insert(tokens, b);
                    ends.push((node, 3, u32::try_from(b).unwrap_or(NONE)));
                }
            }
        }
        let mut first = vec![[NONE; 4]; trie.len()];
        for (node, group, i) in ends {
            let slot = &mut first[node as usize][group];
            *slot = (*slot).min(i);
        }
        Index {
            trie,
            node_of,
            first,
            first_typed,
        }
    }

    fn first_typed(&self, list: List, t: ActionType) -> Option<usize> {
        self.first_typed[list.index()]
            .get(t.index())
            .copied()
            .flatten()
    }
}

/// Does this exact word list run a built-in deny, as the runtime reads it
/// (through wrappers, any `rm -r -f /`)? Appending words keeps it so.
fn hardened_builtin(tokens: &[PatToken]) -> Option<&'static str> {
    // A run of `rm` needs the text `rm` in some word (inner command lines
    // are parts of words): skip reading the others.
    if tokens.iter().any(|t| matches!(t, PatToken::Prefix(_)))
        || !tokens
            .iter()
            .any(|t| t.text().contains(permc_core::facts::BUILTIN_DENY_VERB))
    {
        return None;
    }
    facts_of_words(&exact_prefix(tokens))?.builtin_deny()
}

impl Analysis {
    /// Analyzes a loaded permissions.json.
    pub fn of(perms: &Permissions) -> Analysis {
        let index = Index::of(perms);
        let mut out = Analysis {
            asked: vec![None; perms.allow.len()],
            ..Analysis::default()
        };
        let mut nodes = Vec::new();
        for li in 0..3 {
            let list = list_of(li);
            let entries = perms.list(list);
            out.denied[li] = vec![None; entries.len()];
            out.redundant[li] = vec![None; entries.len()];
            for (i, e) in entries.iter().enumerate() {
                if let Some(t) = typed_any(&e.pattern) {
                    // Two `Label()` of one type are duplicates: the later
                    // is redundant.
                    out.redundant[li][i] = index.first_typed(list, t).filter(|&j| j < i);
                    if list != List::Deny {
                        out.denied[li][i] =
                            index
                                .first_typed(List::Deny, t)
                                .map(|index| Coverer::Entry {
                                    list: List::Deny,
                                    index,
                                });
                    }
                    if list == List::Allow && out.denied[li][i].is_none() {
                        out.asked[i] =
                            index.first_typed(List::Ask, t).map(|index| Coverer::Entry {
                                list: List::Ask,
                                index,
                            });
                    }
                    continue;
                }
                let Some(a) = terminal_tokens(&e.pattern) else {
                    continue;
                };
                nodes.clear();
                index.trie.covering_nodes(a, &mut nodes);
                let own = index.node_of[li].get(i).copied().unwrap_or(NONE);
                // The first covering entry of a group, in file order.
                let first_of = |group: usize, skip_own: bool| {
                    nodes
                        .iter()
                        .filter(|&&n| !(skip_own && n == own))
                        .filter_map(|&n| index.first.get(n as usize).map(|f| f[group]))
                        .min()
                        .filter(|&j| j != NONE)
                        .map(|j| j as usize)
                };
                let entry = |l: List| {
                    first_of(l.index(), false).map(|index| Coverer::Entry { list: l, index })
                };
                if list != List::Deny {
                    out.denied[li][i] = entry(List::Deny)
                        .or_else(|| {
                            first_of(3, false)
                                .and_then(|b| BUILTIN_DENY.get(b))
                                .map(|p| Coverer::Builtin(p))
                        })
                        .or_else(|| hardened_builtin(a).map(Coverer::Builtin));
                }
                if list == List::Allow && out.denied[li][i].is_none() {
                    out.asked[i] = entry(List::Ask);
                }
                // A strictly broader entry of the same list (any node but
                // its own: other nodes hold other token lists), wherever it
                // is; else an identical one written earlier.
                out.redundant[li][i] = first_of(li, true).or_else(|| {
                    index
                        .first
                        .get(own as usize)
                        .map(|f| f[li] as usize)
                        .filter(|&j| j < i)
                });
            }
        }
        out
    }

    /// What denies every match of an entry, if anything does.
    pub fn denied(&self, e: &Entry) -> Option<Coverer> {
        *self.denied[e.list.index()].get(e.index)?
    }

    /// The ask entry that asks for every match of an allow entry.
    pub fn asked(&self, e: &Entry) -> Option<Coverer> {
        if e.list != List::Allow {
            return None;
        }
        *self.asked.get(e.index)?
    }

    /// The index of the entry of the same list that makes this one
    /// redundant.
    pub fn redundant(&self, e: &Entry) -> Option<usize> {
        *self.redundant[e.list.index()].get(e.index)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use permc_grammar::rules::load_permissions;

    fn analysis(json: &str) -> (Permissions, Analysis) {
        let p = load_permissions("p.json", json.as_bytes())
            .value
            .expect("loads");
        let a = Analysis::of(&p);
        (p, a)
    }

    #[test]
    fn denied_by_entries_and_builtins() {
        let (p, a) = analysis(
            r#"{"allow": ["Terminal(ab*)", "Terminal(rm -rf /)", "Terminal(sudo rm -r -f /)", "Terminal(x y*)"],
                "deny": ["Terminal(ab)", "Terminal(ab?*)", "Terminal(a*)", "Terminal(x y)", "Terminal(x yz*)"]}"#,
        );
        assert_eq!(
            a.denied(&p.allow[0]),
            Some(Coverer::Entry {
                list: List::Deny,
                index: 2
            })
        );
        assert_eq!(
            a.denied(&p.allow[1]),
            Some(Coverer::Builtin("Terminal(rm -rf /)"))
        );
        assert_eq!(
            a.denied(&p.allow[2]),
            Some(Coverer::Builtin("Terminal(rm -rf /)"))
        );
        // `x y*` is `x y` or `x y` + more: `x yz*` misses `x ya`.
        assert_eq!(a.denied(&p.allow[3]), None);
    }

    #[test]
    fn deny_comes_before_ask() {
        let (p, a) = analysis(
            r#"{"allow": ["Terminal(git push*)"], "deny": ["Terminal(git push)", "Terminal(git push-*)"], "ask": ["Terminal(git pus*)"]}"#,
        );
        assert_eq!(a.denied(&p.allow[0]), None);
        assert_eq!(
            a.asked(&p.allow[0]),
            Some(Coverer::Entry {
                list: List::Ask,
                index: 0
            })
        );
        let (p, a) = analysis(
            r#"{"allow": ["Terminal(x a*)"], "deny": ["Terminal(x ab*)", "Terminal(x)"]}"#,
        );
        assert_eq!(
            a.denied(&p.allow[0]),
            Some(Coverer::Entry {
                list: List::Deny,
                index: 1
            })
        );
        let (p, a) = analysis(
            r#"{"allow": ["Terminal(x a*)"], "deny": ["Terminal(x ab*)"], "ask": ["Terminal(x a)", "Terminal(x aa*)", "Terminal(x a*)"]}"#,
        );
        assert_eq!(
            a.asked(&p.allow[0]),
            Some(Coverer::Entry {
                list: List::Ask,
                index: 2
            })
        );
    }

    #[test]
    fn redundancy() {
        let (p, a) = analysis(
            r#"{"allow": ["Terminal(git status)", "Terminal(git)", "Terminal('git')", "GitPush()", "GitPush()"]}"#,
        );
        assert_eq!(a.redundant(&p.allow[0]), Some(1));
        assert_eq!(a.redundant(&p.allow[1]), None);
        assert_eq!(a.redundant(&p.allow[2]), Some(1));
        assert_eq!(a.redundant(&p.allow[3]), None);
        assert_eq!(a.redundant(&p.allow[4]), Some(3));
    }
}
