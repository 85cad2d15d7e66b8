//! The path scope of a command line (SPEC §6.2 with its [hardening] notes,
//! §4.4 item 4).
//!
//! **Linear time.** Directories are nodes of one arena, each a component
//! with its parent: a `cd` pushes or pops nodes, a group (a subshell, a
//! pipeline element) shares its parent's node instead of copying a path,
//! and each node knows whether the path it ends is inside each root. So a
//! word costs O(its length + the roots' depth), whatever the directories
//! the line went through: a 256 KiB line of `cd x;` is linear.
//!
//! **Where a `cd` leaves the shell.** A `cd` (or `pushd`) may fail, and
//! then the shell stays where it was. Its move holds for certain only for
//! the segments that run after it succeeded: a top-level `cd` at the start
//! of an and-list (not after `||`, which may skip it), and the segments
//! joined to it by `&&` (and the pipelines and substitutions of those).
//! Once the chain breaks — `;`, `||`, `&`, a newline, a nested segment, an
//! operator the text does not show plainly — the shell is in one of two
//! directories; permc keeps only that both are inside (`Here::Inside`):
//! later relative words without `..` stay below it, a word with `..` is
//! outside. A `cd` permc does not follow (`time cd x`, `eval cd x`) leaves
//! the shell anywhere. Fail closed, and O(1) per move.

use super::catalogue::builtins::{dir_move_of, moves_dir, DirMove, SHOPT};
use super::catalogue::wrappers::{NUL_LISTERS, XARGS_NUL};
use super::{cd_operand, verb_index, LineFacts, Scope, DEV_FILES};
use crate::reader::AsStr;
use crate::reader::{CommandLine, Known, Segment};
use std::borrow::Cow;

/// The scope reading of a command line (SPEC §6.2).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopeReport {
    /// The first word (or the cwd) found outside, if any.
    pub outside: Option<String>,
    /// Per segment of the line: a `cd` whose target is inside. A segment
    /// past the end is none (a plain line's is empty: it has no `cd`).
    pub cd_inside: Vec<bool>,
}

/// One directory: a component below its parent (node 0 is `/`). Nothing
/// of it is allocated: a decision walks the cwd and every path word.
struct Node {
    parent: u32,
    depth: u32,
    /// Bit `k`: the path is inside root `k` or on its way (a prefix of the
    /// root's components matches so far). Roots past the 64th are never
    /// matched (fail closed: a path is then outside them); a scope has one
    /// root, or two in a container.
    on_root: u64,
    /// The node is `/dev`.
    dev_dir: bool,
    /// The node is one of the four `/dev` files that are never outside.
    dev_file: bool,
}

/// The arena of directories.
struct Dirs<'s> {
    nodes: Vec<Node>,
    /// Every root's components, root after root (`/work` is `work`).
    comps: Vec<&'s str>,
    /// Root `k`'s components are `comps[ends[k - 1]..ends[k]]` (from 0
    /// for the first); at most 64 roots are read.
    ends: Vec<usize>,
}

impl<'s> Dirs<'s> {
    fn new(scope: &'s Scope) -> Dirs<'s> {
        // One list for every root's components, split by hand: a root is
        // a normalized path, so its components are the text between `/`s
        // (empty ones, from a root that is not, are dropped as `split`
        // with a filter did).
        let roots = &scope.roots[..scope.roots.len().min(64)];
        let mut comps = Vec::with_capacity(8);
        let mut ends = Vec::with_capacity(roots.len());
        for r in roots {
            let mut from = 0;
            for (i, b) in r.bytes().enumerate().chain([(r.len(), b'/')]) {
                if b == b'/' {
                    if i > from {
                        comps.push(&r[from..i]);
                    }
                    from = i + 1;
                }
            }
            ends.push(comps.len());
        }
        let all = if roots.len() == 64 {
            u64::MAX
        } else {
            (1u64 << roots.len()) - 1
        };
        let mut nodes = Vec::with_capacity(16);
        nodes.push(Node {
            parent: 0,
            depth: 0,
            on_root: all,
            dev_dir: false,
            dev_file: false,
        });
        Dirs { nodes, comps, ends }
    }

    /// Root `k`'s components.
    fn root(&self, k: usize) -> &[&'s str] {
        let from = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.comps[from..self.ends[k]]
    }

    /// The node of `word` resolved against `dir` (absolute words from `/`).
    fn walk(&mut self, dir: u32, word: &str) -> u32 {
        let mut n = if word.starts_with('/') { 0 } else { dir };
        // The components between `/`s, split by a byte scan (`/` is ASCII,
        // so every cut is a char boundary).
        let mut from = 0;
        for (i, b) in word.bytes().enumerate().chain([(word.len(), b'/')]) {
            if b != b'/' {
                continue;
            }
            let c = &word[from..i];
            from = i + 1;
            match c {
                "" | "." => {}
                ".." => n = self.nodes[n as usize].parent,
                name => {
                    let p = &self.nodes[n as usize];
                    let depth = p.depth as usize;
                    let mut on_root = 0u64;
                    for k in 0..self.ends.len() {
                        let r = self.root(k);
                        if p.on_root >> k & 1 == 1 && (depth >= r.len() || r[depth] == name) {
                            on_root |= 1 << k;
                        }
                    }
                    let node = Node {
                        parent: n,
                        depth: p.depth + 1,
                        on_root,
                        dev_dir: depth == 0 && name == "dev",
                        dev_file: p.dev_dir
                            && DEV_FILES.iter().any(|d| d.rsplit('/').next() == Some(name)),
                    };
                    self.nodes.push(node);
                    n = u32::try_from(self.nodes.len() - 1).unwrap_or(u32::MAX);
                }
            }
        }
        n
    }

    fn inside(&self, n: u32) -> bool {
        let node = &self.nodes[n as usize];
        (0..self.ends.len())
            .any(|k| node.on_root >> k & 1 == 1 && node.depth as usize >= self.root(k).len())
    }

    /// Is the node one of the four `/dev` files that are never outside?
    fn dev_file(&self, n: u32) -> bool {
        self.nodes[n as usize].dev_file
    }
}

/// Where the shell is, as far as permc can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Here {
    /// This directory.
    At(u32),
    /// Some directory inside the scope, not known which: a `cd` may have
    /// failed, and the later segments run where it was or where it went.
    Inside,
    /// Anywhere: `cd $D`, `cd -`, `popd`…
    Anywhere,
}

