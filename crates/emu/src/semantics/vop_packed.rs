//! Packed math: the VOP3P `v_pk_*` operations on two 16-bit halves (f16, i16, u16), the
//! gfx90a+ packed f32 operations on register pairs (`v_pk_fma/mul/add_f32`, `v_pk_mov_b32`),
//! `v_pk_fmac_f16` (VOP2), and the dot products (`v_dot*` VOP3P and `v_dot*c` VOP2). It also
//! holds the exact soft-float core (decode, exact sums, rounding) that these and the matrix
//! operations (`mfma.rs`) round with.
//!
//! Operand selection (Vega ISA, VOP3P chapter; CLRX `GcnInstrsVop3p.md`): the low result of
//! an operation reads, from source `i`, the half that `op_sel[i]` names (0 low, 1 high); the
//! high result the half that `op_sel_hi[i]` names. `neg_lo[i]`/`neg_hi[i]` flip the sign of the
//! half read for the low/high result (float operations only; integer packed operations do
//! not allow them, LLVM rejects them, and they are ignored here). The packed f32 operations
//! select dwords of a 64-bit source the same way. `v_pk_mov_b32` takes its low dword from src0
//! and its high dword from src1, each dword chosen by `op_sel[0]`/`op_sel[1]` (the form LLVM
//! uses to copy 64-bit registers: `op_sel:[0,1]`).
//!
//! Inline constants (LLVM `AMDGPUBaseInfo.cpp` `getInlineEncodingV216`, which documents the
//! hardware behaviour the ISA guides describe wrongly): an integer constant is the
//! sign-extended 32-bit value (so the high half of -1 is 0xffff and of 5 is 0); a float
//! constant is the f16 value in the low half and 0 in the high half for f16 operations, and
//! the 32-bit float value for the packed integer operations. The packed f32 operations read
//! the 32-bit constant in the low dword; LLVM never relies on the high dword (it selects the
//! low dword for both results, `op_sel_hi:[..,0]`), and it is taken here, by analogy with the
//! 16-bit rule, as 0 for float constants and the sign extension for integer ones.
//!
//! Arithmetic: every float result is the exact value rounded once with MODE's rounding mode
//! for the format (f16 shares the f64 field), with MODE's input and output denormal controls
//! (bit 0 of a FP_DENORM field keeps input denormals, bit 1 output denormals:
//! `docs/emulator-abi.md` §2.1) and FP16_OVFL for f16 results. NaN inputs come back quieted;
//! invalid operations give the default NaN (`docs/emulator-precision.md` §1.3); min/max follow
//! §7.3 and clamp §7.1 of that file (NaN → 0 under DX10_CLAMP, −0 → +0). The dot products are
//! fused: the exact sum of the products and the addend, rounded once (the ISA gives only
//! `D = S0[0]*S1[0] + S0[1]*S1[1] + S2`; no intermediate rounding is documented).

use gcnkit_isa::encoding::Field;
use gcnkit_isa::{DataType, Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{resolve_src, BuildContext, Op};
use crate::semantics::valu::{raw64, src32, write_mask, Lanes64};
use crate::wave::{Lanes, Mode, Wave, LANES};

/// The semantic function for `inst`, if it is a packed or dot-product operation.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    let def = inst.def();
    Some(match def.op {
        M::VPkMadI16 => pk_mad_i16,
        M::VPkMadU16 => pk_mad_u16,
        M::VPkMulLoU16 => pk_mul_lo_u16,
        M::VPkAddI16 => pk_add_i16,
        M::VPkSubI16 => pk_sub_i16,
        M::VPkAddU16 => pk_add_u16,
        M::VPkSubU16 => pk_sub_u16,
        M::VPkLshlrevB16 => pk_lshlrev_b16,
        M::VPkLshrrevB16 => pk_lshrrev_b16,
        M::VPkAshrrevI16 => pk_ashrrev_i16,
        M::VPkMaxI16 => pk_max_i16,
        M::VPkMinI16 => pk_min_i16,
        M::VPkMaxU16 => pk_max_u16,
        M::VPkMinU16 => pk_min_u16,
        M::VPkFmaF16 => pk_fma_f16,
        M::VPkAddF16 => pk_add_f16,
        M::VPkMulF16 => pk_mul_f16,
        M::VPkMinF16 => pk_min_f16,
        M::VPkMaxF16 => pk_max_f16,
        M::VPkFmaF32 => pk_fma_f32,
        M::VPkMulF32 => pk_mul_f32,
        M::VPkAddF32 => pk_add_f32,
        M::VPkMovB32 => {
            // The table types the operands b64, which would read a float inline constant as
            // an f64; the hardware reads the 32-bit constant (see the module comment).
            for (i, field) in [(0, Field::Src0), (1, Field::Src1)] {
                op.src[i] = resolve_src(inst.gen, inst.field(field), None, DataType::V2F32);
            }
            pk_mov_b32
        }
        M::VPkFmacF16 => {
            natural_halves(op);
            pk_fmac_f16
        }
        M::VDot2F32F16 => dot2_f32_f16,
        M::VDot2I32I16 => dot2_i32_i16,
        M::VDot2U32U16 => dot2_u32_u16,
        M::VDot4I32I8 => dot4_i32_i8,
        M::VDot4U32U8 => dot4_u32_u8,
        M::VDot8I32I4 => dot8_i32_i4,
        M::VDot8U32U4 => dot8_u32_u4,
        M::VDot2cF32F16 => {
            natural_halves(op);
            // The VOP3 and DPP abs/neg bits of a packed source act on both halves.
            for i in 0..2 {
                op.mods.abs[i] *= 0x1_0001;
                op.mods.neg[i] *= 0x1_0001;
            }
            dot2c_f32_f16
        }
        M::VDot2cI32I16 => {
            natural_halves(op);
            dot2c_i32_i16
        }
        M::VDot4cI32I8 => dot4c_i32_i8,
        M::VDot8cI32I4 => dot8c_i32_i4,
        _ => return None,
    })
}

/// VOP2/VOP3 forms carry no op_sel_hi: each result reads its own half.
fn natural_halves(op: &mut Op) {
    op.mods.op_sel = 0;
    op.mods.op_sel_hi = 0b111;
    op.mods.neg_lo = 0;
    op.mods.neg_hi = 0;
}

// ---------------------------------------------------------------------------------------------
// Exact soft-float core.
// ---------------------------------------------------------------------------------------------

/// MODE rounding modes (FP_ROUND encoding).
pub(super) const RNE: u32 = 0;
/// Toward +infinity.
pub(super) const RUP: u32 = 1;
/// Toward -infinity.
pub(super) const RDN: u32 = 2;

/// A binary floating-point format: fraction bits and exponent bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fmt {
    /// Fraction (stored mantissa) bits.
    pub frac: u32,
    /// Exponent bits.
    pub exp: u32,
}

/// IEEE binary16.
pub(super) const HALF: Fmt = Fmt { frac: 10, exp: 5 };
/// IEEE binary32.
pub(super) const SINGLE: Fmt = Fmt { frac: 23, exp: 8 };

impl Fmt {
    const fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }
    const fn emin(self) -> i32 {
        1 - self.bias()
    }
    const fn max_biased(self) -> u64 {
        (1 << self.exp) - 1
    }
    pub(super) const fn sign(self) -> u64 {
        1 << (self.frac + self.exp)
    }
    const fn frac_mask(self) -> u64 {
        (1 << self.frac) - 1
    }
    /// The default NaN the hardware returns for invalid operations (sign set, quiet).
    pub(super) const fn default_nan(self) -> u64 {
        self.sign() | self.max_biased() << self.frac | 1 << (self.frac - 1)
    }
    /// The largest finite value with the given sign.
    const fn max_finite(self, neg: bool) -> u64 {
        (if neg { self.sign() } else { 0 })
            | (self.max_biased() - 1) << self.frac
            | self.frac_mask()
    }
    pub(super) const fn is_nan(self, x: u64) -> bool {
        (x >> self.frac) & self.max_biased() == self.max_biased() && x & self.frac_mask() != 0
    }
}

