#!/usr/bin/env python3
"""Probe LLVM 19 for the DS, MUBUF, MTBUF and FLAT/GLOBAL/SCRATCH families.

Regenerates crates/isa/tables/{ds,mubuf,mtbuf,flat}.tbl and tests/vectors/{ds,mubuf,mtbuf,flat}.txt.
Run from anywhere:  python3 tools/probe/mem_probe.py
gfx8+ rows come from disassembling every opcode value; gfx6/gfx7 rows from assembling candidate
statements (LLVM 19 cannot disassemble gfx6/gfx7).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from memlib import LLVM, assemble, disassemble, fmt_bytes, parse_reg, split_operands, words_to_bytes  # noqa

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GENS = ["gfx6", "gfx7", "gfx8", "gfx9", "gfx908", "gfx90a", "gfx940"]
GEN_CPU = {"gfx6": "tahiti", "gfx7": "bonaire", "gfx8": "gfx803", "gfx9": "gfx900", "gfx908": "gfx908",
           "gfx90a": "gfx90a", "gfx940": "gfx940"}
VEC_CPU = {"gfx6": "gfx600", "gfx7": "gfx700", "gfx8": "gfx803", "gfx9": "gfx900", "gfx908": "gfx908",
           "gfx90a": "gfx90a", "gfx940": "gfx940"}
GFX9_CPUS = ["gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"]
NEW_GENS = ["gfx8", "gfx9", "gfx908", "gfx90a", "gfx940"]


# ----------------------------------------------------------------------------------------------
# word builders (gfx8+)

def ds_word(gen, op, off0=0, off1=0, gds=0, acc=0, addr=2, d0=4, d1=8, vdst=12):
    w0 = off0 | off1 << 8 | gds << 16 | op << 17 | acc << 25 | 0x36 << 26
    w1 = addr | d0 << 8 | d1 << 16 | vdst << 24
    return words_to_bytes([w0, w1])


def mubuf_word(gen, op, offset=0, offen=1, idxen=0, glc=0, sc1=0, lds=0, slc=0, tfe=0, vaddr=2, vdata=4,
               srsrc=8, soffset=3):
    w0 = offset | offen << 12 | idxen << 13 | glc << 14 | sc1 << 15 | lds << 16 | slc << 17 | op << 18 | 0x38 << 26
    w1 = vaddr | vdata << 8 | (srsrc >> 2) << 16 | tfe << 23 | soffset << 24
    return words_to_bytes([w0, w1])


def mtbuf_word(gen, op, offset=0, offen=1, idxen=0, glc=0, dfmt=4, nfmt=7, slc=0, tfe=0, vaddr=2, vdata=4,
               srsrc=8, soffset=3):
    w0 = offset | offen << 12 | idxen << 13 | glc << 14 | op << 15 | dfmt << 19 | nfmt << 23 | 0x3a << 26
    w1 = vaddr | vdata << 8 | (srsrc >> 2) << 16 | slc << 22 | tfe << 23 | soffset << 24
    return words_to_bytes([w0, w1])


def flat_word(gen, op, seg=0, offset=0, lds=0, glc=0, slc=0, sc1=0, acc=0, addr=2, data=4, saddr=None, vdst=8):
    if saddr is None:
        saddr = 0 if gen == "gfx8" else 0x7F
    w0 = (offset & 0x1FFF) | lds << 13 | seg << 14 | glc << 16 | slc << 17 | op << 18 | sc1 << 25 | 0x37 << 26
    w1 = addr | data << 8 | saddr << 16 | acc << 23 | vdst << 24
    return words_to_bytes([w0, w1])


FAMS = {
    "ds": (256, ds_word),
    "mubuf": (128, mubuf_word),
    "mtbuf": (16, mtbuf_word),
    "flat": (128, flat_word),
}


def probe_variants(fam, gen):
    """-> list of (variant name, kwargs). 'base' first."""
    acc = gen in ("gfx90a", "gfx940")
    if fam == "ds":
        v = [("base", {}), ("gds", {"gds": 1})]
        if acc:
            v.append(("acc", {"acc": 1}))
        return v
    if fam == "mubuf":
        v = [("base", {}), ("lds", {"lds": 1}), ("glc", {"glc": 1}),
             ("zero", {"offen": 0, "srsrc": 0, "soffset": 0})]
        if gen == "gfx940":
            v += [("zsc0", {"offen": 0, "srsrc": 0, "soffset": 0, "glc": 1}),
                  ("zsc1", {"offen": 0, "srsrc": 0, "soffset": 0, "sc1": 1})]
        if acc:
            v.append(("acc", {"tfe": 1}))
        return v
    if fam == "mtbuf":
        v = [("base", {}), ("glc", {"glc": 1})]
        if acc:
            v.append(("acc", {"tfe": 1}))
        return v
    if fam == "flat":
        v = [("base", {"seg": 0}), ("glc", {"seg": 0, "glc": 1})]
        if gen != "gfx8":
            v += [("gbase", {"seg": 2}), ("gglc", {"seg": 2, "glc": 1}), ("gsaddr", {"seg": 2, "saddr": 6}),
                  ("glds", {"seg": 2, "lds": 1}),
                  ("sbase", {"seg": 1}), ("sglc", {"seg": 1, "glc": 1}), ("ssaddr", {"seg": 1, "saddr": 6}),
                  ("slds", {"seg": 1, "lds": 1}), ("flds", {"seg": 0, "lds": 1}),
                  ("ssvs", {"seg": 1, "saddr": 6, "lds": 1})]
        if acc:
            v += [(n + "acc", dict(k, acc=1)) for n, k in list(v) if n in ("base", "gbase", "sbase")]
        return v
    raise KeyError(fam)


# ----------------------------------------------------------------------------------------------
# operand roles

def roles_for(fam, enc, mn, ops):
    """Map printed operand tokens to (role, kind, width)."""
    out = []
    for t in ops:
        r = parse_reg(t)
        if fam == "ds":
            if r is None:
                return None
            role = {2: "addr", 4: "data0", 8: "data1", 12: "vdst"}.get(r[1])
            if r[1] == 6:  # data1 of a write2 with 2-wide data0 started at 4? not used
                role = None
            if role is None:
                return None
            out.append((role, r[0], r[2]))
        elif fam in ("mubuf", "mtbuf"):
            if t == "off":
                out.append(("vaddr", "off", 1))
                continue
            if r is None:
                if re.match(r"^(-?\d+|m0|0x[0-9a-f]+)$", t):
                    out.append(("soffset", "i", 1))
                    continue
                return None
            if r[0] == "s":
                out.append(("srsrc" if r[2] == 4 else "soffset", "s", r[2]))
            else:
                out.append(({2: "vaddr", 4: "vdata"}[r[1]], r[0], r[2]))
        else:  # flat
            if t == "off":
                # saddr off (global/scratch) or vaddr off (scratch with saddr)
                if out and out[-1][0] == "vaddr" or (out and out[-1][0] == "vdata"):
                    out.append(("saddr", "off", 1))
                elif not out or out[-1][0] == "vdst":
                    out.append(("vaddr", "off", 1))
                else:
                    out.append(("saddr", "off", 1))
                continue
            if r is None:
                return None
            if r[0] == "s":
                out.append(("saddr", "s", r[2]))
            else:
                out.append(({8: "vdst", 2: "vaddr", 4: "vdata"}[r[1]], r[0], r[2]))
    return out


TYPED = {"u32": 32, "i32": 32, "f32": 32, "b32": 32, "u64": 64, "i64": 64, "f64": 64, "b64": 64,
         "f16": 16, "bf16": 16, "u16": 16, "i16": 16}


def op_type(fam, enc, mn, role, width, kind):
    if role == "srsrc":
        return "b128"
    if role == "soffset":
        return "b32"
    if role == "saddr":
        return "b64" if enc == "GLOBAL" else "b32"
    if role == "vaddr":
        if fam == "flat":
            return "b64" if enc == "FLAT" else ("b64" if enc == "GLOBAL" else "b32")
        return "b32" if width == 1 else "b64"
    if role == "addr":
        return "b32"
    bits = 32 * width
    parts = mn.split("_")
    suf = parts[-1]
    if suf in ("x2",):
        suf = parts[-2] if len(parts) > 2 else suf
    if "pk" in parts and ("f16" == suf) and bits == 32:
        return "v2f16"
    if "pk" in parts and ("bf16" == suf) and bits == 32:
        return "v2bf16"
    if suf in TYPED and TYPED[suf] == bits and ("atomic" in parts or fam == "ds" and not any(
            x in parts for x in ("read", "write", "read2", "write2", "read2st64", "write2st64", "load", "store"))):
        return suf
    return "b%d" % bits


# ----------------------------------------------------------------------------------------------

OPTFIELDS = {"ds": ["addr", "d0", "d1", "vdst"], "mubuf": ["vdata", "vaddr"], "mtbuf": ["vdata", "vaddr"],
             "flat": ["data", "vdst"]}


def field_masks(fam):
    fl = OPTFIELDS[fam]
    out = []
    for m in range(1 << len(fl)):
        out.append({f: 0 for i, f in enumerate(fl) if not (m >> i) & 1})
    out.sort(key=lambda d: len(d))  # most fields populated first
    return out


def probe_new(fam):
    """Disassemble every opcode value on gfx8+ CPUs. -> obs[cpu] = (gen, {variant: {op: (text, bytes)}}).

    LLVM's decoder rejects words whose unused register fields are non-zero, so each opcode is tried
    with every subset of the optional register fields zeroed; the valid word with most fields
    populated wins."""
    nops, builder = FAMS[fam]
    obs = {}
    cpus = [("gfx8", "gfx803")] + [("gfx9", c) for c in GFX9_CPUS] + [(g, GEN_CPU[g]) for g in ("gfx908", "gfx90a", "gfx940")]
    masks = field_masks(fam)
    for gen, cpu in cpus:
        items = []
        keys = []
        for vn, kw in probe_variants(fam, gen):
            for op in range(nops):
                for mi, m in enumerate(masks):
                    kk = dict(kw)
                    kk.update(m)
                    if fam == "flat" and gen != "gfx8" and kk.get("seg", 0) == 0:
                        kk.setdefault("saddr", 0)
                    items.append(builder(gen, op, **kk))
                    keys.append((vn, op, mi))
        res = disassemble(cpu, items)
        d = {}
        for (vn, op, mi), r in zip(keys, res):
            dd = d.setdefault(vn, {})
            if r is not None and dd.get(op) is None:
                dd[op] = r
            else:
                dd.setdefault(op, None)
        obs[cpu] = (gen, d)
    return obs


def enc_of(fam, vn):
    if fam == "ds":
        return "DS"
    if fam == "mubuf":
        return "MUBUF"
    if fam == "mtbuf":
        return "MTBUF"
    if vn.startswith("g"):
        return "GLOBAL"
    if vn.startswith("s"):
        return "SCRATCH"
    return "FLAT"


BASEV = {"base": "FLAT", "gbase": "GLOBAL", "sbase": "SCRATCH"}


def primary_variant(fam, enc, gen):
    if fam == "ds":
        return ["base", "gds"]
    if fam == "mubuf":
        return ["base", "zero"]
    if fam == "mtbuf":
        return ["base"]
    if enc == "FLAT":
        return ["base"]
    if enc == "GLOBAL":
        return ["gbase"]
    return ["slds", "sbase"] if gen == "gfx940" else ["sbase"]


def encs_of(fam):
    return {"ds": ["DS"], "mubuf": ["MUBUF"], "mtbuf": ["MTBUF"], "flat": ["FLAT", "GLOBAL", "SCRATCH"]}[fam]


def sig_of(fam, enc, text):
    mn, ops, mods = split_operands(text)
    r = roles_for(fam, enc, mn, ops)
    if r is None:
        raise RuntimeError("cannot map operands: %s" % text)
    return mn, tuple((role, width) for role, kind, width in r), mods


def collect_new(fam, obs):
    """-> facts[(enc, mn)] = {gen: {op, sig, text, cpus, flags...}}"""
    facts = {}
    for cpu, (gen, d) in obs.items():
        for enc in encs_of(fam):
            for op in range(FAMS[fam][0]):
                r = None
                used = None
                for vn in primary_variant(fam, enc, gen):
                    if d.get(vn, {}).get(op):
                        r = d[vn][op]
                        used = vn
                        break
                if r is None:
                    continue
                mn, sig, mods = sig_of(fam, enc, r[0])
                e = facts.setdefault((enc, mn), {}).setdefault(gen, {"op": op, "sig": sig, "text": r[0],
                                                                     "bytes": r[1], "cpus": set(), "var": {}})
                if e["op"] != op:
                    raise RuntimeError("opcode differs between %s processors: %s" % (gen, mn))
                e["cpus"].add(cpu)
                e["var"]["_primary"] = used
                for vn, dd in d.items():
                    if dd.get(op) and enc_of(fam, vn) == enc:
                        e["var"][vn] = dd[op][0]
    return facts


def regtxt(start, width, kind="v"):
    return "%s%d" % (kind, start) if width == 1 else "%s[%d:%d]" % (kind, start, start + width - 1)


def llvm_mnemonics():
    """Candidate mnemonics: every memory-family name in the installed LLVM library's string tables."""
    lib = None
    for n in ("libLLVM.so.19.1", "libLLVM-19.so", "libLLVM.so"):
        p = os.path.join(os.path.dirname(LLVM), "lib", n)
        if os.path.exists(p):
            lib = p
            break
    out = subprocess.run(["strings", "-n", "3", lib], capture_output=True, text=True).stdout
    names = set(re.findall(r"\b(?:ds|buffer|tbuffer|flat)_[a-z0-9_]+", out))
    return sorted(names)


