//! Directives: sections, symbols, conditionals, macros and repetitions, includes and the
//! AMDGPU target directives. Data and alignment directives are in `data.rs`.

use std::rc::Rc;

use gcnkit_isa::Target;

use super::input::{Frame, FrameKind, Text};
use super::state::{skip_space, word_end, Asm, Cond, Macro, MacroParam};
use super::symbols::Def;
use super::{Binding, Section, SHF_ALLOC, SHF_EXECINSTR, SHF_WRITE};

/// Directives llvm-mc accepts that change nothing gcnkit writes (debug line info, call
/// frame info, identification strings, address-significance tables).
const IGNORED: &[&str] = &[
    ".addrsig",
    ".addrsig_sym",
    ".file",
    ".loc",
    ".cfi_sections",
    ".cfi_startproc",
    ".cfi_endproc",
    ".cfi_def_cfa",
    ".cfi_def_cfa_offset",
    ".cfi_def_cfa_register",
    ".cfi_offset",
    ".cfi_escape",
    ".cfi_register",
    ".cfi_undefined",
    ".cfi_llvm_def_aspace_cfa",
    ".cfi_restore",
    ".cfi_same_value",
];

impl Asm<'_> {
    /// Runs the directive `name` (written at column `col`) with its arguments `args`
    /// (starting at column `args_col`).
    pub(crate) fn directive(&mut self, name: &str, col: usize, args: &str, args_col: usize) {
        let lower = name.to_ascii_lowercase();
        if self.data_directive(&lower, col, args, args_col)
            || self.conditional(&lower, col, args, args_col)
            || self.section_directive(&lower, col, args, args_col)
            || self.symbol_directive(&lower, col, args, args_col)
            || self.block_directive(&lower, col, args, args_col)
            || self.target_directive(&lower, col, args, args_col)
        {
            return;
        }
        if IGNORED.contains(&lower.as_str()) || lower.starts_with(".cfi_") {
            return;
        }
        self.error_at(col, "unknown directive");
    }

    fn section_directive(&mut self, name: &str, col: usize, args: &str, args_col: usize) -> bool {
        match name {
            ".text" | ".data" | ".bss" | ".rodata" => self.switch_section(name, None, None, col),
            ".section" | ".pushsection" => {
                let prev = (self.current, self.previous);
                self.section(args, args_col);
                if name == ".pushsection" {
                    self.section_stack.push(prev);
                }
            }
            ".popsection" => match self.section_stack.pop() {
                Some((cur, prev)) => (self.current, self.previous) = (cur, prev),
                None => self.error_at(col, ".popsection without corresponding .pushsection"),
            },
            ".previous" => std::mem::swap(&mut self.current, &mut self.previous),
            _ => return false,
        }
        true
    }

    /// `.section name[, "flags"[, @type[, entsize]]]`.
    fn section(&mut self, args: &str, args_col: usize) {
        let parts = split_args(args);
        let Some(&(at, name)) = parts.first() else {
            self.error_at(args_col, "expected identifier in directive");
            return;
        };
        let name = name.trim_matches('"');
        let flags = match parts.get(1) {
            Some(&(fat, f)) => {
                let f = f.trim();
                let Some(f) = f.strip_prefix('"').and_then(|f| f.strip_suffix('"')) else {
                    self.error_at(args_col + fat, "expected string in directive");
                    return;
                };
                let mut bits = 0;
                for c in f.chars() {
                    bits |= match c {
                        'a' => SHF_ALLOC,
                        'w' => SHF_WRITE,
                        'x' => SHF_EXECINSTR,
                        'M' => 0x10,
                        'S' => 0x20,
                        'G' => 0x200,
                        'T' => 0x400,
                        'R' => 0x0010_0000,
                        'o' => 0x80,
                        _ => {
                            self.error_at(args_col + fat, "unknown flag");
                            return;
                        }
                    };
                }
                Some(bits)
            }
            None => None,
        };
        let sh_type = match parts.get(2).map(|p| p.1.trim()) {
            None => None,
            Some("@progbits" | "%progbits") => Some(1),
            Some("@nobits" | "%nobits") => Some(8),
            Some("@note" | "%note") => Some(7),
            Some("@init_array" | "%init_array") => Some(14),
            Some("@fini_array" | "%fini_array") => Some(15),
            Some(_) => {
                self.error_at(args_col + parts[2].0, "unknown section type");
                return;
            }
        };
        let entsize = parts.get(3).and_then(|p| p.1.trim().parse::<u64>().ok());
        self.switch_section(name, flags, sh_type, args_col + at);
        if let Some(e) = entsize {
            self.sections[self.current].entsize = e;
        }
    }

    /// Makes `name` the current section, creating it with `flags` and `sh_type` (or the
    /// defaults its name implies).
    fn switch_section(
        &mut self,
        name: &str,
        flags: Option<u64>,
        sh_type: Option<u32>,
        _col: usize,
    ) {
        self.previous = self.current;
        if let Some(i) = self.sections.iter().position(|s| s.name == name) {
            self.current = i;
            return;
        }
        let (default_flags, default_type) = default_section_kind(name);
        self.sections.push(Section {
            name: name.to_string(),
            sh_type: sh_type.unwrap_or(default_type),
            flags: flags.unwrap_or(default_flags),
            entsize: 0,
            align: 1,
            data: Vec::new(),
            relocations: Vec::new(),
        });
        self.current = self.sections.len() - 1;
    }

    fn symbol_directive(&mut self, name: &str, col: usize, args: &str, args_col: usize) -> bool {
        match name {
            ".globl" | ".global" | ".weak" | ".local" | ".hidden" | ".protected" | ".internal" => {
                for (at, sym) in split_args(args) {
                    let sym = sym.trim();
                    if sym.is_empty() {
                        self.error_at(args_col + at, "expected identifier");
                        continue;
                    }
                    let i = self.syms.get_or_create(sym);
                    let s = &mut self.syms.list[i];
                    match name {
                        ".globl" | ".global" => s.binding = Some(Binding::Global),
                        ".weak" => s.binding = Some(Binding::Weak),
                        ".local" => s.binding = Some(Binding::Local),
                        ".hidden" => s.visibility = 2,
                        ".protected" => s.visibility = 3,
                        _ => s.visibility = 1,
                    }
                }
            }
            ".type" => self.type_directive(args, args_col),
            ".size" => {
                let parts = split_args(args);
                if parts.len() != 2 {
                    self.error_at(args_col, "expected comma");
                    return true;
                }
                let i = self.syms.get_or_create(parts[0].1.trim());
                if let Some(e) = self.parse_expr_all(parts[1].1, args_col + parts[1].0) {
                    let dot = (self.current, self.sections[self.current].data.len() as u64);
                    self.syms.list[i].size = Some((e, dot));
                }
            }
            ".set" | ".equ" | ".equiv" => {
                let parts = split_args(args);
                if parts.len() != 2 {
                    self.error_at(args_col, "expected comma");
                    return true;
                }
                let sym = parts[0].1.trim();
                if name == ".equiv"
                    && self
                        .syms
                        .index(sym)
                        .is_some_and(|i| !matches!(self.syms.list[i].def, Def::Undefined))
                {
                    self.error_at(args_col, format!("redefinition of '{sym}'"));
                    return true;
                }
                let (at, text) = parts[1];
                if let Some(e) = self.parse_expr_all(text, args_col + at) {
                    let expr_col = args_col + at + (text.len() - text.trim_start().len());
                    self.set_symbol(sym, args_col, expr_col, e);
                }
            }
            _ => {
                let _ = col;
                return false;
            }
        }
        true
    }

    /// `.type sym, @function` (also `%function`, `"function"`, `STT_FUNC`).
    fn type_directive(&mut self, args: &str, args_col: usize) {
        let parts = split_args(args);
        if parts.len() != 2 {
            self.error_at(args_col, "expected comma");
            return;
        }
        let kind = parts[1]
            .1
            .trim()
            .trim_start_matches(['@', '%'])
            .trim_matches('"');
        let st_type = match kind {
            "function" | "STT_FUNC" => 2,
            "object" | "STT_OBJECT" => 1,
            "notype" | "STT_NOTYPE" => 0,
            "tls_object" | "STT_TLS" => 6,
            "common" | "STT_COMMON" => 5,
            "gnu_indirect_function" | "STT_GNU_IFUNC" => 10,
            "gnu_unique_object" => 1,
            "amdgpu_hsa_kernel" => 10,
            _ => {
                self.error_at(args_col + parts[1].0, "unsupported attribute");
                return;
            }
        };
        let i = self.syms.get_or_create(parts[0].1.trim());
        self.syms.list[i].st_type = st_type;
    }

    fn conditional(&mut self, name: &str, col: usize, args: &str, args_col: usize) -> bool {
        let parent = self.conds.last().is_none_or(|c| c.active);
        match name {
            ".if" | ".ifne" | ".ifeq" | ".ifgt" | ".ifge" | ".iflt" | ".ifle" => {
                let v = self.const_expr(args, args_col).unwrap_or(0);
                let holds = match name {
                    ".if" | ".ifne" => v != 0,
                    ".ifeq" => v == 0,
                    ".ifgt" => v > 0,
                    ".ifge" => v >= 0,
                    ".iflt" => v < 0,
                    _ => v <= 0,
                };
                self.push_cond(parent, holds);
            }
            ".ifdef" | ".ifndef" | ".ifnotdef" => {
                let defined = self
                    .syms
                    .index(args.trim())
                    .is_some_and(|i| !matches!(self.syms.list[i].def, Def::Undefined));
                self.push_cond(parent, defined == (name == ".ifdef"));
            }
            ".ifb" | ".ifnb" => self.push_cond(parent, args.trim().is_empty() == (name == ".ifb")),
            ".ifc" | ".ifnc" => {
                let parts = split_args(args);
                let same =
                    parts.len() == 2 && unquote(parts[0].1.trim()) == unquote(parts[1].1.trim());
                self.push_cond(parent, same == (name == ".ifc"));
            }
            ".else" | ".elseif" => {
                let Some(c) = self.conds.last().copied() else {
                    self.error_at(
                        col,
                        format!("Encountered a {name} that doesn't follow an .if or an .elseif"),
                    );
                    return true;
                };
                if c.in_else {
                    self.error_at(
                        col,
                        format!("Encountered a {name} that doesn't follow an .if or an .elseif"),
                    );
                    return true;
                }
                let holds = if name == ".else" {
                    true
                } else if c.parent && !c.taken {
                    self.const_expr(args, args_col).unwrap_or(0) != 0
                } else {
                    false
                };
                let level = self.conds.last_mut().expect("checked above");
                level.active = c.parent && !c.taken && holds;
                level.taken |= level.active;
                level.in_else = name == ".else";
            }
            ".endif" => {
                if self.conds.pop().is_none() {
                    self.error_at(
                        col,
                        "Encountered a .endif that doesn't follow an .if or .else",
                    );
                }
            }
            _ => return false,
        }
        true
    }

    fn push_cond(&mut self, parent: bool, holds: bool) {
        self.conds.push(Cond {
            active: parent && holds,
            taken: parent && holds,
            parent,
            in_else: false,
        });
    }

    /// Evaluates `text` as an expression that must be absolute now.
    pub(crate) fn const_expr(&mut self, text: &str, col: usize) -> Option<i64> {
        let e = self.parse_expr_all(text, col)?;
        match e.eval(&self.syms.values()) {
            Ok(v) => Some(v),
            Err(_) => {
                self.error_at(col, "expected absolute expression");
                None
            }
        }
    }

    fn block_directive(&mut self, name: &str, col: usize, args: &str, args_col: usize) -> bool {
        match name {
            ".macro" => self.define_macro(args, args_col),
            ".purgem" => self.purge_macro(args, args_col, col),
            ".rept" => {
                let count = self.const_expr(args, args_col);
                let Some((body, line)) =
                    self.collect_body(&[".rept", ".irp", ".irpc"], ".endr", col)
                else {
                    return true;
                };
                // The body is read `count` times from one copy, so that a large count
                // costs time, not memory.
                let count = count.unwrap_or(0).max(0) as u64;
                if count > 0 {
                    self.push_repeat(body, line, col, count - 1);
                }
            }
            ".irp" | ".irpc" => self.irp(name, col, args, args_col),
            ".endr" => self.error_at(col, "unexpected '.endr' directive, no current .rept"),
            ".endm" | ".endmacro" => self.error_at(
                col,
                "unexpected '.endm' in file, no current macro definition",
            ),
            ".exitm" => self.exit_macro(col),
            ".include" => self.include(args, args_col),
            ".end" => self.ended = true,
            ".err" => self.error_at(col, ".err encountered"),
            ".error" => self.error_at(col, unquote(args.trim()).to_string()),
            ".warning" => self.warn_at(col, unquote(args.trim()).to_string()),
            ".print" => {
                let msg = unquote(args.trim()).to_string();
                self.report(super::Severity::Note, &self.loc_at(col), msg);
            }
            _ => return false,
        }
        true
    }

    /// Reads the lines up to the matching `end` directive (nested `starts` count) from the
    /// current frame; returns the body text (newline-terminated lines) and the line number
    /// before its first line.
    pub(crate) fn collect_body(
        &mut self,
        starts: &[&str],
        end: &str,
        col: usize,
    ) -> Option<(String, u32)> {
        let frame = self.frames.last_mut()?;
        let first_line = frame.line;
        let mut depth = 0usize;
        let mut body = String::new();
        while let Some((s, e)) = frame.next_raw() {
            let raw = &frame.text[s..e];
            let word = first_word(raw);
            let is = |name: &str| word.eq_ignore_ascii_case(name);
            if starts.iter().any(|s| is(s)) {
                depth += 1;
            } else if is(end) || (end == ".endm" && is(".endmacro")) {
                if depth == 0 {
                    return Some((body, first_line));
                }
                depth -= 1;
            }
            body.push_str(raw);
            body.push('\n');
        }
        self.error_at(col, format!("no matching '{end}' directive"));
        None
    }

    /// Reads `text` (whose first line is line `line + 1`) once and then `again` more times.
    fn push_repeat(&mut self, text: String, line: u32, col: usize, again: u64) {
        if text.is_empty() {
            return;
        }
        let file = self.cur.file;
        let mut frame = Frame::new(FrameKind::Repeat, Text::from(text), file, line);
        frame.repeats_left = again;
        self.push_frame(frame, col);
    }

    /// `.irp sym, values...` and `.irpc sym, chars`.
    fn irp(&mut self, name: &str, col: usize, args: &str, args_col: usize) {
        let parts = split_args(args);
        let Some((body, line)) = self.collect_body(&[".rept", ".irp", ".irpc"], ".endr", col)
        else {
            return;
        };
        let Some(&(_, param)) = parts.first() else {
            self.error_at(args_col, "expected identifier in '.irp' directive");
            return;
        };
        let param = param.trim();
        let values: Vec<String> = if name == ".irpc" {
            parts
                .get(1)
                .map(|p| p.1.trim().chars().map(String::from).collect())
                .unwrap_or_default()
        } else {
            parts[1..].iter().map(|p| p.1.trim().to_string()).collect()
        };
        let mut text = String::new();
        for v in &values {
            text.push_str(&substitute(&body, &[(param, v.as_str())], None));
        }
        self.push_repeat(text, line, col, 0);
    }

    /// `.macro name params...`: records the body up to `.endm`.
    /// `.purgem NAME`: forgets a macro.
    fn purge_macro(&mut self, args: &str, args_col: usize, col: usize) {
        let start = skip_space(args, 0);
        let end = word_end(args, start);
        let name = &args[start..end];
        if name.is_empty() || !crate::lex::is_ident_start(name.as_bytes()[0]) {
            self.error_at(
                args_col + start,
                "expected identifier in '.purgem' directive",
            );
            return;
        }
        let rest = skip_space(args, end);
        if rest < args.len() {
            self.error_at(args_col + rest, "expected newline");
            return;
        }
        if self.macros.remove(name).is_none() {
            self.error_at(col, format!("macro '{name}' is not defined"));
        }
    }

    fn define_macro(&mut self, args: &str, args_col: usize) {
        let args = args.trim();
        let name_end = word_end(args, 0);
        let name = args[..name_end].to_string();
        let mut params = Vec::new();
        for (_, p) in split_params(&args[name_end..]) {
            let (p, default) = match p.split_once('=') {
                Some((n, d)) => (n.trim(), Some(d.trim().to_string())),
                None => (p.trim(), None),
            };
            let (pname, qual) = match p.split_once(':') {
                Some((n, q)) => (n.trim(), q.trim()),
                None => (p, ""),
            };
            params.push(MacroParam {
                name: pname.to_string(),
                default,
                required: qual == "req",
                vararg: qual == "vararg",
            });
        }
        let Some((body, line)) = self.collect_body(&[".macro"], ".endm", args_col) else {
            return;
        };
        if name.is_empty() {
            self.error_at(args_col, "expected identifier in '.macro' directive");
            return;
        }
        if self.macros.contains_key(&name) {
            self.error_at(args_col, format!("macro '{name}' is already defined"));
            return;
        }
        let file = self.cur.file;
        self.macros.insert(
            name,
            Rc::new(Macro {
                params,
                body: Rc::from(body),
                file,
                line,
            }),
        );
    }

    /// Expands a macro invocation.
    pub(crate) fn expand_macro(&mut self, name: &str, m: &Macro, args: &str, args_col: usize) {
        let given = split_params(args);
        let mut values: Vec<(&str, String)> = Vec::new();
        for (i, p) in m.params.iter().enumerate() {
            let value = if p.vararg {
                given
                    .get(i..)
                    .map(|rest| {
                        rest.iter()
                            .map(|g| g.1.trim())
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .unwrap_or_default()
            } else {
                given
                    .get(i)
                    .map(|g| g.1.trim().to_string())
                    .unwrap_or_default()
            };
            let value = match (&p.default, value.is_empty()) {
                (Some(d), true) => d.clone(),
                _ => value,
            };
            if p.required && value.is_empty() {
                self.error_at(
                    args_col,
                    format!(
                        "missing value for required parameter '{}' in macro '{name}'",
                        p.name
                    ),
                );
                return;
            }
            values.push((p.name.as_str(), value));
        }
        if given.len() > m.params.len() && !m.params.last().is_some_and(|p| p.vararg) {
            self.error_at(args_col, "too many positional arguments");
            return;
        }
        self.macro_count += 1;
        let pairs: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let text = substitute(&m.body, &pairs, Some(self.macro_count - 1));
        let frame = Frame::new(FrameKind::Macro, Text::from(text), m.file, m.line);
        self.push_frame(frame, args_col);
    }

    /// `.exitm`: leaves the innermost macro expansion.
    fn exit_macro(&mut self, col: usize) {
        match self.frames.iter().rposition(|f| f.kind == FrameKind::Macro) {
            Some(i) => {
                // Conditionals opened inside the expansion end with it.
                self.conds.truncate(self.frames[i].cond_depth);
                self.frames.truncate(i);
            }
            None => self.error_at(
                col,
                "unexpected '.exitm' in file, no current macro definition",
            ),
        }
    }

    /// `.include "file"`.
    fn include(&mut self, args: &str, args_col: usize) {
        let name = args.trim();
        let Some(name) = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) else {
            self.error_at(args_col, "expected string in '.include' directive");
            return;
        };
        let from = self.files[self.cur.file as usize].clone();
        match self.loader.load(name, &from) {
            Ok((path, text)) => {
                self.files.push(path);
                let file = (self.files.len() - 1) as u32;
                self.push_frame(
                    Frame::new(FrameKind::File, Text::from(text), file, 0),
                    args_col,
                );
            }
            Err(why) => self.error_at(
                args_col,
                format!("Could not find include file '{name}': {why}"),
            ),
        }
    }

    fn target_directive(&mut self, name: &str, col: usize, args: &str, args_col: usize) -> bool {
        match name {
            ".amdgcn_target" => self.amdgcn_target(args, args_col),
            ".amdhsa_code_object_version" => {
                if let Some(v) = self.const_expr(args, args_col) {
                    if !(2..=6).contains(&v) {
                        self.error_at(args_col, "unsupported code object version");
                    } else {
                        self.code_object_version = v as u32;
                    }
                }
            }
            ".amdgpu_metadata" => {
                if let Some((body, first)) = self.collect_body(&[], ".end_amdgpu_metadata", col) {
                    // llvm-mc reports bad metadata at the end of the block.
                    let end = super::state::Loc {
                        line: first + body.lines().count() as u32 + 1,
                        ..self.loc_at(0)
                    };
                    self.metadata.push((body, end));
                }
            }
            ".amdhsa_kernel" => self.amdhsa_kernel(args, args_col, col),
            ".ident" => self.ident(args, args_col),
            _ => return false,
        }
        true
    }

    /// `.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"`.
    fn amdgcn_target(&mut self, args: &str, args_col: usize) {
        let parsed = parse_target_id(args);
        match (parsed, &self.target) {
            (Err(e), _) => self.error_at(args_col, e),
            (Ok(t), Some(given)) if given.processor.name != t.processor.name => {
                let _ = t;
                self.error_at(
                    args_col,
                    format!(
                        "target id must match options: {} was given",
                        given.processor.name
                    ),
                );
            }
            (Ok(t), None) => self.target = Some(t),
            (Ok(_), Some(_)) => {}
        }
    }
}

