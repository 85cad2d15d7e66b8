//! The catalogue of commands (SPEC §4.3 [round 3] "One catalogue of
//! commands"): everything permc knows about programs, as row tables —
//! data, not code — one topic a module. The facts' logic (the walk past
//! wrappers, the code forms and options, the continuations, the protected
//! paths, the ceilings' readings, the scope) reads these rows and names no
//! program of its own; `tests/catalogue_only.rs` holds that, over every
//! crate, against [`program_names`].
//!
//! The functions here are what the readers outside the facts ask of the
//! rows: always-allow's unit (§7) and the analyzer's
//! `broad-always-expansion` (§11), read off the same rows the facts read,
//! so that the three cannot disagree.

pub mod builtins;
pub mod code;
pub mod continuations;
pub mod described;
pub mod effects;
pub mod git;
pub mod paths;
pub mod remote;
pub mod shells;
pub mod tmux;
pub mod types;
pub mod units;
pub mod variables;
pub mod wrappers;

use super::code_options;
use std::borrow::Cow;

pub use code::INTERPRETERS;
use code::{SCRIPT_READERS, SHELL_BUILTINS};
use wrappers::RunsAs;

/// Does `verb` run text as code: a shell (of any language), an
/// interpreter, a script reader, or one of the shell's own `eval`-like
/// words?
pub fn runs_text_as_code(verb: &str) -> bool {
    shells::SHELLS.contains(&verb)
        || shells::FOREIGN_SHELLS.contains(&verb)
        || INTERPRETERS.contains(&verb)
        || SCRIPT_READERS.contains(&verb)
        || SHELL_BUILTINS.contains(&verb)
}

/// Is `verb` a shell (SPEC §4.3: sh's family and the shells of other
/// languages), and can a `-c` string of it be transparent for allow (sh,
/// bash, dash, ash: `Terminal(npm test)` covers `bash -lc 'npm test'`)?
/// For the analyzer's `shell-entry` (SPEC §11 round 4).
pub fn shell(verb: &str) -> Option<bool> {
    if shells::TRANSPARENT_SHELLS.contains(&verb) {
        Some(true)
    } else if shells::SHELLS.contains(&verb) || shells::FOREIGN_SHELLS.contains(&verb) {
        Some(false)
    } else {
        None
    }
}

/// The version of the row that describes the program `words` name (SPEC
/// §4.5 item 1), if one does: a row of `shell/catalogue/described/`
/// whose command the words begin with, or a remote client's row (remote
/// and HTTP clients describe their global options and reads) naming the
/// whole program, or the tree the words lead into. `words[0]` is the
/// program as named (by its last path component). For the analyzer's
/// `undescribed-program` (SPEC §11 round 4): read off the rows, so it
/// stays right as rows are added.
pub fn describes(words: &[&str]) -> Option<&'static str> {
    let first = *words.first()?;
    let program = super::basename(first);
    let starts = |path: &[&str], at: usize| {
        words.len() >= at + path.len() && path.iter().zip(&words[at..]).all(|(a, b)| a == b)
    };
    if let Some(d) = described::DESCRIBED
        .iter()
        .find(|d| d.program.first() == Some(&program) && starts(&d.program[1..], 1))
    {
        return Some(d.version);
    }
    let second = words.get(1).copied().unwrap_or_default();
    remote::CLIENTS
        .iter()
        .find(|c| {
            c.names.contains(&program)
                && starts(c.tree, 1)
                && (c.only.is_empty() || c.only.contains(&second))
                && (c.prefixes.is_empty() || c.prefixes.iter().any(|p| second.starts_with(p)))
        })
        .map(|c| c.version)
        .or_else(|| {
            remote::http::CLIENTS
                .iter()
                .find(|c| c.names.contains(&program))
                .map(|c| c.version)
        })
        .filter(|v| !v.is_empty())
}

/// Does a row describe subcommands of `program` (a row of
/// `shell/catalogue/described/` whose command has more than one word and
/// begins with it: `git log`, `mix test`)? SPEC §7 round 4 step 4: such a
/// program's always-allow unit is never the program alone.
pub fn describes_subcommands(program: &str) -> bool {
    let program = super::basename(program);
    described::DESCRIBED
        .iter()
        .any(|d| d.program.len() > 1 && d.program[0] == program)
}

