//! IEEE 754 binary16/binary32 rounding from exact values, written from IEEE 754-2008 §4.3.1
//! (roundTiesToEven), §7.4 (overflow: to infinity under round-to-nearest) and §3.4 (the
//! binary interchange encodings, gradual underflow through subnormals).
//!
//! Half arithmetic is built on it: an operation on binary16 values is computed exactly (or in
//! float64 where that is provably the same) and rounded once, which is what IEEE 754 requires
//! of every basic operation and what the half instructions (v_add_f16, v_fma_f16, v_cvt_f16_f32,
//! ...) implement.

/// A binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Significand bits including the hidden one (11 for binary16, 24 for binary32).
    pub precision: u32,
    /// The largest exponent (15, 127); the bias equals it and the smallest normal exponent is
    /// `1 - emax`.
    pub emax: i32,
    /// Exponent field width (5, 8).
    pub exp_bits: u32,
}

/// IEEE binary16.
pub const HALF: Format = Format {
    precision: 11,
    emax: 15,
    exp_bits: 5,
};
/// IEEE binary32.
pub const SINGLE: Format = Format {
    precision: 24,
    emax: 127,
    exp_bits: 8,
};

impl Format {
    fn total_bits(self) -> u32 {
        self.precision + self.exp_bits
    }

    fn sign_bit(self, neg: bool) -> u64 {
        (neg as u64) << (self.total_bits() - 1)
    }

    /// The encoding of an infinity.
    pub fn inf(self, neg: bool) -> u64 {
        self.sign_bit(neg) | (((1u64 << self.exp_bits) - 1) << (self.precision - 1))
    }

    /// The encoding of the default quiet NaN with the given sign.
    pub fn nan(self, neg: bool) -> u64 {
        self.inf(neg) | (1u64 << (self.precision - 2))
    }
}

/// A decoded floating-point datum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Not a number.
    Nan,
    /// An infinity (`true`: negative).
    Inf(bool),
    /// `(-1)^neg * mant * 2^exp`, exactly.
    Finite {
        /// The sign (also of zeros).
        neg: bool,
        /// The integer significand.
        mant: u128,
        /// The power of two it is scaled by.
        exp: i32,
    },
}

/// Decodes the encoding `bits` of `fmt`.
pub fn decode(fmt: Format, bits: u64) -> Value {
    let p = fmt.precision;
    let neg = bits >> (fmt.total_bits() - 1) & 1 == 1;
    let e = (bits >> (p - 1)) & ((1 << fmt.exp_bits) - 1);
    let f = bits & ((1 << (p - 1)) - 1);
    let bias = fmt.emax;
    if e == (1 << fmt.exp_bits) - 1 {
        return if f == 0 { Value::Inf(neg) } else { Value::Nan };
    }
    let (mant, exp) = if e == 0 {
        (f as u128, 1 - bias - (p as i32 - 1))
    } else {
        (
            (f | (1 << (p - 1))) as u128,
            e as i32 - bias - (p as i32 - 1),
        )
    };
    Value::Finite { neg, mant, exp }
}

/// Decodes a float64.
pub fn decode_f64(x: f64) -> Value {
    decode(
        Format {
            precision: 53,
            emax: 1023,
            exp_bits: 11,
        },
        x.to_bits(),
    )
}

/// Rounds `(-1)^neg * mant * 2^exp` to the nearest value of `fmt`, ties to even, overflowing
/// to infinity and underflowing gradually; returns the encoding.
pub fn round(fmt: Format, neg: bool, mant: u128, exp: i32) -> u64 {
    let sign = fmt.sign_bit(neg);
    if mant == 0 {
        return sign;
    }
    let p = fmt.precision as i32;
    let emin = 1 - fmt.emax;
    // Exponent of the leading bit, then of the result's unit in the last place.
    let top = exp + (127 - mant.leading_zeros() as i32);
    let mut e = top.max(emin);
    let shift = e - (p - 1) - exp; // low bits of `mant` below that unit
    let mut m: u128 = if shift <= 0 {
        // Exact: the value has at most p significant bits at this exponent.
        mant << (-shift) as u32
    } else if shift >= 128 {
        // Below half a unit (the half unit is 2^(shift-1) >= 2^127 > mant, or equal only when
        // shift is 128 and mant is 2^127, a tie that rounds to the even 0).
        (shift == 128 && mant > 1u128 << 127) as u128
    } else {
        let kept = mant >> shift;
        let rest = mant & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        kept + (rest > half || (rest == half && kept & 1 == 1)) as u128
    };
    if m == 1u128 << p {
        // Rounding carried into a new binade.
        m >>= 1;
        e += 1;
    }
    if e > fmt.emax {
        return fmt.inf(neg);
    }
    if m < 1u128 << (p - 1) {
        // Subnormal (only when e == emin): biased exponent 0.
        return sign | m as u64;
    }
    sign | (((e + fmt.emax) as u64) << (p - 1)) | (m as u64 - (1u64 << (p - 1)))
}

/// Rounds a signed fixed-point value `v * 2^exp` to `fmt`.
pub fn round_fixed(fmt: Format, v: i128, exp: i32) -> u64 {
    round(fmt, v < 0, v.unsigned_abs(), exp)
}

