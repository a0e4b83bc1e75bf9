//! MIMG, EXP and VINTRP (including the VOP3-encoded `_e64` form of VINTRP).

use gcnkit_isa::{flags, DataType, Encoding, Field, Gen, InstrDef, Role};

use super::vop::{omod, set_src_mods};
use super::{expect_count, operand, order, Asm, Want, INVALID_OPERAND};
use crate::error::AsmError;
use crate::operand::{Operand, Stmt, Value};
use crate::symbolic;

/// Word0 bit 7 of MIMG: gfx90a's `scc` cache bit (not a field of the layouts).
const MIMG_SCC: u64 = 1 << 7;

/// MIMG: `vdata, vaddr, srsrc[, ssamp]` then `dmask:N unorm glc slc r128|a16 tfe lwe da d16`.
pub(super) fn encode_mimg(
    a: &mut Asm<'_>,
    def: &InstrDef,
    ops: &[Operand],
) -> Result<(), AsmError> {
    let gen = a.gen;
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    a.order = order::MIMG;
    if gen.is_gfx9_family() {
        if let Some((_, m)) = a.take_bit("r128") {
            return Err(AsmError::new(
                m.span.clone(),
                "r128 modifier is not supported on this GPU",
            ));
        }
    }
    let (agpr, vdata_count) = mimg_registers(a, def, ops)?;
    let mut dmask = (0, 0..a.src.len());
    if let Some((v, span)) = a.int_mod("dmask")? {
        if !(0..16).contains(&v) {
            return Err(AsmError::new(span, "invalid dmask"));
        }
        a.set(Field::Dmask, v as u32);
        dmask = (v as u32, span);
    }
    let r128_name = if gen.is_gfx9_family() { "a16" } else { "r128" };
    for (name, field) in [
        ("unorm", Field::Unorm),
        ("glc", Field::Glc),
        ("slc", Field::Slc),
        (r128_name, Field::R128),
        ("lwe", Field::Lwe),
        ("da", Field::Da),
    ] {
        if a.bit(name) {
            a.set(field, 1);
        }
    }
    if gen != Gen::Gfx90a && a.bit("tfe") {
        a.set(Field::Tfe, 1);
    }
    if agpr {
        a.set(Field::Tfe, 1);
    }
    if gen == Gen::Gfx90a && a.bit("scc") {
        a.bits |= MIMG_SCC;
    }
    // Atomics, image_get_lod and image_get_resinfo have no d16 operand in LLVM.
    let takes_d16 = !def.has(flags::ATOMIC) && !def.has(flags::NOD16);
    // gfx6/gfx7 have no d16, gfx6 to gfx8 no a16: llvm-mc knows the names and says so
    // (it takes `nod16` there, not `noa16`).
    for (name, missing) in [
        ("d16", gen.is_si_ci() && takes_d16),
        ("a16", !gen.is_gfx9_family()),
    ] {
        if missing {
            if let Some((on, m)) = a.take_bit(name) {
                if !on && name == "d16" {
                    continue;
                }
                return Err(AsmError::new(
                    m.span.clone(),
                    format!("{name} modifier is not supported on this GPU"),
                ));
            }
        }
    }
    let d16 = !gen.is_si_ci() && takes_d16 && a.bit("d16");
    if d16 {
        a.set(Field::D16, 1);
    }
    let tfe = a.layout().get(a.bits, Field::Tfe) != 0 && !agpr;
    // Gathers return four components (two with packed d16), plus tfe's: LLVM has no class
    // of three registers for their data, so such a tuple is refused as an operand.
    if def.has(flags::GATHER) && vdata_count == 3 {
        let span = ops.first().map_or(0..a.src.len(), |o| o.span.clone());
        return Err(AsmError::new(span, INVALID_OPERAND));
    }
    mimg_data_size(a, def, vdata_count, dmask.0, tfe, d16)?;
    mimg_dmask(def, &dmask.0, &dmask.1)
}

