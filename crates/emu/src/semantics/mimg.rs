//! MIMG: image loads, stores, atomics, resource queries, sampling and gathers.
//!
//! What is implemented, and every assumption the manuals leave open, is written down in
//! `docs/emulator-images.md`; in short:
//!
//! - The image resource (T#, 8 SGPRs, 4 with `r128` on gfx6–8) is read when the instruction
//!   runs: base address 39:0 (×256), MIN_LOD, DATA_FORMAT 57:52, NUM_FORMAT 61:58, WIDTH and
//!   HEIGHT (minus one), DST_SEL_XYZW, BASE_LEVEL, LAST_LEVEL, TYPE 127:124, DEPTH, PITCH
//!   (14 bits on gfx6–8, 16 on gfx9+), BASE_ARRAY and LAST_ARRAY (gfx6–8; on gfx9+ the last
//!   array slice is the DEPTH field). Tiling is not emulated: every image is linear, with
//!   the mip levels one after another, each holding all its array slices.
//! - The sampler (S#, 4 SGPRs): CLAMP_X/Y/Z, DEPTH_COMPARE_FUNC, FORCE_UNNORMALIZED,
//!   MIN_LOD, MAX_LOD, LOD_BIAS, XY_MAG/XY_MIN/Z/MIP filters and BORDER_COLOR_TYPE.
//! - Addresses: the VGPRs after `vaddr` in the order of the manuals' "image opcodes with a
//!   sampler" table: offset, bias, z-compare, derivatives, coordinates (by the T# TYPE),
//!   then lod / clamp / mip; `a16` (gfx9+) packs them in 16-bit halves.
//! - Loads out of range give 0 (then DST_SEL), stores and atomics out of range do nothing.
//! - In a compute kernel image_sample without explicit LOD takes its derivatives from the
//!   lanes' quad (lanes 4k..4k+3 as a 2×2 quad, coarse), as the hardware does.

// Lane loops index the registers and the per-lane buffers by the lane number at once.
#![allow(clippy::needless_range_loop)]

use gcnkit_isa::encoding::Field;
use gcnkit_isa::{Gen, Instruction, Mnemonic as M};

use super::ds::{self, aop, rmw32, rmw64, FpEnv};
use super::vmem::{self, DataFormat};
use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{memflags, sreg_index, BuildContext, Op, Src};
use crate::wave::{sreg, Wave, ACC_BASE, LANES};

// ---- operand resolution -----------------------------------------------------------------

/// Bits of `op.imm` for MIMG: the DMASK field.
const DMASK: i64 = 0xf;
/// UNORM: coordinates are unnormalized.
const UNORM: i64 = 1 << 4;
/// DA: the image is an array (cube arrays encode the slice in the face coordinate).
const DA: i64 = 1 << 5;
/// R128 (gfx6–8): the T# is 4 dwords.
const R128: i64 = 1 << 6;
/// LWE: the status dword is written.
const LWE: i64 = 1 << 7;
/// D16: 16-bit data.
const D16: i64 = 1 << 8;
/// A16 (gfx9+): 16-bit address components.
const A16: i64 = 1 << 9;
/// gfx801–805: one 16-bit component per register.
const D16_UNPACKED: i64 = 1 << 10;
/// gfx9+ T# layout (16-bit PITCH, last slice in DEPTH).
const GFX9: i64 = 1 << 11;

/// Fills the MIMG operands of `op` (called by `program.rs`).
pub fn resolve(inst: &Instruction, op: &mut Op) {
    let gen = inst.gen;
    let f = |field| inst.field(field);
    // gfx90a has no TFE: bit 16 makes vdata AccVGPRs.
    let acc = gen == Gen::Gfx90a && f(Field::Tfe) != 0;
    op.vaddr = f(Field::Vaddr) as u16;
    op.vdata = if acc { ACC_BASE } else { 0 } + f(Field::Vdata) as u16;
    op.vdst = op.vdata;
    op.sbase = sreg_index(gen, f(Field::Srsrc) << 2).unwrap_or(sreg::NULL);
    op.soffset = sreg_index(gen, f(Field::Ssamp) << 2).map_or(Src::None, Src::Sreg);
    let gfx9 = gen.is_gfx9_family();
    let mut imm = f(Field::Dmask) as i64;
    for (field, bit) in [(Field::Unorm, UNORM), (Field::Da, DA), (Field::Lwe, LWE)] {
        if f(field) != 0 {
            imm |= bit;
        }
    }
    if f(Field::R128) != 0 {
        // Bit 15 is R128 up to gfx8 and A16 from gfx9 on.
        imm |= if gfx9 { A16 } else { R128 };
    }
    if !gen.is_si_ci() && f(Field::D16) != 0 {
        imm |= D16;
    }
    if gfx9 {
        imm |= GFX9;
    }
    op.imm = imm;
    if f(Field::Glc) != 0 {
        op.mflags |= memflags::GLC;
    }
    if f(Field::Slc) != 0 {
        op.mflags |= memflags::SLC;
    }
    if acc {
        op.mflags |= memflags::ACC;
    } else if f(Field::Tfe) != 0 {
        op.mflags |= memflags::TFE;
    }
}

// ---- selection ---------------------------------------------------------------------------

/// Bits of `op.imm2` for the sampling rows, from the mnemonic's suffixes.
mod var {
    pub const C: i64 = 1;
    pub const D: i64 = 1 << 1;
    pub const L: i64 = 1 << 2;
    pub const B: i64 = 1 << 3;
    pub const LZ: i64 = 1 << 4;
    pub const CL: i64 = 1 << 5;
    pub const O: i64 = 1 << 6;
    pub const GATHER: i64 = 1 << 7;
    pub const GATHER_H: i64 = 1 << 8;
    pub const GET_LOD: i64 = 1 << 9;
}

/// The variant bits of a sampling row, read from its table mnemonic (`image_sample_c_d_o`
/// is C | D | O); `None` for rows that are not sampling rows.
fn variant(mnemonic: &str) -> Option<i64> {
    let (mut v, rest) = if mnemonic == "image_get_lod" {
        return Some(var::GET_LOD);
    } else if let Some(r) = mnemonic.strip_prefix("image_sample") {
        (0, r)
    } else if let Some(r) = mnemonic.strip_prefix("image_gather4h") {
        (var::GATHER | var::GATHER_H, r)
    } else if let Some(r) = mnemonic.strip_prefix("image_gather4") {
        (var::GATHER, r)
    } else {
        return None;
    };
    for tok in rest.split('_').filter(|t| !t.is_empty()) {
        v |= match tok {
            "c" => var::C,
            // Coarse derivatives are derivatives given by the program as well.
            "d" | "cd" => var::D,
            "l" => var::L,
            "b" => var::B,
            "lz" => var::LZ,
            "cl" => var::CL,
            "o" => var::O,
            _ => return None,
        };
    }
    Some(v)
}

