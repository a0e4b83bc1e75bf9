//! A kernel's code decoded once into a flat array of pre-resolved operations.
//!
//! Every instruction of the code section becomes one [`Op`]: its semantic function, its
//! operands resolved to register indices or constant values (inline constants and literals
//! expanded for the operand's type), its modifiers, and for branches the index of the target
//! operation. The execution loop only calls `op.exec`; it never decodes and never looks at
//! the instruction table.

use gcnkit_isa::encoding::Field;
use gcnkit_isa::instruction::{src_value, Form, RegClass, Special, SrcValue};
use gcnkit_isa::table::Role;
use gcnkit_isa::{flags, DataType, Encoding, Gen, InstrDef, Instruction, Mnemonic, Target};

use crate::exec::{ExecFn, Flow};
use crate::semantics;
use crate::wave::{sreg, ACC_BASE};

/// A pre-resolved source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// Not present.
    None,
    /// A scalar register: index into [`crate::wave::Wave::s`] (64-bit operands use two).
    Sreg(u16),
    /// A vector register: index into [`crate::wave::Wave::v`] (AccVGPRs from [`ACC_BASE`]).
    Vreg(u16),
    /// A constant, already expanded for the operand's type: the low 32 bits for 32-bit
    /// operands, the full value for 64-bit ones.
    Imm(u64),
    /// A value computed when read.
    Special(SpecialSrc),
}

/// Read-only values that are not registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialSrc {
    /// `vccz`: 1 when VCC is zero.
    Vccz,
    /// `execz`: 1 when EXEC is zero.
    Execz,
    /// `scc`.
    Scc,
    /// `src_shared_base` (the LDS aperture; 64-bit reads give the whole base).
    SharedBase,
    /// `src_shared_limit`.
    SharedLimit,
    /// `src_private_base`.
    PrivateBase,
    /// `src_private_limit`.
    PrivateLimit,
    /// `src_pops_exiting_wave_id` (0 for compute).
    PopsExitingWaveId,
    /// `lds_direct`: LDS at M0.
    LdsDirect,
}

/// SDWA operand select.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SdwaMods {
    /// src0_sel, src1_sel (0..=3 byte, 4/5 word, 6 dword).
    pub src_sel: [u8; 2],
    /// src0_sext, src1_sext.
    pub sext: [bool; 2],
    /// dst_sel.
    pub dst_sel: u8,
    /// dst_unused (0 pad, 1 sext, 2 preserve).
    pub dst_unused: u8,
}

/// DPP controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DppMods {
    /// dpp_ctrl (9 bits).
    pub ctrl: u16,
    /// row_mask (4 bits).
    pub row_mask: u8,
    /// bank_mask (4 bits).
    pub bank_mask: u8,
    /// bound_ctrl: lanes whose source is out of range or disabled read 0 instead of keeping
    /// their destination.
    pub bound_ctrl: bool,
}

/// Vector ALU modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct VMods {
    /// Per source: bits to clear (abs) before flipping (neg); zero for no modifier. For
    /// packed 16-bit sources these act on both halves as the instruction's neg/neg_hi say.
    pub abs: [u64; 3],
    /// Per source: bits to flip (neg).
    pub neg: [u64; 3],
    /// clamp.
    pub clamp: bool,
    /// omod: 0 none, 1 ×2, 2 ×4, 3 ÷2.
    pub omod: u8,
    /// op_sel (VOP3 gfx9+, VOP3P), bit i for source i, bit 3 for the destination.
    pub op_sel: u8,
    /// op_sel_hi (VOP3P).
    pub op_sel_hi: u8,
    /// neg_hi (VOP3P), bit i for source i.
    pub neg_hi: u8,
    /// neg (VOP3P), bit i for source i (kept raw for packed operations).
    pub neg_lo: u8,
    /// SDWA selects, when the form is SDWA.
    pub sdwa: Option<SdwaMods>,
    /// DPP controls, when the form is DPP.
    pub dpp: Option<DppMods>,
    /// The destination is a floating-point type of this width (16, 32, 64), for clamp and
    /// omod; 0 for integer destinations.
    pub float_bits: u8,
}

