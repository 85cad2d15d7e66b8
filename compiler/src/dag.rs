//! The decision procedure of SPEC §5.3 as a DAG of stages.
//!
//! Each action type runs a path through the same stages: IAM, built-ins,
//! base, autonomy, the file, the ceilings, return — with a `deny` exit from
//! the stages that can deny. The compiler drops the stages a type can never
//! need under this policy (the autonomy stage when no autonomy rule names
//! the type or `*`; the typed-file stage when no `Label()` entry names the
//! type; every ceiling that does not apply to the type), builds the graph
//! with petgraph, checks it (acyclic, every stage reachable from the start,
//! every path ends at return), and reads each type's *program* — the stages
//! it runs, in order — back off the graph. The runtime runs the program.
//!
//! `permc compile --dump dot` draws the graph.

use crate::TYPES;
use permc_grammar::ActionType;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{Dfs, EdgeRef};
use std::collections::BTreeMap;

/// One stage of SPEC §5.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Stage {
    /// Where every request enters.
    Start = 0,
    /// 1. IAM: the minimum role.
    Iam = 1,
    /// 2. Built-in denies (terminal).
    Builtins = 2,
    /// 3. Base: `container.floor` or `default`.
    Base = 3,
    /// 4. Autonomy.
    Autonomy = 4,
    /// 5. The file, non-terminal: `Label()` entries.
    FileTyped = 5,
    /// 6. The file, terminal: the token-prefix trie.
    FileTerminal = 6,
    /// 7a.
    CeilingExternalEffect = 7,
    /// 7b.
    CeilingPrivileged = 8,
    /// 7c.
    CeilingUnparsed = 9,
    /// 7d.
    CeilingTypedExternal = 10,
    /// 7e.
    CeilingProtectedMerge = 11,
    /// 7f.
    CeilingInstructionPatch = 12,
    /// 7g.
    CeilingParallelism = 13,
    /// 7h.
    CeilingContainerRemove = 14,
    /// 7i.
    CeilingScope = 15,
    /// 8. Return `current`.
    Return = 16,
    /// A deny returns at once.
    Deny = 17,
    /// 7.0 `unknown.word`: a deny pattern or a built-in matches only
    /// possibly (SPEC §4.4). Numbered last so the bytes of the others stay.
    CeilingUnknownWord = 18,
    /// 7j `ceiling.protected_path` (SPEC §6.4).
    CeilingProtectedPath = 19,
}

impl Stage {
    /// Every stage, by code (SPEC §5.3's order, 7.0 added last).
    pub const ALL: [Stage; 20] = [
        Stage::Start,
        Stage::Iam,
        Stage::Builtins,
        Stage::Base,
        Stage::Autonomy,
        Stage::FileTyped,
        Stage::FileTerminal,
        Stage::CeilingExternalEffect,
        Stage::CeilingPrivileged,
        Stage::CeilingUnparsed,
        Stage::CeilingTypedExternal,
        Stage::CeilingProtectedMerge,
        Stage::CeilingInstructionPatch,
        Stage::CeilingParallelism,
        Stage::CeilingContainerRemove,
        Stage::CeilingScope,
        Stage::Return,
        Stage::Deny,
        Stage::CeilingUnknownWord,
        Stage::CeilingProtectedPath,
    ];

    /// The stage of a code, if it is one.
    pub fn from_code(c: u8) -> Option<Stage> {
        Stage::ALL.get(usize::from(c)).copied()
    }

    /// The name drawn in the graph.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Start => "start",
            Stage::Iam => "1. IAM",
            Stage::Builtins => "2. built-ins",
            Stage::Base => "3. base",
            Stage::Autonomy => "4. autonomy",
            Stage::FileTyped => "5. file (Label())",
            Stage::FileTerminal => "6. file (token-prefix trie)",
            Stage::CeilingUnknownWord => "7.0 unknown.word",
            Stage::CeilingExternalEffect => "7a. ceiling.external_effect",
            Stage::CeilingPrivileged => "7b. ceiling.privileged",
            Stage::CeilingUnparsed => "7c. ceiling.unparsed",
            Stage::CeilingTypedExternal => "7d. ceiling.typed_external",
            Stage::CeilingProtectedMerge => "7e. ceiling.protected_merge",
            Stage::CeilingInstructionPatch => "7f. ceiling.instruction_patch",
            Stage::CeilingParallelism => "7g. ceiling.parallelism",
            Stage::CeilingContainerRemove => "7h. ceiling.container_remove",
            Stage::CeilingScope => "7i. ceiling.scope",
            Stage::CeilingProtectedPath => "7j. ceiling.protected_path",
            Stage::Return => "8. return current",
            Stage::Deny => "deny",
        }
    }

    /// Can this stage deny (and so return at once)?
    pub fn can_deny(self) -> bool {
        matches!(
            self,
            Stage::Iam | Stage::Builtins | Stage::Autonomy | Stage::FileTyped | Stage::FileTerminal
        )
    }
}

/// What the compiler knows about the policy that shapes the graph.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Per action type ([`ActionType::index`]): an autonomy rule names the
    /// type or `*` for some agent.
    pub autonomy: [bool; TYPES],
    /// Per action type: a `Label()` entry of the type in some list.
    pub typed: [bool; TYPES],
}

