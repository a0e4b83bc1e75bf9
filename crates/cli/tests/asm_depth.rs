//! `gcn asm` on input nested or chained 100,000 deep, as a user runs it (the assembler on the
//! main thread): a result or an error with file, line and column, never a crash. The
//! library's own tests (`crates/asm/tests/depth.rs`) cover each construct in detail.

use std::path::{Path, PathBuf};
use std::process::Output;

const DEEP: usize = 100_000;

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gcn-asm-depth")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `gcn asm --mcpu=gfx900 -c` on `source` (written to `name` in a scratch directory).
fn asm(name: &str, source: &str) -> Output {
    let dir = scratch(name);
    let input = dir.join(format!("{name}.s"));
    std::fs::write(&input, source).unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_gcn"))
        .args(["asm", "--mcpu=gfx900", "-c", "-o"])
        .arg(dir.join("out.o"))
        .arg(&input)
        .output()
        .expect("gcn runs")
}

fn assert_assembles(name: &str, source: &str) {
    let out = asm(name, source);
    assert!(
        out.status.success(),
        "{name}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Asserts an error (exit status 1) whose first line is `FILE:LINE:COL: error: MESSAGE`.
fn assert_error(name: &str, source: &str, line: u32, message: &str) {
    let out = asm(name, source);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
    let first = stderr.lines().next().unwrap_or("");
    let want_prefix = format!("{name}.s:{line}:");
    assert!(
        first.contains(&want_prefix) && first.contains(&format!("error: {message}")),
        "{name}: {first}"
    );
}

#[test]
fn deep_constant_expressions_assemble() {
    assert_assembles(
        "parens",
        &format!("s_mov_b32 s0, {}1{}\n", "(".repeat(DEEP), ")".repeat(DEEP)),
    );
    assert_assembles("negations", &format!(".long {}1\n", "- ".repeat(DEEP)));
    assert_assembles("mixed", &format!(".long {}1\n", "!~-".repeat(DEEP)));
}

#[test]
fn deep_expressions_over_symbols_are_reported_where_they_go_too_deep() {
    let message = "expression nested too deeply (more than 1000 levels)";
    assert_error(
        "negated-symbol",
        &format!("s_nop 0\ns_mov_b32 s0, {}x\n", "- ".repeat(DEEP)),
        2,
        message,
    );
    assert_error(
        "long-sum",
        &format!(".long {}\n", vec!["x"; DEEP].join("+")),
        1,
        message,
    );
}

#[test]
fn long_chains_of_variables_resolve() {
    let n = 200_000;
    let mut src = String::new();
    for i in 0..n - 1 {
        src.push_str(&format!(".set c{i}, c{} + 1\n", i + 1));
    }
    src.push_str(&format!(".set c{}, 1\n.long c0\n", n - 1));
    assert_assembles("chain", &src);
}

#[test]
fn endless_nesting_of_macros_and_includes_is_an_error() {
    let message = "macros, repetitions or includes nested too deeply";
    assert_error("macro", ".macro m\nm\n.endm\nm\n", 2, message);
    assert_error("include", ".include \"include.s\"\n", 1, message);
    assert_error(
        "rept",
        &format!(
            "{}s_nop 0\n{}",
            ".rept 1\n".repeat(DEEP / 10),
            ".endr\n".repeat(DEEP / 10)
        ),
        256,
        message,
    );
}
