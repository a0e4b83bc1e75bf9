//! VOP1, VOP2 and VOPC in all their forms: the 32-bit encoding (`_e32`), the VOP3 encoding
//! (`_e64`), SDWA (`_sdwa`) and DPP (`_dpp`).
//!
//! Without a suffix llvm-mc picks SDWA or DPP when their modifiers are present, else the
//! 32-bit form when it can express the operands, else the VOP3 form.

use std::ops::Range;

use gcnkit_isa::decode::vop3_base;
use gcnkit_isa::{flags, DataType, Encoding, Field, InstrDef, Role};

use super::caps::{take_clamp, take_omod, Caps};
use super::{bus, expect_count, order, Asm, Want, INVALID_OPERAND};
use crate::error::AsmError;
use crate::operand::{ModValue, Operand, Stmt, Value};
use crate::register::{RegFile, LDS_DIRECT};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    E32,
    E64,
    Sdwa,
    Dpp,
}

const SDWA_MODS: &[&str] = &["dst_sel", "dst_unused", "src0_sel", "src1_sel"];

/// The error to report when two forms fail. llvm-mc validates (constant bus, literals, modifier
/// values) only a form whose operands matched, so a specific error of a later form outranks a
/// plain operand mismatch of an earlier one.
fn prefer(earlier: Option<AsmError>, later: AsmError) -> AsmError {
    match earlier {
        Some(e) if !is_mismatch(&e) || is_mismatch(&later) => e,
        _ => later,
    }
}

/// True for the errors llvm-mc's matcher gives when a form's operands do not fit.
fn is_mismatch(e: &AsmError) -> bool {
    e.message == INVALID_OPERAND
        || e.message == super::TOO_FEW_OPERANDS
        || e.message
            .ends_with("variant of this instruction is not supported")
}

/// Encodes a VOP1/VOP2/VOPC row in the form the suffix (or the operands) ask for.
pub(super) fn encode(
    a: &mut Asm<'_>,
    def: &InstrDef,
    s: &Stmt<'_>,
    want: Want,
) -> Result<(), AsmError> {
    let gen = a.gen;
    let sdwa = SDWA_MODS.iter().any(|m| a.has_mod(m));
    // Every DPP control names the DPP form.
    let dpp = order::DPP
        .iter()
        .flat_map(|g| g.iter())
        .any(|m| a.has_mod(m));
    // gfx6/gfx7 know no DPP or SDWA modifiers: llvm-mc reads `row_mirror` as an operand
    // too many and `row_shl:1` as no operand at all.
    if gen.is_si_ci() && want == Want::Any && (sdwa || dpp) {
        let names = order::DPP.iter().flat_map(|g| g.iter()).chain(SDWA_MODS);
        let first = a
            .mods
            .iter()
            .filter(|m| names.clone().any(|n| *n == m.name))
            .min_by_key(|m| m.span.start);
        if let Some(m) = first {
            let msg = if matches!(m.value, crate::operand::ModValue::Flag) {
                INVALID_OPERAND
            } else {
                order::NOT_VALID
            };
            return Err(AsmError::new(
                m.span.start..m.span.start + m.name.len(),
                msg,
            ));
        }
    }
    let forms: &[Form] = match want {
        Want::E32 => &[Form::E32],
        Want::E64 => &[Form::E64],
        Want::Sdwa => &[Form::Sdwa],
        Want::Dpp => &[Form::Dpp],
        Want::Any if sdwa => &[Form::Sdwa],
        Want::Any if dpp => &[Form::Dpp],
        // `sext` on a source only SDWA can express: llvm-mc falls back to SDWA.
        Want::Any if !gen.is_si_ci() && s.operands.iter().any(|o| o.mods.sext) => {
            &[Form::E32, Form::E64, Form::Sdwa]
        }
        // `clamp` that neither 32-bit nor VOP3 form takes (integer instructions): llvm-mc
        // goes on to SDWA, which has it.
        Want::Any if !gen.is_si_ci() && a.has_mod("clamp") => &[Form::E32, Form::E64, Form::Sdwa],
        Want::Any => &[Form::E32, Form::E64],
    };
    // The FP8/BF8 conversions take no `sext` in any form.
    let fp8 = def.mnemonic.contains("fp8") || def.mnemonic.contains("bf8");
    if let Some(o) = s.operands.iter().find(|o| fp8 && o.mods.sext) {
        return Err(AsmError::new(o.span.clone(), "not a valid operand."));
    }
    let mut first_err = None;
    for &form in forms {
        let available = match form {
            Form::E32 => true,
            Form::E64 => !def.flag_on(flags::NOE64, gen),
            Form::Sdwa => !gen.is_si_ci() && !def.flag_on(flags::NOSDWA, gen),
            Form::Dpp => !gen.is_si_ci() && !def.flag_on(flags::NODPP, gen),
        };
        if !available {
            let what = match form {
                Form::E32 => "e32",
                Form::E64 => "e64",
                Form::Sdwa => "sdwa",
                Form::Dpp => "dpp",
            };
            let e = AsmError::new(
                s.mnemonic_span.clone(),
                format!("{what} variant of this instruction is not supported"),
            );
            first_err = first_err.or(Some(e));
            continue;
        }
        a.reset(def.encoding);
        let r = match form {
            Form::E32 => encode_e32(a, def, &s.operands),
            Form::E64 => encode_e64(a, def, &s.operands),
            Form::Sdwa => encode_sdwa(a, def, &s.operands),
            Form::Dpp => encode_dpp(a, def, &s.operands),
        };
        match r.and_then(|()| a.check_all_used()) {
            Ok(()) => return Ok(()),
            // A form whose operands fit but read too many scalar values is llvm-mc's
            // answer: it reports the violation and tries no other form
            // (`v_cndmask_b32 v0, neg(0.15915494), v1, vcc` folds the negation into a
            // literal of the 32-bit form).
            Err(e) if e.message == super::bus::VIOLATION => return Err(e),
            Err(e) => first_err = Some(prefer(first_err, e)),
        }
    }
    Err(first_err.unwrap_or_else(|| AsmError::new(0..a.src.len(), INVALID_OPERAND)))
}

