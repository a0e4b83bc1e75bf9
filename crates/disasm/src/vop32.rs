//! Printing of the VOP1, VOP2 and VOPC instructions in all their forms: the 32-bit
//! encoding (`_e32`), the VOP3 encoding (`_e64`), SDWA (`_sdwa`) and DPP (`_dpp`).
//!
//! What LLVM 19 prints for these families is recorded in `tools/probe/NOTES-valu32.md`; the
//! modifier rules below (which operand may carry `neg`/`abs`, which instruction `clamp` or an
//! output modifier) were probed per row with `llvm-mc` for gfx8, gfx9, gfx90a and gfx940.

use std::fmt::Write as _;

use gcnkit_isa::instruction::{src_value, RegClass, Special, SrcValue};
use gcnkit_isa::{flags, DataType, Encoding, Field, Form, Gen, InstrDef, Instruction, Role};

use crate::operands::{push_scalar_reg, push_src, push_vreg};
use crate::vop_common::{
    has_fp_mods, push_clamp, push_invalid_imm, push_omod, push_src_mods, SrcMods,
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
    let gen = inst.gen;
    let available = match inst.form {
        Form::Native => true,
        Form::Vop3 => !def.flag_on(flags::NOE64, gen),
        Form::Sdwa => !def.flag_on(flags::NOSDWA, gen),
        Form::Dpp => !def.flag_on(flags::NODPP, gen),
    };
    if !available {
        return Err(PrintError::Invalid);
    }
    let caps = Caps::of(def, gen);
    out.push_str(def.mnemonic);
    out.push_str(suffix(inst));
    match inst.form {
        Form::Native => print_operands(inst, &caps, out),
        Form::Vop3 => print_e64(inst, &caps, out),
        Form::Sdwa => print_sdwa(inst, &caps, out),
        Form::Dpp => print_dpp(inst, &caps, out),
    }
}

/// The form suffix LLVM appends to the mnemonic.
fn suffix(inst: &Instruction) -> &'static str {
    let def = inst.def();
    // v_nop and v_clrexcp print bare in both encodings, as LLVM prints them. On gfx6/gfx7,
    // where the text must stand for the bytes, the VOP3 form keeps its `_e64`: llvm-mc reads
    // a bare name as the 32-bit form.
    if def.operands.is_empty() {
        return if inst.form == Form::Vop3 && inst.gen.is_si_ci() {
            "_e64"
        } else {
            ""
        };
    }
    match inst.form {
        // Instructions LLVM defines without a VOP3 twin (v_readfirstlane_b32, v_madmk_f32,
        // v_swap_b32, ...) have no `_e32` in their name. v_pk_fmac_f16 is the exception: it
        // is an ordinary VOP2 instruction whose VOP3 form merely has no encoding on gfx9.
        Form::Native if def.has(flags::NOE64) && !def.has(flags::TIED) => "",
        Form::Native => "_e32",
        Form::Vop3 => "_e64",
        // gfx8's VOPC SDWA instructions are named without the suffix.
        Form::Sdwa if inst.gen == Gen::Gfx8 && def.encoding == Encoding::Vopc => "",
        Form::Sdwa => "_sdwa",
        Form::Dpp => "_dpp",
    }
}

/// How a source operand's `neg`/`abs` bits are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ModKind {
    /// No modifiers: any set bit makes the word invalid.
    None,
    /// Floating-point `neg`/`abs`, printed.
    Fp,
    /// Integer input modifiers (a 16-bit integer source of an FP instruction, e.g. src1 of
    /// v_ldexp_f16): the `neg` bit is LLVM's `sext` bit, the `abs` bit is ignored.
    Int,
    /// Accepted but not printed (the integer v_dot*c instructions).
    Ignored,
}

/// What the instruction accepts besides its operands.
#[derive(Clone, Copy, Debug)]
struct Caps {
    /// Modifier kinds of src0, src1 (src2 never has modifiers in these families).
    mods: [ModKind; 2],
    /// `clamp` accepted in the VOP3 encoding.
    clamp: bool,
    /// An output modifier accepted.
    omod: bool,
    /// The instruction writes a carry-out / compare mask (VOPC, v_add_co_u32 ...).
    sdst: bool,
    /// VOP3B (carry-out VOP2): the VOP3 `abs` bits hold the SGPR destination.
    vop3b: bool,
}

