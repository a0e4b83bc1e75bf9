//! The global data share of one dispatch: 64 KiB of memory every work-group sees, the 64
//! global wave sync (GWS) resources, and the four ordered-count counters' turns.
//!
//! It lives for one dispatch and starts zeroed (a launch cannot initialise it: a kernel that
//! wants initial values writes them, as on the hardware where GDS contents are undefined at
//! dispatch start). Work-groups run on several threads, so the memory is behind a mutex that
//! every GDS instruction holds for all of its lanes (each instruction is atomic with respect
//! to other waves, which is at least what the hardware guarantees for its atomics).
//!
//! Waiting (`ds_gws_sema_p`, `ds_gws_barrier`, `ds_ordered_count`) blocks the worker thread
//! of the waiting wave on a condition variable. The waves of one work-group share a thread and
//! only interleave at `s_barrier`, and a worker runs one work-group at a time, so a wave can
//! only be released by a wave of another work-group that some other thread is running. When
//! every worker thread is either blocked with a condition nobody can make true or has no
//! work-group left, the wait can never end: every waiting wave then faults with
//! [`Fault::Unsupported`] naming the resource and the reason (see docs/emulator.md, "GDS").

use std::sync::{Condvar, Mutex, MutexGuard};

use crate::exec::Fault;

/// Bytes of GDS.
pub const GDS_BYTES: usize = 65536;
/// GWS resources (barriers or semaphores).
pub const GWS_RESOURCES: usize = 64;

/// The shape of the dispatch, for the dispatch order of waves.
#[derive(Clone, Copy, Debug)]
pub struct DispatchShape {
    /// Grid size in work-items.
    pub global: [u32; 3],
    /// Work-group size.
    pub local: [u32; 3],
}

impl DispatchShape {
    /// One work-group of one wave (unit tests, the sandbox).
    pub const SINGLE_WAVE: DispatchShape = DispatchShape {
        global: [64, 1, 1],
        local: [64, 1, 1],
    };

    fn groups(&self) -> [u64; 3] {
        std::array::from_fn(|d| self.global[d].div_ceil(self.local[d].max(1)) as u64)
    }

    /// Work-groups in the dispatch.
    fn total_groups(&self) -> u64 {
        self.groups().iter().product()
    }

    /// Waves of work-group `g` (x fastest), whose last groups may be partial.
    fn waves(&self, g: u64) -> u64 {
        let n = self.groups();
        let id = [g % n[0], (g / n[0]) % n[1], g / (n[0] * n[1])];
        let items: u64 = (0..3)
            .map(|d| {
                let l = self.local[d] as u64;
                (self.global[d] as u64).saturating_sub(id[d] * l).min(l)
            })
            .product();
        items.div_ceil(64)
    }

    /// The wave after (g, w) in dispatch order.
    fn next(&self, (g, w): (u64, u64)) -> (u64, u64) {
        if w + 1 < self.waves(g) {
            (g, w + 1)
        } else {
            (g + 1, 0)
        }
    }
}

/// One GWS resource.
#[derive(Clone, Copy, Debug, Default)]
struct Resource {
    counter: i64,
    flag: bool,
    /// Waves queued on it.
    waiting: u32,
}

/// What a blocked wave waits for.
#[derive(Clone, Copy, Debug)]
enum Wait {
    /// `ds_gws_sema_p`: the counter of the resource to be positive.
    Semaphore(usize),
    /// `ds_gws_barrier`: the resource's flag to differ from the one the wave saw.
    Barrier(usize, bool),
    /// `ds_ordered_count`: the packer's turn to reach this wave.
    Turn(usize, (u64, u64)),
}

struct SyncState {
    gws: [Resource; GWS_RESOURCES],
    /// Per ordered-count packer, the wave (work-group, wave) whose turn it is.
    turn: [(u64, u64); 4],
    /// Worker threads neither blocked nor finished.
    running: usize,
    /// The conditions of the blocked waves.
    waits: Vec<Wait>,
    /// Set when no blocked wave can ever be released.
    stuck: bool,
}

impl SyncState {
    fn holds(&self, w: Wait) -> bool {
        match w {
            Wait::Semaphore(r) => self.gws[r].counter > 0,
            Wait::Barrier(r, seen) => self.gws[r].flag != seen,
            Wait::Turn(p, me) => self.turn[p] == me,
        }
    }

