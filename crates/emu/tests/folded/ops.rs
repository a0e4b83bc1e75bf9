//! The operations and their operand tuples.

use crate::*;

// ---- operand sets ----------------------------------------------------------------------------

pub(crate) const U32S: [u64; 19] = [
    0,
    1,
    2,
    3,
    7,
    31,
    32,
    33,
    0x7f,
    0x80,
    0xffff,
    0x1_0000,
    0x1234_5678,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_fffe,
    0xffff_ffff,
    0xdead_beef,
];
pub(crate) const U64S: [u64; 20] = [
    0,
    1,
    2,
    3,
    10,
    31,
    63,
    64,
    65,
    0x8000_0000,
    0xffff_ffff,
    0x1_0000_0000,
    0x1_0000_0001,
    0x1234_5678_9abc_def0,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000_0000_0000,
    0x8000_0000_0000_0001,
    0xffff_fffe_ffff_ffff,
    0xffff_ffff_ffff_fffe,
    0xffff_ffff_ffff_ffff,
];
pub(crate) const F32S: [u64; 25] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x0000_0001, // smallest denormal
    0x807f_ffff, // -largest denormal
    0x0080_0000, // smallest normal
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3fc0_0000, // 1.5
    0x3f00_0000, // 0.5
    0x4040_0000, // 3
    0x3eaa_aaab, // 1/3
    0x7f7f_ffff, // max
    0xff7f_ffff, // -max
    0x7f80_0000, // inf
    0xff80_0000, // -inf
    0x7fc0_0000, // qNaN
    0xffc0_0000, // -qNaN
    0x7f80_0001, // sNaN
    0x7fc1_2345, // qNaN with payload
    0x4b00_0001, // 2^23 + 1
    0xc020_0000, // -2.5
    0x3eff_ffff, // 0.49999997
    0x5015_02f9, // 1e10
    0x3400_0000, // 2^-23
    0x1f80_0000, // 2^-64
];
pub(crate) const F64S: [u64; 25] = [
    0,
    0x8000_0000_0000_0000,
    1,
    0x800f_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x3ff8_0000_0000_0000,
    0x3fe0_0000_0000_0000,
    0x4008_0000_0000_0000,
    0x3fd5_5555_5555_5555,
    0x7fef_ffff_ffff_ffff,
    0xffef_ffff_ffff_ffff,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0xfff8_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0x7ff8_0000_0001_2345,
    0x4330_0000_0000_0001, // 2^52 + 1
    0xc004_0000_0000_0000, // -2.5
    0x3fdf_ffff_ffff_ffff, // 0.49999999999999994
    0x7e37_e43c_8800_759c, // 1e300
    0x3cb0_0000_0000_0000, // 2^-52
    0x01a5_6e1f_c2f8_f359, // 1e-300
];
pub(crate) const F16S: [u64; 23] = [
    0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x3e00, 0x3800, 0x4200, 0x3555, 0x7bff,
    0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7e12, 0x6401, 0xc100, 0x37ff, 0x1400,
];
/// Extra f32 values for rounding operations and conversions.
pub(crate) const F32_ROUNDING: [u64; 14] = [
    0x3f00_0001, // 0.50000006
    0xbf00_0000, // -0.5
    0x4020_0000, // 2.5
    0x4060_0000, // 3.5
    0x4b7f_ffff, // 2^24 - 1
    0xcb00_0001, // -(2^23 + 1)
    0x3f7f_ffff, // 0.99999994
    0xbf7f_ffff,
    0x4eff_ffff, // 2147483520
    0xcf00_0000, // -2^31
    0x4f7f_ffff, // 4294967040
    0x5eff_ffff, // just below 2^62
    0xdf00_0000, // -2^63
    0x5f7f_ffff, // just below 2^64
];
/// Extra f32 values around the f16 range and its rounding boundaries.
pub(crate) const F32_TO_F16: [u64; 10] = [
    0x477f_e000, // 65504
    0x477f_f000, // 65520: rounds to inf
    0x477f_efff,
    0x3380_0000, // 2^-24
    0x3300_0000, // 2^-25: tie to 0
    0x3300_0001,
    0x387f_c000, // 2^-14 - 2^-24
    0x3f80_1000, // 1 + 2^-11: tie to even
    0x3f80_3000, // tie up
    0x3f80_0fff,
];
pub(crate) const F64_EXTRA: [u64; 10] = [
    0x3fe0_0000_0000_0001,
    0xbfe0_0000_0000_0000,
    0x4004_0000_0000_0000, // 2.5
    0x41df_ffff_ffc0_0000, // 2^31 - 1
    0xc1e0_0000_0000_0000, // -2^31
    0x41ef_ffff_ffe0_0000, // 2^32 - 1
    0x43df_ffff_ffff_ffff, // just below 2^63
    0x43ef_ffff_ffff_ffff, // just below 2^64
    0x3ff0_0000_1000_0000, // 1 + 2^-24: tie to even in f32
    0x36a0_0000_0000_0000, // 2^-149
];

pub(crate) fn pairs(xs: &[u64], ys: &[u64]) -> Vec<Vec<u64>> {
    xs.iter()
        .flat_map(|&x| ys.iter().map(move |&y| vec![x, y]))
        .collect()
}
pub(crate) fn singles(xs: &[u64]) -> Vec<Vec<u64>> {
    xs.iter().map(|&x| vec![x]).collect()
}
pub(crate) fn triples(xs: &[u64], ys: &[u64], zs: &[u64]) -> Vec<Vec<u64>> {
    let mut v = Vec::new();
    for &x in xs {
        for &y in ys {
            for &z in zs {
                v.push(vec![x, y, z]);
            }
        }
    }
    v
}
pub(crate) fn cat(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut v = a.to_vec();
    v.extend_from_slice(b);
    v
}
pub(crate) fn sext32(v: u64) -> i64 {
    v as u32 as i32 as i64
}

