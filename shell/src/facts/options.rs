//! The one option reader: how a program reads the options in its words,
//! in the three ways the programs permc reads do it (SPEC §4.3: wrappers,
//! shells, runners and global options are read past as the program reads
//! them, and an option the program's grammar does not know is never
//! guessed at).
//!
//! - [`Mode::Gnu`] is glibc's `getopt_long`: `-abc` is a cluster, a valued
//!   letter takes the rest of its word or else the next word (`-avalue`,
//!   `-a value`), a letter with an optional value takes it attached only
//!   (`-i[SUFFIX]`), a long option is read by any unambiguous prefix of its
//!   name (`--verb` is `--verbose` unless another long option starts so),
//!   `--name=value` attaches a value, `--` ends the options, and `-` alone
//!   is an operand. Operands are permuted where the grammar says so
//!   (`permute`: `su root -c CMD`); else the first one ends the options
//!   (`+` in getopt's option string, or `POSIXLY_CORRECT`), as a wrapper's
//!   verb does.
//! - [`Mode::Git`] is git: its options before a subcommand stop at the
//!   first non-option (`git -C dir --no-pager log`); long names are exact
//!   there (git.c's `handle_options`) and by unique prefix in a
//!   subcommand's `parse-options` (`abbreviations`), where `--no-NAME`
//!   negates `--NAME` (and `--NAME` the listed `--no-NAME`).
//! - [`Mode::Bash`] is bash's `internal_getopt` (the builtins: `read -a
//!   NAME`, `cd -P`) and the shell binary's own reading (`bash -ec 'x'`):
//!   `-x` sets and `+x` unsets where the grammar takes `+` (`plus`), no
//!   abbreviations (the shell's long options are exact names), `--` ends
//!   the options, and a lone `-` too for the shell binary (`lone_dash`;
//!   `cd -` is an operand). The shell binary and `set` read a valued
//!   letter's value from the next word, one word per such letter of a
//!   cluster (`-oo a b`, `values_apart`), never the rest of its own.
//!
//! A [`Grammar`] is a borrowed view: the rows keep their own types (a
//! wrapper's row, a program's global options) and lend their strings. The
//! reader yields an [`Item`] per option (per letter of a cluster), operand
//! and `--`, with the index of the word it comes from; it allocates
//! nothing, and stops nowhere on its own: a caller reads as far as it
//! needs. An option the grammar does not know is [`Item::Unknown`]: the
//! callers fail closed on it (the line is unparsed, or both readings of
//! its arity are kept), as they did with their own scanners.

pub(crate) use super::catalogue::types::{Grammar, Mode};
use std::borrow::Cow;

/// The name an obsolete numeric option (`nice -5`) is yielded under.
pub(crate) const NUMERIC: &str = "#";

/// Where an option's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Value<'w> {
    /// In the option's own word (`-uroot`, `--user=root`).
    Attached(&'w str),
    /// The word at this index (past the end when the words ran out).
    Next(usize),
    /// None was given (an optional value left out).
    Absent,
}

impl<'w> Value<'w> {
    /// The value's text, when there is one.
    pub(crate) fn text(self, words: &'w [Cow<'w, str>]) -> Option<&'w str> {
        match self {
            Value::Attached(v) => Some(v),
            Value::Next(i) => words.get(i).map(|w| &**w),
            Value::Absent => None,
        }
    }
}

/// What the reader found; `index` is the word it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Item<'g, 'w> {
    /// An option without a value, by its letter or long name as the
    /// grammar spells it; `off` for bash's `+x` and git's `--no-NAME`.
    Flag {
        name: &'g str,
        index: usize,
        off: bool,
    },
    /// An option with a value (or an optional one).
    Valued {
        name: &'g str,
        value: Value<'w>,
        index: usize,
        off: bool,
    },
    /// A word that is no option.
    Operand { index: usize },
    /// An option the grammar does not know (or a flag given a value, an
    /// ambiguous abbreviation): the caller fails closed.
    Unknown { index: usize },
    /// `--` (or bash's lone `-`): the words after it are operands.
    End { index: usize },
}

impl Item<'_, '_> {
    /// The index of the word the item comes from.
    pub(crate) fn index(self) -> usize {
        match self {
            Item::Flag { index, .. }
            | Item::Valued { index, .. }
            | Item::Operand { index }
            | Item::Unknown { index }
            | Item::End { index } => index,
        }
    }
}