/// The semantic function for `inst`, if it is an image instruction.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    if ctx.target.processor.unpacked_d16 {
        op.imm |= D16_UNPACKED;
    }
    use aop::*;
    Some(match inst.def().op {
        M::ImageLoad => load::<false, false, false>,
        M::ImageLoadMip => load::<true, false, false>,
        M::ImageLoadPck => load::<false, true, false>,
        M::ImageLoadPckSgn => load::<false, true, true>,
        M::ImageLoadMipPck => load::<true, true, false>,
        M::ImageLoadMipPckSgn => load::<true, true, true>,
        M::ImageStore => store::<false, false>,
        M::ImageStoreMip => store::<true, false>,
        M::ImageStorePck => store::<false, true>,
        M::ImageStoreMipPck => store::<true, true>,
        M::ImageGetResinfo => get_resinfo,
        M::ImageAtomicSwap => atomic::<SWAP>,
        M::ImageAtomicCmpswap => atomic::<CMPST>,
        M::ImageAtomicAdd => atomic::<ADD>,
        M::ImageAtomicSub => atomic::<SUB>,
        M::ImageAtomicRsub => atomic::<RSUB>,
        M::ImageAtomicSmin => atomic::<MIN_I>,
        M::ImageAtomicUmin => atomic::<MIN_U>,
        M::ImageAtomicSmax => atomic::<MAX_I>,
        M::ImageAtomicUmax => atomic::<MAX_U>,
        M::ImageAtomicAnd => atomic::<AND>,
        M::ImageAtomicOr => atomic::<OR>,
        M::ImageAtomicXor => atomic::<XOR>,
        M::ImageAtomicInc => atomic::<INC>,
        M::ImageAtomicDec => atomic::<DEC>,
        M::ImageAtomicFcmpswap => atomic::<CMPST_F>,
        M::ImageAtomicFmin => atomic::<MIN_F>,
        M::ImageAtomicFmax => atomic::<MAX_F>,
        _ => {
            op.imm2 = variant(inst.def().mnemonic)?;
            sample
        }
    })
}

// ---- descriptors -------------------------------------------------------------------------

/// T# TYPE values (SI/CI/VI/Vega "image resource" tables).
#[allow(dead_code)] // the whole TYPE list, some values only named
mod ty {
    pub const D1: u8 = 8;
    pub const D2: u8 = 9;
    pub const D3: u8 = 10;
    pub const CUBE: u8 = 11;
    pub const D1_ARRAY: u8 = 12;
    pub const D2_ARRAY: u8 = 13;
    pub const D2_MSAA: u8 = 14;
    pub const D2_MSAA_ARRAY: u8 = 15;
}

/// A decoded image resource.
#[derive(Clone, Copy, Debug)]
struct Tex {
    base: u64,
    min_lod: f32,
    dfmt: u8,
    nfmt: u8,
    width: u64,
    height: u64,
    /// DEPTH field + 1.
    depth: u64,
    pitch: u64,
    dst_sel: [u8; 4],
    base_level: u32,
    last_level: u32,
    ty: u8,
    base_array: u64,
    last_array: u64,
}

impl Tex {
    fn read(w: &Wave, op: &Op) -> Tex {
        let s = |k: usize| w.s.get(op.sbase as usize + k).copied().unwrap_or(0);
        let r128 = op.imm & R128 != 0;
        let hi = |k: usize| if r128 { 0 } else { s(k) };
        let (w0, w1, w2, w3, w4, w5) = (s(0), s(1), s(2), s(3), hi(4), hi(5));
        let gfx9 = op.imm & GFX9 != 0;
        let depth_field = (w4 & 0x1fff) as u64;
        Tex {
            base: (w0 as u64 | ((w1 & 0xff) as u64) << 32) << 8,
            min_lod: ((w1 >> 8) & 0xfff) as f32 / 256.0,
            dfmt: ((w1 >> 20) & 0x3f) as u8,
            nfmt: ((w1 >> 26) & 0xf) as u8,
            width: (w2 & 0x3fff) as u64 + 1,
            height: ((w2 >> 14) & 0x3fff) as u64 + 1,
            depth: depth_field + 1,
            pitch: if gfx9 {
                ((w4 >> 13) & 0xffff) as u64 + 1
            } else {
                ((w4 >> 13) & 0x3fff) as u64 + 1
            },
            dst_sel: [
                (w3 & 7) as u8,
                (w3 >> 3 & 7) as u8,
                (w3 >> 6 & 7) as u8,
                (w3 >> 9 & 7) as u8,
            ],
            base_level: (w3 >> 12) & 0xf,
            last_level: (w3 >> 16) & 0xf,
            ty: (w3 >> 28) as u8,
            base_array: (w5 & 0x1fff) as u64,
            last_array: if gfx9 {
                depth_field
            } else {
                ((w5 >> 13) & 0x1fff) as u64
            },
        }
    }

    fn is_1d(&self) -> bool {
        matches!(self.ty, ty::D1 | ty::D1_ARRAY)
    }
    fn is_3d(&self) -> bool {
        self.ty == ty::D3
    }
    fn is_cube(&self) -> bool {
        self.ty == ty::CUBE
    }
    fn is_array(&self) -> bool {
        matches!(self.ty, ty::D1_ARRAY | ty::D2_ARRAY | ty::D2_MSAA_ARRAY)
    }
    fn is_msaa(&self) -> bool {
        matches!(self.ty, ty::D2_MSAA | ty::D2_MSAA_ARRAY)
    }
    /// Number of coordinates before the layer: 1 (1D), 2, or 3 (3D).
    fn axes(&self) -> usize {
        if self.is_1d() {
            1
        } else if self.is_3d() {
            3
        } else {
            2
        }
    }
    /// Mip levels visible through BASE_LEVEL..=LAST_LEVEL (MSAA images have one).
    fn levels(&self) -> u32 {
        if self.is_msaa() {
            1
        } else {
            self.last_level.saturating_sub(self.base_level) + 1
        }
    }
    /// Array slices in memory (cube maps: at least 6 faces).
    fn slices(&self) -> u64 {
        if self.is_array() {
            self.last_array + 1
        } else if self.is_cube() {
            (self.last_array + 1).max(6)
        } else {
            1
        }
    }
}

