//! FLAT, GLOBAL and SCRATCH: vector memory by address.
//!
//! - GLOBAL: `address = (saddr ? SGPR pair + zero-extended vaddr : 64-bit vaddr) + offset`
//!   (offset signed 13-bit).
//! - FLAT: `address = 64-bit vaddr + offset` (unsigned 12-bit from gfx9 on, none on gfx7/8),
//!   then each lane's address is classified by its high 32 bits [ABI §11.2]: the shared
//!   aperture goes to the LDS at the low 32 bits, the private aperture to the lane's scratch
//!   at the low 32 bits, anything else to global memory.
//! - SCRATCH: a per-lane private address `A = (saddr ? SGPR : 0) + (vaddr ? VGPR : 0) + offset`.
//!
//! Private addresses are swizzled per lane as docs/emulator-abi.md §8.1 and the fact sheet
//! §9.1 say: byte `A` of lane `L` lives at `wave_base + (A / 4) * 256 + L * 4 + A % 4`, applied
//! per dword (per byte when an access straddles a dword). `wave_base` is `w.scratch_base`, the
//! wave's slot, on every target: the dispatcher sets it to the value the hardware and the
//! kernel prolog would leave in FLAT_SCRATCH (gfx9+: FLAT_SCRATCH itself; gfx7/8: the hidden
//! private base + FLAT_SCRATCH_HI * 256), so the semantics never read FLAT_SCRATCH. A private
//! access outside the slot (`A + size > w.scratch_per_lane`) stops the wave with an error
//! (docs/emulator-abi.md §13.3).
//!
//! LDS through FLAT follows the DS range rule (0 / dropped) against the allocation; M0 does not
//! bound it (LLVM does not initialise M0 for FLAT instructions on gfx7/8).
//!
//! An unmapped global address faults ([`Fault::Memory`]); stores and atomics check every
//! active lane first, so a faulting instruction writes nothing (docs/emulator-abi.md §13.3).
//! Global atomics use `Memory::atomic_rmw32/64`, so no update is lost between threads. The
//! cache-policy bits (glc/slc, gfx940 sc0/sc1/nt) change nothing, except that glc (sc0) makes an
//! atomic return the old value.

// Lane loops index the registers, the result buffers and the EXEC bit by the lane number at
// once; iterator chains over one of them would hide that.
#![allow(clippy::needless_range_loop)]

use gcnkit_isa::{Encoding, Instruction, Mnemonic as M};

use super::ds::{self, aop, lds_load, lds_store, rmw32, rmw64, FpEnv};
use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::memory::Memory;
use crate::program::{memflags, BuildContext, Op};
use crate::wave::{sreg, Wave, LANES};

/// Segment selectors (const generic `SEG`).
const FLAT: u8 = 0;
const GLOBAL: u8 = 1;
const SCRATCH: u8 = 2;

/// Where one lane's access goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Loc {
    /// A device address.
    Global(u64),
    /// A per-lane private (scratch) address.
    Private(u32),
    /// An LDS byte address.
    Lds(u32),
}

/// The device address of byte `a` of `lane`'s private memory in the wave slot at `base`.
#[inline(always)]
pub(super) fn swizzle(base: u64, lane: usize, a: u32) -> u64 {
    base + (a / 4) as u64 * 256 + lane as u64 * 4 + (a % 4) as u64
}

/// The wave-uniform part of an address: the SGPR base of GLOBAL (64-bit) or SCRATCH (32-bit).
#[inline(always)]
fn scalar_base<const SEG: u8>(w: &Wave, op: &Op) -> u64 {
    if op.mflags & memflags::SADDR == 0 {
        return 0;
    }
    let crate::program::Src::Sreg(i) = op.soffset else {
        return 0;
    };
    if SEG == SCRATCH {
        w.s[i as usize] as u64
    } else {
        w.sreg64(i)
    }
}

/// Where `lane`'s access goes.
#[inline(always)]
fn locate<const SEG: u8>(w: &Wave, op: &Op, env: &Env<'_>, lane: usize, sbase: u64) -> Loc {
    let lo = w.v[op.vaddr as usize][lane];
    match SEG {
        SCRATCH => {
            let v = if op.mflags & memflags::NO_VADDR != 0 {
                0
            } else {
                lo
            };
            Loc::Private((sbase as u32).wrapping_add(v).wrapping_add(op.imm as u32))
        }
        GLOBAL if op.mflags & memflags::SADDR != 0 => {
            Loc::Global(sbase.wrapping_add(lo as u64).wrapping_add(op.imm as u64))
        }
        _ => {
            let hi = w.v[op.vaddr as usize + 1][lane];
            let a = (lo as u64 | (hi as u64) << 32).wrapping_add(op.imm as u64);
            if SEG == GLOBAL {
                return Loc::Global(a);
            }
            let aperture = a >> 32;
            if aperture == env.apertures.shared_base >> 32 {
                Loc::Lds(a as u32)
            } else if aperture == env.apertures.private_base >> 32 {
                Loc::Private(a as u32)
            } else {
                Loc::Global(a)
            }
        }
    }
}

/// The error for a private access outside the wave's slot.
fn outside_slot(w: &Wave, lane: usize, a: u32, n: usize) -> Fault {
    Fault::Unsupported(format!(
        "private (scratch) access of {n} bytes at offset {a:#x} in lane {lane} is outside the \
         wave's {}-byte per-lane scratch slot",
        w.scratch_per_lane
    ))
}

/// Checks that an access of `n` bytes can be made without a fault (used before stores and
/// atomics so that a faulting instruction writes nothing).
#[inline(always)]
pub(super) fn check(w: &Wave, env: &Env<'_>, lane: usize, loc: Loc, n: usize) -> Result<(), Fault> {
    match loc {
        Loc::Global(a) => {
            env.mem.load_u8(a)?;
            env.mem.load_u8(a.wrapping_add(n as u64 - 1))?;
        }
        Loc::Private(a) => {
            if a as u64 + n as u64 > w.scratch_per_lane {
                return Err(outside_slot(w, lane, a, n));
            }
            env.mem.load_u8(swizzle(w.scratch_base, lane, a))?;
            env.mem
                .load_u8(swizzle(w.scratch_base, lane, a + n as u32 - 1))?;
        }
        Loc::Lds(_) => {}
    }
    Ok(())
}

