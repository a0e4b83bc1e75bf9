//! `v_screen_partition_4se_b32` (gfx9, gfx908, gfx90a, gfx940; VOP1 and its VOP3 form).
//!
//! D = TABLE[S0[7:0]]: a 4-bit mask of the shader engines a screen tile touches, from a fixed
//! 256-entry table (the Vega ISA manual's V_SCREEN_PARTITION_4SE_B32 description, "4SE
//! version of LUT instruction for screen partitioning/filtering"; the table as CLRX's
//! GcnInstrsVop1.md transcribes it). Bits 31:8 of the source are ignored.

use gcnkit_isa::{Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{BuildContext, Op};
use crate::semantics::valu::{src32, write32};
use crate::wave::{Lanes, Wave};

/// The lookup table, indexed by S0[7:0] (rows of 16 entries).
#[rustfmt::skip]
const TABLE: [u8; 256] = [
    1, 3, 7, 15, 5, 15, 15, 15, 7, 15, 15, 15, 15, 15, 15, 15,
    15, 2, 6, 14, 15, 10, 15, 15, 15, 11, 15, 15, 15, 15, 15, 15,
    13, 15, 4, 12, 15, 15, 5, 15, 15, 15, 13, 15, 15, 15, 15, 15,
    9, 11, 15, 8, 15, 15, 15, 10, 15, 15, 15, 14, 15, 15, 15, 15,
    15, 15, 15, 15, 4, 12, 13, 15, 6, 15, 15, 15, 14, 15, 15, 15,
    15, 15, 15, 15, 15, 8, 9, 11, 15, 9, 9, 15, 15, 13, 15, 15,
    15, 15, 15, 15, 7, 15, 1, 3, 15, 15, 9, 15, 15, 15, 11, 15,
    15, 15, 15, 15, 6, 14, 15, 2, 6, 15, 15, 6, 15, 15, 15, 7,
    11, 15, 15, 15, 15, 15, 15, 15, 2, 3, 11, 15, 10, 15, 15, 15,
    15, 7, 15, 15, 15, 15, 15, 15, 15, 1, 9, 13, 15, 5, 15, 15,
    15, 15, 14, 15, 15, 15, 15, 15, 14, 15, 8, 12, 15, 15, 10, 15,
    15, 15, 15, 13, 15, 15, 15, 15, 6, 7, 15, 4, 15, 15, 15, 5,
    9, 15, 15, 15, 13, 15, 15, 15, 15, 15, 15, 15, 8, 12, 14, 15,
    15, 6, 6, 15, 15, 14, 15, 15, 15, 15, 15, 15, 15, 4, 6, 7,
    15, 15, 6, 15, 15, 15, 7, 15, 15, 15, 15, 15, 11, 15, 2, 3,
    9, 15, 15, 9, 15, 15, 15, 11, 15, 15, 15, 15, 9, 13, 15, 1,
];

/// The semantic function for `v_screen_partition_4se_b32`.
pub fn select(inst: &Instruction, _op: &mut Op, _ctx: &BuildContext<'_>) -> Option<ExecFn> {
    (inst.def().op == M::VScreenPartition4seB32).then_some(screen_partition_4se as ExecFn)
}

fn screen_partition_4se(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let s = src32(w, op, env, 0);
    let r: Lanes = std::array::from_fn(|l| TABLE[(s[l] & 0xff) as usize] as u32);
    write32(w, op, &r);
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    //! Expected values read off the manual's table (Vega ISA manual, V_SCREEN_PARTITION_4SE_B32;
    //! CLRX GcnInstrsVop1.md): entry 0 is 0x1, 1 is 0x3, 2 is 0x7, 4 is 0x5, 0x11 is 0x2,
    //! 0x22 is 0x4, 0x33 is 0x8, 0xff is 0x1; bits above 7 are ignored (0x100 reads entry 0).

    use crate::testing::run;

    #[test]
    fn entries_of_the_table() {
        for mcpu in ["gfx900", "gfx908", "gfx90a", "gfx940"] {
            let r = run(
                mcpu,
                "v_screen_partition_4se_b32 v1, v0\nv_screen_partition_4se_b32_e64 v2, v0",
                |w, _| {
                    let inputs = [0u32, 1, 2, 4, 0x11, 0x22, 0x33, 0xff, 0x100, 0xffff_ff33];
                    for (l, x) in inputs.iter().enumerate() {
                        w.v[0][l] = *x;
                    }
                },
            )
            .unwrap();
            let want = [0x1, 0x3, 0x7, 0x5, 0x2, 0x4, 0x8, 0x1, 0x1, 0x8];
            for (l, x) in want.iter().enumerate() {
                assert_eq!(r.wave.v[1][l], *x, "{mcpu} lane {l}");
                assert_eq!(r.wave.v[2][l], *x, "{mcpu} lane {l} e64");
            }
        }
    }
}
