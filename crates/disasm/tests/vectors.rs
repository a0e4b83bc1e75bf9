//! The checked-in test vectors (`tests/vectors/*.txt`, produced with llvm-mc-19) against the
//! decoder and printer, and the coverage gate: every (generation, table row) has a vector.
//!
//! Each vector line is `MCPU<TAB>BYTES<TAB>TEXT`. For gfx8 and later TEXT is what LLVM 19's
//! disassembler prints for BYTES; for gfx6/gfx7 it is the statement llvm-mc assembled to BYTES.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use gcnkit_disasm::disassemble_one;
use gcnkit_isa::{Gen, Target, INSTRUCTIONS};

struct Vector {
    file: String,
    line: usize,
    mcpu: String,
    bytes: Vec<u8>,
    text: String,
}

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

fn load_vectors() -> Vec<Vector> {
    let mut files: Vec<_> = std::fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.splitn(3, '\t');
            let (Some(mcpu), Some(bytes), Some(text)) = (parts.next(), parts.next(), parts.next())
            else {
                panic!("{name}:{}: expected MCPU<TAB>BYTES<TAB>TEXT", i + 1);
            };
            let bytes = bytes
                .split(',')
                .map(|b| {
                    u8::from_str_radix(b.trim().trim_start_matches("0x"), 16)
                        .unwrap_or_else(|_| panic!("{name}:{}: bad byte '{b}'", i + 1))
                })
                .collect();
            out.push(Vector {
                file: name.clone(),
                line: i + 1,
                mcpu: mcpu.to_string(),
                bytes,
                text: text.trim().to_string(),
            });
        }
    }
    out
}

/// Normalises whitespace so that llvm-mc's column padding does not count.
fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_vector_decodes_and_prints_as_llvm_does() {
    let vectors = load_vectors();
    assert!(!vectors.is_empty(), "no vectors found");
    let mut per_file: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut examples: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for v in &vectors {
        let target =
            Target::parse(&v.mcpu, None).unwrap_or_else(|e| panic!("{}:{}: {e}", v.file, v.line));
        let entry = per_file.entry(v.file.clone()).or_default();
        entry.0 += 1;
        let got = disassemble_one(&target, &v.bytes);
        let ok = match &got {
            Ok((text, len)) => *len == v.bytes.len() && normalize(text) == normalize(&v.text),
            Err(_) => false,
        };
        if ok {
            entry.1 += 1;
        } else {
            let list = examples.entry(v.file.clone()).or_default();
            if list.len() < 5 {
                list.push(format!(
                    "  {}:{} [{}] want `{}` got {:?}",
                    v.file, v.line, v.mcpu, v.text, got
                ));
            }
        }
    }
    let mut failed = Vec::new();
    let (mut total, mut agreed) = (0, 0);
    for (file, (n, ok)) in &per_file {
        total += n;
        agreed += ok;
        println!("{file:12} compared {n:6}  agreed {ok:6}");
        if ok < n {
            failed.push(format!("{file}: {} of {n} vectors disagree", n - ok));
        }
        for e in examples.get(file).into_iter().flatten() {
            println!("{e}");
        }
    }
    println!("vectors: compared {total}, agreed {agreed}");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Strips the encoding-form suffix LLVM appends, to find the table mnemonic.
fn base_mnemonic(text: &str) -> &str {
    let m = text.split_whitespace().next().unwrap_or("");
    for suffix in ["_e32", "_e64", "_sdwa", "_dpp"] {
        if let Some(b) = m.strip_suffix(suffix) {
            return b;
        }
    }
    m
}

#[test]
fn every_table_row_has_a_vector_on_every_generation_it_exists_on() {
    let vectors = load_vectors();
    let mut have: BTreeSet<(Gen, String)> = BTreeSet::new();
    for v in &vectors {
        if let Ok(t) = Target::parse(&v.mcpu, None) {
            have.insert((t.gen(), base_mnemonic(&v.text).to_string()));
        }
    }
    let mut missing = Vec::new();
    let mut checked = 0;
    for row in INSTRUCTIONS {
        for gen in Gen::ALL {
            if row.opcode(gen).is_some() {
                checked += 1;
                if !have.contains(&(gen, row.mnemonic.to_string())) {
                    missing.push(format!("{} on {gen}", row.mnemonic));
                }
            }
        }
    }
    println!(
        "coverage: {checked} (generation, row) pairs, {} without a vector",
        missing.len()
    );
    assert!(
        missing.is_empty(),
        "rows without a test vector:\n{}",
        missing.join("\n")
    );
}
