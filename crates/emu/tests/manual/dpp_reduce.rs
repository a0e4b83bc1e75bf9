//! dpp_reduce.cl: wave scans and reductions with DPP on gfx8+ (`#if GCN_HAS_DPP`), with
//! readlane / ds_swizzle on gfx6/7.

use super::lanes::{self, ctrl, Lanes};
use super::{need, unknown_kernel, Args, Grid, Memory, Target, R};
use gcnkit_emu::launch::LaunchSpec;

pub fn run(l: &LaunchSpec, t: Target, mem: &mut Memory) -> R<()> {
    match l.kernel.as_str() {
        "block_scan_dpp" => block_scan_dpp(l, t, mem),
        "wave_max_abs" => wave_max_abs(l, t, mem),
        "wave_row_sum" => wave_row_sum(l, t, mem),
        _ => unknown_kernel(l),
    }
}

/// `wave_inclusive_scan_add` over one full wave.
///
/// gfx8+: seven steps `v += __builtin_amdgcn_update_dpp(0, v, ctrl, row_mask, bank_mask, 0)`,
/// each reading `v` as the previous step left it, so a lane whose source is out of its row or
/// which the masks disable adds the `old` operand, 0. (The kernel shifts the running sum by
/// 1, 2 and 3, so this is not a prefix sum; see the description's note.)
/// gfx6/7: a Kogge-Stone scan with readlane: for off = 1, 2, ..., 32, lane L adds lane
/// L - off's value from before the step (0 for L < off), a true inclusive prefix sum.
pub fn wave_scan(v: &Lanes<i32>, t: Target) -> R<Lanes<i32>> {
    let mut v = *v;
    if t.has_dpp() {
        let steps = [
            (ctrl::row_shr(1), 0xf, 0xf),
            (ctrl::row_shr(2), 0xf, 0xf),
            (ctrl::row_shr(3), 0xf, 0xf),
            (ctrl::row_shr(4), 0xf, 0xe),
            (ctrl::row_shr(8), 0xf, 0xc),
            (ctrl::ROW_BCAST15, 0xa, 0xf),
            (ctrl::ROW_BCAST31, 0xc, 0xf),
        ];
        for (c, row_mask, bank_mask) in steps {
            let d = lanes::update_dpp(
                &[Some(0); 64],
                &v.map(Some),
                c,
                row_mask,
                bank_mask,
                false,
                0,
            )?;
            for n in 0..64 {
                v[n] = v[n].wrapping_add(d[n].ok_or("DPP scan read an undefined lane")?);
            }
        }
    } else {
        let mut off = 1;
        while off < 64 {
            let before = v;
            for n in off..64 {
                v[n] = v[n].wrapping_add(lanes::readlane(&before, n - off));
            }
            off <<= 1;
        }
    }
    Ok(v)
}

/// `wave_reduce_max` over one full wave: the value lane 0 goes on with.
///
/// gfx8+: fmax with `mov_dpp` of quad_perm [1,0,3,2], [2,3,0,1], row_ror:4, row_ror:8 (all
/// lanes written, bound_ctrl 1), then row_bcast:15 (row_mask 0xa) and row_bcast:31 (row_mask
/// 0xc), whose disabled rows take the builtin's undefined `old` value, then readlane 63.
/// gfx6/7: fmax with ds_swizzle xor 1, 2, 4, 8, 16, then fmax of lanes 0 and 32.
pub fn wave_reduce_max(v: &Lanes<f32>, t: Target) -> R<f32> {
    if t.has_dpp() {
        let mut v: Lanes<Option<f32>> = v.map(Some);
        let steps = [
            (ctrl::quad_perm(1, 0, 3, 2), 0xf, 0xf, true),
            (ctrl::quad_perm(2, 3, 0, 1), 0xf, 0xf, true),
            (ctrl::row_ror(4), 0xf, 0xf, true),
            (ctrl::row_ror(8), 0xf, 0xf, true),
            (ctrl::ROW_BCAST15, 0xa, 0xf, false),
            (ctrl::ROW_BCAST31, 0xc, 0xf, false),
        ];
        for (c, row_mask, bank_mask, bound) in steps {
            let d = lanes::update_dpp(&[None; 64], &v, c, row_mask, bank_mask, bound, 0.0)?;
            for n in 0..64 {
                // fmax with an undefined operand is undefined.
                v[n] = match (v[n], d[n]) {
                    (Some(a), Some(b)) => Some(lanes::fmax(a, b)),
                    _ => None,
                };
            }
        }
        lanes::readlane(&v, 63)
            .ok_or_else(|| "wave max depends on an undefined DPP lane".to_string())
    } else {
        let mut v = *v;
        for m in [1, 2, 4, 8, 16] {
            let s = lanes::ds_swizzle(&v, lanes::swz_bitmask(0x1f, 0, m));
            for n in 0..64 {
                v[n] = lanes::fmax(v[n], s[n]);
            }
        }
        Ok(lanes::fmax(lanes::readlane(&v, 0), lanes::readlane(&v, 32)))
    }
}

