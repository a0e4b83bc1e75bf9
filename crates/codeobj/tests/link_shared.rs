//! gcnkit's linker against `ld.lld-19 -shared` on every llvm-mc-assembled object of the
//! kernel corpus: `.text`, every kernel descriptor and the metadata note must be identical;
//! section headers, program headers and the dynamic section are compared and must agree;
//! whole-file identity is counted and reported; `llvm-readelf -a` must read our output
//! without warnings. Also: lld's handling of `ABS64` (dynamic relocations) on a hand-made
//! object, and garbage input returning errors.
//!
//! Skipped with a note when LLVM 19 is not installed.

mod corpus;

use std::process::Command;

use corpus::*;
use gcnkit_codeobj::link::{link_shared, link_shared_with, LinkOptions};
use object::read::elf::{ElfFile64, ProgramHeader, SectionHeader};
use object::{Object, ObjectSection, ObjectSymbol};

/// lld's `.comment` line naming the linker (`Linker: Debian LLD 19.1.7`).
fn lld_comment(co: &[u8]) -> String {
    let comment = section_bytes(co, ".comment").unwrap_or_default();
    comment
        .split(|&b| b == 0)
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .find(|s| s.starts_with("Linker:"))
        .unwrap_or_default()
}

/// Every field of every section header, one line per section.
fn section_headers(elf: &[u8]) -> Vec<String> {
    let file = ElfFile64::<object::LittleEndian>::parse(elf).unwrap();
    let e = object::LittleEndian;
    file.sections()
        .map(|s| {
            let h = s.elf_section_header();
            format!(
                "{} type={} flags={:#x} addr={:#x} off={:#x} size={:#x} link={} info={} align={} entsize={}",
                s.name().unwrap_or("?"),
                h.sh_type(e),
                h.sh_flags(e),
                h.sh_addr(e),
                h.sh_offset(e),
                h.sh_size(e),
                h.sh_link(e),
                h.sh_info(e),
                h.sh_addralign(e),
                h.sh_entsize(e)
            )
        })
        .collect()
}

fn program_headers(elf: &[u8]) -> Vec<String> {
    let file = ElfFile64::<object::LittleEndian>::parse(elf).unwrap();
    let e = object::LittleEndian;
    file.elf_program_headers()
        .iter()
        .map(|p| {
            format!(
                "type={:#x} flags={} off={:#x} vaddr={:#x} filesz={:#x} memsz={:#x} align={:#x}",
                p.p_type(e),
                p.p_flags(e),
                p.p_offset(e),
                p.p_vaddr(e),
                p.p_filesz(e),
                p.p_memsz(e),
                p.p_align(e)
            )
        })
        .collect()
}

