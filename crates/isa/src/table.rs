//! The instruction table: one [`InstrDef`] per row of `crates/isa/tables/*.tbl`.
//!
//! The rows themselves live in the generated module (`generated.rs`); this module holds
//! their types and the lookups built from them.

use std::sync::OnceLock;

use crate::encoding::Encoding;
use crate::target::{Gen, Processor};

/// Marks an opcode column where the instruction does not exist.
pub const NO_OPCODE: u16 = u16::MAX;

/// Index of a row in [`INSTRUCTIONS`](crate::INSTRUCTIONS).
pub type InstrId = u16;

/// The role of an operand: which part of the encoding it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // role names are those of the table format (tables/README.md)
pub enum Role {
    Sdst,
    Ssrc0,
    Ssrc1,
    Simm16,
    Sdata,
    Sbase,
    Soffset,
    Offset,
    Vdst,
    Src0,
    Src1,
    Src2,
    Addr,
    Data0,
    Data1,
    Vdata,
    Vaddr,
    Srsrc,
    Ssamp,
    Saddr,
    Attr,
    Chan,
    Vsrc,
    Tgt,
    Src3,
    /// The 32-bit constant of v_madmk/v_madak/v_fmamk/v_fmaak, held in the literal dword.
    K,
}

/// The data type of an operand; for register operands it also gives the width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum DataType {
    B16,
    B32,
    B64,
    B96,
    B128,
    B160,
    B192,
    B256,
    B512,
    B1024,
    F16,
    F32,
    F64,
    Bf16,
    I16,
    I32,
    I64,
    U16,
    U32,
    U64,
    V2F16,
    V2I16,
    V2U16,
    V2Bf16,
    V2F32,
}

impl DataType {
    /// Width in bits.
    pub const fn bits(self) -> u32 {
        use DataType::*;
        match self {
            B16 | F16 | Bf16 | I16 | U16 => 16,
            B32 | F32 | I32 | U32 | V2F16 | V2I16 | V2U16 | V2Bf16 => 32,
            B64 | F64 | I64 | U64 | V2F32 => 64,
            B96 => 96,
            B128 => 128,
            B160 => 160,
            B192 => 192,
            B256 => 256,
            B512 => 512,
            B1024 => 1024,
        }
    }

    /// Number of 32-bit registers a register operand of this type spans.
    pub const fn dwords(self) -> u32 {
        self.bits().div_ceil(32)
    }

    /// True for floating-point types (whose inline constants and literals print as floats).
    pub const fn is_float(self) -> bool {
        use DataType::*;
        matches!(self, F16 | F32 | F64 | Bf16 | V2F16 | V2Bf16 | V2F32)
    }

    /// True for 16-bit scalar types and packed 16-bit pairs.
    pub const fn is_16bit(self) -> bool {
        use DataType::*;
        matches!(
            self,
            B16 | F16 | Bf16 | I16 | U16 | V2F16 | V2I16 | V2U16 | V2Bf16
        )
    }
}

/// One operand of a table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandDef {
    /// Where the operand comes from.
    pub role: Role,
    /// Its data type.
    pub ty: DataType,
}

/// One row of the instruction table.
#[derive(Debug)]
pub struct InstrDef {
    /// LLVM 19 spelling, without `_e32/_e64/_sdwa/_dpp`.
    pub mnemonic: &'static str,
    /// The mnemonic as an enum value (rows of one mnemonic in several encodings share it).
    pub op: crate::generated::Mnemonic,
    /// The encoding the opcodes belong to.
    pub encoding: Encoding,
    /// Opcode per generation ([`Gen::index`]), [`NO_OPCODE`] where absent.
    pub opcodes: [u16; 7],
    /// Operands in LLVM's print order.
    pub operands: &'static [OperandDef],
    /// Flag bits; see [`crate::flags`].
    pub flags: u128,
    /// Values of flags written `+name=value` (a generation list or a number).
    pub flag_args: &'static [(u128, &'static str)],
    /// Processors of the gfx9 generation the gfx9 column applies to; empty means all.
    pub cpus: &'static [&'static str],
}

