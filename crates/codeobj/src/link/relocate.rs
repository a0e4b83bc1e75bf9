//! Resolving relocations as lld does for AMDGPU in a shared object: PC-relative ones
//! (`REL32`, `REL32_LO/HI`, `REL64`, `REL16`) are computed at link time and must not point
//! at preemptible symbols; `ABS64` in a writable section becomes a dynamic relocation
//! (`R_AMDGPU_RELATIVE64` for a non-preemptible target, `R_AMDGPU_ABS64` with the symbol
//! otherwise); other absolute relocations need a link-time constant.

use object::elf;

use super::input::{InReloc, Input};
use super::sections::{OutSection, Placement};
use super::symbols::{preemptible, Tables};
use super::LinkError;

/// `R_AMDGPU_*` numbers.
pub(crate) mod r {
    pub const NONE: u32 = 0;
    pub const ABS32_LO: u32 = 1;
    pub const ABS32_HI: u32 = 2;
    pub const ABS64: u32 = 3;
    pub const REL32: u32 = 4;
    pub const REL64: u32 = 5;
    pub const ABS32: u32 = 6;
    pub const REL32_LO: u32 = 10;
    pub const REL32_HI: u32 = 11;
    pub const RELATIVE64: u32 = 13;
    pub const REL16: u32 = 14;
}

/// A dynamic relocation for `.rela.dyn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DynReloc {
    pub offset: u64,
    pub r_type: u32,
    pub sym: u32,
    pub addend: i64,
}

fn name_of(r: u32) -> String {
    let n = match r {
        r::ABS32_LO => "R_AMDGPU_ABS32_LO",
        r::ABS32_HI => "R_AMDGPU_ABS32_HI",
        r::ABS64 => "R_AMDGPU_ABS64",
        r::REL32 => "R_AMDGPU_REL32",
        r::REL64 => "R_AMDGPU_REL64",
        r::ABS32 => "R_AMDGPU_ABS32",
        r::REL32_LO => "R_AMDGPU_REL32_LO",
        r::REL32_HI => "R_AMDGPU_REL32_HI",
        r::REL16 => "R_AMDGPU_REL16",
        _ => return format!("relocation type {r}"),
    };
    n.to_string()
}

/// True if `rel` needs a `.rela.dyn` entry (an `ABS64` in a writable allocated section
/// against a symbol that is not absolute).
pub(crate) fn is_dynamic(input: &Input, rel: &InReloc) -> bool {
    let target = &input.sections[rel.target];
    let s = &input.symbols[rel.sym];
    rel.r_type == r::ABS64
        && target.flags & u64::from(elf::SHF_ALLOC | elf::SHF_WRITE)
            == u64::from(elf::SHF_ALLOC | elf::SHF_WRITE)
        && s.shndx != elf::SHN_ABS
}

/// Address of input symbol `i` plus `addend` (merged-string sections map the sum).
fn target_address(
    input: &Input,
    out: &[OutSection],
    places: &[Option<Placement>],
    i: usize,
    addend: i64,
) -> Option<u64> {
    let s = &input.symbols[i];
    match s.shndx {
        elf::SHN_ABS => Some(s.value.wrapping_add(addend as u64)),
        elf::SHN_UNDEF => None,
        idx => {
            let p = places.get(usize::from(idx))?.as_ref()?;
            let base = out[p.out].addr;
            if s.st_type == elf::STT_SECTION && p.pieces.is_some() {
                Some(base.wrapping_add(p.map(s.value.wrapping_add(addend as u64))))
            } else {
                Some(
                    base.wrapping_add(p.map(s.value))
                        .wrapping_add(addend as u64),
                )
            }
        }
    }
}

/// Applies every relocation to the output section bytes; returns the dynamic relocations.
pub(crate) fn apply(
    input: &Input,
    out: &mut [OutSection],
    places: &[Option<Placement>],
    tables: &Tables,
) -> Result<Vec<DynReloc>, LinkError> {
    let mut dynamic = Vec::new();
    for rel in &input.relocs {
        let Some(p) = places.get(rel.target).and_then(Option::as_ref) else {
            continue;
        };
        let sym = &input.symbols[rel.sym];
        let site = p.map(rel.offset);
        let pc = out[p.out].addr.wrapping_add(site);
        let cannot = || LinkError::Relocation {
            message: format!(
                "relocation {} cannot be used against symbol '{}'; recompile with -fPIC",
                name_of(rel.r_type),
                sym.name
            ),
        };
        if is_dynamic(input, rel) {
            dynamic.push(match preemptible(sym) {
                true => DynReloc {
                    offset: pc,
                    r_type: r::ABS64,
                    sym: *tables.dyn_index.get(&rel.sym).ok_or_else(cannot)?,
                    addend: rel.addend,
                },
                false => DynReloc {
                    offset: pc,
                    r_type: r::RELATIVE64,
                    sym: 0,
                    addend: target_address(input, out, places, rel.sym, rel.addend)
                        .ok_or_else(cannot)? as i64,
                },
            });
            continue;
        }
        let alloc = input.sections[rel.target].flags & u64::from(elf::SHF_ALLOC) != 0;
        let absolute = matches!(rel.r_type, r::ABS32_LO | r::ABS32_HI | r::ABS64 | r::ABS32);
        if alloc && ((absolute && sym.shndx != elf::SHN_ABS) || (!absolute && preemptible(sym))) {
            return Err(cannot());
        }
        let s_a = match target_address(input, out, places, rel.sym, rel.addend) {
            Some(v) => v,
            None if sym.bind == elf::STB_WEAK => rel.addend as u64,
            None => {
                return Err(LinkError::Relocation {
                    message: format!("undefined symbol: {}", sym.name),
                })
            }
        };
        let val = if absolute { s_a } else { s_a.wrapping_sub(pc) };
        write(&mut out[p.out].data, site, rel.r_type, val, &sym.name)?;
    }
    dynamic.sort_by_key(|d| (d.r_type != r::RELATIVE64, d.sym, d.offset));
    Ok(dynamic)
}

fn write(data: &mut [u8], at: u64, r_type: u32, val: u64, sym: &str) -> Result<(), LinkError> {
    let bytes: Vec<u8> = match r_type {
        r::NONE => return Ok(()),
        r::ABS32 | r::REL32 | r::REL32_LO | r::ABS32_LO => (val as u32).to_le_bytes().to_vec(),
        r::REL32_HI | r::ABS32_HI => ((val >> 32) as u32).to_le_bytes().to_vec(),
        r::ABS64 | r::REL64 => val.to_le_bytes().to_vec(),
        r::REL16 => {
            let simm = (val as i64 - 4) / 4;
            let v = i16::try_from(simm).map_err(|_| LinkError::Relocation {
                message: format!("relocation R_AMDGPU_REL16 out of range: {simm} is not in [-32768, 32767]; references '{sym}'"),
            })?;
            v.to_le_bytes().to_vec()
        }
        other => return Err(LinkError::Unsupported(name_of(other))),
    };
    let at = usize::try_from(at).map_err(|_| LinkError::TooLarge)?;
    let slot = data
        .get_mut(at..at.saturating_add(bytes.len()))
        .ok_or_else(|| {
            LinkError::Malformed(format!("relocation at offset {at:#x} outside its section"))
        })?;
    slot.copy_from_slice(&bytes);
    Ok(())
}