    /// True when nothing can release the blocked waves any more.
    fn deadlocked(&self) -> bool {
        self.running == 0 && !self.waits.is_empty() && !self.waits.iter().any(|&w| self.holds(w))
    }
}

/// The GDS of one dispatch.
pub struct Gds {
    mem: Mutex<Vec<u8>>,
    sync: Mutex<SyncState>,
    cv: Condvar,
    shape: DispatchShape,
    threads: usize,
}

impl Gds {
    /// A zeroed GDS for a dispatch of `shape` run by `threads` worker threads.
    pub fn new(threads: usize, shape: DispatchShape) -> Gds {
        Gds {
            mem: Mutex::new(vec![0; GDS_BYTES]),
            sync: Mutex::new(SyncState {
                gws: [Resource::default(); GWS_RESOURCES],
                turn: [(0, 0); 4],
                running: threads.max(1),
                waits: Vec::new(),
                stuck: false,
            }),
            cv: Condvar::new(),
            shape,
            threads: threads.max(1),
        }
    }

    /// The memory, locked for one instruction.
    pub fn memory(&self) -> MutexGuard<'_, Vec<u8>> {
        self.mem.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn state(&self) -> MutexGuard<'_, SyncState> {
        self.sync.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A worker thread has no work-group left: it can release nobody any more.
    pub fn thread_finished(&self) {
        let mut s = self.state();
        s.running = s.running.saturating_sub(1);
        if s.deadlocked() {
            s.stuck = true;
        }
        self.cv.notify_all();
    }

    /// Blocks until `wait` holds (then runs `then` under the lock), or faults when it never
    /// can.
    fn block(
        &self,
        mut s: MutexGuard<'_, SyncState>,
        wait: Wait,
        what: &str,
        then: impl FnOnce(&mut SyncState),
    ) -> Result<(), Fault> {
        if !s.holds(wait) {
            s.running = s.running.saturating_sub(1);
            s.waits.push(wait);
            if let Wait::Semaphore(r) | Wait::Barrier(r, _) = wait {
                s.gws[r].waiting += 1;
            }
            if s.deadlocked() {
                s.stuck = true;
                self.cv.notify_all();
            }
            while !s.holds(wait) && !s.stuck {
                s = self.cv.wait(s).unwrap_or_else(|e| e.into_inner());
            }
            if let Some(i) = s.waits.iter().position(|w| same(*w, wait)) {
                s.waits.swap_remove(i);
            }
            if let Wait::Semaphore(r) | Wait::Barrier(r, _) = wait {
                s.gws[r].waiting -= 1;
            }
            s.running += 1;
            if !s.holds(wait) {
                return Err(Fault::Unsupported(format!(
                    "{what} can never be released: every other wave that could release it \
                     has ended, waits itself, or has not started (work-groups run to \
                     completion on {} worker thread(s), one at a time per thread, and the \
                     waves of a work-group interleave only at s_barrier; see \
                     docs/emulator.md, GDS)",
                    self.threads
                )));
            }
        }
        then(&mut s);
        self.cv.notify_all();
        Ok(())
    }

    /// `ds_gws_init`: counter = value, flag = 0.
    pub fn gws_init(&self, rid: usize, value: u32) {
        let mut s = self.state();
        s.gws[rid].counter = value as i64;
        s.gws[rid].flag = false;
        self.cv.notify_all();
    }

    /// `ds_gws_sema_v` (count 1) and `ds_gws_sema_br` (count from the data).
    pub fn gws_release(&self, rid: usize, count: u32) {
        let mut s = self.state();
        s.gws[rid].counter += count as i64;
        self.cv.notify_all();
    }

    /// `ds_gws_sema_release_all`: counter = the number of queued waves.
    pub fn gws_release_all(&self, rid: usize) {
        let mut s = self.state();
        s.gws[rid].counter = s.gws[rid].waiting as i64;
        self.cv.notify_all();
    }

    /// `ds_gws_sema_p`: wait for a positive counter, then decrement it.
    pub fn gws_sema_p(&self, rid: usize) -> Result<(), Fault> {
        let s = self.state();
        self.block(
            s,
            Wait::Semaphore(rid),
            &format!("ds_gws_sema_p on GWS resource {rid}"),
            |s| s.gws[rid].counter -= 1,
        )
    }

