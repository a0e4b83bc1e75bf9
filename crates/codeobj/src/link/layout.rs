//! Addresses, file offsets and program headers as `ld.lld -shared` assigns them: image base
//! 0 with the ELF and program headers in the first (read-only) PT_LOAD, each further PT_LOAD
//! starting at `align(dot, 4 KiB) + offset % 4 KiB` so the file needs no padding, offsets
//! congruent to addresses modulo the page, the RELRO part padded to a page with
//! `.relro_padding`, then the non-alloc sections and the section header table.

use object::elf;

use super::sections::{OutSection, Synth};

/// lld's maximum (and common) page size for AMDGPU.
pub(crate) const PAGE: u64 = 0x1000;

/// A program header.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Phdr {
    pub p_type: u32,
    pub flags: u32,
    pub offset: u64,
    pub vaddr: u64,
    pub filesz: u64,
    pub memsz: u64,
    pub align: u64,
}

impl Phdr {
    /// The 56 bytes of an `Elf64_Phdr`.
    pub(crate) fn bytes(&self) -> [u8; 56] {
        let mut b = [0u8; 56];
        b[0..4].copy_from_slice(&self.p_type.to_le_bytes());
        b[4..8].copy_from_slice(&self.flags.to_le_bytes());
        for (k, v) in [
            self.offset,
            self.vaddr,
            self.vaddr,
            self.filesz,
            self.memsz,
            self.align,
        ]
        .iter()
        .enumerate()
        {
            b[8 + 8 * k..16 + 8 * k].copy_from_slice(&v.to_le_bytes());
        }
        b
    }
}

fn align_to(v: u64, a: u64) -> u64 {
    v.div_ceil(a.max(1)).saturating_mul(a.max(1))
}

/// The segment a section belongs to: 1 R, 2 RX, 3 RW RELRO, 4 RW.
fn segment(s: &OutSection) -> u8 {
    let f = |bit: u32| s.flags & u64::from(bit) != 0;
    match (f(elf::SHF_EXECINSTR), f(elf::SHF_WRITE)) {
        (true, false) => 2,
        (false, false) => 1,
        _ if matches!(s.synth, Synth::Dynamic | Synth::RelroPadding)
            || s.name == ".data.rel.ro" =>
        {
            3
        }
        _ => 4,
    }
}

fn seg_flags(seg: u8) -> u32 {
    match seg {
        1 => elf::PF_R,
        2 => elf::PF_R | elf::PF_X,
        _ => elf::PF_R | elf::PF_W,
    }
}

/// Runs of adjacent allocated notes with one alignment: one PT_NOTE each.
fn note_groups(out: &[OutSection]) -> Vec<(usize, usize)> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for (i, s) in out.iter().enumerate() {
        if s.sh_type != elf::SHT_NOTE || !s.alloc() {
            continue;
        }
        match groups.last_mut() {
            Some(g) if g.1 + 1 == i && out[g.1].align == s.align => g.1 = i,
            _ => groups.push((i, i)),
        }
    }
    groups
}

/// Number of program headers the layout will have.
pub(crate) fn phdr_count(out: &[OutSection]) -> usize {
    let mut segs: Vec<u8> = out.iter().filter(|s| s.alloc()).map(segment).collect();
    segs.dedup();
    // PHDR, the loads (the first always exists: it holds the headers), DYNAMIC, GNU_RELRO,
    // GNU_STACK, and the notes.
    let loads = segs.iter().filter(|&&s| s != 1).count() + 1;
    1 + loads + 3 + note_groups(out).len()
}

/// Assigns every section's address and offset; returns the program headers and the offset
/// of the section header table. `.relro_padding` gets its size here.
pub(crate) fn assign(out: &mut [OutSection]) -> (Vec<Phdr>, u64) {
    let nphdr = phdr_count(out) as u64;
    let headers = 64 + 56 * nphdr;
    let (mut dot, mut off) = (headers, headers);
    let mut loads = vec![Phdr {
        p_type: elf::PT_LOAD,
        flags: elf::PF_R,
        align: PAGE,
        ..Phdr::default()
    }];
    let mut seg = 1u8;
    for s in out.iter_mut().filter(|s| s.alloc()) {
        let s_seg = segment(s);
        let starts = s_seg != seg;
        if s.synth == Synth::RelroPadding {
            s.size = align_to(dot, PAGE) - dot;
        }
        if starts {
            dot = align_to(dot, PAGE) + off % PAGE;
        }
        dot = align_to(dot, s.align);
        s.addr = dot;
        if starts {
            off = off + (s.addr.wrapping_sub(off) % PAGE);
            loads.push(Phdr {
                p_type: elf::PT_LOAD,
                flags: seg_flags(s_seg),
                offset: off,
                vaddr: s.addr,
                align: PAGE,
                ..Phdr::default()
            });
            seg = s_seg;
        } else if let Some(l) = loads.last() {
            off = l.offset + (s.addr - l.vaddr);
        }
        s.offset = off;
        dot += s.size;
        let l = loads.last_mut().expect("a load");
        l.memsz = dot - l.vaddr;
        if s.sh_type != elf::SHT_NOBITS {
            off += s.size;
            l.filesz = off - l.offset;
        }
    }
    for s in out
        .iter_mut()
        .filter(|s| !s.alloc() && s.sh_type != elf::SHT_NULL)
    {
        off = align_to(off, s.align);
        s.offset = off;
        off += s.size;
    }
    let shoff = align_to(off, 8);
    (program_headers(out, loads, headers), shoff)
}

fn program_headers(out: &[OutSection], loads: Vec<Phdr>, headers: u64) -> Vec<Phdr> {
    let mut ph = vec![Phdr {
        p_type: elf::PT_PHDR,
        flags: elf::PF_R,
        offset: 64,
        vaddr: 64,
        filesz: headers - 64,
        memsz: headers - 64,
        align: 8,
    }];
    ph.extend(loads);
    let of = |s: &OutSection, p_type: u32, flags: u32, align: u64| Phdr {
        p_type,
        flags,
        offset: s.offset,
        vaddr: s.addr,
        filesz: s.size,
        memsz: s.size,
        align,
    };
    if let Some(d) = out.iter().find(|s| s.synth == Synth::Dynamic) {
        ph.push(of(d, elf::PT_DYNAMIC, elf::PF_R | elf::PF_W, 8));
        let relro: Vec<&OutSection> = out
            .iter()
            .filter(|s| s.alloc() && segment(s) == 3)
            .collect();
        if let (Some(first), Some(last)) = (relro.first(), relro.last()) {
            let file_end = relro
                .iter()
                .filter(|s| s.sh_type != elf::SHT_NOBITS)
                .map(|s| s.offset + s.size)
                .max()
                .unwrap_or(first.offset);
            ph.push(Phdr {
                p_type: elf::PT_GNU_RELRO,
                flags: elf::PF_R,
                offset: first.offset,
                vaddr: first.addr,
                filesz: file_end - first.offset,
                memsz: last.addr + last.size - first.addr,
                align: 1,
            });
        }
    }
    ph.push(Phdr {
        p_type: elf::PT_GNU_STACK,
        flags: elf::PF_R | elf::PF_W,
        ..Phdr::default()
    });
    for (a, b) in note_groups(out) {
        let mut p = of(&out[a], elf::PT_NOTE, elf::PF_R, out[a].align);
        p.filesz = out[b].offset + out[b].size - out[a].offset;
        p.memsz = out[b].addr + out[b].size - out[a].addr;
        ph.push(p);
    }
    ph
}
