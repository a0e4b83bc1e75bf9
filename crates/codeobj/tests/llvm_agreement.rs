//! Code objects built by clang-19 for every gcnkit target and code-object versions 4, 5, 6,
//! decoded by gcnkit and compared with LLVM's own view of the same bytes:
//! - ELF header and e_flags with `llvm-readelf -h`;
//! - every metadata key and value with `llvm-readelf --notes`;
//! - every kernel-descriptor field with `llvm-objdump -D -j .rodata` (LLVM's descriptor
//!   decoder) and with the `.amdhsa_*` directives clang writes in its `-S` output;
//! - kernel names and entry points with `llvm-nm`.
//!
//! Skipped with a note when LLVM 19 is not installed (CI installs llvm-19, clang-19, lld-19).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use common::*;
use gcnkit_codeobj::directives::amdhsa_directives;
use gcnkit_codeobj::pgm_rsrc::Rsrc3Gfx90a;
use gcnkit_codeobj::registers::vgpr_granule;
use gcnkit_codeobj::{CodeObjectInfo, KernelInfo};

const TARGETS: &[&str] = &[
    "gfx600", "gfx700", "gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
];
/// Kernels with scratch, structs, calls, atomics, LDS and (on MFMA targets) AGPRs.
const SOURCES: &[&str] = &[
    "vector_add",
    "scratch_spill",
    "struct_args",
    "matmul_tiled",
    "calls",
    "mfma_gemm",
];

#[derive(Default)]
struct Tally {
    objects: usize,
    kernels: usize,
    header_fields: usize,
    metadata_leaves: usize,
    objdump_fields: usize,
    asm_fields: usize,
    entries: usize,
    errors: Vec<String>,
}

fn has_mfma(target: &str) -> bool {
    matches!(target, "gfx908" | "gfx90a" | "gfx942")
}

/// (target, code-object version, source): every source at v5 (clang's default), two at v4 and v6.
fn jobs() -> Vec<(&'static str, u8, &'static str)> {
    let mut jobs = Vec::new();
    for &t in TARGETS {
        for &s in SOURCES {
            if s == "mfma_gemm" && !has_mfma(t) {
                continue;
            }
            jobs.push((t, 5, s));
            if matches!(s, "vector_add" | "scratch_spill") {
                jobs.push((t, 4, s));
                jobs.push((t, 6, s));
            }
        }
    }
    jobs
}

fn build(out: &Path, target: &str, version: u8, source: &str) -> (PathBuf, PathBuf, PathBuf) {
    let src_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kernels");
    let base = out.join(format!("{source}-{target}-v{version}"));
    let (s, o, co) = (
        base.with_extension("s"),
        base.with_extension("o"),
        base.with_extension("co"),
    );
    let src = format!("{src_dir}/{source}.cl");
    let (mcpu, cov) = (
        format!("-mcpu={target}"),
        format!("-mcode-object-version={version}"),
    );
    let include = format!("-I{src_dir}");
    let flags = [
        "-target",
        "amdgcn-amd-amdhsa",
        &mcpu,
        &cov,
        "-nogpulib",
        "-O2",
        "-x",
        "cl",
        "-cl-std=CL2.0",
        &include,
    ];
    for (mode, file) in [("-S", &s), ("-c", &o)] {
        let mut args: Vec<&str> = flags.to_vec();
        args.extend([mode, &src, "-o", file.to_str().unwrap()]);
        run_ok("clang", &args);
    }
    run_ok(
        "ld.lld",
        &["-shared", o.to_str().unwrap(), "-o", co.to_str().unwrap()],
    );
    (s, o, co)
}

#[test]
fn decoded_code_objects_agree_with_llvm_19() {
    if ["clang", "ld.lld", "llvm-readelf", "llvm-objdump", "llvm-nm"]
        .iter()
        .any(|t| llvm_tool(t).is_none())
    {
        println!("note: LLVM 19 not found in {LLVM_BIN}; skipping the LLVM agreement test");
        return;
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("codeobj-llvm-agreement");
    std::fs::create_dir_all(&out).unwrap();
    let jobs = jobs();
    let next = Mutex::new(0usize);
    let tally = Mutex::new(Tally::default());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(&(target, version, source)) = jobs.get(i) else {
                    break;
                };
                let files = build(&out, target, version, source);
                let mut t = Tally::default();
                compare_object(&files, version, &mut t);
                let mut all = tally.lock().unwrap();
                merge(&mut all, t, &format!("{source} {target} v{version}"));
            });
        }
    });
    let t = tally.into_inner().unwrap();
    println!(
        "LLVM agreement: {} code objects ({} builds, .o and .co), {} kernels; agreed on {} header fields, \
         {} metadata leaves, {} descriptor fields vs llvm-objdump, {} vs clang -S, {} entry points; {} disagreements",
        t.objects, jobs.len(), t.kernels, t.header_fields, t.metadata_leaves, t.objdump_fields, t.asm_fields, t.entries, t.errors.len()
    );
    for e in t.errors.iter().take(40) {
        println!("  {e}");
    }
    assert!(
        t.errors.is_empty(),
        "{} disagreements with LLVM",
        t.errors.len()
    );
    assert!(
        t.kernels > 100 && t.objdump_fields > 1000,
        "too little was compared"
    );
}

