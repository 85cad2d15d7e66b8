// The addon in Node: every request of examples/ and tests/corpus/ answered
// as `permc decide` answers it (byte for byte), errors thrown with `code`
// and `diagnostics`, hostile values refused, 10,000 decisions without
// memory growth, the snippet of docs/bindings.md. Run by bindings/test.sh (which sets
// PERMC_CORPUS and PERMC): node --test --expose-gc test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import permc, { load, loadArtifact, tokens, PermcError } from "../index.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { triple } = createRequire(import.meta.url)("../platform.js");
const addonPath = path.join(here, `../permc.${triple()}.node`);
const repo = path.resolve(here, "../../..");
const corpus = process.env.PERMC_CORPUS || path.join(repo, "bindings/target/corpus");
const cli = process.env.PERMC || path.join(repo, "target/debug/permc");
const ex = (f) => path.join(repo, "examples", f);
const examples = () => load({ permissions: ex("permissions.json"), autonomy: ex("autonomy.json") });
const cases = () =>
  fs.readFileSync(path.join(corpus, "cases.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));

const base = {
  action: { type: "terminal", command: "ls", agent: "dev-web" },
  context: { role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: "/home/ana/p" },
};

// What the addon answers, in the CLI's shape: the decision, or the error.
function answer(policy, request) {
  try {
    return policy.decide(request);
  } catch (e) {
    assert.ok(e instanceof PermcError);
    assert.ok(Array.isArray(e.diagnostics));
    return { error: { code: e.code, message: e.message } };
  }
}

test("require and import give the same module", () => {
  const required = createRequire(import.meta.url)("..");
  assert.equal(required.load, load);
  assert.equal(permc.load, load);
});

test("every request of examples/ and the corpus: the addon answers as permc decide, byte for byte", () => {
  const all = cases();
  assert.ok(all.length > 1000);
  const policies = new Map();
  for (const c of all) {
    if (!policies.has(c.policy)) {
      const dir = path.join(corpus, c.policy);
      policies.set(c.policy, load({ permissions: path.join(dir, "permissions.json"), autonomy: path.join(dir, "autonomy.json") }));
    }
    const want = c.answer.error ? { error: c.answer.error } : c.answer;
    const got = answer(policies.get(c.policy), c.request);
    assert.equal(JSON.stringify(got), JSON.stringify(want), c.name);
  }
});

test("a request taken apart (no JSON text) answers as the same request as text, and as the CLI", () => {
  // index.js passes a request of known keys and string values as one
  // packed string; anything else, and anything the reader refuses, goes as
  // JSON text. Both ways must give permc decide's answer, byte for byte.
  const p = examples();
  const viaText = (req) => {
    const line = p._native.decide(JSON.stringify(req));
    return JSON.parse(line);
  };
  // The CLI answers a request it cannot read on stdout too (and exits 1).
  const viaCli = (req) =>
    JSON.parse(
      spawnSync(cli, ["decide", "--permissions", ex("permissions.json"), "--autonomy", ex("autonomy.json"), "--request", JSON.stringify(req)], {
        encoding: "utf8",
      }).stdout.trim(),
    );
  const reqs = [
    base,
    { ...base, action: { ...base.action, command: "git push origin main" } },
    { ...base, action: { ...base.action, command: "cat \ud800 x" } },
    { ...base, action: { ...base.action, command: "rm -rf /\u0000" } },
    { context: { ...base.context, role: "god" }, action: { ...base.action, type: "teleport" } },
    { action: { ...base.action, type: "teleport" }, context: { ...base.context, role: "god" } },
    { ...base, context: { ...base.context, executionMode: "runner", containerRunning: false } },
    { ...base, action: { type: "git_merge", targetBranch: "main", agent: "dev-api" } },
    { ...base, context: { role: "developer" } },
    { ...base, action: { ...base.action, cwd: "relative/dir" } },
    // One string crosses (index.js' packedOf): empty fields are present,
    // absent ones absent; a NUL in any field, or non-ASCII text in the
    // answer, must not change a byte.
    { ...base, action: { ...base.action, cwd: "", command: "" } },
    { ...base, action: { ...base.action, agent: "" }, context: { role: "developer", projectScopeRoot: "" } },
    { ...base, action: { ...base.action, agent: "dev\u0000web" } },
    { ...base, context: { ...base.context, projectScopeRoot: "/home/ana/p\u0000" } },
    { ...base, action: { ...base.action, command: "echo ação && rm -rf /tmp/ção" } },
    { ...base, action: { ...base.action, command: "git push origin 分支", cwd: "/home/ana/p/ção" } },
    // The answer's strings cross end to end in one string, cut at their
    // lengths in UTF-16 units: text outside the BMP (two units a
    // character) in the rule, the scope root and the message.
    { ...base, action: { ...base.action, command: "rm -rf /tmp/𝄞 && echo 𝄞" }, context: { ...base.context, projectScopeRoot: "/home/ana/lojä𝄞" } },
    { ...base, action: { ...base.action, agent: "dév𝄞" }, context: { ...base.context, projectScopeRoot: "/𝄞/p𝄞" } },
    { action: { type: "terminal", command: "ls" }, context: { role: "developer" } },
  ];
  for (const req of reqs) {
    const got = answer(p, req);
    const want = viaCli(req);
    assert.equal(JSON.stringify(got), JSON.stringify(want), JSON.stringify(req));
    assert.equal(JSON.stringify(got), JSON.stringify(viaText(req)), JSON.stringify(req));
  }
});

test("decideBrief: the policy and reason of decide's answer, or its error, for every request of the corpus", () => {
  const policies = new Map();
  for (const c of cases()) {
    if (!policies.has(c.policy)) {
      const dir = path.join(corpus, c.policy);
      policies.set(c.policy, load({ permissions: path.join(dir, "permissions.json"), autonomy: path.join(dir, "autonomy.json") }));
    }
    const p = policies.get(c.policy);
    let got;
    try {
      got = p.decideBrief(c.request);
    } catch (e) {
      assert.ok(e instanceof PermcError, c.name);
      got = { error: { code: e.code, message: e.message } };
    }
    const want = c.answer.error ? { error: c.answer.error } : { policy: c.answer.policy, reason: c.answer.reason };
    assert.equal(JSON.stringify(got), JSON.stringify(want), c.name);
  }
});

test("an artifact decides as its rule files; a corrupt one is refused", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-node-"));
  const art = path.join(dir, "policy.permc");
  execFileSync(cli, ["compile", "--permissions", ex("permissions.json"), "--autonomy", ex("autonomy.json"), "-o", art]);
  const a = loadArtifact(art);
  const p = examples();
  for (const c of cases().filter((c) => c.name.startsWith("examples/"))) {
    assert.deepEqual(answer(a, c.request), answer(p, c.request), c.name);
  }
  const bytes = fs.readFileSync(art);
  const flipped = Buffer.from(bytes);
  flipped[flipped.length >> 1] ^= 0xff;
  for (const bad of [bytes.subarray(0, bytes.length >> 1), flipped, Buffer.from("not an artifact"), Buffer.alloc(0)]) {
    fs.writeFileSync(art, bad);
    assert.throws(() => loadArtifact(art), (e) => e.code === "invalid_artifact" && e.diagnostics[0].file === art);
  }
  fs.rmSync(dir, { recursive: true });
  assert.throws(() => loadArtifact(art), (e) => e.code === "unreadable" && e.diagnostics.length === 1);
});

test("a rejected rule file: every error, with file, line, column, check and message", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-node-"));
  const perms = path.join(dir, "permissions.json");
  fs.writeFileSync(perms, '{"allow": ["Terminal(pnpm test", "Nope(x)"],\n "deny": 3}');
  assert.throws(
    () => load({ permissions: perms }),
    (e) => {
      assert.equal(e.code, "rejected");
      assert.ok(e.diagnostics.length >= 2);
      for (const d of e.diagnostics) {
        assert.equal(d.file, perms);
        assert.equal(typeof d.line, "number");
        assert.equal(typeof d.column, "number");
        assert.equal(typeof d.check, "string");
        assert.equal(typeof d.message, "string");
      }
      return true;
    },
  );
  const auto = path.join(dir, "autonomy.json");
  fs.writeFileSync(auto, '{"dev-api": {"terminal": "maybe"}}');
  fs.writeFileSync(perms, '{"allow": []}');
  assert.throws(() => load({ permissions: perms, autonomy: auto }), (e) => e.code === "rejected" && e.diagnostics[0].file === auto);
  assert.throws(() => load({ permissions: path.join(dir, "missing.json") }), (e) => e.code === "unreadable");
  assert.throws(() => load({ permissions: 42 }), (e) => e.code === "invalid_argument");
  assert.throws(() => load(null), (e) => e.code === "invalid_argument");
  assert.throws(() => loadArtifact({}), (e) => e.code === "invalid_argument");
  fs.rmSync(dir, { recursive: true });
});

