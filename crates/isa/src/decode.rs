//! Bytes to [`Instruction`].

use crate::encoding::{identify, layout, Encoding, Field};
use crate::flags;
use crate::instruction::{src_value, Form, Instruction, SrcValue};
use crate::table::{opcode_maps, InstrDef, InstrId, Role};
use crate::target::{Gen, Target};
use crate::INSTRUCTIONS;

/// Why bytes did not decode to an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Fewer bytes remain than the instruction needs.
    #[error("truncated instruction: {needed} bytes needed, {available} available")]
    Truncated {
        /// Bytes the instruction needs.
        needed: usize,
        /// Bytes that remain.
        available: usize,
    },
    /// The dword is not a valid instruction on this target (LLVM prints it as `.long`).
    #[error("invalid instruction encoding 0x{word:08x}")]
    Invalid {
        /// The first dword.
        word: u32,
    },
}

/// Base of the VOP3 opcode range used by the `_e64` form of VOP1/VOP2/VOPC instructions.
///
/// This is the one place the hardware rule lives: a VOPC instruction keeps its opcode, a VOP2
/// one is moved to 0x100 + op, and a VOP1 one to 0x180 + op (gfx6/7) or 0x140 + op (gfx8+).
pub const fn vop3_base(encoding: Encoding, gen: Gen) -> Option<u32> {
    match encoding {
        Encoding::Vopc => Some(0),
        Encoding::Vop2 => Some(0x100),
        Encoding::Vop1 if gen.is_si_ci() => Some(0x180),
        Encoding::Vop1 => Some(0x140),
        _ => None,
    }
}

