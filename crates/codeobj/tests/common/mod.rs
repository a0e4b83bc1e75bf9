//! Running LLVM 19's tools and reading what they print, for the agreement tests. Nothing in
//! here derives expected values from gcnkit itself: every expectation is LLVM's output.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use gcnkit_codeobj::elf_flags::FeatureState;
use gcnkit_codeobj::CodeObjectInfo;

/// Directory of LLVM 19's binaries.
pub const LLVM_BIN: &str = "/usr/lib/llvm-19/bin";

/// Path of an LLVM 19 tool, if installed.
pub fn llvm_tool(name: &str) -> Option<PathBuf> {
    let p = Path::new(LLVM_BIN).join(name);
    p.exists().then_some(p)
}

/// Runs a command; its stdout, or `None` if it failed (e.g. llvm-objdump aborting on gfx6/7).
pub fn run(tool: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(llvm_tool(tool)?).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Runs a command that must succeed.
pub fn run_ok(tool: &str, args: &[&str]) -> String {
    let out = Command::new(llvm_tool(tool).expect("tool exists"))
        .args(args)
        .output()
        .expect("tool runs");
    assert!(
        out.status.success(),
        "{tool} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What `llvm-readelf -h` says about the AMDGPU header.
#[derive(Debug)]
pub struct ReadelfHeader {
    /// "ABI Version:".
    pub abi_version: u8,
    /// The hex value of "Flags:".
    pub flags: u32,
    /// The names after it: processor, then feature tokens (`xnack+`, `sramecc`).
    pub names: Vec<String>,
}

/// Parses `llvm-readelf -h FILE`.
pub fn readelf_header(path: &Path) -> ReadelfHeader {
    let text = run_ok("llvm-readelf", &["-h", path.to_str().unwrap()]);
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(key))
            .unwrap_or_else(|| panic!("no '{key}' in llvm-readelf -h output"))
            .trim()
            .to_string()
    };
    let flags = field("Flags:");
    let mut parts = flags.split(',').map(|s| s.trim().to_string());
    let hex = parts.next().unwrap();
    ReadelfHeader {
        abi_version: field("ABI Version:").parse().unwrap(),
        flags: u32::from_str_radix(hex.trim_start_matches("0x"), 16).unwrap(),
        names: parts.collect(),
    }
}

/// The feature state llvm-readelf's token list implies for `feature` (v4+ objects).
pub fn readelf_feature(names: &[String], feature: &str) -> FeatureState {
    for n in names {
        if n == feature {
            return FeatureState::Any;
        }
        if n == &format!("{feature}+") {
            return FeatureState::On;
        }
        if n == &format!("{feature}-") {
            return FeatureState::Off;
        }
    }
    FeatureState::Unsupported
}

/// Compares our header view with llvm-readelf's; returns the number of fields compared.
pub fn compare_header(
    info: &CodeObjectInfo<'_>,
    llvm: &ReadelfHeader,
    errors: &mut Vec<String>,
) -> usize {
    let h = &info.header;
    let mut check = |what: &str, ours: String, theirs: String| {
        if ours != theirs {
            errors.push(format!("{what}: gcnkit {ours}, llvm-readelf {theirs}"));
        }
    };
    check(
        "abi version",
        h.abi_version.to_string(),
        llvm.abi_version.to_string(),
    );
    check(
        "e_flags",
        format!("{:#x}", h.e_flags),
        format!("{:#x}", llvm.flags),
    );
    check(
        "processor",
        format!("{:?}", info.processor),
        format!("{:?}", llvm.names.first()),
    );
    check(
        "xnack",
        format!("{:?}", h.xnack),
        format!("{:?}", readelf_feature(&llvm.names, "xnack")),
    );
    check(
        "sramecc",
        format!("{:?}", h.sramecc),
        format!("{:?}", readelf_feature(&llvm.names, "sramecc")),
    );
    5
}

/// The metadata `llvm-readelf --notes` prints, as YAML.
pub fn readelf_metadata(path: &Path) -> Option<serde_yaml_ng::Value> {
    let text = run_ok("llvm-readelf", &["--notes", path.to_str().unwrap()]);
    let start = text.find("AMDGPU Metadata:")?;
    let rest = &text[start..];
    let doc_start = rest.find("---")?;
    let doc = &rest[doc_start..];
    let end = doc.find("\n...").map_or(doc.len(), |e| e + 4);
    Some(serde_yaml_ng::from_str(&doc[..end]).expect("llvm-readelf prints valid YAML"))
}

/// Compares a metadata tree leaf by leaf with LLVM's YAML (map keys as sets: LLVM prints
/// maps sorted); returns the number of leaves compared.
pub fn compare_tree(
    ours: &rmpv::Value,
    llvm: &serde_yaml_ng::Value,
    path: &str,
    errors: &mut Vec<String>,
) -> usize {
    use serde_yaml_ng::Value as Y;
    match (ours, llvm) {
        (rmpv::Value::Map(m), Y::Mapping(y)) => {
            let mut n = 0;
            if m.len() != y.len() {
                errors.push(format!(
                    "{path}: {} keys, llvm-readelf has {}",
                    m.len(),
                    y.len()
                ));
            }
            for (k, yv) in y {
                let key = k.as_str().map_or_else(|| format!("{k:?}"), str::to_string);
                match m.iter().find(|(mk, _)| mk.as_str() == Some(key.as_str())) {
                    Some((_, v)) => n += compare_tree(v, yv, &format!("{path}/{key}"), errors),
                    None => errors.push(format!("{path}: key {key} missing in gcnkit")),
                }
            }
            n
        }
        (rmpv::Value::Array(a), Y::Sequence(s)) => {
            if a.len() != s.len() {
                errors.push(format!(
                    "{path}: {} items, llvm-readelf has {}",
                    a.len(),
                    s.len()
                ));
            }
            a.iter()
                .zip(s)
                .enumerate()
                .map(|(i, (x, y))| compare_tree(x, y, &format!("{path}[{i}]"), errors))
                .sum()
        }
        (rmpv::Value::String(s), Y::String(y)) if s.as_str() == Some(y.as_str()) => 1,
        (rmpv::Value::Boolean(b), Y::Bool(y)) if b == y => 1,
        (rmpv::Value::Integer(i), Y::Number(y))
            if i.as_u64() == y.as_u64() && i.as_i64() == y.as_i64() =>
        {
            1
        }
        (rmpv::Value::F64(f), Y::Number(y)) if Some(*f) == y.as_f64() => 1,
        (rmpv::Value::F32(f), Y::Number(y)) if Some(f64::from(*f)) == y.as_f64() => 1,
        _ => {
            errors.push(format!("{path}: gcnkit {ours}, llvm-readelf {llvm:?}"));
            1
        }
    }
}

/// `.amdhsa_kernel NAME` blocks of LLVM text (clang -S or llvm-objdump), with each
/// `.amdhsa_*` directive (without the dot) and its value.
pub fn amdhsa_blocks(text: &str) -> Vec<(String, Vec<(String, u64)>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, Vec<(String, u64)>)> = None;
    for line in text.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix(".amdhsa_kernel ") {
            current = Some((name.trim().to_string(), Vec::new()));
        } else if line.starts_with(".end_amdhsa_kernel") {
            blocks.extend(current.take());
        } else if let (Some((_, fields)), Some(rest)) = (&mut current, line.strip_prefix('.')) {
            let mut it = rest.split_whitespace();
            if let (Some(k), Some(v)) = (it.next(), it.next()) {
                if let Ok(v) = v.parse::<u64>() {
                    fields.push((k.to_string(), v));
                }
            }
        }
    }
    blocks
}

/// Symbol name → value from `llvm-nm`.
pub fn nm_symbols(path: &Path) -> Vec<(String, u64)> {
    run_ok("llvm-nm", &[path.to_str().unwrap()])
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let value = u64::from_str_radix(it.next()?, 16).ok()?;
            let _kind = it.next()?;
            Some((it.next()?.to_string(), value))
        })
        .collect()
}
