//! The judge of a `nopt-exec` row's commands (generate/appended.rs):
//! every word after the row's program words is the script's own (`open`,
//! SPEC §4.5 item 1), which is only true if the program hands each word
//! to the script verbatim and does nothing else with it. Each batch runs
//! the program's words alone first, the baseline; a command with words
//! appended must then
//!
//! - exit as the baseline did;
//! - start a program below the script's shell (a declared `subtree`
//!   helper: `sh -c`) with the argv of one the baseline started there
//!   and exactly the appended words after it (`node tests/test.js a b`);
//! - start nothing else but what the baseline started, those with the
//!   words appended (the program's own argv), and the script's shell
//!   given the baseline's line with the words quoted onto it (read back
//!   as a shell reads them: they must come out as the same words);
//! - itself (not the script's processes, whose effects are the
//!   script's) open, write and connect to nothing the baseline did not
//!   (paths compared with their digits as one: process ids, times).

use super::generate::Case;
use super::{batch, in_state, name, owner, owners, Pin};
use crate::sandbox::{Run, Sandbox, PROJECT};
use crate::trace::Effect;
use crate::{basename, rows_of, Declared};
use permc_shell::facts::described::Described;
use std::collections::{BTreeMap, HashSet};

/// Runs a batch of a `nopt-exec` row's cases after the baseline (the
/// row's program words alone) and judges each against it; a change in
/// the project no declared state holds is each case's alone.
pub fn judge_batch(
    sb: &Sandbox,
    row: &Described,
    table: &BTreeMap<String, Declared>,
    cases: &[Case],
    limit: &str,
    pin: &Pin,
) -> Vec<String> {
    let program: Vec<String> = row.program.iter().map(|w| (*w).to_string()).collect();
    let commands: Vec<Vec<String>> = std::iter::once(program.clone())
        .chain(cases.iter().map(|c| c.words.clone()))
        .collect();
    // A package manager and its script are two node starts: the quick
    // limit is too short for them on a loaded machine, and they end.
    let _ = limit;
    let (run, sections) = match batch(sb, &commands, super::PATIENT, pin) {
        Ok(r) => r,
        Err(e) => return vec![format!("{}: a batch did not run: {e}", name(row))],
    };
    let owners = owners(&run, &commands);
    let mine = |k: usize| -> Vec<&Effect> {
        run.trace
            .effects
            .iter()
            .filter(|e| owner(&run, &owners, e) == Some(k))
            .collect()
    };
    let declared = rows_of(table, &program);
    let subtree: Vec<String> = declared.iter().flat_map(|d| d.subtree.clone()).collect();
    let base = Baseline::of(&run, &mine(0), sections[0].1, &subtree);
    if let Some(why) = base.broken() {
        return vec![format!(
            "`{}` ({}): {why}\n{}",
            program.join(" "),
            name(row),
            sections[0].0
        )];
    }
    let mut bad = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        let words = &case.words[program.len()..];
        let line = shlex::try_join(case.words.iter().map(String::as_str)).unwrap_or_default();
        bad.extend(
            base.judge(&run, &mine(k + 1), sections[k + 1].1, words, &subtree)
                .into_iter()
                .map(|f| format!("`{line}` ({}): {f}", name(row))),
        );
    }
    let stray: Vec<String> = crate::state::changes(&sb.before, &run.after)
        .into_iter()
        .filter(|change| !in_state(&declared, change.split_once(' ').map_or("", |(_, p)| p)))
        .collect();
    if stray.is_empty() {
        return bad;
    }
    if cases.len() > 1 {
        return cases
            .iter()
            .flat_map(|c| judge_batch(sb, row, table, std::slice::from_ref(c), limit, pin))
            .collect();
    }
    let line = shlex::try_join(cases[0].words.iter().map(String::as_str)).unwrap_or_default();
    bad.extend(stray.iter().map(|c| {
        format!(
            "`{line}` ({}): {c} in the project ({PROJECT}), which no declared state holds",
            name(row)
        )
    }));
    bad
}

/// What the program did with no words appended.
pub struct Baseline {
    status: i32,
    /// Each program started: its argv, and whether it ran below the
    /// script's shell.
    execs: Vec<(Vec<String>, bool)>,
    writes: HashSet<String>,
    reads: HashSet<String>,
    connects: HashSet<String>,
}

/// A path with each run of digits read as one mark: a process id, a
/// time or a counter in a name is no other file.
fn shape(path: &str) -> String {
    let mut out = String::new();
    let mut digits = false;
    for c in path.chars() {
        if c.is_ascii_digit() {
            if !digits {
                out.push('#');
            }
            digits = true;
        } else {
            out.push(c);
            digits = false;
        }
    }
    out
}

/// Is the process, or one it descends from, in `shells`?
fn below(run: &Run, pid: u32, shells: &HashSet<u32>) -> bool {
    let mut p = Some(pid);
    while let Some(x) = p {
        if shells.contains(&x) {
            return true;
        }
        p = run.trace.parent.get(&x).copied();
    }
    false
}

