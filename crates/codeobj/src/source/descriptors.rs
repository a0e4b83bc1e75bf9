//! Deciding, for each kernel descriptor, between an `.amdhsa_kernel` block and bytes, and
//! placing symbols and descriptors in the data sections.

use super::data::{data_section_source, DataSection, Piece};
use super::kernel_block::amdhsa_kernel_block;
use super::symbols::{is_plain_name, write_attributes, Attributes, LABEL};
use super::{Context, KernelSource, RebuildSource, Warning};
use crate::descriptor::KERNEL_DESCRIPTOR_SIZE;
use crate::{KernelInfo, Section};

/// Binding and type `.amdhsa_kernel` gives `NAME.kd`.
const STB_GLOBAL: u8 = 1;
const STT_OBJECT: u8 = 1;
/// Offset of `kernel_code_entry_byte_offset` in a descriptor.
const ENTRY_FIELD: u64 = 16;

impl Context<'_, '_> {
    /// How each kernel descriptor in a rebuilt section is written; a warning for each one
    /// kept as bytes.
    pub(super) fn kernel_blocks(&self, warnings: &mut Vec<Warning>) -> Vec<KernelSource> {
        let mut out = Vec::new();
        for k in &self.info.kernels {
            let Some(symbol) = self.symbol_index(k) else {
                continue;
            };
            let Some(section) = self.section_of(&k.symbol).filter(|s| self.is_rebuilt(s)) else {
                continue;
            };
            let block = self.block_for(k, section);
            if let Err(why) = &block {
                warnings.push(Warning {
                    section: section.name.clone(),
                    addr: k.symbol.addr,
                    message: format!("kernel descriptor {} kept as bytes: {why}", k.symbol.name),
                });
            }
            let kernel = self.kernel_symbol(k);
            let own = kernel.map_or(0, |i| self.attributes(i).visibility);
            let kernel_visibility = if own == self.attributes(symbol).visibility {
                own
            } else {
                0
            };
            out.push(KernelSource {
                symbol,
                kernel,
                block: block.ok(),
                entry: self.entry_expression(k),
                kernel_visibility,
            });
        }
        out
    }

    fn symbol_index(&self, k: &KernelInfo) -> Option<usize> {
        self.info
            .symbols
            .iter()
            .position(|s| s.name == k.symbol.name && s.addr == k.symbol.addr)
    }

    /// The kernel's own symbol, in a code section.
    fn kernel_symbol(&self, k: &KernelInfo) -> Option<usize> {
        self.info
            .symbols
            .iter()
            .position(|s| s.name == k.name && self.section_of(s).is_some_and(|x| x.executable))
    }

    /// The `.amdhsa_kernel` block, or why the descriptor cannot be one.
    fn block_for(&self, k: &KernelInfo, section: &Section<'_>) -> Result<String, String> {
        let kd = k.descriptor.as_ref().ok_or("no descriptor")?;
        let target = self
            .info
            .target
            .as_ref()
            .ok_or("gcnkit does not know the target")?;
        let version = self
            .info
            .code_object_version()
            .filter(|v| *v >= 3)
            .ok_or("code objects before v3 have no .amdhsa_kernel")?;
        if !(k.symbol.addr.wrapping_sub(section.addr)).is_multiple_of(KERNEL_DESCRIPTOR_SIZE as u64)
        {
            return Err("it is not 64-byte aligned in its section".into());
        }
        if !is_plain_name(&k.name) {
            return Err("the kernel name needs quoting".into());
        }
        let entry = kd.entry_address(k.symbol.addr);
        let kernel = self.kernel_symbol(k).map(|i| &self.info.symbols[i]);
        if kernel.is_none_or(|s| s.addr != entry) {
            return Err(format!(
                "its entry offset does not point at the symbol {} (the assembler writes it as a relocation against that symbol)",
                k.name
            ));
        }
        amdhsa_kernel_block(&k.name, kd, target, version)
    }

    /// The entry offset of a descriptor kept as bytes, as an expression the assembler turns
    /// into the same relocation llvm-mc writes: code symbol + delta + 16 - `.` (the field
    /// sits 16 bytes into the descriptor). A plain number when no code symbol precedes it.
    fn entry_expression(&self, k: &KernelInfo) -> String {
        let offset = k
            .descriptor
            .map_or(0, |kd| kd.kernel_code_entry_byte_offset);
        let entry = k.symbol.addr.wrapping_add(offset as u64);
        let own = self.kernel_symbol(k).map(|i| &self.info.symbols[i]);
        let base = own.filter(|s| s.addr <= entry).or_else(|| {
            self.rebuilt_symbols()
                .map(|(_, s)| s)
                .filter(|s| s.addr <= entry && is_plain_name(&s.name))
                .filter(|s| self.section_of(s).is_some_and(|x| x.executable))
                .max_by_key(|s| s.addr)
        });
        match base {
            Some(s) => format!("{}+{}-.", s.name, entry - s.addr + ENTRY_FIELD),
            None => offset.to_string(),
        }
    }

