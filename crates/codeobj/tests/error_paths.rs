//! Every error path of the readers, on small ELF files built here byte by byte: each
//! malformation must give its own typed error naming what and where, never a panic.

use gcnkit_codeobj::{CodeObjectError, CodeObjectInfo};

/// Parts of a hand-made AMDGPU code object (v4, gfx90a).
struct Parts {
    note: Vec<u8>,
    rodata: Vec<u8>,
    kd_value: u64,
}

fn note_record(owner: &[u8], n_type: u32, desc: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    for v in [owner.len() as u32, desc.len() as u32, n_type] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(owner);
    b.resize(b.len().div_ceil(4) * 4, 0);
    b.extend_from_slice(desc);
    b.resize(b.len().div_ceil(4) * 4, 0);
    b
}

/// `{amdhsa.version: [1, 1], amdhsa.kernels: [{.name: k, .symbol: k.kd}]}` in MessagePack.
fn metadata() -> Vec<u8> {
    let mut m = vec![0x82];
    m.extend(b"\xaeamdhsa.version\x92\x01\x01");
    m.extend(b"\xaeamdhsa.kernels\x91\x82\xa5.name\xa1k\xa7.symbol\xa4k.kd");
    m
}

fn good() -> Parts {
    let mut rodata = vec![0u8; 64];
    rodata[8] = 16; // kernarg size
    rodata[48..52].copy_from_slice(&0x00af_0041u32.to_le_bytes());
    Parts {
        note: note_record(b"AMDGPU\0", 32, &metadata()),
        rodata,
        kd_value: 0x1000,
    }
}

fn section_header(
    name: u32,
    sh_type: u32,
    addr: u64,
    offset: u64,
    size: u64,
    link: u32,
    entsize: u64,
) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(&name.to_le_bytes());
    h.extend_from_slice(&sh_type.to_le_bytes());
    h.extend_from_slice(&2u64.to_le_bytes()); // SHF_ALLOC
    h.extend_from_slice(&addr.to_le_bytes());
    h.extend_from_slice(&offset.to_le_bytes());
    h.extend_from_slice(&size.to_le_bytes());
    h.extend_from_slice(&link.to_le_bytes());
    h.extend_from_slice(&1u32.to_le_bytes()); // sh_info: first global symbol
    h.extend_from_slice(&4u64.to_le_bytes()); // sh_addralign
    h.extend_from_slice(&entsize.to_le_bytes());
    h
}

/// The file, plus the offset of each section header (to corrupt them).
fn build(p: &Parts) -> (Vec<u8>, Vec<usize>) {
    let shstrtab = b"\0.note\0.rodata\0.symtab\0.strtab\0.shstrtab\0".to_vec();
    let strtab = b"\0k.kd\0".to_vec();
    let mut symtab = vec![0u8; 24];
    let mut sym = Vec::new();
    sym.extend_from_slice(&1u32.to_le_bytes()); // name "k.kd"
    sym.push(0x11); // STB_GLOBAL, STT_OBJECT
    sym.push(0);
    sym.extend_from_slice(&2u16.to_le_bytes()); // .rodata
    sym.extend_from_slice(&p.kd_value.to_le_bytes());
    sym.extend_from_slice(&64u64.to_le_bytes());
    symtab.extend(sym);
    let mut file = vec![0u8; 64];
    let place = |data: &[u8], file: &mut Vec<u8>| {
        file.resize(file.len().div_ceil(8) * 8, 0);
        let off = file.len() as u64;
        file.extend_from_slice(data);
        off
    };
    let offs: Vec<u64> = [&p.note, &p.rodata, &symtab, &strtab, &shstrtab]
        .iter()
        .map(|d| place(d, &mut file))
        .collect();
    file.resize(file.len().div_ceil(8) * 8, 0);
    let shoff = file.len();
    let mut headers = vec![vec![0u8; 64]];
    headers.push(section_header(1, 7, 0, offs[0], p.note.len() as u64, 0, 0));
    headers.push(section_header(
        7,
        1,
        0x1000,
        offs[1],
        p.rodata.len() as u64,
        0,
        0,
    ));
    headers.push(section_header(
        15,
        2,
        0,
        offs[2],
        symtab.len() as u64,
        4,
        24,
    ));
    headers.push(section_header(23, 3, 0, offs[3], strtab.len() as u64, 0, 0));
    headers.push(section_header(
        31,
        3,
        0,
        offs[4],
        shstrtab.len() as u64,
        0,
        0,
    ));
    let positions = (0..headers.len()).map(|i| shoff + i * 64).collect();
    file.extend(headers.concat());
    file[..8].copy_from_slice(b"\x7fELF\x02\x01\x01\x40");
    file[8] = 2; // ABI version 2 = code object v4
    file[16..18].copy_from_slice(&3u16.to_le_bytes()); // ET_DYN
    file[18..20].copy_from_slice(&224u16.to_le_bytes());
    file[20..24].copy_from_slice(&1u32.to_le_bytes());
    file[40..48].copy_from_slice(&(shoff as u64).to_le_bytes());
    file[48..52].copy_from_slice(&0x53fu32.to_le_bytes());
    file[52..54].copy_from_slice(&64u16.to_le_bytes());
    file[58..60].copy_from_slice(&64u16.to_le_bytes());
    file[60..62].copy_from_slice(&6u16.to_le_bytes());
    file[62..64].copy_from_slice(&5u16.to_le_bytes());
    (file, positions)
}