/// The helpers the expressions use (static inline: they fold and inline like builtins).
pub(crate) const PRELUDE: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef unsigned int uint;
typedef unsigned long ulong;
typedef unsigned short ushort;
#define INL static inline __attribute__((always_inline))
INL float frexp_mf(float a) { int e; return __builtin_frexpf(a, &e); }
INL int frexp_ef(float a) { int e; (void)__builtin_frexpf(a, &e); return e; }
INL double frexp_md(double a) { int e; return __builtin_frexp(a, &e); }
INL int frexp_ed(double a) { int e; (void)__builtin_frexp(a, &e); return e; }
INL int add_sat_i32(int a, int b) {
  int r; return __builtin_add_overflow(a, b, &r) ? (a < 0 ? (int)0x80000000u : 0x7fffffff) : r;
}
INL int sub_sat_i32(int a, int b) {
  int r; return __builtin_sub_overflow(a, b, &r) ? (a < 0 ? (int)0x80000000u : 0x7fffffff) : r;
}
INL uint add_sat_u32(uint a, uint b) { uint r = a + b; return r < a ? 0xffffffffu : r; }
INL uint sub_sat_u32(uint a, uint b) { return a < b ? 0u : a - b; }
INL uint abs_i32(int a) { return a < 0 ? 0u - (uint)a : (uint)a; }
INL ulong abs_i64(long a) { return a < 0 ? 0ul - (ulong)a : (ulong)a; }
INL int uaddo64(ulong a, ulong b) { ulong r; return __builtin_add_overflow(a, b, &r); }
INL int saddo64(long a, long b) { long r; return __builtin_add_overflow(a, b, &r); }
INL int ssubo64(long a, long b) { long r; return __builtin_sub_overflow(a, b, &r); }
INL int umulo64(ulong a, ulong b) { ulong r; return __builtin_mul_overflow(a, b, &r); }
INL int smulo64(long a, long b) { long r; return __builtin_mul_overflow(a, b, &r); }
INL int umulo32(uint a, uint b) { uint r; return __builtin_mul_overflow(a, b, &r); }
INL int smulo32(int a, int b) { int r; return __builtin_mul_overflow(a, b, &r); }
INL uint pkrtz(float a, float b) { return __builtin_astype(__builtin_amdgcn_cvt_pkrtz(a, b), uint); }
typedef half half2_ __attribute__((ext_vector_type(2)));
INL half2_ h2(uint x) { return __builtin_astype(x, half2_); }
INL uint u2(half2_ x) { return __builtin_astype(x, uint); }
"#;

