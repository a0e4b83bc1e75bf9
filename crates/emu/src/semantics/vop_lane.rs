//! Lane access: moving values between lanes and between the vector and scalar files
//! (`v_readlane_b32`, `v_readfirstlane_b32`, `v_writelane_b32`, `v_mbcnt_*`, `v_movrel*`,
//! `v_swap_b32`, `v_accvgpr_read/write`). DPP lane movement is part of the VALU framework
//! ([`crate::semantics::valu`]); `ds_permute`/`ds_bpermute`/`ds_swizzle` live with DS.

use gcnkit_isa::{Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{BuildContext, Op, Src};
use crate::semantics::valu::{raw32, scalar32, src32, write32, write_mask};
use crate::wave::{sreg, Lanes, Wave, ACC_BASE, LANES};

/// The semantic function for `inst`, if it is a lane-access operation.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    Some(match inst.def().op {
        M::VReadlaneB32 => readlane,
        M::VReadfirstlaneB32 => readfirstlane,
        M::VWritelaneB32 => writelane,
        M::VMbcntLoU32B32 => mbcnt_lo,
        M::VMbcntHiU32B32 => mbcnt_hi,
        M::VMovrelsB32 => movrels,
        M::VMovreldB32 => movreld,
        M::VMovrelsdB32 => movrelsd,

        M::VSwapB32 => swap,
        M::VAccvgprReadB32 => {
            // The source is an AccVGPR whatever the encoding's register file says.
            if let Src::Vreg(r) = op.src[0] {
                op.src[0] = Src::Vreg(ACC_BASE + (r % ACC_BASE));
            }
            accvgpr_move
        }
        M::VAccvgprWriteB32 => {
            op.vdst = ACC_BASE + (op.vdst % ACC_BASE);
            accvgpr_move
        }
        _ => return None,
    })
}

fn readlane(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let v = raw32(w, env, op.src[0]);
    let lane = scalar32(w, env, op.src[1]) as usize & 63;
    w.set_sreg(op.sdst, v[lane]);
    Ok(Flow::Next)
}

/// The value of the first active lane; lane 0 when EXEC is zero.
fn readfirstlane(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let v = raw32(w, env, op.src[0]);
    let exec = w.exec();
    let lane = if exec == 0 {
        0
    } else {
        exec.trailing_zeros() as usize
    };
    w.set_sreg(op.sdst, v[lane]);
    Ok(Flow::Next)
}

/// Writes one lane, whatever EXEC says.
fn writelane(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let value = scalar32(w, env, op.src[0]);
    let lane = scalar32(w, env, op.src[1]) as usize & 63;
    w.v[op.vdst as usize][lane] = value;
    Ok(Flow::Next)
}

/// Counts the set bits of src0 in the lanes below this one (lanes 0-31 for `_lo`).
fn mbcnt_lo(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let r: Lanes = std::array::from_fn(|l| {
        let below = if l >= 32 { u32::MAX } else { (1u32 << l) - 1 };
        (a[l] & below).count_ones().wrapping_add(b[l])
    });
    write32(w, op, &r);
    Ok(Flow::Next)
}

/// The same for lanes 32-63.
fn mbcnt_hi(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let r: Lanes = std::array::from_fn(|l| {
        let below = if l <= 32 { 0 } else { (1u32 << (l - 32)) - 1 };
        (a[l] & below).count_ones().wrapping_add(b[l])
    });
    write32(w, op, &r);
    Ok(Flow::Next)
}

/// A VGPR index plus M0, kept inside the VGPR file.
#[inline]
fn relative(base: u16, w: &Wave) -> usize {
    (base as usize + w.s[sreg::M0 as usize] as usize) % 256
}

fn vreg_of(src: Src) -> u16 {
    match src {
        Src::Vreg(r) => r,
        _ => 0,
    }
}

