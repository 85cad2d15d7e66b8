//! Rule files (SPEC §2): permissions.json and autonomy.json, read with
//! spans, rejected whole with every error found.

use crate::action::{closest, ActionType, Policy};
use crate::diagnostic::{CheckId, Diagnostic, LineIndex, Location, Severity};
use crate::json::{self, Member, Node, Span, Value};
use crate::pattern::{Pattern, PatternErrorKind};

/// One of the three lists of permissions.json, in the one order permc
/// uses everywhere: SPEC §5.3 step 6's precedence, deny, ask, allow. Its
/// discriminant indexes every per-list table ([`PerList`], the compiled
/// form's accept triples).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum List {
    /// `deny` → deny.
    Deny = 0,
    /// `ask` → require_approval.
    Ask = 1,
    /// `allow` → auto_approve.
    Allow = 2,
}

impl List {
    /// The key name.
    pub fn name(self) -> &'static str {
        match self {
            List::Allow => "allow",
            List::Ask => "ask",
            List::Deny => "deny",
        }
    }

    /// The three lists, in precedence order.
    pub const ALL: [List; 3] = [List::Deny, List::Ask, List::Allow];

    /// The list's index in a [`PerList`] (its precedence rank).
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One value per list, indexed by [`List`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct PerList<T>(pub [T; 3]);

impl<T> PerList<T> {
    /// A value per list, from `f`.
    pub fn from_fn(mut f: impl FnMut(List) -> T) -> PerList<T> {
        PerList(List::ALL.map(&mut f))
    }

    /// Each list with its value, in precedence order.
    pub fn iter(&self) -> impl Iterator<Item = (List, &T)> {
        List::ALL.into_iter().zip(self.0.iter())
    }
}

impl<T> std::ops::Index<List> for PerList<T> {
    type Output = T;
    fn index(&self, l: List) -> &T {
        &self.0[l.index()]
    }
}

impl<T> std::ops::IndexMut<List> for PerList<T> {
    fn index_mut(&mut self, l: List) -> &mut T {
        &mut self.0[l.index()]
    }
}

/// An entry's position in its list (0-based, file order). A list holds
/// fewer than 2³² entries: a rule file is read whole into memory, and
/// every entry takes at least `"X()",` (six bytes) of it, so the
/// artifact's 4 GiB limit (permc-compiler) is reached first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntryIx(pub u32);

/// One pattern entry of permissions.json.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The pattern.
    pub pattern: Pattern,
    /// Which list holds it.
    pub list: List,
    /// Its position in that list.
    pub index: usize,
    /// The string's span in the file (quotes included).
    pub span: Span,
    /// `file:line:col` of the string, with the file's base name.
    pub location: Location,
}

/// A loaded permissions.json.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Permissions {
    /// The file as named on the command line.
    pub file: String,
    /// `allow` entries in order.
    pub allow: Vec<Entry>,
    /// `deny` entries in order.
    pub deny: Vec<Entry>,
    /// `ask` entries in order.
    pub ask: Vec<Entry>,
}

impl Permissions {
    /// The entries of one list.
    pub fn list(&self, list: List) -> &[Entry] {
        match list {
            List::Allow => &self.allow,
            List::Ask => &self.ask,
            List::Deny => &self.deny,
        }
    }

    /// Every entry of the three lists.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.allow.iter().chain(&self.deny).chain(&self.ask)
    }
}

/// The key of an autonomy rule: an action type or the wildcard `"*"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AutonomyKey {
    /// `"*"`, the automatic mode (RN-153).
    Wildcard,
    /// One action type.
    Type(ActionType),
}

impl AutonomyKey {
    /// As written in the file.
    pub fn name(self) -> &'static str {
        match self {
            AutonomyKey::Wildcard => "*",
            AutonomyKey::Type(t) => t.name(),
        }
    }
}

