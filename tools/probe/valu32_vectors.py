"""Test-vector generation for VOP1/VOP2/VOPC (all forms). gfx8+: field mutations of the probed words,
disassembled by llvm-mc; gfx6/gfx7: operand mutations of the probed statements, assembled by llvm-mc."""
import os, re, sys
from valu32_llvm import disasm, assemble, words_to_bytes, bytes_str

VEC_CPU = {"gfx6": "gfx600", "gfx7": "gfx700", "gfx8": "gfx803", "gfx9": "gfx900", "gfx908": "gfx908",
           "gfx90a": "gfx90a", "gfx940": "gfx940"}
ASM_CPU = {"gfx6": "tahiti", "gfx7": "bonaire"}

def setf(w, lo, n, v):
    return (w & ~(((1 << n) - 1) << lo)) | ((v & ((1 << n) - 1)) << lo)

SRC0 = [6, 7, 31, 106, 107, 102, 104, 125, 235, 251, 254, 126, 124, 112, 128, 129, 193, 208, 240, 242, 243, 247, 248, 256 + 254, 256]
LITS = [0x3e800000, 0x12345678, 0xffff8000, 0x4049, 0x3f800000, 0x3fe00000, 0x3800, 0x3118, 0x40, 0xffffffff]

def var_e32(w, i):
    out = []
    for k in range(6):
        j = (i * 7 + k * 3) % (len(SRC0) + len(LITS) + 2)
        if j < len(SRC0):
            out.append([setf(w[0], 0, 9, SRC0[j])] + w[1:])
        elif j < len(SRC0) + len(LITS):
            if len(w) == 1:
                out.append([setf(w[0], 0, 9, 255), LITS[j - len(SRC0)]])
        elif j == len(SRC0) + len(LITS):
            out.append([setf(setf(w[0], 17, 8, 0), 9, 8, 254) if (w[0] >> 31) == 0 or (w[0] >> 25) == 0x3E else setf(w[0], 17, 8, 0)] + w[1:])
        else:
            out.append([setf(w[0], 17, 8, 254)] + w[1:])
    return out

def var_e64(w, i):
    w0, w1 = w
    muts = [lambda a, b: (setf(a, 8, 3, 1), b), lambda a, b: (a, setf(b, 29, 3, 1)),
            lambda a, b: (setf(a, 15, 1, 1), b), lambda a, b: (a, setf(b, 27, 2, 1)),
            lambda a, b: (a, setf(b, 27, 2, 2)), lambda a, b: (a, setf(b, 27, 2, 3)),
            lambda a, b: (setf(a, 8, 3, 3), setf(b, 29, 3, 3)), lambda a, b: (a, setf(b, 0, 9, 6)),
            lambda a, b: (a, setf(b, 9, 9, 129) if (b >> 9) & 0x1ff else b), lambda a, b: (a, setf(b, 0, 9, 240)),
            lambda a, b: (a, setf(b, 0, 9, 248)), lambda a, b: (a, setf(b, 0, 9, 106)),
            lambda a, b: (a, setf(b, 9, 9, 126) if (b >> 9) & 0x1ff else b), lambda a, b: (a, setf(b, 0, 9, 193)),
            lambda a, b: (setf(a, 0, 8, 0), b), lambda a, b: (a, setf(b, 0, 9, 112)),
            lambda a, b: (setf(a, 8, 7, 106) if ((a >> 8) & 0x7f) == 0 else a, b)]
    return [list(muts[(i * 5 + k * 3) % len(muts)](w0, w1)) for k in range(6)]

def var_sdwa(w, i, cpu):
    w0, w1 = w
    g9 = cpu != "gfx803"
    muts = [lambda b: setf(b, 8, 3, 0), lambda b: setf(b, 8, 3, 5), lambda b: setf(b, 11, 2, 1),
            lambda b: setf(b, 11, 2, 0), lambda b: setf(b, 16, 3, 1), lambda b: setf(b, 16, 3, 4),
            lambda b: setf(b, 19, 1, 1), lambda b: setf(b, 20, 1, 1), lambda b: setf(b, 21, 1, 1),
            lambda b: setf(b, 24, 3, 2), lambda b: setf(b, 27, 1, 1), lambda b: setf(b, 28, 2, 3),
            lambda b: setf(b, 13, 1, 1), lambda b: setf(setf(b, 16, 3, 3), 24, 3, 5)]
    if g9:
        muts += [lambda b: setf(setf(b, 0, 8, 6), 23, 1, 1), lambda b: setf(b, 14, 2, 1),
                 lambda b: setf(setf(b, 0, 8, 128), 23, 1, 1), lambda b: setf(b, 8, 8, 0)]
    return [[w0, muts[(i * 3 + k * 5) % len(muts)](w1)] for k in range(5)]

