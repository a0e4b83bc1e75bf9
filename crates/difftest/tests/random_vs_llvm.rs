//! Random valid-looking encodings of every table row on every target, compared with LLVM 19.
//!
//! gfx8 and later: gcnkit's text must equal `llvm-mc -disassemble`'s, and words LLVM rejects
//! must be rejected too. gfx6/gfx7 (LLVM cannot disassemble them): the text gcnkit prints must
//! assemble with `llvm-mc` to bytes that gcnkit prints the same way again.
//!
//! Skips (and says so) when LLVM 19 is not installed. `GCNKIT_RANDOM_PER_ROW` sets the number
//! of samples per row and form (default 3); `GCNKIT_RANDOM_SEED` the seed;
//! `GCNKIT_RANDOM_MCPUS` a comma-separated list of processors to run instead of the default
//! ones (any processor gcnkit supports; those without a floor have none);
//! `GCNKIT_RANDOM_EXAMPLES` how many disagreements to show per encoding and form (default 3).

use std::collections::BTreeMap;

use gcnkit_difftest::random::{random_encoding, trim, Rng, VopForm};
use gcnkit_difftest::{llvm_bin, llvm_mc_assemble, llvm_mc_disassemble, normalize, LlvmOutcome};
use gcnkit_disasm::disassemble_one;
use gcnkit_isa::{Encoding, Target, INSTRUCTIONS};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The processors compared by default: one per generation, plus gfx810 (packed D16 data, unlike
/// the other gfx8 processors) and gfx906 (dot instructions).
const DEFAULT_MCPUS: &[&str] = &[
    "gfx600", "gfx704", "gfx803", "gfx810", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx940",
];

struct Case {
    key: String,
    bytes: Vec<u8>,
    ours: Option<String>,
}

fn cases_for(target: &Target, rng: &mut Rng, per_row: u64) -> Vec<Case> {
    let gen = target.gen();
    let mut cases = Vec::new();
    for row in INSTRUCTIONS
        .iter()
        .filter(|r| r.exists_on(target.processor))
    {
        let vop = matches!(
            row.encoding,
            Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc
        );
        let forms: &[VopForm] = match (vop, gen.is_si_ci()) {
            (false, _) => &[VopForm::E32],
            (true, true) => &[VopForm::E32, VopForm::E64],
            (true, false) => &[VopForm::E32, VopForm::E64, VopForm::Sdwa, VopForm::Dpp],
        };
        for &form in forms {
            for _ in 0..per_row {
                let Some(raw) = random_encoding(rng, row, gen, form) else {
                    continue;
                };
                let bytes = trim(target, &raw);
                let ours = disassemble_one(target, &bytes).ok().map(|(t, _)| t);
                let key = match form {
                    VopForm::E32 => row.encoding.name().to_string(),
                    f => format!("{}-{f:?}", row.encoding.name()),
                };
                cases.push(Case { key, bytes, ours });
            }
        }
    }
    cases
}

#[derive(Default)]
struct Tally {
    /// Cases LLVM printed as an instruction (the rest it rejected).
    llvm_valid: usize,
    compared: usize,
    agreed: usize,
    examples: Vec<String>,
}

fn floor(mcpu: &str) -> usize {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/random-agreement-floor.txt");
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(char::is_whitespace))
        .find(|(m, _)| *m == mcpu)
        .and_then(|(_, n)| n.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn random_encodings_agree_with_llvm() {
    let Some(bin) = llvm_bin() else {
        println!("SKIPPED: LLVM 19 not found (set LLVM19_BIN or install llvm-19)");
        return;
    };
    let per_row = env_u64("GCNKIT_RANDOM_PER_ROW", 3);
    let shown = env_u64("GCNKIT_RANDOM_EXAMPLES", 3) as usize;
    let seed = env_u64("GCNKIT_RANDOM_SEED", 0x5eed);
    let mut failures = Vec::new();
    let mut crashed = Vec::new();
    let (mut all_compared, mut all_agreed) = (0, 0);
    let chosen = std::env::var("GCNKIT_RANDOM_MCPUS").ok();
    let mcpus: Vec<&str> = match &chosen {
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect(),
        None => DEFAULT_MCPUS.to_vec(),
    };
    for mcpu in mcpus {
        let target = Target::parse(mcpu, None).expect("known processor");
        let mut rng = Rng::new(seed ^ target.processor.elf_mach as u64);
        let cases = cases_for(&target, &mut rng, per_row);
        let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
        if target.gen().is_si_ci() {
            // Round trip through LLVM's assembler.
            let printable: Vec<&Case> = cases.iter().filter(|c| c.ours.is_some()).collect();
            let lines: Vec<String> = printable
                .iter()
                .map(|c| c.ours.clone().unwrap_or_default())
                .collect();
            let assembled = llvm_mc_assemble(&bin, mcpu, &lines).expect("llvm-mc runs");
            for (case, bytes) in printable.iter().zip(assembled) {
                let t = tally.entry(case.key.clone()).or_default();
                t.compared += 1;
                if bytes.is_some() {
                    t.llvm_valid += 1;
                }
                let again = bytes
                    .as_deref()
                    .and_then(|b| disassemble_one(&target, b).ok())
                    .map(|(text, _)| text);
                if again.as_deref() == case.ours.as_deref() {
                    t.agreed += 1;
                } else if t.examples.len() < shown {
                    t.examples.push(format!(
                        "    {:02x?}: gcnkit `{}` -> llvm-mc {:02x?} -> gcnkit {:?}",
                        case.bytes,
                        case.ours.as_deref().unwrap_or(""),
                        bytes,
                        again
                    ));
                }
            }
        } else {
            let inputs: Vec<Vec<u8>> = cases.iter().map(|c| c.bytes.clone()).collect();
            let theirs = llvm_mc_disassemble(&bin, mcpu, &inputs).expect("llvm-mc runs");
            for (case, llvm) in cases.iter().zip(theirs) {
                if llvm == LlvmOutcome::Crashed {
                    crashed.push(format!("{mcpu} {:02x?}", case.bytes));
                    continue;
                }
                let llvm = llvm.text().map(str::to_string);
                let t = tally.entry(case.key.clone()).or_default();
                t.compared += 1;
                if llvm.is_some() {
                    t.llvm_valid += 1;
                }
                let same = match (&case.ours, &llvm) {
                    (Some(a), Some(b)) => normalize(a) == normalize(b),
                    (None, None) => true,
                    _ => false,
                };
                if same {
                    t.agreed += 1;
                } else if t.examples.len() < shown {
                    t.examples.push(format!(
                        "    {:02x?}: gcnkit {:?} llvm {:?}",
                        case.bytes, case.ours, llvm
                    ));
                }
            }
        }
        let compared: usize = tally.values().map(|t| t.compared).sum();
        let agreed: usize = tally.values().map(|t| t.agreed).sum();
        let valid: usize = tally.values().map(|t| t.llvm_valid).sum();
        println!("{mcpu}: compared {compared}, agreed {agreed} (LLVM accepted {valid}, rejected the rest)");
        for (key, t) in &tally {
            if t.agreed < t.compared {
                println!("  {key:16} compared {:6} agreed {:6}", t.compared, t.agreed);
                for e in &t.examples {
                    println!("{e}");
                }
            }
        }
        all_compared += compared;
        all_agreed += agreed;
        if agreed < floor(mcpu) {
            failures.push(format!(
                "{mcpu}: {agreed} agreed, below the floor {}",
                floor(mcpu)
            ));
        }
    }
    println!("random encodings: compared {all_compared}, agreed {all_agreed}");
    if !crashed.is_empty() {
        println!(
            "llvm-mc-19 crashed on {} cases, not compared (docs/llvm-differences.md):",
            crashed.len()
        );
        for c in crashed.iter().take(10) {
            println!("    {c}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
