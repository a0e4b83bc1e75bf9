#!/usr/bin/env python3
"""Records what llvm-mc-19 does with each statement of llvm-rules.in.

llvm-rules.in lists statements that pin down one of llvm-mc's reading rules (one per line:
`MCPU<TAB>STATEMENT`; `#` starts a comment line). For each, this script writes llvm-mc's
result to llvm-rules.tsv: `MCPU<TAB>STATEMENT<TAB>RESULT`, where RESULT is the encoding
(`[0x..,..]`, bytes a fixup fills in later as 0x00) or `error COLUMN: MESSAGE`.
crates/asm/tests/llvm_rules.rs checks the assembler against the file, so the test needs no
LLVM.

Run from the repository root:  python3 crates/asm/tests/data/gen_llvm_rules.py
"""
import os, re, subprocess

MC = '/usr/lib/llvm-19/bin/llvm-mc'
HERE = os.path.dirname(os.path.abspath(__file__))

out = []
for line in open(os.path.join(HERE, 'llvm-rules.in')):
    line = line.rstrip('\n')
    if not line.strip() or line.startswith('#'):
        continue
    cpu, stmt = line.split('\t', 1)
    p = subprocess.run([MC, '-triple=amdgcn-amd-amdhsa', '-mcpu=' + cpu, '-show-encoding'],
                       input=stmt + '\n', capture_output=True, text=True)
    m = re.search(r'<stdin>:1:(\d+): error: (.*)', p.stderr)
    if m:
        result = 'error %s: %s' % (m.group(1), m.group(2))
    else:
        enc = re.search(r'encoding: \[([^\]]*)\]', p.stdout)
        if not enc:
            raise SystemExit('no result for %s: %r %r' % (line, p.stdout, p.stderr))
        result = '[%s]' % ','.join('0x00' if b.strip() == 'A' else b.strip()
                                   for b in enc.group(1).split(','))
    out.append('%s\t%s\t%s' % (cpu, stmt, result))
open(os.path.join(HERE, 'llvm-rules.tsv'), 'w').write('\n'.join(out) + '\n')
print(len(out), 'statements')
