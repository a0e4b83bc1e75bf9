//! Printing of the memory families: DS, MUBUF, MTBUF, FLAT, GLOBAL and SCRATCH.
//!
//! LLVM's decoders for these families are strict about some fields (a DS word with a register
//! field its instruction does not use is rejected) and lenient about others (the data field of a
//! FLAT load is ignored). The checks here mirror what `tools/probe/NOTES-mem.md` records, so that
//! a word LLVM rejects gives [`PrintError::Invalid`] and the listing prints it as `.long`.

use std::fmt::Write as _;

use gcnkit_isa::constants::{buf_num_format_name, BUF_DATA_FORMATS};
use gcnkit_isa::{flags, DataType, Encoding, Field, Gen, InstrDef, Instruction, Role};

use crate::operands::{push_scalar_reg, push_src, push_vreg};
use crate::text::{push_i64, push_u64};
use crate::{PrintContext, PrintError};

/// Appends the text of `inst`.
pub(crate) fn print(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    out.push_str(inst.mnemonic());
    match inst.encoding {
        Encoding::Ds => print_ds(inst, out),
        Encoding::Mubuf | Encoding::Mtbuf => print_buf(inst, ctx, out),
        _ => print_flat(inst, out),
    }
}

fn sep(out: &mut String, first: &mut bool) {
    out.push_str(if *first { " " } else { ", " });
    *first = false;
}

fn invalid_if(cond: bool) -> Result<(), PrintError> {
    if cond {
        Err(PrintError::Invalid)
    } else {
        Ok(())
    }
}

/// True if the row's data registers are AccVGPRs: the acc bit of gfx90a/gfx940 is set.
///
/// Earlier generations have no such bit in these encodings (on gfx908 AGPRs are reachable only
/// through v_accvgpr_read/write), so the field is not consulted there.
fn acc_data(inst: &Instruction) -> bool {
    inst.gen.has_unified_agprs() && inst.field(Field::Acc) != 0
}

// ---------------------------------------------------------------------------------------------
// DS

/// DS: `vdst, addr, data0, data1`, then the offset(s) and `gds`.
fn print_ds(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    // LLVM's DS encodings fix the register fields an instruction does not use at zero, so a
    // word with anything there does not decode.
    for (role, field) in [
        (Role::Vdst, Field::Vdst),
        (Role::Addr, Field::Addr),
        (Role::Data0, Field::Data0),
        (Role::Data1, Field::Data1),
    ] {
        invalid_if(def.operand(role).is_none() && inst.field(field) != 0)?;
    }
    let gds = inst.field(Field::Gds) != 0;
    invalid_if(def.has(flags::GDSONLY) && !gds)?;
    invalid_if(def.has(flags::NOGDS) && gds)?;
    // The ds_gws_* instructions carry their data operand in the addr field, and the acc bit
    // applies to it as to any data operand.
    let gws = def.has(flags::GDSONLY);
    // LLVM takes the acc bit (bit 25, gfx8+) from vdst or data0 and fixes it at zero for an
    // instruction with neither; before gfx90a it is otherwise ignored.
    let has_acc_operand = def.operand(Role::Vdst).is_some()
        || def.operand(Role::Data0).is_some()
        || (gws && def.operand(Role::Addr).is_some());
    invalid_if(!has_acc_operand && inst.field(Field::Acc) != 0)?;
    // ds_nop has no offset either.
    invalid_if(def.operands.is_empty() && !gws && inst.field(Field::Offset) != 0)?;
    let acc = acc_data(inst);
    let mut first = true;
    for op in def.operands {
        sep(out, &mut first);
        let (field, agpr) = match op.role {
            Role::Vdst => (Field::Vdst, acc),
            Role::Addr => (Field::Addr, acc && gws),
            Role::Data0 => (Field::Data0, acc),
            Role::Data1 => (Field::Data1, acc),
            _ => return Err(PrintError::Invalid),
        };
        push_vreg(out, agpr, inst.field(field), op.ty.dwords())?;
    }
    if def.has(flags::OFF2) {
        for (name, field) in [("offset0", Field::Offset0), ("offset1", Field::Offset1)] {
            let v = inst.field(field);
            if v != 0 {
                out.push(' ');
                out.push_str(name);
                out.push(':');
                push_u64(out, v as u64);
            }
        }
    } else {
        let offset = inst.field(Field::Offset);
        if def.mnemonic == "ds_swizzle_b32" {
            push_swizzle(out, offset, gen.is_si_ci());
        } else if offset != 0 {
            out.push_str(" offset:");
            push_u64(out, offset as u64);
        }
    }
    // gfx90a and gfx940 have no GDS: LLVM drops the bit, except on the ds_gws_* instructions
    // that cannot exist without it.
    if gds && (!gen.has_unified_agprs() || gws) {
        out.push_str(" gds");
    }
    Ok(())
}

