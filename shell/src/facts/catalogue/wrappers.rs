//! Wrappers, launchers and runners (SPEC §4.3's table and the launchers
//! beyond it): each program's option grammar and where its command is.

/// How a wrapper treats the words after its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
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
pub struct Wrapper {
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
pub enum Detach {
    /// It does not.
    Never,
    /// Unless one of these options is given (canonical letter or long
    /// name: a wait, or a `--help` that runs nothing), named as the entry
    /// says: `setsid` without `-w` forks when
    /// it leads its process group (as it does run by `bash -c` started in
    /// a session of its own, `setsid -f` or not) and returns at once, the
    /// child outliving it.
    Unless(&'static [&'static str], &'static [&'static str]),
    /// When its segment is sent to the background (`nohup CMD &`).
    Backgrounded,
}

impl Wrapper {
    /// A wrapper of no name and no option, after whose options the verb
    /// comes: what a row file's row leaves out (each row lists its long
    /// options, `--help` and `--version` among them).
    pub(crate) const EMPTY: Self = Self {
        names: &[],
        flags: "",
        valued: "",
        optional: "",
        long_flags: &[],
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
    };
}

/// Why permc does not read past an [`UNREADABLE`] program: one sentence
/// per kind, the program's name as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// A launcher whose many options permc does not place (user,
    /// namespace, sandbox and profiler launchers).
    Launcher,
    /// It builds or runs its commands this way (after the program's name).
    Builds(&'static str),
}

/// Which of the facts' own readers reads a verb with a grammar of its own
/// (`su`, `eval`, `trap`, `busybox`, `tmux`, `find`, `fd`): what its words
/// run, recorded; where the run goes on. A row names its reader; the
/// readers are logic (`facts/wrappers.rs`), not rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
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

/// How a package or environment runner's subcommand runs its command.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum RunsAs {
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
    /// `python -m MODULE ARGS`: the module runs with the words after it,
    /// read as the program of the module's name (`python -m pip install`
    /// is `pip install`): a run the segment's entry covers, since the
    /// module is the interpreter's, not a program the entry would name.
    Module,
}

/// [`XARGS_DEFAULT`] as the words of a run given as argv (SPEC §4.3 round
/// 4: `… | xargs` runs `echo`, which an entry must cover like any run).
pub(crate) static XARGS_DEFAULT_RUN: [std::borrow::Cow<'static, str>; 1] =
    [std::borrow::Cow::Borrowed(XARGS_DEFAULT)];

/// What a program reads from standard input when it is a here-document or
/// a here-string (SPEC §4.2 round 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StdinReads {
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

/// Where a program of `listed_places` finds the file naming the places it
/// works on (SPEC §4.4: unknown to permc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed {
    /// The option's value (`tar -T list`); `-` is standard input.
    Value,
    /// As `Value`, and a first word without `-` is a cluster of options
    /// (tar's old style, `tar cfT a.tar list`), whose letters that take a
    /// value take the next words in order: with the option's letter
    /// there, every next word is read as the file (only asking more).
    ValueOrBare,
    /// With the option, each operand (`sha256sum -c SUMS`); none is
    /// standard input.
    Operands,
}

/// A row of `listed_places`: the program, its subcommand (`""`: none),
/// the options, where the file is, whether it writes the places.
pub type ListedPlaces = (
    &'static str,
    &'static str,
    &'static [&'static str],
    Listed,
    bool,
);

include!(concat!(env!("OUT_DIR"), "/catalogue/wrappers.rs"));
