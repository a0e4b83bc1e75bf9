//! The HSA dispatch: from a kernel, a grid and argument values to running waves, as the ROCm
//! runtime and the hardware set them up (`/work/shared/docs/hsa-dispatch-abi.md`; the points
//! it left open are settled in `docs/emulator-abi.md`).
//!
//! Per launch: the kernarg segment (explicit arguments at their metadata offsets, the hidden
//! arguments of code objects v4/v5), the AQL packet, an `amd_queue_t` and a completion
//! signal in device memory, and the scratch backing memory. Work-groups are spread over a
//! pool of threads; the waves of one work-group run on one thread, interleaved at barriers,
//! and share one LDS.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use gcnkit_isa::Gen;

use crate::error::{EmuError, FaultReport};
use crate::exec::{run_wave, Apertures, Env, Fault, Flow};
use crate::exports::{Export, Exports, MAX_EXPORT_RECORDS};
use crate::gds::{DispatchShape, Gds};
use crate::loader::{Kernel, Module};
use crate::memory::Memory;
use crate::wave::{sreg, Mode, Wave, WaveStatus, ACC_BASE, LANES};

/// A grid: dimensions, total work-items and work-group size per dimension, global offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// 1 to 3.
    pub dims: u32,
    /// Work-items per dimension (need not be a multiple of `local`).
    pub global: [u32; 3],
    /// Work-group size per dimension.
    pub local: [u32; 3],
    /// Global work offset (OpenCL).
    pub offset: [u64; 3],
}

impl Grid {
    /// A 1-D grid.
    pub fn linear(global: u32, local: u32) -> Grid {
        Grid {
            dims: 1,
            global: [global, 1, 1],
            local: [local, 1, 1],
            offset: [0; 3],
        }
    }

    fn groups(&self) -> [u32; 3] {
        std::array::from_fn(|d| self.global[d].div_ceil(self.local[d]))
    }
}

/// The value of one explicit kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    /// The argument's bytes (a by-value argument, or a 64-bit pointer).
    Bytes(Vec<u8>),
    /// A `dynamic_shared_pointer` argument: this many bytes of dynamic LDS per work-group.
    Local(u32),
}

/// How a launch runs.
#[derive(Clone, Copy, Debug)]
pub struct LaunchOptions {
    /// Worker threads (0 = one per core).
    pub threads: usize,
    /// Instructions a wave may execute before it faults.
    pub max_instructions: u64,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            threads: 0,
            max_instructions: 100_000_000,
        }
    }
}

/// What a launch did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaunchStats {
    /// Work-groups run.
    pub workgroups: u64,
    /// Waves run.
    pub waves: u64,
    /// Wave-instructions executed, summed over all waves.
    pub wave_instructions: u64,
    /// Seconds spent running the waves.
    pub exec_seconds: f64,
    /// What the waves' `exp` instructions sent (none in compute kernels built for compute).
    pub exports: Exports,
}

/// Flat aperture bases per generation (the values Linux/ROCm programs, §11.2 of the fact
/// sheet).
pub fn apertures(gen: Gen) -> Apertures {
    match gen {
        Gen::Gfx6 => Apertures::default(),
        Gen::Gfx7 | Gen::Gfx8 => Apertures {
            shared_base: 0x2000_0000_0000_0000,
            private_base: 0x2000_0001_0000_0000,
        },
        _ => Apertures {
            shared_base: 0x0001_0000_0000_0000,
            private_base: 0x0002_0000_0000_0000,
        },
    }
}

/// Largest LDS allocation per work-group.
pub fn lds_limit(gen: Gen) -> u32 {
    if gen == Gen::Gfx6 {
        32 * 1024
    } else {
        64 * 1024
    }
}

/// The scratch V# ROCm places in the private segment buffer SGPRs (fact sheet §9.3): base,
/// swizzle on, stride 0, `num_records` bytes, index stride 64, element size 4, add-tid.
fn scratch_resource(base: u64, size: u64) -> [u32; 4] {
    [
        base as u32,
        ((base >> 32) as u32 & 0xffff) | 1 << 31,
        size.min(u32::MAX as u64) as u32,
        0x00EA_4FAC,
    ]
}

