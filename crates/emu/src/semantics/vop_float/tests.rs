//! Unit tests of the floating-point VALU semantics. Expected values are worked out by hand
//! from the operation definitions cited in each test (CLRX GcnInstrsVop1/2/3/3p.md, the AMD
//! pseudo-code as summarised in docs/emulator-precision.md, IEEE 754 rounding); bit
//! patterns are spelled out with their derivation.

use crate::testing::{run, splat};
use crate::wave::Wave;

/// MODE bits: FP_ROUND f32 [1:0], f64/f16 [3:2]; FP_DENORM f32 [5:4], f64/f16 [7:6]
/// (bit 0 of a field keeps input denormals, bit 1 output denormals); DX10_CLAMP 8; IEEE 9;
/// FP16_OVFL 23.
const DX10: u32 = 1 << 8;
const IEEE: u32 = 1 << 9;
const OVFL: u32 = 1 << 23;
/// All denormals kept, nearest-even, DX10 and IEEE on (the gfx9 OpenCL default).
const ALL_KEEP: u32 = 0xf0 | DX10 | IEEE;
/// f32 denormals flushed in and out, f64/f16 kept (the gfx6-8 OpenCL default).
const F32_FLUSH: u32 = 0xc0 | DX10 | IEEE;

fn bits(x: f32) -> u32 {
    x.to_bits()
}

/// Runs `src` on `mcpu` with MODE `mode` after `setup`, returning the wave.
fn go(mcpu: &str, mode: u32, src: &str, setup: impl FnOnce(&mut Wave)) -> Wave {
    run(mcpu, src, |w, _| {
        w.mode.bits = mode;
        setup(w)
    })
    .unwrap_or_else(|e| panic!("{src}: {e}"))
    .wave
}

/// Puts per-lane values into VGPR `r` (lane i gets `vals[i % len]`).
fn lanes(w: &mut Wave, r: usize, vals: &[u32]) {
    for l in 0..64 {
        w.v[r][l] = vals[l % vals.len()];
    }
}

/// Puts per-lane f64 bit patterns into the VGPR pair `r`, `r+1`.
fn lanes64(w: &mut Wave, r: usize, vals: &[u64]) {
    for l in 0..64 {
        let v = vals[l % vals.len()];
        w.v[r][l] = v as u32;
        w.v[r + 1][l] = (v >> 32) as u32;
    }
}

fn get64(w: &Wave, r: usize, l: usize) -> u64 {
    w.v[r][l] as u64 | (w.v[r + 1][l] as u64) << 32
}

/// Asserts lanes `0..expect.len()` of VGPR `r`.
#[track_caller]
fn check(w: &Wave, r: usize, expect: &[u32]) {
    let got: Vec<u32> = (0..expect.len()).map(|l| w.v[r][l]).collect();
    let want: Vec<u32> = expect.to_vec();
    assert_eq!(
        got.iter().map(|x| format!("{x:#010x}")).collect::<Vec<_>>(),
        want.iter()
            .map(|x| format!("{x:#010x}"))
            .collect::<Vec<_>>()
    );
}

#[track_caller]
fn check64(w: &Wave, r: usize, expect: &[u64]) {
    let got: Vec<String> = (0..expect.len())
        .map(|l| format!("{:#018x}", get64(w, r, l)))
        .collect();
    let want: Vec<String> = expect.iter().map(|x| format!("{x:#018x}")).collect();
    assert_eq!(got, want);
}

// ----------------------------------------------------------------------------------------
// Basic arithmetic, NaN and infinity rules.

#[test]
fn add_sub_mul_give_ieee_results_and_nan_rules() {
    // 1.5 + 2.25 = 3.75 (0x40700000); 1.5 - 2.25 = -0.75 (0xbf400000); subrev: 2.25 - 1.5 =
    // 0.75; 1.5 * 2.25 = 3.375 (0x40580000).
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_add_f32 v10, v1, v2\nv_sub_f32 v11, v1, v2\nv_subrev_f32 v12, v1, v2\nv_mul_f32 v13, v1, v2",
        |w| {
            w.v[1] = splat(bits(1.5));
            w.v[2] = splat(bits(2.25));
        },
    );
    check(&w, 10, &[0x4070_0000]);
    check(&w, 11, &[0xbf40_0000]);
    check(&w, 12, &[0x3f40_0000]);
    check(&w, 13, &[0x4058_0000]);
    // inf + -inf and 0 * inf are invalid: the default NaN 0xffc00000 (precision notes
    // §1.3). A signalling NaN operand (0x7fa00000) comes back quieted (0x7fe00000); a
    // quiet NaN keeps its payload and sign (0xffc00123).
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_add_f32 v10, v1, v2\nv_mul_f32 v11, v1, v2",
        |w| {
            lanes(w, 1, &[0x7f80_0000, 0x7fa0_0000, 0x3f80_0000, 0]);
            lanes(w, 2, &[0xff80_0000, 0x3f80_0000, 0xffc0_0123, 0x7f80_0000]);
        },
    );
    check(
        &w,
        10,
        &[0xffc0_0000, 0x7fe0_0000, 0xffc0_0123, 0x7f80_0000],
    );
    check(
        &w,
        11,
        &[0xff80_0000, 0x7fe0_0000, 0xffc0_0123, 0xffc0_0000],
    );
}

#[test]
fn f64_add_and_mul_round_to_nearest_even() {
    // 1 + 2^-53 is a tie between 1 and 1 + 2^-52: even 1.0. 1 + 3*2^-53 ties up to
    // 1 + 2^-51. (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104 rounds to 1 + 2^-51.
    let e52 = 2f64.powi(-52);
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_add_f64 v[10:11], v[0:1], v[2:3]\nv_mul_f64 v[12:13], v[4:5], v[4:5]",
        |w| {
            lanes64(w, 0, &[1f64.to_bits(), 1f64.to_bits()]);
            lanes64(w, 2, &[(e52 / 2.0).to_bits(), (3.0 * e52 / 2.0).to_bits()]);
            lanes64(w, 4, &[(1.0 + e52).to_bits()]);
        },
    );
    check64(&w, 10, &[0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0002]);
    check64(&w, 12, &[0x3ff0_0000_0000_0002]);
}

#[test]
fn disabled_lanes_keep_their_values() {
    let w = go("gfx900", ALL_KEEP, "v_add_f32 v1, v0, v0", |w| {
        w.set_exec(0b0110);
        w.v[0] = splat(bits(1.0));
        w.v[1] = splat(0xdead_beef);
    });
    check(&w, 1, &[0xdead_beef, 0x4000_0000, 0x4000_0000, 0xdead_beef]);
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_add_f64 v[2:3], v[0:1], v[0:1]",
        |w| {
            w.set_exec(0b10);
            lanes64(w, 0, &[1f64.to_bits()]);
            lanes64(w, 2, &[0x1234_5678_9abc_def0]);
        },
    );
    check64(&w, 2, &[0x1234_5678_9abc_def0, 0x4000_0000_0000_0000]);
}

// ----------------------------------------------------------------------------------------
// Denormals under MODE.

#[test]
fn f32_denormals_follow_each_mode_field() {
    // 2^-149 (0x00000001) + 2^-149 = 2^-148 (0x00000002), a denormal input and output.
    // MODE f32 field 3: both kept -> 2. Field 0: input flushed -> 0 + 0 = 0.
    // Field 1 (keep inputs, flush outputs): the sum 2^-148 is flushed -> 0.
    // Field 2 (flush inputs, keep outputs): inputs 0 -> 0.
    // A normal input with a denormal result: 2^-126 * 0.5 = 2^-127 (0x00400000): kept by
    // fields 2 and 3, flushed by 0 and 1.
    for (field, sum, half) in [
        (3, 2, 0x0040_0000),
        (0, 0, 0),
        (1, 0, 0),
        (2, 0, 0x0040_0000),
    ] {
        let w = go(
            "gfx900",
            field << 4 | DX10 | IEEE,
            "v_add_f32 v10, v1, v1\nv_mul_f32 v11, v2, 0.5",
            |w| {
                w.v[1] = splat(1);
                w.v[2] = splat(0x0080_0000);
            },
        );
        check(&w, 10, &[sum]);
        check(&w, 11, &[half]);
    }
    // Flushing keeps the sign: -2^-149 + -0 with inputs flushed is -0.
    let w = go("gfx803", F32_FLUSH, "v_add_f32 v10, v1, v2", |w| {
        w.v[1] = splat(0x8000_0001);
        w.v[2] = splat(0x8000_0000);
    });
    check(&w, 10, &[0x8000_0000]);
}

#[test]
fn f64_and_f16_denormals_use_the_other_mode_field() {
    // f64: 2^-1074 + 2^-1074 = 2^-1073 (0x2), kept with MODE[7:6] = 3 whatever the f32
    // field says; flushed to +0 with MODE[7:6] = 0.
    let src = "v_add_f64 v[10:11], v[0:1], v[0:1]\nv_add_f16 v12, v2, v2";
    let setup = |w: &mut Wave| {
        lanes64(w, 0, &[1]);
        // f16: 2^-24 (0x0001) + 2^-24 = 2^-23 (0x0002).
        w.v[2] = splat(1);
    };
    let w = go("gfx900", 0xc0 | DX10 | IEEE, src, setup);
    check64(&w, 10, &[2]);
    check(&w, 12, &[2]);
    let w = go("gfx900", 0x30 | DX10 | IEEE, src, setup);
    check64(&w, 10, &[0]);
    check(&w, 12, &[0]);
}

// ----------------------------------------------------------------------------------------
// Rounding modes.

#[test]
fn add_mul_fma_honour_every_f32_rounding_mode() {
    // 1 + 2^-24 is halfway between 1.0 (0x3f800000) and 1 + 2^-23 (0x3f800001).
    // Nearest-even: 1.0; +inf: 0x3f800001; -inf and zero: 1.0.
    // -(1 + 2^-24): +inf and zero give -1.0 (0xbf800000), -inf gives 0xbf800001.
    for (rm, pos, neg) in [
        (0, 0x3f80_0000, 0xbf80_0000),
        (1, 0x3f80_0001, 0xbf80_0000),
        (2, 0x3f80_0000, 0xbf80_0001),
        (3, 0x3f80_0000, 0xbf80_0000),
    ] {
        let w = go(
            "gfx900",
            ALL_KEEP | rm,
            "v_add_f32 v10, v1, v2\nv_sub_f32 v11, v3, v2\nv_fma_f32 v12, v2, 1.0, v1\nv_mul_f32 v13, v4, v5",
            |w| {
                w.v[1] = splat(bits(1.0));
                w.v[2] = splat(bits(2f32.powi(-24)));
                w.v[3] = splat(bits(-1.0));
                // (1 + 2^-12) * (1 + 2^-12) = 1 + 2^-11 + 2^-24: the same tie above 1+2^-11.
                w.v[4] = splat(0x3f80_0800);
                w.v[5] = splat(0x3f80_0800);
            },
        );
        check(&w, 10, &[pos]);
        check(&w, 11, &[neg]);
        check(&w, 12, &[pos]);
        // 1 + 2^-11 is 0x3f801000 (even); the tie goes up only toward +inf.
        check(&w, 13, &[if rm == 1 { 0x3f80_1001 } else { 0x3f80_1000 }]);
    }
}

#[test]
fn f64_rounding_mode_field_is_separate_from_f32() {
    // MODE[3:2] = 1 (toward +inf) rounds f64 1 + 2^-60 up to 1 + 2^-52, while the f32 add
    // still rounds to nearest (MODE[1:0] = 0).
    let w = go(
        "gfx900",
        ALL_KEEP | 1 << 2,
        "v_add_f64 v[10:11], v[0:1], v[2:3]\nv_add_f32 v12, v4, v5",
        |w| {
            lanes64(w, 0, &[1f64.to_bits()]);
            lanes64(w, 2, &[2f64.powi(-60).to_bits()]);
            w.v[4] = splat(bits(1.0));
            w.v[5] = splat(bits(2f32.powi(-30)));
        },
    );
    check64(&w, 10, &[0x3ff0_0000_0000_0001]);
    check(&w, 12, &[0x3f80_0000]);
}

// ----------------------------------------------------------------------------------------
// Multiply-add family.

#[test]
fn fma_rounds_once_and_mad_rounds_twice_and_flushes() {
    // a = 1 + 2^-12 (0x3f800800): a*a - 1 = 2^-11 + 2^-24 exactly = 2^-11 * (1 + 2^-13),
    // i.e. 0x3a000000 | 1 << 10 = 0x3a000400 when fused. Unfused, a*a rounds to 1 + 2^-11
    // (the 2^-24 is a tie, the even side is below) and the difference is 2^-11 (0x3a000000).
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_fma_f32 v10, v1, v1, -1.0\nv_mad_f32 v11, v1, v1, -1.0",
        |w| w.v[1] = splat(0x3f80_0800),
    );
    check(&w, 10, &[0x3a00_0400]);
    check(&w, 11, &[0x3a00_0000]);
    // v_mad_f32 flushes denormals even when MODE keeps them (precision notes §1.2):
    // 1.0 * 2^-149 + 0 is 0 for mad and 2^-149 for fma.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_mad_f32 v10, 1.0, v1, 0\nv_fma_f32 v11, 1.0, v1, 0",
        |w| w.v[1] = splat(1),
    );
    check(&w, 10, &[0]);
    check(&w, 11, &[1]);
}

