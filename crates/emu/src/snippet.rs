//! Running a few instructions on one wave: assemble a snippet with gcnkit's assembler, set
//! registers and memory up, run it, look at the state afterwards. This is what the
//! instruction-vector tests (`tests/emu-vectors/`) and the semantics' unit tests are built
//! on, and what someone studying one instruction wants.
//!
//! ```
//! use gcnkit_emu::snippet::Snippet;
//! let s = Snippet::assemble("gfx900", "v_add_f32 v0, v1, v2").unwrap();
//! let mut state = s.initial_state();
//! state.wave.v[1] = [1.0f32.to_bits(); 64];
//! state.wave.v[2] = [2.0f32.to_bits(); 64];
//! s.run(&mut state).unwrap();
//! assert_eq!(state.wave.v[0][0], 3.0f32.to_bits());
//! ```

use gcnkit_asm::program::{assemble, NoIncludes, Options};
use gcnkit_isa::{Gen, Target};

use crate::exec::{run_wave, Apertures, Env, Fault, Flow};
use crate::memory::Memory;
use crate::program::Program;
use crate::wave::{Mode, Wave};

/// Where snippet code is placed.
pub const CODE_BASE: u64 = 0x1000;

/// The MODE a compute kernel built by clang gets on gfx9+ (round to nearest even, no
/// denormal flushing, DX10 clamp and IEEE on).
pub const MODE_GFX9: u32 = 0xf0 | 1 << 8 | 1 << 9;
/// The MODE of gfx6-gfx8 OpenCL kernels: f32 denormals flushed, f16/f64 kept.
pub const MODE_GFX6: u32 = 0xc0 | 1 << 8 | 1 << 9;

/// The most instructions a snippet may run (a loop that never ends is a fault, not a hang).
pub const INSTRUCTION_LIMIT: u64 = 1_000_000;

/// Bytes of LDS a snippet's wave sees.
pub const LDS_BYTES: usize = 65536;

/// An assembled snippet for one target.
pub struct Snippet {
    /// The target it was assembled for.
    pub target: Target,
    /// The decoded code (an `s_endpgm` follows the snippet's own statements).
    pub program: Program,
}

/// The state a snippet runs on and leaves.
pub struct State {
    /// The wave: registers, MODE, EXEC.
    pub wave: Wave,
    /// Global memory.
    pub mem: Memory,
    /// The work-group's LDS.
    pub lds: Vec<u8>,
    /// The dispatch's GDS and global wave-sync resources (one wave, one thread).
    pub gds: crate::gds::Gds,
}

/// The MODE register compute kernels start with on `target`.
pub fn default_mode(target: &Target) -> u32 {
    let gen = target.gen();
    if gen.is_si_ci() || gen == Gen::Gfx8 {
        MODE_GFX6
    } else {
        MODE_GFX9
    }
}

impl Snippet {
    /// Assembles `source` for the processor `mcpu` and appends `s_endpgm`. The error is the
    /// assembler's messages, or the name of an unknown processor.
    pub fn assemble(mcpu: &str, source: &str) -> Result<Snippet, String> {
        let target = Target::parse(mcpu, None).map_err(|e| format!("{mcpu}: {e}"))?;
        let options = Options {
            target: Some(target),
            ..Options::default()
        };
        let text = format!("{source}\ns_endpgm\n");
        let assembled =
            assemble("snippet.s", &text, &options, &NoIncludes).map_err(|e| format!("{e:?}"))?;
        let code = assembled
            .sections
            .iter()
            .find(|s| s.is_code())
            .map(|s| s.data.clone())
            .unwrap_or_default();
        let program = Program::decode(&target, &code, CODE_BASE);
        Ok(Snippet { target, program })
    }

    /// A fresh state: all registers zero, all 64 lanes enabled, the kernel MODE of the
    /// target, empty memory and zeroed LDS.
    pub fn initial_state(&self) -> State {
        let mut wave = Wave::new();
        wave.set_exec(u64::MAX);
        wave.mode = Mode {
            bits: default_mode(&self.target),
        };
        State {
            wave,
            mem: Memory::new(),
            lds: vec![0; LDS_BYTES],
            gds: crate::gds::Gds::new(1, crate::gds::DispatchShape::SINGLE_WAVE),
        }
    }

    /// Runs the snippet on `state` until `s_endpgm` (a barrier lets the single wave go on).
    pub fn run(&self, state: &mut State) -> Result<Flow, Fault> {
        let mut env = Env {
            target: &self.target,
            mem: &state.mem,
            lds: &mut state.lds,
            program: &self.program,
            apertures: Apertures {
                shared_base: 0x1_0000_0000_0000,
                private_base: 0x2_0000_0000_0000,
            },
            clock: 0,
            trap_aborts: true,
            gds: &state.gds,
        };
        let mut flow = run_wave(&mut state.wave, &self.program, &mut env, INSTRUCTION_LIMIT)?;
        while flow == Flow::Barrier {
            flow = run_wave(&mut state.wave, &self.program, &mut env, INSTRUCTION_LIMIT)?;
        }
        Ok(flow)
    }
}
