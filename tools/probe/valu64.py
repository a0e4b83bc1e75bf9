#!/usr/bin/env python3
"""Regenerate crates/isa/tables/{vop3,vop3p}.tbl and tests/vectors/{vop3,vop3p}.txt from LLVM 19.

gfx8+: every VOP3 (10-bit) and VOP3P (7-bit) opcode is disassembled with several operand layouts
(valu64_enum.py); gfx6/gfx7: mnemonics are assembled with -mcpu=tahiti / bonaire and the 9-bit opcode
is read back. Usage: python3 tools/probe/valu64.py [--cache enum.json]  (from anywhere).
valu64_names.txt (gfx6/7 candidate mnemonics) is every `v_*` string in LLVM 19's mnemonic table:
  strings -n 5 /usr/lib/llvm-19/lib/libLLVM.so.19.1 | grep -E '^v_[a-z0-9_]+$' | sort -u"""
import os, re, sys, json, struct, itertools, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from valu64_lib import disasm, assemble, split_text, parse_reg, bstr, CRASHES
import valu64_enum as E
from valu64_types import operand_types

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
GENS = ['gfx6', 'gfx7', 'gfx8', 'gfx9', 'gfx908', 'gfx90a', 'gfx940']
GROUPS = {'gfx8': ['gfx801', 'gfx802', 'gfx803', 'gfx805', 'gfx810'],
          'gfx9': ['gfx900', 'gfx902', 'gfx904', 'gfx906', 'gfx909', 'gfx90c'],
          'gfx908': ['gfx908'], 'gfx90a': ['gfx90a'], 'gfx940': ['gfx940', 'gfx941', 'gfx942']}
OLD = {'gfx6': ['tahiti', 'pitcairn', 'verde', 'oland', 'hainan'],
       'gfx7': ['bonaire', 'kaveri', 'hawaii', 'kabini', 'mullins']}
VEC_CPU = {'gfx6': 'tahiti', 'gfx7': 'bonaire', 'gfx8': 'gfx803', 'gfx908': 'gfx908', 'gfx90a': 'gfx90a',
           'gfx940': 'gfx940'}
VEC_NAME = {'tahiti': 'gfx600', 'bonaire': 'gfx700'}
REPORT = []


def log(*a):
    REPORT.append(' '.join(str(x) for x in a))


def mine_vop3(cpu, op, d):
    """Is a decoded VOP3 opcode on gfx8+ a VOP3-only instruction (not an _e64 of VOP1/2/C, not VOP3P)?"""
    if op < 0x1C0:
        if not d['mn'].endswith('_e64'):
            log('NOTE', cpu, 'VOP3 opcode', op, 'below 0x1C0 prints without _e64:', d['text'])
        return False
    if op >= 0x380 and not cpu.startswith('gfx8'):
        return False  # VOP3 opcodes 0x380-0x3FF are the VOP3P encoding on gfx9+
    return True


# ---------------------------------------------------------------- gfx6/gfx7 via the assembler
def reg(kind, start, w):
    return '%s%d' % (kind, start) if w == 1 else '%s[%d:%d]' % (kind, start, start + w - 1)


def templates(name):
    out = []
    for d in (1, 2):
        for sd in (False, True):
            for n in (1, 2, 3):
                for ws in itertools.product((1, 2), repeat=n):
                    ops = [reg('v', 10, d)] + (['s[0:1]'] if sd else []) + \
                          [reg('v', E.VOP3_SRC[i], w) for i, w in enumerate(ws)]
                    out.append(name + ' ' + ', '.join(ops))
    return out


def old_probe(known_texts, names):
    """known_texts: {name: [statement]}; names: all candidate mnemonics. Returns
    {gen: {name: (opcode9, text, bytes)}} for VOP3-only encodings."""
    res = {}
    for gen, cpus in OLD.items():
        cpu = cpus[0]
        found = {}
        stmts, owners = [], []
        for n in sorted(names):
            for t in known_texts.get(n, []):
                stmts.append(t); owners.append(n)
        # first pass: known operand shapes
        r = assemble(cpu, stmts)
        unresolved = set(names)
        for (txt, b), n, s in zip(r, owners, stmts):
            if txt is None:
                if 'not supported' in b or 'invalid instruction' in b:
                    continue
                continue
            _take(found, n, txt, b)
        unresolved -= set(found)
        # second pass: template search for the rest
        stmts, owners = [], []
        for n in sorted(unresolved):
            for t in templates(n):
                stmts.append(t); owners.append(n)
        r = assemble(cpu, stmts)
        for (txt, b), n in zip(r, owners):
            if txt is not None:
                _take(found, n, txt, b)
        res[gen] = found
        # consistency over the other processors of the generation
        for other in cpus[1:]:
            items = sorted(found.items())
            r2 = assemble(other, [v[1] for k, v in items])
            for (k, v), (txt, b) in zip(items, r2):
                if b != v[2]:
                    log('WARN', gen, other, k, 'differs from', cpu, ':', txt, b)
    return res


