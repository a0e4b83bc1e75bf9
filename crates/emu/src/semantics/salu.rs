//! The scalar ALU: SOP1, SOP2, SOPK and SOPC (except the program-counter instructions, which
//! are program control and live in `sopp.rs`), plus the SOPP index-mode instructions
//! `s_set_gpr_idx_off` / `s_set_gpr_idx_mode`.
//!
//! Each instruction's operation follows AMD's ISA manuals (the "description from .arch file"
//! pseudo-code of the Vega / CDNA manuals, the same text for GCN 1.0–1.2 where the
//! instruction exists there) and the CLRX pages `GcnInstrsSop1.md`, `GcnInstrsSop2.md`,
//! `GcnInstrsSopk.md`, `GcnInstrsSopc.md`. SCC is written only where the manual says so:
//! moves, conditional moves and selects, bit reversal, find-first/last-bit, sign extension,
//! bitset, bfm, multiplies and the packs leave it unchanged.
//!
//! SOPK rows are mapped onto the SOP2/SOPC operations in [`select`]: the 16-bit constant
//! becomes `src[1]` (sign- or zero-extended as the instruction reads it) and the register in
//! bits [22:16] becomes `src[0]`, so `s_addk_i32` is `s_add_i32` with a constant, and so on.
//!
//! # Hardware registers (`s_getreg_b32`, `s_setreg_b32`, `s_setreg_imm32_b32`)
//!
//! `simm16` is `hwreg(id, offset, size)`: id in bits [5:0], offset in [10:6], size-1 in
//! [15:11]. [`select`] picks one semantic function per register id and precomputes the
//! field mask. What each register reads:
//!
//! | id | register | read | write |
//! |---|---|---|---|
//! | 1 | MODE | `w.mode.bits` | the fields of the generation (see [`mode_writable`]); GPR_IDX_EN is mirrored into `w.gpr_idx`; setting VSKIP or enabling an EXCP_EN trap faults (not emulated) |
//! | 2 | STATUS | SCC [0], USER_PRIO [4:3] (`s_setprio`), TRAP_EN [6] = 1 (the runtime installs a trap handler), EXECZ [9], VCCZ [10], VALID [16] = 1; everything else 0 (IN_TG [11] too: the wave does not know its group's size) | error |
//! | 3 | TRAPSTS | `w.trapsts` (0 unless written) | bits [21:0] (EXCP, SAVECTX, EXCP_CYCLE); DP_RATE [31:29] is read-only |
//! | 4 | HW_ID | see [`hw_id`] | error |
//! | 5 | GPR_ALLOC | the largest allocation (see [`gpr_alloc`]) | error |
//! | 6 | LDS_ALLOC | LDS_BASE 0, LDS_SIZE [20:12] = the work-group's LDS in allocation granules | error |
//! | 7 | IB_STS | 0: memory operations complete before the next instruction, so no counter is ever outstanding | error |
//! | 15 | SH_MEM_BASES (gfx9+) | [15:0] private aperture base [63:48], [31:16] shared aperture base [63:48] | error |
//! | other | | 0 (TBA/TMA 16-19 and XCC_ID 20 included) | error |
//!
//! `s_setreg` of a register other than MODE and TRAPSTS stops the run with an error, as
//! docs/emulator-abi.md §2.3 settles (user code cannot write them on hardware; LLVM never
//! tries).
//!
//! # GPR index mode (gfx8+)
//!
//! As in hardware, the state lives in MODE.GPR_IDX_EN (bit 27) and M0: the index in
//! M0[7:0], the operand mask in M0[15:12] (bit 0 src0, 1 src1, 2 src2, 3 vdst).
//! `s_set_gpr_idx_on`, `s_set_gpr_idx_off`, `s_set_gpr_idx_mode` and `s_setreg` of MODE also
//! keep `w.gpr_idx` in step: `Some(M0[15:12])` while enabled, `None` otherwise. A plain
//! write to M0 changes the index (and mask) the hardware uses without touching `w.gpr_idx`,
//! so the vector side should take the index, and the mask, from M0 whenever `w.gpr_idx` is
//! `Some`.
//!
//! # Not emulated
//!
//! The fork/join control stack, `s_rfe_b64` and `s_rfe_restore_b64` live in
//! `control_stack.rs`. Enabling a floating-point exception trap (MODE.EXCP_EN) faults with
//! [`Fault::Unsupported`]. VSKIP (`s_setvskip`, or MODE.VSKIP through
//! `s_setreg`) is honoured by the execution loop, which skips vector instructions while it is
//! set.

use gcnkit_isa::{Encoding, Field, Gen, Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{sreg_index, BuildContext, Op, Src};
use crate::semantics::valu::{scalar32, scalar64};
use crate::wave::{sreg, Wave};

/// MODE.GPR_IDX_EN.
const MODE_GPR_IDX_EN: u32 = 1 << 27;
/// MODE.VSKIP.
const MODE_VSKIP: u32 = 1 << 28;

/// The semantic function for `inst`, if it is a scalar ALU instruction.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    let gen = inst.gen;
    if inst.encoding == Encoding::Sopk {
        prepare_sopk(inst, op);
    }
    Some(match inst.def().op {
        // SOP2: arithmetic.
        M::SAddU32 => s_add_u32,
        M::SSubU32 => s_sub_u32,
        M::SAddI32 | M::SAddkI32 => s_add_i32,
        M::SSubI32 => s_sub_i32,
        M::SAddcU32 => s_addc_u32,
        M::SSubbU32 => s_subb_u32,
        M::SMinI32 => s_min_i32,
        M::SMinU32 => s_min_u32,
        M::SMaxI32 => s_max_i32,
        M::SMaxU32 => s_max_u32,
        M::SMulI32 | M::SMulkI32 => s_mul_i32,
        M::SMulHiU32 => s_mul_hi_u32,
        M::SMulHiI32 => s_mul_hi_i32,
        M::SAbsdiffI32 => s_absdiff_i32,
        M::SLshl1AddU32 => s_lshl1_add_u32,
        M::SLshl2AddU32 => s_lshl2_add_u32,
        M::SLshl3AddU32 => s_lshl3_add_u32,
        M::SLshl4AddU32 => s_lshl4_add_u32,
        // SOP2: selects and logic.
        M::SCselectB32 => s_cselect_b32,
        M::SCselectB64 => s_cselect_b64,
        M::SAndB32 => s_and_b32,
        M::SAndB64 => s_and_b64,
        M::SOrB32 => s_or_b32,
        M::SOrB64 => s_or_b64,
        M::SXorB32 => s_xor_b32,
        M::SXorB64 => s_xor_b64,
        M::SAndn2B32 => s_andn2_b32,
        M::SAndn2B64 => s_andn2_b64,
        M::SOrn2B32 => s_orn2_b32,
        M::SOrn2B64 => s_orn2_b64,
        M::SNandB32 => s_nand_b32,
        M::SNandB64 => s_nand_b64,
        M::SNorB32 => s_nor_b32,
        M::SNorB64 => s_nor_b64,
        M::SXnorB32 => s_xnor_b32,
        M::SXnorB64 => s_xnor_b64,
        // SOP2: shifts and bit fields.
        M::SLshlB32 => s_lshl_b32,
        M::SLshlB64 => s_lshl_b64,
        M::SLshrB32 => s_lshr_b32,
        M::SLshrB64 => s_lshr_b64,
        M::SAshrI32 => s_ashr_i32,
        M::SAshrI64 => s_ashr_i64,
        M::SBfmB32 => s_bfm_b32,
        M::SBfmB64 => s_bfm_b64,
        M::SBfeU32 => s_bfe_u32,
        M::SBfeI32 => s_bfe_i32,
        M::SBfeU64 => s_bfe_u64,
        M::SBfeI64 => s_bfe_i64,
        M::SPackLlB32B16 => s_pack_ll_b32_b16,
        M::SPackLhB32B16 => s_pack_lh_b32_b16,
        M::SPackHhB32B16 => s_pack_hh_b32_b16,
        // SOP1.
        M::SMovB32 | M::SMovkI32 => s_mov_b32,
        M::SMovB64 => s_mov_b64,
        M::SCmovB32 | M::SCmovkI32 => s_cmov_b32,
        M::SCmovB64 => s_cmov_b64,
        M::SNotB32 => s_not_b32,
        M::SNotB64 => s_not_b64,
        M::SWqmB32 => s_wqm_b32,
        M::SWqmB64 => s_wqm_b64,
        M::SBrevB32 => s_brev_b32,
        M::SBrevB64 => s_brev_b64,
        M::SBcnt0I32B32 => s_bcnt0_i32_b32,
        M::SBcnt0I32B64 => s_bcnt0_i32_b64,
        M::SBcnt1I32B32 => s_bcnt1_i32_b32,
        M::SBcnt1I32B64 => s_bcnt1_i32_b64,
        M::SFf0I32B32 => s_ff0_i32_b32,
        M::SFf0I32B64 => s_ff0_i32_b64,
        M::SFf1I32B32 => s_ff1_i32_b32,
        M::SFf1I32B64 => s_ff1_i32_b64,
        M::SFlbitI32B32 => s_flbit_i32_b32,
        M::SFlbitI32B64 => s_flbit_i32_b64,
        M::SFlbitI32 => s_flbit_i32,
        M::SFlbitI32I64 => s_flbit_i32_i64,
        M::SSextI32I8 => s_sext_i32_i8,
        M::SSextI32I16 => s_sext_i32_i16,
        M::SBitset0B32 => s_bitset0_b32,
        M::SBitset0B64 => s_bitset0_b64,
        M::SBitset1B32 => s_bitset1_b32,
        M::SBitset1B64 => s_bitset1_b64,
        M::SAbsI32 => s_abs_i32,
        M::SQuadmaskB32 => s_quadmask_b32,
        M::SQuadmaskB64 => s_quadmask_b64,
        M::SBitreplicateB64B32 => s_bitreplicate_b64_b32,
        M::SAndSaveexecB64 => s_and_saveexec_b64,
        M::SOrSaveexecB64 => s_or_saveexec_b64,
        M::SXorSaveexecB64 => s_xor_saveexec_b64,
        M::SAndn2SaveexecB64 => s_andn2_saveexec_b64,
        M::SOrn2SaveexecB64 => s_orn2_saveexec_b64,
        M::SNandSaveexecB64 => s_nand_saveexec_b64,
        M::SNorSaveexecB64 => s_nor_saveexec_b64,
        M::SXnorSaveexecB64 => s_xnor_saveexec_b64,
        M::SAndn1SaveexecB64 => s_andn1_saveexec_b64,
        M::SOrn1SaveexecB64 => s_orn1_saveexec_b64,
        M::SAndn1WrexecB64 => s_andn1_wrexec_b64,
        M::SAndn2WrexecB64 => s_andn2_wrexec_b64,
        M::SMovrelsB32 | M::SMovrelsB64 => {
            // The source is a register by the encoding's rules; anything else reads
            // nothing (a window of the null register).
            let base = match op.src[0] {
                Src::Sreg(base) => base,
                _ => sreg::NULL,
            };
            if inst.def().op == M::SMovrelsB32 {
                relative_window(op, gen, base, 1);
                s_movrels_b32
            } else {
                relative_window(op, gen, base, 2);
                s_movrels_b64
            }
        }
        M::SMovreldB32 | M::SMovreldB64 => {
            if inst.def().op == M::SMovreldB32 {
                relative_window(op, gen, op.sdst, 1);
                s_movreld_b32
            } else {
                relative_window(op, gen, op.sdst, 2);
                s_movreld_b64
            }
        }
        M::SSetGprIdxIdx => s_set_gpr_idx_idx,
        // SOPC (and the SOPK compares, whose operands prepare_sopk laid out the same way).
        M::SCmpEqI32 | M::SCmpkEqI32 | M::SCmpEqU32 | M::SCmpkEqU32 => s_cmp_eq_32,
        M::SCmpLgI32 | M::SCmpkLgI32 | M::SCmpLgU32 | M::SCmpkLgU32 => s_cmp_lg_32,
        M::SCmpGtI32 | M::SCmpkGtI32 => s_cmp_gt_i32,
        M::SCmpGeI32 | M::SCmpkGeI32 => s_cmp_ge_i32,
        M::SCmpLtI32 | M::SCmpkLtI32 => s_cmp_lt_i32,
        M::SCmpLeI32 | M::SCmpkLeI32 => s_cmp_le_i32,
        M::SCmpGtU32 | M::SCmpkGtU32 => s_cmp_gt_u32,
        M::SCmpGeU32 | M::SCmpkGeU32 => s_cmp_ge_u32,
        M::SCmpLtU32 | M::SCmpkLtU32 => s_cmp_lt_u32,
        M::SCmpLeU32 | M::SCmpkLeU32 => s_cmp_le_u32,
        M::SCmpEqU64 => s_cmp_eq_u64,
        M::SCmpLgU64 => s_cmp_lg_u64,
        M::SBitcmp0B32 => s_bitcmp0_b32,
        M::SBitcmp1B32 => s_bitcmp1_b32,
        M::SBitcmp0B64 => s_bitcmp0_b64,
        M::SBitcmp1B64 => s_bitcmp1_b64,
        M::SSetvskip => s_setvskip,
        M::SSetGprIdxOn => {
            // The SSRC1 field is not a source: its raw low four bits are the operand mask.
            op.imm = (inst.field(Field::Ssrc1) & 15) as i64;
            s_set_gpr_idx_on
        }
        // SOPP index mode.
        M::SSetGprIdxOff => s_set_gpr_idx_off,
        M::SSetGprIdxMode => {
            op.imm = (inst.field(Field::Simm16) & 15) as i64;
            s_set_gpr_idx_mode
        }
        // Hardware registers.
        M::SGetregB32 => select_getreg(gen, op),
        M::SSetregB32 | M::SSetregImm32B32 => select_setreg(gen, op),
        // Control-stack branches and trap returns.
        M::SCbranchGFork | M::SCbranchIFork | M::SCbranchJoin | M::SRfeB64 | M::SRfeRestoreB64 => {
            return super::control_stack::select(inst, op, ctx)
        }
        _ => return None,
    })
}

