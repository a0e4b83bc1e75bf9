//! Rebuilding code objects from their disassembly: every `.co` of the kernel corpus (8
//! targets, `scripts/build-kernels.sh`) and, when `GCNKIT_ROCSPARSE` names it, of the
//! rocSPARSE corpus is printed by `gcn disasm` as source, assembled, linked as `ld.lld
//! -shared` would, and compared with the original: the `.text` bytes, every kernel
//! descriptor (by `.kd` symbol name) and the metadata note bytes. Expected values are the
//! original files' bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use gcnkit_asm::program::{self, elf, NoIncludes, Options};
use gcnkit_cli::disasm::{render, Style};
use gcnkit_codeobj::link::link_shared;
use gcnkit_codeobj::CodeObjectInfo;
use gcnkit_disasm::listing::Output;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn code_objects(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(code_objects(&p));
        } else if p.extension().is_some_and(|x| x == "co") {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn kernel_corpus() -> Option<PathBuf> {
    let dir = repo().join("target/kernels");
    if !dir.join("gfx942").exists() {
        let script = repo().join("scripts/build-kernels.sh");
        let ok = Command::new("bash").arg(script).arg(&dir).status().ok()?;
        if !ok.success() {
            return None;
        }
    }
    Some(dir)
}

/// What is compared of a code object.
#[derive(Debug, Default, PartialEq, Eq)]
struct Parts {
    text: Vec<u8>,
    descriptors: BTreeMap<String, Vec<u8>>,
    notes: Vec<u8>,
}

fn parts(bytes: &[u8]) -> Result<Parts, String> {
    let info = CodeObjectInfo::read(bytes).map_err(|e| e.to_string())?;
    let mut p = Parts::default();
    for s in &info.sections {
        if s.executable {
            p.text.extend_from_slice(s.data);
        } else if s.sh_type == 7 {
            p.notes.extend_from_slice(s.data);
        }
    }
    for k in &info.kernels {
        if let Some(kd) = &k.descriptor {
            let bytes = kd.encode().map_err(|e| e.to_string())?.to_vec();
            p.descriptors.insert(k.symbol.name.clone(), bytes);
        }
    }
    Ok(p)
}

/// The original's parts, the rebuilt one's, and the warnings `gcn disasm` gave.
fn rebuild(path: &Path) -> Result<(Parts, Parts, Vec<String>), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    rebuild_bytes(&path.display().to_string(), &bytes)
}

fn rebuild_bytes(name: &str, bytes: &[u8]) -> Result<(Parts, Parts, Vec<String>), String> {
    let name = name.to_string();
    let mut out = Output::memory();
    let diags =
        render(&name, bytes, None, Style::Source, 1, &mut out).map_err(|e| e.to_string())?;
    let source = out.finish().map_err(|e| e.to_string())?;
    let program = program::assemble(&name, &source, &Options::default(), &NoIncludes)
        .map_err(|e| format!("does not assemble:\n{e}"))?;
    let linked = link_shared(&elf::write_relocatable(&program)).map_err(|e| e.to_string())?;
    let warnings = diags
        .iter()
        .map(|(s, d)| format!("{s} 0x{:x}: {}", d.addr, d.message))
        .collect();
    Ok((parts(bytes)?, parts(&linked)?, warnings))
}

/// Counts per item kind: (compared, identical).
#[derive(Default)]
struct Tally {
    files: (usize, usize),
    text: (usize, usize),
    descriptors: (usize, usize),
    notes: (usize, usize),
    failures: Vec<String>,
    warnings: Vec<String>,
}

impl Tally {
    fn add(&mut self, path: &Path) {
        let name = path.display();
        self.files.0 += 1;
        let (orig, ours, warnings) = match rebuild(path) {
            Ok(r) => r,
            Err(e) => return self.failures.push(format!("{name}: {e}")),
        };
        self.warnings
            .extend(warnings.iter().map(|w| format!("{name}: {w}")));
        let mut same = true;
        let mut check = |what: String, t: &mut (usize, usize), ok: bool| {
            t.0 += 1;
            t.1 += usize::from(ok);
            if !ok {
                same = false;
                self.failures.push(format!("{name}: {what} differs"));
            }
        };
        check(".text".into(), &mut self.text, orig.text == ours.text);
        for (kd, bytes) in &orig.descriptors {
            let ok = ours.descriptors.get(kd) == Some(bytes);
            check(format!("descriptor {kd}"), &mut self.descriptors, ok);
        }
        check(
            "metadata note".into(),
            &mut self.notes,
            orig.notes == ours.notes,
        );
        self.files.1 += usize::from(same);
    }

