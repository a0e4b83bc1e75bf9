//! Matrix operations: `v_mfma_*` (gfx908, gfx90a, gfx940) and the structured-sparse
//! `v_smfmac_*` (gfx940).
//!
//! Every instruction computes `blocks` independent products `D = A·B + C` of an M×K matrix A
//! and a K×N matrix B (`smfmac`: `D += A·B` with A stored 4:2-compressed and src2 holding the
//! compression indices). Where the elements live, after AMD's matrix instruction calculator
//! (ROCm/amd_matrix_instruction_calculator, `matrix_calculator.py`, class `InstCalcGfx9`, which
//! covers CDNA1-3 with one set of rules):
//!
//! * **A and B.** With `G = 64 / (M·blocks)` lane groups and `e = K / G` elements per lane,
//!   A\[i\]\[k\] of block b is element `k % e` of lane `b·M + (k / e)·M·blocks + i`; B\[k\]\[j\]
//!   is the same with j and N for i and M. Element `x` of a lane is VGPR `x` of the operand for
//!   32-bit types, bits `[16(x%2)+15 : 16(x%2)]` of VGPR `x/2` for 16-bit types, byte `x%4` of
//!   VGPR `x/4` for 8-bit types, and the register pair `2x, 2x+1` for f64.
//! * **C and D.** For 32-bit results a block is stored in 4-row slabs: D\[i\]\[j\] of block b is
//!   in register `b·(M·N/64) + (i / (4·64/N))·4 + i % 4`, lane
//!   `(b % bpr)·N + ((i / 4) % (64/N))·bpr·N + j`, where `bpr = ceil(64 / (N·M/4))` blocks share
//!   a register (16 for the 4x4 shapes, otherwise 1). f64 results use 1-row slabs: register pair
//!   `b·(M·N/64) + i / (64/N)`, lane `(b % bpr)·N + (i % (64/N))·bpr·N + j` with
//!   `bpr = ceil(64 / (N·M))` — so the 16x16x4 f64 row `4a + c` lives in pair `a`, lanes `16c..`.
//! * **Broadcasts.** CBSZ/ABID (multi-block shapes): block b reads A from block
//!   `(b >> CBSZ << CBSZ) + ABID`. BLGP (where the calculator allows it) makes lane l read B from
//!   lane `l%32`, `l%32+32`, `(l+16)%64`, `l%16`, `l%16+16`, `l%16+32`, `l%16+48` for BLGP 1..7.
//!   On gfx940 the f64 instructions read the BLGP bits as negate A, B, C (printed `neg:[..]`);
//!   gfx90a's f64 instructions have no BLGP. Values outside the documented ranges (an ABID above
//!   2^CBSZ−1, a CBSZ above log2(blocks)) are reduced modulo the block count here; the hardware
//!   behaviour is not documented.
//! * **Sparse A (smfmac).** A is stored with K/2 columns in the layout above; stored column `s`
//!   stands for dense column `4·(s/2) + idx`, where `idx` is the 2-bit field `2·(s % e)` of the
//!   index VGPR (src2) in the lane holding the element. The index VGPR holds four 8-bit sets for
//!   16-bit types and two 16-bit sets for 8-bit types; with CBSZ = 0 ABID picks the set, otherwise
//!   set 0 is used (calculator README, "compression index"). C and D are the destination.
//! * **Registers.** C and D are AccVGPRs on gfx908; on gfx90a/gfx940 the acc_cd bit selects
//!   AccVGPRs. src0/src1 are AccVGPRs when their acc bit is set. The smfmac index is a VGPR.
//!   A C operand that is a constant gives every element that value (an f64 constant for the f64
//!   instructions).
//!
//! Arithmetic, after the bit-accurate model MMA-Sim (microsoft/MMA-Sim, `simulator/amd.py` and
//! `simulator/arithmetic.py`, derived by testing CDNA hardware), per output element:
//!
//! * f32 and f64 inputs: fused multiply-adds into the accumulator, one per k in increasing order.
//! * f16 and bf16 on gfx908/gfx90a: the products of each group of 4 consecutive k (2 for the
//!   original bf16 instructions) are rounded to f32 and added as a pairwise tree in f32; each
//!   group sum is then added to the accumulator (all round-to-nearest-even). gfx90a flushes f16/
//!   bf16/f32 input denormals to +0 and every partial sum below 2^-126 to a zero of its sign.
//! * f16, bf16, xf32 and fp8/bf8 on gfx940: per group of 8 k (4 for xf32 and the K=4 shapes,
//!   16 for fp8/bf8) the exact products are aligned to the largest product exponent and truncated
//!   to 24 fraction bits, summed, aligned with the accumulator (products floored to 31 fraction
//!   bits of the larger exponent, the accumulator to 24), added and rounded to f32
//!   (nearest-even). fp8/bf8 sum even and odd k separately first, and drop an accumulator more
//!   than 25 binades below the products. xf32 inputs are f32 values with the low 13 fraction bits
//!   ignored. Products at or above 2^128 count as infinities. fp8/bf8 are gfx940's FNUZ formats
//!   (E4M3 bias 8, E5M2 bias 16, 0x80 the only NaN, no infinities; composable_kernel
//!   `ck_tile/core/numeric/float8.hpp`).
//! * i8: exact products summed with wrapping i32 arithmetic.
//! * smfmac (not covered by MMA-Sim): the gfx940 method of the same input type over the stored
//!   products, a group being the stored half of the dense group (4 products for f16/bf16, 8 for
//!   fp8/bf8).
//!
//! MFMA ignores MODE's rounding and denormal controls (MMA-Sim models none). Results are written
//! under EXEC; the manuals found do not say what partial EXEC does to a matrix instruction.

use gcnkit_isa::encoding::Field;
use gcnkit_isa::{DataType, Gen, Instruction, Mnemonic as M};

use super::vop_packed::{ExactSum, Rounding, RNE, SINGLE};
use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{resolve_src, BuildContext, Op, Src};
use crate::semantics::valu::{raw32, scalar32, scalar64};
use crate::wave::{Lanes, Wave, ACC_BASE, LANES};

/// Shape flag: BLGP swizzles B's lanes.
const BLGP: u32 = 1;
/// Shape flag: CBSZ/ABID broadcast A blocks (or, for smfmac, pick the index set).
const CBSZ: u32 = 2;
/// Shape flag: the BLGP bits negate A, B and C (gfx940 f64).
const NEG: u32 = 4;

