//! The launch descriptions whose `reference` is `manual` (kernels built on AMD wave builtins
//! or half arithmetic, which pocl cannot run) are checked here against hand-written
//! references (`manual/`): each description runs under the emulator on every corpus target
//! that has its kernel (`scripts/build-kernels.sh`; a description's `targets` key narrows the
//! list), and its outputs are compared, with the description's tolerances, with the reference
//! computed for that target from the same initial buffers. Buffers that are not outputs must
//! be unchanged.
//!
//! The test prints how many (description, target) pairs it compared and how many agreed; it
//! fails when fewer agree than `kernel-manual-floor.txt` records, or when a reference cannot
//! be computed.

mod manual;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use gcnkit_emu::launch::{compare, LaunchDescription};
use gcnkit_emu::runner::run_description;
use gcnkit_emu::LaunchOptions;

use manual::{Memory, Target};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

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

/// One description with a manual reference.
struct Job {
    stem: String,
    name: String,
    desc: LaunchDescription,
    initial: Memory,
    targets: Vec<Target>,
}

/// Every description whose `reference` is `manual`, with its initial buffers and targets.
fn manual_jobs() -> Vec<Job> {
    let root = repo().join("tests/launch");
    let mut paths = Vec::new();
    for d in std::fs::read_dir(&root).expect("tests/launch").flatten() {
        for f in std::fs::read_dir(d.path()).into_iter().flatten().flatten() {
            if f.path().extension().is_some_and(|e| e == "json") {
                paths.push((d.file_name().to_string_lossy().to_string(), f.path()));
            }
        }
    }
    paths.sort();
    let mut jobs = Vec::new();
    for (stem, path) in paths {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let desc =
            LaunchDescription::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if desc.get("reference").and_then(|v| v.as_str()) != Some("manual") {
            continue;
        }
        let mut initial = Memory::default();
        for b in &desc.buffers {
            let bytes = b
                .generate()
                .unwrap_or_else(|e| panic!("{}: buffer {}: {e}", path.display(), b.name));
            initial.bufs.insert(b.name.clone(), bytes);
        }
        let targets = manual::description_targets(&desc)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        jobs.push(Job {
            stem,
            name,
            desc,
            initial,
            targets,
        });
    }
    jobs
}

#[derive(Default)]
struct Tally {
    compared: usize,
    agreed: usize,
    failures: Vec<String>,
    per_target: BTreeMap<String, (usize, usize)>,
}

impl Tally {
    fn record(&mut self, target: &str, ok: bool, message: String) {
        self.compared += 1;
        let e = self.per_target.entry(target.to_string()).or_default();
        e.0 += 1;
        if ok {
            e.1 += 1;
            self.agreed += 1;
        } else {
            self.failures.push(message);
        }
    }
}

/// Compares final buffers with the expected ones: outputs under their tolerances, every other
/// buffer byte for byte with its initial contents. Returns the problems found.
fn differences(
    desc: &LaunchDescription,
    initial: &Memory,
    expected: &Memory,
    actual: &[(String, Vec<u8>)],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (bname, got) in actual {
        let buffer = desc.buffer(bname).expect("buffer of the description");
        match desc.output(bname) {
            Some(out) => {
                let want = &expected.bufs[bname];
                let c = compare(&out.tolerance, buffer.elem, want, got);
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
                if initial.bufs.get(bname) != Some(got) {
                    problems.push(format!("{bname}: not an output but changed"));
                }
            }
        }
    }
    problems
}

