//! Exact floating-point arithmetic rounded once, in software, to f16, f32 or f64 under any of
//! the four MODE.FP_ROUND modes.
//!
//! The host's native arithmetic is correctly rounded to nearest-even, which is what almost
//! every kernel runs with, and the VALU semantics use it directly in that case. Everything
//! else — the directed rounding modes, f16 results (a host f16 type would round through f32),
//! the scaled single rounding of `v_div_fmas`, `v_ldexp`, and conversions between formats —
//! goes through this module: each operation computes its exact result as an integer
//! significand and a power of two, and [`round`] rounds that once.
//!
//! Operands are passed as `f64`, which holds every f16, f32 and f64 value exactly.

/// MODE.FP_ROUND: round to nearest, ties to even.
pub const RNE: u32 = 0;
/// MODE.FP_ROUND: round toward +infinity.
pub const RUP: u32 = 1;
/// MODE.FP_ROUND: round toward -infinity.
pub const RDN: u32 = 2;
/// MODE.FP_ROUND: round toward zero.
pub const RTZ: u32 = 3;
/// Or'ed into a rounding mode: a finite result too large for the format becomes the largest
/// finite value of its sign instead of an infinity (MODE.FP16_OVFL for f16 results).
pub const OVFL_CLAMP: u32 = 4;

/// A binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fmt {
    /// Stored fraction bits.
    pub frac: u32,
    /// Exponent bits.
    pub ebits: u32,
}

/// IEEE binary16.
pub const F16: Fmt = Fmt { frac: 10, ebits: 5 };
/// IEEE binary32.
pub const F32: Fmt = Fmt { frac: 23, ebits: 8 };
/// IEEE binary64.
pub const F64: Fmt = Fmt {
    frac: 52,
    ebits: 11,
};

impl Fmt {
    /// The exponent bias.
    #[inline(always)]
    pub const fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    /// The sign bit.
    #[inline(always)]
    pub const fn sign(self) -> u64 {
        1 << (self.frac + self.ebits)
    }
    /// The exponent field.
    #[inline(always)]
    pub const fn exp_mask(self) -> u64 {
        ((1u64 << self.ebits) - 1) << self.frac
    }
    /// The fraction field.
    #[inline(always)]
    pub const fn frac_mask(self) -> u64 {
        (1u64 << self.frac) - 1
    }
    /// The quiet bit of a NaN.
    #[inline(always)]
    pub const fn quiet(self) -> u64 {
        1 << (self.frac - 1)
    }
    /// The biased exponent field of `x`.
    #[inline(always)]
    pub const fn exp_field(self, x: u64) -> u32 {
        ((x & self.exp_mask()) >> self.frac) as u32
    }
    /// True for any NaN.
    #[inline(always)]
    pub const fn is_nan(self, x: u64) -> bool {
        x & self.exp_mask() == self.exp_mask() && x & self.frac_mask() != 0
    }
    /// True for a signalling NaN (quiet bit clear).
    #[inline(always)]
    pub const fn is_snan(self, x: u64) -> bool {
        self.is_nan(x) && x & self.quiet() == 0
    }
    /// True for ±infinity.
    #[inline(always)]
    pub const fn is_inf(self, x: u64) -> bool {
        x & !self.sign() == self.exp_mask()
    }
    /// True for ±0.
    #[inline(always)]
    pub const fn is_zero(self, x: u64) -> bool {
        x & !self.sign() == 0
    }
    /// True for a nonzero denormal.
    #[inline(always)]
    pub const fn is_denorm(self, x: u64) -> bool {
        x & self.exp_mask() == 0 && x & self.frac_mask() != 0
    }
    /// True when the sign bit is set.
    #[inline(always)]
    pub const fn is_neg(self, x: u64) -> bool {
        x & self.sign() != 0
    }
    /// ±infinity.
    #[inline(always)]
    pub const fn inf(self, neg: bool) -> u64 {
        self.exp_mask() | if neg { self.sign() } else { 0 }
    }
    /// ±0.
    #[inline(always)]
    pub const fn zero(self, neg: bool) -> u64 {
        if neg {
            self.sign()
        } else {
            0
        }
    }
    /// 1.0.
    #[inline(always)]
    pub const fn one(self) -> u64 {
        (self.bias() as u64) << self.frac
    }
    /// The largest finite value of a sign.
    #[inline(always)]
    pub const fn max(self, neg: bool) -> u64 {
        (self.exp_mask() - (1 << self.frac)) | self.frac_mask() | self.zero(neg)
    }
    /// The NaN the hardware produces for an invalid operation without a NaN operand: the
    /// negative quiet NaN with an empty payload (0xFFC00000 for f32).
    #[inline(always)]
    pub const fn default_nan(self) -> u64 {
        self.sign() | self.exp_mask() | self.quiet()
    }
    /// `x` with its quiet bit set (for NaNs).
    #[inline(always)]
    pub const fn quieted(self, x: u64) -> u64 {
        x | self.quiet()
    }
    /// A denormal `x` flushed to zero of its sign; other values unchanged.
    #[inline(always)]
    pub const fn flush(self, x: u64) -> u64 {
        if self.is_denorm(x) {
            x & self.sign()
        } else {
            x
        }
    }
    /// The value of `x` (exact).
    pub fn to_f64(self, x: u64) -> f64 {
        match self.frac {
            52 => f64::from_bits(x),
            23 => f32::from_bits(x as u32) as f64,
            _ => f16_to_f64(x as u16),
        }
    }
    /// The quiet NaN of this format carrying the sign and the top payload bits of `x` (a
    /// NaN).
    pub fn nan_from_f64(self, x: f64) -> u64 {
        let b = x.to_bits();
        let payload = (b & ((1 << 52) - 1)) >> (52 - self.frac);
        self.zero(b >> 63 != 0) | self.exp_mask() | self.quiet() | (payload & self.frac_mask())
    }
}

