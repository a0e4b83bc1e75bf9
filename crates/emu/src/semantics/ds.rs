//! DS: the local data share (LDS) of the work-group, plus the DS lane-exchange instructions
//! (`ds_swizzle_b32`, `ds_permute_b32`, `ds_bpermute_b32`) and the append counters.
//!
//! The LDS is `env.lds`: the bytes of this work-group, whose length is the allocation.
//! Rules (docs/emulator-abi.md §13.1–13.2):
//!
//! - address = `(VGPR[addr] + offset) mod 2^32`; the two-address forms use `offset0/offset1`
//!   × the element size (4 or 8), × 64 more for `*st64`;
//! - gfx6–8: an access is in range when `a + size <= min(lds_size, M0)`, and multi-byte
//!   accesses ignore the low address bits (`& ~1`, `& ~3`, `& ~7`, `& ~15` for 96/128-bit,
//!   as CLRX GcnInstrsDs.md gives them); gfx9+: `a + size <= lds_size`, exact byte address;
//! - out of range: reads give 0, writes are dropped, atomics do nothing and return 0; wide
//!   accesses and `read2/write2` check each dword (each address) on its own;
//! - atomics always use the naturally aligned address (CLRX: `(ADDR+OFFSET) & ~3` / `& ~7` on
//!   every generation);
//! - lanes run in order 0..63, so atomics of one wave to one address see each other in lane
//!   order.
//!
//! DS instructions with the `gds` bit, the GWS and ordered-count instructions are in
//! `gds.rs`.
//!
//! The atomic operations ([`rmw32`], [`rmw64`], the constants in [`aop`]) and the LDS access
//! helpers are shared with the FLAT (LDS aperture) and MUBUF (`lds`) families.

// Lane loops index the registers, the result buffers and the EXEC bit by the lane number at
// once; iterator chains over one of them would hide that.
#![allow(clippy::needless_range_loop)]

use gcnkit_isa::{Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{memflags, BuildContext, Op};
use crate::wave::{sreg, Mode, Wave, LANES};

/// Family-private bit of `op.mflags`: the M0 register bounds LDS accesses (gfx6–8).
const M0_LIMIT: u32 = 1 << 31;
/// Family-private bit of `op.mflags`: multi-byte accesses ignore their low address bits
/// (gfx6–8).
const ALIGN: u32 = 1 << 30;

/// The atomic operations, as const-generic selectors of [`rmw32`] / [`rmw64`].
pub(super) mod aop {
    /// `old + d0`.
    pub const ADD: u8 = 0;
    /// `old - d0`.
    pub const SUB: u8 = 1;
    /// `d0 - old`.
    pub const RSUB: u8 = 2;
    /// `old >= d0 ? 0 : old + 1`.
    pub const INC: u8 = 3;
    /// `old == 0 || old > d0 ? d0 : old - 1`.
    pub const DEC: u8 = 4;
    /// Signed minimum.
    pub const MIN_I: u8 = 5;
    /// Signed maximum.
    pub const MAX_I: u8 = 6;
    /// Unsigned minimum.
    pub const MIN_U: u8 = 7;
    /// Unsigned maximum.
    pub const MAX_U: u8 = 8;
    /// `old & d0`.
    pub const AND: u8 = 9;
    /// `old | d0`.
    pub const OR: u8 = 10;
    /// `old ^ d0`.
    pub const XOR: u8 = 11;
    /// `(old & !d0) | d1`.
    pub const MSKOR: u8 = 12;
    /// `d0` (exchange).
    pub const SWAP: u8 = 13;
    /// `old == d0 ? d1 : old` (d0 is the compare value, d1 the new value).
    pub const CMPST: u8 = 14;
    /// As CMPST with a floating-point compare.
    pub const CMPST_F: u8 = 15;
    /// Floating-point minimum (minNum).
    pub const MIN_F: u8 = 16;
    /// Floating-point maximum (maxNum).
    pub const MAX_F: u8 = 17;
    /// Floating-point add.
    pub const ADD_F: u8 = 18;
    /// `old >= d0 ? old - d0 : old + d1` (`ds_wrap_rtn_b32`).
    pub const WRAP: u8 = 19;
    /// Two f16 adds.
    pub const PK_ADD_F16: u8 = 20;
    /// Two bf16 adds.
    pub const PK_ADD_BF16: u8 = 21;
}

/// How denormals are treated by a floating-point atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FpEnv {
    /// f32 inputs that are denormal count as ±0.
    pub flush32_in: bool,
    /// f32 results that are denormal become ±0.
    pub flush32_out: bool,
    /// The same for f16 and f64.
    pub flush64_in: bool,
    /// The same for f16 and f64 results.
    pub flush64_out: bool,
}

impl FpEnv {
    /// LDS float atomics follow the MODE register (docs/emulator-abi.md §2.3); the rounding
    /// is always to nearest even.
    #[inline]
    pub(super) fn from_mode(mode: Mode) -> FpEnv {
        FpEnv {
            flush32_in: !mode.f32_denorm_in(),
            flush32_out: !mode.f32_denorm_out(),
            flush64_in: !mode.f64_denorm_in(),
            flush64_out: !mode.f64_denorm_out(),
        }
    }

    /// Float atomics on global memory have a fixed mode: f32 denormals flushed, f16/bf16/f64
    /// denormals kept, round to nearest even (LLVM SIISelLowering: "global FP atomic
    /// instructions have a hardcoded FP mode and do not support FP32 denormals, and only
    /// support v2f16/f64 denormals"). LLVM 19 lowers an OpenCL f32 atomic add with IEEE
    /// denormals to a compare-and-swap loop on gfx90a but to `global_atomic_add_f32` on
    /// gfx942, so gfx940's f32 atomics keep denormals ([`KEEP_F32_DENORMALS`]).
    pub(super) const GLOBAL: FpEnv = FpEnv {
        flush32_in: true,
        flush32_out: true,
        flush64_in: false,
        flush64_out: false,
    };

    /// The mode of the float atomics of the global-memory instruction `op`.
    #[inline(always)]
    pub(super) fn global(op: &Op) -> FpEnv {
        if op.mflags & KEEP_F32_DENORMALS != 0 {
            FpEnv {
                flush32_in: false,
                flush32_out: false,
                ..FpEnv::GLOBAL
            }
        } else {
            FpEnv::GLOBAL
        }
    }
}

/// Family-private bit of `op.mflags` of the FLAT and MUBUF families: f32 float atomics on
/// global memory keep denormals (gfx940).
pub(super) const KEEP_F32_DENORMALS: u32 = 1 << 29;