/// The `offset:` of ds_swizzle_b32: a `swizzle(...)` macro when the value is one, as LLVM's
/// printSwizzle decides.
///
/// A `BITMASK_PERM` string says what becomes of each lane-id bit, so an offset whose masks
/// overlap (an and-bit also in or, an or-bit also in xor, ...) prints as a string that
/// assembles to other masks. LLVM prints it anyway; with `exact` (gfx6/gfx7, where the text
/// must stand for the bytes because LLVM cannot disassemble them) such an offset prints as
/// the plain number, which llvm-mc keeps as it is.
fn push_swizzle(out: &mut String, imm: u32, exact: bool) {
    if imm == 0 {
        return;
    }
    out.push_str(" offset:");
    if imm & 0xff00 == 0x8000 {
        // QUAD_PERM: four 2-bit lane selectors, lowest first.
        out.push_str("swizzle(QUAD_PERM");
        for lane in 0..4 {
            let _ = write!(out, ",{}", (imm >> (2 * lane)) & 3);
        }
        out.push(')');
    } else if imm & 0x8000 == 0 {
        // BITMASK_PERM: and/or/xor masks of 5 bits each.
        let and = imm & 0x1f;
        let or = (imm >> 5) & 0x1f;
        let xor = (imm >> 10) & 0x1f;
        if and == 0x1f && or == 0 && xor.count_ones() == 1 {
            let _ = write!(out, "swizzle(SWAP,{xor})");
        } else if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
            let _ = write!(out, "swizzle(REVERSE,{})", xor + 1);
        } else {
            let group = 0x1f - and + 1;
            if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
                let _ = write!(out, "swizzle(BROADCAST,{group},{or})");
            } else if exact && !bitmask_perm_is_exact(and, or, xor) {
                push_u64(out, imm as u64);
            } else {
                out.push_str("swizzle(BITMASK_PERM,\"");
                // What each lane-id bit becomes: probed with all-zero and all-one lane ids.
                let probe0 = or ^ xor;
                let probe1 = (and | or) ^ xor;
                for bit in (0..5).rev() {
                    let p0 = probe0 >> bit & 1;
                    let p1 = probe1 >> bit & 1;
                    out.push(match (p0 == p1, p0) {
                        (true, 0) => '0',
                        (true, _) => '1',
                        (false, 0) => 'p',
                        (false, _) => 'i',
                    });
                }
                out.push_str("\")");
            }
        }
    } else {
        push_u64(out, imm as u64);
    }
}

/// Whether the `BITMASK_PERM` string of these masks assembles back to them: each bit must be
/// one of `0` (no mask), `1` (or only), `p` (and only) or `i` (and and xor).
fn bitmask_perm_is_exact(and: u32, or: u32, xor: u32) -> bool {
    (0..5).all(|bit| {
        matches!(
            (and >> bit & 1, or >> bit & 1, xor >> bit & 1),
            (0, 0, 0) | (0, 1, 0) | (1, 0, 0) | (1, 0, 1)
        )
    })
}

