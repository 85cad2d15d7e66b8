//! Always allow (SPEC §7): the derivation case by case, its properties
//! (proptest), and `permc always` end to end — output, safe writes, 32
//! concurrent writers, killed writers.
//!
//! Set `PERMC_ALWAYS_CASES=N` for more proptest cases (default 512).

use permc_core::always::{derive, Derivation, Refusal, Unit, REFUSED_TYPES};
use permc_core::facts::LineFacts;
use permc_core::{reference, Reason, Request, Rules};
use permc_grammar::pattern::{PatToken, Pattern, PatternBody};
use permc_grammar::rules::{load_autonomy, load_permissions};
use permc_grammar::{ActionType, Policy};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

#[path = "support/files.rs"]
mod files;
use files::{allow_of, ok_json, scratch};

const PERMC: &str = env!("CARGO_BIN_EXE_permc");

// ---------------------------------------------------------------- helpers

fn request_json(kind: &str, command: Option<&str>, agent: Option<&str>) -> Value {
    let mut a = json!({"type": kind});
    if let Some(c) = command {
        a["command"] = c.into();
    }
    if let Some(g) = agent {
        a["agent"] = g.into();
    }
    json!({"action": a, "context": {"role": "owner", "executionMode": "runner",
        "projectScopeRoot": "/home/ana/p"}})
}

fn request(kind: &str, command: Option<&str>, agent: Option<&str>) -> Request<'static> {
    Request::from_value(&request_json(kind, command, agent))
        .expect("request reads")
        .into_owned()
}

fn terminal(cmd: &str) -> Derivation {
    derive(&request("terminal", Some(cmd), None).action)
}

fn patterns(cmd: &str) -> Vec<String> {
    match terminal(cmd) {
        Derivation::Patterns(p) => p.into_iter().map(|r| r.pattern).collect(),
        other => panic!("`{cmd}`: expected patterns, got {other:?}"),
    }
}

fn permc(args: &[&str]) -> Output {
    Command::new(PERMC).args(args).output().expect("permc runs")
}

fn always_write(perms: &Path, command: &str) -> Command {
    let mut c = Command::new(PERMC);
    c.args(["always", "--write", "--permissions"])
        .arg(perms)
        .arg("--request")
        .arg(request_json("terminal", Some(command), None).to_string());
    c
}

// ------------------------------------------------------- the derivation

