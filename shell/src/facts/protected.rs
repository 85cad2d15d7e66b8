//! Protected paths (SPEC §6.4): the rule files, git's own directory, and
//! **[round 4]** the files and directories a tool runs without the person
//! naming it (hooks, an editor's tasks, direnv's `.envrc`, a program's
//! configuration), wherever they stand in the scope; on the host, the
//! person's own startup files too.
//!
//! A segment *names a protected path* when an output redirection targets
//! one; when a program that may write is given a word (or a `k=value`
//! word's value, or an option's attached value) that has a protected
//! directory as a component, whose last components are a protected name,
//! or that is a glob which could expand to either; when it runs `git
//! config` that writes a key, or `git init|clone --template`; and
//! ([`writes`]) through a backup name, a git pathspec, a recursive or
//! data-named write into a directory that holds a protected path, git's
//! porcelain that moves the worktree, or a `find` run's `{}`. Programs
//! that only read their operands are exempt, per word: a value they write
//! (`sort -o`, `git log --output`) still counts.
//!
//! **Where the shell is.** A word is resolved against the directory the
//! shell may be in. This reading is coarser than the scope's and fails
//! closed: once any segment of the line moves the directory (`cd`,
//! `pushd`, `popd`, anywhere), a relative glob may stand in the project
//! root; once a move's words name a protected directory (or the cwd is
//! below one), every relative operand of a program that may write may be
//! in it. Words with an unknown part are the scope's (§4.4), not this —
//! except on the host, where a written word that begins with one (or with
//! `~`) may be the person's own files.
//!
//! **Globs.** A word the reader marks [`Known::Glob`] (an unquoted `*`,
//! `?` or `[…]`) may expand to a protected name; a quoted one is its text.
//! A name that begins with a `.` is reached by a glob anywhere (a `*`
//! never stands for a leading `.`); one that does not (`permissions.json`,
//! `mise.toml`, `*.code-workspace`) only where the glob's directory may be
//! the project root, so `rm -rf dist/*` names nothing.

mod names;
mod writes;

pub use names::{protected_dir, same};

use super::catalogue::builtins::moves_dir;
use super::catalogue::code::SCRIPT_READERS;
use super::catalogue::git::{
    GIT, GIT_CONFIG, GIT_CONFIG_WRITING_OPTIONS, GIT_CONFIG_WRITING_SUBCOMMANDS, GIT_DASHED,
    GIT_TEMPLATE_SUBCOMMANDS,
};
pub use super::catalogue::paths::RULE_FILES;
use super::catalogue::paths::{
    OUTPUT_OPTION_O, PATTERN_OPTIONS, PROTECTED_DIRS, PROTECTED_DOTLESS, PROTECTED_FILES,
    PROTECTED_SUFFIXES, READING_SUBCOMMANDS, READS_ONLY, READS_ONLY_UNLESS, WRITES_OPERANDS,
};
use super::described::Written;
use super::glob::glob_matches;
use super::scope::values;
use super::wrappers::git_config_reads;
use super::{basename, normalize, resolve, verb_index, LineFacts, Scope};
use super::{has_shape, mark_shape, mark_shape_of, Shapes};
use crate::reader::AsStr;
use crate::reader::{Known, Redirect};
use std::borrow::Cow;

/// Does the word hold a glob character (`*`, `?`, `[`)? Quoting is not
/// known here, so a quoted one counts too (see the module's notes).
fn has_glob(word: &str) -> bool {
    word.bytes().any(|b| matches!(b, b'*' | b'?' | b'['))
}

/// Is this one component a protected name (SPEC §6.4, compared as
/// [`same`] does): a protected directory, the last component of a
/// protected file that is one component, or a name a protected suffix
/// ends?
pub fn protected_name(c: &str) -> bool {
    names::protected_components(&[c])
}

/// Could the glob component match `name` (ignoring case, as hosts that
/// fold case do)?
fn could_be(glob: &str, name: &str) -> bool {
    glob_matches(glob, name) || glob_matches(&glob.to_ascii_lowercase(), name)
}

/// Could the glob component match a name ending in `suffix`? Read from
/// the end: a `*` can stand for the rest, a `?` or a set `[…]` for any one
/// character (a set is not read: fail closed).
fn could_end_as(glob: &str, suffix: &str) -> bool {
    let g: Vec<char> = glob.chars().collect();
    let escaped = |k: usize| k > 0 && g[k - 1] == '\\';
    let mut i = g.len();
    for s in suffix.chars().rev() {
        let Some(k) = i.checked_sub(1) else {
            return false;
        };
        let c = g[k];
        if escaped(k) {
            if !c.eq_ignore_ascii_case(&s) {
                return false;
            }
            i = k - 1;
            continue;
        }
        match c {
            '*' => return true,
            '?' => i = k,
            ']' if g[..k].contains(&'[') => i = g[..k].iter().rposition(|&o| o == '[').unwrap_or(0),
            c if c.eq_ignore_ascii_case(&s) => i = k,
            _ => return false,
        }
    }
    true
}

/// Could the glob component match a protected name that does not begin
/// with a `.` (a rule file, `mise.toml`, `*.permc`): reached only where
/// the glob's directory may be the project root.
fn could_be_root_name(glob: &str) -> bool {
    PROTECTED_FILES
        .iter()
        .filter(|f| !f.starts_with('.') && !f.contains('/'))
        .any(|n| could_be(glob, n))
        || PROTECTED_SUFFIXES.iter().any(|s| could_end_as(glob, s))
}

/// Could the glob word's last components match a protected file whose
/// name begins with a `.` (`.envrc`, `.vscode/tasks.json`): anywhere.
fn could_be_dot_file(components: &[&str]) -> bool {
    PROTECTED_FILES
        .iter()
        .filter(|f| f.starts_with('.'))
        .any(|f| {
            let want: Vec<&str> = f.split('/').collect();
            components.len() >= want.len()
                && components[components.len() - want.len()..]
                    .iter()
                    .zip(&want)
                    .all(|(c, w)| {
                        if has_glob(c) {
                            could_be(c, w)
                        } else {
                            same(c, w)
                        }
                    })
        })
}

