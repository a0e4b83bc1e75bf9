//! Unit tests of the image instructions. Expected values are worked by hand from the
//! manuals (the section is named in each test) and docs/emulator-images.md, which states
//! what gcnkit assumes where the manuals are silent (memory layout, LOD details).

use super::super::ds::harness::{coverage, run, run_to_fault, Run};
use crate::exec::Fault;
use crate::memory::Memory;
use crate::wave::Wave;

// ---- descriptors -------------------------------------------------------------------------

const T1D: u32 = 8;
const T2D: u32 = 9;
const T3D: u32 = 10;
const TCUBE: u32 = 11;
const T1D_ARRAY: u32 = 12;
const T2D_ARRAY: u32 = 13;

/// IMG_DATA_FORMAT values.
const DF_32: u32 = 4;
const DF_16_16: u32 = 5;
const DF_8_8_8_8: u32 = 10;
const DF_32_32: u32 = 11;
const DF_32_32_32_32: u32 = 14;
const DF_5_6_5: u32 = 16;
const DF_11_11_10: u32 = 7;
/// IMG_NUM_FORMAT values.
const NF_UNORM: u32 = 0;
const NF_UINT: u32 = 4;
const NF_FLOAT: u32 = 7;
const NF_SRGB: u32 = 9;

const XYZW: [u32; 4] = [4, 5, 6, 7];

/// An image resource (SI §8.2.4 / Vega §8.2.x "Image Resource" table): sizes as counts.
#[derive(Clone, Copy)]
struct T {
    base: u64,
    dfmt: u32,
    nfmt: u32,
    width: u32,
    height: u32,
    depth: u32,
    pitch: u32,
    sel: [u32; 4],
    base_level: u32,
    last_level: u32,
    ty: u32,
    base_array: u32,
    last_array: u32,
}

impl T {
    fn new(base: u64, dfmt: u32, nfmt: u32, width: u32, height: u32) -> T {
        T {
            base,
            dfmt,
            nfmt,
            width,
            height,
            depth: 1,
            pitch: width,
            sel: XYZW,
            base_level: 0,
            last_level: 0,
            ty: T2D,
            base_array: 0,
            last_array: 0,
        }
    }

    /// The eight T# words; `gfx9` puts the last array slice in DEPTH and has a 16-bit PITCH.
    fn words(&self, gfx9: bool) -> [u32; 8] {
        let arrays = matches!(self.ty, T1D_ARRAY | T2D_ARRAY | TCUBE);
        let depth_field = if gfx9 && arrays {
            self.last_array
        } else {
            self.depth - 1
        };
        [
            (self.base >> 8) as u32,
            ((self.base >> 40) & 0xff) as u32 | self.dfmt << 20 | self.nfmt << 26,
            (self.width - 1) | (self.height - 1) << 14,
            self.sel[0]
                | self.sel[1] << 3
                | self.sel[2] << 6
                | self.sel[3] << 9
                | self.base_level << 12
                | self.last_level << 16
                | self.ty << 28,
            depth_field | (self.pitch - 1) << 13,
            self.base_array | if gfx9 { 0 } else { self.last_array << 13 },
            0,
            0,
        ]
    }
}

/// A sampler (SI §8.2.5 "Sampler Resource"): clamp mode per axis, compare function,
/// filters (0 point, 1 bilinear; mip 0 none, 1 point, 2 linear), LODs in u4.8 / s5.8.
#[derive(Clone, Copy)]
struct S {
    clamp: u32,
    compare: u32,
    linear: bool,
    mip: u32,
    min_lod: u32,
    max_lod: u32,
    bias: i32,
    border: u32,
}

impl S {
    fn point() -> S {
        S {
            clamp: 2,
            compare: 0,
            linear: false,
            mip: 0,
            min_lod: 0,
            max_lod: 15 << 8,
            bias: 0,
            border: 0,
        }
    }
    fn bilinear() -> S {
        S {
            linear: true,
            ..S::point()
        }
    }
    fn words(&self) -> [u32; 4] {
        let f = self.linear as u32;
        [
            self.clamp | self.clamp << 3 | self.clamp << 6 | self.compare << 12,
            self.min_lod | self.max_lod << 12,
            (self.bias as u32 & 0x3fff) | f << 20 | f << 22 | self.mip << 26,
            self.border << 30,
        ]
    }
}

fn gfx9(mcpu: &str) -> bool {
    mcpu.starts_with("gfx9")
}

/// Puts the T# in s[0:7] and the S# in s[8:11].
fn descriptors(w: &mut Wave, mcpu: &str, t: &T, s: &S) {
    w.s[..8].copy_from_slice(&t.words(gfx9(mcpu)));
    w.s[8..12].copy_from_slice(&s.words());
}

