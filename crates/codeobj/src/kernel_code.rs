//! `amd_kernel_code_t`: the 256-byte header at each kernel symbol of a code object v2
//! (ROCR `amd_hsa_kernel_code.h`; LLVM `AMDGPUUsage`, ".amd_kernel_code_t").
//!
//! The CP reads entry offset, rsrc1/2 and properties at the same offsets as in a v3
//! descriptor, so the register words reuse [`Rsrc1`] and [`Rsrc2`].

use crate::bitfield::bitfields;
use crate::error::{CodeObjectError, Reader};
use crate::pgm_rsrc::{Rsrc1, Rsrc2};

/// Size of `amd_kernel_code_t`.
pub const AMD_KERNEL_CODE_SIZE: usize = 256;

bitfields! {
    /// v2 `kernel_code_properties` (32 bits).
    pub struct KernelCodePropertiesV2(u32) {
        /// Private segment buffer user SGPRs.
        enable_sgpr_private_segment_buffer: 0..=0,
        /// Dispatch pointer user SGPRs.
        enable_sgpr_dispatch_ptr: 1..=1,
        /// Queue pointer user SGPRs.
        enable_sgpr_queue_ptr: 2..=2,
        /// Kernarg segment pointer user SGPRs.
        enable_sgpr_kernarg_segment_ptr: 3..=3,
        /// Dispatch id user SGPRs.
        enable_sgpr_dispatch_id: 4..=4,
        /// Flat scratch init user SGPRs.
        enable_sgpr_flat_scratch_init: 5..=5,
        /// Private segment size user SGPR.
        enable_sgpr_private_segment_size: 6..=6,
        /// Grid work-group count X user SGPR.
        enable_sgpr_grid_workgroup_count_x: 7..=7,
        /// Grid work-group count Y user SGPR.
        enable_sgpr_grid_workgroup_count_y: 8..=8,
        /// Grid work-group count Z user SGPR.
        enable_sgpr_grid_workgroup_count_z: 9..=9,
        /// Wave32 (gfx10+).
        enable_wavefront_size32: 10..=10,
        /// Ordered-append GDS.
        enable_ordered_append_gds: 16..=16,
        /// Private element size (0 = 2 B, 1 = 4 B, 2 = 8 B, 3 = 16 B).
        private_element_size: 17..=18,
        /// 64-bit pointers.
        is_ptr64: 19..=19,
        /// Dynamic call stack.
        is_dynamic_callstack: 20..=20,
        /// Debug enabled.
        is_debug_enabled: 21..=21,
        /// xnack enabled.
        is_xnack_enabled: 22..=22,
    }
}

/// A decoded `amd_kernel_code_t` (the 128-byte control directives are left raw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmdKernelCode {
    /// `amd_kernel_code_version_major` (1).
    pub version_major: u32,
    /// `amd_kernel_code_version_minor`.
    pub version_minor: u32,
    /// `amd_machine_kind` (1 = AMDGPU).
    pub machine_kind: u16,
    /// `amd_machine_version_major`, `_minor`, `_stepping` (8, 0, 3 for gfx803).
    pub machine_version: [u16; 3],
    /// Code entry relative to this header (normally 256).
    pub kernel_code_entry_byte_offset: i64,
    /// Prefetch offset.
    pub kernel_code_prefetch_byte_offset: i64,
    /// Prefetch size.
    pub kernel_code_prefetch_byte_size: u64,
    /// Maximum scratch backing memory.
    pub max_scratch_backing_memory_byte_size: u64,
    /// `COMPUTE_PGM_RSRC1`.
    pub compute_pgm_rsrc1: Rsrc1,
    /// `COMPUTE_PGM_RSRC2`.
    pub compute_pgm_rsrc2: Rsrc2,
    /// Kernel code properties.
    pub kernel_code_properties: KernelCodePropertiesV2,
    /// Static scratch bytes per work-item.
    pub workitem_private_segment_byte_size: u32,
    /// Static LDS bytes per work-group.
    pub workgroup_group_segment_byte_size: u32,
    /// GDS bytes.
    pub gds_segment_byte_size: u32,
    /// Kernarg bytes.
    pub kernarg_segment_byte_size: u64,
    /// Work-group fbarriers.
    pub workgroup_fbarrier_count: u32,
    /// SGPRs used.
    pub wavefront_sgpr_count: u16,
    /// VGPRs used.
    pub workitem_vgpr_count: u16,
    /// First reserved VGPR.
    pub reserved_vgpr_first: u16,
    /// Reserved VGPRs.
    pub reserved_vgpr_count: u16,
    /// First reserved SGPR.
    pub reserved_sgpr_first: u16,
    /// Reserved SGPRs.
    pub reserved_sgpr_count: u16,
    /// Debugger: SGPR with the wave's private segment offset.
    pub debug_wavefront_private_segment_offset_sgpr: u16,
    /// Debugger: first SGPR of the private segment buffer.
    pub debug_private_segment_buffer_sgpr: u16,
    /// log2 of the kernarg alignment.
    pub kernarg_segment_alignment: u8,
    /// log2 of the LDS alignment.
    pub group_segment_alignment: u8,
    /// log2 of the scratch alignment.
    pub private_segment_alignment: u8,
    /// log2 of the wavefront size (6 = 64).
    pub wavefront_size: u8,
    /// Call convention.
    pub call_convention: i32,
    /// Runtime loader kernel symbol.
    pub runtime_loader_kernel_symbol: u64,
}

