//! Every launch description under `tests/launch/` runs under the emulator on every target of
//! the kernel corpus (`scripts/build-kernels.sh`: gfx600 gfx700 gfx803 gfx900 gfx906 gfx908
//! gfx90a gfx942), and its outputs are compared, with the description's tolerances, with
//! pocl running the same OpenCL source (`tools/pocl-ref/pocl_run.py`). Both start from the
//! same input bytes (pocl's `--write-inputs`); that the emulator generates the same bytes
//! from the description is checked too. Buffers that are not outputs must be unchanged.
//!
//! Descriptions whose `reference` is `manual` (AMD-only wave builtins) are checked by
//! `kernels_manual.rs`. The test prints how many (description, target) pairs it compared and
//! how many agreed; it fails when fewer agree than `kernel-agreement-floor.txt` records.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

mod common;

use common::{pocl_available, pocl_reference, repo};
use gcnkit_emu::launch::{compare, LaunchDescription};
use gcnkit_emu::runner::run_description;
use gcnkit_emu::LaunchOptions;

const TARGETS: [&str; 8] = [
    "gfx600", "gfx700", "gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
];

fn llvm_available() -> bool {
    Path::new("/usr/lib/llvm-19/bin/clang").exists()
}

/// The corpus of code objects, built once (shared with the other corpus tests).
fn corpus() -> PathBuf {
    let dir = repo().join("target/kernels");
    if !dir.join(".complete").exists() {
        let ok = Command::new("bash")
            .arg(repo().join("scripts/build-kernels.sh"))
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "scripts/build-kernels.sh failed");
    }
    dir
}

/// Every description: (stem, name, path).
pub fn descriptions() -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    let root = repo().join("tests/launch");
    let Ok(dirs) = std::fs::read_dir(&root) else {
        return out;
    };
    for d in dirs.flatten() {
        let stem = d.file_name().to_string_lossy().to_string();
        let Ok(files) = std::fs::read_dir(d.path()) else {
            continue;
        };
        for f in files.flatten() {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "json") {
                let name = p.file_stem().unwrap().to_string_lossy().to_string();
                out.push((stem.clone(), name, p));
            }
        }
    }
    out.sort();
    out
}

#[derive(Default)]
struct Tally {
    compared: usize,
    agreed: usize,
    inputs_checked: usize,
    inputs_agreed: usize,
    failures: Vec<String>,
    per_target: BTreeMap<String, (usize, usize)>,
}

fn check_one(
    target: &str,
    desc: &LaunchDescription,
    co: &Path,
    ref_dir: &Path,
    label: &str,
    tally: &Mutex<Tally>,
) {
    let code = match std::fs::read(co) {
        Ok(c) => c,
        Err(e) => {
            record(
                tally,
                target,
                false,
                format!("{label} {target}: cannot read {}: {e}", co.display()),
            );
            return;
        }
    };
    let options = LaunchOptions {
        threads: 1,
        max_instructions: 20_000_000,
    };
    let result = match run_description(desc, &code, None, Some(&ref_dir.join("inputs")), options) {
        Ok(r) => r,
        Err(e) => {
            record(tally, target, false, format!("{label} {target}: {e}"));
            return;
        }
    };
    let mut problems = Vec::new();
    for (bname, actual) in &result.buffers {
        let expected =
            std::fs::read(ref_dir.join(format!("out/{bname}.out.bin"))).unwrap_or_default();
        let buffer = desc.buffer(bname).expect("buffer of the description");
        match desc.output(bname) {
            Some(out) => {
                let c = compare(&out.tolerance, buffer.elem, &expected, actual);
                if !c.passed() {
                    let first = c
                        .first_mismatches
                        .first()
                        .map(|m| {
                            format!(
                                " first at [{}]: expected {} got {}",
                                m.index, m.expected, m.actual
                            )
                        })
                        .unwrap_or_default();
                    problems.push(format!(
                        "{bname}: {} of {} differ{first}",
                        c.mismatches, c.elements
                    ));
                }
            }
            None => {
                let initial = result
                    .inputs
                    .iter()
                    .find(|(n, _)| n == bname)
                    .map(|(_, b)| b);
                if initial != Some(actual) {
                    problems.push(format!("{bname}: not an output but changed"));
                }
            }
        }
    }
    let ok = problems.is_empty();
    record(
        tally,
        target,
        ok,
        format!("{label} {target}: {}", problems.join("; ")),
    );
}

