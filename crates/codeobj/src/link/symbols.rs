//! The output symbol tables of `ld.lld -shared`: `.symtab` (input locals, then symbols made
//! local by hidden visibility, then `_DYNAMIC`, then the globals, names in `.strtab` in the
//! order lld adds them, not deduplicated), and `.dynsym` (exported and undefined globals,
//! stably sorted by GNU hash bucket, names deduplicated in `.dynstr`), with the SysV and GNU
//! hash tables over `.dynsym`.

use std::collections::HashMap;

use object::elf;

use super::input::{InSymbol, Input};
use super::LinkError;

/// A symbol of an output table; `value` and `shndx` are filled after layout.
#[derive(Clone, Debug)]
pub(crate) struct OutSym {
    pub name: String,
    /// Input symbol index, or `None` for `_DYNAMIC`.
    pub input: Option<usize>,
    pub bind: u8,
    pub st_type: u8,
    pub other: u8,
    pub size: u64,
    pub value: u64,
    pub shndx: u16,
    pub name_off: u32,
}

impl OutSym {
    /// The 24 bytes of an `Elf64_Sym`.
    pub(crate) fn bytes(&self) -> [u8; 24] {
        let mut b = [0u8; 24];
        b[0..4].copy_from_slice(&self.name_off.to_le_bytes());
        b[4] = (self.bind << 4) | (self.st_type & 0xf);
        b[5] = self.other;
        b[6..8].copy_from_slice(&self.shndx.to_le_bytes());
        b[8..16].copy_from_slice(&self.value.to_le_bytes());
        b[16..24].copy_from_slice(&self.size.to_le_bytes());
        b
    }
}

/// Both symbol tables with their string tables.
pub(crate) struct Tables {
    pub symtab: Vec<OutSym>,
    pub first_global: usize,
    pub strtab: Vec<u8>,
    pub dynsym: Vec<OutSym>,
    pub dynstr: Vec<u8>,
    /// `.dynsym` index of each exported input symbol.
    pub dyn_index: HashMap<usize, u32>,
    /// GNU hash of each hashed `.dynsym` entry, from `gnu_first` on.
    pub gnu_first: usize,
    pub gnu_buckets: u32,
}

/// A symbol's binding once visibility is applied: hidden and internal definitions are local.
pub(crate) fn output_bind(s: &InSymbol) -> u8 {
    let defined = s.shndx != elf::SHN_UNDEF;
    if s.bind != elf::STB_LOCAL
        && defined
        && matches!(s.visibility, elf::STV_HIDDEN | elf::STV_INTERNAL)
    {
        elf::STB_LOCAL
    } else {
        s.bind
    }
}

/// True if a global symbol is visible to the dynamic linker.
pub(crate) fn exported(s: &InSymbol) -> bool {
    s.bind != elf::STB_LOCAL && output_bind(s) != elf::STB_LOCAL
}

/// True if another module may override the symbol (default visibility).
pub(crate) fn preemptible(s: &InSymbol) -> bool {
    exported(s) && (s.visibility == elf::STV_DEFAULT || s.shndx == elf::SHN_UNDEF)
}

fn keep_local(input: &Input, s: &InSymbol) -> bool {
    if s.st_type == elf::STT_SECTION {
        return false;
    }
    let in_merge = input
        .sections
        .get(usize::from(s.shndx))
        .is_some_and(|sec| sec.flags & u64::from(elf::SHF_MERGE) != 0);
    !(s.name.starts_with(".L") && in_merge)
}

fn out_sym(s: &InSymbol, i: usize, bind: u8) -> OutSym {
    OutSym {
        name: s.name.clone(),
        input: Some(i),
        bind,
        st_type: s.st_type,
        other: s.visibility,
        size: s.size,
        value: 0,
        shndx: 0,
        name_off: 0,
    }
}

