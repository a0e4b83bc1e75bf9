//! The errors of the emulator library.

use crate::exec::Fault;
use crate::memory::MemoryError;

/// Where a wave faulted, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultReport {
    /// The kernel.
    pub kernel: String,
    /// Work-group id (x, y, z).
    pub workgroup: [u32; 3],
    /// Wave index within the work-group.
    pub wave: u32,
    /// Address of the faulting instruction.
    pub pc: u64,
    /// Offset of that instruction from the kernel's entry point.
    pub pc_offset: i64,
    /// The instruction as `gcn disasm` prints it.
    pub instruction: String,
    /// What went wrong.
    pub fault: Fault,
}

impl std::fmt::Display for FaultReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "kernel {}, work-group ({}, {}, {}), wave {}, pc {:#x} ({}{:+#x}): `{}`: {}",
            self.kernel,
            self.workgroup[0],
            self.workgroup[1],
            self.workgroup[2],
            self.wave,
            self.pc,
            self.kernel,
            self.pc_offset,
            self.instruction,
            self.fault
        )
    }
}

/// An error of the emulator library.
#[derive(Debug, thiserror::Error)]
pub enum EmuError {
    /// The code object could not be read.
    #[error("code object: {0}")]
    CodeObject(gcnkit_codeobj::CodeObjectError),
    /// The code object could not be loaded.
    #[error("loading: {0}")]
    Load(String),
    /// No kernel of that name.
    #[error("no kernel named {name:?} (the code object has: {available})")]
    NoKernel {
        /// The name asked for.
        name: String,
        /// The kernels there are.
        available: String,
    },
    /// The launch does not fit the kernel (argument count, sizes, ...).
    #[error("launch of {kernel}: {message}")]
    BadLaunch {
        /// The kernel.
        kernel: String,
        /// What is wrong.
        message: String,
    },
    /// A memory allocation or host access failed.
    #[error("device memory: {0}")]
    Memory(#[from] MemoryError),
    /// A wave faulted.
    #[error("{0}")]
    Fault(Box<FaultReport>),
}
