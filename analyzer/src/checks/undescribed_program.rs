//! ## What it does
//! Reports an allow entry whose program the catalogue does not describe
//! (SPEC §11 round 4, §4.5): no row gives every option and operand of it,
//! so every word after the entry's tokens is free, as token matching says
//! (SPEC §3.2). The described programs are the rows of
//! `shell/catalogue/described/` (`ls`, `cat`, `grep`…) and the remote
//! and HTTP clients' rows (`gh`, `kubectl`, `curl`…), listed in
//! docs/commands.md. When the name is one edit from a described program
//! (`Terminal(gerp -n)`), the entry has a finding of its own naming that
//! program: a typo or an alias.
//!
//! To keep the noise down, the other programs are one finding for the
//! file, at the first such entry, naming them all: the SPEC §8 defaults
//! name ten programs the catalogue does not describe yet (`git`, `npm`,
//! `cargo`…), one line rather than ten findings.
//!
//! Not reported, to say each thing once: an entry `shell-entry` or
//! `broad-always-expansion` reports (a shell, a runner, a destroyer,
//! `Terminal()`: they say more), an entry `neutralized-by-ceiling`
//! reports (it never approves anyway), an entry whose first word is not
//! plain text (a wildcard, or a glob character `literal-star` reports).
//!
//! ## Why is this bad?
//! For a described program, permc approves only the words its row places:
//! past `Terminal(grep -n)`, an option grep does not have is not covered
//! (§4.5 item 2). For any other program the entry covers whatever follows
//! its tokens: `Terminal(mytool build)` covers `mytool build --upload
//! https://x.example`. That is what the person wrote, and it may be what
//! they meant; this says so. A project row in permc.toml (docs/commands.md,
//! "Project rows") adds what permc should know of the program — its
//! options that take a value, those that run code, its effects.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(mytool build)", "Terminal(gerp -n)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(mytool build --release)", "Terminal(grep -n)"]}
//! ```

use super::{entries, Check};
use crate::FileContext;
use permc_core::facts::catalogue;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::pattern::PatToken;
use permc_grammar::rules::{Entry, List};

/// `undescribed-program`.
pub const CHECK: Check = Check {
    id: CheckId::UndescribedProgram,
    severity: Severity::Info,
    file: "undescribed_program.rs",
    source: include_str!("undescribed_program.rs"),
    run,
};

/// The program an allow entry names, past leading assignments, when the
/// catalogue does not describe it.
fn undescribed(a: &[PatToken]) -> Option<String> {
    let words: Vec<&str> = a
        .iter()
        .map(|t| match t {
            PatToken::Exact(w) => Some(w.as_str()),
            PatToken::Prefix(_) => None,
        })
        .take_while(Option::is_some)
        .flatten()
        .skip_while(|w| permc_core::facts::is_assignment(w))
        .collect();
    // The first word must be plain text: all of it (a prefix wildcard in
    // it names no one program).
    let first = *words.first()?;
    let skipped = a
        .iter()
        .take_while(|t| matches!(t, PatToken::Exact(w) if permc_core::facts::is_assignment(w)))
        .count();
    // A glob character in it is `literal-star`'s (`Terminal(src/*)`).
    if !matches!(a.get(skipped), Some(PatToken::Exact(_))) || first.contains(['*', '?', '[']) {
        return None;
    }
    if catalogue::describes(&words).is_some() {
        return None;
    }
    Some(permc_core::facts::basename(first).to_string())
}

/// The described program `name` is likely a typo or an alias of: one
/// edit away (a letter added, dropped, changed, or two swapped) for a
/// name of four letters or more, two swapped letters for a shorter one;
/// never a program the catalogue knows by that name.
fn nearest(name: &str) -> Option<(&'static str, &'static str)> {
    if catalogue::program_names().contains(&name) {
        return None;
    }
    catalogue::described_programs()
        .map(|(p, v)| (p, v, distance(name, p)))
        .filter(|&(p, _, d)| d == 1 && (name.chars().count() >= 4 || swapped(name, p)))
        .min_by_key(|&(_, _, d)| d)
        .map(|(p, v, _)| (p, v))
}

