//! The symbol table while assembling: labels, `.set` variables and undefined names.

use rustc_hash::FxHashMap;

use crate::expr::{Expr, SymbolValues};

use super::Binding;

/// How a symbol is defined.
#[derive(Clone, Debug)]
pub(crate) enum Def {
    /// Not (yet) defined.
    Undefined,
    /// A label: offset in a section.
    Label { section: usize, offset: u64 },
    /// A `.set`/`=` variable; absolute when the expression was at the time.
    Value(Expr),
}

/// A symbol under construction.
#[derive(Clone, Debug)]
pub(crate) struct Sym {
    pub name: String,
    pub def: Def,
    /// Set by `.globl`, `.weak` or `.local`.
    pub binding: Option<Binding>,
    pub st_type: u8,
    pub visibility: u8,
    /// `.size` expression.
    pub size: Option<(Expr, (usize, u64))>,
    /// Named by an expression that could not be resolved at once (kept in the output even
    /// if undefined).
    pub referenced: bool,
}

/// All symbols by name.
#[derive(Default)]
pub(crate) struct Symbols {
    pub list: Vec<Sym>,
    by_name: FxHashMap<String, usize>,
}

/// How deep `.set` variables may refer to each other before it counts as a cycle.
const MAX_DEPTH: u32 = 64;

impl Symbols {
    pub fn index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Creates the symbols `e` names that do not exist yet. llvm-mc creates a symbol when it
    /// first reads its name, and the symbol table is in that order.
    pub fn touch(&mut self, e: &Expr) {
        match e {
            Expr::Sym { name, .. } => {
                self.get_or_create(name);
            }
            Expr::Unary(_, a) => self.touch(a),
            Expr::Binary(_, a, b) => {
                self.touch(a);
                self.touch(b);
            }
            Expr::Num(_) | Expr::Dot => {}
        }
    }

    pub fn get_or_create(&mut self, name: &str) -> usize {
        if let Some(&i) = self.by_name.get(name) {
            return i;
        }
        let i = self.list.len();
        self.list.push(Sym {
            name: name.to_string(),
            def: Def::Undefined,
            binding: None,
            st_type: 0,
            visibility: 0,
            size: None,
            referenced: false,
        });
        self.by_name.insert(name.to_string(), i);
        i
    }

    fn absolute_at(&self, name: &str, depth: u32) -> Option<i64> {
        if depth > MAX_DEPTH {
            return None;
        }
        let sym = &self.list[*self.by_name.get(name)?];
        match &sym.def {
            Def::Value(Expr::Num(n)) => Some(*n),
            Def::Value(e) => e
                .eval(&Nested {
                    syms: self,
                    depth: depth + 1,
                })
                .ok(),
            _ => None,
        }
    }

    /// A view that answers [`SymbolValues`] with absolute values.
    pub fn values(&self) -> Nested<'_> {
        Nested {
            syms: self,
            depth: 0,
        }
    }
}

/// [`SymbolValues`] over the table, following `.set` variables to a bounded depth.
pub(crate) struct Nested<'a> {
    syms: &'a Symbols,
    depth: u32,
}

impl SymbolValues for Nested<'_> {
    fn value(&self, name: &str) -> Option<i64> {
        self.syms.absolute_at(name, self.depth)
    }
}
