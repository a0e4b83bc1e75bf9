#!/usr/bin/env python3
"""seedcheck: mechanically check the instruction-set seed documents against LLVM 19.

Usage:  python3 tools/seedcheck/seedcheck.py [--seeds DIR] [--out FILE] [--llvm-mc PATH] [-v]

What it does
  * parses every opcode table in the seeds (per generation for DS / FLAT / SMEM,
    every CDNA3 table of the microcode-formats chapter), the per-instruction
    "#### NAME / Opcode: / Syntax:" blocks, and every field-layout table;
  * builds LLVM's own opcode->mnemonic table for each encoding on each target by
    disassembling every opcode value (gfx803, gfx900, gfx940); LLVM 19 cannot
    disassemble gfx6/gfx7, so there the seed mnemonic is assembled instead and
    the opcode read back out of the encoding bytes;
  * when a seed mnemonic differs from LLVM's mnemonic at that opcode, the seed
    mnemonic is assembled with operand lists harvested from LLVM's own
    disassembly of the same encoding (so aliases are recognised and the real
    opcode of a misplaced mnemonic is found);
  * checks field layouts by assembling probe statements with distinct operand
    values and reading each seed-declared bit range back;
  * checks each per-instruction Syntax line: heading vs syntax mnemonic, and the
    register-operand shape (kind + width, in order) vs LLVM's disassembly;
  * prints a summary and writes findings.tsv next to this script (or --out).

No network. Needs only python3 (3.11) and llvm-mc from LLVM 19.
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

LLVM_MC = "/usr/lib/llvm-19/bin/llvm-mc"
TRIPLE = "amdgcn-amd-amdhsa"
GEN_CPU = {"GCN1.0": "tahiti", "GCN1.1": "bonaire", "GCN1.2": "gfx803",
           "GCN1.4": "gfx900", "CDNA3": "gfx940"}
DISASM_GENS = ("GCN1.2", "GCN1.4", "CDNA3")   # LLVM 19 cannot disassemble gfx6/7
VERBOSE = False


def log(*a):
    if VERBOSE:
        print(*a, file=sys.stderr)


# ----------------------------------------------------------------------------
# llvm-mc helpers
# ----------------------------------------------------------------------------
ENC_RE = re.compile(r"encoding: \[([^\]]*)\]")
ERR_RE = re.compile(r"^<stdin>:(\d+):\d+: (error|warning): (.*)$")


def _run(args, text):
    p = subprocess.run([LLVM_MC, "-triple=" + TRIPLE] + args, input=text,
                       capture_output=True, text=True)
    return p.stdout, p.stderr


def assemble_batch(cpu, stmts):
    """Assemble statements (one per line). Returns list of (bytes|None, errmsg|None)."""
    res = [None] * len(stmts)
    if not stmts:
        return res
    out, err = _run(["-mcpu=" + cpu, "-show-encoding"], "\n".join(stmts) + "\n")
    errs = {}
    for ln in err.splitlines():
        m = ERR_RE.match(ln)
        if m and m.group(2) == "error":
            errs.setdefault(int(m.group(1)) - 1, m.group(3))
    encs = []
    for ln in out.splitlines():
        m = ENC_RE.search(ln)
        if m:
            encs.append((ln.split(";")[0].strip(), [int(x, 16) for x in m.group(1).split(",")]))
    it = iter(encs)
    for i in range(len(stmts)):
        if i in errs:
            res[i] = (None, errs[i])
        else:
            try:
                txt, b = next(it)
                res[i] = (b, txt)
            except StopIteration:
                res[i] = (None, "no output")
    return res


def disassemble_words(cpu, lines):
    """lines: list of byte lists. Returns list of (text, bytes) for every decoded instr."""
    text = "\n".join(",".join("0x%02x" % b for b in bl) for bl in lines) + "\n"
    out, _ = _run(["-mcpu=" + cpu, "-disassemble", "-show-encoding"], text)
    res = []
    for ln in out.splitlines():
        m = ENC_RE.search(ln)
        if m:
            res.append((ln.split(";")[0].strip(), [int(x, 16) for x in m.group(1).split(",")]))
    return res


def le32(w):
    return [w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, (w >> 24) & 0xff]


def word(b, i=0):
    return b[4 * i] | (b[4 * i + 1] << 8) | (b[4 * i + 2] << 16) | (b[4 * i + 3] << 24)


def bits_of(b, hi, lo):
    v = 0
    for i, x in enumerate(b):
        v |= x << (8 * i)
    return (v >> lo) & ((1 << (hi - lo + 1)) - 1)


# ----------------------------------------------------------------------------
# Ground-truth encodings (as LLVM encodes them; validated by the layout probes)
# format -> (match(word0) -> opcode|None, generator(op) -> list of byte-lists)
# ----------------------------------------------------------------------------
def f_sop2(w):
    if w >> 30 == 2 and (w >> 28) != 0xb:
        return (w >> 23) & 0x7f
def f_sopk(w):
    if w >> 28 == 0xb and ((w >> 23) & 0x1f) < 29:
        return (w >> 23) & 0x1f
def f_sop1(w):
    if w >> 23 == 0x17d:
        return (w >> 8) & 0xff
def f_sopc(w):
    if w >> 23 == 0x17e:
        return (w >> 16) & 0x7f
def f_sopp(w):
    if w >> 23 == 0x17f:
        return (w >> 16) & 0x7f
def f_smem(w):
    if w >> 26 == 0x30:
        return (w >> 18) & 0xff
def f_vop2(w):
    if w >> 31 == 0 and ((w >> 25) & 0x3f) < 62:
        return (w >> 25) & 0x3f
def f_vop1(w):
    if w >> 25 == 0x3f:
        return (w >> 9) & 0xff
def f_vopc(w):
    if w >> 25 == 0x3e:
        return (w >> 17) & 0xff
def f_vop3(w):
    if w >> 26 == 0x34 and ((w >> 16) & 0x3ff) < 0x380:
        return (w >> 16) & 0x3ff
def f_vop3p(w):
    if w >> 23 == 0x1a7:
        return (w >> 16) & 0x7f
def f_ds_si(w):
    if w >> 26 == 0x36:
        return (w >> 18) & 0xff
def f_ds_vi(w):
    if w >> 26 == 0x36:
        return (w >> 17) & 0xff
def f_mubuf(w):
    if w >> 26 == 0x38:
        return (w >> 18) & 0x7f
def f_mtbuf(w):
    if w >> 26 == 0x3a:
        return (w >> 15) & 0xf
def f_flat(seg):
    def f(w):
        if w >> 26 == 0x37 and ((w >> 14) & 3) == seg:
            return (w >> 18) & 0x7f
    return f


def g_words(base, shift, ops, d1s=(None,), extra=()):
    """one line per (op, dword1 variant)."""
    lines = []
    for op in ops:
        for d1 in d1s:
            for ex in (extra or (0,)):
                w0 = base | (op << shift) | ex
                bl = le32(w0)
                if d1 is not None:
                    bl += le32(d1)
                lines.append(bl)
    return lines


def gen_lines(fmt, target):
    V0 = 0x100
    if fmt == "SOP2":
        return g_words(0x80000000, 23, range(0x60), extra=(0, 0x8080))
    if fmt == "SOPK":
        return g_words(0xB0000000, 23, range(29), extra=(0, 0x10000))
    if fmt == "SOP1":
        return g_words(0xBE800000, 8, range(256), extra=(0, 0x80, 0x6a))
    if fmt == "SOPC":
        return g_words(0xBF000000, 16, range(128), extra=(0, 0x8080))
    if fmt == "SOPP":
        return g_words(0xBF800000, 16, range(128))
    if fmt == "SMEM":
        return g_words(0xC0000000, 18, range(256), d1s=(0,), extra=(1 << 17, 0, 0x80 | (1 << 17)))
    if fmt == "VOP2":
        out = []
        for op in range(62):
            for src in (V0, 0, 0x80):
                w = (op << 25) | src
                out.append(le32(w) + le32(w))   # second word: literal or same instr again
        return out
    if fmt == "VOP1":
        return g_words(0x7E000000, 9, range(256), extra=(V0, 0, 0x80))
    if fmt == "VOPC":
        return g_words(0x7C000000, 17, range(256), extra=(V0, 0, 0x80))
    if fmt == "VOP3":
        d1s = (V0 | (V0 << 9) | (V0 << 18), 0 | (V0 << 9) | (V0 << 18), V0 | (0 << 9) | (V0 << 18),
               V0 | (V0 << 9), V0, V0 | (0 << 9), 0 | (V0 << 9), 0, 0x80 | (0x80 << 9) | (0x80 << 18))
        return g_words(0xD0000000, 16, range(0x380), d1s=d1s)
    if fmt == "VOP3P":
        d1s = (V0 | (V0 << 9) | (V0 << 18), V0 | (V0 << 9), V0, 0x18000000 | V0 | (V0 << 9) | (V0 << 18),
               0x18000000 | V0 | (V0 << 9), 0x18000000 | V0, 0x80 | (0x80 << 9) | (0x80 << 18))
        return g_words(0xD3800000, 16, range(128), d1s=d1s, extra=(0, 0x4000, 0x8000))
    if fmt == "DS":
        shift = 18 if target in ("GCN1.0", "GCN1.1") else 17
        gdsbit = 1 << (17 if shift == 18 else 16)
        return g_words(0xD8000000, shift, range(256), d1s=(0,), extra=(0, gdsbit))
    if fmt == "MUBUF":
        return g_words(0xE0000000, 18, range(128), d1s=(0x80000000, 0x80000000 | 0), extra=(0, 1 << 16, 1 << 12))
    if fmt == "MTBUF":
        return g_words(0xE8000000 | (4 << 19), 15, range(16), d1s=(0x80000000,))
    if fmt in ("FLAT", "SCRATCH", "GLOBAL"):
        seg = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}[fmt]
        return g_words(0xDC000000 | (seg << 14), 18, range(128),
                       d1s=(0x7f << 16, 0), extra=(0, 1 << 13))
    raise KeyError(fmt)


FMT_MATCH = {"SOP2": f_sop2, "SOPK": f_sopk, "SOP1": f_sop1, "SOPC": f_sopc, "SOPP": f_sopp,
             "SMEM": f_smem, "VOP2": f_vop2, "VOP1": f_vop1, "VOPC": f_vopc, "VOP3": f_vop3,
             "VOP3P": f_vop3p, "MUBUF": f_mubuf, "MTBUF": f_mtbuf,
             "FLAT": f_flat(0), "SCRATCH": f_flat(1), "GLOBAL": f_flat(2)}


def matcher(fmt, gen):
    if fmt == "DS":
        return f_ds_si if gen in ("GCN1.0", "GCN1.1") else f_ds_vi
    if fmt in ("FLAT", "SCRATCH", "GLOBAL") and gen in ("GCN1.1", "GCN1.2"):
        return lambda w: (w >> 18) & 0x7f if w >> 26 == 0x37 else None
    return FMT_MATCH[fmt]


def norm_llvm_mnem(text):
    m = text.split()[0].lower()
    for suf in ("_e32", "_e64", "_sdwa", "_dpp"):
        if m.endswith(suf):
            m = m[: -len(suf)]
    return m


def norm_seed_name(n):
    n = re.sub(r"\(.*?\)", "", n).strip()
    n = n.replace("\\", "")
    n = re.sub(r"\s+", "_", n)
    return n.lower()


class LLVMTable:
    """opcode -> mnemonic (plus operand templates) for one (format, generation)."""

    def __init__(self, fmt, gen):
        self.fmt, self.gen = fmt, gen
        self.by_op = {}
        self.templates = collections.OrderedDict()   # operand string -> example
        self.example = {}
        if gen in DISASM_GENS:
            self._disasm()

    def _disasm(self):
        cpu = GEN_CPU[self.gen]
        m = matcher(self.fmt, self.gen)
        for text, b in disassemble_words(cpu, gen_lines(self.fmt, self.gen)):
            op = m(word(b))
            if op is None:
                continue
            mn = norm_llvm_mnem(text)
            if self.fmt in ("FLAT", "SCRATCH", "GLOBAL") and not mn.startswith(self.fmt.lower() + "_"):
                continue
            self.by_op.setdefault(op, mn)
            if self.by_op[op] == mn:
                self.example.setdefault(op, text)
            ops = text.split(None, 1)[1] if len(text.split(None, 1)) > 1 else ""
            self.templates.setdefault(ops, text)
        self.by_name = {}
        for op, mn in self.by_op.items():
            self.by_name.setdefault(mn, op)


# ----------------------------------------------------------------------------
# Seed parsing
# ----------------------------------------------------------------------------
Entry = collections.namedtuple("Entry", "file line gen fmt op name raw kind")
Finding = collections.namedtuple("Finding", "category file line gen fmt mnemonic seed_value llvm_value evidence")

CHECK = "\u2713"


def parse_md_tables(path, fname):
    """DS (000/003), FLAT (001), SMEM (002) opcode tables."""
    entries = []
    lines = open(path, encoding="utf-8").read().split("\n")
    hdr = None
    for i, ln in enumerate(lines, 1):
        s = ln.strip()
        if re.search(r"Opcode\s*\|", s):
            cols = [c.strip() for c in s.strip("|").split("|")]
            hdr = cols
            continue
        if hdr is None:
            continue
        m = re.match(r"^(\d+)\s*\((0x[0-9a-fA-F]+)\)\s*\|(.*)$", s)
        if not m:
            if s and not s.startswith("---") and not re.match(r"^-+\|", s):
                hdr = None
            continue
        dec, hx, rest = int(m.group(1)), int(m.group(2), 16), m.group(3)
        cells = [c.strip() for c in rest.strip().rstrip("|").split("|")]
        if dec != hx:
            entries.append(Entry(fname, i, None, None, dec, s, s, "hexdec"))
        gens_hdr = hdr[1:]
        if "FLAT" in gens_hdr:       # GCN 1.4 FLAT/GLOBAL/SCRATCH table
            name = cells[-1]
            for j, seg in enumerate(("FLAT", "GLOBAL", "SCRATCH")):
                if j < len(cells) - 1 and CHECK in cells[j]:
                    entries.append(Entry(fname, i, "GCN1.4", seg, dec, name.replace("\\*", seg).replace("*", seg), s, "table"))
            continue
        if any("Mnemonic (GCN1.1)" in h for h in gens_hdr):     # FLAT 1.1/1.2 table
            for j, g in enumerate(("GCN1.1", "GCN1.2")):
                if j < len(cells) and cells[j] not in ("--", ""):
                    entries.append(Entry(fname, i, g, "FLAT", dec, cells[j], s, "table"))
            continue
        gcols = [h.replace(" ", "") for h in gens_hdr[:2]]
        fmt = "SMEM" if fname.startswith("002") else "DS"
        if len(cells) >= 3 and cells[2]:
            name = cells[2]
            for j, g in enumerate(gcols):
                if CHECK in cells[j]:
                    entries.append(Entry(fname, i, g, fmt, dec, name, s, "table"))
        else:
            # 003 rendering collapsed an empty cell: "20 (0x14) | ✓ | DS_NOP | |"
            name = next(c for c in cells if c and c != CHECK)
            entries.append(Entry(fname, i, "/".join(gcols), fmt, dec, name, s, "table-ambiguous"))
    return entries


GENS_OF_FILE = {"000": ["GCN1.0", "GCN1.1", "GCN1.2", "GCN1.4"], "003": ["GCN1.0", "GCN1.1", "GCN1.2", "GCN1.4"],
                "001": ["GCN1.1", "GCN1.2", "GCN1.4"], "002": ["GCN1.2", "GCN1.4"]}


def parse_gens(txt, allg):
    txt = txt.replace(" ", "")
    m = re.search(r"GCN(1\.\d(?:/1\.\d)*)", txt)
    if not m:
        return list(allg)
    return ["GCN" + g for g in m.group(1).split("/")]


def parse_details(path, fname):
    """per-instruction blocks: heading, Opcode:, Syntax: lines."""
    lines = open(path, encoding="utf-8").read().split("\n")
    allg = GENS_OF_FILE[fname[:3]]
    fmt = {"000": "DS", "003": "DS", "001": "FLAT", "002": "SMEM"}[fname[:3]]
    entries, blocks = [], []
    in_set = False
    cur = None
    for i, ln in enumerate(lines, 1):
        s = ln.strip()
        if "Alphabetically sorted instruction list" in s:
            in_set = True
            continue
        if not in_set:
            continue
        hm = re.match(r"^(?:####\s*)?([A-Z][A-Z0-9_]+)$", s)
        if hm and i < len(lines) and lines[i].strip().startswith("Opcode") or (s.startswith("####") and hm):
            cur = {"name": hm.group(1), "line": i, "ops": [], "syntax": []}
            blocks.append(cur)
            continue
        if cur is None:
            continue
        if s.startswith("Opcode:"):
            body = s[len("Opcode:"):]
            for part in body.split(";"):
                mm = re.match(r"\s*(\d+)\s*\((0x[0-9a-fA-F]+)\)\s*(.*)$", part)
                if not mm:
                    continue
                dec, hx = int(mm.group(1)), int(mm.group(2), 16)
                gens = parse_gens(mm.group(3), allg)
                if dec != hx:
                    entries.append(Entry(fname, i, None, fmt, dec, cur["name"], s, "hexdec"))
                for g in gens:
                    f = fmt
                    if fmt == "FLAT" and g == "GCN1.4":
                        for seg in ("FLAT", "GLOBAL", "SCRATCH"):
                            if cur["name"].startswith(seg + "_"):
                                f = seg
                    entries.append(Entry(fname, i, g, f, dec, cur["name"], s, "detail"))
                cur["ops"].append((i, dec, gens))
        elif s.startswith("Syntax") and ":" in s:
            cur["syntax"].append((i, s.split(":", 1)[1].strip()))
    return entries, blocks


def parse_cdna3(path, fname):
    """004: tab separated two-column opcode tables + field tables."""
    lines = open(path, encoding="utf-8").read().split("\n")
    entries, fields = [], collections.defaultdict(list)
    tbl = None
    ftbl = None
    for i, ln in enumerate(lines, 1):
        s = ln.rstrip()
        m = re.match(r"^Table \d+\. (\S+) Opcodes", s)
        if m:
            tbl = m.group(1)
            ftbl = None
            continue
        m = re.match(r"^Table \d+\. (\S+) Fields", s)
        if m:
            ftbl = m.group(1)
            tbl = None
            continue
        if re.match(r"^13\.\d", s) or s.startswith("Table "):
            tbl = None
            ftbl = None if not s.startswith("Table ") else ftbl
            if s.startswith("Table "):
                ftbl = None
            continue
        if tbl:
            cells = s.split("\t")
            for j in range(0, len(cells) - 1, 2):
                if re.match(r"^\d+$", cells[j].strip()) and cells[j + 1].strip():
                    name = cells[j + 1].strip()
                    fmt = {"VOP3A": "VOP3", "VOP3B": "VOP3"}.get(tbl, tbl)
                    entries.append(Entry(fname, i, "CDNA3", fmt, int(cells[j]), name, s, "table"))
        if ftbl:
            cells = s.split("\t")
            if len(cells) >= 2 and re.match(r"^[A-Z][A-Z0-9_]*$", cells[0]):
                bm = re.match(r"^\[?(\d+)(?::(\d+))?\]?", cells[1].strip())
                if bm:
                    hi = int(bm.group(1))
                    lo = int(bm.group(2)) if bm.group(2) else hi
                    desc = cells[2] if len(cells) > 2 else ""
                    mv = re.search(r"Must be:\s*([01_]+)", desc)
                    fields[ftbl].append({"name": cells[0], "hi": hi, "lo": lo, "line": i,
                                         "must": mv.group(1) if mv else None, "raw": s[:100]})
    return entries, fields


def parse_md_fields(path, fname):
    """markdown 'Bits | Name | Description' tables (000/001/002/003)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    tables = []
    cur = None
    title = None
    for i, ln in enumerate(lines, 1):
        s = ln.strip()
        if s.startswith("List of fields"):
            title = s
        if re.match(r"^Bits\s*\|\s*Name", s):
            cur = {"title": title, "rows": [], "line": i}
            tables.append(cur)
            continue
        if cur is not None:
            m = re.match(r"^(\d+)(?:-(\d+))?\s*\|\s*([A-Z0-9_]+)\s*\|\s*(.*?)\|?$", s)
            if m:
                lo = int(m.group(1))
                hi = int(m.group(2)) if m.group(2) else lo
                desc = m.group(4)
                mv = re.search(r"Must be\s*0b([01]+)", desc)
                cur["rows"].append({"name": m.group(3), "lo": lo, "hi": hi, "line": i, "desc": desc,
                                    "must": mv.group(1) if mv else None, "raw": s})
            elif s.startswith("---") or s.startswith("|"):
                continue
            else:
                cur = None
    return tables


