//! Instruction vectors: every case of `tests/emu-vectors/*.vec` (values worked by hand from
//! the ISA manuals, each block citing its section) runs on every processor its block names,
//! and this is the coverage gate of the instruction table.
//!
//! Prints per generation: table rows, rows with semantics, rows tested here, cases compared
//! and cases agreeing. Fails on any disagreement, on any case that does not assemble or
//! faults unexpectedly, and on any (generation, row) of the instruction table that has no
//! semantics or no vector.
//! `GCNKIT_VECTORS_MISSING=1` lists the rows without a vector; `GCNKIT_VECTORS=prefix` runs only
//! the files whose names start with `prefix` (coverage is not checked then).

mod vector_format;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use gcnkit_emu::coverage::coverage;
use gcnkit_emu::snippet::{Snippet, State};
use gcnkit_isa::{Gen, INSTRUCTIONS};
use vector_format::{float_bits, is_nan, parse_file, Assign, Case, ExportField, Loc, Value};

/// Bytes of the test buffer `buf` points at.
const BUF_BYTES: u64 = 1 << 16;

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/emu-vectors")
}

fn load_cases() -> Vec<Case> {
    // `GCNKIT_VECTORS=ds` runs only the files whose names start with `ds` (while writing them).
    let only = std::env::var("GCNKIT_VECTORS").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("tests/emu-vectors exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "vec"))
        .filter(|p| {
            only.as_ref().is_none_or(|o| {
                p.file_stem()
                    .is_some_and(|s| s.to_string_lossy().starts_with(o.as_str()))
            })
        })
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        match parse_file(&name, &text) {
            Ok(c) => cases.extend(c),
            Err(e) => panic!("{e}"),
        }
    }
    cases
}

/// The dwords of a value for lane `lane`, `n` of them (lowest first).
fn dwords(value: &Value, lane: u64, buf: u64, n: usize) -> Vec<u32> {
    let bits = match value {
        Value::List(items) => return items.iter().flat_map(|v| dwords(v, lane, buf, 1)).collect(),
        Value::Int(e) => e.eval(lane, buf),
        Value::Float(x, w) => float_bits(*x, *w),
        // The quiet NaN the hardware produces by default.
        Value::AnyNan(w) => float_bits(f64::NAN, *w),
    };
    (0..n)
        .map(|i| (bits.checked_shr(32 * i as u32).unwrap_or(0)) as u32)
        .collect()
}

fn write(state: &mut State, a: &Assign, buf: u64) -> Result<(), String> {
    match a.loc {
        Loc::Sreg { index, count } => {
            for (i, d) in dwords(&a.value, 0, buf, count as usize)
                .into_iter()
                .enumerate()
            {
                state.wave.s[index as usize + i] = d;
            }
        }
        Loc::Vreg { index, count, lane } => {
            let lanes: Vec<usize> = match lane {
                Some(l) => vec![l as usize],
                None => (0..64).collect(),
            };
            for l in lanes {
                let ds = dwords(&a.value, l as u64, buf, count as usize);
                for (i, d) in ds.into_iter().enumerate() {
                    state.wave.v[index as usize + i][l] = d;
                }
            }
        }
        Loc::Scc => state.wave.scc = dwords(&a.value, 0, buf, 1)[0] != 0,
        Loc::Mode => state.wave.mode.bits = dwords(&a.value, 0, buf, 1)[0],
        Loc::ScratchBase | Loc::ScratchPerLane => {
            let d = dwords(&a.value, 0, buf, 2);
            let v = d[0] as u64 | (d[1] as u64) << 32;
            if a.loc == Loc::ScratchBase {
                state.wave.scratch_base = v;
            } else {
                state.wave.scratch_per_lane = v;
            }
        }
        Loc::Mem { offset, bytes } => {
            let all = value64(&a.value, buf);
            if offset + bytes as u64 > BUF_BYTES {
                return Err(format!("{}: outside the {BUF_BYTES}-byte buffer", a.text));
            }
            state
                .mem
                .write(buf + offset, &all.to_le_bytes()[..bytes as usize])
                .map_err(|e| format!("{}: {e}", a.text))?;
        }
        Loc::ExportCount | Loc::Export { .. } => {
            return Err(format!("{}: exports are outputs only", a.text));
        }
        Loc::Gds { offset, bytes } => {
            let x = value64(&a.value, buf);
            share_store(&mut state.gds.memory(), offset, bytes, x)
                .ok_or_else(|| format!("{}: outside the GDS", a.text))?;
        }
        Loc::Lds { offset, bytes } => {
            let x = value64(&a.value, buf);
            share_store(&mut state.lds, offset, bytes, x)
                .ok_or_else(|| format!("{}: outside the LDS", a.text))?;
        }
    }
    Ok(())
}