/// Loads `n` (1, 2 or 4) bytes of lane `lane`'s private memory at `a`.
#[inline(always)]
fn private_load(mem: &Memory, base: u64, lane: usize, a: u32, n: usize) -> Result<u32, Fault> {
    if (a % 4) as usize + n <= 4 {
        let p = swizzle(base, lane, a);
        return Ok(match n {
            1 => mem.load_u8(p)? as u32,
            2 => mem.load_u16(p)? as u32,
            _ => mem.load_u32(p)?,
        });
    }
    // The access straddles two dwords of the lane, which are 256 bytes apart.
    let mut x = 0u32;
    for i in 0..n as u32 {
        x |= (mem.load_u8(swizzle(base, lane, a + i))? as u32) << (8 * i);
    }
    Ok(x)
}

/// Stores the low `n` (1, 2 or 4) bytes of `x` to lane `lane`'s private memory at `a`.
#[inline(always)]
fn private_store(
    mem: &Memory,
    base: u64,
    lane: usize,
    a: u32,
    n: usize,
    x: u32,
) -> Result<(), Fault> {
    if (a % 4) as usize + n <= 4 {
        let p = swizzle(base, lane, a);
        match n {
            1 => mem.store_u8(p, x as u8)?,
            2 => mem.store_u16(p, x as u16)?,
            _ => mem.store_u32(p, x)?,
        }
        return Ok(());
    }
    for i in 0..n as u32 {
        mem.store_u8(swizzle(base, lane, a + i), (x >> (8 * i)) as u8)?;
    }
    Ok(())
}

/// Loads `n` (1, 2 or 4) bytes at `loc + off`.
#[inline(always)]
pub(super) fn load(
    w: &Wave,
    env: &Env<'_>,
    lane: usize,
    loc: Loc,
    off: u32,
    n: usize,
) -> Result<u32, Fault> {
    match loc {
        Loc::Global(a) => {
            let a = a.wrapping_add(off as u64);
            Ok(match n {
                1 => env.mem.load_u8(a)? as u32,
                2 => env.mem.load_u16(a)? as u32,
                _ => env.mem.load_u32(a)?,
            })
        }
        Loc::Private(a) => {
            let a = a.wrapping_add(off);
            if a as u64 + n as u64 > w.scratch_per_lane {
                return Err(outside_slot(w, lane, a, n));
            }
            private_load(env.mem, w.scratch_base, lane, a, n)
        }
        Loc::Lds(a) => Ok(lds_load(env.lds, env.lds.len(), a.wrapping_add(off), n) as u32),
    }
}

/// Stores the low `n` (1, 2 or 4) bytes of `x` at `loc + off`.
#[inline(always)]
pub(super) fn store(
    w: &Wave,
    env: &mut Env<'_>,
    lane: usize,
    loc: Loc,
    off: u32,
    n: usize,
    x: u32,
) -> Result<(), Fault> {
    match loc {
        Loc::Global(a) => {
            let a = a.wrapping_add(off as u64);
            match n {
                1 => env.mem.store_u8(a, x as u8)?,
                2 => env.mem.store_u16(a, x as u16)?,
                _ => env.mem.store_u32(a, x)?,
            }
            Ok(())
        }
        Loc::Private(a) => {
            let a = a.wrapping_add(off);
            if a as u64 + n as u64 > w.scratch_per_lane {
                return Err(outside_slot(w, lane, a, n));
            }
            private_store(env.mem, w.scratch_base, lane, a, n, x)
        }
        Loc::Lds(a) => {
            let len = env.lds.len();
            lds_store(env.lds, len, a.wrapping_add(off), n, x as u64);
            Ok(())
        }
    }
}

// ---- selection ---------------------------------------------------------------------------

/// The semantic function for `inst`, if this family has it.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    let seg = match inst.def().encoding {
        Encoding::Global => GLOBAL,
        Encoding::Scratch => SCRATCH,
        _ => FLAT,
    };
    let lds = op.mflags & memflags::LDS != 0;
    if inst.gen == gcnkit_isa::Gen::Gfx940 {
        op.mflags |= ds::KEEP_F32_DENORMALS;
    }
    Some(match seg {
        FLAT => select_seg::<FLAT>(inst, lds)?,
        GLOBAL => select_seg::<GLOBAL>(inst, lds)?,
        _ => select_seg::<SCRATCH>(inst, lds)?,
    })
}

