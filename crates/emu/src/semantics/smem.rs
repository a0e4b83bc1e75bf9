//! Scalar memory: SMRD (gfx6/7) and SMEM (gfx8+) loads, stores, atomics, the clock reads
//! and the cache-control no-ops.
//!
//! Operands (resolved by `program.rs`): `op.sbase` is the storage index of the base pair or
//! of the 4-SGPR buffer descriptor (V#), `op.sdst` the first data register, `op.imm` the
//! immediate byte offset (SMRD dword offsets are already scaled to bytes) and `op.soffset`
//! the SGPR (or M0) holding an unsigned byte offset, when the instruction has one.
//!
//! Addresses follow the Vega ISA manual (§ "Scalar Memory Operations") and CLRX's
//! `GcnInstrsSmrd.md` / `GcnInstrsSmem.md`:
//!
//! - `s_load_*`, `s_store_*`, `s_atomic_*`: `base + offset + SGPR offset`, base = the SGPR
//!   pair; the two low bits of the address are ignored.
//! - `s_buffer_*`: the base is V# bits [47:0], no swizzle, no index. Each dword is checked
//!   alone (docs/emulator-abi.md §7): it is out of range when its byte offset `o` (offset +
//!   SGPR offset + 4·i, low two bits cleared) is `>= NUM_RECORDS` (V# bits [95:64]) if STRIDE
//!   (V# bits [61:48]) is 0, else `>= NUM_RECORDS * STRIDE`; loads return 0 for it and stores
//!   drop it. An atomic is checked whole: if any of its dwords is out of range it does nothing
//!   and returns 0. On gfx9+ the immediate offset of the buffer forms is unsigned ("signed
//!   offsets only work with S_LOAD/STORE").
//! - `s_scratch_*` (gfx9): `base + offset + (SGPR offset & !3) · 64`: the SGPR holds a
//!   per-lane byte offset into swizzled scratch, where each per-lane dword spans 64 lanes
//!   (seed 002, S_SCRATCH_LOAD_DWORD).
//!
//! Atomics (gfx9+) return the value memory held before the operation into the data
//! registers when GLC is set; otherwise the data registers keep their value. The compare-swap
//! forms take the new value in the first half of the data and the compare value in the
//! second half, and return only the first half.
//!
//! Memory operations complete before the next instruction, so the cache-control rows
//! (`s_dcache_*`, `s_atc_probe*`) have nothing to do. `s_memtime` reads
//! [`CLOCKS_PER_INSTRUCTION`] × (`env.clock` + the wave's instruction count): deterministic,
//! and two reads of one wave differ by at least the instructions between them. `env.clock`
//! is the dispatcher's to set; when it holds the instructions the launch ran before this
//! wave's current turn, this is the virtual shader clock of docs/emulator-abi.md §12.4.
//! `s_memrealtime` reads the same clock divided by [`REALTIME_DIVISOR`], standing in for
//! the 100 MHz counter.

