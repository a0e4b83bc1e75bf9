"""Helpers for talking to LLVM 19's llvm-mc (scalar-family probes)."""
import re, subprocess

LLVM_MC = '/usr/lib/llvm-19/bin/llvm-mc'
TRIPLE = 'amdgcn-amd-amdhsa'
ENC_RE = re.compile(r'^\s*(.*?)\s*; encoding: \[([^\]]*)\]\s*$')


def bytes_str(bs):
    return ','.join('0x%02x' % b for b in bs)


def word_bytes(*words):
    out = b''
    for w in words:
        out += (w & 0xffffffff).to_bytes(4, 'little')
    return out


def _parse(stdout):
    res = []
    for line in stdout.splitlines():
        m = ENC_RE.match(line)
        if not m:
            continue
        bs = bytes(int(x, 16) for x in m.group(2).split(','))
        res.append((bs, m.group(1)))
    return res


SENTINEL = b'\x5a\x5a\x80\xbf'      # s_nop 0x5a5a, placed between candidate groups
SENTINEL_TEXT = 's_nop 0x5a5a'


def disasm(cpu, byte_list):
    """byte_list: list of bytes, each disassembled as its own [..] group, with a sentinel
    group after each. Returns dict bytes->text for the groups that decode as ONE
    instruction spanning exactly the group's bytes (no warning, exactly one output).
    (-show-encoding re-encodes, so the printed encoding is NOT used for alignment:
    e.g. a literal 0x40 is re-encoded as the inline constant 64.)"""
    byte_list = list(dict.fromkeys(byte_list))
    assert SENTINEL not in byte_list
    inp = ''.join('[' + bytes_str(b) + ']\n[' + bytes_str(SENTINEL) + ']\n' for b in byte_list)
    p = subprocess.run([LLVM_MC, '-triple=' + TRIPLE, '-mcpu=' + cpu, '-disassemble'],
                       input=inp, capture_output=True, text=True)
    warned = set()
    for m in re.finditer(r'<stdin>:(\d+):(\d+): warning', p.stderr):
        warned.add((int(m.group(1)) + 1) // 2 - 1)
    outs = [l.strip() for l in p.stdout.splitlines() if l.strip() and l.strip() != '.text']
    res = {}
    i = 0
    cur = []
    for t in outs:
        if t == SENTINEL_TEXT:
            if len(cur) == 1 and i not in warned:
                res[byte_list[i]] = cur[0]
            i += 1
            cur = []
        else:
            cur.append(t)
    assert i == len(byte_list), (i, len(byte_list))
    return res


def assemble(cpu, lines):
    """lines: list of statements. Returns list (same order) of (bytes, echoed text)
    or (None, error message)."""
    inp = '\n'.join(lines) + '\n'
    p = subprocess.run([LLVM_MC, '-triple=' + TRIPLE, '-mcpu=' + cpu, '-show-encoding'],
                       input=inp, capture_output=True, text=True)
    errs = {}
    for m in re.finditer(r'<stdin>:(\d+):\d+: error: (.*)', p.stderr):
        errs.setdefault(int(m.group(1)), m.group(2))
    ok = _parse(p.stdout)
    res = []
    it = iter(ok)
    for i, _ in enumerate(lines, 1):
        if i in errs:
            res.append((None, errs[i]))
        else:
            try:
                res.append(next(it))
            except StopIteration:
                res.append((None, 'missing output'))
    return res
