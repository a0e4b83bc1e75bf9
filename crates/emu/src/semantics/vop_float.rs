//! Floating-point vector ALU operations (VOP1, VOP2, VOP3 and the mixed-precision VOP3P
//! rows): f16/f32/f64 arithmetic, fused and unfused multiply-adds, min/max/med3, rounding to
//! integral values, the transcendental approximations, the division helpers, conversions
//! between the float and integer formats, and the byte/SAD/cube helpers of the VOP3 table.
//!
//! # Sources
//!
//! Operation pseudo-code from the AMD ISA manuals (Southern Islands to CDNA3) as transcribed
//! in the CLRX wiki pages GcnInstrsVop1/Vop2/Vop3/Vop3p.md; the choices for approximate and
//! under-specified instructions (accuracy, special values, denormal classes, the corrected
//! division pseudo-code) follow `docs/emulator-precision.md`, which cites its evidence.
//!
//! # Floating-point environment
//!
//! Every operation reads MODE once per instruction ([`Fp`]): the rounding mode and denormal
//! field of its format (f32 uses MODE[1:0]/[5:4]; f64 and f16 use MODE[3:2]/[7:6]), IEEE and
//! DX10_CLAMP, and FP16_OVFL for f16 results. FP_DENORM bit 0 keeps input denormals and
//! bit 1 keeps output denormals (LLVM's FP_DENORM_FLUSH_OUT = 1 keeps inputs and flushes
//! outputs). Flushing keeps the sign.
//!
//! Rounding: add/sub/mul/fma/mad and every conversion or ldexp honour all four FP_ROUND
//! modes. Round-to-nearest-even uses the host's IEEE arithmetic (f32 and f64 natively, f16
//! through the exact software path of [`soft`]); the directed modes use [`soft`], which
//! computes each result exactly and rounds once. The transcendental approximations (rcp,
//! rsq, sqrt, log, exp, sin, cos) always return the correctly rounded value to nearest
//! (their hardware results are only bounded, see the precision notes).
//!
//! NaN results: a NaN operand is returned quieted (the first NaN of src0, src1, src2), and
//! an invalid operation without NaN operands returns the negative default NaN
//! (0xFFC00000 / 0xFFF8000000000000 / 0xFE00), independent of the host.
//!
//! Output modifiers: the framework's clamp/omod are turned off for every operation here
//! (`float_bits` = 0) and applied by [`put`] instead, because the hardware ignores OMOD
//! while MODE.IEEE is set or output denormals are kept, and clamps -0 to +0 (precision notes
//! §7.1–7.2), and because packed f16 results need the modifiers per half.

use gcnkit_isa::{flags, Encoding, Gen, Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{BuildContext, Op, Src};
use crate::semantics::valu::{
    raw32, src16, src32, src64, write32, write32_masked, write64, write_mask, Lanes64,
};
use crate::wave::{Lanes, Mode, Wave, LANES};

mod convert;
mod divide;
mod media;
mod mixed;
mod soft;
#[cfg(test)]
mod tests;
mod transcendental;

use convert::*;
use divide::*;
use media::*;
use mixed::*;
use transcendental::*;

use soft::{Fmt, F16, F32, F64, OVFL_CLAMP, RNE};

// ---------------------------------------------------------------------------------------
// The floating-point environment of one instruction.

/// MODE as one float format sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fp {
    /// FP_ROUND of the format, with [`OVFL_CLAMP`] for f16 when MODE.FP16_OVFL is set.
    rm: u32,
    /// Input denormals are kept.
    din: bool,
    /// Output denormals are kept.
    dout: bool,
    /// MODE.IEEE.
    ieee: bool,
    /// MODE.DX10_CLAMP.
    dx10: bool,
}

impl Fp {
    #[inline(always)]
    fn new(mode: Mode, f: Fmt) -> Fp {
        let b = mode.bits;
        let (round, denorm) = if f == F32 {
            (b & 3, (b >> 4) & 3)
        } else {
            ((b >> 2) & 3, (b >> 6) & 3)
        };
        let ovfl = f == F16 && b & (1 << 23) != 0;
        Fp {
            rm: round | if ovfl { OVFL_CLAMP } else { 0 },
            din: denorm & 1 != 0,
            dout: denorm & 2 != 0,
            ieee: b & (1 << 9) != 0,
            dx10: b & (1 << 8) != 0,
        }
    }
    /// This environment with every denormal flushed (the `mad`/`mac` class).
    #[inline(always)]
    fn ftz(self) -> Fp {
        Fp {
            din: false,
            dout: false,
            ..self
        }
    }
    /// An input as the operation sees it.
    #[inline(always)]
    fn inp(self, f: Fmt, x: u64) -> u64 {
        if self.din {
            x
        } else {
            f.flush(x)
        }
    }
    /// A rounded result as it is written.
    #[inline(always)]
    fn outp(self, f: Fmt, x: u64) -> u64 {
        if self.dout {
            x
        } else {
            f.flush(x)
        }
    }
    /// True when the fast host path (round to nearest even) applies to format `f`.
    #[inline(always)]
    fn native(self, f: Fmt) -> bool {
        self.rm == RNE && f != F16
    }
}

/// The format of a const-generic width.
#[inline(always)]
const fn fmt_of(bits: u8) -> Fmt {
    match bits {
        16 => F16,
        32 => F32,
        _ => F64,
    }
}

// ---------------------------------------------------------------------------------------
// Reading sources and writing results.

