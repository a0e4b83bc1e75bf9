//! What a VALU instruction form accepts besides its operands: the source modifiers of each
//! source, `clamp`, and the output modifier, as llvm-mc-19 accepts them.
//!
//! VOP3-only rows carry their modifiers in the table (`+mods=...`); for the `_e64`, SDWA and
//! DPP forms of VOP1/VOP2/VOPC rows they follow from the operand types, as in LLVM's VOP
//! profiles: FP sources take `neg`/`abs`, integer sources `sext` (SDWA; and VOP3 when the
//! instruction has an FP source), `clamp` goes with an FP source or result (integer clamp
//! only for the few instructions that have it, and never on gfx6/gfx7), omod with FP math.

use gcnkit_isa::{flags, DataType, Encoding, Gen, InstrDef, Role};

use super::order::NOT_VALID;
use super::INVALID_OPERAND;
use crate::error::AsmError;
use crate::operand::Operand;

/// The source modifiers one source accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModKind {
    /// None.
    None,
    /// `neg` and `abs` (`-x`, `|x|`).
    Fp,
    /// `sext`.
    Int,
}

/// Integer VOP2 instructions whose VOP3 form accepts `clamp` on gfx8+ (LLVM's integer clamp).
const INT_CLAMP: &[&str] = &[
    "v_add_u16",
    "v_sub_u16",
    "v_subrev_u16",
    "v_mul_i32_i24",
    "v_mul_u32_u24",
];

/// FP-source VOP1 instructions without an output modifier (LLVM's `_SPECIAL_OMOD` profile).
const NO_OMOD: &[&str] = &[
    "v_cvt_flr_i32_f32",
    "v_cvt_rpi_i32_f32",
    "v_frexp_exp_i32_f32",
    // gfx6/gfx7 VOP2 rows of instructions that are VOP3-only (without omod) from gfx8.
    "v_cvt_pknorm_i16_f32",
    "v_cvt_pknorm_u16_f32",
    "v_cvt_pkaccum_u8_f32",
];

/// What one form of a VALU row accepts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Caps {
    /// Modifier kinds of src0, src1, src2.
    pub mods: [ModKind; 3],
    /// `clamp` accepted.
    pub clamp: bool,
    /// Why `clamp` is refused (when it is).
    pub clamp_msg: &'static str,
    /// An output modifier accepted.
    pub omod: bool,
}

fn src_types(def: &InstrDef) -> [Option<DataType>; 3] {
    let ty = |role| def.operand(role).map(|o| o.ty);
    [ty(Role::Src0), ty(Role::Src1), ty(Role::Src2)]
}

impl Caps {
    /// The `_e64` (VOP3) form of a VOP1/VOP2/VOPC row.
    pub fn e64(def: &InstrDef, gen: Gen) -> Caps {
        let srcs = src_types(def);
        let name = def.mnemonic;
        let vopc = def.encoding == Encoding::Vopc;
        let any_fp = srcs[..2].iter().flatten().any(|t| t.is_float());
        let dst_float = def.operand(Role::Vdst).is_some_and(|o| o.ty.is_float());
        let cndmask = name == "v_cndmask_b32";
        let mut mods = [ModKind::None; 3];
        for (kind, src) in mods.iter_mut().zip(&srcs[..2]) {
            let Some(t) = src else { continue };
            *kind = if t.is_float() || cndmask {
                ModKind::Fp
            } else if any_fp && !vopc {
                ModKind::Int
            } else {
                ModKind::None
            };
        }
        let vop3b = def.encoding == Encoding::Vop2
            && def.operand(Role::Sdst).is_some()
            && def.operand(Role::Vdst).is_some();
        let int_dot = name.starts_with("v_dot") && !any_fp;
        let int_clamp = INT_CLAMP.contains(&name)
            || (gen.is_gfx9_family() && matches!(name, "v_add_u32" | "v_sub_u32" | "v_subrev_u32"));
        let clamp = if vopc {
            srcs[..2].iter().flatten().all(|t| t.is_float())
        } else {
            any_fp || dst_float || vop3b || int_clamp || int_dot
        };
        let (clamp, clamp_msg) = without_si_ci_int_clamp(clamp, gen, dst_float);
        Caps {
            mods,
            clamp,
            clamp_msg,
            omod: !vopc && (any_fp || dst_float) && !NO_OMOD.contains(&name) && !int_dot,
        }
    }