test("bad requests throw with the CLI's code, never decide", () => {
  const p = examples();
  const code = (r) => {
    const a = answer(p, r);
    assert.ok(a.error, JSON.stringify(a));
    return a.error.code;
  };
  assert.equal(code({ ...base, context: { ...base.context, executonMode: "runner" } }), "unknown_field");
  assert.equal(code({ ...base, extra: 1 }), "unknown_field");
  assert.equal(code({ ...base, action: { ...base.action, type: "teleport" } }), "unknown_type");
  assert.equal(code({ ...base, context: { ...base.context, role: "god" } }), "unknown_role");
  assert.equal(code({ action: base.action }), "missing_field");
  assert.equal(code({ ...base, context: { ...base.context, containerRunning: "yes" } }), "invalid_field");
  assert.equal(code({ ...base, action: { ...base.action, cwd: undefined } }), "invalid_field");
  assert.equal(code("a string"), "invalid_request");
  assert.equal(code(null), "invalid_request");
  assert.throws(() => new permc.Policy({}), (e) => e.code === "invalid_argument");
});

const deep = (n, leaf) => {
  let v = leaf;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};

function hostile() {
  const big = "a".repeat(10_000_000);
  const cyclic = {};
  cyclic.self = cyclic;
  const getter = {};
  Object.defineProperty(getter, "x", { enumerable: true, get: () => { throw new Error("boom"); } });
  return [
    () => "ls", Symbol("ls"), 10n, undefined, NaN, Infinity, new Date(0), Buffer.from([0xff, 0xfe]), new Uint8Array(3),
    new Map([["a", 1]]), /ls/, Promise.resolve("ls"), cyclic, deep(10_000, "ls"), [[[[]]]], Object.create(null),
    { toJSON: () => "ls" }, { [Symbol("k")]: 1 }, new String("ls"), "ls \ud800", "\udfff", big, "ls " + big,
    -1, 1.5, true, null, {}, [], "auto_approve", getter,
  ];
}

