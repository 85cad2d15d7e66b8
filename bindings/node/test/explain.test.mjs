// explainData: `permc explain --format json`'s object, equal to the CLI's
// for every request of examples/requests.jsonl that can be read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { load, PermcError } from "../index.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const cli = process.env.PERMC || path.join(repo, "target/debug/permc");
const ex = (f) => path.join(repo, "examples", f);

test("explainData is permc explain --format json's object", () => {
  const p = load({ permissions: ex("permissions.json"), autonomy: ex("autonomy.json") });
  const lines = fs.readFileSync(ex("requests.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "");
  const want = execFileSync(cli, ["explain", "--format", "json", "--permissions", ex("permissions.json"), "--autonomy", ex("autonomy.json"), "--requests", ex("requests.jsonl")], { encoding: "utf8" })
    .trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(want.length, lines.length);
  let n = 0;
  lines.forEach((line, i) => {
    const w = want[i];
    if (w.error) return;
    const req = JSON.parse(line);
    delete req.id;
    delete w.id;
    const got = p.explainData(req);
    assert.deepEqual(got, w, line);
    assert.ok(got.steps.length > 0 && got.steps.every((s) => typeof s.step === "string" && typeof s.outcome === "string"));
    assert.deepEqual(got.decision, p.decide(req));
    n++;
  });
  assert.ok(n > 10);
  assert.throws(() => p.explainData({ action: { type: "terminal" }, context: { role: "developer" } }), (e) => e instanceof PermcError && e.code === "missing_field");
});
