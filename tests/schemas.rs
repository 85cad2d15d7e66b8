//! The JSON Schemas of `schemas/` (issue 31 point 10): `permc schema NAME`
//! prints each; their enums are the Rust enums' names; and a real
//! validator (Python's jsonschema, Draft 2020-12) accepts every example,
//! every corpus case's rule files and request, and permc's own outputs.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn permc(dir: &Path, args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_permc"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("permc runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

const NAMES: &[&str] = &[
    "permissions",
    "autonomy",
    "request",
    "decision",
    "check",
    "diff",
    "permc-toml",
];

fn schema(name: &str) -> serde_json::Value {
    let path = root().join(format!("schemas/{name}.schema.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("schema")).expect("json")
}

#[test]
fn permc_schema_prints_each_schema() {
    let files = std::fs::read_dir(root().join("schemas"))
        .expect("schemas/")
        .count();
    assert_eq!(
        files,
        NAMES.len(),
        "a schema in schemas/ that `permc schema` does not print"
    );
    for name in NAMES {
        let (out, code) = permc(&root(), &["schema", name]);
        assert_eq!(code, 0, "{name}");
        let file = std::fs::read_to_string(root().join(format!("schemas/{name}.schema.json")))
            .expect("schema");
        assert_eq!(out, file, "{name}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert!(v["description"].is_string(), "{name} has a description");
    }
}

/// The enums of the schemas are the Rust enums' names (one source: the
/// vocabulary the bindings' types are checked against too).
#[test]
fn the_schemas_enums_are_the_rust_enums() {
    let v = permc_runtime::codes::vocabulary();
    let names = |key: &str| v[key].clone();
    let request = schema("request");
    assert_eq!(
        request["properties"]["action"]["properties"]["type"]["enum"],
        names("actionTypes")
    );
    assert_eq!(
        request["properties"]["context"]["properties"]["role"]["enum"],
        names("roles")
    );
    let decision = schema("decision");
    let d = &decision["$defs"]["decision"]["properties"];
    assert_eq!(d["policy"]["enum"], names("policies"));
    assert_eq!(d["reason"]["enum"], names("reasons"));
    let codes = &decision["$defs"]["error"]["properties"]["error"]["properties"]["code"]["enum"];
    assert_eq!(*codes, names("errorCodes"));
    let autonomy = schema("autonomy");
    let mut keys = names("actionTypes");
    keys.as_array_mut().expect("array").push("*".into());
    assert_eq!(autonomy["$defs"]["agent"]["propertyNames"]["enum"], keys);
    assert_eq!(autonomy["$defs"]["mode"]["enum"], names("policies"));
}

#[test]
fn every_example_corpus_file_and_output_is_schema_valid() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("schemas");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch");
    write_decide_and_check_outputs(&scratch);
    write_a_diff_output(&scratch);
    write_the_seeded_and_documented_permc_toml(&scratch);
    the_validator_accepts_everything(&scratch);
}

/// Into `scratch`: permc decide's answers to the example requests, and
/// permc check's findings on the example rules.
fn write_decide_and_check_outputs(scratch: &Path) {
    let ex = |f: &str| root().join("examples").join(f).display().to_string();
    let requests = ex("requests.jsonl");
    let rules = [
        "--permissions",
        &ex("permissions.json"),
        "--autonomy",
        &ex("autonomy.json"),
    ];

    let mut args = vec!["decide"];
    args.extend(rules);
    args.extend(["--requests", &requests]);
    let (decided, code) = permc(&root(), &args);
    assert_eq!(code, 0);
    std::fs::write(scratch.join("decide.jsonl"), decided).expect("write");

    let (checked, _) = permc(
        &root(),
        &[
            "check",
            "--format",
            "json",
            &ex("permissions.json"),
            &ex("autonomy.json"),
        ],
    );
    std::fs::write(scratch.join("check.json"), checked).expect("write");
}

/// Into `scratch`: permc diff's rows for a change that grants more, less
/// and something of autonomy.
fn write_a_diff_output(scratch: &Path) {
    let (old, new) = (scratch.join("old"), scratch.join("new"));
    for (dir, allow, auto) in [
        (
            &old,
            r#"["Terminal(ls)", "Terminal(npm test)"]"#,
            r#"{"dev-api": {"git_commit": "require_approval"}}"#,
        ),
        (
            &new,
            r#"["Terminal(ls)", "Terminal(pnpm test:*)"]"#,
            r#"{"dev-api": {"git_commit": "auto_approve"}}"#,
        ),
    ] {
        std::fs::create_dir_all(dir).expect("dir");
        std::fs::write(
            dir.join("permissions.json"),
            format!(r#"{{"allow": {allow}}}"#),
        )
        .expect("write");
        std::fs::write(dir.join("autonomy.json"), auto).expect("write");
    }
    let (diff, _) = permc(
        scratch,
        &[
            "diff",
            "--format",
            "json",
            &old.display().to_string(),
            &new.display().to_string(),
        ],
    );
    assert!(diff.contains("\"changes\""), "{diff}");
    std::fs::write(scratch.join("diff.json"), diff).expect("write");
}

/// Into `scratch`: permc seed's permc.toml, and the one docs/config.md
/// shows.
fn write_the_seeded_and_documented_permc_toml(scratch: &Path) {
    let seeded = scratch.join("seeded");
    std::fs::create_dir_all(&seeded).expect("dir");
    let (_, code) = permc(
        &seeded,
        &[
            "seed",
            "--permissions",
            "permissions.json",
            "--autonomy",
            "autonomy.json",
        ],
    );
    assert_eq!(code, 0);
    std::fs::copy(seeded.join("permc.toml"), scratch.join("permc.toml"))
        .expect("seed writes permc.toml");
    let page = std::fs::read_to_string(root().join("docs/config.md")).expect("docs/config.md");
    let (_, after) = page
        .split_once("# Project config (permc.toml)")
        .expect("section");
    let (_, block) = after.split_once("```toml\n").expect("toml block");
    let (block, _) = block.split_once("```").expect("end");
    std::fs::write(scratch.join("docs-permc.toml"), block).expect("write");
}

/// Python's jsonschema accepts the examples, the corpus cases' files and
/// what is in `scratch` (skipped, with a message, without it unless
/// `PERMC_REQUIRE_SCHEMA` is set).
fn the_validator_accepts_everything(scratch: &Path) {
    let out = Command::new("python3")
        .arg(root().join("tests/support/validate_schemas.py"))
        .arg(root())
        .arg(scratch)
        .output();
    let required = std::env::var_os("PERMC_REQUIRE_SCHEMA").is_some();
    match out {
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("No module named 'jsonschema'") => {
            assert!(
                !required,
                "python3 jsonschema is required: pip install jsonschema"
            );
            eprintln!("SKIPPED schema validation: pip install jsonschema to run it");
        }
        Ok(o) => assert!(
            o.status.success(),
            "not schema-valid:\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            assert!(!required, "python3 is required: {e}");
            eprintln!("SKIPPED schema validation: no python3 ({e})");
        }
    }
}
