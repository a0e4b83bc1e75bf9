"""Coverage check: every (generation, row, form) of vop1/vop2/vopc.tbl has a vector in tests/vectors."""
import os, re, sys, collections
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GENS = ["gfx6", "gfx7", "gfx8", "gfx9", "gfx908", "gfx90a", "gfx940"]
CPUG = {"gfx600": "gfx6", "gfx700": "gfx7", "gfx803": "gfx8", "gfx900": "gfx9", "gfx906": "gfx9",
        "gfx908": "gfx908", "gfx90a": "gfx90a", "gfx940": "gfx940"}
missing = 0
for fam in ("vop1", "vop2", "vopc"):
    have = collections.defaultdict(set)
    for l in open(os.path.join(ROOT, "tests/vectors/%s.txt" % fam)):
        cpu, bs, text = l.rstrip("\n").split("\t")
        m = text.split()[0]
        form = "e32"
        for f in ("e64", "sdwa", "dpp"):
            if m.endswith("_" + f): form = f; m = m[:-len(f) - 1]
        if m.endswith("_e32"): m = m[:-4]
        b = [int(x, 16) for x in bs.split(",")]
        if form == "e32" and (b[3] >> 2) == 0x34: form = "e64"
        if form == "e32" and b[0] == 0xf9 and len(b) == 8: form = "sdwa"
        have[(CPUG[cpu], m)].add(form)
    for l in open(os.path.join(ROOT, "crates/isa/tables/%s.tbl" % fam)):
        if l.startswith("#") or not l.strip(): continue
        f = l.split()
        name, cols, rest = f[1], f[2:9], f[9:]
        flags = [x for x in rest if x.startswith("+")]
        for g, c in zip(GENS, cols):
            if c == "-": continue
            forms = ["e32", "e64"] + (["sdwa", "dpp"] if g not in ("gfx6", "gfx7") else [])
            for fo in forms:
                fl = [x for x in flags if x.startswith("+no" + fo)]
                if fl and ("=" not in fl[0] or g in fl[0].split("=")[1].split(",")): continue
                if fo not in have.get((g, name), ()):
                    print("MISSING", fam, g, name, fo); missing += 1
print("missing", missing)
