//! The parts of an AMDGPU ELF relocatable object the linker needs, read with the `object`
//! crate's ELF structures; every malformation becomes a [`LinkError`].

use object::elf;
use object::read::elf::{FileHeader, Rela as _, SectionHeader, Sym as _};
use object::LittleEndian as LE;

use super::LinkError;

/// A section of the input.
#[derive(Clone, Debug)]
pub(crate) struct InSection {
    pub name: String,
    pub sh_type: u32,
    pub flags: u64,
    pub align: u64,
    pub entsize: u64,
    /// Contents (empty for NOBITS; `size` is then the memory size).
    pub data: Vec<u8>,
    pub size: u64,
}

/// A symbol of the input `.symtab`.
#[derive(Clone, Debug)]
pub(crate) struct InSymbol {
    pub name: String,
    pub value: u64,
    pub size: u64,
    pub st_type: u8,
    pub bind: u8,
    pub visibility: u8,
    /// Raw `st_shndx`.
    pub shndx: u16,
}

/// A relocation with addend, applied to section `target`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InReloc {
    pub target: usize,
    pub offset: u64,
    pub r_type: u32,
    pub sym: usize,
    pub addend: i64,
}

/// The whole input.
pub(crate) struct Input {
    pub e_flags: u32,
    pub os_abi: u8,
    pub abi_version: u8,
    pub sections: Vec<InSection>,
    pub symbols: Vec<InSymbol>,
    pub relocs: Vec<InReloc>,
}

fn bad(e: object::Error) -> LinkError {
    LinkError::Malformed(e.to_string())
}

/// Parses `bytes` as a 64-bit little-endian AMDGPU ET_REL file.
pub(crate) fn read_input(bytes: &[u8]) -> Result<Input, LinkError> {
    let header = elf::FileHeader64::<LE>::parse(bytes).map_err(bad)?;
    let e = LE;
    if header.e_machine(e) != crate::EM_AMDGPU {
        return Err(LinkError::NotAmdgpu);
    }
    if header.e_type(e) != elf::ET_REL {
        return Err(LinkError::NotRelocatable(header.e_type(e)));
    }
    let table = header.sections(e, bytes).map_err(bad)?;
    let mut sections = Vec::new();
    for s in table.iter() {
        let name = table.section_name(e, s).map_err(bad)?;
        let size = s.sh_size(e);
        let align = s.sh_addralign(e);
        if align > 1 && !align.is_power_of_two() || align > 1 << 32 {
            return Err(LinkError::Malformed(format!(
                "section sh_addralign {align} is not a power of 2 up to 2^32"
            )));
        }
        let data = if s.sh_type(e) == elf::SHT_NOBITS {
            Vec::new()
        } else {
            s.data(e, bytes).map_err(bad)?.to_vec()
        };
        sections.push(InSection {
            name: String::from_utf8_lossy(name).into_owned(),
            sh_type: s.sh_type(e),
            flags: s.sh_flags(e),
            align: s.sh_addralign(e).max(1),
            entsize: s.sh_entsize(e),
            data,
            size,
        });
    }
    let symtab = table.symbols(e, bytes, elf::SHT_SYMTAB).map_err(bad)?;
    let mut symbols = Vec::new();
    for sym in symtab.iter() {
        let name = symtab.symbol_name(e, sym).map_err(bad)?;
        symbols.push(InSymbol {
            name: String::from_utf8_lossy(name).into_owned(),
            value: sym.st_value(e),
            size: sym.st_size(e),
            st_type: sym.st_type(),
            bind: sym.st_bind(),
            visibility: sym.st_visibility(),
            shndx: sym.st_shndx(e),
        });
    }
    let relocs = read_relocs(&table, bytes, symbols.len())?;
    Ok(Input {
        e_flags: header.e_flags(e),
        os_abi: header.e_ident().os_abi,
        abi_version: header.e_ident().abi_version,
        sections,
        symbols,
        relocs,
    })
}

fn read_relocs(
    table: &object::read::elf::SectionTable<'_, elf::FileHeader64<LE>>,
    bytes: &[u8],
    nsyms: usize,
) -> Result<Vec<InReloc>, LinkError> {
    let e = LE;
    let mut relocs = Vec::new();
    for s in table.iter() {
        if s.sh_type(e) == elf::SHT_REL {
            return Err(LinkError::Unsupported("SHT_REL relocation sections".into()));
        }
        let Some((relas, _)) = s.rela(e, bytes).map_err(bad)? else {
            continue;
        };
        let target = s.sh_info(e) as usize;
        if target == 0 || target >= table.len() {
            return Err(LinkError::Malformed(format!(
                "relocation section for section {target}"
            )));
        }
        for r in relas {
            let sym = r.r_sym(e, false) as usize;
            if sym >= nsyms {
                return Err(LinkError::Malformed(format!(
                    "relocation against symbol {sym}"
                )));
            }
            relocs.push(InReloc {
                target,
                offset: r.r_offset(e),
                r_type: r.r_type(e, false),
                sym,
                addend: r.r_addend(e),
            });
        }
    }
    Ok(relocs)
}
