//! The vector memory families: DS, MUBUF, MTBUF, FLAT, GLOBAL and SCRATCH.

use gcnkit_isa::{flags, Encoding, Field, Gen, InstrDef, Role};

use super::{expect_count, operand, order, Asm, INVALID_OPERAND};
use crate::error::AsmError;
use crate::operand::{ModValue, Operand, Value};
use crate::register::RegFile;
use crate::symbolic;

/// True if the operand is the word `off`.
fn is_off(a: &Asm<'_>, o: &Operand) -> bool {
    matches!(&o.value, Value::Ident(r) if a.text(r) == "off") && !o.mods.any() && !o.mods.lit
}

/// Data registers of a memory instruction: VGPRs, or (gfx90a+, rows with `+acc`) AGPRs, all
/// of one kind. Returns the register number and records the kind in `acc`.
fn data_reg(
    a: &Asm<'_>,
    def: &InstrDef,
    o: &Operand,
    dwords: u32,
    acc: &mut Option<bool>,
) -> Result<u32, AsmError> {
    let (n, agpr) = a.avreg(o, dwords)?;
    if agpr && !def.has(flags::ACC) && !def.has(flags::GDSONLY) {
        return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
    }
    match *acc {
        Some(k) if k != agpr => Err(AsmError::new(
            o.span.clone(),
            "invalid register class: data and dst should be all VGPR or AGPR",
        )),
        _ => {
            *acc = Some(agpr);
            Ok(n)
        }
    }
}

/// DS: `vdst, addr, data0, data1` then `offset:N` or `offset0:N offset1:N`, and `gds`.
pub(super) fn encode_ds(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let gen = a.gen;
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    expect_count(ops, def.operands.len(), a.src)?;
    a.order = order::DS;
    let gws = def.has(flags::GDSONLY);
    let mut acc = None;
    for (od, o) in def.operands.iter().zip(ops) {
        let dwords = od.ty.dwords();
        let (field, v) = match od.role {
            Role::Addr if !gws => (Field::Addr, a.vreg(o, 1, false)?),
            Role::Addr => {
                let v = data_reg(a, def, o, dwords, &mut acc)?;
                if a.gen.has_unified_agprs() && v % 2 != 0 {
                    return Err(AsmError::new(o.span.clone(), "vgpr must be even aligned"));
                }
                (Field::Addr, v)
            }
            Role::Vdst => (Field::Vdst, data_reg(a, def, o, dwords, &mut acc)?),
            Role::Data0 => (Field::Data0, data_reg(a, def, o, dwords, &mut acc)?),
            Role::Data1 => (Field::Data1, data_reg(a, def, o, dwords, &mut acc)?),
            _ => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
        };
        a.set(field, v);
    }
    if acc == Some(true) {
        a.set(Field::Acc, 1);
    }
    if def.has(flags::OFF2) {
        for (name, field) in [("offset0", Field::Offset0), ("offset1", Field::Offset1)] {
            if let Some((v, span)) = a.int_mod(name)? {
                if !(0..256).contains(&v) {
                    return Err(AsmError::new(span, "invalid operand for instruction"));
                }
                a.set(field, v as u32);
            }
        }
    } else if def.mnemonic == "ds_swizzle_b32" && a.has_mod("offset") {
        let v = swizzle_offset(a)?;
        a.set(Field::Offset, v);
    } else if let Some((v, span)) = a.int_mod("offset")? {
        if !(0..65536).contains(&v) {
            return Err(AsmError::new(span, "expected a 16-bit unsigned offset"));
        }
        a.set(Field::Offset, v as u32);
    }
    let gds = a.bit("gds");
    if gds || gws {
        if def.has(flags::NOGDS) || (gds && gen.has_unified_agprs() && !gws) {
            return Err(AsmError::new(
                0..a.src.len(),
                "gds modifier is not supported on this GPU",
            ));
        }
        a.set(Field::Gds, 1);
    }
    Ok(())
}