pub(crate) fn ops() -> Vec<Op> {
    use Ty::*;
    let mut v: Vec<Op> = Vec::new();
    let mut op = |name: &str, ret: Ty, args: &[Ty], expr: &str, cases: Vec<Vec<u64>>| {
        v.push(Op {
            name: name.to_string(),
            ret,
            args: args.to_vec(),
            expr: expr.to_string(),
            cases,
            targets: &TARGETS,
        });
    };
    let u32p = pairs(&U32S, &U32S);
    let u64p = pairs(&U64S, &U64S);
    let i32_min = 0x8000_0000u64;
    let i64_min = 0x8000_0000_0000_0000u64;
    let nonzero = |c: &Vec<u64>| c[1] != 0;

    // ---- 32-bit integers
    op("add_u32", U32, &[U32, U32], "a + b", u32p.clone());
    op("sub_u32", U32, &[U32, U32], "a - b", u32p.clone());
    op("mul_u32", U32, &[U32, U32], "a * b", u32p.clone());
    op(
        "mulhi_u32",
        U32,
        &[U32, U32],
        "(uint)(((ulong)a * (ulong)b) >> 32)",
        u32p.clone(),
    );
    op(
        "mulhi_i32",
        I32,
        &[I32, I32],
        "(int)(((long)a * (long)b) >> 32)",
        u32p.clone(),
    );
    op(
        "mul_u32_u64",
        U64,
        &[U32, U32],
        "(ulong)a * (ulong)b",
        u32p.clone(),
    );
    op(
        "mul_i32_i64",
        I64,
        &[I32, I32],
        "(long)a * (long)b",
        u32p.clone(),
    );
    op(
        "udiv_u32",
        U32,
        &[U32, U32],
        "a / b",
        u32p.iter().filter(|c| nonzero(c)).cloned().collect(),
    );
    op(
        "urem_u32",
        U32,
        &[U32, U32],
        "a % b",
        u32p.iter().filter(|c| nonzero(c)).cloned().collect(),
    );
    let sdiv_ok = |c: &&Vec<u64>| c[1] != 0 && !(c[0] == i32_min && c[1] == 0xffff_ffff);
    op(
        "sdiv_i32",
        I32,
        &[I32, I32],
        "a / b",
        u32p.iter().filter(sdiv_ok).cloned().collect(),
    );
    op(
        "srem_i32",
        I32,
        &[I32, I32],
        "a % b",
        u32p.iter().filter(sdiv_ok).cloned().collect(),
    );
    op("shl_u32", U32, &[U32, U32], "a << b", u32p.clone());
    op("lshr_u32", U32, &[U32, U32], "a >> b", u32p.clone());
    op("ashr_i32", I32, &[I32, U32], "a >> b", u32p.clone());
    op(
        "rotl_u32",
        U32,
        &[U32, U32],
        "__builtin_rotateleft32(a, b)",
        u32p.clone(),
    );
    op(
        "rotr_u32",
        U32,
        &[U32, U32],
        "__builtin_rotateright32(a, b)",
        u32p.clone(),
    );
    op(
        "clz_u32",
        U32,
        &[U32],
        "a ? (uint)__builtin_clz(a) : 32u",
        singles(&U32S),
    );
    op(
        "ctz_u32",
        U32,
        &[U32],
        "a ? (uint)__builtin_ctz(a) : 32u",
        singles(&U32S),
    );
    op(
        "popcount_u32",
        U32,
        &[U32],
        "(uint)__builtin_popcount(a)",
        singles(&U32S),
    );
    op(
        "bitreverse_u32",
        U32,
        &[U32],
        "__builtin_bitreverse32(a)",
        singles(&U32S),
    );
    op(
        "bswap_u32",
        U32,
        &[U32],
        "__builtin_bswap32(a)",
        singles(&U32S),
    );
    op("min_u32", U32, &[U32, U32], "a < b ? a : b", u32p.clone());
    op("max_i32", I32, &[I32, I32], "a > b ? a : b", u32p.clone());
    op("min_i32", I32, &[I32, I32], "a < b ? a : b", u32p.clone());
    op("abs_i32", U32, &[I32], "abs_i32(a)", singles(&U32S));
    op(
        "add_sat_u32",
        U32,
        &[U32, U32],
        "add_sat_u32(a, b)",
        u32p.clone(),
    );
    op(
        "sub_sat_u32",
        U32,
        &[U32, U32],
        "sub_sat_u32(a, b)",
        u32p.clone(),
    );
    op(
        "add_sat_i32",
        I32,
        &[I32, I32],
        "add_sat_i32(a, b)",
        u32p.clone(),
    );
    op(
        "sub_sat_i32",
        I32,
        &[I32, I32],
        "sub_sat_i32(a, b)",
        u32p.clone(),
    );
    let bfe_off = [0u64, 1, 4, 16, 31, 32, 35];
    let bfe_w = [0u64, 1, 8, 16, 31, 32, 33];
    let bfe_src = [0u64, 0x1234_5678, 0x8000_0001, 0xffff_ffff, 0xdead_beef];
    op(
        "ubfe",
        U32,
        &[U32, U32, U32],
        "__builtin_amdgcn_ubfe(a, b, c)",
        triples(&bfe_src, &bfe_off, &bfe_w),
    );
    op(
        "sbfe",
        I32,
        &[I32, U32, U32],
        "__builtin_amdgcn_sbfe(a, b, c)",
        triples(&bfe_src, &bfe_off, &bfe_w),
    );
    let ab = [0u64, 0x1234_5678, 0x8000_0001, 0xffff_ffff];
    op(
        "alignbit",
        U32,
        &[U32, U32, U32],
        "__builtin_amdgcn_alignbit(a, b, c)",
        triples(&ab, &ab, &[0, 1, 8, 31, 32, 33]),
    );
    op(
        "alignbyte",
        U32,
        &[U32, U32, U32],
        "__builtin_amdgcn_alignbyte(a, b, c)",
        triples(&ab, &ab, &[0, 1, 3, 4, 5]),
    );
    let sel = [
        0x0706_0504u64,
        0x0c0c_0c0c,
        0x0001_0203,
        0x0b0a_0908,
        0x0d0e_0f0c,
        0x0c0d_0e08,
    ];
    op(
        "perm",
        U32,
        &[U32, U32, U32],
        "__builtin_amdgcn_perm(a, b, c)",
        triples(
            &[0x8081_8283, 0x0102_0304],
            &[0xf0e0_d0c0, 0x7f00_ff80],
            &sel,
        ),
    );

    // ---- 64-bit integers
    op("add_u64", U64, &[U64, U64], "a + b", u64p.clone());
    op("sub_u64", U64, &[U64, U64], "a - b", u64p.clone());
    op("mul_u64", U64, &[U64, U64], "a * b", u64p.clone());
    op(
        "udiv_u64",
        U64,
        &[U64, U64],
        "a / b",
        u64p.iter().filter(|c| nonzero(c)).cloned().collect(),
    );
    op(
        "urem_u64",
        U64,
        &[U64, U64],
        "a % b",
        u64p.iter().filter(|c| nonzero(c)).cloned().collect(),
    );
    let sdiv64_ok = |c: &&Vec<u64>| c[1] != 0 && !(c[0] == i64_min && c[1] == u64::MAX);
    op(
        "sdiv_i64",
        I64,
        &[I64, I64],
        "a / b",
        u64p.iter().filter(sdiv64_ok).cloned().collect(),
    );
    op(
        "srem_i64",
        I64,
        &[I64, I64],
        "a % b",
        u64p.iter().filter(sdiv64_ok).cloned().collect(),
    );
    op("shl_u64", U64, &[U64, U64], "a << b", u64p.clone());
    op("lshr_u64", U64, &[U64, U64], "a >> b", u64p.clone());
    op("ashr_i64", I64, &[I64, U64], "a >> b", u64p.clone());
    op(
        "clz_u64",
        U64,
        &[U64],
        "a ? (ulong)__builtin_clzl(a) : 64ul",
        singles(&U64S),
    );
    op(
        "ctz_u64",
        U64,
        &[U64],
        "a ? (ulong)__builtin_ctzl(a) : 64ul",
        singles(&U64S),
    );
    op(
        "popcount_u64",
        U64,
        &[U64],
        "(ulong)__builtin_popcountl(a)",
        singles(&U64S),
    );
    op(
        "bitreverse_u64",
        U64,
        &[U64],
        "__builtin_bitreverse64(a)",
        singles(&U64S),
    );
    op(
        "bswap_u64",
        U64,
        &[U64],
        "__builtin_bswap64(a)",
        singles(&U64S),
    );
    op("min_i64", I64, &[I64, I64], "a < b ? a : b", u64p.clone());
    op("max_u64", U64, &[U64, U64], "a > b ? a : b", u64p.clone());
    op("abs_i64", U64, &[I64], "abs_i64(a)", singles(&U64S));
    op(
        "mulhi_u64",
        U64,
        &[U64, U64],
        "(ulong)(((unsigned __int128)a * b) >> 64)",
        u64p.clone(),
    );
    op(
        "mulhi_i64",
        I64,
        &[I64, I64],
        "(long)(((__int128)a * b) >> 64)",
        u64p.clone(),
    );
    op("uaddo_u64", I32, &[U64, U64], "uaddo64(a, b)", u64p.clone());
    op("saddo_i64", I32, &[I64, I64], "saddo64(a, b)", u64p.clone());
    op("ssubo_i64", I32, &[I64, I64], "ssubo64(a, b)", u64p.clone());
    op("umulo_u64", I32, &[U64, U64], "umulo64(a, b)", u64p.clone());
    op("smulo_i64", I32, &[I64, I64], "smulo64(a, b)", u64p.clone());
    op("umulo_u32", I32, &[U32, U32], "umulo32(a, b)", u32p.clone());
    op("smulo_i32", I32, &[I32, I32], "smulo32(a, b)", u32p.clone());

    // ---- f32
    let f32p = pairs(&F32S, &F32S);
    let f32r = cat(&F32S, &F32_ROUNDING);
    op("fadd_f32", F32, &[F32, F32], "a + b", f32p.clone());
    op("fsub_f32", F32, &[F32, F32], "a - b", f32p.clone());
    op("fmul_f32", F32, &[F32, F32], "a * b", f32p.clone());
    op("fdiv_f32", F32, &[F32, F32], "a / b", f32p.clone());
    let f3: Vec<u64> = [0usize, 1, 2, 5, 6, 10, 11, 13, 15, 17, 23]
        .iter()
        .map(|&i| F32S[i])
        .collect();
    op(
        "fma_f32",
        F32,
        &[F32, F32, F32],
        "__builtin_fmaf(a, b, c)",
        triples(&f3, &f3, &f3),
    );
    op(
        "sqrt_f32",
        F32,
        &[F32],
        "__builtin_sqrtf(a)",
        singles(&f32r),
    );
    op(
        "fmin_f32",
        F32,
        &[F32, F32],
        "__builtin_fminf(a, b)",
        f32p.clone(),
    );
    op(
        "fmax_f32",
        F32,
        &[F32, F32],
        "__builtin_fmaxf(a, b)",
        f32p.clone(),
    );
    op(
        "floor_f32",
        F32,
        &[F32],
        "__builtin_floorf(a)",
        singles(&f32r),
    );
    op(
        "ceil_f32",
        F32,
        &[F32],
        "__builtin_ceilf(a)",
        singles(&f32r),
    );
    op(
        "trunc_f32",
        F32,
        &[F32],
        "__builtin_truncf(a)",
        singles(&f32r),
    );
    op(
        "rint_f32",
        F32,
        &[F32],
        "__builtin_rintf(a)",
        singles(&f32r),
    );
    op(
        "round_f32",
        F32,
        &[F32],
        "__builtin_roundf(a)",
        singles(&f32r),
    );
    op(
        "fabs_f32",
        F32,
        &[F32],
        "__builtin_fabsf(a)",
        singles(&F32S),
    );
    op(
        "copysign_f32",
        F32,
        &[F32, F32],
        "__builtin_copysignf(a, b)",
        f32p.clone(),
    );
    let exps = [
        0u64,
        1,
        2,
        0xffff_ffff,
        23,
        0xffff_ff6b, /* -149 */
        127,
        128,
        149,
        254,
        0xffff_ff00, /* -256 */
        0x7fff_ffff,
        0x8000_0000,
    ];
    op(
        "ldexp_f32",
        F32,
        &[F32, I32],
        "__builtin_ldexpf(a, b)",
        pairs(&F32S, &exps),
    );
    op("frexp_mant_f32", F32, &[F32], "frexp_mf(a)", singles(&F32S));
    op("frexp_exp_f32", I32, &[F32], "frexp_ef(a)", singles(&F32S));
    op(
        "amdgcn_fract_f32",
        F32,
        &[F32],
        "__builtin_amdgcn_fractf(a)",
        singles(&f32r),
    );
    op(
        "amdgcn_frexp_mant_f32",
        F32,
        &[F32],
        "__builtin_amdgcn_frexp_mantf(a)",
        singles(&F32S),
    );
    op(
        "amdgcn_frexp_exp_f32",
        I32,
        &[F32],
        "__builtin_amdgcn_frexp_expf(a)",
        singles(&F32S),
    );
    op(
        "amdgcn_ldexp_f32",
        F32,
        &[F32, I32],
        "__builtin_amdgcn_ldexpf(a, b)",
        pairs(&F32S, &exps),
    );
    let masks = [
        0x3ffu64, 0x001, 0x002, 0x003, 0x004, 0x008, 0x010, 0x020, 0x040, 0x080, 0x100, 0x200,
        0x090,
    ];
    op(
        "amdgcn_class_f32",
        I32,
        &[F32, U32],
        "__builtin_amdgcn_classf(a, b)",
        pairs(&F32S, &masks),
    );
    op(
        "amdgcn_fmed3_f32",
        F32,
        &[F32, F32, F32],
        "__builtin_amdgcn_fmed3f(a, b, c)",
        triples(&f3, &f3, &f3),
    );
    let cube: Vec<u64> = [0usize, 1, 5, 6, 7, 9, 11, 13, 15]
        .iter()
        .map(|&i| F32S[i])
        .collect();
    for (n, f) in [
        ("cubeid", "cubeid"),
        ("cubesc", "cubesc"),
        ("cubetc", "cubetc"),
        ("cubema", "cubema"),
    ] {
        op(
            &format!("amdgcn_{n}"),
            F32,
            &[F32, F32, F32],
            &format!("__builtin_amdgcn_{f}(a, b, c)"),
            triples(&cube, &cube, &cube),
        );
    }
    // LLVM folds amdgcn.sin/cos exactly only at quarter-revolution inputs (other inputs use the
    // host's libm); only those are in the table.
    let quarters = [
        0u64,
        0x8000_0000,
        0x3e80_0000,
        0x3f00_0000,
        0x3f40_0000,
        0x3f80_0000,
        0xbe80_0000,
        0xbf00_0000,
        0xbf40_0000,
        0x4020_0000,
        0x42c8_0000,
        0xc2c8_0000,
    ];
    op(
        "amdgcn_sin_f32",
        F32,
        &[F32],
        "__builtin_amdgcn_sinf(a)",
        singles(&quarters),
    );
    op(
        "amdgcn_cos_f32",
        F32,
        &[F32],
        "__builtin_amdgcn_cosf(a)",
        singles(&quarters),
    );
    op(
        "amdgcn_rcp_f32",
        F32,
        &[F32],
        "__builtin_amdgcn_rcpf(a)",
        singles(&F32S),
    );
    op(
        "cvt_pkrtz",
        U32,
        &[F32, F32],
        "pkrtz(a, b)",
        pairs(
            &cat(&F32S, &F32_TO_F16),
            &[0, 0x3f80_0000, 0x7fc0_0000, 0x477f_f000],
        ),
    );

    // ---- f64
    let f64p = pairs(&F64S, &F64S);
    let f64r = cat(&F64S, &F64_EXTRA);
    op("fadd_f64", F64, &[F64, F64], "a + b", f64p.clone());
    op("fsub_f64", F64, &[F64, F64], "a - b", f64p.clone());
    op("fmul_f64", F64, &[F64, F64], "a * b", f64p.clone());
    op("fdiv_f64", F64, &[F64, F64], "a / b", f64p.clone());
    let d3: Vec<u64> = [0usize, 1, 2, 5, 6, 10, 11, 13, 15, 17, 23]
        .iter()
        .map(|&i| F64S[i])
        .collect();
    op(
        "fma_f64",
        F64,
        &[F64, F64, F64],
        "__builtin_fma(a, b, c)",
        triples(&d3, &d3, &d3),
    );
    op("sqrt_f64", F64, &[F64], "__builtin_sqrt(a)", singles(&f64r));
    op(
        "fmin_f64",
        F64,
        &[F64, F64],
        "__builtin_fmin(a, b)",
        f64p.clone(),
    );
    op(
        "fmax_f64",
        F64,
        &[F64, F64],
        "__builtin_fmax(a, b)",
        f64p.clone(),
    );
    op(
        "floor_f64",
        F64,
        &[F64],
        "__builtin_floor(a)",
        singles(&f64r),
    );
    op("ceil_f64", F64, &[F64], "__builtin_ceil(a)", singles(&f64r));
    op(
        "trunc_f64",
        F64,
        &[F64],
        "__builtin_trunc(a)",
        singles(&f64r),
    );
    op("rint_f64", F64, &[F64], "__builtin_rint(a)", singles(&f64r));
    op(
        "round_f64",
        F64,
        &[F64],
        "__builtin_round(a)",
        singles(&f64r),
    );
    op("fabs_f64", F64, &[F64], "__builtin_fabs(a)", singles(&F64S));
    op(
        "copysign_f64",
        F64,
        &[F64, F64],
        "__builtin_copysign(a, b)",
        f64p.clone(),
    );
    let dexps = [
        0u64,
        1,
        0xffff_ffff,
        52,
        0xffff_fbce, /* -1074 */
        1023,
        1024,
        1074,
        2046,
        0xffff_f800,
        0x7fff_ffff,
        0x8000_0000,
    ];
    op(
        "ldexp_f64",
        F64,
        &[F64, I32],
        "__builtin_ldexp(a, b)",
        pairs(&F64S, &dexps),
    );
    op("frexp_mant_f64", F64, &[F64], "frexp_md(a)", singles(&F64S));
    op("frexp_exp_f64", I32, &[F64], "frexp_ed(a)", singles(&F64S));
    op(
        "amdgcn_fract_f64",
        F64,
        &[F64],
        "__builtin_amdgcn_fract(a)",
        singles(&f64r),
    );
    op(
        "amdgcn_frexp_mant_f64",
        F64,
        &[F64],
        "__builtin_amdgcn_frexp_mant(a)",
        singles(&F64S),
    );
    op(
        "amdgcn_frexp_exp_f64",
        I32,
        &[F64],
        "__builtin_amdgcn_frexp_exp(a)",
        singles(&F64S),
    );
    op(
        "amdgcn_class_f64",
        I32,
        &[F64, U32],
        "__builtin_amdgcn_class(a, b)",
        pairs(&F64S, &masks),
    );

    // ---- f16 (arithmetic on gfx6/7 is promoted to f32 and rounded back by LLVM)
    let f16p = pairs(&F16S, &F16S);
    op("fadd_f16", F16, &[F16, F16], "a + b", f16p.clone());
    op("fsub_f16", F16, &[F16, F16], "a - b", f16p.clone());
    op("fmul_f16", F16, &[F16, F16], "a * b", f16p.clone());
    op("fdiv_f16", F16, &[F16, F16], "a / b", f16p.clone());
    let h3: Vec<u64> = [0usize, 1, 2, 5, 6, 10, 11, 13, 15, 17, 22]
        .iter()
        .map(|&i| F16S[i])
        .collect();
    op(
        "fma_f16",
        F16,
        &[F16, F16, F16],
        "__builtin_fmaf16(a, b, c)",
        triples(&h3, &h3, &h3),
    );
    op(
        "sqrt_f16",
        F16,
        &[F16],
        "__builtin_sqrtf16(a)",
        singles(&F16S),
    );
    op(
        "fmin_f16",
        F16,
        &[F16, F16],
        "__builtin_fminf16(a, b)",
        f16p.clone(),
    );
    op(
        "fmax_f16",
        F16,
        &[F16, F16],
        "__builtin_fmaxf16(a, b)",
        f16p.clone(),
    );
    op(
        "floor_f16",
        F16,
        &[F16],
        "__builtin_floorf16(a)",
        singles(&F16S),
    );
    op(
        "ceil_f16",
        F16,
        &[F16],
        "__builtin_ceilf16(a)",
        singles(&F16S),
    );
    op(
        "trunc_f16",
        F16,
        &[F16],
        "__builtin_truncf16(a)",
        singles(&F16S),
    );
    op(
        "rint_f16",
        F16,
        &[F16],
        "__builtin_rintf16(a)",
        singles(&F16S),
    );
    op(
        "round_f16",
        F16,
        &[F16],
        "__builtin_roundf16(a)",
        singles(&F16S),
    );
    op(
        "copysign_f16",
        F16,
        &[F16, F16],
        "__builtin_copysignf16(a, b)",
        f16p.clone(),
    );

    // ---- conversions (float to integer only where the truncated value is in range: C UB else)
    let in_range = |t: Ty, lo: f64, hi: f64| {
        move |c: &Vec<u64>| {
            let x = fval(t, c[0]).trunc();
            !x.is_nan() && x >= lo && x < hi
        }
    };
    let f32c = cat(&f32r, &F32_TO_F16);
    let f64c = f64r.clone();
    let sing = |xs: &[u64], keep: &dyn Fn(&Vec<u64>) -> bool| -> Vec<Vec<u64>> {
        singles(xs).into_iter().filter(|c| keep(c)).collect()
    };
    let p31 = 2f64.powi(31);
    let p32 = 2f64.powi(32);
    let p63 = 2f64.powi(63);
    let p64 = 2f64.powi(64);
    op(
        "f32_to_i32",
        I32,
        &[F32],
        "(int)a",
        sing(&f32c, &in_range(F32, -p31, p31)),
    );
    op(
        "f32_to_u32",
        U32,
        &[F32],
        "(uint)a",
        sing(&f32c, &in_range(F32, 0.0, p32)),
    );
    op(
        "f32_to_i64",
        I64,
        &[F32],
        "(long)a",
        sing(&f32c, &in_range(F32, -p63, p63)),
    );
    op(
        "f32_to_u64",
        U64,
        &[F32],
        "(ulong)a",
        sing(&f32c, &in_range(F32, 0.0, p64)),
    );
    op(
        "f64_to_i32",
        I32,
        &[F64],
        "(int)a",
        sing(&f64c, &in_range(F64, -p31, p31)),
    );
    op(
        "f64_to_u32",
        U32,
        &[F64],
        "(uint)a",
        sing(&f64c, &in_range(F64, 0.0, p32)),
    );
    op(
        "f64_to_i64",
        I64,
        &[F64],
        "(long)a",
        sing(&f64c, &in_range(F64, -p63, p63)),
    );
    op(
        "f64_to_u64",
        U64,
        &[F64],
        "(ulong)a",
        sing(&f64c, &in_range(F64, 0.0, p64)),
    );
    op(
        "f16_to_i32",
        I32,
        &[F16],
        "(int)a",
        sing(&F16S, &in_range(F16, -p31, p31)),
    );
    let ints32 = cat(
        &U32S,
        &[
            0x0100_0001,
            0x7fff_ffc0,
            0x7fff_ffbf,
            0x8000_0040,
            0xff00_0001,
        ],
    );
    let ints64 = cat(
        &U64S,
        &[
            0x0020_0000_0000_0001,
            0x7fff_ffff_ffff_fc00,
            0x7fff_ffff_ffff_fbff,
            0x0000_0000_0100_0001,
            0x8000_0080_0000_0001,
            0xffff_ff7f_ffff_ffff,
        ],
    );
    op("i32_to_f32", F32, &[I32], "(float)a", singles(&ints32));
    op("u32_to_f32", F32, &[U32], "(float)a", singles(&ints32));
    op("i64_to_f32", F32, &[I64], "(float)a", singles(&ints64));
    op("u64_to_f32", F32, &[U64], "(float)a", singles(&ints64));
    op("i32_to_f64", F64, &[I32], "(double)a", singles(&ints32));
    op("u32_to_f64", F64, &[U32], "(double)a", singles(&ints32));
    op("i64_to_f64", F64, &[I64], "(double)a", singles(&ints64));
    op("u64_to_f64", F64, &[U64], "(double)a", singles(&ints64));
    op("i32_to_f16", F16, &[I32], "(half)a", singles(&ints32));
    op("f32_to_f64", F64, &[F32], "(double)a", singles(&f32c));
    op("f64_to_f32", F32, &[F64], "(float)a", singles(&f64c));
    op("f32_to_f16", F16, &[F32], "(half)a", singles(&f32c));
    op("f16_to_f32", F32, &[F16], "(float)a", singles(&F16S));
    op(
        "f64_to_f16",
        F16,
        &[F64],
        "(half)a",
        singles(&cat(
            &f64c,
            &[
                0x40ef_fc00_0000_0000,
                0x40ef_fe00_0000_0000,
                0x3e70_0000_0000_0000,
                0x3e60_0000_0000_0001,
            ],
        )),
    );
    op("f16_to_f64", F64, &[F16], "(double)a", singles(&F16S));
    let _ = sext32;

    // ---- 16-bit integers (16-bit instructions on gfx8+, promoted to 32 bits on gfx6/7)
    let u16s = [
        0u64, 1, 2, 15, 16, 17, 0x7f, 0xff, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x1234,
    ];
    let u16p = pairs(&u16s, &u16s);
    op("add_u16", U16, &[U16, U16], "(ushort)(a + b)", u16p.clone());
    op("sub_u16", U16, &[U16, U16], "(ushort)(a - b)", u16p.clone());
    op("mul_u16", U16, &[U16, U16], "(ushort)(a * b)", u16p.clone());
    op(
        "shl_u16",
        U16,
        &[U16, U16],
        "(ushort)(a << b)",
        u16p.clone(),
    );
    op(
        "lshr_u16",
        U16,
        &[U16, U16],
        "(ushort)(a >> b)",
        u16p.clone(),
    );
    op(
        "ashr_i16",
        I16,
        &[I16, U16],
        "(short)(a >> b)",
        u16p.clone(),
    );
    op("min_i16", I16, &[I16, I16], "a < b ? a : b", u16p.clone());
    op("max_u16", U16, &[U16, U16], "a > b ? a : b", u16p.clone());
    op(
        "udiv_u16",
        U16,
        &[U16, U16],
        "(ushort)(a / b)",
        u16p.iter().filter(|c| nonzero(c)).cloned().collect(),
    );
    op(
        "srem_i16",
        I16,
        &[I16, I16],
        "(short)(a % b)",
        u16p.iter().filter(|c| nonzero(c)).cloned().collect(),
    );
    op("i16_to_f16", F16, &[I16], "(half)a", singles(&u16s));
    op("u16_to_f32", F32, &[U16], "(float)a", singles(&u16s));
    op(
        "f16_to_u16",
        U16,
        &[F16],
        "(ushort)a",
        sing(&F16S, &in_range(F16, 0.0, 65536.0)),
    );
    op(
        "f16_to_i16",
        I16,
        &[F16],
        "(short)a",
        sing(&F16S, &in_range(F16, -32768.0, 32768.0)),
    );
    op(
        "f32_to_i16",
        I16,
        &[F32],
        "(short)a",
        sing(&f32c, &in_range(F32, -32768.0, 32768.0)),
    );

    // ---- 24-bit multiplies (v_mul_u32_u24, v_mul_hi_u32_u24, v_mul_i32_i24)
    op(
        "mul_u24",
        U32,
        &[U32, U32],
        "(a & 0xffffffu) * (b & 0xffffffu)",
        u32p.clone(),
    );
    op(
        "mulhi_u24",
        U32,
        &[U32, U32],
        "(uint)(((ulong)(a & 0xffffffu) * (ulong)(b & 0xffffffu)) >> 32)",
        u32p.clone(),
    );
    op(
        "mul_i24",
        I32,
        &[I32, I32],
        "((a << 8) >> 8) * ((b << 8) >> 8)",
        u32p.clone(),
    );
    op(
        "mad_u64_u32",
        U64,
        &[U32, U32, U64],
        "(ulong)a * (ulong)b + c",
        triples(
            &[0, 1, 0xffff_ffff, 0x8000_0001, 0x1234_5678],
            &[0, 3, 0xffff_ffff, 0xdead_beef],
            &[
                0,
                1,
                0xffff_ffff,
                0xffff_ffff_ffff_ffff,
                0x8000_0000_0000_0000,
            ],
        ),
    );

    // ---- comparisons and classification (v_cmp_*, v_cmp_class_*, their NaN rules)
    for (t, vals) in [
        (F16, F16S.to_vec()),
        (F32, F32S.to_vec()),
        (F64, F64S.to_vec()),
    ] {
        let sfx = match t {
            F16 => "f16",
            F32 => "f32",
            _ => "f64",
        };
        let pv = pairs(&vals, &vals);
        for (n, e) in [
            ("eq", "a == b"),
            ("ne", "a != b"),
            ("lt", "a < b"),
            ("le", "a <= b"),
            ("gt", "a > b"),
            ("ge", "a >= b"),
            ("unord", "__builtin_isunordered(a, b)"),
            ("lg", "__builtin_islessgreater(a, b)"),
        ] {
            op(
                &format!("cmp_{n}_{sfx}"),
                I32,
                &[t, t],
                &format!("(int)({e})"),
                pv.clone(),
            );
        }
        for (n, e) in [
            ("isnan", "__builtin_isnan(a)"),
            ("isinf", "__builtin_isinf(a)"),
            ("isfinite", "__builtin_isfinite(a)"),
            ("isnormal", "__builtin_isnormal(a)"),
            ("signbit", "__builtin_signbit(a)"),
        ] {
            op(
                &format!("{n}_{sfx}"),
                I32,
                &[t],
                &format!("(int)({e} != 0)"),
                singles(&vals),
            );
        }
    }
    op("cmp_lt_i32", I32, &[I32, I32], "(int)(a < b)", u32p.clone());
    op(
        "cmp_ge_u32",
        I32,
        &[U32, U32],
        "(int)(a >= b)",
        u32p.clone(),
    );
    op("cmp_lt_i64", I32, &[I64, I64], "(int)(a < b)", u64p.clone());
    op("cmp_gt_u64", I32, &[U64, U64], "(int)(a > b)", u64p.clone());
    op(
        "cmp_eq_u64",
        I32,
        &[U64, U64],
        "(int)(a == b)",
        u64p.clone(),
    );
    op(
        "clrsb_i32",
        I32,
        &[I32],
        "__builtin_clrsb(a)",
        singles(&U32S),
    );
    op("ffs_i32", I32, &[I32], "__builtin_ffs(a)", singles(&U32S));
    op(
        "parity_u32",
        I32,
        &[U32],
        "__builtin_parity(a)",
        singles(&U32S),
    );
    op(
        "clrsb_i64",
        I32,
        &[I64],
        "__builtin_clrsbl(a)",
        singles(&U64S),
    );
    op("u64_to_f16", F16, &[U64], "(half)a", singles(&ints64));
    op(
        "f16_to_i64",
        I64,
        &[F16],
        "(long)a",
        sing(&F16S, &in_range(F16, -p63, p63)),
    );

    // ---- more f64 AMDGPU builtins
    op(
        "amdgcn_rcp_f64",
        F64,
        &[F64],
        "__builtin_amdgcn_rcp(a)",
        singles(&f64r),
    );
    op(
        "amdgcn_ldexp_f64",
        F64,
        &[F64, I32],
        "__builtin_amdgcn_ldexp(a, b)",
        pairs(&F64S, &dexps),
    );
    op(
        "amdgcn_trig_preop",
        F64,
        &[F64, U32],
        "__builtin_amdgcn_trig_preop(a, b)",
        pairs(&f64r, &[0, 1, 2, 3, 7, 15, 21, 22, 31, 32]),
    );

    // ---- packed f16 (v_pk_* on gfx9+; two f16 operations elsewhere)
    let hl: Vec<u64> = [0usize, 1, 2, 5, 6, 11, 13, 14, 15, 17, 22]
        .iter()
        .map(|&i| F16S[i])
        .collect();
    let packed: Vec<u64> = hl
        .iter()
        .zip(hl.iter().rev())
        .map(|(&lo, &hi)| lo | hi << 16)
        .chain(hl.iter().map(|&x| x | x << 16))
        .collect();
    let pp = pairs(&packed, &packed);
    op(
        "pk_add_f16",
        U32,
        &[U32, U32],
        "u2(h2(a) + h2(b))",
        pp.clone(),
    );
    op(
        "pk_mul_f16",
        U32,
        &[U32, U32],
        "u2(h2(a) * h2(b))",
        pp.clone(),
    );
    op(
        "pk_sub_f16",
        U32,
        &[U32, U32],
        "u2(h2(a) - h2(b))",
        pp.clone(),
    );
    op(
        "pk_fma_f16",
        U32,
        &[U32, U32, U32],
        "u2(__builtin_elementwise_fma(h2(a), h2(b), h2(c)))",
        triples(&packed[..8], &packed[..8], &packed[..8]),
    );
    op(
        "pk_min_f16",
        U32,
        &[U32, U32],
        "u2(__builtin_elementwise_min(h2(a), h2(b)))",
        pp.clone(),
    );
    op(
        "pk_max_f16",
        U32,
        &[U32, U32],
        "u2(__builtin_elementwise_max(h2(a), h2(b)))",
        pp.clone(),
    );

    // ---- f16 AMDGPU builtins (16-bit instructions: gfx8+; fmed3h: gfx9+)
    let mut op16 = |name: &str,
                    ret: Ty,
                    args: &[Ty],
                    expr: &str,
                    cases: Vec<Vec<u64>>,
                    targets: &'static [&'static str]| {
        v.push(Op {
            name: name.to_string(),
            ret,
            args: args.to_vec(),
            expr: expr.to_string(),
            cases,
            targets,
        });
    };
    op16(
        "amdgcn_fract_f16",
        F16,
        &[F16],
        "__builtin_amdgcn_fracth(a)",
        singles(&F16S),
        &GFX8PLUS,
    );
    op16(
        "amdgcn_frexp_mant_f16",
        F16,
        &[F16],
        "__builtin_amdgcn_frexp_manth(a)",
        singles(&F16S),
        &GFX8PLUS,
    );
    op16(
        "amdgcn_frexp_exp_f16",
        I32,
        &[F16],
        "(int)__builtin_amdgcn_frexp_exph(a)",
        singles(&F16S),
        &GFX8PLUS,
    );
    let hexps = [
        0u64,
        1,
        0xffff_ffff,
        10,
        0xffff_ffe8, /* -24 */
        15,
        16,
        29,
        30,
        0x7fff_ffff,
        0x8000_0000,
    ];
    op16(
        "amdgcn_ldexp_f16",
        F16,
        &[F16, I32],
        "__builtin_amdgcn_ldexph(a, b)",
        pairs(&F16S, &hexps),
        &GFX8PLUS,
    );
    op16(
        "amdgcn_class_f16",
        I32,
        &[F16, U32],
        "__builtin_amdgcn_classh(a, b)",
        pairs(&F16S, &masks),
        &GFX8PLUS,
    );
    op16(
        "amdgcn_fmed3_f16",
        F16,
        &[F16, F16, F16],
        "__builtin_amdgcn_fmed3h(a, b, c)",
        triples(&h3, &h3, &h3),
        &GFX9PLUS,
    );
    add_random_cases(&mut v);
    // v_perm_b32 arrived with gfx8.
    for o in v.iter_mut().filter(|o| o.name == "perm") {
        o.targets = &GFX8PLUS;
    }
    v
}

