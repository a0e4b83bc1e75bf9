//! From a parsed statement to bytes: row lookup, per-family encoders, and the helpers they
//! share (operand checks, constants and literals, modifiers, fixups).

mod bus;
mod caps;
mod memory;
mod misc;
mod order;
mod scalar;
mod spell;
mod vop;
mod vop3;

use std::ops::Range;
use std::sync::OnceLock;

use gcnkit_isa::encoding::{layout, Layout};
use gcnkit_isa::{
    DataType, Encoding, Field, Gen, InstrDef, InstrId, MnemonicAlias, Role, Target, INSTRUCTIONS,
};
use rustc_hash::FxHashMap;

use crate::error::AsmError;
use crate::expr::{Expr, SymbolValues, Variant};
use crate::literal::{encode_float, encode_int, Const};
use crate::operand::{
    parse_stmt, parse_stmt_reading_flags, ModValue, Modifier, Operand, Stmt, Value,
};
use crate::register::{Reg, RegFile, LDS_DIRECT};
use crate::{Encoded, Fixup, FixupKind};

/// The form a mnemonic suffix asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// No suffix: the assembler chooses.
    Any,
    /// `_e32`.
    E32,
    /// `_e64`.
    E64,
    /// `_sdwa`.
    Sdwa,
    /// `_dpp`.
    Dpp,
}

/// Mnemonic to table rows, built once. Hashed with FxHash: SipHash's resistance to chosen
/// keys buys nothing for a fixed table, and hashing was a twentieth of the assembler's time.
fn mnemonic_map() -> &'static FxHashMap<&'static str, Vec<InstrId>> {
    static MAP: OnceLock<FxHashMap<&'static str, Vec<InstrId>>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut m: FxHashMap<&'static str, Vec<InstrId>> = FxHashMap::default();
        for (id, row) in INSTRUCTIONS.iter().enumerate() {
            m.entry(row.mnemonic).or_default().push(id as InstrId);
        }
        m
    })
}

/// The rows for a mnemonic as written, and the form its suffix asks for.
fn lookup(mnemonic: &str) -> Option<(&'static [InstrId], Want)> {
    let map = mnemonic_map();
    if let Some(rows) = map.get(mnemonic) {
        return Some((rows, Want::Any));
    }
    for (suffix, want) in [
        ("_e32", Want::E32),
        ("_e64", Want::E64),
        ("_sdwa", Want::Sdwa),
        ("_dpp", Want::Dpp),
    ] {
        if let Some(base) = mnemonic.strip_suffix(suffix) {
            if let Some(rows) = map.get(base) {
                return Some((rows, want));
            }
        }
    }
    None
}

/// The rows and form `mnemonic` names on `target`, following LLVM's aliases
/// ([`gcnkit_isa::mnemonic_aliases`]) where the name itself has no row there.
fn lookup_on(
    mnemonic: &str,
    target: &Target,
) -> Option<(&'static [InstrId], Want, Option<&'static MnemonicAlias>)> {
    let found = lookup(mnemonic);
    let here = |rows: &[InstrId]| {
        rows.iter()
            .any(|&id| INSTRUCTIONS[id as usize].exists_on(target.processor))
    };
    if let Some((rows, want)) = found.filter(|(rows, _)| here(rows)) {
        return Some((rows, want, None));
    }
    let forms = [
        ("", Want::Any),
        ("_e32", Want::E32),
        ("_e64", Want::E64),
        ("_sdwa", Want::Sdwa),
        ("_dpp", Want::Dpp),
    ];
    for (suffix, want) in forms {
        let Some(base) = mnemonic.strip_suffix(suffix) else {
            continue;
        };
        if let Some(alias) = gcnkit_isa::mnemonic_alias(base, target.gen()) {
            if let Some(rows) = mnemonic_map().get(alias.canonical()) {
                return Some((rows, want, Some(alias)));
            }
        }
    }
    // An alias of another generation names an instruction LLVM knows but this target lacks.
    found.map(|(rows, want)| (rows, want, None)).or_else(|| {
        let alias = gcnkit_isa::mnemonic_aliases()
            .iter()
            .find(|a| a.alias == mnemonic)?;
        Some((
            mnemonic_map().get(alias.canonical())?.as_slice(),
            Want::Any,
            None,
        ))
    })
}