fn select_seg<const S: u8>(inst: &Instruction, lds: bool) -> Option<ExecFn> {
    use aop::*;
    // Load kinds: (bytes, signed). D16: 0 none, 1 low half, 2 high half.
    let f: ExecFn = match inst.def().op {
        // The gfx9-gfx90a `lds` bit turns these loads into LDS loads.
        M::GlobalLoadUbyte | M::ScratchLoadUbyte if lds => load_lds::<S, 1, false>,
        M::GlobalLoadSbyte | M::ScratchLoadSbyte if lds => load_lds::<S, 1, true>,
        M::GlobalLoadUshort | M::ScratchLoadUshort if lds => load_lds::<S, 2, false>,
        M::GlobalLoadSshort | M::ScratchLoadSshort if lds => load_lds::<S, 2, true>,
        M::GlobalLoadDword | M::ScratchLoadDword if lds => load_lds::<S, 4, false>,
        M::GlobalLoadLdsUbyte | M::ScratchLoadLdsUbyte => load_lds::<S, 1, false>,
        M::GlobalLoadLdsSbyte | M::ScratchLoadLdsSbyte => load_lds::<S, 1, true>,
        M::GlobalLoadLdsUshort | M::ScratchLoadLdsUshort => load_lds::<S, 2, false>,
        M::GlobalLoadLdsSshort | M::ScratchLoadLdsSshort => load_lds::<S, 2, true>,
        M::GlobalLoadLdsDword | M::ScratchLoadLdsDword => load_lds::<S, 4, false>,

        M::FlatLoadUbyte | M::GlobalLoadUbyte | M::ScratchLoadUbyte => load_sub::<S, 1, false, 0>,
        M::FlatLoadSbyte | M::GlobalLoadSbyte | M::ScratchLoadSbyte => load_sub::<S, 1, true, 0>,
        M::FlatLoadUshort | M::GlobalLoadUshort | M::ScratchLoadUshort => {
            load_sub::<S, 2, false, 0>
        }
        M::FlatLoadSshort | M::GlobalLoadSshort | M::ScratchLoadSshort => load_sub::<S, 2, true, 0>,
        M::FlatLoadUbyteD16 | M::GlobalLoadUbyteD16 | M::ScratchLoadUbyteD16 => {
            load_sub::<S, 1, false, 1>
        }
        M::FlatLoadUbyteD16Hi | M::GlobalLoadUbyteD16Hi | M::ScratchLoadUbyteD16Hi => {
            load_sub::<S, 1, false, 2>
        }
        M::FlatLoadSbyteD16 | M::GlobalLoadSbyteD16 | M::ScratchLoadSbyteD16 => {
            load_sub::<S, 1, true, 1>
        }
        M::FlatLoadSbyteD16Hi | M::GlobalLoadSbyteD16Hi | M::ScratchLoadSbyteD16Hi => {
            load_sub::<S, 1, true, 2>
        }
        M::FlatLoadShortD16 | M::GlobalLoadShortD16 | M::ScratchLoadShortD16 => {
            load_sub::<S, 2, false, 1>
        }
        M::FlatLoadShortD16Hi | M::GlobalLoadShortD16Hi | M::ScratchLoadShortD16Hi => {
            load_sub::<S, 2, false, 2>
        }
        M::FlatLoadDword | M::GlobalLoadDword | M::ScratchLoadDword => load_dwords::<S, 1>,
        M::FlatLoadDwordx2 | M::GlobalLoadDwordx2 | M::ScratchLoadDwordx2 => load_dwords::<S, 2>,
        M::FlatLoadDwordx3 | M::GlobalLoadDwordx3 | M::ScratchLoadDwordx3 => load_dwords::<S, 3>,
        M::FlatLoadDwordx4 | M::GlobalLoadDwordx4 | M::ScratchLoadDwordx4 => load_dwords::<S, 4>,

        M::FlatStoreByte | M::GlobalStoreByte | M::ScratchStoreByte => store_sub::<S, 1, 0>,
        M::FlatStoreByteD16Hi | M::GlobalStoreByteD16Hi | M::ScratchStoreByteD16Hi => {
            store_sub::<S, 1, 16>
        }
        M::FlatStoreShort | M::GlobalStoreShort | M::ScratchStoreShort => store_sub::<S, 2, 0>,
        M::FlatStoreShortD16Hi | M::GlobalStoreShortD16Hi | M::ScratchStoreShortD16Hi => {
            store_sub::<S, 2, 16>
        }
        M::FlatStoreDword | M::GlobalStoreDword | M::ScratchStoreDword => store_dwords::<S, 1>,
        M::FlatStoreDwordx2 | M::GlobalStoreDwordx2 | M::ScratchStoreDwordx2 => {
            store_dwords::<S, 2>
        }
        M::FlatStoreDwordx3 | M::GlobalStoreDwordx3 | M::ScratchStoreDwordx3 => {
            store_dwords::<S, 3>
        }
        M::FlatStoreDwordx4 | M::GlobalStoreDwordx4 | M::ScratchStoreDwordx4 => {
            store_dwords::<S, 4>
        }

        M::FlatAtomicSwap | M::GlobalAtomicSwap => atomic32::<S, SWAP>,
        M::FlatAtomicCmpswap | M::GlobalAtomicCmpswap => atomic32::<S, CMPST>,
        M::FlatAtomicAdd | M::GlobalAtomicAdd => atomic32::<S, ADD>,
        M::FlatAtomicSub | M::GlobalAtomicSub => atomic32::<S, SUB>,
        M::FlatAtomicSmin | M::GlobalAtomicSmin => atomic32::<S, MIN_I>,
        M::FlatAtomicUmin | M::GlobalAtomicUmin => atomic32::<S, MIN_U>,
        M::FlatAtomicSmax | M::GlobalAtomicSmax => atomic32::<S, MAX_I>,
        M::FlatAtomicUmax | M::GlobalAtomicUmax => atomic32::<S, MAX_U>,
        M::FlatAtomicAnd | M::GlobalAtomicAnd => atomic32::<S, AND>,
        M::FlatAtomicOr | M::GlobalAtomicOr => atomic32::<S, OR>,
        M::FlatAtomicXor | M::GlobalAtomicXor => atomic32::<S, XOR>,
        M::FlatAtomicInc | M::GlobalAtomicInc => atomic32::<S, INC>,
        M::FlatAtomicDec | M::GlobalAtomicDec => atomic32::<S, DEC>,
        M::FlatAtomicAddF32 | M::GlobalAtomicAddF32 => atomic32::<S, ADD_F>,
        M::FlatAtomicPkAddF16 | M::GlobalAtomicPkAddF16 => atomic32::<S, PK_ADD_F16>,
        M::FlatAtomicPkAddBf16 | M::GlobalAtomicPkAddBf16 => atomic32::<S, PK_ADD_BF16>,
        M::FlatAtomicFcmpswap => atomic32::<S, CMPST_F>,
        M::FlatAtomicFmin => atomic32::<S, MIN_F>,
        M::FlatAtomicFmax => atomic32::<S, MAX_F>,

        M::FlatAtomicSwapX2 | M::GlobalAtomicSwapX2 => atomic64::<S, SWAP>,
        M::FlatAtomicCmpswapX2 | M::GlobalAtomicCmpswapX2 => atomic64::<S, CMPST>,
        M::FlatAtomicAddX2 | M::GlobalAtomicAddX2 => atomic64::<S, ADD>,
        M::FlatAtomicSubX2 | M::GlobalAtomicSubX2 => atomic64::<S, SUB>,
        M::FlatAtomicSminX2 | M::GlobalAtomicSminX2 => atomic64::<S, MIN_I>,
        M::FlatAtomicUminX2 | M::GlobalAtomicUminX2 => atomic64::<S, MIN_U>,
        M::FlatAtomicSmaxX2 | M::GlobalAtomicSmaxX2 => atomic64::<S, MAX_I>,
        M::FlatAtomicUmaxX2 | M::GlobalAtomicUmaxX2 => atomic64::<S, MAX_U>,
        M::FlatAtomicAndX2 | M::GlobalAtomicAndX2 => atomic64::<S, AND>,
        M::FlatAtomicOrX2 | M::GlobalAtomicOrX2 => atomic64::<S, OR>,
        M::FlatAtomicXorX2 | M::GlobalAtomicXorX2 => atomic64::<S, XOR>,
        M::FlatAtomicIncX2 | M::GlobalAtomicIncX2 => atomic64::<S, INC>,
        M::FlatAtomicDecX2 | M::GlobalAtomicDecX2 => atomic64::<S, DEC>,
        M::FlatAtomicAddF64 | M::GlobalAtomicAddF64 => atomic64::<S, ADD_F>,
        M::FlatAtomicMinF64 | M::GlobalAtomicMinF64 => atomic64::<S, MIN_F>,
        M::FlatAtomicMaxF64 | M::GlobalAtomicMaxF64 => atomic64::<S, MAX_F>,
        M::FlatAtomicFcmpswapX2 => atomic64::<S, CMPST_F>,
        M::FlatAtomicFminX2 => atomic64::<S, MIN_F>,
        M::FlatAtomicFmaxX2 => atomic64::<S, MAX_F>,
        _ => return None,
    };
    Some(f)
}

