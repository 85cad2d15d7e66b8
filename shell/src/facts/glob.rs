//! Glob words (SPEC §4.4 item 4): what bash's pathname expansion can turn
//! an unquoted `*`, `?` or `[…]` into.
//!
//! bash expands a glob word against the files that exist when its segment
//! runs, and an earlier segment of the same line can create them (`touch
//! push; git pu?h`). So for deny, ask, the built-ins and the ceilings a
//! glob word is possibly any run of tokens each matching the glob. Read
//! exactly as bash matches file names: `*` and `?` never match `/`, and a
//! `.` that starts a name (the word's first character, or one after a `/`)
//! is matched only by a literal `.` (bash without `dotglob`; `shopt` makes
//! a line unparsed). A coarser reading would ask for everyday commands
//! (`rm -rf dist/*` is no possible `rm -rf /`).
//!
//! Matching simulates the glob as an automaton over its elements: time
//! O(glob × text), no backtracking.

/// One element of a glob.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Elem {
    /// A character matched literally.
    Lit(char),
    /// `?`: any one character but `/`.
    One,
    /// `*`: any run of characters without `/`.
    Star,
    /// `[…]`: one character of the set (`negated`: not of it), never `/`.
    Class {
        negated: bool,
        items: Vec<ClassItem>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum ClassItem {
    Char(char),
    Range(char, char),
    Named(String),
}

fn parse(glob: &str) -> Vec<Elem> {
    let cs: Vec<char> = glob.chars().collect();
    // A `[` with no `]` after it is literal: known at once, so a word of
    // many unclosed `[` is read in linear time, not by a scan from each.
    let last_close = cs.iter().rposition(|&c| c == ']');
    let last_colon_close = cs.windows(2).rposition(|w| w == [':', ']']);
    let mut out = Vec::with_capacity(cs.len());
    let mut i = 0;
    while i < cs.len() {
        match cs[i] {
            '\\' if i + 1 < cs.len() => {
                out.push(Elem::Lit(cs[i + 1]));
                i += 2;
                continue;
            }
            '*' => {
                // `**` is `*` (no globstar without shopt).
                if out.last() != Some(&Elem::Star) {
                    out.push(Elem::Star);
                }
            }
            '?' => out.push(Elem::One),
            '[' => {
                let closable = last_close.is_some_and(|l| l > i + 1);
                if let Some((class, next)) = closable
                    .then(|| parse_class(&cs, i, last_colon_close))
                    .flatten()
                {
                    out.push(class);
                    i = next;
                    continue;
                }
                out.push(Elem::Lit('['));
            }
            c => out.push(Elem::Lit(c)),
        }
        i += 1;
    }
    out
}

/// A bracket expression at `cs[open]` (`[`): the element and the index
/// past its `]`, or `None` when it never closes (the `[` is literal).
fn parse_class(cs: &[char], open: usize, last_colon_close: Option<usize>) -> Option<(Elem, usize)> {
    let mut i = open + 1;
    let negated = matches!(cs.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut items = Vec::new();
    let mut first = true;
    loop {
        let c = *cs.get(i)?;
        if c == ']' && !first {
            return Some((Elem::Class { negated, items }, i + 1));
        }
        first = false;
        if c == '[' && cs.get(i + 1) == Some(&':') && last_colon_close.is_some_and(|l| l > i + 1) {
            // `[:alpha:]`
            let rest = &cs[i + 2..];
            if let Some(end) = rest.windows(2).position(|w| w == [':', ']']) {
                items.push(ClassItem::Named(rest[..end].iter().collect()));
                i += 2 + end + 2;
                continue;
            }
        }
        let c = if c == '\\' {
            i += 1;
            *cs.get(i)?
        } else {
            c
        };
        if cs.get(i + 1) == Some(&'-') && cs.get(i + 2).is_some_and(|&e| e != ']') {
            let hi = cs[i + 2];
            items.push(ClassItem::Range(c, hi));
            i += 3;
        } else {
            items.push(ClassItem::Char(c));
            i += 1;
        }
    }
}

fn named(name: &str, c: char) -> bool {
    match name {
        "alpha" => c.is_alphabetic(),
        "digit" => c.is_ascii_digit(),
        "alnum" => c.is_alphanumeric(),
        "upper" => c.is_uppercase(),
        "lower" => c.is_lowercase(),
        "space" => c.is_whitespace(),
        "blank" => c == ' ' || c == '\t',
        "punct" => c.is_ascii_punctuation(),
        "xdigit" => c.is_ascii_hexdigit(),
        "cntrl" => c.is_control(),
        "print" => !c.is_control(),
        "graph" => !c.is_control() && !c.is_whitespace(),
        "word" => c.is_alphanumeric() || c == '_',
        // An unknown class: it may hold any character (fail closed).
        _ => true,
    }
}

impl Elem {
    /// Does this element take character `c` (not a name-leading `.`)?
    fn takes(&self, c: char) -> bool {
        match self {
            Elem::Lit(x) => *x == c,
            Elem::One | Elem::Star => c != '/',
            Elem::Class { negated, items } => {
                if c == '/' {
                    return false;
                }
                let hit = items.iter().any(|it| match it {
                    ClassItem::Char(x) => *x == c,
                    ClassItem::Range(lo, hi) => (*lo..=*hi).contains(&c),
                    ClassItem::Named(n) => named(n, c),
                });
                hit != *negated
            }
        }
    }
}

/// The automaton's states after reading `text`: element positions
/// (`elems.len()` is the end), only the live ones, so a long glob read
/// against a short text costs the text's length, not the glob's. Empty
/// when no string starting with `text` can match.
fn run(elems: &[Elem], text: &str) -> Vec<usize> {
    let n = elems.len();
    let close = |set: &mut Vec<usize>| {
        // A `*` may match nothing: its position reaches the next one.
        let mut k = 0;
        while k < set.len() {
            let i = set[k];
            if i < n && elems[i] == Elem::Star && !set.contains(&(i + 1)) {
                set.push(i + 1);
            }
            k += 1;
        }
    };
    let mut cur = vec![0];
    close(&mut cur);
    let mut prev = '/';
    for c in text.chars() {
        let leading_dot = c == '.' && prev == '/';
        let mut next: Vec<usize> = Vec::with_capacity(cur.len() + 1);
        for &i in &cur {
            let Some(e) = elems.get(i) else { continue };
            let ok = if leading_dot {
                *e == Elem::Lit('.')
            } else {
                e.takes(c)
            };
            let to = if *e == Elem::Star { i } else { i + 1 };
            if ok && !next.contains(&to) {
                next.push(to);
            }
        }
        if next.is_empty() {
            return next;
        }
        close(&mut next);
        cur = next;
        prev = c;
    }
    cur
}

/// A glob word's text, parsed once for many matches.
#[derive(Debug, Clone)]
pub struct Glob(Vec<Elem>);

impl Glob {
    /// Parses a word's text (quotes removed: SPEC §4.4 item 4).
    pub fn new(glob: &str) -> Glob {
        Glob(parse(glob))
    }

    /// Does it match `text` as bash's pathname expansion would?
    pub fn matches(&self, text: &str) -> bool {
        run(&self.0, text).contains(&self.0.len())
    }

    /// Can it match some text that starts with `prefix` (the text of a
    /// prefix wildcard `pre*`)?
    pub fn may_start(&self, prefix: &str) -> bool {
        !run(&self.0, prefix).is_empty()
    }
}

/// Does the glob `glob` match `text` as bash's pathname expansion would?
pub fn glob_matches(glob: &str, text: &str) -> bool {
    Glob::new(glob).matches(text)
}

/// Can the glob match some text that starts with `prefix`?
pub fn glob_may_start(glob: &str, prefix: &str) -> bool {
    Glob::new(glob).may_start(prefix)
}

/// Does the glob match one of `candidates` (a table's words)?
pub fn glob_matches_any<'a>(glob: &str, candidates: impl IntoIterator<Item = &'a str>) -> bool {
    let g = Glob::new(glob);
    candidates.into_iter().any(|t| g.matches(t))
}

/// Can one `/`-separated component of the glob match `..` (SPEC §4.4
/// item 4: for the path scope, such a word is outside)? bash's
/// `globskipdots` is off before 5.2 and can be turned off, so `.*` and `.?`
/// count.
pub fn glob_may_climb(glob: &str) -> bool {
    glob.split('/')
        .any(|c| c.contains(['*', '?', '[']) && glob_matches(c, ".."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_as_pathname_expansion_does() {
        for (g, t, want) in [
            ("pu?h", "push", true),
            ("pu*", "publish", true),
            ("-r?", "-rf", true),
            ("?D", "-D", true),
            ("[-]delete", "-delete", true),
            ("-[e]xec", "-exec", true),
            ("dist/*", "/", false),
            ("dist/*", "dist/x", true),
            ("*", "a/b", false),
            ("*", ".git", false),
            (".*", ".git", true),
            ("?", ".", false),
            ("[.]git", ".git", false),
            ("[!a]x", "bx", true),
            ("[!a]x", "ax", false),
            ("[a-c]", "b", true),
            ("[[:digit:]]", "7", true),
            ("[]]", "]", true),
            ("[x", "[x", true),
            ("a**b", "aXYb", true),
            ("*.log", "x.log", true),
            ("*.log", "x.txt", false),
        ] {
            assert_eq!(glob_matches(g, t), want, "{g} ~ {t}");
        }
    }

    #[test]
    fn many_unclosed_brackets_read_in_linear_time() {
        // Each `[` would otherwise scan to the end: 40,000 of them.
        let g = "g[$(x)".repeat(40_000);
        assert!(!glob_matches(&g, "g"));
        let g = "[:".repeat(40_000);
        assert!(glob_matches(&g[..8], "[:[:[:[:"));
        // A long glob against a short text: only live states are read.
        let g = format!("*{}", "a*".repeat(100_000));
        assert!(!glob_matches(&g, "push"));
        assert!(Glob::new(&g).may_start("a"));
    }

    #[test]
    fn prefixes_and_dots() {
        assert!(glob_may_start("pu*", "publ"));
        assert!(glob_may_start("*", "test:"));
        assert!(!glob_may_start("x*", "test:"));
        assert!(glob_may_climb(".?/secret"));
        assert!(glob_may_climb("a/.*"));
        assert!(!glob_may_climb("src/*.ts"));
        assert!(!glob_may_climb("*.log"));
    }
}
