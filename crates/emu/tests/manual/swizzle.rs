//! swizzle.cl: ds_swizzle_b32 in quad and bit-mask modes.

use super::lanes::{self, swz_bitmask, swz_quad, Lanes};
use super::{need, unknown_kernel, Args, Grid, Memory, Target, R};
use gcnkit_emu::launch::LaunchSpec;

pub fn run(l: &LaunchSpec, _t: Target, mem: &mut Memory) -> R<()> {
    match l.kernel.as_str() {
        "butterfly_sum32" => butterfly_sum32(l, mem),
        "quad_ops" => quad_ops(l, mem),
        "group8_broadcast" => group8_broadcast(l, mem),
        _ => unknown_kernel(l),
    }
}

fn wave<T: Copy>(v: &[T], w: usize) -> Lanes<T> {
    std::array::from_fn(|n| v[64 * w + n])
}

fn butterfly_sum32(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 2)?;
    let (global, _) = Grid::of(l)?.full_waves(&l.kernel)?;
    let (xn, sn) = (args.buffer(0)?, args.buffer(1)?);
    let x: Vec<f32> = mem.get(xn)?;
    let mut sums: Vec<f32> = mem.get(sn)?;
    need(xn, &x, global)?;
    need(sn, &sums, global / 32)?;
    for w in 0..global / 64 {
        let mut v = wave(&x, w);
        for m in [1, 2, 4, 8, 16] {
            let other = lanes::ds_swizzle(&v, swz_bitmask(0x1f, 0, m));
            for n in 0..64 {
                v[n] += other[n];
            }
        }
        // Lanes 0 and 32 write sums[i / 32].
        sums[2 * w] = v[0];
        sums[2 * w + 1] = v[32];
    }
    mem.put(sn, &sums)
}

fn quad_ops(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 2)?;
    let (global, _) = Grid::of(l)?.full_waves(&l.kernel)?;
    let (xn, on) = (args.buffer(0)?, args.buffer(1)?);
    let x: Vec<i32> = mem.get(xn)?;
    let mut out: Vec<i32> = mem.get(on)?;
    need(xn, &x, global)?;
    need(on, &out, 4 * global)?;
    for w in 0..global / 64 {
        let v = wave(&x, w);
        let rev = lanes::ds_swizzle(&v, swz_quad(3, 2, 1, 0));
        let bc0 = lanes::ds_swizzle(&v, swz_quad(0, 0, 0, 0));
        let rot = lanes::ds_swizzle(&v, swz_quad(1, 2, 3, 0));
        let rev32 = lanes::ds_swizzle(&v, swz_bitmask(0x1f, 0, 0x1f));
        for n in 0..64 {
            let i = 64 * w + n;
            out[4 * i..4 * i + 4].copy_from_slice(&[rev[n], bc0[n], rot[n], rev32[n]]);
        }
    }
    mem.put(on, &out)
}

fn group8_broadcast(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 2)?;
    let (global, _) = Grid::of(l)?.full_waves(&l.kernel)?;
    let (xn, dn) = (args.buffer(0)?, args.buffer(1)?);
    let x: Vec<f32> = mem.get(xn)?;
    let mut d: Vec<f32> = mem.get(dn)?;
    need(xn, &x, global)?;
    need(dn, &d, global)?;
    for w in 0..global / 64 {
        let v = wave(&x, w);
        let head = lanes::ds_swizzle(&v, swz_bitmask(0x18, 0, 0));
        let next = lanes::ds_swizzle(&v, swz_quad(1, 2, 3, 3));
        for n in 0..64 {
            d[64 * w + n] = (v[n] - head[n]) + (next[n] - v[n]);
        }
    }
    mem.put(dn, &d)
}