/// A decoded float operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Val {
    /// A NaN: its bits and format.
    Nan(u64, Fmt),
    /// An infinity: its sign.
    Inf(bool),
    /// A finite value (-1)^neg · mag · 2^exp (zero has mag 0 and keeps its sign).
    Fin { neg: bool, mag: u64, exp: i32 },
}

/// Decodes `x` in format `f`; with `flush`, denormal inputs become zeros of their sign.
pub(super) fn decode(x: u64, f: Fmt, flush: bool) -> Val {
    let neg = x & f.sign() != 0;
    let e = (x >> f.frac) & f.max_biased();
    let m = x & f.frac_mask();
    if e == f.max_biased() {
        return if m == 0 {
            Val::Inf(neg)
        } else {
            Val::Nan(x, f)
        };
    }
    if e == 0 {
        let mag = if flush { 0 } else { m };
        return Val::Fin {
            neg,
            mag,
            exp: f.emin() - f.frac as i32,
        };
    }
    Val::Fin {
        neg,
        mag: m | 1 << f.frac,
        exp: e as i32 - f.bias() - f.frac as i32,
    }
}

/// `x` (a NaN of format `from`) quieted and carried to format `to` (sign and payload kept).
pub(super) fn quiet_nan(x: u64, from: Fmt, to: Fmt) -> u64 {
    let neg = x & from.sign() != 0;
    let payload = (x & from.frac_mask()) << (to.frac - from.frac);
    (if neg { to.sign() } else { 0 }) | to.max_biased() << to.frac | 1 << (to.frac - 1) | payload
}

/// How a float operation rounds: the rounding mode, output denormal flushing, and whether an
/// overflow saturates (FP16_OVFL) instead of giving an infinity.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rounding {
    pub rm: u32,
    pub flush_out: bool,
    pub saturate: bool,
}

/// MODE.FP_DENORM bit 0 of a field keeps input denormals, bit 1 output denormals.
fn denorm_bits(mode: Mode, shift: u32) -> (bool, bool) {
    let field = (mode.bits >> shift) & 3;
    (field & 1 == 0, field & 2 == 0)
}

/// Input flushing and rounding for f16 results (the f64/f16 MODE fields, FP16_OVFL).
fn half_mode(mode: Mode) -> (bool, Rounding) {
    let (flush_in, flush_out) = denorm_bits(mode, 6);
    let saturate = mode.bits >> 23 & 1 != 0;
    (
        flush_in,
        Rounding {
            rm: (mode.bits >> 2) & 3,
            flush_out,
            saturate,
        },
    )
}

/// Input flushing and rounding for f32 results.
fn single_mode(mode: Mode) -> (bool, Rounding) {
    let (flush_in, flush_out) = denorm_bits(mode, 4);
    (
        flush_in,
        Rounding {
            rm: mode.bits & 3,
            flush_out,
            saturate: false,
        },
    )
}

/// Bits below the lowest bit any operation here produces (an f32 denormal squared is 2^-298).
const ACC_EMIN: i32 = -320;
/// Limbs of the exact accumulator: bits 2^-320 .. 2^319, enough for every f32 product sum.
const ACC_LIMBS: usize = 10;

/// An exact two's-complement fixed-point sum of finite terms.
pub(super) struct ExactSum {
    limbs: [u64; ACC_LIMBS],
    any_nonzero: bool,
    all_neg: bool,
    any_neg: bool,
}

impl ExactSum {
    pub(super) fn new() -> ExactSum {
        ExactSum {
            limbs: [0; ACC_LIMBS],
            any_nonzero: false,
            all_neg: true,
            any_neg: false,
        }
    }

    /// Adds (-1)^neg · mag · 2^exp; `exp` must be at least `ACC_EMIN`.
    pub(super) fn add(&mut self, neg: bool, mag: u128, exp: i32) {
        self.all_neg &= neg;
        self.any_neg |= neg;
        if mag == 0 {
            return;
        }
        self.any_nonzero = true;
        let shift = (exp - ACC_EMIN) as u32;
        let (limb, bit) = ((shift / 64) as usize, shift % 64);
        // The term shifted into place spans at most three limbs.
        let part = [
            (mag << bit) as u64,
            (mag >> (64 - bit)) as u64,
            if bit == 0 {
                0
            } else {
                (mag >> (128 - bit)) as u64
            },
        ];
        let mut wide = [0u64; ACC_LIMBS];
        for (i, p) in part.iter().enumerate() {
            if limb + i < ACC_LIMBS {
                wide[limb + i] = *p;
            }
        }
        if neg {
            // Two's complement negation of the term.
            let mut carry = 1u64;
            for w in wide.iter_mut() {
                let (v, c) = (!*w).overflowing_add(carry);
                *w = v;
                carry = c as u64;
            }
        }
        let mut carry = 0u64;
        for (a, b) in self.limbs.iter_mut().zip(wide) {
            let (s1, c1) = a.overflowing_add(b);
            let (s2, c2) = s1.overflowing_add(carry);
            *a = s2;
            carry = (c1 | c2) as u64;
        }
    }

    /// The sum rounded to format `f`, and whether a finite value overflowed.
    pub(super) fn round(&self, f: Fmt, r: Rounding) -> (u64, bool) {
        let neg = self.limbs[ACC_LIMBS - 1] >> 63 != 0;
        let mut mag = self.limbs;
        if neg {
            let mut carry = 1u64;
            for w in mag.iter_mut() {
                let (v, c) = (!*w).overflowing_add(carry);
                *w = v;
                carry = c as u64;
            }
        }
        let Some(top) = (0..ACC_LIMBS).rev().find(|&i| mag[i] != 0) else {
            // IEEE signs of zero sums: exact cancellation gives +0 (−0 rounding down); a sum of
            // zeros is −0 only if every term is −0 (or, rounding down, any is).
            let zneg = if self.any_nonzero {
                r.rm == RDN
            } else {
                self.all_neg || (r.rm == RDN && self.any_neg)
            };
            return (if zneg { f.sign() } else { 0 }, false);
        };
        let bit = |i: i32| -> u64 {
            if i < 0 {
                0
            } else {
                (mag[i as usize / 64] >> (i % 64)) & 1
            }
        };
        // Whether any of bits [0, n) is set.
        let any_below = |n: i32| -> bool {
            if n <= 0 {
                return false;
            }
            let (full, rest) = (n as usize / 64, n % 64);
            mag[..full].iter().any(|&x| x != 0)
                || (rest != 0 && mag[full] & ((1u64 << rest) - 1) != 0)
        };
        let top_bit = top as i32 * 64 + 63 - mag[top].leading_zeros() as i32;
        let lead = ACC_EMIN + top_bit;
        let q = lead.max(f.emin()) - f.frac as i32;
        let lo = q - ACC_EMIN;
        let mut m: u64 = 0;
        for i in (lo.max(0)..=top_bit).rev() {
            m = m << 1 | bit(i);
        }
        let half = bit(lo - 1) != 0;
        let sticky = any_below(lo - 1);
        let up = match r.rm {
            RNE => half && (sticky || m & 1 == 1),
            RUP => (half || sticky) && !neg,
            RDN => (half || sticky) && neg,
            _ => false,
        };
        m += up as u64;
        let mut q = q;
        if m >> (f.frac + 1) != 0 {
            m >>= 1;
            q += 1;
        }
        let sign = if neg { f.sign() } else { 0 };
        if m >> f.frac == 0 {
            // A denormal result (or zero after rounding).
            return (if r.flush_out { sign } else { sign | m }, false);
        }
        let biased = q + f.frac as i32 + f.bias();
        if biased >= f.max_biased() as i32 {
            let to_inf = !r.saturate
                && match r.rm {
                    RNE => true,
                    RUP => !neg,
                    RDN => neg,
                    _ => false,
                };
            let bits = if to_inf {
                sign | f.max_biased() << f.frac
            } else {
                f.max_finite(neg)
            };
            return (bits, true);
        }
        (
            sign | (biased as u64) << f.frac | (m & f.frac_mask()),
            false,
        )
    }
}