impl InstrDef {
    /// Opcode on `gen`, if the instruction exists there.
    pub fn opcode(&self, gen: Gen) -> Option<u16> {
        match self.opcodes[gen.index()] {
            NO_OPCODE => None,
            op => Some(op),
        }
    }

    /// True if the row has every flag bit of `flag`.
    #[inline]
    pub fn has(&self, flag: u128) -> bool {
        self.flags & flag == flag
    }

    /// The value of a flag written `+name=value`.
    pub fn flag_arg(&self, flag: u128) -> Option<&'static str> {
        self.flag_args
            .iter()
            .find(|(f, _)| *f == flag)
            .map(|(_, a)| *a)
    }

    /// True if `flag` is set and applies to `gen`: either it has no value, or its value is a
    /// generation list naming `gen`.
    pub fn flag_on(&self, flag: u128, gen: Gen) -> bool {
        self.has(flag)
            && match self.flag_arg(flag) {
                None => true,
                Some(list) => list.split(',').any(|g| g == gen.name()),
            }
    }

    /// True if the instruction exists on `processor`.
    pub fn exists_on(&self, processor: &Processor) -> bool {
        self.opcode(processor.gen).is_some()
            && (self.cpus.is_empty()
                || processor.gen != Gen::Gfx9
                || self.cpus.contains(&processor.name))
    }

    /// The operand with `role`, if any.
    pub fn operand(&self, role: Role) -> Option<&OperandDef> {
        self.operands.iter().find(|o| o.role == role)
    }
}

/// Opcode-to-row maps per (generation, encoding), built once from the table.
///
/// Several rows may share one opcode (e.g. the same opcode with and without a flag that the
/// decoder tells apart by another field); they are kept in table order.
pub struct OpcodeMaps {
    // maps[gen][encoding] is a dense vector indexed by opcode; each entry lists row ids.
    maps: Vec<Vec<Vec<Vec<InstrId>>>>,
}

impl OpcodeMaps {
    fn build(rows: &[InstrDef]) -> OpcodeMaps {
        let mut maps = vec![vec![Vec::new(); Encoding::ALL.len()]; Gen::ALL.len()];
        let mut insert = |gen: Gen, encoding: Encoding, op: usize, id: usize| {
            let map: &mut Vec<Vec<InstrId>> = &mut maps[gen.index()][encoding.index()];
            if map.len() <= op {
                map.resize(op + 1, Vec::new());
            }
            map[op].push(id as InstrId);
        };
        for (id, row) in rows.iter().enumerate() {
            for gen in Gen::ALL {
                let Some(op) = row.opcode(gen) else { continue };
                insert(gen, row.encoding, op as usize, id);
                // Rows of other encodings that also have a VOP3 form at an opcode of their
                // own (`+e64=N`, e.g. the VINTRP instructions on gfx8+).
                if !gen.is_si_ci() {
                    if let Some(n) = row
                        .flag_arg(crate::flags::E64)
                        .and_then(|a| a.parse::<usize>().ok())
                    {
                        insert(gen, Encoding::Vop3, n, id);
                    }
                }
            }
        }
        OpcodeMaps { maps }
    }

    /// Rows with opcode `op` in `encoding` on `gen`.
    #[inline]
    pub fn lookup(&self, gen: Gen, encoding: Encoding, op: u32) -> &[InstrId] {
        self.maps[gen.index()][encoding.index()]
            .get(op as usize)
            .map_or(&[], Vec::as_slice)
    }
}

/// The opcode maps of the built-in table.
pub fn opcode_maps() -> &'static OpcodeMaps {
    static MAPS: OnceLock<OpcodeMaps> = OnceLock::new();
    MAPS.get_or_init(|| OpcodeMaps::build(crate::generated::INSTRUCTIONS))
}