/// Integer VOP2 instructions whose VOP3 form accepts `clamp` (LLVM's integer clamp).
const INT_CLAMP: &[&str] = &[
    "v_add_u16",
    "v_sub_u16",
    "v_subrev_u16",
    "v_mul_i32_i24",
    "v_mul_u32_u24",
];

/// FP-source instructions without an output modifier (LLVM's `..._SPECIAL_OMOD` profile).
const NO_OMOD: &[&str] = &[
    "v_cvt_flr_i32_f32",
    "v_cvt_rpi_i32_f32",
    "v_frexp_exp_i32_f32",
];

impl Caps {
    fn of(def: &InstrDef, gen: Gen) -> Caps {
        let ty = |role| def.operand(role).map(|o| o.ty);
        let srcs = [ty(Role::Src0), ty(Role::Src1)];
        let dst_float = ty(Role::Vdst).is_some_and(DataType::is_float);
        let any_fp_src = srcs.iter().flatten().any(|&t| has_fp_mods(t));
        // A lane-mask destination: VOPC's, or the carry-out of a VOP2 instruction that also
        // writes a VGPR (v_readlane_b32's sdst is an ordinary SGPR).
        let sdst = def.operand(Role::Sdst).is_some()
            && (def.encoding == Encoding::Vopc || def.operand(Role::Vdst).is_some());
        let vop3b = sdst && def.encoding == Encoding::Vop2;
        let name = def.mnemonic;
        let int_dot = name.starts_with("v_dot") && !any_fp_src;
        let cndmask = name == "v_cndmask_b32";
        let mut mods = [ModKind::None; 2];
        for (kind, src) in mods.iter_mut().zip(srcs) {
            let Some(t) = src else { continue };
            *kind = if int_dot {
                ModKind::Ignored
            } else if has_fp_mods(t) || cndmask {
                ModKind::Fp
            } else if any_fp_src && t.is_16bit() {
                ModKind::Int
            } else {
                ModKind::None
            };
        }
        let int_clamp = INT_CLAMP.contains(&name)
            || (gen.is_gfx9_family() && matches!(name, "v_add_u32" | "v_sub_u32" | "v_subrev_u32"));
        if def.encoding == Encoding::Vopc {
            // Compares take clamp only when both sources are FP (not v_cmp_class_*), and
            // never an output modifier.
            let all_fp = srcs.iter().flatten().all(|&t| has_fp_mods(t));
            return Caps {
                mods,
                clamp: all_fp,
                omod: false,
                sdst,
                vop3b,
            };
        }
        Caps {
            mods,
            clamp: any_fp_src || dst_float || vop3b || int_clamp || int_dot,
            omod: (any_fp_src || dst_float) && !NO_OMOD.contains(&name) && !int_dot,
            sdst,
            vop3b,
        }
    }
}

fn sep(out: &mut String, first: &mut bool) {
    out.push_str(if *first { " " } else { ", " });
    *first = false;
}

/// Where the operands of one form come from.
struct Sources {
    /// Source values (the 9-bit operand encoding: 256+ are VGPRs) of src0 and src1.
    src: [u32; 2],
    /// Their modifiers.
    mods: [SrcMods; 2],
}

/// Checks `mods` against what the operand accepts and returns the modifiers to print.
fn check_mods(kind: ModKind, mods: SrcMods) -> Result<SrcMods, PrintError> {
    match kind {
        ModKind::None if mods.any() => Err(PrintError::Invalid),
        ModKind::None | ModKind::Ignored => Ok(SrcMods::default()),
        ModKind::Fp if mods.sext => Err(PrintError::Invalid),
        ModKind::Fp => Ok(mods),
        ModKind::Int => Ok(SrcMods {
            sext: mods.neg || mods.sext,
            ..SrcMods::default()
        }),
    }
}

