//! Seeding at execution activation (SPEC §8, DEV_TERMINAL_ALLOW_PATTERNS):
//! the allow entries and autonomy rules a project starts with.
//!
//! [`plan`] is pure: given the loaded files and the modules, it says what is
//! missing; the CLI (`permc seed`) writes it. The analyzer's false-positive
//! tests read [`DEFAULT_ALLOW`] too: SPEC §11 itself flags three of the
//! defaults (`find` unanchored; `npm run`, `npx vitest` broad), and the test
//! pins exactly those.
//!
//! ```
//! use permc_core::seed::{plan, DEFAULT_ALLOW};
//! let p = plan(&Default::default(), &Default::default(), &["api".to_string()]);
//! assert_eq!(p.allow, DEFAULT_ALLOW);
//! assert_eq!(p.agents, ["dev-api"]);
//! ```

use crate::always::{already_in, MODULE_AGENT_PREFIX};
use permc_grammar::rules::{Autonomy, AutonomyKey, Permissions};
use permc_grammar::{ActionType, Policy};

/// The activation defaults of SPEC §8, in order.
pub const DEFAULT_ALLOW: &[&str] = &[
    // Reading the worktree.
    "Terminal(ls)",
    "Terminal(pwd)",
    "Terminal(find)",
    "Terminal(cat)",
    "Terminal(head)",
    "Terminal(tail)",
    "Terminal(grep)",
    "Terminal(wc)",
    "Terminal(echo)",
    "Terminal(git status)",
    "Terminal(git diff)",
    "Terminal(git log)",
    // Reading git history, remotes and config, anchored by the reading flag
    // (RN-143).
    "Terminal(git branch -a)",
    "Terminal(git branch -r)",
    "Terminal(git branch -v)",
    "Terminal(git branch --list)",
    "Terminal(git branch --show-current)",
    "Terminal(git remote -v)",
    "Terminal(git remote show)",
    "Terminal(git worktree list)",
    "Terminal(git show)",
    "Terminal(git for-each-ref)",
    "Terminal(git ls-tree)",
    "Terminal(git rev-parse)",
    "Terminal(git config --get)",
    // Build and test.
    "Terminal(pnpm install)",
    "Terminal(pnpm test)",
    "Terminal(npm run)",
    "Terminal(npm test)",
    "Terminal(npx vitest)",
    "Terminal(mix test)",
    "Terminal(pytest)",
    "Terminal(go test)",
    "Terminal(cargo test)",
    "Terminal(cargo build)",
];

/// The autonomy rule each module agent gets (SPEC §8, RN-689).
pub const MODULE_RULE: (ActionType, Policy) = (ActionType::GitCommit, Policy::AutoApprove);

/// The agent of a module: `dev-<module>`.
pub fn module_agent(module: &str) -> String {
    format!("{MODULE_AGENT_PREFIX}{module}")
}

/// What seeding adds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// The defaults missing from allow, in [`DEFAULT_ALLOW`]'s order.
    pub allow: Vec<&'static str>,
    /// The module agents that get [`MODULE_RULE`] (they have no git_commit
    /// rule yet), in the order named, without repeats.
    pub agents: Vec<String>,
}

impl Plan {
    /// Nothing to add.
    pub fn is_empty(&self) -> bool {
        self.allow.is_empty() && self.agents.is_empty()
    }
}

/// What is missing (SPEC §8): keeps everything there, adds only what is not
/// — a default counts as present when allow holds it (same text or an equal
/// pattern); a module agent is skipped when it has any git_commit rule, of
/// any mode (a written `deny` or `require_approval` stays).
pub fn plan(permissions: &Permissions, autonomy: &Autonomy, modules: &[String]) -> Plan {
    let allow = DEFAULT_ALLOW
        .iter()
        .copied()
        .filter(|p| !already_in(p, permissions.allow.iter().map(|e| &e.pattern)))
        .collect();
    let mut agents: Vec<String> = Vec::new();
    for m in modules {
        let agent = module_agent(m);
        let has_rule = autonomy
            .get(&agent, AutonomyKey::Type(MODULE_RULE.0))
            .is_some();
        if !has_rule && !agents.contains(&agent) {
            agents.push(agent);
        }
    }
    Plan { allow, agents }
}

#[cfg(test)]
mod tests {
    use super::*;
    use permc_grammar::pattern::Pattern;
    use permc_grammar::rules::{load_autonomy, load_permissions};

    #[test]
    fn defaults_parse_and_are_distinct() {
        assert_eq!(DEFAULT_ALLOW.len(), 35);
        for (i, p) in DEFAULT_ALLOW.iter().enumerate() {
            Pattern::parse(p).expect("parses");
            assert!(!DEFAULT_ALLOW[..i].contains(p), "{p}");
        }
    }

    #[test]
    fn only_what_is_missing() {
        let perms = load_permissions(
            "p.json",
            br#"{"allow": ["Terminal(git  status)", "Terminal(ls)"], "deny": ["Terminal(cat)"]}"#,
        )
        .value
        .expect("loads");
        let auto = load_autonomy("a.json", br#"{"dev-web": {"git_commit": "deny"}}"#)
            .value
            .expect("loads");
        let modules = ["api", "web", "api"].map(String::from);
        let p = plan(&perms, &auto, &modules);
        assert_eq!(p.allow.len(), DEFAULT_ALLOW.len() - 2);
        assert!(p.allow.contains(&"Terminal(cat)"));
        assert!(!p.allow.contains(&"Terminal(git status)"));
        assert_eq!(p.agents, ["dev-api"]);
    }
}
