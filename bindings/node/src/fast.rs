//! The answers of the hot path (`batch`): a decision as its code and
//! the strings index.js makes the object of, and the names index.js
//! passes as their indices.
//!
//! The closed sets of an answer (policy, reason, autonomy origin) cross
//! as indices in a code and its strings end to end in one string, made
//! one-byte when ASCII (no UTF-8 decoding in V8); index.js makes the
//! object as a literal.

use napi::sys;
use napi::{Error, Result, Status};
use permc_runtime::{Decision, Reason};
use std::os::raw::c_char;
use std::ptr;

fn status(s: sys::napi_status) -> Result<()> {
    if s == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(Status::GenericFailure, "a Node-API call failed"))
    }
}

/// A JavaScript string of `s`: one-byte when ASCII.
pub fn string(env: sys::napi_env, s: &str) -> Result<sys::napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: `s` is valid for `s.len()` bytes; Node-API copies them.
    status(unsafe {
        if s.is_ascii() {
            sys::napi_create_string_latin1(env, s.as_ptr().cast::<c_char>(), s.len(), &mut v)
        } else {
            sys::napi_create_string_utf8(env, s.as_ptr().cast::<c_char>(), s.len(), &mut v)
        }
    })?;
    Ok(v)
}

/// The bits of [`answer_parts`]'s code: the policy's index (bits 0–1, in
/// `vocabulary().policies`' order), the reason's (bits 2–6, in
/// [`Reason::ALL`]'s, `vocabulary().reasons`), the autonomy origin (bits
/// 7–8: 0 none, 1 specific, 2 wildcard), a rule (bit 9: rule and source),
/// a scope root (bit 10).
pub const HAS_RULE: i32 = 1 << 9;
/// See [`HAS_RULE`].
pub const HAS_SCOPE_ROOT: i32 = 1 << 10;

/// The closed sets of an answer as [`HAS_RULE`]'s code: policy and reason
/// (all `decideBrief` needs), and the autonomy origin.
pub fn code(policy: &str, reason: Reason, origin: Option<&str>) -> i32 {
    let policy = ["auto_approve", "require_approval", "deny"]
        .iter()
        .position(|p| *p == policy)
        .unwrap_or(2);
    // `Reason::ALL` lists the reasons in their declaration's order
    // (checked below, when compiled): a reason's index is its number.
    let reason = reason as usize;
    let origin = match origin {
        None => 0,
        Some("specific") => 1,
        Some(_) => 2,
    };
    policy as i32 | (reason as i32) << 2 | origin << 7
}

const _: () = {
    let mut i = 0;
    while i < Reason::ALL.len() {
        assert!(
            Reason::ALL[i] as usize == i,
            "Reason::ALL is not in declaration order"
        );
        i += 1;
    }
};

/// The first bit of the answers' strings' marks in a code: four bits a
/// string, in the order rule, source, scope root, message; of each, the
/// lowest says the string is one the batch answered before ([`Seen`]),
/// not in the answers' string (its length 0), and the three above it
/// which of the field's [`SLOTS`] holds it — or, for a string in the
/// answers' string, which slot index.js keeps it in.
pub const MARKS: u32 = 11;

/// How many strings of each field a batch keeps ([`Seen`]).
pub const SLOTS: usize = 8;

/// The strings of each field a batch's answers gave last, as ranges of
/// the answers' string, [`SLOTS`] a field, the oldest replaced first;
/// index.js keeps the same strings in the same slots. An answer's string
/// equal to one of them is that slot's (a mark in its code), neither
/// copied into the answers' string nor cut out of it again: a batch's
/// answers mostly repeat their scope root, and often their rule, source
/// and message.
#[derive(Default)]
pub struct Seen {
    slots: [[(usize, usize); SLOTS]; 4],
    /// How many of each field's slots hold a string.
    filled: [usize; 4],
    next: [usize; 4],
}

/// Where an answer's strings may be found again: a batch's [`Seen`], or
/// the single calls' [`Kept`].
pub trait Slots {
    /// Field `f`'s string `s` for the answer: its mark and its length in
    /// UTF-16 units (0 when it is a slot's), appended to `all` when new.
    fn put(&mut self, all: &mut String, f: usize, s: &str) -> (i32, i32);
}

