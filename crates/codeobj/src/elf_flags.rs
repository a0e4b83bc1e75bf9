//! The ELF header fields that say what a code object is for: OS ABI, ABI version (which is
//! the code-object version) and the AMDGPU `e_flags` (machine, xnack, sramecc).
//!
//! The meaning of `e_flags` bits changed between code-object versions (LLVM `AMDGPUUsage`,
//! "Header"): v2 has feature bits only, v3 one bit each for xnack and sramecc, v4+ a 2-bit
//! field each that can say "unsupported", "any", "off" or "on"; v6 adds a generic version.

use gcnkit_isa::target::FeatureSetting;
use gcnkit_isa::{Processor, Target};

use crate::error::{CodeObjectError, Reader};

/// `EI_OSABI` of code objects for the HSA runtime (ROCm).
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// `EI_OSABI` of code objects for PAL (graphics drivers).
pub const ELFOSABI_AMDGPU_PAL: u8 = 65;
/// `EI_OSABI` of code objects for Mesa.
pub const ELFOSABI_AMDGPU_MESA3D: u8 = 66;

/// `EF_AMDGPU_MACH`: bits 0–7 name the processor (v3+).
pub const EF_AMDGPU_MACH: u32 = 0xff;
/// v2: the code may use xnack.
pub const EF_AMDGPU_FEATURE_XNACK_V2: u32 = 0x01;
/// v2: the code uses the trap handler.
pub const EF_AMDGPU_FEATURE_TRAP_HANDLER_V2: u32 = 0x02;
/// v3: xnack enabled.
pub const EF_AMDGPU_FEATURE_XNACK_V3: u32 = 0x100;
/// v3: sramecc enabled.
pub const EF_AMDGPU_FEATURE_SRAMECC_V3: u32 = 0x200;
/// v4+: the 2-bit xnack field.
pub const EF_AMDGPU_FEATURE_XNACK_V4: u32 = 0x300;
/// v4+: the 2-bit sramecc field.
pub const EF_AMDGPU_FEATURE_SRAMECC_V4: u32 = 0xc00;
/// v6: generic code-object version (bits 24–31).
pub const EF_AMDGPU_GENERIC_VERSION: u32 = 0xff00_0000;

/// The setting of a target feature as `e_flags` records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureState {
    /// The processor does not have the feature (v4+ value 0).
    Unsupported,
    /// The code runs either way (v4+ value 1; also v2/v3 where "off" and "any" cannot be told apart).
    Any,
    /// The code needs the feature off.
    Off,
    /// The code needs the feature on.
    On,
}

impl FeatureState {
    /// The suffix LLVM prints in target ids and `llvm-readelf -h` (`+`, `-`, or nothing).
    pub fn suffix(self) -> &'static str {
        match self {
            FeatureState::On => "+",
            FeatureState::Off => "-",
            _ => "",
        }
    }

    fn from_v4_field(bits: u32) -> FeatureState {
        match bits & 3 {
            0 => FeatureState::Unsupported,
            1 => FeatureState::Any,
            2 => FeatureState::Off,
            _ => FeatureState::On,
        }
    }

    fn setting(self) -> FeatureSetting {
        match self {
            FeatureState::On => FeatureSetting::On,
            FeatureState::Off => FeatureSetting::Off,
            _ => FeatureSetting::Any,
        }
    }
}

/// The AMDGPU-specific fields of an ELF header, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElfHeader {
    /// `EI_OSABI` (64 = HSA, 65 = PAL, 66 = Mesa).
    pub os_abi: u8,
    /// `EI_ABIVERSION` as stored.
    pub abi_version: u8,
    /// Code-object version (2–6) for HSA code objects; `None` for other OS ABIs or unknown values.
    pub code_object_version: Option<u8>,
    /// `e_type` (1 = relocatable, 3 = shared object).
    pub e_type: u16,
    /// `e_machine` (224 for AMDGPU).
    pub e_machine: u16,
    /// Raw `e_flags`.
    pub e_flags: u32,
    /// `EF_AMDGPU_MACH` value (0 in v2, where the ISA note names the processor).
    pub mach: u8,
    /// xnack setting.
    pub xnack: FeatureState,
    /// sramecc setting.
    pub sramecc: FeatureState,
    /// v2 only: `EF_AMDGPU_FEATURE_TRAP_HANDLER_V2`.
    pub trap_handler_v2: bool,
    /// v6 only: the generic code-object version (0 when not generic).
    pub generic_version: u8,
}

/// ELF header size of a 64-bit ELF file.
const EHDR64_SIZE: u64 = 64;

