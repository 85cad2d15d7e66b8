//! Hostile input stays linear (issue 33): a decision over one command of
//! a repeated shape at 8, 64 and 256 KiB, and the reading of a request
//! whose `id` is an object of 1k, 10k and 100k keys. Linear is a time per
//! byte (or per key) that does not grow with the size: criterion's
//! throughput column shows it; `docs/performance.md` keeps the figures.
//!
//! `cargo bench --bench hostile`

/// The allocator the `permc` binary uses (`src/main.rs` says why).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{black_box, BenchmarkId, Criterion, Throughput};
use permc_compiler::compiled;
use permc_core::Request;
use permc_grammar::rules::{load_autonomy, load_permissions};
use serde_json::json;

/// Shapes that were quadratic (a scan of the words before each word),
/// and one that never was, for comparison.
const SHAPES: &[&str] = &["a=$b ", "a=b$c ", "A=`ls` ", "a=${b} ", "A=$(ls) ", "ls "];

/// The command sizes measured, in KiB.
const KIB: &[usize] = &[8, 64, 256];

/// The `id` key counts measured.
const KEYS: &[usize] = &[1_000, 10_000, 100_000];

fn bench(c: &mut Criterion) {
    let perms = load_permissions(
        "permissions.json",
        br#"{"allow": ["Terminal(ls)", "Terminal(a)"], "deny": ["Terminal(curl)"]}"#,
    )
    .value
    .expect("the fixed policy loads");
    let auto = load_autonomy("autonomy.json", br#"{}"#)
        .value
        .expect("the fixed autonomy loads");
    let policy = permc_compiler::compile(&perms, &auto);
    for shape in SHAPES {
        let mut g = c.benchmark_group(format!("hostile_line/{shape}"));
        g.sample_size(10);
        for &kib in KIB {
            let command = shape.repeat(kib * 1024 / shape.len());
            let req = Request::from_value(&json!({
                "action": {"type": "terminal", "command": command},
                "context": {"role": "developer", "projectScopeRoot": "/p"},
            }))
            .expect("a valid request")
            .into_owned();
            g.throughput(Throughput::Bytes(command.len() as u64));
            g.bench_with_input(BenchmarkId::from_parameter(kib), &req, |b, req| {
                b.iter(|| black_box(compiled::decide(&policy, req)))
            });
        }
        g.finish();
    }
    let mut g = c.benchmark_group("id_keys");
    g.sample_size(10);
    for &n in KEYS {
        let keys: Vec<String> = (0..n).map(|i| format!("\"k{i}\":1")).collect();
        let line = format!(
            r#"{{"id":{{{}}},"action":{{"type":"terminal","command":"ls"}},"context":{{"role":"developer","projectScopeRoot":"/p"}}}}"#,
            keys.join(",")
        );
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &line, |b, line| {
            b.iter(|| black_box(Request::from_json_with_id(line)))
        });
    }
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
