//! The assembler language against llvm-mc-19: every program in `tests/asm/*.s` (sections,
//! data, alignment, symbols, relocations, macros, repetitions, conditionals, branches,
//! expressions) is assembled by `llvm-mc -filetype=obj` and by gcnkit, and the objects must
//! agree on every section's contents and attributes, every relocation and every symbol.
//!
//! Skipped, with a note, when LLVM 19 is not installed.

use std::path::PathBuf;
use std::process::Command;

use gcnkit_asm::program::{self, elf, NoIncludes, Options};
use gcnkit_difftest::llvm_bin;
use gcnkit_difftest::objview::{compare_views, object_view};
use gcnkit_isa::Target;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The processor a test program names in its `.amdgcn_target` line.
fn mcpu_of(source: &str) -> String {
    source
        .split("amdgcn-amd-amdhsa--")
        .nth(1)
        .and_then(|rest| rest.split(['"', ':']).next())
        .unwrap_or("gfx900")
        .to_string()
}

#[test]
fn programs_assemble_as_llvm_mc_assembles_them() {
    let Some(bin) = llvm_bin() else {
        eprintln!("skipped: LLVM 19 not installed");
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/asm"))
        .expect("tests/asm")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    files.sort();
    let dir = std::env::temp_dir().join(format!("gcnkit-asm-programs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut compared, mut failures) = (0, Vec::new());
    for path in &files {
        let source = std::fs::read_to_string(path).unwrap();
        let mcpu = mcpu_of(&source);
        let theirs_path = dir.join("llvm.o");
        let status = Command::new(bin.join("llvm-mc"))
            .args([
                "-triple=amdgcn-amd-amdhsa",
                &format!("-mcpu={mcpu}"),
                "-filetype=obj",
                "-o",
            ])
            .arg(&theirs_path)
            .arg(path)
            .status()
            .unwrap();
        assert!(status.success(), "llvm-mc rejects {}", path.display());
        let theirs = object_view(&std::fs::read(&theirs_path).unwrap()).unwrap();
        let options = Options {
            target: Some(Target::parse(&mcpu, None).unwrap()),
            ..Options::default()
        };
        let name = path.display().to_string();
        let program = match program::assemble(&name, &source, &options, &NoIncludes) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: gcnkit rejects it:\n{e}"));
                continue;
            }
        };
        let ours = object_view(&elf::write_relocatable(&program)).unwrap();
        let (diffs, n) = compare_views(&ours, &theirs);
        compared += n;
        for d in diffs {
            failures.push(format!("{name}: {d}"));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    println!(
        "assembler programs vs llvm-mc-19: {} files, {compared} sections/relocations/symbols compared, {} disagreements",
        files.len(),
        failures.len()
    );
    assert!(files.len() >= 4, "test programs missing");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
