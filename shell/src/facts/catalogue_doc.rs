//! `docs/commands.md`, generated from the catalogue's rows (SPEC §4.3
//! round 3: the documentation reads the same tables as the decision, so
//! they cannot disagree). `tests/commands_doc.rs` keeps the file current;
//! `PERMC_BLESS=1` rewrites it.

use super::catalogue::code::{CODE_FORMS, CODE_OPTIONS, SCRIPTS};
use super::catalogue::continuations::{Shape, CONTINUATIONS};
use super::catalogue::git::{GIT_CODE_KEYS, GIT_CODE_NAMES, GIT_CODE_OPTIONS, GIT_CODE_SECTIONS};
use super::catalogue::paths::RULE_FILES;
use super::catalogue::shells::{FOREIGN_SHELLS, SHELLS};
use super::catalogue::wrappers::{RunsAs, READS_AS, RUNNERS, UNREADABLE, WRAPPERS};
use std::fmt::Write;

fn code(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The whole page.
pub fn markdown() -> String {
    let mut o = String::new();
    o.push_str(
        "# What permc knows about commands\n\n\
         Generated from the catalogue's rows (`shell/src/facts/`) by \
         `permc_shell::facts::catalogue_doc`; `tests/commands_doc.rs` keeps it \
         current (`PERMC_BLESS=1 cargo test --test commands_doc` rewrites it). \
         Every reader — the decision, always-allow, the analyzer and this page — \
         reads the same rows (SPEC §4.3). The rows describe bash 5.2, git 2.47, \
         GNU coreutils 9, findutils 4.9, gh 2, npm 10–11 and cargo 1.8x; an option \
         only a newer version has is an unknown option. A project adds rows for \
         its own tools in permc.toml: see [Project rows](#project-rows-permctoml).\n\n",
    );
    wrappers(&mut o);
    shells(&mut o);
    runners(&mut o);
    unreadable(&mut o);
    code_options(&mut o);
    code_forms(&mut o);
    git_code_options(&mut o);
    git_code_keys(&mut o);
    external(&mut o);
    tmux(&mut o);
    continuations(&mut o);
    variables(&mut o);
    protected(&mut o);
    o.push_str(super::project::DOC);
    o
}

fn wrappers(o: &mut String) {
    o.push_str(
        "## Wrappers (SPEC §4.3)\n\n\
         Read past for deny, ask, the built-ins and the ceilings; an option the \
         row does not list makes the line unparsed. Allow is not read past them.\n\n\
         | names | options taking a value | options without one | privileged |\n|---|---|---|---|\n",
    );
    for w in WRAPPERS {
        let valued: Vec<String> = w
            .valued
            .chars()
            .map(|c| format!("-{c}"))
            .chain(w.long_valued.iter().map(|l| format!("--{l}")))
            .collect();
        let flags: Vec<String> = w
            .flags
            .chars()
            .map(|c| format!("-{c}"))
            .chain(w.long_flags.iter().map(|l| format!("--{l}")))
            .collect();
        let refs = |v: &[String]| {
            v.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} |",
            code(w.names),
            cell(&refs(&valued)),
            cell(&refs(&flags)),
            if w.privileged { "yes" } else { "" }
        );
    }
    o.push('\n');
}

fn shells(o: &mut String) {
    let _ = write!(
        o,
        "## Shells and code readers\n\n\
         Shells whose `-c STRING` is read as a command line: {}.\n\n\
         Shells of other languages, whose `-c` (or standard input) makes the line \
         unparsed: {}.\n\n\
         Programs whose script or program operand is read for commands (SPEC \
         §4.3): {}.\n\n",
        code(SHELLS),
        code(FOREIGN_SHELLS),
        code(&SCRIPTS)
    );
}

fn runners(o: &mut String) {
    o.push_str(
        "## Runners (SPEC §4.3, §7)\n\n\
         What they run is a segment of its own for every check, allow included; \
         an allow entry that names the runner and the program covers the run.\n\n\
         | runner | runs |\n|---|---|\n",
    );
    for (tool, sub, how) in RUNNERS {
        let name = if sub.is_empty() {
            (*tool).to_string()
        } else {
            format!("{tool} {sub}")
        };
        let how = match how {
            RunsAs::Argv => "the command after its options".to_string(),
            RunsAs::Shell => "a shell command line (unparsed)".to_string(),
            RunsAs::Image => "an image's entrypoint (unparsed)".to_string(),
            RunsAs::AfterOperand => "the command after the container".to_string(),
            RunsAs::AfterDashes => "the command after `--`".to_string(),
            RunsAs::Group(g) => format!("read as `{g}`"),
        };
        let _ = writeln!(o, "| `{name}` | {how} |");
    }
    o.push('\n');
}

