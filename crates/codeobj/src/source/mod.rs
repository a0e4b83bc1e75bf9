//! Assembly source that rebuilds a code object: everything `gcn disasm` prints besides the
//! machine code, so that assembling and linking the listing gives back the same `.text`,
//! kernel descriptors and metadata note.
//!
//! [`rebuild_source`] returns the pieces in file order: a prologue (`.amdhsa_code_object_version`,
//! `.amdgcn_target`, symbol attributes), the allocated sections in address order (code
//! sections for the caller to list, data sections already printed, with an `.amdhsa_kernel`
//! block in place of each kernel descriptor), and an epilogue (attributes of the
//! descriptor symbols, the `.amdgpu_metadata` block). What cannot be written as directives
//! is kept as bytes, with a [`Warning`] saying why. The layout follows the original: each
//! section starts with its alignment and every byte is placed at its original offset, so the
//! linker (which lays sections out from their sizes and alignments) puts everything back
//! at the same addresses.

mod data;
mod descriptors;
mod elf_extra;
mod kernel_block;
mod metadata_yaml;
mod notes;
mod symbols;

use std::collections::HashMap;

use crate::elf_flags::ElfHeader;
use crate::{CodeObjectError, CodeObjectInfo, Symbol};

use data::SHT_NOBITS;
use elf_extra::{SectionExtra, SymbolExtra};
use symbols::Attributes;

pub use metadata_yaml::{metadata_yaml, reads_as_string, STRING_TAG};

/// `sh_flags` bits looked at here.
const SHF_ALLOC: u64 = 0x2;
/// `sh_type` of sections with file bytes.
const SHT_PROGBITS: u32 = 1;
/// Sections the linker makes: a rebuild leaves them to it.
const LINKER_SECTIONS: [&str; 8] = [
    ".dynamic",
    ".relro_padding",
    ".got",
    ".got.plt",
    ".rela.dyn",
    ".interp",
    ".dynsym",
    ".dynstr",
];

/// Something the rebuilt source cannot say as directives, kept as bytes instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Section concerned.
    pub section: String,
    /// Address concerned.
    pub addr: u64,
    /// What and why.
    pub message: String,
}

/// One allocated section of the rebuilt source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceSection {
    /// Machine code: the caller prints `preamble` (section directive and alignment), then
    /// lists section `index` with its symbols as labels.
    Code {
        /// Section header index.
        index: usize,
        /// `.section` and `.p2align` lines.
        preamble: String,
    },
    /// A data section, printed.
    Data(String),
}

/// The source of a code object apart from its machine code; see the module documentation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RebuildSource {
    /// Code-object version, target and symbol attributes.
    pub prologue: String,
    /// Allocated sections in address order.
    pub sections: Vec<SourceSection>,
    /// Descriptor symbol attributes and the metadata.
    pub epilogue: String,
    /// What was kept as bytes, and why.
    pub warnings: Vec<Warning>,
}

/// Builds the source pieces of the code object `bytes` (a linked, `ET_DYN` AMDGPU ELF).
pub fn rebuild_source(bytes: &[u8]) -> Result<RebuildSource, CodeObjectError> {
    let info = CodeObjectInfo::read(bytes)?;
    let symbol_extras = elf_extra::symbol_extras(bytes)?;
    let extras: HashMap<usize, SectionExtra> =
        elf_extra::section_extras(bytes)?.into_iter().collect();
    let ctx = Context {
        info: &info,
        symbol_extras,
        extras,
    };
    let mut out = RebuildSource {
        prologue: prologue(&info.header),
        ..RebuildSource::default()
    };
    let kernels = ctx.kernel_blocks(&mut out.warnings);
    ctx.undefined_symbols(&mut out.prologue);
    ctx.symbol_attributes(&kernels, &mut out);
    let mut sections: Vec<&crate::Section<'_>> =
        info.sections.iter().filter(|s| ctx.is_rebuilt(s)).collect();
    sections.sort_by_key(|s| s.addr);
    for s in sections {
        out.sections.push(if s.executable {
            SourceSection::Code {
                index: s.index,
                preamble: code_preamble(s),
            }
        } else {
            SourceSection::Data(ctx.data_section(s, &kernels))
        });
    }
    for s in info.sections.iter().filter(|s| ctx.is_note(s)) {
        out.epilogue.push_str(&notes::note_section_source(
            s,
            ctx.extra(s),
            &mut out.warnings,
        ));
    }
    Ok(out)
}