#[test]
fn the_hand_made_object_reads() {
    let (file, _) = build(&good());
    let info = CodeObjectInfo::read(&file).unwrap();
    assert_eq!(info.processor.as_deref(), Some("gfx90a"));
    assert_eq!(info.code_object_version(), Some(4));
    assert_eq!(info.kernels.len(), 1);
    assert_eq!(info.kernels[0].name, "k");
    assert_eq!(info.kernels[0].descriptor.unwrap().kernarg_size, 16);
    assert_eq!(info.kernels[0].metadata_index, Some(0));
}

#[test]
fn a_truncated_file_is_an_error() {
    let (file, _) = build(&good());
    for len in [0, 10, 63, 64, 200, file.len() - 1] {
        let err = CodeObjectInfo::read(&file[..len]).unwrap_err();
        assert!(
            matches!(
                err,
                CodeObjectError::NotElf
                    | CodeObjectError::Truncated { .. }
                    | CodeObjectError::Malformed(_)
                    | CodeObjectError::SectionPastEnd { .. }
            ),
            "{len}: {err}"
        );
    }
    let err = CodeObjectInfo::read(&file[..40]).unwrap_err().to_string();
    assert!(
        err.contains("ELF header needs 64 bytes at offset 0x0"),
        "{err}"
    );
}

#[test]
fn a_section_past_the_end_names_the_section() {
    let (mut file, headers) = build(&good());
    let size_at = headers[2] + 32;
    file[size_at..size_at + 8].copy_from_slice(&0x10_0000u64.to_le_bytes());
    let err = CodeObjectInfo::read(&file).unwrap_err();
    assert!(
        matches!(&err, CodeObjectError::SectionPastEnd { section, size: 0x10_0000, .. } if section == ".rodata"),
        "{err}"
    );
}

#[test]
fn a_bad_note_size_is_a_bad_note() {
    let mut p = good();
    p.note[4..8].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
    let (file, _) = build(&p);
    let err = CodeObjectInfo::read(&file).unwrap_err();
    assert!(
        matches!(&err, CodeObjectError::BadNote { section, offset, .. } if section == ".note" && *offset == 0),
        "{err}"
    );
}

#[test]
fn malformed_msgpack_is_a_metadata_error_with_its_offset() {
    let mut p = good();
    let mut md = metadata();
    md.truncate(20);
    p.note = note_record(b"AMDGPU\0", 32, &md);
    let (file, _) = build(&p);
    let err = CodeObjectInfo::read(&file).unwrap_err();
    // The payload follows the 12-byte header and the 8-byte padded owner of the first note,
    // which is the first section placed after the ELF header.
    assert!(
        matches!(
            err,
            CodeObjectError::Metadata {
                format: "MessagePack",
                offset: 84,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_descriptor_outside_its_section_is_out_of_bounds() {
    let mut p = good();
    p.kd_value = 0x1000 + 32;
    let (file, _) = build(&p);
    let err = CodeObjectInfo::read(&file).unwrap_err();
    assert!(
        matches!(&err, CodeObjectError::DescriptorOutOfBounds { symbol, addr: 0x1020, .. } if symbol == "k.kd"),
        "{err}"
    );
    p.kd_value = 0x10;
    let (file, _) = build(&p);
    assert!(matches!(
        CodeObjectInfo::read(&file),
        Err(CodeObjectError::DescriptorOutOfBounds { .. })
    ));
}

#[test]
fn every_prefix_and_every_flipped_byte_reads_without_panicking() {
    let (file, _) = build(&good());
    for len in 0..file.len() {
        let _ = CodeObjectInfo::read(&file[..len]);
    }
    for i in 0..file.len() {
        for x in [0x01u8, 0x80, 0xff] {
            let mut f = file.clone();
            f[i] ^= x;
            let _ = CodeObjectInfo::read(&f);
        }
    }
}