/// MODE at wave start from the descriptor (see docs/emulator-abi.md).
fn initial_mode(kernel: &Kernel, gen: Gen) -> Mode {
    let r1 = &kernel.descriptor.compute_pgm_rsrc1;
    let r2 = &kernel.descriptor.compute_pgm_rsrc2;
    let mut bits = r1.float_round_mode_32
        | r1.float_round_mode_16_64 << 2
        | r1.float_denorm_mode_32 << 4
        | r1.float_denorm_mode_16_64 << 6
        | r1.enable_dx10_clamp << 8
        | r1.enable_ieee_mode << 9;
    let excp = r2.enable_exception_ieee_754_fp_invalid_operation
        | r2.enable_exception_fp_denormal_source << 1
        | r2.enable_exception_ieee_754_fp_division_by_zero << 2
        | r2.enable_exception_ieee_754_fp_overflow << 3
        | r2.enable_exception_ieee_754_fp_underflow << 4
        | r2.enable_exception_ieee_754_fp_inexact << 5
        | r2.enable_exception_int_divide_by_zero << 6;
    bits |= excp << 12;
    if !gen.is_si_ci() && gen != Gen::Gfx8 {
        bits |= r1.fp16_ovfl << 23;
    }
    Mode { bits }
}

/// Device memory of one launch that is freed when it ends.
struct LaunchMemory {
    block: u64,
    scratch: u64,
}

/// Offsets inside the per-launch block.
const PACKET_OFFSET: u64 = 0;
const SIGNAL_OFFSET: u64 = 64;
const QUEUE_OFFSET: u64 = 256;
const KERNARG_OFFSET: u64 = 512;
/// Bytes of the code object v5 hidden-argument block.
const V5_HIDDEN_BYTES: u64 = 256;

/// Everything the waves of a launch share, read-only.
struct Setup<'a> {
    module: &'a Module,
    kernel: &'a Kernel,
    grid: Grid,
    gen: Gen,
    packet: u64,
    queue: u64,
    kernarg: u64,
    kernarg_bytes: Vec<u8>,
    lds_bytes: u32,
    scratch_base: u64,
    scratch_size: u64,
    per_lane: u64,
    waves_per_group_max: u32,
    entry_index: usize,
    mode: Mode,
    apertures: Apertures,
    dispatch_id: u64,
    /// The dispatch's GDS, shared by every worker thread.
    gds: Gds,
}

/// Runs `kernel` of `module` over `grid` with `args` (one per explicit argument).
pub fn launch(
    mem: &mut Memory,
    module: &Module,
    kernel: &Kernel,
    grid: &Grid,
    args: &[ArgValue],
    options: &LaunchOptions,
    dispatch_id: u64,
) -> Result<LaunchStats, EmuError> {
    launch_with_dynamic_lds(mem, module, kernel, grid, args, 0, options, dispatch_id)
}