/// Where a segment moves the directory.
enum Move<'w> {
    /// `cd`/`pushd` to this word.
    To(&'w str, Known),
    /// Somewhere permc cannot know: `cd` without operand, `cd -`, `popd`,
    /// a `cd` while `CDPATH` is assigned or `cdable_vars` may be on.
    Unknowable(&'static str),
}

/// Is the segment's verb (after assignments) this word?
fn is_cd(seg: &Segment) -> bool {
    verb_index(&seg.words).is_some_and(|v| dir_move_of(&seg.words[v]) == Some(DirMove::Cd))
}

/// A `cd` target whose place permc cannot know: an expansion, `~`, or a
/// glob that may expand to `..` (SPEC §4.4).
fn hidden_target(t: &str, k: Known) -> bool {
    k.is_unknown() || t.starts_with('~') || (k == Known::Glob && super::glob::glob_may_climb(t))
}

/// The directory move of a segment, if it is `cd`, `pushd` or `popd`.
fn dir_move<'w>(seg: &'w Segment, cdpath: bool, cdable: bool) -> Option<Move<'w>> {
    let v = verb_index(&seg.words)?;
    let verb = seg.words[v].as_str();
    if seg.known.get(v).is_some_and(|k| k.is_unknown()) {
        return None;
    }
    match dir_move_of(verb)? {
        how @ (DirMove::Cd | DirMove::Pushd) => {
            if cdpath || seg.words[..v].iter().any(|w| w.starts_with("CDPATH")) {
                return Some(Move::Unknowable("a `cd` while CDPATH is assigned"));
            }
            if cdable {
                return Some(Move::Unknowable(
                    "a `cd` after `cdable_vars` may be set (a directory name can stand for a variable's value)",
                ));
            }
            let i = cd_operand(&seg.words, v + 1);
            match seg.words.get(i) {
                None => Some(Move::Unknowable("`cd` without a directory goes home")),
                Some(t) if t == "-" => Some(Move::Unknowable("`cd -` goes back")),
                Some(t) if how == DirMove::Pushd && (t.starts_with('+') || t.starts_with('-')) => {
                    Some(Move::Unknowable("`pushd` rotates the stack"))
                }
                Some(t) => Some(Move::To(
                    t,
                    seg.known.get(i).copied().unwrap_or(Known::Exact),
                )),
            }
        }
        DirMove::Popd => Some(Move::Unknowable("`popd` goes back")),
    }
}

/// How a top-level segment is joined to the command before it, read off
/// the line's text (SPEC §6.2: a `cd` moves the later segments for certain
/// only where they run after it succeeded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Joint {
    /// `… && this`: it runs only when what comes before succeeded.
    And,
    /// `… | this`, `… |& this`: a later element of the same pipeline.
    Pipe,
    /// The start of the line or `…; this`: it runs whatever came before.
    List,
    /// Anything else: `||`, `&`, a newline, a nested segment, a shape
    /// permc does not place (fail closed: the chain breaks).
    Other,
}

/// The [`Joint`]s of a line's segments: two bits each in one word for up
/// to [`Joints::FEW`] segments (most lines: nothing to allocate), else a
/// vector. Past the end, [`Joint::Other`] (no segment placed there).
#[derive(Debug, Clone, Default)]
pub(crate) struct Joints {
    len: usize,
    few: u64,
    many: Vec<Joint>,
}

impl Joints {
    const FEW: usize = 32;

    fn code(j: Joint) -> u64 {
        match j {
            Joint::And => 0,
            Joint::Pipe => 1,
            Joint::List => 2,
            Joint::Other => 3,
        }
    }

    /// The joint of segment `i`.
    pub(crate) fn get(&self, i: usize) -> Joint {
        if i >= self.len {
            return Joint::Other;
        }
        if self.len > Self::FEW {
            return self.many.get(i).copied().unwrap_or(Joint::Other);
        }
        match (self.few >> (2 * i)) & 3 {
            0 => Joint::And,
            1 => Joint::Pipe,
            2 => Joint::List,
            _ => Joint::Other,
        }
    }
}

impl FromIterator<Joint> for Joints {
    fn from_iter<I: IntoIterator<Item = Joint>>(iter: I) -> Joints {
        let mut out = Joints::default();
        for j in iter {
            if out.len < Self::FEW {
                out.few |= Self::code(j) << (2 * out.len);
            } else {
                if out.many.is_empty() {
                    out.many = (0..out.len).map(|i| out.get(i)).collect();
                }
                out.many.push(j);
            }
            out.len += 1;
        }
        out
    }
}

/// The [`Joint`] of each segment of `line`, read from `src`, its text.
/// Only top-level segments can be placed: nested ones start in their own
/// sub-line (a backtick body), so they are [`Joint::Other`].
pub(crate) fn joints(src: &str, line: &CommandLine) -> Joints {
    let b = src.as_bytes();
    line.segments
        .iter()
        .map(|s| {
            if s.nested || s.start > b.len() {
                return Joint::Other;
            }
            let mut end = s.start;
            while end > 0 && matches!(b[end - 1], b' ' | b'\t') {
                end -= 1;
            }
            let before = &b[..end];
            // The byte before an operator must not make it another one
            // (`||`, `;;`, `>|`) or escape it (`\&&`).
            let clean = |n: usize| {
                before.len() < n + 1
                    || !matches!(
                        before[before.len() - n - 1],
                        b'\\' | b'&' | b'|' | b';' | b'>' | b'<' | b'\n'
                    )
            };
            if before.is_empty() {
                Joint::List
            } else if before.ends_with(b"&&") && clean(2) {
                Joint::And
            } else if (before.ends_with(b"|&") && clean(2)) || (before.ends_with(b"|") && clean(1))
            {
                Joint::Pipe
            } else if before.ends_with(b";") && clean(1) {
                Joint::List
            } else {
                Joint::Other
            }
        })
        .collect()
}