/// A scalar value (lane 0) as up to 64 bits.
fn value64(value: &Value, buf: u64) -> u64 {
    let v = dwords(value, 0, buf, 2);
    v[0] as u64 | (v[1] as u64) << 32
}

/// Writes the low `bytes` bytes of `x` into an LDS or GDS image at `offset`; `None` if outside.
fn share_store(share: &mut [u8], offset: u64, bytes: u8, x: u64) -> Option<()> {
    let o = usize::try_from(offset).ok()?;
    let dst = share.get_mut(o..o.checked_add(bytes as usize)?)?;
    dst.copy_from_slice(&x.to_le_bytes()[..bytes as usize]);
    Some(())
}

/// Reads `bytes` bytes of an LDS or GDS image at `offset`, little-endian; `None` if outside.
fn share_load(share: &[u8], offset: u64, bytes: u8) -> Option<u64> {
    let o = usize::try_from(offset).ok()?;
    let src = share.get(o..o.checked_add(bytes as usize)?)?;
    let mut b = [0u8; 8];
    b[..bytes as usize].copy_from_slice(src);
    Some(u64::from_le_bytes(b))
}

/// Compares one element (`bits` wide) with the expected value; `None` if it agrees.
fn differs(value: &Value, lane: u64, buf: u64, actual: u64, width: u32) -> bool {
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    match value {
        Value::AnyNan(w) => !is_nan(actual, *w),
        Value::Float(x, w) => actual & mask != float_bits(*x, *w) & mask,
        Value::Int(e) => actual & mask != e.eval(lane, buf) & mask,
        Value::List(_) => unreachable!("lists are compared dword by dword"),
    }
}

