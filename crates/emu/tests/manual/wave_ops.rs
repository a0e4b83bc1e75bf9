//! wave_ops.cl: readlane/readfirstlane, ballot + mbcnt compaction, ds_bpermute/ds_permute
//! (GFX8+, an LDS path with the same result on gfx6/7), ds_append and a ballot vote.

use super::lanes::{self, Lanes};
use super::{need, unknown_kernel, Args, Grid, Memory, Target, R};
use gcnkit_emu::launch::LaunchSpec;

pub fn run(l: &LaunchSpec, t: Target, mem: &mut Memory) -> R<()> {
    match l.kernel.as_str() {
        "wave_compact" => wave_compact(l, mem),
        "broadcasts" => broadcasts(l, mem),
        "shuffle_transpose8" => shuffle_transpose8(l, t, mem),
        "append_consume" => append_consume(l, mem),
        "vote_fast_path" => vote_fast_path(l, mem),
        _ => unknown_kernel(l),
    }
}

fn wave<T: Copy>(v: &[T], w: usize) -> Lanes<T> {
    std::array::from_fn(|n| v[64 * w + n])
}

/// Each wave: keep = i < n && in[i] != 0; ballot, popcount, mbcnt rank; lane 0 takes a base
/// with one atomic_add; kept lanes store at base + rank. The waves' atomics may come in any
/// order (the description compares `out` as a multiset); the reference takes wave order.
fn wave_compact(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let (global, _) = Grid::of(l)?.full_waves(&l.kernel)?;
    let (inn, on, cn, n) = (
        args.buffer(0)?,
        args.buffer(1)?,
        args.buffer(2)?,
        args.u32(3)? as usize,
    );
    let input: Vec<i32> = mem.get(inn)?;
    let mut out: Vec<i32> = mem.get(on)?;
    let mut count: Vec<u32> = mem.get(cn)?;
    need(inn, &input, n.min(global))?;
    need(cn, &count, 1)?;
    for w in 0..global / 64 {
        let v: Lanes<i32> = std::array::from_fn(|lane| {
            let i = 64 * w + lane;
            if i < n {
                input[i]
            } else {
                0
            }
        });
        let keep: Lanes<bool> = std::array::from_fn(|lane| 64 * w + lane < n && v[lane] != 0);
        let mask = lanes::ballot(&[true; 64], &keep);
        let base = count[0];
        count[0] = count[0].wrapping_add(mask.count_ones());
        for lane in (0..64).filter(|&lane| keep[lane]) {
            let slot = base as usize + lanes::mbcnt(mask, lane) as usize;
            *out.get_mut(slot)
                .ok_or_else(|| format!("the kernel writes {on}[{slot}], outside the buffer"))? =
                v[lane];
        }
    }
    mem.put(on, &out)?;
    mem.put(cn, &count)
}

/// out = v - readfirstlane(v) + readlane(v, 17) + sum of readlane(v, k) for k = 0, 8, ..., 56.
fn broadcasts(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 2)?;
    let (global, _) = Grid::of(l)?.full_waves(&l.kernel)?;
    let (inn, on) = (args.buffer(0)?, args.buffer(1)?);
    let input: Vec<i32> = mem.get(inn)?;
    let mut out: Vec<i32> = mem.get(on)?;
    need(inn, &input, global)?;
    need(on, &out, global)?;
    for w in 0..global / 64 {
        let v = wave(&input, w);
        // Every lane is active, so the first active lane is lane 0.
        let first = lanes::readlane(&v, 0);
        let l17 = lanes::readlane(&v, 17);
        let uniform = (0..64)
            .step_by(8)
            .fold(0i32, |s, k| s.wrapping_add(lanes::readlane(&v, k)));
        for n in 0..64 {
            out[64 * w + n] = v[n]
                .wrapping_sub(first)
                .wrapping_add(l17)
                .wrapping_add(uniform);
        }
    }
    mem.put(on, &out)
}

