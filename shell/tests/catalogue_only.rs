//! The catalogue is the only place a program is described (issue 29,
//! SPEC §4.3 [round 3] "One catalogue of commands"): no code outside
//! `shell/src/facts/catalogue` names a program the catalogue knows in a
//! string literal. Logic reads rows; a program's name in a `match` or a
//! `==` is knowledge the catalogue, always-allow, the analyzer and the
//! docs cannot see, and three such copies already disagreed once.
//!
//! A plain text scan, cheap and without dependencies: every `"…"` literal
//! of the workspace's library and CLI sources, outside the catalogue, the
//! test modules (from a `#[cfg(test)]` line followed by `mod` to the end
//! of the file) and the test and doc generators.

use permc_shell::facts::catalogue::program_names;
use std::path::{Path, PathBuf};

/// The source trees scanned, from the workspace root.
const TREES: &[&str] = &[
    "shell/src",
    "core/src",
    "grammar/src",
    "compiler/src",
    "runtime/src",
    "analyzer/src",
    "src",
];

/// What is not knowledge of programs, each with the reason.
const SKIPPED: &[(&str, &str)] = &[
    (
        "shell/src/facts/catalogue",
        "the catalogue itself: where programs are described",
    ),
    (
        "shell/src/facts/rows_attacked.rs",
        "attacks every row with a line it must catch: the lines name programs",
    ),
    (
        "shell/src/facts/catalogue_doc.rs",
        "writes docs/commands.md from the rows; its prose names programs",
    ),
    ("tests.rs", "a test module of its own file"),
];

/// Literals equal to a program's name that do not describe the program,
/// each with the reason: (file, the literals, why).
const EXEMPT: &[(&str, &[&str], &str)] = &[
    (
        "runtime/src/answer.rs",
        &["code"],
        "the word kind `code` (SPEC §4.5 item 1) in an answer's JSON, not VS Code's CLI",
    ),
    (
        "runtime/src/explain.rs",
        &["code"],
        "the word kind `code` (SPEC §4.5 item 1) named for people, not VS Code's CLI",
    ),
    (
        "src/serve/stream.rs",
        &["code"],
        "a JSON-RPC error's `code` field, not VS Code's CLI",
    ),
    (
        "shell/src/facts/project.rs",
        &["code"],
        "the word kind `code` of permc.toml's rows (SPEC §4.5 item 6), not VS Code's CLI",
    ),
    (
        "src/diff/report.rs",
        &["kind"],
        "a change's `kind` field in `permc diff`'s JSON and SARIF, not the Kubernetes-in-Docker CLI",
    ),
    (
        "src/repo.rs",
        &["git"],
        "permc itself runs git (`Command::new`) to read a repository: not knowledge of git",
    ),
    (
        "src/diff/versions.rs",
        &["git"],
        "permc itself runs git to read a file's older version",
    ),
    (
        "shell/src/reader/commands.rs",
        &["time"],
        "bash's reserved word `time` (a pipeline prefix): grammar, not a program",
    ),
    (
        "shell/src/reader/simple.rs",
        &["time"],
        "bash's reserved word `time`: the fast path declines it",
    ),
    (
        "shell/src/facts/wrappers.rs",
        &["time", "command"],
        "`time` as bash's reserved word before a compound command; `command` as a \
         substring of ssh's `-o` option names (ProxyCommand, LocalCommand)",
    ),
    (
        "shell/src/facts/code_options.rs",
        &["source"],
        "awk's `--source` option, not the builtin",
    ),
    (
        "core/src/request.rs",
        &["command", "true", "false", "id"],
        "a request's fields `command` and `id`, and JSON's literals",
    ),
    ("grammar/src/json.rs", &["true", "false"], "JSON's literals"),
    (
        "src/lsp/hover.rs",
        &["yes"],
        "a pattern's hover says `wildcard: yes`: a word of the page, not coreutils' yes",
    ),
    (
        "core/src/decision.rs",
        &["source"],
        "a decision's field `source`",
    ),
    (
        "core/src/phrases.rs",
        &["builtin"],
        "the `source` of a built-in rule, a label",
    ),
    (
        "runtime/src/lib.rs",
        &["op"],
        "a redirection's JSON field `op` (`permc tokens`)",
    ),
    (
        "runtime/src/commands.rs",
        &["command"],
        "permc.toml's table `[[command]]`",
    ),
    (
        "runtime/src/explain.rs",
        &["command", "id"],
        "a request's fields `command` and `id`",
    ),
    (
        "analyzer/src/checks/mod.rs",
        &["command"],
        "a request's field `command`",
    ),
    (
        "analyzer/src/output.rs",
        &["file", "id"],
        "an output format's fields `file` and `id`",
    ),
    (
        "src/config.rs",
        &["command", "true"],
        "permc.toml's table `[[command]]` and TOML's literal",
    ),
    (
        "runtime/src/answer.rs",
        &["id"],
        "a request's and an answer's field `id`",
    ),
    (
        "src/schema.rs",
        &["diff"],
        "the name of `permc diff`'s JSON schema",
    ),
    (
        "src/diff/report.rs",
        &["file", "source", "id"],
        "the report's fields",
    ),
    (
        "src/diff/mod.rs",
        &["make", "true"],
        "sample commands `permc diff` decides to show what autonomy alone does",
    ),
    (
        "src/lsp/hover.rs",
        &["ls", "git", "npm", "test", "make", "rm", "cat"],
        "sample commands a hover decides to show what an entry allows",
    ),
    (
        "src/testing/read.rs",
        &["command", "expect"],
        "a test file's fields",
    ),
    (
        "src/testing/report.rs",
        &["at", "file", "source", "expect"],
        "a test report's fields",
    ),
];

