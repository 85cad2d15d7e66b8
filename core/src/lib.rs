//! permc-core: what a decision is and how SPEC §5 reaches it, independent
//! of any compiled form.
//!
//! - [`request`] and [`decision`]: the wire shapes of SPEC §10;
//! - [`facts`]: what a request's command really does (wrappers, built-ins,
//!   external effect, privileged, scope), the spec's tables in one copy;
//! - [`reference`]: the reference interpreter, SPEC §5.3 read literally
//!   (linear scans over the loaded entries);
//! - [`phrases`]: every sentence a decision or `permc explain` says, which
//!   both engines and the analyzer call;
//! - [`always`] (SPEC §7) and [`seed`] (SPEC §8).
//!
//! The compiled engine lives in `permc-compiler`, above this crate: Cargo
//! itself keeps the reference interpreter from using compiler structures.
//!
//! ```
//! use permc_grammar::rules::{load_autonomy, load_permissions};
//! use permc_core::{reference, request::Request, Rules};
//! let perms = load_permissions("permissions.json", br#"{"allow": ["Terminal(pnpm test)"]}"#).value.unwrap();
//! let rules = Rules::new(perms, Default::default());
//! let req = Request::from_json(r#"{"action": {"type": "terminal", "command": "pnpm test"},
//!   "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": "/p"}}"#).unwrap();
//! let d = reference::decide(&rules, &req);
//! assert_eq!(d.reason.name(), "file.allow");
//! ```

#![warn(missing_docs)]
// Lengths become `u32` only through checked conversions, at size guards
// that say their limit.
#![warn(clippy::cast_possible_truncation)]

pub mod always;
pub mod decision;
pub mod facts;
pub mod phrases;
pub mod reference;
pub mod request;
pub mod seed;

pub use decision::{Decision, Origin, Reason, RuleRef, Step};
pub use request::{Request, RequestError};

use permc_grammar::rules::{Autonomy, Permissions};
use permc_shell::facts::project::ProjectRows;

/// The rule files a decision reads: permissions.json and autonomy.json,
/// and the project's own command rows (permc.toml's `[[command]]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    /// permissions.json.
    pub permissions: Permissions,
    /// autonomy.json.
    pub autonomy: Autonomy,
    /// The project's command rows, read with the built-in catalogue
    /// ([`facts::LineFacts::of_with`]); empty without a permc.toml.
    pub project: ProjectRows,
}

impl Rules {
    /// Bundles the two files (no project rows).
    pub fn new(permissions: Permissions, autonomy: Autonomy) -> Rules {
        Rules {
            permissions,
            autonomy,
            project: ProjectRows::default(),
        }
    }

    /// These rules with a project's command rows.
    pub fn with_project(mut self, project: ProjectRows) -> Rules {
        self.project = project;
        self
    }
}
