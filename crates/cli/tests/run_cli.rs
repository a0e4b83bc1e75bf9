//! `gcn run` as a user runs it, against the command-line contract of the launch format
//! (`docs/launch-spec.md`): which files `--out`, `--dump-all` and `--write-inputs` write,
//! `--inputs`, the `--json` statistics, errors (exit status 1, where a fault happened,
//! nothing written), `--max-instructions`, and `--threads` not changing any byte.
//!
//! The kernels are a small OpenCL file compiled at test time with clang 19 (the tests skip,
//! saying so, when it is not installed); expected values are computed here on the host.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

const CLANG: &str = "/usr/lib/llvm-19/bin/clang";
const LLD: &str = "/usr/lib/llvm-19/bin/ld.lld";

const KERNELS: &str = r#"#include "gcn.h"
kernel void scale_add(global const int *a, global int *b, int k, int n) {
  int i = get_global_id(0);
  if (i < n) b[i] = a[i] * k + i;
}
kernel void count_mod(global const int *a, global uint *hist, int n) {
  int i = get_global_id(0);
  if (i < n) atomic_inc(&hist[(uint)a[i] % 16]);
}
/* Reads 4 MiB past its argument: far beyond any buffer of these tests. */
kernel void read_far(global const int *p, global int *q) {
  q[get_global_id(0)] = p[1 << 20];
}
/* Never ends while flag[0] is 0. */
kernel void spin(global volatile const int *flag, global int *out) {
  int n = 0;
  while (flag[0] == 0) n++;
  out[0] = n;
}
"#;

/// `scale_add` (k = 3) over `n` ints in groups of 64, then the launch `second` (such as
/// [`count_mod_launch`]). `untouched` is no output and no argument.
fn description(n: usize, second: &str) -> String {
    format!(
        r#"{{
 "description": "written by run_cli.rs",
 "buffers": {{
  "a": {{"type": "int", "count": {n}, "init": {{"kind": "randint", "lo": -1000, "hi": 1000, "seed": 7}}}},
  "b": {{"type": "int", "count": {n}, "init": {{"kind": "zeros"}}}},
  "hist": {{"type": "uint", "count": 16, "init": {{"kind": "zeros"}}}},
  "untouched": {{"type": "float", "count": 8, "init": {{"kind": "iota", "start": 1, "step": 0.5}}}}
 }},
 "launches": [
  {{"kernel": "scale_add", "global": [{n}], "local": [64],
   "args": [{{"kind": "buffer", "name": "a"}}, {{"kind": "buffer", "name": "b"}},
            {{"kind": "scalar", "type": "int", "value": 3}}, {{"kind": "scalar", "type": "int", "value": {n}}}]}},
  {second}
 ],
 "outputs": {{"b": {{"kind": "exact"}}, "hist": {{"kind": "exact"}}}}
}}"#
    )
}

fn count_mod_launch(m: usize) -> String {
    format!(
        r#"{{"kernel": "count_mod", "global": [{m}], "local": [128],
   "args": [{{"kind": "buffer", "name": "a"}}, {{"kind": "buffer", "name": "hist"}}, {{"kind": "scalar", "type": "int", "value": {m}}}]}}"#
    )
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gcn-run")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds OpenCL `source` (with tests/kernels on the include path) for `mcpu` with clang-19
/// and links it with ld.lld-19: `dir/<stem>.co`.
fn build_kernels(dir: &Path, stem: &str, source: &str, mcpu: &str) -> PathBuf {
    let src = dir.join(format!("{stem}.cl"));
    std::fs::write(&src, source).unwrap();
    let (obj, co) = (
        dir.join(format!("{stem}.o")),
        dir.join(format!("{stem}.co")),
    );
    let out = Command::new(CLANG)
        .args(["-target", "amdgcn-amd-amdhsa", &format!("-mcpu={mcpu}")])
        .args(["-nogpulib", "-O2", "-x", "cl", "-cl-std=CL2.0"])
        .arg(format!("-I{}", repo().join("tests/kernels").display()))
        .arg("-c")
        .arg(&src)
        .arg("-o")
        .arg(&obj)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "clang: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(LLD)
        .arg("-shared")
        .arg(&obj)
        .arg("-o")
        .arg(&co)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ld.lld: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    co
}

