//! Work-groups spread over any number of threads give the same bytes: every output of
//! descriptions whose kernels do not race, run with 1, 2 and 5 worker threads, is compared
//! byte for byte (the emulator against itself across thread counts — the pocl test checks
//! the values). Atomic kernels whose outputs are order-independent (counters, histograms
//! with integer increments) are included: their results must not change either.

use std::path::{Path, PathBuf};
use std::process::Command;

use gcnkit_emu::launch::LaunchDescription;
use gcnkit_emu::runner::run_description;
use gcnkit_emu::LaunchOptions;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const CASES: [&str; 8] = [
    "vector_add/vadd_grid_stride",
    "histogram/histogram256",
    "int64_math/i64_ops",
    "hashes/murmur3_keys",
    "control_flow/collatz_steps",
    "reduce_minmax/minmax_i32",
    "prefix_sum/scan_three_pass",
    "atomics_global/atomic_counters",
];

#[test]
fn outputs_do_not_depend_on_the_thread_count() {
    if !Path::new("/usr/lib/llvm-19/bin/clang").exists() {
        eprintln!("skipped: LLVM 19 not installed");
        return;
    }
    let corpus = repo().join("target/kernels");
    if !corpus.join(".complete").exists() {
        let ok = Command::new("bash")
            .arg(repo().join("scripts/build-kernels.sh"))
            .arg(&corpus)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "scripts/build-kernels.sh failed");
    }
    let (mut compared, mut same, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in CASES {
        let path = repo().join(format!("tests/launch/{case}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            skipped += 1;
            continue;
        };
        let desc = LaunchDescription::parse(&text).unwrap();
        let stem = case.split('/').next().unwrap();
        for target in ["gfx803", "gfx900", "gfx90a", "gfx942"] {
            let code = std::fs::read(corpus.join(format!("{target}/{stem}.co"))).unwrap();
            let mut results = Vec::new();
            for threads in [1, 2, 5] {
                let options = LaunchOptions {
                    threads,
                    max_instructions: 20_000_000,
                };
                results.push(run_description(&desc, &code, None, None, options).map(|r| r.buffers));
            }
            match &results[..] {
                [Ok(a), Ok(b), Ok(c)] => {
                    compared += 1;
                    if a == b && a == c {
                        same += 1;
                    } else {
                        failures.push(format!(
                            "{case} {target}: outputs differ between thread counts"
                        ));
                    }
                }
                // Kernels the emulator cannot run yet are counted, not compared.
                _ => skipped += 1,
            }
        }
    }
    eprintln!("thread counts 1/2/5: {compared} (description, target) pairs compared, {same} identical, {skipped} not run");
    assert!(failures.is_empty(), "{failures:?}");
}