/// One autonomy rule: agent → key → mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutonomyRule {
    /// Agent id.
    pub agent: String,
    /// Action type or wildcard.
    pub key: AutonomyKey,
    /// The mode.
    pub mode: Policy,
    /// The mode string's span.
    pub span: Span,
    /// The key's span.
    pub key_span: Span,
    /// `file:line:col` of the mode, with the file's base name.
    pub location: Location,
}

/// A loaded autonomy.json (duplicates resolved: the last one wins).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Autonomy {
    /// The file as named on the command line.
    pub file: String,
    /// Rules in file order.
    pub rules: Vec<AutonomyRule>,
}

impl Autonomy {
    /// The rule for (agent, key), if any.
    pub fn get(&self, agent: &str, key: AutonomyKey) -> Option<&AutonomyRule> {
        self.rules.iter().find(|r| r.agent == agent && r.key == key)
    }
}

/// What a reader returns: the value when the file loaded (no error), and
/// every diagnostic found either way.
#[derive(Debug, Clone)]
pub struct Loaded<T> {
    /// `Some` only when there is no error.
    pub value: Option<T>,
    /// Errors and warnings, in file order.
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Loaded<T> {
    /// True when any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

fn base_name(file: &str) -> String {
    file.rsplit(['/', '\\']).next().unwrap_or(file).to_string()
}

struct Reader<'a> {
    file: &'a str,
    base: String,
    index: LineIndex<'a>,
    diags: Vec<Diagnostic>,
}

impl<'a> Reader<'a> {
    fn location(&self, offset: usize) -> Location {
        let (line, column) = self.index.line_col(offset);
        Location {
            file: self.base.clone(),
            line,
            column,
        }
    }

    fn error(&mut self, check: CheckId, span: Span, msg: String, help: String) {
        self.diags
            .push(Diagnostic::new(check, Severity::Error, self.file, span, msg).with_help(help));
    }

    fn warn(&mut self, check: CheckId, span: Span, msg: String, help: String) {
        self.diags
            .push(Diagnostic::new(check, Severity::Warning, self.file, span, msg).with_help(help));
    }

    /// Warns about keys given twice in `members`; returns the indices of the
    /// members that win (the last of each key).
    fn last_wins(&mut self, members: &[Member], what: &str) -> Vec<usize> {
        // The last index of each key, found in one pass: an autonomy file
        // has one member per agent, and comparing every pair made a file of
        // 30k agents take seconds.
        let mut last: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::with_capacity(members.len());
        for (i, m) in members.iter().enumerate() {
            last.insert(m.key.as_str(), i);
        }
        let mut keep = Vec::new();
        for (i, m) in members.iter().enumerate() {
            let later = last
                .get(m.key.as_str())
                .filter(|&&j| j != i)
                .and_then(|&j| members.get(j));
            match later {
                Some(l) => {
                    let d = Diagnostic::new(
                        CheckId::DuplicateKey,
                        Severity::Warning,
                        self.file,
                        m.key_span,
                        format!("{what} `{}` is given twice; this one is ignored", m.key),
                    )
                    .with_help("merge the two into one key: JSON readers keep only the last")
                    .with_related(self.file, l.key_span, "the one that wins");
                    self.diags.push(d);
                }
                None => keep.push(i),
            }
        }
        keep
    }
}

/// Parses JSON text, reporting `invalid-json` with where it breaks.
fn parse_json(r: &mut Reader<'_>, bytes: &[u8]) -> Option<Node> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.valid_up_to();
            r.error(
                CheckId::InvalidJson,
                Span {
                    start: at,
                    end: at + 1,
                },
                "the file is not valid UTF-8".into(),
                "save the file as UTF-8".into(),
            );
            return None;
        }
    };
    match json::parse(text) {
        Ok(n) => Some(n),
        Err(e) => {
            r.error(
                CheckId::InvalidJson,
                Span {
                    start: e.offset,
                    end: (e.offset + 1).min(text.len()).max(e.offset),
                },
                format!("the file is not valid JSON: {}", e.message),
                "fix the JSON syntax here; permc does not read a partial file".into(),
            );
            None
        }
    }
}

