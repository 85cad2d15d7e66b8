//! What a command line really does: the facts both engines read off a
//! request, independent of the rules (SPEC §4.3, §5.2, §6.1, §6.2).
//!
//! These are the spec's tables and per-request readings. They depend only
//! on the request, never on the number of rules, so the reference
//! interpreter and the compiled engine share them; the analyzer reads the
//! same tables ([`EXTERNAL_EFFECT`], [`PRIVILEGED`], [`BUILTIN_DENY`]).

use crate::request::{ExecutionMode, Request};
use permc_grammar::shell::{self, CommandLine, Segment};

/// The external-effect table (SPEC §6.1): a segment whose real words start
/// with one of these, token by token, has an effect outside the machine.
pub const EXTERNAL_EFFECT: &[&[&str]] = &[
    &["git", "push"],
    &["git", "merge"],
    &["git", "remote", "add"],
    &["git", "remote", "set-url"],
    &["gh", "pr", "create"],
    &["gh", "pr", "merge"],
    &["gh", "release", "create"],
    &["gh", "workflow", "run"],
    &["glab", "mr", "create"],
    &["glab", "mr", "merge"],
    &["glab", "release", "create"],
    &["glab", "ci", "run"],
    &["kubectl", "apply"],
    &["kubectl", "create"],
    &["kubectl", "delete"],
    &["kubectl", "patch"],
    &["kubectl", "replace"],
    &["kubectl", "rollout"],
    &["helm", "install"],
    &["helm", "upgrade"],
    &["helm", "uninstall"],
    &["terraform", "apply"],
    &["terraform", "destroy"],
    &["docker", "push"],
    &["npm", "publish"],
    &["pnpm", "publish"],
    &["yarn", "publish"],
    &["cargo", "publish"],
    &["twine", "upload"],
    &["gem", "push"],
];

/// Privileged verbs (SPEC §5 step 7b, with the [hardening] additions).
pub const PRIVILEGED: &[&str] = &["sudo", "doas", "su", "pkexec", "run0"];

/// The built-in deny patterns (SPEC §5.2).
pub const BUILTIN_DENY: &[&str] = &[
    "Terminal(rm -rf /)",
    "Terminal(rm -rf /*)",
    "Terminal(rm -fr /)",
];

/// Git's global options that take a value as the next word (SPEC §6.1).
const GIT_VALUE_OPTIONS: &[&str] = &["-C", "-c", "--git-dir", "--work-tree", "--namespace"];

/// Words that never count as outside the scope (SPEC §6.2), exactly.
pub const DEV_FILES: &[&str] = &["/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr"];

/// Protected merge targets (SPEC §5 step 7e).
pub const PROTECTED_BRANCHES: &[&str] = &["dev", "qa", "rc", "main"];

/// Inner command lines (`sh -c`, `eval`, `env -S`) nest at most this deep.
const MAX_INNER_DEPTH: usize = 8;

/// One command a segment really runs, read past wrappers (SPEC §4.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The words from the real verb on; the verb by its last path component.
    pub words: Vec<String>,
    /// A privileged wrapper (`sudo`, `doas`) was read past, or the verb is
    /// privileged itself.
    pub privileged: bool,
    /// The privileged verb, when there is one (`sudo`, `su`…).
    pub privileged_via: Option<&'static str>,
}

/// The facts of one terminal command line.
#[derive(Debug, Clone, Default)]
pub struct LineFacts {
    /// The line as read (SPEC §4).
    pub line: CommandLine,
    /// Every real command: one per segment, plus those of inner lines.
    pub runs: Vec<Run>,
    /// Segments of inner lines (`bash -c '…'`), checked for scope too.
    pub inner_segments: Vec<Segment>,
    /// The line, or an inner line, is unparsed (SPEC §4.2).
    pub unparsed: bool,
}

impl LineFacts {
    /// Reads a command line and everything it runs.
    pub fn of(command: &str) -> LineFacts {
        let line = shell::read(command);
        let mut facts = LineFacts {
            unparsed: line.is_unparsed(),
            ..LineFacts::default()
        };
        for seg in &line.segments {
            collect_runs(&seg.words, 0, &mut facts);
        }
        facts.line = line;
        facts
    }

