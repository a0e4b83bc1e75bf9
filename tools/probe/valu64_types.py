"""Operand types for VOP3-only / VOP3P rows, from the mnemonic and the operand widths LLVM printed."""
import re

NAT = {'f16': 16, 'bf16': 16, 'i16': 16, 'u16': 16, 'b16': 16, 'f32': 32, 'i32': 32, 'u32': 32, 'b32': 32,
       'f64': 64, 'i64': 64, 'u64': 64, 'b64': 64, 'u8': 8, 'i8': 8, 'u24': 24, 'i24': 24, 'u4': 4, 'i4': 4}
TYRE = re.compile(r'^(%s)$' % '|'.join(NAT))


def widen(t, nregs):
    bits = nregs * 32
    if t in ('u24', 'u8', 'u4'):
        t = 'u32'
    if t in ('i24', 'i8', 'i4'):
        t = 'i32'
    if NAT.get(t) == bits or (NAT.get(t) == 16 and nregs == 1):
        return t
    if bits == 64 and t in ('u32', 'i32', 'b32'):
        return t[0] + '64'
    if bits == 32 and t in ('u64', 'i64', 'b64'):
        return 'u32'
    if bits == 32 and t == 'f64':
        return 'i32'
    return 'b%d' % bits


def mfma_types(mn, ops):
    dt = mn.split('_')[2]  # f32 / i32 / f64
    m = re.search(r'(xf32|bf16|f16|f32|f64|i8|bf8|fp8)$', re.sub(r'_1k$', '', mn))
    st = m.group(1)
    res = {}
    for role, kind, n, tok in ops:
        if role in ('vdst', 'src2') and not mn.startswith('v_smfmac') or role == 'vdst':
            res[role] = dt if n * 32 == NAT[dt] else 'b%d' % (n * 32)
        elif role == 'src2':
            res[role] = 'u32'  # smfmac sparsity index
        else:
            if st in ('f32', 'f64') and n * 32 == NAT[st]:
                res[role] = st
            elif st == 'bf16' and n == 1:
                res[role] = 'v2bf16'
            else:
                res[role] = 'b%d' % (n * 32)
    return res


SPECIAL = {
    'v_cvt_pk_u8_f32': {'vdst': 'b32', 'src0': 'f32', 'src1': 'u32', 'src2': 'u32'},
    'v_cvt_pkaccum_u8_f32': {'vdst': 'b32', 'src0': 'f32', 'src1': 'u32'},
    'v_cvt_pknorm_i16_f32': {'vdst': 'v2i16', 'src0': 'f32', 'src1': 'f32'},
    'v_cvt_pknorm_u16_f32': {'vdst': 'v2u16', 'src0': 'f32', 'src1': 'f32'},
    'v_cvt_pknorm_i16_f16': {'vdst': 'v2i16', 'src0': 'f16', 'src1': 'f16'},
    'v_cvt_pknorm_u16_f16': {'vdst': 'v2u16', 'src0': 'f16', 'src1': 'f16'},
    'v_cvt_pkrtz_f16_f32': {'vdst': 'v2f16', 'src0': 'f32', 'src1': 'f32'},
    'v_cvt_pk_u16_u32': {'vdst': 'v2u16', 'src0': 'u32', 'src1': 'u32'},
    'v_cvt_pk_i16_i32': {'vdst': 'v2i16', 'src0': 'i32', 'src1': 'i32'},
    'v_pack_b32_f16': {'vdst': 'v2f16', 'src0': 'f16', 'src1': 'f16'},
    'v_cvt_pk_fp8_f32': {'vdst': 'b32', 'src0': 'f32', 'src1': 'f32'},
    'v_cvt_pk_bf8_f32': {'vdst': 'b32', 'src0': 'f32', 'src1': 'f32'},
    'v_cvt_sr_fp8_f32': {'vdst': 'b32', 'src0': 'f32', 'src1': 'u32'},
    'v_cvt_sr_bf8_f32': {'vdst': 'b32', 'src0': 'f32', 'src1': 'u32'},
    'v_readlane_b32': {'sdst': 'b32', 'src0': 'b32', 'src1': 'u32'},
    'v_writelane_b32': {'vdst': 'b32', 'src0': 'b32', 'src1': 'u32'},
    'v_mbcnt_lo_u32_b32': {'vdst': 'u32', 'src0': 'b32', 'src1': 'u32'},
    'v_mbcnt_hi_u32_b32': {'vdst': 'u32', 'src0': 'b32', 'src1': 'u32'},
    'v_bcnt_u32_b32': {'vdst': 'u32', 'src0': 'b32', 'src1': 'u32'},
    'v_bfm_b32': {'vdst': 'b32', 'src0': 'u32', 'src1': 'u32'},
    'v_ldexp_f32': {'vdst': 'f32', 'src0': 'f32', 'src1': 'i32'},
    'v_ldexp_f64': {'vdst': 'f64', 'src0': 'f64', 'src1': 'i32'},
    'v_trig_preop_f64': {'vdst': 'f64', 'src0': 'f64', 'src1': 'u32'},
    'v_sad_u16': {'vdst': 'u32', 'src0': 'u32', 'src1': 'u32', 'src2': 'u32'},
    'v_perm_b32': {'vdst': 'b32', 'src0': 'b32', 'src1': 'b32', 'src2': 'b32'},
    'v_mad_u32_u16': {'vdst': 'u32', 'src0': 'u16', 'src1': 'u16', 'src2': 'u32'},
    'v_mad_i32_i16': {'vdst': 'i32', 'src0': 'i16', 'src1': 'i16', 'src2': 'i32'},
}


def operand_types(mn, ops):
    """ops: [[role, kind, nregs, tok]] -> {role: type}"""
    base = mn[:-4] if mn.endswith('_e64') else mn
    if base.startswith(('v_mfma', 'v_smfmac')):
        return mfma_types(base, ops)
    if base in SPECIAL:
        return dict(SPECIAL[base])
    toks = base[2:].split('_')
    ts = [t for t in toks if TYRE.match(t)]
    if not ts:
        ts = ['b32']
    dt, st = ts[0], ts[-1]
    res = {}
    packed = base.startswith('v_pk_')
    dot = base.startswith('v_dot')
    mix = '_mix' in base
    interp = base.startswith('v_interp')
    for role, kind, n, tok in ops:
        if role is None:
            continue
        if role == 'sdst' and base.startswith(('v_div_scale', 'v_mad_u64', 'v_mad_i64')):
            res[role] = 'b64'
            continue
        if packed:
            t = st
            if t == 'b16':
                t = 'i16'
            if t == 'b32':
                res[role] = 'b%d' % (32 * n)
            elif NAT[t] == 16:
                res[role] = 'v2' + t
            else:
                res[role] = 'v2' + t if n == 2 else t
            continue
        if dot:
            if role in ('vdst', 'src2'):
                res[role] = dt
            else:
                res[role] = 'v2' + st if NAT[st] == 16 else 'b32'
            continue
        if mix:
            res[role] = ('f16' if base.endswith('f16') else 'f32') if role == 'vdst' else 'f32'
            continue
        if interp:
            if role == 'vdst':
                res[role] = 'f32' if ('_p1' in base or base.endswith('f32')) else 'f16'
            else:
                res[role] = 'f32'
            continue
        t = dt if role in ('vdst', 'sdst') else st
        if role == 'src2' and len(set(ts)) > 1 and base.startswith('v_mad_'):
            t = dt
        res[role] = widen(t, n)
    return res
