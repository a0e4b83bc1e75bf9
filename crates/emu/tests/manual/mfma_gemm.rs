//! mfma_gemm.cl (gfx908, gfx90a, gfx942): each kernel's wave is simulated lane by lane with
//! the kernel's own loads and stores, and the matrix instructions of `mfma.rs`.

use super::fp::{self, h2f};
use super::mfma::{mfma, Mods, Op};
use super::{unknown_kernel, Args, Grid, Memory, Target, R};
use gcnkit_emu::launch::LaunchSpec;

pub fn run(l: &LaunchSpec, t: Target, mem: &mut Memory) -> R<()> {
    if !t.has_mfma() {
        return Err(format!(
            "mfma_gemm.cl does not build for {} (no matrix cores)",
            t.name
        ));
    }
    let only = |targets: &[&str]| -> R<()> {
        if targets.contains(&t.name) {
            Ok(())
        } else {
            Err(format!("kernel {} is not built for {}", l.kernel, t.name))
        }
    };
    match l.kernel.as_str() {
        "sgemm_mfma_32x32x2" => sgemm_32x32x2(l, mem),
        "hgemm_mfma_16x16x16" => hgemm_16x16x16(l, mem),
        "batched_outer_32x32x1" => batched_outer(l, mem),
        "batched_4x4x1" => batched_4x4(l, mem),
        "mfma_16x16x1_bcast" => bcast_16x16x1(l, mem),
        "sgemm_mfma_16x16x4" => sgemm_16x16x4(l, mem),
        "igemm_mfma_16x16x16i8" => {
            only(&["gfx908", "gfx90a"])?;
            igemm(l, mem)
        }
        "dgemm_mfma_16x16x4" => {
            only(&["gfx90a", "gfx942"])?;
            dgemm(l, mem)
        }
        "cdna3_mfma" => {
            only(&["gfx942"])?;
            cdna3(l, mem)
        }
        _ => unknown_kernel(l),
    }
}

/// Element `i` of a buffer, or an error naming the out-of-range access.
fn at<T: Copy>(v: &[T], i: i64, name: &str) -> R<T> {
    usize::try_from(i)
        .ok()
        .and_then(|i| v.get(i).copied())
        .ok_or_else(|| {
            format!(
                "the kernel reads {name}[{i}], outside the buffer ({} elements)",
                v.len()
            )
        })
}

/// Stores `x` at element `i`, or an error naming the out-of-range access.
fn set<T>(v: &mut [T], i: i64, x: T, name: &str) -> R<()> {
    let len = v.len();
    let slot = usize::try_from(i).ok().and_then(|i| v.get_mut(i));
    match slot {
        Some(s) => {
            *s = x;
            Ok(())
        }
        None => Err(format!(
            "the kernel writes {name}[{i}], outside the buffer ({len} elements)"
        )),
    }
}

/// Work-groups of one wave (local size 64 in x, 1 elsewhere): yields (group x, group y).
fn wave_groups(l: &LaunchSpec) -> R<Vec<(i64, i64)>> {
    let g = Grid::of(l)?;
    if g.local != [64, 1, 1] || g.global[0] % 64 != 0 || g.global[2] != 1 {
        return Err("reqd_work_group_size is (64, 1, 1)".into());
    }
    let [gx, gy, _] = g.groups();
    Ok((0..gy)
        .flat_map(|y| (0..gx).map(move |x| (x as i64, y as i64)))
        .collect())
}

/// Float accumulator: each instruction's exact result rounded to float.
fn to_f32(v: f64) -> f64 {
    v as f32 as f64
}

/// Integer accumulator: wraps to int32.
fn to_i32(v: i64) -> i64 {
    v as i32 as i64
}

fn zeros<T: Default + Clone>(regs: usize) -> Vec<Vec<T>> {
    vec![vec![T::default(); regs]; 64]
}