fn check(state: &State, a: &Assign, buf: u64) -> Vec<String> {
    let mut bad = Vec::new();
    let mut outside = Vec::new();
    let mut cmp = |what: String, value: &Value, lane: u64, actual: u64, width: u32| {
        if differs(value, lane, buf, actual, width) {
            let at = if what.is_empty() {
                String::new()
            } else {
                format!(" ({what})")
            };
            bad.push(format!("expected {}{at}, got {actual:#x}", a.text));
        }
    };
    let pair = |lo: u32, hi: u32| lo as u64 | (hi as u64) << 32;
    match a.loc {
        Loc::Sreg { index, count } => {
            let i = index as usize;
            if let Value::List(items) = &a.value {
                for (k, v) in items.iter().enumerate() {
                    cmp(format!("s+{k}"), v, 0, state.wave.s[i + k] as u64, 32);
                }
            } else if count == 1 {
                cmp(String::new(), &a.value, 0, state.wave.s[i] as u64, 32);
            } else {
                let v = pair(state.wave.s[i], state.wave.s[i + 1]);
                cmp(String::new(), &a.value, 0, v, 64);
            }
        }
        Loc::Vreg { index, count, lane } => {
            let lanes: Vec<usize> = match lane {
                Some(l) => vec![l as usize],
                None => (0..64).collect(),
            };
            let i = index as usize;
            for l in lanes {
                let v = &state.wave.v;
                if let Value::List(items) = &a.value {
                    for (k, x) in items.iter().enumerate() {
                        cmp(
                            format!("lane {l} reg +{k}"),
                            x,
                            l as u64,
                            v[i + k][l] as u64,
                            32,
                        );
                    }
                } else if count == 1 {
                    cmp(format!("lane {l}"), &a.value, l as u64, v[i][l] as u64, 32);
                } else {
                    let x = pair(v[i][l], v[i + 1][l]);
                    cmp(format!("lane {l}"), &a.value, l as u64, x, 64);
                }
            }
        }
        Loc::Scc => cmp(String::new(), &a.value, 0, state.wave.scc as u64, 1),
        Loc::Mode => cmp(String::new(), &a.value, 0, state.wave.mode.bits as u64, 32),
        Loc::ScratchBase => cmp(String::new(), &a.value, 0, state.wave.scratch_base, 64),
        Loc::ScratchPerLane => cmp(String::new(), &a.value, 0, state.wave.scratch_per_lane, 64),
        Loc::Mem { offset, bytes } => {
            let mut b = [0u8; 8];
            match state.mem.read_into(buf + offset, &mut b[..bytes as usize]) {
                Ok(()) => cmp(
                    String::new(),
                    &a.value,
                    0,
                    u64::from_le_bytes(b),
                    bytes as u32 * 8,
                ),
                Err(e) => bad.push(format!("{}: {e}", a.text)),
            }
        }
        Loc::Gds { offset, bytes } => match share_load(&state.gds.memory(), offset, bytes) {
            Some(x) => cmp(String::new(), &a.value, 0, x, bytes as u32 * 8),
            None => bad.push(format!("{}: outside the GDS", a.text)),
        },
        Loc::ExportCount => {
            let n = state.wave.exports.len() as u64;
            cmp(String::new(), &a.value, 0, n, 32);
        }
        Loc::Export { index, ref field } => match state.wave.exports.get(index) {
            None => bad.push(format!(
                "{}: the wave made {} exports",
                a.text,
                state.wave.exports.len()
            )),
            Some(e) => match *field {
                ExportField::Target => cmp(String::new(), &a.value, 0, e.target as u64, 32),
                ExportField::En => cmp(String::new(), &a.value, 0, e.en as u64, 32),
                ExportField::Compr => cmp(String::new(), &a.value, 0, e.compr as u64, 32),
                ExportField::Done => cmp(String::new(), &a.value, 0, e.done as u64, 32),
                ExportField::Vm => cmp(String::new(), &a.value, 0, e.vm as u64, 32),
                ExportField::Exec => cmp(String::new(), &a.value, 0, e.exec, 64),
                ExportField::Data { k, lane } => {
                    // `data` has one entry per lane of the export's EXEC, lowest lane first.
                    let lanes: Vec<usize> = match lane {
                        Some(l) => vec![l as usize],
                        None => (0..64).filter(|l| e.exec >> l & 1 != 0).collect(),
                    };
                    for l in lanes {
                        if e.exec >> l & 1 == 0 {
                            outside
                                .push(format!("{}: lane {l} is not in the export's EXEC", a.text));
                            continue;
                        }
                        let pos = (e.exec & ((1u64 << l) - 1)).count_ones() as usize;
                        let x = e.data.get(pos).map_or(0, |d| d[k]);
                        cmp(format!("lane {l}"), &a.value, l as u64, x as u64, 32);
                    }
                }
            },
        },
        Loc::Lds { offset, bytes } => match share_load(&state.lds, offset, bytes) {
            Some(x) => cmp(String::new(), &a.value, 0, x, bytes as u32 * 8),
            None => bad.push(format!("{}: outside the LDS", a.text)),
        },
    }
    // Report each place once, with the first lane that differs.
    bad.extend(outside);
    bad.truncate(1);
    bad
}

