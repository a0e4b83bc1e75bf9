//! Every test vector (tests/vectors/*.txt: `MCPU<TAB>BYTES<TAB>TEXT`) assembled for its
//! processor must give its bytes.
//!
//! The vectors were made by disassembling bytes, and for some of them llvm-mc-19 itself does
//! not give those bytes back (don't-care bits, literals equal to inline constants) or rejects
//! the text (`/*Invalid ...*/` notes). `tests/data/llvm-mc-differs.tsv`, written by
//! `tests/data/gen_llvm_mc_differs.py` from llvm-mc-19 runs, records what llvm-mc does with
//! each of those lines; there the assembler must agree with llvm-mc (same bytes, or an error
//! with the same message). Run with `--nocapture` to see the figures.

use std::collections::HashMap;
use std::path::PathBuf;

use gcnkit_asm::assemble_instruction;
use gcnkit_asm::expr::NoSymbols;
use gcnkit_isa::Target;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn parse_bytes(s: &str) -> Vec<u8> {
    s.trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .filter(|b| !b.is_empty())
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap())
        .collect()
}

/// What llvm-mc does with a vector line that does not round-trip.
enum LlvmResult {
    Bytes(Vec<u8>),
    Error(String),
}

fn differs() -> HashMap<(String, usize), LlvmResult> {
    let path = root().join("crates/asm/tests/data/llvm-mc-differs.tsv");
    let text = std::fs::read_to_string(path).expect("llvm-mc-differs.tsv");
    let mut map = HashMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let result = match f[4].strip_prefix("error: ") {
            Some(msg) => LlvmResult::Error(msg.to_string()),
            None => LlvmResult::Bytes(parse_bytes(f[4])),
        };
        map.insert((f[0].to_string(), f[1].parse().unwrap()), result);
    }
    map
}

#[test]
fn every_vector_assembles_as_llvm_mc_does() {
    let differs = differs();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/vectors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let (mut total, mut agreed_total, mut special_total) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut targets: HashMap<String, Target> = HashMap::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let (mut n, mut ok, mut special) = (0, 0, 0);
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut f = line.splitn(3, '\t');
            let (cpu, bytes, asm) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            let target = *targets
                .entry(cpu.to_string())
                .or_insert_with(|| Target::parse(cpu, None).unwrap());
            n += 1;
            let got = assemble_instruction(&target, asm, &NoSymbols);
            let expected = differs.get(&(name.clone(), i + 1));
            if expected.is_some() {
                special += 1;
            }
            let good = match (expected, &got) {
                (None, Ok(e)) => e.as_bytes() == parse_bytes(bytes).as_slice(),
                (Some(LlvmResult::Bytes(b)), Ok(e)) => e.as_bytes() == b.as_slice(),
                (Some(LlvmResult::Error(m)), Err(errs)) => errs[0].message == *m,
                _ => false,
            };
            if good {
                ok += 1;
            } else if failures.len() < 400 {
                let want = match expected {
                    None => bytes.to_string(),
                    Some(LlvmResult::Bytes(b)) => format!("{b:02x?} (llvm-mc)"),
                    Some(LlvmResult::Error(m)) => format!("error: {m} (llvm-mc)"),
                };
                let have = match &got {
                    Ok(e) => format!("{:02x?}", e.as_bytes()),
                    Err(errs) => format!("error: {}", errs[0]),
                };
                failures.push(format!(
                    "{name}:{} {cpu} `{asm}`\n    expected {want}\n    actual   {have}",
                    i + 1
                ));
            }
        }
        println!(
            "{name}: compared {n}, agreed {ok} (of which {special} against llvm-mc's own result)"
        );
        total += n;
        agreed_total += ok;
        special_total += special;
    }
    println!("total: compared {total}, agreed {agreed_total} (of which {special_total} against llvm-mc's own result)");
    for f in &failures {
        println!("{f}");
    }
    assert!(total > 100_000, "vectors missing");
    assert_eq!(
        agreed_total,
        total,
        "{} vectors disagree",
        total - agreed_total
    );
}