/// [`launch`], with `dynamic_lds` bytes of LDS per work-group after the kernel's static LDS:
/// HIP's dynamic shared memory (the launch's `sharedMemBytes`), which the kernel finds at the
/// end of its static allocation rather than through an argument.
#[allow(clippy::too_many_arguments)]
pub fn launch_with_dynamic_lds(
    mem: &mut Memory,
    module: &Module,
    kernel: &Kernel,
    grid: &Grid,
    args: &[ArgValue],
    dynamic_lds: u32,
    options: &LaunchOptions,
    dispatch_id: u64,
) -> Result<LaunchStats, EmuError> {
    let extra_lds = u64::from(dynamic_lds);
    let gen = module.target.gen();
    let bad = |message: String| EmuError::BadLaunch {
        kernel: kernel.name.clone(),
        message,
    };
    check_grid(kernel, grid).map_err(bad)?;
    let explicit: Vec<_> = kernel.explicit_args().collect();
    if explicit.len() != args.len() {
        return Err(bad(format!(
            "the kernel takes {} arguments, {} given",
            explicit.len(),
            args.len()
        )));
    }
    // Dynamic LDS follows the static LDS, each block aligned to its pointee alignment.
    let mut lds = kernel.group_segment_fixed_size;
    let mut kernarg = vec![0u8; 0];
    let explicit_end = explicit
        .iter()
        .map(|a| a.offset.saturating_add(a.size))
        .max()
        .unwrap_or(0);
    let hidden_base = explicit_end.div_ceil(8) * 8;
    let hidden_end = kernel
        .args
        .iter()
        .filter(|a| a.is_hidden())
        .map(|a| a.offset.saturating_add(a.size))
        .max()
        .unwrap_or(0);
    let v5 = module.code_object_version.unwrap_or(5) >= 3
        && module.code_object_version != Some(4)
        && kernel.args.iter().any(|a| {
            a.kind == "hidden_block_count_x"
                || a.kind == "hidden_group_size_x"
                || a.kind == "hidden_dynamic_lds_size"
        });
    let size = kernel
        .kernarg_size
        .max(kernel.descriptor.kernarg_size as u64)
        .max(explicit_end)
        .max(hidden_end)
        .max(if v5 {
            hidden_base.saturating_add(V5_HIDDEN_BYTES)
        } else {
            0
        });
    if size > MAX_KERNARG_BYTES {
        return Err(bad(format!(
            "the kernarg segment would be {size} bytes; at most {MAX_KERNARG_BYTES} are supported"
        )));
    }
    kernarg.resize(size as usize, 0);
    lds = lds.saturating_add(extra_lds);
    let mut dynamic_lds = extra_lds;
    for (i, (a, v)) in explicit.iter().zip(args).enumerate() {
        match (a.kind.as_str(), v) {
            ("dynamic_shared_pointer", ArgValue::Local(bytes)) => {
                let align = a.pointee_align.unwrap_or(4).max(1);
                let at = lds.div_ceil(align).saturating_mul(align);
                put(&mut kernarg, a.offset, &(at as u32).to_le_bytes());
                lds = at.saturating_add(*bytes as u64);
                dynamic_lds = lds.saturating_sub(kernel.group_segment_fixed_size);
            }
            ("dynamic_shared_pointer", ArgValue::Bytes(_)) => {
                return Err(bad(format!(
                    "argument {i} is a local (dynamic LDS) pointer; give its size, not a value"
                )))
            }
            (_, ArgValue::Local(_)) => {
                return Err(bad(format!(
                    "argument {i} ({}) is not a local pointer",
                    a.kind
                )))
            }
            (_, ArgValue::Bytes(b)) => {
                if b.len() as u64 != a.size {
                    return Err(bad(format!(
                        "argument {i} ({}{}) takes {} bytes, {} given",
                        a.kind,
                        a.name
                            .as_deref()
                            .map(|n| format!(" {n}"))
                            .unwrap_or_default(),
                        a.size,
                        b.len()
                    )));
                }
                put(&mut kernarg, a.offset, b);
            }
        }
    }
    if lds > lds_limit(gen) as u64 {
        return Err(bad(format!(
            "the work-group needs {lds} bytes of LDS; {} allows {}",
            module.target.processor.name,
            lds_limit(gen)
        )));
    }
    let groups = grid.groups();
    let wg_items = grid.local[0] as u64 * grid.local[1] as u64 * grid.local[2] as u64;
    let waves_per_group_max = wg_items.div_ceil(LANES as u64) as u32;
    let threads = match options.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let total_groups = groups[0] as u64 * groups[1] as u64 * groups[2] as u64;
    let threads = threads.min(total_groups.max(1) as usize).max(1);

    // Scratch: per-lane size rounded to 16 bytes; one wave slot per (thread, wave in group).
    let uses_dynamic_stack = kernel.descriptor.kernel_code_properties.uses_dynamic_stack != 0;
    let mut per_lane = kernel
        .private_segment_fixed_size
        .max(kernel.descriptor.private_segment_fixed_size as u64);
    if uses_dynamic_stack {
        per_lane = per_lane.saturating_add(DYNAMIC_STACK_BYTES);
    }
    if per_lane > MAX_PRIVATE_BYTES {
        return Err(bad(format!(
            "{per_lane} bytes of private memory per work-item; at most {MAX_PRIVATE_BYTES} are supported"
        )));
    }
    let per_lane = per_lane.div_ceil(16) * 16;
    let slot = per_lane * LANES as u64;
    let scratch_size = (slot * waves_per_group_max as u64 * threads as u64).max(4096);
    if scratch_size > MAX_SCRATCH_BYTES {
        return Err(bad(format!(
            "the launch needs {scratch_size} bytes of scratch ({per_lane} per work-item, \
             {waves_per_group_max} waves per group, {threads} threads); at most \
             {MAX_SCRATCH_BYTES} are supported: use fewer --threads"
        )));
    }

    let block = mem.allocate(KERNARG_OFFSET + size.max(1), 4096)?;
    let scratch = match mem.allocate(scratch_size, 4096) {
        Ok(s) => s,
        Err(e) => {
            let _ = mem.free(block);
            return Err(e.into());
        }
    };
    let launch_mem = LaunchMemory { block, scratch };
    let result = run_launch(
        mem,
        module,
        kernel,
        grid,
        &mut kernarg,
        lds as u32,
        dynamic_lds,
        per_lane,
        scratch_size,
        &launch_mem,
        waves_per_group_max,
        threads,
        options,
        v5.then_some(hidden_base),
        dispatch_id,
    );
    let _ = mem.free(launch_mem.block);
    let _ = mem.free(launch_mem.scratch);
    result
}

