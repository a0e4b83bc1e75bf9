//! Numbers as a description writes them, and their conversion to the bits of an element's
//! scalar type, by the rules under "Value conversions" in the `launch` module documentation.

use std::fmt;

use super::types::Scalar;

/// A number as written in a description: an integer, or a float64.
///
/// JSON integers become [`Number::Int`]; JSON numbers with a fraction or an exponent become
/// [`Number::Float`]. A string may stand for a number JSON cannot write (see
/// [`Number::parse_str`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// An integer, within -2^63 ..= 2^64 - 1.
    Int(i128),
    /// A float64 (possibly NaN or infinite when written as a string).
    Float(f64),
}

/// The smallest integer value a description may give (that of `long`).
pub(crate) const INT_MIN: i128 = i64::MIN as i128;
/// The largest integer value a description may give (that of `ulong`).
pub(crate) const INT_MAX: i128 = u64::MAX as i128;

impl Number {
    /// Reads a number written as a string: an integer in decimal or with a `0x`, `0o` or `0b`
    /// prefix, a decimal float (`1.5`, `-2e-3`), a hexadecimal float (`0x1.8p3`), `inf`,
    /// `-inf`, `infinity` or `nan` (any case). JSON has no literal for NaN, infinities or exact
    /// binary fractions, hence the strings.
    pub fn parse_str(text: &str) -> Option<Number> {
        let t = text.trim();
        let (negative, body) = match t.as_bytes().first() {
            Some(b'-') => (true, &t[1..]),
            Some(b'+') => (false, &t[1..]),
            _ => (false, t),
        };
        if body.is_empty() || body.starts_with(['+', '-']) {
            return None;
        }
        let radix = match body.get(..2).map(str::to_ascii_lowercase).as_deref() {
            Some("0x") => 16,
            Some("0o") => 8,
            Some("0b") => 2,
            _ => 10,
        };
        let digits = if radix == 10 { body } else { &body[2..] };
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            // Bounded before the negation, so that it cannot overflow.
            let int = u128::from_str_radix(digits, radix)
                .ok()
                .filter(|&m| m <= 1 << 64)
                .map(|m| if negative { -(m as i128) } else { m as i128 })
                .filter(|v| (INT_MIN..=INT_MAX).contains(v));
            match int {
                Some(v) => return Some(Number::Int(v)),
                // A decimal integer beyond 64 bits still reads as a float64 below.
                None if radix != 10 => return None,
                None => {}
            }
        }
        if radix == 16 {
            return parse_hex_float(&body[2..])
                .map(|f| Number::Float(if negative { -f } else { f }));
        }
        if radix != 10 {
            return None;
        }
        // Rust's float syntax, which also takes "inf", "infinity" and "nan" in any case.
        let f: f64 = body.parse().ok()?;
        Some(Number::Float(if negative { -f } else { f }))
    }

    /// The value as a float64: integers rounded to nearest even, floats as they are.
    pub fn to_f64(self) -> f64 {
        match self {
            Number::Int(v) => v as f64,
            Number::Float(f) => f,
        }
    }

    /// The value as an integer, if it is one: a [`Number::Int`], or a finite, integral float
    /// within -2^63 ..= 2^64 - 1. The error says why not.
    pub fn to_int(self) -> Result<i128, String> {
        match self {
            Number::Int(v) => Ok(v),
            Number::Float(f) if f.is_nan() => Err("NaN is not an integer".into()),
            Number::Float(f) if f.is_infinite() => Err(format!("{f} is not an integer")),
            Number::Float(f) if f.trunc() != f => Err(format!("{f} is not an integer")),
            Number::Float(f) => float_to_int(f).ok_or_else(|| {
                format!("{f} is outside the 64-bit integer range (-2^63 to 2^64-1)")
            }),
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Int(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v:?}"),
        }
    }
}

/// An integral float64 as an integer, when it lies within -2^63 ..= 2^64 - 1.
fn float_to_int(f: f64) -> Option<i128> {
    // 2^64 is exactly representable; every float below it in magnitude fits i128 exactly.
    ((-9_223_372_036_854_775_808.0..18_446_744_073_709_551_616.0).contains(&f)).then_some(f as i128)
}

