//! Commands generated from a described row (SPEC §4.5 item 5, issue 41
//! item 3), deterministically: the same row gives the same commands, so
//! a run is reproducible with nothing frozen.
//!
//! From the row's typed grammar alone (`grammar = "getopt"` or `"make"`, GNU
//! getopt_long as `facts::described::{long, short}` read it): each option
//! in each spelling the row accepts — short, long, the shortest unique
//! prefix of a long one and a longer one, `--opt=v` and `--opt v`, `-ov`
//! and `-o v` — with a value of its kind; clusters of flags ending in a
//! valued short option; operands by the row's `operands` kinds; and the
//! spellings the row refuses: every ambiguous prefix, a valued option
//! given no value, a flag given one, `--no-such-option`, and (the full
//! run) every letter and digit and every `--x` the row has no option
//! for.

use permc_shell::facts::continuations::mutating_from;
use permc_shell::facts::described::{
    getopt, long, walk, Described, Kind, ARGPARSE, CURL, EXACT, GIT, GIT_REVISIONS, GO, NOPT_EXEC,
};
use permc_shell::reader::Known;
use std::borrow::Cow;
use std::collections::HashSet;

mod appended;
mod go;
mod ssh;
mod vim;

/// What the real program must do with a command's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expect {
    /// Read every option as the row does: refuse none.
    Accepted,
    /// Refuse a prefix of several options (`--r` of sort).
    Ambiguous,
    /// Refuse an option it does not have.
    Unknown,
    /// Refuse a valued option given no value.
    NeedsValue,
    /// Refuse a value given to a long option without one.
    NoValue,
}

impl Expect {
    /// How the row reads the command, for a violation.
    pub fn says(self) -> &'static str {
        match self {
            Expect::Accepted => "accepts every option of it",
            Expect::Ambiguous => "refuses it as an ambiguous prefix",
            Expect::Unknown => "has no such option",
            Expect::NeedsValue => "says the option takes a value",
            Expect::NoValue => "says the option takes no value",
        }
    }
}

/// One generated command.
#[derive(Debug, Clone)]
pub struct Case {
    /// The argv: the row's program words, options, operands.
    pub words: Vec<String>,
    /// What the row says the real program does with its options.
    pub expect: Expect,
    /// Each value and operand with the kind the row gives it.
    pub values: Vec<(Kind, String)>,
    /// In the default tier (`PERMC_ORACLE_FULL=1` runs every case).
    pub ci: bool,
    /// A mutating continuation (SPEC §6.5: `git branch -d`, `git config
    /// K V`, catalogue/continuations.rs) that the row's walk does not
    /// flag: what it does is the continuation row's, which an entry must
    /// name; only its spelling, and that it neither writes nor opens a
    /// `text` value (a row typing `sort -o` text is caught), are judged.
    pub continuation: bool,
}

/// The values a word of each kind takes (SPEC §4.5 item 5): a `text`
/// word names an existing file, so a program that opens it is caught —
/// an untracked one, which git's index refresh does not read on its own
/// (`git status` opens tracked files whose stat data changed);
/// `FRESH` is replaced by a name new in the project.
fn values(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Flag => &[],
        Kind::Text => &["untracked.txt"],
        Kind::PathRead => &[".git/config", "permissions.json", "-"],
        Kind::PathWrite => &[FRESH, "/tmp/x"],
        Kind::DirWrite => &["src", "/tmp"],
        Kind::Pathspec => &["src"],
        Kind::Command | Kind::Line => &[CANARY],
        Kind::Code => &["x"],
        Kind::Config => &["permissions.json"],
        Kind::Variable => &["PERMC_ORACLE_VARIABLE"],
        Kind::Remote => &["http://127.0.0.1:8080/"],
        Kind::Open => &["x"],
    }
}

const FRESH: &str = "<fresh>";

/// The fixture's canary for a `command` or `line` value (fixture.sh).
pub const CANARY: &str = "/srv/canary/command";

/// A kind by the name a row gives it (`path-read`).
fn kind_named(name: &str) -> Option<Kind> {
    Kind::NAMES
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(k, _)| *k)
}

