//! Every described row (`shell/catalogue/described/`, SPEC §4.5
//! items 4 and 5) checked against the real program: the commands
//! generate.rs makes from the row run in the sandbox under the tracer,
//! and each must do no more than the row declares and be read by the
//! program as the row reads it.
//!
//! Commands run in batches, one sandbox a batch: bash runs each under
//! `timeout` (a program that follows a file, `tail -f`, ends), and every
//! effect belongs to the command whose `timeout` it descends from, so a
//! command is judged by its own words alone.

mod appended;
pub mod bless;
pub mod generate;

use super::sandbox::{Run, Sandbox, PROJECT};
use super::trace::Effect;
use super::{basename, endpoint_declared, rows_of, Declared};
use generate::{Case, Expect};
use permc_shell::facts::described::{Described, Kind, CURL, EXACT, GIT, GIT_REVISIONS, NOPT_EXEC};
use std::collections::{BTreeMap, HashMap};

/// `timeout`'s limit for each command, in seconds: one is plenty for a
/// program that ends, and one that follows a file is judged by what it
/// did by then. A command that should have been refused at once but ran
/// out of it (a loaded machine) is judged again alone with [`PATIENT`].
const QUICK: &str = "1";
const PATIENT: &str = "5";

/// The wrapper a generated command runs under: its own words, then the
/// command's.
fn wrapper(limit: &str) -> [&str; 4] {
    ["timeout", "-k", "1", limit]
}

/// The command a wrapper's argv runs, when it is one.
fn wrapped(argv: &[String]) -> Option<&[String]> {
    let limit = argv.get(3)?;
    (argv.len() > 4 && argv[..4] == wrapper(limit) && (limit == QUICK || limit == PATIENT))
        .then(|| &argv[4..])
}

/// Commands in one sandbox run.
const BATCH: usize = 40;

/// What checking a row found.
pub enum Outcome {
    /// No command was generated (a grammar the generator does not read).
    NotGenerated(String),
    /// The program is missing here or at another version.
    NotHere(String),
    /// The row was checked: the program's own version line, how many
    /// commands ran, and every violation.
    Checked {
        version: String,
        ran: usize,
        violations: Vec<String>,
    },
}

/// The row's name in a violation: its program and version.
pub fn name(row: &Described) -> String {
    format!("{} ({})", row.program.join(" "), row.version)
}

/// Checks rows against the real programs: each program's version, its
/// `--help` against the row's options, and the commands generated from
/// the row (the default tier's, or all with `full`), every row's batches
/// in one pool.
pub fn check<'r>(
    sb: &Sandbox,
    rows: &[&'r Described],
    table: &BTreeMap<String, Declared>,
    full: bool,
) -> Vec<(&'r Described, Outcome)> {
    let ready = pool(rows, |row| {
        let skipped = table
            .get(&row.program.join(" "))
            .and_then(|d| d.not_generated.clone());
        if let Some(why) = skipped {
            return Err(Outcome::NotGenerated(format!("not generated: {why}")));
        }
        let cases = generate::cases(row).map_err(Outcome::NotGenerated)?;
        let (version, help, pin) = probe(sb, row, table).map_err(Outcome::NotHere)?;
        let declared = table.get(&row.program.join(" "));
        let left_out: Vec<String> = declared
            .into_iter()
            .flat_map(|d| d.left_out.iter().chain(&d.passed_on))
            .cloned()
            .collect();
        let chosen: Vec<Case> = cases
            .into_iter()
            .filter(|c| (full || c.ci) && !names_left_out(row, c, &left_out))
            .collect();
        let chosen = within_tier(chosen, full);
        let skip: Vec<&str> = declared
            .into_iter()
            .flat_map(|d| d.not_options.iter().chain(&d.left_out))
            .map(String::as_str)
            .collect();
        Ok((version, missing_from_row(row, &help, &skip), chosen, pin))
    });
    let ready = shared_once(rows, ready, full);
    let work: Vec<(usize, &[Case], &Pin)> = ready
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.as_ref().ok().map(|(_, _, cases, pin)| (i, cases, pin)))
        .flat_map(|(i, cases, pin)| cases.chunks(BATCH).map(move |c| (i, c, pin)))
        .collect();
    let found = pool(&work, |(i, cases, pin)| {
        (*i, judge_batch(sb, rows[*i], table, cases, QUICK, pin))
    });
    rows.iter()
        .zip(ready)
        .enumerate()
        .map(|(i, (row, r))| {
            let outcome = match r {
                Err(o) => o,
                Ok((version, mut violations, cases, _)) => {
                    violations.extend(found.iter().filter(|f| f.0 == i).flat_map(|f| f.1.clone()));
                    Outcome::Checked {
                        version,
                        ran: cases.len(),
                        violations,
                    }
                }
            };
            (*row, outcome)
        })
        .collect()
}

/// A row's check before its commands run: its version line, what its
/// help lists that it lacks, its commands and where its program is.
type Ready = Result<(String, Vec<String>, Vec<Case>, Pin), Outcome>;

