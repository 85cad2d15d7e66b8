// Where a request of decideMany goes (issue 44): its parts timed apart, in
// CPU time, against the in-process decision, in one process:
//   PERMC_NODE_ADDON=… node bindings/node/bench/split.mjs DIR [RULES]
// DIR holds permissions-{10,100000}.json and autonomy.json (bench.sh's);
// RULES is 10 (default) or 100000.
//
//   in-process   the decision from a built request, every string of the
//                answer built (benchInProcess mode 0)
//   read         index.js's reading of 256 requests (readCommon: the strict
//                checks, each value once) and their strings joined, no
//                crossing; "read, no symbols" the same without the
//                Object.getOwnPropertySymbols check of its three objects
//   checks       the strict checks alone, no value read: plainObject (the
//                prototype and Object.getOwnPropertySymbols) on each
//                request, its action and its context — what any strict
//                reading costs before its first value
//   addon        decideBatch on 256 requests already read: the crossing in
//                and out, the strings turned to UTF-8, the requests built,
//                decided, the answers' string made
//   answers      the answer objects made from decideBatch's string
//   decideMany   the whole call, 1,000 requests
//
// readCommon, plainObject and answerOf are index.js's own, taken from its
// text (they are not exported); the names' lists are the addon's.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const permc = require(path.join(here, "../index.js"));
const dir = process.argv[2];
const rules = process.argv[3] || "10";
const p = permc.load({ permissions: path.join(dir, `permissions-${rules}.json`), autonomy: path.join(dir, "autonomy.json") });
const native = p._native;
const addon = require(process.env.PERMC_NODE_ADDON);

const src = fs.readFileSync(path.join(here, "../index.js"), "utf8");
const grab = (name) => src.match(new RegExp(`function ${name}\\([\\s\\S]*?\\n}\\n`))[0];
const names = JSON.parse(addon.fieldNames());
const vocabulary = JSON.parse(addon.vocabulary());
const indices = (list) => list.slice();
const make = (plain) =>
  new Function("TYPES", "ROLES", "MODES", "POLICIES", "REASONS", "ORIGINS",
    "const SAME_AS_BEFORE = -1, SAME_AS_CWD = -2;" + grab("indexIn") + grab("clean") + grab("inherited") + plain + grab("readCommon") + grab("Before") + grab("answerOf") +
      "return { readCommon, answerOf, Before, plainObject };",
  )(indices(names.types), indices(names.roles), indices(names.modes), vocabulary.policies, vocabulary.reasons, [undefined, "specific", "wildcard"]);
const full = make(grab("plainObject"));
const noSymbols = make(grab("plainObject").replace(/&&\s*Object\.getOwnPropertySymbols\(v\)\.length === 0/, ""));

const commands = [
  "pnpm test",
  "git status && pnpm test:unit",
  "cd src && npm run build | tee out.log",
  "cargo test --workspace",
  "ls -la src",
  "git diff HEAD~1 -- src/main.rs",
  "npm run script42 && echo done",
  "grep -rn TODO src | wc -l",
];
const root = "/home/ana/projetos/loja-1a2b3c4d";
const requests = commands.map((command) => ({
  action: { type: "terminal", command, cwd: root, agent: "dev-api" },
  context: { role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: root },
}));
const lines = requests.map((r) => JSON.stringify(r));
const B = 256;
const batch = Array.from({ length: B }, (_, i) => requests[i & 7]);
const many = Array.from({ length: 1000 }, (_, i) => requests[i & 7]);
const ints = new Int32Array(6 * B);
let text = "";
const before = new full.Before();
for (let i = 0; i < B; i++) text += full.readCommon(batch[i], ints, 6 * i, before);
const read = Int32Array.from(ints);
const answered = Int32Array.from(ints);
const s = addon.decideBatch(p._handle, answered, B, text, 0);

const reading = (f) => (n) => {
  for (let k = 0; k < n; k += B) {
    let t = "";
    const before = new f.Before();
    for (let i = 0; i < B; i++) t += f.readCommon(batch[i], ints, 6 * i, before);
    if (t.length === 0) throw new Error("nothing read");
  }
};
const parts = {
  "in-process": (n) => native.benchInProcess(lines, n, 0),
  read: reading(full),
  "read, no symbols": reading(noSymbols),
  checks: (n) => {
    let k = 0;
    for (let i = 0; i < n; i++) {
      const r = batch[i & (B - 1)];
      if (full.plainObject(r) && full.plainObject(r.action) && full.plainObject(r.context)) k++;
    }
    if (k !== n) throw new Error("not plain");
  },
  addon: (n) => {
    for (let k = 0; k < n; k += B) {
      ints.set(read);
      addon.decideBatch(p._handle, ints, B, text, 0);
    }
  },
  answers: (n) => {
    const out = new Array(B);
    for (let k = 0; k < n; k += B) {
      let at = 0;
      const seen = new Array(32);
      for (let j = 0; j < B; j++) {
        const b = 6 * j;
        out[j] = full.answerOf(s, answered, b, at, seen);
        at += answered[b + 1] + answered[b + 2] + answered[b + 3] + answered[b + 4];
      }
    }
  },
  decideMany: (n) => {
    for (let k = 0; k < n; k += 1000) p.decideMany(many);
  },
};
const cpu = (f, n) => {
  const c = process.cpuUsage();
  f(n);
  const d = process.cpuUsage(c);
  return ((d.user + d.system) * 1000) / n;
};
const best = {};
for (let round = 0; round < 9; round++) {
  for (const [k, f] of Object.entries(parts)) best[k] = Math.min(best[k] ?? Infinity, cpu(f, 51_200));
}
const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`# decideMany's parts, ${rules} rules, CPU ns a request (best of 9 rounds; load ${load}):`);
for (const [k, v] of Object.entries(best)) console.log(`  ${k.padEnd(18)} ${v.toFixed(0)} ns`);
console.log(`  the addon beyond the decision: ${(best.addon - best["in-process"]).toFixed(0)} ns; the symbol checks: ${(best.read - best["read, no symbols"]).toFixed(0)} ns`);
console.log(
  `  1.3x leaves the crossing ${(0.3 * best["in-process"]).toFixed(0)} ns a request; the strict checks alone take ${best.checks.toFixed(0)} ns, ` +
    `and with the addon beyond the decision ${(best.checks + best.addon - best["in-process"]).toFixed(0)} ns`,
);
