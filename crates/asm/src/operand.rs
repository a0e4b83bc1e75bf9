//! The operand AST and its parser.
//!
//! A statement's operand text is a sequence of items: operands (registers, constants,
//! expressions, symbolic calls such as `hwreg(...)`, each possibly wrapped in source
//! modifiers `-x`, `|x|`, `neg(x)`, `abs(x)`, `sext(x)`), and modifiers (`glc`,
//! `offset:16`, `op_sel:[0,1]`, `dst_sel:WORD_1`, `format:[...]`). Operands are
//! comma-separated; modifiers follow, separated by spaces (or commas).

use std::ops::Range;

use gcnkit_isa::Gen;

use crate::error::AsmError;
use crate::expr::{parse_expr, Expr, SymbolValues};
use crate::lex::{Lexer, Punct, Tok, Token};
use crate::register::{parse_register, register_start_then, Reg};

/// Source modifiers written around an operand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SrcMods {
    /// `-x` or `neg(x)`.
    pub neg: bool,
    /// `|x|` or `abs(x)`.
    pub abs: bool,
    /// `sext(x)`.
    pub sext: bool,
    /// `lit(x)`: force a literal (no effect before gfx11: llvm-mc-19 still encodes an
    /// inline constant).
    pub lit: bool,
    /// Written with a leading `--`: an expression, which llvm-mc refuses where FP source
    /// modifiers may be written ("invalid syntax, expected 'neg' modifier").
    pub minus_minus: bool,
}

impl SrcMods {
    /// True if any of neg/abs/sext is set.
    pub fn any(&self) -> bool {
        self.neg || self.abs || self.sext
    }
}

/// An argument of a symbolic call such as `hwreg(HW_REG_MODE, 0, 32)`.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A bare identifier.
    Ident(Range<usize>),
    /// An integer expression (evaluated when possible), with its byte range.
    Int(i64, Range<usize>),
    /// An expression that could not be evaluated, with its byte range.
    Expr(Expr, Range<usize>),
    /// A string literal (span including quotes).
    Str(Range<usize>),
}

impl Arg {
    /// The argument's byte range in the statement.
    pub fn span(&self) -> Range<usize> {
        match self {
            Arg::Ident(r) | Arg::Str(r) | Arg::Int(_, r) | Arg::Expr(_, r) => r.clone(),
        }
    }
}

/// What an operand is.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A register or register range.
    Reg(Reg),
    /// An integer constant (an evaluated expression).
    Int(i64),
    /// A floating-point literal.
    Float(f64),
    /// A lone identifier that is not a register: `off`, `mrt0`, `p10`, `attr7.y`, or a
    /// symbol.
    Ident(Range<usize>),
    /// An expression involving symbols (evaluated by the encoder, which knows whether it
    /// is a branch target or a constant).
    Expr(Expr),
    /// A symbolic call: `hwreg(...)`, `sendmsg(...)`, `vmcnt(...)`, `swizzle(...)`, `gpr_idx(...)`.
    Call(Range<usize>, Vec<Arg>),
    /// A structured operand, `{name: value, ...}` (LLVM 19's other spelling of `hwreg(...)`):
    /// its fields as written, each value an absolute expression.
    Struct(Vec<StructField>),
}

/// One `name: value` of a structured operand.
#[derive(Clone, Debug, PartialEq)]
pub struct StructField {
    /// The field name's byte range.
    pub name: Range<usize>,
    /// The value (a real number is the bit pattern of its double, as in any expression).
    pub value: i64,
    /// The value's byte range (where llvm-mc reports a value out of range).
    pub value_span: Range<usize>,
}

/// One operand with its modifiers and byte range.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    /// The operand itself.
    pub value: Value,
    /// Source modifiers around it.
    pub mods: SrcMods,
    /// Byte range in the statement.
    pub span: Range<usize>,
}

/// The value of a modifier.
#[derive(Clone, Debug, PartialEq)]
pub enum ModValue {
    /// A bare flag (`glc`).
    Flag,
    /// `name:N`.
    Int(i64),
    /// `name:expr` that could not be evaluated.
    Expr(Expr),
    /// `name:IDENT` (`dst_sel:WORD_1`).
    Ident(Range<usize>),
    /// `name:[a,b,...]` of integers.
    List(Vec<i64>),
    /// `name:[IDENT,IDENT]` (`format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]`).
    Idents(Vec<Range<usize>>),
    /// `name:call(...)` (`offset:swizzle(...)`).
    Call(Range<usize>, Vec<Arg>),
}

