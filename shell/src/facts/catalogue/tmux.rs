//! tmux 3.3a (SPEC §4.5 item 2 round 4, a `line` row): its own options,
//! its commands by name, alias or unique prefix (`tmux list-commands`),
//! which of them run a shell command line given as operands, and which
//! run what permc does not read.

use super::types::{Grammar, Mode};

include!(concat!(env!("OUT_DIR"), "/catalogue/tmux.rs"));
