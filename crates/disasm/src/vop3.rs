//! Printing of the VOP3-only instructions (VOP3A and VOP3B rows of `vop3.tbl`) and of the
//! VOP3P instructions, including VOP3P-MAI (MFMA, SMFMAC, v_accvgpr_read/write).
//!
//! The rules follow LLVM 19's instruction profiles:
//! - a VOP3A instruction has source modifiers when any of its sources or its destination is
//!   floating point; then every source has them, FP sources as `neg`/`abs`, integer sources
//!   as `sext` (the `neg` bit; the `abs` bit is ignored). Without modifiers the bits must be
//!   clear, as must `clamp` and the output modifier when the instruction lacks them.
//! - VOP3B rows (v_div_scale, v_mad_u64_u32) keep the SGPR destination in bits 14:8.
//! - gfx9 `op_sel` rows print `op_sel:[src..., dst]`; other rows ignore bits 14:11.
//! - VOP3P prints `op_sel`, `op_sel_hi`, `neg_lo`, `neg_hi` (only when not the default) and
//!   `clamp`; v_mad_mix/v_fma_mix use the neg bits as `-`/`|..|` source modifiers.
//! - MAI prints `cbsz`, `abid`, `blgp` (or `neg:[..]` for the gfx940 f64 MFMAs); AccVGPRs
//!   are selected per operand by acc_cd (vdst, src2) and acc (src0, src1) on gfx90a+.

use std::fmt::Write as _;

use gcnkit_isa::instruction::{src_value, RegClass, SrcValue};
use gcnkit_isa::{flags, DataType, Encoding, Field, Gen, InstrDef, Instruction, Role};

use crate::operands::{push_scalar_reg, push_src, push_vreg};
use crate::vop_common::{
    push_bit_list, push_clamp, push_omod, push_src_mods, vop3_src_mods, SrcMods,
};
use crate::{PrintContext, PrintError};

/// Appends the text of `inst`.
pub(crate) fn print(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    let _ = ctx;
    let def = inst.def();
    match inst.encoding {
        Encoding::Vop3p if def.has(flags::MAI) => print_mai(inst, out),
        Encoding::Vop3p if def.has(flags::ACCSRC0) || def.has(flags::ACCDST) => {
            print_accvgpr(inst, out)
        }
        Encoding::Vop3p => print_vop3p(inst, out),
        Encoding::Vop3 if def.has(flags::INTERP) => print_interp(inst, out),
        Encoding::Vop3 => print_vop3(inst, out),
        _ => Err(PrintError::Invalid),
    }
}

fn sep(out: &mut String, first: &mut bool) {
    out.push_str(if *first { " " } else { ", " });
    *first = false;
}

/// The source operands of a row, in order (src0, src1, src2), with their types.
fn sources(def: &InstrDef) -> Vec<(Role, DataType)> {
    [Role::Src0, Role::Src1, Role::Src2]
        .into_iter()
        .filter_map(|r| def.operand(r).map(|o| (r, o.ty)))
        .collect()
}

fn src_index(role: Role) -> u32 {
    match role {
        Role::Src0 => 0,
        Role::Src1 => 1,
        _ => 2,
    }
}

fn src_field(role: Role) -> Field {
    match role {
        Role::Src0 => Field::Src0,
        Role::Src1 => Field::Src1,
        _ => Field::Src2,
    }
}

// ---------------------------------------------------------------------------------------
// VOP3A / VOP3B
// ---------------------------------------------------------------------------------------

/// Integer instructions whose VOP3 form accepts `clamp` on gfx8+ (LLVM's integer clamp).
const INT_CLAMP: &[&str] = &[
    "v_mad_i32_i24",
    "v_mad_u32_u24",
    "v_sad_u8",
    "v_sad_hi_u8",
    "v_sad_u16",
    "v_sad_u32",
    "v_msad_u8",
    "v_qsad_pk_u16_u8",
    "v_mqsad_pk_u16_u8",
    "v_mqsad_u32_u8",
    "v_mad_u64_u32",
    "v_mad_i64_i32",
    "v_mad_u16",
    "v_mad_i16",
    "v_mad_legacy_u16",
    "v_mad_legacy_i16",
    "v_mad_u32_u16",
    "v_mad_i32_i16",
    "v_min3_i16",
    "v_min3_u16",
    "v_max3_i16",
    "v_max3_u16",
    "v_med3_i16",
    "v_med3_u16",
    "v_add_i16",
    "v_sub_i16",
    "v_add_i32",
    "v_sub_i32",
];

