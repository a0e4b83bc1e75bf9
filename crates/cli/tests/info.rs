//! `gcn info` as a user runs it: errors are one line naming the file (exit 1); code objects,
//! offload bundles and host binaries with bundles list what LLVM's tools say they hold.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const LLVM_BIN: &str = "/usr/lib/llvm-19/bin";

fn gcn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcn"))
        .args(args)
        .output()
        .expect("gcn runs")
}

fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gcn-info");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn assert_one_line_error(out: &Output, file: &Path, what: &str) {
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&*file.to_string_lossy()),
        "names the file: {err}"
    );
    assert!(err.contains(what), "says '{what}': {err}");
}

#[test]
fn a_file_that_is_no_code_object_is_a_one_line_error() {
    let f = tmp("garbage.bin");
    std::fs::write(&f, b"#!/bin/sh\necho hello\n").unwrap();
    assert_one_line_error(&gcn(&["info", f.to_str().unwrap()]), &f, "not an ELF file");
    let missing = tmp("does-not-exist.co");
    assert_one_line_error(
        &gcn(&["info", missing.to_str().unwrap()]),
        &missing,
        "cannot read",
    );
}

#[test]
fn a_bundle_entry_past_the_end_is_a_one_line_error() {
    let mut b = b"__CLANG_OFFLOAD_BUNDLE__".to_vec();
    b.extend_from_slice(&1u64.to_le_bytes());
    let id = b"hipv4-amdgcn-amd-amdhsa--gfx90a";
    for v in [64u64, 4096, id.len() as u64] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(id);
    let f = tmp("broken.bundle");
    std::fs::write(&f, &b).unwrap();
    assert_one_line_error(
        &gcn(&["info", f.to_str().unwrap()]),
        &f,
        "bad offload bundle at offset 0x0",
    );
}

fn tool(name: &str) -> Option<PathBuf> {
    let p = Path::new(LLVM_BIN).join(name);
    p.exists().then_some(p)
}