def templates(mn):
    """Operand-shape guesses for a mnemonic not seen on gfx8+."""
    W = [1, 2, 3, 4]
    t = []
    if mn.startswith("ds_"):
        t += [mn, mn + " gds", "%s v2" % mn, "%s v2 gds" % mn, "%s v12" % mn, "%s v12, v2" % mn]
        for a in W:
            t.append("%s v2, %s" % (mn, regtxt(4, a)))
            t.append("%s %s, v2" % (mn, regtxt(12, a)))
            for b in W:
                t.append("%s v2, %s, %s" % (mn, regtxt(4, a), regtxt(8, b)))
                t.append("%s %s, v2, %s" % (mn, regtxt(12, a), regtxt(4, b)))
                for c in W:
                    t.append("%s %s, v2, %s, %s" % (mn, regtxt(12, a), regtxt(4, b), regtxt(8, c)))
    elif mn.startswith("buffer_"):
        t += [mn]
        for a in W:
            t.append("%s %s, v2, s[8:11], s3 offen" % (mn, regtxt(4, a)))
        t.append("%s v2, s[8:11], s3 offen lds" % mn)
    elif mn.startswith("tbuffer_"):
        for a in W:
            t.append("%s %s, v2, s[8:11], s3 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen" % (mn, regtxt(4, a)))
    elif mn.startswith("flat_"):
        # returning-atomic shape first (unambiguous), then store/no-return shape, then load shape
        for a in W:
            for b in W:
                t.append("%s %s, v[2:3], %s glc" % (mn, regtxt(8, a), regtxt(4, b)))
        for a in W:
            t.append("%s v[2:3], %s" % (mn, regtxt(4, a)))
        for a in W:
            t.append("%s %s, v[2:3]" % (mn, regtxt(8, a)))
    return t


