//! The C types of HIP 5.2's runtime API (`hip/hip_runtime_api.h`), laid out as the header
//! lays them out (tests/abi.rs checks sizes and offsets against the header with clang).

#![allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    missing_docs
)]

use std::os::raw::{c_char, c_int, c_uint, c_void};

/// `hipError_t`.
pub type hipError_t = c_int;

pub const hipSuccess: hipError_t = 0;
pub const hipErrorInvalidValue: hipError_t = 1;
pub const hipErrorOutOfMemory: hipError_t = 2;
pub const hipErrorNotInitialized: hipError_t = 3;
pub const hipErrorInvalidConfiguration: hipError_t = 9;
pub const hipErrorInvalidSymbol: hipError_t = 13;
pub const hipErrorInvalidDevicePointer: hipError_t = 17;
pub const hipErrorInvalidMemcpyDirection: hipError_t = 21;
pub const hipErrorMissingConfiguration: hipError_t = 52;
pub const hipErrorInvalidDeviceFunction: hipError_t = 98;
pub const hipErrorNoDevice: hipError_t = 100;
pub const hipErrorInvalidDevice: hipError_t = 101;
pub const hipErrorInvalidImage: hipError_t = 200;
pub const hipErrorNoBinaryForGpu: hipError_t = 209;
pub const hipErrorFileNotFound: hipError_t = 301;
pub const hipErrorInvalidHandle: hipError_t = 400;
pub const hipErrorNotFound: hipError_t = 500;
pub const hipErrorNotReady: hipError_t = 600;
pub const hipErrorIllegalAddress: hipError_t = 700;
pub const hipErrorLaunchOutOfResources: hipError_t = 701;
pub const hipErrorLaunchTimeOut: hipError_t = 702;
pub const hipErrorAssert: hipError_t = 710;
pub const hipErrorNotSupported: hipError_t = 801;
pub const hipErrorUnknown: hipError_t = 999;

/// Every error code with its name and description, as `hipGetErrorName` and
/// `hipGetErrorString` give them.
pub const ERRORS: &[(hipError_t, &str, &str)] = &[
    (0, "hipSuccess", "no error"),
    (1, "hipErrorInvalidValue", "invalid argument"),
    (2, "hipErrorOutOfMemory", "out of memory"),
    (3, "hipErrorNotInitialized", "initialization error"),
    (4, "hipErrorDeinitialized", "driver shutting down"),
    (
        9,
        "hipErrorInvalidConfiguration",
        "invalid configuration argument",
    ),
    (12, "hipErrorInvalidPitchValue", "invalid pitch argument"),
    (13, "hipErrorInvalidSymbol", "invalid device symbol"),
    (17, "hipErrorInvalidDevicePointer", "invalid device pointer"),
    (
        21,
        "hipErrorInvalidMemcpyDirection",
        "invalid copy direction for memcpy",
    ),
    (
        35,
        "hipErrorInsufficientDriver",
        "driver version is insufficient for runtime version",
    ),
    (
        52,
        "hipErrorMissingConfiguration",
        "__global__ function call is not configured",
    ),
    (
        53,
        "hipErrorPriorLaunchFailure",
        "unspecified launch failure in prior launch",
    ),
    (
        98,
        "hipErrorInvalidDeviceFunction",
        "invalid device function",
    ),
    (
        100,
        "hipErrorNoDevice",
        "no ROCm-capable device is detected",
    ),
    (101, "hipErrorInvalidDevice", "invalid device ordinal"),
    (
        200,
        "hipErrorInvalidImage",
        "device kernel image is invalid",
    ),
    (201, "hipErrorInvalidContext", "invalid device context"),
    (
        209,
        "hipErrorNoBinaryForGpu",
        "no kernel image is available for execution on the device",
    ),
    (218, "hipErrorInvalidKernelFile", "invalid kernel file"),
    (301, "hipErrorFileNotFound", "file not found"),
    (
        302,
        "hipErrorSharedObjectSymbolNotFound",
        "shared object symbol not found",
    ),
    (400, "hipErrorInvalidHandle", "invalid resource handle"),
    (500, "hipErrorNotFound", "named symbol not found"),
    (600, "hipErrorNotReady", "device not ready"),
    (
        700,
        "hipErrorIllegalAddress",
        "an illegal memory access was encountered",
    ),
    (
        701,
        "hipErrorLaunchOutOfResources",
        "too many resources requested for launch",
    ),
    (
        702,
        "hipErrorLaunchTimeOut",
        "the launch timed out and was terminated",
    ),
    (710, "hipErrorAssert", "device-side assert triggered"),
    (801, "hipErrorNotSupported", "operation not supported"),
    (999, "hipErrorUnknown", "unknown error"),
];