#[inline(always)]
fn flush32(x: u32, on: bool) -> u32 {
    if on && x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

#[inline(always)]
fn flush64(x: u64, on: bool) -> u64 {
    if on && x & 0x7ff0_0000_0000_0000 == 0 {
        x & (1 << 63)
    } else {
        x
    }
}

#[inline(always)]
fn flush16(x: u16, on: bool) -> u16 {
    if on && x & 0x7c00 == 0 {
        x & 0x8000
    } else {
        x
    }
}

/// minNum / maxNum on f32 bits: a NaN operand loses to a number; -0 is below +0.
#[inline(always)]
fn minmax32<const MAX: bool>(a: u32, b: u32, fp: FpEnv) -> u32 {
    let (a, b) = (flush32(a, fp.flush32_in), flush32(b, fp.flush32_in));
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if fa.is_nan() {
        return if fb.is_nan() { a | 0x0040_0000 } else { b };
    }
    if fb.is_nan() {
        return a;
    }
    let a_first = if MAX {
        fa > fb || (fa == fb && a >> 31 == 0)
    } else {
        fa < fb || (fa == fb && a >> 31 == 1)
    };
    if a_first {
        a
    } else {
        b
    }
}

/// minNum / maxNum on f64 bits.
#[inline(always)]
fn minmax64<const MAX: bool>(a: u64, b: u64, fp: FpEnv) -> u64 {
    let (a, b) = (flush64(a, fp.flush64_in), flush64(b, fp.flush64_in));
    let (fa, fb) = (f64::from_bits(a), f64::from_bits(b));
    if fa.is_nan() {
        return if fb.is_nan() { a | 1 << 51 } else { b };
    }
    if fb.is_nan() {
        return a;
    }
    let a_first = if MAX {
        fa > fb || (fa == fb && a >> 63 == 0)
    } else {
        fa < fb || (fa == fb && a >> 63 == 1)
    };
    if a_first {
        a
    } else {
        b
    }
}

#[inline(always)]
fn add_f32(a: u32, b: u32, fp: FpEnv) -> u32 {
    let (a, b) = (flush32(a, fp.flush32_in), flush32(b, fp.flush32_in));
    flush32(
        (f32::from_bits(a) + f32::from_bits(b)).to_bits(),
        fp.flush32_out,
    )
}

#[inline(always)]
fn add_f64(a: u64, b: u64, fp: FpEnv) -> u64 {
    let (a, b) = (flush64(a, fp.flush64_in), flush64(b, fp.flush64_in));
    flush64(
        (f64::from_bits(a) + f64::from_bits(b)).to_bits(),
        fp.flush64_out,
    )
}

/// Both halves of two packed f16 pairs added. The f64 sum of two f16 values is exact, so
/// converting it once rounds correctly (to nearest even).
#[inline(always)]
fn pk_add_f16(a: u32, b: u32, fp: FpEnv) -> u32 {
    let half = |x: u32, y: u32| -> u32 {
        let x = half::f16::from_bits(flush16(x as u16, fp.flush64_in));
        let y = half::f16::from_bits(flush16(y as u16, fp.flush64_in));
        let r = half::f16::from_f64(x.to_f64() + y.to_f64()).to_bits();
        flush16(r, fp.flush64_out) as u32
    };
    half(a, b) | half(a >> 16, b >> 16) << 16
}

/// Both halves of two packed bf16 pairs added (denormals kept, round to nearest even).
#[inline(always)]
fn pk_add_bf16(a: u32, b: u32) -> u32 {
    let half = |x: u32, y: u32| -> u32 {
        let x = half::bf16::from_bits(x as u16);
        let y = half::bf16::from_bits(y as u16);
        half::bf16::from_f64(x.to_f64() + y.to_f64()).to_bits() as u32
    };
    half(a, b) | half(a >> 16, b >> 16) << 16
}

/// The new 32-bit memory value of atomic `OP` given the old one and the data operands.
#[inline(always)]
pub(super) fn rmw32<const OP: u8>(old: u32, d0: u32, d1: u32, fp: FpEnv) -> u32 {
    use aop::*;
    match OP {
        ADD => old.wrapping_add(d0),
        SUB => old.wrapping_sub(d0),
        RSUB => d0.wrapping_sub(old),
        INC => {
            if old >= d0 {
                0
            } else {
                old + 1
            }
        }
        DEC => {
            if old == 0 || old > d0 {
                d0
            } else {
                old - 1
            }
        }
        MIN_I => (old as i32).min(d0 as i32) as u32,
        MAX_I => (old as i32).max(d0 as i32) as u32,
        MIN_U => old.min(d0),
        MAX_U => old.max(d0),
        AND => old & d0,
        OR => old | d0,
        XOR => old ^ d0,
        MSKOR => (old & !d0) | d1,
        SWAP => d0,
        CMPST => {
            if old == d0 {
                d1
            } else {
                old
            }
        }
        CMPST_F => {
            let o = f32::from_bits(flush32(old, fp.flush32_in));
            let c = f32::from_bits(flush32(d0, fp.flush32_in));
            if o == c {
                d1
            } else {
                old
            }
        }
        MIN_F => minmax32::<false>(old, d0, fp),
        MAX_F => minmax32::<true>(old, d0, fp),
        ADD_F => add_f32(old, d0, fp),
        WRAP => {
            if old >= d0 {
                old - d0
            } else {
                old.wrapping_add(d1)
            }
        }
        PK_ADD_F16 => pk_add_f16(old, d0, fp),
        PK_ADD_BF16 => pk_add_bf16(old, d0),
        _ => old,
    }
}

/// The new 64-bit memory value of atomic `OP`.
#[inline(always)]
pub(super) fn rmw64<const OP: u8>(old: u64, d0: u64, d1: u64, fp: FpEnv) -> u64 {
    use aop::*;
    match OP {
        ADD => old.wrapping_add(d0),
        SUB => old.wrapping_sub(d0),
        RSUB => d0.wrapping_sub(old),
        INC => {
            if old >= d0 {
                0
            } else {
                old + 1
            }
        }
        DEC => {
            if old == 0 || old > d0 {
                d0
            } else {
                old - 1
            }
        }
        MIN_I => (old as i64).min(d0 as i64) as u64,
        MAX_I => (old as i64).max(d0 as i64) as u64,
        MIN_U => old.min(d0),
        MAX_U => old.max(d0),
        AND => old & d0,
        OR => old | d0,
        XOR => old ^ d0,
        MSKOR => (old & !d0) | d1,
        SWAP => d0,
        CMPST => {
            if old == d0 {
                d1
            } else {
                old
            }
        }
        CMPST_F => {
            let o = f64::from_bits(flush64(old, fp.flush64_in));
            let c = f64::from_bits(flush64(d0, fp.flush64_in));
            if o == c {
                d1
            } else {
                old
            }
        }
        MIN_F => minmax64::<false>(old, d0, fp),
        MAX_F => minmax64::<true>(old, d0, fp),
        ADD_F => add_f64(old, d0, fp),
        _ => old,
    }
}

// ---- register and LDS access -------------------------------------------------------------

#[inline(always)]
pub(super) fn vreg(w: &Wave, r: u16, lane: usize) -> u32 {
    w.v[r as usize][lane]
}

#[inline(always)]
pub(super) fn vreg64(w: &Wave, r: u16, lane: usize) -> u64 {
    w.v[r as usize][lane] as u64 | (w.v[r as usize + 1][lane] as u64) << 32
}

#[inline(always)]
pub(super) fn set_vreg64(w: &mut Wave, r: u16, lane: usize, x: u64) {
    w.v[r as usize][lane] = x as u32;
    w.v[r as usize + 1][lane] = (x >> 32) as u32;
}

/// True if the `n` bytes at `a` lie below `limit`.
#[inline(always)]
pub(super) fn lds_in_range(limit: usize, a: u32, n: usize) -> bool {
    a as usize + n <= limit
}

/// Reads `n` (1..=8) bytes of LDS at `a`, little-endian; 0 when out of range.
#[inline(always)]
pub(super) fn lds_load(lds: &[u8], limit: usize, a: u32, n: usize) -> u64 {
    if !lds_in_range(limit, a, n) {
        return 0;
    }
    let a = a as usize;
    let mut b = [0u8; 8];
    b[..n].copy_from_slice(&lds[a..a + n]);
    u64::from_le_bytes(b)
}

/// Writes the low `n` (1..=8) bytes of `x` to LDS at `a`; dropped when out of range.
#[inline(always)]
pub(super) fn lds_store(lds: &mut [u8], limit: usize, a: u32, n: usize, x: u64) {
    if !lds_in_range(limit, a, n) {
        return;
    }
    let a = a as usize;
    lds[a..a + n].copy_from_slice(&x.to_le_bytes()[..n]);
}

/// The byte limit of this instruction's LDS accesses: the allocation, and on gfx6–8 M0 too.
#[inline(always)]
fn limit(w: &Wave, op: &Op, env: &Env<'_>) -> usize {
    let n = env.lds.len();
    if op.mflags & M0_LIMIT != 0 {
        n.min(w.s[sreg::M0 as usize] as usize)
    } else {
        n
    }
}

/// The address mask of an access of `size` bytes (gfx6–8 ignore the low bits).
#[inline(always)]
fn amask(op: &Op, size: u32) -> u32 {
    if op.mflags & ALIGN != 0 {
        !(size - 1)
    } else {
        !0
    }
}

#[inline(always)]
fn lane_addr(w: &Wave, op: &Op, lane: usize, offset: i64) -> u32 {
    w.v[op.vaddr as usize][lane].wrapping_add(offset as u32)
}

// ---- selection ---------------------------------------------------------------------------

/// The semantic function for `inst`, if this family has it.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    let def = inst.def();
    let gen = inst.gen;
    if !gen.is_gfx9_family() {
        op.mflags |= M0_LIMIT | ALIGN;
    }
    let (off0, off1) = (op.imm, op.imm2);
    // The single 16-bit offset of most forms; the two-address forms scale each 8-bit offset.
    op.imm = off0 | off1 << 8;
    let two = |op: &mut Op, scale: i64| {
        op.imm = off0 * scale;
        op.imm2 = off1 * scale;
    };
    use aop::*;
    let gds = op.mflags & memflags::GDS != 0;
    if gds {
        // The window of GDS is the limit; M0 holds its base and size (semantics/gds.rs).
        op.mflags &= !M0_LIMIT;
    }
    let f: ExecFn = match def.op {
        // Instructions that only exist with gds=1.
        M::DsGwsInit
        | M::DsGwsSemaV
        | M::DsGwsSemaBr
        | M::DsGwsSemaP
        | M::DsGwsSemaReleaseAll
        | M::DsGwsBarrier
        | M::DsOrderedCount => return super::gds::select(inst, op, None),
        M::DsNop => nop,
        M::DsCondxchg32RtnB64 => condxchg32,

        M::DsReadB32 => read_dwords::<1, 4>,
        M::DsReadB64 => read_dwords::<2, 8>,
        M::DsReadB96 => read_dwords::<3, 16>,
        M::DsReadB128 => read_dwords::<4, 16>,
        M::DsReadU8 => read_sub::<1, false>,
        M::DsReadI8 => read_sub::<1, true>,
        M::DsReadU16 => read_sub::<2, false>,
        M::DsReadI16 => read_sub::<2, true>,
        M::DsReadU8D16 => read_d16::<1, false, false>,
        M::DsReadU8D16Hi => read_d16::<1, false, true>,
        M::DsReadI8D16 => read_d16::<1, true, false>,
        M::DsReadI8D16Hi => read_d16::<1, true, true>,
        M::DsReadU16D16 => read_d16::<2, false, false>,
        M::DsReadU16D16Hi => read_d16::<2, false, true>,
        M::DsRead2B32 => {
            two(op, 4);
            read2::<false>
        }
        M::DsRead2st64B32 => {
            two(op, 4 * 64);
            read2::<false>
        }
        M::DsRead2B64 => {
            two(op, 8);
            read2::<true>
        }
        M::DsRead2st64B64 => {
            two(op, 8 * 64);
            read2::<true>
        }
        M::DsReadAddtidB32 => read_addtid,

        M::DsWriteB8 => write_sub::<1, 0>,
        M::DsWriteB16 => write_sub::<2, 0>,
        M::DsWriteB8D16Hi => write_sub::<1, 16>,
        M::DsWriteB16D16Hi => write_sub::<2, 16>,
        M::DsWriteB32 => write_dwords::<1, 4>,
        M::DsWriteB64 => write_dwords::<2, 8>,
        M::DsWriteB96 => write_dwords::<3, 16>,
        M::DsWriteB128 => write_dwords::<4, 16>,
        M::DsWrite2B32 => {
            two(op, 4);
            write2::<false>
        }
        M::DsWrite2st64B32 => {
            two(op, 4 * 64);
            write2::<false>
        }
        M::DsWrite2B64 => {
            two(op, 8);
            write2::<true>
        }
        M::DsWrite2st64B64 => {
            two(op, 8 * 64);
            write2::<true>
        }
        M::DsWriteAddtidB32 => write_addtid,

        M::DsAddU32 => atomic32::<ADD, false>,
        M::DsSubU32 => atomic32::<SUB, false>,
        M::DsRsubU32 => atomic32::<RSUB, false>,
        M::DsIncU32 => atomic32::<INC, false>,
        M::DsDecU32 => atomic32::<DEC, false>,
        M::DsMinI32 => atomic32::<MIN_I, false>,
        M::DsMaxI32 => atomic32::<MAX_I, false>,
        M::DsMinU32 => atomic32::<MIN_U, false>,
        M::DsMaxU32 => atomic32::<MAX_U, false>,
        M::DsAndB32 => atomic32::<AND, false>,
        M::DsOrB32 => atomic32::<OR, false>,
        M::DsXorB32 => atomic32::<XOR, false>,
        M::DsMskorB32 => atomic32::<MSKOR, false>,
        M::DsCmpstB32 => atomic32::<CMPST, false>,
        M::DsCmpstF32 => atomic32::<CMPST_F, false>,
        M::DsMinF32 => atomic32::<MIN_F, false>,
        M::DsMaxF32 => atomic32::<MAX_F, false>,
        M::DsAddF32 => atomic32::<ADD_F, false>,
        M::DsPkAddF16 => atomic32::<PK_ADD_F16, false>,
        M::DsPkAddBf16 => atomic32::<PK_ADD_BF16, false>,
        M::DsAddRtnU32 => atomic32::<ADD, true>,
        M::DsSubRtnU32 => atomic32::<SUB, true>,
        M::DsRsubRtnU32 => atomic32::<RSUB, true>,
        M::DsIncRtnU32 => atomic32::<INC, true>,
        M::DsDecRtnU32 => atomic32::<DEC, true>,
        M::DsMinRtnI32 => atomic32::<MIN_I, true>,
        M::DsMaxRtnI32 => atomic32::<MAX_I, true>,
        M::DsMinRtnU32 => atomic32::<MIN_U, true>,
        M::DsMaxRtnU32 => atomic32::<MAX_U, true>,
        M::DsAndRtnB32 => atomic32::<AND, true>,
        M::DsOrRtnB32 => atomic32::<OR, true>,
        M::DsXorRtnB32 => atomic32::<XOR, true>,
        M::DsMskorRtnB32 => atomic32::<MSKOR, true>,
        M::DsWrxchgRtnB32 => atomic32::<SWAP, true>,
        M::DsCmpstRtnB32 => atomic32::<CMPST, true>,
        M::DsCmpstRtnF32 => atomic32::<CMPST_F, true>,
        M::DsMinRtnF32 => atomic32::<MIN_F, true>,
        M::DsMaxRtnF32 => atomic32::<MAX_F, true>,
        M::DsAddRtnF32 => atomic32::<ADD_F, true>,
        M::DsWrapRtnB32 => atomic32::<WRAP, true>,
        M::DsPkAddRtnF16 => atomic32::<PK_ADD_F16, true>,
        M::DsPkAddRtnBf16 => atomic32::<PK_ADD_BF16, true>,

        M::DsAddU64 => atomic64::<ADD, false>,
        M::DsSubU64 => atomic64::<SUB, false>,
        M::DsRsubU64 => atomic64::<RSUB, false>,
        M::DsIncU64 => atomic64::<INC, false>,
        M::DsDecU64 => atomic64::<DEC, false>,
        M::DsMinI64 => atomic64::<MIN_I, false>,
        M::DsMaxI64 => atomic64::<MAX_I, false>,
        M::DsMinU64 => atomic64::<MIN_U, false>,
        M::DsMaxU64 => atomic64::<MAX_U, false>,
        M::DsAndB64 => atomic64::<AND, false>,
        M::DsOrB64 => atomic64::<OR, false>,
        M::DsXorB64 => atomic64::<XOR, false>,
        M::DsMskorB64 => atomic64::<MSKOR, false>,
        M::DsCmpstB64 => atomic64::<CMPST, false>,
        M::DsCmpstF64 => atomic64::<CMPST_F, false>,
        M::DsMinF64 => atomic64::<MIN_F, false>,
        M::DsMaxF64 => atomic64::<MAX_F, false>,
        M::DsAddF64 => atomic64::<ADD_F, false>,
        M::DsAddRtnU64 => atomic64::<ADD, true>,
        M::DsSubRtnU64 => atomic64::<SUB, true>,
        M::DsRsubRtnU64 => atomic64::<RSUB, true>,
        M::DsIncRtnU64 => atomic64::<INC, true>,
        M::DsDecRtnU64 => atomic64::<DEC, true>,
        M::DsMinRtnI64 => atomic64::<MIN_I, true>,
        M::DsMaxRtnI64 => atomic64::<MAX_I, true>,
        M::DsMinRtnU64 => atomic64::<MIN_U, true>,
        M::DsMaxRtnU64 => atomic64::<MAX_U, true>,
        M::DsAndRtnB64 => atomic64::<AND, true>,
        M::DsOrRtnB64 => atomic64::<OR, true>,
        M::DsXorRtnB64 => atomic64::<XOR, true>,
        M::DsMskorRtnB64 => atomic64::<MSKOR, true>,
        M::DsWrxchgRtnB64 => atomic64::<SWAP, true>,
        M::DsCmpstRtnB64 => atomic64::<CMPST, true>,
        M::DsCmpstRtnF64 => atomic64::<CMPST_F, true>,
        M::DsMinRtnF64 => atomic64::<MIN_F, true>,
        M::DsMaxRtnF64 => atomic64::<MAX_F, true>,
        M::DsAddRtnF64 => atomic64::<ADD_F, true>,

        M::DsWrxchg2RtnB32 => {
            two(op, 4);
            wrxchg2::<false>
        }
        M::DsWrxchg2st64RtnB32 => {
            two(op, 4 * 64);
            wrxchg2::<false>
        }
        M::DsWrxchg2RtnB64 => {
            two(op, 8);
            wrxchg2::<true>
        }
        M::DsWrxchg2st64RtnB64 => {
            two(op, 8 * 64);
            wrxchg2::<true>
        }

        M::DsAddSrc2U32 => src2_32::<ADD>,
        M::DsSubSrc2U32 => src2_32::<SUB>,
        M::DsRsubSrc2U32 => src2_32::<RSUB>,
        M::DsIncSrc2U32 => src2_32::<INC>,
        M::DsDecSrc2U32 => src2_32::<DEC>,
        M::DsMinSrc2I32 => src2_32::<MIN_I>,
        M::DsMaxSrc2I32 => src2_32::<MAX_I>,
        M::DsMinSrc2U32 => src2_32::<MIN_U>,
        M::DsMaxSrc2U32 => src2_32::<MAX_U>,
        M::DsAndSrc2B32 => src2_32::<AND>,
        M::DsOrSrc2B32 => src2_32::<OR>,
        M::DsXorSrc2B32 => src2_32::<XOR>,
        M::DsWriteSrc2B32 => src2_32::<SWAP>,
        M::DsMinSrc2F32 => src2_32::<MIN_F>,
        M::DsMaxSrc2F32 => src2_32::<MAX_F>,
        M::DsAddSrc2F32 => src2_32::<ADD_F>,
        M::DsAddSrc2U64 => src2_64::<ADD>,
        M::DsSubSrc2U64 => src2_64::<SUB>,
        M::DsRsubSrc2U64 => src2_64::<RSUB>,
        M::DsIncSrc2U64 => src2_64::<INC>,
        M::DsDecSrc2U64 => src2_64::<DEC>,
        M::DsMinSrc2I64 => src2_64::<MIN_I>,
        M::DsMaxSrc2I64 => src2_64::<MAX_I>,
        M::DsMinSrc2U64 => src2_64::<MIN_U>,
        M::DsMaxSrc2U64 => src2_64::<MAX_U>,
        M::DsAndSrc2B64 => src2_64::<AND>,
        M::DsOrSrc2B64 => src2_64::<OR>,
        M::DsXorSrc2B64 => src2_64::<XOR>,
        M::DsWriteSrc2B64 => src2_64::<SWAP>,
        M::DsMinSrc2F64 => src2_64::<MIN_F>,
        M::DsMaxSrc2F64 => src2_64::<MAX_F>,

        M::DsSwizzleB32 => swizzle,
        M::DsPermuteB32 => permute,
        M::DsBpermuteB32 => bpermute,
        M::DsAppend => append::<false>,
        M::DsConsume => append::<true>,
        _ => return None,
    };
    if gds {
        return super::gds::select(inst, op, Some(f));
    }
    Some(f)
}