/// Largest kernarg segment a launch may have (real kernels use a few hundred bytes; a corrupt
/// code object must not exhaust the host).
pub const MAX_KERNARG_BYTES: u64 = 1 << 20;
/// Largest private segment per work-item: gfx9's scratch wave-size field counts at most 8 MiB
/// per wave, 128 KiB per lane, and the dynamic stack comes on top.
pub const MAX_PRIVATE_BYTES: u64 = (128 << 10) + DYNAMIC_STACK_BYTES;
/// Largest scratch allocation of one launch (host memory is committed for all of it).
pub const MAX_SCRATCH_BYTES: u64 = 4 << 30;

/// Stack bytes per work-item added for kernels with a dynamic stack: more than HIP's usual
/// 1 KiB limit, since the runtime's own default could not be confirmed (docs/emulator-abi.md
/// §10). An access past the wave's scratch slot faults, so an overflow is reported.
pub const DYNAMIC_STACK_BYTES: u64 = 16 * 1024;

/// Writes `bytes` at `at` when they fit (the kernarg segment is sized to hold every argument
/// the metadata lists, so an argument that does not fit comes from a corrupt code object).
fn put(buf: &mut [u8], at: u64, bytes: &[u8]) {
    let Ok(at) = usize::try_from(at) else { return };
    let Some(end) = at.checked_add(bytes.len()) else {
        return;
    };
    if let Some(d) = buf.get_mut(at..end) {
        d.copy_from_slice(bytes);
    }
}

