//! SPEC §4.1 **[hardening]**: "The words of every command that bash can
//! parse without expansions must equal the argv that bash would pass; this
//! is tested against a real bash."
//!
//! How it works:
//!
//! * A few thousand command lines are generated deterministically (a seeded
//!   splitmix64, no `rand`), with no expansion of any kind: every character
//!   bash could expand (`$`, `` ` ``, `*`, `?`, `[`, `{`, `}`, `~`, a leading
//!   `!`, `(`…) is quoted or escaped; command words are `cmd_…`/`fail_…`
//!   names, never keywords, builtins or `NAME=value` assignments (the reader
//!   keeps leading assignments among the words by design, bash does not
//!   pass them in argv, so they are not generated).
//! * All lines run in ONE bash process, each through `eval` (so a syntax
//!   error stays in its line), preceded by a marker and followed by `wait`.
//!   `PATH` leads nowhere: a command word is either one of a pool of shell
//!   functions or lands in `command_not_found_handle`; both write their argv
//!   as one record to fd 3 (a file opened for appending: records of
//!   concurrent pipeline parts do not tear). A command whose name starts
//!   with `fail` returns 1, every other one 0; the generator names the last
//!   command before each `||` `fail_…`, so every command of a line runs.
//! * Redirections are harmless: bash runs in a fresh temporary directory
//!   where every file a redirection names already exists, fds 4 and 5 are
//!   open, fd 3 is never named.
//! * For each line the reader's segments' words (segments with no words —
//!   only redirections — run no command and are skipped) must equal bash's
//!   argv records, in order; for lines with `|`, `|&` or `&` the parts run
//!   concurrently, so records are compared as multisets.
//!
//! The test is skipped, with a message, only when no `bash` is found.

use permc_grammar::shell;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Generated lines checked (besides the fixed ones).
const GENERATED: usize = 2500;
const SEED: u64 = 0x5eed_ba5b_0000_0001;

