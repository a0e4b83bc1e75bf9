//! Folded-constant differential tests: LLVM's constant folder is the oracle.
//!
//! Every operation of the table below is built twice by clang-19 (-O2) for each corpus target:
//!
//! - the *constant* build writes `o[i] = OP(literal operands)` for each operand tuple, through a
//!   volatile pointer so that each case stays one store; LLVM folds the operation and the kernel
//!   only stores constants;
//! - the *run-time* build reads the same operands from buffers (`out[i] = OP(a[i], b[i], c[i])`),
//!   so the GPU instruction sequence LLVM selects for OP (single instructions, or the multi-
//!   instruction expansions of division, square root, 64-bit division, conversions...) runs in
//!   the emulator.
//!
//! Both builds run in the emulator and the outputs are compared bit for bit. A case counts only
//! when LLVM really folded it: the constant build's optimised IR (`-emit-llvm`) must store a
//! literal for that case (cases LLVM leaves as a call, e.g. `llvm.amdgcn.rsq`, are reported as
//! "not folded" and not compared). The folded values read from the IR are also checked against
//! what the constant build stored when it ran, so the IR parsing is checked too.
//!
//! Operands that are undefined behaviour in C/OpenCL are not in the table (LLVM may fold them to
//! poison): division by zero, `INT_MIN / -1` and `INT_MIN % -1`, float-to-integer conversions of
//! values whose truncation is out of the integer's range, `__builtin_clz/ctz(0)` (written as
//! `x ? clz(x) : 32`). Shifts by counts >= the width are defined in OpenCL C (the count is taken
//! modulo the width) and are in the table. A case folded to `poison`/`undef` anyway would be
//! counted separately and fail the test.
//!
//! Float modes: gfx6-gfx8 OpenCL kernels flush f32 denormals by default
//! (`"denormal-fp-math-f32"="preserve-sign"`, MODE.FP_DENORM.f32 = 0), but LLVM's folding does
//! not honour that attribute consistently (`x * 1.0` folds to a denormal `x`, the
//! `llvm.amdgcn.*` folds ignore it), so the two builds would legitimately differ for denormal
//! inputs and results. Every target is therefore built with IEEE f32 denormals
//! (`-Xclang -fdenormal-fp-math-f32=ieee`; the kernel descriptor then sets FP_DENORM.f32 = 3),
//! the mode LLVM folds in; gfx6-8 are built a second time in their default flushing mode, where
//! the cases with an f32 denormal operand or result are counted apart (§13.5). Divisions and square roots are correctly rounded
//! (`-cl-fp32-correctly-rounded-divide-sqrt`), as the folder computes them, and contraction is
//! off (`-ffp-contract=off`).
//!
//! Where the folder legitimately computes something the instruction does not (documented in
//! docs/emulator-precision.md §13), the case is counted as a "documented difference" with the
//! reason printed; every other disagreement fails the test.
//!
//! `cargo test --release -p gcnkit-emu --test folded_constants -- --nocapture`

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use gcnkit_emu::{ArgValue, Device, Grid, LaunchOptions};

const TARGETS: [&str; 8] = [
    "gfx600", "gfx700", "gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
];
/// Targets with 16-bit instructions (`16-bit-insts`: the f16 `llvm.amdgcn.*` builtins).
const GFX8PLUS: [&str; 6] = ["gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"];
/// Targets with `v_med3_f16` (`__builtin_amdgcn_fmed3h`).
const GFX9PLUS: [&str; 5] = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F16,
    F32,
    F64,
}

