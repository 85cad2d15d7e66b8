//! Every row of the catalogue attacked (issue "Commands as data"): for
//! each row, one line the row must catch and one near miss it must not.
//! A new row is attacked the day it is written; a row whose example no
//! longer holds fails here with the line.

use super::catalogue::code::{script_language, ScriptLanguage, CODE_FORMS, CODE_OPTIONS};
use super::catalogue::shells::{FOREIGN_SHELLS, SHELLS};
use super::catalogue::wrappers::{After, RunsAs, RUNNERS, UNREADABLE, WRAPPERS};
use super::{LineFacts, EXTERNAL_EFFECT, PRIVILEGED};

/// What a wrapper needs between its name and the command it runs.
fn filler(after: After) -> &'static str {
    match after {
        After::Duration => " 5",
        After::Lock => " lockfile",
        _ => "",
    }
}

#[test]
fn every_wrapper_reads_through_to_a_deny_and_not_to_a_listing() {
    for w in WRAPPERS {
        for name in w.names {
            let (caught, near) = if w.after == After::Script {
                (
                    format!("{name} -c 'rm -rf /'"),
                    format!("{name} -c 'ls -la'"),
                )
            } else if w.after == After::Lines {
                (format!("{name} 'rm -rf /'"), format!("{name} 'ls -la'"))
            } else if w.after == After::Own {
                let opt = w.command_line[0];
                (
                    format!("{name} -{opt} 'rm -rf /'"),
                    format!("{name} -{opt} 'ls -la'"),
                )
            } else {
                let f = filler(w.after);
                (format!("{name}{f} rm -rf /"), format!("{name}{f} ls -la"))
            };
            let f = LineFacts::of(&caught);
            assert!(
                f.builtin_deny().is_some(),
                "`{caught}`: the built-in deny behind `{name}` is not read"
            );
            let f = LineFacts::of(&near);
            assert!(f.builtin_deny().is_none(), "`{near}` is taken for a deny");
        }
    }
}

#[test]
fn every_runner_row_reads_its_command() {
    for &(tool, sub, how) in RUNNERS {
        let lead = if sub.is_empty() {
            tool.to_string()
        } else {
            format!("{tool} {sub}")
        };
        let (caught, near) = match how {
            RunsAs::Argv => (format!("{lead} git push"), format!("{lead} ls")),
            RunsAs::AfterOperand => (format!("{lead} box git push"), format!("{lead} box ls")),
            RunsAs::AfterDashes => (
                format!("{lead} pod -- git push"),
                format!("{lead} pod -- ls"),
            ),
            // Read as the group's own row (`docker compose exec`): its
            // rows are attacked under the group's name.
            RunsAs::Group(_) => continue,
            // `python -m MODULE`: read as the program of the module's name,
            // covered by the segment's entry (no range given).
            RunsAs::Module => {
                let line = format!("{tool} -m twine upload dist/x");
                let f = LineFacts::of(&line);
                assert!(
                    f.runs()
                        .any(|r| r.words.first().is_some_and(|w| w == "twine")
                            && super::external_effect_known(r.words, r.known).is_some()),
                    "`{tool} -m twine upload`: the module's run is not read"
                );
                continue;
            }
            RunsAs::Shell | RunsAs::Image => {
                let line = format!("{lead} x");
                assert!(
                    LineFacts::of(&line).unparsed,
                    "`{line}` runs what permc does not read: unparsed"
                );
                let near = format!("echo {lead} x");
                assert!(!LineFacts::of(&near).unparsed, "`{near}`");
                continue;
            }
        };
        let f = LineFacts::of(&caught);
        assert!(
            f.runs()
                .any(|r| r.words.starts_with(&["git".into(), "push".into()])
                    && super::external_effect_known(r.words, r.known).is_some()),
            "`{caught}`: the push behind `{lead}` is not read"
        );
        assert!(
            f.given.iter().any(|g| g.0 == 0),
            "`{caught}`: the command `{lead}` runs is not a run given as argv"
        );
        // The near miss: what the runner runs has no effect of its own
        // (the runner itself may: `kubectl exec` reaches a cluster).
        let f = LineFacts::of(&near);
        assert!(
            f.runs()
                .skip(1)
                .all(|r| super::external_effect_known(r.words, r.known).is_none()),
            "`{near}` is taken for a push"
        );
    }
}