/// The mark of slot `i` of field `f` in a code: `seen` when the string is
/// the slot's already.
fn mark(f: usize, i: usize, seen: bool) -> i32 {
    ((i as i32) << 1 | i32::from(seen)) << (MARKS + 4 * f as u32)
}

/// [`Seen`] for the single calls, which keep their strings from one call
/// to the next (`batch::Carry`): each slot holds its string, not a range
/// of one call's answers.
#[derive(Default)]
pub struct Kept {
    slots: [[String; SLOTS]; 4],
    filled: [usize; 4],
    next: [usize; 4],
}

impl Kept {
    /// Every slot empty (index.js's are then never read before it is
    /// given their string again).
    pub fn clear(&mut self) {
        self.filled = [0; 4];
        self.next = [0; 4];
    }
}

impl Slots for Kept {
    #[inline]
    fn put(&mut self, all: &mut String, f: usize, s: &str) -> (i32, i32) {
        if let Some(i) = self.slots[f][..self.filled[f]].iter().position(|k| k == s) {
            return (mark(f, i, true), 0);
        }
        let i = self.next[f];
        self.next[f] = (i + 1) % SLOTS;
        self.filled[f] = self.filled[f].max(i + 1);
        let k = &mut self.slots[f][i];
        k.clear();
        k.push_str(s);
        all.push_str(s);
        (mark(f, i, false), units(s))
    }
}

impl Slots for Seen {
    #[inline]
    fn put(&mut self, all: &mut String, f: usize, s: &str) -> (i32, i32) {
        for (i, &(start, len)) in self.slots[f][..self.filled[f]].iter().enumerate() {
            if len == s.len() && all.get(start..start + len) == Some(s) {
                return (mark(f, i, true), 0);
            }
        }
        let i = self.next[f];
        self.next[f] = (i + 1) % SLOTS;
        self.filled[f] = self.filled[f].max(i + 1);
        self.slots[f][i] = (all.len(), s.len());
        all.push_str(s);
        (mark(f, i, false), units(s))
    }
}

/// A string's length in UTF-16 units, JavaScript's.
pub fn units(s: &str) -> i32 {
    let n = if s.is_ascii() {
        s.len()
    } else {
        s.encode_utf16().count()
    };
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// A decision as index.js builds its object from it (an object literal,
/// in V8's compiled code, is far cheaper than one made property by
/// property through Node-API): its strings (rule, source, scope root,
/// when present, then the message) appended to `all`, the answers'
/// string, which index.js cuts with `slice` (no copy past 12
/// characters), unless `seen` has them; in `meta` its code ([`HAS_RULE`],
/// [`MARKS`]) and the lengths of the four strings in UTF-16 units,
/// JavaScript's.
pub fn answer_parts(all: &mut String, meta: &mut [i32; 5], d: &Decision, seen: &mut impl Slots) {
    let mut c = code(
        d.policy.name(),
        d.reason,
        d.autonomy_origin.map(|o| o.name()),
    );
    *meta = [0; 5];
    all.reserve(d.message.len() + 64);
    if let Some(r) = &d.rule {
        c |= HAS_RULE;
        let (m, n) = seen.put(all, 0, &r.rule);
        c |= m;
        meta[1] = n;
        let (m, n) = seen.put(all, 1, &r.source);
        c |= m;
        meta[2] = n;
    }
    if let Some(s) = &d.scope_root {
        c |= HAS_SCOPE_ROOT;
        let (m, n) = seen.put(all, 2, s);
        c |= m;
        meta[3] = n;
    }
    let (m, n) = seen.put(all, 3, &d.message);
    c |= m;
    meta[4] = n;
    meta[0] = c;
}

/// The names index.js passes as their indices (`fieldNames`): action
/// types and roles (the vocabulary's, from the Rust enums), execution
/// modes (SPEC §10.1). A name missing here only sends its requests
/// through the JSON text.
pub struct FieldNames {
    pub types: Vec<String>,
    pub roles: Vec<String>,
    pub modes: Vec<String>,
}

/// [`FieldNames`], made once.
pub fn field_names() -> &'static FieldNames {
    static NAMES: std::sync::OnceLock<FieldNames> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let v = permc_runtime::codes::vocabulary();
        let list = |k: &str| -> Vec<String> {
            v[k].as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        FieldNames {
            types: list("actionTypes"),
            roles: list("roles"),
            modes: ["container", "mounted", "runner"]
                .map(str::to_owned)
                .to_vec(),
        }
    })
}
