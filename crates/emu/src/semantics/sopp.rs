//! Program control: SOPP (branches, barriers, waits, traps, messages, priorities) and the
//! SOP1/SOPK instructions that move the program counter (`s_getpc_b64`, `s_setpc_b64`,
//! `s_swappc_b64`, `s_call_b64`).
//!
//! Memory operations complete before the next instruction in this emulator, so `s_waitcnt`
//! has nothing to wait for; waves of a work-group interleave only at barriers, so
//! `s_sleep`, `s_setprio` and the performance hints change no result.

use gcnkit_isa::{Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{BuildContext, Op};
use crate::semantics::valu::scalar64;
use crate::wave::Wave;

/// The semantic function for `inst`, if it is program control.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = (op, ctx);
    Some(match inst.def().op {
        M::SNop
        | M::SWaitcnt
        | M::SSleep
        | M::SIcacheInv
        | M::SIncperflevel
        | M::SDecperflevel
        | M::STtracedata
        | M::SWakeup => nothing,
        M::SSethalt => set_halt,
        M::SSetkill => set_kill,
        M::SSetprio => set_priority,
        M::SEndpgm | M::SEndpgmSaved | M::SEndpgmOrderedPsDone => end_program,
        M::SBranch => branch,
        M::SCbranchScc0 => cbranch_scc0,
        M::SCbranchScc1 => cbranch_scc1,
        M::SCbranchVccz => cbranch_vccz,
        M::SCbranchVccnz => cbranch_vccnz,
        M::SCbranchExecz => cbranch_execz,
        M::SCbranchExecnz => cbranch_execnz,
        // No debugger is attached: the conditions are false.
        M::SCbranchCdbgsys
        | M::SCbranchCdbguser
        | M::SCbranchCdbgsysOrUser
        | M::SCbranchCdbgsysAndUser => nothing,
        M::SBarrier => barrier,
        M::STrap => trap,
        M::SSendmsg => send_message,
        M::SSendmsghalt => send_message_and_halt,
        M::SGetpcB64 => get_pc,
        M::SSetpcB64 => set_pc,
        M::SSwappcB64 => swap_pc,
        M::SCallB64 => call,
        _ => return None,
    })
}

fn nothing(_: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Ok(Flow::Next)
}

/// The fault of a halted wave: only a debugger or the host resumes it, and neither is here,
/// so the run stops instead of waiting forever.
fn halted(op: &Op) -> Fault {
    Fault::Unsupported(format!(
        "{}: the wave halted (a halted wave waits for a debugger or the host to resume it)",
        op.inst.mnemonic()
    ))
}

/// `s_sethalt`: "set HALT bit to value of SIMM16[0]; 1 = halt, 0 = clear HALT bit" (Vega and
/// CDNA ISA, SOPP). Outside a trap handler a set HALT stops the wave at once.
fn set_halt(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    if op.imm & 1 != 0 {
        Err(halted(op))
    } else {
        Ok(Flow::Next)
    }
}

/// `s_setkill`: "kill this wave if the least significant bit of the immediate constant is 1"
/// (CDNA ISA, SOPP): a killed wave ends, like `s_endpgm`; what it stored stays.
fn set_kill(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    if op.imm & 1 != 0 {
        Ok(Flow::End)
    } else {
        Ok(Flow::Next)
    }
}

/// `s_sendmsghalt`: the message of `s_sendmsg`, then the wave halts.
fn send_message_and_halt(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    send_message(w, op, env)?;
    Err(halted(op))
}

fn set_priority(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    w.priority = op.imm as u32 & 3;
    Ok(Flow::Next)
}

fn end_program(_: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Ok(Flow::End)
}

#[inline(always)]
fn jump(w: &mut Wave, op: &Op) -> Result<Flow, Fault> {
    if op.target == u32::MAX {
        let simm = op.imm as u16 as i16 as i64;
        return Err(Fault::BadJump((op.addr as i64 + 4 + simm * 4) as u64));
    }
    w.pc = op.target as usize;
    Ok(Flow::Next)
}

fn branch(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    jump(w, op)
}

macro_rules! conditional {
    ($name:ident, |$w:ident| $cond:expr) => {
        fn $name($w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
            if $cond {
                jump($w, op)
            } else {
                Ok(Flow::Next)
            }
        }
    };
}

conditional!(cbranch_scc0, |w| !w.scc);
conditional!(cbranch_scc1, |w| w.scc);
conditional!(cbranch_vccz, |w| w.vcc() == 0);
conditional!(cbranch_vccnz, |w| w.vcc() != 0);
conditional!(cbranch_execz, |w| w.exec() == 0);
conditional!(cbranch_execnz, |w| w.exec() != 0);

fn barrier(_: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Ok(Flow::Barrier)
}

/// `s_trap N` (docs/emulator-abi.md §12.2, the AMDHSA trap handler ABI): trap id 3 is
/// `llvm.debugtrap`, a no-op without a debugger; 2 is `llvm.trap` (abort); 1 is the
/// debugger's breakpoint, which halts the wave for a debugger that is not there: an error.
/// Every other id reaches the runtime's trap handler, which reports it: the dispatch stops.
fn trap(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let id = op.imm as u32 & 0xff;
    match id {
        3 => Ok(Flow::Next),
        1 => Err(Fault::Trap(id, ": breakpoint trap without a debugger")),
        2 => Err(Fault::Trap(id, ": llvm.trap / __builtin_trap")),
        _ => Err(Fault::Trap(id, "")),
    }
}

/// `s_sendmsg`: the message id is SIMM16[3:0] (gfx6-gfx9/CDNA). MSG_INTERRUPT (1) has no effect
/// on the wave and is dropped; every other message belongs to graphics, context switching or
/// the trap handler, and stops with an error (docs/emulator-abi.md §12.3).
fn send_message(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    match op.imm as u32 & 0xf {
        1 => Ok(Flow::Next),
        id => Err(Fault::Unsupported(format!(
            "unsupported s_sendmsg: message id {id} (only MSG_INTERRUPT is emulated)"
        ))),
    }
}

/// Address of the operation after `op`.
#[inline]
fn next_addr(op: &Op) -> u64 {
    op.addr + op.inst.len as u64
}

fn get_pc(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    w.set_sreg64(op.sdst, next_addr(op));
    Ok(Flow::Next)
}

/// Sets the program counter to the operation at byte address `addr` (indirect jumps).
pub(super) fn jump_to_address(w: &mut Wave, env: &Env<'_>, addr: u64) -> Result<Flow, Fault> {
    match env.program.op_at(addr) {
        Some(i) => {
            w.pc = i;
            Ok(Flow::Next)
        }
        None => Err(Fault::BadJump(addr)),
    }
}

fn set_pc(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let target = scalar64(w, env, op.src[0]);
    jump_to_address(w, env, target)
}

fn swap_pc(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    // Read the target before writing the return address: they may be the same registers.
    let target = scalar64(w, env, op.src[0]);
    w.set_sreg64(op.sdst, next_addr(op));
    jump_to_address(w, env, target)
}

fn call(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    w.set_sreg64(op.sdst, next_addr(op));
    jump(w, op)
}
