// permc.toml's `[[command]]` rows through the addon (issue 29 point 5):
// `load({config})`, `load({configText})`, `loadText({config})` and
// `loadAsync({config})` read them as `permc decide` does; a malformed row
// rejects the load with its diagnostics.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { load, loadAsync, loadText, PermcError } from "../index.mjs";

const permissions = JSON.stringify({ allow: ["Terminal(./deploy.sh)", "Terminal(./other.sh)"] });
const config = '[[command]]\nname = "./deploy.sh"\neffects = ["external"]\n';
const request = (command) => ({
  action: { type: "terminal", command },
  context: { role: "developer", executionMode: "runner", projectScopeRoot: "/p" },
});

function checks(policy) {
  const d = policy.decide(request("./deploy.sh prod"));
  assert.equal(d.policy, "require_approval");
  assert.equal(d.reason, "ceiling.external_effect");
  assert.match(d.message, /`\.\/deploy\.sh` has an effect outside the machine \(permc\.toml\)/);
  assert.equal(policy.decide(request("./other.sh prod")).policy, "auto_approve");
}

test("project rows from a path, from text, off the main thread", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-node-rows-"));
  fs.writeFileSync(path.join(dir, "permissions.json"), permissions);
  fs.writeFileSync(path.join(dir, "permc.toml"), config);
  const files = { permissions: path.join(dir, "permissions.json"), config: path.join(dir, "permc.toml") };
  checks(load(files));
  checks(await loadAsync(files));
  checks(load({ permissionsText: permissions, configText: config }));
  checks(loadText({ permissions, config }));
  // Without the config: the script is approved.
  assert.equal(load({ permissions: files.permissions }).decide(request("./deploy.sh")).policy, "auto_approve");
});

test("a malformed row rejects the load, with file, line and column", () => {
  assert.throws(
    () => loadText({ permissions, config: '[[command]]\nname = "x"\nefects = ["external"]\n' }),
    (e) =>
      e instanceof PermcError &&
      e.code === "rejected" &&
      e.diagnostics[0].check === "invalid-command" &&
      e.diagnostics[0].file === "permc.toml" &&
      e.diagnostics[0].line === 3,
  );
});
