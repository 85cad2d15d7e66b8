//! Project rows: what a project's `permc.toml` says of its own tools
//! (`[[command]]`, issue 29 point 5), read by the same facts as the
//! built-in catalogue.
//!
//! A row can only **add** knowledge: an effect (external, privileged, code
//! permc does not read), a command it runs (given as argv, or as a shell
//! line), options that make it run code. It never removes or loosens a
//! built-in row: the built-in readings run first and whole, and a project
//! row is read after them, over every run they found (a row named `git`
//! adds to git; `git push` stays external).
//!
//! The rows reach both engines through one function, [`LineFacts::of_with`]
//! (and [`LineFacts::of_in_with`]): the facts are read as without rows, and
//! each run whose command word a row names is read by the row too
//! ([`at_run`], called for every run the facts record). Nothing here reads
//! a file: the command line's `permc.toml` reader builds the rows.

pub use super::catalogue::described::Kind;
use super::wrappers::{self, Words};
use super::{basename, LineFacts, Run, MAX_INNER_DEPTH};
use crate::reader::AsStr;
use crate::reader::Known;
use std::borrow::Cow;
use std::sync::Arc;

/// Where project rows come from, as the reasons name it.
pub const SOURCE: &str = "permc.toml";

/// The section of `docs/commands.md` about project rows.
pub const DOC: &str = r#"
## Project rows (permc.toml)

A project describes its own tools in `permc.toml` (beside
permissions.json), one `[[command]]` table a tool. The rows are read by
the same code as the built-in rows above — the decision of both engines,
`permc decide`, `explain`, `test`, `serve` (watched and reloaded with the rule files), `diff`'s
witnesses, `always` (it refuses what a row says leaves the machine or
runs privileged), a compiled artifact (which holds them), the bindings
(`load({permissions, config})`, `loadText({…, config})`, `Permc.load(p, a,
config: path)`, `Permc.load_text(p, a, config_text: text)`) and `permc
check` — and `permc check` validates them (`invalid-command`,
`duplicate-command`) and reads them where it reads the catalogue
(`neutralized-by-ceiling`, `broad-always-expansion`). The commands that
decide take `--config FILE`; by default they read the permc.toml beside
permissions.json (`--config /dev/null`: none).

```toml
[[command]]
name = "./deploy.sh"          # the command word
effects = ["external"]        # any of "external", "privileged", "code"

[[command]]
name = "with-env"             # no `/`: any word whose last path component is `with-env`
runs = "argv"                 # a runner: `with-env -e prod pnpm test` runs `pnpm test`
options_with_value = ["-e", "--env"]

[[command]]
name = "./build.sh"
code_options = ["--hook"]     # `--hook`, `--hook=x`, `--ho x` run code permc does not read
```

| field | what it adds |
|---|---|
| `name` | required. With a `/`, the exact word as written (`./deploy.sh` is not `deploy.sh` nor `scripts/deploy.sh`); without, a program name matched on the word's last path component (`release` matches `release` and `bin/release`). One word: no blank. The row applies wherever permc finds the command: its own segment, behind wrappers (`nohup ./deploy.sh`), in an inner line (`bash -c './deploy.sh'`), run by a runner or `find -exec`. |
| `effects` | `"external"`: the run has an effect outside the machine — `ceiling.external_effect` lowers an approval in every mode, automatic mode and the container floor included (SPEC §6.1). `"privileged"`: as `sudo` — `ceiling.privileged` (§5 step 7b). `"code"`: it runs code permc does not read — the line is unparsed, `ceiling.unparsed` (§5 step 7c). |
| `runs` | `"argv"`: a runner. Its first word that is not an option (past the values of `options_with_value`, or after `--`) starts a command it runs, read as a run of its own: deny, ask, the built-ins and the ceilings read it, and allow must cover it too (SPEC §4.3 round 3) — `Terminal(with-env)` alone does not approve `with-env -e prod curl x`; `Terminal(with-env)` with `Terminal(pnpm test)`, or `Terminal(with-env -e prod pnpm)`, approves `with-env -e prod pnpm test`. An expansion before the command may be an option or the command: both are read. `"shell"`: its operands are a shell command line permc does not read — the line is unparsed. |
| `options_with_value` | with `runs = "argv"` only: the options that take the next word as their value. Any other option is read as taking none: list every option that takes a value. |
| `complete`, `version`, `operands`, and `flags`, `text`, `path-read`, `path-write`, `dir-write`, `pathspec`, `command`, `line`, `code`, `config`, `variable`, `remote`, `open` | **[round 4]** the row describes its program (below). |
| `code_options` | options that make the tool run code permc does not read: present in any spelling — the option, `--hook=x`, a unique prefix of a long option (`--ho`), a one-letter option attached (`-kx`) or in a cluster (`-vk`) — the line is unparsed; an expansion where one could be (`./build.sh $OPTS`) lowers with `unknown.word` (SPEC §4.4 item 3). For a runner, only its own options (before its command) are read. |

