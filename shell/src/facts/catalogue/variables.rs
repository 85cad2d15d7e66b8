//! Variables that name code or change what runs (SPEC §4.3 round 3), and
//! the shell options that do not (§6.2).

/// Shell variables whose text bash runs as commands, or that change what a
/// command word runs, with why: set by an assignment, `read`, `export`,
/// `declare`, an array element…, or read by a prompt. A line with a word
/// that names one (after quote removal, in any segment or inner line) is
/// unparsed (SPEC §4.3: text evaluated as code), as `CDPATH` makes a `cd`
/// unknowable (§6.2). `PS4` is expanded, command substitutions and all,
/// before each command bash traces (`set -x`, `bash -x`), also in `bash
/// -c`; the others in an interactive shell, or, for the two tables, when
/// aliases are expanded or a name is run.
pub(crate) const CODE_VARIABLES: &[(&str, &str)] = &[
    (
        "PS4",
        "`PS4` is expanded as a prompt before each command bash traces (`set -x`), which runs the commands in it",
    ),
    (
        "PROMPT_COMMAND",
        "`PROMPT_COMMAND` is run as commands by an interactive shell before each prompt",
    ),
    (
        "PS0",
        "`PS0` is expanded as a prompt by an interactive shell, which runs the commands in it",
    ),
    (
        "PS1",
        "`PS1` is expanded as a prompt by an interactive shell, which runs the commands in it",
    ),
    (
        "PS2",
        "`PS2` is expanded as a prompt by an interactive shell, which runs the commands in it",
    ),
    (
        "BASH_ALIASES",
        "`BASH_ALIASES` defines aliases: permc cannot know what a later command word runs",
    ),
    (
        "GIT_CONFIG",
        "`GIT_CONFIG…` gives git configuration (aliases, commands) permc cannot read, as `git -c` does",
    ),
    (
        "GIT_EXEC_PATH",
        "`GIT_EXEC_PATH` sets where git finds its commands, as `git --exec-path` does",
    ),
    (
        "GIT_EXTERNAL_DIFF",
        "`GIT_EXTERNAL_DIFF` names a command git runs for diffs",
    ),
    (
        "GIT_SSH",
        "`GIT_SSH`/`GIT_SSH_COMMAND` names a command git runs to reach a remote",
    ),
    (
        "GIT_ASKPASS",
        "`GIT_ASKPASS` names a command git runs for credentials",
    ),
    (
        "GIT_PROXY_COMMAND",
        "`GIT_PROXY_COMMAND` names a command git runs to connect",
    ),
    (
        "LESSOPEN",
        "`LESSOPEN` names a command `less` runs on each file it opens",
    ),
    (
        "LESSCLOSE",
        "`LESSCLOSE` names a command `less` runs on each file it closes",
    ),
    (
        "BASH_CMDS",
        "`BASH_CMDS` sets the file a command name runs: permc cannot know what that name runs",
    ),
    (
        "BASH_ENV",
        "`BASH_ENV` names a file a non-interactive bash runs first (`<(…)` makes its text a command's output)",
    ),
    (
        "GIT_TEMPLATE_DIR",
        "`GIT_TEMPLATE_DIR` gives the hooks git copies into the repositories it makes, which later git commands run",
    ),
    (
        "SSH_ASKPASS",
        "`SSH_ASKPASS` names a command ssh runs for a passphrase",
    ),
];

