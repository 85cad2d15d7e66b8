//! permc-runtime: deciding requests (SPEC §5).
//!
//! Two engines answer every request the same:
//! - [`reference`]: the spec in code — linear scans, one function per step;
//! - the compiled engine (over `permc-compiler`'s form), for throughput.
//!
//! ```
//! use permc_grammar::rules::{load_autonomy, load_permissions};
//! use permc_runtime::{reference, request::Request, Rules};
//! let perms = load_permissions("permissions.json", br#"{"allow": ["Terminal(pnpm test)"]}"#).value.unwrap();
//! let rules = Rules::new(perms, Default::default());
//! let req = Request::from_json(r#"{"action": {"type": "terminal", "command": "pnpm test"},
//!   "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": "/p"}}"#).unwrap();
//! let d = reference::decide(&rules, &req);
//! assert_eq!(d.reason.name(), "file.allow");
//! ```

pub mod always;
pub mod compiled;
pub mod decision;
pub mod facts;
pub mod reference;
pub mod request;
pub mod seed;

pub use decision::{Decision, Origin, Reason, RuleRef, Step};
pub use request::{Request, RequestError};

use permc_grammar::rules::{Autonomy, Permissions};

/// The rule files a decision reads: permissions.json and autonomy.json.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    /// permissions.json.
    pub permissions: Permissions,
    /// autonomy.json.
    pub autonomy: Autonomy,
}

impl Rules {
    /// Bundles the two files.
    pub fn new(permissions: Permissions, autonomy: Autonomy) -> Rules {
        Rules {
            permissions,
            autonomy,
        }
    }
}