/// The exact value of an f16 bit pattern (NaNs keep their payload and quiet bit).
pub fn f16_to_f64(x: u16) -> f64 {
    let neg = x & 0x8000 != 0;
    let e = ((x >> 10) & 0x1f) as i32;
    let f = (x & 0x3ff) as u64;
    let mag = if e == 0x1f {
        if f == 0 {
            f64::INFINITY
        } else {
            return f64::from_bits((neg as u64) << 63 | 0x7ff << 52 | f << 42);
        }
    } else if e == 0 {
        f as f64 * (-24f64).exp2()
    } else {
        (f | 0x400) as f64 * ((e - 25) as f64).exp2()
    };
    if neg {
        -mag
    } else {
        mag
    }
}

/// `2^n` as an f64, for `n` in the normal range.
#[inline(always)]
pub fn pow2(n: i32) -> f64 {
    f64::from_bits(((n + 1023) as u64) << 52)
}

/// A finite nonzero `x` as (negative, significand, exponent) with `x = ±m * 2^e`.
#[inline]
pub fn decompose(x: f64) -> (bool, u64, i32) {
    let b = x.to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    let f = b & ((1 << 52) - 1);
    if e == 0 {
        (b >> 63 != 0, f, -1074)
    } else {
        (b >> 63 != 0, f | 1 << 52, e - 1075)
    }
}

