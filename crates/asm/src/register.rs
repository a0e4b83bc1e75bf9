//! Register names: `s5`, `v[0:3]`, `a[0:15]`, `ttmp[4:7]`, `[s0,s1]`, and the named special
//! registers (`vcc`, `exec_hi`, `m0`, `flat_scratch`, `src_shared_base`, ...).

use gcnkit_isa::Gen;

use crate::error::AsmError;
use crate::lex::{Lexer, Punct, Tok, Token};

/// A register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegFile {
    /// `s0`…
    Sgpr,
    /// `v0`…
    Vgpr,
    /// `a0`… (AccVGPRs)
    Agpr,
    /// `ttmp0`…
    Ttmp,
    /// A named register; `index` holds its scalar-operand encoding.
    Special,
}

/// A parsed register operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    /// The file.
    pub file: RegFile,
    /// First register number, or the operand encoding for [`RegFile::Special`].
    pub index: u32,
    /// Number of 32-bit registers; 0 for the constant-like specials that fit any width.
    pub count: u32,
}

/// Encoding of `src_lds_direct`.
pub const LDS_DIRECT: u32 = 254;

impl Reg {
    /// The 9-bit source-operand encoding (SGPR space 0..255, VGPRs and AGPRs 256+).
    pub fn src_value(&self, gen: Gen) -> u32 {
        match self.file {
            RegFile::Sgpr | RegFile::Special => self.index,
            RegFile::Ttmp => ttmp_base(gen) + self.index,
            RegFile::Vgpr | RegFile::Agpr => 256 + self.index,
        }
    }

    /// True for VGPRs.
    pub fn is_vgpr(&self) -> bool {
        self.file == RegFile::Vgpr
    }

    /// True for a scalar register (SGPR, TTMP or a named special register).
    pub fn is_scalar(&self) -> bool {
        matches!(self.file, RegFile::Sgpr | RegFile::Ttmp | RegFile::Special)
    }

    /// True if the register fits an operand of `dwords` registers.
    pub fn fits(&self, dwords: u32) -> bool {
        self.count == 0 || self.count == dwords
    }
}

/// First TTMP register's encoding.
pub fn ttmp_base(gen: Gen) -> u32 {
    if gen.is_gfx9_family() {
        108
    } else {
        112
    }
}

/// Number of TTMP registers.
fn ttmp_count(gen: Gen) -> u32 {
    if gen.is_gfx9_family() {
        16
    } else {
        12
    }
}

/// Number of addressable SGPRs.
fn sgpr_count(gen: Gen) -> u32 {
    if gen.is_si_ci() {
        104
    } else {
        102
    }
}

/// A named special register: (encoding, width in dwords), or why it is unavailable.
fn special(gen: Gen, name: &str) -> Option<Result<(u32, u32), &'static str>> {
    const NA: &str = "register not available on this GPU";
    let si = gen.is_si_ci();
    let gfx9 = gen.is_gfx9_family();
    let fs = match gen {
        Gen::Gfx6 => None,
        Gen::Gfx7 => Some(104),
        _ => Some(102),
    };
    let avail = |ok: bool, v: u32, w: u32| Some(if ok { Ok((v, w)) } else { Err(NA) });
    match name {
        "vcc" => avail(true, 106, 2),
        "vcc_lo" => avail(true, 106, 1),
        "vcc_hi" => avail(true, 107, 1),
        "exec" => avail(true, 126, 2),
        "exec_lo" => avail(true, 126, 1),
        "exec_hi" => avail(true, 127, 1),
        "m0" => avail(true, 124, 1),
        "flat_scratch" => avail(fs.is_some(), fs.unwrap_or(0), 2),
        "flat_scratch_lo" => avail(fs.is_some(), fs.unwrap_or(0), 1),
        "flat_scratch_hi" => avail(fs.is_some(), fs.unwrap_or(0) + 1, 1),
        "xnack_mask" => avail(!si, 104, 2),
        "xnack_mask_lo" => avail(!si, 104, 1),
        "xnack_mask_hi" => avail(!si, 105, 1),
        "tba" => avail(!gfx9, 108, 2),
        "tba_lo" => avail(!gfx9, 108, 1),
        "tba_hi" => avail(!gfx9, 109, 1),
        "tma" => avail(!gfx9, 110, 2),
        "tma_lo" => avail(!gfx9, 110, 1),
        "tma_hi" => avail(!gfx9, 111, 1),
        "src_shared_base" | "shared_base" => avail(gfx9, 235, 0),
        "src_shared_limit" | "shared_limit" => avail(gfx9, 236, 0),
        "src_private_base" | "private_base" => avail(gfx9, 237, 0),
        "src_private_limit" | "private_limit" => avail(gfx9, 238, 0),
        "src_pops_exiting_wave_id" | "pops_exiting_wave_id" => avail(gfx9, 239, 0),
        "src_vccz" | "vccz" => avail(true, 251, 0),
        "src_execz" | "execz" => avail(true, 252, 0),
        "src_scc" | "scc" => avail(true, 253, 0),
        "src_lds_direct" | "lds_direct" => avail(true, LDS_DIRECT, 1),
        _ => None,
    }
}

