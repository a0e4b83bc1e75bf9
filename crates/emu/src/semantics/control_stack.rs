//! The fork/join control stack (`s_cbranch_g_fork`, `s_cbranch_i_fork`, `s_cbranch_join`)
//! and the return from an exception handler (`s_rfe_b64`).
//!
//! The stack follows the instruction descriptions of S_CBRANCH_G_FORK, S_CBRANCH_I_FORK and
//! S_CBRANCH_JOIN (Southern Islands and GCN3 ISA manuals, SOP2/SOPK/SOP1; CLRX's
//! GcnInstrsSop2/Sopk/Sop1 pages) and the MODE register layout (CSP is MODE[31:29]): entry
//! `CSP` occupies SGPRs `s[4*CSP .. 4*CSP+3]`, the EXEC mask of the deferred path in the first
//! pair and its byte address in the second.
//!
//! A fork splits EXEC into the lanes whose mask bit is set (`passes`, going to the target) and
//! the others (`failures`, falling through). If all lanes agree it is a plain branch (or no
//! branch) and the stack is untouched. Otherwise the path with fewer lanes runs first (the
//! fall-through when `failures` has strictly fewer lanes, the target otherwise), the other
//! one is pushed and CSP increments. `s_cbranch_join S` pops an entry unless CSP equals `S`
//! (the CSP the program saved before forking, with `s_getreg`): EXEC and the program counter
//! come from the entry, CSP decrements. The last path reaching the join goes on with its own
//! EXEC: restoring the full mask is the program's business, as in the manuals' pseudo-code.
//!
//! The 3-bit CSP holds 0..=7, so the eighth nested push (CSP = 7) would need a CSP of 8: it
//! faults, as does a join that would pop below 0 — the manuals leave both undefined.
//!
//! `s_rfe_b64` sets the program counter to its operand (the manuals: "return from exception
//! handler and continue"); a compute wave here runs no trap handler, so there is no trap
//! state to leave and it is an indirect jump. `s_rfe_restore_b64` (gfx8, gfx9) is the same
//! jump; its second operand's bit 0 sets STATUS.INST_ATC, the address space instruction
//! fetches use (GCN3 manual: "possibly changing the instruction ATC mode"; the Linux driver's
//! gfx9 CWSR trap handler passes it so), which changes nothing for one code object in one
//! address space, so it is read and not kept.

use gcnkit_isa::{Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{BuildContext, Op};
use crate::semantics::sopp::jump_to_address;
use crate::semantics::valu::{scalar32, scalar64};
use crate::wave::Wave;

/// The semantic function for the fork/join and return-from-exception rows.
pub fn select(inst: &Instruction, _op: &mut Op, _ctx: &BuildContext<'_>) -> Option<ExecFn> {
    Some(match inst.def().op {
        M::SCbranchGFork => g_fork,
        M::SCbranchIFork => i_fork,
        M::SCbranchJoin => join,
        M::SRfeB64 | M::SRfeRestoreB64 => rfe,
        _ => return None,
    })
}

const CSP_SHIFT: u32 = 29;

#[inline]
fn csp(w: &Wave) -> u32 {
    w.mode.bits >> CSP_SHIFT
}

#[inline]
fn set_csp(w: &mut Wave, csp: u32) {
    w.mode.bits = (w.mode.bits & !(7 << CSP_SHIFT)) | (csp & 7) << CSP_SHIFT;
}

/// Where the fork goes for the passing lanes.
#[derive(Clone, Copy)]
enum Target {
    /// A byte address (from an SGPR pair).
    Address(u64),
    /// The resolved operation of a relative branch, with its byte address.
    Op(u32, u64),
}

fn fork(w: &mut Wave, op: &Op, env: &mut Env<'_>, target: Target) -> Result<Flow, Fault> {
    let mask = scalar64(w, env, op.src[0]);
    let exec = w.exec();
    let passes = exec & mask;
    let failures = exec & !mask;
    let target_addr = match target {
        Target::Address(a) | Target::Op(_, a) => a,
    };
    let go_target = |w: &mut Wave, env: &Env<'_>| match target {
        Target::Address(a) => jump_to_address(w, env, a),
        Target::Op(i, a) if i == u32::MAX => Err(Fault::BadJump(a)),
        Target::Op(i, _) => {
            w.pc = i as usize;
            Ok(Flow::Next)
        }
    };
    if passes == exec {
        return go_target(w, env);
    }
    if failures == exec {
        return Ok(Flow::Next);
    }
    let sp = csp(w);
    if sp >= 7 {
        return Err(Fault::Unsupported(format!(
            "{}: the fork/join control stack is full (CSP = 7 in MODE[31:29]; an eighth entry \
             has no CSP value)",
            op.inst.mnemonic()
        )));
    }
    let entry = (sp * 4) as u16;
    let next = op.addr + op.inst.len as u64;
    if failures.count_ones() < passes.count_ones() {
        w.set_exec(failures);
        w.set_sreg64(entry, passes);
        w.set_sreg64(entry + 2, target_addr);
        set_csp(w, sp + 1);
        Ok(Flow::Next)
    } else {
        w.set_exec(passes);
        w.set_sreg64(entry, failures);
        w.set_sreg64(entry + 2, next);
        set_csp(w, sp + 1);
        go_target(w, env)
    }
}

