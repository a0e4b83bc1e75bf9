//! The end of assembly: fixups become bytes or relocations, symbols get their final
//! values, sizes and bindings.

use crate::expr::{BinOp, Expr, Leaf, UnOp, Variant};
use crate::FixupKind;

use super::state::{Asm, Patch, Pending};
use super::symbols::{for_each_symbol, Def};
use super::{Binding, Program, RelocTarget, Relocation, Symbol};

/// `R_AMDGPU_*` relocation types.
mod r {
    pub const ABS32_LO: u32 = 1;
    pub const ABS32_HI: u32 = 2;
    pub const ABS64: u32 = 3;
    pub const REL32: u32 = 4;
    pub const REL64: u32 = 5;
    pub const ABS32: u32 = 6;
    pub const GOTPCREL: u32 = 7;
    pub const GOTPCREL32_LO: u32 = 8;
    pub const GOTPCREL32_HI: u32 = 9;
    pub const REL32_LO: u32 = 10;
    pub const REL32_HI: u32 = 11;
    pub const REL16: u32 = 14;
}

/// What a term of a relocatable expression is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    /// An offset in a section (a label, or `.`), with the label's symbol if any.
    Label {
        section: usize,
        offset: u64,
        sym: Option<usize>,
    },
    /// An undefined symbol.
    External(usize),
}

/// A relocatable value: `add - sub + constant`, as llvm-mc's MCValue.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RelValue {
    add: Option<Anchor>,
    sub: Option<Anchor>,
    constant: i64,
    variant: Variant,
}

impl RelValue {
    fn constant(c: i64) -> RelValue {
        RelValue {
            add: None,
            sub: None,
            constant: c,
            variant: Variant::None,
        }
    }

    /// Folds `add - sub` when both are in the same section.
    fn simplify(mut self) -> RelValue {
        if let (
            Some(Anchor::Label {
                section: s1,
                offset: o1,
                ..
            }),
            Some(Anchor::Label {
                section: s2,
                offset: o2,
                ..
            }),
        ) = (self.add, self.sub)
        {
            if s1 == s2 {
                self.constant = self.constant.wrapping_add(o1 as i64 - o2 as i64);
                self.add = None;
                self.sub = None;
            }
        }
        self
    }

    fn absolute(&self) -> Option<i64> {
        (self.add.is_none() && self.sub.is_none()).then_some(self.constant)
    }
}

const NOT_RELOCATABLE: &str = "expected relocatable expression";

/// The relocatable values of variables, by symbol index, once computed.
pub(crate) type VariableValues = Vec<Option<Result<RelValue, String>>>;