/// The default tier runs a command of the options rows share once: a
/// case of a `git-revisions` row whose words past the program's are a
/// case of an earlier one (`git log`, `git show` and `git diff` read
/// git's shared option lists alike, through setup_revisions) is left to
/// the full run.
fn shared_once(rows: &[&Described], ready: Vec<Ready>, full: bool) -> Vec<Ready> {
    if full {
        return ready;
    }
    let mut seen = std::collections::HashSet::new();
    rows.iter()
        .zip(ready)
        .map(|(row, r)| {
            r.map(|(version, missing, cases, pin)| {
                let n = row.program.len();
                let cases = cases
                    .into_iter()
                    .filter(|c| {
                        let key = (row.program[0], row.grammar, c.words[n..].to_vec(), c.expect);
                        row.grammar != GIT_REVISIONS || seen.insert(key)
                    })
                    .collect();
                (version, missing, cases, pin)
            })
        })
        .collect()
}

/// The most cases of one row the default tier runs: every row's every
/// case ran when it was blessed (`PERMC_ORACLE_FULL=1` runs them again);
/// the default tier checks that the programs installed still read the
/// rows so, within the suite's time over 146 rows (curl's tier alone was
/// 747 cases).
const TIER_CAP: usize = 60;

/// A row's default-tier cases, at most [`TIER_CAP`] of them: an even
/// stride through them, so that each part of the generation (operands,
/// options in order, clusters, prefixes, negations) keeps its share.
fn within_tier(cases: Vec<Case>, full: bool) -> Vec<Case> {
    if full || cases.len() <= TIER_CAP {
        return cases;
    }
    let stride = cases.len().div_ceil(TIER_CAP);
    cases.into_iter().step_by(stride).collect()
}

/// `f` over `items` four at a time (two cores; a batch waits on its
/// commands' time limits as much as it runs), the results in the
/// items' order.
fn pool<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, f(item)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// The program's version line (`ls (GNU coreutils) 9.1`), its `--help`
/// (or git's parse-options usage, `git SUB -h`) and where it runs from,
/// read in the sandbox; an error when it is missing or at another
/// version than the row's. The program at the row's version is the
/// first of PATH's and /usr/bin's whose `--version` names it (SPEC §4.3:
/// Debian's git 2.39.5 is /usr/bin/git, a newer one may come first on
/// PATH).
fn probe(
    sb: &Sandbox,
    row: &Described,
    table: &BTreeMap<String, Declared>,
) -> Result<(String, String, Pin), String> {
    // A shell's builtin (bash's `printf`) is the shell's at its version.
    let program = table
        .get(row.program[0])
        .and_then(|d| d.builtin_of.clone())
        .unwrap_or_else(|| row.program[0].to_string());
    let python = table.get(&program).is_some_and(|d| d.python_scripts);
    let found: Vec<String> = python
        .then(|| python_script(&program))
        .flatten()
        .into_iter()
        .chain(candidates(&program))
        .collect();
    if found.is_empty() {
        return Err(format!("{program} is not installed here"));
    }
    let (at, line) = at_the_rows_version(sb, row, table, &program, &found)?;
    let path = &found[at];
    let dir = path.rsplit_once('/').map_or(".", |(d, _)| d);
    let mut pin = Pin {
        prelude: format!(
            "export PATH={}:\"$PATH\"",
            shlex::try_quote(dir).map_err(|e| e.to_string())?
        ),
        builtin: Vec::new(),
    };
    if program != row.program[0] {
        pin.builtin = vec![path.clone(), "-c".into(), "\"$@\"".into(), program.clone()];
    }
    let help = pin_env_and_read_help(sb, row, table, (&program, path), &mut pin)?;
    Ok((line, help, pin))
}

/// Which of `found` (the places `program` runs from) is at the row's
/// version, and the line that names it; an error saying what is here
/// when none is.
fn at_the_rows_version(
    sb: &Sandbox,
    row: &Described,
    table: &BTreeMap<String, Declared>,
    program: &str,
    found: &[String],
) -> Result<(usize, String), String> {
    let version_args = table
        .get(program)
        .map(|d| d.version_args.clone())
        .filter(|a| !a.is_empty())
        .unwrap_or_else(|| vec!["--version".to_string()]);
    // scp prints no version: `ssh -V` from its directory does.
    let sibling = table.get(program).and_then(|d| d.version_program.as_ref());
    let versions: Vec<Vec<String>> = found
        .iter()
        .map(|p| {
            let exe = match (sibling, p.rsplit_once('/')) {
                (Some(s), Some((dir, _))) => format!("{dir}/{s}"),
                _ => p.clone(),
            };
            std::iter::once(exe).chain(version_args.clone()).collect()
        })
        .collect();
    let (_, sections) = batch(sb, &versions, PATIENT, &Pin::default())?;
    let first_line = |out: &str| {
        out.lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .to_string()
    };
    // The line that names the version (`mix --version` prints Erlang's
    // first), else the first.
    let version_line = |out: &str| {
        out.lines()
            .find(|l| names_version(l, row))
            .map(str::to_string)
    };
    let Some(at) = sections
        .iter()
        .position(|(out, status)| *status == 0 && version_line(out).is_some())
    else {
        let (out, status) = &sections[0];
        if *status == 127 || *status == 126 {
            return Err(format!("{program} is not installed here"));
        }
        return Err(format!(
            "{program} here is `{}`, the row describes {}",
            first_line(out),
            row.version
        ));
    };
    let line = version_line(&sections[at].0).unwrap_or_default();
    Ok((at, line))
}