/// The values a word holds that the scope checks besides the word itself:
/// after the first `=`, and attached to options in a single-dash word —
/// after one letter (`-o/etc/x`, `-C..`) or after a cluster, where permc
/// cannot tell which letter takes it: from the first `/` (`-xf/etc/x`),
/// and the `..` or `.` the first component ends with (`-xC..`,
/// `-xC../x`).
pub(crate) fn values(w: &str) -> impl Iterator<Item = &str> {
    let eq = w.split_once('=').map(|(_, v)| v);
    let dash = w.len() > 2 && w.starts_with('-') && !w.starts_with("--");
    let attached = (dash && w.is_char_boundary(2)).then(|| &w[2..]);
    let first = w.find('/').unwrap_or(w.len());
    let from_slash = (dash && first > 2 && first < w.len()).then(|| &w[first..]);
    let dots = [2, 1]
        .into_iter()
        .filter(move |&n| dash && first > n + 2 && w[..first].ends_with(&".."[..n]))
        .map(move |n| &w[first - n..]);
    eq.into_iter().chain(attached).chain(from_slash).chain(dots)
}

/// Is this text a path the scope checks (SPEC §6.2)?
fn is_path(w: &str) -> bool {
    w.starts_with('/')
        || (w.as_bytes().windows(2).any(|p| p == b"..") && w.split('/').any(|c| c == ".."))
}

/// A directory move waiting for the segments nested in the words of its
/// `cd` (bash runs them first).
struct Pending {
    /// The last segment nested in the `cd`'s words.
    until: usize,
    group: u32,
    /// Where the shell was before the move.
    before: Here,
    /// Where it goes when the move succeeds.
    to: Here,
    /// The move may hold for certain: a top-level `cd` at the start of an
    /// and-list (not after `||`), so the later segments joined to it by
    /// `&&` run only after it succeeded.
    certain: bool,
}

struct Walk<'s, 'r> {
    dirs: Dirs<'s>,
    report: &'r mut ScopeReport,
    /// `CDPATH` may be assigned: a `cd` may go anywhere.
    cdpath: bool,
    /// `shopt -s cdable_vars` (or a BASHOPTS naming it) may be on: `cd
    /// NAME` goes to $NAME when no folder NAME exists, so the operand no
    /// longer says where cd goes. A shopt with an unknown word may set it.
    ///
    /// Both are the walk's, not a line's: an inner line (`eval '…'`,
    /// `bash -c '…'`) starts with what its segment runs under (`CDPATH=x:/
    /// bash -c 'cd etc'` goes to /etc), and what it sets holds after it
    /// (as `eval` keeps it; for a child shell, fail closed).
    cdable: bool,
    /// The places top-level segments read from a here-document or a
    /// here-string ([`LineFacts::fed`]): `(segment, word, known)`.
    fed: Vec<(usize, String, Known)>,
}

impl Walk<'_, '_> {
    fn note(&mut self, word: &str) {
        if self.report.outside.is_none() {
            self.report.outside = Some(word.to_string());
        }
    }

    /// Notes what a segment sets that changes where a `cd` goes: `CDPATH`
    /// named at all (an assignment, a word given to `export`, `env`,
    /// `declare`, and the builtins that assign a name without `=`: `read
    /// CDPATH < f`, `mapfile`, `getopts`, `printf -v`, a nameref
    /// `declare -n r=CDPATH`), `cdable_vars` or a `BASHOPTS` named, a
    /// `shopt` with an unknown word. One pass over the words: most are
    /// shorter than `CDPATH` and `cdable_vars`.
    fn reads_dirs(&mut self, seg: &Segment) {
        let mut shopt = false;
        for w in &seg.words {
            self.cdpath |= names_cdpath(w);
            self.cdable |= names_cdable(w);
            shopt |= w == SHOPT;
        }
        self.cdable |= shopt && seg.known.iter().any(|k| k.is_unknown());
    }

    fn inside(&self, h: Here) -> bool {
        match h {
            Here::At(n) => self.dirs.inside(n),
            Here::Inside => true,
            Here::Anywhere => false,
        }
    }

    /// Where the shell is after a move that may not have happened.
    fn either(&self, a: Here, b: Here) -> Here {
        if self.inside(a) && self.inside(b) {
            Here::Inside
        } else {
            Here::Anywhere
        }
    }

    /// Checks the places top-level segment `i` reads from a here-document
    /// or a here-string (none on most lines).
    fn fed_words(&mut self, i: usize, here: Here) {
        if self.fed.is_empty() {
            return;
        }
        let fed: Vec<(String, Known)> = self
            .fed
            .iter()
            .filter(|(s, _, _)| *s == i)
            .map(|(_, w, k)| (w.clone(), *k))
            .collect();
        for (w, k) in fed {
            self.word(&w, k, here);
        }
    }

    /// Checks one word from `here`.
    fn word(&mut self, w: &str, mut known: Known, here: Here) {
        if known.is_unknown() && w.contains("{}") && !w.contains(['$', '`']) {
            // A `-c` string's `$1` given a `find` run's `{}` (SPEC §4.3
            // round 4): the paths found, read as the run's own `{}` is
            // (inside when the find's start paths are, which its segment
            // checks). The reader marks a word unknown only for an
            // expansion, so no other word has this shape; what xargs
            // fills in is outside by its own rule.
            known = Known::Exact;
        }
        if known == Known::Glob && super::glob::glob_may_climb(w) {
            // `.?/secret`, `.*`: a component that may expand to `..`
            // (SPEC §4.4 item 4).
            return self.note(w);
        }
        if !known.is_unknown() && here != Here::Anywhere && !may_name_a_path(w) {
            // Most words: nothing to walk.
            return;
        }
        if known.is_unknown() || w.starts_with('~') {
            return self.note(w);
        }
        if here == Here::Anywhere && !w.is_empty() && !w.starts_with('/') {
            // After a cd to an unknowable place, relative words are outside.
            return self.note(w);
        }
        self.text(w, w, here);
        // Values are after a `=` or in a single-dash option word.
        if !w.starts_with('-') && !super::has_byte(w, b'=') {
            return;
        }
        for v in values(w) {
            if v.starts_with('~') {
                self.note(w);
            } else {
                self.text(v, w, here);
            }
        }
    }

