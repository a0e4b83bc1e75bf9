//! The dispatch ABI checked through compiled code: OpenCL kernels built by clang-19 for every
//! corpus target, with code objects v4 and v5, read what the hardware and the runtime set
//! up (work-item ids, work-group ids, the dispatch packet, the hidden arguments, private and
//! dynamic LDS memory) and store it. Expected values come from the HSA/OpenCL definitions of
//! a grid (`/work/shared/docs/hsa-dispatch-abi.md` §4, §5, §10), computed here from the grid,
//! never from the emulator.

use std::path::{Path, PathBuf};

mod common;

use common::{build_opencl, words};

use gcnkit_emu::{ArgValue, Device, Grid, LaunchOptions};

const TARGETS: [&str; 8] = [
    "gfx600", "gfx700", "gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
];

const SOURCE: &str = r#"
typedef unsigned int uint;
typedef unsigned short ushort;
/* Per work-item: local ids, group ids, the packet's work-group and grid sizes. */
kernel void ids(global uint *out) {
  uint lx = __builtin_amdgcn_workitem_id_x(), ly = __builtin_amdgcn_workitem_id_y(),
       lz = __builtin_amdgcn_workitem_id_z();
  uint gx = __builtin_amdgcn_workgroup_id_x(), gy = __builtin_amdgcn_workgroup_id_y(),
       gz = __builtin_amdgcn_workgroup_id_z();
  __constant ushort *d16 = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
  __constant uint *d32 = (__constant uint *)__builtin_amdgcn_dispatch_ptr();
  uint wsx = d16[2], wsy = d16[3], wsz = d16[4];
  uint gsx = d32[3], gsy = d32[4], gsz = d32[5];
  uint fx = gx * wsx + lx, fy = gy * wsy + ly, fz = gz * wsz + lz;
  global uint *o = out + ((fz * gsy + fy) * gsx + fx) * 13;
  o[0] = lx; o[1] = ly; o[2] = lz; o[3] = gx; o[4] = gy; o[5] = gz;
  o[6] = wsx; o[7] = wsy; o[8] = wsz; o[9] = gsx; o[10] = gsy; o[11] = gsz;
  o[12] = d16[1]; /* setup: dimensions */
}

/* The first work-item stores the hidden-argument block it sees. */
kernel void hidden(global uint *out, uint pad) {
  if (__builtin_amdgcn_workitem_id_x() == 0 && __builtin_amdgcn_workgroup_id_x() == 0) {
    __constant uint *ia = (__constant uint *)__builtin_amdgcn_implicitarg_ptr();
    for (int i = 0; i < 18; ++i) out[i] = ia[i];
    out[18] = pad;
  }
}

/* A private array indexed at run time (scratch), and dynamic LDS through a local pointer. */
kernel void memories(global uint *out, local uint *dyn, uint n) {
  uint lid = __builtin_amdgcn_workitem_id_x();
  uint gid = __builtin_amdgcn_workgroup_id_x() * 64 + lid;
  volatile uint priv[40];
  for (uint i = 0; i < 40; ++i) priv[i] = gid * 100 + i;
  dyn[lid] = gid + 7;
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
  out[gid * 2] = priv[(gid + n) % 40];
  out[gid * 2 + 1] = dyn[63 - lid];
}
"#;

fn llvm() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/lib/llvm-19/bin");
    p.join("clang").exists().then_some(p)
}

/// Builds SOURCE for `mcpu` and code-object version `cov` into a loadable code object.
fn build(bin: &Path, mcpu: &str, cov: u32) -> Vec<u8> {
    let version = format!("-mcode-object-version={cov}");
    build_opencl(bin, SOURCE, mcpu, &[&version], &format!("dispatch-v{cov}"))
}

/// Runs `ids` over `grid` and checks every work-item's record.
fn check_ids(
    dev: &mut Device,
    module: &gcnkit_emu::Module,
    grid: Grid,
    label: &str,
) -> Result<(), String> {
    let n = grid.global[0] as u64 * grid.global[1] as u64 * grid.global[2] as u64;
    let out = dev.allocate(n * 13 * 4).unwrap();
    dev.write(out, &vec![0xff; (n * 13 * 4) as usize]).unwrap();
    dev.launch(
        module,
        "ids",
        &grid,
        &[ArgValue::Bytes(out.to_le_bytes().to_vec())],
    )
    .map_err(|e| format!("{label}: {e}"))?;
    let got = words(&dev.read(out, n * 13 * 4).unwrap());
    for z in 0..grid.global[2] {
        for y in 0..grid.global[1] {
            for x in 0..grid.global[0] {
                let idx = ((z * grid.global[1] + y) * grid.global[0] + x) as usize;
                let rec = &got[idx * 13..idx * 13 + 13];
                let l = grid.local;
                let expected = [
                    x % l[0],
                    y % l[1],
                    z % l[2],
                    x / l[0],
                    y / l[1],
                    z / l[2],
                    l[0],
                    l[1],
                    l[2],
                    grid.global[0],
                    grid.global[1],
                    grid.global[2],
                    grid.dims,
                ];
                if rec != expected {
                    return Err(format!(
                        "{label}: work-item ({x},{y},{z}): got {rec:?}, expected {expected:?}"
                    ));
                }
            }
        }
    }
    let _ = dev.free(out);
    Ok(())
}

