//! The one error type of the module, and the paths (`buffers.x.init.kind`,
//! `launches[2].args[1]`) its messages start with.

use std::path::PathBuf;

/// Everything that can go wrong with a launch description, its buffers or their files.
///
/// Each variant says where: a position in the JSON text, a path into the description, or a
/// file. The `Display` form is one line, ready to print after `error: `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// The text is not JSON.
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    Json {
        /// Line of the error, from 1.
        line: usize,
        /// Column of the error, from 1.
        column: usize,
        /// What the JSON reader found wrong.
        message: String,
    },
    /// The JSON is well formed but the description is not valid, or a buffer cannot be
    /// generated.
    #[error("{at}: {message}")]
    Invalid {
        /// Where, as a path into the description: `buffers.x.init.kind`, `launches[2].args[1]`,
        /// `outputs.y`, or `top level`.
        at: String,
        /// What is wrong there.
        message: String,
    },
    /// Reading or writing a buffer file failed, or an input file has the wrong size.
    #[error("{}: {message}", path.display())]
    File {
        /// The file (or directory) concerned.
        path: PathBuf,
        /// What went wrong with it.
        message: String,
    },
}

impl LaunchError {
    /// An [`LaunchError::Invalid`] at `at`.
    pub(crate) fn invalid(at: impl Into<String>, message: impl Into<String>) -> LaunchError {
        LaunchError::Invalid {
            at: at.into(),
            message: message.into(),
        }
    }
}

/// The path of member `key` of the object at `parent` (`""` is the top level).
///
/// Keys that are not plain words (a buffer called `a.b` or `my buffer`) are written as a
/// quoted index, `buffers["a.b"]`, so the path stays unambiguous.
pub(crate) fn child(parent: &str, key: &str) -> String {
    let plain = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    match (parent.is_empty(), plain) {
        (true, true) => key.to_string(),
        (false, true) => format!("{parent}.{key}"),
        (_, false) => format!("{parent}[{key:?}]"),
    }
}

/// The path of element `index` of the array at `parent`.
pub(crate) fn item(parent: &str, index: usize) -> String {
    format!("{parent}[{index}]")
}

/// The path of buffer `name`'s entry in `buffers`.
pub(crate) fn buffer_path(name: &str) -> String {
    child("buffers", name)
}