    /// The first built-in deny pattern a run matches (SPEC §5.2).
    pub fn builtin_deny(&self) -> Option<&'static str> {
        self.runs.iter().find_map(|r| builtin_deny(&r.words))
    }

    /// The first external-effect entry a run matches (SPEC §6.1).
    pub fn external_effect(&self) -> Option<&'static [&'static str]> {
        self.runs.iter().find_map(|r| external_effect(&r.words))
    }

    /// The first privileged run (SPEC §5 step 7b).
    pub fn privileged(&self) -> Option<&Run> {
        self.runs.iter().find(|r| r.privileged)
    }
}

/// The last path component of a command word (`/usr/bin/git` → `git`).
pub fn basename(word: &str) -> &str {
    if word.contains('/') {
        word.rsplit('/').find(|c| !c.is_empty()).unwrap_or(word)
    } else {
        word
    }
}

/// `NAME=value` with a valid name.
pub fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            let mut b = name.bytes();
            b.next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
                && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
        }
        None => false,
    }
}

fn is_option(word: &str) -> bool {
    word.starts_with('-') && word != "-"
}

/// Skips option words from `i`; `takes_value` names the options whose
/// value is the next word when not attached. Returns the first non-option.
fn skip_options(words: &[String], mut i: usize, takes_value: &[&str]) -> usize {
    while let Some(w) = words.get(i) {
        if w == "--" {
            return i + 1;
        }
        if !is_option(w) {
            break;
        }
        i += if takes_value.contains(&w.as_str()) {
            2
        } else {
            1
        };
    }
    i
}

