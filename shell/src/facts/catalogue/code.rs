//! Programs and builtins that run text permc does not read (SPEC §4.3
//! round 3, "code is unparsed"): code forms, code-running options, script
//! readers, interpreters.

use super::types::{CodeReading, Grammar, Mode};
/// A form of a builtin or a program that runs text permc does not read
/// (SPEC §4.3): the verbs it applies to and what it reads of their words.
/// A run's verb is asked of its rows in order; the first that answers is
/// the reason its line is unparsed.
#[derive(Debug)]
pub struct CodeForm {
    /// The verbs of the row.
    pub(crate) verbs: &'static [&'static str],
    /// A line the row catches (docs/commands.md shows it; a test runs it).
    pub(crate) example: &'static str,
    /// What of the words (after the verb) makes the verb run text: a tag
    /// the facts read (`facts/code_forms.rs`).
    pub(crate) reading: CodeReading,
    /// The words the reading looks for, where it looks for some (a
    /// subcommand and its group: `alias`, `set`, `import`); its tag's doc
    /// says their order.
    pub(crate) words: &'static [&'static str],
}

impl CodeForm {
    /// A row of no verb that reads nothing: what a row file's row leaves
    /// out.
    pub(crate) const EMPTY: Self = Self {
        verbs: &[],
        example: "",
        reading: CodeReading::Source,
        words: &[],
    };
}

/// Which operands of a name-assigning builtin (the words after its
/// options) are names.
#[derive(Debug, Clone, Copy)]
pub enum Names {
    /// Every operand.
    All,
    /// The second operand (`getopts OPTSTRING NAME`).
    Second,
    /// No operand.
    None,
}

/// How a builtin that assigns the names in its operands reads its words.
#[derive(Debug, Clone, Copy)]
pub enum NameGrammar {
    /// `declare`, `typeset`, `local`, `export`, `readonly`: no option
    /// takes a value (`+x` is an option), `-f`/`-F` name functions.
    Declare,
    /// Options, of which `values` take a value and `named` take a name;
    /// then the operands.
    Options {
        /// The letters that take a value.
        values: &'static str,
        /// The letters whose value is a name.
        named: &'static str,
        /// Which operands are names.
        operands: Names,
    },
    /// `unset`: names, unless `-f` (function names, not evaluated).
    Unset,
}

/// Which options of a program run a command given as text.
#[derive(Debug, Clone, Copy)]
pub enum TextOptions {
    /// GNU tar's (`--to-command`, `-I`…, also in the old-style first word).
    Tar,
    /// rsync's `-e`/`--rsh`, other than plain `ssh`.
    RemoteShell,
    /// ssh's `-o` naming a command; `program`: `-S PROGRAM` (scp, sftp);
    /// `server`: `-D SERVER` (sftp).
    Ssh {
        /// `-S PROGRAM` runs a program (scp, sftp).
        program: bool,
        /// `-D SERVER` runs a server (sftp).
        server: bool,
    },
}

