//! The instruction-vector files of `tests/emu-vectors/` (format in that folder's README.md):
//! blocks naming a table row, the manual section the values come from, the generations, and
//! cases `assembly | inputs -> outputs`.

use std::fmt;

use gcnkit_isa::{Gen, Target, PROCESSORS};

/// One case, on every processor of its block.
#[derive(Clone, Debug)]
pub struct Case {
    /// File and line, for messages.
    pub at: String,
    /// The row under test (its mnemonic).
    pub row: String,
    /// Processors to run on.
    pub processors: Vec<String>,
    /// Assembly text (statements separated by newlines).
    pub asm: String,
    /// Assignments before the run.
    pub inputs: Vec<Assign>,
    /// Checks after the run.
    pub outputs: Vec<Assign>,
    /// The run must stop with a fault whose message contains this text (`fault=TEXT`).
    pub fault: Option<String>,
}

/// A place in the wave or memory.
#[derive(Clone, Debug, PartialEq)]
pub enum Loc {
    /// Scalar registers starting at a storage index, `count` dwords.
    Sreg { index: u16, count: u16 },
    /// Vector registers (AccVGPRs from 256), `count` dwords, one lane or all.
    Vreg {
        index: u16,
        count: u16,
        lane: Option<u8>,
    },
    /// SCC.
    Scc,
    /// The MODE register.
    Mode,
    /// The wave's private (scratch) memory: base address of its slots.
    ScratchBase,
    /// The wave's private (scratch) memory: bytes per lane.
    ScratchPerLane,
    /// Global memory at `buf + offset`, `bytes` wide.
    Mem { offset: u64, bytes: u8 },
    /// LDS at `offset`, `bytes` wide.
    Lds { offset: u64, bytes: u8 },
    /// GDS at `offset`, `bytes` wide.
    Gds { offset: u64, bytes: u8 },
    /// How many exports the wave made (outputs only).
    ExportCount,
    /// A field of the wave's export number `index` (outputs only).
    Export { index: usize, field: ExportField },
}

/// What an `expN.…` place names.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportField {
    /// The target number (`mrt0` = 0 … `param31` = 63).
    Target,
    /// The EN mask.
    En,
    /// COMPR (0/1).
    Compr,
    /// DONE (0/1).
    Done,
    /// VM (0/1).
    Vm,
    /// EXEC when it ran.
    Exec,
    /// Dword `k` (0–3) sent by `lane`, or by every lane of its EXEC.
    Data { k: usize, lane: Option<u8> },
}

impl Loc {
    /// Width in bits of one element (a register range up to 64 bits is one element).
    pub fn bits(&self) -> u32 {
        match self {
            Loc::Sreg { count, .. } | Loc::Vreg { count, .. } => 32 * (*count).min(2) as u32,
            Loc::Scc => 1,
            Loc::Mode => 32,
            Loc::ScratchBase | Loc::ScratchPerLane => 64,
            Loc::Mem { bytes, .. } | Loc::Lds { bytes, .. } | Loc::Gds { bytes, .. } => {
                8 * *bytes as u32
            }
            Loc::ExportCount => 32,
            Loc::Export { field, .. } => match field {
                ExportField::Exec => 64,
                _ => 32,
            },
        }
    }
}

/// A value to write or expect.
#[derive(Clone, Debug)]
pub enum Value {
    /// An integer expression (may use `lane` and `buf`).
    Int(Expr),
    /// A floating-point number of a width (16, 32, 64).
    Float(f64, u32),
    /// Any NaN of a width (outputs only; as an input, the default quiet NaN).
    AnyNan(u32),
    /// A list of dwords, lowest register first.
    List(Vec<Value>),
}

/// `loc = value`.
#[derive(Clone, Debug)]
pub struct Assign {
    /// Where.
    pub loc: Loc,
    /// What.
    pub value: Value,
    /// The text, for messages.
    pub text: String,
}

