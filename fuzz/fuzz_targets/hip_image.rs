//! The HIP runtime's reading of an image's size off its header (offload bundle or ELF), as
//! `__hipRegisterFatBinary` and `hipModuleLoadData` do for images handed over without a size:
//! never a panic, never a size read from outside the bytes given.
#![no_main]

use amdhip64::api::registration::{bundle_size, elf_size, image_size};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = bundle_size(data);
    let _ = elf_size(data);
    let _ = image_size(data);
});
