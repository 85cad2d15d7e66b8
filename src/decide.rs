//! `permc decide` and `permc explain`.

use crate::engine::Decider;
use crate::error::CliError;
use std::io::{BufRead, Write};

// The request handling `permc decide`, `serve` and the bindings share
// lives in permc-runtime (one core, no copies).
pub use permc_runtime::answer::write_answer_line;
pub use permc_runtime::explain::explain_text;

/// Decides every line of `input` (JSON Lines), writing one answer a line.
pub fn stream(
    decider: &dyn Decider,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    flush_each: bool,
) -> Result<(), CliError> {
    let mut buf = Vec::new();
    let mut answer = Vec::new();
    loop {
        buf.clear();
        let n = input
            .read_until(b'\n', &mut buf)
            .map_err(CliError::Requests)?;
        if n == 0 {
            break;
        }
        let line = buf.trim_ascii();
        if line.is_empty() {
            continue;
        }
        answer.clear();
        write_answer_line(decider, line, &mut answer);
        let mut r = out.write_all(&answer);
        if flush_each {
            r = r.and_then(|()| out.flush());
        }
        if crate::out::sent(r)? == crate::out::Sent::Closed {
            return Ok(());
        }
    }
    crate::out::sent(out.flush()).map(|_| ())
}