/// The semantic function for `inst`, if it is a matrix operation.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    let gen = inst.gen;
    let flush = gen == Gen::Gfx90a;
    // f16/bf16 on gfx908/gfx90a: pairwise groups; gfx90a also flushes denormals.
    let f16_pair: ExecFn = if flush {
        run::<F16, F16, Pairwise<4, true>, false>
    } else {
        run::<F16, F16, Pairwise<4, false>, false>
    };
    let bf16_pair2: ExecFn = if flush {
        run::<Bf16, Bf16, Pairwise<2, true>, false>
    } else {
        run::<Bf16, Bf16, Pairwise<2, false>, false>
    };
    let (m, n, k, blocks, flags, exec): (u32, u32, u32, u32, u32, ExecFn) = match inst.def().op {
        // f32 inputs.
        M::VMfmaF3232x32x1f32 | M::VMfmaF3232x32x12bF32 => {
            (32, 32, 1, 2, BLGP | CBSZ, run::<F32, F32, Fma32, false>)
        }
        M::VMfmaF3216x16x1f32 | M::VMfmaF3216x16x14bF32 => {
            (16, 16, 1, 4, BLGP | CBSZ, run::<F32, F32, Fma32, false>)
        }
        M::VMfmaF324x4x1f32 | M::VMfmaF324x4x116bF32 => {
            (4, 4, 1, 16, BLGP | CBSZ, run::<F32, F32, Fma32, false>)
        }
        M::VMfmaF3232x32x2f32 | M::VMfmaF3232x32x2F32 => {
            (32, 32, 2, 1, BLGP, run::<F32, F32, Fma32, false>)
        }
        M::VMfmaF3216x16x4f32 | M::VMfmaF3216x16x4F32 => {
            (16, 16, 4, 1, BLGP, run::<F32, F32, Fma32, false>)
        }
        // f16 inputs, gfx908/gfx90a.
        M::VMfmaF3232x32x4f16 => (32, 32, 4, 2, BLGP | CBSZ, f16_pair),
        M::VMfmaF3216x16x4f16 => (16, 16, 4, 4, BLGP | CBSZ, f16_pair),
        M::VMfmaF324x4x4f16 => (4, 4, 4, 16, BLGP | CBSZ, f16_pair),
        M::VMfmaF3232x32x8f16 => (32, 32, 8, 1, BLGP, f16_pair),
        M::VMfmaF3216x16x16f16 => (16, 16, 16, 1, BLGP, f16_pair),
        // f16 inputs, gfx940.
        M::VMfmaF3232x32x42bF16 => (
            32,
            32,
            4,
            2,
            BLGP | CBSZ,
            run::<F16, F16, Fused<4, false>, false>,
        ),
        M::VMfmaF3216x16x44bF16 => (
            16,
            16,
            4,
            4,
            BLGP | CBSZ,
            run::<F16, F16, Fused<4, false>, false>,
        ),
        M::VMfmaF324x4x416bF16 => (
            4,
            4,
            4,
            16,
            BLGP | CBSZ,
            run::<F16, F16, Fused<4, false>, false>,
        ),
        M::VMfmaF3232x32x8F16 => (32, 32, 8, 1, 0, run::<F16, F16, Fused<8, false>, false>),
        M::VMfmaF3216x16x16F16 => (16, 16, 16, 1, 0, run::<F16, F16, Fused<8, false>, false>),
        // bf16 inputs: the original two-per-dword instructions (gfx908/gfx90a).
        M::VMfmaF3232x32x2bf16 => (32, 32, 2, 2, BLGP | CBSZ, bf16_pair2),
        M::VMfmaF3216x16x2bf16 => (16, 16, 2, 4, BLGP | CBSZ, bf16_pair2),
        M::VMfmaF324x4x2bf16 => (4, 4, 2, 16, BLGP | CBSZ, bf16_pair2),
        M::VMfmaF3232x32x4bf16 => (32, 32, 4, 1, BLGP, bf16_pair2),
        M::VMfmaF3216x16x8bf16 => (16, 16, 8, 1, BLGP, bf16_pair2),
        // bf16 "_1k" (gfx90a; gfx940 renamed them).
        M::VMfmaF3232x32x4bf161k => (
            32,
            32,
            4,
            2,
            BLGP | CBSZ,
            run::<Bf16, Bf16, Pairwise<4, true>, false>,
        ),
        M::VMfmaF3216x16x4bf161k => (
            16,
            16,
            4,
            4,
            BLGP | CBSZ,
            run::<Bf16, Bf16, Pairwise<4, true>, false>,
        ),
        M::VMfmaF324x4x4bf161k => (
            4,
            4,
            4,
            16,
            BLGP | CBSZ,
            run::<Bf16, Bf16, Pairwise<4, true>, false>,
        ),
        M::VMfmaF3232x32x8bf161k => (
            32,
            32,
            8,
            1,
            BLGP,
            run::<Bf16, Bf16, Pairwise<4, true>, false>,
        ),
        M::VMfmaF3216x16x16bf161k => (
            16,
            16,
            16,
            1,
            BLGP,
            run::<Bf16, Bf16, Pairwise<4, true>, false>,
        ),
        M::VMfmaF3232x32x42bBf16 => (
            32,
            32,
            4,
            2,
            BLGP | CBSZ,
            run::<Bf16, Bf16, Fused<4, false>, false>,
        ),
        M::VMfmaF3216x16x44bBf16 => (
            16,
            16,
            4,
            4,
            BLGP | CBSZ,
            run::<Bf16, Bf16, Fused<4, false>, false>,
        ),
        M::VMfmaF324x4x416bBf16 => (
            4,
            4,
            4,
            16,
            BLGP | CBSZ,
            run::<Bf16, Bf16, Fused<4, false>, false>,
        ),
        M::VMfmaF3232x32x8Bf16 => (32, 32, 8, 1, 0, run::<Bf16, Bf16, Fused<8, false>, false>),
        M::VMfmaF3216x16x16Bf16 => (16, 16, 16, 1, 0, run::<Bf16, Bf16, Fused<8, false>, false>),
        // i8 inputs.
        M::VMfmaI3232x32x4i8 | M::VMfmaI3232x32x42bI8 => {
            (32, 32, 4, 2, BLGP | CBSZ, run::<I8, I8, Int, false>)
        }
        M::VMfmaI3216x16x4i8 | M::VMfmaI3216x16x44bI8 => {
            (16, 16, 4, 4, BLGP | CBSZ, run::<I8, I8, Int, false>)
        }
        M::VMfmaI324x4x4i8 | M::VMfmaI324x4x416bI8 => {
            (4, 4, 4, 16, BLGP | CBSZ, run::<I8, I8, Int, false>)
        }
        M::VMfmaI3232x32x8i8 => (32, 32, 8, 1, BLGP, run::<I8, I8, Int, false>),
        M::VMfmaI3216x16x16i8 => (16, 16, 16, 1, BLGP, run::<I8, I8, Int, false>),
        M::VMfmaI3232x32x16I8 => (32, 32, 16, 1, 0, run::<I8, I8, Int, false>),
        M::VMfmaI3216x16x32I8 => (16, 16, 32, 1, 0, run::<I8, I8, Int, false>),
        // f64 inputs.
        M::VMfmaF6416x16x4f64 => (16, 16, 4, 1, 0, run::<F64, F64, Fma64, false>),
        M::VMfmaF644x4x4f64 => (4, 4, 4, 4, 0, run::<F64, F64, Fma64, false>),
        M::VMfmaF6416x16x4F64 => (16, 16, 4, 1, NEG, run::<F64, F64, Fma64, false>),
        M::VMfmaF644x4x44bF64 => (4, 4, 4, 4, NEG, run::<F64, F64, Fma64, false>),
        // xf32 (gfx940).
        M::VMfmaF3216x16x8Xf32 => (16, 16, 8, 1, 0, run::<Xf32, Xf32, Fused<4, false>, false>),
        M::VMfmaF3232x32x4Xf32 => (32, 32, 4, 1, 0, run::<Xf32, Xf32, Fused<4, false>, false>),
        // fp8/bf8 (gfx940): the first type is A's, the second B's.
        M::VMfmaF3216x16x32Bf8Bf8 => (16, 16, 32, 1, 0, run::<Bf8, Bf8, Fused<16, true>, false>),
        M::VMfmaF3216x16x32Bf8Fp8 => (16, 16, 32, 1, 0, run::<Bf8, Fp8, Fused<16, true>, false>),
        M::VMfmaF3216x16x32Fp8Bf8 => (16, 16, 32, 1, 0, run::<Fp8, Bf8, Fused<16, true>, false>),
        M::VMfmaF3216x16x32Fp8Fp8 => (16, 16, 32, 1, 0, run::<Fp8, Fp8, Fused<16, true>, false>),
        M::VMfmaF3232x32x16Bf8Bf8 => (32, 32, 16, 1, 0, run::<Bf8, Bf8, Fused<16, true>, false>),
        M::VMfmaF3232x32x16Bf8Fp8 => (32, 32, 16, 1, 0, run::<Bf8, Fp8, Fused<16, true>, false>),
        M::VMfmaF3232x32x16Fp8Bf8 => (32, 32, 16, 1, 0, run::<Fp8, Bf8, Fused<16, true>, false>),
        M::VMfmaF3232x32x16Fp8Fp8 => (32, 32, 16, 1, 0, run::<Fp8, Fp8, Fused<16, true>, false>),
        // Structured-sparse (gfx940); K is the dense K.
        M::VSmfmacF3216x16x32F16 => (16, 16, 32, 1, CBSZ, run::<F16, F16, Fused<4, false>, true>),
        M::VSmfmacF3232x32x16F16 => (32, 32, 16, 1, CBSZ, run::<F16, F16, Fused<4, false>, true>),
        M::VSmfmacF3216x16x32Bf16 => (
            16,
            16,
            32,
            1,
            CBSZ,
            run::<Bf16, Bf16, Fused<4, false>, true>,
        ),
        M::VSmfmacF3232x32x16Bf16 => (
            32,
            32,
            16,
            1,
            CBSZ,
            run::<Bf16, Bf16, Fused<4, false>, true>,
        ),
        M::VSmfmacI3216x16x64I8 => (16, 16, 64, 1, CBSZ, run::<I8, I8, Int, true>),
        M::VSmfmacI3232x32x32I8 => (32, 32, 32, 1, CBSZ, run::<I8, I8, Int, true>),
        M::VSmfmacF3216x16x64Bf8Bf8 => (16, 16, 64, 1, CBSZ, run::<Bf8, Bf8, Fused<8, true>, true>),
        M::VSmfmacF3216x16x64Bf8Fp8 => (16, 16, 64, 1, CBSZ, run::<Bf8, Fp8, Fused<8, true>, true>),
        M::VSmfmacF3216x16x64Fp8Bf8 => (16, 16, 64, 1, CBSZ, run::<Fp8, Bf8, Fused<8, true>, true>),
        M::VSmfmacF3216x16x64Fp8Fp8 => (16, 16, 64, 1, CBSZ, run::<Fp8, Fp8, Fused<8, true>, true>),
        M::VSmfmacF3232x32x32Bf8Bf8 => (32, 32, 32, 1, CBSZ, run::<Bf8, Bf8, Fused<8, true>, true>),
        M::VSmfmacF3232x32x32Bf8Fp8 => (32, 32, 32, 1, CBSZ, run::<Bf8, Fp8, Fused<8, true>, true>),
        M::VSmfmacF3232x32x32Fp8Bf8 => (32, 32, 32, 1, CBSZ, run::<Fp8, Bf8, Fused<8, true>, true>),
        M::VSmfmacF3232x32x32Fp8Fp8 => (32, 32, 32, 1, CBSZ, run::<Fp8, Fp8, Fused<8, true>, true>),
        _ => return None,
    };
    let sparse = inst.mnemonic().starts_with("v_smfmac");
    let f64_c = matches!(
        inst.def().op,
        M::VMfmaF6416x16x4f64 | M::VMfmaF644x4x4f64 | M::VMfmaF6416x16x4F64 | M::VMfmaF644x4x44bF64
    );
    let field = |f| inst.field(f);
    // Register files: the decoder resolved every register operand as a VGPR.
    let to_acc = |s: Src| match s {
        Src::Vreg(r) => Src::Vreg(ACC_BASE + r % ACC_BASE),
        s => s,
    };
    let acc_cd = gen == Gen::Gfx908 || field(Field::AccCd) != 0;
    for i in 0..2 {
        if field(Field::Acc) >> i & 1 != 0 {
            op.src[i] = to_acc(op.src[i]);
        }
    }
    if acc_cd {
        op.vdst = ACC_BASE + op.vdst % ACC_BASE;
    }
    if sparse {
        op.src[2] = resolve_src(gen, field(Field::Src2), None, DataType::B32);
    } else {
        if f64_c {
            op.src[2] = resolve_src(gen, field(Field::Src2), None, DataType::F64);
        }
        if acc_cd {
            op.src[2] = to_acc(op.src[2]);
        }
    }
    op.imm = (m | n << 8 | k << 16 | blocks << 24) as i64 | (flags as i64) << 32;
    op.imm2 = (field(Field::Cbsz) | field(Field::Abid) << 4 | field(Field::Blgp) << 8) as i64;
    Some(exec)
}

