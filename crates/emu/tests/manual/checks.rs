//! Plausibility checks of the references, each against something computed another way: a
//! DPP scan against a plain prefix sum, an MFMA wave against a naive matrix product, half
//! rounding against the edge values the descriptions list and against the `half` crate, and
//! each description's reference against the closed form its `reference_note` gives.

use std::path::Path;

use gcnkit_emu::launch::LaunchDescription;

use super::dpp_reduce::{wave_reduce_max, wave_scan};
use super::fp::{self, f2h, h2f, h_fma, SINGLE};
use super::intrinsics_misc::{cube, fract, med3};
use super::lanes::{self, ctrl, swz_bitmask, swz_quad, Lanes};
use super::mfma::{mfma, Mods, Op};
use super::{reference, Memory, Scalar, Target};

/// A small deterministic generator (xorshift64*), independent of the launch format's.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

fn target(name: &str) -> Target {
    Target::parse(name).unwrap()
}

/// A description of the repository with its initial buffers.
fn load(stem: &str, name: &str) -> (LaunchDescription, Memory) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../tests/launch/{stem}/{name}.json"));
    let desc = LaunchDescription::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut mem = Memory::default();
    for b in &desc.buffers {
        mem.bufs.insert(b.name.clone(), b.generate().unwrap());
    }
    (desc, mem)
}

/// The reference's final buffer `buf` for a description and target, as `T`.
fn run_ref<T: Scalar>(stem: &str, name: &str, t: &str, buf: &str) -> (Memory, Vec<T>) {
    let (desc, mem) = load(stem, name);
    let after = reference(stem, &desc, target(t), &mem)
        .unwrap_or_else(|e| panic!("{stem}/{name} {t}: {e}"));
    let v = after.get(buf).unwrap();
    (mem, v)
}

// ---- binary16 rounding -------------------------------------------------------------------

#[test]
fn half_rounding_edge_values() {
    // The edges listed in convert_f32_f16's reference_note.
    let cases: [(f64, u16); 13] = [
        (65504.0, 0x7bff),
        (65519.99609375, 0x7bff),
        (65520.0, 0x7c00),
        (-70000.0, 0xfc00),
        (2f64.powi(-24), 0x0001),
        (2f64.powi(-25), 0x0000),
        (0.75 * 2f64.powi(-24), 0x0001),
        (1.0 + 2f64.powi(-11), 0x3c00),
        (1.0 + 3.0 * 2f64.powi(-11), 0x3c02),
        (-0.0, 0x8000),
        (f64::INFINITY, 0x7c00),
        (6.103515625e-05, 0x0400),
        (1.5 * 2f64.powi(-25), 0x0001),
    ];
    for (x, want) in cases {
        assert_eq!(f2h(x), want, "half of {x:e}");
    }
    assert!(fp::h_is_nan(f2h(f64::NAN)));
    assert_eq!(h2f(0x7bff), 65504.0);
    assert_eq!(h2f(0x0001), 2f64.powi(-24));
    assert_eq!(h2f(0xc000), -2.0);
}

#[test]
fn float_to_half_agrees_with_the_half_crate() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for i in 0..400_000u64 {
        // Every half bit pattern, then random floats concentrated around the half range.
        let f = if i < 65536 {
            half::f16::from_bits(i as u16).to_f32()
        } else {
            let bits = rng.next() as u32;
            let e = 100 + (bits >> 24) % 60; // exponents 2^-27 .. 2^32
            f32::from_bits((bits & 0x807f_ffff) | (e << 23))
        };
        let mine = f2h(f as f64);
        let theirs = half::f16::from_f32(f).to_bits();
        if f.is_nan() {
            assert!(fp::h_is_nan(mine));
        } else {
            assert_eq!(mine, theirs, "{f:e} ({:#x})", f.to_bits());
        }
        if i < 65536 && !f.is_nan() {
            assert_eq!(h2f(i as u16), f as f64);
        }
    }
}

#[test]
fn generic_rounding_to_single_agrees_with_rust_casts() {
    let mut rng = Rng(42);
    for _ in 0..300_000 {
        let x = f64::from_bits(rng.next());
        let mine = fp::round_f64(SINGLE, x) as u32;
        if x.is_nan() {
            assert_eq!(mine & 0x7fc0_0000, 0x7fc0_0000);
        } else {
            assert_eq!(mine, (x as f32).to_bits(), "{x:e}");
        }
    }
    // Subnormal results and ties at the bottom of the range.
    for k in 0..2000i64 {
        let x = k as f64 * 2f64.powi(-151);
        assert_eq!(
            fp::round_f64(SINGLE, x) as u32,
            (x as f32).to_bits(),
            "{x:e}"
        );
    }
}

#[test]
fn half_fma_rounds_once() {
    // Where the float64 evaluation of a*b + c is exact, one rounding of it is the answer.
    let mut rng = Rng(7);
    let mut checked = 0;
    for _ in 0..200_000 {
        let (a, b, c) = (rng.next() as u16, rng.next() as u16, rng.next() as u16);
        let (x, y, z) = (h2f(a), h2f(b), h2f(c));
        let p = x * y;
        let s = p + z;
        if !s.is_finite() || s - z != p || s - p != z {
            continue;
        }
        checked += 1;
        assert_eq!(h_fma(a, b, c), f2h(s), "{a:#x} {b:#x} {c:#x}");
    }
    assert!(checked > 50_000);
    // Tiny products against large addends: exact sums need more than 53 bits.
    let tiny = 0x0001; // 2^-24
    assert_eq!(h_fma(tiny, tiny, 0x6800), 0x6800); // 2048 + 2^-48 rounds to 2048
    assert_eq!(h_fma(tiny, 0x8001, 0x0000), 0x8000); // -2^-48 rounds to -0
                                                     // 1 + 2^-11 is a tie that goes to even (1), but any positive excess goes up.
    assert_eq!(h_fma(0x3c00, 0x3c00, 0x1000), 0x3c00);
    assert_eq!(h_fma(0x3c00, 0x3c00, 0x1001), 0x3c01);
    // Exact zero sums: +0, and -0 only from -0 + -0.
    assert_eq!(h_fma(0x3c00, 0x3c00, 0xbc00), 0x0000);
    assert_eq!(h_fma(0x8000, 0x3c00, 0x8000), 0x8000);
    assert_eq!(h_fma(0x0000, 0x3c00, 0x8000), 0x0000);
}

