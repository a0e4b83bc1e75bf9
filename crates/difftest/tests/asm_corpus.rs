//! The assembler on real code:
//! - every `clang -S` file of the OpenCL kernel corpus (8 targets, `scripts/build-kernels.sh`)
//!   assembled by gcnkit gives the same `.text` bytes and relocations as `llvm-mc
//!   -filetype=obj`;
//! - every code object of the kernel corpus and, when present, of the rocSPARSE corpus
//!   (`$GCNKIT_ROCSPARSE`), disassembled by `gcn disasm` into source and assembled again,
//!   gives back its executable bytes.
//!
//! Skipped, with a note, when LLVM 19 is not installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use gcnkit_asm::program::{self, elf, NoIncludes, Options, Program};
use gcnkit_cli::disasm::{render, Style};
use gcnkit_codeobj::CodeObject;
use gcnkit_difftest::llvm_bin;
use gcnkit_difftest::objview::object_view;
use gcnkit_disasm::listing::Output;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files_with(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_with(&p, ext));
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn kernel_corpus() -> Option<PathBuf> {
    let dir = repo().join("target/kernels");
    if !dir.join(".complete").exists() {
        let ok = Command::new("bash")
            .arg(repo().join("scripts/build-kernels.sh"))
            .arg(&dir)
            .status()
            .ok()?
            .success();
        if !ok {
            return None;
        }
    }
    Some(dir)
}

/// Assembles `source` on one thread, and again with threads assembling ahead (the pre-pass
/// that large files get); the two must give the same object.
fn assemble(name: &str, source: &str, mcpu: Option<&str>) -> Result<Program, String> {
    let options = |threads| Options {
        target: mcpu.map(|m| gcnkit_isa::Target::parse(m, None).expect("known processor")),
        threads,
        ..Options::default()
    };
    let one =
        program::assemble(name, source, &options(1), &NoIncludes).map_err(|e| e.to_string())?;
    let three = program::assemble(name, source, &options(3), &NoIncludes)
        .map_err(|e| format!("with threads: {e}"))?;
    if elf::write_relocatable(&one) != elf::write_relocatable(&three) {
        return Err("the object differs when threads assemble ahead".into());
    }
    Ok(one)
}

#[test]
fn clang_output_assembles_as_llvm_mc_assembles_it() {
    let (Some(bin), Some(corpus)) = (llvm_bin(), kernel_corpus()) else {
        eprintln!("skipped: LLVM 19 or the kernel corpus is missing");
        return;
    };
    let dir = std::env::temp_dir().join(format!("gcnkit-asm-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut files, mut agreed, mut bytes, mut relocs) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in files_with(&corpus, "s") {
        let mcpu = path
            .parent()
            .and_then(|p| p.file_name())
            .unwrap()
            .to_string_lossy()
            .to_string();
        let theirs_path = dir.join("llvm.o");
        let ok = Command::new(bin.join("llvm-mc"))
            .args([
                "-triple=amdgcn-amd-amdhsa",
                &format!("-mcpu={mcpu}"),
                "-filetype=obj",
                "-o",
            ])
            .arg(&theirs_path)
            .arg(&path)
            .status()
            .unwrap()
            .success();
        assert!(ok, "llvm-mc rejects {}", path.display());
        let theirs = object_view(&std::fs::read(&theirs_path).unwrap()).unwrap();
        files += 1;
        let source = std::fs::read_to_string(&path).unwrap();
        let name = path.display().to_string();
        let ours = match assemble(&name, &source, Some(&mcpu)) {
            Ok(p) => object_view(&elf::write_relocatable(&p)).unwrap(),
            Err(e) => {
                failures.push(format!("{name}: rejected:\n{e}"));
                continue;
            }
        };
        let text = |v: &gcnkit_difftest::objview::ObjectView| {
            let t = v
                .sections
                .get(".text")
                .map(|s| s.data.clone())
                .unwrap_or_default();
            let r: Vec<_> = v
                .relocations
                .iter()
                .filter(|r| r.0 == ".text")
                .cloned()
                .collect();
            (t, r)
        };
        let (ours, theirs) = (text(&ours), text(&theirs));
        bytes += theirs.0.len();
        relocs += theirs.1.len();
        if ours == theirs {
            agreed += 1;
        } else if failures.len() < 20 {
            failures.push(format!("{name}: .text or its relocations differ"));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    println!(
        "clang -S output (gcn asm vs llvm-mc-19): {files} files compared, {agreed} agreed ({bytes} .text bytes, {relocs} relocations)"
    );
    assert!(files >= 8 * 30, "kernel corpus too small: {files} files");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Disassembles `path` to source, assembles it, and compares executable bytes. Returns
/// `(sections, bytes)` compared, or what went wrong.
fn round_trip(path: &Path) -> Result<(usize, usize), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let obj = CodeObject::parse(&bytes).map_err(|e| e.to_string())?;
    let name = path.display().to_string();
    let mut out = Output::memory();
    render(&name, &bytes, None, Style::Source, 1, &mut out).map_err(|e| e.to_string())?;
    let source = out.finish().map_err(|e| e.to_string())?;
    let program = assemble(&name, &source, None)?;
    let (mut sections, mut compared) = (0, 0);
    for s in obj.sections.iter().filter(|s| s.executable) {
        let ours = program
            .sections
            .iter()
            .find(|p| p.name == s.name)
            .ok_or_else(|| format!("section {} missing", s.name))?;
        if ours.data != s.data {
            let at = ours.data.iter().zip(s.data).position(|(a, b)| a != b);
            return Err(format!(
                "section {}: {} bytes vs {}, first difference at {at:?}",
                s.name,
                ours.data.len(),
                s.data.len()
            ));
        }
        sections += 1;
        compared += s.data.len();
    }
    Ok((sections, compared))
}

fn round_trip_all(label: &str, files: &[PathBuf]) {
    let (mut ok, mut bytes) = (0, 0);
    let mut failures = Vec::new();
    for f in files {
        match round_trip(f) {
            Ok((_, n)) => {
                ok += 1;
                bytes += n;
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    println!(
        "{label} (gcn disasm | gcn asm): {} files compared, {ok} identical, {bytes} executable bytes",
        files.len()
    );
    for f in failures.iter().take(10) {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} files do not round-trip",
        failures.len()
    );
}

#[test]
fn kernel_corpus_round_trips_through_source() {
    let Some(corpus) = kernel_corpus() else {
        eprintln!("skipped: the kernel corpus could not be built");
        return;
    };
    let mut files = files_with(&corpus, "co");
    files.extend(files_with(&corpus, "o"));
    assert!(files.len() >= 8 * 30 * 2, "kernel corpus too small");
    round_trip_all("kernels", &files);
}

#[test]
fn rocsparse_round_trips_through_source() {
    let Some(dir) = std::env::var_os("GCNKIT_ROCSPARSE") else {
        eprintln!("skipped: set GCNKIT_ROCSPARSE to the directory of scripts/rocsparse-corpus.sh");
        return;
    };
    let files = files_with(Path::new(&dir), "co");
    round_trip_all("rocSPARSE", &files);
}
