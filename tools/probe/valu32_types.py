"""Operand type inference for VOP1/VOP2/VOPC rows (from the mnemonic, checked against register widths)."""
import re

TOK = re.compile(r"_(f16|f32|f64|bf16|i16|i32|i64|u16|u32|u64|b16|b32|b64|i24|u24|i8|u8|i4|fp8|bf8)(?=_|$)")
NORM = {"i24": "i32", "u24": "u32", "i8": "b32", "u8": "b32", "i4": "b32", "fp8": "b32", "bf8": "b32"}

OVERRIDE = {
    # name: {role: type}
    "v_cmp_class_f16": {"src1": "u32"}, "v_cmpx_class_f16": {"src1": "u32"},
    "v_cmp_class_f32": {"src1": "u32"}, "v_cmpx_class_f32": {"src1": "u32"},
    "v_cmp_class_f64": {"src1": "u32"}, "v_cmpx_class_f64": {"src1": "u32"},
    "v_ldexp_f32": {"src1": "i32"}, "v_ldexp_f16": {"src1": "i16"},
    "v_cvt_pkaccum_u8_f32": {"vdst": "b32", "src0": "f32", "src1": "u32"},
    "v_cvt_pkrtz_f16_f32": {"vdst": "v2f16", "src0": "f32", "src1": "f32"},
    "v_cvt_pknorm_i16_f32": {"vdst": "v2i16", "src0": "f32", "src1": "f32"},
    "v_cvt_pknorm_u16_f32": {"vdst": "v2u16", "src0": "f32", "src1": "f32"},
    "v_cvt_pk_u16_u32": {"vdst": "v2u16", "src0": "u32", "src1": "u32"},
    "v_cvt_pk_i16_i32": {"vdst": "v2i16", "src0": "i32", "src1": "i32"},
    "v_bcnt_u32_b32": {"vdst": "u32", "src0": "b32", "src1": "u32"},
    "v_mbcnt_lo_u32_b32": {"vdst": "u32", "src0": "b32", "src1": "u32"},
    "v_mbcnt_hi_u32_b32": {"vdst": "u32", "src0": "b32", "src1": "u32"},
    "v_sat_pk_u8_i16": {"vdst": "b16", "src0": "v2i16"},
    "v_cvt_off_f32_i4": {"vdst": "f32", "src0": "b32"},
    "v_dot2c_f32_f16": {"vdst": "f32", "src0": "v2f16", "src1": "v2f16"},
    "v_dot2c_i32_i16": {"vdst": "i32", "src0": "v2i16", "src1": "v2i16"},
    "v_dot4c_i32_i8": {"vdst": "i32", "src0": "b32", "src1": "b32"},
    "v_dot8c_i32_i4": {"vdst": "i32", "src0": "b32", "src1": "b32"},
    "v_pk_fmac_f16": {"vdst": "v2f16", "src0": "v2f16", "src1": "v2f16"},
    "v_cvt_pk_f32_fp8": {"vdst": "v2f32", "src0": "b32"}, "v_cvt_pk_f32_bf8": {"vdst": "v2f32", "src0": "b32"},
    "v_cvt_f32_fp8": {"vdst": "f32", "src0": "b32"}, "v_cvt_f32_bf8": {"vdst": "f32", "src0": "b32"},
    "v_cvt_f32_ubyte0": {"src0": "u32"}, "v_cvt_f32_ubyte1": {"src0": "u32"},
    "v_cvt_f32_ubyte2": {"src0": "u32"}, "v_cvt_f32_ubyte3": {"src0": "u32"},
    "v_swap_b32": {"vdst": "b32", "src0": "b32"},
    "v_screen_partition_4se_b32": {"vdst": "b32", "src0": "b32"},
    "v_frexp_exp_i16_f16": {"vdst": "i16", "src0": "f16"},
    "v_readlane_b32": {"sdst": "b32", "src0": "b32", "src1": "u32"},
    "v_writelane_b32": {"vdst": "b32", "src0": "b32", "src1": "u32"},
}

def infer(name, roles):
    """roles: list of (role, nregs). Returns list of types."""
    toks = [NORM.get(t, t) for t in TOK.findall(name)]
    if not toks:  # v_cvt_f32_ubyte0 etc
        toks = ["f32", "u32"] if "ubyte" in name else ["b32"]
    dst = toks[0]
    src = toks[-1]
    ov = OVERRIDE.get(name, {})
    is_cmp = name.startswith("v_cmp")
    out = []
    for role, n in roles:
        if role in ov:
            t = ov[role]
        elif role == "sdst" and (is_cmp or n == 2) and not name.startswith("v_readfirstlane"):
            t = "b64"
        elif role == "src2" and name.startswith(("v_cndmask", "v_addc", "v_subb")):
            t = "b64"
        elif role in ("vdst", "sdst", "k"):
            t = src if role == "k" else (dst if not is_cmp else "b64")
        else:
            t = src
        if role == "src2" and name.startswith(("v_mac", "v_fmac", "v_pk_fmac", "v_dot")):
            t = ov.get("vdst", dst)
        bits = int(re.sub(r"\D", "", t)) if not t.startswith("v2") else int(re.sub(r"\D", "", t[3:])) * 2
        if (bits + 31) // 32 != n and role != "k":
            t = "b%d" % (32 * n)
        out.append(t)
    return out
