#!/usr/bin/env python3
"""Probe LLVM 19 for the MIMG family on all seven generations.

Regenerates crates/isa/tables/mimg.tbl and tests/vectors/mimg.txt.
gfx8+: every 7-bit opcode is disassembled (one llvm-mc call per processor).
gfx6/gfx7: candidate mnemonics are assembled with -mcpu=tahiti / -mcpu=bonaire.
Run from anywhere: python3 tools/probe/misc_mimg.py
"""
import os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from misc_llvm import disasm, assemble, bytes_of_words, fmt_bytes, roundtrip_split, dedupe

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GENS = ["gfx6", "gfx7", "gfx8", "gfx9", "gfx908", "gfx90a", "gfx940"]
DIS_CPUS = {"gfx8": ["gfx803", "gfx801", "gfx802", "gfx805", "gfx810"],
            "gfx9": ["gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"],
            "gfx908": ["gfx908"], "gfx90a": ["gfx90a"],
            "gfx940": ["gfx940", "gfx941", "gfx942"]}
ASM_CPUS = {"gfx6": "tahiti", "gfx7": "bonaire"}
VEC_DIS = ["gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx940"]
VEC_ASM = {"gfx600": "tahiti", "gfx700": "bonaire"}

# canonical distinct field values
VDATA, VADDR, SRSRC, SSAMP = 2, 6, 2, 5          # v2, v6, s[8:15], s[20:23] (even VGPRs: gfx90a needs aligned tuples)

# candidate mnemonics for gfx6/gfx7 (strings of libLLVM-19 plus anything found on gfx8+)
CANDIDATES = """image_atomic_add image_atomic_and image_atomic_cmpswap image_atomic_dec
image_atomic_fcmpswap image_atomic_fmax image_atomic_fmin image_atomic_inc image_atomic_or
image_atomic_rsub image_atomic_smax image_atomic_smin image_atomic_sub image_atomic_swap
image_atomic_umax image_atomic_umin image_atomic_xor image_atomic_add_flt image_atomic_min_flt
image_atomic_max_flt image_atomic_pk_add_f16 image_atomic_pk_add_bf16
image_gather4 image_gather4_b image_gather4_b_cl
image_gather4_b_cl_o image_gather4_b_o image_gather4_c image_gather4_c_b image_gather4_c_b_cl
image_gather4_c_b_cl_o image_gather4_c_b_o image_gather4_c_cl image_gather4_c_cl_o image_gather4_c_l
image_gather4_c_l_o image_gather4_c_lz image_gather4_c_lz_o image_gather4_c_o image_gather4_cl
image_gather4_cl_o image_gather4_l image_gather4_l_o image_gather4_lz image_gather4_lz_o
image_gather4_o image_gather4h image_get_lod image_get_resinfo image_load image_load_mip
image_load_mip_pck image_load_mip_pck_sgn image_load_pck image_load_pck_sgn image_msaa_load
image_sample image_sample_b image_sample_b_cl image_sample_b_cl_o image_sample_b_o image_sample_c
image_sample_c_b image_sample_c_b_cl image_sample_c_b_cl_o image_sample_c_b_o image_sample_c_cd
image_sample_c_cd_cl image_sample_c_cd_cl_o image_sample_c_cd_o image_sample_c_cl
image_sample_c_cl_o image_sample_c_d image_sample_c_d_cl image_sample_c_d_cl_o image_sample_c_d_o
image_sample_c_l image_sample_c_l_o image_sample_c_lz image_sample_c_lz_o image_sample_c_o
image_sample_cd image_sample_cd_cl image_sample_cd_cl_o image_sample_cd_o image_sample_cl
image_sample_cl_o image_sample_d image_sample_d_cl image_sample_d_cl_o image_sample_d_o
image_sample_l image_sample_l_o image_sample_lz image_sample_lz_o image_sample_o image_store
image_store_mip image_store_mip_pck image_store_pck""".split()


