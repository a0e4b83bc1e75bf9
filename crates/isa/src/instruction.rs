//! A decoded instruction: which table row, in which form, with the raw field bits.
//!
//! The instruction keeps its encoded bits and reads fields through the encoding's layout;
//! [`Instruction::operands`] gives the typed view.

use crate::encoding::{layout, Encoding, Field, Layout};
use crate::table::{InstrDef, InstrId, Role};
use crate::target::Gen;
use crate::INSTRUCTIONS;

/// How an instruction of the vector ALU families is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// In the row's own encoding (`_e32` for VOP1/VOP2/VOPC).
    Native,
    /// A VOP1/VOP2/VOPC instruction in the VOP3 encoding (`_e64`).
    Vop3,
    /// With an SDWA extension dword (`_sdwa`, gfx8+).
    Sdwa,
    /// With a DPP extension dword (`_dpp`, gfx8+).
    Dpp,
}

/// A decoded instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// The table row.
    pub id: InstrId,
    /// The generation it was decoded for.
    pub gen: Gen,
    /// The encoding of the bits (VOP3 for `_e64` forms; GLOBAL/SCRATCH for those segments).
    pub encoding: Encoding,
    /// The form.
    pub form: Form,
    /// The first (or first two) dwords, little-endian.
    pub bits: u64,
    /// The literal constant or SDWA/DPP extension dword, if any.
    pub ext: Option<u32>,
    /// Length in bytes.
    pub len: u8,
}

/// A register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegClass {
    /// Scalar registers `s0`…
    Sgpr,
    /// Vector registers `v0`…
    Vgpr,
    /// Accumulation registers `a0`… (gfx908+).
    Agpr,
    /// Trap temporaries `ttmp0`…
    Ttmp,
}

/// A named special scalar operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Special {
    FlatScratchLo,
    FlatScratchHi,
    XnackMaskLo,
    XnackMaskHi,
    VccLo,
    VccHi,
    TbaLo,
    TbaHi,
    TmaLo,
    TmaHi,
    M0,
    ExecLo,
    ExecHi,
    SrcSharedBase,
    SrcSharedLimit,
    SrcPrivateBase,
    SrcPrivateLimit,
    SrcPopsExitingWaveId,
    SrcVccz,
    SrcExecz,
    SrcScc,
    LdsDirect,
    /// Encoding 125 on gfx8 and later: LLVM prints `null`.
    Null,
}

impl Special {
    /// True for the read-only values that are not registers of the SGPR file (apertures,
    /// wave-state bits, `null`): LLVM accepts them in any 32-bit source position.
    pub fn is_readonly_value(self) -> bool {
        use Special::*;
        matches!(
            self,
            SrcSharedBase
                | SrcSharedLimit
                | SrcPrivateBase
                | SrcPrivateLimit
                | SrcPopsExitingWaveId
                | SrcVccz
                | SrcExecz
                | SrcScc
                | Null
        )
    }
}

/// What a 9-bit (or 8-bit scalar) source operand value denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcValue {
    /// A register of a file: class and first register number.
    Reg(RegClass, u32),
    /// A special register (the first of a pair for 64-bit operands).
    Special(Special),
    /// An inline integer constant (-16..=64).
    InlineInt(i32),
    /// An inline float constant by its encoding (240..=248).
    InlineFloat(u32),
    /// The literal dword that follows the instruction.
    Literal,
    /// A value no operand may take on this generation.
    Invalid(u32),
}

/// Interprets a scalar-or-vector source value (`0..512`; values 256+ are VGPRs) on `gen`.
pub fn src_value(gen: Gen, value: u32) -> SrcValue {
    use Special::*;
    let gfx9 = gen.is_gfx9_family();
    match value {
        0..=101 => SrcValue::Reg(RegClass::Sgpr, value),
        102 | 103 if gen.is_si_ci() => SrcValue::Reg(RegClass::Sgpr, value),
        102 => SrcValue::Special(FlatScratchLo),
        103 => SrcValue::Special(FlatScratchHi),
        104 if gen == Gen::Gfx7 => SrcValue::Special(FlatScratchLo),
        105 if gen == Gen::Gfx7 => SrcValue::Special(FlatScratchHi),
        104 | 105 if gen == Gen::Gfx6 => SrcValue::Reg(RegClass::Sgpr, value),
        104 => SrcValue::Special(XnackMaskLo),
        105 => SrcValue::Special(XnackMaskHi),
        106 => SrcValue::Special(VccLo),
        107 => SrcValue::Special(VccHi),
        108..=123 if gfx9 => SrcValue::Reg(RegClass::Ttmp, value - 108),
        108 => SrcValue::Special(TbaLo),
        109 => SrcValue::Special(TbaHi),
        110 => SrcValue::Special(TmaLo),
        111 => SrcValue::Special(TmaHi),
        112..=123 => SrcValue::Reg(RegClass::Ttmp, value - 112),
        124 => SrcValue::Special(M0),
        125 if !gen.is_si_ci() => SrcValue::Special(Null),
        126 => SrcValue::Special(ExecLo),
        127 => SrcValue::Special(ExecHi),
        128..=192 => SrcValue::InlineInt(value as i32 - 128),
        193..=208 => SrcValue::InlineInt(192 - value as i32),
        // LLVM's disassembler names these from gfx8 on, though only gfx9 has them.
        235 if !gen.is_si_ci() => SrcValue::Special(SrcSharedBase),
        236 if !gen.is_si_ci() => SrcValue::Special(SrcSharedLimit),
        237 if !gen.is_si_ci() => SrcValue::Special(SrcPrivateBase),
        238 if !gen.is_si_ci() => SrcValue::Special(SrcPrivateLimit),
        239 if !gen.is_si_ci() => SrcValue::Special(SrcPopsExitingWaveId),
        240..=247 => SrcValue::InlineFloat(value),
        248 if !gen.is_si_ci() => SrcValue::InlineFloat(value),
        251 => SrcValue::Special(SrcVccz),
        252 => SrcValue::Special(SrcExecz),
        253 => SrcValue::Special(SrcScc),
        254 => SrcValue::Special(LdsDirect),
        255 => SrcValue::Literal,
        256..=511 => SrcValue::Reg(RegClass::Vgpr, value - 256),
        _ => SrcValue::Invalid(value),
    }
}

