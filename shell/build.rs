//! The catalogue's row files (`shell/catalogue/*.toml`, SPEC §4.5) as
//! Rust constants: each file becomes `$OUT_DIR/catalogue/<file>.rs`, which
//! the catalogue module of the same topic `include!`s. Rows are data a
//! person reviews like a manual page; this turns them into the const
//! tables the facts read, so a row costs nothing at run time and adding a
//! program needs no Rust.
//!
//! The mapping is mechanical and has no knowledge of its own:
//!
//! - a top-level key `reads_as` becomes `pub const READS_AS`;
//! - a list of strings is `&[&str]`, a list of lists of strings
//!   `&[&[&str]]`;
//! - a list of tables (`[[client]]`) is `&[T]`, where the file's
//!   `[types]` table names `T` (`client = "RemoteClient"`); each table is
//!   a struct literal whose missing fields come from `T::EMPTY`, its
//!   values strings, booleans, integers, lists of strings or lists of
//!   lists of strings;
//! - a list of lists of strings whose `[types]` entry is a tuple type
//!   (`code_variables = "(&str, &str)"`) is `&[(&str, &str)]`, each
//!   inner list one tuple of that many strings;
//! - a value whose key (a row's field, or a top-level key) `[types]`
//!   names with a type that is not a tuple or a reference is of that type
//!   (the catalogue's own types, `catalogue/types.rs`): a string names a
//!   variant (`reads = "Source"` with `reads = "CodeReading"` is
//!   `CodeReading::Source`); a table with one key that begins with a
//!   capital is a variant with data (`{ Ssh = { program = true } }` is
//!   `T::Ssh { program: true }`, `{ Long = "--x" }` is `T::Long("--x")`,
//!   `{ Getopt = ["c", "ckmn", ""] }` is `T::Getopt("c", "ckmn", "")`:
//!   a list holds the variant's arguments, so one that is a list is
//!   written in a list, `{ By = [["f"], ["setsid"]] }`);
//!   any other table is a struct literal whose missing fields come from
//!   `T::EMPTY` (a top-level one a `pub const` of type `T`), its fields
//!   typed the same way. A one-letter string stays a string: a field that
//!   is a `char` in Rust is a `&str` in the row types, but for a
//!   variant's arguments typed as below;
//! - a tuple type's items (`"(&[&str], NameGrammar)"`) are typed the same
//!   way, item by item: `&str` a string, `&[&str]` a list of strings, any
//!   other type as above; a row's field whose `[types]` entry is a tuple
//!   type is a slice of such tuples (`shortcuts = "(&str, &str)"`);
//! - `[types]` itself and keys beginning with `_` generate nothing;
//! - a key's `-` is a field's `_` (`path-read` fills `path_read`);
//! - the rows of a list that `_hashed` names carry their hash: `hash` is
//!   the FNV-1a 64 hash of the row's fields but `verified`,
//!   `verified-version` and `verified-on`, each written `key=value` a
//!   line in key order; `verified` becomes `true` when the row's own
//!   `verified` string is that hash, else `false`. So editing a verified
//!   row clears it, with no step a person has to remember (SPEC §4.5
//!   item 4); `index`, the row's position in its list (the logic's
//!   tables built from the rows are found by it in one load); and
//!   `spellings`, each spelling of its option lists (`SPELLED`) sorted,
//!   so a word is found by a binary search rather than a scan of the row.
//!
//! - a string `"@NAME"` in a list (a row's, a top-level one, one inside
//!   another) stands for the value `_NAME` or `NAME` of the same file;
//!   `"@FILE.NAME"` for the value `NAME` of `FILE.toml` (git's global
//!   options in effects.toml's `option_grammar`): a list's strings are
//!   spliced in where it stands (git's diff options, shared by the rows
//!   of `git diff`, `git log` and `git show`), a string stands in its
//!   place. It is expanded before anything else, what it names first (a
//!   list made of others, `git_ref_filter_valued`, serves too), so a
//!   row's hash covers the strings it stands for and editing the shared
//!   list clears every row using it. A reader of the row files other
//!   than this one (tests/oracle) expands it the same way;
//! - a variant whose arguments `[types]` types under its path
//!   (`"Spell::Getopt" = "(char, &str, &str)"`) has them typed item by
//!   item, a `char` written as a string of one character
//!   (`{ Getopt = ["c", "ckmnoprW", ""] }`, `{ Short = "f" }`); a list
//!   of tables where a value of such a type stands is a slice of them
//!   (`spells = [{ Long = "--exec" }]`).
//!
//! - a directory of row files (`catalogue/described/`, one file per
//!   program or family) is read as one file named after the directory:
//!   its files' lists of rows joined in file-name order (so `index` runs
//!   over them all), each file's shared lists its own.
//!
//! Anything else is an error naming the file and the key: a row file that
//! does not fit fails the build, never the decision.

