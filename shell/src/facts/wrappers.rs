//! The verb behind wrappers (SPEC §4.3 [hardening]): the option grammar of
//! every wrapper as its manual defines it, and the reading that finds what
//! a segment really runs.
//!
//! An option permc cannot place makes the line unparsed: the verb is never
//! guessed. Each wrapper of SPEC §4.3's table is one row of [`WRAPPERS`]
//! (its names, options with and without a value, long forms, what else is
//! skipped: a command-line option, `env -`, `nice -5`, timeout's duration,
//! xargs' appended words); one function, [`read_options`], reads every row,
//! and [`collect_runs`] reads past them.

use super::options::{self, Grammar, Item, Mode, Value};
use super::{basename, is_assignment, LineFacts, RunData, MAX_INNER_DEPTH};
use crate::reader::{self, Known};

/// How a wrapper treats the words after its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum After {
    /// The next word is the verb.
    Verb,
    /// `timeout`: a duration, then the verb.
    Duration,
    /// `xargs`: the verb, followed by words xargs appends (unknown).
    Xargs,
    /// `flock`: the lock file, then the verb, or `-c`/`--command` and a
    /// command line.
    Lock,
    /// `watch`: the words after the options, joined by spaces, are a
    /// command line `sh -c` runs.
    ShellLine,
    /// `script`: no verb (its operand is a log file); only a command-line
    /// option (`-c`) says what runs, else an interactive shell does.
    Script,
}

/// One wrapper's option grammar (GNU getopt: clusters, attached values,
/// long options by unambiguous prefix, `--name=value`).
#[derive(Debug)]
pub(crate) struct Wrapper {
    /// The names it is run by.
    pub names: &'static [&'static str],
    /// Short options without a value.
    pub flags: &'static str,
    /// Short options whose value is the rest of the word or the next word.
    pub valued: &'static str,
    /// Short options whose value, if any, is attached only (`-i[R]`).
    pub optional: &'static str,
    /// Long options without a value.
    pub long_flags: &'static [&'static str],
    /// Long options with a value (`--user root`, `--user=root`).
    pub long_valued: &'static [&'static str],
    /// Long options whose value is given only with `=`.
    pub long_optional: &'static [&'static str],
    /// Options whose value is a command line of its own (`env -S`, `su
    /// -c`), by canonical letter or long name; the first names it in
    /// messages.
    pub command_line: &'static [&'static str],
    /// `-` alone is an option (`env -` is `env -i`), not the verb.
    pub lone_dash: bool,
    /// `-N`, `--N`, `-+N` (digits) is the obsolete form of an option
    /// (`nice -5` is `nice -n 5`).
    pub numeric: bool,
    /// A privileged wrapper (SPEC §5 step 7b).
    pub privileged: bool,
    /// Without a verb it runs an interactive shell (`chroot DIR`,
    /// `fakeroot`), which reads its commands from standard input: the
    /// line is unparsed, as for a shell (SPEC §4.3).
    pub bare_shell: bool,
    /// What follows the options.
    pub after: After,
    /// Options whose value, when it starts with `|` or `!`, is a command
    /// line the wrapper runs (`strace -o '|cmd'`): unparsed.
    pub piped: &'static [&'static str],
}

const fn w(names: &'static [&'static str]) -> Wrapper {
    Wrapper {
        names,
        flags: "",
        valued: "",
        optional: "",
        long_flags: &["help", "version"],
        long_valued: &[],
        long_optional: &[],
        command_line: &[],
        lone_dash: false,
        numeric: false,
        privileged: false,
        bare_shell: false,
        after: After::Verb,
        piped: &[],
    }
}

impl Wrapper {
    /// The row's options as the option reader reads them: getopt_long,
    /// stopping at the verb (its first operand).
    pub(crate) fn grammar(&self) -> Grammar<'_> {
        Grammar {
            flags: self.flags,
            valued: self.valued,
            optional: self.optional,
            long_flags: self.long_flags,
            long_valued: self.long_valued,
            long_optional: self.long_optional,
            lone_dash: self.lone_dash,
            numeric: self.numeric,
            ..Grammar::new(Mode::Gnu)
        }
    }
}

/// The wrappers of SPEC §4.3, with every option of their manuals (GNU
/// coreutils, findutils, sudo 1.9, OpenBSD doas, util-linux, bash's
/// `command`/`builtin`/`exec`/`time`).
pub(crate) const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        flags: "i0v",
        valued: "uCS",
        long_flags: &[
            "ignore-environment",
            "null",
            "debug",
            "list-signal-handling",
            "help",
            "version",
        ],
        long_valued: &["unset", "chdir", "split-string"],
        long_optional: &["block-signal", "default-signal", "ignore-signal"],
        command_line: &["S", "split-string"],
        lone_dash: true,
        ..w(&["env"])
    },
    Wrapper {
        flags: "AbBEeHiKklNnPSsVv",
        valued: "acCDghpRrtTUu",
        long_flags: &[
            "askpass",
            "background",
            "bell",
            "edit",
            "help",
            "set-home",
            "login",
            "remove-timestamp",
            "reset-timestamp",
            "list",
            "no-update",
            "non-interactive",
            "preserve-groups",
            "stdin",
            "shell",
            "version",
            "validate",
        ],
        long_valued: &[
            "auth-type",
            "close-from",
            "chdir",
            "group",
            "host",
            "login-class",
            "prompt",
            "chroot",
            "role",
            "type",
            "command-timeout",
            "other-user",
            "user",
        ],
        long_optional: &["preserve-env"],
        privileged: true,
        ..w(&["sudo"])
    },
    Wrapper {
        flags: "Lns",
        valued: "aCu",
        long_flags: &[],
        privileged: true,
        ..w(&["doas"])
    },
    Wrapper {
        long_flags: &["disable-internal-agent", "keep-cwd", "help", "version"],
        long_valued: &["user"],
        privileged: true,
        ..w(&["pkexec"])
    },
    Wrapper {
        flags: "h",
        valued: "ugD",
        long_flags: &[
            "no-ask-password",
            "pty",
            "pipe",
            "help",
            "version",
            "via-shell",
        ],
        long_valued: &[
            "user",
            "group",
            "nice",
            "chdir",
            "setenv",
            "unit",
            "property",
            "description",
            "slice",
            "slice-inherit",
            "background",
            "machine",
            "shell-prompt-prefix",
        ],
        privileged: true,
        ..w(&["run0"])
    },
    Wrapper {
        flags: "pvV",
        long_flags: &[],
        ..w(&["command"])
    },
    Wrapper {
        long_flags: &[],
        ..w(&["builtin", "nohup"])
    },
    Wrapper {
        flags: "cfw",
        long_flags: &["ctty", "fork", "wait", "help", "version"],
        ..w(&["setsid"])
    },
    Wrapper {
        flags: "cl",
        valued: "a",
        long_flags: &[],
        ..w(&["exec"])
    },
    Wrapper {
        valued: "n",
        long_valued: &["adjustment"],
        numeric: true,
        ..w(&["nice"])
    },
    Wrapper {
        flags: "p",
        long_flags: &[],
        ..w(&["time"])
    },
    Wrapper {
        flags: "v",
        valued: "sk",
        long_flags: &[
            "foreground",
            "preserve-status",
            "verbose",
            "help",
            "version",
        ],
        long_valued: &["signal", "kill-after"],
        after: After::Duration,
        ..w(&["timeout"])
    },
    Wrapper {
        valued: "ioe",
        long_valued: &["input", "output", "error"],
        ..w(&["stdbuf"])
    },
    Wrapper {
        flags: "0oprtx",
        valued: "aEdILnPs",
        optional: "eil",
        long_flags: &[
            "null",
            "open-tty",
            "interactive",
            "no-run-if-empty",
            "verbose",
            "exit",
            "show-limits",
            "help",
            "version",
        ],
        long_valued: &[
            "arg-file",
            "delimiter",
            "max-args",
            "max-procs",
            "max-chars",
            "process-slot-var",
        ],
        long_optional: &["eof", "replace", "max-lines"],
        after: After::Xargs,
        ..w(&["xargs"])
    },
    // Launchers beyond SPEC §4.3's table: each runs the command in its
    // operands, so reading it as a plain verb let `watch git push` or
    // `strace -f git push` pass the ceilings under an allow-all pattern.
    // Read past like the table's wrappers (fail closed: an option their
    // manual does not define makes the line unparsed).
    Wrapper {
        // util-linux flock(1): `flock [options] FILE CMD…` or `FILE -c CMD`.
        flags: "sexnouFhV",
        valued: "wEc",
        long_flags: &[
            "shared",
            "exclusive",
            "nonblock",
            "nb",
            "close",
            "unlock",
            "no-fork",
            "verbose",
            "help",
            "version",
        ],
        long_valued: &["wait", "timeout", "conflict-exit-code", "command"],
        command_line: &["c", "command"],
        after: After::Lock,
        ..w(&["flock"])
    },
    Wrapper {
        // procps-ng watch(1): the command is joined and run by `sh -c`.
        flags: "bcCeghprtvwx",
        valued: "nq",
        optional: "d",
        long_flags: &[
            "beep", "color", "no-color", "errexit", "chgexit", "precise", "no-rerun", "no-title",
            "no-wrap", "exec", "help", "version",
        ],
        long_valued: &["interval", "equexit"],
        long_optional: &["differences"],
        after: After::ShellLine,
        ..w(&["watch"])
    },
    Wrapper {
        // strace(1), 6.x.
        flags: "AcCdDfFhikNnqrtTvVwxyYzZ",
        valued: "abeEIoOpPsSuUX",
        long_flags: &[
            "follow-forks",
            "output-separately",
            "output-append-mode",
            "summary-only",
            "summary",
            "summary-wall-clock",
            "stack-traces",
            "seccomp-bpf",
            "no-abbrev",
            "instruction-pointer",
            "syscall-number",
            "successful-only",
            "failed-only",
            "debug",
            "help",
            "version",
        ],
        long_valued: &[
            "trace",
            "trace-fds",
            "trace-path",
            "signal",
            "status",
            "abbrev",
            "verbose",
            "raw",
            "read",
            "write",
            "fault",
            "inject",
            "kvm",
            "columns",
            "attach",
            "user",
            "env",
            "string-limit",
            "output",
            "summary-sort-by",
            "summary-columns",
            "summary-syscall-overhead",
            "detach-on",
            "interruptible",
            "const-print-style",
            "argv0",
            "decode-pids",
        ],
        long_optional: &[
            "daemonize",
            "quiet",
            "silent",
            "decode-fds",
            "absolute-timestamps",
            "timestamps",
            "relative-timestamps",
            "syscall-times",
            "strings-in-hex",
            "tips",
        ],
        piped: &["o", "output"],
        ..w(&["strace"])
    },
    Wrapper {
        // util-linux taskset(1): `taskset [options] MASK CMD…`.
        flags: "acphV",
        long_flags: &["all-tasks", "cpu-list", "pid", "help", "version"],
        after: After::Duration,
        ..w(&["taskset"])
    },
    Wrapper {
        // util-linux ionice(1).
        flags: "thV",
        valued: "cnpPu",
        long_flags: &["ignore", "help", "version"],
        long_valued: &["class", "classdata", "pid", "pgid", "uid"],
        ..w(&["ionice"])
    },
    Wrapper {
        // util-linux chrt(1): `chrt [options] PRIORITY CMD…`.
        flags: "abdefimoprRvhV",
        valued: "TPD",
        long_flags: &[
            "all-tasks",
            "batch",
            "deadline",
            "ext",
            "fifo",
            "idle",
            "other",
            "rr",
            "reset-on-fork",
            "max",
            "pid",
            "verbose",
            "help",
            "version",
        ],
        long_valued: &["sched-runtime", "sched-period", "sched-deadline"],
        after: After::Duration,
        ..w(&["chrt"])
    },
    Wrapper {
        // GNU coreutils chroot(1): `chroot [options] NEWROOT [CMD…]`.
        long_flags: &["skip-chdir", "help", "version"],
        long_valued: &["groups", "userspec"],
        bare_shell: true,
        after: After::Duration,
        ..w(&["chroot"])
    },
    Wrapper {
        // expect's unbuffer(1).
        flags: "p",
        long_flags: &[],
        ..w(&["unbuffer"])
    },
    Wrapper {
        // Debian's xvfb-run(1).
        flags: "adhl",
        valued: "efnpsw",
        long_flags: &["auto-servernum", "auto-display", "help", "listen-tcp"],
        long_valued: &[
            "error-file",
            "auth-file",
            "server-num",
            "xauth-protocol",
            "server-args",
            "wait",
        ],
        ..w(&["xvfb-run"])
    },
    Wrapper {
        // dbus-run-session(1).
        long_flags: &["help", "version"],
        long_valued: &["config-file", "dbus-daemon"],
        ..w(&["dbus-run-session"])
    },
    Wrapper {
        // fakeroot(1): without a command it runs $SHELL.
        flags: "uhv",
        valued: "lisb",
        long_flags: &["unknown-is-real", "help", "version"],
        long_valued: &["lib", "faked", "fd-base"],
        bare_shell: true,
        ..w(&["fakeroot"])
    },
    Wrapper {
        // libfaketime's faketime(1): `faketime [options] TIMESTAMP CMD…`.
        flags: "mfh",
        valued: "p",
        long_flags: &["exclude-monotonic", "disable-shm", "help", "version"],
        long_valued: &["date-prog"],
        after: After::Duration,
        ..w(&["faketime"])
    },
    Wrapper {
        // util-linux script(1): `-c CMD` is a command line; without it an
        // interactive shell runs.
        flags: "aefqhV",
        valued: "cEBIOTmo",
        optional: "t",
        long_flags: &[
            "append", "return", "flush", "force", "quiet", "help", "version",
        ],
        long_valued: &[
            "command",
            "echo",
            "log-io",
            "log-in",
            "log-out",
            "log-timing",
            "logging-format",
            "output-limit",
        ],
        long_optional: &["timing"],
        command_line: &["c", "command"],
        after: After::Script,
        ..w(&["script"])
    },
    Wrapper {
        // OpenSSH ssh-agent(1): `ssh-agent [options] [CMD…]` runs CMD with
        // the agent's environment.
        flags: "cDdks",
        valued: "aEOPt",
        long_flags: &[],
        ..w(&["ssh-agent"])
    },
    Wrapper {
        // util-linux prlimit(1): `prlimit [options] [CMD…]`; a resource
        // option's limits are attached only (`-n1024`, `--nofile=1024`).
        flags: "hV",
        valued: "po",
        optional: "cdefilmnqrstuvxy",
        long_flags: &["noheadings", "raw", "verbose", "help", "version"],
        long_valued: &["pid", "output"],
        long_optional: &[
            "core",
            "data",
            "nice",
            "fsize",
            "sigpending",
            "memlock",
            "rss",
            "nofile",
            "msgqueue",
            "rtprio",
            "stack",
            "cpu",
            "nproc",
            "as",
            "locks",
            "rttime",
        ],
        ..w(&["prlimit"])
    },
    Wrapper {
        // moreutils chronic(1).
        flags: "ev",
        long_flags: &[],
        ..w(&["chronic"])
    },
    Wrapper {
        // proot(1): without a command it runs a shell. `-q` (a command
        // line for qemu) is left out: it makes the line unparsed.
        flags: "0hV",
        valued: "rbmwkivRS",
        long_flags: &[
            "root-id",
            "kill-on-exit",
            "link2symlink",
            "help",
            "version",
            "usage",
        ],
        long_valued: &[
            "rootfs",
            "bind",
            "mount",
            "pwd",
            "cwd",
            "kernel-release",
            "change-id",
            "verbose",
        ],
        bare_shell: true,
        ..w(&["proot"])
    },
    Wrapper {
        // daemonize(1): `daemonize [options] PATH [ARG…]`.
        flags: "av",
        valued: "ceEoplu",
        long_flags: &[],
        ..w(&["daemonize"])
    },
];

