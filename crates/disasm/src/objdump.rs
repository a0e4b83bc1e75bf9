//! The `llvm-objdump -d --mcpu=X` listing of a section.
//!
//! llvm-objdump decodes each symbol's stretch of a section on its own: from the symbol's
//! address up to the next symbol's, starting afresh at every symbol even when the last
//! instruction of the previous stretch ran past it. That makes the stretches independent, so
//! they are listed in parallel, in work units of whole stretches, and written out in order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use gcnkit_isa::Target;

use crate::line_cache::{branch_distance, CachedLine, LineCache};
use crate::listing::{invalid_message, skippable_zeros, sorted_symbols};
use crate::listing::{Diagnostic, Output, Section, Symbol};
use crate::text::{fill_hex_upper, push_hex, push_hex_lower, push_hex_upper};
use crate::{print_instruction, PrintContext};

/// Column at which llvm-objdump starts the `// address: words` comment (counting the
/// leading tab as one character).
const COMMENT_COLUMN: usize = 60;

/// Where a cached line's address goes: llvm-objdump prints 12 hex digits.
const ADDRESS_PLACEHOLDER: &str = "000000000000";

/// Section bytes per work unit: enough to outweigh handing the unit to a thread, small
/// enough that the text of the units in flight stays a few megabytes.
const UNIT_BYTES: usize = 16 << 10;

/// Units that may be listed ahead of the one being written, per thread.
const AHEAD_PER_THREAD: usize = 2;

/// One symbol's stretch: decoding starts at `start` and goes on while below `end`.
struct Stretch<'a> {
    start: usize,
    end: usize,
    /// The symbol that starts it (address and name), or the section when no symbol does.
    header: Option<(u64, &'a str)>,
}

/// Appends the `llvm-objdump -d --mcpu=X` listing of one section, from the
/// `Disassembly of section` line on, using every core. Returns diagnostics for bytes that
/// did not decode.
pub fn objdump_section(
    target: &Target,
    section: &Section<'_>,
    out: &mut Output<'_>,
) -> Vec<Diagnostic> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    objdump_section_threads(target, section, out, threads)
}

/// [`objdump_section`] with at most `threads` threads listing at once (1: no threads).
pub fn objdump_section_threads(
    target: &Target,
    section: &Section<'_>,
    out: &mut Output<'_>,
    threads: usize,
) -> Vec<Diagnostic> {
    let syms = sorted_symbols(section);
    out.buf.push_str("Disassembly of section ");
    out.buf.push_str(section.name);
    out.buf.push_str(":\n");
    let stretches = stretches(section, &syms);
    let units = units(&stretches);
    let labels = branch_labels(section);
    let lister = Lister {
        target,
        section,
        syms: &syms,
        labels: &labels,
    };
    if threads <= 1 || units.len() <= 1 {
        let mut cache = LineCache::new(section.bytes.len());
        let mut diags = Vec::new();
        for s in &stretches {
            lister.stretch(s, &mut cache, out, &mut diags);
        }
        return diags;
    }
    let work = |unit: &[Stretch<'_>], cache: &mut LineCache, buf: String| {
        let mut text = Output::memory_reusing(buf);
        let mut diags = Vec::new();
        for s in unit {
            lister.stretch(s, cache, &mut text, &mut diags);
        }
        (text.buf, diags)
    };
    in_parallel(&units, threads, work, out)
}

/// The untyped symbols of a section by address: where several share an address, the first by
/// name (llvm-objdump's symbolizer takes the first in its order, which sorts by address, then
/// name).
fn branch_labels<'a>(section: &Section<'a>) -> Vec<(u64, &'a str)> {
    let mut labels: Vec<(u64, &str)> = section
        .symbols
        .iter()
        .filter(|s| s.untyped)
        .map(|s| (s.addr, s.name.as_str()))
        .collect();
    labels.sort_unstable();
    labels.dedup_by_key(|l| l.0);
    labels
}

