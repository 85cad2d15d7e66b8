//! Protected paths (SPEC §6.4): the rule files and git's own directory,
//! which change what runs or what is allowed later, on this machine or on
//! the person's.
//!
//! A segment *names a protected path* when an output redirection targets
//! one; when a program that may write is given a word (or a `k=value`
//! word's value, or an option's attached value) that has a `.git`
//! component, whose last component is a protected name, or that is a glob
//! which could expand to either (a rule file only in the project root); or
//! when it runs `git config` that writes a key, or `git init|clone
//! --template`. Programs that only read their operands are exempt, per
//! word: a value they write (`sort -o`, `git log --output`) still counts.
//!
//! **Where the shell is.** A word is resolved against the directory the
//! shell may be in. This reading is coarser than the scope's and fails
//! closed: once any segment of the line moves the directory (`cd`,
//! `pushd`, `popd`, anywhere), a relative glob may stand in the project
//! root; once a move's words name `.git` (or the cwd is below it), every
//! relative operand of a program that may write may be below `.git`.
//! Words with an unknown part are the scope's (§4.4), not this.
//!
//! **Globs.** A word the reader marks [`Known::Glob`] (an unquoted `*`,
//! `?` or `[…]`) may expand to a protected name; a quoted one is its text.
//! A value inside a reading program's word is taken as a glob (fail
//! closed).

use super::catalogue::builtins::moves_dir;
use super::catalogue::code::SCRIPT_READERS;
use super::catalogue::git::{
    GIT, GIT_CONFIG, GIT_CONFIG_WRITING_OPTIONS, GIT_CONFIG_WRITING_SUBCOMMANDS,
    GIT_TEMPLATE_SUBCOMMANDS,
};
use super::catalogue::paths::POLICY_SUFFIX;
pub use super::catalogue::paths::RULE_FILES;
use super::catalogue::paths::{
    OUTPUT_OPTION_O, READING_SUBCOMMANDS, READS_ONLY, READS_ONLY_UNLESS,
};
use super::glob::glob_matches;
use super::scope::values;
use super::wrappers::git_config_reads;
use super::{basename, normalize, resolve, verb_index, LineFacts, Scope};
use crate::reader::AsStr;
use crate::reader::{Known, Redirect};
use std::borrow::Cow;

/// Does the word hold a glob character (`*`, `?`, `[`)? Quoting is not
/// known here, so a quoted one counts too (see the module's notes).
fn has_glob(word: &str) -> bool {
    word.bytes().any(|b| matches!(b, b'*' | b'?' | b'['))
}

/// Is this one component a protected name, ignoring case?
pub fn protected_name(c: &str) -> bool {
    c.eq_ignore_ascii_case(".git")
        || RULE_FILES.iter().any(|n| c.eq_ignore_ascii_case(n))
        || (c.len() >= POLICY_SUFFIX.len()
            && c.is_char_boundary(c.len() - POLICY_SUFFIX.len())
            && c[c.len() - POLICY_SUFFIX.len()..].eq_ignore_ascii_case(POLICY_SUFFIX))
}

/// Could the glob component match `name` (ignoring case, as hosts that
/// fold case do)?
fn could_be(glob: &str, name: &str) -> bool {
    glob_matches(glob, name) || glob_matches(&glob.to_ascii_lowercase(), name)
}