**[round 4] A row may describe its program** (SPEC §4.5 item 6), in the
form of the built-in described rows above: `complete = true`, the
`version` it describes, the `operands`' kinds by position (the last
repeating), and its options by kind — `flags` (no value), `text`,
`path-read`, `path-write`, `dir-write`, `pathspec`, `command`, `line`,
`code`, `config`, `variable`, `remote`, `open` — each entry one option's
spellings separated by blanks, read as GNU getopt_long reads them
(clusters, a value attached or next, long options by a unique prefix;
`--color[=]` takes its value only after `=`):

```toml
[[command]]
name = "mytool"
complete = true
version = "mytool 2.1"
operands = ["path-read"]
flags = ["-v --verbose", "--help"]
text = ["-n --name"]
path-write = ["-o --out"]
```

With `complete = true` the closed world applies (SPEC §4.5 item 2): past
an allow entry's tokens, a word the row cannot place (`mytool --frob`,
`mytool -vx`), an option of a kind that writes or runs (`mytool -o f`
under `Terminal(mytool)`; `Terminal(mytool -o)` covers it), or an
expansion that may be one, means the entry does not cover the segment;
and where the row holds a kind that writes or runs, such a word lowers
`auto_approve` with `unknown.word` in every mode, automatic mode and the
container floor included (`mytool --frob f`: "`--frob` is not an option
permc knows for `mytool` (mytool 2.1)").
Without `complete`, typed options may only add to a built-in described
row (a row named sort with `flags = ["--my-patch"]`: `Terminal(sort)` then
covers `sort --my-patch f`); a spelling the built-in row types cannot be
retyped (`text = ["-o"]` for `sort` is an error). A row without typed
fields leaves its program undescribed: token matching, as before. Project
rows are never verified by the real program: they only tighten what the
scope reads (§4.5 item 4).

**A row only adds.** It can add an effect, a command it runs or a code
option; it can never remove or loosen what permc knows. The built-in
rows are read first and whole, and a project row after them: a row named
`git` adds to git, and `git push` stays external whatever the row says;
a row cannot make a wrapper, a runner or a shell read differently, nor
lift a ceiling. Two rows of one name add up (`duplicate-command` warns).

**No row is skipped.** A row permc cannot read — an unknown field or
effect, an empty name or one holding a blank, `options_with_value`
without `runs = "argv"` — is an error (`invalid-command`, with file, line
and column): everything that decides refuses the config whole (exit 2)
rather than decide without the row, and `permc check` reports each one.
An artifact holds the rows it was compiled with; used beside a permc.toml
whose rows differ, it is stale (compile it again). permc.toml is a
protected path (SPEC §6.4): an agent's command or write that names it
asks a person.

The reasons name the row: `` `./deploy.sh` has an effect outside the
machine (permc.toml) ``, `` `./gen` runs code permc does not read
(permc.toml) ``.
"#;

/// The effects a project row adds (`effects = [...]`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Effects {
    /// `"external"`: the run has an effect outside the machine (SPEC §6.1's
    /// ceiling applies).
    pub external: bool,
    /// `"privileged"`: it runs privileged, as `sudo` (SPEC §5 step 7b).
    pub privileged: bool,
    /// `"code"`: it runs code permc does not read: the line is unparsed.
    pub code: bool,
}

