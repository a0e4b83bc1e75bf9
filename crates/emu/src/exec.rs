//! The execution loop of one wave, what an operation returns, and faults.

use gcnkit_isa::Target;

use crate::memory::{Memory, MemoryFault};
use crate::program::{Op, Program};
use crate::wave::{Wave, WaveStatus};

/// The signature of every semantic function: apply the operation to the wave.
pub type ExecFn = fn(&mut Wave, &Op, &mut Env<'_>) -> Result<Flow, Fault>;

/// What the loop does after an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on with `wave.pc` (the semantic set it for branches).
    Next,
    /// The wave waits at a barrier.
    Barrier,
    /// The wave has ended.
    End,
}

/// Why a wave stopped with an error. The dispatcher adds where (launch, kernel, work-group,
/// wave, program counter, instruction text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// A memory access touched an unmapped address.
    #[error("memory fault: {0}")]
    Memory(#[from] MemoryFault),
    /// The instruction decodes but the emulator has no semantics for it.
    #[error("{0} is not emulated")]
    NotEmulated(String),
    /// The word does not decode as an instruction of this target.
    #[error("illegal instruction word {0:#010x}")]
    Illegal(u32),
    /// `s_trap`.
    #[error("s_trap {0} (the kernel trapped{1})")]
    Trap(u32, &'static str),
    /// The wave executed more instructions than allowed.
    #[error("the wave exceeded the limit of {0} instructions")]
    MaxInstructions(u64),
    /// The program counter left the code.
    #[error("the program counter left the kernel's code (jump to {0:#x})")]
    BadJump(u64),
    /// Some other condition the operation cannot handle, described.
    #[error("{0}")]
    Unsupported(String),
}

/// Apertures and other dispatch-wide constants the semantics read.
#[derive(Clone, Copy, Debug, Default)]
pub struct Apertures {
    /// Base of the LDS (shared) aperture.
    pub shared_base: u64,
    /// Base of the private (scratch) aperture.
    pub private_base: u64,
}

/// Everything an operation may touch besides its wave.
pub struct Env<'a> {
    /// The target.
    pub target: &'a Target,
    /// Global memory.
    pub mem: &'a Memory,
    /// The work-group's LDS.
    pub lds: &'a mut [u8],
    /// The program (for indirect jumps).
    pub program: &'a Program,
    /// Flat apertures.
    pub apertures: Apertures,
    /// A base added to the shader clock that `s_memtime` derives from the wave's own
    /// instruction count (0 in dispatches: each wave's clock starts at its first instruction,
    /// which keeps runs reproducible whatever the thread count).
    pub clock: u64,
    /// Trap ids that end the dispatch with an error (2 = llvm.trap); others are ignored.
    pub trap_aborts: bool,
    /// The dispatch's global data share (shared by every work-group).
    pub gds: &'a crate::gds::Gds,
}

/// An operation for an instruction the emulator has no semantics for.
pub fn not_emulated(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Err(Fault::NotEmulated(op.inst.mnemonic().to_string()))
}

/// An operation for a word that does not decode.
pub fn illegal_instruction(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Err(Fault::Illegal(op.inst.bits as u32))
}

/// MODE.VSKIP.
const MODE_VSKIP: u32 = 1 << 28;

/// True for the vector instructions VSKIP skips: VALU, interpolation, LDS/GDS, buffer, image,
/// flat and export.
fn is_vector(op: &Op) -> bool {
    use gcnkit_isa::Encoding as E;
    !matches!(
        op.inst.def().encoding,
        E::Sop1 | E::Sop2 | E::Sopc | E::Sopk | E::Sopp | E::Smrd | E::Smem
    )
}

/// True for the vector-ALU encodings index mode applies to.
fn is_valu(op: &Op) -> bool {
    use gcnkit_isa::Encoding as E;
    matches!(
        op.inst.def().encoding,
        E::Vop1 | E::Vop2 | E::Vop3 | E::Vopc | E::Vop3p
    )
}

/// `op` with the index added to the VGPR operands `mask` enables: bits 0-2 the sources
/// SRC0..SRC2, bit 3 the destination (M0[15:12], Vega ISA S_SET_GPR_IDX_ON / _MODE). An
/// index past the last VGPR reads v0 (CLRX GcnOperands, "GPR indexing mode").
fn index_vgprs(op: &Op, mask: u32, index: u32) -> Op {
    use crate::program::Src;
    let add = |r: u16| {
        let n = r as u32 + index;
        if n < 256 {
            n as u16
        } else {
            0
        }
    };
    let mut o = *op;
    for i in 0..3 {
        if mask >> i & 1 != 0 {
            if let Src::Vreg(r) = o.src[i] {
                if r < 256 {
                    o.src[i] = Src::Vreg(add(r));
                }
            }
        }
    }
    if mask & 8 != 0 && o.vdst < 256 {
        o.vdst = add(o.vdst);
    }
    o
}

/// Runs `wave` until it ends, reaches a barrier, or faults. At most `budget` more
/// instructions run (the fault then is [`Fault::MaxInstructions`] with `limit`).
pub fn run_wave(
    wave: &mut Wave,
    program: &Program,
    env: &mut Env<'_>,
    limit: u64,
) -> Result<Flow, Fault> {
    let ops = &program.ops[..];
    loop {
        let Some(op) = ops.get(wave.pc) else {
            return Err(Fault::BadJump(program.base + program.len));
        };
        if wave.instructions >= limit {
            return Err(Fault::MaxInstructions(limit));
        }
        wave.pc += 1;
        wave.instructions += 1;
        // VSKIP (MODE bit 28, s_setvskip): "no VOP*/M*BUF/MIMG/DS/FLAT instructions are
        // issued" (CDNA4 ISA S_SETVSKIP); they pass without effect.
        if wave.mode.bits & MODE_VSKIP != 0 && is_vector(op) {
            continue;
        }
        // VGPR index mode (gfx8+): while MODE.GPR_IDX_EN is set, the VALU operands M0[15:12]
        // enables read and write the VGPR M0[7:0] further on (Vega/CDNA ISA S_SET_GPR_IDX_ON).
        let indexed;
        let op = if wave.gpr_idx.is_some() && is_valu(op) {
            let m0 = wave.s[crate::wave::sreg::M0 as usize];
            indexed = index_vgprs(op, m0 >> 12 & 15, m0 & 0xff);
            &indexed
        } else {
            op
        };
        match (op.exec)(wave, op, env) {
            Ok(Flow::Next) => {}
            Ok(Flow::Barrier) => {
                wave.status = WaveStatus::AtBarrier;
                return Ok(Flow::Barrier);
            }
            Ok(Flow::End) => {
                wave.status = WaveStatus::Done;
                return Ok(Flow::End);
            }
            Err(e) => {
                // Leave pc at the faulting operation for the report.
                wave.pc -= 1;
                return Err(e);
            }
        }
    }
}
