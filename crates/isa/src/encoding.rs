//! Encodings and their field layouts, as data.
//!
//! An instruction's first two dwords are held as one little-endian `u64` (`bits`); a field is
//! a bit range of it. Layouts differ between gfx6/7 and gfx8+ for several encodings, so a
//! layout is chosen by (encoding, generation).

use crate::target::Gen;

/// An instruction encoding (microcode format).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// Scalar ALU, two sources.
    Sop2,
    /// Scalar ALU with a 16-bit immediate.
    Sopk,
    /// Scalar ALU, one source.
    Sop1,
    /// Scalar compare.
    Sopc,
    /// Scalar program control.
    Sopp,
    /// Scalar memory read (gfx6/gfx7).
    Smrd,
    /// Scalar memory (gfx8 and later).
    Smem,
    /// Vector ALU, one source.
    Vop1,
    /// Vector ALU, two sources.
    Vop2,
    /// Vector compare.
    Vopc,
    /// Vector ALU, three sources, 64-bit encoding (VOP3A and VOP3B).
    Vop3,
    /// Packed vector ALU and matrix (MAI) instructions (gfx9 and later).
    Vop3p,
    /// Vector interpolation.
    Vintrp,
    /// Local/global data share.
    Ds,
    /// Untyped buffer memory.
    Mubuf,
    /// Typed buffer memory.
    Mtbuf,
    /// Image memory.
    Mimg,
    /// Export.
    Exp,
    /// Flat memory (SEG=0).
    Flat,
    /// Global memory (FLAT encoding, SEG=2).
    Global,
    /// Scratch memory (FLAT encoding, SEG=1).
    Scratch,
}

impl Encoding {
    /// Every encoding.
    pub const ALL: [Encoding; 21] = [
        Encoding::Sop2,
        Encoding::Sopk,
        Encoding::Sop1,
        Encoding::Sopc,
        Encoding::Sopp,
        Encoding::Smrd,
        Encoding::Smem,
        Encoding::Vop1,
        Encoding::Vop2,
        Encoding::Vopc,
        Encoding::Vop3,
        Encoding::Vop3p,
        Encoding::Vintrp,
        Encoding::Ds,
        Encoding::Mubuf,
        Encoding::Mtbuf,
        Encoding::Mimg,
        Encoding::Exp,
        Encoding::Flat,
        Encoding::Global,
        Encoding::Scratch,
    ];

    /// Name as written in the table files.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Sop2 => "SOP2",
            Encoding::Sopk => "SOPK",
            Encoding::Sop1 => "SOP1",
            Encoding::Sopc => "SOPC",
            Encoding::Sopp => "SOPP",
            Encoding::Smrd => "SMRD",
            Encoding::Smem => "SMEM",
            Encoding::Vop1 => "VOP1",
            Encoding::Vop2 => "VOP2",
            Encoding::Vopc => "VOPC",
            Encoding::Vop3 => "VOP3",
            Encoding::Vop3p => "VOP3P",
            Encoding::Vintrp => "VINTRP",
            Encoding::Ds => "DS",
            Encoding::Mubuf => "MUBUF",
            Encoding::Mtbuf => "MTBUF",
            Encoding::Mimg => "MIMG",
            Encoding::Exp => "EXP",
            Encoding::Flat => "FLAT",
            Encoding::Global => "GLOBAL",
            Encoding::Scratch => "SCRATCH",
        }
    }

    /// Index for per-encoding arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Number of opcode values the encoding's opcode field can hold on `gen`.
    pub fn opcode_space(self, gen: Gen) -> usize {
        1usize << layout(self, gen).field(Field::Op).map_or(0, |f| f.width)
    }

    /// Length in bytes of the encoding itself (without literal or SDWA/DPP extension).
    pub const fn base_len(self) -> usize {
        match self {
            Encoding::Sop2
            | Encoding::Sopk
            | Encoding::Sop1
            | Encoding::Sopc
            | Encoding::Sopp
            | Encoding::Smrd
            | Encoding::Vop1
            | Encoding::Vop2
            | Encoding::Vopc
            | Encoding::Vintrp => 4,
            _ => 8,
        }
    }
}

