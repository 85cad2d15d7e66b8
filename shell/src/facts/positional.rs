//! **[round 4]** The positional parameters of a `-c` string (SPEC §4.3):
//! in `bash -c 'STRING' a b c`, `$0` is `a`, `$1` is `b`… and `"$@"` the
//! words from `$1` on, with their kinds — a literal word is that word, a
//! `find` run's `{}` the paths found (an unknown word, whose text stays
//! `{}` so that its reading as found paths holds), a position with no
//! word is empty. `find src -exec sh -c 'prettier --write "$1"' _ {} \;`
//! is read as `prettier --write {}`.
//!
//! The string is read first (its words keep `$1` as text, unknown); then
//! each word whose text holds a positional parameter is rewritten, as the
//! loop variable of a `for` is (SPEC §4.2). What cannot be rewritten for
//! certain stays unknown, as it was: a string that names `shift`, `set`,
//! `eval`, `source` or `.`, or defines a function; a string that holds a `$` inside
//! single quotes or escaped, `IFS` or a here-document (the text of a
//! word no longer says which `$1` was quoted), any other spelling
//! (`${1:-x}`, `$#`), a position at or after an argument that may be
//! several words (an unquoted expansion, the `{}` before find's `+`),
//! and an unquoted value that bash would split or glob.

use super::catalogue::builtins::POSITIONAL_SETTERS;
use crate::reader::{CommandLine, Context, Known, Segment};
use std::borrow::Cow;

/// The arguments after a `-c` string (`$0` first), with what is known of
/// each.
pub(crate) type Arguments<'w> = [(Cow<'w, str>, Known)];

/// `line` (read from `src`) with the positional parameters of its words
/// and redirection targets given `args`; unchanged where they cannot be
/// read for certain.
pub(crate) fn substitute(
    mut line: CommandLine<'static>,
    src: &str,
    args: &Arguments<'_>,
) -> CommandLine<'static> {
    if !src.contains('$') || !plain_dollars(src) || src.contains("IFS") || src.contains("<<") {
        return line;
    }
    // A `shift`, `set -- …` (or text that may hold one) changes what `$1`
    // is from there on; a function's `$1` is its own argument.
    let resets = line.segments.iter().any(|s| {
        s.context == Context::FunctionBody
            || s.words
                .iter()
                .any(|w| POSITIONAL_SETTERS.contains(&w.as_ref()))
    });
    if resets {
        return line;
    }
    for seg in &mut line.segments {
        substitute_segment(seg, args);
    }
    line
}

/// Does every `$` of the string stand outside single quotes, unescaped
/// (so that a word's text `$1` is always the parameter)?
fn plain_dollars(src: &str) -> bool {
    let (mut single, mut double, mut escaped) = (false, false, false);
    for c in src.chars() {
        if escaped {
            if c == '$' {
                return false;
            }
            escaped = false;
            continue;
        }
        match c {
            '$' if single => return false,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => escaped = true,
            _ => {}
        }
    }
    true
}

/// One segment's words and redirection targets, rewritten in place.
fn substitute_segment(seg: &mut Segment<'static>, args: &Arguments<'_>) {
    if !seg.words.iter().any(|w| w.contains('$'))
        && !seg.redirects.iter().any(|r| r.target.contains('$'))
    {
        return;
    }
    let mut words: Vec<Cow<'static, str>> = Vec::with_capacity(seg.words.len());
    let mut known: Vec<Known> = Vec::with_capacity(seg.words.len());
    for (w, k) in seg.words.iter().zip(seg.known.iter()) {
        match expand(w, *k, args, true) {
            Some(out) => {
                for (text, kn) in out {
                    words.push(Cow::Owned(text));
                    known.push(kn);
                }
            }
            None => {
                words.push(w.clone());
                known.push(*k);
            }
        }
    }
    seg.words = words;
    seg.known = known.into();
    for r in &mut seg.redirects {
        if let Some(mut out) = expand(&r.target, r.known, args, false) {
            if out.len() == 1 {
                let (text, kn) = out.remove(0);
                (r.target, r.known) = (text, kn);
            }
        }
    }
}

