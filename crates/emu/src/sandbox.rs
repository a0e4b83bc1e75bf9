//! Raw machine code on one wave, with no code object and no dispatch around it.
//!
//! This is the entry point for fuzzing the emulator (`fuzz/fuzz_targets/emu_program.rs`) and
//! for tools that run a few instructions (an `llvm-mc` output, a snippet cut from a listing) to
//! see what they do. Whatever the bytes are, running them ends in `Ok` (the wave reached
//! `s_endpgm`) or in a [`SandboxError`] that says why it stopped; it never panics.
//!
//! ```
//! use gcnkit_emu::program::Program;
//! use gcnkit_emu::sandbox::{Sandbox, SandboxOptions, CODE_BASE};
//! use gcnkit_isa::Target;
//!
//! let target = Target::parse("gfx900", None).unwrap();
//! // v_mov_b32 v4, 7; s_endpgm
//! let code = [0x87, 0x02, 0x08, 0x7e, 0x00, 0x00, 0x81, 0xbf];
//! let program = Program::decode(&target, &code, CODE_BASE);
//! let mut sandbox = Sandbox::new(&target, &SandboxOptions::default()).unwrap();
//! sandbox.run(&program).unwrap();
//! assert_eq!(sandbox.wave.v[4], [7; 64]);
//! ```
//!
//! # The wave at the start
//!
//! Every register is zero except:
//! - EXEC: all 64 lanes;
//! - MODE: what clang gives an OpenCL kernel on the generation (round to nearest even, DX10
//!   clamp and IEEE on; f32 denormals flushed on gfx6-gfx8, kept from gfx9 on);
//! - `s[0:3]`: a raw buffer resource over the data allocation (stride 0, NUM_RECORDS its
//!   size), so MUBUF instructions reach memory;
//! - `s[4:5]`: the address of the data allocation, so SMEM and GLOBAL instructions with an
//!   SGPR base reach memory;
//! - `v0`: the lane id; `v[2:3]`: the 64-bit address `data + 4 * lane` (an even pair, as
//!   gfx90a and gfx94x require), so FLAT and GLOBAL instructions reach memory;
//! - the wave's private (scratch) slot: [`SandboxOptions::scratch_per_lane`] bytes per lane
//!   in a separate allocation; on gfx9+ FLAT_SCRATCH holds its address, as a kernel prolog
//!   would leave it.
//!
//! Global memory holds only the data and scratch allocations (zero-filled); anything else
//! faults. The LDS is [`SandboxOptions::lds_bytes`] of zeros. The flat apertures are those
//! of the generation (see [`crate::dispatch::apertures`]). A lone wave that reaches
//! `s_barrier` goes on at once: it is the whole work-group.

use gcnkit_isa::{Gen, Target};

use crate::dispatch::apertures;
use crate::exec::{run_wave, Env, Fault, Flow};
use crate::memory::{Memory, MemoryError};
use crate::program::Program;
use crate::wave::{sreg, Mode, Wave, LANES};

/// The address code is decoded at, by convention (any address works: the code itself is not
/// placed in device memory).
pub const CODE_BASE: u64 = 0x1000;

/// MODE of a gfx9+ OpenCL kernel: round to nearest even, no denormal flushing, DX10 clamp
/// and IEEE on.
const MODE_GFX9: u32 = 0xf0 | 1 << 8 | 1 << 9;
/// MODE of a gfx6-gfx8 OpenCL kernel: f32 denormals flushed, f16/f64 kept.
const MODE_GFX6: u32 = 0xc0 | 1 << 8 | 1 << 9;

/// Largest data or scratch allocation a sandbox makes (every byte of it is host memory).
const MAX_BYTES: u64 = 256 << 20;

/// The shape of a sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SandboxOptions {
    /// Bytes of zeroed global memory the registers point at (rounded up to whole pages).
    pub data_bytes: u64,
    /// Private (scratch) bytes per lane.
    pub scratch_per_lane: u64,
    /// Bytes of LDS.
    pub lds_bytes: usize,
    /// Instructions the wave may execute before it stops with
    /// [`Fault::MaxInstructions`].
    pub max_instructions: u64,
}