use std::fmt::Write as _;
use std::path::Path;

/// The top-level row files by name (`git` for `git.toml`), as read.
type Files = std::collections::BTreeMap<String, toml::Table>;

fn main() {
    let dir = Path::new("catalogue");
    println!("cargo:rerun-if-changed=catalogue");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalogue");
    std::fs::create_dir_all(&out).expect("OUT_DIR is writable");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("shell/catalogue holds the row files")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut raw = Files::new();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(path).expect("a readable row file");
        let stem = path.file_stem().expect("a file name").to_string_lossy();
        match text.parse::<toml::Table>() {
            Ok(t) => raw.insert(stem.into_owned(), t),
            Err(e) => panic!("{}: {e}", path.display()),
        };
    }
    for path in &files {
        let stem = path.file_stem().expect("a file name").to_string_lossy();
        let mut table = raw[stem.as_ref()].clone();
        let rust = match expand_shared(&mut table, &raw).and_then(|()| generate(&table)) {
            Ok(r) => r,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        std::fs::write(out.join(format!("{stem}.rs")), rust).expect("OUT_DIR is writable");
    }
    for family in families(dir) {
        let stem = family
            .file_name()
            .expect("a directory name")
            .to_string_lossy();
        let rust = match merged(&family).and_then(|t| generate(&t)) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        };
        std::fs::write(out.join(format!("{stem}.rs")), rust).expect("OUT_DIR is writable");
    }
}

/// The directories of `dir`: each holds one row file per program or
/// family (`catalogue/described/coreutils.toml`, `…/git.toml`), read as
/// one file named after the directory.
fn families(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(dir)
        .expect("shell/catalogue holds the row files")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The row files of one directory as one table, in file-name order: each
/// file's shared lists (`_NAME`) expanded in that file, its lists of rows
/// appended to the lists of the same key, its `[types]` and `_hashed`
/// joined. Any other key given twice is an error.
fn merged(family: &Path) -> Result<toml::Table, String> {
    println!("cargo:rerun-if-changed={}", family.display());
    let mut files: Vec<_> = std::fs::read_dir(family)
        .map_err(|e| format!("{}: {e}", family.display()))?
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut all = toml::Table::new();
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let table = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for (key, value) in table {
            if key.starts_with('_') && key != "_hashed" {
                continue;
            }
            match (all.get_mut(&key), value) {
                (None, v) => {
                    all.insert(key, v);
                }
                (Some(toml::Value::Array(a)), toml::Value::Array(b))
                    if key == "_hashed" || b.iter().all(|v| v.is_table()) =>
                {
                    a.extend(b);
                }
                (Some(toml::Value::Table(a)), toml::Value::Table(b)) if key == "types" => {
                    for (k, v) in b {
                        if a.get(&k).is_some_and(|old| *old != v) {
                            return Err(format!("{}: `types.{k}` differs", path.display()));
                        }
                        a.insert(k, v);
                    }
                }
                _ => {
                    return Err(format!(
                        "{}: `{key}` is given by another file",
                        path.display()
                    ))
                }
            }
        }
    }
    Ok(all)
}

