//! What each fuzz target asserts, one function per target.
//!
//! This file is compiled twice: by the fuzz crate (nightly, libFuzzer,
//! `cfg(fuzzing)`) and by the stable test suite (`tests/fuzz_replay.rs`,
//! through `#[path]`), which replays every committed corpus file and every
//! past finding. So it uses only the core crates, `serde_json` and
//! `arbitrary`.
//!
//! The invariants, for every input:
//! - no reader panics, overflows the stack or runs in more than linear
//!   time, and neither does a whole decision in either engine (the shell
//!   target decides an amplified input, on stable too, and bounds the time
//!   per byte under `cfg(fuzzing)` only: a timed assertion has no place in
//!   the ordinary test suite);
//! - a rule file that loads compiles, survives the artifact round trip,
//!   and decides the same in both engines;
//! - a mutated artifact is refused with an error or decodes to exactly
//!   the policy it was written from (the body hash), never to another;
//! - the analyzer renders every output format, and the JSON ones parse;
//! - compiled ≡ reference on the whole decision, message included.

#[path = "reading.rs"]
mod reading;

use arbitrary::{Arbitrary, Unstructured};
use permc_compiler::artifact::{self, SourceHashes};
use permc_compiler::compile;
use permc_compiler::compiled;
use permc_core::facts::LineFacts;
use permc_core::{reference, Request, Rules};
use permc_grammar::pattern::Pattern;
use permc_grammar::rules::{load_autonomy, load_permissions, Autonomy, Permissions};
use permc_grammar::shell;
use serde_json::{json, Value};