fn unreadable(o: &mut String) {
    o.push_str(
        "## Launchers permc does not read past\n\n\
         A line that runs one is unparsed (a deny found behind it still denies).\n\n\
         | program | why |\n|---|---|\n",
    );
    for (v, why) in UNREADABLE {
        let _ = writeln!(o, "| `{v}` | {} |", cell(&why.why(v)));
    }
    o.push('\n');
    o.push_str(
        "## Programs read as another\n\n\
         They run another program with their own words: deny, ask, the built-ins \
         and the ceilings read them as that program too (allow reads the words as \
         written).\n\n| program | read as |\n|---|---|\n",
    );
    for (names, program) in READS_AS {
        let _ = writeln!(o, "| {} | `{program}` |", code(names));
    }
    o.push('\n');
}

fn code_options(o: &mut String) {
    o.push_str(
        "## Options that run code (SPEC §4.3)\n\n\
         Given one of these, the line is unparsed; an unknown word where one could \
         be lowers with `unknown.word` (§4.4 item 3).\n\n\
         | programs | option |\n|---|---|\n",
    );
    for r in CODE_OPTIONS {
        let _ = writeln!(o, "| {} | `{}` |", code(r.programs), cell(&r.spelled()));
    }
    o.push('\n');
}

fn code_forms(o: &mut String) {
    o.push_str(
        "## Builtins and programs that run text (SPEC §4.3, §6.2)\n\n\
         A line with one of these forms is unparsed: the text it runs (a file, a \
         callback, an alias, a name bash evaluates, a shell option that changes \
         how later words are read) is not read.\n\n\
         | verbs | a line it catches |\n|---|---|\n",
    );
    for r in CODE_FORMS {
        let _ = writeln!(o, "| {} | `{}` |", code(r.verbs), cell(r.example));
    }
    o.push('\n');
}

fn git_code_options(o: &mut String) {
    o.push_str(
        "## git subcommands' options that run code (SPEC §4.3)\n\n\
         Read as git's parse-options reads them (clusters, `--name=value`, a long \
         name's unique prefix); an expanded word where one may stand counts. A \
         line with one is unparsed.\n\n\
         | subcommands | options |\n|---|---|\n",
    );
    for r in GIT_CODE_OPTIONS {
        let spells: Vec<String> = r.spells.iter().map(|s| s.spelled()).collect();
        let spells: Vec<&str> = spells.iter().map(String::as_str).collect();
        let _ = writeln!(o, "| {} | {} |", code(r.subcommands), code(&spells));
    }
    o.push('\n');
}

fn git_code_keys(o: &mut String) {
    let _ = write!(
        o,
        "## git configuration that names code (SPEC §4.3, §6.4)\n\n\
         `git config` setting one of these (or a key given by an expansion) is \
         unparsed; `git -c` with any key is. Keys are case-insensitive.\n\n\
         - sections: {}\n- keys: {}\n- any key ending in: {}\n\n",
        code(GIT_CODE_SECTIONS),
        code(GIT_CODE_KEYS),
        code(GIT_CODE_NAMES)
    );
}

fn external(o: &mut String) {
    o.push_str(
        "## External effects (SPEC §6.1)\n\n\
         Found under every spelling: options anywhere the program takes them, \
         aliases, unique prefixes where the program resolves them, `git-<sub>`.\n\n",
    );
    for e in super::EXTERNAL_EFFECT {
        let _ = writeln!(o, "- `{}`", e.join(" "));
    }
    later(o);
    o.push_str("\nAliases:\n\n");
    for (tool, a, c) in super::SUBCOMMAND_ALIASES {
        let _ = writeln!(o, "- `{tool} {a}` is `{tool} {c}`");
    }
    o.push_str("\nTools that take a unique prefix of a subcommand: ");
    let tools: Vec<&str> = super::PREFIX_TOOLS.iter().map(|p| p.0).collect();
    o.push_str(&code(&tools));
    let _ = write!(
        o,
        ".\n\nPrivileged (SPEC §5 step 7b): {}.\n\n",
        code(super::PRIVILEGED)
    );
}

