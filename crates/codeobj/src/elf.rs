//! Sections and symbols of an AMDGPU ELF file, read with the `object` crate, with every
//! malformation turned into a [`CodeObjectError`].

use object::elf;
use object::read::elf::{ElfFile64, SectionHeader};
use object::{Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};

use crate::error::CodeObjectError;

/// `st_type` of v2 kernel symbols (`STT_AMDGPU_HSA_KERNEL`).
pub const STT_AMDGPU_HSA_KERNEL: u8 = 10;

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
    /// `sh_type` (SHT_NOTE = 7, ...).
    pub sh_type: u32,
    /// `sh_addralign`.
    pub align: u64,
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
    /// `st_type` (STT_OBJECT = 1, STT_FUNC = 2, STT_AMDGPU_HSA_KERNEL = 10, ...).
    pub st_type: u8,
    /// `st_bind` (STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2).
    pub st_bind: u8,
}

/// What [`read_elf`] returns: the sections and symbols.
pub(crate) struct ElfParts<'a> {
    pub sections: Vec<Section<'a>>,
    pub symbols: Vec<Symbol>,
}

fn malformed(e: object::Error) -> CodeObjectError {
    CodeObjectError::Malformed(e.to_string())
}

/// Parses any 64-bit ELF file's sections and symbols (AMDGPU or host).
pub(crate) fn read_elf(bytes: &[u8]) -> Result<ElfParts<'_>, CodeObjectError> {
    let file = ElfFile64::<object::Endianness>::parse(bytes).map_err(malformed)?;
    let sections = read_sections(&file, bytes.len() as u64)?;
    let symbols = read_symbols(&file)?;
    Ok(ElfParts { sections, symbols })
}

fn read_sections<'a>(
    file: &ElfFile64<'a, object::Endianness>,
    file_size: u64,
) -> Result<Vec<Section<'a>>, CodeObjectError> {
    let endian = file.endian();
    let mut sections = Vec::new();
    for s in file.sections() {
        let name = s.name().map_err(malformed)?.to_string();
        let header = s.elf_section_header();
        let (offset, size) = (header.sh_offset(endian), header.sh_size(endian));
        let data = if s.kind() == SectionKind::UninitializedData {
            &[][..]
        } else {
            let past_end = match offset.checked_add(size) {
                Some(end) => end > file_size,
                None => true,
            };
            if past_end {
                return Err(CodeObjectError::SectionPastEnd {
                    section: name,
                    offset,
                    size,
                    file_size,
                });
            }
            s.data().map_err(malformed)?
        };
        sections.push(Section {
            name,
            addr: s.address(),
            file_offset: offset,
            data,
            executable: header.sh_flags(endian) & u64::from(elf::SHF_EXECINSTR) != 0,
            index: s.index().0,
            sh_type: header.sh_type(endian),
            align: header.sh_addralign(endian),
        });
    }
    Ok(sections)
}

fn read_symbols(file: &ElfFile64<'_, object::Endianness>) -> Result<Vec<Symbol>, CodeObjectError> {
    let table: Vec<_> = if file.symbols().next().is_some() {
        file.symbols().collect()
    } else {
        file.dynamic_symbols().collect()
    };
    let mut symbols = Vec::new();
    for sym in table {
        let name = sym.name().map_err(malformed)?.to_string();
        let raw = sym.elf_symbol();
        symbols.push(Symbol {
            name,
            addr: sym.address(),
            size: sym.size(),
            section: sym.section_index().map(|i| i.0),
            is_function: sym.kind() == SymbolKind::Text,
            is_meta: matches!(sym.kind(), SymbolKind::Section | SymbolKind::File),
            st_type: raw.st_type(),
            st_bind: raw.st_bind(),
        });
    }
    Ok(symbols)
}

/// The bytes of `sym` (`size` bytes from its value) inside its section, or
/// [`CodeObjectError::DescriptorOutOfBounds`].
pub(crate) fn symbol_bytes<'a>(
    sections: &[Section<'a>],
    sym: &Symbol,
    size: u64,
) -> Result<&'a [u8], CodeObjectError> {
    let section = sym
        .section
        .and_then(|i| sections.iter().find(|s| s.index == i));
    let out_of_bounds = || CodeObjectError::DescriptorOutOfBounds {
        symbol: sym.name.clone(),
        addr: sym.addr,
        size,
        section: section.map_or_else(|| "?".to_string(), |s| s.name.clone()),
    };
    let section = section.ok_or_else(out_of_bounds)?;
    let start = sym
        .addr
        .checked_sub(section.addr)
        .ok_or_else(out_of_bounds)?;
    let end = start.checked_add(size).ok_or_else(out_of_bounds)?;
    if end > section.data.len() as u64 {
        return Err(out_of_bounds());
    }
    Ok(&section.data[start as usize..end as usize])
}
