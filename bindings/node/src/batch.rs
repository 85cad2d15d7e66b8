//! `decideBatch`: the crossing of `decide`, `decideBrief` and
//! `decideMany` for the common request (issue 44). index.js reads each
//! request once (`readCommon`: its keys by `Object.keys`, each value once) and
//! passes a batch of them — one for `decide` — as one string, their
//! strings end to end, and an Int32Array of [`STRIDE`] numbers each: the
//! mask (`parts_of`'s: the fields given, the names' indices, and
//! `containerRunning`'s value at bit 24) and the strings' lengths in
//! UTF-16 units, or a mark for a string the request before gave in the
//! same field ([`SAME_AS_BEFORE`]) or a root equal to the cwd
//! ([`SAME_AS_CWD`]), not sent again. The string is copied out once, as
//! UTF-16, and each field turned into UTF-8 here (a word of ASCII at a
//! time), where Node-API's UTF-8 copy (`String::WriteUtf8`) went a
//! character at a time, a call per string. The answers come back as one
//! string of their strings end to end (rule, source, scope root when
//! present, then the message; one the batch answered before is marked
//! instead, [`fast::Seen`]) and, in each request's numbers, its code
//! ([`fast::HAS_RULE`]'s, [`fast::MARKS`]) and the four strings'
//! lengths; `-1` for a request the typed reading refuses, which index.js
//! sends as JSON text so the error is `permc decide`'s.

use crate::{fast, parts_of, MAX_REQUEST};
use napi::{sys, Env, Error, JsObject, JsUnknown, NapiRaw, Result, Status};
use permc_runtime::{Policy, Request};
use std::cell::RefCell;
use std::ptr;

/// A request's five fields as ranges of the batch's UTF-8 (`ranges`).
type Ranges = [(usize, usize); 5];

/// The numbers of one request in the batch's Int32Array.
pub const STRIDE: usize = 6;

/// A thread's buffers, kept between calls (`decide`'s batch of one
/// allocated them anew each call), borrowed once a call.
#[derive(Default)]
struct Buffers {
    /// The batch's strings as UTF-16, then as UTF-8.
    units: Vec<u16>,
    utf8: Vec<u8>,
    /// Each request's fields' ranges of `utf8` (`ranges`).
    read: Vec<Option<Ranges>>,
    /// The answers' strings end to end.
    out: String,
    /// An answer's scope root, before it is put in `out`.
    label: String,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
    // Boxed: a thread-local's value is in the addon's static TLS block,
    // which a dlopen'd library gets little of (with 1.7 KB more there,
    // loading failed: "cannot allocate memory in static TLS block").
    static CARRY: RefCell<Box<Carry>> = RefCell::new(Box::default());
}

/// `decideBatch`'s flags: policy and reason alone (`Policy::brief`), no
/// string back.
pub const BRIEF: u32 = 1;
/// `decideBatch`'s flags: a single call (`decide`, `decideBrief`) that
/// keeps [`Carry`] with index.js from one call to the next: a batch of
/// one whose Int32Array holds two numbers more, the epoch (see [`Carry`]).
pub const CARRY_ON: u32 = 2;

/// What a thread's single calls keep from one to the next, and index.js
/// with them (its `one`): the last request's cwd, agent, target branch
/// and scope root, so that a field equal to the last call's crosses as
/// [`SAME_AS_BEFORE`] (an engine's requests mostly share them), and the
/// answers' strings given last ([`fast::Kept`]), so that an answer's
/// rule, source, scope root or message equal to one of them comes back
/// as its slot, not as a string made again.
///
/// Both sides must hold the same: the epoch says so. Each call hands
/// index.js a new one (never 0 nor -1, -1), which index.js keeps once it
/// has read the answer and passes with its next call; a call whose epoch
/// is not the last handed out (the first call, one after a call that
/// failed, or after another copy of index.js on this thread) starts
/// afresh (the strings forgotten, the slots empty) and, when its request
/// names a string of the last call's, decides nothing and answers the
/// epoch -1, -1: index.js sends the request again with every string.
#[derive(Default)]
pub struct Carry {
    epoch: u64,
    /// The last request's four fields (cwd, agent, targetBranch,
    /// projectScopeRoot) end to end, as UTF-8, and each one's range of it
    /// (`None`: not given).
    fields: Vec<u8>,
    ranges: [Option<(usize, usize)>; 4],
    kept: fast::Kept,
}

impl Carry {
    /// The next epoch, and whether `given` was the last: a call that
    /// fails after this is never current again.
    fn begin(&mut self, given: u64) -> bool {
        let current = given != 0 && given == self.epoch;
        loop {
            self.epoch = self.epoch.wrapping_add(1);
            if self.epoch != 0 && self.epoch != u64::MAX {
                break;
            }
        }
        if !current {
            self.ranges = [None; 4];
            self.kept.clear();
        }
        current
    }