test("hostile values in every field never crash and never yield auto_approve", () => {
  const p = examples();
  assert.equal(p.decide(base).policy, "auto_approve");
  const paths = [["action"], ["action", "type"], ["action", "command"], ["action", "cwd"], ["action", "agent"], ["action", "targetBranch"], ["context"], ["context", "role"], ["context", "executionMode"], ["context", "containerRunning"], ["context", "projectScopeRoot"], ["id"]];
  const put = (obj, [k, ...rest], v) => (rest.length === 0 ? { ...obj, [k]: v } : { ...obj, [k]: put(obj[k] ?? {}, rest, v) });
  for (const p1 of paths) {
    for (const h of hostile()) {
      const r = put(base, p1, h);
      for (const f of ["decide", "explain", "always"]) {
        let out;
        try {
          out = p[f](r);
        } catch (e) {
          assert.ok(e instanceof Error, String(e));
          continue;
        }
        // A string, a boolean or null (JSON's absent) may be a valid reading;
        // anything else in a known field is refused, so nothing it holds
        // is approved.
        const mayRead = typeof h === "string" || typeof h === "boolean" || h === null || ["id", "targetBranch"].includes(p1[p1.length - 1]);
        if (f === "decide" && out.policy === "auto_approve") {
          assert.ok(mayRead, `${p1.join(".")} = ${String(typeof h === "string" ? h.slice(0, 20) : typeof h)} approved`);
        }
      }
    }
  }
  for (const h of hostile()) {
    assert.throws(() => p.decide(h));
  }
  assert.throws(() => tokens(42), (e) => e.code === "invalid_argument");
  assert.equal(p.decide(base).policy, "auto_approve");
});

test("a panic inside the addon is thrown as an Error, and the addon goes on", () => {
  const native = createRequire(import.meta.url)(process.env.PERMC_NODE_ADDON || addonPath);
  assert.throws(() => native.panicForTest(), (e) => /panicked/.test(e.message));
  assert.equal(examples().decide(base).policy, "auto_approve");
});

// Issue 33, 12: a panic inside permc is thrown, not printed with a Rust
// backtrace on node's stderr.
test("a panic inside the addon prints nothing on stderr", () => {
  const addon = process.env.PERMC_NODE_ADDON || addonPath;
  const code = `const n = require(${JSON.stringify(addon)}); try { n.panicForTest(); } catch (e) { console.log("caught"); }`;
  const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8" });
  assert.equal(r.stdout.trim(), "caught");
  assert.doesNotMatch(r.stderr, /panicked at/);
});

