//! Writes the requests of `examples/` and `tests/corpus/` for the binding
//! tests, each with the answer `permc decide` gives it.
//!
//! `permc-corpus-export REPO PERMC OUT` writes into OUT:
//! - `policies/NNN/{permissions,autonomy}.json`: each distinct rule pair;
//! - `cases.jsonl`: `{"name", "policy", "request", "answer"}` a line (the
//!   Node tests);
//! - `cases.exs`: the same as an Elixir list of maps (Elixir's standard
//!   library reads no JSON before 1.18).
//!
//! A corpus case given as raw text (`request = '''…'''`) is kept when the
//! text is a JSON object, the form a map or an object can take; its
//! answer is `permc decide`'s on that object as written back.

use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: permc-corpus-export REPO PERMC OUT");
        std::process::exit(2);
    }
    if let Err(e) = run(
        Path::new(&args[1]),
        Path::new(&args[2]),
        Path::new(&args[3]),
    ) {
        eprintln!("permc-corpus-export: {e}");
        std::process::exit(1);
    }
}

/// One request with its rules.
struct Case {
    name: String,
    permissions: String,
    autonomy: String,
    request: Value,
}

fn read(p: &Path) -> Result<String, String> {
    std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
}

fn toml_json(t: &toml::Value) -> Value {
    serde_json::to_value(t).unwrap_or(Value::Null)
}

fn corpus(repo: &Path) -> Result<Vec<Case>, String> {
    let dir = repo.join("tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for f in files {
        let file = f
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let doc: toml::Table = read(&f)?.parse().map_err(|e| format!("{file}: {e}"))?;
        let defaults = doc
            .get("defaults")
            .and_then(|d| d.get("context"))
            .and_then(|c| c.as_table())
            .cloned()
            .unwrap_or_default();
        let Some(list) = doc.get("case").and_then(|c| c.as_array()) else {
            continue;
        };
        for c in list {
            let name = format!(
                "{file}:{}",
                c.get("name").and_then(|n| n.as_str()).unwrap_or("?")
            );
            let request = if let Some(raw) = c.get("request").and_then(|r| r.as_str()) {
                match serde_json::from_str::<Value>(raw) {
                    Ok(v @ Value::Object(_)) => v,
                    _ => continue,
                }
            } else {
                let mut ctx = defaults.clone();
                if let Some(own) = c.get("context").and_then(|c| c.as_table()) {
                    for (k, v) in own {
                        ctx.insert(k.clone(), v.clone());
                    }
                }
                let action = c.get("action").map(toml_json).unwrap_or(Value::Null);
                json!({"action": action, "context": toml_json(&toml::Value::Table(ctx))})
            };
            let rules = |key: &str| {
                c.get(key)
                    .map_or_else(|| "{}".to_string(), |t| toml_json(t).to_string())
            };
            cases.push(Case {
                name,
                permissions: rules("permissions"),
                autonomy: rules("autonomy"),
                request,
            });
        }
    }
    Ok(cases)
}

fn examples(repo: &Path) -> Result<Vec<Case>, String> {
    let ex = repo.join("examples");
    let permissions = read(&ex.join("permissions.json"))?;
    let autonomy = read(&ex.join("autonomy.json"))?;
    let mut cases = Vec::new();
    for (i, line) in read(&ex.join("requests.jsonl"))?.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let request: Value =
            serde_json::from_str(line).map_err(|e| format!("requests.jsonl:{}: {e}", i + 1))?;
        cases.push(Case {
            name: format!("examples/requests.jsonl:{}", i + 1),
            permissions: permissions.clone(),
            autonomy: autonomy.clone(),
            request,
        });
    }
    Ok(cases)
}

