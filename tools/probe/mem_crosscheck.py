#!/usr/bin/env python3
"""Check that the memory-family vectors hold for every processor of their generation column.

gfx8+ lines are disassembled with the sibling processors; gfx6/gfx7 lines are assembled with them
and the encoding compared. Prints mismatch counts (and a few examples) per processor.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from memlib import assemble, disassemble, fmt_bytes  # noqa

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SIBLINGS = {
    "gfx600": ["gfx601", "gfx602"],
    "gfx700": ["gfx701", "gfx702", "gfx703", "gfx704", "gfx705"],
    "gfx803": ["gfx801", "gfx802", "gfx805", "gfx810"],
    "gfx900": ["gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"],
    "gfx940": ["gfx941", "gfx942"],
}


def main():
    fams = sys.argv[1:] or ["ds", "mubuf", "mtbuf", "flat"]
    for fam in fams:
        lines = [l.rstrip("\n").split("\t") for l in open(os.path.join(ROOT, "tests", "vectors", fam + ".txt"))]
        for base, sibs in SIBLINGS.items():
            mine = [(bytes_, text) for cpu, bytes_, text in lines if cpu == base]
            if not mine:
                continue
            for sib in sibs:
                bad = []
                if base in ("gfx600", "gfx700"):
                    res = assemble(sib, [t for _, t in mine])
                    for (b, t), r in zip(mine, res):
                        if r[0] == "ERR" or fmt_bytes(r[1]) != b or r[0] != t:
                            bad.append((b, t, r))
                else:
                    res = disassemble(sib, [[int(x, 16) for x in b.split(",")] for b, _ in mine])
                    for (b, t), r in zip(mine, res):
                        if r is None or r[0] != t:
                            bad.append((b, t, r))
                print("%-6s %-7s vs %-7s: %d/%d differ" % (fam, base, sib, len(bad), len(mine)))
                for x in bad[:3]:
                    print("      ", x)


if __name__ == "__main__":
    main()