# ----------------------------------------------------------------------------
# Checking opcode entries
# ----------------------------------------------------------------------------
SEED_SYNTAX_TEMPLATES = {}   # (fmt) -> list of operand strings derived from seed syntax lines

EXTRA_TEMPLATES = {
    "DS": ["v1, v2", "v1, v[2:3]", "v1, v2, v3", "v1, v[2:3], v[4:5]", "v1, v2 offset:4", "v1",
           "v1 gds", "v1 offset:4 gds", "v[2:3], v1", "v1, v2, v3 offset0:1 offset1:2",
           "v[2:3], v1, v[4:5]", "v[2:3], v1, v[4:5], v[6:7]", "v1, v2, v3, v4", "v[2:4], v1",
           "v[4:7], v1", "v1, v[2:4]", "v1, v[4:7]", "v[2:3], v1 offset0:1 offset1:2",
           "v[4:7], v1, v[2:3], v[2:3], v[2:3], v[2:3]", "v[4:7], v1, v[2:3], v[4:5]",
           "v[2:3], v1, v[2:3], v[4:5]"],
    "FLAT": ["v1, v[2:3]", "v[2:3], v1", "v[2:3], v[4:5]", "v1, v[2:3], v4 glc", "v[4:5], v[2:3], v[6:7] glc",
             "v[4:6], v[2:3]", "v[4:7], v[2:3]", "v[2:3], v[4:6]", "v[2:3], v[4:7]", "v[2:3], v1, v2 glc",
             "v[2:3], v[4:5], v[6:7] glc", "v1, v[2:3], v[4:5] glc", "v[2:3], v[4:7] glc",
             "v[2:3], v[2:3], v[4:7] glc"],
}