/// Where arguments may stop being one word each: the first that may be
/// several (or none), from which positions are unknown.
fn certain_until(args: &Arguments<'_>) -> usize {
    args.iter()
        .position(|(_, k)| *k == Known::AnyTokens)
        .unwrap_or(usize::MAX)
}

/// The words one word becomes: `None` when it holds no positional
/// parameter or cannot be read for certain (it stays as read).
/// `spread`: `"$@"` may become several words (not in a redirection).
fn expand(
    text: &str,
    known: Known,
    args: &Arguments<'_>,
    spread: bool,
) -> Option<Vec<(String, Known)>> {
    if !known.is_unknown() {
        return None;
    }
    let until = certain_until(args);
    if matches!(text, "$@" | "${@}" | "$*" | "${*}") {
        return all_arguments(text, known, args, spread);
    }
    let found = occurrences(text);
    // With no word after the string, `$0` is the shell's own name as
    // invoked (which a path may change): unknown.
    let no_name = |n: usize| n == 0 && args.is_empty();
    if found.is_empty() || found.iter().any(|&(_, _, n)| n >= until || no_name(n)) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let (mut last, mut unknown) = (0, false);
    for &(a, b, n) in &found {
        out.push_str(&text[last..a]);
        let (value, k) = args.get(n).map_or(("", Known::Exact), |(v, k)| (&**v, *k));
        let splits = value.is_empty() || value.contains([' ', '\t', '\n', '*', '?', '[']);
        if known == Known::AnyTokens && k == Known::Exact && splits {
            return None;
        }
        unknown |= k.is_unknown();
        out.push_str(value);
        last = b;
    }
    out.push_str(&text[last..]);
    if known == Known::AnyTokens && out.contains(['*', '?', '[']) {
        // An unquoted glob may stand beside the expansion.
        return None;
    }
    let others = text.matches('$').count() > found.len() || text.contains('`');
    let k = if unknown || others {
        known
    } else {
        Known::Exact
    };
    Some(vec![(out, k)])
}

/// `"$@"`, `$@`, `"$*"`, `$*` as a whole word: the arguments from `$1`
/// on, each a word (`"$*"` joined by blanks into one). An unknown
/// argument stays unknown (one that may be several words, as many).
fn all_arguments(
    text: &str,
    known: Known,
    args: &Arguments<'_>,
    spread: bool,
) -> Option<Vec<(String, Known)>> {
    let given = args.get(1..).unwrap_or_default();
    let quoted = known == Known::OneToken;
    let splits = |v: &str| v.is_empty() || v.contains([' ', '\t', '\n', '*', '?', '[']);
    if !quoted && given.iter().any(|(v, k)| *k == Known::Exact && splits(v)) {
        return None;
    }
    if text.contains('*') && quoted {
        let k = if given.iter().any(|(_, k)| k.is_unknown()) {
            known
        } else {
            Known::Exact
        };
        let words: Vec<&str> = given.iter().map(|(v, _)| &**v).collect();
        return Some(vec![(words.join(" "), k)]);
    }
    if !spread && (given.len() != 1 || given[0].1 == Known::AnyTokens) {
        return None;
    }
    let kind = |k: Known| match k {
        Known::AnyTokens => Known::AnyTokens,
        k if k.is_unknown() => known,
        _ => Known::Exact,
    };
    Some(
        given
            .iter()
            .map(|(v, k)| (v.to_string(), kind(*k)))
            .collect(),
    )
}

