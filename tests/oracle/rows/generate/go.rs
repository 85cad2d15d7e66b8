//! Commands for a row of the `go` grammar (`go test`: Go's flag package
//! as cmd/go's testflag.go reads it): every operand position with each
//! value of its kind; each flag spelled `-NAME` and `--NAME`, a valued
//! one with its value after `=` and in the next word, and last with no
//! value (go: "flag needs an argument"); a flag given a value (go:
//! "invalid boolean value"); an `open` flag (`-args`) with words after
//! it; a flag the row lacks, which go hands to the test binary (open:
//! accepted, as the row reads it).

use super::{values, Case, Expect, FRESH};
use permc_shell::facts::described::{Described, Kind};

pub fn cases(row: &Described) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    let mut fresh = 0;
    let mut add = |words: Vec<(String, Option<Kind>)>, expect: Expect, ci: bool| {
        let name = format!("oracle-new-go-{fresh}");
        fresh += 1;
        let mut argv: Vec<String> = row.program.iter().map(|w| (*w).to_string()).collect();
        let mut vals = Vec::new();
        for (w, k) in words {
            let w = w.replace(FRESH, &name);
            if let Some(k) = k {
                let v = w.split_once('=').map_or(w.as_str(), |(_, v)| v);
                vals.push((k, v.to_string()));
            }
            argv.push(w);
        }
        if out.iter().any(|c| c.words == argv) {
            return;
        }
        out.push(Case {
            continuation: super::continuation(row, &argv),
            words: argv,
            expect,
            values: vals,
            ci,
        });
    };
    let plain = |w: &str| (w.to_string(), None);
    let operand = row
        .operands
        .first()
        .and_then(|n| super::kind_named(n))
        .unwrap_or(Kind::PathRead);
    add(vec![], Expect::Accepted, true);
    for v in values(operand) {
        add(vec![(v.to_string(), Some(operand))], Expect::Accepted, true);
    }
    for (list, kind) in row.options() {
        for entry in list {
            for (n, s) in entry.split(' ').enumerate() {
                // The default tier: each option's first spelling.
                let ci = n == 0;
                let (name, optional) = s.strip_suffix("[=]").map_or((s, false), |x| (x, true));
                let dashes = if n == 0 {
                    vec![name.to_string(), format!("-{name}")]
                } else {
                    vec![name.to_string()]
                };
                for spelled in dashes {
                    option(&mut add, &spelled, kind, optional, ci);
                }
            }
        }
    }
    add(vec![plain("-no-such-option")], Expect::Accepted, true);
    out
}

/// The cases of one spelling of an option (`-run`, `--run`).
fn option(
    add: &mut impl FnMut(Vec<(String, Option<Kind>)>, Expect, bool),
    s: &str,
    kind: Kind,
    optional: bool,
    ci: bool,
) {
    let plain = |w: &str| (w.to_string(), None);
    match kind {
        Kind::Flag => {
            add(vec![plain(s)], Expect::Accepted, ci);
            let v = values(Kind::Text)[0];
            add(vec![plain(&format!("{s}={v}"))], Expect::NoValue, ci);
        }
        // `-args`: every later word is the test binary's.
        Kind::Open => add(
            vec![plain(s), ("-x".to_string(), Some(Kind::Open))],
            Expect::Accepted,
            ci,
        ),
        // A flag whose value is optional (`-c[=]`, a boolean the row
        // reads as a write): alone.
        _ if optional => add(vec![plain(s)], Expect::Accepted, ci),
        _ => {
            for v in values(kind) {
                let attached = format!("{s}={v}");
                add(vec![(attached, Some(kind))], Expect::Accepted, ci);
                add(
                    vec![plain(s), (v.to_string(), Some(kind))],
                    Expect::Accepted,
                    ci,
                );
            }
            add(vec![plain(s)], Expect::NeedsValue, ci);
        }
    }
}
