//! Every `.amdhsa_*` directive LLVM 19 accepts inside `.amdhsa_kernel`, as data: on which
//! targets it is allowed (checked in LLVM's order, so the first failing check gives LLVM's
//! message) and where its value goes. Bit positions come from the descriptor's bit-field
//! tables in [`crate::pgm_rsrc`], so they are written down once.

use gcnkit_isa::Gen;

use crate::pgm_rsrc::{KernargPreload, KernelCodeProperties, Rsrc1, Rsrc2, Rsrc3Gfx90a};

/// A descriptor word a directive writes bits of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// `COMPUTE_PGM_RSRC1`.
    Rsrc1,
    /// `COMPUTE_PGM_RSRC2`.
    Rsrc2,
    /// `COMPUTE_PGM_RSRC3` (gfx90a/gfx94x layout).
    Rsrc3,
    /// Kernel code properties.
    Properties,
    /// Kernarg preload word.
    Preload,
}

impl Word {
    /// (name, low bit, width) of the word's fields.
    pub fn fields(self) -> &'static [(&'static str, u32, u32)] {
        match self {
            Word::Rsrc1 => Rsrc1::FIELDS,
            Word::Rsrc2 => Rsrc2::FIELDS,
            Word::Rsrc3 => Rsrc3Gfx90a::FIELDS,
            Word::Properties => KernelCodeProperties::FIELDS,
            Word::Preload => KernargPreload::FIELDS,
        }
    }

    /// (low bit, width) of field `name`.
    pub fn field(self, name: &str) -> Option<(u32, u32)> {
        self.fields()
            .iter()
            .find(|f| f.0 == name)
            .map(|&(_, lo, width)| (lo, width))
    }
}

/// A condition on the target, with the error LLVM gives when it fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// gfx major version at least N ("directive requires gfxN+").
    Major(u8),
    /// gfx90a and gfx94x (LLVM's `isGFX90A()` / kernarg preload feature).
    Gfx90a,
    /// Not on targets with architected flat scratch (gfx94x).
    NoArchitectedFlatScratch,
    /// Only on targets with architected flat scratch.
    ArchitectedFlatScratch,
    /// Never on gfx6–gfx9: gfx10+ features; the payload is LLVM's phrase.
    Never(&'static str),
}

/// Where a directive's value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sink {
    /// A 32-bit size field (group, private, kernarg).
    Size(SizeField),
    /// A bit field of a descriptor word. `max` is an extra inclusive limit LLVM checks
    /// before the width; `user_sgprs` is how many user SGPRs a non-zero value enables.
    Bits {
        /// The word.
        word: Word,
        /// The field's name in [`crate::pgm_rsrc`].
        field: &'static str,
        /// Extra inclusive upper limit.
        max: Option<u64>,
        /// User SGPRs implied when the value is non-zero.
        user_sgprs: UserSgprs,
    },
    /// `.amdhsa_user_sgpr_count`.
    UserSgprCount,
    /// `.amdhsa_next_free_vgpr`.
    NextFreeVgpr,
    /// `.amdhsa_next_free_sgpr`.
    NextFreeSgpr,
    /// `.amdhsa_accum_offset`.
    AccumOffset,
    /// `.amdhsa_reserve_vcc`.
    ReserveVcc,
    /// `.amdhsa_reserve_flat_scratch`.
    ReserveFlatScratch,
    /// `.amdhsa_reserve_xnack_mask` (only checked against the target).
    ReserveXnackMask,
    /// A gfx10+ directive; its gate always fails on gcnkit's targets.
    Nowhere,
}

/// The three 32-bit size fields at the start of the descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeField {
    /// Byte 0.
    GroupSegment,
    /// Byte 4.
    PrivateSegment,
    /// Byte 8.
    Kernarg,
}

/// How many user SGPRs a directive enables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserSgprs {
    /// None.
    None,
    /// This many when the value is non-zero.
    Fixed(u64),
    /// As many as the value (kernarg preload length).
    Value,
}

/// One directive LLVM accepts in `.amdhsa_kernel`.
#[derive(Clone, Copy, Debug)]
pub struct DirectiveSpec {
    /// Name without the leading dot.
    pub name: &'static str,
    /// Target checks, in LLVM's order.
    pub gates: &'static [Gate],
    /// Where the value goes.
    pub sink: Sink,
}

const fn bits(word: Word, field: &'static str) -> Sink {
    Sink::Bits {
        word,
        field,
        max: None,
        user_sgprs: UserSgprs::None,
    }
}

const fn user(field: &'static str, n: u64) -> Sink {
    Sink::Bits {
        word: Word::Properties,
        field,
        max: None,
        user_sgprs: UserSgprs::Fixed(n),
    }
}

const fn d(name: &'static str, gates: &'static [Gate], sink: Sink) -> DirectiveSpec {
    DirectiveSpec { name, gates, sink }
}

