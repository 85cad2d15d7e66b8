//! permc.toml's `[[command]]` rows: the project's own tools, read into
//! [`ProjectRows`] with a diagnostic (file, line, column, what to do) for
//! every mistake. The CLI (`permc check`, and everything that decides) and
//! the bindings read them here, so they cannot read them differently.
//!
//! ```toml
//! [[command]]
//! name = "./deploy.sh"          # an exact word as written, or (no `/`) a program name
//! effects = ["external"]        # any of "external", "privileged", "code"
//! runs = "argv"                 # optional: "argv" (a runner) or "shell"
//! options_with_value = ["-e"]   # optional, with runs = "argv"
//! code_options = ["--hook"]     # optional: options that make it run code
//! complete = true               # [round 4] optional: the row describes its program
//! version = "mytool 2.1"        # the version it describes
//! operands = ["path-read"]      # the operands' kinds by position
//! flags = ["-v --verbose"]      # options by kind (SPEC §4.5 item 1): flags,
//! path-write = ["-o --out"]     # text, path-read, path-write, dir-write, …
//! ```
//!
//! A row with any error is `invalid-command` (an error: whatever decides
//! refuses the file whole, never reads it without the row); a second row
//! of one name is `duplicate-command` (a warning: both count, a row only
//! adds). The other tables of permc.toml (`[check]`, `[context]`) are the
//! command line's: not read here. **[round 4]** `protected = ["path", …]`
//! is read here too (SPEC §6.4: paths protected as the rule files are), a
//! malformed value an `invalid-command` error.

use permc_core::facts::catalogue::described::{Described, DESCRIBED};
use permc_core::facts::described;
use permc_core::facts::project::{CommandRow, Description, Effects, Kind, ProjectRows, Runs};
use permc_grammar::action::closest;
use permc_grammar::diagnostic::{CheckId, Diagnostic};
use permc_grammar::json::Span;
use permc_grammar::Severity;
use toml_edit::{ImDocument, Item, Value};

/// The fields of a row, in the documentation's order: then, **[round
/// 4]**, `complete`, `version`, `operands` and the kinds' option lists
/// ([`Kind::NAMES`], SPEC §4.5 item 6).
pub const FIELDS: [&str; 8] = [
    "name",
    "effects",
    "runs",
    "options_with_value",
    "code_options",
    "complete",
    "version",
    "operands",
];

/// Every field name a row may hold.
fn all_fields() -> Vec<&'static str> {
    FIELDS
        .iter()
        .copied()
        .chain(Kind::NAMES.iter().map(|(_, n)| *n))
        .collect()
}

/// The rows read, and every diagnostic about them.
#[derive(Debug, Clone, Default)]
pub struct Read {
    /// The rows without an error (two rows of one name merged).
    pub rows: ProjectRows,
    /// Every finding, in the file's order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Read {
    /// Does a finding reject the file?
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

fn span(r: Option<std::ops::Range<usize>>) -> Span {
    let r = r.unwrap_or(0..0);
    Span {
        start: r.start,
        end: r.end,
    }
}

/// One row's reading: its diagnostics go to `out`.
struct Row<'a> {
    file: &'a str,
    out: &'a mut Vec<Diagnostic>,
    ok: bool,
}

impl Row<'_> {
    fn error(&mut self, at: Span, message: String, help: &str) {
        self.ok = false;
        self.out.push(
            Diagnostic::new(
                CheckId::InvalidCommand,
                Severity::Error,
                self.file,
                at,
                message,
            )
            .with_help(help),
        );
    }

    /// A list of strings, each checked by `check` (its help when wrong).
    fn strings(
        &mut self,
        key: &str,
        v: &Value,
        check: impl Fn(&str) -> Option<String>,
    ) -> Vec<String> {
        let Some(a) = v.as_array() else {
            let help = format!("write `{key} = [\"…\"]`, a list of strings");
            self.error(span(v.span()), format!("`{key}` is not a list"), &help);
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in a.iter() {
            match item.as_str() {
                Some(s) => match check(s) {
                    Some(help) => {
                        let msg = format!("`{s}` cannot be in `{key}`");
                        self.error(span(item.span()), msg, &help);
                    }
                    None => out.push(s.to_string()),
                },
                None => {
                    let msg = format!("an item of `{key}` is not a string");
                    self.error(span(item.span()), msg, "quote it");
                }
            }
        }
        out
    }
}

