//! gcnkit-emu: a functional emulator for AMD GCN and CDNA compute kernels.
//!
//! Load a code object, allocate device memory, write and read it, and dispatch kernels on
//! the CPU exactly as the ROCm runtime and the hardware set waves up. The library prints
//! nothing and returns typed errors.
#![warn(missing_docs)]
// Semantics loop over the 64 lanes and index several per-lane arrays (sources, result,
// destination) with the lane number; that reads like the ISA's pseudo-code.
#![allow(clippy::needless_range_loop)]

pub mod coverage;
pub mod device;
pub mod dispatch;
pub mod error;
pub mod exec;
pub mod exports;
pub mod gds;
pub mod launch;
pub mod loader;
pub mod memory;
pub mod program;
pub mod runner;
pub mod sandbox;
pub mod semantics;
pub mod snippet;
#[cfg(test)]
pub(crate) mod testing;
pub mod wave;

pub use device::Device;
pub use dispatch::{ArgValue, Grid, LaunchOptions, LaunchStats};
pub use error::{EmuError, FaultReport};
pub use loader::{Global, Kernel, KernelArg, Module};