/// Could the glob component match a name ending in `.permc`? Read from
/// the end: a `*` can stand for the rest, a `?` or a set `[…]` for any one
/// character (a set is not read: fail closed).
fn could_end_as_policy(glob: &str) -> bool {
    let g: Vec<char> = glob.chars().collect();
    let escaped = |k: usize| k > 0 && g[k - 1] == '\\';
    let mut i = g.len();
    for s in POLICY_SUFFIX.chars().rev() {
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

/// Could the glob component match a rule file's name?
fn could_be_rule_file(glob: &str) -> bool {
    RULE_FILES.iter().any(|n| could_be(glob, n)) || could_end_as_policy(glob)
}

/// Where the shell may be, for the whole line (see the module's notes).
struct Here<'s> {
    /// The project root, where the rule files are (`/work` in a container).
    root: &'s str,
    /// The (translated) cwd.
    cwd: &'s str,
    /// Some segment moves the directory.
    moved: bool,
    /// The shell may be below a `.git`.
    in_git: bool,
}

/// Does a word hold a `.git` component, or a glob component that could be
/// one?
pub fn names_git(t: &str, glob: bool) -> bool {
    // Without a glob, a component `.git` holds a `.` (most words: none).
    if !glob && !t.as_bytes().contains(&b'.') {
        return false;
    }
    t.split('/')
        .any(|c| c.eq_ignore_ascii_case(".git") || (glob && has_glob(c) && could_be(c, ".git")))
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

    /// Does the text, a word or a value in it, name a protected path?
    /// `glob`: its `*`, `?` and `[` are unquoted (SPEC §4.4 item 4).
    fn names(&self, t: &str, glob: bool) -> bool {
        let has_glob = |c: &str| glob && has_glob(c);
        if t.is_empty() {
            return false;
        }
        if self.in_git && !t.starts_with('/') && !t.starts_with('-') {
            return true;
        }
        if !t.bytes().any(|b| matches!(b, b'.' | b'*' | b'?' | b'[')) {
            return false;
        }
        if names_git(t, glob) {
            return true;
        }
        // `x/permissions.json/.` is the file itself: trailing `/` and `/.`
        // go (in a loop, never recursion: a word may be 256 KiB of them).
        let mut trimmed = t.trim_end_matches('/');
        while let Some(rest) = trimmed.strip_suffix("/.") {
            trimmed = rest.trim_end_matches('/');
        }
        let (dir, last) = match trimmed.rfind('/') {
            Some(k) => (&trimmed[..k + 1], &trimmed[k + 1..]),
            None => ("", trimmed),
        };
        if last == "." || last == ".." {
            // A folder (the current one, or a parent), no file.
            return false;
        }
        if !has_glob(last) {
            return protected_name(last);
        }
        could_be_rule_file(last) && self.may_be_root(dir, glob)
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
/// or the redirection that names it; `None` when it names none.
pub fn protected_path(facts: &LineFacts, scope: &Scope<'_>) -> Option<String> {
    let root = scope.roots.first().map_or("/work", |r| &**r);
    let cwd = &*scope.cwd;
    let below = cwd
        .strip_prefix(root)
        .filter(|r| r.is_empty() || r.starts_with('/'))
        .unwrap_or(cwd);
    let mut here = Here {
        root,
        cwd,
        moved: false,
        in_git: names_git(below, false),
    };
    let inner = facts.inner_lines.iter().map(|(_, l)| l);
    let lines = || std::iter::once(&facts.line).chain(inner.clone());
    // Most lines can name nothing: no redirection, no word that holds a
    // `.` or a glob character, no `git config|init|clone`, outside `.git`.
    // Answered in one pass over the words.
    // A plain line without a `.` holds neither (the plain reader reads no
    // glob character).
    let no_dot = facts.absent & crate::reader::HAS_DOT != 0;
    let plain = !here.in_git
        && lines().flat_map(|l| &l.segments).all(|s| {
            s.redirects.is_empty()
                && s.words.iter().all(|w| {
                    (no_dot || !w.bytes().any(|b| matches!(b, b'.' | b'*' | b'?' | b'[')))
                        && w != GIT_CONFIG
                        && !GIT_TEMPLATE_SUBCOMMANDS.contains(&w.as_str())
                })
        });
    if plain {
        return None;
    }
    // Where the shell may be, read off every segment first (fail closed,
    // whatever the order).
    for s in lines().flat_map(|l| &l.segments) {
        if s.words.iter().any(|w| moves_dir(w)) {
            here.moved = true;
            here.in_git |= s
                .words
                .iter()
                .zip(&s.known)
                .any(|(w, k)| names_git(w, *k == Known::Glob));
        }
    }
    for (i, s) in facts.line.segments.iter().enumerate() {
        let runs = || facts.runs_of(i).map(|r| r.words);
        if let Some(shown) = segment(&here, &s.words, &s.known, &s.redirects, runs) {
            return Some(shown);
        }
    }
    for (_, l) in &facts.inner_lines {
        for s in &l.segments {
            let run = verb_index(&s.words).map_or(&[][..], |v| &s.words[v..]);
            let runs = || std::iter::once(run);
            if let Some(shown) = segment(&here, &s.words, &s.known, &s.redirects, runs) {
                return Some(shown);
            }
        }
    }
    None
}

/// One segment: its redirections, its runs' git configuration, its words.
/// `runs` gives the words of each run of the segment (read past wrappers).
fn segment<'r, I: Iterator<Item = &'r [Cow<'r, str>]>>(
    here: &Here<'_>,
    words: &[Cow<'_, str>],
    known: &[Known],
    redirects: &[Redirect],
    runs: impl Fn() -> I,
) -> Option<String> {
    for r in redirects {
        if !r.known.is_unknown() && writes(r) && here.names(&r.target, r.known == Known::Glob) {
            return Some(format!("{} {}", r.op, r.target));
        }
    }
    if let Some(run) = runs().find(|r| git_writes_config(r)) {
        return Some(run.join(" "));
    }
    if runs().all(reads_only) {
        // Only the values these programs write.
        return runs()
            .flat_map(written_values)
            .find(|v| here.names(v, true))
            .map(str::to_string);
    }
    let v = verb_index(words).unwrap_or(0);
    let script = script_operand(&words[v..]).map(|k| v + k);
    let mut pattern_value = false;
    for (k, w) in words.iter().enumerate() {
        // The value of `--exclude`, `--include`, `--ignore…` is a pattern
        // of names to leave out or take, not a path written.
        let skip = std::mem::take(&mut pattern_value) || Some(k) == script;
        if is_pattern_option(w) {
            pattern_value = !w.contains('=');
            continue;
        }
        let kn = known.get(k).copied().unwrap_or_default();
        if skip || kn.is_unknown() {
            continue;
        }
        let glob = kn == Known::Glob;
        if here.names(w, glob) || (has_value(w) && values(w).any(|t| here.names(t, glob))) {
            return Some(w.to_string());
        }
    }
    None
}

/// An option whose value is a pattern of names (`rsync --exclude .git`,
/// `tar --exclude=.git`, `cp` has none).
fn is_pattern_option(w: &str) -> bool {
    ["--exclude", "--include", "--ignore"]
        .iter()
        .any(|o| w.starts_with(o))
}

/// Can the word hold a value ([`values`]): a `=`, or a single-dash option?
fn has_value(w: &str) -> bool {
    w.starts_with('-') || w.contains('=')
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn at(line: &str, cwd: &str) -> Option<String> {
        let facts = LineFacts::of(line);
        let roots = [Cow::Borrowed("/p")];
        let scope = Scope {
            roots: Cow::Borrowed(&roots[..]),
            cwd: Cow::Borrowed(cwd),
        };
        protected_path(&facts, &scope)
    }

    fn named(line: &str) -> Option<String> {
        at(line, "/p")
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
        assert!(could_end_as_policy("*"));
        assert!(could_end_as_policy("a.per?c"));
        assert!(!could_end_as_policy("*.log"));
        assert!(!could_be_rule_file("*.log"));
        assert!(!could_end_as_policy(".[].title"));
        assert!(could_end_as_policy("x.perm[a-z]"));
        assert!(!could_end_as_policy("x.perm\\*"));
        assert!(could_be_rule_file("*.json"));
    }
}