/// A decoded sampler.
#[derive(Clone, Copy, Debug)]
struct Samp {
    clamp: [u8; 3],
    compare: u8,
    force_unnorm: bool,
    min_lod: f32,
    max_lod: f32,
    lod_bias: f32,
    mag_linear: bool,
    min_linear: bool,
    z_linear: bool,
    mip: u8,
    border: u8,
}

impl Samp {
    fn read(w: &Wave, op: &Op) -> Samp {
        let i = match op.soffset {
            Src::Sreg(i) => i as usize,
            _ => sreg::NULL as usize,
        };
        let s = |k: usize| w.s.get(i + k).copied().unwrap_or(0);
        let (w0, w1, w2, w3) = (s(0), s(1), s(2), s(3));
        // Aniso filters (2 point, 3 linear) are taken as their isotropic counterparts.
        let linear = |f: u32| f & 1 != 0;
        Samp {
            clamp: [(w0 & 7) as u8, (w0 >> 3 & 7) as u8, (w0 >> 6 & 7) as u8],
            compare: (w0 >> 12 & 7) as u8,
            force_unnorm: w0 >> 15 & 1 != 0,
            min_lod: (w1 & 0xfff) as f32 / 256.0,
            max_lod: ((w1 >> 12) & 0xfff) as f32 / 256.0,
            lod_bias: (((w2 & 0x3fff) << 18) as i32 >> 18) as f32 / 256.0,
            mag_linear: linear(w2 >> 20 & 3),
            min_linear: linear(w2 >> 22 & 3),
            z_linear: (w2 >> 24 & 3) == 2,
            mip: (w2 >> 26 & 3) as u8,
            border: (w3 >> 30) as u8,
        }
    }
}

// ---- formats -----------------------------------------------------------------------------

/// IMG_DATA_FORMAT names, for fault messages.
fn dfmt_name(d: u8) -> String {
    match vmem::DFMT_NAMES.get(d as usize) {
        Some(n) => format!("{n} ({d:#x})"),
        None => format!("{d:#x}"),
    }
}

/// IMG_NUM_FORMAT names.
fn nfmt_name(n: u8) -> &'static str {
    vmem::NFMT_NAMES[n as usize & 15]
}

fn unsupported(op: &Op, t: &Tex, what: &str) -> Fault {
    Fault::Unsupported(format!(
        "{}: image data format {} with number format {} {what} is not emulated",
        op.inst.mnemonic(),
        dfmt_name(t.dfmt),
        nfmt_name(t.nfmt)
    ))
}

/// The component layout of an image data format: the buffer formats 1–14 (shared with
/// MUBUF) and the 16-bit packed formats 16–19, components numbered from the lowest bits.
fn image_format(op: &Op, t: &Tex) -> Result<DataFormat, Fault> {
    let z = (0, 0);
    let f = |count, comps| DataFormat {
        count,
        comps,
        bytes: 2,
    };
    let fmt = match t.dfmt {
        1..=14 => vmem::data_format(t.dfmt),
        16 => Some(f(3, [(0, 5), (5, 6), (11, 5), z])),
        17 => Some(f(4, [(0, 5), (5, 5), (10, 5), (15, 1)])),
        18 => Some(f(4, [(0, 1), (1, 5), (6, 5), (11, 5)])),
        19 => Some(f(4, [(0, 4), (4, 4), (8, 4), (12, 4)])),
        _ => None,
    };
    fmt.ok_or_else(|| unsupported(op, t, "(data format)"))
}

/// True if the number format reads as integers (its default 1 is the integer 1).
fn int_nfmt(nfmt: u8) -> bool {
    matches!(nfmt, 4 | 5)
}

fn one(nfmt: u8) -> u32 {
    if int_nfmt(nfmt) {
        1
    } else {
        1.0f32.to_bits()
    }
}

fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(c: f64) -> f64 {
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// Component `i` (raw `bits` wide) converted to its register value.
fn unpack(nfmt: u8, bits: u32, x: u32, i: usize) -> Option<u32> {
    match (nfmt, bits) {
        // sRGB converts the colour components; alpha (W) is plain unorm.
        (9, 8) if i < 3 => Some((srgb_to_linear(x as f64 / 255.0) as f32).to_bits()),
        (9, _) => vmem::unpack(0, bits, x),
        (0..=7, _) => vmem::unpack(nfmt, bits, x),
        _ => None,
    }
}

/// A register value converted to component `i`'s raw bits.
fn pack(nfmt: u8, bits: u32, v: u32, i: usize) -> Option<u32> {
    match (nfmt, bits) {
        (9, 8) if i < 3 => {
            let f = f32::from_bits(v);
            let c = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
            Some((linear_to_srgb(c as f64) * 255.0).round_ties_even() as u32)
        }
        (9, _) => vmem::pack(0, bits, v),
        (0 | 1 | 4 | 5 | 7, _) => vmem::pack(nfmt, bits, v),
        _ => None,
    }
}

// ---- memory layout -----------------------------------------------------------------------

/// One mip level: its size, row pitch (texels) and byte offset from the base.
#[derive(Clone, Copy, Debug, Default)]
struct Level {
    w: u64,
    h: u64,
    d: u64,
    pitch: u64,
    offset: u64,
}

/// The linear layout of an image in memory (docs/emulator-images.md "Memory layout").
#[derive(Clone, Copy, Debug)]
struct Layout {
    bpe: u64,
    slices: u64,
    samples: u64,
    levels: [Level; 16],
}

impl Layout {
    fn new(t: &Tex, bpe: u64) -> Layout {
        let samples = if t.is_msaa() {
            1 << t.last_level.min(4)
        } else {
            1
        };
        let slices = t.slices();
        let mut levels = [Level::default(); 16];
        let mut offset = 0u64;
        for (l, lv) in levels.iter_mut().enumerate() {
            let w = (t.width >> l).max(1);
            let h = if t.is_1d() { 1 } else { (t.height >> l).max(1) };
            let d = if t.is_3d() { (t.depth >> l).max(1) } else { 1 };
            let pitch = if l == 0 { t.pitch.max(w) } else { w };
            *lv = Level {
                w,
                h,
                d,
                pitch,
                offset,
            };
            // Below 2^52 bytes per level (pitch 2^16 · height 2^14 · 16 bytes, times depth
            // 2^13 for 3D, or slices 2^13 · samples 16 for arrays): no overflow.
            offset = offset.wrapping_add(pitch * h * d * slices * samples * bpe);
        }
        Layout {
            bpe,
            slices,
            samples,
            levels,
        }
    }

    /// The address of a texel whose indices are in range.
    fn addr(&self, t: &Tex, (level, x, y, z, slice, frag): Texel) -> u64 {
        let lv = &self.levels[level & 15];
        let e = (((slice * lv.d + z) * lv.h + y) * lv.pitch + x) * self.samples + frag;
        t.base.wrapping_add(lv.offset).wrapping_add(e * self.bpe) & ((1 << 48) - 1)
    }
}

/// Reads the raw bits of the element at `a` (up to 16 bytes).
fn read_raw(env: &Env<'_>, a: u64, bytes: usize) -> Result<[u32; 4], Fault> {
    let mut raw = [0u32; 4];
    match bytes {
        1 => raw[0] = env.mem.load_u8(a)? as u32,
        2 => raw[0] = env.mem.load_u16(a)? as u32,
        _ => {
            for k in 0..bytes / 4 {
                raw[k] = env.mem.load_u32(a + 4 * k as u64)?;
            }
        }
    }
    Ok(raw)
}

fn write_raw(env: &Env<'_>, a: u64, bytes: usize, raw: &[u32; 4]) -> Result<(), Fault> {
    match bytes {
        1 => env.mem.store_u8(a, raw[0] as u8)?,
        2 => env.mem.store_u16(a, raw[0] as u16)?,
        _ => {
            for k in 0..bytes / 4 {
                env.mem.store_u32(a + 4 * k as u64, raw[k])?;
            }
        }
    }
    Ok(())
}

fn check_mapped(env: &Env<'_>, a: u64, bytes: usize) -> Result<(), Fault> {
    env.mem.load_u8(a)?;
    env.mem.load_u8(a + bytes as u64 - 1)?;
    Ok(())
}

/// The converted components X, Y, Z, W of a raw element (absent ones 0, 0, 0, 1).
fn convert(op: &Op, t: &Tex, fmt: &DataFormat, raw: &[u32; 4]) -> Result<[u32; 4], Fault> {
    let mut c = [0, 0, 0, one(t.nfmt)];
    for i in 0..fmt.count {
        let bits = fmt.comps[i].1;
        c[i] = unpack(t.nfmt, bits, vmem::component(raw, fmt.comps[i]), i)
            .ok_or_else(|| unsupported(op, t, "load"))?;
    }
    Ok(c)
}

/// DST_SEL: 0 → 0, 1 → 1, 4..7 → X..W.
fn swizzle(t: &Tex, c: &[u32; 4]) -> [u32; 4] {
    std::array::from_fn(|i| match t.dst_sel[i] {
        1 => one(t.nfmt),
        s @ 4..=7 => c[s as usize - 4],
        _ => 0,
    })
}

fn check_type(op: &Op, t: &Tex) -> Result<(), Fault> {
    if t.ty < 8 {
        return Err(Fault::Unsupported(format!(
            "{}: image resource type {} (not an image) is not emulated",
            op.inst.mnemonic(),
            t.ty
        )));
    }
    Ok(())
}

// ---- address VGPRs -----------------------------------------------------------------------

/// Reads address components in order: 32-bit VGPRs, or 16-bit halves with `a16`.
struct AddrIn<'a> {
    w: &'a Wave,
    base: usize,
    a16: bool,
    half: usize,
}

