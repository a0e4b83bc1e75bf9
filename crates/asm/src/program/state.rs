//! The assembler's state and its main loop: reading statements and dispatching them.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use gcnkit_isa::Target;

use crate::expr::{Expr, SymbolValues, Variant};
use crate::{assemble_instruction, FixupKind};

use super::input::{strip_comments, FileLoader, Frame, FrameKind, Text};
use super::prepass::{threads_for, Prepass, Reader};
use super::symbols::{AssignmentError, Def, Symbols};
use super::{Diagnostic, Failed, Options, Program, RecordedInstruction, Section, Severity};

/// Default `.amdhsa_code_object_version` of LLVM 19.
const DEFAULT_CODE_OBJECT_VERSION: u32 = 5;
/// How deep `.include`, macro expansions and repetitions may nest.
const MAX_NESTING: usize = 256;

/// Entries of the encoding cache after which it starts afresh (bounding its memory).
const MAX_CACHED_ENCODINGS: usize = 1 << 20;

/// [`SymbolValues`] that notes whether it was asked anything.
struct Tracking<'a> {
    inner: super::symbols::Values<'a>,
    consulted: std::cell::Cell<bool>,
}

impl<'a> Tracking<'a> {
    fn new(inner: super::symbols::Values<'a>) -> Tracking<'a> {
        Tracking {
            inner,
            consulted: std::cell::Cell::new(false),
        }
    }
}

impl crate::expr::SymbolValues for Tracking<'_> {
    fn value(&self, name: &str) -> Option<i64> {
        self.consulted.set(true);
        self.inner.value(name)
    }
}

/// Diagnostics after which assembly stops.
const MAX_DIAGNOSTICS: usize = 10_000;

/// Where a statement (or a part of it) is, for diagnostics.
#[derive(Clone, Debug)]
pub(crate) struct Loc<'s> {
    pub file: u32,
    pub line: u32,
    pub col: u32,
    pub text: Text<'s>,
    pub start: usize,
    pub end: usize,
}

/// What a fixup patches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Patch {
    /// An instruction field, as the encoder asked.
    Instruction(FixupKind),
    /// A data directive of 1, 2, 4 or 8 bytes.
    Data(u8),
}

/// A fixup to resolve once every symbol is known.
#[derive(Clone, Debug)]
pub(crate) struct Pending<'s> {
    pub section: usize,
    /// Offset of the patched bytes in the section.
    pub at: u64,
    /// Offset of the instruction (or data item) that holds them.
    pub pc: u64,
    pub patch: Patch,
    pub expr: Expr,
    pub loc: Loc<'s>,
}

/// A conditional-assembly level.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cond {
    /// Statements of the current branch are assembled.
    pub active: bool,
    /// Some branch of this `.if` has been taken.
    pub taken: bool,
    /// The enclosing level is active.
    pub parent: bool,
    /// After `.else`.
    pub in_else: bool,
}

/// A `.macro` definition.
#[derive(Debug)]
pub(crate) struct Macro {
    pub params: Vec<MacroParam>,
    pub body: Rc<str>,
    pub file: u32,
    /// Line number before the first body line.
    pub line: u32,
}

/// A macro parameter.
#[derive(Debug)]
pub(crate) struct MacroParam {
    pub name: String,
    pub default: Option<String>,
    pub required: bool,
    pub vararg: bool,
}

/// The assembler.
pub(crate) struct Asm<'l> {
    pub options: &'l Options,
    pub loader: &'l dyn FileLoader,
    pub target: Option<Target>,
    pub code_object_version: u32,
    pub files: Vec<String>,
    pub frames: Vec<Frame<'l>>,
    /// The statement being assembled.
    pub cur: Loc<'l>,
    pub in_block_comment: bool,
    pub sections: Vec<Section>,
    pub current: usize,
    pub previous: usize,
    pub section_stack: Vec<(usize, usize)>,
    pub syms: Symbols,
    pub fixups: Vec<Pending<'l>>,
    pub conds: Vec<Cond>,
    pub macros: FxHashMap<String, Rc<Macro>>,
    pub macro_count: usize,
    pub diags: Vec<Diagnostic>,
    pub errors: usize,
    pub instructions: Vec<RecordedInstruction>,
    pub ended: bool,
    /// Encodings of instruction statements that name no symbol, by their text: real code
    /// repeats itself (577,000 lines of rocSPARSE hold about 30,000 distinct statements),
    /// and a lookup is much cheaper than parsing and encoding again.
    pub encodings: FxHashMap<Box<str>, ([u8; 16], u8)>,
    /// Text of `.amdgpu_metadata` blocks, with where the block ends.
    pub metadata: Vec<(String, Loc<'l>)>,
    /// What other threads assembled ahead in the root file.
    pub prepass: Option<Reader<'l>>,
    /// Variables' values as the end of assembly computes them.
    pub variable_values: super::resolve::VariableValues,
}

