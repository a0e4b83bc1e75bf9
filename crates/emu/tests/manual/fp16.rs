//! fp16.cl: half arithmetic, half2, conversions and a mixed-precision GEMV. The references
//! evaluate every half operation as the OpenCL source writes it, each correctly rounded to
//! binary16 (IEEE 754 semantics of the half type); the descriptions' tolerances cover the
//! targets that fuse (v_fma_f16) or evaluate in float (gfx6/7).

use super::fp::{f2h, h2f, h_add, h_div, h_fma, h_max, h_mul, h_sub};
use super::{need, unknown_kernel, Args, Grid, Memory, Target, R};
use gcnkit_emu::launch::LaunchSpec;

pub fn run(l: &LaunchSpec, _t: Target, mem: &mut Memory) -> R<()> {
    match l.kernel.as_str() {
        "haxpy" => haxpy(l, mem),
        "half2_ops" => half2_ops(l, mem),
        "convert_f32_f16" => convert_f32_f16(l, mem),
        "half_int_conv" => half_int_conv(l, mem),
        "hgemv_mixed" => hgemv_mixed(l, mem),
        "gelu_f16" => gelu_f16(l, mem),
        _ => unknown_kernel(l),
    }
}

/// A float constant converted to half, as `(half)1.5f` in the source (one rounding).
fn hc(x: f32) -> u16 {
    f2h(x as f64)
}

/// half -> integer conversion truncating toward zero (OpenCL's default for float to integer),
/// defined only when the truncated value fits.
fn h_trunc(h: u16, lo: f64, hi: f64) -> R<i64> {
    let v = h2f(h).trunc();
    if !(v >= lo && v <= hi) {
        return Err(format!(
            "conversion of half {} to an integer type is out of range",
            h2f(h)
        ));
    }
    Ok(v as i64)
}

/// y[i] = fma(a, x[i], y[i]) for i < n.
fn haxpy(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (n, a, xn, yn) = (args.i32(0)?, args.f16(1)?, args.buffer(2)?, args.buffer(3)?);
    let x: Vec<u16> = mem.get(xn)?;
    let mut y: Vec<u16> = mem.get(yn)?;
    let count = (n.max(0) as usize).min(global);
    need(xn, &x, count)?;
    need(yn, &y, count)?;
    for i in 0..count {
        y[i] = h_fma(a, x[i], y[i]);
    }
    mem.put(yn, &y)
}

/// c[i] = x*y + (1, -0.5) (contracted: one fma per lane), d[i] = (fmax(x.x, y.y),
/// fabs(x.y - y.x)) for i < n.
fn half2_ops(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 5)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (an, bn, cn, dn, n) = (
        args.buffer(0)?,
        args.buffer(1)?,
        args.buffer(2)?,
        args.buffer(3)?,
        args.i32(4)?,
    );
    let a: Vec<u16> = mem.get(an)?;
    let b: Vec<u16> = mem.get(bn)?;
    let mut c: Vec<u16> = mem.get(cn)?;
    let mut d: Vec<u16> = mem.get(dn)?;
    let count = (n.max(0) as usize).min(global);
    for (name, v) in [(an, &a), (bn, &b), (cn, &c), (dn, &d)] {
        need(name, v, 2 * count)?;
    }
    for i in 0..count {
        let (xx, xy, yx, yy) = (a[2 * i], a[2 * i + 1], b[2 * i], b[2 * i + 1]);
        c[2 * i] = h_fma(xx, yx, hc(1.0));
        c[2 * i + 1] = h_fma(xy, yy, hc(-0.5));
        d[2 * i] = h_max(xx, yy);
        d[2 * i + 1] = h_sub(xy, yx) & 0x7fff;
    }
    mem.put(cn, &c)?;
    mem.put(dn, &d)
}

/// out[i] = (half)in[i]; roundtrip[i] = (float)out[i] - in[i], for i < n.
fn convert_f32_f16(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (inn, outn, rtn, n) = (
        args.buffer(0)?,
        args.buffer(1)?,
        args.buffer(2)?,
        args.i32(3)?,
    );
    let input: Vec<f32> = mem.get(inn)?;
    let mut out: Vec<u16> = mem.get(outn)?;
    let mut rt: Vec<f32> = mem.get(rtn)?;
    let count = (n.max(0) as usize).min(global);
    need(inn, &input, count)?;
    need(outn, &out, count)?;
    need(rtn, &rt, count)?;
    for i in 0..count {
        // float -> half: one rounding to nearest even (float64 holds every float exactly).
        let h = f2h(input[i] as f64);
        out[i] = h;
        // half -> float is exact; the subtraction is a float operation.
        rt[i] = h2f(h) as f32 - input[i];
    }
    mem.put(outn, &out)?;
    mem.put(rtn, &rt)
}