/// A named field of an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // field names are those of the ISA manuals
pub enum Field {
    Op,
    Sdst,
    Ssrc0,
    Ssrc1,
    Simm16,
    // SMRD / SMEM
    Sbase,
    Sdata,
    Imm,
    Offset,
    Glc,
    Soe,
    Nv,
    Soffset,
    // VOP
    Vdst,
    Src0,
    Vsrc1,
    Src1,
    Src2,
    Abs,
    Clamp,
    Omod,
    Neg,
    OpSel,
    OpSelHi,
    OpSelHi2,
    NegHi,
    // MAI
    Cbsz,
    Abid,
    AccCd,
    Acc,
    Blgp,
    // VINTRP
    Vsrc,
    AttrChan,
    Attr,
    // DS
    Offset0,
    Offset1,
    Gds,
    Addr,
    Data0,
    Data1,
    // MUBUF / MTBUF / MIMG
    Offen,
    Idxen,
    Addr64,
    Lds,
    Slc,
    Tfe,
    Vaddr,
    Vdata,
    Srsrc,
    Dfmt,
    Nfmt,
    Sc1,
    Dmask,
    Unorm,
    Da,
    R128,
    Lwe,
    Ssamp,
    D16,
    // EXP
    En,
    Tgt,
    Compr,
    Done,
    Vm,
    Vsrc0,
    Vsrc1Exp,
    Vsrc2,
    Vsrc3,
    // FLAT
    Seg,
    Data,
    Saddr,
    Sve,
}

/// One field's position: bit `lo` of the instruction's first 64 bits, `width` bits wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldPos {
    /// The field.
    pub field: Field,
    /// Lowest bit (0..64) in the first two dwords.
    pub lo: u32,
    /// Width in bits.
    pub width: u32,
}

/// The field layout of one encoding on one family of generations.
#[derive(Debug)]
pub struct Layout {
    /// Fixed identifying bits: `(bits & mask) == value`.
    pub mask: u64,
    /// Value of the identifying bits.
    pub value: u64,
    /// The fields.
    pub fields: &'static [FieldPos],
    /// Position in `fields` of each [`Field`] (by discriminant), or `u8::MAX`: field access is
    /// on every hot path of the decoder and printers, so it is a table lookup.
    index: [u8; FIELD_COUNT],
}

/// Number of [`Field`] variants.
const FIELD_COUNT: usize = Field::Sve as usize + 1;

const fn build_index(fields: &[FieldPos]) -> [u8; FIELD_COUNT] {
    let mut index = [u8::MAX; FIELD_COUNT];
    let mut i = 0;
    while i < fields.len() {
        index[fields[i].field as usize] = i as u8;
        i += 1;
    }
    index
}

impl Layout {
    /// Position of `field`, if the layout has it.
    #[inline]
    pub fn field(&self, field: Field) -> Option<FieldPos> {
        self.fields
            .get(self.index[field as usize] as usize)
            .copied()
    }

    /// Value of `field` in `bits`, or 0 if the layout lacks it.
    #[inline]
    pub fn get(&self, bits: u64, field: Field) -> u32 {
        match self.field(field) {
            Some(f) => ((bits >> f.lo) & ((1u64 << f.width) - 1)) as u32,
            None => 0,
        }
    }

    /// Sets `field` in `bits`. Returns false if the layout lacks the field or the value
    /// does not fit.
    pub fn set(&self, bits: &mut u64, field: Field, value: u32) -> bool {
        match self.field(field) {
            Some(f) if (value as u64) < (1u64 << f.width) => {
                let mask = ((1u64 << f.width) - 1) << f.lo;
                *bits = (*bits & !mask) | ((value as u64) << f.lo);
                true
            }
            _ => false,
        }
    }
}

macro_rules! layout {
    ($mask:expr, $value:expr; $($f:ident $lo:literal $w:literal),* $(,)?) => {
        Layout {
            mask: $mask,
            value: $value,
            fields: &[ $( FieldPos { field: Field::$f, lo: $lo, width: $w } ),* ],
            index: build_index(&[ $( FieldPos { field: Field::$f, lo: $lo, width: $w } ),* ]),
        }
    };
}

const M32_1: u64 = 0x8000_0000;
const M32_4: u64 = 0xF000_0000;
const M32_5: u64 = 0xF800_0000;
const M32_6: u64 = 0xFC00_0000;
const M32_7: u64 = 0xFE00_0000;
const M32_9: u64 = 0xFF80_0000;