// ---- loads -------------------------------------------------------------------------------

/// Loads of `N` dwords. Results are collected first and written when every lane succeeded.
fn load_dwords<const S: u8, const N: usize>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let sbase = scalar_base::<S>(w, op);
    let mut out = [[0u32; N]; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let loc = locate::<S>(w, op, env, l, sbase);
        let mut k = 0;
        while k < N {
            // An aligned pair of global dwords is one 64-bit access, single-copy atomic as
            // on the GPU (64-bit atomic loads compile to these instructions).
            if let (Loc::Global(a), true) = (loc, k + 1 < N) {
                let a = a.wrapping_add(4 * k as u64);
                if a.is_multiple_of(8) {
                    let v = env.mem.load_u64(a)?;
                    out[l][k] = v as u32;
                    out[l][k + 1] = (v >> 32) as u32;
                    k += 2;
                    continue;
                }
            }
            out[l][k] = load(w, env, l, loc, 4 * k as u32, 4)?;
            k += 1;
        }
    }
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            for k in 0..N {
                w.v[op.vdst as usize + k][l] = out[l][k];
            }
        }
    }
    Ok(Flow::Next)
}

/// Byte and short loads, extended to 32 bits (`D16` 0) or into one half of vdst (1 low,
/// 2 high; the value extended to 16 bits).
fn load_sub<const S: u8, const SIZE: usize, const SIGNED: bool, const D16: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let sbase = scalar_base::<S>(w, op);
    let mut out = [0u32; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let loc = locate::<S>(w, op, env, l, sbase);
        out[l] = ds::extend::<SIZE, SIGNED>(load(w, env, l, loc, 0, SIZE)?);
    }
    let d = &mut w.v[op.vdst as usize];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            d[l] = match D16 {
                1 => ds::merge_d16::<false>(d[l], out[l]),
                2 => ds::merge_d16::<true>(d[l], out[l]),
                _ => out[l],
            };
        }
    }
    Ok(Flow::Next)
}

/// Loads into LDS (gfx9-gfx90a `lds` bit, gfx940 `*_load_lds_*`): lane `l`'s value, extended
/// to a dword as a VGPR load would extend it, is written to LDS at
/// `M0[15:0] + offset + 4 * l` (CLRX GcnMemHandling.md "LDS_ADDR = LDS_BASE + (M0&0xffff) +
/// LANEID*4"; LLVM AMDGPUUsage: the instruction offset "applied to both global and LDS
/// address"). Out-of-range LDS writes are dropped.
fn load_lds<const S: u8, const SIZE: usize, const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let sbase = scalar_base::<S>(w, op);
    let mut out = [0u32; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let loc = locate::<S>(w, op, env, l, sbase);
        out[l] = ds::extend::<SIZE, SIGNED>(load(w, env, l, loc, 0, SIZE)?);
    }
    let base = (w.s[sreg::M0 as usize] & 0xffff).wrapping_add(op.imm as u32);
    let len = env.lds.len();
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            lds_store(
                env.lds,
                len,
                base.wrapping_add(4 * l as u32),
                4,
                out[l] as u64,
            );
        }
    }
    Ok(Flow::Next)
}

// ---- stores ------------------------------------------------------------------------------

fn store_dwords<const S: u8, const N: usize>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let sbase = scalar_base::<S>(w, op);
    let mut locs = [Loc::Lds(0); LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            locs[l] = locate::<S>(w, op, env, l, sbase);
            check(w, env, l, locs[l], 4 * N)?;
        }
    }
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let mut k = 0;
        while k < N {
            let x = w.v[op.vdata as usize + k][l];
            // An aligned pair of global dwords is one 64-bit store (see load_dwords).
            if let (Loc::Global(a), true) = (locs[l], k + 1 < N) {
                let a = a.wrapping_add(4 * k as u64);
                if a.is_multiple_of(8) {
                    let hi = w.v[op.vdata as usize + k + 1][l];
                    env.mem.store_u64(a, x as u64 | (hi as u64) << 32)?;
                    k += 2;
                    continue;
                }
            }
            store(w, env, l, locs[l], 4 * k as u32, 4, x)?;
            k += 1;
        }
    }
    Ok(Flow::Next)
}

/// Byte and short stores of vdata bits `SHIFT..` (16 for the d16_hi forms).
fn store_sub<const S: u8, const SIZE: usize, const SHIFT: u32>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let sbase = scalar_base::<S>(w, op);
    let mut locs = [Loc::Lds(0); LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            locs[l] = locate::<S>(w, op, env, l, sbase);
            check(w, env, l, locs[l], SIZE)?;
        }
    }
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            let x = w.v[op.vdata as usize][l] >> SHIFT;
            store(w, env, l, locs[l], 0, SIZE, x)?;
        }
    }
    Ok(Flow::Next)
}