/// Lays out a SOPK instruction's operands like the SOP1/SOP2/SOPC operation it shares: the
/// register of bits [22:16] as `src[0]` (for every row, whatever its role), the 16-bit
/// constant as `src[1]` (or `src[0]` for the moves), and for `s_setreg_imm32_b32` the literal
/// as `src[0]`.
fn prepare_sopk(inst: &Instruction, op: &mut Op) {
    let simm = inst.field(Field::Simm16);
    let sext = simm as u16 as i16 as i32 as u32 as u64;
    let zext = simm as u64;
    let reg = sreg_index(inst.gen, inst.field(Field::Sdst)).unwrap_or(sreg::NULL);
    op.src[0] = Src::Sreg(reg);
    match inst.def().op {
        M::SMovkI32 | M::SCmovkI32 => op.src[0] = Src::Imm(sext),
        M::SCmpkEqU32
        | M::SCmpkLgU32
        | M::SCmpkGtU32
        | M::SCmpkGeU32
        | M::SCmpkLtU32
        | M::SCmpkLeU32 => op.src[1] = Src::Imm(zext),
        M::SSetregImm32B32 => op.src[0] = Src::Imm(inst.ext.unwrap_or(0) as u64),
        _ => op.src[1] = Src::Imm(sext),
    }
}

// ---------------------------------------------------------------------------------------
// Operation templates. Every operand is read before anything is written, so a destination
// that is also a source (s_add_u32 s0, s0, s1) reads the old value.

#[inline(always)]
fn put32(w: &mut Wave, i: u16, d: u32) {
    w.set_sreg(i, d);
}

#[inline(always)]
fn put64(w: &mut Wave, i: u16, d: u64) {
    w.set_sreg64(i, d);
}

/// Defines `fn $name` reading src0 with `$ra` and src1 with `$rb` (`scalar32` or
/// `scalar64`), computing `(result, new SCC)` from them and the old SCC, and writing the
/// result with `$wd` (`put32` or `put64`).
macro_rules! salu {
    ($name:ident, $ra:ident, $rb:ident, $wd:ident, |$a:ident, $b:ident, $scc:ident| $body:expr) => {
        #[allow(unused_variables)]
        fn $name(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let $a = $ra(w, env, op.src[0]);
            let $b = $rb(w, env, op.src[1]);
            let $scc = w.scc;
            let (d, scc) = $body;
            $wd(w, op.sdst, d);
            w.scc = scc;
            Ok(Flow::Next)
        }
    };
}

/// Defines a compare: SCC = the condition on src0 and src1, nothing else written.
macro_rules! compare {
    ($name:ident, $ra:ident, $rb:ident, |$a:ident, $b:ident| $cond:expr) => {
        fn $name(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let $a = $ra(w, env, op.src[0]);
            let $b = $rb(w, env, op.src[1]);
            w.scc = $cond;
            Ok(Flow::Next)
        }
    };
}

// SOP2 arithmetic (Vega manual §SOP2; CLRX GcnInstrsSop2.md).
salu!(s_add_u32, scalar32, scalar32, put32, |a, b, scc| a
    .overflowing_add(b));
salu!(s_sub_u32, scalar32, scalar32, put32, |a, b, scc| (
    a.wrapping_sub(b),
    b > a
));
salu!(s_add_i32, scalar32, scalar32, put32, |a, b, scc| {
    let d = a.wrapping_add(b);
    // Signed overflow: both operands have one sign and the result the other.
    (d, ((a ^ d) & (b ^ d)) >> 31 != 0)
});
salu!(s_sub_i32, scalar32, scalar32, put32, |a, b, scc| {
    let d = a.wrapping_sub(b);
    // Signed overflow: the operands' signs differ and the result's differs from S0's.
    (d, ((a ^ b) & (a ^ d)) >> 31 != 0)
});
salu!(s_addc_u32, scalar32, scalar32, put32, |a, b, scc| {
    let t = a as u64 + b as u64 + scc as u64;
    (t as u32, t >> 32 != 0)
});
salu!(s_subb_u32, scalar32, scalar32, put32, |a, b, scc| {
    let d = a.wrapping_sub(b).wrapping_sub(scc as u32);
    (d, b as u64 + scc as u64 > a as u64)
});
// SCC = 1 when S0 is the one chosen (so equal operands give SCC = 0).
salu!(s_min_i32, scalar32, scalar32, put32, |a, b, scc| {
    let s0 = (a as i32) < (b as i32);
    (if s0 { a } else { b }, s0)
});
salu!(s_min_u32, scalar32, scalar32, put32, |a, b, scc| (
    a.min(b),
    a < b
));
salu!(s_max_i32, scalar32, scalar32, put32, |a, b, scc| {
    let s0 = (a as i32) > (b as i32);
    (if s0 { a } else { b }, s0)
});
salu!(s_max_u32, scalar32, scalar32, put32, |a, b, scc| (
    a.max(b),
    a > b
));
salu!(s_mul_i32, scalar32, scalar32, put32, |a, b, scc| (
    a.wrapping_mul(b),
    scc
));
salu!(s_mul_hi_u32, scalar32, scalar32, put32, |a, b, scc| {
    (((a as u64 * b as u64) >> 32) as u32, scc)
});
salu!(s_mul_hi_i32, scalar32, scalar32, put32, |a, b, scc| {
    (((a as i32 as i64 * b as i32 as i64) >> 32) as u32, scc)
});
// The difference is taken in 32 bits, as the manual's pseudo-code does (D.i = S0.i - S1.i;
// if D.i < 0 then D.i = -D.i).
salu!(s_absdiff_i32, scalar32, scalar32, put32, |a, b, scc| {
    let d = (a.wrapping_sub(b) as i32).wrapping_abs() as u32;
    (d, d != 0)
});

/// `(S0 << n) + S1` computed in 64 bits: SCC is the carry out of bit 31, including bits the
/// shift moved past it.
#[inline(always)]
fn lshl_add(a: u32, b: u32, n: u32) -> (u32, bool) {
    let t = ((a as u64) << n) + b as u64;
    (t as u32, t >> 32 != 0)
}
salu!(s_lshl1_add_u32, scalar32, scalar32, put32, |a, b, scc| {
    lshl_add(a, b, 1)
});
salu!(s_lshl2_add_u32, scalar32, scalar32, put32, |a, b, scc| {
    lshl_add(a, b, 2)
});
salu!(s_lshl3_add_u32, scalar32, scalar32, put32, |a, b, scc| {
    lshl_add(a, b, 3)
});
salu!(s_lshl4_add_u32, scalar32, scalar32, put32, |a, b, scc| {
    lshl_add(a, b, 4)
});

// SOP2 selects and logic: SCC = result != 0 for the logic operations.
salu!(s_cselect_b32, scalar32, scalar32, put32, |a, b, scc| (
    if scc { a } else { b },
    scc
));
salu!(s_cselect_b64, scalar64, scalar64, put64, |a, b, scc| (
    if scc { a } else { b },
    scc
));
macro_rules! logic {
    ($n32:ident, $n64:ident, |$a:ident, $b:ident| $e:expr) => {
        salu!($n32, scalar32, scalar32, put32, |$a, $b, scc| {
            let d: u32 = $e;
            (d, d != 0)
        });
        salu!($n64, scalar64, scalar64, put64, |$a, $b, scc| {
            let d: u64 = $e;
            (d, d != 0)
        });
    };
}
logic!(s_and_b32, s_and_b64, |a, b| a & b);
logic!(s_or_b32, s_or_b64, |a, b| a | b);
logic!(s_xor_b32, s_xor_b64, |a, b| a ^ b);
logic!(s_andn2_b32, s_andn2_b64, |a, b| a & !b);
logic!(s_orn2_b32, s_orn2_b64, |a, b| a | !b);
logic!(s_nand_b32, s_nand_b64, |a, b| !(a & b));
logic!(s_nor_b32, s_nor_b64, |a, b| !(a | b));
logic!(s_xnor_b32, s_xnor_b64, |a, b| !(a ^ b));

// Shifts: the count is S1[4:0] (32-bit) or S1[5:0] (64-bit); SCC = result != 0.
salu!(s_lshl_b32, scalar32, scalar32, put32, |a, b, scc| {
    let d = a << (b & 31);
    (d, d != 0)
});
salu!(s_lshl_b64, scalar64, scalar32, put64, |a, b, scc| {
    let d = a << (b & 63);
    (d, d != 0)
});
salu!(s_lshr_b32, scalar32, scalar32, put32, |a, b, scc| {
    let d = a >> (b & 31);
    (d, d != 0)
});
salu!(s_lshr_b64, scalar64, scalar32, put64, |a, b, scc| {
    let d = a >> (b & 63);
    (d, d != 0)
});
salu!(s_ashr_i32, scalar32, scalar32, put32, |a, b, scc| {
    let d = ((a as i32) >> (b & 31)) as u32;
    (d, d != 0)
});
salu!(s_ashr_i64, scalar64, scalar32, put64, |a, b, scc| {
    let d = ((a as i64) >> (b & 63)) as u64;
    (d, d != 0)
});

// Bit-field masks: D = ((1 << S0[4:0]) - 1) << S1[4:0]; SCC unchanged.
salu!(s_bfm_b32, scalar32, scalar32, put32, |a, b, scc| {
    (((1u32 << (a & 31)) - 1) << (b & 31), scc)
});
salu!(s_bfm_b64, scalar32, scalar32, put64, |a, b, scc| {
    (((1u64 << (a & 63)) - 1) << (b & 63), scc)
});

/// Unsigned bit-field extract of `width` bits at `offset`: a width reaching past the top
/// takes every bit that is there, width 0 gives 0.
#[inline(always)]
fn bfe_u64(x: u64, offset: u32, width: u32) -> u64 {
    let v = x >> offset;
    match width {
        0 => 0,
        w if w >= 64 => v,
        w => v & ((1u64 << w) - 1),
    }
}

/// Signed bit-field extract: the field is sign-extended from its top bit (the RDNA3 manual
/// states it as `signext_from_bit((S0.i >> offset) & mask, width)`; the Vega text omits the
/// sign extension, which the instruction's name and LLVM's use of it require).
#[inline(always)]
fn bfe_i64(x: i64, offset: u32, width: u32) -> i64 {
    let v = x >> offset;
    match width {
        0 => 0,
        w if w >= 64 => v,
        w => (v << (64 - w)) >> (64 - w),
    }
}

