//! Whole programs: the assembler language around the instructions.
//!
//! [`assemble`] reads a source file (and what it includes), expands macros, repetitions and
//! conditionals, runs the directives (sections, data, alignment, symbols, the AMDGPU
//! target directives) and assembles each instruction with
//! [`assemble_instruction`](crate::assemble_instruction). There is one pass over the source:
//! AMDGPU instructions never change size once assembled, so every label's offset is final
//! when it is defined, and what refers forward is recorded as a fixup and resolved at the end
//! ([`resolve`]) into bytes or an ELF relocation. Every error of the file is reported, each
//! with its file, line and column.

mod data;
mod directives;
pub mod elf;
mod input;
mod kernel;
mod prepass;
mod resolve;
mod state;
mod symbols;

use std::fmt;

use gcnkit_isa::Target;

pub use input::{FileLoader, FsLoader, NoIncludes};
pub use state::assemble;

/// Options of an assembly run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The target given on the command line; `None` takes it from `.amdgcn_target`, which
    /// is then required.
    pub target: Option<Target>,
    /// Record each instruction for an llvm-mc `-show-encoding` listing
    /// ([`Program::instructions`]).
    pub record_instructions: bool,
    /// Largest section size in bytes; a source that would grow a section beyond it (a
    /// mistyped `.fill` count, a runaway `.rept`) stops with an error.
    pub max_section_size: u64,
    /// Threads that assemble the root file's instruction statements ahead of the one
    /// sequential pass: 0 uses one per core for files of 1 MiB or more, 1 none; 2 or more
    /// that many for any file. The output does not depend on it.
    pub threads: usize,
}

impl Default for Options {
    /// No target given, no instruction record, sections of up to 1 GiB, threads chosen by
    /// the file's size.
    fn default() -> Options {
        Options {
            target: None,
            record_instructions: false,
            max_section_size: 1 << 30,
            threads: 0,
        }
    }
}

/// The result of assembling a file.
#[derive(Debug)]
pub struct Program {
    /// The target the code was assembled for.
    pub target: Target,
    /// `.amdhsa_code_object_version`, or LLVM 19's default (5).
    pub code_object_version: u32,
    /// Sections in order of first appearance.
    pub sections: Vec<Section>,
    /// Symbols: every label and `.set` symbol that is not an assembler-local `.L` name, and
    /// every undefined symbol that a relocation refers to.
    pub symbols: Vec<Symbol>,
    /// The instructions in source order, when [`Options::record_instructions`] is set.
    pub instructions: Vec<RecordedInstruction>,
    /// Warnings (errors stop assembly from returning a program).
    pub warnings: Vec<Diagnostic>,
}

/// A section of the output.
#[derive(Clone, Debug)]
pub struct Section {
    /// Name, e.g. `.text`.
    pub name: String,
    /// ELF `sh_type` (SHT_PROGBITS = 1, SHT_NOBITS = 8, SHT_NOTE = 7).
    pub sh_type: u32,
    /// ELF `sh_flags` (SHF_WRITE = 1, SHF_ALLOC = 2, SHF_EXECINSTR = 4, SHF_MERGE = 0x10,
    /// SHF_STRINGS = 0x20).
    pub flags: u64,
    /// `sh_entsize`.
    pub entsize: u64,
    /// Alignment in bytes (a power of two).
    pub align: u64,
    /// The contents (zeros for SHT_NOBITS, whose size is `data.len()`).
    pub data: Vec<u8>,
    /// Relocations against the contents, by offset.
    pub relocations: Vec<Relocation>,
}

impl Section {
    /// True for sections of machine code.
    pub fn is_code(&self) -> bool {
        self.flags & SHF_EXECINSTR != 0
    }
}

/// ELF section flag: writable.
pub const SHF_WRITE: u64 = 1;
/// ELF section flag: occupies memory at run time.
pub const SHF_ALLOC: u64 = 2;
/// ELF section flag: machine code.
pub const SHF_EXECINSTR: u64 = 4;

/// An ELF relocation (with addend).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relocation {
    /// Offset in the section.
    pub offset: u64,
    /// `R_AMDGPU_*` type.
    pub r_type: u32,
    /// Index into [`Program::symbols`], or `None` for the section's own symbol of
    /// `section` (how relocations against assembler-local labels are written).
    pub symbol: RelocTarget,
    /// Addend.
    pub addend: i64,
}

/// What a relocation refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocTarget {
    /// A symbol of [`Program::symbols`].
    Symbol(usize),
    /// The start of a section (index into [`Program::sections`]).
    Section(usize),
    /// No symbol (symbol index 0): the addend is the whole value, as llvm-mc writes an
    /// absolute value in a PC-relative field.
    Absolute,
}

/// ELF symbol binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// STB_LOCAL.
    Local,
    /// STB_GLOBAL.
    Global,
    /// STB_WEAK.
    Weak,
}

/// A symbol of the output.
#[derive(Clone, Debug)]
pub struct Symbol {
    /// Name.
    pub name: String,
    /// Section it is defined in; `None` for undefined and absolute symbols.
    pub section: Option<usize>,
    /// Value: the offset in its section, or the absolute value.
    pub value: u64,
    /// True if defined (in a section, or absolute through `.set`).
    pub defined: bool,
    /// Binding.
    pub binding: Binding,
    /// ELF `st_type` (STT_NOTYPE 0, STT_OBJECT 1, STT_FUNC 2, STT_SECTION 3, STT_GNU_IFUNC 10).
    pub st_type: u8,
    /// ELF `st_other` visibility (STV_DEFAULT 0, STV_INTERNAL 1, STV_HIDDEN 2, STV_PROTECTED 3).
    pub visibility: u8,
    /// `.size`.
    pub size: u64,
}

/// An instruction as assembled, for `-show-encoding` listings.
#[derive(Clone, Debug)]
pub struct RecordedInstruction {
    /// Section index.
    pub section: usize,
    /// Offset in the section.
    pub offset: u64,
    /// The encoding as first assembled: bytes that fixups fill in later are zero here.
    pub bytes: Vec<u8>,
    /// Byte ranges (within the instruction) that a fixup fills in, with the expression text
    /// as written.
    pub fixups: Vec<(std::ops::Range<usize>, String)>,
    /// The statement as written (without label and comment).
    pub source: String,
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Assembly fails.
    Error,
    /// Reported; assembly goes on.
    Warning,
    /// Context for the diagnostic before it (e.g. the macro instantiation).
    Note,
}

/// One problem in the source, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// File name as given.
    pub file: String,
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1 (in bytes).
    pub col: u32,
    /// The message.
    pub message: String,
    /// The source line (without its newline).
    pub source_line: String,
}

impl fmt::Display for Diagnostic {
    /// llvm-mc's layout: `file:line:col: error: message`, the source line, and a caret
    /// under the column (tabs kept so that the caret lines up).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        writeln!(
            f,
            "{}:{}:{}: {kind}: {}",
            self.file, self.line, self.col, self.message
        )?;
        writeln!(f, "{}", self.source_line)?;
        let caret: String = self
            .source_line
            .bytes()
            .take(self.col.saturating_sub(1) as usize)
            .map(|b| if b == b'\t' { '\t' } else { ' ' })
            .collect();
        write!(f, "{caret}^")
    }
}

/// Assembly failed: every error found (and the warnings before them).
#[derive(Clone, Debug)]
pub struct Failed {
    /// Errors, warnings and notes in source order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Failed {
    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
}

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.diagnostics {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Failed {}