def word(op, dmask=1, ssamp=0, vdata=VDATA, vaddr=VADDR, srsrc=SRSRC, bits0=0, d16=0):
    w0 = 0xF0000000 | (dmask << 8) | ((op & 0x7F) << 18) | bits0
    w1 = vaddr | (vdata << 8) | (srsrc << 16) | (ssamp << 21) | (d16 << 31)
    return bytes_of_words([w0, w1])


REG = re.compile(r"^([vsa])(\d+)$|^([vsa])\[(\d+):(\d+)\]$")


def reg(s):
    m = REG.match(s)
    if not m:
        return None
    if m.group(1):
        return m.group(1), int(m.group(2)), 1
    return m.group(3), int(m.group(4)), int(m.group(5)) - int(m.group(4)) + 1


def split(text):
    mn, _, rest = text.partition(" ")
    toks = [t.strip() for t in rest.split(",")]
    last = toks[-1].split()
    toks[-1] = last[0]
    return mn, toks, last[1:]


def btype(n):
    return "b%d" % (32 * n)


def probe_dis():
    """gen -> cpu -> op -> (text, operands-signature)"""
    found = {}
    for gen, cpus in DIS_CPUS.items():
        for cpu in cpus:
            bl = []
            for op in range(128):
                bl.append(word(op, 1, 0))
                bl.append(word(op, 1, SSAMP))
            res = disasm(cpu, bl)
            for op in range(128):
                r0, r1 = res[2 * op], res[2 * op + 1]
                r = r1 or r0
                if not r:
                    continue
                mn, ops, mods = split(r[0])
                regs = [reg(o) for o in ops]
                assert regs[0][1] == VDATA and regs[1][1] == VADDR and regs[2][1] == 4 * SRSRC, r
                sig = ["vdata:" + btype(regs[0][2]), "vaddr:" + btype(regs[1][2]),
                       "srsrc:" + btype(regs[2][2])]
                if r1:
                    assert regs[3][1] == 4 * SSAMP, r
                    sig.append("ssamp:" + btype(regs[3][2]))
                found.setdefault(gen, {}).setdefault(cpu, {})[op] = (mn, sig, bool(r1))
    return found


def vdata_n(mn, dmask):
    if "gather4" in mn:
        return 4
    n = bin(dmask).count("1") or 1
    if mn.endswith("cmpswap") and dmask in (1, 3):
        n = 2
    return n


def regstr(k, base, n):
    return "%s%d" % (k, base) if n == 1 else "%s[%d:%d]" % (k, base, base + n - 1)


def probe_asm(known_rows):
    """gen -> mnemonic -> (op, sig, echo, stmt-builder-info) for gfx6/gfx7."""
    out = {}
    errs = {}
    for gen, cpu in ASM_CPUS.items():
        stmts, keys = [], []
        for mn in CANDIDATES:
            for samp in (False, True):
                for vd, dm in ((1, 1), (2, 3), (4, 1), (4, 0xF)):
                    for va in range(1, 17):
                        s = "%s %s, %s, s[8:15]%s dmask:0x%x" % (
                            mn, regstr("v", VDATA, vd), regstr("v", VADDR, va),
                            ", s[20:23]" if samp else "", dm)
                        stmts.append(s)
                        keys.append((mn, samp, vd, dm, va))
        res = assemble(cpu, stmts)
        for k, (echo, enc) in zip(keys, res):
            mn = k[0]
            if echo is None:
                errs.setdefault((gen, mn), set()).add(enc)
                continue
            if (gen, mn) in out and out[(gen, mn)]["va"] <= k[4] and out[(gen, mn)]["vd"] <= k[2]:
                continue
            bs = [int(x, 16) for x in enc.split(",")]
            w0 = bs[0] | bs[1] << 8 | bs[2] << 16 | bs[3] << 24
            op = ((w0 >> 18) & 0x7F) | ((w0 & 1) << 7)
            emn = echo.split()[0]
            sig = ["vdata:" + btype(k[2]), "vaddr:" + btype(k[4]), "srsrc:b256"]
            if k[1]:
                sig.append("ssamp:b128")
            cur = out.get((gen, mn))
            if cur is None or (k[4], k[2]) < (cur["va"], cur["vd"]):
                out[(gen, mn)] = dict(op=op, mn=emn, sig=sig, va=k[4], vd=k[2], samp=k[1])
    return out, errs