#[test]
fn f64_fma_is_fused() {
    // (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104 exactly (0xb970000000000000); a separate
    // product rounds to 1.0 and gives 0.
    let e = 2f64.powi(-52);
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_fma_f64 v[10:11], v[0:1], v[2:3], -1.0",
        |w| {
            lanes64(w, 0, &[(1.0 + e).to_bits()]);
            lanes64(w, 2, &[(1.0 - e).to_bits()]);
        },
    );
    check64(&w, 10, &[(-(2f64.powi(-104))).to_bits()]);
    assert_eq!((-(2f64.powi(-104))).to_bits(), 0xb970_0000_0000_0000);
}

#[test]
fn mac_fmac_madak_madmk_use_their_accumulator_and_constant() {
    // v_mac_f32: v10 = 2 * 3 + v10(1) = 7 (0x40e00000). v_madak: 2 * 3 + 0.5 = 6.5
    // (0x40d00000). v_madmk: 2 * 0.5 + 3 = 4 (0x40800000).
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_mac_f32 v10, v1, v2\nv_madak_f32 v11, v1, v2, 0x3f000000\nv_madmk_f32 v12, v1, 0x3f000000, v2",
        |w| {
            w.v[1] = splat(bits(2.0));
            w.v[2] = splat(bits(3.0));
            w.v[10] = splat(bits(1.0));
        },
    );
    check(&w, 10, &[0x40e0_0000]);
    check(&w, 11, &[0x40d0_0000]);
    check(&w, 12, &[0x4080_0000]);
    // gfx940 v_fmaak/v_fmamk/v_fmac: fused. a = 1 + 2^-12: a*a + K with K = -1.0
    // (0xbf800000) gives the fused 0x3a000400 (see above).
    let w = go(
        "gfx940",
        ALL_KEEP,
        "v_fmaak_f32 v10, v1, v1, 0xbf800000\nv_fmamk_f32 v11, v1, 0x3f800800, v2\nv_fmac_f32 v12, v1, v1",
        |w| {
            w.v[1] = splat(0x3f80_0800);
            w.v[2] = splat(bits(-1.0));
            w.v[12] = splat(bits(-1.0));
        },
    );
    check(&w, 10, &[0x3a00_0400]);
    check(&w, 11, &[0x3a00_0400]);
    check(&w, 12, &[0x3a00_0400]);
    // f64 fmac (gfx90a): 2 * 3 + 1 = 7.
    let w = go(
        "gfx90a",
        ALL_KEEP,
        "v_fmac_f64 v[10:11], v[0:1], v[2:3]",
        |w| {
            lanes64(w, 0, &[2f64.to_bits()]);
            lanes64(w, 2, &[3f64.to_bits()]);
            lanes64(w, 10, &[1f64.to_bits()]);
        },
    );
    check64(&w, 10, &[7f64.to_bits()]);
}

#[test]
fn legacy_multiply_treats_zero_times_anything_as_plus_zero() {
    // V_MUL_LEGACY_F32 (CLRX Vop2; precision notes §7.4): either factor ±0 gives +0, even
    // against infinity or NaN; otherwise an ordinary product (-2 * 3 = -6, 0xc0c00000).
    let w = go("gfx803", F32_FLUSH, "v_mul_legacy_f32 v10, v1, v2", |w| {
        lanes(w, 1, &[0, 0x8000_0000, 0x7fc0_0000, bits(-2.0)]);
        lanes(w, 2, &[0x7f80_0000, bits(5.0), 0, bits(3.0)]);
    });
    check(&w, 10, &[0, 0, 0, 0xc0c0_0000]);
    // v_mad_legacy_f32: the legacy product plus src2: 0 * inf + 2 = 2, 0 * NaN + -0 = +0.
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_mad_legacy_f32 v10, v1, v2, v3",
        |w| {
            lanes(w, 1, &[0, 0]);
            lanes(w, 2, &[0x7f80_0000, 0x7fc0_0000]);
            lanes(w, 3, &[bits(2.0), 0x8000_0000]);
        },
    );
    check(&w, 10, &[0x4000_0000, 0]);
    // gfx6 v_mac_legacy_f32 accumulates into vdst the same way: 0 * inf + 5 = 5.
    let w = go("gfx600", F32_FLUSH, "v_mac_legacy_f32 v10, v1, v2", |w| {
        w.v[1] = splat(0);
        w.v[2] = splat(0x7f80_0000);
        w.v[10] = splat(bits(5.0));
    });
    check(&w, 10, &[bits(5.0)]);
    // gfx90a has the VOP3-only form.
    let w = go("gfx90a", ALL_KEEP, "v_mul_legacy_f32 v10, v1, v2", |w| {
        w.v[1] = splat(0);
        w.v[2] = splat(0x7fc0_0000);
    });
    check(&w, 10, &[0]);
}

// ----------------------------------------------------------------------------------------
// Min/max/med3.

#[test]
fn min_max_follow_the_ieee_mode_nan_rules() {
    // Precision notes §7.3 (AMD V_MIN_F32 pseudo-code). Lanes:
    // 0: (1, 2) -> min 1, max 2;  1: (qNaN, 3) -> 3 both;  2: (sNaN 0x7fa00000, 3) -> IEEE:
    // quiet 0x7fe00000 both;  3: (+0, -0) -> min -0, max +0;  4: (-0, +0) same.
    let src = "v_min_f32 v10, v1, v2\nv_max_f32 v11, v1, v2";
    let setup = |w: &mut Wave| {
        lanes(w, 1, &[bits(1.0), 0x7fc0_0000, 0x7fa0_0000, 0, 0x8000_0000]);
        lanes(w, 2, &[bits(2.0), bits(3.0), bits(3.0), 0x8000_0000, 0]);
    };
    let w = go("gfx900", ALL_KEEP, src, setup);
    check(
        &w,
        10,
        &[bits(1.0), bits(3.0), 0x7fe0_0000, 0x8000_0000, 0x8000_0000],
    );
    check(&w, 11, &[bits(2.0), bits(3.0), 0x7fe0_0000, 0, 0]);
    // IEEE off: every NaN loses, signalling or not.
    let w = go("gfx900", ALL_KEEP & !IEEE, src, setup);
    check(
        &w,
        10,
        &[bits(1.0), bits(3.0), bits(3.0), 0x8000_0000, 0x8000_0000],
    );
    check(&w, 11, &[bits(2.0), bits(3.0), bits(3.0), 0, 0]);
}

#[test]
fn min3_max3_med3_pick_by_the_pseudo_code() {
    // med3(3, 1, 2) = 2; med3(1, NaN, 3) = min(1, 3) = 1 (a NaN makes med3 the min3 of the
    // others); min3(3, 1, 2) = 1; max3(3, 1, 2) = 3; med3(-0, +0, +0) = max(+0, +0) = +0.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_med3_f32 v10, v1, v2, v3\nv_min3_f32 v11, v1, v2, v3\nv_max3_f32 v12, v1, v2, v3",
        |w| {
            lanes(w, 1, &[bits(3.0), bits(1.0), 0x8000_0000]);
            lanes(w, 2, &[bits(1.0), 0x7fc0_0000, 0]);
            lanes(w, 3, &[bits(2.0), bits(3.0), 0]);
        },
    );
    check(&w, 10, &[bits(2.0), bits(1.0), 0]);
    check(&w, 11, &[bits(1.0), bits(1.0), 0x8000_0000]);
    check(&w, 12, &[bits(3.0), bits(3.0), 0]);
    // f16 forms (gfx9): med3(0x4200 = 3, 0x3c00 = 1, 0x4000 = 2) = 2 (0x4000); the high
    // half of the destination is zeroed.
    let w = go("gfx900", ALL_KEEP, "v_med3_f16 v10, v1, v2, v3", |w| {
        w.v[1] = splat(0x4200);
        w.v[2] = splat(0x3c00);
        w.v[3] = splat(0x4000);
        w.v[10] = splat(0xffff_ffff);
    });
    check(&w, 10, &[0x4000]);
}

#[test]
fn legacy_min_max_select_src1_on_nan() {
    // gfx6 V_MIN_LEGACY_F32 = (S0 < S1 ? S0 : S1), V_MAX_LEGACY_F32 = (S0 >= S1 ? S0 : S1)
    // (CLRX Vop2): a NaN src1 gives NaN, a NaN src0 gives src1.
    let w = go(
        "gfx600",
        F32_FLUSH,
        "v_min_legacy_f32 v10, v1, v2\nv_max_legacy_f32 v11, v1, v2",
        |w| {
            lanes(w, 1, &[bits(1.0), 0x7fc0_0000, bits(5.0)]);
            lanes(w, 2, &[0x7fc0_0000, bits(2.0), bits(3.0)]);
        },
    );
    check(&w, 10, &[0x7fc0_0000, bits(2.0), bits(3.0)]);
    check(&w, 11, &[0x7fc0_0000, bits(2.0), bits(5.0)]);
}

// ----------------------------------------------------------------------------------------
// Output modifiers.

#[test]
fn clamp_limits_to_zero_one_and_dx10_maps_nan_to_zero() {
    // 0.75 + 0.75 = 1.5 -> 1.0; -1 + -1 = -2 -> +0; -0 + -0 = -0 -> +0 (precision notes
    // §7.1); inf - inf = NaN -> +0 with DX10_CLAMP, NaN without.
    let src = "v_add_f32_e64 v10, v1, v1 clamp\nv_sub_f32_e64 v11, v2, v2 clamp";
    let setup = |w: &mut Wave| {
        lanes(w, 1, &[bits(0.75), bits(-1.0), 0x8000_0000]);
        w.v[2] = splat(0x7f80_0000);
    };
    let w = go("gfx900", ALL_KEEP, src, setup);
    check(&w, 10, &[bits(1.0), 0, 0]);
    check(&w, 11, &[0]);
    let w = go("gfx900", ALL_KEEP & !DX10, src, setup);
    check(&w, 11, &[0xffc0_0000]);
    // f64 clamp: 2.5 -> 1.0.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_add_f64 v[10:11], v[0:1], v[0:1] clamp",
        |w| {
            lanes64(w, 0, &[1.25f64.to_bits()]);
        },
    );
    check64(&w, 10, &[1f64.to_bits()]);
}

#[test]
fn omod_applies_only_without_ieee_mode_and_output_denormals() {
    // 1.5 * 2 = 3 with mul:2 -> 6 (0x40c00000) when MODE.IEEE = 0 and f32 output denormals
    // are flushed; with IEEE on or output denormals kept OMOD is ignored (precision notes
    // §7.2, CLRX: OMOD has no effect with output denormals enabled).
    let src = "v_mul_f32_e64 v10, v1, 2.0 mul:2\nv_mul_f32_e64 v11, v2, 1.0 div:2\nv_mul_f32_e64 v12, v3, 1.0 mul:4";
    let setup = |w: &mut Wave| {
        w.v[1] = splat(bits(1.5));
        // 2^-126 / 2 is a denormal, flushed to +0 by OMOD; -0 * 4 becomes +0.
        w.v[2] = splat(0x0080_0000);
        w.v[3] = splat(0x8000_0000);
    };
    let w = go("gfx803", F32_FLUSH & !IEEE, src, setup);
    check(&w, 10, &[0x40c0_0000]);
    check(&w, 11, &[0]);
    check(&w, 12, &[0]);
    let w = go("gfx803", F32_FLUSH, src, setup);
    check(&w, 10, &[0x4040_0000]);
    check(&w, 11, &[0x0080_0000]);
    check(&w, 12, &[0x8000_0000]);
    let w = go("gfx900", ALL_KEEP & !IEEE, src, setup);
    check(&w, 10, &[0x4040_0000]);
}

// ----------------------------------------------------------------------------------------
// ldexp, frexp, fract, integral rounding.

#[test]
fn ldexp_scales_exactly_and_rounds_once_at_the_ends() {
    // 1.0 * 2^10 = 1024 (0x44800000); 1.5 * 2^-149 = 1.5 units of the smallest denormal,
    // a tie that rounds to even 2 (0x00000002) with denormals kept; 1.0 * 2^128 overflows
    // to inf; 1.0 * 2^i32::MIN is +0; -1.0 * 2^i32::MAX is -inf; NaN stays NaN (quiet).
    let src = "v_ldexp_f32 v10, v1, v2";
    let setup = |w: &mut Wave| {
        lanes(
            w,
            1,
            &[
                bits(1.0),
                bits(1.5),
                bits(1.0),
                bits(1.0),
                bits(-1.0),
                0x7fa0_0000,
            ],
        );
        lanes(
            w,
            2,
            &[
                10,
                (-149i32) as u32,
                128,
                i32::MIN as u32,
                i32::MAX as u32,
                3,
            ],
        );
    };
    let w = go("gfx900", ALL_KEEP, src, setup);
    check(
        &w,
        10,
        &[0x4480_0000, 2, 0x7f80_0000, 0, 0xff80_0000, 0x7fe0_0000],
    );
    // gfx803 flushes the denormal result; toward zero gives the largest finite on overflow.
    let w = go("gfx803", F32_FLUSH | 3, src, setup);
    check(
        &w,
        10,
        &[0x4480_0000, 0, 0x7f7f_ffff, 0, 0xff7f_ffff, 0x7fe0_0000],
    );
    // gfx6 VOP2 form and f64: 3.0 * 2^-1 = 1.5.
    let w = go(
        "gfx600",
        F32_FLUSH,
        "v_ldexp_f32 v10, v1, v2\nv_ldexp_f64 v[12:13], v[4:5], v2",
        |w| {
            w.v[1] = splat(bits(3.0));
            w.v[2] = splat((-1i32) as u32);
            lanes64(w, 4, &[3f64.to_bits()]);
        },
    );
    check(&w, 10, &[bits(1.5)]);
    check64(&w, 12, &[1.5f64.to_bits()]);
}

