//! Integer expressions as llvm-mc has them: C-like operators with LLVM's (GNU-flavour)
//! precedence, symbols, `.` for the current location, and the AMDGPU symbol variants
//! (`sym@rel32@lo`, `sym@abs32@hi`, `sym@gotpcrel`, ...).

use std::ops::Range;

use crate::lex::{Lexer, Punct, Tok};

/// A relocation variant written after a symbol name (`sym@rel32@lo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Variant {
    None,
    Rel32Lo,
    Rel32Hi,
    Rel64,
    Rel32,
    GotPcRel,
    GotPcRel32Lo,
    GotPcRel32Hi,
    Abs32Lo,
    Abs32Hi,
    Abs64,
}

impl Variant {
    fn parse(s: &str) -> Option<Variant> {
        Some(match s.to_ascii_lowercase().as_str() {
            "rel32@lo" => Variant::Rel32Lo,
            "rel32@hi" => Variant::Rel32Hi,
            "rel64" => Variant::Rel64,
            "rel32" => Variant::Rel32,
            "gotpcrel" => Variant::GotPcRel,
            "gotpcrel32@lo" => Variant::GotPcRel32Lo,
            "gotpcrel32@hi" => Variant::GotPcRel32Hi,
            "abs32@lo" => Variant::Abs32Lo,
            "abs32@hi" => Variant::Abs32Hi,
            "abs64" => Variant::Abs64,
            _ => return None,
        })
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum UnOp {
    Neg,
    Not,
    LNot,
    Plus,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Mul,
    Div,
    Mod,
    Shl,
    Shr,
    Or,
    /// `a ! b`: `a | ~b` (GNU as).
    OrNot,
    Xor,
    And,
    Add,
    Sub,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LAnd,
    LOr,
}

/// An integer expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A constant.
    Num(i64),
    /// A symbol, with its relocation variant.
    Sym {
        /// The symbol name.
        name: String,
        /// `@rel32@lo` and friends.
        variant: Variant,
    },
    /// `.`, the current location.
    Dot,
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

/// A leaf of an expression tree, as [`Expr::fold`] hands it over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf<'e> {
    /// A constant.
    Num(i64),
    /// A symbol and its relocation variant.
    Sym(&'e str, Variant),
    /// `.`, the current location.
    Dot,
}

/// Supplies the values of symbols (`.set` values, label addresses); `.` is asked for by
/// the name `"."`.
pub trait SymbolValues {
    /// The value of `name`, if known.
    fn value(&self, name: &str) -> Option<i64>;
}

/// A symbol table that knows nothing: every symbol is unresolved.
pub struct NoSymbols;

impl SymbolValues for NoSymbols {
    fn value(&self, _name: &str) -> Option<i64> {
        None
    }
}

/// Why an expression could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// A symbol has no value yet (or needs a relocation).
    Symbol(String),
    /// Division or remainder by zero.
    DivByZero,
}

impl Expr {
    /// Evaluates the expression with LLVM's 64-bit wrapping arithmetic.
    pub fn eval(&self, syms: &dyn SymbolValues) -> Result<i64, Unresolved> {
        self.fold(
            |leaf| match leaf {
                Leaf::Num(n) => Ok(n),
                // A relocation variant always leaves the value to the linker.
                Leaf::Sym(name, variant) if variant != Variant::None => {
                    Err(Unresolved::Symbol(name.to_string()))
                }
                Leaf::Sym(name, _) => syms
                    .value(name)
                    .ok_or_else(|| Unresolved::Symbol(name.to_string())),
                Leaf::Dot => syms
                    .value(".")
                    .ok_or_else(|| Unresolved::Symbol(".".into())),
            },
            |op, v| {
                Ok(match op {
                    UnOp::Neg => v.wrapping_neg(),
                    UnOp::Not => !v,
                    UnOp::LNot => (v == 0) as i64,
                    UnOp::Plus => v,
                })
            },
            binary,
        )
    }