/// Rounds the exact value `(-1)^neg * m * 2^e` (`m` nonzero) to `fmt` with rounding mode
/// `rm` (optionally with [`OVFL_CLAMP`]). Bits of `m` below the rounding position act as
/// the remainder, so a caller may fold any further nonzero bits into bit 0 ("sticky") as
/// long as bit 0 lies at least two places below the rounding position.
pub fn round(fmt: Fmt, neg: bool, m: u128, e: i32, rm: u32) -> u64 {
    debug_assert!(m != 0);
    let lz = m.leading_zeros();
    let m = m << lz;
    // The value is m * 2^(e - lz) with m in [2^127, 2^128): its leading bit has weight
    // 2^(e - lz + 127).
    let lead = e - lz as i32 + 127;
    let biased = lead + fmt.bias();
    let emax = (1i32 << fmt.ebits) - 1;
    let p = fmt.frac + 1;
    if biased >= emax {
        return overflow(fmt, neg, rm);
    }
    // Bits to drop: below the precision for normal results, more for denormal ones.
    let shift = if biased >= 1 {
        128 - p
    } else {
        (128 - p).saturating_add((1 - biased) as u32)
    };
    let (kept, rem, half) = if shift > 128 {
        (0u128, 1u128, 2u128)
    } else if shift == 128 {
        (0, m, 1u128 << 127)
    } else {
        (m >> shift, m & ((1u128 << shift) - 1), 1u128 << (shift - 1))
    };
    let inc = match rm & 3 {
        RNE => rem > half || (rem == half && kept & 1 == 1),
        RUP => rem != 0 && !neg,
        RDN => rem != 0 && neg,
        _ => false,
    };
    let kept = (kept + inc as u128) as u64;
    // For normal results `kept` carries the implicit bit, which adds one to the exponent
    // field; a rounding carry into the next binade adds another. A denormal that rounds up
    // to 2^frac becomes the smallest normal the same way.
    let bits = ((biased.max(1) - 1) as u64) * (1u64 << fmt.frac) + kept;
    if bits >= fmt.exp_mask() {
        return overflow(fmt, neg, rm);
    }
    bits | fmt.zero(neg)
}

/// The result of a finite value too large for `fmt`.
fn overflow(fmt: Fmt, neg: bool, rm: u32) -> u64 {
    if rm & OVFL_CLAMP != 0 {
        return fmt.max(neg);
    }
    let to_inf = match rm & 3 {
        RNE => true,
        RUP => !neg,
        RDN => neg,
        _ => false,
    };
    if to_inf {
        fmt.inf(neg)
    } else {
        fmt.max(neg)
    }
}

/// `x` rounded to `fmt` (a conversion). NaNs are quieted keeping the top payload bits.
pub fn from_f64(fmt: Fmt, x: f64, rm: u32) -> u64 {
    if x.is_nan() {
        return fmt.nan_from_f64(x);
    }
    if x.is_infinite() {
        return fmt.inf(x < 0.0);
    }
    if x == 0.0 {
        return fmt.zero(x.is_sign_negative());
    }
    let (neg, m, e) = decompose(x);
    round(fmt, neg, m as u128, e, rm)
}

/// `x * 2^n` rounded once to `fmt`.
pub fn ldexp(fmt: Fmt, x: f64, n: i32, rm: u32) -> u64 {
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return from_f64(fmt, x, rm);
    }
    let (neg, m, e) = decompose(x);
    // Past these bounds the result is an overflow or rounds like the smallest denormal;
    // clamping keeps the exponent arithmetic in range.
    let n = n.clamp(-4000, 4000);
    round(fmt, neg, m as u128, e + n, rm)
}

/// An exact intermediate value `±m * 2^e`.
#[derive(Clone, Copy, Debug)]
struct Term {
    neg: bool,
    m: u128,
    e: i32,
}

impl Term {
    fn of(x: f64) -> Term {
        let (neg, m, e) = decompose(x);
        Term {
            neg,
            m: m as u128,
            e,
        }
    }
    /// The same value with the leading bit of `m` at bit 125 (m is below 2^126 here).
    fn normalized(self) -> Term {
        let len = 128 - self.m.leading_zeros() as i32;
        let s = 126 - len;
        Term {
            neg: self.neg,
            m: self.m << s,
            e: self.e - s,
        }
    }
}

/// The sum of two nonzero terms whose significands are below 2^106, exact up to a sticky
/// bit folded into bit 0, or `None` when it is exactly zero.
///
/// Both significands are first moved to bits 125..20 or higher, so their low bits are zero
/// and the smaller term can be shifted right with its lost bits or'ed into bit 0 without
/// moving the sum across any rounding boundary of a 53-bit (or narrower) result.
fn add_terms(x: Term, y: Term) -> Option<Term> {
    let (x, y) = (x.normalized(), y.normalized());
    let (big, small) = if (x.e, x.m) >= (y.e, y.m) {
        (x, y)
    } else {
        (y, x)
    };
    let d = (big.e - small.e) as u32;
    let sm = if d == 0 {
        small.m
    } else if d >= 127 {
        1
    } else {
        (small.m >> d) | (small.m & ((1u128 << d) - 1) != 0) as u128
    };
    let m = if big.neg == small.neg {
        big.m + sm
    } else {
        big.m - sm
    };
    (m != 0).then_some(Term {
        neg: big.neg,
        m,
        e: big.e,
    })
}