/// The stretches of a section in address order.
fn stretches<'a>(section: &Section<'_>, syms: &'a [Symbol]) -> Vec<Stretch<'a>> {
    let size = section.bytes.len();
    let offset = |s: &Symbol| (s.addr - section.addr) as usize;
    let mut out = Vec::with_capacity(syms.len() + 1);
    if size > 0 && syms.first().is_none_or(|s| s.addr != section.addr) {
        out.push(Stretch {
            start: 0,
            end: syms.first().map_or(size, offset),
            header: None,
        });
    }
    for (i, s) in syms.iter().enumerate() {
        out.push(Stretch {
            start: offset(s),
            end: syms.get(i + 1).map_or(size, offset),
            header: Some((s.addr, s.name.as_str())),
        });
    }
    out
}

/// Groups consecutive stretches into units of at least [`UNIT_BYTES`] (the last may be less).
fn units<'s, 'a>(stretches: &'s [Stretch<'a>]) -> Vec<&'s [Stretch<'a>]> {
    let mut units = Vec::new();
    let mut first = 0;
    let mut bytes = 0;
    for (i, s) in stretches.iter().enumerate() {
        bytes += s.end - s.start;
        if bytes >= UNIT_BYTES {
            units.push(&stretches[first..=i]);
            first = i + 1;
            bytes = 0;
        }
    }
    if first < stretches.len() {
        units.push(&stretches[first..]);
    }
    units
}

