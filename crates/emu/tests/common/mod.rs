//! What the emulator's integration tests share: the repository root, the cached pocl reference
//! runs (`target/emu-ref/<stem>/<name>/`), and building OpenCL source with clang-19.
#![allow(dead_code)] // each test binary uses the parts it needs

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// True when pocl is usable through Debian's pyopencl.
pub fn pocl_available() -> bool {
    Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import pyopencl as cl; cl.get_platforms()[0].get_devices()",
        ])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A stable hash of the files a reference depends on, so a cached reference is rebuilt when
/// any of them changes.
fn fingerprint(files: &[PathBuf]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in files {
        for b in std::fs::read(f).unwrap_or_default() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        h ^= 0xff;
    }
    format!("{h:016x}")
}

/// Runs pocl for one description (cached under target/emu-ref); returns the directory with
/// `inputs/` and the `.out.bin` files, or the error pocl printed.
pub fn pocl_reference(stem: &str, name: &str, json: &Path) -> Result<PathBuf, String> {
    let src = repo().join(format!("tests/kernels/{stem}.cl"));
    let runner = repo().join("tools/pocl-ref/pocl_run.py");
    let header = repo().join("tests/kernels/gcn.h");
    let stamp = fingerprint(&[json.to_path_buf(), src.clone(), header, runner.clone()]);
    let dir = repo().join(format!("target/emu-ref/{stem}/{name}"));
    if std::fs::read_to_string(dir.join("stamp")).ok().as_deref() == Some(stamp.as_str()) {
        return Ok(dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let out = Command::new("/usr/bin/python3")
        .arg(&runner)
        .arg(json)
        .arg("--source")
        .arg(&src)
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--write-inputs")
        .arg(dir.join("inputs"))
        .arg("--dump-all")
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(3)
            .collect::<Vec<_>>()
            .join(" | "));
    }
    std::fs::write(dir.join("stamp"), stamp).map_err(|e| e.to_string())?;
    Ok(dir)
}

/// Builds OpenCL C `source` with clang-19 for `mcpu` (-O2, -nogpulib, CL2.0, then `extra`
/// flags) and links it with ld.lld-19 into a loadable code object. `tag` names the scratch
/// directory. Panics if a tool fails (a test bug or a broken install).
pub fn build_opencl(bin: &Path, source: &str, mcpu: &str, extra: &[&str], tag: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("gcnkit-{tag}-{}-{mcpu}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, obj, co) = (dir.join("k.cl"), dir.join("k.o"), dir.join("k.co"));
    std::fs::write(&src, source).unwrap();
    let ok = Command::new(bin.join("clang"))
        .args(["-target", "amdgcn-amd-amdhsa", &format!("-mcpu={mcpu}")])
        .args(["-nogpulib", "-O2", "-x", "cl", "-cl-std=CL2.0"])
        .args(extra)
        .arg("-c")
        .arg(&src)
        .arg("-o")
        .arg(&obj)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "clang failed for {mcpu} {extra:?}");
    let ok = Command::new(bin.join("ld.lld"))
        .arg("-shared")
        .arg(&obj)
        .arg("-o")
        .arg(&co)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "ld.lld failed");
    let bytes = std::fs::read(&co).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// Little-endian dwords of `bytes`.
pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
