//! DS instructions on the global data share (`gds` bit), the GWS instructions and
//! `ds_ordered_count`. The state is the dispatch's [`crate::gds::Gds`] (`env.gds`).
//!
//! - Memory instructions with `gds` (CLRX GcnInstrsDs.md: "M0 holds the maximum size of GDS
//!   memory in bits 0-15 that can be accessed, and a GDS base offset (in bytes) in bits
//!   16-31"): the LDS operation runs unchanged on the window `GDS[base .. base + size]`
//!   (clipped to the 64 KiB), with the window's length as its range limit — so addresses are
//!   relative to the base, reads past the size give 0 and writes there are dropped, the LDS
//!   out-of-range rules (docs/emulator-abi.md §13). The M0 limit of gfx6–8 LDS accesses does
//!   not apply (M0 means base and size here); the low-address-bit rules do.
//! - `ds_append` / `ds_consume` with `gds`: the dword at `(M0[15:0] + offset) & ~3` of GDS, as
//!   for LDS ("M0.base + instr_offset", the Vega manual's description); the whole GDS is
//!   addressable. `ds_read_addtid_b32` / `ds_write_addtid_b32` with `gds` fault (no source
//!   gives their GDS addressing).
//! - GWS (Vega manual descriptions of DS_GWS_*, as gem5's Vega model quotes them): resource
//!   `rid = (M0[21:16] + offset0[5:0]) mod 64`; the value is the `addr` VGPR of the first
//!   lane of EXEC (0 when EXEC is 0). `init`: counter = value, flag = 0; `sema_v`: counter += 1;
//!   `sema_br`: counter += value; `sema_release_all`: counter = the number of queued waves;
//!   `sema_p`: wait until counter > 0, then counter -= 1; `barrier`: if counter <= 0 the wave
//!   flips the flag, sets counter = value and releases every wave queued with the old flag;
//!   otherwise counter -= 1 and the wave waits for the flag to change. (LLVM's
//!   llvm.amdgcn.ds.gws.init/barrier take "the number of waves minus one".)
//! - `ds_ordered_count`: counter `offset0[3:2]` (LLVM's ordered-count index, offset0 =
//!   index * 4) is the GDS dword at `(M0[15:0] + offset0) & ~3`; the wave waits until every
//!   earlier wave of the dispatch (work-groups x fastest, then waves) has passed the counter,
//!   adds the `addr` VGPR of its first active lane to the dword, and returns the old value to
//!   every active lane. The turn passes to the next wave when offset1 bit 0 (wave_release)
//!   or bit 1 (wave_done) is set. (The manual's one-line description says the count added is
//!   the number of active lanes; LLVM's llvm.amdgcn.ds.ordered.add and Mesa pass the value in
//!   the VGPR, which is what is emulated.)
//!
//! Waits block the wave's worker thread; when a wait can never end (see [`crate::gds`]) the
//! wave faults saying why.

