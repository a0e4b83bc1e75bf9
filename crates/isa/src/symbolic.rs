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
    Gfx8,
    Gfx940,
}

impl On {
    fn holds(self, gen: Gen) -> bool {
        match self {
            On::All => true,
            On::Gfx8Up => !gen.is_si_ci(),
            On::Gfx9Family => gen.is_gfx9_family(),
            On::Gfx8 => gen == Gen::Gfx8,
            On::Gfx940 => gen == Gen::Gfx940,
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
];

/// Message operations: the messages they belong to, name, value, where.
const MESSAGE_OPS: &[(&[u32], &str, u32, On)] = &[
    (&[2, 3], "GS_OP_NOP", 0, On::All),
    (&[2, 3], "GS_OP_CUT", 1, On::All),
    (&[2, 3], "GS_OP_EMIT", 2, On::All),
    (&[2, 3], "GS_OP_EMIT_CUT", 3, On::All),
    (&[15], "SYSMSG_OP_ECC_ERR_INTERRUPT", 1, On::All),
    (&[15], "SYSMSG_OP_REG_RD", 2, On::All),
    (&[15], "SYSMSG_OP_HOST_TRAP_ACK", 3, On::Gfx8),
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

/// The name of message `id` on `gen`.
pub fn message_name(gen: Gen, id: u32) -> Option<&'static str> {
    MESSAGES
        .iter()
        .find(|m| m.1 == id && m.2.holds(gen))
        .map(|m| m.0)
}

/// The value of operation `name` of message `id` on `gen`.
pub fn message_op(gen: Gen, id: u32, name: &str) -> Option<u32> {
    MESSAGE_OPS
        .iter()
        .find(|o| o.0.contains(&id) && o.1 == name && o.3.holds(gen))
        .map(|o| o.2)
}

/// The name of operation `op` of message `id` on `gen`.
pub fn message_op_name(gen: Gen, id: u32, op: u32) -> Option<&'static str> {
    MESSAGE_OPS
        .iter()
        .find(|o| o.0.contains(&id) && o.2 == op && o.3.holds(gen))
        .map(|o| o.1)
}
