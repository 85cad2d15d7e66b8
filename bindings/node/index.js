// permc in process: a Node-API addon (src/lib.rs, built with cargo) over
// the library the permc CLI calls, so answers are `permc decide`'s byte
// for byte. See index.d.ts and docs/bindings.md.
"use strict";

const path = require("node:path");
const fs = require("node:fs");
const { EventEmitter } = require("node:events");

const { triple } = require("./platform.js");

// PERMC_NODE_ADDON names the addon; by default this platform's build next
// to this file, under napi-rs's name (`npm run build` puts it there).
function addon() {
  const file = process.env.PERMC_NODE_ADDON || path.join(__dirname, `permc.${triple()}.node`);
  try {
    return require(file);
  } catch (e) {
    if (e && e.code === "MODULE_NOT_FOUND" && !process.env.PERMC_NODE_ADDON) {
      throw new Error(`permc has no addon for ${triple()} (${file}): build it with \`npm run build\` in the package (needs cargo)`);
    }
    throw e;
  }
}
const native = addon();

// The names of the closed sets of an answer, in the addon's order: its
// answers carry their indices (decideFast).
const VOCABULARY = JSON.parse(native.vocabulary());
const POLICIES = VOCABULARY.policies;
const REASONS = VOCABULARY.reasons;
const ORIGINS = [undefined, "specific", "wildcard"];
// The names decideBatch takes as their indices: a request naming another
// crosses as JSON text, and the CLI's reader names its error.
const FIELD_NAMES = JSON.parse(native.fieldNames());
const indices = (names) => {
  if (names.length > 31) throw new Error("permc: a list of names is longer than decideBatch packs");
  return names.slice();
};
const TYPES = indices(FIELD_NAMES.types);
const ROLES = indices(FIELD_NAMES.roles);
const MODES = indices(FIELD_NAMES.modes);

/** The index of the name `v` in `names` (a few names: a scan of `===`
 * costs a sixth of a `Map`'s lookup), or -1. */
function indexIn(names, v) {
  for (let i = 0; i < names.length; i++) if (names[i] === v) return i;
  return -1;
}

/** How deep a request may nest: serde_json's limit, as the CLI. */
const MAX_DEPTH = 128;

/**
 * What every function throws: `code` is one of the error codes (the docs'
 * table; `ErrorCode` in index.d.ts), `diagnostics` the rule files' errors
 * of a rejected load, `version` the diagnostics' JSON version (1).
 */
class PermcError extends Error {
  constructor(code, message, diagnostics = [], version = 1) {
    super(message);
    this.name = "PermcError";
    this.code = code;
    this.version = version;
    this.diagnostics = diagnostics;
  }
}

function permcError(code, message, diagnostics = [], version = 1) {
  return new PermcError(code, message, diagnostics, version);
}

// The addon throws its errors as JSON text: {code, message, version,
// diagnostics}.
function rethrow(e) {
  let v;
  try {
    v = JSON.parse(e.message);
  } catch {
    throw e;
  }
  if (v === null || typeof v !== "object" || typeof v.code !== "string") throw e;
  throw permcError(v.code, v.message, v.diagnostics || [], v.version);
}

function where(p) {
  return p.length === 0 ? "the request" : "`" + p.join(".") + "`";
}

// A copy of `v`, each property read once, checked to be made of JSON
// values, so JSON.stringify writes what it holds: it would silently drop
// `undefined`, functions and symbols (a dropped `cwd` would read as the
// project root) and turn class instances into something else. The copy is
// what is decided: a getter or a Proxy read twice (once to check, once to
// write) could show `cwd: "/etc"` to the check and nothing to the decision.
function snapshot(v, depth, p) {
  if (depth > MAX_DEPTH) {
    throw permcError("invalid_json", `the request nests deeper than ${MAX_DEPTH} levels`);
  }
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      if (!Number.isFinite(v)) throw permcError("invalid_field", `${where(p)} is ${v}, not a JSON number`);
      return v;
    case "object": {
      if (v === null) return null;
      if (Array.isArray(v)) {
        const n = v.length;
        const out = new Array(n);
        for (let i = 0; i < n; i++) {
          p.push(String(i));
          out[i] = snapshot(v[i], depth + 1, p);
          p.pop();
        }
        return out;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        const name = (proto && proto.constructor && proto.constructor.name) || "object";
        throw permcError("invalid_field", `${where(p)} is a ${name}, not a plain object`);
      }
      if (Object.getOwnPropertySymbols(v).length > 0) {
        throw permcError("invalid_field", `${where(p)} has a symbol key`);
      }
      // No prototype: a key `__proto__` is a property like any other.
      const out = Object.create(null);
      for (const k of Object.keys(v)) {
        p.push(k);
        out[k] = snapshot(v[k], depth + 1, p);
        p.pop();
      }
      return out;
    }
    default:
      throw permcError("invalid_field", `${where(p)} is ${typeof v === "undefined" ? "undefined" : "a " + typeof v}, which has no JSON form`);
  }
}