fn check_grid(kernel: &Kernel, grid: &Grid) -> Result<(), String> {
    if !(1..=3).contains(&grid.dims) {
        return Err(format!("{} grid dimensions (1 to 3 allowed)", grid.dims));
    }
    for d in 0..3 {
        if grid.local[d] == 0 {
            return Err(format!("work-group size 0 in dimension {d}"));
        }
        if grid.global[d] == 0 {
            return Err(format!("grid size 0 in dimension {d}"));
        }
        if d >= grid.dims as usize && (grid.local[d] != 1 || grid.global[d] != 1) {
            return Err(format!(
                "dimension {d} is beyond the grid's {} dimensions",
                grid.dims
            ));
        }
    }
    let wg = grid.local[0] as u64 * grid.local[1] as u64 * grid.local[2] as u64;
    let max = kernel.max_flat_workgroup_size.unwrap_or(1024);
    if wg > max {
        return Err(format!(
            "work-group of {wg} work-items; the kernel allows at most {max} (.max_flat_workgroup_size)"
        ));
    }
    if let Some(r) = kernel.reqd_workgroup_size {
        if (0..3).any(|d| r[d] != grid.local[d] as u64) {
            return Err(format!(
                "work-group size {:?}; the kernel requires {:?} (.reqd_workgroup_size)",
                grid.local, r
            ));
        }
    }
    if kernel.uniform_work_group_size
        && (0..3).any(|d| !grid.global[d].is_multiple_of(grid.local[d]))
    {
        return Err(format!(
            "grid {:?} is not a multiple of the work-group size {:?}, and the kernel requires uniform work-groups (.uniform_work_group_size)",
            &grid.global[..grid.dims as usize],
            &grid.local[..grid.dims as usize]
        ));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn run_launch(
    mem: &mut Memory,
    module: &Module,
    kernel: &Kernel,
    grid: &Grid,
    kernarg: &mut [u8],
    lds_bytes: u32,
    dynamic_lds: u64,
    per_lane: u64,
    scratch_size: u64,
    lm: &LaunchMemory,
    waves_per_group_max: u32,
    threads: usize,
    options: &LaunchOptions,
    v5_hidden: Option<u64>,
    dispatch_id: u64,
) -> Result<LaunchStats, EmuError> {
    let gen = module.target.gen();
    let ap = apertures(gen);
    let packet = lm.block + PACKET_OFFSET;
    let signal = lm.block + SIGNAL_OFFSET;
    let queue = lm.block + QUEUE_OFFSET;
    let kernarg_addr = lm.block + KERNARG_OFFSET;
    let groups = grid.groups();
    write_hidden_args(kernel, grid, kernarg, v5_hidden, dynamic_lds, queue, ap);

    // The AQL packet (fact sheet §4).
    let mut p = [0u8; 64];
    let header: u16 = 2 | 1 << 8 | 2 << 9 | 1 << 11;
    p[0..2].copy_from_slice(&header.to_le_bytes());
    p[2..4].copy_from_slice(&(grid.dims as u16).to_le_bytes());
    for d in 0..3 {
        p[4 + 2 * d..6 + 2 * d].copy_from_slice(&(grid.local[d] as u16).to_le_bytes());
        p[12 + 4 * d..16 + 4 * d].copy_from_slice(&grid.global[d].to_le_bytes());
    }
    p[24..28].copy_from_slice(&(per_lane as u32).to_le_bytes());
    p[28..32].copy_from_slice(&lds_bytes.to_le_bytes());
    p[32..40].copy_from_slice(&kernel.descriptor_address.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg_addr.to_le_bytes());
    p[56..64].copy_from_slice(&signal.to_le_bytes());
    mem.write(packet, &p)?;
    // The completion signal: a user signal with value 1, decremented at the end.
    let mut s = [0u8; 64];
    s[0..8].copy_from_slice(&1i64.to_le_bytes());
    s[8..16].copy_from_slice(&1i64.to_le_bytes());
    mem.write(signal, &s)?;
    // amd_queue_t: the aperture words and the scratch resource.
    let mut q = [0u8; 256];
    q[24..28].copy_from_slice(&1u32.to_le_bytes());
    q[0x40..0x44].copy_from_slice(&((ap.shared_base >> 32) as u32).to_le_bytes());
    q[0x44..0x48].copy_from_slice(&((ap.private_base >> 32) as u32).to_le_bytes());
    for (i, w) in scratch_resource(lm.scratch, scratch_size)
        .iter()
        .enumerate()
    {
        q[144 + 4 * i..148 + 4 * i].copy_from_slice(&w.to_le_bytes());
    }
    q[160..168].copy_from_slice(&lm.scratch.to_le_bytes());
    q[168..176].copy_from_slice(&scratch_size.to_le_bytes());
    q[176..180].copy_from_slice(&((per_lane * LANES as u64) as u32).to_le_bytes());
    q[180..184].copy_from_slice(&3u32.to_le_bytes());
    mem.write(queue, &q)?;
    mem.write(kernarg_addr, kernarg)?;

    let preload = kernel
        .descriptor
        .kernarg_preload
        .kernarg_preload_spec_length
        != 0;
    let entry = kernel.entry + if preload { 256 } else { 0 };
    let entry_index = module.program.op_at(entry).ok_or_else(|| {
        EmuError::Load(format!(
            "kernel {}: entry point {entry:#x} is not an instruction of the code",
            kernel.name
        ))
    })?;

    let setup = Setup {
        module,
        kernel,
        grid: *grid,
        gen,
        packet,
        queue,
        kernarg: kernarg_addr,
        kernarg_bytes: kernarg.to_vec(),
        lds_bytes,
        scratch_base: lm.scratch,
        scratch_size,
        per_lane,
        waves_per_group_max,
        entry_index,
        mode: initial_mode(kernel, gen),
        apertures: ap,
        dispatch_id,
        gds: Gds::new(
            threads,
            DispatchShape {
                global: grid.global,
                local: grid.local,
            },
        ),
    };
    let total = groups[0] as u64 * groups[1] as u64 * groups[2] as u64;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let first_fault: Mutex<Option<(u64, FaultReport)>> = Mutex::new(None);
    let totals = Mutex::new(LaunchStats::default());
    let exports: Mutex<(Vec<(u64, Export)>, u64)> = Mutex::new((Vec::new(), 0));
    let started = Instant::now();
    let mem_ref: &Memory = mem;
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (setup, next, stop, first_fault, totals, exports) =
                (&setup, &next, &stop, &first_fault, &totals, &exports);
            let body = move || {
                let mut worker = Worker::new(setup, t);
                let mut stats = LaunchStats::default();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= total {
                        break;
                    }
                    match worker.run_group(mem_ref, g, options.max_instructions, &mut stats) {
                        Ok(()) => {}
                        Err(report) => {
                            let mut f = first_fault.lock().unwrap_or_else(|e| e.into_inner());
                            if f.as_ref().is_none_or(|(fg, _)| g < *fg) {
                                *f = Some((g, report));
                            }
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
                // This thread can release no GDS waiter any more.
                setup.gds.thread_finished();
                if worker.export_count != 0 {
                    let mut e = exports.lock().unwrap_or_else(|e| e.into_inner());
                    e.0.append(&mut worker.exports);
                    e.1 += worker.export_count;
                }
                let mut tot = totals.lock().unwrap_or_else(|e| e.into_inner());
                tot.workgroups += stats.workgroups;
                tot.waves += stats.waves;
                tot.wave_instructions += stats.wave_instructions;
            };
            if threads == 1 {
                body();
            } else {
                scope.spawn(body);
            }
        }
    });
    let mut stats = totals.into_inner().unwrap_or_else(|e| e.into_inner());
    stats.exec_seconds = started.elapsed().as_secs_f64();
    let (records, count) = exports.into_inner().unwrap_or_else(|e| e.into_inner());
    stats.exports = Exports::from_unordered(records, count);
    if let Some((_, report)) = first_fault.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(EmuError::Fault(Box::new(report)));
    }
    // Completion: decrement the signal value.
    let _ = mem.atomic_rmw64(signal + 8, |v| v.wrapping_sub(1));
    Ok(stats)
}

