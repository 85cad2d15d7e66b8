//! Wrappers, launchers and runners (SPEC §4.3's table and the launchers
//! beyond it): each program's option grammar and where its command is.

use super::effects::SETSID_FORK;
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
    /// [round 4] `hyperfine`, `concurrently`: each operand is a command
    /// line `sh -c` runs (SPEC §4.5 item 2, a `line` row).
    Lines,
    /// [round 4] `nodemon`: its operands are its own (a script node runs);
    /// only a command-line option (`--exec`) says what else runs.
    Own,
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
    /// [round 4] Of a privileged wrapper, the options (canonical letter
    /// or long name) that keep what it runs as the caller
    /// (`systemd-run --user`, `--scope`): given among its options, the
    /// run is not privileged.
    pub unprivileged_by: &'static [&'static str],
    /// [round 4] What it runs is a `command` word (SPEC §4.5 item 1: a
    /// run, §4.3): a segment of its own for allow too, as `xargs CMD` —
    /// `Terminal(screen)` alone does not cover `screen -S x make deploy`.
    pub given: bool,
    /// Without a verb it runs an interactive shell (`chroot DIR`,
    /// `fakeroot`), which reads its commands from standard input: the
    /// line is unparsed, as for a shell (SPEC §4.3).
    pub bare_shell: bool,
    /// Without a verb its redirections apply to the shell itself, which
    /// may then read its later commands from one (`exec <f`, SPEC §4.2
    /// round 4): the line is unparsed.
    pub bare_input: bool,
    /// What follows the options.
    pub after: After,
    /// Options whose value, when it starts with `|` or `!`, is a command
    /// line the wrapper runs (`strace -o '|cmd'`): unparsed.
    pub piped: &'static [&'static str],
    /// [round 4] How it detaches what it runs to outlive the command
    /// (SPEC §6.1: external-effect on the host).
    pub detach: Detach,
    /// [round 4] Options whose value is the name of a variable it sets
    /// for what it runs (SPEC §4.5 item 1, `variable`): a name of code
    /// (`PATH`, `LD_PRELOAD`, `GIT_CONFIG_GLOBAL`…) makes the line
    /// unparsed.
    pub variable: &'static [&'static str],
    /// [round 4] Options whose value is a command line `sh -c` runs, the
    /// options read on after it (`hyperfine --setup CMD`).
    pub line_options: &'static [&'static str],
    /// [round 4] How an operand read as a line may name a package
    /// script (`concurrently npm:build` runs `npm run build`): its prefix
    /// and the words it stands for.
    pub shortcuts: &'static [(&'static str, &'static str)],
}

/// How a wrapper detaches what it runs (SPEC §6.1 round 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detach {
    /// It does not.
    Never,
    /// With one of these options (canonical letter or long name), named
    /// as the entry says (`setsid -f`: it forks, the child outlives it).
    By(&'static [&'static str], &'static [&'static str]),
    /// When its segment is sent to the background (`nohup CMD &`).
    Backgrounded,
}