/// FP instructions without an output modifier.
const NO_OMOD: &[&str] = &[
    "v_pack_b32_f16",
    "v_cvt_pk_fp8_f32",
    "v_cvt_pk_bf8_f32",
    "v_cvt_sr_fp8_f32",
    "v_cvt_sr_bf8_f32",
    "v_interp_p2_f16",
    "v_interp_p2_legacy_f16",
];

/// FP instructions without `clamp`.
const NO_CLAMP: &[&str] = &[
    "v_cvt_pk_fp8_f32",
    "v_cvt_pk_bf8_f32",
    "v_cvt_sr_fp8_f32",
    "v_cvt_sr_bf8_f32",
];

/// What a VOP3A/VOP3B row accepts besides its operands.
#[derive(Clone, Copy, Debug)]
struct Caps {
    /// Source modifiers exist (FP `neg`/`abs`, integer `sext`).
    mods: bool,
    clamp: bool,
    omod: bool,
    /// gfx9 op_sel printed.
    opsel: bool,
    vop3b: bool,
}

impl Caps {
    fn of(def: &InstrDef, gen: Gen) -> Caps {
        let name = def.mnemonic;
        let srcs = sources(def);
        let dst_float = def
            .operand(Role::Vdst)
            .is_some_and(|o| o.ty.is_float() && !matches!(o.ty, DataType::V2F16));
        let src0_float = srcs.first().is_some_and(|&(_, t)| t.is_float());
        let any_fp_src = srcs.iter().any(|&(_, t)| t.is_float());
        let omod = (dst_float || name == "v_cvt_pkrtz_f16_f32") && !NO_OMOD.contains(&name);
        let mods = any_fp_src || omod;
        let clamp = if NO_CLAMP.contains(&name) {
            false
        } else if gen.is_si_ci() {
            // gfx6/7 have no integer clamp: LLVM's assembler rejects `clamp` on an
            // instruction with an integer result.
            src0_float && (dst_float || def.operand(Role::Vdst).is_none())
        } else {
            src0_float || INT_CLAMP.contains(&name)
        };
        Caps {
            mods,
            clamp,
            omod,
            opsel: gen.is_gfx9_family() && has_op_sel(def),
            vop3b: def.has(flags::VOP3B),
        }
    }
}

/// True for the rows whose VOP3 encoding carries `op_sel` on gfx9+: those with a 16-bit
/// source (except the `_legacy` forms, which keep the gfx8 encoding), and gfx940's fp8/bf8
/// conversions.
fn has_op_sel(def: &InstrDef) -> bool {
    let name = def.mnemonic;
    let half_src = sources(def).iter().any(|&(_, t)| t.bits() == 16);
    (half_src && !name.contains("_legacy"))
        || name.starts_with("v_cvt_pk_fp8")
        || name.starts_with("v_cvt_pk_bf8")
        || name.starts_with("v_cvt_sr_")
}