/// Programs that build the commands they run from their operands or their
/// input in ways permc does not read (a `:::` argument list, a template, a
/// shell string per operand): a line running one is unparsed.
pub(crate) const UNREADABLE: &[(&str, Unreadable)] = &[
    (
        "parallel",
        Unreadable::Builds("builds the commands it runs from its arguments and input"),
    ),
    (
        "hyperfine",
        Unreadable::Builds("runs each of its operands as a shell command line"),
    ),
    (
        "entr",
        Unreadable::Builds("runs a command built from its operands and the files it watches"),
    ),
    (
        "sem",
        Unreadable::Builds("(GNU parallel) builds the command it runs from its arguments"),
    ),
    // Commands run later or in another session, from standard input, a
    // file or a shell string: not read.
    (
        "tmux",
        Unreadable::Builds(
            "runs shell commands in a session of its own (`new-session CMD`, `send-keys`)",
        ),
    ),
    (
        "screen",
        Unreadable::Builds("runs commands in a session of its own"),
    ),
    (
        "at",
        Unreadable::Builds("runs commands read from standard input or a file later"),
    ),
    (
        "batch",
        Unreadable::Builds("runs commands read from standard input or a file later"),
    ),
    (
        "crontab",
        Unreadable::Builds("installs commands cron runs later"),
    ),
    // Launchers whose many options permc does not place (user, namespace,
    // sandbox and profiler launchers): what they run is not read.
    ("runuser", Unreadable::Launcher),
    ("setpriv", Unreadable::Launcher),
    ("unshare", Unreadable::Launcher),
    ("nsenter", Unreadable::Launcher),
    ("systemd-run", Unreadable::Launcher),
    ("firejail", Unreadable::Launcher),
    ("bwrap", Unreadable::Launcher),
    ("cgexec", Unreadable::Launcher),
    ("chpst", Unreadable::Launcher),
    ("numactl", Unreadable::Launcher),
    ("valgrind", Unreadable::Launcher),
    ("perf", Unreadable::Launcher),
    ("gdb", Unreadable::Launcher),
    ("ltrace", Unreadable::Launcher),
    ("rr", Unreadable::Launcher),
    ("catchsegv", Unreadable::Launcher),
];

/// Why permc does not read past an [`UNREADABLE`] program: one sentence
/// per kind, the program's name as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unreadable {
    /// A launcher whose many options permc does not place (user,
    /// namespace, sandbox and profiler launchers).
    Launcher,
    /// It builds or runs its commands this way (after the program's name).
    Builds(&'static str),
}

impl Unreadable {
    /// The sentence for `program`.
    pub(crate) fn why(self, program: &str) -> String {
        match self {
            Unreadable::Launcher => format!(
                "`{program}` runs a command given in its operands, past options permc does not read"
            ),
            Unreadable::Builds(what) => format!("`{program}` {what}, which permc does not read"),
        }
    }
}

/// The shells of SPEC §4.3.
pub const SHELLS: &[&str] = &[
    "sh", "bash", "rbash", "zsh", "dash", "ksh", "ash", "mksh", "lksh", "yash", "posh",
];

/// Shells whose language is not sh's (fish, csh, PowerShell, nushell…):
/// a script operand is the stated limit (SPEC §4.3), as for a shell; any
/// option (`-c` among them) or none (standard input) is code permc does
/// not read.
pub const FOREIGN_SHELLS: &[&str] = &[
    "fish",
    "tcsh",
    "csh",
    "pwsh",
    "powershell",
    "nu",
    "xonsh",
    "elvish",
    "rc",
    "es",
];

/// bash's long options (`--rcfile` and `--init-file` take a value).
const SHELL_LONG: &[&str] = &[
    "login",
    "noprofile",
    "norc",
    "posix",
    "restricted",
    "verbose",
    "version",
    "help",
    "debugger",
    "dump-strings",
    "dump-po-strings",
    "noediting",
    "pretty-print",
];

/// su's options (util-linux): `-c`/`--command` is a command line.
const SU: Wrapper = Wrapper {
    flags: "flmpPhV",
    valued: "cgGsw",
    long_flags: &[
        "fast",
        "login",
        "preserve-environment",
        "pty",
        "help",
        "version",
    ],
    long_valued: &[
        "command",
        "session-command",
        "group",
        "supp-group",
        "shell",
        "whitelist-environment",
    ],
    command_line: &["c", "command", "session-command"],
    privileged: true,
    ..w(&["su"])
};

fn wrapper(verb: &str) -> Option<&'static Wrapper> {
    WRAPPERS.iter().find(|w| w.names.contains(&verb))
}

/// The shapes ([`super::Shapes`]) of every verb [`collect_runs`] treats
/// specially: a wrapper, a shell, [`SPECIAL_READERS`], [`UNREADABLE`].
const SPECIAL_SHAPES: super::Shapes = {
    use super::mark_shape as mark;
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < WRAPPERS.len() {
        let mut j = 0;
        while j < WRAPPERS[i].names.len() {
            mark(&mut t, WRAPPERS[i].names[j]);
            j += 1;
        }
        i += 1;
    }
    let mut i = 0;
    while i < SHELLS.len() {
        mark(&mut t, SHELLS[i]);
        i += 1;
    }
    let mut i = 0;
    while i < SPECIAL_READERS.len() {
        let mut j = 0;
        while j < SPECIAL_READERS[i].0.len() {
            mark(&mut t, SPECIAL_READERS[i].0[j]);
            j += 1;
        }
        i += 1;
    }
    let mut i = 0;
    while i < UNREADABLE.len() {
        mark(&mut t, UNREADABLE[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < FOREIGN_SHELLS.len() {
        mark(&mut t, FOREIGN_SHELLS[i]);
        i += 1;
    }
    t
};

/// Can `verb` be one [`collect_runs`] treats specially? `false` for most
/// verbs (`git`, `pnpm`, `ls`) in two loads, before any name compare.
fn may_be_special(verb: &str) -> bool {
    super::has_shape(&SPECIAL_SHAPES, verb)
}

/// A word sequence with what is known of each word.
pub(crate) struct Words<'a> {
    pub text: &'a [String],
    pub known: &'a [Known],
}

impl Words<'_> {
    fn known(&self, i: usize) -> Known {
        self.known.get(i).copied().unwrap_or(Known::Exact)
    }
}

/// Single-quotes a word for an inner command line.
fn quote(w: &str) -> String {
    if !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// Reads past assignments and wrappers (SPEC §4.3) and records what the
/// words of segment `seg` run: one [`Run`] for the words themselves, more
/// for inner command lines, `find -exec` and `xargs`.
pub(crate) fn collect_runs(words: Words<'_>, seg: usize, depth: usize, facts: &mut LineFacts) {
    let text = words.text;
    let mut i = 0;
    let mut via: Option<&'static str> = None;
    // What an inner line, `find -exec` or `xargs` runs is never the
    // segment's own words.
    let mut read_past = depth > 0;
    // A segment of a plain line without a `=` holds no assignment.
    let no_eq = depth == 0 && facts.absent & crate::reader::HAS_EQ != 0;
    loop {
        while !no_eq && text.get(i).is_some_and(|w| is_assignment(w)) {
            i += 1;
            read_past = true;
        }
        let Some(word) = text.get(i) else { break };
        if words.known(i).is_unknown() {
            break;
        }
        let verb = basename(word);
        if !may_be_special(verb) {
            // Not a wrapper, a shell, `su`, `eval`, `trap`, `busybox` or
            // `find`: the run starts here. (A verb read specially below
            // has a row: [`SPECIAL_READERS`], [`SHELLS`], [`WRAPPERS`]…)
            break;
        }
        let step = match special_verb(&words, i, verb, seg, depth, facts, &mut via) {
            Some(step) => step,
            None => match wrapper(verb) {
                Some(wr) => past_wrapper(wr, &words, i, seg, depth, facts, &mut via),
                None => Step::Here,
            },
        };
        match step {
            Step::Here => break,
            Step::Past(j) => {
                (i, read_past) = (j, true);
                break;
            }
            Step::Next(j) => (i, read_past) = (j, true),
            Step::Done => return,
        }
    }
    let verb = push_run(&words, i, seg, via, read_past, depth == 0, facts);
    if let Some(verb) = verb.filter(|v| super::has_shape(&RUNNER_SHAPES, v)) {
        runner(&words, i, verb, false, seg, depth, facts);
    }
}

/// Where [`collect_runs`] goes on after a word it reads specially.
enum Step {
    /// The run is this word on (what was read past stays so).
    Here,
    /// The run starts at this word, past what was read.
    Past(usize),
    /// Read on from this word.
    Next(usize),
    /// Every run was recorded (`xargs`).
    Done,
}

/// A reader of a verb's own grammar (`su`, `eval`, `trap`, `busybox`,
/// `find`, `fd`): what its words run, recorded; where the run goes on.
type SpecialReader =
    fn(&Words<'_>, usize, usize, usize, &mut LineFacts, &mut Option<&'static str>) -> Step;

/// The verbs with a grammar of their own, read before any wrapper: one row
/// each, the names it is run by and its reader. [`SPECIAL_SHAPES`] is
/// built from these rows, the wrappers and the shells.
const SPECIAL_READERS: &[(&[&str], SpecialReader)] = &[
    (&["su"], |words, i, seg, depth, facts, via| {
        via.get_or_insert("su");
        su(words, i, seg, depth, facts);
        Step::Here
    }),
    (&["eval"], |words, i, seg, depth, facts, _| {
        let text = words.text;
        let j = if text.get(i + 1).is_some_and(|w| w == "--") {
            i + 2
        } else {
            i + 1
        };
        inner_words(words, j, text.len(), seg, depth, facts, "eval");
        Step::Here
    }),
    (&["trap"], |words, i, seg, depth, facts, _| {
        trap(words, i, seg, depth, facts);
        Step::Here
    }),
    (&["busybox"], busybox),
    (&["find"], |words, i, seg, depth, facts, _| {
        find_exec(words, i, seg, depth, facts);
        Step::Here
    }),
    (&["fd", "fdfind"], |words, i, seg, depth, facts, _| {
        fd_exec(words, i, seg, depth, facts);
        Step::Here
    }),
];

/// `busybox APPLET ARGS…` runs `APPLET ARGS…`; `busybox sh` is a shell.
/// BusyBox's own options (its manual: `--list`, `--list-full`,
/// `--install`, `--show`, `--help`) run no applet; any other `-…` word is
/// not one permc can place, nor an applet the shell expands.
fn busybox(
    words: &Words<'_>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
    _: &mut Option<&'static str>,
) -> Step {
    let text = words.text;
    match text.get(i + 1) {
        Some(w) if words.known(i + 1).is_unknown() => {
            // `busybox $X`: the applet may be `sh`, and its words `-c …`.
            facts.unparsed_because(format!(
                "`busybox {}`: the applet is expanded by the shell, so permc cannot know what runs",
                short(w)
            ));
        }
        _ if is_busybox_shell(text.get(i + 1)) => {
            // The shell itself is the run (a script operand is matched
            // like any other command, SPEC §4.3's stated limit).
            shell_words(words, i + 1, seg, depth, facts);
        }
        Some(w) if w.starts_with('-') && !BUSYBOX_OPTIONS.contains(&w.as_str()) => {
            facts.unparsed_because(format!(
                "`{}` is not an option of `busybox` that permc can place: it cannot know what runs",
                short(w)
            ));
        }
        Some(w) if w.starts_with('-') => {}
        Some(_) => return Step::Next(i + 1),
        None => {}
    }
    Step::Here
}

/// The verbs read before any wrapper — [`SPECIAL_READERS`]' rows, the
/// shells, the foreign shells and the unreadable launchers — or `None` for
/// any other verb.
fn special_verb(
    words: &Words<'_>,
    i: usize,
    verb: &str,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
    via: &mut Option<&'static str>,
) -> Option<Step> {
    if let Some((_, read)) = SPECIAL_READERS
        .iter()
        .find(|(names, _)| names.iter().any(|n| super::quick_eq(n, verb)))
    {
        return Some(read(words, i, seg, depth, facts, via));
    }
    if SHELLS.contains(&verb) {
        // The shell itself is the run (a script operand is matched like
        // any other command, SPEC §4.3's stated limit).
        shell_words(words, i, seg, depth, facts);
    } else if FOREIGN_SHELLS.contains(&verb) {
        foreign_shell(words, i, facts);
    } else {
        let (v, why) = UNREADABLE.iter().find(|(v, _)| *v == verb)?;
        facts.unparsed_because(why.why(v));
        behind_unplaced(words, i, seg, depth, facts);
    }
    Some(Step::Here)
}

/// Past a wrapper at `i` (SPEC §4.3): its options, its duration or lock
/// file, and what it runs — a command line of its own, an interactive
/// shell, or the words after it.
fn past_wrapper(
    wr: &'static Wrapper,
    words: &Words<'_>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
    via: &mut Option<&'static str>,
) -> Step {
    let text = words.text;
    if wr.privileged {
        via.get_or_insert(wr.names[0]);
    }
    // Where the wrapper stands: a launcher that runs a command line
    // is itself the run, as a shell with `-c` is.
    let mut i = match read_options(wr, words, i + 1, seg, depth, facts) {
        // An option's command line is all that runs (`env -S`,
        // `script -c`).
        Some(usize::MAX) if wr.after == After::Script => return Step::Here,
        Some(usize::MAX) => return Step::Past(usize::MAX),
        Some(next) => next,
        // An option permc cannot place: unparsed, and the wrapper
        // itself is what we know runs.
        None => return Step::Here,
    };
    if matches!(wr.after, After::Duration | After::Lock) {
        if words.known(i).is_unknown() && i < text.len() {
            // An unknown duration (or lock file) may be anything,
            // options included.
            return Step::Past(i);
        }
        if i < text.len() {
            i += 1;
        }
    }
    if wr.after == After::Lock && text.get(i).is_some_and(|w| w == "-c" || w == "--command") {
        // `flock FILE -c CMD`: the command line is all that runs.
        if words.known(i + 1).is_unknown() && i + 1 < text.len() {
            facts.unknown_inner(seg, &text[i + 1], "flock -c");
        } else if let Some(line) = text.get(i + 1) {
            inner_line(line, seg, depth, facts);
        }
        return Step::Here;
    }
    if wr.after == After::ShellLine {
        // `watch CMD…`: `sh -c` runs the words joined by spaces.
        inner_words(words, i, text.len(), seg, depth, facts, wr.names[0]);
        return Step::Here;
    }
    if wr.after == After::Script {
        // No `-c`: an interactive shell reads standard input.
        facts.unparsed_because(format!(
            "`{}` without `-c` runs an interactive shell, which reads its commands from standard input",
            wr.names[0]
        ));
        return Step::Past(i);
    }
    if wr.bare_shell && i >= text.len() {
        facts.unparsed_because(format!(
            "`{}` without a command runs an interactive shell, which reads its commands from standard input",
            wr.names[0]
        ));
        return Step::Past(i);
    }
    if wr.after == After::Xargs {
        xargs(words, i, seg, depth, facts, *via);
        return Step::Done;
    }
    Step::Next(i)
}

/// At most this many guesses of the command behind a launcher permc does
/// not place ([`behind_unplaced`]).
const MAX_GUESSES: usize = 4;

/// The words from `k` on, as a word sequence of their own.
fn from<'a>(words: &Words<'a>, k: usize) -> Words<'a> {
    Words {
        text: words.text.get(k..).unwrap_or_default(),
        known: words.known.get(k..).unwrap_or_default(),
    }
}