/// The form of an alias that stands for a VOP3 encoding with the 32-bit form's operand rules
/// (gfx6/gfx7 reading `v_add_co_u32`), or llvm-mc's error for the statement.
fn vop2_operands_in_vop3(stmt: &str, parsed: &Stmt<'_>, want: Want) -> Result<Want, Vec<AsmError>> {
    let whole = || {
        let start = stmt.len() - stmt.trim_start().len();
        start..start
    };
    let not_valid = |msg: &str| vec![AsmError::new(whole(), msg)];
    match want {
        Want::Any | Want::E64 => {}
        Want::E32 => return Err(not_valid("operands are not valid for this GPU or mode")),
        Want::Sdwa => {
            return Err(not_valid(
                "sdwa variant of this instruction is not supported",
            ))
        }
        Want::Dpp => {
            return Err(not_valid(
                "dpp variant of this instruction is not supported",
            ))
        }
    }
    if let Some(o) = parsed.operands.iter().find(|o| o.mods.any()) {
        return Err(vec![AsmError::new(o.span.clone(), order::NOT_VALID)]);
    }
    let src1_vgpr = matches!(parsed.operands.get(3), Some(o) if matches!(&o.value, Value::Reg(r) if r.is_vgpr()));
    if parsed.operands.len() >= 4 && !src1_vgpr {
        return Err(not_valid("operands are not valid for this GPU or mode"));
    }
    Ok(Want::E64)
}

/// Assembles one instruction statement (mnemonic and operands; no label, no comment) for
/// `target`. Symbols are looked up in `syms` (`.` is the statement's address).
pub fn assemble_instruction(
    target: &Target,
    stmt: &str,
    syms: &dyn SymbolValues,
) -> Result<Encoded, Vec<AsmError>> {
    let gen = target.gen();
    let parsed =
        parse_stmt(stmt, gen, syms).map_err(|e| vec![not_here(target, stmt).unwrap_or(e)])?;
    let result = assemble_parsed(target, stmt, syms, &parsed);
    // Where operands are missing, llvm-mc reads the modifier words that stand where they
    // belong as operands (symbols, or `scc` the register): try one word more at a time.
    let flags = parsed
        .modifiers
        .iter()
        .filter(|m| m.value == ModValue::Flag)
        .count();
    let mut result = result;
    for k in 1..=flags {
        match &result {
            Err(e) if e.len() == 1 && e[0].message == TOO_FEW_OPERANDS => {}
            _ => break,
        }
        let Ok(reread) = parse_stmt_reading_flags(stmt, gen, syms, k) else {
            break;
        };
        result = assemble_parsed(target, stmt, syms, &reread);
    }
    result
}

/// llvm-mc's error for a mnemonic the processor lacks, which it gives before reading any
/// operand (so before an operand's own error).
fn not_here(target: &Target, stmt: &str) -> Option<AsmError> {
    let start = stmt.len() - stmt.trim_start().len();
    let len = stmt[start..]
        .find(|c: char| c.is_whitespace())
        .unwrap_or(stmt.len() - start);
    let key = stmt[start..start + len].to_ascii_lowercase();
    let (rows, _, _) = lookup_on(&key, target)?;
    let here = rows
        .iter()
        .any(|&id| INSTRUCTIONS[id as usize].exists_on(target.processor));
    (!here).then(|| AsmError::new(start..start + len, "instruction not supported on this GPU"))
}

/// [`assemble_instruction`] once the statement is parsed.
fn assemble_parsed(
    target: &Target,
    stmt: &str,
    syms: &dyn SymbolValues,
    parsed: &Stmt<'_>,
) -> Result<Encoded, Vec<AsmError>> {
    let name = parsed.mnemonic;
    let lower;
    let key = if name.bytes().any(|c| c.is_ascii_uppercase()) {
        lower = name.to_ascii_lowercase();
        lower.as_str()
    } else {
        name
    };
    let Some((rows, want, alias)) = lookup_on(key, target) else {
        return Err(vec![unknown_mnemonic(target, parsed, key)]);
    };
    let want = match alias {
        Some(a) if a.vop3_with_vop2_operands() => vop2_operands_in_vop3(stmt, parsed, want)?,
        _ => want,
    };
    // llvm-mc refuses a mnemonic the processor lacks before it reads any operand.
    let here = |id: &InstrId| INSTRUCTIONS[*id as usize].exists_on(target.processor);
    if !rows.iter().any(here) {
        return Err(vec![AsmError::new(
            parsed.mnemonic_span.clone(),
            "instruction not supported on this GPU",
        )]);
    }
    check_registers(target, parsed)?;
    check_structured(parsed, rows)?;
    let mut first_err: Option<AsmError> = None;
    let ops_end = parsed.operands.last().map_or(0, |o| o.span.end);
    for &id in rows {
        let def = &INSTRUCTIONS[id as usize];
        if !def.exists_on(target.processor) {
            continue;
        }
        let mut a = Asm::new(target, stmt, syms, &parsed.modifiers, def.encoding);
        a.ops_end = ops_end;
        a.mnemonic = def.mnemonic;
        match encode_row(&mut a, def, parsed, want) {
            Ok(()) => match a.finish() {
                Ok(enc) => return Ok(enc),
                Err(e) => first_err = first_err.or(Some(e)),
            },
            Err(e) => first_err = first_err.or(Some(e)),
        }
    }
    let err = first_err
        .unwrap_or_else(|| AsmError::new(0..stmt.len(), "invalid operand for instruction"));
    let flat = rows.iter().any(|&id| {
        let def = &INSTRUCTIONS[id as usize];
        def.exists_on(target.processor)
            && matches!(
                def.encoding,
                Encoding::Flat | Encoding::Global | Encoding::Scratch
            )
    });
    Err(vec![unknown_modifier(target, parsed, flat, err)])
}