/// The stages one action type needs, in SPEC §5.3's order (without start,
/// return and deny).
fn needed(t: ActionType, shape: &Shape) -> Vec<Stage> {
    let i = t.index();
    let terminal = t == ActionType::Terminal;
    let mut v = vec![Stage::Iam];
    if terminal {
        v.push(Stage::Builtins);
    }
    v.push(Stage::Base);
    if shape.autonomy.get(i).copied().unwrap_or(true) {
        v.push(Stage::Autonomy);
    }
    if terminal {
        v.push(Stage::FileTerminal);
        v.extend([
            Stage::CeilingUnknownWord,
            Stage::CeilingExternalEffect,
            Stage::CeilingPrivileged,
            Stage::CeilingUnparsed,
        ]);
    } else if shape.typed.get(i).copied().unwrap_or(true) {
        v.push(Stage::FileTyped);
    }
    match t {
        ActionType::GitPush | ActionType::PrOpen => v.push(Stage::CeilingTypedExternal),
        ActionType::GitMerge => v.push(Stage::CeilingProtectedMerge),
        ActionType::InstructionPatch => v.push(Stage::CeilingInstructionPatch),
        ActionType::Parallelize | ActionType::RaiseMaxParallel => v.push(Stage::CeilingParallelism),
        ActionType::ContainerRemove => v.push(Stage::CeilingContainerRemove),
        _ => {}
    }
    // write_file: its `path` (SPEC §10.1, round 3).
    if terminal || t == ActionType::WriteFile {
        v.extend([Stage::CeilingScope, Stage::CeilingProtectedPath]);
    }
    v
}

/// The stage graph: nodes are stages, an edge carries the set of action
/// types (bit [`ActionType::index`]) that take it.
#[derive(Debug, Clone)]
pub struct StageGraph {
    graph: DiGraph<Stage, u32>,
    start: NodeIndex,
}

const ALL_TYPES: u32 = (1 << TYPES) - 1;

/// Why a stage graph fails its check (a bug in the compiler, or a loaded
/// artifact whose shape implies no valid graph).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GraphError {
    /// The graph has a cycle.
    Cycle,
    /// A stage cannot be reached from the start.
    Unreachable,
    /// A type's path forks or stops: how many ways go on, from which stage.
    Ways {
        /// The action type.
        action: ActionType,
        /// How many edges of its path leave `from` (one is right).
        ways: usize,
        /// The stage.
        from: &'static str,
    },
    /// A type's path never reaches return.
    NeverReturns(ActionType),
}

impl std::fmt::Display for GraphError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GraphError::Cycle => f.write_str("the stage graph has a cycle"),
            GraphError::Unreachable => {
                f.write_str("a stage of the graph cannot be reached from the start")
            }
            GraphError::Ways { action, ways, from } => {
                write!(f, "{action}: {ways} ways on from {from}")
            }
            GraphError::NeverReturns(t) => write!(f, "{t}: the path never returns"),
        }
    }
}

impl std::error::Error for GraphError {}

impl StageGraph {
    /// Builds the graph for a policy's shape and checks it.
    pub fn build(shape: &Shape) -> Result<StageGraph, GraphError> {
        let mut graph: DiGraph<Stage, u32> = DiGraph::new();
        let mut nodes: BTreeMap<Stage, NodeIndex> = BTreeMap::new();
        let mut node = |g: &mut DiGraph<Stage, u32>, s: Stage| {
            *nodes.entry(s).or_insert_with(|| g.add_node(s))
        };
        let start = node(&mut graph, Stage::Start);
        let mut edges: BTreeMap<(Stage, Stage), u32> = BTreeMap::new();
        for &t in ActionType::ALL {
            let bit = 1u32 << t.index();
            let mut prev = Stage::Start;
            for s in needed(t, shape) {
                *edges.entry((prev, s)).or_default() |= bit;
                if s.can_deny() {
                    *edges.entry((s, Stage::Deny)).or_default() |= bit;
                }
                prev = s;
            }
            *edges.entry((prev, Stage::Return)).or_default() |= bit;
        }
        for ((a, b), mask) in edges {
            let (na, nb) = (node(&mut graph, a), node(&mut graph, b));
            graph.add_edge(na, nb, mask);
        }
        let g = StageGraph { graph, start };
        g.check()?;
        Ok(g)
    }

    /// Acyclic, every stage reachable from the start, and every type's path
    /// from the start ends at return.
    fn check(&self) -> Result<(), GraphError> {
        if petgraph::algo::toposort(&self.graph, None).is_err() {
            return Err(GraphError::Cycle);
        }
        let mut seen = 0usize;
        let mut dfs = Dfs::new(&self.graph, self.start);
        while dfs.next(&self.graph).is_some() {
            seen += 1;
        }
        if seen != self.graph.node_count() {
            return Err(GraphError::Unreachable);
        }
        for &t in ActionType::ALL {
            self.path(t)?;
        }
        Ok(())
    }