/// Runs one case on one processor: the table rows it exercised, or what went wrong.
fn run_case(case: &Case, processor: &str) -> Result<Vec<(Gen, u16)>, String> {
    let snippet = Snippet::assemble(processor, &case.asm).map_err(|e| format!("assembly: {e}"))?;
    let gen = snippet.target.gen();
    let rows: Vec<(Gen, u16)> = snippet
        .program
        .ops
        .iter()
        .filter(|op| op.inst.mnemonic() == case.row)
        .map(|op| (gen, op.inst.id))
        .collect();
    if rows.is_empty() {
        return Err(format!("the code has no `{}` instruction", case.row));
    }
    let mut state = snippet.initial_state();
    let buf = state
        .mem
        .allocate(BUF_BYTES, 4096)
        .map_err(|e| e.to_string())?;
    // The instruction count of a case is small; `m0` starts as the kernels' -1 would not
    // help any vector, so registers all start at zero.
    for a in &case.inputs {
        write(&mut state, a, buf)?;
    }
    match (snippet.run(&mut state), &case.fault) {
        (Ok(_), None) => {}
        (Err(f), Some(text)) if f.to_string().contains(text.as_str()) => {}
        (Ok(_), Some(text)) => {
            return Err(format!("expected a fault saying `{text}`, the run ended"))
        }
        (Err(f), _) => return Err(format!("fault: {f}")),
    }
    let bad: Vec<String> = case
        .outputs
        .iter()
        .flat_map(|a| check(&state, a, buf))
        .collect();
    if bad.is_empty() {
        Ok(rows)
    } else {
        Err(bad.join("; "))
    }
}

#[test]
fn instruction_vectors_and_coverage_gate() {
    let cases = load_cases();
    let mut tested: BTreeSet<(Gen, u16)> = BTreeSet::new();
    let mut compared: BTreeMap<Gen, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in &cases {
        for p in &case.processors {
            let gen = gcnkit_isa::Target::parse(p, None).unwrap().gen();
            let e = compared.entry(gen).or_default();
            e.0 += 1;
            match run_case(case, p) {
                Ok(rows) => {
                    e.1 += 1;
                    tested.extend(rows);
                }
                Err(m) => failures.push(format!("{} [{}] on {p}: {m}", case.at, case.row)),
            }
        }
    }

    let list_missing = std::env::var_os("GCNKIT_VECTORS_MISSING").is_some();
    let mut uncovered = Vec::new();
    println!("| generation | table rows | emulated | tested by vectors | cases | agree |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for c in coverage() {
        let rows_tested: BTreeSet<u16> = tested
            .iter()
            .filter(|(g, _)| *g == c.gen)
            .map(|&(_, id)| id)
            .collect();
        let (n, ok) = compared.get(&c.gen).copied().unwrap_or_default();
        println!(
            "| {} | {} | {} | {} | {n} | {ok} |",
            c.gen.name(),
            c.rows,
            c.emulated,
            rows_tested.len()
        );
        let missing: Vec<&str> = INSTRUCTIONS
            .iter()
            .enumerate()
            .filter(|(id, d)| d.opcode(c.gen).is_some() && !rows_tested.contains(&(*id as u16)))
            .map(|(_, d)| d.mnemonic)
            .collect();
        if list_missing {
            println!("  {} without a vector: {}", c.gen.name(), missing.join(" "));
        }
        if !c.missing.is_empty() {
            uncovered.push(format!(
                "{}: no semantics for {}",
                c.gen.name(),
                c.missing.join(" ")
            ));
        }
        if !missing.is_empty() {
            uncovered.push(format!(
                "{}: no vector for {}",
                c.gen.name(),
                missing.join(" ")
            ));
        }
    }
    println!("{} cases in {}", cases.len(), vectors_dir().display());
    assert!(
        failures.is_empty(),
        "{} of the vector runs disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let filtered = std::env::var_os("GCNKIT_VECTORS").is_some();
    assert!(
        filtered || uncovered.is_empty(),
        "every (generation, row) of the instruction table needs semantics and a vector:\n{}",
        uncovered.join("\n")
    );
}