fn print_vop3(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let caps = Caps::of(def, gen);
    let srcs = sources(def);
    let nsrc = srcs.len() as u32;
    let neg = inst.field(Field::Neg);
    let abs = if caps.vop3b {
        0
    } else {
        inst.field(Field::Abs)
    };
    // Fields of absent sources must be zero.
    if (nsrc < 2 && inst.field(Field::Src1) != 0) || (nsrc < 3 && inst.field(Field::Src2) != 0) {
        return Err(PrintError::Invalid);
    }
    let present = (1u32 << nsrc) - 1;
    // gfx9 op_sel rows keep op_sel in the source-modifier operands, so their neg/abs bits
    // decode whatever the types; integer sources ignore them.
    if !caps.mods && !caps.opsel && (neg != 0 || abs != 0) {
        return Err(PrintError::Invalid);
    }
    // gfx940's v_cvt_sr_*: the tied byte-select input counts as a third source.
    let sel_present = if def.mnemonic.starts_with("v_cvt_sr_") {
        0b111
    } else {
        present
    };
    if (neg | abs) & !sel_present != 0 {
        return Err(PrintError::Invalid);
    }
    // gfx8+ keep clamp in bit 15; gfx6/7 VOP3A in bit 11, while their VOP3B encoding has
    // no clamp (bits 16:15 are not decoded).
    let clamp = if !gen.is_si_ci() {
        (inst.bits >> 15) & 1 != 0
    } else if caps.vop3b {
        false
    } else {
        (inst.bits >> 11) & 1 != 0
    };
    // gfx6/7 read LDS directly only through src0.
    if gen.is_si_ci() && (inst.field(Field::Src1) == 254 || inst.field(Field::Src2) == 254) {
        return Err(PrintError::Invalid);
    }
    let omod = inst.field(Field::Omod);
    if (clamp && !caps.clamp) || (omod != 0 && !caps.omod) {
        return Err(PrintError::Invalid);
    }
    let opsel = if caps.opsel {
        inst.field(Field::OpSel)
    } else {
        0
    };
    if caps.opsel {
        // Bits of absent sources are fixed at zero.
        if opsel & 0b0111 & !sel_present != 0 {
            return Err(PrintError::Invalid);
        }
    }

    out.push_str(def.mnemonic);
    let mut first = true;
    for op in def.operands {
        sep(out, &mut first);
        match op.role {
            Role::Vdst => push_vreg(out, false, inst.field(Field::Vdst), op.ty.dwords())?,
            Role::Sdst if caps.vop3b => {
                push_scalar_reg(out, gen, inst.field(Field::Sdst), op.ty.dwords())?
            }
            // v_readlane_b32: the SGPR destination sits in the VDST field.
            Role::Sdst => push_lane_dst(out, gen, inst.field(Field::Vdst))?,
            Role::Src0 | Role::Src1 | Role::Src2 => {
                let i = src_index(op.role);
                let value = inst.field(src_field(op.role));
                // VOP3B words have no abs bits (bits 14:8 hold the SGPR destination).
                let raw = if caps.vop3b {
                    SrcMods {
                        neg: neg >> i & 1 != 0,
                        ..SrcMods::default()
                    }
                } else {
                    vop3_src_mods(inst, i)
                };
                let mods = if op.ty.is_float() {
                    raw
                } else if caps.opsel {
                    SrcMods::default()
                } else {
                    SrcMods {
                        sext: raw.neg,
                        ..SrcMods::default()
                    }
                };
                let lane = matches!(def.mnemonic, "v_readlane_b32" | "v_writelane_b32");
                if lane {
                    // v_readlane_b32's src0 is a VGPR (or LDS direct), the other lane
                    // operands are scalar.
                    let read_src0 = def.mnemonic == "v_readlane_b32" && op.role == Role::Src0;
                    push_lane_operand(out, gen, value, read_src0)?;
                } else if op.ty.dwords() >= 2 && value == 254 {
                    // LDS direct reads 32 bits only.
                    return Err(PrintError::Invalid);
                } else if op.ty.dwords() > 2 {
                    let class = format!("VReg_{}", op.ty.bits());
                    push_rc_operand(out, gen, value, op.ty.dwords(), false, &class, Imm::Invalid)?;
                } else {
                    push_src_mods(out, gen, value, op.ty, None, mods)?;
                }
            }
            _ => return Err(PrintError::Invalid),
        }
    }
    if caps.opsel {
        let nsel = sel_present.count_ones();
        let n = nsel + 1;
        // [src0, src1, (src2,) dst]: the dst bit is bit 3 of the field.
        let bits = (opsel & ((1 << nsel) - 1)) | ((opsel >> 3) & 1) << nsel;
        if bits != 0 {
            push_bit_list(out, "op_sel", bits, n);
        }
    }
    push_clamp(out, clamp);
    push_omod(out, omod);
    Ok(())
}

/// The `SReg_32` destination of v_readlane_b32: LLVM decodes the 8-bit field like a scalar
/// source and flags constants.
fn push_lane_dst(out: &mut String, gen: Gen, value: u32) -> Result<(), PrintError> {
    use gcnkit_isa::instruction::Special;
    match src_value(gen, value) {
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_) => {
            push_src(out, gen, value, DataType::B32, None)?;
            out.push_str("/*Invalid immediate*/");
            Ok(())
        }
        SrcValue::Special(Special::LdsDirect) => {
            out.push_str(
                "src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/",
            );
            Ok(())
        }
        _ => push_src(out, gen, value, DataType::B32, None),
    }
}

