//! Unit tests of the image instructions.