/// Assembles the file `name` with contents `text`.
pub fn assemble(
    name: &str,
    text: &str,
    options: &Options,
    loader: &dyn FileLoader,
) -> Result<Program, Failed> {
    let threads = threads_for(options.threads, text.len());
    let prepass = match threads {
        1 => None,
        _ => Prepass::new(text, options.target, threads),
    };
    let Some(prepass) = prepass else {
        return Asm::new(options, loader).assemble_root(name, text, None);
    };
    std::thread::scope(|scope| {
        // The metadata conversion gets a thread of its own: one long task that the
        // scheduler then shares out with the others, where a helper doing it first would
        // fall behind the sequential pass.
        let _ = std::thread::Builder::new()
            .name("gcn-asm-metadata".into())
            .spawn_scoped(scope, || prepass.prepare_metadata());
        for _ in 1..threads {
            // Without a thread, the calling thread prepares everything itself.
            let _ = std::thread::Builder::new()
                .name("gcn-asm-prepass".into())
                .spawn_scoped(scope, || prepass.work());
        }
        let result =
            Asm::new(options, loader).assemble_root(name, text, Some(Reader::new(&prepass)));
        prepass.finish();
        result
    })
}

impl<'l> Asm<'l> {
    fn new(options: &'l Options, loader: &'l dyn FileLoader) -> Asm<'l> {
        let text = Section {
            name: ".text".into(),
            sh_type: 1,
            flags: super::SHF_ALLOC | super::SHF_EXECINSTR,
            entsize: 0,
            align: 4,
            data: Vec::new(),
            relocations: Vec::new(),
        };
        Asm {
            options,
            loader,
            target: options.target,
            code_object_version: DEFAULT_CODE_OBJECT_VERSION,
            files: Vec::new(),
            frames: Vec::new(),
            cur: Loc {
                file: 0,
                line: 0,
                col: 1,
                text: Text::Root(""),
                start: 0,
                end: 0,
            },
            in_block_comment: false,
            sections: vec![text],
            current: 0,
            previous: 0,
            section_stack: Vec::new(),
            syms: Symbols::default(),
            fixups: Vec::new(),
            conds: Vec::new(),
            macros: FxHashMap::default(),
            macro_count: 0,
            diags: Vec::new(),
            errors: 0,
            instructions: Vec::new(),
            ended: false,
            encodings: FxHashMap::default(),
            metadata: Vec::new(),
            prepass: None,
            variable_values: Vec::new(),
        }
    }

    fn assemble_root(
        mut self,
        name: &str,
        text: &'l str,
        prepass: Option<Reader<'l>>,
    ) -> Result<Program, Failed> {
        self.files.push(name.to_string());
        self.frames
            .push(Frame::new(FrameKind::File, Text::Root(text), 0, 0));
        self.prepass = prepass;
        self.run();
        if let Some(reader) = &self.prepass {
            // What is left to prepare is not needed.
            reader.prepass().finish();
        }
        self.finish()
    }

    /// Reads and assembles statements until the input (or `.end`) is exhausted.
    fn run(&mut self) {
        while !self.ended {
            let Some(frame) = self.frames.last_mut() else {
                break;
            };
            let Some((start, end)) = frame.next_raw() else {
                self.frames.pop();
                continue;
            };
            self.cur = Loc {
                file: frame.file,
                line: frame.line,
                col: 1,
                text: frame.text.clone(),
                start,
                end,
            };
            if self.frames.len() == 1 && !self.in_block_comment && self.take_prepared(start, end) {
                continue;
            }
            let text = self.cur.text.clone();
            let line = strip_comments(&text[start..end], &mut self.in_block_comment);
            self.statement(&line);
        }
        if !self.conds.is_empty() {
            // Reported, as llvm-mc does, at the end of the input.
            let end = Loc {
                file: 0,
                line: self.cur.line + 1,
                col: 1,
                text: Text::Root(""),
                start: 0,
                end: 0,
            };
            self.report(Severity::Error, &end, "unmatched .ifs or .elses".into());
        }
    }

    /// Emits what the pre-pass assembled for the root-file line `start..end`, where that is
    /// what assembling the line now would give (see [`super::prepass`]); false when the
    /// line must be assembled the ordinary way.
    fn take_prepared(&mut self, start: usize, end: usize) -> bool {
        let Some(reader) = self.prepass.as_mut() else {
            return false;
        };
        let Some(prepared) = reader.at(start) else {
            return false;
        };
        if self.options.record_instructions
            || !self
                .target
                .is_some_and(|t| same_target(&t, &reader.prepass().target()))
            || !self.conds.last().is_none_or(|c| c.active)
        {
            return false;
        }
        let line = &self.cur.text[start..end];
        let col = skip_space(line, 0);
        if !self.macros.is_empty() && self.macros.contains_key(&line[col..word_end(line, col)]) {
            return false;
        }
        let values = self.syms.values();
        if prepared.names().any(|n| values.value(n).is_some()) {
            return false;
        }
        if let Some(bytes) = prepared.plain_bytes() {
            // Most lines: just the bytes.
            let data = &mut self.sections[self.current].data;
            if (data.len() + bytes.len()) as u64 <= self.options.max_section_size {
                data.extend_from_slice(bytes);
                return true;
            }
        }
        self.emit("", col, prepared.encoded());
        true
    }

    /// Assembles one line (comments already removed).
    fn statement(&mut self, line: &str) {
        let mut pos = skip_space(line, 0);
        if pos == line.len() {
            return;
        }
        if !self.conds.last().is_none_or(|c| c.active) {
            self.inactive_statement(line, pos);
            return;
        }
        // Labels: `name:` (several may precede a statement).
        while let Some((name_end, after)) = label_at(line, pos) {
            self.define_label(&line[pos..name_end], pos);
            pos = skip_space(line, after);
            if pos == line.len() {
                return;
            }
        }
        let word_end = word_end(line, pos);
        let word = &line[pos..word_end];
        let after = skip_space(line, word_end);
        if line[after..].starts_with('=') && !line[after..].starts_with("==") {
            self.assignment(word, pos, &line[after + 1..], after + 1);
            return;
        }
        if word.starts_with('.') && !self.macros.contains_key(word) {
            self.directive(word, pos, &line[after..], after);
        } else if let Some(m) = self.macros.get(word).cloned() {
            self.expand_macro(word, &m, &line[after..], after);
        } else {
            self.instruction(&line[pos..], pos);
        }
    }

    /// While a conditional is false, only the nesting of conditionals is followed.
    fn inactive_statement(&mut self, line: &str, pos: usize) {
        let word_end = word_end(line, pos);
        let word = line[pos..word_end].to_ascii_lowercase();
        if word.starts_with(".if") {
            self.conds.push(Cond {
                active: false,
                taken: true,
                parent: false,
                in_else: false,
            });
        } else if matches!(word.as_str(), ".else" | ".elseif" | ".endif") {
            let after = skip_space(line, word_end);
            self.directive(&line[pos..word_end], pos, &line[after..], after);
        }
    }

    /// Defines a label at the current location.
    fn define_label(&mut self, name: &str, col: usize) {
        let i = self.syms.get_or_create(name);
        let sym = &mut self.syms.list[i];
        if !matches!(sym.def, Def::Undefined) {
            self.error_at(col, format!("symbol '{name}' is already defined"));
            return;
        }
        sym.def = Def::Label {
            section: self.current,
            offset: self.sections[self.current].data.len() as u64,
        };
    }

    /// `name = expr`.
    fn assignment(&mut self, name: &str, col: usize, rest: &str, rest_col: usize) {
        if let Some(e) = self.parse_expr_all(rest, rest_col) {
            let expr_col = rest_col + (rest.len() - rest.trim_start().len());
            self.set_symbol(name, col, expr_col, e);
        }
    }

    /// Gives `name` the value of `e` (`.set`, `=`, `.equ`); `expr_col` is where `e` starts,
    /// where llvm-mc reports an assignment it refuses.
    pub(crate) fn set_symbol(&mut self, name: &str, col: usize, expr_col: usize, mut e: Expr) {
        self.syms.touch(&e);
        let i = self.syms.get_or_create(name);
        if let Some(why) = self.syms.assignment_error(i, &e) {
            let message = match why {
                AssignmentError::RecursiveUse => format!("Recursive use of '{name}'"),
                AssignmentError::NonAbsoluteReassignment => {
                    format!("invalid reassignment of non-absolute variable '{name}'")
                }
            };
            self.error_at(expr_col, message);
            return;
        }
        let def = match &e {
            Expr::Dot => Def::Label {
                section: self.current,
                offset: self.sections[self.current].data.len() as u64,
            },
            _ => match e.eval(&self.syms.values()) {
                Ok(v) => Def::Value(Expr::Num(v)),
                Err(_) => {
                    self.pin_operands(&mut e);
                    Def::Value(e)
                }
            },
        };
        if matches!(self.syms.list[i].def, Def::Label { .. }) {
            self.error_at(col, "redefinition of label");
            return;
        }
        self.syms.define(i, def);
    }

    /// Fixes what a variable's value means at its definition, as llvm-mc does: a constant
    /// variable stands for its current value, and `.` for the location of the assignment
    /// (a temporary label). The value then no longer depends on where it is used, or on
    /// later reassignments, so that it can be computed once.
    fn pin_operands(&mut self, e: &mut Expr) {
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            match e {
                Expr::Sym {
                    name,
                    variant: Variant::None,
                } => {
                    if let Some(n) =
                        self.syms
                            .index(name)
                            .and_then(|k| match self.syms.list[k].def {
                                Def::Value(Expr::Num(n)) => Some(n),
                                _ => None,
                            })
                    {
                        *e = Expr::Num(n);
                    }
                }
                Expr::Dot => {
                    // A name no statement can write: lines never hold a newline.
                    let name = format!(".L\n{}", self.syms.list.len());
                    let k = self.syms.get_or_create(&name);
                    self.syms.list[k].def = Def::Label {
                        section: self.current,
                        offset: self.sections[self.current].data.len() as u64,
                    };
                    *e = Expr::Sym {
                        name,
                        variant: Variant::None,
                    };
                }
                Expr::Unary(_, a) => work.push(a),
                Expr::Binary(_, a, b) => {
                    work.push(a);
                    work.push(b);
                }
                Expr::Num(_) | Expr::Sym { .. } => {}
            }
        }
    }

    /// Assembles an instruction statement starting at column `col` of the line.
    fn instruction(&mut self, stmt: &str, col: usize) {
        let Some(target) = self.target else {
            self.error_at(
                col,
                "no target: give --mcpu or an .amdgcn_target directive before the first instruction",
            );
            return;
        };
        let stmt = stmt.trim_end();
        if let Some(&(bytes, len)) = self.encodings.get(stmt) {
            let enc = crate::Encoded {
                bytes,
                len,
                fixups: Vec::new(),
            };
            self.emit(stmt, col, enc);
            return;
        }
        let values = Tracking::new(self.syms.values());
        let result = assemble_instruction(&target, stmt, &values);
        let enc = match result {
            Ok(enc) => enc,
            Err(errs) => {
                for e in errs {
                    self.error_at(col + e.span.start, e.message);
                }
                return;
            }
        };
        // The same text assembles to the same bytes unless it named a symbol.
        if !values.consulted.get() && enc.fixups.is_empty() {
            if self.encodings.len() >= MAX_CACHED_ENCODINGS {
                self.encodings.clear();
            }
            self.encodings.insert(stmt.into(), (enc.bytes, enc.len));
        }
        self.emit(stmt, col, enc);
    }

    /// Appends an assembled instruction to the current section.
    fn emit(&mut self, stmt: &str, col: usize, enc: crate::Encoded) {
        let section = self.current;
        let offset = self.sections[section].data.len() as u64;
        if offset + enc.len as u64 > self.options.max_section_size {
            self.error_at(col, self.too_large());
            self.ended = true;
            return;
        }
        if self.options.record_instructions {
            self.record(stmt, offset, &enc);
        }
        self.sections[section]
            .data
            .extend_from_slice(enc.as_bytes());
        for f in enc.fixups {
            self.syms.touch(&f.expr);
            let loc = self.loc_at(col);
            self.fixups.push(Pending {
                section,
                at: offset + f.offset as u64,
                pc: offset,
                patch: Patch::Instruction(f.kind),
                expr: f.expr,
                loc,
            });
        }
    }

    fn record(&mut self, stmt: &str, offset: u64, enc: &crate::Encoded) {
        let fixups = enc
            .fixups
            .iter()
            .map(|f| {
                let width = match f.kind {
                    FixupKind::Literal32 => 4,
                    FixupKind::BranchSimm16 => 2,
                };
                let start = f.offset as usize;
                let kind = match f.kind {
                    FixupKind::BranchSimm16 => "fixup_si_sopp_br",
                    FixupKind::Literal32 if super::resolve::is_pc_relative(&f.expr) => "FK_PCRel_4",
                    FixupKind::Literal32 => "FK_Data_4",
                };
                let note = format!("{}, kind: {kind}", super::resolve::expr_text(&f.expr));
                (start..start + width, note)
            })
            .collect();
        self.instructions.push(RecordedInstruction {
            section: self.current,
            offset,
            bytes: enc.as_bytes().to_vec(),
            fixups,
            source: stmt.to_string(),
        });
    }

    /// The error for a section that would grow too large.
    pub(crate) fn too_large(&self) -> String {
        let max = self.options.max_section_size;
        if max >= 1 << 30 && max.is_multiple_of(1 << 30) {
            format!("section would grow past {} GiB", max >> 30)
        } else {
            format!("section would grow past {max} bytes")
        }
    }

    /// A location `col` bytes into the current line.
    pub(crate) fn loc_at(&self, col: usize) -> Loc<'l> {
        Loc {
            col: col as u32 + 1,
            ..self.cur.clone()
        }
    }

    /// Reports an error `col` bytes into the current line.
    pub(crate) fn error_at(&mut self, col: usize, message: impl Into<String>) {
        let loc = self.loc_at(col);
        self.report(Severity::Error, &loc, message.into());
    }

    /// Reports a warning `col` bytes into the current line.
    pub(crate) fn warn_at(&mut self, col: usize, message: impl Into<String>) {
        let loc = self.loc_at(col);
        self.report(Severity::Warning, &loc, message.into());
    }

    pub(crate) fn report(&mut self, severity: Severity, loc: &Loc<'_>, message: String) {
        if self.diags.len() >= MAX_DIAGNOSTICS {
            // A repetition of a bad line would otherwise report without end.
            self.ended = true;
            return;
        }
        if severity == Severity::Error {
            self.errors += 1;
        }
        let file = self
            .files
            .get(loc.file as usize)
            .cloned()
            .unwrap_or_default();
        self.diags.push(Diagnostic {
            severity,
            file,
            line: loc.line,
            col: loc.col,
            message,
            source_line: loc.text.get(loc.start..loc.end).unwrap_or("").to_string(),
        });
    }

    /// Parses the whole of `text` (at column `col`) as one expression; reports and returns
    /// `None` on a syntax error.
    pub(crate) fn parse_expr_all(&mut self, text: &str, col: usize) -> Option<Expr> {
        let mut lex = crate::lex::Lexer::new(text);
        match crate::expr::parse_expr(&mut lex, true) {
            Ok(e) => {
                let t = lex.next_token();
                if t.tok != crate::lex::Tok::Eof {
                    self.error_at(col + t.start, "unexpected token");
                    return None;
                }
                Some(e)
            }
            Err(e) => {
                self.error_at(col + e.span.start, e.message);
                None
            }
        }
    }

    /// Pushes a frame of expanded text, unless nesting is too deep.
    pub(crate) fn push_frame(&mut self, mut frame: Frame<'l>, col: usize) -> bool {
        if self.frames.len() >= MAX_NESTING {
            self.error_at(col, "macros, repetitions or includes nested too deeply");
            return false;
        }
        frame.cond_depth = self.conds.len();
        self.frames.push(frame);
        true
    }

    fn finish(mut self) -> Result<Program, Failed> {
        self.emit_metadata();
        let program = self.resolve();
        if self.errors > 0 {
            return Err(Failed {
                diagnostics: self.diags,
            });
        }
        let mut program = program.ok_or_else(|| Failed {
            diagnostics: self.diags.clone(),
        })?;
        program.warnings = self.diags;
        Ok(program)
    }
}