/// A row file's table, its shared lists expanded.
fn parse(text: &str) -> Result<toml::Table, String> {
    let mut table: toml::Table = text.parse().map_err(|e| format!("{e}"))?;
    expand_shared(&mut table, &Files::new())?;
    Ok(table)
}

/// The Rust text of one row file.
fn generate(table: &toml::Table) -> Result<String, String> {
    let types = match table.get("types") {
        Some(toml::Value::Table(t)) => t.clone(),
        Some(_) => return Err("`types` must be a table".into()),
        None => toml::Table::new(),
    };
    let hashed: Vec<&str> = match table.get("_hashed") {
        Some(toml::Value::Array(a)) => a.iter().filter_map(|v| v.as_str()).collect(),
        Some(_) => return Err("`_hashed` must be a list of strings".into()),
        None => Vec::new(),
    };
    let mut out = String::from("// Generated by shell/build.rs from a row file: edit the file.\n");
    for (key, value) in table {
        if key == "types" || key.starts_with('_') {
            continue;
        }
        let name = key.to_ascii_uppercase();
        let (ty, lit) = match value {
            toml::Value::Array(items)
                if items.iter().all(|v| v.is_table()) && !items.is_empty() =>
            {
                let ty = types
                    .get(key)
                    .and_then(|t| t.as_str())
                    .ok_or_else(|| format!("`[[{key}]]` needs `types.{key} = \"RustType\"`"))?;
                let mut lit = String::from("&[\n");
                for (i, row) in items.iter().enumerate() {
                    let row = row.as_table().expect("checked above");
                    let hashed = hashed.contains(&key.as_str()).then_some(i);
                    let fields = struct_fields(row, hashed, &types)
                        .map_err(|e| format!("{key}[{i}]: {e}"))?;
                    writeln!(lit, "    {ty} {{ {fields}..{ty}::EMPTY }},").expect("a String");
                }
                lit.push(']');
                // A row that gives every field still ends in `..T::EMPTY`.
                out.push_str("#[allow(clippy::needless_update)]\n");
                (format!("&[{ty}]"), lit)
            }
            toml::Value::Array(items)
                if types
                    .get(key)
                    .and_then(|t| t.as_str())
                    .is_some_and(|t| t.starts_with('(')) =>
            {
                let ty = types.get(key).and_then(|t| t.as_str()).unwrap_or_default();
                let lit = tuples(items, ty, &types).map_err(|e| format!("{key}: {e}"))?;
                // A row's tuple type is written where the row file is
                // read: no alias to look up.
                out.push_str("#[allow(clippy::type_complexity)]\n");
                (format!("&[{ty}]"), lit)
            }
            v @ (toml::Value::Table(_) | toml::Value::String(_))
                if named_type(&types, key).is_some() =>
            {
                let ty = named_type(&types, key).unwrap_or_default();
                if v.is_table() {
                    out.push_str("#[allow(clippy::needless_update)]\n");
                }
                let lit = typed(ty, v, &types).map_err(|e| format!("{key}: {e}"))?;
                (ty.to_string(), lit)
            }
            v => {
                let (ty, lit) = plain(v).map_err(|e| format!("{key}: {e}"))?;
                (ty.to_string(), lit)
            }
        };
        writeln!(
            out,
            "/// The rows `{key}` of the row file (`shell/catalogue/`)."
        )
        .expect("a String");
        writeln!(out, "pub const {name}: {ty} = {lit};").expect("a String");
    }
    Ok(out)
}

/// The fields of a hashed list's rows that list options, in the order
/// of the logic's kinds (`Kind::NAMES`; a test holds the two alike).
const SPELLED: [&str; 13] = [
    "flags",
    "text",
    "path-read",
    "path-write",
    "dir-write",
    "pathspec",
    "command",
    "line",
    "code",
    "config",
    "variable",
    "remote",
    "open",
];

