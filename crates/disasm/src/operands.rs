//! Printing of registers, special registers, inline constants and literals, shared by all
//! encoding families.

use std::fmt::Write as _;

use gcnkit_isa::instruction::{src_value, RegClass, Special, SrcValue};
use gcnkit_isa::{DataType, Gen};

use crate::text::{push_hex, push_i64, push_u64};
use crate::PrintError;

/// Appends a register or register range: `s5`, `v[0:3]`, `a[4:7]`, `ttmp[4:7]`.
pub fn push_reg(out: &mut String, class: RegClass, first: u32, count: u32) {
    let prefix = match class {
        RegClass::Sgpr => "s",
        RegClass::Vgpr => "v",
        RegClass::Agpr => "a",
        RegClass::Ttmp => "ttmp",
    };
    if count <= 1 {
        out.push_str(prefix);
        push_u64(out, first as u64);
    } else {
        out.push_str(prefix);
        out.push('[');
        push_u64(out, first as u64);
        out.push(':');
        push_u64(out, (first + count - 1) as u64);
        out.push(']');
    }
}

/// Appends a VGPR (or AGPR when `agpr`) operand of `count` registers.
pub fn push_vreg(out: &mut String, agpr: bool, first: u32, count: u32) -> Result<(), PrintError> {
    if first + count > 256 {
        return Err(PrintError::Invalid);
    }
    let class = if agpr { RegClass::Agpr } else { RegClass::Vgpr };
    push_reg(out, class, first, count);
    Ok(())
}

fn special_name(s: Special, dwords: u32) -> Option<&'static str> {
    use Special::*;
    Some(match (s, dwords) {
        (FlatScratchLo, 1) => "flat_scratch_lo",
        (FlatScratchHi, 1) => "flat_scratch_hi",
        (FlatScratchLo, 2) => "flat_scratch",
        (XnackMaskLo, 1) => "xnack_mask_lo",
        (XnackMaskHi, 1) => "xnack_mask_hi",
        (XnackMaskLo, 2) => "xnack_mask",
        (VccLo, 1) => "vcc_lo",
        (VccHi, 1) => "vcc_hi",
        (VccLo, 2) => "vcc",
        (TbaLo, 1) => "tba_lo",
        (TbaHi, 1) => "tba_hi",
        (TbaLo, 2) => "tba",
        (TmaLo, 1) => "tma_lo",
        (TmaHi, 1) => "tma_hi",
        (TmaLo, 2) => "tma",
        (M0, 1) => "m0",
        (ExecLo, 1) => "exec_lo",
        (ExecHi, 1) => "exec_hi",
        (ExecLo, 2) => "exec",
        (SrcSharedBase, _) => "src_shared_base",
        (SrcSharedLimit, _) => "src_shared_limit",
        (SrcPrivateBase, _) => "src_private_base",
        (SrcPrivateLimit, _) => "src_private_limit",
        (SrcPopsExitingWaveId, _) => "src_pops_exiting_wave_id",
        (SrcVccz, _) => "src_vccz",
        (SrcExecz, _) => "src_execz",
        (SrcScc, _) => "src_scc",
        (LdsDirect, _) => "src_lds_direct",
        (Null, _) => "null",
        _ => return None,
    })
}

use gcnkit_isa::constants::{INLINE_FLOAT_F16, INLINE_FLOAT_F32, INLINE_FLOAT_F64};

const INLINE_TEXT: [&str; 8] = ["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"];

fn float_table(bits: u32) -> &'static [u64; 9] {
    match bits {
        16 => &INLINE_FLOAT_F16,
        64 => &INLINE_FLOAT_F64,
        _ => &INLINE_FLOAT_F32,
    }
}

/// The value an inline float constant encoding (240..=248) stands for, at the operand's width.
pub fn inline_float_value(encoding: u32, ty: DataType) -> u64 {
    let width = if ty.is_16bit() { 16 } else { ty.bits() };
    float_table(width)[(encoding - 240) as usize]
}

/// Appends an immediate value the way LLVM prints an operand of `ty`: an inline integer in
/// decimal, a value equal to an inline float constant as that float, anything else in hex.
/// `value` holds the operand's bits (for 64-bit float operands, the literal in the high half).
pub fn push_imm(out: &mut String, gen: Gen, value: u64, ty: DataType) {
    let width = if ty.is_16bit() { 16 } else { ty.bits().min(64) };
    let signed = match width {
        16 => value as u16 as i16 as i64,
        32 => value as u32 as i32 as i64,
        _ => value as i64,
    };
    if (-16..=64).contains(&signed) {
        push_i64(out, signed);
        return;
    }
    let table = float_table(width);
    let limit = if gen.is_si_ci() { 8 } else { 9 };
    if let Some(i) = table[..limit].iter().position(|&v| v == value) {
        out.push_str(match (i, width) {
            (8, 64) => "0.15915494309189532",
            (8, _) => "0.15915494",
            _ => INLINE_TEXT[i],
        });
        return;
    }
    if width == 64 && ty.is_float() && value & 0xffff_ffff == 0 {
        push_hex(out, value >> 32);
    } else {
        push_hex(out, value);
    }
}