def candidate_stmts(name, fmt, tables):
    ops = []
    seen = set()
    for t in tables:
        for o in t.templates:
            if o not in seen:
                seen.add(o)
                ops.append(o)
    key = "FLAT" if fmt in ("FLAT", "GLOBAL", "SCRATCH") else fmt
    for o in EXTRA_TEMPLATES.get(key, []) + SEED_SYNTAX_TEMPLATES.get(key, []):
        if o not in seen:
            seen.add(o)
            ops.append(o)
    names = [name]
    if fmt == "VOP3":
        names = [name + "_e64", name]
    return [(n + " " + o).strip() for n in names for o in ops] + [name]


class Oracle:
    def __init__(self):
        self.tables = {}
        self.asm_cache = {}

    def table(self, fmt, gen):
        k = (fmt, gen)
        if k not in self.tables:
            self.tables[k] = LLVMTable(fmt, gen)
        return self.tables[k]

    def template_tables(self, fmt, gen):
        ts = [self.table(fmt, gen)] if gen in DISASM_GENS else []
        # borrow operand templates from the nearest disassemblable generation
        for g in ("GCN1.2", "GCN1.4", "CDNA3"):
            if g != gen:
                ts.append(self.table(fmt if fmt != "SCRATCH" or g != "GCN1.2" else "FLAT", g))
        return ts

    def assemble_name(self, names, fmt, gen):
        """For each mnemonic: (opcode|None, statement|None, encoding|None, error message)."""
        cpu = GEN_CPU[gen]
        todo = [n for n in names if (n, fmt, gen) not in self.asm_cache]
        if todo:
            stmts, owner = [], []
            for n in todo:
                for st in candidate_stmts(n, fmt, self.template_tables(fmt, gen)):
                    stmts.append(st)
                    owner.append(n)
            res = assemble_batch(cpu, stmts)
            m = matcher(fmt, gen)
            best, other, bare = {}, {}, {}
            for n, st, (enc, msg) in zip(owner, stmts, res):
                if enc is not None:
                    op = m(word(enc))
                    if op is not None:
                        best.setdefault(n, (op, st, enc, None))
                    else:
                        other.setdefault(n, "only assembles to a different encoding: '%s' -> %s" % (st, enc_str(enc)))
                elif st == n:
                    bare[n] = msg
            for n in todo:
                if n not in best:
                    best[n] = (None, None, None, other.get(n) or bare.get(n) or "?")
            for n in todo:
                self.asm_cache[(n, fmt, gen)] = best.get(n, (None, None, None, "?"))
        return {n: self.asm_cache[(n, fmt, gen)] for n in names}