/// Reads past wrappers (SPEC §4.3) and records the runs of `words`.
fn collect_runs(words: &[String], depth: usize, facts: &mut LineFacts) {
    let mut i = 0;
    let mut privileged_via: Option<&'static str> = None;
    loop {
        while words.get(i).is_some_and(|w| is_assignment(w)) {
            i += 1;
        }
        let Some(word) = words.get(i) else { break };
        match basename(word) {
            "env" => {
                i += 1;
                while let Some(w) = words.get(i) {
                    if w == "--" {
                        i += 1;
                        break;
                    }
                    if is_assignment(w) {
                        i += 1;
                        continue;
                    }
                    if !is_option(w) {
                        break;
                    }
                    if w == "-S" || w == "--split-string" {
                        if let Some(s) = words.get(i + 1) {
                            inner_line(s, depth, facts);
                        }
                        i += 2;
                    } else if let Some(s) = w.strip_prefix("--split-string=") {
                        inner_line(s, depth, facts);
                        i += 1;
                    } else if w.starts_with("-S") && !w.starts_with("--") {
                        inner_line(&w[2..], depth, facts);
                        i += 1;
                    } else if ["-u", "-C", "--unset", "--chdir"].contains(&w.as_str()) {
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
            }
            v @ ("sudo" | "doas") => {
                privileged_via.get_or_insert(if v == "sudo" { "sudo" } else { "doas" });
                i = skip_options(
                    words,
                    i + 1,
                    &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U"],
                );
            }
            "command" | "builtin" | "exec" | "nohup" | "setsid" | "time" => {
                i = skip_options(words, i + 1, &[]);
            }
            "nice" => i = skip_options(words, i + 1, &["-n"]),
            "timeout" => {
                i = skip_options(words, i + 1, &["-s", "-k"]);
                // The duration.
                if words.get(i).is_some() {
                    i += 1;
                }
            }
            "stdbuf" => i = skip_options(words, i + 1, &["-i", "-o", "-e"]),
            "xargs" => {
                i = skip_options(
                    words,
                    i + 1,
                    &["-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a"],
                );
            }
            "sh" | "bash" | "zsh" | "dash" | "ksh" => {
                let mut j = i + 1;
                let mut has_c = false;
                while let Some(w) = words.get(j) {
                    if w == "--" || !is_option(w) {
                        break;
                    }
                    if !w.starts_with("--") && w.contains('c') {
                        has_c = true;
                    }
                    j += 1;
                }
                if has_c {
                    if let Some(s) = words.get(j) {
                        inner_line(s, depth, facts);
                    }
                }
                break;
            }
            "eval" => {
                let rest = words.get(i + 1..).unwrap_or_default();
                if !rest.is_empty() {
                    inner_line(&rest.join(" "), depth, facts);
                }
                break;
            }
            _ => break,
        }
    }
    let rest = words.get(i..).unwrap_or_default();
    let mut run: Vec<String> = Vec::with_capacity(rest.len());
    if let Some(first) = rest.first() {
        run.push(basename(first).to_string());
        run.extend(rest[1..].iter().cloned());
    }
    if privileged_via.is_none() {
        privileged_via = run
            .first()
            .and_then(|v| PRIVILEGED.iter().copied().find(|p| p == v));
    }
    facts.runs.push(Run {
        words: run,
        privileged: privileged_via.is_some(),
        privileged_via,
    });
}

/// A string run as a command line of its own (`sh -c`, `eval`, `env -S`).
fn inner_line(src: &str, depth: usize, facts: &mut LineFacts) {
    if depth >= MAX_INNER_DEPTH {
        facts.unparsed = true;
        return;
    }
    let line = shell::read(src);
    if line.is_unparsed() {
        facts.unparsed = true;
    }
    for seg in line.segments {
        collect_runs(&seg.words, depth + 1, facts);
        facts.inner_segments.push(seg);
    }
}

/// Is this run one of the built-in denies (SPEC §5.2)? Returns the built-in
/// pattern it counts as.
pub fn builtin_deny(words: &[String]) -> Option<&'static str> {
    if words.first().map(String::as_str) != Some("rm") {
        return None;
    }
    // The literal patterns, as token prefixes.
    for (pattern, tokens) in [
        (BUILTIN_DENY[0], ["rm", "-rf", "/"]),
        (BUILTIN_DENY[1], ["rm", "-rf", "/*"]),
        (BUILTIN_DENY[2], ["rm", "-fr", "/"]),
    ] {
        if words.len() >= 3 && words.iter().zip(tokens).all(|(w, t)| w == t) {
            return Some(pattern);
        }
    }
    // [hardening] Any recursive + force rm of `/` or `/*`.
    let (mut recursive, mut force) = (false, false);
    let mut root = None;
    let mut options_done = false;
    for w in &words[1..] {
        if !options_done && w == "--" {
            options_done = true;
        } else if !options_done && w.starts_with("--") {
            match w.as_str() {
                "--recursive" => recursive = true,
                "--force" => force = true,
                _ => {}
            }
        } else if !options_done && is_option(w) {
            recursive |= w.contains('r') || w.contains('R');
            force |= w.contains('f');
        } else if root.is_none() {
            root = root_operand(w);
        }
    }
    if recursive && force {
        root
    } else {
        None
    }
}

/// `/` or `/*` (lexically: `//`, `/.`, `/./*` too) → the built-in it is.
fn root_operand(w: &str) -> Option<&'static str> {
    if !w.starts_with('/') {
        return None;
    }
    if normalize(w) == "/" {
        return Some(BUILTIN_DENY[0]);
    }
    match w.strip_suffix('*') {
        Some(dir) if dir.ends_with('/') && normalize(dir) == "/" => Some(BUILTIN_DENY[1]),
        _ => None,
    }
}