    /// Folds the tree bottom-up: `leaf` gives the value of each leaf, `unary` and `binary`
    /// combine the values of an operator's operands. The tree is walked with a stack of its
    /// own, not by recursion, so no depth of input can exhaust the thread's stack; every
    /// evaluator of expressions (constants here, relocatable values in the program
    /// assembler) is one of these folds.
    pub fn fold<V, E>(
        &self,
        mut leaf: impl FnMut(Leaf<'_>) -> Result<V, E>,
        mut unary: impl FnMut(UnOp, V) -> Result<V, E>,
        mut binary: impl FnMut(BinOp, V, V) -> Result<V, E>,
    ) -> Result<V, E> {
        /// What is left to do: visit a node, or apply an operator to the values on top.
        enum Step<'e> {
            Visit(&'e Expr),
            Unary(UnOp),
            Binary(BinOp),
        }
        let mut work = vec![Step::Visit(self)];
        let mut values: Vec<V> = Vec::new();
        while let Some(step) = work.pop() {
            let value = match step {
                Step::Visit(Expr::Num(n)) => leaf(Leaf::Num(*n))?,
                Step::Visit(Expr::Sym { name, variant }) => leaf(Leaf::Sym(name, *variant))?,
                Step::Visit(Expr::Dot) => leaf(Leaf::Dot)?,
                Step::Visit(Expr::Unary(op, e)) => {
                    work.push(Step::Unary(*op));
                    work.push(Step::Visit(e));
                    continue;
                }
                Step::Visit(Expr::Binary(op, a, b)) => {
                    work.push(Step::Binary(*op));
                    work.push(Step::Visit(b));
                    work.push(Step::Visit(a));
                    continue;
                }
                // An operator's step is pushed under its operands' visits, so their values
                // are on top when it is reached.
                Step::Unary(op) => match values.pop() {
                    Some(v) => unary(op, v)?,
                    None => unreachable!("a unary operator without its operand"),
                },
                Step::Binary(op) => match (values.pop(), values.pop()) {
                    (Some(b), Some(a)) => binary(op, a, b)?,
                    _ => unreachable!("a binary operator without its operands"),
                },
            };
            values.push(value);
        }
        match values.pop() {
            Some(v) => Ok(v),
            None => unreachable!("an expression tree has a value"),
        }
    }

    /// The value if the expression is a plain constant.
    pub fn as_const(&self) -> Option<i64> {
        self.eval(&NoSymbols).ok()
    }
}

fn binary(op: BinOp, a: i64, b: i64) -> Result<i64, Unresolved> {
    use BinOp::*;
    Ok(match op {
        Mul => a.wrapping_mul(b),
        Div | Mod if b == 0 => return Err(Unresolved::DivByZero),
        Div => a.wrapping_div(b),
        Mod => a.wrapping_rem(b),
        Shl => a.wrapping_shl(b as u32),
        // llvm-mc's `>>` is a logical shift (MCAsmInfo's UseLogicalShr holds for AMDGPU):
        // `-16 >> 60` is 15. Like `<<`, the count is taken modulo 64.
        Shr => ((a as u64).wrapping_shr(b as u32)) as i64,
        OrNot => a | !b,
        Or => a | b,
        Xor => a ^ b,
        And => a & b,
        Add => a.wrapping_add(b),
        Sub => a.wrapping_sub(b),
        // Comparisons give -1 for true, as llvm-mc does (MCExpr uses all-ones).
        Eq => -((a == b) as i64),
        Ne => -((a != b) as i64),
        Lt => -((a < b) as i64),
        Le => -((a <= b) as i64),
        Gt => -((a > b) as i64),
        Ge => -((a >= b) as i64),
        LAnd => (a != 0 && b != 0) as i64,
        LOr => (a != 0 || b != 0) as i64,
    })
}

/// An expression syntax error: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// Byte range in the statement.
    pub span: Range<usize>,
    /// The message.
    pub message: String,
}

/// LLVM's GNU-flavour binary operator precedence (higher binds tighter).
fn precedence(p: Punct) -> Option<(u8, BinOp)> {
    use Punct as P;
    Some(match p {
        P::PipePipe => (1, BinOp::LOr),
        P::AmpAmp => (2, BinOp::LAnd),
        P::EqEq => (3, BinOp::Eq),
        P::NotEq | P::LessGreater => (3, BinOp::Ne),
        P::Less => (3, BinOp::Lt),
        P::LessEq => (3, BinOp::Le),
        P::Greater => (3, BinOp::Gt),
        P::GreaterEq => (3, BinOp::Ge),
        P::Plus => (4, BinOp::Add),
        P::Minus => (4, BinOp::Sub),
        P::Pipe => (5, BinOp::Or),
        P::Caret => (5, BinOp::Xor),
        P::Amp => (5, BinOp::And),
        P::Bang => (5, BinOp::OrNot),
        P::Star => (6, BinOp::Mul),
        P::Slash => (6, BinOp::Div),
        P::Percent => (6, BinOp::Mod),
        P::Shl => (6, BinOp::Shl),
        P::Shr => (6, BinOp::Shr),
        _ => return None,
    })
}

/// How deep an expression that does not fold to a constant may nest: operators over
/// operators (`-(-(-x))`, `x+x+...+x`). Every walk over an expression tree (evaluation,
/// relocation building, printing, dropping) recurses once per level, so the limit keeps
/// them within a thread's stack whatever the input. Parentheses and operators over
/// constants fold away as they are read and cost nothing; llvm-mc has no limit but runs out
/// of stack at 10,000 to 50,000 levels.
pub const MAX_EXPR_DEPTH: usize = 1000;

/// The error for an expression deeper than [`MAX_EXPR_DEPTH`].
fn too_deep(span: Range<usize>) -> ExprError {
    ExprError {
        span,
        message: format!("expression nested too deeply (more than {MAX_EXPR_DEPTH} levels)"),
    }
}

/// An operator read but not yet applied, with where it was written.
enum Pending {
    Unary(UnOp, Range<usize>),
    Binary(BinOp, u8, Range<usize>),
    /// An open parenthesis, or an open square bracket (`[1+2]` is llvm-mc's bracket
    /// expression, the same value as `(1+2)`).
    Open(Bracket),
}

/// Which bracket opened a group.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bracket {
    Paren,
    Square,
}