/// The per-instruction constants `select` stored in `op.imm`/`op.imm2`, unpacked.
struct Shape {
    m: usize,
    n: usize,
    k: usize,
    blocks: usize,
    /// BLGP lane pattern for B (0 when the instruction has none).
    blgp: usize,
    /// CBSZ and ABID (0 when the instruction has none).
    cbsz: usize,
    abid: usize,
    /// Sign masks applied to A, B and C elements (gfx940 f64 negation).
    neg: [u64; 3],
}

impl Shape {
    fn of(op: &Op) -> Shape {
        let imm = op.imm as u64;
        let flags = (imm >> 32) as u32;
        let m2 = op.imm2 as usize;
        let neg_bits = if flags & NEG != 0 { m2 >> 8 & 7 } else { 0 };
        Shape {
            m: (imm & 0xff) as usize,
            n: (imm >> 8 & 0xff) as usize,
            k: (imm >> 16 & 0xff) as usize,
            blocks: (imm >> 24 & 0xff) as usize,
            blgp: if flags & BLGP != 0 { m2 >> 8 & 7 } else { 0 },
            cbsz: if flags & CBSZ != 0 { m2 & 7 } else { 0 },
            abid: if flags & CBSZ != 0 { m2 >> 4 & 15 } else { 0 },
            neg: std::array::from_fn(|i| if neg_bits >> i & 1 != 0 { 1 << 63 } else { 0 }),
        }
    }
}

/// Registers per lane that `rows`×`k` elements of `bits` bits in `blocks` blocks take.
fn regs_for(rows: usize, k: usize, blocks: usize, bits: u32) -> usize {
    (rows * k * blocks / LANES * bits as usize).div_ceil(32)
}

/// (lane, element) of input element (row r, column kk) of block b.
#[inline(always)]
fn in_pos(rows: usize, k: usize, blocks: usize, r: usize, kk: usize, b: usize) -> (usize, usize) {
    let groups = LANES / (rows * blocks);
    let per_lane = k / groups;
    (
        b * rows + (kk / per_lane) * rows * blocks + r,
        kk % per_lane,
    )
}

/// (register, lane) of output element (i, j) of block b; for f64 the register counts pairs.
#[inline(always)]
fn out_pos(m: usize, n: usize, wide: bool, i: usize, j: usize, b: usize) -> (usize, usize) {
    let per_reg = LANES / n;
    let height = if wide { 1 } else { 4 };
    let blocks_per_reg = LANES.div_ceil(n * m / height).max(1);
    let reg = b * (m * n / LANES) + (i / (height * per_reg)) * height + i % height;
    let lane = (b % blocks_per_reg) * n + ((i / height) % per_reg) * blocks_per_reg * n + j;
    (reg, lane)
}

/// The lane B is read from under BLGP pattern `p`.
#[inline(always)]
fn blgp_lane(lane: usize, p: usize) -> usize {
    match p {
        1 => lane % 32,
        2 => lane % 32 + 32,
        3 => (lane + 16) % 64,
        4..=7 => lane % 16 + 16 * (p - 4),
        _ => lane,
    }
}

/// Element `x` of `lane` in loaded registers, for elements of `bits` bits.
#[inline(always)]
fn element(regs: &[Lanes], lane: usize, x: usize, bits: u32) -> u64 {
    match bits {
        64 => regs[2 * x][lane] as u64 | (regs[2 * x + 1][lane] as u64) << 32,
        32 => regs[x][lane] as u64,
        16 => (regs[x / 2][lane] >> (16 * (x % 2))) as u64 & 0xffff,
        _ => (regs[x / 4][lane] >> (8 * (x % 4))) as u64 & 0xff,
    }
}

/// Loads `count` registers of an operand: VGPRs/AccVGPRs, or a scalar or constant given to
/// every element (`wide`: the value is 64-bit and fills register pairs).
fn load(w: &Wave, env: &Env<'_>, src: Src, count: usize, wide: bool, out: &mut [Lanes]) {
    match src {
        Src::Vreg(r) => {
            for (i, o) in out.iter_mut().enumerate().take(count) {
                *o = w.v[r as usize + i];
            }
        }
        s => {
            let v = if wide {
                scalar64(w, env, s)
            } else {
                scalar32(w, env, s) as u64
            };
            for (i, o) in out.iter_mut().enumerate().take(count) {
                let d = if wide {
                    (v >> (32 * (i % 2))) as u32
                } else {
                    v as u32
                };
                *o = [d; LANES];
            }
        }
    }
}