/** The JSON text of a request, or the error it is. */
function requestText(request) {
  return JSON.stringify(snapshot(request, 0, []));
}

function str(name, v) {
  if (typeof v !== "string") throw permcError("invalid_argument", `${name} must be a string`);
  return v;
}

/**
 * The decision object of decideFields' string: seven fields, each ended by
 * a NUL, in `permc decide`'s order; absent ones empty and left out.
 */
function decisionOf(s) {
  const f = s.split("\0");
  const v = { policy: f[0], reason: f[1] };
  if (f[2] !== "") {
    v.rule = f[2];
    v.source = f[3];
  }
  if (f[4] !== "") v.autonomyOrigin = f[4];
  if (f[5] !== "") v.scopeRoot = f[5];
  v.message = f[6];
  return v;
}

/** A string for decideBatch. A lone surrogate (JSON.stringify would escape
 * one, which the CLI's reader refuses) is not looked for here: the addon
 * reads the strings as UTF-16 and refuses a field holding one (-1), and the
 * request then crosses as JSON text. */
function clean(v) {
  return typeof v === "string";
}

function plainObject(v) {
  return v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype &&
    Object.getOwnPropertySymbols(v).length === 0;
}

// The numbers of one request in decideBatch's Int32Array (src/batch.rs):
// in, its mask and its five strings' lengths; out, the answer's code and
// its four strings' lengths (-1: the addon's reader refused the fields).
const STRIDE = 6;
// A field's length for "the same string as this field of the request
// before in the batch", and projectScopeRoot's for "the same as cwd": not
// in the text (src/batch.rs).
const SAME_AS_BEFORE = -1;
const SAME_AS_CWD = -2;

// decideBatch's flags (src/batch.rs): policy and reason alone; a single
// call that keeps the last call's strings (`one`).
const BRIEF = 1;
const CARRY_ON = 2;

// decide's batch of one (decideFast): the request's mask and lengths in,
// the answer's code and lengths out, then the epoch of `one` (two
// numbers); the addon takes its ArrayBuffer (one Node-API call to read,
// where an Int32Array's is three). One for every policy: readCommon writes it once the request
// is read (a getter that decides meanwhile is done by then) and the
// answer is read from it right after the call, with no JavaScript run in
// between.
const ONE_BUFFER = new ArrayBuffer(4 * (STRIDE + 2));
const ONE = new Int32Array(ONE_BUFFER);
const EPOCH = STRIDE;

// What decide and decideBrief keep from one call to the next, as the
// addon does on this thread (src/batch.rs: `Carry`): the last request's
// cwd, agent, targetBranch and projectScopeRoot (a field equal to one of
// them crosses as a mark, not again) and the answers' strings by field
// and slot (one the addon marks is the slot's, not made again). The epoch
// says both sides hold the same: the addon hands a new one each call,
// kept here once the answer is read; a call with another starts afresh
// there (and answers -1, -1 when the request named a string of the last
// call's: it is sent again, whole).
const one = { before: new Before(), seen: new Array(32), lo: 0, hi: 0 };

