//! Which output sections a relocatable object gives, in which order, and where each input
//! section lands in them, as `ld.lld -shared` decides: names folded by prefix (`.text.*`
//! into `.text`, ...), sections ranked R (notes first, then the dynamic-linking tables,
//! then data), RX, RW RELRO (`.dynamic` first, padded to a page), RW, then the non-alloc
//! ones, with identical strings of `SHF_MERGE|SHF_STRINGS` sections stored once.

use object::elf;

use super::input::Input;
use super::LinkError;

/// What produces an output section's contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Synth {
    /// Input sections.
    Input,
    Dynsym,
    GnuHash,
    Hash,
    Dynstr,
    RelaDyn,
    Dynamic,
    RelroPadding,
    /// `.comment`: the linker's line, then the input's strings.
    Comment,
    Symtab,
    Shstrtab,
    Strtab,
}

/// An output section.
#[derive(Clone, Debug)]
pub(crate) struct OutSection {
    pub name: String,
    pub synth: Synth,
    pub sh_type: u32,
    pub flags: u64,
    pub align: u64,
    pub entsize: u64,
    pub data: Vec<u8>,
    pub size: u64,
    pub addr: u64,
    pub offset: u64,
    pub link: u32,
    pub info: u32,
    /// Offset of the name in `.shstrtab`.
    pub name_off: u32,
}

impl OutSection {
    pub(crate) fn new(
        name: &str,
        synth: Synth,
        sh_type: u32,
        flags: u64,
        align: u64,
        entsize: u64,
    ) -> Self {
        OutSection {
            name: name.to_string(),
            synth,
            sh_type,
            flags,
            align,
            entsize,
            data: Vec::new(),
            size: 0,
            addr: 0,
            offset: 0,
            link: 0,
            info: 0,
            name_off: 0,
        }
    }

    pub(crate) fn alloc(&self) -> bool {
        self.flags & u64::from(elf::SHF_ALLOC) != 0
    }
}

/// Where an input section went: output section, offset in it, and for merged strings the
/// (input offset, output offset, length) of each string.
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    pub out: usize,
    pub offset: u64,
    pub pieces: Option<Vec<(u64, u64, u64)>>,
}

impl Placement {
    /// Offset in the output section of input offset `off`.
    pub(crate) fn map(&self, off: u64) -> u64 {
        match &self.pieces {
            None => self.offset.wrapping_add(off),
            Some(pieces) => {
                let i = pieces.partition_point(|p| p.0 <= off).saturating_sub(1);
                match pieces.get(i) {
                    Some(&(start, out, _)) => self.offset + out + (off.wrapping_sub(start)),
                    None => self.offset.wrapping_add(off),
                }
            }
        }
    }
}

/// lld's `getOutputSectionName` prefixes.
const PREFIXES: &[&str] = &[
    ".ldata",
    ".lrodata",
    ".lbss",
    ".gcc_except_table",
    ".init_array",
    ".fini_array",
    ".tbss",
    ".tdata",
    ".ctors",
    ".dtors",
    ".text",
    ".data.rel.ro",
    ".data",
    ".rodata",
    ".bss.rel.ro",
    ".bss",
];

fn output_name(name: &str) -> &str {
    for p in PREFIXES {
        if name == *p || name.strip_prefix(p).is_some_and(|r| r.starts_with('.')) {
            return p;
        }
    }
    name
}

/// `SHT_LLVM_ADDRSIG`: the address-significance table lld consumes.
const SHT_LLVM_ADDRSIG: u32 = 0x6fff_4c03;

/// Sections lld reads but does not copy.
fn dropped(name: &str, sh_type: u32) -> bool {
    matches!(
        sh_type,
        elf::SHT_NULL
            | elf::SHT_SYMTAB
            | elf::SHT_STRTAB
            | elf::SHT_RELA
            | elf::SHT_REL
            | elf::SHT_GROUP
    ) || sh_type == SHT_LLVM_ADDRSIG
        || name == ".note.GNU-stack"
        || name.starts_with(".note.GNU-stack")
}

/// lld's rank groups: lower goes first.
fn rank(name: &str, sh_type: u32, flags: u64) -> u8 {
    let f = |bit: u32| flags & u64::from(bit) != 0;
    if !f(elf::SHF_ALLOC) {
        return 7;
    }
    match (f(elf::SHF_EXECINSTR), f(elf::SHF_WRITE)) {
        (false, false) if sh_type == elf::SHT_NOTE => 0,
        (false, false) => 2,
        (true, false) => 3,
        (_, true) if name == ".data.rel.ro" || name == ".bss.rel.ro" => 4,
        (_, true) if sh_type == elf::SHT_NOBITS => 6,
        (_, true) => 5,
    }
}

