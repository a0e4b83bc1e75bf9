//! Operand and modifier printing shared by the vector ALU printers (`vop32.rs` for
//! VOP1/VOP2/VOPC in all forms, `vop3.rs` for the VOP3-only, VOP3P and MAI instructions).
//!
//! LLVM prints source modifiers around the operand (`-v1`, `|v1|`, `-|v1|`, `neg(1.0)`,
//! `sext(v1)`) and instruction modifiers after the operands, in the order `clamp`, output
//! modifier (`mul:2`, `mul:4`, `div:2`), then `op_sel`-style lists.

use std::fmt::Write as _;

use gcnkit_isa::{DataType, Field, Gen, Instruction};

use crate::operands::{is_constant, push_src};
use crate::PrintError;

/// The modifiers of one source operand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SrcMods {
    /// Negate (`-x`, or `neg(x)` for a constant).
    pub neg: bool,
    /// Absolute value (`|x|`).
    pub abs: bool,
    /// Sign-extend (SDWA integer operands: `sext(x)`).
    pub sext: bool,
}

impl SrcMods {
    /// True if any modifier is set.
    pub fn any(self) -> bool {
        self.neg || self.abs || self.sext
    }
}

/// The VOP3 (VOP3A) `neg`/`abs` bits of source `index` (0..3).
///
/// Only meaningful for VOP3A words: in VOP3B (carry-out) words the `abs` bits hold the SGPR
/// destination, so callers must not ask for `abs` there.
pub(crate) fn vop3_src_mods(inst: &Instruction, index: u32) -> SrcMods {
    SrcMods {
        neg: inst.field(Field::Neg) >> index & 1 != 0,
        abs: inst.field(Field::Abs) >> index & 1 != 0,
        sext: false,
    }
}

/// Appends a source operand (register, inline constant or literal, as
/// [`push_src`](crate::operands::push_src) prints it) wrapped in its modifiers.
///
/// LLVM writes `neg(...)` instead of `-` for a negated constant without `abs`, because
/// `-1` and `neg(1)` are different values; with `abs` it keeps `-|...|`.
pub(crate) fn push_src_mods(
    out: &mut String,
    gen: Gen,
    value: u32,
    ty: DataType,
    literal: Option<u32>,
    mods: SrcMods,
) -> Result<(), PrintError> {
    let neg_call = mods.neg && !mods.abs && is_constant(gen, value);
    if mods.sext {
        out.push_str("sext(");
    }
    if mods.neg {
        out.push_str(if neg_call { "neg(" } else { "-" });
    }
    if mods.abs {
        out.push('|');
    }
    push_src(out, gen, value, ty, literal)?;
    if mods.abs {
        out.push('|');
    }
    if neg_call {
        out.push(')');
    }
    if mods.sext {
        out.push(')');
    }
    Ok(())
}

/// Appends ` clamp` when `clamp` is set.
pub(crate) fn push_clamp(out: &mut String, clamp: bool) {
    if clamp {
        out.push_str(" clamp");
    }
}

/// Appends the output modifier: 1 ` mul:2`, 2 ` mul:4`, 3 ` div:2`; nothing for 0.
pub(crate) fn push_omod(out: &mut String, omod: u32) {
    out.push_str(match omod {
        1 => " mul:2",
        2 => " mul:4",
        3 => " div:2",
        _ => "",
    });
}

/// Appends a bit-list modifier such as ` op_sel:[0,1,0]` or ` neg_hi:[1,0,0]`: `count`
/// entries, entry `i` being bit `i` of `bits`.
pub(crate) fn push_bit_list(out: &mut String, name: &str, bits: u32, count: u32) {
    let _ = write!(out, " {name}:[");
    for i in 0..count {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{}", bits >> i & 1);
    }
    out.push(']');
}

/// True if LLVM lets a source of type `ty` carry the floating-point `neg`/`abs` modifiers.
pub(crate) fn has_fp_mods(ty: DataType) -> bool {
    ty.is_float()
}

/// Appends a constant that LLVM decoded for an operand whose register class holds no
/// constants (an SGPR destination, a lane mask, a VGPR-only source), flagged as LLVM
/// flags it: `0.5/*Invalid immediate*/`. The constant prints as a 32-bit value.
pub(crate) fn push_invalid_imm(
    out: &mut String,
    gen: Gen,
    value: u32,
    literal: Option<u32>,
) -> Result<(), PrintError> {
    push_src(out, gen, value, DataType::B32, literal)?;
    out.push_str("/*Invalid immediate*/");
    Ok(())
}
