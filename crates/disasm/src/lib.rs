//! LLVM-syntax printing of AMD GCN/CDNA instructions, and whole-program listings.
//!
//! [`print_instruction`] turns one decoded [`Instruction`] into the text LLVM 19 prints for
//! it; [`listing`] walks a section of machine code and lays it out either as
//! `llvm-objdump -d` does or as assembly source with labels.

#![warn(missing_docs)]

mod line_cache;
pub mod listing;
mod mem;
mod misc;
mod objdump;
pub mod operands;
mod scalar;
pub mod text;
mod valu;
mod vop3;
mod vop32;
mod vop_common;

use gcnkit_isa::{Encoding, Instruction, Target};

/// Why an instruction could not be printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PrintError {
    /// Field values that LLVM rejects (it prints the word as `.long`).
    #[error("operand values not valid for this instruction")]
    Invalid,
}

/// What the printer needs besides the instruction.
#[derive(Clone, Copy, Debug)]
pub struct PrintContext<'a> {
    /// The target the code is for.
    pub target: &'a Target,
    /// For branches: the label to print instead of the raw offset (assembly-source listings);
    /// `None` prints the offset as llvm-objdump does.
    pub branch_label: Option<&'a str>,
}

/// Appends the LLVM-syntax text of `inst` to `out`.
///
/// On error nothing is appended (`out` is restored), and the caller prints the dword as
/// `.long`, as llvm-objdump does.
pub fn print_instruction(
    inst: &Instruction,
    ctx: &PrintContext<'_>,
    out: &mut String,
) -> Result<(), PrintError> {
    let start = out.len();
    let result = match inst.encoding {
        Encoding::Sop2
        | Encoding::Sopk
        | Encoding::Sop1
        | Encoding::Sopc
        | Encoding::Sopp
        | Encoding::Smrd
        | Encoding::Smem => scalar::print(inst, ctx, out),
        // The VOP3-encoded `_e64` form of a VINTRP instruction belongs with VINTRP.
        Encoding::Vop3 if inst.def().encoding == Encoding::Vintrp => misc::print(inst, ctx, out),
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p => {
            valu::print(inst, ctx, out)
        }
        Encoding::Ds
        | Encoding::Mubuf
        | Encoding::Mtbuf
        | Encoding::Flat
        | Encoding::Global
        | Encoding::Scratch => mem::print(inst, ctx, out),
        Encoding::Mimg | Encoding::Exp | Encoding::Vintrp => misc::print(inst, ctx, out),
    };
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Decodes and prints one instruction; convenience for tests and tools.
pub fn disassemble_one(target: &Target, bytes: &[u8]) -> Result<(String, usize), DisasmError> {
    let inst = gcnkit_isa::decode(target, bytes)?;
    let mut text = String::new();
    let ctx = PrintContext {
        target,
        branch_label: None,
    };
    print_instruction(&inst, &ctx, &mut text)?;
    Ok((text, inst.len as usize))
}

/// Why [`disassemble_one`] failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DisasmError {
    /// The bytes do not decode.
    #[error(transparent)]
    Decode(#[from] gcnkit_isa::DecodeError),
    /// The instruction decodes but its operands are not valid.
    #[error(transparent)]
    Print(#[from] PrintError),
}
