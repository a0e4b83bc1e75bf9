"""Enumerate VOP3-only and VOP3P opcodes on gfx8+ processors with llvm-mc -disassemble.
Output: JSON {mcpu: {enc: {opcode: {text, mn, ops:[[role, kind, nregs, tok]], mods}}}}"""
import json, sys, itertools
from valu64_lib import disasm, split_text, parse_reg

VOP3_CPUS = ['gfx801', 'gfx802', 'gfx803', 'gfx805', 'gfx810', 'gfx900', 'gfx902', 'gfx904', 'gfx906',
             'gfx909', 'gfx90c', 'gfx908', 'gfx90a', 'gfx940', 'gfx941', 'gfx942']

# VOP3 (gfx8+): [31:26]=110100 op[25:16] clamp[15] op_sel[14:11](gfx9) abs[10:8]|sdst[14:8] vdst[7:0]
#               src0[8:0] src1[17:9] src2[26:18] omod[28:27] neg[31:29]
VOP3_DST, VOP3_SRC = 10, (20, 30, 40)
# VOP3P (gfx9+): [31:23]=110100111 op[22:16] clamp/acc_cd[15] op_sel_hi2[14] op_sel[13:11]|abid[14:11]
#                neg_hi[10:8]|cbsz[10:8] vdst[7:0]; word1 as VOP3 with op_sel_hi[28:27]|acc[28:27], neg_lo|blgp[31:29]
P_DST, P_VSRC, P_SSRC = 0, (64, 96, 128), (20, 30, 40)


def src_val(kind, n):
    return 256 + n if kind == 'V' else n


def vop3_word(op, kinds, nsrc, w0extra=0, w1extra=0):
    w0 = (0b110100 << 26) | (op << 16) | VOP3_DST | w0extra
    s = [src_val(k, VOP3_SRC[i]) if i < nsrc else 0 for i, k in enumerate(kinds)]
    return (w0, s[0] | (s[1] << 9) | (s[2] << 18) | w1extra)


def vop3p_word(op, kinds, nsrc, w0extra=0, w1extra=0):
    w0 = (0x1A7 << 23) | (op << 16) | P_DST | w0extra
    s = []
    for i, k in enumerate(kinds):
        if i >= nsrc:
            s.append(0)
        else:
            s.append(256 + P_VSRC[i] if k == 'V' else P_SSRC[i])
    return (w0, s[0] | (s[1] << 9) | (s[2] << 18) | w1extra)


KINDS = [''.join(k) for k in itertools.product('VS', repeat=3)]
VOP3_BASES = [(n, k) for n in (3, 2, 1, 0) for k in KINDS]
# (w0extra, w1extra) for VOP3P: default op_sel_hi all ones first, then all zero, then acc_cd / acc bits
P_EXTRAS = [(0, 0), ((1 << 14), (3 << 27)), ((1 << 15), 0), (0, (3 << 27)), ((1 << 15), (3 << 27))]


def roles_vop3(ops):
    res = []
    for i, tok in enumerate(ops):
        r = parse_reg(tok)
        if r is None:
            res.append([None, None, 0, tok])
            continue
        kind, start, n = r
        role = None
        if start == VOP3_DST and i == 0:
            role = 'vdst' if kind in ('v', 'a') else 'sdst'
        elif kind == 's' and start == 0 and i == 1:
            role = 'sdst'
        elif start in VOP3_SRC:
            role = 'src%d' % VOP3_SRC.index(start)
        res.append([role, kind, n, tok])
    return res


def roles_vop3p(ops):
    res = []
    for i, tok in enumerate(ops):
        r = parse_reg(tok)
        if r is None:
            res.append([None, None, 0, tok])
            continue
        kind, start, n = r
        role = None
        if start == P_DST and i == 0:
            role = 'vdst'
        elif start in P_VSRC and kind in ('v', 'a'):
            role = 'src%d' % P_VSRC.index(start)
        elif start in P_SSRC and kind == 's':
            role = 'src%d' % P_SSRC.index(start)
        res.append([role, kind, n, tok])
    return res


def valid(text):
    return '/*' not in text and 'invalid' not in text


def probe(mcpu):
    res = {'VOP3': {}, 'VOP3P': {}}
    cands = {}
    for op in range(1024):
        for n, k in VOP3_BASES:
            cands.setdefault(op, []).append(vop3_word(op, k, n))
    allw = [w for l in cands.values() for w in l]
    out = disasm(mcpu, allw)
    from valu64_lib import bstr
    for op, ws in cands.items():
        for w in ws:
            t = out.get(bstr(list(w)))
            if t and valid(t):
                mn, ops, mods = split_text(t)
                res['VOP3'][op] = {'text': t, 'bytes': bstr(list(w)), 'mn': mn, 'ops': roles_vop3(ops), 'mods': mods}
                break
    if mcpu.startswith('gfx8'):
        return res
    cands = {}
    for op in range(128):
        for ex in P_EXTRAS:
            for n in (3, 2, 1, 0):
                for k in KINDS:
                    cands.setdefault(op, []).append(vop3p_word(op, k, n, *ex))
    allw = [w for l in cands.values() for w in l]
    out = disasm(mcpu, allw)
    for op, ws in cands.items():
        for w in ws:
            t = out.get(bstr(list(w)))
            if t and valid(t):
                mn, ops, mods = split_text(t)
                res['VOP3P'][op] = {'text': t, 'bytes': bstr(list(w)), 'mn': mn, 'ops': roles_vop3p(ops), 'mods': mods}
                break
    return res


if __name__ == '__main__':
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(8) as ex:
        r = dict(zip(VOP3_CPUS, ex.map(probe, VOP3_CPUS)))
    json.dump(r, open(sys.argv[1] if len(sys.argv) > 1 else '/tmp/valu64_enum.json', 'w'), indent=0)