/// Names that are also syntax or paths (`.`, `:`, `[`): read in context,
/// never compared here.
fn is_word(name: &str) -> bool {
    name.bytes().any(|b| b.is_ascii_alphabetic())
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The string literals of one line, with char literals and `//` comments
/// dropped first.
fn literals(line: &str) -> Vec<String> {
    let t = line.trim_start();
    if t.starts_with("//") {
        return Vec::new();
    }
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 3,
            b'\'' if b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') => i += 4,
            b'/' if b.get(i + 1) == Some(&b'/') => break,
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                out.push(line[start..j.min(b.len())].to_string());
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Do these lines (after a `#[cfg(test)]`), past attributes, open an
/// inline module (`mod tests {`)?
fn opens_test_module(after: &[&str]) -> bool {
    after
        .iter()
        .map(|l| l.trim())
        .find(|l| !l.starts_with("#["))
        .is_some_and(|l| l.starts_with("mod ") && l.ends_with('{'))
}

/// The files of out-of-line test modules (`#[cfg(test)] mod name;`).
fn test_module_files(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            let Some(name) = lines
                .get(n + 1)
                .filter(|_| line.trim() == "#[cfg(test)]")
                .and_then(|l| l.trim().strip_prefix("mod "))
                .and_then(|l| l.strip_suffix(';'))
            else {
                continue;
            };
            let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let dir = match stem {
                "mod" | "lib" | "main" => f.parent().map(Path::to_path_buf).unwrap_or_default(),
                _ => f.with_extension(""),
            };
            out.push(dir.join(format!("{name}.rs")));
            out.push(dir.join(name).join("mod.rs"));
        }
    }
    out
}

#[test]
fn no_program_is_named_outside_the_catalogue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let names = program_names();
    assert!(
        names.len() > 100,
        "the catalogue lists {} programs",
        names.len()
    );
    let mut files = Vec::new();
    for t in TREES {
        rust_files(&root.join(t), &mut files);
    }
    files.sort();
    let tests = test_module_files(&files);
    let mut found = Vec::new();
    for f in files.iter().filter(|f| !tests.contains(f)) {
        let rel = f
            .strip_prefix(&root)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        if SKIPPED
            .iter()
            .any(|(s, _)| rel.starts_with(s) || rel.ends_with(&format!("/{s}")))
        {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            if line.trim() == "#[cfg(test)]" && opens_test_module(&lines[n + 1..]) {
                break;
            }
            for lit in literals(line) {
                let named = names.binary_search(&lit.as_str()).is_ok() && is_word(&lit);
                let exempt = EXEMPT
                    .iter()
                    .any(|(p, l, _)| rel == *p && l.contains(&lit.as_str()));
                if named && !exempt {
                    found.push(format!("{rel}:{}: \"{lit}\"", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} program names outside the catalogue — describe the program in the catalogue \
         (shell/src/facts/catalogue) and read the row:\n{}",
        found.len(),
        found.join("\n")
    );
}