/// An integer expression tree.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A number.
    Num(u64),
    /// The lane number.
    Lane,
    /// The address of the test buffer.
    Buf,
    /// `-x`.
    Neg(Box<Expr>),
    /// `~x`.
    Not(Box<Expr>),
    /// A binary operation.
    Bin(char, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The value for `lane` with the buffer at `buf`.
    pub fn eval(&self, lane: u64, buf: u64) -> u64 {
        match self {
            Expr::Num(n) => *n,
            Expr::Lane => lane,
            Expr::Buf => buf,
            Expr::Neg(x) => x.eval(lane, buf).wrapping_neg(),
            Expr::Not(x) => !x.eval(lane, buf),
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(lane, buf), b.eval(lane, buf));
                match op {
                    '+' => a.wrapping_add(b),
                    '-' => a.wrapping_sub(b),
                    '*' => a.wrapping_mul(b),
                    '&' => a & b,
                    '|' => a | b,
                    '^' => a ^ b,
                    '<' => a.checked_shl(b as u32).unwrap_or(0),
                    '>' => a.checked_shr(b as u32).unwrap_or(0),
                    _ => unreachable!("parser makes only these"),
                }
            }
        }
    }
}

/// A format error with its place.
#[derive(Debug)]
pub struct FormatError(pub String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The processor that stands for a generation name.
fn default_processor(gen: Gen) -> &'static str {
    match gen {
        Gen::Gfx6 => "gfx600",
        Gen::Gfx7 => "gfx700",
        Gen::Gfx8 => "gfx803",
        Gen::Gfx9 => "gfx900",
        Gen::Gfx908 => "gfx908",
        Gen::Gfx90a => "gfx90a",
        Gen::Gfx940 => "gfx940",
    }
}

fn gen_named(name: &str) -> Option<Gen> {
    Gen::ALL.into_iter().find(|g| g.name() == name)
}

/// Parses a `gens:` list: `all`, generation names (`gfx9`), processors (`gfx906`),
/// `gfx8+` (that generation and every later one) and `gfx6-gfx8` (a range of generations).
pub fn parse_gens(text: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    let push_range = |lo: Gen, hi: Gen, out: &mut Vec<String>| {
        for g in Gen::ALL {
            if g as u8 >= lo as u8 && g as u8 <= hi as u8 {
                out.push(default_processor(g).to_string());
            }
        }
    };
    for tok in text.split_whitespace() {
        if tok == "all" {
            push_range(Gen::Gfx6, Gen::Gfx940, &mut out);
        } else if let Some(base) = tok.strip_suffix('+') {
            let g = gen_named(base).ok_or_else(|| format!("unknown generation `{base}`"))?;
            push_range(g, Gen::Gfx940, &mut out);
        } else if let Some((a, b)) = tok.split_once('-') {
            let lo = gen_named(a).ok_or_else(|| format!("unknown generation `{a}`"))?;
            let hi = gen_named(b).ok_or_else(|| format!("unknown generation `{b}`"))?;
            push_range(lo, hi, &mut out);
        } else if let Some(g) = gen_named(tok) {
            out.push(default_processor(g).to_string());
        } else if PROCESSORS.iter().any(|p| p.name == tok) {
            Target::parse(tok, None).map_err(|e| format!("{tok}: {e}"))?;
            out.push(tok.to_string());
        } else {
            return Err(format!("unknown generation or processor `{tok}`"));
        }
    }
    if out.is_empty() {
        return Err("empty `gens:` list".into());
    }
    Ok(out)
}