#[test]
fn frexp_splits_mantissa_and_exponent() {
    // 6.0 = 0.75 * 2^3; the denormal 2^-149 = 0.5 * 2^-148 (denormals kept on gfx9);
    // -0 -> -0, 0; inf -> inf, 0 on gfx7+ (precision notes §6.2).
    let src = "v_frexp_mant_f32 v10, v1\nv_frexp_exp_i32_f32 v11, v1";
    let setup = |w: &mut Wave| lanes(w, 1, &[bits(6.0), 1, 0x8000_0000, 0x7f80_0000]);
    let w = go("gfx900", ALL_KEEP, src, setup);
    check(&w, 10, &[bits(0.75), bits(0.5), 0x8000_0000, 0x7f80_0000]);
    check(&w, 11, &[3, (-148i32) as u32, 0, 0]);
    // gfx6 (CLRX): inf gives mantissa -NaN and exponent -1; the f32 denormal is flushed
    // by the default MODE there.
    let w = go("gfx600", F32_FLUSH, src, setup);
    check(&w, 10, &[bits(0.75), 0, 0x8000_0000, 0xffc0_0000]);
    check(&w, 11, &[3, 0, 0, u32::MAX]);
    // f64: -10.0 = -0.625 * 2^4.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_frexp_mant_f64 v[10:11], v[0:1]\nv_frexp_exp_i32_f64 v12, v[0:1]",
        |w| {
            lanes64(w, 0, &[(-10f64).to_bits()]);
        },
    );
    check64(&w, 10, &[(-0.625f64).to_bits()]);
    check(&w, 12, &[4]);
    // f16: 0x4600 = 6.0 -> 0x3a00 = 0.75, exponent 3 (16-bit result, high half zero).
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_frexp_mant_f16 v10, v1\nv_frexp_exp_i16_f16 v11, v1",
        |w| {
            w.v[1] = splat(0x4600);
            w.v[10] = splat(0xffff_0000);
        },
    );
    check(&w, 10, &[0x3a00]);
    check(&w, 11, &[3]);
}

#[test]
fn fract_stays_below_one() {
    // fract(2.75) = 0.75; fract(-0.25) = 0.75; fract(-2^-30): -2^-30 + 1 rounds to 1.0,
    // clamped to 0x3f7fffff; fract(-0) = +0; fract(inf) = NaN with the input's sign
    // (CLRX) -> 0x7fc00000; fract(-inf) -> 0xffc00000.
    let w = go("gfx900", ALL_KEEP, "v_fract_f32 v10, v1", |w| {
        lanes(
            w,
            1,
            &[
                bits(2.75),
                bits(-0.25),
                bits(-(2f32.powi(-30))),
                0x8000_0000,
                0x7f80_0000,
                0xff80_0000,
            ],
        );
    });
    check(
        &w,
        10,
        &[
            bits(0.75),
            bits(0.75),
            0x3f7f_ffff,
            0,
            0x7fc0_0000,
            0xffc0_0000,
        ],
    );
    // f64: fract(-2^-60) clamps to 0x3fefffffffffffff.
    let w = go("gfx600", F32_FLUSH, "v_fract_f64 v[10:11], v[0:1]", |w| {
        lanes64(w, 0, &[(-(2f64.powi(-60))).to_bits(), 5.5f64.to_bits()]);
    });
    check64(&w, 10, &[0x3fef_ffff_ffff_ffff, 0.5f64.to_bits()]);
}

#[test]
fn trunc_ceil_floor_rndne_round_to_integral_values() {
    // Lanes 2.5, -2.5, 3.5, -0.5, 1e30 (already integral), NaN.
    let src = "v_trunc_f32 v10, v1\nv_ceil_f32 v11, v1\nv_floor_f32 v12, v1\nv_rndne_f32 v13, v1";
    let w = go("gfx900", ALL_KEEP, src, |w| {
        lanes(
            w,
            1,
            &[
                bits(2.5),
                bits(-2.5),
                bits(3.5),
                bits(-0.5),
                bits(1e30),
                0x7fa0_0000,
            ],
        );
    });
    let q = 0x7fe0_0000;
    check(
        &w,
        10,
        &[bits(2.0), bits(-2.0), bits(3.0), 0x8000_0000, bits(1e30), q],
    );
    // ceil(-0.5) = -0 (the sign of a value rounded up to zero is kept).
    check(
        &w,
        11,
        &[bits(3.0), bits(-2.0), bits(4.0), 0x8000_0000, bits(1e30), q],
    );
    check(
        &w,
        12,
        &[bits(2.0), bits(-3.0), bits(3.0), bits(-1.0), bits(1e30), q],
    );
    // Ties to even: 2.5 -> 2, -2.5 -> -2, 3.5 -> 4, -0.5 -> -0.
    check(
        &w,
        13,
        &[bits(2.0), bits(-2.0), bits(4.0), 0x8000_0000, bits(1e30), q],
    );
    // floor of a negative denormal: -1 when kept, -0 when flushed (gfx803 default).
    let w = go("gfx803", F32_FLUSH, "v_floor_f32 v10, v1", |w| {
        w.v[1] = splat(0x8000_0001)
    });
    check(&w, 10, &[0x8000_0000]);
    let w = go("gfx900", ALL_KEEP, "v_floor_f32 v10, v1", |w| {
        w.v[1] = splat(0x8000_0001)
    });
    check(&w, 10, &[bits(-1.0)]);
    // f64 (gfx7+) and f16.
    let w = go(
        "gfx700",
        F32_FLUSH,
        "v_floor_f64 v[10:11], v[0:1]\nv_rndne_f64 v[12:13], v[0:1]",
        |w| lanes64(w, 0, &[(-1.5f64).to_bits()]),
    );
    check64(&w, 10, &[(-2f64).to_bits()]);
    check64(&w, 12, &[(-2f64).to_bits()]);
    let w = go("gfx803", F32_FLUSH, "v_ceil_f16 v10, v1", |w| {
        w.v[1] = splat(0x3e00)
    }); // 1.5
    check(&w, 10, &[0x4000]);
}

// ----------------------------------------------------------------------------------------
// Transcendentals.

#[test]
fn rcp_rsq_sqrt_special_values_and_rounding() {
    // rcp: 2 -> 0.5; 3 -> correctly rounded 1/3 = 0x3eaaaaab; ±0 -> ±inf; inf -> 0; the
    // denormal 2^-149 is flushed first (f32 rcp always flushes) -> inf.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_rcp_f32 v10, v1\nv_rcp_iflag_f32 v11, v1",
        |w| {
            lanes(
                w,
                1,
                &[bits(2.0), bits(3.0), 0, 0x8000_0000, 0x7f80_0000, 1],
            );
        },
    );
    let want = [
        bits(0.5),
        0x3eaa_aaab,
        0x7f80_0000,
        0xff80_0000,
        0,
        0x7f80_0000,
    ];
    check(&w, 10, &want);
    check(&w, 11, &want);
    // rsq: 4 -> 0.5; -1 -> default NaN; -0 -> -inf; +0 -> inf; inf -> 0; -inf -> NaN.
    // sqrt: 4 -> 2; -1 -> NaN; -0 -> -0; +0 -> 0; inf -> inf; -inf -> NaN; 2 -> 0x3fb504f3.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_rsq_f32 v10, v1\nv_sqrt_f32 v11, v1",
        |w| {
            lanes(
                w,
                1,
                &[
                    bits(4.0),
                    bits(-1.0),
                    0x8000_0000,
                    0,
                    0x7f80_0000,
                    0xff80_0000,
                    bits(2.0),
                ],
            );
        },
    );
    let nan = 0xffc0_0000;
    check(
        &w,
        10,
        &[
            bits(0.5),
            nan,
            0xff80_0000,
            0x7f80_0000,
            0,
            nan,
            0x3f35_04f3,
        ],
    );
    check(
        &w,
        11,
        &[
            bits(2.0),
            nan,
            0x8000_0000,
            0,
            0x7f80_0000,
            nan,
            0x3fb5_04f3,
        ],
    );
    // f64 and f16 forms keep denormal inputs: rcp_f64(3) = 0x3fd5555555555555,
    // sqrt_f64(2) = 0x3ff6a09e667f3bcd, rsq_f64(4) = 0.5; rcp_f16(2^-24 = 0x0001) = 2^24,
    // beyond f16 range -> inf (0x7c00); sqrt_f16(4.0 = 0x4400) = 2.0 (0x4000).
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_rcp_f64 v[10:11], v[0:1]\nv_sqrt_f64 v[12:13], v[2:3]\nv_rsq_f64 v[14:15], v[4:5]\nv_rcp_f16 v16, v6\nv_sqrt_f16 v17, v7",
        |w| {
            lanes64(w, 0, &[3f64.to_bits()]);
            lanes64(w, 2, &[2f64.to_bits()]);
            lanes64(w, 4, &[4f64.to_bits()]);
            w.v[6] = splat(1);
            w.v[7] = splat(0x4400);
        },
    );
    check64(&w, 10, &[0x3fd5_5555_5555_5555]);
    check64(&w, 12, &[0x3ff6_a09e_667f_3bcd]);
    check64(&w, 14, &[0x3fe0_0000_0000_0000]);
    check(&w, 16, &[0x7c00]);
    check(&w, 17, &[0x4000]);
}

#[test]
fn log_and_exp_are_base_two_with_their_special_values() {
    // log2: 8 -> 3; 1 -> +0; ±0 -> -inf; -1 -> NaN; inf -> inf; the denormal 2^-149 is
    // flushed -> -inf. exp2: 3 -> 8; -0 -> 1; -inf -> 0; inf -> inf; -130 -> 2^-130 is
    // below 2^-126 and flushed -> +0; a denormal input counts as 0 -> 1.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_log_f32 v10, v1\nv_exp_f32 v11, v2",
        |w| {
            lanes(
                w,
                1,
                &[
                    bits(8.0),
                    bits(1.0),
                    0x8000_0000,
                    bits(-1.0),
                    0x7f80_0000,
                    1,
                ],
            );
            lanes(
                w,
                2,
                &[
                    bits(3.0),
                    0x8000_0000,
                    0xff80_0000,
                    0x7f80_0000,
                    bits(-130.0),
                    1,
                ],
            );
        },
    );
    check(
        &w,
        10,
        &[
            bits(3.0),
            0,
            0xff80_0000,
            0xffc0_0000,
            0x7f80_0000,
            0xff80_0000,
        ],
    );
    check(
        &w,
        11,
        &[bits(8.0), bits(1.0), 0, 0x7f80_0000, 0, bits(1.0)],
    );
    // f16 (gfx8+): log2(2.0 = 0x4000) = 1.0 (0x3c00), exp2(-1.0 = 0xbc00) = 0.5 (0x3800).
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_log_f16 v10, v1\nv_exp_f16 v11, v2",
        |w| {
            w.v[1] = splat(0x4000);
            w.v[2] = splat(0xbc00);
        },
    );
    check(&w, 10, &[0x3c00]);
    check(&w, 11, &[0x3800]);
    // gfx7 legacy forms compute the same functions.
    let w = go(
        "gfx700",
        F32_FLUSH,
        "v_log_legacy_f32 v10, v1\nv_exp_legacy_f32 v11, v1",
        |w| {
            w.v[1] = splat(bits(2.0));
        },
    );
    check(&w, 10, &[bits(1.0)]);
    check(&w, 11, &[bits(4.0)]);
}

#[test]
fn gfx6_legacy_and_clamp_forms_replace_infinite_results() {
    // CLRX Vop1: rcp_legacy(±0) = ±0 and rcp_legacy(inf) = 0; rcp_clamp(0) = +MAX,
    // rcp_clamp(-0) = -MAX; rsq_legacy(+0) = 0 (a +inf result becomes 0); rsq_clamp(0) = MAX;
    // log_clamp(0) = -MAX.
    let w = go(
        "gfx600",
        F32_FLUSH,
        "v_rcp_legacy_f32 v10, v1\nv_rcp_clamp_f32 v11, v1\nv_rsq_legacy_f32 v12, v1\nv_rsq_clamp_f32 v13, v1\nv_log_clamp_f32 v14, v1",
        |w| lanes(w, 1, &[0, 0x8000_0000, 0x7f80_0000, bits(4.0)]),
    );
    check(&w, 10, &[0, 0x8000_0000, 0, bits(0.25)]);
    check(&w, 11, &[0x7f7f_ffff, 0xff7f_ffff, 0, bits(0.25)]);
    check(&w, 12, &[0, 0xff80_0000, 0, bits(0.5)]);
    check(&w, 13, &[0x7f7f_ffff, 0xff7f_ffff, 0, bits(0.5)]);
    check(&w, 14, &[0xff7f_ffff, 0xff7f_ffff, 0x7f80_0000, bits(2.0)]);
    // f64 clamp form: rcp_clamp_f64(0) = 0x7fefffffffffffff.
    let w = go(
        "gfx700",
        F32_FLUSH,
        "v_rcp_clamp_f64 v[10:11], v[0:1]",
        |w| lanes64(w, 0, &[0]),
    );
    check64(&w, 10, &[0x7fef_ffff_ffff_ffff]);
}