/// One pre-resolved operation.
#[derive(Clone, Copy, Debug)]
pub struct Op {
    /// The semantic function.
    pub exec: ExecFn,
    /// Byte address of the instruction.
    pub addr: u64,
    /// The decoded instruction (for building and for fault messages; not read when running).
    pub inst: Instruction,
    /// Sources: src0..src2 (VALU), ssrc0/ssrc1 (SALU), and for memory: see the family.
    pub src: [Src; 3],
    /// Scalar destination (storage index), e.g. SALU sdst, VOPC/carry-out mask, SMEM sdata.
    pub sdst: u16,
    /// Vector destination (register index).
    pub vdst: u16,
    /// Immediates: simm16, memory offsets, the K constant, ... (family-defined).
    pub imm: i64,
    /// A second immediate (family-defined).
    pub imm2: i64,
    /// Branch target: index of the target operation.
    pub target: u32,
    /// Vector ALU modifiers.
    pub mods: VMods,
    /// Memory operands: vector address, data, second data register.
    pub vaddr: u16,
    /// Vector data register.
    pub vdata: u16,
    /// Second vector data register (DS data1).
    pub vdata1: u16,
    /// Scalar base / resource (storage index).
    pub sbase: u16,
    /// Scalar offset / saddr.
    pub soffset: Src,
    /// Memory flags (see [`memflags`]).
    pub mflags: u32,
    /// The operation a wrapping semantic function delegates to (a GDS access runs the LDS
    /// operation on the GDS window; a `tfe` load runs the plain load).
    pub inner: ExecFn,
}

/// Bits of [`Op::mflags`].
pub mod memflags {
    /// GLC (sc0 on gfx940).
    pub const GLC: u32 = 1 << 0;
    /// SLC (nt on gfx940... see the manuals).
    pub const SLC: u32 = 1 << 1;
    /// OFFEN.
    pub const OFFEN: u32 = 1 << 2;
    /// IDXEN.
    pub const IDXEN: u32 = 1 << 3;
    /// ADDR64 (gfx6/7).
    pub const ADDR64: u32 = 1 << 4;
    /// LDS (load into LDS).
    pub const LDS: u32 = 1 << 5;
    /// TFE.
    pub const TFE: u32 = 1 << 6;
    /// GDS.
    pub const GDS: u32 = 1 << 7;
    /// The saddr operand is present (GLOBAL/SCRATCH with an SGPR base).
    pub const SADDR: u32 = 1 << 8;
    /// Data registers are AccVGPRs (gfx90a+ acc bit).
    pub const ACC: u32 = 1 << 9;
    /// SC1 (gfx940).
    pub const SC1: u32 = 1 << 10;
    /// The vaddr operand is absent (scratch with SVE=0 on gfx940, or `off`).
    pub const NO_VADDR: u32 = 1 << 11;
}

/// What the builders need to know besides the instruction.
pub struct BuildContext<'a> {
    /// The target.
    pub target: &'a Target,
}

/// A decoded kernel program.
pub struct Program {
    /// The operations, in address order.
    pub ops: Vec<Op>,
    /// Address of the first byte of code.
    pub base: u64,
    /// Length of the code in bytes.
    pub len: u64,
    /// For every dword of the code, the index of the operation starting there, or `u32::MAX`.
    pub index_of_dword: Vec<u32>,
}

impl Program {
    /// Index of the operation starting at `addr`, if one does.
    pub fn op_at(&self, addr: u64) -> Option<usize> {
        let off = addr.checked_sub(self.base)?;
        if off % 4 != 0 {
            return None;
        }
        match self.index_of_dword.get((off / 4) as usize) {
            Some(&i) if i != u32::MAX => Some(i as usize),
            _ => None,
        }
    }

