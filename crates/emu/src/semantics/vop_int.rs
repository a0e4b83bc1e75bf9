//! (being written)

use gcnkit_isa::Instruction;

use crate::exec::ExecFn;
use crate::program::{BuildContext, Op};

/// The semantic function for `inst`, if this family has it.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = (inst, op, ctx);
    None
}
