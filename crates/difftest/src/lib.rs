//! Differential testing of gcnkit against LLVM 19.
//!
//! Kept in its own crate so that LLVM never enters the libraries' dependencies. Everything
//! here runs the LLVM tools as external processes: `llvm-mc` for single instructions and
//! `llvm-objdump` for whole code objects.

pub mod asm_random;
pub mod objview;
pub mod random;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Directory of the LLVM 19 tools: `$LLVM19_BIN`, else `/usr/lib/llvm-19/bin`.
pub fn llvm_bin() -> Option<PathBuf> {
    let dir = std::env::var_os("LLVM19_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-19/bin"));
    dir.join("llvm-mc").exists().then_some(dir)
}

/// The `s_nop 0x5a5a` dword placed after every candidate so that llvm-mc's output can be
/// split back into one chunk per candidate (an invalid candidate prints nothing).
const SENTINEL: [u8; 4] = [0x5a, 0x5a, 0x80, 0xbf];
const SENTINEL_TEXT: &str = "s_nop 0x5a5a";

/// What llvm-mc made of one candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LlvmOutcome {
    /// Exactly one instruction, with this text.
    Text(String),
    /// Rejected (a warning), or not exactly one instruction.
    Rejected,
    /// llvm-mc crashed on this candidate alone (see docs/llvm-differences.md).
    Crashed,
}

impl LlvmOutcome {
    /// The text, if LLVM printed one.
    pub fn text(&self) -> Option<&str> {
        match self {
            LlvmOutcome::Text(t) => Some(t),
            _ => None,
        }
    }
}

/// Disassembles each candidate with `llvm-mc -disassemble`, in as few process runs as
/// possible. llvm-mc 19 crashes on a few encodings; a batch that crashes is split in halves
/// until the crashing candidates are alone, and those are reported as [`LlvmOutcome::Crashed`].
pub fn llvm_mc_disassemble(
    bin: &Path,
    mcpu: &str,
    candidates: &[Vec<u8>],
) -> std::io::Result<Vec<LlvmOutcome>> {
    /// Batches stay small so that a crash costs little to isolate.
    const BATCH: usize = 512;
    isolating_crashes(
        candidates,
        BATCH,
        &|batch| disassemble_batch(bin, mcpu, batch),
        &|| LlvmOutcome::Crashed,
    )
}

/// One run of a tool over a batch: a result per item, or `None` if the tool crashed.
pub type BatchRun<'a, T, R> = &'a dyn Fn(&[T]) -> std::io::Result<Option<Vec<R>>>;

/// Runs `run` on `items` in batches of at most `batch`. A batch on which `run` returns `None`
/// (the tool crashed) is split in halves until the items that crash it are alone; each of
/// those gets `crashed()`.
pub fn isolating_crashes<T, R>(
    items: &[T],
    batch: usize,
    run: BatchRun<'_, T, R>,
    crashed: &dyn Fn() -> R,
) -> std::io::Result<Vec<R>> {
    if items.len() > batch {
        let mut results = Vec::with_capacity(items.len());
        for chunk in items.chunks(batch) {
            results.extend(isolating_crashes(chunk, batch, run, crashed)?);
        }
        return Ok(results);
    }
    if items.is_empty() {
        return Ok(Vec::new());
    }
    match run(items)? {
        Some(results) => Ok(results),
        None if items.len() == 1 => Ok(vec![crashed()]),
        None => {
            let (a, b) = items.split_at(items.len() / 2);
            let mut results = isolating_crashes(a, batch, run, crashed)?;
            results.extend(isolating_crashes(b, batch, run, crashed)?);
            Ok(results)
        }
    }
}

