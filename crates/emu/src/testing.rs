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

use gcnkit_isa::Target;

use crate::exec::{Fault, Flow};
use crate::memory::Memory;
use crate::program::Program;
use crate::snippet::{Snippet, State};
pub use crate::snippet::{MODE_GFX6, MODE_GFX9};
use crate::wave::Wave;

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
    match Snippet::assemble(mcpu, source) {
        Ok(s) => (s.target, s.program),
        Err(e) => panic!("test program does not assemble: {e}"),
    }
}

/// Runs `source` (an `s_endpgm` is appended) on one wave with all 64 lanes enabled, 64 KiB of
/// LDS and the gfx9 (or gfx6-8) default MODE, after `setup` has prepared registers and memory.
pub fn run(
    mcpu: &str,
    source: &str,
    setup: impl FnOnce(&mut Wave, &mut Memory),
) -> Result<Outcome, Fault> {
    let snippet = match Snippet::assemble(mcpu, source) {
        Ok(s) => s,
        Err(e) => panic!("test program does not assemble: {e}"),
    };
    let mut state: State = snippet.initial_state();
    setup(&mut state.wave, &mut state.mem);
    let flow = snippet.run(&mut state)?;
    Ok(Outcome {
        wave: state.wave,
        mem: state.mem,
        lds: state.lds,
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