/**
 * Reads a request whose every key is known and every value a plain string
 * (containerRunning a boolean), each value once, for decideBatch: its
 * mask into ints[at] and its strings' lengths into the five after,
 * written once everything is read (a getter that calls back into permc
 * runs before); returns its strings end to end (command, cwd, agent,
 * targetBranch, projectScopeRoot), or undefined for any other request,
 * which crosses as JSON text (an `id`, an unknown key, another type, an
 * unknown name: whatever the CLI's reader says of it). The mask has bit k
 * for field k of type, command, cwd, agent, targetBranch, role,
 * executionMode, containerRunning, projectScopeRoot; the indices of type,
 * role and executionMode in the addon's lists (fieldNames) at bits 9, 14
 * and 19 (no string to copy); containerRunning's value at bit 24. An
 * absent field is "" (0 for a name).
 *
 * The keys are each object's own enumerable string keys, the JSON
 * route's own, listed by `for…in` (which makes no array, where
 * `Object.keys` made one an object: 20 ns a request less): the objects
 * are plain (their prototype is Object.prototype) and `inherited()` holds
 * that Object.prototype has no enumerable key, so `for…in` lists no key
 * but their own — an inherited key of a polluted Object.prototype is no
 * part of the request, and such a request crosses as JSON text. Each
 * value is read once by its name (a monomorphic load, where `Object.hasOwn`
 * on each key cost twice as much).
 */
function readCommon(r, ints, at, before) {
  if (!plainObject(r) || inherited()) return undefined;
  let a, c;
  for (const k in r) {
    if (k === "action") a = r.action;
    else if (k === "context") c = r.context;
    else return undefined;
  }
  if (!plainObject(a) || !plainObject(c)) return undefined;
  let mask = 0;
  let type = 0, command = "", cwd = "", agent = "", targetBranch = "";
  let role = 0, executionMode = 0, running = 0, projectScopeRoot = "";
  for (const k in a) {
    switch (k) {
      case "type": {
        const v = a.type;
        if (!clean(v)) return undefined;
        type = indexIn(TYPES, v);
        if (type < 0) return undefined;
        mask |= 1;
        break;
      }
      case "command": command = a.command; if (!clean(command)) return undefined; mask |= 2; break;
      case "cwd": cwd = a.cwd; if (!clean(cwd)) return undefined; mask |= 4; break;
      case "agent": agent = a.agent; if (!clean(agent)) return undefined; mask |= 8; break;
      case "targetBranch": targetBranch = a.targetBranch; if (!clean(targetBranch)) return undefined; mask |= 16; break;
      default: return undefined;
    }
  }
  for (const k in c) {
    switch (k) {
      case "role": {
        const v = c.role;
        if (!clean(v)) return undefined;
        role = indexIn(ROLES, v);
        if (role < 0) return undefined;
        mask |= 32;
        break;
      }
      case "executionMode": {
        const v = c.executionMode;
        if (!clean(v)) return undefined;
        executionMode = indexIn(MODES, v);
        if (executionMode < 0) return undefined;
        mask |= 64;
        break;
      }
      case "containerRunning": {
        const v = c.containerRunning;
        if (typeof v !== "boolean") return undefined;
        running = v ? 1 : 0;
        mask |= 128;
        break;
      }
      case "projectScopeRoot":
        projectScopeRoot = c.projectScopeRoot;
        if (!clean(projectScopeRoot)) return undefined;
        mask |= 256;
        break;
      default: return undefined;
    }
  }
  ints[at] = mask | (type << 9) | (role << 14) | (executionMode << 19) | (running << 24);
  ints[at + 1] = command.length;
  let text = command;
  // A string the request before in the batch (`before`) gave in the same
  // field, or the root equal to the cwd, crosses as a mark, not again.
  if ((mask & 4) !== 0 && before !== null && before.cwd === cwd) ints[at + 2] = SAME_AS_BEFORE;
  else {
    ints[at + 2] = cwd.length;
    text += cwd;
  }
  if ((mask & 8) !== 0 && before !== null && before.agent === agent) ints[at + 3] = SAME_AS_BEFORE;
  else {
    ints[at + 3] = agent.length;
    text += agent;
  }
  if ((mask & 16) !== 0 && before !== null && before.targetBranch === targetBranch) ints[at + 4] = SAME_AS_BEFORE;
  else {
    ints[at + 4] = targetBranch.length;
    text += targetBranch;
  }
  if ((mask & 256) !== 0 && before !== null && before.root === projectScopeRoot) ints[at + 5] = SAME_AS_BEFORE;
  else if ((mask & 260) === 260 && projectScopeRoot === cwd) ints[at + 5] = SAME_AS_CWD;
  else {
    ints[at + 5] = projectScopeRoot.length;
    text += projectScopeRoot;
  }
  if (before !== null) {
    // An absent field is `undefined` here: never `===` a string.
    before.cwd = (mask & 4) !== 0 ? cwd : undefined;
    before.agent = (mask & 8) !== 0 ? agent : undefined;
    before.targetBranch = (mask & 16) !== 0 ? targetBranch : undefined;
    before.root = (mask & 256) !== 0 ? projectScopeRoot : undefined;
  }
  return text;
}

