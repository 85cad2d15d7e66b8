//! SPEC §4.2 round 4: a here-document's body is what bash feeds the
//! command (a program that reads paths from standard input reads its
//! lines as places). Checked against a real bash: for each line below,
//! the body the reader keeps on the redirection is what `cat` prints when
//! bash runs the line — for bodies bash does not expand (a quoted
//! delimiter, or an unquoted one over text without `$`, `` ` `` or `\`).
//! (Skipped, with a note, when no bash is installed.)

use permc_shell::reader;
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

const LINES: &[&str] = &[
    "cat <<'EOF'\nsrc/a.ts\nsrc/b.ts\nEOF",
    "cat <<\"EOF\"\n  lead\ttab\n\nEOF",
    "cat <<-'EOF'\n\t\tsrc/a\n\tsrc/b\n\tEOF",
    "cat <<-EOF\n\tplain\n\t\tmore\n\tEOF",
    "cat <<EOF\nno expansion here\nEOF",
    "cat <<E'O'F\nx\\\ny\nEOF",
    "cat <<EOF; true\nbody\nEOF",
    "cat <<A <<'B'\nfirst\nA\nsecond\nB",
    "for f in a; do cat <<'EOF'; done\nin loop\nEOF",
    "cat <<'EOF' > /dev/null; cat <<'X'\none\nEOF\ntwo\nX",
    "cat <<''\nempty delimiter\n\n",
    "cat <<EOF\nEOF",
];

#[test]
fn kept_bodies_are_what_bash_feeds() {
    let Some(bash) = find_bash() else {
        eprintln!("no bash: the here-document differential is skipped");
        return;
    };
    for line in LINES {
        let out = Command::new(&bash)
            .args(["--norc", "--noprofile", "-c", line])
            .current_dir(std::env::temp_dir())
            .output()
            .expect("bash runs");
        let printed = String::from_utf8_lossy(&out.stdout).into_owned();
        let read = reader::read(line);
        assert!(!read.is_unparsed(), "`{line}`: {:?}", read.unparsed);
        // The bodies `cat` printed, in the order of the segments' `<<`
        // (the last of a segment's is its standard input).
        let mut kept = String::new();
        for s in read
            .segments
            .iter()
            .filter(|s| s.words.first().is_some_and(|w| w == "cat"))
        {
            let Some(r) = s.redirects.iter().rev().find(|r| r.op.contains("<<")) else {
                continue;
            };
            let here = r
                .here
                .as_deref()
                .unwrap_or_else(|| panic!("`{line}`: no here-document"));
            let body = here
                .body
                .as_deref()
                .unwrap_or_else(|| panic!("`{line}`: no body"));
            let goes_to_null = s.redirects.iter().any(|r| r.target == "/dev/null");
            if !goes_to_null {
                kept.push_str(body);
            }
        }
        assert_eq!(kept, printed, "`{line}`");
    }
}
