//! A HIP runtime on the gcnkit emulator: a stand-in for ROCm's `libamdhip64.so.5` that runs
//! the kernels of unmodified HIP programs on the CPU.
//!
//! The library exports every symbol ROCm's library exports, with the same symbol versions
//! (`abi/libamdhip64.symbols`, linked by `scripts/build-hip-runtime.sh`), so the dynamic
//! linker takes it in ROCm's place: `LD_LIBRARY_PATH=target/hip ./app`. Kernels run on the
//! emulated processor named by `GCNKIT_HIP_ARCH` (default: the newest processor the
//! program carries code for). Device memory is the emulator's; memory from `hipHostMalloc`
//! and `hipMallocManaged` is mapped at the same address on the host and kept in step at
//! every launch.

pub mod api;
pub mod runtime;
pub mod types;