    fn text(&mut self, t: &str, shown: &str, here: Here) {
        if !is_path(t) {
            return;
        }
        let base = match here {
            _ if t.starts_with('/') => 0,
            Here::At(d) => d,
            // A `..` from a directory permc does not know: outside.
            Here::Inside | Here::Anywhere => return self.note(shown),
        };
        let n = self.dirs.walk(base, t);
        if !self.dirs.inside(n) && !self.dirs.dev_file(n) {
            self.note(shown);
        }
    }

    /// Where a `cd` to the exact word `t` goes from `here`, and whether
    /// that is inside.
    fn target(&mut self, t: &str, here: Here) -> (Here, bool) {
        let to = match here {
            _ if t.starts_with('/') => Here::At(self.dirs.walk(0, t)),
            Here::At(d) => Here::At(self.dirs.walk(d, t)),
            // Below some directory inside, unless it climbs.
            Here::Inside if !is_path(t) => Here::Inside,
            Here::Inside | Here::Anywhere => Here::Anywhere,
        };
        (to, self.inside(to))
    }

    /// Walks a line's segments from `start`; `inner` holds the inner lines
    /// by the segment that runs them, `joints` how each segment is joined
    /// to the one before, `hidden` the segments that may move the directory
    /// behind a wrapper (`time cd x`, `eval cd x`). For the top line,
    /// records per segment whether it is a `cd` inside the scope.
    fn line(
        &mut self,
        line: &CommandLine,
        start: Here,
        inner: &[(usize, CommandLine)],
        joints: &Joints,
        hidden: &[bool],
        top: bool,
    ) {
        // Per group: its own directory once a cd moved it, else its
        // parent's.
        let mut own: Vec<Option<Here>> = vec![None; line.groups.len().max(1)];
        own[0] = Some(start);
        // Moves wait until the segments nested in their words are read;
        // nested moves end first.
        let mut pending: Vec<Pending> = Vec::new();
        // The groups a certain move changed in the current chain of `&&`
        // (and pipes), with where they were before: when the chain breaks
        // the move may not have happened, and they are either.
        let mut chain: Vec<(u32, Here)> = Vec::new();
        // The last segment nested in the words of the chain's segments.
        let mut held_until = 0;
        // The current and-or list may hold an `||` (or an operator permc
        // does not place) before this segment: a `cd` after it may have
        // been skipped, so it moves nothing for certain (SPEC §6.2 round
        // 3). A `;` (or the start) begins a new list.
        let mut or_in_list = false;
        let mut inner_of = self.inner_by_segment(line, start, inner, top);
        let anywhere_from = self.repeated_move(line, hidden);
        for (i, seg) in line.segments.iter().enumerate() {
            while let Some(p) = pending.pop_if(|p| i > p.until) {
                let g = p.group as usize;
                if p.certain {
                    chain.push((p.group, p.before));
                    own[g] = Some(p.to);
                } else {
                    own[g] = Some(self.either(p.before, p.to));
                }
            }
            // Does this segment run only after the chain's moves succeeded?
            let joint = joints.get(i);
            if i > 0 && i <= held_until {
                // Nested in the words of a segment of the chain.
            } else if i > 0 && matches!(joint, Joint::And | Joint::Pipe) {
                held_until = i + seg.holds;
            } else {
                for (g, before) in std::mem::take(&mut chain) {
                    let now = own[g as usize].unwrap_or(before);
                    own[g as usize] = Some(self.either(before, now));
                }
                held_until = i + seg.holds;
                or_in_list = i > 0 && joint == Joint::Other;
            }
            let group = seg.group as usize;
            let here = self.place_of(i, &anywhere_from, || effective(&own, &line.groups, group));
            self.reads_dirs(seg);
            let until = i + seg.holds;
            let hidden = hidden.get(i).copied().unwrap_or(false);
            let mut cd_inside = false;
            if let Some((to, inside, followed)) = self.segment_move(seg, here, hidden) {
                cd_inside = inside;
                pending.push(Pending {
                    until,
                    group: seg.group,
                    before: here,
                    to,
                    certain: followed
                        && top
                        && (joint == Joint::List || (joint == Joint::And && !or_in_list)),
                });
            }
            if top {
                self.report.cd_inside.push(cd_inside);
            }
            self.segment_words(seg, here);
            if top {
                self.fed_words(i, here);
            }
            if let Some(lines) = inner_of.get_mut(i) {
                // Every inner line of the segment starts with what any of
                // them sets: they are kept innermost first, so an outer
                // `env CDPATH=x:/ sh -c 'cd etc'` comes after the line it
                // runs (fail closed, whatever the order).
                let lines = std::mem::take(lines);
                for s in lines.iter().flat_map(|l| &l.segments) {
                    self.reads_dirs(s);
                }
                for l in lines {
                    self.line(l, here, &[], &Joints::default(), &[], false);
                }
            }
        }
    }