fn sgemm_32x32x2(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 6)?;
    let (n, k_all) = (args.i32(1)? as i64, args.i32(2)? as i64);
    let (an, bn, cn) = (args.buffer(3)?, args.buffer(4)?, args.buffer(5)?);
    let (a, b): (Vec<f32>, Vec<f32>) = (mem.get(an)?, mem.get(bn)?);
    let mut c: Vec<f32> = mem.get(cn)?;
    for (gx, gy) in wave_groups(l)? {
        let (tm, tn) = (gy * 32, gx * 32);
        let mut acc = zeros::<f64>(16);
        let mut k = 0;
        while k < k_all {
            let mut av = Vec::new();
            let mut bv = Vec::new();
            for lane in 0..64i64 {
                let (r, kk) = (lane & 31, lane >> 5);
                av.push(vec![at(&a, (tm + r) * k_all + k + kk, an)? as f64]);
                bv.push(vec![at(&b, (k + kk) * n + tn + r, bn)? as f64]);
            }
            acc = mfma(Op::F32x32x32x2, Mods::default(), &av, &bv, &acc, to_f32)?;
            k += 2;
        }
        for lane in 0..64i64 {
            for i in 0..16i64 {
                let row = (i / 4) * 8 + (lane / 32) * 4 + (i & 3);
                set(
                    &mut c,
                    (tm + row) * n + tn + (lane & 31),
                    acc[lane as usize][i as usize] as f32,
                    cn,
                )?;
            }
        }
    }
    mem.put(cn, &c)
}

fn hgemm_16x16x16(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 7)?;
    let (n, k_all) = (args.i32(1)? as i64, args.i32(2)? as i64);
    let (an, bn, cn, alpha) = (
        args.buffer(3)?,
        args.buffer(4)?,
        args.buffer(5)?,
        args.f32(6)?,
    );
    let (a, b): (Vec<u16>, Vec<u16>) = (mem.get(an)?, mem.get(bn)?);
    let mut c: Vec<f32> = mem.get(cn)?;
    for (gx, gy) in wave_groups(l)? {
        let (tm, tn) = (gy * 16, gx * 16);
        let mut acc = zeros::<f64>(4);
        let mut k = 0;
        while k < k_all {
            // Bs[e / 16][e % 16] = B[(k + e / 16) * N + tn + e % 16] for e < 256.
            let mut bs = [[0u16; 16]; 16];
            for e in 0..256i64 {
                bs[(e / 16) as usize][(e % 16) as usize] =
                    at(&b, (k + e / 16) * n + tn + e % 16, bn)?;
            }
            let mut av = Vec::new();
            let mut bv = Vec::new();
            for lane in 0..64i64 {
                let (r, kq) = (lane & 15, (lane >> 4) * 4);
                let mut ai = Vec::new();
                let mut bi = Vec::new();
                for j in 0..4 {
                    ai.push(h2f(at(&a, (tm + r) * k_all + k + kq + j, an)?));
                    bi.push(h2f(bs[(kq + j) as usize][r as usize]));
                }
                av.push(ai);
                bv.push(bi);
            }
            acc = mfma(Op::F32x16x16x16F16, Mods::default(), &av, &bv, &acc, to_f32)?;
            k += 16;
        }
        for lane in 0..64i64 {
            for i in 0..4i64 {
                let v = alpha * acc[lane as usize][i as usize] as f32;
                set(
                    &mut c,
                    (tm + (lane >> 4) * 4 + i) * n + tn + (lane & 15),
                    v,
                    cn,
                )?;
            }
        }
    }
    mem.put(cn, &c)
}

fn batched_outer(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let k_all = args.i32(0)? as i64;
    let (an, bn, cn) = (args.buffer(1)?, args.buffer(2)?, args.buffer(3)?);
    let (a, b): (Vec<f32>, Vec<f32>) = (mem.get(an)?, mem.get(bn)?);
    let mut c: Vec<f32> = mem.get(cn)?;
    for (g, _) in wave_groups(l)? {
        let mut acc = zeros::<f64>(32);
        for k in 0..k_all {
            let mut av = Vec::new();
            let mut bv = Vec::new();
            for lane in 0..64i64 {
                let (batch, r) = (g * 2 + (lane >> 5), lane & 31);
                av.push(vec![at(&a, (batch * k_all + k) * 32 + r, an)? as f64]);
                bv.push(vec![at(&b, (batch * k_all + k) * 32 + r, bn)? as f64]);
            }
            acc = mfma(Op::F32x32x32x1, Mods::default(), &av, &bv, &acc, to_f32)?;
        }
        for lane in 0..64i64 {
            for i in 0..32i64 {
                set(
                    &mut c,
                    g * 2048 + i * 64 + lane,
                    acc[lane as usize][i as usize] as f32,
                    cn,
                )?;
            }
        }
    }
    mem.put(cn, &c)
}