/// `ds_condxchg32_rtn_b64`: two conditional 32-bit exchanges at `(addr + offset) & 0xfff8`
/// and 4 bytes above it. Each data dword is stored, with its top bit cleared, only if that
/// top bit is set; both old dwords are returned. The GCN manuals only name it ("conditional
/// write exchange"); the operation is the pseudo-code of AMD's RDNA3 ISA guide (DS opcode
/// 126, kept from Sea Islands), the only description published.
fn condxchg32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a0 = lane_addr(w, op, l, op.imm) & 0xfff8;
        let data = vreg64(w, op.vdata, l);
        let mut old = 0u64;
        for (k, a) in [a0, a0 + 4].into_iter().enumerate() {
            let d = (data >> (32 * k)) as u32;
            old |= lds_load(env.lds, limit, a, 4) << (32 * k);
            if d >> 31 != 0 {
                lds_store(env.lds, limit, a, 4, (d & 0x7fff_ffff) as u64);
            }
        }
        set_vreg64(w, op.vdst, l, old);
    }
    Ok(Flow::Next)
}

fn nop(_: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Ok(Flow::Next)
}

// ---- loads -------------------------------------------------------------------------------

/// `ds_read_b32/b64/b96/b128`: `N` dwords from an address aligned (gfx6–8) to `ALIGN_TO`;
/// each dword is range-checked on its own.
fn read_dwords<const N: usize, const ALIGN_TO: u32>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let mask = amask(op, ALIGN_TO);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, l, op.imm) & mask;
        for k in 0..N {
            let x = lds_load(env.lds, limit, a.wrapping_add(4 * k as u32), 4) as u32;
            w.v[op.vdst as usize + k][l] = x;
        }
    }
    Ok(Flow::Next)
}

