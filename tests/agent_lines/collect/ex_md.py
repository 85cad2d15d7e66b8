import json, re, subprocess, sys
repo, name, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
files = subprocess.run(["git","-C",repo,"ls-tree","-r","--name-only","HEAD"],capture_output=True,text=True).stdout.split("\n")
pat = re.compile(r'💻 \*\*Bash[^\n]*\*\*\n```shell\n(.*?)\n```\n', re.S)
for f in files:
    if not f.startswith(prefix) or not f.endswith(".md"): continue
    t = subprocess.run(["git","-C",repo,"show","HEAD:"+f],capture_output=True,text=True,errors="replace").stdout
    for m in pat.finditer(t):
        print(json.dumps({"command":m.group(1),"source":name+"/"+f,"kind":"log"}))
