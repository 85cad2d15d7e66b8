//! **[round 4]** Writes that name a protected path without naming it as a
//! word (SPEC §6.4): a backup name made from an operand, a git pathspec
//! with its magic and globs, a recursive or data-named write into a
//! directory that holds a protected path, git's porcelain that moves the
//! worktree to another commit or the stash, and a `find` run's `{}`.
//! What each program does is a row of `catalogue/paths.rs`; this reads
//! the rows.

use super::names::{protected_components, same};
use super::{basename, has_glob, program_sub, reads_only, script_operand, Here};
use crate::facts::catalogue::git::GIT;
use crate::facts::catalogue::paths::{
    DirWrite, Into, BACKUP_SUFFIXES, BACKUP_VARIABLES, DIR_WRITES, FIND, FIND_DELETES, FIND_DEPTH,
    FIND_EXECS, FIND_NAME_TESTS, FIND_PLACEHOLDER, GIT_MOVES, GIT_PATHSPEC_WRITES, HOSTED_CHECKOUT,
    HOSTED_CHECKOUTS, IN_PLACE_LONG, IN_PLACE_SUFFIX, PREFIX_WRITES, PROTECTED_DIRS,
    PROTECTED_FILES, PROTECTED_SUFFIXES, RULE_FILES,
};
use crate::facts::catalogue::paths::{
    FIND_UNREAD, GIT_CLEAN, GIT_DIR, GIT_DIR_NAMES, GIT_NO_WORKTREE,
};
use crate::facts::{resolve, subcommand_at};
use crate::reader::{AsStr, Known};
use std::borrow::Cow;

