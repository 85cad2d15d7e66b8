import json, re, subprocess
repo="/work/.mirror/google-gemini+gemini-cli/repo"
def unq(s):
    return re.sub(r"\\(.)", lambda m: {"n":"\n","t":"\t"}.get(m.group(1), m.group(1)), s)
files = ["packages/core/src/policy/shell-safety.test.ts","packages/core/src/policy/shell-safety-regression.test.ts","packages/core/src/tools/shell.test.ts","packages/core/src/policy/shell-substitution.test.ts","packages/core/src/policy/policy-engine.test.ts","packages/core/src/utils/shell-utils.test.ts"]
for f in files:
    t = subprocess.run(["git","-C",repo,"show","HEAD:"+f],capture_output=True,text=True).stdout
    for m in re.finditer(r"(?:command:\s*|getCommandRoots\(|hasRedirection\(|splitCommands\(|isCommandAllowed\()\s*(?:'((?:[^'\\\n]|\\.)*)'|\"((?:[^\"\\\n]|\\.)*)\")", t):
        s = m.group(1) if m.group(1) is not None else m.group(2)
        s = unq(s)
        if not s.strip(): continue
        print(json.dumps({"command":s,"source":"google-gemini/gemini-cli/"+f,"kind":"test"}))
