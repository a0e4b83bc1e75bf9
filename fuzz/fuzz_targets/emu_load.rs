//! The emulator's loader and dispatcher on arbitrary files: `Device::load` (without a
//! processor, and asking for gfx90a, which picks from bundles), then every kernel of what
//! loads launched on a small grid with valid arguments and a small instruction budget.
//! Load errors, bad launches and faults are all fine; a panic is not.
#![no_main]

use gcnkit_emu::dispatch::DYNAMIC_STACK_BYTES;
use gcnkit_emu::{ArgValue, Device, Grid, Kernel, LaunchOptions};
use libfuzzer_sys::fuzz_target;

/// Bytes of the buffer every pointer argument points at.
const BUFFER_BYTES: u64 = 4096;

/// Kernarg and scratch sizes above this are not launched (see [`exhausts_memory`]).
const SEGMENT_LIMIT: u64 = 1 << 20;

/// True when the kernel declares a kernarg segment or scratch of more than [`SEGMENT_LIMIT`]
/// bytes. The dispatcher allocates both (in host memory, page by page) before it checks
/// anything else, so a descriptor that claims gigabytes exhausts the fuzzer's memory: that
/// is reported as out-of-memory, found in the first minute of every run, and would hide
/// everything else. Sizes whose computation overflows are still launched, so that the
/// dispatcher's own arithmetic stays under test.
fn exhausts_memory(kernel: &Kernel) -> bool {
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
    // Per lane, rounded to 16 bytes; 64 lanes a wave, at most 4 waves (256 work-items).
    let scratch = kernel
        .private_segment_fixed_size
        .max(kernel.descriptor.private_segment_fixed_size as u64)
        .checked_add(stack)
        .and_then(|p| p.checked_next_multiple_of(16))
        .and_then(|p| p.checked_mul(64 * 4));
    over(kernarg) || over(scratch)
}

/// One work-group: the kernel's required size when it declares a small one, else one wave
/// (or the kernel's largest work-group, when that is smaller).
fn grid_for(kernel: &Kernel) -> Grid {
    if let Some(r) = kernel.reqd_workgroup_size {
        if r.iter().all(|&n| (1..=256).contains(&n)) && r.iter().product::<u64>() <= 256 {
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
    let Ok(module) = device.load(file, mcpu) else {
        return;
    };
    let Ok(buffer) = device.allocate(BUFFER_BYTES) else {
        return;
    };
    for kernel in module.kernels.iter().filter(|k| !exhausts_memory(k)) {
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