/// Σ products + Σ addends over decoded operands, rounded once to `out`. NaN inputs give the
/// first of them quieted; ∞·0 and ∞−∞ give the default NaN.
pub(super) fn fused(products: &[(Val, Val)], addends: &[Val], out: Fmt, r: Rounding) -> u64 {
    let ops = products
        .iter()
        .flat_map(|(a, b)| [a, b])
        .chain(addends.iter());
    if let Some(Val::Nan(x, f)) = ops.clone().find(|v| matches!(v, Val::Nan(..))) {
        return quiet_nan(*x, *f, out);
    }
    let (mut pos_inf, mut neg_inf) = (false, false);
    let mut acc = ExactSum::new();
    for (a, b) in products {
        match (*a, *b) {
            (Val::Inf(_), Val::Fin { mag: 0, .. }) | (Val::Fin { mag: 0, .. }, Val::Inf(_)) => {
                return out.default_nan()
            }
            (Val::Inf(x), Val::Inf(y))
            | (Val::Inf(x), Val::Fin { neg: y, .. })
            | (Val::Fin { neg: x, .. }, Val::Inf(y)) => {
                if x != y {
                    neg_inf = true;
                } else {
                    pos_inf = true;
                }
            }
            (
                Val::Fin {
                    neg: na,
                    mag: ma,
                    exp: ea,
                },
                Val::Fin {
                    neg: nb,
                    mag: mb,
                    exp: eb,
                },
            ) => acc.add(na != nb, ma as u128 * mb as u128, ea + eb),
            _ => {}
        }
    }
    for a in addends {
        match *a {
            Val::Inf(n) => {
                if n {
                    neg_inf = true
                } else {
                    pos_inf = true
                }
            }
            Val::Fin { neg, mag, exp } => acc.add(neg, mag as u128, exp),
            Val::Nan(..) => {}
        }
    }
    match (pos_inf, neg_inf) {
        (true, true) => return out.default_nan(),
        (true, false) => return out.max_biased() << out.frac,
        (false, true) => return out.sign() | out.max_biased() << out.frac,
        _ => {}
    }
    acc.round(out, r).0
}

/// Clamp of a float result to [0, 1] (`docs/emulator-precision.md` §7.1): NaN becomes +0 under
/// DX10_CLAMP and stays otherwise; −0 and other negatives become +0.
pub(super) fn clamp01(x: u64, f: Fmt, dx10: bool) -> u64 {
    if f.is_nan(x) {
        return if dx10 { 0 } else { x };
    }
    if x & f.sign() != 0 {
        return 0;
    }
    let one = (f.bias() as u64) << f.frac;
    x.min(one)
}

// ---------------------------------------------------------------------------------------------
// Operand access.
// ---------------------------------------------------------------------------------------------

/// The halves source `i` gives each lane: for the low result and for the high result, with
/// op_sel/op_sel_hi applied and, for float operations, neg_lo/neg_hi.
#[inline(always)]
fn halves(w: &Wave, op: &Op, env: &Env<'_>, i: usize, float: bool) -> ([u16; LANES], [u16; LANES]) {
    let v = src32(w, op, env, i);
    let m = &op.mods;
    let lo_shift = if m.op_sel >> i & 1 != 0 { 16 } else { 0 };
    let hi_shift = if m.op_sel_hi >> i & 1 != 0 { 16 } else { 0 };
    let (nlo, nhi) = if float {
        (
            (m.neg_lo >> i & 1) as u16 * 0x8000,
            (m.neg_hi >> i & 1) as u16 * 0x8000,
        )
    } else {
        (0, 0)
    };
    (
        std::array::from_fn(|l| (v[l] >> lo_shift) as u16 ^ nlo),
        std::array::from_fn(|l| (v[l] >> hi_shift) as u16 ^ nhi),
    )
}

/// Writes a 32-bit result per lane under the write mask (EXEC, and DPP masks for VOP2 forms).
#[inline(always)]
fn put32(w: &mut Wave, op: &Op, r: &Lanes) {
    let mask = write_mask(w, op);
    let d = &mut w.v[op.vdst as usize];
    for (l, (d, x)) in d.iter_mut().zip(r).enumerate() {
        if mask >> l & 1 != 0 {
            *d = *x;
        }
    }
}

/// Writes packed halves.
#[inline(always)]
fn put_halves(w: &mut Wave, op: &Op, lo: &[u16; LANES], hi: &[u16; LANES]) {
    let r: Lanes = std::array::from_fn(|l| lo[l] as u32 | (hi[l] as u32) << 16);
    put32(w, op, &r);
}