/// Reads float source `i` of width `bits` as 64 lanes of raw bits, with the form's modifiers.
#[inline(always)]
fn read(w: &Wave, op: &Op, env: &Env<'_>, i: usize, bits: u8) -> [u64; LANES] {
    match bits {
        16 => {
            let v = src16(w, op, env, i);
            std::array::from_fn(|l| v[l] as u64)
        }
        32 => {
            let v = src32(w, op, env, i);
            std::array::from_fn(|l| v[l] as u64)
        }
        _ => src64(w, op, env, i),
    }
}

/// The accumulator of a `+tied` row (v_mac/v_fmac): the destination's current value.
#[inline(always)]
fn read_acc(w: &Wave, op: &Op, bits: u8) -> [u64; LANES] {
    let d = op.vdst as usize;
    match bits {
        64 => std::array::from_fn(|l| w.v[d][l] as u64 | (w.v[d + 1][l] as u64) << 32),
        16 => std::array::from_fn(|l| (w.v[d][l] & 0xffff) as u64),
        _ => std::array::from_fn(|l| w.v[d][l] as u64),
    }
}

/// Bit of `op.imm2`: a 16-bit result written to the low half keeps the high half (gfx9+
/// v_mad_f16/v_fma_f16/v_div_fixup_f16, v_mac/madak/madmk_f16); otherwise the high half is
/// zeroed, as gfx8 does for every 16-bit result and gfx9 for the others (LLVM
/// `GCNSubtarget::zeroesHigh16BitsOfDest`, Mesa ACO `instr_is_16bit`).
const KEEP_HI: i64 = 1;

/// Applies OMOD and CLAMP to a float result of format `f` (precision notes §7.1–7.2): OMOD
/// only when MODE.IEEE is clear and output denormals are flushed, scaling exactly, flushing
/// a denormal product and turning -0 into +0; CLAMP to [0, 1] after it, -0 to +0, NaN to
/// +0 when DX10_CLAMP is set.
#[inline]
fn out_mods(f: Fmt, x: u64, omod: u8, clamp: bool, fp: Fp) -> u64 {
    let mut x = x;
    if omod != 0 && !f.is_nan(x) {
        let s = match omod {
            1 => 1,
            2 => 2,
            _ => -1,
        };
        x = f.flush(soft::ldexp(f, f.to_f64(x), s, RNE | (fp.rm & OVFL_CLAMP)));
        if f.is_zero(x) {
            x = 0;
        }
    }
    if clamp {
        if f.is_nan(x) {
            if fp.dx10 {
                x = 0;
            }
        } else if f.is_neg(x) {
            x = 0;
        } else if f.to_f64(x) > 1.0 {
            x = f.one();
        }
    }
    x
}

/// The OMOD value that takes effect for format `f` under `fp`.
#[inline(always)]
fn effective_omod(op: &Op, fp: Fp) -> u8 {
    if fp.ieee || fp.dout {
        0
    } else {
        op.mods.omod
    }
}

/// Writes a float result of width `bits` with the output modifiers.
#[inline(always)]
fn put(w: &mut Wave, op: &Op, r: &[u64; LANES], bits: u8) {
    let f = fmt_of(bits);
    let fp = Fp::new(w.mode, f);
    let omod = effective_omod(op, fp);
    let mut r = *r;
    if op.mods.clamp || omod != 0 {
        for x in r.iter_mut() {
            *x = out_mods(f, *x, omod, op.mods.clamp, fp);
        }
    }
    put_raw(w, op, &r, bits);
}

/// Writes a result of width `bits` without output modifiers.
#[inline(always)]
fn put_raw(w: &mut Wave, op: &Op, r: &[u64; LANES], bits: u8) {
    match bits {
        16 => store16(w, op, &std::array::from_fn(|l| r[l] as u16)),
        32 => write32(w, op, &std::array::from_fn(|l| r[l] as u32)),
        _ => write64(w, op, r),
    }
}

/// Writes a 16-bit result: to the high half (op_sel[3]) keeping the low half, else to the
/// low half keeping or zeroing the high half as [`KEEP_HI`] says; SDWA forms follow their
/// destination select.
fn store16(w: &mut Wave, op: &Op, r: &[u16; LANES]) {
    let wide: Lanes = std::array::from_fn(|l| r[l] as u32);
    if op.mods.sdwa.is_some() {
        write32(w, op, &wide);
        return;
    }
    let hi = op.mods.op_sel & 8 != 0;
    if !hi && op.imm2 & KEEP_HI == 0 {
        write32(w, op, &wide);
        return;
    }
    let mask = write_mask(w, op);
    let old = &w.v[op.vdst as usize];
    let merged: Lanes = std::array::from_fn(|l| {
        if hi {
            (old[l] & 0xffff) | wide[l] << 16
        } else {
            (old[l] & 0xffff_0000) | wide[l]
        }
    });
    write32_masked(w, op, &merged, mask);
}

/// Writes a 32-bit integer result (no output modifiers).
#[inline(always)]
fn put_u32(w: &mut Wave, op: &Op, r: &Lanes) {
    write32(w, op, r);
}

/// Writes a 16-bit integer result (no output modifiers).
#[inline(always)]
fn put_u16(w: &mut Wave, op: &Op, r: &[u16; LANES]) {
    store16(w, op, r);
}

// ---------------------------------------------------------------------------------------
// Lane arithmetic. Every function takes and returns raw bits of format `f` (in a u64).

#[inline(always)]
fn fneg(f: Fmt, x: u64) -> u64 {
    x ^ f.sign()
}

#[inline(always)]
fn fabs(f: Fmt, x: u64) -> u64 {
    x & !f.sign()
}