/// Does this run start with an external-effect entry (SPEC §6.1)? Option
/// words between the tool and its subcommand are read past: git's global
/// options with their values (SPEC §6.1), and for the other tools any
/// option, with one value word when written without `=` **[hardening]**.
pub fn external_effect(words: &[String]) -> Option<&'static [&'static str]> {
    let verb = words.first()?;
    let mut i = 1;
    let is_git = verb == "git";
    while let Some(w) = words.get(i) {
        if !is_option(w) || w == "--" {
            break;
        }
        let takes_value = if is_git {
            GIT_VALUE_OPTIONS.contains(&w.as_str())
        } else {
            !w.contains('=')
        };
        // The value word is skipped only when the word after it is not the
        // subcommand itself (`kubectl --v apply`).
        if takes_value && words.get(i + 1).is_some_and(|n| !is_option(n)) {
            let next_is_sub = EXTERNAL_EFFECT
                .iter()
                .any(|e| e[0] == verb && words.get(i + 1).map(String::as_str) == Some(e[1]));
            if is_git || !next_is_sub {
                i += 2;
                continue;
            }
        }
        i += 1;
    }
    let rest = &words[i.min(words.len())..];
    EXTERNAL_EFFECT.iter().copied().find(|e| {
        e[0] == verb && rest.len() >= e.len() - 1 && e[1..].iter().zip(rest).all(|(a, b)| a == b)
    })
}

/// Lexical normalization of an absolute path (SPEC §6.2): repeated slashes
/// fold, `.` drops, `..` pops (never above `/`), trailing slashes trim.
/// Linear time.
pub fn normalize(path: &str) -> String {
    // Most paths are already normal: one byte scan, one copy.
    if is_normal(path) {
        return path.to_string();
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    let mut out = String::with_capacity(path.len());
    for p in &parts {
        out.push('/');
        out.push_str(p);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// Is `path` what [`normalize`] would return for it: absolute, no empty,
/// `.` or `..` component, no trailing slash (except `/` itself)?
fn is_normal(path: &str) -> bool {
    let b = path.as_bytes();
    if b.first() != Some(&b'/') {
        return false;
    }
    let mut start = 1;
    for i in 1..=b.len() {
        if i == b.len() || b[i] == b'/' {
            let c = &b[start..i];
            if (c.is_empty() && b.len() > 1) || c == b"." || c == b".." {
                return false;
            }
            start = i + 1;
        }
    }
    true
}

/// Joins a relative path to a directory and normalizes.
pub fn resolve(dir: &str, word: &str) -> String {
    if word.starts_with('/') {
        normalize(word)
    } else {
        let mut s = String::with_capacity(dir.len() + word.len() + 1);
        s.push_str(dir);
        s.push('/');
        s.push_str(word);
        normalize(&s)
    }
}

/// The scope of a terminal request (SPEC §6.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// Normalized roots.
    pub roots: Vec<String>,
    /// The (translated, normalized) cwd.
    pub cwd: String,
}

impl Scope {
    /// The scope of a request; `None` without a projectScopeRoot.
    pub fn of(req: &Request) -> Option<Scope> {
        let root = normalize(req.context.project_scope_root.as_deref()?);
        let cwd = match req.action.cwd.as_deref() {
            None | Some("") => root.clone(),
            Some(c) => resolve(&root, c),
        };
        let in_container = matches!(
            req.context.execution_mode,
            ExecutionMode::Container | ExecutionMode::Mounted
        ) && req.context.container_running;
        if in_container {
            let cwd = if cwd == root {
                "/work".to_string()
            } else if root == "/" {
                ["/work", cwd.as_str()].concat()
            } else if let Some(rest) = cwd.strip_prefix(&root).filter(|r| r.starts_with('/')) {
                ["/work", rest].concat()
            } else {
                cwd
            };
            Some(Scope {
                roots: vec!["/work".into(), "/tmp".into()],
                cwd,
            })
        } else {
            Some(Scope {
                roots: vec![root],
                cwd,
            })
        }
    }

    /// Is a normalized absolute path inside a root?
    pub fn contains(&self, path: &str) -> bool {
        self.roots.iter().any(|r| {
            path == r
                || r == "/"
                || (path.len() > r.len()
                    && path.starts_with(r.as_str())
                    && path.as_bytes()[r.len()] == b'/')
        })
    }
}

/// `scopeRoot` of a decision (SPEC §6.3): mode and the root's last component.
pub fn scope_root_label(req: &Request) -> Option<String> {
    let raw = req.context.project_scope_root.as_deref()?;
    // Borrowed when already normal: this runs for every decision.
    let root: std::borrow::Cow<'_, str> = if is_normal(raw) {
        raw.into()
    } else {
        normalize(raw).into()
    };
    let last = root
        .rsplit('/')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or("/");
    Some([req.context.execution_mode.name(), ":", last].concat())
}

/// The scope reading of a command line (SPEC §6.2).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopeReport {
    /// The first word (or the cwd) found outside, if any.
    pub outside: Option<String>,
    /// Per segment of the line: a `cd` whose target is inside.
    pub cd_inside: Vec<bool>,
}