def fam_of_mn(mn):
    if mn.startswith("ds_"):
        return "ds", "DS"
    if mn.startswith("buffer_"):
        return "mubuf", "MUBUF"
    if mn.startswith("tbuffer_"):
        return "mtbuf", "MTBUF"
    return "flat", "FLAT"


def probe_old(allfacts):
    """Assemble on tahiti/bonaire. -> old[(enc, mn)][gen] = {op, sig, text, bytes}"""
    cands = {}
    for fam, facts in allfacts.items():
        for (enc, mn), v in facts.items():
            if enc in ("GLOBAL", "SCRATCH"):
                continue
            for g in NEW_GENS:
                if g in v:
                    txt = v[g]["text"]
                    break
            # strip gfx9-only modifiers from the sample
            cands[(enc, mn)] = [txt] + templates(mn)
    for mn in llvm_mnemonics():
        fam, enc = fam_of_mn(mn)
        if (enc, mn) not in cands:
            cands[(enc, mn)] = templates(mn)
    old = {}
    log = {}
    for gen in ("gfx6", "gfx7"):
        cpu = GEN_CPU[gen]
        # first pass: the first statement of each candidate, to weed out unknown mnemonics cheaply
        keys = list(cands)
        stm = [cands[k][0] if cands[k] else k[1] for k in keys]
        res = assemble(cpu, stm)
        todo = []
        for k, s, r in zip(keys, stm, res):
            if r[0] != "ERR":
                old.setdefault(k, {})[gen] = r
            elif "not supported on this GPU" in r[1] or r[1] == "invalid instruction":
                log.setdefault(k, {})[gen] = r[1]
            else:
                todo.append(k)
        stm = []
        idx = []
        for k in todo:
            for s in cands[k][1:]:
                stm.append(s)
                idx.append(k)
        res = assemble(cpu, stm) if stm else []
        for k, s, r in zip(idx, stm, res):
            if r[0] != "ERR" and gen not in old.get(k, {}):
                old.setdefault(k, {})[gen] = r
            elif r[0] == "ERR":
                log.setdefault(k, {}).setdefault(gen, r[1])
    out = {}
    for k, v in old.items():
        enc, mn = k
        fam = fam_of_mn(mn)[0]
        for gen, (text, bs) in v.items():
            w0 = bs[0] | bs[1] << 8 | bs[2] << 16 | bs[3] << 24
            if fam == "ds":
                op = (w0 >> 18) & 0xFF
            elif fam == "mubuf":
                op = (w0 >> 18) & 0x7F
            elif fam == "mtbuf":
                op = (w0 >> 16) & 0x7
            else:
                op = (w0 >> 18) & 0x7F
            tmn, sig, mods = sig_of(fam, enc, text)
            assert tmn == mn, (tmn, mn)
            out.setdefault(k, {})[gen] = {"op": op, "sig": sig, "text": text, "bytes": bs, "cpus": {GEN_CPU[gen]},
                                          "var": {}}
    return out, log