/// The result of an operation that produced a NaN: the first NaN operand quieted, or the
/// default NaN for an invalid operation.
#[cold]
#[inline(never)]
fn nan_result(f: Fmt, ops: &[u64]) -> u64 {
    for &x in ops {
        if f.is_nan(x) {
            return f.quieted(x);
        }
    }
    f.default_nan()
}

#[inline(always)]
fn f32v(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

#[inline(always)]
fn fadd(f: Fmt, a: u64, b: u64, x: Fp) -> u64 {
    let (a, b) = (x.inp(f, a), x.inp(f, b));
    let r = if x.native(f) && f == F32 {
        (f32v(a) + f32v(b)).to_bits() as u64
    } else if x.native(f) {
        (f64::from_bits(a) + f64::from_bits(b)).to_bits()
    } else {
        soft::add(f, f.to_f64(a), f.to_f64(b), x.rm)
    };
    let r = if f.is_nan(r) {
        nan_result(f, &[a, b])
    } else {
        r
    };
    x.outp(f, r)
}

/// `a - b`: the sum with `b` negated (a NaN `b` keeps its sign).
#[inline(always)]
fn fsub(f: Fmt, a: u64, b: u64, x: Fp) -> u64 {
    let nb = if f.is_nan(b) { b } else { fneg(f, b) };
    fadd(f, a, nb, x)
}

#[inline(always)]
fn fmul(f: Fmt, a: u64, b: u64, x: Fp) -> u64 {
    let (a, b) = (x.inp(f, a), x.inp(f, b));
    let r = if x.native(f) && f == F32 {
        (f32v(a) * f32v(b)).to_bits() as u64
    } else if x.native(f) {
        (f64::from_bits(a) * f64::from_bits(b)).to_bits()
    } else {
        soft::mul(f, f.to_f64(a), f.to_f64(b), x.rm)
    };
    let r = if f.is_nan(r) {
        nan_result(f, &[a, b])
    } else {
        r
    };
    x.outp(f, r)
}

/// Fused `a * b + c`, one rounding.
#[inline(always)]
fn ffma(f: Fmt, a: u64, b: u64, c: u64, x: Fp) -> u64 {
    let (a, b, c) = (x.inp(f, a), x.inp(f, b), x.inp(f, c));
    let r = if x.native(f) && f == F32 {
        soft::fma_f32(f32v(a), f32v(b), f32v(c)).to_bits() as u64
    } else if x.native(f) {
        f64::from_bits(a)
            .mul_add(f64::from_bits(b), f64::from_bits(c))
            .to_bits()
    } else {
        soft::fma(f, f.to_f64(a), f.to_f64(b), f.to_f64(c), x.rm)
    };
    let r = if f.is_nan(r) {
        nan_result(f, &[a, b, c])
    } else {
        r
    };
    x.outp(f, r)
}

/// Unfused `round(round(a * b) + c)` with every denormal flushed (v_mad/v_mac, LLVM's
/// FMAD_FTZ; precision notes §7.4).
#[inline(always)]
fn fmad(f: Fmt, a: u64, b: u64, c: u64, x: Fp) -> u64 {
    let x = x.ftz();
    let p = fmul(f, a, b, x);
    fadd(f, p, c, x)
}

/// V_MAD_F32 on register bits under `mode`: unfused, every denormal flushed, MODE's f32
/// rounding. The interpolation instructions are executed as this (the manuals: "SQ
/// translates to V_MAD_F32").
pub(super) fn mad_f32(mode: Mode, a: u32, b: u32, c: u32) -> u32 {
    fmad(F32, a as u64, b as u64, c as u64, Fp::new(mode, F32)) as u32
}

/// An f32 rounded to f16 as V_CVT_F16_F32 does under `mode` (f16 rounding mode, f16 output
/// denormals kept or flushed, NaN quieted).
pub(super) fn f32_to_f16(mode: Mode, x: u32) -> u16 {
    let xs = Fp::new(mode, F32);
    let xd = Fp::new(mode, F16);
    let v = F32.to_f64(xs.inp(F32, x as u64));
    if v.is_nan() {
        return F16.nan_from_f64(v) as u16;
    }
    xd.outp(F16, soft::from_f64(F16, v, xd.rm)) as u16
}

/// The legacy multiply: +0 when either factor is ±0 (even against ∞ or NaN), else an
/// ordinary product.
#[inline(always)]
fn fmul_legacy(f: Fmt, a: u64, b: u64, x: Fp) -> u64 {
    let (a, b) = (x.inp(f, a), x.inp(f, b));
    if f.is_zero(a) || f.is_zero(b) {
        0
    } else {
        fmul(f, a, b, x)
    }
}

/// `v_mad_legacy_f32`/`v_mac_legacy_f32`: the legacy product rounded, plus `c`, rounded,
/// denormals always flushed.
#[inline(always)]
fn fmad_legacy(f: Fmt, a: u64, b: u64, c: u64, x: Fp) -> u64 {
    let x = x.ftz();
    let p = fmul_legacy(f, a, b, x);
    fadd(f, p, c, x)
}

/// IEEE-mode NaN rule shared by min and max: a signalling NaN wins (quieted); otherwise a
/// NaN operand loses. Returns the decided result, if any.
#[inline(always)]
fn minmax_nan(f: Fmt, a: u64, b: u64, ieee: bool) -> Option<u64> {
    if ieee && f.is_snan(a) {
        return Some(f.quieted(a));
    }
    if ieee && f.is_snan(b) {
        return Some(f.quieted(b));
    }
    if f.is_nan(a) {
        return Some(b);
    }
    if f.is_nan(b) {
        return Some(a);
    }
    None
}

/// `min` (precision notes §7.3): -0 is below +0.
#[inline(always)]
fn fmin(f: Fmt, a: u64, b: u64, x: Fp) -> u64 {
    let (a, b) = (x.inp(f, a), x.inp(f, b));
    let r = match minmax_nan(f, a, b, x.ieee) {
        Some(r) => r,
        None => {
            let (va, vb) = (f.to_f64(a), f.to_f64(b));
            if va < vb || (va == vb && f.is_neg(a)) {
                a
            } else {
                b
            }
        }
    };
    x.outp(f, r)
}

/// `max` (precision notes §7.3): +0 is above -0.
#[inline(always)]
fn fmax(f: Fmt, a: u64, b: u64, x: Fp) -> u64 {
    let (a, b) = (x.inp(f, a), x.inp(f, b));
    let r = match minmax_nan(f, a, b, x.ieee) {
        Some(r) => r,
        None => {
            let (va, vb) = (f.to_f64(a), f.to_f64(b));
            if va > vb || (va == vb && !f.is_neg(a)) {
                a
            } else {
                b
            }
        }
    };
    x.outp(f, r)
}

/// `med3`: with a NaN operand, the min3 of the three; otherwise the middle value, found as
/// the max of the two operands that are not the max3 (AMD V_MED3 pseudo-code).
#[inline(always)]
fn fmed3(f: Fmt, a: u64, b: u64, c: u64, x: Fp) -> u64 {
    let (a, b, c) = (x.inp(f, a), x.inp(f, b), x.inp(f, c));
    if f.is_nan(a) || f.is_nan(b) || f.is_nan(c) {
        return fmin(f, fmin(f, a, b, x), c, x);
    }
    let m = f.to_f64(fmax(f, fmax(f, a, b, x), c, x));
    if m == f.to_f64(a) {
        fmax(f, b, c, x)
    } else if m == f.to_f64(b) {
        fmax(f, a, c, x)
    } else {
        fmax(f, a, b, x)
    }
}

/// `x * 2^n`, rounded once with the mode.
#[inline(always)]
fn fldexp(f: Fmt, a: u64, n: i32, x: Fp) -> u64 {
    let a = x.inp(f, a);
    if f.is_nan(a) {
        return f.quieted(a);
    }
    // Normal in, normal out: only the exponent field changes.
    let e = f.exp_field(a) as i64;
    let emax = (1i64 << f.ebits) - 1;
    if e > 0 && e < emax && e + (n as i64) > 0 && e + (n as i64) < emax {
        return (a & !f.exp_mask()) | ((e + n as i64) as u64) << f.frac;
    }
    x.outp(f, soft::ldexp(f, f.to_f64(a), n, x.rm))
}

/// Rounds an exact f64 value to format `f` with the environment's mode and output flush.
#[inline(always)]
fn fround(f: Fmt, v: f64, x: Fp) -> u64 {
    let r = if x.native(f) && f == F32 {
        (v as f32).to_bits() as u64
    } else if f == F64 {
        v.to_bits()
    } else {
        soft::from_f64(f, v, x.rm)
    };
    x.outp(f, r)
}

/// An integral-value operation (trunc, ceil, floor, rndne): exact, NaN quieted.
#[inline(always)]
fn fintegral(f: Fmt, a: u64, x: Fp, g: fn(f64) -> f64) -> u64 {
    let a = x.inp(f, a);
    if f.is_nan(a) {
        return f.quieted(a);
    }
    soft::from_f64(f, g(f.to_f64(a)), RNE)
}

/// `v_fract` (precision notes §6.1): `x - floor(x)` rounded with the mode, below 1.0.
#[inline(always)]
fn ffract(f: Fmt, a: u64, x: Fp) -> u64 {
    let a = x.inp(f, a);
    if f.is_nan(a) {
        return f.quieted(a);
    }
    if f.is_inf(a) {
        // CLRX: a NaN with the sign of the input.
        return f.zero(f.is_neg(a)) | f.exp_mask() | f.quiet();
    }
    let v = f.to_f64(a);
    let r = soft::add(f, v, -v.floor(), x.rm);
    let below_one = f.one() - 1;
    let r = if f.to_f64(r) >= 1.0 { below_one } else { r };
    // -0 - floor(-0) = -0 + 0 = +0.
    x.outp(f, if f.is_zero(r) { 0 } else { r })
}

/// `v_frexp_mant` (precision notes §6.2): the significand in ±[0.5, 1); ±0, ±∞ unchanged
/// and NaN quieted on gfx7+, ±∞ giving the default NaN on gfx6 (CLRX).
#[inline(always)]
fn frexp_mant(f: Fmt, a: u64, x: Fp, gfx6: bool) -> u64 {
    let a = x.inp(f, a);
    if f.is_nan(a) {
        return f.quieted(a);
    }
    if f.is_inf(a) {
        return if gfx6 { f.default_nan() } else { a };
    }
    if f.is_zero(a) {
        return a;
    }
    let (neg, m, _) = soft::decompose(f.to_f64(a));
    let len = 64 - m.leading_zeros() as i32;
    soft::round(f, neg, m as u128, -len, RNE)
}

/// `v_frexp_exp`: the exponent of the significand in [0.5, 1); 0 for ±0, and for ±∞/NaN
/// 0 on gfx7+ and -1 on gfx6 (CLRX).
#[inline(always)]
fn frexp_exp(f: Fmt, a: u64, x: Fp, gfx6: bool) -> i32 {
    let a = x.inp(f, a);
    if f.is_nan(a) || f.is_inf(a) {
        return if gfx6 { -1 } else { 0 };
    }
    if f.is_zero(a) {
        return 0;
    }
    let (_, m, e) = soft::decompose(f.to_f64(a));
    e + 64 - m.leading_zeros() as i32
}

// ---------------------------------------------------------------------------------------
// Semantic-function generators.

/// A float operation of const width `B` (16, 32, 64) over sources `src0, src1, ...` read
/// with their modifiers; the lane body sees the sources' bits (u64), the format `$f`, the
/// environment `$x` and the op `$o`, and yields the result's bits.
macro_rules! fop {
    ($name:ident, ($($v:ident),*), |$f:ident, $x:ident, $o:ident| $body:expr) => {
        fn $name<const B: u8>(
            w: &mut Wave,
            op: &Op,
            env: &mut Env<'_>,
        ) -> Result<Flow, Fault> {
            let mut _i = 0usize;
            $(
                let $v = read(w, op, env, _i, B);
                _i += 1;
            )*
            #[allow(unused_variables)]
            let $f = fmt_of(B);
            #[allow(unused_variables)]
            let $x = Fp::new(w.mode, $f);
            #[allow(unused_variables)]
            let $o = op;
            let r: [u64; LANES] = std::array::from_fn(|l| {
                $(let $v = $v[l];)*
                $body
            });
            put(w, op, &r, B);
            Ok(Flow::Next)
        }
    };
}

/// An f32 operation with a native fast path: when MODE rounds to nearest even and keeps f32
/// denormals (what clang's gfx9+ kernels run with), the host's IEEE arithmetic gives exactly
/// the ISA's result except for NaN payloads; the loop runs natively over the lanes and only
/// lanes whose result is a NaN are recomputed by the general lane function. Any other MODE,
/// modifier or width takes the general path of [`fop!`].
macro_rules! fop32_fast {
    ($name:ident, $general:ident, ($($v:ident),*), |$o:ident| $fast:expr) => {
        fn $name<const B: u8>(
            w: &mut Wave,
            op: &Op,
            env: &mut Env<'_>,
        ) -> Result<Flow, Fault> {
            let x = Fp::new(w.mode, fmt_of(B));
            if B != 32 || x.rm != 0 || !x.din || !x.dout || op.mods.clamp || op.mods.omod != 0 {
                return $general::<B>(w, op, env);
            }
            let mut _i = 0usize;
            $(
                let $v = crate::semantics::valu::src32_ref(w, op, env, _i);
                let $v: &Lanes = &$v;
                _i += 1;
            )*
            #[allow(unused_variables)]
            let $o = op;
            let r: Lanes = std::array::from_fn(|l| {
                $(let $v = f32::from_bits($v[l]);)*
                ($fast).to_bits()
            });
            // A fold rather than `any`: without the early exit the test vectorises.
            let nan = r.iter().fold(false, |nan, &v| {
                nan | (v & 0x7f80_0000 == 0x7f80_0000 && v & 0x7f_ffff != 0)
            });
            if nan {
                return $general::<B>(w, op, env);
            }
            write32(w, op, &r);
            Ok(Flow::Next)
        }
    };
}

fop32_fast!(add, add_general, (a, b), |o| a + b);
fop32_fast!(sub, sub_general, (a, b), |o| a - b);
fop32_fast!(subrev, subrev_general, (a, b), |o| b - a);
fop32_fast!(mul, mul_general, (a, b), |o| a * b);
fop32_fast!(fma, fma_general, (a, b, c), |o| soft::fma_f32(a, b, c));
fop32_fast!(fmaak, fmaak_general, (a, b), |o| soft::fma_f32(
    a,
    b,
    f32::from_bits(o.imm as u32)
));
fop32_fast!(fmamk, fmamk_general, (a, b), |o| soft::fma_f32(
    a,
    f32::from_bits(o.imm as u32),
    b
));

fop!(add_general, (a, b), |f, x, o| fadd(f, a, b, x));
fop!(sub_general, (a, b), |f, x, o| fsub(f, a, b, x));
fop!(subrev_general, (a, b), |f, x, o| fsub(f, b, a, x));
fop!(mul_general, (a, b), |f, x, o| fmul(f, a, b, x));
fop!(mul_legacy, (a, b), |f, x, o| fmul_legacy(f, a, b, x));
fop!(fma_general, (a, b, c), |f, x, o| ffma(f, a, b, c, x));
fop!(mad, (a, b, c), |f, x, o| fmad(f, a, b, c, x));
fop!(mad_legacy, (a, b, c), |f, x, o| fmad_legacy(f, a, b, c, x));
fop!(min, (a, b), |f, x, o| fmin(f, a, b, x));
fop!(max, (a, b), |f, x, o| fmax(f, a, b, x));
fop!(min3, (a, b, c), |f, x, o| fmin(f, fmin(f, a, b, x), c, x));
fop!(max3, (a, b, c), |f, x, o| fmax(f, fmax(f, a, b, x), c, x));
fop!(med3, (a, b, c), |f, x, o| fmed3(f, a, b, c, x));
// madak: src0 * src1 + K; madmk: src0 * K + src1 (the K constant is in op.imm).
fop!(madak, (a, b), |f, x, o| fmad(
    f,
    a,
    b,
    o.imm as u64 & mask_of(f),
    x
));
fop!(madmk, (a, b), |f, x, o| fmad(
    f,
    a,
    o.imm as u64 & mask_of(f),
    b,
    x
));
fop!(fmaak_general, (a, b), |f, x, o| ffma(
    f,
    a,
    b,
    o.imm as u64 & mask_of(f),
    x
));
fop!(fmamk_general, (a, b), |f, x, o| ffma(
    f,
    a,
    o.imm as u64 & mask_of(f),
    b,
    x
));
fop!(trunc, (a), |f, x, o| fintegral(f, a, x, f64::trunc));
fop!(ceil, (a), |f, x, o| fintegral(f, a, x, f64::ceil));
fop!(floor, (a), |f, x, o| fintegral(f, a, x, f64::floor));
fop!(rndne, (a), |f, x, o| fintegral(
    f,
    a,
    x,
    f64::round_ties_even
));
fop!(fract, (a), |f, x, o| ffract(f, a, x));
fop!(frexp_mant_op, (a), |f, x, o| frexp_mant(f, a, x, false));
fop!(frexp_mant_gfx6, (a), |f, x, o| frexp_mant(f, a, x, true));
fop!(div_fixup, (q, d, n), |f, x, o| div_fixup_lane(f, q, d, n));

/// The bits of a format's values (the K constant of a 16-bit madak sits in a 32-bit word).
#[inline(always)]
const fn mask_of(f: Fmt) -> u64 {
    if f.frac == 52 {
        u64::MAX
    } else {
        (1u64 << (f.frac + f.ebits + 1)) - 1
    }
}

/// v_mac / v_fmac: `src0 * src1 + vdst` (unfused for mac, fused for fmac).
fn mac<const B: u8, const FUSED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, B);
    let b = read(w, op, env, 1, B);
    let c = read_acc(w, op, B);
    let f = fmt_of(B);
    let x = Fp::new(w.mode, f);
    let r: [u64; LANES] = std::array::from_fn(|l| {
        if FUSED {
            ffma(f, a[l], b[l], c[l], x)
        } else {
            fmad(f, a[l], b[l], c[l], x)
        }
    });
    put(w, op, &r, B);
    Ok(Flow::Next)
}