fn swizzle_offset(a: &mut Asm<'_>) -> Result<u32, AsmError> {
    let m = a.take("offset").expect("checked by the caller");
    match &m.value {
        ModValue::Call(name, args) if a.text(name) == "swizzle" => {
            symbolic::swizzle(a.src, args, &m.span)
        }
        ModValue::Int(v) if (0..65536).contains(v) => Ok(*v as u32),
        _ => {
            // llvm-mc points at the value, after `offset:`.
            let text = &a.src[m.span.clone()];
            let colon = text.find(':').map_or(0, |i| i + 1);
            let blanks = text[colon..].len() - text[colon..].trim_start().len();
            let start = m.span.start + colon + blanks;
            Err(AsmError::new(start..m.span.end, "expected a 16-bit offset"))
        }
    }
}

/// The cache-policy modifiers of MUBUF/MTBUF/FLAT: `glc slc` (and gfx90a `scc`), or
/// `sc0 sc1 nt` on gfx940. Sets the fields named by the layout.
fn cache_bits(a: &mut Asm<'_>, glc_ok: bool) -> Result<(), AsmError> {
    let gfx940 = a.gen == Gen::Gfx940;
    // Before gfx940 llvm-mc knows `dlc` (gfx10's) and `scc` (gfx90a's) by name everywhere,
    // and says where they are missing.
    if !gfx940 {
        if let Some((_, m)) = a.take_bit("dlc") {
            return Err(AsmError::new(
                m.span.clone(),
                "dlc modifier is not supported on this GPU",
            ));
        }
        if a.gen != Gen::Gfx90a {
            if let Some((_, m)) = a.take_bit("scc") {
                return Err(AsmError::new(
                    m.span.clone(),
                    "scc modifier is not supported on this GPU",
                ));
            }
        }
    }
    let (glc, slc, sc1) = if gfx940 {
        (a.bit("sc0"), a.bit("nt"), a.bit("sc1"))
    } else {
        let scc = a.gen == Gen::Gfx90a && a.bit("scc");
        (a.bit("glc"), a.bit("slc"), scc)
    };
    if glc {
        if !glc_ok {
            return Err(AsmError::new(0..a.src.len(), INVALID_OPERAND));
        }
        a.set(Field::Glc, 1);
    }
    if slc {
        a.set(Field::Slc, 1);
    }
    if sc1 {
        a.set(Field::Sc1, 1);
    }
    Ok(())
}

/// Whether a `+glcret=gens` row may have glc set on this generation.
fn glc_allowed(def: &InstrDef, gen: Gen) -> bool {
    !def.has(flags::GLCRET)
        || def.flag_arg(flags::GLCRET).is_none()
        || def.flag_on(flags::GLCRET, gen)
}

/// The addressing modifiers of a MUBUF/MTBUF statement.
#[derive(Clone, Copy)]
struct BufAddr {
    offen: bool,
    idxen: bool,
    addr64: bool,
    lds: bool,
    tfe: bool,
}

impl BufAddr {
    fn take(a: &mut Asm<'_>, def: &InstrDef) -> Result<BufAddr, AsmError> {
        let mtbuf = def.encoding == Encoding::Mtbuf;
        let addr = BufAddr {
            offen: a.flag("offen"),
            idxen: a.flag("idxen"),
            addr64: a.gen.is_si_ci() && a.flag("addr64"),
            lds: !mtbuf && def.has(flags::LDS) && a.flag("lds"),
            // LLVM 19 defines no MTBUF instruction with tfe.
            tfe: !a.gen.has_unified_agprs() && !mtbuf && a.flag("tfe"),
        };
        // The LDS-DMA loads have no tfe variant.
        if addr.tfe && addr.lds {
            let tfe = a.mods.iter().find(|m| m.name == "tfe");
            let span = tfe.map_or(0..a.src.len(), |m| m.span.clone());
            return Err(AsmError::new(span, INVALID_OPERAND));
        }
        if addr.tfe && def.mnemonic.contains("_store_") {
            return Err(AsmError::new(
                0..a.src.len(),
                "TFE modifier has no meaning for store instructions",
            ));
        }
        Ok(addr)
    }

