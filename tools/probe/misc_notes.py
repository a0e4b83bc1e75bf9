#!/usr/bin/env python3
"""Entry point for the MIMG / EXP / VINTRP probes: regenerates
  crates/isa/tables/{mimg,exp,vintrp}.tbl, tests/vectors/{mimg,exp,vintrp}.txt and
  tools/probe/NOTES-misc.md (prose below + generated counts and decode-only samples).
Usage: python3 tools/probe/misc_notes.py"""
import os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import misc_mimg, misc_exp, misc_vintrp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))



def samples(items, per=3):
    """items: (cpu, bytes, text, why).  Up to `per` examples per distinct reason."""
    seen = {}
    out = []
    for cpu, b, t, why in items:
        key = re.sub(r"0x[0-9a-f,x]+", "<bytes>", why)
        mn = t.split()[0]
        cls = ("atomic" if "atomic" in mn else "gather" if "gather" in mn else "sample" if "sample" in mn
               or "get_lod" in mn else mn if not mn.startswith("image") else "load/store")
        key = (key, re.sub(r"\d+", "N", cls), cpu[:5])
        if seen.get(key, 0) >= per:
            continue
        seen[key] = seen.get(key, 0) + 1
        out.append("%s\t%s\t%s\t# %s" % (cpu, b, t, why))
    return out


def count(path):
    per = {}
    for l in open(path):
        c = l.split("\t")[0]
        per[c] = per.get(c, 0) + 1
    return per


def main():
    rows, nv, stats = misc_mimg.run()
    exp_do = misc_exp.main()
    vin_do = misc_vintrp.main()
    mimg_do = stats["roundtrip_bad"]
    gen = ["", "## Generated summary (misc_notes.py)", ""]
    for fam in ("mimg", "exp", "vintrp"):
        p = os.path.join(ROOT, "tests/vectors/%s.txt" % fam)
        gen.append("- `%s.txt`: %d vectors, %s; size %d bytes" % (
            fam, sum(count(p).values()), ", ".join("%s %d" % kv for kv in sorted(count(p).items())),
            os.path.getsize(p)))
    gen.append("- mimg.tbl rows: %d; decode-only cases found: mimg %d, exp %d, vintrp %d"
               % (len(rows), len(mimg_do), len(exp_do), len(vin_do)))
    gen += ["", "## Decode-only samples", "",
            "Words LLVM 19 disassembles but whose printed text does NOT assemble back to the same bytes",
            "(the assembler error or the different re-encoding follows `#`).  They are kept out of",
            "tests/vectors/*.txt (which hold only round-trip-clean cases) and are decoder-only test material;",
            "format `MCPU<TAB>BYTES<TAB>TEXT<TAB># why`.  Regenerate the full list by calling main() of",
            "misc_exp.py / misc_vintrp.py or misc_mimg.run().", "", "```"]
    for fam, items in (("MIMG", mimg_do), ("EXP", exp_do), ("VINTRP", vin_do)):
        gen.append("# " + fam)
        gen += samples(items, 1 if fam == "MIMG" else 2)
    gen.append("```")
    notes = os.path.join(HERE, "NOTES-misc.md")
    text = open(notes).read() if os.path.exists(notes) else ""
    marker = "\n<!-- generated below this line by misc_notes.py -->\n"
    text = text.split(marker)[0] if marker in text else text
    open(notes, "w").write(text.rstrip("\n") + "\n" + marker + "\n".join(gen) + "\n")


if __name__ == "__main__":
    main()
