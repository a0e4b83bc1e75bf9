//! `.amdgpu_metadata` YAML to the `NT_AMDGPU_METADATA` note, in YAML lines per second.
//!
//! The input is the YAML of `$GCNKIT_BENCH_YAML` if set (e.g. the block of the largest
//! rocSPARSE gfx900 code object's `gcn disasm` output:
//! `awk '/^\t\.amdgpu_metadata/{f=1;next} /^\t\.end_amdgpu_metadata/{f=0} f'
//! target/bench/rocsparse-gfx900.s`), else a document of many kernels made from the "full
//! kernel" case of `tests/data/metadata_cases.txt`, so that the bench runs without a corpus.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gcnkit_codeobj::write::metadata_note_from_yaml;

/// Kernels in the synthetic document: about as many YAML lines as real rocSPARSE metadata.
const KERNELS: usize = 1000;

/// The test case whose kernel is repeated.
const CASE: &str = "=== a full kernel as clang writes it";

/// A metadata document of [`KERNELS`] copies of the test case's kernel, each with its own
/// name and symbol.
fn synthetic_yaml() -> String {
    let cases = include_str!("../tests/data/metadata_cases.txt");
    let start = cases.find(CASE).expect("the full-kernel case") + CASE.len() + 1;
    let case = &cases[start..];
    let case = &case[..case.find("\n===").unwrap_or(case.len()) + 1];
    let kernels_at = case.find("amdhsa.kernels:\n").expect("a kernel list");
    let body_at = kernels_at + "amdhsa.kernels:\n".len();
    let rest_at = case
        .find("amdhsa.printf:")
        .expect("keys after the kernel list");
    let kernel = &case[body_at..rest_at];
    let mut out = String::with_capacity(KERNELS * (kernel.len() + 16) + case.len());
    out.push_str(&case[..body_at]);
    for i in 0..KERNELS {
        out.push_str(
            &kernel
                .replace(".name:           k\n", &format!(".name:           k{i}\n"))
                .replace(
                    ".symbol:         k.kd\n",
                    &format!(".symbol:         k{i}.kd\n"),
                ),
        );
    }
    out.push_str(&case[rest_at..]);
    out
}

fn bench(c: &mut Criterion) {
    let yaml = match std::env::var("GCNKIT_BENCH_YAML") {
        Ok(path) => std::fs::read_to_string(path).expect("GCNKIT_BENCH_YAML readable"),
        Err(_) => synthetic_yaml(),
    };
    metadata_note_from_yaml(&yaml).expect("benchmark metadata converts");
    let mut group = c.benchmark_group("metadata");
    group.throughput(Throughput::Elements(yaml.lines().count() as u64));
    group.sample_size(20);
    group.bench_function("note_from_yaml", |b| {
        b.iter(|| metadata_note_from_yaml(&yaml).map_or(0, |n| n.len()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