/// v_mac_legacy_f32 (gfx6/7): the legacy product plus vdst.
fn mac_legacy(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let b = read(w, op, env, 1, 32);
    let c = read_acc(w, op, 32);
    let x = Fp::new(w.mode, F32);
    let r: [u64; LANES] = std::array::from_fn(|l| fmad_legacy(F32, a[l], b[l], c[l], x));
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// v_min_legacy_f32 / v_max_legacy_f32 (gfx6/7): the DX9 comparisons `a < b ? a : b` and
/// `a >= b ? a : b`, so a NaN in either operand selects src1 (CLRX: a NaN src1 gives NaN).
fn minmax_legacy<const MAX: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let b = read(w, op, env, 1, 32);
    let x = Fp::new(w.mode, F32);
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let (a, b) = (x.inp(F32, a[l]), x.inp(F32, b[l]));
        let (va, vb) = (f32v(a), f32v(b));
        let pick_a = if MAX { va >= vb } else { va < vb };
        let r = if pick_a { a } else { b };
        x.outp(F32, if F32.is_nan(r) { F32.quieted(r) } else { r })
    });
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// v_ldexp: src0 * 2^src1 with src1 a signed 32-bit integer (16-bit for the f16 form).
fn ldexp<const B: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, B);
    let n: [i32; LANES] = if B == 16 {
        let v = src16(w, op, env, 1);
        std::array::from_fn(|l| v[l] as i16 as i32)
    } else {
        let v = src32(w, op, env, 1);
        std::array::from_fn(|l| v[l] as i32)
    };
    let f = fmt_of(B);
    let x = Fp::new(w.mode, f);
    let r: [u64; LANES] = std::array::from_fn(|l| fldexp(f, a[l], n[l], x));
    put(w, op, &r, B);
    Ok(Flow::Next)
}

