//! The order of modifiers (LLVM's optional operands).
//!
//! llvm-mc parses an optional operand only at the operand positions its instruction's
//! assembly string allows, so modifiers must come in that string's order (any of them may
//! be left out): `offset:4 glc` assembles, `glc offset:4` does not ("not a valid
//! operand."). The cache-policy bits are one operand that gathers every bit written in a
//! row, in any order. Each encoder names the order of its form; [`check`] enforces it.

use crate::error::AsmError;
use crate::operand::Modifier;

/// Groups of modifier names in the order llvm-mc accepts them; names in one group share a
/// position (only the cache-policy group may hold more than one of them).
pub(crate) type Order = &'static [&'static [&'static str]];

/// The cache-policy bits: one operand in LLVM (`$cpol`). Each may also be written negated
/// (`noglc`), which names the same bit.
pub(crate) const CACHE: &[&str] = &["glc", "slc", "dlc", "scc", "sc0", "sc1", "nt"];

/// The modifier a name stands for: `noglc` is `glc` written negated, where `glc` is a
/// modifier of `order`.
fn base_name(order: Order, name: &str) -> &str {
    match name.strip_prefix("no") {
        Some(base) if order.iter().any(|g| g.contains(&base)) => base,
        _ => name,
    }
}

/// True for a cache-policy word, plain or negated.
pub(crate) fn is_cache(name: &str) -> bool {
    CACHE.contains(&name) || name.strip_prefix("no").is_some_and(|b| CACHE.contains(&b))
}

/// DS: `offset` or `offset0 offset1`, then `gds`.
pub(crate) const DS: Order = &[&["offset"], &["offset0"], &["offset1"], &["gds"]];
/// MUBUF: the addressing tokens come right after `soffset`, then the optional operands.
pub(crate) const MUBUF: Order = &[
    &["idxen"],
    &["offen"],
    &["addr64"],
    &["offset"],
    CACHE,
    &["lds"],
    &["tfe"],
];
/// MTBUF: `format:` is parsed with `soffset`, so it comes first.
pub(crate) const MTBUF: Order = &[
    &["format"],
    &["idxen"],
    &["offen"],
    &["addr64"],
    &["offset"],
    CACHE,
    &["tfe"],
];
/// FLAT, GLOBAL, SCRATCH.
pub(crate) const FLAT: Order = &[&["offset", "inst_offset"], CACHE, &["lds"]];
/// SMEM (gfx8+).
pub(crate) const SMEM: Order = &[&["offset"], CACHE];
/// MIMG (gfx6–gfx9).
pub(crate) const MIMG: Order = &[
    &["dmask"],
    &["unorm"],
    CACHE,
    &["r128", "a16"],
    &["tfe"],
    &["lwe"],
    &["da"],
    &["d16"],
];
/// EXP.
pub(crate) const EXP: Order = &[&["done"], &["compr"], &["vm"]];
/// VOP3 (and the `_e64` forms): `high` (f16 interpolation), `op_sel`, `clamp`, omod.
pub(crate) const VOP3: Order = &[&["high"], &["op_sel"], &["clamp"], &["mul", "div"]];
/// VOP3P.
pub(crate) const VOP3P: Order = &[
    &["op_sel"],
    &["op_sel_hi"],
    &["neg_lo"],
    &["neg_hi"],
    &["clamp"],
];
/// VOP3P-MAI (MFMA, SMFMAC).
pub(crate) const MAI: Order = &[&["cbsz"], &["abid"], &["blgp", "neg"]];
/// SDWA.
pub(crate) const SDWA: Order = &[
    &["clamp"],
    &["mul", "div"],
    &["dst_sel"],
    &["dst_unused"],
    &["src0_sel"],
    &["src1_sel"],
];
/// DPP: the control (one of many spellings), then masks, `bound_ctrl` and `fi`.
pub(crate) const DPP: Order = &[
    &[
        "quad_perm",
        "row_shl",
        "row_shr",
        "row_ror",
        "wave_shl",
        "wave_rol",
        "wave_shr",
        "wave_ror",
        "row_mirror",
        "row_half_mirror",
        "row_bcast",
        "row_newbcast",
    ],
    &["row_mask"],
    &["bank_mask"],
    &["bound_ctrl"],
    &["fi"],
];

/// The message llvm-mc gives for a modifier where its position allows none of that kind.
pub(crate) const NOT_VALID: &str = "not a valid operand.";

/// Checks that `mods` follow `order`; modifiers `order` does not name are left to the
/// encoder (which rejects those it does not use).
pub(crate) fn check(order: Order, mods: &[Modifier<'_>]) -> Result<(), AsmError> {
    let mut last: Option<usize> = None;
    let mut cache_seen: u32 = 0;
    for m in mods {
        let name = base_name(order, m.name);
        let Some(rank) = order.iter().position(|g| g.contains(&name)) else {
            continue;
        };
        let cache = order[rank] == CACHE;
        if cache {
            let bit = 1 << CACHE.iter().position(|&n| n == name).unwrap_or(0);
            if cache_seen & bit != 0 {
                return Err(AsmError::new(
                    m.span.clone(),
                    "duplicate cache policy modifier",
                ));
            }
            cache_seen |= bit;
        }
        if let Some(l) = last {
            if rank < l || (rank == l && !cache) {
                return Err(AsmError::new(m.span.clone(), NOT_VALID));
            }
        }
        last = Some(rank);
    }
    Ok(())
}
