//! The device: one emulated GPU, described as the processor it emulates.

use std::ffi::{c_char, c_int, c_uint, c_void};

use gcnkit_isa::{Gen, Target};

use crate::api::memory::DEVICE_MEMORY;
use crate::runtime::{fail, guard, ret, runtime};
use crate::types::*;

/// Facts of the emulated processor that `hipDeviceProp_t` reports.
struct Facts {
    arch: String,
    gcn_arch: c_int,
    compute_units: c_int,
    lds: usize,
}

fn facts() -> Facts {
    let arch = runtime().arch();
    let target = Target::parse(&arch, None).ok();
    let gen = target.as_ref().map(|t| t.gen());
    // Compute units of the product each processor is best known in (MI25, MI50, MI100,
    // MI210, MI300X); the emulator runs any number.
    let compute_units = match arch.as_str() {
        "gfx906" => 60,
        "gfx908" => 120,
        "gfx90a" => 104,
        "gfx940" | "gfx941" | "gfx942" => 304,
        _ => 64,
    };
    let lds = match gen {
        Some(Gen::Gfx6) => 32 << 10,
        _ => 64 << 10,
    };
    let digits: String = arch
        .trim_start_matches("gfx")
        .chars()
        .filter(|c| c.is_ascii_digit())
        .collect();
    Facts {
        gcn_arch: digits.parse().unwrap_or(0),
        arch,
        compute_units,
        lds,
    }
}

fn copy_name(dst: &mut [c_char], s: &str) {
    for (d, b) in dst.iter_mut().zip(s.bytes().chain(std::iter::once(0))) {
        *d = b as c_char;
    }
    if let Some(last) = dst.last_mut() {
        *last = 0;
    }
}

fn check_device(call: &str, device: c_int) -> Result<(), hipError_t> {
    if device == 0 {
        Ok(())
    } else {
        Err(fail(
            call,
            (
                hipErrorInvalidDevice,
                format!("device {device}: there is one device, 0"),
            ),
        ))
    }
}

