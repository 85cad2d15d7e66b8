// index.d.ts's string-literal unions are the Rust enums' names: ActionType,
// Role, Policy, Reason and ErrorCode, each equal (same names, same order)
// to what the addon's `vocabulary()` reads from permc-runtime.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { triple } = require("../platform.js");
const native = require(process.env.PERMC_NODE_ADDON || path.join(here, "..", `permc.${triple()}.node`));
const dts = fs.readFileSync(path.join(here, "..", "index.d.ts"), "utf8");

/** The string literals of `export type NAME = | "a" | "b";` in index.d.ts. */
function union(name) {
  const m = dts.match(new RegExp(`export type ${name} =([^;]*);`));
  assert.ok(m, `index.d.ts has no union ${name}`);
  return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
}

const vocabulary = JSON.parse(native.vocabulary());
for (const [name, key] of [
  ["ActionType", "actionTypes"],
  ["Role", "roles"],
  ["DecisionPolicy", "policies"],
  ["Reason", "reasons"],
  ["ErrorCode", "errorCodes"],
]) {
  test(`index.d.ts's ${name} is the Rust enum's names`, () => {
    const want = vocabulary[key];
    assert.deepEqual(union(name), want, `paste into index.d.ts:\nexport type ${name} =\n${want.map((w) => `  | "${w}"`).join("\n")};`);
  });
}
