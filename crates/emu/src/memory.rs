//! Device memory: a 64-bit address space of 4 KiB pages, shared by every work-group of a
//! dispatch.
//!
//! Allocations are page-granular, as on the GPU, and separated by at least one unmapped page:
//! reading past a buffer's end inside its last page returns what is there (zeros unless the
//! kernel wrote them), one page further faults. Pages are found by index in a dense vector (no
//! hashing per lane). Memory is held as atomic 64-bit words and every access is atomic, so that
//! kernels that race (as GPU code may) cannot cause undefined behaviour in the emulator, and
//! so that an aligned 64-bit load or store is single-copy atomic as on the GPU: code that
//! publishes a flag and a value in one 64-bit word (rocPRIM's decoupled look-back) relies on
//! it. Loads, and aligned 64-bit stores, are plain moves on the hosts we run on; narrower
//! stores replace their part of the word with a compare-and-swap.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// Size of a page in bytes.
pub const PAGE_SIZE: u64 = 4096;
const WORDS_PER_PAGE: usize = (PAGE_SIZE / 8) as usize;

/// The lowest device address handed out. Above 4 GiB so that a kernel that truncates an
/// address to 32 bits faults instead of silently working.
pub const DEVICE_BASE: u64 = 0x1_0000_0000;

/// The device address space is limited to this many bytes of mappings (64 GiB of address
/// space, of which only what is allocated uses host memory).
const MAX_SPAN: u64 = 1 << 36;

type Page = Box<[AtomicU64; WORDS_PER_PAGE]>;

fn new_page() -> Page {
    // A boxed array of atomics zero-initialised without a large stack temporary.
    let v: Vec<AtomicU64> = (0..WORDS_PER_PAGE).map(|_| AtomicU64::new(0)).collect();
    v.into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("length is WORDS_PER_PAGE"))
}

/// Replaces the `bits`-wide field at bit `shift` of `word` by `value`, atomically.
#[inline(always)]
fn replace_bits(word: &AtomicU64, shift: u64, bits: u32, value: u64) {
    let mask = (u64::MAX >> (64 - bits)) << shift;
    let new = (value << shift) & mask;
    let _ = word.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
        Some(old & !mask | new)
    });
}

/// Why a memory access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MemoryFault {
    /// The address is not in any allocation's pages.
    #[error("access to unmapped device address {0:#x}")]
    Unmapped(u64),
}

/// Errors of allocation and host access.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MemoryError {
    /// The request does not fit the device address space.
    #[error("cannot allocate {0} bytes: device address space exhausted")]
    OutOfAddressSpace(u64),
    /// A host read or write touched an unmapped address.
    #[error("{what} of {len} bytes at {addr:#x} touches unmapped device memory")]
    Unmapped {
        /// "read" or "write".
        what: &'static str,
        /// Start address.
        addr: u64,
        /// Length in bytes.
        len: u64,
    },
    /// `free` of an address that is not the start of an allocation.
    #[error("{0:#x} is not the start of an allocation")]
    NotAllocated(u64),
}

/// One allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// First address.
    pub addr: u64,
    /// Size requested, in bytes.
    pub size: u64,
}

/// The device address space.
pub struct Memory {
    pages: Vec<Option<Page>>,
    allocations: BTreeMap<u64, Allocation>,
    /// Next free page index (allocation is monotonic: addresses are never reused, so a stale
    /// pointer to freed memory faults instead of reading a newer buffer).
    next_page: u64,
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new()
    }
}

impl Memory {
    /// An empty address space.
    pub fn new() -> Memory {
        Memory {
            pages: Vec::new(),
            allocations: BTreeMap::new(),
            next_page: 1,
        }
    }

    /// Allocates `size` bytes (at least one page), zero-filled, aligned to `align` (a power of
    /// two; at least the page size is always given). Returns the device address.
    pub fn allocate(&mut self, size: u64, align: u64) -> Result<u64, MemoryError> {
        let pages = size.max(1).div_ceil(PAGE_SIZE);
        let align_pages = (align.max(PAGE_SIZE) / PAGE_SIZE).next_power_of_two();
        let first = self.next_page.div_ceil(align_pages) * align_pages;
        let end = first
            .checked_add(pages)
            .filter(|&e| e * PAGE_SIZE <= MAX_SPAN)
            .ok_or(MemoryError::OutOfAddressSpace(size))?;
        if self.pages.len() < end as usize {
            self.pages.resize_with(end as usize, || None);
        }
        for p in first..end {
            self.pages[p as usize] = Some(new_page());
        }
        // One unmapped page after every allocation.
        self.next_page = end + 1;
        let addr = DEVICE_BASE + first * PAGE_SIZE;
        self.allocations.insert(addr, Allocation { addr, size });
        Ok(addr)
    }

