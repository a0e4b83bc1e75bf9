//! Hand-written references for the launch descriptions whose `reference` is `manual`: kernels
//! that use AMD wave builtins (DPP, ds_swizzle, readlane, ballot, mbcnt, ds_append, MFMA) or
//! compute in half precision, none of which pocl can run.
//!
//! Each reference simulates its kernel's OpenCL source over the description's NDRange, one
//! wave64 at a time where lanes talk to each other, with every cross-lane or matrix operation
//! written from its definition in the ISA documents (see `lanes.rs` and `mfma.rs`) and every
//! rounding from IEEE 754 (see `fp.rs`). Nothing here calls into the emulator: the launch
//! description API is used only to read descriptions.
//!
//! Where a kernel takes a different path per target (`#if GCN_HAS_DPP`, the dot-product
//! instructions of gfx906+, the MFMA kernels of CDNA), the reference takes the same branch
//! for the target it is asked about ([`Target`]).

// A lane or element index is the natural loop variable of these simulations.
#![allow(clippy::needless_range_loop)]

use std::collections::BTreeMap;

use gcnkit_emu::launch::{ArgSpec, LaunchDescription, LaunchSpec};

pub mod fp;
pub mod lanes;
pub mod mfma;

mod dpp_reduce;
mod fp16;
mod gemv_wave;
mod intrinsics_misc;
mod mfma_gemm;
mod reduce_sum;
mod softmax_layernorm;
mod swizzle;
mod wave_ops;

#[cfg(test)]
mod checks;

/// Errors are plain messages: a reference that cannot be computed says why.
pub type R<T> = Result<T, String>;

/// The targets of the kernel corpus (`scripts/build-kernels.sh`).
pub const TARGETS: [&str; 8] = [
    "gfx600", "gfx700", "gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
];

/// A corpus target and the `tests/kernels/gcn.h` feature macros it selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The LLVM processor name.
    pub name: &'static str,
}

impl Target {
    /// The target called `name`, if it is one of the corpus's.
    pub fn parse(name: &str) -> R<Target> {
        TARGETS
            .iter()
            .find(|t| **t == name)
            .map(|t| Target { name: t })
            .ok_or_else(|| format!("{name} is not a target of the kernel corpus"))
    }

    /// `GCN_GEN` of gcn.h: 6 for gfx600 and gfx700 alike, 8 for gfx803, 9 otherwise.
    pub fn gcn_gen(self) -> u32 {
        match self.name {
            "gfx600" | "gfx700" => 6,
            "gfx803" => 8,
            _ => 9,
        }
    }

    /// `GCN_HAS_DPP` of gcn.h (`GCN_GEN >= 8`): DPP, ds_bpermute/ds_permute.
    pub fn has_dpp(self) -> bool {
        self.gcn_gen() >= 8
    }

    /// `GCN_HAS_MFMA` of gcn.h: gfx908, gfx90a, gfx942.
    pub fn has_mfma(self) -> bool {
        matches!(self.name, "gfx908" | "gfx90a" | "gfx942")
    }

    /// The `#if` of intrinsics_misc.cl's dot_products: gfx906, gfx908, gfx90a, gfx942.
    pub fn has_dot_insts(self) -> bool {
        matches!(self.name, "gfx906" | "gfx908" | "gfx90a" | "gfx942")
    }
}

/// A little-endian scalar that buffers are made of.
pub trait Scalar: Copy {
    /// Its size in bytes.
    const SIZE: usize;
    /// Reads one from exactly `SIZE` bytes.
    fn read(bytes: &[u8]) -> Self;
    /// Writes it into exactly `SIZE` bytes.
    fn write(self, bytes: &mut [u8]);
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn read(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("slice of the scalar's size"))
            }
            fn write(self, bytes: &mut [u8]) {
                bytes.copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
scalar!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// The global buffers of a description by name, as the reference updates them launch by launch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Memory {
    /// Raw little-endian contents per buffer.
    pub bufs: BTreeMap<String, Vec<u8>>,
}

