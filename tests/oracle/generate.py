#!/usr/bin/env python3
"""Generates tests/oracle/seeded_variants.txt: variants of every seeded
entry (SPEC §8, as `permc seed` writes them), of examples/permissions.json
and of the entries attacks reported (tests/oracle/reported.json), and the
reads that contact the stubs' endpoints (ENDPOINT_LINES, set `endpoints`).

    python3 tests/oracle/generate.py [--seed N] [--permc target/debug/permc]

The options come from each tool's own help (`--help`, `git SUB -h` and
its manual page, npm's config definitions), read in a bubblewrap sandbox
like every command of the oracle. For each option: its forms (`--opt`,
`--opt=V`, `--opt V`), its abbreviations (GNU getopt_long's and git's
unique prefixes, npm's nopt prefixes), after an operand, in a cluster; and
for each entry environment assignments and `git -c`. Each line is
`SET<TAB>TIERS<TAB>COMMAND`: SET names the rule file it is decided under,
TIERS the frozen samples CI runs that hold it (chosen with the seed),
comma-separated: `ci` run in a runner, `container` in the running
container; `full` for neither (PERMC_ORACLE_FULL=1 runs every line). The output is committed: a run
is reproducible, and the same seed on the same tools gives the same file.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Programs whose toolchain this machine cannot install offline: their
# entries are listed as not verified (docs/testing.md), never faked.
NOT_VERIFIED = {
    "pnpm": "pnpm is not packaged for Debian 12 and needs the registry",
    "npx vitest": "vitest is an npm package fetched from the registry",
    "mix": "the project's Elixir fixture has no mix project (mix test needs hex deps)",
    "pytest": "pytest is not installed and needs PyPI",
    "go": "Go is not installed on the CI image",
}

# Reads that contact an endpoint, decided under tests/oracle/endpoints.json
# and run against the sandbox's stubs (tests/oracle/stubs/: the fixture's
# remotes origin, a git daemon, and web, dumb HTTP on 127.0.0.1:8080).
# Written out, not generated from help: every one is in the CI tier.
ENDPOINT_LINES = [
    "git fetch",
    "git fetch origin",
    "git fetch web",
    "git fetch --all",
    "git fetch --dry-run origin main",
    "git fetch --tags origin",
    "git fetch --prune web",
    "git ls-remote",
    "git ls-remote origin",
    "git ls-remote web",
    "git ls-remote --heads origin",
    "git ls-remote --tags web",
    "git ls-remote --symref origin HEAD",
    "git ls-remote git://127.0.0.1/origin.git",
    "git ls-remote http://127.0.0.1:8080/origin.git",
    "git remote show origin",
    "git remote show web",
    "curl -s http://127.0.0.1:8080/",
    "curl -sf http://127.0.0.1:8080/origin.git/HEAD",
    "curl -sI http://localhost:8080/origin.git/info/refs",
    "curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8080/origin.git/HEAD",
    "curl -s http://127.0.0.1:8080/missing",
    "curl -s --max-time 2 http://127.0.0.1:9/",
]

# The values given to an option, by what its help calls the value. A
# file value names a tracked file, so that a write shows as a change.
def value_for(placeholder):
    p = placeholder.lower()
    if any(k in p for k in ("file", "path", "output", "prefix")):
        return "src/lib.rs"
    if "dir" in p:
        return "src"
    if any(k in p for k in ("num", "n>", "count", "depth", "width", "<n", "size", "lines", "bytes")) or p in ("n", "k"):
        return "1"
    if any(k in p for k in ("commit", "rev", "ref", "object", "tree", "branch", "tag", "head")):
        return "HEAD"
    if "when" in p or "color" in p:
        return "auto"
    return "x"


# An operand each entry takes, so that options can follow one.
OPERANDS = {
    "ls": "src", "cat": "x", "head": "x", "tail": "x", "grep": "beta notes.txt", "wc": "x",
    "echo": "hi", "find": ".", "sort": "x", "sed -n": "p x", "git log": "HEAD", "git diff": "HEAD",
    "git show": "HEAD", "git status": "src", "git ls-tree": "HEAD", "git rev-parse": "HEAD",
    "git for-each-ref": "refs/heads", "git remote show": "origin", "git config --get": "user.name",
    "git branch --list": "'f*'", "git branch -a": "", "git branch -r": "", "git branch -v": "",
}


def sandboxed(args):
    """A help text, read in a sandbox: no network, read-only, no caps."""
    cmd = ["bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--tmpfs", "/home",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent",
           "--new-session", "--cap-drop", "ALL", "--setenv", "HOME", "/home",
           "--setenv", "MANWIDTH", "120", "--setenv", "MANPAGER", "cat",
           "--setenv", "PAGER", "cat", "--chdir", "/tmp", "--"] + args
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    return r.stdout + r.stderr


OPT = re.compile(r"(?:^|[\s,])(--?[A-Za-z0-9][\w-]*)(\[?[= ]?<?[\w|.-]+>?\]?)?")


def options_from(text):
    """(name, placeholder or None) for every option a help text shows."""
    found = {}
    for line in text.splitlines():
        s = line.strip()
        if not s.startswith("-"):
            continue
        head = re.split(r"\s{2,}", s)[0]
        names, value = [], None
        for m in OPT.finditer(head):
            name, val = m.group(1), m.group(2)
            if val and val.startswith(" ") and not val.strip().startswith("<") and not val.strip().isupper():
                val = None
            names.append(name)
            value = value or (val.strip(" []=") if val else None)
        # `-S, --buffer-size=SIZE`: the letter takes the value too.
        for name in names:
            found.setdefault(name, value)
    return found


def help_options(entry):
    prog, *rest = entry.split()
    if prog == "git":
        sub = rest[0]
        text = sandboxed(["git", sub, "-h"])
        text += sandboxed(["man", "-P", "cat", f"git-{sub}"])
        if sub in ("log", "show"):
            text += sandboxed(["git", "diff", "-h"])
        return options_from(text)
    if prog in ("npm", "npx"):
        return {}
    if prog == "cargo":
        return options_from(sandboxed(["cargo", rest[0], "--help"]))
    return options_from(sandboxed([prog, "--help"]))


def npm_keys():
    js = ("const d=require('/usr/lib/node_modules/npm/node_modules/@npmcli/config/lib/definitions');"
          "console.log(JSON.stringify(Object.keys(d.definitions)))")
    try:
        return json.loads(sandboxed(["node", "-e", js]).strip().splitlines()[-1])
    except (ValueError, IndexError):
        return []


def unique_prefix(name, names):
    """The shortest prefix of `name` no other name starts with."""
    for n in range(1, len(name) + 1):
        p = name[:n]
        if not any(o != name and o.startswith(p) for o in names):
            return p
    return name


def variants(entry, opts, rng):
    """The lines for one entry and its options."""
    out = [entry]
    operand = OPERANDS.get(entry, "")
    longs = [o[2:] for o in opts if o.startswith("--")]
    out.append(f"LC_ALL=C {entry}")
    if entry.startswith("git "):
        out.append(f"git -c core.pager=cat {entry[4:]}")
        out.append(f"git --no-pager {entry[4:]}")
        out.append(f"git -c color.ui=always {entry[4:]}")
    for name, placeholder in sorted(opts.items()):
        if name in ("--help", "-h", "--version", "-V"):
            continue
        v = value_for(placeholder) if placeholder else None
        if name.startswith("--"):
            forms = [name] if v is None else [f"{name}={v}", f"{name} {v}"]
            p = unique_prefix(name[2:], longs)
            if len(p) < len(name) - 2:
                forms.append(f"--{p}" + (f"={v}" if v else ""))
                mid = name[2:][: (len(p) + len(name) - 2) // 2]
                if len(mid) > len(p):
                    forms.append(f"--{mid}" + (f"={v}" if v else ""))
        else:
            forms = [name] if v is None else [f"{name} {v}", f"{name}{v}"]
            if v is not None:
                forms.append(f"-u{name[1:]} {v}" if entry == "sort" else f"{name} {v}")
        for f in forms:
            out.append(f"{entry} {f}")
            if operand:
                out.append(f"{entry} {operand} {f}")
    return out


def npm_variants(entry, keys, rng):
    out = [entry, f"{entry} -- --watch", f"LC_ALL=C {entry}"]
    # Each key with a canary program (a key that runs one shows it) and
    # with a config file setting the canary as script-shell (a key that
    # reads one shows it), whole and by nopt's shortest unique prefix.
    values = ["/srv/canary/shell", "conf/alt.npmrc"]
    for k in sorted(keys):
        p = unique_prefix(k, keys)
        names = [k] + ([p] if len(p) < len(k) else [])
        out += [f"{entry} --{k}"]
        out += [f"{entry} --{n}={v}" for n in names for v in values]
        out.append(f"{entry} --{p} {values[0]}")
    return out


def entries(permc):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([permc, "seed", "--permissions", f"{d}/p.json", "--autonomy", f"{d}/a.json"],
                       check=True, capture_output=True)
        seeded = json.load(open(f"{d}/p.json"))["allow"]
    examples = json.load(open(os.path.join(ROOT, "examples/permissions.json")))["allow"]
    reported = json.load(open(os.path.join(HERE, "reported.json")))["allow"]
    for set_, allow in (("seeded", seeded), ("examples", examples), ("reported", reported)):
        for e in allow:
            m = re.fullmatch(r"Terminal\((.*?)(:\*)?\)", e)
            if m and m.group(1):
                yield set_, m.group(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--permc", default=os.path.join(ROOT, "target/debug/permc"))
    ap.add_argument("--ci", type=int, default=300, help="lines in the CI tier")
    ap.add_argument("--container", type=int, default=100,
                    help="lines in the container's CI tier (decided and run in the running container)")
    a = ap.parse_args()
    if not shutil.which("bwrap"):
        sys.exit("generate.py reads help texts in bubblewrap: apt-get install -y bubblewrap")
    rng = random.Random(a.seed)
    keys = npm_keys()
    lines, skipped, seen = [], [], set()
    per_entry = {}
    for set_, entry in entries(a.permc):
        why = next((w for p, w in NOT_VERIFIED.items() if entry == p or entry.startswith(p + " ")), None)
        if why:
            skipped.append(f"# not verified: {set_} Terminal({entry}): {why}")
            continue
        if entry.split()[0] in ("npm", "npx"):
            vs = npm_variants(entry, keys, rng)
        else:
            vs = variants(entry, help_options(entry), rng)
        for v in vs:
            # A line another set already holds is decided the same way
            # by the same entry: once is enough.
            if v not in seen:
                seen.add(v)
                per_entry.setdefault(entry, []).append(len(lines))
                lines.append((set_, v))
    # The CI tier: the same number of lines from every entry (its bare
    # form among them), so that each is judged on every run.
    quota = max(1, a.ci // max(1, len(per_entry)))
    ci = set()
    for ixs in per_entry.values():
        ci.add(ixs[0])
        ci |= set(rng.sample(ixs[1:], min(quota - 1, len(ixs) - 1)))
    out = [
        "# Variants of the seeded entries, examples/permissions.json and the reported entries,",
        f"# generated by tests/oracle/generate.py --seed {a.seed} (docs/testing.md).",
        "# SET<TAB>TIERS<TAB>COMMAND; CI runs the `ci` tier in a runner and the `container` tier in the",
        "# running container (a line's tiers are comma-separated, `full` for none); PERMC_ORACLE_FULL=1 every line.",
    ] + sorted(set(skipped))
    # The container's tier: its own sample, from a generator of its own so
    # that the runner's stays the same; one or two lines of each entry.
    crng = random.Random(f"{a.seed}-container")
    cquota = max(1, a.container // max(1, len(per_entry)))
    container = set()
    for ixs in per_entry.values():
        container |= set(crng.sample(ixs, min(cquota, len(ixs))))

    def tiers(i):
        t = [n for n, sample in (("ci", ci), ("container", container)) if i in sample]
        return ",".join(t) or "full"

    out += [f"{s}\t{tiers(i)}\t{v}" for i, (s, v) in enumerate(lines)]
    out += [f"endpoints\tci{',container' if k % 3 == 0 else ''}\t{v}" for k, v in enumerate(ENDPOINT_LINES)]
    with open(os.path.join(HERE, "seeded_variants.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(lines)} variants and {len(ENDPOINT_LINES)} endpoint lines, {len(ci)} variants in the CI tier, "
          f"{len(container)} in the container's, {len(skipped)} entries not verified")


if __name__ == "__main__":
    main()
