//! The path scope of a command line (SPEC §6.2 with its [hardening] notes,
//! §4.4 item 4).
//!
//! **Linear time.** Directories are nodes of one arena, each a component
//! with its parent: a `cd` pushes or pops nodes, a group (a subshell, a
//! pipeline element) shares its parent's node instead of copying a path,
//! and each node knows whether the path it ends is inside each root. So a
//! word costs O(its length + the roots' depth), whatever the directories
//! the line went through: a 256 KiB line of `cd x;` is linear.

use super::{is_assignment, skip_options, verb_index, LineFacts, Scope, DEV_FILES};
use permc_grammar::shell::{CommandLine, Known, Segment};

/// The scope reading of a command line (SPEC §6.2).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopeReport {
    /// The first word (or the cwd) found outside, if any.
    pub outside: Option<String>,
    /// Per segment of the line: a `cd` whose target is inside.
    pub cd_inside: Vec<bool>,
}

/// One directory: a component below its parent (node 0 is `/`).
struct Node {
    parent: u32,
    depth: u32,
    /// The path is, per root, inside it or on its way (a prefix of the
    /// root's components matches so far).
    on_root: Vec<bool>,
    /// The component, for the `/dev/…` comparison.
    name: Box<str>,
}

struct Dirs<'s> {
    nodes: Vec<Node>,
    roots: Vec<Vec<&'s str>>,
}

impl<'s> Dirs<'s> {
    fn new(scope: &'s Scope) -> Dirs<'s> {
        let roots: Vec<Vec<&str>> = scope
            .roots
            .iter()
            .map(|r| r.split('/').filter(|c| !c.is_empty()).collect())
            .collect();
        Dirs {
            nodes: vec![Node {
                parent: 0,
                depth: 0,
                on_root: vec![true; roots.len()],
                name: "".into(),
            }],
            roots,
        }
    }

    /// The node of `word` resolved against `dir` (absolute words from `/`).
    fn walk(&mut self, dir: u32, word: &str) -> u32 {
        let mut n = if word.starts_with('/') { 0 } else { dir };
        for c in word.split('/') {
            match c {
                "" | "." => {}
                ".." => n = self.nodes[n as usize].parent,
                name => {
                    let p = &self.nodes[n as usize];
                    let depth = p.depth as usize;
                    let on_root = self
                        .roots
                        .iter()
                        .zip(&p.on_root)
                        .map(|(r, ok)| *ok && (depth >= r.len() || r[depth] == name))
                        .collect();
                    self.nodes.push(Node {
                        parent: n,
                        depth: p.depth + 1,
                        on_root,
                        name: name.into(),
                    });
                    n = (self.nodes.len() - 1) as u32;
                }
            }
        }
        n
    }

    fn inside(&self, n: u32) -> bool {
        let node = &self.nodes[n as usize];
        self.roots
            .iter()
            .zip(&node.on_root)
            .any(|(r, ok)| *ok && node.depth as usize >= r.len())
    }

    /// Is the node one of the four `/dev` files that are never outside?
    fn dev_file(&self, n: u32) -> bool {
        let node = &self.nodes[n as usize];
        let parent = &self.nodes[node.parent as usize];
        node.depth == 2
            && &*parent.name == "dev"
            && DEV_FILES
                .iter()
                .any(|d| d.rsplit('/').next() == Some(&*node.name))
    }
}

/// Where a segment moves the directory.
enum Move<'w> {
    /// `cd`/`pushd` to this word.
    To(&'w str, Known),
    /// Somewhere permc cannot know: `cd` without operand, `cd -`, `popd`,
    /// a `cd` while `CDPATH` is assigned.
    Unknowable(&'static str),
}

/// The directory move of a segment, if it is `cd`, `pushd` or `popd`.
fn dir_move<'w>(seg: &'w Segment, cdpath: bool) -> Option<Move<'w>> {
    let v = verb_index(&seg.words)?;
    let verb = seg.words[v].as_str();
    if seg.known.get(v).is_some_and(|k| *k != Known::Exact) {
        return None;
    }
    match verb {
        "cd" | "pushd" => {
            if cdpath || seg.words[..v].iter().any(|w| w.starts_with("CDPATH")) {
                return Some(Move::Unknowable("a `cd` while CDPATH is assigned"));
            }
            let i = skip_options(&seg.words, v + 1, &[]);
            match seg.words.get(i) {
                None => Some(Move::Unknowable("`cd` without a directory goes home")),
                Some(t) if t == "-" => Some(Move::Unknowable("`cd -` goes back")),
                Some(t) if verb == "pushd" && (t.starts_with('+') || t.starts_with('-')) => {
                    Some(Move::Unknowable("`pushd` rotates the stack"))
                }
                Some(t) => Some(Move::To(
                    t,
                    seg.known.get(i).copied().unwrap_or(Known::Exact),
                )),
            }
        }
        "popd" => Some(Move::Unknowable("`popd` goes back")),
        _ => None,
    }
}

/// The values a word holds that the scope checks besides the word itself:
/// after the first `=`, and attached to a one-letter option.
fn values(w: &str) -> impl Iterator<Item = &str> {
    let eq = w.split_once('=').map(|(_, v)| v);
    let attached =
        (w.len() > 2 && w.starts_with('-') && !w.starts_with("--") && w.is_char_boundary(2))
            .then(|| &w[2..]);
    eq.into_iter().chain(attached)
}

/// Is this text a path the scope checks (SPEC §6.2)?
fn is_path(w: &str) -> bool {
    w.starts_with('/')
        || (w.as_bytes().windows(2).any(|p| p == b"..") && w.split('/').any(|c| c == ".."))
}