/// S_CBRANCH_G_FORK ssrc0 (mask), ssrc1 (64-bit byte address of the target).
fn g_fork(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let addr = scalar64(w, env, op.src[1]);
    fork(w, op, env, Target::Address(addr))
}

/// S_CBRANCH_I_FORK ssrc0 (mask), label (PC + 4 + simm16 * 4).
fn i_fork(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let simm = op.inst.field(gcnkit_isa::Field::Simm16) as u16 as i16 as i64;
    let addr = (op.addr as i64 + 4 + simm * 4) as u64;
    fork(w, op, env, Target::Op(op.target, addr))
}

/// S_CBRANCH_JOIN ssrc0 (the saved CSP).
fn join(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let saved = scalar32(w, env, op.src[0]);
    let sp = csp(w);
    if sp == saved {
        return Ok(Flow::Next);
    }
    if sp == 0 {
        return Err(Fault::Unsupported(format!(
            "{}: the fork/join control stack is empty (CSP = 0, saved CSP {saved})",
            op.inst.mnemonic()
        )));
    }
    let sp = sp - 1;
    set_csp(w, sp);
    let entry = (sp * 4) as u16;
    let exec = w.sreg64(entry);
    let addr = w.sreg64(entry + 2);
    w.set_exec(exec);
    jump_to_address(w, env, addr)
}

/// S_RFE_B64 and S_RFE_RESTORE_B64: PC = S0.u64.
fn rfe(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let addr = scalar64(w, env, op.src[0]);
    jump_to_address(w, env, addr)
}

#[cfg(test)]
mod tests {
    //! Expected values worked by hand from the S_CBRANCH_G_FORK / S_CBRANCH_I_FORK /
    //! S_CBRANCH_JOIN / S_RFE_B64 descriptions (Southern Islands ISA manual chapter 12 SOP2,
    //! SOPK, SOP1; GCN3 manual the same rows) and CLRX's GcnInstrsSop2/Sopk/Sop1 pages.

    use crate::exec::Fault;
    use crate::snippet::CODE_BASE;
    use crate::testing::run;

    const CSP: u32 = 29;

    /// An if/else written with the control stack: lanes with v0 != 0 set bit 0 of v1, the
    /// others bit 1; both paths join and then every lane sets bit 3. `s_getreg` saves CSP (0) into s10.
    /// The passing set (16 lanes) is smaller than the failing one (48): the target path runs
    /// first with EXEC = passes, and the failures (with the fall-through address) are pushed.
    #[test]
    fn i_fork_runs_both_paths_and_join_restores_exec() {
        for mcpu in ["gfx600", "gfx700", "gfx803", "gfx900"] {
            let src = "s_getreg_b32 s10, hwreg(HW_REG_MODE, 29, 3)
                v_cmp_ne_u32 vcc, 0, v0
                s_cbranch_i_fork vcc, taken
                v_or_b32 v1, 2, v1
                s_branch join
                taken:
                v_or_b32 v1, 1, v1
                join:
                s_cbranch_join s10
                s_mov_b64 exec, s[12:13]
                v_or_b32 v1, 8, v1";
            let r = run(mcpu, src, |w, _| {
                w.set_sreg64(12, u64::MAX);
                for l in 0..16 {
                    w.v[0][l * 4] = 1;
                }
            })
            .unwrap();
            // Two visits to join: the first pops (CSP 1 != 0), the second falls through with
            // EXEC still that of the second path (the program restores it from s[12:13]).
            for l in 0..64 {
                let want = if l % 4 == 0 { 1 | 8 } else { 2 | 8 };
                assert_eq!(r.wave.v[1][l], want, "{mcpu} lane {l}");
            }
            assert_eq!(r.wave.exec(), u64::MAX, "{mcpu}");
            assert_eq!(r.wave.mode.bits >> CSP, 0, "{mcpu}");
            // The pushed entry: failures in s[0:1], the fall-through address in s[2:3]
            // (the fork is the third instruction: s_getreg 4 bytes, v_cmp 4 bytes).
            let passes: u64 = (0..16).map(|l| 1u64 << (l * 4)).sum();
            assert_eq!(r.wave.sreg64(0), !passes, "{mcpu}");
            assert_eq!(r.wave.sreg64(2), CODE_BASE + 12, "{mcpu}");
        }
    }

