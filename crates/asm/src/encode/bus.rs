//! The constant bus: a VALU instruction on gfx6–gfx9 reads at most one scalar value (an
//! SGPR, a scalar special register, or the literal). Reads of one register at one width count
//! once; `s0` and `s[0:1]`, or `vcc_lo` and `vcc`, are different reads, as in llvm-mc. The
//! aperture registers and `vccz`/`execz`/`scc` are single registers whatever the width they
//! are read at: `src_shared_base` as a 32-bit and as a 64-bit source is one read.

use std::ops::Range;

use super::Asm;
use crate::error::AsmError;

/// llvm-mc's message for an instruction that reads too many scalar values.
pub(crate) const VIOLATION: &str = "invalid operand (violates constant bus restrictions)";

/// Most scalar reads one instruction records (three sources and an implicit read).
const MAX_READS: usize = 6;

/// The scalar reads of one instruction, recorded while its sources are encoded.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bus {
    reads: [(u32, u32, u32); MAX_READS],
    len: usize,
}

/// The key of a source-field value read at `dwords` width, if it uses the constant bus:
/// SGPRs, TTMPs and named scalar registers (0..=127), the aperture registers (235..=239),
/// `vccz`/`execz`/`scc` (251..=253), and the literal (255; one literal value per
/// instruction is enforced elsewhere). Only SGPR-space reads carry their width.
pub(crate) fn key(value: u32, dwords: u32) -> Option<u32> {
    match value {
        0..=127 => Some(value | dwords << 12),
        // One register whatever the width it is read at (llvm-mc has one register for
        // `src_shared_base` as a 32-bit and as a 64-bit source).
        235..=239 | 251..=253 => Some(value),
        255 => Some(255),
        _ => None,
    }
}

/// The implicit read of the whole `vcc` (carry-in, v_cndmask's mask, v_div_fmas).
pub(crate) const VCC: u32 = 106 | 2 << 12;
/// The implicit read of `m0` (v_movrel*).
pub(crate) const M0: u32 = 124 | 1 << 12;

impl Bus {
    /// Records a read of `value` at `dwords` width by the operand at `span`.
    pub fn read(&mut self, value: u32, dwords: u32, span: &Range<usize>) {
        if let Some(k) = key(value, dwords) {
            self.read_key(k, span);
        }
    }

    /// Records a read by key (see [`key`], [`VCC`], [`M0`]).
    pub fn read_key(&mut self, k: u32, span: &Range<usize>) {
        if self.len < MAX_READS {
            self.reads[self.len] = (k, span.start as u32, span.end as u32);
            self.len += 1;
        }
    }

    /// Fails when two distinct scalar values are read, at the last operand that reads one
    /// (llvm-mc's place: `v_mad_u32_u24 v0, s0, s1, s1` fails at the second `s1`).
    pub fn check(&self) -> Result<(), AsmError> {
        let reads = &self.reads[..self.len];
        let Some(&(first, ..)) = reads.first() else {
            return Ok(());
        };
        if reads.iter().all(|r| r.0 == first) {
            return Ok(());
        }
        // An implicit read (vcc of v_cndmask_b32, recorded at the whole statement, which
        // starts with the mnemonic) and the constant K of v_madmk/v_madak (recorded at
        // 0..0) have no place of their own: llvm-mc points at the operand they conflict
        // with.
        let place = reads
            .iter()
            .filter(|r| r.1 != 0)
            .max_by_key(|r| r.1)
            .unwrap_or(&reads[0]);
        Err(AsmError::new(place.1 as usize..place.2 as usize, VIOLATION))
    }
}

impl Asm<'_> {
    /// Checks the constant-bus reads recorded so far.
    pub fn check_bus(&self) -> Result<(), AsmError> {
        self.bus.check()
    }
}
