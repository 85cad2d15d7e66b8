//! The shared corpus (tests/corpus/*.toml) against every engine: the
//! reference interpreter, the CLI (`permc decide`), and (when present) the
//! compiled engine. One loader, one `check`, a thin runner per engine;
//! and the engines against each other on the whole decision.

#[path = "support/corpus.rs"]
mod corpus;

use corpus::{Answer, Case};
use permc_core::{reference, Request, Rules};
use permc_grammar::rules::{load_autonomy, load_permissions};

fn rules_of(case: &Case) -> Rules {
    let p = load_permissions("permissions.json", case.permissions.as_bytes());
    let a = load_autonomy("autonomy.json", case.autonomy.as_bytes());
    let p = p
        .value
        .unwrap_or_else(|| panic!("{}: permissions do not load: {:?}", case.id, p.diagnostics));
    let a = a
        .value
        .unwrap_or_else(|| panic!("{}: autonomy does not load: {:?}", case.id, a.diagnostics));
    // The case's project rows, read as permc.toml's are.
    let rows = permc_runtime::commands::read("permc.toml", &case.config);
    assert!(
        rows.diagnostics.is_empty(),
        "{}: the rows do not read: {:?}",
        case.id,
        rows.diagnostics
    );
    Rules::new(p, a).with_project(rows.rows)
}

fn answer(d: &permc_core::Decision) -> Answer {
    Answer::Decision {
        policy: d.policy.name().to_string(),
        reason: d.reason.name().to_string(),
        rule: d.rule.as_ref().map(|r| r.rule.clone()),
    }
}

#[test]
fn reference_engine() {
    let n = corpus::run_all("reference", |case| {
        let rules = rules_of(case);
        match Request::from_json(&case.request) {
            Ok(req) => answer(&reference::decide(&rules, &req)),
            Err(e) => Answer::Error(e.code.to_string()),
        }
    });
    assert!(
        n >= 200,
        "the corpus should hold at least 200 cases, has {n}"
    );
}

#[test]
fn compiled_engine() {
    corpus::run_all("compiled", |case| {
        let rules = rules_of(case);
        let policy = permc_runtime::compile(&rules);
        match Request::from_json(&case.request) {
            Ok(req) => answer(&permc_compiler::compiled::decide(&policy, &req)),
            Err(e) => Answer::Error(e.code.to_string()),
        }
    });
}

#[test]
fn compiled_engine_through_the_artifact() {
    use permc_compiler::artifact;
    corpus::run_all("artifact", |case| {
        let rules = rules_of(case);
        let policy = permc_runtime::compile(&rules);
        let bytes = artifact::encode(&policy, &artifact::SourceHashes::default());
        let loaded = artifact::decode(&bytes).expect("the artifact loads").policy;
        match Request::from_json(&case.request) {
            Ok(req) => answer(&permc_compiler::compiled::decide(&loaded, &req)),
            Err(e) => Answer::Error(e.code.to_string()),
        }
    });
}

/// The engines side by side on every case: the whole decision, message
/// included (the cases themselves do not fix the wording).
#[test]
fn engines_agree_on_every_case_message_included() {
    use permc_compiler::artifact;
    let mut failures = Vec::new();
    let cases = corpus::load_all();
    for case in &cases {
        let Ok(req) = Request::from_json(&case.request) else {
            continue;
        };
        let rules = rules_of(case);
        let policy = permc_runtime::compile(&rules);
        let bytes = artifact::encode(&policy, &artifact::SourceHashes::default());
        let loaded = artifact::decode(&bytes).expect("the artifact loads").policy;
        let expect = reference::decide(&rules, &req);
        for (name, p) in [("compiled", &policy), ("artifact", &loaded)] {
            let got = permc_compiler::compiled::decide(p, &req);
            if got != expect {
                failures.push(format!(
                    "{} ({name}):\n  reference: {expect:?}\n  {name}: {got:?}",
                    case.id
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus cases disagree:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn cli_engine() {
    let dir = std::env::temp_dir().join(format!("permc-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    corpus::run_all("cli", |case| {
        let p = dir.join("permissions.json");
        let a = dir.join("autonomy.json");
        std::fs::write(&p, &case.permissions).expect("write");
        std::fs::write(&a, &case.autonomy).expect("write");
        let c = dir.join("permc.toml");
        std::fs::write(&c, &case.config).expect("write");
        // Through a file: a request can be longer than one argv entry may
        // be (128 KiB on Linux), and a stream line holds no newline.
        let r = dir.join("request.jsonl");
        // As written (a key given twice must reach permc twice); a raw
        // newline cannot be inside a JSON string, so it is only blank.
        let line = case.request.replace(['\n', '\r'], " ");
        std::fs::write(&r, line + "\n").expect("write");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_permc"))
            .arg("decide")
            .arg("--permissions")
            .arg(&p)
            .arg("--autonomy")
            .arg(&a)
            .arg("--config")
            .arg(&c)
            .arg("--requests")
            .arg(&r)
            .output()
            .expect("permc runs");
        assert!(
            out.status.success(),
            "{}: exit {:?}: {}",
            case.id,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let line = String::from_utf8_lossy(&out.stdout);
        let v: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON line");
        corpus::answer_from_json(&v)
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lookups a run keeps (`RunCache`: its described row and one walk of
/// its words read to the end) answer as the lookups made afresh, on every
/// command of the corpus: the mutating continuation of each segment (the
/// walk that stops at the first word's) and the unplaced word of each run.
#[test]
fn kept_lookups_answer_as_fresh_ones() {
    use permc_core::facts::{continuations, LineFacts};
    let mut failures = Vec::new();
    for case in corpus::load_all() {
        let Ok(req) = Request::from_json(&case.request) else {
            continue;
        };
        let Some(command) = req.action.command.as_deref() else {
            continue;
        };
        let f = LineFacts::of(command);
        for (i, s) in f.line.segments.iter().enumerate() {
            // Twice: the first looks up and keeps, the second reads.
            for round in 0..2 {
                let kept =
                    continuations::mutating_from_cached(&s.words, &s.known, f.segment_cache(i));
                let fresh = continuations::mutating_from(&s.words, &s.known);
                if kept != fresh {
                    failures.push(format!(
                        "{} `{command}` segment {i} round {round}: {kept:?} against {fresh:?}",
                        case.id
                    ));
                }
            }
        }
        for r in f.runs().filter(|r| !r.guessed && !r.canonical) {
            let kept = continuations::unplaced_with_cached(r.words, r.known, None, r.cache);
            let fresh = continuations::unplaced(r.words, r.known);
            if kept.map(|(i, d)| (i, d.index)) != fresh.map(|(i, d)| (i, d.index)) {
                failures.push(format!(
                    "{} `{command}`: unplaced {kept:?} against {fresh:?}",
                    case.id
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
