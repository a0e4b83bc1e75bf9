//! MUBUF and MTBUF: vector memory through a buffer resource (V#).
//!
//! The V# is read from the four SGPRs at `op.sbase` when the instruction runs (fact sheet
//! §11.4, docs/emulator-abi.md §6): base 47:0, stride 61:48, swizzle enable 63, NUM_RECORDS
//! in word 2, and in word 3 DST_SEL_XYZW, NUM_FORMAT, DATA_FORMAT, ELEMENT_SIZE (gfx6–8; fixed
//! at 4 bytes on gfx9+), INDEX_STRIDE and ADD_TID_ENABLE. With ADD_TID_ENABLE on gfx8+,
//! DATA_FORMAT supplies STRIDE[17:14] for the non-format opcodes.
//!
//! Address (docs/emulator-abi.md §7), per lane, with
//! `index = (idxen ? vgpr : 0) + (add_tid ? lane : 0)` and
//! `offset = (offen ? vgpr : 0) + inst_offset`:
//!
//! - addr64 (gfx6/7): `base + vaddr64 + soffset + inst_offset`;
//! - linear: `base + soffset + index * stride + offset`;
//! - swizzled: `base + soffset + ((index / IS) * stride + (offset / ES) * ES) * IS
//!   + (index % IS) * ES + offset % ES`.
//!
//! Addresses are taken modulo 2^48 (the virtual address width; LLVM relies on it).
//! Multi-dword accesses compute each dword at `offset + 4k` (the swizzle works per element),
//! which gives the fact sheet §9.1 scratch mapping for the private-segment V#. Dword and wider
//! accesses ignore the two low address bits, 16-bit ones bit 0.
//!
//! Range check (docs/emulator-abi.md §7), per dword for `*_dwordx{2,3,4}`, all or nothing for
//! the format opcodes and atomics; out of range, loads give 0 (a format component whose
//! DST_SEL is 1 gives 1), stores and atomics do nothing, returning atomics give 0:
//!
//! - DATA_FORMAT = 0 (an unbound V#): always out of range;
//! - addr64: never; private (ADD_TID and not IDXEN): never;
//! - structured (stride ≠ 0 and (IDXEN or ADD_TID)): `index >= NUM_RECORDS`, and on gfx6–8
//!   also `offset >= stride`;
//! - raw (otherwise): gfx6–8 `offset + soffset >= NUM_RECORDS`; gfx9+ `offset >= NUM_RECORDS`.
//!
//! Format conversion (`buffer_*_format_*` with the V#'s formats and DST_SEL, `tbuffer_*` with
//! the instruction's formats and identity DST_SEL, CLRX GcnMemHandling.md): data formats 8,
//! 16, 8_8, 32, 16_16, 10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10, 8_8_8_8, 32_32,
//! 16_16_16_16, 32_32_32, 32_32_32_32; number formats unorm, snorm, uscaled and sscaled
//! (loads), uint, sint, float (16- and 32-bit components). Other combinations (snorm_ogl, the
//! 10/11-bit floats, normalized 32-bit components, scaled stores) fault as unsupported,
//! naming the format.
//!
//! A global address that is not mapped faults; stores and atomics check every active lane
//! first, so a faulting instruction writes nothing. Atomics go through
//! `Memory::atomic_rmw32/64`. Loads with `tfe` (gfx6–gfx908) are in `tfe.rs`.

// Lane loops index the registers, the result buffers and the EXEC bit by the lane number at
// once; iterator chains over one of them would hide that.
#![allow(clippy::needless_range_loop)]

use gcnkit_isa::{Gen, Instruction, Mnemonic as M};

use super::ds::{self, aop, lds_load, lds_store, rmw32, rmw64, FpEnv};
use super::valu::scalar32;
use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{memflags, BuildContext, Op};
use crate::wave::{sreg, Wave, LANES};

/// Family-private bit of `op.mflags`: gfx9+ rules (fixed 4-byte swizzle element, the gfx9
/// raw range check).
const GFX9: u32 = 1 << 31;
/// Family-private bit: ADD_TID_ENABLE makes DATA_FORMAT the stride bits 17:14 (gfx8+,
/// non-format opcodes).
const STRIDE18: u32 = 1 << 30;

/// A decoded buffer resource.
#[derive(Clone, Copy, Debug)]
struct Rsrc {
    base: u64,
    stride: u64,
    swizzle: bool,
    num_records: u64,
    dst_sel: [u8; 4],
    nfmt: u8,
    dfmt: u8,
    /// Swizzle element size in bytes.
    es: u64,
    /// Swizzle index stride.
    is: u64,
    /// log2 of `es` and `is` (both powers of two), so that swizzling shifts and masks
    /// instead of dividing for every lane.
    es_log2: u32,
    is_log2: u32,
    add_tid: bool,
}

impl Rsrc {
    #[inline(always)]
    fn read(w: &Wave, op: &Op) -> Rsrc {
        let i = op.sbase as usize;
        let (w0, w1, w2, w3) = (w.s[i], w.s[i + 1], w.s[i + 2], w.s[i + 3]);
        let dfmt = ((w3 >> 15) & 15) as u8;
        let add_tid = w3 >> 23 & 1 != 0;
        let mut stride = ((w1 >> 16) & 0x3fff) as u64;
        if add_tid && op.mflags & STRIDE18 != 0 {
            stride |= (dfmt as u64) << 14;
        }
        Rsrc {
            base: w0 as u64 | ((w1 & 0xffff) as u64) << 32,
            stride,
            swizzle: w1 >> 31 != 0,
            num_records: w2 as u64,
            dst_sel: [
                (w3 & 7) as u8,
                (w3 >> 3 & 7) as u8,
                (w3 >> 6 & 7) as u8,
                (w3 >> 9 & 7) as u8,
            ],
            nfmt: ((w3 >> 12) & 7) as u8,
            dfmt,
            es: if op.mflags & GFX9 != 0 {
                4
            } else {
                2 << ((w3 >> 19) & 3)
            },
            is: 8 << ((w3 >> 21) & 3),
            es_log2: if op.mflags & GFX9 != 0 {
                2
            } else {
                1 + ((w3 >> 19) & 3)
            },
            is_log2: 3 + ((w3 >> 21) & 3),
            add_tid,
        }
    }
}

/// One lane's address inputs.
#[derive(Clone, Copy, Debug, Default)]
struct LaneAddr {
    index: u64,
    /// VGPR offset + instruction offset.
    offset: u64,
    /// The 64-bit VGPR address of addr64.
    vaddr64: u64,
}

#[inline(always)]
fn lane_addr(w: &Wave, op: &Op, r: &Rsrc, lane: usize) -> LaneAddr {
    let v0 = w.v[op.vaddr as usize][lane] as u64;
    let v1 = w.v[op.vaddr as usize + 1][lane] as u64;
    let inst = op.imm as u64;
    if op.mflags & memflags::ADDR64 != 0 {
        return LaneAddr {
            index: 0,
            offset: inst,
            vaddr64: v0 | v1 << 32,
        };
    }
    let idxen = op.mflags & memflags::IDXEN != 0;
    let offen = op.mflags & memflags::OFFEN != 0;
    let vindex = if idxen { v0 } else { 0 };
    let voffset = match (idxen, offen) {
        (true, true) => v1,
        (false, true) => v0,
        _ => 0,
    };
    LaneAddr {
        index: vindex + if r.add_tid { lane as u64 } else { 0 },
        offset: voffset + inst,
        vaddr64: 0,
    }
}

/// Buffer addresses are 48-bit virtual addresses and wrap there: LLVM's gfx6 code folds a
/// negative offset into an addr64 access by using base = 0xffff_ffff_ffff (both V# address
/// words -1) with a 64-bit pointer in vaddr, which addresses `pointer - 1` only modulo 2^48.
const ADDRESS_MASK: u64 = (1 << 48) - 1;

/// The device address of byte `extra` (a multiple of 4, or 0) of the lane's access.
#[inline(always)]
fn address(op: &Op, r: &Rsrc, soffset: u64, a: &LaneAddr, extra: u64) -> u64 {
    let offset = a.offset + extra;
    if op.mflags & memflags::ADDR64 != 0 {
        let sum = r.base.wrapping_add(a.vaddr64).wrapping_add(soffset);
        return sum.wrapping_add(offset) & ADDRESS_MASK;
    }
    let buffer_offset = if r.swizzle {
        let (is, es) = (r.is_log2, r.es_log2);
        let (index, offset) = (a.index, offset);
        // (index / IS * stride + offset / ES * ES) * IS + (index % IS) * ES + offset % ES
        (((index >> is) * r.stride + ((offset >> es) << es)) << is)
            + ((index & (r.is - 1)) << es)
            + (offset & (r.es - 1))
    } else {
        a.index * r.stride + offset
    };
    r.base.wrapping_add(soffset).wrapping_add(buffer_offset) & ADDRESS_MASK
}

/// True if byte `extra` of the lane's access is in range.
#[inline(always)]
fn in_range(op: &Op, r: &Rsrc, soffset: u64, a: &LaneAddr, extra: u64) -> bool {
    if r.dfmt == 0 {
        return false;
    }
    if op.mflags & memflags::ADDR64 != 0 {
        return true;
    }
    let idxen = op.mflags & memflags::IDXEN != 0;
    let gfx9 = op.mflags & GFX9 != 0;
    let offset = a.offset + extra;
    if r.add_tid && !idxen {
        true
    } else if r.stride != 0 && (idxen || r.add_tid) {
        a.index < r.num_records && (gfx9 || offset < r.stride)
    } else if gfx9 {
        offset < r.num_records
    } else {
        offset + soffset < r.num_records
    }
}

