//! Which rows of the instruction table have semantics, per generation: the numbers behind
//! the README's coverage table (`cargo xtask emu-coverage`).

use gcnkit_isa::instruction::Form;
use gcnkit_isa::{Gen, Instruction, Target, INSTRUCTIONS, PROCESSORS};

use crate::program::{blank_op, BuildContext};
use crate::semantics;

/// Coverage of one generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenCoverage {
    /// The generation.
    pub gen: Gen,
    /// Table rows that exist on it.
    pub rows: usize,
    /// Rows with semantics.
    pub emulated: usize,
    /// Mnemonics of the rows without semantics.
    pub missing: Vec<&'static str>,
}

/// A processor of `gen` (the first the target list has), for building.
fn processor_of(gen: Gen) -> Option<Target> {
    PROCESSORS.iter().find(|p| p.gen == gen).map(Target::new)
}

/// Coverage of every generation.
pub fn coverage() -> Vec<GenCoverage> {
    let mut out = Vec::new();
    for gen in Gen::ALL {
        let Some(target) = processor_of(gen) else {
            continue;
        };
        let ctx = BuildContext { target: &target };
        let mut c = GenCoverage {
            gen,
            rows: 0,
            emulated: 0,
            missing: Vec::new(),
        };
        for (id, def) in INSTRUCTIONS.iter().enumerate() {
            if def.opcode(gen).is_none() {
                continue;
            }
            c.rows += 1;
            let inst = Instruction {
                id: id as u16,
                gen,
                encoding: def.encoding,
                form: Form::Native,
                bits: 0,
                ext: None,
                len: def.encoding.base_len() as u8,
            };
            let mut op = blank_op(inst, 0);
            if semantics::select(&inst, &mut op, &ctx).is_some() {
                c.emulated += 1;
            } else {
                c.missing.push(def.mnemonic);
            }
        }
        out.push(c);
    }
    out
}