/// The shapes of the words [`trigger`] looks for, built from the rows:
/// most words are told apart in two loads.
pub(super) const TRIGGERS: crate::facts::Shapes = {
    use crate::facts::mark_shape;
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < DIR_WRITES.len() {
        mark_shape(&mut t, DIR_WRITES[i].program);
        if crate::facts::catalogue::types::const_eq(DIR_WRITES[i].program, GIT) {
            mark_shape(&mut t, DIR_WRITES[i].sub);
        }
        i += 1;
    }
    let mut i = 0;
    while i < GIT_MOVES.len() {
        mark_shape(&mut t, GIT_MOVES[i].0[0]);
        i += 1;
    }
    let mut i = 0;
    while i < HOSTED_CHECKOUTS.len() {
        mark_shape(&mut t, HOSTED_CHECKOUTS[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < GIT_PATHSPEC_WRITES.len() {
        mark_shape(&mut t, GIT_PATHSPEC_WRITES[i]);
        i += 1;
    }
    let mut i = 0;
    while i < PREFIX_WRITES.len() {
        mark_shape(&mut t, PREFIX_WRITES[i].program);
        i += 1;
    }
    mark_shape(&mut t, FIND_PLACEHOLDER);
    let mut i = 0;
    while i < FIND_DELETES.len() {
        mark_shape(&mut t, FIND_DELETES[i]);
        i += 1;
    }
    t
};

/// Is the word one of the programs or subcommands these rows read (so a
/// line holding it is not answered by the fast path)?
pub(super) fn trigger(w: &str) -> bool {
    // (An empty word is a row's empty `sub`: it stays a trigger.)
    if !w.is_empty() && !crate::facts::has_shape(&TRIGGERS, w) {
        return false;
    }
    // Another program's subcommand is read only after its program, a
    // trigger itself (`install` alone would send every `pnpm install`
    // down the slow path).
    DIR_WRITES
        .iter()
        .any(|d| d.program == w || (d.sub == w && d.program == GIT))
        || GIT_MOVES.iter().any(|(p, _)| p[0] == w)
        || HOSTED_CHECKOUTS.iter().any(|(p, _)| *p == w)
        || GIT_PATHSPEC_WRITES.contains(&w)
        || PREFIX_WRITES.iter().any(|p| p.program == w)
        || w == FIND_PLACEHOLDER
        || FIND_DELETES.contains(&w)
}

/// The suffixes the backup variables assigned in these words give
/// (`SIMPLE_BACKUP_SUFFIX=.json`, as an assignment or `export`'s operand).
pub(super) fn backup_variables(words: &[Cow<'_, str>]) -> Vec<String> {
    words
        .iter()
        .filter_map(|w| w.split_once('='))
        .filter(|(n, _)| BACKUP_VARIABLES.contains(n))
        .map(|(_, v)| v.to_string())
        .collect()
}

/// The first write of the run (from its verb) these rows read that names
/// a protected path, shown.
pub(super) fn run_writes(here: &Here<'_>, run: &[Cow<'_, str>], known: &[Known]) -> Option<String> {
    let verb = basename(run.first()?);
    let shown = || Some(run.join(" "));
    if dir_write(here, verb, run, known) {
        return shown();
    }
    if let Some(k) = git_move(verb, run) {
        if !(here.lift)(run, k) {
            return shown();
        }
    }
    if git_pathspecs(here, verb, run)
        || backups(here, verb, run, known)
        || prefix_writes(here, verb, run, known)
        || find_exec(here, verb, run)
    {
        return shown();
    }
    None
}

/// Does the word spell the option `spec` (SPEC §4.5 item 1): a one-letter
/// option alone or in a cluster, a long one with `=` or as a unique
/// prefix (`prefix`)?
fn spells(word: &str, spec: &str, prefix: bool) -> bool {
    if let Some(long) = spec.strip_prefix("--") {
        let Some(w) = word.strip_prefix("--") else {
            return false;
        };
        let stem = w.split_once('=').map_or(w, |(s, _)| s);
        return stem == long || (prefix && stem.len() >= 3 && long.starts_with(stem));
    }
    match spec.strip_prefix('-') {
        Some(l) if l.chars().count() == 1 => {
            word.starts_with('-') && !word.starts_with("--") && word[1..].contains(l)
        }
        _ => word == spec,
    }
}

/// The value of the last of these options in the run (`-C DIR`, `-CDIR`,
/// `--directory=DIR`, `--directory DIR`).
fn option_value<'w>(run: &'w [Cow<'_, str>], specs: &[&str]) -> Option<&'w str> {
    let mut found = None;
    for (i, w) in run.iter().enumerate().skip(1) {
        for s in specs {
            let next = || run.get(i + 1).map(AsStr::as_str);
            if w == s {
                found = next();
            } else if let Some(v) = w.strip_prefix(s) {
                if s.starts_with("--") {
                    if let Some(v) = v.strip_prefix('=') {
                        found = Some(v);
                    }
                } else if s.len() == 2 && !w.starts_with("--") {
                    found = Some(v);
                }
            }
        }
    }
    found
}

/// [`option_value`] as GNU getopt_long reads the options too: a long
/// one by a prefix (`--suf=.json`, `--suf .json`: a prefix several
/// options share counts as well, which only tightens), a short one at
/// the end of a cluster or with its value attached in one (`-bS.json`,
/// `-bS .json`). The last one given wins, as getopt's does.
fn getopt_value<'w>(run: &'w [Cow<'_, str>], specs: &[&str]) -> Option<&'w str> {
    let mut found = option_value(run, specs);
    for (i, w) in run.iter().enumerate().skip(1) {
        if w == "--" {
            break;
        }
        let next = || run.get(i + 1).map(AsStr::as_str);
        if let Some(long) = w.strip_prefix("--") {
            let (name, value) = long
                .split_once('=')
                .map_or((long, None), |(n, v)| (n, Some(v)));
            let named = !name.is_empty()
                && specs
                    .iter()
                    .any(|s| s.strip_prefix("--").is_some_and(|l| l.starts_with(name)));
            if named {
                found = value.or_else(next);
            }
        } else if let Some(cluster) = w.strip_prefix('-') {
            let at = cluster.char_indices().find(|(_, c)| {
                specs
                    .iter()
                    .any(|s| s.len() == 2 && s.strip_prefix('-') == Some(&c.to_string()))
            });
            if let Some((k, c)) = at {
                let rest = &cluster[k + c.len_utf8()..];
                found = if rest.is_empty() { next() } else { Some(rest) };
            }
        }
    }
    found
}

/// The operands of a run as getopt_long reads them, given the options
/// that take a value (a long one by a prefix too): each with its index.
fn getopt_operands<'w>(
    run: &'w [Cow<'_, str>],
    valued: &str,
    valued_long: &[&str],
) -> Vec<(usize, &'w str)> {
    let mut out = Vec::new();
    let mut ended = false;
    let mut i = 1;
    while i < run.len() {
        let w = run[i].as_str();
        i += 1;
        if ended || w == "-" || !w.starts_with('-') {
            out.push((i - 1, w));
        } else if w == "--" {
            ended = true;
        } else if let Some(long) = w.strip_prefix("--") {
            let takes = !long.contains('=')
                && valued_long
                    .iter()
                    .any(|l| l.strip_prefix("--").is_some_and(|l| l.starts_with(long)));
            i += usize::from(takes);
        } else if let Some(k) = w[1..].find(|c: char| valued.contains(c)) {
            i += usize::from(k + 2 == w.len());
        }
    }
    out
}

/// A printf format as a glob: each conversion (`%03d`) any text.
fn format_glob(format: &str) -> String {
    let mut out = String::new();
    let mut cs = format.chars().peekable();
    while let Some(c) = cs.next() {
        if c != '%' {
            out.push(c);
        } else if cs.next_if_eq(&'%').is_some() {
            out.push('%');
        } else {
            while cs.next_if(|c| "-+ #'0123456789.".contains(*c)).is_some() {}
            cs.next();
            out.push('*');
        }
    }
    out
}

/// A write of names made from a prefix (`split IN PREFIX`: `PREFIXaa`…)
/// that may name a protected path (SPEC §6.4): `PREFIX*SUFFIX` read as a
/// glob. A prefix, suffix or format permc does not know may make any name.
fn prefix_writes(here: &Here<'_>, verb: &str, run: &[Cow<'_, str>], known: &[Known]) -> bool {
    let Some(row) = PREFIX_WRITES.iter().find(|p| p.program == verb) else {
        return false;
    };
    let mut prefixes: Vec<(usize, &str)> = match row.operand {
        Some(k) => getopt_operands(run, row.valued, row.valued_long)
            .get(k..)
            .map(<[_]>::to_vec)
            .unwrap_or_default(),
        None => getopt_value(run, row.prefix)
            .map(|v| vec![(0, v)])
            .unwrap_or_default(),
    };
    let optioned = row.operand.is_none() && !prefixes.is_empty();
    if prefixes.is_empty() {
        prefixes.push((0, row.default));
    }
    let suffix = getopt_value(run, row.suffix);
    let format = getopt_value(run, row.format);
    let valued = suffix.is_some() || format.is_some() || optioned;
    if valued && known.iter().any(|k| k.is_unknown()) {
        return true;
    }
    let made = format.map_or_else(|| "*".to_string(), format_glob);
    prefixes.iter().any(|(i, p)| {
        let glob = format!("{p}{made}{}", suffix.unwrap_or(""));
        // The made part holds no `.`: a last component that holds none
        // besides is no protected name (each holds a `.`, a `~` or a byte
        // past ASCII), and only its folder is read, as one name of it.
        let last = glob.rsplit('/').next().unwrap_or("");
        let marked = last
            .bytes()
            .any(|b| matches!(b, b'.' | b'~' | b'?' | b'[') || b >= 0x80);
        known.get(*i).is_some_and(|k| k.is_unknown())
            || glob.contains('\\')
            || if marked {
                here.names(&glob, true)
            } else {
                here.names(&glob.replace('*', "a"), false)
            }
    })
}

/// The run's words after the verb, with the first one of a row that takes
/// a bare cluster (`tar xf`) read as `-xf`.
fn options_of(row: &DirWrite, run: &[Cow<'_, str>]) -> Vec<String> {
    run.iter()
        .skip(1)
        .enumerate()
        .map(|(i, w)| {
            if i == 0 && row.bare_cluster && !w.starts_with('-') {
                format!("-{w}")
            } else {
                w.to_string()
            }
        })
        .collect()
}

/// A recursive or data-named write into a directory that holds a
/// protected path, or one that may write anywhere (SPEC §6.4).
fn dir_write(here: &Here<'_>, verb: &str, run: &[Cow<'_, str>], known: &[Known]) -> bool {
    // git's subcommand past its global options; another program's, the
    // word after it (`7z x`), where a row names one.
    // The word after git's subcommand, for a row of two (`lfs install`).
    let mut then: Option<&str> = None;
    let sub = if verb == GIT {
        program_sub(GIT, run).map_or("", |(s, rest)| {
            then = rest.first().map(AsStr::as_str);
            s
        })
    } else if DIR_WRITES
        .iter()
        .any(|d| d.program == verb && !d.sub.is_empty())
    {
        // The first word that is not an option (`7z -y x`, `lefthook -v
        // install`).
        run.iter()
            .skip(1)
            .find(|w| !w.starts_with('-'))
            .map_or("", AsStr::as_str)
    } else {
        ""
    };
    let names = |d: &DirWrite| match d.sub.split_once(' ') {
        Some((first, second)) => first == sub && then == Some(second),
        None => d.sub == sub,
    };
    let Some(row) = DIR_WRITES.iter().find(|d| d.program == verb && names(d)) else {
        return false;
    };
    let opts = options_of(row, run);
    let has = |specs: &[&str], prefix: bool| {
        opts.iter()
            .take_while(|w| *w != "--")
            .any(|w| specs.iter().any(|s| spells(w, s, prefix)))
    };
    if !row.when.is_empty() && !has(row.when, true) {
        return false;
    }
    if has(row.unless, false) {
        return false;
    }
    if has(row.anywhere, false) {
        return true;
    }
    let operands: Vec<(usize, &str)> = run
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, w)| !w.starts_with('-'))
        .map(|(i, w)| (i, w.as_str()))
        .collect();
    let kn = |i: usize| known.get(i).copied().unwrap_or_default();
    match row.into {
        Into::Root => true,
        Into::OptionOrCwd(specs) => {
            here.holds(option_value(run, specs).unwrap_or("."), Known::Exact)
        }
        Into::LastOperand(specs) => {
            if let Some(d) = option_value(run, specs) {
                return (!row.contents || spills(&operands, kn)) && here.holds(d, Known::Exact);
            }
            let Some(((last, dest), sources)) = operands.split_last() else {
                return false;
            };
            (!row.contents || spills(sources, kn)) && here.holds(dest, kn(*last))
        }
        // rm refuses an operand whose last component is `.` or `..`.
        Into::EveryOperand => operands.iter().any(|(i, w)| {
            let last = w.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            !matches!(last, "." | "..") && here.holds(w, kn(*i))
        }),
    }
}

