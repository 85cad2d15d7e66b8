//! Unknown words (SPEC §4.4): what a word that comes from an expansion may
//! be, for deny and ask patterns and the built-ins.
//!
//! An unknown word inside double quotes ([`Known::OneToken`]) is possibly
//! any one token; an unquoted one ([`Known::AnyTokens`]) possibly any run of
//! tokens, none included. A match that holds only through them is
//! *possible*; a match on the words' literal text is *certain*.

use permc_grammar::pattern::PatToken;
use permc_grammar::shell::Known;
use std::borrow::Cow;

/// How a pattern matches a segment's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Hit {
    /// It does not match, whatever the unknown words are.
    No,
    /// It matches for some values of the unknown words.
    Possible,
    /// It matches the words' literal text (SPEC §3.2).
    Certain,
}

/// Matches the tokens of a Terminal pattern (empty: `Terminal()`) against
/// words. Linear scans: the set of pattern positions reachable after each
/// word (at most `tokens.len() + 1` of them).
pub fn hit(tokens: &[PatToken], words: &[Cow<'_, str>], known: &[Known]) -> Hit {
    if tokens.len() <= words.len() && tokens.iter().zip(words).all(|(p, w)| p.matches(w)) {
        return Hit::Certain;
    }
    // reach[j]: the first j pattern tokens can match the words read so far.
    let k = tokens.len();
    let mut reach = vec![false; k + 1];
    reach[0] = true;
    for (i, w) in words.iter().enumerate() {
        if reach[k] {
            break;
        }
        let kn = known.get(i).copied().unwrap_or(Known::Exact);
        let mut next = vec![false; k + 1];
        match kn {
            Known::Exact => {
                for j in 0..k {
                    if reach[j] && tokens[j].matches(w) {
                        next[j + 1] = true;
                    }
                }
            }
            Known::Glob => {
                // Any run of tokens each matching the glob, none included
                // (SPEC §4.4 item 4): a forward pass from every reachable
                // position.
                next.clone_from(&reach);
                for j in 0..k {
                    if next[j] && glob_token(w, &tokens[j]) {
                        next[j + 1] = true;
                    }
                }
            }
            Known::OneToken => {
                for j in 0..k {
                    if reach[j] {
                        next[j + 1] = true;
                    }
                }
            }
            Known::AnyTokens => {
                // Any run of tokens, none included: from the first
                // reachable position on, every later one.
                if let Some(first) = reach.iter().position(|r| *r) {
                    for n in next.iter_mut().skip(first) {
                        *n = true;
                    }
                }
            }
        }
        reach = next;
        if !reach.iter().any(|r| *r) {
            return Hit::No;
        }
    }
    if reach[k] {
        Hit::Possible
    } else {
        Hit::No
    }
}

/// Can a word of glob `glob` be the pattern token `t` (SPEC §4.4 item 4)?
pub fn glob_token(glob: &str, t: &PatToken) -> bool {
    match t {
        PatToken::Exact(s) => super::glob::glob_matches(glob, s),
        PatToken::Prefix(s) => super::glob::glob_may_start(glob, s),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use permc_grammar::pattern::Pattern;

    fn toks(p: &str) -> Vec<PatToken> {
        Pattern::parse(p).unwrap().tokens().unwrap().to_vec()
    }

    fn read(cmd: &str) -> (Vec<Cow<'_, str>>, Vec<Known>) {
        let l = permc_grammar::shell::read(cmd);
        let s = l.segments.into_iter().next().unwrap();
        (s.words, s.known.to_vec())
    }

    #[test]
    fn unknown_words_match_possibly() {
        let push = toks("Terminal(git push)");
        for (cmd, want) in [
            ("git push", Hit::Certain),
            ("git $c", Hit::Possible),
            ("git \"$c\"", Hit::Possible),
            ("git${IFS}push", Hit::Possible),
            ("git $(echo push)", Hit::Possible),
            ("git status", Hit::No),
            ("git \"$c\" --force", Hit::Possible),
            ("$g", Hit::Possible),
            ("\"$g\"", Hit::No),
            ("\"$g\" push", Hit::Possible),
            ("echo $x", Hit::No),
        ] {
            let (w, k) = read(cmd);
            assert_eq!(hit(&push, &w, &k), want, "{cmd}");
        }
    }
}