/// A modifier after the operands.
#[derive(Clone, Debug, PartialEq)]
pub struct Modifier<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its value.
    pub value: ModValue,
    /// Byte range.
    pub span: Range<usize>,
}

/// A parsed statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt<'a> {
    /// The mnemonic as written (with any `_e32`/`_e64`/`_sdwa`/`_dpp` suffix).
    pub mnemonic: &'a str,
    /// Its byte range.
    pub mnemonic_span: Range<usize>,
    /// The operands, in order.
    pub operands: Vec<Operand>,
    /// The modifiers, in order.
    pub modifiers: Vec<Modifier<'a>>,
}

/// True for the modifiers that are bare words. Asked of every identifier in a statement,
/// so the names are grouped by first letter: a register name is then refused by a compare
/// or two.
fn is_flag(name: &str) -> bool {
    match name.as_bytes().first() {
        Some(b'a') => matches!(name, "a16" | "addr64"),
        Some(b'c') => matches!(name, "clamp" | "compr"),
        Some(b'd') => matches!(name, "dlc" | "da" | "d16" | "done"),
        Some(b'g') => matches!(name, "glc" | "gds"),
        Some(b'h') => name == "high",
        Some(b'i') => name == "idxen",
        Some(b'l') => matches!(name, "lds" | "lwe"),
        // `no<flag>`: llvm-mc takes most boolean modifiers negated (the encoders say
        // where); `notfe` and `nolds` are read so that they can be refused as llvm-mc does.
        Some(b'n') => {
            name == "nt"
                || name == "nv"
                || name
                    .strip_prefix("no")
                    .is_some_and(|base| !base.starts_with("no") && base != "nv" && is_flag(base))
        }
        Some(b'o') => name == "offen",
        Some(b'r') => matches!(name, "r128" | "row_mirror" | "row_half_mirror"),
        Some(b's') => matches!(name, "slc" | "sc0" | "sc1" | "scc"),
        Some(b't') => name == "tfe",
        Some(b'u') => name == "unorm",
        Some(b'v') => name == "vm",
        _ => false,
    }
}

/// True for the names that take `(...)` and are symbolic operands.
fn is_call(name: &str) -> bool {
    matches!(
        name,
        "hwreg"
            | "sendmsg"
            | "swizzle"
            | "gpr_idx"
            | "vmcnt"
            | "expcnt"
            | "lgkmcnt"
            | "vmcnt_sat"
            | "expcnt_sat"
            | "lgkmcnt_sat"
    )
}

/// Parses a whole statement: mnemonic, operands, modifiers.
pub fn parse_stmt<'a>(
    src: &'a str,
    gen: Gen,
    syms: &dyn SymbolValues,
) -> Result<Stmt<'a>, AsmError> {
    parse_stmt_reading_flags(src, gen, syms, 0)
}

