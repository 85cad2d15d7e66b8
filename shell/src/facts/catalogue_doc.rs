//! `docs/commands.md`, generated from the catalogue's rows (SPEC §4.3
//! round 3: the documentation reads the same tables as the decision, so
//! they cannot disagree). `tests/commands_doc.rs` keeps the file current;
//! `PERMC_BLESS=1` rewrites it.

use super::catalogue::code::{CODE_FORMS, CODE_OPTIONS};
use super::catalogue::continuations::{Shape, CONTINUATIONS};
use super::catalogue::git::{GIT_CODE_KEYS, GIT_CODE_NAMES, GIT_CODE_OPTIONS, GIT_CODE_SECTIONS};
use super::catalogue::paths::RULE_FILES;
use super::catalogue::shells::{FOREIGN_SHELLS, SHELLS};
use super::catalogue::wrappers::{RunsAs, READS_AS, RUNNERS, UNREADABLE, WRAPPERS};
use super::code_options::SCRIPTS;
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
    stdin_readers(&mut o);
    listed_places(&mut o);
    stdin_command_readers(&mut o);
    code_options(&mut o);
    code_forms(&mut o);
    git_code_options(&mut o);
    git_editor(&mut o);
    git_code_keys(&mut o);
    external(&mut o);
    remote_clients(&mut o);
    described(&mut o);
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
            match (w.privileged, w.unprivileged_by) {
                (false, _) => String::new(),
                (true, []) => "yes".to_string(),
                (true, by) => {
                    let dashed = |n: &&str| {
                        if n.len() == 1 {
                            format!("`-{n}`")
                        } else {
                            format!("`--{n}`")
                        }
                    };
                    format!(
                        "yes, unless {}",
                        by.iter().map(dashed).collect::<Vec<_>>().join(", ")
                    )
                }
            }
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
            RunsAs::Image if super::catalogue::effects::COMPOSE_PROGRAMS.contains(tool) => {
                "a service's image and entrypoint (unparsed; privileged outside the running container)"
                    .to_string()
            }
            RunsAs::Image => "an image's entrypoint (unparsed)".to_string(),
            RunsAs::AfterOperand => "the command after the container".to_string(),
            RunsAs::AfterDashes => "the command after `--`".to_string(),
            RunsAs::Group(g) => format!("read as `{g}`"),
            RunsAs::Module => {
                "the module after `-m`, read as the program of its name".to_string()
            }
        };
        let _ = writeln!(o, "| `{name}` | {how} |");
    }
    o.push_str(
        "\nA command word that is none of the package manager's own commands runs \
         the project's script of that name or, with no such script, a program \
         (`pnpm git push` pushes): the words from it on are a run for deny, ask, \
         the built-ins and the ceilings, covered by the entry that covers the \
         segment. Its own commands are never read so.\n\n\
         | package manager | and after | not a run |\n|---|---|---|\n",
    );
    for (tool, own, again, run) in super::catalogue::wrappers::SCRIPT_OR_PROGRAM {
        let after: Vec<String> = run.iter().map(|r| format!("`{tool} {r}`")).collect();
        let mut not = own.to_vec();
        not.retain(|w| !again.contains(w));
        let again = if again.is_empty() {
            String::new()
        } else {
            format!("; the command again after {}", code(again))
        };
        let _ = writeln!(
            o,
            "| `{tool}` | {}{again} | {} |",
            if after.is_empty() {
                "—".to_string()
            } else {
                after.join(", ")
            },
            code(&not)
        );
    }
    o.push('\n');
}

fn stdin_readers(o: &mut String) {
    use super::catalogue::wrappers::{StdinReads, STDIN_PATH_READERS};
    o.push_str(
        "## Programs that read places from standard input (SPEC §4.2)

         Fed a here-document or a here-string, with these words: each line of a          quoted body (or a literal here-string) is a place for the scope and the          protected paths, each line of an unquoted body an unknown word.

         | program | with | reads |
|---|---|---|
",
    );
    for (program, with, reads) in STDIN_PATH_READERS {
        let with = if with.is_empty() {
            "any words".to_string()
        } else {
            code(with)
        };
        let reads = match reads {
            StdinReads::Paths => "a path a line",
            StdinReads::Patch => "a diff: a write into the worktree root (SPEC §6.4)",
            StdinReads::Unread => "data permc does not read (unparsed)",
        };
        let _ = writeln!(o, "| `{program}` | {with} | {reads} |");
    }
    o.push('\n');
}