/// The commands of a row, or why none are generated. Besides getopt:
/// `clap` (whole spellings only: every prefix is an unknown option) and
/// `nopt` (a node package manager's keys: it refuses no word, an
/// unknown key is set and handed to the scripts, so every case is
/// accepted and judged by its effects alone).
pub fn cases(row: &Described) -> Result<Vec<Case>, String> {
    if row.grammar == "find" {
        return Ok(find::cases(row));
    }
    if row.grammar == "ssh" {
        return Ok(ssh::cases(row));
    }
    if row.grammar == "vim" {
        return Ok(vim::cases(row));
    }
    if row.grammar == "dd" {
        return Ok(dd::cases(row));
    }
    if row.grammar == NOPT_EXEC {
        return Ok(appended::cases(row));
    }
    if row.grammar == GO {
        return Ok(go::cases(row));
    }
    if row.grammar == "leading-clusters" {
        return leading::cases(row);
    }
    if !(getopt(row)
        || matches!(
            row.grammar,
            "make" | "clap" | "clap2" | "popt" | "tar" | "nopt" | CURL | ARGPARSE
        )
        || gits(row))
    {
        return Err(format!("not generated: grammar {}", row.grammar));
    }
    let mut operands = Vec::new();
    for name in row.operands {
        let kind = kind_named(name).ok_or_else(|| format!("not generated: operand kind {name}"))?;
        operands.push(kind);
    }
    let mut g = Gen {
        row,
        operands,
        out: Vec::new(),
        seen: HashSet::new(),
        fresh: 0,
        ci: true,
        sampled: 0,
        leading: row.grammar == "getopt-leading",
        thin: false,
        lead: false,
        old_style: false,
    };
    g.operand_cases();
    g.given_operand_cases();
    g.count_word_cases();
    for (list, kind) in row.options() {
        // An argparse row's `open` options are a plugin's (pytest-cov's
        // `--cov`), not installed here: the program refuses them.
        if kind == Kind::Open && row.grammar == ARGPARSE {
            continue;
        }
        for entry in list {
            g.option(entry, kind);
        }
    }
    g.clusters();
    if row.grammar == "tar" {
        g.old_style();
    }
    if row.grammar == "nopt" {
        g.ci = true;
        g.push(&[("--no-such-option", None)], Expect::Accepted, true);
        return Ok(g.out);
    }
    // `git rev-parse` (`exact`) refuses no word: it prints one it does
    // not know as a flag (`--show-top`), so only what the row reads is
    // tried.
    if row.grammar != EXACT {
        g.ambiguous();
        g.negations();
        // An argparse row reads an option it lacks as a plugin's (open);
        // with no plugin installed the program refuses it.
        let unknown = if long(row, "--no-such-option").is_some() && row.grammar != ARGPARSE {
            Expect::Accepted
        } else {
            Expect::Unknown
        };
        g.ci = true;
        g.push(&[("--no-such-option", None)], unknown, true);
        g.hidden();
    }
    Ok(g.out)
}

/// Does the row's grammar read long options by a unique prefix (GNU
/// getopt_long, git's parse-options)?
fn abbreviates(row: &Described) -> bool {
    getopt(row) || matches!(row.grammar, "make" | "tar" | GIT | CURL)
}

/// A row of one of git's grammars (parse-options, setup_revisions,
/// rev-parse's whole words): hundreds of options, sampled thinner.
fn gits(row: &Described) -> bool {
    [GIT, GIT_REVISIONS, EXACT].contains(&row.grammar)
}

/// Is the command a mutating continuation the row's own walk does not
/// flag (SPEC §6.5)?
fn continuation(row: &Described, argv: &[String]) -> bool {
    let words: Vec<Cow<str>> = argv.iter().map(|w| Cow::Borrowed(w.as_str())).collect();
    let known = vec![Known::Exact; words.len()];
    let Some(at) = mutating_from(&words, &known) else {
        return false;
    };
    walk(row, &words, &known, row.program.len(), false).first() != Some(at)
}

/// A word of a case: its text and, for a value or an operand, its kind
/// and the value (the word's tail when attached: `-ov`, `--opt=v`).
type Word<'a> = (&'a str, Option<(Kind, &'a str)>);

struct Gen<'r> {
    row: &'r Described,
    operands: Vec<Kind>,
    out: Vec<Case>,
    seen: HashSet<Vec<String>>,
    fresh: usize,
    /// Whether the next cases are in the default tier.
    ci: bool,
    /// The cases past a first spelling so far: every fourth is in the
    /// default tier.
    sampled: usize,
    /// Options only before the first operand (`getopt-leading`): a case
    /// that puts them after the operands gives none.
    leading: bool,
    /// A row of git's (hundreds of options, three rows sharing them):
    /// in the default tier, an option's first case, then an eighth of
    /// the others of its first spelling too.
    thin: bool,
    /// The next case is the first of an option.
    lead: bool,
    /// The next cases are tar's old style: their first word is one.
    old_style: bool,
}

