//! The vector-ALU framework shared by every VALU family: reading a source as 64 lanes with
//! its modifiers (constants and scalars broadcast, abs/neg, SDWA selects, DPP lane movement),
//! and writing a destination under EXEC with clamp, omod and SDWA destination selects.
//!
//! Each operation is then a lane function applied over plain arrays, which the compiler
//! vectorises. The `unary32!`-style macros at the end make one semantic function per
//! operation from a lane expression.

use crate::exec::Env;
use crate::program::{Op, SpecialSrc, Src};
use crate::wave::{sreg, Lanes, Wave, LANES};

/// 64 lanes of 64-bit values.
pub type Lanes64 = [u64; LANES];

/// Reads a scalar (wave-uniform) source as 32 bits.
#[inline(always)]
pub fn scalar32(w: &Wave, env: &Env<'_>, src: Src) -> u32 {
    match src {
        Src::Sreg(i) => w.s[i as usize],
        Src::Imm(v) => v as u32,
        Src::Special(s) => special(w, env, s) as u32,
        // A VGPR where a scalar is expected: lane 0 (only reached by invalid programs).
        Src::Vreg(r) => w.v[r as usize][0],
        Src::None => 0,
    }
}

/// Reads a scalar (wave-uniform) source as 64 bits.
#[inline(always)]
pub fn scalar64(w: &Wave, env: &Env<'_>, src: Src) -> u64 {
    match src {
        Src::Sreg(i) => w.sreg64(i),
        Src::Imm(v) => v,
        Src::Special(s) => special(w, env, s),
        Src::Vreg(r) => w.v[r as usize][0] as u64 | (w.v[r as usize + 1][0] as u64) << 32,
        Src::None => 0,
    }
}

/// The value of a read-only special source.
pub fn special(w: &Wave, env: &Env<'_>, s: SpecialSrc) -> u64 {
    match s {
        SpecialSrc::Vccz => (w.vcc() == 0) as u64,
        SpecialSrc::Execz => (w.exec() == 0) as u64,
        SpecialSrc::Scc => w.scc as u64,
        SpecialSrc::SharedBase => env.apertures.shared_base,
        SpecialSrc::SharedLimit => env.apertures.shared_base | 0xffff_ffff,
        SpecialSrc::PrivateBase => env.apertures.private_base,
        SpecialSrc::PrivateLimit => env.apertures.private_base | 0xffff_ffff,
        SpecialSrc::PopsExitingWaveId => 0,
        SpecialSrc::LdsDirect => {
            let addr = w.s[sreg::M0 as usize] as usize & 0xffff;
            env.lds
                .get(addr..addr + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64)
        }
    }
}

/// Reads a source as 32-bit lanes without modifiers.
#[inline(always)]
pub fn raw32(w: &Wave, env: &Env<'_>, src: Src) -> Lanes {
    match src {
        Src::Vreg(r) => w.v[r as usize],
        s => [scalar32(w, env, s); LANES],
    }
}

/// Reads a source as 64-bit lanes without modifiers (a VGPR pair, or a 64-bit scalar).
#[inline(always)]
pub fn raw64(w: &Wave, env: &Env<'_>, src: Src) -> Lanes64 {
    match src {
        Src::Vreg(r) => {
            let lo = &w.v[r as usize];
            let hi = &w.v[r as usize + 1];
            std::array::from_fn(|i| lo[i] as u64 | (hi[i] as u64) << 32)
        }
        s => [scalar64(w, env, s); LANES],
    }
}

/// Reads source `i` as 32-bit lanes with every modifier the form has.
#[inline(always)]
pub fn src32(w: &Wave, op: &Op, env: &Env<'_>, i: usize) -> Lanes {
    let mut v = raw32(w, env, op.src[i]);
    let m = &op.mods;
    if i == 0 {
        if let Some(dpp) = m.dpp {
            v = dpp_move(&v, dpp.ctrl, dpp.bound_ctrl, w.exec());
        }
    }
    if let Some(sdwa) = m.sdwa {
        if i < 2 {
            let (sel, sext) = (sdwa.src_sel[i], sdwa.sext[i]);
            for x in v.iter_mut() {
                *x = sdwa_select(*x, sel, sext);
            }
        }
    }
    let (abs, neg) = (m.abs[i] as u32, m.neg[i] as u32);
    if abs | neg != 0 {
        for x in v.iter_mut() {
            *x = (*x & !abs) ^ neg;
        }
    }
    v
}