// ---------------------------------------------------------------------------
// A small deterministic PRNG.

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True with probability `pct` percent.
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    fn pick_str(&mut self, xs: &[&'static str]) -> &'static str {
        xs[self.below(xs.len())]
    }

    /// Picks an index by weight.
    fn weighted(&mut self, weights: &[usize]) -> usize {
        let total: usize = weights.iter().sum();
        let mut r = self.below(total);
        for (i, w) in weights.iter().enumerate() {
            if r < *w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }
}

// ---------------------------------------------------------------------------
// The generator.

/// Command names defined as shell functions (fast: no fork).
const FUNCS: &[&str] = &[
    "cmd_a",
    "cmd_b",
    "cmd-x",
    "cmd.y",
    "cmd:z",
    "cmd@h",
    "cmd%p",
    "cmd+q",
    "cmd,r",
    "cmdé",
    "cmd_日本",
    "cmd_1",
    "cmd^u",
    "cmd]v",
    "cmd#w",
    "cmd!x",
];
/// Function names that return 1.
const FAIL_FUNCS: &[&str] = &["fail_a", "fail-b", "fail.c", "fail_é", "fail:d"];
/// Characters for random command-name suffixes (those names are not
/// functions and land in `command_not_found_handle`). No `/` (a path is not
/// looked up), no `=` (`cmd_x=1` would be an assignment).
const NAME_CHARS: &[char] = &[
    'a', 'b', 'k', 'Z', '0', '7', '-', '.', '_', ':', '@', '%', '+', ',', '^', ']', 'é', '日',
    '\'', '"', ' ', '\\', ';', '&', '|', '<', '>', '*', '$', '{', '}',
];

/// Files created in the working directory before bash runs; redirection
/// targets are drawn from them, so `<` finds its file.
const FILES: &[&str] = &[
    "out.txt",
    "in-1",
    "é.log",
    "a b",
    "x:y",
    "f=1",
    "#h",
    "-",
    "日本.txt",
    "o,p",
    "q+r@s%",
    "dq\"x",
    "it's",
    "sp  2",
    "tab\tx",
    "x]y",
    "~t",
    "{b}",
    "*",
    "$v",
    "a;b&c|d",
    "<in>",
    "(p)",
    "sub/f.txt",
    "/dev/null",
];

/// Words with a meaning to the shell somewhere, as argument contents.
const SPECIAL_WORDS: &[&str] = &[
    "if", "then", "fi", "done", "!", "]]", "{", "}", "[[", "(", ")", "time", "--", "-n", "a=b",
    "#", "&&", ";", "|", "~", "*", "$HOME", "$(x)", "`y`", "${z}", "<(q)", "a\\", "\\", "'", "\"",
    "2>x", "<<EOF", "&", "$'x'", "x=~/y", "{a,b}", "[ab]", "~root", "-", "=", "%", "\n",
];

const PLAIN_PUNCT: &[char] = &['-', '.', '_', '/', ':', '=', '@', '%', '+', ',', '^', ']'];
const NON_ASCII: &[char] = &['é', 'ü', 'ß', 'ñ', '日', '本', '🙂', '→', '\u{a0}'];
const SPECIAL_CHARS: &[char] = &[
    ' ', ' ', '\t', '\n', '\'', '"', '\\', '\\', '$', '`', '*', '?', '[', ']', '{', '}', '~', '!',
    '#', ';', '&', '|', '<', '>', '(', ')',
];

/// Characters that may follow an unquoted (or double-quoted) `$` and keep it
/// literal: not a name character, no special parameter, no `{ ( ' " [`.
const DOLLAR_FOLLOW: &[char] = &['.', '/', ':', '%', '+', ',', '=', '^'];

fn random_char(rng: &mut Rng) -> char {
    match rng.weighted(&[50, 15, 10, 25]) {
        0 => *rng.pick(&[
            'a', 'b', 'c', 'x', 'y', 'z', 'K', 'Q', '0', '1', '2', '9', 'e', 'o', 's', 't',
        ]),
        1 => *rng.pick(PLAIN_PUNCT),
        2 => *rng.pick(NON_ASCII),
        _ => *rng.pick(SPECIAL_CHARS),
    }
}

/// The text of an argument word (after quote removal).
fn random_content(rng: &mut Rng) -> Vec<char> {
    match rng.weighted(&[5, 8, 30, 57]) {
        0 => Vec::new(),
        1 => rng.pick(SPECIAL_WORDS).chars().collect(),
        2 => (0..1 + rng.below(3)).map(|_| random_char(rng)).collect(),
        _ => (0..4 + rng.below(8)).map(|_| random_char(rng)).collect(),
    }
}

/// May `c` (at index `i` of a word) be written unquoted without bash
/// expanding or splitting anything?
fn safe_unquoted(c: char, i: usize) -> bool {
    match c {
        'a'..='z' | 'A'..='Z' | '0'..='9' => true,
        c if PLAIN_PUNCT.contains(&c) => true,
        // A `#` at the start of a word begins a comment; `!` at the start
        // of a command is the negation keyword.
        '#' | '!' => i > 0,
        // Non-breaking space is no blank to bash; everything else
        // non-ASCII is a plain character too.
        c => !c.is_ascii(),
    }
}

#[derive(Clone, Copy)]
enum Style {
    Unquoted,
    Single,
    Double,
    Escaped,
}

/// Writes `content` as shell text whose quote removal gives `content`
/// back, choosing the quoting of every run of characters at random and
/// adding noise that quote removal drops (`''`, `""`, backslash-newline).
fn render(rng: &mut Rng, content: &[char]) -> String {
    let mut out = String::new();
    if content.is_empty() {
        out.push_str(rng.pick_str(&["''", "\"\"", "''\"\"", "\"\"''"]));
        return out;
    }
    let n = content.len();
    let mut i = 0;
    while i < n {
        if i > 0 && rng.chance(6) {
            out.push_str(rng.pick_str(&["''", "\"\""]));
        }
        if rng.chance(4) {
            out.push_str("\\\n");
        }
        let end = (i + 1 + rng.below(4)).min(n);
        let style = match rng.weighted(&[45, 20, 20, 15]) {
            0 => Style::Unquoted,
            1 => Style::Single,
            2 => Style::Double,
            _ => Style::Escaped,
        };
        let before = i;
        match style {
            Style::Unquoted => {
                while i < end {
                    let c = content[i];
                    if safe_unquoted(c, i) {
                        out.push(c);
                        i += 1;
                    } else if c == '$'
                        && i + 1 < n
                        && DOLLAR_FOLLOW.contains(&content[i + 1])
                        && rng.chance(50)
                    {
                        // `$.` and the like stay literal.
                        out.push('$');
                        out.push(content[i + 1]);
                        i += 2;
                    } else {
                        break;
                    }
                }
            }
            Style::Single => {
                let mut body = String::new();
                while i < end && content[i] != '\'' {
                    body.push(content[i]);
                    i += 1;
                }
                if i > before {
                    out.push('\'');
                    out.push_str(&body);
                    out.push('\'');
                }
            }
            Style::Escaped => {
                // A backslash-newline is removed, so a newline cannot be
                // escaped.
                while i < end && content[i] != '\n' {
                    out.push('\\');
                    out.push(content[i]);
                    i += 1;
                }
            }
            Style::Double => {}
        }
        if i == before {
            // The chosen style could not take this character (or it was
            // double quotes): double quotes take anything.
            let to = end.max(i + 1);
            out.push_str(&render_double_text(rng, content, before, to));
            i = to;
        }
    }
    out
}

/// `"…"` holding `content[from..to]`, with every kind of backslash.
fn render_double_text(rng: &mut Rng, content: &[char], from: usize, to: usize) -> String {
    let mut out = String::from("\"");
    let mut k = from;
    while k < to {
        let c = content[k];
        if rng.chance(3) {
            out.push_str("\\\n");
        }
        match c {
            '\\' => {
                // A backslash before a character it does not escape stays
                // literal: `"\a"` is `\a`.
                let next = content.get(k + 1).copied();
                let lone_ok = k + 1 < to && !matches!(next, Some('$' | '`' | '"' | '\\' | '\n'));
                if lone_ok && rng.chance(50) {
                    out.push('\\');
                } else {
                    out.push_str("\\\\");
                }
            }
            '"' | '`' => {
                out.push('\\');
                out.push(c);
            }
            '$' => {
                // Literal when followed by a character that starts no
                // expansion, or by the closing quote.
                let next = content.get(k + 1).copied();
                let literal_ok = k + 1 == to
                    || (k + 1 < to
                        && (next == Some(' ') || DOLLAR_FOLLOW.contains(&next.unwrap_or('a'))));
                if literal_ok && rng.chance(50) {
                    out.push('$');
                } else {
                    out.push_str("\\$");
                }
            }
            _ => out.push(c),
        }
        k += 1;
    }
    out.push('"');
    out
}

/// One token of a segment: its text, and whether it ends in an unquoted
/// all-digit word (a redirection directly after it would take it as fd).
struct Token {
    text: String,
    redirect: bool,
    digit_tail: bool,
}

fn all_digits(rendered: &str) -> bool {
    let s = rendered.replace("\\\n", "");
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn word_token(rng: &mut Rng) -> Token {
    let content = random_content(rng);
    let text = render(rng, &content);
    let digit_tail = all_digits(&text);
    Token {
        text,
        redirect: false,
        digit_tail,
    }
}

fn command_token(rng: &mut Rng, status: Status) -> Token {
    let fail = match status {
        Status::Fail => true,
        Status::Succeed => false,
        Status::Any => rng.chance(20),
    };
    let name: String = if rng.chance(85) {
        let pool = if fail { FAIL_FUNCS } else { FUNCS };
        rng.pick(pool).to_string()
    } else {
        let mut s = String::from(if fail { "fail_" } else { "cmd_" });
        for _ in 0..1 + rng.below(5) {
            s.push(*rng.pick(NAME_CHARS));
        }
        s
    };
    let content: Vec<char> = name.chars().collect();
    Token {
        text: render(rng, &content),
        redirect: false,
        digit_tail: false,
    }
}

fn redirect_token(rng: &mut Rng) -> Token {
    const FDS: &[&str] = &["", "", "", "", "0", "1", "2", "4", "5", "7", "12"];
    const DUP_TO: &[&str] = &["0", "1", "2", "4", "5"];
    let sp = if rng.chance(40) { " " } else { "" };
    let file = |rng: &mut Rng| {
        let content: Vec<char> = rng.pick(FILES).chars().collect();
        render(rng, &content)
    };
    let (text, digit_tail) = match rng.below(10) {
        0..=4 => {
            let op = *rng.pick(&[">", ">>", "<", ">|", "<>"]);
            // `{NAME}>x`: bash allocates an fd into NAME.
            let fd = if rng.chance(5) {
                *rng.pick(&["{fd}", "{_v1}", "{Q}"])
            } else {
                *rng.pick(FDS)
            };
            (format!("{fd}{op}{sp}{}", file(rng)), false)
        }
        5 => {
            let op = *rng.pick(&["&>", "&>>"]);
            (format!("{op}{sp}{}", file(rng)), false)
        }
        6 | 7 => {
            let op = *rng.pick(&[">&", "<&"]);
            let fd = *rng.pick(FDS);
            // Closing: only fds nothing dups from later (closing 1 before
            // `|&`'s implicit `2>&1` fails).
            let to = if rng.chance(15) {
                return Token {
                    text: format!("{}{op}{sp}-", rng.pick(&["7", "12"])),
                    redirect: true,
                    digit_tail: false,
                };
            } else {
                *rng.pick(DUP_TO)
            };
            (format!("{fd}{op}{sp}{to}"), false)
        }
        8 => {
            // `>&word` without an fd is `&>word`; a file name, not a digit.
            // Bash calls `>&"*"` and `>&'$v'` ambiguous even quoted (an
            // execution error, words unaffected): not those.
            let mut content: Vec<char> = rng.pick(FILES).chars().collect();
            if content.iter().any(|c| matches!(c, '*' | '$' | '-')) {
                content = "out.txt".chars().collect();
            }
            (format!(">&{sp}{}", render(rng, &content)), false)
        }
        _ => {
            let t = word_token(rng);
            (format!("<<<{sp}{}", t.text), t.digit_tail)
        }
    };
    Token {
        text,
        redirect: true,
        digit_tail,
    }
}

fn blank(rng: &mut Rng) -> &'static str {
    match rng.weighted(&[75, 8, 6, 5, 3, 3]) {
        0 => " ",
        1 => "  ",
        2 => "\t",
        3 => " \\\n",
        4 => "\\\n ",
        _ => " \t ",
    }
}

/// The exit status a command must have so that the next one runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Before `||`.
    Fail,
    /// Before `&&`.
    Succeed,
    /// Before anything else.
    Any,
}

/// A simple command.
fn gen_segment(rng: &mut Rng, status: Status) -> Vec<Token> {
    let mut toks = Vec::new();
    if status != Status::Fail && rng.chance(3) {
        // Redirections only: bash runs no command (status 0).
        for _ in 0..1 + rng.below(2) {
            let mut t = redirect_token(rng);
            // `<<<` alone would be fine too, but keep it simple.
            if t.text.starts_with("<<<") {
                t = Token {
                    text: ">out.txt".into(),
                    redirect: true,
                    digit_tail: false,
                };
            }
            toks.push(t);
        }
        return toks;
    }
    for _ in 0..rng.weighted(&[80, 15, 5]) {
        toks.push(redirect_token(rng));
    }
    toks.push(command_token(rng, status));
    for _ in 0..rng.below(7) {
        if rng.chance(20) {
            toks.push(redirect_token(rng));
        } else {
            toks.push(word_token(rng));
        }
    }
    toks
}

fn join_segment(rng: &mut Rng, toks: &[Token]) -> String {
    let mut out = String::new();
    for (k, t) in toks.iter().enumerate() {
        if k > 0 {
            let prev = &toks[k - 1];
            // A redirection directly after the previous token, unless its
            // fd would join that token or the token would become its fd.
            let attach = t.redirect
                && !t.text.starts_with(|c: char| c.is_ascii_digit() || c == '{')
                && !prev.digit_tail
                && rng.chance(30);
            if !attach {
                out.push_str(blank(rng));
            }
        }
        out.push_str(&t.text);
    }
    out
}

fn comment(rng: &mut Rng) -> String {
    let mut s = String::from(" #");
    for _ in 0..rng.below(10) {
        let c = random_char(rng);
        if c != '\n' {
            s.push(c);
        }
    }
    if rng.chance(10) {
        // A comment ending in a backslash does not continue the line.
        s.push('\\');
    }
    s
}

/// One generated line; `true` when its commands may run concurrently.
fn gen_line(rng: &mut Rng) -> (String, bool) {
    const OPS: &[&str] = &["&&", "||", ";", "|", "|&", "&", "\n"];
    let nseg = 1 + rng.weighted(&[30, 30, 20, 12, 8]);
    let ops: Vec<&str> = (0..nseg - 1)
        .map(|_| OPS[rng.weighted(&[20, 15, 18, 15, 6, 8, 18])])
        .collect();
    let mut unordered = ops.iter().any(|o| matches!(*o, "|" | "|&" | "&"));
    let mut line = String::new();
    if rng.chance(5) {
        line.push_str(blank(rng));
    }
    for i in 0..nseg {
        let status = match ops.get(i) {
            Some(&"||") => Status::Fail,
            Some(&"&&") => Status::Succeed,
            _ => Status::Any,
        };
        let toks = gen_segment(rng, status);
        line.push_str(&join_segment(rng, &toks));
        let Some(op) = ops.get(i) else { break };
        if *op == "\n" {
            if rng.chance(20) {
                line.push_str(&comment(rng));
            } else if rng.chance(20) {
                line.push_str(rng.pick_str(&[" ", "\t", ";"]));
            }
            line.push('\n');
            if rng.chance(15) {
                line.push_str(rng.pick_str(&["\n", "  ", "\n\t"]));
            }
        } else {
            line.push_str(rng.pick_str(&["", "", " ", "  ", "\t"]));
            line.push_str(op);
            match rng.weighted(&[75, 12, 13]) {
                0 => {}
                1 => line.push_str(rng.pick_str(&["\n", "\n\n", " \n  "])),
                _ => {
                    // A comment after an operator runs to the newline.
                    line.push_str(&comment(rng));
                    line.push('\n');
                }
            }
        }
        // Always a blank after the operator: the next segment may start
        // with a redirection, and `a&>x`, `a;&>x`, `a|&>x` lex differently.
        line.push_str(rng.pick_str(&[" ", " ", "\t", "  "]));
    }
    match rng.weighted(&[55, 12, 8, 10, 10, 5]) {
        0 => {}
        1 => line.push(';'),
        2 => {
            line.push_str(rng.pick_str(&["&", " &"]));
            unordered = true;
        }
        3 => line.push_str(&comment(rng)),
        4 => line.push_str(rng.pick_str(&[" ", "\t", "\n", " \\\n"])),
        _ => line.push_str(" ;\n"),
    }
    (line, unordered)
}

/// Hand-written lines (each must run every command it holds).
const FIXED: &[(&str, bool)] = &[
    ("cmd_a a#b '#'c \\#d ''#e #comment 'x", false),
    ("cmd_a 2\\>x a2>out.txt '2'>out.txt 2 >out.txt x", false),
    ("cmd_a \"a\\\"b\\\\c\\$d\\`e\\qf\\'g\\ h\" 'x\\y'", false),
    ("cmd_a ab\\\ncd \"ef\\\ngh\" 'ij\\\nkl'", false),
    ("cmd_a&&cmd_b;cmd_a&cmd_b|cmd_a|&cmd_b", true),
    ("cmd_a a$ \"b$\" c$.d $\"loc\" \"$ x\" a$:b \"$\"", false),
    ("cmd_a \\\n#c y", false),
    ("cmd_a '' \"\" ''\"\" x''y \"\"z", false),
    ("cmd_a 2&>out.txt y", false),
    ("cmd_a <<<'here string' x <<< y z", false),
    ("cmd_a >&out.txt y", false),
    ("cmd_a x\\ y\\\tz\\;\\|\\&\\>\\<\\(\\)\\#\\'\\\"", false),
    ("cmd_a é\\é \"é\" 'é' \"\\é\" 日本 \\🙂", false),
    ("cmd_a \"a\nb\" 'c\nd'", false),
    (">out.txt cmd_a x", false),
    ("cmd_a x >| out.txt y 4<>out.txt 5<out.txt", false),
    ("cmd_a 1>&2 2>&- <&0 x 4>&1 y", false),
    ("cmd_a x;# c\ncmd_b", false),
    ("cmd_a &&\n\n  cmd_b", false),
    ("cmd_a } ]] if then a!b -- --x=1 = ]", false),
    ("cmd_a # x \\\ncmd_b", false),
    ("cmd_a >&1>out.txt z", false),
    ("cmd_a\tx\t\ty", false),
    ("fail_a || cmd_b && cmd_a", false),
    ("cmd_a x|& cmd_b 2>&1", true),
    ("cmd_a x &>>out.txt y &> out.txt", false),
    ("cmd_a 10>out.txt y", false),
    ("cmd_a x\\\n\\\ny", false),
    ("cmd_a a\\\\ \\\\b \\\\", false),
    ("'cmd_a' \"cmd_b\" c\\md_b", false),
    ("cmd_a 'it'\\''s'", false),
    ("cmd_a \\\n  x \\\n", false),
    ("c'md'_\"a\" x", false),
    ("cmd_a x 2>out.txt>out.txt<out.txt", false),
    ("cmd_a x\u{a0}y \u{a0}", false),
    (
        "cmd_a {fd}>out.txt x {_v}<in-1 {Q}>>out.txt y {w}>&2 {h}<<<z",
        false,
    ),
    (
        "cmd_a {1x}>out.txt \\{q}>out.txt '{r}'>out.txt c{x}>out.txt {x}2>out.txt",
        false,
    ),
    ("{fd}>out.txt cmd_a x {x\\\n}>out.txt", false),
    ("cmd_a >&2>out.txt 2<&0<out.txt", false),
    ("cmd_a >out.txt#x '#'y", false),
];

/// Lines bash rejects; the reader must call them unparsed.
const REJECTED: &[&str] = &[
    "cmd_a >#x",
    "cmd_a > #x",
    "cmd_a 2>\\\n#x",
    "cmd_a <<<12>out.txt",
    "cmd_a >12>out.txt",
    "cmd_a )",
    "cmd_a &&",
    "cmd_a |",
    "; cmd_a",
    "cmd_a ;; cmd_b",
    "cmd_a ;& cmd_b",
    "cmd_a 'x",
    "cmd_a & & cmd_b",
    "cmd_a &>1<out.txt",
    "cmd_a >{fd}>out.txt",
    "cmd_a >&{fd}>out.txt",
    "cmd_a ; ; cmd_b",
];

// ---------------------------------------------------------------------------
// Running bash.

fn find_bash() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = vec!["/usr/bin".into(), "/bin".into()];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter()
        .map(|d| d.join("bash"))
        .find(|p| p.is_file())
}

fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

// bash line-buffers stdout: a newline inside a record would flush it in
// pieces that concurrent pipeline parts interleave. Newlines travel as \034.
const PRELUDE: &str = r#"exec 3>>records.bin 1>/dev/null 4>/dev/null 5>/dev/null
shopt -s varredir_close 2>/dev/null
__rec() {
  local __a __r=
  for __a; do __r+=${__a//$'\n'/$'\034'}$'\037'; done
  builtin printf '%s\036' "$__r" >&3
  case $1 in fail*) return 1 ;; esac
  return 0
}
command_not_found_handle() { __rec "$@"; }
__mark() {
  builtin printf '\035%s\036' "$1" >&3
  builtin printf '\n@@%s\n' "$1" >&2
}
"#;

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Bash's argv records per line, and its stderr per line.
type BashResult = (Vec<Vec<Vec<String>>>, Vec<String>);

fn run_bash(bash: &Path, lines: &[&str]) -> BashResult {
    let dir = std::env::temp_dir().join(format!(
        "permc-shell-vs-bash-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    fs::create_dir_all(dir.join("sub")).expect("temp dir");
    let guard = TempDir(dir.clone());
    for f in FILES {
        if !f.starts_with('/') {
            fs::write(dir.join(f), b"input\n").expect("input file");
        }
    }
    let mut script = String::from(PRELUDE);
    for name in FUNCS.iter().chain(FAIL_FUNCS) {
        script.push_str(&format!(
            "function {name} {{ __rec \"$FUNCNAME\" \"$@\"; }}\n"
        ));
    }
    for (i, line) in lines.iter().enumerate() {
        script.push_str(&format!("__mark {i}\neval {}\nwait\n", single_quote(line)));
    }
    script.push_str("__mark end\n");
    let script_path = dir.join("lines.sh");
    fs::write(&script_path, script).expect("script");
    let stderr = fs::File::create(dir.join("stderr.txt")).expect("stderr file");
    let mut child = Command::new(bash)
        .arg("--norc")
        .arg("--noprofile")
        .arg(&script_path)
        .current_dir(&dir)
        .env_clear()
        .env("PATH", "/nonexistent-permc-test-path")
        .env("LC_ALL", "C.UTF-8")
        .env("HOME", &dir)
        .env("TMPDIR", &dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("spawn bash");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("bash did not finish in time");
            }
        }
    }
    let records = fs::read(dir.join("records.bin")).unwrap_or_default();
    let errors = fs::read(dir.join("stderr.txt")).unwrap_or_default();
    drop(guard);

    let mut argvs: Vec<Vec<Vec<String>>> = vec![Vec::new(); lines.len()];
    let mut current: Option<usize> = None;
    let mut ended = false;
    for rec in records.split(|&b| b == 0x1e) {
        if rec.is_empty() {
            continue;
        }
        let text = String::from_utf8_lossy(rec).replace('\u{1c}', "\n");
        if let Some(mark) = text.strip_prefix('\u{1d}') {
            if mark == "end" {
                ended = true;
            } else {
                current = mark.parse().ok();
            }
            continue;
        }
        let mut argv: Vec<String> = text.split('\u{1f}').map(str::to_string).collect();
        argv.pop(); // after the last separator
        match current {
            Some(i) if i < argvs.len() => argvs[i].push(argv),
            _ => panic!("a record outside any line: {argv:?}"),
        }
    }
    let errors = String::from_utf8_lossy(&errors).into_owned();
    assert!(ended, "bash stopped early; its stderr:\n{errors}");
    let mut per_line = vec![String::new(); lines.len()];
    let mut cur: Option<usize> = None;
    for l in errors.lines() {
        if let Some(m) = l.strip_prefix("@@") {
            cur = m.parse().ok();
        } else if let Some(i) = cur {
            if !l.is_empty() && i < per_line.len() {
                per_line[i].push_str(l);
                per_line[i].push('\n');
            }
        }
    }
    (argvs, per_line)
}

