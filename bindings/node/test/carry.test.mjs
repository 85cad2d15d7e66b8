// decide and decideBrief keep the last call's strings (index.js's `one`,
// src/batch.rs's `Carry`): a cwd, agent, target branch or scope root equal
// to the last call's crosses as a mark, and an answer's string equal to
// one given before comes back as its slot. Every answer stays the CLI's,
// whatever came before it: other requests, refused ones, errors, a batch,
// a getter that decides while its request is read, and another copy of
// index.js on the same thread (whose calls make this copy's memory
// stale). And the strict reading still refuses a symbol key. Run by
// bindings/test.sh.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const ex = (f) => path.join(repo, "examples", f);
const require = createRequire(import.meta.url);
const index = require.resolve("../index.js");
const permc = require(index);
// A second copy of index.js (its own `one`), sharing the addon.
delete require.cache[index];
const other = require(index);
assert.notEqual(other, permc);

const files = { permissions: ex("permissions.json"), autonomy: ex("autonomy.json") };

const request = (command, cwd, agent, root, more = {}) => ({
  action: { type: "terminal", command, ...(cwd === undefined ? {} : { cwd }), ...(agent === undefined ? {} : { agent }), ...more },
  context: { role: "developer", executionMode: "container", containerRunning: true, ...(root === undefined ? {} : { projectScopeRoot: root }) },
});

// The CLI's answer for a request (decideJson: the JSON line's reader and
// writer), as decide gives it: the decision, or the error thrown.
function cli(policy, r) {
  const v = JSON.parse(policy.decideJson(JSON.stringify(r)));
  return v.error ? { error: v.error.code, message: v.error.message } : v;
}

function got(policy, r) {
  try {
    return policy.decide(r);
  } catch (e) {
    return { error: e.code, message: e.message };
  }
}

// decideBrief's answer, or the error, against the CLI's.
function brief(policy, r, name) {
  const want = cli(policy, r);
  let b;
  try {
    b = policy.decideBrief(r);
  } catch (e) {
    b = { error: e.code, message: e.message };
  }
  assert.deepEqual(b, want.error ? want : { policy: want.policy, reason: want.reason }, name);
}

const same = (policy, r, name) => assert.equal(JSON.stringify(got(policy, r)), JSON.stringify(cli(policy, r)), name);

// Requests sharing some strings with the one before and not others,
// absent fields, a root equal to the cwd, a targetBranch.
function sequence() {
  const a = "/home/ana/p";
  const b = "/home/ana/q";
  return [
    request("pnpm test", a, "dev-web", a),
    request("pnpm test", a, "dev-web", a),
    request("git status && pnpm test:unit", a, "dev-web", a),
    request("ls -la src", undefined, "dev-web", a),
    request("ls -la src", a, undefined, a),
    request("cat README.md", b, "dev-api", a),
    request("cat README.md", b, "dev-api", b),
    request("git push origin main", b, "dev-api", b, { targetBranch: "main" }),
    request("git push origin main", b, "dev-api", b, { targetBranch: "main" }),
    request("rm -rf /", b, "dev-api", b),
    request("pnpm test", a, "dev-web", undefined),
    request("pnpm test", "/tmp/x", "dev-web", a),
    request("pnpm test", a, "dev-web", a),
  ];
}

test("decide after decide: each answer is the CLI's, whatever the call before it shared", () => {
  const p = permc.load(files);
  const rs = sequence();
  for (let round = 0; round < 3; round++) {
    rs.forEach((r, i) => same(p, r, `round ${round}, request ${i}`));
    rs.reverse();
  }
});

test("decide between refused requests, errors, other shapes, decideBrief and decideMany", () => {
  const p = permc.load(files);
  const q = permc.load(files);
  const a = "/home/ana/p";
  const rs = sequence();
  const between = [
    () => request("pnpm test", a + "\ud800", "dev-web", a), // refused by the addon: crosses as JSON text
    () => request("pnpm test", a, "dev-web", a, { path: "x" }), // not the common shape
    () => ({ id: 7, ...request("pnpm test", a, "dev-web", a) }),
    () => request("pnpm test", a, "dev-web", 42), // an error
    () => request("a|".repeat(9_000_000), a, "dev-web", a), // too large
  ];
  for (const make of between) {
    for (const r of rs) {
      same(p, r, "before");
      const x = make();
      assert.equal(JSON.stringify(got(p, x)), JSON.stringify(cli(p, x)), "between");
      same(p, r, "after");
      brief(p, r, "decideBrief");
      same(p, r, "after decideBrief");
      const [, m] = p.decideMany([r, r]);
      assert.equal(JSON.stringify(m instanceof permc.PermcError ? { error: m.code, message: m.message } : m), JSON.stringify(cli(p, r)));
      same(p, r, "after decideMany");
      same(q, r, "another policy");
      same(p, r, "this policy again");
    }
  }
});

