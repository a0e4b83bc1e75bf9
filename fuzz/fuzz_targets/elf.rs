//! The ELF reader and the whole `gcn disasm` rendering on arbitrary files: never a panic.
#![no_main]

use gcnkit_cli::disasm::{render, Style};
use gcnkit_disasm::listing::Output;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(obj) = gcnkit_codeobj::CodeObject::parse(data) {
        for s in &obj.sections {
            let _ = obj.symbols_in(s.index).count();
        }
    }
    // Rendering needs an ELF (raw code needs a target); both styles.
    for style in [Style::LlvmObjdump, Style::Source] {
        let mut out = Output::memory();
        let _ = render("fuzz", data, None, style, 2, &mut out);
    }
});
