//! intrinsics_misc.cl: single-lane hardware instructions reached through builtins. The
//! operations are written from the GCN/Vega ISA pseudo-code of each opcode (as the CLRX
//! instruction pages reproduce it: GcnInstrsVop1/Vop3/Vopc), with IEEE results where the
//! manuals give an approximation bound (rcp, rsq, sqrt) and the descriptions' tolerances
//! accepting the bound.

use super::fp::{self, SINGLE};
use super::{need, unknown_kernel, Args, Grid, Memory, Target, R};
use gcnkit_emu::launch::LaunchSpec;

pub fn run(l: &LaunchSpec, t: Target, mem: &mut Memory) -> R<()> {
    match l.kernel.as_str() {
        "med3_fract_class" => med3_fract_class(l, mem),
        "int_intrinsics" => int_intrinsics(l, mem),
        "cube_coords" => cube_coords(l, mem),
        "timed_work" => timed_work(l, mem),
        "div_building_blocks" => div_building_blocks(l, mem),
        "dot_products" => dot_products(l, t, mem),
        _ => unknown_kernel(l),
    }
}

/// V_MED3_F32: with a NaN operand the minimum of the other two, else the median.
pub fn med3(a: f32, b: f32, c: f32) -> f32 {
    let min = |x: f32, y: f32| {
        if x.is_nan() {
            y
        } else if y.is_nan() {
            x
        } else if y < x {
            y
        } else {
            x
        }
    };
    if a.is_nan() {
        min(b, c)
    } else if b.is_nan() {
        min(a, c)
    } else if c.is_nan() {
        min(a, b)
    } else if (c > b && c < a) || (c < b && c > a) {
        c
    } else if (b > c && b < a) || (b < c && b > a) {
        b
    } else {
        a
    }
}

/// V_FRACT_F32: x - floor(x) in one IEEE subtraction, kept below 1 by a minimum with
/// 0x1.fffffep-1 (the OpenCL fract definition, which LLVM's constant folding of
/// llvm.amdgcn.fract follows: without it fract(-1e-10) would round to 1.0); NaN for NaN and
/// infinities.
pub fn fract(x: f32) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    (x - x.floor()).min(f32::from_bits(0x3f7f_ffff))
}

/// V_FREXP_MANT_F32 and V_FREXP_EXP_I32_F32 for a finite, normal or zero x: x = mant * 2^exp
/// with |mant| in [0.5, 1) (0 and exponent 0 for zeros).
fn frexp(x: f32) -> (f32, i32) {
    if x == 0.0 {
        return (x, 0);
    }
    let bits = x.to_bits();
    let e = ((bits >> 23) & 0xff) as i32;
    assert!(e != 0, "denormal inputs are outside these references");
    (
        f32::from_bits((bits & !(0xff << 23)) | (126 << 23)),
        e - 126,
    )
}

fn med3_fract_class(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 3)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (xn, yn, cn) = (args.buffer(0)?, args.buffer(1)?, args.buffer(2)?);
    let x: Vec<f32> = mem.get(xn)?;
    let mut y: Vec<f32> = mem.get(yn)?;
    let mut cls: Vec<i32> = mem.get(cn)?;
    need(xn, &x, global)?;
    need(yn, &y, global)?;
    need(cn, &cls, global)?;
    for i in 0..global {
        let v = x[i];
        if v != 0.0 && v.is_finite() && v.abs() < f32::MIN_POSITIVE {
            return Err(format!(
                "x[{i}] = {v:e} is denormal: its result depends on the target's denormal mode"
            ));
        }
        let m = med3(v, -1.0, 1.0);
        let fr = fract(v);
        // ldexp(frexp_mant(v), frexp_exp(v) - 1) is v / 2 exactly for finite v; for an
        // infinity or NaN, fract is NaN and so is y, whatever frexp returns (GCN 1.0 returns
        // -NaN and -1, later chips v and 0).
        let scaled = if v.is_finite() {
            let (mant, e) = frexp(v);
            mant * 2f32.powi(e - 1)
        } else {
            f32::NAN
        };
        y[i] = (m + fr) + scaled;
        // V_CMP_CLASS_F32 mask bits: 0 signaling NaN, 1 quiet NaN, 2 -inf, ..., 9 +inf.
        cls[i] = if v.is_nan() {
            -1
        } else if v.is_infinite() {
            1
        } else {
            0
        };
    }
    mem.put(yn, &y)?;
    mem.put(cn, &cls)
}