fn merge(all: &mut Tally, t: Tally, label: &str) {
    all.objects += t.objects;
    all.kernels += t.kernels;
    all.header_fields += t.header_fields;
    all.metadata_leaves += t.metadata_leaves;
    all.objdump_fields += t.objdump_fields;
    all.asm_fields += t.asm_fields;
    all.entries += t.entries;
    all.errors
        .extend(t.errors.into_iter().map(|e| format!("{label}: {e}")));
}

fn compare_object((s, o, co): &(PathBuf, PathBuf, PathBuf), version: u8, t: &mut Tally) {
    for path in [o, co] {
        let bytes = std::fs::read(path).unwrap();
        let info = match CodeObjectInfo::read(&bytes) {
            Ok(i) => i,
            Err(e) => return t.errors.push(format!("{}: {e}", path.display())),
        };
        t.objects += 1;
        if info.code_object_version() != Some(version) {
            t.errors.push(format!(
                "code object version {:?}, built {version}",
                info.code_object_version()
            ));
        }
        t.header_fields += compare_header(&info, &readelf_header(path), &mut t.errors);
        compare_metadata(&info, path, t);
        compare_kernel_names(&info, path, t);
        if path == co {
            t.kernels += info.kernels.len();
            compare_entries(&info, path, t);
            compare_objdump(&info, path, t);
            compare_asm(&info, s, t);
        }
    }
}

fn compare_metadata(info: &CodeObjectInfo<'_>, path: &Path, t: &mut Tally) {
    match (&info.metadata, readelf_metadata(path)) {
        (Some(ours), Some(llvm)) => {
            t.metadata_leaves += compare_tree(&ours.root, &llvm, "", &mut t.errors)
        }
        (ours, llvm) => t.errors.push(format!(
            "metadata present: gcnkit {}, llvm-readelf {}",
            ours.is_some(),
            llvm.is_some()
        )),
    }
}

fn compare_kernel_names(info: &CodeObjectInfo<'_>, path: &Path, t: &mut Tally) {
    let mut ours: Vec<String> = info.kernels.iter().map(|k| k.name.clone()).collect();
    let mut nm: Vec<String> = nm_symbols(path)
        .into_iter()
        .filter_map(|(n, _)| n.strip_suffix(".kd").map(str::to_string))
        .collect();
    ours.sort();
    nm.sort();
    if ours != nm {
        t.errors
            .push(format!("kernels: gcnkit {ours:?}, llvm-nm {nm:?}"));
    }
    for k in &info.kernels {
        if k.metadata_index.is_none() {
            t.errors
                .push(format!("kernel {} has no metadata entry", k.name));
        }
    }
}

fn compare_entries(info: &CodeObjectInfo<'_>, path: &Path, t: &mut Tally) {
    let nm: BTreeMap<String, u64> = nm_symbols(path).into_iter().collect();
    for k in &info.kernels {
        let ours = info.entry_address(k);
        if ours == nm.get(&k.name).copied() {
            t.entries += 1;
        } else {
            t.errors.push(format!(
                "{}: entry gcnkit {ours:x?}, llvm-nm {:x?}",
                k.name,
                nm.get(&k.name)
            ));
        }
    }
}