use gcnkit_isa::{Field, Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{memflags, BuildContext, Op};
use crate::semantics::valu::scalar32;
use crate::wave::{sreg, Wave};

/// Shader-clock ticks per wave instruction of the virtual `s_memtime` clock.
pub const CLOCKS_PER_INSTRUCTION: u64 = 4;

/// How much slower `s_memrealtime` counts than `s_memtime` (a 100 MHz reference clock
/// against a shader clock of about 1.6 GHz).
pub const REALTIME_DIVISOR: u64 = 16;

/// Atomic operation kinds (const parameters of the atomic semantic functions).
mod kind {
    pub const SWAP: u8 = 0;
    pub const ADD: u8 = 1;
    pub const SUB: u8 = 2;
    pub const SMIN: u8 = 3;
    pub const UMIN: u8 = 4;
    pub const SMAX: u8 = 5;
    pub const UMAX: u8 = 6;
    pub const AND: u8 = 7;
    pub const OR: u8 = 8;
    pub const XOR: u8 = 9;
    pub const INC: u8 = 10;
    pub const DEC: u8 = 11;
}
use kind::*;

/// The semantic function for `inst`, if it is a scalar memory instruction.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    let m = inst.def().op;
    if inst.gen.is_gfx9_family() && is_buffer(m) && inst.field(Field::Imm) != 0 {
        // The 21-bit field is unsigned for the buffer forms.
        op.imm = (inst.field(Field::Offset) & 0x1f_ffff) as i64;
    }
    Some(match m {
        M::SLoadDword => s_load::<1>,
        M::SLoadDwordx2 => s_load::<2>,
        M::SLoadDwordx4 => s_load::<4>,
        M::SLoadDwordx8 => s_load::<8>,
        M::SLoadDwordx16 => s_load::<16>,
        M::SBufferLoadDword => s_buffer_load::<1>,
        M::SBufferLoadDwordx2 => s_buffer_load::<2>,
        M::SBufferLoadDwordx4 => s_buffer_load::<4>,
        M::SBufferLoadDwordx8 => s_buffer_load::<8>,
        M::SBufferLoadDwordx16 => s_buffer_load::<16>,
        M::SScratchLoadDword => s_scratch_load::<1>,
        M::SScratchLoadDwordx2 => s_scratch_load::<2>,
        M::SScratchLoadDwordx4 => s_scratch_load::<4>,
        M::SStoreDword => s_store::<1>,
        M::SStoreDwordx2 => s_store::<2>,
        M::SStoreDwordx4 => s_store::<4>,
        M::SBufferStoreDword => s_buffer_store::<1>,
        M::SBufferStoreDwordx2 => s_buffer_store::<2>,
        M::SBufferStoreDwordx4 => s_buffer_store::<4>,
        M::SScratchStoreDword => s_scratch_store::<1>,
        M::SScratchStoreDwordx2 => s_scratch_store::<2>,
        M::SScratchStoreDwordx4 => s_scratch_store::<4>,
        M::SMemtime => s_memtime,
        M::SMemrealtime => s_memrealtime,
        M::SDcacheInv
        | M::SDcacheInvVol
        | M::SDcacheWb
        | M::SDcacheWbVol
        | M::SDcacheDiscard
        | M::SDcacheDiscardX2
        | M::SAtcProbe
        | M::SAtcProbeBuffer => nothing,
        M::SAtomicSwap => atomic32::<false, SWAP>,
        M::SAtomicAdd => atomic32::<false, ADD>,
        M::SAtomicSub => atomic32::<false, SUB>,
        M::SAtomicSmin => atomic32::<false, SMIN>,
        M::SAtomicUmin => atomic32::<false, UMIN>,
        M::SAtomicSmax => atomic32::<false, SMAX>,
        M::SAtomicUmax => atomic32::<false, UMAX>,
        M::SAtomicAnd => atomic32::<false, AND>,
        M::SAtomicOr => atomic32::<false, OR>,
        M::SAtomicXor => atomic32::<false, XOR>,
        M::SAtomicInc => atomic32::<false, INC>,
        M::SAtomicDec => atomic32::<false, DEC>,
        M::SAtomicCmpswap => cmpswap32::<false>,
        M::SAtomicSwapX2 => atomic64::<false, SWAP>,
        M::SAtomicAddX2 => atomic64::<false, ADD>,
        M::SAtomicSubX2 => atomic64::<false, SUB>,
        M::SAtomicSminX2 => atomic64::<false, SMIN>,
        M::SAtomicUminX2 => atomic64::<false, UMIN>,
        M::SAtomicSmaxX2 => atomic64::<false, SMAX>,
        M::SAtomicUmaxX2 => atomic64::<false, UMAX>,
        M::SAtomicAndX2 => atomic64::<false, AND>,
        M::SAtomicOrX2 => atomic64::<false, OR>,
        M::SAtomicXorX2 => atomic64::<false, XOR>,
        M::SAtomicIncX2 => atomic64::<false, INC>,
        M::SAtomicDecX2 => atomic64::<false, DEC>,
        M::SAtomicCmpswapX2 => cmpswap64::<false>,
        M::SBufferAtomicSwap => atomic32::<true, SWAP>,
        M::SBufferAtomicAdd => atomic32::<true, ADD>,
        M::SBufferAtomicSub => atomic32::<true, SUB>,
        M::SBufferAtomicSmin => atomic32::<true, SMIN>,
        M::SBufferAtomicUmin => atomic32::<true, UMIN>,
        M::SBufferAtomicSmax => atomic32::<true, SMAX>,
        M::SBufferAtomicUmax => atomic32::<true, UMAX>,
        M::SBufferAtomicAnd => atomic32::<true, AND>,
        M::SBufferAtomicOr => atomic32::<true, OR>,
        M::SBufferAtomicXor => atomic32::<true, XOR>,
        M::SBufferAtomicInc => atomic32::<true, INC>,
        M::SBufferAtomicDec => atomic32::<true, DEC>,
        M::SBufferAtomicCmpswap => cmpswap32::<true>,
        M::SBufferAtomicSwapX2 => atomic64::<true, SWAP>,
        M::SBufferAtomicAddX2 => atomic64::<true, ADD>,
        M::SBufferAtomicSubX2 => atomic64::<true, SUB>,
        M::SBufferAtomicSminX2 => atomic64::<true, SMIN>,
        M::SBufferAtomicUminX2 => atomic64::<true, UMIN>,
        M::SBufferAtomicSmaxX2 => atomic64::<true, SMAX>,
        M::SBufferAtomicUmaxX2 => atomic64::<true, UMAX>,
        M::SBufferAtomicAndX2 => atomic64::<true, AND>,
        M::SBufferAtomicOrX2 => atomic64::<true, OR>,
        M::SBufferAtomicXorX2 => atomic64::<true, XOR>,
        M::SBufferAtomicIncX2 => atomic64::<true, INC>,
        M::SBufferAtomicDecX2 => atomic64::<true, DEC>,
        M::SBufferAtomicCmpswapX2 => cmpswap64::<true>,
        _ => return None,
    })
}

/// True for the rows that address through a buffer descriptor.
fn is_buffer(m: M) -> bool {
    matches!(
        m,
        M::SBufferLoadDword
            | M::SBufferLoadDwordx2
            | M::SBufferLoadDwordx4
            | M::SBufferLoadDwordx8
            | M::SBufferLoadDwordx16
            | M::SBufferStoreDword
            | M::SBufferStoreDwordx2
            | M::SBufferStoreDwordx4
            | M::SAtcProbeBuffer
            | M::SBufferAtomicSwap
            | M::SBufferAtomicCmpswap
            | M::SBufferAtomicAdd
            | M::SBufferAtomicSub
            | M::SBufferAtomicSmin
            | M::SBufferAtomicUmin
            | M::SBufferAtomicSmax
            | M::SBufferAtomicUmax
            | M::SBufferAtomicAnd
            | M::SBufferAtomicOr
            | M::SBufferAtomicXor
            | M::SBufferAtomicInc
            | M::SBufferAtomicDec
            | M::SBufferAtomicSwapX2
            | M::SBufferAtomicCmpswapX2
            | M::SBufferAtomicAddX2
            | M::SBufferAtomicSubX2
            | M::SBufferAtomicSminX2
            | M::SBufferAtomicUminX2
            | M::SBufferAtomicSmaxX2
            | M::SBufferAtomicUmaxX2
            | M::SBufferAtomicAndX2
            | M::SBufferAtomicOrX2
            | M::SBufferAtomicXorX2
            | M::SBufferAtomicIncX2
            | M::SBufferAtomicDecX2
    )
}

