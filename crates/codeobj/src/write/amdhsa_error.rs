//! Errors of `.amdhsa_kernel` blocks, worded exactly as LLVM 19's assembler words them so
//! that gcnkit's diagnostics can be compared with llvm-mc's line by line.

use std::fmt;

/// What is wrong with an `.amdhsa_kernel` block. `Display` gives llvm-mc's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AmdhsaErrorKind {
    /// The same directive twice in one block.
    Repeated,
    /// A name LLVM does not know.
    Unknown,
    /// A negative value, or one too wide for its field.
    OutOfRange,
    /// The directive exists only on newer targets; the payload is LLVM's target phrase
    /// (`gfx7+`, `gfx90a+`, `gfx10 or gfx11`, ...).
    Requires(&'static str),
    /// A directive of targets without architected flat scratch, used on gfx94x.
    NotWithArchitectedFlatScratch,
    /// `.amdhsa_enable_private_segment` on a target without architected flat scratch.
    NotWithoutArchitectedFlatScratch,
    /// `.amdhsa_reserve_xnack_mask` disagrees with the target's xnack setting.
    XnackMaskMismatch,
    /// A required directive is missing; the payload is its name with the dot.
    Missing(&'static str),
    /// `.amdhsa_user_sgpr_count` is below what the enabled user SGPRs need.
    UserSgprCountTooSmall,
    /// More than 31 user SGPRs.
    TooManyUserSgprs,
    /// The preloaded kernarg dwords reach past `.amdhsa_kernarg_size`.
    PreloadPastKernarg,
    /// `.amdhsa_accum_offset` is not a multiple of 4 in 4..=256.
    AccumOffsetRange,
    /// `.amdhsa_accum_offset` is above the VGPR allocation.
    AccumOffsetExceedsVgprs,
    /// A code-object version LLVM 19 cannot assemble `.amdhsa_kernel` for (2, 3, 7+).
    UnsupportedCodeObjectVersion(u8),
}

impl fmt::Display for AmdhsaErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use AmdhsaErrorKind::*;
        match self {
            Repeated => f.write_str(".amdhsa_ directives cannot be repeated"),
            Unknown => f.write_str("unknown .amdhsa_kernel directive"),
            OutOfRange => f.write_str("value out of range"),
            Requires(what) => write!(f, "directive requires {what}"),
            NotWithArchitectedFlatScratch => {
                f.write_str("directive is not supported with architected flat scratch")
            }
            NotWithoutArchitectedFlatScratch => {
                f.write_str("directive is not supported without architected flat scratch")
            }
            XnackMaskMismatch => f.write_str(".amdhsa_reserve_xnack_mask does not match target id"),
            Missing(name) => write!(f, "{name} directive is required"),
            // LLVM's message really says "than than".
            UserSgprCountTooSmall => f.write_str(
                "amdgpu_user_sgpr_count smaller than than implied by enabled user SGPRs",
            ),
            TooManyUserSgprs => f.write_str("too many user SGPRs enabled"),
            PreloadPastKernarg => f.write_str(
                "Kernarg preload length + offset is larger than the kernarg segment size",
            ),
            AccumOffsetRange => {
                f.write_str("accum_offset should be in range [4..256] in increments of 4")
            }
            AccumOffsetExceedsVgprs => f.write_str("accum_offset exceeds total VGPR allocation"),
            UnsupportedCodeObjectVersion(v) => {
                write!(f, "Unsupported AMDHSA Code Object Version {v}")
            }
        }
    }
}

/// An error in an `.amdhsa_kernel` block at `at`: the position llvm-mc's caret points to
/// (a directive's name, its value, or the end of the `.end_amdhsa_kernel` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmdhsaError<P> {
    /// Where llvm-mc reports the error.
    pub at: P,
    /// What is wrong.
    pub kind: AmdhsaErrorKind,
}

impl<P: fmt::Debug> fmt::Display for AmdhsaError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at {:?})", self.kind, self.at)
    }
}

impl<P: fmt::Debug> std::error::Error for AmdhsaError<P> {}
