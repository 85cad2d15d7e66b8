//! Witnesses decided by the reference interpreter, fast on big files.

use permc_core::request::{Action, Context, Request};
use permc_core::{reference, Decision, Rules};
use permc_grammar::ActionType;
/// The reference interpreter, given for each action only the entries
/// that can take part in its decision, so a witness costs what its command
/// touches, not the size of the file (a diff of two 100k-rule files has
/// thousands of witnesses, and the interpreter scans every entry).
///
/// For a terminal action, a Terminal entry is kept when it matches some
/// run of consecutive words of the line that ends a word list — of a
/// segment, of a command read past wrappers, of an inner line — the first
/// of them also taken by its last path component: the interpreter only
/// matches patterns against such word lists (SPEC §3.2, §4.3), so a left
/// out entry could not have matched. For another action, the entries of
/// its label (SPEC §5.3 step 5 reads only those). Kept entries keep their
/// order, so each list's first match, and the decision, are the same
/// (tested against the whole rules in this module's tests).
pub(super) struct Witnesser<'a> {
    rules: &'a Rules,
    /// First exact token → (list, index) of the Terminal entries it starts.
    exact: std::collections::HashMap<&'a str, Vec<(usize, usize)>>,
    /// Terminal entries with a prefix first token, or none (`Terminal()`).
    open: Vec<(usize, usize)>,
    /// The rules the interpreter reads: the autonomy rules once, the
    /// permissions replaced per action.
    scratch: std::cell::RefCell<Rules>,
}

impl<'a> Witnesser<'a> {
    pub(super) fn new(rules: &'a Rules) -> Witnesser<'a> {
        use permc_grammar::pattern::PatToken;
        let mut exact: std::collections::HashMap<&str, Vec<(usize, usize)>> =
            std::collections::HashMap::new();
        let mut open = Vec::new();
        for (l, list) in Self::lists(rules).into_iter().enumerate() {
            for (k, e) in list.iter().enumerate() {
                match e.pattern.tokens() {
                    None => {}
                    Some([PatToken::Exact(t), ..]) => {
                        exact.entry(t.as_str()).or_default().push((l, k))
                    }
                    Some(_) => open.push((l, k)),
                }
            }
        }
        let scratch = Rules::new(
            permc_grammar::rules::Permissions {
                file: rules.permissions.file.clone(),
                ..Default::default()
            },
            rules.autonomy.clone(),
        )
        .with_project(rules.project.clone());
        Witnesser {
            rules,
            exact,
            open,
            scratch: std::cell::RefCell::new(scratch),
        }
    }

    fn lists(rules: &Rules) -> [&[permc_grammar::rules::Entry]; 3] {
        let p = &rules.permissions;
        [&p.deny, &p.ask, &p.allow]
    }

    /// The Terminal entries that match some word list of `command` from
    /// some word on.
    fn terminal(&self, command: &str) -> Vec<(usize, usize)> {
        let f = permc_core::facts::LineFacts::of(command);
        let lists = Self::lists(self.rules);
        if f.has_unknown || f.has_possible() {
            // An unknown word may match any deny or ask pattern (SPEC
            // §4.4), and so may a possible run's words (§4.5 item 2): no
            // entry can be left out.
            return lists
                .iter()
                .enumerate()
                .flat_map(|(l, list)| (0..list.len()).map(move |k| (l, k)))
                .collect();
        }
        let lines = f
            .line
            .segments
            .iter()
            .chain(f.inner_lines.iter().flat_map(|(_, l)| &l.segments))
            .map(|s| s.words.as_slice())
            .chain(f.runs().map(|r| r.words));
        let mut keep = Vec::new();
        for words in lines {
            for i in 0..words.len() {
                let mut tail: Vec<&str> = words[i..].iter().map(|w| &**w).collect();
                let base = tail[0].rsplit('/').next().unwrap_or(tail[0]);
                let firsts = if base.len() < tail[0].len() {
                    vec![tail[0], base]
                } else {
                    vec![tail[0]]
                };
                for first in firsts {
                    tail[0] = first;
                    let candidates = self.exact.get(first).into_iter().flatten();
                    for &(l, k) in candidates.chain(&self.open) {
                        if lists[l][k].pattern.matches_words(&tail) {
                            keep.push((l, k));
                        }
                    }
                }
            }
        }
        // `Terminal()` and prefix patterns match the empty line too.
        keep.extend(
            self.open
                .iter()
                .filter(|&&(l, k)| lists[l][k].pattern.matches_words::<&str>(&[])),
        );
        keep
    }

    /// The entries that can take part in the decision of `action`.
    fn reduced(&self, action: &Action) -> permc_grammar::rules::Permissions {
        let lists = Self::lists(self.rules);
        let mut keep = if action.kind == ActionType::Terminal {
            self.terminal(action.command.as_deref().unwrap_or(""))
        } else {
            let mut v = Vec::new();
            for (l, list) in lists.iter().enumerate() {
                for (k, e) in list.iter().enumerate() {
                    if e.pattern.action == action.kind {
                        v.push((l, k));
                    }
                }
            }
            v
        };
        keep.sort_unstable();
        keep.dedup();
        let mut out: [Vec<permc_grammar::rules::Entry>; 3] = Default::default();
        for (l, k) in keep {
            out[l].push(lists[l][k].clone());
        }
        let [deny, ask, allow] = out;
        permc_grammar::rules::Permissions {
            file: self.rules.permissions.file.clone(),
            allow,
            deny,
            ask,
        }
    }

    pub(super) fn decide(&self, context: &Context, action: Action) -> Decision {
        let reduced = self.reduced(&action);
        let mut scratch = self.scratch.borrow_mut();
        scratch.permissions = reduced;
        reference::decide(
            &scratch,
            &Request {
                action,
                context: context.clone(),
            },
        )
    }
}

#[cfg(test)]
#[path = "../../tests/support/corpus.rs"]
mod corpus;

#[cfg(test)]
mod tests {
    use super::*;
    use permc_grammar::rules::load_permissions;