/// `ds_read_u8/i8/u16/i16`: `SIZE` bytes, zero- or sign-extended.
fn read_sub<const SIZE: usize, const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let mask = amask(op, SIZE as u32);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, l, op.imm) & mask;
        let x = lds_load(env.lds, limit, a, SIZE) as u32;
        w.v[op.vdst as usize][l] = extend::<SIZE, SIGNED>(x);
    }
    Ok(Flow::Next)
}

/// Zero- or sign-extends the low `SIZE` bytes of `x` to 32 bits.
#[inline(always)]
pub(super) fn extend<const SIZE: usize, const SIGNED: bool>(x: u32) -> u32 {
    match (SIZE, SIGNED) {
        (1, false) => x & 0xff,
        (1, true) => x as u8 as i8 as i32 as u32,
        (2, false) => x & 0xffff,
        (2, true) => x as u16 as i16 as i32 as u32,
        _ => x,
    }
}

/// Merges a 16-bit value into one half of a register (the d16 forms).
#[inline(always)]
pub(super) fn merge_d16<const HI: bool>(old: u32, x: u32) -> u32 {
    if HI {
        (old & 0xffff) | x << 16
    } else {
        (old & 0xffff_0000) | (x & 0xffff)
    }
}

/// `ds_read_{u8,i8,u16}_d16[_hi]`: the value, extended to 16 bits, replaces one half of vdst.
fn read_d16<const SIZE: usize, const SIGNED: bool, const HI: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let mask = amask(op, SIZE as u32);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, l, op.imm) & mask;
        let x = extend::<SIZE, SIGNED>(lds_load(env.lds, limit, a, SIZE) as u32) & 0xffff;
        let d = &mut w.v[op.vdst as usize][l];
        *d = merge_d16::<HI>(*d, x);
    }
    Ok(Flow::Next)
}

/// `ds_read2[st64]_b32/b64`: two elements at `addr + imm` and `addr + imm2`.
fn read2<const W64: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let size: u32 = if W64 { 8 } else { 4 };
    let mask = amask(op, size);
    let dwords = size as usize / 4;
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a0 = lane_addr(w, op, l, op.imm) & mask;
        let a1 = lane_addr(w, op, l, op.imm2) & mask;
        for (i, a) in [a0, a1].into_iter().enumerate() {
            for k in 0..dwords {
                let x = lds_load(env.lds, limit, a.wrapping_add(4 * k as u32), 4) as u32;
                w.v[op.vdst as usize + i * dwords + k][l] = x;
            }
        }
    }
    Ok(Flow::Next)
}

/// `ds_read_addtid_b32`: lane `l` reads the dword at `M0[15:0] + offset + 4 * l`.
fn read_addtid(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let base = (w.s[sreg::M0 as usize] & 0xffff).wrapping_add(op.imm as u32);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = base.wrapping_add(4 * l as u32);
        w.v[op.vdst as usize][l] = lds_load(env.lds, limit, a, 4) as u32;
    }
    Ok(Flow::Next)
}

// ---- stores ------------------------------------------------------------------------------

/// `ds_write_b32/b64/b96/b128`.
fn write_dwords<const N: usize, const ALIGN_TO: u32>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let mask = amask(op, ALIGN_TO);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, l, op.imm) & mask;
        for k in 0..N {
            let x = w.v[op.vdata as usize + k][l];
            lds_store(env.lds, limit, a.wrapping_add(4 * k as u32), 4, x as u64);
        }
    }
    Ok(Flow::Next)
}

/// `ds_write_b8/b16[_d16_hi]`: `SIZE` bytes of data0 starting at bit `SHIFT`.
fn write_sub<const SIZE: usize, const SHIFT: u32>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let mask = amask(op, SIZE as u32);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, l, op.imm) & mask;
        let x = w.v[op.vdata as usize][l] >> SHIFT;
        lds_store(env.lds, limit, a, SIZE, x as u64);
    }
    Ok(Flow::Next)
}

/// `ds_write2[st64]_b32/b64`: data0 at `addr + imm`, then data1 at `addr + imm2`.
fn write2<const W64: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let size: u32 = if W64 { 8 } else { 4 };
    let mask = amask(op, size);
    let dwords = size as usize / 4;
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a0 = lane_addr(w, op, l, op.imm) & mask;
        let a1 = lane_addr(w, op, l, op.imm2) & mask;
        for (a, r) in [(a0, op.vdata), (a1, op.vdata1)] {
            for k in 0..dwords {
                let x = w.v[r as usize + k][l];
                lds_store(env.lds, limit, a.wrapping_add(4 * k as u32), 4, x as u64);
            }
        }
    }
    Ok(Flow::Next)
}

/// `ds_write_addtid_b32`: lane `l` writes data0 at `M0[15:0] + offset + 4 * l`.
fn write_addtid(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let base = (w.s[sreg::M0 as usize] & 0xffff).wrapping_add(op.imm as u32);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = base.wrapping_add(4 * l as u32);
        let x = w.v[op.vdata as usize][l];
        lds_store(env.lds, limit, a, 4, x as u64);
    }
    Ok(Flow::Next)
}

// ---- atomics -----------------------------------------------------------------------------

/// A 32-bit LDS atomic; `RET` writes the old value to vdst (0 when out of range).
fn atomic32<const OP: u8, const RET: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let fp = FpEnv::from_mode(w.mode);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, l, op.imm) & !3;
        let d0 = vreg(w, op.vdata, l);
        let d1 = vreg(w, op.vdata1, l);
        let mut old = 0;
        if lds_in_range(limit, a, 4) {
            old = lds_load(env.lds, limit, a, 4) as u32;
            let new = rmw32::<OP>(old, d0, d1, fp);
            lds_store(env.lds, limit, a, 4, new as u64);
        }
        if RET {
            w.v[op.vdst as usize][l] = old;
        }
    }
    Ok(Flow::Next)
}

/// A 64-bit LDS atomic.
fn atomic64<const OP: u8, const RET: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let fp = FpEnv::from_mode(w.mode);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, l, op.imm) & !7;
        let d0 = vreg64(w, op.vdata, l);
        let d1 = vreg64(w, op.vdata1, l);
        let mut old = 0;
        if lds_in_range(limit, a, 8) {
            old = lds_load(env.lds, limit, a, 8);
            let new = rmw64::<OP>(old, d0, d1, fp);
            lds_store(env.lds, limit, a, 8, new);
        }
        if RET {
            set_vreg64(w, op.vdst, l, old);
        }
    }
    Ok(Flow::Next)
}

/// `ds_wrxchg2[st64]_rtn_b32/b64`: both old values are read, then data0 and data1 stored.
fn wrxchg2<const W64: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let size: u32 = if W64 { 8 } else { 4 };
    let dwords = size as usize / 4;
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a0 = lane_addr(w, op, l, op.imm) & !(size - 1);
        let a1 = lane_addr(w, op, l, op.imm2) & !(size - 1);
        let (d0, d1) = if W64 {
            (vreg64(w, op.vdata, l), vreg64(w, op.vdata1, l))
        } else {
            (vreg(w, op.vdata, l) as u64, vreg(w, op.vdata1, l) as u64)
        };
        let old0 = lds_load(env.lds, limit, a0, size as usize);
        let old1 = lds_load(env.lds, limit, a1, size as usize);
        lds_store(env.lds, limit, a0, size as usize, d0);
        lds_store(env.lds, limit, a1, size as usize, d1);
        for (i, old) in [old0, old1].into_iter().enumerate() {
            for k in 0..dwords {
                w.v[op.vdst as usize + i * dwords + k][l] = (old >> (32 * k)) as u32;
            }
        }
    }
    Ok(Flow::Next)
}

