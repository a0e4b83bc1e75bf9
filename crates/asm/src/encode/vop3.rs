//! The VOP3-only instructions (VOP3A/VOP3B rows of `vop3.tbl`), VOP3P, and VOP3P-MAI
//! (MFMA, SMFMAC, v_accvgpr_read/write).
//!
//! None of these encodings can carry a literal on the targets gcnkit supports.

use gcnkit_isa::{flags, DataType, Field, Gen, InstrDef, Role};

use super::caps::{take_clamp, take_omod, Caps};
use super::vop::{set_clamp, set_src_mods, src_value};
use super::{expect_count, order, Asm, INVALID_OPERAND};
use crate::error::AsmError;
use crate::operand::{Operand, Value};
use crate::register::{RegFile, LDS_DIRECT};

fn src_field(role: Role) -> (Field, u32) {
    match role {
        Role::Src0 => (Field::Src0, 0),
        Role::Src1 => (Field::Src1, 1),
        _ => (Field::Src2, 2),
    }
}

fn plain(o: &Operand) -> Operand {
    Operand {
        mods: Default::default(),
        ..o.clone()
    }
}

/// True for rows whose gfx9+ VOP3 encoding carries `op_sel` (16-bit sources, except the
/// `_legacy` forms; and gfx940's fp8/bf8 conversions).
fn has_op_sel(def: &InstrDef) -> bool {
    let name = def.mnemonic;
    let half = def
        .operands
        .iter()
        .any(|o| matches!(o.role, Role::Src0 | Role::Src1 | Role::Src2) && o.ty.bits() == 16);
    (half && !name.contains("_legacy"))
        || name.starts_with("v_cvt_pk_fp8")
        || name.starts_with("v_cvt_pk_bf8")
        || name.starts_with("v_cvt_sr_")
}

