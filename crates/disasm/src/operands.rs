//! Printing of registers, special registers, inline constants and literals, shared by all
//! encoding families.

use std::fmt::Write as _;

use gcnkit_isa::instruction::{src_value, RegClass, Special, SrcValue};
use gcnkit_isa::{DataType, Gen};

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
        let _ = write!(out, "{prefix}{first}");
    } else {
        let _ = write!(out, "{prefix}[{first}:{}]", first + count - 1);
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
        _ => return None,
    })
}

/// Text of inline float constant `value` (240..=248) for an operand of `ty`.
pub fn inline_float_text(value: u32, ty: DataType) -> &'static str {
    match value {
        240 => "0.5",
        241 => "-0.5",
        242 => "1.0",
        243 => "-1.0",
        244 => "2.0",
        245 => "-2.0",
        246 => "4.0",
        247 => "-4.0",
        _ if ty.bits() == 64 => "0.15915494309189532",
        _ => "0.15915494",
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
    match src_value(gen, value) {
        SrcValue::Reg(RegClass::Sgpr, n) => {
            if dwords > 1 && n % 2 != 0 {
                return Err(PrintError::Invalid);
            }
            let limit = if gen.is_si_ci() { 104 } else { 102 };
            if n + dwords > limit {
                return Err(PrintError::Invalid);
            }
            push_reg(out, RegClass::Sgpr, n, dwords);
        }
        SrcValue::Reg(RegClass::Ttmp, n) => {
            if dwords > 1 && n % 2 != 0 {
                return Err(PrintError::Invalid);
            }
            let count = if gen.is_gfx9_family() { 16 } else { 12 };
            if n + dwords > count {
                return Err(PrintError::Invalid);
            }
            push_reg(out, RegClass::Ttmp, n, dwords);
        }
        SrcValue::Special(s) => {
            let name = special_name(s, dwords.min(2)).ok_or(PrintError::Invalid)?;
            if dwords > 2 {
                return Err(PrintError::Invalid);
            }
            out.push_str(name);
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
        SrcValue::Reg(..) | SrcValue::Special(_) => push_scalar_reg(out, gen, value, dwords)?,
        SrcValue::InlineInt(i) => {
            let _ = write!(out, "{i}");
        }
        SrcValue::InlineFloat(v) => out.push_str(inline_float_text(v, ty)),
        SrcValue::Literal => {
            let lit = literal.ok_or(PrintError::Invalid)?;
            let _ = write!(out, "0x{lit:x}");
        }
        SrcValue::Invalid(_) => return Err(PrintError::Invalid),
    }
    Ok(())
}
