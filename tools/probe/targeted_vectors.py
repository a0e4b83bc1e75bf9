#!/usr/bin/env python3
"""Writes tests/vectors/targeted.txt: vectors for printing rules that depend on the processor
or on one operand type, which the per-family generators do not reach.

Each case is (mcpu, statement) or (mcpu, bytes). A statement is assembled by llvm-mc-19; from
gfx8 on the vector's text is what llvm-mc-19 disassembles the bytes to, on gfx6/gfx7 (which
LLVM 19 cannot disassemble) the statement itself, written as gcnkit prints it. Bytes are
disassembled (gfx8+ only). Every case must succeed: the script stops on any llvm-mc error.

Run from the repository root:  python3 tools/probe/targeted_vectors.py
"""
import re
import subprocess
import sys

MC = '/usr/lib/llvm-19/bin/llvm-mc'
OUT = 'tests/vectors/targeted.txt'
SI_CI = re.compile(r'^(gfx6|gfx7|tahiti|pitcairn|verde|oland|hainan|bonaire|kaveri|hawaii|kabini|mullins)')

# (comment, cases)
GROUPS = [
    ('gfx810 packs D16 image and buffer data two components per register, like gfx9; '
     'gfx801-gfx805 take one register per component', [
        (cpu, stmt)
        for cpu in ['gfx801', 'gfx802', 'gfx803', 'gfx805', 'gfx810']
        for stmt in (
            ['image_load v[0:3], v[0:3], s[0:7] dmask:0xf unorm d16',
             'image_store v[4:6], v[0:3], s[0:7] dmask:0x7 unorm d16',
             'image_sample v[0:1], v[0:1], s[4:11], s[12:15] dmask:0x3 d16',
             'image_sample v[0:2], v[0:1], s[4:11], s[12:15] dmask:0x3 tfe d16',
             'image_gather4 v[0:3], v[0:3], s[0:7], s[8:11] dmask:0x1 d16',
             'image_gather4 v[0:4], v[0:3], s[0:7], s[8:11] dmask:0x2 tfe d16',
             'buffer_load_format_d16_xyzw v[0:3], off, s[0:3], 0',
             'buffer_store_format_d16_xy v[2:3], v1, s[4:7], s2 offen',
             'tbuffer_load_format_d16_xyz v[0:2], off, s[0:3], 0 format:[BUF_DATA_FORMAT_32]']
            if cpu != 'gfx810' else
            ['image_load v[0:1], v[0:3], s[0:7] dmask:0xf unorm d16',
             'image_store v[4:5], v[0:3], s[0:7] dmask:0x7 unorm d16',
             'image_sample v0, v[0:1], s[4:11], s[12:15] dmask:0x3 d16',
             'image_sample v[0:1], v[0:1], s[4:11], s[12:15] dmask:0x3 tfe d16',
             'image_gather4 v[0:1], v[0:3], s[0:7], s[8:11] dmask:0x1 d16',
             'buffer_load_format_d16_xyzw v[0:1], off, s[0:3], 0',
             'buffer_store_format_d16_xy v2, v1, s[4:7], s2 offen',
             'tbuffer_load_format_d16_xyz v[0:1], off, s[0:3], 0 format:[BUF_DATA_FORMAT_32]'])
    ]),
    ('gfx810 words whose D16 data size only the packed rule gives (found by random encodings)', [
        ('gfx810', [0x00, 0x8e, 0xa0, 0xf2, 0x00, 0x17, 0x20, 0x81]),
        ('gfx810', [0x00, 0x8c, 0xb0, 0xf0, 0x00, 0xd1, 0x61, 0x81]),
        ('gfx810', [0xd6, 0xad, 0xb1, 0xf0, 0x24, 0x23, 0xc0, 0x84]),
        # A gather with d16 and tfe: there is no class of three registers, four print.
        ('gfx810', [0x00, 0x02, 0x01, 0xf1, 0x00, 0x00, 0x40, 0x80]),
    ]),
    ('v_ldexp_f16: an FP inline constant as the integer exponent prints as the half-precision '
     'value (VOP3 and SDWA); other 16-bit integer sources print its bits in hex', [
        (cpu, stmt)
        for cpu in ['gfx803', 'gfx900', 'gfx90a', 'gfx940']
        for stmt in [
            'v_ldexp_f16_e64 v0, v1, 0.5',
            'v_ldexp_f16_e64 v0, v1, -4.0',
            'v_ldexp_f16_e64 v0, v1, 0.15915494',
            'v_ldexp_f16_e64 v0, -v1, sext(1.0)',
            'v_ldexp_f16_e64 v0, v1, sext(-2)',
            'v_ldexp_f16_e64 v0, 0.5, v1 clamp',
            'v_add_u16_e64 v0, v1, 0.5',
            'v_ldexp_f32 v0, v1, -0.5',
            'v_ldexp_f64 v[0:1], v[2:3], 2.0',
        ] + ([] if cpu == 'gfx803' else [
            'v_ldexp_f16_sdwa v0, v1, 0.5 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD',
            'v_ldexp_f16_sdwa v0, v1, sext(-1.0) dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD',
        ])
    ] + [
        # 1/(2*pi) as the SDWA exponent prints as 0.15915494, which llvm-mc-19 then refuses.
        (cpu, [0xf9, 0xf0, 0x01, 0x66, 0x01, 0x16, 0x06, 0x86])
        for cpu in ['gfx900', 'gfx90a', 'gfx940']
    ]),
    ('gfx6/gfx7: ds_swizzle_b32 offsets whose BITMASK_PERM string would assemble to other masks '
     'print as the number; the others keep their swizzle() form', [
        (cpu, stmt)
        for cpu in ['gfx600', 'gfx700']
        for stmt in [
            'ds_swizzle_b32 v1, v2 offset:65535',
            'ds_swizzle_b32 v1, v2 offset:2047',
            'ds_swizzle_b32 v1, v2 offset:1023 gds',
            'ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,"01pi0")',
            'ds_swizzle_b32 v1, v2 offset:swizzle(QUAD_PERM,3,3,3,3)',
            'ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)',
            'ds_swizzle_b32 v1, v2 offset:swizzle(REVERSE,8)',
            'ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,4,1)',
        ]
    ]),
    ('gfx6/gfx7: the VOP3 forms of the operand-less v_nop and v_clrexcp keep their _e64 '
     '(LLVM prints them bare, which llvm-mc reads as the 32-bit form)', [
        (cpu, stmt)
        for cpu in ['gfx600', 'gfx700']
        for stmt in ['v_nop_e64', 'v_clrexcp_e64', 'v_nop', 'v_clrexcp']
    ] + [
        (cpu, data)
        for cpu in ['gfx803', 'gfx900']
        for data in [[0x00, 0x00, 0x40, 0xd1, 0x00, 0x00, 0x00, 0x00],
                     [0x00, 0x00, 0x75, 0xd1, 0x00, 0x00, 0x00, 0x00]]
    ]),
    ('gfx6/gfx7: a float-looking constant of s_setreg_imm32_b32 prints in hex (llvm-mc-19 reads '
     '`1.0` there as the double and keeps its low 32 bits, 0)', [
        (cpu, stmt)
        for cpu in ['gfx600', 'gfx700']
        for stmt in ['s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 1), 0x3f800000',
                     's_setreg_imm32_b32 hwreg(HW_REG_MODE), 0xbe22f983',
                     's_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 1), -16']
    ] + [('gfx900', [0x01, 0x00, 0x00, 0xba, 0x00, 0x00, 0x80, 0x3f])]),
]


