//! SPEC §4.1 and §4.2 **[hardening]**: "The words of every command that
//! bash can parse without expansions must equal the argv that bash would
//! pass; this is tested against a real bash. The same holds for where
//! nested commands begin and end." The bar is no disagreement at all.
//!
//! How it works:
//!
//! * 10,000 command lines are generated deterministically (a seeded
//!   splitmix64, no `rand`), plus a list of hand-written ones. Their
//!   argument words are random text whose every character bash could
//!   expand or split is quoted or escaped, in random styles (with
//!   backslash-newlines and empty quotes as noise); around them the lines
//!   hold every construct that runs commands: control operators,
//!   redirections, `$( )`, backticks (also inside double quotes), `$((`
//!   read as arithmetic or as a subshell, `(( ))`, `<( )`, subshells,
//!   groups, the reserved word `time`, here-documents (bodies expanded or
//!   not), and parameter expansions `${…}` with every operator (`-` `:-`
//!   `=` `:=` `?` `:?` `+` `:+` `#` `##` `%` `%%` `/` `//` `/#` `/%` `^`
//!   `^^` `,` `,,`, substrings, subscripts, `${#…}`, `${!…}`, `@Q`),
//!   unquoted and inside double quotes, nested, with `$( )`, backticks,
//!   `<( )`/`>( )` and quoted text in them. The variables are chosen so
//!   that bash expands the part the commands are in (`__u` unset, `__e`
//!   empty, `__s` set, one fresh variable per `=`). Command words are
//!   `cmd_…`/`fail_…` names, never keywords, builtins or `NAME=value`
//!   assignments (the reader keeps leading assignments among the words by
//!   design, bash does not pass them in argv).
//! * Every line runs in a real bash, through `eval` in a subshell of its
//!   own (a syntax error stays in its line), in four batches at once.
//!   `PATH` leads nowhere: a command word is either one of a pool of shell
//!   functions or lands in `command_not_found_handle`; both write their
//!   argv, tagged with the line's number, as one record to fd 19 (a file
//!   opened for appending: records of concurrent parts do not tear, and a
//!   late one still counts for its line). A command whose name starts with
//!   `fail` returns 1, every other one 0; the generator names the last
//!   command before each `||` `fail_…`, so every command of a line runs.
//!   Redirections are harmless: bash runs in a fresh temporary directory
//!   where every file a redirection names exists.
//! * The comparison is on the set of commands bash runs. Every argv bash
//!   recorded must be read by a segment of the reader (an exact word equal
//!   to its argument, an unknown word standing for one argument inside
//!   double quotes or for any run of them unquoted, SPEC §4.4), matched one
//!   to one as a maximum matching; and every segment of exact words must
//!   be an argv bash ran (unless bash stopped the line: an arithmetic
//!   error, a failed substitution, `${x?…}`). A line bash rejects must be
//!   unparsed, and a line the reader calls unparsed must be one bash
//!   rejects or one the generator makes unparsed on purpose. Lines with
//!   ANSI-C quoting, brace expansion (found as bash's own `brace_gobbler`
//!   finds it) or `$[ ]` are unparsed by design and only checked for that.
//!
//! The test is skipped, with a message, only when no `bash` is found.

use permc_shell::facts::glob;
use permc_shell::reader as shell;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// A batch's lines in one bash process each (`run_bash_batches`), several
// batches at once.

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

/// What a generated line holds besides its text.
#[derive(Default)]
struct Line {
    text: String,
    /// A form the reader calls unparsed on purpose (a here-document).
    unparsed: bool,
}

/// Generation state: nesting depth and here-document bodies waiting for
/// the next newline.
struct Gen<'r> {
    rng: &'r mut Rng,
    depth: usize,
    bodies: Vec<String>,
    unparsed: bool,
    /// `${__aN=…}` variables used so far in the line.
    assigned: usize,
}

/// Deepest nesting of substitutions, subshells and groups generated.
const MAX_GEN_DEPTH: usize = 2;

