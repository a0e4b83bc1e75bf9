//! Random assembly statements for every row and form on every target, assembled by gcnkit and
//! by `llvm-mc -show-encoding`: the bytes must be identical, and statements llvm-mc rejects
//! must be rejected too. Agreement of the error message is counted apart (a goal, not a
//! requirement).
//!
//! The statements come from `gcnkit_difftest::asm_random`: disassembled random encodings,
//! respelled and partly mutated. Skips (and says so) when LLVM 19 is not installed.
//! `GCNKIT_SEED` sets the seed, `GCNKIT_ASM_RANDOM_PER_FORM` the number of random encodings
//! per row and form (default 16), `GCNKIT_ASM_RANDOM_MCPUS` a comma-separated list of processors
//! to run instead of the default ones. `asm-random-agreement-floor.txt` holds the agreement floors.
//!
//! Run: `cargo test --release -p gcnkit-difftest --test asm_random_vs_llvm -- --nocapture`

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use gcnkit_asm::assemble_instruction;
use gcnkit_asm::expr::NoSymbols;
use gcnkit_difftest::asm_random::{
    known_llvm_bug, llvm_mc_assemble_each, statements, LlvmAsm, Statement,
};
use gcnkit_difftest::llvm_bin;
use gcnkit_difftest::random::Rng;
use gcnkit_isa::{Processor, Target};

const TARGETS: &[&str] = &[
    "gfx600", "gfx700", "gfx803", "gfx900", "gfx904", "gfx906", "gfx908", "gfx90a", "gfx940",
    "gfx942",
];

const DEFAULT_SEED: u64 = 0xa55e_4b1e;
const DEFAULT_PER_FORM: u64 = 16;

/// Disagreements listed per target.
const SHOWN: usize = 12;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| {
            let v = v.trim();
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => v.parse().ok(),
            }
        })
        .unwrap_or(default)
}

#[derive(Default, Clone)]
struct Tally {
    compared: usize,
    agreed: usize,
    both_rejected: usize,
    message_agreed: usize,
    /// Disagreements that are documented llvm-mc bugs (not counted as agreed).
    llvm_bugs: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.compared += o.compared;
        self.agreed += o.agreed;
        self.both_rejected += o.both_rejected;
        self.message_agreed += o.message_agreed;
        self.llvm_bugs += o.llvm_bugs;
    }

    fn line(&self) -> String {
        format!(
            "compared {}, agreed {}, both rejected {}, message agreed {}, known llvm-mc bugs {}",
            self.compared, self.agreed, self.both_rejected, self.message_agreed, self.llvm_bugs
        )
    }

    fn percent(n: usize, of: usize) -> f64 {
        if of == 0 {
            100.0
        } else {
            100.0 * n as f64 / of as f64
        }
    }
}

struct TargetReport {
    mcpu: &'static str,
    total: Tally,
    by_key: BTreeMap<String, Tally>,
    disagreements: Vec<String>,
    disagreement_count: usize,
    /// Examples of disagreements that are known llvm-mc bugs.
    bugs_shown: Vec<String>,
    /// Every disagreement, when `GCNKIT_ASM_RANDOM_DUMP` names a file to write them to.
    all: Vec<String>,
    crashed: Vec<String>,
}

fn hex(b: &[u8]) -> String {
    let v: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
    v.join(" ")
}

/// What differs between gcnkit's and llvm-mc's result (`None`: they agree); counts the
/// statements both rejected and those whose first message agrees.
fn compare(
    ours: &Result<gcnkit_asm::Encoded, Vec<gcnkit_asm::AsmError>>,
    llvm: &LlvmAsm,
    t: &mut Tally,
) -> Option<String> {
    match (ours, llvm) {
        (Ok(enc), LlvmAsm::Bytes(b)) if enc.as_bytes() == b.as_slice() => None,
        (Ok(enc), LlvmAsm::Bytes(b)) => Some(format!(
            "gcnkit [{}], llvm-mc [{}]",
            hex(enc.as_bytes()),
            hex(b)
        )),
        (Err(errs), LlvmAsm::Error(msg)) => {
            t.both_rejected += 1;
            if errs.first().is_some_and(|e| e.message == *msg) {
                t.message_agreed += 1;
            }
            None
        }
        (Ok(enc), LlvmAsm::Error(msg)) => Some(format!(
            "gcnkit [{}], llvm-mc error: {msg}",
            hex(enc.as_bytes())
        )),
        (Err(errs), LlvmAsm::Bytes(b)) => Some(format!(
            "gcnkit error: {}, llvm-mc [{}]",
            errs.first().map_or("?", |e| e.message.as_str()),
            hex(b)
        )),
        _ => None,
    }
}

