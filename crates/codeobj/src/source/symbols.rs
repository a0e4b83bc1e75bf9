//! Symbol attributes as assembler directives: `.globl`/`.weak`, `.type`, `.hidden`/
//! `.protected`/`.internal` and `.size`, so that an assembled and linked copy gives every
//! symbol the binding, type, visibility and size it had.

use std::fmt::Write as _;

use crate::Symbol;

/// ELF binding values.
const STB_GLOBAL: u8 = 1;
const STB_WEAK: u8 = 2;

/// What a symbol looks like in the symbol table, apart from its name and address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Attributes {
    /// `st_bind`.
    pub bind: u8,
    /// `st_type`.
    pub st_type: u8,
    /// `st_other & 3`.
    pub visibility: u8,
    /// `st_size`.
    pub size: u64,
}

impl Attributes {
    /// The attributes of `sym` with visibility `visibility`.
    pub fn of(sym: &Symbol, visibility: u8) -> Attributes {
        Attributes {
            bind: sym.st_bind,
            st_type: sym.st_type,
            visibility,
            size: sym.size,
        }
    }
}

/// True if `name` can be written in assembly source without quotes.
pub(crate) fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || "_.$".contains(c))
        && chars.all(|c| c.is_ascii_alphanumeric() || "_.$@".contains(c))
}

/// Appends the directives that give `name` the attributes `want`, leaving out the ones that
/// already hold in `have` (what a plain label, or an `.amdhsa_kernel` block, gives it).
pub(crate) fn write_attributes(out: &mut String, name: &str, want: Attributes, have: Attributes) {
    if want.bind != have.bind {
        match want.bind {
            STB_GLOBAL => writeln!(out, "\t.globl\t{name}"),
            STB_WEAK => writeln!(out, "\t.weak\t{name}"),
            _ => writeln!(out, "\t.local\t{name}"),
        }
        .ok();
    }
    if want.st_type != have.st_type {
        let kind = match want.st_type {
            0 => "@notype",
            1 => "@object",
            2 => "@function",
            5 => "@common",
            6 => "@tls_object",
            _ => "@amdgpu_hsa_kernel",
        };
        writeln!(out, "\t.type\t{name},{kind}").ok();
    }
    if want.visibility != have.visibility {
        let vis = match want.visibility {
            1 => ".internal",
            2 => ".hidden",
            3 => ".protected",
            // No directive sets default visibility back; an `.amdhsa_kernel` block copies
            // the kernel's, which is then already right.
            _ => return write_size(out, name, want, have),
        };
        writeln!(out, "\t{vis}\t{name}").ok();
    }
    write_size(out, name, want, have);
}

fn write_size(out: &mut String, name: &str, want: Attributes, have: Attributes) {
    if want.size != have.size {
        writeln!(out, "\t.size\t{name}, {}", want.size).ok();
    }
}

/// What a label defined in source has before any directive: local, untyped, default
/// visibility, size 0.
pub(crate) const LABEL: Attributes = Attributes {
    bind: 0,
    st_type: 0,
    visibility: 0,
    size: 0,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_protected_kernel_gets_every_directive() {
        let mut out = String::new();
        let want = Attributes {
            bind: STB_GLOBAL,
            st_type: 2,
            visibility: 3,
            size: 496,
        };
        write_attributes(&mut out, "k", want, LABEL);
        assert_eq!(
            out,
            "\t.globl\tk\n\t.type\tk,@function\n\t.protected\tk\n\t.size\tk, 496\n"
        );
        let mut none = String::new();
        write_attributes(&mut none, "k", want, want);
        assert!(none.is_empty());
    }

    #[test]
    fn names_that_need_quotes_are_recognised() {
        assert!(is_plain_name("_Z3fooPi.kd"));
        assert!(!is_plain_name("a b"));
        assert!(!is_plain_name("1abc"));
        assert!(!is_plain_name(""));
    }
}
