//! Listing layout against llvm-objdump-19 on small objects built to hit its corner cases:
//! a symbol inside an instruction (llvm-objdump starts decoding afresh at every symbol),
//! zero runs at and across symbol boundaries, branches to other symbols, bytes left over at
//! the end of a section, and a section large enough to be listed by several threads.
//!
//! Skipped, with a note, when LLVM 19 is not installed.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use gcnkit_cli::disasm::{render, Style};
use gcnkit_difftest::{llvm_bin, llvm_objdump};
use gcnkit_disasm::listing::Output;

/// Assembles `source` for `mcpu` with llvm-mc and compares both listings, with 1 and 2
/// threads. Returns the number of lines compared.
fn compare(bin: &Path, name: &str, mcpu: &str, source: &str) -> usize {
    let dir = std::env::temp_dir().join(format!("gcnkit-layout-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, obj) = (dir.join("t.s"), dir.join("t.o"));
    std::fs::write(&src, source).unwrap();
    let status = Command::new(bin.join("llvm-mc"))
        .args([
            "-triple=amdgcn-amd-amdhsa",
            &format!("-mcpu={mcpu}"),
            "-filetype=obj",
            "-o",
        ])
        .arg(&obj)
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success(), "{name}: llvm-mc rejected the test source");
    let theirs = llvm_objdump(bin, mcpu, &obj).unwrap();
    let bytes = std::fs::read(&obj).unwrap();
    for threads in [1, 2] {
        let mut out = Output::memory();
        render(
            &obj.display().to_string(),
            &bytes,
            None,
            Style::LlvmObjdump,
            threads,
            &mut out,
        )
        .unwrap();
        let ours = out.finish().unwrap();
        if ours != theirs {
            let first = ours
                .lines()
                .zip(theirs.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "{name} ({threads} threads): listings differ from line {}\nours:\n{}\nllvm-objdump:\n{}",
                first + 1,
                ours.lines().skip(first).take(5).collect::<Vec<_>>().join("\n"),
                theirs.lines().skip(first).take(5).collect::<Vec<_>>().join("\n")
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    theirs.lines().count()
}

#[test]
fn listing_layout_matches_llvm_objdump() {
    let Some(bin) = llvm_bin() else {
        eprintln!("skipped: LLVM 19 not installed");
        return;
    };
    let mut cases: Vec<(&str, String)> = vec![
        (
            // `b` points at the literal of the instruction before it.
            "symbol_inside_instruction",
            ".text\n.globl a\n.type a,@function\na:\n s_mov_b32 s0, 0x12345678\n s_nop 0\n\
             .globl b\n.type b,@function\nb = a+4\n s_endpgm\n"
                .into(),
        ),
        (
            "zero_runs_and_symbols",
            ".text\n.globl a\na:\n s_nop 0\n .zero 12\n.globl b\nb:\n .zero 8\n s_endpgm\n\
             .globl c\nc:\n .zero 20\n"
                .into(),
        ),
        (
            "branches_between_symbols",
            ".text\n.globl a\na:\n s_branch b\n s_cbranch_scc0 a\nb:\n s_branch a\n s_endpgm\n"
                .into(),
        ),
        (
            "trailing_bytes",
            ".text\n.globl a\na:\n s_endpgm\n .byte 1, 2, 3\n".into(),
        ),
    ];
    // Many symbols over far more bytes than one work unit, with repeated instructions
    // (served from the line cache) and branches across units.
    let mut big = String::from(".text\n");
    for f in 0..400 {
        let _ = write!(
            big,
            ".globl f{f}\n.type f{f},@function\nf{f}:\n s_load_dwordx2 s[0:1], s[4:5], 0x{:x}\n\
             v_add_u32_e32 v{}, v1, v2\n s_mov_b32 s3, 0x{:x}\n v_mov_b32_e32 v0, 0x3f800000\n\
             s_cbranch_scc1 f{}\n s_waitcnt lgkmcnt(0)\n",
            f * 8,
            f % 200,
            f * 977,
            (f + 1) % 400
        );
        for i in 0..40 {
            let _ = writeln!(big, " v_fma_f32 v{}, v{}, s{}, 1.0", i % 8, f % 64, i % 50);
        }
        big.push_str(" s_endpgm\n");
    }
    cases.push(("many_symbols", big));
    let mut lines = 0;
    for mcpu in ["gfx900", "gfx90a"] {
        for (name, source) in &cases {
            lines += compare(&bin, &format!("{name}-{mcpu}"), mcpu, source);
        }
    }
    println!(
        "objdump layout: {} listings, {lines} lines, all identical to llvm-objdump",
        cases.len() * 2
    );
}