impl Default for SandboxOptions {
    /// Four pages of data, 64 private bytes per lane, 64 KiB of LDS, a million instructions.
    fn default() -> Self {
        SandboxOptions {
            data_bytes: 4 * 4096,
            scratch_per_lane: 64,
            lds_bytes: 64 * 1024,
            max_instructions: 1_000_000,
        }
    }
}

/// Why a sandbox run did not reach `s_endpgm`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SandboxError {
    /// The sandbox's memory could not be allocated (options too large).
    #[error("sandbox memory: {0}")]
    Memory(#[from] MemoryError),
    /// The wave faulted.
    #[error("at {pc:#x} (after {instructions} instructions): {fault}")]
    Fault {
        /// Address of the faulting instruction (the end of the code when the program counter
        /// left it).
        pc: u64,
        /// Instructions executed, the faulting one included.
        instructions: u64,
        /// What went wrong.
        fault: Fault,
    },
}

/// One wave with its own memory and LDS, for running raw code. The fields are public so that
/// a caller may set registers and memory before [`Sandbox::run`] and read them after.
pub struct Sandbox {
    /// The target the code runs as.
    pub target: Target,
    /// The wave.
    pub wave: Wave,
    /// Global memory (the data and scratch allocations).
    pub mem: Memory,
    /// The work-group's LDS.
    pub lds: Vec<u8>,
    /// Address of the data allocation.
    pub data: u64,
    /// Address of the scratch allocation (the wave's private slot).
    pub scratch: u64,
    /// The instruction limit (counted from the wave's start, over every run).
    pub max_instructions: u64,
}

impl Sandbox {
    /// A fresh sandbox: memory allocated and the wave set up as the [module
    /// documentation](self) describes.
    pub fn new(target: &Target, options: &SandboxOptions) -> Result<Sandbox, SandboxError> {
        let too_large = |n: u64| SandboxError::Memory(MemoryError::OutOfAddressSpace(n));
        if options.data_bytes > MAX_BYTES {
            return Err(too_large(options.data_bytes));
        }
        let scratch_bytes = options
            .scratch_per_lane
            .checked_mul(LANES as u64)
            .filter(|&n| n <= MAX_BYTES)
            .ok_or_else(|| too_large(options.scratch_per_lane.saturating_mul(LANES as u64)))?;
        let mut mem = Memory::new();
        let data = mem.allocate(options.data_bytes, 4096)?;
        let scratch = mem.allocate(scratch_bytes, 4096)?;

        let gen = target.gen();
        let mut wave = Wave::new();
        wave.set_exec(u64::MAX);
        wave.mode = Mode {
            bits: if gen.is_si_ci() || gen == Gen::Gfx8 {
                MODE_GFX6
            } else {
                MODE_GFX9
            },
        };
        // A raw buffer resource: base 47:0, stride 0, NUM_RECORDS, and the usual dword 3 of
        // a 32-bit format (the semantics of raw accesses do not read it).
        let records = options.data_bytes.min(u32::MAX as u64) as u32;
        let resource = [
            data as u32,
            (data >> 32) as u32 & 0xffff,
            records,
            0x0002_7000,
        ];
        wave.s[..4].copy_from_slice(&resource);
        wave.s[4] = data as u32;
        wave.s[5] = (data >> 32) as u32;
        for lane in 0..LANES {
            let a = data + 4 * lane as u64;
            wave.v[0][lane] = lane as u32;
            wave.v[2][lane] = a as u32;
            wave.v[3][lane] = (a >> 32) as u32;
        }
        wave.scratch_base = scratch;
        wave.scratch_per_lane = options.scratch_per_lane;
        if !gen.is_si_ci() && gen != Gen::Gfx8 {
            wave.set_sreg64(sreg::FLAT_SCRATCH, scratch);
        }
        Ok(Sandbox {
            target: *target,
            wave,
            mem,
            lds: vec![0; options.lds_bytes],
            data,
            scratch,
            max_instructions: options.max_instructions,
        })
    }

