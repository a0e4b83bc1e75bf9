//! Folded-constant differential tests: LLVM's constant folder is the oracle.
//!
//! Every operation of the table below is built twice by clang-19 (-O2) for each corpus target:
//!
//! - the *constant* build writes `o[i] = OP(literal operands)` for each operand tuple, through a
//!   volatile pointer so that each case stays one store; LLVM folds the operation and the kernel
//!   only stores constants;
//! - the *run-time* build reads the same operands from buffers (`out[i] = OP(a[i], b[i], c[i])`),
//!   so the GPU instruction sequence LLVM selects for OP (single instructions, or the multi-
//!   instruction expansions of division, square root, 64-bit division, conversions...) runs in
//!   the emulator.
//!
//! Both builds run in the emulator and the outputs are compared bit for bit. A case counts only
//! when LLVM really folded it: the constant build's optimised IR (`-emit-llvm`) must store a
//! literal for that case (cases LLVM leaves as a call, e.g. `llvm.amdgcn.rsq`, are reported as
//! "not folded" and not compared). The folded values read from the IR are also checked against
//! what the constant build stored when it ran, so the IR parsing is checked too.
//!
//! Operands that are undefined behaviour in C/OpenCL are not in the table (LLVM may fold them to
//! poison): division by zero, `INT_MIN / -1` and `INT_MIN % -1`, float-to-integer conversions of
//! values whose truncation is out of the integer's range, `__builtin_clz/ctz(0)` (written as
//! `x ? clz(x) : 32`). Shifts by counts >= the width are defined in OpenCL C (the count is taken
//! modulo the width) and are in the table. A case folded to `poison`/`undef` anyway would be
//! counted separately and fail the test.
//!
//! Float modes: gfx6-gfx8 OpenCL kernels flush f32 denormals by default
//! (`"denormal-fp-math-f32"="preserve-sign"`, MODE.FP_DENORM.f32 = 0), but LLVM's folding does
//! not honour that attribute consistently (`x * 1.0` folds to a denormal `x`, the
//! `llvm.amdgcn.*` folds ignore it), so the two builds would legitimately differ for denormal
//! inputs and results. Every target is therefore built with IEEE f32 denormals
//! (`-Xclang -fdenormal-fp-math-f32=ieee`; the kernel descriptor then sets FP_DENORM.f32 = 3),
//! the mode LLVM folds in; gfx6-8 are built a second time in their default flushing mode, where
//! the cases with an f32 denormal operand or result are counted apart (§13.5). Divisions and square roots are correctly rounded
//! (`-cl-fp32-correctly-rounded-divide-sqrt`), as the folder computes them, and contraction is
//! off (`-ffp-contract=off`).
//!
//! Where the folder legitimately computes something the instruction does not (documented in
//! docs/emulator-precision.md §13), the case is counted as a "documented difference" with the
//! reason printed; every other disagreement fails the test.
//!
//! `cargo test --release -p gcnkit-emu --test folded_constants -- --nocapture`

use std::path::PathBuf;

mod folded;

use folded::build::*;
use folded::compare::*;
use folded::ops::*;

const TARGETS: [&str; 8] = [
    "gfx600", "gfx700", "gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
];
/// Targets with 16-bit instructions (`16-bit-insts`: the f16 `llvm.amdgcn.*` builtins).
const GFX8PLUS: [&str; 6] = ["gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"];
/// Targets with `v_med3_f16` (`__builtin_amdgcn_fmed3h`).
const GFX9PLUS: [&str; 5] = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F16,
    F32,
    F64,
}

impl Ty {
    fn c(self) -> &'static str {
        match self {
            Ty::U16 => "ushort",
            Ty::I16 => "short",
            Ty::U32 => "uint",
            Ty::I32 => "int",
            Ty::U64 => "ulong",
            Ty::I64 => "long",
            Ty::F16 => "half",
            Ty::F32 => "float",
            Ty::F64 => "double",
        }
    }
    fn size(self) -> usize {
        match self {
            Ty::F16 | Ty::U16 | Ty::I16 => 2,
            Ty::U32 | Ty::I32 | Ty::F32 => 4,
            _ => 8,
        }
    }
    /// A C literal with exactly these bits.
    fn lit(self, v: u64) -> String {
        match self {
            Ty::U16 => format!("((ushort){:#x})", v as u16),
            Ty::I16 => format!("((short)(ushort){:#x})", v as u16),
            Ty::U32 => format!("{:#x}u", v as u32),
            Ty::I32 => format!("((int){:#x}u)", v as u32),
            Ty::U64 => format!("{v:#x}ul"),
            Ty::I64 => format!("((long){v:#x}ul)"),
            Ty::F16 => format!("__builtin_astype((ushort){:#x}, half)", v as u16),
            Ty::F32 => format!("__builtin_astype({:#x}u, float)", v as u32),
            Ty::F64 => format!("__builtin_astype({v:#x}ul, double)"),
        }
    }
    fn is_nan(self, v: u64) -> bool {
        match self {
            Ty::F16 => v & 0x7fff > 0x7c00,
            Ty::F32 => v & 0x7fff_ffff > 0x7f80_0000,
            Ty::F64 => v & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000,
            _ => false,
        }
    }
}