HEADERS = {
    "ds": """# DS: LDS/GDS access. Generated by tools/probe/mem_probe.py from LLVM 19 -- do not edit by hand.
# Opcode field: bits [25:18] on gfx6/gfx7, [24:17] on gfx8+ (gds is bit 17 / bit 16).
# Operand roles: vdst (returned data), addr (VGPR byte address), data0, data1.
# Modifiers are not listed as operands: `offset:N` (16-bit, printed when non-zero) or, for +off2 rows,
# `offset0:N offset1:N` (8-bit each, each printed when non-zero), then `gds`.
# Flags:
#   +off2      two 8-bit offsets (offset0/offset1) instead of one 16-bit offset
#   +ret       returning atomic (*_rtn_*): vdst is the pre-operation memory value
#   +noret     non-returning atomic whose returning twin is the *_rtn_* row
#   +gdsonly   LLVM accepts/decodes it only with gds=1 (and always prints `gds`)
#   +nogds     LLVM rejects gds=1 for it (the word does not decode)
#   +acc       gfx90a/gfx940: acc bit (bit 25) makes data0/data1/vdst AccVGPRs (printed a[..])
#   +cpus=..   the gfx9 column applies only to these gfx9 processors
""",
    "mubuf": """# MUBUF: untyped buffer access. Generated by tools/probe/mem_probe.py from LLVM 19 -- do not edit by hand.
# Opcode field: bits [24:18]. Operand roles: vdata, vaddr, srsrc, soffset (printed in this order).
# vaddr is printed `off` when offen=idxen=0 (and addr64=0 on gfx6/7); it is b64 (v[n:n+1]) with
# idxen+offen or addr64; the b32 written here is the offen/idxen-only case.
# Modifiers (not operands): offen idxen addr64 offset:N glc slc lds tfe (gfx6-gfx908); sc0 sc1 nt on gfx940.
# Flags:
#   +lds        an LDS-direct form exists: lds bit set, vdata not printed, `lds` printed last
#   +glcret     atomic: glc (sc0 on gfx940) set returns the pre-op value in vdata (=gens: only there;
#               elsewhere LLVM rejects glc=1 for it)
#   +acc        gfx90a/gfx940: bit 55 (tfe position) makes vdata AccVGPRs; no tfe there
#   +d16unpacked  gfx8 row with unpacked D16 (one VGPR per 16-bit component): true for gfx801-805 only;
#               gfx810 (Stoney) decodes these opcodes with the packed gfx9 widths
#   +cpus=..    the gfx9 column applies only to these gfx9 processors
""",
    "mtbuf": """# MTBUF: typed buffer access. Generated by tools/probe/mem_probe.py from LLVM 19 -- do not edit by hand.
# Opcode field: bits [18:16] on gfx6/gfx7 (3 bits), [18:15] on gfx8+ (4 bits).
# Operand roles: vdata, vaddr, srsrc, soffset; then `format:[...]` (omitted when dfmt=1,nfmt=0) and the
# MUBUF-like modifiers. vaddr as in mubuf.tbl.
# Flags:
#   +acc        gfx90a/gfx940: bit 55 makes vdata AccVGPRs
#   +d16unpacked  gfx8 row with unpacked D16 (one VGPR per 16-bit component): true for gfx801-805 only;
#               gfx810 (Stoney) decodes these opcodes with the packed gfx9 widths
#   +cpus=..    the gfx9 column applies only to these gfx9 processors
""",
    "flat": """# FLAT, GLOBAL (FLAT with SEG=2) and SCRATCH (SEG=1). Generated by tools/probe/mem_probe.py from LLVM 19 --
# do not edit by hand. Opcode field: bits [24:18]. FLAT from gfx7, GLOBAL/SCRATCH from gfx9.
# Operand roles in printed order: vdst, vaddr, vdata, saddr. Operand lists are the no-return forms.
# FLAT: vaddr is b64, no saddr. GLOBAL: saddr b64 or `off`; with an SGPR saddr vaddr is a b32 offset.
# SCRATCH: vaddr b32 or `off`, saddr b32 or `off` (gfx9-gfx90a: not both SGPR saddr and vaddr;
# gfx940: bit 13 (SVS) selects vaddr, so `v2, s6` is possible).
# Modifiers: offset:N (gfx9+; unsigned 12-bit for FLAT, signed 13-bit for GLOBAL/SCRATCH), glc slc
# (gfx7-gfx90a), sc0 sc1 nt (gfx940), lds (gfx9-gfx90a GLOBAL/SCRATCH loads; see +lds).
# Flags:
#   +glcret     atomic: glc (sc0 on gfx940) set selects the returning form, printed with vdst first
#               (vdst is half the vdata width for cmpswap); =gens: only there
#   +lds        gfx9-gfx90a: the lds bit (13) gives an LDS-direct form: no vdst, `lds` printed last
#   +acc        gfx90a/gfx940: bit 55 makes vdst/vdata AccVGPRs
#   +cpus=..    the gfx9 column applies only to these gfx9 processors
""",
}


