//! Conversions between the float formats and integers (precision notes §8), the packed and
//! normalised forms, and the gfx940 FP8/BF8 conversions.

use super::soft::{self, F16, F32, RDN, RNE, RTZ};
use super::*;

// ---------------------------------------------------------------------------------------
// Conversions (precision notes §8).

/// f32/f64 source to a saturated integer, truncating (`as` saturates and maps NaN to 0).
pub(super) fn cvt_to_int<const B: u8, const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let x = Fp::new(w.mode, f);
    if B == 16 {
        let r: [u16; LANES] = std::array::from_fn(|l| {
            let v = f.to_f64(x.inp(f, a[l]));
            if SIGNED {
                v as i16 as u16
            } else {
                v as u16
            }
        });
        put_u16(w, op, &r);
    } else {
        let r: Lanes = std::array::from_fn(|l| {
            let v = f.to_f64(x.inp(f, a[l]));
            if SIGNED {
                v as i32 as u32
            } else {
                v as u32
            }
        });
        put_u32(w, op, &r);
    }
    Ok(Flow::Next)
}

/// v_cvt_flr_i32_f32 (floor) and v_cvt_rpi_i32_f32 (floor of the f32 sum x + 0.5), then
/// saturated; NaN gives 0 (the AMD pseudo-code; CLRX's INT_MAX/MIN for NaN is not used).
pub(super) fn cvt_flr_rpi<const RPI: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let x = Fp::new(w.mode, F32);
    let r: Lanes = std::array::from_fn(|l| {
        let v = if RPI {
            fadd(F32, a[l], 0x3f00_0000, x)
        } else {
            x.inp(F32, a[l])
        };
        f32v(v).floor() as i32 as u32
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// Integer to float: `K` selects the source reading (0 i32, 1 u32, 2..=5 unsigned byte 0..3,
/// 6 i16, 7 u16, 8 the signed 4-bit offset form), `B` the destination width.
pub(super) fn cvt_from_int<const B: u8, const K: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let a16 = if K == 6 || K == 7 {
        src16(w, op, env, 0)
    } else {
        [0; LANES]
    };
    let f = fmt_of(B);
    let x = Fp::new(w.mode, f);
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let v = match K {
            0 => a[l] as i32 as f64,
            1 => a[l] as f64,
            2..=5 => ((a[l] >> (8 * (K as u32 - 2))) & 0xff) as f64,
            6 => a16[l] as i16 as f64,
            7 => a16[l] as f64,
            // v_cvt_off_f32_i4: the low nibble as a signed value, divided by 16.
            _ => ((a[l] << 28) as i32 >> 28) as f64 / 16.0,
        };
        fround(f, v, x)
    });
    put(w, op, &r, B);
    Ok(Flow::Next)
}

/// Float-to-float conversions: `S` source width, `D` destination width. The input is
/// flushed by the source format's MODE field; the result is rounded with the destination
/// format's mode (the f32 field for v_cvt_f32_f64; for v_cvt_f16_f32 the f16 field on gfx8+
/// and the f32 field on gfx6/7, where f16 denormal results are always kept — CLRX).
pub(super) fn cvt_float<const S: u8, const D: u8, const SI: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let (fs, fd) = (fmt_of(S), fmt_of(D));
    let a = read(w, op, env, 0, S);
    let xs = Fp::new(w.mode, fs);
    let xd = if SI {
        Fp {
            dout: true,
            ..Fp::new(w.mode, F32)
        }
    } else {
        Fp::new(w.mode, fd)
    };
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let v = fs.to_f64(xs.inp(fs, a[l]));
        if v.is_nan() {
            return fd.nan_from_f64(v);
        }
        xd.outp(fd, soft::from_f64(fd, v, xd.rm))
    });
    put(w, op, &r, D);
    Ok(Flow::Next)
}