impl Memory {
    /// Buffer `name` read as an array of `T`.
    pub fn get<T: Scalar>(&self, name: &str) -> R<Vec<T>> {
        let bytes = self
            .bufs
            .get(name)
            .ok_or_else(|| format!("no buffer {name}"))?;
        if bytes.len() % T::SIZE != 0 {
            return Err(format!(
                "buffer {name}: {} bytes is not a whole number of {}-byte scalars",
                bytes.len(),
                T::SIZE
            ));
        }
        Ok(bytes.chunks_exact(T::SIZE).map(T::read).collect())
    }

    /// Overwrites buffer `name` with `values`, which must have the buffer's size exactly.
    pub fn put<T: Scalar>(&mut self, name: &str, values: &[T]) -> R<()> {
        let bytes = self
            .bufs
            .get_mut(name)
            .ok_or_else(|| format!("no buffer {name}"))?;
        if bytes.len() != values.len() * T::SIZE {
            return Err(format!(
                "buffer {name}: writing {} bytes into {}",
                values.len() * T::SIZE,
                bytes.len()
            ));
        }
        for (chunk, v) in bytes.chunks_exact_mut(T::SIZE).zip(values) {
            v.write(chunk);
        }
        Ok(())
    }
}

/// The explicit arguments of one launch, read by position as the kernel declares them.
pub struct Args<'a> {
    launch: &'a LaunchSpec,
}

impl<'a> Args<'a> {
    /// The arguments of `launch`, which must number exactly `count`.
    pub fn new(launch: &'a LaunchSpec, count: usize) -> R<Args<'a>> {
        if launch.args.len() != count {
            return Err(format!(
                "kernel {} takes {count} arguments, the launch gives {}",
                launch.kernel,
                launch.args.len()
            ));
        }
        Ok(Args { launch })
    }

    /// The name of the buffer passed as argument `i`.
    pub fn buffer(&self, i: usize) -> R<&'a str> {
        match &self.launch.args[i] {
            ArgSpec::Buffer { name } => Ok(name),
            other => Err(format!(
                "argument {i} of {} should be a buffer, is {other:?}",
                self.launch.kernel
            )),
        }
    }

    fn scalar<const N: usize>(&self, i: usize) -> R<[u8; N]> {
        match &self.launch.args[i] {
            ArgSpec::Scalar { bytes, .. } if bytes.len() == N => {
                Ok(bytes.as_slice().try_into().expect("N bytes"))
            }
            other => Err(format!(
                "argument {i} of {} should be a {N}-byte scalar, is {other:?}",
                self.launch.kernel
            )),
        }
    }

    /// Argument `i` as an `int`.
    pub fn i32(&self, i: usize) -> R<i32> {
        self.scalar::<4>(i).map(i32::from_le_bytes)
    }

    /// Argument `i` as a `uint`.
    pub fn u32(&self, i: usize) -> R<u32> {
        self.scalar::<4>(i).map(u32::from_le_bytes)
    }

    /// Argument `i` as a `float`.
    pub fn f32(&self, i: usize) -> R<f32> {
        self.scalar::<4>(i).map(f32::from_le_bytes)
    }

    /// Argument `i` as a `half` (its bits).
    pub fn f16(&self, i: usize) -> R<u16> {
        self.scalar::<2>(i).map(u16::from_le_bytes)
    }
}

/// The NDRange of a launch that the references model: no global offset, and either one
/// dimension (a partial last group allowed) or whole work-groups in every dimension.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    /// Work-items per dimension.
    pub global: [usize; 3],
    /// Work-group size per dimension.
    pub local: [usize; 3],
}

impl Grid {
    /// The grid of `launch`, checked against what the references model.
    pub fn of(launch: &LaunchSpec) -> R<Grid> {
        if launch.offset != [0, 0, 0] {
            return Err(format!(
                "{}: global offsets are not modelled by the references",
                launch.kernel
            ));
        }
        let global = launch.global.map(|g| g as usize);
        let local = launch.local.map(|l| l as usize);
        if launch.dims > 1 && (0..3).any(|d| global[d] % local[d] != 0) {
            return Err(format!(
                "{}: partial work-groups in a multi-dimensional grid are not modelled",
                launch.kernel
            ));
        }
        Ok(Grid { global, local })
    }