/// An operand: the expression and the height of its tree.
struct Operand {
    expr: Expr,
    height: usize,
}

impl Operand {
    fn leaf(expr: Expr) -> Operand {
        Operand { expr, height: 1 }
    }
}

/// Parses an expression at the lexer's position.
///
/// `allow_pipe` is false inside `|...|` (absolute-value bars), where `|` ends the operand
/// and, as in llvm-mc, only a primary expression is read: prefix operators over a number,
/// a symbol or a parenthesised expression (`|1+2|` is refused at the `+`, `|(1+2)|` is not).
///
/// The parser keeps its operators and operands on stacks of its own rather than recursing,
/// so that no nesting of parentheses or prefix operators can exhaust the thread's stack.
pub fn parse_expr(lex: &mut Lexer<'_>, allow_pipe: bool) -> Result<Expr, ExprError> {
    let mut ops: Vec<Pending> = Vec::new();
    let mut operands: Vec<Operand> = Vec::new();
    let mut open_parens = 0usize;
    loop {
        // An operand: prefix operators and opening parentheses, then a primary.
        let t = lex.next_token();
        let unary = match t.tok {
            Tok::Punct(Punct::Minus) => UnOp::Neg,
            Tok::Punct(Punct::Tilde) => UnOp::Not,
            Tok::Punct(Punct::Bang) => UnOp::LNot,
            Tok::Punct(Punct::Plus) => UnOp::Plus,
            Tok::Punct(Punct::LParen) => {
                ops.push(Pending::Open(Bracket::Paren));
                open_parens += 1;
                continue;
            }
            Tok::Punct(Punct::LBracket) => {
                ops.push(Pending::Open(Bracket::Square));
                open_parens += 1;
                continue;
            }
            _ => {
                operands.push(Operand::leaf(parse_primary(lex, t)?));
                // Binary operators and closing parentheses, until an operand is due.
                loop {
                    let t = lex.peek();
                    // Within `|...|` binary operators (`|` among them) stand only inside
                    // parentheses.
                    let binary_allowed = allow_pipe || open_parens > 0;
                    if let Some((prec, op)) = match t.tok {
                        Tok::Punct(p) if binary_allowed => precedence(p),
                        _ => None,
                    } {
                        // Left-associative: what binds at least as tightly is applied first.
                        reduce(&mut ops, &mut operands, prec)?;
                        lex.next_token();
                        ops.push(Pending::Binary(op, prec, t.span()));
                        break;
                    }
                    reduce(&mut ops, &mut operands, 0)?;
                    if open_parens == 0 {
                        return Ok(operands.pop().map_or(Expr::Num(0), |o| o.expr));
                    }
                    let close = lex.next_token();
                    // `reduce` stopped at the innermost opening bracket.
                    let (closer, message) = match ops.pop() {
                        Some(Pending::Open(Bracket::Square)) => {
                            (Punct::RBracket, "expected ']' in brackets expression")
                        }
                        _ => (Punct::RParen, "expected ')'"),
                    };
                    if !close.is(closer) {
                        return Err(ExprError {
                            span: close.span(),
                            message: message.into(),
                        });
                    }
                    open_parens -= 1;
                }
                continue;
            }
        };
        ops.push(Pending::Unary(unary, t.span()));
    }
}