/// The first NaN of the operands, as a quiet NaN of `fmt`.
fn first_nan(fmt: Fmt, ops: &[f64]) -> u64 {
    let x = ops.iter().copied().find(|x| x.is_nan()).unwrap_or(f64::NAN);
    fmt.nan_from_f64(x)
}

/// `a * b + c` computed exactly and rounded once to `fmt` (a fused multiply-add).
pub fn fma(fmt: Fmt, a: f64, b: f64, c: f64, rm: u32) -> u64 {
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return first_nan(fmt, &[a, b, c]);
    }
    let pneg = a.is_sign_negative() != b.is_sign_negative();
    if a.is_infinite() || b.is_infinite() {
        if a == 0.0 || b == 0.0 || (c.is_infinite() && c.is_sign_negative() != pneg) {
            return fmt.default_nan();
        }
        return fmt.inf(pneg);
    }
    if c.is_infinite() {
        return fmt.inf(c < 0.0);
    }
    if a == 0.0 || b == 0.0 {
        if c == 0.0 {
            return zero_sum(fmt, pneg, c.is_sign_negative(), rm);
        }
        return from_f64(fmt, c, rm);
    }
    let (ta, tb) = (Term::of(a), Term::of(b));
    let p = Term {
        neg: pneg,
        m: ta.m * tb.m,
        e: ta.e + tb.e,
    };
    if c == 0.0 {
        return round(fmt, p.neg, p.m, p.e, rm);
    }
    match add_terms(p, Term::of(c)) {
        Some(t) => round(fmt, t.neg, t.m, t.e, rm),
        None => fmt.zero(rm & 3 == RDN),
    }
}

/// The f32 fused multiply-add `a * b + c` with one rounding to nearest even, without the
/// host's `fmaf` (a slow library call on baseline x86-64, which has no FMA instruction).
/// The product of two f32 is exact in f64; the f64 sum is rounded to odd (the neighbour
/// with an odd last bit whenever it is inexact, found from its exact error by Knuth's
/// two-sum), and a value rounded to odd with at least two more bits than the target
/// rounds to nearest even in the target exactly as the exact value would (Boldo and
/// Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using
/// rounding to odd", 2008). NaNs and infinities pass through the f64 arithmetic as IEEE
/// fma treats them.
#[inline(always)]
pub fn fma_f32(a: f32, b: f32, c: f32) -> f32 {
    let p = a as f64 * b as f64;
    let c = c as f64;
    let s = p + c;
    let t = s - p;
    let err = (p - (s - t)) + (c - t);
    let bits = s.to_bits();
    // Inexact with an even last bit: step one unit toward the exact value (s is finite
    // and non-zero whenever err is a non-zero number).
    let adjust = err != 0.0 && s.is_finite() && bits & 1 == 0;
    let toward_larger_magnitude = (err > 0.0) == (s > 0.0);
    let odd = match (adjust, toward_larger_magnitude) {
        (false, _) => bits,
        (true, true) => bits + 1,
        (true, false) => bits - 1,
    };
    f64::from_bits(odd) as f32
}

/// The sign of an exact zero sum of two zeros: their sign if they agree, otherwise +0
/// (-0 when rounding toward -infinity).
fn zero_sum(fmt: Fmt, a_neg: bool, b_neg: bool, rm: u32) -> u64 {
    if a_neg == b_neg {
        fmt.zero(a_neg)
    } else {
        fmt.zero(rm & 3 == RDN)
    }
}

