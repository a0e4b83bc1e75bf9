#!/usr/bin/env python3
"""Records what llvm-mc-19 does with each statement of an input file.

NAME.in lists statements (one per line: `MCPU<TAB>STATEMENT`; `#` starts a comment line). For
each, this script writes llvm-mc's result to NAME.tsv: `MCPU<TAB>STATEMENT<TAB>RESULT`, where
RESULT is the encoding (`[0x..,..]`, bytes a fixup fills in later as 0x00) or
`error COLUMN: MESSAGE`. crates/asm/tests/llvm_rules.rs checks the assembler against the file,
so the test needs no LLVM.

- llvm-rules (the default): statements that pin down one of llvm-mc's reading rules.
- llvm-docs: every spelling and example of LLVM's AMDGPU syntax documentation, and a statement
  for every instruction its per-target pages list (gen_llvm_docs_in.py writes that part).

Run from the repository root:  python3 crates/asm/tests/data/gen_llvm_rules.py [NAME]
"""
import os, re, subprocess, sys

MC = '/usr/lib/llvm-19/bin/llvm-mc'
HERE = os.path.dirname(os.path.abspath(__file__))
NAME = sys.argv[1] if len(sys.argv) > 1 else 'llvm-rules'


def run(cpu, stmts):
    """llvm-mc's result for each statement, from one run over all of them, or None when that
    run cannot be split back into one result per statement (then each is run alone)."""
    p = subprocess.run([MC, '-triple=amdgcn-amd-amdhsa', '-mcpu=' + cpu, '-show-encoding'],
                       input=''.join(s + '\n' for s in stmts), capture_output=True, text=True)
    errors = {}
    for m in re.finditer(r'^<stdin>:(\d+):(\d+): error: (.*)$', p.stderr, re.M):
        errors.setdefault(int(m.group(1)), 'error %s: %s' % (m.group(2), m.group(3)))
    encodings = re.findall(r'encoding: \[([^\]]*)\]', p.stdout)
    if p.returncode not in (0, 1) or len(encodings) + len(errors) != len(stmts):
        return None
    results, enc = [], iter(encodings)
    for line in range(1, len(stmts) + 1):
        if line in errors:
            results.append(errors[line])
        else:
            results.append('[%s]' % ','.join('0x00' if b.strip() == 'A' else b.strip()
                                             for b in next(enc).split(',')))
    return results


def main():
    statements = []
    for line in open(os.path.join(HERE, NAME + '.in')):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        cpu, stmt = line.split('\t', 1)
        statements.append((cpu, stmt))
    results = {}
    for cpu in sorted({c for c, _ in statements}):
        stmts = [s for c, s in statements if c == cpu]
        got = run(cpu, stmts)
        if got is None:
            got = []
            for s in stmts:
                one = run(cpu, [s])
                if one is None:
                    raise SystemExit('no result for %s %s' % (cpu, s))
                got.append(one[0])
        for s, r in zip(stmts, got):
            results[(cpu, s)] = r
    out = ['%s\t%s\t%s' % (cpu, stmt, results[(cpu, stmt)]) for cpu, stmt in statements]
    open(os.path.join(HERE, NAME + '.tsv'), 'w').write('\n'.join(out) + '\n')
    print(len(out), 'statements')


if __name__ == '__main__':
    main()