static SOP2: Layout = layout!(0xC000_0000, 0x8000_0000; Ssrc0 0 8, Ssrc1 8 8, Sdst 16 7, Op 23 7);
static SOPK: Layout = layout!(M32_4, 0xB000_0000; Simm16 0 16, Sdst 16 7, Op 23 5);
static SOP1: Layout = layout!(M32_9, 0xBE80_0000; Ssrc0 0 8, Op 8 8, Sdst 16 7);
static SOPC: Layout = layout!(M32_9, 0xBF00_0000; Ssrc0 0 8, Ssrc1 8 8, Op 16 7);
static SOPP: Layout = layout!(M32_9, 0xBF80_0000; Simm16 0 16, Op 16 7);
static SMRD: Layout =
    layout!(M32_5, 0xC000_0000; Offset 0 8, Imm 8 1, Sbase 9 6, Sdst 15 7, Op 22 5);
static SMEM_GFX8: Layout = layout!(M32_6, 0xC000_0000;
    Sbase 0 6, Sdata 6 7, Glc 16 1, Imm 17 1, Op 18 8, Offset 32 20);
static SMEM_GFX9: Layout = layout!(M32_6, 0xC000_0000;
    Sbase 0 6, Sdata 6 7, Soe 14 1, Nv 15 1, Glc 16 1, Imm 17 1, Op 18 8, Offset 32 21, Soffset 57 7);
static VOP1: Layout = layout!(M32_7, 0x7E00_0000; Src0 0 9, Op 9 8, Vdst 17 8);
static VOP2: Layout = layout!(M32_1, 0; Src0 0 9, Vsrc1 9 8, Vdst 17 8, Op 25 6);
static VOPC: Layout = layout!(M32_7, 0x7C00_0000; Src0 0 9, Vsrc1 9 8, Op 17 8);
static VOP3_SI: Layout = layout!(M32_6, 0xD000_0000;
    Vdst 0 8, Abs 8 3, Sdst 8 7, Clamp 11 1, Op 17 9, Src0 32 9, Src1 41 9, Src2 50 9, Omod 59 2, Neg 61 3);
static VOP3_VI: Layout = layout!(M32_6, 0xD000_0000;
    Vdst 0 8, Abs 8 3, Sdst 8 7, OpSel 11 4, Clamp 15 1, Op 16 10, Src0 32 9, Src1 41 9, Src2 50 9,
    Omod 59 2, Neg 61 3);
static VOP3P: Layout = layout!(M32_9, 0xD380_0000;
    Vdst 0 8, NegHi 8 3, OpSel 11 3, OpSelHi2 14 1, Clamp 15 1, Op 16 7, Src0 32 9, Src1 41 9, Src2 50 9,
    OpSelHi 59 2, Neg 61 3, Cbsz 8 3, Abid 11 4, AccCd 15 1, Acc 59 2, Blgp 61 3);
static VINTRP_SI: Layout = layout!(M32_6, 0xC800_0000;
    Vsrc 0 8, AttrChan 8 2, Attr 10 6, Op 16 2, Vdst 18 8);
static VINTRP_VI: Layout = layout!(M32_6, 0xD400_0000;
    Vsrc 0 8, AttrChan 8 2, Attr 10 6, Op 16 2, Vdst 18 8);
static DS_SI: Layout = layout!(M32_6, 0xD800_0000;
    Offset 0 16, Offset0 0 8, Offset1 8 8, Gds 17 1, Op 18 8, Addr 32 8, Data0 40 8, Data1 48 8, Vdst 56 8);
static DS_VI: Layout = layout!(M32_6, 0xD800_0000;
    Offset 0 16, Offset0 0 8, Offset1 8 8, Gds 16 1, Op 17 8, Acc 25 1, Addr 32 8, Data0 40 8, Data1 48 8,
    Vdst 56 8);
static MUBUF_SI: Layout = layout!(M32_6, 0xE000_0000;
    Offset 0 12, Offen 12 1, Idxen 13 1, Glc 14 1, Addr64 15 1, Lds 16 1, Op 18 7,
    Vaddr 32 8, Vdata 40 8, Srsrc 48 5, Slc 54 1, Tfe 55 1, Soffset 56 8);
static MUBUF_VI: Layout = layout!(M32_6, 0xE000_0000;
    Offset 0 12, Offen 12 1, Idxen 13 1, Glc 14 1, Sc1 15 1, Lds 16 1, Slc 17 1, Op 18 7,
    Vaddr 32 8, Vdata 40 8, Srsrc 48 5, Acc 55 1, Tfe 55 1, Soffset 56 8);
static MTBUF_SI: Layout = layout!(M32_6, 0xE800_0000;
    Offset 0 12, Offen 12 1, Idxen 13 1, Glc 14 1, Addr64 15 1, Op 16 3, Dfmt 19 4, Nfmt 23 3,
    Vaddr 32 8, Vdata 40 8, Srsrc 48 5, Slc 54 1, Tfe 55 1, Soffset 56 8);
