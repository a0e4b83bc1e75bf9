//! Data sections (`.rodata`, `.data`, `.bss`, notes kept as bytes...) as assembly source:
//! the section directive with its flags, type and alignment, then the bytes as `.byte`
//! and `.zero` lines with the section's labels and kernel-descriptor blocks at their
//! offsets, so that the assembled section has the original layout.

use std::fmt::Write as _;

/// ELF section flags and types used here.
const SHF_WRITE: u64 = 0x1;
const SHF_ALLOC: u64 = 0x2;
const SHF_EXECINSTR: u64 = 0x4;
/// `sh_type` of sections without file bytes.
pub(crate) const SHT_NOBITS: u32 = 8;
/// `sh_type` of note sections.
pub(crate) const SHT_NOTE: u32 = 7;

/// Zero runs at least this long print as `.zero`.
const ZERO_RUN: usize = 16;
/// Bytes per `.byte` line.
const BYTES_PER_LINE: usize = 16;

/// Something placed at an offset of a data section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// A label `NAME:`.
    Label(String),
    /// Source text that assembles to `len` bytes (an `.amdhsa_kernel` block, a `.quad`).
    Text { text: String, len: u64 },
}

/// The section to print.
pub(crate) struct DataSection<'a> {
    /// Section name.
    pub name: &'a str,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_addralign`.
    pub align: u64,
    /// Size in bytes.
    pub size: u64,
    /// The bytes (empty for NOBITS).
    pub data: &'a [u8],
}

/// The source of `section` with `pieces` (offset, piece) placed in it; pieces at the
/// same offset keep their order.
pub(crate) fn data_section_source(
    section: &DataSection<'_>,
    mut pieces: Vec<(u64, Piece)>,
) -> String {
    let mut out = section_header(section);
    pieces.sort_by_key(|p| p.0);
    let mut pos = 0u64;
    for (offset, piece) in pieces {
        write_bytes(&mut out, section, pos, offset.max(pos));
        pos = pos.max(offset);
        match piece {
            Piece::Label(name) => {
                writeln!(out, "{name}:").ok();
            }
            Piece::Text { text, len } => {
                out.push_str(&text);
                pos += len;
            }
        }
    }
    write_bytes(&mut out, section, pos, section.size);
    out
}

/// `.section NAME,"flags",@type[,entsize]` and `.p2align`.
fn section_header(section: &DataSection<'_>) -> String {
    let mut flags = String::new();
    // Not SHF_MERGE/SHF_STRINGS: a linked section that merged strings (ld.lld marks
    // `.rodata` "aMS" when `.rodata.str1.1` went into it) holds final bytes, which merging
    // again would move.
    for (bit, c) in [(SHF_ALLOC, 'a'), (SHF_WRITE, 'w'), (SHF_EXECINSTR, 'x')] {
        if section.flags & bit != 0 {
            flags.push(c);
        }
    }
    let kind = match section.sh_type {
        SHT_NOBITS => "@nobits",
        SHT_NOTE => "@note",
        _ => "@progbits",
    };
    let mut out = format!("\t.section\t{},\"{flags}\",{kind}\n", section.name);
    if section.align > 1 {
        writeln!(out, "\t.p2align\t{}", section.align.trailing_zeros()).ok();
    }
    out
}

/// The bytes `from..to` of the section as `.byte` and `.zero` lines.
fn write_bytes(out: &mut String, section: &DataSection<'_>, from: u64, to: u64) {
    if to <= from {
        return;
    }
    if section.sh_type == SHT_NOBITS {
        writeln!(out, "\t.zero\t{}", to - from).ok();
        return;
    }
    let bytes = &section.data[from as usize..to as usize];
    let mut i = 0;
    while i < bytes.len() {
        let zeros = bytes[i..].iter().take_while(|&&b| b == 0).count();
        if zeros >= ZERO_RUN {
            writeln!(out, "\t.zero\t{zeros}").ok();
            i += zeros;
            continue;
        }
        let end = (i + BYTES_PER_LINE).min(bytes.len());
        let line: Vec<String> = bytes[i..end].iter().map(|b| format!("0x{b:02x}")).collect();
        writeln!(out, "\t.byte\t{}", line.join(", ")).ok();
        i = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_blocks_land_at_their_offsets() {
        let mut data = vec![0u8; 40];
        data[0] = 7;
        data[39] = 9;
        let section = DataSection {
            name: ".rodata",
            flags: SHF_ALLOC,
            sh_type: 1,
            align: 64,
            size: 40,
            data: &data,
        };
        let text = data_section_source(
            &section,
            vec![
                (
                    8,
                    Piece::Text {
                        text: "\t.quad x\n".into(),
                        len: 8,
                    },
                ),
                (0, Piece::Label("a".into())),
            ],
        );
        assert_eq!(
            text,
            "\t.section\t.rodata,\"a\",@progbits\n\t.p2align\t6\na:\n\
             \t.byte\t0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00\n\t.quad x\n\
             \t.zero\t23\n\t.byte\t0x09\n"
        );
    }
}