fn batched_4x4(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let (an, bn, cn, k_all) = (
        args.buffer(0)?,
        args.buffer(1)?,
        args.buffer(2)?,
        args.i32(3)? as i64,
    );
    let (a, b): (Vec<f32>, Vec<f32>) = (mem.get(an)?, mem.get(bn)?);
    let mut c: Vec<f32> = mem.get(cn)?;
    for (g, _) in wave_groups(l)? {
        let mut acc = zeros::<f64>(4);
        for k in 0..k_all {
            let av: Vec<Vec<f64>> = (0..64)
                .map(|lane| at(&a, k * 64 + lane, an).map(|v| vec![v as f64]))
                .collect::<R<_>>()?;
            let bv: Vec<Vec<f64>> = (0..64)
                .map(|lane| at(&b, k * 64 + lane, bn).map(|v| vec![v as f64]))
                .collect::<R<_>>()?;
            acc = mfma(Op::F32x4x4x1, Mods::default(), &av, &bv, &acc, to_f32)?;
        }
        // c[get_global_id(0)] = (float4)(acc[0], acc[1], acc[2], acc[3]).
        for lane in 0..64i64 {
            for v in 0..4i64 {
                set(
                    &mut c,
                    4 * (g * 64 + lane) + v,
                    acc[lane as usize][v as usize] as f32,
                    cn,
                )?;
            }
        }
    }
    mem.put(cn, &c)
}

fn bcast_16x16x1(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 3)?;
    let (an, bn, cn) = (args.buffer(0)?, args.buffer(1)?, args.buffer(2)?);
    let (a, b): (Vec<f32>, Vec<f32>) = (mem.get(an)?, mem.get(bn)?);
    let mut c: Vec<f32> = mem.get(cn)?;
    for _ in wave_groups(l)? {
        let load = |v: &[f32], base: i64, name: &str| -> R<Vec<Vec<f64>>> {
            (0..64)
                .map(|lane| at(v, base + lane, name).map(|x| vec![x as f64]))
                .collect()
        };
        let acc = zeros::<f64>(16);
        let acc = mfma(
            Op::F32x16x16x1,
            Mods::default(),
            &load(&a, 0, an)?,
            &load(&b, 0, bn)?,
            &acc,
            to_f32,
        )?;
        let mods = Mods {
            cbsz: 2,
            abid: 1,
            blgp: 0,
        };
        let acc = mfma(
            Op::F32x16x16x1,
            mods,
            &load(&a, 64, an)?,
            &load(&b, 64, bn)?,
            &acc,
            to_f32,
        )?;
        for lane in 0..64i64 {
            for i in 0..16i64 {
                set(
                    &mut c,
                    i * 64 + lane,
                    acc[lane as usize][i as usize] as f32,
                    cn,
                )?;
            }
        }
    }
    mem.put(cn, &c)
}