/// Parses a statement reading its first `flags_as_operands` bare modifier words (`clamp`,
/// `da`, `scc`, ...) as operands: a symbol, or the register of that name. llvm-mc does so
/// where the instruction still needs an operand (`v_fract_f32 v0, clamp` reads a symbol
/// `clamp`); the encoder asks for it when a statement has too few operands.
pub(crate) fn parse_stmt_reading_flags<'a>(
    src: &'a str,
    gen: Gen,
    syms: &dyn SymbolValues,
    mut flags_as_operands: usize,
) -> Result<Stmt<'a>, AsmError> {
    let mut lex = Lexer::unstarted(src);
    lex.start();
    let t = lex.next_token();
    if t.tok != Tok::Ident {
        return Err(AsmError::new(
            t.span(),
            "unexpected token at start of statement",
        ));
    }
    let mut stmt = Stmt {
        mnemonic: lex.text(&t),
        mnemonic_span: t.span(),
        operands: Vec::with_capacity(6),
        modifiers: Vec::new(),
    };
    // After the mnemonic or a comma an operand is expected: there `a16` is a register
    // (an AccVGPR), elsewhere the MIMG modifier of the same name.
    let mut operand_position = true;
    loop {
        let t = lex.peek();
        let at_operand = std::mem::replace(&mut operand_position, false);
        match t.tok {
            Tok::Eof => break,
            // A comma right after the mnemonic or another comma stands where llvm-mc
            // expects an operand.
            Tok::Punct(Punct::Comma) if at_operand => {
                return Err(AsmError::new(t.span(), "unknown token in expression"));
            }
            // `&` separates s_waitcnt counters only; after one, a separator must be
            // followed by another counter.
            Tok::Punct(Punct::Comma | Punct::Amp) if after_counter(src, &stmt) => {
                lex.next_token();
                let next = lex.peek();
                if !(next.tok == Tok::Ident && lex.peek2().is(Punct::LParen)) {
                    // At the end, llvm-mc points past any trailing blanks.
                    let at = if next.tok == Tok::Eof {
                        src.len()..src.len()
                    } else {
                        next.span()
                    };
                    return Err(AsmError::new(at, "expected a counter name"));
                }
                operand_position = true;
                continue;
            }
            Tok::Punct(Punct::Comma) => {
                lex.next_token();
                operand_position = true;
                continue;
            }
            Tok::Punct(Punct::Amp) => {
                return Err(AsmError::new(t.span(), "unknown token in expression"));
            }
            _ if after_counter(src, &stmt)
                && !(t.tok == Tok::Ident && lex.peek2().is(Punct::LParen)) =>
            {
                return Err(AsmError::new(t.span(), "expected a counter name"));
            }
            Tok::Ident if is_modifier(&lex, &t, at_operand, gen) => {
                if flags_as_operands > 0 && lex.byte_after(&t) != Some(b':') {
                    flags_as_operands -= 1;
                    let op = parse_operand(&mut lex, gen, syms)?;
                    stmt.operands.push(op);
                } else {
                    let m = parse_modifier(&mut lex, gen, syms)?;
                    stmt.modifiers.push(m);
                }
            }
            _ => {
                let op = parse_operand(&mut lex, gen, syms)?;
                stmt.operands.push(op);
            }
        }
    }
    Ok(stmt)
}

/// True if the last item of `stmt` is an `s_waitcnt` counter (`vmcnt(0)`): llvm-mc then
/// reads the rest of the statement as more counters.
fn after_counter(src: &str, stmt: &Stmt<'_>) -> bool {
    stmt.modifiers.is_empty()
        && stmt.operands.last().is_some_and(|o| match &o.value {
            Value::Call(name, _) => matches!(
                &src[name.clone()],
                "vmcnt" | "expcnt" | "lgkmcnt" | "vmcnt_sat" | "expcnt_sat" | "lgkmcnt_sat"
            ),
            _ => false,
        })
}

fn is_modifier(lex: &Lexer<'_>, t: &Token, at_operand: bool, gen: Gen) -> bool {
    let name = lex.text(t);
    // gfx6/gfx7 have no DPP: where an operand belongs, `row_mirror` is a symbol there.
    if at_operand && gen.is_si_ci() && matches!(name, "row_mirror" | "row_half_mirror") {
        return false;
    }
    // Likewise `scc`: the register `src_scc` there, the gfx90a cache bit elsewhere.
    if at_operand && (name.eq_ignore_ascii_case("a16") || name == "scc") {
        return false;
    }
    // `name:` with the colon right after the name (a register range `s[0:1]` has its
    // colon elsewhere; the register parser owns it).
    lex.byte_after(t) == Some(b':') || is_flag(name)
}

fn parse_modifier<'a>(
    lex: &mut Lexer<'a>,
    gen: Gen,
    syms: &dyn SymbolValues,
) -> Result<Modifier<'a>, AsmError> {
    let t = lex.next_token();
    let name = lex.text(&t);
    if !lex.peek().is(Punct::Colon) {
        return Ok(Modifier {
            name,
            value: ModValue::Flag,
            span: t.span(),
        });
    }
    lex.next_token();
    let v = lex.peek();
    // SDWA selects are names only (gfx6/gfx7 have no SDWA, and refuse the modifier later).
    if matches!(name, "dst_sel" | "src0_sel" | "src1_sel" | "dst_unused")
        && !gen.is_si_ci()
        && v.tok != Tok::Ident
    {
        return Err(AsmError::new(v.span(), "expected an identifier"));
    }
    let value = if v.is(Punct::LBracket) && name == "format" {
        parse_format_list(lex)?
    } else if v.is(Punct::LBracket) && takes_list(name) {
        parse_list(lex, syms)?
    } else if v.is(Punct::LBracket) {
        // An integer modifier's value is an expression, and `[3]` is llvm-mc's bracket
        // expression: `cbsz:[3]` is `cbsz:3`.
        expr_value(lex, syms)?
    } else if v.tok == Tok::Ident {
        let text = lex.text(&v);
        if is_call(text) && lex.peek2().is(Punct::LParen) {
            lex.next_token();
            let args = parse_args(lex, text, syms)?;
            ModValue::Call(v.span(), args)
        } else if lex.peek2().tok == Tok::Punct(Punct::Plus) || lex.peek2().is(Punct::Minus) {
            expr_value(lex, syms)?
        } else {
            lex.next_token();
            match syms.value(text) {
                Some(n) => ModValue::Int(n),
                None => ModValue::Ident(v.span()),
            }
        }
    } else {
        expr_value(lex, syms)?
    };
    let end = lex_end(lex, t.end);
    Ok(Modifier {
        name,
        value,
        span: t.start..end,
    })
}