/** Whether `for…in` over a plain object would list a key it does not
 * own: an enumerable key on Object.prototype (a polluted prototype). */
function inherited() {
  for (const k in Object.prototype) return true;
  return false;
}

/** decideMany's memory of the request before in a batch (readCommon). */
function Before() {
  this.cwd = undefined;
  this.agent = undefined;
  this.targetBranch = undefined;
  this.root = undefined;
}

/**
 * The decision object of the answer at ints[k] (decideBatch's): the
 * closed sets as indices in its code, its strings in `s` from `at` (rule,
 * source and scope root when present, then the message), their lengths
 * after the code; an object literal, its keys in `permc decide`'s order.
 * A string the batch answered before is not in `s`: its mark in the code
 * (four bits a string from bit 11: seen, then its slot) says which of
 * `seen`'s, the batch's strings kept by field and slot, it is; a string
 * of `s` is kept in the slot its mark says (src/fast.rs: `Seen`).
 */
function answerOf(s, ints, k, at, seen) {
  const code = ints[k];
  const d = { policy: POLICIES[code & 3], reason: REASONS[(code >> 2) & 31] };
  if (code & 512) {
    let m = (code >> 11) & 15;
    if (m & 1) d.rule = seen[m >> 1];
    else d.rule = seen[m >> 1] = s.slice(at, (at += ints[k + 1]));
    m = (code >> 15) & 15;
    if (m & 1) d.source = seen[8 + (m >> 1)];
    else d.source = seen[8 + (m >> 1)] = s.slice(at, (at += ints[k + 2]));
  }
  const origin = (code >> 7) & 3;
  if (origin !== 0) d.autonomyOrigin = ORIGINS[origin];
  if (code & 1024) {
    const m = (code >> 19) & 15;
    if (m & 1) d.scopeRoot = seen[16 + (m >> 1)];
    else d.scopeRoot = seen[16 + (m >> 1)] = s.slice(at, (at += ints[k + 3]));
  }
  const m = (code >> 23) & 15;
  if (m & 1) d.message = seen[24 + (m >> 1)];
  else {
    const end = at + ints[k + 4];
    d.message = seen[24 + (m >> 1)] = at === 0 && end === s.length ? s : s.slice(at, end);
  }
  return d;
}

/**
 * `text` (readCommon's) with every string `ints` marks as the last
 * call's (SAME_AS_BEFORE) written out, their lengths in `ints`: the
 * strings are the request's own, which readCommon kept in `b`.
 */
function unmarked(text, ints, b) {
  let at = ints[1];
  let out = text.slice(0, at);
  const fields = [b.cwd, b.agent, b.targetBranch, b.root];
  for (let f = 0; f < 4; f++) {
    const len = ints[2 + f];
    if (len === SAME_AS_BEFORE) {
      out += fields[f];
      ints[2 + f] = fields[f].length;
    } else if (len >= 0) {
      out += text.slice(at, at + len);
      at += len;
    }
  }
  return out;
}

/**
 * The decision for a common request (readCommon), decided by the addon
 * as a batch of one (decideBatch: its strings copied once, the answer's
 * back as one string, cut here; the strings of the last call not sent
 * again, nor made again: `one`); with `brief`, the policy and reason
 * alone (the compiled engine's answer, no string built). undefined for
 * any other request, and null when the addon's reader refuses the
 * fields: the request then crosses as JSON text.
 */