// S1[4:0] (S1[5:0] for 64 bits) is the offset, S1[22:16] the width.
// The 32-bit forms work on S0 widened to 64 bits (zero- or sign-extended), so that a field
// reaching past bit 31 takes what is there: zeros, or copies of S0's sign.
salu!(s_bfe_u32, scalar32, scalar32, put32, |a, b, scc| {
    let d = bfe_u64(a as u64, b & 31, (b >> 16) & 0x7f) as u32;
    (d, d != 0)
});
salu!(s_bfe_i32, scalar32, scalar32, put32, |a, b, scc| {
    let d = bfe_i64(a as i32 as i64, b & 31, (b >> 16) & 0x7f) as u32;
    (d, d != 0)
});
salu!(s_bfe_u64, scalar64, scalar32, put64, |a, b, scc| {
    let d = bfe_u64(a, b & 63, (b >> 16) & 0x7f);
    (d, d != 0)
});
salu!(s_bfe_i64, scalar64, scalar32, put64, |a, b, scc| {
    let d = bfe_i64(a as i64, b & 63, (b >> 16) & 0x7f) as u64;
    (d, d != 0)
});

// Packs of 16-bit halves; SCC unchanged.
salu!(s_pack_ll_b32_b16, scalar32, scalar32, put32, |a, b, scc| {
    ((a & 0xffff) | (b << 16), scc)
});
salu!(s_pack_lh_b32_b16, scalar32, scalar32, put32, |a, b, scc| {
    ((a & 0xffff) | (b & 0xffff_0000), scc)
});
salu!(s_pack_hh_b32_b16, scalar32, scalar32, put32, |a, b, scc| {
    ((a >> 16) | (b & 0xffff_0000), scc)
});

// SOP1 (Vega manual §SOP1; CLRX GcnInstrsSop1.md).
salu!(s_mov_b32, scalar32, scalar32, put32, |a, b, scc| (a, scc));
salu!(s_mov_b64, scalar64, scalar64, put64, |a, b, scc| (a, scc));

fn s_cmov_b32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    if w.scc {
        let a = scalar32(w, env, op.src[0]);
        w.set_sreg(op.sdst, a);
    }
    Ok(Flow::Next)
}

fn s_cmov_b64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    if w.scc {
        let a = scalar64(w, env, op.src[0]);
        w.set_sreg64(op.sdst, a);
    }
    Ok(Flow::Next)
}

salu!(s_not_b32, scalar32, scalar32, put32, |a, b, scc| (
    !a,
    !a != 0
));
salu!(s_not_b64, scalar64, scalar64, put64, |a, b, scc| (
    !a,
    !a != 0
));

/// Whole-quad mode: every 4-bit group with any bit set becomes all ones.
#[inline(always)]
fn wqm(x: u64, groups: u32) -> u64 {
    let mut d = 0;
    for g in 0..groups {
        if (x >> (4 * g)) & 15 != 0 {
            d |= 15 << (4 * g);
        }
    }
    d
}

/// Quad mask: bit g of the result is set when 4-bit group g of the source has any bit set.
#[inline(always)]
fn quadmask(x: u64, groups: u32) -> u64 {
    let mut d = 0;
    for g in 0..groups {
        if (x >> (4 * g)) & 15 != 0 {
            d |= 1 << g;
        }
    }
    d
}

salu!(s_wqm_b32, scalar32, scalar32, put32, |a, b, scc| {
    let d = wqm(a as u64, 8) as u32;
    (d, d != 0)
});
salu!(s_wqm_b64, scalar64, scalar64, put64, |a, b, scc| {
    let d = wqm(a, 16);
    (d, d != 0)
});
salu!(s_quadmask_b32, scalar32, scalar32, put32, |a, b, scc| {
    let d = quadmask(a as u64, 8) as u32;
    (d, d != 0)
});
salu!(s_quadmask_b64, scalar64, scalar64, put64, |a, b, scc| {
    let d = quadmask(a, 16);
    (d, d != 0)
});
salu!(s_brev_b32, scalar32, scalar32, put32, |a, b, scc| (
    a.reverse_bits(),
    scc
));
salu!(s_brev_b64, scalar64, scalar64, put64, |a, b, scc| (
    a.reverse_bits(),
    scc
));
salu!(s_bcnt0_i32_b32, scalar32, scalar32, put32, |a, b, scc| {
    (a.count_zeros(), a.count_zeros() != 0)
});
salu!(s_bcnt0_i32_b64, scalar64, scalar64, put32, |a, b, scc| {
    (a.count_zeros(), a.count_zeros() != 0)
});
salu!(s_bcnt1_i32_b32, scalar32, scalar32, put32, |a, b, scc| {
    (a.count_ones(), a.count_ones() != 0)
});
salu!(s_bcnt1_i32_b64, scalar64, scalar64, put32, |a, b, scc| {
    (a.count_ones(), a.count_ones() != 0)
});

/// -1 (all ones) where a find-bit instruction finds nothing.
const NOT_FOUND: u32 = u32::MAX;

// Find first zero / one from the LSB; -1 when there is none. SCC unchanged.
salu!(s_ff0_i32_b32, scalar32, scalar32, put32, |a, b, scc| {
    (
        if a == u32::MAX {
            NOT_FOUND
        } else {
            a.trailing_ones()
        },
        scc,
    )
});
salu!(s_ff0_i32_b64, scalar64, scalar64, put32, |a, b, scc| {
    (
        if a == u64::MAX {
            NOT_FOUND
        } else {
            a.trailing_ones()
        },
        scc,
    )
});
salu!(s_ff1_i32_b32, scalar32, scalar32, put32, |a, b, scc| {
    (
        if a == 0 {
            NOT_FOUND
        } else {
            a.trailing_zeros()
        },
        scc,
    )
});
salu!(s_ff1_i32_b64, scalar64, scalar64, put32, |a, b, scc| {
    (
        if a == 0 {
            NOT_FOUND
        } else {
            a.trailing_zeros()
        },
        scc,
    )
});
// Find the first one from the MSB: the number of zeros above it; -1 when there is none.
salu!(s_flbit_i32_b32, scalar32, scalar32, put32, |a, b, scc| {
    (if a == 0 { NOT_FOUND } else { a.leading_zeros() }, scc)
});
salu!(s_flbit_i32_b64, scalar64, scalar64, put32, |a, b, scc| {
    (if a == 0 { NOT_FOUND } else { a.leading_zeros() }, scc)
});
// Signed: how many bits below the sign bit equal it, i.e. the position (from the MSB) of
// the first bit that differs from the sign; -1 for 0 and -1.
salu!(s_flbit_i32, scalar32, scalar32, put32, |a, b, scc| {
    let x = a ^ ((a as i32) >> 31) as u32;
    (if x == 0 { NOT_FOUND } else { x.leading_zeros() }, scc)
});
salu!(s_flbit_i32_i64, scalar64, scalar64, put32, |a, b, scc| {
    let x = a ^ ((a as i64) >> 63) as u64;
    (if x == 0 { NOT_FOUND } else { x.leading_zeros() }, scc)
});
salu!(s_sext_i32_i8, scalar32, scalar32, put32, |a, b, scc| (
    a as u8 as i8 as i32 as u32,
    scc
));
salu!(s_sext_i32_i16, scalar32, scalar32, put32, |a, b, scc| {
    (a as u16 as i16 as i32 as u32, scc)
});
salu!(s_abs_i32, scalar32, scalar32, put32, |a, b, scc| {
    let d = (a as i32).wrapping_abs() as u32;
    (d, d != 0)
});
salu!(
    s_bitreplicate_b64_b32,
    scalar32,
    scalar32,
    put64,
    |a, b, scc| {
        let mut d = 0u64;
        for i in 0..32 {
            d |= (((a as u64 >> i) & 1) * 3) << (2 * i);
        }
        (d, scc)
    }
);

// D[S0[4:0]] = 0 / 1 (S0[5:0] for 64 bits): D is read and written; SCC unchanged.
fn s_bitset0_b32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let bit = scalar32(w, env, op.src[0]) & 31;
    let d = w.s[op.sdst as usize] & !(1 << bit);
    w.set_sreg(op.sdst, d);
    Ok(Flow::Next)
}

fn s_bitset1_b32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let bit = scalar32(w, env, op.src[0]) & 31;
    let d = w.s[op.sdst as usize] | 1 << bit;
    w.set_sreg(op.sdst, d);
    Ok(Flow::Next)
}

fn s_bitset0_b64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let bit = scalar32(w, env, op.src[0]) & 63;
    let d = w.sreg64(op.sdst) & !(1 << bit);
    w.set_sreg64(op.sdst, d);
    Ok(Flow::Next)
}

fn s_bitset1_b64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let bit = scalar32(w, env, op.src[0]) & 63;
    let d = w.sreg64(op.sdst) | 1 << bit;
    w.set_sreg64(op.sdst, d);
    Ok(Flow::Next)
}

/// Defines an EXEC-combining operation: `saveexec` writes the old EXEC to D, `wrexec` the
/// new one; SCC = new EXEC != 0.
macro_rules! exec_op {
    ($name:ident, $wrexec:literal, |$s:ident, $exec:ident| $e:expr) => {
        fn $name(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let $s = scalar64(w, env, op.src[0]);
            let $exec = w.exec();
            let new: u64 = $e;
            // D first, then EXEC: when D is EXEC itself, EXEC ends with the new mask.
            w.set_sreg64(op.sdst, if $wrexec { new } else { $exec });
            w.set_exec(new);
            w.scc = new != 0;
            Ok(Flow::Next)
        }
    };
}
// The N2 forms negate EXEC and the N1 forms negate S0 (Vega manual: S_ANDN2_SAVEEXEC_B64
// is EXEC = S0 & ~EXEC; S_ANDN1_SAVEEXEC_B64 is EXEC = ~S0 & EXEC).
exec_op!(s_and_saveexec_b64, false, |s, exec| s & exec);
exec_op!(s_or_saveexec_b64, false, |s, exec| s | exec);
exec_op!(s_xor_saveexec_b64, false, |s, exec| s ^ exec);
exec_op!(s_andn2_saveexec_b64, false, |s, exec| s & !exec);
exec_op!(s_orn2_saveexec_b64, false, |s, exec| s | !exec);
exec_op!(s_nand_saveexec_b64, false, |s, exec| !(s & exec));
exec_op!(s_nor_saveexec_b64, false, |s, exec| !(s | exec));
exec_op!(s_xnor_saveexec_b64, false, |s, exec| !(s ^ exec));
exec_op!(s_andn1_saveexec_b64, false, |s, exec| !s & exec);
exec_op!(s_orn1_saveexec_b64, false, |s, exec| !s | exec);
exec_op!(s_andn1_wrexec_b64, true, |s, exec| !s & exec);
exec_op!(s_andn2_wrexec_b64, true, |s, exec| s & !exec);

/// Records, for a relative move of `width` registers, the base register (`op.imm`) and the
/// end of the register range it may index into (`op.imm2`): from an SGPR base the
/// addressable SGPR file (s0-s103 on gfx6/7, s0-s101 from gfx8 on; docs/emulator-abi.md §3),
/// from a TTMP base the trap temporaries, from any other (VCC, M0, EXEC) only the named
/// register(s), so M0 must then be 0.
fn relative_window(op: &mut Op, gen: Gen, base: u16, width: u16) {
    let sgprs = if gen.is_si_ci() { 104 } else { 102 };
    let end = if base < sgprs {
        sgprs
    } else if (sreg::TTMP0..sreg::TTMP0 + 16).contains(&base) {
        sreg::TTMP0 + 16
    } else {
        base + width
    };
    op.imm = base as i64;
    op.imm2 = end as i64;
}

/// The register `base + M0` of a relative move of `width` registers, if it lies in the
/// window. Out of range, a source reads s0 and a destination is not written (CDNA3 ISA
/// §3.6.1 as docs/emulator-abi.md §3 applies it).
#[inline(always)]
fn relative(w: &Wave, op: &Op, width: u64) -> Option<u16> {
    let i = op.imm as u64 + w.s[sreg::M0 as usize] as u64;
    (i + width <= op.imm2 as u64).then_some(i as u16)
}

fn s_movrels_b32(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let d = w.s[relative(w, op, 1).unwrap_or(0) as usize];
    w.set_sreg(op.sdst, d);
    Ok(Flow::Next)
}

fn s_movrels_b64(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let d = w.sreg64(relative(w, op, 2).unwrap_or(0));
    w.set_sreg64(op.sdst, d);
    Ok(Flow::Next)
}

fn s_movreld_b32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = scalar32(w, env, op.src[0]);
    if let Some(i) = relative(w, op, 1) {
        w.set_sreg(i, a);
    }
    Ok(Flow::Next)
}

fn s_movreld_b64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = scalar64(w, env, op.src[0]);
    if let Some(i) = relative(w, op, 2) {
        w.set_sreg64(i, a);
    }
    Ok(Flow::Next)
}