// ---- selection ---------------------------------------------------------------------------

/// D16 layouts of the format opcodes.
const D32: u8 = 0;
/// Two 16-bit components per register (gfx9+, gfx810).
const D16_PACKED: u8 = 1;
/// One 16-bit component per register, in the low half (gfx801–gfx805).
const D16_UNPACKED: u8 = 2;
/// `*_format_d16_hi_x`: the component in the high half.
const D16_HI: u8 = 3;

/// The semantic function for `inst`, if this family has it.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let gen = inst.gen;
    if gen.is_gfx9_family() {
        op.mflags |= GFX9;
    }
    if gen == Gen::Gfx940 {
        op.mflags |= ds::KEEP_F32_DENORMALS;
    }
    // gfx810 (Stoney) packs D16 like gfx9; the other gfx8 parts use one register per
    // component (the table's +d16unpacked rows).
    let d16 = if ctx.target.processor.unpacked_d16 {
        D16_UNPACKED
    } else {
        D16_PACKED
    };
    let format_op = matches!(
        inst.def().op,
        M::BufferLoadFormatX
            | M::BufferLoadFormatXy
            | M::BufferLoadFormatXyz
            | M::BufferLoadFormatXyzw
            | M::BufferStoreFormatX
            | M::BufferStoreFormatXy
            | M::BufferStoreFormatXyz
            | M::BufferStoreFormatXyzw
            | M::BufferLoadFormatD16X
            | M::BufferLoadFormatD16Xy
            | M::BufferLoadFormatD16Xyz
            | M::BufferLoadFormatD16Xyzw
            | M::BufferStoreFormatD16X
            | M::BufferStoreFormatD16Xy
            | M::BufferStoreFormatD16Xyz
            | M::BufferStoreFormatD16Xyzw
            | M::BufferLoadFormatD16HiX
            | M::BufferStoreFormatD16HiX
    );
    if gen != Gen::Gfx6 && gen != Gen::Gfx7 && !format_op {
        op.mflags |= STRIDE18;
    }
    let lds = op.mflags & memflags::LDS != 0;
    let f: ExecFn = match inst.def().op {
        M::BufferWbinvl1
        | M::BufferWbinvl1Vol
        | M::BufferWbinvl1Sc
        | M::BufferWbl2
        | M::BufferInv
        | M::BufferInvl2 => nothing,

        M::BufferLoadUbyte if lds => load_lds::<1, false>,
        M::BufferLoadSbyte if lds => load_lds::<1, true>,
        M::BufferLoadUshort if lds => load_lds::<2, false>,
        M::BufferLoadSshort if lds => load_lds::<2, true>,
        M::BufferLoadDword if lds => load_lds::<4, false>,
        M::BufferLoadFormatX if lds => load_format::<1, D32, true, true>,
        M::BufferStoreLdsDword => store_from_lds,

        M::BufferLoadUbyte => load_sub::<1, false, 0>,
        M::BufferLoadSbyte => load_sub::<1, true, 0>,
        M::BufferLoadUshort => load_sub::<2, false, 0>,
        M::BufferLoadSshort => load_sub::<2, true, 0>,
        M::BufferLoadUbyteD16 => load_sub::<1, false, 1>,
        M::BufferLoadUbyteD16Hi => load_sub::<1, false, 2>,
        M::BufferLoadSbyteD16 => load_sub::<1, true, 1>,
        M::BufferLoadSbyteD16Hi => load_sub::<1, true, 2>,
        M::BufferLoadShortD16 => load_sub::<2, false, 1>,
        M::BufferLoadShortD16Hi => load_sub::<2, false, 2>,
        M::BufferLoadDword => load_dwords::<1>,
        M::BufferLoadDwordx2 => load_dwords::<2>,
        M::BufferLoadDwordx3 => load_dwords::<3>,
        M::BufferLoadDwordx4 => load_dwords::<4>,
        M::BufferStoreByte => store_sub::<1, 0>,
        M::BufferStoreByteD16Hi => store_sub::<1, 16>,
        M::BufferStoreShort => store_sub::<2, 0>,
        M::BufferStoreShortD16Hi => store_sub::<2, 16>,
        M::BufferStoreDword => store_dwords::<1>,
        M::BufferStoreDwordx2 => store_dwords::<2>,
        M::BufferStoreDwordx3 => store_dwords::<3>,
        M::BufferStoreDwordx4 => store_dwords::<4>,

        M::BufferLoadFormatX => load_format::<1, D32, true, false>,
        M::BufferLoadFormatXy => load_format::<2, D32, true, false>,
        M::BufferLoadFormatXyz => load_format::<3, D32, true, false>,
        M::BufferLoadFormatXyzw => load_format::<4, D32, true, false>,
        M::BufferStoreFormatX => store_format::<1, D32, true>,
        M::BufferStoreFormatXy => store_format::<2, D32, true>,
        M::BufferStoreFormatXyz => store_format::<3, D32, true>,
        M::BufferStoreFormatXyzw => store_format::<4, D32, true>,
        M::TbufferLoadFormatX => load_format::<1, D32, false, false>,
        M::TbufferLoadFormatXy => load_format::<2, D32, false, false>,
        M::TbufferLoadFormatXyz => load_format::<3, D32, false, false>,
        M::TbufferLoadFormatXyzw => load_format::<4, D32, false, false>,
        M::TbufferStoreFormatX => store_format::<1, D32, false>,
        M::TbufferStoreFormatXy => store_format::<2, D32, false>,
        M::TbufferStoreFormatXyz => store_format::<3, D32, false>,
        M::TbufferStoreFormatXyzw => store_format::<4, D32, false>,
        M::BufferLoadFormatD16HiX => load_format::<1, D16_HI, true, false>,
        M::BufferStoreFormatD16HiX => store_format::<1, D16_HI, true>,
        _ if d16 == D16_PACKED => select_d16::<D16_PACKED>(inst)?,
        _ => select_d16::<D16_UNPACKED>(inst)?,
    };
    if op.mflags & memflags::TFE != 0 {
        return Some(super::tfe::select(inst, op, ctx, f));
    }
    Some(f)
}

/// The D16 format opcodes in layout `L`, else the atomics.
fn select_d16<const L: u8>(inst: &Instruction) -> Option<ExecFn> {
    Some(match inst.def().op {
        M::BufferLoadFormatD16X => load_format::<1, L, true, false>,
        M::BufferLoadFormatD16Xy => load_format::<2, L, true, false>,
        M::BufferLoadFormatD16Xyz => load_format::<3, L, true, false>,
        M::BufferLoadFormatD16Xyzw => load_format::<4, L, true, false>,
        M::BufferStoreFormatD16X => store_format::<1, L, true>,
        M::BufferStoreFormatD16Xy => store_format::<2, L, true>,
        M::BufferStoreFormatD16Xyz => store_format::<3, L, true>,
        M::BufferStoreFormatD16Xyzw => store_format::<4, L, true>,
        M::TbufferLoadFormatD16X => load_format::<1, L, false, false>,
        M::TbufferLoadFormatD16Xy => load_format::<2, L, false, false>,
        M::TbufferLoadFormatD16Xyz => load_format::<3, L, false, false>,
        M::TbufferLoadFormatD16Xyzw => load_format::<4, L, false, false>,
        M::TbufferStoreFormatD16X => store_format::<1, L, false>,
        M::TbufferStoreFormatD16Xy => store_format::<2, L, false>,
        M::TbufferStoreFormatD16Xyz => store_format::<3, L, false>,
        M::TbufferStoreFormatD16Xyzw => store_format::<4, L, false>,
        _ => return select_atomic(inst),
    })
}

fn select_atomic(inst: &Instruction) -> Option<ExecFn> {
    use aop::*;
    Some(match inst.def().op {
        M::BufferAtomicSwap => atomic32::<SWAP>,
        M::BufferAtomicCmpswap => atomic32::<CMPST>,
        M::BufferAtomicAdd => atomic32::<ADD>,
        M::BufferAtomicSub => atomic32::<SUB>,
        M::BufferAtomicSmin => atomic32::<MIN_I>,
        M::BufferAtomicUmin => atomic32::<MIN_U>,
        M::BufferAtomicSmax => atomic32::<MAX_I>,
        M::BufferAtomicUmax => atomic32::<MAX_U>,
        M::BufferAtomicAnd => atomic32::<AND>,
        M::BufferAtomicOr => atomic32::<OR>,
        M::BufferAtomicXor => atomic32::<XOR>,
        M::BufferAtomicInc => atomic32::<INC>,
        M::BufferAtomicDec => atomic32::<DEC>,
        M::BufferAtomicAddF32 => atomic32::<ADD_F>,
        M::BufferAtomicPkAddF16 => atomic32::<PK_ADD_F16>,
        M::BufferAtomicFcmpswap => atomic32::<CMPST_F>,
        M::BufferAtomicFmin => atomic32::<MIN_F>,
        M::BufferAtomicFmax => atomic32::<MAX_F>,
        M::BufferAtomicSwapX2 => atomic64::<SWAP>,
        M::BufferAtomicCmpswapX2 => atomic64::<CMPST>,
        M::BufferAtomicAddX2 => atomic64::<ADD>,
        M::BufferAtomicSubX2 => atomic64::<SUB>,
        M::BufferAtomicSminX2 => atomic64::<MIN_I>,
        M::BufferAtomicUminX2 => atomic64::<MIN_U>,
        M::BufferAtomicSmaxX2 => atomic64::<MAX_I>,
        M::BufferAtomicUmaxX2 => atomic64::<MAX_U>,
        M::BufferAtomicAndX2 => atomic64::<AND>,
        M::BufferAtomicOrX2 => atomic64::<OR>,
        M::BufferAtomicXorX2 => atomic64::<XOR>,
        M::BufferAtomicIncX2 => atomic64::<INC>,
        M::BufferAtomicDecX2 => atomic64::<DEC>,
        M::BufferAtomicAddF64 => atomic64::<ADD_F>,
        M::BufferAtomicMinF64 => atomic64::<MIN_F>,
        M::BufferAtomicMaxF64 => atomic64::<MAX_F>,
        M::BufferAtomicFcmpswapX2 => atomic64::<CMPST_F>,
        M::BufferAtomicFminX2 => atomic64::<MIN_F>,
        M::BufferAtomicFmaxX2 => atomic64::<MAX_F>,
        _ => return None,
    })
}

