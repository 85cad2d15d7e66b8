//! Decisions (SPEC §10.2) and their reasons (SPEC §5.3).

use permc_grammar::Policy;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// What a step of SPEC §5.3 sets `current` to: a policy with its reason,
/// the rule that decided (where one did) and the sentence for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The policy.
    pub policy: Policy,
    /// Why (SPEC §5.3's names).
    pub reason: Reason,
    /// The deciding pattern, where one did.
    pub rule: Option<RuleRef>,
    /// For people (`phrases`).
    pub message: Cow<'static, str>,
}

/// Every reason of SPEC §5.3, exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Reason {
    IamMinRole,
    BuiltinDeny,
    AutonomyDeny,
    FileDeny,
    Default,
    ContainerFloor,
    AutonomyAutoApprove,
    AutonomyRequireApproval,
    FileAsk,
    FileAllow,
    ScopeCd,
    CompoundUncovered,
    /// A deny pattern or a built-in matches only possibly (SPEC §4.4, §5.3 step 7.0).
    UnknownWord,
    CeilingExternalEffect,
    CeilingPrivileged,
    CeilingUnparsed,
    CeilingTypedExternal,
    CeilingProtectedMerge,
    CeilingInstructionPatch,
    CeilingParallelism,
    CeilingContainerRemove,
    CeilingScope,
    /// A protected path is named (SPEC §6.4, §5.3 step 7j).
    CeilingProtectedPath,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 23] = [
        Reason::IamMinRole,
        Reason::BuiltinDeny,
        Reason::AutonomyDeny,
        Reason::FileDeny,
        Reason::Default,
        Reason::ContainerFloor,
        Reason::AutonomyAutoApprove,
        Reason::AutonomyRequireApproval,
        Reason::FileAsk,
        Reason::FileAllow,
        Reason::ScopeCd,
        Reason::CompoundUncovered,
        Reason::UnknownWord,
        Reason::CeilingExternalEffect,
        Reason::CeilingPrivileged,
        Reason::CeilingUnparsed,
        Reason::CeilingTypedExternal,
        Reason::CeilingProtectedMerge,
        Reason::CeilingInstructionPatch,
        Reason::CeilingParallelism,
        Reason::CeilingContainerRemove,
        Reason::CeilingScope,
        Reason::CeilingProtectedPath,
    ];

    /// The name of SPEC §5.3 (`file.allow`, `ceiling.scope`…).
    pub fn name(self) -> &'static str {
        match self {
            Reason::IamMinRole => "iam.min_role",
            Reason::BuiltinDeny => "builtin.deny",
            Reason::AutonomyDeny => "autonomy.deny",
            Reason::FileDeny => "file.deny",
            Reason::Default => "default",
            Reason::ContainerFloor => "container.floor",
            Reason::AutonomyAutoApprove => "autonomy.auto_approve",
            Reason::AutonomyRequireApproval => "autonomy.require_approval",
            Reason::FileAsk => "file.ask",
            Reason::FileAllow => "file.allow",
            Reason::ScopeCd => "scope.cd",
            Reason::CompoundUncovered => "compound.uncovered",
            Reason::UnknownWord => "unknown.word",
            Reason::CeilingExternalEffect => "ceiling.external_effect",
            Reason::CeilingPrivileged => "ceiling.privileged",
            Reason::CeilingUnparsed => "ceiling.unparsed",
            Reason::CeilingTypedExternal => "ceiling.typed_external",
            Reason::CeilingProtectedMerge => "ceiling.protected_merge",
            Reason::CeilingInstructionPatch => "ceiling.instruction_patch",
            Reason::CeilingParallelism => "ceiling.parallelism",
            Reason::CeilingContainerRemove => "ceiling.container_remove",
            Reason::CeilingScope => "ceiling.scope",
            Reason::CeilingProtectedPath => "ceiling.protected_path",
        }
    }

    /// Reads a reason name.
    pub fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == s)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a resolved autonomy mode came from (SPEC §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// rules[agent][type].
    Specific,
    /// rules[agent]["*"] (or a specific auto_approve under it).
    Wildcard,
}

impl Origin {
    /// `specific` / `wildcard`.
    pub fn name(self) -> &'static str {
        match self {
            Origin::Specific => "specific",
            Origin::Wildcard => "wildcard",
        }
    }
}

/// The rule that decided: its text and `file:line:col`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RuleRef {
    /// The pattern as written (`Terminal(pnpm test:*)`), the autonomy rule
    /// (`dev-api: * = auto_approve`) or the built-in pattern.
    pub rule: String,
    /// `permissions.json:2:12`, or `builtin`.
    pub source: String,
}

/// A decision (SPEC §10.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The policy.
    pub policy: Policy,
    /// Why.
    pub reason: Reason,
    /// The deciding rule, where one did.
    pub rule: Option<RuleRef>,
    /// The autonomy origin, when an autonomy rule resolved.
    pub autonomy_origin: Option<Origin>,
    /// `mode:last-component` of the scope root (SPEC §6.3).
    pub scope_root: Option<String>,
    /// A sentence for people.
    pub message: String,
}

impl Decision {
    /// The JSON of SPEC §10.2.
    pub fn to_json(&self) -> Value {
        // Cannot fail: every key is a string and every value a string.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Writes the fields of SPEC §10.2 into a map being serialized, in this
    /// order: `policy`, `reason`, `rule` and `source` (when a rule decided),
    /// `autonomyOrigin`, `scopeRoot` (when known), `message`. The one
    /// definition of the shape: [`Decision::to_json`], the `Serialize` impl
    /// and the CLI's answers (a decision plus the request's `id`, written
    /// straight to the output without an intermediate `Value`) all use it.
    pub fn serialize_fields<M: serde::ser::SerializeMap>(&self, m: &mut M) -> Result<(), M::Error> {
        m.serialize_entry("policy", self.policy.name())?;
        m.serialize_entry("reason", self.reason.name())?;
        if let Some(r) = &self.rule {
            m.serialize_entry("rule", &r.rule)?;
            m.serialize_entry("source", &r.source)?;
        }
        if let Some(o) = self.autonomy_origin {
            m.serialize_entry("autonomyOrigin", o.name())?;
        }
        if let Some(s) = &self.scope_root {
            m.serialize_entry("scopeRoot", s)?;
        }
        m.serialize_entry("message", &self.message)
    }
}

/// SPEC §10.2 (see [`Decision::serialize_fields`]).
impl serde::Serialize for Decision {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        self.serialize_fields(&mut m)?;
        m.end()
    }
}

/// One step of SPEC §5.3 that ran, for `permc explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// `1. IAM`, `6. File (terminal)`, `7a. ceiling.external_effect`…
    pub step: &'static str,
    /// What it found.
    pub outcome: String,
}
