//! The compiled engine answers exactly like the reference interpreter
//! (SPEC §9), tested three ways here (the fourth, the shared corpus, is in
//! tests/corpus.rs):
//!
//! - a differential property test: random policies from a vocabulary made
//!   to collide against random requests, compared on policy, reason,
//!   deciding rule (text and source), autonomy origin, scope root and
//!   message — for the determinized trie, the NFA fallback and the
//!   artifact round trip.
//!   10,000 cases by default; `PERMC_PROPTEST_CASES=1000000` for millions;
//! - an exhaustive small universe: every policy of up to 3 patterns over a
//!   4-token alphabet (with a wildcard) against every segment of up to 3
//!   words (the trie's first matches), and every policy of up to 3 entries
//!   over a smaller pattern set against every command of up to 3 words in
//!   up to 2 segments (whole decisions). The full universe for whole
//!   decisions (21 patterns, 4 words) is `#[ignore]`d: about 10 minutes
//!   in release;
//! - the artifact round trip: compile → write → load → decide equals
//!   compile → decide.

use permc_compiler::artifact::{self, SourceHashes};
use permc_compiler::compiled;
use permc_compiler::{compile, compile_nondeterministic, CompiledPolicy};
use permc_core::facts::project::{CommandRow, Description, Effects, Kind, ProjectRows, Runs};
use permc_core::{reference, Decision, Request, Rules};
use permc_grammar::diagnostic::Location;
use permc_grammar::json::Span;
use permc_grammar::pattern::Pattern;
use permc_grammar::rules::{load_autonomy, load_permissions, Entry, List, Permissions};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Value};

/// What must be equal: the whole decision, message included (both
/// engines word it through `permc_core::phrases`).
fn key(d: &Decision) -> impl PartialEq + std::fmt::Debug {
    (
        d.policy,
        d.reason,
        d.rule.clone(),
        d.autonomy_origin,
        d.scope_root.clone(),
        d.message.clone(),
    )
}

fn assert_same(
    rules: &Rules,
    policies: &[&CompiledPolicy],
    req: &Request,
    what: &dyn Fn() -> String,
) {
    let expect = reference::decide(rules, req);
    for (i, p) in policies.iter().enumerate() {
        let got = compiled::decide(p, req);
        assert_eq!(
            key(&got),
            key(&expect),
            "engine #{i} disagrees on {}",
            what()
        );
    }
}

// ---------------------------------------------------------------------
// Differential property test.

const WORDS: &[&str] = &[
    "git",
    "push",
    "status",
    "pnpm",
    "test",
    "test:unit",
    "test:e2e",
    "npm",
    "run",
    "rm",
    "-rf",
    "-fr",
    "/",
    "/*",
    "cd",
    "src",
    "..",
    "../x",
    "/tmp",
    "/tmp/a",
    "/etc/passwd",
    "ls",
    "-la",
    "cat",
    "x",
    "sudo",
    "curl",
    "gh",
    "pr",
    "create",
    "kubectl",
    "apply",
    "*",
    "a*",
    "$HOME",
    "~/x",
    "--out=/etc/x",
    "-C",
    "/work/y",
];

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(WORDS).prop_map(str::to_string)
}

/// A pattern token: exact, a prefix wildcard cut from a vocabulary word,
/// or one of the literal stars of SPEC §3.2.
fn pattern_token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => word().prop_map(|w| shell_quote(&w)),
        2 => (prop::sample::select(WORDS), 1usize..4).prop_map(|(w, n)| {
            let cut: String = w.chars().take(n.min(w.chars().count())).collect();
            if cut.ends_with('/') || cut == "*" { format!("'{cut}*'") } else { format!("{}*", shell_quote(&cut)) }
        }),
        1 => prop::sample::select(&["'a*'", "a\\*", "src/*", "/*", "*", "te*st"][..]).prop_map(str::to_string),
    ]
}

fn shell_quote(w: &str) -> String {
    if w.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_:/.=".contains(&b))
    {
        w.to_string()
    } else {
        format!("'{w}'")
    }
}