pub(crate) const fn w(names: &'static [&'static str]) -> Wrapper {
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
        unprivileged_by: &[],
        given: false,
        bare_shell: false,
        bare_input: false,
        after: After::Verb,
        piped: &[],
        detach: Detach::Never,
        variable: &[],
        line_options: &[],
        shortcuts: &[],
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
        ..w(&["builtin"])
    },
    Wrapper {
        // coreutils 9.1 nohup(1): `--help` and `--version` alone.
        detach: Detach::Backgrounded,
        ..w(&["nohup"])
    },
    Wrapper {
        // util-linux 2.38 setsid(1): `-f` forks, so the command outlives
        // setsid in a session of its own.
        flags: "cfw",
        long_flags: &["ctty", "fork", "wait", "help", "version"],
        detach: Detach::By(&["f", "fork"], SETSID_FORK),
        ..w(&["setsid"])
    },
    Wrapper {
        flags: "cl",
        valued: "a",
        long_flags: &[],
        bare_input: true,
        ..w(&["exec"])
    },
    Wrapper {
        valued: "n",
        long_valued: &["adjustment"],
        numeric: true,
        ..w(&["nice"])
    },
    Wrapper {
        // GNU coreutils 9.1 runcon(1): `runcon CONTEXT CMD…` or `runcon
        // [-c] [-u USER] [-r ROLE] [-t TYPE] [-l RANGE] CMD…`; without an
        // option the CONTEXT is read as the verb (a program no entry
        // names: only tightens).
        flags: "c",
        valued: "rtul",
        long_flags: &["compute", "help", "version"],
        long_valued: &["type", "user", "role", "range"],
        ..w(&["runcon"])
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
        variable: &["process-slot-var"],
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
    // Launchers that set the environment or the network for the command
    // in their operands (npm's cross-env, env-cmd and dotenv-cli; torsocks,
    // proxychains; sshpass; macOS caffeinate): read past like `env`, the
    // assignments after them included (`cross-env NODE_ENV=test CMD`).
    Wrapper {
        // cross-env has no options: its assignments, then the command.
        long_flags: &[],
        ..w(&["cross-env"])
    },
    Wrapper {
        // `cross-env-shell NAME=VALUE… 'CMD'`: the words after the
        // assignments, joined, are a command line a shell runs.
        long_flags: &[],
        after: After::ShellLine,
        ..w(&["cross-env-shell"])
    },
    Wrapper {
        // env-cmd 10: `--use-shell` (the command through a shell) is left
        // out: it makes the line unparsed.
        flags: "v",
        valued: "fre",
        long_flags: &[
            "fallback",
            "no-override",
            "silent",
            "expand-envs",
            "verbose",
            "help",
        ],
        long_valued: &["file", "rc-file", "environments"],
        ..w(&["env-cmd"])
    },
    Wrapper {
        // dotenv-cli 7: `dotenv [-e FILE]… [-v NAME=VALUE]… [--] CMD`.
        // `-c` (its value optional, in the next word) and `-p` (prints a
        // value) are left out: unparsed.
        flags: "o",
        valued: "ev",
        long_flags: &["no-expand", "debug", "quiet", "override", "help"],
        ..w(&["dotenv"])
    },
    Wrapper {
        // torsocks(1): without a command (`--shell`, `-i` alone) it runs
        // a shell.
        flags: "idq",
        valued: "uapP",
        long_flags: &["isolate", "debug", "quiet", "shell", "help", "version"],
        long_valued: &["user", "pass", "address", "port"],
        bare_shell: true,
        ..w(&["torsocks"])
    },
    Wrapper {
        // proxychains-ng: `proxychains4 [-q] [-f CONFIG] CMD`.
        flags: "q",
        valued: "f",
        long_flags: &[],
        ..w(&["proxychains", "proxychains4"])
    },
    Wrapper {
        // sshpass(1): the password's source, then the command (`sshpass -p
        // x ssh host CMD`).
        flags: "ehV",
        valued: "fdpP",
        long_flags: &[],
        ..w(&["sshpass"])
    },
    // SPEC §4.5 item 2 round 4: the launchers that run command lines
    // given as words (`line` rows), read as lines, and those that run a
    // command given as argv (`command` rows), read past like `env`.
    Wrapper {
        // hyperfine 1.18 (clap): each operand is a command line `sh -c`
        // runs, as are `--setup`, `--prepare`, `--cleanup` (1.19's
        // `--conclude`, `--reference`). `-S`/`--shell` (another shell)
        // and the parameter scans (`-P`, `-L`: `{name}` replaced in the
        // lines) are left out: unparsed.
        flags: "iNhV",
        valued: "wmMrspcDun",
        long_flags: &["ignore-failure", "show-output", "help", "version"],
        long_valued: &[
            "warmup",
            "min-runs",
            "max-runs",
            "runs",
            "setup",
            "prepare",
            "conclude",
            "cleanup",
            "reference",
            "parameter-step-size",
            "style",
            "sort",
            "time-unit",
            "export-asciidoc",
            "export-csv",
            "export-json",
            "export-markdown",
            "export-orgmode",
            "output",
            "input",
            "command-name",
        ],
        line_options: &[
            "s",
            "p",
            "c",
            "setup",
            "prepare",
            "conclude",
            "cleanup",
            "reference",
        ],
        after: After::Lines,
        ..w(&["hyperfine"])
    },
    Wrapper {
        // concurrently 9 (yargs: no abbreviations): each operand is a
        // command line `sh -c` runs, `npm:NAME` and its kin a package
        // script. `-P` (placeholders filled from later words) and the
        // camelCase spellings are left out: unparsed.
        flags: "rgkihvV",
        valued: "mnsplct",
        long_flags: &[
            "raw",
            "no-color",
            "group",
            "timings",
            "kill-others",
            "kill-others-on-fail",
            "pad-prefix",
            "handle-input",
            "help",
            "version",
        ],
        long_valued: &[
            "max-processes",
            "names",
            "name-separator",
            "success",
            "hide",
            "prefix",
            "prefix-colors",
            "prefix-length",
            "timestamp-format",
            "kill-signal",
            "restart-after",
            "restart-tries",
            "default-input-target",
        ],
        shortcuts: &[
            ("npm:", "npm run "),
            ("pnpm:", "pnpm run "),
            ("yarn:", "yarn run "),
            ("bun:", "bun run "),
            ("node:", "node --run "),
            ("deno:", "deno task "),
        ],
        after: After::Lines,
        ..w(&["concurrently"])
    },
    Wrapper {
        // nodemon 3: `--exec CMD` with the operands after it is a command
        // line `sh -c` runs; without it, node runs the script operand (a
        // program's own code, as `node app.js`). `--config` (a file that
        // names `exec`), `--cwd` and the other options are left out:
        // unparsed.
        flags: "qVvhILC",
        valued: "xewidP",
        long_flags: &[
            "quiet",
            "verbose",
            "version",
            "help",
            "no-stdin",
            "legacy-watch",
            "on-change-only",
            "spawn",
            "no-colors",
            "no-update-notifier",
            "exitcrash",
        ],
        long_valued: &[
            "exec",
            "ext",
            "watch",
            "ignore",
            "delay",
            "signal",
            "polling-interval",
        ],
        command_line: &["x", "exec"],
        after: After::Own,
        ..w(&["nodemon"])
    },
    Wrapper {
        // entr 5: `entr [-acdnprz] CMD ARGS…` runs CMD (`/_` is the file
        // that changed); `-s CMD` gives the command line to the shell.
        flags: "acdnprz",
        valued: "s",
        long_flags: &[],
        command_line: &["s"],
        ..w(&["entr"])
    },
    Wrapper {
        // systemd 252 systemd-run: a command run as a transient unit.
        // Properties (`-p`, `--*-property`: `ExecStartPre=` runs code), a
        // remote host or container (`-H`, `-M`) and `-S` (a shell) are
        // left out: unparsed. `--setenv NAME=…` sets a variable. The
        // system manager runs a service as root (as `run0` does): the
        // run is privileged unless `--user` (the caller's manager) or
        // `--scope` (the caller's own process); another user (`--uid`,
        // `--gid`) is left out: unparsed.
        flags: "hrdtPqG",
        valued: "uE",
        long_flags: &[
            "help",
            "version",
            "no-ask-password",
            "user",
            "system",
            "scope",
            "slice-inherit",
            "no-block",
            "remain-after-exit",
            "wait",
            "send-sighup",
            "same-dir",
            "pty",
            "pipe",
            "quiet",
            "collect",
            "on-timezone-change",
            "on-clock-change",
        ],
        long_valued: &[
            "unit",
            "description",
            "slice",
            "service-type",
            "nice",
            "working-directory",
            "setenv",
            "on-active",
            "on-boot",
            "on-startup",
            "on-unit-active",
            "on-unit-inactive",
            "on-calendar",
        ],
        variable: &["E", "setenv"],
        bare_shell: true,
        privileged: true,
        unprivileged_by: &["user", "scope"],
        given: true,
        ..w(&["systemd-run"])
    },
    Wrapper {
        // GNU screen 4.9: `screen [-dmS NAME] CMD ARGS…` runs CMD in a
        // window (without one, a shell). A configuration file (`-c`), a
        // shell (`-s`), commands sent to a session (`-X`), a log file and
        // the listings are left out: unparsed.
        flags: "aAdDmqrRxUOilv",
        valued: "SteThp",
        long_flags: &["help", "version"],
        bare_shell: true,
        given: true,
        ..w(&["screen"])
    },
    Wrapper {
        // watchexec 2.1 (clap): the words after its options, joined by
        // spaces, are a command line the shell runs (`-n`: run as they
        // are). Another shell (`--shell`), a filter program, the working
        // directory or project origin, a log file and the event sinks
        // are left out: unparsed. `-E KEY=VALUE` sets a variable.
        flags: "rpnNqvhVc",
        valued: "wWFosdEefi",
        long_flags: &[
            "restart",
            "stdin-quit",
            "no-vcs-ignore",
            "no-project-ignore",
            "no-global-ignore",
            "no-default-ignore",
            "no-discover-ignore",
            "ignore-nothing",
            "postpone",
            "only-emit-events",
            "no-process-group",
            "notify",
            "timings",
            "quiet",
            "bell",
            "no-meta",
            "print-events",
            "verbose",
            "help",
            "version",
        ],
        long_valued: &[
            "watch",
            "watch-non-recursive",
            "watch-file",
            "on-busy-update",
            "signal",
            "stop-signal",
            "stop-timeout",
            "map-signal",
            "debounce",
            "delay-run",
            "env",
            "wrap-process",
            "color",
            "exts",
            "filter",
            "ignore",
            "fs-events",
        ],
        long_optional: &["clear", "poll"],
        variable: &["E", "env"],
        after: After::ShellLine,
        ..w(&["watchexec"])
    },
    Wrapper {
        // macOS caffeinate(8): `caffeinate [-disu] [-t S] [-w PID] CMD`.
        flags: "dimsu",
        valued: "tw",
        long_flags: &[],
        ..w(&["caffeinate"])
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
        "sem",
        Unreadable::Builds("(GNU parallel) builds the command it runs from its arguments"),
    ),
    // Commands run later or in another session, from standard input, a
    // file or a shell string: not read.
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
    // Found by attacking the catalogue: each runs the command in its
    // operands, behind options permc does not place (`flatpak-spawn
    // --host` runs it outside the sandbox).
    ("eatmydata", Unreadable::Launcher),
    ("flatpak-spawn", Unreadable::Launcher),
    ("pkgx", Unreadable::Launcher),
    ("retry", Unreadable::Launcher),
    ("toolbox", Unreadable::Launcher),
    ("distrobox", Unreadable::Launcher),
    ("distrobox-enter", Unreadable::Launcher),
    // Watchers and task runners that run shell command lines given as
    // strings (`concurrently 'npm:a' 'git push'`, `nodemon --exec CMD`,
    // `watchexec -- CMD`). (expect is a language's interpreter, as
    // python: its scripts are SPEC §4.3's stated limit.)
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

/// su's options (util-linux): `-c`/`--command` is a command line.
pub(crate) const SU: Wrapper = Wrapper {
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

/// Which of the facts' own readers reads a verb with a grammar of its own
/// (`su`, `eval`, `trap`, `busybox`, `tmux`, `find`, `fd`): what its words
/// run, recorded; where the run goes on. A row names its reader; the
/// readers are logic (`facts/wrappers.rs`), not rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Special {
    /// `su -c LINE`: the line is read, the run privileged.
    Su,
    /// `eval WORDS`: the words joined are a line.
    Eval,
    /// `trap LINE SIGNAL…`: the line is read.
    Trap,
    /// `busybox APPLET …`: the applet runs.
    Busybox,
    /// tmux 3.3a: its commands' shell commands read as lines (SPEC §4.5
    /// item 2 round 4: a `line` row; `catalogue::tmux`).
    Tmux,
    /// `find … -exec CMD ;`: each command a run.
    FindExec,
    /// `fd … -x|-X CMD`: the command a run.
    FdExec,
}

/// The verbs with a grammar of their own, read before any wrapper: one row
/// each, the names it is run by and its reader. `SPECIAL_SHAPES` (in
/// `facts/wrappers.rs`) is built from these rows, the wrappers and the
/// shells.
pub(crate) const SPECIAL_READERS: &[(&[&str], Special)] = &[
    (&["su"], Special::Su),
    (&["eval"], Special::Eval),
    (&[TRAP], Special::Trap),
    (&["busybox"], Special::Busybox),
    (&[super::tmux::TMUX], Special::Tmux),
    (&["find"], Special::FindExec),
    (&["fd", "fdfind"], Special::FdExec),
];

/// Programs that run another with their own words, read as that program
/// too (a run read past), their own run kept for their own commands:
/// `hub push` is `git push` (hub passes every command it does not know
/// to git; `hub pull-request`, `hub delete` are its own, in the
/// external-effect table).
pub(crate) const READS_AS: &[(&[&str], &str)] = &[(&["hub"], super::git::GIT)];

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
    // Environment and secret loaders: the command after their options
    // (`op run -- CMD`, `doppler run -- CMD`), or after the directory or
    // profile they load (`direnv exec DIR CMD`, `aws-vault exec P -- CMD`).
    ("direnv", "exec", RunsAs::AfterOperand),
    ("aws-vault", "exec", RunsAs::AfterDashes),
    ("op", "run", RunsAs::Argv),
    ("doppler", "run", RunsAs::Argv),
    ("infisical", "run", RunsAs::Argv),
    ("dotenvx", "run", RunsAs::Argv),
    // Version managers: the command under a chosen version.
    ("volta", "run", RunsAs::Argv),
    ("fnm", "exec", RunsAs::Argv),
    ("rbenv", "exec", RunsAs::Argv),
    ("pyenv", "exec", RunsAs::Argv),
    ("nodenv", "exec", RunsAs::Argv),
    // Containers: the command runs in a container, with the network (a
    // push from there is a push).
    // `create` keeps the image's command for a later `docker start`,
    // which names none.
    ("docker", "run", RunsAs::Image),
    ("docker", "create", RunsAs::Image),
    ("docker", "exec", RunsAs::AfterOperand),
    // SPEC §4.3 round 4: `start` runs the container's entrypoint too.
    ("docker", "start", RunsAs::Image),
    ("docker", "container", RunsAs::Group("docker")),
    ("docker", "compose", RunsAs::Group("docker-compose")),
    ("docker", "service", RunsAs::Group("docker-service")),
    ("podman", "run", RunsAs::Image),
    ("podman", "create", RunsAs::Image),
    ("podman", "exec", RunsAs::AfterOperand),
    ("podman", "start", RunsAs::Image),
    ("podman", "container", RunsAs::Group("podman")),
    ("podman", "compose", RunsAs::Group("podman-compose")),
    ("nerdctl", "run", RunsAs::Image),
    ("nerdctl", "create", RunsAs::Image),
    ("nerdctl", "exec", RunsAs::AfterOperand),
    ("nerdctl", "start", RunsAs::Image),
    ("nerdctl", "container", RunsAs::Group("nerdctl")),
    ("nerdctl", "compose", RunsAs::Group("docker-compose")),
    // A compose service's container (`docker compose …` is read as
    // `docker-compose …`): `run` starts the service's image,
    // entrypoint and all; `exec` runs a command in its running container.
    ("docker-compose", "run", RunsAs::Image),
    ("docker-compose", "exec", RunsAs::AfterOperand),
    // SPEC §4.3 round 4: `up`, `create`, `start` and `restart` run the
    // services' entrypoints, with options from a file permc does not read.
    ("docker-compose", "up", RunsAs::Image),
    ("docker-compose", "create", RunsAs::Image),
    ("docker-compose", "start", RunsAs::Image),
    ("docker-compose", "restart", RunsAs::Image),
    ("podman-compose", "run", RunsAs::Image),
    ("podman-compose", "exec", RunsAs::AfterOperand),
    ("podman-compose", "up", RunsAs::Image),
    ("podman-compose", "create", RunsAs::Image),
    ("podman-compose", "start", RunsAs::Image),
    ("podman-compose", "restart", RunsAs::Image),
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

/// BusyBox's own options (busybox(1)): none of them runs an applet.
pub(crate) const BUSYBOX_OPTIONS: &[&str] =
    &["--list", "--list-full", "--install", "--show", "--help"];

/// [`XARGS_DEFAULT`] as the words of a run given as argv (SPEC §4.3 round
/// 4: `… | xargs` runs `echo`, which an entry must cover like any run).
pub(crate) static XARGS_DEFAULT_RUN: [std::borrow::Cow<'static, str>; 1] =
    [std::borrow::Cow::Borrowed(XARGS_DEFAULT)];

/// What a program reads from standard input when it is a here-document or
/// a here-string (SPEC §4.2 round 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StdinReads {
    /// Each line a path (`tar -T -`): a quoted body's lines are checked
    /// words for the scope and the protected paths, an unquoted one's
    /// unknown words.
    Paths,
    /// A diff: the files it writes are named by the diff, which SPEC §6.4
    /// reads as a write into the worktree root (a protected path there);
    /// nothing more is read from the body.
    Patch,
    /// What permc does not read (an archive `cpio -i` extracts): the line
    /// is unparsed.
    Unread,
}

/// Programs that read paths (or a diff naming them) from standard input,
/// with the words that make them do so (none: always) and what they read;
/// the first row of a program whose words match applies.
pub(crate) const STDIN_PATH_READERS: &[(&str, &[&str], StdinReads)] = &[
    ("tar", &["-T", "--files-from"], StdinReads::Paths),
    ("gtar", &["-T", "--files-from"], StdinReads::Paths),
    ("bsdtar", &["-T", "--files-from"], StdinReads::Paths),
    (
        "rsync",
        &["--files-from", "--exclude-from", "--include-from"],
        StdinReads::Paths,
    ),
    ("zip", &["-@"], StdinReads::Paths),
    // `cpio -o` and `-p` read the paths to copy; `-i` an archive.
    (
        "cpio",
        &["-o", "--create", "-p", "--pass-through"],
        StdinReads::Paths,
    ),
    ("cpio", &[], StdinReads::Unread),
    ("patch", &[], StdinReads::Patch),
    ("git", &["apply", "am"], StdinReads::Patch),
];

include!(concat!(env!("OUT_DIR"), "/catalogue/wrappers.rs"));
