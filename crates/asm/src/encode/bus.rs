//! The constant bus: a VALU instruction on gfx6–gfx9 reads at most one scalar value (an
//! SGPR, a scalar special register, or the literal). Reads of one register at one width count
//! once; `s0` and `s[0:1]`, or `vcc_lo` and `vcc`, are different reads, as in llvm-mc.

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
/// instruction is enforced elsewhere).
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

    /// Fails at the first read of a second distinct scalar value.
    pub fn check(&self) -> Result<(), AsmError> {
        let reads = &self.reads[..self.len];
        let Some(&(first, first_start, first_end)) = reads.first() else {
            return Ok(());
        };
        match reads.iter().find(|r| r.0 != first) {
            // An implicit read (vcc of v_cndmask_b32, recorded at the whole statement, which
            // starts with the mnemonic) has no place of its own: llvm-mc points at the
            // operand it conflicts with.
            Some(&(_, 0, _)) if first_start != 0 => Err(AsmError::new(
                first_start as usize..first_end as usize,
                VIOLATION,
            )),
            Some(&(_, start, end)) => Err(AsmError::new(start as usize..end as usize, VIOLATION)),
            None => Ok(()),
        }
    }
}

impl Asm<'_> {
    /// Checks the constant-bus reads recorded so far.
    pub fn check_bus(&self) -> Result<(), AsmError> {
        self.bus.check()
    }
}