/// Parses one vector file.
pub fn parse_file(name: &str, text: &str) -> Result<Vec<Case>, FormatError> {
    let mut cases = Vec::new();
    let mut row: Option<String> = None;
    let mut source = false;
    let mut gens: Option<Vec<String>> = None;
    for (n, raw) in text.lines().enumerate() {
        let at = format!("{name}:{}", n + 1);
        let err = |m: String| FormatError(format!("{at}: {m}"));
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let r = rest
                .strip_suffix(']')
                .ok_or_else(|| err("a block header is `[mnemonic]`".into()))?;
            row = Some(r.trim().to_string());
            source = false;
        } else if let Some(rest) = line.strip_prefix("source:") {
            if rest.trim().is_empty() {
                return Err(err("`source:` names the manual section".into()));
            }
            source = true;
        } else if let Some(rest) = line.strip_prefix("gens:") {
            gens = Some(parse_gens(rest).map_err(err)?);
        } else {
            let Some(r) = &row else {
                return Err(err("a case before any `[mnemonic]` block".into()));
            };
            if !source {
                return Err(err(format!(
                    "block [{r}] has no `source:` line before its cases"
                )));
            }
            let Some(g) = &gens else {
                return Err(err("a case before any `gens:` line".into()));
            };
            // The assembly ends at the last ` | ` before `->` (`|v1|` is an absolute value).
            let shape = || err("a case is `assembly | inputs -> outputs`".into());
            let (head, outs) = line.split_once("->").ok_or_else(shape)?;
            let (asm, ins) = head.rsplit_once(" | ").ok_or_else(shape)?;
            let asm = asm.split(';').map(str::trim).collect::<Vec<_>>().join("\n");
            if !asm
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| uses_row(w, r))
            {
                return Err(err(format!("the assembly does not use `{r}`")));
            }
            let inputs = parse_assigns(ins).map_err(err)?;
            let (faults, outs): (Vec<&str>, Vec<&str>) = outs
                .split_whitespace()
                .partition(|t| t.starts_with("fault="));
            let fault = match faults.as_slice() {
                [] => None,
                [f] => Some(f["fault=".len()..].to_string()),
                _ => return Err(err("at most one `fault=`".into())),
            };
            let outputs = parse_assigns(&outs.join(" ")).map_err(err)?;
            if outputs.is_empty() && fault.is_none() {
                return Err(err("a case checks at least one output".into()));
            }
            cases.push(Case {
                at,
                row: r.clone(),
                processors: g.clone(),
                asm,
                inputs,
                outputs,
                fault,
            });
        }
    }
    Ok(cases)
}

/// True if the word `w` of the assembly is the mnemonic `row`, with or without an encoding
/// suffix (`_e32`, `_e64`, `_sdwa`, `_dpp`).
fn uses_row(w: &str, row: &str) -> bool {
    w == row
        || w.strip_prefix(row)
            .is_some_and(|s| matches!(s, "_e32" | "_e64" | "_sdwa" | "_dpp"))
}

fn parse_assigns(text: &str) -> Result<Vec<Assign>, String> {
    let mut out = Vec::new();
    for tok in text.split_whitespace() {
        let (l, v) = tok
            .split_once('=')
            .ok_or_else(|| format!("`{tok}` is not `place=value`"))?;
        let loc = parse_loc(l)?;
        let value = parse_value(v, &loc)?;
        out.push(Assign {
            loc,
            value,
            text: tok.to_string(),
        });
    }
    Ok(out)
}

/// Storage index of a named scalar register (see `gcnkit_emu::wave::sreg`).
fn sreg_named(name: &str) -> Option<(u16, u16)> {
    use gcnkit_emu::wave::sreg;
    Some(match name {
        "vcc" => (sreg::VCC, 2),
        "vcc_lo" => (sreg::VCC, 1),
        "vcc_hi" => (sreg::VCC + 1, 1),
        "exec" => (sreg::EXEC, 2),
        "exec_lo" => (sreg::EXEC, 1),
        "exec_hi" => (sreg::EXEC + 1, 1),
        "m0" => (sreg::M0, 1),
        "flat_scratch" => (sreg::FLAT_SCRATCH, 2),
        "flat_scratch_lo" => (sreg::FLAT_SCRATCH, 1),
        "flat_scratch_hi" => (sreg::FLAT_SCRATCH + 1, 1),
        "tba" => (sreg::TBA, 2),
        "tma" => (sreg::TMA, 2),
        _ => {
            let n: u16 = name.strip_prefix("ttmp")?.parse().ok()?;
            (sreg::TTMP0 + n, 1)
        }
    })
}

fn parse_num(s: &str) -> Result<u64, String> {
    let r = if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(&h.replace('_', ""), 16)
    } else if let Some(b) = s.strip_prefix("0b") {
        u64::from_str_radix(&b.replace('_', ""), 2)
    } else {
        s.replace('_', "").parse::<u64>()
    };
    r.map_err(|_| format!("`{s}` is not a number"))
}