#[test]
fn sin_cos_take_revolutions_and_are_exact_at_quarter_turns() {
    // Precision notes §5 (CDNA examples): sin(0.25) = 1, cos(0.25) = +0, sin(-0) = -0,
    // cos(-0) = 1, sin(0.5) = +0, cos(0.5) = -1, sin(inf) = NaN, sin(MAX) = +0, cos(MAX) = 1;
    // sin(1/12 rev = 30°) = 0.5: f32(1/12) is 2.5e-9 above 1/12, moving sin by 1.4e-8,
    // below half an f32 ulp at 0.5; cos of it is sqrt(3)/2 - 7.8e-9 = 0.866025396, whose
    // nearest f32 (spacing 6e-8) is 0x3f5db3d7 = 0.86602539.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_sin_f32 v10, v1\nv_cos_f32 v11, v1",
        |w| {
            lanes(
                w,
                1,
                &[
                    bits(0.25),
                    0x8000_0000,
                    bits(0.5),
                    0x7f80_0000,
                    0x7f7f_ffff,
                    bits(1.0 / 12.0),
                    bits(1.25),
                ],
            );
        },
    );
    check(
        &w,
        10,
        &[
            bits(1.0),
            0x8000_0000,
            0,
            0xffc0_0000,
            0,
            bits(0.5),
            bits(1.0),
        ],
    );
    check(
        &w,
        11,
        &[
            0,
            bits(1.0),
            bits(-1.0),
            0xffc0_0000,
            bits(1.0),
            0x3f5d_b3d7,
            0,
        ],
    );
    // gfx6-gfx8 (AMD ISA text): outside [-256, 256] revolutions sin gives 0 and cos 1;
    // inside, 1.25 revolutions is a quarter turn past a whole one (sin 1, cos +0).
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_sin_f32 v10, v1\nv_cos_f32 v11, v1",
        |w| {
            lanes(w, 1, &[bits(1.25), bits(256.25), bits(-300.0), bits(256.0)]);
        },
    );
    check(&w, 10, &[bits(1.0), 0, 0, 0]);
    check(&w, 11, &[0, bits(1.0), bits(1.0), bits(1.0)]);
    // f16: sin(0.25 = 0x3400) = 1.0 (0x3c00).
    let w = go("gfx900", ALL_KEEP, "v_sin_f16 v10, v1", |w| {
        w.v[1] = splat(0x3400)
    });
    check(&w, 10, &[0x3c00]);
}

#[test]
fn trig_preop_selects_53_bit_segments_of_two_over_pi() {
    // The table itself is checked against 2/π computed here independently (Machin's
    // formula in integer arithmetic). Values: trig_preop(1.0, 0) is 2/π truncated to 53
    // bits; segment 1 starts 53 bits later (scaled by 2^-53 more); src0 = 2^100 shifts the
    // window by 100 - 1077 + 1023 + ... = exponent field 1123 - 1077 = 46 bits.
    let t = two_over_pi_words(40);
    assert_eq!(&t[..37], &super::TWO_OVER_PI[..37]);
    assert_eq!(super::TWO_OVER_PI[37], t[37] & 0xffff_8000);
    let seg = |shift: u32| -> u64 {
        (0..53).fold(0u64, |acc, i| {
            let b = shift + i;
            acc << 1 | ((t[(b / 32) as usize] >> (31 - b % 32)) & 1) as u64
        })
    };
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_trig_preop_f64 v[10:11], v[0:1], v2",
        |w| {
            lanes64(
                w,
                0,
                &[1f64.to_bits(), 1f64.to_bits(), 2f64.powi(100).to_bits()],
            );
            lanes(w, 2, &[0, 1, 0]);
        },
    );
    let want = [
        seg(0) as f64 * 2f64.powi(-53),
        seg(53) as f64 * 2f64.powi(-106),
        seg(46) as f64 * 2f64.powi(-99),
    ];
    check64(&w, 10, &want.map(f64::to_bits));
    // The precision notes give (1.0, 0) = 0x1.45f306dc9c882p-1.
    assert_eq!(want[0].to_bits(), 0x3fe4_5f30_6dc9_c882);
}

/// The first `n` 32-bit words of the fraction of 2/π, from π = 16·atan(1/5) − 4·atan(1/239)
/// in fixed point with `n + 4` words, then 2/π by long division.
fn two_over_pi_words(n: usize) -> Vec<u32> {
    // Fixed point: value = sum(limbs[i] * 2^(32*(len-1-i))) / 2^(32*(len-1)); limb 0 is the
    // integer part.
    let len = n + 4;
    let div_small = |x: &[u32], d: u64| -> Vec<u32> {
        let mut r = 0u64;
        x.iter()
            .map(|&l| {
                let cur = r << 32 | l as u64;
                r = cur % d;
                (cur / d) as u32
            })
            .collect()
    };
    let add = |x: &mut Vec<u32>, y: &[u32], sub: bool| {
        let mut carry = 0i64;
        for i in (0..len).rev() {
            let v = x[i] as i64 + if sub { -(y[i] as i64) } else { y[i] as i64 } + carry;
            x[i] = v.rem_euclid(1 << 32) as u32;
            carry = v.div_euclid(1 << 32);
        }
    };
    let atan_inv = |k: u64| -> Vec<u32> {
        let mut one = vec![0u32; len];
        one[0] = 1;
        let mut term = div_small(&one, k); // 1/k
        let mut sum = vec![0u32; len];
        let mut i = 0u64;
        while term.iter().any(|&x| x != 0) {
            let t = div_small(&term, 2 * i + 1);
            add(&mut sum, &t, i % 2 == 1);
            term = div_small(&term, k * k);
            i += 1;
        }
        sum
    };
    let mul_small = |x: &[u32], m: u64| -> Vec<u32> {
        let mut carry = 0u64;
        let mut out = vec![0u32; len];
        for i in (0..len).rev() {
            let v = x[i] as u64 * m + carry;
            out[i] = v as u32;
            carry = v >> 32;
        }
        out
    };
    let mut pi = mul_small(&atan_inv(5), 16);
    add(&mut pi, &mul_small(&atan_inv(239), 4), true);
    // 2/π bit by bit: r = 2 (scaled), compare with π, shift.
    let mut r = vec![0u32; len];
    r[0] = 2;
    let ge = |a: &[u32], b: &[u32]| {
        a.iter()
            .zip(b)
            .find(|(x, y)| x != y)
            .is_none_or(|(x, y)| x > y)
    };
    let mut out = vec![0u32; n];
    // The integer part of 2/π is 0; produce fraction bits.
    for bit in 0..32 * n {
        r = mul_small(&r, 2);
        if ge(&r, &pi) {
            add(&mut r, &pi, true);
            out[bit / 32] |= 1 << (31 - bit % 32);
        }
    }
    out
}

// ----------------------------------------------------------------------------------------
// Conversions.

#[test]
fn float_to_int_conversions_truncate_and_saturate() {
    // cvt_i32_f32: 2^31 -> 0x7fffffff; -2^31 - 256 (the f32 below -2^31) -> 0x80000000;
    // NaN -> 0; -1.5 -> -1; 1e10 -> MAX; -inf -> MIN; 0.99999994 -> 0.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_cvt_i32_f32 v10, v1\nv_cvt_u32_f32 v11, v1",
        |w| {
            lanes(
                w,
                1,
                &[
                    bits(2147483648.0),
                    bits(-2147483904.0),
                    0x7fc0_0000,
                    bits(-1.5),
                    bits(1e10),
                    0xff80_0000,
                    0x3f7f_ffff,
                    bits(4294967296.0),
                ],
            );
        },
    );
    check(
        &w,
        10,
        &[
            0x7fff_ffff,
            0x8000_0000,
            0,
            (-1i32) as u32,
            0x7fff_ffff,
            0x8000_0000,
            0,
            0x7fff_ffff,
        ],
    );
    // cvt_u32_f32: negatives -> 0; 2^32 -> 0xffffffff.
    check(
        &w,
        11,
        &[0x8000_0000, 0, 0, 0, 0xffff_ffff, 0, 0, 0xffff_ffff],
    );
    // cvt_flr: floor then saturate; cvt_rpi: floor(x + 0.5) with the f32 sum rounded:
    // 0.49999997 + 0.5 = 1 - 2^-25 ties to 1.0, so rpi gives 1 (precision notes §8);
    // rpi(-0.5) = floor(0) = 0, rpi(2.5) = 3; flr(-0.5) = -1; NaN -> 0.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_cvt_flr_i32_f32 v10, v1\nv_cvt_rpi_i32_f32 v11, v1",
        |w| {
            lanes(
                w,
                1,
                &[0x3eff_ffff, bits(-0.5), bits(2.5), 0x7fc0_0000, bits(3e9)],
            );
        },
    );
    check(&w, 10, &[0, (-1i32) as u32, 2, 0, 0x7fff_ffff]);
    check(&w, 11, &[1, 0, 3, 0, 0x7fff_ffff]);
    // f64 sources: 4294967295.9 -> u32 0xffffffff, i32 MAX; -2147483648.9 -> MIN.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_cvt_i32_f64 v10, v[0:1]\nv_cvt_u32_f64 v11, v[0:1]",
        |w| {
            lanes64(
                w,
                0,
                &[4294967295.9f64.to_bits(), (-2147483648.9f64).to_bits()],
            );
        },
    );
    check(&w, 10, &[0x7fff_ffff, 0x8000_0000]);
    check(&w, 11, &[0xffff_ffff, 0]);
    // f16 sources (0x7bff = 65504, 0xbc00 = -1.0, 0x7e00 = NaN).
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_cvt_i16_f16 v10, v1\nv_cvt_u16_f16 v11, v1",
        |w| {
            lanes(w, 1, &[0x7bff, 0xbc00, 0x7e00]);
        },
    );
    check(&w, 10, &[0x7fff, 0xffff, 0]);
    // 65504 fits in u16: 0xffe0.
    check(&w, 11, &[0xffe0, 0, 0]);
}

#[test]
fn int_to_float_conversions_round_with_the_mode() {
    // 2^24 + 1 = 16777217 is a tie between 16777216 (0x4b800000) and 16777218
    // (0x4b800001): nearest-even gives 0x4b800000, toward +inf 0x4b800001. 0xffffffff as
    // u32 rounds to 2^32 (0x4f800000); toward zero to 0x4f7fffff.
    let src = "v_cvt_f32_i32 v10, v1\nv_cvt_f32_u32 v11, v2";
    let setup = |w: &mut Wave| {
        w.v[1] = splat(16_777_217);
        w.v[2] = splat(u32::MAX);
    };
    let w = go("gfx900", ALL_KEEP, src, setup);
    check(&w, 10, &[0x4b80_0000]);
    check(&w, 11, &[0x4f80_0000]);
    let w = go("gfx900", ALL_KEEP | 1, src, setup);
    check(&w, 10, &[0x4b80_0001]);
    check(&w, 11, &[0x4f80_0000]);
    let w = go("gfx900", ALL_KEEP | 3, src, setup);
    check(&w, 11, &[0x4f7f_ffff]);
    // f64 conversions are exact: i32 MIN -> -2^31; u32 MAX -> 4294967295.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_cvt_f64_i32 v[10:11], v1\nv_cvt_f64_u32 v[12:13], v1",
        |w| {
            w.v[1] = splat(0x8000_0000);
        },
    );
    check64(&w, 10, &[(-2147483648f64).to_bits()]);
    check64(&w, 12, &[2147483648f64.to_bits()]);
    // Unsigned bytes and the 4-bit offset form: byte 2 of 0x11ff2233 is 0xff = 255;
    // nibbles 0x8 -> -0.5, 0x7 -> 0.4375, 0xf -> -0.0625 (CLRX V_CVT_OFF_F32_I4).
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_cvt_f32_ubyte2 v10, v1\nv_cvt_f32_ubyte3 v11, v1\nv_cvt_off_f32_i4 v12, v2",
        |w| {
            w.v[1] = splat(0x11ff_2233);
            lanes(w, 2, &[0x8, 0x7, 0xf]);
        },
    );
    check(&w, 10, &[bits(255.0)]);
    check(&w, 11, &[bits(17.0)]);
    check(&w, 12, &[bits(-0.5), bits(0.4375), bits(-0.0625)]);
    // 16-bit: 65535 (u16) -> beyond 65504; 65535 is past the halfway point 65520 -> inf
    // (0x7c00), or 0x7bff with FP16_OVFL; -2 (i16) -> 0xc000.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_cvt_f16_u16 v10, v1\nv_cvt_f16_i16 v11, v2",
        |w| {
            w.v[1] = splat(0xffff);
            w.v[2] = splat(0xfffe);
        },
    );
    check(&w, 10, &[0x7c00]);
    check(&w, 11, &[0xc000]);
    let w = go("gfx900", ALL_KEEP | OVFL, "v_cvt_f16_u16 v10, v1", |w| {
        w.v[1] = splat(0xffff)
    });
    check(&w, 10, &[0x7bff]);
}