/// True for the carry-out / compare-mask destination (as opposed to the SGPR destination of
/// v_readfirstlane_b32 and the gfx6/7 v_readlane_b32).
fn is_mask_dst(def: &InstrDef) -> bool {
    def.encoding == Encoding::Vopc || def.operand(Role::Vdst).is_some()
}

fn is_vcc(o: &Operand) -> bool {
    matches!(o.value, Value::Reg(r) if r.file == RegFile::Special && r.index == 106 && r.count == 2)
        && !o.mods.any()
        && !o.mods.lit
}

fn need_vcc(o: &Operand) -> Result<(), AsmError> {
    // `lit(vcc)`: llvm-mc takes `lit(` for a constant and stops at the register.
    if o.mods.lit {
        let open = o.span.start + 4;
        return Err(AsmError::new(open..o.span.end, super::order::NOT_VALID));
    }
    if is_vcc(o) {
        Ok(())
    } else {
        Err(AsmError::new(o.span.clone(), INVALID_OPERAND))
    }
}

/// The 9-bit source value of a register operand of type `ty`, or a constant.
pub(super) fn src_value(
    a: &mut Asm<'_>,
    o: &Operand,
    ty: DataType,
    literal_ok: bool,
) -> Result<u32, AsmError> {
    // A source wider than 64 bits (v_mqsad_u32_u8's accumulator) is a VGPR tuple only, as
    // in llvm-mc: no SGPR tuple, special register or constant stands for 128 bits.
    let vgpr = matches!(&o.value, Value::Reg(r) if r.file == RegFile::Vgpr);
    if ty.dwords() > 2 && !vgpr {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    match &o.value {
        Value::Reg(_) if o.mods.lit => Err(lit_register(a, o, ty)),
        Value::Reg(r) => {
            let ok = match r.file {
                RegFile::Vgpr => r.count == ty.dwords(),
                RegFile::Agpr => false,
                // The read-only values stand for 32- or 64-bit constants, no wider.
                RegFile::Special if matches!(r.index, 235..=239 | 251..=253) => ty.dwords() <= 2,
                _ => r.fits(ty.dwords()) && !(r.index == LDS_DIRECT && ty.dwords() > 1),
            };
            if !ok {
                return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
            }
            a.check_valign(r)?;
            if r.file == RegFile::Special && r.index == LDS_DIRECT {
                check_lds_direct(a, o)?;
            }
            let v = r.src_value(a.gen);
            a.bus.read(v, ty.dwords(), &o.span);
            Ok(v)
        }
        Value::Int(_) | Value::Float(_) | Value::Ident(_) | Value::Expr(_) => {
            a.refuse_null(o)?;
            sext_of_symbol(a, o)?;
            if o.mods.minus_minus && ty.is_float() {
                return Err(AsmError::new(
                    o.span.clone(),
                    "invalid syntax, expected 'neg' modifier",
                ));
            }
            if let Value::Ident(r) = &o.value {
                if a.syms.value(a.text(r)).is_none() && !literal_ok {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
            }
            // llvm-mc-19 has no FP16 inline constants on gfx6/gfx7: there a constant for an
            // FP16 source is a literal, which VOP3 cannot hold (`v_cvt_f32_f16_e64 v1, 1.0`).
            // (A float that does not fit half precision is refused as such first.)
            let fits = match &o.value {
                Value::Float(f) => crate::literal::encode_float(a.gen, *f, ty, false).is_ok(),
                _ => true,
            };
            if a.gen.is_si_ci() && ty.is_16bit() && ty.is_float() && !literal_ok && fits {
                return Err(AsmError::new(
                    constant_span(a, o),
                    "literal operands are not supported",
                ));
            }
            let v = a.constant(o, ty, literal_ok)?;
            a.bus.read(v, ty.dwords(), &o.span);
            Ok(v)
        }
        Value::Call(..) | Value::Struct(_) => Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
    }
}

/// The error for a register inside `lit()`, which takes a constant only: llvm-mc reads
/// `lit(` as a modifier where FP input modifiers may be written, elsewhere as the start of
/// an expression.
pub(super) fn lit_register(a: &Asm<'_>, o: &Operand, ty: DataType) -> AsmError {
    if ty.is_float() {
        AsmError::new(inner_span(a, o), "expected immediate with lit modifier")
    } else {
        let close = o.span.end.saturating_sub(1);
        AsmError::new(close..o.span.end, "unknown token in expression")
    }
}

/// A symbol without a value cannot be sign-extended: llvm-mc's error, inside the parentheses.
fn sext_of_symbol(a: &Asm<'_>, o: &Operand) -> Result<(), AsmError> {
    if !o.mods.sext || !matches!(o.value, Value::Ident(_) | Value::Expr(_)) || a.eval(o)?.is_some()
    {
        return Ok(());
    }
    Err(AsmError::new(
        inner_span(a, o),
        "expected an absolute expression",
    ))
}

/// The text inside the parentheses of a wrapped operand (`sext(...)`, `lit(...)`).
pub(super) fn inner_span(a: &Asm<'_>, o: &Operand) -> Range<usize> {
    let text = a.text(&o.span);
    let open = text.find('(').map_or(0, |i| i + 1);
    let blank = text[open..].len() - text[open..].trim_start().len();
    o.span.start + open + blank..o.span.end
}

/// The constant inside the source modifiers of `o` (`0` of `neg(|0|)`), where llvm-mc
/// reports what is wrong with the constant itself.
pub(super) fn constant_span(a: &Asm<'_>, o: &Operand) -> Range<usize> {
    let text = a.text(&o.span);
    let mut rest = text;
    loop {
        let t = rest.trim_start();
        let stripped = ["neg(", "abs(", "lit(", "|"]
            .iter()
            .find_map(|p| t.strip_prefix(p))
            .or_else(|| {
                t.strip_prefix('-').filter(|r| {
                    ["|", "neg(", "abs("]
                        .iter()
                        .any(|p| r.trim_start().starts_with(p))
                })
            });
        match stripped {
            Some(r) => rest = r,
            None => {
                rest = t;
                break;
            }
        }
    }
    let start = o.span.start + (text.len() - rest.len());
    let end = rest
        .find([')', '|'])
        .map_or(o.span.end, |i| start + rest[..i].trim_end().len());
    start..end.max(start)
}

/// A source of a VOP3 encoding: [`src_value`], where a 16-bit integer source of an FP
/// instruction (src1 of v_ldexp_f16) also takes the FP16 inline constants, as in llvm-mc.
pub(super) fn vop3_src_value(
    a: &mut Asm<'_>,
    def: &InstrDef,
    o: &Operand,
    ty: DataType,
) -> Result<u32, AsmError> {
    a.fp16_inline_ints = ty.is_16bit()
        && !ty.is_float()
        && def
            .operands
            .iter()
            .any(|s| matches!(s.role, Role::Src0 | Role::Src1 | Role::Src2) && s.ty.is_float());
    let v = src_value(a, o, ty, false);
    a.fp16_inline_ints = false;
    v
}

/// `src_lds_direct` may only be src0.
pub(super) fn lds_direct_src0_only(i: u32, v: u32, o: &Operand) -> Result<(), AsmError> {
    if i > 0 && v == LDS_DIRECT {
        return Err(AsmError::new(
            o.span.clone(),
            "lds_direct may be used as src0 only",
        ));
    }
    Ok(())
}

/// Where llvm-mc lets `src_lds_direct` be read: not on gfx90a/gfx940, and never by the
/// reversed-operand (`*rev*`) instructions.
pub(super) fn check_lds_direct(a: &Asm<'_>, o: &Operand) -> Result<(), AsmError> {
    if a.gen.has_unified_agprs() {
        return Err(AsmError::new(
            o.span.clone(),
            "lds_direct is not supported on this GPU",
        ));
    }
    if a.mnemonic.contains("rev_") && !a.mnemonic.contains("bfrev") {
        return Err(AsmError::new(
            o.span.clone(),
            "lds_direct cannot be used with this instruction",
        ));
    }
    Ok(())
}

fn vgpr_of(a: &Asm<'_>, o: &Operand, dwords: u32) -> Result<u32, AsmError> {
    let plain = Operand {
        mods: Default::default(),
        ..o.clone()
    };
    a.vreg(&plain, dwords, false)
}

/// The lane select of v_writelane_b32 counts on the constant bus, except `m0`.
pub(super) fn lane_select_read(a: &mut Asm<'_>, name: &str, v: u32, o: &Operand) {
    if name == "v_writelane_b32" && v != 124 {
        a.bus.read(v, 1, &o.span);
    }
}

/// A constant source of the 32-bit form with source modifiers: llvm-mc applies `neg`/`abs`
/// of an FP operand to the value itself (the sign bit of the double of a float token, or of
/// the operand-sized integer of an integer token); `sext` leaves the value as it is.
/// Registers with modifiers need the VOP3 form.
fn fold_const_mods(
    a: &Asm<'_>,
    def: &InstrDef,
    o: &Operand,
    ty: DataType,
) -> Result<Operand, AsmError> {
    let caps = if a.gen.is_si_ci() || def.flag_on(flags::NOSDWA, a.gen) {
        Caps::e64(def, a.gen)
    } else {
        Caps::sdwa(def, a.gen)
    };
    caps.check_src(0, o)?;
    // No form of the row takes modifiers (v_pk_fmac_f16): llvm-mc folds none.
    let only_e32 = [flags::NOE64, flags::NOSDWA, flags::NODPP]
        .into_iter()
        .all(|f| def.flag_on(f, a.gen));
    if only_e32 && (o.mods.any() || o.mods.minus_minus) {
        return Err(AsmError::new(o.span.clone(), order::NOT_VALID));
    }
    a.refuse_null(o)?;
    sext_of_symbol(a, o)?;
    if o.mods.minus_minus && caps.mods[0] == super::caps::ModKind::Fp {
        return Err(AsmError::new(
            o.span.clone(),
            "invalid syntax, expected 'neg' modifier",
        ));
    }
    let m = o.mods;
    let value = match &o.value {
        Value::Float(f) => {
            let f = if m.abs { f.abs() } else { *f };
            Value::Float(if m.neg { -f } else { f })
        }
        Value::Reg(_) => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        // llvm-mc refuses FP modifiers on integer tokens for 64-bit operands (the high
        // half would be ambiguous) and on values wider than the operand.
        Value::Int(v)
            if (m.neg || m.abs)
                && (ty.bits() >= 64
                    || (ty.bits() == 32
                        && i32::try_from(*v).is_err()
                        && u32::try_from(*v).is_err())
                    || (ty.bits() == 16
                        && i16::try_from(*v).is_err()
                        && u16::try_from(*v).is_err())) =>
        {
            return Err(AsmError::new(o.span.clone(), INVALID_OPERAND))
        }
        Value::Int(v) if m.neg || m.abs => {
            // At the operand's size, as llvm-mc truncates the result; the sign of a packed
            // pair is that of its low half (`neg(1)` is 0x8001).
            let bits = ty.bits().min(64);
            let sign = if ty.is_16bit() {
                1u64 << 15
            } else {
                1u64 << (bits - 1)
            };
            let mut v = *v as u64;
            if m.abs {
                v &= !sign;
            }
            if m.neg {
                v ^= sign;
            }
            if bits < 64 {
                v &= (1u64 << bits) - 1;
            }
            Value::Int(v as i64)
        }
        _ if !m.neg && !m.abs => o.value.clone(),
        _ => {
            return Err(AsmError::new(
                o.span.clone(),
                "expected an absolute expression",
            ))
        }
    };
    Ok(Operand {
        value,
        mods: Default::default(),
        span: o.span.clone(),
    })
}

/// The `k` constant of v_madmk/v_madak/v_fmamk: always the literal dword.
fn k_literal(a: &mut Asm<'_>, o: &Operand, ty: DataType) -> Result<(), AsmError> {
    let v = match &o.value {
        Value::Float(f) => match crate::literal::encode_float(a.gen, *f, ty, true) {
            Ok(crate::literal::Const::Literal(v)) => v,
            _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        },
        _ => {
            let v = a
                .eval(o)?
                .ok_or_else(|| AsmError::new(o.span.clone(), INVALID_OPERAND))?;
            let fits = if ty.bits() == 16 {
                i16::try_from(v).is_ok() || u16::try_from(v).is_ok()
            } else {
                i32::try_from(v).is_ok() || u32::try_from(v).is_ok()
            };
            if !fits {
                return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
            }
            v as u32 & if ty.bits() == 16 { 0xffff } else { u32::MAX }
        }
    };
    // The constant K is no place for a constant-bus error: llvm-mc points at the SGPR.
    a.bus.read_key(255, &(0..0));
    a.literal(v, &o.span)
}

fn encode_e32(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let gen = a.gen;
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    let name = def.mnemonic;
    // The `vcc` operands llvm-mc lets a statement leave out: a compare's destination, and
    // those of the `+optvcc` rows (v_cndmask_b32's mask, gfx9's carry-outs).
    let optional_vcc = def.operands.iter().position(|od| match od.role {
        Role::Sdst => def.encoding == Encoding::Vopc || def.has(flags::OPTVCC),
        Role::Src2 => def.has(flags::OPTVCC),
        _ => false,
    });
    let left_out = optional_vcc.filter(|_| ops.len() + 1 == def.operands.len());
    expect_count(
        ops,
        def.operands.len() - usize::from(left_out.is_some()),
        a.src,
    )?;
    let lane_si = matches!(name, "v_readlane_b32" | "v_writelane_b32");
    let defs = def
        .operands
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != left_out)
        .map(|(_, od)| od);
    // v_madak/v_madmk and friends have no VOP3 form: no operand takes a modifier, the
    // constant included (a leading `-` is part of a number, not a modifier).
    let has_k = def.operand(Role::K).is_some();
    for (od, o) in defs.zip(ops) {
        if has_k && o.mods.any() {
            return Err(AsmError::new(o.span.clone(), order::NOT_VALID));
        }
        let folded;
        let o = if od.role == Role::Src0 && (o.mods.any() || o.mods.minus_minus) {
            folded = fold_const_mods(a, def, o, od.ty)?;
            &folded
        } else if o.mods.any() && od.role != Role::K {
            return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
        } else {
            o
        };
        match od.role {
            Role::Vdst => {
                let agpr = name == "v_accvgpr_mov_b32";
                let v = a.vreg(o, od.ty.dwords(), agpr)?;
                a.set(Field::Vdst, v);
            }
            Role::Sdst if !is_mask_dst(def) => {
                let v = a.sreg(o, 1)?;
                if v >= 128 {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                a.set(Field::Vdst, v);
            }
            Role::Sdst | Role::Src2 => need_vcc(o)?,
            Role::Src0 => {
                let v = match name {
                    "v_swap_b32" | "v_movrels_b32" | "v_movrelsd_b32" => {
                        256 + a.vreg(o, 1, false)?
                    }
                    "v_accvgpr_mov_b32" => 256 + a.vreg(o, 1, true)?,
                    "v_readfirstlane_b32" if !matches!(&o.value, Value::Reg(r) if r.is_vgpr() || r.index == LDS_DIRECT && r.file == RegFile::Special) => {
                        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND))
                    }
                    _ if lane_si && name == "v_readlane_b32" => match &o.value {
                        // gfx6/gfx7's VOP2 v_readlane_b32 reads lds_direct too.
                        Value::Reg(r) if r.file == RegFile::Special && r.index == LDS_DIRECT => {
                            LDS_DIRECT
                        }
                        _ => 256 + a.vreg(o, 1, false)?,
                    },
                    // The value v_writelane_b32 writes is scalar (a VGPR is llvm-mc's
                    // "invalid operand").
                    _ if lane_si
                        && name == "v_writelane_b32"
                        && matches!(&o.value, Value::Reg(r) if r.is_vgpr()) =>
                    {
                        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND))
                    }
                    _ => src_value(a, o, od.ty, true)?,
                };
                a.set(Field::Src0, v);
            }
            Role::Src1 if lane_si => {
                let v = a.ssrc(o, DataType::B32, false)?;
                lane_select_read(a, name, v, o);
                a.set(Field::Vsrc1, v);
            }
            Role::Src1 => {
                let v = a.vreg(o, od.ty.dwords(), false)?;
                a.set(Field::Vsrc1, v);
            }
            Role::K => k_literal(a, o, od.ty)?,
            _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        }
    }
    // The carry-in / mask `vcc` and v_movrel's `m0` are implicit scalar reads.
    let whole = 0..a.src.len();
    if def.operand(Role::Src2).is_some() {
        a.bus.read_key(bus::VCC, &whole);
    } else if name.starts_with("v_movrel") {
        a.bus.read_key(bus::M0, &whole);
    }
    a.check_bus()?;
    Ok(())
}

