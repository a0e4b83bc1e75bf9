//! Cube-map coordinates, v_mullit, and the byte helpers v_lerp_u8 and the SAD family.

use super::soft::F32;
use super::*;

// ---------------------------------------------------------------------------------------
// Cube-map, byte and SAD helpers (VOP3).

/// Which coordinate is the major axis: 2 (z) if |z| is largest (ties to z, then y).
#[inline(always)]
fn cube_axis(x: f64, y: f64, z: f64) -> u8 {
    if z.abs() >= x.abs() && z.abs() >= y.abs() {
        2
    } else if y.abs() >= x.abs() {
        1
    } else {
        0
    }
}

/// v_cubeid/sc/tc/ma_f32 (AMD cube-map pseudo-code): `K` 0 id, 1 sc, 2 tc, 3 ma.
pub(super) fn cube<const K: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let b = read(w, op, env, 1, 32);
    let c = read(w, op, env, 2, 32);
    let xf = Fp::new(w.mode, F32);
    let r: [u64; LANES] = std::array::from_fn(|l| {
        let (sx, sy, sz) = (xf.inp(F32, a[l]), xf.inp(F32, b[l]), xf.inp(F32, c[l]));
        let (x, y, z) = (F32.to_f64(sx), F32.to_f64(sy), F32.to_f64(sz));
        let axis = cube_axis(x, y, z);
        let negf = |v: u64| fneg(F32, v);
        match (K, axis) {
            (0, 2) => (if z < 0.0 { 5.0f32 } else { 4.0 }).to_bits() as u64,
            (0, 1) => (if y < 0.0 { 3.0f32 } else { 2.0 }).to_bits() as u64,
            (0, _) => (if x < 0.0 { 1.0f32 } else { 0.0 }).to_bits() as u64,
            (1, 2) => {
                if z < 0.0 {
                    negf(sx)
                } else {
                    sx
                }
            }
            (1, 1) => sx,
            (1, _) => {
                if x < 0.0 {
                    sz
                } else {
                    negf(sz)
                }
            }
            (2, 2) => negf(sy),
            (2, 1) => {
                if y < 0.0 {
                    negf(sz)
                } else {
                    sz
                }
            }
            (2, _) => negf(sy),
            (_, 2) => fmul(F32, sz, 0x4000_0000, xf),
            (_, 1) => fmul(F32, sy, 0x4000_0000, xf),
            (_, _) => fmul(F32, sx, 0x4000_0000, xf),
        }
    });
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// v_mullit_f32 (gfx6/7): the legacy product of src0 and src1 when src2 > 0, else -MAX.
pub(super) fn mullit(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = read(w, op, env, 0, 32);
    let b = read(w, op, env, 1, 32);
    let c = read(w, op, env, 2, 32);
    let x = Fp::new(w.mode, F32);
    let r: [u64; LANES] = std::array::from_fn(|l| {
        if f32v(x.inp(F32, c[l])) > 0.0 {
            fmul_legacy(F32, a[l], b[l], x)
        } else {
            F32.max(true)
        }
    });
    put(w, op, &r, 32);
    Ok(Flow::Next)
}

/// v_lerp_u8: per byte `(a + b + (c & 1)) >> 1`.
pub(super) fn lerp_u8(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = src32(w, op, env, 2);
    let r: Lanes = std::array::from_fn(|l| {
        let mut d = 0;
        for i in 0..4 {
            let byte = |v: u32| (v >> (8 * i)) & 0xff;
            d |= ((byte(a[l]) + byte(b[l]) + (byte(c[l]) & 1)) >> 1) << (8 * i);
        }
        d
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// The sum of absolute byte differences of `a` and `b`, skipping the bytes where `b` is 0
/// when `masked` (the msad/mqsad reference-byte rule).
#[inline(always)]
fn sad_bytes(a: u32, b: u32, masked: bool) -> u64 {
    let mut s = 0u64;
    for i in 0..4 {
        let (x, y) = ((a >> (8 * i)) & 0xff, (b >> (8 * i)) & 0xff);
        if !masked || y != 0 {
            s += x.abs_diff(y) as u64;
        }
    }
    s
}

/// An unsigned accumulation, saturated to `max` under the clamp bit, wrapped otherwise.
#[inline(always)]
fn sat_add(acc: u64, v: u64, max: u64, clamp: bool) -> u64 {
    let s = acc + v;
    if clamp {
        s.min(max)
    } else {
        s & max
    }
}

/// v_sad_u8 (K 0), v_sad_hi_u8 (1), v_sad_u16 (2), v_sad_u32 (3), v_msad_u8 (4).
pub(super) fn sad<const K: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = src32(w, op, env, 2);
    let clamp = op.mods.clamp;
    let r: Lanes = std::array::from_fn(|l| {
        let (x, y) = (a[l], b[l]);
        let d = match K {
            0 => sad_bytes(x, y, false),
            1 => sad_bytes(x, y, false) << 16,
            2 => ((x & 0xffff).abs_diff(y & 0xffff) + (x >> 16).abs_diff(y >> 16)) as u64,
            3 => x.abs_diff(y) as u64,
            _ => sad_bytes(x, y, true),
        };
        sat_add(c[l] as u64, d, u32::MAX as u64, clamp) as u32
    });
    put_u32(w, op, &r);
    Ok(Flow::Next)
}

/// v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8: four (masked) byte SADs of the 4-byte windows of
/// the 64-bit src0 starting at bytes 0..3 against src1, each added to a 16-bit word of
/// src2, packed into 64 bits.
pub(super) fn qsad_pk<const MASKED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = src64(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = src64(w, op, env, 2);
    let clamp = op.mods.clamp;
    let r: Lanes64 = std::array::from_fn(|l| {
        let mut d = 0u64;
        for n in 0..4 {
            let win = (a[l] >> (8 * n)) as u32;
            let acc = (c[l] >> (16 * n)) & 0xffff;
            d |= sat_add(acc, sad_bytes(win, b[l], MASKED), 0xffff, clamp) << (16 * n);
        }
        d
    });
    write64(w, op, &r);
    Ok(Flow::Next)
}

/// Reads a 128-bit source as four dwords per lane (VGPRs or SGPRs; a constant fills the
/// first dword).
fn read128(w: &Wave, src: Src) -> [[u32; 4]; LANES] {
    std::array::from_fn(|l| {
        std::array::from_fn(|k| match src {
            Src::Vreg(r) => w.v[r as usize + k][l],
            Src::Sreg(i) => w.s.get(i as usize + k).copied().unwrap_or(0),
            Src::Imm(v) if k == 0 => v as u32,
            _ => 0,
        })
    })
}

/// v_mqsad_u32_u8: four masked byte SADs (as above) added to the four dwords of src2,
/// written to four VGPRs.
pub(super) fn mqsad_u32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src64(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = read128(w, op.src[2]);
    let clamp = op.mods.clamp;
    let mask = write_mask(w, op);
    let d = op.vdst as usize;
    for l in 0..LANES {
        if mask >> l & 1 == 0 {
            continue;
        }
        for (n, &acc) in c[l].iter().enumerate() {
            let win = (a[l] >> (8 * n)) as u32;
            let s = sat_add(
                acc as u64,
                sad_bytes(win, b[l], true),
                u32::MAX as u64,
                clamp,
            );
            w.v[d + n][l] = s as u32;
        }
    }
    Ok(Flow::Next)
}