    /// Decodes `code` (at device address `base`) for `target`.
    ///
    /// Words that do not decode become operations that fault when executed (code sections
    /// hold data and padding between functions too), so decoding never fails.
    pub fn decode(target: &Target, code: &[u8], base: u64) -> Program {
        let ctx = BuildContext { target };
        let mut ops = Vec::with_capacity(code.len() / 6);
        let mut index_of_dword = vec![u32::MAX; code.len().div_ceil(4)];
        let mut at = 0usize;
        while at + 4 <= code.len() {
            let addr = base + at as u64;
            let (op, len) = match gcnkit_isa::decode(target, &code[at..]) {
                Ok(inst) => (build(&inst, addr, &ctx), inst.len as usize),
                Err(_) => (undecodable(addr, &code[at..at + 4]), 4),
            };
            index_of_dword[at / 4] = ops.len() as u32;
            ops.push(op);
            at += len.max(4);
        }
        let mut program = Program {
            ops,
            base,
            len: code.len() as u64,
            index_of_dword,
        };
        program.resolve_branches();
        program
    }

    /// Turns branch offsets into operation indices. A branch to an address where no
    /// operation starts keeps `u32::MAX` and faults when taken.
    fn resolve_branches(&mut self) {
        for i in 0..self.ops.len() {
            let op = &self.ops[i];
            if op.inst.def().has(flags::BRANCH) {
                let simm = op.inst.field(Field::Simm16) as u16 as i16 as i64;
                let target_addr = (op.addr as i64 + 4 + simm * 4) as u64;
                let t = self.op_at(target_addr).map_or(u32::MAX, |t| t as u32);
                self.ops[i].target = t;
            }
        }
    }
}

fn undecodable(addr: u64, bytes: &[u8]) -> Op {
    let word = u32::from_le_bytes(bytes[..4].try_into().unwrap_or_default());
    let mut op = blank_op(
        Instruction {
            id: 0,
            gen: Gen::Gfx9,
            encoding: Encoding::Sopp,
            form: Form::Native,
            bits: word as u64,
            ext: None,
            len: 4,
        },
        addr,
    );
    op.exec = crate::exec::illegal_instruction;
    op
}

/// An operation with no operands that faults as "not emulated".
pub fn blank_op(inst: Instruction, addr: u64) -> Op {
    Op {
        exec: crate::exec::not_emulated,
        addr,
        inst,
        src: [Src::None; 3],
        sdst: sreg::NULL,
        vdst: 0,
        imm: 0,
        imm2: 0,
        target: u32::MAX,
        mods: VMods::default(),
        vaddr: 0,
        vdata: 0,
        vdata1: 0,
        sbase: 0,
        soffset: Src::None,
        mflags: 0,
        inner: crate::exec::not_emulated,
    }
}

/// Maps a scalar operand encoding to its storage index.
pub fn sreg_index(gen: Gen, value: u32) -> Option<u16> {
    Some(match src_value(gen, value) {
        SrcValue::Reg(RegClass::Sgpr, n) => n as u16,
        SrcValue::Reg(RegClass::Ttmp, n) => sreg::TTMP0 + n as u16,
        SrcValue::Special(s) => match s {
            Special::FlatScratchLo => sreg::FLAT_SCRATCH,
            Special::FlatScratchHi => sreg::FLAT_SCRATCH + 1,
            Special::XnackMaskLo => sreg::XNACK_MASK,
            Special::XnackMaskHi => sreg::XNACK_MASK + 1,
            Special::VccLo => sreg::VCC,
            Special::VccHi => sreg::VCC + 1,
            Special::TbaLo => sreg::TBA,
            Special::TbaHi => sreg::TBA + 1,
            Special::TmaLo => sreg::TMA,
            Special::TmaHi => sreg::TMA + 1,
            Special::M0 => sreg::M0,
            Special::ExecLo => sreg::EXEC,
            Special::ExecHi => sreg::EXEC + 1,
            Special::Null => sreg::NULL,
            _ => return None,
        },
        _ => return None,
    })
}