def is_atomic(mn):
    return "atomic" in mn


def build_rows(fam, facts, old):
    merged = {}
    for k, v in facts.items():
        merged.setdefault(k, {}).update(v)
    for k, v in old.items():
        if fam_of_mn(k[1])[0] != fam:
            continue
        for g, e in v.items():
            e = dict(e)
            if k[0] == "FLAT" and "glc" in e["text"].split() and e["sig"] and e["sig"][0][0] == "vdst" \
                    and is_atomic(k[1]):
                e["sig"] = e["sig"][1:]
            merged.setdefault(k, {})[g] = e
    rows = []
    for (enc, mn), v in merged.items():
        groups = {}
        for g in GENS:
            if g in v:
                groups.setdefault(v[g]["sig"], []).append(g)
        for sig, gens in groups.items():
            rows.append(make_row(fam, enc, mn, sig, {g: v[g] for g in gens}, merged))
    order = ["gfx9", "gfx8", "gfx908", "gfx90a", "gfx940", "gfx7", "gfx6"]
    enc_order = {"FLAT": 0, "GLOBAL": 1, "SCRATCH": 2}

    def key(r):
        for g in order:
            if r["cols"][g] is not None:
                return (enc_order.get(r["enc"], 0), order.index(g) > 4, r["cols"][g], r["mn"])
    rows.sort(key=key)
    # uniqueness check
    seen = {}
    for r in rows:
        for g, op in r["cols"].items():
            if op is None:
                continue
            kk = (r["enc"], g, op)
            if kk in seen:
                raise RuntimeError("opcode clash %s: %s vs %s" % (kk, seen[kk], r["mn"]))
            seen[kk] = r["mn"]
    return rows


def make_row(fam, enc, mn, sig, per, merged):
    cols = {g: (per[g]["op"] if g in per else None) for g in GENS}
    flags = []
    new = [g for g in NEW_GENS if g in per]
    if fam == "ds":
        if "_rtn_" in mn:
            flags.append("+ret")
        elif re.sub(r"_([a-z0-9]+)$", r"_rtn_\1", mn) in {m for (e, m) in merged} and "src2" not in mn:
            flags.append("+noret")
        if re.search(r"(write|read|wrxchg)2(st64)?_", mn):
            flags.append("+off2")
        if new:
            if all(per[g]["var"].get("_primary") == "gds" for g in new):
                flags.append("+gdsonly")
            elif all("gds" not in per[g]["var"] for g in new if g not in ("gfx90a", "gfx940")) and \
                    any(g not in ("gfx90a", "gfx940") for g in new):
                flags.append("+nogds")
        if any("acc" in per[g]["var"] for g in new):
            flags.append("+acc")
    elif fam == "mubuf":
        if any("lds" in per[g]["var"] for g in new):
            flags.append("+lds")
        if is_atomic(mn):
            ok = [g for g in new if "glc" in per[g]["var"]]
            if ok == new:
                flags.append("+glcret")
            elif ok:
                flags.append("+glcret=" + ",".join(ok))
        if any("acc" in per[g]["var"] for g in new):
            flags.append("+acc")
    elif fam == "mtbuf":
        if any("acc" in per[g]["var"] for g in new):
            flags.append("+acc")
    else:
        pre = {"FLAT": "", "GLOBAL": "g", "SCRATCH": "s"}[enc]
        if is_atomic(mn):
            ok = [g for g in new if (pre + "glc") in per[g]["var"]]
            if ok == new:
                flags.append("+glcret")
            elif ok:
                flags.append("+glcret=" + ",".join(ok))
        if enc != "FLAT" and any((pre + "lds") in per[g]["var"] and " lds" in per[g]["var"][pre + "lds"]
                                 for g in new):
            flags.append("+lds")
        if any((("base" if enc == "FLAT" else pre + "base") + "acc") in per[g]["var"] for g in new):
            flags.append("+acc")
    if fam in ("mubuf", "mtbuf") and "d16" in mn and list(per) == ["gfx8"] and \
            any(w > 1 for role, w in sig if role == "vdata"):
        flags.append("+d16unpacked")
    if "gfx9" in per and len(per["gfx9"]["cpus"]) != len(GFX9_CPUS):
        flags.append("+cpus=" + ",".join(sorted(per["gfx9"]["cpus"])))
    ops = ["%s:%s" % (role, op_type(fam, enc, mn, role, w, "v")) for role, w in sig]
    return {"enc": enc, "mn": mn, "cols": cols, "ops": ops, "flags": flags, "per": per}


