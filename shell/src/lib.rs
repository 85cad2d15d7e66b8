//! permc-shell: what a bash line runs.
//!
//! - [`reader`]: command lines → segments of words, as bash reads them
//!   (SPEC §4.1, §4.2), without expanding anything;
//! - [`facts`]: what the words really do — wrappers and runners read
//!   through, built-ins, external effect, privileged, scope, protected
//!   paths, mutating continuations (SPEC §4.3, §5.2, §6);
//! - [`facts::catalogue`]: the one catalogue of commands every reader of
//!   commands reads (the decision, always-allow, the analyzer and
//!   `docs/commands.md`).
//!
//! ```
//! use permc_shell::{facts::LineFacts, reader};
//! let line = reader::read("cd src && pnpm test --watch");
//! assert_eq!(line.segments[1].words, ["pnpm", "test", "--watch"]);
//! let facts = LineFacts::of("sudo -u x git push");
//! assert_eq!(facts.external_effect(), Some(&["git", "push"][..]));
//! assert!(facts.privileged().is_some());
//! ```
//!
//! Nothing here does I/O or knows of rules or requests: the crates above
//! (permc-grammar's patterns, permc-core's decision) read a line through
//! this one. Readers take text and never panic; time is linear in it.

#![warn(missing_docs)]
// Lengths become `u32` only through checked conversions, at size guards
// that say their limit.
#![warn(clippy::cast_possible_truncation)]

pub mod facts;
pub mod reader;
mod spare;