/// `s5`, `s[4:7]`, `v3`, `v[0:1]`, `v3[7]` (lane 7), `a2`, named registers, `scc`, `mode`,
/// `mem32[16]`, `lds64[0x100]`.
fn parse_loc(s: &str) -> Result<Loc, String> {
    let bad = || format!("`{s}` is not a register or memory place");
    if s == "scc" {
        return Ok(Loc::Scc);
    }
    if s == "mode" {
        return Ok(Loc::Mode);
    }
    if s == "scratch_base" {
        return Ok(Loc::ScratchBase);
    }
    if s == "scratch_per_lane" {
        return Ok(Loc::ScratchPerLane);
    }
    if let Some((i, c)) = sreg_named(s) {
        return Ok(Loc::Sreg { index: i, count: c });
    }
    if s == "exports" {
        return Ok(Loc::ExportCount);
    }
    if let Some(rest) = s.strip_prefix("exp") {
        if let Some((n, field)) = rest.split_once('.') {
            let index: usize = n.parse().map_err(|_| bad())?;
            let field = match field {
                "target" => ExportField::Target,
                "en" => ExportField::En,
                "compr" => ExportField::Compr,
                "done" => ExportField::Done,
                "vm" => ExportField::Vm,
                "exec" => ExportField::Exec,
                _ => {
                    let d = field.strip_prefix('d').ok_or_else(bad)?;
                    let (k, lane) = match d.split_once('[') {
                        Some((k, l)) => {
                            let l = l.strip_suffix(']').ok_or_else(bad)?;
                            (k, Some(l.parse::<u8>().map_err(|_| bad())?))
                        }
                        None => (d, None),
                    };
                    let k: usize = k.parse().map_err(|_| bad())?;
                    if k > 3 || lane.is_some_and(|l| l >= 64) {
                        return Err(bad());
                    }
                    ExportField::Data { k, lane }
                }
            };
            return Ok(Loc::Export { index, field });
        }
    }
    for (prefix, kind) in [("mem", 0), ("lds", 1), ("gds", 2)] {
        if let Some(rest) = s.strip_prefix(prefix) {
            let (w, off) = rest.split_once('[').ok_or_else(bad)?;
            let off = off.strip_suffix(']').ok_or_else(bad)?;
            let bytes = match w {
                "8" => 1,
                "16" => 2,
                "32" => 4,
                "64" => 8,
                _ => return Err(bad()),
            };
            let offset = parse_expr(off)?.eval(0, 0);
            return Ok(match kind {
                0 => Loc::Mem { offset, bytes },
                1 => Loc::Lds { offset, bytes },
                _ => Loc::Gds { offset, bytes },
            });
        }
    }
    let kind = s.chars().next().ok_or_else(bad)?;
    if !matches!(kind, 's' | 'v' | 'a') {
        return Err(bad());
    }
    let rest = &s[1..];
    // Register number or range, then an optional lane.
    let (regs, lane) = if let Some(r) = rest.strip_prefix('[') {
        let (range, after) = r.split_once(']').ok_or_else(bad)?;
        (range.to_string(), after)
    } else {
        let end = rest.find('[').unwrap_or(rest.len());
        (rest[..end].to_string(), &rest[end..])
    };
    let (first, last) = match regs.split_once(':') {
        Some((a, b)) => (
            a.parse::<u16>().map_err(|_| bad())?,
            b.parse::<u16>().map_err(|_| bad())?,
        ),
        None => {
            let n = regs.parse::<u16>().map_err(|_| bad())?;
            (n, n)
        }
    };
    if last < first || last - first >= 32 {
        return Err(bad());
    }
    let lane = if lane.is_empty() {
        None
    } else {
        let l = lane
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .ok_or_else(bad)?;
        let l: u8 = l.parse().map_err(|_| bad())?;
        if l >= 64 {
            return Err(format!("`{s}`: lanes are 0..63"));
        }
        Some(l)
    };
    let count = last - first + 1;
    match kind {
        's' if lane.is_none() && last < 106 => Ok(Loc::Sreg {
            index: first,
            count,
        }),
        'v' if last < 256 => Ok(Loc::Vreg {
            index: first,
            count,
            lane,
        }),
        'a' if last < 256 => Ok(Loc::Vreg {
            index: 256 + first,
            count,
            lane,
        }),
        _ => Err(bad()),
    }
}

fn is_float_literal(s: &str) -> bool {
    let t = s.strip_prefix('-').unwrap_or(s);
    matches!(t, "inf" | "nan")
        || (t.starts_with(|c: char| c.is_ascii_digit())
            && t.contains(['.', 'e', 'E'])
            && t.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
            && t.parse::<f64>().is_ok())
}

