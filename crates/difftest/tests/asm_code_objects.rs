//! `gcn asm k.s -o k.co` against `clang -c k.s` + `ld.lld -shared`: every `clang -S` file of
//! the kernel corpus (8 targets, `scripts/build-kernels.sh`) is assembled and linked by
//! gcnkit and by clang-19 and ld.lld-19. `.text`, every kernel descriptor and the metadata
//! note must be identical, and, given lld's own `.comment` line, so must the whole file.
//! `llvm-readelf --notes` must print the same metadata for both.
//!
//! Skipped, with a note, when LLVM 19 is not installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use gcnkit_asm::program::{self, elf, NoIncludes, Options};
use gcnkit_codeobj::link::{link_shared_with, LinkOptions};
use gcnkit_codeobj::CodeObject;
use gcnkit_difftest::llvm_bin;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sources(corpus: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for gfx in std::fs::read_dir(corpus).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(gfx.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "s") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The section `name` of an ELF file, if present.
fn section<'a>(obj: &'a CodeObject<'_>, name: &str) -> Option<&'a [u8]> {
    obj.sections.iter().find(|s| s.name == name).map(|s| s.data)
}

/// lld's own line in the `.comment` of a file it linked.
fn linker_comment(co: &[u8]) -> String {
    let obj = CodeObject::parse(co).expect("lld output parses");
    section(&obj, ".comment")
        .unwrap_or_default()
        .split(|&b| b == 0)
        .map(|s| String::from_utf8_lossy(s).to_string())
        .find(|s| s.starts_with("Linker:"))
        .unwrap_or_default()
}

fn notes(bin: &Path, file: &Path) -> String {
    let out = Command::new(bin.join("llvm-readelf"))
        .arg("--notes")
        .arg(file)
        .output()
        .expect("llvm-readelf runs");
    // The first lines name the file.
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.contains(&*file.to_string_lossy()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn assembled_code_objects_equal_clang_and_lld_output() {
    let corpus = repo().join("target/kernels");
    let Some(bin) = llvm_bin() else {
        eprintln!("skipped: LLVM 19 not installed");
        return;
    };
    if !corpus.join(".complete").exists() {
        let ok = Command::new("bash")
            .arg(repo().join("scripts/build-kernels.sh"))
            .arg(&corpus)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "scripts/build-kernels.sh failed");
    }
    let tmp = std::env::temp_dir().join(format!("gcnkit-asm-co-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let (mut files, mut kernels) = (0, 0);
    let (mut text_ok, mut kd_ok, mut note_ok, mut whole_ok, mut readelf_ok) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in sources(&corpus) {
        let name = path.display().to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        let mcpu = path
            .parent()
            .and_then(|p| p.file_name())
            .unwrap()
            .to_string_lossy();
        let (obj, co) = (tmp.join("clang.o"), tmp.join("lld.co"));
        let clang = Command::new(bin.join("clang"))
            .args([
                "-target",
                "amdgcn-amd-amdhsa",
                &format!("-mcpu={mcpu}"),
                "-c",
                "-o",
            ])
            .arg(&obj)
            .arg(&path)
            .status()
            .is_ok_and(|s| s.success());
        let lld = clang
            && Command::new(bin.join("ld.lld"))
                .args(["-shared", "-o"])
                .arg(&co)
                .arg(&obj)
                .status()
                .is_ok_and(|s| s.success());
        assert!(lld, "clang -c or ld.lld failed on {name}");
        let theirs_bytes = std::fs::read(&co).unwrap();
        let program = match program::assemble(&name, &source, &Options::default(), &NoIncludes) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: rejected:\n{e}"));
                continue;
            }
        };
        let options = LinkOptions {
            linker_comment: linker_comment(&theirs_bytes),
        };
        let ours_bytes = match link_shared_with(&elf::write_relocatable(&program), &options) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{name}: link failed: {e}"));
                continue;
            }
        };
        files += 1;
        let ours = CodeObject::parse(&ours_bytes).expect("our code object parses");
        let theirs = CodeObject::parse(&theirs_bytes).expect("lld's code object parses");
        text_ok += usize::from(section(&ours, ".text") == section(&theirs, ".text"));
        note_ok += usize::from(section(&ours, ".note") == section(&theirs, ".note"));
        whole_ok += usize::from(ours_bytes == theirs_bytes);
        for sym in theirs.symbols.iter().filter(|s| s.name.ends_with(".kd")) {
            kernels += 1;
            let kd = |obj: &CodeObject<'_>| -> Option<Vec<u8>> {
                let s = obj.symbols.iter().find(|o| o.name == sym.name)?;
                let sec = obj.sections.iter().find(|x| Some(x.index) == s.section)?;
                let at = (s.addr - sec.addr) as usize;
                sec.data.get(at..at + 64).map(<[u8]>::to_vec)
            };
            let same = kd(&ours).is_some() && kd(&ours) == kd(&theirs);
            kd_ok += usize::from(same);
            if !same {
                failures.push(format!("{name}: descriptor {} differs", sym.name));
            }
        }
        let ours_path = tmp.join("ours.co");
        std::fs::write(&ours_path, &ours_bytes).unwrap();
        let same_notes = notes(&bin, &ours_path) == notes(&bin, &co);
        readelf_ok += usize::from(same_notes);
        if ours_bytes != theirs_bytes && failures.len() < 20 {
            let at = ours_bytes
                .iter()
                .zip(&theirs_bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(ours_bytes.len().min(theirs_bytes.len()));
            let within = theirs
                .sections
                .iter()
                .find(|s| {
                    (s.file_offset..s.file_offset + s.data.len() as u64).contains(&(at as u64))
                })
                .map_or("headers or tables", |s| s.name.as_str());
            failures.push(format!(
                "{name}: linked file differs from lld's at byte {at:#x} ({within}); sizes {} and {}",
                ours_bytes.len(),
                theirs_bytes.len()
            ));
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
    println!(
        "gcn asm -o vs clang -c + ld.lld -shared: {files} code objects: .text {text_ok}, metadata note {note_ok}, llvm-readelf --notes {readelf_ok}, whole file {whole_ok} identical; {kernels} descriptors, {kd_ok} identical"
    );
    assert!(files >= 8 * 30, "kernel corpus too small: {files}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