/// The test kernels built for gfx90a, once per test binary; `None` (after saying why) when
/// LLVM 19 is not installed.
fn code_object() -> Option<&'static Path> {
    static CO: OnceLock<Option<PathBuf>> = OnceLock::new();
    CO.get_or_init(|| {
        if !Path::new(CLANG).exists() || !Path::new(LLD).exists() {
            return None;
        }
        let co = build_kernels(&scratch("kernels"), "run_cli", KERNELS, "gfx90a");
        Some(co)
    })
    .as_deref()
    .or_else(|| {
        eprintln!("skipped: needs LLVM 19 (clang and ld.lld under /usr/lib/llvm-19/bin)");
        None
    })
}

fn gcn<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcn"))
        .args(args)
        .output()
        .expect("gcn runs")
}

/// `gcn run DESC --code-object CO` followed by `extra`.
fn run(desc: &Path, co: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<String> = vec![
        "run".into(),
        desc.display().to_string(),
        "--code-object".into(),
        co.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    gcn(&args)
}

fn write_desc(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

fn assert_success(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "gcn run failed: {}",
        stderr(out)
    );
}

/// An error as the contract wants it: exit status 1, a message, no panic.
fn assert_error(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "exit status; stderr: {err}");
    assert!(err.starts_with("gcn: error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The files of `dir` with their contents (empty when `dir` does not exist).
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            out.insert(
                e.file_name().to_string_lossy().to_string(),
                std::fs::read(e.path()).unwrap(),
            );
        }
    }
    out
}

fn names(map: &BTreeMap<String, Vec<u8>>) -> Vec<&str> {
    map.keys().map(String::as_str).collect()
}