/// The output sections (synthetic ones empty for now) and each input section's placement.
pub(crate) fn plan(
    input: &Input,
    rela_dyn: bool,
) -> Result<(Vec<OutSection>, Vec<Option<Placement>>), LinkError> {
    let mut groups: Vec<(u8, OutSection, Vec<usize>)> = Vec::new();
    for (i, s) in input.sections.iter().enumerate() {
        if dropped(&s.name, s.sh_type) {
            continue;
        }
        if s.flags & u64::from(elf::SHF_TLS) != 0 {
            return Err(LinkError::Unsupported(format!("TLS section {}", s.name)));
        }
        let alloc = s.flags & u64::from(elf::SHF_ALLOC) != 0;
        let name = if alloc {
            output_name(&s.name)
        } else {
            s.name.as_str()
        };
        let r = rank(name, s.sh_type, s.flags);
        let keep = !(u64::from(elf::SHF_GROUP | elf::SHF_INFO_LINK));
        match groups.iter_mut().find(|g| g.1.name == name && g.0 == r) {
            Some(g) => {
                g.1.align = g.1.align.max(s.align);
                g.1.flags |= s.flags & keep;
                if g.1.sh_type == elf::SHT_NOBITS && s.sh_type != elf::SHT_NOBITS {
                    g.1.sh_type = s.sh_type;
                }
                g.2.push(i);
            }
            None => {
                let synth = if name == ".comment" {
                    Synth::Comment
                } else {
                    Synth::Input
                };
                let mut o = OutSection::new(name, synth, s.sh_type, s.flags & keep, s.align, 0);
                if synth == Synth::Comment {
                    o.flags = u64::from(elf::SHF_MERGE | elf::SHF_STRINGS);
                    o.entsize = 1;
                }
                groups.push((r, o, vec![i]));
            }
        }
    }
    if !groups.iter().any(|g| g.1.synth == Synth::Comment) {
        let mut c = OutSection::new(".comment", Synth::Comment, elf::SHT_PROGBITS, 0, 1, 1);
        c.flags = u64::from(elf::SHF_MERGE | elf::SHF_STRINGS);
        groups.push((7, c, Vec::new()));
    }
    groups.sort_by_key(|g| g.0);
    assemble(input, groups, rela_dyn)
}

/// lld's synthetic sections: (the rank they precede, name, producer, type, flags, align,
/// entry size).
const SYNTHETIC: &[(u8, &str, Synth, u32, u32, u64, u64)] = &[
    (
        1,
        ".dynsym",
        Synth::Dynsym,
        elf::SHT_DYNSYM,
        elf::SHF_ALLOC,
        8,
        24,
    ),
    (
        1,
        ".gnu.hash",
        Synth::GnuHash,
        elf::SHT_GNU_HASH,
        elf::SHF_ALLOC,
        8,
        0,
    ),
    (1, ".hash", Synth::Hash, elf::SHT_HASH, elf::SHF_ALLOC, 4, 4),
    (
        1,
        ".dynstr",
        Synth::Dynstr,
        elf::SHT_STRTAB,
        elf::SHF_ALLOC,
        1,
        0,
    ),
    (
        1,
        ".rela.dyn",
        Synth::RelaDyn,
        elf::SHT_RELA,
        elf::SHF_ALLOC,
        8,
        24,
    ),
    (
        4,
        ".dynamic",
        Synth::Dynamic,
        elf::SHT_DYNAMIC,
        elf::SHF_ALLOC | elf::SHF_WRITE,
        8,
        16,
    ),
    (
        5,
        ".relro_padding",
        Synth::RelroPadding,
        elf::SHT_NOBITS,
        elf::SHF_ALLOC | elf::SHF_WRITE,
        1,
        0,
    ),
    (8, ".symtab", Synth::Symtab, elf::SHT_SYMTAB, 0, 8, 24),
    (8, ".shstrtab", Synth::Shstrtab, elf::SHT_STRTAB, 0, 1, 0),
    (8, ".strtab", Synth::Strtab, elf::SHT_STRTAB, 0, 1, 0),
];

/// Adds the synthetic sections that go between rank `rank_done` and `next_rank`
/// (`.rela.dyn` only when there are dynamic relocations).
fn synth_after(rank_done: u8, next_rank: u8, rela_dyn: bool, out: &mut Vec<OutSection>) {
    for &(rank, name, synth, sh_type, flags, align, entsize) in SYNTHETIC {
        if rank_done < rank && next_rank >= rank && (rela_dyn || synth != Synth::RelaDyn) {
            out.push(OutSection::new(
                name,
                synth,
                sh_type,
                u64::from(flags),
                align,
                entsize,
            ));
        }
    }
}

/// Builds the final section list: ranked input groups with the synthetic sections between.
fn assemble(
    input: &Input,
    groups: Vec<(u8, OutSection, Vec<usize>)>,
    rela_dyn: bool,
) -> Result<(Vec<OutSection>, Vec<Option<Placement>>), LinkError> {
    let mut out = vec![OutSection::new("", Synth::Input, elf::SHT_NULL, 0, 0, 0)];
    let mut places: Vec<Option<Placement>> = vec![None; input.sections.len()];
    let mut done = 0u8;
    for (r, mut o, members) in groups {
        synth_after(done, r, rela_dyn, &mut out);
        done = r;
        let idx = out.len();
        fill(input, &mut o, &members, idx, &mut places)?;
        out.push(o);
    }
    synth_after(done, 8, rela_dyn, &mut out);
    Ok((out, places))
}