impl AmdKernelCode {
    /// Decodes the first 256 bytes of `bytes`.
    pub fn decode(bytes: &[u8]) -> Result<AmdKernelCode, CodeObjectError> {
        let r = Reader {
            bytes,
            what: "amd_kernel_code_t",
        };
        r.slice(0, AMD_KERNEL_CODE_SIZE as u64)?;
        let u8_at = |off: u64| r.slice(off, 1).map(|b| b[0]);
        Ok(AmdKernelCode {
            version_major: r.u32(0)?,
            version_minor: r.u32(4)?,
            machine_kind: r.u16(8)?,
            machine_version: [r.u16(10)?, r.u16(12)?, r.u16(14)?],
            kernel_code_entry_byte_offset: r.u64(16)? as i64,
            kernel_code_prefetch_byte_offset: r.u64(24)? as i64,
            kernel_code_prefetch_byte_size: r.u64(32)?,
            max_scratch_backing_memory_byte_size: r.u64(40)?,
            compute_pgm_rsrc1: Rsrc1::from_bits(r.u32(48)?),
            compute_pgm_rsrc2: Rsrc2::from_bits(r.u32(52)?),
            kernel_code_properties: KernelCodePropertiesV2::from_bits(r.u32(56)?),
            workitem_private_segment_byte_size: r.u32(60)?,
            workgroup_group_segment_byte_size: r.u32(64)?,
            gds_segment_byte_size: r.u32(68)?,
            kernarg_segment_byte_size: r.u64(72)?,
            workgroup_fbarrier_count: r.u32(80)?,
            wavefront_sgpr_count: r.u16(84)?,
            workitem_vgpr_count: r.u16(86)?,
            reserved_vgpr_first: r.u16(88)?,
            reserved_vgpr_count: r.u16(90)?,
            reserved_sgpr_first: r.u16(92)?,
            reserved_sgpr_count: r.u16(94)?,
            debug_wavefront_private_segment_offset_sgpr: r.u16(96)?,
            debug_private_segment_buffer_sgpr: r.u16(98)?,
            kernarg_segment_alignment: u8_at(100)?,
            group_segment_alignment: u8_at(101)?,
            private_segment_alignment: u8_at(102)?,
            wavefront_size: u8_at(103)?,
            call_convention: r.u32(104)? as i32,
            runtime_loader_kernel_symbol: r.u64(120)?,
        })
    }

