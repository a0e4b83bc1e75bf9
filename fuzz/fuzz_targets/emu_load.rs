//! The emulator's loader and dispatcher on arbitrary files: `Device::load` (without a
//! processor, and asking for gfx90a, which picks from bundles), then every kernel of what
//! loads launched on a small grid with valid arguments and a small instruction budget.
//! Load errors, bad launches and faults are all fine; a panic is not.
#![no_main]

use gcnkit_emu::dispatch::DYNAMIC_STACK_BYTES;
use gcnkit_emu::loader::select_code_object;
use gcnkit_emu::{ArgValue, Device, Grid, Kernel, LaunchOptions};
use libfuzzer_sys::fuzz_target;

/// Bytes of the buffer every pointer argument points at.
const BUFFER_BYTES: u64 = 4096;

/// Kernarg and scratch sizes above this are not launched (see [`launch_exhausts_memory`]).
const SEGMENT_LIMIT: u64 = 1 << 20;

/// Images larger than this are not loaded (see [`image_exhausts_memory`]).
const IMAGE_LIMIT: u64 = 64 << 20;

/// True when the ELF file's loadable segments (or, in a relocatable object, its allocated
/// sections) span more than [`IMAGE_LIMIT`] bytes. The loader maps an image of up to 4 GiB
/// into device memory, all of it backed by host memory, so a header that places a segment
/// near 4 GiB exhausts the fuzzer's memory; such files are not loaded until the loader caps
/// images at a realistic size. Files this reading cannot make sense of are loaded.
fn image_exhausts_memory(elf: &[u8]) -> bool {
    let big_endian = elf.get(5) == Some(&2);
    // The `n`-byte field at `base + delta`.
    let read = |base: u64, delta: u64, n: usize| -> Option<u64> {
        let at = usize::try_from(base.checked_add(delta)?).ok()?;
        let b = elf.get(at..at.checked_add(n)?)?;
        let mut v = 0u64;
        for i in 0..n {
            let byte = if big_endian { b[i] } else { b[n - 1 - i] };
            v = v << 8 | byte as u64;
        }
        Some(v)
    };
    let span = || -> Option<u64> {
        let mut span = 0u64;
        if read(16, 0, 2)? == 1 {
            // ET_REL: the sum of the SHF_ALLOC sections.
            let (off, size, n) = (read(0x28, 0, 8)?, read(0x3a, 0, 2)?, read(0x3c, 0, 2)?);
            for i in 0..n {
                let sh = off.checked_add(i * size)?;
                if read(sh, 8, 8)? & 2 != 0 {
                    span = span.saturating_add(read(sh, 0x20, 8)?);
                }
            }
        } else {
            // The end of the highest PT_LOAD segment.
            let (off, size, n) = (read(0x20, 0, 8)?, read(0x36, 0, 2)?, read(0x38, 0, 2)?);
            for i in 0..n {
                let ph = off.checked_add(i * size)?;
                if read(ph, 0, 4)? == 1 {
                    span = span.max(read(ph, 0x10, 8)?.saturating_add(read(ph, 0x28, 8)?));
                }
            }
        }
        Some(span)
    };
    span().is_some_and(|s| s > IMAGE_LIMIT)
}

/// True when the kernel declares a kernarg segment or scratch of more than [`SEGMENT_LIMIT`]
/// bytes. The dispatcher allocates both (in host memory, page by page) before it checks
/// anything else, so a descriptor that claims gigabytes exhausts the fuzzer's memory: that
/// is reported as out-of-memory, found in the first minute of every run, and would hide
/// everything else. Sizes whose computation overflows are still launched, so that the
/// dispatcher's own arithmetic stays under test.
fn launch_exhausts_memory(kernel: &Kernel) -> bool {
    let over = |v: Option<u64>| v.is_some_and(|v| v > SEGMENT_LIMIT);
    let ends: Option<Vec<u64>> = kernel
        .args
        .iter()
        .map(|a| a.offset.checked_add(a.size))
        .collect();
    let kernarg = ends.map(|e| {
        e.into_iter()
            .chain([kernel.kernarg_size, kernel.descriptor.kernarg_size as u64])
            .max()
            .unwrap_or(0)
    });
    let stack = if kernel.descriptor.kernel_code_properties.uses_dynamic_stack != 0 {
        DYNAMIC_STACK_BYTES
    } else {
        0
    };
    // Per lane, rounded to 16 bytes; 64 lanes a wave, at most MAX_GROUP / 64 waves.
    let scratch = kernel
        .private_segment_fixed_size
        .max(kernel.descriptor.private_segment_fixed_size as u64)
        .checked_add(stack)
        .and_then(|p| p.checked_next_multiple_of(16))
        .and_then(|p| p.checked_mul(MAX_GROUP));
    over(kernarg) || over(scratch)
}

/// Largest work-group launched (the size kernels of the corpus require goes up to 512).
const MAX_GROUP: u64 = 1024;

/// One work-group: the kernel's required size when it declares one of at most [`MAX_GROUP`]
/// work-items, else one wave (or the kernel's largest work-group, when that is smaller).
fn grid_for(kernel: &Kernel) -> Grid {
    if let Some(r) = kernel.reqd_workgroup_size {
        if r.iter().all(|&n| (1..=MAX_GROUP).contains(&n))
            && r.iter()
                .try_fold(1u64, |p, &n| p.checked_mul(n))
                .is_some_and(|p| p <= MAX_GROUP)
        {
            let local = r.map(|n| n as u32);
            return Grid {
                dims: 3,
                global: local,
                local,
                offset: [0; 3],
            };
        }
    }
    let n = kernel.max_flat_workgroup_size.unwrap_or(64).clamp(1, 64) as u32;
    Grid::linear(n, n)
}

fn run(device: &mut Device, file: &[u8], mcpu: Option<&str>) {
    if select_code_object(file, mcpu).is_ok_and(|elf| image_exhausts_memory(&elf)) {
        return;
    }
    let Ok(module) = device.load(file, mcpu) else {
        return;
    };
    let Ok(buffer) = device.allocate(BUFFER_BYTES) else {
        return;
    };
    for listed in &module.kernels {
        // A launch names its kernel, and names need not be unique in a corrupt file: look at
        // the kernel the name finds.
        let Some(kernel) = module.kernel(&listed.name) else {
            continue;
        };
        if launch_exhausts_memory(kernel) {
            continue;
        }
        let args: Vec<ArgValue> = kernel
            .explicit_args()
            .map(|a| match a.kind.as_str() {
                "dynamic_shared_pointer" => ArgValue::Local(16),
                "global_buffer" if a.size == 8 => ArgValue::Bytes(buffer.to_le_bytes().to_vec()),
                // Metadata may claim any size: a by-value argument of more than a page is
                // given zeros of a page (the launch then reports the size mismatch).
                _ => ArgValue::Bytes(vec![0; a.size.min(4096) as usize]),
            })
            .collect();
        let _ = device.launch(&module, &kernel.name, &grid_for(kernel), &args);
    }
}

fuzz_target!(|data: &[u8]| {
    for mcpu in [None, Some("gfx90a")] {
        let mut device = Device::new();
        device.set_options(LaunchOptions {
            threads: 1,
            max_instructions: 10_000,
        });
        run(&mut device, data, mcpu);
    }
});
