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

use gcnkit_isa::{flags, DataType, Encoding, Form, Gen, Instruction, Mnemonic as M, Role};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{BuildContext, Op, Src};
use crate::semantics::valu::{
    raw32, src16, src32, src64, write32, write32_masked, write64, write_mask, Lanes64,
};
use crate::wave::{Lanes, Mode, Wave, LANES};

mod soft;
#[cfg(test)]
mod tests;

use soft::{Fmt, F16, F32, F64, OVFL_CLAMP, RDN, RNE, RTZ};

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
        f32v(a).mul_add(f32v(b), f32v(c)).to_bits() as u64
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

fop!(add, (a, b), |f, x, o| fadd(f, a, b, x));
fop!(sub, (a, b), |f, x, o| fsub(f, a, b, x));
fop!(subrev, (a, b), |f, x, o| fsub(f, b, a, x));
fop!(mul, (a, b), |f, x, o| fmul(f, a, b, x));
fop!(mul_legacy, (a, b), |f, x, o| fmul_legacy(f, a, b, x));
fop!(fma, (a, b, c), |f, x, o| ffma(f, a, b, c, x));
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
fop!(fmaak, (a, b), |f, x, o| ffma(
    f,
    a,
    b,
    o.imm as u64 & mask_of(f),
    x
));
fop!(fmamk, (a, b), |f, x, o| ffma(
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
fn tf32<const T: u8, const P: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
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
fn tf_wide<const B: u8, const T: u8, const P: u8>(
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

const T_RCP: u8 = 0;
const T_RSQ: u8 = 1;
const T_SQRT: u8 = 2;
const T_LOG: u8 = 3;
const T_EXP: u8 = 4;
const P_NONE: u8 = 0;
const P_CLAMP: u8 = 1;
const P_RCP_LEGACY: u8 = 2;
const P_RSQ_LEGACY: u8 = 3;
const P_CLAMP_NEG: u8 = 4;

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

fn sincos<const B: u8, const COS: bool, const REDUCED: bool>(
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
const TWO_OVER_PI: [u32; 38] = [
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
fn trig_preop(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
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

// ---------------------------------------------------------------------------------------
// Division helpers (precision notes §9).

/// True when the exact quotient `|n / d|` (both finite nonzero) is below 2^`t`.
fn quotient_below(n: f64, d: f64, t: i32) -> bool {
    let norm = |x: f64| {
        let (_, m, e) = soft::decompose(x);
        let len = 64 - m.leading_zeros() as i32;
        (m << (64 - len), e + len - 1)
    };
    let ((mn, en), (md, ed)) = (norm(n), norm(d));
    // n/d = (mn/md) * 2^(en-ed) with mn/md in (1/2, 2).
    let k = t - (en - ed);
    match k {
        k if k >= 1 => true,
        k if k <= -1 => false,
        _ => mn < md,
    }
}

/// v_div_scale (§9.1): returns the scaled (or passed-through) src0 and the VCC bit.
fn div_scale_lane(f: Fmt, s0: u64, s1: u64, s2: u64) -> (u64, bool) {
    let (big, scale, tiny) = if f == F32 {
        (96, 64, 23)
    } else {
        (768, 128, 53)
    };
    let (v0, v1, v2) = (f.to_f64(s0), f.to_f64(s1), f.to_f64(s2));
    let scaled = |n: i32| soft::ldexp(f, v0, n, RNE);
    if v1 == 0.0 || v2 == 0.0 {
        return (f.default_nan(), false);
    }
    let (e1, e2) = (f.exp_field(s1) as i32, f.exp_field(s2) as i32);
    let finite = v1.is_finite() && v2.is_finite();
    // |1/S1| is denormal when |S1| > 2^(bias-1).
    let rcp_tiny = f.to_f64(fabs(f, s1)) > soft::pow2(f.bias() - 1);
    let quot_tiny = finite && quotient_below(v2, v1, 1 - f.bias());
    if e2 - e1 >= big {
        (if v0 == v1 { scaled(scale) } else { s0 }, true)
    } else if f.is_denorm(s1) {
        (scaled(scale), false)
    } else if rcp_tiny && quot_tiny {
        (if v0 == v1 { scaled(-scale) } else { s0 }, true)
    } else if rcp_tiny {
        (scaled(-scale), false)
    } else if quot_tiny {
        (if v0 == v2 { scaled(scale) } else { s0 }, true)
    } else if e2 <= tiny {
        (scaled(scale), false)
    } else {
        (s0, false)
    }
}

fn div_scale<const B: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let b = read(w, op, env, 1, B);
    let c = read(w, op, env, 2, B);
    let mut r = [0u64; LANES];
    let mut vcc = 0u64;
    for l in 0..LANES {
        let (d, v) = div_scale_lane(f, a[l], b[l], c[l]);
        r[l] = d;
        vcc |= (v as u64) << l;
    }
    let mask = write_mask(w, op);
    put(w, op, &r, B);
    w.set_sreg64(op.sdst, vcc & mask);
    Ok(Flow::Next)
}

/// v_div_fmas (§9.2): a fused multiply-add whose exact result is scaled by 2^±64 (f64:
/// 2^±128) in the lanes where VCC is set, upward when |src2| >= 2, then rounded once.
/// Input denormals are never flushed.
fn div_fmas<const B: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let b = read(w, op, env, 1, B);
    let c = read(w, op, env, 2, B);
    let vcc = w.vcc();
    let x = Fp {
        din: true,
        ..Fp::new(w.mode, f)
    };
    let scale = if f == F32 { 64 } else { 128 };
    let r: [u64; LANES] = std::array::from_fn(|l| {
        if vcc >> l & 1 == 0 {
            return ffma(f, a[l], b[l], c[l], x);
        }
        let n = if f.exp_field(c[l]) as i32 > f.bias() {
            scale
        } else {
            -scale
        };
        let (va, vb, vc) = (f.to_f64(a[l]), f.to_f64(b[l]), f.to_f64(c[l]));
        let r = soft::fma_scaled(f, va, vb, vc, n, x.rm);
        let r = if f.is_nan(r) {
            nan_result(f, &[a[l], b[l], c[l]])
        } else {
            r
        };
        x.outp(f, r)
    });
    put(w, op, &r, B);
    Ok(Flow::Next)
}

/// v_div_fixup (§9.3): src0 = quotient estimate, src1 = denominator, src2 = numerator.
fn div_fixup_lane(f: Fmt, q: u64, d: u64, n: u64) -> u64 {
    let neg = f.is_neg(d) != f.is_neg(n);
    if f.is_nan(n) {
        return f.quieted(n);
    }
    if f.is_nan(d) {
        return f.quieted(d);
    }
    if f.is_zero(d) && f.is_zero(n) {
        return f.default_nan();
    }
    if f.is_inf(d) && f.is_inf(n) {
        return f.default_nan();
    }
    if f.is_zero(d) || f.is_inf(n) {
        return f.inf(neg);
    }
    if f.is_inf(d) || f.is_zero(n) {
        return f.zero(neg);
    }
    // Quotients below half the smallest denormal round to zero (f16 has no such clause).
    let under = match f.frac {
        23 => Some(-150),
        52 => Some(-1075),
        _ => None,
    };
    if let Some(u) = under {
        if (f.exp_field(n) as i32) - (f.exp_field(d) as i32) < u {
            return f.zero(neg);
        }
    }
    if f.is_nan(q) {
        return f.inf(neg);
    }
    fabs(f, q) | f.zero(neg)
}

fop!(div_fixup, (q, d, n), |f, x, o| div_fixup_lane(f, q, d, n));

// ---------------------------------------------------------------------------------------
// Conversions (precision notes §8).

/// f32/f64 source to a saturated integer, truncating (`as` saturates and maps NaN to 0).
fn cvt_to_int<const B: u8, const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let x = Fp::new(w.mode, f);
    if B == 16 {
        let r: [u16; LANES] = std::array::from_fn(|l| {
            let v = f.to_f64(x.inp(f, a[l]));
            if SIGNED {
                v as i16 as u16
            } else {
                v as u16
            }
        });
        put_u16(w, op, &r);
    } else {
        let r: Lanes = std::array::from_fn(|l| {
            let v = f.to_f64(x.inp(f, a[l]));
            if SIGNED {
                v as i32 as u32
            } else {
                v as u32
            }
        });
        put_u32(w, op, &r);
    }
    Ok(Flow::Next)
}

/// v_cvt_flr_i32_f32 (floor) and v_cvt_rpi_i32_f32 (floor of the f32 sum x + 0.5), then
/// saturated; NaN gives 0 (the AMD pseudo-code; CLRX's INT_MAX/MIN for NaN is not used).
fn cvt_flr_rpi<const RPI: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let x = Fp::new(w.mode, F32);
    let r: Lanes = std::array::from_fn(|l| {
        let v = if RPI {
            fadd(F32, a[l], 0x3f00_0000, x)
        } else {
            x.inp(F32, a[l])
        };
        f32v(v).floor() as i32 as u32
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// Integer to float: `K` selects the source reading (0 i32, 1 u32, 2..=5 unsigned byte 0..3,
/// 6 i16, 7 u16, 8 the signed 4-bit offset form), `B` the destination width.
fn cvt_from_int<const B: u8, const K: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let a16 = if K == 6 || K == 7 {
        src16(w, op, env, 0)
    } else {
        [0; LANES]
    };
    let f = fmt_of(B);
    let x = Fp::new(w.mode, f);
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let v = match K {
            0 => a[l] as i32 as f64,
            1 => a[l] as f64,
            2..=5 => ((a[l] >> (8 * (K as u32 - 2))) & 0xff) as f64,
            6 => a16[l] as i16 as f64,
            7 => a16[l] as f64,
            // v_cvt_off_f32_i4: the low nibble as a signed value, divided by 16.
            _ => ((a[l] << 28) as i32 >> 28) as f64 / 16.0,
        };
        fround(f, v, x)
    });
    put(w, op, &r, B);
    Ok(Flow::Next)
}

/// Float-to-float conversions: `S` source width, `D` destination width. The input is
/// flushed by the source format's MODE field; the result is rounded with the destination
/// format's mode (the f32 field for v_cvt_f32_f64; for v_cvt_f16_f32 the f16 field on gfx8+
/// and the f32 field on gfx6/7, where f16 denormal results are always kept — CLRX).
fn cvt_float<const S: u8, const D: u8, const SI: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let (fs, fd) = (fmt_of(S), fmt_of(D));
    let a = read(w, op, env, 0, S);
    let xs = Fp::new(w.mode, fs);
    let xd = if SI {
        Fp {
            dout: true,
            ..Fp::new(w.mode, F32)
        }
    } else {
        Fp::new(w.mode, fd)
    };
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let v = fs.to_f64(xs.inp(fs, a[l]));
        if v.is_nan() {
            return fd.nan_from_f64(v);
        }
        xd.outp(fd, soft::from_f64(fd, v, xd.rm))
    });
    put(w, op, &r, D);
    Ok(Flow::Next)
}