/// End of the last consumed token (the lexer position after trailing space is skipped
/// lazily, so this is the position itself).
fn lex_end(lex: &Lexer<'_>, min: usize) -> usize {
    lex.pos().max(min)
}

fn expr_value(lex: &mut Lexer<'_>, syms: &dyn SymbolValues) -> Result<ModValue, AsmError> {
    let e = parse_expr(lex, true).map_err(|e| AsmError::new(e.span, e.message))?;
    Ok(match e.eval(syms) {
        Ok(n) => ModValue::Int(n),
        Err(_) => ModValue::Expr(e),
    })
}

/// True for the modifiers whose value is a `[a,b,...]` list.
fn takes_list(name: &str) -> bool {
    matches!(
        name,
        "op_sel" | "op_sel_hi" | "neg_lo" | "neg_hi" | "neg" | "quad_perm" | "format" | "dpp8"
    )
}

/// `format:[NAME]` or `format:[NAME, NAME]`: a data and a number format, by name only.
fn parse_format_list(lex: &mut Lexer<'_>) -> Result<ModValue, AsmError> {
    lex.next_token();
    let mut names = Vec::new();
    loop {
        let t = lex.next_token();
        if t.tok != Tok::Ident {
            return Err(AsmError::new(t.span(), "expected a format string"));
        }
        names.push(t.span());
        let sep = lex.next_token();
        if sep.is(Punct::RBracket) {
            return Ok(ModValue::Idents(names));
        }
        if names.len() == 2 || !sep.is(Punct::Comma) {
            return Err(AsmError::new(
                sep.span(),
                "expected a closing square bracket",
            ));
        }
    }
}

/// `[a,b,...]` of integers or of identifiers.
fn parse_list(lex: &mut Lexer<'_>, syms: &dyn SymbolValues) -> Result<ModValue, AsmError> {
    let open = lex.next_token();
    let mut ints = Vec::new();
    let mut idents = Vec::new();
    loop {
        let t = lex.peek();
        if t.tok == Tok::Ident && !lex.peek2().is(Punct::LParen) {
            lex.next_token();
            match syms.value(lex.text(&t)) {
                Some(v) => ints.push(v),
                None => idents.push(t.span()),
            }
        } else {
            let e = parse_expr(lex, true).map_err(|e| AsmError::new(e.span, e.message))?;
            let v = e.eval(syms).map_err(|_| {
                AsmError::new(t.start..lex.pos(), "expected an absolute expression")
            })?;
            ints.push(v);
        }
        let sep = lex.next_token();
        if sep.is(Punct::RBracket) {
            break;
        }
        if !sep.is(Punct::Comma) {
            return Err(AsmError::new(
                sep.span(),
                "expected a comma or a closing square bracket",
            ));
        }
    }
    if !idents.is_empty() {
        if !ints.is_empty() {
            return Err(AsmError::new(
                open.start..lex.pos(),
                "invalid operand for instruction",
            ));
        }
        return Ok(ModValue::Idents(idents));
    }
    Ok(ModValue::List(ints))
}