/// A hashed row's option spellings, so a word is found without scanning
/// the row: each spelling of each option entry (`-n --lines` is two) as
/// (spelling without `[=]`, the field's position in [`SPELLED`], whether
/// its value is optional, the entry), sorted by spelling.
fn spellings(row: &toml::Table) -> String {
    let mut run: Vec<(&str, usize, bool, &str)> = Vec::new();
    for (list, field) in SPELLED.iter().enumerate() {
        let entries = row.get(*field).and_then(toml::Value::as_array);
        for entry in entries
            .into_iter()
            .flatten()
            .filter_map(toml::Value::as_str)
        {
            for s in entry.split(' ') {
                let (spelling, optional) = s.strip_suffix("[=]").map_or((s, false), |t| (t, true));
                run.push((spelling, list, optional, entry));
            }
        }
    }
    run.sort_unstable();
    let items: Vec<String> = run
        .iter()
        .map(|(s, l, o, e)| format!("({s:?}, {l}, {o}, {e:?})"))
        .collect();
    format!("&[{}]", items.join(", "))
}

/// A list of lists as a slice of tuples of `ty` (`(&str, &str)`,
/// `(&[&str], NameGrammar)`): each inner list one tuple, each item typed
/// by its place in `ty`.
fn tuples(items: &[toml::Value], ty: &str, types: &toml::Table) -> Result<String, String> {
    let parts = tuple_items(ty);
    let mut out = String::from("&[\n");
    for (i, item) in items.iter().enumerate() {
        let words = item
            .as_array()
            .filter(|a| a.len() == parts.len())
            .ok_or_else(|| format!("item {i} is not a list of {} items ({ty})", parts.len()))?;
        let mut lits = Vec::new();
        for (part, w) in parts.iter().zip(words) {
            let lit = match (*part, w) {
                ("&str", toml::Value::String(s)) => format!("{s:?}"),
                ("&[&str]", toml::Value::Array(_)) => plain(w)
                    .ok()
                    .filter(|(t, _)| *t == "&[&str]")
                    .map(|(_, l)| l)
                    .ok_or_else(|| format!("item {i}: a list of strings ({ty})"))?,
                (p, _) if !p.starts_with('&') => {
                    typed(p, w, types).map_err(|e| format!("item {i}: {e}"))?
                }
                _ => return Err(format!("item {i} does not fit {ty}")),
            };
            lits.push(lit);
        }
        writeln!(out, "    ({}),", lits.join(", ")).expect("a String");
    }
    out.push(']');
    Ok(out)
}

/// The item types of a tuple type, split at its top-level commas.
fn tuple_items(ty: &str) -> Vec<&str> {
    let inner = ty
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(ty);
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(inner[start..].trim());
    parts
}

/// The type `[types]` gives `key`, when it is one of the catalogue's own
/// (not a tuple, not a reference).
fn named_type<'t>(types: &'t toml::Table, key: &str) -> Option<&'t str> {
    types
        .get(key)
        .and_then(toml::Value::as_str)
        .filter(|t| !t.starts_with('(') && !t.starts_with('&'))
}