/// Sets the VOP3 neg/abs bits of source `i` from the operand's modifiers (`sext` is the
/// neg bit of an integer source).
pub(crate) fn set_src_mods(a: &mut Asm<'_>, i: u32, o: &Operand) -> Result<(), AsmError> {
    let lay = a.layout();
    if o.mods.neg || o.mods.sext {
        let neg = lay.get(a.bits, Field::Neg) | 1 << i;
        a.set(Field::Neg, neg);
    }
    if o.mods.abs {
        let abs = lay.get(a.bits, Field::Abs) | 1 << i;
        a.set(Field::Abs, abs);
    }
    Ok(())
}

/// The output modifier: `mul:2` → 1, `mul:4` → 2, `div:2` → 3.
pub(crate) fn omod(a: &mut Asm<'_>) -> Result<u32, AsmError> {
    let mut v = 0;
    if let Some((n, span)) = a.int_mod("mul")? {
        v = match n {
            1 => 0,
            2 => 1,
            4 => 2,
            _ => return Err(AsmError::new(span, "invalid mul value.")),
        };
    }
    if let Some((n, span)) = a.int_mod("div")? {
        v = match n {
            1 => 0,
            2 => 3,
            _ => return Err(AsmError::new(span, "invalid div value.")),
        };
    }
    Ok(v)
}

