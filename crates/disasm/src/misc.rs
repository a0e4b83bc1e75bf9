//! Printing of the MIMG, EXP and VINTRP families, including the VOP3-encoded `_e64` form of
//! the VINTRP instructions (gfx8, gfx9, gfx908).
//!
//! What LLVM 19 prints for these, and which field values make it reject a word, is recorded
//! in `tools/probe/NOTES-misc.md`; the rules below follow those notes and direct probes of
//! llvm-mc-19.

use std::fmt::Write as _;

use gcnkit_isa::instruction::{src_value, RegClass, Special, SrcValue};
use gcnkit_isa::{flags, DataType, Encoding, Field, Gen, InstrDef, Instruction, Role};

use crate::operands::{push_reg, push_scalar_reg, push_src, push_vreg};
use crate::{PrintContext, PrintError};

/// Appends the text of `inst`.
pub(crate) fn print(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    // Dispatch on the row's encoding, not the instruction's: the `_e64` form of a VINTRP
    // instruction is VOP3-encoded.
    match (inst.def().encoding, inst.encoding) {
        (Encoding::Mimg, _) => print_mimg(inst, ctx, out),
        (Encoding::Exp, _) => print_exp(inst, out),
        (Encoding::Vintrp, Encoding::Vop3) => print_vintrp_e64(inst, out),
        (Encoding::Vintrp, _) => print_vintrp(inst, out),
        _ => Err(PrintError::Invalid),
    }
}

// ---------------------------------------------------------------------------------------
// MIMG
// ---------------------------------------------------------------------------------------

/// Word0 bit 0: LLVM reads it as bit 7 of the opcode, and no MIMG opcode has that bit, so a
/// word with it set does not decode.
const MIMG_OP_BIT7: u64 = 1 << 0;
/// Word0 bit 7: the `scc` cache-policy bit. Only gfx90a prints it; gfx8/gfx9/gfx908 decode
/// it silently (and re-encode it), so it is no reason to reject the word there.
const MIMG_SCC: u64 = 1 << 7;
/// Word1 bit 31: D16. It is a field of the gfx8+ layout only; on gfx6/gfx7 the assembler
/// rejects `d16`, so a word with the bit set is taken as invalid there.
const MIMG_D16_BIT: u64 = 1 << 63;

/// MIMG: `MNEMONIC vdata, vaddr, srsrc[, ssamp] [dmask:0xN] [unorm] [glc] [slc] [scc]
/// [r128|a16] [tfe] [lwe] [da] [d16]`.
fn print_mimg(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    if inst.bits & MIMG_OP_BIT7 != 0 {
        return Err(PrintError::Invalid);
    }
    let d16 = if gen.is_si_ci() {
        if inst.bits & MIMG_D16_BIT != 0 {
            return Err(PrintError::Invalid);
        }
        false
    } else {
        inst.field(Field::D16) != 0
    };
    if d16 && has_no_d16(def) {
        return Err(PrintError::Invalid);
    }
    // gfx90a has no TFE: the bit selects AGPRs for vdata instead.
    let acc = gen == Gen::Gfx90a && inst.field(Field::Tfe) != 0;
    let tfe = gen != Gen::Gfx90a && inst.field(Field::Tfe) != 0;
    let dmask = inst.field(Field::Dmask);

    let vdata = def.operand(Role::Vdata).ok_or(PrintError::Invalid)?;
    let vaddr = def.operand(Role::Vaddr).ok_or(PrintError::Invalid)?;
    let srsrc = def.operand(Role::Srsrc).ok_or(PrintError::Invalid)?;
    let ssamp = def.operand(Role::Ssamp);
    // Only samplers, gathers and get_lod have a sampler; elsewhere the field must be 0.
    if ssamp.is_none() && inst.field(Field::Ssamp) != 0 {
        return Err(PrintError::Invalid);
    }

    out.push_str(def.mnemonic);
    out.push(' ');
    let data_reg = inst.field(Field::Vdata);
    // LLVM decodes vdata with the row's base register class first (a tuple past v255 makes
    // the word invalid), then widens or narrows it as dmask/tfe/d16 ask, keeping the base
    // class when that tuple would run past the last register.
    let base = vdata.ty.dwords();
    if data_reg + base > 256 {
        return Err(PrintError::Invalid);
    }
    let packed_d16 = d16 && ctx.target.processor.has_packed_d16();
    let mut count = mimg_vdata_count(def, gen, dmask, tfe, packed_d16);
    if data_reg + count > 256 {
        count = base;
    }
    push_vreg(out, acc, data_reg, count)?;
    out.push_str(", ");
    // The encoding does not record the address width: LLVM prints the base width.
    push_vreg(out, false, inst.field(Field::Vaddr), vaddr.ty.dwords())?;
    out.push_str(", ");
    push_sreg_tuple(out, gen, inst.field(Field::Srsrc) * 4, srsrc.ty.dwords())?;
    if let Some(ssamp) = ssamp {
        out.push_str(", ");
        push_sreg_tuple(out, gen, inst.field(Field::Ssamp) * 4, ssamp.ty.dwords())?;
    }

    if dmask != 0 {
        let _ = write!(out, " dmask:0x{dmask:x}");
    }
    let on = |field: Field| inst.field(field) != 0;
    let modifiers = [
        (on(Field::Unorm), "unorm"),
        (on(Field::Glc), "glc"),
        (on(Field::Slc), "slc"),
        (gen == Gen::Gfx90a && inst.bits & MIMG_SCC != 0, "scc"),
        (
            on(Field::R128),
            if gen.is_gfx9_family() { "a16" } else { "r128" },
        ),
        (tfe, "tfe"),
        (on(Field::Lwe), "lwe"),
        (on(Field::Da), "da"),
        (d16, "d16"),
    ];
    for (set, name) in modifiers {
        if set {
            out.push(' ');
            out.push_str(name);
        }
    }
    Ok(())
}