impl Gen<'_> {
    /// A command line nested in a substitution, subshell or group: no
    /// comments (a `)` after `#` would be commented out), no here-document.
    /// Its last command ends with `status`.
    fn sub_line(&mut self, status: Status) -> String {
        self.depth += 1;
        let nseg = 1 + self.rng.weighted(&[50, 30, 20]);
        const OPS: &[&str] = &["&&", "||", ";", "|", "\n"];
        let mut out = String::new();
        for i in 0..nseg {
            let last = i + 1 == nseg;
            let op = if last {
                ""
            } else {
                OPS[self.rng.weighted(&[20, 15, 25, 20, 20])]
            };
            let st = match op {
                "&&" => Status::Succeed,
                "||" => Status::Fail,
                "" => status,
                _ => Status::Any,
            };
            let toks = self.segment(st);
            out.push_str(&join_segment(self.rng, &toks));
            if !last {
                out.push_str(self.rng.pick_str(&["", " "]));
                out.push_str(op);
                out.push(' ');
            }
        }
        self.depth -= 1;
        if out.starts_with('(') {
            // `$(` + `(…)` would be `$((`.
            out.insert(0, ' ');
        }
        out
    }

    /// A word holding a command substitution (or an arithmetic look-alike),
    /// quoted or not.
    fn substitution_word(&mut self) -> Token {
        let sub = self.sub_line(Status::Any);
        // Backslash-newlines where bash removes them first: between `$`
        // and `(`, inside `$((`, after an opener.
        let (a, b, c) = (bn(self.rng), bn(self.rng), bn(self.rng));
        let text = match self.rng.below(12) {
            0 | 1 => format!("${a}({b}{sub})"),
            2 => format!("\"${a}({sub}{b})\""),
            3 => format!("`{a}{}`", escape_backticks(self.rng, &sub, false)),
            4 => format!("\"x`{}{a}`\"", escape_backticks(self.rng, &sub, true)),
            // `$((` that is no arithmetic: a subshell first.
            5 => format!("${a}({b}({sub}) | {})", self.sub_line(Status::Any)),
            6 => format!("\"${a}(( {sub} );{}{c})\"", self.sub_line(Status::Any)),
            // Arithmetic whose text holds substitutions.
            7 => format!("${a}({b}( $({sub})1 + 2 )){c}"),
            8 => format!("\"$(({a} $({sub})0 ))\""),
            9 => {
                // A substitution in `$[…]` is unparsed: bash finds its end
                // again at expansion, without skipping substitutions.
                self.unparsed = true;
                format!("${a}[ ${b}(( {sub}) )3 ]")
            }
            10 => format!("<{a}({sub})"),
            _ => format!("a${a}({sub}){b}b"),
        };
        if text.replace("\\\n", "").contains("((") && text.contains('`') {
            // A backtick in `$((…))` text is unparsed (bash 5.2 extracts
            // that text again when it expands it, inconsistently).
            self.unparsed = true;
        }
        Token {
            text,
            redirect: false,
            digit_tail: false,
        }
    }

    /// A word holding a parameter expansion `${…}` with every operator,
    /// quoted or not, nested, with substitutions inside. The variables are
    /// chosen so that bash expands the part the substitutions are in:
    /// `__u` is unset, `__e` empty, `__s` set (`abc`), `__r` names `__s`,
    /// and each `=`/`:=` assigns a variable of its own (`__a1`, `__a2`…).
    fn param_word(&mut self) -> Token {
        let dq = self.rng.chance(40);
        let body = self.param_expansion(dq, 0);
        let text = if dq { format!("\"{body}\"") } else { body };
        Token {
            text,
            redirect: false,
            digit_tail: false,
        }
    }

    /// `${…}` (inside double quotes when `dq`); `level` counts `${` nesting.
    fn param_expansion(&mut self, dq: bool, level: usize) -> String {
        let (a, b) = (bn(self.rng), bn(self.rng));
        match self.rng.below(16) {
            0 => format!("${a}{{__s}}"),
            1 => "${#__s}".to_string(),
            2 => "${!__r}".to_string(),
            3 => "${__s@Q}".to_string(),
            // Arithmetic parts: `$( )` runs there.
            4 => format!("${{__s:$({}){b}0}}", self.sub_line(Status::Any)),
            5 => format!("${{__s:0:`{}`1}}", self.backtick_body()),
            6 => format!("${{__s[$({})0]}}", self.sub_line(Status::Any)),
            // `?`: the word is expanded for the message, then the shell
            // stops (the harness sees `__u: ` on stderr).
            7 => {
                let op = self.rng.pick_str(&["?", ":?"]);
                format!("${{__u{op}{}}}", self.param_operand(dq, false, level))
            }
            8 | 9 => {
                let (var, op) = *self.rng.pick(&[
                    ("__u", "-"),
                    ("__u", ":-"),
                    ("__e", ":-"),
                    ("__s", "+"),
                    ("__s", ":+"),
                    ("__e", "+"),
                ]);
                format!(
                    "${a}{{{var}{op}{b}{}}}",
                    self.param_operand(dq, false, level)
                )
            }
            10 => {
                self.assigned += 1;
                let op = self.rng.pick_str(&["=", ":="]);
                let n = self.assigned;
                format!("${{__a{n}{op}{}}}", self.param_operand(dq, false, level))
            }
            11 | 12 => {
                let op = self
                    .rng
                    .pick_str(&["#", "##", "%", "%%", "^", "^^", ",", ",,"]);
                format!("${{__s{op}{}}}", self.param_operand(dq, true, level))
            }
            13 => {
                let op = self.rng.pick_str(&["/", "//", "/#", "/%"]);
                let pat = self.param_operand(dq, true, level);
                let rep = self.param_operand(dq, true, level);
                format!("${{__s{op}{pat}/{rep}}}")
            }
            14 => {
                // `'…'` in a `:-` word inside double quotes is literal
                // text that bash expands: not read exactly, unparsed.
                let text = if dq && self.rng.chance(30) {
                    self.unparsed = true;
                    *self.rng.pick(&["$(cmd_a q)", "`cmd_b`", "x$(fail_a)y"])
                } else if dq {
                    *self.rng.pick(&["a b", "{x}", "$HOME"])
                } else {
                    *self.rng.pick(&["a b", "$(cmd_a)", "`x`"])
                };
                format!("${{__u:-'{text}'}}")
            }
            _ => {
                // A `<( )` where bash parses it but does not run it: in an
                // arithmetic part, or a `:-` word inside double quotes.
                if dq && self.rng.chance(20) {
                    self.unparsed = true;
                    format!("${{__u:-<({})}}", self.sub_line(Status::Any))
                } else {
                    format!("${{__u:-{}}}", self.param_operand(dq, false, level))
                }
            }
        }
    }

    /// The word of a `${…}` operator: plain text, quoted text, command and
    /// process substitutions, a nested `${…}`. `pattern`: the operand of
    /// `#`, `%`, `/`, `^`, `,` (process substitutions run there inside
    /// double quotes too).
    fn param_operand(&mut self, dq: bool, pattern: bool, level: usize) -> String {
        let mut out = String::new();
        for _ in 0..1 + self.rng.below(3) {
            let piece = match self.rng.below(10) {
                0 => self
                    .rng
                    .pick_str(&["a", "b1", "x.y", "-", "=", "a:b", "%", "#"])
                    .to_string(),
                1 if !dq || pattern => {
                    format!("'{}'", self.rng.pick_str(&["a b", "}", "$x", "\""]))
                }
                2 => format!("\"{}\"", self.rng.pick_str(&["a b", "}", "'", ""])),
                3 | 4 => format!("$({})", self.sub_line(Status::Any)),
                5 => format!("`{}`", self.backtick_body()),
                6 if !dq || pattern => {
                    let op = self.rng.pick_str(&["<", ">"]);
                    format!("{op}({})", self.sub_line(Status::Any))
                }
                7 if level < 2 => self.param_expansion(dq, level + 1),
                8 => format!("\"$({})\"", self.sub_line(Status::Any)),
                9 => format!("\"x`{}`\"", self.backtick_body()),
                _ => "z".to_string(),
            };
            out.push_str(&piece);
        }
        out
    }

    /// A command line written inside backticks in a `${…}`: bash reads
    /// `\"` there as it is, inside double quotes too.
    fn backtick_body(&mut self) -> String {
        let sub = self.sub_line(Status::Any);
        escape_backticks(self.rng, &sub, false)
    }

    /// A here-document redirection; its body is queued for the next
    /// newline.
    fn heredoc_token(&mut self) -> Token {
        const FDS: &[&str] = &["", "", "0", "4", "5", "{hd}", "7"];
        let fd = *self.rng.pick(FDS);
        let dash = self.rng.chance(30);
        let delim = *self.rng.pick(&["E", "EOF", "x_1", "END"]);
        let (written, expand) = match self.rng.below(6) {
            0 => (format!("'{delim}'"), false),
            1 => (format!("\"{delim}\""), false),
            2 => (format!("\\{delim}"), false),
            _ => (delim.to_string(), true),
        };
        let sp = if self.rng.chance(40) { " " } else { "" };
        let op = format!(
            "<{}<{}",
            bn(self.rng),
            if dash {
                format!("{}-", bn(self.rng))
            } else {
                String::new()
            }
        );
        let mut body = String::new();
        for _ in 0..self.rng.below(4) {
            if dash && self.rng.chance(50) {
                body.push('\t');
            }
            // Body lines: text that looks like commands, substitutions
            // (between single quotes too), escaped dollars.
            let line = match self.rng.below(7) {
                0 => "cmd_a body words".to_string(),
                1 => "fail_a; cmd_b && x".to_string(),
                2 => format!("'$({})'", self.sub_line(Status::Any)),
                3 => format!("x \"$({})\" y", self.sub_line(Status::Any)),
                4 => {
                    let sub = self.sub_line(Status::Any);
                    format!("`{}`", escape_backticks(self.rng, &sub, false))
                }
                5 => "\\$(cmd_q) \\`cmd_r\\` $ x".to_string(),
                _ => format!("{delim}x {delim}"),
            };
            body.push_str(&line);
            body.push('\n');
        }
        if dash {
            body.push_str(self.rng.pick_str(&["", "\t", "\t\t"]));
        }
        body.push_str(delim);
        body.push('\n');
        let _ = expand;
        self.bodies.push(body);
        self.unparsed = true;
        Token {
            text: format!("{fd}{op}{sp}{written}"),
            redirect: true,
            digit_tail: false,
        }
    }

    /// A simple command, or a compound one at this position.
    fn segment(&mut self, status: Status) -> Vec<Token> {
        let nested_ok = self.depth < MAX_GEN_DEPTH;
        if nested_ok && self.rng.chance(12) {
            return vec![self.compound(status)];
        }
        if status != Status::Fail && self.rng.chance(3) {
            // Redirections only: bash runs no command (status 0).
            let mut t = redirect_token(self.rng);
            if t.text.starts_with("<<<") {
                t = Token {
                    text: ">out.txt".into(),
                    redirect: true,
                    digit_tail: false,
                };
            }
            return vec![t];
        }
        let mut toks = Vec::new();
        // After `|`, `time` is a command of its own, which succeeds.
        // Only at the top: bash 5.2 reads a `time` in a substitution that
        // arithmetic holds as a plain word (5.3 as the reserved word).
        if self.depth == 0 && status != Status::Fail && self.rng.chance(6) {
            // The reserved word `time`.
            let t = *self
                .rng
                .pick(&["time", "time -p", "time --", "time -p --", "time time"]);
            toks.push(Token {
                text: t.replacen("ti", &format!("ti{}", bn(self.rng)), 1),
                redirect: false,
                digit_tail: false,
            });
        }
        for _ in 0..self.rng.weighted(&[80, 15, 5]) {
            toks.push(redirect_token(self.rng));
        }
        if self.depth == 0 && self.rng.chance(8) {
            // Array-subscript assignments (SPEC §4.1 round 3), after
            // redirections and other assignments: bash reads the subscript
            // to its matching `]`, blanks and operators included.
            for _ in 0..1 + self.rng.below(2) {
                toks.push(self.subscript_assignment());
                if self.rng.chance(30) {
                    toks.push(redirect_token(self.rng));
                }
            }
        }
        toks.push(command_token(self.rng, status));
        for _ in 0..self.rng.below(7) {
            let r = self.rng.below(100);
            if r < 15 {
                toks.push(redirect_token(self.rng));
            } else if r < 18 && self.depth == 0 {
                toks.push(self.heredoc_token());
            } else if r < 28 && nested_ok {
                toks.push(self.substitution_word());
            } else if r < 34 && nested_ok {
                toks.push(self.param_word());
            } else {
                toks.push(word_token(self.rng));
            }
        }
        toks
    }

    /// `__saN[SUB]=v` (or `+=`): a subscript holding blanks, operators,
    /// `#`, quotes, substitutions, nested brackets or newlines. Any but
    /// digits and operators makes the line unparsed (bash reads it whole,
    /// and the reader does too, but does not approve it).
    fn subscript_assignment(&mut self) -> Token {
        const PIECES: &[&str] = &[
            "0",
            "1+2",
            " ",
            "x y",
            "#",
            " #",
            ";",
            "|",
            "&&",
            "'a b'",
            "\"q\"",
            "']'",
            "[1]",
            "a[b]",
            "\n",
            "$(cmd_a s)",
            "`cmd_b t`",
            "(",
            ")",
            "<",
            ">",
            "\\ ",
            "2*3",
        ];
        let mut sub = String::new();
        for _ in 0..1 + self.rng.below(3) {
            sub.push_str(self.rng.pick_str(PIECES));
        }
        if !sub
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+*-".contains(&b))
        {
            self.unparsed = true;
        }
        let op = self.rng.pick_str(&["=", "+=", "=v", "=1"]);
        self.assigned += 1;
        Token {
            text: format!("__sa{}[{sub}]{op}", self.assigned),
            redirect: false,
            digit_tail: false,
        }
    }

    /// A subshell, group, timed group or arithmetic command.
    fn compound(&mut self, status: Status) -> Token {
        let kinds = if self.depth == 0 { 8 } else { 5 };
        let text = match self.rng.below(kinds) {
            0 | 1 => format!("( {} )", self.sub_line(status)),
            2 => format!("({})", self.sub_line(status)),
            3 => format!("{{ {}; }}", self.sub_line(status)),
            5 => format!("time {{ {}; }}", self.sub_line(status)),
            6 => format!("time -p ( {} )", self.sub_line(status)),
            _ => {
                // `(( … ))`: status 0 when the value is not zero.
                let value = match status {
                    Status::Fail => "0",
                    _ => "1",
                };
                let a = bn(self.rng);
                format!("({a}( $({}){value} ))", self.sub_line(Status::Any))
            }
        };
        let mut text = text;
        if self.depth == 0 && self.rng.chance(15) {
            text.push(' ');
            text.push_str(&self.heredoc_token().text);
        }
        Token {
            text,
            redirect: false,
            digit_tail: false,
        }
    }

    /// Pending here-document bodies, right after a newline.
    fn flush_bodies(&mut self, line: &mut String) {
        for b in self.bodies.drain(..) {
            line.push_str(&b);
        }
    }
}