def main():
    dis = probe_dis()
    asm, errs = probe_asm(None)
    rows = {}   # mnemonic -> dict
    def row(mn):
        return rows.setdefault(mn, {"ops": {}, "sig": None, "cpus": set(), "notes": []})
    for gen, cpus in dis.items():
        allc = DIS_CPUS[gen]
        per_mn = {}
        for cpu, ops in cpus.items():
            for op, (mn, sig, samp) in ops.items():
                per_mn.setdefault(mn, {}).setdefault(op, []).append(cpu)
                r = row(mn)
                if r["sig"] is None:
                    r["sig"] = sig
                elif r["sig"] != sig:
                    r["notes"].append("%s sig %s" % (cpu, sig))
        for mn, d in per_mn.items():
            assert len(d) == 1, (gen, mn, d)
            op, cl = list(d.items())[0]
            rows[mn]["ops"][gen] = op
            if gen == "gfx9" and set(cl) != set(allc):
                rows[mn]["cpus"] |= set(cl)
            elif set(cl) != set(allc):
                rows[mn]["notes"].append("%s only on %s" % (gen, ",".join(cl)))
    unresolved = []
    for gen in ASM_CPUS:
        for mn in CANDIDATES:
            a = asm.get((gen, mn))
            if a is None:
                e = errs.get((gen, mn), set())
                if e != {"instruction not supported on this GPU"}:
                    unresolved.append((gen, mn, sorted(e)))
                continue
            r = row(a["mn"])
            if gen in r["ops"]:
                assert r["ops"][gen] == a["op"]
            r["ops"][gen] = a["op"]
            if r["sig"] is None:
                r["sig"] = a["sig"]
            elif r["sig"] != a["sig"]:
                r["notes"].append("%s asm minimal form %s" % (gen, " ".join(a["sig"])))
    return dis, asm, rows, unresolved




# ---------------------------------------------------------------- output
MOD_BITS = [("unorm", 0, 12), ("glc", 0, 13), ("da", 0, 14), ("r128/a16", 0, 15),
            ("tfe/acc", 0, 16), ("lwe", 0, 17), ("slc", 0, 25), ("d16", 1, 31), ("bit7", 0, 7)]


def dis_variants(op, samp, gfx90a=False, sweep=False):
    """(label, bytes) variants for one gfx8+ opcode."""
    ss = SSAMP if samp else 0
    v = []
    for dm in (1, 0, 2, 3, 5, 7, 8, 0xF):
        v.append(("dmask%x" % dm, word(op, dm, ss)))
    for name, w, b in MOD_BITS:
        if name == "bit7" and not gfx90a:
            continue
        if w == 0:
            v.append((name, word(op, 0xF, ss, bits0=1 << b)))
        else:
            v.append((name, word(op, 0xF, ss, d16=1)))
    allb = (1 << 12) | (1 << 13) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 17) | (1 << 25)
    v.append(("all", word(op, 0xF, ss, bits0=allb, d16=1)))
    v.append(("all-nod16", word(op, 0x7, ss, bits0=allb)))
    v.append(("glc+slc", word(op, 0x3, ss, bits0=(1 << 13) | (1 << 25))))
    v.append(("tfe+d16", word(op, 0x7, ss, bits0=1 << 16, d16=1)))
    v.append(("hiregs", word(op, 0x1, 22 if samp else 0, vdata=252, vaddr=250, srsrc=23)))
    v.append(("v254", word(op, 0xF, 1 if samp else 0, vdata=254, vaddr=255, srsrc=1)))
    v.append(("lowregs", word(op, 0x3, 1 if samp else 0, vdata=0, vaddr=0, srsrc=0)))
    if sweep:   # every srsrc / ssamp field value on one load and one sampler
        for f in range(32):
            v.append(("srsrc%d" % f, word(op, 0x1, 2 if samp else 0, srsrc=f)))
            if samp:
                v.append(("ssamp%d" % f, word(op, 0x1, f, srsrc=2)))
        for vd in (0, 128, 200, 253, 255):
            v.append(("vdata%d" % vd, word(op, 0x3, 2 if samp else 0, vdata=vd, vaddr=255 - vd)))
    return v