/// The byte ranges of `$N` (one digit) and `${N}` (digits) in `text`,
/// with N.
fn occurrences(text: &str) -> Vec<(usize, usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'$' {
            i += 1;
            continue;
        }
        if let Some(d) = b.get(i + 1).filter(|d| d.is_ascii_digit()) {
            out.push((i, i + 2, usize::from(d - b'0')));
            i += 2;
            continue;
        }
        if b.get(i + 1) == Some(&b'{') {
            let digits = b[i + 2..].iter().take_while(|d| d.is_ascii_digit()).count();
            if digits > 0 && b.get(i + 2 + digits) == Some(&b'}') {
                let n = text[i + 2..i + 2 + digits].parse().unwrap_or(usize::MAX);
                out.push((i, i + 3 + digits, n));
                i += 3 + digits;
                continue;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader;

    fn words(src: &str, args: &[(&str, Known)]) -> Vec<Vec<(String, Known)>> {
        let args: Vec<(Cow<'_, str>, Known)> =
            args.iter().map(|(a, k)| (Cow::from(*a), *k)).collect();
        let line = substitute(reader::read(src).into_owned(), src, &args);
        line.segments
            .iter()
            .map(|s| {
                s.words
                    .iter()
                    .map(|w| w.to_string())
                    .zip(s.known.iter().copied())
                    .collect()
            })
            .collect()
    }

    const E: Known = Known::Exact;

    #[test]
    fn positions_stand_for_the_words_after_the_string() {
        let w = words(r#"prettier --write "$1""#, &[("_", E), ("src/a.ts", E)]);
        assert_eq!(w[0][2], ("src/a.ts".to_string(), E));
        let w = words(
            r#"echo "$0" ${2} "x$1y""#,
            &[("me", E), ("a b", E), ("c", E)],
        );
        assert_eq!(
            w[0][1..],
            [("me".into(), E), ("c".into(), E), ("xa by".into(), E)]
        );
        // No word there: empty.
        let w = words(r#"rm -rf "$1"/"#, &[("_", E)]);
        assert_eq!(w[0][2], ("/".to_string(), E));
        // `"$@"` is the words from `$1` on; `"$*"` one word.
        let w = words(
            r#"npm test "$@"; echo "$*""#,
            &[("_", E), ("a", E), ("b c", E)],
        );
        assert_eq!(w[0][2..], [("a".into(), E), ("b c".into(), E)]);
        assert_eq!(w[1][1], ("a b c".to_string(), E));
    }

    #[test]
    fn an_unknown_argument_keeps_the_parameter_unknown() {
        let w = words(r#"cat "$1""#, &[("_", E), ("{}", Known::OneToken)]);
        assert_eq!(w[0][1], ("{}".to_string(), Known::OneToken));
        // After a word that may be several, positions are unknown.
        let w = words(
            r#"cat "$2""#,
            &[("_", E), ("$X", Known::AnyTokens), ("a", E)],
        );
        assert_eq!(w[0][1], ("$2".to_string(), Known::OneToken));
    }

    #[test]
    fn what_cannot_be_read_for_certain_stays_unknown() {
        // Unquoted and split by bash.
        let w = words("cat $1", &[("_", E), ("a b", E)]);
        assert_eq!(w[0][1], ("$1".to_string(), Known::AnyTokens));
        // A `$1` in single quotes is text: the string is left as read.
        let w = words(r#"echo "$1"'$1'"#, &[("_", E), ("a", E)]);
        assert_eq!(w[0][1].1, Known::OneToken);
        // Another spelling.
        let w = words(r#"cat "${1:-x}""#, &[("_", E), ("a", E)]);
        assert_eq!(w[0][1].1, Known::OneToken);
        // `shift` and `set --` change the parameters; a function has its own.
        let w = words(
            r#"shift; git "$1""#,
            &[("_", E), ("status", E), ("push", E)],
        );
        assert_eq!(w[1][1].1, Known::OneToken);
        let w = words(r#"set -- push; git "$1""#, &[("_", E), ("status", E)]);
        assert_eq!(w[1][1].1, Known::OneToken);
        // Another expansion in the word.
        let w = words(r#"cat "$1$HOME""#, &[("_", E), ("a", E)]);
        assert_eq!(w[0][1], ("a$HOME".to_string(), Known::OneToken));
    }
}
