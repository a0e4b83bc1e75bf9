//! Assembler for LLVM-syntax AMD GCN/CDNA assembly.
//!
//! [`assemble_instruction`] turns one instruction statement into the bytes llvm-mc-19
//! produces for it. Mnemonics, opcodes and operand types come from the instruction table of
//! `gcnkit-isa`, field positions from its layouts; this crate keeps no opcode list.
//! Operands that cannot be evaluated yet (forward labels, external symbols) are encoded as
//! placeholders and reported as [`Fixup`]s for the directive layer to resolve.

#![warn(missing_docs)]

mod encode;
pub mod error;
pub mod expr;
pub mod lex;
pub mod literal;
pub mod operand;
pub mod program;
pub mod register;
pub mod symbolic;

pub use encode::assemble_instruction;
pub use error::AsmError;
pub use expr::{Expr, SymbolValues, Unresolved};

/// The bytes of one instruction and the fixups still to apply to them.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    /// The bytes; the first `len` are used.
    pub bytes: [u8; 16],
    /// Length in bytes (4, 8 or 12).
    pub len: u8,
    /// Placeholders to patch once their expressions can be evaluated.
    pub fixups: Vec<Fixup>,
}

impl Encoded {
    /// The used bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

/// What a fixup patches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixupKind {
    /// SOPP/SOPK branch: the 16-bit field at `offset` becomes
    /// `(target - (pc + 4)) / 4`, where `pc` is the instruction's address.
    BranchSimm16,
    /// The 32-bit literal dword at `offset` becomes the value (low 32 bits); for a symbol
    /// with a relocation variant (`@abs32@lo`, `@rel32@hi`, ...) the directive layer emits
    /// the matching ELF relocation.
    Literal32,
}

/// A placeholder in [`Encoded::bytes`] to patch later.
#[derive(Clone, Debug, PartialEq)]
pub struct Fixup {
    /// Byte offset in the instruction.
    pub offset: u8,
    /// What to patch.
    pub kind: FixupKind,
    /// The value to patch in.
    pub expr: Expr,
}