fn run(repo: &Path, permc: &Path, out: &Path) -> Result<(), String> {
    let mut cases = examples(repo)?;
    cases.extend(corpus(repo)?);
    // One policy directory per distinct pair of rule files.
    let mut policies: BTreeMap<(String, String), usize> = BTreeMap::new();
    for c in &cases {
        let n = policies.len();
        policies
            .entry((c.permissions.clone(), c.autonomy.clone()))
            .or_insert(n);
    }
    let mkdir = |p: &Path| std::fs::create_dir_all(p).map_err(|e| format!("{}: {e}", p.display()));
    let write =
        |p: &Path, s: &str| std::fs::write(p, s).map_err(|e| format!("{}: {e}", p.display()));
    let _ = std::fs::remove_dir_all(out);
    let mut answers: Vec<Option<Value>> = vec![None; cases.len()];
    for ((perms, auto), n) in &policies {
        let dir = out.join(format!("policies/{n:03}"));
        mkdir(&dir)?;
        write(&dir.join("permissions.json"), perms)?;
        write(&dir.join("autonomy.json"), auto)?;
        let mine: Vec<usize> = (0..cases.len())
            .filter(|&i| &cases[i].permissions == perms && &cases[i].autonomy == auto)
            .collect();
        let mut lines = String::new();
        for &i in &mine {
            lines.push_str(&cases[i].request.to_string());
            lines.push('\n');
        }
        write(&dir.join("requests.jsonl"), &lines)?;
        let o = Command::new(permc)
            .arg("decide")
            .arg("--permissions")
            .arg(dir.join("permissions.json"))
            .arg("--autonomy")
            .arg(dir.join("autonomy.json"))
            .arg("--requests")
            .arg(dir.join("requests.jsonl"))
            .output()
            .map_err(|e| format!("cannot run {}: {e}", permc.display()))?;
        if !o.status.success() {
            return Err(format!(
                "permc decide failed on policies/{n:03}: {}",
                String::from_utf8_lossy(&o.stderr)
            ));
        }
        let text = String::from_utf8_lossy(&o.stdout);
        let got: Vec<&str> = text.lines().collect();
        if got.len() != mine.len() {
            return Err(format!(
                "policies/{n:03}: {} answers to {} requests",
                got.len(),
                mine.len()
            ));
        }
        for (&i, line) in mine.iter().zip(got) {
            answers[i] =
                Some(serde_json::from_str(line).map_err(|e| format!("answer {line}: {e}"))?);
        }
    }
    let mut jsonl = String::new();
    let mut exs = String::from(
        "# Written by permc-corpus-export: every request with permc decide's answer.\n[\n",
    );
    for (c, a) in cases.iter().zip(answers) {
        let n = policies[&(c.permissions.clone(), c.autonomy.clone())];
        let v = json!({
            "name": c.name,
            "policy": format!("policies/{n:03}"),
            "request": c.request,
            "answer": a.unwrap_or(Value::Null),
        });
        jsonl.push_str(&v.to_string());
        jsonl.push('\n');
        exs.push_str("  ");
        elixir(&v, &mut exs);
        exs.push_str(",\n");
    }
    exs.push_str("]\n");
    write(&out.join("cases.jsonl"), &jsonl)?;
    write(&out.join("cases.exs"), &exs)?;
    eprintln!(
        "permc-corpus-export: {} requests over {} policies in {}",
        cases.len(),
        policies.len(),
        out.display()
    );
    Ok(())
}

/// `v` as an Elixir literal: objects as maps with string keys.
fn elixir(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("nil"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if n.is_f64() {
                let f = n.as_f64().unwrap_or(0.0);
                let s = format!("{f:?}");
                // Elixir wants digits after the point: `1.0e5`, not `1e5`.
                let s = if s.contains('.') {
                    s
                } else {
                    s.replacen('e', ".0e", 1)
                };
                out.push_str(&s);
            } else {
                out.push_str(&n.to_string());
            }
        }
        Value::String(s) => elixir_string(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                elixir(x, out);
            }
            out.push(']');
        }
        Value::Object(o) => elixir_map(o, out),
    }
}

fn elixir_map(o: &Map<String, Value>, out: &mut String) {
    out.push_str("%{");
    for (i, (k, x)) in o.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        elixir_string(k, out);
        out.push_str(" => ");
        elixir(x, out);
    }
    out.push('}');
}

fn elixir_string(s: &str, out: &mut String) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '#' => out.push_str("\\#"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\u{{{:X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