fn run(tool_name: &str, args: &[&str]) -> String {
    let out = Command::new(tool(tool_name).unwrap())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{tool_name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Compiles tests/kernels/vector_add.cl for `mcpu` (a target id) into a linked code object.
fn build_code_object(mcpu: &str, version: u8) -> PathBuf {
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kernels");
    let stem = format!("vector_add-{}-v{version}", mcpu.replace(':', "_"));
    let (o, co) = (tmp(&format!("{stem}.o")), tmp(&format!("{stem}.co")));
    let cpu = format!("-mcpu={mcpu}");
    let cov = format!("-mcode-object-version={version}");
    let inc = format!("-I{src}");
    let file = format!("{src}/vector_add.cl");
    run(
        "clang",
        &[
            "-target",
            "amdgcn-amd-amdhsa",
            &cpu,
            &cov,
            "-nogpulib",
            "-O2",
            "-x",
            "cl",
            "-cl-std=CL2.0",
            &inc,
            "-c",
            &file,
            "-o",
            o.to_str().unwrap(),
        ],
    );
    run(
        "ld.lld",
        &["-shared", o.to_str().unwrap(), "-o", co.to_str().unwrap()],
    );
    co
}

fn info_json(path: &Path) -> Value {
    let out = gcn(&["info", "--json", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn kd_symbols(path: &Path) -> Vec<String> {
    let mut v: Vec<String> = run("llvm-nm", &[path.to_str().unwrap()])
        .lines()
        .filter_map(|l| {
            l.split_whitespace()
                .nth(2)?
                .strip_suffix(".kd")
                .map(str::to_string)
        })
        .collect();
    v.sort();
    v
}

fn kernel_names(code_object: &Value) -> Vec<String> {
    let mut v: Vec<String> = code_object["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn code_objects_bundles_and_host_binaries_list_what_llvm_put_in_them() {
    let needed = [
        "clang",
        "ld.lld",
        "llvm-nm",
        "clang-offload-bundler",
        "llvm-objcopy",
    ];
    if needed.iter().any(|t| tool(t).is_none()) {
        println!("note: LLVM 19 not found in {LLVM_BIN}; skipping");
        return;
    }
    let a = build_code_object("gfx90a:xnack+", 5);
    let b = build_code_object("gfx906", 4);
    // One code object.
    let v = info_json(&a);
    assert_eq!(v["kind"], "code object");
    let co = &v["code_objects"][0];
    assert_eq!(co["target_id"], "gfx90a:xnack+");
    assert_eq!(co["code_object_version"], 5);
    assert_eq!(kernel_names(co), kd_symbols(&a));
    let saxpy = co["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "saxpy")
        .unwrap();
    assert_eq!(saxpy["metadata"][".name"], "saxpy");
    assert_eq!(saxpy["args"][2]["address_space"], "global");
    let bundle = check_bundle(&a, &b);
    check_host_binary(&bundle);
    println!("gcn info: code object, bundle (2 entries) and host binary (2 bundles, 4 code objects) agree with LLVM");
}

/// A bundle of both code objects, as clang-offload-bundler writes it; returns its path.
fn check_bundle(a: &Path, b: &Path) -> PathBuf {
    // A bundle of both, as clang-offload-bundler writes it.
    let ids = [
        "host-x86_64-unknown-linux-gnu",
        "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+",
        "hipv4-amdgcn-amd-amdhsa--gfx906",
    ];
    let bundle = tmp("two.bundle");
    let targets = format!("-targets={}", ids.join(","));
    let inputs = [
        "-input=/dev/null".to_string(),
        format!("-input={}", a.display()),
        format!("-input={}", b.display()),
    ];
    let output = format!("-output={}", bundle.display());
    let mut args = vec!["-type=o", &targets, &output];
    args.extend(inputs.iter().map(String::as_str));
    run("clang-offload-bundler", &args);
    let v = info_json(&bundle);
    assert_eq!(v["kind"], "offload bundle");
    let objs = v["code_objects"].as_array().unwrap();
    assert_eq!(objs.len(), 2);
    assert_eq!(objs[0]["entry_id"], ids[1]);
    assert_eq!(objs[1]["entry_id"], ids[2]);
    assert_eq!(objs[1]["target_id"], "gfx906");
    assert_eq!(objs[0]["size"], std::fs::metadata(a).unwrap().len());
    assert_eq!(kernel_names(&objs[1]), kd_symbols(b));
    // --extract writes the bundled code objects back out, byte for byte.
    let dir = tmp("extracted");
    let _ = std::fs::remove_dir_all(&dir);
    let out = gcn(&[
        "info",
        "--brief",
        "--extract",
        dir.to_str().unwrap(),
        bundle.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2);
    assert_eq!(std::fs::read(&files[0]).unwrap(), std::fs::read(a).unwrap());
    assert_eq!(std::fs::read(&files[1]).unwrap(), std::fs::read(b).unwrap());
    bundle
}

/// A host object carrying the bundle twice in .hip_fatbin, 4096-aligned like HIP's.
fn check_host_binary(bundle: &Path) {
    // A host object carrying that bundle twice in .hip_fatbin, 4096-aligned like HIP's.
    let mut fatbin = std::fs::read(bundle).unwrap();
    fatbin.resize(fatbin.len().div_ceil(4096) * 4096, 0);
    fatbin.extend(std::fs::read(bundle).unwrap());
    let fat = tmp("fatbin.bin");
    std::fs::write(&fat, &fatbin).unwrap();
    let host_c = tmp("host.c");
    std::fs::write(&host_c, "int main(void) { return 0; }\n").unwrap();
    let host = tmp("host.o");
    run(
        "clang",
        &["-c", host_c.to_str().unwrap(), "-o", host.to_str().unwrap()],
    );
    let add = format!(".hip_fatbin={}", fat.display());
    run(
        "llvm-objcopy",
        &["--add-section", &add, host.to_str().unwrap()],
    );
    let v = info_json(&host);
    assert_eq!(v["kind"], "host binary");
    assert_eq!(v["bundles"], 2);
    let targets: Vec<&str> = v["code_objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["target_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        targets,
        ["gfx90a:xnack+", "gfx906", "gfx90a:xnack+", "gfx906"]
    );
    // The text listing names each embedded code object.
    let out = gcn(&["info", host.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("host binary, 2 bundles, 4 code objects"),
        "{text}"
    );
    assert_eq!(text.matches("=== code object").count(), 4);
}