fn image(mem: &mut Memory, bytes: &[u8]) -> u64 {
    let a = mem.allocate(bytes.len().max(256) as u64, 256).unwrap();
    mem.write(a, bytes).unwrap();
    a
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

const SENTINEL: u32 = 0xdead_beef;

/// Runs `asm` with an image of `bytes` described by `t` (its base filled in), sampler `s`,
/// v[20..28] preset to SENTINEL and `vgprs` in v0, v1, ... of every lane.
fn go(mcpu: &str, asm: &str, bytes: &[u8], t: T, s: S, vgprs: &[u32]) -> Run {
    run(mcpu, asm, 0, |w, mem, _| {
        let base = image(mem, bytes);
        descriptors(w, mcpu, &T { base, ..t }, &s);
        for (i, &x) in vgprs.iter().enumerate() {
            w.v[i] = [x; 64];
        }
        for r in 20..28 {
            w.v[r] = [SENTINEL; 64];
        }
    })
    .unwrap()
}

fn base_of(r: &Run) -> u64 {
    r.wave.s[0] as u64 * 256
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

// ---- loads -------------------------------------------------------------------------------

/// A 4×4 RGBA8 image whose texel (1, 2) is (51, 102, 153, 255), all others 0.
fn rgba8_4x4() -> Vec<u8> {
    let mut b = vec![0u8; 64];
    let at = (2 * 4 + 1) * 4;
    b[at..at + 4].copy_from_slice(&[51, 102, 153, 255]);
    b
}

#[test]
fn image_load_converts_rgba8_unorm_to_floats() {
    // SI §8.2.4 / CLRX GcnInstrsMimg IMAGE_LOAD: the element converted by the T#'s formats:
    // unorm 8-bit is x / 255: 51 → 0.2, 102 → 0.4, 153 → 0.6, 255 → 1.0.
    for mcpu in ["gfx600", "gfx700", "gfx803", "gfx900", "gfx908", "gfx90a"] {
        let t = T::new(0, DF_8_8_8_8, NF_UNORM, 4, 4);
        let r = go(
            mcpu,
            "image_load v[20:23], v[0:1], s[0:7] dmask:0xf unorm",
            &rgba8_4x4(),
            t,
            S::point(),
            &[1, 2],
        );
        let v = |i: usize| r.wave.v[20 + i][5];
        assert_eq!(
            [v(0), v(1), v(2), v(3)],
            [0.2f32, 0.4, 0.6, 1.0].map(f32::to_bits),
            "{mcpu}"
        );
    }
}

#[test]
fn image_load_dmask_packs_the_enabled_components() {
    // dmask 0x5: X and Z in two consecutive registers; the next one is untouched.
    let t = T::new(0, DF_8_8_8_8, NF_UNORM, 4, 4);
    let r = go(
        "gfx900",
        "image_load v[20:21], v[0:1], s[0:7] dmask:0x5 unorm",
        &rgba8_4x4(),
        t,
        S::point(),
        &[1, 2],
    );
    assert_eq!(f(r.wave.v[20][0]), 0.2);
    assert_eq!(f(r.wave.v[21][0]), 0.6);
    assert_eq!(r.wave.v[22][0], SENTINEL);
}

#[test]
fn image_load_applies_dst_sel() {
    // DST_SEL (SI §8.2.4): 6 → Z, 5 → Y, 4 → X, 1 → constant one.
    let t = T {
        sel: [6, 5, 4, 1],
        ..T::new(0, DF_8_8_8_8, NF_UNORM, 4, 4)
    };
    let r = go(
        "gfx803",
        "image_load v[20:23], v[0:1], s[0:7] dmask:0xf unorm",
        &rgba8_4x4(),
        t,
        S::point(),
        &[1, 2],
    );
    let v: Vec<f32> = (0..4).map(|i| f(r.wave.v[20 + i][0])).collect();
    assert_eq!(v, [0.6, 0.4, 0.2, 1.0]);
}

#[test]
fn image_load_out_of_range_gives_zero_and_honours_exec() {
    // x = 4 on a 4-wide image is outside: 0 in every component (then DST_SEL).
    let t = T::new(0, DF_8_8_8_8, NF_UNORM, 4, 4);
    let r = run(
        "gfx900",
        "image_load v[20:23], v[0:1], s[0:7] dmask:0xf unorm",
        0,
        |w, mem, _| {
            let base = image(mem, &rgba8_4x4());
            descriptors(w, "gfx900", &T { base, ..t }, &S::point());
            w.v[0] = [4; 64];
            w.v[0][1] = 1;
            w.v[1] = [2; 64];
            for r in 20..24 {
                w.v[r] = [SENTINEL; 64];
            }
            w.set_exec(!(1u64 << 7));
        },
    )
    .unwrap();
    for i in 0..4 {
        assert_eq!(r.wave.v[20 + i][0], 0);
        assert_eq!(r.wave.v[20 + i][7], SENTINEL, "inactive lane");
    }
    assert_eq!(f(r.wave.v[20][1]), 0.2);
}

#[test]
fn image_load_mip_addresses_the_level_after_level_zero() {
    // Memory layout (docs/emulator-images.md): level 1 of a 4×4 R32 image starts after the
    // 16 texels of level 0; texel (1, 1) of the 2×2 level is its fourth: byte 64 + 12.
    let mut b = vec![0u32; 21];
    b[16 + 3] = 0x1234_5678;
    let t = T {
        last_level: 2,
        ..T::new(0, DF_32, NF_UINT, 4, 4)
    };
    let asm = "image_load_mip v[20:20], v[0:2], s[0:7] dmask:0x1 unorm";
    let r = go("gfx700", asm, &u32s(&b), t, S::point(), &[1, 1, 1]);
    assert_eq!(r.wave.v[20][0], 0x1234_5678);
    // Level 3 is beyond LAST_LEVEL 2: out of range.
    let r = go("gfx700", asm, &u32s(&b), t, S::point(), &[0, 0, 3]);
    assert_eq!(r.wave.v[20][0], 0);
}

#[test]
fn image_load_pck_returns_raw_components_and_pck_sgn_sign_extends() {
    // CLRX GcnInstrsMimg IMAGE_LOAD_PCK / _PCK_SGN: raw component bits, one per register,
    // sign-extended from the component width by _sgn. 16_16 element 0x8001_7fff.
    let t = T::new(0, DF_16_16, NF_FLOAT, 1, 1);
    let b = u32s(&[0x8001_7fff]);
    let r = go(
        "gfx600",
        "image_load_pck v[20:21], v0, s[0:7] dmask:0x3",
        &b,
        t,
        S::point(),
        &[0, 0],
    );
    assert_eq!([r.wave.v[20][0], r.wave.v[21][0]], [0x7fff, 0x8001]);
    let r = go(
        "gfx600",
        "image_load_pck_sgn v[20:21], v0, s[0:7] dmask:0x3",
        &b,
        t,
        S::point(),
        &[0, 0],
    );
    assert_eq!([r.wave.v[20][0], r.wave.v[21][0]], [0x7fff, 0xffff_8001]);
    let r = go(
        "gfx900",
        "image_load_mip_pck_sgn v[20:21], v[0:1], s[0:7] dmask:0x3",
        &b,
        t,
        S::point(),
        &[0, 0],
    );
    assert_eq!([r.wave.v[20][0], r.wave.v[21][0]], [0x7fff, 0xffff_8001]);
    let r = go(
        "gfx900",
        "image_load_mip_pck v[20:21], v[0:1], s[0:7] dmask:0x3",
        &b,
        t,
        S::point(),
        &[0, 0],
    );
    assert_eq!([r.wave.v[20][0], r.wave.v[21][0]], [0x7fff, 0x8001]);
}

#[test]
fn image_load_d16_packs_halves_on_gfx9_and_not_on_gfx803() {
    // d16 (Vega §8.1 D16): f16 of 0.2, 0.4, 0.6, 1.0 are 0x3266, 0x3666, 0x38cd, 0x3c00;
    // gfx9 packs two per register, gfx801–805 put one in the low half of each register.
    let t = T::new(0, DF_8_8_8_8, NF_UNORM, 4, 4);
    let r = go(
        "gfx900",
        "image_load v[20:21], v[0:1], s[0:7] dmask:0xf unorm d16",
        &rgba8_4x4(),
        t,
        S::point(),
        &[1, 2],
    );
    assert_eq!(
        [r.wave.v[20][0], r.wave.v[21][0]],
        [0x3666_3266, 0x3c00_38cd]
    );
    assert_eq!(r.wave.v[22][0], SENTINEL);
    let r = go(
        "gfx803",
        "image_load v[20:23], v[0:1], s[0:7] dmask:0xf unorm d16",
        &rgba8_4x4(),
        t,
        S::point(),
        &[1, 2],
    );
    let v: Vec<u32> = (0..4).map(|i| r.wave.v[20 + i][0]).collect();
    assert_eq!(v, [0x3266, 0x3666, 0x38cd, 0x3c00]);
}

#[test]
fn image_load_tfe_writes_a_zero_status_dword_after_the_data() {
    // TFE (SI §8.2 MIMG fields): one more VGPR after the data receives the fail status;
    // nothing fails in the emulator, so it is 0.
    let t = T::new(0, DF_8_8_8_8, NF_UNORM, 4, 4);
    let r = go(
        "gfx900",
        "image_load v[20:21], v[0:1], s[0:7] dmask:0x1 unorm tfe",
        &rgba8_4x4(),
        t,
        S::point(),
        &[1, 2],
    );
    assert_eq!(f(r.wave.v[20][0]), 0.2);
    assert_eq!(r.wave.v[21][0], 0);
    // LWE alone writes the status dword too (LLVM lowers TFE or LWE with one more result
    // dword, SIISelLowering "IsTexFail"), though llvm-mc sizes vdata by tfe only.
    let r = go(
        "gfx700",
        "image_load v20, v[0:1], s[0:7] dmask:0x1 unorm lwe",
        &rgba8_4x4(),
        t,
        S::point(),
        &[1, 2],
    );
    assert_eq!(r.wave.v[21][0], 0);
}

#[test]
fn image_load_a16_reads_packed_16_bit_coordinates() {
    // a16 (Vega §8.1): x in bits 15:0 and y in bits 31:16 of one VGPR.
    let t = T::new(0, DF_8_8_8_8, NF_UNORM, 4, 4);
    let r = go(
        "gfx900",
        "image_load v[20:20], v0, s[0:7] dmask:0x1 unorm a16",
        &rgba8_4x4(),
        t,
        S::point(),
        &[1 | 2 << 16],
    );
    assert_eq!(f(r.wave.v[20][0]), 0.2);
}

#[test]
fn image_load_of_arrays_3d_and_r128() {
    // 2D array, 2×2, slices 0..=2: slice 2 starts after 2 · 4 texels.
    let b: Vec<u32> = (0..12).collect();
    let t = T {
        ty: T2D_ARRAY,
        last_array: 2,
        ..T::new(0, DF_32, NF_UINT, 2, 2)
    };
    for mcpu in ["gfx700", "gfx900"] {
        let r = go(
            mcpu,
            "image_load v[20:20], v[0:2], s[0:7] dmask:0x1 unorm da",
            &u32s(&b),
            t,
            S::point(),
            &[1, 0, 2],
        );
        assert_eq!(r.wave.v[20][0], 9, "{mcpu}");
        // Slice 3 is beyond the last one.
        let r = go(
            mcpu,
            "image_load v[20:20], v[0:2], s[0:7] dmask:0x1 unorm da",
            &u32s(&b),
            t,
            S::point(),
            &[1, 0, 3],
        );
        assert_eq!(r.wave.v[20][0], 0, "{mcpu}");
    }
    // 1D array 4 wide, 2 slices: (x 3, slice 1) is element 7.
    let t = T {
        ty: T1D_ARRAY,
        last_array: 1,
        ..T::new(0, DF_32, NF_UINT, 4, 1)
    };
    let r = go(
        "gfx803",
        "image_load v[20:20], v[0:1], s[0:7] dmask:0x1 unorm da",
        &u32s(&b),
        t,
        S::point(),
        &[3, 1],
    );
    assert_eq!(r.wave.v[20][0], 7);
    // 3D 2×2×3: (1, 1, 2) is element (2 · 2 + 1) · 2 + 1 = 11.
    let t = T {
        ty: T3D,
        depth: 3,
        ..T::new(0, DF_32, NF_UINT, 2, 2)
    };
    let r = go(
        "gfx908",
        "image_load v[20:20], v[0:2], s[0:7] dmask:0x1 unorm",
        &u32s(&b),
        t,
        S::point(),
        &[1, 1, 2],
    );
    assert_eq!(r.wave.v[20][0], 11);
    // r128 (gfx6–8): only s[0:3] are read; PITCH reads as 0, so the width is the pitch.
    let t = T::new(0, DF_32, NF_UINT, 2, 2);
    let r = run(
        "gfx700",
        "image_load v[20:20], v[0:1], s[0:7] dmask:0x1 unorm r128",
        0,
        |w, mem, _| {
            let base = image(mem, &u32s(&b));
            descriptors(
                w,
                "gfx700",
                &T {
                    base,
                    pitch: 7,
                    ..t
                },
                &S::point(),
            );
            w.s[4..8].copy_from_slice(&[u32::MAX; 4]);
            w.v[0] = [1; 64];
            w.v[1] = [1; 64];
        },
    )
    .unwrap();
    assert_eq!(r.wave.v[20][0], 3);
}

#[test]
fn image_load_converts_packed_float_and_srgb_formats() {
    // 11_11_10 float (X 10 bits at 9:0, Y 11 bits, Z 11 bits): X 0x1e0 = exponent 15,
    // mantissa 0 → 1.0; Y 0x3c0 (6-bit mantissa) → 1.0 as well; Z 0x3e0 → exp 15, m 32 → 1.5.
    let raw = 0x1e0 | 0x3c0 << 10 | 0x3e0 << 21;
    let t = T::new(0, DF_11_11_10, NF_FLOAT, 1, 1);
    let r = go(
        "gfx900",
        "image_load v[20:22], v[0:1], s[0:7] dmask:0x7 unorm",
        &u32s(&[raw]),
        t,
        S::point(),
        &[0, 0],
    );
    assert_eq!(
        [f(r.wave.v[20][0]), f(r.wave.v[21][0]), f(r.wave.v[22][0])],
        [1.0, 1.0, 1.5]
    );
    // sRGB: 255 → 1.0 exactly, 0 → 0; alpha stays unorm (128 / 255).
    let t = T::new(0, DF_8_8_8_8, NF_SRGB, 1, 1);
    let r = go(
        "gfx900",
        "image_load v[20:23], v[0:1], s[0:7] dmask:0xf unorm",
        &[255, 0, 255, 128],
        t,
        S::point(),
        &[0, 0],
    );
    assert_eq!(f(r.wave.v[20][0]), 1.0);
    assert_eq!(f(r.wave.v[21][0]), 0.0);
    assert_eq!(f(r.wave.v[23][0]), (128.0f64 / 255.0) as f32);
    // 5_6_5 unorm: X = bits 4:0 = 31 → 1.0, Y = bits 10:5 = 0, Z = bits 15:11 = 0.
    let t = T::new(0, DF_5_6_5, NF_UNORM, 1, 1);
    let r = go(
        "gfx900",
        "image_load v[20:23], v[0:1], s[0:7] dmask:0xf unorm",
        &[31, 0],
        t,
        S::point(),
        &[0, 0],
    );
    assert_eq!(
        [f(r.wave.v[20][0]), f(r.wave.v[21][0]), f(r.wave.v[23][0])],
        [1.0, 0.0, 1.0]
    );
}

#[test]
fn bad_descriptors_fault_with_a_message_instead_of_panicking() {
    let t = T::new(0, 0x2c, NF_UNORM, 4, 4);
    let (e, _) = run_to_fault(
        "gfx900",
        "image_load v[20:23], v[0:1], s[0:7] dmask:0xf unorm",
        0,
        |w, mem, _| {
            let base = image(mem, &[0; 256]);
            descriptors(w, "gfx900", &T { base, ..t }, &S::point());
        },
    );
    let msg = e.unwrap().to_string();
    assert!(msg.contains("image data format 0x2c"), "{msg}");
    // TYPE 0 is a buffer, not an image.
    let t = T {
        ty: 0,
        ..T::new(0, DF_32, NF_UINT, 4, 4)
    };
    let (e, _) = run_to_fault(
        "gfx900",
        "image_load v[20:23], v[0:1], s[0:7] dmask:0xf unorm",
        0,
        |w, mem, _| {
            let base = image(mem, &[0; 256]);
            descriptors(w, "gfx900", &T { base, ..t }, &S::point());
        },
    );
    assert!(matches!(e, Some(Fault::Unsupported(_))), "{e:?}");
    // The largest image at an unmapped address: a memory fault.
    let t = T {
        base: 0xff_ffff_ff00,
        last_level: 15,
        ..T::new(0, DF_32_32_32_32, NF_FLOAT, 16384, 16384)
    };
    let (e, _) = run_to_fault(
        "gfx700",
        "image_load_mip v[20:23], v[0:2], s[0:7] dmask:0xf unorm",
        0,
        |w, _, _| {
            descriptors(w, "gfx700", &t, &S::point());
            w.v[0] = [16383; 64];
            w.v[1] = [16383; 64];
            w.v[2] = [0; 64];
        },
    );
    assert!(matches!(e, Some(Fault::Memory(_))), "{e:?}");
}

#[test]
fn huge_and_infinite_coordinates_do_not_panic() {
    // Every clamp mode, point and bilinear, sample and gather, at ±1e30, ±inf and NaN, on a
    // 2D image, a 2D array and a cube array (the third coordinate is the slice or face).
    let plain = T::new(0, DF_32, NF_FLOAT, 2, 2);
    let array = T {
        ty: T2D_ARRAY,
        last_array: 1,
        ..plain
    };
    let cube = T {
        ty: TCUBE,
        last_array: 11,
        ..plain
    };
    for (t, clamp) in [plain, array, cube]
        .into_iter()
        .flat_map(|t| (0..8).map(move |c| (t, c)))
    {
        for linear in [false, true] {
            let s = S {
                clamp,
                linear,
                ..S::point()
            };
            for x in [1e30f32, -1e30, f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
                for asm in [
                    SAMPLE,
                    "image_gather4 v[20:23], v[0:1], s[0:7], s[8:11] dmask:0x1",
                    "image_sample_o v20, v[0:2], s[0:7], s[8:11] dmask:0x1",
                    "image_sample_l v20, v[0:3], s[0:7], s[8:11] dmask:0x1 da",
                ] {
                    let v = [x.to_bits(); 4];
                    let r = run("gfx900", asm, 0, |w, mem, _| {
                        let base = image(mem, &quad_1234());
                        descriptors(w, "gfx900", &T { base, ..t }, &s);
                        for (i, &x) in v.iter().enumerate() {
                            w.v[i] = [x; 64];
                        }
                    });
                    assert!(r.is_ok(), "{asm} {x} clamp {clamp}");
                }
            }
        }
    }
}

// ---- stores ------------------------------------------------------------------------------

#[test]
fn image_store_converts_and_drops_out_of_range_texels() {
    // Float to unorm8: round(x · 255) to nearest even, clamped to [0, 1] first
    // (0.5 → 127.5 → 128, 2.0 → 255, -1.0 → 0).
    let t = T::new(0, DF_8_8_8_8, NF_UNORM, 4, 4);
    let data = [0.5f32, 2.0, -1.0, 1.0].map(f32::to_bits);
    let r = run(
        "gfx900",
        "image_store v[20:23], v[0:1], s[0:7] dmask:0xf unorm",
        0,
        |w, mem, _| {
            let base = image(mem, &[0; 64]);
            descriptors(w, "gfx900", &T { base, ..t }, &S::point());
            w.set_exec(0b11);
            w.v[0][0] = 3;
            w.v[1][0] = 1;
            // Lane 1 is out of range (y = 4).
            w.v[0][1] = 0;
            w.v[1][1] = 4;
            for i in 0..4 {
                w.v[20 + i] = [data[i]; 64];
            }
        },
    )
    .unwrap();
    let bytes = r.mem.read(base_of(&r), 64).unwrap();
    let at = (4 + 3) * 4;
    assert_eq!(&bytes[at..at + 4], &[128, 255, 0, 255]);
    assert_eq!(bytes.iter().filter(|&&b| b != 0).count(), 3);
}

#[test]
fn image_store_with_partial_dmask_keeps_the_other_components() {
    // dmask 0x2: only Y (from v20) is written; X, Z, W keep their bytes.
    let t = T::new(0, DF_8_8_8_8, NF_UNORM, 1, 1);
    let r = run(
        "gfx600",
        "image_store v[20:20], v[0:1], s[0:7] dmask:0x2 unorm",
        0,
        |w, mem, _| {
            let base = image(mem, &[1, 2, 3, 4]);
            descriptors(w, "gfx600", &T { base, ..t }, &S::point());
            w.v[20] = [1.0f32.to_bits(); 64];
        },
    )
    .unwrap();
    assert_eq!(r.mem.read(base_of(&r), 4).unwrap(), [1, 255, 3, 4]);
}

#[test]
fn image_store_mip_pck_and_d16() {
    // store_mip to level 1 (2×2 after 16 dwords), texel (0, 1): dword 16 + 2.
    let t = T {
        last_level: 1,
        ..T::new(0, DF_32, NF_UINT, 4, 4)
    };
    let r = run(
        "gfx803",
        "image_store_mip v[20:20], v[0:2], s[0:7] dmask:0x1 unorm",
        0,
        |w, mem, _| {
            let base = image(mem, &[0; 256]);
            descriptors(w, "gfx803", &T { base, ..t }, &S::point());
            w.v[1] = [1; 64];
            w.v[2] = [1; 64];
            w.v[20] = [77; 64];
        },
    )
    .unwrap();
    assert_eq!(r.mem.load_u32(base_of(&r) + 18 * 4).unwrap(), 77);
    // store_pck: raw bits, no conversion (16_16 gets the low 16 bits of each register).
    let t = T::new(0, DF_16_16, NF_FLOAT, 1, 1);
    for (mcpu, asm) in [
        ("gfx700", "image_store_pck v[20:21], v0, s[0:7] dmask:0x3"),
        (
            "gfx900",
            "image_store_mip_pck v[20:21], v[0:1], s[0:7] dmask:0x3",
        ),
    ] {
        let r = run(mcpu, asm, 0, |w, mem, _| {
            let base = image(mem, &[0; 4]);
            descriptors(w, mcpu, &T { base, ..t }, &S::point());
            w.v[20] = [0x1_1234; 64];
            w.v[21] = [0xabcd; 64];
        })
        .unwrap();
        assert_eq!(r.mem.load_u32(base_of(&r)).unwrap(), 0xabcd_1234, "{mcpu}");
    }
    // d16 store of packed halves to R32 float: f16 0x3c00 (1.0) and 0x4000 (2.0).
    let t = T::new(0, DF_32_32, NF_FLOAT, 1, 1);
    let r = run(
        "gfx900",
        "image_store v20, v[0:1], s[0:7] dmask:0x3 unorm d16",
        0,
        |w, mem, _| {
            let base = image(mem, &[0; 8]);
            descriptors(w, "gfx900", &T { base, ..t }, &S::point());
            w.v[20] = [0x4000_3c00; 64];
        },
    )
    .unwrap();
    assert_eq!(r.mem.load_u32(base_of(&r)).unwrap(), 1.0f32.to_bits());
    assert_eq!(r.mem.load_u32(base_of(&r) + 4).unwrap(), 2.0f32.to_bits());
}

#[test]
fn image_store_then_load_round_trips_rgba32_float() {
    let t = T::new(0, DF_32_32_32_32, NF_FLOAT, 2, 2);
    let r = run(
        "gfx908",
        "image_store v[20:23], v[0:1], s[0:7] dmask:0xf unorm\nimage_load v[24:27], v[0:1], s[0:7] dmask:0xf unorm",
        0,
        |w, mem, _| {
            let base = image(mem, &[0; 64]);
            descriptors(w, "gfx908", &T { base, ..t }, &S::point());
            w.v[0] = [1; 64];
            w.v[1] = [1; 64];
            for i in 0..4 {
                w.v[20 + i] = [(i as f32 + 0.25).to_bits(); 64];
            }
        },
    )
    .unwrap();
    for i in 0..4 {
        assert_eq!(f(r.wave.v[24 + i][0]), i as f32 + 0.25);
    }
    assert_eq!(r.mem.load_u32(base_of(&r) + 48).unwrap(), 0.25f32.to_bits());
}

// ---- resource info -----------------------------------------------------------------------

#[test]
fn image_get_resinfo_returns_sizes_and_levels() {
    // SI §8.2 IMAGE_GET_RESINFO: width, height, depth / slices, levels of mip vaddr[0].
    let t = T {
        last_level: 3,
        ..T::new(0, DF_32, NF_UINT, 8, 4)
    };
    let asm = "image_get_resinfo v[20:23], v0, s[0:7] dmask:0xf";
    for mcpu in ["gfx600", "gfx803", "gfx90a"] {
        let r = go(mcpu, asm, &[0; 4], t, S::point(), &[1]);
        let v: Vec<u32> = (0..4).map(|i| r.wave.v[20 + i][0]).collect();
        assert_eq!(v, [4, 2, 1, 4], "{mcpu}");
        // Level 4 does not exist: sizes 0, the level count still 4.
        let r = go(mcpu, asm, &[0; 4], t, S::point(), &[4]);
        let v: Vec<u32> = (0..4).map(|i| r.wave.v[20 + i][0]).collect();
        assert_eq!(v, [0, 0, 0, 4], "{mcpu}");
    }
    // A 2D array of 3 slices, base level 1 of 0..=2: 4×2 at mip 0, 3 slices, 2 levels.
    let t = T {
        ty: T2D_ARRAY,
        last_array: 2,
        base_level: 1,
        last_level: 2,
        ..T::new(0, DF_32, NF_UINT, 8, 4)
    };
    let r = go("gfx900", asm, &[0; 4], t, S::point(), &[0]);
    let v: Vec<u32> = (0..4).map(|i| r.wave.v[20 + i][0]).collect();
    assert_eq!(v, [4, 2, 3, 2]);
    // 3D 8×8×8, mip 2: 2×2×2.
    let t = T {
        ty: T3D,
        depth: 8,
        last_level: 3,
        ..T::new(0, DF_32, NF_UINT, 8, 8)
    };
    let r = go(
        "gfx700",
        "image_get_resinfo v[20:22], v0, s[0:7] dmask:0x7",
        &[0; 4],
        t,
        S::point(),
        &[2],
    );
    let v: Vec<u32> = (0..3).map(|i| r.wave.v[20 + i][0]).collect();
    assert_eq!(v, [2, 2, 2]);
}

// ---- atomics -----------------------------------------------------------------------------

/// A 4×4 R32 image with 10 at texel (2, 1) (dword 6).
fn r32_with_10() -> Vec<u8> {
    let mut b = vec![0u32; 16];
    b[6] = 10;
    u32s(&b)
}

fn atomic(mcpu: &str, asm: &str, bytes: &[u8], nfmt: u32, data: &[u32]) -> (Vec<u32>, u32) {
    let t = T::new(0, DF_32, nfmt, 4, 4);
    let r = run(mcpu, asm, 0, |w, mem, _| {
        let base = image(mem, bytes);
        descriptors(w, mcpu, &T { base, ..t }, &S::point());
        w.set_exec(1);
        w.v[0] = [2; 64];
        w.v[1] = [1; 64];
        for (i, &x) in data.iter().enumerate() {
            w.v[20 + i] = [x; 64];
        }
    })
    .unwrap();
    let regs = (0..data.len()).map(|i| r.wave.v[20 + i][0]).collect();
    (regs, r.mem.load_u32(base_of(&r) + 24).unwrap())
}

#[test]
fn image_atomics_return_the_old_value_with_glc() {
    // CLRX GcnInstrsMimg IMAGE_ATOMIC_*: the pre-op value returns to vdata with glc.
    let b = r32_with_10();
    assert_eq!(
        atomic(
            "gfx900",
            "image_atomic_add v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[5]
        ),
        (vec![10], 15)
    );
    // Without glc vdata keeps its value.
    assert_eq!(
        atomic(
            "gfx900",
            "image_atomic_add v20, v[0:1], s[0:7] dmask:0x1 unorm",
            &b,
            NF_UINT,
            &[5]
        ),
        (vec![5], 15)
    );
    assert_eq!(
        atomic(
            "gfx803",
            "image_atomic_sub v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[3]
        ),
        (vec![10], 7)
    );
    assert_eq!(
        atomic(
            "gfx600",
            "image_atomic_rsub v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[25]
        ),
        (vec![10], 15)
    );
    assert_eq!(
        atomic(
            "gfx700",
            "image_atomic_swap v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[99]
        ),
        (vec![10], 99)
    );
    // cmpswap data is {src, cmp}: stores src when memory equals cmp.
    assert_eq!(
        atomic(
            "gfx90a",
            "image_atomic_cmpswap v[20:21], v[0:1], s[0:7] dmask:0x3 unorm glc",
            &b,
            NF_UINT,
            &[7, 10]
        ),
        (vec![10, 10], 7)
    );
    assert_eq!(
        atomic(
            "gfx90a",
            "image_atomic_cmpswap v[20:21], v[0:1], s[0:7] dmask:0x3 unorm glc",
            &b,
            NF_UINT,
            &[7, 11]
        ),
        (vec![10, 11], 10)
    );
    assert_eq!(
        atomic(
            "gfx908",
            "image_atomic_smin v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[-3i32 as u32]
        ),
        (vec![10], -3i32 as u32)
    );
    assert_eq!(
        atomic(
            "gfx908",
            "image_atomic_umin v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[-3i32 as u32]
        ),
        (vec![10], 10)
    );
    assert_eq!(
        atomic(
            "gfx600",
            "image_atomic_smax v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[-3i32 as u32]
        ),
        (vec![10], 10)
    );
    assert_eq!(
        atomic(
            "gfx600",
            "image_atomic_umax v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[-3i32 as u32]
        ),
        (vec![10], -3i32 as u32)
    );
    assert_eq!(
        atomic(
            "gfx700",
            "image_atomic_and v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[6]
        ),
        (vec![10], 2)
    );
    assert_eq!(
        atomic(
            "gfx700",
            "image_atomic_or v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[5]
        ),
        (vec![10], 15)
    );
    assert_eq!(
        atomic(
            "gfx803",
            "image_atomic_xor v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[3]
        ),
        (vec![10], 9)
    );
    // inc: old >= data ? 0 : old + 1; dec: old == 0 || old > data ? data : old - 1.
    assert_eq!(
        atomic(
            "gfx900",
            "image_atomic_inc v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[10]
        ),
        (vec![10], 0)
    );
    assert_eq!(
        atomic(
            "gfx900",
            "image_atomic_inc v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[20]
        ),
        (vec![10], 11)
    );
    assert_eq!(
        atomic(
            "gfx900",
            "image_atomic_dec v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[5]
        ),
        (vec![10], 5)
    );
    assert_eq!(
        atomic(
            "gfx900",
            "image_atomic_dec v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
            &b,
            NF_UINT,
            &[20]
        ),
        (vec![10], 9)
    );
}

#[test]
fn image_float_atomics_on_gfx6_and_gfx7() {
    // SI/CI IMAGE_ATOMIC_FCMPSWAP/FMIN/FMAX on a 32-bit float element holding 2.5.
    let b = u32s(&[
        0,
        0,
        0,
        0,
        0,
        0,
        2.5f32.to_bits(),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
    ]);
    let x = |v: f32| v.to_bits();
    for mcpu in ["gfx600", "gfx700"] {
        assert_eq!(
            atomic(
                mcpu,
                "image_atomic_fmin v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
                &b,
                NF_FLOAT,
                &[x(1.5)]
            ),
            (vec![x(2.5)], x(1.5))
        );
        assert_eq!(
            atomic(
                mcpu,
                "image_atomic_fmax v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
                &b,
                NF_FLOAT,
                &[x(1.5)]
            ),
            (vec![x(2.5)], x(2.5))
        );
        assert_eq!(
            atomic(
                mcpu,
                "image_atomic_fcmpswap v[20:21], v[0:1], s[0:7] dmask:0x3 unorm glc",
                &b,
                NF_FLOAT,
                &[x(4.0), x(2.5)]
            ),
            (vec![x(2.5), x(2.5)], x(4.0))
        );
    }
}

#[test]
fn image_atomics_64_bit_and_out_of_range() {
    // dmask 0x3 on a 32_32 element is a 64-bit atomic.
    let t = T::new(0, DF_32_32, NF_UINT, 1, 1);
    let r = run(
        "gfx900",
        "image_atomic_add v[20:21], v[0:1], s[0:7] dmask:0x3 unorm glc",
        0,
        |w, mem, _| {
            let base = image(mem, &u32s(&[0xffff_ffff, 1]));
            descriptors(w, "gfx900", &T { base, ..t }, &S::point());
            w.set_exec(1);
            w.v[20] = [1; 64];
            w.v[21] = [0; 64];
        },
    )
    .unwrap();
    assert_eq!([r.wave.v[20][0], r.wave.v[21][0]], [0xffff_ffff, 1]);
    assert_eq!(r.mem.load_u64(base_of(&r)).unwrap(), 2 << 32);
    // Out of range (x = 4): no change, 0 returned.
    let b = r32_with_10();
    let t = T::new(0, DF_32, NF_UINT, 4, 4);
    let r = run(
        "gfx900",
        "image_atomic_add v20, v[0:1], s[0:7] dmask:0x1 unorm glc",
        0,
        |w, mem, _| {
            let base = image(mem, &b);
            descriptors(w, "gfx900", &T { base, ..t }, &S::point());
            w.v[0] = [4; 64];
            w.v[20] = [5; 64];
        },
    )
    .unwrap();
    assert_eq!(r.wave.v[20][0], 0);
    assert_eq!(r.mem.read(base_of(&r), 64).unwrap(), b);
}

// ---- sampling ----------------------------------------------------------------------------

/// A 2×2 R32 float image: (0,0) 1, (1,0) 2, (0,1) 3, (1,1) 4.
fn quad_1234() -> Vec<u8> {
    f32s(&[1.0, 2.0, 3.0, 4.0])
}

fn sample1(mcpu: &str, asm: &str, bytes: &[u8], t: T, s: S, vgprs: &[f32]) -> f32 {
    let v: Vec<u32> = vgprs.iter().map(|x| x.to_bits()).collect();
    f(go(mcpu, asm, bytes, t, s, &v).wave.v[20][0])
}

const SAMPLE: &str = "image_sample v20, v[0:1], s[0:7], s[8:11] dmask:0x1";

#[test]
fn bilinear_sample_between_four_texel_centres_is_their_average() {
    // Bilinear (SI §8.2.5 XY_MAG_FILTER 1): at (0.5, 0.5) of a 2×2 image the texel-space
    // position (1, 1) is equidistant from the four centres: (1 + 2 + 3 + 4) / 4 = 2.5.
    let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
    for mcpu in ["gfx600", "gfx700", "gfx803", "gfx900", "gfx908", "gfx90a"] {
        assert_eq!(
            sample1(mcpu, SAMPLE, &quad_1234(), t, S::bilinear(), &[0.5, 0.5]),
            2.5,
            "{mcpu}"
        );
    }
    // At a texel centre: that texel; halfway along a row: the mean of two (1.5).
    assert_eq!(
        sample1(
            "gfx900",
            SAMPLE,
            &quad_1234(),
            t,
            S::bilinear(),
            &[0.25, 0.25]
        ),
        1.0
    );
    assert_eq!(
        sample1(
            "gfx900",
            SAMPLE,
            &quad_1234(),
            t,
            S::bilinear(),
            &[0.5, 0.25]
        ),
        1.5
    );
    // Point: texel floor(0.5 · 2) = 1 on both axes.
    assert_eq!(
        sample1("gfx900", SAMPLE, &quad_1234(), t, S::point(), &[0.5, 0.5]),
        4.0
    );
}

#[test]
fn clamp_modes_wrap_mirror_clamp_and_border() {
    // SI §8.2.5 CLAMP_X: 0 wrap, 1 mirror, 2 clamp to last texel, 6 clamp to border.
    // Point sampling at u = 1.25 (texel 2) and u = -0.25 (texel -1), row 0.
    let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
    let s = |clamp| S {
        clamp,
        ..S::point()
    };
    let at = |clamp, u: f32| sample1("gfx803", SAMPLE, &quad_1234(), t, s(clamp), &[u, 0.25]);
    assert_eq!(at(0, 1.25), 1.0); // 2 mod 2 = 0
    assert_eq!(at(0, -0.25), 2.0); // -1 mod 2 = 1
    assert_eq!(at(1, 1.25), 2.0); // mirror: 2 → 1
    assert_eq!(at(1, -0.25), 1.0); // mirror: -1 → 0
    assert_eq!(at(2, 1.25), 2.0);
    assert_eq!(at(2, -0.25), 1.0);
    assert_eq!(at(3, -0.25), 1.0); // mirror once: -1 → 0
    assert_eq!(at(6, 1.25), 0.0); // border: transparent black
                                  // Opaque white border (type 2): 1.0 in every component.
    let white = S { border: 2, ..s(6) };
    assert_eq!(
        sample1("gfx803", SAMPLE, &quad_1234(), t, white, &[1.25, 0.25]),
        1.0
    );
    // Bilinear at u = 0 with a transparent-black border: half of texel 0, half border.
    let b = S {
        clamp: 6,
        ..S::bilinear()
    };
    assert_eq!(
        sample1("gfx900", SAMPLE, &quad_1234(), t, b, &[0.0, 0.25]),
        0.5
    );
}

#[test]
fn unnormalized_coordinates_address_texels() {
    // UNORM (SI §8.2 MIMG fields): coordinates in texels, (1.5, 0.5) is texel (1, 0).
    let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
    let asm = "image_sample v20, v[0:1], s[0:7], s[8:11] dmask:0x1 unorm";
    assert_eq!(
        sample1("gfx700", asm, &quad_1234(), t, S::point(), &[1.5, 0.5]),
        2.0
    );
}

/// A 4×4 R32 float image with levels 4×4 (all 1.0), 2×2 (all 2.0), 1×1 (3.0).
fn mips_123() -> (Vec<u8>, T) {
    let mut v = vec![1.0f32; 16];
    v.extend([2.0; 4]);
    v.push(3.0);
    let t = T {
        last_level: 2,
        ..T::new(0, DF_32, NF_FLOAT, 4, 4)
    };
    (f32s(&v), t)
}

fn point_mips() -> S {
    S {
        mip: 1,
        ..S::point()
    }
}

/// Runs a sample with every quad of lanes at (0.1, 0.1), (0.1 + dx, 0.1), (0.1, 0.1 + dx),
/// (0.1 + dx, 0.1 + dx) after the `extra` VGPRs: the implicit derivatives are dx.
fn quad_sample(mcpu: &str, asm: &str, s: S, dx: f32, extra: &[f32]) -> [u32; 4] {
    let (bytes, t) = mips_123();
    let r = run(mcpu, asm, 0, |w, mem, _| {
        let base = image(mem, &bytes);
        descriptors(w, mcpu, &T { base, ..t }, &s);
        for (i, &x) in extra.iter().enumerate() {
            w.v[i] = [x.to_bits(); 64];
        }
        let n = extra.len();
        for l in 0..64 {
            let (qx, qy) = ((l & 1) as f32, (l >> 1 & 1) as f32);
            w.v[n][l] = (0.1 + dx * qx).to_bits();
            w.v[n + 1][l] = (0.1 + dx * qy).to_bits();
        }
    })
    .unwrap();
    std::array::from_fn(|i| r.wave.v[20 + i][0])
}

#[test]
fn implicit_derivatives_from_the_quad_select_the_mip_level() {
    // LOD = log2(max |d(u·w, v·h)/dx|, |.../dy|) (SI §8.2.5 / D3D LOD): on a 4-wide base,
    // a quad step of 0.25 is one texel (LOD 0), 0.5 two (LOD 1), 1.0 four (LOD 2).
    let s = point_mips();
    assert_eq!(f(quad_sample("gfx900", SAMPLE, s, 0.25, &[])[0]), 1.0);
    assert_eq!(f(quad_sample("gfx900", SAMPLE, s, 0.5, &[])[0]), 2.0);
    assert_eq!(f(quad_sample("gfx600", SAMPLE, s, 1.0, &[])[0]), 3.0);
    // MAX_LOD 1.0 (256 in u4.8) stops at level 1.
    let capped = S { max_lod: 256, ..s };
    assert_eq!(f(quad_sample("gfx900", SAMPLE, capped, 1.0, &[])[0]), 2.0);
    // LOD_BIAS 2.0 (512 in s5.8): LOD 0 + 2.
    let biased = S { bias: 512, ..s };
    assert_eq!(f(quad_sample("gfx900", SAMPLE, biased, 0.25, &[])[0]), 3.0);
    // MIP_FILTER none: always the base level.
    assert_eq!(
        f(quad_sample("gfx900", SAMPLE, S::point(), 1.0, &[])[0]),
        1.0
    );
    // Linear between levels at LOD log2(3) ≈ 1.585: 2 + 0.585 · (3 - 2).
    let lin = S { mip: 2, ..s };
    let x = f(quad_sample("gfx900", SAMPLE, lin, 0.75, &[])[0]);
    let expect = 2.0 + (3.0f32.log2() - 1.0);
    assert!((x - expect).abs() < 1e-5, "{x} {expect}");
}

#[test]
fn sample_variants_take_lod_bias_clamp_and_derivatives_from_vaddr() {
    let s = point_mips();
    let g = |asm: &str, dx: f32, extra: &[f32]| f(quad_sample("gfx900", asm, s, dx, extra)[0]);
    // _b: bias before the coordinates; LOD 0 + 1.
    assert_eq!(
        g(
            "image_sample_b v20, v[0:2], s[0:7], s[8:11] dmask:0x1",
            0.25,
            &[1.0]
        ),
        2.0
    );
    // _cl: clamp after the coordinates (v2): LOD 0 raised to 2.
    let r = run(
        "gfx900",
        "image_sample_cl v20, v[0:2], s[0:7], s[8:11] dmask:0x1",
        0,
        |w, mem, _| {
            let (bytes, t) = mips_123();
            let base = image(mem, &bytes);
            descriptors(w, "gfx900", &T { base, ..t }, &s);
            w.v[0] = [0.1f32.to_bits(); 64];
            w.v[1] = [0.1f32.to_bits(); 64];
            w.v[2] = [2.0f32.to_bits(); 64];
        },
    )
    .unwrap();
    assert_eq!(f(r.wave.v[20][0]), 3.0);
    // _l and _lz: explicit LOD 1 (after the coordinates), LOD 0.
    let lod = |asm: &str, vg: &[f32]| {
        let (bytes, t) = mips_123();
        sample1("gfx803", asm, &bytes, t, s, vg)
    };
    assert_eq!(
        lod(
            "image_sample_l v20, v[0:2], s[0:7], s[8:11] dmask:0x1",
            &[0.1, 0.1, 1.0]
        ),
        2.0
    );
    assert_eq!(
        lod(
            "image_sample_lz v20, v[0:1], s[0:7], s[8:11] dmask:0x1",
            &[0.1, 0.1]
        ),
        1.0
    );
    // _c_lz: reference 0.5 first; LESS against level 0's 1.0 passes.
    let (bytes, t) = mips_123();
    let less = S { compare: 1, ..s };
    let asm = "image_sample_c_lz v20, v[0:2], s[0:7], s[8:11] dmask:0x1";
    assert_eq!(
        sample1("gfx803", asm, &bytes, t, less, &[0.5, 0.1, 0.1]),
        1.0
    );
    assert_eq!(
        sample1("gfx803", asm, &bytes, t, less, &[1.5, 0.1, 0.1]),
        0.0
    );
    // _d / _cd: derivatives before the coordinates, dx/dh dy/dh dx/dv dy/dv: 0.5 → LOD 1.
    for asm in [
        "image_sample_d v20, v[0:5], s[0:7], s[8:11] dmask:0x1",
        "image_sample_cd v20, v[0:5], s[0:7], s[8:11] dmask:0x1",
    ] {
        assert_eq!(lod(asm, &[0.5, 0.0, 0.0, 0.0, 0.1, 0.1]), 2.0, "{asm}");
        assert_eq!(lod(asm, &[0.0, 0.0, 0.0, 1.0, 0.1, 0.1]), 3.0, "{asm}");
    }
    // _d_cl: the clamp after the coordinates.
    assert_eq!(
        lod(
            "image_sample_d_cl v20, v[0:6], s[0:7], s[8:11] dmask:0x1",
            &[0.0; 4]
                .iter()
                .chain(&[0.1, 0.1, 1.0])
                .copied()
                .collect::<Vec<_>>()
        ),
        2.0
    );
    // _l with mip linear halfway between levels 0 and 1: (1 + 2) / 2.
    let lin = S { mip: 2, ..s };
    let (bytes, t) = mips_123();
    assert_eq!(
        sample1(
            "gfx900",
            "image_sample_l v20, v[0:2], s[0:7], s[8:11] dmask:0x1",
            &bytes,
            t,
            lin,
            &[0.1, 0.1, 0.5]
        ),
        1.5
    );
}

#[test]
fn image_get_lod_returns_clamped_and_unclamped_lod() {
    // Quad step 0.5 on a 4-wide base: LOD 1 both; step 2.0 → LOD 3, clamped to the
    // last level 2.
    let s = point_mips();
    let asm = "image_get_lod v[20:21], v[0:1], s[0:7], s[8:11] dmask:0x3";
    let r = quad_sample("gfx900", asm, s, 0.5, &[]);
    assert_eq!([f(r[0]), f(r[1])], [1.0, 1.0]);
    let r = quad_sample("gfx700", asm, s, 2.0, &[]);
    assert_eq!([f(r[0]), f(r[1])], [2.0, 3.0]);
}

#[test]
fn depth_compare_filters_the_comparison_results() {
    // DEPTH_COMPARE_FUNC 1 (less): ref < texel passes (1.0). Texels 0.1 0.2 / 0.3 0.4.
    let b = f32s(&[0.1, 0.2, 0.3, 0.4]);
    let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
    let less = |linear| S {
        compare: 1,
        linear,
        ..S::point()
    };
    let asm = "image_sample_c v20, v[0:2], s[0:7], s[8:11] dmask:0x1";
    assert_eq!(
        sample1("gfx900", asm, &b, t, less(false), &[0.05, 0.25, 0.25]),
        1.0
    );
    assert_eq!(
        sample1("gfx900", asm, &b, t, less(false), &[0.15, 0.25, 0.25]),
        0.0
    );
    // Bilinear at the centre with ref 0.25: 0.3 and 0.4 pass, 2 of 4 → 0.5.
    assert_eq!(
        sample1("gfx600", asm, &b, t, less(true), &[0.25, 0.5, 0.5]),
        0.5
    );
}

#[test]
fn offsets_move_the_sample_by_whole_texels() {
    // _o: the offset dword comes first, x in bits 5:0 (6-bit signed), y in 13:8.
    let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
    let asm = "image_sample_o v20, v[0:2], s[0:7], s[8:11] dmask:0x1";
    let r = go(
        "gfx900",
        asm,
        &quad_1234(),
        t,
        S::point(),
        &[1 | 1 << 8, 0.25f32.to_bits(), 0.25f32.to_bits()],
    );
    assert_eq!(f(r.wave.v[20][0]), 4.0);
    // -1 in x (0x3f) from texel 1: texel 0.
    let r = go(
        "gfx900",
        asm,
        &quad_1234(),
        t,
        S::point(),
        &[0x3f, 0.75f32.to_bits(), 0.25f32.to_bits()],
    );
    assert_eq!(f(r.wave.v[20][0]), 1.0);
}

#[test]
fn gather4_returns_one_component_of_the_four_footprint_texels() {
    // Gather4: X = (i0, j1), Y = (i1, j1), Z = (i1, j0), W = (i0, j0) of the bilinear
    // footprint; at the centre of the 2×2 image: 3, 4, 2, 1.
    let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
    let asm = "image_gather4 v[20:23], v[0:1], s[0:7], s[8:11] dmask:0x1";
    for mcpu in ["gfx600", "gfx803", "gfx908"] {
        let r = go(
            mcpu,
            asm,
            &quad_1234(),
            t,
            S::bilinear(),
            &[0.5f32.to_bits(); 2],
        );
        let v: Vec<f32> = (0..4).map(|i| f(r.wave.v[20 + i][0])).collect();
        assert_eq!(v, [3.0, 4.0, 2.0, 1.0], "{mcpu}");
    }
    // dmask 0x2 gathers Y of RGBA texels; texel k has Y = 10 + k.
    let b: Vec<f32> = (0..4)
        .flat_map(|k| [0.0, 10.0 + k as f32, 0.0, 0.0])
        .collect();
    let t = T::new(0, DF_32_32_32_32, NF_FLOAT, 2, 2);
    let asm = "image_gather4 v[20:23], v[0:1], s[0:7], s[8:11] dmask:0x2";
    let r = go(
        "gfx900",
        asm,
        &f32s(&b),
        t,
        S::bilinear(),
        &[0.5f32.to_bits(); 2],
    );
    let v: Vec<f32> = (0..4).map(|i| f(r.wave.v[20 + i][0])).collect();
    assert_eq!(v, [12.0, 13.0, 11.0, 10.0]);
    // gather4_c: comparison results, ref 0.25 less than 0.1 0.2 0.3 0.4 texels.
    let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
    let s = S {
        compare: 1,
        ..S::bilinear()
    };
    let r = go(
        "gfx900",
        "image_gather4_c v[20:23], v[0:2], s[0:7], s[8:11] dmask:0x1",
        &f32s(&[0.1, 0.2, 0.3, 0.4]),
        t,
        s,
        &[0.25f32.to_bits(), 0.5f32.to_bits(), 0.5f32.to_bits()],
    );
    let v: Vec<f32> = (0..4).map(|i| f(r.wave.v[20 + i][0])).collect();
    assert_eq!(v, [1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn gather4h_returns_four_texels_of_a_row() {
    // gather4h (docs/emulator-images.md): texels i0 - 1 ..= i0 + 2 of the nearest row; at
    // u = 0.5 on a 4-wide row i0 = floor(2 - 0.5) = 1: texels 0, 1, 2, 3.
    let t = T::new(0, DF_32, NF_FLOAT, 4, 2);
    let b = f32s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    for mcpu in ["gfx900", "gfx908"] {
        let r = go(
            mcpu,
            "image_gather4h v[20:23], v[0:1], s[0:7], s[8:11] dmask:0x1",
            &b,
            t,
            S::point(),
            &[0.5f32.to_bits(), 0.75f32.to_bits()],
        );
        let v: Vec<f32> = (0..4).map(|i| f(r.wave.v[20 + i][0])).collect();
        assert_eq!(v, [5.0, 6.0, 7.0, 8.0], "{mcpu}");
    }
}

#[test]
fn cube_and_3d_and_1d_sampling() {
    // Cube: 1×1 faces holding their face index; face coordinate 3, coordinates in [1, 2].
    let b = f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]);
    let t = T {
        ty: TCUBE,
        last_array: 5,
        ..T::new(0, DF_32, NF_FLOAT, 1, 1)
    };
    let asm = "image_sample v20, v[0:2], s[0:7], s[8:11] dmask:0x1";
    assert_eq!(
        sample1("gfx900", asm, &b, t, S::point(), &[1.5, 1.5, 3.0]),
        3.0
    );
    // Cube array (da): 8 · slice + face: slice 1 face 2 is 2D slice 8.
    let t = T {
        last_array: 11,
        ..t
    };
    let asm = "image_sample v20, v[0:2], s[0:7], s[8:11] dmask:0x1 da";
    assert_eq!(
        sample1("gfx803", asm, &b, t, S::point(), &[1.5, 1.5, 10.0]),
        8.0
    );
    // 3D 1×1×2 with Z linear filter at w = 0.5: (0 + 1) / 2.
    let t = T {
        ty: T3D,
        depth: 2,
        ..T::new(0, DF_32, NF_FLOAT, 1, 1)
    };
    let mut s = S::point();
    s.linear = true;
    let (bytes, asm) = (
        f32s(&[0.0, 1.0]),
        "image_sample v20, v[0:2], s[0:7], s[8:11] dmask:0x1",
    );
    let r = run("gfx900", asm, 0, |w, mem, _| {
        let base = image(mem, &bytes);
        descriptors(w, "gfx900", &T { base, ..t }, &s);
        w.s[10] |= 2 << 24; // Z_FILTER linear
        w.v[0] = [0.5f32.to_bits(); 64];
        w.v[1] = [0.5f32.to_bits(); 64];
        w.v[2] = [0.5f32.to_bits(); 64];
    })
    .unwrap();
    assert_eq!(f(r.wave.v[20][0]), 0.5);
    // 1D: one coordinate.
    let t = T {
        ty: T1D,
        ..T::new(0, DF_32, NF_FLOAT, 4, 1)
    };
    let b = f32s(&[1.0, 2.0, 3.0, 4.0]);
    assert_eq!(
        sample1(
            "gfx700",
            "image_sample v20, v0, s[0:7], s[8:11] dmask:0x1",
            &b,
            t,
            S::point(),
            &[0.6]
        ),
        3.0
    );
}

#[test]
fn sample_d16_and_a16_on_gfx9() {
    // a16: u and v as f16 in one VGPR (0x3800 = 0.5); d16: the result as f16 (2.5 = 0x4100).
    let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
    let r = go(
        "gfx900",
        "image_sample v20, v0, s[0:7], s[8:11] dmask:0x1 a16 d16",
        &quad_1234(),
        t,
        S::bilinear(),
        &[0x3800_3800],
    );
    assert_eq!(r.wave.v[20][0] & 0xffff, 0x4100);
}

// ---- every row on every generation -------------------------------------------------------

#[test]
fn every_image_row_has_semantics_on_every_generation() {
    let rows = coverage(&[gcnkit_isa::Encoding::Mimg]);
    assert!(rows.len() > 400, "{}", rows.len());
    let missing: Vec<_> = rows
        .iter()
        .filter(|(_, f)| f.is_none())
        .map(|(n, _)| n)
        .collect();
    assert!(missing.is_empty(), "{missing:?}");
}

#[test]
fn every_image_row_assembles_and_runs_on_every_generation() {
    use gcnkit_isa::{flags, Encoding, INSTRUCTIONS, PROCESSORS};
    let mut ran = 0;
    for def in INSTRUCTIONS.iter().filter(|d| d.encoding == Encoding::Mimg) {
        let vaddr: usize = def
            .flag_args
            .iter()
            .find(|(f, _)| *f == flags::VADDR)
            .and_then(|(_, list)| list.split(',').filter_map(|n| n.parse().ok()).max())
            .unwrap_or(4);
        let name = def.mnemonic;
        let atomic = name.starts_with("image_atomic");
        let cmpswap = name.contains("cmpswap");
        let (dmask, ndata) = if atomic && cmpswap {
            (3, 2)
        } else if atomic || name.contains("gather4") {
            (1, if atomic { 1 } else { 4 })
        } else {
            (0xf, 4)
        };
        let sampler = def.operands.len() > 3;
        for mcpu in ["gfx600", "gfx700", "gfx803", "gfx900", "gfx908", "gfx90a"] {
            let p = PROCESSORS.iter().find(|p| p.name == mcpu).unwrap();
            if !def.exists_on(p) {
                continue;
            }
            let asm = format!(
                "{name} v[20:{}], v[0:{}], s[0:7]{} dmask:{dmask:#x}",
                20 + ndata - 1,
                vaddr - 1,
                if sampler { ", s[8:11]" } else { "" }
            );
            let t = T::new(0, DF_32, NF_FLOAT, 4, 4);
            let r = run(mcpu, &asm, 0, |w, mem, _| {
                let base = image(mem, &[0; 256]);
                descriptors(w, mcpu, &T { base, ..t }, &S::bilinear());
            });
            assert!(r.is_ok(), "{asm} on {mcpu}: {:?}", r.err());
            ran += 1;
        }
    }
    // Rows × generations where they exist (mimg.tbl): 93 + 93 + 89 + 90 + 90 + 25.
    println!("{ran} MIMG rows x generations assembled and ran without a fault");
    assert_eq!(ran, 480);
}

// ---- more address forms ------------------------------------------------------------------

#[test]
fn msaa_loads_read_the_fragment_after_the_coordinates() {
    // 2D MSAA (TYPE 14), 2×1 texels, LAST_LEVEL 2 = 4 samples stored next to each other:
    // (x 1, fragment 3) is element 1 · 4 + 3 = 7; fragment 4 is out of range.
    let b: Vec<u32> = (0..8).map(|i| 100 + i).collect();
    let t = T {
        ty: 14,
        last_level: 2,
        ..T::new(0, DF_32, NF_UINT, 2, 1)
    };
    let asm = "image_load v20, v[0:2], s[0:7] dmask:0x1 unorm";
    let r = go("gfx900", asm, &u32s(&b), t, S::point(), &[1, 0, 3]);
    assert_eq!(r.wave.v[20][0], 107);
    let r = go("gfx900", asm, &u32s(&b), t, S::point(), &[1, 0, 4]);
    assert_eq!(r.wave.v[20][0], 0);
}

#[test]
fn sample_address_order_offset_bias_compare_then_coordinates() {
    // image_sample_c_b_o: offset, bias, z-compare, u, v (SI §8.2 image opcodes with a
    // sampler). Offset +1 in x from texel (0, 0) reaches texel (1, 0) = 0.2; bias 0 on a
    // single level; ref 0.15 LESS 0.2 passes.
    let b = f32s(&[0.1, 0.2, 0.3, 0.4]);
    let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
    let s = S {
        compare: 1,
        ..S::point()
    };
    let v = [
        1,
        0.0f32.to_bits(),
        0.15f32.to_bits(),
        0.25f32.to_bits(),
        0.25f32.to_bits(),
    ];
    let asm = "image_sample_c_b_o v20, v[0:4], s[0:7], s[8:11] dmask:0x1";
    let r = go("gfx803", asm, &b, t, s, &v);
    assert_eq!(f(r.wave.v[20][0]), 1.0);
    // Without the offset texel (0, 0) = 0.1 fails the same compare.
    let v = [
        0,
        0.0f32.to_bits(),
        0.15f32.to_bits(),
        0.25f32.to_bits(),
        0.25f32.to_bits(),
    ];
    let r = go("gfx803", asm, &b, t, s, &v);
    assert_eq!(f(r.wave.v[20][0]), 0.0);
}

#[test]
fn a16_derivatives_take_one_vgpr_per_direction() {
    // a16 (LLVM packImage16bitOpsToDwords): v0 = (dx/dh, dy/dh), v1 = (dx/dv, dy/dv),
    // v2 = (u, v). dx/dh = 0.5 (f16 0x3800) on the 4-wide base: LOD 1 → level 1 (2.0).
    let (bytes, t) = mips_123();
    let s = point_mips();
    let u = half::f16::from_f32(0.1).to_bits() as u32;
    let asm = "image_sample_d v20, v[0:2], s[0:7], s[8:11] dmask:0x1 a16";
    let r = go("gfx900", asm, &bytes, t, s, &[0x3800, 0, u | u << 16]);
    assert_eq!(f(r.wave.v[20][0]), 2.0);
}

#[test]
fn gfx803_d16_store_reads_one_half_per_register_and_gfx90a_acc_data() {
    // gfx803 (unpacked d16): X from v20[15:0], Y from v21[15:0].
    let t = T::new(0, DF_32_32, NF_FLOAT, 1, 1);
    let r = run(
        "gfx803",
        "image_store v[20:21], v[0:1], s[0:7] dmask:0x3 unorm d16",
        0,
        |w, mem, _| {
            let base = image(mem, &[0; 8]);
            descriptors(w, "gfx803", &T { base, ..t }, &S::point());
            w.v[20] = [0xffff_3c00; 64];
            w.v[21] = [0xffff_4000; 64];
        },
    )
    .unwrap();
    assert_eq!(r.mem.load_u32(base_of(&r)).unwrap(), 1.0f32.to_bits());
    assert_eq!(r.mem.load_u32(base_of(&r) + 4).unwrap(), 2.0f32.to_bits());
    // gfx90a: bit 16 is acc, the data goes to AccVGPRs.
    let t = T::new(0, DF_8_8_8_8, NF_UNORM, 4, 4);
    let r = run(
        "gfx90a",
        "image_load a[4:5], v[0:1], s[0:7] dmask:0x3 unorm",
        0,
        |w, mem, _| {
            let base = image(mem, &rgba8_4x4());
            descriptors(w, "gfx90a", &T { base, ..t }, &S::point());
            w.v[0] = [1; 64];
            w.v[1] = [2; 64];
        },
    )
    .unwrap();
    let acc = crate::wave::ACC_BASE as usize;
    assert_eq!(
        [f(r.wave.v[acc + 4][0]), f(r.wave.v[acc + 5][0])],
        [0.2, 0.4]
    );
}

#[test]
fn get_resinfo_of_1d_and_cube_with_a_partial_dmask() {
    // 1D 16 wide, levels 0..=4: mip 2 is 4 wide, height 1; dmask 0x9 gives X and W.
    let t = T {
        ty: T1D,
        last_level: 4,
        ..T::new(0, DF_32, NF_UINT, 16, 1)
    };
    let r = go(
        "gfx700",
        "image_get_resinfo v[20:21], v0, s[0:7] dmask:0x9",
        &[0; 4],
        t,
        S::point(),
        &[2],
    );
    assert_eq!([r.wave.v[20][0], r.wave.v[21][0]], [4, 5]);
    assert_eq!(r.wave.v[22][0], SENTINEL);
    // Cube 8×8 with slices 0..=11 (two cubes): Z = 12 (Mesa divides by 6 itself).
    let t = T {
        ty: TCUBE,
        last_array: 11,
        ..T::new(0, DF_32, NF_UINT, 8, 8)
    };
    let r = go(
        "gfx803",
        "image_get_resinfo v[20:22], v0, s[0:7] dmask:0x7",
        &[0; 4],
        t,
        S::point(),
        &[0],
    );
    assert_eq!(
        [r.wave.v[20][0], r.wave.v[21][0], r.wave.v[22][0]],
        [8, 8, 12]
    );
}

#[test]
fn every_image_row_gives_the_expected_value_at_texel_zero() {
    // A 2×2 R32 float image 1.0 2.0 / 3.0 4.0, all address VGPRs 0 (offset 0, bias 0,
    // z-compare 0, derivatives 0, coordinates 0, lod 0), point sampling, clamp to edge,
    // compare function always (7), mip filter none. By the rules above:
    // - loads read texel (0, 0): 1.0; _pck reads its raw bits, the same dword;
    // - stores write 5.0 to texel (0, 0);
    // - get_resinfo X is the width, 2;
    // - atomics (glc) return the old dword, 1.0's bits;
    // - samples give texel (0, 0), 1.0; with _c the comparison always passes, 1.0;
    // - gather4 clamps the footprint (-1, -1)..(0, 0) to texel (0, 0): 1.0 four times;
    //   gather4h the row texels -2..=1 clamped: 1.0 1.0 1.0 2.0;
    // - get_lod: zero derivatives give LOD -inf: X 0 (mip filter none), Y -inf.
    use gcnkit_isa::{flags, Encoding, INSTRUCTIONS, PROCESSORS};
    let one = 1.0f32.to_bits();
    let mut checked = 0;
    for def in INSTRUCTIONS.iter().filter(|d| d.encoding == Encoding::Mimg) {
        let name = def.mnemonic;
        let vaddr: usize = def
            .flag_args
            .iter()
            .find(|(f, _)| *f == flags::VADDR)
            .and_then(|(_, list)| list.split(',').filter_map(|n| n.parse().ok()).max())
            .unwrap_or(4);
        let sampler = def.operands.len() > 3;
        let (dmask, expect): (u32, Vec<u32>) = if name.starts_with("image_atomic") {
            if name.contains("cmpswap") {
                (3, vec![one])
            } else {
                (1, vec![one])
            }
        } else if name.starts_with("image_store") {
            (1, vec![5.0f32.to_bits()])
        } else if name == "image_get_resinfo" {
            (1, vec![2])
        } else if name == "image_get_lod" {
            (3, vec![0, f32::NEG_INFINITY.to_bits()])
        } else if name.starts_with("image_gather4h") {
            (1, vec![one, one, one, 2.0f32.to_bits()])
        } else if name.starts_with("image_gather4") {
            (1, vec![one; 4])
        } else {
            (1, vec![one])
        };
        let nregs = if name.contains("cmpswap") {
            2
        } else {
            expect.len()
        };
        for mcpu in ["gfx600", "gfx900"] {
            let p = PROCESSORS.iter().find(|p| p.name == mcpu).unwrap();
            if !def.exists_on(p) {
                continue;
            }
            let asm = format!(
                "{name} v[20:{}], v[0:{}], s[0:7]{} dmask:{dmask:#x}{}",
                20 + nregs - 1,
                vaddr - 1,
                if sampler { ", s[8:11]" } else { "" },
                if name.starts_with("image_atomic") {
                    " glc"
                } else {
                    ""
                }
            );
            let t = T::new(0, DF_32, NF_FLOAT, 2, 2);
            let s = S {
                compare: 7,
                ..S::point()
            };
            let r = run(mcpu, &asm, 0, |w, mem, _| {
                let base = image(mem, &quad_1234());
                descriptors(w, mcpu, &T { base, ..t }, &s);
                w.v[20] = [5.0f32.to_bits(); 64];
                w.v[21] = [0; 64];
            })
            .unwrap_or_else(|e| panic!("{asm} on {mcpu}: {e}"));
            let got: Vec<u32> = (0..expect.len()).map(|i| r.wave.v[20 + i][0]).collect();
            assert_eq!(got, expect, "{asm} on {mcpu}");
            if name.starts_with("image_store") {
                assert_eq!(
                    r.mem.load_u32(base_of(&r)).unwrap(),
                    5.0f32.to_bits(),
                    "{asm}"
                );
            }
            checked += 1;
        }
    }
    // 93 rows on gfx6, 90 on gfx9.
    println!("{checked} MIMG row values checked");
    assert_eq!(checked, 183);
}

/// Runs raw machine code (an `s_endpgm` appended) on one wave prepared by `setup`.
fn run_words(mcpu: &str, code: &[u8], setup: impl FnOnce(&mut Wave, &mut Memory)) -> Option<Fault> {
    use crate::exec::{run_wave, Apertures, Env};
    let target = gcnkit_isa::Target::parse(mcpu, None).unwrap();
    let mut bytes = code.to_vec();
    bytes.extend(0xbf81_0000u32.to_le_bytes());
    let program = crate::program::Program::decode(&target, &bytes, crate::snippet::CODE_BASE);
    let mut wave = Wave::new();
    wave.set_exec(u64::MAX);
    let mut mem = Memory::new();
    setup(&mut wave, &mut mem);
    let mut lds = vec![0u8; 1024];
    let gds = crate::gds::Gds::new(1, crate::gds::DispatchShape::SINGLE_WAVE);
    let mut env = Env {
        target: &target,
        mem: &mem,
        lds: &mut lds,
        program: &program,
        apertures: Apertures {
            shared_base: 0x1_0000_0000_0000,
            private_base: 0x2_0000_0000_0000,
        },
        clock: 0,
        trap_aborts: true,
        gds: &gds,
    };
    run_wave(&mut wave, &program, &mut env, 1000).err()
}

#[test]
fn random_image_instructions_and_descriptors_never_panic() {
    // Random MIMG words (every opcode, every flag), random T#/S# words (half of them with
    // the base address of a mapped 64 KiB image and small sizes), random address VGPRs:
    // each run ends normally or with a fault, never a panic.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut faults = 0;
    let mut runs = 0;
    for mcpu in ["gfx600", "gfx700", "gfx803", "gfx900", "gfx908", "gfx90a"] {
        for _ in 0..1500 {
            let w0 = 0xf000_0000u32 | (next() as u32 & 0x03ff_ffff);
            // vaddr, vdata below 32; srsrc 0 or 4 (s[0:7] / s[16:23]); ssamp 2 (s[8:11]).
            let r = next();
            let (vaddr, vdata) = (r as u32 & 0x1f, (r >> 8) as u32 & 0x1f);
            // SRSRC (word1 bits 20:16, in units of 4 SGPRs) s[0:7] mostly, s[16:23] sometimes;
            // SSAMP (bits 25:21) s[8:11]; D16 (bit 31) random.
            let srsrc = if (r >> 16) % 4 == 0 { 4 } else { 0 };
            let w1 = vaddr | vdata << 8 | srsrc << 16 | 2 << 21 | (r as u32 & 0x8000_0000);
            let mut code = w0.to_le_bytes().to_vec();
            code.extend(w1.to_le_bytes());
            let fault = run_words(mcpu, &code, |w, mem| {
                let base = mem.allocate(65536, 256).unwrap();
                for i in 0..32 {
                    w.s[i] = next() as u32;
                }
                if next() & 1 == 0 {
                    // A plausible T#: mapped base, small sizes, valid type and format.
                    w.s[0] = (base >> 8) as u32;
                    const DFMT: [u32; 8] = [4, 10, 14, 5, 12, 1, 2, 11];
                    const NFMT: [u32; 4] = [7, 0, 4, 5];
                    let (d, n) = (DFMT[next() as usize % 8], NFMT[next() as usize % 4]);
                    w.s[1] =
                        (base >> 40) as u32 & 0xff | (w.s[1] & 0x000f_ff00) | d << 20 | n << 26;
                    w.s[2] &= 0x000f_c00f;
                    w.s[3] = (w.s[3] & 0x0fff_ffff) | (8 + (w.s[3] >> 28) % 8) << 28;
                    w.s[4] &= 0x0003_e00f;
                    w.s[5] &= 0x0000_600f;
                }
                for r in 0..40 {
                    for l in 0..64 {
                        w.v[r][l] = match next() % 4 {
                            0 => next() as u32,
                            1 => (next() % 8) as u32,
                            2 => (next() % 100) as f32 as u32,
                            _ => ((next() % 1000) as f32 / 500.0 - 0.5).to_bits(),
                        };
                    }
                }
            });
            runs += 1;
            faults += fault.is_some() as usize;
        }
    }
    println!("{runs} random MIMG runs, {faults} ended in a fault");
}

#[test]
fn an_atomic_on_a_format_of_the_wrong_size_names_it() {
    // RGBA8 elements are 4 bytes, but a 64-bit (dmask 0x3) atomic needs 32_32.
    let t = T::new(0, DF_8_8_8_8, NF_UINT, 1, 1);
    let (e, _) = run_to_fault(
        "gfx900",
        "image_atomic_add v[20:21], v[0:1], s[0:7] dmask:0x3 unorm",
        0,
        |w, mem, _| {
            let base = image(mem, &[0; 4]);
            descriptors(w, "gfx900", &T { base, ..t }, &S::point());
        },
    );
    let msg = e.unwrap().to_string();
    assert!(msg.contains("dmask 0x3 on 4-byte elements"), "{msg}");
}