impl Asm<'_> {
    /// Evaluates `e` at location `dot` as a relocatable value. The tree is walked with a
    /// stack of its own (a frame of this function takes kilobytes in a debug build), and
    /// variables are evaluated by [`Asm::variable_value`], without recursion either.
    fn eval_rel(&mut self, e: &Expr, dot: (usize, u64)) -> Result<RelValue, String> {
        e.fold(
            |leaf| match leaf {
                Leaf::Num(n) => Ok(RelValue::constant(n)),
                Leaf::Dot => Ok(RelValue {
                    add: Some(Anchor::Label {
                        section: dot.0,
                        offset: dot.1,
                        sym: None,
                    }),
                    ..RelValue::constant(0)
                }),
                Leaf::Sym(name, variant) => self.symbol_rel(name, variant),
            },
            unary_rel,
            combine,
        )
    }

    /// The relocatable value of the symbol `name` written with `variant`.
    fn symbol_rel(&mut self, name: &str, variant: Variant) -> Result<RelValue, String> {
        let i = self.syms.get_or_create(name);
        let mut v = match &self.syms.list[i].def {
            Def::Label { section, offset } => RelValue {
                add: Some(Anchor::Label {
                    section: *section,
                    offset: *offset,
                    sym: Some(i),
                }),
                ..RelValue::constant(0)
            },
            Def::Value(_) => self.variable_value(i)?,
            Def::Undefined => {
                self.syms.list[i].referenced = true;
                RelValue {
                    add: Some(Anchor::External(i)),
                    ..RelValue::constant(0)
                }
            }
        };
        if variant != Variant::None {
            v.variant = variant;
        }
        Ok(v)
    }

    /// The relocatable value of variable `i`. Every symbol is final by now, so each
    /// variable is evaluated once; the variables it is defined from are evaluated first,
    /// with a stack of their own, so that a chain of any length needs no recursion.
    fn variable_value(&mut self, i: usize) -> Result<RelValue, String> {
        if let Some(Some(v)) = self.variable_values.get(i) {
            return v.clone();
        }
        let len = self.syms.list.len();
        self.variable_values.resize(len, None);
        let mut stack = vec![i];
        let mut on_stack = vec![false; len];
        on_stack[i] = true;
        while let Some(&top) = stack.last() {
            let Def::Value(e) = &self.syms.list[top].def else {
                stack.pop();
                continue;
            };
            let (mut waiting, mut cyclic) = (false, false);
            for_each_symbol(e, |name| {
                let Some(k) = self.syms.index(name) else {
                    return;
                };
                let pending = matches!(self.syms.list[k].def, Def::Value(_))
                    && self.variable_values.get(k).is_some_and(Option::is_none);
                if !pending {
                    return;
                }
                if on_stack[k] {
                    cyclic = true;
                } else {
                    stack.push(k);
                    on_stack[k] = true;
                    waiting = true;
                }
            });
            if waiting {
                continue;
            }
            let value = if cyclic {
                // Assignments that would close a cycle are refused, so this is a safeguard.
                Err(format!(
                    "cyclic dependency detected for symbol '{}'",
                    self.syms.list[top].name
                ))
            } else {
                let e = e.clone();
                // A variable's value holds no `.` (it became a label at the assignment).
                self.eval_rel(&e, (0, 0))
            };
            self.variable_values[top] = Some(value);
            on_stack[top] = false;
            stack.pop();
        }
        self.variable_values[i]
            .clone()
            .unwrap_or(Err(NOT_RELOCATABLE.into()))
    }

    /// Resolves every fixup and builds the program; `None` if nothing can be built (the
    /// errors are in the diagnostics).
    pub(crate) fn resolve(&mut self) -> Option<Program> {
        let fixups = std::mem::take(&mut self.fixups);
        for f in &fixups {
            if let Err(message) = self.apply(f) {
                self.report(super::Severity::Error, &f.loc, message);
            }
        }
        let target = self.target?;
        let (symbols, map) = self.output_symbols();
        for section in &mut self.sections {
            for rel in &mut section.relocations {
                if let RelocTarget::Symbol(i) = rel.symbol {
                    rel.symbol = RelocTarget::Symbol(map[i]?);
                }
            }
        }
        Some(Program {
            target,
            code_object_version: self.code_object_version,
            sections: std::mem::take(&mut self.sections),
            symbols,
            instructions: std::mem::take(&mut self.instructions),
            warnings: Vec::new(),
        })
    }

    /// Patches one fixup, or records its relocation.
    fn apply(&mut self, f: &Pending<'_>) -> Result<(), String> {
        let v = self.eval_rel(&f.expr, (f.section, f.pc))?.simplify();
        match f.patch {
            Patch::Instruction(FixupKind::BranchSimm16) => self.branch(f, v),
            Patch::Instruction(FixupKind::Literal32) => self.literal(f, v),
            Patch::Data(size) => self.data(f, v, size),
        }
    }

    fn branch(&mut self, f: &Pending<'_>, v: RelValue) -> Result<(), String> {
        let target = match (v.add, v.sub) {
            // A global symbol may be preempted: llvm-mc leaves the branch to the linker,
            // and writes the field as if the symbol were at address 0.
            (Some(Anchor::Label { sym: Some(i), .. }), None) if self.is_global(i) => {
                self.patch(f, ((v.constant - 4) / 4) as u64, 2);
                return self.relocate(f, v, r::REL16);
            }
            (
                Some(Anchor::Label {
                    section, offset, ..
                }),
                None,
            ) if section == f.section => offset as i64 + v.constant,
            (Some(Anchor::External(i)), None) => {
                return Err(format!("undefined label '{}'", self.syms.list[i].name))
            }
            _ => return Err("branch target must be a label in the same section".into()),
        };
        // As llvm-mc: the distance in dwords rounded toward zero (a target that is not
        // dword-aligned is not an error), which must fit 16 signed bits.
        let delta = target - (f.pc as i64 + 4);
        let words = delta / 4;
        if !(i16::MIN as i64..=i16::MAX as i64).contains(&words) {
            return Err("branch size exceeds simm16".into());
        }
        self.patch(f, words as u64, 2);
        Ok(())
    }

    fn literal(&mut self, f: &Pending<'_>, v: RelValue) -> Result<(), String> {
        let pc_relative = is_pc_relative(&f.expr);
        if let (Some(c), false) = (v.absolute(), pc_relative) {
            self.patch(f, c as u64, 4);
            return Ok(());
        }
        let r_type = match v.variant {
            Variant::None if pc_relative => {
                // Resolved here when the target is a local label of this section.
                if let (
                    Some(Anchor::Label {
                        section,
                        offset,
                        sym,
                    }),
                    None,
                ) = (v.add, v.sub)
                {
                    if section == f.section && !sym.is_some_and(|i| self.is_global(i)) {
                        let value = offset as i64 + v.constant - f.at as i64;
                        self.patch(f, value as u64, 4);
                        return Ok(());
                    }
                }
                r::REL32
            }
            Variant::None => r::ABS32,
            other => variant_type(other, 4).ok_or("unsupported relocation variant")?,
        };
        self.relocate(f, v, r_type)
    }

    fn data(&mut self, f: &Pending<'_>, v: RelValue, size: u8) -> Result<(), String> {
        if let Some(c) = v.absolute() {
            self.patch(f, c as u64, size as usize);
            return Ok(());
        }
        // `sym - .` is PC-relative.
        let pc_relative =
            matches!(v.sub, Some(Anchor::Label { section, .. }) if section == f.section);
        let r_type = match (v.variant, size, pc_relative) {
            (Variant::None, 4, false) => r::ABS32,
            (Variant::None, 8, false) => r::ABS64,
            (Variant::None, 4, true) => r::REL32,
            (Variant::None, 8, true) => r::REL64,
            (other, _, false) if other != Variant::None => {
                variant_type(other, size).ok_or("unsupported relocation variant")?
            }
            _ => return Err("unsupported relocation type".into()),
        };
        let v = match (pc_relative, v.sub) {
            (true, Some(Anchor::Label { offset, .. })) => RelValue {
                sub: None,
                constant: v.constant + (f.at as i64 - offset as i64),
                ..v
            },
            _ => v,
        };
        self.relocate(f, v, r_type)
    }

    /// Records a relocation of `r_type` at the fixup for value `v`.
    fn relocate(&mut self, f: &Pending<'_>, v: RelValue, r_type: u32) -> Result<(), String> {
        if v.sub.is_some() {
            return Err(NOT_RELOCATABLE.into());
        }
        let (symbol, addend) = match v.add {
            Some(Anchor::External(i)) => (RelocTarget::Symbol(i), v.constant),
            Some(Anchor::Label {
                section,
                offset,
                sym,
            }) => match sym {
                Some(i) if self.is_global(i) => (RelocTarget::Symbol(i), v.constant),
                _ => (RelocTarget::Section(section), offset as i64 + v.constant),
            },
            // An absolute value in a PC-relative field: a relocation without a symbol.
            None => (RelocTarget::Absolute, v.constant),
        };
        if let RelocTarget::Symbol(i) = symbol {
            if self.syms.list[i].name.starts_with(".L") {
                return Err(format!(
                    "Undefined temporary symbol {}",
                    self.syms.list[i].name
                ));
            }
        }
        self.sections[f.section].relocations.push(Relocation {
            offset: f.at,
            r_type,
            symbol,
            addend,
        });
        Ok(())
    }

    fn is_global(&self, i: usize) -> bool {
        matches!(
            self.syms.list[i].binding,
            Some(Binding::Global | Binding::Weak)
        )
    }

    /// Writes the low `width` bytes of `value` at the fixup.
    fn patch(&mut self, f: &Pending<'_>, value: u64, width: usize) {
        let data = &mut self.sections[f.section].data;
        let at = f.at as usize;
        let bytes = value.to_le_bytes();
        if let Some(dst) = data.get_mut(at..at + width) {
            dst.copy_from_slice(&bytes[..width]);
        }
    }

    /// The symbols of the output and, for each symbol of the table, its index there.
    fn output_symbols(&mut self) -> (Vec<Symbol>, Vec<Option<usize>>) {
        let mut out = Vec::new();
        let mut map = vec![None; self.syms.list.len()];
        for (i, slot) in map.iter_mut().enumerate() {
            let sym = self.syms.list[i].clone();
            if sym.name.starts_with(".L") {
                continue;
            }
            let (section, value, defined) = match &sym.def {
                Def::Label { section, offset } => (Some(*section), *offset, true),
                Def::Value(e) => match self.eval_rel(e, (0, 0)).map(RelValue::simplify) {
                    Ok(v) => match (v.add, v.sub) {
                        (None, None) => (None, v.constant as u64, true),
                        (
                            Some(Anchor::Label {
                                section, offset, ..
                            }),
                            None,
                        ) => (Some(section), (offset as i64 + v.constant) as u64, true),
                        _ => continue,
                    },
                    Err(_) => continue,
                },
                Def::Undefined => {
                    if !sym.referenced && sym.binding.is_none() {
                        continue;
                    }
                    (None, 0, false)
                }
            };
            let size = match &sym.size {
                Some((e, dot)) => self
                    .eval_rel(e, *dot)
                    .ok()
                    .and_then(|v| v.simplify().absolute())
                    .unwrap_or(0) as u64,
                None => 0,
            };
            let binding = sym.binding.unwrap_or(if defined {
                Binding::Local
            } else {
                Binding::Global
            });
            *slot = Some(out.len());
            out.push(Symbol {
                name: sym.name,
                section,
                value,
                defined,
                binding,
                st_type: sym.st_type,
                visibility: sym.visibility,
                size,
            });
        }
        (out, map)
    }
}