/// Where a checked word points, if it is checked at all.
enum Checked {
    /// Not a path we check.
    No,
    /// Cannot be known without expansion: outside.
    Unknowable,
    /// A path to resolve.
    Path,
}

fn classify_word(w: &str) -> Checked {
    if w.starts_with('~') || (w.starts_with('$') && w.contains('/')) {
        Checked::Unknowable
    } else if w.starts_with('/')
        // A `..` component needs two dots in a row: a byte scan first keeps
        // the split off the hot path (most words have none).
        || (w.as_bytes().windows(2).any(|p| p == b"..") && w.split('/').any(|c| c == ".."))
    {
        Checked::Path
    } else {
        Checked::No
    }
}

/// The first verb word after assignments.
pub fn verb_index(words: &[String]) -> Option<usize> {
    words.iter().position(|w| !is_assignment(w))
}

/// The target of a `cd` segment: `None` when it has none (or `-`).
pub fn cd_target(words: &[String]) -> Option<Option<&str>> {
    let v = verb_index(words)?;
    if words[v] != "cd" {
        return None;
    }
    let i = skip_options(words, v + 1, &[]);
    Some(words.get(i).map(String::as_str).filter(|t| *t != "-"))
}

impl Scope {
    /// Checks every segment's words and redirection targets, and reads the
    /// `cd` segments (SPEC §6.2 with its [hardening] notes).
    pub fn check(&self, facts: &LineFacts) -> ScopeReport {
        let mut report = ScopeReport::default();
        if !self.contains(&self.cwd) {
            report.outside = Some(self.cwd.clone());
        }
        // `dir` is None after a cd to an unknowable place.
        let mut dir = Some(self.cwd.clone());
        let segments = facts.line.segments.iter().chain(&facts.inner_segments);
        for (n, seg) in segments.enumerate() {
            let mut cd_inside = false;
            // A cd sets the directory for *later* segments; its own words
            // resolve against the directory before it (SPEC §6.2). `None`:
            // no cd, the directory stays (no clone per segment).
            let mut next_dir: Option<Option<String>> = None;
            if let Some(target) = cd_target(&seg.words) {
                let resolved = match target {
                    Some(t) if !t.starts_with('~') && !t.contains('$') && !t.contains('`') => {
                        dir.as_deref().map(|d| resolve(d, t))
                    }
                    _ => None,
                };
                match &resolved {
                    Some(p) if self.contains(p) => cd_inside = true,
                    Some(p) => self.note(&mut report, target.unwrap_or(p)),
                    None => self.note(&mut report, target.unwrap_or("cd")),
                }
                next_dir = Some(resolved);
            }
            if n < facts.line.segments.len() {
                report.cd_inside.push(cd_inside);
            }
            let words = seg.words.iter().map(String::as_str);
            let targets = seg.redirects.iter().map(|r| r.target.as_str());
            for w in words.chain(targets) {
                self.check_word(w, dir.as_deref(), &mut report);
                if let Some(value) = w
                    .strip_prefix('-')
                    .and_then(|_| w.split_once('='))
                    .map(|(_, v)| v)
                {
                    self.check_word(value, dir.as_deref(), &mut report);
                }
            }
            if let Some(d) = next_dir {
                dir = d;
            }
        }
        report
    }

    fn note(&self, report: &mut ScopeReport, word: &str) {
        if report.outside.is_none() {
            report.outside = Some(word.to_string());
        }
    }

