//! Constants in source operands: inline constant or 32-bit literal, per operand type, with
//! llvm-mc's rules:
//!
//! - an integer token is an inline constant when it is in -16..=64, or when its bits (at the
//!   operand's width) are those of an inline float (`0x3f800000` is 1.0 for a 32-bit operand;
//!   16-bit integer operands only take the integers);
//! - a float token is converted to the operand's float type (32-bit for integer operands) and
//!   is inline when it is one of 0.5, 1.0, 2.0, 4.0 (either sign), or 1/(2π) from gfx8 on;
//! - otherwise the value becomes the literal dword: the low 32 bits of an integer (the high
//!   half of a 64-bit float operand), the float's bits, or for 64-bit float operands the
//!   high 32 bits of the double.

use gcnkit_isa::{DataType, Gen};

/// How a constant is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Const {
    /// An inline constant: the source-field value (128..=208, 240..=248).
    Inline(u32),
    /// A literal dword.
    Literal(u32),
}

// The inline float constants 240..=248 at 16, 32 and 64 bits (one table, in gcnkit-isa).
use gcnkit_isa::constants::{
    INLINE_FLOAT_F16 as F16, INLINE_FLOAT_F32 as F32, INLINE_FLOAT_F64 as F64,
};

/// Why a constant does not fit an operand.
pub const INVALID: &str = "invalid operand for instruction";

fn inline_int(v: i64) -> Option<u32> {
    match v {
        0..=64 => Some(128 + v as u32),
        -16..=-1 => Some((192 - v) as u32),
        _ => None,
    }
}

fn inline_float(gen: Gen, table: &[u64; 9], bits: u64) -> Option<u32> {
    let n = if gen.is_si_ci() { 8 } else { 9 };
    table[..n]
        .iter()
        .position(|&b| b == bits)
        .map(|i| 240 + i as u32)
}

/// The width class of an operand type for constant purposes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Width {
    W16 { float: bool },
    W32,
    W64 { float: bool },
}

fn width(ty: DataType) -> Width {
    use DataType::*;
    match ty {
        F16 | Bf16 | V2F16 | V2Bf16 => Width::W16 { float: true },
        B16 | I16 | U16 | V2I16 | V2U16 => Width::W16 { float: false },
        F64 => Width::W64 { float: true },
        B64 | I64 | U64 => Width::W64 { float: false },
        _ => Width::W32,
    }
}

/// Encodes an integer token for an operand of type `ty`. `force_lit` is `lit(...)`.
pub fn encode_int(gen: Gen, v: i64, ty: DataType, force_lit: bool) -> Result<Const, &'static str> {
    let fits32 = i32::try_from(v).is_ok() || u32::try_from(v).is_ok();
    if ty.is_16bit() && ty.bits() == 32 {
        // Packed pairs: a 32-bit literal; inline for the integers, for packed FP16 the
        // half-precision patterns of the whole value, and for packed integers (as llvm-mc
        // reads them) the single-precision patterns.
        if !fits32 {
            return Err(INVALID);
        }
        let v32 = v as u32;
        if !force_lit {
            let pattern = if ty.is_float() { &F16 } else { &F32 };
            let c =
                inline_int(v32 as i32 as i64).or_else(|| inline_float(gen, pattern, v32 as u64));
            if let Some(c) = c {
                return Ok(Const::Inline(c));
            }
        }
        return Ok(Const::Literal(v32));
    }
    match width(ty) {
        Width::W64 { float } => {
            if !force_lit {
                if let Some(c) = inline_int(v).or_else(|| inline_float(gen, &F64, v as u64)) {
                    return Ok(Const::Inline(c));
                }
            }
            if !fits32 {
                return Err(INVALID);
            }
            // A double's literal holds its high half: where that double is an inline
            // constant, llvm-mc encodes the inline constant instead (0xbfe00000 is -0.5).
            if float && !force_lit {
                if let Some(c) = inline_float(gen, &F64, u64::from(v as u32) << 32) {
                    return Ok(Const::Inline(c));
                }
            }
            Ok(Const::Literal(v as u32))
        }
        Width::W32 => {
            if !fits32 {
                return Err(INVALID);
            }
            let v32 = v as u32;
            if !force_lit {
                if let Some(c) =
                    inline_int(v32 as i32 as i64).or_else(|| inline_float(gen, &F32, v32 as u64))
                {
                    return Ok(Const::Inline(c));
                }
            }
            Ok(Const::Literal(v32))
        }
        Width::W16 { float } => {
            if i16::try_from(v).is_err() && u16::try_from(v).is_err() {
                return Err(INVALID);
            }
            let v16 = v as u16;
            if !force_lit {
                // The integer as written; for FP16 operands also read as 16 bits (0xffff is
                // -1 there, as llvm-mc reads it, but not for integer operands), or the FP16 bit
                // pattern.
                let c = inline_int(v).or_else(|| {
                    float
                        .then(|| {
                            inline_int(i64::from(v16 as i16))
                                .or_else(|| inline_float(gen, &F16, v16 as u64))
                        })
                        .flatten()
                });
                if let Some(c) = c {
                    return Ok(Const::Inline(c));
                }
            }
            Ok(Const::Literal(v16 as u32))
        }
    }
}

