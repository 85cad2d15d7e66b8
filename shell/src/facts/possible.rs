//! Possible runs of undescribed programs (SPEC §4.5 item 2 round 4):
//! under automatic mode and the container floor no entry is needed, so a
//! quoted word of a program the catalogue knows nothing of may be a
//! command line it runs (`mytool 'git push'`). Each such word is read as
//! a line of its own ([`LineFacts::possible`]); its first segment is a
//! *possible* run: an ask that matches it acts as a match in step 6, a
//! deny, a built-in or §6.1 that matches it lowers `auto_approve` with
//! `unknown.word` (§5.3 7.0). It is never a run for anything else.
//!
//! "Quoted" is read off the word: one that holds a blank, a tab, a
//! newline or a control operator (`;`, `&`, `|`) was quoted or escaped,
//! and only such a word can hold a command line with its arguments. The
//! programs are those no catalogue row names (`catalogue::program_names`)
//! and no row describes: a program with rows (git, npm, the shells, the
//! wrappers, the `line` rows) has its words read by them.

use super::{catalogue, LineFacts, Run};
use crate::reader::{AsStr, Known};
use std::sync::OnceLock;

/// At most this many words of a line are read as possible lines (each
/// is read once, as a line of its own, so reading stays linear).
const MAX_POSSIBLE: usize = 64;

/// Every program the catalogue names, sorted (for a binary search).
fn known_programs() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(catalogue::program_names)
}

