//! The emulator loads every kind of file `gcn info` reads, and the kernels it finds there
//! compute what pocl computes from the same OpenCL source:
//!
//! - shared objects of code-object versions 4, 5 and 6 (`clang -mcode-object-version=N`,
//!   linked with `ld.lld -shared`) for gfx700, gfx803, gfx900, gfx90a and gfx942;
//! - the relocatable objects `clang -c` writes for the same kernels (allocatable sections laid
//!   out, section relocations applied, descriptors read after relocation);
//! - offload bundles holding several code objects (`clang-offload-bundler`), chosen with
//!   `--mcpu` (a processor or a target id with xnack/sramecc);
//! - HIP fat binaries (a host executable from `hipcc`, when hipcc is installed).
//!
//! Each launch description of `tests/launch/<stem>/` whose reference is pocl runs through
//! `runner::run_description`, from pocl's own input bytes, and its outputs are compared with
//! the description's tolerances against pocl's outputs (`tools/pocl-ref/pocl_run.py`, cached
//! under `target/emu-ref` exactly as `kernels_vs_pocl.rs` caches them). The code objects are
//! built at test time under `target/emu-loading`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

mod common;

use common::{pocl_available, pocl_reference, repo};
use gcnkit_emu::launch::{compare, LaunchDescription};
use gcnkit_emu::loader::select_code_object;
use gcnkit_emu::runner::{run_description, RunResult};
use gcnkit_emu::{ArgValue, Device, Grid, LaunchOptions};

const CLANG: &str = "/usr/lib/llvm-19/bin/clang";
const LLD: &str = "/usr/lib/llvm-19/bin/ld.lld";
const BUNDLER: &str = "/usr/lib/llvm-19/bin/clang-offload-bundler";

const TARGETS: [&str; 5] = ["gfx700", "gfx803", "gfx900", "gfx90a", "gfx942"];
const VERSIONS: [u8; 3] = [4, 5, 6];
const STEMS: [&str; 5] = [
    "vector_add",
    "int_div",
    "scratch_spill",
    "histogram",
    "reduce_sum",
];

fn work_dir() -> PathBuf {
    repo().join("target/emu-loading")
}

fn llvm_available() -> bool {
    Path::new(CLANG).exists() && Path::new(LLD).exists()
}

fn options() -> LaunchOptions {
    LaunchOptions {
        threads: 1,
        max_instructions: 20_000_000,
    }
}

/// A stable hash of some files and strings, so that a cached build or reference is redone
/// when any of them changes.
fn fingerprint(files: &[PathBuf], extra: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x100_0000_01b3);
    };
    for f in files {
        feed(&std::fs::read(f).unwrap_or_default());
    }
    feed(extra.as_bytes());
    format!("{h:016x}")
}

fn run_tool(program: &str, args: &[&str]) -> Result<(), String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .filter(|l| !l.trim().is_empty())
                .take(3)
                .collect::<Vec<_>>()
                .join(" | ")
        ))
    }
}

/// Compiles `src` for `mcpu` with the corpus flags plus `extra` into `dir/name.o`, and links
/// `dir/name.co`; both are kept while the source, the header and the flags are unchanged.
fn compile(
    src: &Path,
    mcpu: &str,
    extra: &[&str],
    dir: &Path,
    name: &str,
) -> Result<(PathBuf, PathBuf), String> {
    let include = repo().join("tests/kernels");
    let obj = dir.join(format!("{name}.o"));
    let co = dir.join(format!("{name}.co"));
    let stamp_file = dir.join(format!("{name}.stamp"));
    let mut args: Vec<String> = [
        "-target",
        "amdgcn-amd-amdhsa",
        &format!("-mcpu={mcpu}"),
        "-nogpulib",
        "-O2",
        "-x",
        "cl",
        "-cl-std=CL2.0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(format!("-I{}", include.display()));
    args.extend(extra.iter().map(|s| s.to_string()));
    let stamp = fingerprint(&[src.to_path_buf(), include.join("gcn.h")], &args.join(" "));
    if std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str())
        && obj.exists()
        && co.exists()
    {
        return Ok((obj, co));
    }
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&stamp_file);
    let mut cargs: Vec<&str> = args.iter().map(String::as_str).collect();
    cargs.extend(["-c", src.to_str().unwrap(), "-o", obj.to_str().unwrap()]);
    run_tool(CLANG, &cargs)?;
    run_tool(
        LLD,
        &["-shared", obj.to_str().unwrap(), "-o", co.to_str().unwrap()],
    )?;
    std::fs::write(&stamp_file, stamp).map_err(|e| e.to_string())?;
    Ok((obj, co))
}