DPPC = [0x1B, 0x39, 0x101, 0x10F, 0x111, 0x11F, 0x121, 0x12F, 0x130, 0x134, 0x138, 0x13C, 0x140, 0x141, 0x142, 0x143]
def var_dpp(w, i):
    w0, w1 = w
    out = []
    for k in range(5):
        b = w1
        if ((b >> 8) & 0x1ff) >= 0x150:
            b = setf(b, 8, 9, 0x150 + (i + k) % 16)
        else:
            b = setf(b, 8, 9, DPPC[(i * 3 + k * 5) % len(DPPC)])
        m = (i + k) % 6
        if m == 0: b = setf(b, 19, 1, 1)
        elif m == 1: b = setf(setf(b, 28, 4, 3), 24, 4, 0xa)
        elif m == 2: b = setf(b, 20, 4, 0x5)
        elif m == 3: b = setf(b, 20, 4, 0xa)
        elif m == 4: b = setf(b, 19, 1, 1) | (1 << 20)
        out.append([w0, b])
    return out

ALT1 = ["s7", "vcc_lo", "exec_lo", "m0", "ttmp4", "0", "1", "-1", "-16", "0.5", "-4.0", "1.0", "0x12345678", "v255"]
ALT2 = ["s[6:7]", "vcc", "exec", "ttmp[4:5]", "0", "-1", "0.5", "-4.0", "0x12345678", "v[254:255]"]

def stmt_vars(s, form, i):
    m, _, rest = s.partition(" ")
    out = [s]
    if not rest:
        return out
    tok = "v[10:11]" if "v[10:11]" in rest else "v10"
    alts = ALT2 if tok.startswith("v[") else ALT1
    for k in range(5 if form == "e32" else 3):
        out.append(m + " " + rest.replace(tok, alts[(i * 3 + k * 4) % len(alts)], 1))
    if form == "e64":
        mods = ["-" + tok, "|" + tok + "|", "-|" + tok + "|"]
        out.append(m + " " + rest.replace(tok, mods[i % 3], 1))
        out.append(s + [" clamp", " mul:2", " mul:4", " div:2"][i % 4])
        tb = "v[20:21]" if "v[20:21]" in rest else "v20"
        if tb in rest:
            out.append(m + " " + rest.replace(tb, ["s9", "1", "0.5", "exec_lo"][i % 4] if tb == "v20" else ["s[8:9]", "1", "-0.5", "exec"][i % 4], 1))
    return out

def write_vectors(rows, D, root):
    per = {"VOP1": [], "VOP2": [], "VOPC": []}
    jobs = {}  # cpu -> list of (fam, words)
    for idx, r in enumerate(sorted(rows.values(), key=lambda r: (r["fam"], r["name"], r["sig"]))):
        for gen in ("gfx8", "gfx9", "gfx908", "gfx90a", "gfx940"):
            if gen not in r["ops"]:
                continue
            cpu = VEC_CPU[gen]
            if gen == "gfx9" and "gfx900" not in r["cpus9"]:
                if "gfx906" not in r["cpus9"]:
                    print("NOVEC", r["name"], sorted(r["cpus9"]), file=sys.stderr); continue
                cpu = "gfx906"
            ws = r["words"].get(cpu, {})
            for form, w in ws.items():
                cand = [w]
                if form == "e32": cand += var_e32(w, idx)
                elif form == "e64": cand += var_e64(w, idx)
                elif form == "sdwa": cand += var_sdwa(w, idx, cpu)
                else: cand += var_dpp(w, idx)
                for c in cand:
                    jobs.setdefault(cpu, []).append((r["fam"], r["name"], form, c))
    for cpu, js in jobs.items():
        outs = disasm(cpu, [words_to_bytes(j[3]) for j in js])
        seen = set()
        for j, t in zip(js, outs):
            if t is None or "nvalid" in t or "/*" in t:
                continue
            bs = bytes_str(words_to_bytes(j[3]))
            if (cpu, bs) in seen: continue
            seen.add((cpu, bs))
            per[j[0]].append((cpu, bs, t, j[1], j[2]))
    for gen in ("gfx6", "gfx7"):
        sts = []
        for idx, r in enumerate(sorted(rows.values(), key=lambda r: (r["fam"], r["name"], r["sig"]))):
            for form, s in r.get("stmts", {}).get(gen, {}).items():
                for v in stmt_vars(s, form, idx):
                    sts.append((r["fam"], r["name"], form, v))
        got = assemble(ASM_CPU[gen], [s[3] for s in sts])
        seen = set()
        for s, (t, bs) in zip(sts, got):
            if t is None: continue
            is3 = (bs[3] >> 2) == 0x34
            if is3 != (s[2] == "e64"): continue
            b = bytes_str(bs)
            if b in seen: continue
            seen.add(b)
            per[s[0]].append((VEC_CPU[gen], b, t, s[1], s[2]))
    order = list(VEC_CPU.values()) + ["gfx906"]
    for fam, lst in per.items():
        lst.sort(key=lambda x: (order.index(x[0]), x[3], ["e32", "e64", "sdwa", "dpp"].index(x[4])))
        path = os.path.join(root, "tests/vectors/%s.txt" % fam.lower())
        open(path, "w").write("".join("%s\t%s\t%s\n" % (c, b, t) for c, b, t, _, _ in lst))
        print(fam, len(lst), "vectors", file=sys.stderr)
