//! Clang offload bundles: the container `clang-offload-bundler` writes, alone in a file or
//! embedded in a host binary (HIP fat binaries keep them in the `.hip_fatbin` section, one
//! bundle per translation unit, one after another with alignment padding between them).
//!
//! Layout (LLVM `ClangOffloadBundler.rst`): the 24-byte magic `__CLANG_OFFLOAD_BUNDLE__`, a
//! u64 entry count, then per entry a u64 offset (from the bundle start), u64 size, u64 triple
//! length and the triple (`hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+`). Compressed bundles start
//! with `CCOB`; gcnkit reads their header but does not decompress them.

use crate::error::{CodeObjectError, Reader};

/// Magic of an uncompressed offload bundle.
pub const BUNDLE_MAGIC: &[u8; 24] = b"__CLANG_OFFLOAD_BUNDLE__";
/// Magic of a compressed offload bundle.
pub const COMPRESSED_BUNDLE_MAGIC: &[u8; 4] = b"CCOB";

/// One entry of a bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleEntry<'a> {
    /// The bundle entry id, e.g. `hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+`.
    pub id: String,
    /// Offset of the entry's bytes in the buffer the bundle was read from.
    pub offset: u64,
    /// The entry's bytes (a code object for device entries; often empty for the host entry).
    pub data: &'a [u8],
}

impl BundleEntry<'_> {
    /// The offload kind (`hipv4`, `hip`, `openmp`, `host`).
    pub fn kind(&self) -> &str {
        self.id.split('-').next().unwrap_or("")
    }

    /// The target id after `--` (`gfx90a:xnack+`), if the entry names one.
    pub fn target_id(&self) -> Option<&str> {
        self.id
            .split_once("--")
            .map(|(_, t)| t)
            .filter(|t| !t.is_empty())
    }

    /// True for host entries, which hold no device code.
    pub fn is_host(&self) -> bool {
        self.kind() == "host"
    }
}

/// An uncompressed bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle<'a> {
    /// Offset of the magic in the buffer.
    pub offset: u64,
    /// End of the last entry (or of the entry table), relative to the buffer.
    pub end: u64,
    /// The entries in table order.
    pub entries: Vec<BundleEntry<'a>>,
}

/// The header of a compressed (`CCOB`) bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompressedBundle {
    /// Offset of the magic in the buffer.
    pub offset: u64,
    /// Format version (1, 2 or 3).
    pub version: u16,
    /// Compression method (0 = zlib, 1 = zstd).
    pub method: u16,
    /// Size of the whole compressed bundle (versions 2 and 3; `None` in version 1).
    pub total_size: Option<u64>,
    /// Size after decompression.
    pub uncompressed_size: u64,
}

impl CompressedBundle {
    /// Name of the compression method.
    pub fn method_name(&self) -> &'static str {
        match self.method {
            0 => "zlib",
            1 => "zstd",
            _ => "unknown",
        }
    }
}

/// A bundle found in a buffer: plain or compressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoundBundle<'a> {
    /// An uncompressed bundle with its entries.
    Plain(Bundle<'a>),
    /// A compressed bundle (header only).
    Compressed(CompressedBundle),
}

/// Most entries a bundle may claim; real bundles have a handful. Bounds the work a corrupt
/// count can cause before the table runs out of bytes anyway.
const MAX_ENTRIES: u64 = 1 << 16;

/// Reads the uncompressed bundle whose magic is at `at` in `bytes`.
pub fn parse_bundle(bytes: &[u8], at: u64) -> Result<Bundle<'_>, CodeObjectError> {
    let r = Reader {
        bytes,
        what: "offload bundle",
    };
    let bad = |reason: String| CodeObjectError::Bundle { offset: at, reason };
    if r.slice(at, 24)? != BUNDLE_MAGIC {
        return Err(bad("no __CLANG_OFFLOAD_BUNDLE__ magic".into()));
    }
    let count = r.u64(at + 24)?;
    if count > MAX_ENTRIES {
        return Err(bad(format!("{count} entries claimed")));
    }
    let mut pos = at + 32;
    let mut end = pos;
    let mut entries = Vec::new();
    for i in 0..count {
        let (off, size, id_len) = (r.u64(pos)?, r.u64(pos + 8)?, r.u64(pos + 16)?);
        let id = r.slice(pos + 24, id_len)?;
        pos += 24 + id_len;
        let start = at
            .checked_add(off)
            .filter(|s| s.checked_add(size).is_some_and(|e| e <= bytes.len() as u64))
            .ok_or_else(|| {
                bad(format!(
                    "entry {i} (offset {off:#x}, size {size:#x}) lies past the end of the data"
                ))
            })?;
        end = end.max(start + size);
        entries.push(BundleEntry {
            id: String::from_utf8_lossy(id).into_owned(),
            offset: start,
            data: &bytes[start as usize..(start + size) as usize],
        });
    }
    Ok(Bundle {
        offset: at,
        end: end.max(pos),
        entries,
    })
}