/// One (target, code-object version) build of every stem.
struct Build {
    target: &'static str,
    version: u8,
    /// Per stem: the relocatable object and the shared object, or why there are none.
    objects: BTreeMap<&'static str, Result<(PathBuf, PathBuf), String>>,
}

/// Every (target, version, stem) built once per test binary, on two threads (the CI
/// machine has two cores). A version clang refuses for a target is recorded, not failed.
fn builds() -> &'static Vec<Build> {
    static BUILDS: OnceLock<Vec<Build>> = OnceLock::new();
    BUILDS.get_or_init(|| {
        let jobs: Vec<(&'static str, u8, &'static str)> = TARGETS
            .iter()
            .flat_map(|t| {
                VERSIONS
                    .iter()
                    .flat_map(move |v| STEMS.iter().map(move |s| (*t, *v, *s)))
            })
            .collect();
        let results = Mutex::new(BTreeMap::new());
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(target, version, stem)) = jobs.get(i) else {
                        break;
                    };
                    let src = repo().join(format!("tests/kernels/{stem}.cl"));
                    let dir = work_dir().join(format!("{target}-v{version}"));
                    let r = compile(
                        &src,
                        target,
                        &[&format!("-mcode-object-version={version}")],
                        &dir,
                        stem,
                    );
                    results.lock().unwrap().insert((target, version, stem), r);
                });
            }
        });
        let mut results = results.into_inner().unwrap();
        let mut out = Vec::new();
        for t in TARGETS {
            for v in VERSIONS {
                let objects = STEMS
                    .iter()
                    .map(|s| (*s, results.remove(&(t, v, *s)).unwrap()))
                    .collect();
                out.push(Build {
                    target: t,
                    version: v,
                    objects,
                });
            }
        }
        out
    })
}

/// Whether clang's error says it does not offer this code-object version for the target
/// (a reason to skip, not a failure).
fn refused_version(error: &str) -> bool {
    error.contains("code object version") || error.contains("code-object-version")
}

/// The launch descriptions of `stem` whose reference is pocl: (name, path, description).
fn pocl_descriptions(stem: &str) -> Vec<(String, PathBuf, LaunchDescription)> {
    let mut out = Vec::new();
    let Ok(files) = std::fs::read_dir(repo().join(format!("tests/launch/{stem}"))) else {
        return out;
    };
    for f in files.flatten() {
        let p = f.path();
        if p.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let desc =
            LaunchDescription::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        if desc.get("reference").and_then(|v| v.as_str()) == Some("pocl") {
            out.push((
                p.file_stem().unwrap().to_string_lossy().to_string(),
                p,
                desc,
            ));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// A description with pocl's reference directory.
struct Case {
    stem: &'static str,
    name: String,
    desc: LaunchDescription,
    reference: PathBuf,
}

/// Every pocl-referenced description of the stems, with its reference (computed once per
/// test binary). Descriptions whose reference run fails are listed in the second part.
fn cases() -> &'static (Vec<Case>, Vec<String>) {
    static CASES: OnceLock<(Vec<Case>, Vec<String>)> = OnceLock::new();
    CASES.get_or_init(|| {
        let descs: Vec<_> = STEMS
            .iter()
            .flat_map(|stem| pocl_descriptions(stem).into_iter().map(move |d| (*stem, d)))
            .collect();
        // pocl compiles each source on first use: two at a time, for the two CI cores.
        let refs = Mutex::new(BTreeMap::new());
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((stem, (name, path, _))) = descs.get(i) else {
                        break;
                    };
                    let r = pocl_reference(stem, name, path);
                    refs.lock().unwrap().insert(i, r);
                });
            }
        });
        let mut refs = refs.into_inner().unwrap();
        let mut cases = Vec::new();
        let mut failed = Vec::new();
        for (i, (stem, (name, _, desc))) in descs.into_iter().enumerate() {
            match refs.remove(&i).unwrap() {
                Ok(reference) => cases.push(Case {
                    stem,
                    name,
                    desc,
                    reference,
                }),
                Err(e) => failed.push(format!("{stem}/{name}: pocl: {e}")),
            }
        }
        (cases, failed)
    })
}

