//! EXP (gfx6–gfx908): `exp tgt, src0, src1, src2, src3 [done] [compr] [vm]`.
//!
//! The export is recorded in the wave ([`crate::exports::ExportRecord`]); the dispatch hands
//! the records back with the launch. Fields (Southern Islands / GCN3 / Vega manuals, "Export
//! instructions" and the EXP microcode format; CLRX GcnInstrsExp... the EXP field table in
//! crates/isa/tables/exp.tbl): EN [3:0], TGT [9:4], COMPR [10], DONE [11], VM [12], VSRC0–3
//! one byte each in the second dword. With COMPR the data are two VGPRs of packed 16-bit
//! values, VSRC0 (enabled by EN bits 0–1) and VSRC1 (EN bits 2–3).

use gcnkit_isa::{Field, Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::exports::{target_name, ExportRecord};
use crate::program::{BuildContext, Op};
use crate::wave::Wave;

/// Operand layout in the op: `vaddr`, `vdata`, `vdata1`, `vdst` are VSRC0–3; `imm` holds the
/// first dword's fields.
pub fn select(inst: &Instruction, op: &mut Op, _ctx: &BuildContext<'_>) -> Option<ExecFn> {
    if inst.def().op != M::Exp {
        return None;
    }
    op.vaddr = inst.field(Field::Vsrc0) as u16;
    op.vdata = inst.field(Field::Vsrc1Exp) as u16;
    op.vdata1 = inst.field(Field::Vsrc2) as u16;
    op.vdst = inst.field(Field::Vsrc3) as u16;
    op.imm = (inst.field(Field::En)
        | inst.field(Field::Tgt) << 4
        | inst.field(Field::Compr) << 10
        | inst.field(Field::Done) << 11
        | inst.field(Field::Vm) << 12) as i64;
    Some(export)
}

fn export(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let bits = op.imm as u32;
    let en = (bits & 15) as u8;
    let target = (bits >> 4 & 63) as u8;
    let compr = bits >> 10 & 1 != 0;
    if target_name(target).is_none() {
        return Err(Fault::Unsupported(format!(
            "exp to target {target}, which is not an export target (mrt0-7 0-7, mrtz 8, null \
             9, pos0-3 12-15, param0-31 32-63)"
        )));
    }
    let regs = [op.vaddr, op.vdata, op.vdata1, op.vdst];
    // Which register feeds each dword, if any.
    let sources: [Option<u16>; 4] = if compr {
        [
            (en & 3 != 0).then_some(regs[0]),
            (en & 12 != 0).then_some(regs[1]),
            None,
            None,
        ]
    } else {
        std::array::from_fn(|i| (en >> i & 1 != 0).then_some(regs[i]))
    };
    let exec = w.exec();
    let data = (0..64)
        .filter(|l| exec >> l & 1 != 0)
        .map(|l| sources.map(|r| r.map_or(0, |r| w.v[r as usize][l])))
        .collect();
    w.exports.push(ExportRecord {
        target,
        en,
        compr,
        done: bits >> 11 & 1 != 0,
        vm: bits >> 12 & 1 != 0,
        exec,
        data,
    });
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    //! Expected records worked by hand from the EXP field descriptions (Vega ISA manual,
    //! "Export Instructions" and the EXP microcode format; GCN3 and Southern Islands the
    //! same fields): the values are the VGPRs the test put in, selected by EN and COMPR.

    use crate::exports::ExportRecord;
    use crate::testing::run;

    #[test]
    fn exports_record_target_enables_flags_and_active_lanes() {
        for mcpu in ["gfx600", "gfx700", "gfx803", "gfx900", "gfx908"] {
            let src = "exp mrt0 v0, v1, v2, v3 vm
                exp pos0 v4, off, v5, off done
                exp param31 v0, v1, off, off
                exp mrtz v0, v0, v1, v1 compr
                exp null off, off, off, off";
            let r = run(mcpu, src, |w, _| {
                for l in 0..64 {
                    for r in 0..6 {
                        w.v[r][l] = (r as u32) << 8 | l as u32;
                    }
                }
                w.set_exec(0b1010);
            })
            .unwrap();
            let e = &r.wave.exports;
            assert_eq!(e.len(), 5, "{mcpu}");
            let lanes = |regs: [Option<u32>; 4]| -> Vec<[u32; 4]> {
                [1u32, 3]
                    .iter()
                    .map(|&l| regs.map(|r| r.map_or(0, |r| r << 8 | l)))
                    .collect()
            };
            assert_eq!(
                e[0],
                ExportRecord {
                    target: 0,
                    en: 15,
                    compr: false,
                    done: false,
                    vm: true,
                    exec: 0b1010,
                    data: lanes([Some(0), Some(1), Some(2), Some(3)]),
                },
                "{mcpu}"
            );
            assert_eq!((e[1].target, e[1].en, e[1].done), (12, 0b0101, true));
            assert_eq!(e[1].data, lanes([Some(4), None, Some(5), None]), "{mcpu}");
            assert_eq!(e[1].target_name(), "pos0");
            assert_eq!((e[2].target, e[2].en), (63, 0b0011), "{mcpu}");
            assert_eq!(e[2].target_name(), "param31");
            assert_eq!(e[2].data, lanes([Some(0), Some(1), None, None]), "{mcpu}");
            // compr: dword 0 from VSRC0 (v0), dword 1 from VSRC1 (v1).
            assert_eq!((e[3].target, e[3].compr, e[3].en), (8, true, 15), "{mcpu}");
            assert_eq!(e[3].data, lanes([Some(0), Some(1), None, None]), "{mcpu}");
            assert_eq!((e[4].target, e[4].en), (9, 0), "{mcpu}");
            assert_eq!(e[4].data, vec![[0; 4]; 2], "{mcpu}");
        }
    }

    #[test]
    fn an_invalid_target_faults() {
        // EXP gfx9: word0 [31:26] 110001, TGT 10 at [9:4], EN 1; word1 VSRC0 = v0.
        let e = run("gfx900", ".long 0xc40000a1, 0x00000000", |_, _| {})
            .err()
            .unwrap();
        assert!(format!("{e}").contains("target 10"), "{e}");
    }
}