#[test]
fn fp8_e4m3fnuz_values() {
    // Bias 8: 0x40 = 2^(8-8) = 1; largest 0x7f = 1.875 * 2^7 = 240; smallest subnormal 2^-10.
    let v = |b: u8| fp::fp8_e4m3fnuz_fixed(b).map(|x| x as f64 / 1024.0);
    assert_eq!(v(0x40), Some(1.0));
    assert_eq!(v(0x7f), Some(240.0));
    assert_eq!(v(0x01), Some(2f64.powi(-10)));
    assert_eq!(v(0x08), Some(2f64.powi(-7)));
    assert_eq!(v(0xc0), Some(-1.0));
    assert_eq!(v(0x00), Some(0.0));
    assert_eq!(v(0x80), None);
}

// ---- wave64 cross-lane operations ---------------------------------------------------------

fn random_lanes(rng: &mut Rng, lo: i64, hi: i64) -> Lanes<i32> {
    std::array::from_fn(|_| rng.int(lo, hi) as i32)
}

fn prefix(v: &Lanes<i32>) -> Lanes<i32> {
    let mut s = 0;
    std::array::from_fn(|n| {
        s += v[n];
        s
    })
}

#[test]
fn dpp_model_gives_a_prefix_sum_with_the_published_sequence() {
    // The row-wise Hillis-Steele scan (row_shr 1, 2, 4, 8 with the bank masks that skip lanes
    // already complete) plus row_bcast 15 and 31 is a prefix sum; a DPP model with a wrong
    // source, mask or bound_ctrl rule breaks it.
    let mut rng = Rng(11);
    for _ in 0..200 {
        let x = random_lanes(&mut rng, -1000, 1000);
        let mut v = x;
        for (c, rm, bm) in [
            (ctrl::row_shr(1), 0xf, 0xf),
            (ctrl::row_shr(2), 0xf, 0xf),
            (ctrl::row_shr(4), 0xf, 0xe),
            (ctrl::row_shr(8), 0xf, 0xc),
            (ctrl::ROW_BCAST15, 0xa, 0xf),
            (ctrl::ROW_BCAST31, 0xc, 0xf),
        ] {
            let d = lanes::update_dpp(&[Some(0); 64], &v.map(Some), c, rm, bm, false, 0).unwrap();
            for n in 0..64 {
                v[n] += d[n].unwrap();
            }
        }
        assert_eq!(v, prefix(&x));
    }
}

#[test]
fn kernel_scan_on_each_path() {
    let mut rng = Rng(12);
    // gfx6/7: the readlane scan is a prefix sum.
    for _ in 0..50 {
        let x = random_lanes(&mut rng, -1000, 1000);
        assert_eq!(wave_scan(&x, target("gfx700")).unwrap(), prefix(&x));
    }
    // gfx8+: the description's note: all ones give 1, 2, 3, 5, 7, ... and 116 in lane 63,
    // and lane 63 weights lanes with L % 16 < 13 twice.
    let ones = wave_scan(&[1; 64], target("gfx900")).unwrap();
    assert_eq!(&ones[..5], &[1, 2, 3, 5, 7]);
    assert_eq!(ones[63], 116);
    for _ in 0..50 {
        let x = random_lanes(&mut rng, -1000, 1000);
        let s = wave_scan(&x, target("gfx803")).unwrap();
        let weighted: i32 = (0..64)
            .map(|l| if l % 16 < 13 { 2 * x[l] } else { x[l] })
            .sum();
        assert_eq!(s[63], weighted);
    }
}

#[test]
fn wave_max_is_the_maximum_on_both_paths() {
    let mut rng = Rng(13);
    for _ in 0..200 {
        let v: Lanes<f32> = std::array::from_fn(|_| rng.int(0, 1 << 20) as f32 / 1024.0);
        let max = v.iter().copied().fold(0f32, f32::max);
        for t in ["gfx600", "gfx803", "gfx942"] {
            assert_eq!(wave_reduce_max(&v, target(t)).unwrap(), max, "{t}");
        }
    }
}