def enc_str(b):
    return "[" + ",".join("0x%02x" % x for x in b) + "]"


def check_entries(entries, oracle, findings, stats):
    # group by (fmt, gen)
    groups = collections.defaultdict(list)
    for e in entries:
        if e.name and re.search(r"[A-Z0-9] +[A-Z0-9]", e.name.strip()) and "(" not in e.name:
            stats["mnemonic spelled with a space"] += 1
            findings.append(Finding("mnemonic spelled with a space", e.file, e.line, e.gen or "", e.fmt or "", e.name,
                                    e.name, norm_seed_name(e.name).upper(),
                                    "checked as %s (space read as underscore)" % norm_seed_name(e.name)))
        if e.kind == "hexdec":
            findings.append(Finding("hex-decimal mismatch", e.file, e.line, e.gen or "", e.fmt or "", e.name,
                                    e.raw, "", "decimal and hex opcode disagree"))
            continue
        if e.kind == "table-ambiguous":
            g1, g2 = e.gen.split("/")
            groups[(e.fmt, g1)].append(e._replace(gen=g1))
            groups[(e.fmt, g2)].append(e._replace(gen=g2))
            continue
        groups[(e.fmt, e.gen)].append(e)
    results = {}
    for (fmt, gen), es in sorted(groups.items()):
        tbl = oracle.table(fmt, gen) if gen in DISASM_GENS else None
        need = set()
        for e in es:
            n = norm_seed_name(e.name)
            if tbl is None or tbl.by_op.get(e.op) != n:
                need.add(n)
        asm = oracle.assemble_name(sorted(need), fmt, gen) if need else {}
        for e in es:
            n = norm_seed_name(e.name)
            llvm_at = tbl.by_op.get(e.op) if tbl else None
            key = (e.file, e.line, e.gen, e.fmt, n)
            if tbl is not None and llvm_at == n:
                results[key] = ("agree", e, llvm_at, None)
                continue
            op, st, enc, msg = asm.get(n, (None, None, None, None))
            if op is not None and op == e.op:
                results[key] = ("agree", e, llvm_at, (st, enc))
            elif op is not None:
                results[key] = ("opcode differs", e, llvm_at, (st, enc, op))
            else:
                results[key] = ("mnemonic unknown to LLVM on this target", e, llvm_at, msg)
    # collapse ambiguous (003 rendering) entries: agree if either generation agrees
    amb = collections.defaultdict(list)
    for key, r in results.items():
        e = r[1]
        if e.kind == "table-ambiguous":
            amb[(e.file, e.line)].append(r)
            continue
        record(r, findings, stats)
    for (f, l), rs in amb.items():
        ok = [r for r in rs if r[0] == "agree"]
        if ok:
            stats["agree"] += 1
            findings.append(Finding("note: gen column lost in rendering", f, l, "/".join(r[1].gen for r in ok),
                                    ok[0][1].fmt, ok[0][1].name, ok[0][1].raw, "",
                                    "valid on %s only per LLVM" % ",".join(r[1].gen for r in ok)))
        else:
            for r in rs:
                record(r, findings, stats)


def record(r, findings, stats):
    cat, e, llvm_at, info = r
    stats["checked"] += 1
    if cat == "agree":
        stats["agree"] += 1
        if info and e.kind != "detail" and e.gen in DISASM_GENS:
            stats["agree (LLVM alias)"] += 1
        return
    stats[cat] += 1
    cpu = GEN_CPU[e.gen]
    if cat == "opcode differs":
        st, enc, op = info
        ev = "llvm-mc -mcpu=%s: '%s' -> %s (opcode %d = 0x%x)" % (cpu, st, enc_str(enc), op, op)
        if llvm_at:
            ev += "; LLVM opcode %d is %s" % (e.op, llvm_at)
        findings.append(Finding(cat, e.file, e.line, e.gen, e.fmt, e.name, str(e.op), str(op), ev))
    else:
        ev = "llvm-mc -mcpu=%s rejects '%s': %s" % (cpu, norm_seed_name(e.name), info)
        if llvm_at:
            ev += "; LLVM disassembles opcode %d as %s" % (e.op, llvm_at)
        elif e.gen in DISASM_GENS:
            ev += "; LLVM decodes nothing at opcode %d" % e.op
        findings.append(Finding(cat, e.file, e.line, e.gen, e.fmt, e.name, str(e.op), llvm_at or "", ev))


def check_missing(table_entries, oracle, findings, stats, extra_names):
    """instructions LLVM has on a target that a seed opcode table lacks."""
    by = collections.defaultdict(list)
    for e in table_entries:
        if e.kind == "table":
            by[(e.file, e.fmt, e.gen)].append(e)
        elif e.kind == "table-ambiguous":
            for g in e.gen.split("/"):
                by[(e.file, e.fmt, g)].append(e._replace(gen=g))
    for (f, fmt, gen), es in sorted(by.items()):
        seed_ops = {e.op for e in es}
        seed_names = {norm_seed_name(e.name) for e in es}
        first = min(e.line for e in es)
        if gen in DISASM_GENS:
            t = oracle.table(fmt, gen)
            for op, mn in sorted(t.by_op.items()):
                if op not in seed_ops and mn not in seed_names:
                    stats["instruction LLVM has but seed table lacks"] += 1
                    findings.append(Finding("instruction LLVM has but seed table lacks", f, first, gen, fmt, mn.upper(),
                                            "", str(op), "llvm-mc -mcpu=%s -disassemble: %s -> %s" % (
                                                GEN_CPU[gen], enc_str(bytes_for(t, op)), t.example.get(op, mn))))
        else:
            cands = sorted(n for n in extra_names.get(fmt, set()) if n not in seed_names)
            res = oracle.assemble_name(cands, fmt, gen)
            for n in cands:
                op, st, enc, msg = res[n]
                if op is not None and op not in seed_ops:
                    stats["instruction LLVM has but seed table lacks"] += 1
                    findings.append(Finding("instruction LLVM has but seed table lacks", f, first, gen, fmt, n.upper(),
                                            "", str(op), "llvm-mc -mcpu=%s: '%s' -> %s" % (GEN_CPU[gen], st, enc_str(enc))))