use gcnkit_isa::{Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::gds::GWS_RESOURCES;
use crate::program::Op;
use crate::wave::{sreg, Wave, LANES};

/// The operation for a GDS-only row (GWS, ordered count), or for a DS memory operation
/// `inner` with the gds bit.
pub fn select(inst: &Instruction, op: &mut Op, inner: Option<ExecFn>) -> Option<ExecFn> {
    Some(match inst.def().op {
        M::DsGwsInit => gws_init,
        M::DsGwsSemaV => gws_sema_v,
        M::DsGwsSemaBr => gws_sema_br,
        M::DsGwsSemaP => gws_sema_p,
        M::DsGwsSemaReleaseAll => gws_release_all,
        M::DsGwsBarrier => gws_barrier,
        M::DsOrderedCount => ordered_count,
        M::DsAppend => append::<false>,
        M::DsConsume => append::<true>,
        M::DsReadAddtidB32 | M::DsWriteAddtidB32 => addtid_unsupported,
        _ => {
            op.inner = inner?;
            access
        }
    })
}

/// Runs `op.inner` (an LDS operation) on the GDS window M0 gives.
fn access(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let m0 = w.s[sreg::M0 as usize];
    let base = (m0 >> 16) as usize;
    let size = (m0 & 0xffff) as usize;
    let gds = env.gds;
    let mut mem = gds.memory();
    let end = (base + size).min(mem.len());
    let window = &mut mem[base.min(end)..end];
    let mut genv = Env {
        target: env.target,
        mem: env.mem,
        lds: window,
        program: env.program,
        apertures: env.apertures,
        clock: env.clock,
        trap_aborts: env.trap_aborts,
        gds,
    };
    (op.inner)(w, op, &mut genv)
}

/// `ds_append` / `ds_consume` on GDS.
fn append<const CONSUME: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Next);
    }
    let a = ((w.s[sreg::M0 as usize] & 0xffff).wrapping_add(op.imm as u32) & !3) as usize;
    let n = exec.count_ones();
    let old = {
        let mut mem = env.gds.memory();
        match mem.get_mut(a..a + 4) {
            Some(d) => {
                let old = u32::from_le_bytes([d[0], d[1], d[2], d[3]]);
                let new = if CONSUME {
                    old.wrapping_sub(n)
                } else {
                    old.wrapping_add(n)
                };
                d.copy_from_slice(&new.to_le_bytes());
                old
            }
            None => 0,
        }
    };
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            w.v[op.vdst as usize][l] = old;
        }
    }
    Ok(Flow::Next)
}

fn addtid_unsupported(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Err(Fault::Unsupported(format!(
        "{} with gds: no available source gives its GDS addressing",
        op.inst.mnemonic()
    )))
}

/// The GWS resource: (M0[21:16] + offset0[5:0]) mod 64.
fn rid(w: &Wave, op: &Op) -> usize {
    let m0 = w.s[sreg::M0 as usize];
    ((m0 >> 16 & 0x3f) as usize + (op.imm & 0x3f) as usize) % GWS_RESOURCES
}

/// The `addr` VGPR of the first active lane (0 without one).
fn first_value(w: &Wave, op: &Op) -> u32 {
    let exec = w.exec();
    if exec == 0 {
        return 0;
    }
    w.v[op.vaddr as usize][exec.trailing_zeros() as usize]
}

fn gws_init(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    env.gds.gws_init(rid(w, op), first_value(w, op));
    Ok(Flow::Next)
}

fn gws_sema_v(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    env.gds.gws_release(rid(w, op), 1);
    Ok(Flow::Next)
}

fn gws_sema_br(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    env.gds.gws_release(rid(w, op), first_value(w, op));
    Ok(Flow::Next)
}

fn gws_release_all(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    env.gds.gws_release_all(rid(w, op));
    Ok(Flow::Next)
}

fn gws_sema_p(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    env.gds.gws_sema_p(rid(w, op))?;
    Ok(Flow::Next)
}

fn gws_barrier(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    env.gds.gws_barrier(rid(w, op), first_value(w, op))?;
    Ok(Flow::Next)
}

