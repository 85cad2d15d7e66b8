//! `permc diff`'s regions are exact (issue 11): over a small universe — a
//! vocabulary of words, every command of up to 3 words, generated policy
//! pairs — brute force (each command classified by a linear scan of the
//! entries, SPEC §5.3 step 6) agrees with the regions of the product
//! walk: every command whose class changes lies in exactly one region,
//! with that region's class pair; no unchanged command lies in any; every
//! witness lies in its region and really changes.
//!
//! The suite runs `PERMC_DIFF_PAIRS` generated pairs (default 300) over
//! commands of up to `PERMC_DIFF_WORDS` words (default 3), plus proptest.
//! A larger run, in release:
//! `PERMC_DIFF_PAIRS=20000 PERMC_DIFF_WORDS=4 cargo test --release --test diff`.

use permc_compiler::diff::{self, Class, Region};
use permc_compiler::{compile, CompiledPolicy};
use permc_grammar::pattern::Pattern;
use permc_grammar::rules::{load_permissions, Permissions};
use proptest::prelude::*;

/// Words commands are made of: exact tokens of the patterns, words that
/// only a wildcard matches, and words no pattern names.
const WORDS: &[&str] = &["a", "ab", "abc", "b", "-r", "x", "a:1", "a:"];

/// Tokens patterns are made of (`*` at the end: a prefix wildcard).
const TOKENS: &[&str] = &["a", "ab", "b", "-r", "a*", "ab*", "a:*", "x", "b*"];

fn permissions(lists: &[Vec<String>; 3]) -> Permissions {
    let json = serde_json::json!({"deny": lists[0], "ask": lists[1], "allow": lists[2]});
    load_permissions("permissions.json", json.to_string().as_bytes())
        .value
        .expect("generated rules load")
}

/// SPEC §5.3 step 6 for one segment, by a linear scan.
fn brute_class(p: &Permissions, words: &[&str]) -> Class {
    let m = |l: &[permc_grammar::rules::Entry]| l.iter().any(|e| e.pattern.matches_words(words));
    if m(&p.deny) {
        Class::Deny
    } else if m(&p.ask) {
        Class::Ask
    } else if m(&p.allow) {
        Class::Allow
    } else {
        Class::Uncovered
    }
}

fn universe(max_words: usize) -> Vec<Vec<&'static str>> {
    let mut all: Vec<Vec<&str>> = vec![vec![]];
    let mut layer: Vec<Vec<&str>> = vec![vec![]];
    for _ in 0..max_words {
        let mut next = Vec::new();
        for c in &layer {
            for w in WORDS {
                let mut v = c.clone();
                v.push(*w);
                next.push(v);
            }
        }
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

/// Checks one pair; returns (changed commands, regions).
fn check_pair(
    old: &[Vec<String>; 3],
    new: &[Vec<String>; 3],
    commands: &[Vec<&str>],
) -> (usize, usize) {
    let (po, pn) = (permissions(old), permissions(new));
    let (co, cn): (CompiledPolicy, CompiledPolicy) = (
        compile(&po, &Default::default()),
        compile(&pn, &Default::default()),
    );
    let regions: Vec<Region> = diff::terminal(&co, &cn);
    let show = || format!("old {old:?}\nnew {new:?}\nregions {regions:#?}");
    for r in &regions {
        assert_ne!(r.old, r.new, "a region without a change\n{}", show());
        assert!(r.contains(&r.witness), "witness outside\n{}", show());
        let w: Vec<&str> = r.witness.iter().map(String::as_str).collect();
        assert_eq!(
            (brute_class(&po, &w), brute_class(&pn, &w)),
            (r.old, r.new),
            "witness {w:?}\n{}",
            show()
        );
        // The witness reads back as the same words.
        let line = diff::command_line(&r.witness);
        let again = permc_grammar::shell::read(&line);
        if !r.witness.is_empty() {
            assert_eq!(again.segments.len(), 1, "{line}");
            assert_eq!(again.segments[0].words, r.witness, "{line}");
        }
    }
    let mut changed = 0;
    for c in commands {
        let pair = (brute_class(&po, c), brute_class(&pn, c));
        let inside: Vec<&Region> = regions.iter().filter(|r| r.contains(c)).collect();
        if pair.0 == pair.1 {
            assert!(inside.is_empty(), "unchanged {c:?} in a region\n{}", show());
        } else {
            changed += 1;
            assert_eq!(inside.len(), 1, "changed {c:?} {pair:?}\n{}", show());
            assert_eq!((inside[0].old, inside[0].new), pair, "{c:?}\n{}", show());
        }
    }
    (changed, regions.len())
}

/// A small deterministic generator (xorshift), so the exhaustive run needs
/// no seed file.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pattern(&mut self) -> String {
        let n = self.below(4); // 0..=3 tokens; 0 is `Terminal()`, rarely kept
        let n = if n == 0 && self.below(4) != 0 { 1 } else { n };
        let toks: Vec<&str> = (0..n).map(|_| TOKENS[self.below(TOKENS.len())]).collect();
        format!("Terminal({})", toks.join(" "))
    }
    fn lists(&mut self) -> [Vec<String>; 3] {
        std::array::from_fn(|_| (0..self.below(4)).map(|_| self.pattern()).collect())
    }
    /// A pair: unrelated, or the new one a small edit of the old.
    fn pair(&mut self) -> ([Vec<String>; 3], [Vec<String>; 3]) {
        let old = self.lists();
        if self.below(2) == 0 {
            return (old, self.lists());
        }
        let mut new = old.clone();
        for _ in 0..=self.below(2) {
            let l = self.below(3);
            if !new[l].is_empty() && self.below(2) == 0 {
                let k = self.below(new[l].len());
                new[l].remove(k);
            } else {
                let p = self.pattern();
                new[l].push(p);
            }
        }
        (old, new)
    }
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn regions_equal_brute_force_exhaustively() {
    let commands = universe(env("PERMC_DIFF_WORDS", 3));
    let mut g = Gen(0x9E37_79B9_7F4A_7C15);
    let (mut changed, mut regions) = (0, 0);
    let pairs = env("PERMC_DIFF_PAIRS", 300);
    for _ in 0..pairs {
        let (old, new) = g.pair();
        let (c, r) = check_pair(&old, &new, &commands);
        changed += c;
        regions += r;
    }
    eprintln!(
        "{pairs} pairs, {} commands each: {changed} changed commands in {regions} regions",
        commands.len()
    );
    // Not vacuous: most pairs change something.
    assert!(
        changed > pairs * 10 && regions > pairs / 2,
        "{changed} {regions}"
    );
}

