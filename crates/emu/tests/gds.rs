//! GDS across work-groups, through compiled kernels (OpenCL with inline assembly, built by
//! clang-19 for gfx900): `ds_ordered_count` hands out places in dispatch order whatever the
//! thread count, and GWS semaphores release a waiting work-group from others running on
//! other threads — or, with one thread, end in the documented fault. Expected values follow
//! from the dispatch order (work-groups x fastest, then waves) and the instructions' rules
//! (docs/emulator.md, "GDS"), never from the emulator.

use std::path::PathBuf;

mod common;

use common::{build_opencl, words};
use gcnkit_emu::{ArgValue, Device, EmuError, Grid, LaunchOptions};

const SOURCE: &str = r#"
typedef unsigned int uint;
/* Every wave adds 1 to ordered counter 1 (GDS dword 0x44); the old value is its place. */
kernel void ordered(global uint *out) {
  uint one = 1, old;
  __asm__ volatile("s_mov_b32 m0, 0x40\n\tds_ordered_count %0, %1 offset:772 gds\n\t"
                   "s_waitcnt lgkmcnt(0)" : "=v"(old) : "v"(one) : "m0");
  out[__builtin_amdgcn_workgroup_id_x() * 128 + __builtin_amdgcn_workitem_id_x()] = old;
}
/* Work-groups 1.. store 10 * id and signal GWS semaphore 0; group 0 waits n - 1 times and
   sums what they stored. */
kernel void sema(global volatile uint *data, global uint *sum, uint n) {
  uint g = __builtin_amdgcn_workgroup_id_x();
  if (g != 0) {
    data[g] = g * 10;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
    __asm__ volatile("s_mov_b32 m0, 0\n\tds_gws_sema_v offset:0 gds\n\ts_waitcnt lgkmcnt(0)"
                     ::: "m0");
  } else {
    uint s = 0;
    for (uint i = 1; i < n; ++i)
      __asm__ volatile("s_mov_b32 m0, 0\n\tds_gws_sema_p offset:0 gds\n\ts_waitcnt lgkmcnt(0)"
                       ::: "m0");
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
    for (uint i = 1; i < n; ++i) s += data[i];
    sum[0] = s;
  }
}
"#;

/// The code object, built once per test binary (`None` when LLVM 19 is missing).
fn build() -> Option<Vec<u8>> {
    static CO: std::sync::OnceLock<Option<Vec<u8>>> = std::sync::OnceLock::new();
    CO.get_or_init(build_once).clone()
}

fn build_once() -> Option<Vec<u8>> {
    let bin = PathBuf::from("/usr/lib/llvm-19/bin");
    if !bin.join("clang").exists() || !bin.join("ld.lld").exists() {
        eprintln!("skipped: needs LLVM 19 (clang and ld.lld under /usr/lib/llvm-19/bin)");
        return None;
    }
    Some(build_opencl(&bin, SOURCE, "gfx900", &["-w"], "gds"))
}

fn ptr(a: u64) -> ArgValue {
    ArgValue::Bytes(a.to_le_bytes().to_vec())
}

#[test]
fn ordered_count_follows_dispatch_order_on_any_thread_count() {
    let Some(co) = build() else { return };
    for threads in [1, 3, 8] {
        let mut dev = Device::new();
        dev.set_options(LaunchOptions {
            threads,
            max_instructions: 1_000_000,
        });
        let module = dev.load(&co, None).unwrap();
        // 8 work-groups of 128 items: 16 waves; wave w of group g is place 2g + w.
        let out = dev.allocate(8 * 128 * 4).unwrap();
        dev.launch(&module, "ordered", &Grid::linear(1024, 128), &[ptr(out)])
            .unwrap();
        let got = words(&dev.read(out, 8 * 128 * 4).unwrap());
        for (i, x) in got.iter().enumerate() {
            assert_eq!(*x, (i / 64) as u32, "threads {threads}, item {i}");
        }
    }
}

#[test]
fn gws_semaphores_release_a_waiting_group_from_other_threads() {
    let Some(co) = build() else { return };
    let n = 6u32;
    let mut dev = Device::new();
    dev.set_options(LaunchOptions {
        threads: 2,
        max_instructions: 10_000_000,
    });
    let module = dev.load(&co, None).unwrap();
    let data = dev.allocate(4 * n as u64).unwrap();
    let sum = dev.allocate(4).unwrap();
    let args = [
        ptr(data),
        ptr(sum),
        ArgValue::Bytes(n.to_le_bytes().to_vec()),
    ];
    dev.launch(&module, "sema", &Grid::linear(64 * n, 64), &args)
        .unwrap();
    // 10 * (1 + 2 + 3 + 4 + 5).
    assert_eq!(words(&dev.read(sum, 4).unwrap()), [150]);

    // One thread: group 0 waits on a semaphore only later groups can signal, and they can
    // never start: the documented fault, not a hang.
    dev.set_options(LaunchOptions {
        threads: 1,
        max_instructions: 10_000_000,
    });
    let e = dev
        .launch(&module, "sema", &Grid::linear(64 * n, 64), &args)
        .unwrap_err();
    assert!(matches!(&e, EmuError::Fault(_)), "{e}");
    let text = e.to_string();
    assert!(
        text.contains("ds_gws_sema_p on GWS resource 0") && text.contains("can never be released"),
        "{text}"
    );
}
