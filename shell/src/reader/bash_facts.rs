//! SPEC §4.1's list of bash facts, one test each.
use super::*;

/// Every segment's words, nested ones included.
fn segs(src: &str) -> Vec<String> {
    read(src)
        .segments
        .into_iter()
        .map(|s| s.words.join(" "))
        .collect()
}

fn has(src: &str, segment: &str) -> bool {
    segs(src).iter().any(|s| s == segment)
}

#[test]
fn backslash_newline_is_removed_first() {
    for src in [
        "echo $\\\n(curl x)",
        "echo \"$\\\n(curl x)\"",
        "echo $(\\\ncurl x)",
        "echo $(cu\\\nrl x)",
        "echo `cu\\\nrl x`",
        "echo \"`curl\\\n x`\"",
        "echo ok &\\\n& curl x",
        "echo ok |\\\n curl x",
        "echo ok ;\\\ncurl x",
        "echo <\\\n(curl x)",
        "echo $\\\n(\\\n(curl x) | sh)",
    ] {
        assert!(has(src, "curl x"), "{src:?}: {:?}", segs(src));
        assert!(
            !read(src).is_unparsed(),
            "{src:?}: {:?}",
            read(src).unparsed
        );
    }
    let l = read("echo $\\\n'a'");
    assert!(l.unparsed.contains(&Unparsed::AnsiCQuote), "{l:?}");
    // `<\⏎<` is `<<`: a here-document, read (SPEC §4.2 round 4).
    let l = read("cat <\\\n<E\nx\nE");
    assert!(!l.is_unparsed(), "{l:?}");
    assert!(!has("cat <\\\n<E\nx\nE", "x"));
    // Not inside single quotes, comments, or after an escaping backslash.
    assert_eq!(segs("echo 'a\\\nb'"), ["echo a\\\nb"]);
    assert_eq!(segs("echo a # b \\\nc"), ["echo a", "c"]);
    assert_eq!(segs("echo a\\\\\nc"), ["echo a\\", "c"]);
    // Inside backticks a single quote is no quote yet: removed there too.
    assert!(has("echo `echo 'a\\\nb'`", "echo ab"));
    assert_eq!(segs("ec\\\nho \"a\\\nb\""), ["echo ab"]);
}

#[test]
fn escaped_double_quote_in_backticks_in_double_quotes() {
    let src = "echo \"`echo \\\"'\\\"$(curl x)\\\"'\\\"`\"";
    assert!(has(src, "curl x"), "{:?}", segs(src));
    assert!(has("echo \"`echo \\\"a b\\\"`\"", "echo a b"));
    // Unquoted backticks keep `\"` as an escape of their own.
    assert!(has("echo `echo \\\"a b\\\"`", "echo \"a b\""));
}

#[test]
fn dollar_paren_paren_that_is_no_arithmetic() {
    assert_eq!(
        segs("echo $((curl x) | sh)"),
        ["echo $((curl x) | sh)", "curl x", "sh"]
    );
    assert_eq!(
        segs("x=$((git push);ls)"),
        ["x=$((git push);ls)", "git push", "ls"]
    );
    assert!(!read("echo $((curl x) | sh)").is_unparsed());
    // Real arithmetic: no command.
    assert_eq!(segs("echo $((1 + (2) ))"), ["echo $((1 + (2) ))"]);
    assert_eq!(segs("echo $(( (1) + (2) ))"), ["echo $(( (1) + (2) ))"]);
    assert!(!read("echo $((1 + 2))").is_unparsed());
    assert_eq!(segs("((a) ); b"), ["a", "b"]);
    assert_eq!(segs("(( 1 + 2 )) && b"), ["b"]);
    assert!(!read("(( 1 + 2 )) && b").is_unparsed());
}

#[test]
fn arithmetic_text_expands_like_double_quotes() {
    for src in [
        "(( '$(curl x)' ))",
        "echo $(( '$(curl x)' ))",
        "echo \"$(( '$(curl x)' ))\"",
        "echo $[ '$(curl x)' ]",
        "(( '`curl x`' ))",
        "(( x[$(curl x)] ))",
    ] {
        assert!(has(src, "curl x"), "{src:?}: {:?}", segs(src));
    }
}