/// Resolves a source operand encoding (`0..512`) for an operand of type `ty`.
pub fn resolve_src(gen: Gen, value: u32, literal: Option<u32>, ty: DataType) -> Src {
    match src_value(gen, value) {
        SrcValue::Reg(RegClass::Vgpr, n) => Src::Vreg(n as u16),
        SrcValue::Reg(RegClass::Agpr, n) => Src::Vreg(ACC_BASE + n as u16),
        SrcValue::InlineInt(i) => Src::Imm(expand_int(i, ty)),
        SrcValue::InlineFloat(enc) => Src::Imm(gcnkit_disasm::operands::inline_float_value(
            enc,
            const_type(ty),
        )),
        SrcValue::Literal => Src::Imm(literal.map_or(0, |l| {
            gcnkit_disasm::operands::literal_value(l, const_type(ty))
        })),
        SrcValue::Special(s) => match s {
            Special::SrcVccz => Src::Special(SpecialSrc::Vccz),
            Special::SrcExecz => Src::Special(SpecialSrc::Execz),
            Special::SrcScc => Src::Special(SpecialSrc::Scc),
            Special::SrcSharedBase => Src::Special(SpecialSrc::SharedBase),
            Special::SrcSharedLimit => Src::Special(SpecialSrc::SharedLimit),
            Special::SrcPrivateBase => Src::Special(SpecialSrc::PrivateBase),
            Special::SrcPrivateLimit => Src::Special(SpecialSrc::PrivateLimit),
            Special::SrcPopsExitingWaveId => Src::Special(SpecialSrc::PopsExitingWaveId),
            Special::LdsDirect => Src::Special(SpecialSrc::LdsDirect),
            _ => sreg_index(gen, value).map_or(Src::None, Src::Sreg),
        },
        SrcValue::Reg(_, _) => sreg_index(gen, value).map_or(Src::None, Src::Sreg),
        SrcValue::Invalid(_) => Src::None,
    }
}

/// The type whose constant encoding an operand of type `ty` reads (packed float pairs read
/// their element type; wide register types read 32-bit constants). Packed 16-bit integer
/// operands read a float inline constant as the 32-bit float value, the hardware behaviour
/// LLVM records in `AMDGPUBaseInfo.cpp` (`getInlineEncodingV216`).
fn const_type(ty: DataType) -> DataType {
    use DataType::*;
    match ty {
        V2F16 => F16,
        V2Bf16 => Bf16,
        V2I16 | V2U16 => B32,
        V2F32 => F32,
        B96 | B128 | B160 | B192 | B256 | B512 | B1024 => B32,
        t => t,
    }
}

/// An inline integer constant as the operand of type `ty` reads it: sign-extended to the
/// operand's width (64-bit operands get all 64 bits).
fn expand_int(i: i32, ty: DataType) -> u64 {
    match ty.bits() {
        64 => i as i64 as u64,
        16 => (i as u16) as u64,
        _ => i as u32 as u64,
    }
}

/// Builds the operation for `inst` at `addr`.
fn build(inst: &Instruction, addr: u64, ctx: &BuildContext<'_>) -> Op {
    let mut op = blank_op(*inst, addr);
    let def = inst.def();
    resolve_operands(inst, def, &mut op);
    op.exec = semantics::select(inst, &mut op, ctx).unwrap_or(crate::exec::not_emulated);
    op
}

