//! Patterns (SPEC §3): `Label(content)` and token-prefix matching.

use crate::action::{closest, ActionType};
use crate::shell::{self, Unparsed};
use pest::Parser as _;
use std::fmt;

/// The pest grammar of patterns (`pattern.pest`); its derive generates
/// the `Rule` enum, private to this module.
mod grammar {
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "pattern.pest"]
    pub(super) struct PatternGrammar;
}
use grammar::{PatternGrammar, Rule};

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// The pattern as written.
    pub text: String,
    /// The action type its label names.
    pub action: ActionType,
    /// What it matches.
    pub body: PatternBody,
}

/// What a pattern matches (SPEC §3.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternBody {
    /// `Label()`: every action of the type (every segment, for Terminal).
    Any,
    /// Terminal content: a token prefix (SPEC §3.2). May be empty when the
    /// content is only blanks, which matches every segment as `Terminal()`.
    Tokens(Vec<PatToken>),
    /// Valid, but matches nothing.
    Nothing(DeadReason),
}

/// Why a valid pattern can match nothing (SPEC §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadReason {
    /// A non-Terminal label with content, like `GitPush(x)`.
    ContentOnTypedLabel,
    /// Terminal content that is not one simple command: an operator, a
    /// redirection, a substitution or a subshell.
    NotSimpleCommand,
}

/// One pattern token (SPEC §3.2).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PatToken {
    /// Matches the word with exactly this text.
    Exact(String),
    /// A prefix wildcard `text*`: matches every word starting with `text`.
    Prefix(String),
}

impl PatToken {
    /// Does this token match `word`?
    pub fn matches(&self, word: &str) -> bool {
        match self {
            PatToken::Exact(t) => t == word,
            PatToken::Prefix(p) => word.starts_with(p.as_str()),
        }
    }

    /// The token's text (without the wildcard star).
    pub fn text(&self) -> &str {
        match self {
            PatToken::Exact(t) | PatToken::Prefix(t) => t,
        }
    }
}

impl fmt::Display for PatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatToken::Exact(t) => write!(f, "{t}"),
            PatToken::Prefix(t) => write!(f, "{t}*"),
        }
    }
}

impl Pattern {
    /// Parses a pattern string (SPEC §3.1).
    ///
    /// ```
    /// use permc_grammar::pattern::{Pattern, PatToken, PatternBody};
    /// let p = Pattern::parse("Terminal(pnpm test:*)").unwrap();
    /// assert_eq!(p.body, PatternBody::Tokens(vec![
    ///     PatToken::Exact("pnpm".into()), PatToken::Prefix("test:".into())]));
    /// assert!(p.matches_words(&["pnpm", "test:unit"]));
    /// assert!(!p.matches_words(&["pnpm", "test"]));
    /// ```
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        let (label, content, content_offset) = match split_fast(text) {
            Some(parts) => parts,
            None => split_pest(text)?,
        };
        let Some(action) = ActionType::from_label(label) else {
            let suggestion = closest(label, ActionType::ALL.iter().map(|t| t.label()));
            return Err(PatternError {
                kind: PatternErrorKind::UnknownLabel {
                    suggestion: suggestion.map(str::to_string),
                },
                offset: 0,
                len: label.len().max(1),
                message: format!("unknown label `{label}`"),
                help: match suggestion {
                    Some(s) => format!("did you mean `{s}`? labels are case-sensitive"),
                    None => "use one of the labels of the action table (Terminal, GitCommit, GitPush, …)".into(),
                },
            });
        };
        let body = if content.is_empty() {
            PatternBody::Any
        } else if action != ActionType::Terminal {
            PatternBody::Nothing(DeadReason::ContentOnTypedLabel)
        } else {
            terminal_body(content, content_offset)?
        };
        Ok(Pattern {
            text: text.to_string(),
            action,
            body,
        })
    }

    /// Does this Terminal pattern match a segment with these argument words?
    /// (SPEC §3.2.) Non-Terminal patterns match no segment.
    pub fn matches_words<S: AsRef<str>>(&self, words: &[S]) -> bool {
        if self.action != ActionType::Terminal {
            return false;
        }
        match &self.body {
            PatternBody::Any => true,
            PatternBody::Nothing(_) => false,
            PatternBody::Tokens(tokens) => {
                tokens.len() <= words.len()
                    && tokens.iter().zip(words).all(|(p, w)| p.matches(w.as_ref()))
            }
        }
    }

    /// Does this pattern match every action of `action` (a `Label()` entry)?
    pub fn matches_type(&self, action: ActionType) -> bool {
        self.action == action && self.body == PatternBody::Any
    }

    /// The tokens of a Terminal pattern (empty for `Terminal()`), or `None`
    /// when the pattern matches no segment.
    pub fn tokens(&self) -> Option<&[PatToken]> {
        if self.action != ActionType::Terminal {
            return None;
        }
        match &self.body {
            PatternBody::Any => Some(&[]),
            PatternBody::Tokens(t) => Some(t),
            PatternBody::Nothing(_) => None,
        }
    }
}

