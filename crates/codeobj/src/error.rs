//! The one error type of this crate: every way a file can fail to read, with what and where.

use gcnkit_isa::TargetError;

/// Why a file could not be read as an AMDGPU code object (or offload bundle).
///
/// Offsets are file offsets (or offsets in the named section) so that a user can look at the
/// bytes with a hex dump.
#[derive(Debug, thiserror::Error)]
pub enum CodeObjectError {
    /// The file does not start with the ELF magic.
    #[error("not an ELF file")]
    NotElf,
    /// An ELF file for another machine or class.
    #[error("not an AMDGPU ELF file ({0})")]
    NotAmdgpu(String),
    /// The ELF structure is broken (header, section table, string tables...).
    #[error("malformed ELF: {0}")]
    Malformed(String),
    /// The file ends before a structure that must be there.
    #[error(
        "truncated: {what} needs {needed} bytes at offset {offset:#x}, but only {available} remain"
    )]
    Truncated {
        /// What was being read.
        what: String,
        /// Where it starts.
        offset: u64,
        /// Bytes it needs.
        needed: u64,
        /// Bytes left from `offset`.
        available: u64,
    },
    /// A section's bytes lie (partly) past the end of the file.
    #[error("section '{section}' at offset {offset:#x} with size {size:#x} runs past the end of the file ({file_size:#x} bytes)")]
    SectionPastEnd {
        /// Section name.
        section: String,
        /// `sh_offset`.
        offset: u64,
        /// `sh_size`.
        size: u64,
        /// File size.
        file_size: u64,
    },
    /// A note record whose sizes do not fit its section.
    #[error("bad note in section '{section}' at offset {offset:#x}: {reason}")]
    BadNote {
        /// Section holding the note.
        section: String,
        /// Offset of the note record inside the section.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// Metadata that is not valid MessagePack (v3+) or YAML (v2), or lacks a required shape.
    #[error("malformed {format} metadata in note at offset {offset:#x}: {reason}")]
    Metadata {
        /// "MessagePack" or "YAML".
        format: &'static str,
        /// File offset of the note's payload.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// A kernel descriptor (or `amd_kernel_code_t`) symbol pointing outside its section.
    #[error("kernel descriptor '{symbol}' at address {addr:#x} ({size} bytes) is outside section '{section}'")]
    DescriptorOutOfBounds {
        /// Symbol name.
        symbol: String,
        /// Symbol value.
        addr: u64,
        /// Bytes needed.
        size: u64,
        /// Section name (or "?" when the symbol's section does not exist).
        section: String,
    },
    /// A clang offload bundle whose header or entry table is broken.
    #[error("bad offload bundle at offset {offset:#x}: {reason}")]
    Bundle {
        /// File offset of the bundle's magic.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// A field value too wide for its bits (when encoding a descriptor).
    #[error("{field} = {value} does not fit in {bits} bits")]
    FieldOverflow {
        /// Register and field name.
        field: &'static str,
        /// The value given.
        value: u64,
        /// Width of the field.
        bits: u32,
    },
    /// The e_flags name a target gcnkit does not know.
    #[error(transparent)]
    Target(#[from] TargetError),
}

impl CodeObjectError {
    /// A [`CodeObjectError::Truncated`] for `what` at `offset` in a buffer of `len` bytes.
    pub(crate) fn truncated(what: impl Into<String>, offset: u64, needed: u64, len: u64) -> Self {
        CodeObjectError::Truncated {
            what: what.into(),
            offset,
            needed,
            available: len.saturating_sub(offset),
        }
    }
}

/// Little-endian readers that fail with [`CodeObjectError::Truncated`] instead of panicking.
pub(crate) struct Reader<'a> {
    pub bytes: &'a [u8],
    pub what: &'static str,
}

impl<'a> Reader<'a> {
    /// `n` bytes at `off`.
    pub fn slice(&self, off: u64, n: u64) -> Result<&'a [u8], CodeObjectError> {
        let len = self.bytes.len() as u64;
        match off.checked_add(n) {
            Some(end) if end <= len => Ok(&self.bytes[off as usize..end as usize]),
            _ => Err(CodeObjectError::truncated(self.what, off, n, len)),
        }
    }

    pub fn u16(&self, off: u64) -> Result<u16, CodeObjectError> {
        let b = self.slice(off, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn u32(&self, off: u64) -> Result<u32, CodeObjectError> {
        let b = self.slice(off, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn u64(&self, off: u64) -> Result<u64, CodeObjectError> {
        let b = self.slice(off, 8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}