    /// The stages type `t` runs, from the start to return (both excluded).
    fn path(&self, t: ActionType) -> Result<Vec<Stage>, GraphError> {
        let bit = 1u32 << t.index();
        let mut out = Vec::new();
        let mut at = self.start;
        // A path visits each stage at most once (the graph is acyclic).
        for _ in 0..=self.graph.node_count() {
            let next: Vec<NodeIndex> = self
                .graph
                .edges(at)
                .filter(|e| e.weight() & bit != 0 && self.graph[e.target()] != Stage::Deny)
                .map(|e| e.target())
                .collect();
            let [n] = next[..] else {
                return Err(GraphError::Ways {
                    action: t,
                    ways: next.len(),
                    from: self.graph[at].name(),
                });
            };
            if self.graph[n] == Stage::Return {
                return Ok(out);
            }
            out.push(self.graph[n]);
            at = n;
        }
        Err(GraphError::NeverReturns(t))
    }

    /// Every type's program, indexed by [`ActionType::index`].
    pub fn programs(&self) -> Result<Vec<Vec<Stage>>, GraphError> {
        ActionType::ALL.iter().map(|&t| self.path(t)).collect()
    }

    /// The graph in Graphviz DOT.
    pub fn dot(&self) -> String {
        let mut out = String::from(
            "digraph permc {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n",
        );
        for n in self.graph.node_indices() {
            let s = self.graph[n];
            let extra = match s {
                Stage::Deny => ", style=filled, fillcolor=\"#f4cccc\"",
                Stage::Start | Stage::Return => ", shape=oval",
                _ => "",
            };
            out.push_str(&format!(
                "  s{} [label=\"{}\"{extra}];\n",
                s as u8,
                s.name()
            ));
        }
        for e in self.graph.edge_references() {
            let (a, b) = (self.graph[e.source()], self.graph[e.target()]);
            let style = if b == Stage::Deny {
                ", style=dashed, color=\"#cc0000\""
            } else {
                ""
            };
            out.push_str(&format!(
                "  s{} -> s{} [label=\"{}\"{style}];\n",
                a as u8,
                b as u8,
                types_label(*e.weight())
            ));
        }
        out.push_str("}\n");
        out
    }
}

fn types_label(mask: u32) -> String {
    let term = 1u32 << ActionType::Terminal.index();
    if mask == ALL_TYPES {
        return "all".into();
    }
    if mask == ALL_TYPES & !term {
        return "all but terminal".into();
    }
    let names: Vec<&str> = ActionType::ALL
        .iter()
        .filter(|t| mask & (1 << t.index()) != 0)
        .map(|t| t.name())
        .collect();
    if names.len() > 4 {
        let rest: Vec<&str> = ActionType::ALL
            .iter()
            .filter(|t| mask & (1 << t.index()) == 0 && **t != ActionType::Terminal)
            .map(|t| t.name())
            .collect();
        if mask & term == 0 && rest.len() < names.len() {
            return format!("typed but {}", rest.join(", "));
        }
    }
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_checks_and_programs() {
        let shape = Shape {
            autonomy: [false; TYPES],
            typed: [false; TYPES],
        };
        let g = StageGraph::build(&shape).expect("valid");
        let p = g.programs().expect("paths");
        assert_eq!(
            p[ActionType::Terminal.index()],
            [
                Stage::Iam,
                Stage::Builtins,
                Stage::Base,
                Stage::FileTerminal,
                Stage::CeilingUnknownWord,
                Stage::CeilingExternalEffect,
                Stage::CeilingPrivileged,
                Stage::CeilingUnparsed,
                Stage::CeilingScope,
                Stage::CeilingProtectedPath
            ]
        );
        assert_eq!(
            p[ActionType::GitPush.index()],
            [Stage::Iam, Stage::Base, Stage::CeilingTypedExternal]
        );
        let shape = Shape {
            autonomy: [true; TYPES],
            typed: [true; TYPES],
        };
        let g = StageGraph::build(&shape).expect("valid");
        let p = g.programs().expect("paths");
        assert_eq!(
            p[ActionType::GitCommit.index()],
            [Stage::Iam, Stage::Base, Stage::Autonomy, Stage::FileTyped]
        );
        assert!(g.dot().contains("digraph"));
    }

    /// The engine stops at the first ceiling once current is not
    /// auto_approve (`compiled::answer`): only ceilings may follow one.
    #[test]
    fn ceilings_come_last_in_every_program() {
        for (autonomy, typed) in [(false, false), (true, false), (false, true), (true, true)] {
            let shape = Shape {
                autonomy: [autonomy; TYPES],
                typed: [typed; TYPES],
            };
            let g = StageGraph::build(&shape).expect("valid");
            for p in g.programs().expect("paths") {
                let ceiling = |s: &Stage| {
                    !matches!(
                        s,
                        Stage::Iam
                            | Stage::Builtins
                            | Stage::Base
                            | Stage::Autonomy
                            | Stage::FileTyped
                            | Stage::FileTerminal
                    )
                };
                let first = p.iter().position(ceiling).unwrap_or(p.len());
                assert!(p[first..].iter().all(ceiling), "{p:?}");
            }
        }
    }
}
