//! Writing a program as an ELF relocatable object (`llvm-mc -filetype=obj`).

use gcnkit_isa::target::FeatureSetting;
use gcnkit_isa::Target;
use object::elf;
use object::write::elf::{FileHeader, Rel, SectionHeader, Sym, Writer};
use object::Endianness;

use super::{Binding, Program, RelocTarget};

/// `EM_AMDGPU`.
const EM_AMDGPU: u16 = 224;
/// `ELFOSABI_AMDGPU_HSA`.
const ELFOSABI_AMDGPU_HSA: u8 = 64;

/// ELF `e_flags` for `target` in code-object version `version`: the machine in bits 0–7 and,
/// from version 4, the xnack and sramecc settings in bits 8–9 and 10–11 (0 unsupported,
/// 1 any, 2 off, 3 on); versions 2 and 3 have one bit each for "on".
pub fn e_flags(target: &Target, version: u32) -> u32 {
    let p = target.processor;
    let mach = p.elf_mach as u32;
    if version < 4 {
        let xnack = (target.xnack == FeatureSetting::On) as u32;
        let sramecc = (target.sramecc == FeatureSetting::On) as u32;
        return mach | xnack << 8 | sramecc << 9;
    }
    let setting = |supported: bool, s: FeatureSetting| -> u32 {
        match (supported, s) {
            (false, _) => 0,
            (true, FeatureSetting::Any) => 1,
            (true, FeatureSetting::Off) => 2,
            (true, FeatureSetting::On) => 3,
        }
    };
    mach | setting(p.supports_xnack, target.xnack) << 8
        | setting(p.supports_sramecc, target.sramecc) << 10
}

/// `EI_ABIVERSION` of code-object version `version` (v2 and v3 are 0 and 1, then one more
/// per version).
pub fn abi_version(version: u32) -> u8 {
    version.saturating_sub(2) as u8
}

