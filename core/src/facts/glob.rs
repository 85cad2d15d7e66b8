//! bash's pathname matching, for a word that holds a glob (SPEC §4.4 item
//! 4, §6.4): what a glob could expand to, read exactly as bash 5.2 reads
//! it without `dotglob`, `extglob`, `nocaseglob` or `globstar` (a `shopt`
//! that sets one makes the line unparsed, §6.2).
//!
//! `*` matches any run of characters and `?` any one, `[…]` one of a set
//! (`!` or `^` first negates it; ranges `a-z`, classes `[:alpha:]`; a `]`
//! first is literal; without a closing `]` the `[` is literal), a
//! backslash makes the next character literal. None of them matches a
//! `/`, and a `.` at the start of the text or right after a `/` is matched
//! only by a literal `.` (bash checked: `[.]git`, `?git` and `*` never
//! reach `.git`; `.gi?` does).
//!
//! Matching is a dynamic program over the glob's tokens and the text:
//! O(tokens × text) time, O(tokens) memory, never exponential.

/// One element of a glob.
#[derive(Debug, Clone)]
enum Token {
    /// This character.
    Lit(char),
    /// `?`: any one character.
    One,
    /// `*`: any run of characters.
    Star,
    /// `[…]`: one character of the set (or, negated, not of it).
    Set { negated: bool, items: Vec<Item> },
}

#[derive(Debug, Clone)]
enum Item {
    Range(char, char),
    Class(fn(char) -> bool),
}

fn class(name: &str) -> Option<fn(char) -> bool> {
    Some(match name {
        "alpha" => |c: char| c.is_ascii_alphabetic(),
        "digit" => |c: char| c.is_ascii_digit(),
        "alnum" => |c: char| c.is_ascii_alphanumeric(),
        "upper" => |c: char| c.is_ascii_uppercase(),
        "lower" => |c: char| c.is_ascii_lowercase(),
        "space" => |c: char| c.is_ascii_whitespace(),
        "blank" => |c: char| c == ' ' || c == '\t',
        "punct" => |c: char| c.is_ascii_punctuation(),
        "xdigit" => |c: char| c.is_ascii_hexdigit(),
        "cntrl" => |c: char| c.is_ascii_control(),
        "graph" => |c: char| c.is_ascii_graphic(),
        "print" => |c: char| c.is_ascii_graphic() || c == ' ',
        "word" => |c: char| c.is_ascii_alphanumeric() || c == '_',
        _ => return None,
    })
}

/// How many `[` may start a scan that finds no `]` ([`tokens`]).
const MAX_FAILED_SETS: usize = 64;

/// The longest class name (`xdigit`), with room to spare.
const MAX_CLASS_NAME: usize = 8;

/// The set of a `[` at `chars[at]`, and the index after its `]`; `None`
/// when no `]` closes it (then the `[` is literal).
fn set(chars: &[char], at: usize) -> Option<(Token, usize)> {
    let mut i = at + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut items = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(i)?;
        if c == ']' && !first {
            return Some((Token::Set { negated, items }, i + 1));
        }
        first = false;
        if c == '[' && chars.get(i + 1) == Some(&':') {
            // Class names are short: look no further (a set of many `[:`
            // stays linear).
            let rest = &chars[i + 2..chars.len().min(i + 2 + MAX_CLASS_NAME + 2)];
            if let Some(end) = rest.windows(2).position(|w| w == [':', ']']) {
                let name: String = rest[..end].iter().collect();
                // An unknown class matches nothing, as in bash.
                items.push(Item::Class(class(&name).unwrap_or(|_| false)));
                i += 2 + end + 2;
                continue;
            }
        }
        let (lo, next) = match c {
            '\\' => (*chars.get(i + 1)?, i + 2),
            _ => (c, i + 1),
        };
        i = next;
        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&d| d != ']') {
            let (hi, next) = match chars[i + 1] {
                '\\' => (*chars.get(i + 2)?, i + 3),
                d => (d, i + 2),
            };
            items.push(Item::Range(lo, hi));
            i = next;
        } else {
            items.push(Item::Range(lo, lo));
        }
    }
}

fn tokens(glob: &str) -> Vec<Token> {
    let chars: Vec<char> = glob.chars().collect();
    let last_close = chars.iter().rposition(|&c| c == ']');
    let mut failed = 0;
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '*' => {
                // `**` is `*` without globstar.
                if !matches!(out.last(), Some(Token::Star)) {
                    out.push(Token::Star);
                }
                i += 1;
            }
            '?' => {
                out.push(Token::One);
                i += 1;
            }
            '\\' => {
                out.push(Token::Lit(chars.get(i + 1).copied().unwrap_or('\\')));
                i += 2;
            }
            // No `]` after it (past a first one, which is literal): no
            // set can close, so no scan (a word of many `[` stays linear).
            '[' if last_close.is_none_or(|k| k <= i + 1) => {
                out.push(Token::Lit('['));
                i += 1;
            }
            // Past a few scans that found no `]` (each may read to the
            // end), a `[` stands for any one character: fail closed, and
            // linear.
            '[' if failed >= MAX_FAILED_SETS => {
                out.push(Token::One);
                i += 1;
            }
            '[' => match set(&chars, i) {
                Some((t, next)) => {
                    out.push(t);
                    i = next;
                }
                None => {
                    failed += 1;
                    out.push(Token::Lit('['));
                    i += 1;
                }
            },
            c => {
                out.push(Token::Lit(c));
                i += 1;
            }
        }
    }
    out
}