#[test]
fn swizzle_and_permute_patterns() {
    let x: Lanes<i32> = std::array::from_fn(|n| 100 + n as i32);
    // Quad mode (offsets as the kernels build them) and bit-mask mode.
    let rev = lanes::ds_swizzle(&x, swz_quad(3, 2, 1, 0));
    let bc0 = lanes::ds_swizzle(&x, swz_quad(0, 0, 0, 0));
    let rot = lanes::ds_swizzle(&x, swz_quad(1, 2, 3, 0));
    let shift = lanes::ds_swizzle(&x, swz_quad(1, 2, 3, 3));
    let rev32 = lanes::ds_swizzle(&x, swz_bitmask(0x1f, 0, 0x1f));
    let head8 = lanes::ds_swizzle(&x, swz_bitmask(0x18, 0, 0));
    let bcast5 = lanes::ds_swizzle(&x, swz_bitmask(0, 5, 0));
    for j in 0..64 {
        let q = j - j % 4;
        assert_eq!(rev[j], x[q + 3 - j % 4]);
        assert_eq!(bc0[j], x[q]);
        assert_eq!(rot[j], x[q + (j + 1) % 4]);
        assert_eq!(shift[j], x[q + (j % 4 + 1).min(3)]);
        assert_eq!(rev32[j], x[j - j % 32 + 31 - j % 32]);
        assert_eq!(head8[j], x[j - j % 8]);
        assert_eq!(bcast5[j], x[j - j % 32 + 5]);
    }
    // A butterfly of xor swizzles sums each half-wave in every lane.
    let mut v = x;
    for m in [1, 2, 4, 8, 16] {
        let o = lanes::ds_swizzle(&v, swz_bitmask(0x1f, 0, m));
        v = std::array::from_fn(|n| v[n] + o[n]);
    }
    let half_sum = |h: usize| (32 * h..32 * h + 32).map(|n| x[n]).sum::<i32>();
    assert!((0..64).all(|n| v[n] == half_sum(n / 32)));
    // bpermute pulls, permute pushes.
    let src: Lanes<u32> = std::array::from_fn(|l| (((l % 8) * 8 + l / 8) * 4) as u32);
    let t = lanes::ds_bpermute(&src, &x);
    let dst: Lanes<u32> = std::array::from_fn(|l| (((l + 1) % 64) * 4) as u32);
    let p = lanes::ds_permute(&dst, &x, 0);
    for r in 0..8 {
        for c in 0..8 {
            assert_eq!(t[r * 8 + c], x[c * 8 + r]);
        }
    }
    assert!((0..64).all(|l| p[l] == x[(l + 63) % 64]));
    // Ballot and mbcnt rank the set lanes 0, 1, 2, ...
    let pred: Lanes<bool> = std::array::from_fn(|l| l % 3 == 0 || l == 63);
    let m = lanes::ballot(&[true; 64], &pred);
    let ranks: Vec<u32> = (0..64)
        .filter(|&l| pred[l])
        .map(|l| lanes::mbcnt(m, l))
        .collect();
    assert_eq!(ranks, (0..ranks.len() as u32).collect::<Vec<_>>());
}

// ---- matrix cores -------------------------------------------------------------------------

/// The calculator's other direction ("Matrix element to register mapping"): the lane and item
/// holding A[i][k] of a block (B[k][j] the same with j for i), and the lane and register
/// holding D[i][j]. Transcribed separately from `Op::operand`/`Op::result` so that each
/// checks the other.
fn element_to_operand(op: Op, blk: usize, i: usize, k: usize) -> (usize, usize) {
    match op {
        Op::F32x32x32x2 => (32 * k + i, 0),
        Op::F32x32x32x1 => (32 * blk + i, 0),
        Op::F32x16x16x1 => (16 * blk + i, 0),
        Op::F32x4x4x1 => (4 * blk + i, 0),
        Op::F32x16x16x4 | Op::F64x16x16x4 => (16 * k + i, 0),
        // "GPR: (floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)], Lane: 16 * floor(k / 4) + i";
        // i8: "GPR 0.[8*(k % 4)+7 : 8*(k % 4)], Lane: 16 * floor(k / 4) + i".
        Op::F32x16x16x16F16 | Op::I32x16x16x16I8 => (16 * (k / 4) + i, k % 4),
        Op::F32x16x16x8Xf32 => (16 * (k / 2) + i, k % 2),
        Op::I32x16x16x32I8 | Op::F32x16x16x32Fp8 => (16 * (k / 8) + i, k % 8),
    }
}

fn element_to_result(op: Op, blk: usize, i: usize, j: usize) -> (usize, usize) {
    match op {
        // "GPR: 16 * block + 4 * floor(i / 8) + (i % 4), Lane: (32 * floor(i / 4)) % 64 + j".
        Op::F32x32x32x2 | Op::F32x32x32x1 => {
            ((32 * (i / 4)) % 64 + j, 16 * blk + 4 * (i / 8) + i % 4)
        }
        // "GPR: 4 * block + (i % 4), Lane: 16 * floor(i / 4) + j".
        Op::F32x16x16x1 => (16 * (i / 4) + j, 4 * blk + i % 4),
        // "GPR: i, Lane: 4 * block + j".
        Op::F32x4x4x1 => (4 * blk + j, i),
        // "GPR pair: floor(i / 4), Lane: 16 * (i % 4) + j".
        Op::F64x16x16x4 => (16 * (i % 4) + j, i / 4),
        _ => (16 * (i / 4) + j, i % 4),
    }
}

const OPS: [Op; 11] = [
    Op::F32x32x32x2,
    Op::F32x32x32x1,
    Op::F32x16x16x1,
    Op::F32x4x4x1,
    Op::F32x16x16x4,
    Op::F32x16x16x16F16,
    Op::I32x16x16x16I8,
    Op::F64x16x16x4,
    Op::F32x16x16x8Xf32,
    Op::I32x16x16x32I8,
    Op::F32x16x16x32Fp8,
];

#[test]
fn mfma_layouts_are_consistent_both_ways() {
    for op in OPS {
        let s = op.shape();
        let mut seen_a = vec![false; s.blocks * s.m * s.k];
        for lane in 0..64 {
            for item in 0..s.items {
                let (blk, i, k) = op.operand(lane, item);
                assert_eq!(element_to_operand(op, blk, i, k), (lane, item), "{op:?} A");
                seen_a[(blk * s.m + i) * s.k + k] = true;
            }
        }
        assert!(
            seen_a.iter().all(|&x| x),
            "{op:?}: every A element has a lane"
        );
        let mut seen_d = vec![false; s.blocks * s.m * s.n];
        for lane in 0..64 {
            for reg in 0..s.regs {
                let (blk, i, j) = op.result(lane, reg);
                assert_eq!(element_to_result(op, blk, i, j), (lane, reg), "{op:?} D");
                seen_d[(blk * s.m + i) * s.n + j] = true;
            }
        }
        assert!(
            seen_d.iter().all(|&x| x),
            "{op:?}: every D element has a register"
        );
    }
}