impl ElfHeader {
    /// Reads the header of a little-endian 64-bit ELF file (what every AMDGPU code object is).
    pub fn parse(bytes: &[u8]) -> Result<ElfHeader, CodeObjectError> {
        if !crate::is_elf(bytes) {
            return Err(CodeObjectError::NotElf);
        }
        let r = Reader {
            bytes,
            what: "ELF header",
        };
        r.slice(0, EHDR64_SIZE)?;
        if bytes[4] != object::elf::ELFCLASS64 || bytes[5] != object::elf::ELFDATA2LSB {
            return Err(CodeObjectError::NotAmdgpu(
                "not a little-endian 64-bit ELF file".into(),
            ));
        }
        let os_abi = bytes[7];
        let abi_version = bytes[8];
        let e_flags = r.u32(48)?;
        let code_object_version = match (os_abi, abi_version) {
            (ELFOSABI_AMDGPU_HSA, v @ 0..=4) => Some(v + 2),
            _ => None,
        };
        let mut h = ElfHeader {
            os_abi,
            abi_version,
            code_object_version,
            e_type: r.u16(16)?,
            e_machine: r.u16(18)?,
            e_flags,
            mach: (e_flags & EF_AMDGPU_MACH) as u8,
            xnack: FeatureState::Any,
            sramecc: FeatureState::Any,
            trap_handler_v2: false,
            generic_version: 0,
        };
        h.decode_features();
        Ok(h)
    }

    /// Decodes the feature bits according to the code-object version.
    fn decode_features(&mut self) {
        let f = self.e_flags;
        let bit = |mask: u32| {
            if f & mask != 0 {
                FeatureState::On
            } else {
                FeatureState::Any
            }
        };
        match self.code_object_version {
            Some(2) => {
                // v2 keeps the processor in the ISA note; e_flags has two feature bits.
                self.mach = 0;
                self.xnack = bit(EF_AMDGPU_FEATURE_XNACK_V2);
                self.sramecc = FeatureState::Any;
                self.trap_handler_v2 = f & EF_AMDGPU_FEATURE_TRAP_HANDLER_V2 != 0;
            }
            // PAL and Mesa objects (ABI version 0) use the v3 bits, as llvm-readelf does.
            Some(3) | None => {
                self.xnack = bit(EF_AMDGPU_FEATURE_XNACK_V3);
                self.sramecc = bit(EF_AMDGPU_FEATURE_SRAMECC_V3);
            }
            Some(_) => {
                self.xnack = FeatureState::from_v4_field(f >> 8);
                self.sramecc = FeatureState::from_v4_field(f >> 10);
                if self.code_object_version >= Some(6) {
                    self.generic_version = (f >> 24) as u8;
                }
            }
        }
    }

    /// LLVM's name for the machine (`gfx90a`), also for processors gcnkit does not support.
    pub fn processor_name(&self) -> Option<&'static str> {
        mach_name(self.mach)
    }

    /// The target id as LLVM writes it: `gfx90a:sramecc-:xnack+` (features in alphabetical
    /// order, only the ones that are on or off).
    pub fn target_id(&self) -> Option<String> {
        let mut id = self.processor_name()?.to_string();
        for (name, state) in [("sramecc", self.sramecc), ("xnack", self.xnack)] {
            if matches!(state, FeatureState::On | FeatureState::Off) {
                id.push_str(&format!(":{name}{}", state.suffix()));
            }
        }
        Some(id)
    }

    /// The gcnkit [`Target`], if gcnkit supports the processor.
    pub fn target(&self) -> Result<Target, CodeObjectError> {
        let processor = Processor::by_elf_mach(self.mach)
            .ok_or(gcnkit_isa::TargetError::UnknownElfMach(self.mach))?;
        Ok(Target {
            processor,
            xnack: self.xnack.setting(),
            sramecc: self.sramecc.setting(),
        })
    }

    /// Name of the OS ABI (`AMDGPU - HSA` style, without the prefix).
    pub fn os_abi_name(&self) -> &'static str {
        match self.os_abi {
            ELFOSABI_AMDGPU_HSA => "HSA",
            ELFOSABI_AMDGPU_PAL => "PAL",
            ELFOSABI_AMDGPU_MESA3D => "Mesa3D",
            0 => "System V",
            _ => "unknown",
        }
    }
}

/// LLVM's processor name for an `EF_AMDGPU_MACH_*` value (AMDGCN only; R600 values are `None`).
pub fn mach_name(mach: u8) -> Option<&'static str> {
    MACH_NAMES
        .iter()
        .find(|(m, _)| *m == mach)
        .map(|(_, name)| *name)
}

