//! Developer tasks for gcnkit. The main one turns the instruction tables
//! (`crates/isa/tables/*.tbl`) into Rust (`crates/isa/src/generated.rs`).

pub mod tablegen;
