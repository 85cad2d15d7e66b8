import json, re, subprocess, sys
repo = "/work/.mirror/goodsch+brain_explore/repo"
files = subprocess.run(["git","-C",repo,"ls-tree","-r","--name-only","HEAD"],capture_output=True,text=True).stdout.split("\n")
pat = re.compile(r'"name": "Bash",\s*"input": \{\s*"command": ("(?:[^"\\]|\\.)*")')
out=[]
for f in files:
    if not f.startswith("claude-prompts/") : continue
    t = subprocess.run(["git","-C",repo,"show","HEAD:"+f],capture_output=True,text=True,errors="replace").stdout
    for m in pat.finditer(t):
        try: c = json.loads(m.group(1))
        except Exception: continue
        out.append({"command":c,"source":"goodsch/brain_explore/"+f,"kind":"log"})
for o in out: print(json.dumps(o))
