//! Programs that read commands from standard input when the line feeds it
//! (SPEC §4.2 round 4, "What reads the body decides the rest"): `echo
//! ':!curl x|sh' | vim f` runs what vim reads as keystrokes. Where standard
//! input comes from is read off the segment ([`fed`]); which programs read
//! commands from it, in which modes, is the catalogue's
//! [`STDIN_COMMAND_READERS`].

use super::catalogue::code::{StdinCommandReader, STDIN_COMMAND_READERS};
use super::wrappers::redirects_stdin;
use crate::reader::{Known, Segment};
use std::borrow::Cow;

/// Where the line feeds a segment's standard input from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fed {
    /// The output of the command before it in a pipeline (`|`, `|&`).
    Pipe,
    /// A here-document (`<<`, `<<-`).
    HereDoc,
    /// A here-string (`<<<`).
    HereString,
    /// A file or a descriptor (`<`, `0<`, `<>`, `<&N`), the segment's own
    /// or an enclosing compound command's (`done < f`).
    Redirect,
}

impl Fed {
    fn describe(self) -> &'static str {
        match self {
            Fed::Pipe => "a pipe from the command before it",
            Fed::HereDoc => "a here-document",
            Fed::HereString => "a here-string",
            Fed::Redirect => "a redirection (`<`)",
        }
    }
}

/// Where a segment's standard input comes from, if the line feeds it: a
/// redirection of fd 0 other than `< /dev/null` and `<&-` (which feed
/// nothing), else a pipe. Of several redirections any one counts (fail
/// closed: an enclosing command's and the segment's own stand together).
pub(crate) fn fed(seg: &Segment<'_>) -> Option<Fed> {
    let mut redirected = false;
    let mut from = None;
    for r in seg.redirects.iter().filter(|r| redirects_stdin(&r.op)) {
        redirected = true;
        let op = r.op.trim_start_matches(|c: char| c.is_ascii_digit());
        let exact = r.known == Known::Exact;
        let nothing = exact
            && ((matches!(op, "<" | "<>") && r.target == "/dev/null")
                || (op == "<&" && r.target == "-"));
        if nothing {
            continue;
        }
        from = from.or(Some(if op == "<<<" {
            Fed::HereString
        } else if op.starts_with("<<") {
            Fed::HereDoc
        } else {
            Fed::Redirect
        }));
    }
    from.or((seg.piped && !redirected).then_some(Fed::Pipe))
}

/// Why the line is unparsed when `verb args` reads commands from a
/// standard input the line feeds (`fed`), if it does.
pub(crate) fn reads_commands(verb: &str, args: &[Cow<'_, str>], fed: Fed) -> Option<String> {
    let row = STDIN_COMMAND_READERS
        .iter()
        .find(|r| r.programs.contains(&verb))?;
    if !reads_stdin(row, args) {
        return None;
    }
    Some(format!(
        "`{verb}` reads {} from standard input, here {}: permc does not read them",
        row.reads,
        fed.describe()
    ))
}

/// Does the program of `row`, given `args`, read commands from standard
/// input (no word of `not_with`, no commands operand)?
fn reads_stdin(row: &StdinCommandReader, args: &[Cow<'_, str>]) -> bool {
    let before = args.iter().take_while(|a| *a != "--");
    let spelled = |a: &str, o: &str| {
        a == o
            || (o.starts_with("--") && a.strip_prefix(o).is_some_and(|v| v.starts_with('=')))
            || (o.len() == 2 && !o.starts_with("--") && a.starts_with(o))
    };
    if before
        .clone()
        .any(|a| row.not_with.iter().any(|o| spelled(a, o)))
    {
        return false;
    }
    let Some(n) = row.operand else {
        return true;
    };
    let mut operands = 0;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a == "--" {
            operands += args.len() - i;
            break;
        }
        match a.strip_prefix('-') {
            Some(o) if !o.is_empty() => {
                let name = o.trim_start_matches('-');
                if !name.contains('=') && row.valued.contains(&name) {
                    i += 1;
                }
            }
            _ => operands += 1,
        }
    }
    operands <= n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::read;

    fn words(s: &str) -> Vec<Cow<'_, str>> {
        s.split(' ').map(Cow::Borrowed).collect()
    }

    #[test]
    fn where_standard_input_comes_from() {
        let at = |line: &str, i: usize| fed(&read(line).segments[i]);
        assert_eq!(at("echo x | vim f", 1), Some(Fed::Pipe));
        assert_eq!(at("echo x |& vim f", 1), Some(Fed::Pipe));
        assert_eq!(at("echo x | vim f", 0), None);
        assert_eq!(at("vim f", 0), None);
        assert_eq!(at("vim f < x", 0), Some(Fed::Redirect));
        assert_eq!(at("vim f 0< x", 0), Some(Fed::Redirect));
        assert_eq!(at("vim f 2< x", 0), None);
        assert_eq!(at("vim f < /dev/null", 0), None);
        assert_eq!(at("vim f <&-", 0), None);
        assert_eq!(at("echo x | vim f < /dev/null", 1), None);
        assert_eq!(at("vim f <<< x", 0), Some(Fed::HereString));
        assert_eq!(at("vim f <<'E'\nx\nE", 0), Some(Fed::HereDoc));
        assert_eq!(at("{ vim f; } < x", 0), Some(Fed::Redirect));
        assert_eq!(at("while true; do vim f; done < x", 1), Some(Fed::Redirect));
        assert_eq!(at("echo x | { true; vim f; }", 2), Some(Fed::Pipe));
        assert_eq!(
            at("echo x | while true; do vim f; done", 2),
            Some(Fed::Pipe)
        );
        assert_eq!(at("echo $(echo x | vim f)", 2), Some(Fed::Pipe));
        assert_eq!(at("echo x |\nvim f", 1), Some(Fed::Pipe));
        assert_eq!(at("echo x || vim f", 1), None);
        assert_eq!(at("echo x; vim f", 1), None);
        assert_eq!(at("echo x | cat; vim f", 2), None);
    }

    #[test]
    fn which_modes_read_commands() {
        let reads =
            |verb: &str, args: &str| reads_commands(verb, &words(args), Fed::Pipe).is_some();
        assert!(reads("vim", "f"));
        assert!(reads("vim", "-es f"));
        assert!(!reads("vim", "--version"));
        assert!(reads("sqlite3", "db"));
        assert!(reads("sqlite3", "-cmd x db"));
        assert!(!reads("sqlite3", "db select"));
        assert!(!reads("sqlite3", "-separator , db select"));
        assert!(reads("sqlite3", "-separator , db"));
        assert!(!reads("psql", "-c select"));
        assert!(reads("psql", "db"));
        assert!(!reads("mysql", "-eselect"));
        assert!(!reads("mysql", "--execute=select"));
        assert!(!reads("cat", ""));
        let why = reads_commands("vim", &words("f"), Fed::HereString).unwrap_or_default();
        assert!(
            why.contains("`vim`") && why.contains("here-string"),
            "{why}"
        );
    }
}
