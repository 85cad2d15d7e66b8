// napi-rs's name for this platform's addon: permc.<triple>.node, where the
// triple is <platform>-<arch>, with -gnu or -musl on Linux.
"use strict";

function abi() {
  if (process.platform !== "linux") return "";
  const report = typeof process.report?.getReport === "function" ? process.report.getReport() : null;
  // glibc's version is in the report's header; musl has none.
  return report && report.header && report.header.glibcVersionRuntime ? "-gnu" : "-musl";
}

/** This platform's triple: `linux-x64-gnu`, `darwin-arm64`, `win32-x64-msvc`… */
function triple() {
  const msvc = process.platform === "win32" ? "-msvc" : "";
  return `${process.platform}-${process.arch}${abi()}${msvc}`;
}

module.exports = { triple };