impl Gen<'_> {
    /// A case of the program's words, `options`, then the default
    /// operands (after the options, or before them with `after`).
    fn push(&mut self, options: &[Word], expect: Expect, before_operands: bool) {
        // setup_revisions and rev-parse refuse an option after a path
        // (`git log src -E`: "must come before non-option arguments")
        // and read one after a revision (`git log HEAD -E`); the row
        // reads both, which only accepts a line git refuses: no case.
        let options_only_first = matches!(self.row.grammar, GIT_REVISIONS | EXACT);
        if options_only_first && !before_operands && expect == Expect::Accepted {
            return;
        }
        // Where options end at the first operand (`git config`), an
        // option after the operands is one: it goes alone.
        let operands: &[Kind] = if self.row.options_first && !before_operands {
            &[]
        } else {
            &self.operands
        };
        let defaults: Vec<(Kind, &str)> = operands.iter().map(|k| (*k, values(*k)[0])).collect();
        let ops: Vec<Word> = defaults.iter().map(|(k, v)| (*v, Some((*k, *v)))).collect();
        let all: Vec<Word> = if !before_operands && self.leading {
            options.to_vec()
        } else if before_operands {
            options.iter().chain(&ops).copied().collect()
        } else {
            ops.iter().chain(options).copied().collect()
        };
        self.add(&all, expect);
    }

    /// A case of exactly these words after the program's.
    fn add(&mut self, words: &[Word], expect: Expect) {
        let mut argv: Vec<String> = self.row.program.iter().map(|w| w.to_string()).collect();
        // tar reads a first word without a dash as old-style options: a
        // case that begins with an operand leads with `-v`.
        let first_bare = words.first().is_some_and(|(w, _)| !w.starts_with('-'));
        if self.row.grammar == "tar" && !self.old_style && first_bare {
            argv.push("-v".to_string());
        }
        let mut vals = Vec::new();
        // One new name a case: its every `FRESH` is that name.
        let fresh = format!("oracle-new-{}", self.fresh + 1);
        let mut used = false;
        for (text, value) in words {
            used |= text.contains(FRESH);
            if let Some((k, v)) = value {
                vals.push((*k, v.replace(FRESH, &fresh)));
            }
            argv.push(text.replace(FRESH, &fresh));
        }
        self.fresh += usize::from(used);
        // nopt refuses nothing: a key without its value takes none, a
        // boolean's value is a word of its own.
        let expect = if self.row.grammar == "nopt" {
            Expect::Accepted
        } else {
            expect
        };
        if self.seen.insert(argv.clone()) {
            // In the default tier an option's first case, then a
            // deterministic eighth of the rest (a row's every case ran when
            // it was blessed, `PERMC_ORACLE_FULL`; the default tier checks
            // that the program installed still reads the row so, within
            // the suite's time over a hundred rows).
            let first = self.ci && (!self.thin || self.lead);
            let every = 8;
            let ci = first || self.sampled.is_multiple_of(every);
            self.sampled += usize::from(!first);
            self.lead = false;
            let continuation = continuation(self.row, &argv);
            self.out.push(Case {
                words: argv,
                expect,
                values: vals,
                ci,
                continuation,
            });
        }
    }

    /// Each operand position with each value of its kind, and the last
    /// repeated.
    fn operand_cases(&mut self) {
        self.ci = true;
        self.push(&[], Expect::Accepted, true);
        let defaults: Vec<&str> = self.operands.iter().map(|k| values(*k)[0]).collect();
        for (i, kind) in self.operands.clone().into_iter().enumerate() {
            for v in values(kind).iter().skip(1) {
                let words: Vec<Word> = self
                    .operands
                    .iter()
                    .zip(&defaults)
                    .enumerate()
                    .map(|(j, (k, d))| {
                        let w = if i == j { *v } else { *d };
                        (w, Some((*k, w)))
                    })
                    .collect();
                self.add(&words, Expect::Accepted);
            }
        }
        if let Some(last) = self.operands.last().copied() {
            let mut words: Vec<Word> = self
                .operands
                .iter()
                .zip(&defaults)
                .map(|(k, d)| (*d, Some((*k, *d))))
                .collect();
            for v in values(last).iter().skip(1).take(1) {
                words.push((v, Some((last, v))));
            }
            self.add(&words, Expect::Accepted);
        }
    }

    /// A row whose first operand is `text` unless an option gives it
    /// (`operand-given-by`: grep's pattern, sed's script): that operand
    /// names a file the program must not open — alone before the default
    /// operands, and (the full tier) after each option the row has that
    /// is none of those, in its first spelling with a value of its kind,
    /// so an option that gives it (grep's `-e`, rg's `--files`) left out
    /// of the row is caught opening the file.
    fn given_operand_cases(&mut self) {
        if self.row.operand_given_by.is_empty() {
            return;
        }
        let text = values(Kind::Text)[0];
        let defaults: Vec<(Kind, &str)> =
            self.operands.iter().map(|k| (*k, values(*k)[0])).collect();
        let mut words: Vec<Word> = vec![(text, Some((Kind::Text, text)))];
        words.extend(defaults.iter().map(|(k, v)| (*v, Some((*k, *v)))));
        self.ci = true;
        self.add(&words, Expect::Accepted);
        let row = self.row;
        let gives = |spelling: &str| {
            row.operand_given_by
                .iter()
                .any(|e| e.split(' ').any(|s| s == spelling))
        };
        for (list, kind) in row.options() {
            for first in list.iter().filter_map(|e| e.split(' ').next()) {
                if gives(first) {
                    continue;
                }
                let v = values(kind).first().copied().unwrap_or("");
                let spelled: Vec<String> = match first.strip_suffix("[=]") {
                    _ if kind == Kind::Flag => vec![first.to_string()],
                    Some(name) if name.starts_with("--") => vec![format!("{name}={v}")],
                    Some(name) => vec![format!("{name}{v}")],
                    None => vec![first.to_string(), v.to_string()],
                };
                let mut with: Vec<Word> = Vec::new();
                for (j, w) in spelled.iter().enumerate() {
                    let value = (kind != Kind::Flag && j + 1 == spelled.len()).then_some((kind, v));
                    with.push((w.as_str(), value));
                }
                with.extend(words.iter().copied());
                self.ci = false;
                self.add(&with, Expect::Accepted);
            }
        }
    }

    /// A row's count word (`count-word`: `head -20`): accepted as the
    /// first word, alone and with each of its letters, before the default
    /// operands; refused after an operand (getopt reads it as an option
    /// the program lacks).
    fn count_word_cases(&mut self) {
        if self.row.count_word.is_empty() {
            return;
        }
        let defaults: Vec<(Kind, &str)> =
            self.operands.iter().map(|k| (*k, values(*k)[0])).collect();
        let counts: Vec<String> = std::iter::once("-3".to_string())
            .chain(self.row.count_word.chars().map(|c| format!("-3{c}")))
            .collect();
        for (n, count) in counts.iter().enumerate() {
            let mut words: Vec<Word> = vec![(count.as_str(), Some((Kind::Text, count.as_str())))];
            words.extend(defaults.iter().map(|(k, v)| (*v, Some((*k, *v)))));
            self.ci = n == 0;
            self.add(&words, Expect::Accepted);
        }
        let mut after: Vec<Word> = defaults.iter().map(|(k, v)| (*v, Some((*k, *v)))).collect();
        after.push(("-3", None));
        self.ci = true;
        self.add(&after, Expect::Unknown);
    }

    /// One option entry (`-o --output`) of `kind`, in every spelling.
    fn option(&mut self, entry: &str, kind: Kind) {
        self.thin = true;
        self.lead = true;
        for (n, spelling) in entry.split(' ').enumerate() {
            // The default tier: every option in its first spelling, and
            // every fourth case of its other spellings (`add`).
            self.ci = n == 0;
            if spelling.starts_with("--") {
                self.long_option(spelling, kind);
            } else {
                self.short_option(spelling, kind);
            }
        }
        // Alone, without operands: some options act only then (`wc
        // --files0-from=F` refuses file operands with it).
        let first = entry.split(' ').next().unwrap_or(entry);
        if kind != Kind::Flag && !self.operands.is_empty() {
            // In the default tier its first value, then an eighth of the
            // rest (over 2,000 options in the rows).
            self.ci = true;
            self.lead = true;
            for v in values(kind) {
                let optional = first.ends_with("[=]");
                let name = first.trim_end_matches("[=]");
                if first.starts_with("--") {
                    let attached = format!("{name}={v}");
                    if let Some(expect) = self.attached_expect(name) {
                        self.add(&[(&attached, Some((kind, v)))], expect);
                    }
                } else if optional {
                    let attached = format!("{name}{v}");
                    self.add(&[(&attached, Some((kind, v)))], Expect::Accepted);
                } else if let Some(s) = first.strip_suffix("[=]") {
                    let attached = format!("{s}{v}");
                    self.add(&[(&attached, Some((kind, v)))], Expect::Accepted);
                } else {
                    self.add(&[(first, None), (v, Some((kind, v)))], Expect::Accepted);
                }
            }
        }
        self.thin = false;
    }

    fn short_option(&mut self, s: &str, kind: Kind) {
        // An optional value (git's `-u[=]`): only ever attached.
        if let Some(s) = s.strip_suffix("[=]") {
            for v in values(kind) {
                let attached = format!("{s}{v}");
                self.push(&[(&attached, Some((kind, v)))], Expect::Accepted, true);
            }
            self.push(&[(s, None)], Expect::Accepted, true);
            self.push(&[(s, None)], Expect::Accepted, false);
            return;
        }
        if kind == Kind::Flag {
            self.push(&[(s, None)], Expect::Accepted, true);
            // After the operands, last: a flag the program reads with a
            // value would take none and refuse.
            self.push(&[(s, None)], Expect::Accepted, false);
            return;
        }
        for v in values(kind) {
            let attached = format!("{s}{v}");
            self.push(&[(&attached, Some((kind, v)))], Expect::Accepted, true);
            self.push(&[(s, None), (v, Some((kind, v)))], Expect::Accepted, true);
        }
        self.push(&[(s, None)], Expect::NeedsValue, false);
    }

    fn long_option(&mut self, spelling: &str, kind: Kind) {
        let (name, optional) = spelling
            .strip_suffix("[=]")
            .map_or((spelling, false), |n| (n, true));
        self.long_forms(name, kind, optional, values(kind));
        let ci = self.ci;
        for p in self.prefixes(name) {
            self.long_forms(
                &p,
                kind,
                optional,
                &values(kind)[..values(kind).len().min(1)],
            );
            self.ci = ci;
        }
    }

    /// `--opt`, `--opt=v`, `--opt v` as the option's kind allows, and the
    /// forms the row refuses: a flag with a value, a valued option without.
    fn long_forms(&mut self, name: &str, kind: Kind, optional: bool, vals: &[&str]) {
        if kind == Kind::Flag {
            self.push(&[(name, None)], Expect::Accepted, true);
            // `git rev-parse` prints a word it does not know (`--all=x`).
            if self.row.grammar == EXACT {
                return;
            }
            // A flag's optional value (`--classify[=]`) is data, never a
            // file: typed `text` here.
            let v = values(Kind::Text)[0];
            let with = format!("{name}={v}");
            // clap 2 ignores a flag's value (`rg --count=x`).
            let (value, expect) = if optional || self.row.grammar == "clap2" {
                (Some((Kind::Text, v)), Expect::Accepted)
            } else if self.row.grammar == CURL {
                // curl reads the whole word as the name: no such option.
                (None, Expect::Unknown)
            } else {
                (None, Expect::NoValue)
            };
            self.push(&[(&with, value)], expect, true);
            return;
        }
        for v in vals {
            let attached = format!("{name}={v}");
            if let Some(expect) = self.attached_expect(name) {
                self.push(&[(&attached, Some((kind, v)))], expect, true);
            }
            if !optional {
                self.push(
                    &[(name, None), (v, Some((kind, v)))],
                    Expect::Accepted,
                    true,
                );
            }
        }
        // PARSE_OPT_LASTARG_DEFAULT: the option's value is optional when
        // it is the last word (`git branch --merged`), by a prefix too.
        let last_default = self
            .row
            .last_arg_default
            .iter()
            .any(|s| s.starts_with(name));
        let bare = if optional || last_default {
            Expect::Accepted
        } else {
            Expect::NeedsValue
        };
        self.push(&[(name, None)], bare, false);
    }

    /// The shortest prefix of a long spelling the row reads as that
    /// option, and one between it and the whole spelling.
    fn prefixes(&self, name: &str) -> Vec<String> {
        let exact = |p: &str| {
            self.row.options().iter().any(|(list, _)| {
                list.iter()
                    .flat_map(|e| e.split(' '))
                    .any(|s| s.trim_end_matches("[=]") == p)
            })
        };
        let Some(shortest) =
            (3..name.len()).find(|&n| long(self.row, &name[..n]).is_some() && !exact(&name[..n]))
        else {
            return Vec::new();
        };
        let longer = (shortest + name.len()) / 2;
        let mut out = vec![name[..shortest].to_string()];
        if longer > shortest && longer < name.len() && !exact(&name[..longer]) {
            out.push(name[..longer].to_string());
        }
        out
    }

    /// Clusters of two flags ending in each valued short option, its
    /// value next (`-abo v`) and attached (`-aov`).
    fn clusters(&mut self) {
        // setup_revisions and rev-parse read a short option alone (`git
        // log -qE` is refused, diff's own `-pz` is read): the rows read
        // clusters, which only accepts a line git refuses.
        if !abbreviates(self.row) {
            return;
        }
        let flags: Vec<char> = self
            .row
            .flags
            .iter()
            .filter(|e| !e.contains("--help") && !e.contains("--version"))
            // git's `-h` is its usage only alone (`git diff -hE` is
            // refused).
            .filter(|e| !gits(self.row) || **e != "-h")
            .filter_map(|e| e.split(' ').find_map(short_letter))
            .filter(char::is_ascii_alphabetic)
            .take(2)
            .collect();
        if flags.is_empty() {
            return;
        }
        let lead: String = flags.iter().collect();
        for (list, kind) in self.row.options() {
            if kind == Kind::Flag {
                continue;
            }
            for s in list.iter().flat_map(|e| e.split(' ')) {
                let Some(c) = short_letter(s) else { continue };
                let v = values(kind)[0];
                self.ci = true;
                let next = format!("-{lead}{c}");
                // An optional value is only ever attached.
                if !s.ends_with("[=]") {
                    self.push(
                        &[(&next, None), (v, Some((kind, v)))],
                        Expect::Accepted,
                        true,
                    );
                }
                let attached = format!("-{}{c}{v}", flags[0]);
                self.push(&[(&attached, Some((kind, v)))], Expect::Accepted, true);
            }
        }
    }

    /// The options `--help` does not list: every letter and digit the row
    /// has no short option for, and every `--x` no long spelling of the
    /// row begins with, must be refused — after the operands, where only
    /// getopt's options are read (`head -5 F` is an obsolete form of
    /// the first argument alone, which the row leaves unplaced: it only
    /// tightens). The full run only.
    fn hidden(&mut self) {
        self.ci = false;
        let longs: Vec<&str> = self
            .row
            .options()
            .iter()
            .flat_map(|(list, _)| list.iter().flat_map(|e| e.split(' ')))
            .filter(|s| s.starts_with("--"))
            .collect();
        let shorts: Vec<char> = self
            .row
            .options()
            .iter()
            .flat_map(|(list, _)| list.iter().flat_map(|e| e.split(' ')))
            .filter_map(short_letter)
            .collect();
        for c in ('a'..='z').chain('A'..='Z').chain('0'..='9') {
            if !shorts.contains(&c) {
                self.sampled = 1;
                self.push(&[(&format!("-{c}"), None)], Expect::Unknown, false);
            }
            let prefix = format!("--{c}");
            // Not a prefix the row reads (git's `--r` of `--no-renames`).
            let none =
                !longs.iter().any(|l| l.starts_with(&prefix)) && long(self.row, &prefix).is_none();
            if c.is_ascii_lowercase() && none {
                self.sampled = 1;
                self.push(&[(&prefix, None)], Expect::Unknown, false);
            }
        }
    }

    /// Every prefix of a long spelling the row refuses as ambiguous; in a
    /// grammar without prefixes (setup_revisions: `git log --outp`), each
    /// spelling less its last letter, refused.
    fn ambiguous(&mut self) {
        if !abbreviates(self.row) {
            return self.no_prefixes();
        }
        let mut names: Vec<&str> = self
            .row
            .options()
            .iter()
            .flat_map(|(list, _)| list.iter().flat_map(|e| e.split(' ')))
            .filter(|s| s.starts_with("--"))
            .map(|s| s.trim_end_matches("[=]"))
            .collect();
        names.sort_unstable();
        let mut done = HashSet::new();
        for name in names {
            for n in 3..name.len() {
                let p = &name[..n];
                if long(self.row, p).is_none() && done.insert(p.to_string()) {
                    // The default tier: the shortest of each family, and
                    // a quarter of the others. clap knows no prefixes.
                    self.ci = n == 3;
                    let expect = if matches!(self.row.grammar, "clap" | "clap2") {
                        Expect::Unknown
                    } else {
                        Expect::Ambiguous
                    };
                    self.push(&[(p, None)], expect, true);
                }
            }
        }
    }
}