/// Adds to `pin` the variables that make the program's helpers its own
/// (asked of the program at `path`), and returns its `--help` (or git's
/// usage), empty when the row lists neither.
fn pin_env_and_read_help(
    sb: &Sandbox,
    row: &Described,
    table: &BTreeMap<String, Declared>,
    (program, path): (&str, &str),
    pin: &mut Pin,
) -> Result<String, String> {
    // The variables that make the program's helpers its own.
    let env: Vec<(&str, &str)> = table
        .get(program)
        .map(|d| {
            d.pinned_env
                .iter()
                .filter_map(|e| e.split_once('='))
                .collect()
        })
        .unwrap_or_default();
    let mut asks: Vec<Vec<String>> = env
        .iter()
        .map(|(_, o)| vec![path.to_string(), o.to_string()])
        .collect();
    // A row that lists `--help` is asked for it; a row of git's
    // parse-options that lists `-h`, for its usage.
    let has = |s: &str| row.flags.iter().any(|e| e.split(' ').any(|x| x == s));
    let help_word = if has("--help") {
        Some("--help")
    } else if gits(row) && has("-h") {
        Some("-h")
    } else {
        None
    };
    if let Some(h) = help_word {
        asks.push(
            row.program
                .iter()
                .map(|w| w.to_string())
                .chain([h.to_string()])
                .collect(),
        );
    }
    let (_, sections) = batch(sb, &asks, PATIENT, pin)?;
    for ((var, _), (out, _)) in env.iter().zip(&sections) {
        let value = out.trim();
        pin.prelude.push_str(&format!(
            " {var}={}",
            shlex::try_quote(value).map_err(|e| e.to_string())?
        ));
    }
    Ok(help_word.map_or(String::new(), |_| sections[env.len()].0.clone()))
}

/// Does a version line name the row's version (every word of it, before
/// any ` / `)?
fn names_version(line: &str, row: &Described) -> bool {
    let wanted = row.version.split(" / ").next().unwrap_or(row.version);
    let tokens: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || "(),".contains(c))
        .collect();
    // A program that prints its bare version (`npm --version`: `11.19.1`)
    // is matched by the row's words that hold a digit.
    let bare = tokens.len() == 1;
    let matches =
        |w: &&str| tokens.contains(w) || (bare && !w.contains(|c: char| c.is_ascii_digit()));
    wanted.split_whitespace().all(|w| matches(&w))
}

/// A Python console script in the scripts directory of the `python3`
/// on PATH (sysconfig's), when it is there.
fn python_script(program: &str) -> Option<String> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_path('scripts'))",
        ])
        .output()
        .ok()?;
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let file = format!("{dir}/{program}");
    (dir.starts_with('/') && std::path::Path::new(&file).is_file()).then_some(file)
}

/// The program's executables in PATH's order, then /usr/bin's, each
/// file once.
fn candidates(program: &str) -> Vec<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for dir in path
        .split(':')
        .chain(["/usr/bin"])
        .filter(|d| d.starts_with('/'))
    {
        let file = format!("{dir}/{program}");
        let Ok(real) = std::fs::canonicalize(&file) else {
            continue;
        };
        let runs = std::fs::metadata(&real).is_ok_and(|m| {
            use std::os::unix::fs::PermissionsExt;
            m.is_file() && m.permissions().mode() & 0o111 != 0
        });
        if runs && !seen.contains(&real) {
            seen.push(real);
            out.push(file);
        }
    }
    out
}

/// Where a row's commands run the program from: a shell line before
/// them that puts the program at the row's version first on PATH and
/// sets the variables its declared `pinned_env` names.
#[derive(Debug, Clone, Default)]
pub struct Pin {
    prelude: String,
    /// Words before a command's own: a shell's builtin runs as
    /// `bash -c '"$@"' bash PROG ARGS` (after `timeout`, which would run
    /// the program of that name instead).
    builtin: Vec<String>,
}

/// Does a case name an option the row leaves out on purpose (declared
/// `left_out`): the spelling, or a prefix of a long one?
fn names_left_out(row: &Described, case: &Case, left_out: &[String]) -> bool {
    case.words[row.program.len()..].iter().any(|w| {
        let name = w.split('=').next().unwrap_or(w);
        left_out
            .iter()
            .any(|s| s == name || (s.starts_with("--") && name.len() > 2 && s.starts_with(name)))
    })
}