/// How an option of a row is spelled.
#[derive(Clone, Copy)]
pub(crate) enum Spell {
    /// A getopt short option: alone, with its value attached, or in a
    /// cluster (`-f F`, `-fF`, `-nf F`).
    Short(char),
    /// A long option: `--name`, `--name=V` (a program that does not take
    /// abbreviations: clap, Go's flag).
    Long(&'static str),
    /// A GNU long option, also by any prefix (`--compress-prog`, `--ev`
    /// for make's `--eval`), as getopt_long takes a unique one: a prefix
    /// shared with another option is an error the program reports, so
    /// counting it asks only more.
    GnuLong(&'static str),
    /// A word exactly (`-exec`, `-TT`), or with `=V` attached.
    Word(&'static str),
    /// A word that starts so (`-fplugin=…`, `-Zbuild-std`).
    Prefix(&'static str),
    /// An npm configuration key as npm 11's nopt reads it: `--name`,
    /// `--name=V`, `--name V`, and a prefix of two letters or more —
    /// nopt expands a prefix unique among npm's keys (`--scr=` is
    /// `--script-shell=`), and counting a shared one asks only more.
    Nopt(&'static str),
    /// A short option read in a cluster as getopt reads it: its letter
    /// before any of the program's letters that take a value (the second
    /// field: `pytest -Wignore` gives `-W` the value `ignore`), except
    /// when its own value (the rest of the word or the next word) starts
    /// with the third, when not empty (`pytest -p no:cacheprovider` turns
    /// a plugin off; `-p NAME` loads one).
    Getopt(char, &'static str, &'static str),
}

/// One code-running option: the programs that take it, its spelling,
/// and whether its value is code itself or names it.
pub(crate) struct CodeOption {
    pub(crate) programs: &'static [&'static str],
    pub(crate) spell: Spell,
    pub(crate) kind: OptionKind,
}

/// What a code-running option's value is (SPEC §4.5 item 1). Either makes
/// the line unparsed; only `Code` makes its program one that runs code
/// given as text, for the analyzer (`broad-always-expansion`, §11:
/// `Terminal(uv run pytest)` is what always-allow records).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OptionKind {
    /// A command or code as text (`make --eval`, `gcc -wrapper`).
    Code,
    /// A file of settings or code, a plugin or a directory of code,
    /// named (`config`: `--kubeconfig`, `pytest -c|-p`, `gcc @FILE`).
    Named,
}

pub(crate) const fn row(programs: &'static [&'static str], spell: Spell) -> CodeOption {
    CodeOption {
        programs,
        spell,
        kind: OptionKind::Code,
    }
}

/// A row of [`OptionKind::Named`].
pub(crate) const fn named(programs: &'static [&'static str], spell: Spell) -> CodeOption {
    CodeOption {
        programs,
        spell,
        kind: OptionKind::Named,
    }
}

/// ssh-keygen 9.2p1's letters that take a value (its getopt string).
const SSH_KEYGEN_VALUED: &str = "CDEFIMNOPRVYZabfmnrstwz";

/// The code-running options of SPEC §4.3's list, as the programs' manuals
/// (GNU sed 4.9, gawk 5, GNU make 4.4, cargo 1.8x, go 1.2x, vim 9, gcc 14,
/// coreutils 9, Info-ZIP zip 3, ripgrep 14, man-db 2.12, rsync 3.3, npm
/// 10) spell them.
pub(crate) const CODE_OPTIONS: &[CodeOption] = &[
    row(SED, Spell::Short('f')),
    row(SED, Spell::GnuLong("--file")),
    row(AWK, Spell::Short('f')),
    row(AWK, Spell::GnuLong("--file")),
    row(AWK, Spell::Short('i')),
    row(AWK, Spell::GnuLong("--include")),
    row(AWK, Spell::Short('l')),
    row(AWK, Spell::GnuLong("--load")),
    row(AWK, Spell::Short('E')),
    row(AWK, Spell::GnuLong("--exec")),
    row(MAKE, Spell::GnuLong("--eval")),
    row(MAKE, Spell::Short('E')),
    row(MAKE, Spell::Short('f')),
    row(MAKE, Spell::GnuLong("--file")),
    row(MAKE, Spell::GnuLong("--makefile")),
    row(&["cargo"], Spell::Long("--config")),
    row(&["cargo"], Spell::Prefix("-Z")),
    row(&["go"], Spell::Word("-exec")),
    row(&["go"], Spell::Word("--exec")),
    row(&["go"], Spell::Word("-toolexec")),
    row(&["go"], Spell::Word("--toolexec")),
    row(&["go"], Spell::Word("-vettool")),
    row(&["go"], Spell::Word("--vettool")),
    row(VIM, Spell::Word("-c")),
    row(VIM, Spell::Word("-S")),
    row(VIM, Spell::Long("--cmd")),
    // SPEC §4.5 round 4 (the fourth attack): Ex mode reads commands (`:!`
    // runs a shell command) from standard input, `-s FILE` reads normal-mode
    // keys from a file, `-u`/`-U` name the vimrc it sources. vim reads a
    // cluster letter by letter (`-es`).
    row(VIM, Spell::Short('e')),
    row(VIM, Spell::Short('E')),
    row(VIM, Spell::Short('s')),
    row(VIM, Spell::Short('u')),
    row(VIM, Spell::Short('U')),
    row(CC, Spell::Word("-wrapper")),
    row(CC, Spell::Prefix("-fplugin")),
    row(&["sort"], Spell::GnuLong("--compress-program")),
    row(&["split"], Spell::GnuLong("--filter")),
    row(&["zip"], Spell::Word("-TT")),
    row(&["zip"], Spell::GnuLong("--unzip-command")),
    row(&["rg"], Spell::Long("--pre")),
    row(&["rg"], Spell::Long("--hostname-bin")),
    row(&["man"], Spell::Short('P')),
    row(&["man"], Spell::GnuLong("--pager")),
    row(&["man"], Spell::Short('H')),
    row(&["man"], Spell::GnuLong("--html")),
    row(&["rsync"], Spell::GnuLong("--rsync-path")),
    // npm 11: the shell a package script runs in, node's options (`-r
    // MODULE`), and the config files that can set either (SPEC §4.5
    // item 1: `config`), by any nopt abbreviation (the oracle found
    // `npm test --scr=./x` and `--userconfig=F` approved, issue 41).
    row(NPM, Spell::Nopt("--script-shell")),
    row(NPM, Spell::Nopt("--node-options")),
    row(NPM, Spell::Nopt("--userconfig")),
    row(NPM, Spell::Nopt("--globalconfig")),
    // cmake 3: `-E` runs one of its tools (`env` runs a command, `rm`
    // deletes), `-P` a cmake script (`execute_process`).
    row(&["cmake"], Spell::Word("-E")),
    row(&["cmake"], Spell::Word("-P")),
    // Emacs 29: Lisp given to evaluate, load or call (`shell-command`).
    row(EMACS, Spell::Word("-l")),
    row(EMACS, Spell::Long("--load")),
    row(EMACS, Spell::Word("-f")),
    row(EMACS, Spell::Long("--funcall")),
    row(EMACS, Spell::Long("--eval")),
    row(EMACS, Spell::Long("--execute")),
    row(EMACS, Spell::Long("--script")),
    row(EMACS, Spell::Word("-x")),
    row(&["emacsclient"], Spell::Word("-e")),
    row(&["emacsclient"], Spell::Long("--eval")),
    // Nix: `nix develop|shell … -c CMD` runs a command in the environment
    // it builds; `nix-shell --run|--command 'CMD'` a shell line there.
    row(&["nix"], Spell::Word("-c")),
    row(&["nix"], Spell::Long("--command")),
    row(&["nix-shell"], Spell::Long("--run")),
    row(&["nix-shell"], Spell::Long("--command")),
    // SPEC §4.5 item 1 round 4: code and config named on the line. A file
    // of settings the program reads counts as code (its settings can name
    // a command), by every spelling the program takes.
    // GNU make 4.3: the directories `include` searches (a makefile's
    // `include x.mk` then reads code from there).
    named(MAKE, Spell::Short('I')),
    named(MAKE, Spell::GnuLong("--include-dir")),
    // gcc 12, clang 16: a response file holds more options (`-wrapper`,
    // `-fplugin`, `-B` among them); `-B` and `--ld-path` name the programs
    // the driver runs; `-specs=` a spec file, which can run any program;
    // clang's `-load` (through `-Xclang`) and `-fpass-plugin` load code.
    named(CC, Spell::Prefix("@")),
    named(CC, Spell::Prefix("-B")),
    named(CC, Spell::Prefix("-specs")),
    named(CC, Spell::Prefix("--specs")),
    named(CC, Spell::Prefix("--ld-path")),
    named(CC, Spell::Word("-load")),
    named(CC, Spell::Prefix("-fpass-plugin")),
    named(&["javac"], Spell::Prefix("@")),
    // kubectl 1.32 (pflag: no abbreviations): the kubeconfig names
    // credential commands (`exec:`); kustomize's plugins and helm command.
    named(&["kubectl", "oc"], Spell::Long("--kubeconfig")),
    row(&["kubectl", "oc"], Spell::Long("--helm-command")),
    named(&["kubectl", "oc"], Spell::Long("--enable-alpha-plugins")),
    // helm 3: the same kubeconfig, a post-renderer it runs, the files of
    // repositories and registries (credentials helpers).
    named(&["helm"], Spell::Long("--kubeconfig")),
    row(&["helm"], Spell::Long("--post-renderer")),
    named(&["helm"], Spell::Long("--repository-config")),
    named(&["helm"], Spell::Long("--registry-config")),
    // GNU Wget 1.21: a wgetrc named, or its commands given one by one
    // (`-e use_askpass=./x`), and the credential command itself.
    named(&["wget"], Spell::GnuLong("--config")),
    row(&["wget"], Spell::Short('e')),
    row(&["wget"], Spell::GnuLong("--execute")),
    row(&["wget"], Spell::GnuLong("--use-askpass")),
    // OpenSSH 9.2p1's ssh-keygen (described/ssh.toml): a PKCS#11 library
    // (`-D`) or a FIDO middleware (`-w`) it loads, and `-O` options that
    // read and write files (`write-attestation=F`, `challenge=F`).
    row(&["ssh-keygen"], Spell::Getopt('D', SSH_KEYGEN_VALUED, "")),
    row(&["ssh-keygen"], Spell::Getopt('w', SSH_KEYGEN_VALUED, "")),
    named(&["ssh-keygen"], Spell::Getopt('O', SSH_KEYGEN_VALUED, "")),
    // curl 7.88: a config file sets any option (`-K`, `--config`).
    named(&["curl"], Spell::Short('K')),
    named(&["curl"], Spell::GnuLong("--config")),
    // pytest 8: an ini file (its `addopts` load plugins), an override of
    // one (`-o addopts=…`), a plugin loaded by name (`-p no:NAME` turns
    // one off), and the directories that move where conftest.py files
    // are loaded from.
    named(PYTEST, Spell::Getopt('c', PYTEST_VALUED, "")),
    named(PYTEST, Spell::Long("--config-file")),
    named(PYTEST, Spell::Getopt('o', PYTEST_VALUED, "")),
    named(PYTEST, Spell::Long("--override-ini")),
    named(PYTEST, Spell::Getopt('p', PYTEST_VALUED, "no:")),
    named(PYTEST, Spell::Long("--rootdir")),
    named(PYTEST, Spell::Long("--confcutdir")),
    // The programs above, each option that names a file of settings or
    // code (SPEC §4.5 item 1: the family, not the example). go 1.22: an
    // alternate go.mod (its `replace` points a module at any directory)
    // and an overlay that replaces source files; man-db 2.11's
    // configuration file (it names the pager and the programs man runs);
    // cmake 3.25's initial cache and toolchain files (cmake code);
    // Emacs 29's init directory and another user's init file; Nix's
    // settings (`--option pre-build-hook ./x`).
    named(&["go"], Spell::Word("-modfile")),
    named(&["go"], Spell::Word("--modfile")),
    named(&["go"], Spell::Word("-overlay")),
    named(&["go"], Spell::Word("--overlay")),
    named(&["man"], Spell::Short('C')),
    named(&["man"], Spell::GnuLong("--config-file")),
    named(&["cmake"], Spell::Prefix("-C")),
    named(&["cmake"], Spell::Long("--toolchain")),
    named(&["cmake"], Spell::Prefix("-DCMAKE_TOOLCHAIN_FILE")),
    named(&["cmake"], Spell::Prefix("CMAKE_TOOLCHAIN_FILE=")),
    named(&["cmake"], Spell::Prefix("-DCMAKE_PROJECT_INCLUDE")),
    named(EMACS, Spell::Long("--init-directory")),
    named(EMACS, Spell::Word("-u")),
    named(EMACS, Spell::Long("--user")),
    named(&["nix", "nix-shell", "nix-build"], Spell::Long("--option")),
];

/// The language of a script reader's script, as permc reads it for a
/// command (SPEC §4.3 round 3, "code is unparsed").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptLanguage {
    /// sed's scripts: `e`, `w`, `W`, or the `e`/`w` flag of `s`.
    Sed,
    /// awk's programs: `system`, `|`, `>`, `getline` from a command.
    Awk,
    /// make's `NAME=VALUE` operands that set a program variable.
    Make,
    /// less's `+CMD` with `!` or `|`.
    Less,
    /// vim's `+CMD` (not `+N`).
    Vim,
    /// Commands read from standard input whatever the operands (`!` runs a
    /// shell command): ed and ex.
    Stdin,
    /// sqlite3's dot-commands (`.shell`, `.system`), or standard input.
    Sqlite,
    /// psql's meta-commands that run a shell command (`\!`, `\o |CMD`,
    /// `COPY … PROGRAM`), a script file (`-f`), output to a command (`-o
    /// '|CMD'`), or standard input.
    Psql,
    /// The mysql client's commands that run a shell command (`system`,
    /// `\!`, `pager`), or standard input.
    Mysql,
}

