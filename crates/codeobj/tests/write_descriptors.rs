//! Kernel descriptors built from `.amdhsa_*` directives, compared byte for byte with what
//! llvm-mc-19 assembles from the same block, and errors compared with llvm-mc's message
//! and caret position:
//! - every `.amdhsa_kernel` block of every clang `-S` file of the kernel corpus;
//! - the hand-written blocks of `tests/data/amdhsa_cases.txt` (defaults, every directive,
//!   every error);
//! - seeded random blocks over every target.
//!
//! Skipped with a note when LLVM 19 is not installed.

mod corpus;

use std::process::Command;
use std::sync::Mutex;

use corpus::*;
use gcnkit_codeobj::write::{descriptor_from_directives, directive_names, AmdhsaDirective};
use gcnkit_isa::{Gen, Target};

/// A directive as written: (name, value text, line, name column, value column), 1-based.
type Line = (String, String, usize, usize, usize);

/// The directives of each `.amdhsa_kernel` block of `text`: (kernel, directives, end line).
fn blocks(text: &str) -> Vec<(String, Vec<Line>, usize)> {
    let mut out = Vec::new();
    let mut current: Option<(String, Vec<Line>)> = None;
    for (i, raw) in text.lines().enumerate() {
        let t = raw.trim();
        if let Some(name) = t.strip_prefix(".amdhsa_kernel ") {
            current = Some((name.trim().to_string(), Vec::new()));
        } else if t.starts_with(".end_amdhsa_kernel") {
            if let Some((name, lines)) = current.take() {
                out.push((name, lines, i + 1));
            }
        } else if let Some((_, lines)) = current.as_mut() {
            let indent = raw.len() - raw.trim_start().len();
            let mut parts = t.splitn(2, char::is_whitespace);
            let name = parts.next().unwrap_or("").to_string();
            let rest = parts.next().unwrap_or("");
            let value = rest.trim().to_string();
            let value_col = indent + name.len() + (rest.len() - rest.trim_start().len()) + 2;
            lines.push((name, value, i + 1, indent + 1, value_col));
        }
    }
    out
}

fn parse_value(v: &str) -> i64 {
    if let Some(h) = v.strip_prefix("0x") {
        return i64::from_str_radix(h, 16).unwrap_or(i64::MAX);
    }
    // Values too big for i64 are out of range for every directive either way.
    v.parse().unwrap_or(i64::MAX)
}

/// gcnkit's result for one block: the 64 bytes, or "line:col: message".
fn ours(target: &Target, version: u8, lines: &[Line], end_line: usize) -> Result<Vec<u8>, String> {
    let directives: Vec<_> = lines
        .iter()
        .map(|(name, value, line, ncol, vcol)| AmdhsaDirective {
            name,
            value: parse_value(value),
            name_at: (*line, *ncol),
            value_at: (*line, *vcol),
        })
        .collect();
    // llvm-mc points just past `.end_amdhsa_kernel` for errors found at the end.
    descriptor_from_directives(target, version, &directives, (end_line, 19))
        .map(|b| b.to_vec())
        .map_err(|e| format!("{}:{}: {}", e.at.0, e.at.1, e.kind))
}

/// llvm-mc's result for one `.s` text (kernel `k`): the bytes of `k.kd`, or the first error.
fn theirs(
    dir: &std::path::Path,
    tag: &str,
    mcpu: &str,
    mattr: &str,
    text: &str,
) -> Result<Vec<u8>, String> {
    let s = dir.join(format!("{tag}.s"));
    let o = dir.join(format!("{tag}.o"));
    std::fs::write(&s, text).unwrap();
    let mut cmd = Command::new(llvm_tool("llvm-mc").unwrap());
    cmd.args([
        "-triple=amdgcn-amd-amdhsa",
        &format!("-mcpu={mcpu}"),
        "-filetype=obj",
    ]);
    if !mattr.is_empty() {
        cmd.arg(format!("-mattr={mattr}"));
    }
    let out = cmd.arg(&s).arg("-o").arg(&o).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(line) = stderr.lines().find(|l| l.contains(": error: ")) {
        let rest = line.split_once(".s:").map_or(line, |x| x.1);
        let (pos, msg) = rest.split_once(": error: ").unwrap();
        return Err(format!("{pos}: {msg}"));
    }
    assert!(
        out.status.success(),
        "llvm-mc failed without an error line: {stderr}"
    );
    let bytes = std::fs::read(&o).unwrap();
    Ok(symbol_bytes(&bytes, "k.kd", 64).expect("k.kd in the object"))
}

