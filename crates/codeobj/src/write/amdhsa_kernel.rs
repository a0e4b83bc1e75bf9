//! Building a kernel descriptor from the directives of one `.amdhsa_kernel` block, as LLVM
//! 19's `AMDGPUAsmParser::ParseDirectiveAMDHSAKernel` does: the default descriptor, each
//! directive checked and stored in order, then the register blocks, the user SGPR count and
//! the gfx90a accumulator offset computed at `.end_amdhsa_kernel`.
//!
//! The descriptor's `kernel_code_entry_byte_offset` stays 0: llvm-mc writes it as an
//! `R_AMDGPU_REL64` relocation against the kernel symbol (addend 16) that the linker fills.

use gcnkit_isa::target::FeatureSetting;
use gcnkit_isa::{Gen, Target};

use super::amdhsa_error::{AmdhsaError, AmdhsaErrorKind as E};
use super::amdhsa_table::{
    architected_flat_scratch, gate_passes, lookup, major, Gate, Sink, SizeField, UserSgprs, Word,
};
use crate::descriptor::{KernelDescriptor, KERNEL_DESCRIPTOR_SIZE};
use crate::pgm_rsrc::{KernargPreload, KernelCodeProperties, Rsrc1, Rsrc2};
use crate::registers::{sgpr_granule, vgpr_granule};

/// One `.amdhsa_*` directive of a block: its name (with or without the leading dot), its
/// value, and the positions llvm-mc reports errors at (`P` is the caller's location type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AmdhsaDirective<'a, P> {
    /// `.amdhsa_next_free_vgpr` or `amdhsa_next_free_vgpr`.
    pub name: &'a str,
    /// The value (already evaluated).
    pub value: i64,
    /// Where the name starts.
    pub name_at: P,
    /// Where the value starts.
    pub value_at: P,
}

