#!/usr/bin/env python3
"""gcnkit probe for VOP1/VOP2/VOPC (all forms) against LLVM 19 llvm-mc.
Regenerates crates/isa/tables/{vop1,vop2,vopc}.tbl and tests/vectors/{vop1,vop2,vopc}.txt.
Usage: python3 tools/probe/valu32_probe.py   (from anywhere; takes ~1 minute)"""
import json, os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from valu32_llvm import disasm, assemble, words_to_bytes, bytes_str
import valu32_discover as disc
from valu32_types import infer
from valu32_gfx67 import probe_gfx67

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
GENS = ["gfx6", "gfx7", "gfx8", "gfx9", "gfx908", "gfx90a", "gfx940"]
GFX9 = ["gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"]
GEN_CPU = {"gfx8": ["gfx803"], "gfx9": GFX9, "gfx908": ["gfx908"], "gfx90a": ["gfx90a"], "gfx940": ["gfx940"]}
VEC_CPU = {"gfx6": "gfx600", "gfx7": "gfx700", "gfx8": "gfx803", "gfx9": "gfx900", "gfx908": "gfx908",
           "gfx90a": "gfx90a", "gfx940": "gfx940"}
VOP3OFF = {"gfx6": {"VOPC": 0, "VOP2": 0x100, "VOP1": 0x180}, "gfx8": {"VOPC": 0, "VOP2": 0x100, "VOP1": 0x140}}

def base(t):
    return re.sub(r"_(e32|e64|sdwa|dpp)$", "", t.split()[0])

REG = re.compile(r"^[-|]*(?:abs\()?([vsa])(?:(\d+)|\[(\d+):(\d+)\])")

def roles_of(text, fam, form):
    """Map printed operands to roles by their start register number."""
    parts = text.split(None, 1)
    if len(parts) == 1:
        return []
    ops = [o.strip() for o in parts[1].split(",")]
    # strip trailing modifiers from the last operand
    ops[-1] = ops[-1].split(" ")[0]
    out, nvcc = [], 0
    for o in ops:
        if o == "vcc":
            nvcc += 1
            if fam == "VOPC":
                out.append(("sdst", 2))
            elif text.startswith(("v_cndmask",)):
                out.append(("src2", 2))
            else:
                out.append(("sdst", 2) if nvcc == 1 else ("src2", 2))
            continue
        if o == "m0":
            out.append(("src1", 1)); continue
        if o.startswith("0x"):
            out.append(("k", 1)); continue
        m = REG.match(o)
        if not m:
            out.append(("?" + o, 1)); continue
        kind = m.group(1)
        if m.group(2) is not None:
            r, n = int(m.group(2)), 1
        else:
            r, n = int(m.group(3)), int(m.group(4)) - int(m.group(3)) + 1
        if r == 30:
            role = "vdst" if kind in "va" else "sdst"
        elif r == 0 and kind == "s":
            role = "sdst"
        elif r == 10:
            role = "src0"
        elif r == 20:
            role = "src1"
        elif r == 40:
            role = "src2"
        else:
            role = "?%s" % o
        out.append((role, n))
    return out

def main():
    D = {cpu: disc.discover(cpu) for cpu in disc.CPUS}
    rows = {}  # key (fam,name,sig) -> dict
    def row_for(fam, name, roles):
        types = infer(name, roles)
        sig = " ".join("%s:%s" % (r, t) for (r, _), t in zip(roles, types))
        key = (fam, name, sig)
        if key not in rows:
            rows[key] = {"fam": fam, "name": name, "ops": {}, "forms": {}, "cpus9": set(), "sig": sig,
                         "words": {}, "roles": roles}
        return rows[key]
    # gfx8+
    for gen, cpus in GEN_CPU.items():
        off = VOP3OFF["gfx8"]
        for cpu in cpus:
            d = D[cpu]
            e64 = d["VOP3:e64"]
            for fam in ("VOP1", "VOP2", "VOPC"):
                for op, (t, ws) in d[fam + ":e32"].items():
                    if fam == "VOP2" and op >= 62:
                        continue
                    name = base(t)
                    forms = {"e32": (t, ws)}
                    v = e64.get(op + off[fam])
                    if v and base(v[0]) == name:
                        forms["e64"] = v
                    for f in ("sdwa", "dpp"):
                        v = d["%s:%s" % (fam, f)].get(op)
                        if v and base(v[0]) == name:
                            forms[f] = v
                    src = forms.get("e64", forms["e32"])[0]
                    roles = roles_of(src, fam, "e64" if "e64" in forms else "e32")
                    r = row_for(fam, name, roles)
                    if gen in r["ops"] and r["ops"][gen] != op:
                        print("WARN op mismatch", gen, cpu, name, r["ops"][gen], op, file=sys.stderr)
                    r["ops"][gen] = op
                    if gen == "gfx9":
                        r["cpus9"].add(cpu)
                    r["forms"].setdefault(gen, set()).update(forms)
                    r["words"].setdefault(cpu, {}).update({f: v[1] for f, v in forms.items()})
    # gfx6/7
    g67 = probe_gfx67(rows)
    for gen in ("gfx6", "gfx7"):
        for item in g67[gen]:
            r = row_for(item["fam"], item["name"], item["roles"])
            r["ops"][gen] = item["op"]
            r["forms"].setdefault(gen, set()).update(item["forms"])
            r.setdefault("stmts", {}).setdefault(gen, {}).update(item["stmts"])
    json.dump({"|".join(k): {"ops": v["ops"], "forms": {g: sorted(f) for g, f in v["forms"].items()}}
               for k, v in rows.items()}, open("/tmp/valu32_rows.json", "w"), indent=1)
    write_tables(rows)
    import valu32_vectors
    valu32_vectors.write_vectors(rows, D, ROOT)