    /// VGPRs the address takes (0: `off`).
    fn vaddr_dwords(&self) -> u32 {
        self.offen as u32 + self.idxen as u32 + 2 * self.addr64 as u32
    }
}

/// MUBUF and MTBUF: `vdata, vaddr, srsrc, soffset` then format and modifiers.
pub(super) fn encode_buf(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    let gen = a.gen;
    let mtbuf = def.encoding == Encoding::Mtbuf;
    a.order = if mtbuf { order::MTBUF } else { order::MUBUF };
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    if def.operands.is_empty() {
        expect_count(ops, 0, a.src)?;
        if gen == Gen::Gfx940 && matches!(def.mnemonic, "buffer_wbl2" | "buffer_inv") {
            cache_bits(a, true)?;
        }
        return Ok(());
    }
    if def.has(flags::LDSSTORE) {
        return encode_lds_store(a, def, ops);
    }
    let addr = BufAddr::take(a, def)?;
    let n = buf_operands(a, def, ops, &addr)?;
    expect_count(ops, n, a.src)?;
    for (on, field) in [
        (addr.offen, Field::Offen),
        (addr.idxen, Field::Idxen),
        (addr.addr64, Field::Addr64),
        (addr.lds, Field::Lds),
        (addr.tfe, Field::Tfe),
    ] {
        if on {
            a.set(field, 1);
        }
    }
    if mtbuf {
        let soffset = ops.get(n.saturating_sub(1));
        buf_format(a, soffset)?;
    }
    buf_offset(a)?;
    cache_bits(a, glc_allowed(def, gen))
}

/// The 12-bit `offset:N` of MUBUF/MTBUF.
fn buf_offset(a: &mut Asm<'_>) -> Result<(), AsmError> {
    if let Some((v, span)) = a.int_mod("offset")? {
        // llvm-mc 19 takes 16-bit values and silently drops bits 15:12 (a bug gcnkit does
        // not copy: docs/llvm-differences.md); beyond 16 bits it refuses them too.
        if !(0..4096).contains(&v) {
            let msg = if (0..0x10000).contains(&v) {
                "expected a 12-bit unsigned offset"
            } else {
                "expected a 16-bit unsigned offset"
            };
            return Err(AsmError::new(span, msg));
        }
        a.set(Field::Offset, v as u32);
    }
    Ok(())
}

/// The order of a `+ldsstore` statement's modifiers: `lds` is a fixed word between the
/// offset and the cache bits.
const LDS_STORE_ORDER: order::Order = &[&["offset"], &["lds"], order::CACHE];

/// `buffer_store_lds_dword srsrc, soffset [offset:N] lds [cache bits]`: no data or address
/// VGPRs; the lds bit is always set.
///
/// llvm-mc reads `lds` as a required word of this instruction's syntax, not as a modifier:
/// only `offset:` may come before it (anything else there, `offen` or `glc`, is an invalid
/// operand), and without it the statement has too few operands.
fn encode_lds_store(a: &mut Asm<'_>, def: &InstrDef, ops: &[Operand]) -> Result<(), AsmError> {
    a.order = LDS_STORE_ORDER;
    let addr = BufAddr {
        offen: false,
        idxen: false,
        addr64: false,
        lds: true,
        tfe: false,
    };
    let n = buf_operands(a, def, ops, &addr)?;
    let lds_at = a.mods.iter().position(|m| m.name == "lds");
    let before_lds = &a.mods[..lds_at.unwrap_or(a.mods.len())];
    let misplaced = before_lds.iter().find(|m| m.name != "offset");
    let again = lds_at.and_then(|i| a.mods[i + 1..].iter().find(|m| m.name == "lds"));
    if let Some(m) = misplaced.or(again) {
        return Err(AsmError::new(m.span.clone(), INVALID_OPERAND));
    }
    expect_count(ops, n, a.src)?;
    if !a.flag("lds") {
        return Err(super::too_few_operands(a.src));
    }
    a.set(Field::Lds, 1);
    buf_offset(a)?;
    cache_bits(a, true)
}