impl Gen<'_> {
    /// A grammar without prefixes: each long spelling less its last
    /// letter must be refused (a deterministic eighth in the default
    /// tier).
    fn no_prefixes(&mut self) {
        // git 2.39.5 reads diff's and log's negations by a prefix too
        // (parse-options' "abbreviated and negated" path ignores
        // KEEP_UNKNOWN_OPT: `git log --no-follo`); the row does not,
        // which only tightens.
        for name in self.longs().into_iter().filter(|n| !n.starts_with("--no-")) {
            let p = &name[..name.len() - 1];
            if p.len() > 2 && long(self.row, p).is_none() {
                self.ci = false;
                self.push(&[(p, None)], Expect::Unknown, true);
            }
        }
    }

    /// git's negations (parse-options, SPEC §4.5 item 1): `--no-NAME` of
    /// each long option, `--NAME` of an option named `--no-NAME`, each
    /// expected as the row reads it — accepted where the `git` grammar
    /// derives it, or a `git-revisions` row lists it; else refused.
    fn negations(&mut self) {
        if !matches!(self.row.grammar, GIT | GIT_REVISIONS | CURL) {
            return;
        }
        for name in self.longs() {
            let flipped = match name.strip_prefix("--no-") {
                Some(n) => format!("--{n}"),
                None => format!("--no-{}", &name[2..]),
            };
            let listed = self.longs().iter().any(|l| *l == flipped);
            if listed {
                continue;
            }
            let expect = if long(self.row, &flipped).is_some() {
                Expect::Accepted
            } else {
                Expect::Unknown
            };
            // The default tier: a deterministic eighth.
            self.ci = false;
            self.push(&[(&flipped, None)], expect, true);
        }
    }

    /// What the program does with `--NAME=V`: reads it, unless the row
    /// says the value is only ever the next word — then it refuses it,
    /// or, `git rev-parse`, prints it (no case).
    fn attached_expect(&self, name: &str) -> Option<Expect> {
        // curl reads `--NAME=V` whole as a name: no such option.
        if self.row.grammar == CURL {
            return Some(Expect::Unknown);
        }
        if !self.row.next_only.contains(&name) {
            Some(Expect::Accepted)
        } else {
            (self.row.grammar != EXACT).then_some(Expect::Unknown)
        }
    }

    /// tar's old style: each short option as the first word without its
    /// dash, its value the next word, alone and after `tv` (`tar tvf F`).
    fn old_style(&mut self) {
        self.old_style = true;
        for (list, kind) in self.row.options() {
            for c in list
                .iter()
                .flat_map(|e| e.split(' '))
                .filter_map(short_letter)
            {
                for lead in ["", "tv"] {
                    // The default tier: the letter alone; an eighth after `tv`.
                    self.ci = lead.is_empty();
                    let word = format!("{lead}{c}");
                    match values(kind).first() {
                        Some(v) => self.push(
                            &[(&word, None), (v, Some((kind, v)))],
                            Expect::Accepted,
                            true,
                        ),
                        None => self.push(&[(&word, None)], Expect::Accepted, true),
                    }
                }
            }
        }
        self.old_style = false;
    }

    /// The row's long spellings, without `[=]`.
    fn longs(&self) -> Vec<&'static str> {
        self.row
            .options()
            .iter()
            .flat_map(|(list, _)| list.iter().flat_map(|e| e.split(' ')))
            .filter(|s| s.starts_with("--"))
            .map(|s| s.trim_end_matches("[=]"))
            .collect()
    }
}