def asm_variants(mn, sig):
    samp = len(sig) == 4
    va = int(sig[1].split(":b")[1]) // 32
    gather = "gather4" in mn
    cmpswap = mn.endswith("cmpswap")
    out = []
    def st(dm, mods, vd=None, vdb=VDATA, vab=VADDR, rs=8, sm=20):
        n = vdata_n(mn, dm) if vd is None else vd
        if cmpswap and dm == 0xF:
            n = 4
        if "tfe" in mods:
            n += 1
        s = "%s %s, %s, %s%s" % (mn, regstr("v", vdb, n), regstr("v", vab, va),
                                 regstr("s", rs, 8), (", " + regstr("s", sm, 4)) if samp else "")
        if dm:
            s += " dmask:0x%x" % dm
        if mods:
            s += " " + " ".join(mods)
        return s
    atomic = mn.startswith("image_atomic")
    dms = (1, 2, 4, 8) if gather else ((3, 0xF) if cmpswap else ((1, 3) if atomic else (1, 3, 7, 0xF, 5)))
    for dm in dms:
        out.append(st(dm, []))
    out.append(st(0, []))
    base = dms[-1] if not gather else 1
    for m in ("unorm", "glc", "slc", "r128", "tfe", "lwe", "da"):
        out.append(st(base, [m]))
    out.append(st(base, ["unorm", "glc", "slc", "r128", "tfe", "lwe", "da"]))
    out.append(st(dms[0], ["glc", "slc"]))
    out.append(st(dms[0], [], vdb=250, vab=240, rs=96, sm=92))
    out.append(st(dms[0], [], vdb=0, vab=0, rs=0, sm=0))
    # extra vaddr widths (the assembler accepts wider address tuples)
    for extra in (1, 2):
        s = st(dms[0], [])
        out.append(s.replace(regstr("v", VADDR, va), regstr("v", VADDR, va + extra), 1))
    return out


def flags_for(mn):
    f = []
    if mn.startswith("image_atomic"):
        f.append("+atomic")
    if mn.startswith("image_store"):
        f.append("+store")
    if "gather4" in mn:
        f.append("+gather")
    # The _pck loads/stores move raw packed data: LLVM 19 defines them without d16.
    if mn in ("image_get_lod", "image_get_resinfo") or "_pck" in mn:
        f.append("+nod16")
    return f