/// A source's lanes: borrowed from the register file when no modifier changes them,
/// otherwise a computed copy. Indexes like the array it stands for.
// The copy lives on the stack on purpose: boxing it would allocate per instruction.
#[allow(clippy::large_enum_variant)]
pub enum LaneSrc<'a> {
    /// A VGPR read as it is.
    Reg(&'a Lanes),
    /// A broadcast scalar or a modified value.
    Val(Lanes),
}

impl std::ops::Deref for LaneSrc<'_> {
    type Target = Lanes;
    #[inline(always)]
    fn deref(&self) -> &Lanes {
        match self {
            LaneSrc::Reg(r) => r,
            LaneSrc::Val(v) => v,
        }
    }
}

/// [`src32`] without copying a VGPR that no modifier changes: the operations built by the
/// `*32!` macros read their sources through this, which keeps the hot path free of 256-byte
/// copies.
#[inline(always)]
pub fn src32_ref<'a>(w: &'a Wave, op: &Op, env: &Env<'_>, i: usize) -> LaneSrc<'a> {
    let m = &op.mods;
    if let Src::Vreg(r) = op.src[i] {
        if m.abs[i] | m.neg[i] == 0 && m.sdwa.is_none() && (i != 0 || m.dpp.is_none()) {
            return LaneSrc::Reg(&w.v[r as usize]);
        }
    }
    LaneSrc::Val(src32(w, op, env, i))
}

/// Reads source `i` as 64-bit lanes with abs/neg applied.
#[inline(always)]
pub fn src64(w: &Wave, op: &Op, env: &Env<'_>, i: usize) -> Lanes64 {
    let mut v = raw64(w, env, op.src[i]);
    if i == 0 {
        if let Some(dpp) = op.mods.dpp {
            let lo: Lanes = std::array::from_fn(|l| v[l] as u32);
            let hi: Lanes = std::array::from_fn(|l| (v[l] >> 32) as u32);
            let lo = dpp_move(&lo, dpp.ctrl, dpp.bound_ctrl, w.exec());
            let hi = dpp_move(&hi, dpp.ctrl, dpp.bound_ctrl, w.exec());
            v = std::array::from_fn(|l| lo[l] as u64 | (hi[l] as u64) << 32);
        }
    }
    let (abs, neg) = (op.mods.abs[i], op.mods.neg[i]);
    if abs | neg != 0 {
        for x in v.iter_mut() {
            *x = (*x & !abs) ^ neg;
        }
    }
    v
}

/// SDWA source select: byte 0..3, word 0/1, or the dword; zero- or sign-extended.
#[inline(always)]
pub fn sdwa_select(x: u32, sel: u8, sext: bool) -> u32 {
    match sel {
        0..=3 => {
            let b = (x >> (8 * sel)) as u8;
            if sext {
                b as i8 as i32 as u32
            } else {
                b as u32
            }
        }
        4 | 5 => {
            let h = (x >> (16 * (sel - 4))) as u16;
            if sext {
                h as i16 as i32 as u32
            } else {
                h as u32
            }
        }
        _ => x,
    }
}

/// The lane a DPP control reads for `lane`, or `None` when it is outside the source range.
#[inline]
pub fn dpp_source_lane(ctrl: u16, lane: usize) -> Option<usize> {
    let row = lane & !15;
    let r = lane & 15;
    let n = (ctrl & 15) as usize;
    match ctrl {
        0x000..=0x0ff => Some((lane & !3) | ((ctrl as usize >> ((lane & 3) * 2)) & 3)),
        0x101..=0x10f => (r + n < 16).then_some(row + r + n),
        0x111..=0x11f => (r >= n).then(|| row + r - n),
        0x121..=0x12f => Some(row + (r + 16 - n) % 16),
        0x130 => (lane < 63).then_some(lane + 1),
        0x134 => Some((lane + 1) % 64),
        0x138 => lane.checked_sub(1),
        0x13c => Some((lane + 63) % 64),
        0x140 => Some(row + 15 - r),
        0x141 => Some(row + (r & 8) + 7 - (r & 7)),
        0x142 => (row >= 16).then(|| row - 1),
        0x143 => (row >= 32).then_some(31),
        0x150..=0x15f => Some(row + n),
        _ => None,
    }
}

