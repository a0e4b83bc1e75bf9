//! The runtime's C types against HIP 5.2's header (`/usr/include/hip/hip_runtime_api.h`,
//! package libamdhip64-dev): a C program compiled with clang prints each field's offset,
//! each structure's size and each device attribute's value, and the test compares them with
//! the Rust definitions.

use std::mem::{offset_of, size_of};
use std::process::Command;

use amdhip64::types::*;

const HEADER: &str = "/usr/include/hip/hip_runtime_api.h";

/// Compiles and runs `body` (C statements printing `name value` lines) with the header.
fn from_header(body: &str) -> Vec<(String, i64)> {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    assert!(
        std::path::Path::new(HEADER).exists(),
        "{HEADER} is missing: apt-get install libamdhip64-dev (as .ci/run does)"
    );
    let dir = std::env::temp_dir().join(format!("gcnkit-hip-abi-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("abi.c");
    let exe = dir.join("abi");
    std::fs::write(
        &src,
        format!(
            "#define __HIP_PLATFORM_AMD__\n#include <hip/hip_runtime_api.h>\n#include <stdio.h>\n\
             #include <stddef.h>\nint main(void) {{\n{body}\nreturn 0;\n}}\n"
        ),
    )
    .unwrap();
    let cc = ["clang-19", "clang", "cc"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok())
        .expect("a C compiler");
    let status = Command::new(cc)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap();
    assert!(status.success(), "compiling the header check failed");
    let out = Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let (n, v) = l.split_once(' ')?;
            Some((n.to_string(), v.parse().ok()?))
        })
        .collect()
}

macro_rules! layout {
    ($ty:ident: $($field:ident),*) => {{
        let mut c = format!("printf(\"sizeof({}) %zu\\n\", sizeof({}));\n", stringify!($ty), stringify!($ty));
        let mut rust = vec![(format!("sizeof({})", stringify!($ty)), size_of::<$ty>() as i64)];
        $(
            c += &format!("printf(\"{0}.{1} %zu\\n\", offsetof({0}, {1}));\n", stringify!($ty), stringify!($field));
            rust.push((format!("{}.{}", stringify!($ty), stringify!($field)), offset_of!($ty, $field) as i64));
        )*
        (c, rust)
    }};
}

#[test]
fn structures_are_laid_out_as_the_header_lays_them_out() {
    let parts = [
        layout!(hipDeviceProp_t: name, totalGlobalMem, sharedMemPerBlock, regsPerBlock, warpSize,
            maxThreadsPerBlock, maxThreadsDim, maxGridSize, clockRate, memoryClockRate, memoryBusWidth,
            totalConstMem, major, minor, multiProcessorCount, l2CacheSize, maxThreadsPerMultiProcessor,
            computeMode, clockInstructionRate, arch, concurrentKernels, pciDomainID, pciBusID,
            pciDeviceID, maxSharedMemoryPerMultiProcessor, isMultiGpuBoard, canMapHostMemory, gcnArch,
            gcnArchName, integrated, cooperativeLaunch, cooperativeMultiDeviceLaunch,
            maxTexture1DLinear, maxTexture1D, maxTexture2D, maxTexture3D, hdpMemFlushCntl,
            hdpRegFlushCntl, memPitch, textureAlignment, texturePitchAlignment,
            kernelExecTimeoutEnabled, ECCEnabled, tccDriver, cooperativeMultiDeviceUnmatchedFunc,
            cooperativeMultiDeviceUnmatchedGridDim, cooperativeMultiDeviceUnmatchedBlockDim,
            cooperativeMultiDeviceUnmatchedSharedMem, isLargeBar, asicRevision, managedMemory,
            directManagedMemAccessFromHost, concurrentManagedAccess, pageableMemoryAccess,
            pageableMemoryAccessUsesHostPageTables),
        layout!(hipPointerAttribute_t: memoryType, device, devicePointer, hostPointer, isManaged,
            allocationFlags),
        layout!(hipFuncAttributes: binaryVersion, cacheModeCA, constSizeBytes, localSizeBytes,
            maxDynamicSharedSizeBytes, maxThreadsPerBlock, numRegs, preferredShmemCarveout,
            ptxVersion, sharedSizeBytes),
        layout!(hipChannelFormatDesc: x, y, z, w, f),
        layout!(dim3: x, y, z),
    ];
    let c: String = parts.iter().map(|p| p.0.as_str()).collect();
    let header = from_header(&c);
    let rust: Vec<(String, i64)> = parts.iter().flat_map(|p| p.1.clone()).collect();
    assert_eq!(
        header.len(),
        rust.len(),
        "the header check printed {header:?}"
    );
    let differ: Vec<_> = rust.iter().zip(&header).filter(|(r, h)| r != h).collect();
    println!(
        "{} sizes and offsets compared, {} agree",
        rust.len(),
        rust.len() - differ.len()
    );
    assert!(differ.is_empty(), "Rust vs header: {differ:?}");
}