def _take(found, n, txt, b):
    bs = [int(x, 16) for x in b.split(',')]
    if len(bs) != 8:
        return
    w0 = struct.unpack('<I', bytes(bs[:4]))[0]
    if w0 >> 26 != 0b110100:
        return
    mn = txt.split()[0]
    if mn.endswith('_e64') or mn != n:
        return
    op = (w0 >> 17) & 0x1FF
    if n not in found:
        found[n] = (op, txt, b)


# ---------------------------------------------------------------- rows
def build_rows(enum, old):
    rows = {}  # (enc, mn) -> {'op': {gen: opcode}, 'cpus': {gen: set}, 'ops': ..., 'texts': {cpu: (bytes, text)}}
    for gen, cpus in GROUPS.items():
        for cpu in cpus:
            for enc in ('VOP3', 'VOP3P'):
                for op, d in enum[cpu][enc].items():
                    op = int(op)
                    if enc == 'VOP3' and not mine_vop3(cpu, op, d):
                        continue
                    mn = d['mn'][:-4] if d['mn'].endswith('_e64') else d['mn']
                    if enc == 'VOP3' and cpu.startswith('gfx8') is False and op >= 0x380:
                        continue
                    r = rows.setdefault((enc, mn), {'op': {}, 'cpus': collections.defaultdict(set),
                                                    'ops': {}, 'canon': {}, 'printed': d['mn']})
                    if gen in r['op'] and r['op'][gen] != op:
                        log('WARN opcode differs within', gen, mn, r['op'][gen], cpu, op)
                    r['op'].setdefault(gen, op)
                    r['cpus'][gen].add(cpu)
                    r['ops'][cpu] = d['ops']
                    r['canon'][cpu] = (d['bytes'], d['text'])
    # gfx8 mnemonics that are VOP3P-range on gfx9 are skipped above; gfx6/7
    for gen, found in old.items():
        for n, (op, txt, b) in found.items():
            r = rows.setdefault(('VOP3', n), {'op': {}, 'cpus': collections.defaultdict(set), 'ops': {},
                                               'canon': {}, 'printed': n})
            r['op'][gen] = op
            r['cpus'][gen].add(OLD[gen][0])
            mn, ops, mods = split_text(txt)
            r['ops'][OLD[gen][0]] = E.roles_vop3(ops)
            r['canon'][OLD[gen][0]] = (b, txt)
    return rows


def row_operands(mn, r):
    order = ['gfx940', 'gfx941', 'gfx942', 'gfx90a', 'gfx908'] + GROUPS['gfx9'] + GROUPS['gfx8'] + \
            ['bonaire', 'tahiti']
    sigs = {}
    for cpu in order:
        if cpu in r['ops']:
            ops = r['ops'][cpu]
            sig = tuple((o[0], o[2]) for o in ops)
            sigs.setdefault(sig, []).append(cpu)
    best = None
    for cpu in order:
        if cpu in r['ops']:
            best = r['ops'][cpu]
            break
    if len(sigs) > 1:
        log('NOTE operand widths differ between processors for', mn, {str(k): v for k, v in sigs.items()})
    types = operand_types(r['printed'], best)
    out = []
    for role, kind, n, tok in best:
        if role is None:
            if tok.startswith('attr'):
                out += ['attr:u32', 'chan:u32']
                continue
            if tok.startswith(('p10', 'p20', 'p0', 'invalid_param')):
                out.append('src1:u32')
                continue
            log('WARN unknown operand', mn, tok)
            continue
        out.append('%s:%s' % (role, types[role]))
    return out, sigs


