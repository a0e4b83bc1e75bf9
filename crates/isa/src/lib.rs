//! The gcnkit instruction database for AMD GCN and CDNA GPUs.
//!
//! One table (`crates/isa/tables/*.tbl`, compiled into [`INSTRUCTIONS`]) describes every
//! instruction of every target; decoding, printing and assembling are views of it. This crate
//! holds the targets, the encodings and their field layouts, the table, and the decoder.
//! It knows nothing of assembly text.

#![warn(missing_docs)]

pub mod aliases;
pub mod constants;
pub mod decode;
pub mod encoding;
#[allow(missing_docs)]
#[rustfmt::skip]
mod generated;
pub mod instruction;
pub mod symbolic;
pub mod table;
pub mod target;

pub use aliases::{mnemonic_alias, mnemonic_aliases, MnemonicAlias};
pub use decode::{decode, DecodeError};
pub use encoding::{Encoding, Field};
pub use generated::{flags, Mnemonic, INSTRUCTIONS};
pub use instruction::{Form, Instruction};
pub use table::{DataType, InstrDef, InstrId, OperandDef, Role};
pub use target::{Gen, Processor, Target, TargetError, PROCESSORS};
