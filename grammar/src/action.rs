//! The vocabulary of SPEC §1: action types, their labels, roles and modes.

use std::fmt;

/// A role, lowest first (SPEC §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Reads only.
    Viewer,
    /// Terminal, commits, file writes.
    Developer,
    /// Pushes, merges, containers…
    Maintainer,
    /// Spending.
    Owner,
}

impl Role {
    /// Every role, lowest first.
    pub const ALL: [Role; 4] = [Role::Viewer, Role::Developer, Role::Maintainer, Role::Owner];

    /// Reads a role name as written in requests.
    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == s)
    }

    /// The name as written in requests.
    pub fn name(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Developer => "developer",
            Role::Maintainer => "maintainer",
            Role::Owner => "owner",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! action_types {
    ($( $variant:ident => $name:literal, $label:literal, $role:ident; )*) => {
        /// An action type (SPEC §1).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum ActionType {
            $(
                #[doc = concat!("`", $name, "` (`", $label, "`)")]
                $variant,
            )*
        }

        impl ActionType {
            /// Every action type, in SPEC §1's order.
            pub const ALL: &'static [ActionType] = &[$(ActionType::$variant),*];

            /// The `type` name used in requests and autonomy.json.
            pub fn name(self) -> &'static str {
                match self { $(ActionType::$variant => $name,)* }
            }

            /// The label used in patterns.
            pub fn label(self) -> &'static str {
                match self { $(ActionType::$variant => $label,)* }
            }

            /// The minimum role (SPEC §1).
            pub fn min_role(self) -> Role {
                match self { $(ActionType::$variant => Role::$role,)* }
            }
        }
    };
}

action_types! {
    Terminal => "terminal", "Terminal", Developer;
    GitCommit => "git_commit", "GitCommit", Developer;
    WriteFile => "write_file", "WriteFile", Developer;
    GitPush => "git_push", "GitPush", Maintainer;
    PrOpen => "pr_open", "PrOpen", Maintainer;
    GitRepoCreate => "git_repo_create", "GitRepoCreate", Maintainer;
    GitBranchCreate => "git_branch_create", "GitBranchCreate", Maintainer;
    GitBranchProtect => "git_branch_protect", "GitBranchProtect", Maintainer;
    OpenAdrPr => "open_adr_pr", "OpenAdrPr", Maintainer;
    OpenInfraPr => "open_infra_pr", "OpenInfraPr", Maintainer;
    GitMerge => "git_merge", "GitMerge", Maintainer;
    InstructionPatch => "instruction_patch", "InstructionPatch", Maintainer;
    Parallelize => "parallelize", "Parallelize", Maintainer;
    RaiseMaxParallel => "raise_max_parallel", "RaiseMaxParallel", Maintainer;
    ProposeExecutionPlan => "propose_execution_plan", "ProposeExecutionPlan", Maintainer;
    AssessImplementability => "assess_implementability", "AssessImplementability", Maintainer;
    ContainerStart => "container_start", "ContainerStart", Maintainer;
    ContainerStop => "container_stop", "ContainerStop", Maintainer;
    ContainerRemove => "container_remove", "ContainerRemove", Maintainer;
    Spend => "spend", "Spend", Owner;
}

impl ActionType {
    /// Reads a `type` name (`git_push`).
    pub fn from_name(s: &str) -> Option<ActionType> {
        ActionType::ALL.iter().copied().find(|t| t.name() == s)
    }

    /// Reads a pattern label (`GitPush`), case-sensitive.
    pub fn from_label(s: &str) -> Option<ActionType> {
        ActionType::ALL.iter().copied().find(|t| t.label() == s)
    }

    /// A dense index, `0..ALL.len()`.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for ActionType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A decision's policy, and an autonomy mode (SPEC §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Policy {
    /// Runs without asking.
    AutoApprove,
    /// A person approves first.
    RequireApproval,
    /// Never runs.
    Deny,
}

impl Policy {
    /// Reads a mode name.
    pub fn parse(s: &str) -> Option<Policy> {
        match s {
            "auto_approve" => Some(Policy::AutoApprove),
            "require_approval" => Some(Policy::RequireApproval),
            "deny" => Some(Policy::Deny),
            _ => None,
        }
    }

    /// The name as written in files and decisions.
    pub fn name(self) -> &'static str {
        match self {
            Policy::AutoApprove => "auto_approve",
            Policy::RequireApproval => "require_approval",
            Policy::Deny => "deny",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Closest name in `candidates` to `word`, by edit distance (for "did you
/// mean" hints); `None` when nothing is reasonably close.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // A name is near only when the lengths are: a word far longer than
    // any name (a hostile 10 MB field) is compared with none, so a hint
    // costs at most a few hundred steps, never O(word × name).
    if word.len() > MAX_HINTED {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    let len = lower.chars().count();
    candidates
        .into_iter()
        .filter(|c| len.abs_diff(c.chars().count()) <= (c.len() / 2).max(2))
        .map(|c| (edit_distance(&lower, &c.to_ascii_lowercase()), c))
        .filter(|(d, c)| *d <= (c.len() / 2).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Longest word (in bytes) that [`closest`] looks for a name near.
const MAX_HINTED: usize = 128;

/// Levenshtein distance, in characters.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_round_trips() {
        assert_eq!(ActionType::ALL.len(), 20);
        for t in ActionType::ALL {
            assert_eq!(ActionType::from_name(t.name()), Some(*t));
            assert_eq!(ActionType::from_label(t.label()), Some(*t));
        }
        assert_eq!(ActionType::Spend.min_role(), Role::Owner);
        assert!(Role::Viewer < Role::Developer);
    }

    #[test]
    fn closest_label() {
        let labels = ActionType::ALL.iter().map(|t| t.label());
        assert_eq!(closest("Gitpush", labels), Some("GitPush"));
    }
}