/// Writes a 64-bit result per lane to a register pair under EXEC.
#[inline(always)]
fn put64(w: &mut Wave, op: &Op, r: &Lanes64) {
    let mask = write_mask(w, op);
    let d = op.vdst as usize;
    for (l, x) in r.iter().enumerate() {
        if mask >> l & 1 != 0 {
            w.v[d][l] = *x as u32;
            w.v[d + 1][l] = (*x >> 32) as u32;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Packed 16-bit integer operations (CLRX GcnInstrsVop3p.md; clamp saturates add/sub/mad).
// ---------------------------------------------------------------------------------------------

/// Defines a packed two-source 16-bit integer operation from `|a, b, clamp| -> u16`.
macro_rules! pk_int2 {
    ($name:ident, |$a:ident, $b:ident, $c:ident| $body:expr) => {
        fn $name(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let (a0, a1) = halves(w, op, env, 0, false);
            let (b0, b1) = halves(w, op, env, 1, false);
            #[allow(unused_variables)]
            let $c = op.mods.clamp;
            let f = |$a: u16, $b: u16| -> u16 { $body };
            let lo: [u16; LANES] = std::array::from_fn(|l| f(a0[l], b0[l]));
            let hi: [u16; LANES] = std::array::from_fn(|l| f(a1[l], b1[l]));
            put_halves(w, op, &lo, &hi);
            Ok(Flow::Next)
        }
    };
}

/// Defines a packed three-source 16-bit integer operation from `|a, b, c, clamp| -> u16`.
macro_rules! pk_int3 {
    ($name:ident, |$a:ident, $b:ident, $cc:ident, $c:ident| $body:expr) => {
        fn $name(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let (a0, a1) = halves(w, op, env, 0, false);
            let (b0, b1) = halves(w, op, env, 1, false);
            let (c0, c1) = halves(w, op, env, 2, false);
            #[allow(unused_variables)]
            let $c = op.mods.clamp;
            let f = |$a: u16, $b: u16, $cc: u16| -> u16 { $body };
            let lo: [u16; LANES] = std::array::from_fn(|l| f(a0[l], b0[l], c0[l]));
            let hi: [u16; LANES] = std::array::from_fn(|l| f(a1[l], b1[l], c1[l]));
            put_halves(w, op, &lo, &hi);
            Ok(Flow::Next)
        }
    };
}

#[inline(always)]
fn sat_i16(v: i32, clamp: bool) -> u16 {
    if clamp {
        v.clamp(i16::MIN as i32, i16::MAX as i32) as u16
    } else {
        v as u16
    }
}

#[inline(always)]
fn sat_u16(v: i64, clamp: bool) -> u16 {
    if clamp {
        v.clamp(0, u16::MAX as i64) as u16
    } else {
        v as u16
    }
}

pk_int3!(pk_mad_i16, |a, b, c, clamp| sat_i16(
    a as i16 as i32 * b as i16 as i32 + c as i16 as i32,
    clamp
));
pk_int3!(pk_mad_u16, |a, b, c, clamp| sat_u16(
    a as i64 * b as i64 + c as i64,
    clamp
));
// The low 16 bits of the product; clamp has no documented effect on it.
pk_int2!(pk_mul_lo_u16, |a, b, clamp| a.wrapping_mul(b));
pk_int2!(pk_add_i16, |a, b, clamp| sat_i16(
    a as i16 as i32 + b as i16 as i32,
    clamp
));
pk_int2!(pk_sub_i16, |a, b, clamp| sat_i16(
    a as i16 as i32 - b as i16 as i32,
    clamp
));
pk_int2!(pk_add_u16, |a, b, clamp| sat_u16(
    a as i64 + b as i64,
    clamp
));
pk_int2!(pk_sub_u16, |a, b, clamp| sat_u16(
    a as i64 - b as i64,
    clamp
));
// Shift counts use the low four bits (CLRX: S0 & 15).
pk_int2!(pk_lshlrev_b16, |a, b, clamp| b << (a & 15));
pk_int2!(pk_lshrrev_b16, |a, b, clamp| b >> (a & 15));
pk_int2!(pk_ashrrev_i16, |a, b, clamp| ((b as i16) >> (a & 15))
    as u16);
pk_int2!(pk_max_i16, |a, b, clamp| (a as i16).max(b as i16) as u16);
pk_int2!(pk_min_i16, |a, b, clamp| (a as i16).min(b as i16) as u16);
pk_int2!(pk_max_u16, |a, b, clamp| a.max(b));
pk_int2!(pk_min_u16, |a, b, clamp| a.min(b));

// ---------------------------------------------------------------------------------------------
// Packed f16 operations.
// ---------------------------------------------------------------------------------------------

/// Per-instruction f16 controls read from MODE once.
#[derive(Clone, Copy)]
struct HalfCtl {
    flush_in: bool,
    r: Rounding,
    clamp: bool,
    dx10: bool,
    ieee: bool,
}

impl HalfCtl {
    fn new(w: &Wave, op: &Op) -> HalfCtl {
        let (flush_in, r) = half_mode(w.mode);
        HalfCtl {
            flush_in,
            r,
            clamp: op.mods.clamp,
            dx10: w.mode.dx10_clamp(),
            ieee: w.mode.ieee(),
        }
    }
    #[inline(always)]
    fn d(&self, x: u16) -> Val {
        decode(x as u64, HALF, self.flush_in)
    }
    #[inline(always)]
    fn out(&self, x: u64) -> u16 {
        (if self.clamp {
            clamp01(x, HALF, self.dx10)
        } else {
            x
        }) as u16
    }
}

/// Defines a packed f16 operation from a per-half function of the half operands.
macro_rules! pk_f16 {
    ($name:ident, 2, |$c:ident, $a:ident, $b:ident| $body:expr) => {
        fn $name(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let (a0, a1) = halves(w, op, env, 0, true);
            let (b0, b1) = halves(w, op, env, 1, true);
            let $c = HalfCtl::new(w, op);
            let f = |$a: u16, $b: u16| -> u16 { $c.out($body) };
            let lo: [u16; LANES] = std::array::from_fn(|l| f(a0[l], b0[l]));
            let hi: [u16; LANES] = std::array::from_fn(|l| f(a1[l], b1[l]));
            put_halves(w, op, &lo, &hi);
            Ok(Flow::Next)
        }
    };
}

pk_f16!(pk_add_f16, 2, |c, a, b| fused(
    &[],
    &[c.d(a), c.d(b)],
    HALF,
    c.r
));
pk_f16!(pk_mul_f16, 2, |c, a, b| fused(
    &[(c.d(a), c.d(b))],
    &[],
    HALF,
    c.r
));
pk_f16!(pk_min_f16, 2, |c, a, b| minmax(
    a as u64,
    b as u64,
    HALF,
    c.flush_in,
    c.r.flush_out,
    c.ieee,
    false
));
pk_f16!(pk_max_f16, 2, |c, a, b| minmax(
    a as u64,
    b as u64,
    HALF,
    c.flush_in,
    c.r.flush_out,
    c.ieee,
    true
));

fn pk_fma_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = halves(w, op, env, 0, true);
    let (b0, b1) = halves(w, op, env, 1, true);
    let (c0, c1) = halves(w, op, env, 2, true);
    let c = HalfCtl::new(w, op);
    let f = |a: u16, b: u16, d: u16| c.out(fused(&[(c.d(a), c.d(b))], &[c.d(d)], HALF, c.r));
    let lo: [u16; LANES] = std::array::from_fn(|l| f(a0[l], b0[l], c0[l]));
    let hi: [u16; LANES] = std::array::from_fn(|l| f(a1[l], b1[l], c1[l]));
    put_halves(w, op, &lo, &hi);
    Ok(Flow::Next)
}

/// v_pk_fmac_f16 (VOP2): each half of the destination accumulates the product of the halves.
fn pk_fmac_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = halves(w, op, env, 0, true);
    let (b0, b1) = halves(w, op, env, 1, true);
    let d = w.v[op.vdst as usize];
    let c = HalfCtl::new(w, op);
    let f = |a: u16, b: u16, x: u16| c.out(fused(&[(c.d(a), c.d(b))], &[c.d(x)], HALF, c.r));
    let lo: [u16; LANES] = std::array::from_fn(|l| f(a0[l], b0[l], d[l] as u16));
    let hi: [u16; LANES] = std::array::from_fn(|l| f(a1[l], b1[l], (d[l] >> 16) as u16));
    put_halves(w, op, &lo, &hi);
    Ok(Flow::Next)
}

/// min/max with the NaN and signed-zero rules of `docs/emulator-precision.md` §7.3; operands
/// are flushed per MODE first and a denormal result is flushed per MODE.
pub(super) fn minmax(
    a: u64,
    b: u64,
    f: Fmt,
    flush_in: bool,
    flush_out: bool,
    ieee: bool,
    max: bool,
) -> u64 {
    let exp_mask = f.max_biased() << f.frac;
    let flush = |x: u64| if x & exp_mask == 0 { x & f.sign() } else { x };
    let (a, b) = if flush_in {
        (flush(a), flush(b))
    } else {
        (a, b)
    };
    let snan = |x: u64| f.is_nan(x) && x & (1 << (f.frac - 1)) == 0;
    let r = if ieee && snan(a) {
        quiet_nan(a, f, f)
    } else if ieee && snan(b) {
        quiet_nan(b, f, f)
    } else if f.is_nan(a) {
        b
    } else if f.is_nan(b) {
        a
    } else {
        let key = |x: u64| -> i64 {
            // Orders floats as integers: negatives reversed below positives; −0 below +0.
            let m = (x & !f.sign()) as i64;
            if x & f.sign() != 0 {
                -m - 1
            } else {
                m
            }
        };
        if (key(a) < key(b)) != max {
            a
        } else {
            b
        }
    };
    if flush_out && r & exp_mask == 0 {
        r & f.sign()
    } else {
        r
    }
}

// ---------------------------------------------------------------------------------------------
// Packed f32 operations (gfx90a+): each source is a 64-bit pair, op_sel picks the dword.
// ---------------------------------------------------------------------------------------------

/// The dwords source `i` gives each lane for the low and the high result, neg applied.
#[inline(always)]
fn dwords(w: &Wave, op: &Op, env: &Env<'_>, i: usize, float: bool) -> (Lanes, Lanes) {
    let v = raw64(w, env, op.src[i]);
    let m = &op.mods;
    let lo_shift = if m.op_sel >> i & 1 != 0 { 32 } else { 0 };
    let hi_shift = if m.op_sel_hi >> i & 1 != 0 { 32 } else { 0 };
    let (nlo, nhi) = if float {
        (
            ((m.neg_lo >> i & 1) as u32) << 31,
            ((m.neg_hi >> i & 1) as u32) << 31,
        )
    } else {
        (0, 0)
    };
    (
        std::array::from_fn(|l| (v[l] >> lo_shift) as u32 ^ nlo),
        std::array::from_fn(|l| (v[l] >> hi_shift) as u32 ^ nhi),
    )
}

/// Per-instruction f32 controls.
#[derive(Clone, Copy)]
struct SingleCtl {
    flush_in: bool,
    r: Rounding,
    clamp: bool,
    dx10: bool,
}

impl SingleCtl {
    fn new(w: &Wave, op: &Op) -> SingleCtl {
        let (flush_in, r) = single_mode(w.mode);
        SingleCtl {
            flush_in,
            r,
            clamp: op.mods.clamp,
            dx10: w.mode.dx10_clamp(),
        }
    }
    #[inline(always)]
    fn d(&self, x: u32) -> Val {
        decode(x as u64, SINGLE, self.flush_in)
    }
    #[inline(always)]
    fn out(&self, x: u64) -> u64 {
        if self.clamp {
            clamp01(x, SINGLE, self.dx10)
        } else {
            x
        }
    }
}

fn pk_fma_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = dwords(w, op, env, 0, true);
    let (b0, b1) = dwords(w, op, env, 1, true);
    let (c0, c1) = dwords(w, op, env, 2, true);
    let c = SingleCtl::new(w, op);
    let f = |a: u32, b: u32, x: u32| c.out(fused(&[(c.d(a), c.d(b))], &[c.d(x)], SINGLE, c.r));
    let r: Lanes64 = std::array::from_fn(|l| f(a0[l], b0[l], c0[l]) | f(a1[l], b1[l], c1[l]) << 32);
    put64(w, op, &r);
    Ok(Flow::Next)
}