fn sgemm_16x16x4(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let (k_all, an, bn, cn) = (
        args.i32(0)? as i64,
        args.buffer(1)?,
        args.buffer(2)?,
        args.buffer(3)?,
    );
    let (a, b): (Vec<f32>, Vec<f32>) = (mem.get(an)?, mem.get(bn)?);
    let mut c: Vec<f32> = mem.get(cn)?;
    for _ in wave_groups(l)? {
        let mut acc = zeros::<f64>(4);
        let mut k = 0;
        while k < k_all {
            for (off, blgp) in [(0, 0), (4, 1)] {
                let mut av = Vec::new();
                let mut bv = Vec::new();
                for lane in 0..64i64 {
                    av.push(vec![
                        at(&a, (lane & 15) * k_all + k + off + (lane >> 4), an)? as f64,
                    ]);
                    bv.push(vec![
                        at(&b, (k + off + (lane >> 4)) * 16 + (lane & 15), bn)? as f64,
                    ]);
                }
                acc = mfma(
                    Op::F32x16x16x4,
                    Mods {
                        blgp,
                        ..Mods::default()
                    },
                    &av,
                    &bv,
                    &acc,
                    to_f32,
                )?;
            }
            k += 8;
        }
        for lane in 0..64i64 {
            for i in 0..4i64 {
                set(
                    &mut c,
                    ((lane >> 4) * 4 + i) * 16 + (lane & 15),
                    acc[lane as usize][i as usize] as f32,
                    cn,
                )?;
            }
        }
    }
    mem.put(cn, &c)
}

/// The four signed bytes of a word, byte 0 (bits 7:0) first.
fn bytes4(w: i32) -> Vec<i64> {
    w.to_le_bytes().iter().map(|&b| b as i8 as i64).collect()
}

fn igemm(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 4)?;
    let (k_all, an, bn, cn) = (
        args.i32(0)? as i64,
        args.buffer(1)?,
        args.buffer(2)?,
        args.buffer(3)?,
    );
    let (a, b): (Vec<i32>, Vec<i32>) = (mem.get(an)?, mem.get(bn)?);
    let mut c: Vec<i32> = mem.get(cn)?;
    for _ in wave_groups(l)? {
        let mut acc = zeros::<i64>(4);
        for k in 0..k_all / 16 {
            let av: Vec<Vec<i64>> = (0..64)
                .map(|lane| at(&a, k * 64 + lane, an).map(bytes4))
                .collect::<R<_>>()?;
            let bv: Vec<Vec<i64>> = (0..64)
                .map(|lane| at(&b, k * 64 + lane, bn).map(bytes4))
                .collect::<R<_>>()?;
            acc = mfma(Op::I32x16x16x16I8, Mods::default(), &av, &bv, &acc, to_i32)?;
        }
        for lane in 0..64i64 {
            for i in 0..4i64 {
                set(
                    &mut c,
                    ((lane >> 4) * 4 + i) * 16 + (lane & 15),
                    acc[lane as usize][i as usize] as i32,
                    cn,
                )?;
            }
        }
    }
    mem.put(cn, &c)
}

fn dgemm(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 6)?;
    let (n, k_all) = (args.i32(1)? as i64, args.i32(2)? as i64);
    let (an, bn, cn) = (args.buffer(3)?, args.buffer(4)?, args.buffer(5)?);
    let (a, b): (Vec<f64>, Vec<f64>) = (mem.get(an)?, mem.get(bn)?);
    let mut c: Vec<f64> = mem.get(cn)?;
    for (gx, gy) in wave_groups(l)? {
        let (tm, tn) = (gy * 16, gx * 16);
        let mut acc = zeros::<f64>(4);
        let mut k = 0;
        while k < k_all {
            let mut av = Vec::new();
            let mut bv = Vec::new();
            for lane in 0..64i64 {
                let (r, kk) = (lane & 15, lane >> 4);
                av.push(vec![at(&a, (tm + r) * k_all + k + kk, an)?]);
                bv.push(vec![at(&b, (k + kk) * n + tn + r, bn)?]);
            }
            acc = mfma(Op::F64x16x16x4, Mods::default(), &av, &bv, &acc, |v| v)?;
            k += 4;
        }
        // The kernel stores accumulator i of lane l at row 4 * (l / 16) + i, the f32 layout's
        // row; the f64 instruction holds row 4i + l/16 there.
        for lane in 0..64i64 {
            for i in 0..4i64 {
                set(
                    &mut c,
                    (tm + (lane >> 4) * 4 + i) * n + tn + (lane & 15),
                    acc[lane as usize][i as usize],
                    cn,
                )?;
            }
        }
    }
    mem.put(cn, &c)
}