def flags_for(enc, mn, r):
    fl = []
    g9 = r['cpus'].get('gfx9')
    if g9 and set(g9) != set(GROUPS['gfx9']):
        fl.append('+cpus=' + ','.join(sorted(g9)))
    for g in ('gfx8', 'gfx940'):
        s = r['cpus'].get(g)
        if s and set(s) != set(GROUPS[g]):
            log('WARN', mn, 'exists only on', sorted(s), 'of', g)
    return fl


# ---------------------------------------------------------------- vectors, gfx8+
def setf(w, lo, width, val):
    m = ((1 << width) - 1) << lo
    return (w & ~m) | ((val << lo) & m)


SRC_LO = {'src0': 0, 'src1': 9, 'src2': 18}
SUBST = {'src0': [128, 240, 106, 126, 124, 112, 255, 'S'],
         'src1': [193, 247, 248, 107, 102, 108, 'S'],
         'src2': [192, 242, 245, 127, 253, 235, 'S']}
SREG = {'src0': 20, 'src1': 30, 'src2': 40}


def vop3_variants(w0, w1, roles, interp, vop3b, gfx9):
    out = [(w0, w1)]
    srcs = [r for r in roles if r in SRC_LO and not (interp and r == 'src0')]
    for s in srcs:
        for v in SUBST[s]:
            out.append((w0, setf(w1, SRC_LO[s], 9, SREG[s] if v == 'S' else v)))
    if len(srcs) >= 2:  # one SGPR + constants together
        a, b = srcs[0], srcs[1]
        out.append((w0, setf(setf(w1, SRC_LO[a], 9, SREG[a]), SRC_LO[b], 9, 240)))
        out.append((w0, setf(setf(w1, SRC_LO[a], 9, 193), SRC_LO[b], 9, SREG[b])))
    mods1 = [(28, 3, 7), (28, 3, 1), (28, 3, 4), (26 + 1, 2, 1), (27, 2, 2), (27, 2, 3)]  # neg / omod
    for lo, wd, v in [(29, 3, 7), (29, 3, 1), (29, 3, 2), (29, 3, 3), (29, 3, 4), (27, 2, 1), (27, 2, 2), (27, 2, 3)]:
        out.append((w0, setf(w1, lo, wd, v)))
    out.append((w0 | (1 << 15), w1))
    out.append((w0 | (1 << 15), setf(w1, 27, 2, 2)))
    if not vop3b:
        for v in (7, 1, 2, 4):
            out.append((setf(w0, 8, 3, v), w1))
        out.append((setf(w0, 8, 3, 5), setf(w1, 29, 3, 2)))
        if gfx9:
            for v in (1, 2, 4, 8, 15):
                out.append((setf(w0, 11, 4, v), w1))
    else:
        for v in (106, 20, 126, 102, 124):
            out.append((setf(w0, 8, 7, v), w1))
    if interp:
        for v in (0, 63 | (3 << 6), 32 | (1 << 6) | 256, 5 | (2 << 6), 256):
            out.append((w0, setf(w1, 0, 9, v)))
        for v in (0, 1, 2, 3):
            out.append((w0, setf(w1, 9, 9, v)))
    return out


def vop3p_variants(w0, w1, roles, mai, gfx940):
    out = []
    srcs = [r for r in roles if r in SRC_LO]
    if not mai:
        base = (w0 | (1 << 14), setf(w1, 27, 2, 3))  # op_sel_hi default (all ones)
        out += [base, (w0 & ~(1 << 14), setf(w1, 27, 2, 0))]
        b0, b1 = base
        for s in srcs:
            for v in SUBST[s]:
                out.append((b0, setf(b1, SRC_LO[s], 9, SREG[s] if v == 'S' else v)))
        for v in (1, 2, 4, 7):
            out.append((setf(b0, 11, 3, v), b1))  # op_sel
        out.append((b0 & ~(1 << 14), b1))
        out.append((b0, setf(b1, 27, 2, 1)))
        out.append((b0, setf(b1, 27, 2, 2)))
        for v in (7, 1, 2, 3, 4):
            out.append((b0, setf(b1, 29, 3, v)))  # neg_lo
            out.append((setf(b0, 8, 3, v), b1))  # neg_hi
        out.append((b0 | (1 << 15), b1))
        out.append((setf(b0 | (1 << 15), 11, 3, 5), setf(b1, 29, 3, 2)))
        return out
    out.append((w0, w1))
    for s in srcs:
        for v in SUBST[s]:
            out.append((w0, setf(w1, SRC_LO[s], 9, SREG[s] if v == 'S' else v)))
    for v in (1, 2, 4, 7):
        out.append((setf(w0, 8, 3, v), w1))  # cbsz
    for v in (1, 3, 15):
        out.append((setf(w0, 11, 4, v), w1))  # abid
    for v in (1, 3, 7):
        out.append((w0, setf(w1, 29, 3, v)))  # blgp
    out.append((w0 ^ (1 << 15), w1))  # acc_cd
    for v in (0, 1, 2, 3):
        out.append((w0, setf(w1, 27, 2, v)))  # acc
        out.append((w0 ^ (1 << 15), setf(w1, 27, 2, v)))
    out.append((setf(setf(w0, 8, 3, 2), 11, 4, 1), setf(w1, 29, 3, 5)))
    out.append((w0 ^ (1 << 15), setf(w1, 18, 9, 128)))
    return out