fn pk_mul_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = dwords(w, op, env, 0, true);
    let (b0, b1) = dwords(w, op, env, 1, true);
    let c = SingleCtl::new(w, op);
    let f = |a: u32, b: u32| c.out(fused(&[(c.d(a), c.d(b))], &[], SINGLE, c.r));
    let r: Lanes64 = std::array::from_fn(|l| f(a0[l], b0[l]) | f(a1[l], b1[l]) << 32);
    put64(w, op, &r);
    Ok(Flow::Next)
}

fn pk_add_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = dwords(w, op, env, 0, true);
    let (b0, b1) = dwords(w, op, env, 1, true);
    let c = SingleCtl::new(w, op);
    let f = |a: u32, b: u32| c.out(fused(&[], &[c.d(a), c.d(b)], SINGLE, c.r));
    let r: Lanes64 = std::array::from_fn(|l| f(a0[l], b0[l]) | f(a1[l], b1[l]) << 32);
    put64(w, op, &r);
    Ok(Flow::Next)
}

/// v_pk_mov_b32: low dword from src0, high dword from src1, each chosen by its op_sel bit.
fn pk_mov_b32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, _) = dwords(w, op, env, 0, false);
    let (b, _) = dwords(w, op, env, 1, false);
    let r: Lanes64 = std::array::from_fn(|l| a[l] as u64 | (b[l] as u64) << 32);
    put64(w, op, &r);
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------------
// Dot products (Vega ISA VOP3P opcodes 35-43 for gfx906; the VOP2 `c` forms of gfx908+
// accumulate into their destination). Integer sums are exact; clamp saturates to the result
// type, otherwise the sum wraps.
// ---------------------------------------------------------------------------------------------

fn dot2_f32_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = halves(w, op, env, 0, true);
    let (b0, b1) = halves(w, op, env, 1, true);
    let c = src32(w, op, env, 2);
    // src2 is an f32: neg_hi acts as abs and neg_lo as neg, as for the other VOP3P
    // instructions with 32-bit float sources (the mix operations).
    let abs = if op.mods.neg_hi & 4 != 0 {
        0x7fff_ffff
    } else {
        u32::MAX
    };
    let neg = if op.mods.neg_lo & 4 != 0 {
        0x8000_0000
    } else {
        0
    };
    dot2_f32(
        w,
        op,
        (a0, a1),
        (b0, b1),
        &std::array::from_fn(|l| (c[l] & abs) ^ neg),
    );
    Ok(Flow::Next)
}

fn dot2c_f32_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = halves(w, op, env, 0, true);
    let (b0, b1) = halves(w, op, env, 1, true);
    let c = w.v[op.vdst as usize];
    dot2_f32(w, op, (a0, a1), (b0, b1), &c);
    Ok(Flow::Next)
}

type Halves = ([u16; LANES], [u16; LANES]);

/// D = a.lo·b.lo + a.hi·b.hi + c, f16 products and f32 addend, rounded once to f32.
fn dot2_f32(w: &mut Wave, op: &Op, a: Halves, b: Halves, c: &Lanes) {
    let (h_flush, _) = half_mode(w.mode);
    let (s_flush, r) = single_mode(w.mode);
    let clamp = op.mods.clamp;
    let dx10 = w.mode.dx10_clamp();
    let h = |x: u16| decode(x as u64, HALF, h_flush);
    let res: Lanes = std::array::from_fn(|l| {
        let v = fused(
            &[(h(a.0[l]), h(b.0[l])), (h(a.1[l]), h(b.1[l]))],
            &[decode(c[l] as u64, SINGLE, s_flush)],
            SINGLE,
            r,
        );
        (if clamp { clamp01(v, SINGLE, dx10) } else { v }) as u32
    });
    put32(w, op, &res);
}

#[inline(always)]
fn sat_i32(v: i64, clamp: bool) -> u32 {
    if clamp {
        v.clamp(i32::MIN as i64, i32::MAX as i64) as u32
    } else {
        v as u32
    }
}

#[inline(always)]
fn sat_u32(v: i64, clamp: bool) -> u32 {
    if clamp {
        v.clamp(0, u32::MAX as i64) as u32
    } else {
        v as u32
    }
}

fn dot2_i32_i16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = halves(w, op, env, 0, false);
    let (b0, b1) = halves(w, op, env, 1, false);
    let c = src32(w, op, env, 2);
    let clamp = op.mods.clamp;
    let r: Lanes = std::array::from_fn(|l| {
        let s =
            a0[l] as i16 as i64 * b0[l] as i16 as i64 + a1[l] as i16 as i64 * b1[l] as i16 as i64;
        sat_i32(s + c[l] as i32 as i64, clamp)
    });
    put32(w, op, &r);
    Ok(Flow::Next)
}

fn dot2c_i32_i16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = halves(w, op, env, 0, false);
    let (b0, b1) = halves(w, op, env, 1, false);
    let c = w.v[op.vdst as usize];
    let clamp = op.mods.clamp;
    let r: Lanes = std::array::from_fn(|l| {
        let s =
            a0[l] as i16 as i64 * b0[l] as i16 as i64 + a1[l] as i16 as i64 * b1[l] as i16 as i64;
        sat_i32(s + c[l] as i32 as i64, clamp)
    });
    put32(w, op, &r);
    Ok(Flow::Next)
}

fn dot2_u32_u16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a0, a1) = halves(w, op, env, 0, false);
    let (b0, b1) = halves(w, op, env, 1, false);
    let c = src32(w, op, env, 2);
    let clamp = op.mods.clamp;
    let r: Lanes = std::array::from_fn(|l| {
        let s = a0[l] as i64 * b0[l] as i64 + a1[l] as i64 * b1[l] as i64;
        sat_u32(s + c[l] as i64, clamp)
    });
    put32(w, op, &r);
    Ok(Flow::Next)
}