/// The signed-normalised value of `v` (clamped to [-1, 1], times 32767, rounded to nearest
/// even) or the unsigned one ([0, 1] times 65535); NaN gives 0.
#[inline(always)]
fn norm16(v: f64, signed: bool) -> u16 {
    if v.is_nan() {
        return 0;
    }
    if signed {
        (v.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16
    } else {
        (v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
    }
}

/// v_cvt_norm_i16_f16 / v_cvt_norm_u16_f16 (gfx9+).
pub(super) fn cvt_norm16<const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 16);
    let x = Fp::new(w.mode, F16);
    let r: [u16; LANES] = std::array::from_fn(|l| norm16(F16.to_f64(x.inp(F16, a[l])), SIGNED));
    put_u16(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pknorm_{i16,u16}_{f32,f16}: two normalised values packed low/high.
pub(super) fn cvt_pknorm<const B: u8, const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let b = read(w, op, env, 1, B);
    let x = Fp::new(w.mode, f);
    let r: Lanes = std::array::from_fn(|l| {
        let lo = norm16(f.to_f64(x.inp(f, a[l])), SIGNED) as u32;
        let hi = norm16(f.to_f64(x.inp(f, b[l])), SIGNED) as u32;
        lo | hi << 16
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pkrtz_f16_f32: both f32 sources to f16 rounded toward zero whatever MODE says,
/// packed low/high; the output modifiers act on each half.
pub(super) fn cvt_pkrtz(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let b = read(w, op, env, 1, 32);
    let x32 = Fp::new(w.mode, F32);
    let x16 = Fp::new(w.mode, F16);
    let omod = effective_omod(op, x16);
    let half = |v: u64| {
        let v = F32.to_f64(x32.inp(F32, v));
        let h = x16.outp(F16, soft::from_f64(F16, v, RTZ));
        out_mods(F16, h, omod, op.mods.clamp, x16) as u32
    };
    let r: Lanes = std::array::from_fn(|l| half(a[l]) | half(b[l]) << 16);
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_pack_b32_f16 (gfx9+): two f16 sources (with op_sel and abs/neg) packed low/high.
pub(super) fn pack_b32_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src16(w, op, env, 0);
    let b = src16(w, op, env, 1);
    let r: Lanes = std::array::from_fn(|l| a[l] as u32 | (b[l] as u32) << 16);
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// The unsigned byte of an f32 for v_cvt_pk_u8_f32/v_cvt_pkaccum_u8_f32: rounded with the
/// mode, saturated to [0, 255], NaN 0.
#[inline(always)]
fn f32_to_u8(a: u64, x: Fp) -> u32 {
    let v = f32v(x.inp(F32, a)) as f64;
    if v.is_nan() {
        return 0;
    }
    let r = match x.rm & 3 {
        RNE => v.round_ties_even(),
        soft::RUP => v.ceil(),
        RDN => v.floor(),
        _ => v.trunc(),
    };
    r.clamp(0.0, 255.0) as u32
}

/// v_cvt_pk_u8_f32: the byte of src0 placed at byte src1[1:0] of src2.
pub(super) fn cvt_pk_u8_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let s = src32(w, op, env, 1);
    let c = src32(w, op, env, 2);
    let x = Fp::new(w.mode, F32);
    let r: Lanes = std::array::from_fn(|l| {
        let sh = 8 * (s[l] & 3);
        (c[l] & !(0xff << sh)) | f32_to_u8(a[l], x) << sh
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pkaccum_u8_f32: the byte of src0 placed at byte src1[1:0] of vdst.
pub(super) fn cvt_pkaccum_u8_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let s = src32(w, op, env, 1);
    let d = w.v[op.vdst as usize];
    let x = Fp::new(w.mode, F32);
    let r: Lanes = std::array::from_fn(|l| {
        let sh = 8 * (s[l] & 3);
        (d[l] & !(0xff << sh)) | f32_to_u8(a[l], x) << sh
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pk_u16_u32 / v_cvt_pk_i16_i32: two saturated 16-bit integers packed low/high.
pub(super) fn cvt_pk_int16<const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let sat = |v: u32| -> u32 {
        if SIGNED {
            (v as i32).clamp(i16::MIN as i32, i16::MAX as i32) as u16 as u32
        } else {
            v.min(0xffff)
        }
    };
    let r: Lanes = std::array::from_fn(|l| sat(a[l]) | sat(b[l]) << 16);
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------
// FP8/BF8 (gfx940): the MI300 "FNUZ" formats — E4M3 with exponent bias 8 and E5M2 with bias
// 16, no infinities and no negative zero; 0x80 is the only NaN.

/// The value of an FP8 (E4M3, bias 8) or BF8 (E5M2, bias 16) byte.
fn f8_to_f64(x: u8, bf8: bool) -> f64 {
    if x == 0x80 {
        return f64::NAN;
    }
    let (mbits, bias) = if bf8 { (2, 16) } else { (3, 8) };
    let e = ((x & 0x7f) >> mbits) as i32;
    let m = (x & ((1 << mbits) - 1)) as f64;
    let mag = if e == 0 {
        m * soft::pow2(1 - bias - mbits)
    } else {
        (1.0 + m / (1 << mbits) as f64) * soft::pow2(e - bias)
    };
    if x & 0x80 != 0 {
        -mag
    } else {
        mag
    }
}

/// An f32 value to FP8/BF8, rounded to nearest even, or stochastically when `rng` is given
/// (the dropped bits plus as many random bits carry into the kept ones). NaN, ±∞ and
/// results beyond the largest finite value give the NaN 0x80; zero results are +0 (the
/// format has no -0).
fn f64_to_f8(v: f64, bf8: bool, rng: Option<u32>) -> u8 {
    if !v.is_finite() {
        return 0x80;
    }
    if v == 0.0 {
        return 0;
    }
    let (mbits, bias) = if bf8 { (2i32, 16i32) } else { (3, 8) };
    let (neg, m, e) = soft::decompose(v);
    let lead = e + 63 - m.leading_zeros() as i32;
    // The weight of the last kept bit: mbits below the leading one, but never below the
    // denormal step 2^(1-bias-mbits).
    let q = (lead - mbits).max(1 - bias - mbits);
    let drop = q - e;
    let kept: u64 = if drop <= 0 {
        m << (-drop) as u32
    } else if drop > 64 {
        // Far below the smallest denormal: nearest rounds to 0; a random carry cannot reach.
        0
    } else {
        let d = drop as u32;
        let (k, rem) = if d == 64 {
            (0, m as u128)
        } else {
            (m >> d, (m & ((1u64 << d) - 1)) as u128)
        };
        let up = match rng {
            None => {
                let half = 1u128 << (d - 1);
                rem > half || (rem == half && k & 1 == 1)
            }
            Some(r) => {
                let (rem, width) = if d > 32 {
                    (rem >> (d - 32), 32)
                } else {
                    (rem, d)
                };
                rem + (r as u128 & ((1u128 << width) - 1)) >= 1u128 << width
            }
        };
        k + up as u64
    };
    if kept == 0 {
        return 0;
    }
    // A rounding carry can make kept 2^(mbits+1): one more exponent step.
    let (kept, q) = if kept >> (mbits + 1) != 0 {
        (kept >> 1, q + 1)
    } else {
        (kept, q)
    };
    let code = if kept >> mbits != 0 {
        let ef = q + mbits + bias;
        if ef >= 1 << (7 - mbits) {
            return 0x80;
        }
        (ef as u64) << mbits | (kept - (1 << mbits))
    } else {
        kept
    };
    code as u8 | if neg { 0x80 } else { 0 }
}

/// v_cvt_f32_fp8 / v_cvt_f32_bf8: the byte of src0 (an SDWA byte select, or op_sel[1:0] in
/// the VOP3 form) to f32.
pub(super) fn cvt_f32_f8<const BF8: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let sh = 8 * (op.mods.op_sel & 3) as u32;
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let v = f8_to_f64((a[l] >> sh) as u8, BF8);
        if v.is_nan() {
            F32.default_nan()
        } else {
            (v as f32).to_bits() as u64
        }
    });
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// v_cvt_pk_f32_fp8 / v_cvt_pk_f32_bf8: the two bytes of the low word of src0 (WORD_1 by
/// SDWA, or op_sel[0] in the VOP3 form) to two f32 in vdst, vdst+1.
pub(super) fn cvt_pk_f32_f8<const BF8: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let sh = 16 * (op.mods.op_sel & 1) as u32;
    let conv = |b: u32| {
        let v = f8_to_f64(b as u8, BF8);
        if v.is_nan() {
            F32.default_nan()
        } else {
            (v as f32).to_bits() as u64
        }
    };
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let h = a[l] >> sh;
        conv(h & 0xff) | conv((h >> 8) & 0xff) << 32
    });
    write64(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32: src0 and src1 to two bytes written to word
/// op_sel[3] of vdst, the other word kept.
pub(super) fn cvt_pk_f8_f32<const BF8: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let d = w.v[op.vdst as usize];
    let sh = if op.mods.op_sel & 8 != 0 { 16 } else { 0 };
    let r: Lanes = std::array::from_fn(|l| {
        let lo = f64_to_f8(f32::from_bits(a[l]) as f64, BF8, None) as u32;
        let hi = f64_to_f8(f32::from_bits(b[l]) as f64, BF8, None) as u32;
        (d[l] & !(0xffff << sh)) | (lo | hi << 8) << sh
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_cvt_sr_fp8_f32 / v_cvt_sr_bf8_f32: src0 stochastically rounded with the random bits
/// of src1, written to byte op_sel[3:2] of vdst, the other bytes kept.
pub(super) fn cvt_sr_f8_f32<const BF8: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let rnd = src32(w, op, env, 1);
    let d = w.v[op.vdst as usize];
    let sh = 8 * ((op.mods.op_sel >> 2) & 3) as u32;
    let r: Lanes = std::array::from_fn(|l| {
        let v = f64_to_f8(f32::from_bits(a[l]) as f64, BF8, Some(rnd[l])) as u32;
        (d[l] & !(0xff << sh)) | v << sh
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}