    /// Work-groups per dimension (the last one in x may be partial).
    pub fn groups(&self) -> [usize; 3] {
        std::array::from_fn(|d| self.global[d].div_ceil(self.local[d]))
    }

    /// Requires a one-dimensional grid; returns (global, local).
    pub fn one_d(&self, kernel: &str) -> R<(usize, usize)> {
        if self.global[1] != 1 || self.global[2] != 1 {
            return Err(format!("{kernel}: expected a one-dimensional launch"));
        }
        Ok((self.global[0], self.local[0]))
    }

    /// Requires a one-dimensional grid made of whole waves (every wave has 64 active lanes,
    /// though the last work-group may hold fewer waves), as the cross-lane references assume;
    /// returns (global, local).
    pub fn full_waves(&self, kernel: &str) -> R<(usize, usize)> {
        let (g, l) = self.one_d(kernel)?;
        if l % 64 != 0 || g % 64 != 0 {
            return Err(format!(
                "{kernel}: the reference needs whole waves of 64 (global {g}, local {l})"
            ));
        }
        Ok((g, l))
    }

    /// Requires a one-dimensional grid of whole work-groups of `local` work-items (a kernel's
    /// reqd_work_group_size); returns the number of groups.
    pub fn whole_groups(&self, kernel: &str, local: usize) -> R<usize> {
        let (g, l) = self.one_d(kernel)?;
        if l != local || g % l != 0 {
            return Err(format!("{kernel}: the reference needs whole work-groups of {local} (global {g}, local {l})"));
        }
        Ok(g / l)
    }
}

/// Requires the buffer to hold at least `n` elements, so a reference cannot read past it where
/// the kernel would read memory the description does not define.
pub fn need<T>(name: &str, v: &[T], n: usize) -> R<()> {
    if v.len() < n {
        return Err(format!(
            "buffer {name} has {} elements, the kernel reads {n}",
            v.len()
        ));
    }
    Ok(())
}

/// The targets a description applies to: its `targets` key if it has one, else every target.
pub fn description_targets(desc: &LaunchDescription) -> R<Vec<Target>> {
    match desc.get("targets") {
        None => TARGETS.iter().map(|t| Target::parse(t)).collect(),
        Some(v) => {
            let list = v.as_array().ok_or("`targets` is not a list")?;
            list.iter()
                .map(|t| {
                    t.as_str()
                        .ok_or_else(|| format!("`targets` entry {t} is not a string"))
                        .and_then(Target::parse)
                })
                .collect()
        }
    }
}

/// Runs the reference of every launch of `desc` (kernel file `stem`) for `target`, starting
/// from `initial` (every buffer's initial bytes), and returns every buffer's final bytes.
pub fn reference(
    stem: &str,
    desc: &LaunchDescription,
    target: Target,
    initial: &Memory,
) -> R<Memory> {
    let mut mem = initial.clone();
    for (i, launch) in desc.launches.iter().enumerate() {
        let run = match stem {
            "dpp_reduce" => dpp_reduce::run,
            "fp16" => fp16::run,
            "gemv_wave" => gemv_wave::run,
            "intrinsics_misc" => intrinsics_misc::run,
            "mfma_gemm" => mfma_gemm::run,
            "reduce_sum" => reduce_sum::run,
            "softmax_layernorm" => softmax_layernorm::run,
            "swizzle" => swizzle::run,
            "wave_ops" => wave_ops::run,
            _ => {
                return Err(format!(
                    "no hand-written reference for kernel file {stem}.cl"
                ))
            }
        };
        run(launch, target, &mut mem)
            .map_err(|e| format!("launch {i} ({}): {e}", launch.kernel))?;
    }
    Ok(mem)
}

/// The error for a kernel name a reference module does not know.
pub fn unknown_kernel(launch: &LaunchSpec) -> R<()> {
    Err(format!(
        "no hand-written reference for kernel {}",
        launch.kernel
    ))
}
