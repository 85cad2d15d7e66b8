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
//! | bare `git` | the mutating forms of every `git` row above | what SPEC §8 seeds for git: `git status`, `git diff`, `git log`, `git show`, `git branch -a`… |
//! | `find` | `find … -delete`, `-fprint`, `-fls` | `find` itself (`-exec` runs a command that must be allowed on its own) |
//!
//! The rows are the catalogue's mutating continuations (SPEC §6.5), the
//! ones the decision reads: the words a message names and the anchored
//! forms it suggests are fields of those rows, so a new row is reported
//! with nothing to add here.
//!
//! "Stops at" means the entry matches the verb itself: it is the verb, or
//! a prefix of it, or a wildcard matching it (`Terminal(git bra*)`). A
//! command word written as a path counts by its last component
//! (`Terminal(/usr/bin/git)` is bare `git`). Entries that say more, like
//! `Terminal(git branch -a)`, are anchored and not reported. SPEC §8 seeds
//! `Terminal(find)`: it is reported, as information.
//!
//! **[round 4]** It also reports an allow entry that names a git
//! subcommand moving the worktree to another commit or the stash (`git
//! switch`, `git checkout`, `git reset`, `git stash pop`, `git rebase`,
//! `git merge`, `git pull`…, `gh pr checkout`, `glab mr checkout`, SPEC
//! §6.4): such an entry lifts the protected-path check for those moves.
//! The subcommands are the catalogue's rows the decision reads;
//! `Terminal(git)` and `Terminal(git stash list)` lift nothing and are not
//! reported for it.
//!
//! ## Why is this bad?
//! It is not, since round 3: a mutating continuation the entry does not
//! name keeps asking (`Terminal(git branch -v)` does not approve `git
//! branch -v -D feat`). But a person who wrote `Terminal(git branch)` may
//! expect `git branch -D` to pass; this says it does not, and how to allow
//! it on purpose (`Terminal(git branch -D)`).
//!
//! An entry that names a worktree move does let it through: an older
//! commit may hold a looser `permissions.json` or a hook, which the move
//! brings back without a person seeing it. That may be what you want; this
//! says so, and always-allow never records such an entry.
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
use permc_core::facts::continuations::{Continuations, Shape, CONTINUATIONS};
use permc_core::facts::external_effect;
use permc_core::facts::protected::names_worktree_move;
use permc_core::seed::DEFAULT_ALLOW;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::pattern::PatToken;
use permc_grammar::rules::List;
use std::borrow::Cow;
use std::sync::OnceLock;

/// `unanchored-mutating-verb`.
pub const CHECK: Check = Check {
    id: CheckId::UnanchoredMutatingVerb,
    severity: Severity::Info,
    file: "unanchored_mutating_verb.rs",
    source: include_str!("unanchored_mutating_verb.rs"),
    run,
};

/// A verb of SPEC §11's list: a row of the catalogue's continuations
/// (SPEC §6.5), or a program some of whose subcommands have one (bare
/// `git`). Derived from [`CONTINUATIONS`], never listed here.
pub(crate) struct Verb {
    pub(crate) words: &'static [&'static str],
    row: Option<&'static Continuations>,
}

/// The verbs: every row of [`CONTINUATIONS`], then each program whose
/// subcommands have rows, after them so that `Terminal(git)` is reported
/// as bare `git`.
pub(crate) fn verbs() -> &'static [Verb] {
    static VERBS: OnceLock<Vec<Verb>> = OnceLock::new();
    VERBS.get_or_init(|| {
        let mut v: Vec<Verb> = CONTINUATIONS
            .iter()
            .map(|r| Verb {
                words: r.command,
                row: Some(r),
            })
            .collect();
        for r in CONTINUATIONS.iter().filter(|r| r.command.len() > 1) {
            let words = &r.command[..1];
            if !v.iter().any(|x| x.words == words) {
                v.push(Verb { words, row: None });
            }
        }
        v
    })
}

impl Verb {
    /// The rows of a program's subcommands (bare `git`), or the verb's own.
    fn rows(&self) -> impl Iterator<Item = &'static Continuations> + '_ {
        CONTINUATIONS
            .iter()
            .filter(|r| r.command.starts_with(self.words))
    }

    /// What keeps asking, for the message: the row's `shown` words, a
    /// name operand or a key and value where the row's shape makes them
    /// mutate; for a program, the subcommands with rows.
    fn mutating(&self) -> String {
        let name = self.words.join(" ");
        let Some(row) = self.row else {
            let subs: Vec<String> = self
                .rows()
                .map(|r| format!("`{}`", r.command.join(" ")))
                .collect();
            return format!("the mutating forms of {}", and_list(&subs));
        };
        // (text, a placeholder such as NAME: always written whole)
        let mut items: Vec<(String, bool)> = Vec::new();
        if let Shape::Config = row.shape {
            items.push(("KEY VALUE".into(), true));
        }
        let gap = if let Shape::Expression = row.shape {
            "… "
        } else {
            ""
        };
        items.extend(row.shown.iter().map(|w| (w.to_string(), false)));
        if let Shape::Options {
            operand_mutates: true,
            ..
        } = row.shape
        {
            items.push(("NAME".into(), true));
        }
        // Two plain forms are both written whole; otherwise the words after
        // the first are written alone (`git branch -D`, `-m`).
        let whole = items.len() == 2 && !items.iter().any(|(_, p)| *p);
        let shown: Vec<String> = items
            .iter()
            .enumerate()
            .map(
                |(i, (w, placeholder))| match (i == 0 || whole, *placeholder) {
                    (_, true) => format!("`{name} {w}`"),
                    (true, false) => format!("`{name} {gap}{w}`"),
                    (false, false) => format!("`{w}`"),
                },
            )
            .collect();
        and_list(&shown)
    }