/// (name, bytes) of every `*.kd` symbol.
fn descriptors(elf: &[u8]) -> Vec<(String, Option<Vec<u8>>)> {
    let file = object::File::parse(elf).unwrap();
    let mut kds: Vec<_> = file
        .symbols()
        .filter_map(|s| {
            s.name()
                .ok()
                .filter(|n| n.ends_with(".kd"))
                .map(str::to_string)
        })
        .collect();
    kds.sort();
    kds.into_iter()
        .map(|n| {
            let b = symbol_bytes(elf, &n, 64);
            (n, b)
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    objects: usize,
    identical_files: usize,
    parts_agreed: usize,
    layouts_agreed: usize,
    first_diffs: Vec<String>,
    failures: Vec<String>,
}

fn compare(sample: &Sample, t: &mut Tally) {
    let object = std::fs::read(&sample.object).unwrap();
    let theirs = std::fs::read(&sample.linked).unwrap();
    let options = LinkOptions {
        linker_comment: lld_comment(&theirs),
    };
    let name = sample.object.display().to_string();
    let ours = match link_shared_with(&object, &options) {
        Ok(o) => o,
        Err(e) => return t.failures.push(format!("{name}: {e}")),
    };
    t.objects += 1;
    let parts = [".text", ".note", ".rodata"]
        .iter()
        .all(|s| section_bytes(&ours, s) == section_bytes(&theirs, s))
        && descriptors(&ours) == descriptors(&theirs);
    if parts {
        t.parts_agreed += 1;
    } else {
        t.failures.push(format!(
            "{name}: .text, .rodata, .note or a descriptor differs"
        ));
    }
    let layout = section_headers(&ours) == section_headers(&theirs)
        && program_headers(&ours) == program_headers(&theirs)
        && section_bytes(&ours, ".dynamic") == section_bytes(&theirs, ".dynamic");
    if layout {
        t.layouts_agreed += 1;
    } else {
        let sh = section_headers(&ours)
            .into_iter()
            .zip(section_headers(&theirs))
            .find(|(a, b)| a != b);
        t.failures.push(format!("{name}: layout differs: {sh:?}"));
    }
    if ours == theirs {
        t.identical_files += 1;
    } else if t.first_diffs.len() < 5 {
        let at = ours
            .iter()
            .zip(&theirs)
            .position(|(a, b)| a != b)
            .unwrap_or(ours.len().min(theirs.len()));
        t.first_diffs.push(format!(
            "{name}: first difference at byte {at:#x} (sizes {} vs {})",
            ours.len(),
            theirs.len()
        ));
    }
}

#[test]
fn linked_corpus_matches_ld_lld() {
    if skip_without_llvm("linked_corpus_matches_ld_lld") {
        return;
    }
    let mut t = Tally::default();
    for sample in samples() {
        compare(sample, &mut t);
    }
    println!(
        "linker: {} llvm-mc objects linked; .text/.rodata/descriptors/note identical to ld.lld -shared in {}, \
         section headers + program headers + .dynamic identical in {}, whole file byte-identical in {}",
        t.objects, t.parts_agreed, t.layouts_agreed, t.identical_files
    );
    for d in &t.first_diffs {
        println!("  {d}");
    }
    for f in t.failures.iter().take(10) {
        println!("  {f}");
    }
    assert!(
        t.failures.is_empty(),
        "{} disagreements with ld.lld",
        t.failures.len()
    );
    assert!(
        t.objects > 400 || samples().is_empty(),
        "too few objects linked"
    );
}

#[test]
fn llvm_readelf_reads_linked_output_without_warnings() {
    if skip_without_llvm("llvm_readelf_reads_linked_output_without_warnings") {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("link-readelf");
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for (i, sample) in samples().iter().enumerate().filter(|(i, _)| i % 7 == 0) {
        let ours = link_shared(&std::fs::read(&sample.object).unwrap()).unwrap();
        let path = dir.join(format!("{i}.co"));
        std::fs::write(&path, ours).unwrap();
        let out = Command::new(llvm_tool("llvm-readelf").unwrap())
            .arg("-a")
            .arg(&path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !text.contains("warning"),
            "{}: {text}",
            sample.object.display()
        );
        checked += 1;
    }
    println!("llvm-readelf -a: {checked} linked outputs read without warnings");
}

/// Assembles `text` for gfx900 and links it with lld; (object, lld output or lld's error).
fn lld_pair(tag: &str, text: &str) -> (Vec<u8>, Result<Vec<u8>, String>) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("link-hand");
    std::fs::create_dir_all(&dir).unwrap();
    let (s, o, co) = (
        dir.join(format!("{tag}.s")),
        dir.join(format!("{tag}.o")),
        dir.join(format!("{tag}.co")),
    );
    std::fs::write(&s, text).unwrap();
    run_ok(
        "llvm-mc",
        &[
            "-triple=amdgcn-amd-amdhsa",
            "-mcpu=gfx900",
            "-filetype=obj",
            s.to_str().unwrap(),
            "-o",
            o.to_str().unwrap(),
        ],
    );
    let out = Command::new(llvm_tool("ld.lld").unwrap())
        .arg("-shared")
        .arg(&o)
        .arg("-o")
        .arg(&co)
        .output()
        .unwrap();
    let linked = if out.status.success() {
        Ok(std::fs::read(&co).unwrap())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    };
    (std::fs::read(&o).unwrap(), linked)
}

const DATA_RELOCS: &str = "
.text
.globl f
.p2align 8
.type f,@function
f:
  s_endpgm
.hidden h
.globl h
h: s_nop 0
.data
.p2align 3
.quad f
.quad h+4
.quad ext
.quad 7
";

#[test]
fn abs64_in_data_becomes_dynamic_relocations_as_in_lld() {
    if skip_without_llvm("abs64_in_data_becomes_dynamic_relocations_as_in_lld") {
        return;
    }
    let (object, theirs) = lld_pair("data", DATA_RELOCS);
    let theirs = theirs.expect("lld links it");
    let options = LinkOptions {
        linker_comment: lld_comment(&theirs),
    };
    let ours = link_shared_with(&object, &options).unwrap();
    for s in [".rela.dyn", ".data", ".dynamic", ".dynsym", ".text"] {
        assert_eq!(section_bytes(&ours, s), section_bytes(&theirs, s), "{s}");
    }
    assert_eq!(section_headers(&ours), section_headers(&theirs));
    assert_eq!(program_headers(&ours), program_headers(&theirs));
    println!(
        "ABS64 in .data: whole file identical to lld: {}",
        ours == theirs
    );
}

#[test]
fn abs64_in_read_only_data_is_rejected_like_lld() {
    if skip_without_llvm("abs64_in_read_only_data_is_rejected_like_lld") {
        return;
    }
    let text = format!("{DATA_RELOCS}\n.section .rodata.x,\"a\"\n.quad h\n");
    let (object, theirs) = lld_pair("rodata", &text);
    let lld_error = theirs.expect_err("lld rejects it");
    let ours = link_shared(&object)
        .expect_err("gcnkit rejects it")
        .to_string();
    assert!(
        lld_error.contains(&ours),
        "gcnkit: {ours}\nlld: {lld_error}"
    );
}

#[test]
fn garbage_input_is_an_error_not_a_panic() {
    assert!(link_shared(b"").is_err());
    assert!(link_shared(b"\x7fELF").is_err());
    let mut rng = 0x1234_5678u64;
    if let Some(s) = samples().first() {
        let good = std::fs::read(&s.object).unwrap();
        for _ in 0..2000 {
            let mut bad = good.clone();
            for _ in 0..4 {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
                let at = (rng >> 33) as usize % bad.len();
                bad[at] = (rng >> 17) as u8;
            }
            let _ = link_shared(&bad);
        }
        for cut in (0..good.len()).step_by(97) {
            let _ = link_shared(&good[..cut]);
        }
    }
}
