//! The register words of a kernel descriptor: `COMPUTE_PGM_RSRC1/2/3`, the kernel code
//! properties and the kernarg preload word, as bit fields for gfx6–gfx942
//! (LLVM `AMDGPUUsage`, "compute_pgm_rsrc1/2/3", and `AMDHSAKernelDescriptor.h`).
//! gfx10+ fields (WGP mode, shared VGPRs, ...) stay in `reserved`.

use crate::bitfield::bitfields;

bitfields! {
    /// `COMPUTE_PGM_RSRC1` (descriptor byte 48).
    pub struct Rsrc1(u32) {
        /// VGPR blocks minus one (granule per target, see [`crate::registers`]).
        granulated_workitem_vgpr_count: 0..=5,
        /// SGPR blocks minus one (granule 8).
        granulated_wavefront_sgpr_count: 6..=9,
        /// Wave priority; must be 0.
        priority: 10..=11,
        /// f32 rounding mode (0 nearest even, 1 +inf, 2 -inf, 3 zero).
        float_round_mode_32: 12..=13,
        /// f16/f64 rounding mode.
        float_round_mode_16_64: 14..=15,
        /// f32 denormal mode (0 flush src and dst ... 3 no flush).
        float_denorm_mode_32: 16..=17,
        /// f16/f64 denormal mode.
        float_denorm_mode_16_64: 18..=19,
        /// Privileged; must be 0.
        priv_: 20..=20,
        /// DX10 clamp mode.
        enable_dx10_clamp: 21..=21,
        /// Debug mode; must be 0.
        debug_mode: 22..=22,
        /// IEEE mode.
        enable_ieee_mode: 23..=23,
        /// Bulky; must be 0.
        bulky: 24..=24,
        /// CDBG user; must be 0.
        cdbg_user: 25..=25,
        /// FP16 overflow clamping (gfx9+; reserved before).
        fp16_ovfl: 26..=26,
    }
}

bitfields! {
    /// `COMPUTE_PGM_RSRC2` (descriptor byte 52).
    pub struct Rsrc2(u32) {
        /// Scratch wave offset SGPR (or, on gfx94x, FLAT_SCRATCH set up by hardware).
        enable_private_segment: 0..=0,
        /// User SGPRs the CP loads.
        user_sgpr_count: 1..=5,
        /// Must be 0 (the CP sets it).
        enable_trap_handler: 6..=6,
        /// Work-group id X system SGPR.
        enable_sgpr_workgroup_id_x: 7..=7,
        /// Work-group id Y system SGPR.
        enable_sgpr_workgroup_id_y: 8..=8,
        /// Work-group id Z system SGPR.
        enable_sgpr_workgroup_id_z: 9..=9,
        /// Work-group info system SGPR.
        enable_sgpr_workgroup_info: 10..=10,
        /// Work-item id VGPRs: 0 = X, 1 = X,Y, 2 = X,Y,Z.
        enable_vgpr_workitem_id: 11..=12,
        /// Must be 0.
        enable_exception_address_watch: 13..=13,
        /// Must be 0.
        enable_exception_memory: 14..=14,
        /// Must be 0 (LDS size comes from the dispatch packet).
        granulated_lds_size: 15..=23,
        /// Trap on IEEE invalid operation.
        enable_exception_ieee_754_fp_invalid_operation: 24..=24,
        /// Trap on denormal source.
        enable_exception_fp_denormal_source: 25..=25,
        /// Trap on division by zero.
        enable_exception_ieee_754_fp_division_by_zero: 26..=26,
        /// Trap on overflow.
        enable_exception_ieee_754_fp_overflow: 27..=27,
        /// Trap on underflow.
        enable_exception_ieee_754_fp_underflow: 28..=28,
        /// Trap on inexact.
        enable_exception_ieee_754_fp_inexact: 29..=29,
        /// Trap on integer division by zero.
        enable_exception_int_divide_by_zero: 30..=30,
    }
}

bitfields! {
    /// `COMPUTE_PGM_RSRC3` on gfx90a and gfx94x (descriptor byte 44; reserved before).
    pub struct Rsrc3Gfx90a(u32) {
        /// First AGPR in the unified register file, `(field + 1) * 4`.
        accum_offset: 0..=5,
        /// Waves of a work-group may run on different CUs.
        tg_split: 16..=16,
    }
}

bitfields! {
    /// Kernel code properties (descriptor byte 56, 16 bits).
    pub struct KernelCodeProperties(u16) {
        /// Private segment buffer user SGPRs (4).
        enable_sgpr_private_segment_buffer: 0..=0,
        /// Dispatch pointer user SGPRs (2).
        enable_sgpr_dispatch_ptr: 1..=1,
        /// Queue pointer user SGPRs (2).
        enable_sgpr_queue_ptr: 2..=2,
        /// Kernarg segment pointer user SGPRs (2).
        enable_sgpr_kernarg_segment_ptr: 3..=3,
        /// Dispatch id user SGPRs (2).
        enable_sgpr_dispatch_id: 4..=4,
        /// Flat scratch init user SGPRs (2).
        enable_sgpr_flat_scratch_init: 5..=5,
        /// Private segment size user SGPR (1).
        enable_sgpr_private_segment_size: 6..=6,
        /// Wave32 (gfx10+; 0 on every gcnkit target).
        enable_wavefront_size32: 10..=10,
        /// The kernel has a dynamically sized stack (v5+).
        uses_dynamic_stack: 11..=11,
    }
}

bitfields! {
    /// Kernarg preload word (descriptor byte 58; gfx90a and gfx94x).
    pub struct KernargPreload(u16) {
        /// Dwords of kernarg preloaded into user SGPRs.
        kernarg_preload_spec_length: 0..=6,
        /// Dword offset of the first preloaded dword.
        kernarg_preload_spec_offset: 7..=15,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_cover_the_documented_bits_and_round_trip() {
        // OpenCL default rsrc1 on gfx9: round to nearest, no flushing, dx10 clamp, IEEE.
        let r = Rsrc1::from_bits(0x00af_0041);
        assert_eq!(r.granulated_workitem_vgpr_count, 1);
        assert_eq!(r.granulated_wavefront_sgpr_count, 1);
        assert_eq!((r.float_denorm_mode_32, r.float_denorm_mode_16_64), (3, 3));
        assert_eq!((r.enable_dx10_clamp, r.enable_ieee_mode), (1, 1));
        assert_eq!(r.reserved, 0);
        assert_eq!(r.to_bits().unwrap(), 0x00af_0041);
        let r2 = Rsrc2::from_bits(0x8000_008c);
        assert_eq!((r2.user_sgpr_count, r2.enable_sgpr_workgroup_id_x), (6, 1));
        assert_eq!(r2.reserved, 0x8000_0000);
        assert_eq!(r2.to_bits().unwrap(), 0x8000_008c);
        assert_eq!(Rsrc3Gfx90a::FIELD_MASK, 0x1_003f);
        assert_eq!(KernelCodeProperties::FIELD_MASK, 0x0c7f);
    }

    #[test]
    fn an_oversized_field_value_is_an_error_naming_the_field() {
        let r = Rsrc2 {
            user_sgpr_count: 40,
            ..Rsrc2::default()
        };
        let err = r.to_bits().unwrap_err().to_string();
        assert!(err.contains("Rsrc2.user_sgpr_count = 40"), "{err}");
    }
}
