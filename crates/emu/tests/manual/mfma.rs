//! Matrix-core (MFMA) instructions as whole-wave operations: D = A * B + C per block, with the
//! operand and result layouts (which lane and register holds which matrix element) of AMD's
//! matrix instruction calculator (ROCm/amd_matrix_instruction_calculator, `--detail-instruction`
//! "Register to matrix element mapping"), which also documents the CBSZ/ABID and BLGP
//! modifiers; the CDNA1-3 ISA guides (chapter "Matrix Arithmetic Instructions") define the
//! operation itself, D = A x B + C on each block.
//!
//! A lane's operand is a list of `items`: the matrix elements it supplies, in register order
//! and, inside a register, from the low bits up (two halves per register for f16, four bytes
//! for i8 and fp8, a pair of registers for one f64). Accumulators are one value per register
//! (per register pair for f64).

/// The instructions the kernels use (names as in gfx908/gfx90a; gfx942 spells some with an
/// extra underscore or block count, e.g. v_mfma_f32_32x32x1_2b_f32, with the same layouts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// v_mfma_f32_32x32x2f32: one 32x32 block, K = 2.
    F32x32x32x2,
    /// v_mfma_f32_32x32x1f32: two 32x32 blocks, K = 1.
    F32x32x32x1,
    /// v_mfma_f32_16x16x1f32: four 16x16 blocks, K = 1.
    F32x16x16x1,
    /// v_mfma_f32_4x4x1f32: sixteen 4x4 blocks, K = 1.
    F32x4x4x1,
    /// v_mfma_f32_16x16x4f32: one 16x16 block, K = 4.
    F32x16x16x4,
    /// v_mfma_f32_16x16x16f16: one 16x16 block, K = 16, half inputs.
    F32x16x16x16F16,
    /// v_mfma_i32_16x16x16i8: one 16x16 block, K = 16, signed bytes.
    I32x16x16x16I8,
    /// v_mfma_f64_16x16x4f64: one 16x16 block, K = 4, double.
    F64x16x16x4,
    /// v_mfma_f32_16x16x8_xf32 (gfx942): one 16x16 block, K = 8.
    F32x16x16x8Xf32,
    /// v_mfma_i32_16x16x32_i8 (gfx942): one 16x16 block, K = 32, signed bytes.
    I32x16x16x32I8,
    /// v_mfma_f32_16x16x32_fp8_fp8 (gfx942): one 16x16 block, K = 32, fp8 inputs.
    F32x16x16x32Fp8,
}

/// Matrix sizes of an instruction.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Rows of A and D.
    pub m: usize,
    /// Columns of B and D.
    pub n: usize,
    /// Columns of A, rows of B.
    pub k: usize,
    /// Independent blocks.
    pub blocks: usize,
    /// Elements each lane supplies for A (and for B).
    pub items: usize,
    /// Accumulator values per lane.
    pub regs: usize,
}

impl Op {
    /// Its matrix sizes.
    pub fn shape(self) -> Shape {
        let (m, n, k, blocks, items) = match self {
            Op::F32x32x32x2 => (32, 32, 2, 1, 1),
            Op::F32x32x32x1 => (32, 32, 1, 2, 1),
            Op::F32x16x16x1 => (16, 16, 1, 4, 1),
            Op::F32x4x4x1 => (4, 4, 1, 16, 1),
            Op::F32x16x16x4 => (16, 16, 4, 1, 1),
            Op::F32x16x16x16F16 => (16, 16, 16, 1, 4),
            Op::I32x16x16x16I8 => (16, 16, 16, 1, 4),
            Op::F64x16x16x4 => (16, 16, 4, 1, 1),
            Op::F32x16x16x8Xf32 => (16, 16, 8, 1, 2),
            Op::I32x16x16x32I8 => (16, 16, 32, 1, 8),
            Op::F32x16x16x32Fp8 => (16, 16, 32, 1, 8),
        };
        Shape {
            m,
            n,
            k,
            blocks,
            items,
            regs: m * n * blocks / 64,
        }
    }

    /// The A element (block, i, k) that lane `lane` supplies as item `item`; by symmetry the
    /// same formula gives the B element (block, k, j) with j in place of i.
    pub fn operand(self, lane: usize, item: usize) -> (usize, usize, usize) {
        match self {
            // "A i: lane % 32, A k: floor(lane / 32)".
            Op::F32x32x32x2 => (0, lane % 32, lane / 32),
            // "A i: lane % 32, A k: 0, A block: floor(lane / 32)".
            Op::F32x32x32x1 => (lane / 32, lane % 32, 0),
            // "A i: lane % 16, A k: 0, A block: floor(lane / 16)".
            Op::F32x16x16x1 => (lane / 16, lane % 16, 0),
            // "A i: lane % 4, A k: 0, A block: floor(lane / 4)".
            Op::F32x4x4x1 => (lane / 4, lane % 4, 0),
            // "A i: lane % 16, A k: floor(lane / 16)"; f64 the same, one register pair.
            Op::F32x16x16x4 | Op::F64x16x16x4 => (0, lane % 16, lane / 16),
            // "A k: 4 * floor(lane / 16) + 2 * GPR_num + floor(GPR_bits / 16)" (f16) and
            // "4 * floor(lane / 16) + floor(GPR_bits / 8)" (i8): item = 2*GPR + half, or byte.
            Op::F32x16x16x16F16 | Op::I32x16x16x16I8 => (0, lane % 16, 4 * (lane / 16) + item),
            // "A k: 2 * floor(lane / 16) + GPR_num".
            Op::F32x16x16x8Xf32 => (0, lane % 16, 2 * (lane / 16) + item),
            // "A k: 8 * floor(lane / 16) + 4 * GPR_num + floor(GPR_bits / 8)".
            Op::I32x16x16x32I8 | Op::F32x16x16x32Fp8 => (0, lane % 16, 8 * (lane / 16) + item),
        }
    }

