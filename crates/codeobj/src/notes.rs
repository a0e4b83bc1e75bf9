//! ELF note records and the AMDGPU note types in them.
//!
//! Code objects v3+ carry one `NT_AMDGPU_METADATA` note (owner `AMDGPU`) with MessagePack
//! metadata; v2 carries several notes of owner `AMD`: the code-object version, the HSAIL
//! version, the ISA version (which names the processor, since v2 `e_flags` do not), and YAML
//! metadata (LLVM `AMDGPUUsage`, "Note Records").

use crate::error::{CodeObjectError, Reader};

/// v3+: MessagePack metadata (owner `AMDGPU`).
pub const NT_AMDGPU_METADATA: u32 = 32;
/// v2: code-object version (owner `AMD`).
pub const NT_AMD_HSA_CODE_OBJECT_VERSION: u32 = 1;
/// v2: HSAIL version.
pub const NT_AMD_HSA_HSAIL: u32 = 2;
/// v2: ISA version (processor).
pub const NT_AMD_HSA_ISA_VERSION: u32 = 3;
/// v2: producer.
pub const NT_AMD_HSA_PRODUCER: u32 = 4;
/// v2: producer options.
pub const NT_AMD_HSA_PRODUCER_OPTIONS: u32 = 5;
/// v2: extension.
pub const NT_AMD_HSA_EXTENSION: u32 = 6;
/// v2: YAML metadata.
pub const NT_AMD_HSA_METADATA: u32 = 10;
/// v2: ISA name (target id string).
pub const NT_AMD_HSA_ISA_NAME: u32 = 11;
/// PAL metadata.
pub const NT_AMD_PAL_METADATA: u32 = 12;

/// One note record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note<'a> {
    /// Name of the section holding it.
    pub section: String,
    /// File offset of the record's header.
    pub file_offset: u64,
    /// Owner name without the terminating NUL (`AMDGPU`, `AMD`).
    pub owner: String,
    /// `n_type`.
    pub n_type: u32,
    /// The payload (`desc`).
    pub desc: &'a [u8],
    /// File offset of the payload.
    pub desc_offset: u64,
}

fn align_up(v: u64, align: u64) -> Option<u64> {
    v.checked_add(align - 1).map(|x| x & !(align - 1))
}

/// Splits the bytes of one note section into records.
///
/// `file_offset` is where `data` starts in the file (for error messages and payload offsets);
/// `align` is the section's alignment (4 for AMDGPU notes; 8 is honoured for 8-aligned
/// note sections, as the gABI allows).
pub fn parse_notes<'a>(
    section: &str,
    data: &'a [u8],
    file_offset: u64,
    align: u64,
) -> Result<Vec<Note<'a>>, CodeObjectError> {
    let align = if align == 8 { 8 } else { 4 };
    let bad = |offset: u64, reason: String| CodeObjectError::BadNote {
        section: section.to_string(),
        offset,
        reason,
    };
    let r = Reader {
        bytes: data,
        what: "note",
    };
    let len = data.len() as u64;
    let mut notes = Vec::new();
    let mut off = 0u64;
    while off < len {
        if len - off < 12 {
            return Err(bad(
                off,
                format!("{} bytes left, a note header needs 12", len - off),
            ));
        }
        let (namesz, descsz, n_type) =
            (r.u32(off)? as u64, r.u32(off + 4)? as u64, r.u32(off + 8)?);
        let name_off = off + 12;
        let desc_off = align_up(name_off + namesz, align)
            .filter(|&d| d <= len)
            .ok_or_else(|| {
                bad(
                    off,
                    format!("name size {namesz} runs past the section end ({len} bytes)"),
                )
            })?;
        let desc_end = desc_off
            .checked_add(descsz)
            .filter(|&e| e <= len)
            .ok_or_else(|| {
                bad(
                    off,
                    format!("descriptor size {descsz} runs past the section end ({len} bytes)"),
                )
            })?;
        let name = &data[name_off as usize..(name_off + namesz) as usize];
        let owner = String::from_utf8_lossy(name.strip_suffix(&[0]).unwrap_or(name)).into_owned();
        notes.push(Note {
            section: section.to_string(),
            file_offset: file_offset + off,
            owner,
            n_type,
            desc: &data[desc_off as usize..desc_end as usize],
            desc_offset: file_offset + desc_off,
        });
        // The last record may end without padding.
        off = align_up(desc_end, align).unwrap_or(len).min(len);
    }
    Ok(notes)
}

