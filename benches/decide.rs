//! Decisions per second, compile time and artifact load time at 10, 1k,
//! 10k and 100k rules (docs/performance.md).
//!
//! `cargo bench --bench decide` runs the criterion groups:
//! - `compiled/N`, `reference/N`: one decision of a typical 1–3-segment
//!   command (a cycle of 8), in process, over N generated rules; the
//!   compiled one as `compiled::answer` gives it (policy, reason and
//!   origin decided, the strings built when asked for), and
//!   `compiled_strings/N` with every string of SPEC §10.2 built
//!   (`compiled::decide`, what the reference returns);
//! - `shlex_split/typical`: `shlex::split` of the same commands — the
//!   floor; beside it `permc_shell_read` (SPEC §4 reader) and
//!   `permc_line_facts` (reader + wrappers + runs), the rule-independent
//!   part of a decision;
//! - `compile/N`: loaded rule files → compiled policy;
//! - `load_rules/N`: permissions.json text → loaded rules (JSON + patterns);
//! - `load_artifact/N`: artifact bytes → compiled policy (checksum and
//!   every table check included);
//!
//! and last prints the floor line: a compiled decision against
//! `shlex::split` of the same commands at 10 and 100k rules, as a ratio
//! (see [`floor`]). `cargo bench --bench decide -- floor` (a filter that
//! matches no group) prints it alone.
//!
//! `PERMC_BENCH_COUNT=ITERS` runs a fixed amount of work for callgrind
//! instead (see `main`; `PERMC_BENCH_ONLY=K` the K-th command alone,
//! `PERMC_BENCH_RULES=N` over N rules alone, `PERMC_BENCH_ANSWER_ONLY=1`
//! the answers alone: every call count is then per answer too).
//!
//! `PERMC_BENCH_WRITE=DIR cargo bench --bench decide` instead writes the
//! generated rule files and request streams to DIR for `benches/cli.sh`
//! (the end-to-end `permc decide` runs) and exits.

/// The allocator the `permc` binary uses (`src/main.rs` says why).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{black_box, BenchmarkId, Criterion, Throughput};
use permc_compiler::compiled;
use permc_core::{reference, Request, Rules};
use permc_grammar::rules::{load_autonomy, load_permissions};
use std::time::Duration;

/// The rule counts measured.
const SIZES: &[usize] = &[10, 1_000, 10_000, 100_000];

/// A small deterministic generator (xorshift64*), so every run and every
/// machine measures the same rules.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
}

const TOOLS: &[&str] = &[
    "git",
    "pnpm",
    "npm",
    "yarn",
    "cargo",
    "go",
    "make",
    "docker",
    "kubectl",
    "python",
    "pytest",
    "node",
    "npx",
    "ls",
    "cat",
    "grep",
    "find",
    "sed",
    "awk",
    "curl",
    "cp",
    "mv",
    "mkdir",
    "echo",
    "mix",
    "terraform",
    "helm",
];
const SUBS: &[&str] = &[
    "status", "diff", "log", "test", "build", "run", "install", "lint", "fmt", "check", "add",
    "show", "branch", "fetch", "exec", "list", "get", "describe", "clean", "watch",
];

/// One realistic rule: a tool and subcommand, often with an argument that
/// makes it distinct (a package, a script, a target), sometimes a prefix
/// wildcard; a few typed labels.
fn rule(rng: &mut Rng, i: usize) -> String {
    let tool = if rng.below(4) == 0 {
        // Project-specific tools: many distinct first tokens.
        format!("tool{}", rng.below(2_000))
    } else {
        rng.pick(TOOLS).to_string()
    };
    let sub = rng.pick(SUBS);
    match rng.below(20) {
        0 => [
            "GitCommit()",
            "GitPush()",
            "PrOpen()",
            "WriteFile()",
            "GitMerge()",
        ][i % 5]
            .to_string(),
        1 | 2 => format!("Terminal({tool} {sub}:pkg{i}*)"),
        3..=8 => format!("Terminal({tool} {sub})"),
        9..=13 => format!("Terminal({tool} {sub} --filter pkg{i})"),
        14..=17 => format!("Terminal({tool} run script{i})"),
        _ => format!("Terminal({tool} {sub} src/mod{i})"),
    }
}

