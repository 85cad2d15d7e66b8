//! Commands for a `nopt-exec` row (`pnpm test`, `npx vitest`): every
//! word after the row's program words is the script's (or the
//! package's) own, `open` — the row's claim is that the program hands
//! each to it verbatim and does nothing else with it. So the words tried
//! are the ones the program would read if it read them: the options of
//! the program's other rows (`pnpm install`'s for `pnpm test`) and of
//! the row itself (npm's keys for `npx vitest`), each with a value of its
//! kind; the words that name a program to run (`--script-shell` and
//! `--config.script-shell=` naming the fixture's canary), another
//! directory (`-C`, `--dir`), an npmrc (`--userconfig`, `--env-file`),
//! help and version words, `--`, an ordinary word; and words a shell
//! would read (`a b`, `$(…)`, `;`, quotes), which the program must
//! quote. Each case is judged against the run with no words (rows/
//! appended.rs).

use super::{values, Case, Expect, CANARY};
use permc_shell::facts::described::{Described, Kind, DESCRIBED};

/// The fixture's npmrc that names a canary as the script shell.
const NPMRC: &str = "conf/alt.npmrc";

/// The fixture's canary a script shell would be.
const SCRIPT_SHELL: &str = "/srv/canary/script-shell";

/// How many options' words one case holds: each case is a run of the
/// package manager (two node starts), so its options go a few at a time
/// — any one of them read by the program shows as the case's.
const GROUP: usize = 6;

/// The words tried alone: what the program would read as its own if it
/// read the words after the script's name.
fn alone() -> Vec<Vec<String>> {
    let shell = format!("--script-shell={SCRIPT_SHELL}");
    let config = format!("--config.script-shell={SCRIPT_SHELL}");
    let lists: [&[&str]; 27] = [
        &["x"],
        &["--"],
        &["--", "x"],
        &["x", "--", "y"],
        &["--help"],
        &["-h"],
        &["--version"],
        &["-v"],
        &["-r"],
        &["--recursive"],
        &["--parallel"],
        &["-s"],
        &["--silent"],
        &[&shell],
        &["--script-shell", SCRIPT_SHELL],
        &[&config],
        &["--config.script-shell", SCRIPT_SHELL],
        &["--shell-emulator"],
        &["-C", "src"],
        &["-Csrc"],
        &["--dir=src"],
        &["--dir", "/"],
        &["--userconfig=conf/alt.npmrc"],
        &["--env-file=conf/alt.npmrc"],
        &["--filter", "x"],
        &["-w"],
        &["--workspace-root"],
    ];
    let shellish: [&[&str]; 6] = [
        &["a b"],
        &["$(/srv/canary/command)"],
        &["x;/srv/canary/command"],
        &["'", "\""],
        &["*", "$HOME", "`/srv/canary/command`"],
        &["-", ""],
    ];
    lists
        .iter()
        .chain(&shellish)
        .map(|l| l.iter().map(|w| (*w).to_string()).collect())
        .collect()
}

/// The value an option of `kind` is given: one that shows when the
/// program reads it (an npmrc naming a canary shell, a canary, a
/// directory without a package.json, a file the script never opens).
fn value(kind: Kind) -> &'static str {
    match kind {
        Kind::Config => NPMRC,
        Kind::Command | Kind::Line => CANARY,
        Kind::Code => SCRIPT_SHELL,
        Kind::PathWrite => "oracle-new-appended",
        _ => values(kind).first().copied().unwrap_or("x"),
    }
}

/// Each option's spellings of the program's described rows (the row's
/// own first), as the words of one case each: a flag alone, a valued
/// option with its value attached and in the next word.
fn option_words(row: &Described) -> Vec<Vec<String>> {
    let rows = std::iter::once(row).chain(
        DESCRIBED
            .iter()
            .filter(|r| r.program[0] == row.program[0] && r.program != row.program),
    );
    let mut out: Vec<Vec<String>> = Vec::new();
    for r in rows {
        for (list, kind) in r.options() {
            for s in list.iter().flat_map(|e| e.split(' ')) {
                let name = s.trim_end_matches("[=]");
                let v = value(kind);
                let forms: Vec<Vec<String>> = if kind == Kind::Flag {
                    vec![vec![name.to_string()]]
                } else if name.starts_with("--") {
                    vec![
                        vec![format!("{name}={v}")],
                        vec![name.to_string(), v.to_string()],
                    ]
                } else {
                    vec![
                        vec![format!("{name}{v}")],
                        vec![name.to_string(), v.to_string()],
                    ]
                };
                for f in forms {
                    if !out.contains(&f) {
                        out.push(f);
                    }
                }
            }
        }
    }
    out
}

/// The cases: each word list of [`alone`], then the options' words
/// [`GROUP`] at a time. Every word is an `open` operand.
pub fn cases(row: &Described) -> Vec<Case> {
    let options = option_words(row);
    let groups = options.chunks(GROUP).map(|g| g.concat());
    alone()
        .into_iter()
        .chain(groups)
        .map(|words| Case {
            values: words.iter().map(|w| (Kind::Open, w.clone())).collect(),
            words: row
                .program
                .iter()
                .map(|w| (*w).to_string())
                .chain(words)
                .collect(),
            expect: Expect::Accepted,
            ci: true,
            continuation: false,
        })
        .collect()
}