/// Operations that also get [`RANDOM_CASES`] pseudo-random operand tuples (a fixed xorshift
/// sequence, so every run compares the same cases): the multi-instruction expansions, where
/// edge values alone reach few of the paths.
pub(crate) const RANDOM_OPS: [&str; 46] = [
    "udiv_u32",
    "urem_u32",
    "sdiv_i32",
    "srem_i32",
    "udiv_u64",
    "urem_u64",
    "sdiv_i64",
    "srem_i64",
    "mul_u64",
    "mulhi_u64",
    "mulhi_i64",
    "fadd_f32",
    "fsub_f32",
    "fmul_f32",
    "fdiv_f32",
    "fma_f32",
    "sqrt_f32",
    "fadd_f64",
    "fmul_f64",
    "fdiv_f64",
    "fma_f64",
    "sqrt_f64",
    "fadd_f16",
    "fmul_f16",
    "fdiv_f16",
    "fma_f16",
    "sqrt_f16",
    "f64_to_f32",
    "f32_to_f16",
    "f64_to_f16",
    "u64_to_f32",
    "i64_to_f32",
    "u64_to_f64",
    "i64_to_f64",
    "u32_to_f32",
    "i32_to_f32",
    "amdgcn_rcp_f64",
    "amdgcn_fract_f32",
    "amdgcn_fract_f64",
    "amdgcn_trig_preop",
    "pk_add_f16",
    "pk_fma_f16",
    "cvt_pkrtz",
    "rint_f32",
    "floor_f64",
    "round_f64",
];
pub(crate) const RANDOM_CASES: usize = 128;

