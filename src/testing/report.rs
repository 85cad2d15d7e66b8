//! What `permc test` found: coverage, and the human, JSON and JUnit
//! reports.

use permc_core::Decision;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;

use super::{shown, Project, Suite};

/// One entry of the rule files and the cases it decided.
pub(super) struct Covered {
    file: String,
    /// `deny`, `ask`, `allow` or `autonomy`.
    list: &'static str,
    rule: String,
    source: String,
    line: usize,
    column: usize,
    cases: usize,
}

pub(super) fn coverage(projects: &[Project], suites: &[Suite]) -> Vec<Covered> {
    let mut out = Vec::new();
    for (k, p) in projects.iter().enumerate() {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for s in suites.iter().filter(|s| s.project == k) {
            for o in &s.outcomes {
                if let Some(r) = &o.got.rule {
                    *count.entry(r.source.as_str()).or_default() += 1;
                }
            }
        }
        let name =
            |f: &Option<PathBuf>, dflt: &str| f.as_deref().map_or_else(|| dflt.to_string(), shown);
        let perms = &p.rules.permissions;
        let mut entries: Vec<&permc_grammar::rules::Entry> = perms
            .deny
            .iter()
            .chain(&perms.ask)
            .chain(&perms.allow)
            .collect();
        entries.sort_by_key(|e| e.span.start);
        for e in entries {
            let source = e.location.to_string();
            out.push(Covered {
                file: name(&p.permissions, crate::project::PERMISSIONS),
                list: match e.list {
                    permc_grammar::rules::List::Deny => "deny",
                    permc_grammar::rules::List::Ask => "ask",
                    permc_grammar::rules::List::Allow => "allow",
                },
                rule: e.pattern.text.clone(),
                cases: count.get(source.as_str()).copied().unwrap_or(0),
                line: e.location.line,
                column: e.location.column,
                source,
            });
        }
        for r in &p.rules.autonomy.rules {
            let source = r.location.to_string();
            out.push(Covered {
                file: name(&p.autonomy, crate::project::AUTONOMY),
                list: "autonomy",
                rule: format!("{}: {} = {}", r.agent, r.key.name(), r.mode.name()),
                cases: count.get(source.as_str()).copied().unwrap_or(0),
                line: r.location.line,
                column: r.location.column,
                source,
            });
        }
    }
    out
}

/// Coverage as percentages: per list (`deny`, `ask`, `allow`,
/// `autonomy`, those with entries) and overall.
pub(super) struct Percent {
    /// `(list, decided, entries)`, in that order of lists.
    pub lists: Vec<(&'static str, usize, usize)>,
    /// Entries that decided a case, of all.
    pub decided: usize,
    /// All entries.
    pub entries: usize,
}

impl Percent {
    pub(super) fn of(cov: &[Covered]) -> Percent {
        let lists = ["deny", "ask", "allow", "autonomy"]
            .into_iter()
            .filter_map(|l| {
                let all = cov.iter().filter(|c| c.list == l).count();
                let decided = cov.iter().filter(|c| c.list == l && c.cases > 0).count();
                (all > 0).then_some((l, decided, all))
            })
            .collect();
        Percent {
            lists,
            decided: cov.iter().filter(|c| c.cases > 0).count(),
            entries: cov.len(),
        }
    }

    /// Overall, in percent, rounded to one decimal for people (100 with
    /// no entries: nothing is untested).
    pub(super) fn overall(&self) -> f64 {
        ratio(self.decided, self.entries)
    }

