//! What two relocatable objects must agree on: section contents and attributes,
//! relocations and symbols, read with the `object` crate so that gcnkit's ELF writer is
//! checked by an independent reader.

use std::collections::BTreeMap;

use object::read::elf::ElfFile64;
use object::{
    Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget, SectionFlags,
    SymbolFlags, SymbolSection,
};

/// A section's attributes and contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionView {
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addralign`.
    pub align: u64,
    /// Contents (empty for SHT_NOBITS).
    pub data: Vec<u8>,
    /// Size (for SHT_NOBITS, the only thing that counts).
    pub size: u64,
}

/// One relocation: section, offset, type, target (symbol name, or the section name for a
/// section symbol) and addend.
pub type RelocView = (String, u64, u32, String, i64);

/// One symbol: name, section name (or `*UND*`/`*ABS*`), value, size, `st_info`, `st_other`.
pub type SymbolView = (String, String, u64, u64, u8, u8);

/// An object as compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectView {
    /// Sections by name, without the symbol, string and relocation tables.
    pub sections: BTreeMap<String, SectionView>,
    /// Relocations, sorted.
    pub relocations: Vec<RelocView>,
    /// Named symbols (section symbols left out), sorted.
    pub symbols: Vec<SymbolView>,
}

/// Reads an ELF64 relocatable object.
pub fn object_view(bytes: &[u8]) -> Result<ObjectView, String> {
    let file = ElfFile64::<object::Endianness>::parse(bytes).map_err(|e| e.to_string())?;
    let mut view = ObjectView::default();
    for s in file.sections() {
        let name = s.name().map_err(|e| e.to_string())?.to_string();
        let SectionFlags::Elf { sh_flags } = s.flags() else {
            continue;
        };
        let sh_type = s.elf_section_header().sh_type.get(file.endian());
        if matches!(sh_type, 2 | 3 | 4 | 9) {
            continue; // SYMTAB, STRTAB, RELA, REL
        }
        view.sections.insert(
            name.clone(),
            SectionView {
                sh_type,
                flags: sh_flags,
                align: s.align(),
                data: s.data().map_err(|e| e.to_string())?.to_vec(),
                size: s.size(),
            },
        );
        for (offset, r) in s.relocations() {
            let RelocationFlags::Elf { r_type } = r.flags() else {
                continue;
            };
            let target = match r.target() {
                RelocationTarget::Symbol(i) => {
                    let sym = file.symbol_by_index(i).map_err(|e| e.to_string())?;
                    match sym.section() {
                        SymbolSection::Section(si) if sym.kind() == object::SymbolKind::Section => {
                            file.section_by_index(si)
                                .and_then(|s| s.name().map(str::to_string))
                                .map_err(|e| e.to_string())?
                        }
                        _ => sym.name().map_err(|e| e.to_string())?.to_string(),
                    }
                }
                other => format!("{other:?}"),
            };
            view.relocations
                .push((name.clone(), offset, r_type, target, r.addend()));
        }
    }
    for sym in file.symbols() {
        if sym.kind() == object::SymbolKind::Section || sym.name().unwrap_or("").is_empty() {
            continue;
        }
        let section = match sym.section() {
            SymbolSection::Section(i) => file
                .section_by_index(i)
                .and_then(|s| s.name().map(str::to_string))
                .unwrap_or_default(),
            SymbolSection::Absolute => "*ABS*".into(),
            _ => "*UND*".into(),
        };
        let (st_info, st_other) = match sym.flags() {
            SymbolFlags::Elf { st_info, st_other } => (st_info, st_other),
            _ => (0, 0),
        };
        view.symbols.push((
            sym.name().unwrap_or("").to_string(),
            section,
            sym.address(),
            sym.size(),
            st_info,
            st_other,
        ));
    }
    view.relocations.sort();
    view.symbols.sort();
    Ok(view)
}

/// How two views differ, one line per difference (empty when they agree), and how many
/// items were compared.
pub fn compare_views(ours: &ObjectView, theirs: &ObjectView) -> (Vec<String>, usize) {
    let mut diffs = Vec::new();
    let mut compared = 0;
    for (name, t) in &theirs.sections {
        compared += 1;
        match ours.sections.get(name) {
            None => diffs.push(format!("section {name} missing")),
            Some(o) if o != t => {
                let at = o.data.iter().zip(&t.data).position(|(a, b)| a != b);
                diffs.push(format!(
                    "section {name}: type {}/{}, flags {:#x}/{:#x}, align {}/{}, size {}/{}, first differing byte {at:?}",
                    o.sh_type, t.sh_type, o.flags, t.flags, o.align, t.align, o.size, t.size
                ));
            }
            Some(_) => {}
        }
    }
    for name in ours.sections.keys() {
        if !theirs.sections.contains_key(name) {
            diffs.push(format!("extra section {name}"));
        }
    }
    compared += theirs.relocations.len() + theirs.symbols.len();
    if ours.relocations != theirs.relocations {
        for r in theirs
            .relocations
            .iter()
            .filter(|r| !ours.relocations.contains(r))
        {
            diffs.push(format!("relocation missing: {r:?}"));
        }
        for r in ours
            .relocations
            .iter()
            .filter(|r| !theirs.relocations.contains(r))
        {
            diffs.push(format!("relocation extra: {r:?}"));
        }
    }
    if ours.symbols != theirs.symbols {
        for s in theirs.symbols.iter().filter(|s| !ours.symbols.contains(s)) {
            diffs.push(format!("symbol missing: {s:?}"));
        }
        for s in ours.symbols.iter().filter(|s| !theirs.symbols.contains(s)) {
            diffs.push(format!("symbol extra: {s:?}"));
        }
    }
    (diffs, compared)
}
