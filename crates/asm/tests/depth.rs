//! Input nested or chained arbitrarily deep: expressions, variables defined from variables,
//! macros, repetitions, includes and conditionals. Each test builds its input here and runs
//! on the test thread's default stack (2 MiB): deep input must give a result or a clear
//! error, never a stack overflow. llvm-mc-19's own results are noted where it has one (it
//! runs out of stack on expressions 20,000 to 50,000 levels deep, on chains of 200,000
//! variables assigned before they are defined, and loops on a file that includes itself).

use gcnkit_asm::expr::MAX_EXPR_DEPTH;
use gcnkit_asm::program::{self, FileLoader, Severity};

const DEEP: usize = 100_000;

mod common;
use common::{assemble, errors, options, text};

fn too_deep() -> String {
    format!("expression nested too deeply (more than {MAX_EXPR_DEPTH} levels)")
}

/// `s_mov_b32 s0, 1` with the constant written as `expr`.
fn s_mov_1(expr: &str) -> Vec<u8> {
    text(&format!("s_mov_b32 s0, {expr}\n"))
}

const S_MOV_S0_1: [u8; 4] = [0x81, 0x00, 0x80, 0xbe];

#[test]
fn parentheses_around_a_constant_nest_without_limit() {
    // llvm-mc-19 encodes this at 10,000 levels and crashes at 20,000.
    let expr = format!("{}1{}", "(".repeat(DEEP), ")".repeat(DEEP));
    assert_eq!(s_mov_1(&expr), S_MOV_S0_1);
}

#[test]
fn prefix_operators_on_a_constant_nest_without_limit() {
    assert_eq!(s_mov_1(&format!("{}1", "- ".repeat(DEEP))), S_MOV_S0_1);
    // `!~-` three at a time: -1, 0, then 1 again.
    assert_eq!(s_mov_1(&format!("{}1", "!~-".repeat(DEEP))), S_MOV_S0_1);
    let nested = format!("{}1{}", "-(~(".repeat(DEEP / 2), "))".repeat(DEEP / 2));
    assert_eq!(s_mov_1(&nested), {
        // -(~x) = x + 1, applied DEEP/2 times to 1.
        let v = 1 + DEEP as u32 / 2;
        let mut b = vec![0xff, 0x00, 0x80, 0xbe];
        b.extend_from_slice(&v.to_le_bytes());
        b
    });
}

#[test]
fn long_sums_of_constants_fold_as_they_are_read() {
    let expr = vec!["1"; DEEP].join("+");
    let mut want = vec![0xff, 0x00, 0x80, 0xbe];
    want.extend_from_slice(&(DEEP as u32).to_le_bytes());
    assert_eq!(s_mov_1(&expr), want);
}

#[test]
fn expressions_over_symbols_nest_up_to_the_limit_and_no_further() {
    // At the limit: the value is found at the end (a fixup), printed in the listing and used
    // by a variable and data.
    let negs = MAX_EXPR_DEPTH - 1;
    let expr = format!("{}x{}", "-(".repeat(negs), ")".repeat(negs));
    let src = format!("s_mov_b32 s0, {expr}\n.set y, {expr}\n.long y\n.long {expr}\nx = 5\n");
    let p = assemble(&src).unwrap_or_else(|e| panic!("{e}"));
    // (The instruction's literal is PC-relative, as llvm-mc makes it: a relocation.)
    let data = &p.sections[0].data;
    assert_eq!(data[8..12], (-5i32).to_le_bytes());
    assert_eq!(data[12..16], (-5i32).to_le_bytes());
    assert!(p.instructions[0].fixups[0].1.starts_with("---"));

    // One level more: an error at the operator that goes past the limit.
    let src = format!("s_mov_b32 s0, -{expr}\n");
    let e = errors(&src);
    assert_eq!(e, [(1, 15, too_deep())]);
    let src = format!(".long -{expr}\n");
    assert_eq!(errors(&src), [(1, 7, too_deep())]);
}

#[test]
fn deep_expressions_over_symbols_are_errors_not_crashes() {
    let cases = [
        format!("{}x", "- ".repeat(DEEP)),
        format!("{}x{}", "~(".repeat(DEEP), ")".repeat(DEEP)),
        format!("{}x", "!~-".repeat(DEEP)),
        vec!["x"; DEEP].join("+"),
        vec!["x"; DEEP].join("*"),
        format!("{}x{}", "(x+".repeat(DEEP), ")".repeat(DEEP)),
    ];
    for expr in &cases {
        for stmt in [
            format!("s_mov_b32 s0, {expr}"),
            format!(".long {expr}"),
            format!(".set y, {expr}"),
            format!("y = {expr}"),
            format!(".if {expr}\n.endif"),
        ] {
            let e = errors(&stmt);
            assert_eq!(e.len(), 1, "{}", &stmt[..40]);
            assert_eq!((e[0].0, &e[0].2), (1, &too_deep()), "{}", &stmt[..40]);
        }
    }
}

