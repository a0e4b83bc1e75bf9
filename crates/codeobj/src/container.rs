//! What a file holds: one code object, an offload bundle, or a host binary whose
//! `.hip_fatbin` section holds bundles. Gives the code objects in each case, with where they
//! came from.

use crate::bundle::{
    find_bundles, CompressedBundle, FoundBundle, BUNDLE_MAGIC, COMPRESSED_BUNDLE_MAGIC,
};
use crate::error::CodeObjectError;
use crate::{elf, is_elf, EM_AMDGPU};

/// The kind of file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContainerKind {
    /// An AMDGPU ELF file (code object or relocatable object).
    CodeObject,
    /// A standalone offload bundle (`clang-offload-bundler` output).
    Bundle,
    /// A host ELF binary with embedded bundles (a HIP fat binary).
    HostBinary,
}

/// A code object found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Embedded<'a> {
    /// Index of the bundle it came from (0-based, in file order), if any.
    pub bundle_index: Option<usize>,
    /// The bundle entry id (`hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+`), if any.
    pub entry_id: Option<String>,
    /// Offset of the code object in the file.
    pub file_offset: u64,
    /// Its bytes.
    pub data: &'a [u8],
}

/// The contents of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contents<'a> {
    /// What the file is.
    pub kind: ContainerKind,
    /// Number of bundles found (0 for a plain code object).
    pub bundles: usize,
    /// Device code objects, in file order (host entries and empty entries left out).
    pub code_objects: Vec<Embedded<'a>>,
    /// Compressed bundles found, which gcnkit does not decompress.
    pub compressed: Vec<CompressedBundle>,
}

impl<'a> Embedded<'a> {
    /// The bytes, copied to an 8-aligned buffer when they are not aligned already: bundle
    /// entries may start at any offset (`clang-offload-bundler -type=o` packs them), and the
    /// ELF reader needs its header structs aligned.
    pub fn aligned(&self) -> AlignedBytes<'a> {
        if self.data.as_ptr().align_offset(8) == 0 {
            return AlignedBytes::Borrowed(self.data);
        }
        let mut words = vec![0u64; self.data.len().div_ceil(8)];
        object::pod::bytes_of_slice_mut(&mut words)[..self.data.len()].copy_from_slice(self.data);
        AlignedBytes::Copied(words, self.data.len())
    }
}

/// Bytes at an 8-aligned address: borrowed, or copied into 64-bit words.
#[derive(Clone, Debug)]
pub enum AlignedBytes<'a> {
    /// Already aligned.
    Borrowed(&'a [u8]),
    /// A copy and its length in bytes.
    Copied(Vec<u64>, usize),
}

impl std::ops::Deref for AlignedBytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            AlignedBytes::Borrowed(b) => b,
            AlignedBytes::Copied(words, len) => &object::pod::bytes_of_slice(words)[..*len],
        }
    }
}

/// Sections of a host binary that hold offload bundles.
fn is_bundle_section(name: &str) -> bool {
    name.starts_with(".hip_fatbin") || name.starts_with("__CLANG_OFFLOAD_BUNDLE__")
}

/// Finds the code objects in `bytes`.
pub fn code_objects_in(bytes: &[u8]) -> Result<Contents<'_>, CodeObjectError> {
    if bytes.starts_with(BUNDLE_MAGIC) || bytes.starts_with(COMPRESSED_BUNDLE_MAGIC) {
        let mut c = empty(ContainerKind::Bundle);
        collect(&mut c, bytes, 0)?;
        return Ok(c);
    }
    if !is_elf(bytes) {
        return Err(CodeObjectError::NotElf);
    }
    let header = crate::elf_flags::ElfHeader::parse(bytes)?;
    if header.e_machine == EM_AMDGPU {
        let mut c = empty(ContainerKind::CodeObject);
        c.code_objects.push(Embedded {
            bundle_index: None,
            entry_id: None,
            file_offset: 0,
            data: bytes,
        });
        return Ok(c);
    }
    let parts = elf::read_elf(bytes)?;
    let mut c = empty(ContainerKind::HostBinary);
    let mut any = false;
    for s in parts.sections.iter().filter(|s| is_bundle_section(&s.name)) {
        any = true;
        collect(&mut c, s.data, s.file_offset)?;
    }
    if !any {
        return Err(CodeObjectError::NotAmdgpu(format!(
            "e_machine is {} and there is no .hip_fatbin section with offload bundles",
            header.e_machine
        )));
    }
    Ok(c)
}

fn empty(kind: ContainerKind) -> Contents<'static> {
    Contents {
        kind,
        bundles: 0,
        code_objects: Vec::new(),
        compressed: Vec::new(),
    }
}

/// Adds the bundles in `data` (which starts at `base` in the file) to `c`.
fn collect<'a>(c: &mut Contents<'a>, data: &'a [u8], base: u64) -> Result<(), CodeObjectError> {
    for found in find_bundles(data) {
        let index = c.bundles;
        c.bundles += 1;
        match found.map_err(|e| rebase(e, base))? {
            FoundBundle::Plain(b) => {
                for e in b
                    .entries
                    .into_iter()
                    .filter(|e| !e.is_host() && !e.data.is_empty())
                {
                    c.code_objects.push(Embedded {
                        bundle_index: Some(index),
                        file_offset: base + e.offset,
                        entry_id: Some(e.id),
                        data: e.data,
                    });
                }
            }
            FoundBundle::Compressed(mut h) => {
                h.offset += base;
                c.compressed.push(h);
            }
        }
    }
    Ok(())
}

/// Makes a bundle error's offset a file offset.
fn rebase(e: CodeObjectError, base: u64) -> CodeObjectError {
    match e {
        CodeObjectError::Bundle { offset, reason } => CodeObjectError::Bundle {
            offset: offset + base,
            reason,
        },
        CodeObjectError::Truncated {
            what,
            offset,
            needed,
            available,
        } => CodeObjectError::Truncated {
            what,
            offset: offset + base,
            needed,
            available,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::tests::make_bundle;

    #[test]
    fn a_standalone_bundle_lists_its_device_entries() {
        let b = make_bundle(&[
            ("host-x86_64-unknown-linux", b""),
            ("hipv4-amdgcn-amd-amdhsa--gfx900", b"\x7fELF-one"),
            ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+", b"\x7fELF-two"),
        ]);
        let c = code_objects_in(&b).unwrap();
        assert_eq!(c.kind, ContainerKind::Bundle);
        assert_eq!(c.bundles, 1);
        let ids: Vec<_> = c
            .code_objects
            .iter()
            .map(|e| e.entry_id.clone().unwrap())
            .collect();
        assert_eq!(
            ids,
            [
                "hipv4-amdgcn-amd-amdhsa--gfx900",
                "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+"
            ]
        );
        assert_eq!(c.code_objects[1].data, b"\x7fELF-two");
    }

    #[test]
    fn other_files_are_not_code_objects() {
        assert!(matches!(
            code_objects_in(b"#!/bin/sh"),
            Err(CodeObjectError::NotElf)
        ));
    }
}