/// Cache write-back / invalidate: memory is coherent in the emulator.
fn nothing(_: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Ok(Flow::Next)
}

// ---- memory access -----------------------------------------------------------------------

#[inline(always)]
fn mem_load(env: &Env<'_>, a: u64, n: usize) -> Result<u32, Fault> {
    Ok(match n {
        1 => env.mem.load_u8(a)? as u32,
        2 => env.mem.load_u16(a & !1)? as u32,
        _ => env.mem.load_u32(a & !3)?,
    })
}

#[inline(always)]
fn mem_store(env: &Env<'_>, a: u64, n: usize, x: u32) -> Result<(), Fault> {
    match n {
        1 => env.mem.store_u8(a, x as u8)?,
        2 => env.mem.store_u16(a & !1, x as u16)?,
        _ => env.mem.store_u32(a & !3, x)?,
    }
    Ok(())
}

/// Checks that the `n` bytes at `a` are mapped.
#[inline(always)]
fn mem_check(env: &Env<'_>, a: u64, n: usize) -> Result<(), Fault> {
    env.mem.load_u8(a)?;
    env.mem.load_u8(a.wrapping_add(n as u64 - 1))?;
    Ok(())
}

#[inline(always)]
fn soffset(w: &Wave, op: &Op, env: &Env<'_>) -> u64 {
    scalar32(w, env, op.soffset) as u64
}

// ---- untyped loads and stores ------------------------------------------------------------

fn load_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let r = Rsrc::read(w, op);
    let so = soffset(w, op, env);
    let mut out = [[0u32; N]; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        let mut k = 0;
        while k < N {
            let e = 4 * k as u64;
            if in_range(op, &r, so, &a, e) {
                let p = address(op, &r, so, &a, e);
                // An aligned pair of contiguous dwords is one 64-bit access, single-copy
                // atomic as on the GPU.
                if k + 1 < N
                    && p.is_multiple_of(8)
                    && in_range(op, &r, so, &a, e + 4)
                    && address(op, &r, so, &a, e + 4) == p + 4
                {
                    let v = env.mem.load_u64(p)?;
                    out[l][k] = v as u32;
                    out[l][k + 1] = (v >> 32) as u32;
                    k += 2;
                    continue;
                }
                out[l][k] = mem_load(env, p, 4)?;
            }
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

/// Byte and short loads: extended to 32 bits (`D16` 0) or into the low (1) / high (2) half.
fn load_sub<const SIZE: usize, const SIGNED: bool, const D16: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let r = Rsrc::read(w, op);
    let so = soffset(w, op, env);
    let mut out = [0u32; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        if in_range(op, &r, so, &a, 0) {
            out[l] = ds::extend::<SIZE, SIGNED>(mem_load(env, address(op, &r, so, &a, 0), SIZE)?);
        }
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

/// Loads into LDS (`lds` bit): lane `l`'s value, extended to a dword as a VGPR load would,
/// goes to LDS at `M0[15:0] + inst_offset + 4 * l` (CLRX GcnMemHandling.md, with the
/// instruction offset as LLVM applies it to the LDS address too); 0 when out of range.
fn load_lds<const SIZE: usize, const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let r = Rsrc::read(w, op);
    let so = soffset(w, op, env);
    let mut out = [0u32; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        if in_range(op, &r, so, &a, 0) {
            out[l] = ds::extend::<SIZE, SIGNED>(mem_load(env, address(op, &r, so, &a, 0), SIZE)?);
        }
    }
    write_lds(w, op, env, exec, &out);
    Ok(Flow::Next)
}

fn write_lds(w: &Wave, op: &Op, env: &mut Env<'_>, exec: u64, out: &[u32; LANES]) {
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
}

/// buffer_store_lds_dword: lane `l` stores the LDS dword at `M0[15:0] + inst_offset + 4 * l`
/// (the address the `lds` loads write, read back the other way; 0 beyond the allocation) to
/// its buffer address, which has no VGPR part (no offen or idxen).
fn store_from_lds(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let r = Rsrc::read(w, op);
    let so = soffset(w, op, env);
    let base = (w.s[sreg::M0 as usize] & 0xffff).wrapping_add(op.imm as u32);
    let len = env.lds.len();
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        if in_range(op, &r, so, &a, 0) {
            mem_check(env, address(op, &r, so, &a, 0) & !3, 4)?;
        }
    }
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        if in_range(op, &r, so, &a, 0) {
            let x = lds_load(env.lds, len, base.wrapping_add(4 * l as u32), 4) as u32;
            mem_store(env, address(op, &r, so, &a, 0), 4, x)?;
        }
    }
    Ok(Flow::Next)
}

fn store_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let r = Rsrc::read(w, op);
    let so = soffset(w, op, env);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        for k in 0..N {
            let e = 4 * k as u64;
            if in_range(op, &r, so, &a, e) {
                mem_check(env, address(op, &r, so, &a, e) & !3, 4)?;
            }
        }
    }
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        let mut k = 0;
        while k < N {
            let e = 4 * k as u64;
            if in_range(op, &r, so, &a, e) {
                let p = address(op, &r, so, &a, e);
                let x = w.v[op.vdata as usize + k][l];
                // An aligned pair of contiguous dwords is one 64-bit store (see load_dwords).
                if k + 1 < N
                    && p.is_multiple_of(8)
                    && in_range(op, &r, so, &a, e + 4)
                    && address(op, &r, so, &a, e + 4) == p + 4
                {
                    let hi = w.v[op.vdata as usize + k + 1][l];
                    env.mem.store_u64(p, x as u64 | (hi as u64) << 32)?;
                    k += 2;
                    continue;
                }
                mem_store(env, p, 4, x)?;
            }
            k += 1;
        }
    }
    Ok(Flow::Next)
}

/// Byte and short stores of vdata bits `SHIFT..` (16 for the d16_hi forms).
fn store_sub<const SIZE: usize, const SHIFT: u32>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let r = Rsrc::read(w, op);
    let so = soffset(w, op, env);
    let mask = !(SIZE as u64 - 1);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        if in_range(op, &r, so, &a, 0) {
            mem_check(env, address(op, &r, so, &a, 0) & mask, SIZE)?;
        }
    }
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        if in_range(op, &r, so, &a, 0) {
            let x = w.v[op.vdata as usize][l] >> SHIFT;
            mem_store(env, address(op, &r, so, &a, 0), SIZE, x)?;
        }
    }
    Ok(Flow::Next)
}

// ---- atomics -----------------------------------------------------------------------------

/// A 32-bit buffer atomic; with glc (sc0) the old value goes to vdata[0]. cmpswap data is
/// `{src, cmp}`. Out of range: nothing happens and 0 is returned.
fn atomic32<const OP: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let r = Rsrc::read(w, op);
    let so = soffset(w, op, env);
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            let a = lane_addr(w, op, &r, l);
            if in_range(op, &r, so, &a, 0) {
                mem_check(env, address(op, &r, so, &a, 0) & !3, 4)?;
            }
        }
    }
    let ret = op.mflags & memflags::GLC != 0;
    let cmp = OP == aop::CMPST || OP == aop::CMPST_F;
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        let (d0, d1) = if cmp {
            (w.v[op.vdata as usize + 1][l], w.v[op.vdata as usize][l])
        } else {
            (w.v[op.vdata as usize][l], 0)
        };
        let mut old = 0;
        if in_range(op, &r, so, &a, 0) {
            let p = address(op, &r, so, &a, 0);
            old = env
                .mem
                .atomic_rmw32(p, |x| rmw32::<OP>(x, d0, d1, FpEnv::global(op)))?;
        }
        if ret {
            w.v[op.vdata as usize][l] = old;
        }
    }
    Ok(Flow::Next)
}

/// A 64-bit buffer atomic; cmpswap data is `{src (2 dwords), cmp (2 dwords)}`.
fn atomic64<const OP: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    let r = Rsrc::read(w, op);
    let so = soffset(w, op, env);
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            let a = lane_addr(w, op, &r, l);
            if in_range(op, &r, so, &a, 0) {
                mem_check(env, address(op, &r, so, &a, 0) & !7, 8)?;
            }
        }
    }
    let ret = op.mflags & memflags::GLC != 0;
    let cmp = OP == aop::CMPST || OP == aop::CMPST_F;
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        let (d0, d1) = if cmp {
            (ds::vreg64(w, op.vdata + 2, l), ds::vreg64(w, op.vdata, l))
        } else {
            (ds::vreg64(w, op.vdata, l), 0)
        };
        let mut old = 0;
        if in_range(op, &r, so, &a, 0) {
            let p = address(op, &r, so, &a, 0);
            old = env
                .mem
                .atomic_rmw64(p, |x| rmw64::<OP>(x, d0, d1, FpEnv::global(op)))?;
        }
        if ret {
            ds::set_vreg64(w, op.vdata, l, old);
        }
    }
    Ok(Flow::Next)
}