def canonical_word(cpu, enc, op, roles):
    """Word with fixed registers (dst 10/0, srcs 20/30/40 or 64/96/128) for the row's roles."""
    # re-use the bytes LLVM decoded during enumeration
    return None


def gen_vectors_new(rows, enum):
    """Returns {enc: [(mcpu, bytes, text)]}; also per-row mods seen."""
    vecs = {'VOP3': [], 'VOP3P': []}
    seen_mods = collections.defaultdict(set)
    bad = collections.Counter()
    examples = []
    for gen in ('gfx8', 'gfx9', 'gfx908', 'gfx90a', 'gfx940'):
        jobs = collections.defaultdict(list)  # cpu -> [(key, words)]
        for key, r in sorted(rows.items()):
            if gen not in r['op']:
                continue
            enc, mn = key
            cpus = r['cpus'][gen]
            if gen == 'gfx9':
                vc = [c for c in ('gfx900', 'gfx906') if c in cpus]
                if not vc:
                    log('WARN no vector processor for', mn, sorted(cpus))
                    continue
                vc = vc[:1]
            else:
                vc = [VEC_CPU[gen]] if VEC_CPU[gen] in cpus else [sorted(cpus)[0]]
            for cpu in vc:
                b, t = r['canon'][cpu]
                bs = bytes(int(x, 16) for x in b.split(','))
                w0, w1 = struct.unpack('<II', bs)
                roles = [o[0] for o in r['ops'][cpu] if o[0]]
                if enc == 'VOP3':
                    ws = vop3_variants(w0, w1, roles, mn.startswith('v_interp'), 'sdst' in roles and 'vdst' in roles,
                                       gen != 'gfx8')
                else:
                    ws = vop3p_variants(w0, w1, roles, mn.startswith(('v_mfma', 'v_smfmac')), gen == 'gfx940')
                jobs[cpu].append((key, ws))
        for cpu, lst in jobs.items():
            allw = [w for k, ws in lst for w in ws]
            dec = disasm(cpu, allw)
            cand = []
            for key, ws in lst:
                done = set()
                for w in ws:
                    b = bstr(list(w))
                    if b in done:
                        continue
                    done.add(b)
                    t = dec.get(b)
                    if t is None:
                        bad['invalid'] += 1
                        continue
                    if not E.valid(t):
                        bad['invalid-operand-comment'] += 1
                        examples.append(('DECODES-WITH-COMMENT', cpu, b, t))
                        continue
                    if t.split()[0].rstrip(',') not in (key[1], key[1] + '_e64'):
                        bad['other-mnemonic'] += 1
                        continue
                    cand.append((key, b, t))
            asm = assemble(cpu, [t for k, b, t in cand])
            for (key, b, t), (t2, b2) in zip(cand, asm):
                if b2 != b:
                    bad['no-roundtrip'] += 1
                    examples.append(('NO-ROUNDTRIP', cpu, b, t, t2, b2))
                    continue
                vecs[key[0]].append((VEC_NAME.get(cpu, cpu), b, t, key))
                seen_mods[key].update(mods_of(t))
                seen_mods[(key, gen_of_cpu(cpu))].update(mods_of(t))
    return vecs, seen_mods, bad, examples