impl Effects {
    /// The effect names a row may give, in the documentation's order.
    pub const NAMES: [&'static str; 3] = ["external", "privileged", "code"];

    /// Adds the effect of this name; `false` for an unknown name.
    pub fn add(&mut self, name: &str) -> bool {
        match name {
            "external" => self.external = true,
            "privileged" => self.privileged = true,
            "code" => self.code = true,
            _ => return false,
        }
        true
    }

    /// Both rows' effects.
    fn union(self, o: Effects) -> Effects {
        Effects {
            external: self.external || o.external,
            privileged: self.privileged || o.privileged,
            code: self.code || o.code,
        }
    }
}

/// What a project row's operands are (`runs = "…"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Runs {
    /// `"argv"`: a runner. Its first word that is not an option (past the
    /// values of `options_with_value`, or after `--`) starts a command it
    /// runs, read as a run of its own (SPEC §4.3 round 3).
    Argv,
    /// `"shell"`: its operands are a shell command line permc does not
    /// read: the line is unparsed.
    Shell,
}

impl Runs {
    /// The value a row writes.
    pub fn name(self) -> &'static str {
        match self {
            Runs::Argv => "argv",
            Runs::Shell => "shell",
        }
    }

    /// The value of this name.
    pub fn from_name(name: &str) -> Option<Runs> {
        match name {
            "argv" => Some(Runs::Argv),
            "shell" => Some(Runs::Shell),
            _ => None,
        }
    }
}

/// One `[[command]]` row of a project.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CommandRow {
    /// The command word: with a `/`, an exact word as written
    /// (`./deploy.sh`); without, a program name matched on the word's last
    /// path component (`deploy` matches `deploy` and `bin/deploy`).
    pub name: String,
    /// Its effects.
    pub effects: Effects,
    /// What its operands are, when it runs a command.
    pub runs: Option<Runs>,
    /// The options that take the next word as their value (`runs = "argv"`).
    pub options_with_value: Vec<String>,
    /// Options that make it run code permc does not read.
    pub code_options: Vec<String>,
    /// **[round 4]** Its options by kind, its operands, and whether it
    /// describes the program (SPEC §4.5 item 6).
    pub description: Description,
}

/// **[round 4]** What a project row says of its program's words, in the
/// built-in rows' form (SPEC §4.5 items 1 and 6): with `complete`, the row
/// describes the program and the closed world applies to it; a row
/// without `complete` may only add options to a built-in described row.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Description {
    /// `complete = true`: the row describes its program.
    pub complete: bool,
    /// The version it describes (the messages name it).
    pub version: String,
    /// The kinds of the operands by position, the last repeating.
    pub operands: Vec<String>,
    /// Options by kind: each entry one option, its spellings separated by
    /// blanks (`"-o --output"`), as in the built-in rows.
    pub options: Vec<(Kind, Vec<String>)>,
}

impl Description {
    /// Does the row type any word (options or operands)?
    pub fn is_empty(&self) -> bool {
        !self.complete && self.operands.is_empty() && self.options.is_empty()
    }

    /// Each option entry with its kind.
    pub fn entries(&self) -> impl Iterator<Item = (Kind, &str)> + Clone {
        self.options
            .iter()
            .flat_map(|(kind, list)| list.iter().map(move |e| (*kind, e.as_str())))
    }

    /// `other`'s options added to these (two rows of one name).
    fn merge(&mut self, other: &Description) {
        self.complete |= other.complete;
        if self.version.is_empty() {
            self.version.clone_from(&other.version);
        }
        if self.operands.is_empty() {
            self.operands.clone_from(&other.operands);
        }
        for (kind, list) in &other.options {
            self.options.push((*kind, list.clone()));
        }
    }
}

impl CommandRow {
    /// Does this row name the command word `written` (as written)?
    pub fn names(&self, written: &str) -> bool {
        if self.name.contains('/') {
            written == self.name
        } else {
            basename(written) == self.name
        }
    }