/// The letter of a short spelling (`-o`).
fn short_letter(s: &str) -> Option<char> {
    let mut c = s.trim_end_matches("[=]").chars();
    match (c.next(), c.next(), c.next()) {
        (Some('-'), Some(l), None) if l != '-' => Some(l),
        _ => None,
    }
}

/// Commands for a row of the `find` grammar: each leading option, then
/// each primary after the start path `.` with values of its kind (a
/// `command` primary's run ended by `;` and by `{} +`), without its value
/// (refused), and an unknown primary (refused).
mod find {
    use super::{values, Case, Expect, CANARY, FRESH};
    use permc_shell::facts::described::{Described, Kind};

    pub fn cases(row: &Described) -> Vec<Case> {
        let mut out = Vec::new();
        let mut fresh = 0;
        let mut add = |words: Vec<(String, Option<Kind>)>, expect: Expect, ci: bool| {
            let name = format!("oracle-new-find-{fresh}");
            fresh += 1;
            let mut argv = vec![row.program[0].to_string()];
            let mut vals = Vec::new();
            for (w, k) in words {
                let w = w.replace(FRESH, &name);
                if let Some(k) = k {
                    vals.push((k, w.clone()));
                }
                argv.push(w);
            }
            out.push(Case {
                continuation: super::continuation(row, &argv),
                words: argv,
                expect,
                values: vals,
                ci,
            });
        };
        let start = |w: &str| (w.to_string(), Some(Kind::PathRead));
        let plain = |w: &str| (w.to_string(), None);
        for v in values(Kind::PathRead) {
            add(vec![start(v)], Expect::Accepted, true);
        }
        for (list, kind) in row.options() {
            for entry in list {
                let leading = entry
                    .split(' ')
                    .all(|s| s.trim_end_matches("[=]").len() == 2);
                for (n, s) in entry.split(' ').enumerate() {
                    let ci = n == 0;
                    if leading {
                        let words = match (kind, s.strip_suffix("[=]")) {
                            (Kind::Flag, _) => vec![plain(s), start(".")],
                            (_, Some(o)) => vec![plain(&format!("{o}3")), start(".")],
                            _ => vec![plain(s), plain("help"), start(".")],
                        };
                        add(words, Expect::Accepted, ci);
                        continue;
                    }
                    primary(&mut add, s, kind, ci);
                }
            }
        }
        add(
            vec![start("."), plain("-no-such-primary")],
            Expect::Unknown,
            true,
        );
        out
    }