/// permissions.json with `n` rules: 80% allow, 10% deny, 10% ask, plus the
/// handful every project has.
fn permissions_json(n: usize) -> String {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ n as u64);
    let base_allow = [
        "Terminal(ls)",
        "Terminal(git status)",
        "Terminal(pnpm test)",
        "Terminal(cargo test)",
    ];
    let base_deny = ["Terminal(curl)", "Terminal(rm -rf)"];
    let (mut allow, mut deny, mut ask) = (Vec::new(), Vec::new(), Vec::new());
    for (i, p) in base_allow.iter().enumerate().take(n) {
        allow.push(p.to_string());
        let _ = i;
    }
    for p in base_deny.iter().take(n.saturating_sub(allow.len())) {
        deny.push(p.to_string());
    }
    for i in allow.len() + deny.len()..n {
        let r = rule(&mut rng, i);
        match rng.below(10) {
            0 => deny.push(r),
            1 => ask.push(r),
            _ => allow.push(r),
        }
    }
    let list = |v: &[String]| {
        v.iter()
            .map(|p| serde_json::to_string(p).unwrap_or_default())
            .collect::<Vec<_>>()
            .join(",\n    ")
    };
    format!(
        "{{\n  \"allow\": [\n    {}\n  ],\n  \"deny\": [\n    {}\n  ],\n  \"ask\": [\n    {}\n  ]\n}}\n",
        list(&allow),
        list(&deny),
        list(&ask)
    )
}

const AUTONOMY: &str = r#"{"dev-api": {"git_commit": "auto_approve", "terminal": "require_approval"}, "dev-web": {"*": "auto_approve"}}"#;

/// Typical commands, 1 to 3 segments.
const COMMANDS: &[&str] = &[
    "pnpm test",
    "git status && pnpm test:unit",
    "cd src && npm run build | tee out.log",
    "cargo test --workspace",
    "ls -la src",
    "git diff HEAD~1 -- src/main.rs",
    "npm run script42 && echo done",
    "grep -rn TODO src | wc -l",
];

fn request_json(command: &str, agent: &str) -> String {
    serde_json::json!({
        "action": {"type": "terminal", "command": command, "cwd": "/home/ana/projetos/loja-1a2b3c4d", "agent": agent},
        "context": {"role": "developer", "executionMode": "container", "containerRunning": true,
                    "projectScopeRoot": "/home/ana/projetos/loja-1a2b3c4d"}
    })
    .to_string()
}

