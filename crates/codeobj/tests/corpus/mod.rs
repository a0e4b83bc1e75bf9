//! The OpenCL kernel corpus (`scripts/build-kernels.sh`, in `target/kernels`, built when
//! missing) assembled again from its clang `-S` files by llvm-mc-19 and linked by
//! `ld.lld-19 -shared`, cached in `CARGO_TARGET_TMPDIR`. Every expectation of the writer
//! tests comes from these LLVM outputs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// Directory of LLVM 19's binaries.
pub const LLVM_BIN: &str = "/usr/lib/llvm-19/bin";

/// Path of an LLVM 19 tool, if installed.
pub fn llvm_tool(name: &str) -> Option<PathBuf> {
    let p = Path::new(LLVM_BIN).join(name);
    p.exists().then_some(p)
}

/// True (after printing a note) when the LLVM tools the writer tests need are missing.
pub fn skip_without_llvm(test: &str) -> bool {
    let missing: Vec<_> = ["llvm-mc", "ld.lld", "llvm-readelf"]
        .into_iter()
        .filter(|t| llvm_tool(t).is_none())
        .collect();
    if missing.is_empty() {
        return false;
    }
    println!("note: {missing:?} not found in {LLVM_BIN}; skipping {test}");
    true
}

/// One clang `-S` file of the corpus with what LLVM made of it.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Processor directory name (`gfx90a`).
    pub gfx: String,
    /// File stem (`vector_add`).
    pub name: String,
    /// The clang `-S` text.
    pub asm: PathBuf,
    /// `llvm-mc -filetype=obj` of `asm`.
    pub object: PathBuf,
    /// `ld.lld -shared` of `object`.
    pub linked: PathBuf,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kernel_dir() -> Option<PathBuf> {
    let dir = repo().join("target/kernels");
    if !dir.join(".complete").exists() {
        let status = Command::new("bash")
            .arg(repo().join("scripts/build-kernels.sh"))
            .arg(&dir)
            .status()
            .ok()?;
        if !status.success() {
            return None;
        }
    }
    Some(dir)
}

fn newer(out: &Path, input: &Path) -> bool {
    let m = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    matches!((m(out), m(input)), (Some(o), Some(i)) if o >= i)
}

/// Runs an LLVM tool that must succeed.
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

fn build(sample: &Sample, mcpu: &str) {
    if !newer(&sample.object, &sample.asm) {
        let mcpu = format!("-mcpu={mcpu}");
        let (a, o) = (
            sample.asm.to_str().unwrap(),
            sample.object.to_str().unwrap(),
        );
        run_ok(
            "llvm-mc",
            &[
                "-triple=amdgcn-amd-amdhsa",
                &mcpu,
                "-filetype=obj",
                a,
                "-o",
                o,
            ],
        );
    }
    if !newer(&sample.linked, &sample.object) {
        let (o, co) = (
            sample.object.to_str().unwrap(),
            sample.linked.to_str().unwrap(),
        );
        run_ok("ld.lld", &["-shared", o, "-o", co]);
    }
}

/// Every sample of the corpus, assembled and linked by LLVM (once per test binary).
pub fn samples() -> &'static [Sample] {
    static SAMPLES: OnceLock<Vec<Sample>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let Some(dir) = kernel_dir() else {
            println!("note: the kernel corpus could not be built; no corpus samples");
            return Vec::new();
        };
        let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("codeobj-writer-corpus");
        let mut samples = Vec::new();
        let mut gfxs: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        gfxs.sort_by_key(|e| e.file_name());
        for g in gfxs.into_iter().filter(|e| e.path().is_dir()) {
            let gfx = g.file_name().to_string_lossy().into_owned();
            std::fs::create_dir_all(cache.join(&gfx)).unwrap();
            let mut files: Vec<_> = std::fs::read_dir(g.path()).unwrap().flatten().collect();
            files.sort_by_key(|e| e.file_name());
            for f in files {
                let p = f.path();
                if p.extension().and_then(|x| x.to_str()) != Some("s") {
                    continue;
                }
                let name = p.file_stem().unwrap().to_string_lossy().into_owned();
                samples.push(Sample {
                    object: cache.join(&gfx).join(format!("{name}.o")),
                    linked: cache.join(&gfx).join(format!("{name}.co")),
                    gfx: gfx.clone(),
                    name,
                    asm: p,
                });
            }
        }
        build_all(&samples);
        samples
    })
}

fn build_all(samples: &[Sample]) {
    let next = Mutex::new(0usize);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(s) = samples.get(i) else { break };
                build(s, &s.gfx);
            });
        }
    });
}

/// The `.amdgcn_target` id of a clang `-S` file (`gfx90a:xnack+`), or the directory name.
pub fn target_id(sample: &Sample, text: &str) -> String {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(".amdgcn_target"))
        .map(|t| t.trim().trim_matches('"').to_string())
        .and_then(|t| t.strip_prefix("amdgcn-amd-amdhsa--").map(str::to_string))
        .unwrap_or_else(|| sample.gfx.clone())
}

/// `.amdhsa_code_object_version` of an assembly text (LLVM 19's default is 5).
pub fn code_object_version(text: &str) -> u8 {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(".amdhsa_code_object_version"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(5)
}

/// Bytes of symbol `name` (`size` bytes) in an ELF file, read with the `object` crate.
pub fn symbol_bytes(elf: &[u8], name: &str, size: usize) -> Option<Vec<u8>> {
    use object::{Object, ObjectSection, ObjectSymbol};
    let file = object::File::parse(elf).ok()?;
    let sym = file.symbols().find(|s| s.name() == Ok(name))?;
    let section = file.section_by_index(sym.section_index()?).ok()?;
    let data = section.data().ok()?;
    let start = (sym.address() - section.address()) as usize;
    data.get(start..start + size).map(<[u8]>::to_vec)
}

/// Contents of the section called `name`.
pub fn section_bytes(elf: &[u8], name: &str) -> Option<Vec<u8>> {
    use object::{Object, ObjectSection};
    let file = object::File::parse(elf).ok()?;
    let s = file.section_by_name(name)?;
    s.data().ok().map(<[u8]>::to_vec)
}