/// Does a source spill its contents into the destination (`x/.`, `x/`,
/// a glob, an unknown part)?
fn spills(sources: &[(usize, &str)], kn: impl Fn(usize) -> Known) -> bool {
    sources.iter().any(|(i, s)| {
        kn(*i) != Known::Exact
            || has_glob(s)
            || s.ends_with('/')
            || s.ends_with("/.")
            || s.ends_with("/..")
            || *s == "."
            || *s == ".."
    })
}

/// Is the run git's porcelain moving the worktree to another commit or
/// the stash (SPEC §6.4)? The number of its words (program and subcommand
/// path) an allow entry must name to lift it.
fn git_move(verb: &str, run: &[Cow<'_, str>]) -> Option<usize> {
    let (sub, end) = move_named(verb, run)?;
    let rest = &run[end..];
    let moves = match sub {
        "checkout" => checkout_moves(rest),
        "switch" => switch_moves(rest),
        "reset" => rest
            .iter()
            .any(|w| matches!(w.as_str(), "--hard" | "--merge" | "--keep")),
        _ => true,
    };
    moves.then_some(end)
}

/// The wholesale move whose subcommand path the words name, whatever
/// follows it (`git switch`, `git stash pop`, `gh pr checkout`): its
/// subcommand and the number of words that name it — what an allow entry
/// must name to lift it (SPEC §6.4). `git stash list` and `git merge
/// --abort` name none; `git checkout -b NEW` names one (with a start
/// point it moves).
pub(super) fn move_named<'w>(verb: &str, run: &'w [Cow<'_, str>]) -> Option<(&'w str, usize)> {
    if let Some((_, sub)) = HOSTED_CHECKOUTS.iter().find(|(p, _)| *p == verb) {
        let named = run.get(1).is_some_and(|w| w == sub)
            && run.get(2).is_some_and(|w| w == HOSTED_CHECKOUT);
        return named.then_some((HOSTED_CHECKOUT, 3));
    }
    if verb != GIT {
        return None;
    }
    let i = subcommand_at(GIT, run, 1, |_| true);
    let sub = run.get(i)?.as_str();
    let next = run.get(i + 1).map(AsStr::as_str);
    let (path, unless) = GIT_MOVES
        .iter()
        .filter(|(p, _)| p[0] == sub && p.get(1).is_none_or(|s| Some(*s) == next))
        .max_by_key(|(p, _)| p.len())?;
    let rest = &run[i + path.len()..];
    if rest.iter().any(|w| unless.contains(&w.as_str())) {
        return None;
    }
    // `stash list|show|drop|clear|create|store` write no worktree file.
    if sub == "stash"
        && path.len() == 1
        && !next.is_none_or(|n| n.starts_with('-') || n == "branch")
    {
        return None;
    }
    Some((sub, i + path.len()))
}

/// `git checkout`'s words: a branch created at `HEAD` (`-b|-B NEW`
/// without a start point), `-- PATHS` (from the index) and `REF --
/// PATHS` (the pathspec rule's) are no wholesale move; a lone operand may
/// be a ref.
fn checkout_moves(rest: &[Cow<'_, str>]) -> bool {
    let dashdash = rest.iter().position(|w| w == "--");
    let before = &rest[..dashdash.unwrap_or(rest.len())];
    let creates = before
        .iter()
        .position(|w| matches!(w.as_str(), "-b" | "-B" | "--orphan"));
    let operands: Vec<&str> = before
        .iter()
        .enumerate()
        .filter(|(k, w)| !w.starts_with('-') && Some(k.wrapping_sub(1)) != creates)
        .map(|(_, w)| w.as_str())
        .collect();
    match (creates, dashdash) {
        (Some(_), _) => !operands.is_empty(),
        (None, Some(_)) => false,
        (None, None) => operands.len() == 1 || rest.iter().any(|w| w == "-"),
    }
}

/// `git switch`'s words: `-c|-C NEW` without a start point creates a
/// branch at `HEAD`; any other operand is a ref to move to.
fn switch_moves(rest: &[Cow<'_, str>]) -> bool {
    let creates = rest
        .iter()
        .position(|w| matches!(w.as_str(), "-c" | "-C" | "--create" | "--force-create"));
    let operands = rest
        .iter()
        .enumerate()
        .filter(|(k, w)| !w.starts_with('-') && Some(k.wrapping_sub(1)) != creates)
        .count();
    creates.is_none() || operands > 0 || rest.iter().any(|w| w == "--orphan")
}

/// A pathspec of a git subcommand that writes the worktree through it
/// that git may resolve to a protected path (SPEC §6.4): its magic read
/// (`:(top)`, `:/`, `:(icase)`, `:!` excludes), its globs crossing `/`.
fn git_pathspecs(here: &Here<'_>, verb: &str, run: &[Cow<'_, str>]) -> bool {
    if verb != GIT {
        return false;
    }
    let Some((sub, rest)) = program_sub(GIT, run) else {
        return false;
    };
    if !GIT_PATHSPEC_WRITES.contains(&sub) {
        return false;
    }
    if rest.iter().any(|w| GIT_NO_WORKTREE.contains(&w.as_str())) {
        // `git rm --cached`: the index only; `git clean -n`: a dry run.
        return false;
    }
    let dashdash = rest.iter().position(|w| w == "--");
    let before = &rest[..dashdash.unwrap_or(rest.len())];
    // checkout and restore write through a pathspec from another commit
    // only with a source: `checkout REF -- P`, `restore --source REF P`.
    let sourced = match sub {
        "checkout" => dashdash.is_none() || before.iter().any(|w| !w.starts_with('-')),
        "restore" => before.iter().any(|w| {
            w == "-s" || w.starts_with("--source") || (w.starts_with("-s") && !w.starts_with("--"))
        }),
        _ => true,
    };
    if !sourced {
        return false;
    }
    let mut specs: Vec<&str> = match (sub, dashdash) {
        (_, Some(k)) => rest[k + 1..].iter().map(AsStr::as_str).collect(),
        ("checkout" | "reset" | "stash", None) => rest
            .iter()
            .filter(|w| !w.starts_with('-'))
            .skip(usize::from(sub != "stash"))
            .map(AsStr::as_str)
            .collect(),
        _ => rest
            .iter()
            .filter(|w| !w.starts_with('-'))
            .map(AsStr::as_str)
            .collect(),
    };
    if specs.is_empty() && sub == GIT_CLEAN {
        // `git clean` without a pathspec cleans the whole current folder.
        specs.push(".");
    }
    let from_root = here
        .cwd
        .strip_prefix(here.root)
        .filter(|r| r.is_empty() || r.starts_with('/'))
        .map(|r| r.trim_start_matches('/'));
    specs.iter().any(|p| pathspec_names(here, p, from_root))
}

/// Does one pathspec resolve to a protected path? `from_root`: the cwd
/// below the worktree's root (`None`: not below it, read from the root).
fn pathspec_names(here: &Here<'_>, spec: &str, from_root: Option<&str>) -> bool {
    let (magic, path) = magic_of(spec);
    if magic.iter().any(|m| matches!(*m, "exclude" | "!" | "^")) {
        return false;
    }
    let top = magic.iter().any(|m| matches!(*m, "top" | "/"));
    let literal = magic.contains(&"literal");
    let base = if top { "" } else { from_root.unwrap_or("") };
    let full = if base.is_empty() {
        path.to_string()
    } else {
        format!("{base}/{path}")
    };
    if literal || !has_glob(&full) {
        // A folder stands for all it holds (`git checkout REF -- .`).
        let abs = resolve(here.root, &full);
        return here.names(path, false)
            || here.names(&abs, false)
            || here.holds(&abs, Known::Exact);
    }
    glob_may_be_protected(&full.to_ascii_lowercase(), here)
}

/// A pathspec's magic words and its path: `:(top,icase)p`, `:/p`, `:!p`,
/// `:^p`; a pathspec without a leading `:` has none.
fn magic_of(spec: &str) -> (Vec<&str>, &str) {
    let Some(rest) = spec.strip_prefix(':') else {
        return (Vec::new(), spec);
    };
    if let Some(long) = rest.strip_prefix('(') {
        return match long.split_once(')') {
            Some((m, p)) => (m.split(',').map(str::trim).collect(), p),
            None => (Vec::new(), spec),
        };
    }
    let short = rest
        .find(|c: char| !matches!(c, '/' | '!' | '^'))
        .unwrap_or(rest.len());
    let magic = rest[..short]
        .char_indices()
        .map(|(k, _)| &rest[k..k + 1])
        .collect();
    let path = rest[short..].strip_prefix(':').unwrap_or(&rest[short..]);
    (magic, path)
}

/// Could the pathspec glob (from the root, lower case; `*` crosses `/`)
/// match a protected path: a protected directory of the root or anything
/// below it, a protected directory or file as the path's end anywhere,
/// one of permc.toml's paths or anything below it?
fn glob_may_be_protected(glob: &str, here: &Here<'_>) -> bool {
    let mut shapes: Vec<String> = Vec::new();
    for d in PROTECTED_DIRS {
        // The root's own, with all they hold; elsewhere as the path's end
        // (what a folder below holds is not guessed, as for `find`).
        shapes.extend([d.to_string(), format!("{d}/*"), format!("*/{d}")]);
    }
    for f in PROTECTED_FILES.iter().chain(RULE_FILES) {
        shapes.extend([f.to_string(), format!("*/{f}")]);
    }
    for s in PROTECTED_SUFFIXES {
        shapes.push(format!("*{s}"));
    }
    for e in &here.extra {
        if let Some(rel) = e.strip_prefix(here.root) {
            let rel = rel.trim_start_matches('/').to_lowercase();
            shapes.extend([rel.clone(), format!("{rel}/*")]);
        }
    }
    shapes.iter().any(|s| globs_meet(glob, s))
}

/// One element of a glob whose `*` crosses `/` (git's pathspecs, find's
/// `-path`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum G {
    Lit(char),
    One,
    Star,
}

fn elems(glob: &str) -> Vec<G> {
    let mut out = Vec::new();
    let mut cs = glob.chars();
    while let Some(c) = cs.next() {
        match c {
            '\\' => out.push(G::Lit(cs.next().unwrap_or('\\'))),
            '*' if out.last() == Some(&G::Star) => {}
            '*' => out.push(G::Star),
            '?' => out.push(G::One),
            '[' => {
                // A set is one character (not read: fail closed).
                for n in cs.by_ref() {
                    if n == ']' {
                        break;
                    }
                }
                out.push(G::One);
            }
            c => out.push(G::Lit(c)),
        }
    }
    out
}

/// Is there a text both globs match (`*` any run of characters, `/`
/// included)? A walk of the product of their automata: time O(a × b).
pub(super) fn globs_meet(a: &str, b: &str) -> bool {
    let (a, b) = (elems(a), elems(b));
    let (n, m) = (a.len(), b.len());
    let mut seen = vec![false; (n + 1) * (m + 1)];
    let mut todo = vec![(0usize, 0usize)];
    while let Some((i, j)) = todo.pop() {
        if std::mem::replace(&mut seen[i * (m + 1) + j], true) {
            continue;
        }
        if i == n && j == m {
            return true;
        }
        let (x, y) = (a.get(i).copied(), b.get(j).copied());
        // A star may match nothing.
        if x == Some(G::Star) {
            todo.push((i + 1, j));
        }
        if y == Some(G::Star) {
            todo.push((i, j + 1));
        }
        let (Some(x), Some(y)) = (x, y) else {
            continue;
        };
        // One character both accept: a star stays where it is.
        let step = |e: G, k: usize| if e == G::Star { k } else { k + 1 };
        let agree = match (x, y) {
            (G::Lit(p), G::Lit(q)) => p == q,
            _ => true,
        };
        if agree {
            todo.push((step(x, i), step(y, j)));
        }
    }
    false
}

/// A backup name (SPEC §4.5 item 1): an operand with a backup suffix or
/// prefix (`cp -b -S .json x permissions`, `patch -B .git/ …`,
/// `SIMPLE_BACKUP_SUFFIX` assigned), or sed's in-place suffix with each
/// `*` the operand as written.
fn backups(here: &Here<'_>, verb: &str, run: &[Cow<'_, str>], known: &[Known]) -> bool {
    let (suffixes, prefixes) = if IN_PLACE_SUFFIX.contains(&verb) {
        match sed_suffix(run) {
            Some(s) => (vec![s.to_string()], Vec::new()),
            None => return false,
        }
    } else if let Some((_, s, p)) = BACKUP_SUFFIXES.iter().find(|(v, _, _)| *v == verb) {
        let mut suffixes: Vec<String> = getopt_value(run, s)
            .map(str::to_string)
            .into_iter()
            .collect();
        suffixes.extend(here.backup_suffixes.iter().cloned());
        let prefixes: Vec<String> = getopt_value(run, p)
            .map(str::to_string)
            .into_iter()
            .collect();
        (suffixes, prefixes)
    } else {
        return false;
    };
    if suffixes
        .iter()
        .chain(&prefixes)
        .any(|s| s.starts_with(['$', '`']))
    {
        // A suffix permc does not know may make any name.
        return true;
    }
    let script = script_operand(run);
    let operands = run
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(i, w)| {
            !w.starts_with('-')
                && Some(*i) != script
                && !known.get(*i).is_some_and(|k| k.is_unknown())
        })
        .map(|(_, w)| w.as_str());
    for o in operands {
        let (dir, base) = o.rsplit_once('/').map_or(("", o), |(d, b)| (d, b));
        let in_dir = |name: &str| {
            if dir.is_empty() {
                name.to_string()
            } else {
                format!("{dir}/{name}")
            }
        };
        for s in &suffixes {
            let name = if s.contains('*') {
                let made = s.replace('*', o);
                if made.contains('/') {
                    made
                } else {
                    in_dir(&made)
                }
            } else {
                format!("{o}{s}")
            };
            if here.names(&name, false) {
                return true;
            }
        }
        for p in &prefixes {
            if here.names(&format!("{p}{o}"), false)
                || here.names(&in_dir(&format!("{p}{base}")), false)
            {
                return true;
            }
        }
    }
    false
}