// ---------------------------------------------------------------------------------------
// Addresses.

/// The SGPR (or M0) byte offset, 0 when the instruction has none.
#[inline(always)]
fn sgpr_offset(w: &Wave, op: &Op, env: &Env<'_>) -> u32 {
    scalar32(w, env, op.soffset)
}

/// `s_load`/`s_store`/`s_atomic`: base pair + immediate + SGPR offset, dword-aligned.
#[inline(always)]
fn flat_address(w: &Wave, op: &Op, env: &Env<'_>) -> u64 {
    let offset = op.imm + sgpr_offset(w, op, env) as i64;
    w.sreg64(op.sbase).wrapping_add(offset as u64) & !3
}

/// `s_scratch_*`: base pair + immediate + (SGPR offset & !3) × 64, dword-aligned.
#[inline(always)]
fn scratch_address(w: &Wave, op: &Op, env: &Env<'_>) -> u64 {
    let offset = op.imm + (sgpr_offset(w, op, env) as i64 & !3) * 64;
    w.sreg64(op.sbase).wrapping_add(offset as u64) & !3
}

/// A buffer access: the V# base, the byte limit and the dword-aligned byte offset.
struct Buffer {
    base: u64,
    /// NUM_RECORDS, times STRIDE when STRIDE is not 0.
    limit: u64,
    offset: u64,
}

impl Buffer {
    #[inline(always)]
    fn of(w: &Wave, op: &Op, env: &Env<'_>) -> Buffer {
        let v = op.sbase as usize;
        let offset = (op.imm + sgpr_offset(w, op, env) as i64) as u64 & !3;
        let num_records = w.s[v + 2] as u64;
        let stride = (w.s[v + 1] >> 16) as u64 & 0x3fff;
        Buffer {
            base: w.sreg64(op.sbase) & 0xffff_ffff_ffff,
            limit: if stride == 0 {
                num_records
            } else {
                num_records * stride
            },
            offset,
        }
    }

    /// The address of the `bytes` (a multiple of 4) starting `at` bytes after the offset, if
    /// every dword of them is in range.
    #[inline(always)]
    fn address(&self, at: u64, bytes: u64) -> Option<u64> {
        let o = self.offset + at;
        (o + bytes - 4 < self.limit).then(|| self.base.wrapping_add(o))
    }
}

/// Writes loaded dwords to the data registers. Writes that reach `null` or past it land in
/// spare slots, which are cleared again so that `null` keeps reading 0.
#[inline(always)]
fn write_data(w: &mut Wave, first: u16, data: &[u32]) {
    let first = first as usize;
    w.s[first..first + data.len()].copy_from_slice(data);
    let null = sreg::NULL as usize;
    if first + data.len() > null {
        w.s[null..].fill(0);
    }
}

// ---------------------------------------------------------------------------------------
// Loads and stores.

fn s_load<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let addr = flat_address(w, op, env);
    let mut data = [0u32; N];
    for (i, d) in data.iter_mut().enumerate() {
        *d = env.mem.load_u32(addr.wrapping_add(4 * i as u64))?;
    }
    write_data(w, op.sdst, &data);
    Ok(Flow::Next)
}

fn s_scratch_load<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let addr = scratch_address(w, op, env);
    let mut data = [0u32; N];
    for (i, d) in data.iter_mut().enumerate() {
        *d = env.mem.load_u32(addr.wrapping_add(4 * i as u64))?;
    }
    write_data(w, op.sdst, &data);
    Ok(Flow::Next)
}

fn s_buffer_load<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let buf = Buffer::of(w, op, env);
    let mut data = [0u32; N];
    for (i, d) in data.iter_mut().enumerate() {
        if let Some(addr) = buf.address(4 * i as u64, 4) {
            *d = env.mem.load_u32(addr)?;
        }
    }
    write_data(w, op.sdst, &data);
    Ok(Flow::Next)
}

fn s_store<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let addr = flat_address(w, op, env);
    for i in 0..N {
        let d = w.s[op.sdst as usize + i];
        env.mem.store_u32(addr.wrapping_add(4 * i as u64), d)?;
    }
    Ok(Flow::Next)
}

fn s_scratch_store<const N: usize>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let addr = scratch_address(w, op, env);
    for i in 0..N {
        let d = w.s[op.sdst as usize + i];
        env.mem.store_u32(addr.wrapping_add(4 * i as u64), d)?;
    }
    Ok(Flow::Next)
}

fn s_buffer_store<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let buf = Buffer::of(w, op, env);
    for i in 0..N {
        if let Some(addr) = buf.address(4 * i as u64, 4) {
            env.mem.store_u32(addr, w.s[op.sdst as usize + i])?;
        }
    }
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------
// Atomics (seed 002 and the Vega manual: S_ATOMIC_*, S_BUFFER_ATOMIC_*).

/// The address of an atomic of `bytes`, or `None` for an out-of-range buffer atomic.
#[inline(always)]
fn atomic_address<const BUF: bool>(w: &Wave, op: &Op, env: &Env<'_>, bytes: u64) -> Option<u64> {
    if BUF {
        Buffer::of(w, op, env).address(0, bytes)
    } else {
        Some(flat_address(w, op, env))
    }
}

