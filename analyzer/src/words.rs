//! The words of a Terminal pattern's content *as written*, with their byte
//! ranges and the unquoted characters that matter to the checks
//! (`literal-star`, `literal-variable`). The shell reader (SPEC §4.1)
//! gives the words without quotes; the checks also need to know where a
//! word is and which of its characters the shell would have expanded.
//!
//! Only used on content the pattern reader found to be one simple
//! command, so blanks are the only separators.

/// One word of pattern content.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawWord {
    /// Byte offset of the word in the content.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// Byte offsets of the unquoted, unescaped `*` in it.
    pub unquoted_stars: Vec<usize>,
    /// Byte ranges of the parameter expansions a shell would perform
    /// (`$NAME`, `${NAME}`, `$1`, `$@`…), unquoted or in double quotes.
    pub variables: Vec<(usize, usize)>,
    /// Byte offset of an unquoted `~` a shell would expand: at the start
    /// of the word, or right after the `=` of a `NAME=` assignment.
    pub tilde: Option<usize>,
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Splits simple-command content into its words as written.
///
/// ```
/// let w = permc_analyzer::words::raw_words("cat '*' src/* \"$HOME\" ~/x");
/// assert_eq!(w.len(), 5);
/// assert!(w[1].unquoted_stars.is_empty());
/// assert_eq!(w[2].unquoted_stars, vec![12]);
/// assert_eq!(w[3].variables, vec![(15, 20)]);
/// assert_eq!(w[4].tilde, Some(22));
/// ```
pub fn raw_words(content: &str) -> Vec<RawWord> {
    let chars: Vec<(usize, char)> = content.char_indices().collect();
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let offset = |i: usize| chars.get(i).map_or(content.len(), |&(o, _)| o);
    let mut words = Vec::new();
    let mut cur: Option<RawWord> = None;
    let mut i = 0;
    while let Some(c) = at(i) {
        if c == ' ' || c == '\t' || c == '\n' {
            if let Some(mut w) = cur.take() {
                w.end = offset(i);
                words.push(w);
            }
            i += 1;
            continue;
        }
        if cur.is_none() && c == '#' {
            // A comment runs to the end of the line (SPEC §4.1).
            while at(i).is_some_and(|c| c != '\n') {
                i += 1;
            }
            continue;
        }
        let word_start = cur.is_none();
        let w = cur.get_or_insert_with(|| RawWord {
            start: offset(i),
            ..RawWord::default()
        });
        match c {
            '\\' => i += 2,
            '\'' => {
                i += 1;
                while at(i).is_some_and(|c| c != '\'') {
                    i += 1;
                }
                i += 1;
            }
            '"' => {
                i += 1;
                while let Some(c) = at(i) {
                    match c {
                        '"' => break,
                        '\\' => i += 2,
                        '$' => i = variable(&chars, i, w, content.len()),
                        _ => i += 1,
                    }
                }
                i += 1;
            }
            '$' => i = variable(&chars, i, w, content.len()),
            '*' => {
                w.unquoted_stars.push(offset(i));
                i += 1;
            }
            '~' => {
                let text_before = &content[w.start..offset(i)];
                let after_assignment = text_before.strip_suffix('=').is_some_and(|n| {
                    n.chars().next().is_some_and(is_name_start) && n.chars().all(is_name_char)
                });
                if word_start || after_assignment {
                    w.tilde.get_or_insert(offset(i));
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    if let Some(mut w) = cur {
        w.end = content.len();
        words.push(w);
    }
    words
}

/// Records the expansion starting at the `$` at char index `i`; returns
/// the index after it.
fn variable(chars: &[(usize, char)], i: usize, w: &mut RawWord, len: usize) -> usize {
    let offset = |i: usize| chars.get(i).map_or(len, |&(o, _)| o);
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let mut j = i + 1;
    match at(j) {
        Some(c) if is_name_start(c) => {
            while at(j).is_some_and(is_name_char) {
                j += 1;
            }
        }
        Some('{') => {
            while at(j).is_some_and(|c| c != '}') {
                j += 1;
            }
            j += 1;
        }
        Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(c) => j += 1,
        _ => return i + 1,
    }
    w.variables.push((offset(i), offset(j.min(chars.len()))));
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        let w = raw_words(r#"a\* 'b*' "c*" d* ~ x=~/y '$A' \$B "${C}" $1 # $D"#);
        let stars: Vec<usize> = w.iter().map(|w| w.unquoted_stars.len()).collect();
        assert_eq!(stars, [0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(w[4].tilde, Some(17));
        assert_eq!(w[5].tilde, Some(21));
        assert!(w[6].variables.is_empty() && w[7].variables.is_empty());
        assert_eq!(w[8].variables.len(), 1);
        assert_eq!(w[9].variables.len(), 1);
        assert_eq!(w.len(), 10);
    }

    #[test]
    fn never_panics_on_odd_input() {
        for s in ["\\", "'", "\"", "$", "${", "é*", "a\\", "\"\\", "~é"] {
            let _ = raw_words(s);
        }
    }
}