/// LLVM's descriptor decoder (llvm-objdump on the `.kd` symbols); it aborts on gfx6/gfx7.
fn compare_objdump(info: &CodeObjectInfo<'_>, path: &Path, t: &mut Tally) {
    let gen = info.gen().expect("gcnkit target");
    if gen.is_si_ci() {
        return;
    }
    let text = run_ok(
        "llvm-objdump",
        &["-D", "-j", ".rodata", path.to_str().unwrap()],
    );
    let blocks: BTreeMap<String, Vec<(String, u64)>> = amdhsa_blocks(&text).into_iter().collect();
    for k in &info.kernels {
        let Some(llvm) = blocks.get(&k.name) else {
            t.errors
                .push(format!("{}: llvm-objdump printed no descriptor", k.name));
            continue;
        };
        let ours = amdhsa_directives(
            k.descriptor.as_ref().unwrap(),
            gen,
            info.code_object_version().unwrap(),
        );
        let ours: BTreeMap<String, u64> =
            ours.into_iter().map(|(n, v)| (n.to_string(), v)).collect();
        let llvm: BTreeMap<String, u64> = llvm.iter().cloned().collect();
        for (name, v) in &llvm {
            match ours.get(name) {
                Some(o) if o == v => t.objdump_fields += 1,
                o => t.errors.push(format!(
                    "{}: .{name} gcnkit {o:?}, llvm-objdump {v}",
                    k.name
                )),
            }
        }
        for name in ours.keys().filter(|n| !llvm.contains_key(*n)) {
            t.errors
                .push(format!("{}: .{name} printed by gcnkit only", k.name));
        }
    }
}

/// The `.amdhsa_*` values clang wrote (the compiler's intent). Register counts are exact
/// before rounding to granules, so they are checked against the rounding rule instead.
fn compare_asm(info: &CodeObjectInfo<'_>, s: &Path, t: &mut Tally) {
    let text = std::fs::read_to_string(s).unwrap();
    let blocks: BTreeMap<String, Vec<(String, u64)>> = amdhsa_blocks(&text).into_iter().collect();
    for k in &info.kernels {
        let Some(llvm) = blocks.get(&k.name) else {
            t.errors.push(format!(
                "{}: no .amdhsa_kernel block in clang -S output",
                k.name
            ));
            continue;
        };
        let exact = exact_fields(info, k);
        for (name, v) in llvm {
            let ok = match name.as_str() {
                "amdhsa_reserve_vcc"
                | "amdhsa_reserve_flat_scratch"
                | "amdhsa_reserve_xnack_mask" => continue,
                "amdhsa_next_free_vgpr" => next_free_vgpr_ok(info, k, *v),
                "amdhsa_next_free_sgpr" => {
                    let sgprs = u64::from(k.registers.unwrap().sgprs);
                    sgprs >= *v && sgprs < v + 6 + 8
                }
                _ => match exact.get(name) {
                    Some(o) => o == v,
                    None => {
                        t.errors.push(format!(
                            "{}: clang -S directive .{name} not decoded by gcnkit",
                            k.name
                        ));
                        continue;
                    }
                },
            };
            if ok {
                t.asm_fields += 1;
            } else {
                t.errors.push(format!(
                    "{}: .{name} {v} in clang -S disagrees with gcnkit {:?}",
                    k.name,
                    exact.get(name)
                ));
            }
        }
    }
}

/// Every field gcnkit decodes exactly, under LLVM's directive names.
fn exact_fields(info: &CodeObjectInfo<'_>, k: &KernelInfo) -> BTreeMap<String, u64> {
    let kd = k.descriptor.as_ref().unwrap();
    let gen = info.gen().unwrap();
    let mut m: BTreeMap<String, u64> =
        amdhsa_directives(kd, gen, info.code_object_version().unwrap())
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .collect();
    m.insert(
        "amdhsa_user_sgpr_count".into(),
        kd.compute_pgm_rsrc2.user_sgpr_count.into(),
    );
    m.insert(
        "amdhsa_uses_dynamic_stack".into(),
        kd.kernel_code_properties.uses_dynamic_stack.into(),
    );
    let pre = &kd.kernarg_preload;
    m.insert(
        "amdhsa_user_sgpr_kernarg_preload_length".into(),
        pre.kernarg_preload_spec_length.into(),
    );
    m.insert(
        "amdhsa_user_sgpr_kernarg_preload_offset".into(),
        pre.kernarg_preload_spec_offset.into(),
    );
    if gen.has_unified_agprs() {
        let accum = (Rsrc3Gfx90a::from_bits(kd.compute_pgm_rsrc3).accum_offset + 1) * 4;
        m.insert("amdhsa_accum_offset".into(), accum.into());
    }
    m
}

/// The documented rounding: field = max(0, ceil(n / granule) − 1).
fn next_free_vgpr_ok(info: &CodeObjectInfo<'_>, k: &KernelInfo, n: u64) -> bool {
    let g = u64::from(vgpr_granule(info.gen().unwrap()));
    let field = n.div_ceil(g).max(1) - 1;
    u64::from(
        k.descriptor
            .unwrap()
            .compute_pgm_rsrc1
            .granulated_workitem_vgpr_count,
    ) == field
}
