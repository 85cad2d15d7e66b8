use super::*;

fn rows(list: &[CommandRow]) -> ProjectRows {
    ProjectRows::new(list.to_vec())
}

fn row(name: &str) -> CommandRow {
    CommandRow {
        name: name.into(),
        ..CommandRow::default()
    }
}

fn external(name: &str) -> CommandRow {
    let mut r = row(name);
    r.effects.external = true;
    r
}

#[test]
fn without_rows_the_facts_are_the_plain_ones() {
    let f = LineFacts::of_with("./deploy.sh prod", &ProjectRows::default());
    assert!(f.project.is_none());
    assert_eq!(f.project_external(), None);
    assert!(!f.unparsed);
}

#[test]
fn a_name_with_a_slash_is_the_exact_word_and_one_without_the_basename() {
    let r = rows(&[external("./deploy.sh"), external("release")]);
    for (line, hit) in [
        ("./deploy.sh prod", Some("./deploy.sh")),
        ("deploy.sh prod", None),
        ("scripts/deploy.sh prod", None),
        ("./deploy.sh.bak", None),
        ("release", Some("release")),
        ("bin/release --now", Some("release")),
        ("/usr/local/bin/release", Some("release")),
        ("sudo ./deploy.sh", Some("./deploy.sh")),
        ("X=1 nohup ./deploy.sh", Some("./deploy.sh")),
        ("bash -c './deploy.sh prod'", Some("./deploy.sh")),
        ("ls && ./deploy.sh", Some("./deploy.sh")),
        ("find . -exec ./deploy.sh {} ;", Some("./deploy.sh")),
        ("$X prod", None),
    ] {
        let f = LineFacts::of_with(line, &r);
        assert_eq!(f.project_external(), hit, "{line}");
    }
}

#[test]
fn a_row_adds_to_a_built_in_program_and_removes_nothing() {
    let mut git = row("git");
    git.effects.privileged = true;
    let r = rows(&[git]);
    let f = LineFacts::of_with("git push", &r);
    assert_eq!(f.external_effect(), Some(&["git", "push"][..]));
    assert_eq!(f.project_privileged(), Some("git"));
    let f = LineFacts::of_with("git status", &r);
    assert_eq!(f.external_effect(), None);
    assert_eq!(f.project_privileged(), Some("git"));
}

#[test]
fn code_and_shell_rows_make_the_line_unparsed_naming_the_row() {
    let mut code = row("./gen");
    code.effects.code = true;
    let mut shell = row("remote-run");
    shell.runs = Some(Runs::Shell);
    let r = rows(&[code, shell]);
    let f = LineFacts::of_with("./gen x", &r);
    assert!(f.unparsed);
    assert_eq!(
        f.unparsed_why(),
        ["`./gen` runs code permc does not read (permc.toml)"]
    );
    let f = LineFacts::of_with("remote-run 'ls'", &r);
    assert!(f.unparsed);
    assert!(f.unparsed_why()[0].contains("`remote-run` runs a shell command line"));
    assert!(!LineFacts::of_with("./gen.sh x", &r).unparsed);
}

#[test]
fn code_options_in_every_spelling() {
    let mut t = row("tool");
    t.code_options = vec!["--hook".into(), "-k".into(), "-exec".into(), "+x".into()];
    let r = rows(&[t]);
    for (line, unparsed) in [
        ("tool --hook x", true),
        ("tool --hook=x", true),
        ("tool --ho=x", true),
        ("tool -k x", true),
        ("tool -kx", true),
        ("tool -vk", true),
        ("tool -exec x", true),
        ("tool -exec=x", true),
        ("tool +x", true),
        ("tool +xq", true),
        ("tool x+x", false),
        ("tool --help", false),
        ("tool -v hook", false),
        ("tool x", false),
        ("other --hook", false),
    ] {
        let f = LineFacts::of_with(line, &r);
        assert_eq!(f.unparsed, unparsed, "{line}");
        if unparsed {
            assert!(f.unparsed_why()[0].contains("run code permc does not read (permc.toml)"));
        }
    }
    // An unknown word may be the option (SPEC §4.4 item 3).
    let f = LineFacts::of_with("tool $OPTS", &r);
    assert!(!f.unparsed);
    let run = f.code_possible().expect("possible");
    assert_eq!(run.words, ["tool", "$OPTS"]);
    assert!(LineFacts::of_with("tool x", &r).code_possible().is_none());
}

#[test]
fn a_project_runner_runs_its_command_as_argv() {
    let mut run = row("./run");
    run.runs = Some(Runs::Argv);
    run.options_with_value = vec!["-e".into()];
    let r = rows(&[run]);
    let f = LineFacts::of_with("./run -e prod -v git push origin", &r);
    assert_eq!(f.external_effect(), Some(&["git", "push"][..]));
    assert_eq!(f.given, [(0, 4, 7)]);
    let f = LineFacts::of_with("./run -- rm -rf /", &r);
    assert_eq!(f.builtin_deny(), Some("Terminal(rm -rf /)"));
    let f = LineFacts::of_with("./run sudo ls", &r);
    assert!(f.privileged().is_some());
    // An unknown word before the command: both readings.
    let f = LineFacts::of_with("./run $X git push", &r);
    assert_eq!(f.given, [(0, 1, 4), (0, 2, 4)]);
    assert_eq!(f.external_effect(), Some(&["git", "push"][..]));
    // Nothing to run: no run.
    let f = LineFacts::of_with("./run -v", &r);
    assert!(f.given.is_empty());
    // Its runs nest, boundedly.
    let deep = format!("{}git push", "./run ".repeat(20));
    let f = LineFacts::of_with(&deep, &r);
    assert!(f.unparsed);
    assert_eq!(f.given.len(), 1);
}

#[test]
fn runner_code_options_are_read_before_its_command_only() {
    let mut run = row("./run");
    run.runs = Some(Runs::Argv);
    run.code_options = vec!["-k".into()];
    let r = rows(&[run]);
    assert!(LineFacts::of_with("./run -k x ls", &r).unparsed);
    assert!(!LineFacts::of_with("./run ls -k", &r).unparsed);
}

#[test]
fn rows_of_one_name_add_up() {
    let mut a = external("t");
    a.code_options = vec!["-x".into()];
    let mut b = row("t");
    b.effects.code = true;
    b.code_options = vec!["-x".into(), "-y".into()];
    let r = rows(&[a, b]);
    assert_eq!(r.rows().len(), 1);
    let t = &r.rows()[0];
    assert!(t.effects.external && t.effects.code);
    assert_eq!(t.code_options, ["-x", "-y"]);
}