def bytes_for(t, op):
    for ln in gen_lines(t.fmt, t.gen):
        if matcher(t.fmt, t.gen)(word(ln)) == op:
            out = disassemble_words(GEN_CPU[t.gen], [ln])
            if out and norm_llvm_mnem(out[0][0]) == t.by_op[op]:
                return ln
    return []


def compare_copies(entries, findings, stats):
    """000 and 003 are two renderings of the same page: report every (gen, opcode, name) difference."""
    def key(e):
        return (e.kind.replace("-ambiguous", ""), e.op, norm_seed_name(e.name))
    a = [e for e in entries if e.file.startswith("000") and e.kind in ("table", "detail")]
    b = [e for e in entries if e.file.startswith("003") and e.kind in ("table", "detail", "table-ambiguous")]
    ka = {(e.kind, e.op, norm_seed_name(e.name)): e for e in a}
    kb = {key(e): e for e in b}
    for k, e in sorted(ka.items(), key=lambda x: x[1].line):
        if k not in kb:
            stats["000/003 copies differ"] += 1
            findings.append(Finding("000/003 copies differ", e.file, e.line, e.gen, e.fmt, e.name, e.raw, "",
                                    "entry (opcode %d, %s) has no counterpart in 003" % (e.op, e.name)))
    for k, e in sorted(kb.items(), key=lambda x: x[1].line):
        if k not in ka:
            stats["000/003 copies differ"] += 1
            findings.append(Finding("000/003 copies differ", e.file, e.line, e.gen, e.fmt, e.name, e.raw, "",
                                    "entry (opcode %d, %s) has no counterpart in 000" % (e.op, e.name)))


# ----------------------------------------------------------------------------
# Syntax lines
# ----------------------------------------------------------------------------
def seed_operand_shape(syn, fmt):
    """Seed syntax 'NAME A, B(2), C [MODS]' -> [(kind,width),...]."""
    body = re.sub(r"\[.*", "", syn).strip()
    parts = body.split(None, 1)
    if len(parts) < 2:
        return parts[0] if parts else "", []
    name, rest = parts
    shape = []
    for tok in [t.strip() for t in rest.split(",") if t.strip()]:
        tok = tok.split("|")[0]
        m = re.match(r"^([A-Z0-9_]+)(?:\(([\d:,]+)\))?$", tok)
        if not m:
            shape.append(("?", tok))
            continue
        base, w = m.group(1), m.group(2)
        if w and ":" in w:
            w = w.split(":")[-1]
        width = int(w.split(",")[0]) if w else 1
        if base.startswith("S") and base not in ("SRC",) or base == "M0":
            kind = "s"
        elif base in ("OFFSET",):
            kind = "imm"
        else:
            kind = "v"
        shape.append((kind, width))
    return name, shape


def llvm_operand_shape(text):
    parts = text.split(None, 1)
    if len(parts) < 2:
        return []
    shape = []
    for tok in [t.strip() for t in parts[1].split(",")]:
        tok = tok.split()[0] if tok else tok
        m = re.match(r"^([vsa])(\d+)$", tok)
        m2 = re.match(r"^([vsa])\[(\d+):(\d+)\]$", tok)
        if m:
            shape.append(("v" if m.group(1) == "a" else m.group(1), 1))
        elif m2:
            shape.append(("v" if m2.group(1) == "a" else m2.group(1), int(m2.group(3)) - int(m2.group(2)) + 1))
        elif tok in ("off",):
            shape.append(("s", 0))
        elif re.match(r"^(0x[0-9a-f]+|-?\d+)$", tok):
            shape.append(("imm", 1))
        elif tok in ("vcc", "exec", "m0", "gds"):
            shape.append(("s", 1))
        else:
            shape.append(("?", tok))
    return shape


