//! Loading a code object into device memory: its segments (or, for relocatable objects, its
//! allocatable sections), the dynamic relocations, the kernels found through the metadata
//! and their `.kd` symbols, and the decoded program.

use std::sync::Arc;

use gcnkit_codeobj::container::code_objects_in;
use gcnkit_codeobj::descriptor::{KernelDescriptor, KERNEL_DESCRIPTOR_SIZE};
use gcnkit_codeobj::metadata::ArgMetadata;
use gcnkit_codeobj::pgm_rsrc::Rsrc3Gfx90a;
use gcnkit_codeobj::registers::RegisterCounts;
use gcnkit_codeobj::CodeObjectInfo;
use gcnkit_isa::target::FeatureSetting;
use gcnkit_isa::{Gen, Target};
use object::read::elf::{ElfFile64, FileHeader, ProgramHeader};
use object::{Object, ObjectSection, ObjectSymbol, ObjectSymbolTable, RelocationTarget};

use crate::error::EmuError;
use crate::memory::Memory;
use crate::program::Program;

/// `R_AMDGPU_ABS32_LO`.
const R_AMDGPU_ABS32_LO: u32 = 1;
/// `R_AMDGPU_ABS32_HI`.
const R_AMDGPU_ABS32_HI: u32 = 2;
/// `R_AMDGPU_ABS64`.
const R_AMDGPU_ABS64: u32 = 3;
/// `R_AMDGPU_REL32`.
const R_AMDGPU_REL32: u32 = 4;
/// `R_AMDGPU_REL64`.
const R_AMDGPU_REL64: u32 = 5;
/// `R_AMDGPU_ABS32`.
const R_AMDGPU_ABS32: u32 = 6;
/// `R_AMDGPU_REL32_LO`.
const R_AMDGPU_REL32_LO: u32 = 10;
/// `R_AMDGPU_REL32_HI`.
const R_AMDGPU_REL32_HI: u32 = 11;
/// `R_AMDGPU_RELATIVE64`.
const R_AMDGPU_RELATIVE64: u32 = 13;
/// `R_AMDGPU_REL16`.
const R_AMDGPU_REL16: u32 = 14;

/// What kind of value an explicit or hidden kernel argument is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    /// Argument name, if the metadata has one.
    pub name: Option<String>,
    /// `.value_kind` (`by_value`, `global_buffer`, `dynamic_shared_pointer`, `hidden_...`).
    pub kind: String,
    /// Byte offset in the kernarg segment.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
    /// `.pointee_align` of a `dynamic_shared_pointer` (default 4... see launch code).
    pub pointee_align: Option<u64>,
    /// The OpenCL type name, if given.
    pub type_name: Option<String>,
}

impl KernelArg {
    /// True for `hidden_*` arguments, which the runtime fills.
    pub fn is_hidden(&self) -> bool {
        self.kind.starts_with("hidden_")
    }
}

/// One kernel of a loaded module.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// Device address of its descriptor.
    pub descriptor_address: u64,
    /// The descriptor (v2 `amd_kernel_code_t` headers are converted).
    pub descriptor: KernelDescriptor,
    /// Device address of the first instruction.
    pub entry: u64,
    /// Every argument, explicit and hidden, in metadata order.
    pub args: Vec<KernelArg>,
    /// Kernarg segment size from the metadata (0 if absent).
    pub kernarg_size: u64,
    /// Kernarg alignment.
    pub kernarg_align: u64,
    /// Static LDS bytes.
    pub group_segment_fixed_size: u64,
    /// Static scratch bytes per work-item.
    pub private_segment_fixed_size: u64,
    /// Largest work-group size, if given.
    pub max_flat_workgroup_size: Option<u64>,
    /// `.reqd_workgroup_size`, if given.
    pub reqd_workgroup_size: Option<[u64; 3]>,
    /// `.uniform_work_group_size` (the grid must be a multiple of the work-group size).
    pub uniform_work_group_size: bool,
    /// Registers the descriptor allocates.
    pub registers: RegisterCounts,
}

impl Kernel {
    /// The explicit (non-hidden) arguments, in parameter order.
    pub fn explicit_args(&self) -> impl Iterator<Item = &KernelArg> {
        self.args.iter().filter(|a| !a.is_hidden())
    }