// ---- format conversion -------------------------------------------------------------------

/// The layout of a data format: its components as `(shift, bits)` and its size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DataFormat {
    pub(super) count: usize,
    pub(super) comps: [(u32, u32); 4],
    pub(super) bytes: usize,
}

/// CLRX GcnMemHandling.md "MUBUF/MTBUF format conversion": the data formats, components
/// numbered from the lowest bits (10_11_11 is X 11 bits, Y 11 bits, Z 10 bits).
pub(super) fn data_format(dfmt: u8) -> Option<DataFormat> {
    let f = |count, comps, bytes| {
        Some(DataFormat {
            count,
            comps,
            bytes,
        })
    };
    let z = (0, 0);
    match dfmt {
        1 => f(1, [(0, 8), z, z, z], 1),
        2 => f(1, [(0, 16), z, z, z], 2),
        3 => f(2, [(0, 8), (8, 8), z, z], 2),
        4 => f(1, [(0, 32), z, z, z], 4),
        5 => f(2, [(0, 16), (16, 16), z, z], 4),
        6 => f(3, [(0, 11), (11, 11), (22, 10), z], 4),
        7 => f(3, [(0, 10), (10, 11), (21, 11), z], 4),
        8 => f(4, [(0, 2), (2, 10), (12, 10), (22, 10)], 4),
        9 => f(4, [(0, 10), (10, 10), (20, 10), (30, 2)], 4),
        10 => f(4, [(0, 8), (8, 8), (16, 8), (24, 8)], 4),
        11 => f(2, [(0, 32), (32, 32), z, z], 8),
        12 => f(4, [(0, 16), (16, 16), (32, 16), (48, 16)], 8),
        13 => f(3, [(0, 32), (32, 32), (64, 32), z], 12),
        14 => f(4, [(0, 32), (32, 32), (64, 32), (96, 32)], 16),
        _ => None,
    }
}

/// The data formats' names, for fault messages: 0-15 are the buffer formats, 16-19 the
/// image-only packed formats (IMG_DATA_FORMAT).
pub(super) const DFMT_NAMES: [&str; 20] = [
    "invalid",
    "8",
    "16",
    "8_8",
    "32",
    "16_16",
    "10_11_11",
    "11_11_10",
    "10_10_10_2",
    "2_10_10_10",
    "8_8_8_8",
    "32_32",
    "16_16_16_16",
    "32_32_32",
    "32_32_32_32",
    "reserved",
    "5_6_5",
    "1_5_5_5",
    "5_5_5_1",
    "4_4_4_4",
];
/// The number formats' names: 0-7 for buffers, 8-15 the image-only ones (IMG_NUM_FORMAT).
pub(super) const NFMT_NAMES: [&str; 16] = [
    "unorm",
    "snorm",
    "uscaled",
    "sscaled",
    "uint",
    "sint",
    "snorm_ogl",
    "float",
    "reserved",
    "srgb",
    "ubnorm",
    "ubnorm_ogl",
    "ubint",
    "ubscaled",
    "reserved",
    "reserved",
];

fn unsupported_format(op: &Op, dfmt: u8, nfmt: u8, what: &str) -> Fault {
    Fault::Unsupported(format!(
        "{}: buffer format {}/{} {what} is not emulated",
        op.inst.mnemonic(),
        DFMT_NAMES[dfmt as usize & 15],
        NFMT_NAMES[nfmt as usize & 7]
    ))
}

/// True if the number format reads as floating point (its default 1 is 1.0).
fn float_nfmt(nfmt: u8) -> bool {
    !matches!(nfmt, 4 | 5)
}

/// The low `bits` of `x` sign-extended.
#[inline(always)]
pub(super) fn sext(x: u32, bits: u32) -> i32 {
    if bits >= 32 {
        x as i32
    } else {
        ((x << (32 - bits)) as i32) >> (32 - bits)
    }
}

/// An unsigned float of `bits` (10 or 11) bits, the components of the 10_11_11 and 11_11_10
/// float formats: 5 exponent bits with bias 15 above a 5- or 6-bit mantissa, no sign bit,
/// denormals, infinity and NaN as in binary16 (Vega ISA "Buffer data formats"; the same
/// packed-float layout as Direct3D's R11G11B10_FLOAT).
pub(super) fn ufloat(x: u32, bits: u32) -> f32 {
    let mb = bits - 5;
    let m = x & ((1 << mb) - 1);
    let e = (x >> mb) & 31;
    let frac = m as f32 / (1u32 << mb) as f32;
    match e {
        0 => frac * 2f32.powi(-14),
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + frac) * 2f32.powi(e as i32 - 15),
    }
}

/// A component's raw bits converted to the 32-bit register value of the number format.
pub(super) fn unpack(nfmt: u8, bits: u32, x: u32) -> Option<u32> {
    // Normalised values are divided in f64 and rounded once to f32.
    let max = |b: u32| ((1u64 << b) - 1) as f64;
    Some(match (nfmt, bits) {
        (0, 1..=31) => ((x as f64 / max(bits)) as f32).to_bits(),
        (1, 2..=31) => ((sext(x, bits) as f64 / max(bits - 1)).max(-1.0) as f32).to_bits(),
        // SNORM_OGL maps the whole range MIN..MAX onto -1..1 (CLRX GcnMemHandling.md "data:
        // MIN:MAX"): OpenGL's pre-4.2 rule (2c + 1) / (2^b - 1).
        (6, 2..=31) => (((2.0 * sext(x, bits) as f64 + 1.0) / max(bits)) as f32).to_bits(),
        (7, 10 | 11) => ufloat(x, bits).to_bits(),
        (2, _) => (x as f32).to_bits(),
        (3, _) => (sext(x, bits) as f32).to_bits(),
        (4, _) => x,
        (5, _) => sext(x, bits) as u32,
        (7, 32) => x,
        (7, 16) => half::f16::from_bits(x as u16).to_f32().to_bits(),
        _ => return None,
    })
}

/// A 32-bit register value converted to a component's raw bits.
pub(super) fn pack(nfmt: u8, bits: u32, v: u32) -> Option<u32> {
    let mask = if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    let f = f32::from_bits(v);
    let norm = |lo: f32, scale: f64| -> u32 {
        // NaN becomes 0; the product is rounded to nearest even.
        let c = if f.is_nan() { 0.0 } else { f.clamp(lo, 1.0) };
        ((c as f64 * scale).round_ties_even() as i64) as u32
    };
    Some(match (nfmt, bits) {
        (0, 1..=31) => norm(0.0, ((1u64 << bits) - 1) as f64) & mask,
        (1, 2..=31) => norm(-1.0, ((1u64 << (bits - 1)) - 1) as f64) & mask,
        (4 | 5, _) => v & mask,
        (7, 32) => v,
        (7, 16) => half::f16::from_f32(f).to_bits() as u32,
        _ => return None,
    })
}

/// Reads the element's bits (up to 16 bytes) of one lane as four dwords.
#[inline(always)]
fn read_element(
    env: &Env<'_>,
    op: &Op,
    r: &Rsrc,
    so: u64,
    a: &LaneAddr,
    fmt: &DataFormat,
) -> Result<[u32; 4], Fault> {
    let mut raw = [0u32; 4];
    if fmt.bytes < 4 {
        raw[0] = mem_load(env, address(op, r, so, a, 0), fmt.bytes)?;
    } else {
        for (k, x) in raw.iter_mut().enumerate().take(fmt.bytes / 4) {
            *x = mem_load(env, address(op, r, so, a, 4 * k as u64), 4)?;
        }
    }
    Ok(raw)
}

/// True if every dword of the element is in range (format accesses are all or nothing).
#[inline(always)]
fn element_in_range(op: &Op, r: &Rsrc, so: u64, a: &LaneAddr, fmt: &DataFormat) -> bool {
    (0..fmt.bytes.div_ceil(4)).all(|k| in_range(op, r, so, a, 4 * k as u64))
}

#[inline(always)]
pub(super) fn component(raw: &[u32; 4], (shift, bits): (u32, u32)) -> u32 {
    let all =
        raw[0] as u128 | (raw[1] as u128) << 32 | (raw[2] as u128) << 64 | (raw[3] as u128) << 96;
    let mask = if bits >= 32 {
        u32::MAX as u128
    } else {
        (1u128 << bits) - 1
    };
    ((all >> shift) & mask) as u32
}

/// The instruction's (MTBUF) or the V#'s (MUBUF) data and number formats.
#[inline(always)]
fn formats<const FROM_VSHARP: bool>(op: &Op, r: &Rsrc) -> (u8, u8) {
    if FROM_VSHARP {
        (r.dfmt, r.nfmt)
    } else {
        ((op.imm2 & 15) as u8, ((op.imm2 >> 8) & 7) as u8)
    }
}

/// The 16-bit form of a converted component (the d16 opcodes).
#[inline(always)]
pub(super) fn to_d16(nfmt: u8, v: u32) -> u32 {
    if float_nfmt(nfmt) {
        half::f16::from_f32(f32::from_bits(v)).to_bits() as u32
    } else {
        v & 0xffff
    }
}

/// The 32-bit form of a 16-bit register component (the d16 store opcodes).
#[inline(always)]
pub(super) fn from_d16(nfmt: u8, h: u32) -> u32 {
    match nfmt {
        5 => h as u16 as i16 as i32 as u32,
        4 => h & 0xffff,
        _ => half::f16::from_bits(h as u16).to_f32().to_bits(),
    }
}