fn listed_places(o: &mut String) {
    use super::catalogue::wrappers::{Listed, LISTED_PLACES};
    o.push_str(
        "## Programs that read places from a file (SPEC §4.4)\n\n\
         The places they work on come from a file permc does not read: \
         an unknown word for the scope (`$(cat list)`), and for the \
         protected paths too where they write them. `-` (or no operand) \
         is standard input: unknown when a pipe or a `<` feeds it, a \
         here-document's lines as above. A long option is taken down to \
         the shortest prefix the program takes for it.\n\n\
         | program | with | the file | writes them |\n|---|---|---|---|\n",
    );
    for (program, sub, with, listed, written) in LISTED_PLACES {
        let program = if sub.is_empty() {
            (*program).to_string()
        } else {
            format!("{program} {sub}")
        };
        let listed = match listed {
            Listed::Value => "the option's value",
            Listed::ValueOrBare => {
                "the option's value, in the old style too (`tar cfT a.tar list`)"
            }
            Listed::Operands => "each operand",
        };
        let written = if *written { "yes" } else { "no" };
        let with: Vec<String> = with
            .iter()
            .map(|w| match w.split_once('|') {
                Some((least, rest)) => format!("`{least}{rest}` (down to `{least}`)"),
                None => format!("`{w}`"),
            })
            .collect();
        let _ = writeln!(
            o,
            "| `{program}` | {} | {listed} | {written} |",
            with.join(", ")
        );
    }
    o.push('\n');
}