    /// The D (and C) element (block, i, j) held in accumulator register `reg` of lane `lane`
    /// (for f64, register pair `reg`).
    pub fn result(self, lane: usize, reg: usize) -> (usize, usize, usize) {
        match self {
            // "C or D i: (8 * floor(GPR_num / 4) % 32) + 4 * floor(lane / 32) + (GPR_num % 4),
            //  j: lane % 32, block: floor(GPR_num / 16)".
            Op::F32x32x32x2 | Op::F32x32x32x1 => (
                reg / 16,
                (8 * (reg / 4)) % 32 + 4 * (lane / 32) + reg % 4,
                lane % 32,
            ),
            // "i: 4 * floor(lane / 16) + (GPR_num % 4), j: lane % 16, block: floor(GPR_num / 4)".
            Op::F32x16x16x1 => (reg / 4, 4 * (lane / 16) + reg % 4, lane % 16),
            // "i: GPR_num % 4, j: lane % 4, block: floor(lane / 4)".
            Op::F32x4x4x1 => (lane / 4, reg % 4, lane % 4),
            // The single 16x16 block: "i: 4 * floor(lane / 16) + (GPR_num % 4), j: lane % 16".
            Op::F32x16x16x4
            | Op::F32x16x16x16F16
            | Op::I32x16x16x16I8
            | Op::F32x16x16x8Xf32
            | Op::I32x16x16x32I8
            | Op::F32x16x16x32Fp8 => (0, 4 * (lane / 16) + reg, lane % 16),
            // f64 ("C or D[i][j] GPR: [2*floor(i/4)+1 : 2*floor(i/4)], Lane: 16 * (i % 4) + j"):
            // register pair r of lane l holds row 4r + l/16.
            Op::F64x16x16x4 => (0, 4 * reg + lane / 16, lane % 16),
        }
    }
}

/// The modifier fields of the VOP3P-MAI encoding the kernels use.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mods {
    /// Control Broadcast Size: blocks are taken in groups of 2^cbsz.
    pub cbsz: u32,
    /// A-matrix Broadcast Identifier: within each group, every block uses the A operand of
    /// block `abid` of the group.
    pub abid: u32,
    /// B-matrix Lane Group Pattern: 0 = as is, 1 = lanes 32..63 take B from lanes 0..31.
    pub blgp: u32,
}

/// One MFMA over a wave, in exact arithmetic on `T` (f64 for the float instructions, whose
/// test inputs keep every product and partial sum exact; i64 for the integer ones).
/// `a` and `b` hold `items` values per lane, `c` `regs` values per lane; returns D the same
/// way. `finish` converts each D element to the accumulator type (rounding to f32, wrapping
/// to i32, ...).
pub fn mfma<T>(
    op: Op,
    mods: Mods,
    a: &[Vec<T>],
    b: &[Vec<T>],
    c: &[Vec<T>],
    finish: impl Fn(T) -> T,
) -> Result<Vec<Vec<T>>, String>
where
    T: Copy + Default + std::ops::Add<Output = T> + std::ops::Mul<Output = T>,
{
    let s = op.shape();
    if a.len() != 64 || b.len() != 64 || c.len() != 64 {
        return Err("an MFMA operand must have 64 lanes".into());
    }
    if (0..64).any(|l| a[l].len() != s.items || b[l].len() != s.items || c[l].len() != s.regs) {
        return Err(format!(
            "{op:?}: operands need {} items and {} accumulators per lane",
            s.items, s.regs
        ));
    }
    if mods.blgp > 1
        || (mods.cbsz > 0 && 1usize << mods.cbsz > s.blocks)
        || mods.abid >= 1 << mods.cbsz
    {
        return Err(format!("{op:?}: modifiers {mods:?} are not modelled"));
    }
    // Gather the matrices from the lanes.
    let mut am = vec![vec![vec![T::default(); s.k]; s.m]; s.blocks];
    let mut bm = vec![vec![vec![T::default(); s.n]; s.k]; s.blocks];
    for lane in 0..64 {
        for item in 0..s.items {
            let (blk, i, k) = op.operand(lane, item);
            am[blk][i][k] = a[lane][item];
            // BLGP = 1: "broadcast the first 32 lanes of B to the last 32 lanes".
            let from = if mods.blgp == 1 { lane % 32 } else { lane };
            let (blk, j, k) = op.operand(lane, item);
            bm[blk][k][j] = b[from][item];
        }
    }
    let mut d = vec![vec![T::default(); s.regs]; 64];
    for lane in 0..64 {
        for reg in 0..s.regs {
            let (blk, i, j) = op.result(lane, reg);
            // CBSZ/ABID: block blk multiplies the A of block (blk with its low cbsz bits
            // replaced by abid).
            let group = (1usize << mods.cbsz) - 1;
            let ablk = (blk & !group) | mods.abid as usize;
            let mut acc = c[lane][reg];
            for k in 0..s.k {
                acc = acc + am[ablk][i][k] * bm[blk][k][j];
            }
            d[lane][reg] = finish(acc);
        }
    }
    Ok(d)
}