/// Reads `words` from an index by a grammar: an iterator of [`Item`]s.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'g, 'w> {
    grammar: Grammar<'g>,
    words: &'w [Cow<'w, str>],
    /// The next word to read (past a cluster and its values).
    next: usize,
    /// Within a cluster: its word, the byte where its next letter is, its
    /// sign, and the next word a bash-valued letter takes.
    cluster: Option<Cluster>,
    /// Only operands follow (`--`, or the first operand without
    /// permutation).
    ended: bool,
}

#[derive(Debug, Clone, Copy)]
struct Cluster {
    word: usize,
    at: usize,
    off: bool,
}

/// Reads `words` from `from` by `grammar`.
pub(crate) fn read<'g, 'w>(
    grammar: Grammar<'g>,
    words: &'w [Cow<'w, str>],
    from: usize,
) -> Reader<'g, 'w> {
    Reader {
        grammar,
        words,
        next: from,
        cluster: None,
        ended: false,
    }
}

impl<'g, 'w> Reader<'g, 'w> {
    /// The index of the first word not read yet (past the end when a
    /// valued option's value was missing, as the scanners counted it).
    pub(crate) fn position(&self) -> usize {
        self.next
    }

    /// The next letter of the cluster being read.
    fn letter(&mut self, c: Cluster) -> Option<Item<'g, 'w>> {
        let word = self.words[c.word].as_ref();
        let Some(ch) = word[c.at..].chars().next() else {
            self.cluster = None;
            return None;
        };
        let after = c.at + ch.len_utf8();
        let g = self.grammar;
        self.cluster = Some(Cluster { at: after, ..c });
        if let Some(name) = letter_in(g.flags, ch) {
            return Some(Item::Flag {
                name,
                index: c.word,
                off: c.off,
            });
        }
        let valued = letter_in(g.valued, ch);
        let optional = letter_in(g.optional, ch);
        let Some(name) = valued.or(optional) else {
            return Some(Item::Unknown { index: c.word });
        };
        let rest = &word[after..];
        let value = if g.values_apart && valued.is_some() {
            // The next word, one more for each such letter.
            self.next += 1;
            Value::Next(self.next - 1)
        } else {
            self.cluster = None;
            if !rest.is_empty() {
                Value::Attached(rest)
            } else if valued.is_some() {
                self.next += 1;
                Value::Next(self.next - 1)
            } else {
                Value::Absent
            }
        };
        Some(Item::Valued {
            name,
            value,
            index: c.word,
            off: c.off,
        })
    }

    /// A long option's word (`--name`, `--name=value`).
    fn long(&mut self, index: usize, long: &'w str) -> Item<'g, 'w> {
        let g = self.grammar;
        let (name, attached) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        if let Some(v) = attached {
            let whole = g
                .valued_words
                .iter()
                .find(|n| n.strip_prefix("--") == Some(name));
            if let Some(&name) = whole {
                return Item::Valued {
                    name,
                    value: Value::Attached(v),
                    index,
                    off: false,
                };
            }
        }
        let (found, off) = match find_long(&g, name) {
            Some(f) => (Some(f), false),
            None if g.mode == Mode::Git => match name.strip_prefix("no-") {
                // parse-options: `--no-NAME` negates a flag `--NAME`.
                Some(n) => (find_long(&g, n).filter(|f| f.1 == Kind::Flag), true),
                None => (None, false),
            },
            None => (None, false),
        };
        let Some((name, kind)) = found else {
            return Item::Unknown { index };
        };
        let value = match (kind, attached) {
            (Kind::Flag, Some(_)) => return Item::Unknown { index },
            (Kind::Flag, None) => return Item::Flag { name, index, off },
            (_, Some(v)) => Value::Attached(v),
            (Kind::Optional, None) => Value::Absent,
            (Kind::Valued, None) => {
                self.next += 1;
                Value::Next(self.next - 1)
            }
        };
        Item::Valued {
            name,
            value,
            index,
            off,
        }
    }
}

impl<'g, 'w> Iterator for Reader<'g, 'w> {
    type Item = Item<'g, 'w>;

