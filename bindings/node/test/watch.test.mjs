// watch(): a live policy that swaps when its files change and keeps the
// last good one when they are broken, with an event for each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { watch, PermcError } from "../index.mjs";

const request = {
  action: { type: "terminal", command: "pnpm test", agent: "dev-web" },
  context: { role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: "/home/ana/p" },
};

test("a watched policy reloads on change and keeps the last good one when broken", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-watch-"));
  const permissions = path.join(dir, "permissions.json");
  fs.writeFileSync(permissions, '{"allow": ["Terminal(pnpm test)"]}');
  const live = watch({ permissions }, { interval: 20 });
  try {
    assert.equal(live.decide(request).policy, "auto_approve");
    assert.equal(live.generation, 1);

    // A change: reloaded, and the new rules decide.
    const reloaded = once(live, "reload");
    fs.writeFileSync(permissions, '{"deny": ["Terminal(pnpm)"]}');
    const [{ generation }] = await reloaded;
    assert.equal(generation, 2);
    assert.equal(live.decide(request).policy, "deny");

    // Broken: rejected with the diagnostics, the last good policy stays.
    const rejected = once(live, "reject");
    fs.writeFileSync(permissions, '{"deny": ["Terminal(pnpm)"');
    const [e] = await rejected;
    assert.ok(e instanceof PermcError && e.code === "rejected" && e.diagnostics.length > 0);
    assert.equal(live.decide(request).policy, "deny");
    assert.equal(live.generation, 2);

    // Mended: reloaded again.
    const again = once(live, "reload");
    fs.writeFileSync(permissions, '{"allow": ["Terminal(pnpm test)"]}');
    await again;
    assert.equal(live.decide(request).policy, "auto_approve");
  } finally {
    live.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.throws(() => watch({ permissions: path.join(dir, "missing.json") }), (e) => e instanceof PermcError && e.code === "unreadable");
});

test("a watched policy keeps permc.toml's rows on reload and reloads them when it changes", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permc-watch-rows-"));
  const permissions = path.join(dir, "permissions.json");
  const config = path.join(dir, "permc.toml");
  fs.writeFileSync(permissions, '{"allow": ["Terminal(./deploy.sh)"]}');
  fs.writeFileSync(config, '[[command]]\nname = "./deploy.sh"\neffects = ["code"]\n');
  const deploy = { ...request, action: { type: "terminal", command: "./deploy.sh prod", agent: "dev-web" } };
  const live = watch({ permissions, config }, { interval: 20 });
  try {
    assert.equal(live.decide(deploy).policy, "require_approval");
    // A rule file's change reloads with the rows still read.
    const reloaded = once(live, "reload");
    fs.writeFileSync(permissions, '{"allow": ["Terminal(./deploy.sh)", "Terminal(ls)"]}');
    await reloaded;
    assert.equal(live.decide(deploy).policy, "require_approval");
    // permc.toml's change reloads too: the row gone, the entry allows.
    const again = once(live, "reload");
    fs.writeFileSync(config, "# no rows\n");
    await again;
    assert.equal(live.decide(deploy).policy, "auto_approve");
  } finally {
    live.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