/// Fills the generic operand fields of `op` from the instruction's roles.
fn resolve_operands(inst: &Instruction, def: &InstrDef, op: &mut Op) {
    let gen = inst.gen;
    let f = |field| inst.field(field);
    let literal = match inst.form {
        Form::Sdwa | Form::Dpp => None,
        _ => inst.ext,
    };
    match inst.encoding {
        Encoding::Sop2 | Encoding::Sopc | Encoding::Sop1 | Encoding::Sopk => {
            for o in def.operands {
                match o.role {
                    Role::Ssrc0 => op.src[0] = resolve_src(gen, f(Field::Ssrc0), literal, o.ty),
                    Role::Ssrc1 => op.src[1] = resolve_src(gen, f(Field::Ssrc1), literal, o.ty),
                    Role::Sdst => {
                        op.sdst = sreg_index(gen, f(Field::Sdst)).unwrap_or(sreg::NULL);
                        if inst.encoding == Encoding::Sopk {
                            // s_cmovk / s_addk read their destination too.
                            op.src[0] = Src::Sreg(op.sdst);
                        }
                    }
                    Role::Simm16 => op.imm = f(Field::Simm16) as i64,
                    _ => {}
                }
            }
            if inst.encoding == Encoding::Sopk {
                op.imm = f(Field::Simm16) as i64;
                // s_setreg_imm32_b32 carries a literal.
                op.imm2 = inst.ext.unwrap_or(0) as i64;
            }
        }
        Encoding::Sopp => op.imm = f(Field::Simm16) as i64,
        Encoding::Smrd | Encoding::Smem => {
            op.sbase = sreg_index(gen, f(Field::Sbase) << 1).unwrap_or(sreg::NULL);
            let data_field = if inst.encoding == Encoding::Smrd {
                Field::Sdst
            } else {
                Field::Sdata
            };
            op.sdst = sreg_index(gen, f(data_field)).unwrap_or(sreg::NULL);
            if inst.encoding == Encoding::Smrd {
                // IMM=1: an 8-bit dword offset; IMM=0: an SGPR, or 255 with a literal (gfx7).
                if f(Field::Imm) != 0 {
                    op.imm = f(Field::Offset) as i64 * 4;
                } else if f(Field::Offset) == 255 {
                    op.imm = inst.ext.unwrap_or(0) as i64 * 4;
                } else {
                    op.soffset = sreg_index(gen, f(Field::Offset)).map_or(Src::None, Src::Sreg);
                }
            } else {
                let imm = f(Field::Imm) != 0;
                let soe = f(Field::Soe) != 0;
                let offset = f(Field::Offset);
                // gfx9: a 21-bit signed byte offset; gfx8: a 20-bit unsigned one.
                let offset = if gen.is_gfx9_family() {
                    ((offset << 11) as i32 >> 11) as i64
                } else {
                    offset as i64
                };
                if imm {
                    op.imm = offset;
                    if soe {
                        op.soffset =
                            sreg_index(gen, f(Field::Soffset)).map_or(Src::None, Src::Sreg);
                    }
                } else {
                    // IMM=0: the offset field holds an SGPR, or with SOE=1 (gfx9) the SOFFSET
                    // field does (seed 002: IMM=0 SOE=1 is SGPR[base] + SGPR[SOFFSET]).
                    let reg = if soe {
                        f(Field::Soffset)
                    } else {
                        f(Field::Offset) & 0x7f
                    };
                    op.soffset = sreg_index(gen, reg).map_or(Src::None, Src::Sreg);
                }
                if f(Field::Glc) != 0 {
                    op.mflags |= memflags::GLC;
                }
            }
        }
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p => {
            resolve_valu(inst, def, op, literal)
        }
        Encoding::Ds => {
            let acc = gen.has_unified_agprs() && f(Field::Acc) != 0;
            let base = if acc { ACC_BASE } else { 0 };
            op.vaddr = f(Field::Addr) as u16;
            op.vdata = base + f(Field::Data0) as u16;
            op.vdata1 = base + f(Field::Data1) as u16;
            op.vdst = base + f(Field::Vdst) as u16;
            op.imm = f(Field::Offset0) as i64;
            op.imm2 = f(Field::Offset1) as i64;
            if f(Field::Gds) != 0 {
                op.mflags |= memflags::GDS;
            }
        }
        Encoding::Mubuf | Encoding::Mtbuf => {
            let acc = gen.has_unified_agprs() && f(Field::Acc) != 0;
            op.vaddr = f(Field::Vaddr) as u16;
            op.vdata = if acc { ACC_BASE } else { 0 } + f(Field::Vdata) as u16;
            op.vdst = op.vdata;
            op.sbase = sreg_index(gen, f(Field::Srsrc) << 2).unwrap_or(sreg::NULL);
            op.soffset = resolve_src(gen, f(Field::Soffset), None, DataType::B32);
            op.imm = f(Field::Offset) as i64;
            op.imm2 = (f(Field::Dfmt) | f(Field::Nfmt) << 8) as i64;
            for (field, flag) in [
                (Field::Glc, memflags::GLC),
                (Field::Slc, memflags::SLC),
                (Field::Offen, memflags::OFFEN),
                (Field::Idxen, memflags::IDXEN),
                (Field::Lds, memflags::LDS),
                (Field::Sc1, memflags::SC1),
            ] {
                if f(field) != 0 {
                    op.mflags |= flag;
                }
            }
            // Bit 55 is TFE up to gfx908 and the acc bit on gfx90a/gfx940.
            if !gen.has_unified_agprs() && f(Field::Tfe) != 0 {
                op.mflags |= memflags::TFE;
            }
            if gen.is_si_ci() && f(Field::Addr64) != 0 {
                op.mflags |= memflags::ADDR64;
            }
            if acc {
                op.mflags |= memflags::ACC;
            }
        }
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            let acc = gen.has_unified_agprs() && f(Field::Acc) != 0;
            let base = if acc { ACC_BASE } else { 0 };
            op.vaddr = f(Field::Addr) as u16;
            op.vdata = base + f(Field::Data) as u16;
            op.vdst = base + f(Field::Vdst) as u16;
            let offset = f(Field::Offset);
            // gfx7/gfx8 FLAT has no offset (those bits are ignored). From gfx9 on, FLAT (SEG=0)
            // offsets are unsigned 12-bit and GLOBAL/SCRATCH ones signed 13-bit.
            op.imm = if gen.is_si_ci() || gen == Gen::Gfx8 {
                0
            } else if inst.encoding == Encoding::Flat {
                (offset & 0xfff) as i64
            } else {
                ((offset << 19) as i32 >> 19) as i64
            };
            if inst.encoding != Encoding::Flat {
                let saddr = f(Field::Saddr);
                // 0x7f (gfx9: off) means no SGPR base.
                if saddr != 0x7f && saddr != 0x7d {
                    op.mflags |= memflags::SADDR;
                    op.soffset = sreg_index(gen, saddr).map_or(Src::None, Src::Sreg);
                }
                if inst.encoding == Encoding::Scratch && gen == Gen::Gfx940 && f(Field::Sve) == 0 {
                    op.mflags |= memflags::NO_VADDR;
                }
                if inst.encoding == Encoding::Scratch && gen != Gen::Gfx940 && saddr != 0x7f {
                    op.mflags |= memflags::NO_VADDR;
                }
            }
            for (field, flag) in [
                (Field::Glc, memflags::GLC),
                (Field::Slc, memflags::SLC),
                (Field::Sc1, memflags::SC1),
            ] {
                if f(field) != 0 {
                    op.mflags |= flag;
                }
            }
            // The lds bit (13) of GLOBAL/SCRATCH loads exists on gfx9-gfx90a only; on gfx940 bit
            // 13 is SVE and the LDS loads are opcodes of their own.
            let lds_bit = matches!(gen, Gen::Gfx9 | Gen::Gfx908 | Gen::Gfx90a);
            if lds_bit && inst.encoding != Encoding::Flat && f(Field::Lds) != 0 {
                op.mflags |= memflags::LDS;
            }
            if acc {
                op.mflags |= memflags::ACC;
            }
        }
        Encoding::Mimg => semantics::mimg::resolve(inst, op),
        _ => {}
    }
}