/// A deny still denies in an unparsed line (SPEC §4.3, round 3): behind a
/// launcher whose options permc does not place (`unshare rm -rf /`,
/// `numactl -C 0 rm -rf /`), each word that may be the command — the
/// first word that is no option, and the next one while the word before
/// may be an option's value — is read as a run, so the built-ins and the
/// deny entries see it. The line is unparsed already: no run read here
/// can approve anything.
fn behind_unplaced(words: &Words<'_>, at: usize, seg: usize, depth: usize, facts: &mut LineFacts) {
    if depth >= MAX_INNER_DEPTH {
        return;
    }
    let text = words.text;
    let mut after_option = false;
    let mut guesses = 0;
    let was = std::mem::replace(&mut facts.guessing, true);
    for (k, w) in text.iter().enumerate().skip(at + 1) {
        if words.known(k) != Known::Exact {
            break;
        }
        if w == "--" {
            collect_runs(from(words, k + 1), seg, depth + 1, facts);
            break;
        }
        if w.len() > 1 && w.starts_with('-') {
            after_option = true;
            continue;
        }
        collect_runs(from(words, k), seg, depth + 1, facts);
        guesses += 1;
        if !after_option || guesses >= MAX_GUESSES {
            break;
        }
        after_option = false;
    }
    facts.guessing = was;
}

/// A deny still denies in an unparsed line (SPEC §4.3, round 3): a
/// segment that starts with shell keywords (`then git push`, `do rm -rf
/// /`, `while git push`, `case x in git push`) is also read past them, as
/// a run of its own, when the reader found a keyword at command position.
pub(crate) fn behind_keywords(words: Words<'_>, seg: usize, facts: &mut LineFacts) {
    let text = words.text;
    let mut k = 0;
    while let Some(w) = text.get(k) {
        match w.as_str() {
            "if" | "then" | "elif" | "else" | "while" | "until" | "do" | "!" | "{" | "time"
            | "coproc" => k += 1,
            "case" => {
                // `case WORD in [(]PATTERN)`: the command follows.
                k += 2;
                if text.get(k).is_some_and(|w| w == "in") {
                    k += 1;
                }
                if text.get(k).is_some_and(|w| w == "(") {
                    k += 1;
                }
                if text.get(k).is_some_and(|w| w.ends_with(')')) {
                    k += 1;
                }
            }
            _ => break,
        }
    }
    if k > 0 && k < text.len() {
        let was = std::mem::replace(&mut facts.guessing, true);
        collect_runs(from(&words, k), seg, 1, facts);
        facts.guessing = was;
    }
}

/// [`code_running`] of `git SUB ARGS…`, for a run of `git-SUB ARGS…`.
#[cold]
#[inline(never)]
fn git_program_running(sub: &str, args: &[String]) -> Option<String> {
    let args: Vec<String> = std::iter::once(sub.to_string())
        .chain(args.iter().cloned())
        .collect();
    code_running("git", &args)
}

/// How a package or environment runner's subcommand runs its command.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunsAs {
    /// The words after its options are a command and its arguments.
    Argv,
    /// Its operand is a shell command line (`bun exec 'cmd'`).
    Shell,
    /// An image's entrypoint runs, with the words after the image as its
    /// arguments (`docker run IMAGE …`): what runs is the image's, not
    /// the line's.
    Image,
    /// A container comes first, then the command (`docker exec [options]
    /// CONTAINER CMD…`).
    AfterOperand,
    /// The command follows `--` (`kubectl exec POD -- CMD…`), else an
    /// operand as for [`RunsAs::AfterOperand`].
    AfterDashes,
    /// A command group: its subcommand, after the group's word, is read
    /// with the rows of this tool (`docker container exec` is `docker
    /// exec`, `docker compose exec` is `docker-compose exec`).
    Group(&'static str),
}

/// Package and environment runners: the tool, the subcommand that runs a
/// command given in its operands ("" when the tool itself is the runner:
/// `npx`), and how it runs it. `pnpm exec git push` runs a push: the
/// runner stays the segment's run and what it runs is read as a run of
/// its own, as `find -exec`'s command is.
pub(crate) const RUNNERS: &[(&str, &str, RunsAs)] = &[
    // The most common first: a tool is found by a scan from the top.
    ("pnpm", "exec", RunsAs::Argv),
    ("pnpm", "dlx", RunsAs::Argv),
    ("npm", "exec", RunsAs::Argv),
    ("npm", "x", RunsAs::Argv),
    ("npx", "", RunsAs::Argv),
    ("pnpx", "", RunsAs::Argv),
    ("bunx", "", RunsAs::Argv),
    ("uvx", "", RunsAs::Argv),
    ("yarn", "exec", RunsAs::Argv),
    ("yarn", "dlx", RunsAs::Argv),
    ("bun", "x", RunsAs::Argv),
    ("bun", "exec", RunsAs::Shell),
    ("uv", "run", RunsAs::Argv),
    ("poetry", "run", RunsAs::Argv),
    ("pipenv", "run", RunsAs::Argv),
    ("pdm", "run", RunsAs::Argv),
    ("hatch", "run", RunsAs::Argv),
    ("rye", "run", RunsAs::Argv),
    ("bundle", "exec", RunsAs::Argv),
    ("conda", "run", RunsAs::Argv),
    ("mamba", "run", RunsAs::Argv),
    ("micromamba", "run", RunsAs::Argv),
    ("pixi", "run", RunsAs::Argv),
    ("pixi", "exec", RunsAs::Argv),
    ("mise", "exec", RunsAs::Argv),
    ("mise", "x", RunsAs::Argv),
    ("asdf", "exec", RunsAs::Argv),
    ("devbox", "run", RunsAs::Argv),
    // Containers: the command runs in a container, with the network (a
    // push from there is a push).
    // `create` keeps the image's command for a later `docker start`,
    // which names none.
    ("docker", "run", RunsAs::Image),
    ("docker", "create", RunsAs::Image),
    ("docker", "exec", RunsAs::AfterOperand),
    ("docker", "container", RunsAs::Group("docker")),
    ("docker", "compose", RunsAs::Group("docker-compose")),
    ("docker", "service", RunsAs::Group("docker-service")),
    ("podman", "run", RunsAs::Image),
    ("podman", "create", RunsAs::Image),
    ("podman", "exec", RunsAs::AfterOperand),
    ("podman", "container", RunsAs::Group("podman")),
    ("podman", "compose", RunsAs::Group("podman-compose")),
    ("nerdctl", "run", RunsAs::Image),
    ("nerdctl", "create", RunsAs::Image),
    ("nerdctl", "exec", RunsAs::AfterOperand),
    ("nerdctl", "container", RunsAs::Group("nerdctl")),
    ("nerdctl", "compose", RunsAs::Group("docker-compose")),
    // A compose service's container (`docker compose …` is read as
    // `docker-compose …`): `run` starts the service's image,
    // entrypoint and all; `exec` runs a command in its running container.
    ("docker-compose", "run", RunsAs::Image),
    ("docker-compose", "exec", RunsAs::AfterOperand),
    ("podman-compose", "run", RunsAs::Image),
    ("podman-compose", "exec", RunsAs::AfterOperand),
    // A swarm service runs its image's entrypoint, in the cluster.
    ("docker-service", "create", RunsAs::Image),
    ("kubectl", "exec", RunsAs::AfterDashes),
    ("kubectl", "debug", RunsAs::AfterDashes),
    ("kubectl", "run", RunsAs::Image),
    // OpenShift's client: kubectl's `exec`, `debug` and `run`, and `rsh
    // POD CMD`.
    ("oc", "exec", RunsAs::AfterDashes),
    ("oc", "debug", RunsAs::AfterDashes),
    ("oc", "run", RunsAs::Image),
    ("oc", "rsh", RunsAs::AfterOperand),
    // System containers and VMs: `lxc exec C -- CMD`.
    ("lxc", "exec", RunsAs::AfterDashes),
    ("incus", "exec", RunsAs::AfterDashes),
    ("multipass", "exec", RunsAs::AfterDashes),
];

/// The shapes of [`RUNNERS`]' tools: most verbs are none, in two loads.
const RUNNER_SHAPES: super::Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < RUNNERS.len() {
        super::mark_shape(&mut t, RUNNERS[i].0);
        i += 1;
    }
    t
};

/// How many tools [`RUNNERS`] has rows for.
const RUNNER_TOOL_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < RUNNERS.len() {
        if i == 0 || !super::const_eq(RUNNERS[i].0, RUNNERS[i - 1].0) {
            n += 1;
        }
        i += 1;
    }
    n
};

/// Each tool's rows of [`RUNNERS`] (together in the table: a unit test
/// checks): (tool, first row, rows), built from the table.
const RUNNER_TOOLS: [(&str, usize, usize); RUNNER_TOOL_COUNT] = {
    let mut t = [("", 0, 0); RUNNER_TOOL_COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < RUNNERS.len() {
        if i == 0 || !super::const_eq(RUNNERS[i].0, RUNNERS[i - 1].0) {
            t[n] = (RUNNERS[i].0, i, 0);
            n += 1;
        }
        t[n - 1].2 += 1;
        i += 1;
    }
    t
};

/// [`RUNNER_TOOLS`] by name.
const RUNNER_INDEX: super::name_index::NameIndex = {
    let mut names = [""; RUNNER_TOOL_COUNT];
    let mut i = 0;
    while i < RUNNER_TOOL_COUNT {
        names[i] = RUNNER_TOOLS[i].0;
        i += 1;
    }
    super::name_index::NameIndex::new(&names)
};

/// The rows of [`RUNNERS`] for `tool`, if it has any.
fn runner_rows(tool: &str) -> Option<&'static [(&'static str, &'static str, RunsAs)]> {
    let t = RUNNER_INDEX.find(tool, |i| RUNNER_TOOLS[i].0)?;
    let (_, from, len) = RUNNER_TOOLS[t];
    Some(&RUNNERS[from..from + len])
}

