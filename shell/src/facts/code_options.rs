//! Options and scripts that make a program run code (SPEC §4.3 [round 3]:
//! "Runs are read; code is unparsed"): a program whose job is something
//! else (editing text, building, sorting, searching, testing) made to run
//! a command by an option or a script named on its command line. Each
//! option is one row of [`CODE_OPTIONS`]; the script readers whose text
//! permc reads to find a command (sed, awk, make's assignments, sqlite3)
//! and the programs that read commands from standard input (ed, ex) are
//! [`SCRIPTS`]. [`code_option_shaped`] answers for a run's verb and words; most
//! verbs are stopped by their shape before any compare.

use super::catalogue::code::{
    CodeOption, OptionKind, ScriptLanguage, Spell, AGENT_OFFLINE, ASSIGNMENT_OPERANDS,
    CODE_OPTIONS, MAKE_PROGRAMS, SCRIPT_LANGUAGES, SQLITE_CODE_OPTIONS, SQLITE_COMMAND_OPTIONS,
    SQLITE_VALUED_OPTIONS,
};
use super::catalogue::code::{
    AWK_FILE_OPTIONS, AWK_OPTIONS, AWK_PROGRAM_OPTIONS, SED_FILE_OPTIONS, SED_OPTIONS,
    SED_SCRIPT_OPTIONS,
};
use super::name_index::Rows;
use super::options::{self, Item};
use super::wrappers::short;
use crate::reader::AsStr;
use crate::reader::Known;
use std::borrow::Cow;