    /// The carried fields appended to `utf8`, as a request's ranges of it
    /// (command's empty), for the request's [`SAME_AS_BEFORE`] marks.
    fn before(&self, utf8: &mut Vec<u8>) -> [(usize, usize); 5] {
        let mut rs = [(0, 0); 5];
        let at = utf8.len();
        utf8.extend_from_slice(&self.fields);
        for (r, c) in rs[1..].iter_mut().zip(&self.ranges) {
            *r = c.map_or((0, 0), |(s, e)| (at + s, at + e));
        }
        rs
    }

    /// Keeps the request's fields (`rs`, ranges of `utf8`; given by
    /// `mask`) for the next call.
    fn keep(&mut self, utf8: &[u8], mask: i32, rs: &[(usize, usize); 5]) {
        self.fields.clear();
        // The bits of cwd, agent, targetBranch, projectScopeRoot.
        for (i, bit) in [2, 3, 4, 8].into_iter().enumerate() {
            let (s, e) = rs[i + 1];
            self.ranges[i] = (mask & (1 << bit) != 0).then(|| {
                let start = self.fields.len();
                self.fields.extend_from_slice(&utf8[s..e]);
                (start, self.fields.len())
            });
        }
    }
}

/// The epoch of [`Carry`] as two numbers of the Int32Array.
fn epoch_of(ints: &[i32]) -> u64 {
    u64::from(ints[0] as u32) | u64::from(ints[1] as u32) << 32
}

fn put_epoch(ints: &mut [i32], epoch: u64) {
    ints[0] = epoch as u32 as i32;
    ints[1] = (epoch >> 32) as u32 as i32;
}

fn failed() -> Error {
    Error::new(Status::GenericFailure, "a Node-API call failed")
}

/// The elements of an Int32Array, or of an ArrayBuffer read as one (its
/// bytes a multiple of 4: `decide`'s, whose buffer's info is one call,
/// where a typed array's asks its type and its buffer), borrowed for the
/// call; `None` when the value is neither.
pub fn int32s<'a>(env: &Env, array: &'a mut JsObject) -> Option<&'a mut [i32]> {
    let mut data = ptr::null_mut();
    let mut bytes = 0usize;
    // SAFETY: `array` is a live value of `env`; Node-API fills the out
    // parameters, or fails for a value that is not an ArrayBuffer.
    let s =
        unsafe { sys::napi_get_arraybuffer_info(env.raw(), array.raw(), &mut data, &mut bytes) };
    if s == sys::Status::napi_ok {
        if !bytes.is_multiple_of(4) || !(data as usize).is_multiple_of(4) {
            return None;
        }
        if bytes == 0 {
            return Some(&mut []);
        }
        // SAFETY: an ArrayBuffer of `bytes` bytes at `data`, aligned for
        // i32 (checked above), which the caller's buffer keeps alive past
        // the call; only this call, on the JavaScript thread, touches them
        // while it runs (no JavaScript runs during it).
        return Some(unsafe { std::slice::from_raw_parts_mut(data.cast::<i32>(), bytes / 4) });
    }
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
    if s != sys::Status::napi_ok || kind != sys::TypedarrayType::int32_array {
        return None;
    }
    if length == 0 {
        return Some(&mut []);
    }
    // SAFETY: an Int32Array of `length` elements: `data` points to
    // `4 * length` bytes aligned for i32 (an Int32Array's offset is a
    // multiple of 4), which the caller's array keeps alive past the call;
    // only this call, on the JavaScript thread, touches them while it
    // runs (no JavaScript runs during it).
    Some(unsafe { std::slice::from_raw_parts_mut(data.cast::<i32>(), length) })
}

/// `text`'s UTF-16 units into `units`, when it is a string of exactly
/// `len` units.
fn read_units(env: &Env, text: &JsUnknown, len: usize, units: &mut Vec<u16>) -> Option<()> {
    units.clear();
    // Room for one unit more than expected and the NUL: a longer string
    // shows as `len + 1` units written.
    units.reserve(len + 2);
    let mut written = 0usize;
    // SAFETY: `units` has room for `len + 2` units; Node-API writes at
    // most `len + 1` and a NUL, and says in `written` how many.
    let s = unsafe {
        sys::napi_get_value_string_utf16(
            env.raw(),
            text.raw(),
            units.as_mut_ptr(),
            len + 2,
            &mut written,
        )
    };
    if s != sys::Status::napi_ok || written != len {
        return None;
    }
    // SAFETY: the `len` units were written above.
    unsafe { units.set_len(len) };
    Some(())
}