/// The two addresses of a `*_src2_*` instruction (CLRX GcnInstrsDs.md): with offset bit 15
/// set, A is `addr[16:0]` and the dword stride to B comes from `addr[31:17]` (sign in bit
/// 31); otherwise A is `addr` and the stride is the offset's low 15 bits, sign-extended. The
/// 16-bit stride is taken as signed.
#[inline(always)]
fn src2_addrs(addr: u32, offset: u32, size: u32) -> (u32, u32) {
    let align = !(size - 1);
    let (a, stride) = if offset & 0x8000 != 0 {
        let s = (addr >> 17) | ((addr >> 16) & 0x8000);
        (addr & 0x1ffff & align, s)
    } else {
        let s = (offset & 0x7fff) | ((offset << 1) & 0x8000);
        (addr & align, s)
    };
    let b = a.wrapping_add((stride as u16 as i16 as i32 as u32).wrapping_mul(4)) & align;
    (a, b)
}

/// `ds_*_src2_b32/u32/i32/f32`: `LDS[A] = op(LDS[A], LDS[B])`.
fn src2_32<const OP: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let fp = FpEnv::from_mode(w.mode);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let (a, b) = src2_addrs(vreg(w, op.vaddr, l), op.imm as u32, 4);
        if lds_in_range(limit, a, 4) && lds_in_range(limit, b, 4) {
            let old = lds_load(env.lds, limit, a, 4) as u32;
            let src = lds_load(env.lds, limit, b, 4) as u32;
            lds_store(env.lds, limit, a, 4, rmw32::<OP>(old, src, 0, fp) as u64);
        }
    }
    Ok(Flow::Next)
}

/// `ds_*_src2_b64/u64/i64/f64`.
fn src2_64<const OP: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let limit = limit(w, op, env);
    let fp = FpEnv::from_mode(w.mode);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let (a, b) = src2_addrs(vreg(w, op.vaddr, l), op.imm as u32, 8);
        if lds_in_range(limit, a, 8) && lds_in_range(limit, b, 8) {
            let old = lds_load(env.lds, limit, a, 8);
            let src = lds_load(env.lds, limit, b, 8);
            lds_store(env.lds, limit, a, 8, rmw64::<OP>(old, src, 0, fp));
        }
    }
    Ok(Flow::Next)
}

/// `ds_append` / `ds_consume`: the dword at `M0[15:0] + offset` (the counter) is returned to
/// every active lane, then increased (append) or decreased (consume) by the number of active
/// lanes (CLRX GcnInstrsDs.md: "VDST = *V; *V += BITCOUNT(EXEC)", both scalar operations).
/// M0 holds the base here, so it does not bound the access; the allocation does.
fn append<const CONSUME: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Next);
    }
    let limit = env.lds.len();
    let a = (w.s[sreg::M0 as usize] & 0xffff).wrapping_add(op.imm as u32) & !3;
    let mut old = 0;
    if lds_in_range(limit, a, 4) {
        old = lds_load(env.lds, limit, a, 4) as u32;
        let n = exec.count_ones();
        let new = if CONSUME {
            old.wrapping_sub(n)
        } else {
            old.wrapping_add(n)
        };
        lds_store(env.lds, limit, a, 4, new as u64);
    }
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            w.v[op.vdst as usize][l] = old;
        }
    }
    Ok(Flow::Next)
}

// ---- lane exchange -----------------------------------------------------------------------

/// The lane `ds_swizzle_b32` reads for `lane` (CLRX GcnInstrsDs.md): offset bit 15 selects
/// the quad-permute mode (two bits per lane of a quad); otherwise the bit-mask mode works on
/// groups of 32 lanes with and/or/xor masks in offset bits 4:0, 9:5 and 14:10.
#[inline(always)]
fn swizzle_source(offset: u32, lane: usize) -> usize {
    if offset & 0x8000 != 0 {
        (lane & 0x3c) + ((offset as usize >> (2 * (lane & 3))) & 3)
    } else {
        let and = offset as usize & 31;
        let or = (offset as usize >> 5) & 31;
        let xor = (offset as usize >> 10) & 31;
        (lane & 32) + ((((lane & 31) & and) | or) ^ xor)
    }
}

/// `ds_swizzle_b32`: lanes exchange the addr VGPR; a disabled source lane gives 0.
fn swizzle(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let src = w.v[op.vaddr as usize];
    let offset = op.imm as u32;
    let dst = &mut w.v[op.vdst as usize];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let s = swizzle_source(offset, l);
        dst[l] = if exec >> s & 1 != 0 { src[s] } else { 0 };
    }
    Ok(Flow::Next)
}

/// `ds_permute_b32` (push): each active lane i sends data0 to lane `((addr[i] + offset) / 4)
/// mod 64`; when several lanes pick one destination the highest wins; lanes nobody sends to
/// read 0; only active lanes are written (GCN3/Vega ISA pseudo-code).
fn permute(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let mut tmp = [0u32; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let dst = (lane_addr(w, op, l, op.imm) / 4) as usize % LANES;
        tmp[dst] = vreg(w, op.vdata, l);
    }
    let d = &mut w.v[op.vdst as usize];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            d[l] = tmp[l];
        }
    }
    Ok(Flow::Next)
}

/// `ds_bpermute_b32` (pull): each active lane i reads data0 of lane `((addr[i] + offset) / 4)
/// mod 64`, or 0 when that lane is disabled (GCN3/Vega ISA pseudo-code: "EXEC is applied to
/// the source VGPR reads").
fn bpermute(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let mut tmp = [0u32; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let src = (lane_addr(w, op, l, op.imm) / 4) as usize % LANES;
        if exec >> src & 1 != 0 {
            tmp[l] = vreg(w, op.vdata, src);
        }
    }
    let d = &mut w.v[op.vdst as usize];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            d[l] = tmp[l];
        }
    }
    Ok(Flow::Next)
}

/// Test support shared by the memory families: runs a program on one wave with an LDS of a
/// chosen size (the common harness always gives 64 KiB).
#[cfg(test)]
pub(super) mod harness {
    use crate::exec::{run_wave, Apertures, Env, Fault, Flow};
    use crate::memory::Memory;
    use crate::testing::{program, MODE_GFX6, MODE_GFX9};
    use crate::wave::{Mode, Wave};

    /// The apertures of `crate::testing::run`.
    pub const SHARED_BASE: u64 = 0x1_0000_0000_0000;
    /// The private aperture.
    pub const PRIVATE_BASE: u64 = 0x2_0000_0000_0000;

    /// What a run leaves.
    pub struct Run {
        /// The wave afterwards.
        pub wave: Wave,
        /// Device memory afterwards.
        pub mem: Memory,
        /// The LDS afterwards.
        pub lds: Vec<u8>,
    }

    /// Runs `source` on one wave with all lanes enabled (unless `setup` changes EXEC), the
    /// generation's default MODE and an LDS of `lds_size` bytes prepared by `setup`.
    pub fn run(
        mcpu: &str,
        source: &str,
        lds_size: usize,
        setup: impl FnOnce(&mut Wave, &mut Memory, &mut Vec<u8>),
    ) -> Result<Run, Fault> {
        match run_to_fault(mcpu, source, lds_size, setup) {
            (None, r) => Ok(r),
            (Some(e), _) => Err(e),
        }
    }

    /// As [`run`], but also returns the state left by a faulting run.
    pub fn run_to_fault(
        mcpu: &str,
        source: &str,
        lds_size: usize,
        setup: impl FnOnce(&mut Wave, &mut Memory, &mut Vec<u8>),
    ) -> (Option<Fault>, Run) {
        let (target, program) = program(mcpu, source);
        let mut wave = Wave::new();
        wave.set_exec(u64::MAX);
        let old = target.gen().is_si_ci() || target.gen() == gcnkit_isa::Gen::Gfx8;
        wave.mode = Mode {
            bits: if old { MODE_GFX6 } else { MODE_GFX9 },
        };
        let mut mem = Memory::new();
        let mut lds = vec![0u8; lds_size];
        setup(&mut wave, &mut mem, &mut lds);
        let gds = crate::gds::Gds::new(1, crate::gds::DispatchShape::SINGLE_WAVE);
        let mut env = Env {
            target: &target,
            mem: &mem,
            lds: &mut lds,
            program: &program,
            apertures: Apertures {
                shared_base: SHARED_BASE,
                private_base: PRIVATE_BASE,
            },
            clock: 0,
            trap_aborts: true,
            gds: &gds,
        };
        let mut fault = None;
        loop {
            match run_wave(&mut wave, &program, &mut env, 1_000_000) {
                Ok(Flow::Barrier) => continue,
                Ok(_) => break,
                Err(e) => {
                    fault = Some(e);
                    break;
                }
            }
        }
        (fault, Run { wave, mem, lds })
    }

    /// Every row of `encodings` on every generation where it exists, as an instruction with
    /// all fields 0, with the semantic function its family selects (`None`: not emulated).
    pub fn coverage(
        encodings: &[gcnkit_isa::Encoding],
    ) -> Vec<(String, Option<crate::exec::ExecFn>)> {
        use gcnkit_isa::{Form, Instruction, Target, INSTRUCTIONS, PROCESSORS};
        let mut out = Vec::new();
        for (id, def) in INSTRUCTIONS.iter().enumerate() {
            if !encodings.contains(&def.encoding) {
                continue;
            }
            for p in PROCESSORS {
                if !def.exists_on(p) {
                    continue;
                }
                let inst = Instruction {
                    id: id as gcnkit_isa::InstrId,
                    gen: p.gen,
                    encoding: def.encoding,
                    form: Form::Native,
                    bits: 0,
                    ext: None,
                    len: 8,
                };
                let target = Target::new(p);
                let ctx = crate::program::BuildContext { target: &target };
                let mut op = crate::program::blank_op(inst, 0);
                let f = crate::semantics::select(&inst, &mut op, &ctx);
                out.push((format!("{} on {}", def.mnemonic, p.name), f));
            }
        }
        out
    }

