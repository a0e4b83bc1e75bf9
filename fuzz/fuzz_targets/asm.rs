//! The assembler on arbitrary text, for every processor: never a panic. What assembles is
//! also written as an ELF object and, instruction by instruction, disassembled again
//! (which must not panic either). The same text is assembled again with a thread assembling
//! ahead (the pre-pass large files get), which must give the same result.
#![no_main]

use gcnkit_asm::program::{self, elf, NoIncludes, Options};
use gcnkit_isa::{Target, PROCESSORS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let processor = &PROCESSORS[selector as usize % PROCESSORS.len()];
    let options = |threads, record_instructions| Options {
        target: Some(Target::new(processor)),
        record_instructions,
        // Large sections only cost time here.
        max_section_size: 1 << 16,
        threads,
    };
    if let Ok(program) = program::assemble("fuzz.s", text, &options(1, true), &NoIncludes) {
        let _ = elf::write_relocatable(&program);
        for inst in &program.instructions {
            let _ = gcnkit_disasm::disassemble_one(&program.target, &inst.bytes);
        }
    }
    let one = program::assemble("fuzz.s", text, &options(1, false), &NoIncludes);
    let two = program::assemble("fuzz.s", text, &options(2, false), &NoIncludes);
    assert_eq!(format!("{one:?}"), format!("{two:?}"), "threads change the result");
});