/// Reads the header of the compressed bundle at `at`.
pub fn parse_compressed_bundle(bytes: &[u8], at: u64) -> Result<CompressedBundle, CodeObjectError> {
    let r = Reader {
        bytes,
        what: "compressed offload bundle header",
    };
    if r.slice(at, 4)? != COMPRESSED_BUNDLE_MAGIC {
        return Err(CodeObjectError::Bundle {
            offset: at,
            reason: "no CCOB magic".into(),
        });
    }
    let version = r.u16(at + 4)?;
    let method = r.u16(at + 6)?;
    let (total_size, uncompressed_size) = match version {
        1 => (None, u64::from(r.u32(at + 8)?)),
        2 => (Some(u64::from(r.u32(at + 8)?)), u64::from(r.u32(at + 12)?)),
        3 => (Some(r.u64(at + 8)?), r.u64(at + 16)?),
        v => {
            return Err(CodeObjectError::Bundle {
                offset: at,
                reason: format!("unknown compressed bundle version {v}"),
            })
        }
    };
    Ok(CompressedBundle {
        offset: at,
        version,
        method,
        total_size,
        uncompressed_size,
    })
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let first = *needle.first()?;
    let mut i = from;
    // `from` may lie far past the end (a compressed header's size field is untrusted).
    while i < haystack.len() && haystack.len() - i >= needle.len() {
        let rel = haystack[i..].iter().position(|&b| b == first)?;
        i += rel;
        if haystack.get(i..i + needle.len()) == Some(needle) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Every bundle in `bytes` (e.g. a `.hip_fatbin` section), in order. Scanning resumes after
/// each bundle's last entry, so magic strings inside the code objects are never mistaken for
/// bundles; a broken bundle ends the scan with its error.
pub fn find_bundles(bytes: &[u8]) -> Vec<Result<FoundBundle<'_>, CodeObjectError>> {
    let mut found = Vec::new();
    let mut pos = 0usize;
    loop {
        let plain = find(bytes, BUNDLE_MAGIC, pos);
        // Look for a compressed bundle only before the next plain one: searching the whole
        // rest of a 1 GB section once per bundle would make the scan quadratic.
        let limit = plain.map_or(bytes.len(), |p| p + COMPRESSED_BUNDLE_MAGIC.len());
        let compressed = find(&bytes[..limit], COMPRESSED_BUNDLE_MAGIC, pos);
        let at = match (plain, compressed) {
            (Some(p), Some(c)) => p.min(c),
            (Some(p), None) => p,
            (None, Some(c)) => c,
            (None, None) => break,
        };
        if plain == Some(at) {
            match parse_bundle(bytes, at as u64) {
                Ok(b) => {
                    pos = b.end as usize;
                    found.push(Ok(FoundBundle::Plain(b)));
                }
                Err(e) => {
                    found.push(Err(e));
                    break;
                }
            }
        } else {
            match parse_compressed_bundle(bytes, at as u64) {
                Ok(c) if c.total_size.is_some_and(|t| t >= 24) => {
                    pos = at.saturating_add(c.total_size.unwrap_or(0) as usize);
                    found.push(Ok(FoundBundle::Compressed(c)));
                }
                Ok(c) if c.version == 1 => {
                    // Version 1 does not record its own size: nothing after it can be found.
                    found.push(Ok(FoundBundle::Compressed(c)));
                    break;
                }
                // "CCOB" inside other data, not a header.
                _ => pos = at + 4,
            }
        }
    }
    found
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A bundle with the given (id, payload) entries, laid out as clang-offload-bundler does.
    pub(crate) fn make_bundle(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let table: usize = entries.iter().map(|(id, _)| 24 + id.len()).sum();
        let mut offset = (32 + table) as u64;
        let mut b = BUNDLE_MAGIC.to_vec();
        b.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        for (id, data) in entries {
            b.extend_from_slice(&offset.to_le_bytes());
            b.extend_from_slice(&(data.len() as u64).to_le_bytes());
            b.extend_from_slice(&(id.len() as u64).to_le_bytes());
            b.extend_from_slice(id.as_bytes());
            offset += data.len() as u64;
        }
        for (_, data) in entries {
            b.extend_from_slice(data);
        }
        b
    }

    #[test]
    fn entries_list_with_kind_and_target_id() {
        let b = make_bundle(&[
            ("host-x86_64-unknown-linux", b""),
            ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+", b"ELF!"),
        ]);
        let bundle = parse_bundle(&b, 0).unwrap();
        assert_eq!(bundle.entries.len(), 2);
        assert!(bundle.entries[0].is_host());
        assert_eq!(bundle.entries[1].kind(), "hipv4");
        assert_eq!(bundle.entries[1].target_id(), Some("gfx90a:xnack+"));
        assert_eq!(bundle.entries[1].data, b"ELF!");
        assert_eq!(bundle.end, b.len() as u64);
    }

    #[test]
    fn bundles_one_after_another_with_padding_are_all_found() {
        let mut data = make_bundle(&[("hipv4-amdgcn-amd-amdhsa--gfx900", b"one")]);
        data.resize(4096, 0);
        data.extend(make_bundle(&[("hipv4-amdgcn-amd-amdhsa--gfx906", b"two")]));
        let found = find_bundles(&data);
        assert_eq!(found.len(), 2);
        let Ok(FoundBundle::Plain(second)) = &found[1] else {
            panic!("{found:?}")
        };
        assert_eq!(second.offset, 4096);
        assert_eq!(second.entries[0].data, b"two");
    }

    #[test]
    fn an_entry_past_the_end_is_a_bundle_error() {
        let mut b = make_bundle(&[("hipv4-amdgcn-amd-amdhsa--gfx900", b"abc")]);
        b.truncate(b.len() - 1);
        let err = parse_bundle(&b, 0).unwrap_err();
        assert!(
            matches!(err, CodeObjectError::Bundle { offset: 0, .. }),
            "{err}"
        );
    }

    #[test]
    fn a_truncated_entry_table_is_truncated() {
        let b = make_bundle(&[("hipv4-amdgcn-amd-amdhsa--gfx900", b"abc")]);
        assert!(matches!(
            parse_bundle(&b[..40], 0),
            Err(CodeObjectError::Truncated { .. })
        ));
    }

    #[test]
    fn a_compressed_size_reaching_past_the_address_space_ends_the_scan() {
        // Found by the `codeobj` fuzz target (fuzz/regressions/codeobj-ccob-size-overflow.bin).
        let mut b = b"CCOB\x03\x00\x01\x00".to_vec();
        b.extend_from_slice(&u64::MAX.to_le_bytes());
        b.extend_from_slice(&[0; 16]);
        assert_eq!(find_bundles(&b).len(), 1);
    }

    #[test]
    fn compressed_bundle_headers_of_each_version_read() {
        // Version 2 as clang-offload-bundler 19 writes it: sizes are u32.
        let mut b = b"CCOB\x02\x00\x01\x00".to_vec();
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&1000u32.to_le_bytes());
        b.extend_from_slice(&[0; 8]);
        b.resize(40, 0);
        let c = parse_compressed_bundle(&b, 0).unwrap();
        assert_eq!(
            (
                c.version,
                c.method_name(),
                c.total_size,
                c.uncompressed_size
            ),
            (2, "zstd", Some(40), 1000)
        );
        let found = find_bundles(&b);
        assert!(matches!(found.as_slice(), [Ok(FoundBundle::Compressed(h))] if *h == c));
    }
}