fn ordered_count(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let offset0 = (op.imm & 0xff) as u32;
    let offset1 = (op.imm >> 8 & 0xff) as u32;
    let packer = (offset0 >> 2 & 3) as usize;
    let release = offset1 & 3 != 0;
    let a = ((w.s[sreg::M0 as usize] & 0xffff).wrapping_add(offset0) & !3) as usize;
    let value = first_value(w, op);
    let me = (w.group, w.wave_in_group as u64);
    let old = env
        .gds
        .ordered(packer, me, release, |mem| match mem.get_mut(a..a + 4) {
            Some(d) => {
                let old = u32::from_le_bytes([d[0], d[1], d[2], d[3]]);
                d.copy_from_slice(&old.wrapping_add(value).to_le_bytes());
                old
            }
            None => 0,
        })?;
    let exec = w.exec();
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            w.v[op.vdst as usize][l] = old;
        }
    }
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    //! Expected values worked by hand from the rules above (CLRX GcnInstrsDs.md for the M0
    //! layout and the LDS operations, the Vega manual's DS_GWS_* and DS_ORDERED_COUNT
    //! descriptions as gem5 quotes them).

    use crate::exec::{run_wave, Apertures, Env, Fault};
    use crate::gds::{DispatchShape, Gds};
    use crate::memory::Memory;
    use crate::testing::program;
    use crate::wave::{sreg, Mode, Wave};

    const M0: usize = sreg::M0 as usize;

    /// Runs `src` on one wave with all lanes on; returns the wave, or the fault, and the GDS.
    fn run(mcpu: &str, src: &str, setup: impl FnOnce(&mut Wave)) -> (Result<Wave, Fault>, Gds) {
        let (target, program) = program(mcpu, src);
        let gds = Gds::new(1, DispatchShape::SINGLE_WAVE);
        let mut wave = Wave::new();
        wave.set_exec(u64::MAX);
        wave.mode = Mode {
            bits: crate::testing::MODE_GFX9,
        };
        setup(&mut wave);
        let mem = Memory::new();
        let mut lds = vec![0u8; 1024];
        let r = {
            let mut env = Env {
                target: &target,
                mem: &mem,
                lds: &mut lds,
                program: &program,
                apertures: Apertures::default(),
                clock: 0,
                trap_aborts: true,
                gds: &gds,
            };
            run_wave(&mut wave, &program, &mut env, 10_000)
        };
        (r.map(|_| wave), gds)
    }

    fn dword(gds: &Gds, a: usize) -> u32 {
        let m = gds.memory();
        u32::from_le_bytes([m[a], m[a + 1], m[a + 2], m[a + 3]])
    }

    /// M0 = base 0x100, size 64: lane l writes l + 1 at window byte 4l (lanes 0..15 fit),
    /// reads back at 4l + 4 (lane 15 reads byte 64: past the size, 0), then every lane adds
    /// 1 at window byte 0.
    #[test]
    fn memory_operations_use_the_m0_window() {
        // gfx90a and gfx940 have no gds modifier (only the GWS rows).
        for mcpu in ["gfx600", "gfx700", "gfx803", "gfx900", "gfx908"] {
            let src = "ds_write_b32 v0, v1 gds\n\
                       ds_read_b32 v2, v0 offset:4 gds\n\
                       ds_add_u32 v3, v4 gds";
            let (w, gds) = run(mcpu, src, |w| {
                w.s[M0] = 0x100 << 16 | 64;
                for l in 0..64 {
                    w.v[0][l] = 4 * l as u32;
                    w.v[1][l] = l as u32 + 1;
                    w.v[4][l] = 1;
                }
            });
            let w = w.unwrap();
            for l in 0..16 {
                let want = if l == 0 { 1 + 64 } else { l as u32 + 1 };
                assert_eq!(dword(&gds, 0x100 + 4 * l), want, "{mcpu} dword {l}");
            }
            assert_eq!(dword(&gds, 0x140), 0, "{mcpu}: lane 16 is past the size");
            assert_eq!(dword(&gds, 0xfc), 0, "{mcpu}: nothing below the base");
            for l in 0..64 {
                let want = if l < 15 { l as u32 + 2 } else { 0 };
                assert_eq!(w.v[2][l], want, "{mcpu} lane {l}");
            }
        }
    }

    #[test]
    fn append_and_consume_count_active_lanes() {
        let (w, gds) = run(
            "gfx900",
            "ds_append v1 offset:8 gds\ns_mov_b64 exec, -1\nds_consume v2 offset:8 gds",
            |w| {
                w.s[M0] = 0x20;
                w.set_exec(0b1011);
            },
        );
        let w = w.unwrap();
        assert_eq!((w.v[1][0], w.v[1][3]), (0, 0));
        assert_eq!(w.v[2][5], 3);
        assert_eq!(dword(&gds, 0x28), 3u32.wrapping_sub(64));
    }

    /// M0[21:16] = 1: offset:2 is resource 3, offset:3 resource 4.
    #[test]
    fn semaphores_count_and_an_empty_one_faults_a_lone_wave() {
        for mcpu in [
            "gfx600", "gfx700", "gfx803", "gfx900", "gfx908", "gfx90a", "gfx940",
        ] {
            let src = "ds_gws_init v0 offset:2 gds\n\
                       ds_gws_sema_p offset:2 gds\n\
                       ds_gws_sema_p offset:2 gds\n\
                       ds_gws_sema_br v0 offset:3 gds\n\
                       ds_gws_sema_v offset:3 gds\n\
                       ds_gws_sema_p offset:3 gds\n\
                       ds_gws_sema_p offset:2 gds";
            let (r, _) = run(mcpu, src, |w| {
                w.s[M0] = 1 << 16;
                w.set_exec(!1);
                w.v[0][0] = 100; // lane 0 is off: the value is lane 1's
                w.v[0][1] = 2;
            });
            let e = r.err().unwrap();
            // init 2, two P's pass, the last P on resource 3 (now 0) can never pass.
            assert!(
                format!("{e}").contains("ds_gws_sema_p on GWS resource 3"),
                "{mcpu}: {e}"
            );
        }
        let (r, _) = run("gfx900", "ds_gws_sema_release_all offset:5 gds", |_| {});
        r.unwrap();
    }

    #[test]
    fn a_barrier_of_one_wave_passes_and_of_two_faults_alone() {
        // init 0 (one wave minus one): the wave is the last arrival and passes; the barrier
        // value 1 asks for two waves next time, and a second barrier waits for a wave that
        // does not exist.
        let src = "ds_gws_init v0 gds\nds_gws_barrier v1 gds\nds_gws_barrier v1 gds";
        let (r, _) = run("gfx908", src, |w| {
            w.v[0] = [0; 64];
            w.v[1] = [1; 64];
        });
        let e = r.err().unwrap();
        assert!(
            format!("{e}").contains("ds_gws_barrier on GWS resource 0"),
            "{e}"
        );
    }

    /// Counter 1 (offset0 = 4) at M0 0x10 + 4: the first count (no release) keeps the turn,
    /// the second (offset1 = 3: wave_release and wave_done) passes it on, and a third waits
    /// for a next wave that does not exist.
    #[test]
    fn ordered_count_adds_in_turn() {
        for mcpu in ["gfx600", "gfx700", "gfx803", "gfx908"] {
            let (r, gds) = run(mcpu, "ds_ordered_count v1, v2 offset:772 gds", |w| {
                w.s[M0] = 0x10;
                w.v[2] = [7; 64];
                w.v[1] = [9; 64];
            });
            assert_eq!(r.unwrap().v[1][0], 0, "{mcpu}");
            assert_eq!(dword(&gds, 0x14), 7, "{mcpu}");
        }
        let src = "ds_ordered_count v1, v2 offset:4 gds\n\
                   ds_ordered_count v3, v2 offset:772 gds\n\
                   ds_ordered_count v4, v2 offset:772 gds";
        let (r, gds) = run("gfx900", src, |w| {
            w.s[M0] = 0x10;
            w.v[2] = [7; 64];
        });
        let e = r.err().unwrap();
        assert!(
            format!("{e}").contains("ds_ordered_count (counter 1)"),
            "{e}"
        );
        assert_eq!(dword(&gds, 0x14), 14);
        let (r, _) = run("gfx900", "ds_ordered_count v1, v2 offset:772 gds", |w| {
            w.s[M0] = 0x10;
            w.v[2] = [7; 64];
        });
        let w = r.unwrap();
        assert_eq!(w.v[1][63], 0);
    }

    #[test]
    fn addtid_with_gds_faults() {
        let (r, _) = run("gfx900", "ds_read_addtid_b32 v1 gds", |_| {});
        assert!(format!("{}", r.err().unwrap()).contains("GDS addressing"));
    }
}