/// `s` (UTF-16) appended to `out` as UTF-8; `None` for a lone surrogate
/// (index.js sends only well-formed strings). ASCII, most requests'
/// text, is checked and narrowed in loops the compiler vectorizes.
fn push_utf8(out: &mut Vec<u8>, s: &[u16]) -> Option<()> {
    if s.iter().fold(0u16, |a, &u| a | u) < 0x80 {
        out.reserve(s.len());
        let start = out.len();
        for (d, &u) in out.spare_capacity_mut()[..s.len()].iter_mut().zip(s) {
            d.write(u as u8);
        }
        // SAFETY: the `s.len()` bytes after `start` were written above.
        unsafe { out.set_len(start + s.len()) };
        return Some(());
    }
    let mut b = [0u8; 4];
    for c in char::decode_utf16(s.iter().copied()) {
        out.extend_from_slice(c.ok()?.encode_utf8(&mut b).as_bytes());
    }
    Some(())
}

/// A field's length meaning "the same string as this field of the
/// batch's request before" (not in the text; index.js sees it with `===`):
/// a batch's requests mostly share their cwd, agent and scope root.
pub const SAME_AS_BEFORE: i32 = -1;
/// `projectScopeRoot`'s length meaning "the same string as this request's
/// `cwd`" (not in the text).
pub const SAME_AS_CWD: i32 = -2;

/// Each field's range of the batch's UTF-8, a request's five, read from
/// its length: the next `len` units of `units` (from `*at`) turned into
/// UTF-8 and appended to `utf8`, or the range [`SAME_AS_BEFORE`] and
/// [`SAME_AS_CWD`] say; `None` when the request cannot be read so
/// (a lone surrogate, a reference to nothing, too large), which index.js
/// then sends as JSON text.
fn ranges(
    lens: &[i32],
    mask: i32,
    before: Option<&[(usize, usize); 5]>,
    units: &[u16],
    at: &mut usize,
    utf8: &mut Vec<u8>,
) -> Option<[(usize, usize); 5]> {
    let mut rs = [(0, 0); 5];
    let mut whole = true;
    for (i, &len) in lens.iter().enumerate() {
        rs[i] = match len {
            SAME_AS_BEFORE => {
                whole &= before.is_some();
                before.map_or((0, 0), |b| b[i])
            }
            // `cwd` (field 1, given: mask bit 2) read before the root.
            SAME_AS_CWD if i == 4 => {
                whole &= mask & 4 != 0;
                rs[1]
            }
            len if len >= 0 => {
                let len = len as usize;
                let start = utf8.len();
                whole &= push_utf8(utf8, &units[*at..*at + len]).is_some();
                *at += len;
                (start, utf8.len())
            }
            _ => {
                whole = false;
                (0, 0)
            }
        };
    }
    // Too large: the text path answers `request_too_large`.
    whole &= rs.iter().map(|r| r.1 - r.0).sum::<usize>() <= MAX_REQUEST;
    whole.then_some(rs)
}

/// Decides the batch: see the module's doc. `brief`: policy and reason
/// alone (`Policy::brief`), no string back (`null`).
pub fn decide_batch(
    env: &Env,
    policy: &Policy,
    ints: &mut [i32],
    count: usize,
    text: &JsUnknown,
    flags: u32,
) -> Result<Option<sys::napi_value>> {
    let brief = flags & BRIEF != 0;
    let carry_on = flags & CARRY_ON != 0;
    let fewer = || {
        Error::new(
            Status::InvalidArg,
            "the batch's numbers are fewer than its requests",
        )
    };
    if carry_on && count != 1 {
        return Err(fewer());
    }
    let Some((ints, epoch)) = count
        .checked_mul(STRIDE)
        .and_then(|n| ints.get_mut(..n + if carry_on { 2 } else { 0 }))
        .map(|all| all.split_at_mut(count * STRIDE))
    else {
        return Err(fewer());
    };
    let mut total = 0usize;
    for r in ints.chunks_exact(STRIDE) {
        for &len in &r[1..] {
            if len >= 0 {
                total += len as usize;
            } else if len < SAME_AS_CWD {
                return Err(failed());
            }
        }
    }
    BUFFERS.with(|b| {
        CARRY.with(|c| {
            let mut b = b.borrow_mut();
            let mut c = c.borrow_mut();
            let carry = carry_on.then_some(&mut **c);
            decide_in(env, policy, ints, epoch, total, text, brief, carry, &mut b)
        })
    })
}