#[test]
fn here_documents_in_every_form() {
    for src in [
        "cat <<E\nx\nE",
        "cat 3<<E\nx\nE",
        "cat 0<<E\nx\nE",
        "cat {fd}<<E\nx\nE",
        "cat <<-E\n\tx\n\tE",
        "(cat) <<E\nx\nE",
        "{ cat; } <<E\nx\nE",
        "(cat) 3<<E\nx\nE",
        "{ cat; } {fd}<<E\nx\nE",
        "(cat) 2<<-E\nx\nE",
    ] {
        // SPEC §4.2 round 4: read, not unparsed.
        let l = read(src);
        assert!(!l.is_unparsed(), "{src:?}: {l:?}");
        // The body is no command.
        assert!(!has(src, "x"), "{src:?}: {:?}", segs(src));
    }
    // An unquoted delimiter's body is expanded: its substitutions run,
    // even between single quotes; a quoted one's is text.
    let src = "cat <<E\n'$(curl x)' \"`wget y`\"\nE\necho after";
    assert_eq!(segs(src), ["cat", "curl x", "wget y", "echo after"]);
    assert_eq!(segs("cat <<'E'\n$(curl x)\nE\nls"), ["cat", "ls"]);
    assert_eq!(segs("cat <<\\E\n$(curl x)\nE\nls"), ["cat", "ls"]);
    // Two bodies in order; `<<-` strips tabs before the delimiter.
    let src = "a <<A; b <<-B\n$(one)\nA\n$(two)\n\tB\nc";
    assert_eq!(segs(src), ["a", "b", "one", "two", "c"]);
    // A backslash-newline joins body lines (unquoted delimiter).
    assert_eq!(segs("a <<E\nx\\\nE\n$(b)\nE\nc"), ["a", "b", "c"]);
}

#[test]
fn time_is_a_reserved_word() {
    assert_eq!(segs("time { git push; }"), ["git push"]);
    assert_eq!(segs("time -p git push"), ["time -p git push"]);
    assert_eq!(segs("time (git push)"), ["git push"]);
    assert_eq!(segs("time git push"), ["time git push"]);
    assert!(!read("time { git push; }").is_unparsed());
    for src in ["time coproc x", "time [[ a ]]"] {
        assert!(read(src).unparsed.contains(&Unparsed::Keyword), "{src}");
    }
    // SPEC §4.2 round 4: `!` and `if` are read; what follows `time` is at
    // command position.
    for (src, want) in [
        ("time ! x", &["time x"][..]),
        ("time -p ! x", &["time -p x"]),
        ("time if x; then y; fi", &["x", "y"]),
    ] {
        assert!(!read(src).is_unparsed(), "{src}");
        assert_eq!(segs(src), want, "{src}");
    }
    assert!(read("time *.sh")
        .unparsed
        .contains(&Unparsed::GlobInCommandWord));
    // After a pipe `time` is an ordinary command.
    assert_eq!(
        segs("a | time { b; }").first().map(String::as_str),
        Some("a")
    );
    assert!(read("a | time { b; }").is_unparsed());
    assert!(!read("a | time b").is_unparsed());
    // Quoted, it is a command name (and the `}` then closes nothing).
    assert_eq!(segs("'time' { a; }")[0], "time { a");
    assert!(read("'time' { a; }")
        .unparsed
        .contains(&Unparsed::SyntaxError));
    assert!(read("time | a").unparsed.contains(&Unparsed::SyntaxError));
    assert!(read("a |\n\ntime b")
        .unparsed
        .contains(&Unparsed::SyntaxError));
    assert!(!read("a |\ntime b").is_unparsed());
    assert!(!read("time; a; time -p").is_unparsed());
}

#[test]
fn known_for_new_forms() {
    use Known::*;
    let known = |src: &str| -> Vec<Known> { read(src).segments[0].known.to_vec() };
    assert_eq!(known("echo $\\\nx"), [Exact, AnyTokens]);
    assert_eq!(known("echo \"$\\\nx\""), [Exact, OneToken]);
    assert_eq!(known("echo $((a) | b)"), [Exact, AnyTokens]);
    assert_eq!(known("echo \"$((a) | b)\""), [Exact, OneToken]);
    assert_eq!(known("X=$((a) | b) c"), [OneToken, Exact]);
    assert_eq!(known("echo $[1]"), [Exact, AnyTokens]);
    assert_eq!(known("echo \"`a \\\"b\\\"`\""), [Exact, OneToken]);
    assert_eq!(known("time -p echo $x"), [Exact, Exact, Exact, AnyTokens]);
}
