//! Everything about one code object that `gcn info` shows: header, notes, metadata and, per
//! kernel, its descriptor (v3+) or `amd_kernel_code_t` (v2) with register counts.
//!
//! Unlike [`crate::CodeObject::parse`], reading does not need a processor gcnkit supports:
//! a fat binary's gfx1030 code object is listed with its metadata, only the target-specific
//! views (register counts, directives) are left out.

use gcnkit_isa::{Gen, Processor, Target};

use crate::descriptor::{KernelDescriptor, KERNEL_DESCRIPTOR_SIZE};
use crate::elf::{self, symbol_bytes, Section, Symbol, STT_AMDGPU_HSA_KERNEL};
use crate::elf_flags::ElfHeader;
use crate::error::CodeObjectError;
use crate::kernel_code::{AmdKernelCode, AMD_KERNEL_CODE_SIZE};
use crate::metadata::Metadata;
use crate::notes::{isa_version_name, parse_notes, AmdgpuNote, Note};
use crate::registers::RegisterCounts;

/// A decoded code object.
#[derive(Debug)]
pub struct CodeObjectInfo<'a> {
    /// ELF header fields.
    pub header: ElfHeader,
    /// Processor name: from `e_flags` (v3+) or the ISA-version note (v2).
    pub processor: Option<String>,
    /// The gcnkit target, when gcnkit supports the processor.
    pub target: Option<Target>,
    /// Sections in header order.
    pub sections: Vec<Section<'a>>,
    /// Symbols of `.symtab` (or `.dynsym`).
    pub symbols: Vec<Symbol>,
    /// Note records of every SHT_NOTE section.
    pub notes: Vec<Note<'a>>,
    /// Kernel metadata (MessagePack in v3+, YAML in v2).
    pub metadata: Option<Metadata>,
    /// Kernels, in symbol-table order.
    pub kernels: Vec<KernelInfo>,
}

/// One kernel.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    /// Kernel name (the descriptor symbol without `.kd`, or the v2 kernel symbol).
    pub name: String,
    /// The descriptor symbol (`name.kd`) or, in v2, the kernel symbol.
    pub symbol: Symbol,
    /// v3+ kernel descriptor.
    pub descriptor: Option<KernelDescriptor>,
    /// v2 `amd_kernel_code_t`.
    pub kernel_code: Option<AmdKernelCode>,
    /// Registers allocated, when the target's granules are known.
    pub registers: Option<RegisterCounts>,
    /// Index of the kernel's entry in `metadata.kernels()`.
    pub metadata_index: Option<usize>,
}

const SHT_NOTE: u32 = 7;

impl<'a> CodeObjectInfo<'a> {
    /// Reads an AMDGPU ELF file (code object or relocatable object, v2–v6).
    pub fn read(bytes: &'a [u8]) -> Result<CodeObjectInfo<'a>, CodeObjectError> {
        let header = crate::amdgpu_header(bytes)?;
        let parts = elf::read_elf(bytes)?;
        let mut info = CodeObjectInfo {
            processor: header.processor_name().map(str::to_string),
            target: header.target().ok(),
            header,
            sections: parts.sections,
            symbols: parts.symbols,
            notes: Vec::new(),
            metadata: None,
            kernels: Vec::new(),
        };
        info.read_notes()?;
        info.read_kernels()?;
        Ok(info)
    }

    fn read_notes(&mut self) -> Result<(), CodeObjectError> {
        for s in self.sections.iter().filter(|s| s.sh_type == SHT_NOTE) {
            self.notes
                .extend(parse_notes(&s.name, s.data, s.file_offset, s.align)?);
        }
        for note in &self.notes {
            match note.decode()? {
                AmdgpuNote::Metadata(bytes) => {
                    self.metadata = Some(Metadata::from_msgpack(bytes, note.desc_offset)?);
                }
                AmdgpuNote::MetadataYaml(text) => {
                    self.metadata = Some(Metadata::from_yaml(text, note.desc_offset)?);
                }
                AmdgpuNote::IsaVersion {
                    major,
                    minor,
                    stepping,
                    ..
                } if self.processor.is_none() => {
                    let name = isa_version_name(major, minor, stepping);
                    // v2 e_flags carry no machine: the note decides the target.
                    self.target = Processor::by_name(&name).map(Target::new);
                    self.processor = Some(name);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The ISA generation, when gcnkit supports the processor.
    pub fn gen(&self) -> Option<Gen> {
        self.target.map(|t| t.gen())
    }

    /// The code-object version: from the ELF header, else from metadata.
    pub fn code_object_version(&self) -> Option<u8> {
        self.header.code_object_version
    }

    fn read_kernels(&mut self) -> Result<(), CodeObjectError> {
        let gen = self.gen();
        let md_kernels = self
            .metadata
            .as_ref()
            .map(|m| m.kernels())
            .unwrap_or_default();
        let find_md = |name: &str, symbol: &str| {
            md_kernels
                .iter()
                .position(|k| k.symbol() == Some(symbol))
                .or_else(|| md_kernels.iter().position(|k| k.name() == Some(name)))
        };
        let mut kernels = Vec::new();
        for sym in &self.symbols {
            let kernel = if sym.st_type == STT_AMDGPU_HSA_KERNEL {
                let bytes = symbol_bytes(&self.sections, sym, AMD_KERNEL_CODE_SIZE as u64)?;
                let code = AmdKernelCode::decode(bytes)?;
                let registers = gen.map(|g| RegisterCounts::of(&v2_as_descriptor(&code), g));
                KernelInfo {
                    name: sym.name.clone(),
                    symbol: sym.clone(),
                    descriptor: None,
                    kernel_code: Some(code),
                    registers,
                    metadata_index: find_md(&sym.name, &sym.name),
                }
            } else if let (Some(name), object::elf::STT_OBJECT) =
                (sym.name.strip_suffix(".kd"), sym.st_type)
            {
                let bytes = symbol_bytes(&self.sections, sym, KERNEL_DESCRIPTOR_SIZE as u64)?;
                let kd = KernelDescriptor::decode(bytes)?;
                KernelInfo {
                    name: name.to_string(),
                    symbol: sym.clone(),
                    descriptor: Some(kd),
                    kernel_code: None,
                    registers: gen.map(|g| RegisterCounts::of(&kd, g)),
                    metadata_index: find_md(name, &sym.name),
                }
            } else {
                continue;
            };
            kernels.push(kernel);
        }
        self.kernels = kernels;
        Ok(())
    }

    /// The address of a kernel's first instruction, if known.
    pub fn entry_address(&self, kernel: &KernelInfo) -> Option<u64> {
        let offset = match (&kernel.descriptor, &kernel.kernel_code) {
            (Some(kd), _) => kd.kernel_code_entry_byte_offset,
            (None, Some(code)) => code.kernel_code_entry_byte_offset,
            _ => return None,
        };
        Some(kernel.symbol.addr.wrapping_add(offset as u64))
    }
}

/// The register words of a v2 header in a descriptor, for the shared register-count decode.
fn v2_as_descriptor(code: &AmdKernelCode) -> KernelDescriptor {
    KernelDescriptor {
        compute_pgm_rsrc1: code.compute_pgm_rsrc1,
        compute_pgm_rsrc2: code.compute_pgm_rsrc2,
        ..KernelDescriptor::default()
    }
}