/// Text for the readers: the input as UTF-8, lossily (a reader takes `&str`).
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Shell reader (SPEC §4): what [`reading::reading`] holds (no panic, the
/// readers agree, the facts read), and reading and deciding stay linear
/// (see [`linear_time`]).
pub fn shell(data: &[u8]) {
    reading::reading(&text(data));
    linear_time(data);
}

/// A quadratic path is a finding: one input in 64 is repeated to about
/// 64 KiB — as is, and numbered (each copy followed by its index, so that
/// the words differ: `$a;0$a;1…` holds as many distinct expansions) —
/// read (with its facts) and decided whole by both engines, which must
/// agree — under a policy that reaches every stage, in the runner
/// mode (scope) and in automatic mode. Under the fuzzer's instrumentation
/// each must take under 20 µs per byte — about 1.3 s, where a quadratic
/// path over 64 KiB (`cd x;`, `ls;`, `a;` repeated: a per-segment scan of
/// every segment's runs) takes minutes. On stable the inputs are replayed
/// untimed: a quadratic path shows as a slow replay, never as a flaky
/// failure.
fn linear_time(data: &[u8]) {
    if data.is_empty() || !data[0].is_multiple_of(64) {
        return;
    }
    let times = (64 * 1024 / data.len()).max(1);
    let src = text(data);
    let mut numbered = String::with_capacity(64 * 1024 + 16);
    for k in 0.. {
        if numbered.len() >= 64 * 1024 {
            break;
        }
        numbered.push_str(&src);
        numbered.push_str(&k.to_string());
    }
    for big in [src.repeat(times), numbered] {
        linear_on(&big);
    }
}

/// Shapes once quadratic (issue 33: a scan of the words before each
/// word), amplified by [`amplified_shapes`]; also in `fuzz/dict/shell.dict`.
pub const HOSTILE_SHAPES: &[&str] = &["a=$b ", "a=b$c ", "A=`ls` ", "a=${b} ", "A=$(ls) "];

/// [`linear_on`] on each of [`HOSTILE_SHAPES`] repeated to 64 KiB (the
/// stable replay runs it untimed; under the fuzzer it is timed).
pub fn amplified_shapes() {
    for shape in HOSTILE_SHAPES {
        linear_on(&shape.repeat(64 * 1024 / shape.len()));
    }
}

/// [`linear_time`] on one amplified line.
pub fn linear_on(big: &str) {
    let timed = |what: &str, f: &mut dyn FnMut()| {
        let start = std::time::Instant::now();
        f();
        let took = start.elapsed();
        #[cfg(fuzzing)]
        {
            let bound = std::time::Duration::from_micros(20 * big.len() as u64 + 50_000);
            assert!(
                took <= bound,
                "{what} of {} bytes took {took:?} (bound {bound:?}): not linear",
                big.len()
            );
        }
        let _ = (what, took);
    };
    timed("reading", &mut || {
        let _ = LineFacts::of(big);
    });
    let (rules, policy) = linear_policy();
    for (agent, mode) in [("dev-web", "runner"), ("dev-api", "container")] {
        let req = json!({
            "action": {"type": "terminal", "command": big, "agent": agent},
            "context": {"role": "developer", "executionMode": mode,
                        "containerRunning": true, "projectScopeRoot": "/p"},
        });
        let Ok(req) = Request::from_value(&req) else {
            continue;
        };
        let mut expect = None;
        timed("the reference decision", &mut || {
            expect = Some(reference::decide(&rules, &req));
        });
        let mut got = None;
        timed("the compiled decision", &mut || {
            got = Some(compiled::decide(&policy, &req));
        });
        assert_eq!(got, expect, "compiled vs reference on an amplified line");
    }
}

/// The policy [`linear_time`] decides under: every list with terminal
/// entries (also ones read past wrappers and through unknown words), and
/// an automatic-mode agent.
fn linear_policy() -> (Rules, permc_compiler::CompiledPolicy) {
    let perms = load_permissions(
        "permissions.json",
        br#"{"allow": ["Terminal(cd)", "Terminal(ls)", "Terminal(cat)", "Terminal(a)", "Terminal(git status)"],
             "deny": ["Terminal(curl)", "Terminal(git push)"], "ask": ["Terminal(rm)"]}"#,
    )
    .value
    .expect("the fixed policy loads");
    let auto = load_autonomy("autonomy.json", br#"{"dev-api": {"*": "auto_approve"}}"#)
        .value
        .expect("the fixed autonomy loads");
    let policy = compile(&perms, &auto);
    (Rules::new(perms, auto), policy)
}

/// Pattern reader (SPEC §3.1): never panics; a pattern that parses parses
/// again from its own text to the same pattern, and matching it against
/// the words of any line never panics.
pub fn pattern(data: &[u8]) {
    let src = text(data);
    if let Ok(p) = Pattern::parse(&src) {
        let again = Pattern::parse(&p.text).expect("a parsed pattern's text parses");
        assert_eq!(again, p);
        if let Some(content) = src.find('(').map(|i| &src[i + 1..]) {
            for seg in shell::read(content).segments {
                let _ = p.matches_words(&seg.words);
            }
        }
    }
}

/// The requests the rule-file targets decide, chosen to reach every stage.
const PROBES: &[&str] = &[
    r#"{"action":{"type":"terminal","command":"git status && pnpm test","agent":"dev-api"},"context":{"role":"developer","executionMode":"runner","projectScopeRoot":"/p"}}"#,
    r#"{"action":{"type":"terminal","command":"rm -rf build; cd src && npm run x","agent":"dev-web"},"context":{"role":"owner","executionMode":"container","containerRunning":true,"projectScopeRoot":"/p"}}"#,
    r#"{"action":{"type":"git_commit","agent":"dev-api"},"context":{"role":"developer"}}"#,
    r#"{"action":{"type":"git_merge","targetBranch":"main","agent":"dev-api"},"context":{"role":"owner"}}"#,
    r#"{"action":{"type":"spend"},"context":{"role":"owner"}}"#,
];

fn probes() -> Vec<Request<'static>> {
    PROBES
        .iter()
        .map(|p| Request::from_json(p).expect("a probe request reads"))
        .collect()
}

/// Both engines, and the artifact round trip, decide `reqs` the same.
fn same_everywhere(perms: &Permissions, auto: &Autonomy, reqs: &[Request]) {
    let policy = compile(perms, auto);
    let bytes = artifact::encode(&policy, &SourceHashes::default());
    let loaded = artifact::decode(&bytes).expect("a fresh artifact decodes");
    assert_eq!(loaded.policy, policy, "artifact round trip");
    let rules = Rules::new(perms.clone(), auto.clone());
    for req in reqs {
        let expect = reference::decide(&rules, req);
        assert_eq!(
            compiled::decide(&policy, req),
            expect,
            "compiled vs reference on {req:?}"
        );
    }
}

/// Rule-file loaders (SPEC §2): the input as permissions.json and as
/// autonomy.json; whatever loads compiles and decides the same in both
/// engines.
pub fn rules(data: &[u8]) {
    let perms = load_permissions("permissions.json", data);
    let auto = load_autonomy("autonomy.json", data);
    if perms.value.is_some() || auto.value.is_some() {
        let p = perms.value.unwrap_or_default();
        let a = auto.value.unwrap_or_default();
        same_everywhere(&p, &a, &probes());
    }
}