/// Applies a unary operator to a relocatable value.
fn unary_rel(op: UnOp, v: RelValue) -> Result<RelValue, String> {
    Ok(match (op, v.absolute()) {
        (UnOp::Plus, _) => v,
        (UnOp::Neg, None) if v.sub.is_none() => RelValue {
            add: None,
            sub: v.add,
            constant: v.constant.wrapping_neg(),
            variant: v.variant,
        },
        (_, Some(c)) => RelValue::constant(match op {
            UnOp::Neg => c.wrapping_neg(),
            UnOp::Not => !c,
            UnOp::LNot => (c == 0) as i64,
            UnOp::Plus => c,
        }),
        _ => return Err(NOT_RELOCATABLE.into()),
    })
}

/// Combines two relocatable values with a binary operator.
fn combine(op: BinOp, a: RelValue, b: RelValue) -> Result<RelValue, String> {
    if let (Some(x), Some(y)) = (a.absolute(), b.absolute()) {
        return crate::expr::Expr::Binary(op, Box::new(Expr::Num(x)), Box::new(Expr::Num(y)))
            .eval(&crate::expr::NoSymbols)
            .map(RelValue::constant)
            .map_err(|_| "division by zero".to_string());
    }
    let variant = if a.variant != Variant::None {
        a.variant
    } else {
        b.variant
    };
    let v = match op {
        BinOp::Add => {
            if (a.add.is_some() && b.add.is_some()) || (a.sub.is_some() && b.sub.is_some()) {
                return Err(NOT_RELOCATABLE.into());
            }
            RelValue {
                add: a.add.or(b.add),
                sub: a.sub.or(b.sub),
                constant: a.constant.wrapping_add(b.constant),
                variant,
            }
        }
        BinOp::Sub => {
            if (a.add.is_some() && b.sub.is_some()) || (a.sub.is_some() && b.add.is_some()) {
                return Err(NOT_RELOCATABLE.into());
            }
            RelValue {
                add: a.add.or(b.sub),
                sub: a.sub.or(b.add),
                constant: a.constant.wrapping_sub(b.constant),
                variant,
            }
        }
        _ => return Err(NOT_RELOCATABLE.into()),
    };
    Ok(v.simplify())
}