/// Applies the pending operators down to the innermost open parenthesis: every prefix
/// operator, and binary operators of precedence `min_prec` or higher.
fn reduce(
    ops: &mut Vec<Pending>,
    operands: &mut Vec<Operand>,
    min_prec: u8,
) -> Result<(), ExprError> {
    loop {
        let applies = match ops.last() {
            Some(Pending::Unary(..)) => true,
            Some(Pending::Binary(_, prec, _)) => *prec >= min_prec,
            _ => false,
        };
        if !applies {
            return Ok(());
        }
        let result = match (ops.pop(), operands.pop()) {
            (Some(Pending::Unary(op, span)), Some(rhs)) => unary(op, rhs, span)?,
            (Some(Pending::Binary(op, _, span)), Some(rhs)) => match operands.pop() {
                Some(lhs) => binary_operand(op, lhs, rhs, span)?,
                None => return Ok(()),
            },
            _ => return Ok(()),
        };
        operands.push(result);
    }
}

fn unary(op: UnOp, operand: Operand, span: Range<usize>) -> Result<Operand, ExprError> {
    Ok(match operand.expr {
        Expr::Num(n) => Operand::leaf(Expr::Num(match op {
            UnOp::Neg => n.wrapping_neg(),
            UnOp::Not => !n,
            UnOp::LNot => (n == 0) as i64,
            UnOp::Plus => n,
        })),
        e => {
            let height = operand.height + 1;
            if height > MAX_EXPR_DEPTH {
                return Err(too_deep(span));
            }
            Operand {
                expr: Expr::Unary(op, Box::new(e)),
                height,
            }
        }
    })
}

fn binary_operand(
    op: BinOp,
    lhs: Operand,
    rhs: Operand,
    span: Range<usize>,
) -> Result<Operand, ExprError> {
    // Fold constants as we go: operands are nearly always plain numbers.
    if let (Expr::Num(a), Expr::Num(b)) = (&lhs.expr, &rhs.expr) {
        if let Ok(v) = binary(op, *a, *b) {
            return Ok(Operand::leaf(Expr::Num(v)));
        }
    }
    let height = lhs.height.max(rhs.height) + 1;
    if height > MAX_EXPR_DEPTH {
        return Err(too_deep(span));
    }
    Ok(Operand {
        expr: Expr::Binary(op, Box::new(lhs.expr), Box::new(rhs.expr)),
        height,
    })
}