    /// Symbol attributes: in the prologue for every symbol the source defines (kernel
    /// symbols need `.protected` before their `.amdhsa_kernel` block, which copies it), in
    /// the epilogue for descriptor symbols the blocks define, where they differ from what
    /// the block gives.
    pub(super) fn symbol_attributes(&self, kernels: &[KernelSource], out: &mut RebuildSource) {
        for (i, sym) in self.rebuilt_symbols() {
            if let Some(k) = kernels.iter().find(|k| k.symbol == i && k.block.is_some()) {
                let have = Attributes {
                    bind: STB_GLOBAL,
                    st_type: STT_OBJECT,
                    visibility: k.kernel_visibility,
                    size: KERNEL_DESCRIPTOR_SIZE as u64,
                };
                write_attributes(&mut out.epilogue, &sym.name, self.attributes(i), have);
            } else if is_plain_name(&sym.name) {
                self.write_symbol(i, kernels, out);
            } else {
                out.warnings.push(Warning {
                    section: self
                        .section_of(sym)
                        .map_or(String::new(), |s| s.name.clone()),
                    addr: sym.addr,
                    message: format!("symbol {:?} needs quoting and is left out", sym.name),
                });
            }
        }
    }

    /// The attributes of a symbol the source defines (not a descriptor an `.amdhsa_kernel`
    /// block defines); a kernel's visibility goes after the blocks when its descriptor's
    /// differs (see [`KernelSource::kernel_visibility`]).
    fn write_symbol(&self, i: usize, kernels: &[KernelSource], out: &mut RebuildSource) {
        let name = &self.info.symbols[i].name;
        let want = self.attributes(i);
        let delayed = kernels.iter().any(|k| {
            k.kernel == Some(i) && k.block.is_some() && k.kernel_visibility != want.visibility
        });
        if delayed {
            let early = Attributes {
                visibility: 0,
                ..want
            };
            write_attributes(&mut out.prologue, name, early, LABEL);
            write_attributes(&mut out.epilogue, name, want, early);
        } else {
            write_attributes(&mut out.prologue, name, want, LABEL);
        }
    }

    /// `.globl`/`.weak` for the undefined symbols, which the linker keeps in `.dynsym`.
    pub(super) fn undefined_symbols(&self, out: &mut String) {
        for (i, sym) in self.info.symbols.iter().enumerate() {
            let undefined = self.symbol_extras.get(i).is_some_and(|e| e.undefined);
            if undefined && !sym.name.is_empty() && is_plain_name(&sym.name) && sym.st_bind != 0 {
                write_attributes(out, &sym.name, self.attributes(i), LABEL);
            }
        }
    }

    /// A data section with its labels and descriptors.
    pub(super) fn data_section(&self, s: &Section<'_>, kernels: &[KernelSource]) -> String {
        let mut pieces = Vec::new();
        let mut descriptors = Vec::new();
        for (i, sym) in self
            .rebuilt_symbols()
            .filter(|(_, x)| x.section == Some(s.index))
        {
            let offset = sym.addr - s.addr;
            match kernels.iter().find(|k| k.symbol == i) {
                Some(KernelSource {
                    block: Some(text), ..
                }) => descriptors.push((
                    offset,
                    Piece::Text {
                        text: text.clone(),
                        len: KERNEL_DESCRIPTOR_SIZE as u64,
                    },
                )),
                found => {
                    if is_plain_name(&sym.name) {
                        pieces.push((offset, Piece::Label(sym.name.clone())));
                    }
                    if let Some(k) = found {
                        let text = format!("\t.quad\t{}\n", k.entry);
                        descriptors.push((offset + ENTRY_FIELD, Piece::Text { text, len: 8 }));
                    }
                }
            }
        }
        pieces.extend(descriptors);
        let extra = self.extra(s);
        let section = DataSection {
            name: &s.name,
            flags: extra.flags,
            sh_type: s.sh_type,
            align: s.align,
            size: extra.size,
            data: s.data,
        };
        data_section_source(&section, pieces)
    }
}
