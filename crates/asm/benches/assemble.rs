//! Assembler throughput, in source lines.
//!
//! - `statements`: `assemble_instruction` on every gfx900 test vector's text that assembles
//!   (no caching: each statement is parsed and encoded);
//! - `program`: a whole source file through `program::assemble` and the ELF writer:
//!   `$GCNKIT_BENCH_ASM` if set (e.g. `gcn disasm` of the largest rocSPARSE gfx900 code
//!   object, as `scripts/bench-asm-vs-llvm.py` writes it to target/bench/rocsparse-gfx900.s),
//!   else the vector texts as one file.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gcnkit_asm::assemble_instruction;
use gcnkit_asm::expr::NoSymbols;
use gcnkit_asm::program::{self, elf, NoIncludes, Options};
use gcnkit_isa::Target;

/// Texts of the gfx900 test vectors that assemble.
fn vector_statements(target: &Target) -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("tests/vectors") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("readable");
        for line in text.lines() {
            let mut f = line.splitn(3, '\t');
            if let (Some("gfx900"), Some(_), Some(asm)) = (f.next(), f.next(), f.next()) {
                if assemble_instruction(target, asm, &NoSymbols).is_ok() {
                    out.push(asm.to_string());
                }
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let target = Target::parse("gfx900", None).expect("gfx900");
    let statements = vector_statements(&target);
    let mut group = c.benchmark_group("asm");
    group.throughput(Throughput::Elements(statements.len() as u64));
    group.bench_function("statements", |b| {
        b.iter(|| {
            statements
                .iter()
                .map(|s| assemble_instruction(&target, s, &NoSymbols).map_or(0, |e| e.len as usize))
                .sum::<usize>()
        })
    });
    let source = match std::env::var("GCNKIT_BENCH_ASM") {
        Ok(path) => std::fs::read_to_string(path).expect("GCNKIT_BENCH_ASM readable"),
        Err(_) => format!("\t.text\n{}\n", statements.join("\n")),
    };
    let lines = source.lines().count();
    let options = Options {
        target: Some(target),
        ..Options::default()
    };
    group.throughput(Throughput::Elements(lines as u64));
    group.sample_size(10);
    group.bench_function("program", |b| {
        b.iter(|| {
            let p = program::assemble("bench.s", &source, &options, &NoIncludes)
                .expect("benchmark source assembles");
            elf::write_relocatable(&p).len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