#[test]
fn float_format_conversions_round_flush_and_saturate() {
    // f32 -> f16: 1/3 (0x3eaaaaab) -> 0x3555 (0.33325195, nearest) or 0x3556 toward +inf
    // (MODE[3:2] is the f16 field on gfx8+); 65520 -> inf, or 0x7bff with FP16_OVFL while a
    // true inf stays inf; 3*2^-26 = 0.75 of the smallest f16 denormal -> 0x0001, or 0 when
    // f16 output denormals are flushed; NaN keeps its top payload bits: 0x7fc02000 ->
    // 0x7e01.
    let src = "v_cvt_f16_f32 v10, v1";
    let setup = |w: &mut Wave| {
        lanes(
            w,
            1,
            &[
                0x3eaa_aaab,
                bits(65520.0),
                0x7f80_0000,
                bits(3.0 * 2f32.powi(-26)),
                0x7fc0_2000,
            ],
        );
        w.v[10] = splat(0xffff_ffff);
    };
    let w = go("gfx900", ALL_KEEP, src, setup);
    check(&w, 10, &[0x3555, 0x7c00, 0x7c00, 0x0001, 0x7e01]);
    let w = go("gfx900", ALL_KEEP | 1 << 2 | OVFL, src, setup);
    check(&w, 10, &[0x3556, 0x7bff, 0x7c00, 0x0001, 0x7e01]);
    let w = go("gfx900", 0x30 | DX10 | IEEE, src, setup);
    check(&w, 10, &[0x3555, 0x7c00, 0x7c00, 0, 0x7e01]);
    // gfx6/7 (CLRX): the f32 rounding field applies and f16 denormal results are kept.
    let w = go("gfx700", 0x30 | 1 | DX10 | IEEE, src, setup);
    check(&w, 10, &[0x3556, 0x7c00, 0x7c00, 0x0001, 0x7e01]);
    // f16 -> f32 is exact: 0x0001 -> 2^-24 (0x33800000), flushed to 0 when MODE[7:6]
    // flushes f16 inputs; 0xfc00 -> -inf.
    let src = "v_cvt_f32_f16 v10, v1";
    let setup = |w: &mut Wave| lanes(w, 1, &[1, 0xfc00]);
    check(
        &go("gfx803", F32_FLUSH, src, setup),
        10,
        &[0x3380_0000, 0xff80_0000],
    );
    check(
        &go("gfx803", 0x80 | DX10 | IEEE, src, setup),
        10,
        &[0, 0xff80_0000],
    );
    // f64 -> f32: 1 + 2^-30 -> 1.0, or 0x3f800001 toward +inf (the f32 field); 1e300 ->
    // inf; f32 -> f64 of an f32 denormal flushed on gfx803 -> +0.
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_cvt_f32_f64 v10, v[0:1]\nv_cvt_f64_f32 v[12:13], v2",
        |w| {
            lanes64(
                w,
                0,
                &[(1.0 + 2f64.powi(-30)).to_bits(), 1e300f64.to_bits()],
            );
            w.v[2] = splat(1);
        },
    );
    check(&w, 10, &[0x3f80_0000, 0x7f80_0000]);
    check64(&w, 12, &[0]);
    let w = go("gfx803", F32_FLUSH | 1, "v_cvt_f32_f64 v10, v[0:1]", |w| {
        lanes64(w, 0, &[(1.0 + 2f64.powi(-30)).to_bits()]);
    });
    check(&w, 10, &[0x3f80_0001]);
}

#[test]
fn packed_conversions_fill_both_halves() {
    // pkrtz: 1/3 -> 0x3555 (toward zero), 65520 -> 0x7bff (toward zero never reaches inf):
    // low = src0, high = src1.
    let w = go("gfx900", ALL_KEEP, "v_cvt_pkrtz_f16_f32 v10, v1, v2", |w| {
        w.v[1] = splat(0x3eaa_aaab);
        w.v[2] = splat(bits(65520.0));
    });
    check(&w, 10, &[0x7bff_3555]);
    // pknorm_i16_f32: 1.0 -> 32767; -1.0 -> -32767 (0x8001); 2.0 -> 32767; 0.5 -> 16383.5
    // ties to 16384 (0x4000); NaN -> 0. pknorm_u16: 0.5 -> 32767.5 -> 32768; -1 -> 0.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_cvt_pknorm_i16_f32 v10, v1, v2\nv_cvt_pknorm_u16_f32 v11, v1, v2",
        |w| {
            lanes(w, 1, &[bits(1.0), bits(2.0), bits(0.5)]);
            lanes(w, 2, &[bits(-1.0), 0x7fc0_0000, bits(-1.0)]);
        },
    );
    check(&w, 10, &[0x8001_7fff, 0x0000_7fff, 0x8001_4000]);
    check(&w, 11, &[0x0000_ffff, 0x0000_ffff, 0x0000_8000]);
    // gfx6 VOP2 forms, and the saturating integer packs: (70000, -5) -> u16 (0xffff,
    // 0xffff) since -5 is a huge u32; i16 (32767, -5 = 0xfffb).
    let w = go(
        "gfx600",
        F32_FLUSH,
        "v_cvt_pk_u16_u32 v10, v1, v2\nv_cvt_pk_i16_i32 v11, v1, v2\nv_cvt_pkrtz_f16_f32 v12, v3, v3",
        |w| {
            w.v[1] = splat(70000);
            w.v[2] = splat((-5i32) as u32);
            w.v[3] = splat(bits(1.0));
        },
    );
    check(&w, 10, &[0xffff_ffff]);
    check(&w, 11, &[0xfffb_7fff]);
    check(&w, 12, &[0x3c00_3c00]);
    // f16 sources with op_sel (gfx9): high half of v1 (1.0 = 0x3c00) and low of v2 (-1.0).
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_cvt_pknorm_i16_f16 v10, v1, v2 op_sel:[1,0,0]",
        |w| {
            w.v[1] = splat(0x3c00_0000);
            w.v[2] = splat(0x0000_bc00);
        },
    );
    check(&w, 10, &[0x8001_7fff]);
    // v_pack_b32_f16: low of v1 and high of v2 with neg on src1: -(0x3c00) = 0xbc00.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_pack_b32_f16 v10, v1, -v2 op_sel:[0,1,0]",
        |w| {
            w.v[1] = splat(0x1111_4000);
            w.v[2] = splat(0x3c00_2222);
        },
    );
    check(&w, 10, &[0xbc00_4000]);
}

#[test]
fn byte_packing_conversions_place_a_rounded_byte() {
    // v_cvt_pk_u8_f32: round(1.5) = 2 to byte 1 of 0xaabbccdd -> 0xaabb02dd; 255.5 -> 255
    // to byte 3; -3 -> 0 to byte 0; 2.5 -> 2 (ties to even) to byte 2.
    let w = go("gfx900", ALL_KEEP, "v_cvt_pk_u8_f32 v10, v1, v2, v3", |w| {
        lanes(w, 1, &[bits(1.5), bits(255.5), bits(-3.0), bits(2.5)]);
        lanes(w, 2, &[1, 3, 0, 6]);
        w.v[3] = splat(0xaabb_ccdd);
    });
    check(
        &w,
        10,
        &[0xaabb_02dd, 0xffbb_ccdd, 0xaabb_cc00, 0xaa02_ccdd],
    );
    // v_cvt_pkaccum_u8_f32 merges into vdst itself.
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_cvt_pkaccum_u8_f32 v10, v1, v2",
        |w| {
            w.v[1] = splat(bits(7.0));
            w.v[2] = splat(2);
            w.v[10] = splat(0x1122_3344);
        },
    );
    check(&w, 10, &[0x1107_3344]);
}

// ----------------------------------------------------------------------------------------
// f16 arithmetic and destination halves.

#[test]
fn f16_arithmetic_rounds_once_and_writes_the_right_half() {
    // 1.0 (0x3c00) + 2^-11 (0x1000): a tie between 1.0 and 1 + 2^-10 -> even 1.0.
    // 1.0 + 3*2^-12 (0x1200: 1.5 * 2^-11) is 0.75 ulp above 1.0 -> 0x3c01; 1.0 + 3*2^-11
    // (0x1600) is 1.5 ulp, a tie between odd 0x3c01 and even 0x3c02 -> 0x3c02. High halves
    // are zeroed on gfx8.
    let w = go("gfx803", F32_FLUSH, "v_add_f16 v10, v1, v2", |w| {
        lanes(w, 1, &[0xffff_3c00, 0x3c00, 0x3c00]);
        lanes(w, 2, &[0x1000, 0x1200, 0x1600]);
        w.v[10] = splat(0xdead_0000);
    });
    check(&w, 10, &[0x3c00, 0x3c01, 0x3c02]);
    // f16 overflow: 60000 + 60000 -> inf (0x7c00), or 0x7bff with FP16_OVFL (gfx9).
    let src = "v_add_f16 v10, v1, v1";
    let setup = |w: &mut Wave| w.v[1] = splat(0x7b53); // 60000 (0x7b53 = 1.83105 * 2^15)
    check(&go("gfx900", ALL_KEEP, src, setup), 10, &[0x7c00]);
    check(&go("gfx900", ALL_KEEP | OVFL, src, setup), 10, &[0x7bff]);
    // f16 fused multiply-add: a = 1 + 2^-10 (0x3c01), a*a - (1 + 2^-9) = 2^-20 exactly, an
    // f16 denormal (16 units of 2^-24: 0x0010) kept by the gfx8 f16 MODE field. mad rounds
    // a*a to 1 + 2^-9 first (2^-20 is far below the ulp 2^-10) and gives 0.
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_fma_f16 v10, v1, v1, v2\nv_mad_f16 v11, v1, v1, v2",
        |w| {
            w.v[1] = splat(0x3c01);
            w.v[2] = splat(0xbc02);
        },
    );
    check(&w, 10, &[0x0010]);
    check(&w, 11, &[0]);
}

#[test]
fn gfx9_sixteen_bit_destinations_keep_or_zero_the_other_half() {
    // LLVM zeroesHigh16BitsOfDest / Mesa instr_is_16bit: on gfx9 v_fma_f16 (the op_sel
    // opcode) and v_mac_f16 keep the high half, v_add_f16 and the legacy v_fma_legacy_f16
    // zero it; op_sel[3] writes the high half and keeps the low one.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_fma_f16 v10, v1, v1, 0\nv_add_f16 v11, v1, 0\nv_fma_legacy_f16 v12, v1, v1, 0\nv_mac_f16 v13, v1, v1\nv_fma_f16 v14, v1, v1, 0 op_sel:[0,0,0,1]",
        |w| {
            w.v[1] = splat(0x4000); // 2.0
            for r in 10..15 {
                w.v[r] = splat(0xabcd_1234);
            }
            w.v[13] = splat(0xabcd_3c00); // accumulator 1.0
        },
    );
    check(&w, 10, &[0xabcd_4400]); // 4.0 low, high kept
    check(&w, 11, &[0x0000_4000]);
    check(&w, 12, &[0x0000_4400]);
    check(&w, 13, &[0xabcd_4500]); // 2*2 + 1 = 5.0 = 0x4500
    check(&w, 14, &[0x4400_1234]);
    // gfx8 v_mac_f16 zeroes the high half.
    let w = go("gfx803", F32_FLUSH, "v_mac_f16 v13, v1, v1", |w| {
        w.v[1] = splat(0x4000);
        w.v[13] = splat(0xabcd_3c00);
    });
    check(&w, 13, &[0x0000_4500]);
}

#[test]
fn vop3_neg_applies_to_the_half_op_sel_selects() {
    // v_fma_f16 with op_sel[0]: src0 is the high half of v1 (2.0 = 0x4000), negated:
    // -2 * 3 + 1 = -5 (0xc500). The low half of v1 (0x7777) must not matter.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_fma_f16 v10, -v1, v2, v3 op_sel:[1,0,0,0]",
        |w| {
            w.v[1] = splat(0x4000_7777);
            w.v[2] = splat(0x4200); // 3.0
            w.v[3] = splat(0x3c00); // 1.0
        },
    );
    check(&w, 10, &[0xc500]);
    // |src1| of the high half: |-3| * 2 + 1 = 7 (0x4700).
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_fma_f16 v10, v1, |v2|, v3 op_sel:[0,1,0,0]",
        |w| {
            w.v[1] = splat(0x4000);
            w.v[2] = splat(0xc200_0000);
            w.v[3] = splat(0x3c00);
        },
    );
    check(&w, 10, &[0x4700]);
}

#[test]
fn madak_madmk_f16_take_the_literal_half() {
    // 2 * 3 + 0.5 = 6.5 (0x4680); 2 * 0.5 + 3 = 4 (0x4400).
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_madak_f16 v10, v1, v2, 0x3800\nv_madmk_f16 v11, v1, 0x3800, v2",
        |w| {
            w.v[1] = splat(0x4000);
            w.v[2] = splat(0x4200);
        },
    );
    check(&w, 10, &[0x4680]);
    check(&w, 11, &[0x4400]);
}