/// A backslash-newline now and then (bash removes it before anything else).
fn bn(rng: &mut Rng) -> &'static str {
    if rng.chance(8) {
        "\\\n"
    } else {
        ""
    }
}

/// `body` written inside backticks: `\`, `` ` `` escaped, `$` at random,
/// and inside double quotes `"` as `\"` at random (bash reads both).
fn escape_backticks(rng: &mut Rng, body: &str, in_double: bool) -> String {
    let mut out = String::new();
    for c in body.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '`' => out.push_str("\\`"),
            '$' if rng.chance(30) => out.push_str("\\$"),
            '"' if in_double => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out
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

/// One generated line.
fn gen_line(rng: &mut Rng) -> Line {
    const OPS: &[&str] = &["&&", "||", ";", "|", "|&", "&", "\n"];
    let mut g = Gen {
        rng,
        depth: 0,
        bodies: Vec::new(),
        unparsed: false,
        assigned: 0,
    };
    let nseg = 1 + g.rng.weighted(&[30, 30, 20, 12, 8]);
    let ops: Vec<&str> = (0..nseg - 1)
        .map(|_| OPS[g.rng.weighted(&[20, 15, 18, 15, 6, 8, 18])])
        .collect();
    let mut line = String::new();
    if g.rng.chance(5) {
        line.push_str(blank(g.rng));
    }
    for i in 0..nseg {
        let status = match ops.get(i) {
            Some(&"||") => Status::Fail,
            Some(&"&&") => Status::Succeed,
            _ => Status::Any,
        };
        let toks = g.segment(status);
        line.push_str(&join_segment(g.rng, &toks));
        let Some(op) = ops.get(i) else { break };
        if *op == "\n" {
            g.push_newline_operator(&mut line);
        } else {
            g.push_operator(&mut line, op);
        }
        // Always a blank after the operator: the next segment may start
        // with a redirection, and `a&>x`, `a;&>x`, `a|&>x` lex differently.
        line.push_str(g.rng.pick_str(&[" ", " ", "\t", "  "]));
    }
    g.push_line_end(&mut line);
    if g.rng.chance(4) {
        g.push_arithmetic_tail(&mut line);
    }
    // A backtick anywhere near `((` text: unparsed on purpose (bash 5.2
    // extracts arithmetic text again when it expands it).
    let unparsed = g.unparsed || (line.replace("\\\n", "").contains("((") && line.contains('`'));
    Line {
        text: line,
        unparsed,
    }
}

/// The steps of [`gen_line`] between and after its segments.
impl Gen<'_> {
    /// A newline between two segments: a comment or blanks before it, the
    /// waiting here-document bodies after it, then maybe blank lines.
    fn push_newline_operator(&mut self, line: &mut String) {
        if self.rng.chance(20) {
            line.push_str(&comment(self.rng));
        } else if self.rng.chance(20) {
            line.push_str(self.rng.pick_str(&[" ", "\t", ";"]));
        }
        line.push('\n');
        self.flush_bodies(line);
        if self.rng.chance(15) {
            line.push_str(self.rng.pick_str(&["\n", "  ", "\n\t"]));
        }
    }

    /// A control operator between two segments, maybe split by a
    /// backslash-newline, maybe followed by a newline or a comment.
    fn push_operator(&mut self, line: &mut String, op: &str) {
        line.push_str(self.rng.pick_str(&["", "", " ", "  ", "\t"]));
        // A backslash-newline inside the operator (`&\⏎&`) or before it.
        let cont = bn(self.rng);
        if op.len() == 2 {
            line.push_str(&op[..1]);
            line.push_str(cont);
            line.push_str(&op[1..]);
        } else {
            line.push_str(cont);
            line.push_str(op);
        }
        match self.rng.weighted(&[75, 12, 13]) {
            0 => {}
            1 => {
                line.push('\n');
                self.flush_bodies(line);
                line.push_str(self.rng.pick_str(&["", "\n", " \n  "]));
            }
            _ => {
                // A comment after an operator runs to the newline.
                line.push_str(&comment(self.rng));
                line.push('\n');
                self.flush_bodies(line);
            }
        }
    }

    /// What ends the line (nothing, `;`, `&`, a comment, blanks), then the
    /// here-document bodies still waiting.
    fn push_line_end(&mut self, line: &mut String) {
        match self.rng.weighted(&[55, 12, 8, 10, 10, 5]) {
            0 => {}
            1 => line.push(';'),
            2 => line.push_str(self.rng.pick_str(&["&", " &"])),
            3 => line.push_str(&comment(self.rng)),
            4 => line.push_str(self.rng.pick_str(&[" ", "\t", "\n", " \\\n"])),
            _ => line.push_str(" ;\n"),
        }
        if !self.bodies.is_empty() {
            line.push('\n');
            self.flush_bodies(line);
        }
    }

    /// Last: arithmetic reads single quotes as double quotes do, so the
    /// substitution runs (and the expression then fails).
    fn push_arithmetic_tail(&mut self, line: &mut String) {
        // A substitution between those single quotes that a quote of its
        // own ends early is unparsed (bash finds its end only when it
        // expands the text).
        let sub = self.sub_line(Status::Any);
        if sub.contains('`') || sub.contains('\'') {
            self.unparsed = true;
        }
        let form = match self.rng.below(2) {
            0 => format!("\n(( '$({sub})' ))"),
            _ => format!("\ncmd_a \"$(( '$({sub})' ))\""),
        };
        line.push_str(&form);
    }
}