/// A value of the catalogue's type `ty` (see the module's doc): a string
/// a variant, a table of one capitalised key a variant with data, any
/// other table a struct literal.
fn typed(ty: &str, v: &toml::Value, types: &toml::Table) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(format!("{ty}::{s}")),
        toml::Value::Table(t)
            if t.len() == 1
                && t.keys()
                    .all(|k| k.starts_with(|c: char| c.is_ascii_uppercase())) =>
        {
            let (variant, data) = t.iter().next().expect("one key");
            if let Some(args) = types
                .get(&format!("{ty}::{variant}"))
                .and_then(toml::Value::as_str)
            {
                let data = match data {
                    toml::Value::Array(items) => items.clone(),
                    one => vec![one.clone()],
                };
                return variant_args(args, &data, types).map(|a| format!("{ty}::{variant}({a})"));
            }
            match data {
                toml::Value::Table(fields) => {
                    let mut out = String::new();
                    for (k, v) in fields {
                        write!(out, "{}: {}, ", k.replace('-', "_"), field(k, v, types)?)
                            .expect("a String");
                    }
                    Ok(format!("{ty}::{variant} {{ {out}}}"))
                }
                toml::Value::Array(items) => {
                    let lits = items
                        .iter()
                        .map(|i| plain(i).map(|(_, l)| l))
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(format!("{ty}::{variant}({})", lits.join(", ")))
                }
                other => Ok(format!("{ty}::{variant}({})", plain(other)?.1)),
            }
        }
        toml::Value::Table(t) => {
            let mut out = String::new();
            for (k, v) in t {
                write!(out, "{}: {}, ", k.replace('-', "_"), field(k, v, types)?)
                    .expect("a String");
            }
            Ok(format!("{ty} {{ {out}..{ty}::EMPTY }}"))
        }
        toml::Value::Array(items)
            if !items.is_empty() && items.iter().all(toml::Value::is_table) =>
        {
            let lits = items
                .iter()
                .map(|i| typed(ty, i, types))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(format!("&[{}]", lits.join(", ")))
        }
        other => Ok(plain(other)?.1),
    }
}

/// A variant's arguments typed by the tuple type `[types]` gives it
/// (`"Spell::Getopt" = "(char, &str, &str)"`): a `char` is a string of one
/// character, any other item typed as a tuple's.
fn variant_args(args: &str, data: &[toml::Value], types: &toml::Table) -> Result<String, String> {
    let parts = tuple_items(args);
    if parts.len() != data.len() {
        return Err(format!("{} arguments for {args}", data.len()));
    }
    let mut lits = Vec::new();
    for (part, v) in parts.iter().zip(data) {
        let lit = match (*part, v) {
            ("char", toml::Value::String(s)) if s.chars().count() == 1 => {
                format!("{:?}", s.chars().next().unwrap_or_default())
            }
            ("char", _) => return Err(format!("a char is a string of one character ({args})")),
            ("&str", toml::Value::String(s)) => format!("{s:?}"),
            (p, v) if !p.starts_with('&') => typed(p, v, types)?,
            (_, v) => plain(v)?.1,
        };
        lits.push(lit);
    }
    Ok(lits.join(", "))
}

/// A field's literal: of the type `[types]` names for it, else plain.
fn field(key: &str, v: &toml::Value, types: &toml::Table) -> Result<String, String> {
    let tuple = types
        .get(key)
        .and_then(toml::Value::as_str)
        .filter(|t| t.starts_with('('));
    match (named_type(types, key), tuple, v) {
        (Some(ty), _, _) => typed(ty, v, types).map_err(|e| format!("{key}: {e}")),
        (_, Some(ty), toml::Value::Array(items)) => tuples(items, ty, types)
            .map(|l| l.replace('\n', " "))
            .map_err(|e| format!("{key}: {e}")),
        _ => plain(v).map(|(_, l)| l).map_err(|e| format!("{key}: {e}")),
    }
}

/// Replaces each `"@NAME"` of a list (a row's, a top-level one, one
/// inside another) by what `NAME` names (see the module's doc).
fn expand_shared(table: &mut toml::Table, files: &Files) -> Result<(), String> {
    let own = table.clone();
    for (key, value) in table.iter_mut() {
        if key != "types" {
            expand_in(value, &own, files, 0).map_err(|e| format!("{key}: {e}"))?;
        }
    }
    Ok(())
}

/// The name a list's item `"@NAME"` or `"@FILE.NAME"` refers to: lower
/// case letters, digits, `_` and one `.`.
fn reference(item: &toml::Value) -> Option<&str> {
    item.as_str().and_then(|s| s.strip_prefix('@')).filter(|n| {
        !n.is_empty()
            && n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
    })
}

