//! Whole-section listings: the `llvm-objdump -d` layout, and assembly source with labels.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use gcnkit_isa::instruction::Instruction;
use gcnkit_isa::{DecodeError, Encoding, Target};

use crate::text::push_hex_upper;
use crate::{print_instruction, PrintContext};

/// A symbol that names an address in the listed section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Symbol name.
    pub name: String,
    /// Address (section base plus offset).
    pub addr: u64,
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
    /// A run of zero bytes llvm-objdump skips (printed as `...`).
    Zeros,
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
    walk_inner(target, bytes, base, None, label_of, f)
}

/// Number of zero bytes llvm-objdump skips at the start of `buf`: none unless at least eight
/// are zero, and then a multiple of four (so that no instruction is cut).
fn skippable_zeros(buf: &[u8]) -> usize {
    let n = buf.iter().take_while(|&&b| b == 0).count();
    if n < 8 {
        0
    } else {
        n & !3
    }
}

/// Like [`walk`], but skips runs of zero bytes within each symbol's range the way
/// llvm-objdump does (reported as [`Item::Zeros`]). `symbol_offsets` are the sorted offsets of
/// the symbols in the section: a run never extends past the next symbol.
pub fn walk_skipping_zeros<'l>(
    target: &Target,
    bytes: &[u8],
    base: u64,
    symbol_offsets: &[usize],
    label_of: impl Fn(u64) -> Option<&'l str>,
    f: impl FnMut(usize, Item, usize, &str),
) {
    walk_inner(target, bytes, base, Some(symbol_offsets), label_of, f)
}

