//! The code-object directives: `.amdhsa_kernel NAME ... .end_amdhsa_kernel` becomes the
//! kernel descriptor `NAME.kd` in `.rodata`, and `.amdgpu_metadata ... .end_amdgpu_metadata`
//! the metadata note, both as llvm-mc writes them (the rules themselves are in
//! `gcnkit_codeobj::write`).

use gcnkit_codeobj::write::{descriptor_from_directives, metadata_note_from_yaml, AmdhsaDirective};

use crate::expr::{BinOp, Expr, Variant};

use super::input::strip_comments;
use super::input::Text;
use super::state::{skip_space, word_end, Asm, Loc, Patch, Pending};
use super::symbols::Def;
use super::{Binding, Section, Severity, SHF_ALLOC};

/// Offset of `kernel_code_entry_byte_offset` in a kernel descriptor, which llvm-mc fills
/// with an `R_AMDGPU_REL64` relocation against the kernel symbol.
const ENTRY_OFFSET_FIELD: u64 = 16;
/// Size and alignment of a kernel descriptor.
const DESCRIPTOR_SIZE: u64 = 64;
/// ELF `SHT_NOTE`.
const SHT_NOTE: u32 = 7;
/// ELF section flags of mergeable strings.
const SHF_MERGE: u64 = 0x10;
const SHF_STRINGS: u64 = 0x20;

impl<'l> Asm<'l> {
    /// `.amdhsa_kernel NAME`: reads the block up to `.end_amdhsa_kernel` and writes the
    /// descriptor.
    pub(crate) fn amdhsa_kernel(&mut self, args: &str, args_col: usize, col: usize) {
        let name = args.trim().to_string();
        let Some((body, first_line)) = self.collect_body(&[], ".end_amdhsa_kernel", col) else {
            return;
        };
        if name.is_empty() {
            self.error_at(args_col, "expected symbol name after .amdhsa_kernel");
            return;
        }
        let saved = self.cur.clone();
        let body = Text::from(body);
        let values = self.kernel_directives(&body, first_line);
        // Errors found at `.end_amdhsa_kernel` are reported just past it, as llvm-mc does.
        let end = Loc {
            line: first_line + body.lines().count() as u32 + 1,
            col: 1,
            ..saved.clone()
        };
        self.cur = saved;
        let Some(values) = values else { return };
        let Some(target) = self.target else {
            self.report(Severity::Error, &end, "no target for .amdhsa_kernel".into());
            return;
        };
        let directives: Vec<AmdhsaDirective<'_, usize>> = values
            .iter()
            .enumerate()
            .map(|(i, (n, v, _, _))| AmdhsaDirective {
                name: n.as_str(),
                value: *v,
                name_at: 2 * i,
                value_at: 2 * i + 1,
            })
            .collect();
        let end_at = usize::MAX;
        match descriptor_from_directives(
            &target,
            self.code_object_version as u8,
            &directives,
            end_at,
        ) {
            Ok(bytes) => self.emit_descriptor(&name, &bytes),
            Err(e) => {
                let loc = match e.at {
                    usize::MAX => end,
                    i if i % 2 == 0 => values[i / 2].2.clone(),
                    i => values[i / 2].3.clone(),
                };
                self.report(Severity::Error, &loc, e.kind.to_string());
            }
        }
    }

