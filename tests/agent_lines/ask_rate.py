#!/usr/bin/env python3
"""Ask rate of permc over the corpus of agent command lines (issue 42, point 7).

Decides every line of lines.jsonl with a permc binary, in three modes, against
the allow list `permc seed` writes on an empty folder (SPEC §8):

  runner      executionMode runner, no agent
  automatic   executionMode runner, agent dev-a whose autonomy is {"*": "auto_approve"}
  container   executionMode container, containerRunning true, no agent

projectScopeRoot and cwd are /home/dev/project. Prints, per mode, the number of
lines, the % asked (require_approval), the % denied and the top 10 reasons,
and the ask rate, in automatic mode, of the lines holding a here-document that
writes a file (`<<` and a `>` redirection).

  ask_rate.py [--permc BIN] [--lines FILE]
  ask_rate.py --compare OLD_PERMC NEW_PERMC
  ask_rate.py --causes 20            the commonest causes of asks, one example each
  ask_rate.py --fail-heredoc-above 0 exit 1 (listing them) when more than that %
                                     of the here-document writes ask in automatic mode

Python 3 standard library only.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = "/home/dev/project"
CONTAINER_ROOT = "/work"
MODES = [
    ("runner", {"executionMode": "runner"}, None),
    ("automatic", {"executionMode": "runner"}, "dev-a"),
    ("container", {"executionMode": "container", "containerRunning": True}, None),
]
# In the running container the project is at /work (SPEC §6.2), so an agent
# there names its files /work/…: the lines' project paths (/home/dev/project,
# the folder each log's agent worked in) are given as /work/… in that mode.
# The cwd stays the host path: permc translates it.
MODE_ROOT = {"runner": ROOT, "automatic": ROOT, "container": CONTAINER_ROOT}
AUTONOMY = {"dev-a": {"*": "auto_approve"}}

# A here-document operator (`<<`, `<<-`, not the here-string `<<<`) and, on a
# line holding one, an output redirection to a file (`>`/`>>`, not `>&`,
# `2>&1`, `->`, `=>`, nor /dev/null).
HEREDOC = re.compile(r"(?<!<)<<-?(?!<)\s*['\"]?[A-Za-z_][A-Za-z0-9_]*")
WRITE = re.compile(r"(?<![-=>&<])(?:\d)?>>?(?![&>(])\s*(?!/dev/null\b)(?:'[^']+'|\"[^\"]+\"|[^\s&|;<>()]+)")


def heredoc_write(command):
    """True when a line of the command holds a here-document operator and a
    redirection that writes a file (`cat <<'EOF' > src/x`, `cat > f << EOF`)."""
    for line in command.split("\n"):
        if HEREDOC.search(line) and WRITE.search(HEREDOC.sub(" ", line)):
            return True
    return False


def load_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def seed(permc, folder):
    """permc seed on an empty folder: SPEC §8's allow list (and permc.toml
    when the version writes one); the autonomy file for the automatic mode."""
    subprocess.run([permc, "seed", "--permissions", "permissions.json"], cwd=folder,
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(folder, "autonomy.json"), "w") as f:
        json.dump(AUTONOMY, f)


def decide_all(permc, lines):
    """{mode: [decision dict per line]} for one binary."""
    permc = os.path.abspath(permc)
    out = {}
    with tempfile.TemporaryDirectory(prefix="agent_lines.") as folder:
        seed(permc, folder)
        for mode, ctx, agent in MODES:
            req_path = os.path.join(folder, "requests-%s.jsonl" % mode)
            with open(req_path, "w", encoding="utf-8") as f:
                for i, o in enumerate(lines):
                    command = o["command"]
                    if MODE_ROOT[mode] != ROOT:
                        command = re.sub(re.escape(ROOT) + r"(?![\w.-])", MODE_ROOT[mode], command)
                    action = {"type": "terminal", "command": command, "cwd": ROOT}
                    if agent:
                        action["agent"] = agent
                    context = {"role": "developer", "projectScopeRoot": ROOT}
                    context.update(ctx)
                    f.write(json.dumps({"id": i, "action": action, "context": context}) + "\n")
            p = subprocess.run([permc, "decide", "--permissions", "permissions.json",
                                "--autonomy", "autonomy.json", "--requests", req_path],
                               cwd=folder, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit("%s decide failed (%d): %s" % (permc, p.returncode, p.stderr.strip()))
            decisions = [None] * len(lines)
            for l in p.stdout.splitlines():
                d = json.loads(l)
                if "id" in d:
                    decisions[int(d["id"])] = d
            out[mode] = [d or {"error": {"code": "no_answer"}} for d in decisions]
    return out


def policy(d):
    return "error" if "error" in d else d.get("policy")


def reason(d):
    return ("error." + d["error"].get("code", "?")) if "error" in d else d.get("reason")


def first_word(s):
    for w in s.replace("\n", " ").split():
        if "=" in w and not w.startswith("="):
            continue  # an assignment before the verb
        return w
    return "(empty)"


def cause(d, command):
    """A finer key than the reason: the reason and the verb that made it ask."""
    r = reason(d)
    msg = d.get("message", "") or ""
    if r == "ceiling.unparsed":
        m = re.search(r"cannot be read exactly \((.*)\), so", msg, re.S)
        why = " ".join((m.group(1).split(";")[0] if m else msg).split())
        return "%s: %s" % (r, why if len(why) <= 70 else why[:69] + "…")
    m = re.search(r"but `([^`]*)`", msg) or re.search(r"`([^`]*)`", msg)
    if r in ("default",) or not m:
        return "%s: %s" % (r, first_word(command))
    inner = " ".join(m.group(1).split())
    if r == "ceiling.scope":
        if "$(" in inner or "`" in inner or not inner:
            return "%s: a substitution's output ($(…), `…`, $VAR)" % r
        if inner.startswith("/") and re.search(r"[^\w./~*?+@-]", inner):
            return "%s: a word read as a path that is not one (a sed address…)" % r
        if inner.startswith("/"):
            inner = "/".join(inner.split("/")[:3]) + "/…"
        return "%s: %s" % (r, inner if len(inner) <= 40 else inner[:39] + "…")
    return "%s: %s" % (r, first_word(inner))


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def stats(lines, decisions):
    n = len(lines)
    asks = sum(1 for d in decisions if policy(d) == "require_approval")
    denies = sum(1 for d in decisions if policy(d) == "deny")
    errors = sum(1 for d in decisions if policy(d) == "error")
    reasons = collections.Counter("%s %s" % (policy(d), reason(d)) for d in decisions)
    by_kind = {}
    for kind in sorted(set(o["kind"] for o in lines)):
        idx = [i for i, o in enumerate(lines) if o["kind"] == kind]
        by_kind[kind] = (len(idx), pct(sum(1 for i in idx if policy(decisions[i]) == "require_approval"), len(idx)))
    return {"n": n, "ask": pct(asks, n), "deny": pct(denies, n), "error": errors,
            "reasons": reasons, "by_kind": by_kind}


def heredoc_stats(lines, decisions):
    idx = [i for i, o in enumerate(lines) if heredoc_write(o["command"])]
    asked = [i for i in idx if policy(decisions[i]) == "require_approval"]
    return len(idx), asked


def report(permc, lines, res):
    print("permc: %s" % permc)
    for mode, _, _ in MODES:
        s = stats(lines, res[mode])
        kinds = ", ".join("%s %d lines %.1f%%" % (k, n, a) for k, (n, a) in s["by_kind"].items())
        print("\n[%s] lines %d  asked %.1f%%  denied %.1f%%  errors %d  (asked by kind: %s)"
              % (mode, s["n"], s["ask"], s["deny"], s["error"], kinds))
        for r, c in s["reasons"].most_common(10):
            print("  %5d  %s" % (c, r))
    n, asked = heredoc_stats(lines, res["automatic"])
    print("\nhere-document writes, automatic mode: %d lines, asked %d (%.1f%%)" % (n, len(asked), pct(len(asked), n)))


def compare(old, new, lines):
    ro, rn = decide_all(old, lines), decide_all(new, lines)
    print("old: %s\nnew: %s\n" % (os.path.abspath(old), os.path.abspath(new)))
    print("%-34s %14s %14s" % ("", "old", "new"))
    for mode, _, _ in MODES:
        so, sn = stats(lines, ro[mode]), stats(lines, rn[mode])
        print("%-34s %14d %14d" % (mode + ": lines", so["n"], sn["n"]))
        print("%-34s %13.1f%% %13.1f%%" % (mode + ": asked", so["ask"], sn["ask"]))
        for k in sorted(sn["by_kind"]):
            print("%-34s %13.1f%% %13.1f%%" % ("%s: asked, kind %s (%d)" % (mode, k, sn["by_kind"][k][0]),
                                               so["by_kind"][k][1], sn["by_kind"][k][1]))
        print("%-34s %13.1f%% %13.1f%%" % (mode + ": denied", so["deny"], sn["deny"]))
        if so["error"] or sn["error"]:
            print("%-34s %14d %14d" % (mode + ": errors", so["error"], sn["error"]))
    no, ao = heredoc_stats(lines, ro["automatic"])
    nn, an = heredoc_stats(lines, rn["automatic"])
    print("%-34s %13.1f%% %13.1f%%" % ("heredoc writes, automatic (%d)" % nn, pct(len(ao), no), pct(len(an), nn)))
    for mode, _, _ in MODES:
        print("\n[%s] top reasons          old | new" % mode)
        co, cn = stats(lines, ro[mode])["reasons"], stats(lines, rn[mode])["reasons"]
        keys = [k for k, _ in (cn + co).most_common(10)]
        for k in keys:
            print("  %-44s %5d | %5d" % (k, co.get(k, 0), cn.get(k, 0)))


def causes(permc, lines, res, top):
    for mode, _, _ in MODES:
        c = collections.Counter()
        example = {}
        for o, d in zip(lines, res[mode]):
            if policy(d) != "require_approval":
                continue
            k = cause(d, o["command"])
            c[k] += 1
            if k not in example or (len(o["command"]) < len(example[k]) and len(o["command"]) > 6):
                example[k] = o["command"]
        print("\n[%s] the %d commonest causes of asks (%d asks)" % (mode, top, sum(c.values())))
        print("| # | asks | reason: verb | example |\n|---|---|---|---|")
        for i, (k, n) in enumerate(c.most_common(top), 1):
            ex = example[k].replace("\n", "⏎")
            ex = ex if len(ex) <= 110 else ex[:107] + "…"
            print("| %d | %d | %s | `` %s `` |" % (i, n, k.replace("|", "\\|"), ex.replace("|", "\\|")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--permc", default=os.path.join(HERE, "..", "..", "target", "debug", "permc"))
    ap.add_argument("--lines", default=os.path.join(HERE, "lines.jsonl"))
    ap.add_argument("--compare", nargs=2, metavar=("OLD_PERMC", "NEW_PERMC"))
    ap.add_argument("--causes", type=int, metavar="N")
    ap.add_argument("--fail-heredoc-above", type=float, metavar="PCT")
    a = ap.parse_args()
    lines = load_lines(a.lines)
    if a.compare:
        compare(a.compare[0], a.compare[1], lines)
        return 0
    res = decide_all(a.permc, lines)
    report(a.permc, lines, res)
    if a.causes:
        causes(a.permc, lines, res, a.causes)
    if a.fail_heredoc_above is not None:
        n, asked = heredoc_stats(lines, res["automatic"])
        if pct(len(asked), n) > a.fail_heredoc_above:
            print("\nFAIL: %d of %d here-document writes ask in automatic mode (%.1f%% > %g%%):"
                  % (len(asked), n, pct(len(asked), n), a.fail_heredoc_above))
            for i in asked:
                d = res["automatic"][i]
                print("--- %s — %s" % (reason(d), d.get("message", "")))
                print(lines[i]["command"])
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
