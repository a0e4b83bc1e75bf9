#!/usr/bin/env python3
"""Probe LLVM 19 for the scalar families (SOP2 SOPK SOP1 SOPC SOPP SMRD/SMEM) and
regenerate crates/isa/tables/{sop2,sopk,sop1,sopc,sopp,smem}.tbl and
tests/vectors/{sop2,sopk,sop1,sopc,sopp,smem}.txt.

gfx8+  : every opcode of every encoding is disassembled with canonical, distinct field values
         (sdst=s10, ssrc0=s20, ssrc1=s30; SMEM sdata=s16, sbase=s[4:5], soffset=s40, offset=0x40);
         the printed operands give roles (by start register) and widths.
gfx6/7 : LLVM cannot disassemble them; statements are assembled with -mcpu=tahiti / bonaire
         and the opcode is read out of the encoding.

Usage: python3 tools/probe/scalar.py          (from anywhere; writes into the repo)
"""
import os, re, sys, collections

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scalar_llvm as L  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
GENS = ['gfx6', 'gfx7', 'gfx8', 'gfx9', 'gfx908', 'gfx90a', 'gfx940']
NEW_GENS = ['gfx8', 'gfx9', 'gfx908', 'gfx90a', 'gfx940']
CPU = {'gfx6': 'gfx600', 'gfx7': 'gfx700', 'gfx8': 'gfx803', 'gfx9': 'gfx900',
       'gfx908': 'gfx908', 'gfx90a': 'gfx90a', 'gfx940': 'gfx940'}
ASM_CPU = {'gfx6': 'tahiti', 'gfx7': 'bonaire'}
GFX9_EXTRA = ['gfx904', 'gfx906', 'gfx90c']
FAMILIES = ['sop2', 'sopk', 'sop1', 'sopc', 'sopp', 'smem']
MAX_VARIANTS = 12

# --------------------------------------------------------------------------- encodings

def enc_sop2(op, sdst=10, ssrc0=20, ssrc1=30, lit=None):
    w = [0x80000000 | op << 23 | sdst << 16 | ssrc1 << 8 | ssrc0]
    return L.word_bytes(*(w + ([lit] if lit is not None else [])))


def enc_sopk(op, sdst=10, simm16=0xf801, lit=None):
    w = [0xb0000000 | op << 23 | sdst << 16 | simm16]
    return L.word_bytes(*(w + ([lit] if lit is not None else [])))


def enc_sop1(op, sdst=10, ssrc0=20, lit=None):
    w = [0xbe800000 | sdst << 16 | op << 8 | ssrc0]
    return L.word_bytes(*(w + ([lit] if lit is not None else [])))


def enc_sopc(op, ssrc0=20, ssrc1=30, lit=None):
    w = [0xbf000000 | op << 16 | ssrc1 << 8 | ssrc0]
    return L.word_bytes(*(w + ([lit] if lit is not None else [])))


def enc_sopp(op, simm16=3):
    return L.word_bytes(0xbf800000 | op << 16 | simm16)


def enc_smem(op, sdata=16, sbase=2, imm=1, glc=0, nv=0, soe=0, offset=0x40, soffset=40):
    return L.word_bytes(0xc0000000 | op << 18 | imm << 17 | glc << 16 | nv << 15 | soe << 14 |
                        sdata << 6 | sbase, offset | soffset << 25)


OPRANGE = {'SOP2': range(96), 'SOPK': range(29), 'SOP1': range(256), 'SOPC': range(128),
           'SOPP': range(128), 'SMEM': range(256)}

# canonical candidates, in order of preference
def canon_candidates(enc, op):
    if enc == 'SOP2':
        return [enc_sop2(op), enc_sop2(op, lit=0x12345678)]
    if enc == 'SOPK':
        return [enc_sopk(op), enc_sopk(op, simm16=0x1234), enc_sopk(op, lit=0xabcd),
                enc_sopk(op, sdst=0, lit=0xabcd)]
    if enc == 'SOP1':
        return [enc_sop1(op), enc_sop1(op, sdst=0), enc_sop1(op, ssrc0=0), enc_sop1(op, 0, 0)]
    if enc == 'SOPC':
        return [enc_sopc(op), enc_sopc(op, ssrc1=3)]
    if enc == 'SOPP':
        return [enc_sopp(op, 3), enc_sopp(op, 0)]
    if enc == 'SMEM':
        return [enc_smem(op), enc_smem(op, glc=1), enc_smem(op, imm=0, offset=40),
                enc_smem(op, imm=0, offset=40, glc=1)]