def syntax_variants(syn):
    """Turn a seed syntax line into concrete statements (all alternatives), with distinct registers."""
    body = re.sub(r"\[.*", "", syn).strip()
    parts = body.split(None, 1)
    name = parts[0].lower() if parts else ""
    toks = [t.strip() for t in parts[1].split(",")] if len(parts) > 1 else []
    problems = []
    names = [re.sub(r"\(.*", "", t) for t in toks]
    dups = sorted({n for n in names if names.count(n) > 1 and n})
    if dups:
        problems.append("operand name repeated: %s" % ", ".join(dups))
    alts = []
    r = 10
    for tok in toks:
        opts = []
        for alt in tok.split("|"):
            alt = alt.strip()
            m = re.match(r"^([A-Z][A-Z0-9_]*)(?:\(([\d:,]+)\))?$", alt)
            if alt == "OFF":
                opts.append("off")
                continue
            if not m:
                problems.append("malformed operand '%s'" % alt)
                continue
            base, w = m.group(1), m.group(2)
            widths = [int(x) for x in re.split(r"[:,]", w)] if w else [1]
            for wd in widths:
                if base.startswith("S") and base != "SRC" or base.startswith("SGPR"):
                    if base in ("SOFFSET", "SOFFSET1", "SGPROFFSET"):
                        opts.append("s%d" % (r + 1))
                    else:
                        lo = (r // 4) * 4 if wd > 1 else r + 1
                        opts.append("s%d" % lo if wd == 1 else "s[%d:%d]" % (lo, lo + wd - 1))
                elif base == "OFFSET":
                    opts += ["0x10", "s%d" % (r + 1)]
                else:
                    opts.append("v%d" % r if wd == 1 else "v[%d:%d]" % (r, r + wd - 1))
        alts.append(opts or ["?"])
        r += 8
    stmts = [name]
    for opts in alts:
        stmts = [(st + (" " if st == name else ", ") + o) for st in stmts for o in opts]
    out = []
    for st in stmts[:64]:
        out += [st, st + " glc"]
    return name, out, problems


def check_syntax(blocks, fname, oracle, findings, stats):
    fmt = {"000": "DS", "003": "DS", "001": "FLAT", "002": "SMEM"}[fname[:3]]
    for b in blocks:
        gens = [g for (_, _, gs) in b["ops"] for g in gs]
        if not gens:
            continue
        g = "GCN1.4" if "GCN1.4" in gens else gens[-1]
        for (ln, syn) in b["syntax"]:
            sname, sshape = seed_operand_shape(syn, fmt)
            if sname and sname != b["name"]:
                stats["heading/syntax mnemonic mismatch"] += 1
                findings.append(Finding("heading/syntax mnemonic mismatch", fname, ln, "", fmt, b["name"],
                                        syn, b["name"], "block heading at line %d is %s" % (b["line"], b["name"])))
            # assemble the syntax line itself, with the heading mnemonic
            name, stmts, problems = syntax_variants(b["name"] + " " + syn.split(None, 1)[1] if len(syn.split(None, 1)) > 1 else b["name"])
            if sname and sname != b["name"]:     # heading and syntax disagree: accept either mnemonic
                _, more, _ = syntax_variants(syn)
                stmts += more
            f = fmt
            if fmt == "FLAT" and g == "GCN1.4" and b["name"].split("_")[0] in ("GLOBAL", "SCRATCH"):
                f = b["name"].split("_")[0]
            stats["syntax lines checked"] += 1
            res = assemble_batch(GEN_CPU[g], stmts)
            ok = [(st, r) for st, r in zip(stmts, res) if r[0] is not None]
            t = oracle.table(f, g) if g in DISASM_GENS else None
            canon = ""
            if t is not None and name in t.by_name:
                canon = t.example[t.by_name[name]]
            for pr in problems:
                stats["syntax line typo"] += 1
                findings.append(Finding("syntax line typo", fname, ln, g, f, b["name"], syn, canon, pr))
            if ok:
                stats["syntax agree"] += 1
                continue
            if problems:
                continue
            stats["syntax rejected by LLVM"] += 1
            err = res[0][1] if res else ""
            findings.append(Finding("syntax rejected by LLVM", fname, ln, g, f, b["name"], syn, canon,
                                    "llvm-mc -mcpu=%s rejects '%s' (%s) and %d other operand variants; seed shape %s vs LLVM %s" % (
                                        GEN_CPU[g], stmts[0], err, len(stmts) - 1, fmt_shape(sshape),
                                        fmt_shape(llvm_operand_shape(canon)) if canon else "?")))


def fmt_shape(sh):
    return "(" + ", ".join("%s%s" % (k, "" if w == 1 else "x%s" % w) for k, w in sh) + ")"


# ----------------------------------------------------------------------------
# Field layouts
# ----------------------------------------------------------------------------
# (format, gen, statement, {field: expected value}) ; field names are the seeds' names
PROBES = [
    ("DS", "GCN1.0", "ds_write2_b32 v11, v22, v33 offset0:5 offset1:6 gds",
     {"OFFSET0": 5, "OFFSET1": 6, "GDS": 1, "OPCODE": 14, "ENCODING": 0b110110, "ADDR": 11, "VDATA0": 22, "VDATA1": 33, "DATA0": 22, "DATA1": 33}),
    ("DS", "GCN1.0", "ds_read_b32 v44, v11 offset:0x1234", {"OFFSET": 0x1234, "VDST": 44, "ADDR": 11, "OPCODE": 54}),
    ("DS", "GCN1.2", "ds_write2_b32 v11, v22, v33 offset0:5 offset1:6 gds",
     {"OFFSET0": 5, "OFFSET1": 6, "GDS": 1, "OPCODE": 14, "ENCODING": 0b110110, "ADDR": 11, "VDATA0": 22, "VDATA1": 33}),
    ("DS", "GCN1.2", "ds_read_b32 v44, v11 offset:0x1234", {"OFFSET": 0x1234, "VDST": 44, "ADDR": 11, "OPCODE": 54}),
    ("DS", "CDNA3", "ds_write2_b32 v11, v22, v33 offset0:5 offset1:6",
     {"OFFSET0": 5, "OFFSET1": 6, "GDS": 0, "OP": 14, "ENCODING": 0b110110, "ADDR": 11, "DATA0": 22, "DATA1": 33, "ACC": 0}),
    ("DS", "CDNA3", "ds_read_b32 a44, v11", {"VDST": 44, "ACC": 1, "OP": 54}),
    ("FLAT", "GCN1.1", "flat_load_dword v44, v[12:13] glc slc", {"GLC": 1, "SLC": 1, "OPCODE": 12, "ENCODING": 0b110111, "VADDR": 12, "VDST": 44}),
    ("FLAT", "GCN1.1", "flat_store_dword v[12:13], v22", {"VDATA": 22, "VADDR": 12}),
    ("FLAT", "GCN1.2", "flat_load_dword v44, v[12:13] glc slc", {"GLC": 1, "SLC": 1, "OPCODE": 20, "ENCODING": 0b110111, "VADDR": 12, "VDST": 44}),
    ("FLAT", "GCN1.4", "global_load_dword v44, v12, s[20:21] offset:-16 glc slc",
     {"GLC": 1, "SLC": 1, "OPCODE": 20, "ENCODING": 0b110111, "VADDR": 12, "VDST": 44, "SADDR": 20, "SEG": 2, "OFFSET": 0x1ff0}),
    ("FLAT", "GCN1.4", "flat_store_dword v[12:13], v22 offset:16", {"VDATA": 22, "VADDR": 12, "SEG": 0, "OFFSET": 16}),
    ("FLAT", "GCN1.4", "global_load_dword v[12:13], off lds", {"LDS": 1, "SADDR": 0x7f}),
    ("FLAT", "GCN1.4", "scratch_load_dword v44, v12, off", {"SEG": 1}),
    ("FLAT", "CDNA3", "global_load_dword v44, v12, s[20:21] offset:-16 sc0 nt sc1",
     {"SC0": 1, "NT": 1, "SC1": 1, "OP": 20, "ENCODING": 0b110111, "ADDR": 12, "VDST": 44, "SADDR": 20, "SEG": 2, "OFFSET": 0x1ff0, "ACC": 0}),
    ("FLAT", "CDNA3", "global_store_dword v[12:13], a22, off", {"DATA": 22, "ACC": 1, "SADDR": 0x7f}),
    ("FLAT", "CDNA3", "global_load_lds_dword v[12:13], off", {"LDS": 1}),
    ("SMEM", "GCN1.2", "s_load_dword s33, s[22:23], 0x12345 glc", {"SBASE": 11, "SDATA": 33, "GLC": 1, "IMM": 1, "OPCODE": 0, "ENCODING": 0b110000, "OFFSET": 0x12345}),
    ("SMEM", "GCN1.2", "s_load_dword s33, s[22:23], s45", {"IMM": 0, "OFFSET": 45}),
    ("SMEM", "GCN1.4", "s_load_dword s33, s[22:23], -0x10 glc", {"SBASE": 11, "SDATA": 33, "GLC": 1, "IMM": 1, "OPCODE": 0, "OFFSET": 0x1ffff0}),
    ("SMEM", "GCN1.4", "s_load_dword s33, s[22:23], s45 offset:0x10", {"SOE": 1, "IMM": 1, "SOFFSET": 45, "OFFSET": 0x10}),
    ("SMEM", "CDNA3", "s_load_dword s33, s[22:23], s45 offset:0x10 glc", {"SOE": 1, "IMM": 1, "SOFFSET": 45, "OFFSET": 0x10, "SBASE": 11, "SDATA": 33, "GLC": 1, "OP": 0, "ENCODING": 0b110000}),
    ("SOP2", "CDNA3", "s_and_b32 s5, s6, s7", {"SSRC0": 6, "SSRC1": 7, "SDST": 5, "OP": 12, "ENCODING": 0b10}),
    ("SOPK", "CDNA3", "s_addk_i32 s5, 0x1234", {"SIMM16": 0x1234, "SDST": 5, "OP": 14, "ENCODING": 0b1011}),
    ("SOP1", "CDNA3", "s_not_b32 s5, s6", {"SSRC0": 6, "SDST": 5, "OP": 4, "ENCODING": 0b101111101}),
    ("SOPC", "CDNA3", "s_cmp_lt_u32 s6, s7", {"SSRC0": 6, "SSRC1": 7, "OP": 10, "ENCODING": 0b101111110}),
    ("SOPP", "CDNA3", "s_sleep 0x1234", {"SIMM16": 0x1234, "OP": 14, "ENCODING": 0b101111111}),
    ("VOP2", "CDNA3", "v_sub_f32_e32 v5, s6, v7", {"SRC0": 6, "VSRC1": 7, "VDST": 5, "OP": 2, "ENCODING": 0}),
    ("VOP1", "CDNA3", "v_not_b32_e32 v5, v6", {"SRC0": 0x106, "VDST": 5, "OP": 43, "ENCODING": 0b0111111}),
    ("VOPC", "CDNA3", "v_cmp_lt_f32_e32 vcc, s6, v7", {"SRC0": 6, "VSRC1": 7, "OP": 0x41, "ENCODING": 0b0111110}),
    ("VOP3A", "CDNA3", "v_fma_f32 v5, -|v6|, v7, |s8| clamp mul:2",
     {"VDST": 5, "ABS": 0b101, "CLMP": 1, "OP": 0x1cb, "ENCODING": 0b110100, "SRC0": 0x106, "SRC1": 0x107, "SRC2": 8, "OMOD": 1, "NEG": 0b001}),
    ("VOP3A", "CDNA3", "v_max3_f16 v5, v6, v7, v8 op_sel:[1,0,1,1]", {"OPSEL": 0b1101}),
    ("VOP3B", "CDNA3", "v_add_co_u32_e64 v5, s[10:11], v6, v7 clamp",
     {"VDST": 5, "SDST": 10, "CLMP": 1, "OP": 0x119, "ENCODING": 0b110100, "SRC0": 0x106, "SRC1": 0x107}),
    ("VOP3B", "CDNA3", "v_div_scale_f32 v5, vcc, v6, v7, v8 mul:2", {"SRC2": 0x108, "OMOD": 1}),
    ("VOP3P", "CDNA3", "v_pk_fma_f16 v5, v6, v7, v8 op_sel:[1,0,1] op_sel_hi:[0,1,1] neg_lo:[1,0,0] neg_hi:[0,1,0] clamp",
     {"VDST": 5, "NEG_HI": 0b010, "OPSEL": 0b101, "OPSEL_HI2": 1, "CLMP": 1, "OP": 14, "ENCODING": 0b110100111,
      "SRC0": 0x106, "SRC1": 0x107, "SRC2": 0x108, "OPSEL_HI": 0b10, "NEG": 0b001}),
    ("VOP3P-MAI", "CDNA3", "v_mfma_f32_32x32x2_f32 a[0:15], a1, v2, a[0:15] cbsz:1 abid:2 blgp:3",
     {"VDST": 0, "CBSZ": 1, "ABID": 2, "ACC_CD": 1, "OP": 68, "ENCODING": 0b110100111, "SRC0": 0x101, "SRC1": 0x102, "SRC2": 0x100, "ACC": 0b01, "BLGP": 3}),
    ("MTBUF", "CDNA3", "tbuffer_load_format_x v5, v6, s[8:11], s12 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:0x123 sc0 sc1 nt",
     {"OFFSET": 0x123, "OFFEN": 1, "IDXEN": 0, "SCO": 1, "SC0": 1, "OP": 0, "DFMT": 4, "NFMT": 7, "ENCODING": 0b111010, "VADDR": 6, "VDATA": 5,
      "SRSRC": 2, "SC1": 1, "NT": 1, "ACC": 0, "SOFFSET": 12}),
    ("MUBUF", "CDNA3", "buffer_load_dword a5, v6, s[8:11], s12 idxen offset:0x123 sc0 sc1 nt",
     {"OFFSET": 0x123, "OFFEN": 0, "IDXEN": 1, "SC0": 1, "SC1": 1, "LDS": 0, "NT": 1, "OP": 20, "ENCODING": 0b111000, "VADDR": 6, "VDATA": 5,
      "SRSRC": 2, "ACC": 1, "SOFFSET": 12}),
    ("MUBUF", "CDNA3", "buffer_load_dword v6, s[8:11], s12 offen lds", {"LDS": 1, "OFFEN": 1}),
    ("SDWA", "CDNA3", "v_add_f32_sdwa v5, -v6, |s7| clamp mul:2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:WORD_0",
     {"SRC0": 6, "DST_SEL": 5, "DST_U": 2, "CLMP": 1, "OMOD": 1, "SRC0_SEL": 1, "SRC0_SEXT": 0, "SRC0_NEG": 1, "SRC0_ABS": 0, "S0": 0,
      "SRC1_SEL": 4, "SRC1_SEXT": 0, "SRC1_NEG": 0, "SRC1_ABS": 1, "S1": 1}),
    ("SDWA", "CDNA3", "v_add_u32_sdwa v5, sext(s6), sext(v7) src0_sel:BYTE_0 src1_sel:BYTE_0", {"SRC0_SEXT": 1, "SRC1_SEXT": 1, "S0": 1, "SRC0": 6}),
    ("SDWAB", "CDNA3", "v_cmp_lt_f32_sdwa s[10:11], -v6, |v7| src0_sel:WORD_1 src1_sel:BYTE_2",
     {"SRC0": 6, "SDST": 10, "SD": 1, "SRC0_SEL": 5, "SRC0_NEG": 1, "SRC0_ABS": 0, "S0": 0, "SRC1_SEL": 2, "SRC1_ABS": 1, "SRC1_NEG": 0, "S1": 0}),
    ("SDWAB", "CDNA3", "v_cmp_eq_u32_sdwa vcc, sext(v6), v7 src0_sel:WORD_1 src1_sel:BYTE_2", {"SD": 0, "SRC0_SEXT": 1}),
    ("DPP", "CDNA3", "v_add_f32_dpp v5, -v6, |v7| row_shl:1 row_mask:0xa bank_mask:0x5",
     {"SRC0": 6, "DPP_CTRL": 0x101, "BC": 0, "SRC0_NEG": 1, "SRC0_ABS": 0, "SRC1_NEG": 0, "SRC1_ABS": 1, "BANK_MASK": 5, "ROW_MASK": 0xa}),
    ("DPP", "CDNA3", "v_add_f32_dpp v5, |v6|, -v7 row_ror:3 row_mask:0xa bank_mask:0x5 bound_ctrl:1", {"DPP_CTRL": 0x123, "BC": 1, "SRC0_ABS": 1, "SRC1_NEG": 1}),
]


def check_fields(md_tables, cdna_fields, findings, stats):
    def probe(fmt_key, gen):
        return [p for p in PROBES if p[0] == fmt_key and p[1] == gen]

    def run_checks(rows, fmt_key, gens, fname, title):
        for gen in gens:
            for (_, g, stmt, exp) in probe(fmt_key, gen):
                r = assemble_batch(GEN_CPU[g], [stmt])[0]
                if r[0] is None:
                    findings.append(Finding("probe failed (tool issue)", fname, 0, g, fmt_key, stmt, "", "", r[1]))
                    continue
                enc = r[0]
                def gens_of(row):
                    ann = re.findall(r"GCN ?(1\.\d(?:/1\.\d)*)", row.get("desc", ""))
                    return {"GCN" + x for a in ann for x in a.split("/")}
                for row in rows:
                    # generation annotation in description: only apply matching rows; an
                    # unannotated row is superseded by a same-named row annotated for this gen
                    ann = gens_of(row)
                    if ann and gen not in ann:
                        continue
                    if not ann and any(r2["name"] == row["name"] and gen in gens_of(r2) for r2 in rows):
                        continue
                    if row["name"] not in exp:
                        continue
                    stats["field checks"] += 1
                    got = bits_of(enc, row["hi"], row["lo"])
                    want = exp[row["name"]]
                    if row["name"] == "ENCODING":
                        must = row.get("must")
                        if must:
                            mv = int(must.replace("_", ""), 2)
                            width = len(must.replace("_", ""))
                            if mv != want or width != row["hi"] - row["lo"] + 1:
                                stats["field-layout difference"] += 1
                                findings.append(Finding("field-layout difference", fname, row["line"], gen, fmt_key, "ENCODING",
                                                        row["raw"], "value %s in %d bits" % (bin(want), (want.bit_length())),
                                                        "seed range [%d:%d] is %d bits but 'Must be' value has %d bits; '%s' -> %s" % (
                                                            row["hi"], row["lo"], row["hi"] - row["lo"] + 1, width, stmt, enc_str(enc))))
                                continue
                    if got != want:
                        stats["field-layout difference"] += 1
                        actual = locate(enc, want, row["hi"] - row["lo"] + 1)
                        findings.append(Finding("field-layout difference", fname, row["line"], gen, fmt_key, row["name"],
                                                row["raw"], actual,
                                                "llvm-mc -mcpu=%s '%s' -> %s: bits [%d:%d] = %d, expected %d" % (
                                                    GEN_CPU[gen], stmt, enc_str(enc), row["hi"], row["lo"], got, want)))
                    else:
                        stats["field agree"] += 1

    for fname, tables in md_tables:
        for t in tables:
            title = t["title"] or ""
            fmt = {"000": "DS", "003": "DS", "001": "FLAT", "002": "SMEM"}[fname[:3]]
            if fmt == "DS":
                gens = ["GCN1.0", "GCN1.2"]
            elif fmt == "FLAT":
                gens = ["GCN1.1", "GCN1.2"] if "1.1/1.2" in title else ["GCN1.4"]
            else:
                gens = ["GCN1.2", "GCN1.4"]
            run_checks(t["rows"], fmt, gens, fname, title)
    for fname, fields in cdna_fields:
        for fmt_key, rows in fields.items():
            run_checks(rows, fmt_key, ["CDNA3"], fname, fmt_key)


def locate(enc, want, width):
    """where does value `want` actually sit in the encoding? (best effort, for the report)"""
    if want == 0:
        return ""
    n = len(enc) * 8
    hits = []
    for lo in range(n):
        for w in (width, want.bit_length()):
            if lo + w <= n and bits_of(enc, lo + w - 1, lo) == want:
                hits.append("[%d:%d]" % (lo + w - 1, lo))
    return "LLVM puts it at " + "/".join(sorted(set(hits))[:3]) if hits else ""


# ----------------------------------------------------------------------------
def main():
    global LLVM_MC, VERBOSE
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="/work/shared/seeds")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "findings.tsv"))
    ap.add_argument("--llvm-mc", default=LLVM_MC)
    ap.add_argument("--cdna3-cpu", default="gfx940", help="mcpu used for CDNA3 (gfx940 or gfx942)")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    LLVM_MC, VERBOSE = a.llvm_mc, a.v
    GEN_CPU["CDNA3"] = a.cdna3_cpu
    files = sorted(glob.glob(os.path.join(a.seeds, "*.txt")))
    oracle = Oracle()
    findings, stats = [], collections.Counter()
    all_entries, md_fields, cdna_fields, blocks_by_file = [], [], [], {}
    tables_parsed = []
    for p in files:
        fn = os.path.basename(p)
        if fn.startswith("004"):
            es, flds = parse_cdna3(p, fn)
            cdna_fields.append((fn, flds))
            tables_parsed += sorted({("%s %s" % (fn[:3], e.fmt)) for e in es})
        else:
            es = parse_md_tables(p, fn)
            tables_parsed += sorted({("%s %s %s" % (fn[:3], e.fmt, e.gen)) for e in es if e.kind == "table"})
            de, blocks = parse_details(p, fn)
            blocks_by_file[fn] = blocks
            # seed syntax lines -> extra assembler operand templates
            for b in blocks:
                for (_, syn) in b["syntax"]:
                    _, shape = seed_operand_shape(syn, None)
                    ops, r = [], 10
                    for k, w in shape:
                        if k == "v":
                            ops.append("v%d" % r if w == 1 else "v[%d:%d]" % (r, r + w - 1))
                        elif k == "s":
                            ops.append("s%d" % r if w == 1 else "s[%d:%d]" % (r - r % 4, r - r % 4 + w - 1))
                        else:
                            ops.append("0x10")
                        r += 4
                    key = {"000": "DS", "003": "DS", "001": "FLAT", "002": "SMEM"}[fn[:3]]
                    SEED_SYNTAX_TEMPLATES.setdefault(key, [])
                    o = ", ".join(ops)
                    if o not in SEED_SYNTAX_TEMPLATES[key]:
                        SEED_SYNTAX_TEMPLATES[key].append(o)
            es = es + de
            md_fields.append((fn, parse_md_fields(p, fn)))
        all_entries += es
    stats["tables parsed"] = len(tables_parsed)
    stats["opcode entries parsed"] = sum(1 for e in all_entries if e.kind != "hexdec")
    check_entries(all_entries, oracle, findings, stats)
    compare_copies(all_entries, findings, stats)
    # candidate names for "missing" checks on gfx6/7: every DS/FLAT mnemonic known anywhere
    extra = collections.defaultdict(set)
    for e in all_entries:
        if e.fmt:
            extra[e.fmt].add(norm_seed_name(e.name))
    for (fmt, gen), t in list(oracle.tables.items()):
        extra[fmt] |= set(t.by_op.values())
    for n in ("ds_gws_sema_release_all", "ds_gws_init", "ds_gws_sema_v", "ds_gws_sema_br", "ds_gws_sema_p",
              "ds_gws_barrier", "ds_ordered_count", "ds_nop", "ds_wrap_rtn_b32", "ds_condxchg32_rtn_b64",
              "ds_condxchg32_rtn_b128", "ds_write_b96", "ds_write_b128", "ds_read_b96", "ds_read_b128"):
        extra["DS"].add(n)
    check_missing([e for e in all_entries if e.kind.startswith("table")], oracle, findings, stats, extra)
    for fn, blocks in blocks_by_file.items():
        check_syntax(blocks, fn, oracle, findings, stats)
    check_fields(md_fields, cdna_fields, findings, stats)

    with open(a.out, "w", encoding="utf-8") as f:
        f.write("category\tfile\tline\tgen\tformat\tmnemonic\tseed_value\tllvm_value\tevidence\n")
        for x in sorted(findings, key=lambda x: (x.category, x.file, int(x.line or 0))):
            f.write("\t".join(str(v).replace("\t", " ") for v in x) + "\n")

    print("seedcheck: llvm-mc = %s" % LLVM_MC)
    print("tables parsed: %d" % stats["tables parsed"])
    for t in tables_parsed:
        print("   ", t)
    print("opcode entries parsed: %d" % stats["opcode entries parsed"])
    print("entries checked against LLVM: %d" % stats["checked"])
    print("  agree: %d   (of which accepted only as an LLVM alias: %d)" % (stats["agree"], stats["agree (LLVM alias)"]))
    for k in ("opcode differs", "mnemonic unknown to LLVM on this target", "instruction LLVM has but seed table lacks",
              "hex-decimal mismatch", "heading/syntax mnemonic mismatch", "syntax rejected by LLVM", "syntax line typo",
              "field-layout difference", "000/003 copies differ", "mnemonic spelled with a space"):
        n = sum(1 for x in findings if x.category == k)
        print("  %-45s %d" % (k + ":", n))
    print("syntax lines assembled: %d (accepted %d)" % (stats["syntax lines checked"], stats["syntax agree"]))
    print("field checks: %d (agree %d)" % (stats["field checks"], stats["field agree"]))
    other = collections.Counter(x.category for x in findings if x.category.startswith(("note", "probe")))
    for k, v in other.items():
        print("  %-45s %d" % (k + ":", v))
    print("findings written to %s (%d rows)" % (a.out, len(findings)))


if __name__ == "__main__":
    main()