/// The relocation type of a symbol variant in a field of `size` bytes.
fn variant_type(v: Variant, size: u8) -> Option<u32> {
    Some(match (v, size) {
        (Variant::Abs32Lo, 4) => r::ABS32_LO,
        (Variant::Abs32Hi, 4) => r::ABS32_HI,
        (Variant::Abs64, 8) => r::ABS64,
        (Variant::Rel32Lo, 4) => r::REL32_LO,
        (Variant::Rel32Hi, 4) => r::REL32_HI,
        (Variant::Rel32, 4) => r::REL32,
        (Variant::Rel64, 8) => r::REL64,
        (Variant::GotPcRel, 4) => r::GOTPCREL,
        (Variant::GotPcRel32Lo, 4) => r::GOTPCREL32_LO,
        (Variant::GotPcRel32Hi, 4) => r::GOTPCREL32_HI,
        _ => return None,
    })
}

/// True if llvm-mc encodes a literal holding `e` as PC-relative (`FK_PCRel_4`, its
/// `needsPCRel`): a symbol without an `abs32` variant anywhere in the expression, unless the
/// operation above it is a subtraction.
pub(crate) fn is_pc_relative(e: &Expr) -> bool {
    match e {
        Expr::Sym { variant, .. } => !matches!(variant, Variant::Abs32Lo | Variant::Abs32Hi),
        Expr::Binary(BinOp::Sub, _, _) => false,
        Expr::Binary(_, a, b) => is_pc_relative(a) || is_pc_relative(b),
        Expr::Unary(_, a) => is_pc_relative(a),
        Expr::Num(_) | Expr::Dot => false,
    }
}

