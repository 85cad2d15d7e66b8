//! Commands for a row of the `ssh` grammar (OpenSSH's command line,
//! `facts::described::ssh`): each option before the destination and
//! after it, its value attached and in the next word, with `-G` (ssh
//! prints the configuration it would use and contacts nothing) and, for
//! an option whose value runs, loads, reads or names a host, without it:
//! ssh then resolves the destination, the loopback address, and tries
//! port 22, where nothing listens in the sandbox (a declared endpoint),
//! so what runs before it connects is seen (a ProxyCommand, a jump
//! host's `ssh -W`). Each `-o` key in the row's case and in another, as
//! `KEY=VALUE` and `KEY VALUE`; an unknown key, each letter the row
//! lacks (the full run), a valued option without its value and the
//! command line after the destination.

use super::{continuation, values, Case, Expect, CANARY, FRESH};
use permc_shell::facts::described::{Described, Kind};

/// The destination: the loopback address, refused on port 22.
const HOST: &str = "127.0.0.1";

/// A word of a case: its text and, for a value or an operand, its kind
/// and the value (the word's tail when attached: `-Fcfg`).
type Word = (String, Option<(Kind, String)>);

fn valued(w: String, kind: Kind, v: &str) -> Word {
    (w, Some((kind, v.to_string())))
}

fn plain(w: &str) -> Word {
    (w.to_string(), None)
}

fn host() -> Word {
    valued(HOST.to_string(), Kind::Remote, HOST)
}

/// The values a word of this kind takes here: a host for `remote`.
fn vals(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Remote => &[HOST],
        k => values(k),
    }
}

struct Gen<'r> {
    row: &'r Described,
    out: Vec<Case>,
    fresh: usize,
}

impl Gen<'_> {
    fn add(&mut self, words: Vec<Word>, expect: Expect, ci: bool) {
        self.fresh += 1;
        let name = format!("oracle-new-ssh-{}", self.fresh);
        let mut argv: Vec<String> = self.row.program.iter().map(|w| w.to_string()).collect();
        let mut values = Vec::new();
        for (w, k) in words {
            if let Some((k, v)) = k {
                values.push((k, v.replace(FRESH, &name)));
            }
            argv.push(w.replace(FRESH, &name));
        }
        self.out.push(Case {
            continuation: continuation(self.row, &argv),
            words: argv,
            expect,
            values,
            ci,
        });
    }

    /// A letter's cases (`-p`, `-F`): with `-G` before and after the
    /// destination, attached and next; alone at the end (refused); and,
    /// where the value may act before a connection, without `-G`.
    fn letter(&mut self, s: &str, kind: Kind) {
        if kind == Kind::Flag {
            self.add(vec![plain("-G"), plain(s), host()], Expect::Accepted, true);
            self.add(vec![plain("-G"), host(), plain(s)], Expect::Accepted, false);
            return;
        }
        for (n, v) in vals(kind).iter().enumerate() {
            let value = valued(v.to_string(), kind, v);
            let attached = valued(format!("{s}{v}"), kind, v);
            let first = n == 0;
            self.add(vec![plain("-G"), attached, host()], Expect::Accepted, first);
            self.add(
                vec![plain("-G"), plain(s), value.clone(), host()],
                Expect::Accepted,
                false,
            );
            self.add(
                vec![plain("-G"), host(), plain(s), value.clone()],
                Expect::Accepted,
                first,
            );
            if acts(kind) {
                self.add(vec![plain(s), value, host()], Expect::Accepted, first);
            }
        }
        self.add(
            vec![plain("-G"), host(), plain(s)],
            Expect::NeedsValue,
            true,
        );
    }

    /// A key of `-o` (`-oport`): `-oKEY=V` and `-o 'Key V'` with `-G`,
    /// and without it where the value may act before a connection.
    fn key(&mut self, letter: &str, key: &str, kind: Kind) {
        let v = vals(kind)[0];
        let eq = valued(format!("{letter}{key}={v}"), kind, v);
        self.add(
            vec![plain("-G"), eq.clone(), host()],
            Expect::Accepted,
            true,
        );
        let mut upper = key.to_string();
        upper[..1].make_ascii_uppercase();
        let blank = valued(format!("{upper} {v}"), kind, v);
        self.add(
            vec![plain("-G"), plain(letter), blank, host()],
            Expect::Accepted,
            false,
        );
        if acts(kind) {
            self.add(vec![eq, host()], Expect::Accepted, true);
        }
    }
}

/// Does a value of this kind act before ssh connects (a program run, a
/// library loaded, a file read, a jump host)?
fn acts(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Command | Kind::Line | Kind::Code | Kind::Config | Kind::Remote | Kind::PathRead
    )
}

pub fn cases(row: &Described) -> Vec<Case> {
    let mut g = Gen {
        row,
        out: Vec::new(),
        fresh: 0,
    };
    let line = || valued(CANARY.to_string(), Kind::Line, CANARY);
    g.add(vec![plain("-V")], Expect::Accepted, true);
    g.add(vec![plain("-G"), host()], Expect::Accepted, true);
    g.add(vec![host()], Expect::Accepted, true);
    g.add(vec![host(), line()], Expect::Accepted, true);
    g.add(
        vec![plain("-G"), host(), line(), plain("-p")],
        Expect::Accepted,
        true,
    );
    // After `--`, the words after the destination are the command.
    g.add(
        vec![plain("-G"), plain("--"), host(), plain("-Z")],
        Expect::Accepted,
        true,
    );
    let mut letters = Vec::new();
    for (list, kind) in row.options() {
        for s in list.iter().flat_map(|e| e.split(' ')) {
            let mut chars = s.chars().skip(1);
            let Some(c) = chars.next() else { continue };
            if s.len() > 2 {
                g.key(&s[..2], &s[2..], kind);
            } else {
                letters.push((c, kind));
                g.letter(s, kind);
            }
        }
    }
    // A cluster of two flags ending in each valued letter.
    let flags: String = letters
        .iter()
        .filter(|(c, k)| *k == Kind::Flag && c.is_ascii_lowercase() && !"fsvtnN".contains(*c))
        .map(|(c, _)| *c)
        .take(2)
        .collect();
    for (c, kind) in letters.iter().filter(|(_, k)| *k != Kind::Flag) {
        let v = vals(*kind)[0];
        let cluster = format!("-G{flags}{c}");
        g.add(
            vec![plain(&cluster), valued(v.to_string(), *kind, v), host()],
            Expect::Accepted,
            true,
        );
    }
    g.add(
        vec![plain("-G"), plain("-o"), plain("NoSuchKey=x"), host()],
        Expect::Unknown,
        true,
    );
    g.add(vec![plain("--no-such-option")], Expect::Unknown, true);
    for c in ('a'..='z').chain('A'..='Z').chain('0'..='9') {
        if !letters.iter().any(|(l, _)| *l == c) && c != 'o' {
            let w = format!("-{c}");
            g.add(vec![plain("-G"), plain(&w), host()], Expect::Unknown, false);
        }
    }
    g.out
}
