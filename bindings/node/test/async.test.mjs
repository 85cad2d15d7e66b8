// loadAsync compiles off the main thread; a policy is shared with a
// worker_thread as its artifact bytes, and posting the policy itself is a
// clear error (not a silent `{_native: {}}`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { load, loadAsync, loadArtifact, PermcError } from "../index.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const ex = (f) => path.join(repo, "examples", f);
const files = { permissions: ex("permissions.json"), autonomy: ex("autonomy.json") };
const request = {
  action: { type: "terminal", command: "pnpm test", agent: "dev-web" },
  context: { role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: "/home/ana/p" },
};

test("loadAsync resolves to the policy load gives; rejects with a PermcError", async () => {
  const p = await loadAsync(files);
  assert.deepEqual(p.decide(request), load(files).decide(request));
  await assert.rejects(loadAsync({ permissions: path.join(repo, "README.md") }), (e) => e instanceof PermcError && e.code === "rejected" && e.diagnostics.length > 0);
  await assert.rejects(loadAsync({ permissions: 1 }), (e) => e instanceof PermcError && e.code === "invalid_argument");
});

test("a worker decides from the artifact bytes as the main thread; posting a policy throws", async () => {
  const p = load(files);
  const bytes = p.artifact();
  assert.ok(bytes instanceof Uint8Array && bytes.length > 0);
  assert.deepEqual(loadArtifact(bytes).decide(request), p.decide(request));
  const index = new URL("../index.mjs", import.meta.url).href;
  const worker = new Worker(
    `import { parentPort, workerData } from "node:worker_threads";
     const { loadArtifact } = await import(workerData.index);
     parentPort.postMessage(loadArtifact(workerData.bytes).decide(workerData.request));`,
    { eval: true, workerData: { index, bytes, request } },
  );
  const answer = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  assert.deepEqual(answer, p.decide(request));
  await worker.terminate();
  const w = new Worker("", { eval: true });
  assert.throws(() => w.postMessage(p), (e) => e.name === "DataCloneError" && /artifact\(\)/.test(e.message));
  await w.terminate();
});
