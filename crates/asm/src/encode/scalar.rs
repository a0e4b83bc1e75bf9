//! The scalar families: SOP2, SOP1, SOPC, SOPK, SOPP, and scalar memory (SMRD, SMEM).

use gcnkit_isa::{flags, DataType, Encoding, Field, Gen, InstrDef, Role};
use std::ops::Range;

use super::{expect_count, operand, order, Asm, INVALID_OPERAND};
use crate::error::AsmError;
use crate::expr::Expr;
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
                // s_setreg_imm32_b32: the value is always a literal dword (of a float
                // token, the low half of the double, as llvm-mc takes it).
                no_mods(o)?;
                let v = match &o.value {
                    Value::Float(f) => f.to_bits() as u32 as i64,
                    _ => a
                        .eval(o)?
                        .ok_or_else(|| AsmError::new(o.span.clone(), INVALID_OPERAND))?,
                };
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
                no_mods(o)?;
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

/// llvm-mc's message for a symbol without a value where a hwreg operand belongs.
const HWREG_EXPECTED: &str =
    "expected a hwreg macro, structured immediate or an absolute expression";
/// The same for a sendmsg operand.
const SENDMSG_EXPECTED: &str = "expected a sendmsg macro or an absolute expression";
/// The same for s_waitcnt, s_endpgm and gpr_idx operands.
const ABSOLUTE_EXPECTED: &str = "expected absolute expression";