/// The register operands of a MUBUF/MTBUF row; returns how many the statement must have.
fn buf_operands(
    a: &mut Asm<'_>,
    def: &InstrDef,
    ops: &[Operand],
    addr: &BufAddr,
) -> Result<usize, AsmError> {
    let mut i = 0;
    let mut acc = None;
    for od in def.operands {
        if od.role == Role::Vdata && addr.lds {
            continue;
        }
        let o = operand(ops, i, a.src)?;
        match od.role {
            Role::Vdata => {
                let mut dwords = od.ty.dwords();
                if def.has(flags::D16UNPACKED) && a.target.processor.has_packed_d16() {
                    dwords = dwords.div_ceil(2);
                }
                let v = data_reg(a, def, o, dwords + addr.tfe as u32, &mut acc)?;
                a.set(Field::Vdata, v);
            }
            Role::Vaddr => match addr.vaddr_dwords() {
                0 if is_off(a, o) => {}
                0 => return Err(AsmError::new(o.span.clone(), INVALID_OPERAND)),
                n => {
                    let v = a.vreg(o, n.min(2), false)?;
                    a.set(Field::Vaddr, v);
                }
            },
            Role::Srsrc => {
                let v = a.sreg(o, 4)?;
                if v % 4 != 0 || v >= 128 {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                a.set(Field::Srsrc, v / 4);
            }
            Role::Soffset => {
                // Before gfx940 llvm-mc reads a bare `scc` as the cache-policy modifier
                // (gfx90a's), not as the register `src_scc`, where soffset belongs in the
                // loads that also have an LDS form (it matches that form first).
                // Only the loads that also have an LDS form: llvm-mc matches that form
                // first, which takes `scc` as the modifier. MTBUF reads its format together
                // with soffset, and `scc` as the register, as the other MUBUF rows do.
                let lds_form = def.encoding == Encoding::Mubuf && def.has(flags::LDS);
                if lds_form && a.gen != Gen::Gfx940 && a.text(&o.span) == "scc" {
                    let msg = if a.gen == Gen::Gfx90a {
                        INVALID_OPERAND
                    } else {
                        "scc modifier is not supported on this GPU"
                    };
                    return Err(AsmError::new(o.span.clone(), msg));
                }
                // llvm-mc says no more than "invalid operand" of a literal soffset.
                let v = a.ssrc(o, gcnkit_isa::DataType::B32, false).map_err(|e| {
                    match e.message.as_str() {
                        "literal operands are not supported" => {
                            AsmError::new(o.span.clone(), INVALID_OPERAND)
                        }
                        _ => e,
                    }
                })?;
                a.set(Field::Soffset, v);
            }
            _ => return Err(AsmError::new(0..a.src.len(), INVALID_OPERAND)),
        }
        i += 1;
    }
    if acc == Some(true) {
        a.set(Field::Acc, 1);
    }
    Ok(i)
}

/// `format:[DFMT,NFMT]` or `format:N` after `soffset`, or the legacy `dfmt:N, nfmt:N`
/// before it (llvm-mc parses the format together with `soffset`: the legacy form in front
/// of it, the `format:` form behind it). Defaults: dfmt 1, nfmt 0.
fn buf_format(a: &mut Asm<'_>, soffset: Option<&Operand>) -> Result<(), AsmError> {
    let (mut dfmt, mut nfmt) = (1u32, 0u32);
    let before_soffset = soffset.map_or(0, |o| o.span.start);
    // The legacy form in front of soffset and `format:` behind it name the format twice.
    let legacy = a
        .mods
        .iter()
        .any(|m| matches!(m.name, "dfmt" | "nfmt") && m.span.start < before_soffset);
    let after_soffset = soffset.map_or(0, |o| o.span.end);
    let first_after = a.mods.iter().find(|m| m.span.start >= after_soffset);
    if let Some(m) = first_after.filter(|m| m.name == "format" && legacy) {
        return Err(AsmError::new(m.span.clone(), "duplicate format"));
    }
    if let Some(m) = a.take("format") {
        match &m.value {
            ModValue::Idents(list) => {
                let (mut seen_d, mut seen_n) = (false, false);
                for r in list {
                    let name = a.text(r);
                    let duplicate = if let Some(d) = symbolic::data_format(name) {
                        dfmt = d;
                        std::mem::replace(&mut seen_d, true).then_some("duplicate data format")
                    } else if let Some(n) = symbolic::num_format(a.gen, name) {
                        nfmt = n;
                        std::mem::replace(&mut seen_n, true).then_some("duplicate numeric format")
                    } else {
                        Some("unsupported format")
                    };
                    if let Some(message) = duplicate {
                        return Err(AsmError::new(r.clone(), message));
                    }
                }
            }
            ModValue::Int(v) if (0..128).contains(v) => {
                dfmt = *v as u32 & 0xf;
                nfmt = (*v as u32) >> 4;
            }
            _ => return Err(AsmError::new(m.span.clone(), "invalid format")),
        }
    }
    for (name, max, value) in [("dfmt", 16, &mut dfmt), ("nfmt", 8, &mut nfmt)] {
        let Some((v, span)) = a.int_mod(name)? else {
            continue;
        };
        if span.start > before_soffset {
            return Err(AsmError::new(span, order::NOT_VALID));
        }
        *value = u32::try_from(v)
            .ok()
            .filter(|&v| v < max)
            .ok_or_else(|| AsmError::new(span, format!("out of range {name}")))?;
    }
    a.set(Field::Dfmt, dfmt);
    a.set(Field::Nfmt, nfmt);
    Ok(())
}

/// FLAT, GLOBAL, SCRATCH: `[vdst,] vaddr, [vdata,] [saddr]` then modifiers.
pub(super) fn encode_flat(
    a: &mut Asm<'_>,
    def: &InstrDef,
    ops: &[Operand],
) -> Result<(), AsmError> {
    let gen = a.gen;
    let enc = def.encoding;
    a.order = order::FLAT;
    a.set(Field::Op, def.opcode(gen).unwrap_or(0) as u32);
    if gen.is_gfx9_family() {
        let seg = match enc {
            Encoding::Scratch => 1,
            Encoding::Global => 2,
            _ => 0,
        };
        a.set(Field::Seg, seg);
    }
    let lds = gen != Gen::Gfx940 && def.has(flags::LDS) && a.flag("lds");
    let mut acc = None;
    let n = flat_operands(a, def, ops, lds, &mut acc)?;
    expect_count(ops, n, a.src)?;
    if acc == Some(true) {
        a.set(Field::Acc, 1);
    }
    if lds {
        a.set(Field::Lds, 1);
    }
    flat_offset(a, enc)?;
    cache_bits(a, glc_allowed(def, gen))
}

/// The register operands of a FLAT/GLOBAL/SCRATCH row (an atomic with glc/sc0 returns,
/// and has a destination first); returns how many the statement must have.
fn flat_operands(
    a: &mut Asm<'_>,
    def: &InstrDef,
    ops: &[Operand],
    lds: bool,
    acc: &mut Option<bool>,
) -> Result<usize, AsmError> {
    let glc_name = if a.gen == Gen::Gfx940 { "sc0" } else { "glc" };
    let returns = def.mnemonic.contains("_atomic_") && a.has_mod(glc_name);
    let mut i = 0;
    if returns {
        let data = def
            .operand(Role::Vdata)
            .ok_or_else(|| AsmError::new(0..a.src.len(), INVALID_OPERAND))?;
        let mut dwords = data.ty.dwords();
        if def.mnemonic.contains("cmpswap") {
            dwords /= 2;
        }
        let v = data_reg(a, def, operand(ops, 0, a.src)?, dwords, acc)?;
        a.set(Field::Vdst, v);
        i = 1;
    }
    let mut saddr_is_reg = false;
    let mut vaddr_op: Option<&Operand> = None;
    for od in def.operands {
        if od.role == Role::Vdst && lds {
            continue;
        }
        let o = operand(ops, i, a.src)?;
        match od.role {
            Role::Vdst => {
                let v = data_reg(a, def, o, od.ty.dwords(), acc)?;
                a.set(Field::Vdst, v);
            }
            Role::Vdata => {
                let v = data_reg(a, def, o, od.ty.dwords(), acc)?;
                a.set(Field::Data, v);
            }
            Role::Vaddr => vaddr_op = Some(o),
            Role::Saddr if is_off(a, o) => a.set(Field::Saddr, 0x7f),
            Role::Saddr => {
                let v = a.sreg(o, od.ty.dwords())?;
                if v >= 0x7f {
                    return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
                }
                a.set(Field::Saddr, v);
                saddr_is_reg = true;
            }
            _ => return Err(AsmError::new(0..a.src.len(), INVALID_OPERAND)),
        }
        i += 1;
    }
    if let Some(o) = vaddr_op {
        flat_vaddr(a, def, o, saddr_is_reg)?;
    }
    Ok(i)
}

/// `offset:N`: 12-bit unsigned for FLAT (none before gfx9), 13-bit signed for GLOBAL and
/// SCRATCH.
fn flat_offset(a: &mut Asm<'_>, enc: Encoding) -> Result<(), AsmError> {
    let gfx9 = a.gen.is_gfx9_family();
    // llvm-mc also reads the flat offset as `inst_offset:N`, in the same place: never both.
    if a.has_mod("offset") {
        if let Some(m) = a.take("inst_offset") {
            return Err(AsmError::new(m.span.clone(), order::NOT_VALID));
        }
    }
    let offset = match a.int_mod("offset")? {
        Some(o) => Some(o),
        None => a.int_mod("inst_offset")?,
    };
    let Some((v, span)) = offset else {
        return Ok(());
    };
    let (ok, msg) = match enc {
        Encoding::Flat if gfx9 => ((0..4096).contains(&v), "expected a 12-bit unsigned offset"),
        // Before gfx9 only `offset:0` is accepted.
        Encoding::Flat => (v == 0, "flat offset modifier is not supported on this GPU"),
        _ => (
            (-4096..4096).contains(&v),
            "expected a 13-bit signed offset",
        ),
    };
    if !ok {
        return Err(AsmError::new(span, msg));
    }
    a.set(Field::Offset, v as u32 & 0x1fff);
    Ok(())
}

fn flat_vaddr(
    a: &mut Asm<'_>,
    def: &InstrDef,
    o: &Operand,
    saddr_is_reg: bool,
) -> Result<(), AsmError> {
    let gen = a.gen;
    let dwords = def.operand(Role::Vaddr).map_or(2, |d| d.ty.dwords());
    match def.encoding {
        Encoding::Global if saddr_is_reg => {
            let v = a.vreg(o, 1, false)?;
            a.set(Field::Addr, v);
        }
        Encoding::Scratch => {
            if is_off(a, o) {
                // Only gfx940 has scratch access without any address (its ST mode).
                if gen != Gen::Gfx940 && !saddr_is_reg {
                    return Err(AsmError::new(
                        0..a.src.len(),
                        "operands are not valid for this GPU or mode",
                    ));
                }
                return Ok(());
            }
            let v = a.vreg(o, 1, false)?;
            a.set(Field::Addr, v);
            if gen == Gen::Gfx940 {
                // gfx940: SVS says a VGPR address is present.
                a.set(Field::Sve, 1);
            } else if saddr_is_reg {
                return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
            }
        }
        _ => {
            let r = a.reg(o)?;
            if r.file != RegFile::Vgpr || r.count != dwords {
                return Err(AsmError::new(o.span.clone(), INVALID_OPERAND));
            }
            let v = a.vreg(o, dwords, false)?;
            a.set(Field::Addr, v);
        }
    }
    Ok(())
}
