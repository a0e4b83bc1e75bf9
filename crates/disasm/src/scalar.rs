//! Printing of the scalar families: SOP2, SOPK, SOP1, SOPC, SOPP, SMRD and SMEM.

use std::fmt::Write as _;

use gcnkit_isa::symbolic::{hwreg_name, message_name, message_op_name};
use gcnkit_isa::{flags, DataType, Encoding, Field, Gen, Instruction, Role};

use crate::operands::{is_constant, push_class_note, push_imm, push_scalar_reg, push_src};
use crate::text::{push_hex, push_u64};
use crate::{PrintContext, PrintError};

/// Appends the text of `inst`.
pub(crate) fn print(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    out.push_str(inst.mnemonic());
    match inst.encoding {
        Encoding::Sopp => print_sopp(inst, ctx, out),
        Encoding::Smrd | Encoding::Smem => print_smem(inst, out),
        _ => print_salu(inst, ctx, out),
    }
}

fn sep(out: &mut String, first: &mut bool) {
    out.push_str(if *first { " " } else { ", " });
    *first = false;
}

/// SOP2, SOPK, SOP1, SOPC: operands in table order.
fn print_salu(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let mut first = true;
    for op in def.operands {
        sep(out, &mut first);
        match (inst.encoding, op.role) {
            // SOPK's one register operand always lives in the [22:16] field.
            (Encoding::Sopk, Role::Sdst | Role::Ssrc0) if !def.has(flags::IMM32) => {
                push_scalar_reg(out, gen, inst.field(Field::Sdst), op.ty.dwords())?;
            }
            (Encoding::Sopk, Role::Ssrc0) => {
                // s_setreg_imm32_b32: the value is the literal dword.
                let lit = inst.ext.ok_or(PrintError::Invalid)?;
                let start = out.len();
                push_imm(out, gen, lit as u64, DataType::I32);
                // llvm-mc-19 reads a real number here as a double and keeps its low 32 bits
                // (`1.0` becomes 0). On gfx6/gfx7, where the text must give the bytes back,
                // a value LLVM would print as a float prints in hex.
                if gen.is_si_ci() && out[start..].contains('.') {
                    out.truncate(start);
                    push_hex(out, lit as u64);
                }
            }
            (Encoding::Sopk, Role::Simm16) => print_sopk_imm(inst, ctx, out),
            (_, Role::Sdst) => push_scalar_reg(out, gen, inst.field(Field::Sdst), op.ty.dwords())?,
            (Encoding::Sopc, Role::Ssrc1) if def.has(flags::GPRIDX) => {
                push_gpr_idx(out, inst.field(Field::Ssrc1));
            }
            (_, Role::Ssrc0 | Role::Ssrc1) => {
                let field = if op.role == Role::Ssrc0 {
                    Field::Ssrc0
                } else {
                    Field::Ssrc1
                };
                let value = inst.field(field);
                if def.has(flags::SREGONLY) && is_constant(gen, value) {
                    // A register-only operand: LLVM decodes the constant at 32 bits and
                    // flags it.
                    push_src(out, gen, value, DataType::B32, inst.ext)?;
                    out.push_str("/*Invalid immediate*/");
                } else {
                    push_src(out, gen, value, op.ty, inst.ext)?;
                    if value == 254 {
                        // LDS_DIRECT is no scalar operand; LLVM prints it with a comment.
                        push_class_note(
                            out,
                            if op.ty.dwords() == 2 {
                                "SReg_64"
                            } else {
                                "SReg_32"
                            },
                        );
                    }
                }
            }
            _ => return Err(PrintError::Invalid),
        }
    }
    Ok(())
}

fn print_sopk_imm(inst: &Instruction, ctx: &PrintContext<'_>, out: &mut String) {
    let def = inst.def();
    let simm = inst.field(Field::Simm16);
    if def.has(flags::HWREG) {
        push_hwreg(out, inst.gen, simm);
    } else if def.has(flags::BRANCH) {
        push_branch(out, ctx, simm);
    } else {
        push_hex(out, simm as u64);
    }
}

fn push_branch(out: &mut String, ctx: &PrintContext<'_>, simm: u32) {
    match ctx.branch_label {
        Some(label) => out.push_str(label),
        None => {
            push_u64(out, simm as u64);
        }
    }
}