/// Every option the program's `--help` lists that the row lacks, but
/// the words declared as none or left out (`skip`).
fn missing_from_row(row: &Described, help: &str, skip: &[&str]) -> Vec<String> {
    let spellings: Vec<&str> = row
        .options()
        .iter()
        .flat_map(|(list, _)| list.iter().flat_map(|e| e.split(' ')))
        .map(|s| {
            // The suffixes of the grammars' spellings (README.md).
            ["[=]", "[0]", "[2]", "[;]", "[+]", "[N]", "[#]", "[?]"]
                .iter()
                .fold(s, |s, x| s.trim_end_matches(x))
        })
        .collect();
    let mut listed: Vec<String> = Vec::new();
    for line in help.lines() {
        let t = line.trim_start();
        // git's usage lines (`usage: git remote add [--mirror…]`) name its
        // subcommands' options; the list under them is the command's.
        if gits(row) && (t.starts_with("usage:") || t.starts_with("or:")) {
            continue;
        }
        // `  -a, --all`: a short option where a line of the list begins.
        if line.starts_with(' ') && t.len() >= 2 && t.starts_with('-') && !t.starts_with("--") {
            let end = t[1..]
                .find(|c: char| !c.is_alphanumeric())
                .map_or(t.len(), |n| n + 1);
            if end == 2 && t.is_char_boundary(2) {
                listed.push(t[..2].to_string());
            }
        }
        // Every `--long` spelling anywhere in the text.
        let mut rest = line;
        while let Some(at) = rest.find("--") {
            let tail = &rest[at..];
            let len = tail[2..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(tail.len(), |n| n + 2);
            let word = &tail[..len];
            let before = rest[..at].chars().last();
            if len > 2
                && !word[2..].starts_with('-')
                && before.is_none_or(|c| !c.is_alphanumeric() && c != '-')
            {
                listed.push(word.to_string());
            }
            rest = &tail[len.max(2)..];
        }
    }
    listed.sort();
    listed.dedup();
    // parse-options reads `--no-NAME` for an option `--NAME`, and `--NAME`
    // for one named `--no-NAME` (the `git` grammar derives them; a
    // `git-revisions` row lists each).
    let negation = |s: &str| {
        matches!(row.grammar, GIT | CURL)
            && !row.no_negation.contains(&s)
            && match s.strip_prefix("--no-") {
                Some(n) => spellings.contains(&format!("--{n}").as_str()),
                None => spellings.contains(&format!("--no-{}", &s[2..]).as_str()),
            }
    };
    listed
        .into_iter()
        .filter(|s| {
            let negated = s.starts_with("--") && negation(s);
            !(spellings.contains(&s.as_str()) || skip.contains(&s.as_str()) || negated)
        })
        .map(|s| {
            format!(
                "{}: `{} --help` lists `{s}`, which the row does not have",
                name(row),
                row.program.join(" ")
            )
        })
        .collect()
}

/// The marker of each command's output in a batch.
const MARK: &str = "@@permc-oracle";

/// Runs commands in one sandbox, each under [`wrapper`]: the run and,
/// per command, its output (stdout and stderr) and exit status (`-1`
/// when it has none: the batch was cut).
fn batch(
    sb: &Sandbox,
    commands: &[Vec<String>],
    limit: &str,
    pin: &Pin,
) -> Result<(Run, Vec<(String, i32)>), String> {
    let mut script = String::new();
    if !pin.prelude.is_empty() {
        script.push_str(&pin.prelude);
        script.push('\n');
    }
    for (k, words) in commands.iter().enumerate() {
        let line = shlex::try_join(
            wrapper(limit)
                .iter()
                .copied()
                .chain(pin.builtin.iter().map(String::as_str))
                .chain(words.iter().map(String::as_str)),
        )
        .map_err(|e| e.to_string())?;
        script.push_str(&format!(
            "printf '\\n{MARK} {k} start\\n'; {line} 2>&1; printf '\\n{MARK} {k} exit %d\\n' $?\n"
        ));
    }
    // Each command ends within two seconds; the batch's own limit is for
    // a loaded machine.
    let run = sb.run_for(&script, PROJECT, "120")?;
    let mut sections = vec![(String::new(), -1); commands.len()];
    let mut current = None;
    for l in run.output.lines() {
        if let Some(rest) = l.strip_prefix(MARK) {
            let f: Vec<&str> = rest.split_whitespace().collect();
            let k: Option<usize> = f.first().and_then(|k| k.parse().ok());
            match (k, f.get(1), f.get(2)) {
                (Some(k), Some(&"start"), _) if k < commands.len() => current = Some(k),
                (Some(k), Some(&"exit"), Some(n)) if k < commands.len() => {
                    sections[k].1 = n.parse().unwrap_or(-1);
                    current = None;
                }
                _ => {}
            }
            continue;
        }
        if let Some(k) = current {
            sections[k].0.push_str(l);
            sections[k].0.push('\n');
        }
    }
    Ok((run, sections))
}

/// Judges generated commands of a row on the real program: each
/// violation with the command, the row and the effect.
pub fn judge(
    sb: &Sandbox,
    row: &Described,
    table: &BTreeMap<String, Declared>,
    cases: &[Case],
) -> Vec<String> {
    let chunks: Vec<&[Case]> = cases.chunks(BATCH).collect();
    pool(&chunks, |c| {
        judge_batch(sb, row, table, c, QUICK, &Pin::default())
    })
    .into_iter()
    .flatten()
    .collect()
}

fn judge_batch(
    sb: &Sandbox,
    row: &Described,
    table: &BTreeMap<String, Declared>,
    cases: &[Case],
    limit: &str,
    pin: &Pin,
) -> Vec<String> {
    if row.grammar == NOPT_EXEC {
        return appended::judge_batch(sb, row, table, cases, limit, pin);
    }
    let commands: Vec<Vec<String>> = cases.iter().map(|c| c.words.clone()).collect();
    let (run, sections) = match batch(sb, &commands, limit, pin) {
        Ok(r) => r,
        Err(e) => return vec![format!("{}: a batch did not run: {e}", name(row))],
    };
    let owners = owners(&run, &commands);
    let allows = what_each_case_allows(row, table, cases);
    // Out of time where a refusal was due, or cut: judged again alone.
    let slow: Vec<usize> = (0..cases.len())
        .filter(|&k| {
            let status = sections[k].1;
            limit == QUICK
                && (status < 0
                    || ((status == 124 || status == 137) && cases[k].expect != Expect::Accepted))
        })
        .collect();
    let mut bad = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        if slow.contains(&k) {
            bad.extend(judge_batch(
                sb,
                row,
                table,
                std::slice::from_ref(case),
                PATIENT,
                pin,
            ));
            continue;
        }
        let declared = rows_of(table, &case.words);
        let mut found: Vec<String> = spelling(row, case, &sections[k])
            .filter(|_| !refused_alone(&declared, case))
            .into_iter()
            .collect();
        for e in &run.trace.effects {
            if owner(&run, &owners, e) == Some(k) {
                found.extend(allows[k].judge(e, case, &declared));
            }
        }
        let line = shlex::try_join(case.words.iter().map(String::as_str)).unwrap_or_default();
        bad.extend(
            found
                .into_iter()
                .map(|f| format!("`{line}` ({}): {f}", name(row))),
        );
    }
    // A change in the project no command's words or declared state
    // allow: a batch cannot say whose it is, each command alone can.
    let declared = rows_of(table, &commands[0]);
    let stray: Vec<String> = super::state::changes(&sb.before, &run.after)
        .into_iter()
        .filter(|change| {
            let path = change.split_once(' ').map_or("", |(_, p)| p);
            let full = format!("{PROJECT}/{path}");
            !allows.iter().any(|a| a.writes_to(&full)) && !in_state(&declared, path)
        })
        .collect();
    if !stray.is_empty() {
        if cases.len() == 1 {
            let line = shlex::try_join(commands[0].iter().map(String::as_str)).unwrap_or_default();
            bad.extend(stray.iter().map(|c| {
                format!("`{line}` ({}): {c} in the project, which no path-write or dir-write word names", name(row))
            }));
        } else {
            return cases
                .iter()
                .flat_map(|c| judge_batch(sb, row, table, std::slice::from_ref(c), limit, pin))
                .collect();
        }
    }
    bad
}

