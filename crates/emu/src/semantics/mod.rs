//! The semantics: one module per family of instructions, each operation written once and
//! shared by every generation where it is the same.
//!
//! Each family has a `select` function that, given a decoded instruction (its table row's
//! [`gcnkit_isa::Mnemonic`]), returns the operation's semantic function and may adjust the
//! pre-resolved [`Op`]. A row no family selects is "not emulated": running it faults with
//! that message. [`is_emulated`] answers for the coverage report.

use gcnkit_isa::{Encoding, Instruction};

use crate::exec::ExecFn;
use crate::program::{BuildContext, Op};

pub mod valu;

mod control_stack;
mod export;
mod gds;
mod interp;
pub(crate) mod mimg;
mod screen_partition;
mod tfe;

mod ds;
mod flat;
mod mfma;
mod salu;
mod smem;
mod sopp;
mod vmem;
mod vop_cmp;
mod vop_float;
mod vop_int;
mod vop_lane;
mod vop_packed;

/// The semantic function for `inst`, or `None` if it is not emulated.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let def = inst.def();
    match def.encoding {
        // The SOPP index-mode rows (s_set_gpr_idx_off/_mode) are scalar-ALU state.
        Encoding::Sopp => sopp::select(inst, op, ctx).or_else(|| salu::select(inst, op, ctx)),
        Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc | Encoding::Sopk => {
            sopp::select(inst, op, ctx).or_else(|| salu::select(inst, op, ctx))
        }
        Encoding::Smrd | Encoding::Smem => smem::select(inst, op, ctx),
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vop3 | Encoding::Vopc | Encoding::Vop3p => {
            vop_lane::select(inst, op, ctx)
                .or_else(|| vop_cmp::select(inst, op, ctx))
                .or_else(|| vop_int::select(inst, op, ctx))
                .or_else(|| vop_float::select(inst, op, ctx))
                .or_else(|| vop_packed::select(inst, op, ctx))
                .or_else(|| mfma::select(inst, op, ctx))
                .or_else(|| interp::select(inst, op, ctx))
                .or_else(|| screen_partition::select(inst, op, ctx))
        }
        Encoding::Ds => ds::select(inst, op, ctx),
        Encoding::Mubuf | Encoding::Mtbuf => vmem::select(inst, op, ctx),
        Encoding::Flat | Encoding::Global | Encoding::Scratch => flat::select(inst, op, ctx),
        Encoding::Mimg => mimg::select(inst, op, ctx),
        Encoding::Exp => export::select(inst, op, ctx),
        Encoding::Vintrp => interp::select(inst, op, ctx),
    }
}

/// True if `inst` has semantics (for the coverage report).
pub fn is_emulated(inst: &Instruction, ctx: &BuildContext<'_>) -> bool {
    let mut op = crate::program::blank_op(*inst, 0);
    select(inst, &mut op, ctx).is_some()
}
