//! Decode+print throughput on a code object's executable sections.
//!
//! Input: `$GCNKIT_BENCH_FILE` if set (e.g. the largest rocSPARSE gfx900 code object), else the
//! bundled example `examples/vector_add-gfx90a.co`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gcnkit_codeobj::CodeObject;
use gcnkit_disasm::listing::{objdump_section, walk, Output, Section};

fn bench(c: &mut Criterion) {
    let path = std::env::var("GCNKIT_BENCH_FILE").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/vector_add-gfx90a.co"
        )
        .to_string()
    });
    let bytes = std::fs::read(&path).expect("benchmark input readable");
    let obj = CodeObject::parse(&bytes).expect("benchmark input is an AMDGPU ELF");
    let target = obj.target;
    let sections: Vec<_> = obj.sections.iter().filter(|s| s.executable).collect();
    let total: usize = sections.iter().map(|s| s.data.len()).sum();
    let mut group = c.benchmark_group("disasm");
    group.throughput(Throughput::Bytes(total as u64));
    group.bench_function("decode+print", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for s in &sections {
                walk(
                    &target,
                    s.data,
                    s.addr,
                    |_| None,
                    |_, _, _, text| n += text.len(),
                );
            }
            n
        })
    });
    group.bench_function("llvm-objdump listing", |b| {
        b.iter(|| {
            let mut out = Output::memory();
            for s in &sections {
                let section = Section {
                    name: &s.name,
                    addr: s.addr,
                    bytes: s.data,
                    symbols: &[],
                };
                objdump_section(&target, &section, &mut out);
            }
            out.buf.len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