fn requests() -> Vec<Request<'static>> {
    COMMANDS
        .iter()
        .map(|c| {
            Request::from_json(&request_json(c, "dev-api"))
                .map(Request::into_owned)
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

fn rules(n: usize) -> Rules {
    let text = permissions_json(n);
    let p = load_permissions("permissions.json", text.as_bytes())
        .value
        .unwrap_or_else(|| panic!("generated rules load"));
    let a = load_autonomy("autonomy.json", AUTONOMY.as_bytes())
        .value
        .unwrap_or_else(|| panic!("autonomy loads"));
    Rules::new(p, a)
}

fn write_fixtures(dir: &str) {
    let dir = std::path::Path::new(dir);
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{e}"));
    for &n in SIZES {
        std::fs::write(
            dir.join(format!("permissions-{n}.json")),
            permissions_json(n),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(dir.join("autonomy.json"), AUTONOMY).unwrap_or_else(|e| panic!("{e}"));
    for &(name, count) in &[
        ("requests-5k.jsonl", 5_000usize),
        ("requests-100k.jsonl", 100_000),
    ] {
        let mut out = String::new();
        let mut rng = Rng(7);
        for i in 0..count {
            let c = COMMANDS[i % COMMANDS.len()];
            let agent = ["dev-api", "dev-web", "ops"][rng.below(3)];
            out.push_str(&request_json(c, agent));
            out.push('\n');
        }
        std::fs::write(dir.join(name), out).unwrap_or_else(|e| panic!("{e}"));
    }
    eprintln!("wrote fixtures to {}", dir.display());
}

fn bench(c: &mut Criterion) {
    let reqs = requests();
    let mut group = c.benchmark_group("shlex_split");
    group.throughput(Throughput::Elements(1));
    group.bench_function("typical", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % COMMANDS.len();
            black_box(shlex::split(black_box(COMMANDS[i])))
        })
    });
    // Where a decision's time goes, rule-independent: the shell reader
    // alone, then every per-request fact (reader, wrappers, runs).
    group.bench_function("permc_shell_read", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % COMMANDS.len();
            black_box(permc_grammar::shell::read(black_box(COMMANDS[i])))
        })
    });
    group.bench_function("permc_line_facts", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % COMMANDS.len();
            black_box(permc_core::facts::LineFacts::of(black_box(COMMANDS[i])))
        })
    });
    group.finish();

    for &n in SIZES {
        let text = permissions_json(n);
        let r = rules(n);
        let policy = permc_compiler::compile(&r.permissions, &r.autonomy);
        let bytes = permc_compiler::artifact::encode(&policy, &Default::default());
        eprintln!(
            "{n} rules: {:?}, artifact {} bytes, permissions.json {} bytes",
            policy.stats(),
            bytes.len(),
            text.len()
        );

        // The decision as the engine takes it: policy and reason decided,
        // the strings built when asked for (`compiled::answer`); and with
        // every string of SPEC §10.2 built (`compiled::decide`).
        for (name, strings) in [("compiled", false), ("compiled_strings", true)] {
            let mut g = c.benchmark_group(name);
            g.throughput(Throughput::Elements(1));
            g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
                let mut i = 0;
                b.iter(|| {
                    i = (i + 1) % reqs.len();
                    one(&policy, &reqs[i], strings)
                })
            });
            g.finish();
        }

        let mut g = c.benchmark_group("reference");
        g.throughput(Throughput::Elements(1));
        if n >= 10_000 {
            g.sample_size(10).measurement_time(Duration::from_secs(3));
        }
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % reqs.len();
                black_box(reference::decide(&r, &reqs[i]))
            })
        });
        g.finish();

        let mut g = c.benchmark_group("compile");
        if n >= 10_000 {
            g.sample_size(10);
        }
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| black_box(permc_compiler::compile(&r.permissions, &r.autonomy)))
        });
        g.finish();

        let mut g = c.benchmark_group("load_rules");
        if n >= 10_000 {
            g.sample_size(10);
        }
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| black_box(load_permissions("permissions.json", text.as_bytes())))
        });
        g.finish();

        let mut g = c.benchmark_group("load_artifact");
        if n >= 10_000 {
            g.sample_size(10);
        }
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| black_box(permc_compiler::artifact::decode(&bytes)))
        });
        g.finish();
    }
}

/// One answer, dropped: what `compiled/N` measures, as one function for
/// callgrind's `--toggle-collect=decide::one_answer`. `black_box` is given
/// the answer by reference: given by value, it was copied (300 bytes)
/// into `black_box`'s argument, a copy no user of an answer makes.
#[inline(never)]
fn one_answer(policy: &permc_compiler::CompiledPolicy, req: &Request) {
    black_box(&compiled::answer(policy, req));
}

/// One compiled decision, dropped: the answer, or with every string built
/// (`compiled_strings/N`).
fn one(policy: &permc_compiler::CompiledPolicy, req: &Request, strings: bool) {
    if strings {
        black_box(compiled::decide(policy, req));
    } else {
        one_answer(policy, req);
    }
}