/// The file and number of a single-register name such as `s12`, `v3`, `a7`, `acc7`, `ttmp5`
/// (`None` for the number of a bare prefix such as `v`, which a range must follow).
fn numbered(name: &str) -> Option<(RegFile, Option<u32>)> {
    let b = name.as_bytes();
    let (file, rest) = match b.first()? {
        b't' if b.starts_with(b"ttmp") => (RegFile::Ttmp, &b[4..]),
        b's' => (RegFile::Sgpr, &b[1..]),
        b'v' => (RegFile::Vgpr, &b[1..]),
        // `acc` is LLVM's other spelling of the AccVGPR prefix (`acc5`, `acc[0:3]`).
        b'a' if b.starts_with(b"acc") => (RegFile::Agpr, &b[3..]),
        b'a' => (RegFile::Agpr, &b[1..]),
        _ => return None,
    };
    if rest.is_empty() {
        return Some((file, None));
    }
    // At most nine digits, so the number fits without overflow checks.
    if rest.len() > 9 {
        return None;
    }
    let mut n = 0;
    for &c in rest {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(c - b'0');
    }
    Some((file, Some(n)))
}

/// True if `name` (followed by `next`) starts a register operand.
pub fn is_register_start(gen: Gen, name: &str, next: &Token) -> bool {
    register_start_then(gen, name, || *next)
}

/// [`is_register_start`], asking for the next token only when a bare prefix needs it.
pub(crate) fn register_start_then(gen: Gen, name: &str, next: impl FnOnce() -> Token) -> bool {
    match numbered(name) {
        Some((_, Some(_))) => true,
        Some((_, None)) => next().is(Punct::LBracket),
        None => special(gen, name).is_some(),
    }
}

/// Parses a register at the lexer's position (an identifier, or `[` for the list form).
/// Returns `None` (consuming nothing) if the next token does not start a register.
pub fn parse_register(lex: &mut Lexer<'_>, gen: Gen) -> Option<Result<Reg, AsmError>> {
    let t = lex.peek();
    if t.is(Punct::LBracket) {
        return parse_list(lex, gen);
    }
    if t.tok != Tok::Ident {
        return None;
    }
    let name = lex.text(&t);
    // A name is either numbered or special, never both.
    match numbered(name) {
        Some((file, Some(n))) => {
            lex.next_token();
            Some(check(gen, file, n, 1, t.span()))
        }
        Some((file, None)) => {
            if !lex.peek2().is(Punct::LBracket) {
                return None;
            }
            lex.next_token();
            Some(
                parse_range(lex)
                    .and_then(|(first, count, end)| check(gen, file, first, count, t.start..end)),
            )
        }
        None => {
            let sp = special(gen, name)?;
            lex.next_token();
            Some(match sp {
                Ok((index, count)) => Ok(Reg {
                    file: RegFile::Special,
                    index,
                    count,
                }),
                Err(msg) => Err(AsmError::new(t.span(), msg)),
            })
        }
    }
}