fn add_string(table: &mut Vec<u8>, name: &str) -> Result<u32, LinkError> {
    if name.is_empty() {
        return Ok(0);
    }
    let off = u32::try_from(table.len()).map_err(|_| LinkError::TooLarge)?;
    table.extend_from_slice(name.as_bytes());
    table.push(0);
    Ok(off)
}

/// Builds both tables (values still 0).
pub(crate) fn collect(input: &Input) -> Result<Tables, LinkError> {
    let mut strtab = vec![0u8];
    let mut locals = Vec::new();
    let mut globals = Vec::new();
    let mut demoted = Vec::new();
    for (i, s) in input.symbols.iter().enumerate().skip(1) {
        if s.shndx == elf::SHN_COMMON {
            return Err(LinkError::Unsupported(format!("common symbol {}", s.name)));
        }
        if s.bind == elf::STB_LOCAL {
            if keep_local(input, s) {
                let mut o = out_sym(s, i, elf::STB_LOCAL);
                o.name_off = add_string(&mut strtab, &s.name)?;
                locals.push(o);
            }
            continue;
        }
        globals.push(i);
    }
    let mut global_syms = Vec::new();
    for &i in &globals {
        let s = &input.symbols[i];
        let bind = output_bind(s);
        let mut o = out_sym(s, i, bind);
        o.name_off = add_string(&mut strtab, &s.name)?;
        if bind == elf::STB_LOCAL {
            demoted.push(o);
        } else {
            global_syms.push(o);
        }
    }
    let dynamic = OutSym {
        name: "_DYNAMIC".into(),
        input: None,
        bind: elf::STB_LOCAL,
        st_type: elf::STT_NOTYPE,
        other: elf::STV_HIDDEN,
        size: 0,
        value: 0,
        shndx: 0,
        name_off: add_string(&mut strtab, "_DYNAMIC")?,
    };
    let mut symtab = vec![null_sym()];
    symtab.extend(locals);
    symtab.extend(demoted);
    symtab.push(dynamic);
    let first_global = symtab.len();
    symtab.extend(global_syms);
    let (dynsym, dynstr, dyn_index, gnu_first, gnu_buckets) = dynamic_symbols(input, &globals)?;
    Ok(Tables {
        symtab,
        first_global,
        strtab,
        dynsym,
        dynstr,
        dyn_index,
        gnu_first,
        gnu_buckets,
    })
}

fn null_sym() -> OutSym {
    OutSym {
        name: String::new(),
        input: None,
        bind: 0,
        st_type: 0,
        other: 0,
        size: 0,
        value: 0,
        shndx: 0,
        name_off: 0,
    }
}

type DynParts = (Vec<OutSym>, Vec<u8>, HashMap<usize, u32>, usize, u32);

/// `.dynsym` and `.dynstr`: exported symbols in input order, then lld's stable sort by GNU
/// hash bucket (undefined symbols, which are not hashed, first).
fn dynamic_symbols(input: &Input, globals: &[usize]) -> Result<DynParts, LinkError> {
    let mut dynstr = vec![0u8];
    let mut offsets: HashMap<String, u32> = HashMap::new();
    let mut syms = Vec::new();
    for &i in globals {
        let s = &input.symbols[i];
        if !exported(s) {
            continue;
        }
        let mut o = out_sym(s, i, s.bind);
        o.name_off = match offsets.get(&s.name) {
            Some(&off) => off,
            None => {
                let off = add_string(&mut dynstr, &s.name)?;
                offsets.insert(s.name.clone(), off);
                off
            }
        };
        syms.push(o);
    }
    let (undefined, mut hashed): (Vec<_>, Vec<_>) = syms
        .into_iter()
        .partition(|o| input.symbols[o.input.unwrap_or(0)].shndx == elf::SHN_UNDEF);
    let buckets = (hashed.len() / 4).max(1) as u32;
    hashed.sort_by_key(|o| gnu_hash(o.name.as_bytes()) % buckets);
    let gnu_first = 1 + undefined.len();
    let mut dynsym = vec![null_sym()];
    dynsym.extend(undefined);
    dynsym.extend(hashed);
    let dyn_index = dynsym
        .iter()
        .enumerate()
        .filter_map(|(k, o)| o.input.map(|i| (i, k as u32)))
        .collect();
    Ok((dynsym, dynstr, dyn_index, gnu_first, buckets))
}