impl Instruction {
    /// The table row.
    #[inline]
    pub fn def(&self) -> &'static InstrDef {
        &INSTRUCTIONS[self.id as usize]
    }

    /// The layout of the instruction's encoding.
    #[inline]
    pub fn layout(&self) -> &'static Layout {
        layout(self.encoding, self.gen)
    }

    /// Value of `field`, or 0 if the encoding lacks it.
    #[inline]
    pub fn field(&self, field: Field) -> u32 {
        self.layout().get(self.bits, field)
    }

    /// Value of an SDWA/DPP extension-dword bit range (`lo` is the bit within that dword).
    #[inline]
    pub fn ext_bits(&self, lo: u32, width: u32) -> u32 {
        (self.ext.unwrap_or(0) >> lo) & ((1u32 << width) - 1)
    }

    /// The mnemonic as stored in the table (no `_e32/_e64/_sdwa/_dpp` suffix).
    pub fn mnemonic(&self) -> &'static str {
        self.def().mnemonic
    }

    /// The encoded field that holds the operand with `role`, for this instruction's form.
    pub fn role_field(&self, role: Role) -> Option<Field> {
        role_field(self.encoding, self.form, role)
    }

    /// The encoded bytes, little-endian, `len` of them.
    pub fn bytes(&self) -> ([u8; 12], usize) {
        let mut b = [0u8; 12];
        b[..8].copy_from_slice(&self.bits.to_le_bytes());
        let base = self.encoding.base_len();
        if let Some(ext) = self.ext {
            b[base..base + 4].copy_from_slice(&ext.to_le_bytes());
        }
        (b, self.len as usize)
    }
}

/// The field holding `role` in `encoding`/`form`.
pub fn role_field(encoding: Encoding, form: Form, role: Role) -> Option<Field> {
    use Encoding as E;
    Some(match (encoding, role) {
        (E::Sop2 | E::Sopc | E::Sop1 | E::Sopk, Role::Sdst) => Field::Sdst,
        (_, Role::Ssrc0) => Field::Ssrc0,
        (_, Role::Ssrc1) => Field::Ssrc1,
        (_, Role::Simm16) => Field::Simm16,
        (E::Smrd, Role::Sdata | Role::Sdst) => Field::Sdst,
        (E::Smem, Role::Sdata | Role::Sdst) => Field::Sdata,
        (_, Role::Sbase) => Field::Sbase,
        (E::Smem | E::Mubuf | E::Mtbuf, Role::Soffset) => Field::Soffset,
        (_, Role::Offset) => Field::Offset,
        (
            E::Vop1 | E::Vop2 | E::Vop3 | E::Vop3p | E::Ds | E::Flat | E::Global | E::Scratch,
            Role::Vdst,
        ) => Field::Vdst,
        (E::Vintrp, Role::Vdst) => Field::Vdst,
        (E::Vop3, Role::Sdst) => Field::Sdst,
        (_, Role::Src0) => Field::Src0,
        (E::Vop2 | E::Vopc, Role::Src1) if form != Form::Vop3 => Field::Vsrc1,
        (_, Role::Src1) => Field::Src1,
        (_, Role::Src2) => Field::Src2,
        (E::Ds | E::Flat | E::Global | E::Scratch, Role::Addr | Role::Vaddr) => Field::Addr,
        (E::Ds, Role::Data0) => Field::Data0,
        (E::Ds, Role::Data1) => Field::Data1,
        (E::Flat | E::Global | E::Scratch, Role::Vdata | Role::Data0) => Field::Data,
        (_, Role::Vdata) => Field::Vdata,
        (_, Role::Vaddr) => Field::Vaddr,
        (_, Role::Srsrc) => Field::Srsrc,
        (_, Role::Ssamp) => Field::Ssamp,
        (_, Role::Saddr) => Field::Saddr,
        (_, Role::Attr) => Field::Attr,
        (_, Role::Chan) => Field::AttrChan,
        (_, Role::Vsrc) => Field::Vsrc,
        (_, Role::Tgt) => Field::Tgt,
        (_, Role::Src3) => Field::Vsrc3,
        _ => return None,
    })
}