// SOPC compares (Vega manual §SOPC; CLRX GcnInstrsSopc.md). The equality tests are the same
// for signed and unsigned operands.
compare!(s_cmp_eq_32, scalar32, scalar32, |a, b| a == b);
compare!(s_cmp_lg_32, scalar32, scalar32, |a, b| a != b);
compare!(s_cmp_gt_i32, scalar32, scalar32, |a, b| (a as i32)
    > (b as i32));
compare!(s_cmp_ge_i32, scalar32, scalar32, |a, b| (a as i32)
    >= (b as i32));
compare!(s_cmp_lt_i32, scalar32, scalar32, |a, b| (a as i32)
    < (b as i32));
compare!(s_cmp_le_i32, scalar32, scalar32, |a, b| (a as i32)
    <= (b as i32));
compare!(s_cmp_gt_u32, scalar32, scalar32, |a, b| a > b);
compare!(s_cmp_ge_u32, scalar32, scalar32, |a, b| a >= b);
compare!(s_cmp_lt_u32, scalar32, scalar32, |a, b| a < b);
compare!(s_cmp_le_u32, scalar32, scalar32, |a, b| a <= b);
compare!(s_cmp_eq_u64, scalar64, scalar64, |a, b| a == b);
compare!(s_cmp_lg_u64, scalar64, scalar64, |a, b| a != b);
compare!(s_bitcmp0_b32, scalar32, scalar32, |a, b| (a >> (b & 31))
    & 1
    == 0);
compare!(s_bitcmp1_b32, scalar32, scalar32, |a, b| (a >> (b & 31))
    & 1
    == 1);
compare!(s_bitcmp0_b64, scalar64, scalar32, |a, b| (a >> (b & 63))
    & 1
    == 0);
compare!(s_bitcmp1_b64, scalar64, scalar32, |a, b| (a >> (b & 63))
    & 1
    == 1);

/// `s_setvskip`: VSKIP = S0[S1[4:0]], recorded in MODE (bit 28).
fn s_setvskip(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = scalar32(w, env, op.src[0]);
    let b = scalar32(w, env, op.src[1]);
    // VSKIP = S0[S1[4:0]]; the execution loop skips vector instructions while it is set.
    if (a >> (b & 31)) & 1 != 0 {
        w.mode.bits |= MODE_VSKIP;
    } else {
        w.mode.bits &= !MODE_VSKIP;
    }
    Ok(Flow::Next)
}

// GPR index mode (Vega manual: S_SET_GPR_IDX_ON/OFF/MODE/IDX).

/// Keeps `w.gpr_idx` in step with MODE.GPR_IDX_EN and M0[15:12].
#[inline(always)]
fn sync_gpr_idx(w: &mut Wave) {
    w.gpr_idx = (w.mode.bits & MODE_GPR_IDX_EN != 0).then(|| (w.s[sreg::M0 as usize] >> 12) & 15);
}

/// MODE.gpr_idx_en = 1; M0[7:0] = S0[7:0]; M0[15:12] = the raw SSRC1 field (in `op.imm`).
fn s_set_gpr_idx_on(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = scalar32(w, env, op.src[0]);
    let m0 = &mut w.s[sreg::M0 as usize];
    *m0 = (*m0 & !0xf0ff) | (a & 0xff) | (op.imm as u32) << 12;
    w.mode.bits |= MODE_GPR_IDX_EN;
    sync_gpr_idx(w);
    Ok(Flow::Next)
}

/// MODE.gpr_idx_en = 0; M0 unchanged.
fn s_set_gpr_idx_off(w: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    w.mode.bits &= !MODE_GPR_IDX_EN;
    sync_gpr_idx(w);
    Ok(Flow::Next)
}

/// M0[15:12] = SIMM16[3:0] (in `op.imm`).
fn s_set_gpr_idx_mode(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    let m0 = &mut w.s[sreg::M0 as usize];
    *m0 = (*m0 & !0xf000) | (op.imm as u32) << 12;
    sync_gpr_idx(w);
    Ok(Flow::Next)
}

/// M0[7:0] = S0[7:0].
fn s_set_gpr_idx_idx(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = scalar32(w, env, op.src[0]);
    let m0 = &mut w.s[sreg::M0 as usize];
    *m0 = (*m0 & !0xff) | (a & 0xff);
    Ok(Flow::Next)
}

// ---------------------------------------------------------------------------------------
// Hardware registers.

/// Hardware register ids (LLVM's `HW_REG_*`).
mod hwreg {
    pub const MODE: u32 = 1;
    pub const STATUS: u32 = 2;
    pub const TRAPSTS: u32 = 3;
    pub const HW_ID: u32 = 4;
    pub const GPR_ALLOC: u32 = 5;
    pub const LDS_ALLOC: u32 = 6;
    pub const SH_MEM_BASES: u32 = 15;
}

/// The bits of MODE that exist on `gen` and `s_setreg` may write (docs/emulator-abi.md
/// §2.1): FP_ROUND [3:0], FP_DENORM [7:4], DX10_CLAMP [8], IEEE [9], LOD_CLAMPED [10], DEBUG
/// [11], EXCP_EN [18:12], VSKIP [28], CSP [31:29]; from gfx8 on GPR_IDX_EN [27]; from gfx9 on
/// FP16_OVFL [23] and DISABLE_PERF [26]. The others are reserved: writes are dropped.
pub fn mode_writable(gen: Gen) -> u32 {
    let common = 0x0007_ffff | MODE_VSKIP | 0xe000_0000;
    match gen {
        Gen::Gfx6 | Gen::Gfx7 => common,
        Gen::Gfx8 => common | MODE_GPR_IDX_EN,
        _ => common | MODE_GPR_IDX_EN | 1 << 23 | 1 << 26,
    }
}

/// MODE.EXCP_EN: floating-point trap enables.
const MODE_EXCP_EN: u32 = 0x7f << 12;

/// The writable bits of TRAPSTS: EXCP [8:0], SAVECTX [10] and the rest up to EXCP_CYCLE
/// [21:16]; DP_RATE [31:29] is read-only.
const TRAPSTS_WRITABLE: u32 = 0x003f_ffff;

/// GPR_ALLOC as read by every wave on `gen`: VGPR_BASE [5:0] 0, VGPR_SIZE [13:8] = 63 (the
/// whole VGPR file: 64 granules), SGPR_BASE [21:16] 0, SGPR_SIZE [27:24] = the whole SGPR
/// file in granules minus one (104 SGPRs in granules of 8 on gfx6/7, 112 in granules of 16
/// from gfx8 on). The emulator gives every wave the whole register file, so it reports the
/// largest allocation rather than the kernel's.
pub fn gpr_alloc(gen: Gen) -> u32 {
    let sgpr_size = if gen.is_si_ci() { 12 } else { 6 };
    63 << 8 | sgpr_size << 24
}

/// HW_ID as read by a wave: WAVE_ID [3:0], SIMD_ID [5:4], PIPE_ID [7:6], CU_ID [11:8],
/// SH_ID [12], SE_ID [14:13], TG_ID [19:16], VM_ID [23:20], QUEUE_ID [26:24], STATE_ID
/// [29:27], ME_ID [31:30]. Stable values: every work-group as if alone on CU 0 of shader
/// engine 0, queue 0, VMID 0, its waves dealt round-robin to the four SIMDs (wave `n` on
/// SIMD `n % 4`, slot `n / 4`).
pub fn hw_id(wave_in_group: u32) -> u32 {
    let simd = wave_in_group & 3;
    let slot = (wave_in_group >> 2) & 15;
    slot | simd << 4
}

/// The field of `s_getreg`/`s_setreg`: (offset, mask of the field in the register).
fn hwreg_field(simm16: u32) -> (u32, u32) {
    let offset = (simm16 >> 6) & 31;
    let size = ((simm16 >> 11) & 31) + 1;
    let mask = (((1u64 << size) - 1) << offset) as u32;
    (offset, mask)
}

/// Lays out `op` for a hardware-register access: `op.imm` = offset | mask << 32. Returns
/// the register id.
fn prepare_hwreg(op: &mut Op) -> u32 {
    let simm = op.inst.field(Field::Simm16);
    let (offset, mask) = hwreg_field(simm);
    op.imm = offset as i64 | (mask as i64) << 32;
    simm & 0x3f
}

#[inline(always)]
fn field_of(op: &Op) -> (u32, u32) {
    (op.imm as u32 & 31, (op.imm >> 32) as u32)
}

fn select_getreg(gen: Gen, op: &mut Op) -> ExecFn {
    match prepare_hwreg(op) {
        hwreg::MODE => getreg_mode,
        hwreg::STATUS => getreg_status,
        hwreg::TRAPSTS => getreg_trapsts,
        hwreg::HW_ID => getreg_hw_id,
        hwreg::GPR_ALLOC => {
            op.imm2 = gpr_alloc(gen) as i64;
            getreg_gpr_alloc
        }
        hwreg::LDS_ALLOC => {
            // The LDS allocation granule in bytes: 64 dwords on gfx6, 128 from gfx7 on.
            op.imm2 = if gen == Gen::Gfx6 { 256 } else { 512 };
            getreg_lds_alloc
        }
        hwreg::SH_MEM_BASES if gen.is_gfx9_family() => getreg_sh_mem_bases,
        // IB_STS and every other id read 0.
        _ => getreg_zero,
    }
}

fn select_setreg(gen: Gen, op: &mut Op) -> ExecFn {
    match prepare_hwreg(op) {
        hwreg::MODE => {
            op.imm2 = mode_writable(gen) as i64;
            setreg_mode
        }
        hwreg::TRAPSTS => setreg_trapsts,
        _ => setreg_unsupported,
    }
}

/// Defines an `s_getreg_b32` of one register: D = (value & mask) >> offset.
macro_rules! getreg {
    ($name:ident, |$w:ident, $op:ident, $env:ident| $value:expr) => {
        #[allow(unused_variables)]
        fn $name($w: &mut Wave, $op: &Op, $env: &mut Env<'_>) -> Result<Flow, Fault> {
            let value: u32 = $value;
            let (offset, mask) = field_of($op);
            $w.set_sreg($op.sdst, (value & mask) >> offset);
            Ok(Flow::Next)
        }
    };
}

getreg!(getreg_mode, |w, op, env| w.mode.bits);
getreg!(getreg_status, |w, op, env| {
    w.scc as u32
        | (w.priority & 3) << 3
        | 1 << 6
        | ((w.exec() == 0) as u32) << 9
        | ((w.vcc() == 0) as u32) << 10
        | 1 << 16
});
getreg!(getreg_trapsts, |w, op, env| w.trapsts);
getreg!(getreg_hw_id, |w, op, env| hw_id(w.wave_in_group));
getreg!(getreg_gpr_alloc, |w, op, env| op.imm2 as u32);
getreg!(getreg_lds_alloc, |w, op, env| {
    let granule = op.imm2 as usize;
    (env.lds.len().div_ceil(granule).min(0x1ff) as u32) << 12
});
getreg!(getreg_sh_mem_bases, |w, op, env| {
    (env.apertures.private_base >> 48) as u32 & 0xffff
        | ((env.apertures.shared_base >> 48) as u32 & 0xffff) << 16
});
getreg!(getreg_zero, |w, op, env| 0);

/// The value an `s_setreg` writes, placed in the field: (S0 << offset) & mask.
#[inline(always)]
fn setreg_bits(w: &Wave, op: &Op, env: &Env<'_>) -> (u32, u32) {
    let (offset, mask) = field_of(op);
    let v = scalar32(w, env, op.src[0]);
    ((((v as u64) << offset) as u32) & mask, mask)
}

fn setreg_mode(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (bits, mask) = setreg_bits(w, op, env);
    let mask = mask & op.imm2 as u32;
    let mode = (w.mode.bits & !mask) | (bits & mask);
    if mode & !w.mode.bits & MODE_EXCP_EN != 0 {
        return Err(Fault::Unsupported(format!(
            "s_setreg enables floating-point exception traps (MODE.EXCP_EN = {:#x}), which are not emulated",
            (mode & MODE_EXCP_EN) >> 12
        )));
    }
    w.mode.bits = mode;
    sync_gpr_idx(w);
    Ok(Flow::Next)
}

fn setreg_trapsts(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (bits, mask) = setreg_bits(w, op, env);
    let mask = mask & TRAPSTS_WRITABLE;
    w.trapsts = (w.trapsts & !mask) | (bits & mask);
    Ok(Flow::Next)
}