/// Moves src0's lanes as the DPP control says. Lanes whose source is out of range or
/// disabled read 0 when `bound_ctrl` is set; otherwise [`write_mask`] leaves them unwritten
/// and the value here does not matter.
pub fn dpp_move(v: &Lanes, ctrl: u16, bound_ctrl: bool, exec: u64) -> Lanes {
    let _ = bound_ctrl;
    std::array::from_fn(|l| match dpp_source_lane(ctrl, l) {
        Some(s) if exec >> s & 1 != 0 => v[s],
        _ => 0,
    })
}

/// The lanes an instruction writes: EXEC, and for DPP the row and bank masks and (without
/// bound_ctrl) only lanes whose source lane is valid and enabled.
#[inline(always)]
pub fn write_mask(w: &Wave, op: &Op) -> u64 {
    let exec = w.exec();
    let Some(dpp) = op.mods.dpp else { return exec };
    let mut mask = exec;
    for lane in 0..LANES {
        let row = lane / 16;
        let bank = (lane % 16) / 4;
        let on = dpp.row_mask >> row & 1 != 0 && dpp.bank_mask >> bank & 1 != 0;
        let src_ok = match dpp_source_lane(dpp.ctrl, lane) {
            Some(s) => exec >> s & 1 != 0,
            None => false,
        };
        if !on || (!src_ok && !dpp.bound_ctrl) {
            mask &= !(1u64 << lane);
        }
    }
    mask
}

/// Applies omod and clamp to a float result of `bits` (32 or 64) when the instruction has
/// them. `dx10` is MODE.DX10_CLAMP (NaN clamps to 0).
#[inline]
fn out_mods32(x: u32, omod: u8, clamp: bool, dx10: bool) -> u32 {
    let mut f = f32::from_bits(x);
    f = match omod {
        1 => f * 2.0,
        2 => f * 4.0,
        3 => f * 0.5,
        _ => f,
    };
    if clamp {
        f = if f.is_nan() {
            if dx10 {
                0.0
            } else {
                f
            }
        } else {
            f.clamp(0.0, 1.0)
        };
    }
    f.to_bits()
}

#[inline]
fn out_mods64(x: u64, omod: u8, clamp: bool, dx10: bool) -> u64 {
    let mut f = f64::from_bits(x);
    f = match omod {
        1 => f * 2.0,
        2 => f * 4.0,
        3 => f * 0.5,
        _ => f,
    };
    if clamp {
        f = if f.is_nan() {
            if dx10 {
                0.0
            } else {
                f
            }
        } else {
            f.clamp(0.0, 1.0)
        };
    }
    f.to_bits()
}

#[inline]
fn out_mods16(x: u32, omod: u8, clamp: bool, dx10: bool) -> u32 {
    let f = half::f16::from_bits(x as u16).to_f32();
    let r = out_mods32(f.to_bits(), omod, clamp, dx10);
    (x & 0xffff_0000) | half::f16::from_f32(f32::from_bits(r)).to_bits() as u32
}

/// Writes a 32-bit result to the vector destination under the write mask, with the float
/// output modifiers and the SDWA destination select.
#[inline(always)]
pub fn write32(w: &mut Wave, op: &Op, r: &Lanes) {
    let mask = write_mask(w, op);
    write32_masked(w, op, r, mask)
}

/// [`write32`] with an explicit lane mask.
#[inline(always)]
pub fn write32_masked(w: &mut Wave, op: &Op, r: &Lanes, mask: u64) {
    let m = &op.mods;
    if (m.clamp || m.omod != 0) && m.float_bits != 0 {
        let dx10 = w.mode.dx10_clamp();
        let mut r = *r;
        match m.float_bits {
            16 => r
                .iter_mut()
                .for_each(|x| *x = out_mods16(*x, m.omod, m.clamp, dx10)),
            _ => r
                .iter_mut()
                .for_each(|x| *x = out_mods32(*x, m.omod, m.clamp, dx10)),
        }
        return store32(w, op, &r, mask);
    }
    store32(w, op, r, mask)
}