/// Prints the operands in table order for any form; `srcs` gives the source values and
/// modifiers of the form, `vop3` says whether SGPR destinations and the carry-in are
/// explicit fields.
fn print_operands_from(
    inst: &Instruction,
    caps: &Caps,
    srcs: &Sources,
    out: &mut String,
) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let e64 = inst.form == Form::Vop3;
    let mut first = true;
    for op in def.operands {
        sep(out, &mut first);
        match op.role {
            Role::Vdst => {
                let agpr = def.mnemonic == "v_accvgpr_mov_b32";
                push_vreg(out, agpr, inst.field(Field::Vdst), op.ty.dwords())?;
            }
            // v_readfirstlane_b32 / v_readlane_b32: the SGPR sits in the VDST field.
            Role::Sdst if !caps.sdst => push_lane_sdst(out, gen, inst.field(Field::Vdst))?,
            Role::Sdst => push_mask_dst(inst, caps, out)?,
            Role::Src0 | Role::Src1 => {
                let i = usize::from(op.role == Role::Src1);
                let (value, mods) = (srcs.src[i], srcs.mods[i]);
                let literal = if inst.form == Form::Native {
                    inst.ext
                } else {
                    None
                };
                match def.mnemonic {
                    "v_accvgpr_mov_b32" => {
                        push_restricted_src(out, gen, value, literal, "AGPR_32")?;
                    }
                    "v_readfirstlane_b32" => {
                        push_restricted_src(out, gen, value, literal, "VRegOrLds_32")?;
                    }
                    // Sources that LLVM types as VGPR-only.
                    "v_swap_b32" | "v_movrels_b32" | "v_movrelsd_b32" => {
                        push_restricted_src(out, gen, value, literal, "VGPR_32")?;
                    }
                    // LLVM prints an FP inline constant read by the 16-bit integer source of
                    // an FP instruction (v_ldexp_f16's exponent, in VOP3 and SDWA) as the
                    // half-precision value it stands for (`0.5`); other 16-bit integer
                    // sources print its bits in hex (`0x3800`).
                    _ if caps.mods[i] == ModKind::Int => {
                        push_src_mods(out, gen, value, DataType::F16, literal, mods)?;
                    }
                    _ => push_src_mods(out, gen, value, op.ty, literal, mods)?,
                }
            }
            // The carry-in / lane mask: an SGPR pair in VOP3, `vcc` otherwise.
            Role::Src2 if e64 => push_mask(out, gen, inst.field(Field::Src2))?,
            Role::Src2 => out.push_str("vcc"),
            Role::K => {
                let k = inst.ext.ok_or(PrintError::Invalid)?;
                // LLVM prints the constant as 32-bit hex whatever its value and type.
                let _ = write!(out, "0x{k:x}");
            }
            _ => return Err(PrintError::Invalid),
        }
    }
    Ok(())
}

/// The 64-bit lane mask written by a compare or carry-out instruction.
fn push_mask_dst(inst: &Instruction, caps: &Caps, out: &mut String) -> Result<(), PrintError> {
    let gen = inst.gen;
    match inst.form {
        Form::Vop3 => {
            // VOPC is VOP3A (the mask in the VDST field), carry-out VOP2 is VOP3B.
            let value = if caps.vop3b {
                inst.field(Field::Sdst)
            } else {
                inst.field(Field::Vdst)
            };
            push_mask(out, gen, value)
        }
        // gfx9 VOPC SDWA: SD (bit 15) selects the SGPR pair in bits 14:8 over vcc.
        Form::Sdwa
            if gen.is_gfx9_family()
                && inst.def().encoding == Encoding::Vopc
                && inst.ext_bits(15, 1) != 0 =>
        {
            push_mask(out, gen, inst.ext_bits(8, 7))
        }
        _ => {
            out.push_str("vcc");
            Ok(())
        }
    }
}

/// A 64-bit lane mask given by a source-style encoding value: the compare / carry-out
/// destination, the carry-in or v_cndmask's mask in the VOP3 form. LLVM decodes
/// constants and VGPRs there but flags them.
fn push_mask(out: &mut String, gen: Gen, value: u32) -> Result<(), PrintError> {
    match src_value(gen, value) {
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_) => {
            push_invalid_imm(out, gen, value, None)
        }
        SrcValue::Reg(RegClass::Vgpr, n) => {
            push_vreg(out, false, n, 2)?;
            crate::operands::push_class_note(out, "SReg_1_XEXEC");
            Ok(())
        }
        SrcValue::Literal | SrcValue::Invalid(_) | SrcValue::Special(Special::LdsDirect) => {
            Err(PrintError::Invalid)
        }
        _ => push_scalar_reg(out, gen, value, 2),
    }
}