/// llvm-mc reads a modifier only if some instruction of the processor takes it; any other
/// `name:value` fails to parse ("not a valid operand.") before matching, unless an encoding
/// suffix written on the mnemonic already named a form the instruction lacks.
fn unknown_modifier(target: &Target, parsed: &Stmt<'_>, flat: bool, err: AsmError) -> AsmError {
    let suffixed = ["_e32", "_e64", "_sdwa", "_dpp"]
        .iter()
        .any(|s| parsed.mnemonic.to_ascii_lowercase().ends_with(s));
    if suffixed
        && err
            .message
            .ends_with("variant of this instruction is not supported")
    {
        return err;
    }
    let gen = target.gen();
    let unknown = parsed.modifiers.iter().find(|m| {
        matches!(
            m.name,
            // gfx10 and later only.
            "dpp8"
                | "row_share"
                | "row_xmask"
                | "fi"
                | "dim"
                | "wait_exp"
                | "wait_vdst"
                | "wait_va_vdst"
                | "wait_vm_vsrc"
                | "byte_sel"
                | "index_key"
        ) || (m.name == "row_newbcast" && !gen.has_unified_agprs())
            || (m.name == "op_sel" && gen <= gcnkit_isa::Gen::Gfx8)
            // The flat offset's other spelling.
            || (m.name == "inst_offset" && !flat)
    });
    match unknown {
        Some(m) if !(err.message == order::NOT_VALID && err.span.start < m.span.start) => {
            AsmError::new(m.span.clone(), order::NOT_VALID)
        }
        _ => err,
    }
}

/// A structured operand (`{id: 1}`) stands only for the `hwreg` operand of the
/// `s_getreg`/`s_setreg` rows (`+hwreg`); anywhere else llvm-mc cannot read its brace.
fn check_structured(s: &Stmt<'_>, rows: &[InstrId]) -> Result<(), Vec<AsmError>> {
    for (i, o) in s.operands.iter().enumerate() {
        if !matches!(o.value, Value::Struct(_)) {
            continue;
        }
        let hwreg_here = rows.iter().any(|&id| {
            let def = &INSTRUCTIONS[id as usize];
            def.has(gcnkit_isa::flags::HWREG)
                && def.operands.iter().position(|od| od.role == Role::Simm16) == Some(i)
        });
        if !hwreg_here {
            return Err(vec![AsmError::new(
                o.span.start..o.span.start + 1,
                "unknown token in expression",
            )]);
        }
    }
    Ok(())
}

/// llvm-mc's refusal of an encoding suffix the instruction has no form for.
fn unsupported_variant(want: Want, s: &Stmt<'_>) -> AsmError {
    let msg = match want {
        Want::E64 => "e64 variant of this instruction is not supported",
        Want::Sdwa => "sdwa variant of this instruction is not supported",
        Want::Dpp => "dpp variant of this instruction is not supported",
        _ => "e32 variant of this instruction is not supported",
    };
    AsmError::new(s.mnemonic_span.clone(), msg)
}

/// Register checks that depend on the processor rather than the generation: xnack_mask
/// exists only where xnack does.
fn check_registers(target: &Target, s: &Stmt<'_>) -> Result<(), Vec<AsmError>> {
    if target.gen().is_si_ci() || target.processor.supports_xnack {
        return Ok(());
    }
    for o in &s.operands {
        if let Value::Reg(r) = o.value {
            if r.file == RegFile::Special && matches!(r.index, 104 | 105) {
                return Err(vec![AsmError::new(
                    o.span.clone(),
                    "register not available on this GPU",
                )]);
            }
        }
    }
    Ok(())
}

