//! `gcn disasm` of a linked code object as source that rebuilds it: the code listing of
//! [`gcnkit_disasm::listing`] placed among the directives of
//! [`gcnkit_codeobj::source`] (target, code-object version, symbol attributes, data
//! sections, `.amdhsa_kernel` blocks, `.amdgpu_metadata`), so that `gcn asm` of the output
//! gives back the same `.text`, kernel descriptors and metadata note.

use anyhow::{Context, Result};

use gcnkit_codeobj::source::{rebuild_source, SourceSection};
use gcnkit_codeobj::CodeObject;
use gcnkit_disasm::listing::{source_section_checked, Diagnostic, Output, Section};
use gcnkit_isa::Target;

use crate::disasm::{listing_symbols, reassembles};

/// `e_type` of linked code objects.
pub const ET_DYN: u16 = 3;

/// Appends the rebuilding source of the code object `bytes` (already parsed as `obj`) to
/// `out`, listing code for `target`; returns the invalid words of the code and what had
/// to be kept as bytes, each with its section name.
pub fn render_code_object(
    name: &str,
    bytes: &[u8],
    obj: &CodeObject<'_>,
    target: &Target,
    out: &mut Output<'_>,
) -> Result<Vec<(String, Diagnostic)>> {
    let source = rebuild_source(bytes).with_context(|| format!("'{name}'"))?;
    let mut diags = Vec::new();
    out.buf.push_str(&source.prologue);
    for piece in &source.sections {
        out.buf.push('\n');
        match piece {
            SourceSection::Code { index, preamble } => {
                let Some(sec) = obj.sections.iter().find(|s| s.index == *index) else {
                    continue;
                };
                out.buf.push_str(preamble);
                let symbols = listing_symbols(obj, sec.index);
                let section = Section {
                    name: &sec.name,
                    addr: sec.addr,
                    bytes: sec.data,
                    symbols: &symbols,
                };
                let d = source_section_checked(target, &section, out, &mut reassembles(target));
                diags.extend(d.into_iter().map(|d| (sec.name.clone(), d)));
            }
            SourceSection::Data(text) => out.buf.push_str(text),
        }
        out.maybe_flush();
    }
    if !source.epilogue.is_empty() {
        out.buf.push('\n');
        out.buf.push_str(&source.epilogue);
    }
    diags.extend(source.warnings.into_iter().map(|w| {
        let d = Diagnostic {
            addr: w.addr,
            message: w.message,
        };
        (w.section, d)
    }));
    Ok(diags)
}
