//! The transcendental approximations (precision notes §1–§5): rcp, rsq, sqrt, log, exp and
//! their gfx6/7 legacy and clamp forms, sin/cos in revolutions, and v_trig_preop_f64.

use super::soft::{self, F32, F64, OVFL_CLAMP, RNE, RTZ};
use super::*;

// ---------------------------------------------------------------------------------------
// Transcendental approximations (precision notes §1–§5): the correctly rounded value of the
// exact function (evaluated in f64 and rounded once), the special values of the manuals,
// and each instruction's denormal class.

/// Which approximate function.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tf {
    Rcp,
    Rsq,
    Sqrt,
    Log,
    Exp,
}

/// The exact function on a finite or infinite non-NaN `v` (the special values come out of
/// IEEE f64 arithmetic: rcp(±0) = ±∞, rsq(-0) = -∞, sqrt(-0) = -0, log(0) = -∞, exp(-∞) = 0;
/// invalid inputs give NaN and are replaced by the default NaN by the caller).
#[inline(always)]
fn tf_eval(t: Tf, v: f64) -> f64 {
    match t {
        Tf::Rcp => 1.0 / v,
        Tf::Rsq => {
            if v < 0.0 {
                f64::NAN
            } else {
                1.0 / v.sqrt()
            }
        }
        Tf::Sqrt => {
            if v < 0.0 {
                f64::NAN
            } else {
                v.sqrt()
            }
        }
        Tf::Log => {
            if v == 0.0 {
                f64::NEG_INFINITY
            } else if v < 0.0 {
                f64::NAN
            } else {
                libm::log2(v)
            }
        }
        Tf::Exp => libm::exp2(v),
    }
}

/// One lane of a transcendental approximation in format `f`. `flush` forces the f32 class
/// that flushes input and output denormals whatever MODE says.
#[inline(always)]
fn tf_lane(t: Tf, f: Fmt, a: u64, x: Fp, flush: bool) -> u64 {
    let x = if flush {
        x.ftz()
    } else {
        Fp { din: true, ..x }
    };
    let a = x.inp(f, a);
    if f.is_nan(a) {
        return f.quieted(a);
    }
    let v = tf_eval(t, f.to_f64(a));
    if v.is_nan() {
        return f.default_nan();
    }
    let r = if f == F64 {
        v.to_bits()
    } else {
        soft::from_f64(f, v, RNE | (x.rm & OVFL_CLAMP))
    };
    let r = x.outp(f, r);
    // exp's flushed tiny results are +0 (the input is never -0 there; 2^x > 0).
    if t == Tf::Exp && f.is_zero(r) {
        0
    } else {
        r
    }
}

/// Post-processing of the gfx6/7 legacy and clamp forms.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Post {
    None,
    /// ±∞ results become ±MAX (rcp_clamp, rsq_clamp).
    ClampMax,
    /// A -∞ result becomes -MAX (log_clamp).
    ClampNegInf,
    /// rcp_legacy: a ±∞ result becomes 0 with the input's sign.
    RcpLegacy,
    /// rsq_legacy: a +∞ result becomes +0.
    RsqLegacy,
}

#[inline(always)]
fn post(f: Fmt, a: u64, r: u64, p: Post) -> u64 {
    match p {
        Post::None => r,
        Post::ClampMax if f.is_inf(r) => f.max(f.is_neg(r)),
        Post::ClampNegInf if r == f.inf(true) => f.max(true),
        Post::RcpLegacy if f.is_inf(r) => a & f.sign(),
        Post::RsqLegacy if r == f.exp_mask() => 0,
        _ => r,
    }
}

/// The f32 transcendentals and their legacy/clamp forms: denormals always flushed.
pub(super) fn tf32<const T: u8, const P: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let t = tf_of(T);
    let p = post_of(P);
    let a = read(w, op, env, 0, 32);
    let x = Fp::new(w.mode, F32);
    let r: [u64; LANES] =
        std::array::from_fn(|l| post(F32, a[l], tf_lane(t, F32, a[l], x, true), p));
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// The f64 and f16 transcendentals: input denormals kept, output denormals per MODE.
pub(super) fn tf_wide<const B: u8, const T: u8, const P: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let t = tf_of(T);
    let p = post_of(P);
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let x = Fp::new(w.mode, f);
    let r: [u64; LANES] = std::array::from_fn(|l| post(f, a[l], tf_lane(t, f, a[l], x, false), p));
    put(w, op, &r, B);
    Ok(Flow::Next)
}

pub(super) const T_RCP: u8 = 0;
pub(super) const T_RSQ: u8 = 1;
pub(super) const T_SQRT: u8 = 2;
pub(super) const T_LOG: u8 = 3;
pub(super) const T_EXP: u8 = 4;
pub(super) const P_NONE: u8 = 0;
pub(super) const P_CLAMP: u8 = 1;
pub(super) const P_RCP_LEGACY: u8 = 2;
pub(super) const P_RSQ_LEGACY: u8 = 3;
pub(super) const P_CLAMP_NEG: u8 = 4;