impl Ty {
    fn c(self) -> &'static str {
        match self {
            Ty::U16 => "ushort",
            Ty::I16 => "short",
            Ty::U32 => "uint",
            Ty::I32 => "int",
            Ty::U64 => "ulong",
            Ty::I64 => "long",
            Ty::F16 => "half",
            Ty::F32 => "float",
            Ty::F64 => "double",
        }
    }
    fn size(self) -> usize {
        match self {
            Ty::F16 | Ty::U16 | Ty::I16 => 2,
            Ty::U32 | Ty::I32 | Ty::F32 => 4,
            _ => 8,
        }
    }
    /// A C literal with exactly these bits.
    fn lit(self, v: u64) -> String {
        match self {
            Ty::U16 => format!("((ushort){:#x})", v as u16),
            Ty::I16 => format!("((short)(ushort){:#x})", v as u16),
            Ty::U32 => format!("{:#x}u", v as u32),
            Ty::I32 => format!("((int){:#x}u)", v as u32),
            Ty::U64 => format!("{v:#x}ul"),
            Ty::I64 => format!("((long){v:#x}ul)"),
            Ty::F16 => format!("__builtin_astype((ushort){:#x}, half)", v as u16),
            Ty::F32 => format!("__builtin_astype({:#x}u, float)", v as u32),
            Ty::F64 => format!("__builtin_astype({v:#x}ul, double)"),
        }
    }
    fn is_nan(self, v: u64) -> bool {
        match self {
            Ty::F16 => v & 0x7fff > 0x7c00,
            Ty::F32 => v & 0x7fff_ffff > 0x7f80_0000,
            Ty::F64 => v & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000,
            _ => false,
        }
    }
}

/// The value of a float operand's bits, as f64 (exact for f16 and f32).
fn fval(t: Ty, v: u64) -> f64 {
    match t {
        Ty::F32 => f32::from_bits(v as u32) as f64,
        Ty::F64 => f64::from_bits(v),
        Ty::F16 => {
            let (s, e, m) = ((v >> 15) & 1, (v >> 10) & 0x1f, v & 0x3ff);
            let mag = match e {
                0 => m as f64 * 2f64.powi(-24),
                31 if m == 0 => f64::INFINITY,
                31 => f64::NAN,
                _ => (1024 + m) as f64 * 2f64.powi(e as i32 - 25),
            };
            if s == 1 {
                -mag
            } else {
                mag
            }
        }
        _ => unreachable!(),
    }
}

/// An operation: a C expression of `a`, `b`, `c` (macro parameters) and its operand tuples.
struct Op {
    name: String,
    ret: Ty,
    args: Vec<Ty>,
    expr: String,
    cases: Vec<Vec<u64>>,
    targets: &'static [&'static str],
}

// ---- operand sets ----------------------------------------------------------------------------