/// `Label(content)` split by hand, exactly as the pest grammar splits it
/// (the label is every byte before the first `(`, the content every byte up
/// to the final `)`); `None` when the text is not of that form, and pest
/// then words the error. Pest's per-character lookahead on the content was
/// most of the time of loading a 100k-rule file.
fn split_fast(text: &str) -> Option<(&str, &str, usize)> {
    let open = text.find('(')?;
    let mut label = text[..open].bytes();
    let first_ok = label.next().is_some_and(|c| c.is_ascii_alphabetic());
    if !first_ok || !label.all(|c| c.is_ascii_alphanumeric() || c == b'_') || !text.ends_with(')') {
        return None;
    }
    let content = text.get(open + 1..text.len() - 1)?;
    Some((&text[..open], content, open + 1))
}

/// The pest grammar's split, with its error.
fn split_pest(text: &str) -> Result<(&str, &str, usize), PatternError> {
    let mut pairs = PatternGrammar::parse(Rule::pattern, text).map_err(|e| {
        let offset = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((s, _)) => s,
        };
        PatternError {
            kind: PatternErrorKind::Syntax,
            offset,
            len: text.len().saturating_sub(offset).max(1),
            message: format!("`{text}` is not of the form `Label(content)`"),
            help: "write a label from the action table followed by parentheses, like `Terminal(pnpm test)` or `GitPush()`".into(),
        }
    })?;
    let mut label = "";
    let mut content = "";
    let mut content_offset = 0;
    if let Some(p) = pairs.next() {
        for inner in p.into_inner() {
            match inner.as_rule() {
                Rule::label => label = inner.as_str(),
                Rule::content => {
                    content = inner.as_str();
                    content_offset = inner.as_span().start();
                }
                _ => {}
            }
        }
    }
    Ok((label, content, content_offset))
}

fn terminal_body(content: &str, content_offset: usize) -> Result<PatternBody, PatternError> {
    // A command line longer than that is read in part (SPEC §4.2): a
    // pattern is read whole or not at all, and its memory is bounded so.
    if content.len() > shell::MAX_LEN {
        return Err(PatternError {
            kind: PatternErrorKind::Syntax,
            offset: content_offset,
            len: content.len(),
            message: format!(
                "the content of this Terminal pattern is {} bytes, more than a command line permc reads ({} bytes)",
                content.len(),
                shell::MAX_LEN
            ),
            help: "shorten the pattern: it can never match a command this long".into(),
        });
    }
    let line = shell::read_detailed(content);
    for why in &line.unparsed {
        if matches!(
            why,
            Unparsed::UnclosedQuote | Unparsed::UnclosedSubstitution | Unparsed::TooDeep
        ) {
            return Err(PatternError {
                kind: PatternErrorKind::Unclosed,
                offset: content_offset,
                len: content.len().max(1),
                message: format!("{} in the content of this Terminal pattern", why.describe()),
                help: "close the quote or substitution, or escape it with a backslash".into(),
            });
        }
    }
    // One simple command and nothing else (SPEC §3.1): no operator, not
    // even a trailing `;`, `&` or `|` (`Terminal(ls;)` matches nothing),
    // and no content that reads as no command at all (a comment, an
    // arithmetic command) unless the content is only blanks.
    let blank = content.bytes().all(|b| b == b' ' || b == b'\t');
    let simple = !line.operators
        && (line.segments.len() == 1 || (line.segments.is_empty() && blank))
        && line.segments.iter().all(|s| {
            s.redirects.is_empty() && !s.nested && s.words.iter().all(|w| !w.substitution)
        });
    if !simple {
        return Ok(PatternBody::Nothing(DeadReason::NotSimpleCommand));
    }
    let tokens = line
        .segments
        .into_iter()
        .flat_map(|s| s.words)
        .map(|w| {
            // An empty word (`''`) has no star to drop.
            let prefix_len = w.text.len().saturating_sub(1);
            if w.trailing_unquoted_star && prefix_len > 0 && !w.text[..prefix_len].ends_with('/') {
                PatToken::Prefix(w.text[..prefix_len].to_string())
            } else {
                PatToken::Exact(w.text)
            }
        })
        .collect();
    Ok(PatternBody::Tokens(tokens))
}

/// Why a pattern does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// What kind of error.
    pub kind: PatternErrorKind,
    /// Byte offset in the pattern text where the problem starts.
    pub offset: usize,
    /// Bytes the problem covers.
    pub len: usize,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
}

