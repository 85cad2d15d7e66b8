#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from the repository's own
test data: the decision corpus (commands, patterns, requests), the example
rule files and requests, and the analyzer fixtures. Run from the repository
root: `python3 fuzz/seed.py`. Seeds are named by content hash, so a rerun
adds only what is new."""
import hashlib, json, os, pathlib, tomllib

root = pathlib.Path(__file__).resolve().parent.parent
out = root / "fuzz" / "corpus"

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)

for f in sorted((root / "tests" / "corpus").glob("*.toml")):
    doc = tomllib.loads(f.read_text())
    defaults = doc.get("defaults", {}).get("context", {})
    for case in doc.get("case", []):
        action = case.get("action", {})
        if "command" in action and len(action["command"]) < 4096:
            put("shell", action["command"])
        perms = case.get("permissions")
        if perms:
            for lst in perms.values():
                for p in lst:
                    put("pattern", p)
            put("rules", json.dumps(perms))
            put("analyzer", json.dumps(perms, indent=2))
        if case.get("autonomy"):
            put("rules", json.dumps(case["autonomy"]))
        if "request" in case:
            put("request", case["request"])
        elif action:
            put("request", json.dumps({"action": action, "context": {**defaults, **case.get("context", {})}}))

for name in ["permissions.json", "autonomy.json"]:
    data = (root / "examples" / name).read_bytes()
    put("rules", data)
    put("analyzer", data)
for line in (root / "examples" / "requests.jsonl").read_text().splitlines():
    if line.strip():
        put("request", line)
fixtures = root / "tests" / "fixtures"
for p in sorted(fixtures.rglob("*.json")):
    if p.stat().st_size < 65536:
        put("analyzer", p.read_bytes())
# The differential and artifact targets read structure from bytes: a few
# seeds of each length class.
for n in (0, 1, 7, 64, 256, 1024):
    put("differential", bytes((i * 37 + n) % 251 for i in range(n)))
    put("artifact", bytes((i * 53 + n) % 251 for i in range(n)))