    /// `ds_gws_barrier` with `value` (the next barrier's count): the last of the waves the
    /// counter allows flips the flag and releases them all.
    pub fn gws_barrier(&self, rid: usize, value: u32) -> Result<(), Fault> {
        let mut s = self.state();
        let seen = s.gws[rid].flag;
        if s.gws[rid].counter <= 0 {
            s.gws[rid].flag = !seen;
            s.gws[rid].counter = value as i64;
            self.cv.notify_all();
            return Ok(());
        }
        s.gws[rid].counter -= 1;
        self.block(
            s,
            Wait::Barrier(rid, seen),
            &format!("ds_gws_barrier on GWS resource {rid}"),
            |_| {},
        )
    }

    /// `ds_ordered_count`: waits for the turn of wave `me` (work-group, wave) on `packer`,
    /// runs `op` on the GDS memory, and passes the turn on when `release` is set.
    pub fn ordered<T>(
        &self,
        packer: usize,
        me: (u64, u64),
        release: bool,
        op: impl FnOnce(&mut [u8]) -> T,
    ) -> Result<T, Fault> {
        let s = self.state();
        let mut out = None;
        let shape = self.shape;
        self.block(
            s,
            Wait::Turn(packer, me),
            &format!(
                "ds_ordered_count (counter {packer}) of work-group {}, wave {}",
                me.0, me.1
            ),
            |s| {
                out = Some(op(&mut self.memory()));
                if release {
                    s.turn[packer] = shape.next(me);
                }
            },
        )?;
        // `block` ran `then` on success.
        out.ok_or_else(|| Fault::Unsupported("ds_ordered_count did not run".into()))
    }

    /// Work-groups of the dispatch (for messages).
    pub fn total_groups(&self) -> u64 {
        self.shape.total_groups()
    }
}

fn same(a: Wait, b: Wait) -> bool {
    match (a, b) {
        (Wait::Semaphore(x), Wait::Semaphore(y)) => x == y,
        (Wait::Barrier(x, f), Wait::Barrier(y, g)) => x == y && f == g,
        (Wait::Turn(p, m), Wait::Turn(q, n)) => p == q && m == n,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatch_order_walks_partial_groups() {
        // 100 x 3 items in groups of 64 x 2: groups (0,0) 2x... x: 2 groups (64, 36 items),
        // y: 2 groups (2 rows, 1 row). Waves: g0 = 64*2/64 = 2, g1 = 36*2 -> 2, g2 = 64 -> 1,
        // g3 = 36 -> 1.
        let s = DispatchShape {
            global: [100, 3, 1],
            local: [64, 2, 1],
        };
        assert_eq!((0..4).map(|g| s.waves(g)).collect::<Vec<_>>(), [2, 2, 1, 1]);
        assert_eq!(s.next((0, 0)), (0, 1));
        assert_eq!(s.next((0, 1)), (1, 0));
        assert_eq!(s.next((2, 0)), (3, 0));
        assert_eq!(s.total_groups(), 4);
    }

    #[test]
    fn a_lone_wave_waiting_on_an_empty_semaphore_faults() {
        let g = Gds::new(1, DispatchShape::SINGLE_WAVE);
        let e = g.gws_sema_p(3).unwrap_err();
        assert!(format!("{e}").contains("GWS resource 3"), "{e}");
        g.gws_release(3, 2);
        g.gws_sema_p(3).unwrap();
        g.gws_sema_p(3).unwrap();
    }

    #[test]
    fn release_all_frees_exactly_the_queued_waves() {
        // Two waves wait on resource 7; release_all sets the counter to 2 (the queued waves),
        // both pass and leave it at 0.
        let g = Gds::new(3, DispatchShape::SINGLE_WAVE);
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    g.gws_sema_p(7).unwrap();
                    g.thread_finished();
                });
            }
            while g.state().gws[7].waiting < 2 {
                std::thread::yield_now();
            }
            g.gws_release_all(7);
            g.thread_finished();
        });
        let st = g.state();
        assert_eq!((st.gws[7].counter, st.gws[7].waiting), (0, 0));
    }

    #[test]
    fn a_barrier_releases_when_its_count_is_reached_across_threads() {
        // Four waves on four threads; init 3 (= waves - 1, as LLVM's ds.gws.init documents).
        let g = Gds::new(4, DispatchShape::SINGLE_WAVE);
        g.gws_init(5, 3);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    g.gws_barrier(5, 3).unwrap();
                    g.thread_finished();
                });
            }
        });
        let st = g.state();
        assert_eq!((st.gws[5].counter, st.gws[5].flag), (3, true));
    }
}
