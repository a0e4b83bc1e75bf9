//! AMD-built code objects (rocSPARSE from Debian's librocsparse0) read by gcnkit and compared
//! with LLVM 19: header and e_flags (`llvm-readelf -h`), every metadata key and value
//! (`llvm-readelf --notes`), kernel names and entry points (`llvm-nm`) and every descriptor
//! field (`llvm-objdump -D -j .rodata`).
//!
//! Gated on `GCNKIT_ROCSPARSE` = a directory filled by `scripts/rocsparse-corpus.sh DIR`.
//! With `GCNKIT_ROCSPARSE_LIB` = the host library `librocsparse.so.0.1` (see
//! `scripts/rocsparse-host.sh`), the offload bundles of the host binary are also listed and
//! every extracted code object must be byte-identical to the corpus file the shared
//! extraction script wrote for it.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use common::*;
use gcnkit_codeobj::container::{code_objects_in, ContainerKind};
use gcnkit_codeobj::directives::amdhsa_directives;
use gcnkit_codeobj::CodeObjectInfo;

#[derive(Default)]
struct Tally {
    files: usize,
    kernels: usize,
    header_fields: usize,
    metadata_leaves: usize,
    descriptor_fields: usize,
    entries: usize,
    errors: Vec<String>,
}

fn corpus() -> Option<Vec<PathBuf>> {
    let Some(dir) = std::env::var_os("GCNKIT_ROCSPARSE") else {
        println!("note: GCNKIT_ROCSPARSE is not set (a directory from scripts/rocsparse-corpus.sh); skipping");
        return None;
    };
    if ["llvm-readelf", "llvm-objdump", "llvm-nm"]
        .iter()
        .any(|t| llvm_tool(t).is_none())
    {
        println!("note: LLVM 19 not found in {LLVM_BIN}; skipping");
        return None;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("GCNKIT_ROCSPARSE is a readable directory")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "co"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .co files in {dir:?}");
    Some(files)
}

#[test]
fn rocsparse_code_objects_agree_with_llvm_19() {
    let Some(files) = corpus() else { return };
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
                let Some(path) = files.get(i) else { break };
                let mut t = Tally::default();
                compare_file(path, &mut t);
                let mut all = tally.lock().unwrap();
                all.files += t.files;
                all.kernels += t.kernels;
                all.header_fields += t.header_fields;
                all.metadata_leaves += t.metadata_leaves;
                all.descriptor_fields += t.descriptor_fields;
                all.entries += t.entries;
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                all.errors
                    .extend(t.errors.into_iter().map(|e| format!("{name}: {e}")));
            });
        }
    });
    let t = tally.into_inner().unwrap();
    println!(
        "rocSPARSE agreement: {} files, {} kernels; agreed on {} header fields, {} metadata leaves, \
         {} descriptor fields, {} entry points; {} disagreements",
        t.files, t.kernels, t.header_fields, t.metadata_leaves, t.descriptor_fields, t.entries, t.errors.len()
    );
    for e in t.errors.iter().take(40) {
        println!("  {e}");
    }
    assert!(
        t.errors.is_empty(),
        "{} disagreements with LLVM",
        t.errors.len()
    );
    assert_eq!(t.files, files.len());
}