/// `a == b`, by length and first byte before the bytes: a table's names
/// of one length mostly differ at their first byte, and a `memcmp` call
/// costs more than these two loads.
#[inline]
fn same(a: &str, b: &str) -> bool {
    super::quick_eq(a, b)
}

/// At most this many readings of where a runner's command starts (each
/// option word of unknown arity makes two); past it, unparsed.
const MAX_RUNNER_STARTS: usize = 16;

/// The command a package or environment runner ([`RUNNERS`]) runs, read
/// as runs of segment `seg`. The runner's options are not placed: an
/// option word without `=` may take the next word as its value or not, so
/// the command may start after either, and both readings are runs (fail
/// closed: `uv run --with x git push` is a push if `x` is a value, and
/// harmless `x git push` otherwise — both are checked). `-c`, `--call`
/// and `--shell-mode` run a shell line: unparsed.
#[inline(never)]
fn runner(
    words: &Words<'_>,
    at: usize,
    tool: &str,
    grouped: bool,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
) {
    let text = words.text;
    let Some((runs_as, sub, mut k)) =
        runner_subcommand(words, at, tool, grouped, seg, depth, facts)
    else {
        return;
    };
    if runs_as == RunsAs::Shell {
        facts.unparsed_because(format!(
            "`{tool}` runs a shell command line given in its operands, which permc does not read"
        ));
        return;
    }
    if runs_as == RunsAs::Image {
        facts.unparsed_because(format!(
            "`{tool} {sub}` runs the image's entrypoint with the words after the image, so what runs is the image's: permc cannot know it"
        ));
        return;
    }
    let container = matches!(runs_as, RunsAs::AfterOperand | RunsAs::AfterDashes);
    if runs_as == RunsAs::AfterDashes {
        if let Some(d) = (k..text.len()).find(|&j| text[j] == "--" && !words.known(j).is_unknown())
        {
            // `kubectl exec POD -- CMD…`: the command is all after `--`.
            k = d;
        }
    }
    let Some(mut starts) = runner_starts(words, k, tool, container, facts) else {
        return;
    };
    if container {
        // Each possible start is the container; the command is after it
        // (after `--` itself, for `kubectl exec … -- CMD`).
        let dashes = |s: usize| s > 0 && text[s - 1] == "--" && runs_as == RunsAs::AfterDashes;
        starts = starts
            .into_iter()
            .map(|s| if dashes(s) { s } else { s + 1 })
            .collect();
    }
    for s in starts.into_iter().filter(|&s| s < text.len()) {
        if depth == 0 {
            // Every possible start must be covered (fail closed).
            facts.given.push((seg, s, text.len()));
        }
        if depth >= MAX_INNER_DEPTH {
            facts.unparsed_because("commands nest more than 8 levels deep".to_string());
            return;
        }
        collect_runs(
            Words {
                text: &text[s..],
                known: words.known.get(s..).unwrap_or_default(),
            },
            seg,
            depth + 1,
            facts,
        );
    }
}

/// The runner row that applies at `at` (its own, or its subcommand's: the
/// first word not an option, or the one after it when it may be an
/// option's value), with the subcommand and where its operands start;
/// `None` when it runs nothing permc reads (a group's subcommand was read
/// here).
fn runner_subcommand(
    words: &Words<'_>,
    at: usize,
    tool: &str,
    grouped: bool,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
) -> Option<(RunsAs, &'static str, usize)> {
    let text = words.text;
    // The tool's rows, together in the table (a unit test checks): found
    // once.
    let tool_rows = runner_rows(tool)?;
    let rows = || tool_rows.iter();
    let mut k = at + 1;
    let (runs_as, sub): (RunsAs, &'static str);
    if let Some(&(_, _, how)) = rows().find(|r| r.1.is_empty()) {
        (runs_as, sub) = (how, "");
    } else {
        // The subcommand: the first word not an option, or the one after
        // it when it may be an option's value (`pnpm --filter web exec`).
        let mut may_be_value = false;
        loop {
            let w = text.get(k)?;
            if words.known(k).is_unknown() {
                facts.unparsed_because(format!(
                    "`{}` is expanded by the shell where `{tool}` reads its subcommand: it may be one that runs a command, so permc cannot know what runs",
                    short(w)
                ));
                return None;
            }
            k += 1;
            if w.starts_with('-') {
                may_be_value = !w.contains('=');
                continue;
            }
            if let Some(&(_, row_sub, how)) = rows().find(|r| same(r.1, w)) {
                if let RunsAs::Group(group) = how {
                    // `docker compose exec` is `docker-compose exec`: the
                    // group's subcommand is read after its word, once (a
                    // group word inside a group is another subcommand).
                    if !grouped {
                        runner(words, k - 1, group, true, seg, depth, facts);
                    }
                    return None;
                }
                (runs_as, sub) = (how, row_sub);
                break;
            }
            if !std::mem::take(&mut may_be_value) {
                // Another subcommand (`pnpm test`).
                return None;
            }
        }
    }
    Some((runs_as, sub, k))
}

/// Where the command a runner runs may start, past its options from `k`
/// (both readings of an option that may take a value); `None` when an
/// option runs something permc does not read (marked unparsed).
fn runner_starts(
    words: &Words<'_>,
    mut k: usize,
    tool: &str,
    container: bool,
    facts: &mut LineFacts,
) -> Option<Vec<usize>> {
    let text = words.text;
    let mut starts = Vec::new();
    while let Some(w) = text.get(k) {
        if words.known(k).is_unknown() || !w.starts_with('-') {
            starts.push(k);
            break;
        }
        if w == "--" {
            starts.push(k + 1);
            break;
        }
        if container && (w == "--entrypoint" || w.starts_with("--entrypoint=")) {
            facts.unparsed_because(format!(
                "`{tool} {w}` runs another program with the command's words, which permc does not place"
            ));
            return None;
        }
        if !container
            && (matches!(w.as_str(), "-c" | "--call" | "--shell-mode") || w.starts_with("--call="))
        {
            facts.unparsed_because(format!(
                "`{tool} {w}` runs a shell command line, which permc does not read"
            ));
            return None;
        }
        if !w.contains('=') && text.get(k + 1).is_some_and(|n| !n.starts_with('-')) {
            // `--with x CMD` or `--flag CMD`: both readings.
            starts.push(k + 1);
            k += 2;
        } else {
            k += 1;
        }
        if starts.len() > MAX_RUNNER_STARTS {
            facts.unparsed_because(format!(
                "`{tool}` is given more options than permc places: it cannot know what runs"
            ));
            return None;
        }
    }
    Some(starts)
}

/// Reads the options of a wrapper from word `i` by its row of
/// [`WRAPPERS`] (getopt_long, stopping at the verb); returns the index of
/// the first word after them (past the end when an option's command line
/// is all that runs), or `None` (after marking the line unparsed) when an
/// option cannot be placed.
fn read_options(
    wr: &Wrapper,
    words: &Words<'_>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
) -> Option<usize> {
    let text = words.text;
    let mut options = options::read(wr.grammar(), text, i);
    while let Some(item) = options.next() {
        if words.known(item.index()).is_unknown() {
            // An unknown word where options may be: the verb is unknown.
            return Some(item.index());
        }
        let (name, value) = match item {
            Item::End { index } => return Some(index + 1),
            Item::Operand { index } => return Some(index),
            Item::Unknown { index } => {
                facts.unparsed_because(format!(
                    "`{}` is not an option of `{}` that permc can place: it cannot know what runs",
                    text[index], wr.names[0]
                ));
                return None;
            }
            Item::Flag { .. } => continue,
            Item::Valued { name, value, .. } => (name, value),
        };
        let command_line = wr.command_line.contains(&name);
        if let Value::Next(v) = value {
            if command_line && v < text.len() && words.known(v).is_unknown() {
                let what = format!("{} -{}", wr.names[0], wr.command_line[0]);
                facts.unknown_inner(seg, &text[v], &what);
            }
        }
        let value = value.text(text);
        if wr.piped.contains(&name) && value.is_some_and(|v| v.starts_with(['|', '!'])) {
            facts.unparsed_because(format!(
                "`{} -{name} {}` runs a command line permc does not read",
                wr.names[0],
                short(value.unwrap_or_default())
            ));
            return None;
        }
        if command_line {
            // `env -S STRING ARGS…`: the string, split, then the rest: a
            // command line of its own.
            if let Some(s) = value {
                let mut line = s.to_string();
                for w in &text[options.position().min(text.len())..] {
                    line.push(' ');
                    line.push_str(&quote(w));
                }
                inner_line(&line, seg, depth, facts);
            }
            // Nothing else runs after `-S`: the inner line is it.
            return Some(usize::MAX);
        }
    }
    Some(options.position())
}

/// BusyBox's own options (busybox(1)): none of them runs an applet.
const BUSYBOX_OPTIONS: &[&str] = &["--list", "--list-full", "--install", "--show", "--help"];

fn is_busybox_shell(w: Option<&String>) -> bool {
    w.is_some_and(|w| w == "sh" || w == "ash")
}

/// `sh`/`bash`/… with options: `-c STRING` is a command line of its own; a
/// shell with neither `-c` nor a script operand reads standard input.
fn shell_words(words: &Words<'_>, at: usize, seg: usize, depth: usize, facts: &mut LineFacts) {
    let text = words.text;
    let shell = basename(&text[at]);
    let Some((i, has_c, stdin)) = shell_options(words, at, shell, facts) else {
        return;
    };
    if has_c {
        match text.get(i) {
            Some(s) if !words.known(i).is_unknown() => inner_line(s, seg, depth, facts),
            Some(s) => facts.unknown_inner(seg, s, shell),
            None => facts.unparsed_because(format!(
                "`{shell} -c` without a command line is an error bash would report"
            )),
        }
    } else if stdin || text.get(i).is_none() {
        facts.unparsed_because(format!(
            "`{shell}` reads its commands from standard input: permc cannot read them"
        ));
    } else if words.known(i).is_unknown() {
        // After `--`: an unknown script operand may be no word at all
        // (then the shell reads standard input).
        facts.unparsed_because(shell_unknown(&text[i], shell));
    }
}

/// A shell's options as the option reader reads them (bash's own option
/// reading): bash's letters, or any letter for the other shells; `-o` and
/// `-O` take a word each; `--rcfile`/`--init-file` a value.
fn shell_grammar(shell: &str) -> Grammar<'static> {
    let bash = shell == "bash" || shell == "rbash";
    Grammar {
        flags: if bash {
            "abcefhiklmnprstuvxBCDEHPT"
        } else {
            "abcdefghijklmnpqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ"
        },
        valued: "oO",
        long_flags: SHELL_LONG,
        long_valued: &["rcfile", "init-file"],
        // `bash - script`, `bash +O NAME`.
        lone_dash: true,
        plus: true,
        values_apart: true,
        ..Grammar::new(Mode::Bash)
    }
}

/// What [`shell_options`] holds of the option word being read: the first
/// name it sets that is not a safe one (`-o NAME`, `-O NAME`), the last
/// word its values take, a letter the shell does not know.
#[derive(Default)]
struct ShellWord {
    index: usize,
    unsafe_name: Option<usize>,
    last_value: usize,
    bad: bool,
}

/// A shell's options from `at + 1` (bash's `internal_getopt` and its long
/// options): where its operands start, whether `-c` and `-s` were given;
/// `None` when an option makes the line unreadable (marked unparsed).
fn shell_options(
    words: &Words<'_>,
    at: usize,
    shell: &str,
    facts: &mut LineFacts,
) -> Option<(usize, bool, bool)> {
    let text = words.text;
    let mut options = options::read(shell_grammar(shell), text, at + 1);
    let (mut has_c, mut stdin) = (false, false);
    let mut word = ShellWord::default();
    let end = loop {
        let item = options.next();
        let index = item.map_or(usize::MAX, Item::index);
        if index != word.index {
            // The word before is read whole: what it sets, then whether
            // the shell knows its letters.
            shell_word_done(&word, text, shell, facts)?;
            word = ShellWord {
                index,
                ..ShellWord::default()
            };
        }
        let Some(item) = item else {
            break options.position();
        };
        if words.known(index).is_unknown() {
            // An unknown word where the shell reads its options (`sh $X`,
            // `bash -$X`, `bash -c$X`, what xargs appends, the `{}` of
            // `find -exec … +`): it may be `-c STRING`, `-s` or any option
            // that makes the shell read code permc cannot see.
            facts.unparsed_because(shell_unknown(&text[index], shell));
            return None;
        }
        match item {
            Item::End { index } => break index + 1,
            Item::Operand { index } => break index,
            Item::Flag { name, off, .. } => {
                has_c |= name == "c" && !off;
                stdin |= name == "s" && !off;
            }
            Item::Valued { name, value, .. } => {
                // `-O NAME`/`+O NAME` is `shopt`, `-o NAME` is `set -o`:
                // only `set`'s safe names are read past (SPEC §4.3 round 3).
                if let (Value::Next(v), "o" | "O") = (value, name) {
                    word.last_value = v;
                    let safe = text
                        .get(v)
                        .is_none_or(|n| super::SAFE_SET_NAMES.contains(&n.as_str()));
                    if !safe && word.unsafe_name.is_none() {
                        word.unsafe_name = Some(v);
                    }
                }
            }
            Item::Unknown { index } if text[index].starts_with("--") => {
                let long = &text[index][2..];
                let name = long.split_once('=').map_or(long, |(n, _)| n);
                // A long flag given a value (`--norc=x`) is read past as
                // the flag: bash stops with an error there, and what the
                // line runs is still read (a deny denies).
                if !(SHELL_LONG.contains(&name) || (shell == "zsh" && is_zsh_long(name))) {
                    facts.unparsed_because(not_an_option(&text[index], shell));
                    return None;
                }
            }
            Item::Unknown { .. } => word.bad = true,
        }
    };
    // The values of `-o`, `-O`, `--rcfile`: an unquoted expansion there
    // may be several words, options among them.
    if let Some(k) = (at + 1..end.min(text.len())).find(|&k| words.known(k).is_unknown()) {
        facts.unparsed_because(shell_unknown(&text[k], shell));
        return None;
    }
    Some((end, has_c, stdin))
}

