//! A kernel descriptor as LLVM's `.amdhsa_*` assembler directives: the view `llvm-objdump`
//! prints for `<kernel>.kd` symbols, and the names the assembler will accept.
//!
//! Which directives appear depends on the target exactly as in LLVM 19's
//! `AMDGPUDisassembler::decodeKernelDescriptorDirective`: no `private_segment_buffer` or
//! `flat_scratch_init` on architected-flat-scratch targets (gfx94x), `accum_offset` and
//! `tg_split` only on gfx90a/gfx94x, `fp16_overflow` from gfx9, `uses_dynamic_stack` from code
//! object v5, the preload pair only when non-zero. Register counts print as the allocation
//! (`(granule field + 1) * granule`) with the reserve directives at 0, because the original
//! split between them cannot be recovered from the bytes.

use gcnkit_isa::Gen;

use crate::descriptor::KernelDescriptor;
use crate::pgm_rsrc::Rsrc3Gfx90a;
use crate::registers::RegisterCounts;

/// The `.amdhsa_*` directives (name without the leading dot, value) that describe `kd` for a
/// target of generation `gen` in a code object of version `code_object_version`.
pub fn amdhsa_directives(
    kd: &KernelDescriptor,
    gen: Gen,
    code_object_version: u8,
) -> Vec<(&'static str, u64)> {
    let mut d = vec![
        (
            "amdhsa_group_segment_fixed_size",
            u64::from(kd.group_segment_fixed_size),
        ),
        (
            "amdhsa_private_segment_fixed_size",
            u64::from(kd.private_segment_fixed_size),
        ),
        ("amdhsa_kernarg_size", u64::from(kd.kernarg_size)),
    ];
    if gen.has_unified_agprs() {
        let r3 = Rsrc3Gfx90a::from_bits(kd.compute_pgm_rsrc3);
        d.push(("amdhsa_accum_offset", u64::from((r3.accum_offset + 1) * 4)));
        d.push(("amdhsa_tg_split", u64::from(r3.tg_split)));
    }
    rsrc1_directives(kd, gen, &mut d);
    rsrc2_directives(kd, gen, &mut d);
    properties_directives(kd, gen, code_object_version, &mut d);
    d
}

fn architected_flat_scratch(gen: Gen) -> bool {
    gen == Gen::Gfx940
}