/// Stores `r` to the destination under `mask`, through the SDWA destination select when the
/// form has one.
#[inline(always)]
fn store32(w: &mut Wave, op: &Op, r: &Lanes, mask: u64) {
    let d = &mut w.v[op.vdst as usize];
    if let Some(sdwa) = op.mods.sdwa {
        for l in 0..LANES {
            if mask >> l & 1 != 0 {
                d[l] = sdwa_dst(d[l], r[l], sdwa.dst_sel, sdwa.dst_unused);
            }
        }
        return;
    }
    if mask == u64::MAX {
        *d = *r;
    } else {
        blend32(d, r, mask);
    }
}

/// `d[l] = r[l]` for the lanes of `mask`, as a select per lane without branches, which the
/// compiler turns into vector blends (partial EXEC is common in divergent code).
#[inline(always)]
pub fn blend32(d: &mut Lanes, r: &Lanes, mask: u64) {
    let keep = lane_selects(mask);
    for l in 0..LANES {
        d[l] = (r[l] & keep[l]) | (d[l] & !keep[l]);
    }
}

/// Each bit of `mask` widened to a lane of all ones or all zeros, eight lanes at a time from
/// a table: a loop over the bits would need per-lane variable shifts, which baseline x86-64
/// lacks, and would not vectorise.
#[inline(always)]
pub fn lane_selects(mask: u64) -> Lanes {
    let mut keep = [0u32; LANES];
    for (chunk, lanes) in keep.chunks_exact_mut(8).enumerate() {
        lanes.copy_from_slice(&BYTE_LANE_SELECTS[(mask >> (8 * chunk)) as usize & 0xff]);
    }
    keep
}