/// What each case's words and declared rows allow its command to do.
fn what_each_case_allows(
    row: &Described,
    table: &BTreeMap<String, Declared>,
    cases: &[Case],
) -> Vec<Allow> {
    // A case whose last word the row leaves unplaced (a valued option
    // with no value) is no entry's to cover: what it does is not the
    // row's to say (GNU Wget gives the option its first operand).
    cases
        .iter()
        .map(|c| {
            let mut a = Allow {
                prefixes: rows_of(table, &c.words).iter().any(|d| d.prefixes),
                ..Allow::of(c, row.writer)
            };
            a.anything |= trailing_unplaced(row, c);
            // Names the program makes from a path-write word (declared
            // `write_suffixes`: rsync's `--write-batch=F` writes `F.sh`).
            let made: Vec<String> = rows_of(table, &c.words)
                .iter()
                .flat_map(|d| &d.write_suffixes)
                .flat_map(|s| a.writes.iter().map(move |w| format!("{w}{s}")))
                .collect();
            a.writes.extend(made);
            a
        })
        .collect()
}

/// Does the program search the cwd in this case: declared `searches_cwd`
/// and given no `path-read` word?
fn searches_cwd(declared: &[&Declared], case: &Case) -> bool {
    declared.iter().any(|d| d.searches_cwd)
        && !case.values.iter().any(|(k, _)| *k == Kind::PathRead)
}

/// Does a command the row accepts hold a word the program refuses for
/// its context or value, not its spelling (declared.toml's
/// `refused_alone`)?
fn refused_alone(declared: &[&Declared], case: &Case) -> bool {
    case.expect == Expect::Accepted
        && declared.iter().any(|d| {
            d.refused_alone
                .iter()
                .any(|r| case.words.iter().any(|w| w.starts_with(r.as_str())))
        })
}

/// Is a project path declared state of the program (a tree ends in
/// `/`, a name's start in `*`, a path's end begins with `*`)?
fn in_state(declared: &[&Declared], path: &str) -> bool {
    declared.iter().any(|d| {
        d.state.iter().any(|s| {
            // `*.swp`: a name that ends so, anywhere in the project.
            let suffix = s.strip_prefix('*').filter(|x| !x.contains('/'));
            suffix.is_some_and(|x| path.ends_with(x) && !path.starts_with(".git/"))
                || path == s.trim_end_matches('/')
                || (s.ends_with('/') && path.starts_with(s.as_str()))
                || s.strip_suffix('*').is_some_and(|p| path.starts_with(p))
                || s.strip_prefix('*').is_some_and(|p| path.ends_with(p))
        })
    })
}

/// The process of each command's wrapper (the `timeout` exec'd with its
/// words), by pid.
fn owners(run: &Run, commands: &[Vec<String>]) -> HashMap<u32, usize> {
    let mut out = HashMap::new();
    for e in &run.trace.effects {
        if let Effect::Exec {
            pid,
            argv,
            failed: None,
            ..
        } = e
        {
            if let Some(command) = wrapped(argv) {
                if let Some(k) = commands.iter().position(|c| c[..] == *command) {
                    out.insert(*pid, k);
                }
            }
        }
    }
    out
}

/// The command an effect belongs to: the wrapper its process descends
/// from.
fn owner(run: &Run, owners: &HashMap<u32, usize>, e: &Effect) -> Option<usize> {
    let (Effect::Exec { pid, .. }
    | Effect::Write { pid, .. }
    | Effect::Read { pid, .. }
    | Effect::Connect { pid, .. }) = e;
    let mut p = Some(*pid);
    while let Some(x) = p {
        if let Some(k) = owners.get(&x) {
            return Some(*k);
        }
        p = run.trace.parent.get(&x).copied();
    }
    None
}

