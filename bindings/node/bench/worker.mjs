// Sharing a policy with worker_threads: the artifact's bytes posted to a
// worker and loadArtifact(bytes) there, against the worker compiling the
// rule files itself, on N generated rules (default 20,000 and 100,000):
//   node bindings/node/bench/worker.mjs [N…]
// Per size, the median and range of RUNS (default 5) of:
//   artifactMs      policy.artifact() in the main thread (the bytes made);
//   postToReadyMs   postMessage(bytes, [buffer]) to the worker's "ready",
//                   worker already started (transfer, the bytes not copied);
//   loadInWorkerMs  loadArtifact(bytes) inside the worker;
//   compileInWorkerMs  load({permissions}) inside the worker instead;
//   decidePerSec    decisions/s in the worker (one loop, 200,000 calls),
//                   and decideMainPerSec the same loop in the main thread.
// The addon is PERMC_NODE_ADDON, else this platform's build beside
// index.js (`npm run build` makes the release one).
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { fileURLToPath, pathToFileURL } from "node:url";
import { load } from "../index.mjs";

const index = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "index.mjs")).href;
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const runs = Number(process.env.RUNS || 5);
const root = "/home/ana/projetos/loja-1a2b3c4d";
const request = {
  action: { type: "terminal", command: "git status && pnpm test:unit", cwd: root, agent: "dev-api" },
  context: { role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: root },
};

// The worker: loads what it is sent, says how long it took, then times
// decisions when asked.
const workerSource = `
import { parentPort } from "node:worker_threads";
const { load, loadArtifact } = await import(${JSON.stringify(index)});
let policy;
parentPort.on("message", (m) => {
  const t = performance.now();
  if (m.bytes) policy = loadArtifact(new Uint8Array(m.bytes));
  else if (m.files) policy = load(m.files);
  else if (m.decide) {
    for (let i = 0; i < 20000; i++) policy.decide(m.decide);
    const t0 = performance.now();
    for (let i = 0; i < m.n; i++) policy.decide(m.decide);
    parentPort.postMessage({ perSec: m.n / ((performance.now() - t0) / 1000) });
    return;
  }
  parentPort.postMessage({ loadMs: performance.now() - t });
});
parentPort.postMessage({ started: true });
`;

const started = () =>
  new Promise((resolve, reject) => {
    const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(workerSource)}`));
    w.once("error", reject);
    w.once("message", () => resolve(w));
  });
const reply = (w) => new Promise((resolve) => w.once("message", resolve));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-worker-bench-"));
try {
  for (const n of sizes.length ? sizes : [20000, 100000]) {
    const allow = Array.from({ length: n }, (_, i) => `Terminal(tool${i} run:*)`);
    const file = path.join(dir, `permissions-${n}.json`);
    fs.writeFileSync(file, JSON.stringify({ allow }));
    const policy = load({ permissions: file });
    const r = { artifactMs: [], postToReadyMs: [], loadInWorkerMs: [], compileInWorkerMs: [], decidePerSec: [] };
    let size = 0;
    const mainRates = [];
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const bytes = policy.artifact();
      r.artifactMs.push(performance.now() - t);
      size = bytes.length;
      const w = await started();
      t = performance.now();
      w.postMessage({ bytes: bytes.buffer }, [bytes.buffer]);
      const { loadMs } = await reply(w);
      r.postToReadyMs.push(performance.now() - t);
      r.loadInWorkerMs.push(loadMs);
      w.postMessage({ decide: request, n: 200000 });
      r.decidePerSec.push((await reply(w)).perSec);
      await w.terminate();
      const c = await started();
      c.postMessage({ files: { permissions: file } });
      r.compileInWorkerMs.push((await reply(c)).loadMs);
      await c.terminate();
      for (let k = 0; k < 20000; k++) policy.decide(request);
      t = performance.now();
      for (let k = 0; k < 200000; k++) policy.decide(request);
      mainRates.push(200000 / ((performance.now() - t) / 1000));
    }
    console.log(
      JSON.stringify({
        rules: n,
        runs,
        artifactBytes: size,
        artifactMs: fmt(r.artifactMs),
        postToReadyMs: fmt(r.postToReadyMs),
        loadInWorkerMs: fmt(r.loadInWorkerMs),
        compileInWorkerMs: fmt(r.compileInWorkerMs),
        decidePerSec: Math.round(median(r.decidePerSec)),
        decideMainPerSec: Math.round(median(mainRates)),
      }),
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