/// SPEC §7 step 5, case by case: command → patterns, in order.
const CASES: &[(&str, &[&str])] = &[
    // The spec's examples.
    ("ls -la src", &["Terminal(ls -la src)"]),
    ("npm test", &["Terminal(npm test)"]),
    ("git status", &["Terminal(git status)"]),
    ("npx vitest", &["Terminal(npx vitest)"]),
    ("cat src/x.ts", &["Terminal(cat)"]),
    ("cd ../lib", &["Terminal(cd)"]),
    ("git remote -v", &["Terminal(git remote -v)"]),
    ("gh pr list", &["Terminal(gh pr list)"]),
    ("git", &[]),
    (
        "cd src/app && npm test",
        &["Terminal(cd)", "Terminal(npm test)"],
    ),
    // n = 1.
    ("ls", &["Terminal(ls)"]),
    ("pytest", &["Terminal(pytest)"]),
    // t2 a flag: the whole segment.
    ("pytest -x tests", &["Terminal(pytest -x tests)"]),
    ("cat - ", &["Terminal(cat -)"]),
    (
        "npm --prefix web test",
        &["Terminal(npm --prefix web test)"],
    ),
    ("git -C sub status", &["Terminal(git -C sub status)"]),
    ("git --version", &["Terminal(git --version)"]),
    // SPEC §7 round 3: a unit whose next word is a mutating continuation
    // (§6.5) is the whole segment, else it would not cover it (§3.2).
    ("git branch -D x", &["Terminal(git branch -D x)"]),
    ("git stash drop", &["Terminal(git stash drop)"]),
    ("git branch -v newb", &["Terminal(git branch -v newb)"]),
    // SPEC §6.4 round 4: `Terminal(git stash)` would lift `git stash`
    // (push), a worktree move: the whole segment.
    ("git stash list", &["Terminal(git stash list)"]),
    ("git branch -a", &["Terminal(git branch)"]),
    // t2 a word [A-Za-z][A-Za-z0-9_:-]*.
    ("npx vitest run src", &["Terminal(npx vitest)"]),
    ("pnpm test:unit --watch", &["Terminal(pnpm test:unit)"]),
    (
        "git for-each-ref refs/heads",
        &["Terminal(git for-each-ref)"],
    ),
    ("make build_all", &["Terminal(make build_all)"]),
    ("cat README", &["Terminal(cat README)"]),
    ("kubectl get pods", &["Terminal(kubectl get pods)"]),
    ("docker ps -a", &["Terminal(docker ps)"]),
    ("cargo build --release", &["Terminal(cargo build)"]),
    // Otherwise t1.
    ("go test ./...", &["Terminal(go test)"]),
    ("python3 script.py", &["Terminal(python3 script.py)"]),
    ("echo 42", &["Terminal(echo)"]),
    ("grep TODO src/a.ts", &["Terminal(grep TODO)"]),
    ("node 1x", &["Terminal(node 1x)"]),
    ("tar xzf a.tgz", &["Terminal(tar xzf)"]),
    ("cat _x", &["Terminal(cat)"]),
    ("cat ''", &["Terminal(cat)"]),
    // The unit would be a prefix of a ceiling entry: the whole segment.
    (
        "git remote show origin",
        &["Terminal(git remote show origin)"],
    ),
    ("gh pr view 12", &["Terminal(gh pr view 12)"]),
    ("gh release list", &["Terminal(gh release list)"]),
    ("glab ci status", &["Terminal(glab ci status)"]),
    ("git remote", &[]),
    ("kubectl", &[]),
    ("docker", &[]),
    ("cargo", &[]),
    ("npm", &[]),
    ("terraform", &[]),
    ("git x.y", &["Terminal(git x.y)"]),
    ("npm ./x", &["Terminal(npm ./x)"]),
    // … read past assignments and wrappers (SPEC §4.3).
    (
        "/usr/bin/git remote -v",
        &["Terminal(/usr/bin/git remote -v)"],
    ),
    ("/usr/bin/git", &[]),
    ("FOO=1 npm test", &["Terminal(FOO=1 npm test)"]),
    // Leading assignments: the whole segment (what runs depends on them).
    ("FOO=1 ls src", &["Terminal(FOO=1 ls src)"]),
    ("X=1 rm x", &["Terminal(X=1 rm x)"]),
    ("X=1 curl a.b", &["Terminal(X=1 curl a.b)"]),
    ("LC_ALL=C make build", &["Terminal(LC_ALL=C make build)"]),
    // SPEC §4.2 round 4: an `if` or a `for` records its commands; a `for`
    // variable stands for each of its words.
    (
        "if test -f x; then cat x; fi",
        &["Terminal(test -f x)", "Terminal(cat x)"],
    ),
    (
        "for f in a b; do git diff $f; done",
        &["Terminal(git diff)"],
    ),
    // SPEC §7 round 4: a transparent shell records the commands of its
    // string; another shell is recorded whole.
    ("bash -lc 'npm test'", &["Terminal(npm test)"]),
    (
        "bash -c 'cd pkg && git status'",
        &["Terminal(cd pkg)", "Terminal(git status)"],
    ),
    ("zsh -c 'npm test'", &["Terminal(zsh -c 'npm test')"]),
    // SPEC §4.3 round 4: xargs with no command runs `echo`.
    (
        "git show | xargs",
        &["Terminal(git show)", "Terminal(xargs)", "Terminal(echo)"],
    ),
    ("A=1 B=2 cat x", &["Terminal(A=1 B=2 cat x)"]),
    ("FOO=1", &[]),
    ("env FOO=1 npm test", &["Terminal(env FOO=1 npm test)"]),
    ("env", &[]),
    ("nice git status", &["Terminal(nice git status)"]),
    ("timeout 5 npm test", &["Terminal(timeout 5 npm test)"]),
    ("time cargo test", &["Terminal(time cargo test)"]),
    ("xargs grep x", &["Terminal(xargs grep x)"]),
    ("nohup", &[]),
    // Redirections are not words; nested segments count; inner lines of
    // `sh -c` do not (they are one word of their segment).
    ("cat x 2>/dev/null", &["Terminal(cat x)"]),
    (
        "make 2>&1 | tee build.log",
        &["Terminal(make)", "Terminal(tee)"],
    ),
    (
        "echo $(git rev-parse HEAD)",
        &["Terminal(echo)", "Terminal(git rev-parse)"],
    ),
    (
        "(cd web; pnpm install)",
        &["Terminal(cd web)", "Terminal(pnpm install)"],
    ),
    (
        "diff <(ls a) <(ls b)",
        &["Terminal(diff)", "Terminal(ls a)", "Terminal(ls b)"],
    ),
    ("bash -c 'npm test'", &["Terminal(npm test)"]),
    (
        "dash -c 'npm test &> out'",
        &["Terminal(dash -c 'npm test &> out')"],
    ),
    ("> out.txt", &[]),
    ("", &[]),
    // Order kept, duplicates dropped.
    ("npm test && npm test", &["Terminal(npm test)"]),
    (
        "npm test --watch; ls; npm test",
        &["Terminal(npm test)", "Terminal(ls)"],
    ),
    (
        "ls src | wc -l && ls",
        &["Terminal(ls src)", "Terminal(wc -l)", "Terminal(ls)"],
    ),
    // Rendering: shell quoting where needed, a trailing `*` escaped.
    ("grep -r 'a b' src", &["Terminal(grep -r 'a b' src)"]),
    ("rm -f 'x*'", &["Terminal(rm -f x\\*)"]),
    ("rm -f x\\*", &["Terminal(rm -f x\\*)"]),
    ("ls -d '*'", &["Terminal(ls -d \\*)"]),
    ("ls -d 'a b*'", &["Terminal(ls -d 'a b'\\*)"]),
    ("ls -d 'src/*'", &["Terminal(ls -d src/\\*)"]),
    ("ls -d '*.ts'", &["Terminal(ls -d '*.ts')"]),
    ("find . -name '*.ts'", &["Terminal(find . -name '*.ts')"]),
    // SPEC §7 [hardening]: a verb that runs code or destroys never generalizes.
    ("sh build.sh", &["Terminal(sh build.sh)"]),
    ("env X=1 make", &["Terminal(env X=1 make)"]),
    ("npx ./x.js", &["Terminal(npx ./x.js)"]),
    // … on the verb's last path component (SPEC §4.3): a path never
    // generalizes a code-running or destroying verb.
    (
        "/usr/bin/python3 x.py",
        &["Terminal(/usr/bin/python3 x.py)"],
    ),
    ("/usr/bin/node x.js", &["Terminal(/usr/bin/node x.js)"]),
    ("/usr/bin/perl x.pl", &["Terminal(/usr/bin/perl x.pl)"]),
    (
        "/usr/bin/find . -delete",
        &["Terminal(/usr/bin/find . -delete)"],
    ),
    ("/bin/rm a.txt", &["Terminal(/bin/rm a.txt)"]),
    ("./python3 x.py", &["Terminal(./python3 x.py)"]),
    (
        "/usr/bin/env X=1 make",
        &["Terminal(/usr/bin/env X=1 make)"],
    ),
    ("/usr/bin/npx ./x.js", &["Terminal(/usr/bin/npx ./x.js)"]),
    ("/usr/bin/npx vitest", &["Terminal(/usr/bin/npx vitest)"]),
    ("/usr/bin/cat x.ts", &["Terminal(/usr/bin/cat)"]),
    ("npx vitest", &["Terminal(npx vitest)"]),
    ("find -name '*.ts'", &["Terminal(find -name '*.ts')"]),
    ("echo -n \"it's\"", &["Terminal(echo -n \"it's\")"]),
    ("echo -e '$HOME'", &["Terminal(echo -e '$HOME')"]),
    ("sed -i s/a/b/ x", &["Terminal(sed -i s/a/b/ x)"]),
    ("printf -- '%s,%d' a", &["Terminal(printf -- %s,%d a)"]),
    (
        "curl --output=x.html example.org",
        &["Terminal(curl --output=x.html example.org)"],
    ),
    ("'if' x", &["Terminal('if' x)"]),
    ("echo -n 'a)b'", &["Terminal(echo -n 'a)b')"]),
    ("echo -n 'caf\u{e9}'", &["Terminal(echo -n 'caf\u{e9}')"]),
];

