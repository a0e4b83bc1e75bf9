//! The metadata note as an `.amdgpu_metadata` block, checked against the converter the
//! assembler uses; any other note section, or metadata whose YAML form would not convert
//! back to the same bytes, is kept as bytes.

use super::data::{data_section_source, DataSection};
use super::elf_extra::SectionExtra;
use super::metadata_yaml::metadata_yaml;
use super::Warning;
use crate::notes::NT_AMDGPU_METADATA;
use crate::write::{metadata_msgpack_from_yaml, note_record};
use crate::Section;

/// The source of note section `s`: an `.amdgpu_metadata` block when possible.
pub(crate) fn note_section_source(
    s: &Section<'_>,
    extra: SectionExtra,
    warnings: &mut Vec<Warning>,
) -> String {
    match metadata_block(s.data) {
        Ok(text) => text,
        Err(why) => {
            warnings.push(Warning {
                section: s.name.clone(),
                addr: s.addr,
                message: format!("note section kept as bytes: {why}"),
            });
            let section = DataSection {
                name: &s.name,
                flags: extra.flags,
                sh_type: s.sh_type,
                align: s.align,
                size: s.data.len() as u64,
                data: s.data,
            };
            data_section_source(&section, Vec::new())
        }
    }
}

/// The block for a section holding exactly one `AMDGPU` metadata note, or why not.
pub fn metadata_block(section: &[u8]) -> Result<String, String> {
    let desc = only_metadata_note(section)?;
    let mut rd = desc;
    let root = rmpv::decode::read_value(&mut rd).map_err(|e| format!("bad MessagePack: {e}"))?;
    if !rd.is_empty() {
        return Err("bytes after the MessagePack document".into());
    }
    let yaml = metadata_yaml(&root).map_err(|why| format!("the metadata has {why}"))?;
    match metadata_msgpack_from_yaml(&yaml) {
        Ok(bytes) if bytes == desc => Ok(format!(
            "\t.amdgpu_metadata\n{yaml}\t.end_amdgpu_metadata\n"
        )),
        Ok(_) => Err(
            "its YAML converts back to different MessagePack (maps not in LLVM's \
                      order, integers not in their shortest form, or nil keys)"
                .into(),
        ),
        Err(e) => Err(format!("its YAML is rejected: {e}")),
    }
}

/// The payload of the single metadata note that makes up `section`.
fn only_metadata_note(section: &[u8]) -> Result<&[u8], String> {
    let word = |at: usize| {
        section
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    let (Some(namesz), Some(descsz), Some(n_type)) = (word(0), word(4), word(8)) else {
        return Err("the section is shorter than a note header".into());
    };
    let start = 12 + namesz.div_ceil(4) * 4;
    let desc = section
        .get(start..start.saturating_add(descsz))
        .ok_or("the note runs past its section")?;
    if n_type != NT_AMDGPU_METADATA as usize
        || note_record("AMDGPU", NT_AMDGPU_METADATA, desc) != section
    {
        return Err("it is not exactly one AMDGPU metadata note".into());
    }
    Ok(desc)
}