/// Request reader (SPEC §10.1): never panics; its plain-JSON scanner
/// agrees with serde_json; a request that reads is decided the same by
/// both engines under a policy that uses every list.
pub fn request(data: &[u8]) {
    // The plain scanner reads exactly what serde_json reads, or gives way.
    let text = text(data);
    permc_core::request::assert_plain_scanner_agrees(&text);
    let Ok(req) = Request::from_json(&text) else {
        return;
    };
    let perms = load_permissions(
        "permissions.json",
        br#"{"allow": ["Terminal(git status)", "Terminal(pnpm test:*)", "Terminal(cd)", "GitCommit()"],
             "deny": ["Terminal(curl)", "Spend()"], "ask": ["Terminal(git push)", "GitMerge()"]}"#,
    )
    .value
    .expect("the fixed policy loads");
    let auto = load_autonomy(
        "autonomy.json",
        br#"{"dev-api": {"*": "auto_approve"}, "dev-web": {"terminal": "require_approval"}}"#,
    )
    .value
    .expect("the fixed autonomy loads");
    same_everywhere(&perms, &auto, &[req]);
}

/// Artifact loader (SPEC §9): arbitrary bytes never panic; and the input
/// read as edits (offset, xor) to a real artifact either is refused or
/// decodes to exactly the policy written.
pub fn artifact(data: &[u8]) {
    let _ = artifact::decode(data);
    let perms = load_permissions(
        "permissions.json",
        br#"{"allow": ["Terminal(git status)", "Terminal(pnpm test:*)"], "deny": ["Terminal(curl)"], "ask": ["GitPush()"]}"#,
    )
    .value
    .expect("the fixed policy loads");
    let auto = load_autonomy("autonomy.json", br#"{"dev-api": {"*": "auto_approve"}}"#)
        .value
        .expect("the fixed autonomy loads");
    let policy = compile(&perms, &auto);
    let mut bytes = artifact::encode(&policy, &SourceHashes::default());
    if bytes.is_empty() {
        return;
    }
    let mut edited = false;
    for edit in data.chunks_exact(3) {
        let at = usize::from(u16::from_le_bytes([edit[0], edit[1]])) % bytes.len();
        if edit[2] != 0 {
            bytes[at] ^= edit[2];
            edited = true;
        }
    }
    // A length cut is a mutation too.
    if data.len() % 3 == 1 {
        let keep = usize::from(data[data.len() - 1]) * bytes.len() / 256;
        bytes.truncate(keep);
        edited = true;
    }
    match artifact::decode(&bytes) {
        Ok(a) => assert!(
            a.policy == policy,
            "a mutated artifact (edited: {edited}) decoded to another policy"
        ),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// Analyzer (SPEC §11): the input as either rule file, every output
/// format rendered; the JSON and SARIF outputs are JSON.
pub fn analyzer(data: &[u8]) {
    use permc_analyzer::output::{self, Source};
    for name in ["permissions.json", "autonomy.json", "rules.json"] {
        let diags = permc_analyzer::check_file(name, data, None, &Default::default());
        let sources = [Source {
            name: name.to_string(),
            text: text(data).into_owned(),
        }];
        let _ = output::human(&diags, &sources, false);
        let _ = output::human(&diags, &sources, true);
        let _ = output::github(&diags, &sources);
        let _ = output::summary(&diags);
        for json in [
            output::json(&diags, &sources),
            output::sarif(&diags, &sources),
        ] {
            serde_json::from_str::<Value>(&json).expect("JSON output parses");
        }
    }
}

/// Pieces of commands and patterns made to collide: verbs, wrappers,
/// assignments, expansions, paths, operators.
const WORDS: &[&str] = &[
    "git",
    "push",
    "status",
    "-C",
    "/tmp",
    "pnpm",
    "test",
    "test:unit",
    "npm",
    "run",
    "rm",
    "-rf",
    "-fr",
    "-r",
    "--force",
    "/",
    "/*",
    "cd",
    "src",
    "..",
    "../x",
    "/etc/x",
    "ls",
    "cat",
    "x",
    "sudo",
    "-u",
    "root",
    "env",
    "X=1",
    "PATH=/x",
    "command",
    "nohup",
    "timeout",
    "5",
    "bash",
    "-c",
    "curl",
    "gh",
    "api",
    "-XPOST",
    "kubectl",
    "apply",
    "find",
    "-exec",
    "{}",
    ";",
    "xargs",
    "$c",
    "\"$c\"",
    "${X}",
    "$(curl x)",
    "`ls`",
    "~/x",
    "--out=/etc/x",
    "/usr/bin/git",
    "eval",
    "source",
    "cargo",
    "+nightly",
    "publish",
];
const OPS: &[&str] = &[
    " ",
    " ",
    " ",
    " && ",
    " | ",
    "; ",
    " || ",
    " & ",
    "\n",
    " 2>/dev/null ",
    " > /etc/x ",
];
const PATTERN_EXTRA: &[&str] = &["*", "a*", "te*", "'git push'", "src/*", "g*"];

/// One policy and one request, structured.
#[derive(Debug)]
struct Case {
    lists: [Vec<String>; 3],
    autonomy: Value,
    request: Value,
}

fn pick<'a>(u: &mut Unstructured<'_>, from: &[&'a str]) -> arbitrary::Result<&'a str> {
    Ok(from[u.choose_index(from.len())?])
}

fn words(u: &mut Unstructured<'_>, max: usize, extra: &[&str]) -> arbitrary::Result<Vec<String>> {
    let n = u.int_in_range(0..=max)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(if !extra.is_empty() && u.ratio(1, 5)? {
            pick(u, extra)?.to_string()
        } else {
            pick(u, WORDS)?.to_string()
        });
    }
    Ok(out)
}

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Case> {
        const LABELS: &[&str] = &[
            "GitPush()",
            "GitCommit()",
            "GitMerge()",
            "Spend()",
            "GitPush(x)",
        ];
        let mut lists: [Vec<String>; 3] = Default::default();
        for list in &mut lists {
            for _ in 0..u.int_in_range(0..=4)? {
                list.push(if u.ratio(1, 6)? {
                    pick(u, LABELS)?.to_string()
                } else {
                    format!("Terminal({})", words(u, 3, PATTERN_EXTRA)?.join(" "))
                });
            }
        }
        const MODES: &[&str] = &["auto_approve", "require_approval", "deny"];
        const KEYS: &[&str] = &["*", "terminal", "git_push", "git_merge"];
        let mut rules = serde_json::Map::new();
        for _ in 0..u.int_in_range(0..=2)? {
            rules.insert(pick(u, KEYS)?.to_string(), json!(pick(u, MODES)?));
        }
        let autonomy = json!({ "dev-a": rules });
        let mut command = String::new();
        for i in 0..u.int_in_range(1..=3)? {
            if i > 0 {
                command.push_str(pick(u, OPS)?);
            }
            command.push_str(&words(u, 4, &[])?.join(" "));
        }
        const TYPES: &[&str] = &[
            "terminal",
            "terminal",
            "terminal",
            "git_push",
            "git_merge",
            "git_commit",
        ];
        const ROLES: &[&str] = &["viewer", "developer", "maintainer", "owner"];
        const MODES_EXEC: &[&str] = &["container", "mounted", "runner"];
        const CWDS: &[&str] = &["/home/p", "/home/p/src", "/tmp", "/work"];
        let mut action = json!({"type": pick(u, TYPES)?, "command": command});
        if u.arbitrary()? {
            action["agent"] = json!("dev-a");
        }
        if u.arbitrary()? {
            action["cwd"] = json!(pick(u, CWDS)?);
        }
        if u.arbitrary()? {
            action["targetBranch"] = json!(pick(u, &["main", "feature/x", "origin/MAIN", ""])?);
        }
        let request = json!({
            "action": action,
            "context": {
                "role": pick(u, ROLES)?,
                "executionMode": pick(u, MODES_EXEC)?,
                "containerRunning": u.arbitrary::<bool>()?,
                "projectScopeRoot": "/home/p",
            }
        });
        Ok(Case {
            lists,
            autonomy,
            request,
        })
    }
}

/// Compiled ≡ reference (SPEC §9) on a structured policy and request: the
/// whole decision, message included.
pub fn differential(data: &[u8]) {
    let Ok(case) = Case::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let perms = json!({"deny": case.lists[0], "ask": case.lists[1], "allow": case.lists[2]});
    let Some(perms) = load_permissions("permissions.json", perms.to_string().as_bytes()).value
    else {
        return;
    };
    let Some(auto) = load_autonomy("autonomy.json", case.autonomy.to_string().as_bytes()).value
    else {
        return;
    };
    let Ok(req) = Request::from_value(&case.request) else {
        return;
    };
    // No artifact round trip here (the `rules` and `artifact` targets
    // check it): it doubled the cost of an execution.
    let policy = compile(&perms, &auto);
    let expect = reference::decide(&Rules::new(perms, auto), &req);
    assert_eq!(
        compiled::decide(&policy, &req),
        expect,
        "compiled vs reference on {req:?}"
    );
}
