//! Diagnostics: a byte range of the statement and a message worded as llvm-mc words it.

use std::ops::Range;

/// One problem found in a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// Byte range in the statement text.
    pub span: Range<usize>,
    /// The message, as llvm-mc words it wherever feasible.
    pub message: String,
}

impl AsmError {
    /// An error at `span`.
    pub fn new(span: Range<usize>, message: impl Into<String>) -> AsmError {
        AsmError {
            span,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for AsmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}..{}: {}",
            self.span.start, self.span.end, self.message
        )
    }
}

impl std::error::Error for AsmError {}