# values tried per field when making test-vector variants
# (in priority order: the first values are the most interesting ones for test vectors)
SRC8 = [255, 106, 126, 124, 108, 128, 193, 240, 248, 102, 104, 253, 251, 235, 192, 208, 0, 1,
        107, 127, 125, 123, 113, 110, 112, 116, 122, 109, 105, 103, 101, 100, 5, 21, 129, 130, 160,
        194, 200, 209, 236, 237, 238, 239, 241, 242, 243, 244, 245, 246, 247, 249, 250, 252, 254]
DST7 = [106, 126, 124, 108, 102, 104, 0, 1, 101, 107, 127, 125, 123, 110, 112, 116, 122, 100, 103,
        105, 109, 5, 21]
LITS = [0x12345678, 0x40, 0xfffffff0, 0x3e22f983]
SIMM16 = [0, 1, 0x7fff, 0x8000, 0xffff, 0xfffe, 0x1234, 0x40, 0x41, 0x3f70, 0xc07f, 0xf70, 0xf7f,
          0x70, 0x12, 0x22, 0x32, 0x33, 0x23, 0x102, 0x112, 0x312, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15,
          0x13, 0x1f, 0x2f, 0x4f, 0x7f, 0x0f00, 0xf801, 0xf802, 0xf803, 0xf804, 0xf805, 0xf806,
          0xf807, 0xf80f, 0xf810, 0xf811, 0xf812, 0xf813, 0xf814, 0xf815, 0xf816, 0xf817, 0xf818,
          0xf819, 0xf81a, 0xf81b, 0xf81c, 0xf81d, 0x0841, 0x1901, 0xff81, 0x003f]


def variants(enc, op, gen):
    """(field, bytes) pairs: the canonical word with one field changed."""
    out = []
    if enc == 'SOP2':
        for v in SRC8:
            for lit in (LITS if v == 255 else [None]):
                out.append(('ssrc0', enc_sop2(op, ssrc0=v, lit=lit)))
                out.append(('ssrc1', enc_sop2(op, ssrc1=v, lit=lit)))
        out += [('sdst', enc_sop2(op, sdst=v)) for v in DST7]
        out += [('both', enc_sop2(op, 0, 128, 193)), ('both', enc_sop2(op, 106, 126, 106))]
    elif enc == 'SOP1':
        for v in SRC8:
            for lit in (LITS if v == 255 else [None]):
                out.append(('ssrc0', enc_sop1(op, ssrc0=v, lit=lit)))
        out += [('sdst', enc_sop1(op, sdst=v)) for v in DST7]
        out += [('both', enc_sop1(op, sdst=v, ssrc0=v)) for v in (0, 106, 126)]
    elif enc == 'SOPC':
        for v in SRC8:
            for lit in (LITS if v == 255 else [None]):
                out.append(('ssrc0', enc_sopc(op, ssrc0=v, lit=lit)))
                out.append(('ssrc1', enc_sopc(op, ssrc1=v, lit=lit)))
        out += [('ssrc1', enc_sopc(op, ssrc1=v)) for v in range(16)]
    elif enc == 'SOPK':
        for v in DST7:
            out.append(('sdst', enc_sopk(op, sdst=v)))
            out.append(('sdst', enc_sopk(op, sdst=v, lit=0xabcd)))
        for v in SIMM16:
            out.append(('simm16', enc_sopk(op, simm16=v)))
            out.append(('simm16', enc_sopk(op, sdst=0, simm16=v, lit=0x12345678)))
        for lit in (0, 1, 0xffffffff, 0x80000000):
            out.append(('lit', enc_sopk(op, sdst=0, lit=lit)))
    elif enc == 'SOPP':
        out += [('simm16', enc_sopp(op, v)) for v in SIMM16]
    elif enc == 'SMEM':
        for v in [0, 106, 126, 108, 124, 102, 104, 1, 2, 4, 20, 28, 100, 101, 110, 112, 116, 127]:
            out.append(('sdata', enc_smem(op, sdata=v)))
            out.append(('sdata', enc_smem(op, sdata=v, glc=1)))
        for v in [0, 53, 63, 54, 51, 52, 1, 3, 49, 50, 56, 58, 62, 10]:
            out.append(('sbase', enc_smem(op, sbase=v)))
        for v in [0, 0xfffff, 0x100000, 0x1fffff, 0x1ffffc, 1, 0xff, 0x100, 0x7ffff, 0x80000]:
            out.append(('offset', enc_smem(op, offset=v)))
            out.append(('offset', enc_smem(op, offset=v, soe=1, soffset=124)))
        for v in [124, 106, 0, 1, 40, 101, 102, 104, 108, 126, 125, 127]:
            out.append(('soffset', enc_smem(op, imm=0, offset=v)))
            out.append(('soffset', enc_smem(op, imm=0, soe=1, offset=0, soffset=v)))
        for imm in (0, 1):
            for glc in (0, 1):
                for nv in (0, 1):
                    for soe in (0, 1):
                        out.append(('mods', enc_smem(op, imm=imm, glc=glc, nv=nv, soe=soe,
                                                     offset=0x40 if imm else 40)))
    return out