fn pattern() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(pattern_token(), 1..4).prop_map(|t| format!("Terminal({})", t.join(" "))),
        1 => Just("Terminal()".to_string()),
        1 => prop::sample::select(&[
            "GitPush()", "GitCommit()", "GitMerge()", "PrOpen()", "GitPush(x)", "InstructionPatch()", "WriteFile()",
            "Terminal(cd src && npm test)", "Terminal(ls > x)", "Spend()", "ContainerRemove()",
        ][..]).prop_map(str::to_string),
    ]
}

const AGENTS: &[&str] = &["dev-api", "dev-web", "ops"];
const KEYS: &[&str] = &[
    "*",
    "terminal",
    "git_push",
    "git_commit",
    "git_merge",
    "pr_open",
    "instruction_patch",
];
const MODES: &[&str] = &["auto_approve", "require_approval", "deny"];

fn autonomy() -> impl Strategy<Value = Value> {
    prop::collection::vec(
        (
            prop::sample::select(AGENTS),
            prop::sample::select(KEYS),
            prop::sample::select(MODES),
        ),
        0..6,
    )
    .prop_map(|rules| {
        let mut v = serde_json::Map::new();
        for (a, k, m) in rules {
            let agent = v.entry(a.to_string()).or_insert_with(|| json!({}));
            agent[k] = json!(m);
        }
        Value::Object(v)
    })
}

fn permissions() -> impl Strategy<Value = Value> {
    let list = || prop::collection::vec(pattern(), 0..6);
    (list(), list(), list())
        .prop_map(|(allow, deny, ask)| json!({"allow": allow, "deny": deny, "ask": ask}))
}

/// Unquoted words whose text comes from an expansion (SPEC §4.4), or that
/// the scope reads specially (`~`, `*`): in arguments…
const EXPANSIONS: &[&str] = &[
    "$HOME",
    "${x}",
    "$(ls)",
    "$(cd ..)",
    "`pwd`",
    "~/x",
    "*",
    "\"$c\"",
    "x$Y",
    "--out=$HOME",
    "\"$(date)\"",
    "-o/etc/x",
    "-xf/etc/x",
    "-C..",
    "k=/abs",
    // Protected paths (SPEC §6.4) and globs that may reach them.
    ".git/config",
    "permissions.json",
    ".gi?",
    "*.json",
    "x.permc",
    "--output=autonomy.json",
];

/// … and as the verb.
const VERB_EXPANSIONS: &[&str] = &["$G", "${X}", "$(echo git)", "`echo rm`", "~/bin/x", "*"];

/// What a segment may start with: assignments and wrappers (SPEC §4.3).
const PREFIXES: &[&str] = &[
    "",
    "",
    "",
    "",
    "sudo ",
    "sudo -u root ",
    "env A=1 ",
    "env -i ",
    "env -u A ",
    "env -S ",
    "timeout 5 ",
    "nohup ",
    "/usr/bin/",
    "X=1 ",
    "A=1 B=2 ",
    "PATH=/x ",
    "command ",
    "exec -a n ",
    "nice -n 5 ",
    "xargs ",
    "time ",
    "stdbuf -o0 ",
    "setsid ",
];

fn arg() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => word().prop_map(|w| shell_quote(&w)),
        1 => prop::sample::select(EXPANSIONS).prop_map(str::to_string),
    ]
}

fn verb() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => word().prop_map(|w| shell_quote(&w)),
        1 => prop::sample::select(VERB_EXPANSIONS).prop_map(str::to_string),
    ]
}

/// One simple segment, maybe behind assignments or a wrapper, with a
/// redirection or a nested command.
fn simple_segment() -> impl Strategy<Value = String> {
    let words = (verb(), prop::collection::vec(arg(), 0..4)).prop_map(|(v, mut w)| {
        w.insert(0, v);
        w.join(" ")
    });
    (
        prop::sample::select(PREFIXES),
        words,
        prop::sample::select(
            &[
                "",
                "",
                "",
                " 2>/dev/null",
                " > /etc/x",
                " > out",
                " < ../in",
                " >> .git/config",
                " < permissions.json",
            ][..],
        ),
        prop::option::weighted(0.15, prop::collection::vec(arg(), 1..3)),
    )
        .prop_map(|(wrap, words, redir, nested)| {
            let nested = nested
                .map(|n| format!(" $({})", n.join(" ")))
                .unwrap_or_default();
            format!("{wrap}{words}{nested}{redir}")
        })
}