/// [`decide_batch`] with the thread's buffers (and, for a single call,
/// its [`Carry`]) borrowed.
#[allow(clippy::too_many_arguments)]
fn decide_in(
    env: &Env,
    policy: &Policy,
    ints: &mut [i32],
    epoch: &mut [i32],
    total: usize,
    text: &JsUnknown,
    brief: bool,
    mut carry: Option<&mut Carry>,
    b: &mut Buffers,
) -> Result<Option<sys::napi_value>> {
    // A call that fails from here on leaves index.js an epoch that is
    // not current: the next call starts afresh.
    let current = carry.as_deref_mut().map(|c| c.begin(epoch_of(epoch)));
    if current == Some(false)
        && ints
            .chunks_exact(STRIDE)
            .any(|r| r[1..].contains(&SAME_AS_BEFORE))
    {
        // A string of a call this thread no longer holds: index.js sends
        // the request again, whole.
        put_epoch(epoch, u64::MAX);
        return Ok(None);
    }
    {
        let Buffers {
            units, utf8, read, ..
        } = &mut *b;
        read_units(env, text, total, units).ok_or_else(failed)?;
        // Every request's fields first, into one UTF-8 buffer (a field may
        // be the request before's, or the last call's), then each
        // request, borrowing them, decided.
        utf8.clear();
        read.clear();
        let carried = carry.as_deref().map(|c| c.before(utf8));
        let mut at = 0usize;
        for r in ints.chunks_exact(STRIDE) {
            let before = read.last().and_then(Option::as_ref).or(carried.as_ref());
            let rs = ranges(&r[1..], r[0], before, units, &mut at, utf8);
            read.push(rs);
        }
    }
    decide_each(policy, ints, b, brief, carry.as_deref_mut());
    if let Some(c) = carry {
        // A refused request: its fields are not kept, so the epoch is not
        // current (index.js forgets its own).
        put_epoch(epoch, if ints[0] < 0 { 0 } else { c.epoch });
    }
    let Buffers {
        units,
        utf8,
        read,
        out,
        ..
    } = &mut *b;
    {
        // No string made when every answer's strings were given before
        // (index.js reads `null` as "").
        let s = if brief || out.is_empty() {
            Ok(None)
        } else {
            fast::string(env.raw(), out).map(Some)
        };
        // A huge batch's buffers go with it (a thread keeps at most
        // [`KEPT`] bytes of each).
        if units.capacity() > KEPT
            || utf8.capacity() > KEPT
            || out.capacity() > KEPT
            || read.capacity() > KEPT / 64
        {
            *b = Buffers::default();
        }
        s
    }
}

/// Each request of the batch, its fields read into `b.read`, decided:
/// its code and its answer's strings' lengths into its numbers (`-1`:
/// the typed reading refused it), the strings into `b.out`; a single
/// call's fields kept in its [`Carry`].
fn decide_each(
    policy: &Policy,
    ints: &mut [i32],
    b: &mut Buffers,
    brief: bool,
    mut carry: Option<&mut Carry>,
) {
    let Buffers {
        utf8,
        read,
        out,
        label,
        ..
    } = b;
    out.clear();
    let mut seen = fast::Seen::default();
    for (r, rs) in ints.chunks_exact_mut(STRIDE).zip(read.iter()) {
        let req = rs.and_then(|rs| request(utf8, r[0] as u32, &rs));
        let (Some(req), Some(rs)) = (req, rs) else {
            r[0] = -1;
            continue;
        };
        if let Some(c) = carry.as_deref_mut() {
            c.keep(utf8, r[0], rs);
        }
        if brief {
            let (p, reason) = policy.brief(&req);
            r[0] = fast::code(p, reason, None);
            continue;
        }
        let a = policy.answer(&req);
        let mut meta = [0i32; 5];
        match carry.as_deref_mut() {
            Some(c) => fast::answer_parts(out, &mut meta, &a, policy.id(), label, &mut c.kept),
            None => fast::answer_parts(out, &mut meta, &a, policy.id(), label, &mut seen),
        }
        r[..5].copy_from_slice(&meta);
    }
}

/// The most a thread's buffers keep between batches: a batch of 256
/// typical requests' strings, far from a 16 MiB one's.
const KEPT: usize = 1 << 20;

/// One request of the batch: its mask and its fields' ranges of `utf8`,
/// its strings borrowed from `utf8` (`Request::from_parts`: no copy).
fn request<'u>(utf8: &'u [u8], mask: u32, ranges: &[(usize, usize); 5]) -> Option<Request<'u>> {
    let mut f: [Option<&str>; 5] = [None; 5];
    for (i, (field, r)) in f.iter_mut().zip(ranges).enumerate() {
        // The bits of command, cwd, agent, targetBranch, projectScopeRoot.
        let bit = [1, 2, 3, 4, 8][i];
        if mask & (1 << bit) != 0 {
            // SAFETY: [`push_utf8`] writes only whole characters' UTF-8
            // (ASCII bytes, or `encode_utf8`'s), and a range starts and
            // ends between two of its calls.
            *field = Some(unsafe { std::str::from_utf8_unchecked(&utf8[r.0..r.1]) });
        } else if r.1 != r.0 {
            return None;
        }
    }
    let p = parts_of(mask, f)?;
    Request::from_parts(&p)?.ok()
}