/// V_ALIGNBIT_B32 (s & 31 bits) and V_ALIGNBYTE_B32 (8 * (s & 3) bits): the low 32 bits of
/// ((u64)a << 32 | b) shifted right.
fn align(a: u32, b: u32, bits: u32) -> u32 {
    ((((a as u64) << 32) | b as u64) >> bits) as u32
}

/// V_BFE_U32 / V_BFE_I32: `width` bits of x from bit `off` (both & 31), zero or sign extended.
fn bfe(x: u32, off: u32, width: u32, signed: bool) -> u32 {
    let (off, width) = (off & 31, width & 31);
    if width == 0 {
        return 0;
    }
    if off + width < 32 {
        let up = x << (32 - off - width);
        if signed {
            ((up as i32) >> (32 - width)) as u32
        } else {
            up >> (32 - width)
        }
    } else if signed {
        ((x as i32) >> off) as u32
    } else {
        x >> off
    }
}

/// V_LERP_U8: per byte (a_b + b_b + bit 0 of c_b) >> 1.
fn lerp_u8(a: u32, b: u32, c: u32) -> u32 {
    (0..4).fold(0, |acc, k| {
        let byte = |v: u32| (v >> (8 * k)) & 0xff;
        acc | (((byte(a) + byte(b) + (byte(c) & 1)) >> 1) << (8 * k))
    })
}

/// V_MSAD_U8: c plus |a_b - b_b| over the bytes where b (the reference) is non-zero.
fn msad_u8(a: u32, b: u32, c: u32) -> u32 {
    (0..4).fold(c, |acc, k| {
        let (x, y) = ((a >> (8 * k)) & 0xff, (b >> (8 * k)) & 0xff);
        if y != 0 {
            acc.wrapping_add(x.abs_diff(y))
        } else {
            acc
        }
    })
}

fn int_intrinsics(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 3)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (an, bn, on) = (args.buffer(0)?, args.buffer(1)?, args.buffer(2)?);
    let a: Vec<u32> = mem.get(an)?;
    let b: Vec<u32> = mem.get(bn)?;
    let mut out: Vec<u32> = mem.get(on)?;
    need(an, &a, global)?;
    need(bn, &b, global)?;
    need(on, &out, 4 * global)?;
    for i in 0..global {
        let (x, y) = (a[i], b[i]);
        out[4 * i] = align(x, y, y & 31);
        out[4 * i + 1] = bfe(x, 8, 12, false);
        out[4 * i + 2] = bfe(x, y & 15, 9, true);
        out[4 * i + 3] = lerp_u8(x, y, 0x0101_0101)
            .wrapping_add(msad_u8(x, y, 7))
            .wrapping_add(align(x, y, 8 * (2 & 3)));
    }
    mem.put(on, &out)
}

/// V_CUBEID/CUBESC/CUBETC/CUBEMA_F32: (face, sc, tc, ma). z is the major axis when |z| >= |x|
/// and |z| >= |y|, else y when |y| >= |x|, else x.
pub fn cube(x: f32, y: f32, z: f32) -> (f32, f32, f32, f32) {
    if z.abs() >= x.abs() && z.abs() >= y.abs() {
        let neg = z < 0.0;
        (
            if neg { 5.0 } else { 4.0 },
            if neg { -x } else { x },
            -y,
            2.0 * z,
        )
    } else if y.abs() >= x.abs() {
        let neg = y < 0.0;
        (
            if neg { 3.0 } else { 2.0 },
            x,
            if neg { -z } else { z },
            2.0 * y,
        )
    } else {
        let neg = x < 0.0;
        (
            if neg { 1.0 } else { 0.0 },
            if neg { z } else { -z },
            -y,
            2.0 * x,
        )
    }
}

