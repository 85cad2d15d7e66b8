//! ## What it does
//! Reports, as information, an allow entry that stops at a verb whose
//! continuations include mutating ones (SPEC §11, §6.5): since round 3
//! such an entry does **not** cover them (SPEC §3.2), so this says which
//! forms it leaves asking and how to allow one on purpose (SPEC §8):
//!
//! | entry stops at | does not allow | anchored forms |
//! |---|---|---|
//! | `git branch` | `git branch -D`, `-m`, `-f`, `git branch NAME` | `git branch -a`, `-r`, `-v`, `--list`, `--show-current` |
//! | `git remote` | `git remote add`, `git remote remove`, `set-url` | `git remote -v`, `git remote show` |
//! | `git worktree` | `git worktree add`, `git worktree remove` | `git worktree list` |
//! | `git config` | `git config KEY VALUE`, `--unset` | `git config --get` |
//! | `git tag` | `git tag -d`, `git tag NAME` | `git tag --list` (not in SPEC §8) |
//! | `git stash` | `git stash drop`, `git stash clear` | `git stash list`, `git stash show` (not in SPEC §8) |
//! | bare `git` | every mutating form above | `git status`, `git diff`, `git log`, `git show`… |
//! | `find` | `find … -delete`, `-fprint`, `-fls` | `find` itself (`-exec` runs a command that must be allowed on its own) |
//!
//! "Stops at" means the entry matches the verb itself: it is the verb, or
//! a prefix of it, or a wildcard matching it (`Terminal(git bra*)`). A
//! command word written as a path counts by its last component
//! (`Terminal(/usr/bin/git)` is bare `git`). Entries that say more, like
//! `Terminal(git branch -a)`, are anchored and not reported. SPEC §8 seeds
//! `Terminal(find)`: it is reported, as information.
//!
//! ## Why is this bad?
//! It is not, since round 3: a mutating continuation the entry does not
//! name keeps asking (`Terminal(git branch -v)` does not approve `git
//! branch -v -D feat`). But a person who wrote `Terminal(git branch)` may
//! expect `git branch -D` to pass; this says it does not, and how to allow
//! it on purpose (`Terminal(git branch -D)`).
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(git branch)", "Terminal(git remote)", "Terminal(git config)"]}
//! ```
//!
//! Use instead: the anchored forms to read, and each mutating form you
//! mean to allow as an entry of its own (`Terminal(git branch -D)`):
//! ```json
//! {"allow": ["Terminal(git branch --list)", "Terminal(git remote -v)", "Terminal(git config --get)"]}
//! ```

use super::{entries, tokens_match_verb, Check};
use crate::FileContext;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::pattern::PatToken;
use permc_grammar::rules::List;

/// `unanchored-mutating-verb`.
pub const CHECK: Check = Check {
    id: CheckId::UnanchoredMutatingVerb,
    severity: Severity::Info,
    file: "unanchored_mutating_verb.rs",
    source: include_str!("unanchored_mutating_verb.rs"),
    run,
};

/// A verb of SPEC §11's list: its words, what its mutating continuations
/// are, and the anchored forms to use.
pub(crate) struct Verb {
    pub(crate) words: &'static [&'static str],
    mutating: &'static str,
    pub(crate) anchored: &'static [&'static str],
    note: &'static str,
}

/// The verbs of SPEC §11, the one-word ones after the two-word ones of
/// the same tool so that `Terminal(git)` is reported as bare `git`.
pub(crate) const VERBS: &[Verb] = &[
    Verb {
        words: &["git", "branch"],
        mutating: "`git branch -D`, `-m`, `-f` and `git branch NAME`",
        anchored: &["git branch -a", "git branch -r", "git branch -v", "git branch --list", "git branch --show-current"],
        note: "",
    },
    Verb {
        words: &["git", "remote"],
        mutating: "`git remote add`, `remove` and `set-url`",
        anchored: &["git remote -v", "git remote show"],
        note: "",
    },
    Verb {
        words: &["git", "worktree"],
        mutating: "`git worktree add` and `git worktree remove`",
        anchored: &["git worktree list"],
        note: "",
    },
    Verb {
        words: &["git", "config"],
        mutating: "`git config KEY VALUE` and `--unset`",
        anchored: &["git config --get"],
        note: "",
    },
    Verb {
        words: &["git", "tag"],
        mutating: "`git tag -d` and `git tag NAME`",
        anchored: &["git tag --list"],
        note: " (SPEC §8 seeds no form of git tag)",
    },
    Verb {
        words: &["git", "stash"],
        mutating: "`git stash drop` and `git stash clear`",
        anchored: &["git stash list", "git stash show"],
        note: " (SPEC §8 seeds no form of git stash)",
    },
    Verb {
        words: &["git"],
        mutating: "the mutating forms of git's subcommands (`git branch -D`, `git remote add`, `git stash drop`…)",
        anchored: &["git status", "git diff", "git log", "git show", "git branch --list", "git remote -v"],
        note: "",
    },
    Verb {
        words: &["find"],
        mutating: "`find … -delete`, `-fprint` and `-fls`",
        anchored: &[],
        note: "",
    },
];

/// Does the entry (tokens `a`) match the verb's words themselves?
fn stops_at(a: &[PatToken], verb: &Verb) -> bool {
    !a.is_empty() && a.len() <= verb.words.len() && tokens_match_verb(a, verb.words)
}

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    for e in entries(cx) {
        if e.list != List::Allow {
            continue;
        }
        let Some(a) = e.pattern.tokens() else {
            continue;
        };
        let matching = || VERBS.iter().filter(|v| stops_at(a, v));
        let Some(verb) = matching()
            .find(|v| v.words.len() == a.len())
            .or_else(|| matching().next())
        else {
            continue;
        };
        let name = verb.words.join(" ");
        let help = if verb.anchored.is_empty() {
            format!(
                "to allow one on purpose, name it in an entry of its own; `-exec` runs a command that must be allowed on its own (`{}` covers `{name}` with reading primaries)",
                e.pattern.text
            )
        } else {
            let forms: Vec<String> = verb
                .anchored
                .iter()
                .map(|f| format!("`Terminal({f})`"))
                .collect();
            format!(
                "to let an agent read, the anchored forms say so{}: {}; to allow a mutating form on purpose, name it in an entry of its own",
                verb.note,
                forms.join(", ")
            )
        };
        out.push(
            Diagnostic::new(
                CHECK.id,
                CHECK.severity,
                cx.name,
                e.span,
                format!(
                    "`{}` in allow stops at `{name}`: {} keep asking (mutating continuations, SPEC §3.2)",
                    e.pattern.text, verb.mutating
                ),
            )
            .with_help(help),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::VERBS;
    use permc_core::facts::continuations::CONTINUATIONS;

    /// Every command of the catalogue's continuations (SPEC §6.5, what the
    /// decision reads) has its row here, and no row names another: a new
    /// continuation cannot go unreported by this check.
    #[test]
    fn the_verbs_are_the_catalogues_continuations() {
        for row in CONTINUATIONS {
            assert!(
                VERBS.iter().any(|v| v.words == row.command),
                "{:?} has continuations but no row here",
                row.command
            );
        }
        for v in VERBS {
            assert!(
                v.words == ["git"] || CONTINUATIONS.iter().any(|r| r.command == v.words),
                "{:?} is no command of the catalogue's continuations",
                v.words
            );
        }
    }
}