# ---------------------------------------------------------------- vectors, gfx6/7
def old_text_variants(txt, vop3b):
    mn, ops, mods = split_text(txt)
    out = [txt]
    first_src = 2 if vop3b else 1
    if mn.startswith(('v_readlane', 'v_writelane')):
        first_src = 1
    srcs = list(range(first_src, len(ops)))
    def join(o, m=()):
        return mn + ' ' + ', '.join(o) + (' ' + ' '.join(m) if m else '')
    subs = [['s20', '0', '0.5', 'vcc_lo', 'exec_lo', 'm0', 'ttmp0'],
            ['s30', '-1', '-4.0', '64', 'vcc_hi', 'flat_scratch_lo'],
            ['s40', '1.0', '-2.0', '-16', 'exec_hi', 'scc']]
    for i in srcs:
        r = parse_reg(ops[i])
        w = r[2] if r else 1
        for v in subs[min(i - first_src, 2)]:
            if w == 2:
                v = {'vcc_lo': 'vcc', 'vcc_hi': 'vcc', 'exec_lo': 'exec', 'exec_hi': 'exec',
                     'flat_scratch_lo': 'flat_scratch', 'ttmp0': 'ttmp[0:1]'}.get(v, v)
                if v.startswith('s') and v[1:].isdigit():
                    v = 's[%s:%d]' % (v[1:], int(v[1:]) + 1)
            o = list(ops); o[i] = v
            out.append(join(o, mods))
        for f in ('-%s', '|%s|', '-|%s|'):
            o = list(ops); o[i] = f % ops[i]
            out.append(join(o, mods))
    for m in (['clamp'], ['mul:2'], ['mul:4'], ['div:2'], ['clamp', 'mul:2']):
        out.append(join(ops, list(mods) + m))
    if vop3b:
        for v in ('vcc', 's[20:21]', 'exec', 'flat_scratch'):
            o = list(ops); o[1] = v
            out.append(join(o, mods))
    return out


def mods_of(t):
    mn, ops, mods = split_text(t)
    out = {m.split(':')[0] for m in mods}
    out = {'omod' if m in ('mul', 'div') else m for m in out}
    for o in ops:
        if '|' in o:
            out.add('abs')
        if re.match(r'^-[|vsa(]', o) or o.startswith('-['):
            out.add('neg')
        if o.startswith('sext('):
            out.add('sext')
    return out


def gen_of_cpu(cpu):
    for g, cs in list(GROUPS.items()) + list(OLD.items()):
        if cpu in cs:
            return g
    return cpu


def gen_vectors_old(rows, seen_mods):
    vecs = {'VOP3': []}
    for gen in ('gfx6', 'gfx7'):
        cpu = OLD[gen][0]
        stm, keys = [], []
        for key, r in sorted(rows.items()):
            if gen not in r['op']:
                continue
            b, t = r['canon'][cpu]
            roles = [o[0] for o in r['ops'][cpu]]
            for v in old_text_variants(t, 'sdst' in roles and 'vdst' in roles):
                stm.append(v); keys.append(key)
        res = assemble(cpu, stm)
        seen = set()
        for key, s, (t, b) in zip(keys, stm, res):
            if t is None or b in seen:
                continue
            bs = [int(x, 16) for x in b.split(',')]
            if len(bs) != 8:
                continue
            w0 = struct.unpack('<I', bytes(bs[:4]))[0]
            if w0 >> 26 != 0b110100 or (w0 >> 17) & 0x1FF != rows[key]['op'][gen]:
                continue
            seen.add(b)
            vecs['VOP3'].append((VEC_NAME[cpu], b, t, key))
            seen_mods[(key, gen)].update(mods_of(t))
            if not any(g in rows[key]['op'] for g in GENS[2:]):
                seen_mods[key].update(mods_of(t))
    return vecs