/// The signed-normalised value of `v` (clamped to [-1, 1], times 32767, rounded to nearest
/// even) or the unsigned one ([0, 1] times 65535); NaN gives 0.
#[inline(always)]
fn norm16(v: f64, signed: bool) -> u16 {
    if v.is_nan() {
        return 0;
    }
    if signed {
        (v.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16
    } else {
        (v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
    }
}

/// v_cvt_norm_i16_f16 / v_cvt_norm_u16_f16 (gfx9+).
fn cvt_norm16<const SIGNED: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 16);
    let x = Fp::new(w.mode, F16);
    let r: [u16; LANES] = std::array::from_fn(|l| norm16(F16.to_f64(x.inp(F16, a[l])), SIGNED));
    put_u16(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pknorm_{i16,u16}_{f32,f16}: two normalised values packed low/high.
fn cvt_pknorm<const B: u8, const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let b = read(w, op, env, 1, B);
    let x = Fp::new(w.mode, f);
    let r: Lanes = std::array::from_fn(|l| {
        let lo = norm16(f.to_f64(x.inp(f, a[l])), SIGNED) as u32;
        let hi = norm16(f.to_f64(x.inp(f, b[l])), SIGNED) as u32;
        lo | hi << 16
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pkrtz_f16_f32: both f32 sources to f16 rounded toward zero whatever MODE says,
/// packed low/high; the output modifiers act on each half.
fn cvt_pkrtz(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let b = read(w, op, env, 1, 32);
    let x32 = Fp::new(w.mode, F32);
    let x16 = Fp::new(w.mode, F16);
    let omod = effective_omod(op, x16);
    let half = |v: u64| {
        let v = F32.to_f64(x32.inp(F32, v));
        let h = x16.outp(F16, soft::from_f64(F16, v, RTZ));
        out_mods(F16, h, omod, op.mods.clamp, x16) as u32
    };
    let r: Lanes = std::array::from_fn(|l| half(a[l]) | half(b[l]) << 16);
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_pack_b32_f16 (gfx9+): two f16 sources (with op_sel and abs/neg) packed low/high.
fn pack_b32_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src16(w, op, env, 0);
    let b = src16(w, op, env, 1);
    let r: Lanes = std::array::from_fn(|l| a[l] as u32 | (b[l] as u32) << 16);
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// The unsigned byte of an f32 for v_cvt_pk_u8_f32/v_cvt_pkaccum_u8_f32: rounded with the
/// mode, saturated to [0, 255], NaN 0.
#[inline(always)]
fn f32_to_u8(a: u64, x: Fp) -> u32 {
    let v = f32v(x.inp(F32, a)) as f64;
    if v.is_nan() {
        return 0;
    }
    let r = match x.rm & 3 {
        RNE => v.round_ties_even(),
        soft::RUP => v.ceil(),
        RDN => v.floor(),
        _ => v.trunc(),
    };
    r.clamp(0.0, 255.0) as u32
}

/// v_cvt_pk_u8_f32: the byte of src0 placed at byte src1[1:0] of src2.
fn cvt_pk_u8_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let s = src32(w, op, env, 1);
    let c = src32(w, op, env, 2);
    let x = Fp::new(w.mode, F32);
    let r: Lanes = std::array::from_fn(|l| {
        let sh = 8 * (s[l] & 3);
        (c[l] & !(0xff << sh)) | f32_to_u8(a[l], x) << sh
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pkaccum_u8_f32: the byte of src0 placed at byte src1[1:0] of vdst.
fn cvt_pkaccum_u8_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let s = src32(w, op, env, 1);
    let d = w.v[op.vdst as usize];
    let x = Fp::new(w.mode, F32);
    let r: Lanes = std::array::from_fn(|l| {
        let sh = 8 * (s[l] & 3);
        (d[l] & !(0xff << sh)) | f32_to_u8(a[l], x) << sh
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pk_u16_u32 / v_cvt_pk_i16_i32: two saturated 16-bit integers packed low/high.
fn cvt_pk_int16<const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let sat = |v: u32| -> u32 {
        if SIGNED {
            (v as i32).clamp(i16::MIN as i32, i16::MAX as i32) as u16 as u32
        } else {
            v.min(0xffff)
        }
    };
    let r: Lanes = std::array::from_fn(|l| sat(a[l]) | sat(b[l]) << 16);
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------
// FP8/BF8 (gfx940): the MI300 "FNUZ" formats — E4M3 with exponent bias 8 and E5M2 with bias
// 16, no infinities and no negative zero; 0x80 is the only NaN.

/// The value of an FP8 (E4M3, bias 8) or BF8 (E5M2, bias 16) byte.
fn f8_to_f64(x: u8, bf8: bool) -> f64 {
    if x == 0x80 {
        return f64::NAN;
    }
    let (mbits, bias) = if bf8 { (2, 16) } else { (3, 8) };
    let e = ((x & 0x7f) >> mbits) as i32;
    let m = (x & ((1 << mbits) - 1)) as f64;
    let mag = if e == 0 {
        m * soft::pow2(1 - bias - mbits)
    } else {
        (1.0 + m / (1 << mbits) as f64) * soft::pow2(e - bias)
    };
    if x & 0x80 != 0 {
        -mag
    } else {
        mag
    }
}

/// An f32 value to FP8/BF8, rounded to nearest even, or stochastically when `rng` is given
/// (the dropped bits plus as many random bits carry into the kept ones). NaN, ±∞ and
/// results beyond the largest finite value give the NaN 0x80; zero results are +0 (the
/// format has no -0).
fn f64_to_f8(v: f64, bf8: bool, rng: Option<u32>) -> u8 {
    if !v.is_finite() {
        return 0x80;
    }
    if v == 0.0 {
        return 0;
    }
    let (mbits, bias) = if bf8 { (2i32, 16i32) } else { (3, 8) };
    let (neg, m, e) = soft::decompose(v);
    let lead = e + 63 - m.leading_zeros() as i32;
    // The weight of the last kept bit: mbits below the leading one, but never below the
    // denormal step 2^(1-bias-mbits).
    let q = (lead - mbits).max(1 - bias - mbits);
    let drop = q - e;
    let kept: u64 = if drop <= 0 {
        m << (-drop) as u32
    } else if drop > 64 {
        // Far below the smallest denormal: nearest rounds to 0; a random carry cannot reach.
        0
    } else {
        let d = drop as u32;
        let (k, rem) = if d == 64 {
            (0, m as u128)
        } else {
            (m >> d, (m & ((1u64 << d) - 1)) as u128)
        };
        let up = match rng {
            None => {
                let half = 1u128 << (d - 1);
                rem > half || (rem == half && k & 1 == 1)
            }
            Some(r) => {
                let (rem, width) = if d > 32 {
                    (rem >> (d - 32), 32)
                } else {
                    (rem, d)
                };
                rem + (r as u128 & ((1u128 << width) - 1)) >= 1u128 << width
            }
        };
        k + up as u64
    };
    if kept == 0 {
        return 0;
    }
    // A rounding carry can make kept 2^(mbits+1): one more exponent step.
    let (kept, q) = if kept >> (mbits + 1) != 0 {
        (kept >> 1, q + 1)
    } else {
        (kept, q)
    };
    let code = if kept >> mbits != 0 {
        let ef = q + mbits + bias;
        if ef >= 1 << (7 - mbits) {
            return 0x80;
        }
        (ef as u64) << mbits | (kept - (1 << mbits))
    } else {
        kept
    };
    code as u8 | if neg { 0x80 } else { 0 }
}

/// v_cvt_f32_fp8 / v_cvt_f32_bf8: the byte of src0 (an SDWA byte select, or op_sel[1:0] in
/// the VOP3 form) to f32.
fn cvt_f32_f8<const BF8: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let sh = 8 * (op.mods.op_sel & 3) as u32;
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let v = f8_to_f64((a[l] >> sh) as u8, BF8);
        if v.is_nan() {
            F32.default_nan()
        } else {
            (v as f32).to_bits() as u64
        }
    });
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// v_cvt_pk_f32_fp8 / v_cvt_pk_f32_bf8: the two bytes of the low word of src0 (WORD_1 by
/// SDWA, or op_sel[0] in the VOP3 form) to two f32 in vdst, vdst+1.
fn cvt_pk_f32_f8<const BF8: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let sh = 16 * (op.mods.op_sel & 1) as u32;
    let conv = |b: u32| {
        let v = f8_to_f64(b as u8, BF8);
        if v.is_nan() {
            F32.default_nan()
        } else {
            (v as f32).to_bits() as u64
        }
    };
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let h = a[l] >> sh;
        conv(h & 0xff) | conv((h >> 8) & 0xff) << 32
    });
    write64(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32: src0 and src1 to two bytes written to word
/// op_sel[3] of vdst, the other word kept.
fn cvt_pk_f8_f32<const BF8: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let d = w.v[op.vdst as usize];
    let sh = if op.mods.op_sel & 8 != 0 { 16 } else { 0 };
    let r: Lanes = std::array::from_fn(|l| {
        let lo = f64_to_f8(f32::from_bits(a[l]) as f64, BF8, None) as u32;
        let hi = f64_to_f8(f32::from_bits(b[l]) as f64, BF8, None) as u32;
        (d[l] & !(0xffff << sh)) | (lo | hi << 8) << sh
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_sr_fp8_f32 / v_cvt_sr_bf8_f32: src0 stochastically rounded with the random bits
/// of src1, written to byte op_sel[3:2] of vdst, the other bytes kept.
fn cvt_sr_f8_f32<const BF8: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let rnd = src32(w, op, env, 1);
    let d = w.v[op.vdst as usize];
    let sh = 8 * ((op.mods.op_sel >> 2) & 3) as u32;
    let r: Lanes = std::array::from_fn(|l| {
        let v = f64_to_f8(f32::from_bits(a[l]) as f64, BF8, Some(rnd[l])) as u32;
        (d[l] & !(0xff << sh)) | v << sh
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------
// Mixed precision (VOP3P v_mad_mix*/v_fma_mix*, gfx9+).

/// One mix source: f32, or (op_sel_hi set) the f16 half selected by op_sel converted
/// exactly; neg_hi takes the absolute value, neg_lo negates.
#[inline(always)]
fn mix_src(w: &Wave, op: &Op, env: &Env<'_>, i: usize) -> [f64; LANES] {
    let v = raw32(w, env, op.src[i]);
    let m = &op.mods;
    let half = m.op_sel_hi >> i & 1 != 0;
    let hi = m.op_sel >> i & 1 != 0;
    let abs = m.neg_hi >> i & 1 != 0;
    let neg = m.neg_lo >> i & 1 != 0;
    let x32 = Fp::new(w.mode, F32);
    let x16 = Fp::new(w.mode, F16);
    std::array::from_fn(|l| {
        let mut x = if half {
            let h = if hi { v[l] >> 16 } else { v[l] } & 0xffff;
            F16.to_f64(x16.inp(F16, h as u64))
        } else {
            F32.to_f64(x32.inp(F32, v[l] as u64))
        };
        if abs {
            x = x.abs();
        }
        if neg {
            x = -x;
        }
        x
    })
}

/// `D` selects the result: 0 f32, 1 f16 to the low half, 2 f16 to the high half (the other
/// half kept). `FUSED` is the fma form; the mad form rounds the product first and flushes
/// f32 denormals.
fn mix<const D: u8, const FUSED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = mix_src(w, op, env, 0);
    let b = mix_src(w, op, env, 1);
    let c = mix_src(w, op, env, 2);
    let x32 = Fp::new(w.mode, F32);
    let x32 = if FUSED { x32 } else { x32.ftz() };
    let x16 = Fp::new(w.mode, F16);
    let f32_of = |v: f64| soft::from_f64(F32, v, RNE);
    let r32: [u64; LANES] = std::array::from_fn(|l| {
        let (va, vb, vc) = (f32_of(a[l]), f32_of(b[l]), f32_of(c[l]));
        if FUSED {
            ffma(F32, va, vb, vc, x32)
        } else {
            fmad(F32, va, vb, vc, x32)
        }
    });
    if D == 0 {
        put(w, op, &r32, 32);
        return Ok(Flow::Next);
    }
    let omod = effective_omod(op, x16);
    let mask = write_mask(w, op);
    let old = w.v[op.vdst as usize];
    let r: Lanes = std::array::from_fn(|l| {
        let v = F32.to_f64(r32[l]);
        let h = if v.is_nan() {
            F16.nan_from_f64(v)
        } else {
            x16.outp(F16, soft::from_f64(F16, v, x16.rm))
        };
        let h = out_mods(F16, h, omod, op.mods.clamp, x16) as u32;
        if D == 1 {
            (old[l] & 0xffff_0000) | h
        } else {
            (old[l] & 0xffff) | h << 16
        }
    });
    write32_masked(w, op, &r, mask);
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------
// Dot products with accumulation in vdst (VOP2 `+tied`, gfx908+).

/// v_dot2c_f32_f16: `vdst += a.lo * b.lo + a.hi * b.hi`, the f16 products exact, summed in
/// f64 and rounded once to f32 with the mode.
fn dot2c_f32_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = read_acc(w, op, 32);
    let x16 = Fp::new(w.mode, F16);
    let x = Fp::new(w.mode, F32);
    let h = |v: u32, s: u32| F16.to_f64(x16.inp(F16, ((v >> s) & 0xffff) as u64));
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let p = h(a[l], 0) * h(b[l], 0) + h(a[l], 16) * h(b[l], 16);
        let cv = F32.to_f64(x.inp(F32, c[l]));
        let s = p + cv;
        if s.is_nan() {
            if F32.is_nan(c[l]) {
                return F32.quieted(c[l]);
            }
            let halves = [a[l], a[l] >> 16, b[l], b[l] >> 16];
            return match halves.iter().find(|&&v| F16.is_nan((v & 0xffff) as u64)) {
                Some(&v) => F32.nan_from_f64(F16.to_f64((v & 0xffff) as u64)),
                None => F32.default_nan(),
            };
        }
        fround(F32, s, x)
    });
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// v_dot2c_i32_i16, v_dot4c_i32_i8, v_dot8c_i32_i4: signed sub-word products summed into
/// vdst, wrapping. `N` is the number of elements per dword.
fn dotc_int<const N: u32>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = w.v[op.vdst as usize];
    let bits = 32 / N;
    let r: Lanes = std::array::from_fn(|l| {
        let mut s = c[l] as i32;
        for i in 0..N {
            let ext = |v: u32| ((v >> (i * bits)) << (32 - bits)) as i32 >> (32 - bits);
            s = s.wrapping_add(ext(a[l]).wrapping_mul(ext(b[l])));
        }
        s as u32
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------
// Cube-map, byte and SAD helpers (VOP3).

/// Which coordinate is the major axis: 2 (z) if |z| is largest (ties to z, then y).
#[inline(always)]
fn cube_axis(x: f64, y: f64, z: f64) -> u8 {
    if z.abs() >= x.abs() && z.abs() >= y.abs() {
        2
    } else if y.abs() >= x.abs() {
        1
    } else {
        0
    }
}

/// v_cubeid/sc/tc/ma_f32 (AMD cube-map pseudo-code): `K` 0 id, 1 sc, 2 tc, 3 ma.
fn cube<const K: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let b = read(w, op, env, 1, 32);
    let c = read(w, op, env, 2, 32);
    let xf = Fp::new(w.mode, F32);
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let (sx, sy, sz) = (xf.inp(F32, a[l]), xf.inp(F32, b[l]), xf.inp(F32, c[l]));
        let (x, y, z) = (F32.to_f64(sx), F32.to_f64(sy), F32.to_f64(sz));
        let axis = cube_axis(x, y, z);
        let negf = |v: u64| fneg(F32, v);
        match (K, axis) {
            (0, 2) => (if z < 0.0 { 5.0f32 } else { 4.0 }).to_bits() as u64,
            (0, 1) => (if y < 0.0 { 3.0f32 } else { 2.0 }).to_bits() as u64,
            (0, _) => (if x < 0.0 { 1.0f32 } else { 0.0 }).to_bits() as u64,
            (1, 2) => {
                if z < 0.0 {
                    negf(sx)
                } else {
                    sx
                }
            }
            (1, 1) => sx,
            (1, _) => {
                if x < 0.0 {
                    sz
                } else {
                    negf(sz)
                }
            }
            (2, 2) => negf(sy),
            (2, 1) => {
                if y < 0.0 {
                    negf(sz)
                } else {
                    sz
                }
            }
            (2, _) => negf(sy),
            (_, 2) => fmul(F32, sz, 0x4000_0000, xf),
            (_, 1) => fmul(F32, sy, 0x4000_0000, xf),
            (_, _) => fmul(F32, sx, 0x4000_0000, xf),
        }
    });
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// v_mullit_f32 (gfx6/7): the legacy product of src0 and src1 when src2 > 0, else -MAX.
fn mullit(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let b = read(w, op, env, 1, 32);
    let c = read(w, op, env, 2, 32);
    let x = Fp::new(w.mode, F32);
    let r: [u64; LANES] = std::array::from_fn(|l| {
        if f32v(x.inp(F32, c[l])) > 0.0 {
            fmul_legacy(F32, a[l], b[l], x)
        } else {
            F32.max(true)
        }
    });
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// v_lerp_u8: per byte `(a + b + (c & 1)) >> 1`.
fn lerp_u8(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = src32(w, op, env, 2);
    let r: Lanes = std::array::from_fn(|l| {
        let mut d = 0;
        for i in 0..4 {
            let byte = |v: u32| (v >> (8 * i)) & 0xff;
            d |= ((byte(a[l]) + byte(b[l]) + (byte(c[l]) & 1)) >> 1) << (8 * i);
        }
        d
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// The sum of absolute byte differences of `a` and `b`, skipping the bytes where `b` is 0
/// when `masked` (the msad/mqsad reference-byte rule).
#[inline(always)]
fn sad_bytes(a: u32, b: u32, masked: bool) -> u64 {
    let mut s = 0u64;
    for i in 0..4 {
        let (x, y) = ((a >> (8 * i)) & 0xff, (b >> (8 * i)) & 0xff);
        if !masked || y != 0 {
            s += x.abs_diff(y) as u64;
        }
    }
    s
}

/// An unsigned accumulation, saturated to `max` under the clamp bit, wrapped otherwise.
#[inline(always)]
fn sat_add(acc: u64, v: u64, max: u64, clamp: bool) -> u64 {
    let s = acc + v;
    if clamp {
        s.min(max)
    } else {
        s & max
    }
}

/// v_sad_u8 (K 0), v_sad_hi_u8 (1), v_sad_u16 (2), v_sad_u32 (3), v_msad_u8 (4).
fn sad<const K: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = src32(w, op, env, 2);
    let clamp = op.mods.clamp;
    let r: Lanes = std::array::from_fn(|l| {
        let (x, y) = (a[l], b[l]);
        let d = match K {
            0 => sad_bytes(x, y, false),
            1 => sad_bytes(x, y, false) << 16,
            2 => ((x & 0xffff).abs_diff(y & 0xffff) + (x >> 16).abs_diff(y >> 16)) as u64,
            3 => x.abs_diff(y) as u64,
            _ => sad_bytes(x, y, true),
        };
        sat_add(c[l] as u64, d, u32::MAX as u64, clamp) as u32
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8: four (masked) byte SADs of the 4-byte windows of
/// the 64-bit src0 starting at bytes 0..3 against src1, each added to a 16-bit word of
/// src2, packed into 64 bits.
fn qsad_pk<const MASKED: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src64(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = src64(w, op, env, 2);
    let clamp = op.mods.clamp;
    let r: Lanes64 = std::array::from_fn(|l| {
        let mut d = 0u64;
        for n in 0..4 {
            let win = (a[l] >> (8 * n)) as u32;
            let acc = (c[l] >> (16 * n)) & 0xffff;
            d |= sat_add(acc, sad_bytes(win, b[l], MASKED), 0xffff, clamp) << (16 * n);
        }
        d
    });
    write64(w, op, &r);
    Ok(Flow::Next)
}

/// Reads a 128-bit source as four dwords per lane (VGPRs or SGPRs; a constant fills the
/// first dword).
fn read128(w: &Wave, src: Src) -> [[u32; 4]; LANES] {
    std::array::from_fn(|l| {
        std::array::from_fn(|k| match src {
            Src::Vreg(r) => w.v[r as usize + k][l],
            Src::Sreg(i) => w.s.get(i as usize + k).copied().unwrap_or(0),
            Src::Imm(v) if k == 0 => v as u32,
            _ => 0,
        })
    })
}

/// v_mqsad_u32_u8: four masked byte SADs (as above) added to the four dwords of src2,
/// written to four VGPRs.
fn mqsad_u32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src64(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = read128(w, op.src[2]);
    let clamp = op.mods.clamp;
    let mask = write_mask(w, op);
    let d = op.vdst as usize;
    for l in 0..LANES {
        if mask >> l & 1 == 0 {
            continue;
        }
        for (n, &acc) in c[l].iter().enumerate() {
            let win = (a[l] >> (8 * n)) as u32;
            let s = sat_add(
                acc as u64,
                sad_bytes(win, b[l], true),
                u32::MAX as u64,
                clamp,
            );
            w.v[d + n][l] = s as u32;
        }
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
        // Dot products into vdst.
        M::VDot2cF32F16 => dot2c_f32_f16,
        M::VDot2cI32I16 => dotc_int::<2>,
        M::VDot4cI32I8 => dotc_int::<4>,
        M::VDot8cI32I4 => dotc_int::<8>,
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
    // The framework's src16 applies abs/neg to bit 15 before the op_sel shift; for a source
    // read from the high half the sign bit is bit 31.
    if inst.form != Form::Sdwa && matches!(inst.encoding, Encoding::Vop3) {
        for (i, role) in [Role::Src0, Role::Src1, Role::Src2].into_iter().enumerate() {
            let f16 = def
                .operand(role)
                .is_some_and(|o| matches!(o.ty, DataType::F16 | DataType::I16 | DataType::U16));
            if f16 && op.mods.op_sel >> i & 1 != 0 {
                op.mods.abs[i] <<= 16;
                op.mods.neg[i] <<= 16;
            }
        }
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
