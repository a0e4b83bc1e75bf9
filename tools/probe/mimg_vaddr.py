#!/usr/bin/env python3
"""Adds `+vaddr=LIST` to every row of crates/isa/tables/mimg.tbl: the address tuple sizes
(VGPR counts) llvm-mc-19 accepts for the instruction.

LLVM defines one instruction per address register class, from the address word counts the
operation can need (dimension, a16, offsets, bias, compare, derivatives, lod/clamp), and gives
three-, five-to-seven- and thirteen-to-fifteen-word addresses the next wider tuple as well;
asking llvm-mc is simpler than restating that rule. Each row is probed on every generation it
exists on (gfx6, gfx7, gfx8, gfx9 as gfx900, gfx90a), with sizes 1 to 16, and the lists must
agree.

Run from the repository root after tools/probe/misc_mimg.py:
    python3 tools/probe/mimg_vaddr.py
"""
import re, subprocess

MC = '/usr/lib/llvm-19/bin/llvm-mc'
TABLE = 'crates/isa/tables/mimg.tbl'
CPUS = ['tahiti', 'bonaire', 'fiji', 'gfx900', 'gfx908', 'gfx90a']  # the table's columns GFX6..GFX90A


def statement(name, ops, flags, n):
    vdata = dict(o.split(':') for o in ops).get('vdata', 'b32')
    if '+gather' in flags:
        data, dmask = 'v[0:3]', 1
    elif vdata == 'b64':
        data, dmask = 'v[0:1]', 3
    else:
        data, dmask = 'v0', 1
    addr = 'v10' if n == 1 else 'v[10:%d]' % (10 + n - 1)
    samp = ', s[8:11]' if any(o.startswith('ssamp:') for o in ops) else ''
    return '%s %s, %s, s[0:7]%s dmask:0x%x' % (name, data, addr, samp, dmask)


def accepted(cpu, stmts):
    src = ''.join(s + '\n' for s in stmts)
    p = subprocess.run([MC, '-triple=amdgcn-amd-amdhsa', '-mcpu=' + cpu, '-show-encoding'],
                       input=src, capture_output=True, text=True)
    bad = {int(m.group(1)) for m in re.finditer(r'<stdin>:(\d+):\d+: error', p.stderr)}
    return [i + 1 not in bad for i in range(len(stmts))]


lines = open(TABLE).read().split('\n')
for i, line in enumerate(lines):
    if not line.startswith('MIMG '):
        continue
    toks = [t for t in line.split() if not t.startswith('+vaddr=')]
    name, cols = toks[1], toks[2:9]
    ops = [t for t in toks[9:] if not t.startswith('+')]
    flags = [t for t in toks[9:] if t.startswith('+')]
    sizes = list(range(1, 17))
    stmts = [statement(name, ops, flags, n) for n in sizes]
    found = None
    for cpu, col in zip(CPUS, cols):
        if col == '-':
            continue
        ok = [n for n, a in zip(sizes, accepted(cpu, stmts)) if a]
        if found is not None and ok != found:
            raise SystemExit('%s: %s accepts %s, earlier generations %s' % (name, cpu, ok, found))
        found = ok
    if not found:
        raise SystemExit('%s: no address size accepted' % name)
    lines[i] = re.sub(r'\s+\+vaddr=\S+', '', line) + '  +vaddr=' + ','.join(map(str, found))
open(TABLE, 'w').write('\n'.join(lines))
