//! The typed reading of a request map: the common request (a map of
//! `action` and `context` whose every key is a known field, given once,
//! and every value a string, `nil` or a name's atom; `containerRunning` a
//! boolean or `nil`) read straight into [`Parts`], its strings borrowed
//! from the term's binaries, for `Request::from_parts`, the typed reading
//! the CLI's JSON scanner does. Anything else (an `id`, an unknown or
//! repeated key, another type, an unknown name) is `None`: the caller
//! builds the JSON tree and the strict reader reads it, so the error is
//! the CLI's (SPEC §10.1).
//!
//! A map with atom keys (Elixir's usual request) is read by looking its
//! known keys up, each compared with an atom made once, at load: the map
//! holds those keys and no other when as many are found as it has. A map
//! with string keys is walked, each key matched against the fields'
//! names.

use crate::{atom_str, atoms, binary_str};
use permc_runtime::{Parts, ACTION_FIELDS, CONTEXT_FIELDS};
use rustler::{Atom, Binary, MapIterator, Term, TermType};

/// A request read typed: its fields, and how heavy it is (its strings'
/// bytes, plus one per entry), to choose its scheduler as `measure` does.
pub(crate) struct Typed<'a> {
    pub parts: Parts<'a>,
    pub weight: usize,
}

/// The typed reading of `request`, or `None` (see the module's doc).
pub(crate) fn typed(request: Term<'_>) -> Option<Typed<'_>> {
    by_atoms(request).or_else(|| by_names(request))
}

/// The values of `keys` in `map` when the map holds some of those keys
/// and no other; `None` otherwise (a key that is not one of them, a key
/// that is a string, not a map). A map holds each key once, so `found ==
/// size` leaves no room for another; the lookups stop there.
fn lookup<'a, const N: usize>(map: Term<'a>, keys: [Atom; N]) -> Option<[Option<Term<'a>>; N]> {
    let size = map.map_size().ok()?;
    let mut out = [None; N];
    let mut found = 0;
    for (slot, key) in out.iter_mut().zip(keys) {
        if found == size {
            break;
        }
        if let Ok(v) = map.map_get(key) {
            *slot = Some(v);
            found += 1;
        }
    }
    (found == size).then_some(out)
}

/// A string field's value: a UTF-8 binary, `nil` or absent (`Some(None)`,
/// as JSON's `null`), or, for a name (`names`: `type: :terminal`), an atom
/// [`atom_str`] knows; `None` for anything else. Adds its bytes to
/// `weight`.
fn text<'a>(v: Option<Term<'a>>, names: bool, weight: &mut usize) -> Option<Option<&'a str>> {
    let Some(v) = v else {
        return Some(None);
    };
    *weight += 1;
    // One call (`decode_as_binary` asks `enif_is_binary` first).
    if let Ok(bin) = Binary::from_term(v) {
        *weight += bin.len();
        return utf8(bin.as_slice()).map(Some);
    }
    if v.as_c_arg() == atoms::nil().as_c_arg() {
        return Some(None);
    }
    match atom_str(v)? {
        "nil" => Some(None),
        "true" | "false" => None,
        name if names => Some(Some(name)),
        _ => None,
    }
}

/// `b` as text when it is UTF-8. Most requests' strings are ASCII, which
/// `is_ascii` checks a word at a time; `from_utf8` goes a byte at a time
/// through a short string.
fn utf8(b: &[u8]) -> Option<&str> {
    if b.is_ascii() {
        // SAFETY: ASCII is UTF-8.
        return Some(unsafe { std::str::from_utf8_unchecked(b) });
    }
    std::str::from_utf8(b).ok()
}

/// `containerRunning`: `true`, `false`, `nil` or absent.
fn flag(v: Option<Term>) -> Option<Option<bool>> {
    let Some(v) = v else {
        return Some(None);
    };
    let raw = v.as_c_arg();
    if raw == atoms::true_().as_c_arg() {
        Some(Some(true))
    } else if raw == atoms::false_().as_c_arg() {
        Some(Some(false))
    } else if raw == atoms::nil().as_c_arg() {
        Some(None)
    } else {
        None
    }
}