fn cube_coords(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 2)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (dn, tn) = (args.buffer(0)?, args.buffer(1)?);
    let dirs: Vec<f32> = mem.get(dn)?;
    let mut tc: Vec<f32> = mem.get(tn)?;
    need(dn, &dirs, 4 * global)?;
    need(tn, &tc, 4 * global)?;
    for i in 0..global {
        let (x, y, z) = (dirs[4 * i], dirs[4 * i + 1], dirs[4 * i + 2]);
        let (face, sc, t, ma) = cube(x, y, z);
        // sc * (1 / |ma|) * 0.5 + 0.5 in exact arithmetic, rounded once: the kernel's
        // approximate reciprocal and possibly fused multiply-add stay within the tolerance.
        let coord = |s: f32| ((s as f64 / (ma as f64).abs()) * 0.5 + 0.5) as f32;
        tc[4 * i..4 * i + 4].copy_from_slice(&[coord(sc), coord(t), face, ma]);
    }
    mem.put(tn, &tc)
}

fn timed_work(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 3)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (xn, yn, cn) = (args.buffer(0)?, args.buffer(1)?, args.buffer(2)?);
    let x: Vec<f32> = mem.get(xn)?;
    let mut y: Vec<f32> = mem.get(yn)?;
    let cycles: Vec<u64> = mem.get(cn)?;
    need(xn, &x, global)?;
    need(yn, &y, global)?;
    need(cn, &cycles, global.div_ceil(64))?;
    for i in 0..global {
        let mut v = x[i];
        for _ in 0..16 {
            v = v.mul_add(1.0001, 0.5);
        }
        y[i] = v;
    }
    // cycles[w] holds timer differences, which no reference can predict; the description's
    // tolerance accepts any value, so the initial contents stand in for them.
    mem.put(yn, &y)
}

fn div_building_blocks(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (an, bn, qn, dqn) = (
        args.buffer(0)?,
        args.buffer(1)?,
        args.buffer(2)?,
        args.buffer(3)?,
    );
    let a: Vec<f32> = mem.get(an)?;
    let b: Vec<f32> = mem.get(bn)?;
    let mut q: Vec<f32> = mem.get(qn)?;
    let mut dq: Vec<f64> = mem.get(dqn)?;
    for (name, len) in [(an, a.len()), (bn, b.len()), (qn, q.len()), (dqn, dq.len())] {
        if len < global {
            return Err(format!(
                "buffer {name} has {len} elements, the kernel uses {global}"
            ));
        }
    }
    for i in 0..global {
        let (x, y) = (a[i], b[i]);
        if x < 0.0 || y < 0.0 || x.is_nan() || y.is_nan() {
            return Err(format!(
                "the reference assumes non-negative inputs (a[{i}] = {x}, b[{i}] = {y})"
            ));
        }
        // r = rcp(y) refined by one Newton step is 1/y to about an ulp; for y = 0, rcp is
        // +inf, fma(-0, inf, 1) is NaN and so is q. rsq(|x| + 1) takes the float sum.
        q[i] = if y == 0.0 {
            f32::NAN
        } else {
            let s = (x.abs() + 1.0) as f64;
            (x as f64 / y as f64 + 1.0 / s.sqrt() + (y as f64).sqrt()) as f32
        };
        // rcp_f64(y) * rsq_f64(|x| + 1), exactly: +inf for y = 0.
        dq[i] = if y == 0.0 {
            f64::INFINITY
        } else {
            (1.0 / y as f64) * (1.0 / (x.abs() as f64 + 1.0).sqrt())
        };
    }
    mem.put(qn, &q)?;
    mem.put(dqn, &dq)
}