/// The in-place suffix (`-i.bak`, sed's `--in-place=.bak` and its
/// prefixes down to `--i=.bak`, `-ni.bak`, perl's `-pi.bak`), when one is
/// given.
fn sed_suffix<'w>(run: &'w [Cow<'_, str>]) -> Option<&'w str> {
    run.iter().skip(1).take_while(|w| *w != "--").find_map(|w| {
        if let Some((name, v)) = w.split_once('=') {
            if name.len() >= 3 && IN_PLACE_LONG.starts_with(name) {
                return Some(v);
            }
        }
        let cluster = w.strip_prefix('-').filter(|c| !c.starts_with('-'))?;
        let k = cluster.find('i')?;
        let v = &cluster[k + 1..];
        (!v.is_empty()).then_some(v)
    })
}

/// A `find` run's `{}` (SPEC §6.4): a path the `find` can reach and its
/// and-ed name tests accept is protected, given to a command that may
/// write — or removed by `-delete` (a `path-write` of what it matches,
/// §4.5 item 1).
fn find_exec(here: &Here<'_>, verb: &str, run: &[Cow<'_, str>]) -> bool {
    if verb != FIND {
        return false;
    }
    let words: Vec<&str> = run.iter().map(AsStr::as_str).collect();
    if let Some(d) = words.iter().position(|w| FIND_DELETES.contains(w)) {
        if find_acts(here, &words, d) {
            return true;
        }
    }
    let Some(exec) = words.iter().position(|w| FIND_EXECS.contains(w)) else {
        return false;
    };
    let end = words[exec..]
        .iter()
        .position(|w| *w == ";" || *w == "+")
        .map_or(words.len(), |k| exec + k);
    let command: Vec<Cow<'_, str>> = words[exec + 1..end]
        .iter()
        .map(|w| Cow::Borrowed(*w))
        .collect();
    if !command.iter().any(|w| w.contains(FIND_PLACEHOLDER)) || reads_only(&command) {
        return false;
    }
    find_acts(here, &words, exec)
}