/// `s_setreg` of any register but MODE and TRAPSTS: the registers user code may not write
/// (STATUS, HW_ID, the allocation registers, SH_MEM_BASES, ...) stop the run with an error
/// (docs/emulator-abi.md §2.3) instead of being silently dropped.
fn setreg_unsupported(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Err(Fault::Unsupported(format!(
        "{} of hardware register {} (only MODE and TRAPSTS are writable)",
        op.inst.mnemonic(),
        op.inst.field(Field::Simm16) & 0x3f
    )))
}

#[cfg(test)]
mod tests {
    //! Expected values are worked by hand from the instruction descriptions of the Vega ISA
    //! manual (chapter 12, SOP2/SOPK/SOP1/SOPC) and CLRX's GcnInstrsSop*.md pages.

    use super::*;
    use crate::testing::{run, MODE_GFX6, MODE_GFX9};

    const GENS: [&str; 7] = [
        "gfx600", "gfx700", "gfx803", "gfx900", "gfx908", "gfx90a", "gfx940",
    ];

    fn go(mcpu: &str, src: &str, setup: impl FnOnce(&mut Wave)) -> Wave {
        run(mcpu, src, |w, _| setup(w))
            .unwrap_or_else(|e| panic!("{mcpu}: `{src}` faulted: {e}"))
            .wave
    }

    fn fault(mcpu: &str, src: &str, setup: impl FnOnce(&mut Wave)) -> Fault {
        match run(mcpu, src, |w, _| setup(w)) {
            Ok(_) => panic!("{mcpu}: `{src}` did not fault"),
            Err(e) => e,
        }
    }

    /// Runs `op s2, s0, s1` with s0 = a, s1 = b and SCC = `scc`; returns (s2, SCC).
    fn op2(mcpu: &str, op: &str, a: u32, b: u32, scc: bool) -> (u32, bool) {
        let w = go(mcpu, &format!("{op} s2, s0, s1"), |w| {
            w.s[0] = a;
            w.s[1] = b;
            w.s[2] = 0xdead_beef;
            w.scc = scc;
        });
        (w.s[2], w.scc)
    }

    /// Runs `op s[4:5], s[0:1], s[2:3]` (or `s2` as src1 when `b32` is set).
    fn op2_64(mcpu: &str, op: &str, a: u64, b: u64, b32: bool, scc: bool) -> (u64, bool) {
        let src1 = if b32 { "s2" } else { "s[2:3]" };
        let w = go(mcpu, &format!("{op} s[4:5], s[0:1], {src1}"), |w| {
            w.set_sreg64(0, a);
            w.set_sreg64(2, b);
            w.scc = scc;
        });
        (w.sreg64(4), w.scc)
    }

    /// Runs `op s2, s0` with s0 = a; returns (s2, SCC).
    fn op1(mcpu: &str, op: &str, a: u32, scc: bool) -> (u32, bool) {
        let w = go(mcpu, &format!("{op} s2, s0"), |w| {
            w.s[0] = a;
            w.scc = scc;
        });
        (w.s[2], w.scc)
    }

    /// Runs `op dst, s[0:1]` with s[0:1] = a, `dst` being s2 or s[2:3]; returns (s[2:3], SCC).
    fn op1_64(mcpu: &str, op: &str, dst64: bool, a: u64, scc: bool) -> (u64, bool) {
        let dst = if dst64 { "s[2:3]" } else { "s2" };
        let w = go(mcpu, &format!("{op} {dst}, s[0:1]"), |w| {
            w.set_sreg64(0, a);
            w.set_sreg64(2, 0);
            w.scc = scc;
        });
        (w.sreg64(2), w.scc)
    }

    /// Runs a compare `op s0, s1` and returns SCC.
    fn cmp(mcpu: &str, op: &str, a: u32, b: u32) -> bool {
        go(mcpu, &format!("{op} s0, s1"), |w| {
            w.s[0] = a;
            w.s[1] = b;
            w.scc = !w.scc;
        })
        .scc
    }

    #[test]
    fn add_sub_carry_and_signed_overflow() {
        let g = "gfx900";
        // Unsigned: SCC is the carry out / the borrow.
        assert_eq!(op2(g, "s_add_u32", 0xffff_ffff, 2, false), (1, true));
        assert_eq!(op2(g, "s_add_u32", 1, 2, true), (3, false));
        assert_eq!(op2(g, "s_sub_u32", 1, 2, false), (0xffff_ffff, true));
        assert_eq!(op2(g, "s_sub_u32", 5, 3, true), (2, false));
        assert_eq!(op2(g, "s_sub_u32", 7, 7, true), (0, false));
        // Signed: SCC is the overflow, not the carry.
        assert_eq!(
            op2(g, "s_add_i32", 0x7fff_ffff, 1, false),
            (0x8000_0000, true)
        );
        assert_eq!(op2(g, "s_add_i32", 0xffff_ffff, 1, true), (0, false));
        assert_eq!(
            op2(g, "s_add_i32", 0x8000_0000, 0x8000_0000, false),
            (0, true)
        );
        assert_eq!(
            op2(g, "s_add_i32", 0x8000_0000, 0x7fff_ffff, true),
            (0xffff_ffff, false)
        );
        assert_eq!(
            op2(g, "s_sub_i32", 0x8000_0000, 1, false),
            (0x7fff_ffff, true)
        );
        assert_eq!(
            op2(g, "s_sub_i32", 0, 0x8000_0000, false),
            (0x8000_0000, true)
        );
        assert_eq!(op2(g, "s_sub_i32", 5, 7, true), (0xffff_fffe, false));
        assert_eq!(
            op2(g, "s_sub_i32", 0xffff_ffff, 0x7fff_ffff, false),
            (0x8000_0000, false)
        );
        // With carry-in.
        assert_eq!(op2(g, "s_addc_u32", 0xffff_ffff, 0, true), (0, true));
        assert_eq!(
            op2(g, "s_addc_u32", 0xffff_ffff, 0xffff_ffff, true),
            (0xffff_ffff, true)
        );
        assert_eq!(op2(g, "s_addc_u32", 1, 2, true), (4, false));
        assert_eq!(op2(g, "s_subb_u32", 0, 0, true), (0xffff_ffff, true));
        assert_eq!(op2(g, "s_subb_u32", 5, 5, false), (0, false));
        assert_eq!(op2(g, "s_subb_u32", 5, 5, true), (0xffff_ffff, true));
        assert_eq!(op2(g, "s_subb_u32", 0, 0xffff_ffff, true), (0, true));
    }

    #[test]
    fn sixty_four_bit_add_and_subtract_through_the_carry() {
        // 0x1_ffff_ffff + 0x2_0000_0001 = 0x4_0000_0000.
        let w = go(
            "gfx900",
            "s_add_u32 s4, s0, s2\ns_addc_u32 s5, s1, s3",
            |w| {
                w.set_sreg64(0, 0x1_ffff_ffff);
                w.set_sreg64(2, 0x2_0000_0001);
            },
        );
        assert_eq!((w.sreg64(4), w.scc), (0x4_0000_0000, false));
        // 0x1_0000_0000 - 1 = 0xffff_ffff.
        let w = go(
            "gfx600",
            "s_sub_u32 s4, s0, s2\ns_subb_u32 s5, s1, s3",
            |w| {
                w.set_sreg64(0, 0x1_0000_0000);
                w.set_sreg64(2, 1);
            },
        );
        assert_eq!((w.sreg64(4), w.scc), (0xffff_ffff, false));
    }

    #[test]
    fn min_max_scc_says_whether_s0_was_chosen() {
        let g = "gfx803";
        assert_eq!(
            op2(g, "s_min_i32", 0xffff_ffff, 1, false),
            (0xffff_ffff, true)
        );
        assert_eq!(op2(g, "s_min_u32", 0xffff_ffff, 1, true), (1, false));
        assert_eq!(op2(g, "s_max_i32", 5, 5, true), (5, false));
        assert_eq!(op2(g, "s_min_u32", 5, 5, true), (5, false));
        assert_eq!(
            op2(g, "s_max_u32", 0x8000_0000, 1, false),
            (0x8000_0000, true)
        );
        assert_eq!(op2(g, "s_max_i32", 0x8000_0000, 1, true), (1, false));
        assert_eq!(
            op2(g, "s_min_i32", 0x8000_0000, 0x7fff_ffff, false),
            (0x8000_0000, true)
        );
    }

    #[test]
    fn multiplies_leave_scc_alone() {
        let g = "gfx900";
        assert_eq!(op2(g, "s_mul_i32", 0x1_0000, 0x1_0000, true), (0, true));
        assert_eq!(
            op2(g, "s_mul_i32", 0xffff_fffd, 7, false),
            (0xffff_ffeb, false)
        );
        assert_eq!(
            op2(g, "s_mul_hi_u32", 0xffff_ffff, 0xffff_ffff, true),
            (0xffff_fffe, true)
        );
        assert_eq!(
            op2(g, "s_mul_hi_i32", 0xffff_ffff, 0xffff_ffff, false),
            (0, false)
        );
        assert_eq!(
            op2(g, "s_mul_hi_i32", 0x8000_0000, 2, false),
            (0xffff_ffff, false)
        );
        assert_eq!(op2(g, "s_mul_hi_u32", 0x8000_0000, 2, false), (1, false));
        // SOPK: D = D * signext(simm16).
        let w = go(g, "s_mulk_i32 s0, 0xfffe", |w| {
            w.s[0] = 3;
            w.scc = true;
        });
        assert_eq!((w.s[0], w.scc), (0xffff_fffa, true));
    }

    #[test]
    fn absdiff_and_abs() {
        let g = "gfx700";
        assert_eq!(op2(g, "s_absdiff_i32", 3, 10, false), (7, true));
        assert_eq!(op2(g, "s_absdiff_i32", 10, 3, false), (7, true));
        assert_eq!(op2(g, "s_absdiff_i32", 5, 5, true), (0, false));
        // 0x7fffffff - (-1) wraps to 0x80000000, whose negation is itself.
        assert_eq!(
            op2(g, "s_absdiff_i32", 0x7fff_ffff, 0xffff_ffff, false),
            (0x8000_0000, true)
        );
        assert_eq!(op1(g, "s_abs_i32", 0xffff_fffb, false), (5, true));
        assert_eq!(op1(g, "s_abs_i32", 0, true), (0, false));
        assert_eq!(op1(g, "s_abs_i32", 0x8000_0000, false), (0x8000_0000, true));
    }

    #[test]
    fn shift_and_add_counts_the_bits_shifted_out() {
        let g = "gfx90a";
        // (0x40000001 << 2) + 3 = 0x1_0000_0007.
        assert_eq!(op2(g, "s_lshl2_add_u32", 0x4000_0001, 3, false), (7, true));
        assert_eq!(op2(g, "s_lshl1_add_u32", 1, 2, true), (4, false));
        assert_eq!(op2(g, "s_lshl3_add_u32", 1, 1, true), (9, false));
        assert_eq!(
            op2(g, "s_lshl4_add_u32", 0x0800_0000, 0x8000_0000, false),
            (0, true)
        );
        assert_eq!(op2(g, "s_lshl1_add_u32", 0x8000_0000, 0, false), (0, true));
    }

    #[test]
    fn cselect_reads_scc_and_keeps_it() {
        let g = "gfx600";
        assert_eq!(op2(g, "s_cselect_b32", 11, 22, true), (11, true));
        assert_eq!(op2(g, "s_cselect_b32", 11, 22, false), (22, false));
        let (a, b) = (0x1111_2222_3333_4444, 0x5555_6666_7777_8888);
        assert_eq!(op2_64(g, "s_cselect_b64", a, b, false, true), (a, true));
        assert_eq!(op2_64(g, "s_cselect_b64", a, b, false, false), (b, false));
    }