/// The GNU (DJB) hash of a symbol name.
pub(crate) fn gnu_hash(name: &[u8]) -> u32 {
    name.iter().fold(5381u32, |h, &c| {
        h.wrapping_mul(33).wrapping_add(u32::from(c))
    })
}

/// The SysV ELF hash of a symbol name.
pub(crate) fn sysv_hash(name: &[u8]) -> u32 {
    let mut h = 0u32;
    for &c in name {
        h = (h << 4).wrapping_add(u32::from(c));
        let g = h & 0xf000_0000;
        if g != 0 {
            h ^= g >> 24;
        }
        h &= !g;
    }
    h
}

/// Size in bytes of lld's `.gnu.hash` for `tables`.
pub(crate) fn gnu_hash_size(t: &Tables) -> u64 {
    let n = (t.dynsym.len() - t.gnu_first) as u64;
    16 + 8 * gnu_mask_words(n) + 4 * u64::from(t.gnu_buckets) + 4 * n
}

/// Bloom filter words: 12 bits per symbol, rounded to a power of two above.
fn gnu_mask_words(n: u64) -> u64 {
    if n == 0 {
        return 1;
    }
    let words = n * 12 / 64;
    (words + 1).next_power_of_two()
}

/// lld's `.gnu.hash` contents.
pub(crate) fn gnu_hash_bytes(t: &Tables) -> Vec<u8> {
    let hashed = &t.dynsym[t.gnu_first..];
    let mask_words = gnu_mask_words(hashed.len() as u64);
    let mut out = Vec::new();
    for w in [t.gnu_buckets, t.gnu_first as u32, mask_words as u32, 26] {
        out.extend(w.to_le_bytes());
    }
    let mut bloom = vec![0u64; mask_words as usize];
    for s in hashed {
        let h = gnu_hash(s.name.as_bytes());
        let i = ((h / 64) as u64 & (mask_words - 1)) as usize;
        bloom[i] |= 1u64 << (h % 64);
        bloom[i] |= 1u64 << ((h >> 26) % 64);
    }
    bloom.iter().for_each(|w| out.extend(w.to_le_bytes()));
    let mut buckets = vec![0u32; t.gnu_buckets as usize];
    let mut values = Vec::new();
    for (k, s) in hashed.iter().enumerate() {
        let h = gnu_hash(s.name.as_bytes());
        let b = h % t.gnu_buckets;
        let last = !matches!(
            hashed.get(k + 1),
            Some(n) if gnu_hash(n.name.as_bytes()) % t.gnu_buckets == b
        );
        values.push(if last { h | 1 } else { h & !1 });
        if k == 0 || gnu_hash(hashed[k - 1].name.as_bytes()) % t.gnu_buckets != b {
            buckets[b as usize] = (t.gnu_first + k) as u32;
        }
    }
    buckets
        .iter()
        .chain(values.iter())
        .for_each(|w| out.extend(w.to_le_bytes()));
    out
}

/// lld's `.hash`: as many buckets as `.dynsym` entries.
pub(crate) fn sysv_hash_bytes(t: &Tables) -> Vec<u8> {
    let n = t.dynsym.len();
    let mut buckets = vec![0u32; n];
    let mut chains = vec![0u32; n];
    for (i, s) in t.dynsym.iter().enumerate().skip(1) {
        let h = sysv_hash(s.name.as_bytes()) as usize % n;
        chains[i] = buckets[h];
        buckets[h] = i as u32;
    }
    let mut out = Vec::with_capacity(8 + 8 * n);
    out.extend((n as u32).to_le_bytes());
    out.extend((n as u32).to_le_bytes());
    buckets
        .iter()
        .chain(chains.iter())
        .for_each(|w| out.extend(w.to_le_bytes()));
    out
}