/// An AMDGPU note, decoded by owner and type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AmdgpuNote<'a> {
    /// `NT_AMDGPU_METADATA`: MessagePack bytes.
    Metadata(&'a [u8]),
    /// `NT_AMD_HSA_CODE_OBJECT_VERSION`.
    CodeObjectVersion {
        /// Major version (2 for v2).
        major: u32,
        /// Minor version.
        minor: u32,
    },
    /// `NT_AMD_HSA_HSAIL`.
    Hsail {
        /// HSAIL major version.
        major: u32,
        /// HSAIL minor version.
        minor: u32,
        /// Profile (0 base, 1 full).
        profile: u8,
        /// Machine model (0 small, 1 large).
        machine_model: u8,
        /// Default float rounding mode.
        default_float_round: u8,
    },
    /// `NT_AMD_HSA_ISA_VERSION`: the processor of a v2 code object.
    IsaVersion {
        /// Vendor name (`AMD`).
        vendor: String,
        /// Architecture name (`AMDGPU`).
        arch: String,
        /// gfx major (8 in gfx803).
        major: u32,
        /// gfx minor.
        minor: u32,
        /// gfx stepping (10 is written `a`, as in gfx90a).
        stepping: u32,
    },
    /// `NT_AMD_HSA_METADATA`: YAML text.
    MetadataYaml(&'a str),
    /// `NT_AMD_HSA_ISA_NAME`, `NT_AMD_HSA_PRODUCER`, ...: a string payload.
    Text(u32, &'a str),
    /// Any other note (owner, type).
    Other(String, u32),
}

impl<'a> Note<'a> {
    /// Decodes the payload by owner and type.
    pub fn decode(&self) -> Result<AmdgpuNote<'a>, CodeObjectError> {
        let r = Reader {
            bytes: self.desc,
            what: "note payload",
        };
        let bad = |reason: String| CodeObjectError::BadNote {
            section: self.section.clone(),
            offset: self.file_offset,
            reason,
        };
        let text = |d: &'a [u8]| {
            let d = d.split(|&b| b == 0).next().unwrap_or(d);
            std::str::from_utf8(d).map_err(|e| bad(format!("payload is not UTF-8: {e}")))
        };
        Ok(match (self.owner.as_str(), self.n_type) {
            ("AMDGPU", NT_AMDGPU_METADATA) => AmdgpuNote::Metadata(self.desc),
            ("AMD", NT_AMD_HSA_CODE_OBJECT_VERSION) => AmdgpuNote::CodeObjectVersion {
                major: r.u32(0)?,
                minor: r.u32(4)?,
            },
            ("AMD", NT_AMD_HSA_HSAIL) => AmdgpuNote::Hsail {
                major: r.u32(0)?,
                minor: r.u32(4)?,
                profile: r.slice(8, 1)?[0],
                machine_model: r.slice(9, 1)?[0],
                default_float_round: r.slice(10, 1)?[0],
            },
            ("AMD", NT_AMD_HSA_ISA_VERSION) => {
                let vendor_size = r.u16(0)? as u64;
                let arch_size = r.u16(2)? as u64;
                let vendor = r.slice(16, vendor_size)?;
                let arch = r.slice(16 + vendor_size, arch_size)?;
                AmdgpuNote::IsaVersion {
                    vendor: text(vendor)?.to_string(),
                    arch: text(arch)?.to_string(),
                    major: r.u32(4)?,
                    minor: r.u32(8)?,
                    stepping: r.u32(12)?,
                }
            }
            ("AMD", NT_AMD_HSA_METADATA) => AmdgpuNote::MetadataYaml(text(self.desc)?),
            (
                "AMD",
                t @ (NT_AMD_HSA_PRODUCER | NT_AMD_HSA_PRODUCER_OPTIONS | NT_AMD_HSA_ISA_NAME),
            ) => AmdgpuNote::Text(t, text(self.desc)?),
            (owner, t) => AmdgpuNote::Other(owner.to_string(), t),
        })
    }

    /// LLVM's name for the note type, as `llvm-readelf --notes` prints it.
    pub fn type_name(&self) -> String {
        let name = match (self.owner.as_str(), self.n_type) {
            ("AMDGPU", NT_AMDGPU_METADATA) => "NT_AMDGPU_METADATA",
            ("AMD", NT_AMD_HSA_CODE_OBJECT_VERSION) => "NT_AMD_HSA_CODE_OBJECT_VERSION",
            ("AMD", NT_AMD_HSA_HSAIL) => "NT_AMD_HSA_HSAIL",
            ("AMD", NT_AMD_HSA_ISA_VERSION) => "NT_AMD_HSA_ISA_VERSION",
            ("AMD", NT_AMD_HSA_METADATA) => "NT_AMD_HSA_METADATA",
            ("AMD", NT_AMD_HSA_ISA_NAME) => "NT_AMD_HSA_ISA_NAME",
            ("AMD", NT_AMD_PAL_METADATA) => "NT_AMD_PAL_METADATA",
            _ => return format!("unknown note type {:#x}", self.n_type),
        };
        name.to_string()
    }
}