fn record(tally: &Mutex<Tally>, target: &str, ok: bool, message: String) {
    let mut t = tally.lock().unwrap();
    t.compared += 1;
    let e = t.per_target.entry(target.to_string()).or_default();
    e.0 += 1;
    if ok {
        e.1 += 1;
        t.agreed += 1;
    } else {
        t.failures.push(message);
    }
}

#[test]
fn kernels_agree_with_pocl_on_every_target() {
    if !llvm_available() || !pocl_available() {
        eprintln!("skipped: needs LLVM 19 and pocl with pyopencl (.ci/run installs both)");
        return;
    }
    let corpus = corpus();
    let tally = Mutex::new(Tally::default());
    let descs: Vec<_> = descriptions();
    let mut jobs = Vec::new();
    for (stem, name, path) in &descs {
        let text = std::fs::read_to_string(path).unwrap();
        let desc = match LaunchDescription::parse(&text) {
            Ok(d) => d,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        if desc.get("reference").and_then(|v| v.as_str()) != Some("pocl") {
            continue;
        }
        jobs.push((stem.clone(), name.clone(), path.clone(), desc));
    }
    let refs: Mutex<Vec<(usize, Result<PathBuf, String>)>> = Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((stem, name, path, _)) = jobs.get(i) else {
                    break;
                };
                let r = pocl_reference(stem, name, path);
                refs.lock().unwrap().push((i, r));
            });
        }
    });
    let mut refs = refs.into_inner().unwrap();
    refs.sort_by_key(|(i, _)| *i);
    let mut reference_failures = Vec::new();
    let work: Vec<_> = refs
        .into_iter()
        .filter_map(|(i, r)| match r {
            Ok(dir) => Some((i, dir)),
            Err(e) => {
                reference_failures.push(format!("{}/{}: pocl: {e}", jobs[i].0, jobs[i].1));
                None
            }
        })
        .collect();
    // The emulator's generated inputs must be pocl's, byte for byte.
    for (i, dir) in &work {
        let desc = &jobs[*i].3;
        for b in &desc.buffers {
            let ours = b.generate().unwrap();
            let theirs =
                std::fs::read(dir.join(format!("inputs/{}.in.bin", b.name))).unwrap_or_default();
            let mut t = tally.lock().unwrap();
            t.inputs_checked += 1;
            if ours == theirs {
                t.inputs_agreed += 1;
            } else {
                t.failures.push(format!(
                    "{}/{}: buffer {} generated differently from pocl",
                    jobs[*i].0, jobs[*i].1, b.name
                ));
            }
        }
    }
    let pairs: Vec<_> = work
        .iter()
        .flat_map(|(i, dir)| TARGETS.iter().map(move |t| (*i, dir.clone(), *t)))
        .filter(|(i, _, t)| corpus.join(format!("{t}/{}.co", jobs[*i].0)).exists())
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((i, dir, target)) = pairs.get(k) else {
                    break;
                };
                let (stem, name, _, desc) = &jobs[*i];
                let co = corpus.join(format!("{target}/{stem}.co"));
                check_one(target, desc, &co, dir, &format!("{stem}/{name}"), &tally);
            });
        }
    });
    let t = tally.into_inner().unwrap();
    eprintln!(
        "kernels vs pocl: {} descriptions with a pocl reference, {} reference runs failed",
        jobs.len(),
        reference_failures.len()
    );
    for f in &reference_failures {
        eprintln!("  reference failed: {f}");
    }
    eprintln!(
        "inputs: {} buffers compared with pocl's, {} identical",
        t.inputs_checked, t.inputs_agreed
    );
    for (target, (n, ok)) in &t.per_target {
        eprintln!("  {target}: {ok}/{n} agree");
    }
    eprintln!(
        "kernels vs pocl: {} (description, target) pairs compared, {} agree ({:.1}%)",
        t.compared,
        t.agreed,
        100.0 * t.agreed as f64 / t.compared.max(1) as f64
    );
    let mut failures = t.failures.clone();
    failures.sort();
    for f in failures.iter().take(200) {
        eprintln!("  FAIL {f}");
    }
    let floor: usize = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernel-agreement-floor.txt"),
    )
    .ok()
    .and_then(|s| {
        s.lines().find_map(|l| {
            l.strip_prefix("agreed ")
                .and_then(|v| v.trim().parse().ok())
        })
    })
    .unwrap_or(0);
    assert!(
        t.agreed >= floor,
        "{} pairs agree, fewer than the recorded floor of {floor}",
        t.agreed
    );
    assert_eq!(
        t.inputs_agreed, t.inputs_checked,
        "generated inputs differ from pocl's"
    );
}