impl<'a> AddrIn<'a> {
    fn new(w: &'a Wave, op: &Op) -> AddrIn<'a> {
        AddrIn {
            w,
            base: op.vaddr as usize,
            a16: op.imm & A16 != 0,
            half: 0,
        }
    }
    fn reg(&self, k: usize, lane: usize) -> u32 {
        self.w.v.get(self.base + k).map_or(0, |r| r[lane])
    }
    /// Starts the next group at a dword boundary.
    fn align(&mut self) {
        self.half = (self.half + 1) & !1;
    }
    /// A whole dword (offsets, z-compare).
    fn dword(&mut self, lane: usize) -> u32 {
        self.align();
        let x = self.reg(self.half / 2, lane);
        self.half += 2;
        x
    }
    /// One component: a dword, or a 16-bit half with a16.
    fn raw(&mut self, lane: usize) -> u32 {
        if self.a16 {
            let x = self.reg(self.half / 2, lane) >> (16 * (self.half % 2)) & 0xffff;
            self.half += 1;
            x
        } else {
            self.dword(lane)
        }
    }
    fn uint(&mut self, lane: usize) -> u64 {
        self.raw(lane) as u64
    }
    fn float(&mut self, lane: usize) -> f32 {
        let x = self.raw(lane);
        if self.a16 {
            half::f16::from_bits(x as u16).to_f32()
        } else {
            f32::from_bits(x)
        }
    }
}

// ---- result registers --------------------------------------------------------------------

/// Writes `n` result components of lane `l` from `vdata`: 32-bit, or 16-bit packed or
/// unpacked with d16; then the TFE/LWE status dword (always 0: no texture fails here).
fn write_result(w: &mut Wave, op: &Op, nfmt: u8, l: usize, comps: &[u32], int_result: bool) {
    let v = op.vdata as usize;
    let d16 = op.imm & D16 != 0;
    let cvt = |x: u32| {
        if int_result {
            x & 0xffff
        } else {
            vmem::to_d16(nfmt, x)
        }
    };
    let regs = if !d16 {
        for (i, &x) in comps.iter().enumerate() {
            w.v[v + i][l] = x;
        }
        comps.len()
    } else if op.imm & D16_UNPACKED != 0 {
        for (i, &x) in comps.iter().enumerate() {
            w.v[v + i][l] = cvt(x);
        }
        comps.len()
    } else {
        for j in 0..comps.len().div_ceil(2) {
            let lo = cvt(comps[2 * j]);
            let hi = comps.get(2 * j + 1).map_or(0, |&x| cvt(x));
            w.v[v + j][l] = lo | hi << 16;
        }
        comps.len().div_ceil(2)
    };
    if op.mflags & memflags::TFE != 0 || op.imm & LWE != 0 {
        if let Some(r) = w.v.get_mut(v + regs) {
            r[l] = 0;
        }
    }
}

/// The components dmask selects, in order (dmask 0 reads as 1).
fn dmask_select(op: &Op, c: &[u32; 4]) -> ([u32; 4], usize) {
    let mut dmask = op.imm & DMASK;
    if dmask == 0 {
        dmask = 1;
    }
    let mut out = [0u32; 4];
    let mut n = 0;
    for i in 0..4 {
        if dmask >> i & 1 != 0 {
            out[n] = c[i];
            n += 1;
        }
    }
    (out, n)
}

/// The integer texel coordinates of a load, store or atomic, in range of the selected level:
/// `(level, x, y, z, slice, frag)`, or `None` when out of range.
type Texel = (usize, u64, u64, u64, u64, u64);

fn texel_coords(a: &mut AddrIn<'_>, t: &Tex, lay: &Layout, mip: bool, l: usize) -> Option<Texel> {
    let x = a.uint(l);
    let y = if t.axes() >= 2 { a.uint(l) } else { 0 };
    let z = if t.is_3d() { a.uint(l) } else { 0 };
    let slice = if t.is_array() || t.is_cube() {
        a.uint(l)
    } else {
        0
    };
    let frag = if t.is_msaa() { a.uint(l) } else { 0 };
    let m = if mip && !t.is_msaa() { a.uint(l) } else { 0 };
    let level = t.base_level as u64 + m;
    if !t.is_msaa() && (level > t.last_level as u64 || level > 15) {
        return None;
    }
    let lv = &lay.levels[level as usize];
    let slice = t.base_array + slice;
    let slice_ok = if t.is_array() || t.is_cube() {
        slice <= t.last_array.max(if t.is_cube() { 5 } else { 0 }) && slice < lay.slices
    } else {
        true
    };
    let ok = x < lv.w && y < lv.h && z < lv.d && slice_ok && frag < lay.samples;
    ok.then_some((level as usize, x, y, z, slice, frag))
}

// ---- loads and stores ----------------------------------------------------------------------

/// image_load[_mip][_pck[_sgn]]: the element converted by the T#'s formats and DST_SEL
/// (`PCK`: raw components, zero- or sign-extended, no DST_SEL), then the DMASK components.
fn load<const MIP: bool, const PCK: bool, const SGN: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Next);
    }
    let t = Tex::read(w, op);
    check_type(op, &t)?;
    let fmt = image_format(op, &t)?;
    let lay = Layout::new(&t, fmt.bytes as u64);
    let mut out = [([0u32; 4], 0usize); LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let mut a = AddrIn::new(w, op);
        let pos = texel_coords(&mut a, &t, &lay, MIP, l);
        let c = match pos {
            Some(pos) => {
                let raw = read_raw(env, lay.addr(&t, pos), fmt.bytes)?;
                if PCK {
                    std::array::from_fn(|i| {
                        if i >= fmt.count {
                            return 0;
                        }
                        let (shift, bits) = fmt.comps[i];
                        let x = vmem::component(&raw, (shift, bits));
                        if SGN {
                            vmem::sext(x, bits) as u32
                        } else {
                            x
                        }
                    })
                } else {
                    swizzle(&t, &convert(op, &t, &fmt, &raw)?)
                }
            }
            None if PCK => [0; 4],
            None => swizzle(&t, &[0; 4]),
        };
        out[l] = dmask_select(op, &c);
    }
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            let (c, n) = out[l];
            write_result(w, op, t.nfmt, l, &c[..n], PCK);
        }
    }
    Ok(Flow::Next)
}

/// image_store[_mip][_pck]: the DMASK components from vdata (converted to the T#'s formats
/// unless `PCK`) replace those components of the element; the others keep their value.
fn store<const MIP: bool, const PCK: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Next);
    }
    let t = Tex::read(w, op);
    check_type(op, &t)?;
    let fmt = image_format(op, &t)?;
    let lay = Layout::new(&t, fmt.bytes as u64);
    let mut dmask = op.imm & DMASK;
    if dmask == 0 {
        dmask = 1;
    }
    let d16 = op.imm & D16 != 0;
    let unpacked = op.imm & D16_UNPACKED != 0;
    let v = op.vdata as usize;
    let mut addrs = [None; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let mut a = AddrIn::new(w, op);
        if let Some(pos) = texel_coords(&mut a, &t, &lay, MIP, l) {
            let p = lay.addr(&t, pos);
            check_mapped(env, p, fmt.bytes)?;
            addrs[l] = Some(p);
        }
    }
    for l in 0..LANES {
        let Some(p) = addrs[l] else { continue };
        let mut raw = read_raw(env, p, fmt.bytes)?;
        let mut all = raw[0] as u128
            | (raw[1] as u128) << 32
            | (raw[2] as u128) << 64
            | (raw[3] as u128) << 96;
        let mut k = 0;
        for i in 0..4 {
            if dmask >> i & 1 == 0 {
                continue;
            }
            let reg = if !d16 {
                w.v[v + k][l]
            } else if unpacked {
                vmem::from_d16(t.nfmt, w.v[v + k][l])
            } else {
                vmem::from_d16(t.nfmt, w.v[v + k / 2][l] >> (16 * (k % 2)))
            };
            k += 1;
            if i >= fmt.count {
                continue;
            }
            let (shift, bits) = fmt.comps[i];
            let mask = if bits >= 32 {
                u32::MAX as u128
            } else {
                (1u128 << bits) - 1
            };
            let x = if PCK {
                reg
            } else {
                pack(t.nfmt, bits, reg, i).ok_or_else(|| unsupported(op, &t, "store"))?
            };
            all = (all & !(mask << shift)) | ((x as u128 & mask) << shift);
        }
        raw = [
            all as u32,
            (all >> 32) as u32,
            (all >> 64) as u32,
            (all >> 96) as u32,
        ];
        write_raw(env, p, fmt.bytes, &raw)?;
    }
    Ok(Flow::Next)
}

/// image_get_resinfo: for mip level vaddr[0] (relative to BASE_LEVEL), X width, Y height,
/// Z depth (3D) or array slices (arrays, cube maps), W the number of levels; 0 for the sizes
/// of a level beyond LAST_LEVEL. Integers.
fn get_resinfo(w: &mut Wave, op: &Op, _env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Next);
    }
    let t = Tex::read(w, op);
    check_type(op, &t)?;
    let levels = t.levels();
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let mip = w.v[op.vaddr as usize][l];
        let c = if mip < levels {
            let lv = t.base_level + mip;
            let wd = (t.width >> lv).max(1) as u32;
            let ht = if t.is_1d() {
                1
            } else {
                (t.height >> lv).max(1) as u32
            };
            let z = if t.is_3d() {
                (t.depth >> lv).max(1) as u32
            } else if t.is_array() || t.is_cube() {
                (t.last_array.saturating_sub(t.base_array) + 1) as u32
            } else {
                1
            };
            [wd, ht, z, levels]
        } else {
            [0, 0, 0, levels]
        };
        let (c, n) = dmask_select(op, &c);
        write_result(w, op, 4, l, &c[..n], true);
    }
    Ok(Flow::Next)
}