    /// Checks a segment's words and redirection targets from `here`.
    fn segment_words(&mut self, seg: &Segment, here: Here) {
        // A builtin that only changes the flow (`exit $?`) names no place.
        let flow = super::flow_segment(&seg.words, &seg.known);
        // Nor does a word a verified row types `text` (SPEC §4.5 item 4:
        // `grep -e "$PAT" src`); redirections always do.
        let text = super::described::text_words(&seg.words, &seg.known);
        let is_text = |j: usize| text.as_ref().is_some_and(|t| t[j]);
        let words = seg.words.iter().zip(&seg.known).enumerate();
        for (_, (w, k)) in words.filter(|&(j, _)| !flow && !is_text(j)) {
            self.word(w, *k, here);
        }
        for r in &seg.redirects {
            self.word(&r.target, r.known, here);
        }
    }

    /// Where segment `i` runs: anywhere from the segment `from` names on
    /// (noting the move that makes it so once), else where `known` says.
    fn place_of(&mut self, i: usize, from: &(usize, String), known: impl FnOnce() -> Here) -> Here {
        if i < from.0 {
            return known();
        }
        if i == from.0 {
            self.note(&from.1);
        }
        Here::Anywhere
    }

    /// The first segment from which a directory move inside a loop or a
    /// function body leaves the directory unknowable (SPEC §4.2 round 4:
    /// such a `cd` may run any number of times, so what follows it — and,
    /// on the next pass, what precedes it in the loop — is anywhere): the
    /// start of the run of repeating segments that holds the first such
    /// move; past the end when there is none (most lines: one look at
    /// each segment's flag).
    fn repeated_move(&self, line: &CommandLine, hidden: &[bool]) -> (usize, String) {
        let segs = &line.segments;
        let moves = |i: usize| {
            let s = &segs[i];
            s.repeats
                && (hidden.get(i).copied().unwrap_or(false)
                    || dir_move(s, self.cdpath, self.cdable).is_some())
        };
        match (0..segs.len()).find(|&i| moves(i)) {
            Some(m) => {
                let mut i = m;
                while i > 0 && segs[i - 1].repeats {
                    i -= 1;
                }
                (i, segs[m].words.join(" "))
            }
            None => (usize::MAX, String::new()),
        }
    }

    /// The inner lines by the segment that runs them, bucketed once (a
    /// scan of every inner line per segment would be quadratic); one of a
    /// segment the line does not hold is checked from the start here.
    fn inner_by_segment<'l>(
        &mut self,
        line: &CommandLine<'_>,
        start: Here,
        inner: &'l [(usize, CommandLine<'l>)],
        top: bool,
    ) -> Vec<Vec<&'l CommandLine<'l>>> {
        let mut inner_of: Vec<Vec<&CommandLine<'l>>> = if top && !inner.is_empty() {
            vec![Vec::new(); line.segments.len()]
        } else {
            Vec::new()
        };
        for (s, l) in inner.iter().filter(|_| top) {
            match inner_of.get_mut(*s) {
                Some(b) => b.push(l),
                None => self.line(l, start, &[], &Joints::default(), &[], false),
            }
        }
        inner_of
    }

    /// Where segment `seg` may move the directory from `here`: the
    /// target (`Anywhere` when permc cannot follow it), whether it is a
    /// `cd` inside the scope (SPEC §5.3 step 6: only `cd`; `pushd` moves
    /// like it), and whether the move is one permc follows (`hidden`:
    /// `time cd x`, `command cd x`, `eval 'cd x'` are not).
    fn segment_move(
        &mut self,
        seg: &Segment,
        here: Here,
        hidden: bool,
    ) -> Option<(Here, bool, bool)> {
        let Some(m) = dir_move(seg, self.cdpath, self.cdable) else {
            return hidden.then_some((Here::Anywhere, false, false));
        };
        let mut cd_inside = false;
        let to = match m {
            Move::To(t, k) if !hidden_target(t, k) => {
                let (to, inside) = self.target(t, here);
                if inside {
                    cd_inside = is_cd(seg);
                } else {
                    self.note(t);
                }
                to
            }
            Move::To(t, _) => {
                self.note(t);
                Here::Anywhere
            }
            Move::Unknowable(why) => {
                let shown = seg.words.join(" ");
                self.note(if shown.is_empty() { why } else { &shown });
                Here::Anywhere
            }
        };
        Some((to, cd_inside, true))
    }
}

/// Does a run end with what xargs appends (an empty word that may be any
/// run of tokens: no word of a line is empty and unknown otherwise)?
fn appends_unknown(words: &[Cow<'_, str>], known: &[Known]) -> bool {
    words
        .iter()
        .zip(known)
        .any(|(w, k)| w.is_empty() && *k == Known::AnyTokens)
}

/// Is segment `i` an `xargs -0` fed by the previous element of its
/// pipeline, a lister of [`NUL_LISTERS`] with its NUL option whose start
/// paths are plain relative words (checked as words of its own segment):
/// then each appended word is a path below them (SPEC §4.3 round 4).
fn nul_listed(facts: &LineFacts, joints: &Joints, i: usize) -> bool {
    let segs = &facts.line.segments;
    if i == 0 || joints.get(i) != Joint::Pipe {
        return false;
    }
    let (prev, seg) = (&segs[i - 1], &segs[i]);
    let nul_input = seg.words.iter().any(|w| XARGS_NUL.contains(&w.as_str()));
    let Some((_, option)) = prev
        .words
        .first()
        .and_then(|v| NUL_LISTERS.iter().find(|(n, _)| v == n))
    else {
        return false;
    };
    let starts_plain = prev.words[1..]
        .iter()
        .zip(&prev.known[1..])
        .take_while(|(w, _)| !w.starts_with('-') && !w.starts_with('(') && *w != "!")
        .all(|(w, k)| *k == Known::Exact && !w.starts_with('/') && !is_path(w));
    nul_input && starts_plain && prev.words.iter().any(|w| w == option) && prev.known.all_exact()
}

/// Can an exact word name a path the scope checks (SPEC §6.2)? Without
/// `/`, `.` or `~`, neither the word nor a value in it is a path, nor
/// starts with `~` (see `values`, `is_path`).
fn may_name_a_path(w: &str) -> bool {
    w.bytes().any(|b| PATH_BYTE[usize::from(b)])
}

/// `/`, `.` and `~`: one load a byte in [`may_name_a_path`].
const PATH_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    t[b'/' as usize] = true;
    t[b'.' as usize] = true;
    t[b'~' as usize] = true;
    t
};