use Gate::*;
use Word::*;

const NO_ARCH: &[Gate] = &[NoArchitectedFlatScratch];
const GFX10: &[Gate] = &[Never("gfx10+")];

/// Every directive of LLVM 19's `AMDGPUAsmParser::ParseDirectiveAMDHSAKernel`, in its order.
pub const DIRECTIVES: &[DirectiveSpec] = &[
    d(
        "amdhsa_group_segment_fixed_size",
        &[],
        Sink::Size(SizeField::GroupSegment),
    ),
    d(
        "amdhsa_private_segment_fixed_size",
        &[],
        Sink::Size(SizeField::PrivateSegment),
    ),
    d("amdhsa_kernarg_size", &[], Sink::Size(SizeField::Kernarg)),
    d("amdhsa_user_sgpr_count", &[], Sink::UserSgprCount),
    d(
        "amdhsa_user_sgpr_private_segment_buffer",
        NO_ARCH,
        user("enable_sgpr_private_segment_buffer", 4),
    ),
    d(
        "amdhsa_user_sgpr_kernarg_preload_length",
        &[Gfx90a],
        Sink::Bits {
            word: Preload,
            field: "kernarg_preload_spec_length",
            max: Some(16),
            user_sgprs: UserSgprs::Value,
        },
    ),
    d(
        "amdhsa_user_sgpr_kernarg_preload_offset",
        &[Gfx90a],
        Sink::Bits {
            word: Preload,
            field: "kernarg_preload_spec_offset",
            max: Some(1023),
            user_sgprs: UserSgprs::None,
        },
    ),
    d(
        "amdhsa_user_sgpr_dispatch_ptr",
        &[],
        user("enable_sgpr_dispatch_ptr", 2),
    ),
    d(
        "amdhsa_user_sgpr_queue_ptr",
        &[],
        user("enable_sgpr_queue_ptr", 2),
    ),
    d(
        "amdhsa_user_sgpr_kernarg_segment_ptr",
        &[],
        user("enable_sgpr_kernarg_segment_ptr", 2),
    ),
    d(
        "amdhsa_user_sgpr_dispatch_id",
        &[],
        user("enable_sgpr_dispatch_id", 2),
    ),
    d(
        "amdhsa_user_sgpr_flat_scratch_init",
        NO_ARCH,
        user("enable_sgpr_flat_scratch_init", 2),
    ),
    d(
        "amdhsa_user_sgpr_private_segment_size",
        &[],
        user("enable_sgpr_private_segment_size", 1),
    ),
    d("amdhsa_wavefront_size32", GFX10, Sink::Nowhere),
    d(
        "amdhsa_uses_dynamic_stack",
        &[],
        bits(Properties, "uses_dynamic_stack"),
    ),
    d(
        "amdhsa_system_sgpr_private_segment_wavefront_offset",
        NO_ARCH,
        bits(Rsrc2, "enable_private_segment"),
    ),
    d(
        "amdhsa_enable_private_segment",
        &[ArchitectedFlatScratch],
        bits(Rsrc2, "enable_private_segment"),
    ),
    d(
        "amdhsa_system_sgpr_workgroup_id_x",
        &[],
        bits(Rsrc2, "enable_sgpr_workgroup_id_x"),
    ),
    d(
        "amdhsa_system_sgpr_workgroup_id_y",
        &[],
        bits(Rsrc2, "enable_sgpr_workgroup_id_y"),
    ),
    d(
        "amdhsa_system_sgpr_workgroup_id_z",
        &[],
        bits(Rsrc2, "enable_sgpr_workgroup_id_z"),
    ),
    d(
        "amdhsa_system_sgpr_workgroup_info",
        &[],
        bits(Rsrc2, "enable_sgpr_workgroup_info"),
    ),
    d(
        "amdhsa_system_vgpr_workitem_id",
        &[],
        bits(Rsrc2, "enable_vgpr_workitem_id"),
    ),
    d("amdhsa_next_free_vgpr", &[], Sink::NextFreeVgpr),
    d("amdhsa_next_free_sgpr", &[], Sink::NextFreeSgpr),
    d("amdhsa_accum_offset", &[Gfx90a], Sink::AccumOffset),
    d("amdhsa_reserve_vcc", &[], Sink::ReserveVcc),
    d(
        "amdhsa_reserve_flat_scratch",
        &[Major(7), NoArchitectedFlatScratch],
        Sink::ReserveFlatScratch,
    ),
    d(
        "amdhsa_reserve_xnack_mask",
        &[Major(8)],
        Sink::ReserveXnackMask,
    ),
    d(
        "amdhsa_float_round_mode_32",
        &[],
        bits(Rsrc1, "float_round_mode_32"),
    ),
    d(
        "amdhsa_float_round_mode_16_64",
        &[],
        bits(Rsrc1, "float_round_mode_16_64"),
    ),
    d(
        "amdhsa_float_denorm_mode_32",
        &[],
        bits(Rsrc1, "float_denorm_mode_32"),
    ),
    d(
        "amdhsa_float_denorm_mode_16_64",
        &[],
        bits(Rsrc1, "float_denorm_mode_16_64"),
    ),
    d("amdhsa_dx10_clamp", &[], bits(Rsrc1, "enable_dx10_clamp")),
    d("amdhsa_ieee_mode", &[], bits(Rsrc1, "enable_ieee_mode")),
    d(
        "amdhsa_fp16_overflow",
        &[Major(9)],
        bits(Rsrc1, "fp16_ovfl"),
    ),
    d("amdhsa_tg_split", &[Gfx90a], bits(Rsrc3, "tg_split")),
    d("amdhsa_workgroup_processor_mode", GFX10, Sink::Nowhere),
    d("amdhsa_memory_ordered", GFX10, Sink::Nowhere),
    d("amdhsa_forward_progress", GFX10, Sink::Nowhere),
    d(
        "amdhsa_shared_vgpr_count",
        &[Never("gfx10 or gfx11")],
        Sink::Nowhere,
    ),
    d(
        "amdhsa_exception_fp_ieee_invalid_op",
        &[],
        bits(Rsrc2, "enable_exception_ieee_754_fp_invalid_operation"),
    ),
    d(
        "amdhsa_exception_fp_denorm_src",
        &[],
        bits(Rsrc2, "enable_exception_fp_denormal_source"),
    ),
    d(
        "amdhsa_exception_fp_ieee_div_zero",
        &[],
        bits(Rsrc2, "enable_exception_ieee_754_fp_division_by_zero"),
    ),
    d(
        "amdhsa_exception_fp_ieee_overflow",
        &[],
        bits(Rsrc2, "enable_exception_ieee_754_fp_overflow"),
    ),
    d(
        "amdhsa_exception_fp_ieee_underflow",
        &[],
        bits(Rsrc2, "enable_exception_ieee_754_fp_underflow"),
    ),
    d(
        "amdhsa_exception_fp_ieee_inexact",
        &[],
        bits(Rsrc2, "enable_exception_ieee_754_fp_inexact"),
    ),
    d(
        "amdhsa_exception_int_div_zero",
        &[],
        bits(Rsrc2, "enable_exception_int_divide_by_zero"),
    ),
    d(
        "amdhsa_round_robin_scheduling",
        &[Never("gfx12+")],
        Sink::Nowhere,
    ),
];