fn parse_value(s: &str, loc: &Loc) -> Result<Value, String> {
    if s.contains(',') {
        let items = s
            .split(',')
            .map(|x| parse_value(x, &Loc::Mode))
            .collect::<Result<Vec<_>, _>>()?;
        let dwords = match loc {
            Loc::Sreg { count, .. } | Loc::Vreg { count, .. } => *count as usize,
            _ => return Err(format!("`{s}`: a list needs a register range")),
        };
        if items.len() != dwords {
            return Err(format!(
                "`{s}`: {} values for {dwords} registers",
                items.len()
            ));
        }
        return Ok(Value::List(items));
    }
    let width = loc.bits().max(32);
    let (body, width) = match s.strip_suffix('h') {
        Some(b) if is_float_literal(b) => (b, 16),
        _ => (s, width),
    };
    if is_float_literal(body) {
        let t = body.strip_prefix('-');
        let mag = t.unwrap_or(body);
        if mag == "nan" {
            return Ok(Value::AnyNan(width));
        }
        let x: f64 = if mag == "inf" {
            f64::INFINITY
        } else {
            mag.parse().map_err(|_| format!("`{s}` is not a number"))?
        };
        return Ok(Value::Float(if t.is_some() { -x } else { x }, width));
    }
    Ok(Value::Int(parse_expr(s)?))
}

/// Parses an integer expression: numbers, `lane`, `buf`, unary `-` `~`, binary `* + - << >> &
/// ^ |` with C's precedence, parentheses. No spaces (the line splits at spaces).
pub fn parse_expr(s: &str) -> Result<Expr, String> {
    let toks = tokenize(s)?;
    let mut p = ExprParser { toks, pos: 0 };
    let e = p.binary(0)?;
    if p.pos != p.toks.len() {
        return Err(format!("`{s}`: unexpected `{}`", p.toks[p.pos]));
    }
    Ok(e)
}

fn tokenize(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(s[start..i].to_string());
        } else if (c == '<' || c == '>') && b.get(i + 1) == Some(&b[i]) {
            out.push(s[i..i + 2].to_string());
            i += 2;
        } else if "+-*&|^~()".contains(c) {
            out.push(c.to_string());
            i += 1;
        } else {
            return Err(format!("`{s}`: unexpected `{c}`"));
        }
    }
    Ok(out)
}

struct ExprParser {
    toks: Vec<String>,
    pos: usize,
}

impl ExprParser {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(String::as_str)
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let t = self.peek().ok_or("incomplete expression")?.to_string();
        self.pos += 1;
        match t.as_str() {
            "-" => Ok(Expr::Neg(Box::new(self.primary()?))),
            "~" => Ok(Expr::Not(Box::new(self.primary()?))),
            "(" => {
                let e = self.binary(0)?;
                if self.peek() != Some(")") {
                    return Err("missing `)`".into());
                }
                self.pos += 1;
                Ok(e)
            }
            "lane" => Ok(Expr::Lane),
            "buf" => Ok(Expr::Buf),
            _ => Ok(Expr::Num(parse_num(&t)?)),
        }
    }

    /// Precedence climbing; levels from loosest: | ^ & shifts +- *.
    fn binary(&mut self, level: usize) -> Result<Expr, String> {
        const LEVELS: [&[&str]; 6] = [&["|"], &["^"], &["&"], &["<<", ">>"], &["+", "-"], &["*"]];
        if level == LEVELS.len() {
            return self.primary();
        }
        let mut lhs = self.binary(level + 1)?;
        while let Some(t) = self.peek() {
            if !LEVELS[level].contains(&t) {
                break;
            }
            let op = t.chars().next().unwrap_or('+');
            self.pos += 1;
            let rhs = self.binary(level + 1)?;
            lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }
}

/// The bits of a float value at a width (16, 32, 64), rounded to nearest even.
pub fn float_bits(x: f64, width: u32) -> u64 {
    match width {
        16 => half::f16::from_f64(x).to_bits() as u64,
        32 => (x as f32).to_bits() as u64,
        _ => x.to_bits(),
    }
}

/// True if `bits` is a NaN of `width`.
pub fn is_nan(bits: u64, width: u32) -> bool {
    match width {
        16 => half::f16::from_bits(bits as u16).is_nan(),
        32 => f32::from_bits(bits as u32).is_nan(),
        _ => f64::from_bits(bits).is_nan(),
    }
}