/// Compares a run's buffers with pocl's outputs: outputs within their tolerance, every other
/// buffer unchanged.
fn check_against_pocl(case: &Case, result: &RunResult) -> Result<(), String> {
    let mut problems = Vec::new();
    for (bname, actual) in &result.buffers {
        let buffer = case.desc.buffer(bname).expect("buffer of the description");
        match case.desc.output(bname) {
            Some(out) => {
                let expected = std::fs::read(case.reference.join(format!("out/{bname}.out.bin")))
                    .unwrap_or_default();
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
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// Loads `code` on a fresh device and checks that the loader read the target and version
/// the file was built for and found every kernel the metadata names.
fn check_module(code: &[u8], target: &str, version: Option<u8>) -> Result<Vec<String>, String> {
    let mut device = Device::new();
    let module = device.load(code, None).map_err(|e| format!("load: {e}"))?;
    if module.target.processor.name != target {
        return Err(format!(
            "loaded as {}, built for {target}",
            module.target.processor.name
        ));
    }
    if version.is_some() && module.code_object_version != version {
        return Err(format!(
            "code-object version {:?}, built as {version:?}",
            module.code_object_version
        ));
    }
    Ok(module.kernels.iter().map(|k| k.name.clone()).collect())
}

#[derive(Default)]
struct Tally {
    compared: usize,
    agreed: usize,
    failures: Vec<String>,
    per_kind: BTreeMap<String, (usize, usize)>,
}

impl Tally {
    fn record(&mut self, kind: &str, label: String, outcome: Result<(), String>) {
        self.compared += 1;
        let e = self.per_kind.entry(kind.to_string()).or_default();
        e.0 += 1;
        match outcome {
            Ok(()) => {
                e.1 += 1;
                self.agreed += 1;
            }
            Err(why) => self.failures.push(format!("{label}: {why}")),
        }
    }

    fn report(&self, what: &str) {
        for (kind, (n, ok)) in &self.per_kind {
            eprintln!("  {kind}: {ok}/{n} agree");
        }
        eprintln!(
            "{what}: {} (description, object) pairs compared with pocl, {} agree",
            self.compared, self.agreed
        );
        for f in &self.failures {
            eprintln!("  FAIL {f}");
        }
    }
}

/// Runs every case on the objects `pick` chooses from each build (shared or relocatable),
/// on two threads.
fn run_matrix(relocatable: bool) -> Tally {
    let (cases, failed_refs) = cases();
    for f in failed_refs {
        eprintln!("  reference failed: {f}");
    }
    assert!(
        failed_refs.is_empty(),
        "pocl could not produce every reference"
    );
    let mut jobs = Vec::new();
    let mut skipped = Vec::new();
    let mut build_failures = Vec::new();
    for b in builds() {
        for (stem, r) in &b.objects {
            match r {
                Ok((obj, co)) => {
                    let file = if relocatable { obj } else { co };
                    for case in cases.iter().filter(|c| c.stem == *stem) {
                        jobs.push((b.target, b.version, file.clone(), case));
                    }
                }
                Err(e) if b.version == 6 && refused_version(e) => skipped.push(format!(
                    "{} v{} {stem}: clang refuses: {e}",
                    b.target, b.version
                )),
                Err(e) => build_failures.push(format!("{} v{} {stem}: {e}", b.target, b.version)),
            }
        }
    }
    for s in &skipped {
        eprintln!("  skipped {s}");
    }
    assert!(
        build_failures.is_empty(),
        "builds failed:\n{}",
        build_failures.join("\n")
    );
    let tally = Mutex::new(Tally::default());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((target, version, file, case)) = jobs.get(i) else {
                    break;
                };
                let kind = if relocatable {
                    format!("{target} relocatable (v{version})")
                } else {
                    format!("{target} code object v{version}")
                };
                let label = format!("{}/{} {kind}", case.stem, case.name);
                let outcome = std::fs::read(file)
                    .map_err(|e| format!("cannot read {}: {e}", file.display()))
                    .and_then(|code| {
                        // A relocatable object carries the version in its header too.
                        check_module(&code, target, Some(*version))?;
                        let result = run_description(
                            &case.desc,
                            &code,
                            None,
                            Some(&case.reference.join("inputs")),
                            options(),
                        )
                        .map_err(|e| e.to_string())?;
                        check_against_pocl(case, &result)
                    });
                tally.lock().unwrap().record(&kind, label, outcome);
            });
        }
    });
    tally.into_inner().unwrap()
}

#[test]
fn code_objects_v4_v5_v6_load_and_agree_with_pocl() {
    if !llvm_available() || !pocl_available() {
        eprintln!("skipped: needs LLVM 19 and pocl with pyopencl (.ci/run installs both)");
        return;
    }
    let tally = run_matrix(false);
    tally.report("shared objects v4/v5/v6");
    assert!(tally.compared > 0, "nothing was compared");
    assert_eq!(
        tally.agreed, tally.compared,
        "some code objects disagree with pocl (listed above)"
    );
}