/// The programs a command started (but its wrapper), in order, each
/// with whether it ran below a process that started a `subtree` helper
/// (the script's shell): the script's own programs; and the processes
/// that started one.
fn execs<'e>(
    run: &Run,
    mine: &[&'e Effect],
    subtree: &[String],
) -> (Vec<(&'e [String], bool)>, HashSet<u32>) {
    let mut shells: HashSet<u32> = HashSet::new();
    let mut out = Vec::new();
    for e in mine {
        let Effect::Exec {
            pid, argv, failed, ..
        } = e
        else {
            continue;
        };
        if super::wrapped(argv).is_some() {
            continue;
        }
        out.push((&argv[..], below(run, *pid, &shells)));
        let prog = argv.first().map_or("", |a| basename(a));
        if failed.is_none() && subtree.iter().any(|s| s == prog) {
            shells.insert(*pid);
        }
    }
    (out, shells)
}

impl Baseline {
    /// The baseline from its run's effects and exit status.
    pub fn of(run: &Run, mine: &[&Effect], status: i32, subtree: &[String]) -> Baseline {
        let mut b = Baseline {
            status,
            execs: execs(run, mine, subtree)
                .0
                .into_iter()
                .map(|(a, below)| (a.to_vec(), below))
                .collect(),
            writes: HashSet::new(),
            reads: HashSet::new(),
            connects: HashSet::new(),
        };
        for e in mine {
            match e {
                Effect::Write { path, .. } => b.writes.insert(shape(path)),
                Effect::Read { path, .. } => b.reads.insert(shape(path)),
                Effect::Connect { address, .. } => b.connects.insert(address.clone()),
                Effect::Exec { .. } => false,
            };
        }
        b
    }

    /// What is wrong with the baseline itself: it must succeed and run
    /// a script.
    pub fn broken(&self) -> Option<String> {
        if self.status != 0 {
            return Some(format!("the run with no words exits {}", self.status));
        }
        (!self.execs.iter().any(|(_, below)| *below))
            .then(|| "the run with no words starts no program below a script's shell".to_string())
    }

    /// The violations of a command with `words` appended.
    pub fn judge(
        &self,
        run: &Run,
        mine: &[&Effect],
        status: i32,
        words: &[String],
        subtree: &[String],
    ) -> Vec<String> {
        let mut bad = Vec::new();
        if status != self.status {
            bad.push(format!(
                "exits {status}; the run with no words exits {}",
                self.status
            ));
        }
        let mut reached = false;
        let (started, shells) = execs(run, mine, subtree);
        for &(argv, below) in &started {
            let same = self.execs.iter().any(|(b, _)| b[..] == *argv);
            let onto = |b: &[String]| {
                argv.len() == b.len() + words.len()
                    && argv[..b.len()] == *b
                    && argv[b.len()..] == *words
            };
            let appended = self.execs.iter().any(|(b, _)| onto(b));
            reached |= below && self.execs.iter().any(|(b, under)| *under && onto(b));
            let quoted = self.execs.iter().any(|(b, _)| quoted_onto(b, argv, words));
            if !(same || appended || quoted) {
                bad.push(format!(
                    "started {argv:?}, which the run with no words does not start (nor with the words appended)"
                ));
            }
        }
        if !reached {
            let script: Vec<&[String]> = started.iter().filter(|e| e.1).map(|e| e.0).collect();
            bad.push(format!(
                "no program below the script's shell got exactly the words appended to the argv it has with none (it started {script:?})"
            ));
        }
        // What the script's own processes open, write or reach is the
        // script's (its words are open: Node 20 reads `--env-file=F` even
        // after the script's name); what the program itself does is not.
        for e in mine {
            let (Effect::Exec { pid, .. }
            | Effect::Write { pid, .. }
            | Effect::Read { pid, .. }
            | Effect::Connect { pid, .. }) = e;
            if below(run, *pid, &shells) {
                continue;
            }
            let (what, seen) = match e {
                Effect::Write { call, path, .. } => {
                    (format!("{call} {path}"), self.writes.contains(&shape(path)))
                }
                Effect::Read { path, .. } => {
                    (format!("opened {path}"), self.reads.contains(&shape(path)))
                }
                Effect::Connect { address, .. } => (
                    format!("connected to {address}"),
                    self.connects.contains(address),
                ),
                Effect::Exec { .. } => continue,
            };
            if !seen {
                bad.push(format!("{what}, which the run with no words does not"));
            }
        }
        bad
    }
}

/// Is `argv` the baseline's `b` with the words quoted onto its last
/// word (the script's `sh -c LINE`): the rest of that word, read as a
/// shell reads words, exactly `words`?
fn quoted_onto(b: &[String], argv: &[String], words: &[String]) -> bool {
    let (Some((last, head)), Some((mine, same))) = (b.split_last(), argv.split_last()) else {
        return false;
    };
    head == same
        && mine
            .strip_prefix(last.as_str())
            .and_then(shlex::split)
            .is_some_and(|w| w == words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_line_carries_the_words_quoted() {
        let s = |w: &[&str]| w.iter().map(|x| (*x).to_string()).collect::<Vec<_>>();
        let base = s(&["sh", "-c", "node t.js"]);
        let words = s(&["a b", "$(x)", ""]);
        assert!(quoted_onto(
            &base,
            &s(&["sh", "-c", "node t.js 'a b' '$(x)' ''"]),
            &words
        ));
        assert!(!quoted_onto(
            &base,
            &s(&["sh", "-c", "node t.js a b '$(x)' ''"]),
            &words
        ));
        assert!(!quoted_onto(
            &base,
            &s(&["sh", "-c", "node u.js 'a b' '$(x)' ''"]),
            &words
        ));
        assert_eq!(shape("/tmp/_tmp_123_ab/x7"), "/tmp/_tmp_#_ab/x#");
    }
}