    /// The little-endian dword of `bytes` at `at`.
    pub fn dword(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    }

    /// Writes a little-endian dword into `bytes` at `at`.
    pub fn put(bytes: &mut [u8], at: usize, x: u32) {
        bytes[at..at + 4].copy_from_slice(&x.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::harness::{dword, put, run};
    use crate::wave::sreg;

    const LANE_ALL_BUT_0: u64 = !1;

    #[test]
    fn every_ds_row_has_semantics_on_every_generation() {
        let rows = super::harness::coverage(&[gcnkit_isa::Encoding::Ds]);
        let missing: Vec<_> = rows
            .iter()
            .filter(|(_, f)| f.is_none())
            .map(|(n, _)| n)
            .collect();
        assert!(rows.len() > 1000, "{}", rows.len());
        assert!(missing.is_empty(), "{missing:?}");
    }

    // ---- plain loads and stores (CLRX GcnInstrsDs.md DS_WRITE_B32 / DS_READ_B32) -----------

    #[test]
    fn write_and_read_b32_with_offset_under_exec() {
        let r = run(
            "gfx900",
            "ds_write_b32 v0, v1 offset:8\nds_read_b32 v2, v0 offset:8",
            1024,
            |w, _, _| {
                for l in 0..64 {
                    w.v[0][l] = 4 * l as u32;
                    w.v[1][l] = 100 + l as u32;
                    w.v[2][l] = 0xdead;
                }
                w.set_exec(LANE_ALL_BUT_0);
            },
        )
        .unwrap();
        // Lane 0 is off: its dword (8..12) is untouched and its v2 keeps its value.
        assert_eq!(dword(&r.lds, 8), 0);
        assert_eq!(r.wave.v[2][0], 0xdead);
        for l in 1..64 {
            assert_eq!(dword(&r.lds, 8 + 4 * l), 100 + l as u32);
            assert_eq!(r.wave.v[2][l], 100 + l as u32);
        }
    }

    #[test]
    fn sub_dword_reads_zero_and_sign_extend() {
        // LDS bytes 0..4 = 7f fe 81 80.
        let src =
            "ds_read_u8 v2, v0 offset:1\nds_read_i8 v3, v0 offset:1\nds_read_u16 v4, v0 offset:2\n\
                   ds_read_i16 v5, v0 offset:2\nds_read_i8 v6, v0\nds_read_u16 v7, v0 offset:1";
        for (cpu, unaligned_u16) in [("gfx900", 0x81fe), ("gfx803", 0xfe7f)] {
            let r = run(cpu, src, 256, |w, _, lds| {
                put(lds, 0, 0x8081_fe7f);
                w.s[sreg::M0 as usize] = u32::MAX;
            })
            .unwrap();
            let v = &r.wave.v;
            assert_eq!(v[2][9], 0xfe);
            assert_eq!(v[3][9], 0xffff_fffe);
            assert_eq!(v[4][9], 0x8081);
            assert_eq!(v[5][9], 0xffff_8081);
            assert_eq!(v[6][9], 0x7f);
            // gfx9+ reads at the exact byte address; gfx6-8 drop bit 0 of a 16-bit address.
            assert_eq!(v[7][9], unaligned_u16, "{cpu}");
        }
    }

    #[test]
    fn d16_reads_replace_one_half_and_d16_hi_writes_take_the_high_half() {
        let src =
            "ds_read_u8_d16 v1, v0\nds_read_i8_d16_hi v2, v0\nds_read_u16_d16_hi v3, v0 offset:2\n\
                   ds_read_i8_d16 v4, v0 offset:3\nds_write_b16_d16_hi v0, v5 offset:8\n\
                   ds_write_b8_d16_hi v0, v5 offset:12";
        let r = run("gfx900", src, 256, |w, _, lds| {
            put(lds, 0, 0x8081_fe7f);
            w.v[1] = [0x1234_5678; 64];
            w.v[2] = [0x1234_5678; 64];
            w.v[3] = [0x1234_5678; 64];
            w.v[4] = [0x1234_5678; 64];
            w.v[5] = [0xabcd_1234; 64];
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!(v[1][0], 0x1234_007f);
        assert_eq!(v[2][0], 0x007f_5678); // 0x7f sign-extended to 16 bits is 0x007f
        assert_eq!(v[3][0], 0x8081_5678);
        assert_eq!(v[4][0], 0x1234_ff80); // byte 3 = 0x80 -> 0xff80
        assert_eq!(&r.lds[8..11], &[0xcd, 0xab, 0]);
        assert_eq!(&r.lds[12..14], &[0xcd, 0]);
    }

    #[test]
    fn wide_reads_and_writes() {
        let src = "ds_write_b128 v0, v[4:7] offset:16\nds_write_b96 v0, v[4:6] offset:48\n\
                   ds_read_b64 v[8:9], v0 offset:20\nds_read_b128 v[10:13], v0 offset:16\n\
                   ds_read_b96 v[14:16], v0 offset:48";
        let r = run("gfx900", src, 256, |w, _, _| {
            for k in 0..4 {
                w.v[4 + k] = [0x1111_1111 * (k as u32 + 1); 64];
            }
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!([v[8][3], v[9][3]], [0x2222_2222, 0x3333_3333]);
        assert_eq!(
            [v[10][3], v[11][3], v[12][3], v[13][3]],
            [0x1111_1111, 0x2222_2222, 0x3333_3333, 0x4444_4444]
        );
        assert_eq!(
            [v[14][3], v[15][3], v[16][3]],
            [0x1111_1111, 0x2222_2222, 0x3333_3333]
        );
        assert_eq!(dword(&r.lds, 60), 0);
    }

    #[test]
    fn gfx8_wide_accesses_ignore_low_address_bits() {
        // (ADDR+OFFSET) & ~7 for b64 and & ~15 for b128 on GCN 1.0-1.2.
        let src = "ds_write_b64 v0, v[4:5] offset:12\nds_write_b128 v0, v[4:7] offset:36";
        let r = run("gfx803", src, 256, |w, _, _| {
            w.s[sreg::M0 as usize] = u32::MAX;
            for k in 0..4 {
                w.v[4 + k] = [k as u32 + 1; 64];
            }
        })
        .unwrap();
        assert_eq!([dword(&r.lds, 8), dword(&r.lds, 12)], [1, 2]);
        assert_eq!(
            [
                dword(&r.lds, 32),
                dword(&r.lds, 36),
                dword(&r.lds, 40),
                dword(&r.lds, 44)
            ],
            [1, 2, 3, 4]
        );
    }

    #[test]
    fn read2_write2_and_their_st64_forms() {
        // write2_b32 offsets are dwords; st64 forms scale by 64 elements (256 / 512 bytes).
        let src = "ds_write2_b32 v0, v1, v2 offset0:1 offset1:3\n\
                   ds_write2st64_b32 v0, v2, v1 offset0:1 offset1:2\n\
                   ds_write2st64_b64 v0, v[4:5], v[6:7] offset0:2 offset1:3\n\
                   ds_read2_b32 v[8:9], v0 offset0:3 offset1:1\n\
                   ds_read2st64_b32 v[10:11], v0 offset0:2 offset1:1\n\
                   ds_read2_b64 v[12:15], v0 offset0:128 offset1:192";
        let r = run("gfx900", src, 4096, |w, _, _| {
            w.v[1] = [0xa1; 64];
            w.v[2] = [0xb2; 64];
            for k in 0..4 {
                w.v[4 + k] = [0xc0 + k as u32; 64];
            }
        })
        .unwrap();
        let l = &r.lds;
        assert_eq!([dword(l, 4), dword(l, 12)], [0xa1, 0xb2]);
        assert_eq!([dword(l, 256), dword(l, 512)], [0xb2, 0xa1]);
        assert_eq!(
            [
                dword(l, 1024),
                dword(l, 1028),
                dword(l, 1536),
                dword(l, 1540)
            ],
            [0xc0, 0xc1, 0xc2, 0xc3]
        );
        let v = &r.wave.v;
        assert_eq!([v[8][7], v[9][7]], [0xb2, 0xa1]);
        assert_eq!([v[10][7], v[11][7]], [0xa1, 0xb2]);
        // read2_b64 offsets are in 8-byte units: 128*8 = 1024, 192*8 = 1536.
        assert_eq!(
            [v[12][7], v[13][7], v[14][7], v[15][7]],
            [0xc0, 0xc1, 0xc2, 0xc3]
        );
    }

    #[test]
    fn addtid_forms_use_m0_plus_offset_plus_four_per_lane() {
        let src = "ds_write_addtid_b32 v1 offset:8\nds_read_addtid_b32 v2 offset:8";
        let r = run("gfx900", src, 1024, |w, _, _| {
            w.s[sreg::M0 as usize] = 0x1_0100; // only M0[15:0] counts
            for l in 0..64 {
                w.v[1][l] = l as u32 * 3;
            }
        })
        .unwrap();
        for l in 0..64 {
            assert_eq!(dword(&r.lds, 0x108 + 4 * l), 3 * l as u32);
            assert_eq!(r.wave.v[2][l], 3 * l as u32);
        }
    }

    // ---- range checks (docs/emulator-abi.md §13.1) ------------------------------------------

    #[test]
    fn gfx9_out_of_range_reads_give_zero_and_writes_are_dropped_per_dword() {
        // A 64-byte allocation: dword 60 is in range, 64 is not.
        let src = "ds_write_b64 v0, v[2:3] offset:60\nds_read_b64 v[4:5], v0 offset:56\n\
                   ds_read_b64 v[6:7], v0 offset:60\nds_read_b32 v8, v0 offset:64";
        let r = run("gfx900", src, 64, |w, _, _| {
            w.v[2] = [0x1111; 64];
            w.v[3] = [0x2222; 64];
            w.v[4] = [7; 64];
            w.v[5] = [7; 64];
            w.v[8] = [7; 64];
        })
        .unwrap();
        assert_eq!(dword(&r.lds, 60), 0x1111);
        let v = &r.wave.v;
        assert_eq!([v[4][0], v[5][0]], [0, 0x1111]);
        assert_eq!([v[6][0], v[7][0]], [0x1111, 0]);
        assert_eq!(v[8][0], 0);
    }

    #[test]
    fn gfx8_m0_bounds_lds_accesses_and_gfx9_ignores_it() {
        let src = "ds_write_b32 v0, v1 offset:28\nds_write_b32 v0, v1 offset:32\n\
                   ds_read_b32 v2, v0 offset:28\nds_read_b32 v3, v0 offset:32";
        let setup = |w: &mut crate::wave::Wave, _: &mut crate::memory::Memory, _: &mut Vec<u8>| {
            w.s[sreg::M0 as usize] = 32;
            w.v[1] = [5; 64];
            w.v[3] = [9; 64];
        };
        let r = run("gfx803", src, 256, setup).unwrap();
        assert_eq!([dword(&r.lds, 28), dword(&r.lds, 32)], [5, 0]);
        assert_eq!([r.wave.v[2][0], r.wave.v[3][0]], [5, 0]);
        let r = run("gfx900", src, 256, setup).unwrap();
        assert_eq!([dword(&r.lds, 28), dword(&r.lds, 32)], [5, 5]);
        assert_eq!([r.wave.v[2][0], r.wave.v[3][0]], [5, 5]);
    }

    #[test]
    fn out_of_range_atomics_do_nothing_and_return_zero() {
        let r = run(
            "gfx900",
            "ds_add_rtn_u32 v2, v0, v1 offset:64",
            64,
            |w, _, _| {
                w.v[1] = [1; 64];
                w.v[2] = [7; 64];
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[2][0], 0);
        assert!(r.lds.iter().all(|&b| b == 0));
    }

    // ---- atomics (CLRX GcnInstrsDs.md operation listings) --------------------------------

    #[test]
    fn atomics_of_one_wave_to_one_address_apply_in_lane_order() {
        let r = run(
            "gfx900",
            "ds_add_rtn_u32 v2, v0, v1 offset:16",
            256,
            |w, _, _| {
                w.v[1] = [1; 64];
                w.v[2] = [0xdead; 64];
                w.set_exec(!(1u64 << 10));
            },
        )
        .unwrap();
        // Lanes 0..9 see 0..9, lane 10 is off, lanes 11..63 see 10..62; 63 adds in all.
        for l in 0..64 {
            let want = match l {
                0..=9 => l as u32,
                10 => 0xdead,
                _ => l as u32 - 1,
            };
            assert_eq!(r.wave.v[2][l], want, "lane {l}");
        }
        assert_eq!(dword(&r.lds, 16), 63);
    }

    #[test]
    fn inc_and_dec_wrap_at_the_data_value() {
        let src = "ds_inc_rtn_u32 v2, v0, v1\nds_dec_rtn_u32 v3, v0, v4 offset:4";
        let r = run("gfx900", src, 256, |w, _, _| {
            w.v[1] = [3; 64];
            w.v[4] = [2; 64];
        })
        .unwrap();
        // inc: old >= 3 ? 0 : old + 1 -> 0,1,2,3,0,...; dec: old == 0 || old > 2 ? 2 : old - 1.
        for l in 0..64 {
            assert_eq!(r.wave.v[2][l], l as u32 % 4);
            assert_eq!(r.wave.v[3][l], [0, 2, 1][l % 3]);
        }
        // After 64 incs the last old value was 3 -> 0; after 64 decs the last old (lane 63,
        // 63 % 3 = 0 -> value 0) became 2.
        assert_eq!([dword(&r.lds, 0), dword(&r.lds, 4)], [0, 2]);
    }

    #[test]
    fn compare_store_takes_the_compare_value_from_data0() {
        // DS_CMPST_RTN_B32: *V = (*V == VDATA0) ? VDATA1 : *V.
        let r = run(
            "gfx900",
            "ds_write_b32 v0, v5\nds_cmpst_rtn_b32 v2, v0, v1, v3",
            256,
            |w, _, _| {
                w.v[5] = [5; 64];
                w.v[1] = [5; 64];
                w.v[3] = [9; 64];
                w.set_exec(0b11);
            },
        )
        .unwrap();
        assert_eq!([r.wave.v[2][0], r.wave.v[2][1]], [5, 9]);
        assert_eq!(dword(&r.lds, 0), 9);
    }

    #[test]
    fn bitwise_minmax_and_subtract_atomics() {
        let src = "ds_write_b32 v0, v10 offset:0\nds_mskor_rtn_b32 v2, v0, v11, v12\n\
                   ds_write_b32 v0, v13 offset:4\nds_max_i32 v0, v14 offset:4\n\
                   ds_write_b32 v0, v13 offset:8\nds_max_u32 v0, v14 offset:8\n\
                   ds_write_b32 v0, v14 offset:12\nds_rsub_u32 v0, v15 offset:12\n\
                   ds_write_b32 v0, v16 offset:16\nds_wrap_rtn_b32 v3, v0, v17, v18 offset:16\n\
                   ds_wrap_rtn_b32 v4, v0, v17, v18 offset:16";
        let r = run("gfx900", src, 256, |w, _, _| {
            w.set_exec(1);
            w.v[10][0] = 0xff00_ff00;
            w.v[11][0] = 0x0000_ffff;
            w.v[12][0] = 0x0000_1234;
            w.v[13][0] = 0x8000_0000;
            w.v[14][0] = 5;
            w.v[15][0] = 3;
            w.v[16][0] = 10;
            w.v[17][0] = 7;
            w.v[18][0] = 100;
        })
        .unwrap();
        assert_eq!(r.wave.v[2][0], 0xff00_ff00);
        assert_eq!(dword(&r.lds, 0), 0xff00_1234); // (old & ~0xffff) | 0x1234
        assert_eq!(dword(&r.lds, 4), 5); // max(i32::MIN, 5)
        assert_eq!(dword(&r.lds, 8), 0x8000_0000); // max(2^31, 5) unsigned
        assert_eq!(dword(&r.lds, 12), 0xffff_fffe); // 3 - 5
                                                    // wrap: 10 >= 7 -> 3; then 3 < 7 -> 3 + 100.
        assert_eq!([r.wave.v[3][0], r.wave.v[4][0]], [10, 3]);
        assert_eq!(dword(&r.lds, 16), 103);
    }

    #[test]
    fn atomics_64_bit() {
        let src = "ds_write_b64 v0, v[10:11]\nds_add_rtn_u64 v[2:3], v0, v[12:13]\n\
                   ds_cmpst_rtn_b64 v[4:5], v0, v[14:15], v[16:17]\n\
                   ds_write_b64 v0, v[10:11] offset:8\nds_min_i64 v0, v[12:13] offset:8";
        let r = run("gfx900", src, 256, |w, _, _| {
            w.set_exec(1);
            w.v[10][0] = 0xffff_ffff; // 0x0000_0000_ffff_ffff
            w.v[12][0] = 1;
            w.v[14][0] = 0; // compare value 0x1_0000_0000
            w.v[15][0] = 1;
            w.v[16][0] = 0x55;
            w.v[17][0] = 0x66;
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!([v[2][0], v[3][0]], [0xffff_ffff, 0]);
        assert_eq!([v[4][0], v[5][0]], [0, 1]); // the carried sum, which matched
        assert_eq!([dword(&r.lds, 0), dword(&r.lds, 4)], [0x55, 0x66]);
        assert_eq!([dword(&r.lds, 8), dword(&r.lds, 12)], [1, 0]);
    }

    #[test]
    fn wrxchg2_returns_both_old_values() {
        let src = "ds_write2_b32 v0, v10, v11 offset1:5\nds_wrxchg2_rtn_b32 v[2:3], v0, v12, v13 offset1:5";
        let r = run("gfx900", src, 256, |w, _, _| {
            w.set_exec(1);
            w.v[10][0] = 1;
            w.v[11][0] = 2;
            w.v[12][0] = 3;
            w.v[13][0] = 4;
        })
        .unwrap();
        assert_eq!([r.wave.v[2][0], r.wave.v[3][0]], [1, 2]);
        assert_eq!([dword(&r.lds, 0), dword(&r.lds, 20)], [3, 4]);
    }

    #[test]
    fn float_atomics() {
        let f = |x: f32| x.to_bits();
        let src = "ds_write_b32 v0, v10\nds_add_rtn_f32 v2, v0, v11\n\
                   ds_write_b32 v0, v12 offset:4\nds_min_rtn_f32 v3, v0, v11 offset:4\n\
                   ds_write_b32 v0, v13 offset:8\nds_max_f32 v0, v14 offset:8\n\
                   ds_write_b32 v0, v13 offset:12\nds_min_f32 v0, v14 offset:12\n\
                   ds_write_b32 v0, v13 offset:16\nds_cmpst_f32 v0, v14, v11 offset:16";
        let r = run("gfx900", src, 256, |w, _, _| {
            w.set_exec(1);
            w.v[10][0] = f(1.5);
            w.v[11][0] = f(2.25);
            w.v[12][0] = 0x7fc0_0000; // NaN
            w.v[13][0] = f(0.0);
            w.v[14][0] = f(-0.0);
        })
        .unwrap();
        assert_eq!(r.wave.v[2][0], f(1.5));
        assert_eq!(dword(&r.lds, 0), f(3.75));
        // minNum(NaN, 2.25) = 2.25
        assert_eq!(dword(&r.lds, 4), f(2.25));
        // max(+0, -0) = +0; min(+0, -0) = -0
        assert_eq!(dword(&r.lds, 8), f(0.0));
        assert_eq!(dword(&r.lds, 12), f(-0.0));
        // +0 == -0 as floats, so the store happens.
        assert_eq!(dword(&r.lds, 16), f(2.25));
    }

    #[test]
    fn lds_float_add_follows_the_mode_denormal_setting() {
        // 0x00000001 is the smallest f32 denormal; adding +0 keeps it unless MODE flushes f32
        // denormals (the gfx6-8 OpenCL default).
        let src = "ds_write_b32 v0, v10\nds_add_f32 v0, v11";
        let setup = |w: &mut crate::wave::Wave, _: &mut crate::memory::Memory, _: &mut Vec<u8>| {
            w.s[sreg::M0 as usize] = u32::MAX;
            w.v[10] = [1; 64];
            w.v[11] = [0; 64];
            w.set_exec(1);
        };
        assert_eq!(dword(&run("gfx900", src, 64, setup).unwrap().lds, 0), 1);
        assert_eq!(dword(&run("gfx803", src, 64, setup).unwrap().lds, 0), 0);
    }

    #[test]
    fn f64_and_packed_float_atomics() {
        let src = "ds_write_b64 v0, v[10:11]\nds_add_rtn_f64 v[2:3], v0, v[12:13]\n\
                   ds_write_b32 v0, v14 offset:8\nds_pk_add_rtn_f16 v4, v0, v15 offset:8\n\
                   ds_write_b32 v0, v16 offset:12\nds_pk_add_bf16 v0, v17 offset:12";
        let r = run("gfx940", src, 256, |w, _, _| {
            w.set_exec(1);
            let one = 1.0f64.to_bits();
            let tiny = 2f64.powi(-60).to_bits();
            w.v[10][0] = one as u32;
            w.v[11][0] = (one >> 32) as u32;
            w.v[12][0] = tiny as u32;
            w.v[13][0] = (tiny >> 32) as u32;
            w.v[14][0] = 0x3c00_3c00; // f16 (1.0, 1.0)
            w.v[15][0] = 0x4000_3800; // f16 (hi 2.0, lo 0.5)
            w.v[16][0] = 0x3f80_4000; // bf16 (hi 1.0, lo 2.0)
            w.v[17][0] = 0x3f80_3f80; // bf16 (1.0, 1.0)
        })
        .unwrap();
        let sum = (1.0f64 + 2f64.powi(-60)).to_bits();
        assert_eq!(
            [dword(&r.lds, 0), dword(&r.lds, 4)],
            [sum as u32, (sum >> 32) as u32]
        );
        assert_eq!([r.wave.v[2][0], r.wave.v[3][0]], [0, 0x3ff0_0000]);
        assert_eq!(r.wave.v[4][0], 0x3c00_3c00);
        assert_eq!(dword(&r.lds, 8), 0x4200_3e00); // (3.0, 1.5)
        assert_eq!(dword(&r.lds, 12), 0x4000_4040); // (2.0, 3.0)
    }

    #[test]
    fn src2_forms_combine_two_lds_locations() {
        // offset 1: B = A + 1 dword; offset 0x8000: A = addr[16:0], B = A + 4 * addr[31:17].
        let src = "ds_add_src2_u32 v0 offset:1\nds_max_src2_u32 v1 offset:32768\nds_write_src2_b64 v2 offset:2";
        let r = run("gfx900", src, 256, |w, _, lds| {
            w.set_exec(1);
            w.v[0][0] = 8;
            w.v[1][0] = 2 << 17 | 0x20;
            w.v[2][0] = 0x40;
            put(lds, 8, 5);
            put(lds, 12, 7);
            put(lds, 0x20, 1);
            put(lds, 0x28, 9);
            put(lds, 0x48, 0xaa);
            put(lds, 0x4c, 0xbb);
        })
        .unwrap();
        assert_eq!(dword(&r.lds, 8), 12);
        assert_eq!(dword(&r.lds, 0x20), 9);
        assert_eq!([dword(&r.lds, 0x40), dword(&r.lds, 0x44)], [0xaa, 0xbb]);
    }

    // ---- counters, GDS, lane exchange -----------------------------------------------------

    #[test]
    fn append_and_consume_count_active_lanes_at_m0_plus_offset() {
        let src = "ds_append v1 offset:4\nds_consume v2 offset:4\nds_consume v3 offset:4";
        let r = run("gfx900", src, 256, |w, _, lds| {
            w.s[sreg::M0 as usize] = 0x10;
            put(lds, 0x14, 7);
            w.set_exec(0x3ff); // 10 lanes
            w.v[1][10] = 0xdead;
        })
        .unwrap();
        assert_eq!(r.wave.v[1][0..10], [7; 10]);
        assert_eq!(r.wave.v[1][10], 0xdead);
        assert_eq!(r.wave.v[2][0], 17);
        assert_eq!(r.wave.v[3][9], 7);
        assert_eq!(dword(&r.lds, 0x14), 0xffff_fffd); // 7 + 10 - 10 - 10
    }

    #[test]
    fn swizzle_bitmask_and_quad_modes() {
        // Bit-mask mode, and=0x1f xor=1: lane l reads l ^ 1. Quad mode 0x801b: lane l reads
        // quad lane 3 - (l & 3).
        let src = "ds_swizzle_b32 v1, v0 offset:0x41f\nds_swizzle_b32 v2, v0 offset:0x801b\n\
                   ds_swizzle_b32 v3, v0 offset:0x3e0";
        let r = run("gfx803", src, 256, |w, _, _| {
            for l in 0..64 {
                w.v[0][l] = 1000 + l as u32;
            }
            w.v[1][6] = 0xdead;
            w.set_exec(!(1u64 << 6));
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!(v[1][4], 1005);
        assert_eq!(v[1][7], 0); // source lane 6 is off
        assert_eq!(v[1][6], 0xdead); // lane 6 itself is not written
        assert_eq!(v[1][33], 1032);
        assert_eq!(
            [v[2][0], v[2][1], v[2][2], v[2][3]],
            [1003, 1002, 1001, 1000]
        );
        assert_eq!(v[2][5], 0); // reads lane 6
                                // and=0 or=31 xor=0: every lane of a half reads its lane 31 / 63.
        assert_eq!([v[3][0], v[3][40]], [1031, 1063]);
    }

    #[test]
    fn bpermute_pulls_and_reads_zero_from_disabled_lanes() {
        let r = run(
            "gfx900",
            "ds_bpermute_b32 v2, v0, v1 offset:4",
            256,
            |w, _, _| {
                for l in 0..64 {
                    w.v[0][l] = 4 * l as u32; // + offset 4: lane l reads lane l + 1
                    w.v[1][l] = 500 + l as u32;
                }
                w.v[2][5] = 0xdead;
                w.set_exec(!(1u64 << 5));
            },
        )
        .unwrap();
        let v = &r.wave.v;
        assert_eq!(v[2][0], 501);
        assert_eq!(v[2][4], 0); // lane 5 is disabled
        assert_eq!(v[2][5], 0xdead);
        assert_eq!(v[2][63], 500); // (252 + 4) / 4 mod 64 = 0
    }

    #[test]
    fn permute_pushes_and_the_highest_source_lane_wins() {
        let src = "ds_permute_b32 v2, v0, v1\nds_permute_b32 v3, v4, v1";
        let r = run("gfx900", src, 256, |w, _, _| {
            for l in 0..64 {
                w.v[0][l] = 4 * ((l as u32 + 1) % 64); // lane l sends to lane l + 1
                w.v[1][l] = 500 + l as u32;
            }
            w.v[4] = [0x100; 64]; // everybody sends to lane 0 (0x100 / 4 mod 64 = 0)
            w.v[2][5] = 0xdead;
            w.set_exec(!(1u64 << 5));
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!(v[2][1], 500);
        assert_eq!(v[2][0], 563);
        assert_eq!(v[2][6], 0); // lane 5 is disabled and sends nothing
        assert_eq!(v[2][5], 0xdead);
        assert_eq!(v[3][0], 563);
        assert_eq!(v[3][1], 0);
    }
}