/// The end of a shell's option word: a name it sets that changes how bash
/// reads (unparsed, and what it runs is still read: a deny denies), then
/// a letter the shell does not know (`None`: the line is unparsed).
fn shell_word_done(
    word: &ShellWord,
    text: &[String],
    shell: &str,
    facts: &mut LineFacts,
) -> Option<()> {
    if let Some(n) = word.unsafe_name.filter(|_| word.last_value < text.len()) {
        facts.unparsed_because(format!(
            "`{shell} {} {}` sets a shell option that changes how bash reads the words it runs",
            text[word.index],
            short(&text[n])
        ));
    }
    if word.bad {
        facts.unparsed_because(not_an_option(&text[word.index], shell));
        return None;
    }
    Some(())
}

fn not_an_option(word: &str, shell: &str) -> String {
    format!("`{word}` is not an option of `{shell}` that permc can place: it cannot know what runs")
}

/// Why an unknown word among a shell's options makes the line unparsed.
fn shell_unknown(word: &str, shell: &str) -> String {
    let what = match word {
        "" => "the words `xargs` appends".to_string(),
        w if w.contains("{}") && !w.contains('$') && !w.contains('`') => {
            format!("`{w}`, filled in by `find` or `xargs`,")
        }
        w => format!("`{}` is expanded by the shell and", short(w)),
    };
    format!(
        "{what} may be `-c STRING` or another option of `{shell}`: permc cannot know what it runs"
    )
}

fn is_zsh_long(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'_')
}

/// `su [options] [-] [user [args]]`: `-c`/`--command` is a command line.
fn su(words: &Words<'_>, at: usize, seg: usize, depth: usize, facts: &mut LineFacts) {
    let text = words.text;
    // getopt_long, permuting: `su root -c CMD`.
    let grammar = Grammar {
        permute: true,
        ..SU.grammar()
    };
    for item in options::read(grammar, text, at + 1) {
        let index = item.index();
        if words.known(index).is_unknown() {
            facts.unknown_inner(seg, &text[index], "su");
            return;
        }
        match item {
            Item::End { .. } => return,
            Item::Operand { .. } | Item::Flag { .. } => {}
            Item::Unknown { .. } => {
                facts.unparsed_because(format!(
                    "`{}` is not an option of `su` that permc can place: it cannot know what runs",
                    text[index]
                ));
                return;
            }
            Item::Valued { name, value, .. } => {
                if let Value::Next(v) = value {
                    if v < text.len() && words.known(v).is_unknown() {
                        facts.unknown_inner(seg, &text[v], "su -c");
                        return;
                    }
                }
                if SU.command_line.contains(&name) {
                    if let Some(s) = value.text(text) {
                        inner_line(s, seg, depth, facts);
                    }
                }
            }
        }
    }
}

/// `trap [-lp] [--] STRING SIGNAL…`: the string runs later.
fn trap(words: &Words<'_>, at: usize, seg: usize, depth: usize, facts: &mut LineFacts) {
    let text = words.text;
    let mut i = at + 1;
    while text
        .get(i)
        .is_some_and(|w| w.starts_with('-') && w != "-" && !words.known(i).is_unknown())
    {
        let end = text[i] == "--";
        i += 1;
        if end {
            break;
        }
    }
    if text.len() >= i + 2 {
        if !words.known(i).is_unknown() {
            inner_line(&text[i], seg, depth, facts);
        } else {
            facts.unknown_inner(seg, &text[i], "trap");
        }
    } else if text.get(i).is_some() && words.known(i) == Known::AnyTokens {
        // `trap $X`: split, it may be `STRING SIGNAL`.
        facts.unknown_inner(seg, &text[i], "trap");
    }
}