/// The kinds of pattern errors (they map to analyzer checks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternErrorKind {
    /// Not `Label(content)`.
    Syntax,
    /// A label not in SPEC §1.
    UnknownLabel {
        /// The closest real label.
        suggestion: Option<String>,
    },
    /// An unclosed quote or substitution in Terminal content.
    Unclosed,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for PatternError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, cmd: &str) -> bool {
        let p = Pattern::parse(p).expect("pattern");
        let line = shell::read(cmd);
        p.matches_words(&line.segments[0].words)
    }

    #[test]
    fn spec_matching_table() {
        assert!(m("Terminal(pnpm test)", "pnpm test"));
        assert!(m("Terminal(pnpm test)", "pnpm test --watch"));
        assert!(!m("Terminal(pnpm test)", "pnpm build"));
        assert!(m("Terminal(pnpm test:*)", "pnpm test:unit"));
        assert!(!m("Terminal(pnpm test:*)", "pnpm test"));
        assert!(!m("Terminal(rm)", "sudo rm -rf x"));
        assert!(m("Terminal(rm -rf /*)", "rm -rf /*"));
        assert!(!m("Terminal(rm -rf /*)", "rm -rf /home"));
        assert!(!m("Terminal(ls)", "lsof"));
    }

    #[test]
    fn literal_stars() {
        for p in [
            "Terminal(*)",
            "Terminal('a*')",
            "Terminal(a\\*)",
            "Terminal(a*b)",
            "Terminal(src/*)",
        ] {
            let pat = Pattern::parse(p).expect("parses");
            match pat.body {
                PatternBody::Tokens(t) => assert!(matches!(t[0], PatToken::Exact(_)), "{p}"),
                other => panic!("{p}: {other:?}"),
            }
        }
    }

    #[test]
    fn hand_split_equals_pest() {
        // Every string of up to 6 characters over a colliding alphabet.
        let alphabet = ['A', 'b', '_', '1', '(', ')', ' '];
        let mut layer = vec![String::new()];
        for _ in 0..6 {
            let mut next = Vec::new();
            for s in &layer {
                for c in alphabet {
                    let t = format!("{s}{c}");
                    assert_eq!(split_fast(&t), split_pest(&t).ok(), "{t:?}");
                    next.push(t);
                }
            }
            layer = next;
        }
    }

    #[test]
    fn forms() {
        assert_eq!(
            Pattern::parse("GitPush()").expect("ok").body,
            PatternBody::Any
        );
        assert_eq!(
            Pattern::parse("GitPush(x)").expect("ok").body,
            PatternBody::Nothing(DeadReason::ContentOnTypedLabel)
        );
        assert_eq!(
            Pattern::parse("Terminal(cd src && npm test)")
                .expect("ok")
                .body,
            PatternBody::Nothing(DeadReason::NotSimpleCommand)
        );
        assert!(Pattern::parse("Terminal(echo 'a)").is_err());
        // Not one simple command: valid, matches nothing (SPEC §3.1).
        for p in [
            "Terminal(ls;)",
            "Terminal(ls &)",
            "Terminal(ls |)",
            "Terminal(ls&&)",
            "Terminal(ls\n)",
            "Terminal(ls\\\n;)",
            "Terminal(# ls)",
            "Terminal(((1)))",
            "Terminal(time { ls; })",
            "Terminal(ls <<E)",
        ] {
            let pat = Pattern::parse(p).expect("valid");
            assert_eq!(
                pat.body,
                PatternBody::Nothing(DeadReason::NotSimpleCommand),
                "{p}"
            );
            assert!(!pat.matches_words(&["ls"]), "{p}");
        }
        assert_eq!(
            Pattern::parse("Terminal( )").expect("ok").tokens(),
            Some(&[][..])
        );
        assert!(Pattern::parse("Terminal(l\\\ns)")
            .expect("ok")
            .matches_words(&["ls"]));
        assert!(Pattern::parse("gitpush()").is_err());
        assert!(Pattern::parse(" Terminal(ls)").is_err());
        assert!(Pattern::parse("Terminal(ls) ").is_err());
        assert!(Pattern::parse("Terminal").is_err());
        // An empty word is a token too (it once underflowed).
        let p = Pattern::parse("Terminal(cat '')").expect("ok");
        assert_eq!(
            p.tokens(),
            Some(
                &[
                    PatToken::Exact("cat".into()),
                    PatToken::Exact(String::new())
                ][..]
            )
        );
        // `${…}` is an expansion kept literally, not a command: the pattern
        // is a plain token (the analyzer's literal-variable, not dead).
        let p = Pattern::parse("Terminal(echo ${HOME})").expect("ok");
        assert!(p.matches_words(&["echo", "${HOME}"]));
        let p = Pattern::parse("Terminal(echo \"a)b\")").expect("ok");
        assert!(p.matches_words(&["echo", "a)b"]));
    }
}