    /// `other`'s knowledge added to this row's (two rows of one name).
    fn merge(&mut self, other: &CommandRow) {
        self.description.merge(&other.description);
        self.effects = self.effects.union(other.effects);
        // Shell is the stricter reading: the line is unparsed.
        self.runs = match (self.runs, other.runs) {
            (Some(Runs::Shell), _) | (_, Some(Runs::Shell)) => Some(Runs::Shell),
            (a, b) => a.or(b),
        };
        for (mine, theirs) in [
            (&mut self.options_with_value, &other.options_with_value),
            (&mut self.code_options, &other.code_options),
        ] {
            for o in theirs {
                if !mine.contains(o) {
                    mine.push(o.clone());
                }
            }
        }
    }
}

/// A project's rows, shared (cloning is a reference count): what the
/// engines hold and pass to [`LineFacts::of_with`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ProjectRows {
    rows: Arc<[CommandRow]>,
    /// **[round 4]** permc.toml's `protected = […]`: paths protected as
    /// the rule files are (SPEC §6.4), relative to the project root or
    /// absolute.
    protected: Arc<[String]>,
}

impl ProjectRows {
    /// The rows; rows of one name are merged into the first (a row only
    /// adds, so two rows of one name add both).
    pub fn new(rows: Vec<CommandRow>) -> ProjectRows {
        let mut merged: Vec<CommandRow> = Vec::with_capacity(rows.len());
        for r in rows {
            match merged.iter_mut().find(|m| m.name == r.name) {
                Some(m) => m.merge(&r),
                None => merged.push(r),
            }
        }
        ProjectRows {
            rows: merged.into(),
            protected: Arc::from([]),
        }
    }

    /// These rows with permc.toml's `protected` paths (SPEC §6.4).
    pub fn with_protected(mut self, paths: Vec<String>) -> ProjectRows {
        self.protected = paths.into();
        self
    }

    /// permc.toml's `protected` paths, as written.
    pub fn protected(&self) -> &[String] {
        &self.protected
    }

    /// No rows and no `protected` paths (the common case: the facts read
    /// as without them).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.protected.is_empty()
    }

    /// The rows, in the order given.
    pub fn rows(&self) -> &[CommandRow] {
        &self.rows
    }

    /// The rows that name the command word `written`.
    pub fn naming<'r>(&'r self, written: &'r str) -> impl Iterator<Item = &'r CommandRow> {
        self.rows.iter().filter(move |r| r.names(written))
    }
}

/// What the rows found in one line, kept in its [`LineFacts`].
#[derive(Debug, Clone, Default)]
pub(crate) struct ProjectFacts {
    rows: ProjectRows,
    /// How many project runners are being read, one inside another.
    nesting: usize,
    /// The first row with an external effect that a run names.
    external: Option<String>,
    /// The first privileged row a run names.
    privileged: Option<String>,
    /// A run of a row with code options given an unknown word where one
    /// could be: (segment, words, known).
    #[allow(clippy::type_complexity)]
    code_possible: Option<(usize, Vec<Cow<'static, str>>, Vec<Known>)>,
}

impl ProjectFacts {
    /// The rows these facts were read with.
    pub(crate) fn rows(&self) -> &ProjectRows {
        &self.rows
    }
}

impl<'a> LineFacts<'a> {
    /// The project's rows these facts were read with, if any.
    pub fn project_rows(&self) -> Option<&ProjectRows> {
        self.project.as_ref().map(|p| p.rows())
    }

    /// [`LineFacts::of`] with a project's rows: every run a row names is
    /// read by the row too. Without rows, exactly [`LineFacts::of`].
    pub fn of_with(command: &'a str, rows: &ProjectRows) -> LineFacts<'a> {
        let mut slot = None;
        LineFacts::of_in_with(&mut slot, command, rows);
        slot.unwrap_or_default()
    }

    /// [`LineFacts::of_in`] with a project's rows ([`LineFacts::of_with`]).
    pub fn of_in_with<'s>(
        slot: &'s mut Option<LineFacts<'a>>,
        command: &'a str,
        rows: &ProjectRows,
    ) -> &'s LineFacts<'a> {
        if rows.is_empty() {
            return LineFacts::of_in(slot, command);
        }
        let facts = slot.insert(LineFacts::default());
        facts.project = Some(Box::new(ProjectFacts {
            rows: rows.clone(),
            ..ProjectFacts::default()
        }));
        facts.fill(command);
        facts
    }

