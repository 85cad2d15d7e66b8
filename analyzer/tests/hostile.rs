//! Hostile rule files never make the analyzer panic, in any output format:
//! random bytes, and JSON-shaped files of random patterns (quotes, stars,
//! variables, operators, odd labels, multi-byte characters).

use permc_analyzer::output::{github, human, json, sarif, Source};
use permc_analyzer::{check_file, Kind, Options};
use proptest::prelude::*;

fn run_all(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes).into_owned();
    for kind in [Kind::Permissions, Kind::Autonomy] {
        let options = Options {
            project_root: Some("/home/ana/p".into()),
            ignore: Vec::new(),
            ..Options::default()
        };
        let diags = check_file("f.json", bytes, Some(kind), &options);
        let sources = [Source {
            name: "f.json".into(),
            text: text.clone(),
        }];
        let _ = human(&diags, &sources, true);
        let _ = json(&diags, &sources);
        let _ = sarif(&diags, &sources);
        let _ = github(&diags, &sources);
    }
}

fn pattern() -> impl Strategy<Value = String> {
    let label = prop_oneof![
        Just("Terminal"),
        Just("GitPush"),
        Just("GitMerge"),
        Just("terminal"),
        Just("Spend"),
        Just("")
    ];
    let content =
        proptest::string::string_regex(r#"[a-z /*$~'"\\()|&;<>{}=.é-]{0,24}"#).expect("regex");
    (label, content).prop_map(|(l, c)| format!("{l}({c})"))
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        run_all(&bytes);
    }

    #[test]
    fn random_permissions(
        lists in proptest::collection::vec(
            (prop_oneof![Just("allow"), Just("deny"), Just("ask"), Just("alow")],
             proptest::collection::vec(pattern(), 0..6)),
            0..5),
        trailing_comma in any::<bool>(),
    ) {
        let body: Vec<String> = lists
            .iter()
            .map(|(k, ps)| {
                let items: Vec<String> = ps.iter().map(|p| format!("\"{}\"", escape(p))).collect();
                format!("\"{k}\": [{}]", items.join(", "))
            })
            .collect();
        let comma = if trailing_comma { "," } else { "" };
        let text = format!("{{{}{comma}}}", body.join(",\n"));
        run_all(text.as_bytes());
    }

    #[test]
    fn random_autonomy(
        agents in proptest::collection::vec(
            ("[a-z*-]{0,6}", proptest::collection::vec(
                (prop_oneof![Just("*"), Just("terminal"), Just("git_push"), Just("git_merge"), Just("x")],
                 prop_oneof![Just("auto_approve"), Just("require_approval"), Just("deny"), Just("yes")]),
                0..5)),
            0..5),
    ) {
        let body: Vec<String> = agents
            .iter()
            .map(|(a, rules)| {
                let r: Vec<String> = rules.iter().map(|(k, m)| format!("\"{k}\": \"{m}\"")).collect();
                format!("\"{a}\": {{{}}}", r.join(", "))
            })
            .collect();
        let text = format!("{{{}}}", body.join(", "));
        run_all(text.as_bytes());
    }
}