fn cdna3(l: &LaunchSpec, mem: &mut Memory) -> R<()> {
    let args = Args::new(l, 7)?;
    let names: Vec<&str> = (0..7).map(|i| args.buffer(i)).collect::<R<_>>()?;
    let xa: Vec<f32> = mem.get(names[0])?;
    let xb: Vec<f32> = mem.get(names[1])?;
    let ia: Vec<i8> = mem.get(names[2])?;
    let ib: Vec<i8> = mem.get(names[3])?;
    let mut out_f: Vec<f32> = mem.get(names[4])?;
    let mut out_i: Vec<i32> = mem.get(names[5])?;
    let mut out_f8: Vec<f32> = mem.get(names[6])?;
    for _ in wave_groups(l)? {
        // xf32 keeps 10 explicit mantissa bits; the reference takes inputs that it holds
        // exactly (how xf32 rounds others is not modelled).
        let xf = |v: &[f32], lane: i64, name: &str| -> R<Vec<f64>> {
            let pair = [at(v, 2 * lane, name)?, at(v, 2 * lane + 1, name)?];
            if pair.iter().any(|x| x.to_bits() & 0x1fff != 0) {
                return Err(format!(
                    "{name}[{lane}] is not exact in xf32; its rounding is not modelled"
                ));
            }
            Ok(pair.iter().map(|&x| x as f64).collect())
        };
        let xav: Vec<Vec<f64>> = (0..64)
            .map(|lane| xf(&xa, lane, names[0]))
            .collect::<R<_>>()?;
        let xbv: Vec<Vec<f64>> = (0..64)
            .map(|lane| xf(&xb, lane, names[1]))
            .collect::<R<_>>()?;
        let f = mfma(
            Op::F32x16x16x8Xf32,
            Mods::default(),
            &xav,
            &xbv,
            &zeros(4),
            to_f32,
        )?;
        // The eight bytes of the lane's long, byte 0 first.
        let bytes = |v: &[i8], lane: i64, name: &str| -> R<Vec<i8>> {
            (0..8).map(|c| at(v, 8 * lane + c, name)).collect()
        };
        let mut iav = Vec::new();
        let mut ibv = Vec::new();
        let mut fav = Vec::new();
        let mut fbv = Vec::new();
        for lane in 0..64i64 {
            let (x, y) = (bytes(&ia, lane, names[2])?, bytes(&ib, lane, names[3])?);
            iav.push(x.iter().map(|&b| b as i64).collect::<Vec<_>>());
            ibv.push(y.iter().map(|&b| b as i64).collect::<Vec<_>>());
            // fp8 values in fixed point (units of 2^-10), so products are units of 2^-20.
            let fp8 = |b: i8| {
                fp::fp8_e4m3fnuz_fixed(b as u8)
                    .ok_or("an fp8 NaN input is not modelled".to_string())
            };
            fav.push(x.iter().map(|&b| fp8(b)).collect::<R<Vec<_>>>()?);
            fbv.push(y.iter().map(|&b| fp8(b)).collect::<R<Vec<_>>>()?);
        }
        let i = mfma(
            Op::I32x16x16x32I8,
            Mods::default(),
            &iav,
            &ibv,
            &zeros(4),
            to_i32,
        )?;
        // fp8: the 32 exact products summed exactly (integers in units of 2^-20, far from
        // overflow), then rounded once to float; the matrix core's own rounding of the sum
        // stays within the description's tolerance.
        let q = mfma(
            Op::F32x16x16x32Fp8,
            Mods::default(),
            &fav,
            &fbv,
            &zeros(4),
            |v| v,
        )?;
        for lane in 0..64usize {
            for r in 0..4usize {
                let at4 = (4 * lane + r) as i64;
                set(&mut out_f, at4, f[lane][r] as f32, names[4])?;
                set(&mut out_i, at4, i[lane][r] as i32, names[5])?;
                let qf =
                    f32::from_bits(fp::round_fixed(fp::SINGLE, q[lane][r] as i128, -20) as u32);
                set(&mut out_f8, at4, qf, names[6])?;
            }
        }
    }
    mem.put(names[4], &out_f)?;
    mem.put(names[5], &out_i)?;
    mem.put(names[6], &out_f8)
}
