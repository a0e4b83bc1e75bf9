//! Launch descriptions (the JSON format `gcn run` reads, specified in `launch-spec.md`):
//! parsing and checking, buffer generation, buffer files, and output comparison.
//!
//! - [`LaunchDescription::parse`] reads and checks a description: buffers in file order,
//!   launches, outputs with their [`Tolerance`]s.
//! - [`BufferSpec::generate`] produces a buffer's initial bytes exactly as the format defines
//!   them (splitmix64, `randint`, `randfloat`, `iota`, `fill`, `sorted`, `set`); the rules for
//!   converting values into element types are under [Value conversions](#value-conversions).
//! - [`read_input`], [`initial_contents`] and [`write_buffer_files`] handle the
//!   `<name>.in.bin`/`<name>.out.bin` files.
//! - [`compare`] checks an output against the reference's bytes.
//!
//! # Value conversions
//!
//! - Into an integer type, an integer value is taken modulo 2^bits (two's complement), so `-1`
//!   and `0xFFFFFFFF` are the same `uint`. A JSON float counts as an integer when it is finite
//!   and integral (`3.0`, `1e3`). Integer values must lie within -2^63 ..= 2^64 - 1.
//! - A non-integral value is never truncated into an integer type: `fill`, `set`, `iota`,
//!   `randint` bounds and scalar arguments reject it with an error. The format computes integer
//!   `iota` in int64 and takes integers modulo 2^bits, so a fraction there is a mistake in the
//!   description, and a silent C-style truncation would hide it. The one place where a
//!   fractional value reaches an integer type is `randfloat`, whose rule is "rounded to nearest
//!   even into the element type": the float64 value is rounded to the nearest integer, ties to
//!   even, then taken modulo 2^bits; NaN, infinities and values outside the 64-bit range are
//!   errors.
//! - Into a float type, an integer is rounded once to nearest even from its exact value, and a
//!   float64 is rounded once to nearest even (for `half` directly, not through float32).
//!   Overflow gives an infinity, as IEEE rounding does. A NaN becomes the type's default quiet
//!   NaN with the same sign.

mod compare;
mod convert;
mod error;
mod files;
mod generate;
mod parse;
mod spec;
mod types;

pub use compare::{
    compare, CompareMode, Comparison, LengthMismatch, Mismatch, Tolerance, ToleranceKind,
    MAX_REPORTED,
};
pub use convert::Number;
pub use error::LaunchError;
pub use files::{initial_contents, read_input, write_buffer_files, write_file_atomic, BufferFile};
pub use generate::splitmix64;
pub use spec::{ArgSpec, BufferSpec, Init, LaunchDescription, LaunchSpec, OutputSpec, SetEntry};
pub use types::{ElemType, Scalar};

#[cfg(test)]
mod tests;