#[test]
fn mfma_wave_equals_a_naive_matrix_product() {
    let mut rng = Rng(21);
    for op in OPS {
        let s = op.shape();
        // Random matrices per block, scattered to lanes by the element-to-register mapping.
        let am: Vec<Vec<Vec<i64>>> = (0..s.blocks)
            .map(|_| {
                (0..s.m)
                    .map(|_| (0..s.k).map(|_| rng.int(-9, 9)).collect())
                    .collect()
            })
            .collect();
        let bm: Vec<Vec<Vec<i64>>> = (0..s.blocks)
            .map(|_| {
                (0..s.k)
                    .map(|_| (0..s.n).map(|_| rng.int(-9, 9)).collect())
                    .collect()
            })
            .collect();
        let cm: Vec<Vec<Vec<i64>>> = (0..s.blocks)
            .map(|_| {
                (0..s.m)
                    .map(|_| (0..s.n).map(|_| rng.int(-99, 99)).collect())
                    .collect()
            })
            .collect();
        let mut a = vec![vec![0i64; s.items]; 64];
        let mut b = vec![vec![0i64; s.items]; 64];
        let mut c = vec![vec![0i64; s.regs]; 64];
        for blk in 0..s.blocks {
            for i in 0..s.m {
                for k in 0..s.k {
                    let (l, it) = element_to_operand(op, blk, i, k);
                    a[l][it] = am[blk][i][k];
                }
            }
            for k in 0..s.k {
                for j in 0..s.n {
                    let (l, it) = element_to_operand(op, blk, j, k);
                    b[l][it] = bm[blk][k][j];
                }
            }
            for i in 0..s.m {
                for j in 0..s.n {
                    let (l, r) = element_to_result(op, blk, i, j);
                    c[l][r] = cm[blk][i][j];
                }
            }
        }
        let d = mfma(op, Mods::default(), &a, &b, &c, |v| v).unwrap();
        for blk in 0..s.blocks {
            for i in 0..s.m {
                for j in 0..s.n {
                    let want = cm[blk][i][j]
                        + (0..s.k).map(|k| am[blk][i][k] * bm[blk][k][j]).sum::<i64>();
                    let (l, r) = element_to_result(op, blk, i, j);
                    assert_eq!(d[l][r], want, "{op:?} block {blk} D[{i}][{j}]");
                }
            }
        }
    }
}

fn f32s(m: &Memory, name: &str) -> Vec<f64> {
    m.get::<f32>(name)
        .unwrap()
        .into_iter()
        .map(|x| x as f64)
        .collect()
}