/// Σ over the `n` fields of `bits` bits of a·b, fields sign-extended when `signed`.
#[inline(always)]
fn dot_fields(a: u32, b: u32, bits: u32, signed: bool) -> i64 {
    let n = 32 / bits;
    let mask = (1u32 << bits) - 1;
    let field = |x: u32, i: u32| -> i64 {
        let v = (x >> (i * bits)) & mask;
        if signed {
            ((v << (32 - bits)) as i32 >> (32 - bits)) as i64
        } else {
            v as i64
        }
    };
    (0..n).map(|i| field(a, i) * field(b, i)).sum()
}

/// Defines a VOP3P dot product over packed 8- or 4-bit fields with an i32/u32 addend.
macro_rules! dot_packed {
    ($name:ident, $bits:expr, signed) => {
        fn $name(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let a = src32(w, op, env, 0);
            let b = src32(w, op, env, 1);
            let c = src32(w, op, env, 2);
            let clamp = op.mods.clamp;
            let r: Lanes = std::array::from_fn(|l| {
                sat_i32(
                    dot_fields(a[l], b[l], $bits, true) + c[l] as i32 as i64,
                    clamp,
                )
            });
            put32(w, op, &r);
            Ok(Flow::Next)
        }
    };
    ($name:ident, $bits:expr, unsigned) => {
        fn $name(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let a = src32(w, op, env, 0);
            let b = src32(w, op, env, 1);
            let c = src32(w, op, env, 2);
            let clamp = op.mods.clamp;
            let r: Lanes = std::array::from_fn(|l| {
                sat_u32(dot_fields(a[l], b[l], $bits, false) + c[l] as i64, clamp)
            });
            put32(w, op, &r);
            Ok(Flow::Next)
        }
    };
    ($name:ident, $bits:expr, accumulate) => {
        fn $name(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let a = src32(w, op, env, 0);
            let b = src32(w, op, env, 1);
            let c = w.v[op.vdst as usize];
            let clamp = op.mods.clamp;
            let r: Lanes = std::array::from_fn(|l| {
                sat_i32(
                    dot_fields(a[l], b[l], $bits, true) + c[l] as i32 as i64,
                    clamp,
                )
            });
            put32(w, op, &r);
            Ok(Flow::Next)
        }
    };
}

dot_packed!(dot4_i32_i8, 8, signed);
dot_packed!(dot4_u32_u8, 8, unsigned);
dot_packed!(dot8_i32_i4, 4, signed);
dot_packed!(dot8_u32_u4, 4, unsigned);
dot_packed!(dot4c_i32_i8, 8, accumulate);
dot_packed!(dot8c_i32_i4, 4, accumulate);

#[cfg(test)]
mod tests {
    use crate::testing::{run, splat};

    // f16 bit patterns used below.
    const H_HALF: u32 = 0x3800; // 0.5
    const H_ONE: u32 = 0x3c00; // 1.0
    const H_TWO: u32 = 0x4000; // 2.0
    const H_FOUR: u32 = 0x4400; // 4.0

    #[test]
    fn op_sel_and_op_sel_hi_pick_the_halves_of_each_result() {
        // v0 = (hi 2.0, lo 1.0), v1 = (hi 4.0, lo 0.5). Vega ISA VOP3P / CLRX GcnInstrsVop3p.md:
        // op_sel[i] picks the half of source i for the low result, op_sel_hi[i] for the high.
        let r = run(
            "gfx900",
            "v_pk_add_f16 v2, v0, v1\n\
             v_pk_add_f16 v3, v0, v1 op_sel:[1,0] op_sel_hi:[0,1]\n\
             v_pk_add_f16 v4, v0, v1 neg_lo:[0,1] neg_hi:[1,0]",
            |w, _| {
                w.v[0] = splat(H_TWO << 16 | H_ONE);
                w.v[1] = splat(H_FOUR << 16 | H_HALF);
            },
        )
        .unwrap();
        // lo 1 + 0.5 = 1.5 (0x3e00), hi 2 + 4 = 6 (0x4600).
        assert_eq!(r.wave.v[2][7], 0x4600_3e00);
        // lo = v0.hi + v1.lo = 2.5 (0x4100), hi = v0.lo + v1.hi = 5 (0x4500).
        assert_eq!(r.wave.v[3][7], 0x4500_4100);
        // lo = 1 - 0.5 = 0.5, hi = -2 + 4 = 2.
        assert_eq!(r.wave.v[4][7], 0x4000_3800);
    }

    #[test]
    fn inline_constants_fill_halves_as_llvm_documents() {
        // LLVM getInlineEncodingV216: a float constant is the f16 value in the low half and 0
        // in the high half for f16 instructions, the f32 value for integer ones; an integer
        // constant is sign-extended to 32 bits.
        let r = run(
            "gfx900",
            "v_pk_add_f16 v2, v0, 1.0\n\
             v_pk_add_f16 v3, v0, 1.0 op_sel_hi:[1,0]\n\
             v_pk_add_u16 v4, v1, -1\n\
             v_pk_add_u16 v5, v1, 1.0\n\
             v_pk_add_u16 v6, v1, 3",
            |w, _| {
                w.v[0] = splat(H_TWO << 16 | H_ONE);
                w.v[1] = splat(0x0005_0003);
            },
        )
        .unwrap();
        // lo 1 + 1 = 2; hi 2 + (high half of the constant, 0) = 2.
        assert_eq!(r.wave.v[2][0], 0x4000_4000);
        // op_sel_hi:[1,0] reads the constant's low half for the high result too: 2 + 1 = 3.
        assert_eq!(r.wave.v[3][0], 0x4200_4000);
        // -1 is 0xffffffff: both halves decrement.
        assert_eq!(r.wave.v[4][0], 0x0004_0002);
        // 1.0 is 0x3f800000 for a u16 operation: lo + 0, hi + 0x3f80.
        assert_eq!(r.wave.v[5][0], 0x3f85_0003);
        // 3 is 0x00000003: only the low half grows.
        assert_eq!(r.wave.v[6][0], 0x0005_0006);
    }

    #[test]
    fn f16_clamp_saturates_and_zeroes_nan_with_dx10() {
        // §7.1 of docs/emulator-precision.md: clamp to [0, 1]; NaN -> 0 under DX10_CLAMP.
        let r = run(
            "gfx900",
            "v_pk_mul_f16 v2, v0, v1 clamp\nv_pk_add_f16 v3, v0, v4 clamp",
            |w, _| {
                w.v[0] = splat(0xbc00 << 16 | H_TWO); // (-1, 2)
                w.v[1] = splat(H_HALF << 16 | H_FOUR); // (0.5, 4)
                w.v[4] = splat(0x7e00 << 16 | 0x7e00); // NaN, NaN
            },
        )
        .unwrap();
        // lo 2*4 = 8 -> 1.0; hi -1*0.5 = -0.5 -> +0.
        assert_eq!(r.wave.v[2][0], 0x0000_3c00);
        assert_eq!(r.wave.v[3][0], 0);
    }