static MTBUF_VI: Layout = layout!(M32_6, 0xE800_0000;
    Offset 0 12, Offen 12 1, Idxen 13 1, Glc 14 1, Op 15 4, Dfmt 19 4, Nfmt 23 3,
    Vaddr 32 8, Vdata 40 8, Srsrc 48 5, Sc1 53 1, Slc 54 1, Acc 55 1, Tfe 55 1, Soffset 56 8);
static MIMG_SI: Layout = layout!(M32_6, 0xF000_0000;
    Dmask 8 4, Unorm 12 1, Glc 13 1, Da 14 1, R128 15 1, Tfe 16 1, Lwe 17 1, Op 18 7, Slc 25 1,
    Vaddr 32 8, Vdata 40 8, Srsrc 48 5, Ssamp 53 5);
static MIMG_VI: Layout = layout!(M32_6, 0xF000_0000;
    Dmask 8 4, Unorm 12 1, Glc 13 1, Da 14 1, R128 15 1, Tfe 16 1, Lwe 17 1, Op 18 7, Slc 25 1,
    Vaddr 32 8, Vdata 40 8, Srsrc 48 5, Ssamp 53 5, D16 63 1);
static EXP_SI: Layout = layout!(M32_6, 0xF800_0000;
    En 0 4, Tgt 4 6, Compr 10 1, Done 11 1, Vm 12 1, Vsrc0 32 8, Vsrc1Exp 40 8, Vsrc2 48 8, Vsrc3 56 8);
static EXP_VI: Layout = layout!(M32_6, 0xC400_0000;
    En 0 4, Tgt 4 6, Compr 10 1, Done 11 1, Vm 12 1, Vsrc0 32 8, Vsrc1Exp 40 8, Vsrc2 48 8, Vsrc3 56 8);
// gfx7/gfx8 hardware has no offset, seg or saddr, but LLVM 19 decodes gfx8 FLAT with the gfx9
// positions: it prints the offset field and rejects non-zero seg, lds or saddr bits.
static FLAT_CI: Layout = layout!(M32_6, 0xDC00_0000;
    Offset 0 13, Lds 13 1, Seg 14 2, Glc 16 1, Slc 17 1, Op 18 7, Addr 32 8, Data 40 8, Saddr 48 7,
    Tfe 55 1, Vdst 56 8);
static FLAT_GFX9: Layout = layout!(M32_6, 0xDC00_0000;
    Offset 0 13, Lds 13 1, Seg 14 2, Glc 16 1, Slc 17 1, Op 18 7, Addr 32 8, Data 40 8, Saddr 48 7,
    Sc1 25 1, Nv 55 1, Acc 55 1, Vdst 56 8);
static FLAT_GFX940: Layout = layout!(M32_6, 0xDC00_0000;
    Offset 0 13, Lds 13 1, Seg 14 2, Glc 16 1, Slc 17 1, Op 18 7, Addr 32 8, Data 40 8, Saddr 48 7,
    Sve 13 1, Acc 55 1, Sc1 25 1, Vdst 56 8);

/// The field layout of `encoding` on `gen`.
pub fn layout(encoding: Encoding, gen: Gen) -> &'static Layout {
    let si = gen.is_si_ci();
    match encoding {
        Encoding::Sop2 => &SOP2,
        Encoding::Sopk => &SOPK,
        Encoding::Sop1 => &SOP1,
        Encoding::Sopc => &SOPC,
        Encoding::Sopp => &SOPP,
        Encoding::Smrd => &SMRD,
        Encoding::Smem if gen == Gen::Gfx8 => &SMEM_GFX8,
        Encoding::Smem => &SMEM_GFX9,
        Encoding::Vop1 => &VOP1,
        Encoding::Vop2 => &VOP2,
        Encoding::Vopc => &VOPC,
        Encoding::Vop3 if si => &VOP3_SI,
        Encoding::Vop3 => &VOP3_VI,
        Encoding::Vop3p => &VOP3P,
        Encoding::Vintrp if si => &VINTRP_SI,
        Encoding::Vintrp => &VINTRP_VI,
        Encoding::Ds if si => &DS_SI,
        Encoding::Ds => &DS_VI,
        Encoding::Mubuf if si => &MUBUF_SI,
        Encoding::Mubuf => &MUBUF_VI,
        Encoding::Mtbuf if si => &MTBUF_SI,
        Encoding::Mtbuf => &MTBUF_VI,
        Encoding::Mimg if si => &MIMG_SI,
        Encoding::Mimg => &MIMG_VI,
        Encoding::Exp if si => &EXP_SI,
        Encoding::Exp => &EXP_VI,
        Encoding::Flat | Encoding::Global | Encoding::Scratch => match gen {
            Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => &FLAT_CI,
            Gen::Gfx940 => &FLAT_GFX940,
            _ => &FLAT_GFX9,
        },
    }
}

