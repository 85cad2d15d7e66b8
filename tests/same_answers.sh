#!/usr/bin/env bash
# Same answers as REV: for a refactor of what a command is read as (the
# reader, the facts, the scope), which both engines share, so neither the
# equivalence tests nor the differential fuzz target can see a change in it.
#
#   bash tests/same_answers.sh [--tighter-ok] REV [RANDOM_LINES]   # from the repository root
#
# Builds permc at REV (a git worktree under target/same-answers) and at the
# working tree, in release, then decides with both, over the examples' rules,
# every command of tests/corpus, fuzz/corpus/shell and examples/requests.jsonl
# (runner, container and mounted, with and without an agent) and
# RANDOM_LINES (default 20000) random lines of wrappers, globs (quoted and
# not), path verbs, moves, redirections and expansions, and compares the
# answers byte for byte. Exits 1 and shows the first differences if any
# answer differs. Not run by `cargo test`: it builds a second permc.
#
# --tighter-ok (what .ci/run uses when the reading code changes, issue 29):
# an answer that was auto_approve at REV and is require_approval or deny now
# is a line the change learned to read more strictly: it is listed (all of
# them in target/same-answers/tighter.txt), not a failure. Every other
# change still fails: an answer that became more permissive (to
# auto_approve, or deny to require_approval), require_approval becoming
# deny, a change of reason, rule or message under the same policy, and an
# error where a decision was (or the reverse). Those are not "now asks for
# what it approved"; each wants a look, and a corpus case.
set -euo pipefail
cd "$(dirname "$0")/.."
tighter_ok=0
if [ "${1:-}" = --tighter-ok ]; then
  tighter_ok=1
  shift
fi
rev=${1:?usage: tests/same_answers.sh [--tighter-ok] REV [RANDOM_LINES]}
lines=${2:-20000}
dir=target/same-answers
mkdir -p "$dir"
# An absolute path: worktrees of the same repository (other checkouts)
# must never be taken for this one's.
old="$PWD/$dir/rev"
git worktree remove --force "$old" 2>/dev/null || rm -rf "$old"
git worktree add --quiet --detach "$old" "$rev"
trap 'git worktree remove --force "$old" 2>/dev/null || true' EXIT
# REV builds in a target directory of its own: cargo names a workspace's
# crates by their path inside the workspace, so in a shared one REV's build
# and the working tree's look the same to it, and the second is "fresh"
# with the first's binary (then every answer is the same, vacuously).
(cd "$old" && CARGO_TARGET_DIR="$PWD/../rev-target" cargo build --release --quiet --bin permc)
target=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release --quiet --bin permc

python3 - "$dir/requests.jsonl" "$lines" <<'EOF'
import glob, json, random, sys, tomllib

out_path, lines = sys.argv[1], int(sys.argv[2])
cmds = []
for f in sorted(glob.glob("fuzz/corpus/shell/*")):
    try:
        cmds.append(open(f, "rb").read().decode("utf-8"))
    except UnicodeDecodeError:
        pass

def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k == "command" and isinstance(v, str):
                cmds.append(v)
            else:
                walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)

for f in sorted(glob.glob("tests/corpus/*.toml")):
    walk(tomllib.load(open(f, "rb")))
for line in open("examples/requests.jsonl"):
    try:
        c = json.loads(line).get("action", {}).get("command")
    except ValueError:
        continue
    if isinstance(c, str):
        cmds.append(c)
cmds = list(dict.fromkeys(cmds))

root = "/home/u/p"
def request(c, mode, running, cwd, agent, role="developer"):
    a = {"type": "terminal", "command": c, "cwd": cwd}
    if agent:
        a["agent"] = agent
    ctx = {"role": role, "executionMode": mode, "containerRunning": running,
           "projectScopeRoot": root}
    return json.dumps({"action": a, "context": ctx})

modes = [("runner", False, root + "/src"), ("container", True, root),
         ("mounted", True, root + "/a"), ("runner", False, "/etc")]
with open(out_path, "w") as out:
    for c in cmds:
        for mode, running, cwd in modes[:3]:
            for agent in ("dev-api", None):
                out.write(request(c, mode, running, cwd, agent) + "\n")
    words = ["ls", "git", "status", "push", "-la", "src", "a=b", "X=1", "cd",
             "pushd", "popd", "..", "../x", "/etc", "/work/x", "~", "x.txt",
             "$X", '"$(pwd)"', ">", "out", "2>/dev/null", "&&", "||", ";", "|",
             "&", "sudo", "env", "xargs", "time", "bash", "-c", "'cd /'",
             "'rm -rf /'", "eval", "'cd x'", "CDPATH=/", "shopt", "-s",
             "cdable_vars", "/usr/bin/git", "'/usr/bin/l[s]'", "'l[s]'", "l*",
             "find", ".", "-exec", "rm", "{}", "\\;", "+", "-rf", "/", "npm",
             "run", "test", "pnpm", "curl", "http://x", "docker", "nice", "-n",
             "5", "command", "builtin", "exec", "-a", "nohup", "timeout", "10",
             "stdbuf", "-oL", "setsid", "-0", "sh", "python3", "'print(1)'",
             "$(echo hi)", "`date`", '"a b"', "'q'", "--", "-C", "/tmp", "tar",
             "-xf/etc/x", "-C..", "gh", "api", "-X", "POST",
             "/usr/local/bin/npm", "./script.sh", "~/bin/x"]
    rng = random.Random(7)
    for _ in range(lines):
        c = " ".join(rng.choice(words) for _ in range(rng.randint(1, 9)))
        mode, running, cwd = rng.choice(modes)
        out.write(request(c, mode, running, cwd, rng.choice(["dev-api", "ops", "x"]),
                          rng.choice(["developer", "owner", "viewer"])) + "\n")