/// `find … -exec|-execdir|-ok|-okdir CMD … ;|+`: each `CMD …` runs, its
/// `{}` an unknown word (SPEC §4.3, §4.4).
fn find_exec(words: &Words<'_>, at: usize, seg: usize, depth: usize, facts: &mut LineFacts) {
    let text = words.text;
    let mut i = at + 1;
    // Words left that are the value of the primary before them (`-name X`).
    let mut values = 0usize;
    while i < text.len() {
        if words.known(i).is_unknown() {
            // An unknown word of find's own may be `-exec CMD … ;` (an
            // unquoted one, split), or `-exec` itself where a primary or a
            // starting point may be, running what follows up to a `;` or
            // `+` (or an unknown word that may be one).
            let is_value = values > 0 && words.known(i) == Known::OneToken;
            let terminator_after = (i + 1..text.len())
                .any(|k| words.known(k).is_unknown() || text[k] == ";" || text[k] == "+");
            if words.known(i) == Known::AnyTokens || (!is_value && terminator_after) {
                facts.unparsed_because(format!(
                    "`{}` is expanded by the shell among `find`'s primaries: it may be `-exec`, so permc cannot know what runs",
                    short(&text[i])
                ));
                break;
            }
            values = values.saturating_sub(1);
            i += 1;
            continue;
        }
        if values > 0 {
            values -= 1;
            i += 1;
            continue;
        }
        values = find_values(&text[i]);
        if matches!(text[i].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")
            && !words.known(i).is_unknown()
        {
            i = find_command(words, i, seg, depth, facts) + 1;
        } else {
            i += 1;
        }
    }
    // The `find` itself: past wrappers or inside another command, never
    // the segment's own words.
    push_run(words, at, seg, None, at > 0 || depth > 0, depth == 0, facts);
}

/// The command of `find`'s `-exec` (`-execdir`, `-ok`, `-okdir`) at `i`,
/// up to its `;` or `{} +`: a run given as argv (SPEC §4.3), `{}` one
/// unknown token (any tokens before `+`). Returns where it ends.
fn find_command(
    words: &Words<'_>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
) -> usize {
    let text = words.text;
    let start = i + 1;
    let mut end = start;
    let mut plus = false;
    while end < text.len() {
        let t = text[end].as_str();
        if t == ";" {
            break;
        }
        if t == "+" && end > start && text[end - 1] == "{}" {
            plus = true;
            break;
        }
        end += 1;
    }
    // An unknown word of the shell inside CMD may end it (`;`) and
    // start another primary: split, it may be `; -exec CMD2`; one
    // token, it may be the `;` before a later `-exec`.
    let exec_after = |k: usize| {
        (k + 1..text.len()).any(|j| {
            words.known(j).is_unknown()
                || matches!(text[j].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")
        })
    };
    if let Some(k) = (start..end).find(|&k| {
        words.known(k) == Known::AnyTokens || (words.known(k) == Known::OneToken && exec_after(k))
    }) {
        facts.unparsed_because(format!(
            "`{}` is expanded by the shell in `find {}`: it may end the command and start another, so permc cannot know what runs",
            short(&text[k]),
            text[i]
        ));
    }
    if depth == 0 && start < end {
        facts.given.push((seg, start, end));
    }
    let sub: Vec<String> = text[start..end].to_vec();
    let known: Vec<Known> = (start..end)
        .map(|k| {
            if text[k].contains("{}") {
                if plus {
                    Known::AnyTokens
                } else {
                    Known::OneToken
                }
            } else {
                words.known(k)
            }
        })
        .collect();
    if depth < MAX_INNER_DEPTH && !sub.is_empty() {
        collect_runs(
            Words {
                text: &sub,
                known: &known,
            },
            seg,
            depth + 1,
            facts,
        );
    } else if !sub.is_empty() {
        facts.unparsed_because("commands nest more than 8 levels deep".to_string());
    }
    end
}

/// `fd … -x|--exec|-X|--exec-batch CMD … [;]`: CMD runs on each path found
/// (or all of them), a run of its own as `find -exec`'s is; a placeholder
/// (`{}`, `{/}`, `{//}`, `{.}`, `{/.}`) is an unknown word, and without
/// one fd appends the paths (unknown words).
fn fd_exec(words: &Words<'_>, at: usize, seg: usize, depth: usize, facts: &mut LineFacts) {
    let text = words.text;
    let is_exec = |w: &str| matches!(w, "-x" | "--exec" | "-X" | "--exec-batch");
    let mut i = at + 1;
    while i < text.len() {
        let w = text[i].as_str();
        if words.known(i) != Known::Exact {
            if words.known(i) == Known::AnyTokens || i + 1 < text.len() {
                facts.unparsed_because(format!(
                    "`{}` is expanded by the shell among `fd`'s options: it may be `--exec`, so permc cannot know what runs",
                    short(w)
                ));
                break;
            }
            i += 1;
            continue;
        }
        if w.starts_with("--exec") && !is_exec(w) || w.starts_with("-x") && w.len() > 2 {
            facts.unparsed_because(format!(
                "`{}` runs a command permc does not place",
                short(w)
            ));
            break;
        }
        if !is_exec(w) {
            i += 1;
            continue;
        }
        let start = i + 1;
        let end = (start..text.len())
            .find(|&k| text[k] == ";")
            .unwrap_or(text.len());
        let mut sub: Vec<String> = text[start..end].to_vec();
        let mut known: Vec<Known> = (start..end).map(|k| words.known(k)).collect();
        let mut placeholder = false;
        for (t, k) in sub.iter().zip(known.iter_mut()) {
            if ["{}", "{/}", "{//}", "{.}", "{/.}"]
                .iter()
                .any(|p| t.contains(p))
            {
                *k = (*k).max(Known::OneToken);
                placeholder = true;
            }
        }
        if !placeholder {
            sub.push(String::new());
            known.push(Known::AnyTokens);
        }
        if depth < MAX_INNER_DEPTH && start < end {
            collect_runs(
                Words {
                    text: &sub,
                    known: &known,
                },
                seg,
                depth + 1,
                facts,
            );
        } else if start < end {
            facts.unparsed_because("commands nest more than 8 levels deep".to_string());
        }
        i = end + 1;
    }
    push_run(words, at, seg, None, at > 0 || depth > 0, depth == 0, facts);
}

/// A shell of another language ([`FOREIGN_SHELLS`]): with a script operand
/// first, the stated limit; with an option (`-c`, `--command`, `-Command`…)
/// or nothing (standard input), code permc does not read.
fn foreign_shell(words: &Words<'_>, at: usize, facts: &mut LineFacts) {
    let shell = basename(&words.text[at]);
    match words.text.get(at + 1) {
        Some(w) if words.known(at + 1) == Known::Exact && !w.starts_with(['-', '+']) => {}
        Some(w) => facts.unparsed_because(format!(
            "`{shell} {}` runs code in a language permc does not read",
            short(w)
        )),
        None => facts.unparsed_because(format!(
            "`{shell}` reads its commands from standard input: permc cannot read them"
        )),
    }
}

/// How many value words a primary (or leading option) of GNU find takes.
fn find_values(w: &str) -> usize {
    const ONE: &[&str] = &[
        "-amin",
        "-anewer",
        "-atime",
        "-cmin",
        "-cnewer",
        "-context",
        "-ctime",
        "-fls",
        "-fprint",
        "-fprint0",
        "-fstype",
        "-gid",
        "-group",
        "-ilname",
        "-iname",
        "-inum",
        "-ipath",
        "-iregex",
        "-iwholename",
        "-links",
        "-lname",
        "-maxdepth",
        "-mindepth",
        "-mmin",
        "-mtime",
        "-name",
        "-newer",
        "-path",
        "-perm",
        "-printf",
        "-regex",
        "-regextype",
        "-samefile",
        "-size",
        "-type",
        "-uid",
        "-used",
        "-user",
        "-wholename",
        "-xtype",
        "-files0-from",
        "-D",
    ];
    if w == "-fprintf" {
        2
    } else if ONE.contains(&w)
        // `-newerXY`: `-newermt DATE`, `-neweraa FILE`…
        || (w.len() == 8 && w.starts_with("-newer"))
    {
        1
    } else {
        0
    }
}

/// `xargs [options] CMD …`: CMD runs with words xargs appends (unknown).
fn xargs(
    words: &Words<'_>,
    i: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
    via: Option<&'static str>,
) {
    let text = words.text;
    // The replace string of `-I R` / `-i[R]` / `--replace[=R]`: xargs puts
    // one input line where it appears and appends nothing.
    let replace = replace_string(text);
    let mut sub: Vec<String> = text[i.min(text.len())..].to_vec();
    let mut known: Vec<Known> = (i..text.len()).map(|k| words.known(k)).collect();
    if sub.is_empty() {
        // xargs runs `echo` by default.
        sub.push("echo".into());
        known.push(Known::Exact);
    }
    match &replace {
        Some(r) => {
            for (w, k) in sub.iter().zip(known.iter_mut()) {
                if w.contains(r.as_str()) {
                    *k = (*k).max(Known::OneToken);
                }
            }
        }
        None => {
            sub.push(String::new());
            known.push(Known::AnyTokens);
        }
    }
    if depth == 0 && i < text.len() {
        facts.given.push((seg, i, text.len()));
    }
    let before = facts.runs.len();
    if depth < MAX_INNER_DEPTH {
        collect_runs(
            Words {
                text: &sub,
                known: &known,
            },
            seg,
            depth + 1,
            facts,
        );
    }
    for r in &mut facts.runs[before..] {
        if via.is_some() && r.privileged_via.is_none() {
            r.privileged_via = via;
            r.privileged = true;
        }
        r.read_past = true;
    }
}

fn replace_string(text: &[String]) -> Option<String> {
    let mut i = 1;
    while let Some(w) = text.get(i) {
        if w == "--" || !w.starts_with('-') {
            break;
        }
        if w == "-I" {
            return text.get(i + 1).cloned();
        }
        if let Some(r) = w.strip_prefix("-I") {
            return Some(r.to_string());
        }
        if let Some(r) = w.strip_prefix("-i") {
            return Some(if r.is_empty() {
                "{}".into()
            } else {
                r.to_string()
            });
        }
        if w == "--replace" {
            return Some("{}".into());
        }
        if let Some(r) = w.strip_prefix("--replace=") {
            return Some(r.to_string());
        }
        i += 1;
    }
    None
}

/// Words `from..to` of `eval` joined: a command line of its own.
fn inner_words(
    words: &Words<'_>,
    from: usize,
    to: usize,
    seg: usize,
    depth: usize,
    facts: &mut LineFacts,
    what: &str,
) {
    let text = words.text;
    if from >= to {
        return;
    }
    if let Some(k) = (from..to).find(|&k| words.known(k).is_unknown()) {
        facts.unknown_inner(seg, &text[k], what);
        return;
    }
    inner_line(&text[from..to].join(" "), seg, depth, facts);
}

/// A string run as a command line of its own (`sh -c`, `eval`, `env -S`,
/// `su -c`, `trap`): its segments are read, and their runs belong to `seg`.
pub(crate) fn inner_line(src: &str, seg: usize, depth: usize, facts: &mut LineFacts) {
    if depth >= MAX_INNER_DEPTH {
        facts.unparsed_because("commands nest more than 8 levels deep".to_string());
        return;
    }
    let line = reader::read(src);
    if line.is_unparsed() {
        let why: Vec<&str> = line.unparsed.iter().map(|u| u.describe()).collect();
        facts.unparsed_because(format!(
            "the inner command line `{}` holds {}",
            short(src),
            why.join(", ")
        ));
    }
    for s in &line.segments {
        collect_runs(
            Words {
                text: &s.words,
                known: &s.known,
            },
            seg,
            depth + 1,
            facts,
        );
    }
    facts.inner_lines.push((seg, line));
}

/// A string shortened for a message.
pub(crate) fn short(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// Records the run of `words[from..]` with the checks on its verb; returns
/// the verb as read (its last path component), when exact.
fn push_run<'w>(
    words: &Words<'w>,
    from: usize,
    seg: usize,
    mut via: Option<&'static str>,
    read_past: bool,
    top: bool,
    facts: &mut LineFacts,
) -> Option<&'w str> {
    let text = words.text;
    let from = from.min(text.len());
    let rest = &text[from..];
    // `git-push …` (`/usr/lib/git-core/git-push`, or on a PATH that holds
    // git's own programs) is `git push …`, as git runs its subcommands:
    // read as such by every check.
    let verb = rest
        .first()
        .filter(|_| !words.known(from).is_unknown())
        .map(|f| basename(f));
    let git_sub = verb
        .and_then(|v| v.strip_prefix("git-"))
        .filter(|sub| !sub.is_empty());
    // Read past something, or a verb shown by its last path component:
    // the run's words differ from the segment's.
    let differs =
        read_past || git_sub.is_some() || text.first().is_some_and(|f| super::has_byte(f, b'/'));
    // `top`: `words` are the segment's own, as the reader gave them. Read
    // from the first word, with the verb as written, the run's words are
    // exactly the segment's: kept once, not copied.
    let own = top && from == 0 && !differs;
    if let Some(first) = rest.first() {
        verb_facts(
            words.known(from),
            first,
            verb,
            git_sub,
            rest,
            read_past,
            &mut via,
            facts,
        );
    }
    let words_ref = words;
    let words = (!own).then(|| {
        let mut known: Vec<Known> = (from..text.len()).map(|k| words.known(k)).collect();
        let mut run = Vec::with_capacity(rest.len() + 1);
        if let Some(sub) = git_sub {
            run.extend(["git".to_string(), sub.to_string()]);
            run.extend(rest[1..].iter().cloned());
            known.insert(0, Known::Exact);
        } else if let Some(first) = rest.first() {
            run.push(if known[0] == Known::Exact {
                basename(first).to_string()
            } else {
                first.clone()
            });
            run.extend(rest[1..].iter().cloned());
        }
        (run, known)
    });
    // The canonical form (SPEC §4.3 round 3): global options skipped,
    // aliases and unique prefixes resolved, for deny and ask. Only for the
    // tools the catalogue describes (one comparison for any other verb).
    let canonical = verb
        .filter(|v| super::has_canonical_form(v))
        .map(|_| match &words {
            Some((w, k)) => super::canonical_forms(w, k),
            None => super::canonical_forms(rest, words_ref.known.get(from..).unwrap_or_default()),
        })
        .unwrap_or_default();
    facts.runs.push(RunData {
        words,
        privileged: via.is_some(),
        privileged_via: via,
        segment: seg,
        read_past: differs,
        guessed: facts.guessing,
        canonical: false,
    });
    super::project::at_run(words_ref, from, seg, top, facts); // permc.toml's rows
    let guessed = facts.guessing;
    // Most runs have none: no loop to set up and drop.
    if canonical.is_empty() {
        return verb;
    }
    for c in canonical {
        facts.runs.push(RunData {
            words: Some(c),
            privileged: via.is_some(),
            privileged_via: via,
            segment: seg,
            read_past: true,
            guessed,
            canonical: true,
        });
    }
    verb
}

/// What makes `git ARGS…` run code permc does not read: `-c` and
/// `--config-env` (aliases and commands for this run), `--exec-path`,
/// `git config` setting a key that names code, a subcommand's option that
/// runs text (SPEC §4.3).
fn git_code(args: &[String]) -> Option<String> {
    // git's global options (the shared reading of them): one that gives
    // configuration or programs for this run is code.
    let i = super::subcommand_at("git", args, 0, |_| true);
    let found = args[..i.min(args.len())]
        .iter()
        .find(|a| {
            *a == "-c"
                || a.starts_with("--config-env")
                || a.starts_with("--exec-path")
                || (a.starts_with("-c") && a.len() > 2 && !a.starts_with("--"))
        })
        .cloned();
    if let Some(a) = found {
        Some(format!(
            "`git {a}` can define aliases and commands permc cannot read"
        ))
    } else if args.get(i).is_some_and(|a| a == "config") {
        // What `git -c` gives for one command, `git config` keeps
        // for every later one: `alias.st push` makes `git st` a
        // push; `core.pager` runs a command. Reading one is read
        // (`git config --get alias.st`, SPEC §8's seed).
        let rest = &args[i + 1..];
        if git_config_reads(rest) {
            return None;
        }
        let key = git_config_code_key(rest)?;
        Some(format!(
            "`git config {}` sets an alias or a command git runs later, which permc cannot read",
            short(key)
        ))
    } else {
        let sub = args.get(i)?;
        let how = git_runs_text(sub, &args[i + 1..])?;
        Some(format!(
            "`git {sub} {how}` runs a command permc does not read"
        ))
    }
}

/// What a run's command word says of it: unknown (expanded by the
/// shell), a glob read past a wrapper, code the program runs from its
/// words (SPEC §4.3), a privileged program.
#[allow(clippy::too_many_arguments)]
fn verb_facts(
    verb_known: Known,
    first: &str,
    verb: Option<&str>,
    git_sub: Option<&str>,
    rest: &[String],
    read_past: bool,
    via: &mut Option<&'static str>,
    facts: &mut LineFacts,
) {
    if verb_known.is_unknown() {
        facts.unparsed_because(format!(
            "`{}` is expanded by the shell: permc cannot know the command it runs",
            short(first)
        ));
    } else {
        let v = verb.unwrap_or_default();
        if read_past && first.bytes().any(|b| matches!(b, b'*' | b'?' | b'[')) && first != "[" {
            facts.unparsed_because(format!(
                "the command word `{}` is a glob pattern: permc cannot know what runs",
                short(first)
            ));
        }
        let why = match git_sub {
            Some(sub) => git_program_running(sub, &rest[1..]),
            None => code_running(v, &rest[1..]),
        };
        if let Some(why) = why.or_else(|| super::code_options::code_option(v, &rest[1..])) {
            facts.unparsed_because(why);
        }
        if via.is_none() && super::may_be_privileged(v) {
            *via = super::PRIVILEGED.iter().copied().find(|p| *p == v);
        }
    }
}

/// A form of a builtin or a program that runs text permc does not read
/// (SPEC §4.3): the verbs it applies to and what it reads of their words.
/// A run's verb is asked of its rows in order; the first that answers is
/// the reason its line is unparsed.
pub(crate) struct CodeForm {
    /// The verbs of the row.
    pub(crate) verbs: &'static [&'static str],
    /// A line the row catches (docs/commands.md shows it; a test runs it).
    pub(crate) example: &'static str,
    /// The reason, when the words (after the verb) make the verb run text.
    pub(crate) reads: fn(&str, &[String]) -> Option<String>,
}

/// Which operands of a name-assigning builtin (the words after its
/// options) are names.
#[derive(Debug, Clone, Copy)]
enum Names {
    All,
    Second,
    None,
}

/// How a builtin that assigns the names in its operands reads its words.
#[derive(Debug, Clone, Copy)]
enum NameGrammar {
    /// `declare`, `typeset`, `local`, `export`, `readonly`: no option
    /// takes a value (`+x` is an option), `-f`/`-F` name functions.
    Declare,
    /// Options, of which `values` take a value and `named` take a name;
    /// then the operands.
    Options {
        values: &'static str,
        named: &'static str,
        operands: Names,
    },
    /// `unset`: names, unless `-f` (function names, not evaluated).
    Unset,
}

/// The builtins that assign the names in their operands, a row each
/// reading.
const NAME_OPERANDS: &[(&[&str], NameGrammar)] = &[
    (
        &["declare", "typeset", "local", "export", "readonly"],
        NameGrammar::Declare,
    ),
    (
        &["read"],
        NameGrammar::Options {
            values: "dinNptua",
            named: "a",
            operands: Names::All,
        },
    ),
    (
        &["mapfile", "readarray"],
        NameGrammar::Options {
            values: "dnOsuCc",
            named: "",
            operands: Names::All,
        },
    ),
    (
        &["getopts"],
        NameGrammar::Options {
            values: "",
            named: "",
            operands: Names::Second,
        },
    ),
    (
        &["wait"],
        NameGrammar::Options {
            values: "p",
            named: "p",
            operands: Names::None,
        },
    ),
    (&["unset"], NameGrammar::Unset),
];

/// How many builtins [`NAME_OPERANDS`] names.
const ASSIGNING_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < NAME_OPERANDS.len() {
        n += NAME_OPERANDS[i].0.len();
        i += 1;
    }
    n
};