// ---- atomics -------------------------------------------------------------------------------

/// image_atomic_*: 32-bit on a 32-bit element (dmask 0x1, cmpswap 0x3) or 64-bit on a
/// 64-bit element (dmask 0x3, cmpswap 0xf); the old value returns to vdata with glc.
/// cmpswap data is `{src, cmp}`. Out of range: nothing happens, 0 is returned.
fn atomic<const OP: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Next);
    }
    let t = Tex::read(w, op);
    check_type(op, &t)?;
    let fmt = image_format(op, &t)?;
    let cmp = OP == aop::CMPST || OP == aop::CMPST_F;
    let dwords = (op.imm & DMASK).count_ones() as usize / if cmp { 2 } else { 1 };
    let wide = match (dwords, fmt.bytes) {
        (0 | 1, 4) => false,
        (2, 8) => true,
        _ => {
            return Err(Fault::Unsupported(format!(
                "{}: an atomic with dmask {:#x} on {}-byte elements (image data format {}) is \
                 not emulated (32-bit atomics need a 32-bit format, 64-bit ones 32_32)",
                op.inst.mnemonic(),
                op.imm & DMASK,
                fmt.bytes,
                dfmt_name(t.dfmt)
            )))
        }
    };
    let lay = Layout::new(&t, fmt.bytes as u64);
    let mut addrs = [None; LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let mut a = AddrIn::new(w, op);
        if let Some(pos) = texel_coords(&mut a, &t, &lay, false, l) {
            let p = lay.addr(&t, pos);
            check_mapped(env, p, fmt.bytes)?;
            addrs[l] = Some(p);
        }
    }
    let ret = op.mflags & memflags::GLC != 0;
    let fp = FpEnv::global(op);
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        if wide {
            let (d0, d1) = if cmp {
                (ds::vreg64(w, op.vdata + 2, l), ds::vreg64(w, op.vdata, l))
            } else {
                (ds::vreg64(w, op.vdata, l), 0)
            };
            let old = match addrs[l] {
                Some(p) => env.mem.atomic_rmw64(p, |x| rmw64::<OP>(x, d0, d1, fp))?,
                None => 0,
            };
            if ret {
                ds::set_vreg64(w, op.vdata, l, old);
            }
        } else {
            let v = op.vdata as usize;
            let (d0, d1) = if cmp {
                (w.v[v + 1][l], w.v[v][l])
            } else {
                (w.v[v][l], 0)
            };
            let old = match addrs[l] {
                Some(p) => env.mem.atomic_rmw32(p, |x| rmw32::<OP>(x, d0, d1, fp))?,
                None => 0,
            };
            if ret {
                w.v[v][l] = old;
            }
        }
    }
    Ok(Flow::Next)
}

// ---- sampling ------------------------------------------------------------------------------

/// One lane's sampling inputs.
#[derive(Clone, Copy, Debug, Default)]
struct SampleIn {
    offset: [i64; 3],
    bias: f32,
    zref: f32,
    ddx: [f32; 3],
    ddy: [f32; 3],
    coord: [f32; 3],
    layer: f32,
    /// The LOD of `_l`, or the clamp of `_cl`.
    lod_or_clamp: f32,
}

fn read_sample_in(a: &mut AddrIn<'_>, t: &Tex, v: i64, l: usize) -> SampleIn {
    let mut s = SampleIn::default();
    if v & var::O != 0 {
        let o = a.dword(l);
        // 6-bit signed texel offsets at bits 5:0, 13:8, 21:16.
        s.offset = std::array::from_fn(|i| (((o >> (8 * i)) & 0x3f) << 26) as i32 as i64 >> 26);
    }
    if v & var::B != 0 {
        a.align();
        s.bias = a.float(l);
    }
    if v & var::C != 0 {
        s.zref = f32::from_bits(a.dword(l));
    }
    let axes = t.axes();
    if v & var::D != 0 {
        a.align();
        for i in 0..axes {
            s.ddx[i] = a.float(l);
        }
        a.align();
        for i in 0..axes {
            s.ddy[i] = a.float(l);
        }
    }
    a.align();
    for i in 0..axes {
        s.coord[i] = a.float(l);
    }
    if t.is_array() || t.is_cube() {
        s.layer = a.float(l);
    }
    if v & (var::L | var::CL) != 0 {
        s.lod_or_clamp = a.float(l);
    }
    s
}

/// The texel index along an axis of `n` texels under clamp mode `mode`; `None`: border.
fn address_mode(mode: u8, i: i64, n: i64) -> Option<i64> {
    // Saturating: coordinates of ±1e30 or ±inf arrive as i64::MIN / i64::MAX.
    let mirror_once = |i: i64| if i < 0 { -(i + 1) } else { i };
    match mode {
        0 => Some(i.rem_euclid(n)),
        1 => {
            let m = i.rem_euclid(2 * n);
            Some(if m >= n { 2 * n - 1 - m } else { m })
        }
        2 => Some(i.clamp(0, n - 1)),
        3 => Some(mirror_once(i).min(n - 1)),
        4 | 6 => (0..n).contains(&i).then_some(i),
        _ => {
            let j = mirror_once(i);
            (j < n).then_some(j)
        }
    }
}

/// The border colour (BORDER_COLOR_TYPE 0 transparent black, 1 opaque black, 2 opaque
/// white); type 3 (a colour from the border-colour table) is not emulated.
fn border_color(op: &Op, s: &Samp, nfmt: u8) -> Result<[u32; 4], Fault> {
    let o = one(nfmt);
    Ok(match s.border {
        0 => [0; 4],
        1 => [0, 0, 0, o],
        2 => [o; 4],
        _ => {
            return Err(Fault::Unsupported(format!(
                "{}: sampler border colour from the border-colour table is not emulated",
                op.inst.mnemonic()
            )))
        }
    })
}

/// What the texel fetches of one sampling instruction share.
struct Fetcher<'a, 'e> {
    env: &'a Env<'e>,
    op: &'a Op,
    t: Tex,
    s: Samp,
    fmt: DataFormat,
    lay: Layout,
    border: [u32; 4],
}