/// Can `word` hold a command line with its arguments (it was quoted)?
fn reads_as_line(word: &str) -> bool {
    word.bytes()
        .any(|b| matches!(b, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|'))
}

/// Is `run` a run of a program no row names or describes, with a word
/// that reads as a line?
fn undescribed(run: &Run<'_>) -> bool {
    let [verb, rest @ ..] = run.words else {
        return false;
    };
    if run.guessed || run.canonical || run.known.first().is_some_and(|k| k.is_unknown()) {
        return false;
    }
    if !rest.iter().any(|w| reads_as_line(w)) {
        return false;
    }
    let program = super::basename(verb);
    if known_programs().binary_search(&program).is_ok() {
        return false;
    }
    let words: Vec<&str> = run.words.iter().map(AsStr::as_str).collect();
    catalogue::describes(&words).is_none()
}

/// Reads the possible lines of `facts`' runs into [`LineFacts::possible`].
pub(crate) fn collect(facts: &mut LineFacts<'_>) {
    let mut found: Vec<(usize, String)> = Vec::new();
    for r in facts.runs().filter(undescribed) {
        // A literal word: one with an expansion holds a blank because of
        // what the shell puts there, and its text is no command line.
        let literal = r.words[1..]
            .iter()
            .zip(r.known.get(1..).unwrap_or_default())
            .filter(|(w, k)| **k == Known::Exact && reads_as_line(w));
        for (w, _) in literal {
            if found.len() < MAX_POSSIBLE {
                found.push((r.segment, w.to_string()));
            }
        }
    }
    let possible: Vec<_> = found
        .into_iter()
        .filter_map(|(seg, w)| {
            let mut f = LineFacts {
                reading_possible: true,
                ..LineFacts::default()
            };
            f.fill(&w);
            // A line whose command word is not known exactly names no
            // program (`'$x y'`): no possible run.
            let named = f.line.segments.first().is_some_and(|s| {
                let v = s.words.iter().position(|w| !super::is_assignment(w));
                v.is_some_and(|v| s.known.get(v).is_some_and(|k| *k == Known::Exact))
            });
            named.then(|| (seg, Box::new(f.into_owned())))
        })
        .collect();
    if !possible.is_empty() {
        facts.rare().possible = possible;
    }
}

impl<'a> LineFacts<'a> {
    /// The possible runs of segment `i`, each with the word it was read
    /// from: the runs of its possible line's first segment.
    pub fn possible_runs(&self, i: usize) -> impl Iterator<Item = Run<'_>> {
        self.possible()
            .iter()
            .filter(move |(s, _)| *s == i)
            .flat_map(|(_, f)| {
                let own = f.line.segments.first().map(|s| Run {
                    words: &s.words,
                    known: &s.known,
                    privileged: false,
                    privileged_via: None,
                    segment: 0,
                    read_past: false,
                    guessed: false,
                    canonical: false,
                    cache: None,
                });
                own.into_iter()
                    .chain(f.runs_of(0).filter(|r| r.read_past && !r.guessed))
            })
    }

    /// Does the line have possible runs?
    pub fn has_possible(&self) -> bool {
        !self.possible().is_empty()
    }

    /// A possible run a built-in deny matches, certainly or possibly
    /// (SPEC §4.5 item 2: it lowers with `unknown.word`), with its
    /// segment.
    pub fn builtin_possible_run(&self) -> Option<(usize, Run<'_>)> {
        self.possible().iter().find_map(|(i, f)| {
            f.runs_of(0)
                .find(|r| {
                    super::builtin_deny_known(r.words, r.known).is_some()
                        || super::possible_builtin(r.words, r.known)
                })
                .map(|r| (*i, r))
        })
    }

    /// A possible run that has an external effect (§6.1), with its
    /// segment and the entry.
    pub fn external_possible(&self) -> Option<(usize, Run<'_>, &'static [&'static str])> {
        self.possible().iter().find_map(|(i, f)| {
            f.runs_of(0).filter(|r| !r.guessed).find_map(|r| {
                super::external_effect_known(r.words, r.known)
                    .or_else(|| super::remote::external_known_at(r.words, r.known, false))
                    .map(|e| (*i, r, e))
            })
        })
    }
}

/// Step 7.0's phrase for a possible run of segment `i` that may be
/// `what` (a built-in deny, an external effect, a deny entry).
pub fn possible_run_phrase(f: &LineFacts, i: usize, run: Run<'_>, what: &str) -> String {
    let segment = f
        .line
        .segments
        .get(i)
        .map(|s| s.words.join(" "))
        .unwrap_or_default();
    format!(
        "`{}` may run `{}`, {what}: permc does not know `{}`, which may run a quoted word as a command line (SPEC §4.5)",
        super::wrappers::short(&segment),
        super::wrappers::short(&run.words.join(" ")),
        f.line
            .segments
            .get(i)
            .and_then(|s| s.words.first())
            .map_or("", |w| super::basename(w))
    )
}

/// Step 7.0's phrase for a possible run a built-in deny matches.
pub fn possible_run_builtin_phrase(f: &LineFacts, i: usize, run: Run<'_>) -> String {
    possible_run_phrase(f, i, run, "a built-in deny (`rm -rf /`)")
}

/// Step 7.0's phrase for a possible run with an external effect `e`.
pub fn possible_run_external_phrase(f: &LineFacts, i: usize, run: Run<'_>, e: &[&str]) -> String {
    possible_run_phrase(
        f,
        i,
        run,
        &format!("an external effect (`{}`, SPEC §6.1)", e.join(" ")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_words_of_unknown_programs_are_possible_lines() {
        let f = LineFacts::of("mytool 'git push' x");
        assert!(f.has_possible());
        let (i, r, _) = f.external_possible().expect("git push");
        assert!(possible_run_phrase(&f, i, r, "an external effect").contains("`mytool"));
        assert!(LineFacts::of("mytool 'rm -rf /'")
            .builtin_possible_run()
            .is_some());
        assert!(LineFacts::of("mytool 'ls -la'")
            .external_possible()
            .is_none());
        // Programs with rows read their words themselves.
        assert!(!LineFacts::of("git commit -m 'git push'").has_possible());
        assert!(!LineFacts::of("bash -c 'git push'").has_possible());
        assert!(!LineFacts::of("grep 'git push' f").has_possible());
        // A word that holds no blank is an operand.
        assert!(!LineFacts::of("mytool push").has_possible());
        // An expansion's blank, or a command word not known, is no line.
        assert!(!LineFacts::of("mytool \"$(echo a b)\"").has_possible());
        assert!(!LineFacts::of("mytool '$x push'").has_possible());
        let f = LineFacts::of("mytool 'echo a' && other 'sudo x'");
        assert_eq!(f.possible_runs(0).count(), 1);
        assert_eq!(f.possible_runs(1).next().map(|r| r.words.len()), Some(2));
    }
}