def run_mc(args, text):
    p = subprocess.run([MC, '-triple=amdgcn-amd-amdhsa'] + args, input=text,
                       capture_output=True, text=True)
    if 'error' in p.stderr or p.returncode != 0:
        sys.exit('llvm-mc %s failed on:\n%s\n%s' % (' '.join(args), text, p.stderr))
    return [l.strip() for l in p.stdout.split('\n')
            if l.strip() and not l.strip().startswith('.')]


def assemble(cpu, stmt):
    (line,) = run_mc(['-mcpu=' + cpu, '-show-encoding'], stmt + '\n')
    enc = line.split('; encoding:')[1]
    return [int(b, 16) for b in enc.strip().strip('[]').split(',')]


def disassemble(cpu, data):
    lines = run_mc(['-mcpu=' + cpu, '-disassemble'], ','.join('0x%02x' % b for b in data) + '\n')
    if len(lines) != 1:
        sys.exit('llvm-mc -disassemble %s: %r' % (cpu, lines))
    return lines[0]


def main():
    out = ['# Generated by tools/probe/targeted_vectors.py (llvm-mc-19); do not edit.']
    for comment, cases in GROUPS:
        out.append('# ' + comment)
        for cpu, case in cases:
            if isinstance(case, str):
                data, text = assemble(cpu, case), case
            else:
                data, text = case, None
            if not SI_CI.match(cpu):
                text = disassemble(cpu, data)
            text = re.sub(r'\s+', ' ', text)
            out.append('%s\t%s\t%s' % (cpu, ','.join('0x%02x' % b for b in data), text))
    with open(OUT, 'w') as f:
        f.write('\n'.join(out) + '\n')
    print('%s: %d vectors' % (OUT, sum(1 for l in out if not l.startswith('#'))))


if __name__ == '__main__':
    main()
