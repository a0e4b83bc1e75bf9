//! AMDGPU ELF code objects: header and target, sections and symbols, notes and metadata,
//! kernel descriptors, and the offload bundles that carry code objects inside host binaries.
//!
//! Built on the `object` crate for the ELF structure; this crate adds the AMDGPU specifics
//! (machine numbers, `e_flags` feature encodings per code-object version, note types,
//! descriptor bit fields) and turns every malformation into a typed [`CodeObjectError`].
//!
//! - [`CodeObject::parse`]: sections and symbols of a code object for a gcnkit target (what
//!   the disassembler needs).
//! - [`CodeObjectInfo::read`]: everything `gcn info` shows, for code objects v2–v6 of any
//!   AMDGPU processor.
//! - [`container::code_objects_in`]: the code objects in a file that may be a code object, an
//!   offload bundle or a host binary with bundles.

#![warn(missing_docs)]

mod bitfield;
pub mod bundle;
pub mod container;
pub mod descriptor;
pub mod directives;
mod elf;
pub mod elf_flags;
mod error;
pub mod inspect;
pub mod kernel_code;
pub mod link;
pub mod metadata;
pub mod notes;
pub mod pgm_rsrc;
pub mod registers;
pub mod source;
pub mod write;

use gcnkit_isa::Target;

pub use elf::{Section, Symbol, STT_AMDGPU_HSA_KERNEL};
pub use error::CodeObjectError;
pub use inspect::{CodeObjectInfo, KernelInfo};

/// `e_machine` of AMDGPU ELF files.
pub const EM_AMDGPU: u16 = 224;

/// True if `bytes` starts with the ELF magic.
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

/// A parsed AMDGPU ELF file.
pub struct CodeObject<'a> {
    /// Target from `e_flags`.
    pub target: Target,
    /// Raw `e_flags`.
    pub e_flags: u32,
    /// `e_type` (ET_REL = 1, ET_DYN = 3, ...).
    pub e_type: u16,
    /// Sections in header order.
    pub sections: Vec<Section<'a>>,
    /// Symbols of `.symtab` (or `.dynsym` if there is no `.symtab`).
    pub symbols: Vec<Symbol>,
}

/// Checks the ELF header of an AMDGPU code object and decodes it.
pub(crate) fn amdgpu_header(bytes: &[u8]) -> Result<elf_flags::ElfHeader, CodeObjectError> {
    let header = elf_flags::ElfHeader::parse(bytes)?;
    if header.e_machine != EM_AMDGPU {
        return Err(CodeObjectError::NotAmdgpu(format!(
            "e_machine is {}",
            header.e_machine
        )));
    }
    Ok(header)
}

impl<'a> CodeObject<'a> {
    /// Parses an AMDGPU ELF code object or relocatable object.
    pub fn parse(bytes: &'a [u8]) -> Result<CodeObject<'a>, CodeObjectError> {
        let header = amdgpu_header(bytes)?;
        let target = header.target()?;
        let parts = elf::read_elf(bytes)?;
        Ok(CodeObject {
            target,
            e_flags: header.e_flags,
            e_type: header.e_type,
            sections: parts.sections,
            symbols: parts.symbols,
        })
    }

    /// Symbols defined in section `index`, without section and file symbols.
    pub fn symbols_in(&self, index: usize) -> impl Iterator<Item = &Symbol> {
        self.symbols
            .iter()
            .filter(move |s| s.section == Some(index) && !s.is_meta && !s.name.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_elf_input_is_reported_as_such() {
        assert!(matches!(
            CodeObject::parse(b"hello"),
            Err(CodeObjectError::NotElf)
        ));
    }

    #[test]
    fn truncated_elf_header_is_an_error_not_a_panic() {
        let mut bytes = b"\x7fELF\x02\x01\x01".to_vec();
        bytes.resize(20, 0);
        assert!(matches!(
            CodeObject::parse(&bytes),
            Err(CodeObjectError::Truncated { .. })
        ));
    }

    #[test]
    fn a_32_bit_elf_file_is_not_amdgpu() {
        let mut bytes = b"\x7fELF\x01\x01\x01".to_vec();
        bytes.resize(64, 0);
        assert!(matches!(
            CodeObject::parse(&bytes),
            Err(CodeObjectError::NotAmdgpu(_))
        ));
    }
}