#[test]
fn corpus_descriptors_match_llvm_mc() {
    if skip_without_llvm("corpus_descriptors_match_llvm_mc") {
        return;
    }
    let (mut compared, mut agreed, mut files) = (0, 0, 0);
    let mut failures = Vec::new();
    for sample in samples() {
        let text = std::fs::read_to_string(&sample.asm).unwrap();
        let target = Target::parse(&target_id(sample, &text), None).unwrap();
        let version = code_object_version(&text);
        let object = std::fs::read(&sample.object).unwrap();
        files += 1;
        for (kernel, lines, end) in blocks(&text) {
            compared += 1;
            let expected = symbol_bytes(&object, &format!("{kernel}.kd"), 64);
            let got = ours(&target, version, &lines, end);
            if got.as_ref().ok() == expected.as_ref() {
                agreed += 1;
            } else {
                failures.push(format!(
                    "{} {kernel}: gcnkit {got:02x?}, llvm-mc {expected:02x?}",
                    sample.asm.display()
                ));
            }
        }
    }
    println!("descriptors: {compared} .amdhsa_kernel blocks of {files} clang -S files compared with llvm-mc, {agreed} identical");
    for f in failures.iter().take(10) {
        println!("  {f}");
    }
    assert!(failures.is_empty(), "{} descriptors differ", failures.len());
    assert!(
        compared > 1000 || samples().is_empty(),
        "too few blocks compared"
    );
}

/// One case of `amdhsa_cases.txt`: `mcpu[,mattr] | directive value; directive value; ...`.
fn case_text(directives: &str) -> String {
    let mut text = String::from(".rodata\n.amdhsa_kernel k\n");
    for d in directives
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        text.push_str("  ");
        text.push_str(d);
        text.push('\n');
    }
    text.push_str(".end_amdhsa_kernel\n");
    text
}

/// Compares gcnkit with llvm-mc on (mcpu, mattr, directives) cases; returns (agreed,
/// failures, how many of the cases llvm-mc rejected).
fn compare_cases(tag: &str, cases: &[(String, String, String)]) -> (usize, Vec<String>, usize) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("amdhsa-{tag}"));
    std::fs::create_dir_all(&dir).unwrap();
    let next = Mutex::new(0usize);
    let result = Mutex::new((0usize, Vec::new(), 0usize));
    std::thread::scope(|scope| {
        for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()) {
            scope.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some((mcpu, mattr, dirs)) = cases.get(i) else {
                    break;
                };
                let text = case_text(dirs);
                let target = Target::parse(mcpu, Some(mattr)).unwrap();
                let (_, lines, end) = blocks(&text).remove(0);
                let got = ours(&target, 5, &lines, end);
                let expected = theirs(&dir, &format!("c{i}"), mcpu, mattr, &text);
                let mut r = result.lock().unwrap();
                r.2 += usize::from(expected.is_err());
                if got == expected {
                    r.0 += 1;
                } else {
                    r.1.push(format!(
                        "{mcpu} {mattr} [{dirs}]: gcnkit {got:02x?}, llvm-mc {expected:02x?}"
                    ));
                }
            });
        }
    });
    result.into_inner().unwrap()
}