// ---------------------------------------------------------------------------------------------
// MUBUF / MTBUF

/// Number of VGPRs of a D16 data operand on a processor with packed D16 (two 16-bit components
/// per register), given the unpacked count (one component per register).
fn packed_d16_dwords(unpacked: u32) -> u32 {
    unpacked.div_ceil(2)
}

/// Whether an atomic with glc (sc0) set is valid: rows marked `+glcret=gens` return only on
/// those generations; LLVM rejects glc=1 elsewhere.
fn glc_allowed(def: &InstrDef, gen: Gen) -> bool {
    !def.has(flags::GLCRET)
        || def.flag_arg(flags::GLCRET).is_none()
        || def.flag_on(flags::GLCRET, gen)
}

/// MUBUF and MTBUF: `vdata, vaddr, srsrc, soffset`, then `format:[..]` (MTBUF) and the
/// modifiers in LLVM's order.
fn print_buf(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let si = gen.is_si_ci();
    let mtbuf = inst.encoding == Encoding::Mtbuf;
    let offen = inst.field(Field::Offen) != 0;
    let idxen = inst.field(Field::Idxen) != 0;
    let addr64 = si && inst.field(Field::Addr64) != 0;
    let glc = inst.field(Field::Glc) != 0;
    let slc = inst.field(Field::Slc) != 0;
    // The sc1 bit of gfx940 is scc on gfx90a (MUBUF bit 15, MTBUF bit 53); before, LLVM
    // ignores it.
    let sc1_bit = !si && inst.field(Field::Sc1) != 0;
    let lds = !mtbuf && inst.field(Field::Lds) != 0;
    // On gfx90a and gfx940 bit 55 is the acc bit; before, it is tfe.
    let bit55 = inst.field(Field::Tfe) != 0;
    let tfe = !gen.has_unified_agprs() && bit55;
    let acc = acc_data(inst);
    let atomic = def.mnemonic.contains("_atomic_");

    if def.operands.is_empty() {
        return print_buf_bare(inst, out, glc, sc1_bit, lds || bit55);
    }
    if def.has(flags::LDSSTORE) {
        // LLVM has only the form with the lds bit, without a VGPR address and without tfe
        // (gfx90a/gfx940: acc); it ignores the vdata and vaddr fields.
        invalid_if(!lds || offen || idxen || bit55)?;
        out.push(' ');
        push_srsrc(out, gen, inst.field(Field::Srsrc))?;
        out.push_str(", ");
        push_soffset(out, gen, inst.field(Field::Soffset))?;
        let offset = inst.field(Field::Offset) as i64;
        // `lds` is a fixed word of this instruction's syntax, so it precedes the cache bits.
        push_offset_and_cache(out, gen, offset, [false; 5]);
        out.push_str(" lds");
        let sc1 = gen == Gen::Gfx940 && sc1_bit;
        let scc = gen == Gen::Gfx90a && sc1_bit;
        push_offset_and_cache(out, gen, 0, [glc, slc, sc1, scc, false]);
        return Ok(());
    }
    if def.has(flags::GLCRET) && glc {
        invalid_if(!glc_allowed(def, gen))?;
    }
    invalid_if(lds && !def.has(flags::LDS))?;
    // gfx6/7: LLVM's addr64 forms have no offen/idxen variant.
    invalid_if(addr64 && (offen || idxen))?;
    // LLVM has no tfe forms of the atomics, of MTBUF and of the LDS-direct loads, and no
    // AccVGPR form of the latter.
    invalid_if((tfe && (atomic || mtbuf)) || (bit55 && lds))?;
    // gfx90a's floating-point buffer atomics have no scc bit.
    invalid_if(gen == Gen::Gfx90a && sc1_bit && is_float_atomic(def))?;
    let sc1 = gen == Gen::Gfx940 && sc1_bit;
    let scc = gen == Gen::Gfx90a && sc1_bit;

    let mut first = true;
    for op in def.operands {
        match op.role {
            Role::Vdata => {
                if lds {
                    // The LDS-direct form moves data to LDS; LLVM prints no vdata.
                    continue;
                }
                sep(out, &mut first);
                let mut dwords = op.ty.dwords();
                if def.has(flags::D16UNPACKED) && ctx.target.processor.has_packed_d16() {
                    dwords = packed_d16_dwords(dwords);
                }
                push_vreg(out, acc, inst.field(Field::Vdata), dwords + tfe as u32)?;
            }
            Role::Vaddr => {
                sep(out, &mut first);
                let count = (offen as u32) + (idxen as u32) + 2 * (addr64 as u32);
                if count == 0 {
                    out.push_str("off");
                } else {
                    push_vreg(out, false, inst.field(Field::Vaddr), count.min(2))?;
                }
            }
            Role::Srsrc => {
                sep(out, &mut first);
                push_srsrc(out, gen, inst.field(Field::Srsrc))?;
            }
            Role::Soffset => {
                sep(out, &mut first);
                push_soffset(out, gen, inst.field(Field::Soffset))?;
            }
            _ => return Err(PrintError::Invalid),
        }
    }
    if mtbuf {
        push_format(out, gen, inst.field(Field::Dfmt), inst.field(Field::Nfmt));
    }
    if idxen {
        out.push_str(" idxen");
    }
    if offen {
        out.push_str(" offen");
    }
    if addr64 {
        out.push_str(" addr64");
    }
    let offset = inst.field(Field::Offset) as i64;
    push_offset_and_cache(out, gen, offset, [glc, slc, sc1, scc, lds]);
    if tfe {
        out.push_str(" tfe");
    }
    Ok(())
}

