"""Shared llvm-mc helpers for the MIMG/EXP/VINTRP probes (misc_*.py)."""
import re, subprocess

LLVM = "/usr/lib/llvm-19/bin/llvm-mc"
TRIPLE = "amdgcn-amd-amdhsa"


def bytes_of_words(words):
    out = []
    for w in words:
        out += [(w >> (8 * i)) & 0xFF for i in range(4)]
    return out


def fmt_bytes(bs):
    return ",".join("0x%02x" % b for b in bs)


def disasm(mcpu, byte_lists):
    """Disassemble each byte list as one instruction group.  Returns a list of
    (text, re-encoding) or None (invalid) per input, in order.  The re-encoding is
    what llvm-mc prints after 'encoding:'; it differs from the input when LLVM
    ignored some bits."""
    inp = "".join("[" + fmt_bytes(b) + "]\n" for b in byte_lists)
    p = subprocess.run([LLVM, "-triple=" + TRIPLE, "-mcpu=" + mcpu, "-disassemble",
                        "-show-encoding"], input=inp, capture_output=True, text=True)
    bad = set(int(m.group(1)) - 1 for m in re.finditer(r"<stdin>:(\d+):\d+: warning", p.stderr))
    other = [l for l in p.stderr.splitlines() if ("error" in l)]
    if other:
        raise RuntimeError(p.stderr[:2000])
    outs = []
    for l in p.stdout.splitlines():
        l = l.strip()
        if not l or l.startswith(".text") or l.startswith(".amdgcn") or l.startswith(".amdhsa"):
            continue
        m = re.match(r"(.*?)\s*; encoding: \[(.*)\]$", l)
        if not m:
            raise RuntimeError("unparsed: " + l)
        outs.append((m.group(1).strip(), m.group(2)))
    res = []
    it = iter(outs)
    for i, b in enumerate(byte_lists):
        if i in bad:
            res.append(None)
        else:
            t, e = next(it)
            res.append((t, e))
    rest = list(it)
    if rest:
        raise RuntimeError("extra outputs: %r" % rest[:3])
    return res


def assemble(mcpu, stmts):
    """Assemble statements.  Returns list of (echoed_text, bytes_str) or (None, errmsg)."""
    inp = "".join(s + "\n" for s in stmts)
    p = subprocess.run([LLVM, "-triple=" + TRIPLE, "-mcpu=" + mcpu, "-show-encoding"],
                       input=inp, capture_output=True, text=True)
    errs = {}
    lines = p.stderr.splitlines()
    for k, l in enumerate(lines):
        m = re.match(r"<stdin>:(\d+):\d+: (error|warning): (.*)", l)
        if m:
            errs.setdefault(int(m.group(1)) - 1, m.group(3))
    outs = []
    for l in p.stdout.splitlines():
        l = l.strip()
        if not l or l.startswith(".text") or l.startswith(".amdgcn") or l.startswith(".amdhsa"):
            continue
        m = re.match(r"(.*?)\s*; encoding: \[(.*)\]$", l)
        if not m:
            raise RuntimeError("unparsed: " + l)
        outs.append((m.group(1).strip(), m.group(2)))
    it = iter(outs)
    res = []
    for i, s in enumerate(stmts):
        if i in errs:
            res.append((None, errs[i]))
        else:
            res.append(next(it))
    return res


def roundtrip_split(mcpu, vecs):
    """vecs: list of (bytes_str, text).  Assemble every text; return (clean, dirty) where clean
    re-assembles to exactly bytes_str.  dirty items carry the assembler result."""
    res = assemble(mcpu, [t for _, t in vecs])
    clean, dirty = [], []
    for (b, t), (echo, enc) in zip(vecs, res):
        if echo is not None and enc == b:
            clean.append((b, t))
        else:
            dirty.append((b, t, enc if echo is None else "reassembles to " + enc))
    return clean, dirty


def dedupe(lines):
    """Keep the first vector line per (MCPU, BYTES): the assembler accepts several spellings for the
    same bytes (e.g. wider MIMG vaddr tuples); the first one generated is the canonical one."""
    seen, out = set(), []
    for l in lines:
        k = tuple(l.split("\t")[:2])
        if k not in seen:
            seen.add(k)
            out.append(l)
    return out