/// A directory move (SPEC §6.2): `cd`, `pushd`, `popd`, with or without
/// CDPATH.
fn dir_segment() -> impl Strategy<Value = String> {
    (
        prop::sample::select(
            &[
                "cd",
                "cd",
                "pushd",
                "popd",
                "CDPATH=x cd",
                "X=1 cd",
                "cd -P",
            ][..],
        ),
        prop::sample::select(
            &[
                "src",
                "..",
                "../..",
                "/p/src",
                "/etc",
                "/tmp",
                "$D",
                "-",
                "",
                "~",
                "../x",
                "src/../..",
                "+1",
            ][..],
        ),
    )
        .prop_map(|(v, d)| format!("{v} {d}").trim_end().to_string())
}

/// `find … -exec CMD … ;|+` (SPEC §4.3).
fn find_segment() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(arg(), 1..3),
        prop::sample::select(&[" \\;", " {} +", " {} \\;"][..]),
    )
        .prop_map(|(w, end)| format!("find . -exec {}{end}", w.join(" ")))
}

/// One segment of a generated command.
fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => simple_segment(),
        2 => dir_segment(),
        1 => find_segment(),
    ]
}

fn command() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (segment(), prop::collection::vec((prop::sample::select(&[" && ", " | ", "; ", " || ", "&&", " & ", "\n", " |& "][..]), segment()), 0..3))
            .prop_map(|(first, rest)| {
                let mut s = first;
                for (op, seg) in rest {
                    s.push_str(op);
                    s.push_str(&seg);
                }
                s
            }),
        1 => segment().prop_map(|s| format!("bash -c '{}'", s.replace('\'', ""))),
        1 => segment().prop_map(|s| format!("({s}) && {{ {s}; }}")),
        1 => (segment(), segment()).prop_map(|(a, b)| format!("echo $({a}; {b}) && {b}")),
        // SPEC §4.2 round 4: compound commands are read; a shell's -c
        // string is transparent (§4.3).
        1 => (segment(), segment()).prop_map(|(a, b)| format!("if {a}; then {b}; fi")),
        1 => segment().prop_map(|a| format!("for v in src ../x; do {a} $v; done")),
        1 => (segment(), segment()).prop_map(|(a, b)| format!("case x in x) {a};& y) {b};; esac")),
        1 => segment().prop_map(|a| format!("f() {{ {a}; }}; ! {a}")),
        1 => segment().prop_map(|s| format!("bash -lc 'cd src && {}'", s.replace('\'', ""))),
    ]
}

const TYPES: &[&str] = &[
    "terminal",
    "terminal",
    "terminal",
    "terminal",
    "terminal",
    "git_push",
    "git_commit",
    "git_merge",
    "pr_open",
    "instruction_patch",
    "container_remove",
    "spend",
    "parallelize",
    "write_file",
];

fn request() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(TYPES),
        command(),
        prop::sample::select(&["", "/p", "/p/src", "/tmp", "/etc", "/p/src/..", "/p/../q"][..]),
        prop::option::of(prop::sample::select(AGENTS)),
        prop::sample::select(&["viewer", "developer", "maintainer", "owner", "owner"][..]),
        prop::sample::select(&["container", "mounted", "runner"][..]),
        any::<bool>(),
        prop::sample::select(&["main", "refs/heads/dev", "feature/x", "", "HEAD:main", "+x"][..]),
        // write_file's `path` (SPEC §10.1).
        prop::sample::select(
            &[
                "",
                "src/a.ts",
                ".git/config",
                "permissions.json",
                "/etc/x",
                "~/x",
                "../q/x",
                "/p/.GIT",
                "/work/x",
                "/tmp/x",
            ][..],
        ),
    )
        .prop_map(|(t, cmd, cwd, agent, role, mode, running, branch, path)| {
            let mut action = json!({"type": t, "command": cmd});
            if !cwd.is_empty() {
                action["cwd"] = json!(cwd);
            }
            if let Some(a) = agent {
                action["agent"] = json!(a);
            }
            if !branch.is_empty() {
                action["targetBranch"] = json!(branch);
            }
            if !path.is_empty() {
                action["path"] = json!(path);
            }
            json!({"action": action, "context": {"role": role, "executionMode": mode,
                   "containerRunning": running, "projectScopeRoot": "/p"}})
        })
}

