//! What a code form finds in its verb's words (SPEC §4.3, "code is
//! unparsed"): the readings the rows of `catalogue/code.rs`
//! ([`CODE_FORMS`](super::catalogue::code::CODE_FORMS)) name by their tag,
//! [`CodeReading`]. The rows say which verbs a reading applies to; this
//! says what of the words makes the verb run text permc does not read.

#[cfg(test)]
use super::catalogue::code::NAME_OPERANDS;
use super::catalogue::code::{CodeForm, GH_COMMAND_KEYS};
use super::catalogue::types::CodeReading;
use super::wrappers::{
    assigned_names, git_code, is_identifier, may_expand, option_has, program_runs_text,
};
use crate::reader::AsStr;
use std::borrow::Cow;

/// How many builtins [`NAME_OPERANDS`](super::catalogue::code::NAME_OPERANDS) names.
#[cfg(test)]
const ASSIGNING_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < NAME_OPERANDS.len() {
        n += NAME_OPERANDS[i].0.len();
        i += 1;
    }
    n
};

/// The builtins of [`NAME_OPERANDS`](super::catalogue::code::NAME_OPERANDS), built from its rows.
#[cfg(test)]
pub(crate) const ASSIGNING: [&str; ASSIGNING_COUNT] = {
    let mut t = [""; ASSIGNING_COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < NAME_OPERANDS.len() {
        let mut j = 0;
        while j < NAME_OPERANDS[i].0.len() {
            t[n] = NAME_OPERANDS[i].0[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    t
};

/// Why `v ARGS…` runs text permc does not read by `form`'s reading, if
/// it does.
pub(super) fn reads(form: &CodeForm, v: &str, a: &[Cow<'_, str>]) -> Option<String> {
    let reading = form.reading;
    match reading {
        CodeReading::ProgramText
        | CodeReading::GhAlias
        | CodeReading::GhConfig
        | CodeReading::MachinectlShell
        | CodeReading::IpNetnsExec
        | CodeReading::NixRun
        | CodeReading::PackageConfigSet
        | CodeReading::GitCode => program_reads(reading, form.words, v, a),
        _ => builtin_reads(reading, v, a),
    }
}

/// The readings of the shell's builtins (and `sg`, `newgrp`).
fn builtin_reads(reading: CodeReading, v: &str, a: &[Cow<'_, str>]) -> Option<String> {
    match reading {
        CodeReading::Source => Some(format!("`{v}` runs a file's text as commands")),
        CodeReading::Let => {
            Some("`let` evaluates its words as arithmetic, which can run commands".into())
        },
        CodeReading::PrintfAssigns => {
            a.first()
                .is_some_and(|a| a.starts_with("-v") || may_expand(a))
                .then(|| "`printf -v` assigns to a name that may hold code".into())
        },
        CodeReading::TestV => {
            a.iter()
                .any(|a| a == "-v")
                .then(|| format!("`{v} -v` evaluates a name that may hold code"))
        },
        CodeReading::DeclareEvaluates => {
            a.iter()
                .any(|a| a.len() > 1 && a.starts_with('-') && !a.starts_with("--") && a.contains(['i', 'n']))
                .then(|| format!("`{v} -i`/`-n` makes later assignments and expansions evaluate values as arithmetic or names, which can run commands"))
        },
        CodeReading::AssignedName => {
            if !assigned_names(v, a, |n| !is_identifier(n)) {
                None
            } else if assigned_names(v, a, |n| n.contains('[')) {
                Some(format!(
                    "`{v}` of an array element evaluates its subscript as code"
                ))
            } else {
                Some(format!("`{v}` assigns a name given by an expansion, which may be an array element or a variable bash runs (`PS4`)"))
            }
        },
        CodeReading::MapfileCallback => {
            a.iter()
                .any(|a| option_has(a, &['C']))
                .then(|| format!("`{v} -C` runs its callback text as commands"))
        },
        CodeReading::CompgenCommand => {
            a.iter()
                .any(|a| option_has(a, &['C', 'F']))
                .then(|| "`compgen -C`/`-F` runs a command or a function to make its words".into())
        },
        CodeReading::JobsExec => {
            a.iter().any(|a| option_has(a, &['x'])).then(|| {
                "`jobs -x` runs the command in its words, which permc does not read past".into()
            })
        },
        CodeReading::GroupShell => {
            a.iter().any(|a| !a.starts_with('-')).then(|| {
                format!(
                    "`{v} GROUP` runs a shell or a command through one, which permc does not read"
                )
            })
        },
        CodeReading::Alias => {
            a.iter()
                .any(|a| !a.starts_with('-') && (a.contains('=') || may_expand(a)))
                .then(|| "`alias` defines text that bash runs in place of a later command word: permc cannot know what that word runs".into())
        },
        CodeReading::HashPath => {
            a.iter().any(|a| option_has(a, &['p'])).then(|| {
                "`hash -p` sets the file a command name runs: permc cannot know what that name runs".into()
            })
        },
        CodeReading::ExportFunction => {
            // An option word, or one whose start is an expansion (it may be
            // `-f`); not `PATH=$PATH:/x`.
            let f = |a: &Cow<'_, str>| {
                (a.starts_with('-') && !a.starts_with("--") && a[1..].contains('f'))
                    || a.starts_with('$')
            };
            a.iter().any(f).then(|| {
                "`export -f` exports a function that later shells run in place of a command".into()
            })
        },
        CodeReading::EnableLoad => {
            a.iter()
                .any(|a| option_has(a, &['f']))
                .then(|| "`enable -f` loads a shared object's code as a builtin".into())
        },
        CodeReading::Shopt => {
            (a.iter().any(|a| may_expand(a))
                || (a.iter().any(|a| option_has(a, &['s', 'u'])) && a.iter().any(|a| !a.starts_with('-'))))
                .then(|| "`shopt` sets or unsets a shell option, which changes how bash reads later words (`lastpipe`, `dotglob`, `extglob`…): permc reads them as bash does without it".into())
        },
        CodeReading::Set => {
            (!super::safe_set_args(a)).then(|| "`set` with an option other than `-e`, `-u`, `-x`, `-v`, `-E`, `-T` and `-o errexit|nounset|pipefail|xtrace|verbose|errtrace|functrace` changes how bash reads later words: permc cannot follow it".into())
        },
        _ => unreachable!("a program's reading is read by `program_reads`"),
    }
}

/// The readings of programs: their options, subcommands and
/// configuration that run a command.
fn program_reads(
    reading: CodeReading,
    words: &[&str],
    v: &str,
    a: &[Cow<'_, str>],
) -> Option<String> {
    match reading {
        CodeReading::ProgramText => {
            let o = program_runs_text(v, a)?;
            Some(format!("`{v} {o}` runs a command permc does not read"))
        },
        CodeReading::GhAlias => {
            gh_alias_runs(words, a).then(|| {
                "`gh alias` defines an alias: a later `gh NAME` runs a shell command or another gh command permc cannot read".into()
            })
        },
        CodeReading::GhConfig => {
            gh_config_runs(words, a).then(|| {
                "`gh config set` names a command a later gh runs (its editor, pager or browser), which permc cannot read".into()
            })
        },
        CodeReading::MachinectlShell => {
            a.iter()
                .any(|w| words.contains(&w.as_str()) || may_expand(w))
                .then(|| {
                    "`machinectl shell|login` runs a shell as another user (root by default) on the host or a container, which permc does not read".into()
                })
        },
        CodeReading::IpNetnsExec => {
            // iproute2 takes any prefix of an object or a command: `ip
            // netn exe`. A prefix of the first word (`netns`), later one of
            // the second (`exec`). A word the shell expands may be both
            // (`ip $X`).
            let prefix = |w: &str, of: &str| !w.is_empty() && of.starts_with(w);
            let (object, command) = (words.first()?, words.get(1)?);
            let netns = a.iter().position(|w| prefix(w, object));
            (netns.is_some_and(|i| a[i + 1..].iter().any(|w| prefix(w, command)))
                || a.iter().any(|w| may_expand(w)))
                .then(|| "`ip netns exec` runs a command in a network namespace, behind words permc does not place".into())
        },
        CodeReading::NixRun => {
            a.iter().any(|w| words.contains(&w.as_str()) || may_expand(w)).then(|| {
                "`nix run` runs a package's program, which permc cannot name from the package"
                    .into()
            })
        },
        CodeReading::PackageConfigSet => {
            package_config_set(words, a).then(|| {
                format!("`{v} config set` writes configuration later commands read (`script-shell`, `node-options`), which permc cannot read")
            })
        },
        CodeReading::GitCode => git_code(a),
        _ => unreachable!("a builtin's reading is read by `builtin_reads`"),
    }
}

/// Does `gh ARGS…` define aliases (`alias set`, `alias import`)? A later
/// `gh NAME` then runs the alias: a shell command (`!…`, `--shell`) or
/// another gh command (`pr merge`), neither of which permc sees there,
/// as `git config alias.*` (the group or subcommand may expand to them).
/// The row's words are the group (`alias`), then its subcommands that
/// define (`set`, `import`).
fn gh_alias_runs(words: &[&str], args: &[Cow<'_, str>]) -> bool {
    let (Some(group), Some(sub)) = (args.first(), args.get(1)) else {
        return false;
    };
    let Some((name, subs)) = words.split_first() else {
        return false;
    };
    (group == name || may_expand(group)) && (subs.contains(&sub.as_str()) || may_expand(sub))
}

/// Does `gh ARGS…` set one of [`GH_COMMAND_KEYS`] (`gh config set [-h
/// HOST] KEY VALUE`)? A key given by an expansion may be any.
/// The row's words are the group and the subcommand (`config set`).
fn gh_config_runs(words: &[&str], args: &[Cow<'_, str>]) -> bool {
    let (Some(group), Some(sub)) = (args.first(), args.get(1)) else {
        return false;
    };
    let (Some(name), Some(set)) = (words.first(), words.get(1)) else {
        return false;
    };
    let key = args[2..]
        .iter()
        .enumerate()
        .filter(|(_, w)| !w.starts_with('-'))
        // `-h HOST`/`--host HOST`: the host is no key.
        .find(|&(k, _)| k == 0 || !matches!(args[k + 1].as_str(), "-h" | "--host"))
        .map(|(_, w)| w);
    (group == name || may_expand(group))
        && (sub == set || may_expand(sub))
        && key.is_some_and(|k| GH_COMMAND_KEYS.contains(&k.as_str()) || may_expand(k))
}

/// Does `npm|pnpm|yarn ARGS…` set configuration (`config set`, `c set`,
/// npm's `set`), read past the options before the subcommand?
/// The row's words are the subcommand that sets (`set`), then the groups
/// it may follow (`config`, `c`).
fn package_config_set(words: &[&str], args: &[Cow<'_, str>]) -> bool {
    let Some((set, groups)) = words.split_first() else {
        return false;
    };
    let mut given = args.iter().filter(|w| !w.starts_with('-'));
    match given.next().map(AsStr::as_str) {
        Some(w) if w == *set => true,
        Some(w) if groups.contains(&w) => given.next().is_some_and(|w| w == set),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::catalogue::code::CODE_FORMS;
    use super::*;

    /// The row of names bash assigns lists every builtin of the rows that
    /// say how each reads its operands, no more.
    #[test]
    fn assigned_name_row_names_every_assigning_builtin() {
        let row = CODE_FORMS
            .iter()
            .find(|f| f.reading == CodeReading::AssignedName)
            .expect("a row reads assigned names");
        assert_eq!(row.verbs, ASSIGNING);
    }
}
