//! Assembler for LLVM-syntax AMD GCN/CDNA assembly.

#![warn(missing_docs)]
