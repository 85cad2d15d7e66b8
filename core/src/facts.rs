//! What a request's command really does: permc-shell's facts (the reader,
//! the catalogue, the scope, protected paths), re-exported, and what they
//! need of a request — its place and its `write_file` path — read here,
//! where requests are known.

pub use permc_shell::facts::*;

pub mod unknown;

use crate::request::{ExecutionMode, Request};
use permc_grammar::ActionType;
use permc_shell::facts::project::ProjectRows;
use permc_shell::facts::protected::{names_protected_dir, path_is_protected};
use std::borrow::Cow;

/// Where a request's command runs (SPEC §6.2).
pub fn place<'r>(req: &'r Request<'_>) -> Place<'r> {
    Place {
        root: req.context.project_scope_root.as_deref(),
        cwd: req.action.cwd.as_deref(),
        in_container: matches!(
            req.context.execution_mode,
            ExecutionMode::Container | ExecutionMode::Mounted
        ) && req.context.container_running,
    }
}

/// The scope of a request (SPEC §6.2); `None` without a projectScopeRoot.
pub fn scope_of<'r>(req: &'r Request<'_>) -> Option<Scope<'r>> {
    Scope::at(place(req))
}

/// `scopeRoot` of a decision (SPEC §6.3): mode and the root's last component.
pub fn scope_root_label(req: &Request) -> Option<String> {
    let (mode, last) = scope_root_parts(req)?;
    let mut label = String::with_capacity(mode.len() + 1 + last.len());
    label.push_str(mode);
    label.push(':');
    label.push_str(&last);
    Some(label)
}

/// [`scope_root_label`] written into `label` (cleared first), for a caller
/// that keeps one buffer: `false` when the request has no root.
pub fn scope_root_label_into(req: &Request, label: &mut String) -> bool {
    label.clear();
    let Some((mode, last)) = scope_root_parts(req) else {
        return false;
    };
    label.push_str(mode);
    label.push(':');
    label.push_str(&last);
    true
}

/// The mode's name and the root's last component, of [`scope_root_label`].
fn scope_root_parts<'r>(req: &'r Request) -> Option<(&'static str, Cow<'r, str>)> {
    let raw = req.context.project_scope_root.as_deref()?;
    let mode = req.context.execution_mode.name();
    // Most roots hold no `.` at all: then no component is `.` or `..`,
    // empty ones are dropped by normalizing, and the last non-empty
    // component is the normalized root's last (one memchr, no copy).
    let b = raw.as_bytes();
    if b.first() == Some(&b'/') && !b.contains(&b'.') {
        // Byte scans from the end: `/` is ASCII, so both ends are char
        // boundaries.
        let end = b.iter().rposition(|&c| c != b'/').map_or(0, |k| k + 1);
        if let Some(k) = b[..end].iter().rposition(|&c| c == b'/') {
            return Some((mode, Cow::Borrowed(&raw[k + 1..end])));
        }
    }
    // Borrowed when already normal: this runs for every decision.
    fn last(root: &str) -> &str {
        root.rsplit('/')
            .next()
            .filter(|s| !s.is_empty())
            .unwrap_or("/")
    }
    if is_normal(raw) {
        return Some((mode, Cow::Borrowed(last(raw))));
    }
    Some((mode, Cow::Owned(last(&normalize(raw)).to_owned())))
}

