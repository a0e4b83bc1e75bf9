//! The emulator's decoder and semantics on arbitrary machine code: for each of the eight
//! targets, `Program::decode` then one wave run over it in a sandbox (a few pages of memory
//! the registers point at, 64 KiB of LDS, a small instruction budget). Faults are fine
//! (illegal words, unmapped addresses, instructions not emulated, the budget); a panic is a
//! bug.
#![no_main]

use gcnkit_emu::program::Program;
use gcnkit_emu::sandbox::{Sandbox, SandboxOptions, CODE_BASE};
use gcnkit_isa::Target;
use libfuzzer_sys::fuzz_target;

const TARGETS: [&str; 8] = [
    "gfx600", "gfx700", "gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
];

/// Random code loops often; a small budget keeps runs fast (eight targets per input), and a
/// loop of a few instructions still runs hundreds of times.
const OPTIONS: SandboxOptions = SandboxOptions {
    data_bytes: 4 * 4096,
    scratch_per_lane: 64,
    lds_bytes: 64 * 1024,
    max_instructions: 2_000,
};

fuzz_target!(|code: &[u8]| {
    for name in TARGETS {
        let Ok(target) = Target::parse(name, None) else {
            panic!("{name} is a known processor");
        };
        let program = Program::decode(&target, code, CODE_BASE);
        let Ok(mut sandbox) = Sandbox::new(&target, &OPTIONS) else {
            panic!("the sandbox's memory fits");
        };
        let _ = sandbox.run(&program);
    }
});