/// The typed reading of a map with atom keys, by lookups.
fn by_atoms(request: Term<'_>) -> Option<Typed<'_>> {
    let [Some(action), Some(context)] = lookup(request, [atoms::action(), atoms::context()])?
    else {
        return None;
    };
    let [kind, command, cwd, agent, target_branch, path] = lookup(
        action,
        [
            atoms::type_(),
            atoms::command(),
            atoms::cwd(),
            atoms::agent(),
            atoms::target_branch(),
            atoms::path(),
        ],
    )?;
    // write_file's `path` is read by the tree (rare).
    if path.is_some() {
        return None;
    }
    let [role, mode, running, root] = lookup(
        context,
        [
            atoms::role(),
            atoms::execution_mode(),
            atoms::container_running(),
            atoms::project_scope_root(),
        ],
    )?;
    let mut weight = 2;
    let parts = Parts {
        kind: text(kind, true, &mut weight)?,
        command: text(command, false, &mut weight)?,
        cwd: text(cwd, false, &mut weight)?,
        agent: text(agent, false, &mut weight)?,
        target_branch: text(target_branch, false, &mut weight)?,
        path: None,
        role: text(role, true, &mut weight)?,
        execution_mode: text(mode, true, &mut weight)?,
        container_running: flag(running)?,
        project_scope_root: text(root, false, &mut weight)?,
    };
    Some(Typed { parts, weight })
}

/// The common request's values as `Permc` matched them (`Permc.common/1`):
/// a tuple `{request, type, command, cwd, agent, target_branch, role,
/// execution_mode, container_running, project_scope_root}`, an absent
/// field `nil`, and the request map itself first, for the answer to a
/// request whose values the typed reading refuses. The VM matched the
/// maps' keys in one pass each; here each value is read from the tuple
/// in place, where [`by_atoms`] looked each key up in its map
/// (`enif_get_map_value`, ten calls a request). `None` when `fields` is
/// not such a tuple; `Some((request, None))` when a value is not the
/// common request's (the caller reads `request` as a map).
pub(crate) fn common(fields: Term<'_>) -> Option<(Term<'_>, Option<Typed<'_>>)> {
    common_with(fields, &mut Seen::default())
}

/// The values [`common_with`] read last, by field (type, command, cwd,
/// agent, target branch, role, execution mode, project scope root): the
/// raw term and what [`text`] made of it with the bytes it weighed. A
/// batch's requests are mostly built from the same terms — one cwd, one
/// agent, one scope root, the names — and a term is immutable: the same
/// raw term (an atom, or a pointer to the same binary) reads the same, so
/// it is read once a run of requests (`enif_inspect_binary` and the UTF-8
/// check were a tenth of a request of `decide_many/2`). Kept for one NIF
/// call: the terms live in its environment.
#[derive(Default)]
pub(crate) struct Seen<'a> {
    last: [Option<Read<'a>>; 8],
}

/// A value as [`Seen`] keeps it: the raw term, [`text`]'s reading, its
/// weight.
type Read<'a> = (usize, Option<Option<&'a str>>, usize);

impl<'a> Seen<'a> {
    /// [`text`] of `v` for field `i`, from the last reading of the same
    /// raw term when there is one.
    fn text(
        &mut self,
        i: usize,
        v: Term<'a>,
        names: bool,
        weight: &mut usize,
    ) -> Option<Option<&'a str>> {
        let raw = v.as_c_arg();
        if let Some((r, value, w)) = self.last[i] {
            if r == raw {
                *weight += w;
                return value;
            }
        }
        let mut w = 0;
        let value = text(Some(v), names, &mut w);
        self.last[i] = Some((raw, value, w));
        *weight += w;
        value
    }
}