    fn next(&mut self) -> Option<Item<'g, 'w>> {
        if let Some(c) = self.cluster {
            if let Some(item) = self.letter(c) {
                return Some(item);
            }
        }
        let index = self.next;
        let word = self.words.get(index)?.as_ref();
        self.next += 1;
        let g = self.grammar;
        if self.ended {
            return Some(Item::Operand { index });
        }
        let bytes = word.as_bytes();
        let off = match bytes.first() {
            Some(b'-') => false,
            Some(b'+') if g.plus && g.mode == Mode::Bash && word.len() > 1 => true,
            _ => return Some(self.operand(index)),
        };
        if word == "--" || (word == "-" && g.lone_dash && g.mode == Mode::Bash) {
            self.ended = true;
            return Some(Item::End { index });
        }
        if word == "-" {
            if g.lone_dash {
                return Some(Item::Flag {
                    name: "-",
                    index,
                    off,
                });
            }
            return Some(self.operand(index));
        }
        if g.numeric {
            let n = word.trim_start_matches(['-', '+']);
            if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
                return Some(Item::Valued {
                    name: NUMERIC,
                    value: Value::Attached(n),
                    index,
                    off,
                });
            }
        }
        if let Some(&name) = g.valued_words.iter().find(|n| **n == word) {
            self.next += 1;
            return Some(Item::Valued {
                name,
                value: Value::Next(self.next - 1),
                index,
                off,
            });
        }
        if let Some(&name) = g.flag_words.iter().find(|n| **n == word) {
            return Some(Item::Flag { name, index, off });
        }
        if let Some(long) = word.strip_prefix("--").filter(|_| !off) {
            return Some(self.long(index, long));
        }
        let c = Cluster {
            word: index,
            at: 1,
            off,
        };
        self.letter(c)
    }
}

impl<'g, 'w> Reader<'g, 'w> {
    /// An operand at `index`: without permutation, only operands follow.
    fn operand(&mut self, index: usize) -> Item<'g, 'w> {
        if !self.grammar.permute {
            self.ended = true;
        }
        Item::Operand { index }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Flag,
    Valued,
    Optional,
}

/// Letter `c` as `letters` spells it.
fn letter_in(letters: &str, c: char) -> Option<&str> {
    let at = letters.find(c)?;
    Some(&letters[at..at + c.len_utf8()])
}

/// A long option by its name, or (with abbreviations) by the one name it
/// is a prefix of; `None` when none or several are.
fn find_long<'g>(g: &Grammar<'g>, name: &str) -> Option<(&'g str, Kind)> {
    let all = g
        .long_flags
        .iter()
        .map(|n| (*n, Kind::Flag))
        .chain(g.long_valued.iter().map(|n| (*n, Kind::Valued)))
        .chain(g.long_optional.iter().map(|n| (*n, Kind::Optional)));
    let mut found = None;
    let mut count = 0;
    for (n, kind) in all {
        if n == name {
            return Some((n, kind));
        }
        if g.abbreviations && !name.is_empty() && n.starts_with(name) {
            found = Some((n, kind));
            count += 1;
        }
    }
    found.filter(|_| count == 1)
}