# --------------------------------------------------------------------------- parsing

REG_RE = re.compile(r'^(s|ttmp)(\d+)$|^(s|ttmp)\[(\d+):(\d+)\]$')
MODIFIERS = ('glc', 'nv')


def split_ops(rest):
    """Top-level comma split, then the last operand's trailing space-separated modifiers."""
    ops, depth, cur = [], 0, ''
    for ch in rest:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        if ch == ',' and depth == 0:
            ops.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    mods = []
    if ops and not ops[-1].startswith(('vmcnt', 'expcnt', 'lgkmcnt')):
        parts = ops[-1].split(' ')
        ops[-1] = parts[0]
        for p in parts[1:]:
            if p.startswith('offset:'):
                ops.append(p)
            else:
                mods.append(p)
    return ops, mods


def parse_text(txt):
    mn, _, rest = txt.partition(' ')
    ops, mods = split_ops(rest)
    return mn, ops, mods


def reg_info(op):
    m = REG_RE.match(op)
    if not m:
        return None
    if m.group(2) is not None:
        return int(m.group(2)), 1
    return int(m.group(4)), int(m.group(5)) - int(m.group(4)) + 1


SOURCE_SOPK = re.compile(r'^s_(cmpk_|setreg_b32|cbranch_i_fork)')


def classify(enc, mn, txt):
    """Returns list of (role, width_or_None, kind) for the canonical text."""
    _, ops, mods = parse_text(txt)
    out = []
    for i, op in enumerate(ops):
        ri = reg_info(op)
        if enc in ('SOP2', 'SOP1', 'SOPC'):
            if ri is None:
                if mn.startswith('s_set_gpr_idx_on'):
                    out.append(('ssrc1', 1, 'gpridx'))
                    continue
                # literal / inline constant printed from a source field
                out.append(('ssrc0' if i == (0 if enc == 'SOPC' else 1) else 'ssrc1', 1, 'const'))
                continue
            role = {0: 'ssrc0', 20: 'ssrc0', 30: 'ssrc1', 10: 'sdst', 3: 'ssrc1'}[ri[0]]
            out.append((role, ri[1], 'reg'))
        elif enc == 'SOPK':
            if ri is not None:
                role = 'ssrc0' if SOURCE_SOPK.match(mn) else 'sdst'
                out.append((role, ri[1], 'reg'))
            elif op.startswith('hwreg('):
                out.append(('simm16', None, 'hwreg'))
            elif mn == 's_setreg_imm32_b32':
                out.append(('ssrc0', 1, 'imm32'))
            else:
                out.append(('simm16', None, 'imm'))
        elif enc == 'SOPP':
            if op.startswith('sendmsg('):
                out.append(('simm16', None, 'sendmsg'))
            elif op.startswith(('vmcnt', 'expcnt', 'lgkmcnt')):
                out.append(('simm16', None, 'waitcnt'))
            elif op.startswith('gpr_idx('):
                out.append(('simm16', None, 'gpridx'))
            else:
                out.append(('simm16', None, 'imm'))
        elif enc in ('SMEM', 'SMRD'):
            if op.startswith('offset:'):
                out.append(('offset', None, 'imm'))
            elif ri is None:
                if i == 0:
                    out.append(('sdata', 1, 'probe'))   # s_atc_probe: 7-bit immediate
                else:
                    out.append(('offset', None, 'imm'))
            elif ri[0] == 16:
                out.append(('sdata', ri[1], 'reg'))
            elif ri[0] == 4:
                out.append(('sbase', ri[1], 'reg'))
            else:
                out.append(('soffset', ri[1], 'reg'))
    return out, mods


def suffix_kinds(mn):
    suf = re.findall(r'_([biu])(\d+)', mn)
    if not suf:
        return 'b', 'b'
    return suf[0][0], suf[-1][0]


def opnd_type(mn, role, width, kind):
    dk, sk = suffix_kinds(mn)
    if kind == 'imm32':
        return 'b32'
    if role == 'simm16':
        if kind in ('hwreg', 'sendmsg', 'waitcnt', 'gpridx'):
            return 'b16'
        if re.match(r'^s_(cbranch|branch|call_b64)', mn):
            return 'i16'
        if re.match(r'^s_(movk|cmovk|addk|mulk)_i32|^s_cmpk_.*_i32', mn):
            return 'i16'
        if re.match(r'^s_cmpk_.*_u32', mn):
            return 'u16'
        return 'u16'
    if role == 'offset':
        return 'i32'
    if kind == 'gpridx':
        return 'b32'
    if kind == 'probe':
        return 'b32'
    k = dk if role in ('sdst',) else sk
    if role in ('sdata', 'sbase', 'soffset'):
        k = 'b'
    return '%s%d' % (k, 32 * (width or 1))