fn move_lanes(w: &mut Wave, op: &Op, from: usize, to: usize) {
    let mask = write_mask(w, op);
    let v = w.v[from];
    let d = &mut w.v[to];
    for l in 0..LANES {
        if mask >> l & 1 != 0 {
            d[l] = v[l];
        }
    }
}

/// v_movrels_b32: vdst = v[src0 + M0].
fn movrels(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let from = relative(vreg_of(op.src[0]), w);
    move_lanes(w, op, from, op.vdst as usize);
    Ok(Flow::Next)
}

/// v_movreld_b32: v[vdst + M0] = src0.
fn movreld(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let v = src32(w, op, env, 0);
    let to = relative(op.vdst, w);
    let mask = write_mask(w, op);
    for l in 0..LANES {
        if mask >> l & 1 != 0 {
            w.v[to][l] = v[l];
        }
    }
    Ok(Flow::Next)
}

/// v_movrelsd_b32: v[vdst + M0] = v[src0 + M0].
fn movrelsd(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let from = relative(vreg_of(op.src[0]), w);
    let to = relative(op.vdst, w);
    move_lanes(w, op, from, to);
    Ok(Flow::Next)
}

/// v_swap_b32: exchanges vdst and src0 in the active lanes.
fn swap(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = vreg_of(op.src[0]) as usize;
    let d = op.vdst as usize;
    let mask = w.exec();
    for l in 0..LANES {
        if mask >> l & 1 != 0 {
            let t = w.v[a][l];
            w.v[a][l] = w.v[d][l];
            w.v[d][l] = t;
        }
    }
    Ok(Flow::Next)
}

fn accvgpr_move(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let v = raw32(w, env, op.src[0]);
    let mask = w.exec();
    let d = &mut w.v[op.vdst as usize];
    for l in 0..LANES {
        if mask >> l & 1 != 0 {
            d[l] = v[l];
        }
    }
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    use crate::testing::{run, splat};

    #[test]
    fn lane_id_from_mbcnt() {
        let r = run(
            "gfx900",
            "v_mbcnt_lo_u32_b32 v1, -1, 0\nv_mbcnt_hi_u32_b32 v1, -1, v1",
            |_, _| {},
        )
        .unwrap();
        let expected: Vec<u32> = (0..64).collect();
        assert_eq!(r.wave.v[1].to_vec(), expected);
    }

    #[test]
    fn readfirstlane_takes_the_first_active_lane_and_readlane_any() {
        let r = run(
            "gfx900",
            "v_readfirstlane_b32 s4, v0\nv_readlane_b32 s5, v0, 63",
            |w, _| {
                w.v[0] = std::array::from_fn(|l| l as u32 * 10);
                w.set_exec(0xf0);
            },
        )
        .unwrap();
        assert_eq!(r.wave.s[4], 40);
        assert_eq!(r.wave.s[5], 630);
    }

    #[test]
    fn writelane_ignores_exec() {
        let r = run("gfx900", "v_writelane_b32 v2, s0, 5", |w, _| {
            w.s[0] = 77;
            w.set_exec(0);
            w.v[2] = splat(1);
        })
        .unwrap();
        assert_eq!(r.wave.v[2][5], 77);
        assert_eq!(r.wave.v[2][4], 1);
    }
}

#[cfg(test)]
mod gfx6_tests {
    use crate::testing::run;

    /// gfx6/gfx7 encode v_readlane_b32 as VOP2, with the SGPR destination in VDST.
    #[test]
    fn vop2_readlane_writes_its_sgpr_not_vcc() {
        for cpu in ["gfx600", "gfx700"] {
            let r = run(cpu, "v_readlane_b32 s7, v0, 3", |w, _| {
                w.v[0] = std::array::from_fn(|l| l as u32 + 100);
            })
            .unwrap();
            assert_eq!(r.wave.s[7], 103, "{cpu}");
            assert_eq!(r.wave.vcc(), 0, "{cpu}");
        }
    }
}