/// For each byte value, its eight bits as lanes of all ones or all zeros.
static BYTE_LANE_SELECTS: [[u32; 8]; 256] = {
    let mut table = [[0u32; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 != 0 {
                table[byte][bit] = u32::MAX;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// SDWA destination: place the result's low bits in the selected part; the rest is zero
/// (UNUSED_PAD), sign-extended (UNUSED_SEXT) or kept (UNUSED_PRESERVE).
#[inline]
pub fn sdwa_dst(old: u32, r: u32, sel: u8, unused: u8) -> u32 {
    let (shift, width) = match sel {
        0..=3 => (8 * sel as u32, 8),
        4 | 5 => (16 * (sel as u32 - 4), 16),
        _ => return r,
    };
    let field_mask = ((1u64 << width) - 1) as u32;
    let val = (r & field_mask) << shift;
    let place = field_mask << shift;
    match unused {
        2 => (old & !place) | val,
        1 => {
            // Sign-extend the field upward; bits below it are zero.
            let top = shift + width;
            let ext = if (r >> (width - 1)) & 1 != 0 && top < 32 {
                !0u32 << top
            } else {
                0
            };
            val | ext
        }
        _ => val,
    }
}

/// Writes a 64-bit result to the vector destination pair under the write mask, with the
/// float output modifiers.
#[inline(always)]
pub fn write64(w: &mut Wave, op: &Op, r: &Lanes64) {
    let mask = write_mask(w, op);
    let m = &op.mods;
    if (m.clamp || m.omod != 0) && m.float_bits == 64 {
        let dx10 = w.mode.dx10_clamp();
        let mut r = *r;
        r.iter_mut()
            .for_each(|x| *x = out_mods64(*x, m.omod, m.clamp, dx10));
        return store64(w, op.vdst as usize, &r, mask);
    }
    store64(w, op.vdst as usize, r, mask)
}

/// Stores 64-bit lanes to the register pair at `d` under `mask`, without branches per lane.
#[inline(always)]
fn store64(w: &mut Wave, d: usize, r: &Lanes64, mask: u64) {
    let (lo, hi) = w.v.split_at_mut(d + 1);
    let (lo, hi) = (&mut lo[d], &mut hi[0]);
    let keep = lane_selects(mask);
    for l in 0..LANES {
        lo[l] = (r[l] as u32 & keep[l]) | (lo[l] & !keep[l]);
        hi[l] = ((r[l] >> 32) as u32 & keep[l]) | (hi[l] & !keep[l]);
    }
}

/// Writes a lane mask (a compare result, a carry-out) to the scalar destination pair.
#[inline(always)]
pub fn write_sdst_mask(w: &mut Wave, op: &Op, mask: u64) {
    w.set_sreg64(op.sdst, mask);
}

/// Collects a per-lane condition into a mask, over the lanes of `active`.
#[inline(always)]
pub fn lane_mask(active: u64, f: impl Fn(usize) -> bool) -> u64 {
    let bits: [bool; LANES] = std::array::from_fn(f);
    pack_lanes(&bits) & active
}

/// Packs a condition per lane into a mask, eight lanes at a time: with the eight bools
/// read as the bytes of a word (each 0 or 1), one multiplication gathers lane `i`'s byte
/// into bit `56 + i` without carries, so that the conditions themselves can be computed
/// by vector compares instead of a shift and an or per lane.
#[inline(always)]
pub fn pack_lanes(bits: &[bool; LANES]) -> u64 {
    let mut m = 0u64;
    for (chunk, lanes) in bits.chunks_exact(8).enumerate() {
        let bytes = u64::from_le_bytes(std::array::from_fn(|j| lanes[j] as u8));
        m |= (bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * chunk);
    }
    m
}

/// Defines a semantic function for a one-source 32-bit operation from a lane expression
/// `|a, mode| -> u32`.
#[macro_export]
macro_rules! unary32 {
    ($name:ident, |$a:ident, $m:ident| $body:expr) => {
        pub(crate) fn $name(
            w: &mut $crate::wave::Wave,
            op: &$crate::program::Op,
            env: &mut $crate::exec::Env<'_>,
        ) -> Result<$crate::exec::Flow, $crate::exec::Fault> {
            let a = $crate::semantics::valu::src32_ref(w, op, env, 0);
            let a: &$crate::wave::Lanes = &a;
            #[allow(unused_variables)]
            let $m = w.mode;
            let r: $crate::wave::Lanes = std::array::from_fn(|l| {
                let $a = a[l];
                $body
            });
            $crate::semantics::valu::write32(w, op, &r);
            Ok($crate::exec::Flow::Next)
        }
    };
}

/// Defines a semantic function for a two-source 32-bit operation from a lane expression
/// `|a, b, mode| -> u32`.
#[macro_export]
macro_rules! binary32 {
    ($name:ident, |$a:ident, $b:ident, $m:ident| $body:expr) => {
        pub(crate) fn $name(
            w: &mut $crate::wave::Wave,
            op: &$crate::program::Op,
            env: &mut $crate::exec::Env<'_>,
        ) -> Result<$crate::exec::Flow, $crate::exec::Fault> {
            let a = $crate::semantics::valu::src32_ref(w, op, env, 0);
            let a: &$crate::wave::Lanes = &a;
            let b = $crate::semantics::valu::src32_ref(w, op, env, 1);
            let b: &$crate::wave::Lanes = &b;
            #[allow(unused_variables)]
            let $m = w.mode;
            let r: $crate::wave::Lanes = std::array::from_fn(|l| {
                let $a = a[l];
                let $b = b[l];
                $body
            });
            $crate::semantics::valu::write32(w, op, &r);
            Ok($crate::exec::Flow::Next)
        }
    };
}

/// Defines a semantic function for a three-source 32-bit operation from a lane expression
/// `|a, b, c, mode| -> u32`.
#[macro_export]
macro_rules! ternary32 {
    ($name:ident, |$a:ident, $b:ident, $c:ident, $m:ident| $body:expr) => {
        pub(crate) fn $name(
            w: &mut $crate::wave::Wave,
            op: &$crate::program::Op,
            env: &mut $crate::exec::Env<'_>,
        ) -> Result<$crate::exec::Flow, $crate::exec::Fault> {
            let a = $crate::semantics::valu::src32_ref(w, op, env, 0);
            let a: &$crate::wave::Lanes = &a;
            let b = $crate::semantics::valu::src32_ref(w, op, env, 1);
            let b: &$crate::wave::Lanes = &b;
            let c = $crate::semantics::valu::src32_ref(w, op, env, 2);
            let c: &$crate::wave::Lanes = &c;
            #[allow(unused_variables)]
            let $m = w.mode;
            let r: $crate::wave::Lanes = std::array::from_fn(|l| {
                let $a = a[l];
                let $b = b[l];
                let $c = c[l];
                $body
            });
            $crate::semantics::valu::write32(w, op, &r);
            Ok($crate::exec::Flow::Next)
        }
    };
}

/// Reads source `i` as 16-bit lanes: the low half, or the high half when the VOP3 op_sel
/// bit of the source is set (gfx9+). SDWA selects and abs/neg were applied by [`src32`].
#[inline(always)]
pub fn src16(w: &Wave, op: &Op, env: &Env<'_>, i: usize) -> [u16; LANES] {
    if op.mods.sdwa.is_none() && op.mods.op_sel >> i & 1 != 0 {
        // The high half (VOP3 op_sel: no SDWA or DPP here): abs/neg act on its sign bit.
        let v = raw32(w, env, op.src[i]);
        let (abs, neg) = (op.mods.abs[i] as u16, op.mods.neg[i] as u16);
        return std::array::from_fn(|l| ((v[l] >> 16) as u16 & !abs) ^ neg);
    }
    let v = src32(w, op, env, i);
    std::array::from_fn(|l| v[l] as u16)
}

/// Writes a 16-bit result. With op_sel bit 3 (gfx9+ VOP3) it goes to the high half and the
/// low half is kept; otherwise to the low half with the high half zeroed, as gfx8 and gfx9
/// do for 16-bit VALU results (SDWA destinations follow their select).
#[inline(always)]
pub fn write16(w: &mut Wave, op: &Op, r: &[u16; LANES]) {
    if op.mods.sdwa.is_none() && op.mods.op_sel & 8 != 0 {
        let mask = write_mask(w, op);
        let old = w.v[op.vdst as usize];
        let merged: Lanes = std::array::from_fn(|l| (old[l] & 0xffff) | (r[l] as u32) << 16);
        // Output modifiers act on the 16-bit value, which is in the high half here.
        let mut plain = *op;
        plain.mods.clamp = false;
        plain.mods.omod = 0;
        let merged = if (op.mods.clamp || op.mods.omod != 0) && op.mods.float_bits == 16 {
            let dx10 = w.mode.dx10_clamp();
            std::array::from_fn(|l| {
                let hi = out_mods16(merged[l] >> 16, op.mods.omod, op.mods.clamp, dx10) & 0xffff;
                (merged[l] & 0xffff) | hi << 16
            })
        } else {
            merged
        };
        write32_masked(w, &plain, &merged, mask);
        return;
    }
    let wide: Lanes = std::array::from_fn(|l| r[l] as u32);
    write32(w, op, &wide);
}

#[cfg(test)]
mod lane_mask_tests {
    use super::*;

    /// Masks with every byte pattern in every position, and some irregular ones.
    fn masks() -> Vec<u64> {
        let mut v = vec![0, u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001];
        for b in 0..=255u64 {
            for chunk in 0..8 {
                v.push(b << (8 * chunk));
            }
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..256 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.push(x);
        }
        v
    }

    #[test]
    fn lane_selects_widens_each_bit() {
        for m in masks() {
            let keep = lane_selects(m);
            for (l, k) in keep.iter().enumerate() {
                assert_eq!(
                    *k,
                    if m >> l & 1 != 0 { u32::MAX } else { 0 },
                    "{m:#x} lane {l}"
                );
            }
        }
    }

    #[test]
    fn pack_lanes_puts_lane_i_in_bit_i() {
        for m in masks() {
            let bits: [bool; LANES] = std::array::from_fn(|l| m >> l & 1 != 0);
            assert_eq!(pack_lanes(&bits), m);
            assert_eq!(
                lane_mask(0xffff_0000_ffff_0000, |l| bits[l]),
                m & 0xffff_0000_ffff_0000
            );
        }
    }

    #[test]
    fn blend_takes_the_masked_lanes() {
        let r: Lanes = std::array::from_fn(|l| 1000 + l as u32);
        for m in masks() {
            let mut d: Lanes = std::array::from_fn(|l| l as u32);
            blend32(&mut d, &r, m);
            for l in 0..LANES {
                assert_eq!(
                    d[l],
                    if m >> l & 1 != 0 {
                        1000 + l as u32
                    } else {
                        l as u32
                    }
                );
            }
        }
    }
}
