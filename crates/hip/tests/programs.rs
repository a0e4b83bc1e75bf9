//! HIP programs built by Debian's hipcc, run unmodified on gcnkit's HIP runtime: the
//! programs of tests/hip (each checks its results against what it computes on the host and
//! prints `PASS name: ...` or `FAIL name: ...`), built for every target hipcc supports of
//! gfx900, gfx906, gfx908, gfx90a and gfx940, each run on the emulated processor it was
//! built for.
//!
//! Needs hipcc (`apt-get install hipcc libamdhip64-dev`, as .ci/run does). The test builds
//! the runtime's static library and links it into libamdhip64.so.5 with
//! scripts/link-hip-runtime.sh.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The profile directory this test was built in (target/release or target/debug).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable's path");
    exe.parent()
        .and_then(Path::parent)
        .expect("the test executable lives in <profile>/deps")
        .to_path_buf()
}

/// Builds the runtime's static library in this test's profile (cargo builds only the rlib
/// for tests; it has released its lock by the time tests run) and links it into
/// `<profile>/hip-test/lib/libamdhip64.so.5`.
fn runtime_dir() -> PathBuf {
    // Both tests use it; build and link once.
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(build_runtime).clone()
}

fn build_runtime() -> PathBuf {
    let profile = profile_dir();
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .args(["build", "-p", "gcnkit-hip"])
        .current_dir(repo());
    if profile.file_name().is_some_and(|n| n == "release") {
        cargo.arg("--release");
    }
    let status = cargo.status().expect("cargo runs");
    assert!(status.success(), "cargo build -p gcnkit-hip failed");
    let lib = profile.join("libamdhip64.a");
    let out = profile.join("hip-test/lib");
    let status = Command::new("bash")
        .arg(repo().join("scripts/link-hip-runtime.sh"))
        .arg(&lib)
        .arg(&out)
        .status()
        .expect("bash runs");
    assert!(status.success(), "linking {} failed", lib.display());
    out
}

/// Builds a suite with `script` (tests/hip/build.sh or build-clients.sh) into
/// `<profile>/hip-test/<suite>/<target>/`.
fn build(script: &str, suite: &str) -> PathBuf {
    let out = profile_dir().join("hip-test").join(suite);
    let status = Command::new("bash")
        .arg(repo().join("tests/hip").join(script))
        .arg(&out)
        .status()
        .expect("bash runs");
    assert!(
        status.success(),
        "tests/hip/{script} failed (are hipcc and the ROCm libraries installed? .ci/run installs them)"
    );
    out
}

/// Runs every program of every target directory under `programs` on the runtime in `lib`,
/// on the processor it was built for; prints one line per program and the counts per target.
fn run_all(suite: &str, lib: &Path, programs: &Path) {
    let mut targets: Vec<PathBuf> = std::fs::read_dir(programs)
        .expect("the build made the program directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    targets.sort();
    assert!(!targets.is_empty(), "no target was built");
    let mut failures = Vec::new();
    let (mut ran, mut passed) = (0, 0);
    for dir in &targets {
        let target = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_none() && p.is_file())
            .collect();
        names.sort();
        let (mut t_ran, mut t_passed) = (0, 0);
        for exe in names {
            let name = exe.file_name().unwrap().to_string_lossy().into_owned();
            let started = std::time::Instant::now();
            let output = Command::new(&exe)
                .current_dir(dir)
                .env("LD_LIBRARY_PATH", lib)
                .env("GCNKIT_HIP_ARCH", &target)
                .output()
                .expect("the program starts");
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            let verdict = stdout
                .lines()
                .find(|l| l.starts_with("PASS ") || l.starts_with("FAIL "))
                .unwrap_or("(no verdict line)")
                .to_string();
            t_ran += 1;
            let ok = output.status.success() && verdict.starts_with("PASS ");
            println!(
                "{target} {name}: {} in {:.2} s: {verdict}",
                if ok { "agrees" } else { "DIFFERS" },
                started.elapsed().as_secs_f64()
            );
            if ok {
                t_passed += 1;
            } else {
                failures.push(format!(
                    "{target} {name}: exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
                    output.status.code()
                ));
            }
        }
        println!(
            "{suite}, {target}: {t_ran} programs run, {t_passed} agree with their host results"
        );
        ran += t_ran;
        passed += t_passed;
    }
    println!(
        "{suite}: {ran} runs on {} targets, {passed} agree",
        targets.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hip_programs_run_on_the_emulator() {
    let lib = runtime_dir();
    let programs = build("build.sh", "programs");
    run_all("HIP programs", &lib, &programs);
}

/// rocPRIM's device-wide algorithms and Debian's rocSPARSE, hipSPARSE and rocRAND, called by
/// the programs of tests/hip/rocprim and tests/hip/libraries (tests/hip/CLIENTS.md).
#[test]
fn rocm_library_clients_run_on_the_emulator() {
    let lib = runtime_dir();
    let programs = build("build-clients.sh", "clients");
    run_all("ROCm library clients", &lib, &programs);
}