// ---- atomics -----------------------------------------------------------------------------

/// One 32-bit atomic at `loc`: global memory atomically, LDS with the DS rules, private memory
/// as a plain read-modify-write (it belongs to the lane). Returns the old value.
#[inline(always)]
pub(super) fn atomic_at32<const OP: u8>(
    w: &Wave,
    env: &mut Env<'_>,
    lane: usize,
    loc: Loc,
    d0: u32,
    d1: u32,
    fp: FpEnv,
) -> Result<u32, Fault> {
    match loc {
        Loc::Global(a) => Ok(env
            .mem
            .atomic_rmw32(a, |old| rmw32::<OP>(old, d0, d1, fp))?),
        Loc::Lds(a) => {
            let a = a & !3;
            let len = env.lds.len();
            if !ds::lds_in_range(len, a, 4) {
                return Ok(0);
            }
            let old = lds_load(env.lds, len, a, 4) as u32;
            let new = rmw32::<OP>(old, d0, d1, FpEnv::from_mode(w.mode));
            lds_store(env.lds, len, a, 4, new as u64);
            Ok(old)
        }
        Loc::Private(a) => {
            let a = a & !3;
            let old = load(w, env, lane, Loc::Private(a), 0, 4)?;
            store(
                w,
                env,
                lane,
                Loc::Private(a),
                0,
                4,
                rmw32::<OP>(old, d0, d1, fp),
            )?;
            Ok(old)
        }
    }
}

/// One 64-bit atomic at `loc`.
#[inline(always)]
pub(super) fn atomic_at64<const OP: u8>(
    w: &Wave,
    env: &mut Env<'_>,
    lane: usize,
    loc: Loc,
    d0: u64,
    d1: u64,
    fp: FpEnv,
) -> Result<u64, Fault> {
    match loc {
        Loc::Global(a) => Ok(env
            .mem
            .atomic_rmw64(a, |old| rmw64::<OP>(old, d0, d1, fp))?),
        Loc::Lds(a) => {
            let a = a & !7;
            let len = env.lds.len();
            if !ds::lds_in_range(len, a, 8) {
                return Ok(0);
            }
            let old = lds_load(env.lds, len, a, 8);
            let new = rmw64::<OP>(old, d0, d1, FpEnv::from_mode(w.mode));
            lds_store(env.lds, len, a, 8, new);
            Ok(old)
        }
        Loc::Private(a) => {
            let a = a & !7;
            let lo = load(w, env, lane, Loc::Private(a), 0, 4)? as u64;
            let hi = load(w, env, lane, Loc::Private(a), 4, 4)? as u64;
            let old = lo | hi << 32;
            let new = rmw64::<OP>(old, d0, d1, fp);
            store(w, env, lane, Loc::Private(a), 0, 4, new as u32)?;
            store(w, env, lane, Loc::Private(a), 4, 4, (new >> 32) as u32)?;
            Ok(old)
        }
    }
}

/// True for the compare-and-swap operations, whose data is `{new value, compare value}`.
const fn is_cmpswap(op: u8) -> bool {
    op == aop::CMPST || op == aop::CMPST_F
}

/// A 32-bit atomic; with glc (sc0) the old value goes to vdst. cmpswap data is
/// `{src, cmp}` (data[0] is stored when memory equals data[1]).
fn atomic32<const S: u8, const OP: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let sbase = scalar_base::<S>(w, op);
    let mut locs = [Loc::Lds(0); LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            locs[l] = locate::<S>(w, op, env, l, sbase);
            check(w, env, l, locs[l], 4)?;
        }
    }
    let ret = op.mflags & memflags::GLC != 0;
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let (d0, d1) = if is_cmpswap(OP) {
            (w.v[op.vdata as usize + 1][l], w.v[op.vdata as usize][l])
        } else {
            (w.v[op.vdata as usize][l], 0)
        };
        let old = atomic_at32::<OP>(w, env, l, locs[l], d0, d1, FpEnv::global(op))?;
        if ret {
            w.v[op.vdst as usize][l] = old;
        }
    }
    Ok(Flow::Next)
}