    /// Overall, in percent, exact: what `--threshold` is compared with
    /// (a rounded 21.5 must not pass a threshold of 21.5 at 21.46).
    pub(super) fn exact(&self) -> f64 {
        if self.entries == 0 {
            return 100.0;
        }
        self.decided as f64 * 100.0 / self.entries as f64
    }
}

/// `decided` of `all`, in percent, rounded to one decimal (2 of 3 is
/// 66.7), but never to 100 while an entry is undecided nor to 0 once one
/// is decided (100 when `all` is 0).
fn ratio(decided: usize, all: usize) -> f64 {
    if all == 0 {
        return 100.0;
    }
    // Counts of rule entries: far below 2^52, exact as f64.
    let p = decided as f64 * 100.0 / all as f64;
    let r = (p * 10.0).round() / 10.0;
    match (decided, all) {
        (d, a) if d < a && r >= 100.0 => 99.9,
        (d, _) if d > 0 && r <= 0.0 => 0.1,
        _ => r,
    }
}

pub(super) fn counts(suites: &[Suite]) -> (usize, usize) {
    let all: usize = suites.iter().map(|s| s.outcomes.len()).sum();
    let failed = suites
        .iter()
        .flat_map(|s| &s.outcomes)
        .filter(|o| o.failure.is_some())
        .count();
    (all - failed, failed)
}

fn decision_text(d: &Decision) -> String {
    let mut s = format!("{} ({})", d.policy, d.reason);
    if let Some(r) = &d.rule {
        s.push_str(&format!(" by {} at {}", r.rule, r.source));
    }
    s
}

pub(super) fn human(suites: &[Suite], cov: Option<&[Covered]>) -> String {
    let mut out = String::new();
    for s in suites {
        let failed = s.outcomes.iter().filter(|o| o.failure.is_some()).count();
        for o in s.outcomes.iter().filter(|o| o.failure.is_some()) {
            let c = &o.case;
            out.push_str(&format!(
                "FAIL {}:{}:{}  {}\n",
                s.file, c.line, c.column, c.name
            ));
            if let Some(f) = &o.failure {
                out.push_str(&format!("  {f}\n"));
            }
            out.push_str(&format!("  decided: {}\n", decision_text(&o.got)));
            if let Some(e) = &o.explain {
                out.push_str("  what decided instead (permc explain):\n");
                for l in e.lines() {
                    out.push_str(&format!("    {l}\n"));
                }
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "{} {}: {} passed, {failed} failed\n",
            if failed == 0 { "ok  " } else { "FAIL" },
            s.file,
            s.outcomes.len() - failed
        ));
    }
    if let Some(cov) = cov {
        let decided: Vec<&Covered> = cov.iter().filter(|c| c.cases > 0).collect();
        let never: Vec<&Covered> = cov.iter().filter(|c| c.cases == 0).collect();
        let pc = Percent::of(cov);
        out.push_str(&format!(
            "\nCoverage: {} of {} entries decided at least one case ({:.1}%)\n",
            decided.len(),
            cov.len(),
            pc.overall()
        ));
        for (list, d, all) in &pc.lists {
            out.push_str(&format!(
                "  {list:<8} {d} of {all} ({:.1}%)\n",
                ratio(*d, *all)
            ));
        }
        let width = cov
            .iter()
            .map(|c| c.rule.chars().count())
            .max()
            .unwrap_or(0);
        let row = |n: &str, list: &str, rule: &str, at: &str| {
            let s = format!("  {n:>5}  {list:<8} {rule:<width$}  {at}");
            s.trim_end().to_string() + "\n"
        };
        let at = |c: &Covered| format!("{}:{}:{}", c.file, c.line, c.column);
        if !decided.is_empty() {
            out.push_str(&row("cases", "list", "entry", "at"));
            for c in &decided {
                out.push_str(&row(&c.cases.to_string(), c.list, &c.rule, &at(c)));
            }
        }
        if !never.is_empty() {
            out.push_str(&format!(
                "Never decided a case ({}): add a case for each, or remove it\n",
                never.len()
            ));
            for c in &never {
                out.push_str(&row("-", c.list, &c.rule, &at(c)));
            }
        }
    }
    let (passed, failed) = counts(suites);
    out.push_str(&format!(
        "\npermc test: {passed} passed, {failed} failed, in {} file{}\n",
        suites.len(),
        if suites.len() == 1 { "" } else { "s" }
    ));
    out
}

/// The human report in color: failures red, passing files green.
pub(super) fn paint(text: &str) -> String {
    text.lines()
        .map(|l| {
            let code = if l.starts_with("FAIL") {
                "31"
            } else if l.starts_with("ok  ") {
                "32"
            } else if l.starts_with("Never decided") {
                "33"
            } else {
                return format!("{l}\n");
            };
            format!("\x1b[{code}m{l}\x1b[0m\n")
        })
        .collect()
}

fn coverage_json(cov: &[Covered]) -> Value {
    let entry = |c: &Covered| {
        json!({
            "file": c.file,
            "list": c.list,
            "rule": c.rule,
            "source": c.source,
            "line": c.line,
            "column": c.column,
            "cases": c.cases,
        })
    };
    let pc = Percent::of(cov);
    let lists: serde_json::Map<String, Value> = pc
        .lists
        .iter()
        .map(|(l, d, all)| {
            (
                l.to_string(),
                json!({"entries": all, "decided": d, "percent": ratio(*d, *all)}),
            )
        })
        .collect();
    json!({
        "percent": pc.overall(),
        "lists": lists,
        "entries": cov.len(),
        "decided": cov.iter().filter(|c| c.cases > 0).map(entry).collect::<Vec<_>>(),
        "never": cov.iter().filter(|c| c.cases == 0).map(entry).collect::<Vec<_>>(),
    })
}

pub(super) fn json_out(projects: &[Project], suites: &[Suite], cov: Option<&[Covered]>) -> String {
    let files: Vec<Value> = suites
        .iter()
        .map(|s| {
            let p = &projects[s.project];
            let cases: Vec<Value> = s
                .outcomes
                .iter()
                .map(|o| {
                    let c = &o.case;
                    let mut expect = json!({"policy": c.expect.name()});
                    if let Some(r) = c.reason {
                        expect["reason"] = json!(r.name());
                    }
                    if let Some(r) = &c.rule {
                        expect["rule"] = json!(r);
                    }
                    let mut v = json!({
                        "name": c.name,
                        "line": c.line,
                        "column": c.column,
                        "request": c.request_json,
                        "expect": expect,
                        "decision": o.got.to_json(),
                        "passed": o.failure.is_none(),
                    });
                    if let Some(f) = &o.failure {
                        v["failure"] = json!(f);
                        v["explain"] = json!(o.explain);
                    }
                    v
                })
                .collect();
            let failed = s.outcomes.iter().filter(|o| o.failure.is_some()).count();
            json!({
                "file": s.file,
                "permissions": p.permissions.as_deref().map(shown),
                "autonomy": p.autonomy.as_deref().map(shown),
                "passed": s.outcomes.len() - failed,
                "failed": failed,
                "cases": cases,
            })
        })
        .collect();
    let (passed, failed) = counts(suites);
    let mut v = json!({
        "version": 1,
        "files": files,
        "summary": {"files": suites.len(), "passed": passed, "failed": failed},
    });
    if let Some(cov) = cov {
        v["coverage"] = coverage_json(cov);
    }
    v.to_string() + "\n"
}

/// Text for XML 1.0: escaped, and characters XML cannot hold replaced.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(ch),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// JUnit `<properties>` of the coverage: `coverage` overall and
/// `coverage.<list>`, in percent.
fn junit_properties(cov: &[Covered]) -> String {
    let pc = Percent::of(cov);
    let mut out = String::from("    <properties>\n");
    out.push_str(&format!(
        "      <property name=\"coverage\" value=\"{:.1}\"/>\n",
        pc.overall()
    ));
    for (l, d, all) in &pc.lists {
        out.push_str(&format!(
            "      <property name=\"coverage.{l}\" value=\"{:.1}\"/>\n",
            ratio(*d, *all)
        ));
    }
    out.push_str("    </properties>\n");
    out
}

pub(super) fn junit(suites: &[Suite], cov: Option<&[Covered]>) -> String {
    let (passed, failed) = counts(suites);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"permc test\" tests=\"{}\" failures=\"{failed}\" errors=\"0\">\n",
        passed + failed
    ));
    for s in suites {
        let f = s.outcomes.iter().filter(|o| o.failure.is_some()).count();
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" errors=\"0\" skipped=\"0\">\n",
            xml(&s.file),
            s.outcomes.len()
        ));
        if let Some(cov) = cov {
            out.push_str(&junit_properties(cov));
        }
        for o in &s.outcomes {
            let c = &o.case;
            let head = format!(
                "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{}\"",
                xml(&format!("line {}: {}", c.line, c.name)),
                xml(&s.file),
                xml(&s.file),
                c.line
            );
            match &o.failure {
                None => out.push_str(&format!("{head}/>\n")),
                Some(f) => {
                    out.push_str(&format!(
                        "{head}>\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                        xml(f),
                        o.got.reason,
                        xml(o.explain.as_deref().unwrap_or(""))
                    ));
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Runs `permc test`.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_text_is_escaped_and_valid() {
        assert_eq!(
            xml("a<b & \"c\"\u{1}"),
            "a&lt;b &amp; &quot;c&quot;\u{FFFD}"
        );
    }
}

#[cfg(test)]
mod percent_tests {
    /// Rounded to one decimal, never to 100 with an entry undecided nor
    /// to 0 with one decided (issue 43, conventions).
    #[test]
    fn percentages_round_but_never_to_the_ends() {
        assert_eq!(super::ratio(2, 3), 66.7);
        assert_eq!(super::ratio(6, 43), 14.0);
        assert_eq!(super::ratio(9999, 10000), 99.9);
        assert_eq!(super::ratio(1, 10000), 0.1);
        assert_eq!(super::ratio(0, 3), 0.0);
        assert_eq!(super::ratio(3, 3), 100.0);
        assert_eq!(super::ratio(0, 0), 100.0);
    }
}