/// The bytes of an ELF relocatable object holding `program`.
pub fn write_relocatable(program: &Program) -> Vec<u8> {
    let mut buffer = Vec::new();
    let mut w = Writer::new(Endianness::Little, true, &mut buffer);
    let sections = &program.sections;

    // Which sections relocations refer to directly need a section symbol.
    let mut needs_section_symbol = vec![false; sections.len()];
    for s in sections {
        for r in &s.relocations {
            if let RelocTarget::Section(i) = r.symbol {
                needs_section_symbol[i] = true;
            }
        }
    }

    w.reserve_file_header();
    w.reserve_null_section_index();
    let mut section_index = Vec::with_capacity(sections.len());
    let mut section_name = Vec::with_capacity(sections.len());
    let mut rela_index = Vec::with_capacity(sections.len());
    let mut rela_names = Vec::new();
    for s in sections {
        section_name.push(w.add_section_name(s.name.as_bytes()));
        section_index.push(w.reserve_section_index());
        if s.relocations.is_empty() {
            rela_index.push(None);
        } else {
            rela_names.push(format!(".rela{}", s.name));
        }
    }
    let mut rela_name_ids = Vec::new();
    for name in &rela_names {
        rela_name_ids.push(w.add_section_name(name.as_bytes()));
    }
    let mut rela_it = rela_name_ids.into_iter();
    rela_index.clear();
    for s in sections {
        rela_index.push(if s.relocations.is_empty() {
            None
        } else {
            rela_it.next().map(|name| (name, w.reserve_section_index()))
        });
    }
    let symtab = w.reserve_symtab_section_index();
    w.reserve_strtab_section_index();
    w.reserve_shstrtab_section_index();

    // Symbols: null, section symbols, locals, then the rest (ELF wants locals first).
    w.reserve_null_symbol_index();
    let mut section_symbol = vec![0u32; sections.len()];
    for (i, needed) in needs_section_symbol.iter().enumerate() {
        if *needed {
            section_symbol[i] = w.reserve_symbol_index(Some(section_index[i])).0;
        }
    }
    let order: Vec<usize> = (0..program.symbols.len())
        .filter(|&i| program.symbols[i].binding == Binding::Local)
        .chain((0..program.symbols.len()).filter(|&i| program.symbols[i].binding != Binding::Local))
        .collect();
    let mut symbol_index = vec![0u32; program.symbols.len()];
    let mut names = Vec::with_capacity(order.len());
    let mut num_local = 1 + needs_section_symbol.iter().filter(|n| **n).count() as u32;
    for &i in &order {
        let sym = &program.symbols[i];
        names.push(w.add_string(sym.name.as_bytes()));
        symbol_index[i] = w
            .reserve_symbol_index(sym.section.map(|s| section_index[s]))
            .0;
        if sym.binding == Binding::Local {
            num_local += 1;
        }
    }
    w.reserve_symtab();
    w.reserve_strtab();
    w.reserve_shstrtab();

    let mut data_offsets = Vec::with_capacity(sections.len());
    for s in sections {
        let align = s.align.max(1) as usize;
        data_offsets.push(if s.sh_type == elf::SHT_NOBITS {
            0
        } else {
            w.reserve(s.data.len(), align)
        });
    }
    let mut rela_offsets = Vec::with_capacity(sections.len());
    for s in sections {
        rela_offsets.push(w.reserve_relocations(s.relocations.len(), true));
    }
    w.reserve_section_headers();

    // Write, in the order reserved.
    let version = program.code_object_version;
    let _ = w.write_file_header(&FileHeader {
        os_abi: ELFOSABI_AMDGPU_HSA,
        abi_version: abi_version(version),
        e_type: elf::ET_REL,
        e_machine: EM_AMDGPU,
        e_entry: 0,
        e_flags: e_flags(&program.target, version),
    });
    w.write_null_symbol();
    for (i, needed) in needs_section_symbol.iter().enumerate() {
        if *needed {
            w.write_symbol(&Sym {
                name: None,
                section: Some(section_index[i]),
                st_info: elf::STT_SECTION,
                st_other: 0,
                st_shndx: 0,
                st_value: 0,
                st_size: 0,
            });
        }
    }
    for (k, &i) in order.iter().enumerate() {
        let sym = &program.symbols[i];
        let bind = match sym.binding {
            Binding::Local => elf::STB_LOCAL,
            Binding::Global => elf::STB_GLOBAL,
            Binding::Weak => elf::STB_WEAK,
        };
        w.write_symbol(&Sym {
            name: Some(names[k]),
            section: sym.section.map(|s| section_index[s]),
            st_info: bind << 4 | sym.st_type,
            st_other: sym.visibility,
            st_shndx: if sym.defined && sym.section.is_none() {
                elf::SHN_ABS
            } else {
                0
            },
            st_value: sym.value,
            st_size: sym.size,
        });
    }
    w.write_strtab();
    w.write_shstrtab();
    for s in sections {
        if s.sh_type != elf::SHT_NOBITS {
            w.write_align(s.align.max(1) as usize);
            w.write(&s.data);
        }
    }
    for s in sections {
        if s.relocations.is_empty() {
            continue;
        }
        w.write_align_relocation();
        for r in &s.relocations {
            let r_sym = match r.symbol {
                RelocTarget::Symbol(i) => symbol_index[i],
                RelocTarget::Section(i) => section_symbol[i],
                RelocTarget::Absolute => 0,
            };
            w.write_relocation(
                true,
                &Rel {
                    r_offset: r.offset,
                    r_sym,
                    r_type: r.r_type,
                    r_addend: r.addend,
                },
            );
        }
    }

    w.write_null_section_header();
    for (i, s) in sections.iter().enumerate() {
        w.write_section_header(&SectionHeader {
            name: Some(section_name[i]),
            sh_type: s.sh_type,
            sh_flags: s.flags,
            sh_addr: 0,
            sh_offset: data_offsets[i] as u64,
            sh_size: s.data.len() as u64,
            sh_link: 0,
            sh_info: 0,
            sh_addralign: s.align.max(1),
            sh_entsize: s.entsize,
        });
    }
    for (i, s) in sections.iter().enumerate() {
        if let Some((name, _)) = rela_index[i] {
            w.write_relocation_section_header(
                name,
                section_index[i],
                symtab,
                rela_offsets[i],
                s.relocations.len(),
                true,
            );
        }
    }
    w.write_symtab_section_header(num_local);
    w.write_strtab_section_header();
    w.write_shstrtab_section_header();
    buffer
}