#[test]
fn mfma_kernels_match_their_reference_notes() {
    for t in ["gfx908", "gfx90a", "gfx942"] {
        // sgemm_mfma_32x32x2: C = A * B, A 64x32, B 32x96.
        let (mem, c) = run_ref::<f32>("mfma_gemm", "sgemm_mfma_32x32x2", t, "C");
        let (a, b) = (f32s(&mem, "A"), f32s(&mem, "B"));
        for i in 0..64 {
            for j in 0..96 {
                let want: f64 = (0..32).map(|k| a[i * 32 + k] * b[k * 96 + j]).sum();
                assert_eq!(c[i * 96 + j] as f64, want, "sgemm32 {t} C[{i}][{j}]");
            }
        }
        // hgemm_mfma_16x16x16: C = 0.5 * A * B, A 32x64, B 64x48 (halves).
        let (mem, c) = run_ref::<f32>("mfma_gemm", "hgemm_mfma_16x16x16", t, "C");
        let a: Vec<f64> = mem.get::<u16>("A").unwrap().into_iter().map(h2f).collect();
        let b: Vec<f64> = mem.get::<u16>("B").unwrap().into_iter().map(h2f).collect();
        for i in 0..32 {
            for j in 0..48 {
                let want: f64 = 0.5 * (0..64).map(|k| a[i * 64 + k] * b[k * 48 + j]).sum::<f64>();
                assert_eq!(c[i * 48 + j] as f64, want, "hgemm {t} C[{i}][{j}]");
            }
        }
        // batched_outer_32x32x1: register v of lane l at C[2048g + 64v + l] is block v/16,
        // i = 8*((v/4) % 4) + 4*(l/32) + v%4, j = l%32.
        let (mem, c) = run_ref::<f32>("mfma_gemm", "batched_outer_32x32x1", t, "C");
        let (a, b) = (f32s(&mem, "A"), f32s(&mem, "B"));
        for g in 0..2 {
            for v in 0..32 {
                for l in 0..64 {
                    let (blk, i, j) = (v / 16, 8 * ((v / 4) % 4) + 4 * (l / 32) + v % 4, l % 32);
                    let batch = 2 * g + blk;
                    let want: f64 = (0..8)
                        .map(|k| a[(batch * 8 + k) * 32 + i] * b[(batch * 8 + k) * 32 + j])
                        .sum();
                    assert_eq!(c[2048 * g + 64 * v + l] as f64, want, "outer {t}");
                }
            }
        }
        // batched_4x4x1: c[64g + l] = (D_b[0][j], ..., D_b[3][j]), b = l/4, j = l%4.
        let (mem, c) = run_ref::<f32>("mfma_gemm", "batched_4x4x1", t, "c");
        let (a, b) = (f32s(&mem, "a"), f32s(&mem, "b"));
        for g in 0..2 {
            for l in 0..64 {
                for v in 0..4 {
                    let (blk, j) = (l / 4, l % 4);
                    let want: f64 = (0..8)
                        .map(|k| a[64 * k + 4 * blk + v] * b[64 * k + 4 * blk + j])
                        .sum();
                    assert_eq!(c[4 * (64 * g + l) + v] as f64, want, "4x4 {t}");
                }
            }
        }
        // mfma_16x16x1_bcast: D_b[i][j] = a[16b+i] b[16b+j] + a[80+i] b[64+16b+j], stored
        // at c[64v + l] for block v/4, i = 4(l/16) + v%4, j = l%16.
        let (mem, c) = run_ref::<f32>("mfma_gemm", "mfma_16x16x1_bcast", t, "c");
        let (a, b) = (f32s(&mem, "a"), f32s(&mem, "b"));
        for v in 0..16 {
            for l in 0..64 {
                let (blk, i, j) = (v / 4, 4 * (l / 16) + v % 4, l % 16);
                let want = a[16 * blk + i] * b[16 * blk + j] + a[80 + i] * b[64 + 16 * blk + j];
                assert_eq!(c[64 * v + l] as f64, want, "bcast {t}");
            }
        }
        // sgemm_mfma_16x16x4 with BLGP = 1 on every second instruction.
        let (mem, c) = run_ref::<f32>("mfma_gemm", "sgemm_mfma_16x16x4", t, "C");
        let (a, b) = (f32s(&mem, "A"), f32s(&mem, "B"));
        for i in 0..16 {
            for j in 0..16 {
                let mut want = 0.0;
                for k in (0..32).step_by(8) {
                    want += (0..4)
                        .map(|q| a[i * 32 + k + q] * b[(k + q) * 16 + j])
                        .sum::<f64>();
                    want += (0..4)
                        .map(|q| a[i * 32 + k + 4 + q] * b[(k + 4 + q % 2) * 16 + j])
                        .sum::<f64>();
                }
                assert_eq!(c[i * 16 + j] as f64, want, "sgemm16x16x4 {t} C[{i}][{j}]");
            }
        }
    }
    for t in ["gfx908", "gfx90a"] {
        // igemm: C = A * B over K = 64 with A[i][16t + 4(l/16) + c] = byte c of A4[64t + l].
        let (mem, c) = run_ref::<i32>("mfma_gemm", "igemm_mfma_16x16x16i8", t, "C");
        let a4: Vec<i32> = mem.get("A4").unwrap();
        let b4: Vec<i32> = mem.get("B4").unwrap();
        let byte = |w: i32, c: usize| w.to_le_bytes()[c] as i8 as i64;
        let amat = |i: usize, k: usize| byte(a4[64 * (k / 16) + 16 * ((k % 16) / 4) + i], k % 4);
        let bmat = |k: usize, j: usize| byte(b4[64 * (k / 16) + 16 * ((k % 16) / 4) + j], k % 4);
        for i in 0..16 {
            for j in 0..16 {
                let want: i64 = (0..64).map(|k| amat(i, k) * bmat(k, j)).sum();
                assert_eq!(c[i * 16 + j] as i64, want, "igemm {t}");
            }
        }
    }
    for t in ["gfx90a", "gfx942"] {
        // dgemm: C[tm + R][tn + c] = (A*B)[tm + 4*(R%4) + R/4][tn + c].
        let (mem, c) = run_ref::<f64>("mfma_gemm", "dgemm_mfma_16x16x4", t, "C");
        let (a, b): (Vec<f64>, Vec<f64>) = (mem.get("A").unwrap(), mem.get("B").unwrap());
        for tm in [0, 16] {
            for rr in 0..16 {
                for col in 0..32 {
                    let row = tm + 4 * (rr % 4) + rr / 4;
                    let want: f64 = (0..16).map(|k| a[row * 16 + k] * b[k * 32 + col]).sum();
                    assert_eq!(c[(tm + rr) * 32 + col], want, "dgemm {t}");
                }
            }
        }
    }
    // cdna3_mfma on gfx942.
    let (desc, mem) = load("mfma_gemm", "cdna3_mfma");
    let after = reference("mfma_gemm", &desc, target("gfx942"), &mem).unwrap();
    let (xa, xb) = (f32s(&mem, "xa"), f32s(&mem, "xb"));
    let (ia, ib): (Vec<i8>, Vec<i8>) = (mem.get("ia").unwrap(), mem.get("ib").unwrap());
    let (of, oi, o8) = (
        f32s(&after, "out_f"),
        after.get::<i32>("out_i").unwrap(),
        f32s(&after, "out_f8"),
    );
    let fp8 = |b: i8| fp::fp8_e4m3fnuz_fixed(b as u8).unwrap() as f64 / 1024.0;
    for l in 0..64 {
        for v in 0..4 {
            let (i, j) = (4 * (l / 16) + v, l % 16);
            // A[i][2q + r] = xa[16q + i].r, B[2q + r][j] = xb[16q + j].r.
            let want_f: f64 = (0..8)
                .map(|k| xa[2 * (16 * (k / 2) + i) + k % 2] * xb[2 * (16 * (k / 2) + j) + k % 2])
                .sum();
            assert_eq!(of[4 * l + v], want_f);
            let want_i: i64 = (0..32)
                .map(|k| {
                    ia[8 * (16 * (k / 8) + i) + k % 8] as i64
                        * ib[8 * (16 * (k / 8) + j) + k % 8] as i64
                })
                .sum();
            assert_eq!(oi[4 * l + v] as i64, want_i);
            let want_q: f64 = (0..32)
                .map(|k| {
                    fp8(ia[8 * (16 * (k / 8) + i) + k % 8])
                        * fp8(ib[8 * (16 * (k / 8) + j) + k % 8])
                })
                .sum();
            assert_eq!(o8[4 * l + v], want_q as f32 as f64);
        }
    }
}

// ---- per-description closed forms --------------------------------------------------------