/// Why `name` cannot be a row's name, with what to do.
fn bad_name(name: &str) -> Option<(String, &'static str)> {
    if name.trim().is_empty() {
        return Some((
            "the row's `name` is empty".into(),
            "write the command word: `./deploy.sh`, or a program name such as `deploy`",
        ));
    }
    if name.chars().any(char::is_whitespace) {
        return Some((
            format!("the row's `name` `{name}` holds a blank: a name is one command word"),
            "write the command word alone (`./deploy.sh`); its options go in `code_options` or `options_with_value`",
        ));
    }
    if name.ends_with('/') {
        return Some((
            format!("the row's `name` `{name}` ends in `/`: it names a folder, not a command"),
            "write the command word as it is run: `./deploy.sh`",
        ));
    }
    None
}

/// Why `o` cannot be an option of a row, with what to do.
fn bad_option(o: &str) -> Option<String> {
    let option = (o.starts_with('-') || o.starts_with('+')) && o.len() > 1 && o != "--";
    if !option || o.chars().any(char::is_whitespace) {
        return Some("an option is one word starting with `-` or `+` (`--hook`, `-e`)".into());
    }
    None
}

/// Why `e` cannot be an option entry of a kind's list: its spellings,
/// separated by blanks, each an option (a long one may end in `[=]`).
fn bad_entry(e: &str) -> Option<String> {
    let ok = |s: &str| {
        let s = s
            .strip_suffix("[=]")
            .filter(|s| s.starts_with("--"))
            .unwrap_or(s);
        s.starts_with('-') && s.len() > 1 && s != "--"
    };
    (e.split(' ').any(|s| !ok(s)) || e.trim().is_empty()).then(|| {
        "an entry is one option's spellings separated by blanks (`\"-o --output\"`; `--color[=]` takes its value only after `=`)".into()
    })
}

/// Why `k` cannot be an operand's kind.
fn bad_kind(k: &str) -> Option<String> {
    let kinds: Vec<&str> = Kind::NAMES[1..].iter().map(|(_, n)| *n).collect();
    (!kinds.contains(&k)).then(|| {
        let hint = closest(k, kinds.iter().copied())
            .map(|c| format!("did you mean `{c}`? "))
            .unwrap_or_default();
        format!("{hint}a kind is one of {}", kinds.join(", "))
    })
}

/// SPEC §4.5 item 6: a row that types options either describes its
/// program (`complete = true`) or adds to a built-in row that does; it
/// never retypes a spelling the built-in row types.
fn typed_rules(r: &mut Row<'_>, at: Span, name: Option<&str>, d: &Description) {
    let builtin = name
        .filter(|n| !n.contains('/'))
        .and_then(|n| DESCRIBED.iter().find(|b| b.program == [n]));
    if !d.complete && builtin.is_none() {
        r.error(
            at,
            "typed options or operands in a row that does not describe its program".into(),
            "add `complete = true` (the row then lists every option of the program: any other word is not covered by an allow entry), or remove the typed fields",
        );
    }
    let Some(b) = builtin else { return };
    for (kind, entry) in d.entries() {
        for s in entry.split(' ') {
            let s = s.trim_end_matches("[=]");
            if let Some(theirs) = builtin_kind(b, s).filter(|k| *k != kind) {
                r.error(
                    at,
                    format!(
                        "`{s}` is `{}` in permc's row for `{}` ({}): a project row cannot retype it as `{}`",
                        theirs.name(),
                        b.program.join(" "),
                        b.version,
                        kind.name()
                    ),
                    "remove it from the row: a project row only adds options the built-in row lacks",
                );
            }
        }
    }
}

/// The kind a built-in row gives the spelling `s` as the program reads
/// it — a unique prefix of one of its long options included (`--outp` is
/// sort's `--output`): a project row that spells it retypes that option.
fn builtin_kind(b: &Described, s: &str) -> Option<Kind> {
    if s.starts_with("--") {
        return described::long(b, s).map(|(kind, _)| kind);
    }
    let mut letters = s.chars().skip(1);
    match (letters.next(), letters.next()) {
        (Some(c), None) => described::short(b, c).map(|(kind, _)| kind),
        _ => None,
    }
}

/// Reads one of a row's **[round 4]** description fields into `d`
/// (`complete`, `version`, `operands`, a kind's option list; SPEC §4.5
/// item 6); `false` for any other key.
fn description_field(r: &mut Row<'_>, d: &mut Description, key: &str, v: &Value) -> bool {
    match key {
        "complete" => match v.as_bool() {
            Some(b) => d.complete = b,
            None => r.error(
                span(v.span()),
                "`complete` is not `true` or `false`".into(),
                "write `complete = true`: the row describes every option of its program",
            ),
        },
        "version" => match v.as_str() {
            Some(t) => d.version = t.to_string(),
            None => r.error(
                span(v.span()),
                "`version` is not a string".into(),
                "quote it: `version = \"mytool 2.1\"`",
            ),
        },
        "operands" => d.operands = r.strings(key, v, bad_kind),
        _ => match Kind::from_name(key) {
            Some(kind) => {
                let list = r.strings(key, v, bad_entry);
                d.options.push((kind, list));
            }
            None => return false,
        },
    }
    true
}