    /// The cases of one primary's spelling.
    fn primary(
        add: &mut impl FnMut(Vec<(String, Option<Kind>)>, Expect, bool),
        s: &str,
        kind: Kind,
        ci: bool,
    ) {
        let start = |w: &str| (w.to_string(), Some(Kind::PathRead));
        let plain = |w: &str| (w.to_string(), None);
        let value = |w: &str, k: Kind| (w.to_string(), Some(k));
        if let Some(p) = s.strip_suffix("[0]") {
            // What it matches is written: a tree of the fixture's own.
            add(
                vec![value("src", Kind::DirWrite), plain(p)],
                Expect::Accepted,
                ci,
            );
            return;
        }
        if let Some(p) = s.strip_suffix("[2]") {
            for v in values(kind) {
                let text = values(Kind::Text)[0];
                add(
                    vec![
                        start("."),
                        plain(p),
                        value(v, kind),
                        value(text, Kind::Text),
                    ],
                    Expect::Accepted,
                    ci,
                );
            }
            add(vec![start("."), plain(p)], Expect::NeedsValue, ci);
            return;
        }
        match kind {
            Kind::Flag => add(vec![start("."), plain(s)], Expect::Accepted, ci),
            Kind::Command => {
                let (p, plus) = s
                    .strip_suffix("[;]")
                    .map_or((s, Expect::Accepted), |p| (p, Expect::NeedsValue));
                let run = value(CANARY, Kind::Command);
                add(
                    vec![start("."), plain(p), run.clone(), plain(";")],
                    Expect::Accepted,
                    ci,
                );
                // `{} +` ends only an `-exec`'s run: `-ok` is left
                // without its `;`.
                add(
                    vec![start("."), plain(p), run, plain("{}"), plain("+")],
                    plus,
                    ci,
                );
                add(vec![start("."), plain(p)], Expect::NeedsValue, ci);
            }
            _ => {
                for v in values(kind) {
                    add(
                        vec![start("."), plain(s), value(v, kind)],
                        Expect::Accepted,
                        ci,
                    );
                }
                add(vec![start("."), plain(s)], Expect::NeedsValue, ci);
            }
        }
    }
}