/// `a + b` rounded once to `fmt`.
pub fn add(fmt: Fmt, a: f64, b: f64, rm: u32) -> u64 {
    if a.is_nan() || b.is_nan() {
        return first_nan(fmt, &[a, b]);
    }
    if a.is_infinite() || b.is_infinite() {
        if a.is_infinite() && b.is_infinite() && a.is_sign_negative() != b.is_sign_negative() {
            return fmt.default_nan();
        }
        return fmt.inf(if a.is_infinite() { a < 0.0 } else { b < 0.0 });
    }
    if a == 0.0 && b == 0.0 {
        return zero_sum(fmt, a.is_sign_negative(), b.is_sign_negative(), rm);
    }
    if a == 0.0 {
        return from_f64(fmt, b, rm);
    }
    if b == 0.0 {
        return from_f64(fmt, a, rm);
    }
    match add_terms(Term::of(a), Term::of(b)) {
        Some(t) => round(fmt, t.neg, t.m, t.e, rm),
        None => fmt.zero(rm & 3 == RDN),
    }
}

/// `a * b` rounded once to `fmt`.
pub fn mul(fmt: Fmt, a: f64, b: f64, rm: u32) -> u64 {
    if a.is_nan() || b.is_nan() {
        return first_nan(fmt, &[a, b]);
    }
    let neg = a.is_sign_negative() != b.is_sign_negative();
    if a.is_infinite() || b.is_infinite() {
        if a == 0.0 || b == 0.0 {
            return fmt.default_nan();
        }
        return fmt.inf(neg);
    }
    if a == 0.0 || b == 0.0 {
        return fmt.zero(neg);
    }
    let (ta, tb) = (Term::of(a), Term::of(b));
    round(fmt, neg, ta.m * tb.m, ta.e + tb.e, rm)
}