/// The builtins of [`NAME_OPERANDS`], built from its rows.
const ASSIGNING: [&str; ASSIGNING_COUNT] = {
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

/// Every form of [`CodeForm`], one row each.
pub(crate) const CODE_FORMS: &[CodeForm] = &[
    CodeForm {
        verbs: &["source", "."],
        example: "source ./env.sh",
        reads: |v, _| Some(format!("`{v}` runs a file's text as commands")),
    },
    CodeForm {
        verbs: &["let"],
        example: "let x=1",
        reads: |_, _| {
            Some("`let` evaluates its words as arithmetic, which can run commands".into())
        },
    },
    CodeForm {
        verbs: &["printf"],
        example: "printf -v x %s y",
        reads: |_, a| {
            a.first()
                .is_some_and(|a| a.starts_with("-v") || may_expand(a))
                .then(|| "`printf -v` assigns to a name that may hold code".into())
        },
    },
    CodeForm {
        verbs: &["test", "["],
        example: "test -v x",
        reads: |v, a| {
            a.iter()
                .any(|a| a == "-v")
                .then(|| format!("`{v} -v` evaluates a name that may hold code"))
        },
    },
    CodeForm {
        verbs: &["declare", "typeset", "local"],
        example: "declare -i x",
        reads: |v, a| {
            a.iter()
                .any(|a| a.len() > 1 && a.starts_with('-') && !a.starts_with("--") && a.contains(['i', 'n']))
                .then(|| format!("`{v} -i`/`-n` makes later assignments and expansions evaluate values as arithmetic or names, which can run commands"))
        },
    },
    // A name bash assigns (or `unset` removes) that is not a plain name:
    // an array element, whose subscript bash evaluates, or a name from an
    // expansion, which may be one, or `PS4`, `CDPATH`… (its text is not
    // read: `x=PS4; read "$x"`).
    CodeForm {
        verbs: &ASSIGNING,
        example: "read a[$x]",
        reads: |v, a| {
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
    },
    CodeForm {
        verbs: &["mapfile", "readarray"],
        example: "mapfile -C cb arr",
        reads: |v, a| {
            a.iter()
                .any(|a| option_has(a, &['C']))
                .then(|| format!("`{v} -C` runs its callback text as commands"))
        },
    },
    CodeForm {
        verbs: &["compgen"],
        example: "compgen -C cmd",
        reads: |_, a| {
            a.iter()
                .any(|a| option_has(a, &['C', 'F']))
                .then(|| "`compgen -C`/`-F` runs a command or a function to make its words".into())
        },
    },
    // Commands run from a builtin's or a launcher's words that SPEC §4.3
    // does not read past: `jobs -x CMD …` runs CMD; `sg GROUP -c CMD`
    // (and `sg GROUP CMD`) runs CMD through a shell, as `su -c`, and `sg
    // GROUP` or `newgrp GROUP` alone a shell reading stdin.
    CodeForm {
        verbs: &["jobs"],
        example: "jobs -x cmd",
        reads: |_, a| {
            a.iter().any(|a| option_has(a, &['x'])).then(|| {
                "`jobs -x` runs the command in its words, which permc does not read past".into()
            })
        },
    },
    CodeForm {
        verbs: &["sg", "newgrp"],
        example: "sg wheel cmd",
        reads: |v, a| {
            a.iter().any(|a| !a.starts_with('-')).then(|| {
                format!(
                    "`{v} GROUP` runs a shell or a command through one, which permc does not read"
                )
            })
        },
    },
    // A later command word then runs text or a file permc never sees there
    // (bash runs the alias's text in the word's place; `hash -p` sets the
    // file a name runs; `enable -f` loads a shared object's code as a
    // builtin).
    CodeForm {
        verbs: &["alias"],
        example: "alias ls=cmd",
        reads: |_, a| {
            a.iter()
                .any(|a| !a.starts_with('-') && (a.contains('=') || may_expand(a)))
                .then(|| "`alias` defines text that bash runs in place of a later command word: permc cannot know what that word runs".into())
        },
    },
    CodeForm {
        verbs: &["hash"],
        example: "hash -p ./x ls",
        reads: |_, a| {
            a.iter().any(|a| option_has(a, &['p'])).then(|| {
                "`hash -p` sets the file a command name runs: permc cannot know what that name runs".into()
            })
        },
    },
    CodeForm {
        verbs: &["enable"],
        example: "enable -f ./x.so x",
        reads: |_, a| {
            a.iter()
                .any(|a| option_has(a, &['f']))
                .then(|| "`enable -f` loads a shared object's code as a builtin".into())
        },
    },
    // SPEC §6.2 (round 3): a shell option changes what later words become
    // (`globskipdots`, `extglob`, `nullglob`, `dotglob`, `cdable_vars`) or
    // where a `cd` leaves the shell (`lastpipe`).
    CodeForm {
        verbs: &["shopt"],
        example: "shopt -s extglob",
        reads: |_, a| {
            (a.iter().any(|a| may_expand(a))
                || (a.iter().any(|a| option_has(a, &['s', 'u'])) && a.iter().any(|a| !a.starts_with('-'))))
                .then(|| "`shopt` sets or unsets a shell option, which changes how bash reads later words (`lastpipe`, `dotglob`, `extglob`…): permc reads them as bash does without it".into())
        },
    },
    CodeForm {
        verbs: &["set"],
        example: "set -o posix",
        reads: |_, a| {
            (!super::safe_set_args(a)).then(|| "`set` with an option other than `-e`, `-u`, `-x`, `-v`, `-E`, `-T` and `-o errexit|nounset|pipefail|xtrace|verbose|errtrace|functrace` changes how bash reads later words: permc cannot follow it".into())
        },
    },
    CodeForm {
        verbs: &["tar", "gtar", "bsdtar", "rsync", "ssh", "scp", "sftp"],
        example: "tar -cf a.tar --to-command=cmd .",
        reads: |v, a| {
            let o = program_runs_text(v, a)?;
            Some(format!("`{v} {o}` runs a command permc does not read"))
        },
    },
    CodeForm {
        verbs: &["git"],
        example: "git -c core.pager=cmd log",
        reads: |_, a| git_code(a),
    },
];

/// The shapes of every verb of [`CODE_FORMS`], built from the rows.
const CODE_FORM_SHAPES: super::Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < CODE_FORMS.len() {
        let mut j = 0;
        while j < CODE_FORMS[i].verbs.len() {
            super::mark_shape(&mut t, CODE_FORMS[i].verbs[j]);
            j += 1;
        }
        i += 1;
    }
    t
};

/// Why `verb ARGS…` runs text permc does not read: the first row of
/// [`CODE_FORMS`] that answers.
fn code_running(verb: &str, args: &[String]) -> Option<String> {
    // Most verbs are none of them: two loads, before any compare.
    if !super::has_shape(&CODE_FORM_SHAPES, verb) {
        return None;
    }
    let mut rows = CODE_FORM_ROWS.rows(verb);
    while rows != 0 {
        let r = &CODE_FORMS[rows.trailing_zeros() as usize];
        rows &= rows - 1;
        if let Some(why) = (r.reads)(verb, args) {
            return Some(why);
        }
    }
    None
}

/// [`CODE_FORMS`]' rows by verb, built from the rows: one probe, not a
/// compare of every row's verbs (`git` is the last row).
const CODE_FORM_ROWS: super::name_index::RowIndex = {
    let mut x = super::name_index::RowIndex::new();
    let mut i = 0;
    while i < CODE_FORMS.len() {
        let mut j = 0;
        while j < CODE_FORMS[i].verbs.len() {
            x = x.add(CODE_FORMS[i].verbs[j], i);
            j += 1;
        }
        i += 1;
    }
    x.build()
};

/// May word `a` be something else once bash expands it (a `$…` or a
/// backtick in its text, which the reader keeps as written)? Where an
/// option or a keyword that runs text may stand, such a word may be it
/// (SPEC §4.4: an unknown word is possibly any token).
fn may_expand(a: &str) -> bool {
    a.contains(['$', '`'])
}

/// Is `a` an option word holding one of `letters` (`-x`, in a cluster
/// `-ix`), or a word that may expand to one?
fn option_has(a: &str, letters: &[char]) -> bool {
    (a.starts_with('-') && !a.starts_with("--") && a[1..].contains(letters)) || may_expand(a)
}

/// Is `n` a plain shell name (`[A-Za-z_][A-Za-z0-9_]*`)?
fn is_identifier(n: &str) -> bool {
    let b = n.as_bytes();
    b.first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// Does `test` hold for a name that builtin `verb` assigns (or `unset`
/// removes), as written? The names are its operands past its options and
/// their values, read as bash's `internal_getopt` reads them (a cluster's
/// value-taking letter takes the rest of the word, else the next word):
/// `declare`/`typeset`/`local`/`export`/`readonly` `NAME[=…]` (not with
/// `-f`/`-F`: function names), `read [-a NAME] NAME…`, `mapfile`/
/// `readarray NAME`, `getopts OPTSTRING NAME`, `wait -p NAME`, `unset
/// NAME…` (not with `-f`). `false` for any other verb.
fn assigned_names(verb: &str, args: &[String], test: impl Fn(&str) -> bool) -> bool {
    let Some(&(_, grammar)) = NAME_OPERANDS
        .iter()
        .find(|(names, _)| names.contains(&verb))
    else {
        return false;
    };
    let (values, named, operands) = match grammar {
        NameGrammar::Declare => {
            let functions = args
                .iter()
                .take_while(|a| *a != "--")
                .any(|a| a.starts_with(['-', '+']) && a.contains(['f', 'F']));
            if functions {
                return false;
            }
            // No option takes a value; `+x` is an option too.
            let mut options = true;
            return args.iter().any(|a| {
                if options && a == "--" {
                    options = false;
                    return false;
                }
                // `local -` keeps the shell's options: no name.
                if options && a.starts_with(['-', '+']) {
                    return false;
                }
                options = false;
                let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
                test(name.strip_suffix('+').unwrap_or(name))
            });
        }
        NameGrammar::Options {
            values,
            named,
            operands,
        } => (values, named, operands),
        // `unset -f`: function names, not evaluated.
        NameGrammar::Unset
            if args
                .iter()
                .take_while(|a| a.starts_with('-') && *a != "--")
                .any(|a| a.contains('f')) =>
        {
            return false
        }
        NameGrammar::Unset => ("", "", Names::All),
    };
    // internal_getopt: a valued letter takes the rest of its word, else
    // the next word; the other letters are passed over.
    let grammar = Grammar {
        valued: values,
        ..Grammar::new(Mode::Bash)
    };
    let mut options = options::read(grammar, args, 0);
    let i = loop {
        match options.next() {
            None => break options.position(),
            Some(Item::End { index }) => break index + 1,
            Some(Item::Operand { index }) => break index,
            Some(Item::Valued { name, value, .. }) => {
                if named.contains(name) && test(value.text(args).unwrap_or("")) {
                    return true;
                }
            }
            Some(_) => {}
        }
    };
    let rest = args.get(i..).unwrap_or_default();
    match operands {
        Names::All => rest.iter().any(|a| test(a)),
        Names::Second => rest.get(1).is_some_and(|a| test(a)),
        Names::None => false,
    }
}

/// The option of a git subcommand that runs a command given as its text
/// or its words (`rebase -x 'git push'`, `submodule foreach …`, `bisect run
/// …`, a `filter-branch` filter, `difftool -x`, `grep -O`, the program a
/// fetch, clone or `ls-remote` runs as `upload-pack` — git runs it with
/// the shell for a local repository —, `archive --exec`, send-email's
/// commands, instaweb's server and browser), or that sets what a later
/// git command runs (`clone -c`, a `--template` directory's hooks), named
/// as git's manual names it; `None` for any other.
fn git_runs_text(sub: &str, args: &[String]) -> Option<&'static str> {
    GIT_CODE_OPTIONS
        .iter()
        .filter(|r| r.subcommands.contains(&sub))
        .find(|r| r.spells.iter().any(|s| s.given(args)))
        .map(|r| r.shown)
}

/// How a git subcommand's option (or word) is given, as git's
/// parse-options reads it: `-x CMD`, `-xCMD`, in a cluster (`-ix CMD`),
/// `--exec CMD`, `--exec=CMD`, or a long name's prefix (`--exe CMD`). A
/// word that only may be one counts (fail closed).
#[derive(Debug, Clone, Copy)]
pub(crate) enum GitSpell {
    /// A long option without a short form: an expandable word may be it.
    Long(&'static str),
    /// A short option and its long name.
    Both(char, &'static str),
    /// An operand word (`submodule foreach`, `bisect run`).
    Word(&'static str),
    /// Any long option ending so (`filter-branch --…-filter`).
    LongEnding(&'static str),
}

impl GitSpell {
    /// How docs/commands.md shows it, and one word that gives it (for the
    /// tests that attack every row).
    pub(crate) fn spelled(self) -> String {
        match self {
            GitSpell::Long(l) => l.to_string(),
            GitSpell::Both(c, l) => format!("-{c}, {l}"),
            GitSpell::Word(w) => w.to_string(),
            GitSpell::LongEnding(e) => format!("--…{e}"),
        }
    }

    /// A word that gives it.
    #[cfg(test)]
    pub(crate) fn example(self) -> String {
        match self {
            GitSpell::Long(l) => format!("{l}=x"),
            GitSpell::Both(c, _) => format!("-{c}x"),
            GitSpell::Word(w) => w.to_string(),
            GitSpell::LongEnding(e) => format!("--tree{e}=x"),
        }
    }

    /// Is it given among `args`?
    fn given(self, args: &[String]) -> bool {
        let long = options::names_long;
        args.iter().any(|a| match self {
            GitSpell::Long(l) => long(a, l) || may_expand(a),
            GitSpell::Both(_, l) if a.starts_with("--") => long(a, l),
            GitSpell::Both(short, _) => option_has(a, &[short]),
            GitSpell::Word(w) => a == w || may_expand(a),
            GitSpell::LongEnding(end) => {
                let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
                (name.starts_with("--") && name.ends_with(end)) || may_expand(a)
            }
        })
    }
}

/// A git subcommand's option that runs text or words, or sets what a later
/// git command runs: one row each, the subcommands it belongs to, its
/// spellings, and how the reason names it.
pub(crate) struct GitCodeOption {
    /// The subcommands that take it.
    pub(crate) subcommands: &'static [&'static str],
    /// Its spellings (any of them).
    pub(crate) spells: &'static [GitSpell],
    /// As the reason shows it.
    pub(crate) shown: &'static str,
}

/// Every [`GitCodeOption`]: the program a fetch, clone or `ls-remote`
/// runs as `upload-pack` (git runs it with the shell for a local
/// repository), `archive --exec`, send-email's commands, instaweb's
/// server and browser, `rebase -x`, `submodule foreach`, `bisect run`, a
/// `filter-branch` filter, `difftool -x`, `grep -O`, `push --receive-pack`;
/// `clone -c` and a `--template` directory's hooks.
pub(crate) const GIT_CODE_OPTIONS: &[GitCodeOption] = &[
    GitCodeOption {
        subcommands: &["fetch", "pull", "ls-remote", "fetch-pack"],
        spells: &[GitSpell::Long("--upload-pack")],
        shown: "--upload-pack",
    },
    GitCodeOption {
        subcommands: &["ls-remote", "fetch-pack", "archive"],
        spells: &[GitSpell::Long("--exec")],
        shown: "--exec",
    },
    GitCodeOption {
        subcommands: &["clone"],
        spells: &[GitSpell::Both('u', "--upload-pack")],
        shown: "--upload-pack",
    },
    GitCodeOption {
        subcommands: &["clone"],
        spells: &[GitSpell::Both('c', "--config")],
        shown: "--config",
    },
    GitCodeOption {
        subcommands: &["clone", "init"],
        spells: &[GitSpell::Long("--template")],
        shown: "--template",
    },
    GitCodeOption {
        subcommands: &["send-email"],
        spells: &[
            GitSpell::Long("--smtp-server"),
            GitSpell::Long("--sendmail-cmd"),
            GitSpell::Long("--to-cmd"),
            GitSpell::Long("--cc-cmd"),
            GitSpell::Long("--header-cmd"),
        ],
        shown: "--sendmail-cmd",
    },
    GitCodeOption {
        subcommands: &["instaweb"],
        spells: &[
            GitSpell::Both('d', "--httpd"),
            GitSpell::Both('b', "--browser"),
        ],
        shown: "--httpd",
    },
    GitCodeOption {
        subcommands: &["rebase"],
        spells: &[GitSpell::Both('x', "--exec")],
        shown: "--exec",
    },
    GitCodeOption {
        subcommands: &["submodule"],
        spells: &[GitSpell::Word("foreach")],
        shown: "foreach",
    },
    GitCodeOption {
        subcommands: &["bisect"],
        spells: &[GitSpell::Word("run")],
        shown: "run",
    },
    GitCodeOption {
        subcommands: &["filter-branch"],
        spells: &[GitSpell::LongEnding("-filter")],
        shown: "--…-filter",
    },
    GitCodeOption {
        subcommands: &["difftool"],
        spells: &[GitSpell::Both('x', "--extcmd")],
        shown: "--extcmd",
    },
    GitCodeOption {
        subcommands: &["push", "send-pack"],
        spells: &[GitSpell::Long("--receive-pack")],
        shown: "--receive-pack",
    },
    GitCodeOption {
        subcommands: &["push", "send-pack"],
        spells: &[GitSpell::Long("--exec")],
        shown: "--exec",
    },
    GitCodeOption {
        subcommands: &["grep"],
        spells: &[GitSpell::Both('O', "--open-files-in-pager")],
        shown: "--open-files-in-pager",
    },
];

/// The option of `tar`, `rsync`, `ssh`, `scp` or `sftp` that runs a
/// command given as its text (GNU tar's `--to-command`, `-I`/
/// `--use-compress-program`, `--checkpoint-action`, `-F`/`--info-script`/
/// `--new-volume-script`, `--rsh-command`, `--rmt-command`; rsync's `-e`/
/// `--rsh` other than plain `ssh`; an ssh `-o` option naming a command —
/// `ProxyCommand`, `LocalCommand`, `KnownHostsCommand` —, scp's and sftp's
/// `-S` program, sftp's `-D` server), as the manuals name it; `None` for
/// any other. Long options count by any prefix of two letters or more, as
/// getopt takes them; an expandable word where an option may stand counts
/// (fail closed).
fn program_runs_text(verb: &str, args: &[String]) -> Option<&'static str> {
    let (_, how) = PROGRAM_TEXT
        .iter()
        .find(|(names, _)| names.iter().any(|n| super::quick_eq(n, verb)))?;
    match *how {
        TextOptions::Tar => tar_text(args),
        TextOptions::RemoteShell => rsync_text(args),
        TextOptions::Ssh { program, server } => ssh_text(args, program, server),
    }
}

/// Which options of a program run a command given as text.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TextOptions {
    /// GNU tar's (`--to-command`, `-I`…, also in the old-style first word).
    Tar,
    /// rsync's `-e`/`--rsh`, other than plain `ssh`.
    RemoteShell,
    /// ssh's `-o` naming a command; `program`: `-S PROGRAM` (scp, sftp);
    /// `server`: `-D SERVER` (sftp).
    Ssh { program: bool, server: bool },
}

/// The programs [`program_runs_text`] reads, a row each reading.
pub(crate) const PROGRAM_TEXT: &[(&[&str], TextOptions)] = &[
    (&["tar", "gtar", "bsdtar"], TextOptions::Tar),
    (&["rsync"], TextOptions::RemoteShell),
    (
        &["ssh"],
        TextOptions::Ssh {
            program: false,
            server: false,
        },
    ),
    (
        &["scp"],
        TextOptions::Ssh {
            program: true,
            server: false,
        },
    ),
    (
        &["sftp"],
        TextOptions::Ssh {
            program: true,
            server: true,
        },
    ),
];

/// [`TextOptions::Tar`].
fn tar_text(args: &[String]) -> Option<&'static str> {
    let long = options::names_long;
    const LONG: &[&str] = &[
        "--to-command",
        "--use-compress-program",
        "--checkpoint-action",
        "--info-script",
        "--new-volume-script",
        "--rsh-command",
        "--rmt-command",
    ];
    args.iter().enumerate().find_map(|(i, a)| {
        if let Some(&l) = LONG.iter().find(|&&l| long(a, l)) {
            return Some(l);
        }
        // `-I PROG`, `-F SCRIPT`, in a cluster too, or in the
        // old-style first word (`tar xIf PROG a.tar`).
        let old_style = i == 0 && !a.starts_with('-') && a.contains(['I', 'F']);
        (option_has(a, &['I', 'F']) || old_style).then_some("-I")
    })
}

/// [`TextOptions::RemoteShell`].
fn rsync_text(args: &[String]) -> Option<&'static str> {
    let long = options::names_long;
    let mut words = args.iter();
    while let Some(a) = words.next() {
        let value = if long(a, "--rsh") {
            match a.split_once('=') {
                Some((_, v)) => Some(v),
                None => words.next().map(String::as_str),
            }
        } else if a.starts_with('-') && !a.starts_with("--") && a.contains('e') {
            // `-e CMD`, `-avzeCMD`, `-avze CMD`: rsync's short
            // options take no other letter `e`.
            let rest = &a[a.find('e').map_or(a.len(), |k| k + 1)..];
            if rest.is_empty() {
                words.next().map(String::as_str)
            } else {
                Some(rest)
            }
        } else if may_expand(a) {
            return Some("-e");
        } else {
            continue;
        };
        if value != Some("ssh") {
            return Some("-e");
        }
    }
    None
}