/// Reads permissions.json (SPEC §2.1). `file` names it in diagnostics and
/// (by base name) in `source`.
///
/// ```
/// let l = permc_grammar::rules::load_permissions(
///     "permissions.json", br#"{"allow": ["Terminal(ls)"]}"#);
/// let p = l.value.unwrap();
/// assert_eq!(p.allow[0].location.to_string(), "permissions.json:1:12");
/// ```
pub fn load_permissions(file: &str, bytes: &[u8]) -> Loaded<Permissions> {
    let (diags, perms) = load_permissions_partial(file, bytes);
    finish(diags, perms)
}

/// The largest rule file permc reads: under 4 GiB, so that every count
/// and offset of the compiled form fits the `u32` it is stored in.
pub const MAX_FILE_BYTES: usize = u32::MAX as usize;

/// A rule file of [`MAX_FILE_BYTES`] or more is refused whole.
fn too_large(file: &str, len: usize) -> Option<Diagnostic> {
    (len >= MAX_FILE_BYTES).then(|| {
        Diagnostic::new(
            CheckId::UnreadableFile,
            Severity::Error,
            file,
            Span { start: 0, end: 0 },
            format!("{file} is {len} bytes: permc reads rule files under 4 GiB"),
        )
        .with_help("split the rules, or remove the entries no command needs")
    })
}

/// Reads permissions.json as far as it goes: every diagnostic, and the
/// entries that were read even when others are errors (the analyzer still
/// reports their findings). Never decide from it: a file with errors is
/// rejected whole (SPEC §2) — use [`load_permissions`].
pub fn load_permissions_partial(file: &str, bytes: &[u8]) -> (Vec<Diagnostic>, Permissions) {
    if let Some(d) = too_large(file, bytes.len()) {
        return (vec![d], Permissions::default());
    }
    let text = String::from_utf8_lossy(bytes);
    let mut r = Reader {
        file,
        base: base_name(file),
        index: LineIndex::new(&text),
        diags: Vec::new(),
    };
    let mut perms = Permissions {
        file: file.to_string(),
        ..Permissions::default()
    };
    if let Some(root) = parse_json(&mut r, bytes) {
        read_permissions(&mut r, &root, &mut perms);
    }
    (r.diags, perms)
}

fn finish<T>(mut diags: Vec<Diagnostic>, value: T) -> Loaded<T> {
    diags.sort_by_key(|d| (d.span.start, d.severity));
    let has_errors = diags.iter().any(|d| d.severity == Severity::Error);
    Loaded {
        value: (!has_errors).then_some(value),
        diagnostics: diags,
    }
}

fn read_permissions(r: &mut Reader<'_>, root: &Node, perms: &mut Permissions) {
    let Value::Object(members) = &root.value else {
        r.error(
            CheckId::InvalidShape,
            root.span,
            format!(
                "the top level must be an object, found {}",
                root.value.kind()
            ),
            "write `{\"allow\": [...], \"deny\": [...], \"ask\": [...]}`".into(),
        );
        return;
    };
    let keep = r.last_wins(members, "key");
    for i in keep {
        let m = &members[i];
        let list = match m.key.as_str() {
            // An editor's JSON Schema (schemas/, `permc schema`): read by
            // editors, ignored here.
            SCHEMA_KEY => continue,
            "allow" => List::Allow,
            "deny" => List::Deny,
            "ask" => List::Ask,
            _ => {
                unknown_key(r, m);
                continue;
            }
        };
        let Value::Array(items) = &m.value.value else {
            r.error(
                CheckId::InvalidShape,
                m.value.span,
                format!(
                    "`{}` must be an array of pattern strings, found {}",
                    m.key,
                    m.value.value.kind()
                ),
                format!("write `\"{}\": [\"Terminal(…)\", …]`", m.key),
            );
            continue;
        };
        let entries = read_entries(r, &m.key, items, list);
        match list {
            List::Allow => perms.allow = entries,
            List::Deny => perms.deny = entries,
            List::Ask => perms.ask = entries,
        }
    }
}