/// Looks a directive up by name, with or without the leading dot.
pub fn lookup(name: &str) -> Option<&'static DirectiveSpec> {
    let name = name.strip_prefix('.').unwrap_or(name);
    DIRECTIVES.iter().find(|s| s.name == name)
}

/// Names (without the dot) of the directives allowed on generation `gen`, in LLVM's order.
pub fn directive_names(gen: Gen) -> Vec<&'static str> {
    DIRECTIVES
        .iter()
        .filter(|s| s.gates.iter().all(|g| gate_passes(*g, gen)))
        .map(|s| s.name)
        .collect()
}

/// The gfx major version LLVM's checks compare against.
pub(crate) fn major(gen: Gen) -> u8 {
    match gen {
        Gen::Gfx6 => 6,
        Gen::Gfx7 => 7,
        Gen::Gfx8 => 8,
        Gen::Gfx9 | Gen::Gfx908 | Gen::Gfx90a | Gen::Gfx940 => 9,
    }
}

/// True on targets whose flat scratch is set up by hardware (gfx94x).
pub(crate) fn architected_flat_scratch(gen: Gen) -> bool {
    gen == Gen::Gfx940
}

/// Whether `gate` lets a directive through on `gen`.
pub(crate) fn gate_passes(gate: Gate, gen: Gen) -> bool {
    match gate {
        Major(m) => major(gen) >= m,
        Gfx90a => gen.has_unified_agprs(),
        NoArchitectedFlatScratch => !architected_flat_scratch(gen),
        ArchitectedFlatScratch => architected_flat_scratch(gen),
        Never(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bit_sink_names_a_field_of_its_word() {
        for spec in DIRECTIVES {
            if let Sink::Bits { word, field, .. } = spec.sink {
                assert!(word.field(field).is_some(), "{} -> {field}", spec.name);
            }
        }
    }

    #[test]
    fn gfx940_has_no_scratch_wave_offset_but_an_enable_private_segment() {
        let names = directive_names(Gen::Gfx940);
        assert!(names.contains(&"amdhsa_enable_private_segment"));
        assert!(!names.contains(&"amdhsa_system_sgpr_private_segment_wavefront_offset"));
        assert!(!directive_names(Gen::Gfx6).contains(&"amdhsa_reserve_flat_scratch"));
    }
}