// Issue 33, 7: a getter (or a Proxy) read twice showed `cwd: "/etc"` to
// the check and nothing to the decision: `cat passwd` was approved in the
// project root. The request is read once, into the snapshot decided.
test("a request is read once: a getter cannot show one cwd to the check and another to the decision", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-getter-"));
  const p = path.join(dir, "permissions.json");
  fs.writeFileSync(p, JSON.stringify({ allow: ["Terminal(cat)"] }));
  const policy = load({ permissions: p });
  let reads = 0;
  const action = { type: "terminal", command: "cat passwd" };
  Object.defineProperty(action, "cwd", {
    enumerable: true,
    get() {
      reads += 1;
      return reads === 1 ? "/etc" : undefined;
    },
  });
  const request = { id: 1, action, context: { role: "developer", executionMode: "runner", projectScopeRoot: "/home/ana/p" } };
  const d = policy.decide(request);
  assert.notEqual(d.policy, "auto_approve");
  assert.equal(reads, 1);
  fs.rmSync(dir, { recursive: true, force: true });
});

// Issue 33, 4: a request over 16 MiB (what serve takes in a line) is
// refused unread, and its error does not echo it.
test("a request over 16 MiB is refused with request_too_large", () => {
  const policy = examples();
  const huge = { ...base, action: { ...base.action, command: "a|".repeat(8_400_000) } };
  assert.throws(() => policy.decide({ ...huge, id: 1 }), (e) => e.code === "request_too_large" && e.message.length < 200);
  assert.throws(() => policy.decide(huge), (e) => e.code === "request_too_large");
  assert.throws(() => policy.explain(huge), (e) => e.code === "request_too_large");
});