/// `EF_AMDGPU_MACH_AMDGCN_*` values (LLVM `AMDGPUUsage`, "AMDGPU EF_AMDGPU_MACH Values").
/// Wider than gcnkit's targets so that `gcn info` can name every code object in a fat binary.
const MACH_NAMES: &[(u8, &str)] = &[
    (0x20, "gfx600"),
    (0x21, "gfx601"),
    (0x22, "gfx700"),
    (0x23, "gfx701"),
    (0x24, "gfx702"),
    (0x25, "gfx703"),
    (0x26, "gfx704"),
    (0x28, "gfx801"),
    (0x29, "gfx802"),
    (0x2a, "gfx803"),
    (0x2b, "gfx810"),
    (0x2c, "gfx900"),
    (0x2d, "gfx902"),
    (0x2e, "gfx904"),
    (0x2f, "gfx906"),
    (0x30, "gfx908"),
    (0x31, "gfx909"),
    (0x32, "gfx90c"),
    (0x33, "gfx1010"),
    (0x34, "gfx1011"),
    (0x35, "gfx1012"),
    (0x36, "gfx1030"),
    (0x37, "gfx1031"),
    (0x38, "gfx1032"),
    (0x39, "gfx1033"),
    (0x3a, "gfx602"),
    (0x3b, "gfx705"),
    (0x3c, "gfx805"),
    (0x3d, "gfx1035"),
    (0x3e, "gfx1034"),
    (0x3f, "gfx90a"),
    (0x40, "gfx940"),
    (0x41, "gfx1100"),
    (0x42, "gfx1013"),
    (0x43, "gfx1150"),
    (0x44, "gfx1103"),
    (0x45, "gfx1036"),
    (0x46, "gfx1101"),
    (0x47, "gfx1102"),
    (0x48, "gfx1200"),
    (0x4a, "gfx1151"),
    (0x4b, "gfx941"),
    (0x4c, "gfx942"),
    (0x4e, "gfx1201"),
    (0x4f, "gfx950"),
    (0x51, "gfx9-generic"),
    (0x52, "gfx10-1-generic"),
    (0x53, "gfx10-3-generic"),
    (0x54, "gfx11-generic"),
    (0x55, "gfx1152"),
    (0x58, "gfx1153"),
    (0x59, "gfx12-generic"),
    (0x5f, "gfx9-4-generic"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn header(os_abi: u8, abi_version: u8, e_flags: u32) -> Vec<u8> {
        let mut b = vec![0u8; 64];
        b[..4].copy_from_slice(b"\x7fELF");
        b[4] = 2;
        b[5] = 1;
        b[7] = os_abi;
        b[8] = abi_version;
        b[18..20].copy_from_slice(&224u16.to_le_bytes());
        b[48..52].copy_from_slice(&e_flags.to_le_bytes());
        b
    }

    #[test]
    fn v4_two_bit_feature_fields_decode_to_four_states() {
        let h = ElfHeader::parse(&header(64, 2, 0x73f)).unwrap();
        assert_eq!(h.code_object_version, Some(4));
        assert_eq!(h.processor_name(), Some("gfx90a"));
        assert_eq!(h.xnack, FeatureState::On);
        assert_eq!(h.sramecc, FeatureState::Any);
        assert_eq!(h.target_id().unwrap(), "gfx90a:xnack+");
        let h = ElfHeader::parse(&header(64, 3, 0x02a)).unwrap();
        assert_eq!(h.xnack, FeatureState::Unsupported);
        let h = ElfHeader::parse(&header(64, 4, 0xa4c)).unwrap();
        assert_eq!(h.target_id().unwrap(), "gfx942:sramecc-:xnack-");
    }

    #[test]
    fn v3_single_bits_mean_on() {
        let h = ElfHeader::parse(&header(64, 1, 0x32c)).unwrap();
        assert_eq!(h.code_object_version, Some(3));
        assert_eq!((h.xnack, h.sramecc), (FeatureState::On, FeatureState::On));
    }

    #[test]
    fn v2_flags_have_no_machine() {
        let h = ElfHeader::parse(&header(64, 0, 0x3)).unwrap();
        assert_eq!(h.code_object_version, Some(2));
        assert_eq!(h.mach, 0);
        assert!(h.trap_handler_v2);
        assert_eq!(h.xnack, FeatureState::On);
    }

    #[test]
    fn truncated_header_is_an_error() {
        let b = header(64, 2, 0x3f);
        assert!(matches!(
            ElfHeader::parse(&b[..40]),
            Err(CodeObjectError::Truncated { .. })
        ));
    }
}