def write_table(fam, rows):
    path = os.path.join(ROOT, "crates", "isa", "tables", fam + ".tbl")
    w_mn = max(len(r["mn"]) for r in rows) + 1
    lines = [HEADERS[fam].rstrip("\n"), "#", "# %-7s %-*s %s  OPERANDS FLAGS" % (
        "ENC", w_mn, "MNEMONIC", " ".join("%-6s" % g for g in GENS))]
    for r in rows:
        cols = " ".join("%-6s" % ("-" if r["cols"][g] is None else r["cols"][g]) for g in GENS)
        tail = " ".join(r["ops"] + r["flags"])
        lines.append(("%-9s %-*s %s  %s" % (r["enc"], w_mn, r["mn"], cols, tail)).rstrip())
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


# ----------------------------------------------------------------------------------------------
# test vectors

def _w(bs):
    return bs[0] | bs[1] << 8 | bs[2] << 16 | bs[3] << 24, bs[4] | bs[5] << 8 | bs[6] << 16 | bs[7] << 24


def _setf(w, lo, width, val):
    m = ((1 << width) - 1) << lo
    return (w & ~m) | ((val << lo) & m)


SOFF = [124, 128, 129, 193, 192, 106, 101, 0]  # m0, 0, 1, -1, 64, vcc_lo, s101, s0


def new_variants(fam, enc, row, gen, bs):
    w0, w1 = _w(bs)
    out = [(w0, w1)]
    acc = gen in ("gfx90a", "gfx940")
    fl = row["flags"]
    if fam == "ds":
        if "+off2" in fl:
            out += [(w0 | 0x04, w1), (w0 | 0xFF00, w1), (w0 | 0x7F01, w1)]
        else:
            out += [(w0 | 0xFFFF, w1), (w0 | 0x0004, w1), (w0 | 0x1000, w1), (w0 | 0x80E4, w1),
                    (w0 | 0x041F, w1), (w0 | 0x03E0, w1), (w0 | 0x0401, w1)]
        out.append((w0 | 1 << 16, w1))
        out.append((w0 | 1 << 16 | 0x0008, w1))
        if acc:
            out.append((w0 | 1 << 25, w1))
        # other registers: +100 on each populated field, and v255-ish singles
        nw1 = 0
        for sh in (0, 8, 16, 24):
            f = (w1 >> sh) & 0xFF
            nw1 |= ((f + 100) if f else 0) << sh
        out.append((w0, nw1))
        out.append((w0 | 0x20, nw1))
    elif fam in ("mubuf", "mtbuf"):
        is_bare = (w1 == 0 and not (w0 & 0x3000))
        if is_bare:
            if gen == "gfx940":
                out += [(w0 | 1 << 14, w1), (w0 | 1 << 15, w1), (w0 | 1 << 14 | 1 << 15, w1)]
            return out
        out += [(_setf(w0, 12, 2, 0), _setf(w1, 0, 8, 0)), (_setf(w0, 12, 2, 2), w1), (_setf(w0, 12, 2, 3), w1),
                (w0 | 0xFFF, w1), (w0 | 0x001, w1), (_setf(w0 | 0x7F, 12, 2, 0), _setf(w1, 0, 8, 0)),
                (w0 | 1 << 14, w1)]
        slc = (w0 | 1 << 17, w1) if fam == "mubuf" else (w0, w1 | 1 << 22)
        out.append(slc)
        out.append((slc[0] | 1 << 14 | 0x10, slc[1]))
        if gen == "gfx940" and fam == "mubuf":
            out += [(w0 | 1 << 15, w1), (w0 | 1 << 15 | 1 << 14 | 1 << 17 | 0x20, w1)]
        if acc:
            out.append((w0, w1 | 1 << 23))
        else:
            out.append((w0, w1 | 1 << 23))  # tfe
        if fam == "mubuf" and "+lds" in fl:
            out += [(w0 | 1 << 16, _setf(w1, 8, 8, 0)), (_setf(w0 | 1 << 16, 12, 2, 0), _setf(w1, 0, 16, 0)),
                    (w0 | 1 << 16 | 1 << 14 | 1 << 17 | 0x10, _setf(w1, 8, 8, 0)),
                    (_setf(w0 | 1 << 16 | 0xFFF, 12, 2, 2), _setf(w1, 8, 8, 0))]
            if gen == "gfx940":
                out.append((w0 | 1 << 16 | 1 << 15, _setf(w1, 8, 8, 0)))
        for so in SOFF:
            out.append((w0, _setf(w1, 24, 8, so)))
        out.append((w0, _setf(w1, 16, 5, 24)))
        out.append((w0, _setf(w1, 8, 8, 200)))
        if fam == "mtbuf":
            for dfmt in range(16):
                out.append((_setf(_setf(w0, 19, 4, dfmt), 23, 3, 0), w1))
            for nfmt in range(8):
                out.append((_setf(w0, 23, 3, nfmt), w1))
                out.append((_setf(_setf(w0, 23, 3, nfmt), 19, 4, 1), w1))
    else:
        # flat / global / scratch
        if gen == "gfx8":
            out += [(w0 | 1 << 16, w1), (w0 | 1 << 17, w1), (w0, w1 | 1 << 23), (w0, _setf(w1, 0, 8, 200))]
            return out
        seg = (w0 >> 14) & 3
        if seg == 0:
            offs = [0xFFF, 1, 8, 0x1000, 0x1FFF]
        else:
            offs = [0xFFF, 1, 0x1FFF, 0x1000, 0x1FF8]
        for o in offs:
            out.append((_setf(w0, 0, 13, o), w1))
        out += [(w0 | 1 << 16, w1), (w0 | 1 << 17, w1), (w0 | 1 << 16 | 1 << 17 | 0x10, w1)]
        if gen == "gfx940":
            out += [(w0 | 1 << 25, w1), (w0 | 1 << 25 | 1 << 16 | 1 << 17, w1)]
        if acc:
            out.append((w0, w1 | 1 << 23))
        if seg == 2:
            out += [(w0, _setf(w1, 16, 7, 6)), (_setf(w0, 0, 13, 0x1FFC), _setf(w1, 16, 7, 104)),
                    (w0 | 1 << 16, _setf(w1, 16, 7, 6))]
        if seg == 1:
            out += [(w0, _setf(_setf(w1, 16, 7, 6), 0, 8, 0)), (w0, _setf(_setf(w1, 16, 7, 106), 0, 8, 0)),
                    (_setf(w0, 0, 13, 0x1FF0), _setf(_setf(w1, 16, 7, 124), 0, 8, 0))]
            if gen == "gfx940":
                out += [(w0 | 1 << 13, _setf(w1, 16, 7, 6)), (w0 & ~(1 << 13), _setf(w1, 0, 8, 0)),
                        (w0 & ~(1 << 13), _setf(_setf(w1, 16, 7, 6), 0, 8, 0))]
        if is_atomic(row["mn"]):
            out.append((w0 | 1 << 16, w1 | 30 << 24))
        if "+lds" in fl:
            out.append((w0 | 1 << 13, _setf(w1, 24, 8, 0)))
            out.append((w0 | 1 << 13 | 0x40, _setf(w1, 24, 8, 0)))
            if seg == 1:
                out.append((w0 | 1 << 13, _setf(_setf(_setf(w1, 24, 8, 0), 16, 7, 6), 0, 8, 0)))
    return out