/// Writes the assignment of a value to a name, the `usize`-th of a chain.
type Assign = dyn Fn(usize, &str, &str) -> String;

/// A chain `NAME0 = NAME1 + 1`, ..., `NAME{n-1} = 1` written with `assign(name, value)`,
/// first link first (each assigned before the next is defined) or last link first.
fn chain(n: usize, first_link_first: bool, assign: &Assign) -> String {
    let link = |i: usize| {
        let value = if i == n - 1 {
            "1".to_string()
        } else {
            format!("c{} + 1", i + 1)
        };
        assign(i, &format!("c{i}"), &value)
    };
    let mut src = String::new();
    if first_link_first {
        (0..n).for_each(|i| src.push_str(&link(i)));
    } else {
        (0..n).rev().for_each(|i| src.push_str(&link(i)));
    }
    src
}

#[test]
fn long_chains_of_variables_resolve_in_either_order() {
    // llvm-mc-19 gives 200000 when the chain is written last link first and crashes on the
    // other order (it follows the chain recursively).
    let n = 200_000;
    let spellings: [&Assign; 2] = [
        &|_, name, value| format!(".set {name}, {value}\n"),
        &|i, name, value| match i % 3 {
            0 => format!(".set {name}, {value}\n"),
            1 => format!("{name} = {value}\n"),
            _ => format!(".equ {name}, {value}\n"),
        },
    ];
    for (k, assign) in spellings.iter().enumerate() {
        for first_link_first in [true, false] {
            let mut src = chain(n, first_link_first, assign);
            // Data, an instruction literal and a conditional all read c0.
            src.push_str(".long c0\ns_mov_b32 s1, c0\n.if c0 - 200000\n.error \"wrong\"\n.endif\n");
            let p = assemble(&src).unwrap_or_else(|e| panic!("spelling {k}: {e}"));
            let data = &p.sections[0].data;
            assert_eq!(data[..4], 200_000u32.to_le_bytes(), "spelling {k}");
            assert_eq!(data[8..12], 200_000u32.to_le_bytes(), "spelling {k}");
            let c0 = p.symbols.iter().find(|s| s.name == "c0").unwrap();
            assert_eq!(c0.value, 200_000);
        }
    }
}

#[test]
fn long_chains_over_an_undefined_symbol_become_one_relocation() {
    // c0 = c1 + 1, ..., c{n-1} = ext: the data holds ext + n - 1.
    let n = 200_000;
    let mut src = String::new();
    for i in 0..n - 1 {
        src.push_str(&format!(".set c{i}, c{} + 1\n", i + 1));
    }
    src.push_str(&format!(".set c{}, ext\n.long c0\n", n - 1));
    let p = assemble(&src).unwrap_or_else(|e| panic!("{e}"));
    let relocs = &p.sections[0].relocations;
    assert_eq!(relocs.len(), 1);
    assert_eq!(relocs[0].addend, n as i64 - 1);
    // Built from the undefined end: each new link names the last one.
    let mut src = String::from(".set c0, ext\n");
    for i in 1..n {
        src.push_str(&format!(".set c{i}, c{} + 1\n", i - 1));
    }
    src.push_str(&format!(".long c{}\n", n - 1));
    let p = assemble(&src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.sections[0].relocations[0].addend, n as i64 - 1);
}