#[test]
fn relocatable_objects_load_and_agree_with_pocl() {
    if !llvm_available() || !pocl_available() {
        eprintln!("skipped: needs LLVM 19 and pocl with pyopencl (.ci/run installs both)");
        return;
    }
    let tally = run_matrix(true);
    tally.report("relocatable objects (clang -c)");
    assert!(tally.compared > 0, "nothing was compared");
    assert_eq!(
        tally.agreed, tally.compared,
        "some relocatable objects disagree with pocl (listed above)"
    );
}

/// A relocatable object and the shared object linked from it describe the same kernels:
/// the loader finds the same names, and the same descriptors once the entry offset (which
/// depends on the layout) is set aside; each entry point is the kernel's function symbol.
#[test]
fn relocatable_and_linked_objects_have_the_same_kernels() {
    if !llvm_available() {
        eprintln!("skipped: needs LLVM 19");
        return;
    }
    let mut compared = 0;
    for b in builds().iter().filter(|b| b.version == 5) {
        for (stem, r) in &b.objects {
            let (obj, co) = r
                .as_ref()
                .unwrap_or_else(|e| panic!("{} {stem}: {e}", b.target));
            let mut d1 = Device::new();
            let m_obj = d1
                .load(&std::fs::read(obj).unwrap(), None)
                .unwrap_or_else(|e| panic!("{}: {e}", obj.display()));
            let mut d2 = Device::new();
            let m_co = d2
                .load(&std::fs::read(co).unwrap(), None)
                .unwrap_or_else(|e| panic!("{}: {e}", co.display()));
            let names = |m: &gcnkit_emu::Module| {
                let mut v: Vec<String> = m.kernels.iter().map(|k| k.name.clone()).collect();
                v.sort();
                v
            };
            assert_eq!(
                names(&m_obj),
                names(&m_co),
                "{} {stem}: kernel names",
                b.target
            );
            assert!(!m_obj.kernels.is_empty(), "{} {stem}: no kernels", b.target);
            for k in &m_obj.kernels {
                let l = m_co.kernel(&k.name).unwrap();
                let mut a = k.descriptor;
                let mut c = l.descriptor;
                a.kernel_code_entry_byte_offset = 0;
                c.kernel_code_entry_byte_offset = 0;
                assert_eq!(a, c, "{} {stem} {}: descriptors differ", b.target, k.name);
                assert_eq!(
                    k.args, l.args,
                    "{} {stem} {}: arguments differ",
                    b.target, k.name
                );
                // The entry must be the kernel's first instructions, the same bytes in both
                // files (a few only: later ones may hold layout-dependent PC offsets).
                let code_obj = d1.read(k.entry, 16).unwrap();
                let code_co = d2.read(l.entry, 16).unwrap();
                assert_eq!(
                    code_obj, code_co,
                    "{} {stem} {}: entry points at different code",
                    b.target, k.name
                );
                compared += 1;
            }
        }
    }
    eprintln!("relocatable vs linked: {compared} kernels compared");
}