/// The arguments of call `name`, after its name; consumes the parentheses.
fn parse_args(
    lex: &mut Lexer<'_>,
    name: &str,
    syms: &dyn SymbolValues,
) -> Result<Vec<Arg>, AsmError> {
    let open = lex.next_token();
    let mut args = Vec::new();
    if lex.peek().is(Punct::RParen) {
        lex.next_token();
        return Ok(args);
    }
    loop {
        let t = lex.peek();
        let arg = match t.tok {
            Tok::Str => {
                lex.next_token();
                Arg::Str(t.span())
            }
            Tok::Ident if is_arg_end(&lex.peek2()) => {
                lex.next_token();
                match syms.value(lex.text(&t)) {
                    Some(v) => Arg::Int(v, t.span()),
                    None => Arg::Ident(t.span()),
                }
            }
            _ => {
                let e = parse_expr(lex, true).map_err(|e| AsmError::new(e.span, e.message))?;
                let span = t.start..lex.pos();
                match e.eval(syms) {
                    Ok(v) => Arg::Int(v, span),
                    Err(_) => Arg::Expr(e, span),
                }
            }
        };
        args.push(arg);
        let sep = lex.next_token();
        if sep.is(Punct::RParen) {
            return Ok(args);
        }
        // llvm-mc reads at most three sendmsg arguments.
        if name == "sendmsg" && args.len() == 3 && sep.is(Punct::Comma) {
            return Err(AsmError::new(sep.span(), "expected a closing parenthesis"));
        }
        if !sep.is(Punct::Comma) {
            let _ = open;
            // llvm-mc's words for each call.
            let msg = match name {
                "sendmsg" => "expected a closing parenthesis",
                "swizzle" => "expected a comma",
                _ => "expected a comma or a closing parenthesis",
            };
            return Err(AsmError::new(sep.span(), msg));
        }
    }
}

fn is_arg_end(t: &Token) -> bool {
    t.is(Punct::Comma) || t.is(Punct::RParen)
}

/// Parses one operand with its source modifiers.
pub fn parse_operand(
    lex: &mut Lexer<'_>,
    gen: Gen,
    syms: &dyn SymbolValues,
) -> Result<Operand, AsmError> {
    parse_operand_in(lex, gen, syms, true)
}

fn parse_operand_in(
    lex: &mut Lexer<'_>,
    gen: Gen,
    syms: &dyn SymbolValues,
    allow_pipe: bool,
) -> Result<Operand, AsmError> {
    let t = lex.peek();
    let start = t.start;
    // Most operands are a register name: nothing else (a source modifier, a call, a symbol)
    // starts with one, so the register is the whole operand.
    if t.tok == Tok::Ident {
        if let Some(r) = parse_register(lex, gen) {
            return Ok(Operand {
                value: Value::Reg(r?),
                mods: SrcMods::default(),
                span: start..lex.pos(),
            });
        }
    }
    if t.is(Punct::LBrace) {
        return parse_struct(lex, syms);
    }
    // `--x` is an expression (llvm-mc refuses it where FP source modifiers may be written).
    if t.is(Punct::Minus) && lex.peek2().is(Punct::Minus) {
        let mut op = parse_plain(lex, gen, syms, allow_pipe)?;
        op.mods.minus_minus = true;
        return Ok(op);
    }
    if t.tok == Tok::Ident && lex.peek2().is(Punct::LParen) {
        let name = lex.text(&t);
        if name == "sext" {
            return parse_sext(lex, gen, syms);
        }
        if !matches!(name, "abs" | "neg" | "lit") && !register_start_then(gen, name, || lex.peek2())
        {
            // Any other `name(` is a symbolic operand; the encoder that expects one checks
            // the name (so `s_waitcnt foo(1)` reports the counter name, as llvm-mc does).
            lex.next_token();
            let args = parse_args(lex, name, syms)?;
            return Ok(Operand {
                value: Value::Call(t.span(), args),
                mods: SrcMods::default(),
                span: start..lex.pos(),
            });
        }
    }
    parse_fp_mods(lex, gen, syms, allow_pipe)
}

/// `{name: value, ...}`: a structured operand. The field names are checked by the encoder
/// that takes the operand; the syntax, with llvm-mc's messages, here.
fn parse_struct(lex: &mut Lexer<'_>, syms: &dyn SymbolValues) -> Result<Operand, AsmError> {
    let start = lex.next_token().start;
    let mut fields: Vec<StructField> = Vec::new();
    if lex.peek().is(Punct::RBrace) {
        lex.next_token();
    } else {
        loop {
            let name = lex.next_token();
            if name.tok != Tok::Ident {
                return Err(AsmError::new(name.span(), "field name expected"));
            }
            let colon = lex.next_token();
            if !colon.is(Punct::Colon) {
                return Err(AsmError::new(colon.span(), "colon expected"));
            }
            let value_start = lex.peek().start;
            let e = parse_expr(lex, true).map_err(|e| AsmError::new(e.span, e.message))?;
            let value_span = value_start..lex.pos();
            let value = e
                .eval(syms)
                .map_err(|_| AsmError::new(value_span.clone(), "expected absolute expression"))?;
            fields.push(StructField {
                name: name.span(),
                value,
                value_span,
            });
            let sep = lex.next_token();
            if sep.is(Punct::RBrace) {
                break;
            }
            if !sep.is(Punct::Comma) {
                return Err(AsmError::new(sep.span(), "comma or closing brace expected"));
            }
        }
    }
    Ok(Operand {
        value: Value::Struct(fields),
        mods: SrcMods::default(),
        span: start..lex.pos(),
    })
}