/// Can what the primary at `at` acts on (a run's `{}`, `-delete`'s
/// match) be protected: a path the `find` reaches that the and-ed tests
/// before it accept? Under -depth (-delete turns it on) -prune does
/// nothing: no branch prunes.
fn find_acts(here: &Here<'_>, words: &[&str], at: usize) -> bool {
    let starts: Vec<&str> = words[1..]
        .iter()
        .take_while(|w| !w.starts_with('-') && !matches!(**w, "(" | "!" | ")"))
        .copied()
        .collect();
    let expr = &words[1 + starts.len()..at];
    // A negation or a group is not read: every test and prune is dropped
    // (fail closed: `-not -path ./src/*` must not be read as `-path`).
    let expr = if expr.iter().any(|w| FIND_UNREAD.contains(w)) {
        &[][..]
    } else {
        expr
    };
    // The branch of `-o` that holds the `-exec`; the branches before it
    // that end in `-prune` prune what they test.
    let branches: Vec<&[&str]> = expr.split(|w| matches!(*w, "-o" | "-or")).collect();
    let (tests, pruning) = branches.split_last().unwrap_or((&expr, &[]));
    let pruning = if words.iter().any(|w| FIND_DEPTH.contains(w)) {
        &[][..]
    } else {
        pruning
    };
    let starts = if starts.is_empty() { vec!["."] } else { starts };
    starts.iter().any(|s| find_reaches(here, s, tests, pruning))
}

