//! No function of permc-shell is longer than 100 lines (issue "Commands as
//! data"): a reader of bash and of the catalogue is read by people who
//! must see a function whole. Counted on rustfmt's layout over `src/`
//! (unit tests included): from a line `fn NAME` to the first line after it
//! that closes at its indentation.

use std::path::Path;

const LIMIT: usize = 100;

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The functions of `text` longer than [`LIMIT`]: (line, name, length).
fn long_functions(text: &str) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let indent = l.len() - l.trim_start().len();
        let rest = l.trim_start();
        let rest = rest
            .strip_prefix("pub(crate) ")
            .or_else(|| rest.strip_prefix("pub(super) "))
            .or_else(|| rest.strip_prefix("pub "))
            .unwrap_or(rest);
        let rest = rest.strip_prefix("const ").unwrap_or(rest);
        let Some(sig) = rest.strip_prefix("fn ") else {
            continue;
        };
        let name: String = sig
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // The line that opens the body (a signature may span lines); a
        // declaration without a body ends with `;`.
        let Some(open) = (i..lines.len()).find(|&j| {
            let t = lines[j].trim_end();
            t.ends_with('{') || t.ends_with(';')
        }) else {
            continue;
        };
        if lines[open].trim_end().ends_with(';') {
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    files.sort();
    let mut long = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file reads");
        for (line, name, len) in long_functions(&text) {
            long.push(format!("{}:{line} `{name}`: {len} lines", f.display()));
        }
    }
    assert!(files.len() > 10, "the sources were found");
    assert!(
        long.is_empty(),
        "functions longer than {LIMIT} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_count_sees_a_long_function() {
    let body = "    x();\n".repeat(LIMIT);
    let text = format!("fn short() {{\n}}\n\npub(crate) fn long(\n    a: u8,\n) {{\n{body}}}\n");
    assert_eq!(long_functions(&text), [(4, "long".to_string(), LIMIT + 4)]);
}