/// `-`, `neg(`, `abs(`, `lit(`, `|`, in this order, each at most once (llvm-mc's grammar:
/// `abs(neg(x))` and `neg(-v1)` fail to parse), around a register or a constant.
fn parse_fp_mods(
    lex: &mut Lexer<'_>,
    gen: Gen,
    syms: &dyn SymbolValues,
    allow_pipe: bool,
) -> Result<Operand, AsmError> {
    let start = lex.peek().start;
    let mut mods = SrcMods::default();
    if lex.peek().is(Punct::Minus) && sp3_neg_follows(lex, gen) {
        let minus = lex.next_token();
        mods.neg = true;
        // `-[` before something that is no register list (`-[3]`) is no operand at all.
        if lex.peek().is(Punct::LBracket) && parse_register(&mut lex.clone(), gen).is_none() {
            return Err(AsmError::new(minus.span(), "not a valid operand."));
        }
    }
    // Each of `neg(`, `abs(`, `lit(` at most once and in this order: a name out of order
    // is left for `starts_modifier` below to refuse.
    let mut closers = 0;
    let mut next_allowed = 0;
    loop {
        let t = lex.peek();
        if t.tok != Tok::Ident {
            break;
        }
        let which = match lex.text(&t) {
            "neg" => 0,
            "abs" => 1,
            "lit" => 2,
            _ => break,
        };
        if which < next_allowed || !lex.peek2().is(Punct::LParen) {
            break;
        }
        if which == 0 && mods.neg {
            return Err(AsmError::new(t.span(), "expected register or immediate"));
        }
        lex.next_token();
        lex.next_token();
        closers += 1;
        next_allowed = which + 1;
        match which {
            0 => mods.neg = true,
            1 => mods.abs = true,
            _ => mods.lit = true,
        }
    }
    let pipe = lex.peek().is(Punct::Pipe);
    if pipe {
        if mods.abs {
            return Err(AsmError::new(
                lex.peek().span(),
                "expected register or immediate",
            ));
        }
        lex.next_token();
        mods.abs = true;
    }
    // `lit(` may also stand inside the bars (`-|lit(0x12345678)|`).
    let lit_in_pipes = pipe
        && !mods.lit
        && lex.peek().tok == Tok::Ident
        && lex.text(&lex.peek()) == "lit"
        && lex.peek2().is(Punct::LParen);
    if lit_in_pipes {
        lex.next_token();
        lex.next_token();
        mods.lit = true;
    }
    if pipe && !lit_in_pipes {
        primary_before_pipe(lex, gen)?;
    }
    let inner = lex.peek();
    if starts_modifier(lex, gen) {
        let msg = if mods.any() || mods.lit {
            "failed parsing operand."
        } else {
            "not a valid operand."
        };
        return Err(AsmError::new(inner.span(), msg));
    }
    let mut op = parse_plain(lex, gen, syms, allow_pipe && !pipe)?;
    if lit_in_pipes {
        let close = lex.next_token();
        if !close.is(Punct::RParen) {
            return Err(AsmError::new(close.span(), "expected closing parentheses"));
        }
    }
    if pipe {
        let close = lex.next_token();
        if !close.is(Punct::Pipe) {
            return Err(AsmError::new(close.span(), "expected vertical bar"));
        }
    }
    for _ in 0..closers {
        let close = lex.next_token();
        if !close.is(Punct::RParen) {
            return Err(AsmError::new(close.span(), "expected closing parentheses"));
        }
    }
    op.mods = mods;
    op.span = start..lex.pos();
    Ok(op)
}