test("another copy of index.js on the same thread: each copy's answers stay the CLI's", () => {
  const p = permc.load(files);
  const o = other.load(files);
  const rs = sequence();
  for (let i = 0; i < rs.length; i++) {
    same(p, rs[i], `this copy, ${i}`);
    same(o, rs[(i + 1) % rs.length], `the other copy, ${i}`);
    same(p, rs[i], `this copy again, ${i}`);
    brief(o, rs[i], `the other copy's decideBrief, ${i}`);
    same(o, rs[i], `the other copy after its decideBrief, ${i}`);
  }
});

test("a getter that decides while its request is read: both answers are the CLI's", () => {
  const p = permc.load(files);
  const a = "/home/ana/p";
  const inner = request("rm -rf /", "/srv", "dev-api", "/srv");
  let innerAnswer;
  const action = { type: "terminal", cwd: a, agent: "dev-web" };
  Object.defineProperty(action, "command", {
    enumerable: true,
    get() {
      innerAnswer = p.decide(inner);
      return "pnpm test";
    },
  });
  const outer = { action, context: { role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: a } };
  same(p, request("ls", a, "dev-web", a), "before");
  const d = p.decide(outer);
  assert.equal(JSON.stringify(innerAnswer), JSON.stringify(cli(p, inner)));
  assert.equal(JSON.stringify(d), JSON.stringify(cli(p, request("pnpm test", a, "dev-web", a))));
  same(p, request("pnpm test", a, "dev-web", a), "after");
});

test("a symbol key on the request, its action or its context is refused by every call", () => {
  const p = permc.load(files);
  const a = "/home/ana/p";
  const r = request("pnpm test", a, "dev-web", a);
  const withSymbol = (o, enumerable) => {
    const c = { ...o };
    Object.defineProperty(c, Symbol("k"), { value: "x", enumerable });
    return c;
  };
  for (const enumerable of [true, false]) {
    for (const bad of [
      withSymbol(r, enumerable),
      { ...r, action: withSymbol(r.action, enumerable) },
      { ...r, context: withSymbol(r.context, enumerable) },
    ]) {
      same(p, r, "before");
      assert.throws(() => p.decide(bad), (e) => e.code === "invalid_field" && /symbol key/.test(e.message));
      assert.throws(() => p.decideBrief(bad), (e) => e.code === "invalid_field");
      const [m] = p.decideMany([bad]);
      assert.ok(m instanceof permc.PermcError && m.code === "invalid_field");
      same(p, r, "after");
    }
  }
});

test("policies whose rules differ at the same places: a kept rule's or message's strings are never another policy's", () => {
  // The addon keeps an answer's rule, source and message by the rule's
  // place in its policy (an entry's index, an autonomy rule's); two
  // policies' entry 0 and autonomy rule 0 say different things.
  const texts = (allow, agent, mode) => ({
    permissions: JSON.stringify({ permissions: { allow: [allow], deny: [], ask: [] } }),
    autonomy: JSON.stringify({ [agent]: { terminal: mode } }),
  });
  const p = permc.loadText(texts("Terminal(pnpm test)", "dev-web", "require_approval"));
  const q = permc.loadText(texts("Terminal(ls)", "dev-web", "auto_approve"));
  const a = "/home/ana/p";
  const rs = [request("pnpm test", a, "dev-web", a), request("ls", a, "dev-web", a), request("cat x", a, "dev-web", a)];
  for (let round = 0; round < 3; round++) {
    for (const r of rs) {
      for (const policy of [p, q, p, q]) {
        same(policy, r, `decide, round ${round}`);
        const [d] = policy.decideMany([r, r, r]).slice(1);
        assert.equal(JSON.stringify(d), JSON.stringify(cli(policy, r)), "decideMany");
      }
    }
  }
});
