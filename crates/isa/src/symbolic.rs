//! The names of symbolic operand values, shared by the printer and the assembler: hardware
//! registers (`hwreg(HW_REG_MODE)` of s_getreg/s_setreg) and messages with their operations
//! (`sendmsg(MSG_GS, GS_OP_EMIT)` of s_sendmsg), with the generations LLVM 19 knows each on.

use crate::target::Gen;

/// Where a name exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum On {
    All,
    /// gfx8 and later.
    Gfx8Up,
    /// The gfx9 family (gfx9, gfx908, gfx90a, gfx940).
    Gfx9Family,
    /// gfx6 to gfx8.
    UpToGfx8,
    Gfx940,
    /// None of gcnkit's targets: LLVM knows the name for later generations only.
    Never,
}

impl On {
    fn holds(self, gen: Gen) -> bool {
        match self {
            On::All => true,
            On::Gfx8Up => !gen.is_si_ci(),
            On::Gfx9Family => gen.is_gfx9_family(),
            On::UpToGfx8 => gen.is_si_ci() || gen == Gen::Gfx8,
            On::Gfx940 => gen == Gen::Gfx940,
            On::Never => false,
        }
    }
}

/// Hardware registers: name without `HW_REG_`, id, where.
const HW_REGS: &[(&str, u32, On)] = &[
    ("MODE", 1, On::All),
    ("STATUS", 2, On::All),
    ("TRAPSTS", 3, On::All),
    ("HW_ID", 4, On::All),
    ("GPR_ALLOC", 5, On::All),
    ("LDS_ALLOC", 6, On::All),
    ("IB_STS", 7, On::All),
    ("SH_MEM_BASES", 15, On::Gfx9Family),
    ("TBA_LO", 16, On::Gfx9Family),
    ("TBA_HI", 17, On::Gfx9Family),
    ("TMA_LO", 18, On::Gfx9Family),
    ("TMA_HI", 19, On::Gfx9Family),
    ("XCC_ID", 20, On::Gfx940),
    ("SQ_PERF_SNAPSHOT_DATA", 21, On::Gfx940),
    ("SQ_PERF_SNAPSHOT_DATA1", 22, On::Gfx940),
    ("SQ_PERF_SNAPSHOT_PC_LO", 23, On::Gfx940),
    ("SQ_PERF_SNAPSHOT_PC_HI", 24, On::Gfx940),
    // Names of gfx10 and later: llvm-mc knows them ("not supported on this GPU").
    ("FLAT_SCR_LO", 20, On::Never),
    ("FLAT_SCR_HI", 21, On::Never),
    ("XNACK_MASK", 22, On::Never),
    ("HW_ID1", 23, On::Never),
    ("HW_ID2", 24, On::Never),
    ("POPS_PACKER", 25, On::Never),
    ("PERF_SNAPSHOT_DATA", 26, On::Never),
    ("PERF_SNAPSHOT_PC_LO", 27, On::Never),
    ("PERF_SNAPSHOT_PC_HI", 28, On::Never),
    ("SHADER_CYCLES", 29, On::Never),
    ("SHADER_CYCLES_HI", 30, On::Never),
    ("PERF_SNAPSHOT_DATA1", 15, On::Never),
    ("PERF_SNAPSHOT_DATA2", 16, On::Never),
    ("EXCP_FLAG_PRIV", 17, On::Never),
    ("EXCP_FLAG_USER", 18, On::Never),
    ("TRAP_CTRL", 19, On::Never),
    ("SCRATCH_BASE_LO", 5, On::Never),
    ("SCRATCH_BASE_HI", 6, On::Never),
    ("DVGPR_ALLOC_LO", 31, On::Never),
    ("DVGPR_ALLOC_HI", 32, On::Never),
    ("STATE_PRIV", 4, On::Never),
];

/// Messages: name, id, where.
const MESSAGES: &[(&str, u32, On)] = &[
    ("MSG_INTERRUPT", 1, On::All),
    ("MSG_GS", 2, On::All),
    ("MSG_GS_DONE", 3, On::All),
    ("MSG_SAVEWAVE", 4, On::Gfx8Up),
    ("MSG_STALL_WAVE_GEN", 5, On::Gfx9Family),
    ("MSG_HALT_WAVES", 6, On::Gfx9Family),
    ("MSG_ORDERED_PS_DONE", 7, On::Gfx9Family),
    ("MSG_EARLY_PRIM_DEALLOC", 8, On::Gfx9Family),
    ("MSG_GS_ALLOC_REQ", 9, On::Gfx9Family),
    ("MSG_GET_DOORBELL", 10, On::Gfx9Family),
    ("MSG_SYSMSG", 15, On::All),
    // Names of gfx10 and later: llvm-mc knows them ("not supported on this GPU").
    ("MSG_GET_DDID", 11, On::Never),
    ("MSG_HS_TESSFACTOR", 2, On::Never),
    ("MSG_DEALLOC_VGPRS", 3, On::Never),
    ("MSG_RTN_GET_DOORBELL", 128, On::Never),
    ("MSG_RTN_GET_DDID", 129, On::Never),
    ("MSG_RTN_GET_TMA", 130, On::Never),
    ("MSG_RTN_GET_REALTIME", 131, On::Never),
    ("MSG_RTN_SAVE_WAVE", 132, On::Never),
    ("MSG_RTN_GET_TBA", 133, On::Never),
    ("MSG_RTN_GET_TBA_TO_PC", 134, On::Never),
    ("MSG_RTN_GET_SE_AID_ID", 135, On::Never),
];