    fn report(&self, label: &str) {
        let line = |what: &str, (n, m): (usize, usize)| {
            println!("{label}: {what}: compared {n}, identical {m}")
        };
        line("code objects", self.files);
        line(".text sections", self.text);
        line("kernel descriptors", self.descriptors);
        line("metadata notes", self.notes);
        println!("{label}: {} warnings from gcn disasm", self.warnings.len());
        for w in self.warnings.iter().take(10) {
            println!("  warning: {w}");
        }
        for f in self.failures.iter().take(20) {
            println!("  FAILED: {f}");
        }
    }
}

fn rebuild_all(label: &str, files: &[PathBuf]) -> Tally {
    let mut tally = Tally::default();
    for f in files {
        tally.add(f);
    }
    tally.report(label);
    assert!(
        tally.failures.is_empty(),
        "{} differences",
        tally.failures.len()
    );
    tally
}

#[test]
fn kernel_corpus_code_objects_rebuild_from_their_disassembly() {
    let Some(corpus) = kernel_corpus() else {
        eprintln!("skipped: the kernel corpus could not be built");
        return;
    };
    let files = code_objects(&corpus);
    assert!(
        files.len() >= 8 * 30,
        "kernel corpus too small: {}",
        files.len()
    );
    let tally = rebuild_all("kernels", &files);
    // LLVM-built descriptors and metadata are all expressible as directives.
    assert!(tally.warnings.is_empty(), "{:?}", &tally.warnings[..]);
    assert!(tally.descriptors.0 >= files.len());
}

#[test]
fn rocsparse_code_objects_rebuild_from_their_disassembly() {
    let Some(dir) = std::env::var_os("GCNKIT_ROCSPARSE") else {
        eprintln!("skipped: set GCNKIT_ROCSPARSE to the directory of scripts/rocsparse-corpus.sh");
        return;
    };
    let files = code_objects(Path::new(&dir));
    assert!(!files.is_empty(), "no .co files in {dir:?}");
    rebuild_all("rocSPARSE", &files);
}

/// Offset of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[test]
fn descriptors_and_strings_llvm_directives_cannot_say_still_come_back() {
    let Some(corpus) = kernel_corpus() else {
        eprintln!("skipped: the kernel corpus could not be built");
        return;
    };
    let mut bytes = std::fs::read(corpus.join("gfx900/atomics_global.co")).unwrap();
    let info = CodeObjectInfo::read(&bytes).unwrap();
    let kd = &info.kernels[0].symbol;
    let rodata = info.sections.iter().find(|s| s.name == ".rodata").unwrap();
    let kd_offset = (rodata.file_offset + kd.addr - rodata.addr) as usize;
    let kd_name = kd.name.clone();
    drop(info);
    // COMPUTE_PGM_RSRC2.ENABLE_TRAP_HANDLER (bit 6 of byte 52): no directive sets it.
    bytes[kd_offset + 52] |= 0x40;
    // A type name that reads as a number unless it is tagged as a string.
    let at = find(&bytes, b"\xa4int*").expect("an 'int*' argument");
    bytes[at + 1..at + 5].copy_from_slice(b"1234");
    let (orig, ours, warnings) = rebuild_bytes("patched", &bytes).unwrap();
    assert_eq!(orig.descriptors[&kd_name][52] & 0x40, 0x40);
    assert_eq!(
        ours.descriptors, orig.descriptors,
        "the patched descriptor, as bytes"
    );
    assert_eq!(ours.notes, orig.notes, "the note with the string \"1234\"");
    assert_eq!(ours.text, orig.text);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains(&format!("{kd_name} kept as bytes")),
        "{warnings:?}"
    );
}