pub(crate) fn add_random_cases(ops: &mut [Op]) {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for op in ops
        .iter_mut()
        .filter(|o| RANDOM_OPS.contains(&o.name.as_str()))
    {
        let mut added = 0;
        while added < RANDOM_CASES {
            let case: Vec<u64> = op
                .args
                .iter()
                .map(|&t| {
                    let r = next();
                    let k = next();
                    match t {
                        // random magnitudes: shifted right by a random amount
                        Ty::U32 | Ty::I32 => {
                            ((r as u32) >> (k % 32)) as u64
                                ^ if k & 64 != 0 { 0xffff_ffff } else { 0 }
                        }
                        Ty::U64 | Ty::I64 => {
                            (r >> (k % 64)) ^ if k & 128 != 0 { u64::MAX } else { 0 }
                        }
                        Ty::U16 | Ty::I16 | Ty::F16 => r & 0xffff,
                        // half of the floats with any bits, half with moderate exponents
                        Ty::F32 if k & 1 == 0 => r & 0xffff_ffff,
                        Ty::F32 => (r & 0x807f_ffff) | ((127 - 40 + (k >> 1) % 80) << 23),
                        Ty::F64 if k & 1 == 0 => r,
                        Ty::F64 => {
                            (r & 0x800f_ffff_ffff_ffff) | ((1023 - 80 + (k >> 1) % 160) << 52)
                        }
                    }
                })
                .collect();
            let int_div = op.name.contains("div_") || op.name.contains("rem_");
            if int_div {
                let bits = op.args[1].size() * 8;
                let mask = if bits == 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
                let (a, b) = (case[0] & mask, case[1] & mask);
                let min = 1u64 << (bits - 1);
                let signed = matches!(op.args[1], Ty::I32 | Ty::I64);
                if b == 0 || (signed && a == min && b == mask) {
                    continue;
                }
            }
            op.cases.push(case);
            added += 1;
        }
    }
}