/// Size of the opcode range of the 32-bit encoding (VOPC 8 bits, VOP2 6 bits, VOP1 8 bits).
const fn e32_opcode_count(encoding: Encoding) -> u32 {
    match encoding {
        Encoding::Vop2 => 64,
        _ => 256,
    }
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Picks the row among those sharing an opcode that exists on the target's processor.
fn pick(
    rows: &[InstrId],
    target: &Target,
    mut accept: impl FnMut(InstrId) -> bool,
) -> Option<InstrId> {
    rows.iter()
        .copied()
        .find(|&id| INSTRUCTIONS[id as usize].exists_on(target.processor) && accept(id))
}

/// Decodes one instruction from the start of `bytes` for `target`.
///
/// Returns [`DecodeError::Invalid`] for a dword that is no valid instruction (the caller
/// prints it as `.long` and goes on with the next dword) and [`DecodeError::Truncated`]
/// when the instruction runs past the end of `bytes`.
pub fn decode(target: &Target, bytes: &[u8]) -> Result<Instruction, DecodeError> {
    let gen = target.gen();
    let word0 = read_u32(bytes, 0).ok_or(DecodeError::Truncated {
        needed: 4,
        available: bytes.len(),
    })?;
    let invalid = DecodeError::Invalid { word: word0 };
    let mut encoding = identify(gen, word0).ok_or(invalid)?;
    let base_len = encoding.base_len();
    let bits = if base_len == 8 {
        let word1 = read_u32(bytes, 4).ok_or(DecodeError::Truncated {
            needed: 8,
            available: bytes.len(),
        })?;
        word0 as u64 | (word1 as u64) << 32
    } else {
        word0 as u64
    };
    let lay = layout(encoding, gen);
    let op = lay.get(bits, Field::Op);
    let maps = opcode_maps();
    let mut form = Form::Native;

    let id = match encoding {
        Encoding::Vop3 => {
            // VOP3-only rows first, then the _e64 forms of the 32-bit encodings.
            let direct = pick(maps.lookup(gen, Encoding::Vop3, op), target, |_| true);
            match direct {
                Some(id) => {
                    if INSTRUCTIONS[id as usize].encoding != Encoding::Vop3 {
                        form = Form::Vop3;
                    }
                    Some(id)
                }
                None => [Encoding::Vopc, Encoding::Vop2, Encoding::Vop1]
                    .into_iter()
                    .find_map(|e32| {
                        let base = vop3_base(e32, gen)?;
                        let rel = op.checked_sub(base)?;
                        if rel >= e32_opcode_count(e32) {
                            return None;
                        }
                        let id = pick(maps.lookup(gen, e32, rel), target, |_| true)?;
                        form = Form::Vop3;
                        Some(id)
                    }),
            }
        }
        Encoding::Flat => {
            if gen.is_gfx9_family() {
                encoding = match lay.get(bits, Field::Seg) {
                    0 => Encoding::Flat,
                    1 => Encoding::Scratch,
                    2 => Encoding::Global,
                    _ => return Err(invalid),
                };
            }
            pick(maps.lookup(gen, encoding, op), target, |_| true)
        }
        _ => pick(maps.lookup(gen, encoding, op), target, |_| true),
    }
    .ok_or(invalid)?;

    let mut len = base_len;
    let mut ext = None;
    if matches!(encoding, Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc) && !gen.is_si_ci() {
        let def = &INSTRUCTIONS[id as usize];
        let src0 = lay.get(bits, Field::Src0);
        if !def.operands.is_empty() {
            match src0 {
                0xf9 => form = Form::Sdwa,
                0xfa => form = Form::Dpp,
                _ => {}
            }
        } else if let Some(f) = bare_ext_form(def, gen, src0, read_u32(bytes, len)) {
            form = f;
        }
    }
    let needs_ext = form == Form::Sdwa
        || form == Form::Dpp
        || has_literal(&INSTRUCTIONS[id as usize], encoding, form, gen, bits);
    if needs_ext {
        ext = Some(read_u32(bytes, len).ok_or(DecodeError::Truncated {
            needed: len + 4,
            available: bytes.len(),
        })?);
        len += 4;
    }
    Ok(Instruction {
        id,
        gen,
        encoding,
        form,
        bits,
        ext,
        len: len as u8,
    })
}

/// The SDWA or DPP form of an instruction without operands (v_nop), if the word has one.
///
/// LLVM ignores the SRC0 field of v_nop and v_clrexcp, but defines SDWA and DPP forms of v_nop
/// that carry no operand: it reads 0xf9/0xfa there as such a form only when the extension
/// dword says nothing an operand would (SDWA: all zero; DPP: no source VGPR and no `neg`/`abs`
/// bits). Otherwise, or without a following dword, the word is a 4-byte v_nop.
fn bare_ext_form(def: &InstrDef, gen: Gen, src0: u32, ext: Option<u32>) -> Option<Form> {
    let ext = ext?;
    match src0 {
        0xf9 if !def.flag_on(flags::NOSDWA, gen) && ext == 0 => Some(Form::Sdwa),
        0xfa if !def.flag_on(flags::NODPP, gen) && ext & 0xff == 0 && ext >> 20 & 0xf == 0 => {
            Some(Form::Dpp)
        }
        _ => None,
    }
}

/// True if a literal dword follows: a source field of a 32-bit encoding holds 255, or the
/// row always carries one (SOPK `+imm32`, the `k` constant of v_madmk and friends), or a
/// gfx7 SMRD uses offset 255 with imm=0.
fn has_literal(def: &InstrDef, encoding: Encoding, form: Form, gen: Gen, bits: u64) -> bool {
    let lay = layout(encoding, gen);
    let is_lit = |f: Field| src_value(gen, lay.get(bits, f)) == SrcValue::Literal;
    match encoding {
        Encoding::Sop2 | Encoding::Sopc => {
            is_lit(Field::Ssrc0) || (is_lit(Field::Ssrc1) && !def.has(flags::GPRIDX))
        }
        Encoding::Sop1 => !def.has(flags::NOSSRC0) && is_lit(Field::Ssrc0),
        Encoding::Sopk => def.has(flags::IMM32),
        Encoding::Smrd => {
            gen == Gen::Gfx7
                && lay.get(bits, Field::Imm) == 0
                && lay.get(bits, Field::Offset) == 255
        }
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => {
            form == Form::Native
                && ((is_lit(Field::Src0) && !def.operands.is_empty())
                    || def.operand(Role::K).is_some())
        }
        _ => false,
    }
}