fn encode_row(a: &mut Asm<'_>, def: &InstrDef, s: &Stmt<'_>, want: Want) -> Result<(), AsmError> {
    let ops = &s.operands[..];
    match def.encoding {
        Encoding::Sop2 | Encoding::Sop1 | Encoding::Sopc | Encoding::Sopk | Encoding::Sopp => {
            a.no_suffix(want, s)?;
            scalar::encode(a, def, ops)
        }
        Encoding::Smrd | Encoding::Smem => {
            a.no_suffix(want, s)?;
            scalar::encode_smem(a, def, ops)
        }
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => vop::encode(a, def, s, want),
        Encoding::Vop3 if def.has(gcnkit_isa::flags::E32NAME) => {
            // llvm-mc keeps the gfx6/gfx7 VOP2 name of these: `_e32`, never `_e64`.
            if matches!(want, Want::E64 | Want::Sdwa | Want::Dpp) {
                return Err(unsupported_variant(want, s));
            }
            // A literal lane select is just an invalid operand to llvm-mc.
            vop3::encode_vop3(a, def, ops).map_err(|e| match e.message.as_str() {
                "literal operands are not supported" => AsmError::new(e.span, INVALID_OPERAND),
                _ => e,
            })
        }
        Encoding::Vop3 => {
            a.e64_only(want, s)?;
            vop3::encode_vop3(a, def, ops)
        }
        Encoding::Vop3p => {
            a.e64_only(want, s)?;
            vop3::encode_vop3p(a, def, ops)
        }
        Encoding::Vintrp => misc::encode_vintrp(a, def, s, want),
        Encoding::Mimg => {
            a.no_suffix(want, s)?;
            misc::encode_mimg(a, def, ops)
        }
        Encoding::Exp => {
            a.no_suffix(want, s)?;
            misc::encode_exp(a, def, ops)
        }
        Encoding::Ds => {
            a.no_suffix(want, s)?;
            memory::encode_ds(a, def, ops)
        }
        Encoding::Mubuf | Encoding::Mtbuf => {
            a.no_suffix(want, s)?;
            memory::encode_buf(a, def, ops)
        }
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            a.no_suffix(want, s)?;
            memory::encode_flat(a, def, ops)
        }
    }
}

fn unknown_mnemonic(target: &Target, s: &Stmt<'_>, name: &str) -> AsmError {
    AsmError::new(
        s.mnemonic_span.clone(),
        spell::invalid_instruction(name, target.processor),
    )
}

/// The error llvm-mc gives for an operand that does not fit.
pub(crate) const INVALID_OPERAND: &str = "invalid operand for instruction";

/// The state of one instruction being encoded.
pub(crate) struct Asm<'a> {
    pub target: &'a Target,
    pub gen: Gen,
    pub src: &'a str,
    pub syms: &'a dyn SymbolValues,
    pub(crate) mods: &'a [Modifier<'a>],
    used: u64,
    /// The order the form's modifiers must follow (empty: no modifiers ordered).
    pub order: order::Order,
    /// End of the last operand: modifiers come after the operands.
    ops_end: usize,
    /// The row's mnemonic.
    pub mnemonic: &'static str,
    /// The encoding whose layout `bits` follows.
    pub encoding: Encoding,
    /// The first two dwords.
    pub bits: u64,
    /// The literal or SDWA/DPP dword.
    pub ext: Option<u32>,
    /// True once `ext` holds a literal (not an SDWA/DPP dword).
    pub ext_is_literal: bool,
    /// The source being encoded is a 16-bit integer source of an FP instruction (src1 of
    /// v_ldexp_f16), which llvm-mc also gives the FP16 inline constants.
    pub fp16_inline_ints: bool,
    pub fixups: Vec<Fixup>,
    /// Scalar values read over the constant bus.
    pub bus: bus::Bus,
    /// SMEM: a buffer load (128-bit sbase), whose immediate offset is unsigned.
    pub smem_buffer: bool,
}