fn check_hidden(
    dev: &mut Device,
    module: &gcnkit_emu::Module,
    cov: u32,
    label: &str,
) -> Result<(), String> {
    let out = dev.allocate(19 * 4).unwrap();
    // 1000 work-items in groups of 64 (15 full groups, a partial one of 40), offset 0.
    let grid = Grid::linear(1000, 64);
    dev.launch(
        module,
        "hidden",
        &grid,
        &[
            ArgValue::Bytes(out.to_le_bytes().to_vec()),
            ArgValue::Bytes(0xabcdu32.to_le_bytes().to_vec()),
        ],
    )
    .map_err(|e| format!("{label}: {e}"))?;
    let got = words(&dev.read(out, 19 * 4).unwrap());
    let expected: Vec<(usize, u32, &str)> = if cov >= 5 {
        // Code object v5 hidden block (fact sheet §10.2): block counts (full groups), group
        // sizes and remainders as u16 pairs, global offsets, grid dims at +64.
        vec![
            (0, 15, "hidden_block_count_x"),
            (1, 1, "hidden_block_count_y"),
            (2, 1, "hidden_block_count_z"),
            (3, 64 | 1 << 16, "hidden_group_size_x/y"),
            (4, 1 | 40 << 16, "hidden_group_size_z, hidden_remainder_x"),
            (5, 0, "hidden_remainder_y/z"),
            (10, 0, "hidden_global_offset_x lo"),
            (16, 1, "hidden_grid_dims"),
        ]
    } else {
        // Code object v4 (fact sheet §10.3): the global offsets first.
        vec![
            (0, 0, "hidden_global_offset_x lo"),
            (1, 0, "hidden_global_offset_x hi"),
        ]
    };
    for (i, v, what) in expected {
        if got[i] != v {
            return Err(format!(
                "{label}: implicit argument dword {i} ({what}) is {:#x}, expected {v:#x}",
                got[i]
            ));
        }
    }
    if got[18] != 0xabcd {
        return Err(format!(
            "{label}: the explicit argument after the pointer is {:#x}",
            got[18]
        ));
    }
    let _ = dev.free(out);
    Ok(())
}

fn check_memories(
    dev: &mut Device,
    module: &gcnkit_emu::Module,
    label: &str,
) -> Result<(), String> {
    let groups = 5u32;
    let n = groups * 64;
    let out = dev.allocate(n as u64 * 8).unwrap();
    let grid = Grid::linear(n, 64);
    let shift = 13u32;
    dev.launch(
        module,
        "memories",
        &grid,
        &[
            ArgValue::Bytes(out.to_le_bytes().to_vec()),
            ArgValue::Local(64 * 4),
            ArgValue::Bytes(shift.to_le_bytes().to_vec()),
        ],
    )
    .map_err(|e| format!("{label}: {e}"))?;
    let got = words(&dev.read(out, n as u64 * 8).unwrap());
    for gid in 0..n {
        let priv_expected = gid * 100 + (gid + shift) % 40;
        let group = gid / 64;
        let lid = gid % 64;
        let lds_expected = group * 64 + (63 - lid) + 7;
        let pair = [got[gid as usize * 2], got[gid as usize * 2 + 1]];
        if pair != [priv_expected, lds_expected] {
            return Err(format!("{label}: work-item {gid}: got {pair:?}, expected [{priv_expected}, {lds_expected}]"));
        }
    }
    let _ = dev.free(out);
    Ok(())
}

#[test]
fn compiled_kernels_see_the_dispatch_the_abi_defines() {
    let Some(bin) = llvm() else {
        eprintln!("skipped: LLVM 19 not installed");
        return;
    };
    let grids = [
        ("1-D, partial last group", Grid::linear(200, 64)),
        (
            "2-D, partial in x and y",
            Grid {
                dims: 2,
                global: [37, 11, 1],
                local: [16, 4, 1],
                offset: [0; 3],
            },
        ),
        (
            "3-D",
            Grid {
                dims: 3,
                global: [8, 6, 5],
                local: [4, 3, 2],
                offset: [0; 3],
            },
        ),
        (
            "3-D, partial",
            Grid {
                dims: 3,
                global: [9, 7, 3],
                local: [4, 4, 2],
                offset: [0; 3],
            },
        ),
    ];
    let (mut compared, mut agreed) = (0, 0);
    let mut failures = Vec::new();
    for mcpu in TARGETS {
        for cov in [4, 5] {
            let co = build(&bin, mcpu, cov);
            let mut dev = Device::new();
            dev.set_options(LaunchOptions {
                threads: 2,
                max_instructions: 1_000_000,
            });
            let module = match dev.load(&co, None) {
                Ok(m) => m,
                Err(e) => {
                    failures.push(format!("{mcpu} v{cov}: load: {e}"));
                    compared += 1;
                    continue;
                }
            };
            let mut checks: Vec<Result<(), String>> = Vec::new();
            for (what, grid) in grids {
                checks.push(check_ids(
                    &mut dev,
                    &module,
                    grid,
                    &format!("{mcpu} v{cov} ids {what}"),
                ));
            }
            checks.push(check_hidden(
                &mut dev,
                &module,
                cov,
                &format!("{mcpu} v{cov} hidden"),
            ));
            checks.push(check_memories(
                &mut dev,
                &module,
                &format!("{mcpu} v{cov} scratch+dynamic LDS"),
            ));
            for c in checks {
                compared += 1;
                match c {
                    Ok(()) => agreed += 1,
                    Err(e) => failures.push(e),
                }
            }
        }
    }
    eprintln!(
        "dispatch ABI: {compared} (target, code-object version, check) cases, {agreed} agree"
    );
    for f in &failures {
        eprintln!("  FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} dispatch checks failed",
        failures.len()
    );
}