/// `[lo:hi]` or `[n]` after a register-file prefix.
fn parse_range(lex: &mut Lexer<'_>) -> Result<(u32, u32, usize), AsmError> {
    let open = lex.next_token();
    let num = |lex: &mut Lexer<'_>| -> Result<u32, AsmError> {
        let t = lex.peek();
        let e = crate::expr::parse_expr(lex, true)
            .map_err(|e| AsmError::new(e.span, "expected a register index"))?;
        e.as_const()
            .filter(|v| (0..=u32::MAX as i64).contains(v))
            .map(|v| v as u32)
            .ok_or_else(|| AsmError::new(t.span(), "expected an absolute expression"))
    };
    let lo = num(lex)?;
    let mut hi = lo;
    let t = lex.next_token();
    let close = if t.is(Punct::Colon) {
        hi = num(lex)?;
        lex.next_token()
    } else {
        t
    };
    if !close.is(Punct::RBracket) {
        return Err(AsmError::new(
            close.span(),
            "expected a closing square bracket",
        ));
    }
    if hi < lo {
        return Err(AsmError::new(
            open.start..close.end,
            "first register index should not exceed second index",
        ));
    }
    Ok((lo, hi - lo + 1, close.end))
}

/// `[s0,s1,s2,s3]`: consecutive registers of one file.
fn parse_list(lex: &mut Lexer<'_>, gen: Gen) -> Option<Result<Reg, AsmError>> {
    // Only a list whose first element is a register; `[` also opens op_sel-style lists.
    let first_tok = lex.peek2();
    if first_tok.tok != Tok::Ident
        || !register_start_then(gen, lex.text(&first_tok), || lex.peek3())
    {
        return None;
    }
    let open = lex.next_token();
    let mut regs: Option<Reg> = None;
    loop {
        let t = lex.peek();
        let r = match parse_register(lex, gen) {
            Some(Ok(r)) => r,
            Some(Err(e)) => return Some(Err(e)),
            None => return Some(Err(AsmError::new(t.span(), "expected a register"))),
        };
        regs = match regs {
            None => Some(r),
            Some(acc) => {
                if acc.file != r.file || r.count != 1 || acc.index + acc.count != r.index {
                    return Some(Err(AsmError::new(
                        t.span(),
                        "registers in a list must have consecutive indices",
                    )));
                }
                Some(Reg {
                    count: acc.count + 1,
                    ..acc
                })
            }
        };
        let sep = lex.next_token();
        if sep.is(Punct::RBracket) {
            let r = regs?;
            return Some(check(gen, r.file, r.index, r.count, open.start..sep.end));
        }
        if !sep.is(Punct::Comma) {
            return Some(Err(AsmError::new(
                sep.span(),
                "expected a comma or a closing square bracket",
            )));
        }
    }
}

/// Checks a numbered register range against the target's register files.
fn check(
    gen: Gen,
    file: RegFile,
    first: u32,
    count: u32,
    span: std::ops::Range<usize>,
) -> Result<Reg, AsmError> {
    let limit = match file {
        RegFile::Sgpr => sgpr_count(gen),
        RegFile::Ttmp => ttmp_count(gen),
        _ => 256,
    };
    // LLVM 19 has tuples of 9 to 12 registers for SGPRs, VGPRs and AGPRs (MIMG addresses);
    // trap temporaries come in 1, 2, 4, 8 or 16.
    let size_ok = match file {
        RegFile::Ttmp => matches!(count, 1 | 2 | 4 | 8 | 16),
        RegFile::Sgpr => matches!(count, 1..=12 | 16),
        _ => matches!(count, 1..=12 | 16 | 32),
    };
    if !size_ok {
        return Err(AsmError::new(span, "invalid or unsupported register size"));
    }
    if first.saturating_add(count) > limit {
        let msg = if file == RegFile::Sgpr && first + count <= 106 {
            "register not available on this GPU"
        } else {
            "register index is out of range"
        };
        return Err(AsmError::new(span, msg));
    }
    let scalar = matches!(file, RegFile::Sgpr | RegFile::Ttmp);
    let align = match count {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    if scalar && !first.is_multiple_of(align) {
        return Err(AsmError::new(span, "invalid register alignment"));
    }
    Ok(Reg {
        file,
        index: first,
        count,
    })
}
