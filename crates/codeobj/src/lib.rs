//! AMDGPU ELF code objects: reading the header, target, sections and symbols.
//!
//! Built on the `object` crate; this crate adds the AMDGPU specifics (machine number,
//! `e_flags` target encoding) and turns every malformation into a typed error.

#![warn(missing_docs)]

use object::elf;
use object::read::elf::{ElfFile64, FileHeader, SectionHeader};
use object::{Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};

use gcnkit_isa::{Target, TargetError};

/// `e_machine` of AMDGPU ELF files.
pub const EM_AMDGPU: u16 = 224;

/// Why a file could not be read as an AMDGPU code object.
#[derive(Debug, thiserror::Error)]
pub enum CodeObjectError {
    /// The file does not start with the ELF magic.
    #[error("not an ELF file")]
    NotElf,
    /// An ELF file for another machine or class.
    #[error("not an AMDGPU ELF file ({0})")]
    NotAmdgpu(String),
    /// The ELF structure is broken (header, section table, section past end of file...).
    #[error("malformed ELF: {0}")]
    Malformed(String),
    /// The e_flags name a target gcnkit does not know.
    #[error(transparent)]
    Target(#[from] TargetError),
}

/// True if `bytes` starts with the ELF magic.
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

/// A section of a code object.
#[derive(Clone, Debug)]
pub struct Section<'a> {
    /// Section name.
    pub name: String,
    /// Address (`sh_addr`; 0 in relocatable objects).
    pub addr: u64,
    /// Offset of the section's bytes in the file.
    pub file_offset: u64,
    /// The bytes (empty for NOBITS sections).
    pub data: &'a [u8],
    /// True for SHF_EXECINSTR sections.
    pub executable: bool,
    /// Index in the section header table.
    pub index: usize,
}

/// A symbol of a code object.
#[derive(Clone, Debug)]
pub struct Symbol {
    /// Symbol name.
    pub name: String,
    /// Value (address).
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// Index of the section it is defined in, if any.
    pub section: Option<usize>,
    /// True for functions (STT_FUNC), e.g. kernel entry points.
    pub is_function: bool,
    /// True for STT_SECTION and STT_FILE symbols, which listings leave out.
    pub is_meta: bool,
    /// st_type
    pub st_type: u8,
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

fn malformed(e: object::Error) -> CodeObjectError {
    CodeObjectError::Malformed(e.to_string())
}

impl<'a> CodeObject<'a> {
    /// Parses an AMDGPU ELF code object or relocatable object.
    pub fn parse(bytes: &'a [u8]) -> Result<CodeObject<'a>, CodeObjectError> {
        if !is_elf(bytes) {
            return Err(CodeObjectError::NotElf);
        }
        if bytes.get(4) != Some(&elf::ELFCLASS64) {
            return Err(CodeObjectError::NotAmdgpu(
                "32-bit ELF; AMDGPU code objects are 64-bit".into(),
            ));
        }
        let file = ElfFile64::<object::Endianness>::parse(bytes).map_err(malformed)?;
        let endian = file.endian();
        let header = file.elf_header();
        let machine = header.e_machine(endian);
        if machine != EM_AMDGPU {
            return Err(CodeObjectError::NotAmdgpu(format!(
                "e_machine is {machine}"
            )));
        }
        let e_flags = header.e_flags(endian);
        let e_type = header.e_type(endian);
        let target = Target::from_elf_flags(e_flags)?;
        let mut sections = Vec::new();
        for s in file.sections() {
            let name = s.name().map_err(malformed)?.to_string();
            let data = if s.kind() == SectionKind::UninitializedData {
                &[][..]
            } else {
                s.data().map_err(|e| {
                    CodeObjectError::Malformed(format!("section '{name}': {e} (past end of file?)"))
                })?
            };
            let flags = s.elf_section_header().sh_flags(endian);
            sections.push(Section {
                name,
                addr: s.address(),
                file_offset: s.elf_section_header().sh_offset(endian),
                data,
                executable: flags & u64::from(elf::SHF_EXECINSTR) != 0,
                index: s.index().0,
            });
        }
        let symtab: Vec<_> = if file.symbols().next().is_some() {
            file.symbols().collect()
        } else {
            file.dynamic_symbols().collect()
        };
        let mut symbols = Vec::new();
        for sym in symtab {
            let name = sym.name().map_err(malformed)?.to_string();
            symbols.push(Symbol {
                name,
                addr: sym.address(),
                size: sym.size(),
                section: sym.section_index().map(|i| i.0),
                is_function: sym.kind() == SymbolKind::Text,
                is_meta: matches!(sym.kind(), SymbolKind::Section | SymbolKind::File),
                st_type: match sym.flags() {
                    object::SymbolFlags::Elf { st_info, .. } => st_info & 0xf,
                    _ => 0,
                },
            });
        }
        Ok(CodeObject {
            target,
            e_flags,
            e_type,
            sections,
            symbols,
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
    fn truncated_elf_header_is_malformed_not_a_panic() {
        let mut bytes = b"\x7fELF\x02\x01\x01".to_vec();
        bytes.resize(20, 0);
        assert!(matches!(
            CodeObject::parse(&bytes),
            Err(CodeObjectError::Malformed(_))
        ));
    }
}
