//! Running a whole launch description on a code object: create the buffers, run the
//! launches in order, and hand back every buffer's final contents. `gcn run` and the tests
//! are thin layers over [`run_description`].

use std::path::Path;

use crate::device::Device;
use crate::dispatch::{ArgValue, Grid, LaunchOptions, LaunchStats};
use crate::error::EmuError;
use crate::launch::initial_contents;
use crate::launch::LaunchError;
use crate::launch::{ArgSpec, LaunchDescription};

/// What running a description gives.
#[derive(Debug)]
pub struct RunResult {
    /// Every buffer's initial contents, in description order.
    pub inputs: Vec<(String, Vec<u8>)>,
    /// Every buffer's final contents, in description order.
    pub buffers: Vec<(String, Vec<u8>)>,
    /// Statistics per launch.
    pub launches: Vec<LaunchStats>,
}

impl RunResult {
    /// Final contents of buffer `name`.
    pub fn buffer(&self, name: &str) -> Option<&[u8]> {
        self.buffers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }

    /// The statistics summed over all launches (exports: the count summed, no records; each
    /// launch's records are in [`RunResult::launches`]).
    pub fn totals(&self) -> LaunchStats {
        let mut t = LaunchStats::default();
        for s in &self.launches {
            t.workgroups += s.workgroups;
            t.waves += s.waves;
            t.wave_instructions += s.wave_instructions;
            t.exec_seconds += s.exec_seconds;
            t.exports.count += s.exports.count;
        }
        t
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The description or an input file is wrong.
    #[error(transparent)]
    Launch(#[from] LaunchError),
    /// Loading the code object or setting up buffers failed.
    #[error(transparent)]
    Setup(EmuError),
    /// A launch failed (index from 0, kernel name, the error).
    #[error("launch {index} (kernel {kernel}): {error}")]
    LaunchFailed {
        /// Index of the launch in the description.
        index: usize,
        /// Its kernel.
        kernel: String,
        /// What went wrong.
        error: EmuError,
    },
}

/// Runs `desc` on the code object (or bundle / fat binary) `code`.
pub fn run_description(
    desc: &LaunchDescription,
    code: &[u8],
    mcpu: Option<&str>,
    inputs: Option<&Path>,
    options: LaunchOptions,
) -> Result<RunResult, RunError> {
    let mut device = Device::new();
    device.set_options(options);
    let module = device.load(code, mcpu).map_err(RunError::Setup)?;
    let mut addrs = Vec::with_capacity(desc.buffers.len());
    let mut initial = Vec::with_capacity(desc.buffers.len());
    for b in &desc.buffers {
        let bytes = initial_contents(b, inputs)?;
        let addr = device
            .allocate(bytes.len() as u64)
            .map_err(RunError::Setup)?;
        device.write(addr, &bytes).map_err(RunError::Setup)?;
        addrs.push(addr);
        initial.push((b.name.clone(), bytes));
    }
    let mut launches = Vec::with_capacity(desc.launches.len());
    for (index, l) in desc.launches.iter().enumerate() {
        let fail = |error: EmuError| RunError::LaunchFailed {
            index,
            kernel: l.kernel.clone(),
            error,
        };
        let args: Vec<ArgValue> = l
            .args
            .iter()
            .map(|a| match a {
                ArgSpec::Buffer { name } => {
                    let i = desc.buffer_index(name).unwrap_or(0);
                    ArgValue::Bytes(addrs[i].to_le_bytes().to_vec())
                }
                ArgSpec::Scalar { bytes, .. } | ArgSpec::Struct { bytes } => {
                    ArgValue::Bytes(bytes.clone())
                }
                ArgSpec::Local { bytes, .. } => {
                    ArgValue::Local((*bytes).min(u32::MAX as u64) as u32)
                }
            })
            .collect();
        let too_big = |what: &str, v: u64| {
            fail(EmuError::BadLaunch {
                kernel: l.kernel.clone(),
                message: format!("{what} {v} does not fit 32 bits"),
            })
        };
        let mut global = [1u32; 3];
        let mut local = [1u32; 3];
        for d in 0..3 {
            global[d] =
                u32::try_from(l.global[d]).map_err(|_| too_big("global size", l.global[d]))?;
            local[d] = u32::try_from(l.local[d]).map_err(|_| too_big("local size", l.local[d]))?;
        }
        let grid = Grid {
            dims: l.dims,
            global,
            local,
            offset: l.offset,
        };
        let stats = device
            .launch(&module, &l.kernel, &grid, &args)
            .map_err(fail)?;
        launches.push(stats);
    }
    let mut buffers = Vec::with_capacity(desc.buffers.len());
    for (b, addr) in desc.buffers.iter().zip(&addrs) {
        let len = initial
            .iter()
            .find(|(n, _)| *n == b.name)
            .map_or(0, |(_, v)| v.len() as u64);
        let bytes = device.read(*addr, len).map_err(RunError::Setup)?;
        buffers.push((b.name.clone(), bytes));
    }
    Ok(RunResult {
        inputs: initial,
        buffers,
        launches,
    })
}