#[test]
fn cycles_are_refused_where_llvm_mc_refuses_them() {
    // llvm-mc-19: each message at the first token of the expression.
    assert_eq!(
        errors(".set a, b+1\n.set b, a+1\ns_mov_b32 s0, a\n"),
        [(2, 9, "Recursive use of 'b'".to_string())]
    );
    assert_eq!(
        errors(".set a, a+1\n"),
        [(1, 9, "Recursive use of 'a'".to_string())]
    );
    assert_eq!(
        errors(".set a, b\n.set b, c\n.set c, a\n.long b\n"),
        [(3, 9, "Recursive use of 'c'".to_string())]
    );
    assert_eq!(
        errors("x = y\ny =   x\n.long x\n"),
        [(2, 7, "Recursive use of 'y'".to_string())]
    );
    assert_eq!(
        errors(".long a\n.set a, a+1\n"),
        [(2, 9, "Recursive use of 'a'".to_string())]
    );
    assert_eq!(
        errors(".set a, x\n.set a, a+1\n.long a\n"),
        [(
            2,
            9,
            "invalid reassignment of non-absolute variable 'a'".to_string()
        )]
    );
    // A constant variable stands for its value: no cycle (llvm-mc-19: 2, then 2).
    assert_eq!(
        text(".set a, 1\n.set a, a+1\n.long a\n"),
        2u32.to_le_bytes()
    );
    assert_eq!(
        text(".set b, 2\n.set a, b\n.set b, a\n.long b\n"),
        2u32.to_le_bytes()
    );
    // A long cycle closed at the end.
    let n = 200_000;
    let mut src = String::new();
    for i in 0..n {
        src.push_str(&format!(".set c{i}, c{} + 1\n", (i + 1) % n));
    }
    assert_eq!(
        errors(&src),
        [(n as u32, 15, format!("Recursive use of 'c{}'", n - 1))]
    );
}

#[test]
fn dot_in_a_variable_is_the_location_of_the_assignment() {
    // llvm-mc-19: `.set x, . - y` at offset 0 with y at 0 is 0 wherever x is used.
    assert_eq!(
        text(".set x, . - y\ny:\ns_nop 0\n.long x\n"),
        [0x00, 0x00, 0x80, 0xbf, 0, 0, 0, 0]
    );
}

#[test]
fn macros_calling_themselves_stop_with_an_error() {
    for src in [
        ".macro m\nm\n.endm\nm\n",
        ".macro a\nb\n.endm\n.macro b\na\n.endm\na\n",
        ".macro m n\n.if \\n\nm (\\n-1)\n.endif\n.endm\nm 100000\n",
    ] {
        let e = errors(src);
        assert_eq!(e.len(), 1, "{src}: {e:?}");
        assert!(e[0].2.contains("nested too deeply"), "{src}: {e:?}");
    }
}

#[test]
fn nested_repetitions_stop_with_an_error() {
    for kind in [".rept 1", ".irp x, 1", ".irpc x, 1"] {
        let src = format!(
            "{}s_nop 0\n{}",
            format!("{kind}\n").repeat(DEEP),
            ".endr\n".repeat(DEEP)
        );
        let e = errors(&src);
        assert_eq!(e.len(), 1, "{kind}: {e:?}");
        assert!(e[0].2.contains("nested too deeply"), "{kind}: {e:?}");
    }
}

#[test]
fn deeply_nested_conditionals_are_followed() {
    // llvm-mc-19 assembles this (one s_nop).
    let src = format!(
        "{}s_nop 0\n{}",
        ".if 1\n".repeat(DEEP),
        ".endif\n".repeat(DEEP)
    );
    assert_eq!(text(&src), [0x00, 0x00, 0x80, 0xbf]);
    let src = format!(
        "{}s_nop 0\n{}s_nop 1\n",
        ".if 0\n.else\n".repeat(DEEP),
        ".endif\n".repeat(DEEP)
    );
    assert_eq!(text(&src), [0x00, 0x00, 0x80, 0xbf, 0x01, 0x00, 0x80, 0xbf]);
    let src = format!("{}s_nop 0\n", ".if 1\n".repeat(DEEP));
    assert_eq!(
        errors(&src),
        [(DEEP as u32 + 2, 1, "unmatched .ifs or .elses".to_string())]
    );
}

/// Every file includes the next, or itself.
struct Chain;

impl FileLoader for Chain {
    fn load(&self, name: &str, _from: &str) -> Result<(String, String), String> {
        let text = match name.strip_prefix("f").and_then(|n| n.parse::<u64>().ok()) {
            Some(n) => format!(".include \"f{}\"\ns_nop 0\n", n + 1),
            None => format!(".include \"{name}\"\n"),
        };
        Ok((name.to_string(), text))
    }
}

#[test]
fn includes_that_never_end_stop_with_an_error() {
    // llvm-mc-19 reads a file that includes itself until it is killed.
    for root in [".include \"self.s\"\n", ".include \"f0\"\n"] {
        let e = match program::assemble("t.s", root, &options(), &Chain) {
            Ok(_) => panic!("{root}: assembled"),
            Err(f) => f.diagnostics,
        };
        let errors: Vec<_> = e.iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(errors.len(), 1, "{root}: {e:?}");
        assert!(errors[0].message.contains("nested too deeply"), "{e:?}");
    }
}