# --------------------------------------------------------------------------- main probe


def probe_new():
    """Returns rows: dict (enc, mn) -> {'ops': {gen: op}, 'sig': {gen: [...]}, 'canon': {gen: bytes}},
    plus raw texts."""
    rows = collections.OrderedDict()
    cpus = [(g, CPU[g]) for g in NEW_GENS] + [('gfx9:' + c, c) for c in GFX9_EXTRA]
    for gen, cpu in cpus:
        cands = []
        for enc in OPRANGE:
            for op in OPRANGE[enc]:
                for b in canon_candidates(enc, op):
                    cands.append((enc, op, b))
        res = L.disasm(cpu, [c[2] for c in cands])
        seen = set()
        for enc, op, b in cands:
            if (enc, op) in seen or b not in res:
                continue
            seen.add((enc, op))
            txt = res[b]
            mn = txt.split(' ')[0]
            r = rows.setdefault((enc, mn), {'ops': {}, 'canon': {}, 'text': {}})
            if gen in r['ops'] and r['ops'][gen] != op:
                print('WARNING: %s %s at two opcodes on %s' % (enc, mn, gen), file=sys.stderr)
                continue
            r['ops'][gen] = op
            r['canon'][gen] = b
            r['text'][gen] = txt
    return rows


GENERIC_FORMS = ['', '0', '3', 's10', 's[10:11]', 's10, s20', 's[10:11], s[20:21]', 's10, s[20:21]',
                 's[10:11], s20', 's20, s30', 's[20:21], s30', 's10, s20, s30',
                 's[10:11], s[20:21], s[30:31]', 's[10:11], s[20:21], s30', 's[10:11], s20, s30',
                 's10, 0x1234', 's[10:11], 0x1234', 's[16:17]', 's16, s[4:5], 0x40',
                 's[16:17], s[4:5], 0x40', 's[16:19], s[4:5], 0x40', 's[16:23], s[4:5], 0x40',
                 's[16:31], s[4:5], 0x40', 's16, s[4:7], 0x40', 's[16:17], s[4:7], 0x40',
                 's[16:19], s[4:7], 0x40', 's[16:23], s[4:7], 0x40', 's[16:31], s[4:7], 0x40']


def family_of(bs):
    w = int.from_bytes(bs[:4], 'little')
    if w >> 23 == 0b101111101:
        return 'SOP1'
    if w >> 23 == 0b101111110:
        return 'SOPC'
    if w >> 23 == 0b101111111:
        return 'SOPP'
    if w >> 28 == 0b1011:
        return 'SOPK'
    if w >> 30 == 0b10:
        return 'SOP2'
    if w >> 27 == 0b11000:
        return 'SMRD'
    return None


def opcode_of(enc, bs):
    w = int.from_bytes(bs[:4], 'little')
    return {'SOP2': (w >> 23) & 0x7f, 'SOPK': (w >> 23) & 0x1f, 'SOP1': (w >> 8) & 0xff,
            'SOPC': (w >> 16) & 0x7f, 'SOPP': (w >> 16) & 0x7f, 'SMRD': (w >> 22) & 0x1f}[enc]


def smrd_texts(mn, sig_text):
    """SMRD statement variants derived from the gfx8 SMEM canonical text."""
    _, ops, _ = parse_text(sig_text)
    if not ops:
        return [mn]
    if len(ops) == 1:
        return [mn + ' ' + o for o in ('s[16:17]', 's[0:1]', 's[100:101]', 'vcc', 'ttmp[0:1]',
                                        'exec', 'flat_scratch')]
    sdata, sbase = ops[0], ops[1]
    if reg_info(sdata) is None or reg_info(sbase) is None:
        return []
    n = reg_info(sdata)[1]
    nb = reg_info(sbase)[1]
    def rr(base, cnt):
        return 's%d' % base if cnt == 1 else 's[%d:%d]' % (base, base + cnt - 1)
    out = []
    datas = [sdata, rr(0, n), rr(96 if n < 8 else 88, n), rr(100, n) if n <= 2 else rr(96, n)]
    if n == 1:
        datas += ['vcc_lo', 'vcc_hi', 'm0', 'ttmp4', 's103', 'exec_lo', 'flat_scratch_lo']
    elif n == 2:
        datas += ['vcc', 'ttmp[4:5]', 'exec', 'flat_scratch']
    elif n == 4:
        datas += ['ttmp[4:7]']
    bases = [sbase, rr(0, nb), rr(96 if nb == 4 else 100, nb)]
    if nb == 2:
        bases += ['vcc', 'ttmp[2:3]', 'exec', 'flat_scratch']
    else:
        bases += ['ttmp[4:7]']
    offs = ['0x12345', '0', '0xff', 's40', 'm0', 'vcc_lo', 'ttmp3', 's103', '0x100', '0x12345',
            '0xfffff', '0xfffffff0', '-1']
    groups = [['%s %s, %s, 0x40' % (mn, d, sbase) for d in datas],
              ['%s %s, %s, 0x40' % (mn, sdata, b) for b in bases],
              ['%s %s, %s, %s' % (mn, sdata, sbase, o) for o in offs]]
    while any(groups):          # round-robin so that the first few cover every field
        for g in groups:
            if g:
                out.append(g.pop(0))
    return out


