//! git's editor (SPEC §4.3): `git commit` without a message, `git commit
//! -e`, `git add -e|-p`, `git branch --edit-description`, `git tag -a`
//! without a message, `merge|revert|cherry-pick -e`, `notes add` without a
//! message, `rebase -i`, `pull --edit`, `config -e` start the program `GIT_EDITOR`, `core.editor`,
//! `VISUAL` or `EDITOR` names, else `vi`. permc does not know that
//! program, and it reads its commands from standard input when that is
//! not a terminal — an agent's never is: `echo ':!sh x' | git commit
//! --amend` runs `sh x` through vi. Like `ed` and `ex` (§4.3: programs
//! that read commands from standard input are unparsed), a segment that
//! starts it is unparsed, in every mode. The rows are
//! [`GIT_EDITOR_STARTS`]; `GIT_EDITOR=:` or `GIT_EDITOR=true` on the line
//! starts nothing.

use super::catalogue::git::{GitEditor, GIT, GIT_EDITOR_STARTS, QUIET_GIT_EDITORS};
use super::options::{self, Grammar, Item, Mode, Value};
use crate::reader::Known;
use std::borrow::Cow;

impl GitEditor {
    /// The subcommand's parse-options grammar.
    fn grammar(&self) -> Grammar<'static> {
        Grammar {
            flags: self.flags,
            valued: self.valued,
            optional: self.optional,
            long_flags: self.long_flags,
            long_valued: self.long_valued,
            long_optional: self.long_optional,
            abbreviations: true,
            permute: true,
            ..Grammar::new(Mode::Git)
        }
    }
}

/// The shapes of [`GIT_EDITOR_STARTS`]' subcommands, built from the rows.
const EDITOR_SUBCOMMANDS: super::Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < GIT_EDITOR_STARTS.len() {
        super::mark_shape(&mut t, GIT_EDITOR_STARTS[i].subcommand);
        i += 1;
    }
    t
};

/// Why the run `words[from..]` starts git's editor, if it may: `from` is
/// its verb (`git`, or `git-commit` with `dashed` its subcommand), the
/// words before it its assignments and wrappers.
pub(crate) fn starts_editor(
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
    dashed: Option<&str>,
) -> Option<String> {
    let exact = |i: usize| known.get(i).is_none_or(|k| *k == Known::Exact);
    let (sub, after) = match dashed {
        Some(sub) => (sub, from + 1),
        None => {
            let i = super::subcommand_at(GIT, words, from + 1, exact);
            (&**words.get(i).filter(|_| exact(i))?, i + 1)
        }
    };
    // Most subcommands start no editor (`git status`): one shape test
    // before the rows' compares.
    if !super::has_shape(&EDITOR_SUBCOMMANDS, sub) {
        return None;
    }
    let quiet = words[..from]
        .iter()
        .enumerate()
        .any(|(i, w)| exact(i) && QUIET_GIT_EDITORS.contains(&&**w));
    if quiet {
        return None;
    }
    // A subcommand may have a row per verb of its own (`git config -e`,
    // `git config edit`): the first that starts the editor counts.
    let (at, certain) = GIT_EDITOR_STARTS
        .iter()
        .filter(|r| r.subcommand == sub)
        .find_map(|row| editor_word(row, words, known, after))?;
    let how = match words.get(at) {
        Some(w) => format!("`git {sub} {}`", super::wrappers::short(w)),
        None => format!("`git {sub}` without a message (`-m`, `-F`, `-C`, `--no-edit`)"),
    };
    let starts = if certain { "starts" } else { "may start" };
    Some(format!(
        "{how} {starts} git's editor (GIT_EDITOR, core.editor, VISUAL, EDITOR, else vi), a program permc does not know that reads commands from standard input (vi's `:!` runs a shell command)"
    ))
}