/// The message whose operations are the `SYSMSG_OP_*` names; every other message reads
/// operation names as `GS_OP_*`.
pub const MSG_SYSMSG: u32 = 15;

/// Message operations: the messages they belong to, name, value, where.
const MESSAGE_OPS: &[(&[u32], &str, u32, On)] = &[
    (&[2, 3], "GS_OP_NOP", 0, On::All),
    (&[2, 3], "GS_OP_CUT", 1, On::All),
    (&[2, 3], "GS_OP_EMIT", 2, On::All),
    (&[2, 3], "GS_OP_EMIT_CUT", 3, On::All),
    (&[15], "SYSMSG_OP_ECC_ERR_INTERRUPT", 1, On::All),
    (&[15], "SYSMSG_OP_REG_RD", 2, On::All),
    (&[15], "SYSMSG_OP_HOST_TRAP_ACK", 3, On::UpToGfx8),
    (&[15], "SYSMSG_OP_TTRACE_PC", 4, On::All),
];

/// The id of hardware register `name` (without `HW_REG_`): `Some(Err(()))` when LLVM knows the
/// name but not on `gen`.
pub fn hwreg_id(gen: Gen, name: &str) -> Option<Result<u32, ()>> {
    let &(_, id, on) = HW_REGS.iter().find(|r| r.0 == name)?;
    Some(if on.holds(gen) { Ok(id) } else { Err(()) })
}

/// The name (without `HW_REG_`) of hardware register `id` on `gen`.
pub fn hwreg_name(gen: Gen, id: u32) -> Option<&'static str> {
    HW_REGS
        .iter()
        .find(|r| r.1 == id && r.2.holds(gen))
        .map(|r| r.0)
}

/// The id of message `name`: `Some(Err(()))` when LLVM knows the name but not on `gen`.
pub fn message_id(gen: Gen, name: &str) -> Option<Result<u32, ()>> {
    let &(_, id, on) = MESSAGES.iter().find(|m| m.0 == name)?;
    Some(if on.holds(gen) { Ok(id) } else { Err(()) })
}

/// True if message `id`, written by name, must have an operation (and may have one): the
/// geometry-shader messages and `MSG_SYSMSG`.
pub fn message_takes_operation(id: u32) -> bool {
    matches!(id, 2 | 3 | MSG_SYSMSG)
}

/// True if operation `op` of message `id`, both written by name, is one the message takes
/// on `gen`: `GS_OP_CUT`..`GS_OP_EMIT_CUT` for `MSG_GS`, also `GS_OP_NOP` for
/// `MSG_GS_DONE`, the `SYSMSG_OP_*` of `gen` for `MSG_SYSMSG`.
pub fn message_op_valid(gen: Gen, id: u32, op: u32) -> bool {
    match id {
        2 => (1..=3).contains(&op),
        _ => message_op_name(gen, id, op).is_some(),
    }
}

/// True if a message written by name takes a stream id with operation `op`: the
/// geometry-shader messages with an operation other than `GS_OP_NOP`.
pub fn message_takes_stream(id: u32, op: u32) -> bool {
    matches!(id, 2 | 3) && op != 0
}

/// The value of operation `name` as llvm-mc reads it after message `id` (a number or a name):
/// a `SYSMSG_OP_*` name after `MSG_SYSMSG`, a `GS_OP_*` name after any other message.
/// `Some(Err(()))` when LLVM knows the name but not on `gen`.
pub fn message_op_by_name(gen: Gen, id: u32, name: &str) -> Option<Result<u32, ()>> {
    let sysmsg = id == MSG_SYSMSG;
    let &(_, _, value, on) = MESSAGE_OPS
        .iter()
        .find(|o| o.1 == name && o.0.contains(&MSG_SYSMSG) == sysmsg)?;
    Some(if on.holds(gen) { Ok(value) } else { Err(()) })
}

/// The name of message `id` on `gen`.
pub fn message_name(gen: Gen, id: u32) -> Option<&'static str> {
    MESSAGES
        .iter()
        .find(|m| m.1 == id && m.2.holds(gen))
        .map(|m| m.0)
}

/// The name of operation `op` of message `id` on `gen`.
pub fn message_op_name(gen: Gen, id: u32, op: u32) -> Option<&'static str> {
    MESSAGE_OPS
        .iter()
        .find(|o| o.0.contains(&id) && o.2 == op && o.3.holds(gen))
        .map(|o| o.1)
}