/// Writes the hidden arguments: every one the metadata lists, at its offset; and for code
/// object v5 the whole 256-byte block at the implicit-argument base (fact sheet §10).
fn write_hidden_args(
    kernel: &Kernel,
    grid: &Grid,
    kernarg: &mut [u8],
    v5_base: Option<u64>,
    dynamic_lds: u64,
    queue: u64,
    ap: Apertures,
) {
    let dims = grid.dims as usize;
    let full = |d: usize| {
        if d < dims {
            grid.global[d] / grid.local[d]
        } else {
            1
        }
    };
    let rem = |d: usize| {
        if d < dims {
            grid.global[d] % grid.local[d]
        } else {
            0
        }
    };
    let value = |kind: &str| -> Option<Vec<u8>> {
        Some(match kind {
            "hidden_block_count_x" => full(0).to_le_bytes().to_vec(),
            "hidden_block_count_y" => full(1).to_le_bytes().to_vec(),
            "hidden_block_count_z" => full(2).to_le_bytes().to_vec(),
            "hidden_group_size_x" => (grid.local[0] as u16).to_le_bytes().to_vec(),
            "hidden_group_size_y" => (grid.local[1] as u16).to_le_bytes().to_vec(),
            "hidden_group_size_z" => (grid.local[2] as u16).to_le_bytes().to_vec(),
            "hidden_remainder_x" => (rem(0) as u16).to_le_bytes().to_vec(),
            "hidden_remainder_y" => (rem(1) as u16).to_le_bytes().to_vec(),
            "hidden_remainder_z" => (rem(2) as u16).to_le_bytes().to_vec(),
            "hidden_global_offset_x" => grid.offset[0].to_le_bytes().to_vec(),
            "hidden_global_offset_y" => grid.offset[1].to_le_bytes().to_vec(),
            "hidden_global_offset_z" => grid.offset[2].to_le_bytes().to_vec(),
            "hidden_grid_dims" => (grid.dims as u16).to_le_bytes().to_vec(),
            "hidden_dynamic_lds_size" => (dynamic_lds as u32).to_le_bytes().to_vec(),
            "hidden_private_base" => ((ap.private_base >> 32) as u32).to_le_bytes().to_vec(),
            "hidden_shared_base" => ((ap.shared_base >> 32) as u32).to_le_bytes().to_vec(),
            "hidden_queue_ptr" => queue.to_le_bytes().to_vec(),
            // No printf buffer, hostcall, heap, default queue or multi-grid sync: null.
            _ => return None,
        })
    };
    if let Some(ia) = v5_base {
        let fixed: &[(u64, &str)] = &[
            (0, "hidden_block_count_x"),
            (4, "hidden_block_count_y"),
            (8, "hidden_block_count_z"),
            (12, "hidden_group_size_x"),
            (14, "hidden_group_size_y"),
            (16, "hidden_group_size_z"),
            (18, "hidden_remainder_x"),
            (20, "hidden_remainder_y"),
            (22, "hidden_remainder_z"),
            (40, "hidden_global_offset_x"),
            (48, "hidden_global_offset_y"),
            (56, "hidden_global_offset_z"),
            (64, "hidden_grid_dims"),
            (120, "hidden_dynamic_lds_size"),
            (192, "hidden_private_base"),
            (196, "hidden_shared_base"),
            (200, "hidden_queue_ptr"),
        ];
        for (off, kind) in fixed {
            if let Some(v) = value(kind) {
                put(kernarg, ia + off, &v);
            }
        }
    }
    for a in kernel.args.iter().filter(|a| a.is_hidden()) {
        if let Some(v) = value(&a.kind) {
            let n = (a.size as usize).min(v.len());
            put(kernarg, a.offset, &v[..n]);
        }
    }
}

/// A worker thread's reusable state: its waves and LDS, and the exports its groups made.
struct Worker<'s, 'a> {
    setup: &'s Setup<'a>,
    waves: Vec<Wave>,
    lds: Vec<u8>,
    thread: usize,
    /// The worker's first [`MAX_EXPORT_RECORDS`] exports with their linear group index (a
    /// worker takes groups in increasing order, so the launch's first records are among the
    /// union of every worker's first ones).
    exports: Vec<(u64, Export)>,
    export_count: u64,
}