    #[test]
    fn logic_sets_scc_when_the_result_is_not_zero() {
        let g = "gfx908";
        assert_eq!(op2(g, "s_and_b32", 0xf0f0, 0x0ff0, false), (0x00f0, true));
        assert_eq!(op2(g, "s_and_b32", 0xf0f0, 0x0f0f, true), (0, false));
        assert_eq!(op2(g, "s_or_b32", 0xf000, 0x000f, false), (0xf00f, true));
        assert_eq!(op2(g, "s_xor_b32", 0x1234, 0x1234, true), (0, false));
        assert_eq!(op2(g, "s_andn2_b32", 0xff, 0x0f, false), (0xf0, true));
        assert_eq!(op2(g, "s_orn2_b32", 0, 0xffff_ffff, true), (0, false));
        assert_eq!(op2(g, "s_orn2_b32", 1, 0xffff_fff0, false), (0xf, true));
        assert_eq!(
            op2(g, "s_nand_b32", 0xffff_ffff, 0xffff_ffff, true),
            (0, false)
        );
        assert_eq!(
            op2(g, "s_nand_b32", 0xffff_0000, 0x00ff_ff00, false),
            (0xff00_ffff, true)
        );
        assert_eq!(op2(g, "s_nor_b32", 0, 0, false), (0xffff_ffff, true));
        assert_eq!(
            op2(g, "s_nor_b32", 0xffff_0000, 0x0000_ffff, true),
            (0, false)
        );
        assert_eq!(
            op2(g, "s_xnor_b32", 0x1234, 0x1234, false),
            (0xffff_ffff, true)
        );
        assert_eq!(
            op2(g, "s_xnor_b32", 0x0f0f_0f0f, 0xf0f0_f0f0, true),
            (0, false)
        );
        let (a, b) = (0xffff_0000_0000_ffff, 0x0f0f_0f0f_0f0f_0f0f);
        assert_eq!(
            op2_64(g, "s_and_b64", a, b, false, false),
            (0x0f0f_0000_0000_0f0f, true)
        );
        assert_eq!(op2_64(g, "s_and_b64", a, !a, false, true), (0, false));
        assert_eq!(
            op2_64(g, "s_or_b64", 1 << 63, 1, false, false),
            (1 << 63 | 1, true)
        );
        assert_eq!(op2_64(g, "s_xor_b64", a, a, false, true), (0, false));
        assert_eq!(
            op2_64(g, "s_andn2_b64", a, b, false, false),
            (0xf0f0_0000_0000_f0f0, true)
        );
        assert_eq!(
            op2_64(g, "s_orn2_b64", 0, u64::MAX, false, true),
            (0, false)
        );
        assert_eq!(
            op2_64(g, "s_nand_b64", a, b, false, false),
            (0xf0f0_ffff_ffff_f0f0, true)
        );
        assert_eq!(
            op2_64(g, "s_nor_b64", a, b, false, false),
            (0x0000_f0f0_f0f0_0000, true)
        );
        assert_eq!(
            op2_64(g, "s_xnor_b64", a, b, false, false),
            (0x0f0f_f0f0_f0f0_0f0f, true)
        );
    }

    #[test]
    fn shift_counts_are_masked_to_five_and_six_bits() {
        let g = "gfx900";
        assert_eq!(op2(g, "s_lshl_b32", 1, 31, false), (0x8000_0000, true));
        assert_eq!(op2(g, "s_lshl_b32", 1, 32, false), (1, true));
        assert_eq!(op2(g, "s_lshl_b32", 0x8000_0000, 1, true), (0, false));
        assert_eq!(
            op2(g, "s_lshr_b32", 0x8000_0000, 33, false),
            (0x4000_0000, true)
        );
        assert_eq!(op2(g, "s_lshr_b32", 1, 1, true), (0, false));
        assert_eq!(
            op2(g, "s_ashr_i32", 0x8000_0000, 31, false),
            (0xffff_ffff, true)
        );
        assert_eq!(
            op2(g, "s_ashr_i32", 0x8000_0000, 63, false),
            (0xffff_ffff, true)
        );
        assert_eq!(op2(g, "s_ashr_i32", 0x4000_0000, 31, true), (0, false));
        assert_eq!(op2_64(g, "s_lshl_b64", 1, 63, true, false), (1 << 63, true));
        assert_eq!(op2_64(g, "s_lshl_b64", 1, 64, true, false), (1, true));
        assert_eq!(op2_64(g, "s_lshl_b64", 1 << 63, 1, true, true), (0, false));
        assert_eq!(op2_64(g, "s_lshr_b64", 1 << 63, 63, true, false), (1, true));
        assert_eq!(
            op2_64(g, "s_lshr_b64", 1 << 63, 127, true, false),
            (1, true)
        );
        assert_eq!(
            op2_64(g, "s_ashr_i64", 1 << 63, 4, true, false),
            (0xf800_0000_0000_0000, true)
        );
        assert_eq!(
            op2_64(g, "s_ashr_i64", 0x7fff_ffff_ffff_ffff, 63, true, true),
            (0, false)
        );
    }

    #[test]
    fn bfm_builds_masks_and_keeps_scc() {
        let g = "gfx803";
        assert_eq!(op2(g, "s_bfm_b32", 4, 8, true), (0xf00, true));
        assert_eq!(op2(g, "s_bfm_b32", 0, 5, false), (0, false));
        assert_eq!(op2(g, "s_bfm_b32", 32, 0, false), (0, false));
        assert_eq!(op2(g, "s_bfm_b32", 31, 1, false), (0xffff_fffe, false));
        assert_eq!(op2(g, "s_bfm_b32", 36, 33, false), (0x1e, false));
        let w = go(g, "s_bfm_b64 s[4:5], s0, s1", |w| {
            w.s[0] = 40;
            w.s[1] = 8;
        });
        assert_eq!(w.sreg64(4), 0x0000_ffff_ffff_ff00);
    }

    #[test]
    fn bfe_offset_and_width_come_packed_in_s1() {
        let g = "gfx900";
        let ow = |offset: u32, width: u32| offset | width << 16;
        assert_eq!(
            op2(g, "s_bfe_u32", 0x1234_5678, ow(4, 8), false),
            (0x67, true)
        );
        assert_eq!(op2(g, "s_bfe_u32", 0x1234_5678, ow(4, 0), true), (0, false));
        assert_eq!(
            op2(g, "s_bfe_u32", 0x1234_5678, ow(28, 8), false),
            (1, true)
        );
        assert_eq!(
            op2(g, "s_bfe_u32", 0x1234_5678, ow(0, 32), false),
            (0x1234_5678, true)
        );
        assert_eq!(
            op2(g, "s_bfe_u32", 0x1234_5678, ow(0, 0x7f), false),
            (0x1234_5678, true)
        );
        // Offset bits above [4:0] and width bits above [22:16] are ignored.
        assert_eq!(
            op2(g, "s_bfe_u32", 0x1234_5678, 0x0100_0024 | 8 << 16, false),
            (0x67, true)
        );
        assert_eq!(
            op2(g, "s_bfe_i32", 0xf0, ow(4, 4), false),
            (0xffff_ffff, true)
        );
        assert_eq!(op2(g, "s_bfe_i32", 0xf0, ow(4, 5), false), (0xf, true));
        assert_eq!(
            op2(g, "s_bfe_i32", 0x8000_0000, ow(28, 8), false),
            (0xffff_fff8, true)
        );
        assert_eq!(
            op2(g, "s_bfe_i32", 0x8000_0000, ow(0, 127), false),
            (0x8000_0000, true)
        );
        assert_eq!(op2(g, "s_bfe_i32", 0x8000_0000, ow(0, 0), true), (0, false));
        let x = 0x1234_5678_9abc_def0;
        assert_eq!(
            op2_64(g, "s_bfe_u64", x, ow(32, 16) as u64, true, false),
            (0x5678, true)
        );
        assert_eq!(
            op2_64(g, "s_bfe_u64", x, ow(60, 8) as u64, true, false),
            (1, true)
        );
        assert_eq!(
            op2_64(g, "s_bfe_u64", x, ow(4, 0) as u64, true, true),
            (0, false)
        );
        assert_eq!(
            op2_64(g, "s_bfe_i64", 0xf << 60, ow(60, 4) as u64, true, false),
            (u64::MAX, true)
        );
        assert_eq!(
            op2_64(g, "s_bfe_i64", x, ow(28, 8) as u64, true, false),
            (0xffff_ffff_ffff_ff89, true)
        );
        assert_eq!(
            op2_64(g, "s_bfe_i64", x, ow(0, 64) as u64, true, false),
            (x, true)
        );
    }

    #[test]
    fn packs_of_halves() {
        let g = "gfx940";
        assert_eq!(
            op2(g, "s_pack_ll_b32_b16", 0x1111_2222, 0x3333_4444, true),
            (0x4444_2222, true)
        );
        assert_eq!(
            op2(g, "s_pack_lh_b32_b16", 0x1111_2222, 0x3333_4444, false),
            (0x3333_2222, false)
        );
        assert_eq!(
            op2(g, "s_pack_hh_b32_b16", 0x1111_2222, 0x3333_4444, true),
            (0x3333_1111, true)
        );
    }

    #[test]
    fn moves_keep_scc_and_conditional_moves_read_it() {
        let g = "gfx900";
        assert_eq!(op1(g, "s_mov_b32", 0, true), (0, true));
        assert_eq!(op1(g, "s_mov_b32", 7, false), (7, false));
        assert_eq!(
            op1_64(g, "s_mov_b64", true, 0x1234_5678_9abc_def0, true),
            (0x1234_5678_9abc_def0, true)
        );
        let w = go(g, "s_mov_b64 s[0:1], -16\ns_mov_b32 s2, -16", |_| {});
        assert_eq!((w.sreg64(0), w.s[2]), (0xffff_ffff_ffff_fff0, 0xffff_fff0));
        for scc in [false, true] {
            let w = go(
                g,
                "s_cmov_b32 s2, s0\ns_cmov_b64 s[4:5], s[0:1]\ns_cmovk_i32 s6, 0x8001",
                |w| {
                    w.set_sreg64(0, 0x1111_2222_3333_4444);
                    w.s[2] = 9;
                    w.set_sreg64(4, 10);
                    w.s[6] = 11;
                    w.scc = scc;
                },
            );
            if scc {
                assert_eq!(
                    (w.s[2], w.sreg64(4), w.s[6]),
                    (0x3333_4444, 0x1111_2222_3333_4444, 0xffff_8001)
                );
            } else {
                assert_eq!((w.s[2], w.sreg64(4), w.s[6]), (9, 10, 11));
            }
            assert_eq!(w.scc, scc);
        }
        let w = go(g, "s_movk_i32 s0, 0x8000\ns_movk_i32 s1, 0x7fff", |w| {
            w.scc = true
        });
        assert_eq!((w.s[0], w.s[1], w.scc), (0xffff_8000, 0x7fff, true));
    }

    #[test]
    fn not_wqm_quadmask_brev() {
        let g = "gfx700";
        assert_eq!(op1(g, "s_not_b32", 0xffff_ffff, true), (0, false));
        assert_eq!(op1(g, "s_not_b32", 0x0f0f_0000, false), (0xf0f0_ffff, true));
        assert_eq!(
            op1_64(g, "s_not_b64", true, 0x0000_ffff_0000_0000, false),
            (0xffff_0000_ffff_ffff, true)
        );
        assert_eq!(op1_64(g, "s_not_b64", true, u64::MAX, true), (0, false));
        // Nibbles 1 (=2) and 3 (=1) are non-zero.
        assert_eq!(op1(g, "s_wqm_b32", 0x0000_1020, false), (0x0000_f0f0, true));
        assert_eq!(op1(g, "s_wqm_b32", 0, true), (0, false));
        assert_eq!(
            op1_64(g, "s_wqm_b64", true, 0x8000_0000_0000_0001, false),
            (0xf000_0000_0000_000f, true)
        );
        assert_eq!(op1(g, "s_quadmask_b32", 0x0000_f001, false), (0b1001, true));
        assert_eq!(op1(g, "s_quadmask_b32", 0, true), (0, false));
        assert_eq!(
            op1_64(g, "s_quadmask_b64", true, 0x8000_0000_0000_0000, false),
            (0x8000, true)
        );
        assert_eq!(
            op1_64(g, "s_quadmask_b64", true, u64::MAX, false),
            (0xffff, true)
        );
        assert_eq!(op1(g, "s_brev_b32", 1, false), (0x8000_0000, false));
        assert_eq!(op1(g, "s_brev_b32", 0x0000_00f1, true), (0x8f00_0000, true));
        assert_eq!(op1_64(g, "s_brev_b64", true, 1, false), (1 << 63, false));
    }

    #[test]
    fn bit_counts() {
        let g = "gfx90a";
        assert_eq!(op1(g, "s_bcnt0_i32_b32", 0, false), (32, true));
        assert_eq!(op1(g, "s_bcnt0_i32_b32", 0xffff_ffff, true), (0, false));
        assert_eq!(op1(g, "s_bcnt1_i32_b32", 0x8000_0001, false), (2, true));
        assert_eq!(op1(g, "s_bcnt1_i32_b32", 0, true), (0, false));
        assert_eq!(op1_64(g, "s_bcnt0_i32_b64", false, 0, false), (64, true));
        assert_eq!(
            op1_64(g, "s_bcnt1_i32_b64", false, 0xffff_ffff_0000_000f, false),
            (36, true)
        );
        assert_eq!(op1_64(g, "s_bcnt1_i32_b64", false, 0, true), (0, false));
    }