/// [`TextOptions::Ssh`].
fn ssh_text(args: &[String], program: bool, server: bool) -> Option<&'static str> {
    // ssh, scp, sftp.
    let mut words = args.iter();
    while let Some(a) = words.next() {
        if may_expand(a) {
            return Some("-o");
        }
        if !a.starts_with('-') || a.starts_with("--") {
            continue;
        }
        if (program && option_has(a, &['S'])) || (server && option_has(a, &['D'])) {
            return Some("-S");
        }
        if let Some(k) = a.find('o') {
            let rest = &a[k + 1..];
            let value = if rest.is_empty() {
                words.next().map_or("", String::as_str)
            } else {
                rest
            };
            if value.to_ascii_lowercase().contains("command") || may_expand(value) {
                return Some("-o");
            }
        }
    }
    None
}

/// Does `git config` with these words only read (`--get…`, `--list`,
/// `-l`, or the `get` and `list` subcommands)? git reads options only
/// before the first other word: `git config alias.st push --get` sets
/// `alias.st` (`--get` is then a value pattern; git 2.47). The value of
/// `-f`/`--file`, `--blob`, `--type` and `--default` is skipped.
pub(crate) fn git_config_reads(words: &[String]) -> bool {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        if !w.starts_with('-') {
            return i == 0 && (w == "get" || w == "list");
        }
        if w == "--" {
            return false;
        }
        if w.starts_with("--get") || w == "--list" || w == "-l" {
            return true;
        }
        let takes_value = ["-f", "--file", "--blob", "--type", "--default"].contains(&w.as_str());
        i += if takes_value { 2 } else { 1 };
    }
    false
}

/// git configuration sections whose keys name code (aliases, includes,
/// filters, pagers, credential helpers…).
pub(crate) const GIT_CODE_SECTIONS: &[&str] = &[
    "alias",
    "include",
    "includeif",
    "filter",
    "pager",
    "credential",
    "gpg",
    "protocol",
    "uploadpack",
    "difftool",
    "mergetool",
    "browser",
    "man",
    "sendemail",
];
/// git configuration keys that name a command git runs.
pub(crate) const GIT_CODE_KEYS: &[&str] = &[
    "core.pager",
    "core.editor",
    "core.sshcommand",
    "core.fsmonitor",
    "core.hookspath",
    "core.askpass",
    "core.gitproxy",
    "core.alternaterefscommand",
    "diff.external",
    "sequence.editor",
    "interactive.difffilter",
    "web.browser",
    // Its hooks are copied into every repository git init or clone
    // makes, and run there.
    "init.templatedir",
];
/// The last part of a key that names a command in any section
/// (`diff.<driver>.textconv`, `merge.<driver>.driver`…).
pub(crate) const GIT_CODE_NAMES: &[&str] = &[
    "textconv",
    "command",
    "cmd",
    "driver",
    "helper",
    "program",
    "uploadpack",
    "receivepack",
    "proxy",
    // `submodule.<name>.update = !command` runs on `git submodule
    // update`.
    "update",
];

/// The first key among `git config`'s words that defines an alias or a
/// command git runs (or a file or transport it reads them from); `None`
/// when no word is one. Every word not an option is read as a key, so a
/// value or a subcommand word never hides one (`git config set alias.x
/// push`); keys are case-insensitive.
fn git_config_code_key(words: &[String]) -> Option<&String> {
    words.iter().filter(|w| !w.starts_with('-')).find(|w| {
        if may_expand(w) {
            // A key given by an expansion may be any key.
            return true;
        }
        let k = w.to_ascii_lowercase();
        let Some((section, _)) = k.split_once('.') else {
            return false;
        };
        let name = k.rsplit('.').next().unwrap_or("");
        GIT_CODE_SECTIONS.contains(&section)
            || GIT_CODE_KEYS.contains(&k.as_str())
            || GIT_CODE_NAMES.contains(&name)
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every verb `assigned_names` reads is a row's (so the shapes before
    /// it hold it), and every row's verb reads names: `VERB a[x]` (or the
    /// form that names one) is caught.
    #[test]
    fn assigning_verbs_are_the_names_readers() {
        for v in ASSIGNING {
            let args: &[&str] = match v {
                "getopts" => &["ab", "a[x]"],
                "wait" => &["-p", "a[x]"],
                _ => &["a[x]"],
            };
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            assert!(assigned_names(v, &args, |n| n.contains('[')), "{v}");
            assert!(code_running(v, &args).is_some(), "{v}");
        }
        let args = vec!["a[x]".to_string()];
        for v in ["echo", "ls", "cd", "printf"] {
            assert!(!assigned_names(v, &args, |n| n.contains('[')), "{v}");
        }
    }

    /// Every command group reads rows that exist.
    #[test]
    fn runner_groups_lead_to_rows() {
        for r in RUNNERS {
            if let RunsAs::Group(g) = r.2 {
                assert!(
                    RUNNERS
                        .iter()
                        .any(|q| q.0 == g && !matches!(q.2, RunsAs::Group(_))),
                    "{} {}: {g} has no rows",
                    r.0,
                    r.1
                );
            }
        }
    }

    /// Each runner tool's rows are together in the table (`runner` finds
    /// them as one run), and its shapes hold every tool.
    #[test]
    fn runner_rows_are_grouped_by_tool() {
        for (i, r) in RUNNERS.iter().enumerate() {
            assert!(crate::facts::has_shape(&RUNNER_SHAPES, r.0), "{}", r.0);
            let first = RUNNERS.iter().position(|q| q.0 == r.0).unwrap_or(i);
            assert!(
                RUNNERS[first..=i].iter().all(|q| q.0 == r.0),
                "{} is split",
                r.0
            );
        }
    }

    /// The quick test lets through every verb read specially, and stops
    /// the common ones.
    #[test]
    fn the_special_verb_shapes_hold_every_special_verb() {
        let names = WRAPPERS.iter().flat_map(|w| w.names.iter());
        let unreadable = UNREADABLE.iter().map(|(v, _)| v);
        let special = SPECIAL_READERS.iter().flat_map(|(n, _)| n.iter());
        for v in names.chain(SHELLS).chain(special).chain(unreadable) {
            assert!(may_be_special(v), "{v}");
        }
        let common = [
            "git", "pnpm", "ls", "cargo", "grep", "", "npm", "echo", "make", "tee", "wc",
        ];
        for v in common {
            assert!(!may_be_special(v), "{v}");
        }
    }

    /// What a wrapper's row reads of one option word: the last item of
    /// the word, and where its value is.
    fn option(wr: &Wrapper, word: &str) -> Option<(String, Option<String>, bool)> {
        let words = [wr.names[0].to_string(), word.to_string()];
        let mut last = None;
        for item in options::read(wr.grammar(), &words, 1) {
            last = match item {
                Item::Flag { name, .. } => Some((name.to_string(), None, false)),
                Item::Valued { name, value, .. } => Some((
                    name.to_string(),
                    value.text(&words).map(str::to_string),
                    matches!(value, Value::Next(_)),
                )),
                _ => return None,
            };
        }
        last
    }

    #[test]
    fn options_by_manual() {
        let env = wrapper("env").unwrap();
        assert_eq!(option(env, "-vS"), Some(("S".into(), None, true)));
        assert_eq!(
            option(env, "--unset=HOME"),
            Some(("unset".into(), Some("HOME".into()), false))
        );
        assert_eq!(option(env, "--ch"), Some(("chdir".into(), None, true)));
        assert_eq!(option(env, "--frobnicate"), None);
        assert_eq!(option(env, "-z"), None);
        let sudo = wrapper("sudo").unwrap();
        assert_eq!(option(sudo, "--user"), Some(("user".into(), None, true)));
        assert_eq!(
            option(sudo, "-uroot"),
            Some(("u".into(), Some("root".into()), false))
        );
        // `--u` is not ambiguous for sudo: only `user` starts with `u`.
        assert!(option(sudo, "--u").is_some());
        // `--c` is ambiguous (close-from, chdir, chroot, command-timeout).
        assert_eq!(option(sudo, "--c"), None);
    }
}
