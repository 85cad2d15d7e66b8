// Decisions per second through the addon (bindings/bench.sh runs this):
//   node bindings/node/bench/decide.mjs DIR
// DIR holds permissions-{10,100000}.json, autonomy.json and
// policy-100000.permc (benches/decide.rs' generated rules).
import path from "node:path";
import { load, loadArtifact } from "../index.mjs";

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

const ms = (f) => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const best = (runs, f) => Math.min(...Array.from({ length: runs }, () => ms(f)));

const n = 400_000;
for (const rules of [10, 100_000]) {
  const files = { permissions: path.join(dir, `permissions-${rules}.json`), autonomy: path.join(dir, "autonomy.json") };
  const loadMs = best(3, () => load(files));
  const p = load(files);
  const loop = (count) => {
    for (let i = 0; i < count; i++) p.decide(requests[i & 7]);
  };
  loop(50_000);
  const t = best(3, () => loop(n));
  console.log(
    `Node addon, ${rules} rules: ${Math.round((n / t) * 1000)} decisions/s (${((t * 1000) / n).toFixed(2)} µs each); load rule files ${loadMs.toFixed(2)} ms`,
  );
}
const art = path.join(dir, "policy-100000.permc");
// Every load, not only the best: a slow one is what a user meets.
const loads = Array.from({ length: 8 }, () => ms(() => loadArtifact(art)));
console.log(
  `Node addon: load the 100k-rule artifact ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} ms (8 loads: ${loads.map((x) => x.toFixed(1)).join(" ")})`,
);