    /// Frees the allocation starting at `addr`; its pages become unmapped.
    pub fn free(&mut self, addr: u64) -> Result<(), MemoryError> {
        let a = self
            .allocations
            .remove(&addr)
            .ok_or(MemoryError::NotAllocated(addr))?;
        let first = (a.addr - DEVICE_BASE) / PAGE_SIZE;
        for p in first..first + a.size.max(1).div_ceil(PAGE_SIZE) {
            self.pages[p as usize] = None;
        }
        Ok(())
    }

    /// The allocations, by address.
    pub fn allocations(&self) -> impl Iterator<Item = &Allocation> {
        self.allocations.values()
    }

    /// The allocation containing `addr`, if any.
    pub fn allocation_of(&self, addr: u64) -> Option<&Allocation> {
        self.allocations
            .range(..=addr)
            .next_back()
            .map(|(_, a)| a)
            .filter(|a| addr < a.addr + a.size.max(1).div_ceil(PAGE_SIZE) * PAGE_SIZE)
    }

    #[inline(always)]
    fn page(&self, addr: u64) -> Option<&[AtomicU64; WORDS_PER_PAGE]> {
        let index = addr.wrapping_sub(DEVICE_BASE) / PAGE_SIZE;
        match self.pages.get(index as usize) {
            Some(Some(p)) => Some(p),
            _ => None,
        }
    }

    /// The atomic 64-bit word holding byte `addr` (rounded down to 8).
    #[inline(always)]
    fn word(&self, addr: u64) -> Result<&AtomicU64, MemoryFault> {
        let page = self.page(addr).ok_or(MemoryFault::Unmapped(addr))?;
        Ok(&page[((addr % PAGE_SIZE) / 8) as usize])
    }