/// A 64-bit atomic; cmpswap data is `{src (2 dwords), cmp (2 dwords)}`.
fn atomic64<const S: u8, const OP: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let sbase = scalar_base::<S>(w, op);
    let mut locs = [Loc::Lds(0); LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            locs[l] = locate::<S>(w, op, env, l, sbase);
            check(w, env, l, locs[l], 8)?;
        }
    }
    let ret = op.mflags & memflags::GLC != 0;
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let (d0, d1) = if is_cmpswap(OP) {
            (ds::vreg64(w, op.vdata + 2, l), ds::vreg64(w, op.vdata, l))
        } else {
            (ds::vreg64(w, op.vdata, l), 0)
        };
        let old = atomic_at64::<OP>(w, env, l, locs[l], d0, d1, FpEnv::global(op))?;
        if ret {
            ds::set_vreg64(w, op.vdst, l, old);
        }
    }
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    use super::super::ds::harness::{dword, put, run, run_to_fault, PRIVATE_BASE, SHARED_BASE};
    use crate::exec::Fault;
    use crate::memory::{Memory, MemoryFault};
    use crate::wave::Wave;

    /// Allocates `n` dwords holding `f(i)`.
    fn buffer(mem: &mut Memory, n: usize, f: impl Fn(usize) -> u32) -> u64 {
        let a = mem.allocate(4 * n as u64, 256).unwrap();
        let bytes: Vec<u8> = (0..n).flat_map(|i| f(i).to_le_bytes()).collect();
        mem.write(a, &bytes).unwrap();
        a
    }

    fn set64(w: &mut Wave, r: usize, lane: usize, x: u64) {
        w.v[r][lane] = x as u32;
        w.v[r + 1][lane] = (x >> 32) as u32;
    }

    fn read32(mem: &Memory, a: u64) -> u32 {
        mem.load_u32(a).unwrap()
    }

    // ---- GLOBAL addressing (CLRX GcnInstrsFlat.md; offsets signed 13-bit) ---------------

    #[test]
    fn every_row_has_semantics_on_every_generation() {
        let rows = super::super::ds::harness::coverage(&[
            gcnkit_isa::Encoding::Flat,
            gcnkit_isa::Encoding::Global,
            gcnkit_isa::Encoding::Scratch,
        ]);
        let missing: Vec<_> = rows
            .iter()
            .filter(|(_, f)| f.is_none())
            .map(|(n, _)| n)
            .collect();
        assert!(rows.len() > 500, "{}", rows.len());
        assert!(missing.is_empty(), "{missing:?}");
    }

    #[test]
    fn global_loads_with_vgpr_and_sgpr_bases_and_signed_offsets() {
        let mut base = 0;
        let src = "global_load_dword v2, v[0:1], off offset:-4\nglobal_load_dword v3, v4, s[4:5] offset:8";
        let r = run("gfx900", src, 0, |w, mem, _| {
            base = buffer(mem, 80, |i| 10 * i as u32);
            for l in 0..64 {
                set64(w, 0, l, base + 4 + 4 * l as u64); // - 4 -> element l
                w.v[4][l] = 4 * l as u32; // + 8 -> element l + 2
            }
            w.set_sreg64(4, base);
            w.v[2][3] = 0xdead;
            w.set_exec(!(1u64 << 3));
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!(v[2][0], 0);
        assert_eq!(v[2][63], 630);
        assert_eq!(v[2][3], 0xdead);
        assert_eq!(v[3][0], 20);
        assert_eq!(v[3][63], 650);
    }

    #[test]
    fn sub_dword_loads_extend_and_d16_loads_merge() {
        let src = "global_load_ubyte v2, v[0:1], off offset:1\nglobal_load_sbyte v3, v[0:1], off offset:1\n\
                   global_load_ushort v4, v[0:1], off offset:2\nglobal_load_sshort v5, v[0:1], off offset:2\n\
                   global_load_sbyte_d16_hi v6, v[0:1], off offset:1\nglobal_load_short_d16 v7, v[0:1], off offset:2\n\
                   global_load_dwordx3 v[8:10], v[0:1], off";
        let r = run("gfx900", src, 0, |w, mem, _| {
            let a = buffer(mem, 4, |i| [0x8081_fe7f, 0x2222_2222, 0x3333_3333, 0][i]);
            for l in 0..64 {
                set64(w, 0, l, a);
            }
            w.v[6] = [0x1234_5678; 64];
            w.v[7] = [0x1234_5678; 64];
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!(
            [v[2][0], v[3][0], v[4][0], v[5][0]],
            [0xfe, 0xffff_fffe, 0x8081, 0xffff_8081]
        );
        assert_eq!(v[6][0], 0xfffe_5678);
        assert_eq!(v[7][0], 0x1234_8081);
        assert_eq!(
            [v[8][5], v[9][5], v[10][5]],
            [0x8081_fe7f, 0x2222_2222, 0x3333_3333]
        );
    }

    #[test]
    fn stores_of_every_width() {
        let mut a = 0;
        let src = "global_store_dwordx4 v[0:1], v[4:7], off\nglobal_store_byte v[0:1], v8, off offset:16\n\
                   global_store_byte_d16_hi v[0:1], v8, off offset:17\nglobal_store_short v[0:1], v8, off offset:18\n\
                   global_store_short_d16_hi v[0:1], v8, off offset:20\nglobal_store_dwordx3 v[0:1], v[4:6], off offset:24";
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 16, |_| 0);
            for l in 0..64 {
                set64(w, 0, l, a);
            }
            for k in 0..4 {
                w.v[4 + k] = [k as u32 + 1; 64];
            }
            w.v[8] = [0xa1b2_c3d4; 64];
        })
        .unwrap();
        let b = r.mem.read(a, 40).unwrap();
        assert_eq!(
            [dword(&b, 0), dword(&b, 4), dword(&b, 8), dword(&b, 12)],
            [1, 2, 3, 4]
        );
        assert_eq!(&b[16..24], &[0xd4, 0xb2, 0xd4, 0xc3, 0xb2, 0xa1, 0, 0]);
        assert_eq!(
            [dword(&b, 24), dword(&b, 28), dword(&b, 32), dword(&b, 36)],
            [1, 2, 3, 0]
        );
    }

    #[test]
    fn disabled_lanes_neither_store_nor_load() {
        let mut a = 0;
        let src = "flat_store_dword v[0:1], v2\nflat_load_dword v3, v[0:1] offset:4";
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 65, |i| 1000 + i as u32);
            for l in 0..64 {
                set64(w, 0, l, a + 4 * l as u64);
                w.v[2][l] = l as u32;
                w.v[3][l] = 0xdead;
            }
            w.set_exec(0xffff_0000_ffff_0000);
        })
        .unwrap();
        for l in 0..64u64 {
            let on = (0xffff_0000_ffff_0000u64 >> l) & 1 != 0;
            assert_eq!(
                read32(&r.mem, a + 4 * l),
                if on { l as u32 } else { 1000 + l as u32 }
            );
            // Lane l reads element l + 1, which lane l + 1 may have overwritten.
            let next_on = l < 63 && (0xffff_0000_ffff_0000u64 >> (l + 1)) & 1 != 0;
            let want = if !on {
                0xdead
            } else if next_on {
                l as u32 + 1
            } else {
                1001 + l as u32
            };
            assert_eq!(r.wave.v[3][l as usize], want, "lane {l}");
        }
    }

    // ---- faults (docs/emulator-abi.md §13.3) --------------------------------------------

    #[test]
    fn unmapped_global_loads_fault_with_the_address() {
        let e = run(
            "gfx900",
            "global_load_dword v2, v[0:1], off",
            0,
            |w, _, _| {
                for l in 0..64 {
                    set64(w, 0, l, 0x5000_0000 + 4 * l as u64);
                }
            },
        )
        .err()
        .unwrap();
        assert_eq!(e, Fault::Memory(MemoryFault::Unmapped(0x5000_0000)));
    }

    #[test]
    fn a_store_with_one_unmapped_lane_writes_nothing() {
        let mut a = 0;
        let (e, r) = run_to_fault(
            "gfx900",
            "global_store_dword v[0:1], v2, off",
            0,
            |w, mem, _| {
                a = buffer(mem, 64, |_| 0);
                for l in 0..64 {
                    set64(w, 0, l, a + 4 * l as u64);
                }
                set64(w, 0, 40, 0x5000_0000);
                w.v[2] = [7; 64];
            },
        );
        assert_eq!(e, Some(Fault::Memory(MemoryFault::Unmapped(0x5000_0000))));
        // Lanes 0..39 come before the faulting lane and still wrote nothing.
        assert!(r.mem.read(a, 256).unwrap().iter().all(|&b| b == 0));
    }

    // ---- FLAT apertures and scratch swizzle (fact sheet §9.1, §11.2) ----------------------

    #[test]
    fn flat_addresses_are_classified_by_aperture() {
        let (mut g, mut slot) = (0, 0);
        let src = "flat_store_dword v[0:1], v2\nflat_load_dword v3, v[0:1] offset:4";
        let r = run("gfx900", src, 256, |w, mem, lds| {
            g = buffer(mem, 4, |i| [0, 0x6666, 0, 0][i]);
            slot = buffer(mem, 64 * 16, |_| 0);
            w.scratch_base = slot;
            w.scratch_per_lane = 16;
            set64(w, 0, 0, g); // global
            set64(w, 0, 1, SHARED_BASE + 0x20); // LDS byte 0x20
            set64(w, 0, 2, PRIVATE_BASE + 4); // lane 2's private byte 4
            put(lds, 0x24, 0x7777);
            mem.write(slot + 2 * 256 + 2 * 4, &0x8888u32.to_le_bytes())
                .unwrap();
            w.v[2][..3].copy_from_slice(&[0x1000, 0x1001, 0x1002]);
            w.set_exec(0b111);
        })
        .unwrap();
        assert_eq!(read32(&r.mem, g), 0x1000);
        assert_eq!(dword(&r.lds, 0x20), 0x1001);
        // Private byte 4 of lane 2 is at slot + (4 / 4) * 256 + 2 * 4.
        assert_eq!(read32(&r.mem, slot + 256 + 8), 0x1002);
        assert_eq!(
            [r.wave.v[3][0], r.wave.v[3][1], r.wave.v[3][2]],
            [0x6666, 0x7777, 0x8888]
        );
    }

    #[test]
    fn scratch_swizzle_is_per_dword_and_matches_the_fact_sheet() {
        // A = v0 + 4 = 12: dword 0 of lane l goes to base + 3*256 + 4l, dword 1 to
        // base + 4*256 + 4l.
        let mut slot = 0;
        let src = "scratch_store_dwordx2 v0, v[2:3], off offset:4\nscratch_load_dword v4, off, s2 offset:4";
        let r = run("gfx942", src, 0, |w, mem, _| {
            slot = buffer(mem, 64 * 8, |_| 0);
            w.scratch_base = slot;
            w.scratch_per_lane = 32;
            w.v[0] = [8; 64];
            for l in 0..64 {
                w.v[2][l] = 100 + l as u32;
                w.v[3][l] = 200 + l as u32;
            }
            w.s[2] = 12; // s2 + 4 = 16: the second dword written above
        })
        .unwrap();
        for l in [0usize, 1, 63] {
            assert_eq!(
                read32(&r.mem, slot + 3 * 256 + 4 * l as u64),
                100 + l as u32
            );
            assert_eq!(
                read32(&r.mem, slot + 4 * 256 + 4 * l as u64),
                200 + l as u32
            );
            assert_eq!(r.wave.v[4][l], 200 + l as u32);
        }
    }

    #[test]
    fn unaligned_private_dwords_are_split_at_the_lane_dword_boundary() {
        // Bytes 2..6 of lane 1: bytes 2,3 in row 0, bytes 4,5 in row 1.
        let mut slot = 0;
        let r = run(
            "gfx900",
            "scratch_store_dword v0, v1, off offset:2",
            0,
            |w, mem, _| {
                slot = buffer(mem, 64 * 4, |_| 0);
                w.scratch_base = slot;
                w.scratch_per_lane = 16;
                w.v[1] = [0xa1b2_c3d4; 64];
                w.set_exec(0b10);
            },
        )
        .unwrap();
        assert_eq!(read32(&r.mem, slot + 4), 0xc3d4_0000);
        assert_eq!(read32(&r.mem, slot + 256 + 4), 0x0000_a1b2);
    }

    #[test]
    fn private_accesses_outside_the_slot_stop_the_wave() {
        let e = run(
            "gfx900",
            "scratch_load_dword v1, v0, off offset:4",
            0,
            |w, mem, _| {
                w.scratch_base = buffer(mem, 64 * 4, |_| 0);
                w.scratch_per_lane = 16;
                w.v[0] = [12; 64];
            },
        )
        .err()
        .unwrap();
        assert!(
            matches!(&e, Fault::Unsupported(m) if m.contains("scratch slot")),
            "{e:?}"
        );
    }

    // ---- atomics --------------------------------------------------------------------------

    #[test]
    fn global_atomics_return_old_values_in_lane_order_with_glc() {
        let mut a = 0;
        let src =
            "global_atomic_add v2, v[0:1], v3, off glc\nglobal_atomic_inc v[0:1], v4, off offset:4";
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 2, |_| 0);
            for l in 0..64 {
                set64(w, 0, l, a);
            }
            w.v[3] = [2; 64];
            w.v[4] = [9; 64];
            w.v[2][7] = 0xdead;
            w.set_exec(!(1u64 << 7));
        })
        .unwrap();
        for l in 0..64 {
            let want = match l {
                0..=6 => 2 * l as u32,
                7 => 0xdead,
                _ => 2 * (l as u32 - 1),
            };
            assert_eq!(r.wave.v[2][l], want);
        }
        assert_eq!(read32(&r.mem, a), 126);
        // 63 incs with wrap at 9: 63 mod 10 = 3.
        assert_eq!(read32(&r.mem, a + 4), 3);
    }

    #[test]
    fn cmpswap_data_is_source_then_compare() {
        let mut a = 0;
        let src = "global_atomic_cmpswap v1, v[2:3], v[4:5], off glc\n\
                   global_atomic_cmpswap_x2 v[6:7], v[2:3], v[8:11], off offset:8 glc";
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 4, |i| [5, 0, 0xffff_ffff, 0][i]);
            set64(w, 2, 0, a);
            set64(w, 2, 1, a);
            w.v[4] = [9; 64]; // src
            w.v[5] = [5; 64]; // cmp
            w.v[8] = [0x11; 64]; // src lo
            w.v[9] = [0x22; 64]; // src hi
            w.v[10] = [0xffff_ffff; 64]; // cmp = 0x0000_0000_ffff_ffff
            w.v[11] = [0; 64];
            w.set_exec(0b11);
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!([v[1][0], v[1][1]], [5, 9]); // lane 0 swaps, lane 1 sees 9 != 5
        assert_eq!(read32(&r.mem, a), 9);
        assert_eq!(
            [v[6][0], v[7][0], v[6][1], v[7][1]],
            [0xffff_ffff, 0, 0x11, 0x22]
        );
        assert_eq!(
            [read32(&r.mem, a + 8), read32(&r.mem, a + 12)],
            [0x11, 0x22]
        );
    }

    #[test]
    fn float_atomics_on_global_memory() {
        let mut a = 0;
        let src = "global_atomic_add_f32 v0, v[2:3], v4, off glc\nglobal_atomic_add_f32 v[2:3], v5, off offset:4\n\
                   global_atomic_pk_add_f16 v[2:3], v6, off offset:8\nglobal_atomic_add_f64 v[2:3], v[8:9], off offset:16\n\
                   global_atomic_min_f64 v[2:3], v[10:11], off offset:24";
        let two = 2.0f64.to_bits();
        let r = run("gfx90a", src, 0, |w, mem, _| {
            a = buffer(mem, 8, |i| {
                [
                    1.5f32.to_bits(),
                    1,
                    0x3c00_3c00,
                    0,
                    0,
                    0x3ff0_0000,
                    0,
                    0x4008_0000,
                ][i]
            });
            set64(w, 2, 0, a);
            w.v[4][0] = 2.25f32.to_bits();
            w.v[5][0] = 0; // +0 + the smallest denormal
            w.v[6][0] = 0x4000_3800; // (2.0, 0.5)
            set64(w, 8, 0, two);
            set64(w, 10, 0, two);
            w.set_exec(1);
        })
        .unwrap();
        assert_eq!(r.wave.v[0][0], 1.5f32.to_bits());
        assert_eq!(read32(&r.mem, a), 3.75f32.to_bits());
        // Global f32 atomics flush denormals: 1 (denormal) + 0 = +0.
        assert_eq!(read32(&r.mem, a + 4), 0);
        assert_eq!(read32(&r.mem, a + 8), 0x4200_3e00);
        assert_eq!(r.mem.load_u64(a + 16).unwrap(), 3.0f64.to_bits());
        assert_eq!(r.mem.load_u64(a + 24).unwrap(), 2.0f64.to_bits());
    }

    #[test]
    fn gfx940_f32_atomics_keep_denormals_and_sc0_returns() {
        // The same add as on gfx90a above, where the denormal was flushed.
        let mut a = 0;
        let src = "global_atomic_add_f32 v1, v[2:3], v5, off sc0";
        let r = run("gfx942", src, 0, |w, mem, _| {
            a = buffer(mem, 1, |_| 1);
            set64(w, 2, 0, a);
            w.v[5][0] = 0;
            w.set_exec(1);
        })
        .unwrap();
        assert_eq!(r.wave.v[1][0], 1);
        assert_eq!(read32(&r.mem, a), 1);
    }

    #[test]
    fn gfx7_flat_atomics_and_loads() {
        let mut a = 0;
        let src = "flat_atomic_dec v1, v[2:3], v4 glc\nflat_atomic_fmax v[2:3], v5\nflat_load_dword v6, v[2:3]";
        let r = run("gfx700", src, 0, |w, mem, _| {
            a = buffer(mem, 1, |_| 0);
            set64(w, 2, 0, a);
            w.v[4][0] = 7;
            w.v[5][0] = 1.0f32.to_bits();
            w.set_exec(1);
        })
        .unwrap();
        // dec of 0 wraps to the data value 7; fmax(7 as f32 bits, 1.0) keeps 1.0 (7 is a
        // tiny denormal).
        assert_eq!(r.wave.v[1][0], 0);
        assert_eq!(r.wave.v[6][0], 1.0f32.to_bits());
    }

    #[test]
    fn flat_atomics_reach_the_lds() {
        let r = run(
            "gfx900",
            "flat_atomic_add v1, v[2:3], v4 glc",
            64,
            |w, _, lds| {
                put(lds, 8, 40);
                for l in 0..64 {
                    set64(w, 2, l, SHARED_BASE + 8);
                }
                w.v[4] = [1; 64];
                w.set_exec(0b1111);
            },
        )
        .unwrap();
        assert_eq!([r.wave.v[1][0], r.wave.v[1][3]], [40, 43]);
        assert_eq!(dword(&r.lds, 8), 44);
    }

    #[test]
    fn lds_loads_write_m0_plus_offset_plus_four_per_lane() {
        let src940 = "global_load_lds_dword v[0:1], off offset:4\nglobal_load_lds_ubyte v[0:1], off offset:8";
        let src90a = "global_load_dword v[0:1], off offset:4 lds\nglobal_load_ubyte v[0:1], off offset:8 lds";
        for (cpu, src) in [("gfx942", src940), ("gfx90a", src90a)] {
            let r = run(cpu, src, 1024, |w, mem, _| {
                let a = buffer(mem, 64 * 4, |i| 0x100 + i as u32);
                for l in 0..64 {
                    set64(w, 0, l, a + 4 * l as u64);
                }
                w.s[crate::wave::sreg::M0 as usize] = 0x40;
            })
            .unwrap();
            // Lane l loads element l + 1 into LDS 0x44 + 4l, then byte 0 of element l + 2
            // into 0x48 + 4l (zero-extended), which overwrites all but lane 0's first store.
            assert_eq!(dword(&r.lds, 0x44), 0x101, "{cpu}");
            assert_eq!(dword(&r.lds, 0x48 + 4 * 10), 0x0c, "{cpu}");
            assert_eq!(dword(&r.lds, 0x44 + 4 * 64), 0x41, "{cpu}"); // byte 0 of 0x141
        }
    }
}
