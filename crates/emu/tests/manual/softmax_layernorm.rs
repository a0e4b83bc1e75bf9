//! softmax_layernorm.cl: rmsnorm_f16 (half loads and stores, float reduction).

use super::fp::{f2h, h2f, h_mul};
use super::{need, unknown_kernel, Args, Grid, Memory, Target, R};
use gcnkit_emu::launch::LaunchSpec;

pub fn run(l: &LaunchSpec, _t: Target, mem: &mut Memory) -> R<()> {
    match l.kernel.as_str() {
        "rmsnorm_f16" => rmsnorm_f16(l, mem),
        _ => unknown_kernel(l),
    }
}

const WG: usize = 256;

fn rmsnorm_f16(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let global = WG * Grid::of(l)?.whole_groups(&l.kernel, WG)?;
    let (xn, wn, yn, cols) = (
        args.buffer(0)?,
        args.buffer(1)?,
        args.buffer(2)?,
        args.i32(3)?.max(0) as usize,
    );
    let x: Vec<u16> = mem.get(xn)?;
    let w: Vec<u16> = mem.get(wn)?;
    let mut y: Vec<u16> = mem.get(yn)?;
    let rows = global / WG;
    need(xn, &x, rows * cols)?;
    need(wn, &w, cols)?;
    need(yn, &y, rows * cols)?;
    for g in 0..rows {
        let xr = &x[g * cols..(g + 1) * cols];
        // Per-lane fma chains over j = t, t + 256, ..., then block_reduce_sum's LDS tree.
        let mut red = [0f32; WG];
        for (t, r) in red.iter_mut().enumerate() {
            let mut ss = 0f32;
            let mut j = t;
            while j < cols {
                let v = h2f(xr[j]) as f32;
                ss = v.mul_add(v, ss);
                j += WG;
            }
            *r = ss;
        }
        let mut off = WG / 2;
        while off > 0 {
            for t in 0..off {
                red[t] += red[t + off];
            }
            off >>= 1;
        }
        // rsqrt(ss / cols + 1e-6f) correctly rounded at each step (the kernel's division and
        // v_rsq_f32 are within an ulp or two, which the tolerance allows for).
        let mean = red[0] / cols as f32;
        let r = (1.0 / ((mean + 1e-6f32) as f64).sqrt()) as f32;
        for j in 0..cols {
            // (half)((float)x * r) * w: a float product rounded to half, then a half product.
            let xh = f2h((h2f(xr[j]) as f32 * r) as f64);
            y[g * cols + j] = h_mul(xh, w[j]);
        }
    }
    mem.put(yn, &y)
}