/// `a * b + c` with the exact result scaled by `2^scale` before the single rounding (the
/// scaled fused multiply-add of `v_div_fmas`). Special values follow [`fma`].
pub fn fma_scaled(fmt: Fmt, a: f64, b: f64, c: f64, scale: i32, rm: u32) -> u64 {
    let special = a.is_nan()
        || b.is_nan()
        || c.is_nan()
        || a.is_infinite()
        || b.is_infinite()
        || c.is_infinite()
        || a == 0.0
        || b == 0.0;
    if special {
        // Products with a zero factor give c (or a zero), which the scale moves exactly
        // unless it leaves the range: scale c itself through ldexp.
        let r = fma(F64, a, b, c, RNE);
        return ldexp(fmt, f64::from_bits(r), scale, rm);
    }
    let (ta, tb) = (Term::of(a), Term::of(b));
    let p = Term {
        neg: a.is_sign_negative() != b.is_sign_negative(),
        m: ta.m * tb.m,
        e: ta.e + tb.e,
    };
    let t = if c == 0.0 {
        Some(p)
    } else {
        add_terms(p, Term::of(c))
    };
    match t {
        Some(t) => round(fmt, t.neg, t.m, t.e + scale, rm),
        None => fmt.zero(rm & 3 == RDN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_modes_round_a_halfway_value_as_ieee_754_says() {
        // 1 + 2^-24 lies exactly halfway between 1.0 and the next f32 (1 + 2^-23).
        let x = 1.0 + (-24f64).exp2();
        assert_eq!(from_f64(F32, x, RNE), 0x3f80_0000); // ties to even: 1.0
        assert_eq!(from_f64(F32, x, RUP), 0x3f80_0001);
        assert_eq!(from_f64(F32, x, RDN), 0x3f80_0000);
        assert_eq!(from_f64(F32, x, RTZ), 0x3f80_0000);
        assert_eq!(from_f64(F32, -x, RDN), 0xbf80_0001);
        assert_eq!(from_f64(F32, -x, RUP), 0xbf80_0000);
        // 1 + 3*2^-24 is halfway between odd 1+2^-23 and even 1+2^-22: RNE goes up.
        assert_eq!(from_f64(F32, 1.0 + 3.0 * (-24f64).exp2(), RNE), 0x3f80_0002);
    }

    #[test]
    fn overflow_goes_to_infinity_or_the_largest_finite_value_by_mode() {
        // 2^128 is past the f32 range (largest finite 0x7f7fffff).
        let big = 2f64.powi(128);
        assert_eq!(from_f64(F32, big, RNE), 0x7f80_0000);
        assert_eq!(from_f64(F32, big, RTZ), 0x7f7f_ffff);
        assert_eq!(from_f64(F32, big, RDN), 0x7f7f_ffff);
        assert_eq!(from_f64(F32, -big, RDN), 0xff80_0000);
        assert_eq!(from_f64(F32, -big, RUP), 0xff7f_ffff);
        // FP16_OVFL: 65520 rounds past 65504 (0x7bff) to infinity, unless clamped.
        assert_eq!(from_f64(F16, 65520.0, RNE), 0x7c00);
        assert_eq!(from_f64(F16, 65520.0, RNE | OVFL_CLAMP), 0x7bff);
        assert_eq!(from_f64(F16, 65519.0, RNE), 0x7bff);
    }

    #[test]
    fn denormal_results_round_once_at_their_own_precision() {
        // f32 smallest denormal 2^-149; 1.5 * 2^-149 is a tie between 1 and 2 units: even 2.
        assert_eq!(from_f64(F32, 1.5 * (-149f64).exp2(), RNE), 2);
        assert_eq!(from_f64(F32, 0.5 * (-149f64).exp2(), RNE), 0); // tie to even 0
        assert_eq!(from_f64(F32, 0.75 * (-149f64).exp2(), RNE), 1);
        assert_eq!(from_f64(F32, 0.25 * (-149f64).exp2(), RUP), 1);
        assert_eq!(from_f64(F32, -(-200f64).exp2(), RDN), 0x8000_0001);
        assert_eq!(from_f64(F32, -(-200f64).exp2(), RNE), 0x8000_0000);
        // The largest denormal rounding up becomes the smallest normal 2^-126.
        let x = (-126f64).exp2() - (-151f64).exp2();
        assert_eq!(from_f64(F32, x, RNE), 0x0080_0000);
        // f16: 2^-24 is the smallest denormal (0x0001), 2^-14 the smallest normal (0x0400).
        assert_eq!(from_f64(F16, (-24f64).exp2(), RNE), 0x0001);
        assert_eq!(from_f64(F16, (-14f64).exp2(), RNE), 0x0400);
    }

    #[test]
    fn fused_multiply_add_rounds_once() {
        // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 = 2^-11 * (1 + 2^-13), representable in f32; a
        // separately rounded product would lose the 2^-24 (a tie at 1 + 2^-11, even below).
        let a = 1.0 + (-12f64).exp2();
        assert_eq!(
            f32::from_bits(fma(F32, a, a, -1.0, RNE) as u32) as f64,
            (-11f64).exp2() + (-24f64).exp2()
        );
        // A huge addend with a tiny product: only the sticky bit survives, which decides
        // directed rounding: 1 + 2^-200 rounds up to 1 + 2^-23 toward +inf.
        let tiny = (-100f64).exp2();
        assert_eq!(fma(F32, tiny, tiny, 1.0, RUP), 0x3f80_0001);
        assert_eq!(fma(F32, tiny, tiny, 1.0, RNE), 0x3f80_0000);
        assert_eq!(fma(F32, -tiny, tiny, 1.0, RTZ), 0x3f7f_ffff);
        // Exact cancellation gives +0, or -0 when rounding toward -infinity.
        assert_eq!(fma(F32, 2.0, 3.0, -6.0, RNE), 0);
        assert_eq!(fma(F32, 2.0, 3.0, -6.0, RDN), 0x8000_0000);
        // 0 * inf is invalid: default NaN.
        assert_eq!(fma(F32, 0.0, f64::INFINITY, 1.0, RNE), 0xffc0_0000);
        // f64: (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104, exactly.
        let e = (-52f64).exp2();
        assert_eq!(
            f64::from_bits(fma(F64, 1.0 + e, 1.0 - e, -1.0, RNE)),
            -(-104f64).exp2()
        );
    }

    #[test]
    fn sums_with_far_apart_exponents_round_by_the_sticky_bit() {
        let tiny = (-1000f64).exp2();
        assert_eq!(f64::from_bits(add(F64, 1.0, tiny, RNE)), 1.0);
        assert_eq!(
            f64::from_bits(add(F64, 1.0, tiny, RUP)),
            1.0 + (-52f64).exp2()
        );
        assert_eq!(
            f64::from_bits(add(F64, 1.0, -tiny, RTZ)),
            1.0 - (-53f64).exp2()
        );
        assert_eq!(f64::from_bits(add(F64, 1.0, -tiny, RNE)), 1.0);
        // x + (-x) = +0, and -0 toward -infinity.
        assert_eq!(add(F64, 3.5, -3.5, RNE), 0);
        assert_eq!(add(F64, 3.5, -3.5, RDN), 1 << 63);
        assert_eq!(add(F32, -0.0, -0.0, RNE), 0x8000_0000);
    }

    #[test]
    fn products_round_toward_the_selected_direction() {
        // 3 * (1 + 2^-23) = 3 + 3*2^-23 needs 25 bits: 3 + 2^-22 (0x40400001) or 3 + 2^-21.
        let a = 1.0 + (-23f64).exp2();
        assert_eq!(mul(F32, 3.0, a, RTZ), 0x4040_0001);
        assert_eq!(mul(F32, 3.0, a, RUP), 0x4040_0002);
        assert_eq!(mul(F32, 3.0, a, RNE), 0x4040_0002); // tie: 0x...01 is odd, goes even
        assert_eq!(mul(F32, -3.0, a, RDN), 0xc040_0002);
    }

    #[test]
    fn scaled_fma_rounds_after_scaling() {
        // (2^-150 * 3) scaled by 2^0 is below the denormal range: 3*2^-150 = 1.5 units of
        // 2^-149, a tie that goes to even 2 units. Computing 3*2^-86 then scaling by 2^-64
        // must give the same single rounding.
        let r = fma_scaled(F32, 3.0, (-86f64).exp2(), 0.0, -64, RNE);
        assert_eq!(r, 2);
    }

    #[test]
    fn nan_payloads_survive_format_changes_and_are_quieted() {
        let snan = f64::from_bits(0x7ff4_0000_0000_0000);
        assert_eq!(from_f64(F32, snan, RNE), 0x7fe0_0000);
        assert!(f16_to_f64(0x7e00).is_nan());
        assert_eq!(f16_to_f64(0xfc00), f64::NEG_INFINITY);
        assert_eq!(f16_to_f64(0x0001), (-24f64).exp2());
        assert_eq!(f16_to_f64(0x3c00), 1.0);
    }

    /// A xorshift generator for operand bit patterns.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Random f64 bit patterns, half of them with exponents near each other or near the
    /// ends of the range, so that cancellation, far-apart addends, denormal results and
    /// overflow all occur.
    fn operand(state: &mut u64) -> f64 {
        let x = next(state);
        let e = match next(state) % 4 {
            0 => (x >> 52) & 0x7ff,
            1 => 1023 + next(state) % 8,
            2 => next(state) % 60,
            _ => 2040 - next(state) % 60,
        };
        let v = f64::from_bits((x & 0x800f_ffff_ffff_ffff) | e.min(2046) << 52);
        if next(state).is_multiple_of(16) {
            0.0
        } else {
            v
        }
    }

    #[test]
    fn f64_fma_agrees_with_the_host_fused_multiply_add() {
        // The host's f64::mul_add is IEEE fma (correctly rounded to nearest even).
        let mut st = 0x2545_f491_4f6c_dd1d;
        for _ in 0..200_000 {
            let (a, b, c) = (operand(&mut st), operand(&mut st), operand(&mut st));
            let want = a.mul_add(b, c);
            let got = f64::from_bits(fma(F64, a, b, c, RNE));
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "fma({a:e}, {b:e}, {c:e}) = {got:e}, want {want:e}"
            );
        }
    }

    #[test]
    fn fast_f32_fma_agrees_with_the_host_fused_multiply_add() {
        // The host's f32::mul_add is IEEE fma (correctly rounded to nearest even); operands
        // span every exponent, so products and sums cover denormals, overflow, exact
        // cancellation and halfway cases.
        let mut st = 0x0123_4567_89ab_cdef;
        let f32_of = |st: &mut u64| {
            let x = next(st) as u32;
            match next(st) % 8 {
                0 => f32::from_bits(x & 0x807f_ffff),
                1 => f32::from_bits((x & 0x8000_0fff) | 0x3f80_0000),
                2 => [
                    0.0,
                    -0.0,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    f32::NAN,
                    1.0,
                    -1.0,
                ][(x % 7) as usize],
                _ => f32::from_bits(x),
            }
        };
        for _ in 0..1_000_000 {
            let (a, b, c) = (f32_of(&mut st), f32_of(&mut st), f32_of(&mut st));
            let want = a.mul_add(b, c);
            let got = fma_f32(a, b, c);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "fma({a:e}, {b:e}, {c:e}) = {got:e}, want {want:e}"
            );
        }
        // c = -(a*b) rounded: the sum is the product's rounding error, tiny and exact.
        for i in 0..100_000u32 {
            let a = f32::from_bits(0x3f80_0000 | i.wrapping_mul(7919) & 0x7f_ffff);
            let b = f32::from_bits(0x3f80_0000 | i.wrapping_mul(104_729) & 0x7f_ffff);
            let c = -(a * b);
            assert_eq!(fma_f32(a, b, c).to_bits(), a.mul_add(b, c).to_bits());
        }
    }

    #[test]
    fn f32_fma_agrees_with_the_host_and_directed_modes_bracket_it() {
        // Round to nearest: the host's f32::mul_add. Directed modes: the result must be
        // the nearest-even result or its neighbour on the side the mode selects, which is
        // checked against the exact value a*b + c computed as a double-double (the product
        // of two f32 is exact in f64; the sum's error is exact by Knuth's two-sum).
        let mut st = 0x9e37_79b9_7f4a_7c15;
        let f32_of = |st: &mut u64| {
            let v = operand(st);
            let e = next(st) % 4;
            let x = (v as f32).to_bits();
            let x = match e {
                0 => (x & 0x807f_ffff) | ((next(st) % 40) as u32) << 23,
                1 => (x & 0x807f_ffff) | ((120 + next(st) % 16) as u32) << 23,
                _ => x,
            };
            f32::from_bits(x)
        };
        for _ in 0..200_000 {
            let (a, b, c) = (f32_of(&mut st), f32_of(&mut st), f32_of(&mut st));
            let rne = a.mul_add(b, c);
            let got = f32::from_bits(fma(F32, a as f64, b as f64, c as f64, RNE) as u32);
            assert!(
                got.to_bits() == rne.to_bits() || (got.is_nan() && rne.is_nan()),
                "fma({a:e}, {b:e}, {c:e}) = {got:e}, want {rne:e}"
            );
            if !rne.is_finite() || rne == 0.0 {
                continue;
            }
            let p = a as f64 * b as f64;
            let s = p + c as f64;
            let t = s - p;
            let err = (p - (s - t)) + (c as f64 - t);
            // exact = s + err; where does the f32 result r lie relative to it?
            let below = |r: f32| (r as f64) < s || ((r as f64) == s && err > 0.0);
            let above = |r: f32| (r as f64) > s || ((r as f64) == s && err < 0.0);
            for rm in [RUP, RDN, RTZ] {
                let r = f32::from_bits(fma(F32, a as f64, b as f64, c as f64, rm) as u32);
                let up = match rm {
                    RUP => true,
                    RDN => false,
                    _ => s + err < 0.0,
                };
                if r.is_infinite() {
                    assert!(up == (r > 0.0), "overflow to the wrong infinity");
                    continue;
                }
                // r is on the selected side of the exact value, and one step further
                // would cross it.
                let next = |x: f32, up: bool| {
                    let b = x.to_bits() as i64;
                    let step = if (x > 0.0 || (x == 0.0 && up)) == up {
                        1
                    } else {
                        -1
                    };
                    f32::from_bits((b + step) as u32)
                };
                if up {
                    assert!(!below(r), "{rm}: fma({a:e}, {b:e}, {c:e}) = {r:e} is below");
                    assert!(below(next(r, false)) || r == rne, "{rm}: {a:e} {b:e} {c:e}");
                } else {
                    assert!(!above(r), "{rm}: fma({a:e}, {b:e}, {c:e}) = {r:e} is above");
                    assert!(above(next(r, true)) || r == rne, "{rm}: {a:e} {b:e} {c:e}");
                }
            }
        }
    }
}