/// s, us, w, back for every work-item (no guard).
fn half_int_conv(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 5)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let names: Vec<&str> = (0..5).map(|i| args.buffer(i)).collect::<R<_>>()?;
    let h: Vec<u16> = mem.get(names[0])?;
    let mut s: Vec<i16> = mem.get(names[1])?;
    let mut us: Vec<u16> = mem.get(names[2])?;
    let mut w: Vec<i32> = mem.get(names[3])?;
    let mut back: Vec<u16> = mem.get(names[4])?;
    need(names[0], &h, global)?;
    need(names[1], &s, global)?;
    need(names[2], &us, global)?;
    need(names[3], &w, global)?;
    need(names[4], &back, global)?;
    for i in 0..global {
        let v = h[i];
        s[i] = h_trunc(v, -32768.0, 32767.0)? as i16;
        us[i] = h_trunc(v & 0x7fff, 0.0, 65535.0)? as u16;
        w[i] = h_trunc(h_mul(v, hc(16.0)), -2147483648.0, 2147483647.0)? as i32;
        // (half)s[i] + (half)(i & 255) + (half)us[i], left to right, each conversion and add
        // rounded to half.
        let hs = f2h(s[i] as f64);
        let hi = f2h((i & 255) as f64);
        let hu = f2h(us[i] as f64);
        back[i] = h_add(h_add(hs, hi), hu);
    }
    mem.put(names[1], &s)?;
    mem.put(names[2], &us)?;
    mem.put(names[3], &w)?;
    mem.put(names[4], &back)
}

/// One 64-item group per row: per-lane float fma chains over j = t, t + 64, ..., then an LDS
/// tree 32, 16, ..., 1; y[row] = part[0] for row < m.
fn hgemv_mixed(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 5)?;
    let global = 64 * Grid::of(l)?.whole_groups(&l.kernel, 64)?;
    let (an, xn, yn, m, n) = (
        args.buffer(0)?,
        args.buffer(1)?,
        args.buffer(2)?,
        args.i32(3)?,
        args.i32(4)?,
    );
    let a: Vec<u16> = mem.get(an)?;
    let x: Vec<u16> = mem.get(xn)?;
    let mut y: Vec<f32> = mem.get(yn)?;
    let (m, n) = (m.max(0) as usize, n.max(0) as usize);
    let groups = global / 64;
    need(xn, &x, n)?;
    need(an, &a, groups.min(m) * n)?;
    need(yn, &y, groups.min(m))?;
    for row in 0..groups.min(m) {
        let mut part = [0f32; 64];
        for (t, p) in part.iter_mut().enumerate() {
            let mut acc = 0f32;
            let mut j = t;
            while j < n {
                acc = (h2f(a[row * n + j]) as f32).mul_add(h2f(x[j]) as f32, acc);
                j += 64;
            }
            *p = acc;
        }
        let mut s = 32;
        while s > 0 {
            for t in 0..s {
                part[t] += part[t + s];
            }
            s >>= 1;
        }
        y[row] = part[0];
    }
    mem.put(yn, &y)
}

/// GELU with a rational tanh in half, in place, for i < n; every operation rounded to half in
/// the source's order.
fn gelu_f16(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 2)?;
    let (global, _) = Grid::of(l)?.one_d(&l.kernel)?;
    let (xn, n) = (args.buffer(0)?, args.i32(1)?);
    let mut x: Vec<u16> = mem.get(xn)?;
    let count = (n.max(0) as usize).min(global);
    need(xn, &x, count)?;
    // The source's float literals, then (half) of each.
    #[allow(clippy::excessive_precision)]
    let (c0, c1, c27, c9, one, half) = (
        hc(0.7978845608),
        hc(0.044715),
        hc(27.0),
        hc(9.0),
        hc(1.0),
        hc(0.5),
    );
    let minus_one = hc(-1.0);
    for xi in x.iter_mut().take(count) {
        let v = *xi;
        // u = c0 * (v + c1 * v * v * v)
        let cube = h_mul(h_mul(h_mul(c1, v), v), v);
        let u = h_mul(c0, h_add(v, cube));
        let u2 = h_mul(u, u);
        // t = u * (27 + u2) / (27 + 9 * u2)
        let t = h_div(h_mul(u, h_add(c27, u2)), h_add(c27, h_mul(c9, u2)));
        // t = t > 1 ? 1 : (t < -1 ? -1 : t)
        let tf = h2f(t);
        let t = if tf > 1.0 {
            one
        } else if tf < -1.0 {
            minus_one
        } else {
            t
        };
        // x = 0.5 * v * (1 + t)
        *xi = h_mul(h_mul(half, v), h_add(one, t));
    }
    mem.put(xn, &x)
}