/// The name tests of a branch of find's expression: (glob, ignoring
/// case, on the whole path).
fn name_tests<'w>(branch: &[&'w str]) -> Vec<(&'w str, bool, bool)> {
    branch
        .windows(2)
        .filter_map(|w| {
            let (_, icase, whole) = FIND_NAME_TESTS.iter().find(|(t, _, _)| *t == w[0])?;
            Some((w[1], *icase, *whole))
        })
        .collect()
}

/// Can `find START` reach a protected path its tests accept?
fn find_reaches(here: &Here<'_>, start: &str, tests: &[&str], pruning: &[&[&str]]) -> bool {
    let tests = name_tests(tests);
    let pruned: Vec<Vec<(&str, bool, bool)>> = pruning
        .iter()
        .filter(|b| b.last() == Some(&"-prune"))
        .map(|b| name_tests(b))
        .collect();
    let start_t = start.trim_end_matches('/');
    let accepts = |name: &str, path: &str| {
        tests.iter().all(|(g, _, whole)| {
            let g = g.to_ascii_lowercase();
            if *whole {
                globs_meet(&g, path)
            } else {
                globs_meet(&g, name)
            }
        })
    };
    // A protected name as the leaf found, anywhere below the start.
    let leaves = PROTECTED_FILES
        .iter()
        .map(|f| (f.rsplit('/').next().unwrap_or(f), f.to_string()))
        .chain(PROTECTED_DIRS.iter().map(|d| (*d, d.to_string())))
        .chain(PROTECTED_SUFFIXES.iter().map(|s| ("", format!("*{s}"))));
    for (name, path) in leaves {
        let name = if name.is_empty() { path.as_str() } else { name };
        let near = format!("{start_t}/{path}");
        let deep = format!("{start_t}/*/{path}");
        if accepts(name, &near) || accepts(name, &deep) {
            return true;
        }
    }
    let in_git = |path: &str| {
        // Within `.git`, every name but the objects' (SPEC §6.4): one
        // name (`\u{1}`, a character no test's literal is) stands for `*`.
        GIT_DIR_NAMES.iter().any(|n| {
            let name = n.rsplit('/').next().unwrap_or(n);
            accepts(name, &format!("{path}/{}", n.replace('*', "\u{1}")))
        })
    };
    let below = here.names(start, false) || protected_components(&[start_t]);
    if below {
        let git = start_t.rsplit('/').next().is_some_and(|c| same(c, GIT_DIR));
        return if git {
            in_git(start_t)
        } else {
            accepts("*", &format!("{start_t}/*"))
        };
    }
    if !here.holds(start, Known::Exact) {
        return false;
    }
    // Anything in a protected directory the start lexically holds (the
    // root's own, below the start).
    let at_root = resolve(here.cwd, start) == here.root;
    PROTECTED_DIRS.iter().any(|d| {
        let path = if at_root {
            format!("{start_t}/{d}")
        } else {
            format!("{start_t}/*/{d}")
        };
        let is_pruned = pruned.iter().any(|p| {
            !p.is_empty()
                && p.iter().all(|(g, _, whole)| {
                    let g = g.to_ascii_lowercase();
                    if *whole {
                        globs_meet(&g, &path)
                    } else {
                        globs_meet(&g, d)
                    }
                })
        });
        if is_pruned {
            return false;
        }
        if *d == GIT_DIR {
            in_git(&path)
        } else {
            accepts("*", &format!("{path}/*"))
        }
    })
}
