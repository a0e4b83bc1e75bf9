//! The 64-byte kernel descriptor of code objects v3+ (`<kernel>.kd` in `.rodata`): decoding
//! every field and encoding fields back into bytes (LLVM `AMDGPUUsage`, "Kernel Descriptor").

use crate::error::{CodeObjectError, Reader};
use crate::pgm_rsrc::{KernargPreload, KernelCodeProperties, Rsrc1, Rsrc2};

/// Size of a kernel descriptor in bytes.
pub const KERNEL_DESCRIPTOR_SIZE: usize = 64;

/// A kernel descriptor, field by field. Reserved bytes are kept so that
/// `decode(bytes).encode() == bytes` for every input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelDescriptor {
    /// Static LDS bytes per work-group (byte 0).
    pub group_segment_fixed_size: u32,
    /// Static scratch bytes per work-item (byte 4).
    pub private_segment_fixed_size: u32,
    /// Kernarg bytes including hidden arguments; 0 = unspecified (byte 8).
    pub kernarg_size: u32,
    /// Reserved bytes 12–15.
    pub reserved0: [u8; 4],
    /// Entry point minus descriptor address (byte 16; may be negative).
    pub kernel_code_entry_byte_offset: i64,
    /// Reserved bytes 24–43.
    pub reserved1: [u8; 20],
    /// `COMPUTE_PGM_RSRC3` (byte 44), raw: its meaning depends on the target; see
    /// [`crate::pgm_rsrc::Rsrc3Gfx90a`].
    pub compute_pgm_rsrc3: u32,
    /// `COMPUTE_PGM_RSRC1` (byte 48).
    pub compute_pgm_rsrc1: Rsrc1,
    /// `COMPUTE_PGM_RSRC2` (byte 52).
    pub compute_pgm_rsrc2: Rsrc2,
    /// Kernel code properties (byte 56).
    pub kernel_code_properties: KernelCodeProperties,
    /// Kernarg preload (byte 58).
    pub kernarg_preload: KernargPreload,
    /// Reserved bytes 60–63.
    pub reserved3: [u8; 4],
}

impl KernelDescriptor {
    /// Decodes the first 64 bytes of `bytes`.
    pub fn decode(bytes: &[u8]) -> Result<KernelDescriptor, CodeObjectError> {
        let r = Reader {
            bytes,
            what: "kernel descriptor",
        };
        r.slice(0, KERNEL_DESCRIPTOR_SIZE as u64)?;
        let array = |off: u64, n: u64| r.slice(off, n);
        let mut kd = KernelDescriptor {
            group_segment_fixed_size: r.u32(0)?,
            private_segment_fixed_size: r.u32(4)?,
            kernarg_size: r.u32(8)?,
            kernel_code_entry_byte_offset: r.u64(16)? as i64,
            compute_pgm_rsrc3: r.u32(44)?,
            compute_pgm_rsrc1: Rsrc1::from_bits(r.u32(48)?),
            compute_pgm_rsrc2: Rsrc2::from_bits(r.u32(52)?),
            kernel_code_properties: KernelCodeProperties::from_bits(r.u16(56)?),
            kernarg_preload: KernargPreload::from_bits(r.u16(58)?),
            ..KernelDescriptor::default()
        };
        kd.reserved0.copy_from_slice(array(12, 4)?);
        kd.reserved1.copy_from_slice(array(24, 20)?);
        kd.reserved3.copy_from_slice(array(60, 4)?);
        Ok(kd)
    }

    /// Encodes the descriptor into its 64 bytes; fails if a field does not fit its bits.
    pub fn encode(&self) -> Result<[u8; KERNEL_DESCRIPTOR_SIZE], CodeObjectError> {
        let mut b = [0u8; KERNEL_DESCRIPTOR_SIZE];
        b[0..4].copy_from_slice(&self.group_segment_fixed_size.to_le_bytes());
        b[4..8].copy_from_slice(&self.private_segment_fixed_size.to_le_bytes());
        b[8..12].copy_from_slice(&self.kernarg_size.to_le_bytes());
        b[12..16].copy_from_slice(&self.reserved0);
        b[16..24].copy_from_slice(&self.kernel_code_entry_byte_offset.to_le_bytes());
        b[24..44].copy_from_slice(&self.reserved1);
        b[44..48].copy_from_slice(&self.compute_pgm_rsrc3.to_le_bytes());
        b[48..52].copy_from_slice(&self.compute_pgm_rsrc1.to_bits()?.to_le_bytes());
        b[52..56].copy_from_slice(&self.compute_pgm_rsrc2.to_bits()?.to_le_bytes());
        b[56..58].copy_from_slice(&self.kernel_code_properties.to_bits()?.to_le_bytes());
        b[58..60].copy_from_slice(&self.kernarg_preload.to_bits()?.to_le_bytes());
        b[60..64].copy_from_slice(&self.reserved3);
        Ok(b)
    }

