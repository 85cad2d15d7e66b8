"""Validates permc's shipped files and outputs against schemas/ (JSON
Schema 2020-12) with Python's jsonschema; run by tests/schemas.rs.

    python3 validate_schemas.py REPO SCRATCH

REPO: the repository (schemas/, examples/, tests/corpus/). SCRATCH: the
outputs tests/schemas.rs wrote there: decide.jsonl (permc decide's
answers to examples/requests.jsonl), check.json, diff.json, permc.toml
(permc seed's) and docs-permc.toml (docs/config.md's). Prints each
failure and exits 1 when there is one; prints how many documents were
valid otherwise.
"""
import glob
import json
import os
import sys
import tomllib

import jsonschema

repo, scratch = sys.argv[1], sys.argv[2]
validators = {}
for path in glob.glob(os.path.join(repo, "schemas", "*.schema.json")):
    name = os.path.basename(path)[: -len(".schema.json")]
    schema = json.load(open(path, encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validators[name] = jsonschema.Draft202012Validator(schema)

failures = []
valid = 0


def check(name, doc, where):
    global valid
    errors = [f"{where}: {list(e.absolute_path)}: {e.message}" for e in validators[name].iter_errors(doc)]
    failures.extend(errors)
    valid += not errors


ex = os.path.join(repo, "examples")
check("permissions", json.load(open(os.path.join(ex, "permissions.json"))), "examples/permissions.json")
check("autonomy", json.load(open(os.path.join(ex, "autonomy.json"))), "examples/autonomy.json")

# Every request of examples/requests.jsonl that permc decides is a valid
# request; every answer is a valid answer line.
requests = [l for l in open(os.path.join(ex, "requests.jsonl"), encoding="utf-8") if l.strip()]
answers = [l for l in open(os.path.join(scratch, "decide.jsonl"), encoding="utf-8") if l.strip()]
assert len(requests) == len(answers), (len(requests), len(answers))
for i, (req, ans) in enumerate(zip(requests, answers), 1):
    a = json.loads(ans)
    check("decision", a, f"decide answer {i}")
    if "error" not in a:
        check("request", json.loads(req), f"examples/requests.jsonl:{i}")

# Every corpus case: its rule files, and its request when it decides.
for path in sorted(glob.glob(os.path.join(repo, "tests", "corpus", "*.toml"))):
    data = tomllib.load(open(path, "rb"))
    base = (data.get("defaults") or {}).get("context") or {}
    for case in data.get("case", []):
        where = f"{os.path.basename(path)}:{case['name']}"
        if "permissions" in case:
            check("permissions", case["permissions"], where + " permissions")
        if "autonomy" in case:
            check("autonomy", case["autonomy"], where + " autonomy")
        if "action" in case and not case.get("error"):
            req = {"action": case["action"], "context": {**base, **case.get("context", {})}}
            check("request", req, where + " request")

check("check", json.load(open(os.path.join(scratch, "check.json"))), "permc check --format json")
check("diff", json.load(open(os.path.join(scratch, "diff.json"))), "permc diff --format json")
for toml_file in ["permc.toml", "docs-permc.toml"]:
    check("permc-toml", tomllib.load(open(os.path.join(scratch, toml_file), "rb")), toml_file)

# The examples of the schemas' own descriptions are patterns they accept.
for p in validators["permissions"].schema["$defs"]["pattern"]["examples"]:
    check("permissions", {"allow": [p]}, f"pattern example {p}")

# And what permc refuses, the schemas refuse.
for name, doc in [
    ("request", {"action": {"type": "terminal", "command": "ls"}, "context": {"role": "developer"}}),
    ("request", {"action": {"type": "spend"}, "context": {"role": "owner", "executonMode": "runner"}}),
    ("request", {"action": {"type": "teleport"}, "context": {"role": "owner"}}),
    ("permissions", {"allow": ["Teleport(x)"]}),
    ("permissions", {"alow": []}),
    ("autonomy", {"dev-api": {"terminl": "auto_approve"}}),
    ("autonomy", {"dev-api": {"terminal": "sometimes"}}),
    ("decision", {"policy": "maybe", "reason": "default", "message": ""}),
]:
    if validators[name].is_valid(doc):
        failures.append(f"{name} accepts {json.dumps(doc)}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"{valid} documents valid")