function decideFast(handle, r, brief) {
  const text = readCommon(r, ONE, 0, one.before);
  if (text === undefined) return undefined;
  const flags = brief ? BRIEF | CARRY_ON : CARRY_ON;
  ONE[EPOCH] = one.lo;
  ONE[EPOCH + 1] = one.hi;
  let s = native.decideBatch(handle, ONE_BUFFER, 1, text, flags);
  if (ONE[EPOCH] === -1 && ONE[EPOCH + 1] === -1) {
    // The addon holds no longer what `one` marks: sent again, whole (with
    // the epoch -1, -1, never current: the addon starts afresh).
    s = native.decideBatch(handle, ONE_BUFFER, 1, unmarked(text, ONE, one.before), flags);
    if (ONE[EPOCH] === -1 && ONE[EPOCH + 1] === -1) throw permcError("panic", "permc: the addon refused a whole request as stale");
  }
  const code = ONE[0];
  let d;
  if (code < 0) {
    one.before = new Before();
    d = null;
  } else if (brief) d = { policy: POLICIES[code & 3], reason: REASONS[(code >> 2) & 31] };
  else d = answerOf(s === null ? "" : s, ONE, 0, 0, one.seen);
  // Kept once the answer's strings are in their slots.
  one.lo = ONE[EPOCH];
  one.hi = ONE[EPOCH + 1];
  return d;
}

/** The decision for a request sent as JSON text, or the error thrown. */
function decideText(native, request) {
  let s;
  try {
    s = native.decideFields(requestText(request));
  } catch (e) {
    if (e && e.diagnostics) throw e;
    rethrow(e);
  }
  if (s.charCodeAt(0) === 123) {
    // `{`: the answer line (an error, an `id`, a field with a NUL).
    const v = JSON.parse(s);
    if (v.error) throw permcError(v.error.code, v.error.message);
    return v;
  }
  return decisionOf(s);
}

/** decideText's decision, or the PermcError it throws (decideMany). */
function decideTextOrError(native, request) {
  try {
    return decideText(native, request);
  } catch (e) {
    if (!(e instanceof PermcError)) throw e;
    return e;
  }
}

// The most requests decideMany sends in one crossing: their answers'
// strings (about 150 bytes each) stay one string of V8's young
// generation, under its large-object size (128 KiB; a string over it is
// a fresh page each time, whose faults were a tenth of decideMany).
const BATCH = 256;

/** decideMany's crossing: the `held` requests read into `ints` and
 * `text` decided by the policy of `handle`, each answer put in `out` at
 * its slot; `nativePolicy` decides a request the addon's reader refuses. */
function answerBatch(handle, nativePolicy, ints, text, held, slots, out) {
  const k = held.length;
  let s;
  try {
    s = native.decideBatch(handle, ints, k, text, 0);
  } catch (e) {
    rethrow(e);
  }
  // null: every answer's strings were given before in the batch.
  if (s === null) s = "";
  let at = 0;
  const seen = new Array(32);
  for (let j = 0; j < k; j++) {
    const b = STRIDE * j;
    if (ints[b] < 0) {
      // The addon's reader refused the fields: the CLI's error for the
      // request as written.
      out[slots[j]] = decideTextOrError(nativePolicy, held[j]);
      continue;
    }
    out[slots[j]] = answerOf(s, ints, b, at, seen);
    at += ints[b + 1] + ints[b + 2] + ints[b + 3] + ints[b + 4];
  }
}

class Policy {
  /** @param {object} nativePolicy */
  constructor(nativePolicy) {
    if (!(nativePolicy instanceof native.NativePolicy)) {
      throw permcError("invalid_argument", "load a policy with load(), loadText() or loadArtifact()");
    }
    this._native = nativePolicy;
    // Posting a policy to a worker would silently give it `{_native: {}}`:
    // this function makes structured clone throw, and its text (in the
    // DataCloneError's message) says what to post instead.
    this._post = () => { /* a permc Policy cannot be posted to a worker: post policy.artifact() and loadArtifact(bytes) there */ };
    // What decideBatch, a function of the addon, takes for the policy: a
    // method's `this` would be unwrapped each call (napi_unwrap). After
    // _post: structured clone meets the function, and its message, first.
    this._handle = nativePolicy.handle();
    Object.freeze(this);
  }