/// The word names `CDPATH` (see `Walk::reads_dirs`). A byte test first:
/// a substring search sets up a searcher, and few words are as long or
/// hold a `C`.
fn names_cdpath(w: &str) -> bool {
    w.len() >= "CDPATH".len() && super::has_byte(w, b'C') && w.contains("CDPATH")
}

/// The word names `cdable_vars`, or is a `BASHOPTS` that may (see
/// `Walk::reads_dirs`).
fn names_cdable(w: &str) -> bool {
    w.starts_with("BASHOPTS")
        || (w.len() >= "cdable_vars".len() && super::has_byte(w, b'_') && w.contains("cdable_vars"))
}

/// Does [`Walk::word`] do nothing for this exact word, read from a known
/// directory? It notes a word only when it starts with `~`, is a path
/// ([`is_path`]: `/…` or a `..` component), or holds a value ([`values`])
/// that does; `src/main.rs`, `HEAD~1` and `out.log` are none of them.
#[inline] // Its fast part: most words hold no path byte.
fn inert(w: &str) -> bool {
    // One pass notes the word's `/`, `.`, `~` and `=` (three scans were:
    // for a path byte, a `..`, a `=`).
    let mut marks = 0;
    for b in w.bytes() {
        marks |= INERT_MARKS[usize::from(b)];
    }
    marks & PATH_MARK == 0 || inert_marked(w, marks)
}

/// [`inert`] for a word with a path byte (`marks`: its bytes' notes). Out
/// of line, so that the fast part inlines without its frame.
#[inline(never)]
fn inert_marked(w: &str, marks: u8) -> bool {
    // [`is_path`]: `/…`, or a `..` component (which needs a `.`).
    if w.starts_with(['~', '/']) || (marks & DOT_MARK != 0 && is_path(w)) {
        return false;
    }
    if !w.starts_with('-') && marks & EQ_MARK == 0 {
        return true;
    }
    values(w).all(|v| !v.starts_with('~') && !is_path(v))
}

/// [`inert`]'s byte notes: [`PATH_MARK`] for `/`, `.` and `~` (as
/// [`PATH_BYTE`]), [`DOT_MARK`] for `.`, [`EQ_MARK`] for `=`.
const INERT_MARKS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'/' as usize] = PATH_MARK;
    t[b'~' as usize] = PATH_MARK;
    t[b'.' as usize] = PATH_MARK | DOT_MARK;
    t[b'=' as usize] = EQ_MARK;
    t
};

const PATH_MARK: u8 = 1;

const DOT_MARK: u8 = 2;

const EQ_MARK: u8 = 4;

/// Is the line plain for the scope: no inner line, every word and
/// redirection target exact and [`inert`], and no segment or run that
/// moves the directory (`cd`, `pushd`, `popd`, read past wrappers or not)?
/// Then the walk starts and stays at the cwd and notes nothing.
fn plain(facts: &LineFacts) -> bool {
    // A plain line without `/`, `.` or `~` holds no word that may name a
    // path: every word is inert.
    let no_path = facts.absent & crate::reader::HAS_PATH_BYTE != 0;
    let simple = |w: &str| no_path || inert(w);
    let mover = |w: &Cow<'_, str>| moves_dir(w);
    facts.inner_lines.is_empty()
        && facts.fed().is_empty()
        && facts.read_places().is_empty()
        && facts.line.segments.iter().all(|s| {
            s.known.all_exact()
                && s.words.iter().all(|w| simple(w) && !mover(w))
                && s.redirects
                    .iter()
                    .all(|r| !r.known.is_unknown() && simple(&r.target))
        })
        // A run of its segment's own words (most) was read above; one
        // that ends with what xargs appends is walked (`xargs ls`).
        && facts.runs.iter().all(|r| {
            r.words
                .as_ref()
                .is_none_or(|w| !w.0.first().is_some_and(mover) && !appends_unknown(&w.0, &w.1))
        })
}