/// gfx8+: out[i] = ds_bpermute(lane (c*8 + r) for lane r*8 + c), out[i + global] =
/// ds_permute to lane (lane + 1) % 64. gfx6/7: the LDS path, tmp[w + (l % 8) * 8 + l / 8] and
/// tmp[w + (l + 63) % 64], which moves the same values.
fn shuffle_transpose8(l: &LaunchSpec, t: Target, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 2)?;
    let (global, local) = Grid::of(l)?.full_waves(&l.kernel)?;
    let (inn, on) = (args.buffer(0)?, args.buffer(1)?);
    let input: Vec<i32> = mem.get(inn)?;
    let mut out: Vec<i32> = mem.get(on)?;
    need(inn, &input, global)?;
    need(on, &out, 2 * global)?;
    if !t.has_dpp() && local > 256 {
        return Err("the gfx6/7 path's LDS array holds 256 work-items".into());
    }
    for w in 0..global / 64 {
        let v = wave(&input, w);
        let (pulled, pushed): (Lanes<i32>, Lanes<i32>) = if t.has_dpp() {
            let src: Lanes<u32> =
                std::array::from_fn(|lane| (((lane % 8) * 8 + lane / 8) * 4) as u32);
            let dst: Lanes<u32> = std::array::from_fn(|lane| (((lane + 1) & 63) * 4) as u32);
            (lanes::ds_bpermute(&src, &v), lanes::ds_permute(&dst, &v, 0))
        } else {
            (
                std::array::from_fn(|l| v[(l % 8) * 8 + l / 8]),
                std::array::from_fn(|l| v[(l + 63) & 63]),
            )
        };
        for n in 0..64 {
            out[64 * w + n] = pulled[n];
            out[global + 64 * w + n] = pushed[n];
        }
    }
    mem.put(on, &out)
}

/// Per group of 256: lanes with x > 0.5 take a slot with ds_append on an LDS counter (which
/// returns the counter before the add and adds popcount(EXEC)) and store x there; then
/// kept[256g + s] = buf[s] for s < n and nkept[g] = n. The waves may append in any order
/// (kept is compared as a multiset); the reference takes wave order.
fn append_consume(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 3)?;
    let global = 256 * Grid::of(l)?.whole_groups(&l.kernel, 256)?;
    let (xn, kn, nn) = (args.buffer(0)?, args.buffer(1)?, args.buffer(2)?);
    let x: Vec<f32> = mem.get(xn)?;
    let mut kept: Vec<f32> = mem.get(kn)?;
    let mut nkept: Vec<u32> = mem.get(nn)?;
    need(xn, &x, global)?;
    need(kn, &kept, global)?;
    need(nn, &nkept, global / 256)?;
    for g in 0..global / 256 {
        let mut buf = Vec::new();
        for w in 0..4 {
            let v = wave(&x, 4 * g + w);
            let appending: Vec<usize> = (0..64).filter(|&n| v[n] > 0.5).collect();
            match appending.as_slice() {
                [] => {}
                [n] => buf.push(v[*n]),
                _ => {
                    // Every appending lane receives the same slot and they all store to it, so
                    // which value lands there is not defined by the source.
                    return Err(format!(
                        "wave {} of group {g} has {} lanes appending; the result is ambiguous",
                        w,
                        appending.len()
                    ));
                }
            }
        }
        for (s, v) in buf.iter().enumerate() {
            kept[256 * g + s] = *v;
        }
        nkept[g] = buf.len() as u32;
    }
    mem.put(kn, &kept)?;
    mem.put(nn, &nkept)
}

/// Ballot of x > thresh per wave: none -> y = x; all -> y = sqrt(x); otherwise per lane.
fn vote_fast_path(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 3)?;
    let (global, _) = Grid::of(l)?.full_waves(&l.kernel)?;
    let (xn, yn, thresh) = (args.buffer(0)?, args.buffer(1)?, args.f32(2)?);
    let x: Vec<f32> = mem.get(xn)?;
    let mut y: Vec<f32> = mem.get(yn)?;
    need(xn, &x, global)?;
    need(yn, &y, global)?;
    for w in 0..global / 64 {
        let v = wave(&x, w);
        let above: Lanes<bool> = v.map(|x| x > thresh);
        let m = lanes::ballot(&[true; 64], &above);
        for n in 0..64 {
            y[64 * w + n] = if m == 0 {
                v[n]
            } else if m == u64::MAX || above[n] {
                v[n].sqrt()
            } else {
                v[n] * 0.5
            };
        }
    }
    mem.put(yn, &y)
}
