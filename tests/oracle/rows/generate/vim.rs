//! Commands for a row of the `vim` grammar (Vim's own command line,
//! `facts::described::vim`): each option before the file and after it,
//! its value where the spelling's suffix puts it, the forms Vim refuses
//! (garbage after a letter whose value is the next word, a value
//! missing at the end, an unknown option), `+NUM` and `+CMD`, `-` and
//! `--`. Every command begins with `--not-a-term`, a flag of the row:
//! without a terminal Vim would first wait two seconds, past the
//! command's time limit; with it, stdin at its end (/dev/null) makes it
//! exit at once, so each run finishes.

use super::{continuation, values, Case, Expect, FRESH};
use permc_shell::facts::described::{Described, Kind};

/// A word of a case: its text and, for a value or an operand, its kind
/// and the value (the word's tail when attached: `-cCMD`).
type Word = (String, Option<(Kind, String)>);

fn plain(w: &str) -> Word {
    (w.to_string(), None)
}

fn valued(w: String, kind: Kind, v: &str) -> Word {
    (w, Some((kind, v.to_string())))
}

/// The first operand: a file new in the project (Vim edits it, writes
/// its swap file beside it and exits at the end of stdin).
fn file() -> Word {
    valued(FRESH.to_string(), Kind::PathWrite, FRESH)
}

struct Gen<'r> {
    row: &'r Described,
    out: Vec<Case>,
    fresh: usize,
}

impl Gen<'_> {
    fn add(&mut self, words: Vec<Word>, expect: Expect, ci: bool) {
        self.fresh += 1;
        let name = format!("oracle-new-vim-{}", self.fresh);
        let mut argv: Vec<String> = self.row.program.iter().map(|w| w.to_string()).collect();
        argv.push("--not-a-term".to_string());
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

    /// An option before the file and after it.
    fn around(&mut self, option: Vec<Word>, ci: bool) {
        let mut before = option.clone();
        before.push(file());
        self.add(before, Expect::Accepted, ci);
        let mut after = vec![file()];
        after.extend(option);
        self.add(after, Expect::Accepted, false);
    }

    fn spelling(&mut self, s: &str, kind: Kind, ci: bool) {
        let suffix = s.find('[').map_or("", |i| &s[i..]);
        let name = &s[..s.len() - suffix.len()];
        let long = name.starts_with("--");
        let v0 = values(kind).first().copied().unwrap_or_default();
        if long && ci {
            // Any case.
            let upper = plain(&name.to_ascii_uppercase());
            let value = valued(v0.to_string(), kind, v0);
            let words = if kind == Kind::Flag {
                vec![upper]
            } else {
                vec![upper, value]
            };
            self.around(words, false);
        }
        if kind == Kind::Flag || suffix == "[0]" {
            return self.around(vec![plain(name)], ci);
        }
        if name.len() == 3 && !long {
            // Two letters (`-nb`): the whole word is the option, of its
            // kind with or without a value attached.
            self.around(vec![valued(name.to_string(), kind, name)], ci);
            for v in values(kind) {
                self.around(vec![valued(format!("{name}{v}"), kind, v)], ci);
            }
            return;
        }
        match suffix {
            "[N]" => {
                self.around(vec![plain(name)], ci);
                self.around(vec![plain(&format!("{name}2"))], ci);
                self.around(vec![plain(&format!("{name}2n"))], false);
            }
            "[#]" => {
                self.around(vec![plain(&format!("{name}5"))], ci);
                for v in values(kind) {
                    self.around(vec![plain(name), valued(v.to_string(), kind, v)], ci);
                }
                self.add(vec![file(), plain(name)], Expect::NeedsValue, ci);
            }
            "[=]" => {
                self.around(vec![plain(name)], ci);
                for v in values(kind) {
                    let w = valued(format!("{name}{v}"), kind, v);
                    self.around(vec![w], ci);
                }
            }
            "[?]" => {
                self.around(vec![plain(name), valued(v0.to_string(), kind, v0)], ci);
                // Followed by an option, or last: a default file.
                self.add(vec![plain(name), plain("-n")], Expect::Accepted, ci);
                self.add(vec![file(), plain(name)], Expect::Accepted, ci);
            }
            _ => {
                for v in values(kind) {
                    self.around(vec![plain(name), valued(v.to_string(), kind, v)], ci);
                }
                let attached = valued(format!("{name}{v0}"), kind, v0);
                if suffix == "[+]" {
                    self.around(vec![attached], ci);
                } else {
                    if !long {
                        // Garbage after the letter: refused.
                        self.add(vec![attached, file()], Expect::Unknown, ci);
                    }
                    self.add(vec![file(), plain(name)], Expect::NeedsValue, ci);
                }
            }
        }
    }
}

pub fn cases(row: &Described) -> Vec<Case> {
    let mut g = Gen {
        row,
        out: Vec::new(),
        fresh: 0,
    };
    g.add(Vec::new(), Expect::Accepted, true);
    g.add(vec![file()], Expect::Accepted, true);
    g.add(
        vec![file(), valued("/tmp/x".into(), Kind::PathWrite, "/tmp/x")],
        Expect::Accepted,
        true,
    );
    g.add(
        vec![valued("-".into(), Kind::Text, "-")],
        Expect::Accepted,
        true,
    );
    g.add(
        vec![valued("+12".into(), Kind::Text, "+12"), file()],
        Expect::Accepted,
        true,
    );
    g.add(
        vec![valued("+".into(), Kind::Text, "+"), file()],
        Expect::Accepted,
        true,
    );
    g.add(
        vec![file(), valued("+x".into(), Kind::Code, "x")],
        Expect::Accepted,
        true,
    );
    // After `--`, file names.
    g.add(
        vec![plain("--"), valued("-n".into(), Kind::PathWrite, "-n")],
        Expect::Accepted,
        true,
    );
    let mut letters = Vec::new();
    for (list, kind) in row.options() {
        for entry in list.iter() {
            for (n, s) in entry.split(' ').enumerate() {
                g.spelling(s, kind, n == 0);
                let bare = s.find('[').map_or(s, |i| &s[..i]);
                if let (Some(c), 2) = (bare.chars().nth(1), bare.len()) {
                    letters.push((c, kind, s.len() == 2));
                }
            }
        }
    }
    // Two flags, then each letter whose value is the next word.
    for (c, kind, next) in letters.clone() {
        if kind != Kind::Flag && next {
            let v = values(kind)[0];
            g.add(
                vec![
                    plain(&format!("-nR{c}")),
                    valued(v.to_string(), kind, v),
                    file(),
                ],
                Expect::Accepted,
                true,
            );
        }
    }
    g.add(vec![plain("--no-such-option")], Expect::Unknown, true);
    for c in ('a'..='z').chain('A'..='Z').chain('0'..='9') {
        if !letters.iter().any(|(l, _, _)| *l == c) {
            g.add(
                vec![plain(&format!("-{c}")), file()],
                Expect::Unknown,
                false,
            );
        }
    }
    g.out
}