/// Appends a literal dword used by a 16-bit (or packed 16-bit) operand as LLVM prints it.
///
/// An FP16 operand keeps only the low half: an inline integer or inline float there prints
/// as such (0x3f800000 -> `0`, 0x12343800 -> `0.5`), anything else in hex (0xffff8000 ->
/// `0x8000`). An integer 16-bit operand tests the whole dword for an inline integer or
/// 32-bit inline float (0x40 -> `64`, 0x3f800000 -> `1.0`) and otherwise prints the low half
/// in hex (0xffff0040 -> `0x40`). Packed operands print like 32-bit ones.
pub fn push_literal16(out: &mut String, gen: Gen, literal: u32, ty: DataType) {
    if ty.bits() == 32 {
        // Packed FP16 names an inline float only when the dword is that half alone
        // (0x3c00 -> `1.0`, 0x3c003c00 and 0x3f800000 stay hex); packed integers read the
        // dword as a 32-bit value (0x3f800000 -> `1.0`).
        let limit = if gen.is_si_ci() { 8 } else { 9 };
        let half_float = ty.is_float()
            && !(-16..=64).contains(&(literal as i32))
            && INLINE_FLOAT_F16[..limit].contains(&u64::from(literal));
        if half_float {
            push_imm(out, gen, u64::from(literal), DataType::F16);
        } else if ty.is_float() && !(-16..=64).contains(&(literal as i32)) {
            push_hex(out, literal as u64);
        } else {
            push_imm(out, gen, u64::from(literal), DataType::B32);
        }
        return;
    }
    let half = literal & 0xffff;
    let limit = if gen.is_si_ci() { 8 } else { 9 };
    if ty.is_float() {
        let signed = i32::from(half as u16 as i16);
        if (-16..=64).contains(&signed) {
            push_i64(out, signed as i64);
        } else if let Some(i) = INLINE_FLOAT_F16[..limit]
            .iter()
            .position(|&v| v == u64::from(half))
        {
            out.push_str(INLINE_TEXT.get(i).copied().unwrap_or("0.15915494"));
        } else {
            push_hex(out, half as u64);
        }
        return;
    }
    let signed = literal as i32;
    if (-16..=64).contains(&signed) {
        push_i64(out, signed as i64);
    } else if let Some(i) = INLINE_FLOAT_F32[..limit]
        .iter()
        .position(|&v| v == u64::from(literal))
    {
        out.push_str(INLINE_TEXT.get(i).copied().unwrap_or("0.15915494"));
    } else {
        push_hex(out, half as u64);
    }
}

/// The value a literal dword stands for in an operand of `ty`.
pub fn literal_value(literal: u32, ty: DataType) -> u64 {
    if ty.bits() == 64 && ty.is_float() {
        (literal as u64) << 32
    } else {
        literal as u64
    }
}

/// Aligns a scalar register tuple down as LLVM's decoder does (pairs to 2, larger to 4).
fn align_scalar(n: u32, dwords: u32) -> u32 {
    match dwords {
        0 | 1 => n,
        2 => n & !1,
        _ => n & !3,
    }
}