fn cases() -> u32 {
    std::env::var("PERMC_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

#[test]
fn differential_random_policies_and_requests() {
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        permissions(),
        autonomy(),
        prop::collection::vec(request(), 1..5),
    );
    runner
        .run(&strategy, |(perms, auto, requests)| {
            let ptext = perms.to_string();
            let atext = auto.to_string();
            let p = load_permissions("permissions.json", ptext.as_bytes());
            let a = load_autonomy("autonomy.json", atext.as_bytes());
            // Generated patterns always parse; a file that does not load is
            // a generator bug worth seeing.
            let (Some(p), Some(a)) = (p.value, a.value) else {
                return Err(TestCaseError::fail(format!(
                    "rules do not load: {ptext} {atext}"
                )));
            };
            let rules = Rules::new(p, a);
            let dfa = compile(&rules.permissions, &rules.autonomy);
            let nfa = compile_nondeterministic(&rules.permissions, &rules.autonomy);
            let bytes = artifact::encode(&dfa, &SourceHashes::default());
            let loaded = artifact::decode(&bytes)
                .map_err(|e| TestCaseError::fail(e.to_string()))?
                .policy;
            for r in &requests {
                let req = Request::from_value(r).map_err(|e| TestCaseError::fail(e.to_string()))?;
                let expect = reference::decide(&rules, &req);
                for (name, policy) in [("dfa", &dfa), ("nfa", &nfa), ("artifact", &loaded)] {
                    let got = compiled::decide(policy, &req);
                    prop_assert_eq!(
                        key(&got),
                        key(&expect),
                        "{} engine on {} with {} {}",
                        name,
                        r,
                        ptext,
                        atext
                    );
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Project rows (permc.toml's `[[command]]`) over the vocabulary's words:
/// each of the three effects, a runner (some of its options taking a
/// value), a shell line, code options.
fn project_rows() -> impl Strategy<Value = ProjectRows> {
    let row = (
        prop::sample::select(&["x", "ls", "cat", "git", "curl", "./x", "src", "pnpm"][..]),
        (any::<bool>(), any::<bool>(), any::<bool>()),
        prop::sample::select(&[None, Some(Runs::Argv), Some(Runs::Shell)][..]),
        prop::collection::vec(
            prop::sample::select(&["-C", "-la", "-rf", "--out"][..]),
            0..2,
        ),
    )
        .prop_map(
            |(name, (external, privileged, code), runs, options)| CommandRow {
                name: name.to_string(),
                effects: Effects {
                    external,
                    privileged,
                    code,
                },
                runs,
                options_with_value: if runs == Some(Runs::Argv) {
                    options.iter().map(|o| o.to_string()).collect()
                } else {
                    Vec::new()
                },
                code_options: if runs == Some(Runs::Argv) {
                    Vec::new()
                } else {
                    options.iter().map(|o| o.to_string()).collect()
                },
                // [round 4] A row that describes its program when it has
                // no effect: its options typed, the rest unplaced (SPEC
                // §4.5 item 6).
                description: Description {
                    complete: !(external || privileged || code) && runs.is_none(),
                    operands: vec!["path-read".into()],
                    options: vec![
                        (Kind::Flag, vec!["-l -a --all".into()]),
                        (
                            Kind::PathWrite,
                            options.iter().map(|o| o.to_string()).collect(),
                        ),
                    ],
                    ..Description::default()
                },
            },
        );
    prop::collection::vec(row, 1..3).prop_map(ProjectRows::new)
}

/// The engines agree with project rows too (issue 29 point 5): the rows
/// reach both through `LineFacts::of_with`, and the artifact keeps them.
#[test]
fn differential_with_project_rows() {
    let mut runner = TestRunner::new(Config {
        cases: cases() / 4,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        permissions(),
        autonomy(),
        project_rows(),
        prop::collection::vec(request(), 1..5),
    );
    runner
        .run(&strategy, |(perms, auto, rows, requests)| {
            let ptext = perms.to_string();
            let atext = auto.to_string();
            let p = load_permissions("permissions.json", ptext.as_bytes());
            let a = load_autonomy("autonomy.json", atext.as_bytes());
            let (Some(p), Some(a)) = (p.value, a.value) else {
                return Err(TestCaseError::fail(format!(
                    "rules do not load: {ptext} {atext}"
                )));
            };
            let rules = Rules::new(p, a).with_project(rows.clone());
            let dfa = compile(&rules.permissions, &rules.autonomy).with_project(rows.clone());
            let bytes = artifact::encode(&dfa, &SourceHashes::default());
            let loaded = artifact::decode(&bytes)
                .map_err(|e| TestCaseError::fail(e.to_string()))?
                .policy;
            for r in &requests {
                let req = Request::from_value(r).map_err(|e| TestCaseError::fail(e.to_string()))?;
                let expect = reference::decide(&rules, &req);
                for (name, policy) in [("dfa", &dfa), ("artifact", &loaded)] {
                    let got = compiled::decide(policy, &req);
                    prop_assert_eq!(
                        key(&got),
                        key(&expect),
                        "{} engine on {} with {} {} {:?}",
                        name,
                        r,
                        ptext,
                        atext,
                        rows
                    );
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

// ---------------------------------------------------------------------
// Exhaustive small universe.

/// Pattern tokens: three exact and one prefix wildcard.
const ALPHABET: &[&str] = &["a", "b", "ab", "a*"];
/// Command words: `abc` is matched only by the wildcard.
const CMD_WORDS: &[&str] = &["a", "b", "ab", "abc"];

/// `Terminal()` and every pattern of 1 or 2 tokens.
fn small_patterns() -> Vec<Pattern> {
    let mut texts = vec!["Terminal()".to_string()];
    for a in ALPHABET {
        texts.push(format!("Terminal({a})"));
        for b in ALPHABET {
            texts.push(format!("Terminal({a} {b})"));
        }
    }
    texts
        .iter()
        .map(|t| Pattern::parse(t).expect("parses"))
        .collect()
}

fn sequences(alphabet: &[&str], max: usize) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    let mut layer = vec![Vec::new()];
    for _ in 0..max {
        let mut next = Vec::new();
        for s in &layer {
            for w in alphabet {
                let mut s2: Vec<String> = s.clone();
                s2.push(w.to_string());
                next.push(s2);
            }
        }
        out.extend(next.iter().cloned());
        layer = next;
    }
    out
}

/// Every policy of up to `n` (list, pattern) entries, in order.
fn policies(patterns: &[Pattern], n: usize, mut each: impl FnMut(&Permissions)) {
    let choices: Vec<(List, &Pattern)> = [List::Deny, List::Ask, List::Allow]
        .into_iter()
        .flat_map(|l| patterns.iter().map(move |p| (l, p)))
        .collect();
    let mut idx: Vec<usize> = Vec::new();
    loop {
        let mut perms = Permissions {
            file: "permissions.json".into(),
            ..Permissions::default()
        };
        for (line, &i) in idx.iter().enumerate() {
            let (list, pattern) = choices[i];
            let target = match list {
                List::Deny => &mut perms.deny,
                List::Ask => &mut perms.ask,
                List::Allow => &mut perms.allow,
            };
            target.push(Entry {
                pattern: pattern.clone(),
                list,
                index: target.len(),
                span: Span::default(),
                location: Location {
                    file: "permissions.json".into(),
                    line: line + 1,
                    column: 1,
                },
            });
        }
        each(&perms);
        // Next index vector: odometer, growing in length up to n.
        let mut k = idx.len();
        loop {
            if k == 0 {
                if idx.len() == n {
                    return;
                }
                idx = vec![0; idx.len() + 1];
                break;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < choices.len() {
                break;
            }
            idx[k] = 0;
        }
    }
}

#[test]
fn exhaustive_first_matches_up_to_3_patterns() {
    let patterns = small_patterns();
    let segments = sequences(CMD_WORDS, 3);
    let mut policies_seen = 0usize;
    policies(&patterns, 3, |perms| {
        policies_seen += 1;
        let dfa = compile(perms, &Default::default());
        for words in &segments {
            let first = |l: &[Entry]| {
                l.iter()
                    .position(|e| e.pattern.matches_words(words))
                    .map(|k| permc_grammar::rules::EntryIx(k as u32))
            };
            let expect = permc_grammar::rules::PerList([
                first(&perms.deny),
                first(&perms.ask),
                first(&perms.allow),
            ]);
            assert_eq!(
                dfa.terminal_matches(words),
                expect,
                "{words:?} under {perms:?}"
            );
        }
    });
    // 63 entries (21 patterns × 3 lists): 1 + 63 + 63² + 63³ policies.
    assert_eq!(policies_seen, 1 + 63 + 63 * 63 + 63 * 63 * 63);
}

/// Terminal requests for every command of 1 or 2 segments (`&&`) whose
/// segments have 1 to `max_words` words over `words`, with at most
/// `max_total` words in all; each plain and in automatic mode in a running
/// container (where compound.uncovered is dropped).
fn small_requests(words: &[&str], max_words: usize, max_total: usize) -> Vec<Request<'static>> {
    let segs: Vec<Vec<String>> = sequences(words, max_words)
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    let mut commands: Vec<String> = segs.iter().map(|s| s.join(" ")).collect();
    for a in &segs {
        for b in &segs {
            if a.len() + b.len() <= max_total {
                commands.push(format!("{} && {}", a.join(" "), b.join(" ")));
            }
        }
    }
    let mut out = Vec::new();
    for c in &commands {
        for (agent, mode, running) in [(None, "runner", false), (Some("dev-x"), "container", true)]
        {
            let mut action = json!({"type": "terminal", "command": c, "cwd": "/p"});
            if let Some(a) = agent {
                action["agent"] = json!(a);
            }
            let v = json!({"action": action, "context": {"role": "developer", "executionMode": mode,
                           "containerRunning": running, "projectScopeRoot": "/p"}});
            out.push(Request::from_value(&v).expect("valid request").into_owned());
        }
    }
    out
}

fn exhaustive_decisions(patterns: &[Pattern], n_patterns: usize, requests: &[Request]) -> usize {
    let auto = load_autonomy("autonomy.json", br#"{"dev-x": {"*": "auto_approve"}}"#)
        .value
        .expect("loads");
    let mut checked = 0;
    policies(patterns, n_patterns, |perms| {
        let rules = Rules::new(perms.clone(), auto.clone());
        let dfa = compile(&rules.permissions, &rules.autonomy);
        for req in requests {
            assert_same(&rules, &[&dfa], req, &|| {
                format!("{:?} under {perms:?}", req.action.command)
            });
            checked += 1;
        }
    });
    checked
}

/// Every policy of up to 3 entries drawn from `Terminal()`, `a`, `a*`,
/// `a b` in any list, against every command of up to 3 words in 1 or 2
/// segments over `a`, `b`, `abc` (`abc` only the wildcard matches).
#[test]
fn exhaustive_decisions_up_to_3_patterns() {
    let patterns: Vec<Pattern> = ["Terminal()", "Terminal(a)", "Terminal(a*)", "Terminal(a b)"]
        .iter()
        .map(|t| Pattern::parse(t).expect("parses"))
        .collect();
    let requests = small_requests(&["a", "b", "abc"], 3, 3);
    let n = exhaustive_decisions(&patterns, 3, &requests);
    assert_eq!(n, (1 + 12 + 144 + 1728) * requests.len());
}

/// The full universe: the 21 patterns of [`small_patterns`] (up to 3
/// entries, 254,080 policies) against every command of up to 3 words over
/// `a`, `b`, `ab`, `abc` in 1 or 2 segments (456 requests): about 116
/// million decisions per engine: 571 s in release on the machine of the
/// docs/performance.md (all equal).
#[test]
#[ignore = "about 10 minutes in release; cargo test --release --test equivalence -- --ignored"]
fn exhaustive_decisions_full_universe() {
    let requests = small_requests(CMD_WORDS, 3, 3);
    exhaustive_decisions(&small_patterns(), 3, &requests);
}

// ---------------------------------------------------------------------
// Round trip.

#[test]
fn artifact_round_trip_decides_the_same() {
    let ptext = br#"{"allow": ["Terminal(pnpm test:*)", "Terminal(cd)", "GitCommit()", "Terminal(git status)"],
        "deny": ["Terminal(curl)", "Terminal(pnpm test:e2e)"], "ask": ["Terminal(git push)", "GitPush()"]}"#;
    let atext = br#"{"dev-api": {"*": "auto_approve", "terminal": "require_approval"}, "dev-web": {"git_commit": "auto_approve"}}"#;
    let rules = Rules::new(
        load_permissions("permissions.json", ptext)
            .value
            .expect("loads"),
        load_autonomy("autonomy.json", atext).value.expect("loads"),
    );
    let policy = compile(&rules.permissions, &rules.autonomy);
    let sources = SourceHashes::of(Some(ptext), Some(atext));
    let dir = std::env::temp_dir().join(format!("permc-equivalence-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("policy.permc");
    std::fs::write(&file, artifact::encode(&policy, &sources)).expect("write");
    let loaded = artifact::decode(&std::fs::read(&file).expect("read")).expect("loads");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(loaded.sources, sources);
    assert_eq!(loaded.policy, policy);
    let mut runner = TestRunner::new(Config {
        cases: 2_000,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&request(), |r| {
            let req = Request::from_value(&r).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let a = compiled::decide(&policy, &req);
            let b = compiled::decide(&loaded.policy, &req);
            // The whole decision, message included.
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(key(&a), key(&reference::decide(&rules, &req)));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

// ---------------------------------------------------------------------
// The artifact through the CLI: a damaged or stale one is exit 2, never a
// decision (SPEC §9).

#[test]
fn cli_refuses_corrupt_truncated_other_version_and_stale_artifacts() {
    let permc = env!("CARGO_BIN_EXE_permc");
    let dir = std::env::temp_dir().join(format!("permc-artifact-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let perms = dir.join("permissions.json");
    let auto = dir.join("autonomy.json");
    let art = dir.join("policy.permc");
    std::fs::write(&perms, r#"{"allow": ["Terminal(pnpm test)"]}"#).expect("write");
    std::fs::write(&auto, r#"{"dev-api": {"*": "auto_approve"}}"#).expect("write");
    let run = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new(permc)
            .args(args)
            .output()
            .expect("permc runs")
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    let out = run(&[
        &os("compile"),
        &os("--permissions"),
        perms.as_os_str(),
        &os("--autonomy"),
        auto.as_os_str(),
        &os("-o"),
        art.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let req = r#"{"action": {"type": "terminal", "command": "pnpm test"}, "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": "/p"}}"#;
    let decide = |artifact: &std::path::Path, extra: &[&std::ffi::OsStr]| {
        let mut args: Vec<&std::ffi::OsStr> = vec![
            std::ffi::OsStr::new("decide"),
            std::ffi::OsStr::new("--policy"),
            artifact.as_os_str(),
        ];
        args.extend_from_slice(extra);
        args.push(std::ffi::OsStr::new("--request"));
        args.push(std::ffi::OsStr::new(req));
        run(&args)
    };
    // The good artifact decides, alone and with its own sources.
    let ok = decide(&art, &[]);
    assert!(ok.status.success());
    assert!(String::from_utf8_lossy(&ok.stdout).contains(r#""reason":"file.allow""#));
    let ok = decide(
        &art,
        &[
            &os("--permissions"),
            perms.as_os_str(),
            &os("--autonomy"),
            auto.as_os_str(),
        ],
    );
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );

    let bytes = std::fs::read(&art).expect("read");
    let bad = dir.join("bad.permc");
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    let mut version = bytes.clone();
    version[8] = 99;
    for (what, content, expect) in [
        ("truncated", bytes[..bytes.len() / 2].to_vec(), "truncated"),
        ("corrupt", flipped, "corrupt"),
        ("other version", version, "version 99"),
        ("not an artifact", b"{}".to_vec(), "not a permc artifact"),
    ] {
        std::fs::write(&bad, content).expect("write");
        let out = decide(&bad, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(out.stdout.is_empty(), "{what}: no decision may be printed");
        assert!(err.contains(expect), "{what}: {err}");
    }
    // Stale: the rule file changed since the artifact was compiled.
    std::fs::write(
        &perms,
        r#"{"allow": ["Terminal(pnpm test)", "Terminal(ls)"]}"#,
    )
    .expect("write");
    let out = decide(&art, &[&os("--permissions"), perms.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("stale"));
    let _ = std::fs::remove_dir_all(&dir);
}