/// Is `b` `a` with two neighbouring letters swapped?
fn swapped(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    a.len() == b.len() && {
        let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        matches!(diff[..], [i, j] if j == i + 1 && a[i] == b[j] && a[j] == b[i])
    }
}

/// A word or an entry shortened for a message (a long one is quoted in
/// part).
fn short(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// The optimal string alignment distance: insertions, deletions,
/// substitutions and swaps of neighbours, each one edit.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    // Each undescribed program with its entries, in the file's order.
    let mut programs: Vec<(String, Vec<&Entry>)> = Vec::new();
    for e in entries(cx) {
        if e.list != List::Allow {
            continue;
        }
        let Some(a) = e.pattern.tokens() else {
            continue;
        };
        if super::broad_always_expansion::reports(cx, a)
            || super::shell_entry::shell_entry(a).is_some()
            || super::neutralized_by_ceiling::reports(cx, e)
        {
            continue;
        }
        let Some(program) = undescribed(a) else {
            continue;
        };
        // A project row that describes the program (`complete = true`,
        // SPEC §4.5 item 6) is a description.
        let by_project = cx
            .options
            .commands
            .rows()
            .iter()
            .any(|r| r.description.complete && r.names(&program));
        if by_project {
            continue;
        }
        match programs.iter_mut().find(|(p, _)| *p == program) {
            Some((_, es)) => es.push(e),
            None => programs.push((program, vec![e])),
        }
    }
    let describe = "a project row in permc.toml (docs/commands.md, \"Project rows\") says what permc should know of a program: with `complete = true` and its options by kind, it describes the program, and an allow entry then covers only the words the row places";
    // A likely typo: a finding of its own, at the entry, naming the
    // described program.
    let (typos, rest): (Vec<_>, Vec<_>) = programs
        .into_iter()
        .partition(|(p, _)| nearest(p).is_some());
    for (program, es) in typos {
        let Some((p, version)) = nearest(&program) else {
            continue;
        };
        for e in es {
            out.push(
                Diagnostic::new(
                    CHECK.id,
                    CHECK.severity,
                    cx.name,
                    e.span,
                    format!("the catalogue does not describe `{program}`: past `{}` every word is free, as token matching says", short(&e.pattern.text)),
                )
                .with_help(format!("if you meant `{p}`, which the catalogue describes ({version}), write `{p}`; else {describe}")),
            );
        }
    }
    // The others: one finding for the file, at the first such entry (a
    // file of seeded defaults names ten such programs).
    let Some(first) = rest.first().map(|(_, es)| es[0]) else {
        return;
    };
    let names: Vec<String> = rest
        .iter()
        .map(|(p, _)| format!("`{}`", short(p)))
        .collect();
    let count: usize = rest.iter().map(|(_, es)| es.len()).sum();
    let text = short(&first.pattern.text);
    let past = match count {
        1 => format!("`{text}`"),
        2 => format!("`{text}` and 1 more entry"),
        n => format!("`{text}` and {} more entries", n - 1),
    };
    let message = format!(
        "the catalogue does not describe {}: past {past} every word is free, as token matching says",
        names.join(", ")
    );
    out.push(
        Diagnostic::new(CHECK.id, CHECK.severity, cx.name, first.span, message).with_help(format!(
            "{describe}; docs/commands.md lists the programs permc describes"
        )),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_likely_typo_names_the_described_program() {
        assert_eq!(nearest("gerp").map(|n| n.0), Some("grep"));
        assert_eq!(nearest("grpe").map(|n| n.0), Some("grep"));
        assert_eq!(nearest("sotr").map(|n| n.0), Some("sort"));
        assert_eq!(nearest("kubctl").map(|n| n.0), Some("kubectl"));
        // Real programs of their own, or too far.
        assert_eq!(nearest("ps"), None);
        assert_eq!(nearest("cut"), None);
        assert_eq!(nearest("mytool"), None);
        assert_eq!(nearest("grep"), None);
    }

    #[test]
    fn distances() {
        assert_eq!(distance("gerp", "grep"), 1);
        assert_eq!(distance("grep", "grep"), 0);
        assert_eq!(distance("cat", "tac"), 2);
        assert_eq!(distance("", "ls"), 2);
    }
}
