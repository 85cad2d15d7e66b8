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
use permc_grammar::pattern::{PatToken, Pattern, PatternBody};
use permc_grammar::rules::{Entry, List, Permissions};
use permc_grammar::ActionType;
use permc_runtime::facts::{basename, LineFacts, BUILTIN_DENY, EXTERNAL_EFFECT, PRIVILEGED};

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
pub fn facts_of_words(words: &[String]) -> Option<LineFacts> {
    if words.is_empty() {
        return None;
    }
    let text = permc_runtime::always::render_words(words)?;
    let facts = LineFacts::of(&text);
    // The rendering must read back to the same single segment.
    (facts.line.segments.len() == 1 && facts.line.segments[0].words == words).then_some(facts)
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
/// its own list.
struct Index {
    trie: TokenTrie,
    /// Trie ids: list `l`'s entry `i` is `offsets[l] + i`; built-in `b` is
    /// `offsets[3] + b`.
    offsets: [usize; 4],
    /// Per list, per action type: the first `Label()` entry.
    first_typed: [Vec<Option<usize>>; 3],
}

fn list_of(i: usize) -> List {
    match i {
        0 => List::Allow,
        1 => List::Ask,
        _ => List::Deny,
    }
}

impl Index {
    fn of(perms: &Permissions) -> Index {
        let mut trie = TokenTrie::new();
        let mut offsets = [0; 4];
        let mut next = 0;
        let mut first_typed: [Vec<Option<usize>>; 3] = Default::default();
        for (li, first) in first_typed.iter_mut().enumerate() {
            offsets[li] = next;
            *first = vec![None; ActionType::ALL.len()];
            let entries = perms.list(list_of(li));
            for (i, e) in entries.iter().enumerate() {
                if let Some(t) = terminal_tokens(&e.pattern) {
                    trie.insert(t, next + i);
                }
                if let Some(t) = typed_any(&e.pattern) {
                    first[t.index()].get_or_insert(i);
                }
            }
            next += entries.len();
        }
        offsets[3] = next;
        for (b, text) in BUILTIN_DENY.iter().enumerate() {
            // The built-ins are valid Terminal patterns (a runtime test
            // parses them); one that did not parse would only be skipped.
            if let Some(tokens) = Pattern::parse(text).ok().as_ref().and_then(Pattern::tokens) {
                if !tokens.is_empty() {
                    trie.insert(tokens, next + b);
                }
            }
        }
        Index {
            trie,
            offsets,
            first_typed,
        }
    }

    /// What a trie id names.
    fn coverer(&self, id: usize) -> Coverer {
        match self.offsets.iter().rposition(|&o| o <= id) {
            Some(3) => BUILTIN_DENY
                .get(id - self.offsets[3])
                .map_or(Coverer::Builtin(BUILTIN_DENY[0]), |p| Coverer::Builtin(p)),
            Some(l) => Coverer::Entry {
                list: list_of(l),
                index: id - self.offsets[l],
            },
            // Offsets start at 0, so every id has a list.
            None => Coverer::Builtin(BUILTIN_DENY[0]),
        }
    }

    fn first_typed(&self, list: List, t: ActionType) -> Option<usize> {
        self.first_typed[list as usize]
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
        || !tokens.iter().any(|t| t.text().contains("rm"))
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
        let mut ids = Vec::new();
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
                ids.clear();
                index.trie.covering(a, &mut ids);
                // File order within each list: the first covering entry
                // is the one named.
                ids.sort_unstable();
                let covers: Vec<Coverer> = ids.iter().map(|&id| index.coverer(id)).collect();
                let first_in = |l: List| {
                    covers
                        .iter()
                        .copied()
                        .find(|c| matches!(c, Coverer::Entry { list, .. } if *list == l))
                };
                let builtin = || {
                    covers
                        .iter()
                        .copied()
                        .find(|c| matches!(c, Coverer::Builtin(_)))
                };
                if list != List::Deny {
                    out.denied[li][i] = first_in(List::Deny)
                        .or_else(builtin)
                        .or_else(|| hardened_builtin(a).map(Coverer::Builtin));
                }
                if list == List::Allow && out.denied[li][i].is_none() {
                    out.asked[i] = first_in(List::Ask);
                }
                // A strictly broader entry of the same list, wherever it
                // is; else an identical one written earlier.
                let same: Vec<usize> = covers
                    .iter()
                    .filter_map(|c| match c {
                        Coverer::Entry { list: l, index: j } if *l == list => Some(*j),
                        _ => None,
                    })
                    .collect();
                let tokens = |j: usize| entries.get(j).and_then(|x| x.pattern.tokens());
                out.redundant[li][i] = same
                    .iter()
                    .copied()
                    .find(|&j| j != i && tokens(j).is_some_and(|t| t != a))
                    .or_else(|| same.iter().copied().find(|&j| j < i));
            }
        }
        out
    }

    /// What denies every match of an entry, if anything does.
    pub fn denied(&self, e: &Entry) -> Option<Coverer> {
        *self.denied[e.list as usize].get(e.index)?
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
        *self.redundant[e.list as usize].get(e.index)?
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