/// `buffer_load_format_*` (`VSHARP`: formats and DST_SEL from the V#) and
/// `tbuffer_load_format_*` (formats from the instruction, identity DST_SEL): `N` components
/// written as 32-bit values or in a D16 layout; with `LDS` the single component goes to LDS.
fn load_format<const N: usize, const D16: u8, const VSHARP: bool, const LDS: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Next);
    }
    let r = Rsrc::read(w, op);
    let so = soffset(w, op, env);
    let (dfmt, nfmt) = formats::<VSHARP>(op, &r);
    let sel = if VSHARP { r.dst_sel } else { [4, 5, 6, 7] };
    let fmt = if r.dfmt == 0 {
        // An unbound V#: every access is out of range; the format does not matter.
        DataFormat {
            count: 0,
            comps: [(0, 0); 4],
            bytes: 4,
        }
    } else {
        data_format(dfmt)
            .ok_or_else(|| unsupported_format(op, dfmt, nfmt, "(invalid data format)"))?
    };
    let one = if float_nfmt(nfmt) {
        1.0f32.to_bits()
    } else {
        1
    };
    let mut out = [[0u32; 4]; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        // The components X, Y, Z, W of the element; absent ones are (0, 0, 0, 1).
        let mut comp = [0, 0, 0, one];
        let inside = element_in_range(op, &r, so, &a, &fmt);
        if inside {
            let raw = read_element(env, op, &r, so, &a, &fmt)?;
            for (i, c) in comp.iter_mut().enumerate().take(fmt.count) {
                let bits = fmt.comps[i].1;
                *c = unpack(nfmt, bits, component(&raw, fmt.comps[i]))
                    .ok_or_else(|| unsupported_format(op, dfmt, nfmt, "load"))?;
            }
        }
        for i in 0..N {
            out[l][i] = match sel[i] {
                1 => one,
                4..=7 if inside => comp[sel[i] as usize - 4],
                _ => 0,
            };
        }
    }
    if LDS {
        let first: [u32; LANES] = std::array::from_fn(|l| out[l][0]);
        write_lds(w, op, env, exec, &first);
        return Ok(Flow::Next);
    }
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let o = &out[l];
        let v = op.vdst as usize;
        match D16 {
            D32 => {
                for i in 0..N {
                    w.v[v + i][l] = o[i];
                }
            }
            D16_PACKED => {
                if N == 1 {
                    w.v[v][l] = ds::merge_d16::<false>(w.v[v][l], to_d16(nfmt, o[0]));
                } else {
                    for j in 0..N.div_ceil(2) {
                        let lo = to_d16(nfmt, o[2 * j]);
                        let hi = if 2 * j + 1 < N {
                            to_d16(nfmt, o[2 * j + 1])
                        } else {
                            0
                        };
                        w.v[v + j][l] = lo | hi << 16;
                    }
                }
            }
            D16_UNPACKED => {
                for i in 0..N {
                    w.v[v + i][l] = to_d16(nfmt, o[i]);
                }
            }
            _ => w.v[v][l] = ds::merge_d16::<true>(w.v[v][l], to_d16(nfmt, o[0])),
        }
    }
    Ok(Flow::Next)
}