/// `gpr_idx(SRC0,SRC1,SRC2,DST)` for a 4-bit mode mask; larger values print in hex.
fn push_gpr_idx(out: &mut String, mask: u32) {
    if mask > 15 {
        push_hex(out, mask as u64);
        return;
    }
    out.push_str("gpr_idx(");
    let names = ["SRC0", "SRC1", "SRC2", "DST"];
    let mut first = true;
    for (bit, name) in names.iter().enumerate() {
        if mask & (1 << bit) != 0 {
            if !first {
                out.push(',');
            }
            out.push_str(name);
            first = false;
        }
    }
    out.push(')');
}

/// `hwreg(NAME)` or `hwreg(NAME, offset, size)`: id in bits 5:0, offset 10:6, size-1 15:11.
fn push_hwreg(out: &mut String, gen: Gen, simm: u32) {
    let id = simm & 0x3f;
    let offset = (simm >> 6) & 0x1f;
    let size = ((simm >> 11) & 0x1f) + 1;
    out.push_str("hwreg(");
    match hwreg_name(gen, id) {
        Some(name) => {
            let _ = write!(out, "HW_REG_{name}");
        }
        None => {
            push_u64(out, id as u64);
        }
    }
    if offset != 0 || size != 32 {
        let _ = write!(out, ", {offset}, {size}");
    }
    out.push(')');
}

/// SOPP: the 16-bit immediate, shaped by the row's flags.
fn print_sopp(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    let def = inst.def();
    let simm = inst.field(Field::Simm16);
    if def.has(flags::NOOPS) {
        return if simm == 0 {
            Ok(())
        } else {
            Err(PrintError::Invalid)
        };
    }
    if def.has(flags::OPTIMM) {
        if simm != 0 {
            out.push(' ');
            push_u64(out, simm as u64);
        }
        return Ok(());
    }
    out.push(' ');
    if def.has(flags::BRANCH) {
        push_branch(out, ctx, simm);
    } else if def.has(flags::WAITCNT) {
        push_waitcnt(out, inst.gen, simm);
    } else if def.has(flags::SENDMSG) {
        push_sendmsg(out, inst.gen, simm);
    } else if def.has(flags::GPRIDX) {
        push_gpr_idx(out, simm);
    } else {
        push_small_imm(out, simm);
    }
    Ok(())
}

/// An unsigned immediate as LLVM prints plain immediates: decimal up to 64, hex above.
fn push_small_imm(out: &mut String, value: u32) {
    if value <= 64 {
        push_u64(out, value as u64);
    } else {
        push_hex(out, value as u64);
    }
}

/// `vmcnt(N) expcnt(N) lgkmcnt(N)`, leaving out counters at their maximum unless all are.
fn push_waitcnt(out: &mut String, gen: Gen, simm: u32) {
    let (vm, vm_max) = if gen.is_gfx9_family() {
        ((simm & 0xf) | ((simm >> 14) & 3) << 4, 63)
    } else {
        (simm & 0xf, 15)
    };
    let exp = (simm >> 4) & 7;
    let lgkm = (simm >> 8) & 0xf;
    let all_max = vm == vm_max && exp == 7 && lgkm == 15;
    let mut first = true;
    for (name, value, max) in [
        ("vmcnt", vm, vm_max),
        ("expcnt", exp, 7),
        ("lgkmcnt", lgkm, 15),
    ] {
        if value != max || all_max {
            if !first {
                out.push(' ');
            }
            out.push_str(name);
            out.push('(');
            push_u64(out, value as u64);
            out.push(')');
            first = false;
        }
    }
}

/// `sendmsg(MSG[, OP[, STREAM]])`, the numeric `sendmsg(id, op, stream)` when LLVM cannot
/// name it, or the raw value when even that does not describe the bits.
fn push_sendmsg(out: &mut String, gen: Gen, simm: u32) {
    let id = simm & 0xf;
    let op = (simm >> 4) & 7;
    let stream = (simm >> 8) & 3;
    let named = message_name(gen, id).and_then(|name| {
        let (op_name, with_stream) = match id {
            // MSG_GS always has an operation (LLVM prints no name for op 0, GS_OP_NOP,
            // there); with one other than GS_OP_NOP the stream is printed too.
            2 | 3 => {
                if op == 0 && id == 2 {
                    return None;
                }
                (Some(message_op_name(gen, id, op)?), op != 0)
            }
            15 => (Some(message_op_name(gen, id, op)?), false),
            _ => (None, false),
        };
        if op_name.is_none() && op != 0 {
            return None;
        }
        if !with_stream && stream != 0 {
            return None;
        }
        Some((name, op_name, with_stream))
    });
    match named {
        Some((name, op_name, with_stream)) => {
            let _ = write!(out, "sendmsg({name}");
            if let Some(op_name) = op_name {
                let _ = write!(out, ", {op_name}");
                if with_stream {
                    let _ = write!(out, ", {stream}");
                }
            }
            out.push(')');
        }
        // LLVM's named form ignores the other bits; the numeric one must describe them all.
        None if id | op << 4 | stream << 8 == simm => {
            let _ = write!(out, "sendmsg({id}, {op}, {stream})");
        }
        None => push_u64(out, simm as u64),
    }
}