/// Commands for a row of the `dd` grammar: each long option whole and by
/// a prefix, each `KEY=` operand with each value of its kind, and the
/// words dd refuses: a key it lacks, a word without `=`, an unknown
/// option.
mod dd {
    use super::{values, Case, Expect, FRESH};
    use permc_shell::facts::described::{Described, Kind};

    pub fn cases(row: &Described) -> Vec<Case> {
        let mut out = Vec::new();
        let mut fresh = 0;
        let mut add = |words: Vec<(String, Option<Kind>)>, expect: Expect| {
            let name = format!("oracle-new-dd-{fresh}");
            fresh += 1;
            let mut argv = vec![row.program[0].to_string()];
            let mut vals = Vec::new();
            for (w, k) in words {
                let w = w.replace(FRESH, &name);
                if let Some(k) = k {
                    let v = w.split_once('=').map_or(w.as_str(), |(_, v)| v);
                    vals.push((k, v.to_string()));
                }
                argv.push(w);
            }
            out.push(Case {
                continuation: super::continuation(row, &argv),
                words: argv,
                expect,
                values: vals,
                ci: true,
            });
        };
        let plain = |w: &str| (w.to_string(), None);
        for (list, kind) in row.options() {
            for entry in list {
                for s in entry.split(' ') {
                    if kind == Kind::Flag {
                        add(vec![plain(s)], Expect::Accepted);
                        add(vec![plain(&s[..4])], Expect::Accepted);
                        continue;
                    }
                    for v in values(kind) {
                        add(vec![(format!("{s}{v}"), Some(kind))], Expect::Accepted);
                    }
                }
            }
        }
        add(vec![plain("no-such-key=1")], Expect::Unknown);
        add(vec![plain("count")], Expect::Unknown);
        add(vec![plain("--no-such-option")], Expect::Unknown);
        add(vec![plain("-x")], Expect::Unknown);
        out
    }
}