    fn same(rules: &Rules, req: &Request) {
        let w = Witnesser::new(rules);
        assert_eq!(
            w.decide(&req.context, req.action.clone()),
            reference::decide(rules, req),
            "{req:?}"
        );
    }

    /// Every case of the decision corpus: the interpreter on the reduced
    /// entries decides exactly as on the whole rules.
    #[test]
    fn reduced_rules_decide_the_corpus_the_same() {
        let mut n = 0;
        for case in corpus::load_all() {
            let (Some(p), Some(a)) = (
                load_permissions("permissions.json", case.permissions.as_bytes()).value,
                permc_grammar::rules::load_autonomy("autonomy.json", case.autonomy.as_bytes())
                    .value,
            ) else {
                continue;
            };
            if let Ok(req) = Request::from_json(&case.request) {
                same(&Rules::new(p, a), &req);
                n += 1;
            }
        }
        assert!(n > 500, "{n}");
    }

    /// Commands behind wrappers, inner lines, paths and compounds, over
    /// rules whose patterns start with every word they hold.
    #[test]
    fn reduced_rules_decide_wrapped_commands_the_same() {
        let commands = [
            "curl x",
            "sudo curl x",
            "/usr/bin/curl x",
            "X=1 curl x",
            "command curl x",
            "bash -c 'curl x'",
            "sh -c \"git push origin\"",
            "env -S 'git push'",
            "timeout 5 git push",
            "sudo -u root env A=1 /usr/bin/git -C /tmp push",
            "cd src && npm run build | tee out.log",
            "git status; rm -rf build",
            "pnpm test:unit",
            "ls $(curl x)",
            "eval git push",
            "xargs rm -rf",
            "",
            "   ",
            "rm -rf build",
        ];
        let mut words: Vec<String> = commands
            .iter()
            .flat_map(|c| c.split([' ', '\'', '"', ';', '|', '&', '(', ')', '$']))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        words.sort();
        words.dedup();
        let mut patterns = vec!["Terminal()".to_string(), "Terminal(c*)".into()];
        for (i, w) in words.iter().enumerate() {
            let w = w.replace(['(', ')', '*'], "");
            if w.is_empty() {
                continue;
            }
            patterns.push(format!("Terminal({w})"));
            patterns.push(format!("Terminal({w} {})", words[(i * 7) % words.len()]));
            patterns.push(format!("Terminal({}*)", &w[..1]));
        }
        let contexts = [
            r#"{"role": "developer", "executionMode": "runner", "projectScopeRoot": "/home/ana/p"}"#,
            r#"{"role": "maintainer", "executionMode": "container", "containerRunning": true, "projectScopeRoot": "/home/ana/p"}"#,
        ];
        // Each pattern in each list, rotated so every list has a turn first.
        for shift in 0..3 {
            let mut lists: [Vec<&str>; 3] = Default::default();
            for (i, p) in patterns.iter().enumerate() {
                if (i + shift) % 4 != 3 {
                    lists[(i + shift) % 3].push(p);
                }
            }
            let json = serde_json::json!({"deny": lists[0], "ask": lists[1], "allow": lists[2]});
            let perms = load_permissions("permissions.json", json.to_string().as_bytes())
                .value
                .expect("loads");
            let auto = permc_grammar::rules::load_autonomy(
                "autonomy.json",
                br#"{"dev-api": {"*": "auto_approve"}}"#,
            )
            .value
            .expect("loads");
            let rules = Rules::new(perms, auto);
            for c in commands {
                for ctx in contexts {
                    for agent in ["", r#", "agent": "dev-api""#] {
                        let text = format!(
                            r#"{{"action": {{"type": "terminal", "command": {}{agent}}}, "context": {ctx}}}"#,
                            serde_json::Value::from(c)
                        );
                        same(&rules, &Request::from_json(&text).expect("request"));
                    }
                }
            }
        }
    }
}