/// An expression as llvm-mc prints it (in `-show-encoding` fixup notes and operands).
pub(crate) fn expr_text(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e);
    s
}

fn write_expr(s: &mut String, e: &Expr) {
    match e {
        Expr::Num(n) => s.push_str(&n.to_string()),
        Expr::Dot => s.push('.'),
        Expr::Sym { name, variant } => {
            s.push_str(name);
            s.push_str(match variant {
                Variant::None => "",
                Variant::Rel32Lo => "@rel32@lo",
                Variant::Rel32Hi => "@rel32@hi",
                Variant::Rel64 => "@rel64",
                Variant::Rel32 => "@rel32",
                Variant::GotPcRel => "@gotpcrel",
                Variant::GotPcRel32Lo => "@gotpcrel32@lo",
                Variant::GotPcRel32Hi => "@gotpcrel32@hi",
                Variant::Abs32Lo => "@abs32@lo",
                Variant::Abs32Hi => "@abs32@hi",
                Variant::Abs64 => "@abs64",
            });
        }
        Expr::Unary(op, inner) => {
            s.push(match op {
                UnOp::Neg => '-',
                UnOp::Not => '~',
                UnOp::LNot => '!',
                UnOp::Plus => '+',
            });
            write_operand(s, inner);
        }
        Expr::Binary(op, a, b) => {
            write_operand(s, a);
            s.push_str(match op {
                BinOp::Mul => "*",
                BinOp::Div => "/",
                BinOp::Mod => "%",
                BinOp::Shl => "<<",
                BinOp::Shr => ">>",
                BinOp::Or => "|",
                BinOp::OrNot => "!",
                BinOp::Xor => "^",
                BinOp::And => "&",
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Eq => "==",
                BinOp::Ne => "!=",
                BinOp::Lt => "<",
                BinOp::Le => "<=",
                BinOp::Gt => ">",
                BinOp::Ge => ">=",
                BinOp::LAnd => "&&",
                BinOp::LOr => "||",
            });
            write_operand(s, b);
        }
    }
}

/// Operands that are themselves operations are parenthesized, as llvm-mc prints them.
fn write_operand(s: &mut String, e: &Expr) {
    if matches!(e, Expr::Binary(..)) {
        s.push('(');
        write_expr(s, e);
        s.push(')');
    } else {
        write_expr(s, e);
    }
}