/// The index of the word that starts the editor, `words.len()` when the
/// subcommand starts it because no word gives a message, or `None`; and
/// whether it surely does. A word the grammar does not place, or an
/// unknown word that may begin with `-`, may be `--edit` (fail closed).
fn editor_word(
    row: &GitEditor,
    words: &[Cow<'_, str>],
    known: &[Known],
    from: usize,
) -> Option<(usize, bool)> {
    let mut edit: Option<Option<usize>> = None;
    let mut message = false;
    let mut default = row.by_default.then_some(words.len());
    // The row's verb, when it has verbs: not yet seen.
    let mut verb = row.verbs.is_empty();
    // An operand was read (after it, no verb is implied).
    let mut operand = false;
    // An option git refuses the editor with was given (`config --get`):
    // a word that may be an option can no longer start it.
    let mut excluded = false;
    for item in options::read(row.grammar(), words, from) {
        let (name, index, off, value) = match item {
            Item::Flag { name, index, off } => (name, index, off, Value::Absent),
            Item::Valued {
                name,
                index,
                off,
                value,
            } => (name, index, off, value),
            Item::Unknown { .. } if excluded => continue,
            Item::Unknown { index } => return Some((index, false)),
            Item::Operand { index } => {
                let k = known.get(index).copied().unwrap_or(Known::Exact);
                let w = &words[index];
                let may_be_option = match k {
                    Known::Exact => false,
                    Known::Glob => w.starts_with(['-', '*', '?', '[']),
                    _ => w.starts_with(['-', '$', '`']),
                };
                if may_be_option && !excluded {
                    return Some((index, false));
                }
                if !verb {
                    // The first operand is the verb (`git notes add`).
                    if !row.verbs.contains(&&*words[index]) {
                        return None;
                    }
                    verb = true;
                }
                operand = true;
                continue;
            }
            Item::End { .. } => break,
        };
        // An option before any operand stands for the first verb.
        verb |= row.implied_verb && !operand;
        if row.interactive.contains(&name) && !off {
            return Some((index, true));
        }
        excluded |= row.excludes.contains(&name) && !off;
        if row.edit.contains(&name) {
            edit = Some((!off).then_some(index));
        }
        if row.message.contains(&name) {
            message = !off;
        }
        if row.default_with.contains(&name) && !off {
            default = default.or(Some(index));
        }
        // `--fixup=COMMIT` gives the message; `amend:` and `reword:` edit.
        if name == "fixup" && !off {
            let v = value.text(words).unwrap_or("amend:");
            message |= !(v.starts_with("amend:") || v.starts_with("reword:"));
        }
    }
    if !verb || excluded {
        // `git notes` alone lists the notes; `git config --get -e` is
        // refused.
        return None;
    }
    match (edit, default) {
        (Some(at), _) => at.map(|i| (i, true)),
        (None, Some(at)) if !message => Some((at, true)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    fn why(cmd: &str) -> Option<String> {
        let l = crate::reader::read(cmd);
        let s = &l.segments[0];
        let v = s
            .words
            .iter()
            .position(|w| !super::super::is_assignment(w))
            .unwrap_or(0);
        super::starts_editor(&s.words, &s.known, v, None)
    }

    #[test]
    fn the_editor_starts_without_a_message_or_with_edit() {
        for c in [
            "git commit",
            "git commit --amend",
            "git commit -a",
            "git commit --allow-empty",
            "git commit -m x -e",
            "git commit -am x --edit",
            "git commit -m x --ed",
            "git commit --no-edit --edit -m x",
            "git commit -c HEAD",
            "git commit --reedit-message=HEAD",
            "git commit -t tmpl -m x",
            "git commit --author -m",
            "git commit --fixup=amend:HEAD",
            "git commit --fixup reword:HEAD",
            "git commit -p -m x",
            "git commit --interactive -m x",
            "git commit -m x \"$OPT\"",
            "git commit -m x --no-message",
            "git commit -m x --no-mes",
            "git tag -a -F f --no-file v2",
            "git -C . --no-pager commit --amend",
            "git add -e",
            "git add --ed",
            "git add -ue",
            "git add . -p",
            "git add -i",
            "git branch --edit-description",
            "git branch -a --e",
            "git tag -a v2",
            "git tag -s v2 HEAD",
            "git tag -e -m x v2",
            "EDITOR=true git commit",
            "GIT_EDITOR=vi git commit -a",
            "git merge -e side",
            "git merge --edit --no-ff side",
            "git merge --ed side",
            "git merge --continue",
            "git revert -e HEAD",
            "git revert --edit HEAD~2",
            "git cherry-pick -e side",
            "git cherry-pick -xe side",
            "git notes add HEAD",
            "git notes add",
            "git notes --ref=review append HEAD",
            "git notes edit HEAD",
            "git notes add -c HEAD~1 HEAD",
            "git rebase -i HEAD~3",
            "git rebase --interactive --autosquash main",
            "git rebase --edit-todo",
            "git rebase -ri main",
            "git pull --edit origin main",
            "git config -e",
            "git config --global --edit",
            "git config edit",
            "git config --local edit",
            "git config \"$k\"",
            "git checkout -p",
            "git checkout --patch HEAD -- src",
            "git checkout HEAD~1 --pat -- src",
            "git checkout -qp",
            "git restore -p src",
            "git restore --source=HEAD --patch src",
            "git restore -Sp",
            "git reset -p",
            "git reset --patch HEAD~1",
            "git stash -p",
            "git stash push -p -m wip",
            "git stash push --patch -- src",
            "git stash save -p wip",
            "git stash -q push -p",
            "git stash -k show -p",
        ] {
            assert!(why(c).is_some(), "{c}");
        }
    }

    #[test]
    fn a_message_or_a_quiet_editor_starts_nothing() {
        for c in [
            "git commit -m x",
            "git commit -am x",
            "git commit -amx",
            "git commit --amend --no-edit",
            "git commit --amend -m x",
            "git commit --mes=x -a",
            "git commit -F msg.txt",
            "git commit -F -",
            "git commit -C HEAD",
            "git commit --reuse-message=HEAD --amend",
            "git commit -e -m x --no-edit",
            "git commit --dry-run",
            "git commit --short",
            "git commit --fixup=HEAD",
            "git commit -m x -- -e",
            "GIT_EDITOR=true git commit --amend",
            "GIT_EDITOR=: git commit -e -m x",
            "git add .",
            "git add -A",
            "git add -u src",
            "git add --no-warn-embedded-repo sub",
            "git add -- -e",
            "git branch -a",
            "git branch -v --list 'f*'",
            "git tag v2",
            "git tag -a -m x v2",
            "git tag -l",
            "git branch --list --no-a",
            "git branch --list --no-color --no-column --no-track",
            "git commit -m x --no-author --no-gpg-sign",
            "git tag -a -m x --no-sort v2",
            "git status",
            "git log -e",
            "git merge side",
            "git merge --no-edit side",
            "git merge -m msg --no-ff side",
            "git merge --ff-only origin/main",
            "git merge --abort",
            "git revert HEAD",
            "git revert --no-edit HEAD",
            "git revert -n HEAD~2",
            "git cherry-pick side",
            "git cherry-pick -x side",
            "git cherry-pick --continue",
            "git checkout main",
            "git checkout -b feature",
            "git checkout -- src/app.ts",
            "git checkout --progress -B x",
            "git restore src",
            "git restore --staged --worktree src",
            "git reset --hard HEAD~1",
            "git reset -q -- src",
            "git stash",
            "git stash push -m wip",
            "git stash list -p",
            "git stash show -p stash@{0}",
            "git stash pop",
            "git stash apply --index",
            "git notes",
            "git notes list",
            "git notes show HEAD",
            "git notes add -m review HEAD",
            "git notes append -F note.txt HEAD",
            "git notes add -f -C HEAD~1 HEAD",
            "git notes edit -m x HEAD",
            "git notes remove HEAD",
            "git rebase main",
            "git rebase --onto main feature",
            "git rebase --continue",
            "git rebase --abort",
            "git pull",
            "git pull --rebase origin main",
            "git pull --no-edit origin main",
            "git config user.name",
            "git config --get user.email",
            "git config -l",
            "git config --global --list",
            "git config get user.name",
            "git config list",
            "git config --get \"$k\"",
            "git config --get -e",
            "git config --unset-all \"$k\"",
        ] {
            assert_eq!(why(c), None, "{c}");
        }
    }
}