/// `buffer_store_format_*` / `tbuffer_store_format_*`: the whole element is written, with 0
/// in the components the instruction does not provide.
fn store_format<const N: usize, const D16: u8, const VSHARP: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    let r = Rsrc::read(w, op);
    if exec == 0 || r.dfmt == 0 {
        return Ok(Flow::Next);
    }
    let so = soffset(w, op, env);
    let (dfmt, nfmt) = formats::<VSHARP>(op, &r);
    let fmt = data_format(dfmt)
        .ok_or_else(|| unsupported_format(op, dfmt, nfmt, "(invalid data format)"))?;
    let mut elems = [[0u32; 4]; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        // The register values of X, Y, Z, W as 32-bit values.
        let v = op.vdata as usize;
        let reg: [u32; 4] = std::array::from_fn(|i| {
            if i >= N {
                return 0;
            }
            match D16 {
                D32 => w.v[v + i][l],
                D16_PACKED => from_d16(nfmt, w.v[v + i / 2][l] >> (16 * (i % 2))),
                D16_UNPACKED => from_d16(nfmt, w.v[v + i][l]),
                _ => from_d16(nfmt, w.v[v][l] >> 16),
            }
        });
        let mut all = 0u128;
        for i in 0..fmt.count {
            let (shift, bits) = fmt.comps[i];
            let x = if i < N {
                pack(nfmt, bits, reg[i])
                    .ok_or_else(|| unsupported_format(op, dfmt, nfmt, "store"))?
            } else {
                0
            };
            all |= (x as u128) << shift;
        }
        elems[l] = [
            all as u32,
            (all >> 32) as u32,
            (all >> 64) as u32,
            (all >> 96) as u32,
        ];
        if element_in_range(op, &r, so, &a, &fmt) {
            if fmt.bytes < 4 {
                let n = fmt.bytes;
                mem_check(env, address(op, &r, so, &a, 0) & !(n as u64 - 1), n)?;
            } else {
                for k in 0..fmt.bytes / 4 {
                    mem_check(env, address(op, &r, so, &a, 4 * k as u64) & !3, 4)?;
                }
            }
        }
    }
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = lane_addr(w, op, &r, l);
        if !element_in_range(op, &r, so, &a, &fmt) {
            continue;
        }
        if fmt.bytes < 4 {
            mem_store(env, address(op, &r, so, &a, 0), fmt.bytes, elems[l][0])?;
        } else {
            for k in 0..fmt.bytes / 4 {
                mem_store(env, address(op, &r, so, &a, 4 * k as u64), 4, elems[l][k])?;
            }
        }
    }
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    use super::super::ds::harness::{dword, run, run_to_fault};
    use crate::exec::Fault;
    use crate::memory::{Memory, MemoryFault};
    use crate::wave::{sreg, Wave};

    /// Word 3 of a V# (fact sheet §11.4): DST_SEL 98:96.., NUM_FORMAT 110:108, DATA_FORMAT
    /// 114:111, ELEMENT_SIZE 116:115, INDEX_STRIDE 118:117, ADD_TID 119.
    fn word3(sel: [u32; 4], nfmt: u32, dfmt: u32, es: u32, is: u32, add_tid: bool) -> u32 {
        sel[0]
            | sel[1] << 3
            | sel[2] << 6
            | sel[3] << 9
            | nfmt << 12
            | dfmt << 15
            | es << 19
            | is << 21
            | (add_tid as u32) << 23
    }

    const XYZW: [u32; 4] = [4, 5, 6, 7];
    /// A plain dword-format V# word 3 (uint, 32).
    const PLAIN: u32 = 4 << 12 | 4 << 15 | 4 | 5 << 3 | 6 << 6 | 7 << 9;

    /// Puts a V# into s[s..s+4].
    fn vsharp(
        w: &mut Wave,
        s: usize,
        base: u64,
        stride: u32,
        swizzle: bool,
        num_records: u32,
        w3: u32,
    ) {
        w.s[s] = base as u32;
        w.s[s + 1] = (base >> 32) as u32 & 0xffff | stride << 16 | (swizzle as u32) << 31;
        w.s[s + 2] = num_records;
        w.s[s + 3] = w3;
    }

    fn buffer(mem: &mut Memory, n: usize, f: impl Fn(usize) -> u32) -> u64 {
        let a = mem.allocate(4 * n as u64, 256).unwrap();
        let bytes: Vec<u8> = (0..n).flat_map(|i| f(i).to_le_bytes()).collect();
        mem.write(a, &bytes).unwrap();
        a
    }

    fn read32(mem: &Memory, a: u64) -> u32 {
        mem.load_u32(a).unwrap()
    }

    // ---- scratch through MUBUF (fact sheet §9.1, §9.3) ------------------------------------

    /// ROCm's private-segment V# word 3 (fact sheet §9.3): 0x00EA4FAC.
    const SCRATCH_W3: u32 = 0x00ea_4fac;

    #[test]
    fn every_row_has_semantics_on_every_generation() {
        let rows = super::super::ds::harness::coverage(&[
            gcnkit_isa::Encoding::Mubuf,
            gcnkit_isa::Encoding::Mtbuf,
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
    fn rocm_scratch_vsharp_word3_decodes_as_documented() {
        assert_eq!(SCRATCH_W3, word3(XYZW, 4, 4, 1, 3, true));
    }

    #[test]
    fn the_private_segment_vsharp_gives_the_fact_sheet_swizzle() {
        // Private address A of lane L lives at base + soffset + (A/4)*256 + L*4 + A%4, per
        // dword: a dwordx2 at A = 4 + 8 = 12 puts dword 0 at row 3 and dword 1 at row 4.
        for cpu in ["gfx600", "gfx803", "gfx900", "gfx90a"] {
            let mut q = 0;
            let src = "buffer_store_dwordx2 v[2:3], v0, s[0:3], s4 offen offset:8\n\
                       buffer_load_dword v4, off, s[0:3], s4 offset:16\n\
                       buffer_store_byte v5, off, s[0:3], s4 offset:6";
            let r = run(cpu, src, 0, |w, mem, _| {
                q = buffer(mem, 64 * 8 + 64, |_| 0);
                vsharp(w, 0, q, 0, true, 64 * 32 + 256, SCRATCH_W3);
                w.s[4] = 256; // a wave offset in soffset is not swizzled
                w.v[0] = [4; 64];
                for l in 0..64 {
                    w.v[2][l] = 100 + l as u32;
                    w.v[3][l] = 200 + l as u32;
                    w.v[5][l] = 0xaa;
                }
            })
            .unwrap();
            for l in [0u64, 1, 17, 63] {
                assert_eq!(
                    read32(&r.mem, q + 256 + 3 * 256 + 4 * l),
                    100 + l as u32,
                    "{cpu} lane {l}"
                );
                assert_eq!(
                    read32(&r.mem, q + 256 + 4 * 256 + 4 * l),
                    200 + l as u32,
                    "{cpu} lane {l}"
                );
                assert_eq!(r.wave.v[4][l as usize], 200 + l as u32, "{cpu} lane {l}");
                // Byte 6 of lane L: row 1, byte 2 of the lane's dword.
                assert_eq!(
                    read32(&r.mem, q + 256 + 256 + 4 * l),
                    0x00aa_0000,
                    "{cpu} lane {l}"
                );
            }
        }
    }

    // ---- raw and structured buffers and their range checks (docs/emulator-abi.md §7) ------

    #[test]
    fn raw_buffer_range_check_is_per_dword() {
        // NUM_RECORDS = 8: a dwordx4 at offset 4 has only its first dword in range.
        let src = "buffer_load_dwordx4 v[4:7], v0, s[8:11], 0 offen offset:4\n\
                   buffer_store_dwordx2 v[4:5], v0, s[8:11], 0 offen offset:4";
        let mut a = 0;
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 8, |i| 0x10 + i as u32);
            vsharp(w, 8, a, 0, false, 8, PLAIN);
            w.set_exec(1);
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!([v[4][0], v[5][0], v[6][0], v[7][0]], [0x11, 0, 0, 0]);
        // The store writes dword 1 (offset 4) and drops dword 2 (offset 8).
        assert_eq!([read32(&r.mem, a + 4), read32(&r.mem, a + 8)], [0x11, 0x12]);
    }

    #[test]
    fn raw_range_check_counts_soffset_on_gfx8_only() {
        // NUM_RECORDS 8, soffset 4, offset 4: gfx6-8 check 4 + 4 >= 8 (out), gfx9 4 < 8 (in).
        let src = "buffer_load_dword v1, off, s[8:11], s12 offset:4";
        for (cpu, want) in [("gfx803", 0), ("gfx900", 0x12)] {
            let r = run(cpu, src, 0, |w, mem, _| {
                let a = buffer(mem, 4, |i| 0x10 + i as u32);
                vsharp(w, 8, a, 0, false, 8, PLAIN);
                w.s[12] = 4;
                w.v[1] = [7; 64];
            })
            .unwrap();
            assert_eq!(r.wave.v[1][0], want, "{cpu}");
        }
    }

    #[test]
    fn structured_buffers_check_the_index_and_on_gfx8_the_offset() {
        // stride 16, NUM_RECORDS 2 records; v[0:1] = (index, offset).
        let src = "buffer_load_dword v4, v[0:1], s[8:11], 0 idxen offen";
        for (cpu, lane2) in [("gfx803", 0), ("gfx900", 0x14)] {
            let r = run(cpu, src, 0, |w, mem, _| {
                let a = buffer(mem, 16, |i| 0x10 + i as u32);
                vsharp(w, 8, a, 16, false, 2, PLAIN);
                w.set_exec(0b111);
                (w.v[0][0], w.v[1][0]) = (1, 12); // record 1, byte 12: dword 7
                (w.v[0][1], w.v[1][1]) = (2, 0); // index 2 >= 2
                (w.v[0][2], w.v[1][2]) = (0, 16); // offset 16 >= stride
            })
            .unwrap();
            assert_eq!(
                [r.wave.v[4][0], r.wave.v[4][1], r.wave.v[4][2]],
                [0x17, 0, lane2],
                "{cpu}"
            );
        }
    }

    #[test]
    fn addr64_adds_the_64_bit_vaddr_and_is_not_range_checked() {
        // LLVM's gfx6 global-memory V#: base 0, NUM_RECORDS 0, word3 0x0100F000.
        let mut a = 0;
        let src = "buffer_load_dword v4, v[0:1], s[8:11], s12 addr64 offset:4\n\
                   buffer_store_dword v5, v[0:1], s[8:11], 0 addr64 offset:8";
        let r = run("gfx600", src, 0, |w, mem, _| {
            a = buffer(mem, 4, |i| 0x10 + i as u32);
            vsharp(w, 8, 0, 0, false, 0, 0x0100_f000);
            w.s[12] = 4;
            w.v[0] = [a as u32; 64];
            w.v[1] = [(a >> 32) as u32; 64];
            w.v[5] = [0x99; 64];
        })
        .unwrap();
        assert_eq!(r.wave.v[4][0], 0x12);
        assert_eq!(read32(&r.mem, a + 8), 0x99);
    }

    #[test]
    fn addr64_addresses_wrap_at_48_bits() {
        // LLVM (gfx600 image_filter.cl): s[16:17] = -1, s[18:19] = (0, 0x100f000), vaddr = p,
        // to load p[-1]. The all-ones word 1 also sets stride and swizzle, which addr64 ignores.
        let src = "buffer_load_ubyte v8, v[4:5], s[16:19], 0 addr64";
        let r = run("gfx600", src, 0, |w, mem, _| {
            let a = buffer(mem, 2, |i| [0x4433_2211, 0x8877_6655][i]);
            w.s[16..20].copy_from_slice(&[u32::MAX, u32::MAX, 0, 0x0100_f000]);
            let p = a + 5;
            w.v[4] = [p as u32; 64];
            w.v[5] = [(p >> 32) as u32; 64];
        })
        .unwrap();
        assert_eq!(r.wave.v[8][0], 0x55);
    }

    #[test]
    fn an_unbound_vsharp_reads_zero_and_drops_stores() {
        let mut a = 0;
        let src = "buffer_store_dword v5, off, s[8:11], 0\nbuffer_load_dword v4, off, s[8:11], 0";
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 4, |i| 0x10 + i as u32);
            vsharp(w, 8, a, 0, false, 64, PLAIN & !(15 << 15)); // DATA_FORMAT 0
            w.v[4] = [7; 64];
            w.v[5] = [9; 64];
        })
        .unwrap();
        assert_eq!(read32(&r.mem, a), 0x10);
        assert_eq!(r.wave.v[4][0], 0);
    }

    #[test]
    fn a_faulting_store_writes_no_lane() {
        let mut a = 0;
        let (e, r) = run_to_fault(
            "gfx600",
            "buffer_store_dword v5, v[0:1], s[8:11], 0 addr64",
            0,
            |w, mem, _| {
                a = buffer(mem, 64, |_| 0);
                vsharp(w, 8, 0, 0, false, 0, 0x0100_f000);
                for l in 0..64 {
                    let p = if l == 30 {
                        0x7000_0000
                    } else {
                        a + 4 * l as u64
                    };
                    w.v[0][l] = p as u32;
                    w.v[1][l] = (p >> 32) as u32;
                }
                w.v[5] = [9; 64];
            },
        );
        assert_eq!(e, Some(Fault::Memory(MemoryFault::Unmapped(0x7000_0000))));
        assert!(r.mem.read(a, 256).unwrap().iter().all(|&b| b == 0));
    }

    #[test]
    fn disabled_lanes_neither_load_nor_store() {
        let mut a = 0;
        let src = "buffer_store_dword v1, v0, s[8:11], 0 offen\nbuffer_load_dword v2, v0, s[8:11], 0 offen offset:256";
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 128, |i| 1000 + i as u32);
            vsharp(w, 8, a, 0, false, 512, PLAIN);
            for l in 0..64 {
                w.v[0][l] = 4 * l as u32;
                w.v[1][l] = l as u32;
                w.v[2][l] = 0xdead;
            }
            w.set_exec(0x5555_5555_5555_5555); // even lanes
        })
        .unwrap();
        for l in 0..64u64 {
            let even = l % 2 == 0;
            assert_eq!(
                read32(&r.mem, a + 4 * l),
                if even { l as u32 } else { 1000 + l as u32 }
            );
            assert_eq!(
                r.wave.v[2][l as usize],
                if even { 1064 + l as u32 } else { 0xdead }
            );
        }
    }

    // ---- sub-dword and LDS loads ----------------------------------------------------------

    #[test]
    fn sub_dword_loads_and_stores() {
        let mut a = 0;
        let src = "buffer_load_sbyte v1, off, s[8:11], 0 offset:1\nbuffer_load_ushort v2, off, s[8:11], 0 offset:2\n\
                   buffer_load_sshort v3, off, s[8:11], 0 offset:2\nbuffer_load_ubyte_d16_hi v4, off, s[8:11], 0 offset:1\n\
                   buffer_store_short_d16_hi v5, off, s[8:11], 0 offset:8\nbuffer_store_byte v5, off, s[8:11], 0 offset:11";
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 4, |i| [0x8081_fe7f, 0, 0, 0][i]);
            vsharp(w, 8, a, 0, false, 16, PLAIN);
            w.v[4] = [0x1234_5678; 64];
            w.v[5] = [0xa1b2_c3d4; 64];
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!(
            [v[1][0], v[2][0], v[3][0], v[4][0]],
            [0xffff_fffe, 0x8081, 0xffff_8081, 0x00fe_5678]
        );
        assert_eq!(read32(&r.mem, a + 8), 0xd400_a1b2);
    }

    #[test]
    fn lds_loads_write_m0_plus_offset_plus_four_per_lane() {
        let src = "buffer_load_dword v0, s[8:11], 0 offen offset:4 lds\nbuffer_load_sbyte v0, s[8:11], 0 offen offset:12 lds";
        let r = run("gfx900", src, 1024, |w, mem, _| {
            let a = buffer(mem, 70, |i| 0x80 + i as u32);
            vsharp(w, 8, a, 0, false, 280, PLAIN);
            for l in 0..64 {
                w.v[0][l] = 4 * l as u32;
            }
            w.s[sreg::M0 as usize] = 0x100;
        })
        .unwrap();
        // Lane l: element l + 1 to 0x104 + 4l; then byte 0 of element l + 3 (0x83 + l),
        // sign-extended, to 0x10c + 4l.
        assert_eq!(dword(&r.lds, 0x104), 0x81);
        assert_eq!(dword(&r.lds, 0x108), 0x82);
        assert_eq!(dword(&r.lds, 0x10c), 0xffff_ff83);
        assert_eq!(dword(&r.lds, 0x10c + 4 * 63), 0xffff_ffc2);
    }

    #[test]
    fn store_lds_dword_reads_m0_plus_offset_plus_four_per_lane() {
        let mut a = 0;
        let src = "buffer_store_lds_dword s[8:11], s1 offset:4 lds";
        let r = run("gfx900", src, 1024, |w, mem, lds| {
            a = buffer(mem, 8, |_| 0);
            vsharp(w, 8, a, 0, false, 32, PLAIN);
            for (i, b) in lds.iter_mut().enumerate() {
                *b = i as u8;
            }
            w.s[sreg::M0 as usize] = 0x100;
            w.s[1] = 8;
            // One lane, as every lane has the same buffer address.
            w.set_exec(1 << 5);
        })
        .unwrap();
        // Lane 5 reads LDS 0x100 + 4 + 20 = 0x118 and writes buffer byte 8 + 4.
        assert_eq!(read32(&r.mem, a + 12), 0x1b1a_1918);
        assert_eq!(read32(&r.mem, a + 8), 0);
        assert_eq!(read32(&r.mem, a + 16), 0);
    }

    // ---- atomics ------------------------------------------------------------------------

    #[test]
    fn buffer_atomics() {
        let mut a = 0;
        let src = "buffer_atomic_add v1, v0, s[8:11], 0 offen glc\n\
                   buffer_atomic_cmpswap v[2:3], off, s[8:11], 0 offset:4 glc\n\
                   buffer_atomic_dec v4, off, s[8:11], 0 offset:8 glc\n\
                   buffer_atomic_smax_x2 v[6:7], off, s[8:11], 0 offset:16 glc\n\
                   buffer_atomic_cmpswap_x2 v[8:11], off, s[8:11], 0 offset:24 glc\n\
                   buffer_atomic_add v12, off, s[8:11], 0 offset:64 glc";
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 16, |i| {
                [10, 5, 0, 0, 0xffff_fffe, 0xffff_ffff, 1, 2][i.min(7)]
            });
            vsharp(w, 8, a, 0, false, 64, PLAIN);
            w.set_exec(0b11);
            w.v[0] = [0; 64];
            w.v[1] = [3; 64];
            w.v[2] = [8; 64]; // src
            w.v[3] = [5; 64]; // cmp
            w.v[4] = [6; 64];
            w.v[6] = [1; 64]; // smax(-2, 1) = 1
            w.v[7] = [0; 64];
            w.v[8] = [0x33; 64];
            w.v[9] = [0x44; 64];
            w.v[10] = [1; 64]; // cmp 0x2_0000_0001
            w.v[11] = [2; 64];
            w.v[12] = [5; 64];
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!([v[1][0], v[1][1]], [10, 13]);
        assert_eq!(read32(&r.mem, a), 16);
        assert_eq!([v[2][0], v[2][1]], [5, 8]);
        assert_eq!(read32(&r.mem, a + 4), 8);
        // dec of 0 wraps to 6, then 6 -> 5.
        assert_eq!([v[4][0], v[4][1]], [0, 6]);
        assert_eq!(read32(&r.mem, a + 8), 5);
        assert_eq!(
            [v[6][0], v[7][0], v[6][1], v[7][1]],
            [0xffff_fffe, 0xffff_ffff, 1, 0]
        );
        assert_eq!([v[8][0], v[9][0], v[8][1], v[9][1]], [1, 2, 0x33, 0x44]);
        assert_eq!(
            [read32(&r.mem, a + 24), read32(&r.mem, a + 28)],
            [0x33, 0x44]
        );
        // Offset 64 is out of range (NUM_RECORDS 64): nothing happens, 0 comes back.
        assert_eq!(v[12][0], 0);
    }

    #[test]
    fn gfx7_float_atomics_and_gfx90a_add_f32() {
        let src = "buffer_atomic_fmin v1, off, s[8:11], 0 glc\nbuffer_atomic_fcmpswap v[2:3], off, s[8:11], 0 offset:4 glc";
        let mut a = 0;
        let r = run("gfx700", src, 0, |w, mem, _| {
            a = buffer(mem, 2, |i| [2.0f32.to_bits(), 0.0f32.to_bits()][i]);
            vsharp(w, 8, a, 0, false, 8, PLAIN);
            w.set_exec(1);
            w.v[1] = [(-3.0f32).to_bits(); 64];
            w.v[2] = [7.0f32.to_bits(); 64]; // src
            w.v[3] = [(-0.0f32).to_bits(); 64]; // cmp: -0 == +0
        })
        .unwrap();
        assert_eq!(r.wave.v[1][0], 2.0f32.to_bits());
        assert_eq!(read32(&r.mem, a), (-3.0f32).to_bits());
        assert_eq!(read32(&r.mem, a + 4), 7.0f32.to_bits());
        let r = run(
            "gfx90a",
            "buffer_atomic_add_f32 v1, off, s[8:11], 0 glc",
            0,
            |w, mem, _| {
                a = buffer(mem, 1, |_| 1.25f32.to_bits());
                vsharp(w, 8, a, 0, false, 8, PLAIN);
                w.set_exec(0b11);
                w.v[1] = [0.5f32.to_bits(); 64];
            },
        )
        .unwrap();
        assert_eq!(
            [r.wave.v[1][0], r.wave.v[1][1]],
            [1.25f32.to_bits(), 1.75f32.to_bits()]
        );
        assert_eq!(read32(&r.mem, a), 2.25f32.to_bits());
    }

    // ---- formats (CLRX GcnMemHandling.md) ---------------------------------------------------

    #[test]
    fn format_loads_convert_and_apply_dst_sel() {
        // 8_8_8_8 unorm bytes (0x00, 0x80, 0xff, 0x33), DST_SEL = (W, Z, Y, 1).
        let mut a = 0;
        let src = "buffer_load_format_xyzw v[0:3], off, s[8:11], 0\n\
                   buffer_load_format_xyzw v[4:7], off, s[12:15], 0 offset:4\n\
                   buffer_load_format_xy v[8:9], off, s[16:19], 0 offset:8";
        let r = run("gfx900", src, 0, |w, mem, _| {
            a = buffer(mem, 4, |i| [0x33ff_8000, 0xffff_8001, 0x7f81_8001, 0][i]);
            vsharp(
                w,
                8,
                a,
                0,
                false,
                16,
                word3([7, 6, 5, 1], 0, 10, 0, 0, false),
            );
            // 16_16 sint with W missing.
            vsharp(w, 12, a, 0, false, 16, word3(XYZW, 5, 5, 0, 0, false));
            // 8_8 snorm.
            vsharp(w, 16, a, 0, false, 16, word3(XYZW, 1, 3, 0, 0, false));
        })
        .unwrap();
        let v = &r.wave.v;
        let unorm = |x: f64| ((x / 255.0) as f32).to_bits();
        assert_eq!(
            [v[0][0], v[1][0], v[2][0], v[3][0]],
            [unorm(51.0), unorm(255.0), unorm(128.0), 1.0f32.to_bits()]
        );
        assert_eq!(
            [v[4][0], v[5][0], v[6][0], v[7][0]],
            [0xffff_8001, 0xffff_ffff, 0, 1]
        );
        // 0x01 -> 1/127; 0x80 -> -128/127 clamped to -1.0.
        assert_eq!(
            [v[8][0], v[9][0]],
            [((1.0f64 / 127.0) as f32).to_bits(), (-1.0f32).to_bits()]
        );
    }

    #[test]
    fn format_loads_out_of_range_give_zero_except_dst_sel_one() {
        let src = "buffer_load_format_xyzw v[0:3], off, s[8:11], 0 offset:4";
        let r = run("gfx900", src, 0, |w, mem, _| {
            let a = buffer(mem, 2, |_| 0xffff_ffff);
            vsharp(
                w,
                8,
                a,
                0,
                false,
                4,
                word3([4, 1, 5, 7], 4, 10, 0, 0, false),
            );
            w.v[0] = [9; 64];
        })
        .unwrap();
        let v = &r.wave.v;
        assert_eq!([v[0][0], v[1][0], v[2][0], v[3][0]], [0, 1, 0, 0]);
    }

    #[test]
    fn tbuffer_formats_come_from_the_instruction() {
        let mut a = 0;
        let src = "tbuffer_load_format_xy v[0:1], off, s[8:11], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT]\n\
                   tbuffer_store_format_xyzw v[4:7], off, s[8:11], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UNORM] offset:8\n\
                   tbuffer_store_format_xy v[4:5], off, s[8:11], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_SNORM] offset:12";
        let r = run("gfx900", src, 0, |w, mem, _| {
            // The V# says 32 uint; the instruction's format wins.
            a = buffer(mem, 4, |i| [0xc000_3c00, 0, 0, 0][i]);
            vsharp(w, 8, a, 0, false, 16, PLAIN);
            w.set_exec(1);
            w.v[4] = [1.0f32.to_bits(); 64];
            w.v[5] = [0.5f32.to_bits(); 64];
            w.v[6] = [f32::NAN.to_bits(); 64];
            w.v[7] = [2.0f32.to_bits(); 64];
        })
        .unwrap();
        assert_eq!(
            [r.wave.v[0][0], r.wave.v[1][0]],
            [1.0f32.to_bits(), (-2.0f32).to_bits()]
        );
        // unorm 8: 1.0 -> 255, 0.5 -> 127.5 -> 128 (ties to even), NaN -> 0, 2.0 clamps to 255.
        assert_eq!(read32(&r.mem, a + 8), 0xff00_80ff);
        // snorm 16: 1.0 -> 32767, 0.5 -> 16383.5 -> 16384.
        assert_eq!(read32(&r.mem, a + 12), 0x4000_7fff);
    }

    #[test]
    fn d16_format_loads_pack_on_gfx9_and_not_on_gfx8() {
        let src9 = "buffer_load_format_d16_xy v0, off, s[8:11], 0\nbuffer_load_format_d16_hi_x v1, off, s[8:11], 0";
        let r = run("gfx900", src9, 0, |w, mem, _| {
            let a = buffer(mem, 1, |_| 0x0000_00ff);
            vsharp(w, 8, a, 0, false, 4, word3(XYZW, 0, 3, 0, 0, false)); // 8_8 unorm
            w.v[1] = [0x1234_5678; 64];
        })
        .unwrap();
        assert_eq!(r.wave.v[0][0], 0x0000_3c00);
        assert_eq!(r.wave.v[1][0], 0x3c00_5678);
        let r = run(
            "gfx803",
            "buffer_load_format_d16_xy v[0:1], off, s[8:11], 0",
            0,
            |w, mem, _| {
                let a = buffer(mem, 1, |_| 0x0000_ff00);
                vsharp(w, 8, a, 0, false, 4, word3(XYZW, 0, 3, 0, 0, false));
            },
        )
        .unwrap();
        assert_eq!([r.wave.v[0][0], r.wave.v[1][0]], [0, 0x3c00]);
    }

    #[test]
    fn d16_format_stores_read_half_registers() {
        let mut a = 0;
        let r = run(
            "gfx900",
            "buffer_store_format_d16_xy v0, off, s[8:11], 0",
            0,
            |w, mem, _| {
                a = buffer(mem, 1, |_| 0);
                vsharp(w, 8, a, 0, false, 4, word3(XYZW, 7, 5, 0, 0, false)); // 16_16 float
                w.v[0] = [0xc000_3c00; 64];
            },
        )
        .unwrap();
        assert_eq!(read32(&r.mem, a), 0xc000_3c00);
    }

    /// SNORM_OGL (CLRX GcnMemHandling.md, "data: MIN:MAX"): (2c + 1) / (2^b - 1), so 8-bit
    /// -128 -> -1.0, 127 -> 1.0, 0 -> 1/255, -1 -> -1/255.
    #[test]
    fn snorm_ogl_loads_map_min_and_max_to_minus_one_and_one() {
        for (byte, want) in [
            (0x80u32, -1.0f32),
            (0x7f, 1.0),
            (0x00, (1.0f64 / 255.0) as f32),
            (0xff, (-1.0f64 / 255.0) as f32),
        ] {
            let r = run(
                "gfx900",
                "buffer_load_format_x v0, off, s[8:11], 0",
                0,
                |w, mem, _| {
                    let a = buffer(mem, 1, |_| byte);
                    vsharp(w, 8, a, 0, false, 4, word3(XYZW, 6, 1, 0, 0, false));
                },
            )
            .unwrap();
            assert_eq!(r.wave.v[0][0], want.to_bits(), "byte {byte:#x}");
        }
    }

    /// 10_11_11 float (data format 6: X 11 bits at 10:0, Y 11 bits at 21:11, Z 10 bits at
    /// 31:22, CLRX GcnMemHandling.md "two 11-bit and one 10-bit components from lowest bit";
    /// Vega ISA buffer data formats): X = 0x3c0 is
    /// exponent 15, mantissa 0 -> 1.0; Y = 0x3e0 is exponent 15, mantissa 32/64 -> 1.5; Z =
    /// 0x3e0 (10 bits: exponent 31, mantissa 0) -> +inf.
    #[test]
    fn packed_float_components_load() {
        let word = 0x3c0 | 0x3e0 << 11 | 0x3e0 << 22;
        let r = run(
            "gfx900",
            "buffer_load_format_xyz v[0:2], off, s[8:11], 0",
            0,
            |w, mem, _| {
                let a = buffer(mem, 1, |_| word);
                vsharp(w, 8, a, 0, false, 4, word3(XYZW, 7, 6, 0, 0, false));
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[0][0], 1.0f32.to_bits());
        assert_eq!(r.wave.v[1][0], 1.5f32.to_bits());
        assert_eq!(r.wave.v[2][0], f32::INFINITY.to_bits());
    }

    #[test]
    fn unsupported_formats_and_tfe_are_reported() {
        // Stores in a number format the manuals list for reads only (CLRX GcnMemHandling.md,
        // the BufW column): USCALED, SSCALED, SNORM_OGL.
        let e = run(
            "gfx900",
            "buffer_store_format_x v0, off, s[8:11], 0",
            0,
            |w, mem, _| {
                let a = buffer(mem, 1, |_| 0);
                vsharp(w, 8, a, 0, false, 4, word3(XYZW, 6, 1, 0, 0, false)); // 8 snorm_ogl
            },
        )
        .err()
        .unwrap();
        assert!(
            matches!(&e, Fault::Unsupported(m) if m.contains("8/snorm_ogl")),
            "{e:?}"
        );
    }

    /// TFE (MUBUF/MTBUF field tables of the SI/GCN3/Vega manuals; CLRX GcnInstrsMubuf.md):
    /// the VGPR after the data receives the fail status, 0 for a resident (mapped) access,
    /// in range or not; lanes outside EXEC keep theirs.
    #[test]
    fn tfe_loads_write_a_zero_status_after_the_data() {
        let cases = [
            (
                "gfx600",
                "buffer_load_dword v[1:2], v0, s[8:11], 0 offen tfe",
                1,
            ),
            (
                "gfx700",
                "buffer_load_dwordx2 v[1:3], v0, s[8:11], 0 offen tfe",
                2,
            ),
            (
                "gfx803",
                "buffer_load_dwordx4 v[1:5], v0, s[8:11], 0 offen tfe",
                4,
            ),
            (
                "gfx900",
                "buffer_load_ubyte v[1:2], v0, s[8:11], 0 offen tfe",
                1,
            ),
            (
                "gfx908",
                "buffer_load_dwordx3 v[1:4], v0, s[8:11], 0 offen tfe",
                3,
            ),
            (
                "gfx900",
                "buffer_load_format_xy v[1:3], v0, s[8:11], 0 offen tfe",
                2,
            ),
            (
                "gfx900",
                "buffer_load_format_d16_xyz v[1:3], v0, s[8:11], 0 offen tfe",
                2,
            ),
            (
                "gfx803",
                "buffer_load_format_d16_xyz v[1:4], v0, s[8:11], 0 offen tfe",
                3,
            ),
        ];
        for (mcpu, src, n) in cases {
            let r = run(mcpu, src, 0, |w, mem, _| {
                // 16 dwords 0x100 + i; lane l reads at byte offset 4 * (l % 4); lanes 60..63
                // are out of range (offset 64 = NUM_RECORDS) and read 0.
                let a = buffer(mem, 16, |i| 0x100 + i as u32);
                let w3 = word3(XYZW, 4, 4, 1, 0, false); // 32 uint, as the V# of the tests
                vsharp(w, 8, a, 0, false, 64, w3);
                for l in 0..64 {
                    w.v[0][l] = if l >= 60 { 64 } else { 4 * (l as u32 % 4) };
                    w.v[1 + n][l] = 0xdead;
                }
                w.set_exec(!1); // lane 0 off
            })
            .unwrap();
            let st = &r.wave.v[1 + n];
            assert_eq!(st[0], 0xdead, "{mcpu} {src}: lane 0 is off");
            assert!(st[1..].iter().all(|&x| x == 0), "{mcpu} {src}: {st:x?}");
            if src.contains("load_dword") {
                assert_eq!(r.wave.v[1][1], 0x101, "{mcpu} {src}");
                assert_eq!(r.wave.v[1][61], 0, "{mcpu} {src}");
            }
        }
    }

    #[test]
    fn tfe_on_a_store_faults() {
        // The assembler rejects tfe on stores; the word is built by hand (Vega MUBUF layout:
        // word0 [31:26] 111000, OP [24:18] = 28 buffer_store_dword; word1 VDATA [15:8] = 1,
        // SRSRC [20:16] = 2 (s[8:11]), TFE bit 23, SOFFSET [31:24] = 0x80 (constant 0)).
        let e = run("gfx900", ".long 0xe0700000, 0x80820100", 0, |_, _, _| {})
            .err()
            .unwrap();
        assert!(
            matches!(&e, Fault::Unsupported(m) if m.contains("tfe") && m.contains("buffer_store_dword")),
            "{e:?}"
        );
    }

    #[test]
    fn cache_maintenance_is_a_no_op() {
        run(
            "gfx700",
            "buffer_wbinvl1\nbuffer_wbinvl1_vol",
            0,
            |_, _, _| {},
        )
        .unwrap();
        run("gfx90a", "buffer_wbl2\nbuffer_invl2", 0, |_, _, _| {}).unwrap();
    }
}