/// Encodes a float token for an operand of type `ty`.
pub fn encode_float(
    gen: Gen,
    f: f64,
    ty: DataType,
    force_lit: bool,
) -> Result<Const, &'static str> {
    match width(ty) {
        Width::W64 { float } => {
            let bits = f.to_bits();
            if !force_lit {
                // llvm-mc takes the double's bits as an integer first: the tiniest
                // denormals are the inline integers (4.9e-324 is 1).
                if let Some(c) = inline_int(bits as i64).or_else(|| inline_float(gen, &F64, bits)) {
                    return Ok(Const::Inline(c));
                }
            }
            // A 64-bit integer operand cannot hold a non-inline float.
            if !float {
                return Err(INVALID);
            }
            // Only the high half is kept; when it is zero (a denormal below 2^-1022 with
            // its low bits dropped), llvm-mc encodes what is left, the inline 0.
            let high = (bits >> 32) as u32;
            if high == 0 && !force_lit {
                return Ok(Const::Inline(128));
            }
            Ok(Const::Literal(high))
        }
        Width::W16 { float: true } => {
            let h = f16_of(f)?;
            if !force_lit {
                if let Some(c) =
                    inline_int(h as i16 as i64).or_else(|| inline_float(gen, &F16, h as u64))
                {
                    return Ok(Const::Inline(c));
                }
            }
            Ok(Const::Literal(h as u32))
        }
        // 32-bit operands, and 16-bit integer operands, see the float at single precision
        // (the latter only if it fits half precision; packed pairs of them need not).
        w => {
            if w == (Width::W16 { float: false }) && ty.bits() == 16 {
                f16_of(f)?;
            }
            let s = f as f32;
            if s.is_infinite() && f.is_finite() {
                return Err(INVALID);
            }
            // Like half precision: a value that rounds to a denormal or to zero must be
            // exact (llvm-mc refuses an underflowing conversion, 1e-40 or 1e-46).
            if f64::from(s) != f && f != 0.0 && s.to_bits() & 0x7f80_0000 == 0 {
                return Err(INVALID);
            }
            let bits = s.to_bits();
            if !force_lit {
                if let Some(c) =
                    inline_int(bits as i32 as i64).or_else(|| inline_float(gen, &F32, bits as u64))
                {
                    return Ok(Const::Inline(c));
                }
            }
            Ok(Const::Literal(bits))
        }
    }
}

