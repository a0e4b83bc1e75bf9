//! gcnkit-emu: a functional emulator for AMD GCN and CDNA compute kernels.
#![warn(missing_docs)]

pub mod launch;