    /// First AccVGPR in the unified register file (gfx90a/gfx94x).
    pub fn accum_offset(&self) -> u32 {
        (Rsrc3Gfx90a::from_bits(self.descriptor.compute_pgm_rsrc3).accum_offset + 1) * 4
    }
}

/// A device variable of a loaded module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Global {
    /// Its symbol name.
    pub name: String,
    /// Device address.
    pub address: u64,
    /// Size in bytes (from the symbol table).
    pub size: u64,
}

/// A code object loaded into device memory.
pub struct Module {
    /// The target it was built for.
    pub target: Target,
    /// Code-object version (2–6), if known.
    pub code_object_version: Option<u8>,
    /// Its kernels.
    pub kernels: Vec<Kernel>,
    /// Its device variables.
    pub globals: Vec<Global>,
    /// Device address where the object's address 0 was placed.
    pub load_base: u64,
    /// The decoded code.
    pub program: Arc<Program>,
}

impl Module {
    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// The device variable named `name`.
    pub fn global(&self, name: &str) -> Option<&Global> {
        self.globals.iter().find(|g| g.name == name)
    }
}

/// Picks the code object to load from a file that may be a bundle or fat binary.
///
/// With `mcpu` (a target id such as `gfx90a` or `gfx90a:xnack-`), the code object for that
/// processor whose xnack and sramecc settings the request allows, an exact setting preferred
/// over "any" (as the ROCm runtime chooses among a fat binary's code objects); without, the
/// only one.
pub fn select_code_object(bytes: &[u8], mcpu: Option<&str>) -> Result<Vec<u8>, EmuError> {
    let contents = code_objects_in(bytes).map_err(EmuError::CodeObject)?;
    let mut candidates = Vec::new();
    for e in &contents.code_objects {
        let data = e.aligned();
        let info = CodeObjectInfo::read(&data).ok();
        candidates.push(Candidate {
            processor: info.as_ref().and_then(|i| i.processor.clone()),
            target: info.as_ref().and_then(|i| i.target),
            data: data.to_vec(),
            entry_id: e.entry_id.clone(),
        });
    }
    if candidates.is_empty() {
        let note = if contents.compressed.is_empty() {
            String::new()
        } else {
            " (the file has compressed bundles, which gcnkit does not decompress)".to_string()
        };
        return Err(EmuError::Load(format!(
            "the file holds no code object{note}"
        )));
    }
    match mcpu {
        Some(cpu) => {
            let want = Target::parse(cpu, None)
                .map_err(|e| EmuError::Load(format!("--mcpu {cpu}: {e}")))?;
            let mut best: Option<(usize, &Candidate)> = None;
            for c in &candidates {
                let Some(have) = c.target else { continue };
                if have.processor.name != want.processor.name
                    || !allows(want.xnack, have.xnack)
                    || !allows(want.sramecc, have.sramecc)
                {
                    continue;
                }
                let exact = [(want.xnack, have.xnack), (want.sramecc, have.sramecc)]
                    .iter()
                    .filter(|(w, h)| *w != FeatureSetting::Any && w == h)
                    .count();
                // The first of equally good code objects, in file order.
                if best.is_none_or(|(score, _)| exact > score) {
                    best = Some((exact, c));
                }
            }
            match best {
                Some((_, c)) => Ok(c.data.clone()),
                None => Err(EmuError::Load(format!(
                    "no code object for {cpu}; the file has: {}",
                    list(&candidates)
                ))),
            }
        }
        None if candidates.len() == 1 => Ok(candidates.remove(0).data),
        None => Err(EmuError::Load(format!(
            "the file holds {} code objects ({}); choose one with --mcpu",
            candidates.len(),
            list(&candidates)
        ))),
    }
}

/// One code object of a bundle or fat binary.
struct Candidate {
    processor: Option<String>,
    target: Option<Target>,
    data: Vec<u8>,
    entry_id: Option<String>,
}

/// Whether code built with feature setting `have` may run where `want` is asked for: "any"
/// code runs either way, and a request for "any" takes either.
fn allows(want: FeatureSetting, have: FeatureSetting) -> bool {
    want == FeatureSetting::Any || have == FeatureSetting::Any || want == have
}

