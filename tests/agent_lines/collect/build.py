import json, re, sys
ROOTS = {
 "goodsch/brain_explore": "/home/chris/dev/projects/codex/brain_explore",
 "kiliman/claude-transcript": "/Users/michael/Projects/oss/claude-transcript",
 "rysweet/code-story": ["/Users/ryan/src/msec/cb2/code-story", "/Users/ryan/src/msec/code-story"],
 "gruckion/mini-swe-agent": "/testbed",
 "nikblanchet/claude-code-production-patterns": "/Users/nik/Documents/Code/claude-code-production-patterns/main",
}
HOME = re.compile(r"/(?:Users|home)/(?!dev\b)[A-Za-z0-9._-]+")
SECRET = re.compile(r"passw|secret|api[_-]?key|bearer|authorization|credential|\btoken\s+[A-Za-z0-9]{10,}|ghp_|sk-[A-Za-z0-9]{16}|@(?!anthropic\.com>)[a-z0-9-]+\.[a-z]{2,}|\b(?:10|192\.168|172\.(?:1[6-9]|2\d|3[01]))\.\d{1,3}\.\d{1,3}(?:\.\d{1,3})?\b|\.internal(?![.\w])|\.local(?![.\w])|\.lan(?![.\w])|\bssh ", re.I)
# The account names of the logs' home folders: a line still naming one (a
# user_id, a profile URL) is personal data and is dropped.
PERSONAL = re.compile(r"\b(?:chris|michael|ryan|nik)\b", re.I)
seen=set(); out=[]; dropped=0
for fn in sys.argv[1:]:
    for l in open(fn):
        o=json.loads(l); c=o["command"]
        for repo, root in ROOTS.items():
            if o["source"].startswith(repo+"/"):
                for r in ([root] if isinstance(root, str) else root):
                    c = c.replace(r, "/home/dev/project")
        c = HOME.sub("/home/dev", c)
        c = c.replace("~/", "/home/dev/") if False else c
        if SECRET.search(c) or PERSONAL.search(c): dropped+=1; continue
        if not c.strip() or c in seen: continue
        seen.add(c); o["command"]=c; out.append(o)
for o in out: print(json.dumps(o, ensure_ascii=False))
print("dropped", dropped, "kept", len(out), file=sys.stderr)