/// v_frexp_exp_i32_f32/f64 and v_frexp_exp_i16_f16.
fn frexp_exp_op<const B: u8, const GFX6: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, B);
    let f = fmt_of(B);
    let x = Fp::new(w.mode, f);
    if B == 16 {
        let r: [u16; LANES] = std::array::from_fn(|l| frexp_exp(f, a[l], x, GFX6) as u16);
        put_u16(w, op, &r);
    } else {
        let r: Lanes = std::array::from_fn(|l| frexp_exp(f, a[l], x, GFX6) as u32);
        put_u32(w, op, &r);
    }
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------
// Selection.

/// The semantic function for `inst`, if it is a floating-point (or float-adjacent) VALU
/// operation of this family.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    let def = inst.def();
    let gen = inst.gen;
    let gfx6 = gen == Gen::Gfx6;
    let reduced_trig = matches!(gen, Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8);
    let si_ci = gen.is_si_ci();
    let f: ExecFn = match def.op {
        // Arithmetic.
        M::VAddF32 => add::<32>,
        M::VAddF64 => add::<64>,
        M::VAddF16 => add::<16>,
        M::VSubF32 => sub::<32>,
        M::VSubF16 => sub::<16>,
        M::VSubrevF32 => subrev::<32>,
        M::VSubrevF16 => subrev::<16>,
        M::VMulF32 => mul::<32>,
        M::VMulF64 => mul::<64>,
        M::VMulF16 => mul::<16>,
        M::VMulLegacyF32 => mul_legacy::<32>,
        M::VFmaF32 => fma::<32>,
        M::VFmaF64 => fma::<64>,
        M::VFmaF16 | M::VFmaLegacyF16 => fma::<16>,
        M::VMadF32 => mad::<32>,
        M::VMadF16 | M::VMadLegacyF16 => mad::<16>,
        M::VMadLegacyF32 => mad_legacy::<32>,
        M::VMacF32 => mac::<32, false>,
        M::VMacF16 => mac::<16, false>,
        M::VFmacF32 => mac::<32, true>,
        M::VFmacF64 => mac::<64, true>,
        M::VMacLegacyF32 => mac_legacy,
        M::VMadakF32 => madak::<32>,
        M::VMadakF16 => madak::<16>,
        M::VMadmkF32 => madmk::<32>,
        M::VMadmkF16 => madmk::<16>,
        M::VFmaakF32 => fmaak::<32>,
        M::VFmamkF32 => fmamk::<32>,
        M::VMinF32 => min::<32>,
        M::VMinF64 => min::<64>,
        M::VMinF16 => min::<16>,
        M::VMaxF32 => max::<32>,
        M::VMaxF64 => max::<64>,
        M::VMaxF16 => max::<16>,
        M::VMinLegacyF32 => minmax_legacy::<false>,
        M::VMaxLegacyF32 => minmax_legacy::<true>,
        M::VMin3F32 => min3::<32>,
        M::VMin3F16 => min3::<16>,
        M::VMax3F32 => max3::<32>,
        M::VMax3F16 => max3::<16>,
        M::VMed3F32 => med3::<32>,
        M::VMed3F16 => med3::<16>,
        M::VLdexpF32 => ldexp::<32>,
        M::VLdexpF64 => ldexp::<64>,
        M::VLdexpF16 => ldexp::<16>,
        // Rounding to integral values and fractions.
        M::VTruncF32 => trunc::<32>,
        M::VTruncF64 => trunc::<64>,
        M::VTruncF16 => trunc::<16>,
        M::VCeilF32 => ceil::<32>,
        M::VCeilF64 => ceil::<64>,
        M::VCeilF16 => ceil::<16>,
        M::VFloorF32 => floor::<32>,
        M::VFloorF64 => floor::<64>,
        M::VFloorF16 => floor::<16>,
        M::VRndneF32 => rndne::<32>,
        M::VRndneF64 => rndne::<64>,
        M::VRndneF16 => rndne::<16>,
        M::VFractF32 => fract::<32>,
        M::VFractF64 => fract::<64>,
        M::VFractF16 => fract::<16>,
        M::VFrexpMantF32 if gfx6 => frexp_mant_gfx6::<32>,
        M::VFrexpMantF64 if gfx6 => frexp_mant_gfx6::<64>,
        M::VFrexpMantF32 => frexp_mant_op::<32>,
        M::VFrexpMantF64 => frexp_mant_op::<64>,
        M::VFrexpMantF16 => frexp_mant_op::<16>,
        M::VFrexpExpI32F32 if gfx6 => frexp_exp_op::<32, true>,
        M::VFrexpExpI32F64 if gfx6 => frexp_exp_op::<64, true>,
        M::VFrexpExpI32F32 => frexp_exp_op::<32, false>,
        M::VFrexpExpI32F64 => frexp_exp_op::<64, false>,
        M::VFrexpExpI16F16 => frexp_exp_op::<16, false>,
        // Transcendentals.
        M::VRcpF32 | M::VRcpIflagF32 => tf32::<T_RCP, P_NONE>,
        M::VRcpLegacyF32 => tf32::<T_RCP, P_RCP_LEGACY>,
        M::VRcpClampF32 => tf32::<T_RCP, P_CLAMP>,
        M::VRsqF32 => tf32::<T_RSQ, P_NONE>,
        M::VRsqLegacyF32 => tf32::<T_RSQ, P_RSQ_LEGACY>,
        M::VRsqClampF32 => tf32::<T_RSQ, P_CLAMP>,
        M::VSqrtF32 => tf32::<T_SQRT, P_NONE>,
        M::VLogF32 | M::VLogLegacyF32 => tf32::<T_LOG, P_NONE>,
        M::VLogClampF32 => tf32::<T_LOG, P_CLAMP_NEG>,
        M::VExpF32 | M::VExpLegacyF32 => tf32::<T_EXP, P_NONE>,
        M::VRcpF64 => tf_wide::<64, T_RCP, P_NONE>,
        M::VRcpClampF64 => tf_wide::<64, T_RCP, P_CLAMP>,
        M::VRsqF64 => tf_wide::<64, T_RSQ, P_NONE>,
        M::VRsqClampF64 => tf_wide::<64, T_RSQ, P_CLAMP>,
        M::VSqrtF64 => tf_wide::<64, T_SQRT, P_NONE>,
        M::VRcpF16 => tf_wide::<16, T_RCP, P_NONE>,
        M::VRsqF16 => tf_wide::<16, T_RSQ, P_NONE>,
        M::VSqrtF16 => tf_wide::<16, T_SQRT, P_NONE>,
        M::VLogF16 => tf_wide::<16, T_LOG, P_NONE>,
        M::VExpF16 => tf_wide::<16, T_EXP, P_NONE>,
        M::VSinF32 if reduced_trig => sincos::<32, false, true>,
        M::VCosF32 if reduced_trig => sincos::<32, true, true>,
        M::VSinF16 if reduced_trig => sincos::<16, false, true>,
        M::VCosF16 if reduced_trig => sincos::<16, true, true>,
        M::VSinF32 => sincos::<32, false, false>,
        M::VCosF32 => sincos::<32, true, false>,
        M::VSinF16 => sincos::<16, false, false>,
        M::VCosF16 => sincos::<16, true, false>,
        M::VTrigPreopF64 => trig_preop,
        // Division helpers.
        M::VDivScaleF32 => div_scale::<32>,
        M::VDivScaleF64 => div_scale::<64>,
        M::VDivFmasF32 => div_fmas::<32>,
        M::VDivFmasF64 => div_fmas::<64>,
        M::VDivFixupF32 => div_fixup::<32>,
        M::VDivFixupF64 => div_fixup::<64>,
        M::VDivFixupF16 | M::VDivFixupLegacyF16 => div_fixup::<16>,
        // Conversions.
        M::VCvtI32F32 => cvt_to_int::<32, true>,
        M::VCvtU32F32 => cvt_to_int::<32, false>,
        M::VCvtI32F64 => cvt_to_int::<64, true>,
        M::VCvtU32F64 => cvt_to_int::<64, false>,
        M::VCvtI16F16 => cvt_to_int::<16, true>,
        M::VCvtU16F16 => cvt_to_int::<16, false>,
        M::VCvtFlrI32F32 => cvt_flr_rpi::<false>,
        M::VCvtRpiI32F32 => cvt_flr_rpi::<true>,
        M::VCvtF32I32 => cvt_from_int::<32, 0>,
        M::VCvtF32U32 => cvt_from_int::<32, 1>,
        M::VCvtF64I32 => cvt_from_int::<64, 0>,
        M::VCvtF64U32 => cvt_from_int::<64, 1>,
        M::VCvtF32Ubyte0 => cvt_from_int::<32, 2>,
        M::VCvtF32Ubyte1 => cvt_from_int::<32, 3>,
        M::VCvtF32Ubyte2 => cvt_from_int::<32, 4>,
        M::VCvtF32Ubyte3 => cvt_from_int::<32, 5>,
        M::VCvtF16I16 => cvt_from_int::<16, 6>,
        M::VCvtF16U16 => cvt_from_int::<16, 7>,
        M::VCvtOffF32I4 => cvt_from_int::<32, 8>,
        M::VCvtF32F64 => cvt_float::<64, 32, false>,
        M::VCvtF64F32 => cvt_float::<32, 64, false>,
        M::VCvtF32F16 => cvt_float::<16, 32, false>,
        M::VCvtF16F32 if si_ci => cvt_float::<32, 16, true>,
        M::VCvtF16F32 => cvt_float::<32, 16, false>,
        M::VCvtNormI16F16 => cvt_norm16::<true>,
        M::VCvtNormU16F16 => cvt_norm16::<false>,
        M::VCvtPknormI16F32 => cvt_pknorm::<32, true>,
        M::VCvtPknormU16F32 => cvt_pknorm::<32, false>,
        M::VCvtPknormI16F16 => cvt_pknorm::<16, true>,
        M::VCvtPknormU16F16 => cvt_pknorm::<16, false>,
        M::VCvtPkrtzF16F32 => cvt_pkrtz,
        M::VPackB32F16 => pack_b32_f16,
        M::VCvtPkU8F32 => cvt_pk_u8_f32,
        M::VCvtPkaccumU8F32 => cvt_pkaccum_u8_f32,
        M::VCvtPkU16U32 => cvt_pk_int16::<false>,
        M::VCvtPkI16I32 => cvt_pk_int16::<true>,
        M::VCvtF32Fp8 => cvt_f32_f8::<false>,
        M::VCvtF32Bf8 => cvt_f32_f8::<true>,
        M::VCvtPkF32Fp8 => cvt_pk_f32_f8::<false>,
        M::VCvtPkF32Bf8 => cvt_pk_f32_f8::<true>,
        M::VCvtPkFp8F32 => cvt_pk_f8_f32::<false>,
        M::VCvtPkBf8F32 => cvt_pk_f8_f32::<true>,
        M::VCvtSrFp8F32 => cvt_sr_f8_f32::<false>,
        M::VCvtSrBf8F32 => cvt_sr_f8_f32::<true>,
        // Mixed precision.
        M::VFmaMixF32 => mix::<0, true>,
        M::VFmaMixloF16 => mix::<1, true>,
        M::VFmaMixhiF16 => mix::<2, true>,
        M::VMadMixF32 => mix::<0, false>,
        M::VMadMixloF16 => mix::<1, false>,
        M::VMadMixhiF16 => mix::<2, false>,
        // Cube maps, bytes, SADs.
        M::VCubeidF32 => cube::<0>,
        M::VCubescF32 => cube::<1>,
        M::VCubetcF32 => cube::<2>,
        M::VCubemaF32 => cube::<3>,
        M::VMullitF32 => mullit,
        M::VLerpU8 => lerp_u8,
        M::VSadU8 => sad::<0>,
        M::VSadHiU8 => sad::<1>,
        M::VSadU16 => sad::<2>,
        M::VSadU32 => sad::<3>,
        M::VMsadU8 => sad::<4>,
        M::VQsadPkU16U8 => qsad_pk::<false>,
        M::VMqsadPkU16U8 => qsad_pk::<true>,
        M::VMqsadU32U8 => mqsad_u32,
        _ => return None,
    };
    // Results that keep the high half of a 16-bit destination on gfx9+.
    let keeps_hi = matches!(
        def.op,
        M::VMadF16 | M::VFmaF16 | M::VDivFixupF16 | M::VMacF16 | M::VMadakF16 | M::VMadmkF16
    );
    if keeps_hi && gen.is_gfx9_family() {
        op.imm2 |= KEEP_HI;
    }
    // VOP3B (v_div_scale): SDST occupies bits 14:8, where the generic decoding finds the
    // gfx9 op_sel field and the gfx6/7 VOP3A clamp bit (11); a VCC destination (0x6a) sets
    // both. The VOP3B clamp bit is 15 on every generation (CLRX GcnInstrsVop3.md).
    if def.has(flags::VOP3B) && inst.encoding == Encoding::Vop3 {
        op.mods.op_sel = 0;
        op.mods.clamp = (inst.bits >> 15) & 1 != 0;
    }
    // Output modifiers are applied by `put` with the hardware's rules.
    op.mods.float_bits = 0;
    Some(f)
}