/// Is the line plain but for `cd NAME` segments, with NAME a plain name
/// (letters, digits, `_`, `-`, not first)? Then, from a cwd inside, every
/// such `cd` goes to a directory inside and the shell is never anywhere
/// else (no `cd -`, no `CDPATH`, `cdable_vars` or `shopt` word, no move
/// behind a wrapper), so no [`inert`] word is noted: per segment, whether
/// it is one of those `cd`s. `None` for any other line (the walk reads it).
fn plain_cds(facts: &LineFacts) -> Option<Vec<bool>> {
    let mover = moves_dir;
    // Words that change where a `cd` goes (as `Walk::reads_dirs` reads).
    let names_dirs = |w: &str| names_cdpath(w) || names_cdable(w) || w == SHOPT;
    let plain_name = |t: &str| {
        !t.starts_with('-')
            && !names_dirs(t)
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    if !facts.inner_lines.is_empty() || !facts.fed().is_empty() || !facts.read_places().is_empty() {
        return None;
    }
    let mut cds = Vec::with_capacity(facts.line.segments.len());
    for s in &facts.line.segments {
        if !s.known.all_exact()
            || s.redirects
                .iter()
                .any(|r| r.known.is_unknown() || !inert(&r.target))
        {
            return None;
        }
        let cd = matches!(s.words.as_slice(), [v, t] if dir_move_of(v) == Some(DirMove::Cd) && !t.is_empty() && plain_name(t));
        if !cd
            && s.words
                .iter()
                .any(|w| mover(w) || names_dirs(w) || !inert(w))
        {
            return None;
        }
        cds.push(cd);
    }
    // A move behind a wrapper (`time cd x`, `sudo cd x`) is not followed.
    // Read off the runs as kept: a run of its segment's own words (most)
    // appends nothing (every word of the line is exact, checked above),
    // so only its verb is looked at (no view of each run built).
    let segments = &facts.line.segments;
    if facts.runs.iter().any(|r| match &r.words {
        Some(w) => {
            (r.read_past && w.0.first().is_some_and(|w| mover(w))) || appends_unknown(&w.0, &w.1)
        }
        None => {
            r.read_past
                && segments
                    .get(r.segment)
                    .and_then(|s| s.words.first())
                    .is_some_and(|w| mover(w))
        }
    }) {
        return None;
    }
    Some(cds)
}

/// The directory of group `g`: its own, or its nearest ancestor's. Group
/// nesting is bounded by the reader's depth limit.
fn effective(own: &[Option<Here>], parents: &[u32], mut g: usize) -> Here {
    for _ in 0..=parents.len() {
        if let Some(Some(d)) = own.get(g) {
            return *d;
        }
        if g == 0 {
            break;
        }
        g = parents.get(g).map_or(0, |p| *p as usize);
    }
    own.first().copied().flatten().unwrap_or(Here::Anywhere)
}

impl Scope<'_> {
    /// Checks every segment's words, values and redirection targets, and
    /// follows `cd`, `pushd` and `popd` (SPEC §6.2, §4.4).
    pub fn check(&self, facts: &LineFacts) -> ScopeReport {
        let mut report = ScopeReport::default();
        if !self.contains(&self.cwd) {
            report.outside = Some(self.cwd.to_string());
        }
        if plain(facts) {
            // Nothing to walk: no word can be a path and nothing moves the
            // directory, so the general walk below would find no word
            // outside and no `cd` (tested against it), and `cd_inside`
            // stays empty: no segment is one.
            return report;
        }
        if report.outside.is_none() {
            if let Some(cd_inside) = plain_cds(facts) {
                // From inside, `cd NAME` stays inside, and no other word
                // can be noted wherever the shell is inside (tested
                // against the walk).
                report.cd_inside = cd_inside;
                return report;
            }
        }
        self.walk(facts, report)
    }

    /// [`Scope::check`] without the fast path: every segment walked.
    fn walk(&self, facts: &LineFacts, mut report: ScopeReport) -> ScopeReport {
        // One entry per top segment: sized once.
        report.cd_inside.reserve_exact(facts.line.segments.len());
        let mut walk = Walk {
            dirs: Dirs::new(self),
            report: &mut report,
            cdpath: false,
            cdable: false,
            fed: facts
                .fed()
                .iter()
                .map(|(i, w, k)| (*i, w.to_string(), *k))
                .chain(
                    facts
                        .read_places()
                        .iter()
                        .map(|(i, w, k)| (*i, w.clone(), *k)),
                )
                .collect(),
        };
        let cwd = walk.dirs.walk(0, &self.cwd);
        // The segments that may move the directory behind a wrapper: a run
        // read past something whose verb is `cd`, `pushd` or `popd`.
        let any_read_past = facts.runs().any(|r| r.read_past);
        let hidden: Vec<bool> = (0..facts.line.segments.len())
            .filter(|_| any_read_past)
            .map(|i| {
                facts
                    .runs_of(i)
                    .any(|r| r.read_past && r.words.first().is_some_and(|v| moves_dir(v)))
            })
            .collect();
        // Read from the text once for the line (`LineFacts::joints`).
        let joints = facts.joints();
        for i in 0..facts.line.segments.len() {
            if facts.runs_of(i).any(|r| appends_unknown(r.words, r.known))
                && !nul_listed(facts, &joints, i)
            {
                // SPEC §4.4 item 5 round 4: the words xargs appends are
                // places permc cannot know (`git show | xargs ls`).
                walk.note("what xargs appends");
            }
        }
        walk.line(
            &facts.line,
            Here::At(cwd),
            &facts.inner_lines,
            &joints,
            &hidden,
            true,
        );
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Place;

    /// The first word outside, in runner mode under `root`.
    fn outside(cmd: &str, root: &str) -> Option<String> {
        let scope = Scope::at(Place {
            root: Some(root),
            ..Place::default()
        })
        .expect("scope");
        scope.check(&LineFacts::of(cmd)).outside
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3_000))]
        /// The fast paths for plain lines and plain `cd`s answer like the
        /// general walk,
        /// on lines made of words that are plain, nearly plain, paths,
        /// moves and expansions, in both kinds of scope.
        #[test]
        fn the_plain_fast_path_answers_like_the_walk(
            words in proptest::collection::vec(proptest::sample::select(vec![
                "ls", "git", "status", "-la", "src", "a=b", "cd", "pushd", "popd", "..",
                "../x", "/etc", "/work/x", "~", "x.txt", "$X", "\"$(pwd)\"", ">", ">out",
                "2>/dev/null", "&&", "||", ";", "|", "&", "sudo", "env", "xargs", "time",
                "bash -c 'cd /'", "eval", "'cd x'", "CDPATH=/", "shopt", "-s", "cdable_vars",
                "src/main.rs", "HEAD~1", "out.log", "-C..", "-xf/etc/x", "--file=/etc/x",
                "a=~/x", "-o~/x", "x/../..", "./x", "-C", "/dev/null", ">/dev/null", "a/b=c/../d",
                "cd src", "cd build-1", "cd p", "cd CDPATH", "cd -", "cd -P", "(cd src)", "CDPATH",
                "BASHOPTS=x", "cd_x", "time", "&& cd src &&",
            ]), 0..8),
            cwd in proptest::sample::select(vec!["", "/p", "/p/src", "/etc", "/p/../q", "/p/x"]),
            container in proptest::bool::ANY,
        ) {
            let cmd = words.join(" ");
            let scope = Scope::at(Place {
                root: Some("/p"),
                cwd: Some(cwd),
                in_container: container,
            })
            .expect("scope");
            let facts = LineFacts::of(&cmd);
            let mut start = ScopeReport::default();
            if !scope.contains(&scope.cwd) {
                start.outside = Some(scope.cwd.to_string());
            }
            let mut walked = scope.walk(&facts, start);
            // Trailing segments that are no cd-in-scope may be left out.
            while walked.cd_inside.last() == Some(&false) {
                walked.cd_inside.pop();
            }
            let mut checked = scope.check(&facts);
            while checked.cd_inside.last() == Some(&false) {
                checked.cd_inside.pop();
            }
            proptest::prop_assert_eq!(checked, walked, "{}", cmd);
        }
    }

    #[test]
    fn joints_read_the_operator_before_each_top_level_segment() {
        use Joint::*;
        let cmd = "cd x && a; b || c | d |& e\nf & g;h";
        let line = crate::reader::read(cmd);
        let all = |j: &Joints| {
            (0..line.segments.len())
                .map(|i| j.get(i))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            all(&joints(cmd, &line)),
            [List, And, List, Other, Pipe, Pipe, Other, Other, List]
        );
        // An escaped `&` is no `&&`; nested segments are never placed.
        let cmd = "a \\&& b; (c && d) && e $(f && g)";
        let line = crate::reader::read(cmd);
        let j = joints(cmd, &line);
        let words: Vec<_> = line.segments.iter().map(|s| s.words[0].as_str()).collect();
        assert_eq!(words, ["a", "b", "c", "d", "e", "f", "g"]);
        let all: Vec<_> = (0..words.len()).map(|i| j.get(i)).collect();
        assert_eq!(all, [List, Other, Other, Other, And, Other, Other]);
    }

    /// Packed or listed, the joints read back as written, and past the
    /// end as [`Joint::Other`].
    #[test]
    fn joints_read_back_on_both_sides_of_the_packed_form() {
        use Joint::*;
        let cycle = [And, Pipe, List, Other, List, And];
        for n in [0, 1, Joints::FEW - 1, Joints::FEW, Joints::FEW + 1, 100] {
            let want: Vec<Joint> = (0..n).map(|i| cycle[i % cycle.len()]).collect();
            let j: Joints = want.iter().copied().collect();
            let got: Vec<Joint> = (0..n).map(|i| j.get(i)).collect();
            assert_eq!(got, want, "{n}");
            assert_eq!(j.get(n), Other);
            assert_eq!(j.get(n + 7), Other);
        }
        // A line of many segments: each `&&` read in its place.
        let cmd = (0..70)
            .map(|i| format!("a{i}"))
            .collect::<Vec<_>>()
            .join(" && ");
        let line = crate::reader::read(&cmd);
        let j = joints(&cmd, &line);
        assert_eq!(j.get(0), List);
        assert!((1..70).all(|i| j.get(i) == And));
    }

    #[test]
    fn a_cd_moves_for_certain_only_along_and() {
        let root = "/a/b";
        // `cd q` then a `..` that climbs above the root and back down: from
        // the root it is inside, from `q` it is not. Only `&&` makes the
        // cd certain; after `;`, `||`, `&` or a newline it is either.
        assert_eq!(
            outside("cd q && cat ../../a/b/x", root).as_deref(),
            Some("../../a/b/x")
        );
        for op in ["; ", " || ", " & ", "\n"] {
            let cmd = format!("cd q{op}cat ../x");
            assert_eq!(outside(&cmd, root).as_deref(), Some("../x"), "{cmd:?}");
        }
        assert_eq!(outside("cd q && cat ../x", root), None);
        assert_eq!(outside("cd q || cat x", root), None);
        assert_eq!(outside("cd q; npm test; cd r && ls", root), None);
        // A cd that may not run at all is not certain either.
        assert!(outside("true || cd q && cat ../x", root).is_some());
        assert!(outside("cd q && ls || cat ../x", root).is_some());
        assert_eq!(outside("cd q && ls | cat ../x", root), None);
    }

    #[test]
    fn a_cd_behind_a_wrapper_moves_somewhere_permc_does_not_know() {
        // Not following it would read `../../a/b/x` from the root (inside)
        // while bash reads it from /a/b/q (/a/a/b/x, outside).
        for cmd in [
            "time cd q && cat ../../a/b/x",
            "command cd q && cat ../../a/b/x",
            "builtin cd q && cat ../../a/b/x",
            "eval cd q && cat ../../a/b/x",
            "eval 'cd q' && cat ../../a/b/x",
        ] {
            assert!(outside(cmd, "/a/b").is_some(), "{cmd}");
        }
    }

    #[test]
    fn only_cd_is_cd_in_scope() {
        let f = LineFacts::of("pushd src; cd src; X=1 cd src");
        let place = Place {
            root: Some("/p"),
            ..Place::default()
        };
        let r = Scope::at(place).expect("scope").check(&f);
        assert_eq!(r.cd_inside, [false, true, true]);
    }

    #[test]
    fn cluster_values_are_read_from_the_first_slash_and_a_trailing_dotdot() {
        fn v(w: &str) -> Vec<&str> {
            values(w).collect()
        }
        assert_eq!(v("-o/etc/x"), ["/etc/x"]);
        assert_eq!(v("-xf/etc/shadow"), ["f/etc/shadow", "/etc/shadow"]);
        assert_eq!(v("-xC/etc"), ["C/etc", "/etc"]);
        assert_eq!(v("-vo/etc/x"), ["o/etc/x", "/etc/x"]);
        assert_eq!(v("-C.."), ["..", "."]);
        assert_eq!(v("-xC.."), ["C..", "..", "."]);
        assert_eq!(v("-xC../x"), ["C../x", "/x", "../x", "./x"]);
        assert_eq!(v("--out=/etc/x"), ["/etc/x"]);
        assert!(v("--dir/etc").is_empty());
        for w in [
            "-xf/etc/shadow",
            "-xC/etc",
            "-vo/etc/x",
            "-xC..",
            "-xC../../x",
        ] {
            assert!(outside(&format!("tar {w} f"), "/p").is_some(), "{w}");
        }
        assert_eq!(outside("tar -xfa.tar -C. -la", "/p"), None);
    }
}