    #[test]
    fn find_bits_give_minus_one_when_there_is_none_and_keep_scc() {
        let g = "gfx600";
        const NONE: u32 = 0xffff_ffff;
        assert_eq!(op1(g, "s_ff0_i32_b32", 0xffff_ffff, true), (NONE, true));
        assert_eq!(op1(g, "s_ff0_i32_b32", 0xff, false), (8, false));
        assert_eq!(op1(g, "s_ff1_i32_b32", 0, false), (NONE, false));
        assert_eq!(op1(g, "s_ff1_i32_b32", 0x8000_0000, true), (31, true));
        assert_eq!(
            op1_64(g, "s_ff0_i32_b64", false, u64::MAX, false),
            (NONE as u64, false)
        );
        assert_eq!(
            op1_64(g, "s_ff0_i32_b64", false, 0xffff_ffff, false),
            (32, false)
        );
        assert_eq!(
            op1_64(g, "s_ff1_i32_b64", false, 1 << 32, false),
            (32, false)
        );
        assert_eq!(
            op1_64(g, "s_ff1_i32_b64", false, 0, true),
            (NONE as u64, true)
        );
        assert_eq!(op1(g, "s_flbit_i32_b32", 0, false), (NONE, false));
        assert_eq!(op1(g, "s_flbit_i32_b32", 1, false), (31, false));
        assert_eq!(op1(g, "s_flbit_i32_b32", 0x8000_0000, true), (0, true));
        assert_eq!(op1_64(g, "s_flbit_i32_b64", false, 1, false), (63, false));
        assert_eq!(
            op1_64(g, "s_flbit_i32_b64", false, 1 << 32, false),
            (31, false)
        );
        assert_eq!(
            op1_64(g, "s_flbit_i32_b64", false, 0, false),
            (NONE as u64, false)
        );
        // Signed: the count of bits after the sign bit that equal it.
        assert_eq!(op1(g, "s_flbit_i32", 0, false), (NONE, false));
        assert_eq!(op1(g, "s_flbit_i32", 0xffff_ffff, false), (NONE, false));
        assert_eq!(op1(g, "s_flbit_i32", 1, false), (31, false));
        assert_eq!(op1(g, "s_flbit_i32", 0x4000_0000, false), (1, false));
        assert_eq!(op1(g, "s_flbit_i32", 0x8000_0000, false), (1, false));
        assert_eq!(op1(g, "s_flbit_i32", 0xc000_0000, true), (2, true));
        assert_eq!(op1(g, "s_flbit_i32", 0xffff_fffe, false), (31, false));
        assert_eq!(
            op1_64(g, "s_flbit_i32_i64", false, 0xffff_ffff_ffff_fffe, false),
            (63, false)
        );
        assert_eq!(op1_64(g, "s_flbit_i32_i64", false, 1, false), (63, false));
        assert_eq!(
            op1_64(g, "s_flbit_i32_i64", false, u64::MAX, false),
            (NONE as u64, false)
        );
        assert_eq!(
            op1_64(g, "s_flbit_i32_i64", false, 0x0000_8000_0000_0000, false),
            (16, false)
        );
    }

    #[test]
    fn sign_extension_bitset_and_bitreplicate() {
        let g = "gfx900";
        assert_eq!(op1(g, "s_sext_i32_i8", 0x80, true), (0xffff_ff80, true));
        assert_eq!(op1(g, "s_sext_i32_i8", 0x17f, false), (0x7f, false));
        assert_eq!(
            op1(g, "s_sext_i32_i16", 0x8000, false),
            (0xffff_8000, false)
        );
        assert_eq!(
            op1(g, "s_sext_i32_i16", 0xffff_7fff, false),
            (0x7fff, false)
        );
        // The bit number is S0[4:0] / S0[5:0]; D is read and written.
        let w = go(g, "s_bitset0_b32 s2, s0\ns_bitset1_b32 s3, s1\ns_bitset1_b64 s[4:5], s6\ns_bitset0_b64 s[8:9], s7", |w| {
            w.s[0] = 35;
            w.s[1] = 33;
            w.s[2] = 0xffff_ffff;
            w.s[3] = 0;
            w.set_sreg64(4, 1);
            w.s[6] = 104;
            w.s[7] = 63;
            w.set_sreg64(8, u64::MAX);
            w.scc = true;
        });
        assert_eq!((w.s[2], w.s[3]), (0xffff_fff7, 2));
        assert_eq!(w.sreg64(4), 1 << 40 | 1);
        assert_eq!(w.sreg64(8), u64::MAX >> 1);
        assert!(w.scc);
        let w = go(
            g,
            "s_bitreplicate_b64_b32 s[2:3], s0\ns_bitreplicate_b64_b32 s[4:5], s1",
            |w| {
                w.s[0] = 0b101;
                w.s[1] = 0x8000_0000;
            },
        );
        assert_eq!(
            (w.sreg64(2), w.sreg64(4)),
            (0b11_0011, 0xc000_0000_0000_0000)
        );
    }

    #[test]
    fn saveexec_family() {
        let g = "gfx900";
        let s = 0x0000_ffff_0000_ffffu64;
        let exec = 0x0000_0000_ffff_ffffu64;
        let cases: [(&str, u64, bool); 12] = [
            ("s_and_saveexec_b64", 0x0000_0000_0000_ffff, false),
            ("s_or_saveexec_b64", 0x0000_ffff_ffff_ffff, false),
            ("s_xor_saveexec_b64", 0x0000_ffff_ffff_0000, false),
            ("s_andn2_saveexec_b64", 0x0000_ffff_0000_0000, false),
            ("s_orn2_saveexec_b64", 0xffff_ffff_0000_ffff, false),
            ("s_nand_saveexec_b64", 0xffff_ffff_ffff_0000, false),
            ("s_nor_saveexec_b64", 0xffff_0000_0000_0000, false),
            ("s_xnor_saveexec_b64", 0xffff_0000_0000_ffff, false),
            ("s_andn1_saveexec_b64", 0x0000_0000_ffff_0000, false),
            ("s_orn1_saveexec_b64", 0xffff_0000_ffff_ffff, false),
            ("s_andn1_wrexec_b64", 0x0000_0000_ffff_0000, true),
            ("s_andn2_wrexec_b64", 0x0000_ffff_0000_0000, true),
        ];
        for (name, new_exec, wrexec) in cases {
            let w = go(g, &format!("{name} s[2:3], s[0:1]"), |w| {
                w.set_sreg64(0, s);
                w.set_exec(exec);
            });
            assert_eq!(w.exec(), new_exec, "{name}");
            assert_eq!(w.sreg64(2), if wrexec { new_exec } else { exec }, "{name}");
            assert!(w.scc, "{name}");
        }
        let w = go("gfx600", "s_and_saveexec_b64 s[2:3], s[0:1]", |w| {
            w.set_sreg64(0, 0xffff_0000_0000_0000);
            w.set_exec(exec);
            w.scc = true;
        });
        assert_eq!((w.exec(), w.sreg64(2), w.scc), (0, exec, false));
    }

    #[test]
    fn relative_moves_index_by_m0_and_stay_in_the_sgprs() {
        let g = "gfx803";
        let w = go(
            g,
            "s_movrels_b32 s20, s4\ns_movreld_b32 s8, s21\ns_movrels_b64 s[22:23], s[4:5]",
            |w| {
                w.s[sreg::M0 as usize] = 2;
                for i in 0..12 {
                    w.s[i] = 100 + i as u32;
                }
                w.s[21] = 77;
            },
        );
        // s20 = s[4 + 2]; s[8 + 2] = s21; s[22:23] = s[6:7].
        assert_eq!((w.s[20], w.s[10], w.s[22], w.s[23]), (106, 77, 106, 107));
        let w = go(
            g,
            "s_movrels_b32 s20, s4\ns_movreld_b32 s4, s21\ns_movreld_b64 s[4:5], s[22:23]",
            |w| {
                // s4 + 98 is s102 (FLAT_SCRATCH_LO on gfx8): past the addressable SGPRs.
                w.s[sreg::M0 as usize] = 98;
                w.s[0] = 0x5150;
                w.s[20] = 5;
                w.s[21] = 6;
                w.set_sreg64(sreg::VCC, 0x1234);
            },
        );
        // The source reads s0; the destinations are not written.
        assert_eq!((w.s[20], w.vcc()), (0x5150, 0x1234));
        assert_eq!(w.sreg64(sreg::FLAT_SCRATCH), 0);
        // gfx6/7 address s102 and s103 too.
        let w = go(
            "gfx700",
            "s_movrels_b32 s20, s4\ns_movrels_b64 s[22:23], s[4:5]",
            |w| {
                w.s[sreg::M0 as usize] = 98;
                w.s[102] = 11;
                w.s[103] = 12;
            },
        );
        assert_eq!((w.s[20], w.s[22], w.s[23]), (11, 11, 12));
    }

    #[test]
    fn compares() {
        let g = "gfx900";
        assert!(!cmp(g, "s_cmp_gt_i32", 0xffff_ffff, 1));
        assert!(cmp(g, "s_cmp_gt_u32", 0xffff_ffff, 1));
        assert!(cmp(g, "s_cmp_lt_i32", 0x8000_0000, 0x7fff_ffff));
        assert!(!cmp(g, "s_cmp_lt_u32", 0x8000_0000, 0x7fff_ffff));
        assert!(cmp(g, "s_cmp_ge_i32", 5, 5) && !cmp(g, "s_cmp_gt_i32", 5, 5));
        assert!(cmp(g, "s_cmp_le_u32", 5, 5) && !cmp(g, "s_cmp_lt_u32", 5, 5));
        assert!(cmp(g, "s_cmp_ge_u32", 6, 5) && !cmp(g, "s_cmp_le_i32", 6, 5));
        assert!(cmp(g, "s_cmp_eq_i32", 7, 7) && !cmp(g, "s_cmp_eq_u32", 7, 8));
        assert!(cmp(g, "s_cmp_lg_i32", 7, 8) && !cmp(g, "s_cmp_lg_u32", 7, 7));
        // The bit number is S1[4:0] / S1[5:0].
        assert!(!cmp(g, "s_bitcmp0_b32", 0b100, 34));
        assert!(cmp(g, "s_bitcmp1_b32", 0b100, 34));
        assert!(cmp(g, "s_bitcmp0_b32", 0b100, 1));
        let cmp64 = |op: &str, a: u64, b: u64| {
            go(g, &format!("{op} s[0:1], s[2:3]"), |w| {
                w.set_sreg64(0, a);
                w.set_sreg64(2, b);
                w.scc = !w.scc;
            })
            .scc
        };
        assert!(!cmp64("s_cmp_eq_u64", 1 << 32, 0));
        assert!(cmp64("s_cmp_eq_u64", 1 << 32 | 5, 1 << 32 | 5));
        assert!(cmp64("s_cmp_lg_u64", 1 << 32, 0));
        assert!(!cmp64("s_cmp_lg_u64", 3, 3));
        let bitcmp64 = |op: &str, a: u64, b: u32| {
            go(g, &format!("{op} s[0:1], s2"), |w| {
                w.set_sreg64(0, a);
                w.s[2] = b;
            })
            .scc
        };
        assert!(bitcmp64("s_bitcmp1_b64", 1 << 63, 127));
        assert!(!bitcmp64("s_bitcmp0_b64", 1 << 63, 63));
        assert!(bitcmp64("s_bitcmp0_b64", 1 << 63, 31));
    }