/// Decides whether a wholesale move of the worktree (`git switch REF`) is
/// lifted: given the run's words and how many of them (program and
/// subcommand path) an allow entry must name.
pub type Lift<'l> = &'l dyn Fn(&[Cow<'_, str>], usize) -> bool;

/// Where the shell may be, for the whole line (see the module's notes).
struct Here<'s> {
    /// The project root, where the rule files are (`/work` in a container).
    root: &'s str,
    /// The (translated) cwd.
    cwd: &'s str,
    /// Some segment moves the directory.
    moved: bool,
    /// How many segments move the directory.
    moves: usize,
    /// The directories a move's literal operand names (`cd .vscode`),
    /// resolved against the cwd: where a later word may be resolved too.
    dirs: Vec<String>,
    /// The shell may be below a protected directory.
    in_protected: bool,
    /// The command runs on the host (no running container): the person's
    /// own files are protected too.
    host: bool,
    /// permc.toml's `protected` paths, absolute.
    extra: Vec<String>,
    /// The suffixes a backup variable assigned on the line gives.
    backup_suffixes: Vec<String>,
    /// Which wholesale moves an allow entry lifts.
    lift: Lift<'s>,
}

/// Does a word hold a protected directory as a component (`.git`,
/// `.husky`…), or a glob component that could be one?
#[inline] // Its fast part: most words leave there, without a call.
pub fn names_protected_dir(t: &str, glob: bool) -> bool {
    // Without a glob, a protected directory's name holds a `.`, or an 8.3
    // name a `~` (most words: neither).
    if !glob && t.is_ascii() && !t.bytes().any(|b| matches!(b, b'.' | b'~')) {
        return false;
    }
    components_protected(t, glob)
}

/// [`names_protected_dir`] past its fast part: each component read.
#[inline(never)]
fn components_protected(t: &str, glob: bool) -> bool {
    t.split('/').any(|c| {
        if glob && has_glob(c) {
            PROTECTED_DIRS.iter().any(|d| could_be(c, d))
        } else {
            protected_dir(c)
        }
    })
}

/// Does a word hold a `.git` component, or a glob component that could be
/// one? (Kept for the readers of round 3: every protected directory now
/// counts, [`names_protected_dir`].)
pub fn names_git(t: &str, glob: bool) -> bool {
    names_protected_dir(t, glob)
}

/// Is the normalized absolute path `abs` a protected path (SPEC §6.4): a
/// protected directory or file below `root`, one of `extra`'s paths or
/// below one, or on the host one of the person's own files?
pub fn path_is_protected(abs: &str, root: &str, host: bool, extra: &[String]) -> bool {
    let comps: Vec<&str> = abs.split('/').filter(|c| !c.is_empty()).collect();
    let below = abs
        .strip_prefix(root)
        .filter(|r| r.is_empty() || r.starts_with('/'));
    if let Some(rel) = below {
        let rel: Vec<&str> = rel.split('/').filter(|c| !c.is_empty()).collect();
        if names::protected_components(&rel) {
            return true;
        }
    }
    // On the host, the person's files wherever the root is (a root that
    // is the home folder holds `.bashrc`).
    if host && names::home_protected(&comps) {
        return true;
    }
    names::protected_components(&comps) || extra.iter().any(|e| at_or_below(abs, e))
}

/// Is `abs` the path `p` or below it (each component compared as [`same`])?
fn at_or_below(abs: &str, p: &str) -> bool {
    let a: Vec<&str> = abs.split('/').filter(|c| !c.is_empty()).collect();
    let b: Vec<&str> = p.split('/').filter(|c| !c.is_empty()).collect();
    a.len() >= b.len()
        && a.iter()
            .zip(&b)
            .all(|(x, y)| same(x, &y.to_lowercase()) || x == y)
}

/// permc.toml's `protected` paths (SPEC §6.4), absolute: a relative one
/// is below the project root.
fn extra_paths(facts: &LineFacts, root: &str) -> Vec<String> {
    facts
        .project
        .as_ref()
        .map(|p| p.rows().protected())
        .unwrap_or_default()
        .iter()
        .map(|p| resolve(root, p))
        .collect()
}

impl Here<'_> {
    /// Could the directory part `dir` of a word (empty: the current
    /// directory) be the project root?
    fn may_be_root(&self, dir: &str, glob: bool) -> bool {
        let absolute = dir.starts_with('/');
        let has_glob = |c: &str| glob && has_glob(c);
        if has_glob(dir) {
            if absolute {
                return true;
            }
            let climbs = dir
                .split('/')
                .any(|c| has_glob(c) && (glob_matches(c, "..") || glob_matches(c, ".")));
            if climbs {
                return true;
            }
        }
        if !absolute && self.moved {
            return true;
        }
        // A glob component stands for a name no root holds.
        let dir: String = dir
            .split('/')
            .map(|c| if has_glob(c) { "\u{1}" } else { c })
            .collect::<Vec<_>>()
            .join("/");
        let at = if absolute {
            normalize(&dir)
        } else {
            resolve(self.cwd, &dir)
        };
        at == self.root
    }

    /// Does a written word begin with what the host may resolve to the
    /// person's own files: `~`, or an unknown part?
    fn host_unknown(&self, t: &str, known: Known) -> bool {
        self.host && (t.starts_with('~') || (known.is_unknown() && t.starts_with(['$', '`'])))
    }

    /// Does the text, a word or a value in it, name a protected path?
    /// `glob`: its `*`, `?` and `[` are unquoted (SPEC §4.4 item 4).
    fn names(&self, t: &str, glob: bool) -> bool {
        if t.is_empty() {
            return false;
        }
        if self.host && t.starts_with('~') {
            return true;
        }
        if self.in_protected && !t.starts_with('/') && !t.starts_with('-') {
            return true;
        }
        let marked = |b: u8| matches!(b, b'.' | b'*' | b'?' | b'[' | b'~' | b':') || b >= 0x80;
        if !t.bytes().any(marked)
            && !PROTECTED_DOTLESS.iter().any(|n| ends_with_component(t, n))
            && self.extra.is_empty()
            && !self.host
        {
            return false;
        }
        let comps: Vec<&str> = t
            .split('/')
            .filter(|c| !c.is_empty() && *c != ".")
            .collect();
        if glob && has_glob(t) {
            return self.glob_names(t, &comps);
        }
        if names::protected_components(&comps) {
            return true;
        }
        if comps.last().is_some_and(|l| *l == "..") {
            return false;
        }
        // Resolved: below a protected directory the cwd is in, one of
        // permc.toml's paths, the person's own files.
        let relative_after_move = self.moved && !t.starts_with('/');
        let abs = resolve(self.cwd, t);
        if path_is_protected(&abs, self.root, self.host, &self.extra) {
            return true;
        }
        let moved_to = self.dirs.iter().map(|d| resolve(d, t));
        if relative_after_move
            && moved_to
                .into_iter()
                .any(|a| path_is_protected(&a, self.root, self.host, &self.extra))
        {
            return true;
        }
        relative_after_move
            && (self.extra.iter().any(|e| {
                let rel = e.strip_prefix(self.root).unwrap_or(e);
                let rel = rel.trim_start_matches('/');
                !rel.is_empty() && (t.ends_with(rel) || t.contains(&format!("{rel}/")))
            }) || (self.host && t.contains("..") && names::home_protected(&comps)))
    }

    /// [`Here::names`] for a glob word.
    fn glob_names(&self, t: &str, comps: &[&str]) -> bool {
        let dir_named = comps.iter().any(|c| {
            if has_glob(c) {
                PROTECTED_DIRS.iter().any(|d| could_be(c, d))
            } else {
                protected_dir(c)
            }
        });
        if dir_named || could_be_dot_file(comps) {
            return true;
        }
        let Some(last) = comps.last() else {
            return false;
        };
        if !has_glob(last) {
            return names::protected_components(&comps[comps.len() - 1..]);
        }
        let trimmed = t.trim_end_matches('/');
        let dir = trimmed.rfind('/').map_or("", |k| &trimmed[..k + 1]);
        could_be_root_name(last) && self.may_be_root(dir, true)
    }

    /// Does the directory `d` lexically hold a protected path (SPEC §6.4):
    /// the project root or above it, a protected directory or below it,
    /// one of permc.toml's paths or above it?
    fn holds(&self, d: &str, known: Known) -> bool {
        if self.host_unknown(d, known) {
            return true;
        }
        if known.is_unknown() {
            return false;
        }
        let relative = !d.starts_with('/');
        if self.in_protected && relative {
            return true;
        }
        // After one move to a literal directory, both places the word may
        // be resolved from (the move may not have happened); after any
        // other move, wherever the shell may be.
        if self.moved && relative {
            return match &self.dirs[..] {
                [to] if self.moves == 1 => {
                    self.holds_at(&resolve(self.cwd, d)) || self.holds_at(&resolve(to, d))
                }
                _ => true,
            };
        }
        self.holds_at(&resolve(self.cwd, d))
    }

    /// Does the absolute path `abs` hold a protected path lexically: the
    /// project root or above it, a protected path or below one?
    fn holds_at(&self, abs: &str) -> bool {
        let above = |p: &str| p == abs || abs == "/" || p.starts_with(&format!("{abs}/"));
        above(self.root)
            || path_is_protected(abs, self.root, self.host, &self.extra)
            || self.extra.iter().any(|e| above(e))
    }
}

