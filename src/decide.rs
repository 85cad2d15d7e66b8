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

/// `permc explain`'s text in color (`--color`): the headings bold, the
/// decision's policy as a review reads it (deny red, require_approval
/// yellow, auto_approve green), the engines' disagreement red. Applied to
/// the escaped text: every escape in it is permc's own.
pub fn paint_explain(text: &str) -> String {
    use permc_grammar::Policy;
    const HEADINGS: &[&str] = &["action:", "context:", "segments:", "steps:", "decision:"];
    let policy_color = |p: Policy| match p {
        Policy::Deny => "1;31",
        Policy::RequireApproval => "33",
        Policy::AutoApprove => "32",
    };
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        if line.starts_with("  warning: ") {
            let body = line.trim_end_matches('\n');
            out.push_str(&format!("\x1b[1;31m{body}\x1b[0m"));
            out.push_str(&line[body.len()..]);
            continue;
        }
        let Some(h) = HEADINGS.iter().find(|h| line.starts_with(**h)) else {
            out.push_str(line);
            continue;
        };
        out.push_str(&format!("\x1b[1m{h}\x1b[0m"));
        let rest = &line[h.len()..];
        let policy = (*h == "decision:")
            .then(|| rest.trim_start().split(' ').next())
            .flatten()
            .and_then(|w| Policy::parse(w.trim_end()).map(|p| (w.trim_end(), p)));
        match policy {
            Some((word, p)) => {
                let at = rest.find(word).unwrap_or(0);
                out.push_str(&rest[..at]);
                out.push_str(&format!("\x1b[{}m{word}\x1b[0m", policy_color(p)));
                out.push_str(&rest[at + word.len()..]);
            }
            None => out.push_str(rest),
        }
    }
    out
}