/// Every program a row describes whole, with its version (the programs
/// [`describes`] names with no further word): what a likely typo is
/// compared with.
pub fn described_programs() -> impl Iterator<Item = (&'static str, &'static str)> {
    let described = described::DESCRIBED
        .iter()
        .filter(|d| d.program.len() == 1)
        .map(|d| (d.program[0], d.version));
    let remote = remote::CLIENTS
        .iter()
        .filter(|c| c.tree.is_empty() && c.only.is_empty() && c.prefixes.is_empty())
        .flat_map(|c| c.names.iter().map(move |n| (*n, c.version)));
    let http = remote::http::CLIENTS
        .iter()
        .flat_map(|c| c.names.iter().map(move |n| (*n, c.version)));
    described
        .chain(remote)
        .chain(http)
        .filter(|(n, v)| !v.is_empty() && !n.contains('/'))
}

/// Every program a table of the external-effect ceiling names besides
/// [`EXTERNAL_EFFECT`](effects::EXTERNAL_EFFECT)'s own (SPEC §6.1, §4.5
/// item 3): the remote clients, whose unlisted subcommands are external,
/// the build tools whose goals publish, and the HTTP and socket clients.
/// The analyzer reads an entry's facts only where one of these, or a
/// table's own verb, may run.
pub fn external_programs() -> impl Iterator<Item = &'static str> {
    let clients = remote::CLIENTS.iter().flat_map(|c| c.names.iter().copied());
    let goals = remote::GOALS.iter().flat_map(|g| g.names.iter().copied());
    let http = remote::http::CLIENTS
        .iter()
        .flat_map(|c| c.names.iter().copied());
    let sockets = remote::net::SOCKETS
        .iter()
        .flat_map(|c| c.names.iter().copied());
    let databases = remote::net::DATABASES
        .iter()
        .flat_map(|c| c.names.iter().copied());
    clients
        .chain(goals)
        .chain(http)
        .chain(sockets)
        .chain(databases)
}

/// Is `verb` a wrapper (SPEC §4.3's table and the launchers beyond it):
/// it runs the command in its operands.
pub fn is_wrapper(verb: &str) -> bool {
    wrappers::WRAPPERS.iter().any(|w| w.names.contains(&verb))
}

/// Every program that runs other code: shells, interpreters, script
/// readers, wrappers (for the analyzer's list).
pub fn code_programs() -> impl Iterator<Item = &'static str> {
    shells::SHELLS
        .iter()
        .chain(shells::FOREIGN_SHELLS)
        .chain(INTERPRETERS)
        .chain(SCRIPT_READERS)
        .chain(SHELL_BUILTINS)
        .copied()
        .chain(
            wrappers::WRAPPERS
                .iter()
                .flat_map(|w| w.names.iter().copied()),
        )
}

/// Every runner as the words that name it: `npx`, `uv run`, `pnpm exec`,
/// `docker exec`… (not the command groups: `docker compose`).
pub fn runners() -> impl Iterator<Item = Vec<&'static str>> {
    wrappers::RUNNERS
        .iter()
        .filter(|r| !matches!(r.2, RunsAs::Group(_)))
        .map(|r| {
            if r.1.is_empty() {
                vec![r.0]
            } else {
                vec![r.0, r.1]
            }
        })
}

/// Where a runner's program stands in a segment's words (SPEC §7 round 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunnerProgram {
    /// Not a runner's words.
    NotARunner,
    /// The program is word `i` (`uv run pytest -k x`: 2).
    At(usize),
    /// A runner whose program cannot be placed (an option of its own
    /// before it, an image's entrypoint, a shell line).
    Unplaced,
}