fn ints(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn uints(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Output `i` of splitmix64 from `seed`, as the launch format defines it.
fn splitmix64(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `a` as the description's `randint` init defines it.
fn expected_a(n: usize) -> Vec<i32> {
    (0..n as u64)
        .map(|i| -1000 + (splitmix64(7, i) % 2001) as i32)
        .collect()
}

/// What the two launches compute from `a`.
fn expected_outputs(a: &[i32], m: usize) -> (Vec<i32>, Vec<u32>) {
    let b = a
        .iter()
        .enumerate()
        .map(|(i, &x)| x.wrapping_mul(3).wrapping_add(i as i32))
        .collect();
    let mut hist = vec![0u32; 16];
    for &x in &a[..m] {
        hist[(x as u32 % 16) as usize] += 1;
    }
    (b, hist)
}

#[test]
fn splitmix64_matches_the_value_the_spec_gives() {
    assert_eq!(splitmix64(0, 0), 0xE220_A839_7B1D_CDAF);
}

#[test]
fn out_writes_exactly_the_outputs_and_write_inputs_every_initial_buffer() {
    let Some(co) = code_object() else { return };
    let dir = scratch("out");
    let desc = write_desc(&dir, "d.json", &description(1000, &count_mod_launch(300)));
    let (out_dir, in_dir) = (dir.join("out"), dir.join("in"));
    assert_success(&run(
        &desc,
        co,
        &["--out", s(&out_dir), "--write-inputs", s(&in_dir)],
    ));

    let outs = files(&out_dir);
    assert_eq!(
        names(&outs),
        ["b.out.bin", "hist.out.bin"],
        "exactly one file per output"
    );
    let ins = files(&in_dir);
    assert_eq!(
        names(&ins),
        ["a.in.bin", "b.in.bin", "hist.in.bin", "untouched.in.bin"],
        "one file per buffer"
    );
    let a = expected_a(1000);
    assert_eq!(ints(&ins["a.in.bin"]), a, "randint init");
    assert_eq!(ins["b.in.bin"], vec![0; 4000]);
    assert_eq!(ins["hist.in.bin"], vec![0; 64]);
    let iota: Vec<u8> = (0..8)
        .flat_map(|i| (1.0f32 + 0.5 * i as f32).to_le_bytes())
        .collect();
    assert_eq!(ins["untouched.in.bin"], iota, "iota init");
    let (b, hist) = expected_outputs(&a, 300);
    assert_eq!(ints(&outs["b.out.bin"]), b);
    assert_eq!(uints(&outs["hist.out.bin"]), hist);
}

#[test]
fn dump_all_writes_every_buffer() {
    let Some(co) = code_object() else { return };
    let dir = scratch("dump-all");
    let desc = write_desc(&dir, "d.json", &description(1000, &count_mod_launch(300)));
    let out_dir = dir.join("out");
    assert_success(&run(&desc, co, &["--out", s(&out_dir), "--dump-all"]));
    let outs = files(&out_dir);
    assert_eq!(
        names(&outs),
        [
            "a.out.bin",
            "b.out.bin",
            "hist.out.bin",
            "untouched.out.bin"
        ]
    );
    assert_eq!(
        ints(&outs["a.out.bin"]),
        expected_a(1000),
        "an input is dumped unchanged"
    );
    let iota: Vec<u8> = (0..8)
        .flat_map(|i| (1.0f32 + 0.5 * i as f32).to_le_bytes())
        .collect();
    assert_eq!(outs["untouched.out.bin"], iota);
    let (b, _) = expected_outputs(&expected_a(1000), 300);
    assert_eq!(ints(&outs["b.out.bin"]), b);
}

#[test]
fn inputs_replace_the_init_and_round_trip_with_write_inputs() {
    let Some(co) = code_object() else { return };
    let dir = scratch("inputs");
    let desc = write_desc(&dir, "d.json", &description(1000, &count_mod_launch(300)));

    // Round trip: what --write-inputs wrote, read back with --inputs, starts the same run.
    let (w1, o1, w2, o2) = (
        dir.join("w1"),
        dir.join("o1"),
        dir.join("w2"),
        dir.join("o2"),
    );
    assert_success(&run(
        &desc,
        co,
        &["--write-inputs", s(&w1), "--out", s(&o1)],
    ));
    assert_success(&run(
        &desc,
        co,
        &[
            "--inputs",
            s(&w1),
            "--write-inputs",
            s(&w2),
            "--out",
            s(&o2),
        ],
    ));
    assert_eq!(
        files(&w1),
        files(&w2),
        "inputs read back are the inputs written"
    );
    assert_eq!(files(&o1), files(&o2));

    // A buffer with a file starts from it; the others from their init.
    let mine = dir.join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    let a: Vec<i32> = (0..1000).map(|i| i * 7 - 3500).collect();
    std::fs::write(
        mine.join("a.in.bin"),
        a.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>(),
    )
    .unwrap();
    let o3 = dir.join("o3");
    assert_success(&run(&desc, co, &["--inputs", s(&mine), "--out", s(&o3)]));
    let outs = files(&o3);
    let (b, hist) = expected_outputs(&a, 300);
    assert_eq!(
        ints(&outs["b.out.bin"]),
        b,
        "b computed from the a of --inputs"
    );
    assert_eq!(uints(&outs["hist.out.bin"]), hist);

    // A file of the wrong size is an error that says which file and which sizes.
    let short = dir.join("short");
    std::fs::create_dir_all(&short).unwrap();
    std::fs::write(short.join("a.in.bin"), vec![0u8; 3996]).unwrap();
    let o4 = dir.join("o4");
    let err = assert_error(&run(&desc, co, &["--inputs", s(&short), "--out", s(&o4)]));
    for want in ["a.in.bin", "3996", "4000"] {
        assert!(err.contains(want), "says '{want}': {err}");
    }
    assert!(files(&o4).is_empty(), "nothing written on error");
}

#[test]
fn json_prints_the_statistics_the_spec_lists() {
    let Some(co) = code_object() else { return };
    let dir = scratch("json");
    let desc = write_desc(&dir, "d.json", &description(1000, &count_mod_launch(300)));
    let started = std::time::Instant::now();
    let out = run(&desc, co, &["--json", "--out", s(&dir.join("out"))]);
    let wall = started.elapsed().as_secs_f64();
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.trim().lines().count(), 1, "one JSON object: {text}");
    let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(v["launches"], 2);
    // 1000 items in groups of 64: 16 groups of one wave; 300 in groups of 128: two full
    // groups of two waves and a last group of 44 items, one wave.
    assert_eq!(v["workgroups"], 16 + 3);
    assert_eq!(v["waves"], 16 + 2 + 2 + 1);
    let instructions = v["wave_instructions"]
        .as_u64()
        .expect("wave_instructions is a count");
    assert!(
        instructions >= 21,
        "every wave executes at least s_endpgm: {instructions}"
    );
    let secs = v["exec_seconds"]
        .as_f64()
        .expect("exec_seconds is a number");
    assert!(
        secs > 0.0 && secs < wall,
        "exec_seconds {secs} within the process's {wall} s"
    );
    let rate = v["wave_instructions_per_second"]
        .as_f64()
        .expect("a number");
    let want = instructions as f64 / secs;
    assert!(
        (rate - want).abs() <= 1e-6 * want,
        "rate {rate}, instructions / seconds = {want}"
    );
}

#[test]
fn a_fault_names_launch_kernel_workgroup_wave_pc_and_instruction_and_writes_nothing() {
    let Some(co) = code_object() else { return };
    let dir = scratch("fault");
    // The first launch completes and writes b; the second faults.
    let far = r#"{"kernel": "read_far", "global": [64], "local": [64],
   "args": [{"kind": "buffer", "name": "a"}, {"kind": "buffer", "name": "b"}]}"#;
    let desc = write_desc(&dir, "d.json", &description(1000, far));
    let out_dir = dir.join("out");
    let err = assert_error(&run(&desc, co, &["--out", s(&out_dir), "--dump-all"]));
    eprintln!("{err}");
    for want in [
        "launch 1",
        "read_far",
        "work-group (0, 0, 0)",
        "wave 0",
        "pc 0x",
    ] {
        assert!(err.contains(want), "names '{want}': {err}");
    }
    let instruction = err
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("the instruction in backquotes: {err}"));
    assert!(
        instruction.contains("load"),
        "the faulting instruction is the load: {err}"
    );
    assert!(err.contains("fault"), "says it is a fault: {err}");
    assert!(
        !out_dir.exists() || files(&out_dir).is_empty(),
        "wrote {:?}",
        names(&files(&out_dir))
    );

    // An existing --out directory keeps what it had and gains nothing.
    std::fs::create_dir_all(&out_dir).unwrap();
    std::fs::write(out_dir.join("notes.txt"), "mine").unwrap();
    assert_error(&run(&desc, co, &["--out", s(&out_dir), "--dump-all"]));
    assert_eq!(names(&files(&out_dir)), ["notes.txt"]);
}