fn list(c: &[Candidate]) -> String {
    c.iter()
        .map(|c| {
            c.entry_id
                .clone()
                .or_else(|| c.processor.clone())
                .unwrap_or_else(|| "unknown".into())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Loads the code object `bytes` into `mem`.
pub fn load(mem: &mut Memory, bytes: &[u8]) -> Result<Module, EmuError> {
    // The ELF reader needs its header structs aligned: copy into 8-aligned storage.
    let mut words = vec![0u64; bytes.len().div_ceil(8)];
    object::pod::bytes_of_slice_mut(&mut words)[..bytes.len()].copy_from_slice(bytes);
    let bytes = &object::pod::bytes_of_slice(&words)[..bytes.len()];

    let info = CodeObjectInfo::read(bytes).map_err(EmuError::CodeObject)?;
    let target = info.target.ok_or_else(|| {
        EmuError::Load(format!(
            "processor {} is not one gcnkit emulates",
            info.processor.as_deref().unwrap_or("(unknown)")
        ))
    })?;
    let elf = ElfFile64::<object::Endianness>::parse(bytes)
        .map_err(|e| EmuError::Load(format!("ELF: {e}")))?;
    let relocatable = info.header.e_type == object::elf::ET_REL;
    let image = if relocatable {
        layout_relocatable(&elf)?
    } else {
        layout_segments(&elf, bytes)?
    };
    let load_base = mem
        .allocate(image.bytes.len().max(1) as u64, 4096)
        .map_err(EmuError::Memory)?;
    let mut data = image.bytes;
    if relocatable {
        apply_section_relocations(&elf, &image.section_addr, load_base, &mut data)?;
    } else {
        apply_dynamic_relocations(&elf, load_base, &mut data)?;
    }
    mem.write(load_base, &data).map_err(EmuError::Memory)?;

    // The code: every executable section, decoded as one program over their span.
    let mut lo = u64::MAX;
    let mut hi = 0u64;
    for s in elf.sections() {
        if s.kind() == object::SectionKind::Text && s.size() > 0 {
            let addr = if relocatable {
                image.section_addr[s.index().0]
            } else {
                s.address()
            };
            let end = addr.checked_add(s.size()).ok_or_else(|| {
                EmuError::Load(format!(
                    "code section {} ends past the end of the address space",
                    s.name().unwrap_or("?")
                ))
            })?;
            lo = lo.min(addr);
            hi = hi.max(end);
        }
    }
    if lo >= hi {
        return Err(EmuError::Load("the code object has no code".into()));
    }
    let code = data
        .get(lo as usize..hi as usize)
        .ok_or_else(|| EmuError::Load("code section outside the loaded image".into()))?;
    let program = Arc::new(Program::decode(&target, code, load_base + lo));

    let kernels = find_kernels(
        &info,
        relocatable,
        &image.section_addr,
        &data,
        load_base,
        target.gen(),
    )?;
    let globals = find_globals(&elf, relocatable, &image.section_addr, load_base);
    Ok(Module {
        target,
        code_object_version: info.code_object_version(),
        kernels,
        globals,
        load_base,
        program,
    })
}

/// The defined data symbols of the object (device variables), at their loaded addresses.
fn find_globals(
    elf: &ElfFile64<'_, object::Endianness>,
    relocatable: bool,
    section_addr: &[u64],
    load_base: u64,
) -> Vec<Global> {
    let mut globals: Vec<Global> = Vec::new();
    for sym in elf.symbols().chain(elf.dynamic_symbols()) {
        if sym.kind() != object::SymbolKind::Data || sym.is_undefined() {
            continue;
        }
        let Ok(name) = sym.name() else { continue };
        if name.is_empty() || globals.iter().any(|g| g.name == name) {
            continue;
        }
        let offset = if relocatable {
            let Some(section) = sym.section_index() else {
                continue;
            };
            let Some(&at) = section_addr.get(section.0) else {
                continue;
            };
            at.wrapping_add(sym.address())
        } else {
            sym.address()
        };
        globals.push(Global {
            name: name.to_string(),
            address: load_base.wrapping_add(offset),
            size: sym.size(),
        });
    }
    globals
}

struct Image {
    bytes: Vec<u8>,
    /// For relocatable objects: the image offset of each section (by section index).
    section_addr: Vec<u64>,
}

/// Largest image we load (a guard against a header that claims terabytes).
const MAX_IMAGE: u64 = 1 << 29;

fn layout_segments(
    elf: &ElfFile64<'_, object::Endianness>,
    bytes: &[u8],
) -> Result<Image, EmuError> {
    let endian = elf.endian();
    let mut end = 0u64;
    let headers = elf
        .elf_header()
        .program_headers(endian, bytes)
        .map_err(|e| EmuError::Load(format!("program headers: {e}")))?;
    for ph in headers {
        if ph.p_type(endian) == object::elf::PT_LOAD {
            let e = ph
                .p_vaddr(endian)
                .checked_add(ph.p_memsz(endian))
                .ok_or_else(|| EmuError::Load("segment address overflows".into()))?;
            end = end.max(e);
        }
    }
    if end == 0 {
        return Err(EmuError::Load(
            "the code object has no loadable segment".into(),
        ));
    }
    if end > MAX_IMAGE {
        return Err(EmuError::Load(format!(
            "loadable segments span {end:#x} bytes"
        )));
    }
    let mut image = vec![0u8; end as usize];
    for ph in headers {
        if ph.p_type(endian) != object::elf::PT_LOAD {
            continue;
        }
        let data = ph
            .data(endian, bytes)
            .map_err(|_| EmuError::Load("a segment lies outside the file".into()))?;
        let at = ph.p_vaddr(endian) as usize;
        let n = data.len().min(ph.p_memsz(endian) as usize);
        image[at..at + n].copy_from_slice(&data[..n]);
    }
    Ok(Image {
        bytes: image,
        section_addr: Vec::new(),
    })
}

fn layout_relocatable(elf: &ElfFile64<'_, object::Endianness>) -> Result<Image, EmuError> {
    let mut section_addr = Vec::new();
    let mut end = 0u64;
    let mut placed = Vec::new();
    for s in elf.sections() {
        let idx = s.index().0;
        if section_addr.len() <= idx {
            section_addr.resize(idx + 1, 0);
        }
        let alloc = matches!(
            s.flags(),
            object::SectionFlags::Elf { sh_flags } if sh_flags & u64::from(object::elf::SHF_ALLOC) != 0
        );
        if !alloc || s.size() == 0 {
            continue;
        }
        let align = s.align().max(1);
        let at = end.div_ceil(align) * align;
        section_addr[idx] = at;
        end = at + s.size();
        if end > MAX_IMAGE {
            return Err(EmuError::Load("sections too large".into()));
        }
        placed.push((at, s));
    }
    let mut image = vec![0u8; end as usize];
    for (at, s) in placed {
        if let Ok(d) = s.data() {
            image[at as usize..at as usize + d.len()].copy_from_slice(d);
        }
    }
    Ok(Image {
        bytes: image,
        section_addr,
    })
}

fn patch(data: &mut [u8], at: u64, bytes: &[u8]) -> Result<(), EmuError> {
    let at = at as usize;
    data.get_mut(at..at + bytes.len())
        .ok_or_else(|| EmuError::Load(format!("relocation at {at:#x} outside the image")))?
        .copy_from_slice(bytes);
    Ok(())
}

fn apply_dynamic_relocations(
    elf: &ElfFile64<'_, object::Endianness>,
    base: u64,
    data: &mut [u8],
) -> Result<(), EmuError> {
    let Some(relocs) = elf.dynamic_relocations() else {
        return Ok(());
    };
    for (offset, r) in relocs {
        let object::RelocationFlags::Elf { r_type } = r.flags() else {
            continue;
        };
        let symbol_value = match r.target() {
            RelocationTarget::Symbol(i) => elf
                .dynamic_symbol_table()
                .and_then(|t| t.symbol_by_index(i).ok())
                .map(|s| {
                    if s.is_undefined() {
                        Err(EmuError::Load(format!(
                            "undefined symbol {} in a dynamic relocation",
                            s.name().unwrap_or("?")
                        )))
                    } else {
                        Ok(base + s.address())
                    }
                })
                .transpose()?
                .unwrap_or(0),
            _ => 0,
        };
        let a = r.addend() as u64;
        match r_type {
            R_AMDGPU_RELATIVE64 => patch(data, offset, &base.wrapping_add(a).to_le_bytes())?,
            R_AMDGPU_ABS64 => patch(data, offset, &symbol_value.wrapping_add(a).to_le_bytes())?,
            R_AMDGPU_ABS32 | R_AMDGPU_ABS32_LO => patch(
                data,
                offset,
                &(symbol_value.wrapping_add(a) as u32).to_le_bytes(),
            )?,
            R_AMDGPU_ABS32_HI => patch(
                data,
                offset,
                &((symbol_value.wrapping_add(a) >> 32) as u32).to_le_bytes(),
            )?,
            0 => {}
            t => {
                return Err(EmuError::Load(format!(
                    "unsupported dynamic relocation type {t} at {offset:#x}"
                )))
            }
        }
    }
    Ok(())
}

fn apply_section_relocations(
    elf: &ElfFile64<'_, object::Endianness>,
    section_addr: &[u64],
    base: u64,
    data: &mut [u8],
) -> Result<(), EmuError> {
    for s in elf.sections() {
        let sbase = section_addr.get(s.index().0).copied().unwrap_or(0);
        for (offset, r) in s.relocations() {
            let object::RelocationFlags::Elf { r_type } = r.flags() else {
                continue;
            };
            let s_value = match r.target() {
                RelocationTarget::Symbol(i) => {
                    let sym = elf
                        .symbol_by_index(i)
                        .map_err(|e| EmuError::Load(format!("relocation symbol: {e}")))?;
                    if sym.is_undefined() {
                        return Err(EmuError::Load(format!(
                            "undefined symbol {} (link the object first)",
                            sym.name().unwrap_or("?")
                        )));
                    }
                    match sym.section() {
                        // An absolute symbol's value is not an address in the image.
                        object::SymbolSection::Absolute => sym.address(),
                        object::SymbolSection::Section(i) => {
                            base + section_addr.get(i.0).copied().unwrap_or(0) + sym.address()
                        }
                        other => {
                            return Err(EmuError::Load(format!(
                            "relocation against symbol {} in {other:?}, which gcnkit cannot place",
                            sym.name().unwrap_or("?")
                        )))
                        }
                    }
                }
                RelocationTarget::Section(i) => base + section_addr.get(i.0).copied().unwrap_or(0),
                _ => 0,
            };
            let a = r.addend();
            let place = sbase + offset;
            let p = base + place;
            let v = (s_value as i64).wrapping_add(a) as u64;
            match r_type {
                R_AMDGPU_ABS64 => patch(data, place, &v.to_le_bytes())?,
                R_AMDGPU_ABS32 | R_AMDGPU_ABS32_LO => {
                    patch(data, place, &(v as u32).to_le_bytes())?
                }
                R_AMDGPU_ABS32_HI => patch(data, place, &((v >> 32) as u32).to_le_bytes())?,
                R_AMDGPU_REL32 | R_AMDGPU_REL32_LO => {
                    patch(data, place, &(v.wrapping_sub(p) as u32).to_le_bytes())?
                }
                R_AMDGPU_REL32_HI => patch(
                    data,
                    place,
                    &((v.wrapping_sub(p) >> 32) as u32).to_le_bytes(),
                )?,
                R_AMDGPU_REL64 => patch(data, place, &v.wrapping_sub(p).to_le_bytes())?,
                R_AMDGPU_REL16 => {
                    let delta = (v.wrapping_sub(p) as i64 - 4) / 4;
                    patch(data, place, &(delta as i16 as u16).to_le_bytes())?
                }
                0 => {}
                t => {
                    return Err(EmuError::Load(format!(
                        "unsupported relocation type {t} in {}",
                        s.name().unwrap_or("?")
                    )))
                }
            }
        }
    }
    Ok(())
}

fn arg_of(a: &ArgMetadata<'_>) -> KernelArg {
    KernelArg {
        name: a.name().map(str::to_string),
        kind: a.value_kind().unwrap_or("by_value").to_string(),
        offset: a.offset().unwrap_or(0),
        size: a.size().unwrap_or(0),
        pointee_align: a.get(".pointee_align").and_then(|v| v.as_u64()),
        type_name: a.type_name().map(str::to_string),
    }
}

/// The kernels of the loaded image `image` (relocations applied), placed at `load_base`.
fn find_kernels(
    info: &CodeObjectInfo<'_>,
    relocatable: bool,
    section_addr: &[u64],
    image: &[u8],
    load_base: u64,
    gen: Gen,
) -> Result<Vec<Kernel>, EmuError> {
    let md = info
        .metadata
        .as_ref()
        .map(|m| m.kernels())
        .unwrap_or_default();
    let mut out = Vec::new();
    for k in &info.kernels {
        let sym_addr = if relocatable {
            let sec = k
                .symbol
                .section
                .map_or(0, |i| section_addr.get(i).copied().unwrap_or(0));
            sec + k.symbol.addr
        } else {
            k.symbol.addr
        };
        let descriptor = match (&k.descriptor, &k.kernel_code) {
            // Read the descriptor again from the loaded image: in a relocatable object its
            // `kernel_code_entry_byte_offset` is an R_AMDGPU_REL64 relocation, 0 in the file.
            (Some(_), _) => {
                let bytes = usize::try_from(sym_addr)
                    .ok()
                    .and_then(|at| image.get(at..at.checked_add(KERNEL_DESCRIPTOR_SIZE)?))
                    .ok_or_else(|| {
                        EmuError::Load(format!(
                            "kernel descriptor {} at {sym_addr:#x} lies outside the loaded image",
                            k.symbol.name
                        ))
                    })?;
                KernelDescriptor::decode(bytes).map_err(EmuError::CodeObject)?
            }
            (None, Some(code)) => KernelDescriptor {
                group_segment_fixed_size: code.workgroup_group_segment_byte_size,
                private_segment_fixed_size: code.workitem_private_segment_byte_size,
                kernarg_size: code.kernarg_segment_byte_size as u32,
                kernel_code_entry_byte_offset: code.kernel_code_entry_byte_offset,
                compute_pgm_rsrc1: code.compute_pgm_rsrc1,
                compute_pgm_rsrc2: code.compute_pgm_rsrc2,
                kernel_code_properties: gcnkit_codeobj::pgm_rsrc::KernelCodeProperties::from_bits(
                    (code.kernel_code_properties.to_bits().unwrap_or(0) & 0x7f) as u16,
                ),
                ..KernelDescriptor::default()
            },
            _ => continue,
        };
        let descriptor_address = load_base + sym_addr;
        let meta = k.metadata_index.and_then(|i| md.get(i));
        let args = meta
            .map(|m| m.args().iter().map(arg_of).collect())
            .unwrap_or_default();
        let reqd = meta
            .and_then(|m| m.get(".reqd_workgroup_size"))
            .and_then(|v| v.as_array())
            .and_then(|a| {
                let v: Vec<u64> = a.iter().filter_map(|x| x.as_u64()).collect();
                (v.len() == 3).then(|| [v[0], v[1], v[2]])
            });
        let uniform = meta
            .and_then(|m| m.get(".uniform_work_group_size"))
            .and_then(|v| v.as_u64())
            .is_some_and(|v| v != 0);
        out.push(Kernel {
            name: k.name.clone(),
            descriptor_address,
            entry: descriptor.entry_address(descriptor_address),
            descriptor,
            args,
            kernarg_size: meta
                .and_then(|m| m.kernarg_segment_size())
                .unwrap_or(descriptor.kernarg_size as u64),
            kernarg_align: meta.and_then(|m| m.kernarg_segment_align()).unwrap_or(16),
            group_segment_fixed_size: meta
                .and_then(|m| m.group_segment_fixed_size())
                .unwrap_or(descriptor.group_segment_fixed_size as u64),
            private_segment_fixed_size: meta
                .and_then(|m| m.private_segment_fixed_size())
                .unwrap_or(descriptor.private_segment_fixed_size as u64),
            max_flat_workgroup_size: meta.and_then(|m| m.max_flat_workgroup_size()),
            reqd_workgroup_size: reqd,
            uniform_work_group_size: uniform,
            registers: RegisterCounts::of(&descriptor, gen),
        });
    }
    Ok(out)
}
