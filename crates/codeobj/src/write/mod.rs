//! The writing half of code objects: what an assembler needs to turn `.amdhsa_kernel` blocks
//! and `.amdgpu_metadata` blocks into bytes exactly as LLVM 19's `llvm-mc` does.
//!
//! - [`descriptor_from_directives`]: the 64-byte kernel descriptor of one
//!   `.amdhsa_kernel NAME ... .end_amdhsa_kernel` block, with LLVM's defaults, checks and
//!   error messages.
//! - [`metadata_note_from_yaml`]: the `.note` section contents (one `NT_AMDGPU_METADATA`
//!   record) of an `.amdgpu_metadata ... .end_amdgpu_metadata` block.
//!
//! The linker that turns a relocatable object into a loadable code object is
//! [`crate::link`].

mod amdhsa_error;
mod amdhsa_kernel;
mod amdhsa_table;
mod metadata_check;
mod metadata_note;
mod msgpack_writer;
mod yaml_doc;

pub use amdhsa_error::{AmdhsaError, AmdhsaErrorKind};
pub use amdhsa_kernel::{
    descriptor_from_directives, kernel_descriptor_from_directives, AmdhsaDirective,
};
pub use amdhsa_table::directive_names;
pub use metadata_note::{
    metadata_msgpack_from_yaml, metadata_note_from_yaml, metadata_value_from_yaml, note_record,
    MetadataError,
};
