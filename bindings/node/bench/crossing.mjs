// The addon's calls against the in-process work on the same input, in one
// run (issue 44; bindings/bench.sh runs this):
//   node bindings/node/bench/crossing.mjs DIR
// DIR holds permissions-{10,100000}.json and autonomy.json
// (benches/decide.rs' generated rules).
//
// For each policy: decide (an object) against the decision from a built
// request with every string built; decideMany over 1,000 objects against
// the same; decideBrief (policy and reason alone) against the compiled
// engine's answer without its strings. The in-process figures are timed by the addon itself
// (benchInProcess: same build, allocator, policy and requests). Rounds
// are interleaved and the fastest of each kept, so a change of the
// machine's load touches all alike; each line prints the ratio of CPU
// times and of wall times, with the times.
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

// [wall ns, CPU ns] a request of `f`, which runs `count` requests: CPU
// time is the process's (process.cpuUsage), what the work cost on a
// machine shared with other builds; wall time adds the waits for a core.
const measure = (count, f) => {
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  f(count);
  const wall = Number(process.hrtime.bigint() - t) / count;
  const d = process.cpuUsage(c);
  return [wall, ((d.user + d.system) * 1000) / count];
};
const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;
const line = (name, [wall, cpu], [inWall, inCpu], target) => {
  const ratio = cpu / inCpu;
  const verdict = ratio <= target ? `≤ ${target}x` : `OVER ${target}x`;
  console.log(
    `  ${name.padEnd(38)} CPU ${us(cpu)} / in-process ${us(inCpu)} = ${ratio.toFixed(2)}x (${verdict}); ` +
      `wall ${us(wall)} / ${us(inWall)} = ${(wall / inWall).toFixed(2)}x`,
  );
};
const min2 = (a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1])];

const load1 = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`# Node addon against in-process, one loop; load: ${load1}`);
const n = 100_000;
const rounds = 9;
for (const rules of [10, 100_000]) {
  const p = load({ permissions: path.join(dir, `permissions-${rules}.json`), autonomy: path.join(dir, "autonomy.json") });
  const decide = (count) => {
    for (let i = 0; i < count; i++) p.decide(requests[i & 7]);
  };
  const many = (count) => {
    for (let i = 0; i < count; i += 1000) p.decideMany(batch);
  };
  const brief = (count) => {
    for (let i = 0; i < count; i++) p.decideBrief(requests[i & 7]);
  };
  decide(50_000);
  many(50_000);
  brief(50_000);
  const none = [Infinity, Infinity];
  const best = { inp: none, decide: none, many: none, inBrief: none, brief: none };
  // benchInProcess's modes: 0 the decision with its strings, 2 policy and
  // reason alone (src/lib.rs).
  for (let round = 0; round < rounds; round++) {
    best.inp = min2(best.inp, measure(n, (count) => p._native.benchInProcess(lines, count, 0)));
    best.decide = min2(best.decide, measure(n, decide));
    best.many = min2(best.many, measure(n, many));
    best.inBrief = min2(best.inBrief, measure(n, (count) => p._native.benchInProcess(lines, count, 2)));
    best.brief = min2(best.brief, measure(n, brief));
  }
  console.log(`Node addon, ${rules} rules (best of ${rounds} interleaved rounds of ${n}; the target is on CPU time):`);
  line("decide (an object)", best.decide, best.inp, 2);
  line("decideMany (1,000 objects), a request", best.many, best.inp, 1.3);
  line("decideBrief (policy, reason)", best.brief, best.inBrief, 2);
}