fn block_scan_dpp(l: &LaunchSpec, t: Target, mem: &mut Memory) -> R<()> {
    let a = Args::new(l, 3)?;
    let global = 256 * Grid::of(l)?.whole_groups(&l.kernel, 256)?;
    let (in_name, out_name, tot_name) = (a.buffer(0)?, a.buffer(1)?, a.buffer(2)?);
    let input: Vec<i32> = mem.get(in_name)?;
    let mut out: Vec<i32> = mem.get(out_name)?;
    let mut tot: Vec<i32> = mem.get(tot_name)?;
    need(in_name, &input, global)?;
    need(out_name, &out, global)?;
    need(tot_name, &tot, global / 256)?;
    for g in 0..global / 256 {
        // LDS wave_tot[w] = lane 63 of wave w's scan; the lower waves' totals are added.
        let mut pre = 0i32;
        for w in 0..4 {
            let base = 256 * g + 64 * w;
            let v: Lanes<i32> = std::array::from_fn(|n| input[base + n]);
            let s = wave_scan(&v, t)?;
            for n in 0..64 {
                out[base + n] = s[n].wrapping_add(pre);
            }
            pre = pre.wrapping_add(s[63]);
        }
        tot[g] = out[256 * g + 255];
    }
    mem.put(out_name, &out)?;
    mem.put(tot_name, &tot)
}

fn wave_max_abs(l: &LaunchSpec, t: Target, mem: &mut Memory) -> R<()> {
    let a = Args::new(l, 3)?;
    let (global, _) = Grid::of(l)?.full_waves(&l.kernel)?;
    let (x_name, res_name, n) = (a.buffer(0)?, a.buffer(1)?, a.u32(2)? as usize);
    let x: Vec<f32> = mem.get(x_name)?;
    let mut res: Vec<f32> = mem.get(res_name)?;
    need(x_name, &x, n.min(global))?;
    need(res_name, &res, 1)?;
    for w in 0..global / 64 {
        let v: Lanes<f32> = std::array::from_fn(|lane| {
            let i = 64 * w + lane;
            if i < n {
                x[i].abs()
            } else {
                0.0
            }
        });
        // Lane 0's atomic_max on a float: fmax (a CAS loop or the native instruction); the
        // order of the waves does not change a maximum.
        res[0] = lanes::fmax(res[0], wave_reduce_max(&v, t)?);
    }
    mem.put(res_name, &res)
}

fn wave_row_sum(l: &LaunchSpec, t: Target, mem: &mut Memory) -> R<()> {
    let a = Args::new(l, 2)?;
    let (global, _) = Grid::of(l)?.full_waves(&l.kernel)?;
    let (x_name, sum_name) = (a.buffer(0)?, a.buffer(1)?);
    let x: Vec<f32> = mem.get(x_name)?;
    let mut rowsum: Vec<f32> = mem.get(sum_name)?;
    need(x_name, &x, global)?;
    need(sum_name, &rowsum, global / 64)?;
    for w in 0..global / 64 {
        let fixed: Lanes<i32> = std::array::from_fn(|n| {
            // (int)(x * 65536.0f): the product is exact (a power of two), then truncation.
            let p = x[64 * w + n] * 65536.0;
            p.trunc() as i32
        });
        if (0..64).any(|n| (x[64 * w + n] * 65536.0).abs() >= 2147483648.0) {
            return Err("(int) of a value outside the int range is undefined".into());
        }
        let s = wave_scan(&fixed, t)?;
        // Lane 63 (work-item 64w + 63) writes rowsum[(64w + 63) / 64]: the int converted to
        // float (round to nearest even) divided by 2^16 (exact).
        rowsum[w] = s[63] as f32 / 65536.0;
    }
    mem.put(sum_name, &rowsum)
}
