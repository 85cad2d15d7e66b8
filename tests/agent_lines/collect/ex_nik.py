import json, re, subprocess
repo="/work/.mirror/nikblanchet+claude-code-production-patterns/repo"
files = subprocess.run(["git","-C",repo,"ls-tree","-r","--name-only","HEAD"],capture_output=True,text=True).stdout.split("\n")
pat = re.compile(r'🔧 Using tool: Bash\nInput: (\{.*?\n\})', re.S)
for f in files:
    if not f.endswith(".md"): continue
    t = subprocess.run(["git","-C",repo,"show","HEAD:"+f],capture_output=True,text=True,errors="replace").stdout
    if "Using tool: Bash" not in t: continue
    for m in pat.finditer(t):
        try: c=json.loads(m.group(1))["command"]
        except Exception: continue
        print(json.dumps({"command":c,"source":"nikblanchet/claude-code-production-patterns/"+f,"kind":"log"}))
