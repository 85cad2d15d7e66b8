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
use permc_runtime::{Answer, Reason, StringKey};
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
    keys: Keys,
}

/// The key each slot's string was made for ([`Answer::rule_key`],
/// [`Answer::message_key`]), under one policy: an answer whose key a slot
/// holds is given that slot without its string being built. A string
/// found equal to a slot's takes its key there (equal strings, either key
/// names it).
#[derive(Default)]
pub struct Keys {
    keys: [[Option<StringKey>; SLOTS]; 4],
    /// The policy the keys are of ([`permc_runtime::Policy::id`]; 0: none).
    policy: u64,
}

impl Keys {
    /// The keys of `policy`: every key forgotten when they were another's.
    fn of(&mut self, policy: u64) {
        if self.policy != policy {
            *self = Keys {
                policy,
                ..Keys::default()
            };
        }
    }

    /// The slot among the first `filled` of field `f` holding `key`'s string.
    fn find(&self, f: usize, filled: usize, key: Option<StringKey>) -> Option<i32> {
        let key = key?;
        let i = self.keys[f][..filled]
            .iter()
            .position(|k| *k == Some(key))?;
        Some(mark(f, i, true))
    }

    /// Slot `i` of field `f`, whose string was found equal to `key`'s,
    /// is `key`'s (a key it held stays when `key` is `None`: its string is
    /// the same).
    fn set(&mut self, f: usize, i: usize, key: Option<StringKey>) {
        if key.is_some() {
            self.keys[f][i] = key;
        }
    }
}

/// Where an answer's strings may be found again: a batch's [`Seen`], or
/// the single calls' [`Kept`].
pub trait Slots {
    /// Field `f`'s string `s` for the answer, made for `key`: its mark and
    /// its length in UTF-16 units (0 when it is a slot's), appended to
    /// `all` when new.
    fn put(&mut self, all: &mut String, f: usize, s: &str, key: Option<StringKey>) -> (i32, i32);

    /// The mark of the slot of field `f` holding `key`'s string, when one
    /// does (the string need not be built).
    fn hit(&self, f: usize, key: Option<StringKey>) -> Option<i32>;

    /// The keys kept are `policy`'s from now on.
    fn of(&mut self, policy: u64);
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
    keys: Keys,
}

impl Kept {
    /// Every slot empty (index.js's are then never read before it is
    /// given their string again).
    pub fn clear(&mut self) {
        self.filled = [0; 4];
        self.next = [0; 4];
        self.keys = Keys::default();
    }
}

impl Slots for Kept {
    #[inline]
    fn put(&mut self, all: &mut String, f: usize, s: &str, key: Option<StringKey>) -> (i32, i32) {
        if let Some(i) = self.slots[f][..self.filled[f]].iter().position(|k| k == s) {
            self.keys.set(f, i, key);
            return (mark(f, i, true), 0);
        }
        let i = self.next[f];
        self.next[f] = (i + 1) % SLOTS;
        self.filled[f] = self.filled[f].max(i + 1);
        self.keys.keys[f][i] = key;
        let k = &mut self.slots[f][i];
        k.clear();
        k.push_str(s);
        all.push_str(s);
        (mark(f, i, false), units(s))
    }

    #[inline]
    fn hit(&self, f: usize, key: Option<StringKey>) -> Option<i32> {
        self.keys.find(f, self.filled[f], key)
    }

    fn of(&mut self, policy: u64) {
        self.keys.of(policy);
    }
}

impl Slots for Seen {
    #[inline]
    fn put(&mut self, all: &mut String, f: usize, s: &str, key: Option<StringKey>) -> (i32, i32) {
        for (i, &(start, len)) in self.slots[f][..self.filled[f]].iter().enumerate() {
            if len == s.len() && all.get(start..start + len) == Some(s) {
                self.keys.set(f, i, key);
                return (mark(f, i, true), 0);
            }
        }
        let i = self.next[f];
        self.next[f] = (i + 1) % SLOTS;
        self.filled[f] = self.filled[f].max(i + 1);
        self.keys.keys[f][i] = key;
        self.slots[f][i] = (all.len(), s.len());
        all.push_str(s);
        (mark(f, i, false), units(s))
    }

    #[inline]
    fn hit(&self, f: usize, key: Option<StringKey>) -> Option<i32> {
        self.keys.find(f, self.filled[f], key)
    }

    fn of(&mut self, policy: u64) {
        self.keys.of(policy);
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

/// An answer as index.js builds its object from it (an object literal,
/// in V8's compiled code, is far cheaper than one made property by
/// property through Node-API): its strings (rule, source, scope root,
/// when present, then the message) appended to `all`, the answers'
/// string, which index.js cuts with `slice` (no copy past 12
/// characters), unless `seen` has them — by their keys, so that a rule's
/// strings or a message made of the rule alone are not built again when
/// a slot holds them, or else by their text; in `meta` its code
/// ([`HAS_RULE`], [`MARKS`]) and the lengths of the four strings in
/// UTF-16 units, JavaScript's. `policy` is the answer's policy's
/// [`permc_runtime::Policy::id`]; `label` a buffer for the scope root.
pub fn answer_parts(
    all: &mut String,
    meta: &mut [i32; 5],
    a: &Answer<'_>,
    policy: u64,
    label: &mut String,
    seen: &mut impl Slots,
) {
    seen.of(policy);
    let mut c = code(
        a.policy.name(),
        a.reason,
        a.autonomy_origin.map(|o| o.name()),
    );
    *meta = [0; 5];
    all.reserve(160);
    // Built only when a slot does not hold the rule's strings, or the
    // message that quotes it must be built.
    let mut rule = None;
    if a.has_rule() {
        c |= HAS_RULE;
        let key = a.rule_key();
        match (seen.hit(0, key), seen.hit(1, key)) {
            (Some(text), Some(source)) => c |= text | source,
            _ => {
                rule = a.rule();
                if let Some(r) = &rule {
                    let (m, n) = seen.put(all, 0, &r.rule, key);
                    c |= m;
                    meta[1] = n;
                    let (m, n) = seen.put(all, 1, &r.source, key);
                    c |= m;
                    meta[2] = n;
                }
            }
        }
    }
    if a.scope_root_into(label) {
        c |= HAS_SCOPE_ROOT;
        let (m, n) = seen.put(all, 2, label, None);
        c |= m;
        meta[3] = n;
    }
    let key = a.message_key();
    match seen.hit(3, key) {
        Some(m) => c |= m,
        None => {
            if rule.is_none() {
                rule = a.rule();
            }
            let message = a.message_quoting(rule.as_ref());
            let (m, n) = seen.put(all, 3, &message, key);
            c |= m;
            meta[4] = n;
        }
    }
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