impl Fetcher<'_, '_> {
    /// The swizzled texel at integer indices `i` of level `lv` (relative to BASE_LEVEL),
    /// addressed by the sampler's clamp modes (cube maps clamp to the face's edge).
    fn texel(&self, lv: u32, i: [i64; 3], slice: u64) -> Result<[u32; 4], Fault> {
        let level = (self.t.base_level + lv).min(15) as usize;
        let g = &self.lay.levels[level];
        let dims = [g.w as i64, g.h as i64, g.d as i64];
        let mut idx = [0u64; 3];
        for k in 0..3 {
            let mode = if self.t.is_cube() { 2 } else { self.s.clamp[k] };
            match address_mode(mode, i[k], dims[k]) {
                Some(j) => idx[k] = j as u64,
                None => return Ok(self.border),
            }
        }
        let p = self
            .lay
            .addr(&self.t, (level, idx[0], idx[1], idx[2], slice, 0));
        let raw = read_raw(self.env, p, self.fmt.bytes)?;
        Ok(swizzle(
            &self.t,
            &convert(self.op, &self.t, &self.fmt, &raw)?,
        ))
    }
}

/// The depth comparison `ref FUNC texel` (0 never, 1 less, 2 equal, 3 less-equal,
/// 4 greater, 5 not-equal, 6 greater-equal, 7 always): 1.0 or 0.0.
fn compare(func: u8, r: f32, x: f32) -> f32 {
    let pass = match func {
        0 => false,
        1 => r < x,
        2 => r == x,
        3 => r <= x,
        4 => r > x,
        5 => r != x,
        6 => r >= x,
        _ => true,
    };
    if pass {
        1.0
    } else {
        0.0
    }
}

/// The level-of-detail inputs of one lane.
struct Lod {
    /// LOD after bias and the min/max clamps.
    clamped: f32,
    /// LOD after bias only (image_get_lod's second result).
    unclamped: f32,
}

fn compute_lod(t: &Tex, s: &Samp, v: i64, unnorm: bool, inp: &SampleIn) -> Lod {
    let lod = if unnorm || v & var::LZ != 0 {
        0.0
    } else if v & var::L != 0 {
        inp.lod_or_clamp
    } else {
        let lv = t.base_level.min(15);
        let dims = [
            (t.width >> lv).max(1) as f32,
            if t.is_1d() {
                0.0
            } else {
                (t.height >> lv).max(1) as f32
            },
            if t.is_3d() {
                (t.depth >> lv).max(1) as f32
            } else {
                0.0
            },
        ];
        let len = |d: &[f32; 3]| (0..3).map(|k| (d[k] * dims[k]).powi(2)).sum::<f32>().sqrt();
        let rho = len(&inp.ddx).max(len(&inp.ddy));
        rho.log2() + s.lod_bias + inp.bias
    };
    let mut lo = s.min_lod.max(t.min_lod);
    if v & var::CL != 0 {
        lo = lo.max(inp.lod_or_clamp);
    }
    let clamped = lod.max(lo).min(s.max_lod.max(lo));
    Lod {
        clamped: if clamped.is_nan() { 0.0 } else { clamped },
        unclamped: lod,
    }
}

/// image_sample*, image_gather4*, image_get_lod (variant bits in `op.imm2`).
fn sample(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Next);
    }
    let v = op.imm2;
    let t = Tex::read(w, op);
    check_type(op, &t)?;
    let s = Samp::read(w, op);
    let fmt = image_format(op, &t)?;
    let lay = Layout::new(&t, fmt.bytes as u64);
    let unnorm = op.imm & UNORM != 0 || s.force_unnorm;
    // Every lane's inputs, active or not: the implicit derivatives read the quad.
    let mut inp = [SampleIn::default(); LANES];
    for l in 0..LANES {
        let mut a = AddrIn::new(w, op);
        inp[l] = read_sample_in(&mut a, &t, v, l);
    }
    if v & (var::D | var::L | var::LZ) == 0 {
        // Coarse derivatives from the 2×2 quad of lanes (4k: top left, 4k+1 top right,
        // 4k+2 bottom left).
        for l in 0..LANES {
            let q = l & !3;
            for k in 0..3 {
                inp[l].ddx[k] = inp[q + 1].coord[k] - inp[q].coord[k];
                inp[l].ddy[k] = inp[q + 2].coord[k] - inp[q].coord[k];
            }
        }
    }
    let border = border_color(op, &s, t.nfmt)?;
    let fx = Fetcher {
        env,
        op,
        t,
        s,
        fmt,
        lay,
        border,
    };
    let int = int_nfmt(t.nfmt);
    let mut out = [([0u32; 4], 0usize); LANES];
    for l in 0..LANES {
        if exec >> l & 1 == 0 {
            continue;
        }
        let inp = &inp[l];
        let lod = compute_lod(&t, &s, v, unnorm, inp);
        let c = if v & var::GET_LOD != 0 {
            let levels = t.levels() as f32 - 1.0;
            let x = if s.mip == 0 {
                0.0
            } else {
                lod.clamped.clamp(0.0, levels)
            };
            [x.to_bits(), lod.unclamped.to_bits(), 0, 0]
        } else {
            sample_lane(&fx, v, unnorm, int, inp, &lod)?
        };
        out[l] = if v & var::GATHER != 0 {
            (c, 4)
        } else {
            dmask_select(op, &c)
        };
    }
    let int_result = int && v & var::GET_LOD == 0 && v & var::C == 0;
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            let (c, n) = out[l];
            write_result(w, op, t.nfmt, l, &c[..n], int_result);
        }
    }
    Ok(Flow::Next)
}

/// The array slice of a sample: rounded to nearest, clamped to the visible slices; cube
/// maps take the face from the third coordinate (cube arrays: `8 · slice + face`).
fn sample_slice(t: &Tex, op: &Op, layer: f32) -> u64 {
    // Slices are below 2^13 (and cube layers below 2^16): larger values only clamp.
    let r = layer.round_ties_even().clamp(0.0, 65536.0);
    let r = if r.is_nan() { 0 } else { r as u64 };
    if t.is_cube() {
        let (slice, face) = if op.imm & DA != 0 {
            (r / 8, (r % 8).min(5))
        } else {
            (0, r.min(5))
        };
        return (t.base_array + slice * 6 + face).min(t.slices() - 1);
    }
    if !t.is_array() {
        return 0;
    }
    (t.base_array + r).min(t.last_array)
}