    /// A VOP3-only row: the modifiers its `+mods=` list names.
    pub fn vop3(def: &InstrDef, gen: Gen) -> Caps {
        let list = def.flag_arg(flags::MODS).unwrap_or("none");
        let has = |m: &str| list.split(',').any(|x| x == m);
        let srcs = src_types(def);
        let mut mods = [ModKind::None; 3];
        for (kind, src) in mods.iter_mut().zip(srcs) {
            let Some(t) = src else { continue };
            *kind = if t.is_float() && (has("neg") || has("abs")) {
                ModKind::Fp
            } else if !t.is_float() && has("sext") {
                ModKind::Int
            } else {
                ModKind::None
            };
        }
        let dst_float = def.operand(Role::Vdst).is_some_and(|o| o.ty.is_float());
        let (clamp, clamp_msg) = without_si_ci_int_clamp(has("clamp"), gen, dst_float);
        Caps {
            mods,
            clamp,
            clamp_msg,
            omod: has("omod"),
        }
    }

    /// The SDWA form: FP sources take `neg`/`abs`, the others `sext`; `clamp` always.
    pub fn sdwa(def: &InstrDef, gen: Gen) -> Caps {
        let e64 = Caps::e64(def, gen);
        let srcs = src_types(def);
        let cndmask = def.mnemonic == "v_cndmask_b32";
        let mut mods = [ModKind::None; 3];
        for (kind, src) in mods.iter_mut().zip(&srcs[..2]) {
            let Some(t) = src else { continue };
            *kind = if t.is_float() || cndmask {
                ModKind::Fp
            } else {
                ModKind::Int
            };
        }
        // SDWA has clamp whatever the types, except gfx9 compares (whose SDWA word holds
        // the SGPR destination there); an output modifier only with an FP result (LLVM's
        // HasSDWAOMod), unlike VOP3.
        let dst_float = def.operand(Role::Vdst).is_some_and(|o| o.ty.is_float());
        Caps {
            mods,
            clamp: !(def.encoding == Encoding::Vopc && gen.is_gfx9_family()),
            omod: e64.omod && dst_float,
            ..e64
        }
    }

    /// The DPP form: FP sources take `neg`/`abs`, 16-bit integer sources of an FP
    /// instruction `sext`, other sources nothing.
    pub fn dpp(def: &InstrDef, gen: Gen) -> Caps {
        let sdwa = Caps::sdwa(def, gen);
        let srcs = src_types(def);
        let any_fp = srcs[..2].iter().flatten().any(|t| t.is_float());
        let mut mods = sdwa.mods;
        for (m, t) in mods.iter_mut().zip(srcs) {
            if *m == ModKind::Int && !(any_fp && t.is_some_and(|t| t.is_16bit())) {
                *m = ModKind::None;
            }
        }
        Caps {
            mods,
            clamp: false,
            clamp_msg: INVALID_OPERAND,
            omod: false,
        }
    }

    /// Checks the source modifiers of source `i`.
    pub fn check_src(&self, i: usize, o: &Operand) -> Result<(), AsmError> {
        let m = o.mods;
        let ok = match self.mods.get(i).copied().unwrap_or(ModKind::None) {
            ModKind::None => !m.any(),
            ModKind::Fp => !m.sext,
            ModKind::Int => !m.neg && !m.abs,
        };
        if ok {
            Ok(())
        } else {
            Err(AsmError::new(o.span.clone(), NOT_VALID))
        }
    }
}

/// Takes `clamp` if present, refusing it where the form has none.
pub(crate) fn take_clamp(a: &mut super::Asm<'_>, caps: &Caps) -> Result<bool, AsmError> {
    match a.take_bit("clamp") {
        Some((_, m)) if !caps.clamp => Err(AsmError::new(m.span.clone(), caps.clamp_msg)),
        m => Ok(m.is_some_and(|(on, _)| on)),
    }
}

/// The output modifier (`mul:2` → 1, `mul:4` → 2, `div:2` → 3), refused where the form has
/// none.
pub(crate) fn take_omod(a: &mut super::Asm<'_>, caps: &Caps) -> Result<u32, AsmError> {
    if !caps.omod {
        // Left unused: the statement fails at the modifier.
        return Ok(0);
    }
    super::vop::omod(a)
}

/// Whether `clamp` is accepted, and llvm-mc's message where it is not: gfx6/gfx7 have no
/// integer clamping (for instructions whose result is not a float).
fn without_si_ci_int_clamp(clamp: bool, gen: Gen, dst_float: bool) -> (bool, &'static str) {
    if clamp && gen.is_si_ci() && !dst_float {
        (false, "integer clamping is not supported on this GPU")
    } else {
        (clamp, INVALID_OPERAND)
    }
}