    /// Address of the kernel's first instruction, given the descriptor's own address.
    pub fn entry_address(&self, descriptor_address: u64) -> u64 {
        descriptor_address.wrapping_add(self.kernel_code_entry_byte_offset as u64)
    }

    /// True if any reserved byte or bit is set (a well-formed descriptor has none).
    pub fn has_reserved_bits(&self) -> bool {
        self.reserved0 != [0; 4]
            || self.reserved1 != [0; 20]
            || self.reserved3 != [0; 4]
            || self.compute_pgm_rsrc1.reserved != 0
            || self.compute_pgm_rsrc2.reserved != 0
            || self.kernel_code_properties.reserved != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgm_rsrc::Rsrc3Gfx90a;

    /// A gfx90a descriptor written field by field, as an assembler would.
    fn gfx90a_descriptor() -> KernelDescriptor {
        KernelDescriptor {
            group_segment_fixed_size: 4096,
            private_segment_fixed_size: 16,
            kernarg_size: 280,
            kernel_code_entry_byte_offset: -0x1000,
            compute_pgm_rsrc3: Rsrc3Gfx90a {
                accum_offset: 3,
                tg_split: 1,
                reserved: 0,
            }
            .to_bits()
            .unwrap(),
            compute_pgm_rsrc1: Rsrc1 {
                granulated_workitem_vgpr_count: 4,
                granulated_wavefront_sgpr_count: 2,
                float_denorm_mode_32: 3,
                float_denorm_mode_16_64: 3,
                enable_dx10_clamp: 1,
                enable_ieee_mode: 1,
                ..Rsrc1::default()
            },
            compute_pgm_rsrc2: Rsrc2 {
                enable_private_segment: 1,
                user_sgpr_count: 10,
                enable_sgpr_workgroup_id_x: 1,
                enable_vgpr_workitem_id: 2,
                enable_exception_int_divide_by_zero: 1,
                ..Rsrc2::default()
            },
            kernel_code_properties: KernelCodeProperties {
                enable_sgpr_private_segment_buffer: 1,
                enable_sgpr_kernarg_segment_ptr: 1,
                uses_dynamic_stack: 1,
                ..KernelCodeProperties::default()
            },
            kernarg_preload: KernargPreload {
                kernarg_preload_spec_length: 4,
                kernarg_preload_spec_offset: 0,
                reserved: 0,
            },
            ..KernelDescriptor::default()
        }
    }

    #[test]
    fn encoding_then_decoding_gives_the_same_fields() {
        let kd = gfx90a_descriptor();
        let bytes = kd.encode().unwrap();
        // Spot-check the layout against the documented offsets.
        assert_eq!(&bytes[0..4], &4096u32.to_le_bytes());
        assert_eq!(&bytes[16..24], &(-0x1000i64).to_le_bytes());
        assert_eq!(&bytes[44..48], &0x0001_0003u32.to_le_bytes());
        assert_eq!(&bytes[48..52], &0x00af_0084u32.to_le_bytes());
        assert_eq!(&bytes[52..56], &0x4000_1095u32.to_le_bytes());
        assert_eq!(&bytes[56..60], &[0x09, 0x08, 0x04, 0x00]);
        assert_eq!(KernelDescriptor::decode(&bytes).unwrap(), kd);
        assert!(!kd.has_reserved_bits());
    }

    #[test]
    fn decoding_then_encoding_keeps_every_byte() {
        // Arbitrary bytes, reserved ones included, must survive a round trip.
        let bytes: Vec<u8> = (0..64u32).map(|i| (i * 37 + 11) as u8).collect();
        let kd = KernelDescriptor::decode(&bytes).unwrap();
        assert!(kd.has_reserved_bits());
        assert_eq!(kd.encode().unwrap().as_slice(), bytes.as_slice());
    }

    #[test]
    fn a_short_descriptor_is_truncated_not_a_panic() {
        let err = KernelDescriptor::decode(&[0u8; 63]).unwrap_err();
        assert!(
            matches!(err, CodeObjectError::Truncated { needed: 64, .. }),
            "{err}"
        );
    }

    #[test]
    fn entry_address_adds_a_signed_offset() {
        let kd = gfx90a_descriptor();
        assert_eq!(kd.entry_address(0x2000), 0x1000);
    }
}