test("policies loaded one after another are reported to V8 and taken back when collected", async () => {
  // Each policy reports an estimate of its memory to V8 (so that replaced
  // policies are collected early) and takes it back when finalized.
  assert.ok(global.gc, "run with --expose-gc");
  // The addon's own count of what it reported (napi_adjust_external_memory):
  // process.memoryUsage().external does not move with it on Node 20.
  const native = createRequire(import.meta.url)(process.env.PERMC_NODE_ADDON || addonPath);
  const external = () => {
    global.gc();
    return native.reportedExternalMemory();
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-node-"));
  const art = path.join(dir, "policy.permc");
  execFileSync(cli, ["compile", "--permissions", ex("permissions.json"), "--autonomy", ex("autonomy.json"), "-o", art]);
  const base0 = external();
  let p = examples();
  const held = external() - base0;
  assert.ok(held > 0, `a loaded policy reports its memory (${held} bytes)`);
  for (let i = 0; i < 200; i++) p = i % 2 ? examples() : loadArtifact(art);
  assert.equal(p.decide(base).policy, "auto_approve");
  p = null;
  // Finalizers run after the collection that found the objects dead.
  for (let i = 0; i < 20 && external() - base0 > held; i++) await new Promise((r) => setImmediate(r));
  assert.ok(external() - base0 <= held, `reported memory taken back (${external() - base0} bytes left)`);
});

test("10,000 decisions in a loop without growing memory", () => {
  assert.ok(global.gc, "run with --expose-gc");
  const p = examples();
  const requests = cases().filter((c) => c.name.startsWith("examples/") && !c.answer.error).map((c) => c.request);
  const round = () => {
    for (let i = 0; i < 10_000; i++) p.decide(requests[i % requests.length]);
    global.gc();
    return process.memoryUsage();
  };
  round(); // warm up
  const before = round();
  const after = [round(), round(), round()].pop();
  const grew = (k) => after[k] - before[k];
  assert.ok(grew("heapUsed") < 2_000_000, `heap grew ${grew("heapUsed")} bytes`);
  assert.ok(grew("external") < 1_000_000, `external grew ${grew("external")} bytes`);
  assert.ok(grew("rss") < 8_000_000, `rss grew ${grew("rss")} bytes`);
});

test("explain, tokens and always give what the CLI prints", () => {
  const p = examples();
  assert.match(p.explain(base), /decision: auto_approve/);
  assert.deepEqual(tokens("cat x 2>/dev/null"), {
    unparsed: false,
    why: [],
    segments: [{ words: ["cat", "x"], redirects: [{ op: "2>", target: "/dev/null" }], nested: false, context: "line" }],
  });
  const noAgent = { ...base, action: { type: "terminal", command: "pnpm lint --fix" } };
  assert.equal(p.always(noAgent).outcome, "patterns");
  assert.equal(p.always({ ...noAgent, action: { type: "terminal", command: "git push" } }).outcome, "refused");
  const viaCli = execFileSync(cli, ["always", "--permissions", ex("permissions.json"), "--autonomy", ex("autonomy.json"), "--request", JSON.stringify(noAgent)]);
  assert.deepEqual(p.always(noAgent), JSON.parse(viaCli));
});

test("the Node/TypeScript snippet of docs/bindings.md runs", () => {
  const page = fs.readFileSync(path.join(repo, "docs", "bindings.md"), "utf8");
  const section = page.split("## Node/TypeScript\n")[1];
  const code = section.split("```js\n")[1].split("```")[0];
  const cwd = process.cwd();
  process.chdir(repo);
  try {
    // The snippet is what an installed package's user writes,
    // `require("permc")`: here that name is this folder.
    const req = createRequire(path.join(repo, "README.md"));
    const mapped = (id) => req(id === "permc" ? path.join(repo, "bindings", "node") : id);
    new Function("require", code)(mapped);
  } finally {
    process.chdir(cwd);
  }
});

// `permc check --format json`'s diagnostics of one file.
function checked(file) {
  const r = spawnSync(cli, ["check", "--format", "json", file], { encoding: "utf8" });
  const v = JSON.parse(r.stdout);
  assert.equal(v.version, 1);
  return v.diagnostics;
}

test("load errors carry `permc check --format json`'s diagnostics, in its shape", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-node-"));
  const missing = path.join(dir, "missing.json");
  const perms = path.join(dir, "permissions.json");
  fs.writeFileSync(perms, '{"allow": ["Terminal(pnpm test", "Nope(x)"],\n "deny": 3}');
  const keys = Object.keys(checked(perms)[0]).sort();
  assert.deepEqual(keys, ["check", "column", "endColumn", "endLine", "file", "help", "line", "message", "related", "severity"]);
  const same = (code, want) => (e) => {
    assert.equal(e.code, code);
    assert.equal(e.version, 1);
    assert.deepEqual(e.diagnostics, want);
    return true;
  };
  // An unreadable file: check's `unreadable-file`, null positions, its help.
  const unreadable = checked(missing);
  assert.equal(unreadable.length, 1);
  assert.equal(unreadable[0].check, "unreadable-file");
  assert.equal(unreadable[0].line, null);
  assert.equal(unreadable[0].column, null);
  assert.equal(typeof unreadable[0].help, "string");
  assert.throws(() => load({ permissions: missing }), same("unreadable", unreadable));
  assert.throws(() => load({ permissions: ex("permissions.json"), autonomy: missing }), same("unreadable", unreadable));
  assert.throws(() => loadArtifact(missing), same("unreadable", unreadable));
  // A rejected file: check's errors.
  const errors = checked(perms).filter((d) => d.severity === "error");
  assert.ok(errors.length >= 2);
  assert.throws(() => load({ permissions: perms }), same("rejected", errors));
  // Not an artifact: one diagnostic about the whole file, in that shape.
  assert.throws(
    () => loadArtifact(perms),
    (e) => {
      assert.equal(e.code, "invalid_artifact");
      assert.equal(e.diagnostics.length, 1);
      assert.deepEqual(Object.keys(e.diagnostics[0]).sort(), keys);
      assert.equal(e.diagnostics[0].file, perms);
      assert.equal(e.diagnostics[0].check, "artifact"); // as permc serve's load_failed
      assert.equal(e.diagnostics[0].line, null);
      assert.deepEqual(e.diagnostics[0].related, []);
      return true;
    },
  );
  fs.rmSync(dir, { recursive: true });
});

test("decideJson answers a JSON line as permc decide prints it, byte for byte (issue 43)", () => {
  const p = examples();
  const line = JSON.stringify(base);
  const viaCli = execFileSync(cli, ["decide", "--permissions", ex("permissions.json"), "--autonomy", ex("autonomy.json"), "--request", line]).toString().trimEnd();
  assert.equal(p.decideJson(line), viaCli);
  assert.match(p.decideJson("{not json"), /^\{"error":\{"code":/);
  assert.throws(() => p.decideJson(42), (e) => e.code === "invalid_argument");
});
