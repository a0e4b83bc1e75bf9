//! A linker for one AMDGPU relocatable object: the loadable code object `ld.lld -shared`
//! makes of it, laid out as lld 19 lays it out (section order, addresses, alignment,
//! program headers, `.dynsym`/`.dynstr`/`.hash`/`.gnu.hash`/`.dynamic`, `.symtab`/`.strtab`)
//! with relocations resolved as lld resolves them.
//!
//! The file is written field by field with the `object` crate's ELF definitions rather than
//! its `write::elf::Writer`, because the writer builds string tables its own way (sorted,
//! suffix-merged) while lld keeps insertion order; matching lld byte for byte needs that
//! order.

mod emit;
mod input;
mod layout;
mod relocate;
mod sections;
mod symbols;

use object::elf;

use sections::{OutSection, Synth};

/// Why an object could not be linked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// Not a well-formed 64-bit little-endian ELF file.
    #[error("malformed input: {0}")]
    Malformed(String),
    /// An ELF file for another machine.
    #[error("not an AMDGPU ELF file")]
    NotAmdgpu,
    /// An ELF file that is not `ET_REL`.
    #[error("not a relocatable object (e_type {0})")]
    NotRelocatable(u16),
    /// Something lld would accept that this linker does not do (TLS, COMMON, SHT_REL, ...).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A relocation lld rejects too; `message` is lld's wording.
    #[error("{message}")]
    Relocation {
        /// lld's message.
        message: String,
    },
    /// Sizes beyond what a code object can hold.
    #[error("output too large")]
    TooLarge,
}

/// Largest output file this linker writes (1 GiB).
const MAX_OUTPUT: u64 = 1 << 30;

/// Choices that change the output bytes.
#[derive(Clone, Debug)]
pub struct LinkOptions {
    /// The linker's line in `.comment` (lld writes `Linker: LLD 19.1.7`, or Debian's
    /// `Linker: Debian LLD 19.1.7`).
    pub linker_comment: String,
}