# ---------------------------------------------------------------- output
HEADER = {
    'VOP3': """# VOP3A/VOP3B-only vector ALU instructions (not the _e64 forms of VOP1/VOP2/VOPC).
# Generated by tools/probe/valu64.py from LLVM 19 (llvm-mc); do not edit by hand.
# Opcode columns: gfx6/gfx7 are the 9-bit VOP3 opcode (bits 25:17), gfx8+ the 10-bit one (bits 25:16).
# Instructions that are VOP2 on gfx6/gfx7 and VOP3-only on gfx8+ (v_readlane_b32, v_ldexp_f32, v_bcnt_*,
# v_mbcnt_*, v_bfm_b32, v_cvt_pk*_*, ...) have `-` for gfx6/gfx7 here: their gfx6/7 row lives in vop2.tbl.
# On gfx9+ VOP3 opcodes 0x380-0x3FF are the VOP3P encoding (see vop3p.tbl).
# Operand rules: an `sdst` role with no `vdst` role sits in the VDST field (bits 7:0) (v_readlane_b32).
# Flags:
#   +vop3b         VOP3B layout: sdst in bits 14:8 (no abs, no op_sel).
#   +interp        src0 field holds attr[5:0], chan[7:6], high[8] (printed as attrN.C and `high`);
#                  for v_interp_mov_f32 the src1 field holds the parameter p10/p20/p0 (0/1/2).
#   +mods=LIST     modifiers LLVM decodes and prints for this row (abs neg clamp omod op_sel high sext;
#                  `none` = no modifier). LLVM reports words with the bits of any other modifier set as an
#                  invalid encoding (printed as .long by llvm-objdump). Taken from the newest generation
#                  having the row; see tools/probe/NOTES-valu64.md for per-generation differences
#                  (gfx6/gfx7: no clamp on integer ops nor on VOP3B; no op_sel before gfx9; no sext on gfx6/7).
#   +cpus=LIST     the gfx9 column applies only to these gfx9 processors.
""",
    'VOP3P': """# VOP3P instructions, including VOP3P-MAI (MFMA, SMFMAC, v_accvgpr_*).
# Generated by tools/probe/valu64.py from LLVM 19 (llvm-mc); do not edit by hand.
# Opcode columns: the 7-bit opcode (bits 22:16); bits 31:23 = 0x1A7.
# Flags:
#   +mods=LIST     modifiers LLVM decodes and prints for this row (neg_lo neg_hi op_sel op_sel_hi clamp
#                  cbsz abid blgp neg abs; `neg`/`abs` = printed as -src / |src| (v_*_mix_*: neg_lo bits
#                  print as -src, neg_hi bits as |src|)); words with other modifier bits set may be invalid.
#   +mai           VOP3P-MAI layout: cbsz[10:8] abid[14:11] acc_cd[15] (gfx90a+; on gfx908 vdst and src2 are
#                  always AccVGPRs) / word1 acc[28:27] (src0/src1 are AccVGPRs), blgp[31:29] (printed as
#                  neg:[..] for v_mfma_f64_* on gfx940).
#   +accdst        vdst is an AccVGPR (a[N]).
#   +accsrc0       src0 is an AccVGPR register when a register (v_accvgpr_read_b32, v_accvgpr_mov_b32).
#   +cpus=LIST     the gfx9 column applies only to these gfx9 processors.
""",
}


def write_tables(rows, seen_mods):
    lines = {'VOP3': [], 'VOP3P': []}
    def sortkey(kv):
        (enc, mn), r = kv
        for g in reversed(GENS):
            if g in r['op']:
                pass
        first = [r['op'][g] for g in GENS[2:] if g in r['op']]
        return (enc, first[0] if first else 2000 + r['op'].get('gfx7', r['op'].get('gfx6', 0)), mn)
    for (enc, mn), r in sorted(rows.items(), key=sortkey):
        ops, sigs = row_operands(mn, r)
        fl = flags_for(enc, mn, r)
        roles = [o.split(':')[0] for o in ops]
        if enc == 'VOP3':
            if 'sdst' in roles and 'vdst' in roles:
                fl.insert(0, '+vop3b')
            if mn.startswith('v_interp'):
                fl.insert(0, '+interp')
            m = seen_mods.get(((enc, mn), [g for g in GENS if g in r['op']][-1]), set())
            fl.insert(0, '+mods=' + (','.join(x for x in ('abs', 'neg', 'clamp', 'omod', 'op_sel', 'high', 'sext') if x in m) or 'none'))
        else:
            m = seen_mods.get(((enc, mn), [g for g in GENS if g in r['op']][-1]), set())
            fl.insert(0, '+mods=' + (','.join(x for x in ('neg_lo', 'neg_hi', 'op_sel', 'op_sel_hi', 'clamp', 'cbsz', 'abid', 'blgp', 'neg', 'abs') if x in m) or 'none'))
            if mn.startswith(('v_mfma', 'v_smfmac')):
                fl.insert(0, '+mai')
            if mn in ('v_accvgpr_write_b32', 'v_accvgpr_mov_b32'):
                fl.insert(0, '+accdst')
            if mn in ('v_accvgpr_read_b32', 'v_accvgpr_mov_b32'):
                fl.append('+accsrc0')
        cols = [str(r['op'][g]) if g in r['op'] else '-' for g in GENS]
        lines[enc].append('%-5s  %-32s %s  %s%s' % (enc, mn, ' '.join('%4s' % c for c in cols), ' '.join(ops),
                                                   (' ' + ' '.join(fl)) if fl else ''))
    for enc, fn in (('VOP3', 'vop3.tbl'), ('VOP3P', 'vop3p.tbl')):
        with open(os.path.join(ROOT, 'crates/isa/tables', fn), 'w') as f:
            f.write(HEADER[enc])
            f.write('# ENC  MNEMONIC                          gfx6 gfx7 gfx8 gfx9 g908 g90a g940  OPERANDS FLAGS\n')
            f.write('\n'.join(lines[enc]) + '\n')
    return {e: len(l) for e, l in lines.items()}