#[inline(always)]
fn rmw32<const K: u8>(old: u32, data: u32) -> u32 {
    match K {
        SWAP => data,
        ADD => old.wrapping_add(data),
        SUB => old.wrapping_sub(data),
        SMIN => (old as i32).min(data as i32) as u32,
        UMIN => old.min(data),
        SMAX => (old as i32).max(data as i32) as u32,
        UMAX => old.max(data),
        AND => old & data,
        OR => old | data,
        XOR => old ^ data,
        // MEM = (MEM >= DATA) ? 0 : MEM + 1.
        INC => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        // MEM = (MEM == 0 || MEM > DATA) ? DATA : MEM - 1.
        _ => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
    }
}

#[inline(always)]
fn rmw64<const K: u8>(old: u64, data: u64) -> u64 {
    match K {
        SWAP => data,
        ADD => old.wrapping_add(data),
        SUB => old.wrapping_sub(data),
        SMIN => (old as i64).min(data as i64) as u64,
        UMIN => old.min(data),
        SMAX => (old as i64).max(data as i64) as u64,
        UMAX => old.max(data),
        AND => old & data,
        OR => old | data,
        XOR => old ^ data,
        INC => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        _ => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
    }
}

#[inline(always)]
fn returns(op: &Op) -> bool {
    op.mflags & memflags::GLC != 0
}

fn atomic32<const BUF: bool, const K: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let data = w.s[op.sdst as usize];
    let old = match atomic_address::<BUF>(w, op, env, 4) {
        Some(addr) => env.mem.atomic_rmw32(addr, |m| rmw32::<K>(m, data))?,
        None => 0,
    };
    if returns(op) {
        w.set_sreg(op.sdst, old);
    }
    Ok(Flow::Next)
}

fn atomic64<const BUF: bool, const K: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let data = w.sreg64(op.sdst);
    let old = match atomic_address::<BUF>(w, op, env, 8) {
        Some(addr) => env.mem.atomic_rmw64(addr, |m| rmw64::<K>(m, data))?,
        None => 0,
    };
    if returns(op) {
        w.set_sreg64(op.sdst, old);
    }
    Ok(Flow::Next)
}

/// DATA[0] is the new value, DATA[1] the compare value; DATA[0] receives the old value.
fn cmpswap32<const BUF: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let src = w.s[op.sdst as usize];
    let cmp = w.s[op.sdst as usize + 1];
    let old = match atomic_address::<BUF>(w, op, env, 4) {
        Some(addr) => env
            .mem
            .atomic_rmw32(addr, |m| if m == cmp { src } else { m })?,
        None => 0,
    };
    if returns(op) {
        w.set_sreg(op.sdst, old);
    }
    Ok(Flow::Next)
}

/// DATA[1:0] is the new value, DATA[3:2] the compare value; DATA[1:0] receives the old value.
fn cmpswap64<const BUF: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let src = w.sreg64(op.sdst);
    let cmp = w.sreg64(op.sdst + 2);
    let old = match atomic_address::<BUF>(w, op, env, 8) {
        Some(addr) => env
            .mem
            .atomic_rmw64(addr, |m| if m == cmp { src } else { m })?,
        None => 0,
    };
    if returns(op) {
        w.set_sreg64(op.sdst, old);
    }
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------
// Clocks and cache control.

#[inline(always)]
fn clock(w: &Wave, env: &Env<'_>) -> u64 {
    env.clock
        .wrapping_add(w.instructions)
        .wrapping_mul(CLOCKS_PER_INSTRUCTION)
}

fn s_memtime(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let t = clock(w, env);
    w.set_sreg64(op.sdst, t);
    Ok(Flow::Next)
}

fn s_memrealtime(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let t = clock(w, env) / REALTIME_DIVISOR;
    w.set_sreg64(op.sdst, t);
    Ok(Flow::Next)
}