/// Between `|` bars llvm-mc reads a register or a primary expression only (a number or
/// symbol after unary operators, or a parenthesised expression): `|1+2|` is "expected
/// vertical bar" at the `+`, where `|(1+2)|` is fine.
fn primary_before_pipe(lex: &Lexer<'_>, gen: Gen) -> Result<(), AsmError> {
    let mut probe = lex.clone();
    if parse_register(&mut probe, gen).is_some() {
        return Ok(());
    }
    let mut probe = lex.clone();
    while matches!(
        probe.peek().tok,
        Tok::Punct(Punct::Minus | Punct::Tilde | Punct::Bang | Punct::Plus)
    ) {
        probe.next_token();
    }
    let first = probe.next_token();
    match first.tok {
        Tok::Punct(Punct::LParen) => {
            let mut depth = 1;
            while depth > 0 {
                let t = probe.next_token();
                match t.tok {
                    Tok::Punct(Punct::LParen) => depth += 1,
                    Tok::Punct(Punct::RParen) => depth -= 1,
                    Tok::Eof => return Ok(()),
                    _ => {}
                }
            }
        }
        Tok::Int(_) | Tok::Float(_) | Tok::Ident => {}
        // Anything else is refused by the operand parser with its own words.
        _ => return Ok(()),
    }
    let after = probe.peek();
    if after.is(Punct::Pipe) || after.tok == Tok::Eof || after.is(Punct::LParen) {
        return Ok(());
    }
    Err(AsmError::new(after.span(), "expected vertical bar"))
}

/// `sext(x)`: the integer source modifier, never combined with another.
fn parse_sext(lex: &mut Lexer<'_>, gen: Gen, syms: &dyn SymbolValues) -> Result<Operand, AsmError> {
    let start = lex.next_token().start;
    lex.next_token();
    // `lit(` may stand inside (`sext(lit(1))`).
    let lit = lex.peek().tok == Tok::Ident
        && lex.text(&lex.peek()) == "lit"
        && lex.peek2().is(Punct::LParen);
    if lit {
        lex.next_token();
        lex.next_token();
    }
    let inner = lex.peek();
    if starts_modifier(lex, gen) {
        return Err(AsmError::new(inner.span(), "failed parsing operand."));
    }
    let mut op = parse_plain(lex, gen, syms, true)?;
    for _ in 0..=usize::from(lit) {
        let close = lex.next_token();
        if !close.is(Punct::RParen) {
            return Err(AsmError::new(close.span(), "expected closing parentheses"));
        }
    }
    let close_end = lex.pos();
    op.mods.lit |= lit;
    op.mods.sext = true;
    op.span = start..close_end;
    Ok(op)
}

/// True for the names of the source modifiers written as calls.
fn is_mod_call(name: &str) -> bool {
    matches!(name, "abs" | "neg" | "sext" | "lit")
}