/// Programs that only read their operands (SPEC §6.4), by the run's
/// words from its verb on; `find` only without `-delete` and the options
/// that write a file, `git` only in its reading subcommands.
fn reads_only(words: &[Cow<'_, str>]) -> bool {
    let Some(verb) = words.first() else {
        return true;
    };
    let verb = basename(verb);
    if READS_ONLY.iter().any(|p| super::quick_eq(p, verb)) {
        return true;
    }
    if let Some((_, writing)) = READS_ONLY_UNLESS
        .iter()
        .find(|(p, _)| super::quick_eq(p, verb))
    {
        return !words[1..].iter().any(|w| writing.contains(&w.as_str()));
    }
    READING_SUBCOMMANDS
        .iter()
        .find(|(p, _)| super::quick_eq(p, verb))
        .is_some_and(|(p, reading)| {
            program_sub(p, words).is_some_and(|(sub, _)| reading.contains(&sub))
        })
}

/// `program`'s subcommand, past its global options, and the words after
/// it.
fn program_sub<'w>(
    program: &str,
    words: &'w [Cow<'w, str>],
) -> Option<(&'w str, &'w [Cow<'w, str>])> {
    let i = super::subcommand_at(program, words, 1, |_| true);
    let sub = words.get(i)?;
    Some((sub.as_str(), &words[i + 1..]))
}

/// The values a reading program writes (SPEC §6.4): `sort -o`, `tree -o`,
/// `--output` of git's and sort's.
fn written_values<'w>(words: &'w [Cow<'_, str>]) -> impl Iterator<Item = &'w str> {
    let verb = words.first().map_or("", |v| basename(v));
    let short_o = OUTPUT_OPTION_O.contains(&verb);
    words.iter().enumerate().skip(1).filter_map(move |(i, w)| {
        let next = || words.get(i + 1).map(AsStr::as_str);
        if let Some(v) = w.strip_prefix("--output=") {
            Some(v)
        } else if w == "--output" || (short_o && w == "-o") {
            next()
        } else if short_o && w.len() > 2 && w.starts_with("-o") {
            Some(&w[2..])
        } else {
            None
        }
    })
}

/// Does `git config` with these words (after `config`) set, add or remove
/// a key (SPEC §6.5's continuations)? Reading (`--get…`, `--list`, a key
/// alone) does not.
fn git_config_writes(rest: &[Cow<'_, str>]) -> bool {
    if git_config_reads(rest) {
        return false;
    }
    let mut operands = 0;
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        if GIT_CONFIG_WRITING_OPTIONS.contains(&w.as_str()) {
            return true;
        }
        if w.starts_with('-') {
            let valued = super::catalogue::git::GIT_CONFIG_VALUED_OPTIONS.contains(&w.as_str());
            i += if valued { 2 } else { 1 };
            continue;
        }
        if operands == 0 && GIT_CONFIG_WRITING_SUBCOMMANDS.contains(&w.as_str()) {
            return true;
        }
        operands += 1;
        i += 1;
    }
    operands >= 2
}

/// Does the run (from its verb) write git's configuration or its hooks?
fn git_writes_config(words: &[Cow<'_, str>]) -> bool {
    if words.first().map(|v| basename(v)) != Some(GIT) {
        return false;
    }
    match program_sub(GIT, words) {
        Some((GIT_CONFIG, rest)) => git_config_writes(rest),
        Some((sub, rest)) if GIT_TEMPLATE_SUBCOMMANDS.contains(&sub) => {
            rest.iter().any(|w| w.starts_with("--template"))
        }
        _ => false,
    }
}

/// Is the redirection an output one (SPEC §6.4: `>`, `>>`, `>|`, `<>`,
/// `&>`, `&>>`, `n>`…), to a file rather than a descriptor?
fn writes(r: &Redirect) -> bool {
    if !r.op.contains('>') {
        return false;
    }
    let dup = r.op.ends_with(">&");
    !(dup && (r.target == "-" || r.target.bytes().all(|b| b.is_ascii_digit())))
}

/// The script operand of `sed` and `awk` (no `-e`/`-f` given) is code,
/// not a path: its index among `words` (from the verb), if any.
fn script_operand(words: &[Cow<'_, str>]) -> Option<usize> {
    let verb = basename(words.first()?);
    if !SCRIPT_READERS.contains(&verb) {
        return None;
    }
    let mut i = 1;
    while let Some(w) = words.get(i) {
        if w == "--" {
            return Some(i + 1);
        }
        if matches!(w.as_str(), "-e" | "--expression" | "-f" | "--file")
            || w.starts_with("--expression=")
            || w.starts_with("--file=")
        {
            return None;
        }
        if !w.starts_with('-') {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The first protected path the line names (SPEC §6.4), shown as the word
/// or the redirection that names it; `None` when it names none. A
/// wholesale move of the worktree counts ([`protected_path_lifted`]
/// lifts them).
pub fn protected_path(facts: &LineFacts, scope: &Scope<'_>) -> Option<String> {
    protected_path_lifted(facts, scope, &|_, _| false)
}

/// **[round 4]** The wholesale move of the worktree that words name — an
/// allow entry's tokens or a segment's words — by its subcommand path,
/// shown (`git switch`, `git stash pop`, `gh pr checkout`): an allow
/// entry that names one lifts the protected-path check for those moves
/// (SPEC §6.4), so the analyzer reports it and always-allow never records
/// one. `None` for words that name no such subcommand (`git stash list`,
/// `git merge --abort`, `git restore`).
pub fn names_worktree_move(words: &[Cow<'_, str>]) -> Option<String> {
    let verb = basename(words.first()?);
    let (_, end) = writes::move_named(verb, words)?;
    let mut shown = vec![verb];
    shown.extend(words[1..end].iter().map(AsStr::as_str));
    Some(shown.join(" "))
}

/// [`protected_path`], where `lift` says which wholesale moves of the
/// worktree (`git switch REF`, `git stash pop`) an allow entry that names
/// the subcommand lifts (SPEC §6.4).
pub fn protected_path_lifted(
    facts: &LineFacts,
    scope: &Scope<'_>,
    lift: Lift<'_>,
) -> Option<String> {
    named_by(facts, scope, lift, true)
}

/// [`protected_path_lifted`]; `fast`: a line [`plain`] clears is answered
/// at once (the tests hold the two ways to the same answer).
fn named_by(facts: &LineFacts, scope: &Scope<'_>, lift: Lift<'_>, fast: bool) -> Option<String> {
    let root = scope.roots.first().map_or("/work", |r| &**r);
    let cwd = &*scope.cwd;
    let below = cwd
        .strip_prefix(root)
        .filter(|r| r.is_empty() || r.starts_with('/'))
        .unwrap_or(cwd);
    let in_protected = names_protected_dir(below, false);
    let host = scope.roots.len() == 1;
    let inner = facts.inner_lines.iter().map(|(_, l)| l);
    let lines = || std::iter::once(&facts.line).chain(inner.clone());
    // The fast path before the reading is built (most lines take it: no
    // `Here` to make and drop).
    let no_extra = || {
        facts
            .project
            .as_ref()
            .is_none_or(|p| p.rows().protected().is_empty())
    };
    if fast
        && facts.fed().is_empty()
        && !in_protected
        && no_extra()
        && plain(host, unmarked(facts), facts.line.segments.iter())
        && plain(host, false, inner.clone().flat_map(|l| &l.segments))
    {
        return None;
    }
    let mut here = Here {
        root,
        cwd,
        moved: false,
        moves: 0,
        dirs: Vec::new(),
        in_protected,
        host,
        extra: extra_paths(facts, root),
        backup_suffixes: Vec::new(),
        lift,
    };
    // Where the shell may be, and the backup suffixes, read off every
    // segment first (fail closed, whatever the order).
    for s in lines().flat_map(|l| &l.segments) {
        if let Some(k) = s.words.iter().position(|w| moves_dir(w)) {
            here.moved = true;
            here.moves += 1;
            let mut operand = s.words[k + 1..]
                .iter()
                .zip(s.known.get(k + 1..).unwrap_or_default());
            if let Some((w, _)) =
                operand.find(|(w, kn)| !w.starts_with('-') && **kn == Known::Exact)
            {
                here.dirs.push(resolve(cwd, w));
            }
            here.in_protected |= s
                .words
                .iter()
                .zip(&s.known)
                .any(|(w, k)| names_protected_dir(w, *k == Known::Glob));
        }
        here.backup_suffixes
            .extend(writes::backup_variables(&s.words));
    }
    for (i, s) in facts.line.segments.iter().enumerate() {
        let runs = || facts.runs_of(i).map(|r| (r.words, r.known));
        if let Some(shown) = segment(&here, &s.words, &s.known, &s.redirects, runs) {
            return Some(shown);
        }
        // The places it reads from a here-document or here-string (SPEC
        // §4.2 round 4: `tar -cf a.tar -T - <<'EOF'`).
        let fed = facts.fed().iter().filter(|(f, _, _)| *f == i);
        for (_, w, k) in fed {
            // An unquoted body's line is unknown, and its text still
            // what it names where it holds no expansion.
            let named = here.names(w, false) || here.host_unknown(w, *k);
            if named {
                return Some(w.to_string());
            }
        }
    }
    for (_, l) in &facts.inner_lines {
        for s in &l.segments {
            let v = verb_index(&s.words).unwrap_or(s.words.len());
            let run = (&s.words[v..], s.known.get(v..).unwrap_or_default());
            let runs = || std::iter::once(run);
            if let Some(shown) = segment(&here, &s.words, &s.known, &s.redirects, runs) {
                return Some(shown);
            }
        }
    }
    None
}

/// Most lines can name nothing: no redirection, no word that holds a `.`,
/// a `~`, a `:`, a glob character or a character past ASCII, no program
/// of the writes' rows, outside any protected directory (the caller's
/// check), no permc.toml path; on the host (`host`), no word with an
/// unknown part. Answered in one pass over the words.
fn plain<'l>(
    host: bool,
    unmarked: bool,
    mut segments: impl Iterator<Item = &'l crate::reader::Segment<'l>>,
) -> bool {
    segments.all(|s| {
        s.redirects.is_empty()
            && s.words.iter().zip(&s.known).all(|(w, k)| {
                let marks = if unmarked { 0 } else { marks_of(w) };
                quiet(host, w, *k, marks)
            })
    })
}

/// Did the plain reader prove that no word of the line holds a byte
/// [`BYTE_MARKS`] marks? It noted no path byte (`.`, `~`, `/`) and no
/// `:`, and it reads no glob character or byte past ASCII (a line with
/// one goes to the general reader, whose lines prove nothing): the
/// protected paths' fast path then reads no word's bytes (~5
/// instructions a byte).
fn unmarked(facts: &LineFacts) -> bool {
    let none = crate::reader::HAS_PATH_BYTE | crate::reader::HAS_COLON;
    facts.absent & none == none
}

/// What [`BYTE_MARKS`] marks in a word.
fn marks_of(w: &str) -> u8 {
    let mut marks = 0;
    for b in w.bytes() {
        marks |= BYTE_MARKS[usize::from(b)];
    }
    marks
}

/// What [`quiet`] makes of a byte: [`MARKED`] for a `.`, a glob
/// character, a `~`, a `:` or a byte past ASCII, [`SLASH`] for `/`. One
/// load a byte, where six compares were.
const BYTE_MARKS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0x80;
    while b < 256 {
        t[b] = MARKED;
        b += 1;
    }
    t[b'.' as usize] = MARKED;
    t[b'*' as usize] = MARKED;
    t[b'?' as usize] = MARKED;
    t[b'[' as usize] = MARKED;
    t[b'~' as usize] = MARKED;
    t[b':' as usize] = MARKED;
    t[b'/' as usize] = SLASH;
    t
};

const MARKED: u8 = 1;

const SLASH: u8 = 2;

/// The shapes of every word without a `/` that [`quiet`] names: the
/// writes' triggers, `config`, the template subcommands, and
/// [`PROTECTED_DOTLESS`] in any case of its ends (a word of another shape
/// is none of them: two loads, not a compare of each).
const NAMING: Shapes = {
    let mut t = writes::TRIGGERS;
    mark_shape(&mut t, GIT_CONFIG);
    let mut i = 0;
    while i < GIT_TEMPLATE_SUBCOMMANDS.len() {
        mark_shape(&mut t, GIT_TEMPLATE_SUBCOMMANDS[i]);
        i += 1;
    }
    let mut i = 0;
    while i < PROTECTED_DOTLESS.len() {
        let b = PROTECTED_DOTLESS[i].as_bytes();
        let (f, l) = (b[0], b[b.len() - 1]);
        let (fu, lu) = (f.to_ascii_uppercase(), l.to_ascii_uppercase());
        let (fl, ll) = (f.to_ascii_lowercase(), l.to_ascii_lowercase());
        mark_shape_of(&mut t, fl, ll, b.len());
        mark_shape_of(&mut t, fl, lu, b.len());
        mark_shape_of(&mut t, fu, ll, b.len());
        mark_shape_of(&mut t, fu, lu, b.len());
        i += 1;
    }
    t
};

/// Can the word alone name nothing (the fast path of [`plain`])? Every
/// protected name holds a `.` but [`PROTECTED_DOTLESS`]'s, an 8.3 name a
/// `~`, a look-alike a byte past ASCII. (A plain line's note that it
/// holds no `.` is not enough.)
/// `marks`: the word's [`marks_of`].
fn quiet(host: bool, w: &str, k: Known, marks: u8) -> bool {
    // A marked byte names something.
    if marks & MARKED != 0 {
        return false;
    }
    let unknown = host && k.is_unknown();
    // Most words: no `/`, not git's dashed form, and of no shape of
    // [`NAMING`] (an empty word is a trigger: the long way).
    if marks == 0
        && !unknown
        && !w.is_empty()
        && !w.starts_with(GIT_DASHED)
        && !has_shape(&NAMING, w)
    {
        return true;
    }
    if PROTECTED_DOTLESS.iter().any(|n| ends_with_component(w, n)) {
        return false;
    }
    // A `/` makes the word a path, whose last component may be a program
    // the rows read (`/usr/local/bin/pre-commit install`).
    let slash = marks & SLASH != 0;
    // git's dashed forms name their subcommand (`git-init --template`).
    let sub = w.strip_prefix(GIT_DASHED).unwrap_or(w);
    let named = unknown
        || sub == GIT_CONFIG
        || GIT_TEMPLATE_SUBCOMMANDS.contains(&sub)
        || writes::trigger(sub)
        || (sub.len() != w.len() && writes::trigger(w))
        || (slash && writes::trigger(basename(w)));
    !named
}

/// Is `name` the last component of `w`, ignoring case?
fn ends_with_component(w: &str, name: &str) -> bool {
    let (w, n) = (w.as_bytes(), name.as_bytes());
    w.len() >= n.len()
        && w[w.len() - n.len()..].eq_ignore_ascii_case(n)
        && (w.len() == n.len() || w[w.len() - n.len() - 1] == b'/')
}

/// One segment: its redirections, its runs' git configuration and
/// writes, its words. `runs` gives the words of each run of the segment
/// (read past wrappers), with what is known of them.
fn segment<'r, I: Iterator<Item = (&'r [Cow<'r, str>], &'r [Known])>>(
    here: &Here<'_>,
    words: &'r [Cow<'r, str>],
    known: &'r [Known],
    redirects: &[Redirect],
    runs: impl Fn() -> I,
) -> Option<String> {
    for r in redirects {
        let named = if r.known.is_unknown() {
            here.host_unknown(&r.target, r.known)
        } else {
            here.names(&r.target, r.known == Known::Glob)
        };
        if writes(r) && named {
            return Some(format!("{} {}", r.op, r.target));
        }
    }
    if let Some((run, _)) = runs().find(|(r, _)| git_writes_config(r)) {
        return Some(run.join(" "));
    }
    // A segment's leading assignments (`GIT_DIR=.git x`), then the words
    // of each run that may write; a reading program's only the values it
    // writes.
    let v = verb_index(words).unwrap_or(words.len());
    let assignments = words[..v].iter().zip(known);
    for (w, k) in assignments {
        if !k.is_unknown() && values(w).any(|t| here.names(t, *k == Known::Glob)) {
            return Some(w.to_string());
        }
    }
    let own = (
        &words[v.min(words.len())..],
        known.get(v..).unwrap_or_default(),
    );
    let none = runs().next().is_none();
    let every = || runs().chain(none.then_some(own));
    // The verb as written (`./.git/hooks/x`), as the words of a program
    // that may write.
    let writing = none || runs().any(|(r, _)| !reads_only(r));
    if let Some(verb) = words.get(v).filter(|w| writing && here.names(w, false)) {
        return Some(verb.to_string());
    }
    for (run, kn) in every() {
        let shown = if reads_only(run) {
            // The values the program's row types written, in every
            // spelling it reads (`sort --ou=F`, `sort -uoF`); a word the
            // row cannot place may be any of them.
            match super::described::written_values(run, kn) {
                Written::Values(values) => values
                    .into_iter()
                    .find(|v| here.names(v, true))
                    .map(str::to_string),
                Written::Unplaced => run_words(here, run, kn),
                Written::NoRow => written_values(run)
                    .find(|v| here.names(v, true))
                    .map(str::to_string),
            }
        } else {
            run_words(here, run, kn)
        };
        if shown.is_some() {
            return shown;
        }
    }
    // Then the writes that name no path as a word (after the words, so a
    // word that names one is what a person is shown).
    for (run, kn) in runs() {
        if let Some(shown) = writes::run_writes(here, run, kn) {
            return Some(shown);
        }
    }
    None
}

/// The words of a run that may write (SPEC §6.4): each, its `k=value`
/// value and an option's attached value, but not a pattern option's value
/// or sed's and awk's script.
fn run_words(here: &Here<'_>, run: &[Cow<'_, str>], known: &[Known]) -> Option<String> {
    let script = script_operand(run);
    let patterns = run
        .first()
        .and_then(|v| PATTERN_OPTIONS.iter().find(|(p, _)| *p == basename(v)))
        .map_or(&[][..], |(_, o)| *o);
    let writes_operands = run
        .first()
        .is_some_and(|v| WRITES_OPERANDS.contains(&basename(v)));
    let mut pattern_value = false;
    for (k, w) in run.iter().enumerate().skip(1) {
        let skip = std::mem::take(&mut pattern_value) || Some(k) == script;
        if let Some(o) = patterns.iter().find(|o| spells_option(w, o)) {
            pattern_value = w.len() == o.len();
            continue;
        }
        let kn = known.get(k).copied().unwrap_or_default();
        if skip {
            continue;
        }
        if kn.is_unknown() {
            if writes_operands && here.host_unknown(w, kn) {
                return Some(w.to_string());
            }
            continue;
        }
        let glob = kn == Known::Glob;
        if here.names(w, glob) || (has_value(w) && values(w).any(|t| here.names(t, glob))) {
            return Some(w.to_string());
        }
    }
    None
}

/// Does the word spell the option `o`: itself, or with an attached value
/// (`--exclude=x`, `-fx`)?
fn spells_option(w: &str, o: &str) -> bool {
    w == o
        || (o.starts_with("--") && w.strip_prefix(o).is_some_and(|r| r.starts_with('=')))
        || (o.len() == 2 && !o.starts_with("--") && w.starts_with(o) && !w.starts_with("--"))
}

/// Can the word hold a value ([`values`]): a `=`, or a single-dash option?
fn has_value(w: &str) -> bool {
    w.starts_with('-') || w.contains('=')
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {

    /// The fast path reads a word for a `.`: a protected file without one
    /// must be in the dotless list it checks.
    #[test]
    fn every_dotless_protected_file_is_listed_as_such() {
        for f in PROTECTED_FILES.iter().filter(|f| !f.contains('.')) {
            assert!(PROTECTED_DOTLESS.contains(f), "{f}");
        }
    }

    use super::*;
    use std::borrow::Cow;

    /// In a running container (two roots: the host's own files are not
    /// at stake), rooted at `/p` for the tests' brevity.
    fn at(line: &str, cwd: &str) -> Option<String> {
        let facts = LineFacts::of(line);
        let roots = [Cow::Borrowed("/p"), Cow::Borrowed("/tmp")];
        let scope = Scope {
            roots: Cow::Borrowed(&roots[..]),
            cwd: Cow::Borrowed(cwd),
        };
        protected_path(&facts, &scope)
    }

    /// On the host: one root.
    fn on_host(line: &str) -> Option<String> {
        let facts = LineFacts::of(line);
        let roots = [Cow::Borrowed("/p")];
        let scope = Scope {
            roots: Cow::Borrowed(&roots[..]),
            cwd: Cow::Borrowed("/p"),
        };
        protected_path(&facts, &scope)
    }

    fn named(line: &str) -> Option<String> {
        at(line, "/p")
    }

    #[test]
    fn names_made_from_a_prefix() {
        // split: PREFIX, a made part of letters or digits, the suffix.
        assert!(named("split -l1 -a1 --additional-suffix=s.json big permissio").is_some());
        assert!(named("split -l1 -a1 --add s.json big permissio").is_some());
        assert!(named("split -a4 -l 1 big permissions.").is_some());
        assert!(named("split -l10 -- big .git/x").is_some());
        assert!(named("split big .husky/").is_some());
        assert!(named("split -l 100 big.txt out/part-").is_none());
        assert!(named("split -d --additional-suffix=.csv -l 10 big part_").is_none());
        assert!(named("split big").is_none());
        // csplit: -f PREFIX, the made part a printf format.
        assert!(named("csplit -f permissions -b %.0d.json big 1").is_some());
        assert!(named("csplit -b %d/../.git/x big 1").is_some());
        assert!(named("csplit -f part- -b %02d.txt big 1").is_none());
        assert!(named("csplit big 1").is_none());
    }

    #[test]
    fn redirections() {
        assert_eq!(
            named("echo x >> .git/config").as_deref(),
            Some(">> .git/config")
        );
        assert!(named("echo '{}' > permissions.json").is_some());
        assert!(named("echo x > src/Permissions.JSON").is_some());
        assert!(named("cat > policy.permc").is_some());
        assert!(named("cat < permissions.json").is_none());
        assert!(named("echo x > .gitignore").is_none());
        assert!(named("echo x 2>&1 >/dev/null").is_none());
        assert!(named("bash -c 'echo x > .git/hooks/pre-commit'").is_some());
    }

    #[test]
    fn writing_programs() {
        assert!(named("cp x/permissions.json .").is_some());
        assert!(named("tee .git/config").is_some());
        assert!(named("rm -rf .gi?").is_some());
        assert!(named("sed -i s/a/b/ *.json").is_some());
        assert!(named("cd src && sed -i s/a/b/ ../*.json").is_some());
        assert!(named("sed -i 's/.*/x/' src/a.ts").is_none());
        assert!(named("rm *.log").is_none());
        assert!(named("rm -rf dist/*").is_none());
        assert!(named("sed -i s/a/b/ src/*.json").is_none());
        assert!(named("touch x.permc").is_some());
        assert!(named("rm *.perm?").is_some());
        assert!(named("cp a --target-directory=.git/hooks").is_some());
        assert!(named("cd .git && echo x > config").is_some());
        assert!(at("rm config", "/p/.git").is_some());
        assert!(at("cat HEAD", "/p/.git").is_none());
        assert!(named("sudo tee .git/config").is_some());
        assert!(named("mv a.json b.json").is_none());
        assert!(named("cp x permissions.json/./").is_some());
        let deep = format!("cp x a{}", "/.".repeat(100_000));
        assert!(named(&deep).is_none());
        assert!(named("rsync -av --exclude .git src/ dst/").is_none());
        assert!(named("tar --exclude=.git -czf a.tgz .").is_none());
        assert!(named("gh api repos/o/r/issues --paginate --jq .[].title").is_none());
    }

    #[test]
    fn reading_programs() {
        assert!(named("cat .git/HEAD").is_none());
        assert!(named("grep -r --exclude-dir=.git foo .").is_none());
        assert!(named("git log -- permissions.json").is_none());
        assert!(named("ls src/*.ts").is_none());
        assert!(named("ls *").is_none());
        assert!(named("find . -name .git -prune").is_none());
        assert!(named("find .git -delete").is_some());
        assert!(named("git log --output=permissions.json").is_some());
        assert!(named("sort -o permissions.json x").is_some());
        assert!(named("tree -o .git/x").is_some());
        assert!(named("find .git -exec rm {} +").is_some());
    }

    #[test]
    fn git_config() {
        assert!(named("git config user.name x").is_some());
        assert!(named("git config --global user.name x").is_some());
        assert!(named("git config --unset user.name").is_some());
        assert!(named("git config set user.name x").is_some());
        assert!(named("git config --get user.name").is_none());
        assert!(named("git config --list").is_none());
        assert!(named("git config user.name").is_none());
        assert!(named("git init --template=t").is_some());
        assert!(named("git clone --template t u").is_some());
        assert!(named("git status").is_none());
        assert!(named("git commit -m x").is_none());
    }

    #[test]
    fn names() {
        assert!(protected_name(".GIT"));
        assert!(protected_name("x.PERMC"));
        assert!(!protected_name(".gitignore"));
        assert!(could_end_as("*", ".permc"));
        assert!(could_end_as("a.per?c", ".permc"));
        assert!(!could_end_as("*.log", ".permc"));
        assert!(!could_be_root_name("*.log"));
        assert!(!could_end_as(".[].title", ".permc"));
        assert!(could_end_as("x.perm[a-z]", ".permc"));
        assert!(!could_end_as("x.perm\\*", ".permc"));
        assert!(could_be_root_name("*.json"));
        assert!(protected_name(".husky"));
        assert!(protected_name(".envrc"));
        assert!(protected_name("a.code-workspace"));
        assert!(!protected_name("tasks.json"));
    }

    #[test]
    fn round_4_names() {
        assert!(named("echo x > sub/.envrc").is_some());
        assert!(named("cp x a/.vscode/tasks.json").is_some());
        assert!(named("cp x/.envrc .").is_some());
        assert!(named("rm -rf .hus??").is_some());
        assert!(named("rm -rf .hus*").is_some());
        assert!(named("rm -rf .en?rc").is_some());
        assert!(named("tee .husky/pre-commit").is_some());
        assert!(named("echo x > .githooks/pre-push").is_some());
        assert!(named("echo x > .config/lefthook.yml").is_some());
        assert!(named("echo x > .lefthook-local.toml").is_some());
        assert!(named("echo x > w/my.code-workspace").is_some());
        assert!(named("echo x > .cargo/config.toml").is_some());
        assert!(named("echo x > ｐｅｒｍｉｓｓｉｏｎｓ.json").is_some());
        assert!(named("echo x > permissions.json.").is_some());
        assert!(named("echo x > GIT~1/config").is_some());
        assert!(named("echo x > X~1.PER").is_some());
        assert!(named("cat .husky/pre-commit").is_none());
        assert!(named("echo x > src/tasks.json").is_none());
        assert!(named("rm -rf dist/*").is_none());
        assert!(named("sed -i s/a/b/ src/*.json").is_none());
        assert!(named("rm -rf src/.*").is_some());
        assert!(named("cd .vscode && echo x > tasks.json").is_some());
        assert!(named("cd src && echo x > tasks.json").is_none());
        assert!(named("perl -pi.json -e '' permissions").is_some());
        assert!(named("git clean -fdx").is_some());
        assert!(named("git rm -r --cached .").is_none());
        assert!(named("git restore --source v1 .").is_some());
        assert!(named("git restore .").is_none());
    }

    #[test]
    fn on_the_host() {
        assert!(on_host("echo x >> ~/.bashrc").is_some());
        assert!(on_host("cp x ~/bin/x").is_some());
        assert!(on_host("echo x > \"$HOME/.zshrc\"").is_some());
        assert!(on_host("cp x /home/ana/.ssh/authorized_keys").is_some());
        assert!(on_host("cp x /home/ana/.config/git/config").is_some());
        assert!(on_host("cat ~/.bashrc").is_none());
        assert!(on_host("cp a b").is_none());
        assert!(named("echo x >> ~/.bashrc").is_none());
    }

    #[test]
    fn pattern_options_by_program() {
        assert!(named("tee --ignore-interrupts permissions.json").is_some());
        assert!(named("git rm --ignore-unmatch permissions.json").is_some());
        assert!(named("rsync -a --exclude .git src/ dst/").is_none());
    }

    #[test]
    fn backup_names() {
        assert!(named("sed -i.json 's/a/a/' permissions").is_some());
        assert!(named("sed -i'*t/hooks/pre-commit' -e '' .gi").is_some());
        assert!(named("cp -b -S .json x permissions").is_some());
        assert!(named("cp --suffix=rc x .env").is_some());
        // getopt_long's prefixes and clusters (found by
        // tests/corpus/described_coreutils.toml).
        assert!(named("mv --backup --suf=.json x permissions").is_some());
        assert!(named("mv -b --suff .json x permissions").is_some());
        assert!(named("cp -bS.json x permissions").is_some());
        assert!(named("ln -sbS .json x permissions").is_some());
        assert!(named("SIMPLE_BACKUP_SUFFIX=.json cp -b x permissions").is_some());
        assert!(named("patch -B .git/ a.txt < d.diff").is_some());
        assert!(named("sed -i.bak 's/a/b/' src/a.ts").is_none());
        assert!(named("cp -b x y").is_none());
    }

    #[test]
    fn pathspecs() {
        assert!(named("git rm ':(top)permissions.json'").is_some());
        assert!(named("git rm ':(icase)PERM*'").is_some());
        assert!(named("git rm 'permission?.json'").is_some());
        assert!(named("git checkout main -- '*.json'").is_some());
        assert!(named("git clean -fdx -- '*'").is_some());
        assert!(named("git add .").is_none());
        assert!(named("git rm src/a.ts").is_none());
        assert!(named("git rm ':!permissions.json'").is_none());
        assert!(named("git rm 'src/*.ts'").is_none());
    }

    #[test]
    fn directory_writes() {
        assert!(named("cp -r x/. .").is_some());
        assert!(named("rsync -a x/ ./").is_some());
        assert!(named("tar -xf a.tar").is_some());
        assert!(named("tar xzf a.tgz").is_some());
        assert!(named("unzip a.zip").is_some());
        assert!(at("unzip -: a.zip", "/p/src").is_some());
        assert!(at("tar -xPf a.tar", "/p/src").is_some());
        assert!(named("curl -OJ https://x").is_some());
        assert!(named("wget -r https://x").is_some());
        assert!(named("patch -p1 < d.diff").is_some());
        assert!(named("git apply d.diff").is_some());
        assert!(named("git hash-object -w x").is_some());
        assert!(at("cp a b", "/p/src").is_none());
        assert!(at("tar -xf a.tar", "/p/src").is_none());
        assert!(named("tar -tf a.tar").is_none());
        assert!(named("cp -r src dist").is_none());
        assert!(named("git apply --check d.diff").is_none());
        assert!(named("wget https://x/a.txt").is_none());
        assert!(named("unzip -l a.zip").is_none());
    }

    #[test]
    fn worktree_moves() {
        for line in [
            "git checkout main",
            "git switch main",
            "git reset --hard HEAD~1",
            "git stash",
            "git stash pop",
            "git stash apply",
            "git rebase main",
            "git merge main",
            "git cherry-pick abc",
            "git revert abc",
            "git pull",
            "gh pr checkout 12",
            "glab mr checkout 12",
            "git checkout -b new main",
        ] {
            assert!(named(line).is_some(), "{line}");
        }
        for line in [
            "git checkout -b new",
            "git switch -c new",
            "git branch new",
            "git reset HEAD~1",
            "git stash list",
            "git checkout -- src/a.ts",
            "git status",
        ] {
            assert!(named(line).is_none(), "{line}");
        }
        let facts = LineFacts::of("git switch main");
        let roots = [Cow::Borrowed("/p"), Cow::Borrowed("/tmp")];
        let scope = Scope {
            roots: Cow::Borrowed(&roots[..]),
            cwd: Cow::Borrowed("/p"),
        };
        assert!(
            protected_path_lifted(&facts, &scope, &|run, k| run[..k].join(" ") == "git switch")
                .is_none()
        );
    }

    #[test]
    fn find_placeholder() {
        assert!(named("find . -name pre-commit -exec cp e {} \\;").is_some());
        assert!(named("find src -name '*.ts' -exec sed -i 's/a/b/' {} +").is_none());
        assert!(named("find . -name '*.ts' -exec sed -i 's/a/b/' {} +").is_some());
        assert!(
            named("find . -path './.*' -prune -o -name '*.ts' -exec sed -i s/a/b/ {} +").is_none()
        );
        assert!(named("find . -name pre-commit -exec cat {} \\;").is_none());
        assert!(named("find src -name .envrc -exec rm {} +").is_some());
        assert!(named("find . -not -path './src/*' -exec rm {} +").is_some());
        assert!(on_host("for f in *.zip; do unzip -l \"$f\"; done").is_none());
        assert!(named("find .git -path '*/objects/pack/*' -name '*.pack' -exec rm {} +").is_none());
        assert!(named("find .git -name '*.sample' -exec rm {} +").is_some());
        assert!(named("find . -path '*/.git/hooks/*' -exec rm {} +").is_some());
    }

    proptest::proptest! {
        /// The fast path never answers a line the full reading would name
        /// a protected path in (`find build -delete` was cleared by it:
        /// no word held a `.`), on lines made of the words the rows read.
        #[test]
        fn the_fast_path_agrees(words in proptest::collection::vec(proptest::sample::select(&[
            "rm", "-rf", "-r", "--recur", "find", "-delete", "-exec", "{}", "+", ";", "cp",
            "-a", "tar", "xf", "-x", "-C", "rsync", "git", "switch", "checkout", "reset",
            "--hard", "stash", "pop", "config", "user.name", "apply", "unzip", "wget",
            "-m", "curl", "-J", "/p", "/p/src", "src", "build", "main", "x", "cd", "&&",
            "|", "sed", "-i", "mv", "ln", "-s", "touch", "chmod", "git-init", "init",
            "--template", "/", "..", "/tmp", "$D", "-b", "-S", "json", "-t", "-T", "patch",
            "am", "hash-object", "-w", "read-tree", "pushd", "install", "HOME", "p",
            "bsdtar", "-P", "xargs", "sh", "-c", "env", "gh", "pr", "restore", "--source",
            "split", "csplit", "-f", "--additional-suffix", "permissio", "%d", "-l1",
        ][..]), 1..8)) {
            let line = words.join(" ");
            let facts = LineFacts::of(&line);
            for roots in [&[Cow::Borrowed("/p")][..], &[Cow::Borrowed("/p"), Cow::Borrowed("/tmp")][..]] {
                for cwd in ["/p", "/p/src"] {
                    let scope = Scope {
                        roots: Cow::Borrowed(roots),
                        cwd: Cow::Borrowed(cwd),
                    };
                    let fast = named_by(&facts, &scope, &|_, _| false, true);
                    let full = named_by(&facts, &scope, &|_, _| false, false);
                    proptest::prop_assert_eq!(fast, full, "{} in {}", line, cwd);
                }
            }
        }
    }
}
