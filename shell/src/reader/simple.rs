//! The fast path (SPEC §4): a line of plain words and control operators,
//! read in one pass over a byte table; anything else goes to the general
//! reader, which reads it the same (a test and the fuzz target hold them
//! equal).

use super::*;

/// What [`read_simple`] makes of a byte: [`REFUSED`] (the general reader
/// reads the line), a byte of a word, a blank, or a byte of an operator.
pub(super) const REFUSED: u8 = 0;

pub(super) const WORD: u8 = 1;

pub(super) const BLANK: u8 = 2;

pub(super) const OPERATOR: u8 = 3;

/// [`read_simple`]'s byte classes, one load a byte: a [`is_plain`] byte,
/// and a few more that mean something only beside bytes it refuses (`.`
/// `,` in a brace expansion, `=` in an array subscript, `~` nowhere to
/// the reader), make words; blanks; the bytes of `;`, `&`, `|`, `&&`,
/// `||`, `|&`. Every other byte is refused. (A unit test holds the table
/// to [`is_plain`].)
pub(super) const SIMPLE: [u8; 256] = {
    let mut t = [REFUSED; 256];
    let mut b: u8 = 0;
    loop {
        t[b as usize] = if b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'/' | b'_' | b':' | b'+' | b'@' | b'%' | b'^' | b'.' | b',' | b'=' | b'~'
            ) {
            WORD
        } else if b == b' ' || b == b'\t' {
            BLANK
        } else if b == b';' || b == b'&' || b == b'|' {
            OPERATOR
        } else {
            REFUSED
        };
        if b == u8::MAX {
            break;
        }
        b += 1;
    }
    t
};

/// What [`read_simple_noting`] notes of a line's word bytes, for the facts:
/// a `=` (an assignment may stand), a `/`, `.` or `~` (a word may name a
/// path), a `.` (a word may name `.git` or a rule file), a `/` (a verb may
/// be named by its path).
pub(crate) const HAS_EQ: u8 = 1;

pub(crate) const HAS_PATH_BYTE: u8 = 2;

pub(crate) const HAS_DOT: u8 = 4;

/// A `/` (a verb may be named by a path: `/usr/bin/git`).
pub(crate) const HAS_SLASH: u8 = 8;

/// A capital letter (a verb may be a program's name in capitals: `GIT`).
pub(crate) const HAS_UPPER: u8 = 16;

/// A `_` (a word may name a variable: `npm_config_…`).
pub(crate) const HAS_UNDERSCORE: u8 = 32;

/// A `:` (with no path byte either, no word of a plain line holds a byte
/// the protected paths' check marks: it skips reading them).
pub(crate) const HAS_COLON: u8 = 64;

/// Every note at once.
pub(crate) const ANY_NOTE: u8 =
    HAS_EQ | HAS_PATH_BYTE | HAS_DOT | HAS_SLASH | HAS_UPPER | HAS_UNDERSCORE | HAS_COLON;

/// The notes of each byte of a word.
const NOTES: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'=' as usize] = HAS_EQ;
    t[b'/' as usize] = HAS_PATH_BYTE | HAS_SLASH;
    t[b'~' as usize] = HAS_PATH_BYTE;
    t[b'.' as usize] = HAS_PATH_BYTE | HAS_DOT;
    t[b'_' as usize] = HAS_UNDERSCORE;
    t[b':' as usize] = HAS_COLON;
    let mut c = b'A';
    while c <= b'Z' {
        t[c as usize] = HAS_UPPER;
        c += 1;
    }
    t
};

/// [`SIMPLE`]'s class of a byte past the end of the line.
const END: u8 = 4;

/// [`CLASSED`]'s mark of a byte that is not a word's.
const NOT_WORD: u8 = 0x80;

/// [`SIMPLE`] and [`NOTES`] in one table for the word loop: a word byte's
/// notes, [`NOT_WORD`] for any other byte. The loop reads both of each
/// byte with one bounds check, one table load and one bit test (two of
/// each and a compare before: ~5 instructions a byte, ~110 an answer of
/// the bench's lines).
const CLASSED: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if SIMPLE[i] == WORD {
            NOTES[i]
        } else {
            NOT_WORD
        };
        i += 1;
    }
    t
};

/// A shell keyword ([`KEYWORDS`]) or `time`, by length first (a unit test
/// holds it to the table).
pub(super) fn is_keyword_or_time(w: &str) -> bool {
    matches!(
        w,
        "if" | "then"
            | "elif"
            | "else"
            | "fi"
            | "for"
            | "while"
            | "until"
            | "do"
            | "done"
            | "case"
            | "esac"
            | "function"
            | "select"
            | "coproc"
            | "[["
            | "]]"
            | "!"
            | "time"
    )
}

/// What ends a command of a plain line ([`read_simple_noting`]).
struct Operator {
    /// `|` or `|&`: the next command reads this one's output.
    piped: bool,
    /// A pipeline element or an `&` command: a process (and directory
    /// group) of its own.
    own_process: bool,
    /// `&&`, `||`, `|`, `|&`: a command must follow.
    need_command: bool,
    /// Its bytes (0 at the end of the line).
    len: usize,
}

