//! The library's front door: a device with its memory, code objects loaded into it, and
//! kernel launches. Device addresses are plain 64-bit values, so a caller (a CLI, a Python
//! module, a HIP runtime) may allocate, copy, launch several kernels on the same memory and
//! read back in any order.

use crate::dispatch::{launch_with_dynamic_lds, ArgValue, Grid, LaunchOptions, LaunchStats};
use crate::error::EmuError;
use crate::loader::{load, select_code_object, Module};
use crate::memory::Memory;

/// An emulated device.
pub struct Device {
    mem: Memory,
    options: LaunchOptions,
    dispatches: u64,
    totals: LaunchStats,
}

impl Default for Device {
    fn default() -> Self {
        Device::new()
    }
}

impl Device {
    /// A device with empty memory and default launch options.
    pub fn new() -> Device {
        Device {
            mem: Memory::new(),
            options: LaunchOptions::default(),
            dispatches: 0,
            totals: LaunchStats::default(),
        }
    }

    /// Sets the worker-thread count (0 = one per core) and the per-wave instruction limit.
    pub fn set_options(&mut self, options: LaunchOptions) {
        self.options = options;
    }

    /// The launch options.
    pub fn options(&self) -> LaunchOptions {
        self.options
    }

    /// Allocates `size` bytes of zeroed device memory, page-aligned.
    pub fn allocate(&mut self, size: u64) -> Result<u64, EmuError> {
        Ok(self.mem.allocate(size, 4096)?)
    }

    /// Frees an allocation.
    pub fn free(&mut self, addr: u64) -> Result<(), EmuError> {
        Ok(self.mem.free(addr)?)
    }

    /// Copies `bytes` to device address `addr`.
    pub fn write(&mut self, addr: u64, bytes: &[u8]) -> Result<(), EmuError> {
        Ok(self.mem.write(addr, bytes)?)
    }

    /// Copies `len` bytes from device address `addr`.
    pub fn read(&self, addr: u64, len: u64) -> Result<Vec<u8>, EmuError> {
        Ok(self.mem.read(addr, len)?)
    }

    /// The device memory.
    pub fn memory(&self) -> &Memory {
        &self.mem
    }

    /// Loads a code object, or the code object for `mcpu` (or the only one) from an
    /// offload bundle or a HIP fat binary.
    pub fn load(&mut self, file: &[u8], mcpu: Option<&str>) -> Result<Module, EmuError> {
        let bytes = select_code_object(file, mcpu)?;
        load(&mut self.mem, &bytes)
    }

    /// Runs `kernel` of `module` over `grid` with one value per explicit argument, and waits
    /// for it to complete.
    pub fn launch(
        &mut self,
        module: &Module,
        kernel: &str,
        grid: &Grid,
        args: &[ArgValue],
    ) -> Result<LaunchStats, EmuError> {
        self.launch_with_dynamic_lds(module, kernel, grid, args, 0)
    }

    /// [`Device::launch`] with `dynamic_lds` bytes of LDS per work-group after the kernel's
    /// static LDS (HIP's dynamic shared memory).
    pub fn launch_with_dynamic_lds(
        &mut self,
        module: &Module,
        kernel: &str,
        grid: &Grid,
        args: &[ArgValue],
        dynamic_lds: u32,
    ) -> Result<LaunchStats, EmuError> {
        let k = module.kernel(kernel).ok_or_else(|| EmuError::NoKernel {
            name: kernel.to_string(),
            available: module
                .kernels
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        self.dispatches += 1;
        let stats = launch_with_dynamic_lds(
            &mut self.mem,
            module,
            k,
            grid,
            args,
            dynamic_lds,
            &self.options,
            self.dispatches,
        )?;
        self.totals.workgroups += stats.workgroups;
        self.totals.waves += stats.waves;
        self.totals.wave_instructions += stats.wave_instructions;
        self.totals.exec_seconds += stats.exec_seconds;
        Ok(stats)
    }

    /// Statistics summed over every launch so far (the exports stay with each launch's
    /// own statistics).
    pub fn totals(&self) -> LaunchStats {
        self.totals.clone()
    }
}
