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

/// MTBUF data format names, by value (`format:[BUF_DATA_FORMAT_...]`).
pub const BUF_DATA_FORMATS: [&str; 16] = [
    "BUF_DATA_FORMAT_INVALID",
    "BUF_DATA_FORMAT_8",
    "BUF_DATA_FORMAT_16",
    "BUF_DATA_FORMAT_8_8",
    "BUF_DATA_FORMAT_32",
    "BUF_DATA_FORMAT_16_16",
    "BUF_DATA_FORMAT_10_11_11",
    "BUF_DATA_FORMAT_11_11_10",
    "BUF_DATA_FORMAT_10_10_10_2",
    "BUF_DATA_FORMAT_2_10_10_10",
    "BUF_DATA_FORMAT_8_8_8_8",
    "BUF_DATA_FORMAT_32_32",
    "BUF_DATA_FORMAT_16_16_16_16",
    "BUF_DATA_FORMAT_32_32_32",
    "BUF_DATA_FORMAT_32_32_32_32",
    "BUF_DATA_FORMAT_RESERVED_15",
];

/// MTBUF number format names, by value, as LLVM spells them on gfx8 and later.
const BUF_NUM_FORMATS: [&str; 8] = [
    "BUF_NUM_FORMAT_UNORM",
    "BUF_NUM_FORMAT_SNORM",
    "BUF_NUM_FORMAT_USCALED",
    "BUF_NUM_FORMAT_SSCALED",
    "BUF_NUM_FORMAT_UINT",
    "BUF_NUM_FORMAT_SINT",
    "BUF_NUM_FORMAT_RESERVED_6",
    "BUF_NUM_FORMAT_FLOAT",
];

/// The name of MTBUF number format `n` on `gen` (gfx6/gfx7 call 6 `SNORM_OGL`).
pub fn buf_num_format_name(gen: crate::Gen, n: u32) -> Option<&'static str> {
    match n {
        6 if gen.is_si_ci() => Some("BUF_NUM_FORMAT_SNORM_OGL"),
        _ => BUF_NUM_FORMATS.get(n as usize).copied(),
    }
}
