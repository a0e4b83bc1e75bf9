//! Data and alignment directives: `.byte` to `.quad`, strings, `.zero`/`.space`/`.fill`
//! and `.p2align`/`.balign`/`.align` with their fill variants.

use super::directives::split_args;
use super::state::{Asm, Patch, Pending};

/// The `s_nop 0` dword that pads code sections, as llvm-mc pads them.
const CODE_PADDING: [u8; 4] = [0x00, 0x00, 0x80, 0xbf];

impl Asm<'_> {
    pub(crate) fn data_directive(
        &mut self,
        name: &str,
        col: usize,
        args: &str,
        args_col: usize,
    ) -> bool {
        let size = match name {
            ".byte" => 1,
            ".short" | ".2byte" | ".value" => 2,
            ".long" | ".int" | ".4byte" => 4,
            ".quad" | ".8byte" => 8,
            ".ascii" => return self.strings(args, args_col, false),
            ".asciz" | ".string" => return self.strings(args, args_col, true),
            ".zero" | ".space" | ".skip" => return self.space(args, args_col),
            ".fill" => return self.fill(args, args_col),
            ".p2align" | ".p2alignw" | ".p2alignl" | ".balign" | ".balignw" | ".balignl"
            | ".align" => return self.align(name, col, args, args_col),
            _ => return false,
        };
        for (at, item) in split_args(args) {
            self.data_item(item, args_col + at, size);
        }
        true
    }

    /// One value of `.byte`/`.short`/`.long`/`.quad`.
    fn data_item(&mut self, text: &str, col: usize, size: u8) {
        let Some(e) = self.parse_expr_all(text, col) else {
            return;
        };
        let section = self.current;
        let offset = self.sections[section].data.len() as u64;
        let value = match e.eval(&self.syms.values()) {
            Ok(v) => {
                if !fits(v, size) {
                    self.error_at(col, "out of range literal value");
                }
                v
            }
            Err(_) => {
                self.syms.touch(&e);
                let loc = self.loc_at(col + (text.len() - text.trim_start().len()));
                self.fixups.push(Pending {
                    section,
                    at: offset,
                    pc: offset,
                    patch: Patch::Data(size),
                    expr: e,
                    loc,
                });
                0
            }
        };
        let bytes = value.to_le_bytes();
        self.grow(size as u64, col, |data, _| {
            data.extend_from_slice(&bytes[..size as usize])
        });
    }

    /// `.ascii`/`.asciz`/`.string`: one or more strings.
    fn strings(&mut self, args: &str, args_col: usize, nul: bool) -> bool {
        for (at, item) in split_args(args) {
            match parse_string(item.trim()) {
                Some(bytes) => {
                    let n = bytes.len() as u64 + nul as u64;
                    self.grow(n, args_col + at, |data, _| {
                        data.extend_from_slice(&bytes);
                        if nul {
                            data.push(0);
                        }
                    });
                }
                None => self.error_at(args_col + at, "expected string"),
            }
        }
        true
    }

    /// `.zero n[, fill]` / `.space n[, fill]`.
    fn space(&mut self, args: &str, args_col: usize) -> bool {
        let parts = split_args(args);
        let Some(&(at, count)) = parts.first() else {
            self.error_at(args_col, "expected expression");
            return true;
        };
        let Some(n) = self.const_expr(count, args_col + at) else {
            return true;
        };
        let fill = match parts.get(1) {
            Some(&(fat, f)) => self.const_expr(f, args_col + fat).unwrap_or(0),
            None => 0,
        };
        if n < 0 {
            self.warn_at(
                args_col + at,
                "'.space' directive with negative size has no effect",
            );
            return true;
        }
        self.grow(n as u64, args_col + at, |data, n| {
            data.resize(data.len() + n, fill as u8)
        });
        true
    }

    /// `.fill repeat[, size[, value]]`.
    fn fill(&mut self, args: &str, args_col: usize) -> bool {
        let parts = split_args(args);
        let mut values = [0i64, 1, 0];
        for (k, &(at, text)) in parts.iter().enumerate().take(3) {
            match self.const_expr(text, args_col + at) {
                Some(v) => values[k] = v,
                None => return true,
            }
        }
        let [repeat, size, value] = values;
        if repeat < 0 {
            self.warn_at(
                args_col,
                "'.fill' directive with negative repeat count has no effect",
            );
            return true;
        }
        let size = size.clamp(0, 8) as usize;
        let total = (repeat as u64).saturating_mul(size as u64);
        let bytes = value.to_le_bytes();
        self.grow(total, args_col, |data, _| {
            for _ in 0..repeat {
                data.extend_from_slice(&bytes[..size]);
            }
        });
        true
    }

    /// Runs `add` to append `n` bytes, unless the section would grow past the limit.
    pub(crate) fn grow(&mut self, n: u64, col: usize, add: impl FnOnce(&mut Vec<u8>, usize)) {
        let data = &mut self.sections[self.current].data;
        if (data.len() as u64).saturating_add(n) > self.options.max_section_size {
            let message = self.too_large();
            self.error_at(col, message);
            // Stop: a repetition would report the same error for every remaining round.
            self.ended = true;
            return;
        }
        add(data, n as usize);
    }

    /// `.p2align`/`.balign`/`.align` and their `w`/`l` fill-width variants.
    fn align(&mut self, name: &str, _col: usize, args: &str, args_col: usize) -> bool {
        let parts = split_args(args);
        let Some(&(at, first)) = parts.first() else {
            self.error_at(args_col, "expected expression");
            return true;
        };
        let Some(v) = self.const_expr(first, args_col + at) else {
            return true;
        };
        // On AMDGPU (an ELF target) `.align` counts bytes, like `.balign`.
        let bytes = if name.starts_with(".p2align") {
            if !(0..32).contains(&v) {
                self.error_at(args_col + at, "invalid alignment value");
                return true;
            }
            1u64 << v
        } else {
            if v <= 0 || (v as u64).count_ones() != 1 {
                self.error_at(args_col + at, "alignment must be a power of 2");
                return true;
            }
            v as u64
        };
        let width = match name.chars().last() {
            Some('w') => 2,
            Some('l') => 4,
            _ => 1,
        };
        let fill = match parts.get(1).filter(|p| !p.1.trim().is_empty()) {
            Some(&(fat, f)) => self.const_expr(f, args_col + fat),
            None => None,
        };
        let max = match parts.get(2) {
            Some(&(mat, m)) => self.const_expr(m, args_col + mat),
            None => None,
        };
        let pad = {
            let len = self.sections[self.current].data.len() as u64;
            (bytes - len % bytes) % bytes
        };
        if fill.is_some() && pad % width as u64 != 0 && max.is_none_or(|m| pad as i64 <= m) {
            self.error_at(
                args_col,
                format!("undefined .align directive, value size '{width}' is not a divisor of padding size '{pad}'"),
            );
            return true;
        }
        if (self.sections[self.current].data.len() as u64).saturating_add(pad)
            > self.options.max_section_size
        {
            let message = self.too_large();
            self.error_at(args_col, message);
            self.ended = true;
            return true;
        }
        self.pad_to(bytes, fill, width, max);
        true
    }

    /// Pads the current section to a multiple of `align` bytes, with `fill` values of
    /// `width` bytes (code sections default to `s_nop 0`, others to zeros); skipped when
    /// more than `max` bytes would be needed.
    fn pad_to(&mut self, align: u64, fill: Option<i64>, width: usize, max: Option<i64>) {
        let section = &mut self.sections[self.current];
        section.align = section.align.max(align);
        let len = section.data.len() as u64;
        let pad = (align - len % align) % align;
        if max.is_some_and(|m| pad as i64 > m) {
            return;
        }
        let code = section.is_code();
        let data = &mut section.data;
        match fill {
            Some(value) => {
                let bytes = value.to_le_bytes();
                let mut left = pad as usize;
                while left >= width {
                    data.extend_from_slice(&bytes[..width]);
                    left -= width;
                }
                data.resize(data.len() + left, 0);
            }
            None if code => {
                let mut left = pad as usize;
                // Bytes up to the next dword boundary are zeros, then `s_nop 0`s.
                let odd = (4 - (data.len() % 4)) % 4;
                let odd = odd.min(left);
                data.resize(data.len() + odd, 0);
                left -= odd;
                while left >= 4 {
                    data.extend_from_slice(&CODE_PADDING);
                    left -= 4;
                }
                data.resize(data.len() + left, 0);
            }
            None => data.resize(data.len() + pad as usize, 0),
        }
    }
}

