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
pub fn fill_hex_upper(dst: &mut [u8], mut value: u64) {
    for d in dst.iter_mut().rev() {
        *d = HEX_UPPER[(value & 0xf) as usize];
        value >>= 4;
    }
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