/// The scalar offset of MUBUF/MTBUF.
fn push_soffset(out: &mut String, gen: Gen, soffset: u32) -> Result<(), PrintError> {
    push_src(out, gen, soffset, DataType::B32, None)?;
    if soffset == 254 {
        // LLVM decodes lds_direct here but flags it as no scalar register.
        out.push_str("/*Invalid register, operand has 'SReg_32' register class*/");
    }
    Ok(())
}

/// The operand-less cache instructions (buffer_wbinvl1, buffer_wbl2, ...).
///
/// LLVM ignores their register, offset and slc fields but rejects offen, idxen, lds and bit 55.
/// glc and bit 15 are the sc0/sc1 scope of gfx940's buffer_wbl2 and buffer_inv and are ignored
/// by gfx90a's buffer_wbl2; anywhere else they make the word invalid.
fn print_buf_bare(
    inst: &Instruction,
    out: &mut String,
    glc: bool,
    bit15: bool,
    lds_or_55: bool,
) -> Result<(), PrintError> {
    let gen = inst.gen;
    let offen_idxen = inst.field(Field::Offen) != 0 || inst.field(Field::Idxen) != 0;
    invalid_if(offen_idxen || lds_or_55)?;
    let bit15 = bit15 || (gen.is_si_ci() && inst.field(Field::Addr64) != 0);
    let name = inst.mnemonic();
    let scoped = gen == Gen::Gfx940 && matches!(name, "buffer_wbl2" | "buffer_inv");
    if scoped {
        push_cache_bits(out, gen, glc, false, bit15);
    } else if !(gen == Gen::Gfx90a && name == "buffer_wbl2") {
        invalid_if(glc || bit15)?;
    }
    Ok(())
}

/// The 128-bit buffer resource: SGPR quad `4*value`.
///
/// LLVM's SGPR tuples reach s[100:103] (one past the addressable s101), and a quad starting at
/// 104 decodes as xnack_mask (gfx8+) with a comment; other values are as for any scalar tuple.
fn push_srsrc(out: &mut String, gen: Gen, value: u32) -> Result<(), PrintError> {
    match value * 4 {
        100 => out.push_str("s[100:103]"),
        104 if !gen.is_si_ci() => {
            out.push_str("xnack_mask/*Invalid register, operand has 'SReg_128' register class*/")
        }
        n => push_scalar_reg(out, gen, n, 4)?,
    }
    Ok(())
}