  /**
   * The policy as an artifact's bytes (`permc compile`'s format): post
   * them to a worker_thread and `loadArtifact(bytes)` there.
   */
  artifact() {
    try {
      const b = this._native.artifact();
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch (e) {
      if (e && e.diagnostics) throw e;
      rethrow(e);
    }
  }

  /** SPEC §10.2's decision for a §10.1 request; throws when it cannot be read. */
  decide(request) {
    let d;
    try {
      d = decideFast(this._handle, request, false);
    } catch (e) {
      if (e && e.diagnostics) throw e;
      rethrow(e);
    }
    // undefined: not the common request; null: the reader refused its
    // fields. The text path answers with the CLI's error for the request
    // as written.
    if (d) return d;
    return decideText(this._native, request);
  }

  /**
   * The policy and reason of a request's decision alone, `{ policy, reason
   * }`, for a hot path that needs nothing else: the compiled engine does
   * not build the decision's strings (rule, source, scope root, message).
   * Throws as `decide` does for a request that cannot be read.
   */
  decideBrief(request) {
    let d;
    try {
      d = decideFast(this._handle, request, true);
    } catch (e) {
      if (e && e.diagnostics) throw e;
      rethrow(e);
    }
    if (d) return d;
    const full = this.decide(request);
    return { policy: full.policy, reason: full.reason };
  }

  /**
   * The answer line `permc decide` prints for a request given as JSON text
   * (SPEC §10.1 → §10.2, or `{"error": …}`), byte for byte: Elixir's
   * `decide_json/2`. Throws only when `line` is not a string.
   */
  decideJson(line) {
    if (typeof line !== "string") {
      throw permcError("invalid_argument", "decideJson(line) takes a request as JSON text");
    }
    try {
      return this._native.decide(line);
    } catch (e) {
      rethrow(e);
    }
  }

  /**
   * The decisions for many requests, each in its request's slot: the
   * decision as `decide` returns it, or, for a request that cannot be
   * read, the PermcError `decide` would throw (not thrown: the others
   * are answered). Each request is read once, as by `decide`.
   */
  decideMany(requests) {
    if (!Array.isArray(requests)) {
      throw permcError("invalid_argument", "decideMany(requests) takes an array of requests");
    }
    const n = requests.length;
    const out = new Array(n);
    // The common requests cross together (decideBatch), BATCH at a time:
    // read here, each once, into `ints` and `text`; any other is decided
    // as JSON text now. All are this call's own: a getter that calls
    // decideMany again gets its own.
    const ints = new Int32Array(STRIDE * Math.min(n, BATCH));
    const held = [];
    const slots = [];
    let text = "";
    let before = new Before();
    for (let i = 0; i < n; i++) {
      const r = requests[i];
      let t;
      try {
        t = readCommon(r, ints, STRIDE * held.length, before);
      } catch (e) {
        if (e && e.diagnostics) throw e;
        rethrow(e);
      }
      if (t === undefined) {
        out[i] = decideTextOrError(this._native, r);
        continue;
      }
      text += t;
      held.push(r);
      slots.push(i);
      if (held.length === BATCH) {
        answerBatch(this._handle, this._native, ints, text, held, slots, out);
        held.length = 0;
        slots.length = 0;
        text = "";
        before = new Before();
      }
    }
    if (held.length > 0) answerBatch(this._handle, this._native, ints, text, held, slots, out);
    return out;
  }

  /** The text of `permc explain`. */
  explain(request) {
    try {
      return this._native.explain(requestText(request));
    } catch (e) {
      if (e && e.diagnostics) throw e;
      rethrow(e);
    }
  }

  /**
   * `permc explain --format json` as an object: the action and context as
   * read, the command's segments, every step of SPEC §5.3 that ran with
   * its outcome, the decision, and whether the engines agree.
   */
  explainData(request) {
    try {
      return JSON.parse(this._native.explainJson(requestText(request)));
    } catch (e) {
      if (e && e.diagnostics) throw e;
      rethrow(e);
    }
  }

  /** SPEC §7's outcome of always-allowing the request's action; nothing is written. */
  always(request) {
    try {
      return JSON.parse(this._native.always(requestText(request)));
    } catch (e) {
      if (e && e.diagnostics) throw e;
      rethrow(e);
    }
  }
}

/** A rule file's text (a string, a Buffer or a Uint8Array) as a Buffer. */
function bytes(name, v) {
  if (typeof v === "string") return Buffer.from(v, "utf8");
  if (Buffer.isBuffer(v)) return v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  throw permcError("invalid_argument", `${name} must be a string, a Buffer or a Uint8Array`);
}

function loading(f) {
  try {
    return new Policy(f());
  } catch (e) {
    if (e && e.diagnostics) throw e;
    rethrow(e);
  }
}

/**
 * Loads and compiles permissions.json and (optionally) autonomy.json and
 * the project config permc.toml, whose `[[command]]` rows describe the
 * project's own tools: `{permissions, autonomy, config}` are paths;
 * `{permissionsText, autonomyText, configText}` are the files' text
 * already in memory (as `loadText`).
 */
function load(options) {
  if (options === null || typeof options !== "object") {
    throw permcError("invalid_argument", "load({permissions, autonomy}) takes an object");
  }
  const { permissions, autonomy, config, permissionsText, autonomyText, configText } = options;
  if (permissionsText !== undefined || autonomyText !== undefined || configText !== undefined) {
    if (permissions !== undefined || autonomy !== undefined || config !== undefined) {
      throw permcError("invalid_argument", "load() takes paths ({permissions, autonomy, config}) or text ({permissionsText, autonomyText, configText}), not both");
    }
    return loadText({ permissions: permissionsText, autonomy: autonomyText, config: configText });
  }
  const a = autonomy === undefined || autonomy === null ? null : str("autonomy", autonomy);
  const c = config === undefined || config === null ? null : str("config", config);
  return loading(() => native.load(str("permissions", permissions), a, c));
}

/**
 * `load({permissions, autonomy})` off the main thread: the files are read
 * and compiled on libuv's thread pool, so the event loop goes on. A
 * promise of the policy; rejected with a PermcError.
 */
function loadAsync(options) {
  if (options === null || typeof options !== "object") {
    return Promise.reject(permcError("invalid_argument", "loadAsync({permissions, autonomy}) takes an object"));
  }
  let p, a, c;
  try {
    const { permissions, autonomy, config } = options;
    a = autonomy === undefined || autonomy === null ? null : str("autonomy", autonomy);
    c = config === undefined || config === null ? null : str("config", config);
    p = str("permissions", permissions);
  } catch (e) {
    return Promise.reject(e);
  }
  return native.loadAsync(p, a, c).then(
    (n) => new Policy(n),
    (e) => {
      if (e && e.diagnostics) throw e;
      rethrow(e);
    },
  );
}

/**
 * A policy that follows its rule files: `watch()`'s. Decides with the last
 * policy that loaded; when the files change it loads them anew (off the
 * main thread) and swaps atomically, or keeps the last good one when they
 * are broken, as `permc serve` does. Events: `reload` ({generation}) and
 * `reject` (the PermcError, its diagnostics the files' errors).
 */
class LivePolicy extends EventEmitter {
  constructor(files, policy, interval, persistent, seen) {
    super();
    this._files = files;
    this._policy = policy;
    this.generation = 1;
    this._loading = false;
    this._again = false;
    this._paths = watchedPaths(files);
    // The files' state when they were loaded, taken before the load: a
    // change made after it is seen at the first poll. (fs.watchFile took
    // its first state later, on the thread pool: a write made at once
    // after watch() could become that state and never be reloaded.)
    this._seen = seen || fileStates(this._paths);
    this._timer = setInterval(() => this._poll(), interval);
    if (!persistent) this._timer.unref();
  }

