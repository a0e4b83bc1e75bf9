//! Other mnemonics LLVM 19 accepts for some instructions: the `+alias=` lists of the table.
//!
//! The assembler reads an alias as its instruction; the disassembler always prints the
//! instruction's own name, as llvm-objdump does. An alias exists where its row does.

use std::sync::OnceLock;

use crate::table::InstrDef;
use crate::target::Gen;
use crate::{flags, Encoding, INSTRUCTIONS};

/// One alias.
#[derive(Clone, Copy, Debug)]
pub struct MnemonicAlias {
    /// The name written.
    pub alias: &'static str,
    /// The row it names.
    pub def: &'static InstrDef,
}

impl MnemonicAlias {
    /// The instruction's name in the table.
    pub fn canonical(&self) -> &'static str {
        self.def.mnemonic
    }

    /// True if LLVM accepts the alias on `gen`.
    pub fn exists_on(&self, gen: Gen) -> bool {
        self.def.opcode(gen).is_some()
    }

    /// The alias stands for the VOP3 (`_e64`) form only, with the 32-bit form's operand rules:
    /// src1 a VGPR, no source modifiers (gfx6/gfx7 reading gfx9's `_co` names, the aliases of
    /// VOP2 rows).
    pub fn vop3_with_vop2_operands(&self) -> bool {
        self.def.encoding == Encoding::Vop2
    }
}

/// Every alias of the table.
pub fn mnemonic_aliases() -> &'static [MnemonicAlias] {
    static LIST: OnceLock<Vec<MnemonicAlias>> = OnceLock::new();
    LIST.get_or_init(|| {
        INSTRUCTIONS
            .iter()
            .filter_map(|def| Some((def, def.flag_arg(flags::ALIAS)?)))
            .flat_map(|(def, list)| {
                list.split(',')
                    .map(move |alias| MnemonicAlias { alias, def })
            })
            .collect()
    })
}

/// The alias `name` (lower case, without a form suffix) on `gen`, if it is one.
pub fn mnemonic_alias(name: &str, gen: Gen) -> Option<&'static MnemonicAlias> {
    mnemonic_aliases()
        .iter()
        .find(|a| a.alias == name && a.exists_on(gen))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_names_an_instruction_of_its_generations_that_the_alias_is_not() {
        assert!(mnemonic_aliases().len() >= 28);
        for a in mnemonic_aliases() {
            for gen in Gen::ALL.into_iter().filter(|&g| a.exists_on(g)) {
                let here = |m: &str| {
                    INSTRUCTIONS
                        .iter()
                        .any(|d| d.mnemonic == m && d.opcode(gen).is_some())
                };
                assert!(here(a.canonical()), "{} on {gen:?}", a.canonical());
                assert!(!here(a.alias), "{} is an instruction on {gen:?}", a.alias);
            }
        }
    }
}