/// The matrix operation: gather A and B into matrices, compute every output element with
/// `K`, scatter into the destination registers under EXEC.
fn run<A: Elem, B: Elem, K: Kernel, const SPARSE: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let s = Shape::of(op);
    let (m, n, k, nb) = (s.m, s.n, s.k, s.blocks);
    // A's stored columns: half the dense K when compressed.
    let ka = if SPARSE { k / 2 } else { k };
    let wide = K::OUT64;
    let out_regs = m * n * nb / LANES * if wide { 2 } else { 1 };
    let mut ra = [[0u32; LANES]; 4];
    let mut rb = [[0u32; LANES]; 4];
    let mut rc = [[0u32; LANES]; 32];
    load(
        w,
        env,
        op.src[0],
        regs_for(m, ka, nb, A::BITS),
        A::BITS == 64,
        &mut ra,
    );
    load(
        w,
        env,
        op.src[1],
        regs_for(n, k, nb, B::BITS),
        B::BITS == 64,
        &mut rb,
    );
    let c_src = if SPARSE {
        Src::Vreg(op.vdst)
    } else {
        op.src[2]
    };
    load(w, env, c_src, out_regs, wide, &mut rc);
    let index = if SPARSE {
        raw32(w, env, op.src[2])
    } else {
        [0; LANES]
    };
    // With CBSZ = 0, ABID picks the compression index set: 8 bits per set for 16-bit
    // elements (4 stored per lane), 16 bits for 8-bit elements (8 per lane).
    let per_lane_a = ka * m * nb / LANES;
    let set_shift = if s.cbsz == 0 {
        2 * per_lane_a * (s.abid % (16 / per_lane_a))
    } else {
        0
    };

    let mut am = [0u64; 1024];
    let mut a_col = [0u8; 1024];
    let mut bm = [0u64; 1024];
    for b in 0..nb {
        let from = if SPARSE || s.cbsz == 0 {
            b
        } else {
            let size = 1 << s.cbsz;
            ((b / size) * size + s.abid % size) % nb
        };
        for i in 0..m {
            for kk in 0..ka {
                let (lane, x) = in_pos(m, ka, nb, i, kk, from);
                let at = (b * m + i) * ka + kk;
                am[at] = element(&ra, lane, x, A::BITS) ^ s.neg[0];
                a_col[at] = if SPARSE {
                    (4 * (kk / 2) + ((index[lane] >> (set_shift + 2 * x)) & 3) as usize) as u8
                } else {
                    kk as u8
                };
            }
        }
        for kk in 0..k {
            for j in 0..n {
                let (lane, x) = in_pos(n, k, nb, j, kk, b);
                bm[(b * k + kk) * n + j] =
                    element(&rb, blgp_lane(lane, s.blgp), x, B::BITS) ^ s.neg[1];
            }
        }
    }

    let mut rd = [[0u32; LANES]; 32];
    let mut va = [0u64; 64];
    let mut vb = [0u64; 64];
    for b in 0..nb {
        for i in 0..m {
            let row = (b * m + i) * ka;
            for j in 0..n {
                for kk in 0..ka {
                    va[kk] = am[row + kk];
                    vb[kk] = bm[(b * k + a_col[row + kk] as usize) * n + j];
                }
                let (reg, lane) = out_pos(m, n, wide, i, j, b);
                let c = if wide {
                    rc[2 * reg][lane] as u64 | (rc[2 * reg + 1][lane] as u64) << 32
                } else {
                    rc[reg][lane] as u64
                } ^ s.neg[2];
                let d = K::dot::<A, B>(&va[..ka], &vb[..ka], c);
                if wide {
                    rd[2 * reg][lane] = d as u32;
                    rd[2 * reg + 1][lane] = (d >> 32) as u32;
                } else {
                    rd[reg][lane] = d as u32;
                }
            }
        }
    }

    let exec = w.exec();
    let base = op.vdst as usize;
    for (r, res) in rd.iter().enumerate().take(out_regs) {
        for (l, (d, x)) in w.v[base + r].iter_mut().zip(res).enumerate() {
            if exec >> l & 1 != 0 {
                *d = *x;
            }
        }
    }
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------------
// Element types.
// ---------------------------------------------------------------------------------------------

/// A value split as MMA-Sim does: `sig` holds the significand with 23 fraction bits (below 1
/// for denormals, 0 for zero), `exp` the exponent (the minimum normal exponent for denormals,
/// -126 for zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    neg: bool,
    sig: u64,
    exp: i32,
    class: Class,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Finite,
    Inf,
    Nan,
}

/// Splits an IEEE-style value with `frac` fraction and `ebits` exponent bits (bias `bias`),
/// with or without infinities and NaNs in the top exponent.
#[inline(always)]
fn ieee_parts(x: u64, frac: u32, ebits: u32, bias: i32) -> Parts {
    let neg = x >> (frac + ebits) & 1 != 0;
    let e = (x >> frac) & ((1 << ebits) - 1);
    let m = x & ((1 << frac) - 1);
    let class = if e == (1 << ebits) - 1 {
        if m == 0 {
            Class::Inf
        } else {
            Class::Nan
        }
    } else {
        Class::Finite
    };
    let (sig, exp) = if e == 0 {
        (m, 1 - bias)
    } else {
        (m | 1 << frac, e as i32 - bias)
    };
    let exp = if sig == 0 { -126 } else { exp };
    Parts {
        neg,
        sig: sig << (23 - frac),
        exp,
        class,
    }
}

/// gfx940's FNUZ 8-bit floats: 0x80 is NaN, no infinities, no negative zero.
#[inline(always)]
fn fnuz_parts(x: u64, frac: u32, bias: i32) -> Parts {
    if x == 0x80 {
        return Parts {
            neg: true,
            sig: 0,
            exp: -126,
            class: Class::Nan,
        };
    }
    let ebits = 7 - frac;
    let e = (x >> frac) & ((1 << ebits) - 1);
    let m = x & ((1 << frac) - 1);
    let (sig, exp) = if e == 0 {
        (m, 1 - bias)
    } else {
        (m | 1 << frac, e as i32 - bias)
    };
    let exp = if sig == 0 { -126 } else { exp };
    Parts {
        neg: x & 0x80 != 0,
        sig: sig << (23 - frac),
        exp,
        class: Class::Finite,
    }
}

/// An input element type.
trait Elem {
    /// Bits per element in the registers.
    const BITS: u32;
    /// Smallest normal exponent (gfx90a flushes values below 2^MIN_EXP).
    const MIN_EXP: i32;
    /// The exact value.
    fn value(x: u64) -> f64;
    /// The MMA-Sim split.
    fn parts(x: u64) -> Parts;
    /// The integer value (i8).
    fn int(x: u64) -> i64 {
        x as i64
    }
}

struct F32;
struct F64;
struct F16;
struct Bf16;
struct Xf32;
struct Fp8;
struct Bf8;
struct I8;

impl Elem for F32 {
    const BITS: u32 = 32;
    const MIN_EXP: i32 = -126;
    fn value(x: u64) -> f64 {
        f32::from_bits(x as u32) as f64
    }
    fn parts(x: u64) -> Parts {
        ieee_parts(x, 23, 8, 127)
    }
}

impl Elem for F64 {
    const BITS: u32 = 64;
    const MIN_EXP: i32 = -1022;
    fn value(x: u64) -> f64 {
        f64::from_bits(x)
    }
    fn parts(x: u64) -> Parts {
        // Only used by the fused kernel, which f64 never takes.
        let _ = x;
        Parts {
            neg: false,
            sig: 0,
            exp: -126,
            class: Class::Nan,
        }
    }
}

impl Elem for F16 {
    const BITS: u32 = 16;
    const MIN_EXP: i32 = -14;
    fn value(x: u64) -> f64 {
        half::f16::from_bits(x as u16).to_f64()
    }
    fn parts(x: u64) -> Parts {
        ieee_parts(x, 10, 5, 15)
    }
}

impl Elem for Bf16 {
    const BITS: u32 = 16;
    const MIN_EXP: i32 = -126;
    fn value(x: u64) -> f64 {
        f32::from_bits((x as u32) << 16) as f64
    }
    fn parts(x: u64) -> Parts {
        ieee_parts(x, 7, 8, 127)
    }
}

impl Elem for Xf32 {
    const BITS: u32 = 32;
    const MIN_EXP: i32 = -126;
    fn value(x: u64) -> f64 {
        f32::from_bits(x as u32 & 0xffff_e000) as f64
    }
    fn parts(x: u64) -> Parts {
        // The matrix core reads 1 sign, 8 exponent and 10 fraction bits (MMA-Sim
        // `truncate_to_tf32`; Tensile's XFloat32 reference conversion does the same).
        ieee_parts(x & 0xffff_e000, 23, 8, 127)
    }
}

impl Elem for Fp8 {
    const BITS: u32 = 8;
    const MIN_EXP: i32 = -7;
    fn value(x: u64) -> f64 {
        let p = Self::parts(x);
        parts_value(p)
    }
    fn parts(x: u64) -> Parts {
        fnuz_parts(x, 3, 8)
    }
}

impl Elem for Bf8 {
    const BITS: u32 = 8;
    const MIN_EXP: i32 = -15;
    fn value(x: u64) -> f64 {
        let p = Self::parts(x);
        parts_value(p)
    }
    fn parts(x: u64) -> Parts {
        fnuz_parts(x, 2, 16)
    }
}

impl Elem for I8 {
    const BITS: u32 = 8;
    const MIN_EXP: i32 = 0;
    fn value(x: u64) -> f64 {
        Self::int(x) as f64
    }
    fn parts(x: u64) -> Parts {
        let _ = x;
        Parts {
            neg: false,
            sig: 0,
            exp: -126,
            class: Class::Nan,
        }
    }
    fn int(x: u64) -> i64 {
        x as u8 as i8 as i64
    }
}

