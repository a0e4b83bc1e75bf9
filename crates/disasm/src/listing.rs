//! Whole-section listings: the `llvm-objdump -d` layout, and assembly source with labels.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use gcnkit_isa::instruction::Instruction;
use gcnkit_isa::{DecodeError, Encoding, Target};

use crate::{print_instruction, PrintContext};

/// A symbol that names an address in the listed section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Symbol name.
    pub name: String,
    /// Address (section base plus offset).
    pub addr: u64,
    /// True for symbols without a type (ELF `STT_NOTYPE`, such as plain labels in a
    /// relocatable object): llvm-objdump prints a branch to such a symbol's address as the
    /// symbol's name rather than as an offset.
    pub untyped: bool,
}

/// A section of machine code to list.
#[derive(Clone, Copy, Debug)]
pub struct Section<'a> {
    /// Section name, e.g. `.text`.
    pub name: &'a str,
    /// Address of the first byte.
    pub addr: u64,
    /// The bytes.
    pub bytes: &'a [u8],
    /// Symbols in the section, any order.
    pub symbols: &'a [Symbol],
}

/// Something worth telling the user that does not stop the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Address the diagnostic refers to.
    pub addr: u64,
    /// What happened.
    pub message: String,
}

/// One step of walking a section: an instruction, or bytes that are not one.
#[derive(Clone, Copy, Debug)]
pub enum Item {
    /// A valid instruction at this offset; its text is in the walker's buffer.
    Instruction(Instruction),
    /// A dword that is not a valid instruction.
    Invalid(u32),
    /// Fewer than four bytes left at the end.
    Tail,
}

/// Walks `bytes` instruction by instruction as llvm-objdump does: a dword that does not
/// decode, or whose operands are not valid, is an [`Item::Invalid`] and the walk goes on
/// with the next dword. `f` gets the offset, the item, its length and, for instructions,
/// the printed text (`label_of` supplies branch labels for source listings).
pub fn walk<'l>(
    target: &Target,
    bytes: &[u8],
    base: u64,
    label_of: impl Fn(u64) -> Option<&'l str>,
    f: impl FnMut(usize, Item, usize, &str),
) {
    walk_inner(target, bytes, base, label_of, f)
}

/// Number of zero bytes llvm-objdump skips at the start of `buf`: none unless at least eight
/// are zero, and then a multiple of four (so that no instruction is cut).
#[inline]
pub(crate) fn skippable_zeros(buf: &[u8]) -> usize {
    // Almost every instruction has a non-zero byte among its first eight.
    if buf.get(..8).is_none_or(|b| b.iter().any(|&x| x != 0)) {
        return 0;
    }
    let n = buf.iter().take_while(|&&b| b == 0).count();
    if n < 8 {
        0
    } else {
        n & !3
    }
}

fn walk_inner<'l>(
    target: &Target,
    bytes: &[u8],
    base: u64,
    label_of: impl Fn(u64) -> Option<&'l str>,
    mut f: impl FnMut(usize, Item, usize, &str),
) {
    let mut off = 0;
    let mut text = String::with_capacity(128);
    while off < bytes.len() {
        let rest = &bytes[off..];
        if rest.len() < 4 {
            f(off, Item::Tail, rest.len(), "");
            break;
        }
        text.clear();
        let decoded = gcnkit_isa::decode(target, rest).ok().filter(|inst| {
            let addr = base.wrapping_add(off as u64);
            let ctx = PrintContext {
                target,
                branch_label: branch_target(inst, addr).and_then(&label_of),
            };
            print_instruction(inst, &ctx, &mut text).is_ok()
        });
        match decoded {
            Some(inst) => {
                let len = inst.len as usize;
                f(off, Item::Instruction(inst), len, &text);
                off += len;
            }
            None => {
                let word = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
                f(off, Item::Invalid(word), 4, "");
                off += 4;
            }
        }
    }
}

/// Where a listing goes: a growing string, or a writer that gets the text in chunks so that
/// a large listing never sits in memory whole.
pub struct Output<'w> {
    /// Text not yet handed to the writer.
    pub buf: String,
    sink: Option<&'w mut (dyn std::io::Write + Send)>,
    error: Option<std::io::Error>,
}

/// Size at which buffered text is handed to the writer.
const CHUNK: usize = 1 << 16;