#[test]
fn f16_ldexp_takes_a_16_bit_exponent() {
    // 1.5 (0x3e00) * 2^-3 = 0.1875 (0x3200); exponent 0xfffd = -3 as i16.
    let w = go("gfx803", F32_FLUSH, "v_ldexp_f16 v10, v1, v2", |w| {
        w.v[1] = splat(0x3e00);
        w.v[2] = splat(0xfffd);
    });
    check(&w, 10, &[0x3200]);
}

// ----------------------------------------------------------------------------------------
// Division helpers.

#[test]
fn div_fixup_handles_every_special_case() {
    // Precision notes §9.3 (src0 = estimate, src1 = denominator, src2 = numerator):
    // 0/0 -> NaN; inf/inf -> NaN; 1/0 -> inf; -1/0 -> -inf; inf/2 -> inf; 2/inf -> 0;
    // 0/-3 -> -0; NaN estimate for 6/-3 -> -inf; NaN numerator -> quieted; ordinary
    // 6/-3 with estimate 2.0 -> -2.0 (sign from the operands).
    let w = go("gfx900", ALL_KEEP, "v_div_fixup_f32 v10, v1, v2, v3", |w| {
        lanes(w, 1, &[0, 0, 0, 0, 0, 0, 0, 0x7fc0_0000, 0, bits(2.0)]);
        lanes(
            w,
            2,
            &[
                0,
                0x7f80_0000,
                0,
                0,
                bits(2.0),
                0x7f80_0000,
                bits(-3.0),
                bits(-3.0),
                bits(1.0),
                bits(-3.0),
            ],
        );
        lanes(
            w,
            3,
            &[
                0,
                0x7f80_0000,
                bits(1.0),
                bits(-1.0),
                0x7f80_0000,
                bits(2.0),
                0,
                bits(6.0),
                0x7fa0_0000,
                bits(6.0),
            ],
        );
    });
    check(
        &w,
        10,
        &[
            0xffc0_0000,
            0xffc0_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7f80_0000,
            0,
            0x8000_0000,
            0xff80_0000,
            0x7fe0_0000,
            bits(-2.0),
        ],
    );
}

#[test]
fn div_scale_scales_the_operand_it_is_given() {
    // Precision notes §9.1, branches in order (exp = biased exponent field):
    // lane 0: a = 2^-40 (exp 87), b = 2^-130 (denormal, bits 0x80000): exp(a) - exp(b) = 87
    //   < 96, and S1 is denormal -> both scaled by 2^64 (b: 2^-66, a: 2^24), VCC 0.
    // lane 1: a = 2^100, b = 2^-10: 227 - 117 = 110 >= 96 -> VCC 1, only b scaled (2^54).
    // lane 2: a = 2^-140 (denormal, 0x200), b = 1: the quotient 2^-140 is below 2^-126 ->
    //   VCC 1, only the numerator scaled: 2^-76.
    // lane 3: a zero operand -> the default NaN, VCC 0.
    // lane 4: 3 / 5 -> no branch, both passed through.
    let src = "v_div_scale_f32 v10, vcc, v2, v2, v1\nv_div_scale_f32 v11, s[4:5], v1, v2, v1";
    let w = go("gfx900", ALL_KEEP, src, |w| {
        lanes(
            w,
            1,
            &[
                bits(2f32.powi(-40)),
                bits(2f32.powi(100)),
                0x200,
                0,
                bits(3.0),
            ],
        );
        lanes(
            w,
            2,
            &[
                0x8_0000,
                bits(2f32.powi(-10)),
                bits(1.0),
                bits(1.0),
                bits(5.0),
            ],
        );
        w.set_exec(0b11111);
    });
    check(
        &w,
        10,
        &[
            bits(2f32.powi(-66)),
            bits(2f32.powi(54)),
            bits(1.0),
            0xffc0_0000,
            bits(5.0),
        ],
    );
    check(
        &w,
        11,
        &[
            bits(2f32.powi(24)),
            bits(2f32.powi(100)),
            bits(2f32.powi(-76)),
            0xffc0_0000,
            bits(3.0),
        ],
    );
    assert_eq!(w.vcc(), 0b00110);
    assert_eq!(w.sreg64(4), 0b00110);
}

#[test]
fn div_scale_with_a_vcc_destination_is_not_clamped_on_gfx7() {
    // VOP3B SDST = vcc (0x6a) sets bit 11, the VOP3A clamp position on gfx6/7: the result
    // must still be the unclamped pass-through 3.0.
    let w = go(
        "gfx700",
        F32_FLUSH,
        "v_div_scale_f32 v10, vcc, v1, v2, v1",
        |w| {
            w.v[1] = splat(bits(3.0));
            w.v[2] = splat(bits(5.0));
        },
    );
    check(&w, 10, &[bits(3.0)]);
}

#[test]
fn div_fmas_scales_by_the_direction_of_src2_when_vcc_is_set() {
    // 1 * 1 + 2 = 3, times 2^64 (|src2| >= 2) in lane 0 (VCC set); 1 * 1 + 0.5 = 1.5 times
    // 2^-64 in lane 1 (VCC set); lane 2 (VCC clear) is a plain fma: 3.
    let w = go("gfx900", ALL_KEEP, "v_div_fmas_f32 v10, v1, v1, v2", |w| {
        w.v[1] = splat(bits(1.0));
        lanes(w, 2, &[bits(2.0), bits(0.5), bits(2.0)]);
        w.set_sreg64(106, 0b011);
    });
    check(
        &w,
        10,
        &[
            bits(3.0 * 2f32.powi(64)),
            bits(1.5 * 2f32.powi(-64)),
            bits(3.0),
        ],
    );
}

/// A small deterministic generator for operand patterns.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Random f32 bit patterns (no NaN/inf), every second one with its exponent forced next to
/// an edge of a div_scale branch (precision notes §12).
fn div_operand32(r: &mut Rng) -> u32 {
    loop {
        let x = r.next() as u32;
        let x = if r.next() & 1 == 0 {
            let edges = [
                0u32, 1, 2, 23, 24, 25, 100, 126, 127, 128, 150, 200, 253, 254,
            ];
            let e = edges[(r.next() % edges.len() as u64) as usize];
            (x & 0x807f_ffff) | e << 23
        } else {
            x
        };
        if x & 0x7f80_0000 != 0x7f80_0000 && x & 0x7fff_ffff != 0 {
            return x;
        }
    }
}

fn div_operand64(r: &mut Rng) -> u64 {
    loop {
        let x = r.next();
        let x = if r.next() & 1 == 0 {
            let edges = [
                0u64, 1, 2, 53, 54, 55, 700, 1022, 1023, 1024, 1100, 1800, 2045, 2046,
            ];
            let e = edges[(r.next() % edges.len() as u64) as usize];
            (x & 0x800f_ffff_ffff_ffff) | e << 52
        } else {
            x
        };
        if x & 0x7ff0_0000_0000_0000 != 0x7ff0_0000_0000_0000 && x << 1 != 0 {
            return x;
        }
    }
}

/// LLVM 19's correctly rounded f32 division (SITargetLowering::LowerFDIV32) as clang emits
/// it for gfx900 with -cl-fp32-correctly-rounded-divide-sqrt: a in v4, b in v2, a/b in v0.
const FDIV32_GFX900: &str = "v_div_scale_f32 v3, s[4:5], v2, v2, v4
v_div_scale_f32 v5, vcc, v4, v2, v4
v_rcp_f32_e32 v6, v3
v_fma_f32 v7, -v3, v6, 1.0
v_fma_f32 v6, v7, v6, v6
v_mul_f32_e32 v7, v5, v6
v_fma_f32 v8, -v3, v7, v5
v_fma_f32 v7, v8, v6, v7
v_fma_f32 v3, -v3, v7, v5
v_div_fmas_f32 v3, v3, v6, v7
v_div_fixup_f32 v0, v3, v2, v4";

/// The same for gfx803, which turns f32 denormals on around the Newton-Raphson steps.
const FDIV32_GFX803: &str = "v_div_scale_f32 v3, s[4:5], v2, v2, v4
v_div_scale_f32 v5, vcc, v4, v2, v4
v_rcp_f32_e32 v6, v3
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
v_fma_f32 v7, -v3, v6, 1.0
v_fma_f32 v6, v7, v6, v6
v_mul_f32_e32 v7, v5, v6
v_fma_f32 v8, -v3, v7, v5
v_fma_f32 v7, v8, v6, v7
v_fma_f32 v3, -v3, v7, v5
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
v_div_fmas_f32 v3, v3, v6, v7
v_div_fixup_f32 v0, v3, v2, v4";

/// LLVM 19's f64 division (SITargetLowering::LowerFDIV64) for gfx900: a in v[2:3], b in
/// v[4:5], a/b in v[0:1].
const FDIV64_GFX900: &str = "v_div_scale_f64 v[6:7], s[4:5], v[4:5], v[4:5], v[2:3]
v_div_scale_f64 v[12:13], vcc, v[2:3], v[4:5], v[2:3]
v_rcp_f64_e32 v[8:9], v[6:7]
v_fma_f64 v[10:11], -v[6:7], v[8:9], 1.0
v_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]
v_fma_f64 v[10:11], -v[6:7], v[8:9], 1.0
v_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]
v_mul_f64 v[10:11], v[12:13], v[8:9]
v_fma_f64 v[6:7], -v[6:7], v[10:11], v[12:13]
v_div_fmas_f64 v[6:7], v[6:7], v[8:9], v[10:11]
v_div_fixup_f64 v[0:1], v[6:7], v[4:5], v[2:3]";

/// The gfx600 form, which does not use div_scale's VCC and recomputes it from the high
/// words ("exactly one operand was rescaled").
const FDIV64_GFX600: &str = "v_div_scale_f64 v[6:7], s[4:5], v[4:5], v[4:5], v[2:3]
v_rcp_f64_e32 v[8:9], v[6:7]
v_cmp_eq_u32_e32 vcc, v5, v7
v_fma_f64 v[10:11], -v[6:7], v[8:9], 1.0
v_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]
v_div_scale_f64 v[10:11], s[4:5], v[2:3], v[4:5], v[2:3]
v_fma_f64 v[12:13], -v[6:7], v[8:9], 1.0
v_fma_f64 v[8:9], v[8:9], v[12:13], v[8:9]
v_cmp_eq_u32_e64 s[4:5], v3, v11
v_mul_f64 v[12:13], v[10:11], v[8:9]
s_xor_b64 vcc, s[4:5], vcc
v_fma_f64 v[6:7], -v[6:7], v[12:13], v[10:11]
v_div_fmas_f64 v[6:7], v[6:7], v[8:9], v[12:13]
v_div_fixup_f64 v[0:1], v[6:7], v[4:5], v[2:3]";