/// The value of a float operand's bits, as f64 (exact for f16 and f32).
fn fval(t: Ty, v: u64) -> f64 {
    match t {
        Ty::F32 => f32::from_bits(v as u32) as f64,
        Ty::F64 => f64::from_bits(v),
        Ty::F16 => {
            let (s, e, m) = ((v >> 15) & 1, (v >> 10) & 0x1f, v & 0x3ff);
            let mag = match e {
                0 => m as f64 * 2f64.powi(-24),
                31 if m == 0 => f64::INFINITY,
                31 => f64::NAN,
                _ => (1024 + m) as f64 * 2f64.powi(e as i32 - 25),
            };
            if s == 1 {
                -mag
            } else {
                mag
            }
        }
        _ => unreachable!(),
    }
}

/// An operation: a C expression of `a`, `b`, `c` (macro parameters) and its operand tuples.
struct Op {
    name: String,
    ret: Ty,
    args: Vec<Ty>,
    expr: String,
    cases: Vec<Vec<u64>>,
    targets: &'static [&'static str],
}

#[test]
fn emulated_operations_match_llvm_constant_folding() {
    let bin = PathBuf::from("/usr/lib/llvm-19/bin");
    assert!(
        bin.join("clang").exists() && bin.join("ld.lld").exists(),
        "folded_constants needs clang-19 and ld.lld-19 in /usr/lib/llvm-19/bin (apt install clang-19 lld-19)"
    );
    let all = ops();
    let filter = std::env::var("FOLDED_OPS").ok();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(String, Tally)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let (all, next, filter, bin) = (&all, &next, &filter, &bin);
                s.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        let Some(&(mcpu, ftz)) = CONFIGS.get(i) else {
                            break;
                        };
                        let ops: Vec<&Op> = all
                            .iter()
                            .filter(|o| o.targets.contains(&mcpu))
                            .filter(|o| {
                                filter
                                    .as_deref()
                                    .is_none_or(|f| f.split(',').any(|p| o.name.contains(p)))
                            })
                            .collect();
                        let (konst, rt) = kernel_sources(&ops);
                        let built = build(bin, mcpu, ftz, &konst, &rt);
                        let label = if ftz {
                            format!("{mcpu} (f32 denormals flushed)")
                        } else {
                            mcpu.to_string()
                        };
                        done.push((i, label, check_target(mcpu, ftz, &ops, &built)));
                    }
                    done
                })
            })
            .collect();
        let mut r: Vec<(usize, String, Tally)> = workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect();
        r.sort_by_key(|(i, _, _)| *i);
        r.into_iter().map(|(_, l, t)| (l, t)).collect()
    });
    let show: usize = std::env::var("FOLDED_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let mut failures = 0;
    for (mcpu, t) in &results {
        eprintln!(
            "folded constants {mcpu}: {} operations, {} cases compared, {} agree bit for bit, {} documented differences, {} not folded by LLVM (not compared), {} disagree",
            t.ops,
            t.compared,
            t.agree,
            t.documented.values().sum::<usize>(),
            t.not_folded,
            t.failures.len()
        );
        if !t.not_folded_ops.is_empty() {
            let l: Vec<String> = t
                .not_folded_ops
                .iter()
                .map(|(o, n)| format!("{o} ({n})"))
                .collect();
            eprintln!("  not folded: {}", l.join(", "));
        }
        for (why, n) in &t.documented {
            eprintln!("  documented ({n}): {why}");
        }
        for f in t.failures.iter().take(show) {
            eprintln!("  FAIL {f}");
        }
        if t.failures.len() > show {
            eprintln!("  ... {} more", t.failures.len() - show);
        }
        failures += t.failures.len();
    }
    assert_eq!(failures, 0, "{failures} folded-constant cases disagree");
}