/// Variables that make a program run code it reads from a file or from
/// their value (SPEC §4.3 [round 3]): `HOME` and `XDG_CONFIG_HOME` say
/// where tools read their configuration (`~/.gitconfig` names commands),
/// the others name a compiler wrapper, a runner, options or a library a
/// program loads. Unlike [`CODE_VARIABLES`], expanding one is not naming
/// it (`cat $HOME/x`): only an assignment is, a word's (`HOME=.`, `export
/// HOME`) or an expansion's (`${HOME:=…}`).
pub(crate) const SETTING_VARIABLES: &[(&str, &str)] = &[
    ("HOME", "`HOME` says where programs read their configuration, which can name commands they run (`~/.gitconfig`)"),
    ("XDG_CONFIG_HOME", "`XDG_CONFIG_HOME` says where programs read their configuration, which can name commands they run"),
    ("GIT_DIR", "`GIT_DIR` points git at another repository, whose configuration can name commands git runs"),
    ("RUSTC_WRAPPER", "`RUSTC_WRAPPER` names a program cargo runs in place of the compiler"),
    ("RUSTC_WORKSPACE_WRAPPER", "`RUSTC_WORKSPACE_WRAPPER` names a program cargo runs in place of the compiler"),
    ("RUSTC", "`RUSTC` names the program cargo runs as the compiler"),
    ("RUSTDOC", "`RUSTDOC` names the program cargo runs as rustdoc"),
    ("CARGO_BUILD_RUSTC_WRAPPER", "`CARGO_BUILD_RUSTC_WRAPPER` names a program cargo runs in place of the compiler"),
    ("CARGO_BUILD_RUSTC", "`CARGO_BUILD_RUSTC` names the program cargo runs as the compiler"),
    ("CARGO_HOME", "`CARGO_HOME` says where cargo reads its configuration, which can name runners and wrappers"),
    ("GOFLAGS", "`GOFLAGS` gives the go command options, `-exec` and `-toolexec` among them"),
    ("NODE_OPTIONS", "`NODE_OPTIONS` gives node options, `--require` and `--import` among them, which load code"),
    ("LD_PRELOAD", "`LD_PRELOAD` loads a library's code into every program run"),
    ("LD_AUDIT", "`LD_AUDIT` loads a library's code into every program run"),
    ("PYTHONSTARTUP", "`PYTHONSTARTUP` names a file python runs first"),
    ("PERL5OPT", "`PERL5OPT` gives perl options, `-M` among them, which load code"),
    ("RUBYOPT", "`RUBYOPT` gives ruby options, `-r` among them, which load code"),
    ("MAKEFLAGS", "`MAKEFLAGS` gives make options and variables, `--eval` and `SHELL` among them"),
    ("DOCKER_HOST", "`DOCKER_HOST` sends docker's commands to another machine's daemon"),
    ("DOCKER_CONTEXT", "`DOCKER_CONTEXT` sends docker's commands to another daemon"),
    ("CONTAINER_HOST", "`CONTAINER_HOST` sends podman's commands to another machine's service"),
    ("ENV", "`ENV` names a file an interactive or POSIX shell runs first"),
    // Found by attacking the catalogue: each names code a trusted program
    // then runs (`RUSTFLAGS='-C linker=./x' cargo build`, `CC=./x cargo
    // build` through a build script's compiler, `LD_LIBRARY_PATH=./x git
    // status` loading a library of the project's).
    ("RUSTFLAGS", "`RUSTFLAGS` gives rustc options, `-C linker=` among them, which name a program cargo runs"),
    ("RUSTDOCFLAGS", "`RUSTDOCFLAGS` gives rustdoc options, `--runtool` among them, which name a program cargo runs"),
    ("CARGO_BUILD_RUSTFLAGS", "`CARGO_BUILD_RUSTFLAGS` gives rustc options, `-C linker=` among them, which name a program cargo runs"),
    ("CARGO_BUILD_RUSTDOCFLAGS", "`CARGO_BUILD_RUSTDOCFLAGS` gives rustdoc options, which can name a program cargo runs"),
    ("CARGO_ENCODED_RUSTFLAGS", "`CARGO_ENCODED_RUSTFLAGS` gives rustc options, `-C linker=` among them, which name a program cargo runs"),
    ("CARGO_ENCODED_RUSTDOCFLAGS", "`CARGO_ENCODED_RUSTDOCFLAGS` gives rustdoc options, which can name a program cargo runs"),
    ("CC", "`CC` names the C compiler build tools run (make, cargo's build scripts, cgo, node-gyp)"),
    ("CXX", "`CXX` names the C++ compiler build tools run (make, cargo's build scripts, cgo, node-gyp)"),
    ("AR", "`AR` names the archiver build tools run (make, cargo's build scripts)"),
    ("LD", "`LD` names the linker build tools run (make, cargo's build scripts)"),
    ("LD_LIBRARY_PATH", "`LD_LIBRARY_PATH` makes every program run load its libraries from there first"),
    ("DYLD_INSERT_LIBRARIES", "`DYLD_INSERT_LIBRARIES` loads a library's code into every program run"),
    ("DYLD_LIBRARY_PATH", "`DYLD_LIBRARY_PATH` makes every program run load its libraries from there first"),
    // SPEC §4.3 round 4: what every later word runs, the code interpreters
    // and the JVM load, and the configuration files that name commands or
    // endpoints (`PATH=$PATH:/abs/dir` is read, facts.rs' `path_appends_only`).
    ("PATH", "`PATH` decides what every later command word runs (only `PATH=$PATH:/absolute/dir`, searched last, is read)"),
    ("PYTHONPATH", "`PYTHONPATH` makes python import modules from there first, code permc does not read"),
    ("NODE_PATH", "`NODE_PATH` makes node load modules from there, code permc does not read"),
    ("PERL5LIB", "`PERL5LIB` makes perl load modules from there first, code permc does not read"),
    ("RUBYLIB", "`RUBYLIB` makes ruby load libraries from there first, code permc does not read"),
    ("JAVA_TOOL_OPTIONS", "`JAVA_TOOL_OPTIONS` gives every JVM options, `-javaagent` among them, which load code"),
    ("_JAVA_OPTIONS", "`_JAVA_OPTIONS` gives every JVM options, `-javaagent` among them, which load code"),
    ("ZDOTDIR", "`ZDOTDIR` says where zsh reads its startup files, which run commands"),
    ("GIT_COMMON_DIR", "`GIT_COMMON_DIR` points git at another repository's configuration, which can name commands git runs"),
    ("GIT_WORK_TREE", "`GIT_WORK_TREE` points git at another work tree, as `git --work-tree` does"),
    ("KUBECONFIG", "`KUBECONFIG` names kubectl's configuration, which names clusters and credential commands"),
    ("AWS_CONFIG_FILE", "`AWS_CONFIG_FILE` names aws' configuration, which can name credential commands"),
    ("AWS_SHARED_CREDENTIALS_FILE", "`AWS_SHARED_CREDENTIALS_FILE` names aws' credentials file"),
    ("CLOUDSDK_CONFIG", "`CLOUDSDK_CONFIG` says where gcloud reads its configuration"),
    ("DOCKER_CONFIG", "`DOCKER_CONFIG` says where docker reads its configuration, which names credential helpers it runs"),
    ("CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "`CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER` names a program cargo runs in place of the compiler"),
    ("WGETRC", "`WGETRC` names wget's configuration, whose `execute` and `use_askpass` run commands"),
    ("CURL_HOME", "`CURL_HOME` says where curl reads its `.curlrc`, which sets any option"),
    ("TF_CLI_CONFIG_FILE", "`TF_CLI_CONFIG_FILE` names terraform's configuration, which names providers and credential helpers"),
    ("GRADLE_USER_HOME", "`GRADLE_USER_HOME` says where gradle reads init scripts, which run code"),
    // SPEC §4.5 item 1 round 4: the variables of the options that name
    // code or configuration on the line (`pytest -p`, `gcc -B`).
    ("PYTEST_ADDOPTS", "`PYTEST_ADDOPTS` gives pytest options, `-p` among them, which load plugins"),
    ("PYTEST_PLUGINS", "`PYTEST_PLUGINS` names plugins pytest loads, code permc does not read"),
    ("GCC_EXEC_PREFIX", "`GCC_EXEC_PREFIX` says where gcc finds the programs it runs, as `-B` does"),
    ("COMPILER_PATH", "`COMPILER_PATH` says where gcc finds the programs it runs, as `-B` does"),
    ("RIPGREP_CONFIG_PATH", "`RIPGREP_CONFIG_PATH` names rg's configuration, which can give `--pre` a program to run"),
    ("PSQLRC", "`PSQLRC` names the file of meta-commands psql runs first (`\\!` runs a shell command)"),
    ("MYSQL_HOME", "`MYSQL_HOME` says where the mysql client reads `my.cnf`, which can load plugins"),
];

/// Families of [`SETTING_VARIABLES`]: a name with this prefix and suffix
/// (`CARGO_TARGET_<triple>_RUNNER`, `NPM_CONFIG_<key>`, read as
/// [`SETTING_VARIABLES`] are).
pub(crate) const VARIABLE_FAMILIES: &[(&str, &str, &str)] = &[
    (
        "CARGO_TARGET_",
        "_RUNNER",
        "`CARGO_TARGET_<triple>_RUNNER` names a program cargo runs the built binaries with",
    ),
    (
        "CARGO_TARGET_",
        "_LINKER",
        "`CARGO_TARGET_<triple>_LINKER` names a program cargo runs as the linker",
    ),
    (
        "CARGO_TARGET_",
        "_RUSTFLAGS",
        "`CARGO_TARGET_<triple>_RUSTFLAGS` gives rustc options, `-C linker=` among them, which name a program cargo runs",
    ),
    (
        "NPM_CONFIG_",
        "",
        "`NPM_CONFIG_<key>` sets npm's configuration, `script-shell` and `node-options` among it",
    ),
    (
        "BASH_FUNC_",
        "",
        "`BASH_FUNC_<name>%%` defines a function bash imports and runs in place of the command `<name>`",
    ),
    (
        "npm_config_",
        "",
        "`npm_config_<key>` sets npm's configuration, `script-shell` and `node-options` among it",
    ),
];

/// Variables that name a command line a program runs as its editor or
/// pager (git's, and the ones git and others fall back to).
pub(crate) const COMMAND_VARIABLES: &[(&str, &str)] = &[
    (
        "GIT_EDITOR",
        "`GIT_EDITOR` names a command line git runs as its editor: permc cannot read it",
    ),
    (
        "GIT_SEQUENCE_EDITOR",
        "`GIT_SEQUENCE_EDITOR` names a command line git runs as its editor: permc cannot read it",
    ),
    (
        "GIT_PAGER",
        "`GIT_PAGER` names a command line git runs as its pager: permc cannot read it",
    ),
    (
        "EDITOR",
        "`EDITOR` names a command line programs run as their editor: permc cannot read it",
    ),
    (
        "VISUAL",
        "`VISUAL` names a command line programs run as their editor: permc cannot read it",
    ),
    (
        "PAGER",
        "`PAGER` names a command line programs run as their pager: permc cannot read it",
    ),
    (
        "MANPAGER",
        "`MANPAGER` names a command line man runs as its pager: permc cannot read it",
    ),
    (
        "BROWSER",
        "`BROWSER` names a command line programs run to open a page (gh, python's webbrowser, xdg-open): permc cannot read it",
    ),
    (
        "GH_PAGER",
        "`GH_PAGER` names a command line gh runs as its pager: permc cannot read it",
    ),
    (
        "GH_EDITOR",
        "`GH_EDITOR` names a command line gh runs as its editor: permc cannot read it",
    ),
    (
        "KUBE_EDITOR",
        "`KUBE_EDITOR` names a command line kubectl runs as its editor: permc cannot read it",
    ),
    (
        "KUBECTL_EXTERNAL_DIFF",
        "`KUBECTL_EXTERNAL_DIFF` names a command kubectl runs for diffs: permc cannot read it",
    ),
    (
        "GH_BROWSER",
        "`GH_BROWSER` names a command line gh runs to open a page: permc cannot read it",
    ),
];

/// Values of [`COMMAND_VARIABLES`] that run nothing beyond themselves
/// (`GIT_PAGER=cat git log`, `GIT_EDITOR=true git rebase --continue`).
pub(crate) const HARMLESS_COMMANDS: &[&str] = &["", "true", ":", "cat", "less", "more"];

/// The `set -o` names SPEC §6.2 (round 3) reads past: they change only
/// how the shell reports and stops, not what later words become.
pub const SAFE_SET_NAMES: &[&str] = &[
    "errexit",
    "nounset",
    "pipefail",
    "xtrace",
    "verbose",
    "errtrace",
    "functrace",
];