    /// The anchored forms to suggest: the row's (SPEC §8); for a program,
    /// the entries SPEC §8 seeds for it that this check does not report.
    pub(crate) fn anchored(&self) -> Vec<String> {
        let name = self.words.join(" ");
        match self.row {
            Some(row) => row.anchored.iter().map(|w| format!("{name} {w}")).collect(),
            None => DEFAULT_ALLOW
                .iter()
                .filter_map(|e| e.strip_prefix("Terminal(")?.strip_suffix(')'))
                .filter(|e| e.split(' ').next() == Some(self.words[0]))
                .filter(|e| {
                    let words: Vec<&str> = e.split(' ').collect();
                    !verbs()
                        .iter()
                        .any(|v| words.len() <= v.words.len() && v.words.starts_with(&words))
                })
                .map(str::to_string)
                .collect(),
        }
    }

    /// Said after the anchored forms when SPEC §8 seeds none of them.
    fn note(&self) -> String {
        let seeded = self
            .anchored()
            .iter()
            .any(|f| DEFAULT_ALLOW.contains(&format!("Terminal({f})").as_str()));
        if seeded || self.anchored().is_empty() {
            String::new()
        } else {
            format!(" (SPEC §8 seeds no form of {})", self.words.join(" "))
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Does the entry (tokens `a`) match the verb's words themselves?
fn stops_at(a: &[PatToken], verb: &Verb) -> bool {
    !a.is_empty() && a.len() <= verb.words.len() && tokens_match_verb(a, verb.words)
}

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    worktree_moves(cx, out);
    for e in entries(cx) {
        if e.list != List::Allow {
            continue;
        }
        let Some(a) = e.pattern.tokens() else {
            continue;
        };
        let matching = || verbs().iter().filter(|v| stops_at(a, v));
        let Some(verb) = matching()
            .find(|v| v.words.len() == a.len())
            .or_else(|| matching().next())
        else {
            continue;
        };
        let name = verb.words.join(" ");
        let anchored = verb.anchored();
        let help = if anchored.is_empty() {
            format!(
                "to allow one on purpose, name it in an entry of its own; `-exec` runs a command that must be allowed on its own (`{}` covers `{name}` with reading primaries)",
                e.pattern.text
            )
        } else {
            let forms: Vec<String> = anchored
                .iter()
                .map(|f| format!("`Terminal({f})`"))
                .collect();
            format!(
                "to let an agent read, the anchored forms say so{}: {}; to allow a mutating form on purpose, name it in an entry of its own",
                verb.note(),
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
                    e.pattern.text,
                    verb.mutating()
                ),
            )
            .with_help(help),
        );
    }
}

/// An allow entry that names a subcommand moving the worktree to another
/// commit or the stash (SPEC §6.4 round 4): it lifts the protected-path
/// check for those moves, which this says. The subcommands are the
/// catalogue's rows the decision reads (`names_worktree_move`).
fn worktree_moves(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    for e in entries(cx).into_iter().filter(|e| e.list == List::Allow) {
        let Some(tokens) = e.pattern.tokens() else {
            continue;
        };
        // The words the entry names exactly, as the decision compares them
        // with a run's (a wildcard or a path as the program lifts nothing).
        let words: Vec<Cow<'_, str>> = tokens
            .iter()
            .map_while(|t| match t {
                PatToken::Exact(w) => Some(Cow::from(w.as_str())),
                PatToken::Prefix(_) => None,
            })
            .collect();
        if words.first().is_none_or(|w| w.contains('/')) {
            continue;
        }
        // An entry a ceiling always lowers (`git pull` reaches a remote)
        // approves no move: `neutralized-by-ceiling` says so instead.
        let Some(sub) = names_worktree_move(&words).filter(|_| external_effect(&words).is_none())
        else {
            continue;
        };
        out.push(
            Diagnostic::new(
                CHECK.id,
                CHECK.severity,
                cx.name,
                e.span,
                format!(
                    "`{}` in allow names `{sub}`, which moves the worktree to another commit or the stash: the entry lifts the protected-path check for those moves (an older commit may hold a looser permissions.json or a hook, SPEC §6.4)",
                    e.pattern.text
                ),
            )
            .with_help(format!(
                "keep it only if you accept that history may hold looser rule files; without it a person approves each `{sub}` that moves the worktree (always-allow never records such an entry)"
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::verbs;
    use permc_core::facts::continuations::CONTINUATIONS;

    /// The words a row shows and suggests are its own: shown words mutate,
    /// anchored words read, so a message never names a form the decision
    /// reads otherwise.
    #[test]
    fn shown_and_anchored_words_are_the_rows_own() {
        for r in CONTINUATIONS {
            assert!(
                !r.shown.is_empty(),
                "{:?} shows no mutating word",
                r.command
            );
            for w in r.shown {
                assert!(
                    r.mutating.contains(w),
                    "{:?}: `{w}` is not mutating",
                    r.command
                );
            }
            for w in r.anchored {
                assert!(
                    r.reading.contains(w),
                    "{:?}: `{w}` does not read",
                    r.command
                );
            }
        }
    }

    /// Every row is a verb, and the one verb that is no row is a program
    /// whose subcommands have rows.
    #[test]
    fn the_verbs_are_the_catalogues_rows() {
        for r in CONTINUATIONS {
            assert!(verbs().iter().any(|v| v.words == r.command));
        }
        let programs: Vec<_> = verbs().iter().filter(|v| v.row.is_none()).collect();
        assert_eq!(programs.len(), 1);
        assert_eq!(programs[0].words, ["git"]);
    }
}