/// Programs whose script or operands permc reads for a command (sed, awk,
/// make, less, vim's `+CMD`, sqlite3), or that read commands from
/// standard input (ed, ex): the names of [`SCRIPT_LANGUAGES`](super::catalogue::code::SCRIPT_LANGUAGES), in order,
/// built from its rows.
pub(crate) const SCRIPTS: [&str; script_count()] = {
    let mut t = [""; script_count()];
    let (mut n, mut i) = (0, 0);
    while i < SCRIPT_LANGUAGES.len() {
        let mut j = 0;
        while j < SCRIPT_LANGUAGES[i].0.len() {
            t[n] = SCRIPT_LANGUAGES[i].0[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    t
};

/// The language of each of [`SCRIPTS`], in order.
const SCRIPT_LANGUAGE_OF: [ScriptLanguage; script_count()] = {
    let mut t = [ScriptLanguage::Stdin; script_count()];
    let (mut n, mut i) = (0, 0);
    while i < SCRIPT_LANGUAGES.len() {
        let mut j = 0;
        while j < SCRIPT_LANGUAGES[i].0.len() {
            t[n] = SCRIPT_LANGUAGES[i].1;
            n += 1;
            j += 1;
        }
        i += 1;
    }
    t
};

/// [`SCRIPTS`] by name: one probe, not a scan of every name.
const SCRIPT_INDEX: super::name_index::NameIndex = super::name_index::NameIndex::new(&SCRIPTS);

/// The position of `verb` in [`SCRIPTS`], if it is one.
fn script_at(verb: &str) -> Option<usize> {
    SCRIPT_INDEX.find(verb, |i| SCRIPTS[i])
}

/// How many names [`SCRIPT_LANGUAGES`](super::catalogue::code::SCRIPT_LANGUAGES) holds.
const fn script_count() -> usize {
    let (mut n, mut i) = (0, 0);
    while i < SCRIPT_LANGUAGES.len() {
        n += SCRIPT_LANGUAGES[i].0.len();
        i += 1;
    }
    n
}

impl CodeOption {
    /// The option as the documentation shows it.
    /// One word that spells the option with a value (for tests that
    /// attack every row).
    #[cfg(test)]
    pub(crate) fn example(&self) -> String {
        match self.spell {
            Spell::Short(c) => format!("-{c}x"),
            Spell::Long(n) | Spell::GnuLong(n) | Spell::Nopt(n) | Spell::LongUnless(n, _) => {
                format!("{n}=x")
            }
            Spell::Word(w) => format!("{w} x"),
            Spell::Prefix(p) => format!("{p}x"),
            Spell::Getopt(c, ..) => format!("-{c}x"),
        }
    }

    pub(crate) fn spelled(&self) -> String {
        match self.spell {
            Spell::Short(c) => format!("-{c}"),
            Spell::Long(n) | Spell::Word(n) => n.to_string(),
            Spell::LongUnless(n, builtin) => format!("{n} (not {})", builtin.join(", ")),
            Spell::GnuLong(n) | Spell::Nopt(n) => format!("{n} (or a prefix)"),
            Spell::Prefix(p) => format!("{p}…"),
            Spell::Getopt(c, _, "") => format!("-{c}"),
            Spell::Getopt(c, _, not) => format!("-{c} (not `-{c} {not}…`)"),
        }
    }
}

/// The shapes of every program [`code_option_shaped`] reads.
pub(super) const SHAPES: super::Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < CODE_OPTIONS.len() {
        let mut j = 0;
        while j < CODE_OPTIONS[i].programs.len() {
            super::mark_shape(&mut t, CODE_OPTIONS[i].programs[j]);
            j += 1;
        }
        i += 1;
    }
    let mut i = 0;
    while i < SCRIPTS.len() {
        super::mark_shape(&mut t, SCRIPTS[i]);
        i += 1;
    }
    t
};

/// Is `verb` one of the programs of [`CODE_OPTIONS`] or [`SCRIPTS`]
/// (by shape: may say yes for another)?
pub(crate) fn may_run_code(verb: &str) -> bool {
    super::has_shape(&SHAPES, verb)
}

/// Is `verb` a program with a code-running option or script (exactly)?
pub(crate) fn is_code_program(verb: &str) -> bool {
    may_run_code(verb) && (script_at(verb).is_some() || !program_rows(verb).is_empty())
}

/// Is `verb` a program that runs code or a command given as text: a
/// script reader, or a program with an [`OptionKind::Code`] row (not
/// only options that name a file of code: `pytest -c`, `gcc @F`)?
pub(crate) fn runs_code_text(verb: &str) -> bool {
    may_run_code(verb)
        && (script_at(verb).is_some() || !program_rows(verb).and(&CODE_TEXT_ROWS).is_empty())
}

/// The rows of [`CODE_OPTIONS`] of [`OptionKind::Code`].
const CODE_TEXT_ROWS: Rows = {
    let mut m = Rows::NONE;
    let mut i = 0;
    while i < CODE_OPTIONS.len() {
        if matches!(CODE_OPTIONS[i].kind, OptionKind::Code) {
            m = m.with(i);
        }
        i += 1;
    }
    m
};

/// Does `word` spell the option (`next`, the word after it, for a
/// value given apart)?
fn spells(word: &str, next: Option<&str>, spell: Spell) -> bool {
    // A prefix of `min` letters or more counts as the option.
    let long = |name: &str, min: Option<usize>| {
        let Some(rest) = word.strip_prefix("--") else {
            return false;
        };
        let n = rest.split_once('=').map_or(rest, |(n, _)| n);
        n == &name[2..] || min.is_some_and(|m| n.len() >= m && name[2..].starts_with(n))
    };
    let short = |c: char| {
        word.len() > 1 && word.starts_with('-') && !word.starts_with("--") && word[1..].contains(c)
    };
    match spell {
        Spell::Short(c) => short(c),
        Spell::Getopt(c, valued, not) => {
            if !short(c) {
                return false;
            }
            for (k, x) in word[1..].char_indices() {
                if x == c {
                    // Its value: the rest of the word, else the next word.
                    let rest = &word[1 + k + c.len_utf8()..];
                    let value = if rest.is_empty() {
                        next.unwrap_or("")
                    } else {
                        rest
                    };
                    return not.is_empty() || !value.starts_with(not);
                }
                if valued.contains(x) {
                    return false;
                }
            }
            false
        }
        Spell::Long(name) => long(name, None),
        Spell::LongUnless(name, builtin) => {
            long(name, None) && {
                // The value: after `=`, else the next word (cac reads both).
                let value = word.split_once('=').map_or(next.unwrap_or(""), |(_, v)| v);
                !builtin.contains(&value)
            }
        }
        Spell::GnuLong(name) => long(name, Some(1)),
        Spell::Nopt(name) => long(name, Some(2)),
        Spell::Word(w) => word == w || word.strip_prefix(w).is_some_and(|r| r.starts_with('=')),
        Spell::Prefix(p) => word.starts_with(p),
    }
}

/// `verb`'s rows in [`CODE_OPTIONS`].
fn program_rows(verb: &str) -> Rows {
    PROGRAM_INDEX.rows(verb)
}

/// [`CODE_OPTIONS`]' rows by program, built from the rows: one probe (a
/// binary search over the sorted programs compared up to seven names).
const PROGRAM_INDEX: super::name_index::RowIndex = {
    let mut x = super::name_index::RowIndex::new();
    let mut i = 0;
    while i < CODE_OPTIONS.len() {
        x = x.add_all(CODE_OPTIONS[i].programs, i);
        i += 1;
    }
    x.build()
};

/// The reason `verb args` runs code permc does not read (SPEC §4.3), if
/// it does: a code-running option, a script that runs or writes, a make
/// variable naming a program, commands on standard input.
/// Only for a verb that passed its shapes ([`may_run_code`], or the run's
/// `GATE_CODE`).
/// `may_spell`: does any of `args` start with `-` or `@` (a response
/// file), or hold a `=` (cmake's `-D NAME=VALUE` given apart)? Every
/// spelling does; a run of plain words (`pnpm test`) has none of them.
/// The caller reads the words once for this and its other gates.
pub(crate) fn code_option_shaped(
    verb: &str,
    args: &[Cow<'_, str>],
    may_spell: bool,
) -> Option<String> {
    if !may_spell {
        return script(verb, args);
    }
    // The program's rows, bit by bit (most programs have one to four).
    for row in program_rows(verb).iter() {
        let r = &CODE_OPTIONS[row];
        // Options stop at `--` (a file named `-f` after it is a file).
        let before_dashes = args.iter().take_while(|a| *a != "--").count();
        if let Some(a) = (0..before_dashes)
            .find(|&i| spells(&args[i], args.get(i + 1).map(AsStr::as_str), r.spell))
            .map(|i| &args[i])
        {
            return Some(format!(
                "`{verb} {}` makes `{verb}` run a command or code permc does not read",
                short(a)
            ));
        }
    }
    script(verb, args)
}

/// The script readers of [`SCRIPTS`].
fn script(verb: &str, args: &[Cow<'_, str>]) -> Option<String> {
    let why = |what: &str| Some(format!("`{verb}` {what}, which permc does not read"));
    match SCRIPT_LANGUAGE_OF[script_at(verb)?] {
        ScriptLanguage::Sed => {
            let s = sed_scripts(args).into_iter().find(|s| sed_runs(s))?;
            Some(format!(
                "the `{verb}` script `{}` runs a command or writes a file (`e`, `w`, `W`, or the `e`/`w` flag of `s`), which permc does not read",
                short(s)
            ))
        }
        ScriptLanguage::Awk => {
            let p = awk_programs(args).into_iter().find(|p| awk_runs(p))?;
            Some(format!(
                "the `{verb}` program `{}` runs a command or writes a file (`system`, `|`, `>`), which permc does not read",
                short(p)
            ))
        }
        ScriptLanguage::Make => {
            let a = args
                .iter()
                .take_while(|a| *a != "--")
                .find(|a| make_assignment_runs(a))?;
            Some(format!(
                "`{verb} {}` sets a variable make runs as a command, which permc does not read",
                short(a)
            ))
        }
        ScriptLanguage::Less if args.iter().any(|a| a.starts_with('+') && a.contains(['!', '|'])) => {
            why("runs a shell command given by `+`")
        }
        ScriptLanguage::Vim
            if args.iter().any(|a| {
                a.len() > 1 && a.starts_with('+') && !a[1..].bytes().all(|b| b.is_ascii_digit())
            }) =>
        {
            why("runs the editor command given by `+CMD`")
        }
        // ed and ex read their commands (`!` runs a shell command) from
        // standard input, whatever their operands.
        ScriptLanguage::Stdin => why("reads commands from standard input (`!` runs a shell command)"),
        ScriptLanguage::Sqlite => sqlite(args).then(|| {
            format!("`{verb}` runs dot-commands (`.shell`, `.system`) or reads them from standard input, which permc does not read")
        }),
        ScriptLanguage::Psql => psql(args).then(|| {
            format!("`{verb}` runs meta-commands that can run a shell command (`\\!`, `\\o |CMD`, a script file) or reads them from standard input, which permc does not read")
        }),
        ScriptLanguage::Agent => {
            let offline = matches!(args, [a] if AGENT_OFFLINE.contains(&a.as_str()));
            (!offline).then(|| {
                format!("`{verb}` is a coding agent: it runs the commands it chooses, which permc does not read")
            })
        }
        ScriptLanguage::Mysql => mysql(args).then(|| {
            format!("`{verb}` runs client commands that can run a shell command (`system`, `\\!`, `pager`) or reads them from standard input, which permc does not read")
        }),
        _ => None,
    }
}

/// Is `word` a long option abbreviated (`--ex` for `--expression`)? Only
/// getopt_long takes one: BSD's sed and awk, mawk and busybox's take it
/// for an error or an operand, so a script given so leaves the first
/// operand read as a script too (fail closed).
fn abbreviated(word: &str, name: &str) -> bool {
    word.strip_prefix("--")
        .is_some_and(|long| long.split_once('=').map_or(long, |(n, _)| n) != name)
}

/// sed's scripts: each `-e`/`--expression` value, else (or after only an
/// abbreviated `--expression`) the first operand; a `-f`/`--file` value is
/// read as one too (its text is all permc has of that script, and the
/// scanner this replaced read it so).
fn sed_scripts<'w>(args: &'w [Cow<'_, str>]) -> Vec<&'w str> {
    sed_scripts_at(args).into_iter().map(|(_, s)| s).collect()
}

/// [`sed_scripts`] with the index of the word each is in (the option's,
/// when attached: `-e'p'`).
fn sed_scripts_at<'w>(args: &'w [Cow<'_, str>]) -> Vec<(usize, &'w str)> {
    let mut out = Vec::new();
    let mut given = false;
    for item in options::read(SED_OPTIONS, args, 0) {
        match item {
            Item::Valued {
                name, value, index, ..
            } if SED_SCRIPT_OPTIONS.contains(&name) => {
                given |= !abbreviated(&args[index], name);
                out.extend(value_at(value, index, args));
            }
            Item::Valued {
                name, value, index, ..
            } if SED_FILE_OPTIONS.contains(&name) => {
                out.extend(value_at(value, index, args));
            }
            Item::Operand { index } if !given => {
                out.push((index, args[index].as_str()));
                given = true;
            }
            _ => {}
        }
    }
    out
}

/// An option's value with the index of the word it is in.
fn value_at<'w>(
    value: options::Value<'w>,
    option: usize,
    args: &'w [Cow<'_, str>],
) -> Option<(usize, &'w str)> {
    let at = match value {
        options::Value::Next(i) => i,
        _ => option,
    };
    value.text(args).map(|t| (at, t))
}

/// The words of a sed or awk run that hold its scripts or programs
/// (indices into `args`), for [`unknown_where_code_may_be`]: a script is
/// code where its row types it `text` (SPEC §4.5 item 4: not a place).
fn script_words(verb: &str, args: &[Cow<'_, str>]) -> Vec<usize> {
    match script_at(verb).map(|i| SCRIPT_LANGUAGE_OF[i]) {
        Some(ScriptLanguage::Sed) => sed_scripts_at(args).into_iter().map(|(i, _)| i).collect(),
        Some(ScriptLanguage::Awk) => awk_programs_at(args).into_iter().map(|(i, _)| i).collect(),
        _ => Vec::new(),
    }
}

/// The files a sed or awk run's scripts read: sed's `r` and `R` (`sed
/// '1r /etc/passwd' f`) and awk's `getline < FILE`, where an expression
/// that is no string literal, or a program that sets `ARGV` (the files
/// awk reads next), is `None`. Places for the scope (SPEC §4.5 item 4);
/// none for any other program.
pub(crate) fn script_read_files<'w>(verb: &str, args: &'w [Cow<'_, str>]) -> Vec<Option<&'w str>> {
    match script_at(verb).map(|i| SCRIPT_LANGUAGE_OF[i]) {
        Some(ScriptLanguage::Sed) => {
            let mut out = Vec::new();
            for s in sed_scripts(args) {
                sed_scan(s, &mut out);
            }
            out.into_iter().map(Some).collect()
        }
        Some(ScriptLanguage::Awk) => awk_read_files(args),
        _ => Vec::new(),
    }
}

/// The files awk's `getline … < FILE` reads in its programs: a string
/// literal, or `None` for any other expression.
fn awk_read_files<'w>(args: &'w [Cow<'_, str>]) -> Vec<Option<&'w str>> {
    let mut out = Vec::new();
    for p in awk_programs(args) {
        // `ARGV[1]="/etc/passwd"`: the operands awk reads are the
        // program's to change.
        if p.contains("ARGV") {
            out.push(None);
        }
        let mut rest = p;
        while let Some(at) = rest.find("getline") {
            rest = &rest[at + "getline".len()..];
            // An optional variable (`getline line`, `getline a[i]`), then
            // `<` and the file's expression.
            let after = rest.trim_start_matches(|c: char| {
                c.is_ascii_alphanumeric() || matches!(c, '_' | '[' | ']' | '$' | ' ' | '\t')
            });
            let Some(target) = after.strip_prefix('<') else {
                continue;
            };
            let target = target.trim_start_matches([' ', '\t']);
            let literal = target
                .strip_prefix('"')
                .and_then(|t| t.split_once('"'))
                .map(|(name, _)| name)
                .filter(|name| !name.contains('\\'));
            out.push(literal);
        }
    }
    out
}

/// Does a sed script run a command or write a file: an `e`, `w` or `W`
/// command, or `s` with the `e` or `w` flag? Read as GNU sed reads it;
/// what it cannot read counts (fail closed).
fn sed_runs(script: &str) -> bool {
    sed_scan(script, &mut Vec::new())
}

/// [`sed_runs`], noting the files `r` and `R` read into `reads`.
fn sed_scan<'s>(script: &'s str, reads: &mut Vec<&'s str>) -> bool {
    let b = script.as_bytes();
    let mut i = 0;
    // Skips a delimited part (`/re/`, `s|a|b|`) from `i` (at the delimiter)
    // and returns the index after its closing delimiter.
    let delimited = |mut i: usize, d: u8| -> Option<usize> {
        i += 1;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                c if c == d => return Some(i + 1),
                b'\n' if d != b'\n' => return None,
                _ => i += 1,
            }
        }
        None
    };
    let to_eol = |i: usize| {
        b[i..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |p| i + p)
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' | b';' | b'{' | b'}' | b'!' | b',' | b'$' | b'~' | b'+' => i += 1,
            b'0'..=b'9' => i += 1,
            b'/' => match delimited(i, b'/') {
                Some(j) => i = j,
                None => return true,
            },
            b'\\' => match b.get(i + 1).and_then(|&d| delimited(i + 1, d)) {
                Some(j) => i = j,
                None => return true,
            },
            b':' | b'b' | b't' | b'T' => {
                // A label (GNU sed 4.9): after blanks, up to `;`, a blank or
                // the line's end; the next command follows (`:a;e CMD`
                // and `:a e CMD` run CMD).
                i += 1;
                while b.get(i).is_some_and(|&x| x == b' ' || x == b'\t') {
                    i += 1;
                }
                while b
                    .get(i)
                    .is_some_and(|&x| !matches!(x, b';' | b' ' | b'\t' | b'\n'))
                {
                    i += 1;
                }
            }
            b'r' | b'R' => {
                // A file read: its name is the rest of the line, after
                // blanks (`;` included, as GNU sed reads it).
                let end = to_eol(i);
                let name = script[i + 1..end].trim_start_matches([' ', '\t']);
                if !name.is_empty() {
                    reads.push(name);
                }
                i = end;
            }
            b'#' | b'a' | b'i' | b'c' => {
                // Text or a comment: to the end of the line.
                i = to_eol(i);
            }
            b's' | b'y' => {
                let Some(&d) = b.get(i + 1) else { return true };
                if d == b'\n' || d == b'\\' {
                    return true;
                }
                let Some(j) = delimited(i + 1, d) else {
                    return true;
                };
                let Some(j) = delimited(j - 1, d) else {
                    return true;
                };
                i = j;
                if c == b's' {
                    while i < b.len() && !matches!(b[i], b';' | b'\n' | b'}' | b' ') {
                        if matches!(b[i], b'e' | b'w' | b'W') {
                            return true;
                        }
                        i += 1;
                    }
                }
            }
            b'p' | b'P' | b'd' | b'D' | b'n' | b'N' | b'g' | b'G' | b'h' | b'H' | b'x' | b'='
            | b'l' | b'L' | b'q' | b'Q' | b'z' | b'F' => i += 1,
            // `e`, `w`, `W`, and anything sed would not read as above.
            _ => return true,
        }
    }
    false
}

/// awk's programs: each `-e`/`--source` value, else (or after only an
/// abbreviated `--source`) the first operand; the
/// value of an option that names a program file (`-f`, `-E`, `-i`, `-l`)
/// is read as one too (its text is all permc has of it, and the scanner
/// this replaced read it so).
fn awk_programs<'w>(args: &'w [Cow<'_, str>]) -> Vec<&'w str> {
    awk_programs_at(args).into_iter().map(|(_, p)| p).collect()
}

/// [`awk_programs`] with the index of the word each is in.
fn awk_programs_at<'w>(args: &'w [Cow<'_, str>]) -> Vec<(usize, &'w str)> {
    let mut out = Vec::new();
    let mut given = false;
    for item in options::read(AWK_OPTIONS, args, 0) {
        match item {
            Item::Valued {
                name, value, index, ..
            } => {
                if AWK_PROGRAM_OPTIONS.contains(&name) {
                    given |= !abbreviated(&args[index], name);
                    out.extend(value_at(value, index, args));
                } else if AWK_FILE_OPTIONS.contains(&name) {
                    out.extend(value_at(value, index, args));
                }
            }
            Item::Operand { index } if !given => {
                out.push((index, args[index].as_str()));
                given = true;
            }
            _ => {}
        }
    }
    out
}

/// Does an awk program run a command or write a file: `system`, a pipe
/// (`print | "cmd"`, `"cmd" | getline`), an output redirection after
/// `print`/`printf` (`>`, `>>`), or gawk's `@load`/`@include`? String
/// literals are read past; a `|` in a regular expression counts (fail
/// closed).
fn awk_runs(program: &str) -> bool {
    // The program without its string literals.
    let mut text = String::with_capacity(program.len());
    let mut chars = program.chars();
    while let Some(c) = chars.next() {
        if c == '"' {
            text.push_str("\"\"");
            while let Some(d) = chars.next() {
                match d {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break,
                    _ => {}
                }
            }
        } else {
            text.push(c);
        }
    }
    if text.contains("system") || text.contains('@') {
        return true;
    }
    let b = text.as_bytes();
    if (0..b.len())
        .any(|i| b[i] == b'|' && b.get(i + 1) != Some(&b'|') && (i == 0 || b[i - 1] != b'|'))
    {
        return true;
    }
    // `>` after `print`/`printf` in the same statement is a redirection.
    text.split([';', '{', '}', '\n'])
        .any(|stmt| stmt.find("print").is_some_and(|p| stmt[p..].contains('>')))
}

/// Does a make operand assign a variable make runs as a command (a
/// program variable, `SHELL`), or a value with a blank or a shell
/// metacharacter, or by `!=` (a shell command's output)? `DESTDIR=build`
/// does not.
fn make_assignment_runs(a: &str) -> bool {
    if a.starts_with('-') {
        return false;
    }
    let Some(eq) = a.find('=') else { return false };
    let name = a[..eq].trim_end_matches([':', '+', '?', '!']);
    if a[..eq].ends_with('!') {
        return true;
    }
    let value = &a[eq + 1..];
    MAKE_PROGRAMS.contains(&name)
        || name.ends_with("CMD")
        || name.ends_with("COMMAND")
        || value.bytes().any(|c| {
            matches!(
                c,
                b' ' | b'\t'
                    | b'\n'
                    | b'|'
                    | b'&'
                    | b';'
                    | b'<'
                    | b'>'
                    | b'('
                    | b')'
                    | b'$'
                    | b'`'
                    | b'\\'
                    | b'"'
                    | b'\''
                    | b'*'
                    | b'?'
                    | b'['
                    | b'#'
                    | b'~'
            )
        })
}

/// Does sqlite3 run something permc does not read: commands from standard
/// input (no SQL operand), `-cmd`/`-init`, a dot-command or the `edit()`
/// function (which runs an editor) in its SQL?
fn sqlite(args: &[Cow<'_, str>]) -> bool {
    let mut operands = Vec::new();
    // A command given by duckdb's `-c`/`-s`: read, not standard input.
    let mut given = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let o = a.trim_start_matches('-');
        if a.starts_with('-') && SQLITE_CODE_OPTIONS.contains(&o) {
            return true;
        }
        if a.starts_with('-') && SQLITE_COMMAND_OPTIONS.contains(&o) {
            match args.get(i) {
                Some(c) if !dot_commands(c) => (i, given) = (i + 1, true),
                _ => return true,
            }
            continue;
        }
        if a.starts_with('-') && SQLITE_VALUED_OPTIONS.contains(&o) {
            i += 1;
            continue;
        }
        if !a.starts_with('-') {
            operands.push(a.as_str());
        }
    }
    let Some(sql) = operands.get(1) else {
        return !given
            && !args
                .iter()
                .any(|a| a == "-version" || a == "--version" || a == "-help" || a == "--help");
    };
    dot_commands(sql)
}

/// Does sqlite3's (or duckdb's) SQL text hold a dot-command (`.shell`,
/// `.system`, any: fail closed) or `edit(` (which runs an editor)?
fn dot_commands(sql: &str) -> bool {
    sql.contains("edit(")
        || sql
            .split([';', '\n'])
            .any(|s| s.trim_start().starts_with('.'))
}

/// Does psql run a shell command or read its commands from somewhere
/// permc does not see? Any word (an option's value or not: fail closed)
/// with `\!`, a `\` beside a `|` (`\o |CMD`, `\g |CMD`), `PROGRAM`
/// (`COPY … FROM PROGRAM`) or a leading `|` (`-o '|CMD'`); a script file
/// (`-f`, `--file`, or `f` in a cluster); or no `-c` at all (it reads
/// standard input), unless it only lists or prints its version or help.
fn psql(args: &[Cow<'_, str>]) -> bool {
    let cluster = |a: &str| a.starts_with('-') && !a.starts_with("--");
    let runs = args.iter().any(|a| {
        a.contains("\\!")
            || (a.contains('\\') && a.contains('|'))
            || a.starts_with('|')
            || a.to_ascii_lowercase().contains("program")
            || a.starts_with("--file")
            || (cluster(a) && a.contains('f'))
    });
    let commands = args
        .iter()
        .any(|a| a.starts_with("--command") || (cluster(a) && a.contains('c')));
    let only_lists = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-l" | "--list" | "-V" | "--version" | "-?" | "--help"
        )
    });
    runs || !(commands || only_lists)
}

/// Does the mysql client run a shell command or read its commands from
/// standard input? Any word with a `\`, `system` or `pager` (any case:
/// fail closed), or no `-e`/`--execute` at all, unless it only prints its
/// version or help.
fn mysql(args: &[Cow<'_, str>]) -> bool {
    let runs = args.iter().any(|a| {
        let l = a.to_ascii_lowercase();
        a.contains('\\') || l.contains("system") || l.contains("pager")
    });
    let commands = args.iter().any(|a| {
        a.starts_with("--execute")
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('e'))
    });
    let only_prints = args
        .iter()
        .any(|a| matches!(a.as_str(), "-V" | "--version" | "-?" | "--help"));
    runs || !(commands || only_prints)
}

/// Is a run of a program with code-running forms given an unknown word
/// before any `--` (SPEC §4.4 item 3 [round 3]): `make $T`, `sed $S f`,
/// `cargo test $ARGS` — each may be one of its forms. A word after `--`
/// is an operand (`cargo run -- $X`).
pub(crate) fn unknown_where_code_may_be(words: &[Cow<'_, str>], known: &[Known]) -> bool {
    let k = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    let Some(verb) = words.first() else {
        return false;
    };
    if k(0) != Known::Exact || !is_code_program(verb) {
        return false;
    }
    // The first operand: a script reader's script (`sed * f` may make a
    // file named `e curl x` the script).
    let first_operand = (1..words.len()).find(|&i| !words[i].starts_with('-'));
    // A word a verified row places as text (a value of `sort -k`: SPEC
    // §4.5 item 2, a value position takes that position's kind) is no
    // form of the program's: read only once an unknown word is met.
    // A sed or awk script the row types `text` is still code here.
    let mut text = None;
    let mut is_text = |i: usize| {
        let (text, scripts) = text.get_or_insert_with(|| {
            let scripts = script_words(verb, &words[1..]);
            (super::described::text_words(words, known), scripts)
        });
        !scripts.contains(&(i - 1))
            && text
                .as_ref()
                .is_some_and(|t: &Vec<bool>| t.get(i).copied().unwrap_or(false))
    };
    (1..words.len())
        .take_while(|&i| k(i).is_unknown() || words[i] != "--")
        .any(|i| match k(i) {
            Known::Exact => false,
            _ if is_text(i) => false,
            Known::OneToken | Known::AnyTokens => true,
            // A glob may expand to an option, to a make assignment (a
            // name in this folder holding `=`), or to a script (SPEC §4.4
            // item 4).
            Known::Glob => {
                let w = &words[i];
                super::glob::glob_may_start(w, "-")
                    || (!w.contains('/')
                        && (ASSIGNMENT_OPERANDS.contains(&verb.as_str())
                            || (SCRIPTS.contains(&verb.as_str()) && Some(i) == first_operand)))
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_rows_are_every_row_of_the_program() {
        for (i, r) in CODE_OPTIONS.iter().enumerate() {
            for p in r.programs {
                assert!(program_rows(p).has(i), "{p} row {i}");
            }
        }
        for p in CODE_OPTIONS.iter().flat_map(|r| r.programs) {
            let rows = CODE_OPTIONS
                .iter()
                .enumerate()
                .filter(|(_, r)| r.programs.contains(p));
            assert_eq!(
                program_rows(p),
                rows.fold(Rows::NONE, |m, (i, _)| m.with(i)),
                "{p}"
            );
        }
        assert!(program_rows("pnpm").and(&program_rows("cargo")).is_empty());
        assert!(program_rows("ls").is_empty());
    }
}