/// The processor name a v2 ISA-version note describes (`gfx803`, `gfx90a`).
pub fn isa_version_name(major: u32, minor: u32, stepping: u32) -> String {
    let step = match stepping {
        0..=9 => stepping.to_string(),
        10..=35 => char::from_digit(stepping, 36)
            .map(String::from)
            .unwrap_or_default(),
        _ => format!("?{stepping}"),
    };
    format!("gfx{major}{minor}{step}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(owner: &[u8], n_type: u32, desc: &[u8]) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&(owner.len() as u32).to_le_bytes());
        b.extend_from_slice(&(desc.len() as u32).to_le_bytes());
        b.extend_from_slice(&n_type.to_le_bytes());
        b.extend_from_slice(owner);
        while b.len() % 4 != 0 {
            b.push(0);
        }
        b.extend_from_slice(desc);
        while b.len() % 4 != 0 {
            b.push(0);
        }
        b
    }

    #[test]
    fn records_split_and_payloads_decode() {
        let mut data = record(b"AMD\0", 1, &[2, 0, 0, 0, 1, 0, 0, 0]);
        data.extend(record(b"AMDGPU\0", 32, &[0x80]));
        let notes = parse_notes(".note", &data, 0x100, 4).unwrap();
        assert_eq!(notes.len(), 2);
        assert_eq!(
            notes[0].decode().unwrap(),
            AmdgpuNote::CodeObjectVersion { major: 2, minor: 1 }
        );
        assert_eq!(notes[1].decode().unwrap(), AmdgpuNote::Metadata(&[0x80]));
        assert_eq!(notes[1].desc_offset, 0x100 + 24 + 20);
    }

    #[test]
    fn descriptor_size_past_the_section_end_is_a_bad_note() {
        let mut data = record(b"AMDGPU\0", 32, &[1, 2, 3, 4]);
        data[4] = 200;
        let err = parse_notes(".note", &data, 0, 4).unwrap_err();
        assert!(
            matches!(err, CodeObjectError::BadNote { offset: 0, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("descriptor size 200"));
    }

    #[test]
    fn name_size_past_the_section_end_is_a_bad_note() {
        let mut data = record(b"AMD\0", 1, &[]);
        data[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            parse_notes(".note", &data, 0, 4),
            Err(CodeObjectError::BadNote { .. })
        ));
    }

    #[test]
    fn a_short_header_is_a_bad_note() {
        let data = [0u8; 7];
        let err = parse_notes(".note", &data, 0, 4).unwrap_err();
        assert!(err.to_string().contains("a note header needs 12"), "{err}");
    }

    #[test]
    fn isa_version_payload_too_short_is_truncated() {
        let data = record(b"AMD\0", 3, &[4, 0, 7, 0, 8, 0, 0, 0]);
        let notes = parse_notes(".note", &data, 0, 4).unwrap();
        assert!(matches!(
            notes[0].decode(),
            Err(CodeObjectError::Truncated { .. })
        ));
    }

    #[test]
    fn isa_version_names_use_a_letter_from_stepping_ten() {
        assert_eq!(isa_version_name(8, 0, 3), "gfx803");
        assert_eq!(isa_version_name(9, 0, 10), "gfx90a");
    }
}