    /// Loads the 32-bit word at `addr`; any alignment.
    #[inline]
    pub fn load_u32(&self, addr: u64) -> Result<u32, MemoryFault> {
        if addr.is_multiple_of(4) {
            let w = self.word(addr)?.load(Ordering::Relaxed);
            return Ok((w >> ((addr & 4) * 8)) as u32);
        }
        let mut b = [0u8; 4];
        self.load_bytes(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// Stores the 32-bit word at `addr`; any alignment.
    #[inline]
    pub fn store_u32(&self, addr: u64, value: u32) -> Result<(), MemoryFault> {
        if addr.is_multiple_of(4) {
            replace_bits(self.word(addr)?, (addr & 4) * 8, 32, value as u64);
            return Ok(());
        }
        self.store_bytes(addr, &value.to_le_bytes())
    }

    /// Loads the 64-bit value at `addr`: one atomic load when aligned to 8 (single-copy
    /// atomic, as on the GPU), two 32-bit loads otherwise.
    #[inline]
    pub fn load_u64(&self, addr: u64) -> Result<u64, MemoryFault> {
        if addr.is_multiple_of(8) {
            return Ok(self.word(addr)?.load(Ordering::Relaxed));
        }
        let lo = self.load_u32(addr)?;
        let hi = self.load_u32(addr.wrapping_add(4))?;
        Ok(lo as u64 | (hi as u64) << 32)
    }

    /// Stores the 64-bit value at `addr`: one atomic store when aligned to 8, two 32-bit
    /// stores otherwise.
    #[inline]
    pub fn store_u64(&self, addr: u64, value: u64) -> Result<(), MemoryFault> {
        if addr.is_multiple_of(8) {
            self.word(addr)?.store(value, Ordering::Relaxed);
            return Ok(());
        }
        self.store_u32(addr, value as u32)?;
        self.store_u32(addr.wrapping_add(4), (value >> 32) as u32)
    }

    /// Loads one byte.
    #[inline]
    pub fn load_u8(&self, addr: u64) -> Result<u8, MemoryFault> {
        let w = self.word(addr)?.load(Ordering::Relaxed);
        Ok((w >> ((addr % 8) * 8)) as u8)
    }

    /// Stores one byte without disturbing its neighbours, even when other threads store to
    /// them at the same time.
    #[inline]
    pub fn store_u8(&self, addr: u64, value: u8) -> Result<(), MemoryFault> {
        replace_bits(self.word(addr)?, (addr % 8) * 8, 8, value as u64);
        Ok(())
    }

    /// Loads a 16-bit value; any alignment.
    #[inline]
    pub fn load_u16(&self, addr: u64) -> Result<u16, MemoryFault> {
        if addr % 8 != 7 {
            let w = self.word(addr)?.load(Ordering::Relaxed);
            return Ok((w >> ((addr % 8) * 8)) as u16);
        }
        Ok(self.load_u8(addr)? as u16 | (self.load_u8(addr.wrapping_add(1))? as u16) << 8)
    }

    /// Stores a 16-bit value; any alignment.
    #[inline]
    pub fn store_u16(&self, addr: u64, value: u16) -> Result<(), MemoryFault> {
        if addr % 8 != 7 {
            replace_bits(self.word(addr)?, (addr % 8) * 8, 16, value as u64);
            return Ok(());
        }
        self.store_u8(addr, value as u8)?;
        self.store_u8(addr.wrapping_add(1), (value >> 8) as u8)
    }

    /// Loads `out.len()` bytes starting at `addr`.
    pub fn load_bytes(&self, addr: u64, out: &mut [u8]) -> Result<(), MemoryFault> {
        for (i, b) in out.iter_mut().enumerate() {
            *b = self.load_u8(addr.wrapping_add(i as u64))?;
        }
        Ok(())
    }

    /// Stores `bytes` starting at `addr`.
    pub fn store_bytes(&self, addr: u64, bytes: &[u8]) -> Result<(), MemoryFault> {
        for (i, &b) in bytes.iter().enumerate() {
            self.store_u8(addr.wrapping_add(i as u64), b)?;
        }
        Ok(())
    }

    /// Atomically replaces the aligned 32-bit word at `addr` by `f(old)` and returns `old`.
    /// Updates from other threads are never lost.
    #[inline]
    pub fn atomic_rmw32(&self, addr: u64, f: impl Fn(u32) -> u32) -> Result<u32, MemoryFault> {
        let addr = addr & !3;
        let shift = (addr & 4) * 8;
        let w = self.word(addr)?;
        let old = w
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |old| {
                let new = f((old >> shift) as u32) as u64;
                Some(old & !(0xffff_ffff << shift) | new << shift)
            })
            .unwrap_or_else(|old| old);
        Ok((old >> shift) as u32)
    }

    /// Atomically replaces the aligned 64-bit value at `addr` by `f(old)` and returns `old`.
    #[inline]
    pub fn atomic_rmw64(&self, addr: u64, f: impl Fn(u64) -> u64) -> Result<u64, MemoryFault> {
        let w = self.word(addr & !7)?;
        Ok(
            w.fetch_update(Ordering::AcqRel, Ordering::Acquire, |old| Some(f(old)))
                .unwrap_or_else(|old| old),
        )
    }

    /// Host read of `len` bytes (for `read` APIs).
    pub fn read(&self, addr: u64, len: u64) -> Result<Vec<u8>, MemoryError> {
        let mut out = vec![0u8; len as usize];
        self.read_into(addr, &mut out)?;
        Ok(out)
    }

    /// Host read into a buffer.
    pub fn read_into(&self, addr: u64, out: &mut [u8]) -> Result<(), MemoryError> {
        let len = out.len() as u64;
        let err = || MemoryError::Unmapped {
            what: "read",
            addr,
            len,
        };
        let mut i = 0usize;
        while i < out.len() {
            let a = addr.checked_add(i as u64).ok_or_else(err)?;
            if a.is_multiple_of(8) && out.len() - i >= 8 {
                let w = self.word(a).map_err(|_| err())?.load(Ordering::Relaxed);
                out[i..i + 8].copy_from_slice(&w.to_le_bytes());
                i += 8;
            } else {
                out[i] = self.load_u8(a).map_err(|_| err())?;
                i += 1;
            }
        }
        Ok(())
    }

    /// Host write of `bytes` at `addr`.
    pub fn write(&self, addr: u64, bytes: &[u8]) -> Result<(), MemoryError> {
        let err = || MemoryError::Unmapped {
            what: "write",
            addr,
            len: bytes.len() as u64,
        };
        // Check the whole range first so that a failed write changes nothing.
        let end = addr.checked_add(bytes.len() as u64).ok_or_else(err)?;
        let mut p = addr & !(PAGE_SIZE - 1);
        while p < end {
            self.page(p).ok_or_else(err)?;
            p += PAGE_SIZE;
        }
        let mut i = 0usize;
        while i < bytes.len() {
            let a = addr + i as u64;
            if a.is_multiple_of(8) && bytes.len() - i >= 8 {
                let w = u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or_default());
                self.word(a).map_err(|_| err())?.store(w, Ordering::Relaxed);
                i += 8;
            } else {
                self.store_u8(a, bytes[i]).map_err(|_| err())?;
                i += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_past_the_end_inside_the_last_page_see_zeros_and_the_next_page_faults() {
        let mut m = Memory::new();
        let a = m.allocate(10, 1).unwrap();
        m.write(a, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).unwrap();
        assert_eq!(m.load_u32(a + 8).unwrap(), 0x0a09);
        assert_eq!(m.load_u32(a + 4092).unwrap(), 0);
        assert_eq!(m.load_u32(a + 4096), Err(MemoryFault::Unmapped(a + 4096)));
    }

    #[test]
    fn allocations_are_separated_by_an_unmapped_page() {
        let mut m = Memory::new();
        let a = m.allocate(4096, 1).unwrap();
        let b = m.allocate(4096, 1).unwrap();
        assert!(b >= a + 2 * PAGE_SIZE);
        assert!(m.load_u8(a + 4096).is_err());
    }

    #[test]
    fn unaligned_and_sub_word_accesses_keep_neighbouring_bytes() {
        let mut m = Memory::new();
        let a = m.allocate(64, 1).unwrap();
        m.store_u32(a + 1, 0xaabbccdd).unwrap();
        m.store_u16(a + 7, 0x1122).unwrap();
        m.store_u8(a, 0x55).unwrap();
        assert_eq!(
            m.read(a, 9).unwrap(),
            [0x55, 0xdd, 0xcc, 0xbb, 0xaa, 0, 0, 0x22, 0x11]
        );
        assert_eq!(m.load_u16(a + 3).unwrap(), 0xaabb);
    }

    #[test]
    fn atomics_from_many_threads_lose_no_update() {
        let mut m = Memory::new();
        let a = m.allocate(16, 1).unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..10_000 {
                        m.atomic_rmw32(a, |x| x + 1).unwrap();
                        m.atomic_rmw64(a + 8, |x| x + 3).unwrap();
                    }
                });
            }
        });
        assert_eq!(m.load_u32(a).unwrap(), 40_000);
        assert_eq!(m.load_u64(a + 8).unwrap(), 120_000);
    }

    #[test]
    fn aligned_64_bit_accesses_are_never_torn() {
        // One thread stores k << 32 | k, another loads; both halves must always match, as
        // on the GPU (64-bit single-copy atomicity).
        let mut m = Memory::new();
        let a = m.allocate(16, 1).unwrap();
        let torn = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            s.spawn(|| {
                for k in 0..200_000u64 {
                    m.store_u64(a, k << 32 | k).unwrap();
                }
            });
            s.spawn(|| {
                for _ in 0..200_000 {
                    let v = m.load_u64(a).unwrap();
                    if v >> 32 != v & 0xffff_ffff {
                        torn.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
            // 32-bit stores to the neighbouring word never disturb it.
            s.spawn(|| {
                for k in 0..200_000u32 {
                    m.store_u32(a + 8, k).unwrap();
                    m.store_u8(a + 12, k as u8).unwrap();
                }
            });
        });
        assert_eq!(torn.load(Ordering::Relaxed), 0);
        assert_eq!(m.load_u64(a).unwrap(), 199_999 << 32 | 199_999);
        assert_eq!(m.load_u32(a + 8).unwrap(), 199_999);
    }

    #[test]
    fn freed_memory_faults_and_failed_host_writes_change_nothing() {
        let mut m = Memory::new();
        let a = m.allocate(4096, 1).unwrap();
        assert!(m.write(a + 4090, &[1; 10]).is_err());
        assert_eq!(m.load_u8(a + 4090).unwrap(), 0);
        m.free(a).unwrap();
        assert!(m.load_u8(a).is_err());
        assert_eq!(m.free(a), Err(MemoryError::NotAllocated(a)));
    }
}