/// The register operands of MIMG: `vdata, vaddr, srsrc[, ssamp]`. Returns whether vdata
/// is AGPRs (gfx90a) and its register count.
fn mimg_registers(
    a: &mut Asm<'_>,
    def: &InstrDef,
    ops: &[Operand],
) -> Result<(bool, u32), AsmError> {
    let gen = a.gen;
    let has_ssamp = def.operand(Role::Ssamp).is_some();
    expect_count(ops, 3 + has_ssamp as usize, a.src)?;
    let (vdata, agpr, vdata_count) = {
        let r = a.reg(&ops[0])?;
        match r.file {
            crate::register::RegFile::Vgpr => (r.index, false, r.count),
            crate::register::RegFile::Agpr if gen == Gen::Gfx90a => (r.index, true, r.count),
            _ => return Err(AsmError::new(ops[0].span.clone(), INVALID_OPERAND)),
        }
    };
    // llvm-mc reports misaligned MIMG tuples at the statement, not at the operand.
    if gen == Gen::Gfx90a && vdata_count >= 2 && vdata % 2 != 0 {
        return Err(AsmError::new(0..a.src.len(), super::VGPR_ALIGNMENT));
    }
    a.set(Field::Vdata, vdata);
    let vaddr = a.reg(&ops[1])?;
    // One of the address tuple sizes LLVM defines for the row (`+vaddr=` in the table).
    let sizes = def.flag_arg(flags::VADDR).unwrap_or("");
    let size_ok = sizes
        .split(',')
        .any(|n| n.parse::<u32>().is_ok_and(|n| n == vaddr.count));
    if !vaddr.is_vgpr() || !size_ok {
        return Err(AsmError::new(ops[1].span.clone(), INVALID_OPERAND));
    }
    if gen == Gen::Gfx90a && vaddr.count >= 2 && vaddr.index % 2 != 0 {
        return Err(AsmError::new(0..a.src.len(), super::VGPR_ALIGNMENT));
    }
    a.set(Field::Vaddr, vaddr.index);
    let srsrc = a.reg(&ops[2])?;
    // Eight SGPRs even with r128 (LLVM 19 has no 128-bit MIMG resource class).
    let rsrc_ok = srsrc.is_scalar() && srsrc.count == 8;
    let v = srsrc.src_value(gen);
    if !rsrc_ok || v % 4 != 0 || v >= 128 {
        return Err(AsmError::new(ops[2].span.clone(), INVALID_OPERAND));
    }
    a.set(Field::Srsrc, v / 4);
    if has_ssamp {
        let v = a.sreg(&ops[3], 4)?;
        if v % 4 != 0 || v >= 128 {
            return Err(AsmError::new(ops[3].span.clone(), INVALID_OPERAND));
        }
        a.set(Field::Ssamp, v / 4);
    }
    Ok((agpr, vdata_count))
}

/// The vdata tuple must hold one register per dmask bit (four for gathers), halved by
/// packed d16, plus one for tfe, as llvm-mc checks it.
fn mimg_data_size(
    a: &Asm<'_>,
    def: &InstrDef,
    count: u32,
    dmask: u32,
    tfe: bool,
    d16: bool,
) -> Result<(), AsmError> {
    let gen = a.gen;
    let packed_d16 =
        a.target.processor.has_packed_d16() && !def.has(flags::ATOMIC) && !def.has(flags::NOD16);
    let mut size = if def.has(flags::GATHER) {
        4
    } else {
        dmask.max(1).count_ones()
    };
    if packed_d16 && d16 {
        size = size.div_ceil(2);
    }
    // Atomics have no vdata class of four registers when their data is one dword, nor of
    // one when it is two (cmpswap): llvm-mc finds no instruction for those.
    if def.has(flags::ATOMIC) {
        let width = def.operand(Role::Vdata).map_or(1, |o| o.ty.dwords());
        if (width == 1 && count == 4) || (width == 2 && count == 1) {
            return Err(AsmError::new(0..a.src.len(), INVALID_OPERAND));
        }
    }
    if count == size + u32::from(tfe) {
        return Ok(());
    }
    let what = match (gen == Gen::Gfx90a, packed_d16) {
        (true, true) => "dmask and d16",
        (true, false) => "dmask",
        (false, true) => "dmask, d16 and tfe",
        (false, false) => "dmask and tfe",
    };
    Err(AsmError::new(
        0..a.src.len(),
        format!("image data size does not match {what}"),
    ))
}