def pick(cands, k):
    """Round-robin over fields, keeping distinct texts."""
    by = collections.OrderedDict()
    for f, b, t in cands:
        by.setdefault(f, []).append((b, t))
    out, texts = [], set()
    while len(out) < k and any(by.values()):
        for f in list(by):
            while by[f]:
                b, t = by[f].pop(0)
                if t not in texts:
                    texts.add(t)
                    out.append((b, t))
                    break
            if len(out) >= k:
                break
    return out


def spread(lst, k):
    """k items spread over lst (keeps first)."""
    if len(lst) <= k:
        return lst
    step = len(lst) / k
    return [lst[int(i * step)] for i in range(k)]


def main():
    rows = probe_new()
    # ---- gfx9-only-on-some-cpus
    cpus_flag = {}
    for key, r in rows.items():
        extra = [g for g in r['ops'] if g.startswith('gfx9:')]
        if 'gfx9' not in r['ops'] and extra:
            ops = {r['ops'][g] for g in extra}
            assert len(ops) == 1, key
            r['ops']['gfx9'] = ops.pop()
            r['canon']['gfx9'] = r['canon'][extra[0]]
            r['text']['gfx9'] = r['text'][extra[0]]
            cpus_flag[key] = [g.split(':')[1] for g in extra]
        for g in extra:
            del r['ops'][g]

    # ---- test vectors for gfx8+
    vectors = collections.defaultdict(list)   # family -> list of (mcpu, bytes, text)
    alltexts = collections.defaultdict(list)  # (enc,mn) -> texts printed on gfx8+
    for gen in NEW_GENS:
        cand = []
        owner = {}
        for key, r in rows.items():
            if gen not in r['ops']:
                continue
            enc, _ = key
            for f, b in variants(enc, r['ops'][gen], gen):
                cand.append(b)
                owner.setdefault(b, []).append((key, f))
        cpu = CPU[gen]
        if gen == 'gfx9':
            cpu_of = {k: ('gfx906' if 'gfx906' in v else v[0]) for k, v in cpus_flag.items()}
        res = L.disasm(cpu, cand)
        extra_res = {}
        if gen == 'gfx9' and cpus_flag:
            for c in set(cpu_of.values()):
                extra_res[c] = L.disasm(c, [b for b in cand
                                            if any(cpu_of.get(k) == c for k, _ in owner[b])])
        per = collections.defaultdict(list)
        for b in dict.fromkeys(cand):
            for key, f in owner[b]:
                rr = res
                mc = cpu
                if gen == 'gfx9' and key in cpus_flag:
                    mc = cpu_of[key]
                    rr = extra_res[mc]
                if b in rr and rr[b].split(' ')[0] == key[1]:
                    per[key].append((f, b, rr[b]))
        for key, r in rows.items():
            if gen not in r['ops']:
                continue
            mc = cpu_of[key] if (gen == 'gfx9' and key in cpus_flag) else cpu
            canon = (r['canon'][gen], r['text'][gen])
            ordered = [x for x in pick(per[key], 100000) if x[1] != canon[1]]
            kmax = MAX_VARIANTS + (6 if key[0] == 'SMEM' else 0)
            lst = [canon] + ordered[:kmax - 1]
            alltexts[key] += [canon[1]] + [t for _, t in ordered]
            fam = 'smem' if key[0] == 'SMEM' else key[0].lower()
            for b, t in lst:
                vectors[fam].append((mc, b, t))
            r.setdefault('nvec', {})[gen] = len(lst)
            r.setdefault('allprinted', {})[gen] = per[key]
            if any('/*Invalid immediate*/' in t for _, _, t in per[key]):
                r['sregonly'] = True

    # ---- gfx6 / gfx7 by assembling
    old_rows = collections.OrderedDict()      # (enc, mn) -> {'ops':{gen:op}, 'texts':{gen:[(b,t)]}}
    strings_mn = candidate_mnemonics()
    known_new = {mn for (_, mn) in rows}
    for gen in ('gfx6', 'gfx7'):
        cpu = ASM_CPU[gen]
        stmts = []
        for key, r in rows.items():
            enc, mn = key
            if enc == 'SMEM':
                g8 = next(g for g in NEW_GENS if g in r['text'])
                stmts += smrd_texts(mn, r['text'][g8])
            else:
                stmts += list(dict.fromkeys(alltexts[key]))
        for mn in strings_mn:
            if mn not in known_new:
                stmts += [(mn + ' ' + f).strip() for f in GENERIC_FORMS]
        stmts = list(dict.fromkeys(stmts))
        res = L.assemble(cpu, stmts)
        for st, (b, t) in zip(stmts, res):
            if b is None:
                continue
            fam = family_of(b)
            if fam is None:
                continue
            mn = t.split(' ')[0]
            key = (fam, mn)
            o = old_rows.setdefault(key, {'ops': {}, 'texts': collections.defaultdict(list)})
            op = opcode_of(fam, b)
            if o['ops'].get(gen, op) != op:
                print('WARNING: %s %s two opcodes on %s' % (fam, mn, gen), file=sys.stderr)
                continue
            o['ops'][gen] = op
            if (b, t) not in o['texts'][gen]:
                o['texts'][gen].append((b, t))

    # ---- merge into table rows
    table = collections.OrderedDict()
    for key, r in rows.items():
        enc, mn = key
        if enc == 'SMEM':
            table[key] = {'ops': dict(r['ops']), 'text': r['text']}
        else:
            t = dict(r['ops'])
            if key in old_rows:
                t.update(old_rows[key]['ops'])
            table[key] = {'ops': t, 'text': r['text'], 'sregonly': r.get('sregonly')}
    for key, o in old_rows.items():
        enc, mn = key
        if key not in table:
            first = o['texts'].get('gfx6') or o['texts'].get('gfx7')
            table[key] = {'ops': dict(o['ops']), 'text': {'old': first[0][1]}}
        fam = 'smem' if enc == 'SMRD' else enc.lower()
        for gen in ('gfx6', 'gfx7'):
            tl = o['texts'].get(gen, [])
            for b, t in tl[:MAX_VARIANTS + (6 if enc == 'SMRD' else 0)]:
                vectors[fam].append((CPU[gen], b, t))

    write_tables(table, cpus_flag)
    write_vectors(vectors)
    # a small summary for the notes
    cnt = collections.Counter()
    for (enc, mn), r in table.items():
        for g in r['ops']:
            cnt[(enc, g)] += 1
    for enc in ['SOP2', 'SOPK', 'SOP1', 'SOPC', 'SOPP', 'SMRD', 'SMEM']:
        print(enc, ' '.join('%s=%d' % (g, cnt[(enc, g)]) for g in GENS))
    print('vectors', {k: len(v) for k, v in vectors.items()})