/// Does word `a` give long option `long` (`--name`) by its name, with a
/// value attached (`--name=value`), or by any prefix of two letters or
/// more (`--exe` for `--exec`)? For a reader that does not hold the
/// program's whole list of long options, so cannot tell an ambiguous
/// prefix from a unique one: any prefix counts (fail closed).
pub(crate) fn names_long(a: &str, long: &str) -> bool {
    a.strip_prefix("--").is_some_and(|rest| {
        let name = rest.split_once('=').map_or(rest, |(n, _)| n);
        name.len() >= 2 && long.strip_prefix("--").unwrap_or(long).starts_with(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Cow<'_, str>> {
        line.split(' ').map(Cow::Borrowed).collect()
    }

    /// The items from word 1 on, as `name=value` / `@operand` / `?word` /
    /// `--` strings.
    fn items(g: Grammar<'_>, line: &str) -> Vec<String> {
        let w = words(line);
        read(g, &w, 1)
            .map(|item| match item {
                Item::Flag { name, off, .. } => format!("{}{name}", if off { "+" } else { "" }),
                Item::Valued {
                    name, value, off, ..
                } => format!(
                    "{}{name}={}",
                    if off { "+" } else { "" },
                    value.text(&w).unwrap_or("<none>")
                ),
                Item::Operand { index } => format!("@{}", w[index]),
                Item::Unknown { index } => format!("?{}", w[index]),
                Item::End { .. } => "--".to_string(),
            })
            .collect()
    }

    /// getopt_long as in its manual's example, permuting.
    const GNU: Grammar<'static> = Grammar {
        flags: "abc",
        valued: "v",
        optional: "o",
        long_flags: &["verbose", "version", "brief"],
        long_valued: &["file", "user"],
        long_optional: &["color"],
        permute: true,
        ..Grammar::new(Mode::Gnu)
    };

    #[test]
    fn gnu_long_options_by_unique_prefix() {
        assert_eq!(items(GNU, "p --verb"), ["verbose"]);
        assert_eq!(items(GNU, "p --b"), ["brief"]);
        // `--ver` is `--verbose` or `--version`: ambiguous.
        assert_eq!(items(GNU, "p --ver"), ["?--ver"]);
        // An exact name wins over the longer names it prefixes.
        let g = Grammar {
            long_flags: &["in", "interactive"],
            ..GNU
        };
        assert_eq!(items(g, "p --in"), ["in"]);
        assert_eq!(items(GNU, "p --nope"), ["?--nope"]);
    }

    #[test]
    fn gnu_long_values() {
        assert_eq!(items(GNU, "p --file f x"), ["file=f", "@x"]);
        assert_eq!(items(GNU, "p --fi=f x"), ["file=f", "@x"]);
        // A flag given a value is an error getopt reports.
        assert_eq!(items(GNU, "p --brief=yes"), ["?--brief=yes"]);
        // An optional value only with `=`.
        assert_eq!(items(GNU, "p --color x"), ["color=<none>", "@x"]);
        assert_eq!(items(GNU, "p --color=always"), ["color=always"]);
        // A missing value: past the end.
        let w = words("p --user");
        let mut r = read(GNU, &w, 1);
        assert!(matches!(
            r.next(),
            Some(Item::Valued {
                value: Value::Next(2),
                ..
            })
        ));
        assert_eq!(r.next(), None);
        assert_eq!(r.position(), 3);
    }

    #[test]
    fn gnu_clusters() {
        assert_eq!(items(GNU, "p -abc"), ["a", "b", "c"]);
        // A valued letter takes the rest of its word (`-avalue` is `-a
        // -v alue`)…
        assert_eq!(items(GNU, "p -avalue x"), ["a", "v=alue", "@x"]);
        assert_eq!(items(GNU, "p -abvc x"), ["a", "b", "v=c", "@x"]);
        // …or the next word.
        assert_eq!(items(GNU, "p -av value x"), ["a", "v=value", "@x"]);
        // An optional value is attached only.
        assert_eq!(items(GNU, "p -ao x"), ["a", "o=<none>", "@x"]);
        assert_eq!(items(GNU, "p -aoX x"), ["a", "o=X", "@x"]);
        assert_eq!(items(GNU, "p -azb"), ["a", "?-azb", "b"]);
    }

    #[test]
    fn gnu_end_dash_and_permutation() {
        assert_eq!(items(GNU, "p -a -- -b"), ["a", "--", "@-b"]);
        // `-` alone is an operand.
        assert_eq!(items(GNU, "p - -a"), ["@-", "a"]);
        let dash = Grammar {
            lone_dash: true,
            ..GNU
        };
        assert_eq!(items(dash, "p - -a"), ["-", "a"]);
        // Permuted: options after operands.
        assert_eq!(items(GNU, "p x -a y --file f"), ["@x", "a", "@y", "file=f"]);
        // `+` (POSIXLY_CORRECT): the first operand ends the options.
        let posix = Grammar {
            permute: false,
            ..GNU
        };
        assert_eq!(items(posix, "p x -a"), ["@x", "@-a"]);
        let numeric = Grammar {
            numeric: true,
            ..posix
        };
        assert_eq!(items(numeric, "p -5 x"), ["#=5", "@x"]);
    }

    /// git's options before a subcommand (git.c `handle_options`).
    const GIT: Grammar<'static> = Grammar {
        flags: "pPv",
        valued: "Cc",
        long_flags: &["no-pager", "paginate", "bare", "no-replace-objects"],
        long_valued: &["git-dir", "work-tree", "namespace", "config-env"],
        long_optional: &["exec-path"],
        ..Grammar::new(Mode::Git)
    };

    #[test]
    fn git_global_options() {
        assert_eq!(
            items(GIT, "git --no-pager log -p"),
            ["no-pager", "@log", "@-p"]
        );
        assert_eq!(items(GIT, "git -C dir push"), ["C=dir", "@push"]);
        assert_eq!(
            items(GIT, "git -cname=value push"),
            ["c=name=value", "@push"]
        );
        assert_eq!(
            items(GIT, "git -c name=value push"),
            ["c=name=value", "@push"]
        );
        assert_eq!(
            items(GIT, "git --git-dir=x status"),
            ["git-dir=x", "@status"]
        );
        assert_eq!(
            items(GIT, "git --git-dir x status"),
            ["git-dir=x", "@status"]
        );
        // `--exec-path` prints the path; `--exec-path=DIR` sets it.
        assert_eq!(items(GIT, "git --exec-path"), ["exec-path=<none>"]);
        assert_eq!(items(GIT, "git --exec-path=d x"), ["exec-path=d", "@x"]);
        // No abbreviations before the subcommand.
        assert_eq!(
            items(GIT, "git --git-d x push"),
            ["?--git-d", "@x", "@push"]
        );
    }

    #[test]
    fn git_options_as_whole_words() {
        // The table of git's global options, spelled with their dashes.
        let g = Grammar {
            valued_words: &["-C", "-c", "--git-dir"],
            flag_words: &["--no-pager"],
            lone_dash: true,
            ..Grammar::new(Mode::Git)
        };
        assert_eq!(
            items(g, "git -C d --no-pager push"),
            ["-C=d", "--no-pager", "@push"]
        );
        assert_eq!(
            items(g, "git --git-dir=x - push"),
            ["--git-dir=x", "-", "@push"]
        );
        assert_eq!(
            items(g, "git -Cd --bare push"),
            ["?-Cd", "?-Cd", "?--bare", "@push"]
        );
    }

    #[test]
    fn git_parse_options() {
        let g = Grammar {
            flags: "fv",
            valued: "m",
            long_flags: &["force", "verify", "no-edit"],
            long_valued: &["message"],
            abbreviations: true,
            permute: true,
            ..Grammar::new(Mode::Git)
        };
        assert_eq!(items(g, "c --no-verify --mess=x"), ["+verify", "message=x"]);
        assert_eq!(
            items(g, "c --no-edit -fmhello"),
            ["no-edit", "f", "m=hello"]
        );
        // `--no-NAME` negates flags only.
        assert_eq!(items(g, "c --no-message"), ["?--no-message"]);
        assert_eq!(items(g, "c --for a"), ["force", "@a"]);
    }

    /// bash's own options (`bash [options] [-c string | file] [args]`).
    const BASH: Grammar<'static> = Grammar {
        flags: "abcefhiklmnprstuvxBCDEHPT",
        valued: "oO",
        long_flags: &["norc", "noprofile", "posix", "login"],
        long_valued: &["rcfile", "init-file"],
        lone_dash: true,
        plus: true,
        values_apart: true,
        ..Grammar::new(Mode::Bash)
    };

    #[test]
    fn bash_options() {
        assert_eq!(items(BASH, "bash -ec x"), ["e", "c", "@x"]);
        assert_eq!(items(BASH, "bash -o posix -c x"), ["o=posix", "c", "@x"]);
        assert_eq!(items(BASH, "bash +O extglob s"), ["+O=extglob", "@s"]);
        // Each valued letter of a cluster takes a word of its own.
        assert_eq!(items(BASH, "bash -oO a b -c x"), ["o=a", "O=b", "c", "@x"]);
        assert_eq!(items(BASH, "bash --rcfile f s"), ["rcfile=f", "@s"]);
        assert_eq!(items(BASH, "bash -- script -c"), ["--", "@script", "@-c"]);
        assert_eq!(items(BASH, "bash - script"), ["--", "@script"]);
        // No abbreviations, and bash's operands are never permuted.
        assert_eq!(
            items(BASH, "bash --nor s -c x"),
            ["?--nor", "@s", "@-c", "@x"]
        );
        assert_eq!(items(BASH, "bash -eZ"), ["e", "?-eZ"]);
        assert_eq!(items(BASH, "bash + x"), ["@+", "@x"]);
    }

    #[test]
    fn bash_builtins_options() {
        // `cd [-L|[-P [-e]] [-@]] [dir]`: internal_getopt without `+`.
        let cd = Grammar {
            flags: "LPe@",
            ..Grammar::new(Mode::Bash)
        };
        assert_eq!(items(cd, "cd -Pe dir"), ["P", "e", "@dir"]);
        assert_eq!(items(cd, "cd - x"), ["@-", "@x"]);
        assert_eq!(items(cd, "cd +1"), ["@+1"]);
        assert_eq!(items(cd, "cd -- -d"), ["--", "@-d"]);
        let set = Grammar {
            flags: "euxvET",
            valued: "o",
            plus: true,
            values_apart: true,
            ..Grammar::new(Mode::Bash)
        };
        assert_eq!(
            items(set, "set -euo pipefail +x"),
            ["e", "u", "o=pipefail", "+x"]
        );
        // internal_getopt: a value attached, or the next word.
        let read = Grammar {
            flags: "ers",
            valued: "adinNptu",
            ..Grammar::new(Mode::Bash)
        };
        assert_eq!(items(read, "read -ra arr x"), ["r", "a=arr", "@x"]);
        assert_eq!(items(read, "read -rarr x"), ["r", "a=rr", "@x"]);
    }

    #[test]
    fn names_long_takes_any_prefix() {
        assert!(names_long("--exe", "--exec"));
        assert!(names_long("--exec=x", "--exec"));
        assert!(!names_long("--e", "--exec"));
        assert!(!names_long("--exex", "--exec"));
        assert!(!names_long("-exec", "--exec"));
    }
}