    #[test]
    fn pk_fma_f16_rounds_once_and_honours_the_f16_denormal_mode() {
        // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly: a denormal f16 (0x0010). A separate
        // multiply would round the product to 1 + 2^-9 and give 0.
        let src = "v_pk_fma_f16 v3, v0, v0, v1";
        let setup = |w: &mut crate::wave::Wave| {
            w.v[0] = splat(0x3c01_3c01);
            w.v[1] = splat(0xbc02_bc02);
        };
        let r = run("gfx900", src, |w, _| setup(w)).unwrap();
        assert_eq!(r.wave.v[3][0], 0x0010_0010);
        // MODE.FP_DENORM f16/f64 = 0 flushes the denormal result to +0.
        let r = run("gfx900", src, |w, _| {
            setup(w);
            w.mode.bits &= !0xc0;
        })
        .unwrap();
        assert_eq!(r.wave.v[3][0], 0);
        // Input denormals are flushed too: 0x0200 (2^-15) * 2^15 = 1.0 only when kept.
        let r = run("gfx900", "v_pk_mul_f16 v3, v0, v1", |w, _| {
            w.v[0] = splat(0x0200);
            w.v[1] = splat(0x7800); // 2^15
        })
        .unwrap();
        assert_eq!(r.wave.v[3][0] & 0xffff, 0x3c00);
        let r = run("gfx900", "v_pk_mul_f16 v3, v0, v1", |w, _| {
            w.v[0] = splat(0x0200);
            w.v[1] = splat(0x7800);
            w.mode.bits &= !0x40; // keep output denormals, flush input ones
        })
        .unwrap();
        assert_eq!(r.wave.v[3][0] & 0xffff, 0);
    }

    #[test]
    fn f16_rounding_mode_and_overflow_saturation_follow_mode() {
        // 1 + 2^-11 is half an f16 ulp above 1: nearest-even gives 1.0, toward +inf 1 + 2^-10.
        let src = "v_pk_add_f16 v2, v0, v1";
        let setup = |w: &mut crate::wave::Wave| {
            w.v[0] = splat(0x7bff_3c00); // (65504, 1.0)
            w.v[1] = splat(0x7bff_1000); // (65504, 2^-11)
        };
        let r = run("gfx900", src, |w, _| setup(w)).unwrap();
        // hi: 65504 + 65504 overflows to +inf.
        assert_eq!(r.wave.v[2][0], 0x7c00_3c00);
        let r = run("gfx900", src, |w, _| {
            setup(w);
            w.mode.bits |= 1 << 2; // f16/f64 round toward +inf
        })
        .unwrap();
        assert_eq!(r.wave.v[2][0], 0x7c00_3c01);
        let r = run("gfx900", src, |w, _| {
            setup(w);
            w.mode.bits |= 1 << 23; // FP16_OVFL: overflow saturates to 65504
        })
        .unwrap();
        assert_eq!(r.wave.v[2][0], 0x7bff_3c00);
    }