/// The SMEM data operand: LLVM's register classes for it leave out m0 and exec
/// (`SReg_32_XM0_XEXEC`, `SReg_64_XEXEC`), and it marks those with a comment.
fn push_sdata(out: &mut String, gen: Gen, value: u32, dwords: u32) -> Result<(), PrintError> {
    push_scalar_reg(out, gen, value, dwords)?;
    match (dwords, value) {
        (1, 124 | 126 | 127) => push_class_note(out, "SReg_32_XM0_XEXEC"),
        (2, 126) => push_class_note(out, "SReg_64_XEXEC"),
        _ => {}
    }
    Ok(())
}

/// Appends a signed offset as LLVM prints SMEM offsets: `0x40`, `-0x10`.
fn push_signed_hex(out: &mut String, value: i64) {
    if value < 0 {
        out.push('-');
        push_hex(out, value.unsigned_abs());
    } else {
        push_hex(out, value as u64);
    }
}

/// SMRD and SMEM.
fn print_smem(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let smrd = inst.encoding == Encoding::Smrd;
    let imm = inst.field(Field::Imm) != 0;
    let data_field = if smrd { Field::Sdst } else { Field::Sdata };
    if def.has(flags::NOOFFSET) {
        if imm {
            return Err(PrintError::Invalid);
        }
        if let Some(op) = def.operand(Role::Sdata) {
            out.push(' ');
            push_scalar_reg(out, gen, inst.field(data_field), op.ty.dwords())?;
        }
        return Ok(());
    }
    let mut first = true;
    if let Some(op) = def.operand(Role::Sdata) {
        sep(out, &mut first);
        if def.has(flags::PROBE) {
            push_small_imm(out, inst.field(data_field));
        } else {
            push_sdata(out, gen, inst.field(data_field), op.ty.dwords())?;
        }
    }
    let sbase = def.operand(Role::Sbase).ok_or(PrintError::Invalid)?;
    sep(out, &mut first);
    push_scalar_reg(out, gen, inst.field(Field::Sbase) * 2, sbase.ty.dwords())?;
    out.push_str(", ");
    let offset = inst.field(Field::Offset);
    if smrd {
        if imm {
            push_hex(out, offset as u64);
        } else if offset == 255 && gen == Gen::Gfx7 {
            let lit = inst.ext.ok_or(PrintError::Invalid)?;
            push_hex(out, lit as u64);
        } else {
            push_scalar_reg(out, gen, offset, 1)?;
        }
        return Ok(());
    }
    let soe = gen != Gen::Gfx8 && inst.field(Field::Soe) != 0;
    let signed_offset = |v: u32| -> i64 {
        if gen == Gen::Gfx8 {
            (v & 0xf_ffff) as i64
        } else {
            ((v << 11) as i32 >> 11) as i64
        }
    };
    match (imm, soe) {
        (true, false) => push_signed_hex(out, signed_offset(offset)),
        (false, false) => push_scalar_reg(out, gen, offset & 0x7f, 1)?,
        (false, true) => push_scalar_reg(out, gen, inst.field(Field::Soffset), 1)?,
        (true, true) => {
            push_scalar_reg(out, gen, inst.field(Field::Soffset), 1)?;
            out.push_str(" offset:");
            push_signed_hex(out, signed_offset(offset));
        }
    }
    // s_atc_probe* and s_dcache_discard* decode the glc bit but LLVM does not print it.
    if inst.field(Field::Glc) != 0 && !def.has(flags::PROBE) && !def.has(flags::NOSDATA) {
        out.push_str(" glc");
    }
    Ok(())
}