#[test]
fn dpp_reduce_references_match_their_notes() {
    // block_scan_dpp on gfx6/7: a true block prefix sum.
    let (mem, out) = run_ref::<i32>("dpp_reduce", "block_scan_dpp", "gfx600", "out");
    let input: Vec<i32> = mem.get("in").unwrap();
    for g in 0..8 {
        let mut s = 0;
        for t in 0..256 {
            s += input[256 * g + t];
            assert_eq!(out[256 * g + t], s);
        }
    }
    // wave_row_sum: the weighted (gfx8+) or plain (gfx6/7) sum of (int)(x * 65536) / 65536.
    for (t, dpp) in [("gfx700", false), ("gfx906", true)] {
        let (mem, rows) = run_ref::<f32>("dpp_reduce", "wave_row_sum", t, "rowsum");
        let x: Vec<f32> = mem.get("x").unwrap();
        for r in 0..32 {
            let s: i64 = (0..64)
                .map(|l| {
                    let f = (x[64 * r + l] as f64 * 65536.0).trunc() as i64;
                    if dpp && l % 16 < 13 {
                        2 * f
                    } else {
                        f
                    }
                })
                .sum();
            assert_eq!(rows[r] as f64, s as f64 / 65536.0, "{t} row {r}");
        }
    }
    // wave_max_abs: the maximum of the initial value and |x[i]| for i < n, per launch.
    let (desc, mem) = load("dpp_reduce", "wave_max_abs");
    for t in ["gfx600", "gfx90a"] {
        let after = reference("dpp_reduce", &desc, target(t), &mem).unwrap();
        for (x, res, n) in [
            ("x", "res", 1000),
            ("x2", "res2", 1080),
            ("x3", "res3", 512),
        ] {
            let xs: Vec<f32> = mem.get(x).unwrap();
            let init = mem.get::<f32>(res).unwrap()[0];
            let want = xs[..n].iter().fold(init, |m, v| m.max(v.abs()));
            assert_eq!(after.get::<f32>(res).unwrap()[0], want, "{t} {res}");
        }
        assert_eq!(after.get::<f32>("res2").unwrap()[0], 59.5);
        assert_eq!(after.get::<f32>("res3").unwrap()[0], 0.25);
    }
}

#[test]
fn wave_and_swizzle_references_match_their_notes() {
    for t in ["gfx600", "gfx900"] {
        let (mem, out) = run_ref::<i32>("wave_ops", "broadcasts", t, "out");
        let input: Vec<i32> = mem.get("in").unwrap();
        for i in 0..512 {
            let w = i - i % 64;
            let sum: i32 = (0..64).step_by(8).map(|k| input[w + k]).sum();
            assert_eq!(out[i], input[i] - input[w] + input[w + 17] + sum);
        }
        let (mem, out) = run_ref::<i32>("wave_ops", "shuffle_transpose8", t, "out");
        let input: Vec<i32> = mem.get("in").unwrap();
        for i in 0..512 {
            let (j, w) = (i % 64, i - i % 64);
            assert_eq!(out[i], input[w + 8 * (j % 8) + j / 8]);
            assert_eq!(out[i + 512], input[w + (j + 63) % 64]);
        }
        let (mem, count) = run_ref::<u32>("wave_ops", "wave_compact", t, "count");
        let input: Vec<i32> = mem.get("in").unwrap();
        assert_eq!(count[0] as usize, input.iter().filter(|&&v| v != 0).count());
        let (_, nkept) = run_ref::<u32>("wave_ops", "append_consume", t, "nkept");
        assert_eq!(nkept, vec![3, 4, 0, 3]);
        let (_, y) = run_ref::<f32>("wave_ops", "vote_fast_path", t, "y");
        for (i, &y) in y.iter().enumerate() {
            let x = i as f32 / 64.0;
            let want = match i / 64 {
                0 | 1 => x,
                2 if x <= 2.5 => x * 0.5,
                _ => (x as f64).sqrt() as f32,
            };
            assert_eq!(y, want, "vote {i}");
        }
    }
    let (mem, out) = run_ref::<i32>("swizzle", "quad_ops", "gfx803", "out");
    let x: Vec<i32> = mem.get("x").unwrap();
    for i in 0..512 {
        let j = i % 64;
        let (q, h) = (i - j % 4, i - j % 32);
        assert_eq!(
            &out[4 * i..4 * i + 4],
            &[
                x[q + 3 - j % 4],
                x[q],
                x[q + (j + 1) % 4],
                x[h + 31 - j % 32]
            ]
        );
    }
    let (mem, sums) = run_ref::<f32>("swizzle", "butterfly_sum32", "gfx803", "sums");
    let x: Vec<f32> = mem.get("x").unwrap();
    for g in 0..32 {
        let exact: f64 = x[32 * g..32 * g + 32].iter().map(|&v| v as f64).sum();
        assert!((sums[g] as f64 - exact).abs() < 1e-5, "butterfly group {g}");
    }
    let (mem, d) = run_ref::<f32>("swizzle", "group8_broadcast", "gfx803", "d");
    let x: Vec<f32> = mem.get("x").unwrap();
    for i in 0..512 {
        let j = i % 64;
        let (head, next) = (x[i - j % 8], x[i - j % 4 + (j % 4 + 1).min(3)]);
        assert_eq!(d[i], (x[i] - head) + (next - x[i]));
    }
}

#[test]
fn float_reductions_are_close_to_exact_sums() {
    // reduce_sum_f32: partial[g] sums in[i] for i < n with (i mod 2048) in [512g, 512g + 512).
    let (mem, partial) = run_ref::<f32>("reduce_sum", "reduce_sum_f32", "gfx900", "partial");
    let input: Vec<f32> = mem.get("in").unwrap();
    for g in 0..4 {
        let exact: f64 = (0..5000)
            .filter(|i| (i % 2048) / 512 == g)
            .map(|i| input[i] as f64)
            .sum();
        assert!(
            (partial[g] as f64 - exact).abs() < 2e-5,
            "group {g}: {} vs {exact}",
            partial[g]
        );
    }
    // sgemv_n: y = 1.5 A x - 0.5 y over 50 rows.
    let (mem, y) = run_ref::<f32>("gemv_wave", "sgemv_n", "gfx600", "y");
    let (a, x, y0): (Vec<f32>, Vec<f32>, Vec<f32>) = (
        mem.get("A").unwrap(),
        mem.get("x").unwrap(),
        mem.get("y").unwrap(),
    );
    for r in 0..50 {
        let dot: f64 = (0..300).map(|j| a[r * 305 + j] as f64 * x[j] as f64).sum();
        let exact = 1.5 * dot - 0.5 * y0[r] as f64;
        assert!((y[r] as f64 - exact).abs() < 1e-4, "row {r}");
    }
    // hgemv_mixed: y = A x in float from halves.
    let (mem, y) = run_ref::<f32>("fp16", "hgemv_mixed", "gfx900", "y");
    let (a, x): (Vec<u16>, Vec<u16>) = (mem.get("A").unwrap(), mem.get("x").unwrap());
    for r in 0..48 {
        let exact: f64 = (0..200).map(|j| h2f(a[r * 200 + j]) * h2f(x[j])).sum();
        assert!((y[r] as f64 - exact).abs() < 1e-4, "row {r}");
    }
    // rmsnorm_f16: y = x / sqrt(mean(x^2) + 1e-6) * w, within two half ulps.
    let (mem, y) = run_ref::<u16>("softmax_layernorm", "rmsnorm_f16", "gfx900", "y");
    let (x, w): (Vec<u16>, Vec<u16>) = (mem.get("x").unwrap(), mem.get("w").unwrap());
    for g in 0..8 {
        let ms: f64 = (0..777).map(|j| h2f(x[g * 777 + j]).powi(2)).sum::<f64>() / 777.0;
        let r = 1.0 / (ms + 1e-6).sqrt();
        for j in 0..777 {
            let exact = h2f(x[g * 777 + j]) * r * h2f(w[j]);
            let got = h2f(y[g * 777 + j]);
            assert!(
                (got - exact).abs() <= 2.0 * 2f64.powi(-10) * exact.abs().max(2f64.powi(-14)),
                "rmsnorm {g} {j}: {got} vs {exact}"
            );
        }
    }
}