/// The modifier tail MUBUF and FLAT share, in LLVM's order: `offset:N` (when non-zero), the
/// cache bits, `scc` (gfx90a bit 15/25) and `lds`. `bits` is `[glc, slc, sc1, scc, lds]`.
fn push_offset_and_cache(out: &mut String, gen: Gen, offset: i64, bits: [bool; 5]) {
    let [glc, slc, sc1, scc, lds] = bits;
    if offset != 0 {
        out.push_str(" offset:");
        push_i64(out, offset);
    }
    push_cache_bits(out, gen, glc, slc, sc1);
    if scc {
        out.push_str(" scc");
    }
    if lds {
        out.push_str(" lds");
    }
}

/// The cache-policy modifiers: `glc slc` before gfx940, `sc0 nt sc1` there (LLVM's order).
fn push_cache_bits(out: &mut String, gen: Gen, glc: bool, slc: bool, sc1: bool) {
    if gen == Gen::Gfx940 {
        for (on, name) in [(glc, " sc0"), (slc, " nt"), (sc1, " sc1")] {
            if on {
                out.push_str(name);
            }
        }
    } else {
        if glc {
            out.push_str(" glc");
        }
        if slc {
            out.push_str(" slc");
        }
    }
}

/// ` format:[DFMT,NFMT]`, each part left out at its default (dfmt 1, nfmt 0), the whole
/// omitted when both are.
fn push_format(out: &mut String, gen: Gen, dfmt: u32, nfmt: u32) {
    let show_d = dfmt != 1;
    let show_n = nfmt != 0;
    if !show_d && !show_n {
        return;
    }
    out.push_str(" format:[");
    if show_d {
        out.push_str(BUF_DATA_FORMATS.get(dfmt as usize).copied().unwrap_or(""));
        if show_n {
            out.push(',');
        }
    }
    if show_n {
        out.push_str(buf_num_format_name(gen, nfmt).unwrap_or(""));
    }
    out.push(']');
}

// ---------------------------------------------------------------------------------------------
// FLAT / GLOBAL / SCRATCH

/// The saddr value that means "no scalar address" (`off`).
const SADDR_OFF: u32 = 0x7f;

