//! The parsed form of a launch description.

use serde_json::Value;

use super::compare::Tolerance;
use super::convert::Number;
use super::types::ElemType;

/// A whole launch description: buffers, launches and outputs, plus the JSON it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchDescription {
    /// The optional top-level `description` text.
    pub description: Option<String>,
    /// The buffers, in file order (the order they are created in).
    pub buffers: Vec<BufferSpec>,
    /// The launches, in the order they run.
    pub launches: Vec<LaunchSpec>,
    /// The output buffers and their tolerances, in file order.
    pub outputs: Vec<OutputSpec>,
    /// The whole file as JSON, object keys in file order, with every key this module does not
    /// read (`reference`, `reference_note`, `note`, ...) for the runners that use them.
    pub raw: Value,
}

impl LaunchDescription {
    /// The buffer called `name`.
    pub fn buffer(&self, name: &str) -> Option<&BufferSpec> {
        self.buffers.iter().find(|b| b.name == name)
    }

    /// The position of buffer `name` in [`LaunchDescription::buffers`].
    pub fn buffer_index(&self, name: &str) -> Option<usize> {
        self.buffers.iter().position(|b| b.name == name)
    }

    /// The output entry of buffer `name`, if it is an output.
    pub fn output(&self, name: &str) -> Option<&OutputSpec> {
        self.outputs.iter().find(|o| o.name == name)
    }

    /// A top-level key of the file as written, such as `reference`, `reference_note` or
    /// `note`, which other runners use and this module keeps without interpreting.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.raw.get(key)
    }
}

/// One global-memory buffer: its type, size and initial contents.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferSpec {
    /// The buffer's name, the key in `buffers`; also names its `.in.bin`/`.out.bin` files.
    pub name: String,
    /// The element type.
    pub elem: ElemType,
    /// The number of elements (a vector element counts once).
    pub count: u64,
    /// How the flat array of `count * lanes` scalars is generated.
    pub init: Init,
    /// Sort the generated scalars ascending before `set` applies: by value, stably (so -0 and
    /// +0 keep their order), NaNs last; integers as signed or unsigned per their type.
    pub sorted: bool,
    /// Single scalars overwritten last, in order.
    pub set: Vec<SetEntry>,
}

/// A generator of a buffer's initial scalars (the `init` object).
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// Every scalar 0.
    Zeros,
    /// Every scalar `value` (integers modulo 2^bits, floats rounded to nearest even).
    Fill {
        /// The value.
        value: Number,
    },
    /// Scalar `i` is `start + step * i`: in float64 for float types, in int64 (wrapping) for
    /// integer types, which take integer `start` and `step` only.
    Iota {
        /// The first value (default 0).
        start: Number,
        /// The increment (default 1).
        step: Number,
    },
    /// Scalar `i` is `lo + (x_i mod (hi - lo + 1))` with `x_i` the splitmix64 output `i`.
    RandInt {
        /// The smallest value.
        lo: i128,
        /// The largest value (inclusive).
        hi: i128,
        /// The splitmix64 seed.
        seed: u64,
    },
    /// Scalar `i` is `lo + (hi - lo) * u_i` in float64, `u_i` uniform in [0, 1) from
    /// splitmix64 output `i`, rounded to nearest even into the element type.
    RandFloat {
        /// The lower end.
        lo: f64,
        /// The upper end (not reached).
        hi: f64,
        /// The splitmix64 seed.
        seed: u64,
    },
}

/// One `[index, value]` pair of a buffer's `set` list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetEntry {
    /// The flat scalar index (element `index / lanes`, lane `index % lanes`).
    pub index: u64,
    /// The value, converted like a `fill` value.
    pub value: Number,
}

/// One kernel launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchSpec {
    /// The kernel's name in the code object's metadata.
    pub kernel: String,
    /// The number of dimensions, 1 to 3.
    pub dims: u32,
    /// Work-items per dimension; dimensions beyond `dims` are 1.
    pub global: [u64; 3],
    /// Work-group size per dimension (each at least 1); dimensions beyond `dims` are 1.
    pub local: [u64; 3],
    /// Global work offset per dimension; 0 where not given.
    pub offset: [u64; 3],
    /// The explicit kernel arguments, in parameter order.
    pub args: Vec<ArgSpec>,
}

impl LaunchSpec {
    /// Work-groups per dimension: `ceil(global / local)` (the last one may be partial).
    pub fn group_counts(&self) -> [u64; 3] {
        std::array::from_fn(|d| self.global[d].div_ceil(self.local[d].max(1)))
    }
}

/// One explicit kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgSpec {
    /// The address of a buffer (a `global` or `constant` pointer).
    Buffer {
        /// The buffer's name; always one of the description's buffers.
        name: String,
    },
    /// A by-value argument.
    Scalar {
        /// Its type.
        elem: ElemType,
        /// Its value as little-endian bytes, `elem.size_bytes()` of them.
        bytes: Vec<u8>,
    },
    /// A by-value struct (an extension of the spec, `"kind": "struct"`): its bytes, padding
    /// zeroed.
    Struct {
        /// The struct's bytes.
        bytes: Vec<u8>,
    },
    /// A `local` pointer to a dynamic LDS block of `bytes` bytes per work-group.
    Local {
        /// The size of the block.
        bytes: u64,
        /// The element type the description names (informational), if any.
        elem: Option<ElemType>,
    },
}

/// An output buffer and the tolerance its final contents must meet.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputSpec {
    /// The buffer's name; always one of the description's buffers.
    pub name: String,
    /// How its contents are compared with the reference.
    pub tolerance: Tolerance,
}