/// True if a source modifier starts at the lexer's position (llvm-mc's `isModifier`): `|`,
/// `abs(`/`neg(`/`sext(`/`lit(`, or `-` before a register or one of those.
fn starts_modifier(lex: &Lexer<'_>, gen: Gen) -> bool {
    let t = lex.peek();
    match t.tok {
        Tok::Punct(Punct::Pipe) => true,
        Tok::Ident => is_mod_call(lex.text(&t)) && lex.peek2().is(Punct::LParen),
        Tok::Punct(Punct::Minus) => {
            let n = lex.peek2();
            match n.tok {
                Tok::Punct(Punct::Pipe | Punct::LBracket) => true,
                Tok::Ident => {
                    let name = lex.text(&n);
                    (is_mod_call(name) && lex.peek3().is(Punct::LParen))
                        || negatable_register(gen, name, || lex.peek3())
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// True if `name` is a register after `-`: llvm-mc reads `null` as a register name on
/// every target (`-null` is a source modifier, then "'null' operand is not supported on
/// this GPU" before gfx10), though without `-` it is a symbol there.
fn negatable_register(gen: Gen, name: &str, next: impl FnOnce() -> Token) -> bool {
    name == "null" || register_start_then(gen, name, next)
}

/// True if the `-` at the lexer's position is the SP3 `neg` modifier: before a register,
/// `|`, or `abs`.
fn sp3_neg_follows(lex: &Lexer<'_>, gen: Gen) -> bool {
    let n = lex.peek2();
    match n.tok {
        Tok::Punct(Punct::Pipe) | Tok::Punct(Punct::LBracket) => true,
        Tok::Ident => {
            let name = lex.text(&n);
            name == "abs" || negatable_register(gen, name, || lex.peek3())
        }
        _ => false,
    }
}

/// A register, number, float, identifier or expression.
fn parse_plain(
    lex: &mut Lexer<'_>,
    gen: Gen,
    syms: &dyn SymbolValues,
    allow_pipe: bool,
) -> Result<Operand, AsmError> {
    let t = lex.peek();
    if let Some(r) = parse_register(lex, gen) {
        let reg = r?;
        return Ok(Operand {
            value: Value::Reg(reg),
            mods: SrcMods::default(),
            span: t.start..lex.pos(),
        });
    }
    // An operand that opens with `[` is a register list to llvm-mc, never a bracket
    // expression.
    if t.is(Punct::LBracket) {
        return Err(AsmError::new(
            lex.peek2().span(),
            "expected a register or a list of registers",
        ));
    }
    // Floats, with an optional sign.
    let (sign, ft) = if t.is(Punct::Minus) {
        (-1.0, lex.peek2())
    } else {
        (1.0, t)
    };
    if let Tok::Float(f) = ft.tok {
        if sign < 0.0 {
            lex.next_token();
        }
        lex.next_token();
        return Ok(Operand {
            value: Value::Float(sign * f),
            mods: SrcMods::default(),
            span: t.start..ft.end,
        });
    }
    if t.tok == Tok::Ident && ends_operand(&lex.peek2(), allow_pipe) {
        lex.next_token();
        // Symbols are resolved by the encoder: a branch target and a constant differ.
        return Ok(Operand {
            value: Value::Ident(t.span()),
            mods: SrcMods::default(),
            span: t.span(),
        });
    }
    // A malformed number (`08`, `0x1p`, the sign of `5.-1`), as llvm-mc's lexer reports it.
    let bad_number = t.tok == Tok::Error
        && lex
            .text(&t)
            .starts_with(|c: char| c.is_ascii_digit() || matches!(c, '.' | '+' | '-'));
    if bad_number {
        return Err(AsmError::new(t.span(), "failed parsing operand."));
    }
    if matches!(t.tok, Tok::Eof | Tok::Error | Tok::Str) || t.is(Punct::RParen) {
        return Err(AsmError::new(t.span(), "not a valid operand."));
    }
    let e = parse_expr(lex, allow_pipe).map_err(|e| AsmError::new(e.span, e.message))?;
    let span = t.start..lex.pos();
    let _ = syms;
    let value = match e {
        Expr::Num(v) => Value::Int(v),
        e => Value::Expr(e),
    };
    Ok(Operand {
        value,
        mods: SrcMods::default(),
        span,
    })
}

/// True if `t` cannot continue an expression, so a preceding identifier stands alone.
fn ends_operand(t: &Token, allow_pipe: bool) -> bool {
    match t.tok {
        Tok::Eof | Tok::Ident | Tok::Int(_) | Tok::Float(_) => true,
        Tok::Punct(Punct::Pipe) => !allow_pipe,
        Tok::Punct(p) => matches!(p, Punct::Comma | Punct::RParen | Punct::RBracket),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::NoSymbols;
    use crate::register::RegFile;

    fn stmt(s: &str) -> Stmt<'_> {
        parse_stmt(s, Gen::Gfx9, &NoSymbols).unwrap()
    }

    #[test]
    fn modifiers_wrap_operands() {
        let s = stmt("v_add_f32_e64 v0, -|v1|, neg(abs(s2)) clamp mul:2");
        assert_eq!(s.operands.len(), 3);
        let m = s.operands[1].mods;
        assert!(m.neg && m.abs);
        let m = s.operands[2].mods;
        assert!(m.neg && m.abs);
        assert_eq!(s.modifiers.len(), 2);
        assert_eq!(s.modifiers[1].value, ModValue::Int(2));
    }

    #[test]
    fn negative_numbers_are_constants() {
        let s = stmt("s_mov_b32 s0, -1");
        assert_eq!(s.operands[1].value, Value::Int(-1));
        assert!(!s.operands[1].mods.neg);
        let s = stmt("v_mov_b32 v0, -1.5");
        assert_eq!(s.operands[1].value, Value::Float(-1.5));
    }

    #[test]
    fn register_forms() {
        let s = stmt("s_load_dwordx4 s[4:7], [s2,s3], 0x10");
        assert_eq!(
            s.operands[1].value,
            Value::Reg(Reg {
                file: RegFile::Sgpr,
                index: 2,
                count: 2
            })
        );
    }

    #[test]
    fn lists_and_idents() {
        let s = stmt("v_pk_add_f16 v0, v1, v2 op_sel:[0,1] dst_sel:WORD_1");
        assert_eq!(s.modifiers[0].value, ModValue::List(vec![0, 1]));
        assert!(matches!(s.modifiers[1].value, ModValue::Ident(_)));
    }
}