/// The operator at the bytes `a`, `b` (the end of the line when `a` is
/// `None`), or `None` for what the plain reader refuses (`;;`, `;&`, any
/// other byte).
#[inline]
fn operator(a: Option<&u8>, b: Option<&u8>) -> Option<Operator> {
    let op = |piped, own_process, need_command, len| Operator {
        piped,
        own_process,
        need_command,
        len,
    };
    Some(match (a, b) {
        (None, _) => op(false, false, false, 0),
        (Some(b'&'), Some(b'&')) | (Some(b'|'), Some(b'|')) => op(false, false, true, 2),
        (Some(b'|'), Some(b'&')) => op(true, true, true, 2),
        (Some(b'|'), _) => op(true, true, true, 1),
        (Some(b'&'), _) => op(false, true, false, 1),
        (Some(b';'), Some(b';' | b'&')) => return None,
        (Some(b';'), _) => op(false, false, false, 1),
        _ => return None,
    })
}

/// The fast path of [`read`]: most command lines an agent proposes are
/// plain words joined by control operators (`git status && pnpm test`).
/// Such a line has no quoting, expansion, redirection, nesting, newline,
/// glob or brace to read, so its words are the runs of non-blank bytes
/// between operators, every one [`Known::Exact`]. Returns `None` — the
/// general reader then reads the line — for any other byte, any
/// condition of SPEC §4.2 (a keyword or `time` at command position, an
/// operator without a command, `;;`, an empty line), so it never has to
/// record one: a line it reads parses. Its answer equals the general
/// reader's (a unit test, a property test and the `shell` fuzz target
/// compare them). One pass, one table load a byte: a refused byte
/// anywhere returns `None` when the pass reaches it.
pub fn read_simple(src: &str) -> Option<CommandLine<'_>> {
    read_simple_noting(src).map(|(line, _)| line)
}

/// [`read_simple`], with what its words' bytes hold ([`HAS_EQ`],
/// [`HAS_PATH_BYTE`], [`HAS_DOT`]): noted in the same pass, so that the
/// facts need not scan the words again to know that none is an
/// assignment or a path.
pub(crate) fn read_simple_noting(src: &str) -> Option<(CommandLine<'_>, u8)> {
    let b = src.as_bytes();
    let mut notes = 0u8;
    if b.len() > MAX_LEN {
        return None;
    }
    // The class of the byte at `i`, [`END`] past the last.
    let class = |i: usize| b.get(i).map_or(END, |&c| SIMPLE[usize::from(c)]);
    let mut segments: Vec<Segment> = crate::spare::segments();
    // Group 0 alone is no group at all (see `CommandLine::groups`).
    let mut groups: Vec<u32> = Vec::new();
    let mut i = 0;
    let mut in_pipe = false;
    loop {
        while class(i) == BLANK {
            i += 1;
        }
        match class(i) {
            // The end, after a command, `;` or `&` (an empty line goes to
            // the general reader).
            END if !segments.is_empty() => return Some((plain_line(segments, groups), notes)),
            WORD => {}
            // An operator where a command belongs (a syntax error), a byte
            // the general reader reads, or an empty line.
            _ => return None,
        }
        let start = i;
        let mut words = crate::spare::words();
        // A word stands at `i`.
        loop {
            let from = i;
            while let Some(&c) = b.get(i) {
                let e = CLASSED[usize::from(c)];
                if e & NOT_WORD != 0 {
                    break;
                }
                notes |= e;
                i += 1;
            }
            let word = &src[from..i];
            // `time` is a reserved word at command position (and after
            // it); a keyword first makes the line unparsed.
            if word == "time" || (words.is_empty() && is_keyword_or_time(word)) {
                return None;
            }
            words.push(Cow::Borrowed(word));
            while class(i) == BLANK {
                i += 1;
            }
            if class(i) != WORD {
                break;
            }
        }
        // Here the line ends, or an operator or a refused byte stands.
        let Operator {
            piped,
            own_process,
            need_command,
            len,
        } = operator(b.get(i), b.get(i + 1))?;
        i += len;
        // A pipeline element or an `&` command: a group of its own.
        let group = if own_process || in_pipe {
            new_group(&mut groups)
        } else {
            0
        };
        let fed = in_pipe;
        in_pipe = piped;
        segments.push(Segment {
            known: Knowns::exact(words.len()),
            words,
            redirects: Vec::new(),
            nested: false,
            start,
            group,
            holds: 0,
            context: Context::Line,
            repeats: false,
            piped: fed,
        });
        if need_command {
            while class(i) == BLANK {
                i += 1;
            }
            if class(i) != WORD {
                // `a &&` at the end, `a | | b`: a syntax error (or a byte
                // the general reader reads).
                return None;
            }
        }
    }
}

/// A group of its own for a command of a plain line: its id, `groups`
/// grown by it.
fn new_group(groups: &mut Vec<u32>) -> u32 {
    if groups.is_empty() {
        // Room for a pipeline of three at once (grown one by one, the
        // first push cost three times the allocation).
        groups.reserve_exact(4);
        groups.push(0);
    }
    let group = group_id(groups.len());
    groups.push(0);
    group
}

/// The line of a plain line's `segments` in `groups`: nothing unparsed,
/// no loop.
fn plain_line<'s>(segments: Vec<Segment<'s>>, groups: Vec<u32>) -> CommandLine<'s> {
    CommandLine {
        segments,
        unparsed: Vec::new(),
        unparsed_at: Vec::new(),
        groups,
        loop_names: Vec::new(),
    }
}