/// A table of pointers in constant memory needs the loader's relocations: in a shared
/// object `R_AMDGPU_RELATIVE64` dynamic relocations (the load base plus the addend), in a
/// relocatable object `R_AMDGPU_ABS64` section relocations, besides the PC-relative
/// `R_AMDGPU_REL32_LO/HI` that reach the table. The corpus has no such kernel.
#[test]
fn pointer_tables_are_relocated_in_shared_and_relocatable_objects() {
    if !llvm_available() {
        eprintln!("skipped: needs LLVM 19");
        return;
    }
    let dir = work_dir().join("pointer-tables");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("pointer_tables.cl");
    std::fs::write(
        &src,
        "#include \"gcn.h\"\n\
         constant int lut_a[4] = {10, 20, 30, 40};\n\
         constant int lut_b[4] = {-1, -2, -3, -4};\n\
         constant int lut_c[4] = {7, 0, -7, 1000};\n\
         constant int *constant tables[3] = {lut_a, lut_b, lut_c};\n\
         kernel void pick(global const int *sel, global int *out) {\n\
         \x20 int i = get_global_id(0);\n\
         \x20 out[i] = tables[sel[i] % 3][i & 3];\n\
         }\n",
    )
    .unwrap();
    let tables = [[10, 20, 30, 40], [-1, -2, -3, -4], [7, 0, -7, 1000]];
    let sel: Vec<i32> = (0..256).map(|i| (i * 7 + i / 5) % 101).collect();
    let want: Vec<i32> = (0..256)
        .map(|i| tables[(sel[i] % 3) as usize][i & 3])
        .collect();
    let readelf = "/usr/lib/llvm-19/bin/llvm-readelf";
    let mut runs = 0;
    for target in TARGETS {
        for version in VERSIONS {
            let name = format!("{target}-v{version}");
            let (obj, co) = match compile(
                &src,
                target,
                &[&format!("-mcode-object-version={version}")],
                &dir,
                &name,
            ) {
                Ok(r) => r,
                Err(e) if version == 6 && refused_version(&e) => {
                    eprintln!("skipped {name}: clang refuses: {e}");
                    continue;
                }
                Err(e) => panic!("{name}: {e}"),
            };
            // The files must hold the relocations this test is about.
            if Path::new(readelf).exists() {
                for (file, kind) in [(&co, "R_AMDGPU_RELATIVE64"), (&obj, "R_AMDGPU_ABS64")] {
                    let out = Command::new(readelf).arg("-r").arg(file).output().unwrap();
                    assert!(
                        String::from_utf8_lossy(&out.stdout).contains(kind),
                        "{}: no {kind} relocation",
                        file.display()
                    );
                }
            }
            for file in [&co, &obj] {
                let mut device = Device::new();
                device.set_options(options());
                let module = device
                    .load(&std::fs::read(file).unwrap(), None)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                let sel_addr = device.allocate(4 * 256).unwrap();
                let sel_bytes: Vec<u8> = sel.iter().flat_map(|x| x.to_le_bytes()).collect();
                device.write(sel_addr, &sel_bytes).unwrap();
                let out_addr = device.allocate(4 * 256).unwrap();
                let args = [
                    ArgValue::Bytes(sel_addr.to_le_bytes().to_vec()),
                    ArgValue::Bytes(out_addr.to_le_bytes().to_vec()),
                ];
                device
                    .launch(&module, "pick", &Grid::linear(256, 64), &args)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                let got: Vec<i32> = device
                    .read(out_addr, 4 * 256)
                    .unwrap()
                    .chunks_exact(4)
                    .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
                    .collect();
                assert_eq!(got, want, "{}", file.display());
                runs += 1;
            }
        }
    }
    eprintln!("pointer tables: {runs} objects (shared and relocatable) agree with the host");
}

/// A relocatable object that calls a function defined elsewhere cannot run: loading says
/// which symbol is missing and what to do.
#[test]
fn a_relocatable_object_with_an_undefined_symbol_is_a_clear_error() {
    if !llvm_available() {
        eprintln!("skipped: needs LLVM 19");
        return;
    }
    let dir = work_dir().join("undefined");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("calls_extern.cl");
    std::fs::write(
        &src,
        "int helper_defined_elsewhere(int x);\n\
         kernel void calls_extern(global int *p) { p[get_global_id(0)] = helper_defined_elsewhere(p[0]); }\n",
    )
    .unwrap();
    let obj = dir.join("calls_extern.o");
    run_tool(
        CLANG,
        &[
            "-target",
            "amdgcn-amd-amdhsa",
            "-mcpu=gfx90a",
            "-nogpulib",
            "-O2",
            "-x",
            "cl",
            "-cl-std=CL2.0",
            "-c",
            src.to_str().unwrap(),
            "-o",
            obj.to_str().unwrap(),
        ],
    )
    .unwrap();
    let err = Device::new()
        .load(&std::fs::read(&obj).unwrap(), None)
        .err()
        .expect("an object with an undefined function must not load");
    let msg = err.to_string();
    eprintln!("undefined symbol: {msg}");
    assert!(
        msg.contains("helper_defined_elsewhere"),
        "names the symbol: {msg}"
    );
    assert!(msg.contains("undefined"), "says it is undefined: {msg}");
}

/// Code built for a generic target (`gfx9-generic`, code-object v6 only) either runs, with
/// the right result, or is refused with an error naming the processor.
#[test]
fn generic_targets_run_or_are_refused_by_name() {
    if !llvm_available() {
        eprintln!("skipped: needs LLVM 19");
        return;
    }
    let dir = work_dir().join("generic");
    let (_, co) = match compile(
        &repo().join("tests/kernels/vector_add.cl"),
        "gfx9-generic",
        &["-mcode-object-version=6"],
        &dir,
        "vector_add",
    ) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("skipped: clang does not build gfx9-generic: {e}");
            return;
        }
    };
    let code = std::fs::read(&co).unwrap();
    match Device::new().load(&code, None) {
        Err(e) => {
            let msg = e.to_string();
            eprintln!("gfx9-generic: {msg}");
            assert!(msg.contains("gfx9-generic"), "names the processor: {msg}");
        }
        Ok(_) => {
            let (result, x, y0) = run_saxpy(&code, None);
            check_saxpy(&result, &x, &y0).unwrap();
            eprintln!("gfx9-generic: runs and agrees with the host");
        }
    }
}

