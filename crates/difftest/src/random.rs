//! Random encodings of table rows: the opcode and the encoding's fixed bits are set, every
//! other field is random, with a bias towards values that make valid instructions (small
//! register numbers, inline constants, literals, SDWA and DPP forms).

use gcnkit_isa::decode::vop3_base;
use gcnkit_isa::encoding::layout;
use gcnkit_isa::{flags, Encoding, Field, Gen, InstrDef, Target};

/// A small, fast, seedable generator (xorshift64*), so that runs are reproducible.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (0 is replaced by a fixed odd constant).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// True with probability 1/n.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// A generator of its own, seeded from this one's state and `salt`, without advancing
    /// this one: a new kind of random choice made with it leaves every other choice (and
    /// so every earlier figure of a run with the same seed) as it was.
    pub fn fork(&self, salt: u64) -> Rng {
        Rng::new(self.0 ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
}

/// Interesting source-operand values: registers, specials, inline constants, literal marker.
const SRC_PICKS: &[u32] = &[
    0, 1, 2, 5, 10, 17, 100, 101, 102, 104, 106, 107, 108, 112, 124, 125, 126, 127, 128, 129, 192,
    193, 208, 235, 240, 242, 247, 248, 251, 253, 255, 256, 257, 300, 511,
];

/// Literal values worth trying: inline-constant look-alikes, floats, large values.
const LITERALS: &[u32] = &[
    0,
    1,
    64,
    65,
    0xffff_fff0,
    0x3f80_0000,
    0x3e22_f983,
    0x4020_0000,
    0x3c00,
    0x1234_5678,
    0xffff_ffff,
    0x8000_0000,
];

/// Which encoding form to generate for a VOP1/VOP2/VOPC row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VopForm {
    /// The 32-bit encoding, possibly with a literal.
    E32,
    /// The VOP3 encoding.
    E64,
    /// The SDWA extension (gfx8+).
    Sdwa,
    /// The DPP extension (gfx8+).
    Dpp,
}

fn set(bits: &mut u64, enc: Encoding, gen: Gen, field: Field, value: u32) {
    let _ = layout(enc, gen).set(bits, field, value);
}

/// Random bytes (12 of them: room for a literal or extension dword) encoding `row` on `gen`.
/// The caller trims them to the length the decoder reports. Returns `None` when the row has
/// no such form on `gen`.
pub fn random_encoding(rng: &mut Rng, row: &InstrDef, gen: Gen, form: VopForm) -> Option<[u8; 12]> {
    let op = row.opcode(gen)? as u32;
    let vop = matches!(
        row.encoding,
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc
    );
    let (enc, opcode) = match (vop, form) {
        (true, VopForm::E64) => (Encoding::Vop3, vop3_base(row.encoding, gen)? + op),
        (false, VopForm::E32) => (row.encoding, op),
        (false, _) => return None,
        (true, _) => (row.encoding, op),
    };
    let enc_for_layout = match enc {
        Encoding::Global | Encoding::Scratch => Encoding::Flat,
        e => e,
    };
    let lay = layout(enc_for_layout, gen);
    // Field by field: zero, random, or (for sources) an interesting value. Fields that
    // overlap (e.g. OFFSET and OFFSET0/1) simply take the last value written.
    let mut bits = if rng.one_in(4) { rng.next_u64() } else { 0 };
    if enc.base_len() == 4 {
        bits &= 0xffff_ffff;
    }
    bits = (bits & !lay.mask) | lay.value;
    for f in lay.fields {
        if f.field == Field::Op {
            continue;
        }
        let value = match rng.below(5) {
            0 | 1 => 0,
            2 => 1u32.min((1u64 << f.width) as u32 - 1),
            _ => rng.next_u64() as u32 & ((1u64 << f.width) - 1) as u32,
        };
        set(&mut bits, enc_for_layout, gen, f.field, value);
    }
    set(&mut bits, enc_for_layout, gen, Field::Op, opcode);
    if row.has(flags::LDSSTORE) && !rng.one_in(4) {
        // Valid only with the lds bit and without a VGPR address or tfe/acc.
        for (field, value) in [
            (Field::Lds, 1),
            (Field::Offen, 0),
            (Field::Idxen, 0),
            (Field::Tfe, 0),
        ] {
            set(&mut bits, enc_for_layout, gen, field, value);
        }
    }
    match enc {
        Encoding::Flat if gen.is_gfx9_family() => set(&mut bits, enc, gen, Field::Seg, 0),
        Encoding::Scratch => set(&mut bits, enc_for_layout, gen, Field::Seg, 1),
        Encoding::Global => set(&mut bits, enc_for_layout, gen, Field::Seg, 2),
        _ => {}
    }
    for field in [
        Field::Src0,
        Field::Src1,
        Field::Src2,
        Field::Ssrc0,
        Field::Ssrc1,
    ] {
        if lay.field(field).is_some() && rng.one_in(2) {
            let pick = SRC_PICKS[rng.below(SRC_PICKS.len() as u64) as usize];
            let width = lay.field(field).map_or(0, |f| f.width);
            if width >= 9 || pick < 256 {
                set(
                    &mut bits,
                    enc_for_layout,
                    gen,
                    field,
                    pick & ((1 << width) - 1),
                );
            }
        }
    }
    if vop && !gen.is_si_ci() {
        match form {
            VopForm::Sdwa => set(&mut bits, enc, gen, Field::Src0, 0xf9),
            VopForm::Dpp => set(&mut bits, enc, gen, Field::Src0, 0xfa),
            VopForm::E32 if matches!(bits as u32 & 0x1ff, 0xf9 | 0xfa) => {
                set(&mut bits, enc, gen, Field::Src0, 0xff)
            }
            _ => {}
        }
    }
    let mut ext = rng.next_u64() as u32;
    if rng.one_in(2) {
        ext = LITERALS[rng.below(LITERALS.len() as u64) as usize];
    }
    if matches!(form, VopForm::Sdwa | VopForm::Dpp) && rng.one_in(2) {
        // Mostly-valid extension dwords: registers low, selects in range.
        ext &= 0x3f3f_3f3f;
    }
    let mut out = [0u8; 12];
    out[..8].copy_from_slice(&bits.to_le_bytes());
    let at = enc.base_len();
    out[at..at + 4].copy_from_slice(&ext.to_le_bytes());
    Some(out)
}

/// Trims generated bytes to the instruction's length as gcnkit decodes it (or the base
/// length of the encoding when gcnkit rejects the bytes).
pub fn trim(target: &Target, bytes: &[u8; 12]) -> Vec<u8> {
    match gcnkit_isa::decode(target, bytes) {
        Ok(inst) => bytes[..inst.len as usize].to_vec(),
        Err(_) => {
            let word0 = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            let len =
                gcnkit_isa::encoding::identify(target.gen(), word0).map_or(4, |e| e.base_len());
            bytes[..len].to_vec()
        }
    }
}