EOF

args=(decide --permissions examples/permissions.json --autonomy examples/autonomy.json
  --requests "$dir/requests.jsonl")
"$dir/rev-target/release/permc" "${args[@]}" >"$dir/rev.jsonl" || true
"$target/release/permc" "${args[@]}" >"$dir/now.jsonl" || true
n=$(wc -l <"$dir/requests.jsonl")
if cmp -s "$dir/rev.jsonl" "$dir/now.jsonl"; then
  echo "same answers as $rev on $n requests"
  exit 0
fi
python3 - "$dir" "$rev" "$tighter_ok" tests/same_answers_expected.tsv <<'EOF'
import json, re, sys

d, rev, tighter_ok = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
reqs = open(f"{d}/requests.jsonl").read().splitlines()
was = open(f"{d}/rev.jsonl").read().splitlines()
now = open(f"{d}/now.jsonl").read().splitlines()
if not len(reqs) == len(was) == len(now):
    print(f"answers missing: {len(reqs)} requests, {len(was)} answers at {rev}, {len(now)} now")
    sys.exit(1)

def policy(line):
    try:
        return json.loads(line).get("policy")
    except ValueError:
        return None

def show(req, a, b):
    r = json.loads(req)
    ctx, act = r["context"], r["action"]
    where = f'{ctx["executionMode"]}, cwd {act["cwd"]}, agent {act.get("agent", "-")}'
    return f"  {act['command']!r} ({where})\n    {rev}: {a}\n    now: {b}"

# Changes the contract made on purpose (tests/same_answers_expected.tsv).
rows = []
for line in open(sys.argv[4]):
    if line.startswith("#") or not line.strip():
        continue
    pattern, before, after, spec = line.rstrip("\n").split("\t")
    rows.append((re.compile(pattern), before.split("|"), after.split("|"), spec))

def reason(line):
    try:
        return json.loads(line).get("reason")
    except ValueError:
        return None

def fits(tokens, line):
    # `*`, a policy, or `policy/reason`.
    return "*" in tokens or policy(line) in tokens or f"{policy(line)}/{reason(line)}" in tokens

def message_only(a, b):
    try:
        x, y = json.loads(a), json.loads(b)
    except ValueError:
        return False
    x.pop("message", None)
    y.pop("message", None)
    return x == y

def expected(req, a, b):
    c = json.loads(req)["action"]["command"]
    for pattern, before, after, spec in rows:
        if before == ["message"]:
            # A row for the sentence alone: the decision is the same.
            if pattern.search(c) and message_only(a, b):
                return spec
        elif pattern.search(c) and fits(before, a) and fits(after, b):
            return spec
    return None

tighter, other, listed = [], [], {}
for req, a, b in zip(reqs, was, now):
    if a != b:
        stricter = policy(a) == "auto_approve" and policy(b) in ("require_approval", "deny")
        spec = None if stricter else expected(req, a, b)
        if spec:
            listed[spec] = listed.get(spec, 0) + 1
        else:
            (tighter if stricter else other).append((req, a, b))
for spec, n in listed.items():
    print(f"{n} answers changed as the contract says: {spec}")

if tighter:
    with open(f"{d}/tighter.txt", "w") as f:
        f.writelines(show(*t) + "\n" for t in tighter)
    cmds = list(dict.fromkeys(json.loads(r)["action"]["command"] for r, _, _ in tighter))
    print(f"{len(tighter)} of {len(reqs)} answers went from auto_approve to require_approval"
          f" or deny, {len(cmds)} commands (each answer in {d}/tighter.txt):")
    for c in cmds[:100]:
        print(f"  {c!r}")
    if len(cmds) > 100:
        print(f"  … and {len(cmds) - 100} more")
bad = other if tighter_ok else tighter + other
with open(f"{d}/other.txt", "w") as f:
    f.writelines(show(*t) + "\n" for t in bad)
if bad:
    kind = " other than by asking for what was approved" if tighter_ok else ""
    print(f"answers differ from {rev}{kind} on {len(bad)} of {len(reqs)} requests; the first:")
    for t in bad[:10]:
        print(show(*t))
    sys.exit(1)
print(f"otherwise same answers as {rev} on {len(reqs)} requests")
EOF