#[test]
fn derivation_cases() {
    let mut failures = Vec::new();
    for (cmd, want) in CASES {
        let got = patterns(cmd);
        if got != *want {
            failures.push(format!("`{cmd}`: got {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// SPEC §7 steps 1 and 2: what is refused, and only that.
/// SPEC §7 [round 3] (issue 29, class J): the units are the catalogue's.
/// A runner's unit extends to the program it runs, after the runner's own
/// words; one it cannot place, a program that runs text as code (sed,
/// awk, lua, expect…) and every wrapper record the whole segment; a unit
/// that is a prefix of a table entry (`gh repo` of `gh repo delete`) too.
#[test]
fn round_three_units_are_the_catalogues() {
    let cases: &[(&str, &[&str])] = &[
        ("uv run pytest -k x", &["Terminal(uv run pytest)"]),
        ("pnpm exec vitest run", &["Terminal(pnpm exec vitest)"]),
        ("poetry run pytest", &["Terminal(poetry run pytest)"]),
        (
            "bundle exec rspec spec/x_spec.rb",
            &["Terminal(bundle exec rspec)"],
        ),
        ("npm exec -- eslint .", &["Terminal(npm exec -- eslint)"]),
        ("npx vitest run", &["Terminal(npx vitest)"]),
        ("bunx vitest run", &["Terminal(bunx vitest)"]),
        (
            "docker exec app pytest -x",
            &["Terminal(docker exec app pytest)"],
        ),
        // `npm` is a prefix of `npm publish`: the whole segment.
        (
            "docker exec app npm test",
            &["Terminal(docker exec app npm test)"],
        ),
        // Not placed: the runner's own options, or a program that runs
        // code itself.
        (
            "uv run --with x pytest",
            &["Terminal(uv run --with x pytest)"],
        ),
        (
            "docker exec -it app ls",
            &["Terminal(docker exec -it app ls)"],
        ),
        ("npx sh -c 'ls'", &["Terminal(npx sh -c ls)"]),
        ("uv run python x.py", &["Terminal(uv run python x.py)"]),
        // Programs that run text as code, and wrappers.
        ("sed s/a/b/ f", &["Terminal(sed s/a/b/ f)"]),
        ("awk '{print $1}' f", &["Terminal(awk '{print $1}' f)"]),
        ("lua x.lua", &["Terminal(lua x.lua)"]),
        ("expect x.exp", &["Terminal(expect x.exp)"]),
        ("chronic make test", &["Terminal(chronic make test)"]),
        ("flock /tmp/l make", &["Terminal(flock /tmp/l make)"]),
        // A prefix of a table entry.
        ("gh repo view o/r", &["Terminal(gh repo view o/r)"]),
        ("gh pr list", &["Terminal(gh pr list)"]),
        // Other programs keep the units.
        ("cargo build --release", &["Terminal(cargo build)"]),
        ("make test", &["Terminal(make test)"]),
        ("pnpm test", &["Terminal(pnpm test)"]),
    ];
    for (cmd, want) in cases {
        assert_eq!(patterns(cmd), *want, "{cmd}");
    }
}

/// SPEC §7 round 4 step 4: a program the catalogue describes with
/// subcommands (`mix test`, `git log`) never records itself alone.
#[test]
fn programs_described_with_subcommands_record_the_subcommand() {
    let cases: &[(&str, &[&str])] = &[
        ("mix deps.get", &["Terminal(mix deps.get)"]),
        ("mix test --only x", &["Terminal(mix test)"]),
        // Not a subcommand or task name: the whole segment.
        ("mix ./x.exs", &["Terminal(mix ./x.exs)"]),
        // A program without subcommand rows keeps its unit.
        ("cat src/x.ts", &["Terminal(cat)"]),
    ];
    for (cmd, want) in cases {
        assert_eq!(patterns(cmd), *want, "{cmd}");
    }
}

#[test]
fn refusals() {
    for t in REFUSED_TYPES {
        for agent in [None, Some("dev-api"), Some("planner")] {
            let d = derive(&request(t.name(), None, agent).action);
            assert_eq!(d, Derivation::Refused(Refusal::Typed(*t)), "{t} {agent:?}");
        }
    }
    let refused = [
        // External effect (SPEC §6.1), wherever it hides.
        "git push",
        "git push origin main",
        "git -C /tmp push",
        "git --no-pager -c a=b merge x",
        "git remote add o u",
        "npm test && git push",
        "ls | gh pr create",
        "kubectl -n prod apply -f x.yaml",
        "echo $(git push)",
        "(npm publish)",
        "env git push",
        "FOO=1 git push",
        "nice -n 5 cargo publish",
        "bash -c 'git push'",
        "sh -lc 'npm test && git push'",
        "eval git push",
        "env -S 'git push'",
        "/usr/bin/git push",
        // Privileged.
        "sudo ls",
        "ls && sudo -u root ls",
        "doas ls",
        "su",
        "pkexec ls",
        "run0 ls",
        "bash -c 'sudo ls'",
        // Unparsed (SPEC §4.2), inner lines included.
        "echo 'unclosed",
        "cat <<EOF",
        "select x in a b; do ls; done",
        "coproc ls",
        "ls {a,b}",
        "*.sh",
        "echo $'x'",
        "f() { ls; }",
        "ls\r",
        "bash -c 'echo \"unclosed'",
        "npm test &&",
        // A remote client's subcommand path no row lists as a read (SPEC
        // §4.5 item 3), the group alone included.
        "gh pr",
        "gh ssh-key add k",
        "mix hex.publish",
        "npm distTag add a",
        "kubectl config use-context x",
    ];
    for cmd in refused {
        for agent in [None, Some("dev-api")] {
            let d = derive(&request("terminal", Some(cmd), agent).action);
            assert!(
                matches!(d, Derivation::Refused(_)),
                "`{cmd}` {agent:?}: {d:?}"
            );
        }
    }
    // Near misses: not refused.
    for cmd in [
        "git status",
        "git log push",
        "gh pr list",
        "echo git push",
        "cat sudo",
        "npm test --publish",
    ] {
        assert!(matches!(terminal(cmd), Derivation::Patterns(_)), "{cmd}");
    }
}

/// SPEC §7 step 3, then step 4.
#[test]
fn module_agents_and_labels() {
    for t in ActionType::ALL {
        if REFUSED_TYPES.contains(t) {
            continue;
        }
        let cmd = (*t == ActionType::Terminal).then_some("npm test");
        assert_eq!(
            derive(&request(t.name(), cmd, Some("dev-api")).action),
            Derivation::Autonomy {
                agent: "dev-api".into(),
                action: *t
            },
            "{t}"
        );
        if *t == ActionType::Terminal {
            continue;
        }
        for agent in [
            None,
            Some("dev-"),
            Some("developer"),
            Some("planner"),
            Some("api-dev"),
        ] {
            match derive(&request(t.name(), None, agent).action) {
                Derivation::Patterns(p) => {
                    assert_eq!(p.len(), 1);
                    assert_eq!(p[0].pattern, format!("{}()", t.label()));
                    assert_eq!(p[0].unit, Unit::Label);
                    let parsed = Pattern::parse(&p[0].pattern).expect("parses");
                    assert!(parsed.matches_type(*t));
                }
                other => panic!("{t} {agent:?}: {other:?}"),
            }
        }
    }
    // Step 3 comes before step 5: even a bare `git` goes to autonomy.
    assert!(matches!(
        derive(&request("terminal", Some("git"), Some("dev-web")).action),
        Derivation::Autonomy { .. }
    ));
}

// ------------------------------------------------------------ properties

fn cases() -> u32 {
    std::env::var("PERMC_ALWAYS_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512)
}

/// Words made to hit every rule of step 5 and every ceiling.
const VOCAB: &[&str] = &[
    "git",
    "push",
    "remote",
    "-v",
    "add",
    "status",
    "merge",
    "npm",
    "test",
    "publish",
    "run",
    "sudo",
    "env",
    "FOO=1",
    "nice",
    "timeout",
    "5",
    "cat",
    "src/x.ts",
    "'a b'",
    "x*",
    "'x*'",
    "\\*",
    "*",
    "$(ls)",
    "$(git push)",
    "bash",
    "-c",
    "'git push'",
    "'npm test'",
    "rm",
    "-rf",
    "/",
    "/*",
    "/tmp/x",
    "../y",
    "cd",
    "ls",
    "-la",
    "gh",
    "pr",
    "list",
    "create",
    "kubectl",
    "get",
    "apply",
    "docker",
    "ps",
    "`date`",
    "{a,b}",
    "\"q\"",
    "~/x",
    "$HOME",
    "2>/dev/null",
    ">out",
    "<in",
    "(ls)",
    "--flag=1",
    "-",
    "--",
    "xargs",
    "eval",
    "-n",
    "echo",
    "#c",
    "su",
    "'if'",
    "test:unit",
    "pnpm",
    "/usr/bin/git",
    "-C",
    "'",
    "\\",
    "<(ls)",
    "{",
    "}",
    "!",
];
const OPS: &[&str] = &[" && ", " || ", "; ", " | ", " & ", "\n", " "];

fn command() -> impl Strategy<Value = String> {
    let segment =
        proptest::collection::vec(proptest::sample::select(VOCAB), 0..5).prop_map(|w| w.join(" "));
    (
        proptest::collection::vec(segment, 1..4),
        proptest::collection::vec(proptest::sample::select(OPS), 3),
    )
        .prop_map(|(segs, ops)| {
            let mut s = String::new();
            for (i, seg) in segs.iter().enumerate() {
                if i > 0 {
                    s.push_str(ops[i - 1]);
                }
                s.push_str(seg);
            }
            s
        })
}

fn rules_with_allow(patterns: &[String], autonomy: &str) -> Rules {
    let json = json!({ "allow": patterns }).to_string();
    let perms = load_permissions("permissions.json", json.as_bytes())
        .value
        .expect("recorded patterns always load");
    let auto = load_autonomy("autonomy.json", autonomy.as_bytes())
        .value
        .expect("autonomy loads");
    Rules::new(perms, auto)
}

fn decide_in_every_context(rules: &Rules, cmd: &str, agent: Option<&str>) -> Vec<(Policy, Reason)> {
    let mut out = Vec::new();
    for (mode, running) in [
        ("container", true),
        ("container", false),
        ("mounted", true),
        ("runner", false),
    ] {
        let mut a = json!({"type": "terminal", "command": cmd});
        if let Some(g) = agent {
            a["agent"] = g.into();
        }
        let v = json!({"action": a, "context": {"role": "developer", "executionMode": mode,
            "containerRunning": running, "projectScopeRoot": "/home/ana/p"}});
        let req = Request::from_value(&v).expect("request");
        let d = reference::decide(rules, &req);
        out.push((d.policy, d.reason));
    }
    out
}

fn check_recorded(cmd: &str) -> Result<(), TestCaseError> {
    let facts = LineFacts::of(cmd);
    let past_ceiling = facts.external_effect().is_some()
        || facts.privileged().is_some()
        || facts.unparsed
        || facts.builtin_possible().is_some()
        || facts.code_possible().is_some();
    match terminal(cmd) {
        Derivation::Refused(_) => prop_assert!(past_ceiling, "refused without a ceiling: {cmd:?}"),
        Derivation::Autonomy { .. } => prop_assert!(false, "no agent, yet autonomy: {cmd:?}"),
        Derivation::Patterns(recorded) => {
            prop_assert!(
                !past_ceiling,
                "a ceiling command recorded patterns: {cmd:?}"
            );
            let mut texts = Vec::new();
            for r in &recorded {
                // Reads back to exact tokens equal to its words…
                let p = Pattern::parse(&r.pattern)
                    .map_err(|e| TestCaseError::fail(format!("{}: {e}", r.pattern)))?;
                let PatternBody::Tokens(tokens) = &p.body else {
                    return Err(TestCaseError::fail(format!("{} is not tokens", r.pattern)));
                };
                prop_assert!(!tokens.is_empty(), "Terminal() recorded for {cmd:?}");
                let exact: Vec<&str> = tokens
                    .iter()
                    .map(|t| match t {
                        PatToken::Exact(e) => Ok(e.as_str()),
                        PatToken::Prefix(_) => {
                            Err(TestCaseError::fail(format!("{}: a wildcard", r.pattern)))
                        }
                    })
                    .collect::<Result<_, _>>()?;
                prop_assert_eq!(
                    &exact,
                    &r.words.iter().map(String::as_str).collect::<Vec<_>>()
                );
                // … and matches the segment it came from, or a run of it
                // its words do not name (`xargs` runs `echo`).
                let i = r.segment.expect("terminal patterns name a segment");
                let seg = &facts.line.segments[i];
                let inner = facts.transparent_inner(i);
                prop_assert!(
                    p.matches_words(&seg.words)
                        || facts.given_runs(i).any(|(_, w, _)| p.matches_words(w))
                        || inner
                            .is_some_and(|l| l.segments.iter().any(|s| p.matches_words(&s.words))),
                    "{} does not match {:?}",
                    r.pattern,
                    seg.words
                );
                prop_assert!(!texts.contains(&r.pattern), "duplicate {}", r.pattern);
                texts.push(r.pattern.clone());
            }
            // Recording and deciding the same command: past no ceiling, and
            // when every segment is covered, the file allows it (or the
            // scope ceiling, a protected path (SPEC §6.4), or a built-in
            // deny, has the last word).
            let rules = rules_with_allow(&texts, "{}");
            let covered = facts.line.segments.iter().all(|s| {
                rules
                    .permissions
                    .allow
                    .iter()
                    .any(|e| e.pattern.matches_words(&s.words))
            });
            // A possible run of an undescribed program's quoted word (SPEC
            // §4.5 item 2) lowers with unknown.word whatever entry covers
            // the segment.
            // So does a word a described program's row cannot place where
            // the row holds a kind that writes or runs (SPEC §4.5 item 2,
            // §5.3 7.0: `rm -la` under `Terminal(rm -la)`, rm has no `-l`).
            let possible = facts.has_possible() || facts.unplaced().is_some();
            for (policy, reason) in decide_in_every_context(&rules, cmd, None) {
                if covered && !facts.line.segments.is_empty() {
                    prop_assert!(
                        matches!(
                            reason,
                            Reason::FileAllow
                                | Reason::CeilingScope
                                | Reason::CeilingProtectedPath
                                | Reason::BuiltinDeny
                        ) || (possible && reason == Reason::UnknownWord),
                        "{cmd:?} with {texts:?}: {policy} {reason}"
                    );
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Every recorded pattern reads back to its unit and matches its
    /// segment; refused ⇔ past a ceiling; recording then deciding allows.
    #[test]
    fn recorded_patterns_match_their_segment(cmd in command()) {
        check_recorded(&cmd)?;
    }

    /// Recording every harmless part of a command, then deciding the whole
    /// command — even in automatic mode — never auto-approves past a
    /// ceiling (external effect, privileged, unparsed).
    #[test]
    fn recording_never_lifts_a_ceiling(cmd in command()) {
        let facts = LineFacts::of(&cmd);
        let mut allow: Vec<String> = Vec::new();
        for seg in &facts.line.segments {
            let alone = permc_core::always::render_words(&seg.words).unwrap_or_default();
            if let Derivation::Patterns(p) = terminal(&alone) {
                allow.extend(p.into_iter().map(|r| r.pattern));
            }
        }
        let past_ceiling = facts.external_effect().is_some() || facts.privileged().is_some() || facts.unparsed;
        for autonomy in ["{}", r#"{"dev-api": {"*": "auto_approve"}}"#] {
            let rules = rules_with_allow(&allow, autonomy);
            for (policy, reason) in decide_in_every_context(&rules, &cmd, Some("dev-api")) {
                if past_ceiling {
                    prop_assert_ne!(policy, Policy::AutoApprove, "{:?} with {:?}: {}", cmd, allow, reason);
                }
            }
        }
    }

    /// Derivation never panics, on anything.
    #[test]
    fn never_panics(cmd in ".{0,200}", agent in proptest::option::of("[a-z-]{0,8}")) {
        let mut a = json!({"type": "terminal", "command": cmd});
        if let Some(g) = &agent { a["agent"] = g.clone().into(); }
        let v = json!({"action": a, "context": {"role": "owner", "projectScopeRoot": "/p"}});
        let req = Request::from_value(&v).expect("request");
        if let Derivation::Patterns(p) = derive(&req.action) {
            for r in p {
                prop_assert!(Pattern::parse(&r.pattern).is_ok());
            }
        }
    }

    /// The same holds on arbitrary text, not only on the vocabulary.
    #[test]
    fn arbitrary_text_records_matching_patterns(cmd in "[ -~\t\n]{0,60}") {
        check_recorded(&cmd)?;
    }
}

/// Deep and long input: no stack overflow, no pattern.
#[test]
fn hostile_input() {
    for cmd in [
        "$(".repeat(10_000),
        "(".repeat(10_000),
        "a ".repeat(200_000),
        "x".repeat(300 * 1024),
    ] {
        let d = terminal(&cmd);
        assert!(
            matches!(d, Derivation::Refused(Refusal::Unparsed))
                || matches!(d, Derivation::Patterns(_))
        );
    }
}

// ------------------------------------------------------------- the CLI

#[test]
fn cli_prints_the_three_outcomes() {
    let dir = scratch("always", "outcomes");
    let p = dir.join("permissions.json");
    std::fs::write(&p, "{\"allow\": [\"Terminal(cd)\"]}\n").expect("write");
    let p = p.to_str().expect("utf-8");

    let r = request_json("terminal", Some("cd src/app && npm test"), None).to_string();
    let v = ok_json(&permc(&["always", "--permissions", p, "--request", &r]));
    assert_eq!(v["outcome"], "patterns");
    assert_eq!(v["patterns"], json!(["Terminal(cd)", "Terminal(npm test)"]));
    assert_eq!(v["added"], json!(["Terminal(npm test)"]));
    let ex = v["explanations"].as_array().expect("explanations");
    assert_eq!(ex.len(), 2);
    assert!(ex[0].as_str().expect("text").contains("already in allow"));
    assert!(ex[1].as_str().expect("text").contains("`npm test`"));

    let r = request_json("terminal", Some("ls && git push"), None).to_string();
    let v = ok_json(&permc(&["always", "--permissions", p, "--request", &r]));
    assert_eq!(v["outcome"], "refused");
    assert_eq!(v["reason"], "teto_do_sempre_permitir");

    let r = request_json("git_commit", None, Some("dev-api")).to_string();
    let v = ok_json(&permc(&["always", "--permissions", p, "--request", &r]));
    assert_eq!(v["outcome"], "autonomy");
    assert_eq!(v["agent"], "dev-api");
    assert_eq!(v["type"], "git_commit");

    let r = request_json("write_file", None, None).to_string();
    let v = ok_json(&permc(&["always", "--permissions", p, "--request", &r]));
    assert_eq!(v["patterns"], json!(["WriteFile()"]));
    assert_eq!(v["added"], json!(["WriteFile()"]));

    // Without --write nothing is written.
    assert_eq!(
        std::fs::read_to_string(p).expect("read"),
        "{\"allow\": [\"Terminal(cd)\"]}\n"
    );
}

#[test]
fn cli_write_keeps_everything_else() {
    let dir = scratch("always", "keeps");
    let p = dir.join("permissions.json");
    let before = r#"{"note": {"z": 1, "a": [true, null, 2.5]}, "deny": ["Terminal(curl)"],
  "allow": ["Terminal(ls)", "Terminal(npm  test)"], "ask": ["GitPush()"], "previous": []}"#;
    std::fs::write(&p, before).expect("write");
    let r = request_json(
        "terminal",
        Some("npm test && cat README.md && pytest -q"),
        None,
    )
    .to_string();
    let o = Command::new(PERMC)
        .args(["always", "--write", "--permissions"])
        .arg(&p)
        .args(["--request", &r])
        .output()
        .expect("runs");
    let v = ok_json(&o);
    assert_eq!(
        v["added"],
        json!(["Terminal(cat)", "Terminal(pytest -q)"]),
        "an equal pattern counts as present"
    );
    let after = std::fs::read_to_string(&p).expect("read");
    let expected = r#"{
  "note": {
    "z": 1,
    "a": [
      true,
      null,
      2.5
    ]
  },
  "deny": [
    "Terminal(curl)"
  ],
  "allow": [
    "Terminal(ls)",
    "Terminal(npm  test)",
    "Terminal(cat)",
    "Terminal(pytest -q)"
  ],
  "ask": [
    "GitPush()"
  ],
  "previous": []
}
"#;
    assert_eq!(after, expected);
    // Again: nothing to add, the file is left byte for byte.
    let o = Command::new(PERMC)
        .args(["always", "--write", "--permissions"])
        .arg(&p)
        .args(["--request", &r])
        .output()
        .expect("runs");
    assert_eq!(ok_json(&o)["added"], json!([]));
    assert_eq!(std::fs::read_to_string(&p).expect("read"), expected);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("permc-tmp")), "{names:?}");
}

#[test]
fn cli_write_creates_the_file() {
    let dir = scratch("always", "creates");
    let p = dir.join("permissions.json");
    let r = request_json("terminal", Some("ls -la src"), None).to_string();
    let o = Command::new(PERMC)
        .args(["always", "--write", "--permissions"])
        .arg(&p)
        .args(["--request", &r])
        .output()
        .expect("runs");
    ok_json(&o);
    assert_eq!(
        std::fs::read_to_string(&p).expect("created"),
        "{\n  \"allow\": [\n    \"Terminal(ls -la src)\"\n  ]\n}\n"
    );
    // A refusal writes nothing, not even a new file.
    let q = dir.join("other.json");
    let r = request_json("terminal", Some("sudo ls"), None).to_string();
    let o = Command::new(PERMC)
        .args(["always", "--write", "--permissions"])
        .arg(&q)
        .args(["--request", &r])
        .output()
        .expect("runs");
    assert_eq!(ok_json(&o)["outcome"], "refused");
    assert!(!q.exists());
}

#[test]
fn cli_never_overwrites_a_file_that_does_not_load() {
    let dir = scratch("always", "rejected");
    for (name, text) in [
        ("bad-json.json", "{\"allow\": [\"Terminal(ls)\",}"),
        ("bad-label.json", "{\"allow\": [\"Termnal(ls)\"]}"),
        ("bad-shape.json", "{\"allow\": \"Terminal(ls)\"}"),
        ("bad-quote.json", "{\"allow\": [\"Terminal(echo 'a)\"]}"),
        ("top.json", "[]"),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        for write in [true, false] {
            let r = request_json("terminal", Some("npm test"), None).to_string();
            let mut c = Command::new(PERMC);
            c.args(["always", "--permissions"])
                .arg(&p)
                .args(["--request", &r]);
            if write {
                c.arg("--write");
            }
            let o = c.output().expect("runs");
            assert_eq!(o.status.code(), Some(2), "{name}");
            assert!(!o.stderr.is_empty(), "{name}: diagnostics on stderr");
            assert_eq!(
                std::fs::read_to_string(&p).expect("read"),
                text,
                "{name} untouched"
            );
        }
    }
}

#[test]
fn cli_autonomy_outcome_is_written_to_autonomy_json() {
    let dir = scratch("always", "autonomy");
    let p = dir.join("permissions.json");
    let a = dir.join("autonomy.json");
    std::fs::write(&a, "{\"dev-api\": {\"terminal\": \"require_approval\", \"*\": \"require_approval\"}, \"dev-web\": {\"git_commit\": \"deny\"}}").expect("write");
    let run = |kind: &str, agent: &str, with_autonomy: bool| {
        let r = request_json(
            kind,
            (kind == "terminal").then_some("npm test"),
            Some(agent),
        )
        .to_string();
        let mut c = Command::new(PERMC);
        c.args(["always", "--write", "--permissions"])
            .arg(&p)
            .args(["--request", &r]);
        if with_autonomy {
            c.arg("--autonomy").arg(&a);
        }
        c.output().expect("runs")
    };
    let v = ok_json(&run("terminal", "dev-api", true));
    assert_eq!(v["outcome"], "autonomy");
    ok_json(&run("write_file", "dev-api", true));
    let text = std::fs::read_to_string(&a).expect("read");
    assert_eq!(
        text,
        "{\n  \"dev-api\": {\n    \"terminal\": \"auto_approve\",\n    \"*\": \"require_approval\",\n    \"write_file\": \"auto_approve\"\n  },\n  \"dev-web\": {\n    \"git_commit\": \"deny\"\n  }\n}\n"
    );
    // A written deny is never lifted.
    let o = run("git_commit", "dev-web", true);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&a).expect("read"), text);
    // A module agent needs --autonomy to write.
    let o = run("git_commit", "dev-new", false);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        !p.exists(),
        "permissions.json is not touched by an autonomy outcome"
    );
}

#[test]
fn cli_bad_usage_exits_2() {
    let dir = scratch("always", "usage");
    let p = dir.join("p.json");
    let p = p.to_str().expect("utf-8");
    let r = request_json("terminal", Some("ls"), None).to_string();
    for args in [
        vec!["always", "--permissions", p, "--request", "{not json"],
        vec![
            "always",
            "--permissions",
            p,
            "--request",
            r#"{"action": {"type": "terminal"}, "context": {"role": "owner", "projectScopeRoot": "/p"}}"#,
        ],
        vec![
            "always",
            "--permissions",
            p,
            "--request",
            &r,
            "--policy",
            "x.permc",
        ],
        vec!["always", "--permissions", p],
    ] {
        let o = permc(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn cli_write_recompiles_the_policy() {
    let dir = scratch("always", "policy");
    let p = dir.join("permissions.json");
    let f = dir.join("policy.permc");
    let decide = |command: &str| {
        let r = json!({"action": {"type": "terminal", "command": command},
            "context": {"role": "developer", "executionMode": "runner", "projectScopeRoot": "/p"}});
        // With --permissions too, a stale artifact is an error (exit 2).
        let o = Command::new(PERMC)
            .args(["decide", "--policy"])
            .arg(&f)
            .arg("--permissions")
            .arg(&p)
            .args(["--request", &r.to_string()])
            .output()
            .expect("runs");
        ok_json(&o)["reason"].clone()
    };
    for (i, command) in ["npm test", "cargo clippy --all"].iter().enumerate() {
        let o = always_write(&p, command)
            .arg("--policy")
            .arg(&f)
            .output()
            .expect("runs");
        assert_eq!(
            ok_json(&o)["added"].as_array().map(Vec::len),
            Some(1),
            "{command}"
        );
        assert_eq!(decide(command), "file.allow", "{command}");
        if i == 1 {
            assert_eq!(decide("npm test --watch"), "file.allow");
        }
    }
}

// --------------------------------------------------- concurrency & crashes

/// Reads the file in a loop until `stop`; every read must load.
fn reader(
    path: PathBuf,
    stop: Arc<AtomicBool>,
    reads: Arc<AtomicUsize>,
) -> std::thread::JoinHandle<Vec<String>> {
    std::thread::spawn(move || {
        let mut failures = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            match std::fs::read(&path) {
                Ok(bytes) => {
                    let l = load_permissions("permissions.json", &bytes);
                    if l.value.is_none() || serde_json::from_slice::<Value>(&bytes).is_err() {
                        failures.push(String::from_utf8_lossy(&bytes).into_owned());
                    }
                }
                Err(e) => failures.push(format!("read error: {e}")),
            }
            reads.fetch_add(1, Ordering::Relaxed);
        }
        failures
    })
}

const INITIAL: &str =
    "{\"allow\": [\"Terminal(ls)\"], \"deny\": [\"Terminal(curl)\"], \"x-team\": \"keep me\"}\n";

/// 32 concurrent `permc always --write` with distinct commands while a
/// reader parses the file in a loop: every pattern is there at the end, no
/// read ever fails.
#[test]
fn concurrent_writers_lose_nothing() {
    const WRITERS: usize = 32;
    let dir = scratch("always", "concurrent");
    let p = dir.join("permissions.json");
    std::fs::write(&p, INITIAL).expect("write");
    let stop = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicUsize::new(0));
    let r = reader(p.clone(), stop.clone(), reads.clone());
    let start = Instant::now();
    let children: Vec<Child> = (0..WRITERS)
        .map(|i| {
            always_write(&p, &format!("tool{i} check{i} && cat -n f{i}"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().expect("wait");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let elapsed = start.elapsed();
    stop.store(true, Ordering::Relaxed);
    let failures = r.join().expect("reader");
    assert!(
        failures.is_empty(),
        "{} reads failed, first: {:?}",
        failures.len(),
        failures.first()
    );
    let allow = allow_of(&p);
    assert_eq!(allow[0], "Terminal(ls)");
    assert_eq!(allow.len(), 1 + 2 * WRITERS, "{allow:?}");
    for i in 0..WRITERS {
        assert!(
            allow.contains(&format!("Terminal(tool{i} check{i})")),
            "tool{i} lost"
        );
        assert!(
            allow.contains(&format!("Terminal(cat -n f{i})")),
            "cat -n f{i} lost"
        );
    }
    let v: Value = serde_json::from_slice(&std::fs::read(&p).expect("read")).expect("json");
    assert_eq!(v["x-team"], "keep me");
    assert_eq!(v["deny"], json!(["Terminal(curl)"]));
    eprintln!(
        "concurrency: {WRITERS} writer processes, {} patterns recorded, {} reads (0 failed), {:.2?}",
        2 * WRITERS,
        reads.load(Ordering::Relaxed),
        elapsed
    );
}

/// Waits until a writer started with the pause hook says it is paused
/// between writing its temporary file and renaming it.
/// Returns the rest of its stderr, to keep the pipe open.
fn wait_paused(child: &mut Child) -> impl Iterator {
    let stderr = child.stderr.take().expect("piped stderr");
    let mut lines = BufReader::new(stderr).lines();
    loop {
        match lines.next() {
            Some(Ok(l)) if l.contains("paused before rename") => return lines,
            Some(Ok(_)) => continue,
            other => panic!("the writer ended before pausing: {other:?}"),
        }
    }
}

/// A writer killed between its temporary file and the rename leaves the
/// old file, whole; the next writer cleans up and proceeds.
#[test]
fn writer_killed_before_rename_leaves_the_old_file() {
    let dir = scratch("always", "killed");
    let p = dir.join("permissions.json");
    std::fs::write(&p, INITIAL).expect("write");
    let mut w = always_write(&p, "first run")
        .env("PERMC_TEST_PAUSE_BEFORE_RENAME_MS", "600000")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let _stderr = wait_paused(&mut w);
    w.kill().expect("SIGKILL");
    w.wait().expect("reaped");
    assert_eq!(
        std::fs::read_to_string(&p).expect("read"),
        INITIAL,
        "the old file, byte for byte"
    );
    let leftovers = std::fs::read_dir(&dir)
        .expect("dir")
        .filter(|e| {
            e.as_ref()
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .contains("permc-tmp")
        })
        .count();
    assert_eq!(leftovers, 1, "the dead writer's temporary file");
    // The lock died with the writer; the next one proceeds and cleans up.
    let o = always_write(&p, "second run").output().expect("runs");
    assert!(o.status.success());
    assert_eq!(allow_of(&p), ["Terminal(ls)", "Terminal(second run)"]);
    let leftovers = std::fs::read_dir(&dir)
        .expect("dir")
        .filter(|e| {
            e.as_ref()
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .contains("permc-tmp")
        })
        .count();
    assert_eq!(leftovers, 0);
}

/// A writer that holds the lock (paused before its rename) makes the next
/// writer wait, and the next one re-reads the file after the lock: both
/// patterns are kept. Without the lock, or reading before it, the second
/// writer would write over the first one's pattern.
#[test]
fn second_writer_waits_and_rereads() {
    let dir = scratch("always", "rereads");
    let p = dir.join("permissions.json");
    std::fs::write(&p, INITIAL).expect("write");
    let mut a = always_write(&p, "alpha one")
        .env("PERMC_TEST_PAUSE_BEFORE_RENAME_MS", "400")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let _stderr = wait_paused(&mut a);
    let b = always_write(&p, "beta two").output().expect("runs");
    assert!(b.status.success());
    assert!(a.wait().expect("a ends").success());
    let allow = allow_of(&p);
    assert!(
        allow.contains(&"Terminal(alpha one)".to_string()),
        "{allow:?}"
    );
    assert!(
        allow.contains(&"Terminal(beta two)".to_string()),
        "{allow:?}"
    );
}

/// Writers killed at random moments (SIGKILL), with a reader in a loop:
/// no read fails, the file always loads, and every writer that finished has
/// its pattern there.
#[test]
fn writers_killed_at_random_moments() {
    let dir = scratch("always", "random-kill");
    let p = dir.join("permissions.json");
    std::fs::write(&p, INITIAL).expect("write");
    let stop = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicUsize::new(0));
    let r = reader(p.clone(), stop.clone(), reads.clone());
    // xorshift, seeded from the clock: different moments on every run.
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut finished = Vec::new();
    let mut killed = 0;
    for round in 0..4 {
        let mut children: Vec<(usize, Child)> = (0..6)
            .map(|i| {
                let n = round * 6 + i;
                let c = always_write(&p, &format!("job{n} go"))
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("spawn");
                (n, c)
            })
            .collect();
        for (_, c) in children.iter_mut() {
            std::thread::sleep(std::time::Duration::from_micros(next() % 8000));
            if next() % 2 == 0 {
                let _ = c.kill();
            }
        }
        for (n, mut c) in children {
            let status = c.wait().expect("reaped");
            if status.success() {
                finished.push(n);
            } else {
                killed += 1;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let failures = r.join().expect("reader");
    assert!(
        failures.is_empty(),
        "{} reads failed: {:?}",
        failures.len(),
        failures.first()
    );
    let allow = allow_of(&p);
    assert_eq!(allow[0], "Terminal(ls)");
    for n in &finished {
        assert!(
            allow.contains(&format!("Terminal(job{n} go)")),
            "job{n} finished but is missing"
        );
    }
    eprintln!(
        "random kills: {} finished, {killed} killed, {} reads (0 failed), {} patterns in the file",
        finished.len(),
        reads.load(Ordering::Relaxed),
        allow.len() - 1
    );
}

/// SPEC §7 step 2 [hardening]: a line that may be a built-in deny through
/// its unknown words is refused, like one past a ceiling.
#[test]
fn possible_builtins_are_refused() {
    for cmd in ["rm -rf $X", "xargs rm -f", "find . -exec rm -rf {} +"] {
        assert!(
            matches!(terminal(cmd), Derivation::Refused(Refusal::UnknownWord(_))),
            "{cmd}"
        );
    }
    for cmd in ["bash build.sh", "curl x | bash", "git -c a=b status"] {
        assert!(
            matches!(
                terminal(cmd),
                Derivation::Refused(Refusal::Unparsed) | Derivation::Patterns(_)
            ),
            "{cmd}"
        );
    }
}

/// Issue 43 pt 8: what `always --write` records for a runner and a plain
/// program (`Terminal(npx tsc)`, `Terminal(uv run pytest)`, SPEC §7) is
/// not what `permc check` then warns about (§11 round 4); a runner and a
/// shell still is.
#[test]
fn cli_write_records_nothing_check_then_flags() {
    let dir = scratch("always", "no-flag");
    let p = dir.join("permissions.json");
    std::fs::write(&p, "{}\n").expect("write");
    let r = request_json("terminal", Some("npx tsc -p . && uv run pytest -k x"), None).to_string();
    let o = Command::new(PERMC)
        .args(["always", "--write", "--permissions"])
        .arg(&p)
        .args(["--request", &r])
        .output()
        .expect("runs");
    assert_eq!(
        ok_json(&o)["added"],
        json!(["Terminal(npx tsc)", "Terminal(uv run pytest)"])
    );
    let check = |p: &std::path::Path| {
        let o = Command::new(PERMC)
            .args(["check", "--format", "json"])
            .arg(p)
            .output()
            .expect("runs");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        v["diagnostics"]
            .as_array()
            .expect("list")
            .iter()
            .map(|d| d["check"].as_str().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    // Only the info that npx and uv are not described (SPEC §11 round 4).
    assert!(
        check(&p).iter().all(|c| c == "undescribed-program"),
        "{:?}",
        check(&p)
    );
    std::fs::write(&p, r#"{"allow": ["Terminal(npx sh)"]}"#).expect("write");
    assert_eq!(check(&p), ["broad-always-expansion"]);
}

/// SPEC §6.4 round 4: an allow entry that names a subcommand moving the
/// worktree lifts the protected-path check for those moves, so
/// always-allow never records one — a command whose unit would name one
/// is refused, and a unit that names one the segment does not (`git stash
/// list` → `git stash`) is the whole segment.
#[test]
fn worktree_moves_are_never_recorded() {
    for cmd in [
        "git switch main",
        "git checkout v1.2 && npm test",
        "git checkout -b feat",
        "git stash pop",
        "git reset --hard HEAD~1",
        "git rebase main",
        "gh pr checkout 12",
    ] {
        assert!(
            matches!(
                terminal(cmd),
                Derivation::Refused(Refusal::WorktreeMove(..))
            ),
            "{cmd}: {:?}",
            terminal(cmd)
        );
    }
    assert_eq!(patterns("git stash list"), ["Terminal(git stash list)"]);
    assert_eq!(patterns("git restore src/a.ts"), ["Terminal(git restore)"]);
    assert_eq!(
        patterns("git status && npm test"),
        ["Terminal(git status)", "Terminal(npm test)"]
    );
    // A module agent gets an autonomy rule: no entry is recorded.
    let d = derive(&request("terminal", Some("git switch main"), Some("dev-api")).action);
    assert!(matches!(d, Derivation::Autonomy { .. }), "{d:?}");
}

/// SPEC §4.2 round 4: `exec` with only redirections runs nothing, and
/// `Terminal(exec)` would cover every command exec runs: nothing is
/// recorded for it.
#[test]
fn a_bare_exec_records_nothing() {
    assert_eq!(
        patterns("exec 2>/dev/null; npm test"),
        ["Terminal(npm test)"]
    );
}