FLAGDOC = """# Flags:
#   +cpus=LIST      the gfx9 column applies only to these gfx9 processors
#   +noe32          no 32-bit (_e32) form (never happens on gfx8+ in LLVM 19)
#   +noe64[=GENS]   no VOP3 (_e64) form (on the listed generations, or on all where the row exists)
#   +nosdwa[=GENS]  no SDWA form (gfx8+ only; gfx6/gfx7 have no SDWA/DPP at all)
#   +nodpp[=GENS]   no DPP form (gfx8+ only)
#   +tied           src2 (the accumulator) is vdst itself; LLVM does not print it in _e32/_e64/_sdwa/_dpp
#   +rev            (informational) operands reversed (…rev): src1 OP src0
#   +optvcc         the 32-bit form may leave out its `vcc` operand (v_cndmask_b32's mask, gfx9's carry-out)
# Roles: k = the 32-bit literal constant of v_madmk/v_madak/v_fmamk/v_fmaak (printed as an operand).
#   sdst of v_readfirstlane_b32/v_readlane_b32 is the SGPR written through the VDST field.
# VOP3 (_e64) opcode = gfx6/gfx7: VOPC op, VOP2 0x100+op, VOP1 0x180+op;
#                      gfx8+:     VOPC op, VOP2 0x100+op, VOP1 0x140+op (verified against LLVM 19, no exceptions).
# Generated by tools/probe/valu32_probe.py from LLVM 19 llvm-mc; do not edit by hand.
"""

def write_tables(rows):
    for fam in ("VOP1", "VOP2", "VOPC"):
        lines = ["# %s.tbl: %s instructions (32-bit form, plus their _e64/_sdwa/_dpp forms)" % (fam.lower(), fam),
                 "# ENC  MNEMONIC  GFX6 GFX7 GFX8 GFX9 GFX908 GFX90A GFX940  OPERAND... [FLAG...]", FLAGDOC.rstrip()]
        rs = sorted((r for r in rows.values() if r["fam"] == fam),
                    key=lambda r: (min((GENS.index(g) for g in r["ops"])), r["name"]))
        for r in rs:
            cols = [str(r["ops"].get(g, "-")) for g in GENS]
            flags = []
            if r["cpus9"] and len(r["cpus9"]) != len(GFX9):
                flags.append("+cpus=" + ",".join(c for c in GFX9 if c in r["cpus9"]))
            have = [g for g in GENS if g in r["ops"]]
            # v_nop's SDWA and DPP forms carry no operand, and LLVM decodes them only from an
            # extension dword that is (nearly) zero, which the probe's words never are.
            if r["name"] == "v_nop":
                r["forms"] = {g: set(f) | {"sdwa", "dpp"} for g, f in r["forms"].items()}
            for f, fl in (("e32", "+noe32"), ("e64", "+noe64"), ("sdwa", "+nosdwa"), ("dpp", "+nodpp")):
                gens = have if f in ("e32", "e64") else [g for g in have if g not in ("gfx6", "gfx7")]
                miss = [g for g in gens if f not in r["forms"].get(g, ())]
                if miss and gens:
                    flags.append(fl if miss == gens else fl + "=" + ",".join(miss))
            if r["name"].startswith(("v_mac_", "v_fmac_", "v_pk_fmac_", "v_dot")):
                flags.append("+tied")
            # Found with llvm-mc-19 (assembling `v_cndmask_b32 v0, v1, v2` and the like), not
            # by the probe's disassembly.
            if fam == "VOP2" and r["name"] in ("v_cndmask_b32", "v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32"):
                flags.append("+optvcc")
            lines.append("  ".join([fam, r["name"]] + cols + ([r["sig"]] if r["sig"] else []) + flags))
        path = os.path.join(ROOT, "crates/isa/tables/%s.tbl" % fam.lower())
        open(path, "w").write("\n".join(lines) + "\n")
        print(fam, len(rs), "rows", file=sys.stderr)

if __name__ == "__main__":
    main()