def candidate_mnemonics():
    """Scalar mnemonics found in libLLVM's string table (asm-matcher mnemonic table)."""
    import subprocess, glob
    lib = sorted(glob.glob('/usr/lib/llvm-19/lib/libLLVM*.so*'))[0]
    p = subprocess.run(['strings', '-n', '6', lib], capture_output=True, text=True)
    names = set(re.findall(r'\bs_[a-z][a-z0-9_]*', p.stdout))
    return sorted(n for n in names if not re.search(r'_(gfx\d+|vi|si|ci|e32|e64)$', n))

# --------------------------------------------------------------------------- writers

HEADERS = {}
HEADERS['common'] = """\
# Generated by tools/probe/scalar.py from LLVM 19 (llvm-mc); do not edit by hand.
# Columns: ENC MNEMONIC gfx6 gfx7 gfx8 gfx9 gfx908 gfx90a gfx940 OPERAND... FLAG...
# Operands are in LLVM's print order. Scalar operand encoding (ssrc fields, 8 bits):
#   0-101 SGPRs (gfx6/7: 0-103), 102/103 flat_scratch_lo/hi (gfx8+; gfx7 has them at 104/105,
#   gfx6 has none), 104/105 xnack_mask_lo/hi (gfx8+), 106/107 vcc_lo/hi, 108-111 tba_lo/hi,
#   tma_lo/hi (gfx6-8) / ttmp0-3 (gfx9+), 112-123 ttmp0-11 (gfx6-8) / ttmp4-15 (gfx9+), 124 m0,
#   125 printed "null" by the gfx8+ disassembler, 126/127 exec_lo/hi, 128-192 integers 0..64,
#   193-208 -1..-16, 235-239 src_shared_base/limit, src_private_base/limit,
#   src_pops_exiting_wave_id (printed on gfx8 too),
#   240-247 0.5 -0.5 1.0 -1.0 2.0 -2.0 4.0 -4.0, 248 1/(2*pi) (gfx8+), 251 vccz, 252 execz,
#   253 scc, 255 32-bit literal following the instruction word. sdst fields are 7 bits.
"""
FLAG_DOC = {
    'sop2': """\
# SOP2: [31:30]=10, op[29:23], sdst[22:16], ssrc1[15:8], ssrc0[7:0]. (op 96-127 = SOPK/SOP1/SOPC/SOPP.)
# Flags:
#   +nosdst   the sdst field is unused (instruction prints no destination)
""",
    'sop1': """\
# SOP1: [31:23]=101111101, sdst[22:16], op[15:8], ssrc0[7:0].
# Flags:
#   +nosdst   the sdst field is unused (instruction prints no destination)
#   +nossrc0  the ssrc0 field is unused
#   +sregonly ssrc0 is register-only (SReg class without immediates): an inline constant or
#             literal still decodes, but LLVM prints it followed by /*Invalid immediate*/
""",
    'sopc': """\
# SOPC: [31:23]=101111110, op[22:16], ssrc1[15:8], ssrc0[7:0].
# Flags:
#   +gpridx   ssrc1 is not a scalar source but a 4-bit VGPR-index mode mask (s_set_gpr_idx_on);
#             LLVM 19 prints the raw ssrc1 field value in hex (e.g. 0x1e), not gpr_idx(...)
""",
    'sopk': """\
# SOPK: [31:28]=1011, op[27:23], sdst[22:16], simm16[15:0]. (op 29-31 are SOP1/SOPC/SOPP.)
# The single register operand, whatever its role (sdst, or ssrc0 for s_cmpk_*, s_setreg_b32,
# s_cbranch_i_fork), always lives in the 7-bit field [22:16].
# Flags:
#   +hwreg    simm16 is hwreg(id, offset, size): id[5:0], offset[10:6], size-1[15:11]
#   +branch   simm16 is a signed dword PC offset; llvm-mc -disassemble prints the raw field as
#             an UNSIGNED decimal (0xffff -> 65535), never a label
#   +imm32    a 32-bit literal dword follows (s_setreg_imm32_b32); sdst field unused
#   +nosdst   the [22:16] field is unused
""",
    'sopp': """\
# SOPP: [31:23]=101111111, op[22:16], simm16[15:0].
# Flags:
#   +branch   simm16 is a signed dword PC offset; printed as the raw UNSIGNED decimal field
#             value (0xfffe -> 65534), never a label
#   +waitcnt  simm16 printed as vmcnt(N) expcnt(N) lgkmcnt(N)
#   +sendmsg  simm16 printed as sendmsg(MSG[, OP[, STREAM]])
#   +gpridx   simm16 printed as gpr_idx(SRC0,SRC1,SRC2,DST)
#   +noops    no operand is printed; LLVM requires simm16 == 0 (other values are invalid)
#   +optimm   simm16 printed only when nonzero (s_endpgm)
""",
    'smem': """\
# SMRD (gfx6/7, 32-bit): [31:27]=11000, op[26:22], sdst[21:15], sbase[14:9] (SGPR pair index),
#   imm[8], offset[7:0]: imm=1 -> dword offset; imm=0 -> offset is an SGPR (or 255 = 32-bit
#   literal byte offset following, gfx7 only, printed as a plain hex offset).
# SMEM (gfx8+, 64-bit): [31:26]=110000, op[25:18], imm[17], glc[16], nv[15] (gfx9+ decode),
#   soe[14] (gfx9+), sdata[12:6], sbase[5:0] (SGPR pair index); dword 1: offset[19:0] (gfx8) or
#   offset[20:0] (gfx9+), soffset[31:25] (gfx9+, used when soe=1).
# Operand roles: sdata (destination for loads/atomics-with-return, source for stores/atomics),
#   sbase (b64 address or b128 buffer resource), then the address offset which prints as ONE of:
#     imm=1 soe=0 : offset           e.g.  s_load_dword s16, s[4:5], 0x40
#     imm=0 soe=0 : soffset (SGPR from offset[6:0])         s_load_dword s16, s[4:5], s64
#     imm=0 soe=1 : soffset (from soffset field)            s_load_dword s16, s[4:5], s40
#     imm=1 soe=1 : soffset offset:N                        s_load_dword s16, s[4:5], s40 offset:0x40
#   The row lists `soffset:b32 offset:i32`: both roles, print rules above.
#   Modifiers follow: glc (nv is never printed by LLVM 19; see NOTES-scalar.md).
# Flags:
#   +load +store +atomic     memory kind; for +atomic glc=1 means "return the pre-op value"
#   +probe    sdata field is a 7-bit immediate (s_atc_probe*), printed in decimal
#   +nosdata  the sdata field is unused (s_dcache_discard*)
#   +nooffset no address operands (s_dcache_*, s_memtime, s_memrealtime): sbase/offset/soe/glc
#             bits are ignored, but imm=1 makes the word invalid (gfx8+)
#   SMRD imm=0 offset=255 on gfx7 = 32-bit literal byte offset (8-byte instruction).
""",
}


