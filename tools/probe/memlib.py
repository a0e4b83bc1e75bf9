"""Helpers for the memory-family probe (DS, MUBUF, MTBUF, FLAT/GLOBAL/SCRATCH).

LLVM 19 (llvm-mc) is the oracle. gfx8+ is probed by disassembling; gfx6/gfx7 by assembling.
"""
import re
import subprocess

LLVM = "/usr/lib/llvm-19/bin"
TRIPLE = "amdgcn-amd-amdhsa"
MARK = [0x07, 0x00, 0x80, 0xBF]  # s_nop 7, used as a separator between probe words
MARK_TXT = "s_nop 7"


def words_to_bytes(ws):
    out = []
    for w in ws:
        out += [(w >> (8 * i)) & 0xFF for i in range(4)]
    return out


def fmt_bytes(bs):
    return ",".join("0x%02x" % b for b in bs)


_enc_re = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]\s*$")


def disassemble(cpu, items):
    """items: list of byte lists. Returns per item (text, bytes) or None when LLVM rejects it.

    Each item is followed by two s_nop 7 markers; a word LLVM cannot decode as one instruction
    shows up as nothing or as foreign instructions between markers."""
    lines = []
    for bs in items:
        lines.append(fmt_bytes(bs))
        lines.append(fmt_bytes(MARK))
        lines.append(fmt_bytes(MARK))
    p = subprocess.run([LLVM + "/llvm-mc", "-triple=" + TRIPLE, "-mcpu=" + cpu, "-disassemble",
                        "-show-encoding"], input="\n".join(lines) + "\n", capture_output=True, text=True)
    insts = []
    for ln in p.stdout.splitlines():
        m = _enc_re.match(ln)
        if not m:
            continue
        bs = [int(x, 16) for x in m.group(2).split(",")]
        insts.append((m.group(1), bs))
    res = []
    k = 0
    n = len(insts)
    for bs in items:
        seg = []
        while k < n and not (insts[k][0] == MARK_TXT and insts[k][1] == MARK):
            seg.append(insts[k])
            k += 1
        # consume up to two markers
        c = 0
        while k < n and c < 2 and insts[k][0] == MARK_TXT and insts[k][1] == MARK:
            k += 1
            c += 1
        if len(seg) == 1 and len(seg[0][1]) == len(bs) and c == 2:
            res.append(seg[0])
        else:
            res.append(None)
            if c < 2:
                # a foreign 64-bit decode swallowed a marker; resync is automatic since we only
                # stop at markers.
                pass
    if k != n:
        raise RuntimeError("disassembly resync failed for %s" % cpu)
    return res


_err_re = re.compile(r"^<stdin>:(\d+):\d+: error: (.*)$")


def assemble(cpu, stmts):
    """Returns per statement (text, bytes) or ('ERR', message)."""
    p = subprocess.run([LLVM + "/llvm-mc", "-triple=" + TRIPLE, "-mcpu=" + cpu, "-show-encoding"],
                       input="\n".join(stmts) + "\n", capture_output=True, text=True)
    errs = {}
    for ln in p.stderr.splitlines():
        m = _err_re.match(ln)
        if m:
            errs.setdefault(int(m.group(1)), m.group(2))
    oks = []
    for ln in p.stdout.splitlines():
        m = _enc_re.match(ln)
        if m:
            oks.append((m.group(1), [int(x, 16) for x in m.group(2).split(",")]))
    res = []
    j = 0
    for i, s in enumerate(stmts, 1):
        if i in errs:
            res.append(("ERR", errs[i]))
        else:
            res.append(oks[j])
            j += 1
    assert j == len(oks), (cpu, j, len(oks))
    return res


def split_operands(text):
    """'mn a, b, c mod1 mod2:x' -> (mn, [a, b, c], [mod1, mod2:x]); bracket aware."""
    parts = text.split(None, 1)
    mn = parts[0]
    if len(parts) == 1:
        return mn, [], []
    rest = parts[1]
    toks = []
    depth = 0
    cur = ""
    for ch in rest:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            toks.append(cur.strip())
            cur = ""
        else:
            cur += ch
    toks.append(cur.strip())
    # last token: operand followed by modifiers separated by spaces (bracket aware)
    last = toks[-1]
    sub = []
    depth = 0
    cur = ""
    for ch in last:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == " " and depth == 0:
            if cur:
                sub.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        sub.append(cur)
    ops = toks[:-1]
    mods = []
    if len(toks) == 1 and is_modifier(sub[0]):
        mods = sub
    else:
        ops.append(sub[0])
        mods = sub[1:]
    return mn, ops, mods


MODS = {"offen", "idxen", "addr64", "glc", "slc", "lds", "tfe", "gds", "sc0", "sc1", "nt", "dlc", "scc"}


def is_modifier(tok):
    return tok in MODS or tok.startswith("offset") or tok.startswith("format:")


_reg_re = re.compile(r"^([vas])(?:(\d+)|\[(\d+):(\d+)\])$")


def parse_reg(tok):
    """-> (kind, start, width) or None."""
    m = _reg_re.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 1
    a, b = int(m.group(3)), int(m.group(4))
    return m.group(1), a, b - a + 1
