//! Caches of finished llvm-objdump lines keyed by instruction bytes.
//!
//! Real code repeats itself: the largest rocSPARSE gfx900 object has 528,736 instructions but
//! only 29,656 distinct encodings. Everything on an llvm-objdump line except the address (and
//! a branch's `<sym+off>` note) follows from the bytes and the target alone, so a line
//! printed once is copied for every repeat instead of being decoded and printed again.
//!
//! Each worker thread has a cache of its own, read without locks. (A second, shared level
//! that let a line printed by one worker serve the others was tried: its locked lookups into
//! scattered memory cost more than the decoding they saved.)
//!
//! The length of an instruction follows from its first dword on every target gcnkit knows
//! (the encoding, and whether a source field selects a literal, SDWA or DPP dword), so a
//! lookup is in two steps: the first dword, then, for 8-byte instructions, both dwords.

use gcnkit_isa::Instruction;

use crate::listing::branch_target;

/// Most slots per table (a power of two). The tables are cleared when one is three quarters
/// full, which keeps probe chains short.
const SLOTS: usize = 1 << 15;
/// Fewest slots per table.
const MIN_SLOTS: usize = 1 << 8;
/// Bytes of cached text after which a cache starts afresh, bounding its memory.
const ARENA_LIMIT: usize = 4 << 20;

/// A cached line: `arena[start..start + len]`, with the address to be written at `addr_at`.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    start: u32,
    len: u16,
    addr_at: u16,
    /// 0: empty; 4 or 8: the instruction's length; [`LONG`]: the first dword of an 8-byte
    /// instruction, whose line is in the long table.
    kind: u8,
    /// For branches: the target minus the instruction's address; [`NO_BRANCH`] otherwise.
    branch: i32,
}

/// Marks, in the short table, a first dword that starts an 8-byte instruction.
const LONG: u8 = 0xff;
/// [`Slot::branch`] of an instruction that is not a branch (a branch's distance is a
/// multiple of four).
const NO_BRANCH: i32 = i32::MIN + 1;

struct Table {
    slots: Box<[Slot]>,
    used: usize,
    /// log2 of the number of slots.
    bits: u32,
}

impl Table {
    /// A table of `slots` slots (a power of two).
    fn new(slots: usize) -> Table {
        Table {
            slots: vec![Slot::default(); slots].into_boxed_slice(),
            used: 0,
            bits: slots.trailing_zeros(),
        }
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    #[inline]
    fn get(&self, key: u64) -> Option<&Slot> {
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            if slot.kind == 0 {
                return None;
            }
            if slot.key == key {
                return Some(slot);
            }
            i = (i + 1) & self.mask();
        }
    }

    /// Asks the processor to fetch the home slot of `key` ahead of a lookup.
    #[inline]
    fn prefetch(&self, key: u64) {
        let slot: *const Slot = &self.slots[self.home(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint: it never faults and changes nothing the program can
        // observe; `slot` points into the table anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast())
        };
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    fn insert(&mut self, slot: Slot) {
        let mut i = self.home(slot.key);
        while self.slots[i].kind != 0 && self.slots[i].key != slot.key {
            i = (i + 1) & self.mask();
        }
        if self.slots[i].kind == 0 {
            self.used += 1;
        }
        self.slots[i] = slot;
    }

    fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.used = 0;
    }
}

/// A cached line.
#[derive(Clone, Copy)]
pub(crate) struct CachedLine<'c> {
    /// The whole line, with a placeholder where the address goes, and the newline unless
    /// the instruction is a branch (whose `<sym+off>` note comes first).
    pub text: &'c str,
    /// Where the 12 hex digits of the address go in `text`.
    pub addr_at: u16,
    /// Length of the instruction in bytes (4 or 8).
    pub len: u8,
    /// For branches: the target minus the instruction's address.
    pub branch: Option<i32>,
}

/// The line cache of one worker.
pub(crate) struct LineCache {
    short: Table,
    long: Table,
    arena: String,
}

impl LineCache {
    /// A cache sized for listing about `bytes` bytes of code: small inputs do not pay for
    /// clearing large tables.
    pub(crate) fn new(bytes: usize) -> LineCache {
        let slots = (bytes / 4).next_power_of_two().clamp(MIN_SLOTS, SLOTS);
        LineCache {
            short: Table::new(slots),
            long: Table::new(slots),
            arena: String::new(),
        }
    }

