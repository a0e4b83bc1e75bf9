//! reduce_sum.cl: reduce_sum_f32, whose barrier-free tail is a full sum only in wave64
//! lock-step.

use super::{need, unknown_kernel, Args, Grid, Memory, Target, R};
use gcnkit_emu::launch::LaunchSpec;

pub fn run(l: &LaunchSpec, _t: Target, mem: &mut Memory) -> R<()> {
    match l.kernel.as_str() {
        "reduce_sum_f32" => reduce_sum_f32(l, mem),
        _ => unknown_kernel(l),
    }
}

const WG: usize = 256;

fn reduce_sum_f32(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 3)?;
    let global = WG * Grid::of(l)?.whole_groups(&l.kernel, WG)?;
    let (inn, pn, n) = (args.buffer(0)?, args.buffer(1)?, args.u32(2)? as usize);
    let input: Vec<f32> = mem.get(inn)?;
    let mut partial: Vec<f32> = mem.get(pn)?;
    let groups = global / WG;
    need(inn, &input, n)?;
    need(pn, &partial, groups)?;
    let stride = WG * 2 * groups;
    for g in 0..groups {
        let mut sdata = [0f32; WG];
        for (tid, s) in sdata.iter_mut().enumerate() {
            let mut i = g * WG * 2 + tid;
            let mut acc = 0f32;
            while i < n {
                acc += input[i];
                if i + WG < n {
                    acc += input[i + WG];
                }
                i += stride;
            }
            *s = acc;
        }
        // LDS tree with a barrier per level down to 64 live values.
        let mut s = WG / 2;
        while s > 32 {
            for tid in 0..s {
                sdata[tid] += sdata[tid + s];
            }
            s >>= 1;
        }
        // The volatile tail, lanes 0..31 of wave 0 in lock-step: each statement loads for
        // every lane before any lane stores.
        for off in [32, 16, 8, 4, 2, 1] {
            let before = sdata;
            for tid in 0..32 {
                sdata[tid] = before[tid] + before[tid + off];
            }
        }
        partial[g] = sdata[0];
    }
    mem.put(pn, &partial)
}