#[test]
fn manual_references_agree_with_the_emulator_on_every_target() {
    if !llvm_available() {
        eprintln!("skipped: needs LLVM 19 (/usr/lib/llvm-19/bin/clang) to build the kernel corpus");
        return;
    }
    let corpus = corpus();
    let jobs = manual_jobs();
    let pairs: Vec<(usize, Target)> = jobs
        .iter()
        .enumerate()
        .flat_map(|(i, j)| j.targets.iter().map(move |t| (i, *t)))
        .filter(|(i, t)| {
            // A description without `targets` applies wherever its kernel file was built; one
            // with `targets` names code objects that must exist.
            jobs[*i].desc.get("targets").is_some()
                || corpus
                    .join(format!("{}/{}.co", t.name, jobs[*i].stem))
                    .exists()
        })
        .collect();
    let tally = Mutex::new(Tally::default());
    let reference_failures = Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((i, target)) = pairs.get(k) else {
                    break;
                };
                let job = &jobs[*i];
                let label = format!("{}/{} {}", job.stem, job.name, target.name);
                let expected = match manual::reference(&job.stem, &job.desc, *target, &job.initial)
                {
                    Ok(m) => m,
                    Err(e) => {
                        reference_failures
                            .lock()
                            .unwrap()
                            .push(format!("{label}: {e}"));
                        tally.lock().unwrap().record(
                            target.name,
                            false,
                            format!("{label}: no reference: {e}"),
                        );
                        continue;
                    }
                };
                let co = corpus.join(format!("{}/{}.co", target.name, job.stem));
                let code = match std::fs::read(&co) {
                    Ok(c) => c,
                    Err(e) => {
                        tally.lock().unwrap().record(
                            target.name,
                            false,
                            format!("{label}: cannot read {}: {e}", co.display()),
                        );
                        continue;
                    }
                };
                let options = LaunchOptions {
                    threads: 1,
                    max_instructions: 20_000_000,
                };
                let outcome = match run_description(&job.desc, &code, None, None, options) {
                    Ok(r) => {
                        let mut problems = Vec::new();
                        // The emulator must start from the bytes the reference started from.
                        for (bname, bytes) in &r.inputs {
                            if job.initial.bufs.get(bname) != Some(bytes) {
                                problems.push(format!(
                                    "{bname}: initial contents differ from the description's"
                                ));
                            }
                        }
                        problems.extend(differences(
                            &job.desc,
                            &job.initial,
                            &expected,
                            &r.buffers,
                        ));
                        problems
                    }
                    Err(e) => vec![e.to_string()],
                };
                let ok = outcome.is_empty();
                tally.lock().unwrap().record(
                    target.name,
                    ok,
                    format!("{label}: {}", outcome.join("; ")),
                );
            });
        }
    });
    let t = tally.into_inner().unwrap();
    let reference_failures = reference_failures.into_inner().unwrap();
    eprintln!(
        "kernels vs manual references: {} descriptions, {} (description, target) pairs",
        jobs.len(),
        pairs.len()
    );
    for (target, (n, ok)) in &t.per_target {
        eprintln!("  {target}: {ok}/{n} agree");
    }
    eprintln!(
        "kernels vs manual references: {} pairs compared, {} agree ({:.1}%)",
        t.compared,
        t.agreed,
        100.0 * t.agreed as f64 / t.compared.max(1) as f64
    );
    let mut failures = t.failures.clone();
    failures.sort();
    for f in failures.iter().take(300) {
        eprintln!("  FAIL {f}");
    }
    assert!(
        reference_failures.is_empty(),
        "references could not be computed: {reference_failures:#?}"
    );
    let floor: usize = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernel-manual-floor.txt"),
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
}

/// Every manual description has a reference for each of its targets, and the reference
/// changes only the description's outputs (no LLVM needed).
#[test]
fn every_manual_description_has_a_reference() {
    let jobs = manual_jobs();
    assert!(!jobs.is_empty(), "no description has a manual reference");
    let mut problems = Vec::new();
    for job in &jobs {
        for t in &job.targets {
            // Kernel files named mfma_* are built for matrix-core targets only.
            if job.stem.starts_with("mfma_") && !t.has_mfma() {
                continue;
            }
            match manual::reference(&job.stem, &job.desc, *t, &job.initial) {
                Ok(after) => {
                    for (name, bytes) in &after.bufs {
                        if job.desc.output(name).is_none() && job.initial.bufs[name] != *bytes {
                            problems.push(format!(
                                "{}/{} {}: the reference changes {name}, which is not an output",
                                job.stem, job.name, t.name
                            ));
                        }
                    }
                }
                Err(e) => problems.push(format!("{}/{} {}: {e}", job.stem, job.name, t.name)),
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