    /// Runs the wave from its program counter (operation index `wave.pc`, 0 at the start)
    /// until `s_endpgm`, a fault, or the instruction limit. The state is kept either way.
    pub fn run(&mut self, program: &Program) -> Result<(), SandboxError> {
        let gds = crate::gds::Gds::new(1, crate::gds::DispatchShape::SINGLE_WAVE);
        let mut env = Env {
            target: &self.target,
            mem: &self.mem,
            lds: &mut self.lds,
            program,
            apertures: apertures(self.target.gen()),
            clock: self.wave.instructions,
            trap_aborts: true,
            gds: &gds,
        };
        loop {
            match run_wave(&mut self.wave, program, &mut env, self.max_instructions) {
                Ok(Flow::End) => return Ok(()),
                // The only wave of its work-group: the barrier is met at once.
                Ok(Flow::Barrier) => {}
                Ok(Flow::Next) => {}
                Err(fault) => {
                    let pc = program
                        .ops
                        .get(self.wave.pc)
                        .map_or(program.base.wrapping_add(program.len), |op| op.addr);
                    return Err(SandboxError::Fault {
                        pc,
                        instructions: self.wave.instructions,
                        fault,
                    });
                }
            }
        }
    }
}

/// Decodes `code` for `target` at [`CODE_BASE`] and runs it in a fresh sandbox: the one-call
/// form for fuzzing and for tools. Returns the sandbox after `s_endpgm`.
pub fn run_code(
    target: &Target,
    code: &[u8],
    options: &SandboxOptions,
) -> Result<Sandbox, SandboxError> {
    let program = Program::decode(target, code, CODE_BASE);
    let mut sandbox = Sandbox::new(target, options)?;
    sandbox.run(&program)?;
    Ok(sandbox)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gfx900() -> Target {
        Target::parse("gfx900", None).expect("known processor")
    }

    /// `s_branch -1` (`0xbf82ffff`): a jump to itself.
    const SELF_LOOP: [u8; 4] = [0xff, 0xff, 0x82, 0xbf];

    #[test]
    fn an_endless_loop_stops_at_the_instruction_limit() {
        let options = SandboxOptions {
            max_instructions: 500,
            ..SandboxOptions::default()
        };
        match run_code(&gfx900(), &SELF_LOOP, &options) {
            Err(SandboxError::Fault {
                fault: Fault::MaxInstructions(500),
                instructions: 500,
                pc: CODE_BASE,
            }) => {}
            Err(e) => panic!("unexpected error {e}"),
            Ok(_) => panic!("an endless loop ended"),
        }
    }

    #[test]
    fn running_off_the_end_of_the_code_is_a_bad_jump_at_its_end() {
        // s_nop 0 (0xbf800000) and no s_endpgm.
        let e = run_code(&gfx900(), &[0, 0, 0x80, 0xbf], &SandboxOptions::default()).err();
        assert!(
            matches!(e, Some(SandboxError::Fault { fault: Fault::BadJump(_), pc, .. }) if pc == CODE_BASE + 4),
            "{e:?}"
        );
    }

    #[test]
    fn empty_and_ragged_code_faults_without_panicking() {
        for code in [&[][..], &[1][..], &[0, 0, 0x81][..]] {
            assert!(run_code(&gfx900(), code, &SandboxOptions::default()).is_err());
        }
    }

    #[test]
    fn the_registers_point_at_the_data_allocation() {
        let s = Sandbox::new(&gfx900(), &SandboxOptions::default()).unwrap();
        assert_eq!(s.wave.sreg64(4), s.data);
        assert_eq!(
            s.wave.s[0] as u64 | (s.wave.s[1] as u64 & 0xffff) << 32,
            s.data
        );
        assert_eq!(s.wave.s[2], 4 * 4096);
        assert_eq!(s.wave.v[0][63], 63);
        let a = s.wave.v[2][5] as u64 | (s.wave.v[3][5] as u64) << 32;
        assert_eq!(a, s.data + 20);
        assert!(s.mem.load_u32(s.data + 4 * 4096 - 4).is_ok());
        assert!(s.mem.load_u32(s.data + 4 * 4096).is_err());
        assert_eq!(s.wave.exec(), u64::MAX);
    }

    #[test]
    fn oversized_options_are_an_error() {
        let options = SandboxOptions {
            scratch_per_lane: u64::MAX,
            ..SandboxOptions::default()
        };
        assert!(matches!(
            Sandbox::new(&gfx900(), &options),
            Err(SandboxError::Memory(_))
        ));
    }
}