fn parse_primary(lex: &mut Lexer<'_>, t: crate::lex::Token) -> Result<Expr, ExprError> {
    match t.tok {
        Tok::Int(v) => Ok(Expr::Num(v as i64)),
        // Inside an expression a real number stands for the bits of its double, as in
        // llvm-mc (`s_mov_b64 s[0:1], --4.0` is the integer 0x4010000000000000).
        Tok::Float(f) => Ok(Expr::Num(f.to_bits() as i64)),
        Tok::Ident => {
            let text = lex.text(&t);
            if text == "." {
                return Ok(Expr::Dot);
            }
            symbol(text, t.span())
        }
        _ => Err(ExprError {
            span: t.span(),
            message: "unknown token in expression".into(),
        }),
    }
}

fn symbol(text: &str, span: Range<usize>) -> Result<Expr, ExprError> {
    let (name, variant) = match text.find('@') {
        Some(i) if i > 0 => {
            let v = Variant::parse(&text[i + 1..]).ok_or_else(|| ExprError {
                span: span.clone(),
                message: format!("invalid variant '{}'", &text[i + 1..]),
            })?;
            (&text[..i], v)
        }
        _ => (text, Variant::None),
    };
    Ok(Expr::Sym {
        name: name.to_string(),
        variant,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Syms;
    impl SymbolValues for Syms {
        fn value(&self, name: &str) -> Option<i64> {
            match name {
                "a" => Some(10),
                "." => Some(0x100),
                _ => None,
            }
        }
    }

    fn eval(s: &str) -> Result<i64, Unresolved> {
        let mut l = Lexer::new(s);
        parse_expr(&mut l, true).unwrap().eval(&Syms)
    }

    #[test]
    fn gnu_precedence() {
        // `|`, `&`, `^` bind tighter than `+`/`-` in llvm-mc's GNU mode.
        assert_eq!(eval("1 + 2 * 3"), Ok(7));
        assert_eq!(eval("1 + 6 & 3"), Ok(3));
        assert_eq!(eval("1 << 4 + 1"), Ok(17));
        assert_eq!(eval("(1 + 2) * 3"), Ok(9));
        assert_eq!(eval("-~0"), Ok(1));
        assert_eq!(eval("!5 || 0"), Ok(0));
        assert_eq!(eval("3 > 2"), Ok(-1));
        assert_eq!(eval("-16 >> 60"), Ok(15));
        assert_eq!(eval("-1 >> 64"), Ok(-1));
        assert_eq!(eval("3 <> 4"), Ok(-1));
        assert_eq!(eval("3 <> 3"), Ok(0));
        assert_eq!(eval("1 ! 2"), Ok(-3));
        assert_eq!(eval("2 + 1 ! 0"), Ok(1));
        assert_eq!(eval("[1 + 2] * ([3])"), Ok(9));
    }

    #[test]
    fn symbols_and_dot() {
        assert_eq!(eval("a * 2 + ."), Ok(276));
        assert_eq!(eval("b + 1"), Err(Unresolved::Symbol("b".into())));
        assert_eq!(eval("a@abs32@lo"), Err(Unresolved::Symbol("a".into())));
        assert_eq!(eval("1 / 0"), Err(Unresolved::DivByZero));
    }

    #[test]
    fn variants_parse() {
        let mut l = Lexer::new("sym@gotpcrel32@hi");
        assert_eq!(
            parse_expr(&mut l, true).unwrap(),
            Expr::Sym {
                name: "sym".into(),
                variant: Variant::GotPcRel32Hi
            }
        );
        let mut l = Lexer::new("sym@bogus");
        assert!(parse_expr(&mut l, true).is_err());
    }
}