/// The SGPR destination of v_readfirstlane_b32 / v_readlane_b32 (the VDST field).
fn push_lane_sdst(out: &mut String, gen: Gen, value: u32) -> Result<(), PrintError> {
    match src_value(gen, value) {
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_) => {
            push_invalid_imm(out, gen, value, None)
        }
        SrcValue::Literal | SrcValue::Invalid(_) | SrcValue::Special(Special::LdsDirect) => {
            Err(PrintError::Invalid)
        }
        _ => push_scalar_reg(out, gen, value, 1),
    }
}

/// A source restricted to one register class (`VRegOrLds_32` for v_readfirstlane_b32,
/// `AGPR_32` for v_accvgpr_mov_b32, `VGPR_32` for v_swap_b32 and v_movrel*): other
/// registers print with LLVM's note, constants as invalid immediates.
fn push_restricted_src(
    out: &mut String,
    gen: Gen,
    value: u32,
    literal: Option<u32>,
    class: &str,
) -> Result<(), PrintError> {
    let agpr = class == "AGPR_32";
    match src_value(gen, value) {
        SrcValue::Reg(RegClass::Vgpr, n) => push_vreg(out, agpr, n, 1),
        // LLVM does not check the class of `null` and the `src_*` operands.
        SrcValue::Special(
            Special::Null
            | Special::SrcSharedBase
            | Special::SrcSharedLimit
            | Special::SrcPrivateBase
            | Special::SrcPrivateLimit
            | Special::SrcPopsExitingWaveId
            | Special::SrcVccz
            | Special::SrcExecz
            | Special::SrcScc
            | Special::LdsDirect,
        ) => push_src(out, gen, value, DataType::B32, None),
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_) | SrcValue::Literal => {
            push_invalid_imm(out, gen, value, literal)
        }
        SrcValue::Invalid(_) => Err(PrintError::Invalid),
        _ => {
            push_src(out, gen, value, DataType::B32, None)?;
            crate::operands::push_class_note(out, class);
            Ok(())
        }
    }
}

/// `_e32`: the native 32-bit encoding.
fn print_operands(inst: &Instruction, caps: &Caps, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let vsrc1 = inst.field(Field::Vsrc1);
    // gfx6/7 v_readlane_b32 / v_writelane_b32 keep their scalar lane select in VSRC1.
    let src1 = if matches!(def.mnemonic, "v_readlane_b32" | "v_writelane_b32") {
        vsrc1
    } else {
        256 + vsrc1
    };
    // v_nop / v_clrexcp ignore the SRC0 field but not VDST.
    if def.operands.is_empty() && inst.field(Field::Vdst) != 0 {
        return Err(PrintError::Invalid);
    }
    let srcs = Sources {
        src: [inst.field(Field::Src0), src1],
        mods: [SrcMods::default(); 2],
    };
    print_operands_from(inst, caps, &srcs, out)
}

/// `_e64`: the VOP3 encoding.
fn print_e64(inst: &Instruction, caps: &Caps, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let nsrc = [Role::Src0, Role::Src1, Role::Src2]
        .iter()
        .filter(|&&r| def.operand(r).is_some())
        .count() as u32;
    // Source fields the instruction does not have must be zero (this includes the tied
    // accumulator of v_mac_f32 and friends).
    if (nsrc < 2 && inst.field(Field::Src1) != 0) || (nsrc < 3 && inst.field(Field::Src2) != 0) {
        return Err(PrintError::Invalid);
    }
    if def.operands.is_empty() && (inst.field(Field::Vdst) != 0 || inst.field(Field::Src0) != 0) {
        return Err(PrintError::Invalid);
    }
    let mut mods = [SrcMods::default(); 2];
    let neg = inst.field(Field::Neg);
    let abs = if caps.vop3b {
        0
    } else {
        inst.field(Field::Abs)
    };
    for (i, m) in mods.iter_mut().enumerate() {
        let raw = SrcMods {
            neg: neg >> i & 1 != 0,
            abs: abs >> i & 1 != 0,
            sext: false,
        };
        let kind = if (i as u32) < nsrc.min(2) {
            caps.mods[i]
        } else {
            ModKind::None
        };
        *m = check_mods(kind, raw)?;
    }
    // Neither the carry-in nor anything else has modifiers in src2.
    if neg & 4 != 0 || abs & 4 != 0 {
        return Err(PrintError::Invalid);
    }
    // VOP3B keeps clamp in bit 15 on every generation; VOP3A has it in bit 11 on gfx6/7.
    let clamp = if caps.vop3b || !gen.is_si_ci() {
        (inst.bits >> 15) & 1 != 0
    } else {
        (inst.bits >> 11) & 1 != 0
    };
    let omod = inst.field(Field::Omod);
    if (clamp && !caps.clamp) || (omod != 0 && !caps.omod) {
        return Err(PrintError::Invalid);
    }
    let srcs = Sources {
        src: [inst.field(Field::Src0), inst.field(Field::Src1)],
        mods,
    };
    print_operands_from(inst, caps, &srcs, out)?;
    push_clamp(out, clamp);
    push_omod(out, omod);
    Ok(())
}

