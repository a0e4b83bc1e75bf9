"""Shared helpers for the VOP3/VOP3P probes (valu64*.py): run LLVM 19's llvm-mc, parse its output."""
import re, struct, subprocess

MC = '/usr/lib/llvm-19/bin/llvm-mc'
TRIPLE = 'amdgcn-amd-amdhsa'
SNOP = 0xBF800000  # s_nop 0, used twice after each probe word to resync the byte stream


def bstr(words):
    return ','.join('0x%02x' % x for x in struct.pack('<%dI' % len(words), *words))


CRASHES = []  # (mcpu, bytes) that make llvm-mc crash when disassembled


def disasm(mcpu, wordlists):
    """wordlists: list of tuples of 32-bit words. Returns {bytes_str: text} for those that decoded
    to exactly those bytes. llvm-mc disassembles one byte stream and skips 4 bytes on an invalid
    word, so each candidate is followed by two s_nop to resync. llvm-mc 19 crashes (SIGSEGV) on
    some words: the batch is then bisected and the crashing words are recorded in CRASHES."""
    if not wordlists:
        return {}
    lines = [bstr(list(w) + [SNOP, SNOP]) for w in wordlists]
    p = subprocess.run([MC, '-triple=' + TRIPLE, '-mcpu=' + mcpu, '-disassemble', '-show-encoding'],
                       input='\n'.join(lines) + '\n', capture_output=True, text=True)
    if p.returncode != 0:
        if len(wordlists) == 1:
            # without -show-encoding llvm-mc prints the instruction (with an /*Invalid ...*/ comment)
            q = subprocess.run([MC, '-triple=' + TRIPLE, '-mcpu=' + mcpu, '-disassemble'],
                               input=bstr(list(wordlists[0])) + '\n', capture_output=True, text=True)
            txt = [l.strip() for l in q.stdout.splitlines() if l.strip() and l.strip() != '.text']
            CRASHES.append((mcpu, bstr(list(wordlists[0])), txt[0] if txt else '(nothing)'))
            return {bstr(list(wordlists[0])): txt[0]} if txt else {}
        h = len(wordlists) // 2
        out = disasm(mcpu, wordlists[:h])
        out.update(disasm(mcpu, wordlists[h:]))
        return out
    want = {bstr(list(w)) for w in wordlists}
    out = {}
    for ln in p.stdout.splitlines():
        m = re.match(r'\s*(.*?)\s*; encoding: \[(.*)\]\s*$', ln)
        if not m:
            continue
        if m.group(2) in want:
            out[m.group(2)] = m.group(1)
    return out


def assemble(mcpu, stmts):
    """Returns list aligned with stmts: (text_echo, bytes_str) or (None, error message).
    A sentinel `s_nop 0xbeef` after each statement splits llvm-mc's output per statement."""
    SENT = 's_nop 0xbeef'
    src = []
    for s in stmts:
        src.append(s.replace('\n', ' '))
        src.append(SENT)
    p = subprocess.run([MC, '-triple=' + TRIPLE, '-mcpu=' + mcpu, '-show-encoding'],
                       input='\n'.join(src) + '\n', capture_output=True, text=True)
    errs = {}
    for ln in p.stderr.splitlines():
        m = re.match(r'<stdin>:(\d+):\d+: error: (.*)', ln)
        if m:
            errs.setdefault((int(m.group(1)) - 1) // 2, m.group(2))
    segs, cur = [], []
    for ln in p.stdout.splitlines():
        m = re.match(r'\s*(.*?)\s*; encoding: \[(.*)\]\s*$', ln)
        if not m:
            continue
        if m.group(1) == SENT:
            segs.append(cur)
            cur = []
        else:
            cur.append((m.group(1), m.group(2)))
    res = []
    for i in range(len(stmts)):
        seg = segs[i] if i < len(segs) else []
        if i in errs:
            res.append((None, errs[i]))
        elif len(seg) != 1:
            res.append((None, 'no single instruction: %r' % (seg,)))
        else:
            res.append(seg[0])
    return res


REG_RE = re.compile(r'^(v|s|a|ttmp)(\d+)$|^(v|s|a|ttmp)\[(\d+):(\d+)\]$')


def parse_reg(tok):
    """'-|v[2:3]|' -> ('v', 2, 2 regs); None if not a plain register."""
    t = tok
    t = re.sub(r'^(-?)\|(.*)\|$', r'\2', t.lstrip('-'))
    t = t.lstrip('-')
    t = re.sub(r'^(neg|abs|sext)\((.*)\)$', r'\2', t)
    m = REG_RE.match(t)
    if not m:
        return None
    if m.group(1):
        return (m.group(1), int(m.group(2)), 1)
    return (m.group(3), int(m.group(4)), int(m.group(5)) - int(m.group(4)) + 1)


def split_text(text):
    """'v_x v1, v[2:3], v4 op_sel:[0,1] clamp' -> ('v_x', ['v1','v[2:3]','v4'], ['op_sel:[0,1]','clamp'])"""
    parts = text.split(None, 1)
    mn = parts[0]
    if len(parts) == 1:
        return mn, [], []
    toks = parts[1].split(' ')
    ops, mods = [], []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.endswith(','):
            ops.append(t[:-1])
        else:
            ops.append(t)
            mods = toks[i + 1:]
            break
        i += 1
    return mn, ops, [m for m in mods if m]