/// The vector-ALU operands and modifiers of every form.
fn resolve_valu(inst: &Instruction, def: &InstrDef, op: &mut Op, literal: Option<u32>) {
    let gen = inst.gen;
    let f = |field| inst.field(field);
    let ext = |lo, w| inst.ext_bits(lo, w);
    let ty_of = |role| def.operand(role).map(|o| o.ty);
    // Which value each source field holds, by form.
    let vop3_encoded = matches!(inst.encoding, Encoding::Vop3 | Encoding::Vop3p);
    let (src0_value, src1_value) = match inst.form {
        _ if vop3_encoded => (f(Field::Src0), f(Field::Src1)),
        // gfx6/7's VOP2 v_readlane_b32 / v_writelane_b32 keep a scalar lane select in VSRC1.
        Form::Native if matches!(def.op, Mnemonic::VReadlaneB32 | Mnemonic::VWritelaneB32) => {
            (f(Field::Src0), f(Field::Vsrc1))
        }
        Form::Native | Form::Vop3 => (f(Field::Src0), f(Field::Vsrc1) + 256),
        Form::Sdwa => {
            let gfx9 = gen.is_gfx9_family();
            let s0 = if gfx9 && ext(23, 1) != 0 { 0 } else { 256 };
            let s1 = if gfx9 && ext(31, 1) != 0 { 0 } else { 256 };
            (ext(0, 8) + s0, f(Field::Vsrc1) + s1)
        }
        Form::Dpp => (ext(0, 8) + 256, f(Field::Vsrc1) + 256),
    };
    let native_or_ext = !vop3_encoded;
    for (i, role) in [Role::Src0, Role::Src1, Role::Src2].into_iter().enumerate() {
        let Some(ty) = ty_of(role) else { continue };
        let value = match role {
            Role::Src0 => src0_value,
            Role::Src1 => src1_value,
            // The carry-in / mask is implicit VCC in the 32-bit forms.
            _ if native_or_ext
                && def.encoding != Encoding::Vop3
                && def.encoding != Encoding::Vop3p =>
            {
                106
            }
            _ => f(Field::Src2),
        };
        op.src[i] = resolve_src(gen, value, literal, ty);
    }
    // The K constant of madmk/madak/fmamk/fmaak.
    if def.operand(Role::K).is_some() {
        op.imm = inst.ext.unwrap_or(0) as i64;
    }
    // Destinations.
    if let Some(d) = def.operand(Role::Vdst) {
        let _ = d;
        op.vdst = f(Field::Vdst) as u16;
    }
    // VOP3B: the VOP3-only rows flagged so, and the carry-out VOP2 instructions in their
    // VOP3 form (their sdst sits where VOP3A keeps abs).
    let carry_out = def.encoding == Encoding::Vop2
        && def.operand(Role::Sdst).is_some()
        && def.operand(Role::Vdst).is_some();
    let vop3b = def.has(flags::VOP3B) || carry_out;
    if def.operand(Role::Sdst).is_some() {
        op.sdst = match inst.form {
            _ if vop3_encoded && vop3b => sreg_index(gen, f(Field::Sdst)).unwrap_or(sreg::NULL),
            // VOPC e64 and v_readlane/v_readfirstlane: the VDST field.
            _ if vop3_encoded => sreg_index(gen, f(Field::Vdst)).unwrap_or(sreg::NULL),
            Form::Sdwa
                if def.encoding == Encoding::Vopc && gen.is_gfx9_family() && ext(15, 1) != 0 =>
            {
                sreg_index(gen, ext(8, 7)).unwrap_or(sreg::NULL)
            }
            _ if def.encoding == Encoding::Vopc || carry_out => sreg::VCC,
            // v_readfirstlane_b32 (VOP1) and gfx6/7's VOP2 v_readlane_b32 write the SGPR in
            // their VDST field.
            _ => sreg_index(gen, f(Field::Vdst)).unwrap_or(sreg::NULL),
        };
    }
    let dst_ty = ty_of(Role::Vdst);
    op.mods.float_bits = match dst_ty {
        Some(DataType::F16 | DataType::V2F16) => 16,
        Some(DataType::F32 | DataType::V2F32) => 32,
        Some(DataType::F64) => 64,
        _ => 0,
    };
    let sign_mask = |ty: Option<DataType>| -> u64 {
        match ty {
            Some(
                DataType::F16 | DataType::Bf16 | DataType::I16 | DataType::U16 | DataType::B16,
            ) => 0x8000,
            Some(DataType::F64 | DataType::I64 | DataType::U64 | DataType::B64) => 1 << 63,
            Some(DataType::V2F16 | DataType::V2Bf16 | DataType::V2I16 | DataType::V2U16) => 0x8000,
            _ => 0x8000_0000,
        }
    };
    let tys = [ty_of(Role::Src0), ty_of(Role::Src1), ty_of(Role::Src2)];
    match inst.form {
        Form::Vop3 if inst.encoding == Encoding::Vop3p => {
            op.mods.op_sel = f(Field::OpSel) as u8;
            op.mods.op_sel_hi = (f(Field::OpSelHi) | f(Field::OpSelHi2) << 2) as u8;
            op.mods.neg_lo = f(Field::Neg) as u8;
            op.mods.neg_hi = f(Field::NegHi) as u8;
            op.mods.clamp = f(Field::Clamp) != 0;
        }
        Form::Native if inst.encoding == Encoding::Vop3p => {
            op.mods.op_sel = f(Field::OpSel) as u8;
            op.mods.op_sel_hi = (f(Field::OpSelHi) | f(Field::OpSelHi2) << 2) as u8;
            op.mods.neg_lo = f(Field::Neg) as u8;
            op.mods.neg_hi = f(Field::NegHi) as u8;
            op.mods.clamp = f(Field::Clamp) != 0;
        }
        Form::Vop3 | Form::Native if inst.encoding == Encoding::Vop3 => {
            let abs = if vop3b { 0 } else { f(Field::Abs) };
            let neg = f(Field::Neg);
            for i in 0..3 {
                let m = sign_mask(tys[i]);
                if abs >> i & 1 != 0 {
                    op.mods.abs[i] = m;
                }
                if neg >> i & 1 != 0 {
                    op.mods.neg[i] = m;
                }
            }
            // VOP3B keeps its sdst in bits 14:8, where VOP3A has abs, op_sel (gfx9+) and, on
            // gfx6/7, clamp (bit 11): VOP3B has no op_sel, and clamp only from gfx8 (bit 15).
            op.mods.clamp = f(Field::Clamp) != 0 && !(vop3b && gen.is_si_ci());
            op.mods.omod = f(Field::Omod) as u8;
            op.mods.op_sel = if vop3b { 0 } else { f(Field::OpSel) as u8 };
        }
        Form::Sdwa => {
            let gfx9 = gen.is_gfx9_family();
            for i in 0..2 {
                let base = 16 + 8 * i as u32;
                let m = sign_mask(tys[i]);
                if ext(base + 5, 1) != 0 {
                    op.mods.abs[i] = m;
                }
                if ext(base + 4, 1) != 0 {
                    op.mods.neg[i] = m;
                }
            }
            let vopc = def.encoding == Encoding::Vopc;
            op.mods.clamp = !(vopc && gfx9) && ext(13, 1) != 0;
            op.mods.omod = if gfx9 && !vopc { ext(14, 2) as u8 } else { 0 };
            op.mods.sdwa = Some(SdwaMods {
                src_sel: [ext(16, 3) as u8, ext(24, 3) as u8],
                sext: [ext(19, 1) != 0, ext(27, 1) != 0],
                dst_sel: if vopc { 6 } else { ext(8, 3) as u8 },
                dst_unused: if vopc { 0 } else { ext(11, 2) as u8 },
            });
        }
        Form::Dpp => {
            for i in 0..2 {
                let m = sign_mask(tys[i]);
                if ext(21 + 2 * i as u32, 1) != 0 {
                    op.mods.abs[i] = m;
                }
                if ext(20 + 2 * i as u32, 1) != 0 {
                    op.mods.neg[i] = m;
                }
            }
            op.mods.dpp = Some(DppMods {
                ctrl: ext(8, 9) as u16,
                row_mask: ext(28, 4) as u8,
                bank_mask: ext(24, 4) as u8,
                bound_ctrl: ext(19, 1) != 0,
            });
        }
        _ => {}
    }
}

/// What running one operation led to, for the unit tests of the semantics.
pub fn run_one(
    op: &Op,
    wave: &mut crate::wave::Wave,
    env: &mut crate::exec::Env<'_>,
) -> Result<Flow, crate::exec::Fault> {
    (op.exec)(wave, op, env)
}