impl Default for LinkOptions {
    fn default() -> Self {
        LinkOptions {
            linker_comment: format!("Linker: gcnkit {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// Links `relocatable` (an AMDGPU ELF relocatable object) into a shared code object as
/// `ld.lld -shared` does, with the default options.
pub fn link_shared(relocatable: &[u8]) -> Result<Vec<u8>, LinkError> {
    link_shared_with(relocatable, &LinkOptions::default())
}

/// [`link_shared`] with explicit options.
pub fn link_shared_with(relocatable: &[u8], options: &LinkOptions) -> Result<Vec<u8>, LinkError> {
    let input = input::read_input(relocatable)?;
    let needs_rela = input.relocs.iter().any(|r| relocate::is_dynamic(&input, r));
    let (mut out, places) = sections::plan(&input, needs_rela)?;
    let mut tables = symbols::collect(&input)?;
    let rela_count = input
        .relocs
        .iter()
        .filter(|r| relocate::is_dynamic(&input, r))
        .count();
    let relative_count = input
        .relocs
        .iter()
        .filter(|r| relocate::is_dynamic(&input, r) && !symbols::preemptible(&input.symbols[r.sym]))
        .count();
    let shstrtab = size_synthetic(&mut out, &tables, options, rela_count, relative_count)?;
    let (phdrs, shoff) = layout::assign(&mut out);
    // A hostile alignment or size could ask for an enormous file; code objects are small.
    if shoff > MAX_OUTPUT
        || out
            .iter()
            .any(|s| s.offset.saturating_add(s.data.len() as u64) > MAX_OUTPUT)
    {
        return Err(LinkError::TooLarge);
    }
    fill_symbol_values(&input, &out, &places, &mut tables);
    let dynamic_relocs = relocate::apply(&input, &mut out, &places, &tables)?;
    fill_synthetic(&mut out, &tables, &dynamic_relocs, relative_count);
    Ok(emit::write_file(&input, &out, &phdrs, shoff, &shstrtab))
}

fn index_of(out: &[OutSection], synth: Synth) -> u32 {
    out.iter().position(|s| s.synth == synth).unwrap_or(0) as u32
}

/// Number of `.dynamic` entries lld writes.
fn dynamic_entries(rela: usize, relative: usize) -> u64 {
    let rela_tags = if rela > 0 {
        3 + u64::from(relative > 0)
    } else {
        0
    };
    rela_tags + 4 + 2 + 1
}

/// Sizes, links and infos of the synthetic sections; returns `.shstrtab`'s bytes.
fn size_synthetic(
    out: &mut [OutSection],
    t: &symbols::Tables,
    options: &LinkOptions,
    rela: usize,
    relative: usize,
) -> Result<Vec<u8>, LinkError> {
    let (dynsym, dynstr, strtab) = (
        index_of(out, Synth::Dynsym),
        index_of(out, Synth::Dynstr),
        index_of(out, Synth::Strtab),
    );
    let mut shstrtab = vec![0u8];
    for (i, s) in out.iter_mut().enumerate() {
        if i > 0 {
            s.name_off = shstrtab.len() as u32;
            shstrtab.extend_from_slice(s.name.as_bytes());
            shstrtab.push(0);
        }
        let size = match s.synth {
            Synth::Input | Synth::RelroPadding => continue,
            Synth::Dynsym => (s.link, s.info, (t.dynsym.len() * 24) as u64),
            Synth::GnuHash => (dynsym, 0, symbols::gnu_hash_size(t)),
            Synth::Hash => (dynsym, 0, (8 + 8 * t.dynsym.len()) as u64),
            Synth::Dynstr => (0, 0, t.dynstr.len() as u64),
            Synth::RelaDyn => (dynsym, 0, (rela * 24) as u64),
            Synth::Dynamic => (dynstr, 0, 16 * dynamic_entries(rela, relative)),
            Synth::Comment => {
                s.data = sections::comment_contents(&options.linker_comment, &s.data)?;
                (0, 0, s.data.len() as u64)
            }
            Synth::Symtab => (strtab, t.first_global as u32, (t.symtab.len() * 24) as u64),
            Synth::Shstrtab => (0, 0, 0),
            Synth::Strtab => (0, 0, t.strtab.len() as u64),
        };
        (s.link, s.info, s.size) = size;
        if s.synth == Synth::Dynsym {
            (s.link, s.info) = (dynstr, 1);
        }
    }
    let at = index_of(out, Synth::Shstrtab) as usize;
    out[at].size = shstrtab.len() as u64;
    Ok(shstrtab)
}

/// Symbol values and section indices once addresses are known.
fn fill_symbol_values(
    input: &input::Input,
    out: &[OutSection],
    places: &[Option<sections::Placement>],
    t: &mut symbols::Tables,
) {
    let dynamic = index_of(out, Synth::Dynamic);
    let resolve = |o: &mut symbols::OutSym| {
        let Some(i) = o.input else {
            if o.name == "_DYNAMIC" {
                o.value = out[dynamic as usize].addr;
                o.shndx = dynamic as u16;
            }
            return;
        };
        let s = &input.symbols[i];
        match s.shndx {
            elf::SHN_UNDEF => (o.value, o.shndx) = (0, elf::SHN_UNDEF),
            elf::SHN_ABS => (o.value, o.shndx) = (s.value, elf::SHN_ABS),
            idx => match places.get(usize::from(idx)).and_then(Option::as_ref) {
                Some(p) => {
                    o.value = out[p.out].addr.wrapping_add(p.map(s.value));
                    o.shndx = p.out as u16;
                }
                None => (o.value, o.shndx) = (s.value, elf::SHN_ABS),
            },
        }
    };
    t.symtab.iter_mut().for_each(resolve);
    t.dynsym.iter_mut().for_each(resolve);
}

/// Contents of the synthetic sections.
fn fill_synthetic(
    out: &mut [OutSection],
    t: &symbols::Tables,
    dyn_relocs: &[relocate::DynReloc],
    relative: usize,
) {
    let addr =
        |out: &[OutSection], s: Synth| out.iter().find(|o| o.synth == s).map_or(0, |o| o.addr);
    let mut dynamic: Vec<(i64, u64)> = Vec::new();
    if !dyn_relocs.is_empty() {
        dynamic.push((elf::DT_RELA as i64, addr(out, Synth::RelaDyn)));
        dynamic.push((elf::DT_RELASZ as i64, 24 * dyn_relocs.len() as u64));
        dynamic.push((elf::DT_RELAENT as i64, 24));
        if relative > 0 {
            dynamic.push((elf::DT_RELACOUNT as i64, relative as u64));
        }
    }
    dynamic.extend([
        (elf::DT_SYMTAB as i64, addr(out, Synth::Dynsym)),
        (elf::DT_SYMENT as i64, 24),
        (elf::DT_STRTAB as i64, addr(out, Synth::Dynstr)),
        (elf::DT_STRSZ as i64, t.dynstr.len() as u64),
        (elf::DT_GNU_HASH as i64, addr(out, Synth::GnuHash)),
        (elf::DT_HASH as i64, addr(out, Synth::Hash)),
        (elf::DT_NULL as i64, 0),
    ]);
    for s in out.iter_mut() {
        s.data = match s.synth {
            Synth::Dynsym => t.dynsym.iter().flat_map(|o| o.bytes()).collect(),
            Synth::GnuHash => symbols::gnu_hash_bytes(t),
            Synth::Hash => symbols::sysv_hash_bytes(t),
            Synth::Dynstr => t.dynstr.clone(),
            Synth::Strtab => t.strtab.clone(),
            Synth::Symtab => t.symtab.iter().flat_map(|o| o.bytes()).collect(),
            Synth::RelaDyn => dyn_relocs.iter().flat_map(emit::rela_bytes).collect(),
            Synth::Dynamic => dynamic
                .iter()
                .flat_map(|&(tag, v)| [tag.to_le_bytes(), v.to_le_bytes()].concat())
                .collect(),
            _ => continue,
        };
    }
}