fn stdin_command_readers(o: &mut String) {
    use super::catalogue::code::STDIN_COMMAND_READERS;
    o.push_str(
        "## Programs that read commands from standard input (SPEC §4.2)\n\n\
         When the line feeds their standard input — a pipe from the command \
         before (`|`, `|&`), a here-document, a here-string, a `<` redirection \
         of the segment or of a compound command around it (`done < f`) — \
         the line is unparsed, unless a word below says the commands come \
         from elsewhere. `< /dev/null` and `<&-` feed nothing.\n\n\
         | programs | reads | not with | verified |\n|---|---|---|---|\n",
    );
    for r in STDIN_COMMAND_READERS {
        let mut not_with = code(r.not_with);
        if let Some(n) = r.operand {
            let sep = if r.not_with.is_empty() { "" } else { ", " };
            let _ = write!(not_with, "{sep}operand {} (its commands)", n + 1);
        }
        if not_with.is_empty() {
            not_with.push('—');
        }
        let _ = writeln!(
            o,
            "| {} | {} | {not_with} | {} |",
            code(r.programs),
            cell(r.reads),
            cell(r.verified)
        );
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

fn git_editor(o: &mut String) {
    o.push_str(
        "## git subcommands that start git's editor (SPEC §4.3)\n\n\
         The editor is the program `GIT_EDITOR`, `core.editor`, `VISUAL` or `EDITOR` \
         names, else `vi`: permc does not know it, and it reads its commands from \
         standard input (vi's `:!` runs a shell command), as `ed` and `ex` do. A \
         line that starts it is unparsed, in every mode; `GIT_EDITOR=:` or \
         `GIT_EDITOR=true` on the line starts nothing. Options are read as git's \
         parse-options reads them; a word it cannot place may be `--edit`.\n\n\
         | subcommand | starts it | whatever else is given | without a message | gives the message, or starts nothing |\n|---|---|---|---|---|\n",
    );
    let spell = |n: &&str| {
        if n.len() == 1 {
            format!("-{n}")
        } else {
            format!("--{n}")
        }
    };
    for r in super::catalogue::git::GIT_EDITOR_STARTS {
        let list = |names: &[&str]| {
            let s: Vec<String> = names.iter().map(spell).collect();
            cell(&code(&s.iter().map(String::as_str).collect::<Vec<_>>()))
        };
        let _ = writeln!(
            o,
            "| `git {}{}` | {} | {} | {} | {} |",
            r.subcommand,
            if r.verbs.is_empty() {
                String::new()
            } else {
                format!(" {}", r.verbs.join("\\|"))
            },
            list(r.edit),
            list(r.interactive),
            if r.by_default { "yes" } else { "no" },
            list(&[r.message, r.excludes].concat())
        );
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

/// Each remote client's global options and its reads' own options: an
/// option word neither places makes the run no described read.
fn read_options(o: &mut String) {
    use super::catalogue::remote::CLIENTS;
    o.push_str(
        "\nThe options each client's row places (SPEC §4.5 items 2 and 3): its global \
         and common ones, then each read's own (`=`: takes a value). Any other option \
         word makes the run no described read: external.\n\n",
    );
    for c in CLIENTS {
        let mut names = vec![c.names.join("/")];
        names.extend(c.tree.iter().map(|t| t.to_string()));
        let _ = writeln!(
            o,
            "- {} ({}): {}",
            names.join(" "),
            c.version,
            if c.valued.is_empty() && c.flags.is_empty() {
                "none".to_string()
            } else {
                code(&[c.valued, c.flags].concat())
            }
        );
        for r in c.read_options {
            let (path, opts) = r.split_first().unwrap_or((&"", &[]));
            let _ = writeln!(o, "  - `{path}`: {}", code(opts));
        }
    }
}

/// The raw socket clients' rows (`shell/catalogue/net.toml`).
fn socket_clients(o: &mut String) {
    o.push_str(
        "\nSocket clients (`shell/catalogue/net.toml`) and `/dev/tcp|udp/HOST/PORT`: \
         external unless every address is loopback written as such (`localhost`, \
         `127.N.N.N`, `::1`) and the command runs in the running container; a word \
         the row does not place (an option, an address type or option) leaves \
         the run external, and so does a listener without a loopback address.\n\n",
    );
    for s in super::catalogue::remote::net::SOCKETS {
        let mut how = vec![format!("options {}", code(&[s.flags, s.valued].concat()))];
        if !s.needs.is_empty() {
            how.push(format!("needs one of {}", code(s.needs)));
        }
        if s.addresses {
            how.push(format!(
                "addresses {}, {} (`HOST:PORT`), {} (`PORT`, with a loopback {}); address options {}",
                code(s.local),
                code(s.connect),
                code(s.listeners),
                code(s.bind),
                code(s.address_options)
            ));
        }
        let _ = writeln!(o, "- {} ({}): {}", code(s.names), s.version, how.join("; "));
    }
    let lookups: Vec<String> = super::catalogue::remote::net::LOOKUPS
        .iter()
        .map(|r| r[..r.len().saturating_sub(1)].join(" "))
        .collect();
    let lookups: Vec<&str> = lookups.iter().map(String::as_str).collect();
    let _ = writeln!(
        o,
        "\nName lookups, probes and fetches of what a word names (`shell/catalogue/net.toml` \
         `lookups`): {} — a read of a literal name or URL; a word with an unknown part \
         is an external effect (what it expands to travels to a nameserver or to the \
         host it names).",
        code(&lookups)
    );
    o.push_str(
        "\nListeners (`shell/catalogue/net.toml` `listeners`): a debugger's, a \
         notebook's or an editor's server whose address an option gives is an \
         external effect when the option names an address that is not loopback \
         written as such, or one permc cannot know (whoever reaches it runs code); \
         a port alone, or no such option, is the program's loopback default.\n\n",
    );
    for l in super::catalogue::remote::net::LISTENERS {
        let mut how = Vec::new();
        if !l.subcommands.is_empty() {
            how.push(format!("subcommands {}", code(l.subcommands)));
        }
        for (what, list) in [
            ("attached by `=`", l.attached),
            ("with an optional value", l.optional),
            ("with a value", l.valued),
        ] {
            if !list.is_empty() {
                how.push(format!("{what} {}", code(list)));
            }
        }
        let _ = writeln!(
            o,
            "- {} — {} ({}): {}",
            code(l.names),
            l.service,
            l.version,
            how.join("; ")
        );
    }
    o.push_str(
        "\nDatabase clients (`shell/catalogue/net.toml`): external unless every server \
         the run names is loopback written as such, a Unix socket or the client's \
         default (none named), and the command runs in the running container. A URI \
         or a connection string (`host=`, `hostaddr=`; `service=` always) anywhere \
         on the line names a server; so does an option below (a long one also by a \
         prefix) and an assignment of a server variable before the program.\n\n",
    );
    for d in super::catalogue::remote::net::DATABASES {
        let mut how = vec![format!("host {}", code(d.host))];
        if !d.socket.is_empty() {
            how.push(format!("socket {}", code(d.socket)));
        }
        if !d.elsewhere.is_empty() {
            how.push(format!("always external {}", code(d.elsewhere)));
        }
        if d.bare_hosts {
            how.push("an operand with `.`, `:` or `/` is a host".into());
        }
        if d.host_operand {
            how.push("the first operand is the host".into());
        }
        how.push(format!("no connection {}", code(d.offline)));
        let _ = writeln!(o, "- {} ({}): {}", code(d.names), d.version, how.join("; "));
    }
}

fn remote_clients(o: &mut String) {
    use super::catalogue::remote::{CLIENTS, GOALS};
    o.push_str(
        "## Remote clients (SPEC §4.5 item 3)\n\n\
         The rows of `shell/catalogue/remote.toml`. Every subcommand path of a \
         client is an external effect unless listed here as a read: a read is a \
         whole path (`*`: operands may follow; else nothing may), `!OPTION` \
         makes that read external, `+OPTION` is needed. The options in the last \
         column make any read external (another endpoint, a program started, a \
         file of settings). Always-allow records a read's whole segment (§7).\n\n\
         | client | service, version | reads | external options |\n|---|---|---|---|\n",
    );
    for c in CLIENTS {
        let mut names: Vec<String> = c
            .names
            .iter()
            .map(|n| {
                let mut v = vec![*n];
                v.extend(c.tree);
                v.join(" ")
            })
            .collect();
        if !c.only.is_empty() {
            names.push(format!("({} only)", c.only.join(", ")));
        }
        if !c.prefixes.is_empty() {
            names.push(format!("(tasks {}…)", c.prefixes.join(", ")));
        }
        let mut reads: Vec<&str> = c.reads.to_vec();
        if c.bare_read {
            reads.insert(0, "(alone)");
        }
        let _ = writeln!(
            o,
            "| {} | {}, {} | {} | {} |",
            cell(&names.join(" ")),
            cell(c.service),
            cell(c.version),
            cell(&code(&reads)),
            cell(&code(c.external))
        );
    }
    o.push_str(
        "\nHTTP clients (`shell/catalogue/http.toml`): their reads are the downloads; \
         a request that sends something is an external effect — these options \
         (by any prefix, in a cluster, attached), a method other than the reading \
         ones, a `@FILE` value, a scheme not listed, a word permc cannot know.\n\n",
    );
    for h in super::catalogue::remote::http::CLIENTS {
        let _ = writeln!(
            o,
            "- {} ({}): {}; methods by {} other than {}; `@FILE` in {}; schemes {}",
            code(h.names),
            h.version,
            code(h.writes),
            code(h.methods),
            code(h.read_methods),
            code(h.at_file),
            code(h.schemes)
        );
    }
    read_options(o);
    socket_clients(o);
    o.push_str("\nBuild tools whose goals, anywhere among the operands, publish:\n\n");
    for g in GOALS {
        let _ = writeln!(
            o,
            "- {}: an operand holding {}{}{}",
            code(g.names),
            code(g.containing),
            if g.abbreviating.is_empty() {
                String::new()
            } else {
                format!(", or abbreviating {}", code(g.abbreviating))
            },
            if g.local.is_empty() {
                String::new()
            } else {
                format!(
                    "; but an operand that is one of {} (to the machine's own repository)",
                    code(g.local)
                )
            }
        );
    }
    o.push('\n');
}

fn described(o: &mut String) {
    use super::catalogue::described::DESCRIBED;
    use super::described::spellings;
    o.push_str(
        "## Programs described completely (SPEC §4.5 items 1 and 2)\n\n\
         The rows of `shell/catalogue/described/`, each read as its grammar \
         says the program reads options: `getopt` (GNU getopt_long: long ones by a \
         unique prefix, short ones in clusters), `git` (parse-options: the same, and \
         `--no-` forms), `git-revisions` (whole spellings, each `--no-` form listed), `exact` (whole words), \
         `leading-clusters` (options only as the first words), `getopt-leading` \
         (getopt_long with `+`: the first operand ends the options; a `command` \
         operand is a run, a segment of its own) or `find` (leading options, \
         start paths, then operators and primaries spelled whole, `-exec`'s run \
         to `;` or `{} +`). \
         Each option has a kind (§4.5 item 1). Past an allow entry, a word a row \
         cannot place or an option of a kind that writes or runs means the entry \
         does not cover the segment (§3.2); where the row has a kind that writes or \
         runs, an unplaced word lowers with `unknown.word` in every mode (§4.5 \
         item 2). *verified* names the version and the \
         date the real program last verified the row (tests/oracle); a row not \
         verified only tightens.\n\n\
         | command | version | grammar | operands | options by kind | verified |\n|---|---|---|---|---|---|\n",
    );
    for d in DESCRIBED {
        let mut kinds: Vec<String> = d
            .options()
            .iter()
            .filter(|(list, _)| !list.is_empty())
            .map(|(list, kind)| {
                let names: Vec<&str> = spellings(list).collect();
                format!("{}: {}", kind.name(), code(&names))
            })
            .collect();
        // How git's parsers read some of them (README.md's fields).
        for (what, list) in [
            ("no `--no-` form", d.no_negation),
            ("value only next", d.next_only),
            ("value optional when last", d.last_arg_default),
        ] {
            if !list.is_empty() {
                kinds.push(format!("{what}: {}", code(list)));
            }
        }
        if d.options_first {
            kinds.push("options only before the first operand".to_string());
        }
        let verified = if d.verified {
            format!("{}, {}", d.verified_version, d.verified_on)
        } else {
            "no".to_string()
        };
        let _ = writeln!(
            o,
            "| `{}` | {} | {} | {} | {} | {} |",
            d.program.join(" "),
            d.version,
            d.grammar,
            operands_cell(d),
            cell(&kinds.join("; ")),
            verified
        );
    }
    o.push('\n');
}

/// A described row's operand kinds, led by the text operand an option
/// may give instead (`operand-given-by`).
fn operands_cell(d: &super::catalogue::described::Described) -> String {
    let kinds = d.operands.join(", ");
    let kinds = if d.count_word.is_empty() {
        kinds
    } else {
        format!("{kinds} (a first `-NUM[{}]` is its count)", d.count_word)
    };
    if d.operand_given_by.is_empty() {
        return kinds;
    }
    let options: Vec<String> = d
        .operand_given_by
        .iter()
        .filter_map(|e| e.split(' ').next())
        .map(|s| format!("`{s}`"))
        .collect();
    format!("text unless {} give it, then {kinds}", options.join(", "))
}

/// SPEC §6.1 round 4: what runs later on the person's machine.
fn later(o: &mut String) {
    use super::catalogue::effects::{LATER_ON_HOST, LATER_READS};
    o.push_str(
        "\nWhat leaves something that runs later on the person's machine (round 4): \
         external unless the command runs in the running container. A short option \
         is found in a cluster too (`screen -dmS x`), each command of a tmux \
         sequence is read (`tmux ls \\; new -d`), and `setsid` without `-w` and a `nohup` \
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