fn nothing(_: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    //! Expected values are worked by hand from the SMEM/SMRD descriptions (seed 002, CLRX
    //! GcnInstrsSmrd.md / GcnInstrsSmem.md, the Vega manual's scalar memory chapter).

    use super::*;
    use crate::memory::Memory;
    use crate::testing::{run, Outcome};

    /// A buffer of `n` dwords holding 0x100 + i at dword i; returns its address.
    fn buffer(mem: &mut Memory, n: usize) -> u64 {
        let addr = mem.allocate(4 * n as u64, 256).expect("allocation");
        let bytes: Vec<u8> = (0..n as u32)
            .flat_map(|i| (0x100 + i).to_le_bytes())
            .collect();
        mem.write(addr, &bytes).expect("write");
        addr
    }

    fn dword(r: &Outcome, addr: u64) -> u32 {
        let b = r.mem.read(addr, 4).expect("read");
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// Runs `src` with a 64-dword buffer whose address is in s[0:1] (and in a V# at
    /// s[8:11] with NUM_RECORDS = `records`); `setup` may set more registers.
    fn go(
        mcpu: &str,
        src: &str,
        records: u32,
        setup: impl FnOnce(&mut Wave, u64),
    ) -> (Outcome, u64) {
        let mut base = 0;
        let r = run(mcpu, src, |w, mem| {
            base = buffer(mem, 64);
            w.set_sreg64(0, base);
            // V#: base, STRIDE 0, NUM_RECORDS in bytes.
            w.set_sreg64(8, base);
            w.s[10] = records;
            w.s[11] = 0x0002_7000;
            setup(w, base);
        })
        .unwrap_or_else(|e| panic!("{mcpu}: `{src}` faulted: {e}"));
        (r, base)
    }

    #[test]
    fn loads_of_every_width() {
        for (mcpu, imm) in [
            ("gfx900", "0x8"),
            ("gfx803", "0x8"),
            ("gfx700", "0x2"),
            ("gfx600", "0x2"),
        ] {
            // SMRD offsets count dwords, SMEM offsets bytes: both are dword 2 here.
            let src = format!(
                "s_load_dword s20, s[0:1], {imm}\n\
                 s_load_dwordx2 s[22:23], s[0:1], {imm}\n\
                 s_load_dwordx4 s[24:27], s[0:1], {imm}\n\
                 s_load_dwordx8 s[28:35], s[0:1], {imm}\n\
                 s_load_dwordx16 s[36:51], s[0:1], {imm}"
            );
            let (r, _) = go(mcpu, &src, 0, |_, _| {});
            let w = &r.wave;
            assert_eq!(w.s[20], 0x102, "{mcpu}");
            assert_eq!(&w.s[22..24], &[0x102, 0x103], "{mcpu}");
            assert_eq!(&w.s[24..28], &[0x102, 0x103, 0x104, 0x105], "{mcpu}");
            let x8: Vec<u32> = (0x102..0x10a).collect();
            assert_eq!(&w.s[28..36], &x8[..], "{mcpu}");
            let x16: Vec<u32> = (0x102..0x112).collect();
            assert_eq!(&w.s[36..52], &x16[..], "{mcpu}");
        }
    }

    #[test]
    fn a_load_may_overwrite_its_own_base() {
        let (r, _) = go("gfx900", "s_load_dwordx2 s[0:1], s[0:1], 0x4", 0, |_, _| {});
        assert_eq!(r.wave.sreg64(0), 0x102 << 32 | 0x101);
    }

    #[test]
    fn sgpr_offsets_add_to_the_immediate_and_the_low_bits_are_ignored() {
        // s2 = 13: the byte offset 13 reads dword 3.
        let (r, _) = go(
            "gfx900",
            "s_load_dword s20, s[0:1], s2\ns_load_dword s21, s[0:1], s2 offset:0x4",
            0,
            |w, _| {
                w.s[2] = 13;
            },
        );
        assert_eq!((r.wave.s[20], r.wave.s[21]), (0x103, 0x104));
        // SMRD: an SGPR offset counts bytes.
        let (r, _) = go("gfx600", "s_load_dword s20, s[0:1], s2", 0, |w, _| {
            w.s[2] = 8
        });
        assert_eq!(r.wave.s[20], 0x102);
        // gfx8: M0 as the offset register.
        let (r, _) = go("gfx803", "s_load_dword s20, s[0:1], m0", 0, |w, _| {
            w.s[sreg::M0 as usize] = 20
        });
        assert_eq!(r.wave.s[20], 0x105);
        // A base that is not dword-aligned is aligned down too.
        let (r, _) = go("gfx803", "s_load_dword s20, s[2:3], 0x4", 0, |w, base| {
            w.set_sreg64(2, base + 2)
        });
        assert_eq!(r.wave.s[20], 0x101);
    }

    #[test]
    fn gfx9_immediates_are_signed_and_gfx7_literals_count_dwords() {
        let (r, _) = go("gfx900", "s_load_dword s20, s[2:3], -0x8", 0, |w, base| {
            w.set_sreg64(2, base + 16)
        });
        assert_eq!(r.wave.s[20], 0x102);
        // 0x100 dwords does not fit the 8-bit field: gfx7 encodes it as a literal, in dwords.
        let (r, _) = go("gfx700", "s_load_dword s20, s[2:3], 0x100", 0, |w, base| {
            w.set_sreg64(2, base + 8 - 1024);
        });
        assert_eq!(r.wave.s[20], 0x102);
    }

    #[test]
    fn soe_without_imm_takes_the_soffset_field() {
        // gfx9 SMEM with IMM=0, SOE=1: the offset SGPR is in SOFFSET (bits 63:57), here s2,
        // while the OFFSET field names s3. llvm-mc never emits this form, so it is written
        // as words: s_load_dword s20, s[0:1] with sdata=20, op 0.
        let word0: u32 = 0xc000_0000 | 1 << 14 | 20 << 6;
        let word1: u32 = 2 << 25 | 3;
        let src = format!(".long {word0:#x}\n.long {word1:#x}");
        let (r, _) = go("gfx900", &src, 0, |w, _| {
            w.s[2] = 12;
            w.s[3] = 4;
        });
        assert_eq!(r.wave.s[20], 0x103);
    }

    #[test]
    fn buffer_loads_read_zero_past_num_records() {
        for mcpu in ["gfx600", "gfx803", "gfx90a"] {
            let (r, _) = go(
                mcpu,
                "s_buffer_load_dwordx4 s[20:23], s[8:11], s2\ns_buffer_load_dword s24, s[8:11], s3",
                10,
                |w, _| {
                    w.s[2] = 4;
                    w.s[3] = 8;
                },
            );
            // NUM_RECORDS = 10 bytes: the dwords at bytes 4 and 8 start below 10, those at
            // 12 and 16 do not.
            assert_eq!(&r.wave.s[20..24], &[0x101, 0x102, 0, 0], "{mcpu}");
            assert_eq!(r.wave.s[24], 0x102, "{mcpu}");
        }
        // With a STRIDE, the limit is NUM_RECORDS strides: 3 records of 8 bytes = 24 bytes.
        let (r, _) = go(
            "gfx803",
            "s_buffer_load_dwordx8 s[20:27], s[8:11], 0x8",
            3,
            |w, base| {
                w.set_sreg64(8, base | 8 << 48);
            },
        );
        assert_eq!(&r.wave.s[20..28], &[0x102, 0x103, 0x104, 0x105, 0, 0, 0, 0]);
        // V# bits 63:48 hold the stride, not address bits.
        let (r, _) = go(
            "gfx900",
            "s_buffer_load_dword s20, s[8:11], 0x4",
            1,
            |w, base| {
                w.set_sreg64(8, base | 0x3fff << 48);
            },
        );
        assert_eq!(r.wave.s[20], 0x101);
        let (r, _) = go(
            "gfx900",
            "s_buffer_load_dwordx2 s[20:21], s[8:11], 0x8",
            16,
            |_, _| {},
        );
        assert_eq!(&r.wave.s[20..22], &[0x102, 0x103]);
    }

    #[test]
    fn stores_write_memory() {
        let (r, base) = go(
            "gfx900",
            "s_store_dword s20, s[0:1], 0x0\n\
             s_store_dwordx2 s[22:23], s[0:1], 0x8\n\
             s_store_dwordx4 s[24:27], s[0:1], s2 offset:0x10",
            0,
            |w, _| {
                for i in 20..28 {
                    w.s[i] = 0xa000 + i as u32;
                }
                w.s[2] = 4;
            },
        );
        assert_eq!(dword(&r, base), 0xa014);
        assert_eq!(dword(&r, base + 4), 0x101);
        assert_eq!(
            (dword(&r, base + 8), dword(&r, base + 12)),
            (0xa016, 0xa017)
        );
        assert_eq!(dword(&r, base + 16), 0x104);
        let x4: Vec<u32> = (0..4).map(|i| dword(&r, base + 20 + 4 * i)).collect();
        assert_eq!(x4, [0xa018, 0xa019, 0xa01a, 0xa01b]);
        assert_eq!(dword(&r, base + 36), 0x109);
        // gfx8: M0 offset.
        let (r, base) = go("gfx803", "s_store_dword s20, s[0:1], m0", 0, |w, _| {
            w.s[20] = 7;
            w.s[sreg::M0 as usize] = 8;
        });
        assert_eq!(dword(&r, base + 8), 7);
    }

    #[test]
    fn buffer_stores_drop_dwords_past_num_records() {
        let (r, base) = go(
            "gfx908",
            "s_buffer_store_dwordx4 s[20:23], s[8:11], 0x4",
            12,
            |w, _| {
                w.s[20..24].copy_from_slice(&[1, 2, 3, 4]);
            },
        );
        // NUM_RECORDS = 12: the dwords at bytes 4 and 8 are written, those at 12 and 16 not.
        let got: Vec<u32> = (0..6).map(|i| dword(&r, base + 4 * i)).collect();
        assert_eq!(got, [0x100, 1, 2, 0x103, 0x104, 0x105]);
    }

    #[test]
    fn scratch_offsets_are_scaled_by_the_wave_size() {
        // s2 = 4: 4 * 64 = 256 bytes, plus the immediate 8: dword 66 of the base.
        let (r, base) = go(
            "gfx900",
            "s_scratch_load_dword s20, s[0:1], s2 offset:0x8\n\
             s_scratch_store_dwordx2 s[22:23], s[0:1], s3 offset:0x4",
            0,
            |w, base| {
                w.set_sreg64(0, base - 256);
                w.s[2] = 4;
                w.s[3] = 7;
                w.s[22] = 0x55;
                w.s[23] = 0x66;
            },
        );
        assert_eq!(r.wave.s[20], 0x102);
        // s3 = 7 counts as 4 (low bits ignored): base - 256 + 256 + 4 = dword 1.
        assert_eq!((dword(&r, base + 4), dword(&r, base + 8)), (0x55, 0x66));
    }

    #[test]
    fn loads_from_unmapped_memory_fault() {
        let e = run("gfx900", "s_load_dword s20, s[0:1], 0x0", |w, _| {
            w.set_sreg64(0, 0x10)
        })
        .err();
        assert!(matches!(e, Some(Fault::Memory(_))), "{e:?}");
        let e = run("gfx900", "s_store_dword s20, s[0:1], 0x0", |w, _| {
            w.set_sreg64(0, 0x10)
        })
        .err();
        assert!(matches!(e, Some(Fault::Memory(_))), "{e:?}");
    }

    /// Runs one atomic on dword 2 of the buffer (which holds 0x102, and 0x103 after it)
    /// with the data registers from s20 on set to `data`; returns (the data registers, the
    /// memory dwords 2 and 3).
    fn atomic(src: &str, data: &[u32]) -> (Vec<u32>, (u32, u32)) {
        let (r, base) = go("gfx900", src, 64, |w, _| {
            w.s[20..20 + data.len()].copy_from_slice(data);
        });
        let regs = r.wave.s[20..20 + data.len()].to_vec();
        (regs, (dword(&r, base + 8), dword(&r, base + 12)))
    }

    /// Like [`atomic`] with the memory at dwords 2 and 3 set first.
    fn atomic_on(src: &str, data: &[u32], m2: u32, m3: u32) -> (Vec<u32>, (u32, u32)) {
        let full = format!("s_store_dwordx2 s[16:17], s[0:1], 0x8\n{src}");
        let (r, base) = go("gfx900", &full, 64, |w, _| {
            w.s[16] = m2;
            w.s[17] = m3;
            w.s[20..20 + data.len()].copy_from_slice(data);
        });
        let regs = r.wave.s[20..20 + data.len()].to_vec();
        (regs, (dword(&r, base + 8), dword(&r, base + 12)))
    }

    #[test]
    fn atomics_return_the_old_value_only_with_glc() {
        assert_eq!(
            atomic("s_atomic_add s20, s[0:1], 0x8 glc", &[5]),
            (vec![0x102], (0x107, 0x103))
        );
        assert_eq!(
            atomic("s_atomic_add s20, s[0:1], 0x8", &[5]),
            (vec![5], (0x107, 0x103))
        );
        assert_eq!(
            atomic("s_atomic_sub s20, s[0:1], 0x8 glc", &[0x103]),
            (vec![0x102], (0xffff_ffff, 0x103))
        );
        assert_eq!(
            atomic("s_atomic_swap s20, s[0:1], 0x8 glc", &[9]),
            (vec![0x102], (9, 0x103))
        );
        assert_eq!(
            atomic("s_atomic_and s20, s[0:1], 0x8 glc", &[0xf0f]),
            (vec![0x102], (0x102, 0x103))
        );
        assert_eq!(
            atomic("s_atomic_or s20, s[0:1], 0x8", &[0x10]),
            (vec![0x10], (0x112, 0x103))
        );
        assert_eq!(
            atomic("s_atomic_xor s20, s[0:1], 0x8", &[0x102]),
            (vec![0x102], (0, 0x103))
        );
    }

    #[test]
    fn atomic_min_max_are_signed_or_unsigned() {
        let neg = 0xffff_fff0;
        assert_eq!(
            atomic_on("s_atomic_smin s20, s[0:1], 0x8", &[neg], 5, 0)
                .1
                 .0,
            neg
        );
        assert_eq!(
            atomic_on("s_atomic_umin s20, s[0:1], 0x8", &[neg], 5, 0)
                .1
                 .0,
            5
        );
        assert_eq!(
            atomic_on("s_atomic_smax s20, s[0:1], 0x8", &[neg], 5, 0)
                .1
                 .0,
            5
        );
        assert_eq!(
            atomic_on("s_atomic_umax s20, s[0:1], 0x8", &[neg], 5, 0)
                .1
                 .0,
            neg
        );
        let (n, m) = (0xffff_ffff_ffff_fff0u64, 5u64);
        let x2 = |op: &str| {
            let (_, (lo, hi)) = atomic_on(
                &format!("{op} s[20:21], s[0:1], 0x8"),
                &[n as u32, (n >> 32) as u32],
                m as u32,
                0,
            );
            lo as u64 | (hi as u64) << 32
        };
        assert_eq!(x2("s_atomic_smin_x2"), n);
        assert_eq!(x2("s_atomic_umin_x2"), m);
        assert_eq!(x2("s_atomic_smax_x2"), m);
        assert_eq!(x2("s_atomic_umax_x2"), n);
    }

    #[test]
    fn atomic_inc_and_dec_wrap_at_the_data_value() {
        // inc: MEM = MEM >= DATA ? 0 : MEM + 1.
        assert_eq!(
            atomic_on("s_atomic_inc s20, s[0:1], 0x8 glc", &[10], 9, 0),
            (vec![9], (10, 0))
        );
        assert_eq!(
            atomic_on("s_atomic_inc s20, s[0:1], 0x8", &[10], 10, 0).1,
            (0, 0)
        );
        assert_eq!(
            atomic_on("s_atomic_inc s20, s[0:1], 0x8", &[10], 11, 0).1,
            (0, 0)
        );
        // dec: MEM = (MEM == 0 || MEM > DATA) ? DATA : MEM - 1.
        assert_eq!(
            atomic_on("s_atomic_dec s20, s[0:1], 0x8", &[10], 0, 0).1,
            (10, 0)
        );
        assert_eq!(
            atomic_on("s_atomic_dec s20, s[0:1], 0x8", &[10], 11, 0).1,
            (10, 0)
        );
        assert_eq!(
            atomic_on("s_atomic_dec s20, s[0:1], 0x8", &[10], 10, 0).1,
            (9, 0)
        );
        assert_eq!(
            atomic_on(
                "s_atomic_inc_x2 s[20:21], s[0:1], 0x8",
                &[0, 1],
                0xffff_ffff,
                0
            )
            .1,
            (0, 1)
        );
        assert_eq!(
            atomic_on("s_atomic_dec_x2 s[20:21], s[0:1], 0x8", &[0, 1], 0, 1).1,
            (0xffff_ffff, 0)
        );
        assert_eq!(
            atomic_on("s_atomic_dec_x2 s[20:21], s[0:1], 0x8", &[7, 0], 0, 0).1,
            (7, 0)
        );
    }

    #[test]
    fn sixty_four_bit_atomics_carry_across_the_halves() {
        let (regs, mem) = atomic_on(
            "s_atomic_add_x2 s[20:21], s[0:1], 0x8 glc",
            &[1, 0],
            0xffff_ffff,
            4,
        );
        assert_eq!((regs, mem), (vec![0xffff_ffff, 4], (0, 5)));
        let (regs, mem) = atomic_on("s_atomic_sub_x2 s[20:21], s[0:1], 0x8", &[1, 0], 0, 4);
        assert_eq!((regs, mem), (vec![1, 0], (0xffff_ffff, 3)));
        let (_, mem) = atomic_on("s_atomic_swap_x2 s[20:21], s[0:1], 0x8", &[7, 8], 1, 2);
        assert_eq!(mem, (7, 8));
        let (_, mem) = atomic_on(
            "s_atomic_and_x2 s[20:21], s[0:1], 0x8",
            &[0xff, 0xf0],
            0x0f0,
            0xff,
        );
        assert_eq!(mem, (0xf0, 0xf0));
        let (_, mem) = atomic_on("s_atomic_or_x2 s[20:21], s[0:1], 0x8", &[1, 2], 4, 8);
        assert_eq!(mem, (5, 10));
        let (_, mem) = atomic_on("s_atomic_xor_x2 s[20:21], s[0:1], 0x8", &[3, 3], 1, 1);
        assert_eq!(mem, (2, 2));
    }

    #[test]
    fn compare_swap_takes_new_then_compare() {
        // Match: memory becomes DATA[0]; DATA[0] gets the old value, DATA[1] is kept.
        let (regs, mem) = atomic_on("s_atomic_cmpswap s[20:21], s[0:1], 0x8 glc", &[7, 5], 5, 9);
        assert_eq!((regs, mem), (vec![5, 5], (7, 9)));
        let (regs, mem) = atomic_on("s_atomic_cmpswap s[20:21], s[0:1], 0x8 glc", &[7, 6], 5, 9);
        assert_eq!((regs, mem), (vec![5, 6], (5, 9)));
        let (regs, mem) = atomic_on(
            "s_atomic_cmpswap_x2 s[20:23], s[0:1], 0x8 glc",
            &[1, 2, 5, 9],
            5,
            9,
        );
        assert_eq!((regs, mem), (vec![5, 9, 5, 9], (1, 2)));
        let (regs, mem) = atomic_on(
            "s_atomic_cmpswap_x2 s[20:23], s[0:1], 0x8",
            &[1, 2, 5, 8],
            5,
            9,
        );
        assert_eq!((regs, mem), (vec![1, 2, 5, 8], (5, 9)));
    }

    #[test]
    fn buffer_atomics_are_range_checked_whole() {
        let (r, base) = go(
            "gfx90a",
            "s_buffer_atomic_add s20, s[8:11], 0x8 glc\ns_buffer_atomic_add s21, s[8:11], 0xc glc",
            12,
            |w, _| {
                w.s[20] = 1;
                w.s[21] = 1;
            },
        );
        // NUM_RECORDS = 12: the dword at byte 8 is in range, the one at 12 is not.
        assert_eq!((r.wave.s[20], r.wave.s[21]), (0x102, 0));
        assert_eq!((dword(&r, base + 8), dword(&r, base + 12)), (0x103, 0x103));
        let (r, base) = go(
            "gfx940",
            "s_buffer_atomic_cmpswap_x2 s[20:23], s[8:11], 0x8 glc",
            16,
            |w, _| {
                w.s[20..24].copy_from_slice(&[1, 2, 0x102, 0x103]);
            },
        );
        assert_eq!(&r.wave.s[20..22], &[0x102, 0x103]);
        assert_eq!((dword(&r, base + 8), dword(&r, base + 12)), (1, 2));
        let (r, base) = go(
            "gfx900",
            "s_buffer_atomic_inc_x2 s[20:21], s[8:11], 0x8",
            12,
            |w, _| {
                w.s[20..22].copy_from_slice(&[0, 1]);
            },
        );
        // An 8-byte atomic at byte 8 needs its dword at byte 12 below NUM_RECORDS = 12: it is
        // not, so nothing happens.
        assert_eq!((dword(&r, base + 8), dword(&r, base + 12)), (0x102, 0x103));
    }

    #[test]
    fn memtime_is_deterministic_and_cache_control_does_nothing() {
        let (r, _) = go(
            "gfx900",
            "s_memtime s[20:21]\n\
             s_dcache_inv\n\
             s_dcache_wb\n\
             s_dcache_inv_vol\n\
             s_dcache_wb_vol\n\
             s_atc_probe 7, s[0:1], 0x0\n\
             s_atc_probe_buffer 7, s[8:11], 0x0\n\
             s_dcache_discard s[0:1], 0x0\n\
             s_dcache_discard_x2 s[0:1], 0x0\n\
             s_memtime s[22:23]\n\
             s_memrealtime s[24:25]",
            0,
            |w, _| w.instructions = 1000,
        );
        // The test environment's clock is 0; the first instruction runs as the 1001st.
        assert_eq!(r.wave.sreg64(20), 4 * 1001);
        assert_eq!(r.wave.sreg64(22), 4 * 1010);
        assert_eq!(r.wave.sreg64(24), 4 * 1011 / 16);
        let (r, _) = go(
            "gfx700",
            "s_memtime s[20:21]\ns_dcache_inv_vol\ns_dcache_inv",
            0,
            |_, _| {},
        );
        assert_eq!(r.wave.sreg64(20), 4);
    }

    #[test]
    fn every_scalar_memory_row_has_semantics_on_every_generation() {
        use gcnkit_isa::{Encoding, Target, INSTRUCTIONS};
        for g in [
            "gfx600", "gfx700", "gfx803", "gfx900", "gfx908", "gfx90a", "gfx940",
        ] {
            let target = Target::parse(g, None).expect("known processor");
            let ctx = BuildContext { target: &target };
            for (id, def) in INSTRUCTIONS.iter().enumerate() {
                if !matches!(def.encoding, Encoding::Smrd | Encoding::Smem)
                    || def.opcode(target.gen()).is_none()
                {
                    continue;
                }
                let inst = Instruction {
                    id: id as _,
                    gen: target.gen(),
                    encoding: def.encoding,
                    form: gcnkit_isa::Form::Native,
                    bits: 0,
                    ext: None,
                    len: 8,
                };
                assert!(
                    crate::semantics::is_emulated(&inst, &ctx),
                    "{g}: {}",
                    def.mnemonic
                );
            }
        }
    }
}