fn compare_file(path: &Path, t: &mut Tally) {
    let bytes = std::fs::read(path).unwrap();
    let info = match CodeObjectInfo::read(&bytes) {
        Ok(i) => i,
        Err(e) => return t.errors.push(e.to_string()),
    };
    t.files += 1;
    t.kernels += info.kernels.len();
    t.header_fields += compare_header(&info, &readelf_header(path), &mut t.errors);
    match (&info.metadata, readelf_metadata(path)) {
        (Some(ours), Some(llvm)) => {
            t.metadata_leaves += compare_tree(&ours.root, &llvm, "", &mut t.errors)
        }
        (o, l) => t.errors.push(format!(
            "metadata present: gcnkit {}, llvm {}",
            o.is_some(),
            l.is_some()
        )),
    }
    let nm: BTreeMap<String, u64> = nm_symbols(path).into_iter().collect();
    let mut nm_kernels: Vec<&str> = nm.keys().filter_map(|n| n.strip_suffix(".kd")).collect();
    let mut ours: Vec<&str> = info.kernels.iter().map(|k| k.name.as_str()).collect();
    nm_kernels.sort();
    ours.sort();
    if ours != nm_kernels {
        t.errors
            .push(format!("kernels: gcnkit {ours:?}, llvm-nm {nm_kernels:?}"));
    }
    for k in &info.kernels {
        if info.entry_address(k) == nm.get(&k.name).copied() {
            t.entries += 1;
        } else {
            t.errors
                .push(format!("{}: entry disagrees with llvm-nm", k.name));
        }
        if k.metadata_index.is_none() {
            t.errors.push(format!("{}: no metadata entry", k.name));
        }
    }
    compare_descriptors(&info, path, t);
}

fn compare_descriptors(info: &CodeObjectInfo<'_>, path: &Path, t: &mut Tally) {
    let Some(gen) = info.gen() else { return };
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
        let ours: BTreeMap<&str, u64> = amdhsa_directives(
            k.descriptor.as_ref().unwrap(),
            gen,
            info.code_object_version().unwrap(),
        )
        .into_iter()
        .collect();
        if ours.len() != llvm.len() {
            t.errors.push(format!(
                "{}: {} directives, llvm-objdump {}",
                k.name,
                ours.len(),
                llvm.len()
            ));
        }
        for (name, v) in llvm {
            if ours.get(name.as_str()) == Some(v) {
                t.descriptor_fields += 1;
            } else {
                t.errors.push(format!(
                    "{}: .{name} gcnkit {:?}, llvm-objdump {v}",
                    k.name,
                    ours.get(name.as_str())
                ));
            }
        }
    }
}

/// The host library's bundles, extracted by gcnkit, against the files the shared Python
/// extraction script wrote (`<bundle index>-<target id with ':' as '_'>.co`).
#[test]
fn every_code_object_of_the_rocsparse_host_library_is_listed() {
    let (Some(dir), Some(lib)) = (
        std::env::var_os("GCNKIT_ROCSPARSE"),
        std::env::var_os("GCNKIT_ROCSPARSE_LIB"),
    ) else {
        println!("note: GCNKIT_ROCSPARSE and GCNKIT_ROCSPARSE_LIB (librocsparse.so.0.1, from scripts/rocsparse-host.sh) are not both set; skipping");
        return;
    };
    let bytes = std::fs::read(&lib).expect("readable host library");
    let contents = code_objects_in(&bytes).expect("host library lists its bundles");
    assert_eq!(contents.kind, ContainerKind::HostBinary);
    let mut extracted: BTreeMap<String, &[u8]> = BTreeMap::new();
    for e in &contents.code_objects {
        let id = e.entry_id.as_deref().unwrap();
        let target = id.split_once("--").map_or(id, |(_, t)| t).replace(':', "_");
        extracted.insert(
            format!("{:04}-{target}.co", e.bundle_index.unwrap()),
            e.data,
        );
    }
    let corpus: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let mut same = 0;
    for path in &corpus {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let theirs = std::fs::read(path).unwrap();
        match extracted.get(&name) {
            Some(ours) if *ours == theirs.as_slice() => same += 1,
            Some(_) => panic!("{name}: gcnkit extracted different bytes"),
            None => panic!("{name}: not found by gcnkit"),
        }
    }
    println!(
        "rocSPARSE host library: {} bundles, {} device code objects; {} of {} corpus files byte-identical",
        contents.bundles,
        contents.code_objects.len(),
        same,
        corpus.len()
    );
    assert_eq!(same, corpus.len());
}