/// How the program refused an option, by its exit status and the
/// message getopt_long or git (parse-options' `error:`, setup_revisions'
/// `fatal:`) printed; `None` when it refused none.
fn refusal(out: &str, status: i32) -> Option<(Expect, &str)> {
    if status == 0 {
        return None;
    }
    out.lines().find_map(|l| {
        // git's messages begin its lines; its usage text, which follows
        // them, describes options in words that must not count.
        let git = |m: &str| (l.starts_with("error: ") || l.starts_with("fatal: ")) && l.contains(m);
        // 2.39.5 aborts on a negation of `-I` (diff.c: "option callback
        // does not expect negation"): refused, as an unknown option is.
        let aborted = l.starts_with("BUG: ") && l.contains("negation");
        // find's own messages (findutils 4.9), then getopt_long's,
        // clap's and git's.
        let how = if l.contains("unknown predicate") || ssh_vim_unknown(l) {
            Expect::Unknown
        } else if l.contains("missing argument to")
            // mawk's (`mawk: option -f lacks argument`).
            || l.contains(" lacks argument")
            || l.contains("test needs an argument")
            || find_took_itself(l)
        {
            Expect::NeedsValue
        } else if l.contains("is ambiguous") || git("ambiguous option") {
            Expect::Ambiguous
        } else if [
            "unrecognized option",
            // dd's refusal of an operand whose key it lacks.
            "unrecognized operand",
            "invalid option",
            "invalid trailing option",
            "option used in invalid context",
            "error: unexpected argument '-",
            // clap 2's (ripgrep 13).
            "which wasn't expected, or isn't valid in this context",
            // mawk's (`mawk: not an option: --x`).
            ": not an option: ",
        ]
        .iter()
        .any(|m| l.contains(m))
            // popt's as rsync prints them (`rsync: --verb: unknown option`).
            || l.ends_with(": unknown option")
            || ["unknown option", "unknown switch", "unrecognized argument"]
                .iter()
                .any(|m| git(m))
            || aborted
            // curl 7.88's own messages: `option --x: is unknown`, a
            // negation of a valued option.
            || l.ends_with(": is unknown")
            // argparse's (pytest: `pytest: error: unrecognized
            // arguments: --x`).
            || l.contains(": error: unrecognized arguments: ")
            || l.contains("used '--no-' for option that isn't a boolean")
            // Elixir's OptionParser as mix prints it (`--x : Unknown
            // option. Did you mean --y?`).
            || l.contains(" : Unknown option")
        {
            Expect::Unknown
        } else if l.contains("requires an argument")
            || l.ends_with(": requires parameter")
            // Vim's (ssh's getopt says `option requires an argument`).
            || l.contains("Argument missing after")
            || l.contains(" : Missing argument of type")
            // Go's flag package (`go test -p`).
            || l.starts_with("flag needs an argument: -")
            || (l.contains(": error: argument ") && l.ends_with(": expected one argument"))
            || git("requires a value")
            || git("must come before non-option arguments")
            || l.contains("a value is required for '-")
            || l.contains("requires a value but none was supplied")
            || l.ends_with(": missing argument")
            // cargo's own refusals of an option whose value clap takes as
            // optional (`-p`, `--bin`, `--target`… alone).
            || l.contains("\" takes one argument")
            || l.contains("\" requires a SPEC format value")
            || l.contains("\" takes a target architecture as an argument")
        {
            Expect::NeedsValue
        } else if l.contains("doesn't allow an argument")
            || l.ends_with(": option does not take an argument")
            || git("takes no value")
            || (l.contains("error: unexpected value '") && l.contains("no more were expected"))
            // A negation given one: `--no-color : Expected type , got "x"`.
            || l.contains(" : Expected type boolean, got")
            || l.contains(" : Expected type , got")
            || (l.starts_with("invalid boolean value \"") && l.ends_with(": parse error"))
            || (l.contains(": error: argument ") && l.contains(": ignored explicit argument '"))
        {
            Expect::NoValue
        } else {
            return None;
        };
        Some((how, l))
    })
}

/// OpenSSH's refusals of an option it does not have (OpenBSD getopt's
/// `unknown option -- x`, an unknown `-o` key) and Vim's (main.c's
/// `Unknown option argument`, `Garbage after option argument`: a letter
/// whose value is the next word given one attached).
fn ssh_vim_unknown(l: &str) -> bool {
    [
        "unknown option -- ",
        "command-line: line 0: Bad configuration option",
        "Unknown option argument",
        "Garbage after option argument",
    ]
    .iter()
    .any(|m| l.contains(m))
}

/// find 4.9 given a numeric test without its value reads the test's own
/// name as it: "invalid argument `-gid' to `-gid'".
fn find_took_itself(l: &str) -> bool {
    l.split_once("invalid argument `")
        .and_then(|(_, rest)| rest.split_once("' to `"))
        .is_some_and(|(value, rest)| rest.strip_suffix('\'') == Some(value))
}

/// The program read a command's options otherwise than the row says.
fn spelling(row: &Described, case: &Case, (out, status): &(String, i32)) -> Option<String> {
    let program = row.program.join(" ");
    if *status < 0 {
        return Some(format!("{program} did not finish (no exit status)"));
    }
    // find refuses a birth-time test (`-newerBt`, `-newermB`) on a
    // system that keeps none before it reads the test's value: this
    // machine cannot say how find spells it.
    if out.contains("does not provide a way to find the birth time") {
        return None;
    }
    // git refuses one spelling in the words of whichever parser reads
    // it (parse-options' `takes no value`, setup_revisions'
    // `unrecognized argument` for `--all=x`): the row says it is
    // refused, not how.
    let any_refusal = gits(row);
    match (case.expect, refusal(out, *status)) {
        (Expect::Accepted, None) => None,
        // A valued option last with no value, which the row leaves
        // unplaced: GNU Wget 1.21.3 reads its permuted words twice and
        // gives it the first operand (`wget URL --input-file` reads URL
        // as the file) — what it does then is no entry's to cover.
        (Expect::NeedsValue, None) if trailing_unplaced(row, case) => None,
        (want, Some((got, _))) if want == got => None,
        (want, Some(_)) if any_refusal && want != Expect::Accepted => None,
        (want, None) => Some(format!(
            "the row {}; {program} accepts it (exit {status})",
            want.says()
        )),
        (want, Some((_, message))) => Some(format!(
            "the row {}; {program} refuses it: {}",
            want.says(),
            message.trim()
        )),
    }
}

