//! Threads that assemble ahead (the pre-pass large files get) change nothing: every source
//! here gives the same object, or the same diagnostics, on one thread and on several. The
//! sources gather what could make a statement assembled ahead differ from the one the
//! sequential pass would assemble: macros named like instructions, conditionals, block
//! comments, repetitions, labels on the line, symbols that gain values, branches to labels
//! that are absolute symbols, errors, a target named only in the source, CRLF lines.
//! Whether the one-thread result is right is checked against llvm-mc elsewhere (the
//! difftest crate, which also runs its corpora both ways).

use gcnkit_asm::program::{self, NoIncludes, Options};
use gcnkit_isa::Target;

/// Assembles `source` with 1 thread and with `threads`, and returns both results as text.
fn both(source: &str, target: Option<&str>, threads: usize) -> (String, String) {
    let run = |threads| {
        let options = Options {
            target: target.map(|t| Target::parse(t, None).unwrap()),
            threads,
            ..Options::default()
        };
        format!(
            "{:?}",
            program::assemble("t.s", source, &options, &NoIncludes)
        )
    };
    (run(1), run(threads))
}

/// `body` repeated until the source is well over the pre-pass's smallest chunk, so that
/// chunks start and end everywhere in it.
fn repeated(head: &str, body: &str) -> String {
    let mut s = head.to_string();
    while s.len() < 64 << 10 {
        s.push_str(body);
    }
    s
}

fn assert_same(source: &str, target: Option<&str>) {
    for threads in [2, 3, 8] {
        let (one, many) = both(source, target, threads);
        assert_eq!(one, many, "{threads} threads differ from one");
    }
}

#[test]
fn the_test_programs_assemble_the_same_on_threads() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/asm");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "s") {
            let source = std::fs::read_to_string(&path).unwrap();
            assert_same(&repeated("", &source.replace(".globl", "; .globl")), None);
            files += 1;
        }
    }
    println!("{files} programs, each on 1, 2, 3 and 8 threads");
    assert!(files >= 4);
}

#[test]
fn statements_whose_meaning_depends_on_what_came_before_assemble_the_same() {
    // One repetition; `{i}` makes its labels and symbols distinct from the others'.
    let body = |i: usize| {
        format!(
            "\
start{i}:
\ts_nop 0
\tS_NOP 1
\tv_add_f32 v0, v1, v2 ; comment
\tv_add_f32 v0, v1, v2 // comment
x{i}: s_mov_b32 s0, 1
\ts_cbranch_scc1 .Lahead{i}
\ts_branch .Labs{i}
\t.set .Labs{i}, 8
\ts_branch .Labs{i}
\ts_mov_b32 s1, later{i}
\tlater{i} = 5
\ts_mov_b32 s1, later{i}
\t.if 0
\ts_nop 2
\tv_bogus v0
\t.endif
\t/* a block comment
\ts_nop 3
\t*/ s_nop 4
\t.rept 2
\ts_nop 5
\t.endr
\t.macro s_nop n
\t.byte \\n
\t.endm
\ts_nop 6
\t.purgem s_nop
\ts_nop 7
.Lahead{i}:
\ts_add_u32 s0, s0, . - 4
\ts_endpgm\r
"
        )
    };
    let mut source = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n\t.text\n".to_string();
    let mut i = 0;
    while source.len() < 64 << 10 {
        source.push_str(&body(i));
        i += 1;
    }
    assert_same(&source, None);
    assert_same(&source, Some("gfx900"));
}

#[test]
fn errors_are_reported_the_same_on_threads() {
    let source = repeated(
        "\t.text\n",
        "\ts_nop 0\n\tv_add_f32 v0, v1\n\ts_mov_b32 s0, s1, s2\n\tbogus_op v0\n\ts_branch .Lnowhere\n",
    );
    assert_same(&source, Some("gfx90a"));
}

#[test]
fn a_second_target_in_the_source_is_handled_the_same() {
    let source = repeated(
        "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx908\"\n\t.text\n",
        "\tv_accvgpr_read_b32 v0, a1\n\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n",
    );
    assert_same(&source, None);
}