    /// The first project row with an external effect a run names
    /// (SPEC §6.1's ceiling, from permc.toml): its name.
    pub fn project_external(&self) -> Option<&str> {
        self.project.as_ref()?.external.as_deref()
    }

    /// The first privileged project row a run names: its name.
    pub fn project_privileged(&self) -> Option<&str> {
        self.project.as_ref()?.privileged.as_deref()
    }

    /// A run of a project row with code options, given an unknown word
    /// where one of them could be (SPEC §4.4 item 3).
    pub(crate) fn project_code_possible(&self) -> Option<Run<'_>> {
        let (segment, words, known) = self.project.as_ref()?.code_possible.as_ref()?;
        Some(Run {
            words,
            known,
            privileged: false,
            privileged_via: None,
            segment: *segment,
            read_past: true,
            guessed: false,
            canonical: false,
            cache: None,
        })
    }
}

/// Reads the run `words[from..]` of segment `seg` by the project rows that
/// name its command word (`top`: `words` are the segment's own, so a run
/// it gives as argv is one allow must cover, [`LineFacts::given`]).
/// Called for every run the facts record, after the built-in readings:
/// without rows, one test.
#[inline]
pub(crate) fn at_run<'a>(
    words: &Words<'_, 'a>,
    from: usize,
    seg: usize,
    top: bool,
    facts: &mut LineFacts<'a>,
) {
    if facts.project.is_some() {
        read_run(words, from, seg, top, facts);
    }
}

/// [`at_run`] with rows.
#[inline(never)]
fn read_run<'a>(
    words: &Words<'_, 'a>,
    from: usize,
    seg: usize,
    top: bool,
    facts: &mut LineFacts<'a>,
) {
    let Some(state) = facts.project.as_ref() else {
        return;
    };
    let Some(written) = words.text.get(from) else {
        return;
    };
    if words.known.get(from).is_some_and(|k| k.is_unknown()) {
        return;
    }
    // The rows are shared: a clone is a reference count, and lets the
    // readings below write the facts.
    let rows = state.rows.clone();
    for row in rows.naming(written) {
        apply(row, words, from, seg, top, facts);
    }
}

/// One row's reading of the run `words[from..]`.
fn apply<'a>(
    row: &CommandRow,
    words: &Words<'_, 'a>,
    from: usize,
    seg: usize,
    top: bool,
    facts: &mut LineFacts<'a>,
) {
    let name = &row.name;
    let guessed = facts.guessing;
    if let Some(p) = facts.project.as_mut() {
        if row.effects.external && !guessed && p.external.is_none() {
            p.external = Some(name.clone());
        }
        if row.effects.privileged && !guessed && p.privileged.is_none() {
            p.privileged = Some(name.clone());
        }
    }
    if row.effects.code {
        facts.unparsed_because(format!(
            "`{}` runs code permc does not read ({SOURCE})",
            wrappers::short(name)
        ));
    }
    // A runner's own options come before its command.
    let end = match row.runs {
        Some(Runs::Argv) => starts(row, words, from)
            .first()
            .copied()
            .unwrap_or(words.text.len()),
        _ => words.text.len(),
    };
    let args = from + 1..end.max(from + 1);
    let known = words.known.get(args.clone()).unwrap_or_default();
    if let Some(opt) = code_option(row, &words.text[args.clone()], known) {
        facts.unparsed_because(format!(
            "`{}` makes `{}` run code permc does not read ({SOURCE})",
            wrappers::short(opt),
            wrappers::short(name)
        ));
    } else if !row.code_options.is_empty() && may_hide_code_option(words, args.clone()) {
        if let Some(p) = facts.project.as_mut() {
            p.code_possible.get_or_insert_with(|| {
                let text = words.text[from..]
                    .iter()
                    .map(|w| Cow::Owned(w.to_string()))
                    .collect();
                let known = words.known.get(from..).unwrap_or_default().to_vec();
                (seg, text, known)
            });
        }
    }
    match row.runs {
        Some(Runs::Shell) => facts.unparsed_because(format!(
            "`{}` runs a shell command line given in its operands, which permc does not read ({SOURCE})",
            wrappers::short(name)
        )),
        Some(Runs::Argv) => runs_argv(row, words, from, seg, top, facts),
        None => {}
    }
}