/// Does the row leave a case's last word unplaced (a valued option with
/// no value, `facts::described::walk`)?
fn trailing_unplaced(row: &Described, case: &Case) -> bool {
    let words: Vec<std::borrow::Cow<str>> = case
        .words
        .iter()
        .map(|w| std::borrow::Cow::Borrowed(w.as_str()))
        .collect();
    let known = vec![permc_shell::reader::Known::Exact; words.len()];
    let found = permc_shell::facts::described::walk(row, &words, &known, row.program.len(), true);
    found.unplaced == Some(words.len() - 1)
}

/// What a command's words allow it to do (SPEC §4.5 item 5).
#[derive(Default)]
struct Allow {
    /// `path-write` values: files it may write.
    writes: Vec<String>,
    /// `dir-write` and `pathspec` values: trees it may write in.
    dirs: Vec<String>,
    /// `text` values: files it must not open.
    texts: Vec<String>,
    /// Every place word: a `text` value that is also one may be opened.
    places: Vec<String>,
    /// `command` and `line` values: programs it may start.
    runs: Vec<String>,
    /// A `line` value: a shell may run it.
    shell: bool,
    /// A `code`, `config` or `open` value: what it does is not the row's
    /// to say (the line is unparsed, or open to the entry).
    anything: bool,
    /// A mutating continuation (`git branch -u X` writes .git/config):
    /// what it does is the continuation row's, but a write to a `text`
    /// value.
    continuation: bool,
    /// The command as text, for the endpoints its words name.
    line: String,
    /// Its `path-write` values are name prefixes (declared `prefixes`).
    prefixes: bool,
}

impl Allow {
    /// With `writer` (`writer = true`), a `path-write` operand may also
    /// land in the cwd under its last component: `ln /tmp/x` makes `./x`
    /// (a lone operand links into the current directory).
    fn of(case: &Case, writer: bool) -> Allow {
        let mut a = Allow {
            line: case.words.join(" "),
            continuation: case.continuation,
            ..Allow::default()
        };
        for (kind, v) in &case.values {
            let path = resolve(v);
            let place = |a: &mut Allow| a.places.extend(path.clone());
            match kind {
                Kind::Flag | Kind::Variable => {}
                Kind::Text => a.texts.extend(path.clone()),
                Kind::PathRead | Kind::Remote => place(&mut a),
                Kind::PathWrite => {
                    place(&mut a);
                    a.writes.extend(path.clone());
                    if writer {
                        let last = v.rsplit('/').next().unwrap_or(v);
                        a.writes.extend(resolve(last));
                    }
                }
                Kind::DirWrite | Kind::Pathspec => {
                    place(&mut a);
                    a.dirs.extend(path.clone());
                }
                Kind::Command | Kind::Line => {
                    a.runs.push(v.clone());
                    a.shell |= *kind == Kind::Line;
                }
                Kind::Code | Kind::Config | Kind::Open => a.anything = true,
            }
        }
        a
    }

    /// May the command write this path?
    fn writes_to(&self, path: &str) -> bool {
        self.anything
            || (self.continuation && !self.texts.iter().any(|t| t == path))
            || self.writes.iter().any(|w| w == path)
            || (self.prefixes
                && self.writes.iter().any(|w| {
                    path.strip_prefix(w.as_str())
                        .is_some_and(|rest| !rest.contains('/'))
                }))
            || self
                .dirs
                .iter()
                .any(|d| path == d || path.starts_with(&format!("{}/", d.trim_end_matches('/'))))
    }

    /// Does a program that starts its own build output (a declared
    /// `paths`: cargo runs its test binaries from `target/`) start it
    /// from a directory a `dir-write` word of the command gave it
    /// (`cargo test --target-dir=D` runs `D/debug/deps/…`)?
    fn runs_own_build(&self, argv: &[String], declared: &[&Declared]) -> bool {
        let Some(first) = argv.first() else {
            return false;
        };
        declared.iter().any(|d| !d.paths.is_empty())
            && self
                .dirs
                .iter()
                .any(|d| first.starts_with(&format!("{}/", d.trim_end_matches('/'))))
    }