/// The saxpy description of the corpus (`y = fma(a, x, y)` over 1000 of 1024 items), run on
/// `code`; returns the result and the inputs.
fn run_saxpy(code: &[u8], mcpu: Option<&str>) -> (RunResult, Vec<f32>, Vec<f32>) {
    let text = std::fs::read_to_string(repo().join("tests/launch/vector_add/saxpy.json")).unwrap();
    let desc = LaunchDescription::parse(&text).unwrap();
    let result = run_description(&desc, code, mcpu, None, options())
        .unwrap_or_else(|e| panic!("saxpy: {e}"));
    let floats = |b: &[u8]| -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let input = |n: &str| floats(&result.inputs.iter().find(|(b, _)| b == n).unwrap().1);
    let (x, y0) = (input("x"), input("y"));
    (result, x, y0)
}

/// saxpy's `y` against the host's correctly rounded fused multiply-add (a = 2.5, n = 1000).
fn check_saxpy(result: &RunResult, x: &[f32], y0: &[f32]) -> Result<(), String> {
    let y: Vec<f32> = result
        .buffer("y")
        .unwrap()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    if y.len() != 1000 {
        return Err(format!("y has {} elements", y.len()));
    }
    for i in 0..1000 {
        let want = 2.5f32.mul_add(x[i], y0[i]);
        if y[i].to_bits() != want.to_bits() {
            return Err(format!("y[{i}] = {} (host: {want})", y[i]));
        }
    }
    Ok(())
}