/// True for the instructions that have no D16 variant, for which LLVM rejects the word
/// when D16 is set: the atomics, the `_pck`/`_pck_sgn` loads and stores (they move packed
/// data as is), image_get_resinfo and image_get_lod.
///
/// mimg.tbl has a flag only for the atomics, so the mnemonic decides for the others.
fn has_no_d16(def: &InstrDef) -> bool {
    let m = def.mnemonic;
    def.has(flags::ATOMIC)
        || m.ends_with("_pck")
        || m.ends_with("_pck_sgn")
        || m == "image_get_resinfo"
        || m == "image_get_lod"
}

/// Number of vdata registers LLVM prints (before the fall-back for tuples past v255).
///
/// On gfx6/gfx7 the vectors are what the assembler accepted, which is the natural size:
/// one register per dmask bit (four for gathers), plus one for TFE. LLVM's gfx8+ decoder
/// differs for atomics, whose sizes it maps through a fixed set of register classes.
/// `packed_d16` is set when the data is D16 on a processor that packs two components per
/// register (gfx810, gfx9 and later; the other gfx8 processors take one register each).
fn mimg_vdata_count(def: &InstrDef, gen: Gen, dmask: u32, tfe: bool, packed_d16: bool) -> u32 {
    let pop = dmask.count_ones();
    let tfe = u32::from(tfe);
    if def.has(flags::ATOMIC) {
        let n = pop.max(1) + tfe;
        if gen.is_si_ci() {
            return n;
        }
        let cmpswap = def.operand(Role::Vdata).is_some_and(|o| o.ty.dwords() == 2);
        return match (cmpswap, n) {
            (true, 2 | 4) => n,
            (true, _) => 2,
            (false, 1 | 2) => n,
            // A 4-register atomic decodes with the 5-register class.
            (false, 4) => 5,
            (false, _) => 1,
        };
    }
    if def.has(flags::GATHER) {
        let c = if packed_d16 { 2 } else { 4 } + tfe;
        // There is no 3-register class among the gather results: d16 with TFE prints 4.
        return if matches!(c, 2 | 4 | 5) { c } else { 4 };
    }
    let c = pop.max(1);
    let c = if packed_d16 { c.div_ceil(2) } else { c };
    c + tfe
}