    /// The `(name, value, name location, value location)` of each directive of a block;
    /// `None` if one of them could not be read (the error is reported).
    fn kernel_directives(
        &mut self,
        body: &Text<'l>,
        first_line: u32,
    ) -> Option<Vec<(String, i64, Loc<'l>, Loc<'l>)>> {
        let mut out = Vec::new();
        let mut ok = true;
        let mut start = 0;
        for (k, raw) in body.split_inclusive('\n').enumerate() {
            let raw_line = raw.trim_end_matches(['\n', '\r']);
            self.cur = Loc {
                line: first_line + 1 + k as u32,
                col: 1,
                text: body.clone(),
                start,
                end: start + raw_line.len(),
                ..self.cur.clone()
            };
            start += raw.len();
            let line = strip_comments(raw_line, &mut false);
            let pos = skip_space(&line, 0);
            if pos == line.len() {
                continue;
            }
            let name_end = word_end(&line, pos);
            let name = line[pos..name_end].to_string();
            let value_col = skip_space(&line, name_end);
            match self.const_expr(&line[value_col..], value_col) {
                Some(v) => out.push((name, v, self.loc_at(pos), self.loc_at(value_col))),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// Writes a descriptor into `.rodata` (64-byte aligned) as `NAME.kd`, with the
    /// relocation of its entry offset.
    fn emit_descriptor(&mut self, name: &str, bytes: &[u8]) {
        let previous = (self.current, self.previous);
        let rodata = self.section_index(".rodata", SHF_ALLOC, 1);
        self.current = rodata;
        let section = &mut self.sections[rodata];
        section.align = section.align.max(DESCRIPTOR_SIZE);
        let len = section.data.len() as u64;
        let offset = len.next_multiple_of(DESCRIPTOR_SIZE);
        section.data.resize(offset as usize, 0);
        section.data.extend_from_slice(bytes);
        let kernel = self.syms.get_or_create(name);
        let visibility = self.syms.list[kernel].visibility;
        let kd = self.syms.get_or_create(&format!("{name}.kd"));
        let sym = &mut self.syms.list[kd];
        sym.def = Def::Label {
            section: rodata,
            offset,
        };
        sym.st_type = 1;
        sym.binding = Some(Binding::Global);
        sym.visibility = visibility;
        sym.size = Some((Expr::Num(DESCRIPTOR_SIZE as i64), (rodata, offset)));
        let loc = self.loc_at(0);
        self.fixups.push(Pending {
            section: rodata,
            at: offset + ENTRY_OFFSET_FIELD,
            pc: offset + ENTRY_OFFSET_FIELD,
            patch: Patch::Data(8),
            expr: Expr::Binary(
                BinOp::Add,
                Box::new(Expr::Sym {
                    name: name.to_string(),
                    variant: Variant::Rel64,
                }),
                Box::new(Expr::Num(ENTRY_OFFSET_FIELD as i64)),
            ),
            loc,
        });
        (self.current, self.previous) = previous;
    }

    /// The index of section `name`, created with `flags` and `sh_type` if new.
    pub(crate) fn section_index(&mut self, name: &str, flags: u64, sh_type: u32) -> usize {
        if let Some(i) = self.sections.iter().position(|s| s.name == name) {
            return i;
        }
        self.sections.push(Section {
            name: name.to_string(),
            sh_type,
            flags,
            entsize: 0,
            align: 1,
            data: Vec::new(),
            relocations: Vec::new(),
        });
        self.sections.len() - 1
    }

    /// `.ident "text"`: the string goes into `.comment` (mergeable strings, starting with an
    /// empty one), as llvm-mc writes it.
    pub(crate) fn ident(&mut self, args: &str, args_col: usize) {
        let Some(text) = super::data::parse_string(args.trim()) else {
            self.error_at(args_col, "expected string");
            return;
        };
        let i = self.section_index(".comment", SHF_MERGE | SHF_STRINGS, 1);
        let section = &mut self.sections[i];
        section.entsize = 1;
        if section.data.is_empty() {
            section.data.push(0);
        }
        section.data.extend_from_slice(&text);
        section.data.push(0);
    }

    /// At the end of the input: the metadata note of the `.amdgpu_metadata` blocks, in a
    /// `.note` section as llvm-mc writes it.
    pub(crate) fn emit_metadata(&mut self) {
        for (yaml, loc) in std::mem::take(&mut self.metadata) {
            let converted = self
                .prepass
                .as_ref()
                .and_then(|r| r.prepass().metadata_note(&yaml).cloned());
            match converted.unwrap_or_else(|| metadata_note_from_yaml(&yaml)) {
                Ok(note) => {
                    let i = self.section_index(".note", SHF_ALLOC, SHT_NOTE);
                    let section = &mut self.sections[i];
                    section.align = section.align.max(4);
                    section.data.extend_from_slice(&note);
                }
                Err(e) => self.report(Severity::Error, &loc, e.llvm_message().to_string()),
            }
        }
    }
}