fn bundle(entries: &[(&str, &Path)], output: &Path) -> Result<(), String> {
    let mut targets = vec!["host-x86_64-unknown-linux-gnu".to_string()];
    let mut args = vec!["-type=o".to_string()];
    let mut inputs = vec!["-input=/dev/null".to_string()];
    for (id, file) in entries {
        targets.push(format!("hipv4-amdgcn-amd-amdhsa--{id}"));
        inputs.push(format!("-input={}", file.display()));
    }
    args.push(format!("-targets={}", targets.join(",")));
    args.extend(inputs);
    args.push(format!("-output={}", output.display()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_tool(BUNDLER, &args)
}

#[test]
fn offload_bundles_are_chosen_with_mcpu() {
    if !llvm_available() || !Path::new(BUNDLER).exists() {
        eprintln!("skipped: needs LLVM 19 with clang-offload-bundler");
        return;
    }
    let dir = work_dir().join("bundles");
    let src = repo().join("tests/kernels/vector_add.cl");
    let build = |mcpu: &str, name: &str| {
        compile(&src, mcpu, &[], &dir, name)
            .unwrap_or_else(|e| panic!("{e}"))
            .1
    };
    let gfx900 = build("gfx900", "gfx900");
    let gfx90a = build("gfx90a", "gfx90a");
    let two = dir.join("two.bundle.o");
    bundle(&[("gfx900", &gfx900), ("gfx90a", &gfx90a)], &two).unwrap();
    let file = std::fs::read(&two).unwrap();

    // --mcpu picks exactly the code object built for that processor.
    for (cpu, co) in [("gfx900", &gfx900), ("gfx90a", &gfx90a)] {
        let picked = select_code_object(&file, Some(cpu)).unwrap_or_else(|e| panic!("{cpu}: {e}"));
        assert!(
            picked == std::fs::read(co).unwrap(),
            "--mcpu {cpu} picked another code object"
        );
        let module = Device::new().load(&file, Some(cpu)).unwrap();
        assert_eq!(module.target.processor.name, cpu);
        let (result, x, y0) = run_saxpy(&file, Some(cpu));
        check_saxpy(&result, &x, &y0).unwrap_or_else(|e| panic!("bundle, --mcpu {cpu}: {e}"));
    }

    // Without --mcpu, the error lists what the bundle holds.
    let msg = Device::new()
        .load(&file, None)
        .err()
        .expect("two code objects need --mcpu")
        .to_string();
    eprintln!("no --mcpu: {msg}");
    for want in [
        "2 code objects",
        "hipv4-amdgcn-amd-amdhsa--gfx900",
        "hipv4-amdgcn-amd-amdhsa--gfx90a",
        "--mcpu",
    ] {
        assert!(msg.contains(want), "says '{want}': {msg}");
    }
    // A processor the bundle lacks, and one that does not exist, are named.
    let msg = Device::new()
        .load(&file, Some("gfx942"))
        .err()
        .expect("no gfx942 code object")
        .to_string();
    eprintln!("--mcpu gfx942: {msg}");
    for want in [
        "gfx942",
        "hipv4-amdgcn-amd-amdhsa--gfx900",
        "hipv4-amdgcn-amd-amdhsa--gfx90a",
    ] {
        assert!(msg.contains(want), "says '{want}': {msg}");
    }
    let msg = Device::new()
        .load(&file, Some("gfx9999"))
        .err()
        .expect("no such processor")
        .to_string();
    eprintln!("--mcpu gfx9999: {msg}");
    assert!(msg.contains("gfx9999") && msg.contains("unknown"), "{msg}");
    // So is an --mcpu through the runner, with no half-run.
    let text = std::fs::read_to_string(repo().join("tests/launch/vector_add/saxpy.json")).unwrap();
    let desc = LaunchDescription::parse(&text).unwrap();
    let err = run_description(&desc, &file, Some("gfx803"), None, options())
        .expect_err("no gfx803 code object");
    assert!(err.to_string().contains("gfx803"), "{err}");

    // One code object in a bundle needs no --mcpu.
    let one = dir.join("one.bundle.o");
    bundle(&[("gfx90a", &gfx90a)], &one).unwrap();
    let file1 = std::fs::read(&one).unwrap();
    assert_eq!(
        Device::new()
            .load(&file1, None)
            .unwrap()
            .target
            .processor
            .name,
        "gfx90a"
    );
    let (result, x, y0) = run_saxpy(&file1, None);
    check_saxpy(&result, &x, &y0).unwrap();

    // Target ids: xnack+ and xnack- builds of one processor, and an "any" build. An exact
    // setting wins over "any"; a conflicting one is never taken.
    let any = gfx90a;
    let on = build("gfx90a:xnack+", "gfx90a-xnack-on");
    let off = build("gfx90a:xnack-", "gfx90a-xnack-off");
    let pick = |f: &[u8], cpu: &str| {
        select_code_object(f, Some(cpu)).unwrap_or_else(|e| panic!("{cpu}: {e}"))
    };
    let bytes = |p: &Path| std::fs::read(p).unwrap();
    // clang-offload-bundler refuses to put "any" and xnack- side by side, but a runtime
    // meets such files (bundles written by other tools): write one by hand.
    let file_ids = handmade_bundle(&[
        ("hipv4-amdgcn-amd-amdhsa--gfx90a", &bytes(&any)),
        ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", &bytes(&off)),
    ]);
    assert!(
        pick(&file_ids, "gfx90a:xnack-") == bytes(&off),
        "xnack- takes the xnack- build"
    );
    assert!(
        pick(&file_ids, "gfx90a:xnack+") == bytes(&any),
        "xnack+ takes the any build, not xnack-"
    );
    let strict = dir.join("strict.bundle.o");
    bundle(&[("gfx90a:xnack+", &on), ("gfx90a:xnack-", &off)], &strict).unwrap();
    let file_strict = std::fs::read(&strict).unwrap();
    assert!(pick(&file_strict, "gfx90a:xnack-") == bytes(&off));
    assert!(pick(&file_strict, "gfx90a:xnack+") == bytes(&on));
    let (result, x, y0) = run_saxpy(&file_strict, Some("gfx90a:xnack-"));
    check_saxpy(&result, &x, &y0).unwrap();
    eprintln!(
        "offload bundles: selection by processor and target id checked, saxpy agrees with the host"
    );
}

/// An uncompressed offload bundle in clang-offload-bundler's layout: magic, entry count,
/// then per entry (offset, size, id length, id), then the code objects, 4096-aligned.
fn handmade_bundle(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut header = b"__CLANG_OFFLOAD_BUNDLE__".to_vec();
    header.extend_from_slice(&(entries.len() as u64 + 1).to_le_bytes());
    let header_len: usize = header.len()
        + 3 * 8 * (entries.len() + 1)
        + "host-x86_64-unknown-linux-gnu".len()
        + entries.iter().map(|(id, _)| id.len()).sum::<usize>();
    let mut offset = header_len.div_ceil(4096) * 4096;
    let mut body = Vec::new();
    // The host entry is empty, as with -input=/dev/null.
    for (id, data) in [("host-x86_64-unknown-linux-gnu", &[][..])]
        .into_iter()
        .chain(entries.iter().copied())
    {
        header.extend_from_slice(&(offset as u64).to_le_bytes());
        header.extend_from_slice(&(data.len() as u64).to_le_bytes());
        header.extend_from_slice(&(id.len() as u64).to_le_bytes());
        header.extend_from_slice(id.as_bytes());
        body.push((offset, data));
        offset = (offset + data.len()).div_ceil(4096) * 4096;
    }
    assert_eq!(header.len(), header_len);
    let mut file = header;
    for (at, data) in body {
        file.resize(at, 0);
        file.extend_from_slice(data);
    }
    file
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(program))
            .find(|p| p.is_file())
    })
}

