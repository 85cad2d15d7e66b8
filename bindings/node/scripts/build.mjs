// npm run build: builds the addon with cargo (release profile; --debug for
// the dev one) and copies it next to index.js under napi-rs's name,
// permc.<platform>-<arch>[-<abi>].node, which index.js loads.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { triple } from "../platform.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, "..");
const workspace = path.resolve(pkg, "..");
const debug = process.argv.includes("--debug");
const target = process.env.CARGO_TARGET_DIR ? path.resolve(process.env.CARGO_TARGET_DIR) : path.join(workspace, "target");
if (!process.argv.includes("--no-cargo")) {
  const args = ["build", "--manifest-path", path.join(workspace, "Cargo.toml"), "-p", "permc_node"];
  if (!debug) args.push("--release");
  execFileSync("cargo", args, { stdio: "inherit", env: { ...process.env, CARGO_TARGET_DIR: target } });
}
const lib = { darwin: "libpermc_node.dylib", win32: "permc_node.dll" }[process.platform] || "libpermc_node.so";
const from = path.join(target, debug ? "debug" : "release", lib);
const to = path.join(pkg, `permc.${triple()}.node`);
fs.copyFileSync(from, to);
console.log(`${path.relative(process.cwd(), from)} -> ${path.relative(process.cwd(), to)}`);
