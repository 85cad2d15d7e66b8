// loadAsync against load, and a policy's artifact bytes (what a worker
// loads), on N generated rules (default 20,000):
//   node bindings/node/bench/async.mjs [N]
// Prints the synchronous load's time (the event loop blocked), the async
// load's time and the longest pause of a 1 ms ticker meanwhile, and the
// artifact's size with the time to make it and to load it back.
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { load, loadAsync, loadArtifact } from "../index.mjs";
const n = Number(process.argv[2] || 20000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-bench-"));
const allow = Array.from({ length: n }, (_, i) => `Terminal(tool${i} run:*)`);
fs.writeFileSync(path.join(dir, "big.json"), JSON.stringify({ allow }));
const files = { permissions: path.join(dir, "big.json") };
let t = performance.now(); load(files); const sync = performance.now() - t;
// The longest pause of a 1 ms ticker while loadAsync runs.
let last = performance.now(), longest = 0;
const tick = setInterval(() => { const now = performance.now(); longest = Math.max(longest, now - last); last = now; }, 1);
t = performance.now(); const p = await loadAsync(files); const asyncTotal = performance.now() - t;
clearInterval(tick);
t = performance.now(); const bytes = p.artifact(); const art = performance.now() - t;
t = performance.now(); loadArtifact(bytes); const back = performance.now() - t;
fs.rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ rules: n, loadSyncMs: sync.toFixed(1), loadAsyncMs: asyncTotal.toFixed(1), longestTickerPauseMs: longest.toFixed(1), artifactBytes: bytes.length, artifactMs: art.toFixed(1), loadArtifactBytesMs: back.toFixed(1) }));