def gen_vectors_new(fam, rows):
    """-> list of (mcpu, bytes, text) for gfx8+."""
    by_cpu = {}
    for r in rows:
        for g, e in r["per"].items():
            if g not in NEW_GENS:
                continue
            cpu = VEC_CPU[g]
            if g == "gfx9" and cpu not in e["cpus"]:
                cpu = sorted(e["cpus"])[0]
            for w0, w1 in new_variants(fam, r["enc"], r, g, e["bytes"]):
                by_cpu.setdefault(cpu, []).append((r, words_to_bytes([w0, w1])))
    out = []
    for cpu, items in by_cpu.items():
        res = disassemble(cpu, [b for _, b in items])
        cand = []
        seen = set()
        for (r, b), x in zip(items, res):
            if x is None:
                continue
            text, rb = x
            mn = text.split()[0]
            if mn != r["mn"]:
                continue
            if (cpu, text) in seen:
                continue
            seen.add((cpu, text))
            cand.append((r, rb, text))
        # verify: the re-encoded bytes must print the same text
        res2 = disassemble(cpu, [rb for _, rb, _ in cand])
        for (r, rb, text), y in zip(cand, res2):
            if y is not None and y[0] == text:
                out.append((cpu, rb, text))
            else:
                print("warning: unstable %s %s %s -> %s" % (cpu, fmt_bytes(rb), text, y), file=sys.stderr)
    return out


def _widen_first(text):
    mn, rest = text.split(None, 1)
    tok, tail = rest.split(",", 1) if "," in rest else (rest, "")
    r = parse_reg(tok.strip())
    if r is None:
        return None
    return "%s %s,%s" % (mn, regtxt(r[1], r[2] + 1, r[0]), tail)


