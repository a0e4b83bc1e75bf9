//! The assembler language: diagnostics, includes and the corners of directives. Messages
//! and positions are llvm-mc-19's (each noted with the input that shows it); byte values are
//! from llvm-mc-19 runs as well.

use std::collections::HashMap;

use gcnkit_asm::program::{self, FileLoader};

mod common;
use common::{assemble, errors, options, text};

#[test]
fn every_error_of_a_file_is_reported_where_llvm_mc_reports_it() {
    // llvm-mc-19 -mcpu=gfx900 on this file: 3:3 unknown directive, 6:3 custom message,
    // 8:1 symbol 'foo' is already defined.
    let src = ".text\n  s_nop 0\n  .bogus 1\nfoo:\n  s_nop 1\n  .error \"custom message\"\n  s_nop 2\nfoo:\n";
    let e = errors(src);
    assert_eq!(
        e,
        [
            (3, 3, "unknown directive".to_string()),
            (6, 3, "custom message".to_string()),
            (8, 1, "symbol 'foo' is already defined".to_string()),
        ]
    );
}

#[test]
fn diagnostics_print_the_line_and_a_caret_under_the_column() {
    let failed = assemble("\t.text\n\ts_nop 0\n\t.bogus\n").unwrap_err();
    let shown = failed.to_string();
    assert_eq!(shown, "t.s:3:2: error: unknown directive\n\t.bogus\n\t^\n");
}

#[test]
fn branches_out_of_range_and_to_nowhere_are_errors() {
    // llvm-mc-19: "branch size exceeds simm16" and "undefined label 'nowhere'", at the
    // instruction.
    let far = ".text\n  s_branch far\n  .fill 40000, 4, 0\nfar:\n  s_endpgm\n";
    assert_eq!(
        errors(far),
        [(2, 3, "branch size exceeds simm16".to_string())]
    );
    let nowhere = ".text\n  s_branch nowhere\n";
    assert_eq!(
        errors(nowhere),
        [(2, 3, "undefined label 'nowhere'".to_string())]
    );
}

#[test]
fn forward_branches_and_expressions_resolve() {
    // llvm-mc-19: s_branch .L1 over one s_nop is 0x0001 (0x01,0x00,0x82,0xbf); the literal
    // `.L1-.L0` is 8.
    let src = ".text\n.L0:\n  s_branch .L1\n  s_mov_b32 s0, .L1-.L0\n.L1:\n  s_endpgm\n";
    assert_eq!(
        text(src),
        [
            0x02, 0x00, 0x82, 0xbf, 0xff, 0x00, 0x80, 0xbe, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x81, 0xbf
        ]
    );
}

#[test]
fn branch_distances_round_toward_zero_as_llvm_mc_rounds_them() {
    // llvm-mc-19 -filetype=obj: a target one byte past the branch's end is 0 dwords away,
    // one byte before the branch -5 bytes, i.e. -1 dword (0xffff); neither is an error.
    assert_eq!(
        text(".text\n  s_cbranch_scc1 .La\n  .byte 1\n.La:\n"),
        [0x00, 0x00, 0x85, 0xbf, 0x01]
    );
    assert_eq!(
        text(".text\n.Lb: .byte 1\n  s_cbranch_scc1 .Lb\n"),
        [0x01, 0xff, 0xff, 0x85, 0xbf]
    );
}

#[test]
fn purgem_forgets_a_macro() {
    // llvm-mc-19's messages and columns for each misuse, and its bytes.
    let src = "\t.purgem foo\n\t.purgem\n\t.macro foo\n\ts_nop 0\n\t.endm\n\tfoo\n\t.purgem foo\n\tfoo\n\t.purgem FOO x\n";
    assert_eq!(
        errors(src),
        [
            (1, 2, "macro 'foo' is not defined".to_string()),
            (
                2,
                9,
                "expected identifier in '.purgem' directive".to_string()
            ),
            (8, 2, "invalid instruction".to_string()),
            (9, 14, "expected newline".to_string()),
        ]
    );
    let src = "\t.macro s_nop n\n\t.byte \\n\n\t.endm\n\ts_nop 7\n\t.purgem s_nop\n\ts_nop 7\n";
    assert_eq!(text(&format!("\t.text\n{src}")), [7, 7, 0, 0x80, 0xbf]);
}

struct Files(HashMap<&'static str, &'static str>);

impl FileLoader for Files {
    fn load(&self, name: &str, _from: &str) -> Result<(String, String), String> {
        self.0
            .get(name)
            .map(|t| (name.to_string(), t.to_string()))
            .ok_or_else(|| "No such file or directory".to_string())
    }
}

#[test]
fn includes_are_read_through_the_loader_and_errors_name_the_included_file() {
    let files = Files(HashMap::from([
        (
            "defs.inc",
            ".macro twice\n  s_nop \\@\n  s_nop \\@\n.endm\n",
        ),
        ("bad.inc", "\n  s_bogus_instruction\n"),
    ]));
    let src = ".text\n.include \"defs.inc\"\n  twice\n  twice\n";
    let p = program::assemble("main.s", src, &options(), &files).unwrap();
    // s_nop 0, s_nop 0, s_nop 1, s_nop 1
    assert_eq!(
        p.sections[0].data,
        [0, 0, 0x80, 0xbf, 0, 0, 0x80, 0xbf, 1, 0, 0x80, 0xbf, 1, 0, 0x80, 0xbf]
    );
    let f = program::assemble("main.s", ".include \"bad.inc\"\n", &options(), &files).unwrap_err();
    assert_eq!(
        (f.diagnostics[0].file.as_str(), f.diagnostics[0].line),
        ("bad.inc", 2)
    );
    let f = program::assemble("main.s", ".include \"none.inc\"\n", &options(), &files).unwrap_err();
    assert!(f.diagnostics[0].message.contains("none.inc"), "{f}");
}

#[test]
fn runaway_input_stops_with_an_error_instead_of_exhausting_memory() {
    let e = errors(".text\n.rept 1000000000\n.fill 1000, 8, 1\n.endr\n");
    assert_eq!(e.len(), 1);
    assert!(e[0].2.contains("1 GiB"), "{e:?}");
    let e = errors(".macro m\n m\n.endm\n m\n");
    assert!(e[0].2.contains("nested too deeply"), "{e:?}");
}

#[test]
fn conditionals_balance_across_macro_exits() {
    // llvm-mc-19 accepts this: `.exitm` inside `.if` leaves the macro and its `.if`.
    let src = ".macro m x\n .if \\x\n .exitm\n .endif\n s_nop 7\n.endm\n.text\n m 1\n m 0\n";
    assert_eq!(text(src), [7, 0, 0x80, 0xbf]);
    // llvm-mc-19: "<stdin>:2:1: error: unmatched .ifs or .elses" (at the end of input).
    assert_eq!(
        errors(".if 1\n"),
        [(2, 1, "unmatched .ifs or .elses".to_string())]
    );
}
