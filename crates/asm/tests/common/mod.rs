//! Helpers shared by the tests of the program assembler: assemble a source for gfx900 and
//! look at its errors or its `.text` bytes.

// Each test binary uses its own subset of these.
#![allow(dead_code)]

use gcnkit_asm::program::{self, NoIncludes, Options, Program, Severity};
use gcnkit_isa::Target;

/// gfx900, instructions recorded as they are assembled.
pub fn options() -> Options {
    Options {
        target: Some(Target::parse("gfx900", None).unwrap()),
        record_instructions: true,
        ..Options::default()
    }
}

/// Assembles `source` as the file `t.s`, without includes.
pub fn assemble(source: &str) -> Result<Program, program::Failed> {
    program::assemble("t.s", source, &options(), &NoIncludes)
}

/// The errors of `source`, as (line, column, message); none if it assembles.
pub fn errors(source: &str) -> Vec<(u32, u32, String)> {
    match assemble(source) {
        Ok(_) => Vec::new(),
        Err(f) => f
            .diagnostics
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.line, d.col, d.message))
            .collect(),
    }
}

/// The `.text` bytes of `source`, which must assemble.
pub fn text(source: &str) -> Vec<u8> {
    let p = assemble(source).unwrap_or_else(|e| panic!("{e}"));
    p.sections
        .into_iter()
        .find(|s| s.name == ".text")
        .unwrap()
        .data
}
