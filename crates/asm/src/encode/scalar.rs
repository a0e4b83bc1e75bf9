//! The scalar families: SOP2, SOP1, SOPC, SOPK, SOPP, and scalar memory (SMRD, SMEM).

use gcnkit_isa::{flags, DataType, Encoding, Field, Gen, InstrDef, Role};

use super::{expect_count, operand, Asm, INVALID_OPERAND};
use crate::error::AsmError;
use crate::operand::{Arg, Operand, Value};
use crate::symbolic;
use crate::{Fixup, FixupKind};

/// SOP2, SOP1, SOPC, SOPK, SOPP.
pub(super) fn encode(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let op = def.opcode(a.gen).unwrap_or(0);
    a.set(Field::Op, op as u32);
    if def.encoding == Encoding::Sopp {
        return encode_sopp(a, def, ops);
    }
    expect_count(ops, def.operands.len(), a.src)?;
    for (i, od) in def.operands.iter().enumerate() {
        let o = &ops[i];
        match (def.encoding, od.role) {
            (Encoding::Sopk, Role::Ssrc0) if def.has(flags::IMM32) => {
                // s_setreg_imm32_b32: the value is always a literal dword.
                let v = a
                    .eval(o)?
                    .ok_or_else(|| AsmError::new(o.span.clone(), INVALID_OPERAND))?;
                if i32::try_from(v).is_err() && u32::try_from(v).is_err() {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                a.literal(v as u32, &o.span)?;
            }
            (Encoding::Sopk, Role::Sdst | Role::Ssrc0) => {
                let v = sdst(a, o, od.ty)?;
                a.set(Field::Sdst, v);
            }
            (Encoding::Sopk, Role::Simm16) => {
                let v = sopk_imm(a, def, o)?;
                a.set(Field::Simm16, v);
            }
            (_, Role::Sdst) => {
                let v = sdst(a, o, od.ty)?;
                a.set(Field::Sdst, v);
            }
            (Encoding::Sopc, Role::Ssrc1) if def.has(flags::GPRIDX) => {
                let v = gpr_idx_operand(a, o, 15)?;
                a.set(Field::Ssrc1, v);
            }
            (_, Role::Ssrc0 | Role::Ssrc1) => {
                let field = if od.role == Role::Ssrc0 {
                    Field::Ssrc0
                } else {
                    Field::Ssrc1
                };
                let v = if def.has(flags::SREGONLY) {
                    a.sreg(o, od.ty.dwords())?
                } else {
                    a.ssrc(o, od.ty, true)?
                };
                // s_cbranch_g_fork's sources are register pairs (inline constants pass).
                if v == 255 && def.mnemonic == "s_cbranch_g_fork" {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                if v == crate::register::LDS_DIRECT {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                a.set(field, v);
            }
            _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        }
    }
    Ok(())
}

/// A scalar destination (7-bit field).
fn sdst(a: &Asm<'_>, o: &Operand, ty: DataType) -> Result<u32, AsmError> {
    let v = a.sreg(o, ty.dwords())?;
    if v >= 128 {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    Ok(v)
}

/// A 16-bit immediate: signed or unsigned 16-bit values.
fn imm16(a: &mut Asm<'_>, o: &Operand, msg: &str) -> Result<u32, AsmError> {
    if o.mods.any() {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    match &o.value {
        Value::Int(_) | Value::Ident(_) | Value::Expr(_) => {}
        _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
    }
    match a.eval(o)? {
        Some(v) if (-0x8000..=0xffff).contains(&v) => Ok(v as u32 & 0xffff),
        Some(_) => Err(AsmError::new(o.span.clone(), msg)),
        None => {
            let expr = a.expr_of(o);
            a.fixups.push(Fixup {
                offset: 0,
                kind: FixupKind::Simm16,
                expr,
            });
            Ok(0)
        }
    }
}

fn sopk_imm(a: &mut Asm<'_>, def: &InstrDef, o: &Operand) -> Result<u32, AsmError> {
    if def.has(flags::HWREG) {
        if let Value::Call(name, args) = &o.value {
            if a.text(name) != "hwreg" {
                return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
            }
            return symbolic::hwreg(a.src, a.gen, args, &o.span);
        }
        return imm16(a, o, "invalid immediate: only 16-bit values are legal");
    }
    if def.has(flags::BRANCH) {
        return branch(a, o);
    }
    imm16(a, o, INVALID_OPERAND)
}

/// A branch target: a raw offset for a plain number, else a label resolved now or later.
fn branch(a: &mut Asm<'_>, o: &Operand) -> Result<u32, AsmError> {
    match &o.value {
        Value::Int(v) => {
            if !(-0x8000..=0xffff).contains(v) {
                return Err(AsmError::new(
                    o.span.clone(),
                    "invalid immediate: only 16-bit values are legal",
                ));
            }
            Ok(*v as u32 & 0xffff)
        }
        Value::Ident(_) | Value::Expr(_) if !o.mods.any() => {
            let target = a.eval(o)?;
            let pc = a.syms.value(".");
            if let (Some(t), Some(pc)) = (target, pc) {
                let delta = t.wrapping_sub(pc + 4);
                if delta % 4 != 0 || !(-0x8000..=0x7fff).contains(&(delta / 4)) {
                    return Err(AsmError::new(o.span.clone(), "branch target out of range"));
                }
                return Ok((delta / 4) as u32 & 0xffff);
            }
            let expr = a.expr_of(o);
            a.fixups.push(Fixup {
                offset: 0,
                kind: FixupKind::BranchSimm16,
                expr,
            });
            Ok(0)
        }
        _ => Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
    }
}

fn gpr_idx_operand(a: &mut Asm<'_>, o: &Operand, max: i64) -> Result<u32, AsmError> {
    match &o.value {
        Value::Call(name, args) if a.text(name) == "gpr_idx" => {
            symbolic::gpr_idx(a.src, args, &o.span)
        }
        _ => match a.eval(o)? {
            Some(v) if (0..=max).contains(&v) => Ok(v as u32),
            Some(_) => Err(AsmError::new(
                o.span.clone(),
                "invalid immediate: only 4-bit values are legal",
            )),
            None => Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        },
    }
}

fn encode_sopp(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    if def.has(flags::NOOPS) {
        return expect_count(ops, 0, a.src);
    }
    if def.has(flags::OPTIMM) && ops.is_empty() {
        return Ok(());
    }
    if def.has(flags::WAITCNT) {
        let v = waitcnt(a, ops)?;
        a.set(Field::Simm16, v);
        return Ok(());
    }
    expect_count(ops, 1, a.src)?;
    let o = &ops[0];
    let v = if def.has(flags::BRANCH) {
        branch(a, o)?
    } else if def.has(flags::SENDMSG) {
        match &o.value {
            Value::Call(name, args) if a.text(name) == "sendmsg" => {
                symbolic::sendmsg(a.src, a.gen, args, &o.span)?
            }
            _ => imm16(a, o, "invalid immediate: only 16-bit values are legal")?,
        }
    } else if def.has(flags::GPRIDX) {
        gpr_idx_operand(a, o, 15)?
    } else {
        imm16(a, o, "invalid immediate: only 16-bit values are legal")?
    };
    a.set(Field::Simm16, v);
    Ok(())
}

/// `s_waitcnt`: counters in any order (separated by spaces, `&` or `,`), or a number.
fn waitcnt(a: &mut Asm<'_>, ops: &[Operand]) -> Result<u32, AsmError> {
    let first = operand(ops, 0, a.src)?;
    if !matches!(first.value, Value::Call(..)) {
        expect_count(ops, 1, a.src)?;
        return imm16(a, first, "invalid immediate: only 16-bit values are legal");
    }
    let mut word = symbolic::waitcnt_default(a.gen);
    for o in ops {
        let Value::Call(name, args) = &o.value else {
            return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
        };
        let name_text = a.text(name);
        let v = match args.as_slice() {
            [Arg::Int(v)] => *v,
            _ => {
                return Err(AsmError::new(
                    o.span.clone(),
                    "expected absolute expression",
                ))
            }
        };
        word = symbolic::waitcnt_counter(a.gen, word, name_text, v, &o.span)?;
    }
    Ok(word)
}

/// SMRD (gfx6/7) and SMEM (gfx8+).
pub(super) fn encode_smem(
    a: &mut Asm<'_>,
    def: &InstrDef,
    ops: &[Operand],
) -> Result<(), AsmError> {
    let gen = a.gen;
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    let smrd = def.encoding == Encoding::Smrd;
    let data_field = if smrd { Field::Sdst } else { Field::Sdata };
    let sdata = def.operand(Role::Sdata);
    if def.has(flags::NOOFFSET) {
        expect_count(ops, usize::from(sdata.is_some()), a.src)?;
        if let (Some(d), Some(o)) = (sdata, ops.first()) {
            let v = sdst(a, o, d.ty)?;
            a.set(data_field, v);
        }
        return Ok(());
    }
    let mut i = 0;
    if let Some(d) = sdata {
        let o = operand(ops, 0, a.src)?;
        let v = if def.has(flags::PROBE) {
            match a.eval(o)? {
                Some(v) if (0..128).contains(&v) => v as u32,
                _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
            }
        } else {
            sdst(a, o, d.ty)?
        };
        a.set(data_field, v);
        i = 1;
    }
    let sbase_def = def.operand(Role::Sbase).map_or(DataType::B64, |o| o.ty);
    let sb = operand(ops, i, a.src)?;
    let sbase = a.sreg(sb, sbase_def.dwords())?;
    if sbase >= 128 || sbase % 2 != 0 {
        return Err(AsmError::new(sb.span.clone(), INVALID_OPERAND));
    }
    a.set(Field::Sbase, sbase / 2);
    expect_count(ops, i + 2, a.src)?;
    let off = &ops[i + 1];
    if smrd {
        smrd_offset(a, off)?;
    } else {
        smem_offset(a, off)?;
        if a.flag("glc") {
            a.set(Field::Glc, 1);
        }
    }
    Ok(())
}

fn smrd_offset(a: &mut Asm<'_>, off: &Operand) -> Result<(), AsmError> {
    if let Value::Reg(_) = off.value {
        let v = a.sreg(off, 1)?;
        a.set(Field::Offset, v);
        return Ok(());
    }
    let v = a
        .eval(off)?
        .ok_or_else(|| AsmError::new(off.span.clone(), INVALID_OPERAND))?;
    if (0..=255).contains(&v) {
        a.set(Field::Imm, 1);
        a.set(Field::Offset, v as u32);
    } else if a.gen == Gen::Gfx7 && (0..=u32::MAX as i64).contains(&v) {
        // Sea Islands: a 32-bit literal byte offset follows.
        a.set(Field::Offset, 255);
        a.literal(v as u32, &off.span)?;
    } else {
        return Err(AsmError::new(off.span.clone(), INVALID_OPERAND));
    }
    Ok(())
}

fn smem_offset(a: &mut Asm<'_>, off: &Operand) -> Result<(), AsmError> {
    let gen = a.gen;
    let imm_mod = a.int_mod("offset")?;
    if let Value::Reg(_) = off.value {
        let v = a.sreg(off, 1)?;
        match imm_mod {
            Some((n, span)) if gen != Gen::Gfx8 => {
                smem_imm(a, n, &span)?;
                a.set(Field::Soe, 1);
                a.set(Field::Soffset, v);
            }
            Some((_, span)) => return Err(AsmError::new(span, INVALID_OPERAND)),
            None => a.set(Field::Offset, v),
        }
        return Ok(());
    }
    if let Some((_, span)) = imm_mod {
        return Err(AsmError::new(span, INVALID_OPERAND));
    }
    let v = a
        .eval(off)?
        .ok_or_else(|| AsmError::new(off.span.clone(), INVALID_OPERAND))?;
    smem_imm(a, v, &off.span)
}

fn smem_imm(a: &mut Asm<'_>, v: i64, span: &std::ops::Range<usize>) -> Result<(), AsmError> {
    let (ok, mask) = if a.gen == Gen::Gfx8 {
        ((0..1 << 20).contains(&v), 0xf_ffff)
    } else {
        ((-(1 << 20)..1 << 20).contains(&v), 0x1f_ffff)
    };
    if !ok {
        let msg = if a.gen == Gen::Gfx8 {
            "expected a 20-bit unsigned offset"
        } else {
            "expected a 21-bit signed offset"
        };
        return Err(AsmError::new(span.clone(), msg));
    }
    a.set(Field::Imm, 1);
    a.set(Field::Offset, (v as u32) & mask);
    Ok(())
}