impl<'a> Asm<'a> {
    fn new(
        target: &'a Target,
        src: &'a str,
        syms: &'a dyn SymbolValues,
        mods: &'a [Modifier<'a>],
        encoding: Encoding,
    ) -> Asm<'a> {
        let gen = target.gen();
        let mut a = Asm {
            target,
            gen,
            src,
            syms,
            mods,
            used: 0,
            order: &[],
            ops_end: 0,
            mnemonic: "",
            encoding,
            bits: 0,
            ext: None,
            ext_is_literal: false,
            fp16_inline_ints: false,
            fixups: Vec::new(),
            bus: bus::Bus::default(),
            smem_buffer: false,
        };
        a.start(encoding);
        a
    }

    /// Starts over in `encoding`: its identifying bits, nothing else.
    pub fn start(&mut self, encoding: Encoding) {
        self.encoding = encoding;
        let enc = match encoding {
            Encoding::Global | Encoding::Scratch => Encoding::Flat,
            e => e,
        };
        self.bits = layout(enc, self.gen).value;
    }

    /// Starts the instruction over (another form of the same row): nothing encoded, no
    /// modifier used.
    pub fn reset(&mut self, encoding: Encoding) {
        self.used = 0;
        self.order = &[];
        self.ext = None;
        self.ext_is_literal = false;
        self.fixups.clear();
        self.bus = bus::Bus::default();
        self.start(encoding);
    }

    /// Fails on the first modifier no encoder step used, and on modifiers out of the
    /// form's order or written before an operand.
    pub fn check_all_used(&self) -> Result<(), AsmError> {
        if let Some(m) = self
            .mods
            .iter()
            .find(|m| m.span.start < self.ops_end && !matches!(m.name, "dfmt" | "nfmt"))
        {
            return Err(AsmError::new(m.span.clone(), INVALID_OPERAND));
        }
        // A cache-policy word this processor does not know (`glc` on gfx940, `sc0` before) is
        // no cache-policy operand for llvm-mc, just an invalid one, whatever follows it.
        let is_used = |i: usize| self.used & (1 << i) != 0;
        let base = |name: &'a str| name.strip_prefix("no").filter(|b| order::is_cache(b));
        let known: Vec<&str> = (self.mods.iter().enumerate())
            .filter(|&(i, m)| is_used(i) && order::is_cache(m.name))
            .map(|(_, m)| base(m.name).unwrap_or(m.name))
            .collect();
        let foreign = (self.mods.iter().enumerate()).find(|&(i, m)| {
            !is_used(i)
                && order::is_cache(m.name)
                && !known.contains(&base(m.name).unwrap_or(m.name))
        });
        let earlier_foreign = |e: AsmError| match foreign {
            Some((_, m)) if m.span.start <= e.span.start => {
                AsmError::new(m.span.clone(), INVALID_OPERAND)
            }
            _ => e,
        };
        // llvm-mc reads a run of cache-policy words as one operand; a comma inside the run
        // starts another, which no instruction takes (`glc, slc`).
        for pair in self.mods.windows(2) {
            let cache = |m: &Modifier<'_>| order::is_cache(m.name);
            if cache(&pair[0])
                && cache(&pair[1])
                && self
                    .src
                    .get(pair[0].span.end..pair[1].span.start)
                    .is_some_and(|between| between.contains(','))
            {
                return Err(earlier_foreign(AsmError::new(
                    pair[1].span.clone(),
                    INVALID_OPERAND,
                )));
            }
        }
        order::check(self.order, self.mods).map_err(earlier_foreign)?;
        match self
            .mods
            .iter()
            .enumerate()
            .find(|(i, _)| self.used & (1 << i) == 0)
        {
            Some((_, m)) => Err(AsmError::new(m.span.clone(), INVALID_OPERAND)),
            None => Ok(()),
        }
    }

    /// The layout of the current encoding.
    pub fn layout(&self) -> &'static Layout {
        layout(self.encoding, self.gen)
    }

    /// Sets a field; a value that does not fit is an internal error reported at the
    /// whole statement.
    pub fn set(&mut self, field: Field, value: u32) {
        let lay = self.layout();
        let ok = lay.set(&mut self.bits, field, value);
        debug_assert!(ok, "{field:?}={value} does not fit {:?}", self.encoding);
    }

    fn finish(self) -> Result<Encoded, AsmError> {
        self.check_all_used()?;
        let base = match self.encoding {
            Encoding::Global | Encoding::Scratch => 8,
            e => e.base_len(),
        };
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.bits.to_le_bytes());
        let mut len = base;
        if let Some(ext) = self.ext {
            bytes[base..base + 4].copy_from_slice(&ext.to_le_bytes());
            len += 4;
        }
        let mut fixups = self.fixups;
        for f in &mut fixups {
            if f.kind == FixupKind::Literal32 {
                f.offset = base as u8;
            }
        }
        Ok(Encoded {
            bytes,
            len: len as u8,
            fixups,
        })
    }

    /// Non-VALU instructions: llvm-mc ignores an `_e32` suffix (its forced 32-bit
    /// encoding only excludes VOP3), and names the encoding the others ask for.
    fn no_suffix(&self, want: Want, s: &Stmt<'_>) -> Result<(), AsmError> {
        match want {
            Want::Any | Want::E32 => Ok(()),
            _ => Err(unsupported_variant(want, s)),
        }
    }

    fn e64_only(&self, want: Want, s: &Stmt<'_>) -> Result<(), AsmError> {
        match want {
            Want::Any | Want::E64 => Ok(()),
            _ => Err(unsupported_variant(want, s)),
        }
    }

    // ---- modifiers ----

    /// The modifier named `name`, marking it used.
    pub fn take(&mut self, name: &str) -> Option<&'a Modifier<'a>> {
        let i = self.mods.iter().position(|m| m.name == name)?;
        self.used |= 1 << i;
        Some(&self.mods[i])
    }

    /// True if the flag `name` is present (marking it used).
    pub fn flag(&mut self, name: &str) -> bool {
        self.take(name).is_some()
    }

    /// A boolean modifier llvm-mc also takes negated, as `no<name>` (`noglc`, `noclamp`,
    /// `nogds`): `Some((true, m))` for `name`, `Some((false, m))` for its negation, marking
    /// it used. The negation sets nothing.
    pub fn take_bit(&mut self, name: &str) -> Option<(bool, &'a Modifier<'a>)> {
        let i = self
            .mods
            .iter()
            .position(|m| m.name == name || m.name.strip_prefix("no") == Some(name))?;
        self.used |= 1 << i;
        let m = &self.mods[i];
        Some((m.name == name, m))
    }

    /// True if the boolean modifier `name` is present; its negation `no<name>` is taken too
    /// (and gives false).
    pub fn bit(&mut self, name: &str) -> bool {
        self.take_bit(name).is_some_and(|(on, _)| on)
    }

    /// True if a modifier named `name` is present, without using it.
    pub fn has_mod(&self, name: &str) -> bool {
        self.mods.iter().any(|m| m.name == name)
    }

    /// An integer-valued modifier (`offset:16`).
    pub fn int_mod(&mut self, name: &str) -> Result<Option<(i64, Range<usize>)>, AsmError> {
        let Some(m) = self.take(name) else {
            return Ok(None);
        };
        match &m.value {
            ModValue::Int(v) => Ok(Some((*v, m.span.clone()))),
            ModValue::Ident(r) => match self.syms.value(&self.src[r.clone()]) {
                Some(v) => Ok(Some((v, m.span.clone()))),
                None => Err(AsmError::new(r.clone(), "expected absolute expression")),
            },
            ModValue::Expr(_) => Err(AsmError::new(
                m.span.clone(),
                "expected absolute expression",
            )),
            _ => Err(AsmError::new(m.span.clone(), INVALID_OPERAND)),
        }
    }

    /// A `name:[a,b,...]` bit list: bit i of the result is entry i; each entry must be 0/1.
    pub fn bits_mod(&mut self, name: &str, max: usize) -> Result<Option<u32>, AsmError> {
        let Some(m) = self.take(name) else {
            return Ok(None);
        };
        let ModValue::List(list) = &m.value else {
            return Err(AsmError::new(
                m.span.clone(),
                "expected a left square bracket",
            ));
        };
        if list.len() > max || list.is_empty() {
            return Err(AsmError::new(
                m.span.clone(),
                "expected a closing square bracket",
            ));
        }
        let mut bits = 0;
        for (i, &v) in list.iter().enumerate() {
            if !(0..=1).contains(&v) {
                return Err(AsmError::new(m.span.clone(), "invalid op_sel value."));
            }
            bits |= (v as u32) << i;
        }
        Ok(Some(bits))
    }

    /// The text of a span.
    pub fn text(&self, r: &Range<usize>) -> &'a str {
        &self.src[r.clone()]
    }

    // ---- operand helpers ----

    /// The value of an integer operand: `Ok(None)` when it depends on an unknown symbol.
    pub fn eval(&self, op: &Operand) -> Result<Option<i64>, AsmError> {
        match &op.value {
            Value::Int(v) => Ok(Some(*v)),
            // `null` is a register from gfx10 on; llvm-mc names it in its error here.
            Value::Ident(r) if self.text(r) == "null" => Err(AsmError::new(
                r.clone(),
                "'null' operand is not supported on this GPU",
            )),
            Value::Ident(r) => Ok(self.syms.value(self.text(r))),
            // llvm-mc reads a real number where an integer belongs as the bits of its double
            // (`s_movk_i32 s0, 4.9e-324` is 1); a sign makes it a negative double.
            Value::Float(f) => Ok(Some(f.to_bits() as i64)),
            Value::Expr(e) => match e.eval(self.syms) {
                Ok(v) => Ok(Some(v)),
                Err(crate::expr::Unresolved::DivByZero) => {
                    Err(AsmError::new(op.span.clone(), "division by zero"))
                }
                Err(_) => Ok(None),
            },
            _ => Err(AsmError::new(op.span.clone(), INVALID_OPERAND)),
        }
    }

    /// `null` (a register from gfx10 on) with source modifiers (`-null`): llvm-mc names it
    /// in its error, at the name.
    pub fn refuse_null(&self, op: &Operand) -> Result<(), AsmError> {
        match &op.value {
            Value::Ident(r) if self.text(r) == "null" => Err(AsmError::new(
                r.clone(),
                "'null' operand is not supported on this GPU",
            )),
            _ => Ok(()),
        }
    }

    /// The expression of an integer operand, for a fixup.
    pub fn expr_of(&self, op: &Operand) -> Expr {
        match &op.value {
            Value::Int(v) => Expr::Num(*v),
            Value::Ident(r) => {
                let text = self.text(r);
                let mut l = crate::lex::Lexer::new(text);
                crate::expr::parse_expr(&mut l, true).unwrap_or(Expr::Sym {
                    name: text.to_string(),
                    variant: Variant::None,
                })
            }
            Value::Expr(e) => e.clone(),
            _ => Expr::Num(0),
        }
    }

    /// A plain register operand without modifiers.
    pub fn reg(&self, op: &Operand) -> Result<Reg, AsmError> {
        match &op.value {
            Value::Reg(r) if !op.mods.any() && !op.mods.lit => Ok(*r),
            // `lit(off)`, `lit(x)`: llvm-mc reads an expression and stops at the `)`.
            Value::Ident(_) | Value::Expr(_) if op.mods.lit => {
                let close = op.span.end.saturating_sub(1);
                Err(AsmError::new(close..op.span.end, order::NOT_VALID))
            }
            Value::Ident(r) if self.text(r) == "null" => Err(AsmError::new(
                r.clone(),
                "'null' operand is not supported on this GPU",
            )),
            _ => Err(AsmError::new(op.span.clone(), INVALID_OPERAND)),
        }
    }

    /// A VGPR (or, with `agpr`, an AccVGPR) of `dwords` registers: its number.
    pub fn vreg(&self, op: &Operand, dwords: u32, agpr: bool) -> Result<u32, AsmError> {
        let r = self.reg(op)?;
        let file = if agpr { RegFile::Agpr } else { RegFile::Vgpr };
        if r.file != file || r.count != dwords {
            return Err(AsmError::new(op.span.clone(), INVALID_OPERAND));
        }
        self.check_valign(&r)?;
        Ok(r.index)
    }

    /// A VGPR or AGPR of `dwords` registers (gfx90a+ memory data): (number, is_agpr).
    pub fn avreg(&self, op: &Operand, dwords: u32) -> Result<(u32, bool), AsmError> {
        let r = self.reg(op)?;
        let agpr = match r.file {
            RegFile::Vgpr => false,
            RegFile::Agpr if self.gen.has_unified_agprs() => true,
            _ => return Err(AsmError::new(op.span.clone(), INVALID_OPERAND)),
        };
        if r.count != dwords {
            return Err(AsmError::new(op.span.clone(), INVALID_OPERAND));
        }
        self.check_valign(&r)?;
        Ok((r.index, agpr))
    }

    /// gfx90a+ require even-aligned VGPR/AGPR tuples. llvm-mc checks this once the
    /// instruction is matched and reports it at the statement, not at the operand.
    pub fn check_valign(&self, r: &Reg) -> Result<(), AsmError> {
        if self.gen.has_unified_agprs()
            && matches!(r.file, RegFile::Vgpr | RegFile::Agpr)
            && r.count >= 2
            && !r.index.is_multiple_of(2)
        {
            return Err(AsmError::new(0..self.src.len(), VGPR_ALIGNMENT));
        }
        Ok(())
    }

    /// A scalar register operand of `dwords` registers: its 8-bit encoding.
    pub fn sreg(&self, op: &Operand, dwords: u32) -> Result<u32, AsmError> {
        self.sreg_checked(op, dwords, false)
    }

    /// A 64-bit lane mask read from scalar registers (the carry-in of v_addc, the mask of
    /// v_cndmask): like [`Asm::sreg`], but llvm-mc also takes `vccz`/`execz`/`scc` there, as
    /// it does for every other 64-bit scalar source.
    pub fn mask_src(&self, op: &Operand) -> Result<u32, AsmError> {
        self.sreg_checked(op, 2, true)
    }

    fn sreg_checked(&self, op: &Operand, dwords: u32, source: bool) -> Result<u32, AsmError> {
        let r = self.reg(op)?;
        // lds_direct is no scalar register; vccz/execz/scc are 32-bit ones, read as 64-bit
        // values only by sources; the apertures are 64-bit, pops_exiting_wave_id 32-bit.
        let special = r.file == RegFile::Special;
        let bad_special = special
            && (r.index == LDS_DIRECT
                || (matches!(r.index, 251..=253) && dwords != 1 && !source)
                || (matches!(r.index, 235..=238) && dwords != 2)
                || (r.index == 239 && dwords != 1));
        if !r.is_scalar() || !r.fits(dwords) || bad_special {
            return Err(AsmError::new(op.span.clone(), INVALID_OPERAND));
        }
        Ok(r.src_value(self.gen))
    }

    /// Encodes a constant operand for a source of type `ty`: inline, or the literal dword
    /// (recorded in `ext`, with a fixup when it depends on unknown symbols).
    /// `literal_ok` says whether the encoding can carry a literal.
    pub fn constant(
        &mut self,
        op: &Operand,
        ty: DataType,
        literal_ok: bool,
    ) -> Result<u32, AsmError> {
        let span = op.span.clone();
        let c = match &op.value {
            // `lit(...)` changes nothing before gfx11: llvm-mc-19 still picks inline constants.
            Value::Float(f) => encode_float(self.gen, *f, ty, false),
            _ => match self.eval(op)? {
                Some(v) if self.fp16_inline_ints => match encode_int(self.gen, v, ty, false) {
                    Ok(Const::Inline(c)) => Ok(Const::Inline(c)),
                    // A value of more than 32 bits is no operand at all.
                    _ if i32::try_from(v).is_err() && u32::try_from(v).is_err() => {
                        Err(INVALID_OPERAND)
                    }
                    // Otherwise llvm-mc reads the low 16 bits: an FP16 inline pattern, or
                    // a (negative) inline integer.
                    _ => {
                        let low = v as u16;
                        match encode_int(self.gen, i64::from(low), DataType::F16, false) {
                            Ok(Const::Inline(c)) => Ok(Const::Inline(c)),
                            _ => encode_int(self.gen, i64::from(low as i16), ty, false),
                        }
                    }
                },
                Some(v) => encode_int(self.gen, v, ty, false),
                // `lit()` takes a value known when the statement is read: llvm-mc stops at
                // the closing parenthesis of `lit(x)` (or of `lit(off)`).
                None if op.mods.lit => {
                    let scalar = matches!(
                        self.encoding,
                        Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc | Encoding::Sopk
                    );
                    let msg = if ty.is_float() {
                        "failed parsing operand."
                    } else if scalar || self.gen.is_si_ci() {
                        order::NOT_VALID
                    } else {
                        "unknown token in expression"
                    };
                    let close = op.span.end.saturating_sub(1);
                    return Err(AsmError::new(close..op.span.end, msg));
                }
                None => {
                    // An unknown value is always a literal, patched later; llvm-mc has
                    // fixups only for 32-bit operands.
                    // (nor for packed FP16 pairs).
                    if ty.bits() != 32 || (ty.is_16bit() && ty.is_float()) {
                        return Err(AsmError::new(span, INVALID_OPERAND));
                    }
                    if !literal_ok {
                        return Err(AsmError::new(span, "literal operands are not supported"));
                    }
                    let e = self.expr_of(op);
                    self.literal(0, &span)?;
                    self.fixups.push(Fixup {
                        offset: 0,
                        kind: FixupKind::Literal32,
                        expr: e,
                    });
                    return Ok(255);
                }
            },
        }
        .map_err(|m| AsmError::new(span.clone(), m))?;
        match c {
            Const::Inline(v) => Ok(v),
            Const::Literal(_) if !literal_ok => {
                Err(AsmError::new(span, "literal operands are not supported"))
            }
            Const::Literal(v) => {
                self.literal(v, &span)?;
                Ok(255)
            }
        }
    }

    /// Records the literal dword; a second, different literal is an error.
    pub fn literal(&mut self, v: u32, span: &Range<usize>) -> Result<(), AsmError> {
        match self.ext {
            Some(old) if self.ext_is_literal && (old != v || !self.fixups.is_empty()) => Err(
                AsmError::new(span.clone(), "only one unique literal operand is allowed"),
            ),
            _ => {
                self.ext = Some(v);
                self.ext_is_literal = true;
                Ok(())
            }
        }
    }

    /// A scalar source: a scalar register (any width-compatible) or a constant.
    pub fn ssrc(&mut self, op: &Operand, ty: DataType, literal_ok: bool) -> Result<u32, AsmError> {
        match &op.value {
            // `lit()` takes a constant only; llvm-mc then finds no operand that fits.
            Value::Reg(_) if op.mods.lit => {
                let text = self.text(&op.span);
                let open = text.find('(').map_or(0, |i| i + 1);
                let blank = text[open..].len() - text[open..].trim_start().len();
                let inner = op.span.start + open + blank..op.span.end;
                Err(AsmError::new(inner, order::NOT_VALID))
            }
            Value::Reg(r) => {
                let lds_direct = r.file == RegFile::Special && r.index == LDS_DIRECT;
                if op.mods.any() || !r.is_scalar() || !r.fits(ty.dwords()) || lds_direct {
                    return Err(AsmError::new(op.span.clone(), INVALID_OPERAND));
                }
                Ok(r.src_value(self.gen))
            }
            _ if op.mods.any() => Err(AsmError::new(op.span.clone(), INVALID_OPERAND)),
            _ => self.constant(op, ty, literal_ok),
        }
    }
}