fn rsrc1_directives(kd: &KernelDescriptor, gen: Gen, d: &mut Vec<(&'static str, u64)>) {
    let r1 = &kd.compute_pgm_rsrc1;
    let regs = RegisterCounts::of(kd, gen);
    d.push(("amdhsa_next_free_vgpr", u64::from(regs.vgprs)));
    d.push(("amdhsa_reserve_vcc", 0));
    if !architected_flat_scratch(gen) {
        d.push(("amdhsa_reserve_flat_scratch", 0));
    }
    d.push(("amdhsa_reserve_xnack_mask", 0));
    d.push(("amdhsa_next_free_sgpr", u64::from(regs.sgprs)));
    let fields = [
        ("amdhsa_float_round_mode_32", r1.float_round_mode_32),
        ("amdhsa_float_round_mode_16_64", r1.float_round_mode_16_64),
        ("amdhsa_float_denorm_mode_32", r1.float_denorm_mode_32),
        ("amdhsa_float_denorm_mode_16_64", r1.float_denorm_mode_16_64),
        ("amdhsa_dx10_clamp", r1.enable_dx10_clamp),
        ("amdhsa_ieee_mode", r1.enable_ieee_mode),
    ];
    d.extend(fields.iter().map(|&(n, v)| (n, u64::from(v))));
    if gen.is_gfx9_family() {
        d.push(("amdhsa_fp16_overflow", u64::from(r1.fp16_ovfl)));
    }
}

fn rsrc2_directives(kd: &KernelDescriptor, gen: Gen, d: &mut Vec<(&'static str, u64)>) {
    let r2 = &kd.compute_pgm_rsrc2;
    let private = if architected_flat_scratch(gen) {
        "amdhsa_enable_private_segment"
    } else {
        "amdhsa_system_sgpr_private_segment_wavefront_offset"
    };
    let fields = [
        (private, r2.enable_private_segment),
        (
            "amdhsa_system_sgpr_workgroup_id_x",
            r2.enable_sgpr_workgroup_id_x,
        ),
        (
            "amdhsa_system_sgpr_workgroup_id_y",
            r2.enable_sgpr_workgroup_id_y,
        ),
        (
            "amdhsa_system_sgpr_workgroup_id_z",
            r2.enable_sgpr_workgroup_id_z,
        ),
        (
            "amdhsa_system_sgpr_workgroup_info",
            r2.enable_sgpr_workgroup_info,
        ),
        ("amdhsa_system_vgpr_workitem_id", r2.enable_vgpr_workitem_id),
        (
            "amdhsa_exception_fp_ieee_invalid_op",
            r2.enable_exception_ieee_754_fp_invalid_operation,
        ),
        (
            "amdhsa_exception_fp_denorm_src",
            r2.enable_exception_fp_denormal_source,
        ),
        (
            "amdhsa_exception_fp_ieee_div_zero",
            r2.enable_exception_ieee_754_fp_division_by_zero,
        ),
        (
            "amdhsa_exception_fp_ieee_overflow",
            r2.enable_exception_ieee_754_fp_overflow,
        ),
        (
            "amdhsa_exception_fp_ieee_underflow",
            r2.enable_exception_ieee_754_fp_underflow,
        ),
        (
            "amdhsa_exception_fp_ieee_inexact",
            r2.enable_exception_ieee_754_fp_inexact,
        ),
        (
            "amdhsa_exception_int_div_zero",
            r2.enable_exception_int_divide_by_zero,
        ),
    ];
    d.extend(fields.iter().map(|&(n, v)| (n, u64::from(v))));
}

fn properties_directives(
    kd: &KernelDescriptor,
    gen: Gen,
    code_object_version: u8,
    d: &mut Vec<(&'static str, u64)>,
) {
    let p = &kd.kernel_code_properties;
    let arch = architected_flat_scratch(gen);
    let fields = [
        (
            !arch,
            "amdhsa_user_sgpr_private_segment_buffer",
            p.enable_sgpr_private_segment_buffer,
        ),
        (
            true,
            "amdhsa_user_sgpr_dispatch_ptr",
            p.enable_sgpr_dispatch_ptr,
        ),
        (true, "amdhsa_user_sgpr_queue_ptr", p.enable_sgpr_queue_ptr),
        (
            true,
            "amdhsa_user_sgpr_kernarg_segment_ptr",
            p.enable_sgpr_kernarg_segment_ptr,
        ),
        (
            true,
            "amdhsa_user_sgpr_dispatch_id",
            p.enable_sgpr_dispatch_id,
        ),
        (
            !arch,
            "amdhsa_user_sgpr_flat_scratch_init",
            p.enable_sgpr_flat_scratch_init,
        ),
        (
            true,
            "amdhsa_user_sgpr_private_segment_size",
            p.enable_sgpr_private_segment_size,
        ),
        (
            code_object_version >= 5,
            "amdhsa_uses_dynamic_stack",
            p.uses_dynamic_stack,
        ),
    ];
    d.extend(
        fields
            .iter()
            .filter(|f| f.0)
            .map(|&(_, n, v)| (n, u64::from(v))),
    );
    let pre = &kd.kernarg_preload;
    if pre.kernarg_preload_spec_length != 0 {
        d.push((
            "amdhsa_user_sgpr_kernarg_preload_length",
            u64::from(pre.kernarg_preload_spec_length),
        ));
    }
    if pre.kernarg_preload_spec_offset != 0 {
        d.push((
            "amdhsa_user_sgpr_kernarg_preload_offset",
            u64::from(pre.kernarg_preload_spec_offset),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfx940_has_no_private_segment_buffer_or_flat_scratch_directives() {
        let kd = KernelDescriptor::default();
        let names: Vec<_> = amdhsa_directives(&kd, Gen::Gfx940, 5)
            .iter()
            .map(|d| d.0)
            .collect();
        assert!(names.contains(&"amdhsa_enable_private_segment"));
        assert!(names.contains(&"amdhsa_accum_offset"));
        assert!(!names.contains(&"amdhsa_user_sgpr_private_segment_buffer"));
        assert!(!names.contains(&"amdhsa_reserve_flat_scratch"));
        let names: Vec<_> = amdhsa_directives(&kd, Gen::Gfx8, 4)
            .iter()
            .map(|d| d.0)
            .collect();
        assert!(!names.contains(&"amdhsa_fp16_overflow"));
        assert!(!names.contains(&"amdhsa_uses_dynamic_stack"));
        assert!(!names.contains(&"amdhsa_accum_offset"));
    }
}