/// Where the program a runner runs stands in `words` (the verb first, as
/// the segment gives it): right after the runner's words (`npx vitest`,
/// `pnpm exec vitest`, `npm exec -- vitest`), after the container for
/// `docker exec C CMD`; any option word of the runner's own before it
/// leaves it unplaced (its arity is not read here).
pub fn runner_program(words: &[Cow<'_, str>]) -> RunnerProgram {
    let Some(verb) = words.first().map(|w| super::basename(w)) else {
        return RunnerProgram::NotARunner;
    };
    let rows = || wrappers::RUNNERS.iter().filter(|r| r.0 == verb);
    let (how, mut at) = if let Some(r) = rows().find(|r| r.1.is_empty()) {
        (r.2, 1)
    } else {
        let Some(sub) = words.get(1) else {
            return RunnerProgram::NotARunner;
        };
        match rows().find(|r| r.1 == sub) {
            Some(r) => (r.2, 2),
            None => return RunnerProgram::NotARunner,
        }
    };
    if words.get(at).is_some_and(|w| w == "--") && how == RunsAs::Argv {
        at += 1;
    }
    let placed = match how {
        RunsAs::Argv => at,
        RunsAs::AfterOperand if words.get(at).is_some_and(|w| !w.starts_with('-')) => at + 1,
        _ => return RunnerProgram::Unplaced,
    };
    match words.get(placed) {
        Some(w) if !w.starts_with('-') => RunnerProgram::At(placed),
        _ => RunnerProgram::Unplaced,
    }
}

/// The words a witness puts after a prefix to stand for what may follow
/// it (`permc diff`, issue 43): a script or file operand, a command line
/// given to `-c`, an option before an operand, and, for a runner or a
/// wrapper, the run it makes (after its container or duration where the
/// row says so), each of `programs` — the commands the caller wants run
/// (`true`, a command its rules allow). Every prefix gets them all (a
/// witness that shows nothing costs one decision); the runners' rows add
/// the run subcommand a runner named by its first word alone needs, with
/// the operand its [`RunsAs`] puts before the run.
pub fn witness_continuations<'a>(words: &[&str], programs: &[&'a str]) -> Vec<Vec<&'a str>> {
    const OPERAND: &str = "permc-witness.sh";
    const CODE_OPTIONS: &[&str] = &["-c", "-lc", "-e", "-x"];
    let mut out: Vec<Vec<&'a str>> = vec![vec![OPERAND], vec!["-x", OPERAND], vec!["--", OPERAND]];
    let verb = words.first().map(|w| super::basename(w)).unwrap_or("");
    for &line in programs {
        out.extend(CODE_OPTIONS.iter().map(|&o| vec![o, line]));
        // A run: the verb itself, after `--`, after an operand (a
        // container, a duration, a lock file, a folder).
        let run: Vec<&'a str> = line.split(' ').collect();
        for before in [&[][..], &["--"], &["5"], &[OPERAND], &[OPERAND, "--"]] {
            let mut v: Vec<&'a str> = before.to_vec();
            v.extend(&run);
            out.push(v);
        }
    }
    // A runner named by its first word alone (`uv`): its run subcommand.
    if words.len() == 1 {
        for r in wrappers::RUNNERS
            .iter()
            .filter(|r| r.0 == verb && !r.1.is_empty())
        {
            for &line in programs {
                let mut v = vec![r.1];
                if matches!(r.2, RunsAs::AfterOperand | RunsAs::AfterDashes) {
                    v.push(OPERAND);
                }
                v.extend(line.split(' '));
                out.push(v);
            }
        }
    }
    out
}

/// The programs a witness tries as the first word when a prefix wildcard
/// stands there (`Terminal(s*)` admits `sh`): every program that runs
/// other code, then every runner, each once.
pub fn witness_programs() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = code_programs().collect();
    out.extend(wrappers::RUNNERS.iter().map(|r| r.0));
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(*p));
    out
}

/// Is `verb` a program with code-running options or a script language of
/// its own (`sed`, `make`, `cargo`, `gcc`…: SPEC §4.3's list)? Options
/// that only name a file of settings or code (`pytest -c`, SPEC §4.5
/// item 1's `config`) do not make one: they make their line unparsed.
pub fn has_code_forms(verb: &str) -> bool {
    code_options::runs_code_text(verb)
}

