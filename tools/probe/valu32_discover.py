"""Discovery pass for gfx8+ (VOP1/VOP2/VOPC, all forms): enumerate opcodes, disassemble with llvm-mc.
Writes /tmp/valu32_disc.json. Run from anywhere; used by valu32_probe.py."""
import json, sys, os
sys.path.insert(0, os.path.dirname(__file__))
from valu32_llvm import disasm, words_to_bytes

CPUS = ["gfx803", "gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c", "gfx908", "gfx90a", "gfx940"]
V = 256
VD, S0, S1, S2 = 30, V + 10, V + 20, V + 40
LIT = 0x11223344

def e32(fam, op, src0=S0, vdst=VD, vsrc1=20):
    if fam == "VOP1":
        return 0x7E000000 | (vdst << 17) | (op << 9) | src0
    if fam == "VOP2":
        return (op << 25) | (vdst << 17) | (vsrc1 << 9) | src0
    return 0x7C000000 | (op << 17) | (vsrc1 << 9) | src0

MAXOP = {"VOP1": 256, "VOP2": 64, "VOPC": 256}

def sdwa_w1(cpu, fam):
    w = 10 | (6 << 16) | (6 << 24)
    if fam == "VOPC":
        if cpu != "gfx803":
            w |= (30 << 8) | (1 << 15)
    else:
        w |= (6 << 8) | (2 << 11)  # dst_sel DWORD, dst_unused PRESERVE
    return w

def good(t):
    return t is not None and "Invalid" not in t and "invalid" not in t and "/*" not in t

def try_configs(cpu, cands):
    """cands: dict key -> list of word-lists (alternatives). Returns key -> (text, words)."""
    res = {}
    pending = {k: list(v) for k, v in cands.items()}
    while pending:
        keys = [k for k in pending if pending[k]]
        if not keys:
            break
        lines = [words_to_bytes(pending[k][0]) for k in keys]
        outs = disasm(cpu, lines)
        nxt = {}
        for k, t in zip(keys, outs):
            ws = pending[k].pop(0)
            if good(t):
                res[k] = (t, ws)
            elif pending[k]:
                nxt[k] = pending[k]
        pending = nxt
    return res

def discover(cpu):
    d = {}
    for fam in ("VOP1", "VOP2", "VOPC"):
        c = {}
        for op in range(MAXOP[fam]):
            c[op] = [[e32(fam, op)], [e32(fam, op), LIT], [e32(fam, op, src0=0, vdst=0, vsrc1=0)], [e32(fam, op, src0=S0, vdst=0, vsrc1=0)], [e32(fam, op, src0=0, vdst=VD, vsrc1=0)]]
        d[fam + ":e32"] = {k: v for k, v in try_configs(cpu, c).items()}
        c = {}
        for op in range(MAXOP[fam]):
            w = sdwa_w1(cpu, fam)
            c[op] = [[e32(fam, op, src0=0xF9), w], [e32(fam, op, src0=0xF9), w & ~(7 << 24)],
                     [e32(fam, op, src0=0xF9), w & ~(7 << 24) & ~(3 << 11)], [e32(fam, op, src0=0xF9), w & ~(3 << 11)]]
        d[fam + ":sdwa"] = try_configs(cpu, c)
        c = {}
        for op in range(MAXOP[fam]):
            c[op] = [[e32(fam, op, src0=0xFA), 10 | (0xE4 << 8) | (0xF << 24) | (0xF << 28)],
                     [e32(fam, op, src0=0xFA), 10 | (0x151 << 8) | (0xF << 24) | (0xF << 28)]]
        d[fam + ":dpp"] = try_configs(cpu, c)
    c = {}
    for op in range(1024):
        w0 = 0xD0000000 | (op << 16) | VD
        c[op] = [[w0, S0 | (S1 << 9) | (S2 << 18)], [w0, S0 | (S1 << 9) | (40 << 18)],
                 [w0, S0 | (S1 << 9)], [w0, S0], [w0, 0], [w0, S0 | (20 << 9)], [w0, 10 | (S1 << 9)], [w0, 10 | (20 << 9)], [w0 & ~0xff, 0], [w0 & ~0xff, S0], [w0, 10]]
    d["VOP3:e64"] = try_configs(cpu, c)
    return d

if __name__ == "__main__":
    out = {}
    for cpu in CPUS:
        out[cpu] = {k: {str(op): v for op, v in m.items()} for k, m in discover(cpu).items()}
        print(cpu, {k: len(v) for k, v in out[cpu].items()}, file=sys.stderr)
    json.dump(out, open("/tmp/valu32_disc.json", "w"), indent=0)