/// Does `opt`, a code option of a row, appear as `word`: itself, with an
/// attached value (`--hook=x`, `-kx`), a unique prefix of a long option
/// (`--ho`, as GNU getopt reads them), or in a cluster of one-letter
/// options (`-vk`)? Fail closed: any spelling that may be it is it.
fn spells(opt: &str, word: &str) -> bool {
    if word == opt {
        return true;
    }
    if let Some(long) = opt.strip_prefix("--") {
        let Some(w) = word.strip_prefix("--") else {
            return false;
        };
        let stem = w.split_once('=').map_or(w, |(s, _)| s);
        return !stem.is_empty() && long.starts_with(stem);
    }
    let Some(short) = opt.strip_prefix('-') else {
        // `+x` (vim's `+CMD`): with anything attached.
        return opt.starts_with('+') && word.starts_with(opt);
    };
    if short.chars().count() != 1 {
        // `-exec` style: itself or with `=`.
        return word.starts_with(&format!("{opt}="));
    }
    match word.strip_prefix('-') {
        Some(w) if !w.starts_with('-') => w.contains(short),
        _ => false,
    }
}

/// The first of `args` that spells one of the row's code options.
fn code_option<'w>(row: &CommandRow, args: &'w [Cow<'_, str>], known: &[Known]) -> Option<&'w str> {
    args.iter()
        .zip(known.iter().chain(std::iter::repeat(&Known::Exact)))
        .filter(|(_, k)| !k.is_unknown())
        .map(|(w, _)| w.as_str())
        .find(|w| row.code_options.iter().any(|o| spells(o, w)))
}

/// Is a word of `args` unknown (an expansion, or a glob that may expand
/// to an option), so that it may be a code option?
fn may_hide_code_option(words: &Words<'_, '_>, args: std::ops::Range<usize>) -> bool {
    args.into_iter().any(|i| match words.known.get(i) {
        Some(Known::OneToken | Known::AnyTokens) => true,
        Some(Known::Glob) => super::glob::glob_may_start(&words.text[i], "-"),
        _ => false,
    })
}

/// Where a project runner's command starts: past its options (and the
/// values of `options_with_value`), after `--`. An unknown word before it
/// may be an option or the command: both readings count (fail closed).
fn starts(row: &CommandRow, words: &Words<'_, '_>, from: usize) -> Vec<usize> {
    let text = words.text;
    let mut i = from + 1;
    let mut out = Vec::new();
    while i < text.len() {
        let w = &text[i];
        if words.known.get(i).is_some_and(|k| k.is_unknown()) {
            out.push(i);
            i += 1;
            continue;
        }
        if w == "--" {
            out.push(i + 1);
            return out;
        }
        if !w.starts_with('-') || w == "-" {
            out.push(i);
            return out;
        }
        let takes_value = row.options_with_value.iter().any(|o| o == w);
        i += if takes_value { 2 } else { 1 };
    }
    out
}

/// `runs = "argv"`: each place the command may start is a run of its own
/// (deny, ask, the built-ins and the ceilings read it) and, in the
/// segment's own words, a run allow must cover.
fn runs_argv<'a>(
    row: &CommandRow,
    words: &Words<'_, 'a>,
    from: usize,
    seg: usize,
    top: bool,
    facts: &mut LineFacts<'a>,
) {
    let text = words.text;
    for s in starts(row, words, from)
        .into_iter()
        .filter(|&s| s < text.len())
    {
        if top {
            facts.given.push((seg, s, text.len()));
        }
        let nesting = facts.project.as_ref().map_or(0, |p| p.nesting);
        if nesting >= MAX_INNER_DEPTH {
            facts.unparsed_because("commands nest more than 8 levels deep".to_string());
            return;
        }
        if let Some(p) = facts.project.as_mut() {
            p.nesting += 1;
        }
        let inner = Words {
            text: &text[s..],
            known: words.known.get(s..).unwrap_or_default(),
        };
        wrappers::collect_runs(inner, seg, nesting + 1, facts);
        if let Some(p) = facts.project.as_mut() {
            p.nesting -= 1;
        }
    }
}

#[cfg(test)]
mod tests;