    /// The cached line of the instruction at the start of `bytes`.
    #[inline(always)]
    pub(crate) fn get(&self, bytes: &[u8]) -> Option<CachedLine<'_>> {
        let word0 = read_word(bytes, 0)?;
        let mut slot = self.short.get(word0)?;
        if slot.kind == LONG {
            slot = self.long.get(word0 | read_word(bytes, 4)? << 32)?;
        }
        let start = slot.start as usize;
        Some(CachedLine {
            text: self.arena.get(start..start + slot.len as usize)?,
            addr_at: slot.addr_at,
            len: slot.kind,
            branch: (slot.branch != NO_BRANCH).then_some(slot.branch),
        })
    }

    /// Starts fetching the slots that the lookup after the instruction at the start of
    /// `bytes` will read (the next instruction starts 4 or 8 bytes on). Lookups are random
    /// accesses into tables larger than the processor's cache, and waiting for them was half
    /// the time of a listing.
    #[inline]
    pub(crate) fn prefetch_next(&self, bytes: &[u8]) {
        for at in [4, 8] {
            if let Some(w0) = read_word(bytes, at) {
                self.short.prefetch(w0);
                if let Some(w1) = read_word(bytes, at + 4) {
                    self.long.prefetch(w0 | w1 << 32);
                }
            }
        }
    }

    /// Remembers the line of the instruction whose bytes start `bytes`.
    pub(crate) fn insert(&mut self, bytes: &[u8], line: CachedLine<'_>) {
        let total = line.text.len();
        let len = line.len as usize;
        if !(len == 4 || len == 8) || bytes.len() < len || total > u16::MAX as usize {
            return;
        }
        if self.short.used >= self.short.slots.len() / 4 * 3
            || self.long.used >= self.long.slots.len() / 4 * 3
            || self.arena.len() + total > ARENA_LIMIT
        {
            self.short.clear();
            self.long.clear();
            self.arena.clear();
        }
        let word0 = read_word(bytes, 0).unwrap_or_default();
        let start = self.arena.len() as u32;
        self.arena.push_str(line.text);
        let slot = Slot {
            key: word0,
            start,
            len: total as u16,
            addr_at: line.addr_at,
            kind: line.len,
            branch: line.branch.unwrap_or(NO_BRANCH),
        };
        if len == 8 {
            self.short.insert(Slot { kind: LONG, ..slot });
            let word1 = read_word(bytes, 4).unwrap_or_default();
            self.long.insert(Slot {
                key: word0 | word1 << 32,
                ..slot
            });
        } else {
            self.short.insert(slot);
        }
    }
}

/// The branch distance a cached line records for `inst`.
pub(crate) fn branch_distance(inst: &Instruction) -> Option<i32> {
    branch_target(inst, 0).map(|t| t as i64 as i32)
}

/// The little-endian dword at `at`, widened.
#[inline]
fn read_word(bytes: &[u8], at: usize) -> Option<u64> {
    let w = bytes.get(at..at + 4)?;
    Some(u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &'static str, len: u8) -> CachedLine<'static> {
        CachedLine {
            text,
            addr_at: 3,
            len,
            branch: None,
        }
    }

    #[test]
    fn short_and_long_lines_come_back_as_stored() {
        let mut cache = LineCache::new(1 << 20);
        let nop = [0x00, 0x00, 0x80, 0xbf, 0xaa, 0xbb, 0xcc, 0xdd];
        let mov_lit = [0xff, 0x00, 0x80, 0xbe, 0x78, 0x56, 0x34, 0x12];
        cache.insert(&nop, line("\ts_nop 0 // ", 4));
        cache.insert(&mov_lit, line("\ts_mov_b32 s0, 0x12345678 // ", 8));
        let hit = cache.get(&nop[..4]).unwrap();
        assert_eq!((hit.text, hit.addr_at, hit.len), ("\ts_nop 0 // ", 3, 4));
        let hit = cache.get(&mov_lit).unwrap();
        assert_eq!(hit.text, "\ts_mov_b32 s0, 0x12345678 // ");
        // Same first dword, other literal: not the cached instruction.
        assert!(cache.get(&[0xff, 0x00, 0x80, 0xbe, 0, 0, 0, 0]).is_none());
        // Too short to hold the second dword.
        assert!(cache.get(&mov_lit[..4]).is_none());
    }

    #[test]
    fn a_full_table_starts_afresh_instead_of_failing() {
        let mut cache = LineCache::new(1 << 20);
        for i in 0..SLOTS as u32 {
            let bytes = i.to_le_bytes();
            cache.insert(&bytes, line("t", 4));
            assert!(cache.get(&bytes).is_some());
        }
        assert!(cache.short.used < SLOTS);
    }
}