fn main() {
    if let Ok(dir) = std::env::var("PERMC_BENCH_WRITE") {
        write_fixtures(&dir);
        return;
    }
    if let Ok(iters) = std::env::var("PERMC_BENCH_COUNT") {
        // A fixed amount of work for `valgrind --tool=callgrind` (counts
        // instructions, unmoved by a loaded machine): ITERS rounds of the
        // typical commands through shlex, the reader, the facts and the
        // compiled decision at 10 and 100k rules; read the per-call cost
        // off the inclusive counts of each function.
        let iters: usize = iters.parse().unwrap_or(1000);
        let mut reqs = requests();
        let mut commands = COMMANDS.to_vec();
        // `PERMC_BENCH_ONLY=K`: the K-th typical command alone (where one
        // command's cost goes).
        if let Some(k) = std::env::var("PERMC_BENCH_ONLY")
            .ok()
            .and_then(|k| k.parse::<usize>().ok())
        {
            reqs = vec![reqs.swap_remove(k % COMMANDS.len())];
            commands = vec![COMMANDS[k % COMMANDS.len()]];
        }
        // `PERMC_BENCH_RULES=N`: over N rules alone (else 10 and 100k).
        let sizes: Vec<usize> = match std::env::var("PERMC_BENCH_RULES") {
            Ok(n) => vec![n.parse().unwrap_or(10)],
            Err(_) => vec![10, 100_000],
        };
        let policies: Vec<_> = sizes
            .iter()
            .map(|&n| {
                let r = rules(n);
                permc_compiler::compile(&r.permissions, &r.autonomy)
            })
            .collect();
        // `PERMC_BENCH_ANSWER_ONLY=1`: the answers alone, so that every
        // function's call count is per answer too.
        let others = std::env::var_os("PERMC_BENCH_ANSWER_ONLY").is_none();
        for _ in 0..iters {
            for &c in commands.iter().filter(|_| others) {
                black_box(shlex::split(black_box(c)));
                black_box(permc_grammar::shell::read(black_box(c)));
                black_box(permc_core::facts::LineFacts::of(black_box(c)));
            }
            for policy in &policies {
                for req in &reqs {
                    one_answer(policy, req);
                }
                for req in reqs.iter().filter(|_| others) {
                    black_box(compiled::decide(policy, req));
                }
            }
        }
        return;
    }
    if let Ok(n) = std::env::var("PERMC_BENCH_PROFILE") {
        // A tight loop for `perf record`: compiled decisions over N rules.
        let n: usize = n.parse().unwrap_or(10);
        let r = rules(n);
        let policy = permc_compiler::compile(&r.permissions, &r.autonomy);
        let reqs = requests();
        let start = std::time::Instant::now();
        let mut count = 0u64;
        while start.elapsed() < Duration::from_secs(5) {
            for req in &reqs {
                black_box(compiled::decide(&policy, req));
            }
            count += reqs.len() as u64;
        }
        eprintln!(
            "{:.0} decisions/s",
            count as f64 / start.elapsed().as_secs_f64()
        );
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
    floor();
}

/// The floor (issue 14): a compiled decision of the typical commands
/// against `shlex::split` of the same commands, at 10 and 100k rules, in
/// one run: the answer (strings when asked for) and, beside it, the
/// decision with every string built. Each is timed over rounds of about
/// 0.3 s, interleaved (so a change of the machine's load touches all
/// alike), the fastest round kept; the ratio is printed beside the target
/// (≤ 3).
fn floor() {
    fn per_op(f: &mut dyn FnMut()) -> f64 {
        let mut n = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_millis(300) {
            for _ in 0..1_000 {
                f();
            }
            n += 1_000;
        }
        start.elapsed().as_nanos() as f64 / n as f64
    }
    let reqs = requests();
    let policies: Vec<_> = [10usize, 100_000]
        .iter()
        .map(|&n| {
            let r = rules(n);
            (n, permc_compiler::compile(&r.permissions, &r.autonomy))
        })
        .collect();
    // best[0]: shlex; then per policy: the answer (strings when asked
    // for), the decision with every string built.
    let mut best = [f64::MAX; 5];
    for _ in 0..5 {
        let mut i = 0;
        best[0] = best[0].min(per_op(&mut || {
            i = (i + 1) % COMMANDS.len();
            black_box(shlex::split(black_box(COMMANDS[i])));
        }));
        for (k, (_, policy)) in policies.iter().enumerate() {
            for (at, strings) in [(1 + k, false), (3 + k, true)] {
                let mut i = 0;
                best[at] = best[at].min(per_op(&mut || {
                    i = (i + 1) % reqs.len();
                    one(policy, &reqs[i], strings);
                }));
            }
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "floor: shlex::split {:.0} ns; compiled answer {:.0} ns at {} rules ({:.2}x), {:.0} ns at {} rules ({:.2}x); target <= 3x; \
         with every string built {:.0} ns ({:.2}x), {:.0} ns ({:.2}x); load {}",
        best[0],
        best[1],
        policies[0].0,
        best[1] / best[0],
        best[2],
        policies[1].0,
        best[2] / best[0],
        best[3],
        best[3] / best[0],
        best[4],
        best[4] / best[0],
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
}