fn dot_products(l: &LaunchSpec, t: Target, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (an, bn, iname, fname) = (
        args.buffer(0)?,
        args.buffer(1)?,
        args.buffer(2)?,
        args.buffer(3)?,
    );
    let a: Vec<u32> = mem.get(an)?;
    let b: Vec<u32> = mem.get(bn)?;
    let mut idot: Vec<i32> = mem.get(iname)?;
    let mut fdot: Vec<f32> = mem.get(fname)?;
    need(an, &a, global)?;
    need(bn, &b, global)?;
    need(iname, &idot, global)?;
    need(fname, &fdot, global)?;
    let sbyte = |v: u32, k: u32| ((v >> (8 * k)) as u8 as i8) as i64;
    let ubyte = |v: u32, k: u32| ((v >> (8 * k)) & 0xff) as i64;
    let sshort = |v: u32, k: u32| ((v >> (16 * k)) as u16 as i16) as i64;
    // Signed 4-bit nibble k: shift it to the top, then arithmetic shift back.
    let snib = |v: u32, k: u32| (((v << (28 - 4 * k)) as i32) >> 28) as i64;
    for i in 0..global {
        let (x, y) = (a[i], b[i]);
        let sdot4: i64 = (0..4).map(|k| sbyte(x, k) * sbyte(y, k)).sum();
        let (hx0, hx1, hy0, hy1) = (x as u16, (x >> 16) as u16, y as u16, (y >> 16) as u16);
        if t.has_dot_insts() {
            // V_DOT4_I32_I8, V_DOT4_U32_U8, V_DOT2_I32_I16 with accumulator 0 and no clamp
            // (results wrap to 32 bits); V_DOT8_I32_I4 with accumulator 1 and clamp
            // (saturated to int32); the four added with int32 wrap-around.
            let udot4: i64 = (0..4).map(|k| ubyte(x, k) * ubyte(y, k)).sum();
            let sdot2: i64 = (0..2).map(|k| sshort(x, k) * sshort(y, k)).sum();
            let sdot8: i64 = 1 + (0..8).map(|k| snib(x, k) * snib(y, k)).sum::<i64>();
            let sdot8 = sdot8.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
            idot[i] = (sdot4 as i32)
                .wrapping_add(udot4 as u32 as i32)
                .wrapping_add(sdot2 as i32)
                .wrapping_add(sdot8);
            // V_DOT2_F32_F16(x, y, 1.0): the two half products (exact) plus 1.0; the exact
            // sum rounded once (the instruction's internal rounding is within tolerance).
            fdot[i] = dot2_exact(hx0, hy0, hx1, hy1);
        } else {
            idot[i] = sdot4 as i32;
            // (float)hx.x * (float)hy.x + (float)hx.y * (float)hy.y + 1.0f: the half products
            // are exact in float, so fused or not, the sum of the products is rounded once
            // and then 1.0 is added.
            let p0 = fp::h2f(hx0) as f32 * fp::h2f(hy0) as f32;
            let p1 = fp::h2f(hx1) as f32 * fp::h2f(hy1) as f32;
            fdot[i] = (p0 + p1) + 1.0;
        }
    }
    mem.put(iname, &idot)?;
    mem.put(fname, &fdot)
}

/// a0*b0 + a1*b1 + 1 for halves, rounded once to float.
fn dot2_exact(a0: u16, b0: u16, a1: u16, b1: u16) -> f32 {
    let fixed = |h: u16| match fp::decode(fp::HALF, h as u64) {
        fp::Value::Finite { neg, mant, exp } => {
            let v = (mant as i128) << (exp + 24);
            Some(if neg { -v } else { v })
        }
        _ => None,
    };
    match (fixed(a0), fixed(b0), fixed(a1), fixed(b1)) {
        (Some(a0), Some(b0), Some(a1), Some(b1)) => {
            // Units of 2^-48; 1.0 is 2^48 of them.
            let s = a0 * b0 + a1 * b1 + (1i128 << 48);
            f32::from_bits(fp::round_fixed(SINGLE, s, -48) as u32)
        }
        // Infinities and NaNs: float64 arithmetic has the IEEE special cases.
        _ => (fp::h2f(a0) * fp::h2f(b0) + fp::h2f(a1) * fp::h2f(b1) + 1.0) as f32,
    }
}
