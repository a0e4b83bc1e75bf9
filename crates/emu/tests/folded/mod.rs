//! The parts of the folded-constant test: the operation table, the builds, the comparison.

pub(crate) mod build;
pub(crate) mod compare;
pub(crate) mod ops;
