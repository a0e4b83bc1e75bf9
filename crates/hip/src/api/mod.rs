//! The exported entry points, by area. Every symbol ROCm's `libamdhip64.so.5` exports is
//! defined: here when the runtime does what it says, in [`stubs`] when it reports
//! `hipErrorNotSupported`.

pub mod device;
pub mod error;
pub mod launch;
pub mod memory;
pub mod misc;
pub mod module;
pub mod registration;
pub mod stream;
pub mod stubs;

use crate::runtime::{ret, runtime};
use crate::types::{hipErrorNotSupported, hipError_t};

/// Reports (once per entry point, on stderr) that `name` is not supported, and returns
/// `hipErrorNotSupported`.
pub fn unsupported(name: &str) -> hipError_t {
    let first = runtime().reported.insert(name.to_string());
    if first {
        eprintln!("gcnkit-hip: {name} is not supported by the emulator's runtime; it returns hipErrorNotSupported");
    }
    ret(hipErrorNotSupported)
}
