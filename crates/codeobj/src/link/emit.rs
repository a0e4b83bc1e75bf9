//! The bytes of the linked file: ELF header, program headers, section contents at their
//! offsets, and the section header table.

use object::elf;

use super::input::Input;
use super::layout::Phdr;
use super::relocate::DynReloc;
use super::sections::{OutSection, Synth};

/// The 24 bytes of an `Elf64_Rela`.
pub(crate) fn rela_bytes(r: &DynReloc) -> Vec<u8> {
    let info = (u64::from(r.sym) << 32) | u64::from(r.r_type);
    [
        r.offset.to_le_bytes(),
        info.to_le_bytes(),
        r.addend.to_le_bytes(),
    ]
    .concat()
}

fn file_header(input: &Input, phnum: usize, shoff: u64, shnum: usize, shstrndx: usize) -> Vec<u8> {
    let mut h = vec![
        0x7f,
        b'E',
        b'L',
        b'F',
        elf::ELFCLASS64,
        elf::ELFDATA2LSB,
        elf::EV_CURRENT,
    ];
    h.push(input.os_abi);
    h.push(input.abi_version);
    h.resize(16, 0);
    h.extend(elf::ET_DYN.to_le_bytes());
    h.extend(crate::EM_AMDGPU.to_le_bytes());
    h.extend(u32::from(elf::EV_CURRENT).to_le_bytes());
    h.extend(0u64.to_le_bytes()); // e_entry
    h.extend(64u64.to_le_bytes()); // e_phoff
    h.extend(shoff.to_le_bytes());
    h.extend(input.e_flags.to_le_bytes());
    for v in [64u16, 56, phnum as u16, 64, shnum as u16, shstrndx as u16] {
        h.extend(v.to_le_bytes());
    }
    h
}

fn section_header(s: &OutSection) -> Vec<u8> {
    let mut b = Vec::with_capacity(64);
    b.extend(s.name_off.to_le_bytes());
    b.extend(s.sh_type.to_le_bytes());
    for v in [s.flags, s.addr, s.offset, s.size] {
        b.extend(v.to_le_bytes());
    }
    b.extend(s.link.to_le_bytes());
    b.extend(s.info.to_le_bytes());
    b.extend(s.align.to_le_bytes());
    b.extend(s.entsize.to_le_bytes());
    b
}

/// Writes the whole file.
pub(crate) fn write_file(
    input: &Input,
    out: &[OutSection],
    phdrs: &[Phdr],
    shoff: u64,
    shstrtab: &[u8],
) -> Vec<u8> {
    let shstrndx = out
        .iter()
        .position(|s| s.synth == Synth::Shstrtab)
        .unwrap_or(0);
    let mut file = file_header(input, phdrs.len(), shoff, out.len(), shstrndx);
    phdrs.iter().for_each(|p| file.extend(p.bytes()));
    for s in out
        .iter()
        .filter(|s| s.sh_type != elf::SHT_NOBITS && s.sh_type != elf::SHT_NULL)
    {
        let data = if s.synth == Synth::Shstrtab {
            shstrtab
        } else {
            &s.data
        };
        let at = s.offset as usize;
        if file.len() < at {
            file.resize(at, 0);
        }
        let end = at + data.len();
        if file.len() < end {
            file.resize(end, 0);
        }
        file[at..end].copy_from_slice(data);
    }
    file.resize(shoff as usize, 0);
    out.iter().for_each(|s| file.extend(section_header(s)));
    file
}
