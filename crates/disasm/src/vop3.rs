//! Printing of the vop3 instructions.

use gcnkit_isa::Instruction;

use crate::{PrintContext, PrintError};

/// Appends the text of `inst`.
pub(crate) fn print(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    let _ = (inst, ctx, out);
    Err(PrintError::Invalid)
}