/// True if `v` fits in `size` bytes as a signed or unsigned value.
fn fits(v: i64, size: u8) -> bool {
    if size >= 8 {
        return true;
    }
    let bits = size as u32 * 8;
    v >= -(1i64 << (bits - 1)) && v < (1i64 << bits)
}

/// The bytes of a double-quoted string with C escapes, or `None` if `s` is not one.
pub(crate) fn parse_string(s: &str) -> Option<Vec<u8>> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let b = inner.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = *b.get(i)?;
        i += 1;
        out.push(match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'b' => 8,
            b'f' => 12,
            b'\\' => b'\\',
            b'"' => b'"',
            b'x' | b'X' => {
                let n = b[i..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
                let v = u32::from_str_radix(std::str::from_utf8(&b[i..i + n]).ok()?, 16).ok()?;
                i += n;
                v as u8
            }
            b'0'..=b'7' => {
                let n = 1 + b[i..]
                    .iter()
                    .take(2)
                    .take_while(|c| (b'0'..=b'7').contains(c))
                    .count();
                let digits = std::str::from_utf8(&b[i - 1..i - 1 + n]).ok()?;
                i += n - 1;
                u32::from_str_radix(digits, 8).ok()? as u8
            }
            other => other,
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_take_c_escapes() {
        assert_eq!(parse_string(r#""a\n\t\x41\101\0""#).unwrap(), b"a\n\tAA\0");
        assert!(parse_string("nope").is_none());
    }

    #[test]
    fn data_values_must_fit_their_size() {
        assert!(fits(255, 1) && fits(-128, 1) && !fits(256, 1) && !fits(-129, 1));
        assert!(fits(i64::MIN, 8));
    }
}
