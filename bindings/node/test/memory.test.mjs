// Loading from memory: rule files' text (load({permissionsText}),
// loadText) and an artifact's bytes (loadArtifact(Buffer | Uint8Array))
// decide as the files do; errors as the files' errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { load, loadText, loadArtifact, PermcError } from "../index.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const cli = process.env.PERMC || path.join(repo, "target/debug/permc");
const ex = (f) => path.join(repo, "examples", f);
const request = {
  action: { type: "terminal", command: "pnpm test", agent: "dev-web" },
  context: { role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: "/home/ana/p" },
};
const requests = [
  request,
  { ...request, action: { ...request.action, command: "git push origin main" } },
  { action: { type: "git_push", agent: "dev-web" }, context: { role: "maintainer" } },
];
const decisions = (p) => requests.map((r) => p.decide(r));

test("text and bytes decide as the files", () => {
  const files = load({ permissions: ex("permissions.json"), autonomy: ex("autonomy.json") });
  const [ptext, atext] = [fs.readFileSync(ex("permissions.json"), "utf8"), fs.readFileSync(ex("autonomy.json"), "utf8")];
  const want = decisions(files);
  assert.deepEqual(decisions(load({ permissionsText: ptext, autonomyText: atext })), want);
  assert.deepEqual(decisions(loadText({ permissions: ptext, autonomy: atext })), want);
  assert.deepEqual(decisions(loadText({ permissions: Buffer.from(ptext), autonomy: new TextEncoder().encode(atext) })), want);
  assert.deepEqual(decisions(loadText({ permissions: ptext })), decisions(load({ permissions: ex("permissions.json") })));
});

test("an artifact's bytes load as its file", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-node-mem-"));
  try {
    const file = path.join(dir, "policy.permc");
    execFileSync(cli, ["compile", "--permissions", ex("permissions.json"), "--autonomy", ex("autonomy.json"), "-o", file]);
    const want = decisions(loadArtifact(file));
    const buf = fs.readFileSync(file);
    assert.deepEqual(decisions(loadArtifact(buf)), want);
    // A Uint8Array that is a view into a larger buffer.
    const big = new Uint8Array(buf.length + 8);
    big.set(buf, 4);
    assert.deepEqual(decisions(loadArtifact(big.subarray(4, 4 + buf.length))), want);
    assert.throws(() => loadArtifact(buf.subarray(0, buf.length >> 1)), (e) => e instanceof PermcError && e.code === "invalid_artifact");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("rejected text is an error with the file's diagnostics", () => {
  assert.throws(
    () => loadText({ permissions: '{"allow": ["Terminal(ls)"]}', autonomy: '{"dev-web": {"terminal": "sometimes"}}' }),
    (e) => e instanceof PermcError && e.code === "rejected" && e.diagnostics.length > 0 && e.diagnostics[0].file === "autonomy.json",
  );
  assert.throws(() => loadText({ permissions: 42 }), (e) => e instanceof PermcError && e.code === "invalid_argument");
  assert.throws(
    () => load({ permissions: ex("permissions.json"), permissionsText: "{}" }),
    (e) => e instanceof PermcError && e.code === "invalid_argument",
  );
});