/// `value` with each reference in its lists replaced: a list's strings
/// spliced in where it stands, a string in its place. What a reference
/// names is expanded first, in its own file (at most 8 deep).
fn expand_in(
    value: &mut toml::Value,
    own: &toml::Table,
    files: &Files,
    depth: usize,
) -> Result<(), String> {
    if depth > 8 {
        return Err("references nest more than 8 deep".into());
    }
    match value {
        toml::Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for mut item in items.drain(..) {
                let Some(name) = reference(&item) else {
                    expand_in(&mut item, own, files, depth)?;
                    out.push(item);
                    continue;
                };
                let (file, key) = name
                    .split_once('.')
                    .map_or((None, name), |(f, k)| (Some(f), k));
                let within = match file {
                    Some(f) => files
                        .get(f)
                        .ok_or_else(|| format!("`@{name}` names no row file `{f}.toml`"))?,
                    None => own,
                };
                let mut named = within
                    .get(&format!("_{key}"))
                    .or_else(|| within.get(key))
                    .cloned()
                    .ok_or_else(|| {
                        format!("`@{name}` names no top-level list `_{key}` or `{key}`")
                    })?;
                expand_in(&mut named, within, files, depth + 1)?;
                match named {
                    toml::Value::String(_) => out.push(named),
                    toml::Value::Array(list) if list.iter().all(toml::Value::is_str) => {
                        out.extend(list);
                    }
                    _ => return Err(format!("`@{name}` is not a string or a list of strings")),
                }
            }
            *items = out;
        }
        toml::Value::Table(t) => {
            for (_, v) in t.iter_mut() {
                expand_in(v, own, files, depth)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// `field: value, ` for each key of a row; with `hashed`, its `hash`
/// and whether its `verified` field holds it.
fn struct_fields(
    row: &toml::Table,
    hashed: Option<usize>,
    types: &toml::Table,
) -> Result<String, String> {
    let mut out = String::new();
    for (k, v) in row {
        if hashed.is_some() && k == "verified" {
            continue;
        }
        let lit = field(k, v, types)?;
        write!(out, "{}: {lit}, ", k.replace('-', "_")).expect("a String");
    }
    if hashed.is_some() {
        let hash = row_hash(row);
        let verified = row.get("verified").and_then(|v| v.as_str()) == Some(hash.as_str());
        let index = hashed.unwrap_or_default();
        write!(
            out,
            "hash: {hash:?}, verified: {verified}, index: {index}, spellings: {}, ",
            spellings(row)
        )
        .expect("a String");
    }
    Ok(out)
}

/// The hash of a row's fields but its verification (see the module's
/// doc): FNV-1a 64 in hex.
fn row_hash(row: &toml::Table) -> String {
    let mut keys: Vec<&String> = row
        .keys()
        .filter(|k| !matches!(k.as_str(), "verified" | "verified-version" | "verified-on"))
        .collect();
    keys.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for k in keys {
        for b in format!("{k}={}\n", row[k.as_str()]).bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// A value's Rust type and literal: a string, a boolean, an integer, a
/// list of strings, a list of lists of strings (an empty list is `&[]`,
/// typed by the field it fills).
fn plain(v: &toml::Value) -> Result<(&'static str, String), String> {
    Ok(match v {
        toml::Value::String(s) => ("&str", format!("{s:?}")),
        toml::Value::Boolean(b) => ("bool", b.to_string()),
        toml::Value::Integer(n) if *n >= 0 => ("usize", n.to_string()),
        toml::Value::Array(items) if items.iter().all(|i| i.is_str()) => {
            let words: Vec<String> = items
                .iter()
                .map(|i| format!("{:?}", i.as_str().unwrap_or_default()))
                .collect();
            ("&[&str]", format!("&[{}]", words.join(", ")))
        }
        toml::Value::Array(items) if items.iter().all(|i| i.is_array()) => {
            let mut rows = Vec::new();
            for i in items {
                let (ty, lit) = plain(i)?;
                if ty != "&[&str]" {
                    return Err("a list of lists holds only strings".into());
                }
                rows.push(lit);
            }
            ("&[&[&str]]", format!("&[{}]", rows.join(", ")))
        }
        other => return Err(format!("a value of this kind is not read: {other}")),
    })
}