impl<'w> Output<'w> {
    /// Collects the whole listing in memory.
    pub fn memory() -> Output<'static> {
        Output {
            buf: String::new(),
            sink: None,
            error: None,
        }
    }

    /// Collects the whole listing in memory, appending to `buf` after clearing it (which
    /// keeps its allocation).
    pub fn memory_reusing(mut buf: String) -> Output<'static> {
        buf.clear();
        Output {
            buf,
            sink: None,
            error: None,
        }
    }

    /// Streams the listing to `sink` in chunks.
    pub fn streaming(sink: &'w mut (dyn std::io::Write + Send)) -> Output<'w> {
        Output {
            buf: String::with_capacity(CHUNK + 4096),
            sink: Some(sink),
            error: None,
        }
    }

    /// Hands buffered text to the writer once there is enough of it.
    #[inline]
    pub fn maybe_flush(&mut self) {
        if self.buf.len() >= CHUNK {
            self.flush();
        }
    }

    /// Appends a finished piece of text; when streaming, it goes to the writer directly,
    /// without a copy into the buffer.
    pub fn push_chunk(&mut self, text: &str) {
        if self.sink.is_none() {
            self.buf.push_str(text);
            return;
        }
        self.flush();
        if let Some(sink) = self.sink.as_mut() {
            if self.error.is_none() {
                if let Err(e) = sink.write_all(text.as_bytes()) {
                    self.error = Some(e);
                }
            }
        }
    }

    fn flush(&mut self) {
        if let Some(sink) = self.sink.as_mut() {
            if self.error.is_none() {
                if let Err(e) = sink.write_all(self.buf.as_bytes()) {
                    self.error = Some(e);
                }
            }
            self.buf.clear();
        }
    }

    /// Writes what is left and returns the in-memory text (empty when streaming), or the
    /// first write error.
    pub fn finish(mut self) -> std::io::Result<String> {
        self.flush();
        if let Some(sink) = self.sink.as_mut() {
            if self.error.is_none() {
                if let Err(e) = sink.flush() {
                    self.error = Some(e);
                }
            }
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(std::mem::take(&mut self.buf)),
        }
    }
}

/// Target address of a branch instruction (SOPP branches with a 16-bit dword offset).
pub fn branch_target(inst: &Instruction, addr: u64) -> Option<u64> {
    if !matches!(inst.encoding, Encoding::Sopp | Encoding::Sopk)
        || !inst.def().has(gcnkit_isa::flags::BRANCH)
    {
        return None;
    }
    let simm = inst.field(gcnkit_isa::Field::Simm16) as u16 as i16 as i64;
    // Addresses wrap like the hardware's 64-bit program counter.
    Some(addr.wrapping_add(4).wrapping_add((simm * 4) as u64))
}

pub(crate) fn sorted_symbols(section: &Section<'_>) -> Vec<Symbol> {
    let mut syms: Vec<Symbol> = section
        .symbols
        .iter()
        .filter(|s| s.addr >= section.addr && s.addr - section.addr < section.bytes.len() as u64)
        .cloned()
        .collect();
    syms.sort_by_key(|s| s.addr);
    syms.dedup_by(|b, a| a.addr == b.addr);
    syms
}

pub use crate::objdump::{objdump_section, objdump_section_threads};

pub(crate) fn invalid_message(target: &Target, rest: &[u8]) -> String {
    match gcnkit_isa::decode(target, rest) {
        Err(DecodeError::Truncated { needed, available }) => format!(
            "truncated instruction at end of section: {needed} bytes needed, {available} available"
        ),
        Err(e) => e.to_string(),
        Ok(_) => "invalid instruction encoding".to_string(),
    }
}

/// Appends an assembly-source listing of one section: symbols become labels, branch
/// targets become `.LBB<n>_<m>` labels, invalid words become `.long`.
pub fn source_section(
    target: &Target,
    section: &Section<'_>,
    out: &mut Output<'_>,
) -> Vec<Diagnostic> {
    source_section_checked(target, section, out, &mut |_, _| true)
}