/// `leading-clusters` (bash's `echo`): options are clusters of the row's
/// flag letters, read only as the first words; any other word — `--`,
/// `--help`, a letter the row lacks, a flag after an operand — is an
/// operand. The program refuses no word: every case is accepted and
/// judged by its effects (a `text` operand must not be opened).
mod leading {
    use super::{values, Case, Expect};
    use permc_shell::facts::described::Described;

    pub fn cases(row: &Described) -> Result<Vec<Case>, String> {
        if row.lists()[1..].iter().any(|l| !l.is_empty()) {
            return Err("not generated: leading-clusters with valued options".into());
        }
        let [operand] = row.operands else {
            return Err("not generated: leading-clusters without one operand kind".into());
        };
        let kind = super::kind_named(operand).ok_or("not generated: operand kind")?;
        let flags: Vec<&str> = row.flags.iter().flat_map(|e| e.split(' ')).collect();
        let mut out = Vec::new();
        let mut add = |words: &[&str], operands: &[&str]| {
            let mut argv = vec![row.program[0].to_string()];
            argv.extend(words.iter().map(|w| (*w).to_string()));
            let mut vals = Vec::new();
            for v in values(kind).iter().chain(operands) {
                argv.push((*v).to_string());
                vals.push((kind, (*v).to_string()));
            }
            out.push(Case {
                continuation: super::continuation(row, &argv),
                words: argv,
                expect: Expect::Accepted,
                values: vals,
                ci: true,
            });
        };
        add(&[], &[]);
        for f in &flags {
            add(&[f], &[]);
            add(&[], &[f]);
        }
        let cluster: String = flags.iter().map(|f| f.trim_start_matches('-')).collect();
        add(&[&format!("-{cluster}")], &[]);
        for w in ["--", "--help", "--version", "--no-such-option", "-x", "-"] {
            add(&[w], &[]);
        }
        Ok(out)
    }
}
