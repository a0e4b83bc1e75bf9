//! gemv_wave.cl: sgemv_n, one wave per row folded by two ds_swizzle steps and LDS.

use super::lanes::{self, Lanes};
use super::{need, unknown_kernel, Args, Grid, Memory, Target, R};
use gcnkit_emu::launch::LaunchSpec;

pub fn run(l: &LaunchSpec, _t: Target, mem: &mut Memory) -> R<()> {
    match l.kernel.as_str() {
        "sgemv_n" => sgemv_n(l, mem),
        _ => unknown_kernel(l),
    }
}

/// Work-group (64, 4): local y = w is one wave (64 lanes in x), row = 4 * group_x + w.
fn sgemv_n(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 8)?;
    let grid = Grid::of(l)?;
    if grid.local != [64, 4, 1] || grid.global[1] != 4 || grid.global[2] != 1 {
        return Err("reqd_work_group_size is (64, 4, 1) and the grid one group high".into());
    }
    let (m, n) = (args.i32(0)?.max(0) as usize, args.i32(1)?.max(0) as usize);
    let (an, lda, xn, yn) = (
        args.buffer(2)?,
        args.i32(3)? as usize,
        args.buffer(4)?,
        args.buffer(5)?,
    );
    let (alpha, beta) = (args.f32(6)?, args.f32(7)?);
    let a: Vec<f32> = mem.get(an)?;
    let x: Vec<f32> = mem.get(xn)?;
    let mut y: Vec<f32> = mem.get(yn)?;
    let rows = (grid.global[0] / 64 * 4).min(m);
    need(xn, &x, n)?;
    need(yn, &y, rows)?;
    if rows > 0 && n > 0 {
        need(an, &a, (rows - 1) * lda + n)?;
    }
    for row in 0..rows {
        let mut s: Lanes<f32> = [0.0; 64];
        for (lane, sl) in s.iter_mut().enumerate() {
            let mut j = lane;
            while j < n {
                *sl = a[row * lda + j].mul_add(x[j], *sl);
                j += 64;
            }
        }
        // s += swizzle(s, xor 16); s += swizzle(s, xor 8): each lane adds the neighbour's
        // value from before the step.
        for m in [16, 8] {
            let other = lanes::ds_swizzle(&s, lanes::swz_bitmask(0x1f, 0, m));
            for n in 0..64 {
                s[n] += other[n];
            }
        }
        let mut t = 0f32;
        for k in 0..8 {
            t += s[k] + s[32 + k];
        }
        // alpha * t + beta * y: gfx9+ fuse one of the products (v_fma_f32), gfx6-8 do not
        // (v_mac_f32); the exact value rounded once lies within the tolerance of both.
        y[row] = (alpha as f64 * t as f64 + beta as f64 * y[row] as f64) as f32;
    }
    mem.put(yn, &y)
}