/// An operand of v_readlane_b32 / v_writelane_b32 (gfx8+): `VRegOrLds_32` for the
/// source of v_readlane_b32, `SReg_32` (SGPR or constant) otherwise.
fn push_lane_operand(
    out: &mut String,
    gen: Gen,
    value: u32,
    vgpr_class: bool,
) -> Result<(), PrintError> {
    use gcnkit_isa::instruction::Special;
    let kind = src_value(gen, value);
    if vgpr_class {
        if kind == SrcValue::Special(Special::LdsDirect) {
            out.push_str("src_lds_direct");
            return Ok(());
        }
        return push_rc_operand(out, gen, value, 1, false, "VRegOrLds_32", Imm::Invalid);
    }
    match kind {
        SrcValue::Reg(RegClass::Vgpr, _) | SrcValue::Special(Special::LdsDirect) => {
            push_src(out, gen, value, DataType::B32, None)?;
            out.push_str("/*Invalid register, operand has 'SReg_32' register class*/");
            Ok(())
        }
        _ => push_src(out, gen, value, DataType::B32, None),
    }
}

// ---------------------------------------------------------------------------------------
// Interpolation (VOP3 forms of the f16 interp instructions)
// ---------------------------------------------------------------------------------------

/// Appends `attrN.C`.
fn push_attr(out: &mut String, attr: u32, chan: u32) {
    let c = ['x', 'y', 'z', 'w'][(chan & 3) as usize];
    let _ = write!(out, "attr{attr}.{c}");
}

fn print_interp(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let name = def.mnemonic;
    let src0 = inst.field(Field::Src0);
    let neg = inst.field(Field::Neg);
    let abs = inst.field(Field::Abs);
    let has_src2 = def.operand(Role::Src2).is_some();
    let allowed = if has_src2 { 0b110 } else { 0b010 };
    if (neg | abs) & !allowed != 0 || (!has_src2 && inst.field(Field::Src2) != 0) {
        return Err(PrintError::Invalid);
    }
    let clamp = inst.field(Field::Clamp) != 0;
    let omod = inst.field(Field::Omod);
    if omod != 0 && NO_OMOD.contains(&name) {
        return Err(PrintError::Invalid);
    }
    out.push_str(name);
    out.push(' ');
    push_vreg(out, false, inst.field(Field::Vdst), 1)?;
    out.push_str(", ");
    push_vgpr_src_mods(out, gen, inst.field(Field::Src1), vop3_src_mods(inst, 1))?;
    out.push_str(", ");
    push_attr(out, src0 & 0x3f, src0 >> 6 & 3);
    if has_src2 {
        out.push_str(", ");
        push_vgpr_src_mods(out, gen, inst.field(Field::Src2), vop3_src_mods(inst, 2))?;
    }
    if src0 & 0x100 != 0 {
        out.push_str(" high");
    }
    push_clamp(out, clamp);
    push_omod(out, omod);
    Ok(())
}

/// Appends a `VGPR_32` source with its modifiers; other values are flagged as LLVM does
/// (`|s0/*Invalid register, ...*/|`, `neg(1/*Invalid immediate*/)`).
fn push_vgpr_src_mods(
    out: &mut String,
    gen: Gen,
    value: u32,
    mods: SrcMods,
) -> Result<(), PrintError> {
    let inline = matches!(
        src_value(gen, value),
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_)
    );
    let neg_call = mods.neg && !mods.abs && inline;
    if mods.neg {
        out.push_str(if neg_call { "neg(" } else { "-" });
    }
    if mods.abs {
        out.push('|');
    }
    push_rc_operand(out, gen, value, 1, false, "VGPR_32", Imm::Invalid)?;
    if mods.abs {
        out.push('|');
    }
    if neg_call {
        out.push(')');
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// VOP3P
// ---------------------------------------------------------------------------------------

/// The type used to print a constant of a VOP3P source: packed 32-bit pairs print their
/// constants at 32 bits.
fn const_type(ty: DataType) -> DataType {
    match ty {
        DataType::V2F32 => DataType::F32,
        DataType::B64 => DataType::B32,
        t if t.bits() > 64 => DataType::B32,
        t => t,
    }
}

/// Appends a VOP3P source: a register of the operand's width, or a constant printed at the
/// element width.
fn push_packed_src(
    out: &mut String,
    gen: Gen,
    value: u32,
    ty: DataType,
    mods: SrcMods,
) -> Result<(), PrintError> {
    match src_value(gen, value) {
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_) | SrcValue::Literal => {
            push_src_mods(out, gen, value, const_type(ty), None, mods)
        }
        // LDS direct reads 32 bits only.
        SrcValue::Special(gcnkit_isa::instruction::Special::LdsDirect) if ty.dwords() > 1 => {
            Err(PrintError::Invalid)
        }
        _ => push_src_mods(out, gen, value, ty, None, mods),
    }
}

