import json, re, subprocess
repo="/work/.mirror/rysweet+code-story/repo"
for f in ["Specifications/shell_history.md", ".github/Copilot-History/shell_history_2025-05-29_12-00.md"]:
    t = subprocess.run(["git","-C",repo,"show","HEAD:"+f],capture_output=True,text=True).stdout
    cmds = re.findall(r'^- `([^`]+)`', t, re.M) + re.findall(r'^```(?:bash|sh|shell)\n(.*?)\n```', t, re.M|re.S)
    for c in cmds:
        print(json.dumps({"command":c,"source":"rysweet/code-story/"+f,"kind":"log"}))