    /// With more passing lanes than failing ones, the fall-through runs first and the
    /// target (an SGPR address for g_fork) is pushed with the passing mask.
    #[test]
    fn g_fork_pushes_the_target_when_failures_are_fewer() {
        let src = "s_getpc_b64 s[20:21]
            s_add_u32 s20, s20, 20
            s_addc_u32 s21, s21, 0
            s_cbranch_g_fork s[30:31], s[20:21]
            v_mov_b32 v1, 5
            s_cbranch_join s10
            v_mov_b32 v1, 7
            s_cbranch_join s10";
        // Every instruction is 4 bytes: s_getpc gives CODE_BASE + 4, + 20 = CODE_BASE + 24,
        // the `v_mov_b32 v1, 7`. The fall-through (8 failing lanes) runs first; its join
        // pops the passing lanes and jumps; their join finds CSP = s10 = 0 and goes on with
        // EXEC = the passing lanes.
        for mcpu in [
            "gfx600", "gfx700", "gfx803", "gfx900", "gfx908", "gfx90a", "gfx940",
        ] {
            let r = run(mcpu, src, |w, _| {
                w.s[10] = 0;
                w.set_sreg64(30, !0xffu64); // 56 lanes pass, 8 fail
            })
            .unwrap();
            for l in 0..64 {
                let want = if l < 8 { 5 } else { 7 };
                assert_eq!(r.wave.v[1][l], want, "{mcpu} lane {l}");
            }
            assert_eq!(r.wave.sreg64(0), !0xffu64, "{mcpu}");
            assert_eq!(r.wave.sreg64(2), CODE_BASE + 24, "{mcpu}");
            assert_eq!(r.wave.exec(), !0xffu64, "{mcpu}");
            assert_eq!(r.wave.mode.bits >> CSP, 0, "{mcpu}");
        }
    }

    #[test]
    fn a_uniform_fork_is_a_plain_branch_or_none() {
        // All lanes pass: jump, no push.
        let r = run(
            "gfx700",
            "s_cbranch_i_fork s[0:1], over\nv_mov_b32 v1, 1\nover:\nv_mov_b32 v2, 2",
            |w, _| w.set_sreg64(0, u64::MAX),
        )
        .unwrap();
        assert_eq!((r.wave.v[1][0], r.wave.v[2][0]), (0, 2));
        assert_eq!(r.wave.mode.bits >> CSP, 0);
        // No lane passes: fall through, no push.
        let r = run(
            "gfx700",
            "s_cbranch_i_fork s[0:1], over\nv_mov_b32 v1, 1\nover:\nv_mov_b32 v2, 2",
            |w, _| w.set_sreg64(0, 0),
        )
        .unwrap();
        assert_eq!((r.wave.v[1][0], r.wave.v[2][0]), (1, 2));
        assert_eq!(r.wave.mode.bits >> CSP, 0);
    }

    #[test]
    fn stack_overflow_and_underflow_fault() {
        let e = run("gfx803", "s_cbranch_join s0", |w, _| w.s[0] = 3)
            .err()
            .unwrap();
        assert!(
            matches!(&e, Fault::Unsupported(m) if m.contains("empty")),
            "{e:?}"
        );
        let e = run("gfx803", "s_cbranch_i_fork s[40:41], 0\ns_nop 0", |w, _| {
            w.mode.bits |= 7 << CSP;
            w.set_sreg64(40, 1);
        })
        .err()
        .unwrap();
        assert!(
            matches!(&e, Fault::Unsupported(m) if m.contains("full")),
            "{e:?}"
        );
    }

    #[test]
    fn rfe_jumps_to_its_operand() {
        for mcpu in [
            "gfx600", "gfx700", "gfx803", "gfx900", "gfx908", "gfx90a", "gfx940",
        ] {
            let r = run(
                mcpu,
                "s_getpc_b64 s[0:1]\ns_add_u32 s0, s0, 12\ns_rfe_b64 s[0:1]\nv_mov_b32 v1, 1\nv_mov_b32 v2, 2",
                |_, _| {},
            )
            .unwrap();
            assert_eq!((r.wave.v[1][0], r.wave.v[2][0]), (0, 2), "{mcpu}");
        }
    }
}
