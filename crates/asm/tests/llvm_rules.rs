//! Statements that pin down how llvm-mc-19 reads AMDGPU assembly where the manuals say
//! nothing: modifier words read as operands, v_nop's SDWA/DPP forms, which registers scalar
//! memory takes, ... `tests/data/llvm-rules.tsv` holds llvm-mc-19's result for each
//! statement of `tests/data/llvm-rules.in` (target, statement, encoding or
//! `error COLUMN: message`), written by `tests/data/gen_llvm_rules.py`; the assembler must
//! give the same bytes, or reject the statement with the same message at the same column.

use gcnkit_asm::assemble_instruction;
use gcnkit_asm::expr::NoSymbols;
use gcnkit_isa::Target;

#[test]
fn statements_assemble_as_llvm_mc_assembles_them() {
    let data = include_str!("data/llvm-rules.tsv");
    let (mut compared, mut agreed) = (0, 0);
    let mut failures = Vec::new();
    for line in data.lines() {
        let mut f = line.split('\t');
        let (Some(cpu), Some(stmt), Some(want)) = (f.next(), f.next(), f.next()) else {
            panic!("malformed line: {line}");
        };
        let target = Target::parse(cpu, None).unwrap();
        let got = match assemble_instruction(&target, stmt, &NoSymbols) {
            Ok(e) => {
                let bytes: Vec<String> = e.as_bytes().iter().map(|b| format!("{b:#04x}")).collect();
                format!("[{}]", bytes.join(","))
            }
            Err(errs) => format!("error {}: {}", errs[0].span.start + 1, errs[0].message),
        };
        compared += 1;
        if got == want {
            agreed += 1;
        } else {
            failures.push(format!("{cpu} `{stmt}`: gcnkit {got}, llvm-mc {want}"));
        }
    }
    println!("llvm-mc reading rules: {compared} compared, {agreed} agreed");
    assert!(compared >= 50);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
