//! SPEC §4.3 round 4: in `bash -c 'STRING' ARGS…`, `$0`, `$1`… and
//! `"$@"` stand for the words after the string. Checked against a real
//! bash: for every string and argument list below, each inner segment
//! whose words permc reads as exact must be the argv bash runs; a word
//! permc leaves unknown is not compared. (Skipped, with a note, when no
//! bash is installed.)

use permc_shell::facts::LineFacts;
use permc_shell::reader::Known;
use std::path::PathBuf;
use std::process::Command;

fn find_bash() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = vec!["/usr/bin".into(), "/bin".into()];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter()
        .map(|d| d.join("bash"))
        .find(|p| p.is_file())
}

fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The strings: `p` prints its argv (defined before the string when bash
/// runs it).
const STRINGS: &[&str] = &[
    r#"p --write "$1""#,
    r#"p $1 ${2} "${1}" $0"#,
    r#"p "$@""#,
    r#"p $@"#,
    r#"p "$*""#,
    r#"p $*"#,
    r#"p x"$1"y "$2$1" "$10" "${10}""#,
    r#"p "$3" -- "$0""#,
    r#"p "$1" ; p "$2" && p $0"#,
    r#"p "$1"/"#,
    r#"p '$1' "$1""#,
];

const ARGS: &[&[&str]] = &[
    &[],
    &["_"],
    &["_", "a"],
    &["_", "a b", "c"],
    &["me", "", "b"],
    &["_", "*", "?"],
    &[
        "_", "1", "2", "3", "4", "5", "6", "7", "8", "9", "ten", "eleven",
    ],
    &["_", "-n", "--", "x'y"],
    &["--", "x"],
    &["-", "x"],
];

/// The argv of each `p` bash runs, in order.
fn bash_runs(bash: &PathBuf, string: &str, args: &[&str]) -> Vec<Vec<String>> {
    let program = format!("p() {{ printf '%s\\037' \"$@\"; printf '\\036'; }}; {string}");
    let out = Command::new(bash)
        .args(["--norc", "--noprofile", "-c", &program])
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .expect("bash runs");
    String::from_utf8_lossy(&out.stdout)
        .split('\u{1e}')
        .filter(|r| !r.is_empty())
        .map(|r| {
            r.split('\u{1f}')
                .filter(|f| !f.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn positional_parameters_read_as_bash_runs_them() {
    let Some(bash) = find_bash() else {
        eprintln!("no bash: the positional differential is skipped");
        return;
    };
    let (mut compared, mut read) = (0, 0);
    for string in STRINGS {
        for args in ARGS {
            let quoted: Vec<String> = args.iter().map(|a| single_quote(a)).collect();
            let line = format!("bash -c {} {}", single_quote(string), quoted.join(" "));
            let facts = LineFacts::of(&line);
            let Some((_, inner)) = facts.inner_lines.first() else {
                panic!("`{line}`: no inner line");
            };
            let ran = bash_runs(&bash, string, args);
            assert_eq!(ran.len(), inner.segments.len(), "`{line}`: {ran:?}");
            for (seg, argv) in inner.segments.iter().zip(&ran) {
                if seg.known.iter().any(|k| *k != Known::Exact) {
                    continue;
                }
                compared += 1;
                read += usize::from(seg.words.iter().skip(1).any(|w| !w.contains('$')));
                // Empty fields: bash prints them as nothing between
                // separators; compare without them on both sides.
                let words: Vec<&str> = seg.words[1..]
                    .iter()
                    .map(|w| w.as_ref())
                    .filter(|w| !w.is_empty())
                    .collect();
                assert_eq!(words, *argv, "`{line}`: segment {:?}", seg.words);
            }
        }
    }
    // Most segments are read, not left unknown.
    assert!(
        compared * 2 > STRINGS.len() * ARGS.len(),
        "{compared} compared"
    );
    assert!(read > 0);
}
