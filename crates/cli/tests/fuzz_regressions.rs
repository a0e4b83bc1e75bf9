//! Inputs that once crashed a fuzz target (`fuzz/regressions/`) must render without a panic.

use gcnkit_cli::disasm::{render, Style};
use gcnkit_disasm::listing::Output;

#[test]
fn fuzz_regressions_render_without_panicking() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("fuzz/regressions exists") {
        let path = entry.expect("readable directory").path();
        let bytes = std::fs::read(&path).expect("readable file");
        for style in [Style::LlvmObjdump, Style::Source] {
            let mut out = Output::memory();
            let _ = render("regression", &bytes, None, style, 1, &mut out);
        }
        n += 1;
    }
    println!("{n} regression inputs rendered");
    assert!(n > 0);
}

#[test]
fn fuzz_regressions_read_with_gcn_info_without_panicking() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("fuzz/regressions exists") {
        let path = entry.expect("readable directory").path();
        let bytes = std::fs::read(&path).expect("readable file");
        for json in [false, true] {
            let _ = gcnkit_cli::info::render(&path, &bytes, json, false);
        }
        n += 1;
    }
    println!("{n} regression inputs read by gcn info");
    assert!(n > 0);
}
