use super::simple::{is_keyword_or_time, BLANK, OPERATOR, REFUSED, SIMPLE, WORD};
use super::*;

fn words(src: &str) -> Vec<Vec<String>> {
    read(src)
        .segments
        .into_iter()
        .map(|s| s.words.into_iter().map(Cow::into_owned).collect())
        .collect()
}

#[test]
fn splits_operators_without_blanks() {
    assert_eq!(
        words("a&&b||c;d|e|&f&g"),
        [["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]]
    );
    assert!(!read("a&&b||c;d|e|&f&g").is_unparsed());
}

#[test]
fn quotes_and_escapes() {
    assert_eq!(
        words(r#"echo 'a b' "c \$d \q" e\ f"#),
        [["echo", "a b", "c $d \\q", "e f"]]
    );
}

#[test]
fn redirections_are_not_words() {
    let l = read("cat x 2>/dev/null >>log &>all <in 3<&0");
    assert_eq!(l.segments[0].words, ["cat", "x"]);
    let ops: Vec<_> = l.segments[0]
        .redirects
        .iter()
        .map(|r| r.op.as_str())
        .collect();
    assert_eq!(ops, ["2>", ">>", "&>", "<", "3<&"]);
}

#[test]
fn nested_commands_are_segments() {
    let l = read("echo $(rm -rf /) `ls` && (cd x; make) && { a; }");
    let w: Vec<_> = l
        .segments
        .iter()
        .map(|s| (s.words.join(" "), s.nested))
        .collect();
    assert_eq!(
        w,
        [
            ("echo $(rm -rf /) `ls`".to_string(), false),
            ("rm -rf /".to_string(), true),
            ("ls".to_string(), true),
            ("cd x".to_string(), true),
            ("make".to_string(), true),
            ("a".to_string(), true),
        ]
    );
    assert!(!l.is_unparsed(), "{:?}", l.unparsed);
}

#[test]
fn unparsed_conditions() {
    for (src, why) in [
        ("echo 'a", Unparsed::UnclosedQuote),
        ("echo $(a", Unparsed::UnclosedSubstitution),
        ("cat <<EOF", Unparsed::HereDocument),
        ("select x in a; do b; done", Unparsed::Keyword),
        ("coproc a", Unparsed::Keyword),
        ("[[ -f a ]]", Unparsed::Keyword),
        (
            "for ((i=0; i<3; i++)); do a; done",
            Unparsed::ArithmeticVariable,
        ),
        ("function f { a; }", Unparsed::FunctionDefinition),
        ("f() { a; }", Unparsed::FunctionDefinition),
        ("echo $'a'", Unparsed::AnsiCQuote),
        ("echo {a,b}", Unparsed::BraceExpansion),
        ("echo {1..3}", Unparsed::BraceExpansion),
        ("*.sh", Unparsed::GlobInCommandWord),
        ("a\rb", Unparsed::ControlCharacter),
        ("a &&", Unparsed::SyntaxError),
        ("echo $((x))", Unparsed::ArithmeticVariable),
        ("echo ${!x}", Unparsed::ArithmeticVariable),
    ] {
        let l = read(src);
        assert!(l.unparsed.contains(&why), "{src}: {:?}", l.unparsed);
    }
    assert!(!read("[ -f x ]").is_unparsed());
    assert!(!read("find . -exec rm {} \\;").is_unparsed());
    assert!(!read("ls *.ts").is_unparsed());
}

#[test]
fn commands_in_parameter_expansions_are_segments() {
    // bash parses `$( )`, backticks and `<( )` in `${…}` and runs them
    // when it expands that part.
    for (src, inner) in [
        ("echo ${x:-<(rm -rf /)}", "rm -rf /"),
        ("echo ${x-$(git push)}", "git push"),
        ("echo ${x:=`git push`}", "git push"),
        ("echo ${x:-a${y:-<(git push)}b}", "git push"),
        ("echo \"${x#<(git push)}\"", "git push"),
        ("echo ${x:-<(echo })}", "echo }"),
    ] {
        let l = read(src);
        assert!(!l.is_unparsed(), "{src}: {:?}", l.unparsed);
        let w: Vec<String> = l.segments.iter().map(|s| s.words.join(" ")).collect();
        assert_eq!(w.len(), 2, "{src}: {w:?}");
        assert_eq!(w[1], inner, "{src}");
    }
    // In a subscript or an offset the substitution's output is
    // evaluated as arithmetic: read, and unparsed.
    for src in ["echo ${x[$(git push)]}", "echo ${x:$(git push)}"] {
        let l = read(src);
        assert_eq!(l.unparsed, [Unparsed::ArithmeticVariable], "{src}");
        let w: Vec<String> = l.segments.iter().map(|s| s.words.join(" ")).collect();
        assert_eq!(w[1..], ["git push"], "{src}");
    }
    // Quotes are units: the `}` between them does not close.
    let l = read("echo ${x:-'}'} $(git push) \\'");
    let w: Vec<String> = l.segments.iter().map(|s| s.words.join(" ")).collect();
    assert_eq!(w, ["echo ${x:-'}'} $(git push) '", "git push"]);
    // Where bash runs text it did not parse, or does not run what it
    // parsed: unparsed.
    for src in [
        "echo \"${x:-'$(git push)'}\"",
        "echo \"${x:-<(git push)}\"",
        "echo ${x:<(git push)}",
        "echo ${x@Q$(git push)}",
        "echo ${x[}]}",
    ] {
        assert!(read(src).unparsed.contains(&Unparsed::SyntaxError), "{src}");
    }
    assert!(!read("echo ${x:-'$(a)'} ${x:-\"}\"} ${#x} ${x/a/b}").is_unparsed());
}

#[test]
fn brace_expansion_as_bash_finds_it() {
    // bash's brace_gobbler ends double quotes at a `"` inside a backtick
    // body or a double-quoted `${…}`.
    for src in [
        "rm \"${x:-\"{-rf,/}\"}\"",
        "echo \"`rm -rf \"{/,x}\"`\"",
        "echo {a,b}",
        "echo x{1..3}",
    ] {
        assert!(
            read(src).unparsed.contains(&Unparsed::BraceExpansion),
            "{src}"
        );
    }
    for src in [
        "echo \"{a,b}\" '{a,b}' \\{a,b}",
        "echo \"`echo '{a,b}'`\" ${x:-{a,b}} \"$(echo \"{a,b}\")\"",
        "echo { a,b } {} a{b",
    ] {
        assert!(!read(src).is_unparsed(), "{src}: {:?}", read(src).unparsed);
    }
}

#[test]
fn deep_nesting_is_bounded() {
    let src = "$(".repeat(10_000);
    let l = read(&src);
    assert!(l.unparsed.contains(&Unparsed::TooDeep));
    let src = "(".repeat(100_000);
    assert!(read(&src).is_unparsed());
    let src = "`".repeat(1000);
    let _ = read(&src);
}

#[test]
fn array_subscripts_are_read_to_their_bracket() {
    // SPEC §4.1 round 3: bash's parse_matched_pair at an assignment's
    // place; never split.
    let l = read("a[ #]= rm -rf /");
    assert_eq!(l.segments[0].words, ["a[ #]=", "rm", "-rf", "/"]);
    assert!(l.unparsed.contains(&Unparsed::ArraySubscript));
    let l = read("a[x y]=1 git push");
    assert_eq!(l.segments[0].words, ["a[x y]=1", "git", "push"]);
    assert!(l.is_unparsed());
    let l = read(">f b=1 a[x;y]+=2 c[1|2]=3 git push");
    assert_eq!(l.segments.len(), 1);
    assert_eq!(l.segments[0].words[..3], ["b=1", "a[x;y]+=2", "c[1|2]=3"]);
    // After a redirection that follows a word, bash no longer reads
    // `NAME[` as a subscript (PST_REDIRLIST is cleared).
    let l = read("a=1 >f b[x y]=2 z");
    assert_eq!(l.segments[0].words, ["a=1", "b[x", "y]=2", "z"]);
    assert!(l.unparsed.contains(&Unparsed::ArraySubscript));
    // Digits and operators alone parse, and the word is an assignment.
    let l = read("a[0]=1 a[1+2]+=x ls");
    assert!(!l.is_unparsed(), "{:?}", l.unparsed);
    assert_eq!(l.segments[0].words, ["a[0]=1", "a[1+2]+=x", "ls"]);
    // Not at an assignment's place: split as usual.
    assert_eq!(words("echo a[x y]=1"), [vec!["echo", "a[x", "y]=1"]]);
    // No `=` after it: one word, a glob.
    let l = read("a[1 2] x");
    assert_eq!(l.segments[0].words, ["a[1 2]", "x"]);
    assert!(l.unparsed.contains(&Unparsed::GlobInCommandWord));
    // Never closed: unparsed, nothing after it split off.
    let l = read("a[x; git push");
    assert!(l.is_unparsed());
    assert_eq!(l.segments.len(), 1);
}

#[test]
fn comments() {
    assert_eq!(words("ls # x && rm\npwd"), [["ls"], ["pwd"]]);
    assert_eq!(words("echo a#b"), [["echo", "a#b"]]);
}

#[test]
fn comment_after_redirection_leaves_no_target() {
    // bash: "syntax error near unexpected token `newline'".
    for src in ["cat >#x", "cat > #x y", "cat 2>\\\n#x"] {
        let l = read(src);
        assert!(l.unparsed.contains(&Unparsed::SyntaxError), "{src}: {l:?}");
    }
    let l = read("cat >x#y '#'z");
    assert!(!l.is_unparsed());
    assert_eq!(l.segments[0].redirects[0].target, "x#y");
    assert_eq!(l.segments[0].words, ["cat", "#z"]);
}

#[test]
fn fd_word_right_after_a_redirection_is_a_syntax_error() {
    // bash lexes `12` in `>12>x` as the fd of `>x`: `>` has no target.
    for src in ["a >12>x", "a <<<12>x", "a &>1<x", "a >{fd}>x", "a >&{fd}>x"] {
        assert!(read(src).unparsed.contains(&Unparsed::SyntaxError), "{src}");
    }
    // After `>&`/`<&` the digits are the fd to duplicate.
    for src in ["a >&2>x", "a 2<&0<x", "a >12 >x", "a >'12'>x", "a >1\\2>x"] {
        assert!(!read(src).is_unparsed(), "{src}: {:?}", read(src));
    }
}

#[test]
fn named_fd_redirections() {
    // `{fd}>x` allocates an fd into `fd`: not a word.
    let l = read("exec {fd}>out {rd}<in {_1}>>log {a}>&2 c");
    assert_eq!(l.segments[0].words, ["exec", "c"]);
    let ops: Vec<_> = l.segments[0]
        .redirects
        .iter()
        .map(|r| r.op.as_str())
        .collect();
    assert_eq!(ops, ["{fd}>", "{rd}<", "{_1}>>", "{a}>&"]);
    assert!(!l.is_unparsed());
    // Not of that form, or not directly before `<`/`>`: words.
    assert_eq!(
        words("a {1x}>o \\{q}>o '{r}'>o {s} >o c{x}>o {x}2>o {x}&>o"),
        [["a", "{1x}", "{q}", "{r}", "{s}", "c{x}", "{x}2", "{x}"]]
    );
}

#[test]
fn process_substitution_inside_a_word() {
    // bash passes `x/dev/fd/63`, `2/dev/fd/62`: one word each.
    let l = read("diff x<(ls a) 2>(wc) a\\ <(b)c");
    assert_eq!(
        l.segments[0].words,
        ["diff", "x<(ls a)", "2>(wc)", "a <(b)c"]
    );
    assert!(l.segments[0].redirects.is_empty());
    let nested: Vec<_> = l.segments[1..].iter().map(|s| s.words.join(" ")).collect();
    assert_eq!(nested, ["ls a", "wc", "b"]);
    // A redirection target too: `>y<(a)` writes to `y/dev/fd/63`.
    let l = read("a >y<(b)");
    assert_eq!(l.segments[0].redirects[0].target, "y<(b)");
    assert!(!l.is_unparsed());
}

#[test]
fn known_words() {
    use Known::*;
    let known = |src: &str| -> Vec<Vec<Known>> {
        read(src)
            .segments
            .into_iter()
            .map(|s| s.known.to_vec())
            .collect()
    };
    assert_eq!(known("git $c"), [vec![Exact, AnyTokens]]);
    assert_eq!(known("git \"$c\""), [vec![Exact, OneToken]]);
    assert_eq!(known("git${IFS}push"), [vec![AnyTokens]]);
    assert_eq!(
        known("echo '$x' \\$x \"\\$x\" $ a$ \"$\""),
        [vec![Exact; 7]]
    );
    assert_eq!(
        known("X=$(date) make"),
        [vec![OneToken, Exact], vec![Exact]]
    );
    assert_eq!(
        known("X=`date` Y=$y make Z=$z"),
        [vec![OneToken, OneToken, Exact, AnyTokens], vec![Exact],]
    );
    for (word, k) in [
        ("$1", AnyTokens),
        ("$@", AnyTokens),
        ("\"$@\"", OneToken),
        ("$?", AnyTokens),
        ("$$", AnyTokens),
        ("$#", AnyTokens),
        ("$!", AnyTokens),
        ("$-", AnyTokens),
        ("$*", AnyTokens),
        ("${x}", AnyTokens),
        ("\"${x}\"", OneToken),
        ("$((1+2))", AnyTokens),
        ("\"$((1+2))\"", OneToken),
        ("$[1+2]", AnyTokens),
        ("`date`", AnyTokens),
        ("\"`date`\"", OneToken),
        ("\"$(date)\"$x", AnyTokens),
        ("$\"$x\"", OneToken),
        ("<(ls)", OneToken),
        ("'$(x)'", Exact),
        ("~", Exact),
    ] {
        let line = format!("echo {word}");
        let l = read(&line);
        assert_eq!(l.segments[0].known[..], [Exact, k], "{word}");
    }
    let l = read_detailed("cat \"$f\" >$out 2>\"$err\" <in");
    assert_eq!(l.segments[0].words[1].known, OneToken);
    let r: Vec<_> = l.segments[0].redirects.iter().map(|r| r.known).collect();
    assert_eq!(r, [AnyTokens, OneToken, Exact]);
    let l = read("(a) >$x");
    assert_eq!(l.segments[0].redirects[0].known, AnyTokens);
}

#[test]
fn unparsed_offsets() {
    let l = read("echo {a,b} $'x' && cat <<E");
    assert_eq!(
        l.unparsed_at,
        [
            (Unparsed::BraceExpansion, 5),
            (Unparsed::AnsiCQuote, 11),
            // A here-document with no body: at its delimiter.
            (Unparsed::HereDocument, 25),
        ]
    );
    assert_eq!(
        l.unparsed,
        [
            Unparsed::HereDocument,
            Unparsed::AnsiCQuote,
            Unparsed::BraceExpansion
        ]
    );
    // In a backtick body, offsets are the top-level line's.
    let l = read("echo `a \\`b $'x'\\``");
    assert_eq!(l.unparsed_at, [(Unparsed::AnsiCQuote, 12)]);
    // The first occurrence of each condition counts.
    let l = read("a $'x' $'y'");
    assert_eq!(l.unparsed_at, [(Unparsed::AnsiCQuote, 2)]);
    assert!(read("ls -la").unparsed_at.is_empty());
}

#[test]
fn trailing_star_details() {
    let l = read_detailed(r"pnpm test:* 'a*' b\* /*");
    let w = &l.segments[0].words;
    assert!(w[1].trailing_unquoted_star);
    assert!(!w[2].trailing_unquoted_star);
    assert!(!w[3].trailing_unquoted_star);
    assert!(w[4].trailing_unquoted_star);
}
/// The fast path reads a plain line exactly as the general reader
/// does, and declines every line whose reading records a condition.
#[test]
fn simple_lines_read_like_the_general_reader() {
    let taken = [
        "pnpm test",
        "git status && pnpm test:unit",
        "cd src && npm run build | tee out.log",
        "git diff HEAD~1 -- src/main.rs",
        "a | b | c",
        "a |& b; c & d &",
        "a||b&&c;d",
        "  A=1 B=2 cmd -x=y,z ~/f.txt  ",
        "a;",
        "a &",
        "echo if then time2",
    ];
    for line in taken {
        let simple = read_simple(line).unwrap_or_else(|| panic!("{line:?} is simple"));
        assert_eq!(simple, read_general(line), "{line:?}");
    }
    let declined = [
        "",
        "   ",
        "; a",
        "a &&",
        "a | | b",
        "a ;; b",
        "a ;& b",
        "a & & b",
        "if x",
        "time a",
        "a | time b",
        "a\nb",
        "a # c",
        "echo $x",
        "echo 'a'",
        "a > b",
        "a*",
        "{a,b}",
        "(a)",
        "a[1]=x b",
        "echo é",
    ];
    for line in declined {
        assert_eq!(read_simple(line), None, "{line:?}");
    }
}

/// The fast path's byte table says what `is_plain` and the few more
/// bytes say, and its keyword test is the table's.
#[test]
fn simple_reader_tables() {
    for c in 0..=255u8 {
        let want = if is_plain(c) || matches!(c, b'.' | b',' | b'=' | b'~') {
            WORD
        } else if is_blank(c) {
            BLANK
        } else if matches!(c, b';' | b'&' | b'|') {
            OPERATOR
        } else {
            REFUSED
        };
        assert_eq!(SIMPLE[usize::from(c)], want, "byte {c}");
    }
    for w in KEYWORDS.iter().chain(&["time"]) {
        assert!(is_keyword_or_time(w), "{w}");
    }
    for w in ["", "iff", "Time", "tim", "[", "]", "!!", "functions", "do."] {
        assert!(!is_keyword_or_time(w), "{w}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
    /// Lines made of the fast path's bytes and a few it refuses: when
    /// it reads one, the general reader reads the same.
    #[test]
    fn simple_reader_agrees(line in "([a-z=.~,:-]{1,4}|time|if|do|[ ;&|]{1,3}|[#*$'>\\n]){0,12}") {
        if let Some(simple) = read_simple(&line) {
            proptest::prop_assert_eq!(simple, read_general(&line));
        }
    }
}

/// The plain reader notes exactly the bytes its words hold that the facts
/// ask about: `=`, a path byte, a `.`, a `/`, a capital, a `_`, a `:`.
#[test]
fn simple_reader_notes_what_words_hold() {
    use super::simple::{
        read_simple_noting, HAS_COLON, HAS_DOT, HAS_EQ, HAS_PATH_BYTE, HAS_SLASH, HAS_UNDERSCORE,
        HAS_UPPER,
    };
    for (line, want) in [
        ("ls -la src", 0),
        ("A=1 make", HAS_EQ | HAS_UPPER),
        ("GIT push", HAS_UPPER),
        ("pnpm test:unit", HAS_COLON),
        ("npm_config_x=1 npm test", HAS_EQ | HAS_UNDERSCORE),
        ("cat src/x", HAS_PATH_BYTE | HAS_SLASH),
        ("/usr/bin/git status", HAS_PATH_BYTE | HAS_SLASH),
        ("cd ~ && ls", HAS_PATH_BYTE),
        ("tee out.log", HAS_PATH_BYTE | HAS_DOT),
        (
            "git diff HEAD~1 -- a.rs | wc -l",
            HAS_PATH_BYTE | HAS_DOT | HAS_UPPER,
        ),
        (
            "make X=a/b.c",
            HAS_EQ | HAS_PATH_BYTE | HAS_DOT | HAS_SLASH | HAS_UPPER,
        ),
    ] {
        let (_, notes) = read_simple_noting(line).expect(line);
        assert_eq!(notes, want, "{line}");
    }
}