/// VOP3A/VOP3B-only rows.
pub(super) fn encode_vop3(
    a: &mut Asm<'_>,
    def: &InstrDef,
    ops: &[Operand],
) -> Result<(), AsmError> {
    let gen = a.gen;
    a.order = order::VOP3;
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    if def.has(flags::INTERP) {
        return encode_interp(a, def, ops);
    }
    expect_count(ops, def.operands.len(), a.src)?;
    let vop3b = def.has(flags::VOP3B);
    let caps = Caps::vop3(def, gen);
    let lane = matches!(def.mnemonic, "v_readlane_b32" | "v_writelane_b32");
    let mut nsrc = 0;
    for (od, o) in def.operands.iter().zip(ops) {
        match od.role {
            Role::Vdst => {
                let v = a.vreg(o, od.ty.dwords(), false)?;
                a.set(Field::Vdst, v);
            }
            Role::Sdst => {
                let v = a.sreg(o, od.ty.dwords())?;
                if v >= 128 {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                a.set(if vop3b { Field::Sdst } else { Field::Vdst }, v);
            }
            Role::Src0 | Role::Src1 | Role::Src2 => {
                let (field, i) = src_field(od.role);
                nsrc = nsrc.max(i + 1);
                caps.check_src(i as usize, o)?;
                let v = if lane && def.mnemonic == "v_readlane_b32" && od.role == Role::Src0 {
                    match &o.value {
                        Value::Reg(r) if r.file == RegFile::Special && r.index == LDS_DIRECT => {
                            super::vop::check_lds_direct(a, o)?;
                            LDS_DIRECT
                        }
                        _ => 256 + a.vreg(o, 1, false)?,
                    }
                } else if lane {
                    // The VOP3 v_writelane_b32 has no form reading lds_direct (gfx6/gfx7's
                    // VOP2 one has); llvm-mc says so for the whole statement.
                    if od.role == Role::Src0
                        && matches!(&o.value, Value::Reg(r) if r.file == RegFile::Special && r.index == LDS_DIRECT)
                    {
                        return Err(AsmError::new(
                            0..a.src.len(),
                            "operands are not valid for this GPU or mode",
                        ));
                    }
                    let v = a.ssrc(o, DataType::B32, false)?;
                    if od.role == Role::Src0 {
                        a.bus.read(v, 1, &o.span);
                    } else {
                        super::vop::lane_select_read(a, def.mnemonic, v, o);
                    }
                    v
                } else {
                    let v = super::vop::vop3_src_value(a, def, o, od.ty)?;
                    super::vop::lds_direct_src0_only(i, v, o)?;
                    v
                };
                a.set(field, v);
                // VOP3B has no abs bits (their place holds sdst). llvm-mc reports this at the
                // statement; on src1 it drops the abs silently (docs/llvm-differences.md §6).
                if vop3b && o.mods.abs {
                    return Err(AsmError::new(
                        0..a.src.len(),
                        "ABS not allowed in VOP3B instructions",
                    ));
                }
                set_src_mods(a, i, o)?;
            }
            _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        }
    }
    if def.mnemonic.starts_with("v_div_fmas") {
        // v_div_fmas reads vcc implicitly.
        a.bus.read_key(super::bus::VCC, &(0..a.src.len()));
    }
    a.check_bus()?;
    if gen.is_gfx9_family() && has_op_sel(def) {
        vop3_op_sel(a, def, nsrc)?;
    }
    if take_clamp(a, &caps)? {
        set_clamp(a, vop3b);
    }
    let om = take_omod(a, &caps)?;
    a.set(Field::Omod, om);
    Ok(())
}

/// gfx9 `op_sel:[src0, src1, (src2,) dst]`: the destination bit is bit 3 of the field.
fn vop3_op_sel(a: &mut Asm<'_>, def: &InstrDef, nsrc: u32) -> Result<(), AsmError> {
    // gfx940's v_cvt_sr_*: the tied byte-select input counts as a third source.
    let nsel = if def.mnemonic.starts_with("v_cvt_sr_") {
        3
    } else {
        nsrc
    };
    // llvm-mc reads up to four entries whatever the sources, and ignores those past the
    // destination's (`v_pack_b32_f16 ... op_sel:[0,0,0,1]` sets nothing).
    if let Some(bits) = a.bits_mod("op_sel", 4)? {
        let srcs = bits & ((1 << nsel) - 1);
        let dst = (bits >> nsel) & 1;
        a.set(Field::OpSel, srcs | dst << 3);
    }
    Ok(())
}

/// The f16 interpolation rows: `vdst, vsrc, attrN.C[, src2] [high] [clamp] [omod]`.
fn encode_interp(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let has_src2 = def.operand(Role::Src2).is_some();
    let caps = Caps::vop3(def, a.gen);
    expect_count(ops, 3 + has_src2 as usize, a.src)?;
    caps.check_src(1, &ops[1])?;
    if has_src2 {
        caps.check_src(2, &ops[3])?;
    }
    let v = a.vreg(&ops[0], 1, false)?;
    a.set(Field::Vdst, v);
    super::misc::interp_vsrc_mods(a, &ops[1], true)?;
    let v = a.vreg(&plain(&ops[1]), 1, false)?;
    a.set(Field::Src1, 256 + v);
    set_src_mods(a, 1, &ops[1])?;
    let (n, c) = super::misc::interp_attr(a, &ops[2])?;
    let high = u32::from(a.bit("high"));
    a.set(Field::Src0, n | c << 6 | high << 8);
    if has_src2 {
        super::misc::interp_vsrc_mods(a, &ops[3], true)?;
        let v = a.vreg(&plain(&ops[3]), 1, false)?;
        a.set(Field::Src2, 256 + v);
        set_src_mods(a, 2, &ops[3])?;
    }
    if take_clamp(a, &caps)? {
        a.set(Field::Clamp, 1);
    }
    let om = take_omod(a, &caps)?;
    a.set(Field::Omod, om);
    Ok(())
}

/// VOP3P: packed math, mixed-precision `v_mad_mix*`/`v_fma_mix*`, dot products, and MAI.
pub(super) fn encode_vop3p(
    a: &mut Asm<'_>,
    def: &InstrDef,
    ops: &[Operand],
) -> Result<(), AsmError> {
    let gen = a.gen;
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    if def.has(flags::MAI) {
        a.order = order::MAI;
        return encode_mai(a, def, ops);
    }
    a.order = order::VOP3P;
    expect_count(ops, def.operands.len(), a.src)?;
    if def.has(flags::ACCSRC0) || def.has(flags::ACCDST) {
        return encode_accvgpr(a, def, ops);
    }
    let mix = def.mnemonic.contains("_mix");
    let mut nsrc = 0;
    let (mut neg_lo, mut neg_hi) = (0, 0);
    for (od, o) in def.operands.iter().zip(ops) {
        match od.role {
            Role::Vdst => {
                let v = a.vreg(o, od.ty.dwords(), false)?;
                a.set(Field::Vdst, v);
            }
            Role::Src0 | Role::Src1 | Role::Src2 => {
                let (field, i) = src_field(od.role);
                nsrc = nsrc.max(i + 1);
                let constant = !matches!(o.value, Value::Reg(_));
                let ty = match od.ty {
                    // Constants of 64-bit packed operands are read at 32 bits.
                    DataType::V2F32 if constant => DataType::F32,
                    DataType::B64 if constant => DataType::B32,
                    // llvm-mc reads the constants of the mixed-precision instructions as
                    // FP16 values, whatever op_sel_hi says.
                    _ if constant && mix => DataType::F16,
                    t => t,
                };
                // Packed sources take no modifier `lit(`: no operand fits a register in it.
                if o.mods.lit && !constant {
                    let inner = super::vop::inner_span(a, o);
                    return Err(AsmError::new(inner, super::order::NOT_VALID));
                }
                // The mixed-precision sources take FP modifiers, so `--x` reads as a
                // misspelt `neg` there.
                if mix && o.mods.minus_minus {
                    return Err(AsmError::new(
                        o.span.clone(),
                        "invalid syntax, expected 'neg' modifier",
                    ));
                }
                let v = src_value(a, &plain(o), ty, false)?;
                super::vop::lds_direct_src0_only(i, v, o)?;
                a.set(field, v);
                if o.mods.sext || (!mix && (o.mods.neg || o.mods.abs)) {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                neg_lo |= u32::from(o.mods.neg) << i;
                neg_hi |= u32::from(o.mods.abs) << i;
            }
            _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        }
    }
    a.check_bus()?;
    let n = nsrc as usize;
    // llvm-mc reads lists of up to four entries and keeps those of the sources there are.
    let srcs_mask = (1u32 << n) - 1;
    let mut list = |name: &str| -> Result<Option<u32>, AsmError> {
        Ok(a.bits_mod(name, 4)?.map(|bits| bits & srcs_mask))
    };
    let op_sel = list("op_sel")?.unwrap_or(0);
    let hi_default = if mix { 0 } else { 0b111 };
    // Entries a shorter list leaves out keep their default.
    let op_sel_hi = match list("op_sel_hi")? {
        Some(bits) => bits | (hi_default & !srcs_mask),
        None => hi_default,
    };
    if !mix {
        neg_lo = list("neg_lo")?.unwrap_or(0);
        neg_hi = list("neg_hi")?.unwrap_or(0);
    }
    // gfx940's dot products take neither op_sel nor a partial op_sel_hi.
    if gen == Gen::Gfx940
        && def.mnemonic.starts_with("v_dot")
        && (op_sel != 0 || op_sel_hi & 7 != 7)
    {
        return Err(AsmError::new(0..a.src.len(), "invalid op_sel operand"));
    }
    a.set(Field::OpSel, op_sel);
    a.set(Field::OpSelHi, op_sel_hi & 3);
    a.set(Field::OpSelHi2, op_sel_hi >> 2 & 1);
    a.set(Field::Neg, neg_lo);
    a.set(Field::NegHi, neg_hi);
    if a.bit("clamp") {
        a.set(Field::Clamp, 1);
    }
    Ok(())
}

/// v_accvgpr_read_b32 `vN, aM` and v_accvgpr_write_b32 `aN, src`.
fn encode_accvgpr(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let read = def.has(flags::ACCSRC0);
    let v = a.vreg(&ops[0], 1, !read)?;
    a.set(Field::Vdst, v);
    let s = if read {
        256 + a.vreg(&ops[1], 1, true)?
    } else {
        let o = &ops[1];
        if o.mods.any() {
            return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
        }
        let v = src_value(a, o, DataType::B32, false).map_err(|e| {
            // No literal, whatever the target (llvm-mc finds no such instruction).
            if e.message == "literal operands are not supported" {
                AsmError::new(e.span, INVALID_OPERAND)
            } else {
                e
            }
        })?;
        // gfx908 reads no SGPR here either.
        let inline = matches!(v, 128..=208 | 240..=248);
        if a.gen == Gen::Gfx908 && v < 256 && !inline {
            return Err(AsmError::new(
                o.span.clone(),
                "source operand must be either a VGPR or an inline constant",
            ));
        }
        v
    };
    a.set(Field::Src0, s);
    // llvm-mc sets the (unused) op_sel_hi bits as for packed math.
    a.set(Field::OpSelHi, 3);
    a.set(Field::OpSelHi2, 1);
    Ok(())
}

/// A VGPR or AGPR tuple of `dwords`: (number, is_agpr).
fn av(a: &Asm<'_>, o: &Operand, dwords: u32) -> Result<(u32, bool), AsmError> {
    let r = a.reg(o)?;
    let agpr = match r.file {
        RegFile::Vgpr => false,
        RegFile::Agpr => true,
        _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
    };
    if r.count != dwords {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    a.check_valign(&r)?;
    Ok((r.index, agpr))
}

/// Which of `blgp:` and `neg:` (one field) an MFMA takes: gfx940's f64 MFMAs take `neg:`
/// and no `blgp:`, every other MFMA `blgp:` only, SMFMAC neither; both at once are one
/// operand too many for llvm-mc.
fn mai_blgp_or_neg(a: &Asm<'_>, def: &InstrDef) -> Result<(), AsmError> {
    let blgp = a.mods.iter().find(|m| m.name == "blgp");
    let neg = a.mods.iter().find(|m| m.name == "neg");
    if let (Some(b), Some(n)) = (blgp, neg) {
        let later = if b.span.start > n.span.start { b } else { n };
        return Err(AsmError::new(later.span.clone(), INVALID_OPERAND));
    }
    let Some(m) = blgp.or(neg) else {
        return Ok(());
    };
    if def.mnemonic.starts_with("v_smfmac") {
        return Err(AsmError::new(m.span.clone(), super::order::NOT_VALID));
    }
    let neg_form = a.gen == Gen::Gfx940 && def.mnemonic.starts_with("v_mfma_f64");
    if (m.name == "neg") != neg_form {
        return Err(AsmError::new(
            m.span.clone(),
            format!("invalid modifier: {} is not supported", m.name),
        ));
    }
    Ok(())
}

/// MFMA and SMFMAC: `vdst, srcA, srcB, srcC` then `cbsz:N abid:N blgp:N` (gfx940 f64: `neg:[..]`).
fn encode_mai(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let gen = a.gen;
    expect_count(ops, def.operands.len(), a.src)?;
    // MAI sources take no source modifiers (gfx940's f64 MFMAs negate with `neg:[..]`).
    if let Some(o) = ops[1..].iter().find(|o| o.mods.any()) {
        return Err(AsmError::new(o.span.clone(), super::order::NOT_VALID));
    }
    let smfmac = def.mnemonic.starts_with("v_smfmac");
    let ty = |r: Role| def.operand(r).map_or(DataType::B32, |o| o.ty);
    let (vdst, cd_agpr) = av(a, &ops[0], ty(Role::Vdst).dwords())?;
    if gen == Gen::Gfx908 && !cd_agpr {
        return Err(AsmError::new(ops[0].span.clone(), INVALID_OPERAND));
    }
    a.set(Field::Vdst, vdst);
    if cd_agpr && gen != Gen::Gfx908 {
        a.set(Field::AccCd, 1);
    }
    let mut acc = 0;
    for (i, role) in [Role::Src0, Role::Src1].into_iter().enumerate() {
        let o = &ops[i + 1];
        let (n, agpr) = av(a, o, ty(role).dwords())?;
        a.set(src_field(role).0, 256 + n);
        acc |= u32::from(agpr) << i;
    }
    let o = &ops[3];
    let c = if smfmac {
        256 + a.vreg(o, 1, false)?
    } else {
        match &o.value {
            Value::Reg(r) if matches!(r.file, RegFile::Vgpr | RegFile::Agpr) => {
                let (n, agpr) = av(a, o, ty(Role::Src2).dwords())?;
                if agpr != cd_agpr {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                // The accumulator is the destination itself or lies apart from it (checked,
                // as llvm-mc does, for destinations wider than four registers).
                let dst_dwords = ty(Role::Vdst).dwords();
                let (src2_dwords, dst) = (ty(Role::Src2).dwords(), vdst);
                let overlap = n < dst + dst_dwords && dst < n + src2_dwords;
                if dst_dwords > 4 && n != dst && overlap {
                    return Err(AsmError::new(
                        o.span.clone(),
                        "source 2 operand must not partially overlap with dst",
                    ));
                }
                256 + n
            }
            // No scalar register, but the read-only values that stand in for constants
            // (src_shared_base ... src_pops_exiting_wave_id, src_vccz, src_execz, src_scc).
            Value::Reg(r)
                if !(r.file == RegFile::Special && matches!(r.index, 235..=239 | 251..=253)) =>
            {
                return Err(AsmError::new(o.span.clone(), INVALID_OPERAND))
            }
            _ if gen == Gen::Gfx908 && !matches!(o.value, Value::Reg(_)) => {
                return Err(gfx908_mai_constant(a, o))
            }
            _ => {
                let t = if def.mnemonic.starts_with("v_mfma_f64") {
                    DataType::F64
                } else {
                    DataType::B32
                };
                // A literal accumulator is no operand form at all to llvm-mc.
                let value_at = value_start(a, o);
                src_value(a, o, t, false).map_err(|e| match e.message.as_str() {
                    "literal operands are not supported" => {
                        AsmError::new(value_at..o.span.end, INVALID_OPERAND)
                    }
                    _ => e,
                })?
            }
        }
    };
    a.set(Field::Src2, c);
    a.set(Field::Acc, acc);
    mai_blgp_or_neg(a, def)?;
    for (name, field, max) in [
        ("cbsz", Field::Cbsz, 7),
        ("abid", Field::Abid, 15),
        ("blgp", Field::Blgp, 7),
    ] {
        if let Some((v, span)) = a.int_mod(name)? {
            if !(0..=max).contains(&v) {
                return Err(AsmError::new(span, format!("invalid {name} value.")));
            }
            a.set(field, v as u32);
        }
    }
    if gen == Gen::Gfx940 && def.mnemonic.starts_with("v_mfma_f64") {
        if let Some(bits) = a.bits_mod("neg", 3)? {
            a.set(Field::Blgp, bits);
        }
    }
    Ok(())
}

/// gfx908's MFMA accumulator source takes no constant. llvm-mc says "inline constants are
/// not allowed" for an inline constant and "invalid operand" for a literal; it points at the
/// integer (inside `lit(...)` if written so) but, for a real number it found no place for, at
/// the statement's start.
fn gfx908_mai_constant(a: &Asm<'_>, o: &Operand) -> AsmError {
    let here = value_start(a, o)..o.span.end;
    let inline = match o.value {
        Value::Int(v) => matches!(
            crate::literal::encode_int(a.gen, v, DataType::B32, false),
            Ok(crate::literal::Const::Inline(_))
        ),
        Value::Float(f) => matches!(
            crate::literal::encode_float(a.gen, f, DataType::F32, false),
            Ok(crate::literal::Const::Inline(_))
        ),
        _ => false,
    };
    match (inline, &o.value) {
        (true, Value::Float(_)) => {
            let start = a.src.len() - a.src.trim_start().len();
            AsmError::new(
                start..start,
                "inline constants are not allowed for this operand",
            )
        }
        (true, _) => AsmError::new(here, "inline constants are not allowed for this operand"),
        (false, _) => AsmError::new(here, INVALID_OPERAND),
    }
}

/// Where the value of a constant operand starts: inside `lit(...)` if written so.
fn value_start(a: &Asm<'_>, o: &Operand) -> usize {
    let text = &a.src[o.span.clone()];
    match text.strip_prefix("lit(") {
        Some(inner) => o.span.start + 4 + inner.len() - inner.trim_start().len(),
        None => o.span.start,
    }
}