/// Appends an SGPR/TTMP tuple of `dwords` registers starting at SGPR-space `value`, as LLVM
/// decodes the MIMG resource and sampler operands.
///
/// Unlike single scalar operands, these tuples may reach s103 on every generation and
/// ttmp15 even on gfx8 (LLVM's tuple classes are not cut at the generation's register
/// count). A tuple starting at a 64-bit special register prints that register's name with
/// a comment, as LLVM does.
fn push_sreg_tuple(out: &mut String, gen: Gen, value: u32, dwords: u32) -> Result<(), PrintError> {
    match src_value(gen, value) {
        SrcValue::Reg(RegClass::Sgpr, n) if n + dwords <= 104 => {
            push_reg(out, RegClass::Sgpr, n, dwords);
        }
        SrcValue::Reg(RegClass::Ttmp, n) if n + dwords <= 16 => {
            push_reg(out, RegClass::Ttmp, n, dwords);
        }
        SrcValue::Special(s) => {
            let name = match s {
                Special::FlatScratchLo => "flat_scratch",
                Special::XnackMaskLo => "xnack_mask",
                Special::VccLo => "vcc",
                Special::TbaLo => "tba",
                Special::TmaLo => "tma",
                Special::ExecLo => "exec",
                _ => return Err(PrintError::Invalid),
            };
            let _ = write!(
                out,
                "{name}/*Invalid register, operand has 'SReg_{}' register class*/",
                dwords * 32
            );
        }
        _ => return Err(PrintError::Invalid),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// EXP
// ---------------------------------------------------------------------------------------

/// EXP: `exp TGT src0, src1, src2, src3 [done] [compr] [vm]`.
fn print_exp(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    out.push_str(inst.mnemonic());
    out.push(' ');
    push_exp_target(out, inst.field(Field::Tgt));
    let en = inst.field(Field::En);
    let compr = inst.field(Field::Compr) != 0;
    let vsrc = [
        inst.field(Field::Vsrc0),
        inst.field(Field::Vsrc1Exp),
        inst.field(Field::Vsrc2),
        inst.field(Field::Vsrc3),
    ];
    for slot in 0..4usize {
        out.push_str(if slot == 0 { " " } else { ", " });
        if en & (1 << slot) == 0 {
            out.push_str("off");
            continue;
        }
        // With compr each register holds two 16-bit components: LLVM prints slot k from
        // VSRC[k/2], so VSRC2 and VSRC3 are not printed at all.
        let reg = vsrc
            .get(if compr { slot >> 1 } else { slot })
            .copied()
            .unwrap_or(0);
        push_reg(out, RegClass::Vgpr, reg, 1);
    }
    for (field, name) in [
        (Field::Done, "done"),
        (Field::Compr, "compr"),
        (Field::Vm, "vm"),
    ] {
        if inst.field(field) != 0 {
            out.push(' ');
            out.push_str(name);
        }
    }
    Ok(())
}

/// The export target name; values no target uses print as `invalid_target_N`, as LLVM's
/// decoder does.
fn push_exp_target(out: &mut String, tgt: u32) {
    let _ = match tgt {
        0..=7 => write!(out, "mrt{tgt}"),
        8 => write!(out, "mrtz"),
        9 => write!(out, "null"),
        12..=15 => write!(out, "pos{}", tgt - 12),
        32..=63 => write!(out, "param{}", tgt - 32),
        _ => write!(out, "invalid_target_{tgt}"),
    };
}

// ---------------------------------------------------------------------------------------
// VINTRP
// ---------------------------------------------------------------------------------------

/// Appends `attrN.C`.
fn push_attr(out: &mut String, attr: u32, chan: u32) {
    let c = ['x', 'y', 'z', 'w'][(chan & 3) as usize];
    let _ = write!(out, "attr{attr}.{c}");
}

/// `p10`, `p20`, `p0`: the parameter select of v_interp_mov_f32; other values print as
/// `invalid_param_N`.
fn push_interp_param(out: &mut String, value: u32) {
    let _ = match value {
        0 => write!(out, "p10"),
        1 => write!(out, "p20"),
        2 => write!(out, "p0"),
        _ => write!(out, "invalid_param_{value}"),
    };
}

/// True for v_interp_mov_f32, whose vsrc is a parameter select instead of a register.
fn is_interp_mov(def: &InstrDef) -> bool {
    def.operand(Role::Vsrc)
        .is_some_and(|o| o.ty == DataType::U32)
}

/// VINTRP: `MNEMONIC vdst, vsrc, attrN.C`; gfx8+ disassembly appends `_e32`, while the
/// gfx6/gfx7 vectors are assembler input, which has no suffix.
fn print_vintrp(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    out.push_str(def.mnemonic);
    if !inst.gen.is_si_ci() {
        out.push_str("_e32");
    }
    out.push(' ');
    push_vreg(out, false, inst.field(Field::Vdst), 1)?;
    out.push_str(", ");
    let vsrc = inst.field(Field::Vsrc);
    if is_interp_mov(def) {
        push_interp_param(out, vsrc);
    } else {
        push_vreg(out, false, vsrc, 1)?;
    }
    out.push_str(", ");
    push_attr(out, inst.field(Field::Attr), inst.field(Field::AttrChan));
    Ok(())
}

/// The VOP3 `_e64` form: `MNEMONIC_e64 vdst, [-][|]vsrc[|], attrN.C [clamp] [omod]`.
///
/// src0 holds attr (bits 5:0) and chan (7:6); src1 holds vsrc with its neg/abs bits (or the
/// parameter select for v_interp_mov_f32, which takes no modifiers). LLVM rejects the word
/// when src0 bit 8, src2, or the neg/abs bits of src0/src2 are set; op_sel is ignored.
fn print_vintrp_e64(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let src0 = inst.field(Field::Src0);
    let abs = inst.field(Field::Abs);
    let neg = inst.field(Field::Neg);
    let mov = is_interp_mov(def);
    let allowed_mods = if mov { 0 } else { 0b010 };
    if src0 & 0x100 != 0
        || inst.field(Field::Src2) != 0
        || abs & !allowed_mods != 0
        || neg & !allowed_mods != 0
    {
        return Err(PrintError::Invalid);
    }
    out.push_str(def.mnemonic);
    out.push_str("_e64 ");
    push_vreg(out, false, inst.field(Field::Vdst), 1)?;
    out.push_str(", ");
    let src1 = inst.field(Field::Src1);
    if mov {
        push_interp_param(out, src1);
    } else {
        push_interp_src(out, gen, src1, neg != 0, abs != 0)?;
    }
    out.push_str(", ");
    push_attr(out, src0 & 0x3f, src0 >> 6);
    if inst.field(Field::Clamp) != 0 {
        out.push_str(" clamp");
    }
    match inst.field(Field::Omod) {
        1 => out.push_str(" mul:2"),
        2 => out.push_str(" mul:4"),
        3 => out.push_str(" div:2"),
        _ => {}
    }
    Ok(())
}

/// The vsrc operand of v_interp_p1/p2_f32_e64, a VGPR by the instruction's definition.
///
/// LLVM still decodes the other source values: scalar registers get a comment naming the
/// expected class, inline constants an `Invalid immediate` comment, while the constant-like
/// registers (src_shared_base…, null, src_vccz…) print bare; a literal is rejected. `neg` of a
/// constant without `abs` is written `neg(…)` so that it does not read as a negative number.
fn push_interp_src(
    out: &mut String,
    gen: Gen,
    value: u32,
    neg: bool,
    abs: bool,
) -> Result<(), PrintError> {
    let value_kind = src_value(gen, value);
    let constant = matches!(
        value_kind,
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_)
    );
    let neg_fn = neg && !abs && constant;
    if neg_fn {
        out.push_str("neg(");
    } else if neg {
        out.push('-');
    }
    if abs {
        out.push('|');
    }
    match value_kind {
        SrcValue::Reg(RegClass::Vgpr, n) => push_vreg(out, false, n, 1)?,
        SrcValue::InlineInt(_) | SrcValue::InlineFloat(_) => {
            push_src(out, gen, value, DataType::F32, None)?;
            out.push_str("/*Invalid immediate*/");
        }
        SrcValue::Special(s) if s.is_readonly_value() => push_scalar_reg(out, gen, value, 1)?,
        SrcValue::Reg(..) | SrcValue::Special(_) => {
            push_scalar_reg(out, gen, value, 1)?;
            out.push_str("/*Invalid register, operand has 'VGPR_32' register class*/");
        }
        SrcValue::Literal | SrcValue::Invalid(_) => return Err(PrintError::Invalid),
    }
    if abs {
        out.push('|');
    }
    if neg_fn {
        out.push(')');
    }
    Ok(())
}