/// `dim3`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

/// `hipMemcpyKind`.
pub type hipMemcpyKind = c_int;
pub const hipMemcpyHostToHost: hipMemcpyKind = 0;
pub const hipMemcpyHostToDevice: hipMemcpyKind = 1;
pub const hipMemcpyDeviceToHost: hipMemcpyKind = 2;
pub const hipMemcpyDeviceToDevice: hipMemcpyKind = 3;
pub const hipMemcpyDefault: hipMemcpyKind = 4;

/// `hipMemoryType`.
pub const hipMemoryTypeHost: c_int = 0;
pub const hipMemoryTypeDevice: c_int = 1;

/// `hipPointerAttribute_t`.
#[repr(C)]
pub struct hipPointerAttribute_t {
    pub memoryType: c_int,
    pub device: c_int,
    pub devicePointer: *mut c_void,
    pub hostPointer: *mut c_void,
    pub isManaged: c_int,
    pub allocationFlags: c_uint,
}

/// `hipDeviceArch_t`: 32 feature bits.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct hipDeviceArch_t {
    pub bits: u32,
}

/// `hipDeviceProp_t` (HIP 5.2, 792 bytes).
#[repr(C)]
pub struct hipDeviceProp_t {
    pub name: [c_char; 256],
    pub totalGlobalMem: usize,
    pub sharedMemPerBlock: usize,
    pub regsPerBlock: c_int,
    pub warpSize: c_int,
    pub maxThreadsPerBlock: c_int,
    pub maxThreadsDim: [c_int; 3],
    pub maxGridSize: [c_int; 3],
    pub clockRate: c_int,
    pub memoryClockRate: c_int,
    pub memoryBusWidth: c_int,
    pub totalConstMem: usize,
    pub major: c_int,
    pub minor: c_int,
    pub multiProcessorCount: c_int,
    pub l2CacheSize: c_int,
    pub maxThreadsPerMultiProcessor: c_int,
    pub computeMode: c_int,
    pub clockInstructionRate: c_int,
    pub arch: hipDeviceArch_t,
    pub concurrentKernels: c_int,
    pub pciDomainID: c_int,
    pub pciBusID: c_int,
    pub pciDeviceID: c_int,
    pub maxSharedMemoryPerMultiProcessor: usize,
    pub isMultiGpuBoard: c_int,
    pub canMapHostMemory: c_int,
    pub gcnArch: c_int,
    pub gcnArchName: [c_char; 256],
    pub integrated: c_int,
    pub cooperativeLaunch: c_int,
    pub cooperativeMultiDeviceLaunch: c_int,
    pub maxTexture1DLinear: c_int,
    pub maxTexture1D: c_int,
    pub maxTexture2D: [c_int; 2],
    pub maxTexture3D: [c_int; 3],
    pub hdpMemFlushCntl: *mut c_uint,
    pub hdpRegFlushCntl: *mut c_uint,
    pub memPitch: usize,
    pub textureAlignment: usize,
    pub texturePitchAlignment: usize,
    pub kernelExecTimeoutEnabled: c_int,
    pub ECCEnabled: c_int,
    pub tccDriver: c_int,
    pub cooperativeMultiDeviceUnmatchedFunc: c_int,
    pub cooperativeMultiDeviceUnmatchedGridDim: c_int,
    pub cooperativeMultiDeviceUnmatchedBlockDim: c_int,
    pub cooperativeMultiDeviceUnmatchedSharedMem: c_int,
    pub isLargeBar: c_int,
    pub asicRevision: c_int,
    pub managedMemory: c_int,
    pub directManagedMemAccessFromHost: c_int,
    pub concurrentManagedAccess: c_int,
    pub pageableMemoryAccess: c_int,
    pub pageableMemoryAccessUsesHostPageTables: c_int,
}