/// Reads one row's table: `None` when it has an error.
fn row(
    file: &str,
    table: &dyn toml_edit::TableLike,
    at: Span,
    out: &mut Vec<Diagnostic>,
) -> Option<CommandRow> {
    let mut r = Row {
        file,
        out,
        ok: true,
    };
    let mut row = CommandRow::default();
    let mut name = None;
    let mut options_key = None;
    let mut typed_key = None;
    for (key, item) in table.iter() {
        let key_at = span(table.key(key).and_then(|k| k.span()));
        let Some(v) = item.as_value() else {
            let msg = format!("`{key}` is a table: a row's fields are values");
            r.error(key_at, msg, "write `key = value` lines under `[[command]]`");
            continue;
        };
        match key {
            "name" => match v.as_str() {
                Some(n) => match bad_name(n) {
                    Some((msg, help)) => r.error(span(v.span()), msg, help),
                    None => name = Some(n.to_string()),
                },
                None => r.error(span(v.span()), "the row's `name` is not a string".into(), "quote it: `name = \"./deploy.sh\"`"),
            },
            "effects" => {
                let names = r.strings(key, v, |e| {
                    (!Effects::NAMES.contains(&e)).then(|| {
                        let hint = closest(e, Effects::NAMES)
                            .map(|c| format!("did you mean `{c}`? "))
                            .unwrap_or_default();
                        format!("{hint}an effect is \"external\", \"privileged\" or \"code\"")
                    })
                });
                for e in names {
                    row.effects.add(&e);
                }
            }
            "runs" => match v.as_str().and_then(Runs::from_name) {
                Some(runs) => row.runs = Some(runs),
                None => r.error(
                    span(v.span()),
                    format!("`runs = {}` is not a way to run a command", v.to_string().trim()),
                    "write `runs = \"argv\"` (a runner: its first word that is not an option starts the command it runs) or `runs = \"shell\"` (its operands are a shell line permc does not read)",
                ),
            },
            "options_with_value" => {
                options_key = Some(key_at);
                row.options_with_value = r.strings(key, v, bad_option);
            }
            "code_options" => row.code_options = r.strings(key, v, bad_option),
            _ if description_field(&mut r, &mut row.description, key, v) => {
                if key != "complete" && key != "version" {
                    typed_key.get_or_insert(key_at);
                }
            }
            _ => {
                let fields = all_fields();
                let hint = closest(key, fields.iter().copied())
                    .map(|c| format!(" (did you mean `{c}`?)"))
                    .unwrap_or_default();
                let help = format!("a row's fields are {}", fields.join(", "));
                r.error(key_at, format!("unknown field `{key}` in a [[command]] row{hint}"), &help);
            }
        }
    }
    if let (Some(at), false) = (options_key, row.runs == Some(Runs::Argv)) {
        r.error(
            at,
            "`options_with_value` is read only for a runner".into(),
            "add `runs = \"argv\"`, or remove `options_with_value`",
        );
    }
    if let Some(at) = typed_key {
        typed_rules(&mut r, at, name.as_deref(), &row.description);
    }
    if name.is_none() && !table.contains_key("name") {
        r.error(
            at,
            "a [[command]] row without a `name`".into(),
            "add `name = \"./deploy.sh\"`: the command word the row is about",
        );
    }
    row.name = name?;
    r.ok.then_some(row)
}

