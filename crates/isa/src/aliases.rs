//! Other mnemonics LLVM 19 accepts for some instructions, on some generations.
//!
//! The assembler reads an alias as its instruction; the disassembler always prints the
//! instruction's own name, as llvm-objdump does. The list was found by giving llvm-mc-19 the
//! test-vector text of every mnemonic that one generation has and another lacks, on the
//! generation that lacks it (gfx90a's on gfx940, gfx900's on gfx600 and gfx700), and keeping
//! what it accepted under another name; the BF16 names without `_1k` came from llvm-mc's
//! spelling suggestions on gfx940.

use crate::target::Gen;

/// One alias.
#[derive(Clone, Copy, Debug)]
pub struct MnemonicAlias {
    /// The name written.
    pub alias: &'static str,
    /// The instruction's name in the table.
    pub canonical: &'static str,
    /// Where LLVM accepts the alias.
    pub gens: &'static [Gen],
    /// The alias stands for the VOP3 (`_e64`) form only, with the 32-bit form's operand rules:
    /// src1 a VGPR, no source modifiers (gfx6/gfx7 reading gfx9's `_co` names).
    pub vop3_with_vop2_operands: bool,
}

const SI_CI: &[Gen] = &[Gen::Gfx6, Gen::Gfx7];
const GFX940: &[Gen] = &[Gen::Gfx940];

const fn si_ci(alias: &'static str, canonical: &'static str) -> MnemonicAlias {
    MnemonicAlias {
        alias,
        canonical,
        gens: SI_CI,
        vop3_with_vop2_operands: true,
    }
}

/// gfx940 renamed the MFMA instructions of gfx90a (by their block counts and type
/// spellings) and still accepts the old names.
const fn gfx940(alias: &'static str, canonical: &'static str) -> MnemonicAlias {
    MnemonicAlias {
        alias,
        canonical,
        gens: GFX940,
        vop3_with_vop2_operands: false,
    }
}

/// Every alias.
pub const MNEMONIC_ALIASES: &[MnemonicAlias] = &[
    si_ci("v_add_co_u32", "v_add_i32"),
    si_ci("v_sub_co_u32", "v_sub_i32"),
    si_ci("v_subrev_co_u32", "v_subrev_i32"),
    gfx940("v_mfma_f32_16x16x16bf16_1k", "v_mfma_f32_16x16x16_bf16"),
    gfx940("v_mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16_f16"),
    gfx940("v_mfma_f32_16x16x1f32", "v_mfma_f32_16x16x1_4b_f32"),
    gfx940("v_mfma_f32_16x16x4bf16_1k", "v_mfma_f32_16x16x4_4b_bf16"),
    gfx940("v_mfma_f32_16x16x4f16", "v_mfma_f32_16x16x4_4b_f16"),
    gfx940("v_mfma_f32_16x16x4f32", "v_mfma_f32_16x16x4_f32"),
    gfx940("v_mfma_f32_32x32x1f32", "v_mfma_f32_32x32x1_2b_f32"),
    gfx940("v_mfma_f32_32x32x2f32", "v_mfma_f32_32x32x2_f32"),
    gfx940("v_mfma_f32_32x32x4bf16_1k", "v_mfma_f32_32x32x4_2b_bf16"),
    gfx940("v_mfma_f32_32x32x4f16", "v_mfma_f32_32x32x4_2b_f16"),
    gfx940("v_mfma_f32_32x32x8bf16_1k", "v_mfma_f32_32x32x8_bf16"),
    gfx940("v_mfma_f32_32x32x8f16", "v_mfma_f32_32x32x8_f16"),
    gfx940("v_mfma_f32_4x4x1f32", "v_mfma_f32_4x4x1_16b_f32"),
    gfx940("v_mfma_f32_4x4x4bf16_1k", "v_mfma_f32_4x4x4_16b_bf16"),
    gfx940("v_mfma_f32_4x4x4f16", "v_mfma_f32_4x4x4_16b_f16"),
    gfx940("v_mfma_f64_16x16x4f64", "v_mfma_f64_16x16x4_f64"),
    gfx940("v_mfma_f64_4x4x4f64", "v_mfma_f64_4x4x4_4b_f64"),
    gfx940("v_mfma_i32_16x16x4i8", "v_mfma_i32_16x16x4_4b_i8"),
    gfx940("v_mfma_i32_32x32x4i8", "v_mfma_i32_32x32x4_2b_i8"),
    gfx940("v_mfma_i32_4x4x4i8", "v_mfma_i32_4x4x4_16b_i8"),
    // gfx90a's `_1k` BF16 instructions also by their names without `_1k`.
    gfx940("v_mfma_f32_32x32x4bf16", "v_mfma_f32_32x32x4_2b_bf16"),
    gfx940("v_mfma_f32_16x16x4bf16", "v_mfma_f32_16x16x4_4b_bf16"),
    gfx940("v_mfma_f32_4x4x4bf16", "v_mfma_f32_4x4x4_16b_bf16"),
    gfx940("v_mfma_f32_32x32x8bf16", "v_mfma_f32_32x32x8_bf16"),
    gfx940("v_mfma_f32_16x16x16bf16", "v_mfma_f32_16x16x16_bf16"),
];

/// The alias `name` (lower case, without a form suffix) on `gen`, if it is one.
pub fn mnemonic_alias(name: &str, gen: Gen) -> Option<&'static MnemonicAlias> {
    MNEMONIC_ALIASES
        .iter()
        .find(|a| a.alias == name && a.gens.contains(&gen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::INSTRUCTIONS;

    #[test]
    fn every_alias_names_an_instruction_of_its_generations_that_the_alias_is_not() {
        for a in MNEMONIC_ALIASES {
            for &gen in a.gens {
                let here = |m: &str| {
                    INSTRUCTIONS
                        .iter()
                        .any(|d| d.mnemonic == m && d.opcode(gen).is_some())
                };
                assert!(here(a.canonical), "{} on {gen:?}", a.canonical);
                assert!(!here(a.alias), "{} is an instruction on {gen:?}", a.alias);
            }
        }
    }
}
