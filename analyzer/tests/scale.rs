//! How the analyzer scales: a generated file of 100k rules, checked with
//! the time of each phase printed. Not a timed assertion — run it by hand:
//! `cargo test --release -p permc-analyzer --test scale -- --ignored --nocapture`.

use permc_analyzer::{analysis::Analysis, check_file, Kind, Options};
use permc_grammar::rules::load_permissions;
use std::time::Instant;

/// 60k allow, 20k deny, 20k ask entries over 20k tools, some wildcards.
fn generated(n: usize) -> String {
    let subs = [
        "status", "test", "build", "run", "log", "diff", "install", "show", "list", "-la", "--all",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut lists = [Vec::new(), Vec::new(), Vec::new()];
    for i in 0..n {
        let words = 1 + (next() % 3) as usize;
        let mut p = format!("tool{}", next() % 20_000);
        for _ in 0..words {
            p.push(' ');
            p.push_str(subs[(next() % subs.len() as u64) as usize]);
            p.push_str(&(next() % 100).to_string());
        }
        if next() % 10 == 0 {
            p.push('*');
        }
        let list = if i % 5 < 3 { 0 } else { 1 + i % 2 };
        lists[list].push(format!("\"Terminal({p})\""));
    }
    format!(
        "{{\"allow\": [\n{}\n], \"deny\": [\n{}\n], \"ask\": [\n{}\n]}}",
        lists[0].join(",\n"),
        lists[1].join(",\n"),
        lists[2].join(",\n")
    )
}

#[test]
#[ignore = "a measurement, run by hand in release"]
fn hundred_thousand_rules() {
    let text = generated(100_000);
    let t = Instant::now();
    let loaded = load_permissions("permissions.json", text.as_bytes());
    let load = t.elapsed();
    let perms = loaded.value.expect("loads");
    let t = Instant::now();
    let _ = Analysis::of(&perms);
    let analysis = t.elapsed();
    let t = Instant::now();
    let diags = check_file(
        "permissions.json",
        text.as_bytes(),
        Some(Kind::Permissions),
        &Options::default(),
    );
    let all = t.elapsed();
    println!("load {load:?}, analysis {analysis:?}, check_file (load + analysis + checks) {all:?}, {} findings", diags.len());
}