/// One lane of a sample or gather: the level(s) chosen from the LOD, each filtered.
fn sample_lane(
    fx: &Fetcher<'_, '_>,
    v: i64,
    unnorm: bool,
    int: bool,
    inp: &SampleIn,
    lod: &Lod,
) -> Result<[u32; 4], Fault> {
    let t = &fx.t;
    let s = &fx.s;
    let last = t.levels() - 1;
    let slice = sample_slice(t, fx.op, inp.layer);
    // Cube face coordinates arrive in [1, 2] (the v_cubesc/v_cubema convention).
    let mut coord = inp.coord;
    if t.is_cube() {
        coord[0] -= 1.0;
        coord[1] -= 1.0;
    }
    let gather = v & var::GATHER != 0;
    let (mut l0, mut l1, mut frac) = (0u32, 0u32, 0.0f32);
    if !unnorm && s.mip != 0 {
        let x = lod.clamped.max(0.0);
        if s.mip == 1 || gather || int {
            l0 = ((x + 0.5).floor() as u32).min(last);
            l1 = l0;
        } else {
            l0 = (x.floor() as u32).min(last);
            l1 = (l0 + 1).min(last);
            frac = if l1 == l0 { 0.0 } else { x - x.floor() };
        }
    }
    if gather {
        return gather_level(fx, v, unnorm, inp, &coord, l0, slice);
    }
    let linear = !int
        && if lod.clamped > 0.0 {
            s.min_linear
        } else {
            s.mag_linear
        };
    let a = filter_level(fx, v, unnorm, linear, inp, &coord, l0, slice)?;
    if frac == 0.0 {
        return Ok(a);
    }
    let b = filter_level(fx, v, unnorm, linear, inp, &coord, l1, slice)?;
    Ok(std::array::from_fn(|i| {
        let (x, y) = (f32::from_bits(a[i]), f32::from_bits(b[i]));
        (x + (y - x) * frac).to_bits()
    }))
}

/// The texel-space coordinate of axis `k` at level `lv`.
fn texel_space(
    fx: &Fetcher<'_, '_>,
    unnorm: bool,
    coord: &[f32; 3],
    off: &[i64; 3],
    lv: u32,
    k: usize,
) -> f32 {
    let level = (fx.t.base_level + lv).min(15) as usize;
    let g = &fx.lay.levels[level];
    let n = [g.w, g.h, g.d][k] as f32;
    let x = if unnorm { coord[k] } else { coord[k] * n };
    let x = x + off[k] as f32;
    // Half-border modes clamp the coordinate half a texel beyond the edge.
    match fx.s.clamp[k] {
        4 if !fx.t.is_cube() => x.clamp(-0.5, n + 0.5),
        5 if !fx.t.is_cube() => x.clamp(-n - 0.5, n + 0.5),
        _ => x,
    }
}

/// Point or (bi/tri)linear filtering of one level.
#[allow(clippy::too_many_arguments)]
fn filter_level(
    fx: &Fetcher<'_, '_>,
    v: i64,
    unnorm: bool,
    linear: bool,
    inp: &SampleIn,
    coord: &[f32; 3],
    lv: u32,
    slice: u64,
) -> Result<[u32; 4], Fault> {
    let axes = fx.t.axes();
    // Per axis: up to two taps (index, weight).
    let mut taps = [[(0i64, 1.0f32), (0, 0.0)]; 3];
    for k in 0..axes {
        let x = texel_space(fx, unnorm, coord, &inp.offset, lv, k);
        let lin = if k == 2 { fx.s.z_linear } else { linear };
        taps[k] = if lin {
            let u = x - 0.5;
            let i0 = u.floor();
            let a = u - i0;
            [(i0 as i64, 1.0 - a), ((i0 as i64).saturating_add(1), a)]
        } else {
            [(x.floor() as i64, 1.0), (0, 0.0)]
        };
    }
    let cmp = v & var::C != 0;
    let mut acc = [0f32; 4];
    let mut only: Option<[u32; 4]> = None;
    for &(iz, wz) in &taps[2] {
        for &(iy, wy) in &taps[1] {
            for &(ix, wx) in &taps[0] {
                let wgt = wx * wy * wz;
                if wgt == 0.0 {
                    continue;
                }
                let c = fx.texel(lv, [ix, iy, iz], slice)?;
                if cmp {
                    let r = compare(fx.s.compare, inp.zref, f32::from_bits(c[0]));
                    for a in acc.iter_mut() {
                        *a += wgt * r;
                    }
                } else if wgt == 1.0 {
                    // One tap: the texel exactly (integer formats, point sampling).
                    only = Some(c);
                } else {
                    for i in 0..4 {
                        acc[i] += wgt * f32::from_bits(c[i]);
                    }
                }
            }
        }
    }
    if let (Some(c), false) = (only, cmp) {
        return Ok(c);
    }
    Ok(acc.map(f32::to_bits))
}

/// Gather4: one component (DMASK's lowest bit) of the bilinear footprint's four texels,
/// X = (i0, j1), Y = (i1, j1), Z = (i1, j0), W = (i0, j0); with `_c` the comparison
/// results. gather4h: four texels of one row, i0 − 1 ..= i0 + 2, left to right.
fn gather_level(
    fx: &Fetcher<'_, '_>,
    v: i64,
    unnorm: bool,
    inp: &SampleIn,
    coord: &[f32; 3],
    lv: u32,
    slice: u64,
) -> Result<[u32; 4], Fault> {
    let comp = ((fx.op.imm & DMASK) as u32).trailing_zeros().min(3) as usize;
    let u = texel_space(fx, unnorm, coord, &inp.offset, lv, 0) - 0.5;
    let vv = if fx.t.axes() >= 2 {
        texel_space(fx, unnorm, coord, &inp.offset, lv, 1)
    } else {
        0.5
    };
    let i0 = u.floor() as i64;
    let pos: [(i64, i64); 4] = if v & var::GATHER_H != 0 {
        let j = vv.floor() as i64;
        let i = |d: i64| i0.saturating_add(d);
        [(i(-1), j), (i(0), j), (i(1), j), (i(2), j)]
    } else {
        let j0 = (vv - 0.5).floor() as i64;
        let (i1, j1) = (i0.saturating_add(1), j0.saturating_add(1));
        [(i0, j1), (i1, j1), (i1, j0), (i0, j0)]
    };
    let mut out = [0u32; 4];
    for (k, &(i, j)) in pos.iter().enumerate() {
        let c = fx.texel(lv, [i, j, 0], slice)?;
        out[k] = if v & var::C != 0 {
            compare(fx.s.compare, inp.zref, f32::from_bits(c[0])).to_bits()
        } else {
            c[comp]
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