/// [`common`], reading each value through `seen` (a batch's: see
/// [`Seen`]).
pub(crate) fn common_with<'a>(
    fields: Term<'a>,
    seen: &mut Seen<'a>,
) -> Option<(Term<'a>, Option<Typed<'a>>)> {
    let env = fields.get_env();
    // SAFETY: `fields` and the terms of its slice live in `env`.
    let raw =
        unsafe { rustler::wrapper::tuple::get_tuple(env.as_c_arg(), fields.as_c_arg()) }.ok()?;
    let [request, kind, command, cwd, agent, target_branch, role, mode, running, root] = raw else {
        return None;
    };
    // SAFETY: each is a term of `env` (the tuple's elements).
    let t = |raw: &rustler::wrapper::NIF_TERM| unsafe { Term::new(env, *raw) };
    let mut typed = || {
        let mut weight = 2;
        let w = &mut weight;
        let parts = Parts {
            kind: seen.text(0, t(kind), true, w)?,
            command: seen.text(1, t(command), false, w)?,
            cwd: seen.text(2, t(cwd), false, w)?,
            agent: seen.text(3, t(agent), false, w)?,
            target_branch: seen.text(4, t(target_branch), false, w)?,
            path: None,
            role: seen.text(5, t(role), true, w)?,
            execution_mode: seen.text(6, t(mode), true, w)?,
            container_running: flag(Some(t(running)))?,
            project_scope_root: seen.text(7, t(root), false, w)?,
        };
        Some(Typed { parts, weight })
    };
    let typed = typed();
    Some((t(request), typed))
}

/// The name of a map key that is one of `names` (an atom or a UTF-8
/// binary), as the static text in `names`; `None` for any other key.
fn key_name(k: Term, names: &[&'static str]) -> Option<&'static str> {
    let text = match k.get_type() {
        TermType::Atom => atom_str(k)?,
        TermType::Binary => binary_str(k).ok()?,
        _ => return None,
    };
    names.iter().copied().find(|n| *n == text)
}

/// The typed reading of a map with string keys (or atom and string keys),
/// walked entry by entry: each key known and given once.
fn by_names(request: Term<'_>) -> Option<Typed<'_>> {
    const ROOT: &[&str] = &["action", "context"];
    if request.get_type() != TermType::Map || request.map_size().ok()? != 2 {
        return None;
    }
    let mut p = Parts::default();
    let mut weight = 2;
    let mut seen = 0u16;
    let mut once = |bit: u16| (seen & bit == 0).then(|| seen |= bit);
    for (k, v) in MapIterator::new(request)? {
        let root = key_name(k, ROOT)?;
        once(if root == "action" { 1 } else { 2 })?;
        if v.get_type() != TermType::Map {
            return None;
        }
        for (k, v) in MapIterator::new(v)? {
            if root == "action" {
                let key = key_name(k, ACTION_FIELDS)?;
                let value = text(Some(v), key == "type", &mut weight)?;
                match key {
                    "type" => (once(4)?, p.kind = value),
                    "command" => (once(8)?, p.command = value),
                    "cwd" => (once(16)?, p.cwd = value),
                    "agent" => (once(32)?, p.agent = value),
                    // write_file's `path` is read by the tree (rare).
                    "path" => return None,
                    _ => (once(64)?, p.target_branch = value),
                };
            } else {
                let key = key_name(k, CONTEXT_FIELDS)?;
                if key == "containerRunning" {
                    once(128)?;
                    p.container_running = flag(Some(v))?;
                    continue;
                }
                let value = text(Some(v), key != "projectScopeRoot", &mut weight)?;
                match key {
                    "role" => (once(256)?, p.role = value),
                    "executionMode" => (once(512)?, p.execution_mode = value),
                    _ => (once(1024)?, p.project_scope_root = value),
                };
            }
        }
    }
    Some(Typed { parts: p, weight })
}