/// The target an `.amdgcn_target` directive names (its arguments, quoted or not).
pub(crate) fn parse_target_id(args: &str) -> Result<Target, String> {
    let text = unquote(args.trim());
    let Some(id) = text.strip_prefix("amdgcn-amd-amdhsa--") else {
        return Err(
            "target id must be of the form amdgcn-amd-amdhsa--<processor>[:feature(+|-)]...".into(),
        );
    };
    let mut parts = id.split(':');
    let processor = parts.next().unwrap_or("");
    let mattr: Vec<String> = parts
        .map(|f| match f.strip_suffix('+') {
            Some(name) => format!("+{name}"),
            None => format!("-{}", f.trim_end_matches('-')),
        })
        .collect();
    let mattr = mattr.join(",");
    Target::parse(processor, (!mattr.is_empty()).then_some(mattr.as_str()))
        .map_err(|e| e.to_string())
}

/// ELF flags and type a section gets from its name alone.
fn default_section_kind(name: &str) -> (u64, u32) {
    let starts = |p: &str| name == p || name.starts_with(&format!("{p}."));
    if starts(".text") {
        (SHF_ALLOC | SHF_EXECINSTR, 1)
    } else if starts(".bss") || starts(".tbss") {
        (SHF_ALLOC | SHF_WRITE, 8)
    } else if starts(".data") || starts(".tdata") {
        (SHF_ALLOC | SHF_WRITE, 1)
    } else if starts(".rodata") {
        (SHF_ALLOC, 1)
    } else if starts(".note") {
        (0, 7)
    } else {
        (0, 1)
    }
}