impl<'s, 'a> Worker<'s, 'a> {
    fn new(setup: &'s Setup<'a>, thread: usize) -> Self {
        Worker {
            setup,
            waves: (0..setup.waves_per_group_max)
                .map(|_| Wave::new())
                .collect(),
            lds: vec![0; setup.lds_bytes as usize],
            thread,
            exports: Vec::new(),
            export_count: 0,
        }
    }

    fn run_group(
        &mut self,
        mem: &Memory,
        g: u64,
        max_instructions: u64,
        stats: &mut LaunchStats,
    ) -> Result<(), FaultReport> {
        let s = self.setup;
        let groups = s.grid.groups();
        let gx = (g % groups[0] as u64) as u32;
        let gy = ((g / groups[0] as u64) % groups[1] as u64) as u32;
        let gz = (g / (groups[0] as u64 * groups[1] as u64)) as u32;
        let id = [gx, gy, gz];
        // The actual (possibly partial) size of this group.
        let size: [u32; 3] = std::array::from_fn(|d| {
            (s.grid.global[d] - id[d] * s.grid.local[d]).min(s.grid.local[d])
        });
        let items = size[0] * size[1] * size[2];
        let nwaves = items.div_ceil(LANES as u32);
        // LDS starts zeroed for every work-group (its contents are undefined on hardware;
        // zero keeps runs reproducible).
        self.lds.iter_mut().for_each(|b| *b = 0);
        for w in 0..nwaves {
            self.init_wave(w, id, size, items, nwaves);
            self.waves[w as usize].group = g;
        }
        let waves = &mut self.waves[..nwaves as usize];
        let mut env = Env {
            target: &s.module.target,
            mem,
            lds: &mut self.lds,
            program: &s.module.program,
            apertures: s.apertures,
            clock: 0,
            trap_aborts: true,
            gds: &s.gds,
        };
        loop {
            let mut progressed = false;
            for (wi, wave) in waves.iter_mut().enumerate() {
                if wave.status != WaveStatus::Running {
                    continue;
                }
                progressed = true;
                if let Err(fault) = run_wave(wave, &s.module.program, &mut env, max_instructions) {
                    return Err(report(s, id, wi as u32, wave, fault));
                }
            }
            let live = waves
                .iter()
                .filter(|w| w.status != WaveStatus::Done)
                .count();
            if live == 0 {
                break;
            }
            // Every live wave waits at the barrier: release them all.
            if waves.iter().all(|w| w.status != WaveStatus::Running) {
                for w in waves
                    .iter_mut()
                    .filter(|w| w.status == WaveStatus::AtBarrier)
                {
                    w.status = WaveStatus::Running;
                }
            } else if !progressed {
                break;
            }
        }
        for (wi, wave) in waves.iter_mut().enumerate() {
            self.export_count += wave.exports.len() as u64;
            for record in wave.exports.drain(..) {
                if self.exports.len() < MAX_EXPORT_RECORDS {
                    self.exports.push((
                        g,
                        Export {
                            workgroup: id,
                            wave: wi as u32,
                            record,
                        },
                    ));
                }
            }
        }
        stats.workgroups += 1;
        stats.waves += nwaves as u64;
        stats.wave_instructions += waves.iter().map(|w| w.instructions).sum::<u64>();
        let _ = Flow::End;
        Ok(())
    }