  _poll() {
    const now = fileStates(this._paths);
    if (now.some((state, i) => state !== this._seen[i])) {
      this._seen = now;
      this._reload();
    }
  }

  /** The policy in force now. */
  get policy() {
    return this._policy;
  }

  decide(request) {
    return this._policy.decide(request);
  }

  decideBrief(request) {
    return this._policy.decideBrief(request);
  }

  decideMany(requests) {
    return this._policy.decideMany(requests);
  }

  decideJson(line) {
    return this._policy.decideJson(line);
  }

  explain(request) {
    return this._policy.explain(request);
  }

  explainData(request) {
    return this._policy.explainData(request);
  }

  always(request) {
    return this._policy.always(request);
  }

  artifact() {
    return this._policy.artifact();
  }

  /** Stops watching the files. */
  close() {
    clearInterval(this._timer);
  }

  /** Loads the files now (as on a change); resolves when done. */
  reload() {
    return this._reload();
  }

  _reload() {
    // One load at a time; a change during a load loads again after it.
    if (this._loading) {
      this._again = true;
      return this._pending;
    }
    this._loading = true;
    this._pending = loadAsync(this._files)
      .then(
        (p) => {
          this._policy = p;
          this.generation += 1;
          this.emit("reload", { generation: this.generation });
        },
        (e) => {
          this.emit("reject", e);
        },
      )
      .finally(() => {
        this._loading = false;
        if (this._again) {
          this._again = false;
          this._reload();
        }
      });
    return this._pending;
  }
}

/**
 * Watches permissions.json and autonomy.json (paths), and permc.toml
 * (`config`) when given: the policy they load now (throws when they are
 * broken), then a new one each time one of them changes, swapped
 * atomically; broken files keep the last good policy.
 * `options.interval`: how often the files are polled, in ms (default 500);
 * `options.persistent`: whether watching keeps the process alive until
 * `close()` (default true). A change made once watch() has returned is
 * seen at the next poll.
 */
/** The watched paths of `files`: the rule files and permc.toml. */
function watchedPaths(files) {
  return [files.permissions, files.autonomy, files.config].filter((f) => typeof f === "string");
}

/** Each file's state (modification and change times, size, inode), or "missing". */
function fileStates(paths) {
  return paths.map((f) => {
    try {
      const s = fs.statSync(f);
      return `${s.mtimeMs}:${s.ctimeMs}:${s.size}:${s.ino}`;
    } catch {
      return "missing";
    }
  });
}

function watch(files, options = {}) {
  const seen = fileStates(watchedPaths(files));
  const policy = load(files);
  const o = options || {};
  const interval = o.interval !== undefined ? o.interval : 500;
  const persistent = o.persistent !== undefined ? Boolean(o.persistent) : true;
  // permc.toml's rows are part of the policy: kept on every reload, and
  // watched with the rule files.
  const kept = { permissions: files.permissions, autonomy: files.autonomy, config: files.config };
  return new LivePolicy(kept, policy, interval, persistent, seen);
}

/**
 * Compiles rule files held in memory: `{permissions, autonomy}` are the
 * files' text (strings, Buffers or Uint8Arrays); diagnostics name them
 * permissions.json and autonomy.json.
 */
function loadText(options) {
  if (options === null || typeof options !== "object") {
    throw permcError("invalid_argument", "loadText({permissions, autonomy}) takes an object");
  }
  const { permissions, autonomy, config } = options;
  const a = autonomy === undefined || autonomy === null ? null : bytes("autonomy", autonomy);
  const c = config === undefined || config === null ? null : bytes("config", config);
  const p = bytes("permissions", permissions);
  return loading(() => native.loadText(p, a, c));
}

/** Loads an artifact written by `permc compile`: its path, or its bytes (a Buffer or Uint8Array). */
function loadArtifact(file) {
  if (typeof file !== "string" && file instanceof Uint8Array) {
    const b = bytes("the artifact", file);
    return loading(() => native.loadArtifactBytes(b));
  }
  return loading(() => native.loadArtifact(str("path", file)));
}

/** SPEC §4's words and segments of a command line, as `permc tokens`. */
function tokens(command) {
  return JSON.parse(native.tokens(str("command", command)));
}

module.exports = { load, loadAsync, loadText, loadArtifact, watch, LivePolicy, tokens, Policy, PermcError };