/// Rounds a float64 once into `fmt` (NaN to the default NaN, keeping the sign bit).
pub fn round_f64(fmt: Format, x: f64) -> u64 {
    match decode_f64(x) {
        Value::Nan => fmt.nan(x.is_sign_negative()),
        Value::Inf(neg) => fmt.inf(neg),
        Value::Finite { neg, mant, exp } => round(fmt, neg, mant, exp),
    }
}

/// A binary16 value as a float64 (exact: every half is a float64).
pub fn h2f(h: u16) -> f64 {
    match decode(HALF, h as u64) {
        Value::Nan => f64::NAN,
        Value::Inf(neg) => {
            if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        Value::Finite { neg, mant, exp } => {
            let v = mant as f64 * 2f64.powi(exp);
            if neg {
                -v
            } else {
                v
            }
        }
    }
}

/// A float64 rounded once to binary16.
pub fn f2h(x: f64) -> u16 {
    round_f64(HALF, x) as u16
}

/// Whether a half is a NaN.
pub fn h_is_nan(h: u16) -> bool {
    decode(HALF, h as u64) == Value::Nan
}

// Half add, subtract and multiply: the float64 result is exact (a product of two 11-bit
// significands has 22 bits; a sum of two halves spans at most 2^16 down to 2^-24, 41 bits), so
// rounding it once to half is the correctly rounded half result.

/// Half addition, correctly rounded.
pub fn h_add(a: u16, b: u16) -> u16 {
    f2h(h2f(a) + h2f(b))
}

/// Half subtraction, correctly rounded.
pub fn h_sub(a: u16, b: u16) -> u16 {
    f2h(h2f(a) - h2f(b))
}

/// Half multiplication, correctly rounded.
pub fn h_mul(a: u16, b: u16) -> u16 {
    f2h(h2f(a) * h2f(b))
}

/// Half division, correctly rounded: the float64 quotient is rounded twice (to float64, then
/// to half), which gives the correctly rounded half quotient because 53 >= 2*11 + 2
/// (S. Figueroa, "When is double rounding innocuous?", SIGNUM Newsletter 30(3), 1995).
pub fn h_div(a: u16, b: u16) -> u16 {
    f2h(h2f(a) / h2f(b))
}

/// Half fused multiply-add `a*b + c` with a single rounding. The exact sum can need more than
/// 53 bits (2^16 down to 2^-48), so it is formed in fixed point with unit 2^-48: every half is
/// a multiple of 2^-24, every product of two halves a multiple of 2^-48.
pub fn h_fma(a: u16, b: u16, c: u16) -> u16 {
    let fixed = |h: u16, unit: i32| -> Option<i128> {
        match decode(HALF, h as u64) {
            Value::Finite { neg, mant, exp } => {
                let v = (mant as i128) << (exp - unit);
                Some(if neg { -v } else { v })
            }
            _ => None,
        }
    };
    match (fixed(a, -24), fixed(b, -24), fixed(c, -48)) {
        (Some(x), Some(y), Some(z)) => {
            let s = x * y + z;
            if s == 0 {
                // IEEE 754 §6.3: an exact zero sum is +0, unless both addends are -0.
                let prod_neg = (a ^ b) & 0x8000 != 0 && x * y == 0;
                let neg = prod_neg && c & 0x8000 != 0;
                return if neg { 0x8000 } else { 0 };
            }
            round_fixed(HALF, s, -48) as u16
        }
        // An infinity or NaN operand: the float64 evaluation has the IEEE special-case
        // results (inf*0 and inf-inf are NaN, otherwise the infinity wins).
        _ => f2h(h2f(a).mul_add(h2f(b), h2f(c))),
    }
}

/// IEEE maxNum on halves (v_max_f16 in IEEE mode): a NaN operand yields the other operand;
/// -0 counts as less than +0.
pub fn h_max(a: u16, b: u16) -> u16 {
    if h_is_nan(a) {
        return b;
    }
    if h_is_nan(b) {
        return a;
    }
    let (x, y) = (h2f(a), h2f(b));
    if x > y || (x == y && b & 0x8000 != 0) {
        a
    } else {
        b
    }
}

/// The E4M3 "FNUZ" fp8 value of gfx942's matrix cores (LLVM's Float8E4M3FNUZ): sign bit 7,
/// 4 exponent bits with bias 8, 3 mantissa bits, no infinities, no negative zero, 0x80 = NaN.
/// Returns the value as a fixed-point integer in units of 2^-10 (the smallest subnormal), or
/// `None` for the NaN encoding.
pub fn fp8_e4m3fnuz_fixed(byte: u8) -> Option<i64> {
    if byte == 0x80 {
        return None;
    }
    let neg = byte & 0x80 != 0;
    let e = (byte >> 3) & 0xf;
    let m = (byte & 7) as i64;
    // Subnormal: m/8 * 2^(1-8) = m * 2^-10; normal: (1 + m/8) * 2^(e-8) = (8+m) * 2^(e-11).
    let v = if e == 0 { m } else { (8 + m) << (e - 1) };
    Some(if neg { -v } else { v })
}