/// A float token at half precision, as llvm-mc accepts it for a 16-bit operand: precision
/// may be lost, but not to overflow or underflow.
fn f16_of(f: f64) -> Result<u16, &'static str> {
    if f.is_finite() && (f as f32).is_infinite() {
        return Err(INVALID);
    }
    let h = f32_to_f16(f as f32).ok_or(INVALID)?;
    let exact = f16_to_f64(h) == f;
    if !exact && f != 0.0 && h & 0x7c00 == 0 {
        return Err(INVALID);
    }
    Ok(h)
}

fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from(h >> 10 & 0x1f);
    let mant = f64::from(h & 0x3ff);
    sign * match exp {
        0 => mant * 2f64.powi(-24),
        31 => f64::INFINITY,
        e => (1.0 + mant / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Converts to IEEE half precision, rounding to nearest even; `None` on overflow.
pub fn f32_to_f16(f: f32) -> Option<u16> {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        // Inf / NaN.
        return Some(sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 });
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return None;
    }
    if e <= 0 {
        // Subnormal half (or zero).
        if e < -10 {
            return Some(sign);
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rem > mid || (rem == mid && half & 1 != 0);
        return Some(sign | (half + round as u32) as u16);
    }
    let half = ((e as u32) << 10) | (mant >> 13);
    let rem = mant & 0x1fff;
    let round = rem > 0x1000 || (rem == 0x1000 && half & 1 != 0);
    let v = half + round as u32;
    if v >= 0x7c00 {
        return None;
    }
    Some(sign | v as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected encodings from llvm-mc-19 -mcpu=gfx900 (see module docs for the rules).
    #[test]
    fn integer_tokens() {
        let g = Gen::Gfx9;
        assert_eq!(
            encode_int(g, 64, DataType::I32, false),
            Ok(Const::Inline(192))
        );
        assert_eq!(
            encode_int(g, -16, DataType::I32, false),
            Ok(Const::Inline(208))
        );
        assert_eq!(
            encode_int(g, 0x3f80_0000, DataType::U32, false),
            Ok(Const::Inline(242))
        );
        assert_eq!(
            encode_int(g, 65, DataType::U32, false),
            Ok(Const::Literal(65))
        );
        assert_eq!(
            encode_int(g, 0x1_0000_0000, DataType::B32, false),
            Err(INVALID)
        );
        // 16-bit integer operands take only the integers.
        assert_eq!(
            encode_int(g, 0x3c00, DataType::U16, false),
            Ok(Const::Literal(0x3c00))
        );
        assert_eq!(
            encode_int(g, 0x3800, DataType::F16, false),
            Ok(Const::Inline(240))
        );
        assert_eq!(
            encode_int(g, 0x1234_5678, DataType::F16, false),
            Err(INVALID)
        );
        // 64-bit: double patterns and sign-extended 32-bit literals.
        assert_eq!(
            encode_int(g, 0x3ff0_0000_0000_0000, DataType::B64, false),
            Ok(Const::Inline(242))
        );
        assert_eq!(
            encode_int(g, -0x1234_5678, DataType::B64, false),
            Ok(Const::Literal(0xedcb_a988))
        );
    }

    #[test]
    fn float_tokens() {
        let g = Gen::Gfx9;
        assert_eq!(
            encode_float(g, 1.5, DataType::F64, false),
            Ok(Const::Literal(0x3ff8_0000))
        );
        assert_eq!(encode_float(g, 1.5, DataType::B64, false), Err(INVALID));
        assert_eq!(
            encode_float(g, 1.5, DataType::U16, false),
            Ok(Const::Literal(0x3fc0_0000))
        );
        assert_eq!(
            encode_float(g, -1.5, DataType::F16, false),
            Ok(Const::Literal(0xbe00))
        );
        assert_eq!(
            encode_float(g, 0.15915494, DataType::F32, false),
            Ok(Const::Inline(248))
        );
        assert_eq!(
            encode_float(Gen::Gfx7, 0.15915494, DataType::F32, false),
            Ok(Const::Literal(0x3e22_f983))
        );
    }
}