#[test]
fn constants_have_the_header_values() {
    let mut c = String::new();
    let mut rust: Vec<(String, i64)> = Vec::new();
    let mut constant = |c_expr: &str, value: i64| {
        c += &format!("printf(\"{c_expr} %lld\\n\", (long long)({c_expr}));\n");
        rust.push((c_expr.to_string(), value));
    };
    for &(code, name, _) in ERRORS {
        constant(name, code as i64);
    }
    constant("HIP_VERSION", HIP_VERSION as i64);
    constant(
        "(size_t)HIP_LAUNCH_PARAM_BUFFER_POINTER",
        HIP_LAUNCH_PARAM_BUFFER_POINTER as i64,
    );
    constant(
        "(size_t)HIP_LAUNCH_PARAM_BUFFER_SIZE",
        HIP_LAUNCH_PARAM_BUFFER_SIZE as i64,
    );
    constant("(size_t)HIP_LAUNCH_PARAM_END", HIP_LAUNCH_PARAM_END as i64);
    constant("hipMemcpyDefault", hipMemcpyDefault as i64);
    constant("hipMemoryTypeDevice", hipMemoryTypeDevice as i64);
    for (name, value) in [
        ("EccEnabled", attr::EccEnabled),
        ("CanMapHostMemory", attr::CanMapHostMemory),
        ("ClockRate", attr::ClockRate),
        ("ComputeMode", attr::ComputeMode),
        ("ConcurrentKernels", attr::ConcurrentKernels),
        ("ConcurrentManagedAccess", attr::ConcurrentManagedAccess),
        ("CooperativeLaunch", attr::CooperativeLaunch),
        (
            "CooperativeMultiDeviceLaunch",
            attr::CooperativeMultiDeviceLaunch,
        ),
        (
            "DirectManagedMemAccessFromHost",
            attr::DirectManagedMemAccessFromHost,
        ),
        ("Integrated", attr::Integrated),
        ("IsMultiGpuBoard", attr::IsMultiGpuBoard),
        ("KernelExecTimeout", attr::KernelExecTimeout),
        ("L2CacheSize", attr::L2CacheSize),
        ("ComputeCapabilityMajor", attr::ComputeCapabilityMajor),
        ("ManagedMemory", attr::ManagedMemory),
        ("MaxBlockDimX", attr::MaxBlockDimX),
        ("MaxBlockDimY", attr::MaxBlockDimY),
        ("MaxBlockDimZ", attr::MaxBlockDimZ),
        ("MaxGridDimX", attr::MaxGridDimX),
        ("MaxGridDimY", attr::MaxGridDimY),
        ("MaxGridDimZ", attr::MaxGridDimZ),
        ("MaxThreadsPerBlock", attr::MaxThreadsPerBlock),
        (
            "MaxThreadsPerMultiProcessor",
            attr::MaxThreadsPerMultiProcessor,
        ),
        ("MaxPitch", attr::MaxPitch),
        ("MemoryBusWidth", attr::MemoryBusWidth),
        ("MemoryClockRate", attr::MemoryClockRate),
        ("ComputeCapabilityMinor", attr::ComputeCapabilityMinor),
        ("MultiprocessorCount", attr::MultiprocessorCount),
        ("PageableMemoryAccess", attr::PageableMemoryAccess),
        ("PciBusId", attr::PciBusId),
        ("PciDeviceId", attr::PciDeviceId),
        ("PciDomainID", attr::PciDomainID),
        ("MaxRegistersPerBlock", attr::MaxRegistersPerBlock),
        (
            "MaxRegistersPerMultiprocessor",
            attr::MaxRegistersPerMultiprocessor,
        ),
        ("MaxSharedMemoryPerBlock", attr::MaxSharedMemoryPerBlock),
        ("SharedMemPerBlockOptin", attr::SharedMemPerBlockOptin),
        ("StreamPrioritiesSupported", attr::StreamPrioritiesSupported),
        ("TextureAlignment", attr::TextureAlignment),
        ("TexturePitchAlignment", attr::TexturePitchAlignment),
        ("TotalConstantMemory", attr::TotalConstantMemory),
        ("UnifiedAddressing", attr::UnifiedAddressing),
        ("WarpSize", attr::WarpSize),
        ("ClockInstructionRate", attr::ClockInstructionRate),
        (
            "MaxSharedMemoryPerMultiprocessor",
            attr::MaxSharedMemoryPerMultiprocessor,
        ),
        ("GcnArch", attr::GcnArch),
        ("IsLargeBar", attr::IsLargeBar),
        ("AsicRevision", attr::AsicRevision),
        ("ImageSupport", attr::ImageSupport),
        (
            "PhysicalMultiProcessorCount",
            attr::PhysicalMultiProcessorCount,
        ),
        ("FineGrainSupport", attr::FineGrainSupport),
    ] {
        c += &format!("printf(\"{name} %d\\n\", (int)hipDeviceAttribute{name});\n");
        rust.push((name.to_string(), value as i64));
    }
    let header = from_header(&c);
    assert_eq!(
        header.len(),
        rust.len(),
        "the header check printed {header:?}"
    );
    let differ: Vec<_> = rust.iter().zip(&header).filter(|(r, h)| r != h).collect();
    println!(
        "{} constants compared, {} agree",
        rust.len(),
        rust.len() - differ.len()
    );
    assert!(differ.is_empty(), "Rust vs header: {differ:?}");
}

#[test]
fn every_symbol_of_rocms_library_is_defined() {
    // The list the version script is made from is Debian's libamdhip64.so.5's; the stub
    // generator fails if the sources define a symbol outside it. Here: the list itself is
    // whole (names and versions), and where ROCm's library is installed, still the same.
    let list = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/abi/libamdhip64.symbols"
    ))
    .unwrap();
    let ours: Vec<&str> = list.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(ours.len(), 409);
    let rocm = "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5";
    if std::path::Path::new(rocm).exists() {
        let out = Command::new("nm")
            .args(["-D", "--with-symbol-versions", "--defined-only", rocm])
            .output()
            .unwrap();
        let mut theirs: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                let (_, kind, sym) = (f.next()?, f.next()?, f.next()?);
                matches!(kind, "T" | "W").then(|| sym.replacen("@@", " ", 1))
            })
            .collect();
        theirs.sort();
        println!("{} symbols compared with {rocm}", theirs.len());
        assert_eq!(ours, theirs.iter().map(String::as_str).collect::<Vec<_>>());
    }
}
