import json, re, subprocess, sys
repo="/work/.mirror/gruckion+mini-swe-agent/repo"
files = sorted(f for f in subprocess.run(["git","-C",repo,"ls-tree","-r","--name-only","HEAD"],capture_output=True,text=True).stdout.split("\n") if f.endswith(".traj.json"))
step = int(sys.argv[1]) if len(sys.argv)>1 else 1
pat = re.compile(r"```bash\n(.*?)\n```", re.S)
for f in files[::step]:
    t = json.loads(subprocess.run(["git","-C",repo,"show","HEAD:"+f],capture_output=True,text=True).stdout)
    if not isinstance(t, dict): continue
    for m in t.get("messages", []):
        if m.get("role") != "assistant": continue
        c = m.get("content")
        if isinstance(c, list): c = "".join(x.get("text","") for x in c if isinstance(x, dict))
        blocks = pat.findall(c or "")
        if len(blocks) != 1: continue  # mini-swe-agent runs only a reply holding exactly one block
        print(json.dumps({"command":blocks[0],"source":"gruckion/mini-swe-agent/"+f,"kind":"log"}))