    fn init_wave(&mut self, w: u32, id: [u32; 3], size: [u32; 3], items: u32, nwaves: u32) {
        let s = self.setup;
        let k = s.kernel;
        let gen = s.gen;
        let wave = &mut self.waves[w as usize];
        let regs = &k.registers;
        let agprs = regs.agprs.unwrap_or(0) as usize;
        wave.reset(regs.vgprs as usize, agprs);
        wave.mode = s.mode;
        wave.pc = s.entry_index;
        wave.wave_in_group = w;
        // Lanes holding work-items.
        let first = w * LANES as u32;
        let n = (items - first).min(LANES as u32);
        wave.set_exec(if n == 64 { u64::MAX } else { (1u64 << n) - 1 });
        let slot = self.thread as u64 * s.waves_per_group_max as u64 + w as u64;
        let wave_offset = slot * s.per_lane * LANES as u64;
        wave.scratch_base = s.scratch_base + wave_offset;
        wave.scratch_per_lane = s.per_lane;

        // User SGPRs in descriptor order (fact sheet §6).
        let props = &k.descriptor.kernel_code_properties;
        let mut sgpr = 0usize;
        let mut push = |wave: &mut Wave, v: u32| {
            if sgpr < 16 {
                wave.s[sgpr] = v;
            }
            sgpr += 1;
        };
        let push64 = |wave: &mut Wave, push: &mut dyn FnMut(&mut Wave, u32), v: u64| {
            push(wave, v as u32);
            push(wave, (v >> 32) as u32);
        };
        if props.enable_sgpr_private_segment_buffer != 0 {
            for v in scratch_resource(s.scratch_base, s.scratch_size) {
                push(wave, v);
            }
        }
        if props.enable_sgpr_dispatch_ptr != 0 {
            push64(wave, &mut push, s.packet);
        }
        if props.enable_sgpr_queue_ptr != 0 {
            push64(wave, &mut push, s.queue);
        }
        if props.enable_sgpr_kernarg_segment_ptr != 0 {
            push64(wave, &mut push, s.kernarg);
        }
        if props.enable_sgpr_dispatch_id != 0 {
            push64(wave, &mut push, s.dispatch_id);
        }
        if props.enable_sgpr_flat_scratch_init != 0 {
            match gen {
                // "Offset" flat scratch: lo = offset of the backing memory from the hidden
                // base (which is the backing memory itself here), hi = per-lane size.
                Gen::Gfx7 | Gen::Gfx8 => {
                    push(wave, 0);
                    push(wave, s.per_lane as u32);
                }
                // "Absolute": the address of the backing memory.
                _ => push64(wave, &mut push, s.scratch_base),
            }
        }
        let pre = &k.descriptor.kernarg_preload;
        for i in 0..pre.kernarg_preload_spec_length as usize {
            let at = (pre.kernarg_preload_spec_offset as usize + i) * 4;
            let v = s
                .kernarg_bytes
                .get(at..at + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            push(wave, v);
        }
        if props.enable_sgpr_private_segment_size != 0 {
            push(wave, s.per_lane as u32);
        }
        // System SGPRs start at USER_SGPR_COUNT.
        let r2 = &k.descriptor.compute_pgm_rsrc2;
        let mut sys = r2.user_sgpr_count as usize;
        let mut sys_push = |wave: &mut Wave, v: u32| {
            if sys < sreg::SGPRS as usize {
                wave.s[sys] = v;
            }
            sys += 1;
        };
        if r2.enable_sgpr_workgroup_id_x != 0 {
            sys_push(wave, id[0]);
        }
        if r2.enable_sgpr_workgroup_id_y != 0 {
            sys_push(wave, id[1]);
        }
        if r2.enable_sgpr_workgroup_id_z != 0 {
            sys_push(wave, id[2]);
        }
        if r2.enable_sgpr_workgroup_info != 0 {
            sys_push(wave, ((w == 0) as u32) << 31 | (nwaves & 0x3f));
        }
        let architected = gen == Gen::Gfx940;
        if r2.enable_private_segment != 0 && !architected {
            sys_push(wave, wave_offset as u32);
        }
        if architected && r2.enable_private_segment != 0 {
            wave.set_sreg64(sreg::FLAT_SCRATCH, wave.scratch_base);
        }

        // Work-item ids (fact sheet §7).
        let ids = r2.enable_vgpr_workitem_id;
        let packed = matches!(gen, Gen::Gfx90a | Gen::Gfx940);
        for lane in 0..LANES as u32 {
            let flat = (first + lane).min(items.saturating_sub(1));
            let x = flat % size[0];
            let y = (flat / size[0]) % size[1];
            let z = flat / (size[0] * size[1]);
            let l = lane as usize;
            if packed {
                let mut v = x;
                if ids >= 1 {
                    v |= y << 10;
                }
                if ids >= 2 {
                    v |= z << 20;
                }
                wave.v[0][l] = v;
            } else {
                wave.v[0][l] = x;
                if ids >= 1 {
                    wave.v[1][l] = y;
                }
                if ids >= 2 {
                    wave.v[2][l] = z;
                }
            }
        }
        let _ = ACC_BASE;
    }
}

fn report(s: &Setup<'_>, id: [u32; 3], wave_index: u32, wave: &Wave, fault: Fault) -> FaultReport {
    let op = s.module.program.ops.get(wave.pc);
    let pc = op.map_or(0, |o| o.addr);
    let instruction = op.map_or_else(String::new, |o| {
        let mut text = String::new();
        let ctx = gcnkit_disasm::PrintContext {
            target: &s.module.target,
            branch_label: None,
        };
        match gcnkit_disasm::print_instruction(&o.inst, &ctx, &mut text) {
            Ok(()) => text,
            Err(_) => format!(".long {:#010x}", o.inst.bits as u32),
        }
    });
    FaultReport {
        kernel: s.kernel.name.clone(),
        workgroup: id,
        wave: wave_index,
        pc,
        pc_offset: pc as i64 - s.kernel.entry as i64,
        instruction,
        fault,
    }
}