fn mergeable(s: &super::input::InSection) -> bool {
    let ms = u64::from(elf::SHF_MERGE | elf::SHF_STRINGS);
    s.flags & ms == ms && s.entsize == 1
}

/// Concatenates the member input sections into `o`; the strings of all mergeable members
/// form one merged block at the place of the first of them, as lld's synthetic merge
/// section.
fn fill(
    input: &Input,
    o: &mut OutSection,
    members: &[usize],
    idx: usize,
    places: &mut [Option<Placement>],
) -> Result<(), LinkError> {
    if o.synth == Synth::Comment {
        o.data = members
            .iter()
            .flat_map(|&m| input.sections[m].data.clone())
            .collect();
        return Ok(());
    }
    let merge_members: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&m| mergeable(&input.sections[m]))
        .collect();
    let inputs: Vec<&[u8]> = merge_members
        .iter()
        .map(|&m| input.sections[m].data.as_slice())
        .collect();
    let (merged, mut pieces) = merge_no_tail(&inputs, 1)?;
    let mut merged_at: Option<u64> = None;
    for &m in members {
        let s = &input.sections[m];
        o.size = o.size.div_ceil(s.align).saturating_mul(s.align);
        if mergeable(s) {
            let k = merge_members.iter().position(|&x| x == m).unwrap_or(0);
            let at = *merged_at.get_or_insert_with(|| {
                let at = o.size;
                o.data.resize(at as usize, 0);
                o.data.extend_from_slice(&merged);
                o.size += merged.len() as u64;
                at
            });
            places[m] = Some(Placement {
                out: idx,
                offset: at,
                pieces: Some(std::mem::take(&mut pieces[k])),
            });
            continue;
        }
        places[m] = Some(Placement {
            out: idx,
            offset: o.size,
            pieces: None,
        });
        if s.sh_type != elf::SHT_NOBITS {
            o.data.resize(o.size as usize, 0);
            o.data.extend_from_slice(&s.data);
        }
        let len = if s.sh_type == elf::SHT_NOBITS {
            s.size
        } else {
            s.data.len() as u64
        };
        o.size = o.size.checked_add(len).ok_or(LinkError::TooLarge)?;
        if o.size > 1 << 40 {
            return Err(LinkError::TooLarge);
        }
    }
    Ok(())
}

type Pieces = Vec<(u64, u64, u64)>;

/// lld's `MergeNoTailSection` (string merging at -O1): identical strings stored once, in 32
/// shards chosen by bits 26–30 of the string's XXH3 hash, each shard in first-seen order.
/// Returns the contents and, per input, its (input offset, output offset, length) pieces.
pub(crate) fn merge_no_tail(
    inputs: &[&[u8]],
    align: u64,
) -> Result<(Vec<u8>, Vec<Pieces>), LinkError> {
    let mut shards: Vec<Vec<u8>> = vec![Vec::new(); 32];
    let mut seen: std::collections::HashMap<&[u8], (usize, u64)> = std::collections::HashMap::new();
    let mut placed: Vec<Vec<(u64, usize, u64, u64)>> = Vec::new();
    for data in inputs {
        let mut list = Vec::new();
        let mut start = 0u64;
        for s in data.split_inclusive(|&b| b == 0) {
            if !s.ends_with(&[0]) {
                return Err(LinkError::Malformed("string is not null terminated".into()));
            }
            let hash = xxhash_rust::xxh3::xxh3_64(&s[..s.len() - 1]);
            let shard = ((hash & 0x7fff_ffff) >> 26) as usize;
            let (sh, off) = *seen.entry(s).or_insert_with(|| {
                let off = shards[shard].len() as u64;
                shards[shard].extend_from_slice(s);
                (shard, off)
            });
            list.push((start, sh, off, s.len() as u64));
            start += s.len() as u64;
        }
        placed.push(list);
    }
    let mut out = Vec::new();
    let mut shard_at = [0u64; 32];
    for (i, sh) in shards.iter().enumerate() {
        if !sh.is_empty() {
            out.resize(out.len().div_ceil(align as usize) * align as usize, 0);
        }
        shard_at[i] = out.len() as u64;
        out.extend_from_slice(sh);
    }
    let pieces = placed
        .into_iter()
        .map(|list| {
            list.into_iter()
                .map(|(start, sh, off, len)| (start, shard_at[sh] + off, len))
                .collect()
        })
        .collect();
    Ok((out, pieces))
}

/// The `.comment` contents: the linker's line and the input's strings, merged as lld
/// merges them.
pub(crate) fn comment_contents(linker: &str, input: &[u8]) -> Result<Vec<u8>, LinkError> {
    let line = [linker.as_bytes(), &[0]].concat();
    Ok(merge_no_tail(&[&line, input], 1)?.0)
}