/// The bits of integer `v` in scalar type `s`, zero-extended to 64 bits.
///
/// Integer types take `v` modulo 2^bits; float types round it once to nearest even.
pub(crate) fn int_bits(s: Scalar, v: i128) -> u64 {
    match s {
        Scalar::Half => {
            // Within 2^53 the conversion to float64 is exact, so only the half rounding
            // happens; beyond, every value rounds to infinity in binary16 anyway.
            if v.unsigned_abs() <= 1 << 53 {
                u64::from(f64_to_f16_bits(v as f64))
            } else if v < 0 {
                0xFC00
            } else {
                0x7C00
            }
        }
        // Rust's integer-to-float casts round to nearest, ties to even, from the exact value.
        Scalar::Float => u64::from((v as f32).to_bits()),
        Scalar::Double => (v as f64).to_bits(),
        _ => (v as u128 as u64) & mask(s),
    }
}

/// The bits of float64 `f` in scalar type `s`, zero-extended to 64 bits: float types round to
/// nearest even; integer types take the nearest integer (ties to even) modulo 2^bits, and
/// refuse NaN, infinities and values outside -2^63 ..= 2^64 - 1.
pub(crate) fn float_bits(s: Scalar, f: f64) -> Result<u64, String> {
    match s {
        Scalar::Half => Ok(u64::from(f64_to_f16_bits(f))),
        Scalar::Float => Ok(u64::from(f64_to_f32_bits(f))),
        Scalar::Double => Ok(f.to_bits()),
        _ => {
            if !f.is_finite() {
                return Err(format!("{f} cannot be stored in a {s} (not finite)"));
            }
            let r = f.round_ties_even();
            let v = float_to_int(r).ok_or_else(|| {
                format!("{f} cannot be stored in a {s} (outside the 64-bit integer range)")
            })?;
            Ok(int_bits(s, v))
        }
    }
}

/// The bits of `n` in scalar type `s`, by the rules of this module: integer types take only
/// integer values; float types take anything.
pub(crate) fn number_bits(s: Scalar, n: Number) -> Result<u64, String> {
    if s.is_float() {
        return match n {
            Number::Int(v) => Ok(int_bits(s, v)),
            Number::Float(f) => float_bits(s, f),
        };
    }
    let v = n
        .to_int()
        .map_err(|e| format!("{e} ({s} takes integers only)"))?;
    Ok(int_bits(s, v))
}

/// The mask of a scalar's bits within a u64.
pub(crate) const fn mask(s: Scalar) -> u64 {
    u64::MAX >> (64 - s.bits())
}

/// float64 to binary32, rounded to nearest even. NaN becomes the default quiet NaN with the
/// same sign (the payload is not carried: casts leave it unspecified).
pub(crate) fn f64_to_f32_bits(f: f64) -> u32 {
    if f.is_nan() {
        return ((f.to_bits() >> 32) as u32 & 0x8000_0000) | 0x7FC0_0000;
    }
    (f as f32).to_bits()
}

/// float64 to binary16 with a single rounding to nearest even, overflow to infinity, gradual
/// underflow, and NaN as the default quiet NaN `0x7E00` with the same sign.
///
/// Written here rather than taken from the `half` crate: `half::f16::from_f64` goes through
/// float32 on x86 with F16C (two roundings), and its software path drops the low 32 bits of the
/// float64 significand before rounding; both differ from one correct rounding just above a
/// half-way case, e.g. 1 + 2^-11 + 2^-40 must give 0x3C01, not 0x3C00.
pub(crate) fn f64_to_f16_bits(f: f64) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    if f.is_nan() {
        return sign | 0x7E00;
    }
    let a = f.abs();
    // 65520 is half-way between 65504 (the largest half) and 65536: ties to even go up.
    if a >= 65520.0 {
        return sign | 0x7C00;
    }
    // 2^-25 is half-way between 0 and the smallest subnormal 2^-24: ties to even go to 0.
    if a <= 2f64.powi(-25) {
        return sign;
    }
    // Here a is a normal float64: a = m * 2^(e - 52) with m the 53-bit significand.
    let e = ((a.to_bits() >> 52) & 0x7FF) as i32 - 1023;
    let m = (a.to_bits() & ((1 << 52) - 1)) | (1 << 52);
    // The binary16 quantum near a is 2^(max(e, -14) - 10); count a in those units.
    let q = e.max(-14) - 10;
    let shift = (q - (e - 52)) as u32; // 42 for normals, up to 53 (e = -25) for subnormals
    let whole = m >> shift;
    let rest = m & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let n = whole + u64::from(rest > half || (rest == half && whole & 1 == 1));
    // Subnormal range: the units are the encoding (1024 units carry into the smallest normal).
    // Normal range: n is 1024..=2048, and adding it to the biased exponent field lets 2048
    // carry into the next binade.
    let enc = if e < -14 {
        n
    } else {
        (((e + 15) as u64) << 10) + n - 1024
    };
    sign | enc as u16
}