/// Sets `clamp` of a VOP3 word: bit 15 on gfx8+, bit 11 in gfx6/7 VOP3A, nothing in gfx6/7 VOP3B.
pub(crate) fn set_clamp(a: &mut Asm<'_>, vop3b: bool) {
    // gfx6/gfx7's VOP3B has no clamp bit: llvm-mc takes `clamp` on v_div_scale_* there (the
    // only VOP3B rows that accept it) and encodes nothing.
    if !(a.gen.is_si_ci() && vop3b) {
        a.set(Field::Clamp, 1);
    }
}

fn encode_e64(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let gen = a.gen;
    a.start(Encoding::Vop3);
    a.order = order::VOP3;
    let base = vop3_base(def.encoding, gen).unwrap_or(0);
    a.set(Field::Op, base + def.opcode(gen).unwrap_or(0) as u32);
    expect_count(ops, def.operands.len(), a.src)?;
    let vop3b =
        def.encoding == Encoding::Vop2 && def.operand(Role::Sdst).is_some() && is_mask_dst(def);
    let caps = Caps::e64(def, gen);
    for (od, o) in def.operands.iter().zip(ops) {
        match od.role {
            Role::Vdst => {
                let v = vgpr_of(a, o, od.ty.dwords())?;
                if o.mods.any() {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                a.set(Field::Vdst, v);
            }
            Role::Sdst => {
                let v = a.sreg(o, if is_mask_dst(def) { 2 } else { 1 })?;
                if v >= 128 {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                a.set(if vop3b { Field::Sdst } else { Field::Vdst }, v);
            }
            Role::Src0 | Role::Src1 => {
                let i = u32::from(od.role == Role::Src1);
                // `sext` on a constant of a source without modifiers changes nothing: where
                // the instruction has an SDWA form (whose operands take `sext`), llvm-mc
                // drops it (`v_mul_i32_i24 v0, v1, sext(4)` is the VOP3 form).
                let has_sdwa = !gen.is_si_ci() && !def.flag_on(flags::NOSDWA, gen);
                let plain;
                let o = if has_sdwa
                    && o.mods.sext
                    && !o.mods.neg
                    && !o.mods.abs
                    && !matches!(o.value, Value::Reg(_))
                    && caps.mods[i as usize] == super::caps::ModKind::None
                {
                    let mut c = o.clone();
                    c.mods.sext = false;
                    plain = c;
                    &plain
                } else {
                    o
                };
                caps.check_src(i as usize, o)?;
                // v_movrels*: the source is the VGPR the index is added to.
                if i == 0 && matches!(def.mnemonic, "v_movrels_b32" | "v_movrelsd_b32") {
                    vgpr_of(a, o, 1)?;
                }
                let v = vop3_src_value(a, def, o, od.ty)?;
                lds_direct_src0_only(i, v, o)?;
                a.set(if i == 0 { Field::Src0 } else { Field::Src1 }, v);
                if vop3b && o.mods.abs {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                set_src_mods(a, i, o)?;
            }
            Role::Src2 => {
                let v = a.mask_src(o)?;
                a.bus.read(v, 2, &o.span);
                a.set(Field::Src2, v);
            }
            _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        }
    }
    if def.mnemonic.starts_with("v_movrel") {
        a.bus.read_key(bus::M0, &(0..a.src.len()));
    }
    a.check_bus()?;
    if take_clamp(a, &caps)? {
        set_clamp(a, vop3b);
    }
    let om = take_omod(a, &caps)?;
    a.set(Field::Omod, om);
    Ok(())
}

fn sel_value(a: &mut Asm<'_>, name: &str, unused: bool) -> Result<Option<u32>, AsmError> {
    let Some(m) = a.take(name) else {
        return Ok(None);
    };
    let ModValue::Ident(r) = &m.value else {
        return Err(AsmError::new(m.span.clone(), INVALID_OPERAND));
    };
    let text = a.text(r);
    let v = if unused {
        ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"]
            .iter()
            .position(|&n| n == text)
    } else {
        [
            "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
        ]
        .iter()
        .position(|&n| n == text)
    };
    v.map(|v| Some(v as u32))
        .ok_or_else(|| AsmError::new(r.clone(), format!("invalid {name} value")))
}

/// llvm-mc's "invalid row_shl value" (and so on), at the value of the modifier whose whole
/// text is `span`.
fn invalid_value(src: &str, span: Range<usize>, name: &str) -> AsmError {
    let text = &src[span.clone()];
    let value = text.find(':').map_or(0, |colon| {
        let after = &text[colon + 1..];
        colon + 1 + after.len() - after.trim_start().len()
    });
    let at = span.start + value;
    AsmError::new(at..span.end.max(at), format!("invalid {name} value"))
}

/// llvm-mc's error for a `quad_perm:[...]` (`text`, starting at byte `start`) that is not
/// four lane ids 0-3: at the first entry out of range, or where the fourth entry should
/// end the list.
fn quad_perm_error(text: &str, start: usize, values: &[i64]) -> AsmError {
    // Where each entry starts, and where each separator (`,` or `]`) stands.
    let open = text.find('[').map_or(0, |i| i + 1);
    let mut entries = Vec::new();
    let mut separators = Vec::new();
    let mut entry_start = open;
    for (i, c) in text.char_indices().skip_while(|&(i, _)| i < open) {
        if c == ',' || c == ']' {
            let entry = &text[entry_start..i];
            entries.push(entry_start + entry.len() - entry.trim_start().len());
            separators.push(i);
            entry_start = i + 1;
        }
    }
    let at =
        |offset: usize, message: &str| AsmError::new(start + offset..start + offset + 1, message);
    for (i, v) in values.iter().enumerate().take(4) {
        if !(0..4).contains(v) {
            return at(
                entries.get(i).copied().unwrap_or(open),
                "expected a 2-bit value",
            );
        }
    }
    if values.len() < 4 {
        let end = separators.last().copied().unwrap_or(text.len());
        return at(end, "expected a comma");
    }
    at(
        separators.get(3).copied().unwrap_or(text.len()),
        "expected a closing square bracket",
    )
}

/// An SDWA source: (value for the 8-bit field, scalar flag).
fn sdwa_src(a: &mut Asm<'_>, o: &Operand, ty: DataType) -> Result<(u32, bool), AsmError> {
    if o.mods.lit && matches!(o.value, Value::Reg(_)) {
        return Err(lit_register(a, o, ty));
    }
    if let Value::Reg(r) = &o.value {
        if r.is_vgpr() && r.count == ty.dwords() {
            return Ok((r.index, false));
        }
    }
    if !a.gen.is_gfx9_family() {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    let v = src_value(a, o, ty, false)?;
    if v == LDS_DIRECT {
        return Err(AsmError::new(
            o.span.clone(),
            "lds_direct cannot be used with this instruction",
        ));
    }
    // 16-bit integer SDWA sources take no 1/(2pi).
    if v >= 256 || (v == 248 && ty.bits() == 16 && !ty.is_float()) {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    Ok((v, true))
}

fn encode_sdwa(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let gen = a.gen;
    let gfx9 = gen.is_gfx9_family();
    let vopc = def.encoding == Encoding::Vopc;
    a.order = order::SDWA;
    let caps = Caps::sdwa(def, gen);
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    a.set(Field::Src0, 0xf9);
    expect_count(ops, def.operands.len(), a.src)?;
    // v_nop_sdwa takes no select, no clamp: its dword is zero.
    if def.operands.is_empty() {
        a.ext = Some(0);
        return Ok(());
    }
    let mut ext: u32 = 0;
    for (od, o) in def.operands.iter().zip(ops) {
        match od.role {
            Role::Vdst => {
                let v = a.vreg(o, od.ty.dwords(), false)?;
                a.set(Field::Vdst, v);
            }
            Role::Sdst if vopc && gfx9 && !is_vcc(o) => {
                let v = a.sreg(o, 2)?;
                if v >= 128 {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                ext |= v << 8 | 1 << 15;
            }
            Role::Sdst => need_vcc(o)?,
            // The carry-in / mask is an implicit scalar read.
            Role::Src2 => {
                need_vcc(o)?;
                a.bus.read_key(bus::VCC, &o.span);
            }
            Role::Src0 | Role::Src1 => {
                let src1 = od.role == Role::Src1;
                caps.check_src(usize::from(src1), o)?;
                if o.mods.sext && (def.mnemonic.contains("fp8") || def.mnemonic.contains("bf8")) {
                    return Err(AsmError::new(o.span.clone(), "not a valid operand."));
                }
                let (v, scalar) = sdwa_src(a, o, od.ty)?;
                let base = if src1 { 24 } else { 16 };
                if src1 {
                    a.set(Field::Vsrc1, v);
                } else {
                    ext |= v;
                }
                ext |= u32::from(o.mods.sext) << (base + 3)
                    | u32::from(o.mods.neg) << (base + 4)
                    | u32::from(o.mods.abs) << (base + 5)
                    | u32::from(scalar) << (base + 7);
            }
            _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        }
    }
    let clamp = take_clamp(a, &caps)?;
    if !vopc {
        // gfx940's fp8/bf8 conversions have no destination select: dst_unused stays 0.
        let fp8 = def.mnemonic.contains("fp8") || def.mnemonic.contains("bf8");
        let dst_sel = sel_value(a, "dst_sel", false)?.unwrap_or(6);
        // The accumulating (tied) instructions write the whole register.
        if def.has(flags::TIED) && dst_sel != 6 {
            return Err(AsmError::new(0..a.src.len(), INVALID_OPERAND));
        }
        ext |= dst_sel << 8;
        ext |= sel_value(a, "dst_unused", true)?.unwrap_or(if fp8 { 0 } else { 2 }) << 11;
        if gfx9 {
            ext |= take_omod(a, &caps)? << 14;
        }
    }
    if clamp {
        ext |= 1 << 13;
    }
    a.check_bus()?;
    ext |= sel_value(a, "src0_sel", false)?.unwrap_or(6) << 16;
    if def.encoding != Encoding::Vop1 {
        ext |= sel_value(a, "src1_sel", false)?.unwrap_or(6) << 24;
    }
    a.ext = Some(ext);
    Ok(())
}

/// The DPP control value of the control modifier present (identity quad_perm if none).
fn dpp_ctrl(a: &mut Asm<'_>) -> Result<u32, AsmError> {
    let gen = a.gen;
    if let Some(m) = a.take("quad_perm") {
        let ModValue::List(l) = &m.value else {
            return Err(AsmError::new(m.span.clone(), INVALID_OPERAND));
        };
        if l.len() != 4 || l.iter().any(|v| !(0..4).contains(v)) {
            return Err(quad_perm_error(&a.src[m.span.clone()], m.span.start, l));
        }
        return Ok(l
            .iter()
            .enumerate()
            .map(|(i, &v)| (v as u32) << (2 * i))
            .sum());
    }
    for (name, base, lo, hi) in [
        ("row_shl", 0x100, 1, 15),
        ("row_shr", 0x110, 1, 15),
        ("row_ror", 0x120, 1, 15),
        ("row_newbcast", 0x150, 0, 15),
    ] {
        if let Some((v, span)) = a.int_mod(name)? {
            if !(lo..=hi).contains(&v) || (name == "row_newbcast" && !gen.has_unified_agprs()) {
                return Err(invalid_value(a.src, span, name));
            }
            return Ok(base + v as u32);
        }
    }
    for (name, v) in [
        ("wave_shl", 0x130),
        ("wave_rol", 0x134),
        ("wave_shr", 0x138),
        ("wave_ror", 0x13c),
    ] {
        if let Some((n, span)) = a.int_mod(name)? {
            if n != 1 {
                return Err(invalid_value(a.src, span, name));
            }
            return Ok(v);
        }
    }
    if a.flag("row_mirror") {
        return Ok(0x140);
    }
    if a.flag("row_half_mirror") {
        return Ok(0x141);
    }
    if let Some((n, span)) = a.int_mod("row_bcast")? {
        return match n {
            15 => Ok(0x142),
            31 => Ok(0x143),
            _ => Err(invalid_value(a.src, span, "row_bcast")),
        };
    }
    // The control is not optional: the other DPP modifiers cannot stand without it.
    let first = order::DPP[1..]
        .iter()
        .flat_map(|g| g.iter())
        .find_map(|n| a.mods.iter().find(|m| m.name == *n));
    Err(match first {
        Some(m) => AsmError::new(m.span.clone(), order::NOT_VALID),
        None => super::too_few_operands(a.src),
    })
}

fn encode_dpp(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let gen = a.gen;
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    a.order = order::DPP;
    let caps = Caps::dpp(def, gen);
    a.set(Field::Src0, 0xfa);
    expect_count(ops, def.operands.len(), a.src)?;
    let mut ext: u32 = 0;
    for (od, o) in def.operands.iter().zip(ops) {
        match od.role {
            Role::Vdst => {
                let v = a.vreg(o, od.ty.dwords(), false)?;
                a.set(Field::Vdst, v);
            }
            Role::Sdst | Role::Src2 => need_vcc(o)?,
            Role::Src0 | Role::Src1 => {
                if o.mods.lit && matches!(o.value, Value::Reg(_)) {
                    return Err(lit_register(a, o, od.ty));
                }
                caps.check_src(usize::from(od.role == Role::Src1), o)?;
                let v = vgpr_of(a, o, od.ty.dwords())?;
                let shift = if od.role == Role::Src1 {
                    a.set(Field::Vsrc1, v);
                    22
                } else {
                    ext |= v;
                    20
                };
                // An integer source of an FP instruction keeps `sext` in the neg bit.
                let neg = o.mods.neg || o.mods.sext;
                ext |= u32::from(neg) << shift | u32::from(o.mods.abs) << (shift + 1);
            }
            _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        }
    }
    let ctrl_span = a
        .mods
        .iter()
        .find(|m| order::DPP[0].contains(&m.name))
        .map(|m| m.span.clone());
    let ctrl = dpp_ctrl(a)?;
    // gfx90a and gfx940 run DPP on 64-bit operands (the "DP ALU") with row_newbcast only.
    // (vcc as a carry or mask does not count.)
    let wide = def
        .operands
        .iter()
        .any(|od| matches!(od.role, Role::Vdst | Role::Src0 | Role::Src1) && od.ty.bits() == 64);
    if gen.has_unified_agprs() && wide && !(0x150..=0x15f).contains(&ctrl) {
        return Err(AsmError::new(
            ctrl_span.unwrap_or(0..a.src.len()),
            "DP ALU dpp only supports row_newbcast",
        ));
    }
    ext |= ctrl << 8;
    if let Some((v, span)) = a.int_mod("bound_ctrl")? {
        // llvm-mc sets the bit for both bound_ctrl:0 and bound_ctrl:1.
        if !(0..=1).contains(&v) {
            return Err(AsmError::new(span, "invalid bound_ctrl value"));
        }
        ext |= 1 << 19;
    }
    for (name, shift) in [("bank_mask", 24), ("row_mask", 28)] {
        // llvm-mc keeps the low four bits of any value.
        let v = a.int_mod(name)?.map_or(0xf, |(v, _)| v as u32 & 0xf);
        ext |= v << shift;
    }
    a.ext = Some(ext);
    Ok(())
}