    /// The fields as (name, value) pairs, named as in the `.amd_kernel_code_t` directive
    /// block that LLVM's assembler accepts (register words split into their fields).
    pub fn fields(&self) -> Vec<(String, i64)> {
        let mut f: Vec<(String, i64)> = vec![
            ("amd_code_version_major".into(), self.version_major.into()),
            ("amd_code_version_minor".into(), self.version_minor.into()),
            ("amd_machine_kind".into(), self.machine_kind.into()),
            (
                "amd_machine_version_major".into(),
                self.machine_version[0].into(),
            ),
            (
                "amd_machine_version_minor".into(),
                self.machine_version[1].into(),
            ),
            (
                "amd_machine_version_stepping".into(),
                self.machine_version[2].into(),
            ),
            (
                "kernel_code_entry_byte_offset".into(),
                self.kernel_code_entry_byte_offset,
            ),
            (
                "kernel_code_prefetch_byte_size".into(),
                self.kernel_code_prefetch_byte_size as i64,
            ),
            (
                "max_scratch_backing_memory_byte_size".into(),
                self.max_scratch_backing_memory_byte_size as i64,
            ),
        ];
        let words = [
            self.compute_pgm_rsrc1.values(),
            self.compute_pgm_rsrc2.values(),
            self.kernel_code_properties.values(),
        ];
        f.extend(
            words
                .iter()
                .flatten()
                .map(|&(n, v)| (n.to_string(), i64::from(v))),
        );
        f.extend(self.segment_fields());
        f
    }

    /// The fields after the register words (sizes, counts, alignments).
    fn segment_fields(&self) -> Vec<(String, i64)> {
        let rest: [(&str, i64); 19] = [
            (
                "workitem_private_segment_byte_size",
                self.workitem_private_segment_byte_size.into(),
            ),
            (
                "workgroup_group_segment_byte_size",
                self.workgroup_group_segment_byte_size.into(),
            ),
            ("gds_segment_byte_size", self.gds_segment_byte_size.into()),
            (
                "kernarg_segment_byte_size",
                self.kernarg_segment_byte_size as i64,
            ),
            (
                "workgroup_fbarrier_count",
                self.workgroup_fbarrier_count.into(),
            ),
            ("wavefront_sgpr_count", self.wavefront_sgpr_count.into()),
            ("workitem_vgpr_count", self.workitem_vgpr_count.into()),
            ("reserved_vgpr_first", self.reserved_vgpr_first.into()),
            ("reserved_vgpr_count", self.reserved_vgpr_count.into()),
            ("reserved_sgpr_first", self.reserved_sgpr_first.into()),
            ("reserved_sgpr_count", self.reserved_sgpr_count.into()),
            (
                "debug_wavefront_private_segment_offset_sgpr",
                self.debug_wavefront_private_segment_offset_sgpr.into(),
            ),
            (
                "debug_private_segment_buffer_sgpr",
                self.debug_private_segment_buffer_sgpr.into(),
            ),
            (
                "kernarg_segment_alignment",
                self.kernarg_segment_alignment.into(),
            ),
            (
                "group_segment_alignment",
                self.group_segment_alignment.into(),
            ),
            (
                "private_segment_alignment",
                self.private_segment_alignment.into(),
            ),
            ("wavefront_size", self.wavefront_size.into()),
            ("call_convention", self.call_convention.into()),
            (
                "runtime_loader_kernel_symbol",
                self.runtime_loader_kernel_symbol as i64,
            ),
        ];
        rest.iter().map(|&(n, v)| (n.to_string(), v)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_come_from_their_documented_offsets() {
        let mut b = [0u8; 256];
        b[0] = 1;
        b[8] = 1;
        b[10] = 8;
        b[14] = 3;
        b[16..24].copy_from_slice(&256i64.to_le_bytes());
        b[48..52].copy_from_slice(&0x00ac_0041u32.to_le_bytes());
        b[56..60].copy_from_slice(&0x0008_0009u32.to_le_bytes());
        b[72] = 24;
        b[84] = 10;
        b[86] = 5;
        b[103] = 6;
        let k = AmdKernelCode::decode(&b).unwrap();
        assert_eq!(k.machine_version, [8, 0, 3]);
        assert_eq!(k.kernel_code_entry_byte_offset, 256);
        assert_eq!(k.compute_pgm_rsrc1.granulated_workitem_vgpr_count, 1);
        assert_eq!(k.kernel_code_properties.is_ptr64, 1);
        assert_eq!(k.kernel_code_properties.enable_sgpr_kernarg_segment_ptr, 1);
        assert_eq!(
            (
                k.kernarg_segment_byte_size,
                k.wavefront_sgpr_count,
                k.workitem_vgpr_count
            ),
            (24, 10, 5)
        );
        assert_eq!(k.wavefront_size, 6);
    }

    #[test]
    fn a_short_header_is_truncated() {
        assert!(matches!(
            AmdKernelCode::decode(&[0u8; 255]),
            Err(CodeObjectError::Truncated { .. })
        ));
    }
}