/// `hipGetDeviceCount`: one emulated device.
///
/// # Safety
/// `count` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipGetDeviceCount(count: *mut c_int) -> hipError_t {
    if count.is_null() {
        return fail(
            "hipGetDeviceCount",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    *count = 1;
    ret(hipSuccess)
}

/// `hipSetDevice`.
#[no_mangle]
pub extern "C" fn hipSetDevice(device: c_int) -> hipError_t {
    match check_device("hipSetDevice", device) {
        Ok(()) => ret(hipSuccess),
        Err(e) => e,
    }
}

/// `hipGetDevice`.
///
/// # Safety
/// `device` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipGetDevice(device: *mut c_int) -> hipError_t {
    if device.is_null() {
        return fail(
            "hipGetDevice",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    *device = 0;
    ret(hipSuccess)
}

/// `hipDeviceGet`.
///
/// # Safety
/// `device` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipDeviceGet(device: *mut c_int, ordinal: c_int) -> hipError_t {
    if let Err(e) = check_device("hipDeviceGet", ordinal) {
        return e;
    }
    hipGetDevice(device)
}

/// `hipInit`.
#[no_mangle]
pub extern "C" fn hipInit(_flags: c_uint) -> hipError_t {
    ret(hipSuccess)
}

/// `hipSetDeviceFlags`.
#[no_mangle]
pub extern "C" fn hipSetDeviceFlags(_flags: c_uint) -> hipError_t {
    ret(hipSuccess)
}

/// `hipGetDeviceFlags`.
///
/// # Safety
/// `flags` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipGetDeviceFlags(flags: *mut c_uint) -> hipError_t {
    if flags.is_null() {
        return fail(
            "hipGetDeviceFlags",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    *flags = 0;
    ret(hipSuccess)
}

/// `hipDeviceSynchronize`: every launch has completed when its call returns.
#[no_mangle]
pub extern "C" fn hipDeviceSynchronize() -> hipError_t {
    ret(hipSuccess)
}

/// `hipDeviceReset`.
#[no_mangle]
pub extern "C" fn hipDeviceReset() -> hipError_t {
    ret(hipSuccess)
}

/// `hipRuntimeGetVersion`: the HIP version this runtime stands in for.
///
/// # Safety
/// `version` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipRuntimeGetVersion(version: *mut c_int) -> hipError_t {
    if version.is_null() {
        return fail(
            "hipRuntimeGetVersion",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    *version = HIP_VERSION;
    ret(hipSuccess)
}

/// `hipDriverGetVersion`.
///
/// # Safety
/// `version` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipDriverGetVersion(version: *mut c_int) -> hipError_t {
    hipRuntimeGetVersion(version)
}

/// `hipGetDeviceProperties`.
///
/// # Safety
/// `prop` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipGetDeviceProperties(
    prop: *mut hipDeviceProp_t,
    device: c_int,
) -> hipError_t {
    guard("hipGetDeviceProperties", || {
        if let Err(e) = check_device("hipGetDeviceProperties", device) {
            return e;
        }
        if prop.is_null() {
            return fail(
                "hipGetDeviceProperties",
                (hipErrorInvalidValue, "null pointer".into()),
            );
        }
        let f = facts();
        std::ptr::write_bytes(prop, 0, 1);
        let p = &mut *prop;
        copy_name(&mut p.name, &format!("gcnkit emulated {}", f.arch));
        copy_name(&mut p.gcnArchName, &f.arch);
        p.totalGlobalMem = DEVICE_MEMORY;
        p.sharedMemPerBlock = f.lds;
        p.regsPerBlock = 65536;
        p.warpSize = 64;
        p.maxThreadsPerBlock = 1024;
        p.maxThreadsDim = [1024, 1024, 1024];
        p.maxGridSize = [i32::MAX, 65536, 65536];
        p.clockRate = 1_500_000;
        p.memoryClockRate = 1_000_000;
        p.memoryBusWidth = 4096;
        p.totalConstMem = DEVICE_MEMORY;
        p.major = 9;
        p.minor = 0;
        p.multiProcessorCount = f.compute_units;
        p.l2CacheSize = 8 << 20;
        p.maxThreadsPerMultiProcessor = 2560;
        p.computeMode = 0;
        p.clockInstructionRate = 100_000;
        p.concurrentKernels = 1;
        p.maxSharedMemoryPerMultiProcessor = f.lds;
        p.canMapHostMemory = 1;
        p.gcnArch = f.gcn_arch;
        p.cooperativeLaunch = 0;
        p.maxTexture1DLinear = 1 << 27;
        p.maxTexture1D = 1 << 14;
        p.maxTexture2D = [1 << 14, 1 << 14];
        p.maxTexture3D = [1 << 11, 1 << 11, 1 << 11];
        p.memPitch = DEVICE_MEMORY;
        p.textureAlignment = 256;
        p.texturePitchAlignment = 256;
        p.managedMemory = 1;
        p.directManagedMemAccessFromHost = 1;
        ret(hipSuccess)
    })
}

/// `hipDeviceGetAttribute`.
///
/// # Safety
/// `value` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipDeviceGetAttribute(
    value: *mut c_int,
    attribute: c_int,
    device: c_int,
) -> hipError_t {
    guard("hipDeviceGetAttribute", || {
        if let Err(e) = check_device("hipDeviceGetAttribute", device) {
            return e;
        }
        if value.is_null() {
            return fail(
                "hipDeviceGetAttribute",
                (hipErrorInvalidValue, "null pointer".into()),
            );
        }
        let f = facts();
        let v = match attribute {
            attr::MaxThreadsPerBlock
            | attr::MaxBlockDimX
            | attr::MaxBlockDimY
            | attr::MaxBlockDimZ => 1024,
            attr::MaxGridDimX => i32::MAX,
            attr::MaxGridDimY | attr::MaxGridDimZ => 65536,
            attr::MaxSharedMemoryPerBlock
            | attr::SharedMemPerBlockOptin
            | attr::MaxSharedMemoryPerMultiprocessor => f.lds as c_int,
            attr::TotalConstantMemory => i32::MAX,
            attr::WarpSize => 64,
            attr::MaxRegistersPerBlock | attr::MaxRegistersPerMultiprocessor => 65536,
            attr::ClockRate => 1_500_000,
            attr::MemoryClockRate => 1_000_000,
            attr::MemoryBusWidth => 4096,
            attr::MultiprocessorCount | attr::PhysicalMultiProcessorCount => f.compute_units,
            attr::L2CacheSize => 8 << 20,
            attr::MaxThreadsPerMultiProcessor => 2560,
            attr::ComputeCapabilityMajor => 9,
            attr::ComputeCapabilityMinor => 0,
            attr::ConcurrentKernels
            | attr::CanMapHostMemory
            | attr::ManagedMemory
            | attr::UnifiedAddressing
            | attr::DirectManagedMemAccessFromHost => 1,
            attr::ClockInstructionRate => 100_000,
            attr::GcnArch => f.gcn_arch,
            attr::TextureAlignment | attr::TexturePitchAlignment => 256,
            attr::MaxPitch => i32::MAX,
            attr::EccEnabled
            | attr::ComputeMode
            | attr::ConcurrentManagedAccess
            | attr::CooperativeLaunch
            | attr::CooperativeMultiDeviceLaunch
            | attr::Integrated
            | attr::IsMultiGpuBoard
            | attr::KernelExecTimeout
            | attr::PageableMemoryAccess
            | attr::PciBusId
            | attr::PciDeviceId
            | attr::PciDomainID
            | attr::StreamPrioritiesSupported
            | attr::IsLargeBar
            | attr::AsicRevision
            | attr::ImageSupport
            | attr::FineGrainSupport => 0,
            other => {
                return fail(
                    "hipDeviceGetAttribute",
                    (
                        hipErrorInvalidValue,
                        format!("attribute {other} is not one this runtime answers"),
                    ),
                )
            }
        };
        *value = v;
        ret(hipSuccess)
    })
}