/// Hand-written lines (each must run every command it holds), and whether
/// the reader calls them unparsed on purpose.
const FIXED: &[(&str, bool)] = &[
    (
        "cmd_a $\\\n(cmd_b x) \"$\\\n(cmd_c)\" &\\\n& cmd_d <\\\n<<y",
        false,
    ),
    ("cmd_a $\\\n'x'", true),
    ("cmd_a \"`cmd_b \\\"'\\\"$(cmd_c y)\\\"'\\\"`\"", false),
    ("cmd_a $((cmd_b x) | cmd_c y)", false),
    ("x=$((cmd_b push);cmd_c)", false),
    ("((cmd_a) ); cmd_b", false),
    ("(( $(cmd_a)1 )) && cmd_b", false),
    ("cmd_a $(( '$(cmd_b x)' ))", false),
    ("cmd_a 4<<E\n'$(cmd_b)' `cmd_c`\nE\ncmd_d", true),
    ("(cmd_a) <<E\n$(cmd_b)\nE", true),
    ("{ cmd_a; } {hd}<<-'E'\n\t$(cmd_b)\n\tE\ncmd_c", true),
    ("cmd_a 0<<\\E\n$(cmd_b)\nE", true),
    ("time { cmd_a; }; time -p cmd_b; time -- cmd_c; time", false),
    ("cmd_a | time x", false),
    ("time ( cmd_a ) && time time -p cmd_b", false),
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
    ("__sa0[ #]= cmd_a x", true),
    ("__sa0[x y]=1 cmd_b y", true),
    (">out.txt __sa0[1;2]=1 __sa1[ ]+=v cmd_a", true),
    ("__sa0[0]=1 __sa1[2]+=x cmd_a z", false),
    ("__sa0=1 __sa1[a b] cmd_a", true),
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

// Records go to fd 19 (never named by a line). bash line-buffers stdout: a
// newline inside a record would flush it in pieces that concurrent pipeline
// parts interleave. Newlines travel as \034, fields end in \037, records in
// \036, and each record starts with the number of its line (`__L`, which
// every subshell, substitution and background part inherits: a record that
// comes late still counts for its line). Each line's stderr goes to a file
// of its own. `time`'s report is silenced (TIMEFORMAT), except `time -p`'s,
// which is filtered out.
const PRELUDE: &str = r#"exec 19>>records.bin 1>/dev/null 4>/dev/null 5>/dev/null
shopt -s varredir_close 2>/dev/null
TIMEFORMAT=
__s=abc __e= __r=__s
unset __u
__rec() {
  local __a __r=$__L$'\037'
  for __a; do __r+=${__a//$'\n'/$'\034'}$'\037'; done
  builtin printf '%s\036' "$__r" >&19
  case $1 in fail*) return 1 ;; esac
  return 0
}
command_not_found_handle() { __rec "$@"; }
"#;

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Bash's argv records per line, and its stderr per line.
type BashResult = (Vec<Vec<Vec<String>>>, Vec<String>);

/// Runs `lines` in one bash process (each through `eval`, so a syntax
/// error stays in its line, then `wait`, so background parts and process
/// substitutions are done), in a fresh directory named by `batch`.
fn run_bash(bash: &Path, lines: &[&str], batch: usize) -> BashResult {
    let dir = std::env::temp_dir().join(format!(
        "permc-shell-vs-bash-{}-{batch}-{}",
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
    fs::create_dir_all(dir.join("err")).expect("stderr dir");
    let script_path = dir.join("lines.sh");
    fs::write(&script_path, bash_script(lines)).expect("script");
    let stderr = fs::File::create(dir.join("stderr.txt")).expect("stderr file");
    let child = Command::new(bash)
        .arg("--norc")
        .arg("--noprofile")
        .arg(&script_path)
        .current_dir(&dir)
        .env_clear()
        .env("PATH", dir.join("empty-path"))
        .env("LC_ALL", "C.UTF-8")
        .env("HOME", &dir)
        .env("TMPDIR", &dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("spawn bash");
    wait_for_bash(child);
    let records = fs::read(dir.join("records.bin")).unwrap_or_default();
    let errors = fs::read(dir.join("stderr.txt")).unwrap_or_default();
    let per_line_errors: Vec<String> = (0..lines.len())
        .map(|i| {
            let raw = fs::read(dir.join("err").join(i.to_string())).unwrap_or_default();
            without_timing(&String::from_utf8_lossy(&raw))
        })
        .collect();
    drop(guard);
    let (argvs, ended) = argvs_per_line(&records, lines.len());
    let errors = String::from_utf8_lossy(&errors).into_owned();
    assert!(ended, "bash stopped early; its stderr:\n{errors}");
    (argvs, per_line_errors)
}

/// The script that runs `lines`: the prelude, the pool of functions, each
/// line in a subshell of its own, and a last record once all is done.
fn bash_script(lines: &[&str]) -> String {
    let mut script = String::from(PRELUDE);
    for name in FUNCS.iter().chain(FAIL_FUNCS) {
        script.push_str(&format!(
            "function {name} {{ __rec \"$FUNCNAME\" \"$@\"; }}\n"
        ));
    }
    for (i, line) in lines.iter().enumerate() {
        // In a subshell: a syntax error bash meets while expanding (in a
        // substitution inside arithmetic or a here-document) ends the shell.
        script.push_str(&format!(
            "__L={i}\n( eval {}\nwait ) 2>err/{i}\n",
            single_quote(line)
        ));
    }
    // Parts that outlive their line (a background job in a substitution).
    script.push_str("wait\nread -t 0.3 <> <(:)\n__L=end; __rec\n");
    script
}

/// Waits for bash, killing it (and failing) after five minutes.
fn wait_for_bash(mut child: std::process::Child) {
    let deadline = Instant::now() + Duration::from_secs(300);
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
}

/// A line's stderr without its empty lines and `time -p`'s report.
fn without_timing(text: &str) -> String {
    let mut kept = String::new();
    for l in text.lines() {
        // `time -p`'s report.
        let timing = ["real ", "user ", "sys "]
            .iter()
            .any(|p| l.strip_prefix(p).is_some_and(|t| t.parse::<f64>().is_ok()));
        if !l.is_empty() && !timing {
            kept.push_str(l);
            kept.push('\n');
        }
    }
    kept
}

/// The argvs of `records` for each of `lines` lines, and whether the last
/// record (`end`) came.
fn argvs_per_line(records: &[u8], lines: usize) -> (Vec<Vec<Vec<String>>>, bool) {
    let mut argvs: Vec<Vec<Vec<String>>> = vec![Vec::new(); lines];
    let mut ended = false;
    for rec in records.split(|&b| b == 0x1e) {
        if rec.is_empty() {
            continue;
        }
        let text = String::from_utf8_lossy(rec).replace('\u{1c}', "\n");
        let mut argv: Vec<String> = text.split('\u{1f}').map(str::to_string).collect();
        argv.pop(); // after the last separator
        let tag = argv.remove(0);
        if tag == "end" {
            ended = true;
            continue;
        }
        match tag.parse::<usize>() {
            Ok(i) if i < argvs.len() => argvs[i].push(argv),
            _ => panic!("a record outside any line: {tag:?} {argv:?}"),
        }
    }
    (argvs, ended)
}

/// Runs `lines` in `batches` bash processes at once, one per slice.
fn run_bash_batches(bash: &Path, lines: &[&str], batches: usize) -> BashResult {
    let size = lines.len().div_ceil(batches.max(1)).max(1);
    let results: Vec<BashResult> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(size)
            .enumerate()
            .map(|(b, chunk)| s.spawn(move || run_bash(bash, chunk, b)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a batch panicked"))
            .collect()
    });
    let mut argvs = Vec::new();
    let mut errors = Vec::new();
    for (a, e) in results {
        argvs.extend(a);
        errors.extend(e);
    }
    (argvs, errors)
}

// ---------------------------------------------------------------------------
// The comparison.

/// A parser error of bash (as opposed to an arithmetic or runtime one).
fn is_syntax_error(stderr: &str) -> bool {
    stderr.contains("syntax error near")
        || stderr.contains("unexpected EOF while looking for")
        || stderr.contains("syntax error: unexpected end of file")
}

/// Stderr bash may print for a generated line without any fault: an
/// arithmetic expression with quotes in it (the generated tail), and a
/// here-document cut by the end of the line.
fn is_expected_message(l: &str) -> bool {
    l.contains("operand expected")
        || l.contains("syntax error in expression")
        || l.contains("invalid arithmetic operator")
        || l.contains("here-document at line")
        || l.contains("not a valid identifier")
}

/// Does a segment of the reader (words and what is known of them) read
/// as bash's argv? An exact word must be equal; an unknown one in double
/// quotes (or an assignment's value) is any one argument, an unquoted one
/// any run of arguments, none included (SPEC §4.4).
fn segment_matches(words: &[String], known: &[shell::Known], argv: &[String]) -> bool {
    // reach[j]: the words so far can produce argv[..j].
    let mut reach = vec![false; argv.len() + 1];
    reach[0] = true;
    for (w, k) in words.iter().zip(known) {
        let mut next = vec![false; argv.len() + 1];
        for j in 0..=argv.len() {
            if !reach[j] {
                continue;
            }
            match k {
                shell::Known::Exact => {
                    if argv.get(j) == Some(w) {
                        next[j + 1] = true;
                    }
                }
                shell::Known::OneToken => {
                    if j < argv.len() {
                        next[j + 1] = true;
                    }
                }
                shell::Known::AnyTokens => {
                    for slot in next.iter_mut().skip(j) {
                        *slot = true;
                    }
                }
                shell::Known::Glob => {
                    // Itself (no file matched), nothing (nullglob), or a
                    // run of arguments each matching it (SPEC §4.4 item 4).
                    next[j] = true;
                    if argv.get(j) == Some(w) {
                        next[j + 1] = true;
                    }
                    let mut k = j;
                    while k < argv.len() && glob::glob_matches(w, &argv[k]) {
                        k += 1;
                        next[k] = true;
                    }
                }
            }
        }
        reach = next;
    }
    reach[argv.len()]
}

/// A maximum matching (Kuhn's augmenting paths): `edges[i]` lists the
/// right-hand items left item `i` may take, `right` counts them. Returns
/// the item each left one took, and the left one each right item went to.
fn matching(edges: &[Vec<usize>], right: usize) -> (Vec<Option<usize>>, Vec<Option<usize>>) {
    fn augment(
        i: usize,
        edges: &[Vec<usize>],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for &r in &edges[i] {
            if seen[r] {
                continue;
            }
            seen[r] = true;
            if owner[r].is_none_or(|o| augment(o, edges, seen, owner)) {
                owner[r] = Some(i);
                return true;
            }
        }
        false
    }
    let mut owner = vec![None; right];
    for i in 0..edges.len() {
        let mut seen = vec![false; right];
        augment(i, edges, &mut seen, &mut owner);
    }
    let mut taken = vec![None; edges.len()];
    for (r, o) in owner.iter().enumerate() {
        if let Some(i) = o {
            taken[*i] = Some(r);
        }
    }
    (taken, owner)
}

/// The argv a segment may stand for: its words, and without a leading
/// reserved `time` (with `-p`, `--`), which bash does not pass.
fn readings(seg: &shell::Segment) -> Vec<(Vec<String>, Vec<shell::Known>)> {
    let own: Vec<String> = seg.words.iter().map(|w| w.to_string()).collect();
    let mut out = vec![(own.clone(), seg.known.to_vec())];
    let mut i = 0;
    while own.get(i).map(String::as_str) == Some("time") {
        i += 1;
        if own.get(i).map(String::as_str) == Some("-p") {
            i += 1;
        }
        if own.get(i).map(String::as_str) == Some("--") {
            i += 1;
        }
        out.push((own[i..].to_vec(), seg.known[i..].to_vec()));
    }
    // The generator's subscript assignments (`__saN[…]=…`), after `time`
    // or not, which bash does not pass in argv.
    let assigned: Vec<_> = out
        .iter()
        .filter_map(|(w, k)| {
            let n = w
                .iter()
                .take_while(|w| w.starts_with("__sa") && w.contains('='))
                .count();
            (n > 0).then(|| (w[n..].to_vec(), k[n..].to_vec()))
        })
        .collect();
    out.extend(assigned);
    out
}

/// Compares one line; `None` when the reader agrees with bash.
fn compare(
    line: &str,
    expect_unparsed: bool,
    argvs: &[Vec<String>],
    stderr: &str,
) -> Option<String> {
    let l = shell::read(line);
    let rejected = is_syntax_error(stderr);
    let mut problems = Vec::new();
    if rejected && !stderr.contains("command substitution:") && !l.is_unparsed() {
        problems.push("bash rejects the line, the reader does not call it unparsed".to_string());
    }
    if unparsed_by_design(&l, line, expect_unparsed) {
        return problems.first().map(|p| format!("{line:?}\n  {p}"));
    }
    if !rejected && l.is_unparsed() && !expect_unparsed {
        problems.push(format!("unparsed without cause: {:?}", l.unparsed_at));
    }
    let stopped = bash_stopped(line, stderr);
    let rejected = rejected && !stderr.contains("command substitution:");
    let other: Vec<&str> = stderr
        .lines()
        .filter(|m| !is_expected_message(m) && !is_syntax_error(m))
        .collect();
    if !rejected && !stopped && !other.is_empty() {
        problems.push(format!("bash complained: {other:?}"));
    }
    let segments: Vec<&shell::Segment> =
        l.segments.iter().filter(|s| !s.words.is_empty()).collect();
    problems.extend(argvs_no_segment_reads(argvs, &segments));
    // Every segment of exact words runs (the generator makes every command
    // run), unless bash rejected the line.
    if !rejected && !stopped {
        problems.extend(segments_never_run(argvs, &segments));
    }
    if problems.is_empty() {
        return None;
    }
    let segs: Vec<_> = l.segments.iter().map(|s| (&s.words, &s.known)).collect();
    Some(format!(
        "{line:?}\n  {}\n  reader: {segs:?}\n  bash:   {argvs:?}\n  bash stderr: {stderr:?}",
        problems.join("\n  ")
    ))
}

/// Is `line` (read as `l`) unparsed by design, so only checked for being
/// unparsed where bash rejects it?
fn unparsed_by_design(l: &shell::CommandLine<'_>, line: &str, expect_unparsed: bool) -> bool {
    // ANSI-C quoting (made by accident: `$` then a quote) changes words,
    // and a substitution in `$[…]` is found again at expansion without
    // skipping substitutions: both are unparsed by design, not read. So is
    // brace expansion, which bash finds with a quote tracking of its own
    // (a `"` in a backtick body or a `${…}` inside double quotes ends the
    // quoting there), and what the generator makes unparsed on purpose as
    // not read reliably (a backtick in `$((…))` text, literal single
    // quotes in `"${x:-'…'}"`). Arithmetic that evaluates a value (a
    // variable, a substitution's output) or a `${!…}` is unparsed by design
    // too: what it runs depends on values.
    let unreliable = expect_unparsed && l.unparsed.contains(&shell::Unparsed::SyntaxError);
    l.unparsed.contains(&shell::Unparsed::AnsiCQuote)
        || l.unparsed.contains(&shell::Unparsed::ArithmeticVariable)
        || l.unparsed.contains(&shell::Unparsed::BraceExpansion)
        || line.contains("$[")
        || unreliable
}

/// Did bash stop a command of `line` on purpose (so not every segment
/// runs)?
fn bash_stopped(line: &str, stderr: &str) -> bool {
    // An arithmetic error (the generated tail) stops its command; a
    // substitution that bash parses only when it expands it (in arithmetic,
    // a here-document) and cannot parse stops its command too.
    stderr.lines().any(is_expected_message)
        || stderr.contains("command substitution:")
        || stderr.contains("bad substitution")
        // `${__u?word}`: bash expands the word for its message, then stops
        // (the message may go down a `|&`).
        || line.contains("${__u?")
        || line.contains("${__u:?")
}

/// Every command bash ran is a segment of the reader: a matching of
/// bash's argvs to the segments that read them (a segment with unknown
/// words reads many argvs, so a first fit could take the one another argv
/// needs). The problems: each argv no segment reads.
fn argvs_no_segment_reads(argvs: &[Vec<String>], segments: &[&shell::Segment]) -> Vec<String> {
    let reads: Vec<Vec<usize>> = argvs
        .iter()
        .map(|argv| {
            (0..segments.len())
                .filter(|&k| {
                    readings(segments[k])
                        .iter()
                        .any(|(w, kn)| segment_matches(w, kn, argv))
                })
                .collect()
        })
        .collect();
    let (matched, _) = matching(&reads, segments.len());
    argvs
        .iter()
        .zip(&matched)
        .filter(|(_, m)| m.is_none())
        .map(|(argv, _)| format!("bash ran {argv:?}, which no segment reads"))
        .collect()
}

/// The problems: each segment of exact words that no argv bash ran
/// matches, one to one.
fn segments_never_run(argvs: &[Vec<String>], segments: &[&shell::Segment]) -> Vec<String> {
    let mut exact_segments = Vec::new();
    let runs: Vec<Vec<usize>> = segments
        .iter()
        .filter_map(|seg| {
            let readings = readings(seg);
            if readings.iter().any(|(w, _)| w.is_empty()) {
                // A bare `time`: no command.
                return None;
            }
            let exact: Vec<Vec<String>> = readings
                .into_iter()
                .filter(|(_, k)| k.iter().all(|k| !k.is_unknown()))
                .map(|(w, _)| w)
                .collect();
            if exact.is_empty() {
                return None;
            }
            exact_segments.push(&seg.words);
            Some(
                (0..argvs.len())
                    .filter(|&j| exact.contains(&argvs[j]))
                    .collect(),
            )
        })
        .collect();
    let (matched, _) = matching(&runs, argvs.len());
    exact_segments
        .iter()
        .zip(&matched)
        .filter(|(_, m)| m.is_none())
        .map(|(words, _)| format!("segment {words:?} never ran"))
        .collect()
}

/// Lines generated per run (besides the fixed ones).
const GENERATED: usize = 10_000;
/// Bash processes run at once.
const BATCHES: usize = 4;

/// What the generated lines must keep holding, each in five lines at
/// least (a cheap guard against a change that silently stops generating
/// one form).
const FORMS: &[&str] = &[
    "''",
    "\"\"",
    "\\\"",
    "\\\\",
    "\\$",
    "\\`",
    "\\\n",
    "\\ ",
    "\\;",
    "\\|",
    "\\&",
    "\\>",
    "é",
    ">>",
    ">|",
    "<>",
    "&>",
    "&>>",
    ">&",
    "<&",
    "2>",
    "<<<",
    "{fd}>",
    " #",
    "&&",
    "||",
    "|&",
    ";",
    "\n",
    "$(",
    "\"$(",
    "`",
    "\"x`",
    "$((",
    "$(( $(",
    "$[",
    "<(",
    "( ",
    "{ ",
    "time ",
    "time -p ",
    "time --",
    "time {",
    "(( $(",
    "'$(",
    "<<E",
    "<<-",
    "4<<",
    "0<<",
    "{hd}<<",
    "<<'",
    "<<\"",
    "<<\\",
    ") <<",
    "} <<",
    "(( '",
    "\\\"",
    "$\\\n",
    "&\\\n",
    "${__u-",
    "${__u:-",
    "${__e:-",
    "${__s+",
    "${__s:+",
    "${__e+",
    "${__a1=",
    "${__a1:=",
    "${__u?",
    "${__u:?",
    "${__s#",
    "${__s##",
    "${__s%",
    "${__s%%",
    "${__s^",
    "${__s,",
    "${__s/",
    "${__s//",
    "${__s/#",
    "${__s/%",
    "${__s:$(",
    "${__s:0:`",
    "${__s[$(",
    "${#__s}",
    "${!__r}",
    "${__s@Q}",
    "\"${__",
    ":-<(",
    ":->(",
    "#<(",
    ":-${__",
    ":-$(",
    ":-`",
    ":-'",
    ":-\"$(",
    ":-\"x`",
];

/// The fixed lines, then the generated ones, each with whether the reader
/// calls it unparsed on purpose.
fn cases() -> Vec<(String, bool)> {
    let mut rng = Rng(SEED);
    let mut cases: Vec<(String, bool)> = FIXED.iter().map(|(l, u)| (l.to_string(), *u)).collect();
    for _ in 0..GENERATED {
        let line = gen_line(&mut rng);
        cases.push((line.text, line.unparsed));
    }
    cases
}

#[test]
fn reader_reads_the_commands_bash_runs() {
    let Some(bash) = find_bash() else {
        println!("SKIPPED shell_vs_bash: no `bash` found");
        return;
    };
    let cases = cases();
    let lines: Vec<&str> = cases.iter().map(|(l, _)| l.as_str()).collect();
    // The generator keeps producing every form.
    for form in FORMS {
        let n = lines.iter().filter(|l| l.contains(form)).count();
        assert!(n >= 5, "only {n} generated lines hold {form:?}");
    }
    let started = Instant::now();
    let (argvs, errors) = run_bash_batches(&bash, &lines, BATCHES);
    let bash_time = started.elapsed();

    let mut failures = Vec::new();
    let mut commands = 0usize;
    let mut rejected = 0usize;
    for (i, (line, expect_unparsed)) in cases.iter().enumerate() {
        commands += argvs[i].len();
        rejected += usize::from(is_syntax_error(&errors[i]));
        if let Some(f) = compare(line, *expect_unparsed, &argvs[i], &errors[i]) {
            failures.push(format!("line {i}: {f}"));
        }
    }
    println!(
        "shell_vs_bash: {} lines ({} fixed), {commands} commands, {rejected} rejected by bash, \
         bash took {bash_time:?}",
        cases.len(),
        FIXED.len()
    );
    assert!(commands > 2 * cases.len(), "bash ran too few commands");
    assert!(
        rejected * 10 < cases.len(),
        "bash rejected {rejected} lines"
    );
    if !failures.is_empty() {
        if let Some(path) = std::env::var_os("PERMC_SHELL_VS_BASH_FAILURES") {
            let _ = fs::write(path, failures.join("\n\n"));
        }
        let shown: Vec<_> = failures.iter().take(20).cloned().collect();
        panic!(
            "{} of {} lines disagree with bash:\n{}",
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

/// SPEC §4.4 item 4 (round 3) against a real bash: in a sandbox folder
/// holding files an earlier segment could have created (`push`, `-rf`,
/// `-D`, `.git`…), every argv bash passes for a line of glob words must be
/// one the reader's reading of the words allows (a glob word: itself,
/// nothing, or a run of names each matching it), and each such word must
/// be read as a glob. Names that start with `-` are what make `rm -r? /`
/// or `git branch -v ?D` dangerous.
#[test]
fn glob_words_read_what_bash_expands() {
    let Some(bash) = find_bash() else {
        println!("SKIPPED glob_words_read_what_bash_expands: no `bash` found");
        return;
    };
    const NAMES: &[&str] = &[
        "push", "pull", "-rf", "-r", "-D", "--delete", "-delete", "publish", ".env", ".git",
        "a.log", "b.log", "x]y", "-exec", "..x", "日本",
    ];
    const GLOBS: &[&str] = &[
        "pu?h",
        "p*",
        "-r?",
        "?D",
        "-[r]f",
        "*.log",
        "[-]delete",
        "*",
        "?",
        "-*",
        ".?",
        "pu[s]h",
        "x*",
        "[!p]*",
        "-[e]xec",
        "*sh",
        "[[:alpha:]]*",
        "-?",
        "??",
        ".*",
        "src/*",
        "*/",
        "[a-c]*",
        "-[!r]",
        "日*",
        "x]*",
    ];
    let mut rng = Rng(SEED ^ 0x6106);
    let mut cases = Vec::new();
    for _ in 0..400 {
        let files: Vec<&str> = NAMES.iter().copied().filter(|_| rng.chance(45)).collect();
        let words: Vec<&str> = (0..1 + rng.below(3)).map(|_| rng.pick_str(GLOBS)).collect();
        cases.push((files, format!("cmd_g {}", words.join(" "))));
    }
    let dir = std::env::temp_dir().join(format!("permc-glob-vs-bash-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    let _guard = TempDir(dir.clone());
    let mut script = String::from(
        "exec 19>>records.bin\ncmd_g() { builtin printf '%s\\037' \"$@\" >&19; builtin printf '\\036' >&19; }\n",
    );
    for (i, (files, line)) in cases.iter().enumerate() {
        let quoted: Vec<String> = files.iter().map(|f| single_quote(f)).collect();
        script.push_str(&format!(
            "mkdir -p d{i}/src && : > d{i}/src/a.ts && cd d{i}\n"
        ));
        if !quoted.is_empty() {
            script.push_str(&format!("touch -- {}\n", quoted.join(" ")));
        }
        script.push_str(&format!("{line}\ncd ..\n"));
    }
    fs::write(dir.join("lines.sh"), &script).expect("script");
    let status = Command::new(&bash)
        .arg("lines.sh")
        .current_dir(&dir)
        .stdin(Stdio::null())
        .status()
        .expect("bash runs");
    assert!(status.success(), "bash failed");
    let records = fs::read(dir.join("records.bin")).expect("records");
    let records = String::from_utf8_lossy(&records);
    let argvs: Vec<Vec<String>> = records
        .split('\u{1e}')
        .filter(|r| !r.is_empty() || records.is_empty())
        .map(|r| {
            let mut f: Vec<String> = r.split('\u{1f}').map(str::to_string).collect();
            f.pop();
            f
        })
        .collect();
    assert_eq!(argvs.len(), cases.len(), "one record a line");
    let mut problems = Vec::new();
    for ((files, line), argv) in cases.iter().zip(&argvs) {
        let l = shell::read(line);
        let seg = &l.segments[0];
        if seg.known[1..].iter().any(|k| *k != shell::Known::Glob) {
            problems.push(format!("{line:?}: not read as globs: {:?}", seg.known));
        }
        let words: Vec<String> = seg.words[1..].iter().map(|w| w.to_string()).collect();
        if !segment_matches(&words, &seg.known[1..], argv) {
            problems.push(format!("{line:?} with {files:?}: bash passed {argv:?}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------
// SPEC §4.2 round 4: compound commands, read as bash runs them.

/// Compound-command lines generated per run.
const COMPOUND_GENERATED: usize = 600;

/// A simple command bash does not know (so `command_not_found_handle`
/// records its argv), with words of every quoting and, now and then, a
/// substitution that runs a command of its own.
fn compound_simple(rng: &mut Rng) -> String {
    let mut s = format!("cmd{}", rng.below(9));
    for _ in 0..rng.below(4) {
        s.push(' ');
        s.push_str(rng.pick_str(&[
            "x",
            "'y z'",
            "\"w\"",
            "--opt",
            "a=b",
            "e\\ f",
            "$(sub1 q)",
            "\"$(sub2 'r s')\"",
            "do",
            "done",
            "fi",
            "then",
            "esac",
        ]));
    }
    s
}

/// A list of one or two commands, each simple or (above `depth` 0) a
/// compound command of its own, every one of which bash runs once.
fn compound_list(rng: &mut Rng, depth: usize) -> String {
    let n = 1 + rng.below(2);
    let sep = rng.pick_str(&["; ", "\n", " && ", " | "]);
    (0..n)
        .map(|_| {
            if depth > 0 && rng.chance(35) {
                compound_runs_once(rng, depth - 1)
            } else {
                compound_simple(rng)
            }
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// A compound command whose every command bash runs exactly once.
fn compound_runs_once(rng: &mut Rng, depth: usize) -> String {
    let nl = |rng: &mut Rng| rng.pick_str(&["; ", "\n", ";\n", " ;  "]);
    let a = compound_list(rng, depth);
    let b = compound_list(rng, depth);
    let (n1, n2, n3) = (nl(rng), nl(rng), nl(rng));
    let w = rng.pick_str(&["one", "'t w'", "\"th\""]);
    let redirect = rng.pick_str(&["", "", " >/dev/null", " 2>/dev/null", " </dev/null"]);
    let body = match rng.below(9) {
        0 => format!("if {a}{n1}then {b}{n2}fi"),
        1 => format!("! {} || cmd9", compound_simple(rng)),
        2 => format!("for v in {w}{n1}do {a}{n2}done"),
        3 => {
            let c = compound_simple(rng);
            format!("for v in a 'b c'{n1}do {c} \"$v\"{n2}done")
        }
        4 => format!("case {w} in {w}) {a};; esac"),
        5 => format!("case x in (x) {a};&{n1}y|z) {b}{n2}esac"),
        6 => format!("case x in x) {a};;&{n1}*) {b};;{n3}esac"),
        7 => format!("arr=($(cmd7 {w}) x \"$(cmd8)\"){n1}{a}"),
        _ => format!("{{ {a}{n1}}}"),
    };
    format!("{body}{redirect}")
}

#[test]
fn compound_commands_read_as_bash_runs_them() {
    let Some(bash) = find_bash() else {
        println!("SKIPPED shell_vs_bash: no `bash` found");
        return;
    };
    let mut rng = Rng(SEED ^ 0xc0_4d);
    let mut lines: Vec<String> = [
        "if cmd1 a; then cmd2 b; fi",
        "for f in a b; do cmd3 \"$f\"; done",
        "case a in a) cmd4;& b) cmd5;; esac",
        "! cmd6 x || cmd7",
        "dirs=($(cmd8 -type d))",
        "for x in a; do cmd1 done; done",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for _ in 0..COMPOUND_GENERATED {
        lines.push(compound_runs_once(&mut rng, 2));
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let (argvs, stderrs) = run_bash_batches(&bash, &refs, BATCHES);
    let failures: Vec<String> = refs
        .iter()
        .enumerate()
        .filter_map(|(i, l)| compare(l, false, &argvs[i], &stderrs[i]))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} compound lines:\n{}",
        failures.len(),
        refs.len(),
        failures
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Every compound form bash accepts, function definitions, `select`,
/// `coproc`, `while`, `until` and the arithmetic `for` among them: a line
/// `bash -n` accepts is never a syntax error to the reader (SPEC §4.2 round
/// 4), and its reserved words are never words of a segment.
#[test]
fn compound_lines_bash_accepts_are_no_syntax_error() {
    let Some(bash) = find_bash() else {
        println!("SKIPPED shell_vs_bash: no `bash` found");
        return;
    };
    let mut rng = Rng(SEED ^ 0xacce);
    let mut lines: Vec<String> = [
        "f() { curl x; }; f",
        "function echo { curl x; } ; echo hi",
        "function g() ( cmd1 )",
        "f()\n{\n cmd1\n}",
        "for ((i=0;i<n;i++)); do echo $i; done",
        "for ((;;)) { cmd1; }",
        "dirs=($(find . -type d))",
        "a+=(x 'y z')",
        "declare -a a=(1 2)",
        "echo $(( `echo 1` + 2 ))",
        "select x in a b; do echo $x; done",
        "coproc cmd1",
        "coproc c { cmd1; }",
        "while cmd1; do cmd2; done",
        "until cmd1\ndo\ncmd2\ndone",
        "case a in a) echo x;& b) echo y;;& esac",
        "if a; then b; elif c; then d; else e; fi",
        "if true; then if true; then echo; fi fi",
        "for x in a; { cmd1; }",
        "for x do cmd1; done",
        "for x; do cmd1; done",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for _ in 0..200 {
        let a = compound_list(&mut rng, 1);
        let b = compound_list(&mut rng, 1);
        lines.push(match rng.below(7) {
            0 => format!("f() {{ {a}; }}; {b}"),
            1 => format!("function f {{ {a}\n}}"),
            2 => format!("while {a}; do {b}; done"),
            3 => format!("until {a}\ndo {b}\ndone"),
            4 => format!("select v in x y; do {a}; done"),
            5 => format!("for ((i=0; i<2; i++)); do {a}; done"),
            _ => compound_runs_once(&mut rng, 1),
        });
    }
    let mut failures = Vec::new();
    for line in &lines {
        let status = Command::new(&bash)
            .args(["--norc", "--noprofile", "-n", "-c", line])
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run bash -n");
        if !status.success() {
            continue;
        }
        let l = shell::read(line);
        if l.unparsed.contains(&shell::Unparsed::SyntaxError) {
            failures.push(format!("{line:?}: {:?}", l.unparsed_at));
        }
        for s in &l.segments {
            let first = s.words.first().map(|w| w.as_ref());
            if matches!(
                first,
                Some("if" | "then" | "elif" | "else" | "fi" | "for" | "while" | "until")
                    | Some("do" | "done" | "case" | "esac" | "function" | "select" | "coproc")
            ) && !line.contains(&format!("'{}'", first.unwrap_or_default()))
            {
                failures.push(format!(
                    "{line:?}: a reserved word read as a command: {:?}",
                    s.words
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