#[test]
fn every_pattern_token_parses() {
    for t in TOKENS {
        Pattern::parse(&format!("Terminal({t})")).expect("parses");
    }
}

fn lists_strategy() -> impl Strategy<Value = [Vec<String>; 3]> {
    let pattern = proptest::collection::vec(proptest::sample::select(TOKENS), 0..4)
        .prop_map(|t| format!("Terminal({})", t.join(" ")));
    let list = proptest::collection::vec(pattern, 0..4);
    (list.clone(), list.clone(), list).prop_map(|(a, b, c)| [a, b, c])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(env("PERMC_DIFF_CASES", 200) as u32))]
    #[test]
    fn regions_equal_brute_force(old in lists_strategy(), new in lists_strategy()) {
        check_pair(&old, &new, &universe(3));
    }
}

#[test]
fn the_issue_example_regions() {
    let old: [Vec<String>; 3] = [vec![], vec![], vec!["Terminal(git status)".into()]];
    let new: [Vec<String>; 3] = [
        vec![],
        vec![],
        vec![
            "Terminal(git status)".into(),
            "Terminal(rm -rf build)".into(),
            "Terminal(git push)".into(),
        ],
    ];
    let (co, cn) = (
        compile(&permissions(&old), &Default::default()),
        compile(&permissions(&new), &Default::default()),
    );
    let r = diff::terminal(&co, &cn);
    let shown: Vec<String> = r
        .iter()
        .map(|r| format!("{} {}→{}", r.pattern, r.old.name(), r.new.name()))
        .collect();
    assert_eq!(
        shown,
        [
            "git push … uncovered→allow",
            "rm -rf build … uncovered→allow"
        ]
    );
    assert_eq!(r[1].witness, ["rm", "-rf", "build"]);
    // A broader allow over a narrower one: one region with an exception.
    let old: [Vec<String>; 3] = [vec![], vec![], vec!["Terminal(git status)".into()]];
    let new: [Vec<String>; 3] = [vec![], vec![], vec!["Terminal(git)".into()]];
    let r = diff::terminal(
        &compile(&permissions(&old), &Default::default()),
        &compile(&permissions(&new), &Default::default()),
    );
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].pattern.to_string(), "git …");
    let ex: Vec<String> = r[0].except.iter().map(ToString::to_string).collect();
    assert_eq!(ex, ["git status …"]);
}