    #[test]
    fn f16_min_max_follow_the_ieee_nan_and_signed_zero_rules() {
        // §7.3: a quiet NaN loses, a signalling NaN wins quieted (IEEE mode), min prefers -0.
        let r = run(
            "gfx900",
            "v_pk_max_f16 v2, v0, v1\nv_pk_min_f16 v3, v4, v5",
            |w, _| {
                w.v[0] = splat(0x7c01 << 16 | 0x7e00); // (sNaN, qNaN)
                w.v[1] = splat(H_ONE << 16 | H_ONE);
                w.v[4] = splat(0x8000 << 16 | 0xc000); // (-0, -2)
                w.v[5] = splat(H_ONE); // (+0, 1)
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[2][0], 0x7e01_3c00);
        assert_eq!(r.wave.v[3][0], 0x8000_c000);
    }

    #[test]
    fn packed_integer_operations_saturate_only_with_clamp() {
        // CLRX GcnInstrsVop3p.md: add/sub/mad saturate under CLAMP; shifts use the low 4 bits.
        let r = run(
            "gfx900",
            "v_pk_add_u16 v2, v0, v1\n\
             v_pk_add_u16 v3, v0, v1 clamp\n\
             v_pk_sub_i16 v4, v5, v6\n\
             v_pk_sub_i16 v7, v5, v6 clamp\n\
             v_pk_lshlrev_b16 v8, v9, v10\n\
             v_pk_ashrrev_i16 v11, v9, v10\n\
             v_pk_mad_u16 v12, v0, v0, v1 clamp\n\
             v_pk_mul_lo_u16 v13, v14, v15\n\
             v_pk_max_i16 v16, v17, v18\n\
             v_pk_max_u16 v19, v17, v18\n\
             v_pk_mad_i16 v20, v5, v6, v6 clamp",
            |w, _| {
                w.v[0] = splat(0xffff_fffe); // (65535, 65534)
                w.v[1] = splat(0x0001_0001);
                w.v[5] = splat(0x8000_7fff); // (-32768, 32767)
                w.v[6] = splat(0x0001_ffff); // (1, -1)
                w.v[9] = splat(0x000f_0011); // counts (15, 17)
                w.v[10] = splat(0x8000_8001);
                w.v[14] = splat(0x0003_1234);
                w.v[15] = splat(0xffff_0100);
                w.v[17] = splat(0x8000_8000);
                w.v[18] = splat(0x0001_0001);
            },
        )
        .unwrap();
        let v = |i: usize| r.wave.v[i][3];
        assert_eq!(v(2), 0x0000_ffff); // wraps: 65535+1 = 0, 65534+1 = 65535
        assert_eq!(v(3), 0xffff_ffff); // saturates at 65535
        assert_eq!(v(4), 0x7fff_8000); // -32768-1 wraps to 32767; 32767-(-1) wraps to -32768
        assert_eq!(v(7), 0x8000_7fff); // saturated
                                       // lo: 0x8001 << (17 & 15 = 1) = 0x0002; hi: 0x8000 << 15 = 0.
        assert_eq!(v(8), 0x0000_0002);
        // lo: 0x8001 >> 1 (arithmetic) = 0xc000; hi: 0x8000 >> 15 = 0xffff.
        assert_eq!(v(11), 0xffff_c000);
        // 65535^2 + 1 and 65534^2 + 1 saturate.
        assert_eq!(v(12), 0xffff_ffff);
        // lo 0x1234 * 0x100 = 0x123400 -> 0x3400; hi 3 * 0xffff = 0x2fffd -> 0xfffd.
        assert_eq!(v(13), 0xfffd_3400);
        // signed: max(-32768, 1) = 1; unsigned: 0x8000.
        assert_eq!(v(16), 0x0001_0001);
        assert_eq!(v(19), 0x8000_8000);
        // lo 32767 * -1 + -1 = -32768 (fits); hi -32768 * 1 + 1 = -32767.
        assert_eq!(v(20), 0x8001_8000);
    }

    #[test]
    fn disabled_lanes_keep_their_values() {
        let r = run("gfx900", "v_pk_add_u16 v1, v0, v0", |w, _| {
            w.set_exec(0b101);
            w.v[0] = splat(0x0001_0002);
            w.v[1] = splat(9);
        })
        .unwrap();
        assert_eq!(&r.wave.v[1][..4], &[0x0002_0004, 9, 0x0002_0004, 9]);
    }

    #[test]
    fn packed_f32_operations_select_dwords_of_register_pairs() {
        // CDNA2 ISA V_PK_FMA_F32: op_sel picks the dword of each 64-bit source for the low
        // result, op_sel_hi for the high one.
        let f = |x: f32| x.to_bits();
        let r = run(
            "gfx90a",
            "v_pk_fma_f32 v[6:7], v[0:1], v[2:3], v[4:5]\n\
             v_pk_fma_f32 v[8:9], v[0:1], v[2:3], v[4:5] op_sel:[1,0,0] op_sel_hi:[0,1,1]\n\
             v_pk_mul_f32 v[10:11], v[0:1], 2.0 op_sel_hi:[1,0]\n\
             v_pk_add_f32 v[12:13], v[0:1], s[0:1] neg_lo:[0,1]\n\
             v_pk_mov_b32 v[14:15], v[0:1], v[2:3] op_sel:[1,0]\n\
             v_pk_mul_f32 v[16:17], v[0:1], v[2:3] clamp\n\
             v_pk_mov_b32 v[18:19], 1.0, -2",
            |w, _| {
                w.v[0] = splat(f(2.0));
                w.v[1] = splat(f(3.0));
                w.v[2] = splat(f(4.0));
                w.v[3] = splat(f(5.0));
                w.v[4] = splat(f(1.0));
                w.v[5] = splat(f(10.0));
                w.s[0] = f(0.5);
                w.s[1] = f(-1.0);
            },
        )
        .unwrap();
        let v = |i: usize| f32::from_bits(r.wave.v[i][9]);
        assert_eq!((v(6), v(7)), (9.0, 25.0)); // 2*4+1, 3*5+10
        assert_eq!((v(8), v(9)), (13.0, 20.0)); // 3*4+1, 2*5+10
        assert_eq!((v(10), v(11)), (4.0, 6.0));
        assert_eq!((v(12), v(13)), (1.5, 2.0)); // 2 - 0.5, 3 + -1
        assert_eq!((v(14), v(15)), (3.0, 4.0));
        assert_eq!((v(16), v(17)), (1.0, 1.0)); // 8 and 15 clamp to 1
                                                // A constant's low dword is the 32-bit value: 1.0 and -1's sign-extended -2.
        assert_eq!((r.wave.v[18][0], r.wave.v[19][0]), (f(1.0), 0xffff_fffe));
    }

    #[test]
    fn packed_f32_rounding_zero_signs_and_denormal_modes_follow_mode() {
        // 1 + 0.75 ulp: nearest-even rounds up, toward zero down; the high dword adds
        // +0 + -0, which is +0 except when rounding toward -inf (IEEE 754 §6.3).
        let src = "v_pk_add_f32 v[4:5], v[0:1], v[2:3]";
        let setup = |w: &mut crate::wave::Wave| {
            w.v[0] = splat(1.0f32.to_bits());
            w.v[1] = splat(0);
            w.v[2] = splat(0x33c0_0000); // 3 * 2^-25
            w.v[3] = splat(0x8000_0000);
        };
        let r = run("gfx90a", src, |w, _| setup(w)).unwrap();
        assert_eq!((r.wave.v[4][0], r.wave.v[5][0]), (0x3f80_0001, 0));
        let r = run("gfx90a", src, |w, _| {
            setup(w);
            w.mode.bits |= 3; // f32 round toward zero
        })
        .unwrap();
        assert_eq!((r.wave.v[4][0], r.wave.v[5][0]), (0x3f80_0000, 0));
        let r = run("gfx90a", src, |w, _| {
            setup(w);
            w.mode.bits |= 2; // f32 round toward -inf
        })
        .unwrap();
        assert_eq!((r.wave.v[4][0], r.wave.v[5][0]), (0x3f80_0000, 0x8000_0000));
        // 2^-126 * 0.5 is the denormal 0x00400000: kept by default, flushed to +0 when
        // FP_DENORM.f32 = 1 (keep inputs, flush outputs); with 2 (flush inputs) the denormal
        // input 0x00400000 * 2 reads as 0.
        let src = "v_pk_mul_f32 v[4:5], v[0:1], v[2:3]";
        let setup = |w: &mut crate::wave::Wave| {
            w.v[0] = splat(0x0080_0000);
            w.v[1] = splat(0x0040_0000);
            w.v[2] = splat(0.5f32.to_bits());
            w.v[3] = splat(2.0f32.to_bits());
        };
        let r = run("gfx90a", src, |w, _| setup(w)).unwrap();
        assert_eq!((r.wave.v[4][0], r.wave.v[5][0]), (0x0040_0000, 0x0080_0000));
        let r = run("gfx90a", src, |w, _| {
            setup(w);
            w.mode.bits = (w.mode.bits & !0x30) | 0x10;
        })
        .unwrap();
        assert_eq!((r.wave.v[4][0], r.wave.v[5][0]), (0, 0x0080_0000));
        let r = run("gfx90a", src, |w, _| {
            setup(w);
            w.mode.bits = (w.mode.bits & !0x30) | 0x20;
        })
        .unwrap();
        assert_eq!((r.wave.v[4][0], r.wave.v[5][0]), (0x0040_0000, 0));
    }

    #[test]
    fn dot_products_sum_exactly_and_clamp_saturates() {
        // Vega ISA V_DOT2_F32_F16: D = S0.lo*S1.lo + S0.hi*S1.hi + S2; V_DOT4_I32_I8 etc.
        let r = run(
            "gfx906",
            "v_dot2_f32_f16 v3, v0, v1, v2\n\
             v_dot2_f32_f16 v4, v0, v1, v2 neg_lo:[0,0,1]\n\
             v_dot4_i32_i8 v5, v6, v6, v7\n\
             v_dot4_i32_i8 v8, v6, v6, v7 clamp\n\
             v_dot8_u32_u4 v9, v10, v11, 0\n\
             v_dot8_i32_i4 v12, v10, v13, 10\n\
             v_dot2_i32_i16 v14, v15, v16, 64\n\
             v_dot4_u32_u8 v17, v10, v10, -1 clamp",
            |w, _| {
                w.v[0] = splat(0x4200_4000); // (3, 2)
                w.v[1] = splat(0x4500_4400); // (5, 4)
                w.v[2] = splat(1.5f32.to_bits());
                w.v[6] = splat(0x7f7f_7f7f);
                w.v[7] = splat(i32::MAX as u32);
                w.v[10] = splat(0xffff_ffff);
                w.v[11] = splat(0x1111_1111);
                w.v[13] = splat(0x2222_2222);
                w.v[15] = splat(0x0003_fffe); // (3, -2)
                w.v[16] = splat(0x0007_0005); // (7, 5)
            },
        )
        .unwrap();
        let v = |i: usize| r.wave.v[i][0];
        assert_eq!(v(3), 24.5f32.to_bits()); // 2*4 + 3*5 + 1.5
        assert_eq!(v(4), 21.5f32.to_bits()); // 23 - 1.5
                                             // 4 * 127 * 127 = 64516 (0xfc04) on top of i32::MAX wraps, or saturates with clamp.
        assert_eq!(v(5), 0x8000_fc03);
        assert_eq!(v(8), i32::MAX as u32);
        assert_eq!(v(9), 120); // 8 * 15 * 1
        assert_eq!(v(12), (-6i32) as u32); // 8 * (-1 * 2) + 10
        assert_eq!(v(14), 75); // -2*5 + 3*7 + 64
                               // 4 * 255 * 255 + 0xffffffff saturates at u32::MAX.
        assert_eq!(v(17), u32::MAX);
    }

    #[test]
    fn accumulating_forms_add_into_their_destination() {
        let r = run(
            "gfx908",
            "v_dot2c_f32_f16 v2, v0, v1\n\
             v_pk_fmac_f16 v3, v0, v1\n\
             v_dot4c_i32_i8 v4, v5, v5\n\
             v_dot2c_i32_i16 v6, v7, v7",
            |w, _| {
                w.v[0] = splat(0x4200_4000); // (3, 2)
                w.v[1] = splat(0x4500_4400); // (5, 4)
                w.v[2] = splat(1.5f32.to_bits());
                w.v[3] = splat(H_TWO << 16 | H_ONE);
                w.v[4] = splat(5);
                w.v[5] = splat(0xff02_fe01); // bytes 1, -2, 2, -1
                w.v[6] = splat(7);
                w.v[7] = splat(0x8000_0002); // (-32768, 2)
            },
        )
        .unwrap();
        let v = |i: usize| r.wave.v[i][0];
        assert_eq!(v(2), 24.5f32.to_bits());
        // lo 2*4 + 1 = 9 (0x4880), hi 3*5 + 2 = 17 (0x4c40).
        assert_eq!(v(3), 0x4c40_4880);
        assert_eq!(v(4), 5 + 1 + 4 + 4 + 1);
        // 2*2 + 32768^2 + 7 = 2^30 + 11.
        assert_eq!(v(6), (1 << 30) + 11);
    }
}