HEADER = """\
# MIMG: image memory instructions.  Generated by tools/probe/misc_mimg.py from LLVM 19; do not edit.
#
# Opcode = the 7-bit OP field, word0 bits [24:18].  MIMG does not exist on gfx940 (LLVM 19 rejects every
# MIMG word and every image_* statement there).  gfx90a keeps only the loads, stores, atomics,
# image_get_resinfo and plain image_sample (no FeatureExtendedImageInsts).
#
# Operand widths are the BASE widths LLVM's disassembler prints with dmask=0x1, no tfe/d16/lwe:
#   vdata: actual register count = max(1, popcount(dmask)) for loads/stores/samples/get_lod/resinfo;
#          always 4 for image_gather4* (+gather); d16 halves it (rounded up) on gfx9/gfx908/gfx90a
#          only (gfx8 is unpacked-d16: no change); +1 register when tfe is set (gfx6-gfx908; gfx90a has
#          no tfe, bit 16 selects AGPRs instead).  Atomics follow a different (quirky) decoder rule:
#          see tools/probe/NOTES-misc.md.
#   vaddr: the smallest address tuple LLVM defines for the instruction (the encoding does not record the
#          width); +vaddr= lists every tuple size llvm-mc accepts.
#   srsrc: always printed as 8 SGPRs, even with r128.   ssamp: 4 SGPRs, only for samplers/gathers/get_lod.
#
# Flags:
#   +atomic  image atomic: vdata is the data source; with glc the pre-op value is returned in vdata.
#            d16 is rejected (the word does not decode).
#   +store   vdata is a source, not a destination.
#   +gather  vdata is always 4 registers (dmask selects the component, one bit).
#   +nod16   llvm-mc takes no d16 (the disassembler still decodes the bit).
#   +vaddr=LIST  the address tuple sizes (VGPR counts) llvm-mc accepts; added by tools/probe/mimg_vaddr.py.
#
# ENC   MNEMONIC  GFX6 GFX7 GFX8 GFX9 GFX908 GFX90A GFX940  OPERANDS  FLAGS
"""


def write_outputs(dis, asm, rows):
    # ---- table
    lines = [HEADER]
    order = sorted(rows, key=lambda m: (min(rows[m]["ops"].values()), m))
    for mn in order:
        r = rows[mn]
        cols = [str(r["ops"].get(g, "-")) for g in GENS]
        fl = flags_for(mn)
        if r["cpus"]:
            fl.append("+cpus=" + ",".join(sorted(r["cpus"])))
        lines.append("MIMG  %-24s %s  %s%s\n" % (mn, " ".join("%3s" % c for c in cols),
                                                  " ".join(r["sig"]), (" " + " ".join(fl)) if fl else ""))
    open(os.path.join(ROOT, "crates/isa/tables/mimg.tbl"), "w").write("".join(lines))
    # ---- vectors
    vec = []
    stats = {"roundtrip_bad": []}
    gen_of = {"gfx803": "gfx8", "gfx900": "gfx9", "gfx906": "gfx9", "gfx908": "gfx908",
              "gfx90a": "gfx90a", "gfx940": "gfx940"}
    for cpu in VEC_DIS:
        gen = gen_of[cpu]
        bl, meta = [], []
        for mn in order:
            op = rows[mn]["ops"].get(gen)
            if op is None:
                continue
            samp = len(rows[mn]["sig"]) == 4
            sweep = mn in ("image_load", "image_sample", "image_atomic_cmpswap", "image_store")
            for label, b in dis_variants(op, samp, cpu == "gfx90a", sweep):
                bl.append(b)
                meta.append((mn, label))
        if not bl:
            continue
        res = disasm(cpu, bl)
        pairs = []
        for b, (mn, label), r in zip(bl, meta, res):
            if r is None:
                continue
            if r[1] != fmt_bytes(b):
                stats["roundtrip_bad"].append((cpu, fmt_bytes(b), r[0], "re-encodes as " + r[1]))
                continue
            pairs.append((fmt_bytes(b), r[0]))
        clean, dirty = roundtrip_split(cpu, pairs)
        vec += ["%s\t%s\t%s\n" % (cpu, b, t) for b, t in clean]
        stats["roundtrip_bad"] += [(cpu, b, t, why) for b, t, why in dirty]
    for vcpu, acpu in VEC_ASM.items():
        gen = "gfx6" if vcpu == "gfx600" else "gfx7"
        stmts = []
        for mn in order:
            if gen in rows[mn]["ops"]:
                stmts += asm_variants(mn, rows[mn]["sig"])
        for s, (echo, enc) in zip(stmts, assemble(acpu, stmts)):
            if echo is None:
                stats.setdefault("asm_rejected", []).append((vcpu, s, enc))
                continue
            vec.append("%s\t%s\t%s\n" % (vcpu, enc, echo))
    vec = dedupe(vec)
    open(os.path.join(ROOT, "tests/vectors/mimg.txt"), "w").write("".join(vec))
    return len(order), len(vec), stats


