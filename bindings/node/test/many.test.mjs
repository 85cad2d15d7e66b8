// Policy.decideMany: many requests in one call, each answered in its slot
// as decide answers it (issue 44), errors returned in their slots, never
// thrown past the others and never an approval. Run by bindings/test.sh.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { load, watch, PermcError } from "../index.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const corpus = process.env.PERMC_CORPUS || path.join(repo, "bindings/target/corpus");
const ex = (f) => path.join(repo, "examples", f);

const base = {
  action: { type: "terminal", command: "pnpm test", agent: "dev-web" },
  context: { role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: "/home/ana/p" },
};

// decide's answer, or the error it throws, as a value.
function one(policy, request) {
  try {
    return policy.decide(request);
  } catch (e) {
    assert.ok(e instanceof PermcError);
    return e;
  }
}

const same = (got, want, name) => {
  if (want instanceof PermcError) {
    assert.ok(got instanceof PermcError, name);
    assert.equal(got.code, want.code, name);
    assert.equal(got.message, want.message, name);
  } else {
    assert.equal(JSON.stringify(got), JSON.stringify(want), name);
  }
};

test("decideMany answers every request of the corpus in its slot as decide does", () => {
  const cases = fs.readFileSync(path.join(corpus, "cases.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const byPolicy = new Map();
  for (const c of cases) {
    if (!byPolicy.has(c.policy)) byPolicy.set(c.policy, []);
    byPolicy.get(c.policy).push(c);
  }
  for (const [dir, cs] of byPolicy) {
    const d = path.join(corpus, dir);
    const p = load({ permissions: path.join(d, "permissions.json"), autonomy: path.join(d, "autonomy.json") });
    const got = p.decideMany(cs.map((c) => c.request));
    assert.equal(got.length, cs.length);
    cs.forEach((c, i) => {
      // The CLI's answer, field for field (an error's code and message).
      const want = c.answer.error ? new PermcError(c.answer.error.code, c.answer.error.message) : c.answer;
      same(got[i], want, c.name);
    });
  }
});

test("decideMany: errors in a batch are answered in their slots, never as approvals", () => {
  const p = load({ permissions: ex("permissions.json"), autonomy: ex("autonomy.json") });
  let reads = 0;
  const getter = {
    action: { type: "terminal", agent: "dev-web", get command() { reads += 1; return reads === 1 ? "pnpm test" : "rm -rf /"; } },
    context: base.context,
  };
  const batch = [
    base,
    { ...base, context: { ...base.context, executonMode: "runner" } },
    { ...base, action: { ...base.action, cwd: undefined } },
    { ...base, action: { ...base.action, command: 42 } },
    { ...base, id: 7 },
    null,
    "not a request",
    { ...base, action: { ...base.action, type: "launch_missiles" } },
    { ...base, context: { ...base.context, role: "god" } },
    getter,
    { ...base, action: { ...base.action, command: "pnpm test\0x" } },
  ];
  const got = p.decideMany(batch);
  assert.equal(got.length, batch.length);
  reads = 0;
  const want = batch.map((r) => one(p, r));
  got.forEach((g, i) => same(g, want[i], `slot ${i}`));
  assert.equal(got[0].policy, "auto_approve");
  assert.equal(got[1].code, "unknown_field");
  for (const i of [1, 2, 3, 5, 6, 7, 8]) assert.ok(got[i] instanceof PermcError, `slot ${i}`);
  assert.equal(got[4].id, 7);
  assert.deepEqual(p.decideMany([]), []);
  assert.throws(() => p.decideMany(base), (e) => e instanceof PermcError && e.code === "invalid_argument");
  // A getter is read once: the decision is of what was read.
  reads = 0;
  const [g] = p.decideMany([getter]);
  assert.equal(reads, 1);
  same(g, one(p, { ...getter, action: { type: "terminal", agent: "dev-web", command: "pnpm test" } }), "getter");
});

test("decideMany through a watched policy and from the fast path agrees with the JSON path", () => {
  const files = { permissions: ex("permissions.json"), autonomy: ex("autonomy.json") };
  const live = watch(files, { persistent: false });
  try {
    const p = live.policy;
    const reqs = ["pnpm test", "ls -la", "git push --force", "cat ~/.ssh/id_rsa", "cd /etc && ls", "ünïcödé"].map((command) => ({
      ...base,
      action: { ...base.action, command, cwd: "/home/ana/p/src", targetBranch: "main" },
    }));
    const got = live.decideMany(reqs);
    reqs.forEach((r, i) => {
      // With an id the request crosses as JSON text: the same decision.
      const viaText = p.decide({ ...r, id: 1 });
      delete viaText.id;
      same(got[i], viaText, r.action.command);
    });
  } finally {
    live.close();
  }
});

test("decideMany crosses in batches: past a batch's size, mixed with refused and text requests, and from a getter", () => {
  const p = load({ permissions: ex("permissions.json"), autonomy: ex("autonomy.json") });
  const kinds = [
    (i) => ({ ...base, action: { ...base.action, command: `pnpm test ${i}`, cwd: "/home/ana/p/ünï" } }),
    // Read by index.js, refused by the addon's reader (no projectScopeRoot).
    () => ({ action: base.action, context: { role: "developer" } }),
    (i) => ({ ...base, id: i }),
    (i) => ({ ...base, action: { ...base.action, command: `ls ${"x".repeat(i % 300)} 😀` } }),
    () => 7,
  ];
  const batch = Array.from({ length: 1200 }, (_, i) => kinds[i % kinds.length](i));
  const got = p.decideMany(batch);
  assert.equal(got.length, batch.length);
  got.forEach((g, i) => same(g, one(p, batch[i]), `slot ${i}`));
  // A getter that decides a batch of its own while this one is read.
  let inner;
  const reentrant = {
    action: { type: "terminal", agent: "dev-web", get command() { inner = p.decideMany(batch.slice(0, 300)); return "pnpm test"; } },
    context: base.context,
  };
  const outer = p.decideMany([...batch.slice(0, 10), reentrant, ...batch.slice(10, 300)]);
  inner.forEach((g, i) => same(g, got[i], `inner ${i}`));
  same(outer[10], one(p, { ...reentrant, action: { type: "terminal", agent: "dev-web", command: "pnpm test" } }), "reentrant");
  outer.slice(11).forEach((g, i) => same(g, got[10 + i], `outer ${i}`));
});

// A field equal to the request before's, or a root equal to the cwd,
// crosses as a mark, and an answer's string the batch gave before as
// its slot: neighbours that share some strings and change others, a
// shared string the addon refuses (a lone surrogate), absent fields.
test("decideMany: strings shared with the request before, and answers' strings shared, read as each request says", () => {
  const p = load({ permissions: ex("permissions.json"), autonomy: ex("autonomy.json") });
  const root = "/home/ana/p";
  const cwds = [root, root, "/etc", root, undefined, `${root}/src`, `${root}/src`, "/tmp/\ud800", "/tmp/\ud800", root, "/"];
  const agents = ["dev-web", "dev-web", "dev-api", undefined, "dev-web", ""];
  const roots = [root, root, "/home/ana", root, `${root}/src`, "/"];
  const commands = ["pnpm test", "cat /etc/passwd", "ls", "pnpm test", "rm -rf /", "git push"];
  const batch = [];
  for (let i = 0; i < 700; i++) {
    const action = { type: "terminal", command: commands[i % commands.length] };
    const cwd = cwds[i % cwds.length];
    if (cwd !== undefined) action.cwd = cwd;
    const agent = agents[i % agents.length];
    if (agent !== undefined) action.agent = agent;
    if (i % 13 === 0) action.targetBranch = i % 2 ? "main" : "dev";
    batch.push({ action, context: { role: "developer", executionMode: "runner", projectScopeRoot: roots[i % roots.length] } });
  }
  const got = p.decideMany(batch);
  assert.equal(got.length, batch.length);
  got.forEach((g, i) => same(g, one(p, batch[i]), `slot ${i}`));
  assert.ok(new Set(got.map((g) => JSON.stringify(g))).size > 5);
  assert.ok(got.some((g) => g.policy === "auto_approve") && got.some((g) => g.policy !== "auto_approve"));
});

test("a polluted Object.prototype adds no field to a request", () => {
  const policy = load({ permissions: ex("permissions.json"), autonomy: ex("autonomy.json") });
  const request = {
    action: { type: "terminal", agent: "dev-web" },
    context: { role: "developer", executionMode: "runner", projectScopeRoot: "/home/ana/p" },
  };
  const clean = one(policy, request);
  const cleanMany = policy.decideMany([request])[0];
  Object.prototype.command = "pnpm test";
  Object.prototype.executionMode = "container";
  try {
    // The request's own keys only, as the JSON route and `permc decide`
    // read them: the inherited `command` is no part of it.
    same(one(policy, request), clean, "decide");
    same(policy.decideMany([request])[0], cleanMany, "decideMany");
  } finally {
    delete Object.prototype.command;
    delete Object.prototype.executionMode;
  }
});
