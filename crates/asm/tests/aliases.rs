//! Mnemonic aliases (`+alias=` in the table, `gcnkit_isa::mnemonic_aliases`): the old MFMA names on gfx940, gfx9's
//! `_co` names on gfx6/gfx7. `tests/data/aliases.tsv` holds llvm-mc-19's result for each
//! statement (target, statement, encoding or `error COLUMN: message`), made with
//! `echo STMT | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=TARGET -show-encoding`.

use gcnkit_asm::assemble_instruction;
use gcnkit_asm::expr::NoSymbols;
use gcnkit_isa::Target;

#[test]
fn aliases_assemble_as_llvm_mc_assembles_them() {
    let data = include_str!("data/aliases.tsv");
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
    println!("aliases: {compared} compared, {agreed} agreed");
    assert!(compared >= 20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