fn run_target(bin: &std::path::Path, mcpu: &'static str, seed: u64, per_form: u64) -> TargetReport {
    let target = Target::parse(mcpu, None).expect("known processor");
    let mut rng = Rng::new(seed ^ (target.processor.elf_mach as u64) << 32 ^ mcpu.len() as u64);
    let stmts: Vec<Statement> = statements(&target, &mut rng, per_form);
    let lines: Vec<String> = stmts.iter().map(|s| s.text.clone()).collect();
    let dump = std::env::var_os("GCNKIT_ASM_RANDOM_DUMP").is_some();
    let theirs = llvm_mc_assemble_each(bin, mcpu, &lines).expect("llvm-mc runs");
    let mut report = TargetReport {
        mcpu,
        total: Tally::default(),
        by_key: BTreeMap::new(),
        disagreements: Vec::new(),
        disagreement_count: 0,
        bugs_shown: Vec::new(),
        all: Vec::new(),
        crashed: Vec::new(),
    };
    for (s, llvm) in stmts.iter().zip(theirs) {
        if llvm == LlvmAsm::Crashed {
            report.crashed.push(s.text.clone());
            continue;
        }
        if llvm == LlvmAsm::Other {
            continue;
        }
        let ours = assemble_instruction(&target, &s.text, &NoSymbols);
        let t = report.by_key.entry(s.key.clone()).or_default();
        t.compared += 1;
        let problem = compare(&ours, &llvm, t);
        let bug = problem
            .as_ref()
            .and_then(|_| known_llvm_bug(&s.text, matches!(llvm, LlvmAsm::Bytes(_)), ours.is_ok()));
        match (problem, bug) {
            (None, _) => t.agreed += 1,
            (Some(p), Some(bug)) => {
                t.llvm_bugs += 1;
                if report.bugs_shown.len() < 3 {
                    report
                        .bugs_shown
                        .push(format!("    {:?}: {p} ({bug})", s.text));
                }
            }
            (Some(p), None) => {
                report.disagreement_count += 1;
                if dump {
                    report.all.push(format!("{mcpu}\t{}\t{p}", s.text));
                }
                if report.disagreements.len() < SHOWN {
                    report.disagreements.push(format!("    {:?}: {p}", s.text));
                }
            }
        }
    }
    for t in report.by_key.values() {
        report.total.add(t);
    }
    report
}

fn print_report(r: &TargetReport) {
    println!("{}: {}", r.mcpu, r.total.line());
    for (key, t) in &r.by_key {
        if t.agreed < t.compared {
            println!("  {key:14} compared {:6} agreed {:6}", t.compared, t.agreed);
        }
    }
    if r.disagreement_count > 0 {
        println!("  first disagreements ({} in all):", r.disagreement_count);
        for d in &r.disagreements {
            println!("{d}");
        }
    }
    if !r.bugs_shown.is_empty() {
        println!("  known llvm-mc bugs (docs/llvm-differences.md), for example:");
        for b in &r.bugs_shown {
            println!("{b}");
        }
    }
    if !r.crashed.is_empty() {
        println!(
            "  llvm-mc crashed on {} statements, not compared:",
            r.crashed.len()
        );
        for c in r.crashed.iter().take(5) {
            println!("    {c:?}");
        }
    }
}

/// `(agreed %, message-agreed % of both-rejected)` floors per processor.
fn floors(mcpu: &str) -> (f64, f64) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/asm-random-agreement-floor.txt"
    );
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|w| w.first() == Some(&mcpu))
        .and_then(|w| Some((w.get(1)?.parse().ok()?, w.get(2)?.parse().ok()?)))
        .unwrap_or((0.0, 0.0))
}

#[test]
fn random_statements_assemble_as_llvm_mc_does() {
    let Some(bin) = llvm_bin() else {
        println!("SKIPPED: LLVM 19 not found (set LLVM19_BIN or install llvm-19)");
        return;
    };
    let seed = env_u64("GCNKIT_SEED", DEFAULT_SEED);
    let per_form = env_u64("GCNKIT_ASM_RANDOM_PER_FORM", DEFAULT_PER_FORM);
    println!("seed {seed:#x}, {per_form} random encodings per row and form");
    let chosen = std::env::var("GCNKIT_ASM_RANDOM_MCPUS").ok();
    let targets: Vec<&'static str> = match &chosen {
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| Processor::by_name(s).expect("known processor").name)
            .collect(),
        None => TARGETS.to_vec(),
    };
    // Targets in parallel: most of the time is spent waiting for llvm-mc.
    let next = AtomicUsize::new(0);
    let reports = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&mcpu) = targets.get(i) else { break };
                let r = run_target(&bin, mcpu, seed, per_form);
                reports.lock().unwrap().push(r);
            });
        }
    });
    let mut reports = reports.into_inner().unwrap();
    reports.sort_by_key(|r| targets.iter().position(|t| *t == r.mcpu));
    let mut total = Tally::default();
    let mut failures = Vec::new();
    for r in &reports {
        print_report(r);
        total.add(&r.total);
        let agreed = Tally::percent(r.total.agreed, r.total.compared - r.total.llvm_bugs);
        let messages = Tally::percent(r.total.message_agreed, r.total.both_rejected);
        let (agreed_floor, message_floor) = floors(r.mcpu);
        if agreed < agreed_floor {
            failures.push(format!(
                "{}: {agreed:.2}% agreed, below the floor {agreed_floor}%",
                r.mcpu
            ));
        }
        if messages < message_floor {
            failures.push(format!(
                "{}: {messages:.2}% of messages agreed, below the floor {message_floor}%",
                r.mcpu
            ));
        }
    }
    println!("all targets: {}", total.line());
    if let Some(path) = std::env::var_os("GCNKIT_ASM_RANDOM_DUMP") {
        let all: Vec<&str> = reports
            .iter()
            .flat_map(|r| r.all.iter().map(String::as_str))
            .collect();
        std::fs::write(&path, all.join("\n")).expect("dump file written");
    }
    assert!(total.compared > 0, "nothing compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