/// The lists permissions.json reads.
const LIST_KEYS: [&str; 3] = ["allow", "deny", "ask"];

/// A top-level key permissions.json does not read (SPEC §2.1). A warning,
/// except [round 4] when it would silently drop rules: a key within two
/// edits of a list's name, in any case (`"deney"`, `"Deny"`, `"alow"`), or
/// a key whose value is a list holding a pattern string — an error, so the
/// file is rejected whole instead of deciding without the rules meant.
fn unknown_key(r: &mut Reader<'_>, m: &Member) {
    let key = m.key.as_str();
    let lower = key.to_ascii_lowercase();
    // Two edits apart means lengths two apart at most: a long key is
    // compared with nothing (linear in the file, whatever the key).
    let near = LIST_KEYS
        .iter()
        .filter(|l| lower.len() <= l.len() + 2)
        .map(|l| (crate::action::edit_distance(&lower, l), *l))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, l)| l);
    let holds_patterns = matches!(&m.value.value, Value::Array(items) if items.iter().any(|i| {
        matches!(&i.value, Value::String { text, .. } if Pattern::parse(text).is_ok())
    }));
    let guess = near.or_else(|| closest(key, LIST_KEYS));
    if near.is_none() && !holds_patterns {
        let help = match guess {
            Some(s) => format!("did you mean `{s}`? only allow, deny and ask are read"),
            None => "only allow, deny and ask are read; remove this key".into(),
        };
        let msg = format!("unknown key `{key}` is ignored");
        r.warn(CheckId::UnknownKey, m.key_span, msg, help);
        return;
    }
    let help = match guess {
        Some(s) => format!("rename it to `{s}`: only allow, deny and ask are read"),
        None => "move its patterns into `allow`, `deny` or `ask`, or remove the key: only those are read".into(),
    };
    r.error(
        CheckId::UnknownKey,
        m.key_span,
        format!("unknown key `{key}` would drop the rules it holds, so the file is rejected"),
        help,
    );
}

/// The pattern entries of one list (`allow`, `deny`, `ask`) in file order,
/// each item that is not a string or not a pattern an error at its place.
fn read_entries(r: &mut Reader<'_>, key: &str, items: &[Node], list: List) -> Vec<Entry> {
    let mut entries = Vec::new();
    for item in items {
        let Value::String { text, raw } = &item.value else {
            r.error(
                CheckId::InvalidShape,
                item.span,
                format!(
                    "`{}` must hold only strings, found {}",
                    key,
                    item.value.kind()
                ),
                "write each pattern as a string, like \"Terminal(pnpm test)\"".into(),
            );
            continue;
        };
        match Pattern::parse(text) {
            Ok(pattern) => {
                let index = entries.len();
                entries.push(Entry {
                    pattern,
                    list,
                    index,
                    span: item.span,
                    location: r.location(item.span.start),
                });
            }
            Err(e) => {
                let span = if *raw {
                    let start = item.span.start + 1 + e.offset;
                    Span {
                        start,
                        end: (start + e.len)
                            .min(item.span.end.saturating_sub(1))
                            .max(start + 1),
                    }
                } else {
                    item.span
                };
                let check = match e.kind {
                    PatternErrorKind::UnknownLabel { .. } => CheckId::UnknownLabel,
                    _ => CheckId::InvalidPattern,
                };
                r.error(check, span, e.message, e.help);
            }
        }
    }
    entries
}

/// Reads autonomy.json (SPEC §2.2).
pub fn load_autonomy(file: &str, bytes: &[u8]) -> Loaded<Autonomy> {
    let (diags, auto) = load_autonomy_partial(file, bytes);
    finish(diags, auto)
}