/// Atomics take dmask 0x1, 0x3 or 0xf; gathers exactly one dmask bit.
fn mimg_dmask(def: &InstrDef, dmask: &u32, span: &std::ops::Range<usize>) -> Result<(), AsmError> {
    if def.has(flags::ATOMIC) && !matches!(dmask, 1 | 3 | 15) {
        return Err(AsmError::new(span.clone(), "invalid atomic image dmask"));
    }
    if def.has(flags::GATHER) && dmask.count_ones() != 1 {
        return Err(AsmError::new(
            span.clone(),
            "invalid image_gather dmask: only one bit must be set",
        ));
    }
    Ok(())
}

/// EXP: `exp TGT src0, src1, src2, src3 [done] [compr] [vm]`; `off` disables a source.
pub(super) fn encode_exp(
    a: &mut Asm<'_>,
    _def: &InstrDef,
    ops: &[Operand],
) -> Result<(), AsmError> {
    a.order = order::EXP;
    expect_count(ops, 5, a.src)?;
    let tgt = match &ops[0].value {
        Value::Ident(r) => symbolic::exp_target(a.text(r)),
        _ => None,
    }
    .ok_or_else(|| AsmError::new(ops[0].span.clone(), "invalid exp target"))?;
    a.set(Field::Tgt, tgt);
    let compr = a.flag("compr");
    let mut en = 0;
    let fields = [Field::Vsrc0, Field::Vsrc1Exp, Field::Vsrc2, Field::Vsrc3];
    for (slot, o) in ops[1..].iter().enumerate() {
        // Export sources take no modifiers (llvm-mc: "not a valid operand.").
        if o.mods.any() {
            return Err(AsmError::new(o.span.clone(), order::NOT_VALID));
        }
        if matches!(&o.value, Value::Ident(r) if a.text(r) == "off") {
            continue;
        }
        let v = a.vreg(o, 1, false)?;
        // With compr each register holds two halves: llvm-mc takes the first and third
        // sources as VSRC0 and VSRC1 (the others are ignored) and enables two channels each.
        if compr {
            if slot % 2 == 0 {
                en |= 3 << slot;
                a.set(fields[slot / 2], v);
            }
        } else {
            en |= 1 << slot;
            a.set(fields[slot], v);
        }
    }
    a.set(Field::En, en);
    // `novm` is taken (as llvm-mc takes it); `nodone` is not, and `nocompr` crashes
    // llvm-mc-19, so gcnkit refuses it.
    if a.flag("done") {
        a.set(Field::Done, 1);
    }
    if a.bit("vm") {
        a.set(Field::Vm, 1);
    }
    if compr {
        a.set(Field::Compr, 1);
    }
    Ok(())
}

/// `attrN.C` → (attr, chan).
fn attr(a: &Asm<'_>, o: &Operand) -> Result<(u32, u32), AsmError> {
    let bad = || AsmError::new(o.span.clone(), INVALID_OPERAND);
    // llvm-mc's words differ by spelling: `|attr0.x|` is no operand, `neg(attr0.x)` no
    // attribute.
    if o.mods.any() || o.mods.lit {
        let msg = if a.text(&o.span).starts_with('|') {
            super::order::NOT_VALID
        } else {
            "invalid interpolation attribute"
        };
        return Err(AsmError::new(o.span.clone(), msg));
    }
    let Value::Ident(r) = &o.value else {
        return Err(bad());
    };
    let text = a.text(r);
    let rest = text.strip_prefix("attr").ok_or_else(bad)?;
    let (num, chan) = rest.split_once('.').ok_or_else(bad)?;
    let n: u32 = num.parse().map_err(|_| bad())?;
    if n > 32 {
        return Err(AsmError::new(
            o.span.clone(),
            "out of bounds interpolation attribute number",
        ));
    }
    let c = match chan {
        "x" => 0,
        "y" => 1,
        "z" => 2,
        "w" => 3,
        _ => {
            return Err(AsmError::new(
                o.span.clone(),
                "invalid or missing interpolation attribute channel",
            ))
        }
    };
    Ok((n, c))
}