/// Reads the `[[command]]` rows of permc.toml's `text` (`file` names it
/// in the diagnostics).
pub fn read(file: &str, text: &str) -> Read {
    let mut out = Vec::new();
    let doc = match ImDocument::parse(text) {
        Ok(d) => d,
        Err(e) => {
            let msg = format!("{file} is not TOML: {}", e.message());
            out.push(
                Diagnostic::new(
                    CheckId::InvalidCommand,
                    Severity::Error,
                    file,
                    span(e.span()),
                    msg,
                )
                .with_help("correct the TOML syntax at this place"),
            );
            return Read {
                rows: ProjectRows::default(),
                diagnostics: out,
            };
        }
    };
    let mut rows: Vec<(CommandRow, Span)> = Vec::new();
    let tables: Vec<(&dyn toml_edit::TableLike, Span)> = match doc.get("command") {
        None => Vec::new(),
        Some(Item::ArrayOfTables(a)) => a
            .iter()
            .map(|t| (t as &dyn toml_edit::TableLike, span(t.span())))
            .collect(),
        Some(Item::Value(Value::Array(a))) if a.iter().all(|v| v.is_inline_table()) => a
            .iter()
            .filter_map(|v| {
                Some((
                    v.as_inline_table()? as &dyn toml_edit::TableLike,
                    span(v.span()),
                ))
            })
            .collect(),
        Some(other) => {
            out.push(
                Diagnostic::new(
                    CheckId::InvalidCommand,
                    Severity::Error,
                    file,
                    span(other.span()),
                    "`command` is not a list of rows",
                )
                .with_help("write each row as a `[[command]]` table"),
            );
            Vec::new()
        }
    };
    for (t, at) in tables {
        if let Some(r) = row(file, t, at, &mut out) {
            // A duplicate is shown at its name.
            let name_at = t
                .get("name")
                .and_then(Item::span)
                .map_or(at, |r| span(Some(r)));
            rows.push((r, name_at));
        }
    }
    for (i, (r, at)) in rows.iter().enumerate() {
        if let Some((_, first)) = rows[..i].iter().find(|(o, _)| o.name == r.name) {
            out.push(
                Diagnostic::new(
                    CheckId::DuplicateCommand,
                    Severity::Warning,
                    file,
                    *at,
                    format!("a second [[command]] row named `{}`", r.name),
                )
                .with_help(
                    "write one row: both count (a row only adds), but a reader sees one at a time",
                )
                .with_related(file, *first, "the first row of that name is here"),
            );
        }
    }
    let protected = protected_paths(file, doc.get("protected"), &mut out);
    out.sort_by_key(|d| d.span.start);
    Read {
        rows: ProjectRows::new(rows.into_iter().map(|(r, _)| r).collect())
            .with_protected(protected),
        diagnostics: out,
    }
}