/// SPEC §6.1 round 4: what runs later on the person's machine.
fn later(o: &mut String) {
    use super::catalogue::effects::{LATER_ON_HOST, LATER_READS};
    o.push_str(
        "\nWhat leaves something that runs later on the person's machine (round 4): \
         external unless the command runs in the running container. A short option \
         is found in a cluster too (`screen -dmS x`), each command of a tmux \
         sequence is read (`tmux ls \\; new -d`), and `setsid -f` and a `nohup` \
         sent to the background with `&` (`nohup … &`) detach what they run.\n\n",
    );
    for e in LATER_ON_HOST {
        let _ = writeln!(o, "- `{}`", e.join(" "));
    }
    let reads: Vec<String> = LATER_READS.iter().map(|e| e.join(" ")).collect();
    let reads: Vec<&str> = reads.iter().map(String::as_str).collect();
    let _ = writeln!(
        o,
        "\nBut not (they list, show or remove jobs): {}.",
        code(&reads)
    );
}

/// SPEC §4.5 item 2 round 4: tmux's commands, read as a `line` row.
fn tmux(o: &mut String) {
    use super::catalogue::tmux::{TMUX, TMUX_LINES, TMUX_UNREAD};
    let lines: Vec<&str> = TMUX_LINES.iter().map(|r| r.0).collect();
    let _ = write!(
        o,
        "## `{TMUX}` (tmux 3.3a, SPEC §4.5 item 2)\n\n\
         Its commands by name, alias or unique prefix, each ended by a `;` word or \
         a word's final `;`. The shell command of {} is read as a line (one word) \
         or a run (several); `-c CMD` is a line too. Unparsed: {}, `-f FILE`, a \
         `#(…)` format, `-e NAME=…` naming code.\n\n",
        code(&lines),
        code(TMUX_UNREAD)
    );
}

fn continuations(o: &mut String) {
    o.push_str(
        "## Mutating continuations (SPEC §3.2, §6.5)\n\n\
         An allow entry covers a segment only when every one of these words after \
         its tokens is named by the entry; a word the row cannot place counts as \
         mutating.\n\n\
         | command | mutating words | reads |\n|---|---|---|\n",
    );
    for r in CONTINUATIONS {
        let extra = match r.shape {
            Shape::Options {
                operand_mutates: true,
                ..
            } => ", and a name operand outside list mode",
            Shape::Subcommand {
                all_but_reading: true,
            } => ", and every subcommand but the reading ones",
            Shape::Config => ", and a key with a value",
            Shape::Expression => ", and any primary not listed",
            _ => "",
        };
        let _ = writeln!(
            o,
            "| `{}` | {}{} | {} |",
            r.command.join(" "),
            cell(&code(r.mutating)),
            extra,
            cell(&code(r.reading))
        );
    }
    o.push_str(
        "\nOptions that add a write to a reading program (SPEC §6.5 round 4): past \
         an entry that does not name them they are mutating, by any prefix of the \
         long option and anywhere in a cluster of letters, and so is a word that \
         may be one (an expansion); `--` ends them.\n\n\
         | command | writing options |\n|---|---|\n",
    );
    for r in super::catalogue::continuations::WRITE_OPTIONS {
        let short: Vec<String> = r.short.chars().map(|c| format!("-{c}")).collect();
        let all: Vec<&str> = short
            .iter()
            .map(String::as_str)
            .chain(r.long.iter().copied())
            .collect();
        let _ = writeln!(o, "| `{}` | {} |", r.command.join(" "), cell(&code(&all)));
    }
    o.push('\n');
}

fn variables(o: &mut String) {
    o.push_str("## Variables that name code (SPEC §4.3)\n\nAssigned or named, they make the line unparsed.\n\n");
    for (name, why) in super::CODE_VARIABLES {
        let _ = writeln!(o, "- `{name}`: {why}");
    }
    for (name, why) in super::SETTING_VARIABLES {
        let _ = writeln!(o, "- `{name}` (when assigned): {why}");
    }
    for (pre, suf, why) in super::VARIABLE_FAMILIES {
        let _ = writeln!(o, "- `{pre}…{suf}` (when assigned): {why}");
    }
    for (name, why) in super::COMMAND_VARIABLES {
        let _ = writeln!(
            o,
            "- `{name}` (unless `true`, `:`, `cat`, `less` or `more`): {why}"
        );
    }
    o.push('\n');
}

fn protected(o: &mut String) {
    let _ = writeln!(
        o,
        "## Protected names (SPEC §6.4)\n\n`.git`, {}, and any name ending in `.permc`, compared ignoring case.",
        code(RULE_FILES)
    );
}