/// Parses the part of a hexadecimal float after `0x`: hex digits with an optional point and
/// an optional binary exponent `p±N`, rounded once to nearest even (like C's `strtod`).
fn parse_hex_float(s: &str) -> Option<f64> {
    let (mantissa, exp) = match s.find(['p', 'P']) {
        Some(i) => (&s[..i], s[i + 1..].parse::<i64>().ok()?),
        None => (s, 0),
    };
    let (int_part, frac_part) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let mut m: u128 = 0;
    let mut exp2 = exp.clamp(-100_000, 100_000);
    let mut sticky = false;
    for (i, c) in int_part.chars().chain(frac_part.chars()).enumerate() {
        let d = c.to_digit(16)?;
        let fractional = i >= int_part.len();
        if m >> 120 == 0 {
            m = (m << 4) | u128::from(d);
            if fractional {
                exp2 -= 4;
            }
        } else {
            // Past 120 significant bits only whether anything is non-zero matters.
            sticky |= d != 0;
            if !fractional {
                exp2 += 4;
            }
        }
    }
    if m == 0 {
        return Some(0.0);
    }
    Some(scale_to_f64(m, exp2, sticky))
}

/// `m * 2^exp2` (plus a non-zero amount below m's last bit when `sticky`) rounded once to
/// nearest even into a float64.
fn scale_to_f64(m: u128, exp2: i64, sticky: bool) -> f64 {
    let nbits = 128 - i64::from(m.leading_zeros());
    let e = nbits - 1 + exp2; // floor(log2(value))
    if e > 1023 {
        return f64::INFINITY;
    }
    // Significant bits the result keeps: 53 for normals, fewer for subnormals.
    let p = if e >= -1022 { 53 } else { 53 - (-1022 - e) };
    if p <= 0 {
        // Below half the smallest subnormal, or exactly half of it (a tie, to even: zero).
        let above_half = p == 0 && (m.count_ones() > 1 || sticky);
        return if above_half { f64::from_bits(1) } else { 0.0 };
    }
    let shift = nbits - p;
    let mut q = if shift > 0 {
        let shift = shift as u32;
        let whole = m >> shift;
        let rest = m & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let up = rest > half || (rest == half && (sticky || whole & 1 == 1));
        (whole + u128::from(up)) as u64
    } else {
        (m << (-shift) as u32) as u64
    };
    if e >= -1022 {
        let mut e = e;
        if q == 1 << 53 {
            q >>= 1;
            e += 1;
            if e > 1023 {
                return f64::INFINITY;
            }
        }
        f64::from_bits((((e + 1023) as u64) << 52) | (q & ((1 << 52) - 1)))
    } else {
        // The value is q * 2^-1074: the subnormal encoding is q itself, and q = 2^52 is the
        // smallest normal's encoding.
        f64::from_bits(q)
    }
}

/// The little-endian scalar in `bytes` (1 to 8 of them), zero-extended to 64 bits.
pub(crate) fn read_bits(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(b)
}

/// The value of integer scalar `bits` of type `s`: sign-extended for signed types.
pub(crate) fn int_of(s: Scalar, bits: u64) -> i128 {
    if s.is_signed_int() {
        let unused = 64 - s.bits();
        i128::from(((bits << unused) as i64) >> unused)
    } else {
        i128::from(bits & mask(s))
    }
}

/// The value of float scalar `bits` of type `s` as a float64 (exact: every half and float is
/// a float64).
pub(crate) fn float_of(s: Scalar, bits: u64) -> f64 {
    match s {
        Scalar::Half => half::f16::from_bits(bits as u16).to_f64(),
        Scalar::Float => f64::from(f32::from_bits(bits as u32)),
        _ => f64::from_bits(bits),
    }
}

/// The value of scalar `bits` of type `s` as a float64: floats exactly, integers rounded to
/// nearest even (exact up to 2^53).
pub(crate) fn value_of(s: Scalar, bits: u64) -> f64 {
    if s.is_float() {
        float_of(s, bits)
    } else {
        int_of(s, bits) as f64
    }
}