/// Lists `units` on `threads` threads and writes their text to `out` in order. At most
/// `threads * AHEAD_PER_THREAD` units wait to be written, which bounds memory.
fn in_parallel<W>(
    units: &[&[Stretch<'_>]],
    threads: usize,
    work: W,
    out: &mut Output<'_>,
) -> Vec<Diagnostic>
where
    W: Fn(&[Stretch<'_>], &mut LineCache, String) -> (String, Vec<Diagnostic>) + Sync,
{
    let next = AtomicUsize::new(0);
    let ordered = Mutex::new(Ordered {
        out,
        written: 0,
        pending: (0..units.len()).map(|_| None).collect(),
        diags: Vec::new(),
        spare: Vec::new(),
    });
    let progress = Condvar::new();
    let ahead = threads * AHEAD_PER_THREAD;
    // Every worker sees most distinct instructions, so each cache is sized for the whole.
    let bytes: usize = units
        .iter()
        .flat_map(|u| u.iter())
        .map(|s| s.end - s.start)
        .sum();
    // The calling thread is one of the workers: a separate writer thread cost more in
    // wake-ups than the writing itself.
    let worker = || {
        let mut cache = LineCache::new(bytes);
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(unit) = units.get(i) else { break };
            // Units below `i` are all taken, so the lowest one in flight always passes
            // this wait: no deadlock.
            let mut state = ordered.lock().unwrap_or_else(|e| e.into_inner());
            while i >= state.written + ahead {
                state = progress.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            let buf = state.spare.pop().unwrap_or_default();
            drop(state);
            let result = work(unit, &mut cache, buf);
            let mut state = ordered.lock().unwrap_or_else(|e| e.into_inner());
            state.pending[i] = Some(result);
            if state.flush() {
                progress.notify_all();
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.min(units.len()) {
            scope.spawn(worker);
        }
        worker();
    });
    ordered
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .diags
}

/// Listed units waiting to be written in order, and the writer. Whichever worker finishes
/// the next unit to write writes it (and those after it that are ready).
struct Ordered<'o, 'w> {
    out: &'o mut Output<'w>,
    written: usize,
    pending: Vec<Option<(String, Vec<Diagnostic>)>>,
    diags: Vec<Diagnostic>,
    /// Text buffers written out, for reuse: fresh memory costs a page fault per 4 KiB.
    spare: Vec<String>,
}

impl Ordered<'_, '_> {
    /// Writes the units that are next in order; true if any was written.
    fn flush(&mut self) -> bool {
        let start = self.written;
        while let Some((mut text, d)) = self.pending.get_mut(self.written).and_then(Option::take) {
            self.out.push_chunk(&text);
            text.clear();
            self.spare.push(text);
            self.diags.extend(d);
            self.written += 1;
        }
        self.written > start
    }
}

/// Buffers for printing an instruction that is not cached.
#[derive(Default)]
struct Scratch {
    /// The instruction's text.
    text: String,
    /// Its line without the address.
    line: String,
}

/// What listing a stretch needs besides the stretch.
struct Lister<'a> {
    target: &'a Target,
    section: &'a Section<'a>,
    syms: &'a [Symbol],
    /// Untyped symbols by address (the first by name where several share one): branches
    /// to them print the name.
    labels: &'a [(u64, &'a str)],
}

impl Lister<'_> {
    /// Lists one stretch into `out`.
    fn stretch(
        &self,
        s: &Stretch<'_>,
        cache: &mut LineCache,
        out: &mut Output<'_>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let bytes = self.section.bytes;
        let base = self.section.addr;
        out.buf.push('\n');
        let (addr, name) = s.header.unwrap_or((base, self.section.name));
        push_hex_lower(&mut out.buf, addr, 16);
        out.buf.push_str(" <");
        out.buf.push_str(name);
        out.buf.push_str(">:\n");
        let mut off = s.start;
        let mut scratch = Scratch::default();
        while off < s.end {
            let zeros = skippable_zeros(&bytes[off..s.end]);
            if zeros > 0 {
                out.buf.push_str("\t\t...\n");
                off += zeros;
                continue;
            }
            let addr = base.wrapping_add(off as u64);
            let rest = &bytes[off..];
            if rest.len() < 4 {
                self.tail(addr, rest, out, diags);
                break;
            }
            cache.prefetch_next(rest);
            let cached = cache
                .get(rest)
                .map(|line| self.push_line(&mut out.buf, addr, rest, line));
            off += match cached {
                Some(len) => len,
                None => self.uncached(addr, rest, cache, &mut scratch, out, diags),
            };
            out.maybe_flush();
        }
    }

    /// Decodes and prints the instruction at the start of `rest` (at least 4 bytes) and
    /// caches its line; returns its length.
    fn uncached(
        &self,
        addr: u64,
        rest: &[u8],
        cache: &mut LineCache,
        scratch: &mut Scratch,
        out: &mut Output<'_>,
        diags: &mut Vec<Diagnostic>,
    ) -> usize {
        let ctx = PrintContext {
            target: self.target,
            branch_label: None,
        };
        let Scratch { text, line } = scratch;
        text.clear();
        let decoded = gcnkit_isa::decode(self.target, rest)
            .ok()
            .filter(|inst| print_instruction(inst, &ctx, text).is_ok());
        let Some(inst) = decoded else {
            let word = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
            text.clear();
            text.push_str(".long ");
            push_hex(text, word as u64);
            diags.push(Diagnostic {
                addr,
                message: invalid_message(self.target, rest),
            });
            push_before_addr(&mut out.buf, text);
            push_hex_upper(&mut out.buf, addr, 12);
            push_words(&mut out.buf, &rest[..4]);
            out.buf.push('\n');
            return 4;
        };
        line.clear();
        push_before_addr(line, text);
        let addr_at = line.len();
        line.push_str(ADDRESS_PLACEHOLDER);
        push_words(line, &rest[..inst.len as usize]);
        let branch = branch_distance(&inst);
        if branch.is_none() {
            line.push('\n');
        }
        let cached = CachedLine {
            text: line,
            addr_at: addr_at as u16,
            len: inst.len,
            branch,
        };
        cache.insert(rest, cached);
        self.push_line(&mut out.buf, addr, rest, cached)
    }

    /// Appends a line of a cached instruction at `addr`; returns the instruction's length.
    #[inline(always)]
    fn push_line(&self, out: &mut String, addr: u64, rest: &[u8], line: CachedLine<'_>) -> usize {
        if let Some(delta) = line.branch {
            let target = addr.wrapping_add(delta as i64 as u64);
            let labelled = self
                .label_at(target)
                .and_then(|label| self.labelled_branch(out, addr, rest, label));
            if let Some(len) = labelled {
                return len;
            }
        }
        let at = out.len() + line.addr_at as usize;
        out.push_str(line.text);
        if let Some(digits) = out.get(at..at + ADDRESS_PLACEHOLDER.len()) {
            debug_assert_eq!(digits, ADDRESS_PLACEHOLDER);
            // SAFETY: this overwrites the ASCII placeholder just appended with as many ASCII
            // hex digits, so the string stays valid UTF-8. (Writing the line in one copy and
            // patching the address beats appending it in three pieces.)
            let bytes = unsafe { out.as_mut_vec() };
            fill_hex_upper(&mut bytes[at..at + ADDRESS_PLACEHOLDER.len()], addr);
        }
        if let Some(delta) = line.branch {
            self.push_symbolized(out, addr.wrapping_add(delta as i64 as u64));
            out.push('\n');
        }
        line.len as usize
    }

    /// The untyped symbol at `addr`, if any.
    #[inline]
    fn label_at(&self, addr: u64) -> Option<&str> {
        if self.labels.is_empty() {
            return None;
        }
        let i = self.labels.partition_point(|l| l.0 < addr);
        self.labels.get(i).filter(|l| l.0 == addr).map(|l| l.1)
    }

    /// Appends the line of a branch to an untyped symbol: its operand is the symbol's name,
    /// and there is no `<sym+off>` note. Rare enough to print afresh each time.
    fn labelled_branch(
        &self,
        out: &mut String,
        addr: u64,
        rest: &[u8],
        label: &str,
    ) -> Option<usize> {
        let ctx = PrintContext {
            target: self.target,
            branch_label: Some(label),
        };
        let mut text = String::new();
        let inst = gcnkit_isa::decode(self.target, rest).ok()?;
        print_instruction(&inst, &ctx, &mut text).ok()?;
        let len = inst.len as usize;
        push_before_addr(out, &text);
        push_hex_upper(out, addr, 12);
        push_words(out, &rest[..len]);
        out.push('\n');
        Some(len)
    }

    /// The `.byte` line of fewer than four bytes left at the end of the section.
    fn tail(&self, addr: u64, rest: &[u8], out: &mut Output<'_>, diags: &mut Vec<Diagnostic>) {
        let mut line = String::from(".byte ");
        for (i, b) in rest.iter().enumerate() {
            if i > 0 {
                line.push_str(", ");
            }
            line.push_str("0x");
            push_hex_lower(&mut line, *b as u64, 2);
        }
        diags.push(Diagnostic {
            addr,
            message: format!("{} trailing bytes do not form an instruction", rest.len()),
        });
        push_before_addr(&mut out.buf, &line);
        push_hex_upper(&mut out.buf, addr, 12);
        out.buf.push(':');
        for b in rest {
            out.buf.push(' ');
            push_hex_upper(&mut out.buf, *b as u64, 2);
        }
        out.buf.push('\n');
    }

    /// Appends ` <sym+0x..>` for a branch target: the symbol at or before `addr` (or the
    /// section when there is none) and the offset from it.
    fn push_symbolized(&self, out: &mut String, addr: u64) {
        let idx = self.syms.partition_point(|s| s.addr <= addr);
        let (name, base) = match idx.checked_sub(1) {
            None => (self.section.name, self.section.addr),
            Some(i) => (self.syms[i].name.as_str(), self.syms[i].addr),
        };
        out.push_str(" <");
        out.push_str(name);
        if addr > base {
            out.push('+');
            push_hex(out, addr - base);
        } else if addr < base {
            out.push('-');
            push_hex(out, base - addr);
        }
        out.push('>');
    }
}

/// Appends a tab, the instruction text, padding to the comment column and `// `.
fn push_before_addr(out: &mut String, text: &str) {
    out.push('\t');
    out.push_str(text);
    const SPACES: &str = "                                                            ";
    out.push_str(
        SPACES
            .get(..(COMMENT_COLUMN - 1).saturating_sub(text.len()))
            .unwrap_or(""),
    );
    out.push_str("// ");
}

/// Appends `:` and the instruction's dwords in upper-case hex.
fn push_words(out: &mut String, bytes: &[u8]) {
    out.push(':');
    for w in bytes.chunks(4) {
        let mut v = [0u8; 4];
        v[..w.len()].copy_from_slice(w);
        out.push(' ');
        push_hex_upper(out, u32::from_le_bytes(v) as u64, 8);
    }
}