/// Reads autonomy.json as far as it goes (see [`load_permissions_partial`]):
/// never decide from it.
pub fn load_autonomy_partial(file: &str, bytes: &[u8]) -> (Vec<Diagnostic>, Autonomy) {
    if let Some(d) = too_large(file, bytes.len()) {
        return (vec![d], Autonomy::default());
    }
    let text = String::from_utf8_lossy(bytes);
    let mut r = Reader {
        file,
        base: base_name(file),
        index: LineIndex::new(&text),
        diags: Vec::new(),
    };
    let mut auto = Autonomy {
        file: file.to_string(),
        rules: Vec::new(),
    };
    if let Some(root) = parse_json(&mut r, bytes) {
        read_autonomy(&mut r, &root, &mut auto);
    }
    (r.diags, auto)
}

/// The key that names a rule file's JSON Schema for editors (`"$schema":
/// "…/permissions.schema.json"`): accepted and ignored in both files.
pub const SCHEMA_KEY: &str = "$schema";

fn read_autonomy(r: &mut Reader<'_>, root: &Node, auto: &mut Autonomy) {
    let Value::Object(agents) = &root.value else {
        r.error(
            CheckId::InvalidShape,
            root.span,
            format!(
                "the top level must be an object of agents, found {}",
                root.value.kind()
            ),
            "write `{\"dev-api\": {\"*\": \"auto_approve\", \"terminal\": \"require_approval\"}}`"
                .into(),
        );
        return;
    };
    let keep = r.last_wins(agents, "agent");
    for i in keep {
        let a = &agents[i];
        if a.key == SCHEMA_KEY {
            continue;
        }
        let Value::Object(rules) = &a.value.value else {
            r.error(
                CheckId::InvalidShape,
                a.value.span,
                format!(
                    "agent `{}` must map action types to modes, found {}",
                    a.key,
                    a.value.value.kind()
                ),
                "write `{\"*\": \"auto_approve\"}` or `{\"terminal\": \"require_approval\"}`"
                    .into(),
            );
            continue;
        };
        let keep_rules = r.last_wins(rules, "action type");
        for j in keep_rules {
            let m = &rules[j];
            let key = if m.key == "*" {
                Some(AutonomyKey::Wildcard)
            } else {
                ActionType::from_name(&m.key).map(AutonomyKey::Type)
            };
            let Some(key) = key else {
                let names = ActionType::ALL.iter().map(|t| t.name());
                let help = match closest(&m.key, names) {
                    Some(s) => {
                        format!("did you mean `{s}`? use an action type of SPEC §1 or \"*\"")
                    }
                    None => {
                        "use an action type (terminal, git_commit, git_push, …) or \"*\"".into()
                    }
                };
                r.error(
                    CheckId::InvalidShape,
                    m.key_span,
                    format!("unknown action type `{}`", m.key),
                    help,
                );
                continue;
            };
            let mode = match &m.value.value {
                Value::String { text, .. } => Policy::parse(text).ok_or_else(|| {
                    let modes = ["auto_approve", "require_approval", "deny"];
                    match closest(text, modes) {
                        Some(s) => format!("unknown mode `{text}`: did you mean `{s}`?"),
                        None => format!("unknown mode `{text}`"),
                    }
                }),
                other => Err(format!("a mode must be a string, found {}", other.kind())),
            };
            match mode {
                Ok(mode) => auto.rules.push(AutonomyRule {
                    agent: a.key.clone(),
                    key,
                    mode,
                    span: m.value.span,
                    key_span: m.key_span,
                    location: r.location(m.value.span.start),
                }),
                Err(msg) => r.error(
                    CheckId::InvalidShape,
                    m.value.span,
                    msg,
                    "use \"auto_approve\", \"require_approval\" or \"deny\"".into(),
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_of_4_gib_or_more_is_refused() {
        let d = super::too_large("permissions.json", super::MAX_FILE_BYTES).expect("refused");
        assert_eq!(d.check, CheckId::UnreadableFile);
        assert!(d.message.contains("under 4 GiB"), "{}", d.message);
        assert!(super::too_large("permissions.json", super::MAX_FILE_BYTES - 1).is_none());
    }

    use super::*;

    #[test]
    fn every_error_at_once() {
        let l = load_permissions(
            "p.json",
            br#"{"allow": ["Gitpush()", "Terminal('x", 3], "deny": "x", "alow": []}"#,
        );
        assert!(l.value.is_none());
        let checks: Vec<_> = l.diagnostics.iter().map(|d| d.check.name()).collect();
        assert_eq!(
            checks,
            [
                "unknown-label",
                "invalid-pattern",
                "invalid-shape",
                "invalid-shape",
                "unknown-key"
            ]
        );
    }

    /// SPEC §2.1 round 4: a key that would drop rules rejects the file;
    /// another unknown key is a warning; `$schema` is no key at all.
    #[test]
    fn a_key_that_would_drop_rules_is_an_error() {
        let severity = |json: &str| {
            let l = load_permissions("p.json", json.as_bytes());
            let d: Vec<Severity> = l.diagnostics.iter().map(|d| d.severity).collect();
            (l.value.is_some(), d)
        };
        for key in [
            "deney", "Deny", "DENY", "alow", "allows", "aks", "Ask", "dney",
        ] {
            assert_eq!(
                severity(&format!(r#"{{"{key}": []}}"#)),
                (false, vec![Severity::Error]),
                "{key}"
            );
        }
        assert_eq!(
            severity(r#"{"rules": ["Terminal(make)"]}"#),
            (false, vec![Severity::Error])
        );
        for json in [
            r#"{"comment": "x"}"#,
            r#"{"notes": ["ask ana"]}"#,
            r#"{"rules": []}"#,
            r#"{"description": {"allow": 1}}"#,
        ] {
            assert_eq!(severity(json), (true, vec![Severity::Warning]), "{json}");
        }
        assert_eq!(severity(r#"{"$schema": "x", "allow": []}"#), (true, vec![]));
    }

    #[test]
    fn the_last_of_three_wins() {
        let l = load_permissions(
            "p.json",
            br#"{"allow": ["Terminal(a)"], "allow": ["Terminal(b)"], "allow": ["Terminal(c)"]}"#,
        );
        assert_eq!(l.value.expect("loads").allow[0].pattern.text, "Terminal(c)");
        let winner: Vec<usize> = l
            .diagnostics
            .iter()
            .map(|d| d.related[0].span.start)
            .collect();
        assert_eq!(winner, [53, 53]);
    }

    #[test]
    fn duplicate_keys_last_wins() {
        let l = load_permissions(
            "p.json",
            br#"{"allow": ["Terminal(a)"], "allow": ["Terminal(b)"]}"#,
        );
        let p = l.value.expect("loads");
        assert_eq!(p.allow[0].pattern.text, "Terminal(b)");
        assert_eq!(l.diagnostics[0].check, CheckId::DuplicateKey);
    }

    #[test]
    fn autonomy() {
        let l = load_autonomy(
            "/x/autonomy.json",
            b"{\n  \"dev-api\": {\"*\": \"auto_approve\", \"terminal\": \"require_approval\"}\n}",
        );
        let a = l.value.expect("loads");
        assert_eq!(a.rules.len(), 2);
        assert_eq!(a.rules[0].location.to_string(), "autonomy.json:2:20");
        let bad = load_autonomy("a.json", br#"{"x": {"terminl": "auto", "*": 1}}"#);
        assert_eq!(bad.diagnostics.len(), 2);
    }

    #[test]
    fn a_schema_key_is_accepted_and_ignored_in_both_files() {
        let p = load_permissions(
            "permissions.json",
            br#"{"$schema": "https://x/permissions.schema.json", "allow": ["Terminal(ls)"]}"#,
        );
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        assert_eq!(p.value.expect("read").allow.len(), 1);
        let a = load_autonomy(
            "autonomy.json",
            br#"{"$schema": "https://x/autonomy.schema.json", "dev": {"*": "auto_approve"}}"#,
        );
        assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
        assert_eq!(a.value.expect("read").rules.len(), 1);
    }
}