    #[test]
    fn sopk_constants_are_sign_or_zero_extended_as_the_instruction_reads_them() {
        let g = "gfx803";
        let k = |src: &str, s0: u32| {
            go(g, src, |w| {
                w.s[0] = s0;
                w.scc = !w.scc;
            })
        };
        assert!(k("s_cmpk_eq_u32 s0, 0x8000", 0x8000).scc);
        assert!(!k("s_cmpk_eq_i32 s0, 0x8000", 0x8000).scc);
        assert!(k("s_cmpk_eq_i32 s0, 0x8000", 0xffff_8000).scc);
        assert!(k("s_cmpk_lt_i32 s0, 0", 0xffff_ffff).scc);
        assert!(!k("s_cmpk_lt_u32 s0, 0", 0xffff_ffff).scc);
        assert!(k("s_cmpk_gt_u32 s0, 0xffff", 0x1_0000).scc);
        assert!(k("s_cmpk_ge_i32 s0, 0xffff", 0xffff_ffff).scc);
        assert!(!k("s_cmpk_le_i32 s0, 0xfffe", 0xffff_ffff).scc);
        assert!(k("s_cmpk_lg_u32 s0, 1", 0x1_0001).scc);
        assert!(!k("s_cmpk_lg_i32 s0, 0xffff", 0xffff_ffff).scc);
        assert!(k("s_cmpk_ge_u32 s0, 0x8000", 0x8000).scc);
        assert!(k("s_cmpk_le_u32 s0, 0x8000", 0x8000).scc);
        assert!(k("s_cmpk_gt_i32 s0, 0x8000", 0xffff_8001).scc);
        // s_addk_i32: D = D + signext(simm16), SCC = signed overflow.
        let w = k("s_addk_i32 s0, 0x7fff", 0x7fff_ffff);
        assert_eq!((w.s[0], w.scc), (0x8000_7ffe, true));
        let w = k("s_addk_i32 s0, 0xffff", 5);
        assert_eq!((w.s[0], w.scc), (4, false));
    }

    #[test]
    fn every_generation_runs_the_common_rows() {
        // Opcodes differ between gfx6/7 and gfx8+; the same program must give the same result.
        let src = "s_add_u32 s2, s0, s1\n\
                   s_addc_u32 s3, s0, s1\n\
                   s_bfe_u32 s4, s0, 0x80004\n\
                   s_cmpk_lg_u32 s1, 3\n\
                   s_cselect_b32 s5, 1, 2\n\
                   s_movk_i32 s6, 0xfff0\n\
                   s_addk_i32 s6, 0x20\n\
                   s_ff1_i32_b32 s7, s0\n\
                   s_and_saveexec_b64 s[8:9], s[10:11]\n\
                   s_abs_i32 s12, s6\n\
                   s_getreg_b32 s13, hwreg(HW_REG_MODE, 0, 8)";
        for g in GENS {
            let w = go(g, src, |w| {
                w.s[0] = 0xffff_fff0;
                w.s[1] = 0x30;
                w.set_sreg64(10, 0xff);
            });
            // 0xfffffff0 + 0x30 = 0x1_0000_0020; then again with the carry in.
            assert_eq!((w.s[2], w.s[3]), (0x20, 0x21), "{g}");
            assert_eq!(w.s[4], 0xff, "{g}");
            assert_eq!(w.s[5], 1, "{g}");
            assert_eq!(w.s[6], 0x10, "{g}");
            assert_eq!(w.s[7], 4, "{g}");
            assert_eq!((w.sreg64(8), w.exec()), (u64::MAX, 0xff), "{g}");
            assert_eq!(w.s[12], 0x10, "{g}");
            let mode = if matches!(g, "gfx600" | "gfx700" | "gfx803") {
                MODE_GFX6
            } else {
                MODE_GFX9
            };
            assert_eq!(w.s[13], mode & 0xff, "{g}");
            assert!(w.scc, "{g}");
        }
    }

    #[test]
    fn scalar_operations_ignore_exec() {
        let w = go("gfx900", "s_add_u32 s2, s0, s1", |w| {
            w.set_exec(0);
            w.s[0] = 2;
            w.s[1] = 3;
        });
        assert_eq!(w.s[2], 5);
    }

    #[test]
    fn setreg_writes_mode_fields_and_getreg_reads_them_back() {
        let g = "gfx900";
        let w = go(
            g,
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xa\n\
             s_getreg_b32 s0, hwreg(HW_REG_MODE)\n\
             s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s1\n\
             s_getreg_b32 s2, hwreg(HW_REG_MODE, 4, 4)\n\
             s_getreg_b32 s3, hwreg(HW_REG_MODE, 8, 2)",
            |w| w.s[1] = 5,
        );
        // MODE_GFX9 = 0x3f0: round bits become 0xa, then the f32 denorm field becomes 1.
        assert_eq!(w.s[0], 0x3fa);
        assert_eq!(w.s[2], 0b1101);
        assert_eq!(w.s[3], 3);
        assert_eq!(w.mode.bits, 0x3da);
        // FP16_OVFL (bit 23) exists from gfx9 on; bits 19..22 are reserved everywhere.
        let src = "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 19, 5), 0x1f";
        assert_eq!(go("gfx900", src, |_| {}).mode.bits, MODE_GFX9 | 1 << 23);
        assert_eq!(go("gfx803", src, |_| {}).mode.bits, MODE_GFX6);
        // DISABLE_PERF (bit 26) from gfx9 on; POPS_PACKER's bits 24/25 are reserved here.
        let src = "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 24, 3), 7";
        assert_eq!(go("gfx90a", src, |_| {}).mode.bits, MODE_GFX9 | 1 << 26);
        assert_eq!(go("gfx803", src, |_| {}).mode.bits, MODE_GFX6);
        // Clearing the trap enables is fine.
        let src = "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 12, 7), 0";
        assert_eq!(go("gfx600", src, |_| {}).mode.bits, MODE_GFX6);
        // A field of 32 bits at offset 0 writes every writable bit.
        let w = go(
            "gfx700",
            "s_setreg_b32 hwreg(HW_REG_MODE, 0, 32), s0",
            |w| w.s[0] = 0x0000_0123,
        );
        assert_eq!(w.mode.bits, 0x123);
    }

    #[test]
    fn getreg_of_the_status_and_identity_registers() {
        let g = "gfx900";
        let w = go(
            g,
            "s_setprio 2\n\
             s_getreg_b32 s0, hwreg(HW_REG_STATUS)\n\
             s_getreg_b32 s1, hwreg(HW_REG_HW_ID)\n\
             s_getreg_b32 s2, hwreg(HW_REG_HW_ID, 4, 2)\n\
             s_getreg_b32 s3, hwreg(HW_REG_GPR_ALLOC)\n\
             s_getreg_b32 s4, hwreg(HW_REG_LDS_ALLOC)\n\
             s_getreg_b32 s5, hwreg(HW_REG_IB_STS)\n\
             s_getreg_b32 s6, hwreg(HW_REG_SH_MEM_BASES)\n\
             s_getreg_b32 s7, hwreg(HW_REG_SH_MEM_BASES, 16, 16)\n\
             s_getreg_b32 s8, hwreg(10)",
            |w| {
                w.scc = true;
                w.set_exec(0);
                w.set_sreg64(sreg::VCC, 0);
                w.wave_in_group = 6;
                for i in 0..9 {
                    w.s[i] = 0xdead_beef;
                }
            },
        );
        // SCC, USER_PRIO = 2, TRAP_EN, EXECZ, VCCZ, VALID.
        assert_eq!(w.s[0], 1 | 2 << 3 | 1 << 6 | 1 << 9 | 1 << 10 | 1 << 16);
        assert!(w.scc);
        // Wave 6: SIMD 2, slot 1.
        assert_eq!((w.s[1], w.s[2]), (0x21, 2));
        assert_eq!(w.s[3], 63 << 8 | 6 << 24);
        // 64 KiB of LDS in 512-byte granules.
        assert_eq!(w.s[4], 128 << 12);
        assert_eq!(w.s[5], 0);
        // The test apertures: shared 0x0001_0000_0000_0000, private 0x0002_0000_0000_0000.
        assert_eq!((w.s[6], w.s[7]), (0x0001_0002, 1));
        assert_eq!(w.s[8], 0);
        let w = go(
            "gfx600",
            "s_getreg_b32 s0, hwreg(HW_REG_LDS_ALLOC)\ns_getreg_b32 s1, hwreg(HW_REG_GPR_ALLOC)",
            |_| {},
        );
        assert_eq!((w.s[0], w.s[1]), (256 << 12, 63 << 8 | 12 << 24));
        // Hardware register 15 is only SH_MEM_BASES from gfx9 on.
        let w = go("gfx803", "s_getreg_b32 s0, hwreg(15)", |w| w.s[0] = 1);
        assert_eq!(w.s[0], 0);
    }

    #[test]
    fn trapsts_keeps_its_read_only_bits() {
        let w = go(
            "gfx908",
            "s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS, 0, 32), 0xffffffff\n\
             s_getreg_b32 s0, hwreg(HW_REG_TRAPSTS)\n\
             s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS, 8, 2), 0\n\
             s_getreg_b32 s1, hwreg(HW_REG_TRAPSTS)",
            |_| {},
        );
        assert_eq!((w.s[0], w.s[1]), (0x003f_ffff, 0x003f_fcff));
    }

    #[test]
    fn gpr_index_mode_state_lives_in_mode_and_m0() {
        let g = "gfx900";
        let w = go(g, "s_set_gpr_idx_on s1, gpr_idx(SRC0,DST)", |w| {
            w.s[sreg::M0 as usize] = 0xaaaa_aaaa;
            w.s[1] = 0x123;
        });
        // M0[7:0] = 0x23, M0[15:12] = SRC0 | DST = 9, the rest kept.
        assert_eq!(w.s[sreg::M0 as usize], 0xaaaa_9a23);
        assert_ne!(w.mode.bits & MODE_GPR_IDX_EN, 0);
        assert_eq!(w.gpr_idx, Some(9));
        let w = go(
            g,
            "s_set_gpr_idx_on 5, gpr_idx(SRC0)\n\
             s_set_gpr_idx_mode gpr_idx(SRC1,SRC2)\n\
             s_set_gpr_idx_idx s2",
            |w| w.s[2] = 0x1ff,
        );
        assert_eq!(w.s[sreg::M0 as usize], 0x6000 | 0xff);
        assert_eq!(w.gpr_idx, Some(6));
        let w = go(
            g,
            "s_set_gpr_idx_on 5, gpr_idx(SRC0)\ns_set_gpr_idx_off",
            |_| {},
        );
        assert_eq!(w.s[sreg::M0 as usize], 0x1005);
        assert_eq!((w.mode.bits & MODE_GPR_IDX_EN, w.gpr_idx), (0, None));
        // Setting GPR_IDX_EN through MODE turns the mode on with M0's mask.
        let w = go(
            "gfx803",
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 27, 1), 1",
            |w| {
                w.s[sreg::M0 as usize] = 0x4000;
            },
        );
        assert_eq!(w.gpr_idx, Some(4));
    }

    #[test]
    fn unsupported_rows_fault_clearly() {
        let g = "gfx803";
        for src in [
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 12, 7), 4",
            "s_setreg_b32 hwreg(HW_REG_STATUS), s0",
            "s_setreg_imm32_b32 hwreg(HW_REG_HW_ID), 0",
            "s_setreg_imm32_b32 hwreg(HW_REG_IB_STS), 0",
            "s_setreg_imm32_b32 hwreg(9), 0",
        ] {
            let e = fault(g, src, |w| w.set_sreg64(0, u64::MAX));
            assert!(matches!(e, Fault::Unsupported(_)), "{src}: {e:?}");
        }
        let w = go(g, "s_setvskip 1, 1", |_| {});
        assert_eq!(w.mode.bits & MODE_VSKIP, 0);
        let w = go(g, "s_setvskip 1, 0", |_| {});
        assert_eq!(w.mode.bits & MODE_VSKIP, MODE_VSKIP);
    }

    #[test]
    fn every_scalar_alu_row_has_semantics_on_every_generation() {
        use gcnkit_isa::{Target, INSTRUCTIONS};
        for g in GENS {
            let target = Target::parse(g, None).expect("known processor");
            let ctx = BuildContext { target: &target };
            for (id, def) in INSTRUCTIONS.iter().enumerate() {
                let scalar_alu = matches!(
                    def.encoding,
                    Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopk | Encoding::Sopc
                );
                if !scalar_alu && !matches!(def.op, M::SSetGprIdxOff | M::SSetGprIdxMode) {
                    continue;
                }
                if def.opcode(target.gen()).is_none() {
                    continue;
                }
                let inst = Instruction {
                    id: id as _,
                    gen: target.gen(),
                    encoding: def.encoding,
                    form: gcnkit_isa::Form::Native,
                    bits: 0,
                    ext: Some(0),
                    len: 4,
                };
                assert!(
                    crate::semantics::is_emulated(&inst, &ctx),
                    "{g}: {}",
                    def.mnemonic
                );
            }
        }
    }
}