const SEL_NAMES: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];
const UNUSED_NAMES: [&str; 4] = [
    "UNUSED_PAD",
    "UNUSED_SEXT",
    "UNUSED_PRESERVE",
    // Reserved; LLVM accepts it and prints the default.
    "UNUSED_PAD",
];

fn sel_name(sel: u32) -> Result<&'static str, PrintError> {
    SEL_NAMES
        .get(sel as usize)
        .copied()
        .ok_or(PrintError::Invalid)
}

/// `_sdwa`: the SDWA extension dword.
///
/// Layout: src0 7:0, dst_sel 10:8, dst_unused 12:11, clamp 13, omod 15:14 (gfx9; VOPC uses
/// 14:8 for the SGPR destination and 15 for its enable), src0_sel 18:16, sext 19, neg 20,
/// abs 21, S0 23 (gfx9: src0 is a scalar operand), and the same for src1 at 31:24.
fn print_sdwa(inst: &Instruction, caps: &Caps, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    // v_nop's SDWA form has an all-zero dword (the decoder checks) and prints bare; its VDST
    // field must be zero as in the 32-bit form.
    if def.operands.is_empty() {
        return match inst.field(Field::Vdst) {
            0 => Ok(()),
            _ => Err(PrintError::Invalid),
        };
    }
    let gen = inst.gen;
    let gfx9 = gen.is_gfx9_family();
    let vopc = def.encoding == Encoding::Vopc;
    let vop1 = def.encoding == Encoding::Vop1;
    let e = |lo, w| inst.ext_bits(lo, w);
    let src_mods = |base: u32| SrcMods {
        sext: e(base + 3, 1) != 0,
        neg: e(base + 4, 1) != 0,
        abs: e(base + 5, 1) != 0,
    };
    // gfx8 has no S0/S1 bits: sources are always VGPRs.
    let scalar = |bit| gfx9 && e(bit, 1) != 0;
    let src0 = e(0, 8) + if scalar(23) { 0 } else { 256 };
    let src1 = inst.field(Field::Vsrc1) + if scalar(31) { 0 } else { 256 };
    let sel0 = e(16, 3);
    let sel1 = e(24, 3);
    let mut mods = [src_mods(16), src_mods(24)];
    if vop1 {
        // VOP1 has no src1: its select, modifiers and (gfx9) S1 bit must be clear.
        if e(24, 6) != 0 || scalar(31) {
            return Err(PrintError::Invalid);
        }
    } else {
        sel_name(sel1)?;
    }
    sel_name(sel0)?;
    // SDWA gives every integer source `sext` and every FP source `neg`/`abs`.
    for (i, m) in mods.iter_mut().enumerate() {
        let fp = caps.mods[i] == ModKind::Fp;
        if (fp && m.sext) || (!fp && (m.neg || m.abs)) {
            return Err(PrintError::Invalid);
        }
    }
    let srcs = Sources {
        src: [src0, src1],
        mods,
    };
    print_operands_from(inst, caps, &srcs, out)?;
    if vopc {
        // gfx8 VOPC SDWA keeps clamp in bit 13; gfx9 uses those bits for the SGPR destination.
        if !gfx9 {
            push_clamp(out, e(13, 1) != 0);
        }
    } else {
        let omod = if gfx9 { e(14, 2) } else { 0 };
        if omod != 0 && !caps.omod {
            return Err(PrintError::Invalid);
        }
        push_clamp(out, e(13, 1) != 0);
        push_omod(out, omod);
        // gfx940's fp8/bf8 conversions ignore the destination fields.
        let fp8 = def.mnemonic.contains("fp8") || def.mnemonic.contains("bf8");
        if fp8 {
            // ...but insist on dst_sel:DWORD.
            if e(8, 3) != 6 {
                return Err(PrintError::Invalid);
            }
        } else {
            let _ = write!(
                out,
                " dst_sel:{} dst_unused:{}",
                sel_name(e(8, 3))?,
                UNUSED_NAMES[e(11, 2) as usize & 3]
            );
        }
    }
    let _ = write!(out, " src0_sel:{}", sel_name(sel0)?);
    if !vop1 {
        let _ = write!(out, " src1_sel:{}", sel_name(sel1)?);
    }
    Ok(())
}

