// The addon's calls against the in-process work on the same input, in one
// run (issue 44; bindings/bench.sh runs this):
//   node bindings/node/bench/crossing.mjs DIR
// DIR holds permissions-{10,100000}.json and autonomy.json
// (benches/decide.rs' generated rules).
//
// For each policy: decide (an object) against the decision from a built
// request with every string built; decideMany over 1,000 objects against
// the same. The in-process figures are timed by the addon itself
// (benchInProcess: same build, allocator, policy and requests). Rounds
// are interleaved and the fastest of each kept, so a change of the
// machine's load touches all alike; each line prints the ratio and both
// times.
import path from "node:path";
import fs from "node:fs";
import { load } from "../index.mjs";

const dir = process.argv[2];
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
const batch = Array.from({ length: 1000 }, (_, i) => requests[i & 7]);

const nsPer = (count, f) => {
  const t = process.hrtime.bigint();
  f(count);
  return Number(process.hrtime.bigint() - t) / count;
};
const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;
const line = (name, ns, base, target) => {
  const ratio = ns / base;
  const verdict = ratio <= target ? `≤ ${target}x` : `OVER ${target}x`;
  console.log(`  ${name.padEnd(34)} ${us(ns)}  in-process ${us(base)}  ratio ${ratio.toFixed(2)}x (${verdict})`);
};

const load1 = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`# Node addon against in-process, one loop; load: ${load1}`);
const n = 200_000;
for (const rules of [10, 100_000]) {
  const p = load({ permissions: path.join(dir, `permissions-${rules}.json`), autonomy: path.join(dir, "autonomy.json") });
  const decide = (count) => {
    for (let i = 0; i < count; i++) p.decide(requests[i & 7]);
  };
  const many = (count) => {
    for (let i = 0; i < count; i += 1000) p.decideMany(batch);
  };
  decide(50_000);
  many(50_000);
  const best = { inp: Infinity, decide: Infinity, many: Infinity };
  for (let round = 0; round < 5; round++) {
    best.inp = Math.min(best.inp, p._native.benchInProcess(lines, n, false));
    best.decide = Math.min(best.decide, nsPer(n, decide));
    best.many = Math.min(best.many, nsPer(n, many));
  }
  console.log(`Node addon, ${rules} rules (best of 5 interleaved rounds of ${n}):`);
  line("decide (an object)", best.decide, best.inp, 2);
  line("decideMany (1,000 objects), a request", best.many, best.inp, 1.3);
}