const U32S: [u64; 19] = [
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
const U64S: [u64; 20] = [
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
const F32S: [u64; 25] = [
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
const F64S: [u64; 25] = [
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
const F16S: [u64; 23] = [
    0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x3e00, 0x3800, 0x4200, 0x3555, 0x7bff,
    0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7e12, 0x6401, 0xc100, 0x37ff, 0x1400,
];
/// Extra f32 values for rounding operations and conversions.
const F32_ROUNDING: [u64; 14] = [
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
const F32_TO_F16: [u64; 10] = [
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
const F64_EXTRA: [u64; 10] = [
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

fn pairs(xs: &[u64], ys: &[u64]) -> Vec<Vec<u64>> {
    xs.iter()
        .flat_map(|&x| ys.iter().map(move |&y| vec![x, y]))
        .collect()
}
fn singles(xs: &[u64]) -> Vec<Vec<u64>> {
    xs.iter().map(|&x| vec![x]).collect()
}
fn triples(xs: &[u64], ys: &[u64], zs: &[u64]) -> Vec<Vec<u64>> {
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
fn cat(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut v = a.to_vec();
    v.extend_from_slice(b);
    v
}
fn sext32(v: u64) -> i64 {
    v as u32 as i32 as i64
}

/// The helpers the expressions use (static inline: they fold and inline like builtins).
const PRELUDE: &str = r#"
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

fn ops() -> Vec<Op> {
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
const RANDOM_OPS: [&str; 46] = [
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
const RANDOM_CASES: usize = 128;

fn add_random_cases(ops: &mut [Op]) {
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

// ---- building ----------------------------------------------------------------------------

fn kernel_sources(ops: &[&Op]) -> (String, String) {
    let mut konst = String::from(PRELUDE);
    let mut rt = String::from(PRELUDE);
    for op in ops {
        let params = ["a", "b", "c"][..op.args.len()].join(", ");
        let mac = format!("#define OP_{}({params}) ({})\n", op.name, op.expr);
        konst.push_str(&mac);
        rt.push_str(&mac);
        konst.push_str(&format!(
            "kernel void k_{}(global {} *out) {{\n  volatile global {} *o = out;\n",
            op.name,
            op.ret.c(),
            op.ret.c()
        ));
        for (i, case) in op.cases.iter().enumerate() {
            let lits: Vec<String> = op.args.iter().zip(case).map(|(t, &v)| t.lit(v)).collect();
            konst.push_str(&format!(
                "  o[{i}] = OP_{}({});\n",
                op.name,
                lits.join(", ")
            ));
        }
        konst.push_str("}\n");
        let ins: Vec<String> = op
            .args
            .iter()
            .enumerate()
            .map(|(j, t)| format!("global const {} *in{j}", t.c()))
            .collect();
        let loads: Vec<String> = (0..op.args.len()).map(|j| format!("in{j}[i]")).collect();
        rt.push_str(&format!(
            "kernel void k_{}(global {} *out, {}) {{\n  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();\n  if (i < {}u) out[i] = OP_{}({});\n}}\n",
            op.name,
            op.ret.c(),
            ins.join(", "),
            op.cases.len(),
            op.name,
            loads.join(", ")
        ));
    }
    (konst, rt)
}

/// The builds compared: every target with IEEE f32 denormals, and gfx6-8 once more as OpenCL
/// builds them by default, flushing f32 denormals (`ftz`).
const CONFIGS: [(&str, bool); 11] = [
    ("gfx600", false),
    ("gfx700", false),
    ("gfx803", false),
    ("gfx900", false),
    ("gfx906", false),
    ("gfx908", false),
    ("gfx90a", false),
    ("gfx942", false),
    ("gfx600", true),
    ("gfx700", true),
    ("gfx803", true),
];

fn clang_flags(mcpu: &str, ftz: bool) -> Vec<String> {
    let mut v: Vec<String> = [
        "-target",
        "amdgcn-amd-amdhsa",
        &format!("-mcpu={mcpu}"),
        "-nogpulib",
        "-O2",
        "-cl-std=CL2.0",
        "-cl-fp32-correctly-rounded-divide-sqrt",
        "-ffp-contract=off",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if !ftz {
        v.extend([
            "-Xclang".to_string(),
            "-fdenormal-fp-math-f32=ieee".to_string(),
        ]);
    }
    v
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(20)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

struct Built {
    konst_co: Vec<u8>,
    rt_co: Vec<u8>,
    konst_ir: String,
}

fn build(bin: &Path, mcpu: &str, ftz: bool, konst: &str, rt: &str) -> Built {
    let dir = std::env::temp_dir().join(format!(
        "gcnkit-folded-{}-{mcpu}-{}",
        std::process::id(),
        if ftz { "ftz" } else { "ieee" }
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let flags = clang_flags(mcpu, ftz);
    std::fs::write(dir.join("k.cl"), konst).unwrap();
    std::fs::write(dir.join("r.cl"), rt).unwrap();
    // The constant build: optimised IR (to see what was folded), then code from that IR.
    run(
        Command::new(bin.join("clang"))
            .args(&flags)
            .args(["-x", "cl", "-emit-llvm", "-S"])
            .arg(dir.join("k.cl"))
            .arg("-o")
            .arg(dir.join("k.ll")),
        &format!("clang (constant build, {mcpu})"),
    );
    run(
        Command::new(bin.join("clang"))
            .args([
                "-target",
                "amdgcn-amd-amdhsa",
                &format!("-mcpu={mcpu}"),
                "-nogpulib",
                "-O2",
                "-c",
            ])
            .args(["-x", "ir"])
            .arg(dir.join("k.ll"))
            .arg("-o")
            .arg(dir.join("k.o")),
        &format!("clang (constant build code, {mcpu})"),
    );
    run(
        Command::new(bin.join("clang"))
            .args(&flags)
            .args(["-x", "cl", "-c"])
            .arg(dir.join("r.cl"))
            .arg("-o")
            .arg(dir.join("r.o")),
        &format!("clang (run-time build, {mcpu})"),
    );
    for s in ["k", "r"] {
        run(
            Command::new(bin.join("ld.lld"))
                .arg("-shared")
                .arg(dir.join(format!("{s}.o")))
                .arg("-o")
                .arg(dir.join(format!("{s}.co"))),
            "ld.lld",
        );
    }
    let b = Built {
        konst_co: std::fs::read(dir.join("k.co")).unwrap(),
        rt_co: std::fs::read(dir.join("r.co")).unwrap(),
        konst_ir: std::fs::read_to_string(dir.join("k.ll")).unwrap(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    b
}

/// What the constant build's IR stores for each case of `k_<name>`, in order: `Some(bits)` for
/// a literal, `None` for a value LLVM did not fold. `Err` for poison/undef.
#[allow(clippy::type_complexity)]
fn folded_values(ir: &str, name: &str, ty: Ty) -> Vec<Result<Option<u64>, String>> {
    let head = format!("@k_{name}(");
    let start = ir
        .lines()
        .position(|l| l.starts_with("define") && l.contains(&head))
        .unwrap_or_else(|| panic!("k_{name} not in the constant build's IR"));
    let mut v = Vec::new();
    for l in ir.lines().skip(start + 1) {
        if l.starts_with('}') {
            break;
        }
        let Some(rest) = l.trim().strip_prefix("store volatile ") else {
            continue;
        };
        let mut it = rest.splitn(2, ' ');
        let _ty = it.next().unwrap();
        let val = it.next().unwrap().split(',').next().unwrap().trim();
        v.push(parse_literal(val, ty));
    }
    v
}

fn parse_literal(val: &str, ty: Ty) -> Result<Option<u64>, String> {
    if val.starts_with('%') {
        return Ok(None);
    }
    if val == "poison" || val == "undef" {
        return Err(val.to_string());
    }
    let bits = match ty {
        Ty::U16 | Ty::I16 => val.parse::<i64>().map(|x| x as u16 as u64).ok(),
        Ty::U32 | Ty::I32 => val.parse::<i64>().map(|x| x as u32 as u64).ok(),
        Ty::U64 | Ty::I64 => val
            .parse::<i64>()
            .map(|x| x as u64)
            .ok()
            .or_else(|| val.parse::<u64>().ok()),
        Ty::F16 => val
            .strip_prefix("0xH")
            .and_then(|h| u64::from_str_radix(h, 16).ok()),
        Ty::F32 | Ty::F64 => {
            // LLVM prints float and double constants as the double's hex bits, or in decimal
            // when that is exact.
            let d = if let Some(h) = val.strip_prefix("0x") {
                u64::from_str_radix(h, 16).ok()
            } else {
                val.parse::<f64>().ok().map(f64::to_bits)
            };
            match (ty, d) {
                (Ty::F64, d) => d,
                (_, Some(d)) => Some(f64_bits_to_f32_bits(d)),
                _ => None,
            }
        }
    };
    bits.map(Some)
        .ok_or_else(|| format!("unparsed literal {val}"))
}

/// A float constant printed in double form back to its f32 bits (NaN payloads shifted, not
/// quieted: LLVM prints a float NaN as the double with the same payload bits at the top).
fn f64_bits_to_f32_bits(d: u64) -> u64 {
    let x = f64::from_bits(d);
    if x.is_nan() {
        let sign = (d >> 63) << 31;
        let payload = (d >> 29) & 0x7f_ffff;
        sign | 0x7f80_0000 | payload
    } else {
        (x as f32).to_bits() as u64
    }
}

// ---- comparing -------------------------------------------------------------------------

/// Differences between LLVM's folding and the instruction sequence that are documented in
/// docs/emulator-precision.md §13: the reason, or None (a failure). Each rule is narrow: it
/// names the operations, the operands or the result it covers.
fn documented(op: &Op, mcpu: &str, args: &[u64], f: u64, e: u64) -> Option<&'static str> {
    if let Some(lane_op) = op.name.strip_prefix("pk_") {
        // Packed f16: each half on its own, by the f16 rules of the unpacked operation.
        let lane = Op {
            name: lane_op.to_string(),
            ret: Ty::F16,
            args: vec![Ty::F16; op.args.len()],
            expr: String::new(),
            cases: Vec::new(),
            targets: &[],
        };
        let mut why = None;
        for sh in [0, 16] {
            let l = |v: u64| (v >> sh) & 0xffff;
            let la: Vec<u64> = args.iter().map(|&a| l(a)).collect();
            if l(f) != l(e) {
                why = Some(documented(&lane, mcpu, &la, l(f), l(e))?);
            }
        }
        return why;
    }
    let t = op.ret;
    let (quiet, sign, default_nan) = match t {
        Ty::F16 => (0x200u64, 0x8000u64, 0x7e00u64),
        Ty::F32 => (0x40_0000, 0x8000_0000, 0x7fc0_0000),
        Ty::F64 => (1 << 51, 1 << 63, 0x7ff8_0000_0000_0000),
        _ => (0, 0, 0),
    };
    let name = op.name.as_str();
    if t.is_nan(f) && t.is_nan(e) {
        // NaN results: which NaN a folded or executed operation returns is not specified by
        // LLVM (LangRef "Floating-Point Semantics": the payload, quiet bit and sign of a NaN
        // result are unspecified except for fneg/fabs/copysign). Compared as "is NaN" only,
        // and only under these four rules:
        let nan_operand = op.args.iter().zip(args).any(|(&ty, &v)| ty.is_nan(v));
        if f == default_nan && e == default_nan | sign && !nan_operand {
            return Some("§13.1 default NaN: LLVM folds an invalid operation to +qNaN, the hardware's default NaN is -qNaN (§1.3)");
        }
        // The folded value is the unquieted one (LLVM's identity folds), or, for the gfx6
        // expansions that select a NaN input through unchanged, the emulated one.
        let gfx6_pass_through =
            mcpu == "gfx600" && matches!(name, "frexp_mant_f32" | "frexp_mant_f64" | "trunc_f64");
        if f != e && f | quiet == e | quiet && (e & quiet != 0 || gfx6_pass_through) {
            return Some("§13.1 sNaN quieting: equal but for the quiet bit (LLVM's identity folds such as x*1, x+(-0), minnum(qNaN, sNaN) return an sNaN operand unquieted; LLVM's gfx6 frexp/trunc f64 expansions pass a NaN through a select unquieted while the folder quiets it)");
        }
        if (name == "fsub_f64" || name == "sub_f16") && f ^ e == sign {
            return Some("§13.1 NaN sign: f64 a - b is v_add_f64 a, -b (packed f16: v_pk_add_f16 a, -b); the neg modifier flips the sign of a NaN b, LLVM's folder keeps it");
        }
        if name.starts_with("fma_")
            && f == default_nan
            && args.iter().any(|&c| t.is_nan(c) && e == c | quiet)
        {
            return Some("§13.1 fma(0, inf, NaN): LLVM folds the invalid product to the default NaN, the hardware returns the NaN addend quieted");
        }
        return None;
    }
    if name.starts_with("amdgcn_fmed3")
        && args.iter().any(|&a| t.is_nan(a))
        && e == ieee_min(t, ieee_min(t, args[0], args[1]), args[2])
    {
        return Some("§13.2 fmed3 with a NaN operand: LLVM 19 folds it to minnum/maxnum of the other two, the V_MED3 pseudo-code returns min3 of all three");
    }
    if name == "amdgcn_rcp_f32" {
        let denormal = |v: u64| v & 0x7f80_0000 == 0 && v & 0x7f_ffff != 0;
        if denormal(args[0]) || denormal(f) {
            return Some("§13.3 amdgcn.rcp: LLVM folds a correctly rounded 1/x without the instruction's denormal flushing (§2)");
        }
    }
    if name == "amdgcn_trig_preop" {
        let e = (args[0] >> 52) & 0x7ff;
        let shift = 53 * (args[1] & 31) + e.saturating_sub(1077);
        if shift >= 1120 && f == 0 {
            return Some("§13.3 amdgcn.trig.preop: LLVM's 2/pi table has 1184 bits, the hardware's 1201; LLVM folds to +0 once the 53 bits needed run past its table (§6.4)");
        }
    }
    if name == "amdgcn_sin_f32" && args[0] == 0x8000_0000 && f == 0 && e == 0x8000_0000 {
        return Some("§13.3 amdgcn.sin(-0): LLVM folds quarter-turn inputs from a table with +0; the manual gives sin(-0) = -0 (§5)");
    }
    if mcpu == "gfx600" {
        let inf_or_nan = |v: u64| match op.args[0] {
            Ty::F32 => v & 0x7f80_0000 == 0x7f80_0000,
            _ => v & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000,
        };
        if name.starts_with("amdgcn_frexp_") && inf_or_nan(args[0]) {
            return Some("§13.4 gfx6 v_frexp_* of inf/NaN (exponent -1, mantissa NaN, §6.2); LLVM's fold uses the gfx7+ rule");
        }
        if (name == "ceil_f64" || name == "rint_f64") && f == sign && e == 0 {
            return Some("§13.4 gfx6 ceil/rint f64 expansions (no v_ceil_f64/v_rndne_f64): -0 results come out +0");
        }
        if name == "floor_f64"
            && args[0] >> 63 == 1
            && f == 0xbff0_0000_0000_0000
            && e == 0xbfef_ffff_ffff_ffff
        {
            return Some("§13.4 gfx6 floor f64 expansion x - min(fract(x), 1 - 2^-53): tiny negative x gives -(1 - 2^-53)");
        }
    }
    None
}

/// `v_min_f32/f16` in IEEE mode, from the pseudo-code (emulator-precision §7.3, written here
/// again from the manual, not taken from the emulator): an sNaN operand wins quieted, a qNaN
/// loses, -0 is below +0.
fn ieee_min(t: Ty, a: u64, b: u64) -> u64 {
    let (quiet, sign_bit) = match t {
        Ty::F16 => (0x200, 15),
        _ => (0x40_0000, 31),
    };
    let snan = |v: u64| t.is_nan(v) && v & quiet == 0;
    if snan(a) {
        return a | quiet;
    }
    if snan(b) {
        return b | quiet;
    }
    if t.is_nan(a) {
        return b;
    }
    if t.is_nan(b) {
        return a;
    }
    let (x, y) = (fval(t, a), fval(t, b));
    if x == y {
        return if (a >> sign_bit) & 1 == 1 { a } else { b };
    }
    if x < y {
        a
    } else {
        b
    }
}

/// In the flushing mode the folder and the instructions differ wherever an f32 denormal is an
/// operand or a result: LLVM folds some operations with flushing and others without (`x * 1.0`
/// is `x`, the `llvm.amdgcn.*` folds ignore the mode), the instructions flush.
fn f32_denormal_involved(op: &Op, args: &[u64], f: u64, e: u64) -> bool {
    let den = |v: u64| v & 0x7f80_0000 == 0 && v & 0x7f_ffff != 0;
    op.args
        .iter()
        .zip(args)
        .any(|(&t, &v)| t == Ty::F32 && den(v))
        || (op.ret == Ty::F32 && (den(f) || den(e)))
}

#[derive(Default)]
struct Tally {
    ops: usize,
    compared: usize,
    agree: usize,
    not_folded: usize,
    not_folded_ops: BTreeMap<String, usize>,
    documented: BTreeMap<&'static str, usize>,
    failures: Vec<String>,
}

fn read_elems(dev: &Device, addr: u64, ty: Ty, n: usize) -> Vec<u64> {
    let bytes = dev.read(addr, (n * ty.size()) as u64).unwrap();
    bytes
        .chunks_exact(ty.size())
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}

fn fmt_bits(t: Ty, v: u64) -> String {
    match t {
        Ty::F16 | Ty::U16 | Ty::I16 => format!("{v:#06x}"),
        Ty::U32 | Ty::I32 | Ty::F32 => format!("{v:#010x}"),
        _ => format!("{v:#018x}"),
    }
}

fn check_target(mcpu: &str, ftz: bool, ops: &[&Op], built: &Built) -> Tally {
    let mut t = Tally::default();
    let mut dev = Device::new();
    dev.set_options(LaunchOptions {
        threads: 1,
        max_instructions: 10_000_000,
    });
    let km = dev
        .load(&built.konst_co, None)
        .expect("load constant build");
    let rm = dev.load(&built.rt_co, None).expect("load run-time build");
    for op in ops {
        t.ops += 1;
        let n = op.cases.len();
        let folded = folded_values(&built.konst_ir, &op.name, op.ret);
        assert_eq!(folded.len(), n, "{mcpu} {}: stores in the IR", op.name);
        // The constant build, run.
        let kout = dev.allocate((n * op.ret.size()) as u64).unwrap();
        dev.write(kout, &vec![0xa5; n * op.ret.size()]).unwrap();
        if let Err(e) = dev.launch(
            &km,
            &format!("k_{}", op.name),
            &Grid::linear(1, 1),
            &[ArgValue::Bytes(kout.to_le_bytes().to_vec())],
        ) {
            t.failures
                .push(format!("{mcpu} {}: constant build: {e}", op.name));
            continue;
        }
        let kvals = read_elems(&dev, kout, op.ret, n);
        // The run-time build.
        let out = dev.allocate((n * op.ret.size()) as u64).unwrap();
        dev.write(out, &vec![0x5a; n * op.ret.size()]).unwrap();
        let mut args = vec![ArgValue::Bytes(out.to_le_bytes().to_vec())];
        let mut bufs = vec![kout, out];
        for (j, ty) in op.args.iter().enumerate() {
            let mut bytes = Vec::with_capacity(n * ty.size());
            for c in &op.cases {
                bytes.extend_from_slice(&c[j].to_le_bytes()[..ty.size()]);
            }
            let b = dev.allocate(bytes.len() as u64).unwrap();
            dev.write(b, &bytes).unwrap();
            args.push(ArgValue::Bytes(b.to_le_bytes().to_vec()));
            bufs.push(b);
        }
        let groups = n.div_ceil(64) as u32;
        if let Err(e) = dev.launch(
            &rm,
            &format!("k_{}", op.name),
            &Grid::linear(groups * 64, 64),
            &args,
        ) {
            t.failures
                .push(format!("{mcpu} {}: run-time build: {e}", op.name));
            continue;
        }
        let rvals = read_elems(&dev, out, op.ret, n);
        for b in bufs {
            let _ = dev.free(b);
        }
        for (i, case) in op.cases.iter().enumerate() {
            let args_s: Vec<String> = op
                .args
                .iter()
                .zip(case)
                .map(|(ty, &v)| fmt_bits(*ty, v))
                .collect();
            let what = format!("{mcpu} {}({})", op.name, args_s.join(", "));
            let f = match &folded[i] {
                Ok(Some(f)) => *f,
                Ok(None) => {
                    t.not_folded += 1;
                    *t.not_folded_ops.entry(op.name.clone()).or_default() += 1;
                    continue;
                }
                Err(p) => {
                    t.failures.push(format!(
                        "{what}: LLVM folded to {p} (undefined operands in the table)"
                    ));
                    continue;
                }
            };
            t.compared += 1;
            if kvals[i] != f {
                // gfx6/7 have no 16-bit instructions: the backend materialises an f16 constant
                // through f32, which quiets an sNaN (`v_mov_b32 v2, 0x7e01` for IR `0xH7C01`).
                if op.ret == Ty::F16
                    && (mcpu == "gfx600" || mcpu == "gfx700")
                    && op.ret.is_nan(f)
                    && kvals[i] == f | 0x200
                {
                    *t.documented
                        .entry("§13.1 gfx6/7 f16 sNaN constants: the backend stores them quieted")
                        .or_default() += 1;
                    continue;
                }
                t.failures.push(format!(
                    "{what}: the constant build stored {} but its IR says {}",
                    fmt_bits(op.ret, kvals[i]),
                    fmt_bits(op.ret, f)
                ));
                continue;
            }
            let e = rvals[i];
            if e == f {
                t.agree += 1;
            } else if ftz && f32_denormal_involved(op, case, f, e) {
                *t.documented.entry("§13.5 f32 denormals flushed (gfx6-8 default mode): an f32 operand or result is denormal").or_default() += 1;
            } else if let Some(why) = documented(op, mcpu, case, f, e) {
                *t.documented.entry(why).or_default() += 1;
            } else {
                let nan = if op.ret.is_nan(f) && op.ret.is_nan(e) {
                    " (both NaN)"
                } else {
                    ""
                };
                t.failures.push(format!(
                    "{what}: folded {}, emulated {}{nan}",
                    fmt_bits(op.ret, f),
                    fmt_bits(op.ret, e)
                ));
            }
        }
    }
    t
}

#[test]
fn emulated_operations_match_llvm_constant_folding() {
    let bin = PathBuf::from("/usr/lib/llvm-19/bin");
    assert!(
        bin.join("clang").exists() && bin.join("ld.lld").exists(),
        "folded_constants needs clang-19 and ld.lld-19 in /usr/lib/llvm-19/bin (apt install clang-19 lld-19)"
    );
    let all = ops();
    let filter = std::env::var("FOLDED_OPS").ok();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(String, Tally)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let (all, next, filter, bin) = (&all, &next, &filter, &bin);
                s.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        let Some(&(mcpu, ftz)) = CONFIGS.get(i) else {
                            break;
                        };
                        let ops: Vec<&Op> = all
                            .iter()
                            .filter(|o| o.targets.contains(&mcpu))
                            .filter(|o| {
                                filter
                                    .as_deref()
                                    .is_none_or(|f| f.split(',').any(|p| o.name.contains(p)))
                            })
                            .collect();
                        let (konst, rt) = kernel_sources(&ops);
                        let built = build(bin, mcpu, ftz, &konst, &rt);
                        let label = if ftz {
                            format!("{mcpu} (f32 denormals flushed)")
                        } else {
                            mcpu.to_string()
                        };
                        done.push((i, label, check_target(mcpu, ftz, &ops, &built)));
                    }
                    done
                })
            })
            .collect();
        let mut r: Vec<(usize, String, Tally)> = workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect();
        r.sort_by_key(|(i, _, _)| *i);
        r.into_iter().map(|(_, l, t)| (l, t)).collect()
    });
    let show: usize = std::env::var("FOLDED_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let mut failures = 0;
    for (mcpu, t) in &results {
        eprintln!(
            "folded constants {mcpu}: {} operations, {} cases compared, {} agree bit for bit, {} documented differences, {} not folded by LLVM (not compared), {} disagree",
            t.ops,
            t.compared,
            t.agree,
            t.documented.values().sum::<usize>(),
            t.not_folded,
            t.failures.len()
        );
        if !t.not_folded_ops.is_empty() {
            let l: Vec<String> = t
                .not_folded_ops
                .iter()
                .map(|(o, n)| format!("{o} ({n})"))
                .collect();
            eprintln!("  not folded: {}", l.join(", "));
        }
        for (why, n) in &t.documented {
            eprintln!("  documented ({n}): {why}");
        }
        for f in t.failures.iter().take(show) {
            eprintln!("  FAIL {f}");
        }
        if t.failures.len() > show {
            eprintln!("  ... {} more", t.failures.len() - show);
        }
        failures += t.failures.len();
    }
    assert_eq!(failures, 0, "{failures} folded-constant cases disagree");
}