def row_signature(enc, mn, text):
    roles, mods = classify(enc, mn, text)
    ops = []
    flags = []
    for role, width, kind in roles:
        ops.append('%s:%s' % (role, opnd_type(mn, role, width, kind)))
        if kind in ('hwreg', 'sendmsg', 'waitcnt', 'gpridx', 'imm32', 'probe'):
            flags.append('+' + kind)
    if enc == 'SOPP' and re.match(r'^s_(branch|cbranch)', mn):
        flags.append('+branch')
    if enc == 'SOPK' and re.match(r'^s_(cbranch|call)', mn):
        flags.append('+branch')
    roles_present = {r for r, _, _ in roles}
    if enc in ('SOP1', 'SOP2') and 'sdst' not in roles_present:
        flags.append('+nosdst')
    if enc == 'SOP1' and 'ssrc0' not in roles_present:
        flags.append('+nossrc0')
    if enc == 'SOPK' and not any(k in ('reg',) for _, _, k in roles):
        flags.append('+nosdst')
    return ops, flags


def smem_signature(mn, text):
    roles, _ = classify('SMEM', mn, text)
    ops, flags = [], []
    have = set()
    for role, width, kind in roles:
        if role in ('soffset', 'offset'):
            continue
        ops.append('%s:%s' % (role, opnd_type(mn, role, width, kind)))
        have.add(role)
        if kind == 'probe':
            flags.append('+probe')
    if any(r in ('soffset', 'offset') for r, _, _ in roles):
        ops += ['soffset:b32', 'offset:i32']
        if 'sdata' not in have:
            flags.append('+nosdata')
    else:
        flags.append('+nooffset')
    if 'atomic' in mn:
        flags.append('+atomic')
    elif 'store' in mn:
        flags.append('+store')
    elif 'load' in mn:
        flags.append('+load')
    return ops, flags