#[inline(always)]
const fn tf_of(t: u8) -> Tf {
    match t {
        T_RCP => Tf::Rcp,
        T_RSQ => Tf::Rsq,
        T_SQRT => Tf::Sqrt,
        T_LOG => Tf::Log,
        _ => Tf::Exp,
    }
}

#[inline(always)]
const fn post_of(p: u8) -> Post {
    match p {
        P_CLAMP => Post::ClampMax,
        P_RCP_LEGACY => Post::RcpLegacy,
        P_RSQ_LEGACY => Post::RsqLegacy,
        P_CLAMP_NEG => Post::ClampNegInf,
        _ => Post::None,
    }
}

/// sin or cos of `v` revolutions (finite), by exact reduction to a quarter turn
/// (precision notes §5): `q = rint(4v)`, `t = v - q/4` (both exact in f64 for f32 and f16
/// inputs, |t| <= 1/8), then ±sin or ±cos of 2πt by `q mod 4`.
fn sincos_rev(v: f64, cos: bool) -> f64 {
    let q = (4.0 * v).round_ties_even();
    let t = v - q / 4.0;
    let k = q.rem_euclid(4.0) as u32 + cos as u32;
    let th = std::f64::consts::TAU * t;
    let r = match k % 4 {
        0 => libm::sin(th),
        1 => libm::cos(th),
        2 => -libm::sin(th),
        _ => -libm::cos(th),
    };
    // Exact zeros (whole and half turns) are +0.
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// v_sin / v_cos in format `f`. `reduced` is the gfx6-gfx8 behaviour: the AMD ISA text gives
/// a valid input range of [-256, +256] revolutions there, out-of-range inputs giving 0 for
/// sin and 1 for cos (quoted from AMD's machine-readable ISA description in gem5's GPU
/// model; CLRX documents [-1, 1], but LLVM passes `__builtin_amdgcn_sinf` arguments beyond
/// one revolution unreduced, and only llvm.sin gets a v_fract first on these targets).
#[inline(always)]
fn sincos_lane(f: Fmt, a: u64, x: Fp, cos: bool, reduced: bool) -> u64 {
    let a = x.inp(f, a);
    if f.is_nan(a) {
        return f.quieted(a);
    }
    if f.is_inf(a) {
        return f.default_nan();
    }
    let v = f.to_f64(a);
    let r = if reduced && v.abs() > 256.0 {
        if cos {
            1.0
        } else {
            0.0
        }
    } else if v == 0.0 {
        if cos {
            1.0
        } else {
            v
        }
    } else {
        sincos_rev(v, cos)
    };
    x.outp(f, soft::from_f64(f, r, RNE | (x.rm & OVFL_CLAMP)))
}

pub(super) fn sincos<const B: u8, const COS: bool, const REDUCED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let x = Fp::new(w.mode, f);
    let r: [u64; LANES] = std::array::from_fn(|l| sincos_lane(f, a[l], x, COS, REDUCED));
    put(w, op, &r, B);
    Ok(Flow::Next)
}

/// The first 1201 fraction bits of 2/π as the hardware table of v_trig_preop_f64 holds them
/// (precision notes §6.4): 37 words, and the top 17 bits of the 38th.
pub(super) const TWO_OVER_PI: [u32; 38] = [
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
    0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
    0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
    0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
    0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046, 0xfc7b0000,
];

/// Bits `[start, start + 53)` after the binary point of the table (bits past it read 0).
fn two_over_pi_bits(start: u32) -> u64 {
    let mut r = 0u64;
    for i in 0..53 {
        let bit = start + i;
        let word = (bit / 32) as usize;
        let b = TWO_OVER_PI
            .get(word)
            .map_or(0, |w| (w >> (31 - bit % 32)) & 1) as u64;
        r = r << 1 | b;
    }
    r
}

/// v_trig_preop_f64: the 53-bit segment of 2/π selected by src1[4:0] and the exponent of
/// src0, scaled to its place (precision notes §6.4).
pub(super) fn trig_preop(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src64(w, op, env, 0);
    let s = src32(w, op, env, 1);
    let r: [u64; LANES] = std::array::from_fn(|l| {
        if F64.is_nan(a[l]) {
            return F64.quieted(a[l]);
        }
        let e = F64.exp_field(a[l]) as i32;
        let shift = 53 * (s[l] & 31) as i32 + if e > 1077 { e - 1077 } else { 0 };
        let chunk = two_over_pi_bits(shift as u32);
        if chunk == 0 {
            return 0;
        }
        let scale = -53 - shift + if e >= 1968 { 128 } else { 0 };
        soft::round(F64, false, chunk as u128, scale, RTZ)
    });
    put(w, op, &r, 64);
    Ok(Flow::Next)
}