def main():
    cache = None
    if '--cache' in sys.argv:
        cache = sys.argv[sys.argv.index('--cache') + 1]
    if cache and os.path.exists(cache):
        enum = json.load(open(cache))
    else:
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(8) as ex:
            enum = dict(zip(E.VOP3_CPUS, ex.map(E.probe, E.VOP3_CPUS)))
        if cache:
            json.dump(enum, open(cache, 'w'))
    # gfx6/7 candidates: every v_* mnemonic in LLVM plus the operand shapes seen on gfx8+
    known = collections.defaultdict(list)
    for cpu in E.VOP3_CPUS:
        for op, d in enum[cpu]['VOP3'].items():
            if mine_vop3(cpu, int(op), d) and d['text'] not in known[d['mn']]:
                known[d['mn']].append(d['text'])
    names = set(known)
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'valu64_names.txt')
    names |= {l.strip() for l in open(lib) if l.strip()}
    old = old_probe(known, names)
    rows = build_rows(enum, old)
    v_new, seen_mods, bad, examples = gen_vectors_new(rows, enum)
    v_old = gen_vectors_old(rows, seen_mods)
    counts = write_tables(rows, seen_mods)
    for key, r in sorted(rows.items()):
        per = {g: frozenset(seen_mods.get((key, g), ())) for g in r['op']}
        if len(set(per.values())) > 1:
            log('MODS differ by generation', key[1], {g: sorted(v) for g, v in per.items()})
    # coverage
    have = collections.defaultdict(set)
    allv = {'VOP3': v_old['VOP3'] + v_new['VOP3'], 'VOP3P': v_new['VOP3P']}
    gen_of = {'gfx600': 'gfx6', 'gfx700': 'gfx7', 'gfx803': 'gfx8', 'gfx900': 'gfx9', 'gfx906': 'gfx9',
              'gfx908': 'gfx908', 'gfx90a': 'gfx90a', 'gfx940': 'gfx940'}
    for enc, vs in allv.items():
        for mc, b, t, key in vs:
            have[key].add(gen_of.get(mc, mc))
    for key, r in rows.items():
        miss = set(r['op']) - have[key]
        if miss:
            log('MISSING vectors', key, sorted(miss))
    for enc, fn in (('VOP3', 'vop3.txt'), ('VOP3P', 'vop3p.txt')):
        with open(os.path.join(ROOT, 'tests/vectors', fn), 'w') as f:
            for mc, b, t, key in allv[enc]:
                if mc not in gen_of:
                    continue
                f.write('%s\t%s\t%s\n' % (mc, b, t))
    for c in CRASHES:
        log('CRASH llvm-mc -disassemble', *c)
    log('rows', counts, 'vectors', {k: len(v) for k, v in allv.items()}, 'dropped', dict(bad))
    with open('/tmp/valu64_examples.txt', 'w') as f:
        for e in examples:
            f.write('\t'.join(map(str, e)) + '\n')
    print('\n'.join(REPORT))


if __name__ == '__main__':
    main()