fn print_vop3p(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let name = def.mnemonic;
    let mix = name.contains("_mix");
    let srcs = sources(def);
    let nsrc = srcs.len() as u32;
    let present = (1u32 << nsrc) - 1;
    let neg_lo = inst.field(Field::Neg);
    let neg_hi = inst.field(Field::NegHi);
    let op_sel = inst.field(Field::OpSel);
    let op_sel_hi = inst.field(Field::OpSelHi) | inst.field(Field::OpSelHi2) << 2;
    let clamp = inst.field(Field::Clamp) != 0;
    if (nsrc < 2 && inst.field(Field::Src1) != 0) || (nsrc < 3 && inst.field(Field::Src2) != 0) {
        return Err(PrintError::Invalid);
    }
    if (neg_lo | neg_hi | op_sel) & !present != 0 {
        return Err(PrintError::Invalid);
    }

    out.push_str(name);
    out.push(' ');
    push_vreg(
        out,
        false,
        inst.field(Field::Vdst),
        def.operand(Role::Vdst).map_or(1, |o| o.ty.dwords()),
    )?;
    for &(role, ty) in &srcs {
        out.push_str(", ");
        let i = src_index(role);
        let value = inst.field(src_field(role));
        let mods = if mix {
            SrcMods {
                neg: neg_lo >> i & 1 != 0,
                abs: neg_hi >> i & 1 != 0,
                sext: false,
            }
        } else {
            SrcMods::default()
        };
        push_packed_src(out, gen, value, ty, mods)?;
    }
    let packed = !mix;
    if op_sel & present != 0 {
        push_bit_list(out, "op_sel", op_sel, nsrc);
    }
    let hi_default = if packed { present } else { 0 };
    if op_sel_hi & present != hi_default {
        push_bit_list(out, "op_sel_hi", op_sel_hi, nsrc);
    }
    if !mix {
        if neg_lo != 0 {
            push_bit_list(out, "neg_lo", neg_lo, nsrc);
        }
        if neg_hi != 0 {
            push_bit_list(out, "neg_hi", neg_hi, nsrc);
        }
    }
    push_clamp(out, clamp);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// VOP3P-MAI
// ---------------------------------------------------------------------------------------

/// How a register-class-checked MAI operand treats inline constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Imm {
    /// Accepted, printed at this type.
    Ok(DataType),
    /// Printed at 32 bits with an `/*Invalid immediate*/` comment.
    Invalid,
}

/// Appends a scalar register range of `dwords` registers as LLVM decodes it for a
/// vector-register operand (before flagging it): pairs and 4..16-register tuples as usual,
/// 32-register (1024-bit) operands as a single register, the low half of vcc, exec,
/// flat_scratch or xnack_mask as the 64-bit register.
fn push_wide_sreg(out: &mut String, gen: Gen, value: u32, dwords: u32) -> Result<(), PrintError> {
    use gcnkit_isa::instruction::Special;
    match src_value(gen, value) {
        SrcValue::Special(s) if dwords > 2 => {
            out.push_str(match s {
                Special::FlatScratchLo => "flat_scratch",
                Special::XnackMaskLo => "xnack_mask",
                Special::VccLo => "vcc",
                Special::ExecLo => "exec",
                Special::TbaLo => "tba",
                Special::TmaLo => "tma",
                _ => return Err(PrintError::Invalid),
            });
            Ok(())
        }
        SrcValue::Reg(class @ (RegClass::Sgpr | RegClass::Ttmp), n) if dwords > 16 => {
            crate::operands::push_reg(out, class, n, 1);
            Ok(())
        }
        _ => push_scalar_reg(out, gen, value, dwords),
    }
}