#[test]
fn half_references_match_their_notes() {
    // gelu_f16 (strict half evaluation) stays near the real-number formula.
    let (mem, x) = run_ref::<u16>("fp16", "gelu_f16", "gfx900", "x");
    let x0: Vec<u16> = mem.get("x").unwrap();
    for i in 0..2048 {
        let v = h2f(x0[i]);
        if i >= 2000 {
            assert_eq!(x[i], x0[i]);
            continue;
        }
        let u = 0.7978845608 * (v + 0.044715 * v * v * v);
        let t = (u * (27.0 + u * u) / (27.0 + 9.0 * u * u)).clamp(-1.0, 1.0);
        let exact = 0.5 * v * (1.0 + t);
        assert!(
            (h2f(x[i]) - exact).abs() <= 0.004 + 0.004 * exact.abs(),
            "gelu {v}: {} vs {exact}",
            h2f(x[i])
        );
    }
    // half2_ops: c within half an ulp of the exact x*y + k, d exact.
    let (desc, mem) = load("fp16", "half2_ops");
    let after = reference("fp16", &desc, target("gfx803"), &mem).unwrap();
    let (a, b): (Vec<u16>, Vec<u16>) = (mem.get("a").unwrap(), mem.get("b").unwrap());
    let (c, d): (Vec<u16>, Vec<u16>) = (after.get("c").unwrap(), after.get("d").unwrap());
    for i in 0..1990 {
        for (lane, k) in [(0, 1.0), (1, -0.5)] {
            let exact = h2f(a[2 * i + lane]) * h2f(b[2 * i + lane]) + k;
            let got = h2f(c[2 * i + lane]);
            let ulp = 2f64.powi((exact.abs().max(2f64.powi(-14))).log2().floor() as i32 - 10);
            assert!((got - exact).abs() <= ulp / 2.0, "c[{i}].{lane}");
        }
        assert_eq!(h2f(d[2 * i]), h2f(a[2 * i]).max(h2f(b[2 * i + 1])));
        assert_eq!(
            h2f(d[2 * i + 1]),
            h2f(f2h(h2f(a[2 * i + 1]) - h2f(b[2 * i]))).abs()
        );
    }
    assert!(c[2 * 1990..]
        .iter()
        .chain(&d[2 * 1990..])
        .all(|&h| h2f(h) == -3.0));
    // half_int_conv: s, us, w from truncation; back below 2048 is exact.
    let (desc, mem) = load("fp16", "half_int_conv");
    let after = reference("fp16", &desc, target("gfx700"), &mem).unwrap();
    let h: Vec<u16> = mem.get("h").unwrap();
    let (s, us, w, back): (Vec<i16>, Vec<u16>, Vec<i32>, Vec<u16>) = (
        after.get("s").unwrap(),
        after.get("us").unwrap(),
        after.get("w").unwrap(),
        after.get("back").unwrap(),
    );
    for i in 0..512 {
        let v = h2f(h[i]);
        assert_eq!(s[i] as f64, v.trunc());
        assert_eq!(us[i] as f64, v.abs().trunc());
        assert_eq!(w[i] as f64, (v * 16.0).trunc());
        let sum = s[i] as f64 + (i & 255) as f64 + us[i] as f64;
        assert_eq!(h2f(back[i]), h2f(f2h(sum)));
    }
    // convert_f32_f16: out is the rounded input and roundtrip its error.
    let (desc, mem) = load("fp16", "convert_f32_f16");
    let after = reference("fp16", &desc, target("gfx942"), &mem).unwrap();
    let (input, out, rt): (Vec<f32>, Vec<u16>, Vec<f32>) = (
        mem.get("in").unwrap(),
        after.get("out").unwrap(),
        after.get("roundtrip").unwrap(),
    );
    assert_eq!(
        &out[..13],
        &[
            0x7bff, 0x7bff, 0x7c00, 0xfc00, out[4], 0x0001, 0x0000, 0x0001, 0x3c00, 0x3c02,
            out[10], 0x7c00, 0x8000
        ]
    );
    assert!(fp::h_is_nan(out[10]) && rt[10].is_nan() && rt[11].is_nan());
    for i in 12..1000 {
        assert_eq!(rt[i] as f64, h2f(out[i]) - input[i] as f64, "roundtrip {i}");
    }
    // haxpy: y = fma(-0.625, x, y) for i < 1000.
    let (desc, mem) = load("fp16", "haxpy");
    let after = reference("fp16", &desc, target("gfx900"), &mem).unwrap();
    let (x, y0, y): (Vec<u16>, Vec<u16>, Vec<u16>) = (
        mem.get("x").unwrap(),
        mem.get("y").unwrap(),
        after.get("y").unwrap(),
    );
    for i in 0..1024 {
        let want = if i < 1000 {
            f2h(-0.625 * h2f(x[i]) + h2f(y0[i]))
        } else {
            y0[i]
        };
        // -0.625 * x is exact in float64 and the sum has few bits: one rounding.
        assert_eq!(y[i], want, "haxpy {i}");
    }
}