def old_statements(fam, row, gen, fmts):
    e = row["per"][gen]
    t = e["text"]
    out = [t]
    fl = row["flags"]
    if fam == "ds":
        base = re.sub(r" (gds)$", "", t)
        if "+off2" in fl:
            out += [base + " offset0:4 offset1:255", base + " offset1:1", base + " offset0:127"]
        else:
            out += [base + " offset:65535", base + " offset:4"]
        out += [base + " gds", base + " offset:8 gds" if "+off2" not in fl else base + " offset0:8 gds",
                re.sub(r"\bv2\b", "v255", t), re.sub(r"\bv\[?(\d+)", lambda m: m.group(0).replace(m.group(1), str(int(m.group(1)) + 100)), t)]
    elif fam in ("mubuf", "mtbuf"):
        if "," not in t:
            return out
        lds = t.endswith(" lds")
        core = t
        vf = [core.replace("v2, s[8:11], s3 offen", x) for x in (
            "off, s[8:11], s3", "v2, s[8:11], s3 idxen", "v[2:3], s[8:11], s3 idxen offen",
            "v[2:3], s[8:11], s3 addr64", "v[2:3], s[8:11], s3 addr64 offset:16", "off, s[8:11], s3 offset:4095")]
        out += vf
        for m in (" offset:4095", " offset:1", " glc", " slc", " glc slc", " offset:7 glc slc"):
            out.append(core + m)
        for so in ("m0", "0", "-1", "64", "vcc_lo", "s101", "0.5"):
            out.append(core.replace(", s3 ", ", %s " % so))
        out.append(core.replace("s[8:11]", "s[96:99]"))
        w = _widen_first(core)
        if w and not lds:
            out += [w + " tfe", w + " glc tfe"]
        out.append(core + " tfe")
        if "+lds" in fl and not lds:
            out.append(re.sub(r"^(\S+) [^,]+, ", r"\1 ", core) + " lds")
            out.append(re.sub(r"^(\S+) [^,]+, v2, s\[8:11\], s3 offen", r"\1 off, s[8:11], s3", core) + " lds")
            out.append(re.sub(r"^(\S+) [^,]+, ", r"\1 ", core) + " offset:16 glc slc lds")
            out.append(re.sub(r"^(\S+) [^,]+, v2, s\[8:11\], s3 offen", r"\1 v[2:3], s[8:11], s3 addr64", core) + " lds")
        if fam == "mtbuf":
            for f in fmts:
                out.append(re.sub(r"format:\[[^\]]*\] ?", (f + " ") if f else "", core))
    else:
        out += [t + " glc", t + " slc", t + " glc slc"]
        w = _widen_first(t)
        if w:
            out.append(w + " tfe")
        out.append(t + " tfe")
        if is_atomic(row["mn"]):
            # returning form
            if "gfx8" in row["per"] and "glc" in row["per"]["gfx8"]["var"]:
                out.append(row["per"]["gfx8"]["var"]["glc"])
                out.append(row["per"]["gfx8"]["var"]["glc"] + " slc")
            else:
                r = parse_reg(t.split()[1].rstrip(","))
                ops = t.split(None, 1)[1]
                data = ops.split(",")[1].strip().split()[0]
                dr = parse_reg(data)
                wv = dr[2] // 2 if "cmpswap" in row["mn"] else dr[2]
                out.append("%s %s, %s glc" % (row["mn"], regtxt(30, wv), ops))
    return out


def gen_vectors_old(fam, rows, fmts):
    out = []
    for gen in ("gfx6", "gfx7"):
        stm = []
        for r in rows:
            if gen in r["per"]:
                stm += [(r, s) for s in old_statements(fam, r, gen, fmts)]
        res = assemble(GEN_CPU[gen], [s for _, s in stm])
        seen = set()
        for (r, s), x in zip(stm, res):
            if x[0] == "ERR":
                continue
            text, bs = x
            if text.split()[0] != r["mn"] or text in seen:
                continue
            seen.add(text)
            out.append((VEC_CPU[gen], bs, text))
    return out


def write_vectors(fam, vecs):
    path = os.path.join(ROOT, "tests", "vectors", fam + ".txt")
    order = {c: i for i, c in enumerate(VEC_CPU.values())}
    order.update({"gfx906": 4.5})
    vecs = sorted(vecs, key=lambda v: (order.get(v[0], 9), v[1][3], v[1][2], v[1]))
    with open(path, "w") as f:
        for cpu, bs, text in vecs:
            f.write("%s\t%s\t%s\n" % (cpu, fmt_bytes(bs), text))
    return path


def coverage(rows, vecs):
    have = set()
    for cpu, bs, text in vecs:
        have.add((cpu, text.split()[0]))
    missing = []
    for r in rows:
        for g, e in r["per"].items():
            cpu = VEC_CPU[g]
            if g == "gfx9" and cpu not in e["cpus"] and g in NEW_GENS:
                cpu = sorted(e["cpus"])[0]
            if (cpu, r["mn"]) not in have:
                missing.append((g, r["enc"], r["mn"]))
    return missing


def main():
    os.makedirs(os.path.join(ROOT, "tests", "vectors"), exist_ok=True)
    allobs = {f: probe_new(f) for f in FAMS}
    allfacts = {f: collect_new(f, allobs[f]) for f in FAMS}
    old, log = probe_old(allfacts)
    summary = {}
    for fam in FAMS:
        rows = build_rows(fam, allfacts[fam], old)
        write_table(fam, rows)
        vn = gen_vectors_new(fam, rows)
        fmts = [""]
        if fam == "mtbuf":
            fmts += sorted({m.group(0) for _, _, t in vn for m in [re.search(r"format:\[[^\]]*\]", t)] if m})
        vo = gen_vectors_old(fam, rows, fmts)
        vecs = vn + vo
        write_vectors(fam, vecs)
        miss = coverage(rows, vecs)
        summary[fam] = {"rows": len(rows), "vectors": len(vecs),
                        "per_gen": {g: sum(1 for r in rows if r["cols"][g] is not None) for g in GENS},
                        "missing": miss}
        for m in miss:
            print("MISSING vector", fam, m, file=sys.stderr)
    print(json.dumps({k: {kk: vv for kk, vv in v.items() if kk != "missing"} for k, v in summary.items()}, indent=1))


if __name__ == "__main__":
    main()