/// Appends an operand of a vector register class (`VReg_128`, `AV_64`, ...): a VGPR range
/// (an AccVGPR range when `agpr`), or whatever else the field holds, flagged as LLVM does.
fn push_rc_operand(
    out: &mut String,
    gen: Gen,
    value: u32,
    dwords: u32,
    agpr: bool,
    class: &str,
    imm: Imm,
) -> Result<(), PrintError> {
    use gcnkit_isa::instruction::Special;
    match src_value(gen, value) {
        SrcValue::Reg(RegClass::Vgpr, n) => push_vreg(out, agpr, n, dwords),
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_) => match imm {
            Imm::Ok(ty) => push_src(out, gen, value, ty, None),
            Imm::Invalid => {
                push_src(out, gen, value, DataType::B32, None)?;
                out.push_str("/*Invalid immediate*/");
                Ok(())
            }
        },
        SrcValue::Literal | SrcValue::Invalid(_) => Err(PrintError::Invalid),
        SrcValue::Special(s) if s.is_readonly_value() => push_scalar_reg(out, gen, value, 1),
        SrcValue::Special(Special::LdsDirect) if dwords > 1 || matches!(imm, Imm::Ok(_)) => {
            Err(PrintError::Invalid)
        }
        _ => {
            push_wide_sreg(out, gen, value, dwords)?;
            let _ = write!(
                out,
                "/*Invalid register, operand has '{class}' register class*/"
            );
            Ok(())
        }
    }
}

fn print_mai(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let name = def.mnemonic;
    let smfmac = name.starts_with("v_smfmac");
    let cbsz = inst.field(Field::Cbsz);
    let abid = inst.field(Field::Abid);
    let acc = inst.field(Field::Acc);
    let blgp = inst.field(Field::Blgp);
    // gfx908 ignores acc_cd: vdst and src2 are always AccVGPRs there.
    let cd_agpr = gen == Gen::Gfx908 || inst.field(Field::AccCd) != 0;
    if smfmac && blgp != 0 {
        return Err(PrintError::Invalid);
    }
    let ty = |r: Role| def.operand(r).map(|o| o.ty);
    out.push_str(name);
    out.push(' ');
    push_vreg(
        out,
        cd_agpr,
        inst.field(Field::Vdst),
        ty(Role::Vdst).map_or(1, DataType::dwords),
    )?;
    for (i, role) in [Role::Src0, Role::Src1, Role::Src2].into_iter().enumerate() {
        let Some(t) = ty(role) else { continue };
        out.push_str(", ");
        let value = inst.field(src_field(role));
        let dwords = t.dwords();
        let bits = dwords * 32;
        match role {
            Role::Src2 if smfmac => {
                push_rc_operand(out, gen, value, 1, false, "VGPR_32", Imm::Invalid)?
            }
            Role::Src2 => {
                let class = if cd_agpr {
                    format!("AReg_{bits}")
                } else {
                    format!("VReg_{bits}")
                };
                push_rc_operand(
                    out,
                    gen,
                    value,
                    dwords,
                    cd_agpr,
                    &class,
                    Imm::Ok(if name.starts_with("v_mfma_f64") {
                        DataType::F64
                    } else {
                        const_type(t)
                    }),
                )?
            }
            _ => {
                let agpr = acc >> i & 1 != 0;
                let class = format!("AV_{bits}");
                push_rc_operand(out, gen, value, dwords, agpr, &class, Imm::Invalid)?
            }
        }
    }
    if cbsz != 0 {
        let _ = write!(out, " cbsz:{cbsz}");
    }
    if abid != 0 {
        let _ = write!(out, " abid:{abid}");
    }
    if blgp != 0 {
        if gen == Gen::Gfx940 && name.starts_with("v_mfma_f64") {
            push_bit_list(out, "neg", blgp, 3);
        } else {
            let _ = write!(out, " blgp:{blgp}");
        }
    }
    Ok(())
}

/// v_accvgpr_read_b32 (`vN, aM`) and v_accvgpr_write_b32 (`aN, src`).
///
/// Besides vdst and src0 only bit 14, clamp and bits 60:59 (the op_sel_hi bits) may be set;
/// they are ignored.
fn print_accvgpr(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let read = def.has(flags::ACCSRC0);
    let fixed = (inst.bits >> 8) & 0x3f == 0
        && inst.bits >> 61 == 0
        && inst.field(Field::Src1) == 0
        && inst.field(Field::Src2) == 0;
    if !fixed {
        return Err(PrintError::Invalid);
    }
    out.push_str(def.mnemonic);
    out.push(' ');
    push_vreg(out, !read, inst.field(Field::Vdst), 1)?;
    out.push_str(", ");
    let value = inst.field(Field::Src0);
    if read {
        push_rc_operand(out, gen, value, 1, true, "AGPR_32", Imm::Invalid)?;
    } else {
        push_src(out, gen, value, DataType::B32, None)?;
    }
    Ok(())
}