// ---------------------------------------------------------------------------
// The test.

fn reader_words(line: &str) -> (Vec<Vec<String>>, Vec<shell::Unparsed>) {
    let l = shell::read(line);
    let words = l
        .segments
        .into_iter()
        .filter(|s| !s.words.is_empty())
        .map(|s| s.words)
        .collect();
    (words, l.unparsed)
}

#[test]
fn reader_words_equal_bash_argv() {
    let Some(bash) = find_bash() else {
        println!("SKIPPED shell_vs_bash: no `bash` found");
        return;
    };
    let mut rng = Rng(SEED);
    let mut cases: Vec<(String, bool)> = FIXED.iter().map(|(l, u)| (l.to_string(), *u)).collect();
    for _ in 0..GENERATED {
        cases.push(gen_line(&mut rng));
    }
    let lines: Vec<&str> = cases.iter().map(|(l, _)| l.as_str()).collect();
    // The generator keeps producing every form (a cheap guard against a
    // change that silently stops generating one).
    for form in [
        "''", "\"\"", "\\\"", "\\\\", "\\$", "\\`", "\\\n", "\\ ", "\\;", "\\|", "\\&", "\\>", "é",
        ">>", ">|", "<>", "&>", "&>>", ">&", "<&", "2>", "<<<", "{fd}>", " #", "&&", "||", "|&",
        ";", "\n",
    ] {
        let n = lines.iter().filter(|l| l.contains(form)).count();
        assert!(n >= 5, "only {n} generated lines hold {form:?}");
    }
    let started = Instant::now();
    let (argvs, errors) = run_bash(&bash, &lines);
    let bash_time = started.elapsed();

    let mut failures = Vec::new();
    let mut commands = 0usize;
    for (i, (line, unordered)) in cases.iter().enumerate() {
        let (mut mine, unparsed) = reader_words(line);
        let mut theirs = argvs[i].clone();
        commands += theirs.len();
        if *unordered {
            mine.sort();
            theirs.sort();
        }
        // Bash complaining about a line (a redirection that failed…) is a
        // generator fault that could hide a command: counted as a failure.
        if mine != theirs || !unparsed.is_empty() || !errors[i].is_empty() {
            failures.push(format!(
                "line {i}: {line:?}\n  reader: {mine:?}\n  bash:   {theirs:?}\n  \
                 unparsed: {unparsed:?}\n  bash stderr: {:?}",
                errors[i]
            ));
        }
    }
    println!(
        "shell_vs_bash: {} lines ({} fixed), {commands} commands, bash took {bash_time:?}",
        cases.len(),
        FIXED.len()
    );
    assert!(commands > cases.len(), "bash ran too few commands");
    if !failures.is_empty() {
        let shown: Vec<_> = failures.iter().take(20).cloned().collect();
        panic!(
            "{} of {} lines differ from bash:\n{}",
            failures.len(),
            cases.len(),
            shown.join("\n")
        );
    }
}

#[test]
fn lines_bash_rejects_are_unparsed() {
    let Some(bash) = find_bash() else {
        println!("SKIPPED shell_vs_bash: no `bash` found");
        return;
    };
    let mut failures = Vec::new();
    for line in REJECTED {
        let status = Command::new(&bash)
            .args(["--norc", "--noprofile", "-n", "-c", line])
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run bash -n");
        assert!(!status.success(), "bash accepts {line:?}; fix the list");
        if !shell::read(line).is_unparsed() {
            failures.push(format!("{line:?}: {:?}", shell::read(line)));
        }
    }
    assert!(
        failures.is_empty(),
        "not unparsed:\n{}",
        failures.join("\n")
    );
}
