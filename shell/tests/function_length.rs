//! No function in the repository's Rust is longer than 100 lines (issues
//! "Commands as data" and 40): every crate's sources, their tests, the
//! oracle, the benches, the fuzz targets and the bindings are read by
//! people who must see a function whole; a test that is a list of cases
//! is a table, a scripted run a sequence of named steps. Counted on
//! rustfmt's layout: from a line `fn NAME` to the first line after it
//! that closes at its indentation. Build output (`target/`), hidden
//! folders and generated files (`@generated`) are not read.

use std::path::{Path, PathBuf};

const LIMIT: usize = 100;

/// Folders that hold no Rust of ours: build output, other tools' caches
/// and dependencies (Node's, Elixir's).
const NOT_OURS: &[&str] = &["target", "node_modules", "deps", "_build"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let p = e.path();
        let name = e.file_name();
        let name = name.to_string_lossy();
        if p.is_dir() {
            if !name.starts_with('.') && !NOT_OURS.contains(&name.as_ref()) {
                sources(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Is `text` generated (rustfmt's and Cargo's marker near the top)?
fn generated(text: &str) -> bool {
    text.lines().take(5).any(|l| l.contains("@generated"))
}

/// The name of the function a line declares, after any visibility and
/// qualifiers (`pub(crate) const unsafe extern "C" fn`).
fn declared_fn(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    if let Some(r) = rest.strip_prefix("pub") {
        rest = match r.strip_prefix('(') {
            Some(inner) => inner.split_once(')')?.1,
            None => r,
        };
        rest = rest.trim_start();
    }
    loop {
        let before = rest;
        for q in ["default ", "const ", "async ", "unsafe "] {
            rest = rest.strip_prefix(q).unwrap_or(rest);
        }
        if let Some(r) = rest.strip_prefix("extern ") {
            rest = r.trim_start();
            if rest.starts_with('"') {
                rest = rest[1..].split_once('"')?.1.trim_start();
            }
        }
        if rest == before {
            break;
        }
    }
    let sig = rest.strip_prefix("fn ")?;
    let name: String = sig
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The functions of `text` longer than [`LIMIT`]: (line, name, length).
fn long_functions(text: &str) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let indent = l.len() - l.trim_start().len();
        let Some(name) = declared_fn(l) else {
            continue;
        };
        // The line that opens the body (a signature may span lines); a
        // declaration without a body ends with `;`, a body on one line
        // (`fn drop(&mut self) {}`) with `}`.
        let one_line = |t: &str| t.ends_with('}') && t.contains('{');
        let Some(open) = (i..lines.len()).find(|&j| {
            let t = lines[j].trim_end();
            t.ends_with('{') || t.ends_with(';') || one_line(t)
        }) else {
            continue;
        };
        if !lines[open].trim_end().ends_with('{') {
            continue;
        }
        let close = format!("{}}}", " ".repeat(indent));
        let end = (open + 1..lines.len())
            .find(|&k| lines[k] == close)
            .unwrap_or(lines.len());
        let len = end - i + 1;
        if len > LIMIT {
            found.push((i + 1, name, len));
        }
    }
    found
}

#[test]
fn no_function_is_longer_than_100_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace above permc-shell");
    let mut files = Vec::new();
    sources(root, &mut files);
    files.sort();
    // Every part of the repository is read: a walk that silently skipped
    // one would pass.
    for part in [
        "shell/src/lib.rs",
        "shell/tests/function_length.rs",
        "src/main.rs",
        "compiler/src/lib.rs",
        "tests/oracle/main.rs",
        "tests/oracle/rows/mod.rs",
        "benches/decide.rs",
        "bindings/node/src/lib.rs",
    ] {
        assert!(
            files.contains(&root.join(part)),
            "{part} is among the sources read"
        );
    }
    let mut long = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file reads");
        if generated(&text) {
            continue;
        }
        for (line, name, len) in long_functions(&text) {
            let f = f.strip_prefix(root).unwrap_or(f);
            long.push(format!("{}:{line} `{name}`: {len} lines", f.display()));
        }
    }
    assert!(
        long.is_empty(),
        "functions longer than {LIMIT} lines (make a list of cases a table, a \
         scripted run named steps):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_count_sees_a_long_function() {
    let body = "    x();\n".repeat(LIMIT);
    let text = format!("fn short() {{\n}}\n\npub(crate) fn long(\n    a: u8,\n) {{\n{body}}}\n");
    assert_eq!(long_functions(&text), [(4, "long".to_string(), LIMIT + 4)]);
}

/// Tests and methods, nested and qualified, are counted as any function.
#[test]
fn the_count_sees_every_kind_of_function() {
    let body = "        x();\n".repeat(LIMIT);
    for sig in [
        "pub(in crate::a) async fn long() {",
        "const unsafe extern \"C\" fn long() {",
        "pub unsafe fn long() {",
        "fn long() {",
    ] {
        let text = format!("#[test]\nfn short() {{}}\n\nimpl A {{\n    {sig}\n{body}    }}\n}}\n");
        assert_eq!(
            long_functions(&text),
            [(5, "long".to_string(), LIMIT + 2)],
            "{sig}"
        );
    }
    assert_eq!(declared_fn("// fn commented() {"), None);
    assert_eq!(declared_fn("let f = fn_ptr;"), None);
    assert!(generated("// @generated by build.rs\nfn f() {}\n"));
}