/// The parameter select of v_interp_mov_f32.
fn interp_param(a: &Asm<'_>, o: &Operand) -> Result<u32, AsmError> {
    // As for the attribute, `|p10|` is no operand; `-p10` an expression, no slot.
    if a.text(&o.span).starts_with('|') {
        return Err(AsmError::new(o.span.clone(), super::order::NOT_VALID));
    }
    if matches!(o.value, Value::Expr(_)) && a.text(&o.span).starts_with('-') {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    if o.mods.any() || o.mods.lit {
        return Err(AsmError::new(o.span.clone(), "invalid interpolation slot"));
    }
    match &o.value {
        Value::Ident(r) => match a.text(r) {
            "p10" => Ok(0),
            "p20" => Ok(1),
            "p0" => Ok(2),
            _ => Err(AsmError::new(o.span.clone(), "invalid interpolation slot")),
        },
        _ => Err(AsmError::new(o.span.clone(), "invalid interpolation slot")),
    }
}

fn is_mov(def: &InstrDef) -> bool {
    def.operand(Role::Vsrc)
        .is_some_and(|o| o.ty == DataType::U32)
}

/// VINTRP: `vdst, vsrc, attrN.C`; `_e64` on gfx8+ is the VOP3 form with modifiers.
pub(super) fn encode_vintrp(
    a: &mut Asm<'_>,
    def: &InstrDef,
    s: &Stmt<'_>,
    want: Want,
) -> Result<(), AsmError> {
    let has_e64 = !a.gen.is_si_ci() && def.has(flags::E64);
    match want {
        Want::Any | Want::E32 => {
            let r = encode_vintrp_form(a, def, s, false).and_then(|()| a.check_all_used());
            if r.is_ok() || want == Want::E32 || !has_e64 {
                return r;
            }
            // Modifiers only the VOP3 form has: llvm-mc picks it.
            a.reset(Encoding::Vintrp);
            encode_vintrp_form(a, def, s, true).map_err(|e| r.err().unwrap_or(e))
        }
        Want::E64 if has_e64 => encode_vintrp_form(a, def, s, true),
        _ => Err(AsmError::new(
            s.mnemonic_span.clone(),
            "invalid instruction",
        )),
    }
}

fn encode_vintrp_form(
    a: &mut Asm<'_>,
    def: &InstrDef,
    s: &Stmt<'_>,
    e64: bool,
) -> Result<(), AsmError> {
    let gen = a.gen;
    let ops = &s.operands[..];
    expect_count(ops, 3, a.src)?;
    let vdst = a.vreg(operand(ops, 0, a.src)?, 1, false)?;
    let (n, chan) = attr(a, &ops[2])?;
    let mov = is_mov(def);
    if !e64 {
        a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
        a.set(Field::Vdst, vdst);
        let vsrc = if mov {
            interp_param(a, &ops[1])?
        } else {
            a.vreg(&ops[1], 1, false)?
        };
        a.set(Field::Vsrc, vsrc);
        a.set(Field::Attr, n);
        a.set(Field::AttrChan, chan);
        return Ok(());
    }
    let op = def
        .flag_arg(flags::E64)
        .and_then(|v| v.parse::<u32>().ok())
        .ok_or_else(|| AsmError::new(s.mnemonic_span.clone(), "invalid instruction"))?;
    a.start(Encoding::Vop3);
    a.order = order::VOP3;
    a.set(Field::Op, op);
    a.set(Field::Vdst, vdst);
    a.set(Field::Src0, n | chan << 6);
    let o = &ops[1];
    if mov {
        a.set(Field::Src1, interp_param(a, o)?);
    } else {
        // The source takes FP modifiers, not `sext` or `lit`.
        if o.mods.sext {
            return Err(AsmError::new(o.span.clone(), super::order::NOT_VALID));
        }
        if o.mods.lit {
            return Err(AsmError::new(
                super::vop::inner_span(a, o),
                "expected immediate with lit modifier",
            ));
        }
        let v = a.vreg(
            &Operand {
                mods: Default::default(),
                ..o.clone()
            },
            1,
            false,
        )?;
        a.set(Field::Src1, 256 + v);
        set_src_mods(a, 1, o)?;
    }
    if a.bit("clamp") {
        a.set(Field::Clamp, 1);
    }
    let om = omod(a)?;
    a.set(Field::Omod, om);
    Ok(())
}
