//! Printing of the vector ALU families: VOP1, VOP2 and VOPC in all their forms
//! (`_e32`, `_e64`, `_sdwa`, `_dpp`; see `vop32.rs`), and the VOP3-only, VOP3P and MAI
//! instructions (see `vop3.rs`).

use gcnkit_isa::{Encoding, Instruction};

use crate::{vop3, vop32, PrintContext, PrintError};

/// Appends the text of `inst`.
pub(crate) fn print(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    match inst.def().encoding {
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => vop32::print(inst, ctx, out),
        _ => vop3::print(inst, ctx, out),
    }
}