/// `_dpp`: the DPP extension dword.
///
/// Layout: src0 7:0, dpp_ctrl 16:8, bound_ctrl 19, src0 neg 20 / abs 21, src1 neg 22 /
/// abs 23, bank_mask 27:24, row_mask 31:28.
fn print_dpp(inst: &Instruction, caps: &Caps, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let e = |lo, w| inst.ext_bits(lo, w);
    let vop1 = def.encoding == Encoding::Vop1;
    // v_nop (the decoder checked its source and modifier bits): VDST must be zero.
    if def.operands.is_empty() && inst.field(Field::Vdst) != 0 {
        return Err(PrintError::Invalid);
    }
    let mut mods = [
        SrcMods {
            neg: e(20, 1) != 0,
            abs: e(21, 1) != 0,
            sext: false,
        },
        SrcMods {
            neg: e(22, 1) != 0,
            abs: e(23, 1) != 0,
            sext: false,
        },
    ];
    if vop1 && mods[1].any() {
        return Err(PrintError::Invalid);
    }
    for (i, m) in mods.iter_mut().enumerate() {
        *m = check_mods(caps.mods[i], *m)?;
    }
    let srcs = Sources {
        src: [256 + e(0, 8), 256 + inst.field(Field::Vsrc1)],
        mods,
    };
    print_operands_from(inst, caps, &srcs, out)?;
    out.push(' ');
    // Instructions with 64-bit operands (gfx90a+ DP ALU DPP) only take row_newbcast.
    let dp = matches!(gen, Gen::Gfx90a | Gen::Gfx940)
        && def
            .operands
            .iter()
            .any(|o| o.ty.bits() == 64 && matches!(o.role, Role::Vdst | Role::Src0 | Role::Src1));
    push_dpp_ctrl(out, gen, e(8, 9), dp);
    let _ = write!(out, " row_mask:0x{:x} bank_mask:0x{:x}", e(28, 4), e(24, 4));
    if e(19, 1) != 0 {
        out.push_str(" bound_ctrl:1");
    }
    Ok(())
}

/// The DPP control, or the comment LLVM prints for a value it cannot name.
fn push_dpp_ctrl(out: &mut String, gen: Gen, ctrl: u32, dp: bool) {
    let gfx90a = matches!(gen, Gen::Gfx90a | Gen::Gfx940);
    if dp && !(0x150..=0x15f).contains(&ctrl) {
        out.push_str(" /* DP ALU dpp only supports row_newbcast */");
        return;
    }
    let _ = match ctrl {
        0x000..=0x0ff => write!(
            out,
            "quad_perm:[{},{},{},{}]",
            ctrl & 3,
            ctrl >> 2 & 3,
            ctrl >> 4 & 3,
            ctrl >> 6 & 3
        ),
        0x101..=0x10f => write!(out, "row_shl:{}", ctrl & 0xf),
        0x111..=0x11f => write!(out, "row_shr:{}", ctrl & 0xf),
        0x121..=0x12f => write!(out, "row_ror:{}", ctrl & 0xf),
        0x130 => write!(out, "wave_shl:1"),
        0x134 => write!(out, "wave_rol:1"),
        0x138 => write!(out, "wave_shr:1"),
        0x13c => write!(out, "wave_ror:1"),
        0x140 => write!(out, "row_mirror"),
        0x141 => write!(out, "row_half_mirror"),
        0x142 => write!(out, "row_bcast:15"),
        0x143 => write!(out, "row_bcast:31"),
        0x150..=0x15f if gfx90a => write!(out, "row_newbcast:{}", ctrl & 0xf),
        0x150..=0x15f => write!(
            out,
            " /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */"
        ),
        0x160..=0x16f => write!(
            out,
            "/* row_xmask is not supported on ASICs earlier than GFX10 */"
        ),
        _ => write!(out, "/* Invalid dpp_ctrl value */"),
    };
}