/// The language `verb` reads its script in, if it is a script reader
/// ([`SCRIPT_LANGUAGES`]).
pub(crate) fn script_language(verb: &str) -> Option<ScriptLanguage> {
    SCRIPT_LANGUAGES
        .iter()
        .find(|(names, _)| names.contains(&verb))
        .map(|&(_, l)| l)
}

/// Programs whose operands may be assignments (`make CC=…`): a glob
/// operand without a `/` may expand to one (SPEC §4.4 item 4).
pub(crate) const ASSIGNMENT_OPERANDS: &[&str] = MAKE;

/// A program that reads commands from standard input (SPEC §4.2 round 4,
/// "What reads the body decides the rest"): when standard input comes from
/// the line — a here-document, a here-string, a `<` redirection, a pipe
/// from the command before it — the line is unparsed, for what it feeds
/// may run a shell command permc does not read.
#[derive(Debug, Clone, Copy)]
pub struct StdinCommandReader {
    /// The program's names.
    pub programs: &'static [&'static str],
    /// What it reads from standard input, and how that runs a command.
    pub reads: &'static str,
    /// Words after which it reads no commands from standard input: its
    /// commands given another way, or only its version or help printed
    /// (exactly, `--long=VALUE`, or a short option with its value
    /// attached).
    pub not_with: &'static [&'static str],
    /// Its commands are its operand at this position (from 0), when
    /// there is one: then standard input is not read.
    pub operand: Option<usize>,
    /// Its options that take the next word as their value (without their
    /// dashes), to count the operands.
    pub valued: &'static [&'static str],
    /// What the real program showed (the version checked, or the manual).
    pub verified: &'static str,
}

impl StdinCommandReader {
    /// A row of no program: what a row file's row leaves out.
    pub const EMPTY: Self = Self {
        programs: &[],
        reads: "",
        not_with: &[],
        operand: None,
        valued: &[],
        verified: "",
    };
}

include!(concat!(env!("OUT_DIR"), "/catalogue/code.rs"));
