//! Unit-test support: assemble a few instructions with gcnkit's assembler, run them on one
//! wave, and look at the registers and memory afterwards.
//!
//! ```ignore
//! let r = run("gfx900", "v_add_f32 v0, v1, v2", |w, _| {
//!     w.v[1] = [1.0f32.to_bits(); 64];
//!     w.v[2] = [2.0f32.to_bits(); 64];
//! }).unwrap();
//! assert_eq!(r.wave.v[0][0], 3.0f32.to_bits());
//! ```

use gcnkit_asm::program::{assemble, NoIncludes, Options};
use gcnkit_isa::Target;

use crate::exec::{run_wave, Apertures, Env, Fault, Flow};
use crate::memory::Memory;
use crate::program::Program;
use crate::wave::{Mode, Wave};

/// Where the test code is placed.
pub const CODE_BASE: u64 = 0x1000;

/// The MODE a compute kernel built by clang gets on gfx9+ (round to nearest even, no
/// denormal flushing, DX10 clamp and IEEE on).
pub const MODE_GFX9: u32 = 0xf0 | 1 << 8 | 1 << 9;
/// The MODE of gfx6-gfx8 OpenCL kernels: f32 denormals flushed, f16/f64 kept.
pub const MODE_GFX6: u32 = 0xc0 | 1 << 8 | 1 << 9;

/// What a test run leaves.
#[allow(dead_code)] // each family's tests look at the parts they need
pub struct Outcome {
    /// The wave after the run.
    pub wave: Wave,
    /// Global memory after the run.
    pub mem: Memory,
    /// The LDS after the run.
    pub lds: Vec<u8>,
    /// How the run ended.
    pub flow: Flow,
}

/// Assembles `source` for `mcpu` (panics with the assembler's messages on error: a test
/// bug).
pub fn program(mcpu: &str, source: &str) -> (Target, Program) {
    let target = Target::parse(mcpu, None).expect("known processor");
    let options = Options {
        target: Some(target),
        ..Options::default()
    };
    let text = format!("{source}\ns_endpgm\n");
    let assembled = match assemble("test.s", &text, &options, &NoIncludes) {
        Ok(p) => p,
        Err(e) => panic!("test program does not assemble: {e:?}"),
    };
    let code = assembled
        .sections
        .iter()
        .find(|s| s.is_code())
        .map(|s| s.data.clone())
        .unwrap_or_default();
    let program = Program::decode(&target, &code, CODE_BASE);
    (target, program)
}

/// Runs `source` (an `s_endpgm` is appended) on one wave with all 64 lanes enabled, 64 KiB of
/// LDS and the gfx9 (or gfx6-8) default MODE, after `setup` has prepared registers and memory.
pub fn run(
    mcpu: &str,
    source: &str,
    setup: impl FnOnce(&mut Wave, &mut Memory),
) -> Result<Outcome, Fault> {
    let (target, program) = program(mcpu, source);
    let mut wave = Wave::new();
    wave.set_exec(u64::MAX);
    wave.mode = Mode {
        bits: if target.gen().is_si_ci() || target.gen() == gcnkit_isa::Gen::Gfx8 {
            MODE_GFX6
        } else {
            MODE_GFX9
        },
    };
    let mut mem = Memory::new();
    setup(&mut wave, &mut mem);
    let mut lds = vec![0u8; 65536];
    let gds = crate::gds::Gds::new(1, crate::gds::DispatchShape::SINGLE_WAVE);
    let mut env = Env {
        target: &target,
        mem: &mem,
        lds: &mut lds,
        program: &program,
        apertures: Apertures {
            shared_base: 0x1_0000_0000_0000,
            private_base: 0x2_0000_0000_0000,
        },
        clock: 0,
        trap_aborts: true,
        gds: &gds,
    };
    let mut flow = run_wave(&mut wave, &program, &mut env, 1_000_000)?;
    while flow == Flow::Barrier {
        flow = run_wave(&mut wave, &program, &mut env, 1_000_000)?;
    }
    Ok(Outcome {
        wave,
        mem,
        lds,
        flow,
    })
}

/// 64 lanes of one 32-bit value.
pub fn splat(x: u32) -> [u32; 64] {
    [x; 64]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_branch_over_a_trap_reaches_the_end() {
        let r = run(
            "gfx900",
            "s_branch skip\ns_trap 2\nskip:\ns_nop 0",
            |_, _| {},
        )
        .unwrap();
        assert_eq!(r.flow, Flow::End);
    }

    #[test]
    fn s_trap_2_faults_and_names_the_trap() {
        let e = run("gfx900", "s_trap 2", |_, _| {}).err().unwrap();
        assert!(matches!(e, Fault::Trap(2, _)), "{e:?}");
    }
}