#[test]
fn intrinsic_references_match_hand_values() {
    // med3 is a clamp for numbers; fract stays below 1; cube map faces and ties.
    assert_eq!(med3(2.5, -1.0, 1.0), 1.0);
    assert_eq!(med3(-0.5, -1.0, 1.0), -0.5);
    assert_eq!(med3(f32::NAN, -1.0, 1.0), -1.0);
    assert_eq!(fract(-1e-10), f32::from_bits(0x3f7f_ffff));
    assert_eq!(fract(-2.5), 0.5);
    assert!(fract(f32::INFINITY).is_nan());
    assert_eq!(cube(1.0, 0.0, 0.0), (0.0, -0.0, -0.0, 2.0));
    assert_eq!(cube(0.0, -1.0, 0.0).0, 3.0);
    assert_eq!(cube(0.0, 0.0, -1.0), (5.0, -0.0, -0.0, -2.0));
    assert_eq!(cube(0.5, 0.5, 0.25), (2.0, 0.5, 0.25, 1.0));
    assert_eq!(cube(0.5, -0.5, 0.5), (4.0, 0.5, 0.5, 1.0));
    assert_eq!(cube(-0.75, 0.75, -0.75), (5.0, 0.75, -0.75, -1.5));
    // med3_fract_class on the description's edge values.
    let (desc, mem) = load("intrinsics_misc", "med3_fract_class");
    let after = reference("intrinsics_misc", &desc, target("gfx600"), &mem).unwrap();
    let (y, cls): (Vec<f32>, Vec<i32>) = (after.get("y").unwrap(), after.get("cls").unwrap());
    assert_eq!(&cls[..6], &[0, 0, -1, 1, 1, 0]);
    assert!(y[2].is_nan() && y[3].is_nan() && y[4].is_nan());
    assert_eq!(y[5], 1.0 + 0.0 + 0.5);
    assert_eq!(y[9], (1.0 + 0.5) + 1.25); // 2.5: med3 1, fract 0.5, v/2
    let x: Vec<f32> = mem.get("x").unwrap();
    assert_eq!(y[13], (x[13] + f32::from_bits(0x3f7f_ffff)) + x[13] / 2.0);
    assert_eq!(y[11], (1.0 + 0.0) + x[11] / 2.0);
    // int_intrinsics on hand-computed words.
    let (desc, mem) = load("intrinsics_misc", "int_intrinsics");
    let after = reference("intrinsics_misc", &desc, target("gfx900"), &mem).unwrap();
    let out: Vec<u32> = after.get("out").unwrap();
    // x = 0xffffffff, y = 0: alignbit by 0 is y; bfe_u 0xfff; bfe_i -1; lerp (255 + 0 + 1)/2
    // = 128 per byte, msad 7 (every reference byte 0), alignbyte 0xffff0000.
    assert_eq!(
        &out[4..8],
        &[
            0,
            0xfff,
            0xffff_ffff,
            0x8080_8080u32.wrapping_add(7).wrapping_add(0xffff_0000)
        ]
    );
    // x = 0x80000000, y = 0x00ff00ff: alignbit by y & 31 = 31; bfe_u and the field at bit
    // 15 are 0; msad adds |0 - 0xff| for the two non-zero reference bytes.
    let (x, y) = (0x8000_0000u32, 0x00ff_00ffu32);
    // lerp per byte (x_b + y_b + 1) >> 1: bytes of y are ff, 00, ff, 00 and of x 00, 00, 00, 80.
    let lerp = 0x4080_0080_u32;
    let msad = 7 + 0xff + 0xff;
    let alignbyte = ((((x as u64) << 32) | y as u64) >> 16) as u32;
    assert_eq!(
        &out[16..20],
        &[
            (((x as u64) << 32 | y as u64) >> 31) as u32,
            0,
            0,
            lerp.wrapping_add(msad).wrapping_add(alignbyte)
        ]
    );
    // dot_products: fallback and instruction paths agree on the signed-byte part's meaning.
    let (desc, mem) = load("intrinsics_misc", "dot_products");
    let a: Vec<u32> = mem.get("a").unwrap();
    let b: Vec<u32> = mem.get("b").unwrap();
    let plain = reference("intrinsics_misc", &desc, target("gfx803"), &mem).unwrap();
    let dot = reference("intrinsics_misc", &desc, target("gfx906"), &mem).unwrap();
    let (ip, idp): (Vec<i32>, Vec<i32>) = (plain.get("idot").unwrap(), dot.get("idot").unwrap());
    // 0x7f7f7f7f . 0x7f7f7f7f: sdot4 4*127^2 = 64516; udot4 the same; sdot2 2*0x7f7f^2;
    // sdot8 nibbles (7, -1, ...): 4*49 + 4*1 + 1 = 201.
    assert_eq!((a[0], b[0]), (0x7f7f_7f7f, 0x7f7f_7f7f));
    assert_eq!(ip[0], 64516);
    assert_eq!(
        idp[0],
        64516 + 64516 + (2 * 0x7f7f_i64 * 0x7f7f) as i32 + 201
    );
    let (fp_plain, fp_dot): (Vec<f32>, Vec<f32>) =
        (plain.get("fdot").unwrap(), dot.get("fdot").unwrap());
    for i in 0..1024 {
        let (p, d) = (fp_plain[i], fp_dot[i]);
        assert!(
            p.is_nan() == d.is_nan()
                && (p.is_nan() || p == d || (p - d).abs() <= 1e-6 * d.abs().max(1.0)),
            "fdot {i}: {p} vs {d}"
        );
    }
}