#[test]
fn every_code_option_is_unparsed_and_its_program_alone_is_not() {
    let mut wrong = Vec::new();
    for r in CODE_OPTIONS {
        for p in r.programs {
            let caught = format!("{p} {} file", r.example());
            if !LineFacts::of(&caught).unparsed {
                wrong.push(format!(
                    "`{caught}` runs code permc does not read: unparsed"
                ));
            }
            // The near miss: a program that reads its commands from
            // standard input without a script (`ex`, `ed`) is unparsed
            // however it is run; the others print their version.
            let near = format!("{p} --version");
            let stdin = script_language(p) == Some(ScriptLanguage::Stdin);
            if !stdin && LineFacts::of(&near).unparsed {
                wrong.push(format!("`{near}` is unparsed"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_unreadable_launcher_and_foreign_shell_is_unparsed_only_as_a_command() {
    let names = UNREADABLE
        .iter()
        .map(|(v, _)| *v)
        .chain(FOREIGN_SHELLS.iter().copied());
    for v in names {
        let caught = format!("{v} -c ls");
        assert!(LineFacts::of(&caught).unparsed, "`{caught}`");
        let near = format!("echo {v}");
        assert!(!LineFacts::of(&near).unparsed, "`{near}`");
    }
}

#[test]
fn every_shell_reads_its_command_line() {
    for sh in SHELLS {
        let caught = format!("{sh} -c 'rm -rf /'");
        assert!(
            LineFacts::of(&caught).builtin_deny().is_some(),
            "`{caught}`"
        );
        let near = format!("{sh} -c 'ls -la'");
        let f = LineFacts::of(&near);
        assert!(f.builtin_deny().is_none() && !f.unparsed, "`{near}`");
    }
}

#[test]
fn every_external_effect_entry_is_caught_and_not_as_an_argument() {
    for e in EXTERNAL_EFFECT {
        let caught = e.join(" ");
        assert!(
            LineFacts::of(&caught).external_effect().is_some(),
            "`{caught}` is not an external effect"
        );
        let near = format!("echo {caught}");
        assert!(
            LineFacts::of(&near).external_effect().is_none(),
            "`{near}` is taken for an external effect"
        );
    }
}

#[test]
fn every_privileged_program_is_caught_and_not_as_an_argument() {
    for p in PRIVILEGED {
        let caught = format!("{p} ls");
        assert!(LineFacts::of(&caught).privileged().is_some(), "`{caught}`");
        let near = format!("echo {p} ls");
        assert!(LineFacts::of(&near).privileged().is_none(), "`{near}`");
    }
}

#[test]
fn every_variable_that_names_code_is_caught_when_set_and_another_name_is_not() {
    let families = super::VARIABLE_FAMILIES
        .iter()
        .map(|(pre, post, _)| format!("{pre}X{post}"));
    let names = super::SETTING_VARIABLES
        .iter()
        .map(|(n, _)| n.to_string())
        .chain(families);
    for n in names {
        let caught = format!("{n}=./x cargo test");
        assert!(LineFacts::of(&caught).unparsed, "`{caught}`");
        // Any word that assigns it counts (`export HOME=.`, `env HOME=.`:
        // fail closed); a longer name does not.
        let near = format!("MY{n}=./x cargo test");
        assert!(!LineFacts::of(&near).unparsed, "`{near}`");
    }
}

#[test]
fn every_code_form_catches_its_example_and_not_as_an_argument() {
    for r in CODE_FORMS {
        assert!(LineFacts::of(r.example).unparsed, "`{}`", r.example);
        let near = format!("echo {}", r.example);
        assert!(!LineFacts::of(&near).unparsed, "`{near}`");
    }
}

#[test]
fn every_remote_daemon_option_and_variable_is_caught_and_a_local_run_is_not() {
    use super::catalogue::effects::{REMOTE_DAEMON_OPTIONS, REMOTE_DAEMON_VARIABLES};
    use super::ByWords;
    let clients = super::BY_WORDS
        .iter()
        .filter(|(_, how)| *how == ByWords::RemoteDaemon)
        .flat_map(|(names, _)| names.iter());
    for p in clients {
        for o in REMOTE_DAEMON_OPTIONS {
            let caught = format!("{p} {o} prod ps");
            let f = LineFacts::of(&caught);
            assert!(f.external_effect().is_some(), "`{caught}`");
        }
        for v in REMOTE_DAEMON_VARIABLES {
            for caught in [
                format!("{v}=ssh://h {p} ps"),
                format!("env {v}=ssh://h {p} ps"),
            ] {
                let f = LineFacts::of(&caught);
                assert!(f.external_effect().is_some(), "`{caught}`");
            }
            // The variable inside the container is the image's, not the client's.
            let near = format!("{p} run -e {v}=x img");
            assert!(LineFacts::of(&near).external_effect().is_none(), "`{near}`");
        }
        let near = format!("{p} ps -a");
        assert!(LineFacts::of(&near).external_effect().is_none(), "`{near}`");
        use super::catalogue::effects::{PUSH_FALSE, PUSH_KEY, REGISTRY_TYPE};
        let outputs = [
            REGISTRY_TYPE.to_uppercase(),
            format!("type=image,{PUSH_KEY}1"),
            format!("type=image,{PUSH_KEY}TRUE"),
        ];
        for o in outputs {
            let caught = format!("{p} build -o {o} .");
            assert!(
                LineFacts::of(&caught).external_effect().is_some(),
                "`{caught}`"
            );
        }
        let near = format!("{p} build -o type=docker .");
        assert!(LineFacts::of(&near).external_effect().is_none(), "`{near}`");
        for f in PUSH_FALSE {
            let near = format!("{p} build -o type=image,{PUSH_KEY}{f} .");
            assert!(LineFacts::of(&near).external_effect().is_none(), "`{near}`");
        }
    }
}

#[test]
fn every_program_read_as_another_is_read_so_and_not_as_an_argument() {
    use super::catalogue::wrappers::READS_AS;
    for (names, _) in READS_AS {
        for p in *names {
            let caught = format!("{p} push origin main");
            assert!(
                LineFacts::of(&caught).external_effect().is_some(),
                "`{caught}`"
            );
            let near = format!("echo {p} push");
            assert!(LineFacts::of(&near).external_effect().is_none(), "`{near}`");
            let near = format!("{p} status");
            assert!(LineFacts::of(&near).external_effect().is_none(), "`{near}`");
        }
    }
}

#[test]
fn every_reading_by_words_catches_its_form_and_not_a_read() {
    use super::ByWords;
    for (names, how) in super::BY_WORDS {
        for p in *names {
            let (caught, near) = match how {
                ByWords::GhApi => (format!("{p} api -X POST /x"), format!("{p} api /x")),
                ByWords::RemoteDaemon => (format!("{p} -H tcp://h ps"), format!("{p} ps")),
                ByWords::SshHost => (format!("{p} host ls"), format!("{p} -V")),
                ByWords::RemoteOperand { any: false } => {
                    (format!("{p} a host:b"), format!("{p} a b"))
                }
                ByWords::RemoteOperand { any: true } => {
                    (format!("{p} host"), format!("echo {p} host"))
                }
                ByWords::RemoteArchive => (
                    format!("{p} -cf host:a.tar src"),
                    format!("{p} -cf host:a.tar --force-local src"),
                ),
                ByWords::CloudVerb => (format!("{p} s3 rm x"), format!("{p} s3 ls")),
                ByWords::Words { words, .. } => (
                    format!("{p} {}", words.join(" ")),
                    format!("{p} {} x", words[..words.len() - 1].join(" ")),
                ),
            };
            assert!(
                LineFacts::of(&caught).external_effect().is_some(),
                "`{caught}`"
            );
            assert!(LineFacts::of(&near).external_effect().is_none(), "`{near}`");
        }
    }
}

#[test]
fn every_git_code_option_is_unparsed_and_a_quiet_run_is_not() {
    for r in super::catalogue::git::GIT_CODE_OPTIONS {
        for sub in r.subcommands {
            for spell in r.spells {
                let caught = format!("git {sub} {} y", spell.example());
                assert!(LineFacts::of(&caught).unparsed, "`{caught}`");
            }
            let near = format!("git {sub} -q");
            assert!(!LineFacts::of(&near).unparsed, "`{near}`");
        }
    }
}

#[test]
fn every_git_editor_start_is_unparsed_and_a_message_is_not() {
    use super::catalogue::git::GIT_EDITOR_STARTS;
    for r in GIT_EDITOR_STARTS {
        // A row of a verb (`git notes add`) reads past it.
        let sub = match r.verbs.first() {
            Some(v) => format!("{} {v}", r.subcommand),
            None => r.subcommand.to_string(),
        };
        let valued = |n: &str| (n.len() == 1 && r.valued.contains(n)) || r.long_valued.contains(&n);
        let spell = |n: &str| {
            let dash = if n.len() == 1 { "-" } else { "--" };
            format!("{dash}{n}{}", if valued(n) { " v" } else { "" })
        };
        let msg = r.message.first().map_or(String::new(), |m| spell(m));
        for o in r.edit.iter().chain(r.interactive) {
            let caught = format!("git {sub} {msg} {}", spell(o));
            assert!(LineFacts::of(&caught).unparsed, "`{caught}`");
        }
        let bare = format!("git {sub} .");
        assert_eq!(LineFacts::of(&bare).unparsed, r.by_default, "`{bare}`");
        for o in r.default_with {
            let caught = format!("git {sub} {} .", spell(o));
            assert!(LineFacts::of(&caught).unparsed, "`{caught}`");
            let near = format!("git {sub} {msg} {} .", spell(o));
            assert!(!LineFacts::of(&near).unparsed, "`{near}`");
        }
        for m in r.message {
            let near = format!("git {sub} {}", spell(m));
            assert!(!LineFacts::of(&near).unparsed, "`{near}`");
        }
    }
}

#[test]
fn every_git_configuration_key_that_names_code_is_caught_and_a_name_is_not() {
    use super::catalogue::git::{GIT_CODE_KEYS, GIT_CODE_NAMES, GIT_CODE_SECTIONS};
    let keys = GIT_CODE_KEYS
        .iter()
        .map(|k| k.to_string())
        .chain(GIT_CODE_SECTIONS.iter().map(|s| format!("{s}.x")))
        .chain(GIT_CODE_NAMES.iter().map(|n| format!("diff.x.{n}")));
    for k in keys {
        let caught = format!("git config {k} 'curl x'");
        assert!(LineFacts::of(&caught).unparsed, "`{caught}`");
    }
    let near = "git config user.name bot";
    assert!(!LineFacts::of(near).unparsed, "`{near}`");
}

#[test]
fn every_program_that_runs_text_is_caught_by_its_options_and_not_without() {
    use super::catalogue::code::{TextOptions, PROGRAM_TEXT};
    for (names, how) in PROGRAM_TEXT {
        for p in *names {
            let (mut caught, near) = match how {
                TextOptions::Tar => (
                    vec![
                        format!("{p} -cf a.tar --to-command=x ."),
                        format!("{p} -cIx -f a ."),
                    ],
                    format!("{p} -cf a.tar ."),
                ),
                TextOptions::RemoteShell => (
                    vec![
                        format!("{p} -e 'sh -c x' a h:b"),
                        format!("{p} --rsh=x a h:b"),
                    ],
                    format!("{p} -e ssh a h:b"),
                ),
                TextOptions::Ssh { .. } => (
                    vec![format!("{p} -o ProxyCommand=x h")],
                    format!("{p} -o Port=22 h"),
                ),
            };
            if let TextOptions::Ssh { program, server } = how {
                if *program {
                    caught.push(format!("{p} -S x a h:b"));
                }
                if *server {
                    caught.push(format!("{p} -D x h"));
                }
            }
            for c in caught {
                assert!(LineFacts::of(&c).unparsed, "`{c}`");
            }
            assert!(!LineFacts::of(&near).unparsed, "`{near}`");
        }
    }
}

#[test]
fn every_later_on_host_entry_is_caught_and_not_as_an_argument_nor_in_a_container() {
    use super::catalogue::effects::{LATER_ON_HOST, LATER_READS};
    for e in LATER_ON_HOST {
        let caught = e.join(" ");
        let f = LineFacts::of(&caught);
        assert!(f.later_on_host().is_some(), "`{caught}` runs nothing later");
        assert!(f.external_effect_at(false).is_some(), "`{caught}`");
        assert!(
            f.external_effect_at(true).is_none(),
            "`{caught}` is external in the running container"
        );
        let near = format!("echo {caught}");
        assert!(LineFacts::of(&near).later_on_host().is_none(), "`{near}`");
    }
    for e in LATER_READS {
        let near = e.join(" ");
        assert!(LineFacts::of(&near).later_on_host().is_none(), "`{near}`");
        // An unknown word may be any form.
        let caught = format!("{} $X", e[0]);
        assert!(
            LineFacts::of(&caught).later_on_host().is_some(),
            "`{caught}`"
        );
    }
}

#[test]
fn every_detaching_wrapper_is_caught_and_not_in_the_foreground() {
    use super::catalogue::wrappers::Detach;
    for w in WRAPPERS {
        let (caught, near) = match w.detach {
            Detach::Never => continue,
            Detach::Unless(options, _) => (
                format!("{} make", w.names[0]),
                format!("{} -{} make", w.names[0], options[0]),
            ),
            Detach::Backgrounded => (
                format!("{} make > log &", w.names[0]),
                format!("{} make > log", w.names[0]),
            ),
        };
        assert!(
            LineFacts::of(&caught).later_on_host().is_some(),
            "`{caught}`"
        );
        assert!(LineFacts::of(&near).later_on_host().is_none(), "`{near}`");
    }
}

#[test]
fn every_variable_option_names_code_when_its_value_does() {
    for w in WRAPPERS {
        for o in w.variable {
            // A letter attached, a long name after `=`.
            let o = if o.len() == 1 {
                format!("-{o}")
            } else {
                format!("--{o}=")
            };
            for name in ["PATH", "LD_PRELOAD", "GIT_CONFIG_GLOBAL", "$V"] {
                let caught = format!("{} {o}{name} ls", w.names[0]);
                assert!(LineFacts::of(&caught).unparsed, "`{caught}`");
            }
            let near = format!("{} {o}SLOT ls", w.names[0]);
            assert!(!LineFacts::of(&near).unparsed, "`{near}`");
        }
    }
}

#[test]
fn every_tmux_line_command_reads_its_shell_command_and_the_others_are_unparsed() {
    use super::catalogue::tmux::{TMUX, TMUX_COMMANDS, TMUX_LINES, TMUX_UNREAD};
    for (name, ..) in TMUX_LINES {
        let alias = TMUX_COMMANDS
            .iter()
            .find(|c| c.0 == *name)
            .map_or("", |c| c.1);
        for n in [*name, alias].into_iter().filter(|n| !n.is_empty()) {
            let caught = format!("{TMUX} {n} 'rm -rf /'");
            assert!(
                LineFacts::of(&caught).builtin_deny().is_some(),
                "`{caught}`"
            );
            let near = format!("{TMUX} {n} 'ls -la'");
            let f = LineFacts::of(&near);
            assert!(f.builtin_deny().is_none() && !f.unparsed, "`{near}`");
        }
    }
    for name in TMUX_UNREAD {
        let caught = format!("{TMUX} {name} x");
        assert!(LineFacts::of(&caught).unparsed, "`{caught}`");
        let near = format!("echo {TMUX} {name} x");
        assert!(!LineFacts::of(&near).unparsed, "`{near}`");
    }
}

#[test]
fn every_stdin_command_reader_is_caught_when_fed_and_not_with_its_words() {
    use super::catalogue::code::STDIN_COMMAND_READERS;
    let fed = |line: &str| {
        LineFacts::of(line)
            .unparsed_reasons()
            .iter()
            .any(|w| w.contains("from standard input, here a pipe"))
    };
    for r in STDIN_COMMAND_READERS {
        for p in r.programs {
            let caught = format!("echo x | {p} f");
            assert!(fed(&caught), "`{caught}`");
            let alone = format!("{p} f");
            assert!(!fed(&alone), "`{alone}`");
            for w in r.not_with {
                let near = format!("echo x | {p} {w} v f");
                assert!(!fed(&near), "`{near}`");
            }
            if let Some(n) = r.operand {
                let operands = vec!["o"; n + 1].join(" ");
                let near = format!("echo x | {p} {operands}");
                assert!(!fed(&near), "`{near}`");
            }
        }
    }
}

/// SPEC §4.5 item 2: every described row leaves an option it lacks
/// unplaced (an entry naming the program does not cover it; where the row
/// writes or runs, it lowers with `unknown.word`), and covers its program
/// with its first flag.
#[test]
fn every_described_row_leaves_an_unknown_option_unplaced_and_places_its_flags() {
    use super::catalogue::described::{ARGPARSE, DESCRIBED, GO, LEADING_CLUSTERS, NOPT, NOPT_EXEC};
    use super::continuations::{mutating_from, unplaced};
    let read = |line: &str| {
        let l = crate::reader::read(line);
        let s = &l.segments[0];
        (
            mutating_from(&s.words, &s.known),
            unplaced(&s.words, &s.known).map(|(i, _)| i),
        )
    };
    for d in DESCRIBED {
        let program = d.program.join(" ");
        let flag = d.flags.first().and_then(|e| e.split(' ').next());
        let near = format!("{program} {}", flag.unwrap_or(""));
        let l = crate::reader::read(&near);
        let s = &l.segments[0];
        let found = super::described::walk(d, &s.words, &s.known, d.program.len(), true);
        assert_eq!(found, Default::default(), "{near}");
        if d.grammar == LEADING_CLUSTERS {
            // Every word that is no leading flag is printed.
            continue;
        }
        if matches!(d.grammar, NOPT | NOPT_EXEC) {
            // A key nopt's row does not list is set and handed to the
            // scripts (`open`); a value read again as a word is unplaced.
            assert_eq!(read(&format!("{program} --zz-permc-open=x")), (None, None));
            // (`nopt-exec`: every word after the package is the package's.)
            let caught = format!("{program} --json=--zz-permc-open");
            let expected = (d.grammar == NOPT).then_some(d.program.len());
            assert_eq!(read(&caught).0, expected, "{caught}");
            continue;
        }
        let caught = format!("{program} --zz-permc-unplaced");
        if matches!(d.grammar, GO | ARGPARSE) && !d.open.is_empty() {
            // An option the row lacks is open (a plugin's, the test
            // binary's): covered, and its first writing option is not.
            assert_eq!(read(&caught), (None, None), "{caught}");
            let (list, _) = d
                .options()
                .into_iter()
                .find(|(l, k)| k.writes_or_runs() && !l.is_empty())
                .expect("a writing option");
            let opt = list[0]
                .split(' ')
                .next()
                .unwrap_or("")
                .trim_end_matches("[=]");
            let caught = format!("{program} {opt}=x");
            assert_eq!(read(&caught).0, Some(d.program.len()), "{caught}");
            continue;
        }
        let (mutating, lowers) = read(&caught);
        assert_eq!(mutating, Some(d.program.len()), "{caught}");
        assert_eq!(lowers.is_some(), d.lowers(), "{caught}");
    }
}