def check_coverage(rows, vecfile):
    have = set()
    for l in open(vecfile):
        cpu, b, t = l.rstrip("\n").split("\t")
        have.add((cpu, t.split()[0]))
    need = {"gfx6": ["gfx600"], "gfx7": ["gfx700"], "gfx8": ["gfx803"], "gfx9": ["gfx900"],
            "gfx908": ["gfx908"], "gfx90a": ["gfx90a"], "gfx940": ["gfx940"]}
    miss = []
    for mn, r in rows.items():
        for g in r["ops"]:
            if not any((c, mn) in have for c in need[g]):
                miss.append((g, mn))
    return miss


def predict_vdata(mn, gen, w0, w1, base):
    """Register count LLVM prints for vdata (the rule documented in NOTES-misc.md)."""
    dmask = (w0 >> 8) & 0xF
    tfe = (w0 >> 16) & 1 if gen != "gfx90a" else 0
    d16 = (w1 >> 31) & 1
    vd = (w1 >> 8) & 0xFF
    if mn.startswith("image_atomic"):
        n = bin(dmask).count("1") + tfe
        cmp_ = mn.endswith("cmpswap")
        m = {2: 2, 4: 4} if cmp_ else {1: 1, 2: 2, 4: 5}
        c = n if gen in ("gfx6", "gfx7") else m.get(n, base)   # gfx6/7: assembler input
    else:
        c = 4 if "gather4" in mn else (bin(dmask).count("1") or 1)
        if d16 and gen in ("gfx9", "gfx908", "gfx90a"):
            c = (c + 1) // 2
        c += tfe
        if "gather4" in mn and c not in (2, 4, 5):
            c = base
    if vd + c > 256:
        c = base
    return c


def check_rule(rows, vecfile):
    gen_of = {"gfx600": "gfx6", "gfx700": "gfx7", "gfx803": "gfx8", "gfx900": "gfx9", "gfx906": "gfx9",
              "gfx908": "gfx908", "gfx90a": "gfx90a"}
    bad = []
    for l in open(vecfile):
        cpu, b, t = l.rstrip("\n").split("\t")
        bs = [int(x, 16) for x in b.split(",")]
        w0 = bs[0] | bs[1] << 8 | bs[2] << 16 | bs[3] << 24
        w1 = bs[4] | bs[5] << 8 | bs[6] << 16 | bs[7] << 24
        mn, ops, mods = split(t)
        base = int(rows[mn]["sig"][0].split(":b")[1]) // 32
        got = reg(ops[0])[2]
        exp = predict_vdata(mn, gen_of[cpu], w0, w1, base)
        if got != exp:
            bad.append((cpu, t, exp))
    return bad


def run():
    dis, asm, rows, unresolved = main()
    os.makedirs(os.path.join(ROOT, "tests/vectors"), exist_ok=True)
    n, nv, stats = write_outputs(dis, asm, rows)
    return rows, nv, stats


if __name__ == "__main__":
    dis, asm, rows, unresolved = main()
    for mn, r in rows.items():
        if r["notes"]:
            print("NOTE", mn, r["notes"])
    if unresolved:
        print("UNRESOLVED", unresolved)
    os.makedirs(os.path.join(ROOT, "tests/vectors"), exist_ok=True)
    n, nv, stats = write_outputs(dis, asm, rows)
    print("rows", n, "vectors", nv)
    for k, v in stats.items():
        print(k, len(v))
    bad = check_rule(rows, os.path.join(ROOT, "tests/vectors/mimg.txt"))
    print("vdata rule mismatches", len(bad), bad[:10])
    print("missing coverage", check_coverage(rows, os.path.join(ROOT, "tests/vectors/mimg.txt")))
