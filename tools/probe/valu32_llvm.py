"""llvm-mc helpers for the VOP1/VOP2/VOPC probe (gcnkit). Batch disassembly/assembly with per-line results."""
import re, subprocess

LLVM_MC = "/usr/lib/llvm-19/bin/llvm-mc"
TRIPLE = "amdgcn-amd-amdhsa"

def words_to_bytes(ws):
    return [(w >> (8 * i)) & 0xff for w in ws for i in range(4)]

def bytes_str(bs):
    return ",".join("0x%02x" % b for b in bs)

_ENC = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")
_WARN = re.compile(r"^<stdin>:(\d+):\d+: warning: invalid instruction encoding")
_ERR = re.compile(r"^<stdin>:(\d+):\d+: error: (.*)$")

CRASHES = []
REENC = []
SENT = [0x01, 0x00, 0x80, 0xbf]  # s_nop 1 (not an inline-constant bit pattern), appended after every line as a delimiter

def disasm(mcpu, lines):
    """lines: list of byte lists. Returns list of printed text (None when the line is not exactly one
    valid instruction). llvm-mc disassembles the input as ONE byte stream (an instruction that needs a
    literal reads the next line's bytes), so every line is followed by an s_nop 0 sentinel word.
    Text containing 'Invalid' (llvm's register-class comment) is returned as is."""
    inp = "\n".join(bytes_str(b + SENT) for b in lines) + "\n"
    p = subprocess.run([LLVM_MC, "-triple=" + TRIPLE, "-mcpu=" + mcpu, "-disassemble", "-show-encoding"],
                       input=inp, capture_output=True, text=True)
    if p.returncode != 0:  # llvm-mc aborted (assertion) on some word: bisect
        if len(lines) == 1:
            CRASHES.append((mcpu, bytes_str(lines[0]), p.stderr.strip().splitlines()[-1:] ))
            return [None]
        h = len(lines) // 2
        return disasm(mcpu, lines[:h]) + disasm(mcpu, lines[h:])
    warns = set()
    for l in p.stderr.splitlines():
        m = _WARN.match(l)
        if m:
            warns.add(int(m.group(1)))
    ents = []
    for l in p.stdout.splitlines():
        m = _ENC.match(l)
        if m:
            ents.append((m.group(1), [int(x, 16) for x in m.group(2).split(",") if x.strip()]))
    out, k = [], 0
    for i, bs in enumerate(lines, 1):
        mine = []
        while k < len(ents):
            mine.append(ents[k]); k += 1
            if mine[-1][1][-4:] == SENT:
                break
        # NB: -show-encoding prints the RE-ENCODED instruction (a literal equal to an inline constant
        # comes back as the inline constant, s7 as a 64-bit operand comes back as s[6:7]), so the
        # printed bytes are not compared with the input.
        if i not in warns and len(mine) == 2 and mine[1][1] == SENT and len(mine[0][1]) <= len(bs):
            if mine[0][1] != bs:
                REENC.append((mcpu, bytes_str(bs), mine[0][0], bytes_str(mine[0][1])))
            out.append(mine[0][0])
        else:
            out.append(None)
    return out

def assemble(mcpu, stmts):
    """Returns list of (text, bytes) or (None, errormessage)."""
    inp = "\n".join(stmts) + "\n"
    p = subprocess.run([LLVM_MC, "-triple=" + TRIPLE, "-mcpu=" + mcpu, "-show-encoding"],
                       input=inp, capture_output=True, text=True)
    errs = {}
    for l in p.stderr.splitlines():
        m = _ERR.match(l)
        if m:
            errs.setdefault(int(m.group(1)), m.group(2))
    ents = []
    for l in p.stdout.splitlines():
        m = _ENC.match(l)
        if m:
            ents.append((m.group(1), [int(x, 16) for x in m.group(2).split(",") if x.strip()]))
    out, k = [], 0
    for i, s in enumerate(stmts, 1):
        if i in errs:
            out.append((None, errs[i]))
        else:
            out.append(ents[k]); k += 1
    assert k == len(ents), (k, len(ents))
    return out