    /// The violation an effect of the command is, if any.
    fn judge(&self, e: &Effect, case: &Case, declared: &[&Declared]) -> Option<String> {
        match e {
            Effect::Exec { argv, failed, .. } => {
                let wrapper = wrapped(argv).is_some();
                let prog = argv.first().map_or("", |a| basename(a));
                let ok = wrapper
                    || argv[..] == case.words[..]
                    || self.anything
                    || self.continuation
                    || self.runs.iter().any(|r| argv.first() == Some(r))
                    || (self.shell && matches!(prog, "sh" | "bash" | "dash"))
                    || declared.iter().any(|d| d.helpers.iter().any(|h| h == prog))
                    || self.runs_own_build(argv, declared);
                (!ok).then(|| match failed {
                    None => format!("started {argv:?}, which no command, line or code word names and no declared helper is"),
                    Some(why) => format!("tried to start {argv:?} ({why}), which no command, line or code word names and no declared helper is"),
                })
            }
            Effect::Write { call, path, ok, .. } => {
                // A refused write of the project directory itself (`mkdir
                // -p` of a directory that exists: cargo) changes nothing.
                let allowed = self.writes_to(path)
                    || (!*ok && path == PROJECT)
                    || super::always_writable(path)
                    || path.starts_with("/srv/canary-log/")
                    || path
                        .strip_prefix(&format!("{PROJECT}/"))
                        .is_some_and(|p| in_state(declared, p))
                    || declared.iter().any(|d| {
                        d.home
                            .iter()
                            .any(|h| path.starts_with(super::home_path(h).trim_end_matches('/')))
                    });
                let how = if *ok { "" } else { " (refused by the sandbox)" };
                let text = if self.texts.contains(path) {
                    ", the value of a text word"
                } else {
                    ""
                };
                (!allowed).then(|| {
                    format!("{call} {path}{how}{text}: no path-write or dir-write word names it and no declared state holds it")
                })
            }
            Effect::Read { path, .. } => (self.texts.contains(path)
                && !self.places.contains(path)
                && !searches_cwd(declared, case))
            .then(|| format!("opened {path}, the value of a text word")),
            Effect::Connect { address, ok, .. } => {
                let fine = self.anything
                    || self.continuation
                    || endpoint_declared(address, &self.line, declared);
                let how = if *ok { "connected" } else { "tried to connect" };
                (!fine).then(|| {
                    format!("{how} to {address}: the row declares no endpoint and no word names it")
                })
            }
        }
    }
}

/// A value as the path it names in the sandbox, from the project (`None`
/// for `-` and a URL).
fn resolve(v: &str) -> Option<String> {
    (v != "-" && !v.contains("://"))
        .then(|| super::trace::resolve(&format!("AT_FDCWD<{PROJECT}>"), v))
}

/// A row of one of git's grammars (parse-options, setup_revisions,
/// rev-parse's whole words): asked for its usage with `-h`, and judged
/// on refusing a spelling, whichever of git's parsers refuses it.
fn gits(row: &Described) -> bool {
    matches!(row.grammar, GIT | GIT_REVISIONS | EXACT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_options_a_help_lists() {
        let help = "Usage: x [OPTION]... [FILE]...\n  -a, --all       do not ignore\n      --color[=WHEN]  colorize; see --sort=WORD\n  -I, --ignore=PATTERN\n  -NUM   same as --context=NUM\nMandatory arguments to long options are mandatory for short options too.\n  ---hidden\n";
        let row = Described {
            program: &["x"],
            flags: &["-a --all"],
            text: &["--color[=]"],
            ..Described::EMPTY
        };
        let missing = missing_from_row(&row, help, &[]);
        let named: Vec<&str> = missing.iter().filter_map(|m| m.split('`').nth(3)).collect();
        assert_eq!(
            named,
            ["--context", "--ignore", "--sort", "-I"],
            "{missing:?}"
        );
    }

    #[test]
    fn knows_its_own_wrapper() {
        let argv = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let sort = argv(&["sort", "-o", "x"]);
        for limit in [QUICK, PATIENT] {
            let full: Vec<String> = argv(&wrapper(limit))
                .into_iter()
                .chain(sort.clone())
                .collect();
            assert_eq!(wrapped(&full), Some(&sort[..]));
        }
        assert_eq!(wrapped(&argv(&["timeout", "-k", "1", "9", "sort"])), None);
        assert_eq!(wrapped(&argv(&["timeout", "-k", "1", "1"])), None);
    }

    #[test]
    fn generates_every_spelling_of_an_option() {
        let row = Described {
            program: &["x"],
            operands: &["path-read"],
            flags: &["-u --unique", "-r --reverse", "--random-sort"],
            path_write: &["-o --output"],
            ..Described::EMPTY
        };
        let cases = generate::cases(&row).unwrap();
        let has = |line: &str, expect: Expect| {
            cases
                .iter()
                .any(|c| c.words.join(" ") == line && c.expect == expect)
        };
        for line in [
            "x -o oracle-new-",
            "x -o /tmp/x .git/config",
            "x -o/tmp/x .git/config",
            "x --output=/tmp/x .git/config",
            "x --output /tmp/x .git/config",
            "x --o=oracle-new-",
            "x --out oracle-new-",
            "x -uro oracle-new-",
            "x -uooracle-new-",
            "x --re .git/config",
            "x --reve .git/config",
        ] {
            assert!(
                cases
                    .iter()
                    .any(|c| c.words.join(" ").starts_with(line) && c.expect == Expect::Accepted),
                "{line}: {:#?}",
                cases.iter().map(|c| c.words.join(" ")).collect::<Vec<_>>()
            );
        }
        assert!(has("x --r .git/config", Expect::Ambiguous));
        assert!(has("x .git/config --output", Expect::NeedsValue));
        assert!(has("x --unique=untracked.txt .git/config", Expect::NoValue));
        assert!(has("x --no-such-option .git/config", Expect::Unknown));
        let wrong = Described {
            grammar: "no-such-grammar",
            ..row
        };
        assert_eq!(
            generate::cases(&wrong).err().as_deref(),
            Some("not generated: grammar no-such-grammar")
        );
    }
}