fn parts_value(p: Parts) -> f64 {
    match p.class {
        Class::Nan => f64::NAN,
        Class::Inf => {
            if p.neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        Class::Finite => {
            let v = p.sig as f64 * 2f64.powi(p.exp - 23);
            if p.neg {
                -v
            } else {
                v
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Arithmetic per output element.
// ---------------------------------------------------------------------------------------------

/// How an output element is computed from its row of A, column of B and accumulator (raw bits).
trait Kernel {
    /// The result (and C) are 64-bit.
    const OUT64: bool;
    fn dot<A: Elem, B: Elem>(a: &[u64], b: &[u64], c: u64) -> u64;
}

/// f32 inputs: one fused multiply-add per k.
struct Fma32;
impl Kernel for Fma32 {
    const OUT64: bool = false;
    fn dot<A: Elem, B: Elem>(a: &[u64], b: &[u64], c: u64) -> u64 {
        let mut acc = f32::from_bits(c as u32);
        for (x, y) in a.iter().zip(b) {
            acc = (A::value(*x) as f32).mul_add(B::value(*y) as f32, acc);
        }
        acc.to_bits() as u64
    }
}

/// f64 inputs: one fused multiply-add per k.
struct Fma64;
impl Kernel for Fma64 {
    const OUT64: bool = true;
    fn dot<A: Elem, B: Elem>(a: &[u64], b: &[u64], c: u64) -> u64 {
        let mut acc = f64::from_bits(c);
        for (x, y) in a.iter().zip(b) {
            acc = A::value(*x).mul_add(B::value(*y), acc);
        }
        acc.to_bits()
    }
}

/// i8 inputs: exact products, wrapping i32 sum.
struct Int;
impl Kernel for Int {
    const OUT64: bool = false;
    fn dot<A: Elem, B: Elem>(a: &[u64], b: &[u64], c: u64) -> u64 {
        let mut acc = c as u32 as i32;
        for (x, y) in a.iter().zip(b) {
            acc = acc.wrapping_add((A::int(*x) * B::int(*y)) as i32);
        }
        acc as u32 as u64
    }
}

/// gfx908/gfx90a f16 and bf16: groups of `G` products summed as a pairwise f32 tree, each
/// group then added to the accumulator; `FLUSH` (gfx90a) flushes denormals.
struct Pairwise<const G: usize, const FLUSH: bool>;

impl<const G: usize, const FLUSH: bool> Pairwise<G, FLUSH> {
    /// A partial sum below 2^-126 becomes a zero of its sign when flushing.
    #[inline(always)]
    fn keep(x: f32) -> f32 {
        if FLUSH && x.abs() < f32::MIN_POSITIVE {
            x * 0.0
        } else {
            x
        }
    }
    fn tree(p: &[f32]) -> f32 {
        if p.len() == 1 {
            return p[0];
        }
        let h = p.len() / 2;
        Self::keep(Self::tree(&p[..h]) + Self::tree(&p[h..]))
    }
}

impl<const G: usize, const FLUSH: bool> Kernel for Pairwise<G, FLUSH> {
    const OUT64: bool = false;
    fn dot<A: Elem, B: Elem>(a: &[u64], b: &[u64], c: u64) -> u64 {
        // Inputs below the smallest normal of their type read as +0 when flushing.
        let input = |v: f64, min_exp: i32| {
            if FLUSH && v.abs() < 2f64.powi(min_exp) {
                0.0
            } else {
                v
            }
        };
        let mut acc = input(f32::from_bits(c as u32) as f64, -126) as f32;
        for (ga, gb) in a.chunks(G).zip(b.chunks(G)) {
            let mut p = [0f32; G];
            for (t, (x, y)) in ga.iter().zip(gb).enumerate() {
                // The product of two 16-bit values is exact in f64; rounding it to f32 and
                // adding +0 is the hardware's fma(a, b, 0) (so −0 products become +0).
                let exact = input(A::value(*x), A::MIN_EXP) * input(B::value(*y), B::MIN_EXP);
                p[t] = Self::keep(exact as f32 + 0.0);
            }
            acc = Self::keep(acc + Self::tree(&p[..ga.len()]));
        }
        acc.to_bits() as u64
    }
}

/// gfx940 f16/bf16/xf32/fp8: fused groups of `G` products (`FP8`: even and odd k summed apart).
struct Fused<const G: usize, const FP8: bool>;

/// Σ of products aligned to the largest exponent and truncated to 24 fraction bits: the sum in
/// units of 2^-24 at that exponent, and the exponent.
fn fused_sum(p: &[(bool, u64, i32)]) -> (i64, i32) {
    let Some(emax) = p.iter().map(|x| x.2).max() else {
        return (0, -1000);
    };
    let mut s = 0i64;
    for &(neg, sig, e) in p {
        // sig has 46 fraction bits.
        let shift = 22 + (emax - e) as u32;
        let v = if shift >= 64 {
            0
        } else {
            (sig >> shift) as i64
        };
        s += if neg { -v } else { v };
    }
    (s, emax)
}

/// floor(x · 2^sh) for an integer x and a shift that may be negative.
#[inline(always)]
fn scale_floor(x: i64, sh: i32) -> i64 {
    if sh >= 0 {
        x << sh
    } else {
        x >> (-sh).min(63)
    }
}

impl<const G: usize, const FP8: bool> Fused<G, FP8> {
    fn group<A: Elem, B: Elem>(a: &[u64], b: &[u64], c: u32) -> u32 {
        let pc = F32::parts(c as u64);
        // Special values first, as the exact (f64) sum would give them.
        let (mut pos, mut neg, mut nan) = (false, false, pc.class == Class::Nan);
        match pc.class {
            Class::Inf if pc.neg => neg = true,
            Class::Inf => pos = true,
            _ => {}
        }
        let mut prods = [(false, 0u64, 0i32); 16];
        let (mut big_pos, mut big_neg) = (false, false);
        for (t, (x, y)) in a.iter().zip(b).enumerate() {
            let (pa, pb) = (A::parts(*x), B::parts(*y));
            let sign = pa.neg != pb.neg;
            match (pa.class, pb.class) {
                (Class::Nan, _) | (_, Class::Nan) => nan = true,
                (Class::Inf, _) | (_, Class::Inf) => {
                    if (pa.class == Class::Finite && pa.sig == 0)
                        || (pb.class == Class::Finite && pb.sig == 0)
                    {
                        nan = true;
                    } else if sign {
                        neg = true;
                    } else {
                        pos = true;
                    }
                }
                _ => {
                    let (sig, e) = (pa.sig * pb.sig, pa.exp + pb.exp);
                    // Products at or above 2^128 count as infinities.
                    if e >= 128 || (e == 127 && sig >= 2 << 46) {
                        if sign {
                            big_neg = true;
                        } else {
                            big_pos = true;
                        }
                    }
                    prods[t] = (sign, sig, e);
                }
            }
        }
        if nan || (pos && neg) {
            return 0x7fc0_0000;
        }
        if pos || neg {
            return if pos { 0x7f80_0000 } else { 0xff80_0000 };
        }
        if big_pos || big_neg {
            return match (big_pos, big_neg) {
                (true, true) => 0x7fc0_0000,
                (true, false) => 0x7f80_0000,
                _ => 0xff80_0000,
            };
        }
        let prods = &prods[..a.len()];
        let (s, e) = if FP8 {
            let mut even = [(false, 0u64, 0i32); 8];
            let mut odd = [(false, 0u64, 0i32); 8];
            for (t, p) in prods.iter().enumerate() {
                if t % 2 == 0 {
                    even[t / 2] = *p;
                } else {
                    odd[t / 2] = *p;
                }
            }
            let (s0, e0) = fused_sum(&even[..prods.len().div_ceil(2)]);
            let (s1, e1) = fused_sum(&odd[..prods.len() / 2]);
            let e = e0.max(e1);
            (scale_floor(s0, e0 - e) + scale_floor(s1, e1 - e), e)
        } else {
            fused_sum(prods)
        };
        let e2 = e.max(pc.exp);
        // The products in units of 2^-31, the accumulator in units of 2^-24, both at 2^e2.
        let sp = scale_floor(s, 7 - (e2 - e));
        let sc_signed = if pc.neg {
            -(pc.sig as i64)
        } else {
            pc.sig as i64
        };
        let sc = if FP8 && pc.exp < e2 - 25 {
            0
        } else {
            scale_floor(sc_signed, 1 - (e2 - pc.exp))
        };
        let total = sp + (sc << 7);
        let mut sum = ExactSum::new();
        sum.add(total < 0, total.unsigned_abs() as u128, e2 - 31);
        sum.round(
            SINGLE,
            Rounding {
                rm: RNE,
                flush_out: false,
                saturate: false,
            },
        )
        .0 as u32
    }
}

impl<const G: usize, const FP8: bool> Kernel for Fused<G, FP8> {
    const OUT64: bool = false;
    fn dot<A: Elem, B: Elem>(a: &[u64], b: &[u64], c: u64) -> u64 {
        let mut acc = c as u32;
        for (ga, gb) in a.chunks(G).zip(b.chunks(G)) {
            acc = Self::group::<A, B>(ga, gb, acc);
        }
        acc as u64
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{run, splat};
    use crate::wave::{Wave, ACC_BASE};

    const A: usize = ACC_BASE as usize;

    fn f(x: f32) -> u32 {
        x.to_bits()
    }
    fn h(x: f32) -> u32 {
        half::f16::from_f32(x).to_bits() as u32
    }
    fn bf(x: f32) -> u32 {
        x.to_bits() >> 16
    }
    /// Sets 16-bit element `x` of `lane` in the operand starting at VGPR `base`.
    fn set16(w: &mut Wave, base: usize, lane: usize, x: usize, v: u32) {
        let r = &mut w.v[base + x / 2][lane];
        let sh = 16 * (x % 2);
        *r = (*r & !(0xffff << sh)) | v << sh;
    }
    /// Sets byte `x` of `lane` in the operand starting at VGPR `base`.
    fn set8(w: &mut Wave, base: usize, lane: usize, x: usize, v: u32) {
        let r = &mut w.v[base + x / 4][lane];
        let sh = 8 * (x % 4);
        *r = (*r & !(0xff << sh)) | (v & 0xff) << sh;
    }

    #[test]
    fn outer_product_32x32x1_places_blocks_rows_and_columns() {
        // Two 32x32 blocks: A[i] of block b in lane 32b+i, B[j] in lane 32b+j; D[i][j] of
        // block b in register 16b + (i/8)*4 + i%4, lane ((i/4)%2)*32 + j (calculator layout).
        let setup = |w: &mut Wave| {
            for l in 0..64 {
                w.v[0][l] = f(l as f32 + 1.0);
                w.v[1][l] = f(100.0 + l as f32);
            }
            w.v[A + 21][37] = f(0.5);
        };
        let r = run(
            "gfx908",
            "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31]",
            |w, _| setup(w),
        )
        .unwrap();
        let d = |reg: usize, lane: usize| f32::from_bits(r.wave.v[A + reg][lane]);
        assert_eq!(d(0, 0), 100.0); // block 0, i 0, j 0: 1 * 100
        assert_eq!(d(15, 63), 4192.0); // block 0, i 31, j 31: 32 * 131
        assert_eq!(d(16, 32), 4884.0); // block 1, i 4, j 0: 37 * 132
        assert_eq!(d(21, 37), 6302.5); // block 1, i 13, j 5: 46 * 137 + C 0.5
                                       // cbsz:1 abid:1: both blocks take A from block 1 (block 0, i 0 reads lane 32 = 33).
        let r = run(
            "gfx908",
            "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] cbsz:1 abid:1",
            |w, _| setup(w),
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[A][0]), 3300.0);
        assert_eq!(f32::from_bits(r.wave.v[A + 16][32]), 4884.0);
        // blgp:1: B is read from lane % 32, so block 1, j 5 reads lane 5 (105).
        let r = run(
            "gfx908",
            "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] blgp:1",
            |w, _| setup(w),
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[A + 21][37]), 46.0 * 105.0 + 0.5);
    }

    /// A[i][k] = 1 when i % 4 == k (lane 16k + i), B[k][j] = 10k + j + 1 (lane 16k + j), so
    /// D[i][j] = 10 * (i % 4) + j + 1.
    fn rows_pick_b(w: &mut Wave, a: usize, b: usize) {
        for l in 0..64 {
            let (k, r) = (l / 16, l % 16);
            w.v[a][l] = f(if r % 4 == k { 1.0 } else { 0.0 });
            w.v[b][l] = f((10 * k + r + 1) as f32);
        }
    }

    #[test]
    fn single_block_16x16x4_and_register_files() {
        // D[i][j] is register i % 4, lane 16 * (i / 4) + j.
        let r = run(
            "gfx90a",
            "v_mfma_f32_16x16x4f32 v[0:3], v4, v5, v[0:3]",
            |w, _| rows_pick_b(w, 4, 5),
        )
        .unwrap();
        let d = |reg: usize, lane: usize| f32::from_bits(r.wave.v[reg][lane]);
        assert_eq!(d(0, 0), 1.0); // i 0, j 0
        assert_eq!(d(2, 19), 24.0); // i 6, j 3
        assert_eq!(d(3, 63), 46.0); // i 15, j 15
                                    // A from an AccVGPR (acc bit), D in AccVGPRs (acc_cd), C an inline constant.
        let r = run(
            "gfx90a",
            "v_mfma_f32_16x16x4f32 a[0:3], a4, v5, 0.5",
            |w, _| {
                rows_pick_b(w, A + 4, 5);
                w.v[0] = splat(7);
            },
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[A + 2][19]), 24.5);
        assert_eq!(r.wave.v[0][0], 7, "VGPRs are not written with acc_cd");
    }

    #[test]
    fn blgp_broadcasts_lanes_of_b() {
        // blgp:4 reads B from lane % 16: B[k][j] = j for every k, so D[i][j] = 4j.
        let r = run(
            "gfx940",
            "v_mfma_f32_16x16x4_f32 v[4:7], v0, v1, 0 blgp:4",
            |w, _| {
                w.v[0] = splat(f(1.0));
                for l in 0..64 {
                    w.v[1][l] = f(l as f32);
                }
            },
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[5][23]), 28.0); // i 5, j 7
                                                           // blgp:6 reads lane % 16 + 32 (B = 32 + j): 4 (32 + 7); blgp:3 rotates by 16 lanes
                                                           // (B[k][j] = 16 ((k + 1) % 4) + j): 16 (1 + 2 + 3 + 0) + 4j.
        let r = run(
            "gfx940",
            "v_mfma_f32_16x16x4_f32 v[4:7], v0, v1, 0 blgp:6\n\
             v_mfma_f32_16x16x4_f32 v[8:11], v0, v1, 0 blgp:3",
            |w, _| {
                w.v[0] = splat(f(1.0));
                for l in 0..64 {
                    w.v[1][l] = f(l as f32);
                }
            },
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[5][23]), 156.0);
        assert_eq!(f32::from_bits(r.wave.v[9][23]), 124.0);
    }

    #[test]
    fn cbsz_abid_broadcast_an_a_block_to_its_group() {
        // 16x16x1, 4 blocks: A[i] of block b in lane 16b + i; D[i][j] of block b in register
        // 4b + i % 4, lane 16 * (i / 4) + j. cbsz:2 abid:1: every block reads A block 1.
        let setup = |w: &mut Wave| {
            for l in 0..64 {
                w.v[0][l] = f(l as f32 + 1.0);
            }
            w.v[1] = splat(f(1.0));
        };
        let r = run(
            "gfx908",
            "v_mfma_f32_16x16x1f32 a[0:15], v0, v1, a[0:15] cbsz:2 abid:1",
            |w, _| setup(w),
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[A + 13][18]), 22.0); // block 3, i 5: lane 21
        assert_eq!(f32::from_bits(r.wave.v[A][0]), 17.0); // block 0, i 0: lane 16
        let r = run(
            "gfx908",
            "v_mfma_f32_16x16x1f32 a[0:15], v0, v1, a[0:15]",
            |w, _| setup(w),
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[A + 13][18]), 54.0); // block 3, i 5: lane 53
    }

    #[test]
    fn sixteen_4x4_blocks_share_each_register() {
        // 4x4x1, 16 blocks: D[i][j] of block b is register i, lane 4b + j.
        let r = run("gfx90a", "v_mfma_f32_4x4x1f32 v[2:5], v0, v1, 0", |w, _| {
            for l in 0..64 {
                w.v[0][l] = f(l as f32 + 1.0);
            }
            w.v[1] = splat(f(2.0));
        })
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[4][31]), 62.0); // block 7, i 2, j 3: 2 * 31
    }

    /// 32x32x8 f16: A[i][k] element k % 4 of lane i + 32 (k / 4), A = 1 where k == i % 8;
    /// B[k][j] = 32k + j. So D[i][j] = 32 * (i % 8) + j.
    fn f16_32x32x8_inputs(w: &mut Wave) {
        for l in 0..64 {
            let (r, g) = (l % 32, l / 32);
            for x in 0..4 {
                let k = 4 * g + x;
                set16(w, 0, l, x, h(if k == r % 8 { 1.0 } else { 0.0 }));
                set16(w, 2, l, x, h((32 * k + r) as f32));
            }
        }
    }

    #[test]
    fn f16_32x32x8_layout_on_every_generation() {
        for (mcpu, src, base) in [
            (
                "gfx908",
                "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]",
                A,
            ),
            (
                "gfx90a",
                "v_mfma_f32_32x32x8f16 v[4:19], v[0:1], v[2:3], 0",
                4,
            ),
            (
                "gfx940",
                "v_mfma_f32_32x32x8_f16 v[4:19], v[0:1], v[2:3], 0",
                4,
            ),
        ] {
            let r = run(mcpu, src, |w, _| f16_32x32x8_inputs(w)).unwrap();
            let d = |reg: usize, lane: usize| f32::from_bits(r.wave.v[base + reg][lane]);
            assert_eq!(d(5, 39), 167.0, "{mcpu}: i 13, j 7");
            assert_eq!(d(15, 63), 255.0, "{mcpu}: i 31, j 31");
            assert_eq!(d(0, 1), 1.0, "{mcpu}: i 0, j 1");
        }
    }

    #[test]
    fn f16_accumulation_differs_per_generation_as_modelled() {
        // Products 1+2^-10, -1, 2^-30 (2^-15 * 2^-15, an f16 denormal pair), 0.
        // gfx908: pairwise f32 sums keep 2^-30: 2^-10 + 2^-30 = 0x3a800008.
        // gfx90a: the denormal inputs are flushed: 2^-10.
        // gfx940: 2^-30 is truncated when aligned to the largest product (exponent 0): 2^-10.
        let setup = |w: &mut Wave| {
            w.v[0] = splat(0xbc00_3c01);
            w.v[1] = splat(0x0000_0200);
            w.v[2] = splat(0x3c00_3c00);
            w.v[3] = splat(0x0000_0200);
        };
        for (mcpu, src, base, want) in [
            (
                "gfx908",
                "v_mfma_f32_4x4x4f16 a[0:3], v[0:1], v[2:3], a[0:3]",
                A,
                0x3a80_0008,
            ),
            (
                "gfx90a",
                "v_mfma_f32_4x4x4f16 v[4:7], v[0:1], v[2:3], 0",
                4,
                0x3a80_0000,
            ),
            (
                "gfx940",
                "v_mfma_f32_4x4x4_16b_f16 v[4:7], v[0:1], v[2:3], 0",
                4,
                0x3a80_0000,
            ),
        ] {
            let r = run(mcpu, src, |w, _| setup(w)).unwrap();
            for reg in 0..4 {
                assert_eq!(
                    r.wave.v[base + reg][reg * 16 + 5],
                    want,
                    "{mcpu} register {reg}"
                );
            }
        }
    }

    #[test]
    fn gfx940_fused_sum_truncates_products_below_24_fraction_bits() {
        // Products 1, 2^-24, 2^-25, 0: the exact sum 1 + 1.5 * 2^-24 would round to 1 + 2^-23,
        // but 2^-25 is truncated at 24 fraction bits of the largest product, and 1 + 2^-24 is a
        // tie that rounds to even: 1.0.
        let r = run(
            "gfx940",
            "v_mfma_f32_4x4x4_16b_f16 v[4:7], v[0:1], v[2:3], 0",
            |w, _| {
                w.v[0] = splat(0x0c00_3c00); // (1, 2^-12)
                w.v[1] = splat(0x0000_0c00); // (2^-12, 0)
                w.v[2] = splat(0x0c00_3c00); // (1, 2^-12)
                w.v[3] = splat(0x0000_0800); // (2^-13, 0)
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[4][0], 0x3f80_0000);
    }

    #[test]
    fn bf16_layouts() {
        // 4x4x2bf16 (gfx908): two bf16 per lane, A[i][k] of block b element k of lane 4b + i.
        // A = (4b + i + 1, 1), B = (j + 1, 0): D = (4b + i + 1) (j + 1), register i, lane 4b + j.
        let r = run(
            "gfx908",
            "v_mfma_f32_4x4x2bf16 a[0:3], v0, v1, a[0:3]",
            |w, _| {
                for l in 0..64 {
                    w.v[0][l] = bf(l as f32 + 1.0) | bf(1.0) << 16;
                    w.v[1][l] = bf((l % 4) as f32 + 1.0);
                }
            },
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[A + 3][21]), 48.0); // block 5, i 3, j 1: 24 * 2
                                                               // The four-per-lane forms: A = (4b+i+1, 0, 0, 2), B = (j+1, 0, 0, 3): D gains 6.
        for (mcpu, src) in [
            (
                "gfx90a",
                "v_mfma_f32_4x4x4bf16_1k v[4:7], v[0:1], v[2:3], 0",
            ),
            (
                "gfx940",
                "v_mfma_f32_4x4x4_16b_bf16 v[4:7], v[0:1], v[2:3], 0",
            ),
        ] {
            let r = run(mcpu, src, |w, _| {
                for l in 0..64 {
                    w.v[0][l] = bf(l as f32 + 1.0);
                    w.v[1][l] = bf(2.0) << 16;
                    w.v[2][l] = bf((l % 4) as f32 + 1.0);
                    w.v[3][l] = bf(3.0) << 16;
                }
            })
            .unwrap();
            assert_eq!(f32::from_bits(r.wave.v[7][21]), 54.0, "{mcpu}");
        }
    }

    #[test]
    fn i8_products_wrap_in_i32() {
        // 16 products of 127 * -128 = -260096 added to i32::MIN + 100000 wrap around.
        let r = run(
            "gfx908",
            "v_mfma_i32_16x16x16i8 a[0:3], v0, v1, a[0:3]",
            |w, _| {
                w.v[0] = splat(0x7f7f_7f7f);
                w.v[1] = splat(0x8080_8080);
                for reg in 0..4 {
                    w.v[A + reg] = splat((i32::MIN + 100_000) as u32);
                }
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[A + 2][40], 0x7ffd_8ea0);
        // 16x16x32 (gfx940): eight i8 per lane, A[i][k] byte k % 8 of lane i + 16 (k / 8).
        // A[i][k] = 1 where k == 2i, B[k][j] = 3k + j % 3: D[i][j] = 6i + j % 3.
        let r = run(
            "gfx940",
            "v_mfma_i32_16x16x32_i8 v[4:7], v[0:1], v[2:3], 0",
            |w, _| {
                for l in 0..64 {
                    let (r, g) = (l % 16, l / 16);
                    for x in 0..8 {
                        let k = 8 * g + x;
                        set8(w, 0, l, x, (k == 2 * r) as u32);
                        set8(w, 2, l, x, (3 * k + r % 3) as u32);
                    }
                }
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[5][39], 55); // i 9, j 7
        assert_eq!(r.wave.v[7][62], 92); // i 15, j 14
    }

    #[test]
    fn f64_16x16x4_uses_one_row_slabs() {
        // D[i][j] is register pair i / 4, lane 16 (i % 4) + j (calculator's 64-bit layout).
        let setup = |w: &mut Wave| {
            for l in 0..64 {
                let (k, r) = (l / 16, l % 16);
                let a = if r % 4 == k { 1.0f64 } else { 0.0 };
                let b = (10 * k + r + 1) as f64;
                w.v[8][l] = a.to_bits() as u32;
                w.v[9][l] = (a.to_bits() >> 32) as u32;
                w.v[10][l] = b.to_bits() as u32;
                w.v[11][l] = (b.to_bits() >> 32) as u32;
            }
        };
        let d = |w: &Wave, pair: usize, lane: usize| {
            f64::from_bits(w.v[2 * pair][lane] as u64 | (w.v[2 * pair + 1][lane] as u64) << 32)
        };
        let r = run(
            "gfx90a",
            "v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7]",
            |w, _| setup(w),
        )
        .unwrap();
        assert_eq!(d(&r.wave, 1, 35), 24.0); // i 6, j 3
        assert_eq!(d(&r.wave, 3, 31), 26.0); // i 13, j 15
                                             // An inline constant C is the f64 value.
        let r = run(
            "gfx90a",
            "v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], 1.0",
            |w, _| setup(w),
        )
        .unwrap();
        assert_eq!(d(&r.wave, 1, 35), 25.0);
        // gfx940: neg:[1,0,1] (the BLGP bits) negates A and C.
        let r = run(
            "gfx940",
            "v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7] neg:[1,0,1]",
            |w, _| {
                setup(w);
                for reg in 0..8 {
                    w.v[reg] = splat(if reg % 2 == 1 {
                        (1.0f64.to_bits() >> 32) as u32
                    } else {
                        0
                    });
                }
            },
        )
        .unwrap();
        assert_eq!(d(&r.wave, 1, 35), -25.0);
    }

    #[test]
    fn f64_4x4x4_four_blocks() {
        // A[i][k] of block b in lane 4b + 16k + i; D[i][j] of block b in lane 4b + 16i + j.
        // A[i][0] = 10b + i + 1 (other k 0), B[0][j] = j + 1.
        let r = run(
            "gfx90a",
            "v_mfma_f64_4x4x4f64 v[0:1], v[2:3], v[4:5], 0",
            |w, _| {
                for l in 0..64 {
                    let (k, b, x) = (l / 16, (l % 16) / 4, l % 4);
                    let a = if k == 0 { (10 * b + x + 1) as f64 } else { 0.0 };
                    let bb = if k == 0 { (x + 1) as f64 } else { 0.0 };
                    w.v[2][l] = a.to_bits() as u32;
                    w.v[3][l] = (a.to_bits() >> 32) as u32;
                    w.v[4][l] = bb.to_bits() as u32;
                    w.v[5][l] = (bb.to_bits() >> 32) as u32;
                }
            },
        )
        .unwrap();
        let d = f64::from_bits(r.wave.v[0][57] as u64 | (r.wave.v[1][57] as u64) << 32);
        assert_eq!(d, 48.0); // block 2, i 3, j 1: 24 * 2
    }

    #[test]
    fn xf32_ignores_the_low_13_fraction_bits() {
        // 8 products of (1 + 2^-23) * 1: with the fraction truncated each is 1, D = 8.0
        // (keeping the bit would give 8 + 2^-20, 0x41000001).
        let r = run(
            "gfx940",
            "v_mfma_f32_16x16x8_xf32 v[4:7], v[0:1], v[2:3], 0",
            |w, _| {
                w.v[0] = splat(0x3f80_0001);
                w.v[1] = splat(0x3f80_0001);
                w.v[2] = splat(f(1.0));
                w.v[3] = splat(f(1.0));
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[6][20], 0x4100_0000);
    }

    #[test]
    fn fp8_and_bf8_are_the_fnuz_formats() {
        // fp8 0x40 = 1.0 and 0x38 = 0.5 (E4M3, bias 8); bf8 0x44 = 2.0 (E5M2, bias 16);
        // 0x80 is NaN. 32 products per output.
        let r = run(
            "gfx940",
            "v_mfma_f32_16x16x32_fp8_fp8 v[4:7], v[0:1], v[2:3], 0\n\
             v_mfma_f32_16x16x32_bf8_fp8 v[8:11], v[12:13], v[2:3], 0",
            |w, _| {
                w.v[0] = splat(0x4040_4040);
                w.v[1] = splat(0x4040_4040);
                w.v[2] = splat(0x3838_3838);
                w.v[3] = splat(0x3838_3838);
                w.v[12] = splat(0x4444_4444);
                w.v[13] = splat(0x4444_4444);
                // A[3][0] (lane 3, byte 0) is NaN: row 3 of D (register 3, lanes 0-15).
                w.v[0][3] = 0x4040_4080;
            },
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[4][0]), 16.0);
        assert_eq!(r.wave.v[7][9], 0x7fc0_0000);
        assert_eq!(f32::from_bits(r.wave.v[7][16]), 16.0); // row 7
        assert_eq!(f32::from_bits(r.wave.v[8][0]), 32.0);
    }

    /// smfmac 16x16x32 f16: every lane stores A values (1, 2, 3, 4); the index byte 0x9c puts
    /// them at dense columns 0, 3 and 5, 6 of each group of eight (element x's two bits at
    /// 2x); B[k][j] = k + 32 (j % 2).
    fn sparse_inputs(w: &mut Wave, index: u32) {
        for l in 0..64 {
            w.v[4][l] = h(2.0) << 16 | h(1.0);
            w.v[5][l] = h(4.0) << 16 | h(3.0);
            w.v[10][l] = index;
            let (j, g) = (l % 16, l / 16);
            for x in 0..8 {
                set16(w, 6, l, x, h((8 * g + x + 32 * (j % 2)) as f32));
            }
        }
    }

    #[test]
    fn smfmac_expands_a_with_the_index_set_abid_picks() {
        // Lane group g holds stored columns 4g..4g+3 = dense 8g + (0, 3) and 8g + 4 + (1, 2):
        // D = Σ_g (1·8g + 2(8g+3) + 3(8g+5) + 4(8g+6)) + 32 (j % 2) · 40 = 660 + 1280 (j % 2).
        let r = run(
            "gfx940",
            "v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10 abid:1",
            |w, _| sparse_inputs(w, 0x9c00),
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[0][0]), 660.0); // i 0, j 0
        assert_eq!(f32::from_bits(r.wave.v[1][35]), 1940.0); // i 9, j 3
                                                             // abid:0 reads the low byte, 0: both values of a pair go to the pair's first column
                                                             // (dense 8g and 8g + 4): D = Σ_g (3·8g + 7(8g+4)) + 1280 (j % 2) = 592 + 1280 (j % 2).
        let r = run(
            "gfx940",
            "v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10",
            |w, _| sparse_inputs(w, 0x9c00),
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[0][0]), 592.0);
        assert_eq!(f32::from_bits(r.wave.v[1][35]), 1872.0);
        // smfmac accumulates into its destination (and may keep it in AccVGPRs).
        let r = run(
            "gfx940",
            "v_smfmac_f32_16x16x32_f16 a[0:3], v[4:5], v[6:9], v10 abid:1",
            |w, _| {
                sparse_inputs(w, 0x9c00);
                w.v[A + 1] = splat(f(0.5));
            },
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[A + 1][35]), 1940.5);
    }

    #[test]
    fn smfmac_i8_uses_16_bit_index_sets() {
        // 16x16x64 i8: eight stored bytes per lane, all 1; B[k][j] = 2 where k % 4 == 3, else 1.
        // Index 3 everywhere selects the k % 4 == 3 rows: D = 32 * 2; index 0 gives 32.
        let setup = |w: &mut Wave| {
            w.v[0] = splat(0x0101_0101);
            w.v[1] = splat(0x0101_0101);
            for reg in 2..6 {
                w.v[reg] = splat(0x0201_0101);
            }
            w.v[6] = splat(0xffff_0000);
        };
        let r = run(
            "gfx940",
            "v_smfmac_i32_16x16x64_i8 v[8:11], v[0:1], v[2:5], v6 abid:1",
            |w, _| setup(w),
        )
        .unwrap();
        assert_eq!(r.wave.v[9][20], 64);
        let r = run(
            "gfx940",
            "v_smfmac_i32_16x16x64_i8 v[8:11], v[0:1], v[2:5], v6",
            |w, _| setup(w),
        )
        .unwrap();
        assert_eq!(r.wave.v[9][20], 32);
    }

    #[test]
    fn results_are_written_only_to_enabled_lanes() {
        let r = run(
            "gfx90a",
            "v_mfma_f32_16x16x4f32 v[0:3], v4, v5, 0",
            |w, _| {
                rows_pick_b(w, 4, 5);
                w.v[2] = splat(f(7.0));
                w.set_exec(0xf);
            },
        )
        .unwrap();
        assert_eq!(f32::from_bits(r.wave.v[2][3]), 24.0); // i 2, j 3
        assert_eq!(f32::from_bits(r.wave.v[2][19]), 7.0);
    }

    #[test]
    fn every_matrix_and_packed_row_in_the_test_vectors_is_emulated() {
        use crate::program::BuildContext;
        use gcnkit_isa::Target;
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors/");
        let mut seen = 0;
        for file in ["vop3p.txt", "vop2.txt"] {
            let text = std::fs::read_to_string(format!("{dir}{file}")).expect("test vectors");
            for line in text.lines() {
                let mut cols = line.split('\t');
                let (Some(cpu), Some(bytes), Some(asm)) = (cols.next(), cols.next(), cols.next())
                else {
                    continue;
                };
                let name = asm.split_whitespace().next().unwrap_or("");
                let ours = (name.starts_with("v_pk_") && !name.contains("mix"))
                    || name.starts_with("v_dot")
                    || name.starts_with("v_mfma")
                    || name.starts_with("v_smfmac");
                if !ours {
                    continue;
                }
                let target = Target::parse(cpu, None).expect("known processor");
                let bytes: Vec<u8> = bytes
                    .split(',')
                    .map(|b| u8::from_str_radix(b.trim_start_matches("0x"), 16).unwrap())
                    .collect();
                let inst = gcnkit_isa::decode(&target, &bytes).expect("vector decodes");
                let ctx = BuildContext { target: &target };
                assert!(crate::semantics::is_emulated(&inst, &ctx), "{line}");
                seen += 1;
            }
        }
        assert!(seen > 500, "only {seen} vectors matched");
    }
}