/// True if `a` and `b` are the same processor with the same features (without comparing the
/// processors' descriptions field by field).
fn same_target(a: &Target, b: &Target) -> bool {
    std::ptr::eq(a.processor, b.processor) && a.xnack == b.xnack && a.sramecc == b.sramecc
}

/// The first position at or after `pos` that is not a space.
pub(crate) fn skip_space(s: &str, mut pos: usize) -> usize {
    let b = s.as_bytes();
    while pos < b.len() && b[pos].is_ascii_whitespace() {
        pos += 1;
    }
    pos
}

/// The end of the word (identifier-like run) at `pos`.
pub(crate) fn word_end(s: &str, pos: usize) -> usize {
    let b = s.as_bytes();
    let mut i = pos;
    while i < b.len() && (crate::lex::is_ident_char(b[i]) || b[i] == b'\\') {
        i += 1;
    }
    if i == pos {
        // Not a word: take up to the next space.
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
    }
    i
}

/// If a label definition `name:` starts at `pos`, the end of the name and the position
/// after the colon.
fn label_at(s: &str, pos: usize) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    if !b.get(pos).is_some_and(|&c| crate::lex::is_ident_start(c)) {
        return None;
    }
    let mut end = pos + 1;
    while end < b.len() && crate::lex::is_ident_char(b[end]) {
        end += 1;
    }
    let colon = skip_space(s, end);
    (b.get(colon) == Some(&b':') && b.get(colon + 1) != Some(&b':')).then_some((end, colon + 1))
}