#[test]
fn max_instructions_stops_an_endless_loop() {
    let Some(co) = code_object() else { return };
    let dir = scratch("max-instructions");
    let desc = write_desc(
        &dir,
        "spin.json",
        r#"{"buffers": {"flag": {"type": "int", "count": 1, "init": {"kind": "zeros"}},
                       "out": {"type": "int", "count": 1, "init": {"kind": "zeros"}}},
            "launches": [{"kernel": "spin", "global": [64], "local": [64],
                          "args": [{"kind": "buffer", "name": "flag"}, {"kind": "buffer", "name": "out"}]}],
            "outputs": {"out": {"kind": "exact"}}}"#,
    );
    let out_dir = dir.join("out");
    let err = assert_error(&run(
        &desc,
        co,
        &["--out", s(&out_dir), "--max-instructions", "10000"],
    ));
    eprintln!("{err}");
    for want in ["launch 0", "spin", "10000 instructions", "wave 0", "pc 0x"] {
        assert!(err.contains(want), "says '{want}': {err}");
    }
    assert!(files(&out_dir).is_empty());
}

#[test]
fn the_thread_count_does_not_change_any_byte() {
    let Some(co) = code_object() else { return };
    let dir = scratch("threads");
    // Many work-groups (1563 and 782), so that three threads really share them; the
    // histogram's integer atomics give one result in any order.
    let n = 100_000;
    let desc = write_desc(&dir, "d.json", &description(n, &count_mod_launch(n)));
    let (one, three) = (dir.join("one"), dir.join("three"));
    assert_success(&run(
        &desc,
        co,
        &["--threads", "1", "--dump-all", "--out", s(&one)],
    ));
    assert_success(&run(
        &desc,
        co,
        &["--threads", "3", "--dump-all", "--out", s(&three)],
    ));
    let (f1, f3) = (files(&one), files(&three));
    assert_eq!(
        names(&f1),
        [
            "a.out.bin",
            "b.out.bin",
            "hist.out.bin",
            "untouched.out.bin"
        ]
    );
    for (name, bytes) in &f1 {
        assert!(
            f3[name] == *bytes,
            "{name} differs between --threads 1 and --threads 3"
        );
    }
    let (b, hist) = expected_outputs(&expected_a(n), n);
    assert_eq!(ints(&f1["b.out.bin"]), b);
    assert_eq!(uints(&f1["hist.out.bin"]), hist);
}