/// Appends a scalar register operand given by an SGPR-space encoding value (`0..=127` for
/// destinations, `0..=255` for scalar sources) spanning `dwords` registers.
pub fn push_scalar_reg(
    out: &mut String,
    gen: Gen,
    value: u32,
    dwords: u32,
) -> Result<(), PrintError> {
    // Tuples of three or more registers starting at s100/s101 reach s103 on every
    // generation; one starting at 102 is flat_scratch (with a comment, below).
    let class_of = |v: u32| {
        if dwords >= 3 && (100..=101).contains(&v) {
            SrcValue::Reg(RegClass::Sgpr, v)
        } else {
            src_value(gen, v)
        }
    };
    match class_of(value) {
        SrcValue::Reg(RegClass::Sgpr, n) => {
            let n = align_scalar(n, dwords);
            let limit = if gen.is_si_ci() || dwords >= 3 {
                104
            } else {
                102
            };
            if n + dwords > limit {
                return Err(PrintError::Invalid);
            }
            push_reg(out, RegClass::Sgpr, n, dwords);
        }
        SrcValue::Reg(RegClass::Ttmp, n) => {
            let n = align_scalar(n, dwords);
            // LLVM names ttmp12-15 in wide tuples even on gfx8.
            let count = if gen.is_gfx9_family() || dwords >= 3 {
                16
            } else {
                12
            };
            if n + dwords > count {
                return Err(PrintError::Invalid);
            }
            push_reg(out, RegClass::Ttmp, n, dwords);
        }
        SrcValue::Special(s) if dwords > 2 => {
            // LLVM decodes a wide tuple starting at vcc/exec/tba as the 64-bit register and
            // says so in a comment.
            let name = match s {
                // `null` stands for any width.
                Special::Null => {
                    out.push_str("null");
                    return Ok(());
                }
                Special::VccLo
                | Special::ExecLo
                | Special::TbaLo
                | Special::XnackMaskLo
                | Special::FlatScratchLo => special_name(s, 2),
                _ => None,
            };
            out.push_str(name.ok_or(PrintError::Invalid)?);
            let _ = write!(
                out,
                "/*Invalid register, operand has 'SReg_{}' register class*/",
                dwords * 32
            );
        }
        SrcValue::Special(s) => {
            out.push_str(special_name(s, dwords.max(1)).ok_or(PrintError::Invalid)?);
        }
        _ => return Err(PrintError::Invalid),
    }
    Ok(())
}

/// Appends a source operand (scalar register, VGPR, inline constant or literal) of type `ty`.
/// `literal` is the dword following the instruction, when it has one.
pub fn push_src(
    out: &mut String,
    gen: Gen,
    value: u32,
    ty: DataType,
    literal: Option<u32>,
) -> Result<(), PrintError> {
    let dwords = ty.dwords();
    match src_value(gen, value) {
        SrcValue::Reg(RegClass::Vgpr, n) => push_vreg(out, false, n, dwords)?,
        // LDS direct reads deliver 32 bits.
        SrcValue::Special(Special::LdsDirect) if dwords > 1 => return Err(PrintError::Invalid),
        SrcValue::Reg(..) | SrcValue::Special(_) => push_scalar_reg(out, gen, value, dwords)?,
        SrcValue::InlineInt(i) => {
            push_i64(out, i as i64);
        }
        // LLVM prints an FP inline constant used by a 16-bit integer operand as the hex of
        // its half-precision bits (`0x3800` for 0.5).
        SrcValue::InlineFloat(v) if ty.bits() == 16 && !ty.is_float() => {
            push_hex(out, inline_float_value(v, ty));
        }
        SrcValue::InlineFloat(v) => push_imm(out, gen, inline_float_value(v, ty), ty),
        SrcValue::Literal => {
            let lit = literal.ok_or(PrintError::Invalid)?;
            if ty.is_16bit() {
                push_literal16(out, gen, lit, ty);
            } else {
                push_literal(out, gen, literal_value(lit, ty), ty);
            }
        }
        SrcValue::Invalid(_) => return Err(PrintError::Invalid),
    }
    Ok(())
}

/// True if a source value is a constant (inline or literal) rather than a register.
pub fn is_constant(gen: Gen, value: u32) -> bool {
    matches!(
        src_value(gen, value),
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_) | SrcValue::Literal
    )
}

/// Appends a literal constant. From gfx8 on this is exactly what LLVM prints (a literal equal
/// to an inline constant prints as that constant). LLVM cannot disassemble gfx6/gfx7, and there
/// gcnkit's text must mean the same bytes: such a literal prints as `lit(...)`, the syntax that
/// forces a literal encoding (see docs/llvm-differences.md: llvm-mc-19 ignores it on gfx6/7).
pub fn push_literal(out: &mut String, gen: Gen, value: u64, ty: DataType) {
    let start = out.len();
    push_imm(out, gen, value, ty);
    // Text llvm-mc would encode as an inline constant: anything not in hex, and small hex
    // values (the high half of a 64-bit float literal).
    let small_hex = out[start..]
        .strip_prefix("0x")
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .is_some_and(|v| v <= 64);
    if gen.is_si_ci() && (!out[start..].starts_with("0x") || small_hex) {
        out.insert_str(start, "lit(");
        out.push(')');
    }
}

/// Appends the comment LLVM adds after a register of the wrong class.
pub fn push_class_note(out: &mut String, class: &str) {
    out.push_str("/*Invalid register, operand has '");
    out.push_str(class);
    out.push_str("' register class*/");
}