/// One llvm-mc run; `None` if it crashed.
fn disassemble_batch(
    bin: &Path,
    mcpu: &str,
    candidates: &[Vec<u8>],
) -> std::io::Result<Option<Vec<LlvmOutcome>>> {
    let mut input = String::with_capacity(candidates.len() * 64);
    let fmt_group = |bytes: &[u8], input: &mut String| {
        input.push('[');
        for (i, b) in bytes.iter().enumerate() {
            if i > 0 {
                input.push(',');
            }
            input.push_str(&format!("0x{b:02x}"));
        }
        input.push_str("]\n");
    };
    for c in candidates {
        fmt_group(c, &mut input);
        fmt_group(&SENTINEL, &mut input);
    }
    let mut child = Command::new(bin.join("llvm-mc"))
        .args([
            "-triple=amdgcn-amd-amdhsa",
            &format!("-mcpu={mcpu}"),
            "-disassemble",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    // A crashing llvm-mc closes its end early; the write error is expected then.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output()?;
    let _ = writer.join();
    // llvm-mc exits with 1 after warnings about invalid encodings; only a death by signal
    // (no exit code) is a crash.
    if output.status.code().is_none() {
        return Ok(None);
    }
    // Input lines (1-based) with a warning: candidate i is on line 2i+1. A group with a
    // warning is rejected even if part of its bytes printed as an instruction.
    let warned: std::collections::HashSet<usize> = String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|l| l.contains("warning:") || l.contains("error:"))
        .filter_map(|l| l.strip_prefix("<stdin>:")?.split(':').next()?.parse().ok())
        .collect();
    let text = String::from_utf8_lossy(&output.stdout);
    let mut results = Vec::with_capacity(candidates.len());
    let mut chunk: Vec<String> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t == ".text" {
            continue;
        }
        if t == SENTINEL_TEXT {
            let line = 2 * results.len() + 1;
            results.push(match (chunk.len(), chunk.pop()) {
                (1, Some(t)) if !warned.contains(&line) => LlvmOutcome::Text(t),
                _ => LlvmOutcome::Rejected,
            });
            chunk.clear();
        } else {
            chunk.push(t.to_string());
        }
    }
    results.resize(candidates.len(), LlvmOutcome::Rejected);
    Ok(Some(results))
}

/// Assembles `lines` (one instruction each) with `llvm-mc -show-encoding` and returns, per
/// line, the encoding bytes or `None` where llvm-mc rejected the line.
pub fn llvm_mc_assemble(
    bin: &Path,
    mcpu: &str,
    lines: &[String],
) -> std::io::Result<Vec<Option<Vec<u8>>>> {
    let mut input = String::new();
    for l in lines {
        input.push_str(l);
        input.push('\n');
        // A sentinel after each line keeps the output aligned even when a line fails.
        input.push_str("s_nop 0x5a5a\n");
    }
    let mut child = Command::new(bin.join("llvm-mc"))
        .args([
            "-triple=amdgcn-amd-amdhsa",
            &format!("-mcpu={mcpu}"),
            "-show-encoding",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output()?;
    writer.join().expect("writer thread")?;
    let text = String::from_utf8_lossy(&output.stdout);
    let mut results = Vec::with_capacity(lines.len());
    let mut chunk: Vec<Vec<u8>> = Vec::new();
    for line in text.lines() {
        let Some((inst, enc)) = line.split_once("; encoding: [") else {
            continue;
        };
        let bytes: Vec<u8> = enc
            .trim_end_matches(']')
            .split(',')
            .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
            .collect();
        if inst.trim() == SENTINEL_TEXT {
            results.push(if chunk.len() == 1 { chunk.pop() } else { None });
            chunk.clear();
        } else {
            chunk.push(bytes);
        }
    }
    results.resize(lines.len(), None);
    Ok(results)
}

/// Runs `llvm-objdump -d --mcpu=X FILE` and returns its output.
pub fn llvm_objdump(bin: &Path, mcpu: &str, file: &Path) -> std::io::Result<String> {
    let out = Command::new(bin.join("llvm-objdump"))
        .args(["-d", &format!("--mcpu={mcpu}")])
        .arg(file)
        .stderr(Stdio::null())
        .output()?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Normalises whitespace runs to one space (llvm-mc pads its columns).
pub fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