/// [`source_section`], printing an instruction as `.long` words (with its text in a
/// comment) when `accept(instruction, text)` says the text would not assemble back to the
/// same bytes — as for encodings LLVM's assembler rejects, such as a zero dword, which
/// decodes to a `v_cndmask_b32` that breaks the constant-bus rule.
pub fn source_section_checked(
    target: &Target,
    section: &Section<'_>,
    out: &mut Output<'_>,
    accept: &mut dyn FnMut(&Instruction, &str) -> bool,
) -> Vec<Diagnostic> {
    let syms = sorted_symbols(section);
    // First pass: collect branch targets, and where instructions start (a label can only
    // be placed there; other branches keep their numeric offset).
    let mut labels: BTreeMap<u64, String> = BTreeMap::new();
    let mut starts: Vec<u64> = Vec::new();
    walk(
        target,
        section.bytes,
        section.addr,
        |_| None,
        |off, item, _, _| {
            let addr = section.addr.wrapping_add(off as u64);
            starts.push(addr);
            if let Item::Instruction(inst) = item {
                if let Some(t) = branch_target(&inst, addr) {
                    labels.entry(t).or_default();
                }
            }
        },
    );
    starts.sort_unstable();
    labels.retain(|addr, _| starts.binary_search(addr).is_ok());
    let mut func = 0usize;
    let mut count = 0usize;
    let mut sym_idx = 0;
    for (addr, name) in labels.iter_mut() {
        while sym_idx < syms.len() && syms[sym_idx].addr <= *addr {
            sym_idx += 1;
            func = sym_idx.saturating_sub(1);
            count = 0;
        }
        *name = format!(".LBB{func}_{count}");
        count += 1;
    }
    let _ = writeln!(out.buf, "\t.section\t{}", section.name);
    let mut diags = Vec::new();
    let mut next_sym = 0;
    let label_of = |t: u64| labels.get(&t).map(String::as_str);
    walk(
        target,
        section.bytes,
        section.addr,
        label_of,
        |off, item, len, text| {
            let addr = section.addr.wrapping_add(off as u64);
            while next_sym < syms.len() && syms[next_sym].addr <= addr {
                let _ = writeln!(out.buf, "{}:", syms[next_sym].name);
                next_sym += 1;
            }
            if let Some(l) = labels.get(&addr) {
                let _ = writeln!(out.buf, "{l}:");
            }
            match item {
                Item::Instruction(inst) if accept(&inst, text) => {
                    let _ = writeln!(out.buf, "\t{text}");
                }
                Item::Instruction(inst) => {
                    let (bytes, n) = inst.bytes();
                    out.buf.push_str("\t.long ");
                    for (i, w) in bytes[..n].chunks(4).enumerate() {
                        let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                        let _ = write!(out.buf, "{}0x{w:08x}", if i > 0 { ", " } else { "" });
                    }
                    let _ = writeln!(out.buf, " ; {text}");
                }
                Item::Invalid(word) => {
                    diags.push(Diagnostic {
                        addr,
                        message: invalid_message(target, &section.bytes[off..]),
                    });
                    let _ = writeln!(out.buf, "\t.long 0x{word:08x}");
                }
                Item::Tail => {
                    let bytes: Vec<String> = section.bytes[off..off + len]
                        .iter()
                        .map(|b| format!("0x{b:02x}"))
                        .collect();
                    let _ = writeln!(out.buf, "\t.byte {}", bytes.join(", "));
                }
            }
            out.maybe_flush();
        },
    );
    diags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_at_the_top_of_the_address_space_wrap_instead_of_panicking() {
        let target = Target::parse("gfx900", None).unwrap();
        // s_branch -1 and s_nop 0, placed so that address arithmetic crosses 2^64.
        let bytes = [0xff, 0xff, 0x82, 0xbf, 0x00, 0x00, 0x80, 0xbf];
        let symbols = [Symbol {
            name: "k".into(),
            addr: u64::MAX - 3,
            untyped: false,
        }];
        let section = Section {
            name: ".text",
            addr: u64::MAX - 3,
            bytes: &bytes,
            symbols: &symbols,
        };
        let mut out = Output::memory();
        objdump_section(&target, &section, &mut out);
        source_section(&target, &section, &mut out);
        let text = out.finish().unwrap();
        assert!(text.contains("s_branch 65535"), "{text}");
    }

    #[test]
    fn zero_runs_are_skipped_only_from_eight_bytes_and_within_a_symbol() {
        assert_eq!(skippable_zeros(&[0; 7]), 0);
        assert_eq!(skippable_zeros(&[0; 8]), 8);
        assert_eq!(skippable_zeros(&[0; 11]), 8);
        assert_eq!(
            skippable_zeros(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
            12
        );
    }
}