    fn check_word(&self, w: &str, dir: Option<&str>, report: &mut ScopeReport) {
        match classify_word(w) {
            Checked::Unknowable => self.note(report, w),
            Checked::Path => {
                let p = if w.starts_with('/') {
                    Some(normalize(w))
                } else {
                    dir.map(|d| resolve(d, w))
                };
                match p {
                    Some(p) if self.contains(&p) || DEV_FILES.contains(&p.as_str()) => {}
                    _ => self.note(report, w),
                }
            }
            Checked::No => {
                // After a cd to an unknowable place, relative words are
                // outside ([hardening]).
                if dir.is_none() && !w.is_empty() {
                    self.note(report, w);
                }
            }
        }
    }
}

/// Is this merge target protected (SPEC §5 step 7e)?
pub fn protected_branch(target: Option<&str>) -> bool {
    match target {
        None => true,
        Some(t) => {
            let t = t.strip_prefix("refs/heads/").unwrap_or(t);
            t.is_empty() || PROTECTED_BRANCHES.contains(&t)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn wrappers_are_read_past() {
        let f = LineFacts::of("sudo -u root env A=1 timeout -s KILL 5 /usr/bin/git -C /tmp push");
        assert_eq!(f.runs[0].words, w("git -C /tmp push"));
        assert!(f.runs[0].privileged);
        assert_eq!(f.external_effect(), Some(&["git", "push"][..]));
        let f = LineFacts::of("bash -lc 'rm -rf /'");
        assert_eq!(f.builtin_deny(), Some("Terminal(rm -rf /)"));
        let f = LineFacts::of("find . | xargs -n 1 rm -fr /*");
        assert_eq!(f.builtin_deny(), Some("Terminal(rm -rf /*)"));
        assert!(LineFacts::of("eval git push").external_effect().is_some());
        assert!(LineFacts::of("env -S 'git push'")
            .external_effect()
            .is_some());
    }

    #[test]
    fn builtins() {
        for c in [
            "rm -rf /",
            "rm -fr /",
            "rm -r -f /",
            "rm --recursive --force /*",
            "rm -Rfi /",
            "rm / -rf",
            "rm -rf -- /",
            "rm -rf //",
        ] {
            assert!(builtin_deny(&w(c)).is_some(), "{c}");
        }
        for c in [
            "rm -rf /home",
            "rm -r /",
            "rm -f /",
            "rm -rf ./",
            "rmdir -rf /",
        ] {
            assert!(builtin_deny(&w(c)).is_none(), "{c}");
        }
    }

    #[test]
    fn external() {
        for c in [
            "git push",
            "git -C x push origin",
            "git --no-pager -c a=b push",
            "kubectl -n prod apply -f x",
            "gh -R o/r pr create",
            "git remote add o u",
        ] {
            assert!(external_effect(&w(c)).is_some(), "{c}");
        }
        for c in ["git status", "git remote -v", "gh pr list", "git log push"] {
            assert!(external_effect(&w(c)).is_none(), "{c}");
        }
    }

    #[test]
    fn normalization_fast_path_agrees() {
        // Every string up to 7 bytes over `/`, `.`, `a`: the fast path must
        // return exactly what the component walk returns.
        fn slow(path: &str) -> String {
            let mut parts: Vec<&str> = Vec::new();
            for c in path.split('/') {
                match c {
                    "" | "." => {}
                    ".." => {
                        parts.pop();
                    }
                    c => parts.push(c),
                }
            }
            let out: String = parts.iter().map(|p| format!("/{p}")).collect();
            if out.is_empty() {
                "/".into()
            } else {
                out
            }
        }
        let mut layer = vec![String::new()];
        for _ in 0..7 {
            let mut next = Vec::new();
            for s in &layer {
                for c in ['/', '.', 'a'] {
                    let t = format!("{s}{c}");
                    assert_eq!(normalize(&t), slow(&t), "{t:?}");
                    next.push(t);
                }
            }
            layer = next;
        }
    }

    #[test]
    fn normalization() {
        assert_eq!(normalize("/a//b/./c/../d/"), "/a/b/d");
        assert_eq!(normalize("/../.."), "/");
        assert_eq!(normalize(&"/".repeat(200_000)), "/");
    }
}