struct Walk<'s, 'r> {
    dirs: Dirs<'s>,
    report: &'r mut ScopeReport,
}

impl Walk<'_, '_> {
    fn note(&mut self, word: &str) {
        if self.report.outside.is_none() {
            self.report.outside = Some(word.to_string());
        }
    }

    /// Checks one word against `dir` (`None`: unknowable).
    fn word(&mut self, w: &str, known: Known, dir: Option<u32>) {
        if known != Known::Exact || w.starts_with('~') {
            return self.note(w);
        }
        if dir.is_none() && !w.is_empty() && !w.starts_with('/') {
            // After a cd to an unknowable place, relative words are outside.
            return self.note(w);
        }
        self.text(w, w, dir);
        for v in values(w) {
            if v.starts_with('~') {
                self.note(w);
            } else {
                self.text(v, w, dir);
            }
        }
    }

    fn text(&mut self, t: &str, shown: &str, dir: Option<u32>) {
        if !is_path(t) {
            return;
        }
        let base = match dir {
            Some(d) => d,
            None if t.starts_with('/') => 0,
            None => return self.note(shown),
        };
        let n = self.dirs.walk(base, t);
        if !self.dirs.inside(n) && !self.dirs.dev_file(n) {
            self.note(shown);
        }
    }

    /// Walks a line's segments from `start`; `inner` holds the inner lines
    /// by the segment that runs them. For the top line, records per segment
    /// whether it is a `cd` inside the scope.
    fn line(
        &mut self,
        line: &CommandLine,
        start: Option<u32>,
        inner: &[(usize, CommandLine)],
        top: bool,
    ) {
        // Per group: its own directory once a cd moved it (`Some(None)`:
        // unknowable), else its parent's.
        let mut own: Vec<Option<Option<u32>>> = vec![None; line.groups.len().max(1)];
        own[0] = Some(start);
        // A cd's move waits until the segments nested in its words are
        // read: bash runs them first.
        let mut pending: Option<(usize, u32, Option<u32>)> = None;
        let mut cdpath = false;
        // The inner lines by the segment that runs them, bucketed once: a
        // scan of every inner line per segment would be quadratic.
        let mut inner_of: Vec<Vec<&CommandLine>> = vec![Vec::new(); line.segments.len()];
        for (s, l) in inner.iter().filter(|_| top) {
            match inner_of.get_mut(*s) {
                Some(b) => b.push(l),
                // A segment the line does not hold: check it from the start.
                None => self.line(l, start, &[], false),
            }
        }
        for (i, seg) in line.segments.iter().enumerate() {
            if let Some((until, g, d)) = pending {
                if i > until {
                    if let Some(slot) = own.get_mut(g as usize) {
                        *slot = Some(d);
                    }
                    pending = None;
                }
            }
            let group = seg.group as usize;
            let dir = effective(&own, &line.groups, group);
            cdpath |= seg.words.iter().any(|w| {
                let name = w.split_once('=').map(|(n, _)| n.trim_end_matches('+'));
                name == Some("CDPATH") && (is_assignment(w) || w.starts_with("CDPATH"))
            });
            let mut cd_inside = false;
            if let Some(m) = dir_move(seg, cdpath) {
                let to = match m {
                    Move::To(t, Known::Exact) if !t.starts_with('~') => match dir {
                        Some(d) => {
                            let n = self.dirs.walk(d, t);
                            if self.dirs.inside(n) {
                                cd_inside = true;
                            } else {
                                self.note(t);
                            }
                            Some(n)
                        }
                        None => {
                            self.note(t);
                            None
                        }
                    },
                    Move::To(t, _) => {
                        self.note(t);
                        None
                    }
                    Move::Unknowable(why) => {
                        let shown = seg.words.join(" ");
                        self.note(if shown.is_empty() { why } else { &shown });
                        None
                    }
                };
                pending = Some((i + seg.holds, seg.group, to));
            }
            if top {
                self.report.cd_inside.push(cd_inside);
            }
            for (w, k) in seg.words.iter().zip(&seg.known) {
                self.word(w, *k, dir);
            }
            for r in &seg.redirects {
                self.word(&r.target, r.known, dir);
            }
            for l in std::mem::take(&mut inner_of[i]) {
                self.line(l, dir, &[], false);
            }
        }
    }
}

/// The directory of group `g`: its own, or its nearest ancestor's. Group
/// nesting is bounded by the reader's depth limit.
fn effective(own: &[Option<Option<u32>>], parents: &[u32], mut g: usize) -> Option<u32> {
    for _ in 0..=parents.len() {
        if let Some(Some(d)) = own.get(g) {
            return *d;
        }
        if g == 0 {
            break;
        }
        g = parents.get(g).map_or(0, |p| *p as usize);
    }
    own.first().copied().flatten().flatten()
}

impl Scope {
    /// Checks every segment's words, values and redirection targets, and
    /// follows `cd`, `pushd` and `popd` (SPEC §6.2, §4.4).
    pub fn check(&self, facts: &LineFacts) -> ScopeReport {
        let mut report = ScopeReport::default();
        if !self.contains(&self.cwd) {
            report.outside = Some(self.cwd.clone());
        }
        let mut walk = Walk {
            dirs: Dirs::new(self),
            report: &mut report,
        };
        let cwd = walk.dirs.walk(0, &self.cwd);
        walk.line(&facts.line, Some(cwd), &facts.inner_lines, true);
        report
    }
}
