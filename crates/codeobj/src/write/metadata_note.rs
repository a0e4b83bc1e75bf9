//! An `.amdgpu_metadata` block (YAML) to the `NT_AMDGPU_METADATA` note llvm-mc writes for
//! it: parsed and typed as LLVM's `msgpack::Document::fromYAML`, checked by LLVM's metadata
//! verifier, sorted and encoded as `writeToBlob`, then framed as an ELF note of owner
//! `AMDGPU` padded to 4 bytes (`AMDGPUTargetELFStreamer::EmitNote`). llvm-mc puts the record
//! in a `.note` section (SHT_NOTE, SHF_ALLOC, alignment 4); code objects v4–v6 get no other
//! note from the assembler.

use rmpv::Value;

use super::metadata_check::verify;
use super::msgpack_writer::write_doc;
use super::yaml_doc::parse_yaml;
use crate::notes::NT_AMDGPU_METADATA;

/// Why an `.amdgpu_metadata` block was rejected. llvm-mc reports every such block as
/// "invalid HSA metadata" (after printing YAML syntax errors); `detail` says more.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid HSA metadata ({detail})")]
pub struct MetadataError {
    /// True for YAML syntax errors, false for metadata the verifier rejects.
    pub yaml_syntax: bool,
    /// The YAML error (`YAML:line:col: message`) or what the verifier found wrong.
    pub detail: String,
}

impl MetadataError {
    /// The message llvm-mc prints at `.end_amdgpu_metadata`.
    pub fn llvm_message(&self) -> &'static str {
        "invalid HSA metadata"
    }
}

/// The MessagePack payload (the note's `desc`) for the YAML text of one block.
pub fn metadata_msgpack_from_yaml(yaml: &str) -> Result<Vec<u8>, MetadataError> {
    let mut out = Vec::new();
    append_msgpack(&mut out, yaml)?;
    Ok(out)
}

/// Appends the MessagePack payload for `yaml` to `out`.
fn append_msgpack(out: &mut Vec<u8>, yaml: &str) -> Result<(), MetadataError> {
    let mut doc = parse_yaml(yaml).map_err(|detail| MetadataError {
        yaml_syntax: true,
        detail,
    })?;
    if !verify(&mut doc) {
        return Err(MetadataError {
            yaml_syntax: false,
            detail: "the metadata verifier rejects it: a required key is missing or a value has the wrong kind".to_string(),
        });
    }
    // The payload is about 70% of the YAML's size for real metadata and seldom longer, so
    // reserving the YAML's size keeps the buffer from being copied as it grows.
    out.reserve(yaml.len() + 16);
    write_doc(out, &doc);
    Ok(())
}

/// The whole `.note` section contents llvm-mc writes for one `.amdgpu_metadata` block: one
/// note record (namesz 7, descsz, type 32, `AMDGPU\0` padded, payload padded to 4).
pub fn metadata_note_from_yaml(yaml: &str) -> Result<Vec<u8>, MetadataError> {
    // The payload is written in place after the header, whose size field is filled in last,
    // rather than copied into a record afterwards.
    let mut out = note_record("AMDGPU", NT_AMDGPU_METADATA, &[]);
    let header = out.len();
    append_msgpack(&mut out, yaml)?;
    let desc_len = (out.len() - header) as u32;
    out[4..8].copy_from_slice(&desc_len.to_le_bytes());
    pad4(&mut out);
    Ok(out)
}

/// One ELF note record with 4-byte padding after the name and after the payload.
pub fn note_record(owner: &str, n_type: u32, desc: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(24 + desc.len());
    out.extend(((owner.len() + 1) as u32).to_le_bytes());
    out.extend((desc.len() as u32).to_le_bytes());
    out.extend(n_type.to_le_bytes());
    out.extend(owner.as_bytes());
    out.push(0);
    pad4(&mut out);
    out.extend(desc);
    pad4(&mut out);
    out
}

fn pad4(v: &mut Vec<u8>) {
    v.resize(v.len().div_ceil(4) * 4, 0);
}

/// The metadata tree LLVM would encode for `yaml` (typed, verified, sorted), for callers
/// that want to inspect it.
pub fn metadata_value_from_yaml(yaml: &str) -> Result<Value, MetadataError> {
    let bytes = metadata_msgpack_from_yaml(yaml)?;
    let mut rd = bytes.as_slice();
    rmpv::decode::read_value(&mut rd).map_err(|e| MetadataError {
        yaml_syntax: false,
        detail: e.to_string(),
    })
}
