//! The inline constants of the source operands, shared by the printer and the assembler.

/// Bit patterns of the inline float constants 240..=247 (0.5, -0.5, 1.0, -1.0, 2.0, -2.0,
/// 4.0, -4.0) and 248 (1/(2π)) as 16-bit floats.
pub const INLINE_FLOAT_F16: [u64; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];

/// The same as 32-bit floats.
pub const INLINE_FLOAT_F32: [u64; 9] = [
    0x3f00_0000,
    0xbf00_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc000_0000,
    0x4080_0000,
    0xc080_0000,
    0x3e22_f983,
];

/// The same as 64-bit floats.
pub const INLINE_FLOAT_F64: [u64; 9] = [
    0x3fe0_0000_0000_0000,
    0xbfe0_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x4000_0000_0000_0000,
    0xc000_0000_0000_0000,
    0x4010_0000_0000_0000,
    0xc010_0000_0000_0000,
    0x3fc4_5f30_6dc9_c882,
];