#[test]
fn llvm_f32_division_sequence_gives_the_correctly_rounded_quotient() {
    // The reference is the host's IEEE division: a/b in f64 is correctly rounded, and
    // rounding that to f32 is innocuous for a quotient of f32 operands (53 >= 2*24 + 2).
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut compared = 0;
    for _ in 0..64 {
        let a: Vec<u32> = (0..64).map(|_| div_operand32(&mut rng)).collect();
        let b: Vec<u32> = (0..64).map(|_| div_operand32(&mut rng)).collect();
        let w = go("gfx900", ALL_KEEP, FDIV32_GFX900, |w| {
            lanes(w, 4, &a);
            lanes(w, 2, &b);
        });
        for l in 0..64 {
            let want = ((f32::from_bits(a[l]) as f64) / (f32::from_bits(b[l]) as f64)) as f32;
            assert_eq!(
                w.v[0][l],
                want.to_bits(),
                "{:#010x} / {:#010x}: got {:e}, want {:e}",
                a[l],
                b[l],
                f32::from_bits(w.v[0][l]),
                want
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 64 * 64);
}

#[test]
fn gfx803_f32_division_with_mode_switch_is_correctly_rounded_and_flushed() {
    // gfx803 runs with f32 denormals flushed: the quotient is correctly rounded, then a
    // denormal result is flushed by div_fmas (its output follows MODE). Operands are kept
    // normal (flushed-input semantics of a denormal operand are not under test here).
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..32 {
        let gen = |r: &mut Rng| loop {
            let x = div_operand32(r);
            if x & 0x7f80_0000 != 0 {
                return x;
            }
        };
        let a: Vec<u32> = (0..64).map(|_| gen(&mut rng)).collect();
        let b: Vec<u32> = (0..64).map(|_| gen(&mut rng)).collect();
        let w = go("gfx803", F32_FLUSH, FDIV32_GFX803, |w| {
            lanes(w, 4, &a);
            lanes(w, 2, &b);
        });
        assert_eq!(w.mode.bits & 0x30, 0, "the sequence restores flushing");
        for l in 0..64 {
            let q = ((f32::from_bits(a[l]) as f64) / (f32::from_bits(b[l]) as f64)) as f32;
            let want = if q.is_subnormal() {
                0f32.copysign(q)
            } else {
                q
            };
            assert_eq!(w.v[0][l], want.to_bits(), "{:#010x} / {:#010x}", a[l], b[l]);
        }
    }
}

#[test]
fn llvm_f64_division_sequences_give_the_correctly_rounded_quotient() {
    let mut rng = Rng(0x0ddb_1a5e_5bad_5eed);
    for (mcpu, seq) in [
        ("gfx900", FDIV64_GFX900),
        ("gfx700", FDIV64_GFX900),
        ("gfx600", FDIV64_GFX600),
    ] {
        for _ in 0..48 {
            let a: Vec<u64> = (0..64).map(|_| div_operand64(&mut rng)).collect();
            let b: Vec<u64> = (0..64).map(|_| div_operand64(&mut rng)).collect();
            let w = go(
                mcpu,
                if mcpu == "gfx600" {
                    F32_FLUSH
                } else {
                    ALL_KEEP
                },
                seq,
                |w| {
                    lanes64(w, 2, &a);
                    lanes64(w, 4, &b);
                },
            );
            for l in 0..64 {
                let want = f64::from_bits(a[l]) / f64::from_bits(b[l]);
                assert_eq!(
                    get64(&w, 0, l),
                    want.to_bits(),
                    "{mcpu}: {:#018x} / {:#018x}",
                    a[l],
                    b[l]
                );
            }
        }
    }
}

#[test]
fn division_special_operands_come_out_of_the_sequence_as_ieee_says() {
    // 0/0 and inf/inf are NaN, 1/0 = inf, -1/inf = -0, the largest and smallest values.
    let a = [
        0,
        0x7f80_0000,
        bits(1.0),
        bits(-1.0),
        0x7f7f_ffff,
        1,
        0x7f7f_ffff,
        1,
    ];
    let b = [
        0,
        0x7f80_0000,
        0,
        0x7f80_0000,
        1,
        0x7f7f_ffff,
        0x7f7f_ffff,
        1,
    ];
    let w = go("gfx900", ALL_KEEP, FDIV32_GFX900, |w| {
        lanes(w, 4, &a);
        lanes(w, 2, &b);
    });
    // MAX / 2^-149 overflows to inf; 2^-149 / MAX underflows to 0; x / x = 1.
    check(
        &w,
        0,
        &[
            0xffc0_0000,
            0xffc0_0000,
            0x7f80_0000,
            0x8000_0000,
            0x7f80_0000,
            0,
            bits(1.0),
            bits(1.0),
        ],
    );
}

#[test]
fn gfx9_fast_division_is_within_two_ulp() {
    // The default OpenCL f32 division on gfx9 (AMDGPUCodeGenPrepare::emitFrexpDiv):
    // ldexp(frexp_mant(a) * rcp(frexp_mant(b)), frexp_exp(a) - frexp_exp(b)). Two
    // roundings (rcp, mul) of at most half an ulp each bound the error by one ulp of the
    // mantissa quotient, i.e. at most 2 ulp of the result near a binade edge.
    let seq = "v_frexp_exp_i32_f32_e32 v4, v2
v_frexp_mant_f32_e32 v5, v2
v_rcp_f32_e32 v5, v5
v_frexp_exp_i32_f32_e32 v6, v1
v_frexp_mant_f32_e32 v7, v1
v_sub_u32_e32 v4, v6, v4
v_mul_f32_e32 v7, v7, v5
v_ldexp_f32 v0, v7, v4";
    let mut rng = Rng(77);
    for _ in 0..16 {
        let a: Vec<u32> = (0..64).map(|_| div_operand32(&mut rng)).collect();
        let b: Vec<u32> = (0..64).map(|_| div_operand32(&mut rng)).collect();
        let w = go("gfx900", ALL_KEEP, seq, |w| {
            lanes(w, 1, &a);
            lanes(w, 2, &b);
        });
        for l in 0..64 {
            let q = ((f32::from_bits(a[l]) as f64) / (f32::from_bits(b[l]) as f64)) as f32;
            if !q.is_normal() {
                continue;
            }
            let got = w.v[0][l] as i64;
            assert!(
                (got - q.to_bits() as i64).abs() <= 2,
                "{:#x}/{:#x}",
                a[l],
                b[l]
            );
        }
    }
}

// ----------------------------------------------------------------------------------------
// Mixed precision.

#[test]
fn fma_mix_reads_f32_or_f16_halves_per_op_sel_hi() {
    // v_fma_mix_f32 (gfx906): src0 f16 from the high half (op_sel[0], op_sel_hi[0]): 2.0;
    // src1 f16 low half: 3.0; src2 f32: 0.5 -> 6.5 (0x40d00000).
    let w = go(
        "gfx906",
        ALL_KEEP,
        "v_fma_mix_f32 v10, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[1,1,0]",
        |w| {
            w.v[1] = splat(0x4000_0000);
            w.v[2] = splat(0x0000_4200);
            w.v[3] = splat(bits(0.5));
        },
    );
    check(&w, 10, &[0x40d0_0000]);
    // mixlo/mixhi write an f16 half and keep the other: -(2) * |-3| + 1 = -5 (0xc500).
    // Neg is neg_lo, abs is neg_hi in these encodings.
    let w = go(
        "gfx906",
        ALL_KEEP,
        "v_fma_mixlo_f16 v10, -v1, |v2|, v3 op_sel_hi:[1,1,1]\nv_fma_mixhi_f16 v11, -v1, |v2|, v3 op_sel_hi:[1,1,1]",
        |w| {
            w.v[1] = splat(0x4000);
            w.v[2] = splat(0xc200);
            w.v[3] = splat(0x3c00);
            w.v[10] = splat(0x1234_5678);
            w.v[11] = splat(0x1234_5678);
        },
    );
    check(&w, 10, &[0x1234_c500]);
    check(&w, 11, &[0xc500_5678]);
    // gfx900 v_mad_mix_f32 is unfused with denormals flushed: a = 1 + 2^-12 as f32,
    // a*a - 1 unfused gives 2^-11 (see fma_rounds_once_and_mad_rounds_twice_and_flushes).
    let w = go("gfx900", ALL_KEEP, "v_mad_mix_f32 v10, v1, v1, v2", |w| {
        w.v[1] = splat(0x3f80_0800);
        w.v[2] = splat(bits(-1.0));
    });
    check(&w, 10, &[0x3a00_0000]);
}

// ----------------------------------------------------------------------------------------
// Cube maps, SADs, lerp, mullit.

#[test]
fn cube_helpers_pick_the_major_axis() {
    // (x, y, z) = (1, 2, 3): z major, z >= 0 -> face 4; sc = x = 1; tc = -y = -2; ma = 2z = 6.
    // (-5, 2, 3): x major, x < 0 -> face 1; sc = z = 3; tc = -y = -2; ma = 2x = -10.
    // (1, -4, 2): y major, y < 0 -> face 3; sc = x = 1; tc = -z = -2; ma = -8.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_cubeid_f32 v10, v1, v2, v3\nv_cubesc_f32 v11, v1, v2, v3\nv_cubetc_f32 v12, v1, v2, v3\nv_cubema_f32 v13, v1, v2, v3",
        |w| {
            lanes(w, 1, &[bits(1.0), bits(-5.0), bits(1.0)]);
            lanes(w, 2, &[bits(2.0), bits(2.0), bits(-4.0)]);
            lanes(w, 3, &[bits(3.0), bits(3.0), bits(2.0)]);
        },
    );
    check(&w, 10, &[bits(4.0), bits(1.0), bits(3.0)]);
    check(&w, 11, &[bits(1.0), bits(3.0), bits(1.0)]);
    check(&w, 12, &[bits(-2.0), bits(-2.0), bits(-2.0)]);
    check(&w, 13, &[bits(6.0), bits(-10.0), bits(-8.0)]);
}

#[test]
fn sad_family_sums_absolute_differences() {
    // sad_u8(0x01020304, 0x04030201, 5) = 3 + 1 + 1 + 3 + 5 = 13; sad_hi_u8 = (8 << 16) + 5;
    // sad_u16(0x0001_0010, 0x0003_0001, 5) = 15 + 2 + 5 = 22; sad_u32(1, 4, 5) = 8;
    // msad_u8 skips bytes where src1 is 0: (0x01020304, 0x04000201) = 3 + 1 + 3 + 5 = 12.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_sad_u8 v10, v1, v2, 5\nv_sad_hi_u8 v11, v1, v2, 5\nv_sad_u16 v12, v3, v4, 5\nv_sad_u32 v13, 1, 4, 5\nv_msad_u8 v14, v1, v5, 5",
        |w| {
            w.v[1] = splat(0x0102_0304);
            w.v[2] = splat(0x0403_0201);
            w.v[3] = splat(0x0001_0010);
            w.v[4] = splat(0x0003_0001);
            w.v[5] = splat(0x0400_0201);
        },
    );
    check(&w, 10, &[13]);
    check(&w, 11, &[(8 << 16) + 5]);
    check(&w, 12, &[22]);
    check(&w, 13, &[8]);
    check(&w, 14, &[12]);
    // The accumulation wraps, or saturates with clamp: 0xffffffff + |0 - 1| -> 0 or max.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_sad_u32 v10, 0, 1, v1\nv_sad_u32 v11, 0, 1, v1 clamp",
        |w| {
            w.v[1] = splat(u32::MAX);
        },
    );
    check(&w, 10, &[0]);
    check(&w, 11, &[u32::MAX]);
}

#[test]
fn quad_sads_slide_a_window_over_src0() {
    // src0 bytes (low first) 10 20 30 40 50 60 70 80; src1 bytes 10 20 30 40.
    // Windows at 0..3: [10 20 30 40] -> 0; [20 30 40 50] -> 40; [30 40 50 60] -> 80;
    // [40 50 60 70] -> 120. Accumulators (src2 words) 1, 2, 3, 4.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_qsad_pk_u16_u8 v[10:11], v[0:1], v2, v[4:5]\nv_mqsad_pk_u16_u8 v[12:13], v[0:1], v3, v[4:5]",
        |w| {
            lanes64(w, 0, &[0x5046_3c32_281e_140a]);
            w.v[2] = splat(0x281e_140a);
            // mqsad: a zero reference byte is skipped: src1 = 10 0 30 40 drops byte 1.
            w.v[3] = splat(0x281e_000a);
            lanes64(w, 4, &[0x0004_0003_0002_0001]);
        },
    );
    check64(&w, 10, &[(124u64 << 48) | (83 << 32) | (42 << 16) | 1]);
    // Masked: window n minus its byte-1 term |src0 byte n+1 - 20|: 0, 40 - 10, 80 - 20,
    // 120 - 30 = 0 30 60 90, plus 1 2 3 4.
    check64(&w, 12, &[(94u64 << 48) | (63 << 32) | (32 << 16) | 1]);
    // v_mqsad_u32_u8 accumulates into four dwords.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_mqsad_u32_u8 v[10:13], v[0:1], v3, v[4:7]",
        |w| {
            lanes64(w, 0, &[0x5046_3c32_281e_140a]);
            w.v[3] = splat(0x281e_000a);
            for k in 0..4 {
                w.v[4 + k] = splat(1000 * (k as u32 + 1));
            }
        },
    );
    for (k, want) in [1000, 2030, 3060, 4090].into_iter().enumerate() {
        check(&w, 10 + k, &[want]);
    }
}

#[test]
fn lerp_and_mullit_follow_their_pseudo_code() {
    // lerp_u8 per byte (a + b + (c & 1)) >> 1: bytes (2,4,1) -> 3; (1,3,1) -> 2;
    // (255,255,0) -> 255; (0,0,0) -> 0.
    let w = go("gfx900", ALL_KEEP, "v_lerp_u8 v10, v1, v2, v3", |w| {
        w.v[1] = splat(0x00ff_0102);
        w.v[2] = splat(0x00ff_0304);
        w.v[3] = splat(0x0000_0101);
    });
    check(&w, 10, &[0x00ff_0203]);
    // mullit (gfx6): src2 > 0 -> legacy product (0 * inf = 0, 2 * 3 = 6); otherwise -MAX.
    let w = go("gfx600", F32_FLUSH, "v_mullit_f32 v10, v1, v2, v3", |w| {
        lanes(w, 1, &[0, bits(2.0), bits(2.0)]);
        lanes(w, 2, &[0x7f80_0000, bits(3.0), bits(3.0)]);
        lanes(w, 3, &[bits(1.0), bits(1.0), bits(-1.0)]);
    });
    check(&w, 10, &[0, bits(6.0), 0xff7f_ffff]);
}

// ----------------------------------------------------------------------------------------
// FP8 (gfx940).