/// Identifies the encoding of an instruction from its first dword.
///
/// FLAT-encoded words are reported as [`Encoding::Flat`]; the caller tells GLOBAL and
/// SCRATCH apart by the SEG field. Returns `None` for a word no encoding of `gen` matches.
pub fn identify(gen: Gen, word0: u32) -> Option<Encoding> {
    let w = word0 as u64;
    let si = gen.is_si_ci();
    if w & M32_1 == 0 {
        return Some(match w & M32_7 {
            0x7E00_0000 => Encoding::Vop1,
            0x7C00_0000 => Encoding::Vopc,
            _ => Encoding::Vop2,
        });
    }
    if w & 0xC000_0000 == 0x8000_0000 {
        return Some(match w & M32_9 {
            0xBE80_0000 => Encoding::Sop1,
            0xBF00_0000 => Encoding::Sopc,
            0xBF80_0000 => Encoding::Sopp,
            _ if w & M32_4 == 0xB000_0000 => Encoding::Sopk,
            _ => Encoding::Sop2,
        });
    }
    let top6 = (w >> 26) as u32;
    Some(match top6 {
        0b110000 if !si => Encoding::Smem,
        0b110000 | 0b110001 if si => Encoding::Smrd,
        0b110001 => Encoding::Exp,
        0b110010 if si => Encoding::Vintrp,
        0b110100 if !si && (w & M32_9) == 0xD380_0000 && gen.is_gfx9_family() => Encoding::Vop3p,
        0b110100 if !si && (w & M32_9) == 0xD380_0000 => return None,
        0b110100 => Encoding::Vop3,
        0b110101 if !si => Encoding::Vintrp,
        0b110110 => Encoding::Ds,
        0b110111 if gen != Gen::Gfx6 => Encoding::Flat,
        0b111000 => Encoding::Mubuf,
        0b111010 => Encoding::Mtbuf,
        0b111100 => Encoding::Mimg,
        0b111110 if si => Encoding::Exp,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifies_scalar_and_vector_words() {
        // s_mov_b32 s0, s1 ; v_mov_b32_e32 v0, v1 ; s_endpgm
        assert_eq!(identify(Gen::Gfx9, 0xbe80_0001), Some(Encoding::Sop1));
        assert_eq!(identify(Gen::Gfx9, 0x7e00_0301), Some(Encoding::Vop1));
        assert_eq!(identify(Gen::Gfx9, 0xbf81_0000), Some(Encoding::Sopp));
        assert_eq!(identify(Gen::Gfx9, 0xb000_0000), Some(Encoding::Sopk));
        assert_eq!(identify(Gen::Gfx6, 0xc000_0000), Some(Encoding::Smrd));
        assert_eq!(identify(Gen::Gfx8, 0xc000_0000), Some(Encoding::Smem));
        assert_eq!(identify(Gen::Gfx8, 0xc400_0000), Some(Encoding::Exp));
        assert_eq!(identify(Gen::Gfx6, 0xf800_0000), Some(Encoding::Exp));
        assert_eq!(identify(Gen::Gfx6, 0xdc00_0000), None);
        assert_eq!(identify(Gen::Gfx8, 0xd380_0000), None);
        assert_eq!(identify(Gen::Gfx9, 0xd380_0000), Some(Encoding::Vop3p));
    }

    #[test]
    fn fields_round_trip_through_set_and_get() {
        let l = layout(Encoding::Vop3, Gen::Gfx9);
        let mut bits = l.value;
        assert!(l.set(&mut bits, Field::Src2, 0x1ff));
        assert!(l.set(&mut bits, Field::Op, 0x1c0));
        assert!(!l.set(&mut bits, Field::Omod, 4));
        assert_eq!(l.get(bits, Field::Src2), 0x1ff);
        assert_eq!(l.get(bits, Field::Op), 0x1c0);
        assert_eq!(bits & l.mask, l.value);
    }
}