/// The 64 bytes of the descriptor of one `.amdhsa_kernel` block for `target` in code-object
/// version `code_object_version`. `end_at` is where llvm-mc reports errors found at
/// `.end_amdhsa_kernel` (just past that directive).
pub fn descriptor_from_directives<P: Copy>(
    target: &Target,
    code_object_version: u8,
    directives: &[AmdhsaDirective<'_, P>],
    end_at: P,
) -> Result<[u8; KERNEL_DESCRIPTOR_SIZE], AmdhsaError<P>> {
    let kd = kernel_descriptor_from_directives(target, code_object_version, directives, end_at)?;
    // Every field was range-checked above, so encoding cannot overflow a field.
    kd.encode().map_err(|_| AmdhsaError {
        at: end_at,
        kind: E::OutOfRange,
    })
}

/// Like [`descriptor_from_directives`], but the decoded [`KernelDescriptor`].
///
/// Versions 4–6 behave identically in LLVM 19 and are checked against it; version 3 is
/// accepted with the same rules (LLVM 19 no longer assembles it); 2 has no kernel
/// descriptors and other versions are errors.
pub fn kernel_descriptor_from_directives<P: Copy>(
    target: &Target,
    code_object_version: u8,
    directives: &[AmdhsaDirective<'_, P>],
    end_at: P,
) -> Result<KernelDescriptor, AmdhsaError<P>> {
    if !(3..=6).contains(&code_object_version) {
        return Err(AmdhsaError {
            at: end_at,
            kind: E::UnsupportedCodeObjectVersion(code_object_version),
        });
    }
    let mut block = Block::new(target);
    let repeated = first_repeat(directives);
    for (i, d) in directives.iter().enumerate() {
        if repeated == Some(i) {
            return Err(err(d.value_at, E::Repeated));
        }
        block.apply(d)?;
    }
    block.finish(end_at)
}

/// The index of the first directive that repeats an earlier one's name. Sorting indices by
/// name costs less than hashing every name of every block (assemblers build thousands).
fn first_repeat<P>(directives: &[AmdhsaDirective<'_, P>]) -> Option<usize> {
    let name = |i: usize| {
        let n = directives[i].name;
        n.strip_prefix('.').unwrap_or(n)
    };
    let mut order: Vec<usize> = (0..directives.len()).collect();
    // Stable: within a name, indices stay in source order, so the second of each run is
    // that name's first repeat.
    order.sort_by(|&a, &b| name(a).cmp(name(b)));
    order
        .windows(2)
        .filter(|w| name(w[0]) == name(w[1]))
        .map(|w| w[1])
        .min()
}

fn err<P>(at: P, kind: E) -> AmdhsaError<P> {
    AmdhsaError { at, kind }
}

/// The descriptor words and the values LLVM keeps aside until the end of the block.
struct Block<P> {
    gen: Gen,
    /// LLVM's `FeatureSGPRInitBug` (gfx802 and gfx805): a fixed SGPR allocation.
    init_bug: bool,
    xnack_on_or_any: bool,
    words: [u32; 5],
    sizes: [u32; 3],
    next_free_vgpr: Option<(u64, P)>,
    next_free_sgpr: Option<(u64, P)>,
    accum_offset: Option<u64>,
    explicit_user_sgprs: Option<u32>,
    implied_user_sgprs: u64,
    preload_length: u64,
    preload_offset: u64,
    reserve_vcc: bool,
    reserve_flat_scratch: bool,
}

fn word_index(w: Word) -> usize {
    match w {
        Word::Rsrc1 => 0,
        Word::Rsrc2 => 1,
        Word::Rsrc3 => 2,
        Word::Properties => 3,
        Word::Preload => 4,
    }
}

impl<P: Copy> Block<P> {
    /// LLVM's `getDefaultAmdhsaKernelDescriptor` for gfx6–gfx9: no f16/f64 denormal
    /// flushing, DX10 clamp and IEEE mode on, work-group id X enabled.
    fn new(target: &Target) -> Self {
        let mut words = [0u32; 5];
        let set = |words: &mut [u32; 5], w: Word, field: &str, v: u32| {
            if let Some((lo, _)) = w.field(field) {
                words[word_index(w)] |= v << lo;
            }
        };
        set(&mut words, Word::Rsrc1, "float_denorm_mode_16_64", 3);
        set(&mut words, Word::Rsrc1, "enable_dx10_clamp", 1);
        set(&mut words, Word::Rsrc1, "enable_ieee_mode", 1);
        set(&mut words, Word::Rsrc2, "enable_sgpr_workgroup_id_x", 1);
        Block {
            gen: target.gen(),
            init_bug: matches!(target.processor.name, "gfx802" | "gfx805"),
            xnack_on_or_any: target.processor.supports_xnack && target.xnack != FeatureSetting::Off,
            words,
            sizes: [0; 3],
            next_free_vgpr: None,
            next_free_sgpr: None,
            accum_offset: None,
            explicit_user_sgprs: None,
            implied_user_sgprs: 0,
            preload_length: 0,
            preload_offset: 0,
            reserve_vcc: true,
            reserve_flat_scratch: true,
        }
    }

    /// Checks one directive (after the repetition check) and stores its value.
    fn apply(&mut self, d: &AmdhsaDirective<'_, P>) -> Result<(), AmdhsaError<P>> {
        // LLVM rejects negative values before it even looks at the name.
        let val = u64::try_from(d.value).map_err(|_| err(d.value_at, E::OutOfRange))?;
        let spec = lookup(d.name).ok_or_else(|| err(d.name_at, E::Unknown))?;
        for &gate in spec.gates {
            if !gate_passes(gate, self.gen) {
                return Err(err(d.name_at, gate_error(gate)));
            }
        }
        let fits = |width: u32| val >> width == 0;
        let range = || err(d.value_at, E::OutOfRange);
        match spec.sink {
            Sink::Size(which) => {
                let v = u32::try_from(val).map_err(|_| range())?;
                self.sizes[which as usize] = v;
            }
            Sink::Bits {
                word,
                field,
                max,
                user_sgprs,
            } => {
                if max.is_some_and(|m| val > m) {
                    return Err(range());
                }
                let (lo, width) = word.field(field).ok_or_else(range)?;
                if !fits(width) {
                    return Err(range());
                }
                let w = &mut self.words[word_index(word)];
                *w = (*w & !(((1u32 << width) - 1) << lo)) | ((val as u32) << lo);
                self.note_user_sgprs(word, field, user_sgprs, val);
            }
            // LLVM keeps the count in an `unsigned`, silently dropping high bits.
            Sink::UserSgprCount => self.explicit_user_sgprs = Some(val as u32),
            Sink::NextFreeVgpr => self.next_free_vgpr = Some((val, d.value_at)),
            Sink::NextFreeSgpr => self.next_free_sgpr = Some((val, d.value_at)),
            Sink::AccumOffset => self.accum_offset = Some(val),
            Sink::ReserveVcc | Sink::ReserveFlatScratch | Sink::ReserveXnackMask => {
                if !fits(1) {
                    return Err(range());
                }
                self.reserve(spec.sink, val == 1, d.name_at)?;
            }
            Sink::Nowhere => return Err(err(d.name_at, E::Unknown)),
        }
        Ok(())
    }

    fn note_user_sgprs(&mut self, word: Word, field: &str, user_sgprs: UserSgprs, val: u64) {
        if val == 0 {
            return;
        }
        match user_sgprs {
            UserSgprs::None => {}
            UserSgprs::Fixed(n) => self.implied_user_sgprs += n,
            UserSgprs::Value => self.implied_user_sgprs += val,
        }
        if word == Word::Preload {
            if field == "kernarg_preload_spec_length" {
                self.preload_length = val;
            } else {
                self.preload_offset = val;
            }
        }
    }

    fn reserve(&mut self, sink: Sink, on: bool, name_at: P) -> Result<(), AmdhsaError<P>> {
        match sink {
            Sink::ReserveVcc => self.reserve_vcc = on,
            Sink::ReserveFlatScratch => self.reserve_flat_scratch = on,
            // LLVM derives the xnack reservation from the target id; the directive may
            // only restate it.
            _ if on != self.xnack_on_or_any => return Err(err(name_at, E::XnackMaskMismatch)),
            _ => {}
        }
        Ok(())
    }

    /// The checks and computations of `.end_amdhsa_kernel`, in LLVM's order.
    fn finish(mut self, end_at: P) -> Result<KernelDescriptor, AmdhsaError<P>> {
        let (vgprs, vgpr_at) = self
            .next_free_vgpr
            .ok_or_else(|| err(end_at, E::Missing(".amdhsa_next_free_vgpr")))?;
        let (sgprs, sgpr_at) = self
            .next_free_sgpr
            .ok_or_else(|| err(end_at, E::Missing(".amdhsa_next_free_sgpr")))?;
        let (vgpr_blocks, sgpr_blocks) = self.gpr_blocks(vgprs, sgprs, sgpr_at)?;
        self.set_field(Word::Rsrc1, "granulated_workitem_vgpr_count", vgpr_blocks)
            .ok_or_else(|| err(vgpr_at, E::OutOfRange))?;
        self.set_field(Word::Rsrc1, "granulated_wavefront_sgpr_count", sgpr_blocks)
            .ok_or_else(|| err(sgpr_at, E::OutOfRange))?;
        let implied = self.implied_user_sgprs;
        let user_sgprs = match self.explicit_user_sgprs {
            Some(explicit) if implied > u64::from(explicit) => {
                return Err(err(end_at, E::UserSgprCountTooSmall))
            }
            Some(explicit) => u64::from(explicit),
            None => implied,
        };
        self.set_field(Word::Rsrc2, "user_sgpr_count", user_sgprs)
            .ok_or_else(|| err(end_at, E::TooManyUserSgprs))?;
        let kernarg = u64::from(self.sizes[SizeField::Kernarg as usize]);
        if self.preload_length != 0
            && kernarg != 0
            && self.preload_length * 4 + self.preload_offset * 4 > kernarg
        {
            return Err(err(end_at, E::PreloadPastKernarg));
        }
        if self.gen.has_unified_agprs() {
            let accum = self.accum_offset_field(vgprs, end_at)?;
            self.set_field(Word::Rsrc3, "accum_offset", accum)
                .ok_or_else(|| err(end_at, E::AccumOffsetRange))?;
        }
        Ok(self.descriptor())
    }

    /// gfx90a/gfx94x: the `ACCUM_OFFSET` field from `.amdhsa_accum_offset`.
    fn accum_offset_field(&self, vgprs: u64, end_at: P) -> Result<u64, AmdhsaError<P>> {
        let accum = self
            .accum_offset
            .ok_or_else(|| err(end_at, E::Missing(".amdhsa_accum_offset")))?;
        if !(4..=256).contains(&accum) || accum % 4 != 0 {
            return Err(err(end_at, E::AccumOffsetRange));
        }
        if accum > align_to(vgprs.max(1), 4) {
            return Err(err(end_at, E::AccumOffsetExceedsVgprs));
        }
        Ok(accum / 4 - 1)
    }

    /// Sets a field; `None` if the value does not fit.
    fn set_field(&mut self, word: Word, field: &str, value: u64) -> Option<()> {
        let (lo, width) = word.field(field)?;
        if value >> width != 0 {
            return None;
        }
        let w = &mut self.words[word_index(word)];
        *w = (*w & !(((1u32 << width) - 1) << lo)) | ((value as u32) << lo);
        Some(())
    }

    /// LLVM's `calculateGPRBlocks`: the granulated VGPR and SGPR counts, with the SGPRs
    /// LLVM adds for VCC, FLAT_SCRATCH and XNACK_MASK and the addressable-SGPR checks.
    fn gpr_blocks(&self, vgprs: u64, sgprs: u64, sgpr_at: P) -> Result<(u64, u64), AmdhsaError<P>> {
        let major = major(self.gen);
        let init_bug = self.init_bug;
        let addressable: u64 = if init_bug {
            FIXED_SGPRS_FOR_INIT_BUG
        } else if major >= 8 {
            102
        } else {
            104
        };
        if major >= 8 && !init_bug && sgprs > addressable {
            return Err(err(sgpr_at, E::OutOfRange));
        }
        let mut num_sgprs = sgprs.saturating_add(self.extra_sgprs());
        if (major <= 7 || init_bug) && num_sgprs > addressable {
            return Err(err(sgpr_at, E::OutOfRange));
        }
        if init_bug {
            num_sgprs = FIXED_SGPRS_FOR_INIT_BUG;
        }
        let blocks = |n: u64, granule: u64| align_to(n.max(1), granule) / granule - 1;
        Ok((
            blocks(vgprs, u64::from(vgpr_granule(self.gen))),
            blocks(num_sgprs, u64::from(sgpr_granule(self.gen))),
        ))
    }

    /// LLVM's `getNumExtraSGPRs`: note that each reservation replaces, not adds to, the
    /// previous count (FLAT_SCRATCH and XNACK_MASK sit right after VCC).
    fn extra_sgprs(&self) -> u64 {
        let mut extra = if self.reserve_vcc { 2 } else { 0 };
        if major(self.gen) < 8 {
            if self.reserve_flat_scratch {
                extra = 4;
            }
        } else {
            if self.xnack_on_or_any {
                extra = 4;
            }
            if self.reserve_flat_scratch || architected_flat_scratch(self.gen) {
                extra = 6;
            }
        }
        extra
    }

    fn descriptor(&self) -> KernelDescriptor {
        let [r1, r2, r3, props, preload] = self.words;
        KernelDescriptor {
            group_segment_fixed_size: self.sizes[SizeField::GroupSegment as usize],
            private_segment_fixed_size: self.sizes[SizeField::PrivateSegment as usize],
            kernarg_size: self.sizes[SizeField::Kernarg as usize],
            compute_pgm_rsrc3: r3,
            compute_pgm_rsrc1: Rsrc1::from_bits(r1),
            compute_pgm_rsrc2: Rsrc2::from_bits(r2),
            kernel_code_properties: KernelCodeProperties::from_bits(props as u16),
            kernarg_preload: KernargPreload::from_bits(preload as u16),
            ..KernelDescriptor::default()
        }
    }
}

/// SGPRs LLVM allocates on processors with the SGPR initialisation bug.
const FIXED_SGPRS_FOR_INIT_BUG: u64 = 96;

fn align_to(v: u64, a: u64) -> u64 {
    v.div_ceil(a).saturating_mul(a)
}

fn gate_error(gate: Gate) -> E {
    match gate {
        Gate::Major(7) => E::Requires("gfx7+"),
        Gate::Major(8) => E::Requires("gfx8+"),
        Gate::Major(_) => E::Requires("gfx9+"),
        Gate::Gfx90a => E::Requires("gfx90a+"),
        Gate::NoArchitectedFlatScratch => E::NotWithArchitectedFlatScratch,
        Gate::ArchitectedFlatScratch => E::NotWithoutArchitectedFlatScratch,
        Gate::Never(what) => E::Requires(what),
    }
}