#[test]
fn fp8_and_bf8_convert_with_the_fnuz_encodings() {
    // FP8 E4M3 bias 8: 0x38 = 2^(7-8) = 0.5; 0x7f = 1.875 * 2^7 = 240 (the largest);
    // 0x01 = 1/8 * 2^-7 = 2^-10 (smallest denormal); 0x80 = NaN. BF8 E5M2 bias 16:
    // 0x3c = 2^(15-16) = 0.5; 0x7f = 1.75 * 2^15 = 57344.
    let w = go(
        "gfx940",
        ALL_KEEP,
        "v_cvt_f32_fp8 v10, v1\nv_cvt_f32_bf8 v11, v2\nv_cvt_f32_fp8_sdwa v12, v3 src0_sel:BYTE_1",
        |w| {
            lanes(w, 1, &[0x38, 0x7f, 0x01, 0x80, 0xb8]);
            lanes(w, 2, &[0x3c, 0x7f, 0x01, 0x80, 0xbc]);
            w.v[3] = splat(0x3800);
        },
    );
    check(
        &w,
        10,
        &[
            bits(0.5),
            bits(240.0),
            bits(2f32.powi(-10)),
            0xffc0_0000,
            bits(-0.5),
        ],
    );
    check(
        &w,
        11,
        &[
            bits(0.5),
            bits(57344.0),
            bits(2f32.powi(-17)),
            0xffc0_0000,
            bits(-0.5),
        ],
    );
    check(&w, 12, &[bits(0.5)]);
    // f32 -> fp8 pairs into word 1 (op_sel[3]), word 0 kept: (0.5, -0.5) -> 0x38, 0xb8;
    // 300 is past 240 (and past the rounding midpoint 248) -> NaN 0x80; -0 -> 0x00 (no
    // negative zero); 0.3 lies between 0x31 = 1.125 * 2^-2 = 0.28125 and 0x32 = 1.25 * 2^-2 =
    // 0.3125, nearer the latter.
    let w = go(
        "gfx940",
        ALL_KEEP,
        "v_cvt_pk_fp8_f32 v10, v1, v2 op_sel:[0,0,1]",
        |w| {
            lanes(w, 1, &[bits(0.5), bits(300.0)]);
            lanes(w, 2, &[bits(-0.5), bits(0.3)]);
            w.v[10] = splat(0x1234_5678);
        },
    );
    check(&w, 10, &[0xb838_5678, 0x3280_5678]);
    // Stochastic rounding: 0.3 = 0.28125 + 0.6 ulp; all-zero random bits truncate (0x31),
    // all-one bits carry (0x32). Byte 3 (op_sel[3:2] = 3).
    let w = go(
        "gfx940",
        ALL_KEEP,
        "v_cvt_sr_fp8_f32 v10, v1, v2 op_sel:[0,0,1,1]",
        |w| {
            w.v[1] = splat(bits(0.3));
            lanes(w, 2, &[0, u32::MAX]);
            w.v[10] = splat(0x0011_2233);
        },
    );
    check(&w, 10, &[0x3111_2233, 0x3211_2233]);
}

// ----------------------------------------------------------------------------------------
// Coverage: every floating-point row of the VALU tables has semantics on every generation
// where it exists.

#[test]
fn every_float_row_of_the_valu_tables_is_emulated() {
    use gcnkit_isa::{Encoding, Gen, INSTRUCTIONS};
    let mut missing = Vec::new();
    for def in INSTRUCTIONS.iter() {
        let valu = matches!(
            def.encoding,
            Encoding::Vop1 | Encoding::Vop2 | Encoding::Vop3
        );
        let mix = def.encoding == Encoding::Vop3p && def.mnemonic.contains("_mix");
        let float = def.operands.iter().any(|o| o.ty.is_float());
        // Interpolation rows are graphics-only; v_pk_* and the dot products (v_dot*c too)
        // belong to the packed family (vop_packed.rs).
        if !(valu && float || mix)
            || def.mnemonic.starts_with("v_interp")
            || def.mnemonic.starts_with("v_pk_")
            || def.mnemonic.starts_with("v_dot")
        {
            continue;
        }
        for gen in Gen::ALL {
            if def.opcode(gen).is_none() {
                continue;
            }
            let inst = gcnkit_isa::Instruction {
                id: INSTRUCTIONS
                    .iter()
                    .position(|d| std::ptr::eq(d, def))
                    .unwrap() as u16,
                gen,
                encoding: def.encoding,
                form: gcnkit_isa::Form::Native,
                bits: 0,
                ext: None,
                len: 4,
            };
            let mut op = crate::program::blank_op(inst, 0);
            let target = gcnkit_isa::Target::parse("gfx900", None).unwrap();
            let ctx = crate::program::BuildContext { target: &target };
            if super::select(&inst, &mut op, &ctx).is_none() {
                missing.push(format!("{} ({})", def.mnemonic, gen.name()));
            }
        }
    }
    assert!(missing.is_empty(), "not emulated: {missing:?}");
}

// ----------------------------------------------------------------------------------------
// Forms and modifiers around the core operations.

#[test]
fn sdwa_and_exec_shape_sixteen_bit_results() {
    // SDWA: src0 from WORD_1 of v1 (1.0), src1 from WORD_0 of v2 (2.0); 3.0 (0x4200) goes to
    // WORD_1 of v10 with the low word preserved.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_add_f16_sdwa v10, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0",
        |w| {
            w.v[1] = splat(0x3c00_7777);
            w.v[2] = splat(0x8888_4000);
            w.v[10] = splat(0x1111_2222);
        },
    );
    check(&w, 10, &[0x4200_2222]);
    // Lanes outside EXEC keep all 32 bits, also for results that keep the high half.
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_add_f16 v10, v1, v1\nv_fma_f16 v11, v1, v1, 0",
        |w| {
            w.set_exec(0b01);
            w.v[1] = splat(0x3c00);
            w.v[10] = splat(0xaaaa_bbbb);
            w.v[11] = splat(0xcccc_dddd);
        },
    );
    check(&w, 10, &[0x4000, 0xaaaa_bbbb]);
    check(&w, 11, &[0xcccc_3c00, 0xcccc_dddd]);
}

#[test]
fn f16_arithmetic_uses_the_f16_rounding_field() {
    // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: nearest gives 1 + 2^-9 (0x3c02); toward +inf
    // (MODE[3:2] = 1) 0x3c03; the f32 field (MODE[1:0] = 1) does not affect f16.
    let src = "v_mul_f16 v10, v1, v1";
    let setup = |w: &mut Wave| w.v[1] = splat(0x3c01);
    check(&go("gfx900", ALL_KEEP | 1, src, setup), 10, &[0x3c02]);
    check(&go("gfx900", ALL_KEEP | 1 << 2, src, setup), 10, &[0x3c03]);
}

#[test]
fn omod_and_clamp_on_f64_and_f16_results() {
    // f64: 1.5 + 1.5 = 3, mul:2 -> 6 with IEEE off and f64 output denormals flushed
    // (MODE[7:6] = 0); ignored when they are kept (the gfx6-8 default).
    let src = "v_add_f64 v[10:11], v[0:1], v[0:1] mul:2";
    let setup = |w: &mut Wave| lanes64(w, 0, &[1.5f64.to_bits()]);
    check64(&go("gfx803", DX10, src, setup), 10, &[6f64.to_bits()]);
    check64(
        &go("gfx803", F32_FLUSH & !IEEE, src, setup),
        10,
        &[3f64.to_bits()],
    );
    // f16 mixlo clamp: 2 * 3 - 4.5 = 1.5 -> 1.0 (0x3c00), high half kept.
    let w = go(
        "gfx906",
        ALL_KEEP,
        "v_fma_mixlo_f16 v10, v1, v2, v3 op_sel_hi:[1,1,1] clamp",
        |w| {
            w.v[1] = splat(0x4000);
            w.v[2] = splat(0x4200);
            w.v[3] = splat(0xc480); // -4.5
            w.v[10] = splat(0x5555_0000);
        },
    );
    check(&w, 10, &[0x5555_3c00]);
}

#[test]
fn f64_and_f16_transcendentals_keep_denormal_inputs() {
    // rcp_f64(2^-1074) = 2^1074 overflows to inf; sqrt_f64(2^-1074) = 2^-537 exactly
    // (0x1e60000000000000: exponent 1023 - 537 = 486 = 0x1e6).
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_rcp_f64 v[10:11], v[0:1]\nv_sqrt_f64 v[12:13], v[0:1]",
        |w| {
            lanes64(w, 0, &[1]);
        },
    );
    check64(&w, 10, &[0x7ff0_0000_0000_0000]);
    check64(&w, 12, &[0x1e60_0000_0000_0000]);
    // f16 invalid inputs give the f16 default NaN 0xfe00: rsq(-1), log(-1), sqrt(-4).
    let w = go(
        "gfx803",
        F32_FLUSH,
        "v_rsq_f16 v10, v1\nv_log_f16 v11, v1\nv_sqrt_f16 v12, v2",
        |w| {
            w.v[1] = splat(0xbc00);
            w.v[2] = splat(0xc400);
        },
    );
    check(&w, 10, &[0xfe00]);
    check(&w, 11, &[0xfe00]);
    check(&w, 12, &[0xfe00]);
}

#[test]
fn trig_preop_rescales_huge_inputs_and_runs_out_of_table() {
    // src0 = 2^1000: exponent field 2023 >= 1968, so the window starts 2023 - 1077 = 946
    // bits in and the result is scaled up by 2^128: seg(946) * 2^(-53 - 946 + 128). The
    // precision notes give 0x1.516ba93dd63f5p-819 for it. Segment 31 of infinity starts at
    // bit 53*31 + 2047 - 1077 = 2613, past the 1201-bit table: +0.
    let t = two_over_pi_words(40);
    let seg946 = (0..53u32).fold(0u64, |acc, i| {
        let b = 946 + i;
        acc << 1 | ((t[(b / 32) as usize] >> (31 - b % 32)) & 1) as u64
    });
    let w = go(
        "gfx900",
        ALL_KEEP,
        "v_trig_preop_f64 v[10:11], v[0:1], v2",
        |w| {
            lanes64(w, 0, &[2f64.powi(1000).to_bits(), f64::INFINITY.to_bits()]);
            lanes(w, 2, &[0, 31]);
        },
    );
    let want = seg946 as f64 * 2f64.powi(-871);
    check64(&w, 10, &[want.to_bits(), 0]);
    // 2^-819 has the biased exponent 1023 - 819 = 204 = 0xcc.
    assert_eq!(want, f64::from_bits(0x0cc5_16ba_93dd_63f5));
}

#[test]
fn packed_fp8_to_f32_fills_a_register_pair() {
    // WORD_1 of v1 holds bytes 0x38 (0.5) and 0xb8 (-0.5); the low word 0x3c38 holds 0.5 and
    // 0x3c = 1.100 * 2^(7-8) = 0.75.
    let w = go(
        "gfx940",
        ALL_KEEP,
        "v_cvt_pk_f32_fp8_sdwa v[10:11], v1 src0_sel:WORD_1\nv_cvt_pk_f32_fp8 v[12:13], v1",
        |w| w.v[1] = splat(0xb838_3c38),
    );
    check(&w, 10, &[bits(0.5)]);
    check(&w, 11, &[bits(-0.5)]);
    check(&w, 12, &[bits(0.5)]);
    check(&w, 13, &[bits(0.75)]);
}

#[test]
fn directed_rounding_of_instructions_matches_an_independent_reference() {
    // v_mul_f32 and v_add_f32 under each FP_ROUND. The product of two f32 is exact in f64,
    // and so is the sum of two f32 whose exponents are within 29 of each other; the host
    // rounds that exact value to nearest, and the directed result is that or its neighbour
    // on the mode's side of the exact value (nextafter by one bit pattern).
    let mut rng = Rng(0x51_7cc1_b727_220a);
    let next = |x: f32, up: bool| -> f32 {
        if x.is_nan() {
            return x;
        }
        if x.is_infinite() {
            // One step from an infinity toward zero is the largest finite value.
            return if (x > 0.0) == up {
                x
            } else {
                f32::MAX.copysign(x)
            };
        }
        let b = x.to_bits();
        let r = if x == 0.0 {
            if up {
                1
            } else {
                0x8000_0001
            }
        } else if (x > 0.0) == up {
            b + 1
        } else {
            b - 1
        };
        f32::from_bits(r)
    };
    let reference = |exact: f64, rm: u32| -> u32 {
        let r = exact as f32;
        let r = match rm {
            1 if (r as f64) < exact => next(r, true),
            2 if (r as f64) > exact => next(r, false),
            3 if (r as f64).abs() > exact.abs() => next(r, exact < 0.0),
            _ => r,
        };
        r.to_bits()
    };
    for rm in 0..4u32 {
        for _ in 0..4 {
            let a: Vec<u32> = (0..64).map(|_| div_operand32(&mut rng)).collect();
            let b: Vec<u32> = (0..64)
                .map(|l| {
                    // Keep the exponents close for the add (|ea - eb| <= 29).
                    let ea = (a[l] >> 23) & 0xff;
                    let eb = (ea as i64 + (rng.next() % 59) as i64 - 29).clamp(1, 254) as u32;
                    (div_operand32(&mut rng) & 0x807f_ffff) | eb << 23
                })
                .collect();
            let w = go(
                "gfx900",
                ALL_KEEP | rm,
                "v_mul_f32 v10, v1, v2\nv_add_f32 v11, v1, v2",
                |w| {
                    lanes(w, 1, &a);
                    lanes(w, 2, &b);
                },
            );
            for l in 0..64 {
                let (x, y) = (f32::from_bits(a[l]) as f64, f32::from_bits(b[l]) as f64);
                assert_eq!(w.v[10][l], reference(x * y, rm), "rm {rm}: {x:e} * {y:e}");
                if (a[l] >> 23) & 0xff != 0 {
                    assert_eq!(w.v[11][l], reference(x + y, rm), "rm {rm}: {x:e} + {y:e}");
                }
            }
        }
    }
}
