//! permc-grammar: the readers of permc.
//!
//! - [`shell`]: command lines → segments of words (SPEC §4), permc-shell's
//!   reader re-exported;
//! - [`pattern`]: `Label(content)` patterns and token-prefix matching (SPEC §3);
//! - [`rules`]: permissions.json and autonomy.json with spans (SPEC §2);
//! - [`action`]: the vocabulary of SPEC §1 (action types, roles, modes);
//! - [`json`], [`diagnostic`]: the span-keeping JSON reader and diagnostics.
//!
//! ```
//! use permc_grammar::{pattern::Pattern, shell};
//! let p = Pattern::parse("Terminal(pnpm test)").unwrap();
//! let line = shell::read("cd src && pnpm test --watch");
//! assert!(p.matches_words(&line.segments[1].words));
//! ```
//!
//! Nothing here does I/O; readers take bytes and never panic.

#![warn(missing_docs)]
// Lengths become `u32` only through checked conversions, at size guards
// that say their limit.
#![warn(clippy::cast_possible_truncation)]

pub mod action;
pub mod diagnostic;
pub mod json;
pub mod pattern;
pub mod printable;
pub mod rules;
/// The shell reader, from permc-shell (SPEC §4): here because patterns
/// are read with it.
pub use permc_shell::reader as shell;

pub use action::{ActionType, Policy, Role};
pub use diagnostic::{Diagnostic, Severity};
