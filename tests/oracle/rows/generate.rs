//! Commands generated from a described row (SPEC §4.5 item 5, issue 41
//! item 3), deterministically: the same row gives the same commands, so
//! a run is reproducible with nothing frozen.
//!
//! From the row's typed grammar alone (`grammar = "getopt"`, GNU
//! getopt_long as `facts::described::{long, short}` read it): each option
//! in each spelling the row accepts — short, long, the shortest unique
//! prefix of a long one and a longer one, `--opt=v` and `--opt v`, `-ov`
//! and `-o v` — with a value of its kind; clusters of flags ending in a
//! valued short option; operands by the row's `operands` kinds; and the
//! spellings the row refuses: every ambiguous prefix, a valued option
//! given no value, a flag given one, `--no-such-option`, and (the full
//! run) every letter and digit and every `--x` the row has no option
//! for.

use permc_shell::facts::described::{long, Described, Kind};
use std::collections::HashSet;

/// What the real program must do with a command's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

/// The values a word of each kind takes (SPEC §4.5 item 5): a `text`
/// word names an existing file, so a program that opens it is caught;
/// `FRESH` is replaced by a name new in the project.
fn values(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Flag => &[],
        Kind::Text => &["permissions.json"],
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
    if !matches!(row.grammar, "getopt" | "clap" | "nopt") {
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
    };
    g.operand_cases();
    for (list, kind) in row.options() {
        for entry in list {
            g.option(entry, kind);
        }
    }
    g.clusters();
    if row.grammar == "nopt" {
        g.ci = true;
        g.push(&[("--no-such-option", None)], Expect::Accepted, true);
        return Ok(g.out);
    }
    g.ambiguous();
    let unknown = if long(row, "--no-such-option").is_some() {
        Expect::Accepted
    } else {
        Expect::Unknown
    };
    g.ci = true;
    g.push(&[("--no-such-option", None)], unknown, true);
    g.hidden();
    Ok(g.out)
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
}

impl Gen<'_> {
    /// A case of the program's words, `options`, then the default
    /// operands (after the options, or before them with `after`).
    fn push(&mut self, options: &[Word], expect: Expect, before_operands: bool) {
        let defaults: Vec<(Kind, &str)> =
            self.operands.iter().map(|k| (*k, values(*k)[0])).collect();
        let ops: Vec<Word> = defaults.iter().map(|(k, v)| (*v, Some((*k, *v)))).collect();
        let all: Vec<Word> = if before_operands {
            options.iter().chain(&ops).copied().collect()
        } else {
            ops.iter().chain(options).copied().collect()
        };
        self.add(&all, expect);
    }

    /// A case of exactly these words after the program's.
    fn add(&mut self, words: &[Word], expect: Expect) {
        let mut argv: Vec<String> = self.row.program.iter().map(|w| w.to_string()).collect();
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
            // Past an option's first spelling, a deterministic quarter.
            let ci = self.ci || self.sampled.is_multiple_of(4);
            self.sampled += usize::from(!self.ci);
            self.out.push(Case {
                words: argv,
                expect,
                values: vals,
                ci,
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

    /// One option entry (`-o --output`) of `kind`, in every spelling.
    fn option(&mut self, entry: &str, kind: Kind) {
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
            self.ci = true;
            for v in values(kind) {
                if first.starts_with("--") {
                    let attached = format!("{}={v}", first.trim_end_matches("[=]"));
                    self.add(&[(&attached, Some((kind, v)))], Expect::Accepted);
                } else {
                    self.add(&[(first, None), (v, Some((kind, v)))], Expect::Accepted);
                }
            }
        }
    }

    fn short_option(&mut self, s: &str, kind: Kind) {
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
            // A flag's optional value (`--classify[=]`) is data, never a
            // file: typed `text` here.
            let v = values(Kind::Text)[0];
            let with = format!("{name}={v}");
            let (value, expect) = if optional {
                (Some((Kind::Text, v)), Expect::Accepted)
            } else {
                (None, Expect::NoValue)
            };
            self.push(&[(&with, value)], expect, true);
            return;
        }
        for v in vals {
            let attached = format!("{name}={v}");
            self.push(&[(&attached, Some((kind, v)))], Expect::Accepted, true);
            if !optional {
                self.push(
                    &[(name, None), (v, Some((kind, v)))],
                    Expect::Accepted,
                    true,
                );
            }
        }
        let bare = if optional {
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
        let flags: Vec<char> = self
            .row
            .flags
            .iter()
            .filter(|e| !e.contains("--help") && !e.contains("--version"))
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
            for c in list
                .iter()
                .flat_map(|e| e.split(' '))
                .filter_map(short_letter)
            {
                let v = values(kind)[0];
                self.ci = true;
                let next = format!("-{lead}{c}");
                self.push(
                    &[(&next, None), (v, Some((kind, v)))],
                    Expect::Accepted,
                    true,
                );
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
            if c.is_ascii_lowercase() && !longs.iter().any(|l| l.starts_with(&prefix)) {
                self.sampled = 1;
                self.push(&[(&prefix, None)], Expect::Unknown, false);
            }
        }
    }

    /// Every prefix of a long spelling the row refuses as ambiguous.
    fn ambiguous(&mut self) {
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
                    let expect = if self.row.grammar == "clap" {
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

/// The letter of a short spelling (`-o`).
fn short_letter(s: &str) -> Option<char> {
    let mut c = s.chars();
    match (c.next(), c.next(), c.next()) {
        (Some('-'), Some(l), None) if l != '-' => Some(l),
        _ => None,
    }
}