/// FLAT, GLOBAL and SCRATCH: `[vdst,] vaddr, [vdata,] [saddr]`, then the modifiers.
fn print_flat(inst: &Instruction, out: &mut String) -> Result<(), PrintError> {
    let def = inst.def();
    let gen = inst.gen;
    let enc = inst.encoding;
    let gfx9 = gen.is_gfx9_family();
    let glc = inst.field(Field::Glc) != 0;
    let slc = inst.field(Field::Slc) != 0;
    // Bit 25 is sc1 on gfx940 and scc on gfx90a; LLVM ignores it on gfx9 and gfx908.
    let bit25 = inst.field(Field::Sc1) != 0;
    let acc = acc_data(inst);
    let saddr = inst.field(Field::Saddr);
    let lds_bit = inst.field(Field::Lds) != 0;
    if !gfx9 {
        // gfx7/8: LLVM decodes with the gfx9 positions but has no segments, lds or saddr.
        invalid_if(lds_bit || inst.field(Field::Seg) != 0 || saddr != 0)?;
    }
    // gfx940 scratch: bit 13 (SVS) says a vaddr is present; elsewhere bit 13 is the lds bit.
    let svs = gen == Gen::Gfx940 && enc == Encoding::Scratch && lds_bit;
    let lds = lds_bit && !svs;
    if lds {
        invalid_if(gen == Gen::Gfx940 || enc == Encoding::Flat || !def.has(flags::LDS))?;
    }
    if gfx9 && enc == Encoding::Flat {
        // FLAT-segment words must leave saddr zero.
        invalid_if(saddr != 0)?;
    }
    let atomic = def.mnemonic.contains("_atomic_");
    let returns = atomic && glc;
    if returns {
        invalid_if(!glc_allowed(def, gen))?;
    }
    // The acc bit comes from vdst or vdata; an instruction with neither (gfx940's
    // *_load_lds_*) must leave it zero. So must the lds forms of gfx9-gfx90a (the bit is nv
    // before gfx90a).
    let has_data = def.operand(Role::Vdst).is_some() || def.operand(Role::Vdata).is_some();
    invalid_if(gen.has_unified_agprs() && acc && !has_data)?;
    invalid_if(lds && inst.field(Field::Acc) != 0)?;
    // gfx908's and gfx90a's floating-point atomics have no bit 25 (scc).
    invalid_if(matches!(gen, Gen::Gfx908 | Gen::Gfx90a) && bit25 && is_float_atomic(def))?;
    let sc1 = gen == Gen::Gfx940 && bit25;
    let scc = gen == Gen::Gfx90a && bit25;

    let vdata = def.operand(Role::Vdata);
    let mut first = true;
    if returns {
        // A returning atomic writes the old memory value to vdst: as wide as vdata, half that
        // for cmpswap (whose vdata holds the compare value too).
        let data = vdata.ok_or(PrintError::Invalid)?;
        let mut dwords = data.ty.dwords();
        if def.mnemonic.contains("cmpswap") {
            dwords /= 2;
        }
        sep(out, &mut first);
        push_vreg(out, acc, inst.field(Field::Vdst), dwords)?;
    }
    for op in def.operands {
        match op.role {
            Role::Vdst => {
                if lds {
                    // The LDS-direct form writes LDS, not VGPRs; LLVM prints no vdst.
                    continue;
                }
                sep(out, &mut first);
                push_vreg(out, acc, inst.field(Field::Vdst), op.ty.dwords())?;
            }
            Role::Vaddr => {
                sep(out, &mut first);
                let vaddr = inst.field(Field::Addr);
                match enc {
                    Encoding::Global if saddr != SADDR_OFF => push_vreg(out, false, vaddr, 1)?,
                    Encoding::Scratch => {
                        let has_vaddr = if gen == Gen::Gfx940 {
                            svs
                        } else {
                            saddr == SADDR_OFF
                        };
                        if has_vaddr {
                            push_vreg(out, false, vaddr, 1)?;
                        } else {
                            out.push_str("off");
                        }
                    }
                    _ => push_vreg(out, false, vaddr, op.ty.dwords())?,
                }
            }
            Role::Vdata => {
                sep(out, &mut first);
                push_vreg(out, acc, inst.field(Field::Data), op.ty.dwords())?;
            }
            Role::Saddr => {
                sep(out, &mut first);
                if saddr == SADDR_OFF {
                    out.push_str("off");
                } else {
                    push_scalar_reg(out, gen, saddr, op.ty.dwords())?;
                }
            }
            _ => return Err(PrintError::Invalid),
        }
    }
    // gfx7/8 have no offset in hardware, but LLVM decodes and prints the gfx9 field: unsigned
    // (all 13 bits) for FLAT, signed for GLOBAL and SCRATCH.
    let raw = inst.field(Field::Offset);
    let offset = if enc == Encoding::Flat {
        raw as i32
    } else {
        ((raw << 19) as i32) >> 19
    };
    push_offset_and_cache(out, gen, offset as i64, [glc, slc, sc1, scc, lds]);
    Ok(())
}

/// The floating-point atomics (add_f32, pk_add_f16, add/min/max_f64), which lack gfx90a's
/// scc bit.
fn is_float_atomic(def: &InstrDef) -> bool {
    def.mnemonic.contains("_atomic_")
        && ["_f16", "_f32", "_f64"]
            .iter()
            .any(|t| def.mnemonic.ends_with(t))
}
