//! The hot path of `Policy.decide`: the common request's fields in, the
//! decision object out, with as few Node-API calls as the work allows.
//!
//! index.js reads the request once (its keys by `for…in`, each value
//! once, in V8's own compiled code) and, when every key is known and
//! every value a string (`containerRunning` a boolean), passes the nine
//! fields as arguments: each string is copied once, as UTF-8, into one
//! buffer ([`read_strings`]). The answer crosses back as one string of
//! its strings end to end, made one-byte when ASCII (no UTF-8 decoding in
//! V8), and its closed sets (policy, reason, autonomy origin) as indices
//! and the strings' lengths in an Int32Array index.js keeps for the
//! policy; index.js makes the object as a literal ([`answer_into`]).

use napi::sys;
use napi::{Env, Error, JsObject, JsUnknown, NapiRaw, Result, Status};
use permc_runtime::{Decision, Reason};
use std::ops::Range;
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
fn string(env: sys::napi_env, s: &str) -> Result<sys::napi_value> {
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

/// The bits of [`answer_into`]'s code: the policy's index (bits 0–1, in
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
    let reason = Reason::ALL.iter().position(|r| *r == reason).unwrap_or(0);
    let origin = match origin {
        None => 0,
        Some("specific") => 1,
        Some(_) => 2,
    };
    policy as i32 | (reason as i32) << 2 | origin << 7
}

/// A decision as index.js builds its object from it (an object literal,
/// in V8's compiled code, is far cheaper than one made property by
/// property through Node-API): one JavaScript string of its strings end
/// to end (rule, source, scope root when present, then the message),
/// index.js cutting it with `slice` (no copy past 12 characters), and in
/// `meta` the code ([`HAS_RULE`]) and the lengths of the rule, source and
/// scope root in UTF-16 units, JavaScript's. One string made and no
/// property set through Node-API, where four strings made and stored in
/// an array cost a sixth of a call.
pub fn answer_into(env: &Env, meta: &mut [i32; 4], d: &Decision) -> Result<sys::napi_value> {
    let mut c = code(
        d.policy.name(),
        d.reason,
        d.autonomy_origin.map(|o| o.name()),
    );
    let units = |s: &str| -> i32 {
        let n = if s.is_ascii() {
            s.len()
        } else {
            s.encode_utf16().count()
        };
        i32::try_from(n).unwrap_or(i32::MAX)
    };
    *meta = [0; 4];
    let mut all = String::new();
    if let Some(r) = &d.rule {
        c |= HAS_RULE;
        meta[1] = units(&r.rule);
        meta[2] = units(&r.source);
        all.reserve(r.rule.len() + r.source.len() + d.message.len() + 32);
        all.push_str(&r.rule);
        all.push_str(&r.source);
    }
    if let Some(s) = &d.scope_root {
        c |= HAS_SCOPE_ROOT;
        meta[3] = units(s);
        all.push_str(s);
    }
    meta[0] = c;
    if all.is_empty() {
        return string(env.raw(), &d.message);
    }
    all.push_str(&d.message);
    string(env.raw(), &all)
}

/// The Int32Array index.js passes for [`answer_into`]'s `meta`: its four
/// elements, borrowed for the call; `None` when it is not one of four.
pub fn meta_of<'a>(env: &Env, array: &'a mut JsObject) -> Option<&'a mut [i32; 4]> {
    let mut kind = 0;
    let mut length = 0usize;
    let mut data = ptr::null_mut();
    let mut buffer = ptr::null_mut();
    let mut offset = 0usize;
    // SAFETY: `array` is a live value of `env`; Node-API fills the out
    // parameters, or fails for a value that is not a typed array.
    let s = unsafe {
        sys::napi_get_typedarray_info(
            env.raw(),
            array.raw(),
            &mut kind,
            &mut length,
            &mut data,
            &mut buffer,
            &mut offset,
        )
    };
    if s != sys::Status::napi_ok || kind != sys::TypedarrayType::int32_array || length != 4 {
        return None;
    }
    // SAFETY: an Int32Array of four elements: `data` points to 16 bytes,
    // aligned for i32 (an Int32Array's offset is a multiple of 4), which
    // the array (held by the caller's policy object) keeps alive past the
    // call; only this call, on the JavaScript thread, touches them while
    // it runs.
    Some(unsafe { &mut *data.cast::<[i32; 4]>() })
}

/// The strings of `values` (JavaScript strings; `None` for a field not
/// given) as UTF-8, each copied once into `buf`, as their ranges of `buf`;
/// `None` when one is not a string.
pub fn read_strings<const N: usize>(
    env: &Env,
    values: [Option<&JsUnknown>; N],
    buf: &mut Vec<u8>,
) -> Option<[Option<Range<usize>>; N]> {
    buf.clear();
    buf.reserve(512);
    let mut out: [Option<Range<usize>>; N] = std::array::from_fn(|_| None);
    for (range, v) in out.iter_mut().zip(values) {
        if let Some(v) = v {
            *range = Some(read_one(env, v, buf)?);
        }
    }
    Some(out)
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

/// One string appended to `buf`: read into the buffer's spare room in one
/// call; when it may not have fit, its length asked and read again.
fn read_one(env: &Env, v: &JsUnknown, buf: &mut Vec<u8>) -> Option<Range<usize>> {
    let start = buf.len();
    if buf.capacity() - start < 64 {
        buf.reserve(256);
    }
    let mut written = 0usize;
    let mut spare = buf.capacity() - start;
    // SAFETY: the spare room of `buf` holds `spare` bytes; Node-API writes
    // at most `spare - 1` bytes and a NUL, and says in `written` how many
    // bytes of text.
    let s = unsafe {
        sys::napi_get_value_string_utf8(
            env.raw(),
            v.raw(),
            buf.as_mut_ptr().add(start).cast::<c_char>(),
            spare,
            &mut written,
        )
    };
    if s != sys::Status::napi_ok {
        return None;
    }
    if written + 1 >= spare {
        // Perhaps cut short: the length, then the whole string.
        let mut len = 0usize;
        // SAFETY: a null buffer asks only for the length.
        let s = unsafe {
            sys::napi_get_value_string_utf8(env.raw(), v.raw(), ptr::null_mut(), 0, &mut len)
        };
        if s != sys::Status::napi_ok {
            return None;
        }
        buf.reserve(len + 1);
        spare = buf.capacity() - start;
        // SAFETY: as above, with room for `len` bytes and the NUL.
        let s = unsafe {
            sys::napi_get_value_string_utf8(
                env.raw(),
                v.raw(),
                buf.as_mut_ptr().add(start).cast::<c_char>(),
                spare,
                &mut written,
            )
        };
        if s != sys::Status::napi_ok || written != len {
            return None;
        }
    }
    // SAFETY: the `written` bytes after `start` were written above.
    unsafe { buf.set_len(start + written) };
    Some(start..start + written)
}