/// The `path` of a write_file request placed as SPEC §10.1 and §6.4 say:
/// absolute, or resolved against the cwd (else the scope root), then
/// translated like the cwd (§6.2) and normalized; `Err` with the path as
/// given when it starts with `~` (outside, its place unknown). `None`
/// for any other request.
fn written_path<'r>(req: &'r Request<'_>) -> Option<Result<String, &'r str>> {
    if req.action.kind != ActionType::WriteFile {
        return None;
    }
    let path = req.action.path.as_deref()?;
    if path.starts_with('~') {
        return Some(Err(path));
    }
    let raw_root = req.context.project_scope_root.as_deref()?;
    let root = normalize(raw_root);
    let base = match req.action.cwd.as_deref() {
        Some(c) if !c.is_empty() => c,
        _ => &root,
    };
    let host = resolve(base, path);
    let in_container = matches!(
        req.context.execution_mode,
        ExecutionMode::Container | ExecutionMode::Mounted
    ) && req.context.container_running;
    if !in_container {
        return Some(Ok(host));
    }
    let rest = if root == "/" {
        Some(&host[..])
    } else {
        host.strip_prefix(&root[..])
            .filter(|r| r.is_empty() || r.starts_with('/'))
    };
    Some(Ok(match rest {
        Some(r) => ["/work", r].concat(),
        None => host,
    }))
}

/// A write_file `path` outside the scope (SPEC §5.3 7i, §10.1): the path
/// as given.
pub fn write_file_outside(req: &Request) -> Option<String> {
    let shown = req.action.path.as_deref()?;
    match written_path(req)? {
        Err(_) => Some(shown.to_string()),
        Ok(p) => {
            let scope = scope_of(req)?;
            (!scope.contains(&p) && !DEV_FILES.contains(&p.as_str())).then(|| shown.to_string())
        }
    }
}

/// A write_file `path` that is protected (SPEC §5.3 7j, §6.4): it has a
/// protected directory as a component (as given or placed), its last
/// components are a protected name, it is one of permc.toml's
/// `protected` paths (`project`) or below one, or — on the host — it is
/// one of the person's own files or begins with `~`; the path as given.
pub fn write_file_protected(req: &Request, project: &ProjectRows) -> Option<String> {
    let shown = req.action.path.as_deref()?;
    let scope = scope_of(req)?;
    let host = !place(req).in_container;
    let placed = match written_path(req)? {
        Ok(p) => p,
        Err(_) => return host.then(|| shown.to_string()),
    };
    let root = scope.roots.first().map_or("/work", |r| &**r);
    let extra: Vec<String> = project
        .protected()
        .iter()
        .map(|p| resolve(root, p))
        .collect();
    (names_protected_dir(shown, false) || path_is_protected(&placed, root, host, &extra))
        .then(|| shown.to_string())
}

/// SPEC §6.4: does one of the allow entries (their patterns' text) name
/// the subcommand path of a wholesale move of the worktree — the run's
/// first `k` words, each token exact — and match the run's words?
pub fn allow_names_move<'t>(
    allow: impl IntoIterator<Item = &'t str>,
    run: &[Cow<'_, str>],
    k: usize,
) -> bool {
    allow.into_iter().any(|text| {
        let Some(body) = text
            .strip_prefix("Terminal(")
            .and_then(|b| b.strip_suffix(')'))
        else {
            return false;
        };
        let tokens: Vec<&str> = body.split_whitespace().collect();
        tokens.len() >= k
            && tokens.len() <= run.len()
            && tokens.iter().zip(run).enumerate().all(|(i, (t, w))| {
                if i < k {
                    t == w
                } else {
                    t.strip_suffix('*')
                        .map_or(t == w, |prefix| w.starts_with(prefix))
                }
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scope_root_label_is_the_normalized_roots_last_component() {
        for root in [
            "/",
            "//",
            "/a",
            "/a/",
            "/a//b/",
            "/home/ana/p",
            "/a/b/..",
            "/a/./b",
            "/a/b.c",
            "/a/..",
            "/..",
            "/a/b/../../c/",
        ] {
            let req = Request::from_value(&serde_json::json!({
                "action": {"type": "terminal", "command": "ls"},
                "context": {"role": "owner", "executionMode": "runner", "projectScopeRoot": root},
            }))
            .map(Request::into_owned);
            let Ok(req) = req else { continue };
            let n = normalize(root);
            let last = n
                .rsplit('/')
                .next()
                .filter(|s| !s.is_empty())
                .unwrap_or("/");
            assert_eq!(
                scope_root_label(&req),
                Some(format!("runner:{last}")),
                "{root}"
            );
        }
    }
}