/// `hipDeviceGetName`.
///
/// # Safety
/// `name` must be valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn hipDeviceGetName(
    name: *mut c_char,
    len: c_int,
    device: c_int,
) -> hipError_t {
    if let Err(e) = check_device("hipDeviceGetName", device) {
        return e;
    }
    if name.is_null() || len <= 0 {
        return fail(
            "hipDeviceGetName",
            (hipErrorInvalidValue, "no room for the name".into()),
        );
    }
    let s = format!("gcnkit emulated {}", facts().arch);
    copy_name(std::slice::from_raw_parts_mut(name, len as usize), &s);
    ret(hipSuccess)
}

/// `hipDeviceTotalMem`.
///
/// # Safety
/// `bytes` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipDeviceTotalMem(bytes: *mut usize, device: c_int) -> hipError_t {
    if let Err(e) = check_device("hipDeviceTotalMem", device) {
        return e;
    }
    if bytes.is_null() {
        return fail(
            "hipDeviceTotalMem",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    *bytes = DEVICE_MEMORY;
    ret(hipSuccess)
}

/// `hipDeviceComputeCapability`.
///
/// # Safety
/// Pointers must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipDeviceComputeCapability(
    major: *mut c_int,
    minor: *mut c_int,
    device: c_int,
) -> hipError_t {
    if let Err(e) = check_device("hipDeviceComputeCapability", device) {
        return e;
    }
    if major.is_null() || minor.is_null() {
        return fail(
            "hipDeviceComputeCapability",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    *major = 9;
    *minor = 0;
    ret(hipSuccess)
}

/// `hipDeviceGetLimit`: the stack size and heap a kernel may use.
///
/// # Safety
/// `value` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipDeviceGetLimit(value: *mut usize, limit: c_int) -> hipError_t {
    if value.is_null() {
        return fail(
            "hipDeviceGetLimit",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    *value = match limit {
        0 => 131072,   // hipLimitStackSize
        1 => 4 << 20,  // hipLimitPrintfFifoSize
        2 => 64 << 20, // hipLimitMallocHeapSize
        _ => {
            return fail(
                "hipDeviceGetLimit",
                (HIP_ERROR_UNSUPPORTED_LIMIT, format!("limit {limit}")),
            )
        }
    };
    ret(hipSuccess)
}

const HIP_ERROR_UNSUPPORTED_LIMIT: hipError_t = 215;

/// Cache and shared-memory configuration: accepted, nothing to configure.
#[no_mangle]
pub extern "C" fn hipDeviceSetCacheConfig(_config: c_int) -> hipError_t {
    ret(hipSuccess)
}

/// `hipDeviceGetCacheConfig`.
///
/// # Safety
/// `config` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipDeviceGetCacheConfig(config: *mut c_int) -> hipError_t {
    if !config.is_null() {
        *config = 0;
    }
    ret(hipSuccess)
}

/// `hipDeviceSetSharedMemConfig`.
#[no_mangle]
pub extern "C" fn hipDeviceSetSharedMemConfig(_config: c_int) -> hipError_t {
    ret(hipSuccess)
}

/// `hipFuncSetCacheConfig`.
#[no_mangle]
pub extern "C" fn hipFuncSetCacheConfig(_f: *const c_void, _config: c_int) -> hipError_t {
    ret(hipSuccess)
}

/// `hipFuncSetSharedMemConfig`.
#[no_mangle]
pub extern "C" fn hipFuncSetSharedMemConfig(_f: *const c_void, _config: c_int) -> hipError_t {
    ret(hipSuccess)
}

/// `hipFuncSetAttribute`.
#[no_mangle]
pub extern "C" fn hipFuncSetAttribute(
    _f: *const c_void,
    _attr: c_int,
    _value: c_int,
) -> hipError_t {
    ret(hipSuccess)
}

/// `hipFuncGetAttributes`: the kernel's registers, LDS and scratch from its descriptor.
///
/// # Safety
/// `attributes` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipFuncGetAttributes(
    attributes: *mut hipFuncAttributes,
    f: *const c_void,
) -> hipError_t {
    guard("hipFuncGetAttributes", || {
        if attributes.is_null() {
            return fail(
                "hipFuncGetAttributes",
                (hipErrorInvalidValue, "null pointer".into()),
            );
        }
        let mut rt = runtime();
        let (module, name) = match rt.registered_kernel(f as usize) {
            Ok(k) => k,
            Err(e) => return fail("hipFuncGetAttributes", e),
        };
        let Some(k) = module.kernel(&name) else {
            return fail(
                "hipFuncGetAttributes",
                (hipErrorInvalidDeviceFunction, name),
            );
        };
        *attributes = hipFuncAttributes {
            binaryVersion: 0,
            cacheModeCA: 0,
            constSizeBytes: 0,
            localSizeBytes: k.private_segment_fixed_size as usize,
            maxDynamicSharedSizeBytes: (64u64 << 10).saturating_sub(k.group_segment_fixed_size)
                as c_int,
            maxThreadsPerBlock: k.max_flat_workgroup_size.unwrap_or(1024) as c_int,
            numRegs: k.registers.vgprs as c_int,
            preferredShmemCarveout: 0,
            ptxVersion: 0,
            sharedSizeBytes: k.group_segment_fixed_size as usize,
        };
        ret(hipSuccess)
    })
}

/// `hipOccupancyMaxActiveBlocksPerMultiprocessor`: as many blocks as fit 2,560 threads.
///
/// # Safety
/// `blocks` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipOccupancyMaxActiveBlocksPerMultiprocessor(
    blocks: *mut c_int,
    _f: *const c_void,
    block_size: c_int,
    _dynamic_shared: usize,
) -> hipError_t {
    if blocks.is_null() || block_size <= 0 {
        return fail(
            "hipOccupancyMaxActiveBlocksPerMultiprocessor",
            (hipErrorInvalidValue, "bad arguments".into()),
        );
    }
    *blocks = (2560 / block_size).max(1);
    ret(hipSuccess)
}

/// `hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags`.
///
/// # Safety
/// As [`hipOccupancyMaxActiveBlocksPerMultiprocessor`].
#[no_mangle]
pub unsafe extern "C" fn hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    blocks: *mut c_int,
    f: *const c_void,
    block_size: c_int,
    dynamic_shared: usize,
    _flags: c_uint,
) -> hipError_t {
    hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, block_size, dynamic_shared)
}

/// `hipOccupancyMaxPotentialBlockSize`: 256-thread blocks, enough to fill every unit.
///
/// # Safety
/// Pointers must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipOccupancyMaxPotentialBlockSize(
    grid_size: *mut c_int,
    block_size: *mut c_int,
    _f: *const c_void,
    _dynamic_shared: usize,
    limit: c_int,
) -> hipError_t {
    if grid_size.is_null() || block_size.is_null() {
        return fail(
            "hipOccupancyMaxPotentialBlockSize",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    let b = if limit > 0 { limit.min(1024) } else { 1024 };
    *block_size = b;
    *grid_size = facts().compute_units * (2560 / b).max(1);
    ret(hipSuccess)
}