/// Splits directive arguments at top-level commas (not inside strings, parentheses or
/// brackets); each piece with its byte offset.
pub(crate) fn split_args(s: &str) -> Vec<(usize, &str)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0, 0);
    if s.trim().is_empty() {
        return out;
    }
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth == 0 => {
                out.push((start, &s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push((start, &s[start..]));
    out
}

/// Splits macro arguments or parameters: at top-level commas, or at spaces when there is
/// no comma.
fn split_params(s: &str) -> Vec<(usize, &str)> {
    if s.trim().is_empty() {
        return Vec::new();
    }
    if split_args(s).len() > 1 {
        return split_args(s);
    }
    let mut out = Vec::new();
    let mut pos = skip_space(s, 0);
    while pos < s.len() {
        let mut end = pos;
        let b = s.as_bytes();
        let mut depth = 0i32;
        while end < b.len() && (depth > 0 || !b[end].is_ascii_whitespace()) {
            match b[end] {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                _ => {}
            }
            end += 1;
        }
        out.push((pos, &s[pos..end]));
        pos = skip_space(s, end);
    }
    out
}

/// Replaces `\name` by its value, `\()` by nothing and `\@` by the expansion count.
fn substitute(body: &str, params: &[(&str, &str)], count: Option<usize>) -> String {
    let mut out = String::with_capacity(body.len());
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            let next = body[i..].find('\\').map_or(body.len(), |n| i + n);
            out.push_str(&body[i..next]);
            i = next;
            continue;
        }
        let rest = &body[i + 1..];
        if rest.starts_with("()") {
            i += 3;
            continue;
        }
        if let (true, Some(n)) = (rest.starts_with('@'), count) {
            out.push_str(&n.to_string());
            i += 2;
            continue;
        }
        let name_len = rest
            .bytes()
            .take_while(|&c| crate::lex::is_ident_char(c))
            .count();
        match params.iter().find(|(p, _)| *p == &rest[..name_len]) {
            Some((_, v)) if name_len > 0 => {
                out.push_str(v);
                i += 1 + name_len;
            }
            _ => {
                out.push('\\');
                i += 1;
            }
        }
    }
    out
}

/// The first word of a raw line (up to white space or `;`), as written: directive names are
/// compared without regard to case.
pub(crate) fn first_word(raw: &str) -> &str {
    let t = raw.trim_ascii_start();
    let end = t
        .bytes()
        .position(|c| c.is_ascii_whitespace() || c == b';')
        .unwrap_or(t.len());
    &t[..end]
}

/// `s` without surrounding double quotes, if it has them.
pub(crate) fn unquote(s: &str) -> &str {
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_split_at_top_level_commas() {
        let v: Vec<&str> = split_args("a, \"b,c\", f(1,2)")
            .into_iter()
            .map(|p| p.1)
            .collect();
        assert_eq!(v, ["a", " \"b,c\"", " f(1,2)"]);
        let v: Vec<&str> = split_params("x y  z").into_iter().map(|p| p.1).collect();
        assert_eq!(v, ["x", "y", "z"]);
    }

    #[test]
    fn macro_bodies_substitute_parameters_and_counters() {
        let s = substitute(
            "v_mov_b32 v\\n, \\val\\()0 ; \\@ \\x",
            &[("n", "3"), ("val", "1")],
            Some(7),
        );
        assert_eq!(s, "v_mov_b32 v3, 10 ; 7 \\x");
    }
}