/// `.amdhsa_code_object_version` (from the ELF ABI version) and `.amdgcn_target` (the
/// target id from `e_flags`, as LLVM writes it).
fn prologue(header: &ElfHeader) -> String {
    let mut out = String::new();
    if let Some(v) = header.code_object_version {
        out.push_str(&format!("\t.amdhsa_code_object_version {v}\n"));
    }
    if let Some(id) = header.target_id() {
        out.push_str(&format!("\t.amdgcn_target \"amdgcn-amd-amdhsa--{id}\"\n"));
    }
    out
}

fn code_preamble(s: &crate::Section<'_>) -> String {
    let mut out = format!("\t.section\t{},\"ax\",@progbits\n", s.name);
    if s.align > 1 {
        out.push_str(&format!("\t.p2align\t{}\n", s.align.trailing_zeros()));
    }
    out
}

/// How one kernel descriptor is written.
struct KernelSource {
    /// Index of the `.kd` symbol.
    symbol: usize,
    /// Index of the kernel's symbol, if it has one.
    kernel: Option<usize>,
    /// The `.amdhsa_kernel` block, or `None` when the descriptor is kept as bytes.
    block: Option<String>,
    /// For bytes: the `.quad` expression of the entry offset.
    entry: String,
    /// Visibility the kernel has when the block copies it to the descriptor symbol: the
    /// kernel's own when both agree, else default, the kernel's then being set after the
    /// block (no directive gives a symbol default visibility back).
    kernel_visibility: u8,
}

/// What the rebuild needs to know about the input.
struct Context<'i, 'a> {
    info: &'i CodeObjectInfo<'a>,
    /// Visibility and definedness per symbol.
    symbol_extras: Vec<SymbolExtra>,
    /// `sh_flags` and `sh_size` per section index.
    extras: HashMap<usize, SectionExtra>,
}

impl Context<'_, '_> {
    /// Allocated code and data sections, less the ones the linker makes.
    fn is_rebuilt(&self, s: &crate::Section<'_>) -> bool {
        self.extra(s).flags & SHF_ALLOC != 0
            && matches!(s.sh_type, SHT_PROGBITS | SHT_NOBITS)
            && !LINKER_SECTIONS.contains(&s.name.as_str())
    }

    fn is_note(&self, s: &crate::Section<'_>) -> bool {
        self.extra(s).flags & SHF_ALLOC != 0 && s.sh_type == data::SHT_NOTE
    }

    fn extra(&self, s: &crate::Section<'_>) -> SectionExtra {
        self.extras.get(&s.index).copied().unwrap_or_default()
    }

    fn section_of(&self, sym: &Symbol) -> Option<&crate::Section<'_>> {
        let i = sym.section?;
        self.info.sections.iter().find(|s| s.index == i)
    }

    /// Symbols the source defines: named, in a rebuilt section.
    fn rebuilt_symbols(&self) -> impl Iterator<Item = (usize, &Symbol)> {
        self.info.symbols.iter().enumerate().filter(|(_, s)| {
            !s.is_meta
                && !s.name.is_empty()
                && self.section_of(s).is_some_and(|x| self.is_rebuilt(x))
        })
    }

    fn attributes(&self, i: usize) -> Attributes {
        let extra = self.symbol_extras.get(i).copied().unwrap_or_default();
        Attributes::of(&self.info.symbols[i], extra.visibility)
    }
}
