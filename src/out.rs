//! Writing to standard output (issue 12, point 2): a failed write is an
//! error, never a panic and never a silent exit 0.
//!
//! - A closed pipe (`permc tokens ls | true`, `permc decide … | head -1`):
//!   the reader wants no more; the program ends quietly, with the status it
//!   would have had (as `grep` or `ruff` do).
//! - Any other failure (`> /dev/full`, a full disk): one line on stderr,
//!   exit 2.

use crate::error::CliError;
use std::io::{self, Write};

/// What became of a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// Written.
    Written,
    /// The reader closed the pipe: write no more.
    Closed,
}

/// A write error that ends the command (exit 2).
pub fn write_error(e: io::Error) -> CliError {
    CliError::Output(e)
}

/// Sorts the result of a write: a closed pipe is [`Sent::Closed`], any
/// other failure a [`CliError::Output`].
pub fn sent(r: io::Result<()>) -> Result<Sent, CliError> {
    match r {
        Ok(()) => Ok(Sent::Written),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(Sent::Closed),
        Err(e) => Err(write_error(e)),
    }
}

/// Writes `bytes` to `out` and flushes it.
pub fn write_to(out: &mut dyn Write, bytes: &[u8]) -> Result<Sent, CliError> {
    sent(out.write_all(bytes).and_then(|()| out.flush()))
}

/// Writes all of `text` to standard output and flushes it.
pub fn print(text: &str) -> Result<Sent, CliError> {
    write_to(&mut io::stdout().lock(), text.as_bytes())
}

/// [`print`] with a newline.
pub fn println(text: &str) -> Result<Sent, CliError> {
    let mut s = String::with_capacity(text.len() + 1);
    s.push_str(text);
    s.push('\n');
    print(&s)
}

/// Text for people, with control characters (ESC sequences, `\r`…) and
/// bidirectional overrides from rule files or requests written as escapes
/// (SPEC: human output; issue 33).
pub fn printable(text: String) -> String {
    match permc_grammar::printable::escape(&text) {
        std::borrow::Cow::Owned(escaped) => escaped,
        std::borrow::Cow::Borrowed(_) => text,
    }
}

/// Whether text for people on standard output is coloured when the user
/// did not say (`--color auto`): `NO_COLOR` set (non-empty) turns it off;
/// else `FORCE_COLOR` or `CLICOLOR_FORCE` set to anything but `0` (or
/// empty) turns it on even into a pipe (CI logs); else only on a terminal.
pub fn auto_color() -> bool {
    use std::io::IsTerminal;
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    let forced = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    if set("NO_COLOR") {
        return false;
    }
    forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") || std::io::stdout().is_terminal()
}