#[test]
fn bad_descriptions_are_clear_errors() {
    let Some(co) = code_object() else { return };
    let dir = scratch("bad");
    let out_dir = dir.join("out");
    let check = |name: &str, text: &str, wants: &[&str]| {
        let desc = write_desc(&dir, name, text);
        let err = assert_error(&run(&desc, co, &["--out", s(&out_dir)]));
        eprintln!("{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains(name), "names the file: {err}");
        for want in wants {
            assert!(err.contains(want), "says '{want}': {err}");
        }
        assert!(!out_dir.exists(), "nothing written for {name}");
    };
    check("truncated.json", "{\"buffers\": {\n", &["JSON", "line 2"]);
    check("list.json", "[1, 2]", &["object"]);
    let good = description(1000, &count_mod_launch(300));
    check(
        "unknown-buffer.json",
        &good.replacen(r#""name": "b"}"#, r#""name": "nope"}"#, 1),
        &["nope", "launches[0]"],
    );
    check(
        "unknown-type.json",
        &good.replacen(r#""type": "uint""#, r#""type": "quad""#, 1),
        &["quad", "hist"],
    );
    check(
        "unknown-kernel.json",
        &good.replacen("scale_add", "no_such_kernel", 1),
        &["no_such_kernel", "scale_add", "count_mod"],
    );
    // A missing code object is named too.
    let desc = write_desc(&dir, "good.json", &good);
    let missing = dir.join("missing.co");
    let err = assert_error(&run(&desc, &missing, &["--out", s(&out_dir)]));
    assert!(err.contains("missing.co"), "{err}");
}

/// `exp` in a gfx908 kernel (inline assembly: OpenCL has no exports): `--json` reports, per
/// launch, the count and the records. Expected from the EXP fields of the statement
/// (`param3` is TGT 32 + 3; `v, off, v, off` is EN 0b0101) and the value each lane computes
/// (its global id as a float), per the Vega manual's export description.
#[test]
fn json_reports_the_exports_a_kernel_made() {
    if !Path::new(CLANG).exists() || !Path::new(LLD).exists() {
        eprintln!("skipped: needs LLVM 19 (clang and ld.lld under /usr/lib/llvm-19/bin)");
        return;
    }
    let dir = scratch("exports");
    let co = build_kernels(
        &dir,
        "exports",
        r#"#include "gcn.h"
kernel void exports(global int *out) {
  int i = get_global_id(0);
  float x = (float)i;
  __asm__ volatile("exp param3 %0, off, %0, off done" :: "v"(x));
  out[i] = i;
}
"#,
        "gfx908",
    );
    let desc = write_desc(
        &dir,
        "d.json",
        r#"{"buffers": {"out": {"type": "int", "count": 96, "init": {"kind": "zeros"}}},
 "launches": [{"kernel": "exports", "global": [96], "local": [64],
               "args": [{"kind": "buffer", "name": "out"}]}],
 "outputs": {"out": {"kind": "exact"}}}"#,
    );
    let out = run(&desc, &co, &["--json"]);
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(v["exports"], 2, "one exp per wave, two waves");
    let e = &v["per_launch"][0]["exports"];
    assert_eq!(e["count"], 2);
    let records = e["records"].as_array().expect("records");
    assert_eq!(records.len(), 2);
    // 96 items in groups of 64: group 0 has 64 lanes, group 1 the last 32.
    for (g, r) in records.iter().enumerate() {
        let lanes = if g == 0 { 64 } else { 32 };
        assert_eq!(r["workgroup"], serde_json::json!([g, 0, 0]));
        assert_eq!(r["wave"], 0);
        assert_eq!(r["target"], "param3");
        assert_eq!(r["tgt"], 35);
        assert_eq!(r["en"], 5);
        assert_eq!(
            (r["done"].clone(), r["compr"].clone()),
            (true.into(), false.into())
        );
        let exec = if lanes == 64 {
            u64::MAX
        } else {
            (1u64 << 32) - 1
        };
        assert_eq!(r["exec"], format!("{exec:#018x}"));
        assert_eq!(r["lanes"].as_array().unwrap().len(), lanes);
        let data = r["data"].as_array().unwrap();
        assert_eq!(data.len(), lanes);
        for (l, d) in data.iter().enumerate() {
            let x = ((64 * g + l) as f32).to_bits();
            assert_eq!(d, &serde_json::json!([x, 0, x, 0]), "group {g} lane {l}");
        }
    }
}