/// The operand at `i`, or llvm-mc's error for a missing one.
pub(crate) fn operand<'o>(
    ops: &'o [Operand],
    i: usize,
    src: &str,
) -> Result<&'o Operand, AsmError> {
    ops.get(i).ok_or_else(|| too_few_operands(src))
}

/// llvm-mc's message for a VGPR or AGPR tuple at an odd register on gfx90a and gfx940.
pub(crate) const VGPR_ALIGNMENT: &str =
    "invalid register class: vgpr tuples must be 64 bit aligned";

/// llvm-mc's message for a statement with too few operands.
const TOO_FEW_OPERANDS: &str = "too few operands for instruction";

/// `too few operands for instruction`, which llvm-mc reports at the mnemonic.
pub(crate) fn too_few_operands(src: &str) -> AsmError {
    let rest = src.trim_start();
    let start = src.len() - rest.len();
    let len = rest
        .find(|c: char| c.is_ascii_whitespace())
        .unwrap_or(rest.len());
    AsmError::new(start..start + len, TOO_FEW_OPERANDS)
}

/// Checks that there are exactly `n` operands.
pub(crate) fn expect_count(ops: &[Operand], n: usize, src: &str) -> Result<(), AsmError> {
    if let Some(extra) = ops.get(n) {
        return Err(AsmError::new(extra.span.clone(), INVALID_OPERAND));
    }
    if ops.len() < n {
        return Err(too_few_operands(src));
    }
    Ok(())
}