/// `hipFuncAttributes`.
#[repr(C)]
pub struct hipFuncAttributes {
    pub binaryVersion: c_int,
    pub cacheModeCA: c_int,
    pub constSizeBytes: usize,
    pub localSizeBytes: usize,
    pub maxDynamicSharedSizeBytes: c_int,
    pub maxThreadsPerBlock: c_int,
    pub numRegs: c_int,
    pub preferredShmemCarveout: c_int,
    pub ptxVersion: c_int,
    pub sharedSizeBytes: usize,
}

/// `hipChannelFormatDesc`.
#[repr(C)]
pub struct hipChannelFormatDesc {
    pub x: c_int,
    pub y: c_int,
    pub z: c_int,
    pub w: c_int,
    pub f: c_int,
}

/// The fat-binary wrapper hipcc places in `.hipFatBinSegment`: magic `HIPF`, version 1, the
/// offload bundle.
#[repr(C)]
pub struct FatBinaryWrapper {
    pub magic: u32,
    pub version: u32,
    pub binary: *const c_void,
    pub unused: *const c_void,
}

/// `HIP_LAUNCH_PARAM_*` markers of the `extra` launch argument.
pub const HIP_LAUNCH_PARAM_BUFFER_POINTER: usize = 1;
pub const HIP_LAUNCH_PARAM_BUFFER_SIZE: usize = 2;
pub const HIP_LAUNCH_PARAM_END: usize = 3;

/// The `HIP_VERSION` of the headers this runtime stands in for (5.2.21153).
pub const HIP_VERSION: c_int = 50221153;

/// Device attributes (`hipDeviceAttribute_t`) this runtime answers.
pub mod attr {
    pub const EccEnabled: i32 = 0;
    pub const CanMapHostMemory: i32 = 3;
    pub const ClockRate: i32 = 5;
    pub const ComputeMode: i32 = 6;
    pub const ConcurrentKernels: i32 = 8;
    pub const ConcurrentManagedAccess: i32 = 9;
    pub const CooperativeLaunch: i32 = 10;
    pub const CooperativeMultiDeviceLaunch: i32 = 11;
    pub const DirectManagedMemAccessFromHost: i32 = 13;
    pub const Integrated: i32 = 16;
    pub const IsMultiGpuBoard: i32 = 17;
    pub const KernelExecTimeout: i32 = 18;
    pub const L2CacheSize: i32 = 19;
    pub const ComputeCapabilityMajor: i32 = 23;
    pub const ManagedMemory: i32 = 24;
    pub const MaxBlockDimX: i32 = 26;
    pub const MaxBlockDimY: i32 = 27;
    pub const MaxBlockDimZ: i32 = 28;
    pub const MaxGridDimX: i32 = 29;
    pub const MaxGridDimY: i32 = 30;
    pub const MaxGridDimZ: i32 = 31;
    pub const MaxThreadsPerBlock: i32 = 56;
    pub const MaxThreadsPerMultiProcessor: i32 = 57;
    pub const MaxPitch: i32 = 58;
    pub const MemoryBusWidth: i32 = 59;
    pub const MemoryClockRate: i32 = 60;
    pub const ComputeCapabilityMinor: i32 = 61;
    pub const MultiprocessorCount: i32 = 63;
    pub const PageableMemoryAccess: i32 = 65;
    pub const PciBusId: i32 = 67;
    pub const PciDeviceId: i32 = 68;
    pub const PciDomainID: i32 = 69;
    pub const MaxRegistersPerBlock: i32 = 71;
    pub const MaxRegistersPerMultiprocessor: i32 = 72;
    pub const MaxSharedMemoryPerBlock: i32 = 74;
    pub const SharedMemPerBlockOptin: i32 = 75;
    pub const StreamPrioritiesSupported: i32 = 78;
    pub const TextureAlignment: i32 = 81;
    pub const TexturePitchAlignment: i32 = 82;
    pub const TotalConstantMemory: i32 = 83;
    pub const UnifiedAddressing: i32 = 85;
    pub const WarpSize: i32 = 87;
    pub const ClockInstructionRate: i32 = 10000;
    pub const MaxSharedMemoryPerMultiprocessor: i32 = 10002;
    pub const GcnArch: i32 = 10003;
    pub const IsLargeBar: i32 = 10011;
    pub const AsicRevision: i32 = 10012;
    pub const ImageSupport: i32 = 10014;
    pub const PhysicalMultiProcessorCount: i32 = 10015;
    pub const FineGrainSupport: i32 = 10016;
}