fn walk_inner<'l>(
    target: &Target,
    bytes: &[u8],
    base: u64,
    symbol_offsets: Option<&[usize]>,
    label_of: impl Fn(u64) -> Option<&'l str>,
    mut f: impl FnMut(usize, Item, usize, &str),
) {
    let mut off = 0;
    let mut text = String::with_capacity(128);
    while off < bytes.len() {
        if let Some(starts) = symbol_offsets {
            let end = starts
                .get(starts.partition_point(|&s| s <= off))
                .copied()
                .unwrap_or(bytes.len())
                .min(bytes.len());
            let zeros = skippable_zeros(&bytes[off..end]);
            if zeros > 0 {
                f(off, Item::Zeros, zeros, "");
                off += zeros;
                continue;
            }
        }
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
    sink: Option<&'w mut dyn std::io::Write>,
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

    /// Streams the listing to `sink` in chunks.
    pub fn streaming(sink: &'w mut dyn std::io::Write) -> Output<'w> {
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

fn sorted_symbols(section: &Section<'_>) -> Vec<Symbol> {
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

/// Name of the symbol at or before `addr` and the offset from it, as `sym` or `sym+0x10`.
fn symbolize(syms: &[Symbol], section: &Section<'_>, addr: u64) -> String {
    let idx = syms.partition_point(|s| s.addr <= addr);
    let (name, base) = if idx == 0 {
        (section.name, section.addr)
    } else {
        (syms[idx - 1].name.as_str(), syms[idx - 1].addr)
    };
    if addr == base {
        name.to_string()
    } else if addr > base {
        format!("{name}+0x{:x}", addr - base)
    } else {
        format!("{name}-0x{:x}", base - addr)
    }
}

/// Column at which llvm-objdump starts the `// address: words` comment (counting the
/// leading tab as one character).
const COMMENT_COLUMN: usize = 60;

/// Appends the `llvm-objdump -d --mcpu=X` listing of one section, from the
/// `Disassembly of section` line on. Returns diagnostics for bytes that did not decode.
pub fn objdump_section(
    target: &Target,
    section: &Section<'_>,
    out: &mut Output<'_>,
) -> Vec<Diagnostic> {
    let syms = sorted_symbols(section);
    let mut diags = Vec::new();
    let _ = writeln!(out.buf, "Disassembly of section {}:", section.name);
    let mut next_sym = 0;
    if syms.first().is_none_or(|s| s.addr != section.addr) && !section.bytes.is_empty() {
        let _ = writeln!(out.buf, "\n{:016x} <{}>:", section.addr, section.name);
    }
    let mut line = String::with_capacity(64);
    let offsets: Vec<usize> = syms
        .iter()
        .map(|s| (s.addr - section.addr) as usize)
        .collect();
    walk_skipping_zeros(
        target,
        section.bytes,
        section.addr,
        &offsets,
        |_| None,
        |off, item, len, text| {
            let addr = section.addr.wrapping_add(off as u64);
            while next_sym < syms.len() && syms[next_sym].addr <= addr {
                let s = &syms[next_sym];
                let _ = writeln!(out.buf, "\n{:016x} <{}>:", s.addr, s.name);
                next_sym += 1;
            }
            line.clear();
            let bytes = &section.bytes[off..off + len];
            match item {
                Item::Instruction(inst) => {
                    let sym = branch_target(&inst, addr).map(|t| symbolize(&syms, section, t));
                    push_objdump_line(&mut out.buf, text, addr, bytes, sym.as_deref());
                }
                Item::Invalid(word) => {
                    let _ = write!(line, ".long 0x{word:x}");
                    diags.push(Diagnostic {
                        addr,
                        message: invalid_message(target, &section.bytes[off..]),
                    });
                    push_objdump_line(&mut out.buf, &line, addr, bytes, None);
                }
                Item::Zeros => out.buf.push_str("\t\t...\n"),
                Item::Tail => {
                    line.push_str(".byte ");
                    for (i, b) in bytes.iter().enumerate() {
                        if i > 0 {
                            line.push_str(", ");
                        }
                        let _ = write!(line, "0x{b:02x}");
                    }
                    diags.push(Diagnostic {
                        addr,
                        message: format!("{len} trailing bytes do not form an instruction"),
                    });
                    out.buf.push('\t');
                    out.buf.push_str(&line);
                    for _ in line.len()..COMMENT_COLUMN - 1 {
                        out.buf.push(' ');
                    }
                    let _ = write!(out.buf, "// {addr:012X}:");
                    for b in bytes {
                        let _ = write!(out.buf, " {b:02X}");
                    }
                    out.buf.push('\n');
                }
            }
            out.maybe_flush();
        },
    );
    diags
}

fn invalid_message(target: &Target, rest: &[u8]) -> String {
    match gcnkit_isa::decode(target, rest) {
        Err(DecodeError::Truncated { needed, available }) => format!(
            "truncated instruction at end of section: {needed} bytes needed, {available} available"
        ),
        Err(e) => e.to_string(),
        Ok(_) => "invalid instruction encoding".to_string(),
    }
}

fn push_objdump_line(out: &mut String, text: &str, addr: u64, bytes: &[u8], sym: Option<&str>) {
    out.push('\t');
    out.push_str(text);
    const SPACES: &str = "                                                            ";
    out.push_str(
        SPACES
            .get(..(COMMENT_COLUMN - 1).saturating_sub(text.len()))
            .unwrap_or(""),
    );
    out.push_str("// ");
    push_hex_upper(out, addr, 12);
    out.push(':');
    for w in bytes.chunks(4) {
        let mut v = [0u8; 4];
        v[..w.len()].copy_from_slice(w);
        out.push(' ');
        push_hex_upper(out, u32::from_le_bytes(v) as u64, 8);
    }
    if let Some(s) = sym {
        out.push_str(" <");
        out.push_str(s);
        out.push('>');
    }
    out.push('\n');
}

/// Appends an assembly-source listing of one section: symbols become labels, branch
/// targets become `.LBB<n>_<m>` labels, invalid words become `.long`.
pub fn source_section(
    target: &Target,
    section: &Section<'_>,
    out: &mut Output<'_>,
) -> Vec<Diagnostic> {
    let syms = sorted_symbols(section);
    // First pass: collect branch targets.
    let mut labels: BTreeMap<u64, String> = BTreeMap::new();
    walk(
        target,
        section.bytes,
        section.addr,
        |_| None,
        |off, item, _, _| {
            if let Item::Instruction(inst) = item {
                if let Some(t) = branch_target(&inst, section.addr.wrapping_add(off as u64)) {
                    labels.entry(t).or_default();
                }
            }
        },
    );
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
                Item::Instruction(_) => {
                    let _ = writeln!(out.buf, "\t{text}");
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
                // The source listing keeps every byte; zero runs are only skipped by objdump_section.
                Item::Zeros => {
                    let _ = writeln!(out.buf, "\t.zero {len}");
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