/// Every program (and builtin) the catalogue describes, by every name it
/// is run by, sorted, once each: the first word of every row of every
/// table. `tests/catalogue_only.rs` holds that no code outside the
/// catalogue names one of them (issue 29: the catalogue is the only place
/// a program is described).
pub fn program_names() -> Vec<&'static str> {
    let firsts = |rows: &'static [&'static [&'static str]]| rows.iter().filter_map(|r| r.first());
    let mut names: Vec<&'static str> = Vec::new();
    names.extend(wrappers::WRAPPERS.iter().flat_map(|w| w.names));
    names.extend(wrappers::SU.names);
    names.extend(wrappers::UNREADABLE.iter().map(|r| r.0));
    names.extend(wrappers::SPECIAL_READERS.iter().flat_map(|r| r.0));
    names.extend(wrappers::READS_AS.iter().flat_map(|r| r.0));
    names.extend(wrappers::RUNNERS.iter().map(|r| r.0));
    names.extend(shells::SHELLS);
    names.extend(shells::FOREIGN_SHELLS);
    names.extend(code::CODE_FORMS.iter().flat_map(|f| f.verbs));
    names.extend(code::NAME_OPERANDS.iter().flat_map(|r| r.0));
    names.extend(code::PROGRAM_TEXT.iter().flat_map(|r| r.0));
    names.extend(code::CODE_OPTIONS.iter().flat_map(|r| r.programs));
    names.extend(code::INTERPRETERS);
    names.extend(code::SHELL_BUILTINS);
    names.extend(code::SCRIPT_READERS);
    names.extend(code::STDIN_COMMAND_READERS.iter().flat_map(|r| r.programs));
    names.extend(firsts(effects::EXTERNAL_EFFECT));
    names.extend(firsts(effects::LATER_ON_HOST));
    names.extend(effects::PRIVILEGED);
    names.extend(effects::TOOLCHAIN_WORD);
    names.extend(effects::SUBCOMMAND_TREES);
    names.push(effects::BUILTIN_DENY_VERB);
    names.extend(code::SCRIPT_LANGUAGES.iter().flat_map(|r| r.0));
    names.extend(code::ASSIGNMENT_OPERANDS);
    names.extend(paths::READS_ONLY);
    names.extend(paths::READS_ONLY_UNLESS.iter().map(|r| r.0));
    names.extend(paths::READING_SUBCOMMANDS.iter().map(|r| r.0));
    names.extend(paths::OUTPUT_OPTION_O);
    names.push(git::GIT);
    names.extend(shells::BASH_OPTIONS);
    names.extend(shells::ZSH_OPTIONS);
    names.extend(wrappers::BUSYBOX_SHELLS);
    names.push(wrappers::TRAP);
    names.push(wrappers::XARGS_DEFAULT);
    names.extend(effects::BY_WORDS.iter().flat_map(|r| r.0));
    names.extend(effects::SUBCOMMAND_ALIASES.iter().map(|r| r.0));
    names.extend(effects::PREFIX_TOOLS.iter().map(|r| r.0));
    names.extend(effects::OPTION_GRAMMAR.iter().map(|r| r.0));
    names.extend(git::GLOBAL_VALUE_OPTIONS.iter().map(|r| r.0));
    names.extend(
        continuations::CONTINUATIONS
            .iter()
            .filter_map(|c| c.command.first()),
    );
    names.extend(builtins::DIRECTORY_MOVES.iter().map(|r| r.0));
    names.extend([builtins::SHOPT, builtins::SET]);
    names.extend(builtins::NAME_ASSIGNING);
    names.extend(units::EXACT_VERBS);
    names.extend(units::PACKAGE_RUNNERS);
    names.extend(firsts(units::SCRIPT_RUNNERS));
    names.extend(
        variables::HARMLESS_COMMANDS
            .iter()
            .filter(|n| !n.is_empty()),
    );
    // The row files' programs (shell/catalogue/*.toml).
    names.extend(remote::CLIENTS.iter().flat_map(|c| c.names));
    names.extend(remote::http::CLIENTS.iter().flat_map(|c| c.names));
    names.extend(remote::GOALS.iter().flat_map(|g| g.names));
    names.extend(firsts_of(described::DESCRIBED.iter().map(|d| d.program)));
    names.sort_unstable();
    names.dedup();
    names
}

/// The first word of each command.
fn firsts_of(
    commands: impl Iterator<Item = &'static [&'static str]>,
) -> impl Iterator<Item = &'static str> {
    commands.filter_map(|c| c.first().copied())
}

#[cfg(test)]
mod tests {

    /// The git config continuation row (SPEC §6.5) and the rows the
    /// protected paths (§6.4) and the continuations' reading mode read
    /// say the same of `git config`: kept apart so that the existing row
    /// keeps its literal form, held in step here.
    #[test]
    fn git_config_rows_agree() {
        use super::git::{
            GIT_CONFIG_READING_MODES, GIT_CONFIG_WRITING_OPTIONS, GIT_CONFIG_WRITING_SUBCOMMANDS,
        };
        let row = super::continuations::CONTINUATIONS
            .iter()
            .find(|c| c.command == ["git", "config"])
            .expect("git config has a continuation row");
        let writing: Vec<&str> = GIT_CONFIG_WRITING_OPTIONS
            .iter()
            .chain(GIT_CONFIG_WRITING_SUBCOMMANDS)
            .copied()
            .collect();
        assert_eq!(row.mutating, writing.as_slice());
        assert!(GIT_CONFIG_READING_MODES
            .iter()
            .all(|m| row.reading.contains(m)));
    }

    #[test]
    fn program_names_are_sorted_once_each() {
        let names = super::program_names();
        assert!(names.windows(2).all(|w| w[0] < w[1]));
        for n in ["git", "cd", "sed", "sudo", "npx", "bash", "rm"] {
            assert!(names.contains(&n), "{n}");
        }
    }
}
