//! The two ELF fields the rest of the crate does not keep but a rebuild needs: each
//! symbol's visibility (`st_other`) and each section's flags (`sh_flags`).

use object::read::elf::{ElfFile64, SectionHeader};
use object::{Object, ObjectSection, ObjectSymbol};

use crate::error::CodeObjectError;

/// What [`crate::Symbol`] does not say about a symbol.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SymbolExtra {
    /// `st_other & 3`.
    pub visibility: u8,
    /// Undefined (`SHN_UNDEF`): the code object expects it from elsewhere.
    pub undefined: bool,
}

/// [`SymbolExtra`] of every symbol, in the order of [`crate::CodeObject::symbols`]
/// (`.symtab`, or `.dynsym` when there is none).
pub(crate) fn symbol_extras(bytes: &[u8]) -> Result<Vec<SymbolExtra>, CodeObjectError> {
    let file = parse(bytes)?;
    let table: Vec<_> = if file.symbols().next().is_some() {
        file.symbols().collect()
    } else {
        file.dynamic_symbols().collect()
    };
    Ok(table
        .iter()
        .map(|s| SymbolExtra {
            visibility: s.elf_symbol().st_other & 3,
            undefined: s.is_undefined(),
        })
        .collect())
}

/// `sh_flags` and `sh_size` of a section.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SectionExtra {
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_size` (also for NOBITS sections, which have no bytes to count).
    pub size: u64,
}

/// [`SectionExtra`] of every section, with its index.
pub(crate) fn section_extras(bytes: &[u8]) -> Result<Vec<(usize, SectionExtra)>, CodeObjectError> {
    let file = parse(bytes)?;
    let endian = file.endian();
    Ok(file
        .sections()
        .map(|s| {
            let h = s.elf_section_header();
            let extra = SectionExtra {
                flags: h.sh_flags(endian),
                size: h.sh_size(endian),
            };
            (s.index().0, extra)
        })
        .collect())
}

fn parse(bytes: &[u8]) -> Result<ElfFile64<'_, object::Endianness>, CodeObjectError> {
    ElfFile64::parse(bytes).map_err(|e| CodeObjectError::Malformed(e.to_string()))
}
