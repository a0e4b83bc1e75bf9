//! Number formatting for the printers, without `core::fmt`: the printers append millions of
//! numbers, and the formatting machinery was the largest cost in profiles.

const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `value` in decimal.
#[inline]
pub fn push_u64(out: &mut String, mut value: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    push_ascii(out, &buf[i..]);
}

/// Appends bytes known to be ASCII digits.
#[inline]
fn push_ascii(out: &mut String, digits: &[u8]) {
    debug_assert!(digits.is_ascii());
    // SAFETY: every caller passes bytes taken from the ASCII digit tables above, and ASCII
    // is valid UTF-8. This is the hottest line of the printers; validating it cost 9%.
    out.push_str(unsafe { std::str::from_utf8_unchecked(digits) });
}

/// Appends `value` in decimal, with a minus sign when negative.
#[inline]
pub fn push_i64(out: &mut String, value: i64) {
    if value < 0 {
        out.push('-');
    }
    push_u64(out, value.unsigned_abs());
}

/// Appends `0x` and `value` in lower-case hex without leading zeros (`0x0` for zero).
#[inline]
pub fn push_hex(out: &mut String, value: u64) {
    out.push_str("0x");
    push_hex_digits(out, value, 1, HEX_LOWER);
}

/// Appends `value` in lower-case hex, zero-padded to at least `width` digits, no prefix.
#[inline]
pub fn push_hex_lower(out: &mut String, value: u64, width: usize) {
    push_hex_digits(out, value, width, HEX_LOWER);
}

/// Appends `value` in upper-case hex, zero-padded to at least `width` digits, no prefix.
#[inline]
pub fn push_hex_upper(out: &mut String, value: u64, width: usize) {
    push_hex_digits(out, value, width, HEX_UPPER);
}

/// Overwrites `dst` with the low `dst.len()` hex digits of `value`, upper case.
#[inline]
pub fn fill_hex_upper(dst: &mut [u8], value: u64) {
    // Eight digits at a time, computed in one register: every listed instruction's address
    // goes through here, and a digit at a time was a seventh of a listing's work.
    let mut digits = [0u8; 16];
    digits[..8].copy_from_slice(&hex8_upper((value >> 32) as u32));
    digits[8..].copy_from_slice(&hex8_upper(value as u32));
    let n = dst.len();
    if n > 16 {
        dst[..n - 16].fill(b'0');
        dst[n - 16..].copy_from_slice(&digits);
    } else {
        dst.copy_from_slice(&digits[16 - n..]);
    }
}

/// The eight upper-case hex digits of `x`, most significant first.
#[inline]
fn hex8_upper(x: u32) -> [u8; 8] {
    // Spread the nibbles into the bytes of a u64, lowest nibble in the lowest byte.
    let mut v = u64::from(x);
    v = (v | (v << 16)) & 0x0000_ffff_0000_ffff;
    v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff;
    v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // To ASCII: '0' + n, and 7 more for the nibbles of 10 and up ('A' is '0' + 17).
    let letters = ((v + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    let ascii = v + 0x3030_3030_3030_3030 + letters * 7;
    ascii.to_be_bytes()
}

#[inline]
fn push_hex_digits(out: &mut String, value: u64, width: usize, digits: &[u8; 16]) {
    let mut buf = [0u8; 16];
    let mut i = buf.len();
    let mut v = value;
    loop {
        i -= 1;
        buf[i] = digits[(v & 0xf) as usize];
        v >>= 4;
        if v == 0 {
            break;
        }
    }
    let len = buf.len() - i;
    const ZEROS: &str = "0000000000000000";
    out.push_str(ZEROS.get(..width.saturating_sub(len)).unwrap_or(ZEROS));
    push_ascii(out, &buf[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_format_like_core_fmt() {
        for v in [0u64, 1, 9, 10, 255, 4096, u32::MAX as u64, u64::MAX] {
            let mut s = String::new();
            push_u64(&mut s, v);
            assert_eq!(s, format!("{v}"));
            s.clear();
            push_hex(&mut s, v);
            assert_eq!(s, format!("0x{v:x}"));
            s.clear();
            push_hex_upper(&mut s, v, 12);
            assert_eq!(s, format!("{v:012X}"));
            s.clear();
            push_hex_lower(&mut s, v, 16);
            assert_eq!(s, format!("{v:016x}"));
        }
        let mut twelve = [b' '; 12];
        fill_hex_upper(&mut twelve, 0x1_2345_6789_abcd);
        assert_eq!(&twelve, b"23456789ABCD");
        for v in [0i64, -1, -16, 64, i64::MIN, i64::MAX] {
            let mut s = String::new();
            push_i64(&mut s, v);
            assert_eq!(s, format!("{v}"));
        }
    }
}