#[test]
fn hand_written_blocks_and_errors_match_llvm_mc() {
    if skip_without_llvm("hand_written_blocks_and_errors_match_llvm_mc") {
        return;
    }
    let data = include_str!("data/amdhsa_cases.txt");
    let cases: Vec<_> = data
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (cpu, dirs) = l.split_once('|').expect("mcpu | directives");
            let (mcpu, mattr) = cpu.trim().split_once(',').unwrap_or((cpu.trim(), ""));
            (mcpu.to_string(), mattr.to_string(), dirs.trim().to_string())
        })
        .collect();
    let (agreed, failures, errors) = compare_cases("hand", &cases);
    println!("hand-written .amdhsa_kernel blocks: {} compared with llvm-mc ({errors} rejected by it), {agreed} agreed (bytes, or error message and position)", cases.len());
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    assert!(failures.is_empty(), "{} cases differ", failures.len());
}

/// A small deterministic generator (64-bit LCG) so the random test is reproducible.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_value(rng: &mut Lcg, name: &str) -> i64 {
    // Mostly plausible values, now and then a wide one.
    let wide = rng.below(10) == 0;
    let small = match name {
        "amdhsa_next_free_vgpr" => 32 + rng.below(if wide { 500 } else { 220 }),
        "amdhsa_next_free_sgpr" => rng.below(if wide { 110 } else { 90 }),
        "amdhsa_accum_offset" => 4 + rng.below(8) * 4 + rng.below(16) / 15,
        "amdhsa_user_sgpr_count" => 10 + rng.below(24),
        "amdhsa_user_sgpr_kernarg_preload_length" => rng.below(if wide { 18 } else { 4 }),
        "amdhsa_user_sgpr_kernarg_preload_offset" => rng.below(if wide { 1100 } else { 4 }),
        n if n.ends_with("_size") => rng.below(5000),
        n if n.contains("mode") || n.ends_with("workitem_id") => rng.below(4),
        _ => rng.below(2),
    } as i64;
    match rng.below(150) {
        0 => -1,
        1 => small + 3,
        _ => small,
    }
}

#[test]
fn random_blocks_match_llvm_mc() {
    if skip_without_llvm("random_blocks_match_llvm_mc") {
        return;
    }
    let cpus = [
        ("gfx600", ""),
        ("gfx700", ""),
        ("gfx802", ""),
        ("gfx803", ""),
        ("gfx810", "-xnack"),
        ("gfx900", ""),
        ("gfx906", "+xnack"),
        ("gfx908", ""),
        ("gfx90a", "-xnack"),
        ("gfx90a", ""),
        ("gfx942", ""),
    ];
    let mut rng = Lcg(0x6763_6e6b_6974);
    let mut cases = Vec::new();
    for i in 0..300 {
        let (mcpu, mattr) = cpus[i % cpus.len()];
        let gen = Target::parse(mcpu, None).unwrap().gen();
        let mut names = directive_names(gen);
        // Now and then a directive of another target, to exercise the target checks.
        if rng.below(15) == 0 {
            names.push(directive_names(Gen::Gfx940)[rng.below(10) as usize]);
        }
        let mut dirs = Vec::new();
        for name in names {
            let required = matches!(
                name,
                "amdhsa_next_free_vgpr" | "amdhsa_next_free_sgpr" | "amdhsa_accum_offset"
            );
            let keep = if required {
                rng.below(60) != 0
            } else {
                rng.below(3) == 0
            };
            if keep {
                dirs.push(format!(".{name} {}", random_value(&mut rng, name)));
            }
        }
        if rng.below(40) == 0 && !dirs.is_empty() {
            let again = dirs[rng.below(dirs.len() as u64) as usize].clone();
            dirs.push(again);
        }
        cases.push((mcpu.to_string(), mattr.to_string(), dirs.join("; ")));
    }
    let (agreed, failures, errors) = compare_cases("random", &cases);
    println!("random .amdhsa_kernel blocks: {} compared with llvm-mc ({errors} rejected by it), {agreed} agreed", cases.len());
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} random cases differ",
        failures.len()
    );
}