/// A HIP program's kernels, taken from the host executable's fat binary, run with
/// arguments set up by hand (the hidden ones are the loader's and dispatcher's job).
#[test]
fn hip_fat_binary_kernels_run_from_the_host_executable() {
    let Some(hipcc) = find_on_path("hipcc") else {
        eprintln!("skipped: hipcc is not installed (Debian packages hipcc and libamdhip64-dev)");
        return;
    };
    let dir = work_dir().join("hip");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("vadd.hip");
    std::fs::write(
        &src,
        "#include <hip/hip_runtime.h>\n\
         __global__ void vadd(float *a, const float *b, const float *c, int n) {\n\
         \x20 int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
         \x20 if (i < n) a[i] = b[i] + c[i];\n\
         }\n\
         int main() { return 0; }\n",
    )
    .unwrap();
    let exe = dir.join("vadd");
    let _ = std::fs::remove_file(&exe);
    let out = Command::new(&hipcc)
        .args(["--offload-arch=gfx900", "--offload-arch=gfx90a", "-O2"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("hipcc runs");
    assert!(
        out.status.success() && exe.exists(),
        "hipcc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = std::fs::read(&exe).unwrap();

    let msg = Device::new()
        .load(&file, None)
        .err()
        .expect("two code objects need --mcpu")
        .to_string();
    assert!(
        msg.contains("gfx900") && msg.contains("gfx90a") && msg.contains("--mcpu"),
        "{msg}"
    );

    // The Itanium-mangled name of vadd(float*, const float*, const float*, int), as the
    // metadata's `.name` gives it.
    const KERNEL: &str = "_Z4vaddPfPKfS1_i";
    const N: usize = 1000;
    let b: Vec<f32> = (0..N).map(|i| i as f32 * 0.37 - 100.0).collect();
    let c: Vec<f32> = (0..N).map(|i| 1.0 / (i as f32 + 3.0)).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    for cpu in ["gfx90a", "gfx900"] {
        let mut device = Device::new();
        device.set_options(options());
        let module = device
            .load(&file, Some(cpu))
            .unwrap_or_else(|e| panic!("{cpu}: {e}"));
        assert_eq!(module.target.processor.name, cpu);
        assert!(
            module.kernel(KERNEL).is_some(),
            "{cpu}: no kernel {KERNEL}; found {:?}",
            module.kernels.iter().map(|k| &k.name).collect::<Vec<_>>()
        );
        // 1024 slots: the last 24 hold a sentinel the kernel must not touch (n = 1000).
        let a = device.allocate(4 * 1024).unwrap();
        device.write(a, &[0xA5; 4 * 1024]).unwrap();
        let bp = device.allocate(4 * N as u64).unwrap();
        device.write(bp, &bytes(&b)).unwrap();
        let cp = device.allocate(4 * N as u64).unwrap();
        device.write(cp, &bytes(&c)).unwrap();
        let args = [
            ArgValue::Bytes(a.to_le_bytes().to_vec()),
            ArgValue::Bytes(bp.to_le_bytes().to_vec()),
            ArgValue::Bytes(cp.to_le_bytes().to_vec()),
            ArgValue::Bytes((N as i32).to_le_bytes().to_vec()),
        ];
        let stats = device
            .launch(&module, KERNEL, &Grid::linear(1024, 256), &args)
            .unwrap_or_else(|e| panic!("{cpu}: {e}"));
        assert_eq!(stats.workgroups, 4);
        let got = device.read(a, 4 * 1024).unwrap();
        for i in 0..N {
            let v = f32::from_le_bytes(got[4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(
                v.to_bits(),
                (b[i] + c[i]).to_bits(),
                "{cpu}: a[{i}] = {v}, host {}",
                b[i] + c[i]
            );
        }
        assert!(
            got[4 * N..].iter().all(|&x| x == 0xA5),
            "{cpu}: wrote past n"
        );
        eprintln!("HIP fat binary, {cpu}: {KERNEL} agrees with the host on {N} elements");
    }
}
