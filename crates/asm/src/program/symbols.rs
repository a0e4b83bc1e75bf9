//! The symbol table while assembling: labels, `.set` variables and undefined names.

use std::cell::RefCell;

use rustc_hash::{FxHashMap, FxHashSet};

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
    /// Named by the value of some variable (so that assigning this symbol can make a cycle
    /// or change what other variables evaluate to).
    pub named_by_variable: bool,
}

/// All symbols by name.
#[derive(Default)]
pub(crate) struct Symbols {
    pub list: Vec<Sym>,
    by_name: FxHashMap<String, usize>,
    /// Absolute values of variables found by [`Symbols::absolute`] (`None`: not absolute
    /// now), kept until a symbol they depend on is assigned.
    absolute_cache: RefCell<FxHashMap<usize, Option<i64>>>,
    /// For each symbol, the variables whose value has named it (some may have been
    /// reassigned since: the set only grows, and is used to forget cached values).
    dependents: FxHashMap<usize, FxHashSet<usize>>,
}

impl Symbols {
    pub fn index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Creates the symbols `e` names that do not exist yet. llvm-mc creates a symbol when it
    /// first reads its name, and the symbol table is in that order.
    pub fn touch(&mut self, e: &Expr) {
        for_each_symbol(e, |name| {
            self.get_or_create(name);
        });
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
            named_by_variable: false,
        });
        self.by_name.insert(name.to_string(), i);
        i
    }

    /// Gives symbol `i` the definition `def` (a `.set` or `=`).
    pub fn define(&mut self, i: usize, def: Def) {
        self.forget_values_depending_on(i);
        if let Def::Value(e) = &def {
            for_each_symbol(e, |name| {
                if let Some(&k) = self.by_name.get(name) {
                    self.list[k].named_by_variable = true;
                    self.dependents.entry(k).or_default().insert(i);
                }
            });
        }
        self.list[i].def = def;
    }

    /// Drops the cached values of `i` and of the variables defined from it, directly or
    /// through others. A variable is cached only after every variable it names, so the walk
    /// stops at the first that is not cached: a chain reassigned link by link costs one step
    /// per assignment, not the length of the chain.
    fn forget_values_depending_on(&mut self, i: usize) {
        let cache = self.absolute_cache.get_mut();
        cache.remove(&i);
        let mut work = vec![i];
        while let Some(k) = work.pop() {
            for &d in self.dependents.get(&k).into_iter().flatten() {
                if cache.remove(&d).is_some() {
                    work.push(d);
                }
            }
        }
    }

    /// Whether giving symbol `i` the value `e` is refused, as llvm-mc refuses it.
    ///
    /// llvm-mc follows the variables `e` names (through their current values) and reports a
    /// recursive use when it meets symbol `i` itself as something other than a variable.
    /// Meeting `i` as a variable is no recursion to llvm-mc: a constant variable stands for
    /// its value (`.set a, a+1` adds one to the old value), and reassigning a variable whose
    /// value is not a constant is refused (here only where it would make `i` its own
    /// operand: a cycle).
    pub fn assignment_error(&self, i: usize, e: &Expr) -> Option<AssignmentError> {
        let mut met_self = false;
        if !self.list[i].named_by_variable {
            // Only `e` itself can name `i`: no variable refers to it.
            for_each_symbol(e, |name| met_self |= self.index(name) == Some(i));
        } else {
            let mut seen = FxHashSet::default();
            let mut work = vec![e];
            while let Some(expr) = work.pop() {
                for_each_symbol(expr, |name| {
                    let Some(k) = self.index(name) else { return };
                    if k == i {
                        met_self = true;
                    } else if let Def::Value(value) = &self.list[k].def {
                        if seen.insert(k) {
                            work.push(value);
                        }
                    }
                });
                if met_self {
                    break;
                }
            }
        }
        match (met_self, &self.list[i].def) {
            (false, _) | (true, Def::Value(Expr::Num(_))) => None,
            (true, Def::Value(_)) => Some(AssignmentError::NonAbsoluteReassignment),
            (true, _) => Some(AssignmentError::RecursiveUse),
        }
    }

    /// The absolute value of symbol `i`, following the variables it is defined from.
    ///
    /// The variables are followed with a stack of their own and each value found is kept,
    /// so that a chain of any length costs one visit per symbol and no recursion.
    fn absolute(&self, i: usize) -> Option<i64> {
        match &self.list[i].def {
            Def::Value(Expr::Num(n)) => return Some(*n),
            Def::Value(_) => {}
            _ => return None,
        }
        if let Some(v) = self.absolute_cache.borrow().get(&i) {
            return *v;
        }
        let mut stack = vec![i];
        let mut on_stack = FxHashSet::default();
        on_stack.insert(i);
        while let Some(&top) = stack.last() {
            let Def::Value(e) = &self.list[top].def else {
                stack.pop();
                continue;
            };
            let (mut waiting, mut cyclic) = (false, false);
            for_each_symbol(e, |name| {
                let Some(k) = self.index(name) else { return };
                let computed = matches!(
                    self.list[k].def,
                    Def::Value(Expr::Num(_)) | Def::Undefined | Def::Label { .. }
                ) || self.absolute_cache.borrow().contains_key(&k);
                if computed {
                    return;
                }
                if on_stack.contains(&k) {
                    cyclic = true;
                } else {
                    stack.push(k);
                    on_stack.insert(k);
                    waiting = true;
                }
            });
            if waiting {
                continue;
            }
            let value = if cyclic {
                None
            } else {
                e.eval(&Cached { syms: self }).ok()
            };
            self.absolute_cache.borrow_mut().insert(top, value);
            on_stack.remove(&top);
            stack.pop();
        }
        self.absolute_cache.borrow().get(&i).copied().flatten()
    }

    /// A view that answers [`SymbolValues`] with absolute values.
    pub fn values(&self) -> Values<'_> {
        Values { syms: self }
    }
}

/// Why an assignment is refused (see [`Symbols::assignment_error`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AssignmentError {
    /// llvm-mc's "Recursive use of 'NAME'".
    RecursiveUse,
    /// llvm-mc's "invalid reassignment of non-absolute variable 'NAME'".
    NonAbsoluteReassignment,
}

/// Calls `f` with the name of every symbol `e` names, left to right.
pub(crate) fn for_each_symbol<'e>(e: &'e Expr, mut f: impl FnMut(&'e str)) {
    let mut work = vec![e];
    while let Some(e) = work.pop() {
        match e {
            Expr::Sym { name, .. } => f(name),
            Expr::Unary(_, a) => work.push(a),
            Expr::Binary(_, a, b) => {
                work.push(b);
                work.push(a);
            }
            Expr::Num(_) | Expr::Dot => {}
        }
    }
}

/// [`SymbolValues`] over the table: the absolute values of symbols, following variables.
pub(crate) struct Values<'a> {
    syms: &'a Symbols,
}

impl SymbolValues for Values<'_> {
    fn value(&self, name: &str) -> Option<i64> {
        self.syms.absolute(self.syms.index(name)?)
    }
}

/// [`SymbolValues`] while [`Symbols::absolute`] works: the variables named have been
/// computed already.
struct Cached<'a> {
    syms: &'a Symbols,
}

impl SymbolValues for Cached<'_> {
    fn value(&self, name: &str) -> Option<i64> {
        let i = self.syms.index(name)?;
        match &self.syms.list[i].def {
            Def::Value(Expr::Num(n)) => Some(*n),
            Def::Value(_) => self.syms.absolute_cache.borrow().get(&i).copied().flatten(),
            _ => None,
        }
    }
}