/// Does token `t` match the one character `c`, `leading` when `c` starts
/// the text or follows a `/`?
fn one(t: &Token, c: char, leading: bool) -> bool {
    match t {
        Token::Lit(l) => *l == c,
        _ if c == '/' || (leading && c == '.') => false,
        Token::One | Token::Star => true,
        Token::Set { negated, items } => {
            let hit = items.iter().any(|i| match i {
                Item::Range(lo, hi) => *lo <= c && c <= *hi,
                Item::Class(f) => f(c),
            });
            hit != *negated
        }
    }
}

/// Does the glob match the whole text, as bash's pathname expansion reads
/// it (see the module's notes)?
pub fn glob_matches(glob: &str, text: &str) -> bool {
    let toks = tokens(glob);
    // reach[k]: the first k tokens match the text read so far.
    let mut reach = vec![false; toks.len() + 1];
    reach[0] = true;
    close_stars(&toks, &mut reach);
    let mut prev = '/';
    for c in text.chars() {
        let leading = prev == '/';
        let mut next = vec![false; toks.len() + 1];
        for (k, t) in toks.iter().enumerate() {
            if !reach[k] || !one(t, c, leading) {
                continue;
            }
            if matches!(t, Token::Star) {
                // A star stays to take more.
                next[k] = true;
            }
            next[k + 1] = true;
        }
        close_stars(&toks, &mut next);
        if !next.iter().any(|r| *r) {
            return false;
        }
        reach = next;
        prev = c;
    }
    reach[toks.len()]
}

/// A star may match nothing: reaching it reaches past it.
fn close_stars(toks: &[Token], reach: &mut [bool]) {
    for (k, t) in toks.iter().enumerate() {
        if reach[k] && matches!(t, Token::Star) {
            reach[k + 1] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::glob_matches as m;

    #[test]
    fn stars_and_questions() {
        assert!(m("*.log", "a.log"));
        assert!(!m("*.log", "a.txt"));
        assert!(m("*", "abc"));
        assert!(m("a*b*c", "aXbYc"));
        assert!(!m("a*b*c", "aXbY"));
        assert!(m("pu?h", "push"));
        assert!(!m("pu?h", "puh"));
        assert!(m("**", "x"));
        assert!(m("", ""));
        assert!(!m("", "x"));
    }

    #[test]
    fn never_a_slash() {
        assert!(!m("*", "a/b"));
        assert!(!m("a?b", "a/b"));
        assert!(!m("a[/]b", "a/b"));
        assert!(m("dist/*", "dist/x"));
        assert!(!m("dist/*", "/"));
    }

    #[test]
    fn leading_dot_only_literally() {
        assert!(!m("*", ".git"));
        assert!(!m("?git", ".git"));
        assert!(!m("[.]git", ".git"));
        assert!(m(".gi?", ".git"));
        assert!(m(".*", ".git"));
        assert!(m(".*", ".."));
        assert!(m(".[.]", ".."));
        assert!(!m("x/*", "x/.git"));
        assert!(m("x/.*", "x/.git"));
        assert!(m("a*", "a.b"));
    }

    #[test]
    fn sets() {
        assert!(m("[abc]x", "bx"));
        assert!(!m("[!abc]x", "bx"));
        assert!(!m("[^abc]x", "bx"));
        assert!(m("[a-z]", "q"));
        assert!(!m("[a-z]", "Q"));
        assert!(m("[]]", "]"));
        assert!(m("[!]]", "a"));
        assert!(m("[[:digit:]]x", "7x"));
        assert!(!m("[[:digit:]]x", "ax"));
        assert!(m("[", "["));
        assert!(m("a[b", "a[b"));
        assert!(m("-[r]f", "-rf"));
        assert!(m("[-]delete", "-delete"));
    }

    #[test]
    fn escapes() {
        assert!(m("\\*", "*"));
        assert!(!m("\\*", "a"));
        assert!(m("a\\?", "a?"));
        assert!(m("[\\]]", "]"));
    }

    #[test]
    fn long_inputs_stay_linear() {
        let g = "*a".repeat(2000);
        let t = "a".repeat(1999);
        assert!(!m(&g, &t));
        let opens = "[".repeat(200_000);
        assert!(!m(&opens, ".git"));
        let classes = format!("[{}]", "[:".repeat(100_000));
        assert!(!m(&classes, ".git"));
        let failing = format!("{}]", "[[:a:]".repeat(50_000));
        assert!(!m(&failing, ".git"));
    }
}