/// A 16-bit immediate: signed or unsigned 16-bit values. Its value must be known when the
/// statement is read (llvm-mc has no fixup for these fields): `unresolved` is the error
/// otherwise.
fn imm16(a: &mut Asm<'_>, o: &Operand, msg: &str, unresolved: &str) -> Result<u32, AsmError> {
    if o.mods.any() {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    match &o.value {
        Value::Ident(r) if a.text(r) == "off" => {
            return Err(AsmError::new(o.span.clone(), INVALID_OPERAND))
        }
        Value::Int(_) | Value::Float(_) | Value::Ident(_) | Value::Expr(_) => {}
        _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
    }
    match a.eval(o)? {
        Some(v) if (-0x8000..=0xffff).contains(&v) => Ok(v as u32 & 0xffff),
        Some(_) => Err(AsmError::new(o.span.clone(), msg)),
        None => Err(AsmError::new(o.span.clone(), unresolved)),
    }
}

/// A plain SOPP immediate: llvm-mc keeps the low 16 bits of any value (of a float token,
/// of its double).
fn sopp_imm16(a: &mut Asm<'_>, o: &Operand, unresolved: &str) -> Result<u32, AsmError> {
    match &o.value {
        Value::Float(f) if !o.mods.any() => Ok(f.to_bits() as u32 & 0xffff),
        Value::Int(v) if !o.mods.any() => Ok(*v as u32 & 0xffff),
        _ => imm16(
            a,
            o,
            "invalid immediate: only 16-bit values are legal",
            unresolved,
        ),
    }
}

/// A numeric `hwreg`/`sendmsg` operand: 0..=0xffff.
fn uimm16(a: &mut Asm<'_>, o: &Operand, unresolved: &str) -> Result<u32, AsmError> {
    // `lit()` is no hwreg or sendmsg operand.
    if o.mods.lit {
        return Err(AsmError::new(o.span.clone(), unresolved));
    }
    let v = imm16(
        a,
        o,
        "invalid immediate: only 16-bit values are legal",
        unresolved,
    )?;
    if matches!(a.eval(o), Ok(Some(n)) if n < 0) {
        return Err(AsmError::new(
            o.span.clone(),
            "invalid immediate: only 16-bit values are legal",
        ));
    }
    Ok(v)
}

fn sopk_imm(a: &mut Asm<'_>, def: &InstrDef, o: &Operand) -> Result<u32, AsmError> {
    if def.has(flags::HWREG) {
        if let Value::Call(name, args) = &o.value {
            if a.text(name) != "hwreg" {
                return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
            }
            return symbolic::hwreg(a.src, a.gen, args, &o.span);
        }
        if let Value::Struct(fields) = &o.value {
            return symbolic::hwreg_struct(a.src, fields);
        }
        return uimm16(a, o, HWREG_EXPECTED);
    }
    if def.has(flags::BRANCH) {
        return branch(a, o);
    }
    let v = imm16(a, o, INVALID_OPERAND, INVALID_OPERAND)?;
    // An unsigned compare takes 0..=0xffff only.
    let unsigned = def
        .operand(Role::Simm16)
        .is_some_and(|d| d.ty == DataType::U16);
    if unsigned && matches!(a.eval(o), Ok(Some(n)) if n < 0) {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    Ok(v)
}

/// A branch target: a raw offset for a plain number, else a label resolved now or later.
fn branch(a: &mut Asm<'_>, o: &Operand) -> Result<u32, AsmError> {
    if o.mods.any() || o.mods.lit {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    // A branch target is an expression: a real number is the integer of its double's
    // bits, and a sign negates that integer (`-4.9e-324` is -1).
    let real = match &o.value {
        Value::Float(f) if f.is_sign_negative() => Some((f.abs().to_bits() as i64).wrapping_neg()),
        Value::Float(f) => Some(f.to_bits() as i64),
        _ => None,
    };
    match real.as_ref().map_or(&o.value, |_| &Value::Int(0)) {
        Value::Int(v) => {
            let v = &real.unwrap_or(*v);
            if !(-0x8000..=0xffff).contains(v) {
                return Err(AsmError::new(
                    o.span.clone(),
                    "expected a 16-bit signed jump offset",
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
            // Without a value yet, llvm-mc takes a label (or `.`) alone, not an expression
            // of one.
            if !matches!(expr, Expr::Sym { .. } | Expr::Dot) {
                return Err(AsmError::new(
                    o.span.clone(),
                    "expected an absolute expression or a label",
                ));
            }
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
        _ if o.mods.any() || o.mods.lit => Err(AsmError::new(o.span.clone(), ABSOLUTE_EXPECTED)),
        _ => match a.eval(o)? {
            Some(v) if (0..=max).contains(&v) => Ok(v as u32),
            Some(_) => Err(AsmError::new(
                o.span.clone(),
                "invalid immediate: only 4-bit values are legal",
            )),
            None => Err(AsmError::new(o.span.clone(), ABSOLUTE_EXPECTED)),
        },
    }
}

fn encode_sopp(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    if def.has(flags::NOOPS) {
        return expect_count(ops, 0, a.src);
    }
    if def.has(flags::OPTIMM) {
        // s_endpgm's optional immediate: 0..=0xffff.
        if let Some(o) = ops.first() {
            expect_count(ops, 1, a.src)?;
            let v = match (&o.value, a.eval(o)) {
                (Value::Int(_), Ok(Some(v)))
                    if (0..=0xffff).contains(&v) && !o.mods.any() && !o.mods.lit =>
                {
                    v
                }
                (Value::Ident(_) | Value::Expr(_), Ok(None)) => {
                    return Err(AsmError::new(o.span.clone(), ABSOLUTE_EXPECTED))
                }
                _ if o.mods.lit => return Err(AsmError::new(o.span.clone(), ABSOLUTE_EXPECTED)),
                _ => return Err(AsmError::new(o.span.clone(), "expected a 16-bit value")),
            };
            a.set(Field::Simm16, v as u32);
        }
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
            _ => uimm16(a, o, SENDMSG_EXPECTED)?,
        }
    } else if def.has(flags::GPRIDX) {
        gpr_idx_operand(a, o, 15)?
    } else {
        sopp_imm16(a, o, INVALID_OPERAND)?
    };
    a.set(Field::Simm16, v);
    Ok(())
}

/// `s_waitcnt`: counters in any order (separated by spaces, `&` or `,`), or a number.
fn waitcnt(a: &mut Asm<'_>, ops: &[Operand]) -> Result<u32, AsmError> {
    let first = operand(ops, 0, a.src)?;
    if !matches!(first.value, Value::Call(..)) {
        // llvm-mc reads `lit(` as a counter name.
        if first.mods.lit {
            let name = first.span.start..first.span.start + 3;
            return Err(AsmError::new(name, "invalid counter name lit"));
        }
        expect_count(ops, 1, a.src)?;
        return sopp_imm16(a, first, ABSOLUTE_EXPECTED);
    }
    let mut word = symbolic::waitcnt_default(a.gen);
    for o in ops {
        let Value::Call(name, args) = &o.value else {
            return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
        };
        let name_text = a.text(name);
        let v = match args.as_slice() {
            [Arg::Int(v, _)] => *v,
            _ => {
                return Err(AsmError::new(
                    o.span.clone(),
                    "expected absolute expression",
                ))
            }
        };
        let value_span = call_args_span(a.src, &o.span);
        word = symbolic::waitcnt_counter(a.gen, word, name_text, v, &o.span, &value_span)?;
    }
    Ok(word)
}

/// The text between the parentheses of a call operand, without leading blanks.
fn call_args_span(src: &str, span: &Range<usize>) -> Range<usize> {
    let text = &src[span.clone()];
    let open = text.find('(').map_or(0, |i| i + 1);
    let rest = &text[open..];
    let start = span.start + open + (rest.len() - rest.trim_start().len());
    start..span.end
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
    a.order = order::SMEM;
    let data_field = if smrd { Field::Sdst } else { Field::Sdata };

    let sdata = def.operand(Role::Sdata);
    if def.has(flags::NOOFFSET) {
        expect_count(ops, usize::from(sdata.is_some()), a.src)?;
        if let (Some(d), Some(o)) = (sdata, ops.first()) {
            let v = sdst(a, o, d.ty)?;
            // Neither m0 nor exec is SMEM data for llvm-mc (its SReg_*_XM0_XEXEC classes).
            if matches!(v, 124 | 126 | 127) {
                return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
            }
            a.set(data_field, v);
        }
        return Ok(());
    }
    // A repeated glc is left to the modifier-order check, as llvm-mc reports that first.
    if smrd && a.mods.iter().filter(|m| m.name == "glc").count() == 1 {
        if let Some(m) = a.take("glc") {
            return Err(AsmError::new(
                m.span.clone(),
                "cache policy is not supported for SMRD instructions",
            ));
        }
    }
    // SMRD has no cache policy, but llvm-mc takes the negated glc there.
    if smrd && a.mods.iter().any(|m| m.name == "noglc") {
        a.take("noglc");
    }
    let mut i = 0;
    if let Some(d) = sdata {
        let o = operand(ops, 0, a.src)?;
        let v = if def.has(flags::PROBE) {
            let v = match &o.value {
                Value::Float(f) => Some(f.to_bits() as i64 & 0x7f),
                _ => a.eval(o)?,
            };
            match v {
                Some(v) if (0..128).contains(&v) => v as u32,
                _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
            }
        } else {
            let v = sdst(a, o, d.ty)?;
            // Neither m0 nor exec is SMEM data for llvm-mc (its SReg_*_XM0_XEXEC classes).
            if matches!(v, 124 | 126 | 127) {
                return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
            }
            v
        };
        a.set(data_field, v);
        i = 1;
    }
    let sbase_def = def.operand(Role::Sbase).map_or(DataType::B64, |o| o.ty);
    a.smem_buffer = sbase_def.dwords() == 4;
    let sb = operand(ops, i, a.src)?;
    let sbase = a.sreg(sb, sbase_def.dwords())?;
    if sbase >= 128 || sbase % 2 != 0 {
        return Err(AsmError::new(sb.span.clone(), INVALID_OPERAND));
    }
    a.set(Field::Sbase, sbase / 2);
    // The probes and the cache discards have no cache-policy operand in LLVM.
    let takes_glc = !smrd && !def.has(flags::PROBE) && !def.has(flags::NOSDATA);
    // A missing offset is the immediate 0 (llvm-mc's default).
    if ops.len() == i + 1 {
        a.set(Field::Imm, 1);
        if takes_glc && a.bit("glc") {
            a.set(Field::Glc, 1);
        }
        return Ok(());
    }
    expect_count(ops, i + 2, a.src)?;
    let off = &ops[i + 1];
    if smrd {
        smrd_offset(a, off)?;
    } else {
        smem_offset(a, off)?;
        if takes_glc && a.bit("glc") {
            a.set(Field::Glc, 1);
        }
    }
    Ok(())
}

fn smrd_offset(a: &mut Asm<'_>, off: &Operand) -> Result<(), AsmError> {
    no_mods(off)?;
    if let Value::Reg(_) = off.value {
        let v = smem_soffset(a, off)?;
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

/// An SGPR offset of scalar memory: a register of the SGPR space (llvm-mc 19 also takes
/// `src_scc`/`src_vccz`/`src_execz` and truncates them to 7 bits, a bug gcnkit does not
/// copy: docs/llvm-differences.md).
fn smem_soffset(a: &Asm<'_>, off: &Operand) -> Result<u32, AsmError> {
    let v = a.sreg(off, 1)?;
    if v >= 128 {
        return Err(AsmError::new(off.span.clone(), INVALID_OPERAND));
    }
    Ok(v)
}

/// Scalar operands take no source modifiers ("not a valid operand.", as llvm-mc says).
fn no_mods(o: &Operand) -> Result<(), AsmError> {
    if o.mods.any() {
        return Err(AsmError::new(o.span.clone(), super::order::NOT_VALID));
    }
    Ok(())
}

fn smem_offset(a: &mut Asm<'_>, off: &Operand) -> Result<(), AsmError> {
    no_mods(off)?;
    let gen = a.gen;
    let imm_mod = a.int_mod("offset")?;
    if let Value::Reg(_) = off.value {
        let v = smem_soffset(a, off)?;
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

/// The SMEM immediate offset: 20-bit unsigned on gfx8 and for the buffer loads (128-bit
/// sbase), 21-bit signed otherwise.
fn smem_imm(a: &mut Asm<'_>, v: i64, span: &std::ops::Range<usize>) -> Result<(), AsmError> {
    let unsigned = a.gen == Gen::Gfx8 || a.smem_buffer;
    let (ok, mask) = if unsigned {
        ((0..1 << 20).contains(&v), 0xf_ffff)
    } else {
        ((-(1 << 20)..1 << 20).contains(&v), 0x1f_ffff)
    };
    if !ok {
        let msg = if unsigned {
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