def write_tables(table, cpus_flag):
    fams = collections.defaultdict(list)
    for (enc, mn), r in table.items():
        fam = 'smem' if enc in ('SMEM', 'SMRD') else enc.lower()
        texts = r['text']
        g = next((g for g in NEW_GENS if g in texts), None)
        text = texts[g] if g else texts['old']
        if enc in ('SMEM', 'SMRD'):
            ops, flags = smem_signature(mn, text)
        else:
            ops, flags = row_signature(enc, mn, text)
            if enc == 'SOPP' and not ops:
                flags.append('+noops')
            if enc == 'SOPP' and mn == 's_endpgm':
                ops, flags = ['simm16:u16'], ['+optimm']
        if r.get('sregonly'):
            flags.append('+sregonly')
        if (enc, mn) in cpus_flag:
            flags.append('+cpus=' + ','.join(sorted(cpus_flag[(enc, mn)])))
        cols = [str(r['ops'][g]) if g in r['ops'] else '-' for g in GENS]
        first = min((r['ops'][g], i) for i, g in enumerate(GENS) if g in r['ops'])
        fams[fam].append(((enc != 'SMRD', first[1], first[0], mn),
                          [enc, mn] + cols + ops + flags))
    for fam in FAMILIES:
        lines = sorted(fams[fam])
        w = [0] * 9
        for _, cells in lines:
            for i in range(9):
                w[i] = max(w[i], len(cells[i]))
        path = os.path.join(ROOT, 'crates', 'isa', 'tables', fam + '.tbl')
        with open(path, 'w') as f:
            f.write(HEADERS['common'])
            f.write(FLAG_DOC[fam])
            f.write('#\n')
            for _, cells in lines:
                f.write('  '.join(c.ljust(w[i]) if i < 9 else c
                                  for i, c in enumerate(cells)).rstrip() + '\n')


def write_vectors(vectors):
    d = os.path.join(ROOT, 'tests', 'vectors')
    os.makedirs(d, exist_ok=True)
    order = ['gfx600', 'gfx700', 'gfx803', 'gfx900', 'gfx904', 'gfx906', 'gfx90c', 'gfx908',
             'gfx90a', 'gfx940']
    for fam in FAMILIES:
        seen = set()
        lines = []
        for mc, b, t in vectors.get(fam, []):
            if (mc, b) in seen:
                continue
            seen.add((mc, b))
            lines.append((order.index(mc), mc, L.bytes_str(b), t))
        lines.sort(key=lambda x: x[0])
        with open(os.path.join(d, fam + '.txt'), 'w') as f:
            for _, mc, bs, t in lines:
                f.write('%s\t%s\t%s\n' % (mc, bs, t))


if __name__ == '__main__':
    main()
