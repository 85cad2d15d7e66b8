//! `permc diff`'s reports: human, JSON, GitHub annotations and SARIF.

use permc_compiler::diff::{self as core, Direction};
use permc_core::request::Context;
use permc_core::Decision;
use serde_json::{json, Value};

use super::Change;

fn counts(changes: &[Change]) -> (usize, usize, usize, usize) {
    let effective = |d| {
        changes
            .iter()
            .filter(|c| c.direction == d && c.witness.effect())
            .count()
    };
    (
        effective(Direction::MorePermissive),
        effective(Direction::LessPermissive),
        effective(Direction::Neutral),
        changes.iter().filter(|c| !c.witness.effect()).count(),
    )
}

fn decision_line(d: &Decision) -> String {
    let mut s = format!("{} ({})", d.policy, d.reason);
    if let Some(r) = &d.rule {
        s.push_str(&format!(" by {}", r.rule));
    }
    s
}

fn context_text(c: &Context) -> String {
    format!(
        "role {}, {} mode{}, scope root {}",
        c.role,
        c.execution_mode.name(),
        if c.container_running {
            ", container running"
        } else {
            ""
        },
        c.project_scope_root.as_deref().unwrap_or("(none)")
    )
}

/// The human report, its change tags colored as a review reads them:
/// more access red, less green, the rest (neutral, no effect) yellow.
/// Applied to the escaped report: every escape in it is permc's own.
pub(super) fn colored(text: &str) -> String {
    let tags = [
        (Direction::MorePermissive.name(), "1;31"),
        (Direction::LessPermissive.name(), "32"),
        (Direction::Neutral.name(), "33"),
        ("no effect", "33"),
    ];
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let tag = tags.iter().find(|(t, _)| {
            line.strip_prefix("  ")
                .and_then(|l| l.strip_prefix(t))
                .is_some_and(|rest| rest.starts_with(' '))
        });
        match tag {
            Some((t, code)) => {
                out.push_str(&format!("  \x1b[{code}m{t}\x1b[0m"));
                out.push_str(&line[2 + t.len()..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

pub(super) fn human(changes: &[Change], context: &Context) -> String {
    let mut out = String::new();
    let sections = [
        (
            "terminal",
            "Terminal: commands whose class changes (SPEC §5.3 step 6)",
        ),
        ("typed", "Typed labels (SPEC §5.3 step 5)"),
        (
            "autonomy",
            "Autonomy (SPEC §2.2), automatic-mode switches first",
        ),
    ];
    for (kind, heading) in sections {
        let mine: Vec<&Change> = changes.iter().filter(|c| c.kind == kind).collect();
        if mine.is_empty() {
            continue;
        }
        out.push_str(heading);
        out.push('\n');
        for (c, types) in grouped(mine) {
            change_lines(&mut out, c, &types);
        }
        out.push('\n');
    }
    let (more, less, neutral, none) = counts(changes);
    if changes.is_empty() {
        out.push_str("permc diff: no decision changes\n");
    } else {
        out.push_str(&format!(
            "permc diff: {more} more permissive, {less} less permissive, {neutral} neutral, {none} without effect\n"
        ));
    }
    out.push_str(&format!("  (context: {})\n", context_text(context)));
    out
}

/// The changes of one section, autonomy rows that say the same for one
/// agent grouped (shown once, their types listed; JSON keeps one row per
/// type).
fn grouped(mine: Vec<&Change>) -> Vec<(&Change, Vec<&str>)> {
    let mut groups: Vec<(&Change, Vec<&str>)> = Vec::new();
    for c in mine {
        let key = |c: &Change| {
            (
                c.title.split(": ").next().map(str::to_string),
                c.old.clone(),
                c.new.clone(),
                c.direction,
                c.automatic_switch,
                c.witness.before.policy,
                c.witness.before.reason,
                c.witness.after.policy,
                c.witness.after.reason,
            )
        };
        match groups.last_mut() {
            Some((first, types)) if c.kind == "autonomy" && key(first) == key(c) => {
                types.push(c.title.split(": ").nth(1).unwrap_or(""));
            }
            _ => groups.push((c, vec![c.title.split(": ").nth(1).unwrap_or("")])),
        }
    }
    groups
}

/// One change's lines: the title and what changes, the entry, the witness
/// before and after.
fn change_lines(out: &mut String, c: &Change, types: &[&str]) {
    let title = if types.len() > 1 {
        let agent = c.title.split(": ").next().unwrap_or("");
        format!("{agent}: {}", types.join(", "))
    } else {
        c.title.clone()
    };
    let tag = if c.witness.effect() {
        c.direction.name()
    } else {
        "no effect"
    };
    out.push_str(&format!(
        "  {tag:<16} {}: was {}, now {}\n",
        title, c.old, c.new
    ));
    if let Some(r) = &c.region {
        for e in &r.except {
            out.push_str(&format!("      except   {e}\n"));
        }
    }
    if c.automatic_switch {
        out.push_str("      automatic mode switches (a wildcard auto_approve)\n");
    }
    if let Some(e) = &c.entry {
        let at = if e.side == "old" {
            format!("{} (removed)", e.source)
        } else {
            let (file, line, col) = position(c);
            format!("{file}:{line}:{col}")
        };
        out.push_str(&format!("      entry    {} at {at}\n", e.rule));
    }
    if c.behind_wrappers {
        out.push_str("      also behind wrappers (sudo, env, bash -c…): deny and ask entries read past them\n");
    }
    let w = &c.witness;
    out.push_str(&format!("      witness  {}\n", w.shown));
    out.push_str(&format!("        before {}\n", decision_line(&w.before)));
    out.push_str(&format!("        after  {}\n", decision_line(&w.after)));
    if !w.effect() {
        out.push_str(&format!(
            "        no effect in this context: {}\n",
            w.after.reason
        ));
    }
}

fn context_json(c: &Context) -> Value {
    json!({
        "role": c.role.name(),
        "executionMode": c.execution_mode.name(),
        "containerRunning": c.container_running,
        "projectScopeRoot": c.project_scope_root,
    })
}

fn prefix_json(p: &core::Prefix) -> Value {
    json!({
        "text": p.to_string(),
        "tokens": p.tokens.iter().map(|t| match t {
            permc_grammar::pattern::PatToken::Exact(s) => json!({"exact": s}),
            permc_grammar::pattern::PatToken::Prefix(s) => json!({"prefix": s}),
        }).collect::<Vec<_>>(),
        "open": p.open,
    })
}

fn change_json(c: &Change) -> Value {
    let mut v = json!({
        "kind": c.kind,
        "file": c.file,
        "title": c.title,
        "old": c.old,
        "new": c.new,
        "direction": c.direction.name(),
        "effect": c.witness.effect(),
        "entry": c.entry.as_ref().map(|e| json!({"rule": e.rule, "source": e.source, "side": e.side})),
        "witness": {
            "shown": c.witness.shown,
            "before": c.witness.before.to_json(),
            "after": c.witness.after.to_json(),
        },
    });
    if let Some(r) = &c.region {
        v["region"] = json!({
            "pattern": prefix_json(&r.pattern),
            "except": r.except.iter().map(prefix_json).collect::<Vec<_>>(),
        });
        v["witness"]["words"] = json!(r.witness);
        v["behindWrappers"] = json!(c.behind_wrappers);
    }
    if c.kind == "autonomy" {
        v["automaticSwitch"] = json!(c.automatic_switch);
    }
    v
}

pub(super) fn json_out(changes: &[Change], context: &Context) -> String {
    let (more, less, neutral, none) = counts(changes);
    json!({
        "version": 1,
        "context": context_json(context),
        "changes": changes.iter().map(change_json).collect::<Vec<_>>(),
        "summary": {
            "morePermissive": more,
            "lessPermissive": less,
            "neutral": neutral,
            "noEffect": none,
        },
    })
    .to_string()
        + "\n"
}

/// `file`, line, column of the entry that causes a change in NEW (sources
/// name files by their base name; the change knows the file as given);
/// line 1 of NEW's file for an entry removed.
fn position(c: &Change) -> (String, usize, usize) {
    if let Some(e) = c.entry.as_ref().filter(|e| e.side == "new") {
        let mut it = e.source.rsplitn(3, ':');
        let col = it.next().and_then(|c| c.parse().ok());
        let line = it.next().and_then(|l| l.parse().ok());
        if let (Some(col), Some(line), Some(_)) = (col, line, it.next()) {
            return (c.file.clone(), line, col);
        }
    }
    (c.file.clone(), 1, 1)
}

fn sentence(c: &Change) -> String {
    let mut s = format!(
        "{}: was {}, now {} ({}",
        c.title,
        c.old,
        c.new,
        c.direction.name()
    );
    if c.witness.effect() {
        s.push_str(&format!(
            "): `{}` was {}, is now {}",
            c.witness.shown,
            decision_line(&c.witness.before),
            decision_line(&c.witness.after)
        ));
    } else {
        s.push_str(&format!(
            ", no effect: `{}` stays {})",
            c.witness.shown,
            decision_line(&c.witness.after)
        ));
    }
    if let Some(e) = c.entry.as_ref().filter(|e| e.side == "old") {
        s.push_str(&format!(" [removed: {} at {}]", e.rule, e.source));
    }
    s
}

fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub(super) fn github(changes: &[Change]) -> String {
    let mut out = String::new();
    // Annotations attach to a pull request's diff only by paths relative
    // to the repository's top level (one git call a file).
    let mut names = std::collections::HashMap::new();
    for c in changes {
        let (file, line, col) = position(c);
        let file = names
            .entry(file)
            .or_insert_with_key(|f| crate::repo::relative_name(f))
            .clone();
        let level = if c.direction == Direction::MorePermissive && c.witness.effect() {
            "warning"
        } else {
            "notice"
        };
        out.push_str(&format!(
            "::{level} file={},line={line},col={col},title={}::{}\n",
            escape_property(&file),
            escape_property(&format!("permc diff: {}", c.direction.name())),
            escape_data(&sentence(c))
        ));
    }
    out
}

pub(super) fn sarif(changes: &[Change]) -> String {
    let rules: Vec<Value> = [
        (Direction::MorePermissive, "The change grants more: a decision is more permissive than before."),
        (Direction::LessPermissive, "The change grants less: a decision is less permissive than before."),
        (Direction::Neutral, "The change alters a decision without granting more or less."),
    ]
    .iter()
    .map(|(d, text)| {
        json!({
            "id": d.name(),
            "name": d.name(),
            "shortDescription": {"text": text},
            "defaultConfiguration": {"level": if *d == Direction::MorePermissive { "warning" } else { "note" }},
        })
    })
    .collect();
    let results: Vec<Value> = changes
        .iter()
        .map(|c| {
            let (file, line, col) = position(c);
            let index = match c.direction {
                Direction::MorePermissive => 0,
                Direction::LessPermissive => 1,
                Direction::Neutral => 2,
            };
            let level = if c.direction == Direction::MorePermissive && c.witness.effect() {
                "warning"
            } else {
                "note"
            };
            json!({
                "ruleId": c.direction.name(),
                "ruleIndex": index,
                "level": level,
                "message": {"text": sentence(c)},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": file.trim_start_matches("./")},
                    "region": {"startLine": line, "startColumn": col},
                }}],
                "properties": {"kind": c.kind, "effect": c.witness.effect()},
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "permc diff",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    })
    .to_string()
        + "\n"
}