/// permc.toml's `protected = ["path", …]` (SPEC §6.4 round 4): paths
/// protected as the rule files are, relative to the project root or
/// absolute. Anything but a list of non-empty strings is an error (a
/// protected path must never be dropped unseen).
fn protected_paths(file: &str, item: Option<&Item>, out: &mut Vec<Diagnostic>) -> Vec<String> {
    let Some(item) = item else {
        return Vec::new();
    };
    let mut error = |at: Span, message: String| {
        out.push(
            Diagnostic::new(CheckId::InvalidCommand, Severity::Error, file, at, message)
                .with_help("write `protected = [\"hooks/\", \"tools/pre-commit.sh\"]`: a list of paths, relative to the project root or absolute"),
        );
    };
    let Some(list) = item.as_array() else {
        error(
            span(item.span()),
            "`protected` is not a list of paths".into(),
        );
        return Vec::new();
    };
    let mut paths = Vec::new();
    for v in list.iter() {
        match v.as_str() {
            Some(p) if !p.trim().is_empty() && !p.contains('\0') => paths.push(p.to_string()),
            Some(_) => error(
                span(v.span()),
                "an item of `protected` is an empty path".into(),
            ),
            None => error(
                span(v.span()),
                "an item of `protected` is not a string".into(),
            ),
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_good_file_reads_every_field() {
        let r = read(
            "permc.toml",
            r#"[check]
ignore = []

[[command]]
name = "./deploy.sh"
effects = ["external", "code"]
runs = "argv"
options_with_value = ["-e"]
code_options = ["--hook"]

[[command]]
name = "release"
effects = ["privileged"]
"#,
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let rows = r.rows.rows();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].name, "./deploy.sh");
        assert!(rows[0].effects.external && rows[0].effects.code);
        assert_eq!(rows[0].runs, Some(Runs::Argv));
        assert_eq!(rows[0].options_with_value, ["-e"]);
        assert_eq!(rows[0].code_options, ["--hook"]);
        assert!(rows[1].effects.privileged);
        let protected = read("p", "protected = [\"hooks\", \"/etc/x\"]\n");
        assert!(protected.diagnostics.is_empty());
        assert_eq!(protected.rows.protected(), ["hooks", "/etc/x"]);
        let inline = read("p", "command = [{name = \"x\", effects = [\"code\"]}]\n");
        assert!(inline.diagnostics.is_empty());
        assert_eq!(inline.rows.rows().len(), 1);
        assert!(read("p", "").rows.is_empty());
    }

    #[test]
    fn every_mistake_is_an_error_at_its_place() {
        for (text, says) in [
            (
                "[[command]]\nname = \"x\"\nefects = [\"external\"]\n",
                "unknown field `efects` in a [[command]] row (did you mean `effects`?)",
            ),
            (
                "[[command]]\nname = \"x\"\neffects = [\"network\"]\n",
                "`network` cannot be in `effects`",
            ),
            ("[[command]]\nname = \"  \"\n", "the row's `name` is empty"),
            (
                "[[command]]\nname = \"./deploy.sh prod\"\n",
                "holds a blank",
            ),
            ("[[command]]\nname = \"bin/\"\n", "ends in `/`"),
            ("[[command]]\nname = 3\n", "not a string"),
            ("[[command]]\neffects = [\"code\"]\n", "without a `name`"),
            (
                "[[command]]\nname = \"x\"\noptions_with_value = [\"-e\"]\n",
                "read only for a runner",
            ),
            (
                "[[command]]\nname = \"x\"\nruns = \"argc\"\n",
                "not a way to run a command",
            ),
            (
                "[[command]]\nname = \"x\"\ncode_options = [\"hook\"]\n",
                "`hook` cannot be in `code_options`",
            ),
            (
                "[[command]]\nname = \"x\"\neffects = \"external\"\n",
                "`effects` is not a list",
            ),
            ("command = 1\n", "not a list of rows"),
            (
                "protected = \"hooks\"\n",
                "`protected` is not a list of paths",
            ),
            ("protected = [\"\"]\n", "an empty path"),
            ("protected = [3]\n", "not a string"),
            ("[[command]\n", "is not TOML"),
            (
                "[[command]]\nname = \"mytool\"\nflags = [\"-v\"]\n",
                "a row that does not describe its program",
            ),
            (
                "[[command]]\nname = \"sort\"\ntext = [\"-o --output\"]\n",
                "`-o` is `path-write` in permc's row for `sort` (GNU coreutils 9.1): a project row cannot retype it as `text`",
            ),
            (
                "[[command]]\nname = \"sort\"\ntext = [\"--outp\"]\n",
                "`--outp` is `path-write` in permc's row for `sort` (GNU coreutils 9.1): a project row cannot retype it as `text`",
            ),
            (
                "[[command]]\nname = \"x\"\ncomplete = true\nflags = [\"v\"]\n",
                "`v` cannot be in `flags`",
            ),
            (
                "[[command]]\nname = \"x\"\ncomplete = true\noperands = [\"path\"]\n",
                "`path` cannot be in `operands`",
            ),
            (
                "[[command]]\nname = \"x\"\ncomplete = \"yes\"\n",
                "`complete` is not `true` or `false`",
            ),
            (
                "[[command]]\nname = \"x\"\ncomplete = true\npath_write = [\"-o\"]\n",
                "(did you mean `path-write`?)",
            ),
        ] {
            let r = read("permc.toml", text);
            assert!(r.has_errors(), "{text}");
            assert!(r.rows.is_empty(), "{text}");
            let d = &r.diagnostics[0];
            assert!(d.message.contains(says), "{text}: {}", d.message);
            assert!(d.help.is_some(), "{text}");
            assert_eq!(d.check.name(), "invalid-command");
        }
    }

    #[test]
    fn a_row_describes_its_program_by_kind() {
        let r = read(
            "permc.toml",
            "[[command]]\nname = \"mytool\"\ncomplete = true\nversion = \"mytool 2\"\noperands = [\"path-read\"]\nflags = [\"-v --verbose\"]\npath-write = [\"-o --out\"]\n\n[[command]]\nname = \"sort\"\nflags = [\"--my-patch\"]\n",
        );
        assert!(!r.has_errors(), "{:?}", r.diagnostics);
        let d = &r.rows.rows()[0].description;
        assert!(d.complete);
        assert_eq!(d.version, "mytool 2");
        assert_eq!(d.operands, ["path-read"]);
        let entries: Vec<_> = d.entries().collect();
        assert_eq!(
            entries,
            [(Kind::Flag, "-v --verbose"), (Kind::PathWrite, "-o --out")]
        );
        assert!(!r.rows.rows()[1].description.complete);
    }

    #[test]
    fn a_second_row_of_one_name_is_a_warning_and_both_count() {
        let r = read(
            "permc.toml",
            "[[command]]\nname = \"t\"\neffects = [\"external\"]\n\n[[command]]\nname = \"t\"\neffects = [\"code\"]\n",
        );
        assert!(!r.has_errors());
        assert_eq!(r.diagnostics.len(), 1);
        assert_eq!(r.diagnostics[0].check.name(), "duplicate-command");
        let t = &r.rows.rows()[0];
        assert!(t.effects.external && t.effects.code);
    }
}
