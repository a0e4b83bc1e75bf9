//! The library behind the `gcn` command: each subcommand's work as functions, so that tests
//! and tools can run them without a process.

pub mod asm;
pub mod disasm;
pub mod info;
pub mod input;
pub mod rebuild;
pub mod run;
