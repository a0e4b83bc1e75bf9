//! A hand-written lexer for AMDGPU assembly tokens.
//!
//! The operand syntax is context-sensitive (`s[0:3]`, `offset:16`, `-|v1|`, `op_sel:[0,1]`),
//! so the operand parser pulls tokens one at a time and looks up to three ahead. Tokens
//! themselves do not depend on context: the lexer lexes a small window of them ahead. Every
//! token carries its byte span in the statement, for diagnostics.

use std::ops::Range;

/// Punctuation and operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Punct {
    LBracket,
    RBracket,
    /// `{`, which opens a structured operand (`{id: 1, size: 4}`).
    LBrace,
    /// `}`.
    RBrace,
    LParen,
    RParen,
    Colon,
    Comma,
    Pipe,
    Minus,
    Plus,
    Star,
    Slash,
    Percent,
    Shl,
    Shr,
    Amp,
    Caret,
    Tilde,
    Bang,
    EqEq,
    NotEq,
    /// `<>`, GNU as's other spelling of `!=`.
    LessGreater,
    Less,
    LessEq,
    Greater,
    GreaterEq,
    AmpAmp,
    PipePipe,
    Eq,
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tok {
    /// An identifier (`v_add_f32`, `s0`, `attr7.y`, `sym@rel32@lo`, `.`).
    Ident,
    /// An integer literal (decimal, `0x` hex, `0b` binary, leading-zero octal).
    Int(u64),
    /// A floating-point literal (`1.0`, `1.0e-3`, `2e4`).
    Float(f64),
    /// A double-quoted string; the span includes the quotes.
    Str,
    /// Punctuation.
    Punct(Punct),
    /// End of input.
    Eof,
    /// A character no token starts with, or a malformed number.
    Error,
}

/// A token and its byte range in the statement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    /// The kind (and value, for numbers).
    pub tok: Tok,
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Token {
    /// The byte range.
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }

    /// True if the token is the punctuation `p`.
    pub fn is(&self, p: Punct) -> bool {
        self.tok == Tok::Punct(p)
    }
}

/// Byte classes, one table lookup per byte in the lexer's inner loops.
const IDENT_START: u8 = 1;
const IDENT_CHAR: u8 = 2;
const SPACE: u8 = 4;

static CLASSES: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let start = b.is_ascii_alphabetic() || matches!(b, b'_' | b'.' | b'$' | b'@');
        if start {
            t[c] |= IDENT_START | IDENT_CHAR;
        }
        if b.is_ascii_digit() {
            t[c] |= IDENT_CHAR;
        }
        if b.is_ascii_whitespace() {
            t[c] |= SPACE;
        }
        c += 1;
    }
    t
}

/// True for characters an identifier may start with (LLVM: letters, `_`, `.`, `$`, `@`).
pub fn is_ident_start(c: u8) -> bool {
    CLASSES[c as usize] & IDENT_START != 0
}

/// True for characters an identifier may continue with.
pub fn is_ident_char(c: u8) -> bool {
    CLASSES[c as usize] & IDENT_CHAR != 0
}

fn is_space(c: u8) -> bool {
    CLASSES[c as usize] & SPACE != 0
}

/// Tokens the lexer holds lexed ahead. Statements rarely have more; longer input is lexed
/// a window at a time.
const WINDOW: usize = 8;

/// How far the parser looks ahead (`peek3`): the window always holds this many tokens, or
/// all the rest of the input.
const LOOKAHEAD: usize = 3;

/// The token at the end of the input (its span is set when lexed).
const EOF: Token = Token {
    tok: Tok::Eof,
    start: 0,
    end: 0,
};

/// The lexer: a position in the statement text.
///
/// The operand parser looks one to three tokens ahead before nearly every token. The lexer
/// therefore lexes a window of tokens at once and hands out copies; lexing each token once
/// per look was most of the assembler's time.
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    src: &'a str,
    /// The end of the last consumed token.
    pos: usize,
    /// `window[head..len]` are the next tokens, in order; they end at an `Eof` token or
    /// number at least `LOOKAHEAD`.
    window: [Token; WINDOW],
    head: usize,
    len: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Lexer<'a> {
        let mut l = Lexer::unstarted(src);
        l.start();
        l
    }

    /// A lexer at the start of `src` that has not lexed yet: [`Lexer::start`] must follow.
    /// The two steps let the statement parser build its lexer in place; returning a
    /// lexed window from `new` copies it.
    #[inline]
    pub(crate) fn unstarted(src: &'a str) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            window: [EOF; WINDOW],
            head: 0,
            len: 0,
        }
    }

    /// Lexes the first window.
    pub(crate) fn start(&mut self) {
        self.fill();
    }

    /// Moves the tokens still ahead to the front of the window and lexes more after them,
    /// until the window is full or holds the end of the input.
    fn fill(&mut self) {
        // Fewer than LOOKAHEAD tokens are kept: a loop, not a call to memmove.
        let kept = self.len - self.head;
        for i in 0..kept {
            self.window[i] = self.window[self.head + i];
        }
        self.len = kept;
        self.head = 0;
        let mut cur = Cursor {
            src: self.src,
            error_at: None,
            pos: match self.len {
                0 => self.pos,
                n => self.window[n - 1].end,
            },
        };
        // Called only when the window does not yet hold the end of the input.
        while self.len < WINDOW {
            let t = cur.lex();
            self.window[self.len] = t;
            self.len += 1;
            if t.tok == Tok::Eof {
                break;
            }
        }
    }

    /// The token `i` places ahead (0: the next one); past the end of input, `Eof`.
    fn ahead(&self, i: usize) -> Token {
        // The window holds LOOKAHEAD tokens or ends at `Eof`.
        self.window[(self.head + i).min(self.len - 1)]
    }

    /// The whole input.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// The text of a token.
    pub fn text(&self, t: &Token) -> &'a str {
        &self.src[t.start..t.end]
    }

    /// The current byte position (after skipped whitespace is not included).
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// True if whitespace (or a comment) follows the current position.
    pub fn space_follows(&self) -> bool {
        self.src
            .as_bytes()
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_whitespace() || *c == b'/')
    }

    /// The byte right after `t` (`None` at the end of input): tells `offset:` from
    /// `offset :` without lexing on.
    pub fn byte_after(&self, t: &Token) -> Option<u8> {
        self.src.as_bytes().get(t.end).copied()
    }

    /// The next token without consuming it.
    pub fn peek(&self) -> Token {
        self.ahead(0)
    }

    /// The token after the next one, without consuming either.
    pub fn peek2(&self) -> Token {
        self.ahead(1)
    }

    /// The token after the next two.
    pub fn peek3(&self) -> Token {
        self.ahead(2)
    }

    /// Consumes and returns the next token.
    pub fn next_token(&mut self) -> Token {
        let t = self.window[self.head];
        self.pos = t.end;
        // `Eof` stays the next token for good.
        if t.tok != Tok::Eof {
            self.head += 1;
            if self.len - self.head < LOOKAHEAD && self.window[self.len - 1].tok != Tok::Eof {
                self.fill();
            }
        }
        t
    }
}

/// A position in the statement text, which lexes.
#[derive(Clone, Copy, Debug)]
struct Cursor<'a> {
    src: &'a str,
    pos: usize,
    /// Where an error token starts when not where lexing it began (the sign of `5.-1`).
    error_at: Option<usize>,
}

impl Cursor<'_> {
    /// Skips blanks and C-style comments (whitespace to llvm-mc).
    fn skip_space(&mut self) {
        let b = self.src.as_bytes();
        loop {
            while self.pos < b.len() && is_space(b[self.pos]) {
                self.pos += 1;
            }
            if b.get(self.pos) == Some(&b'/') && b.get(self.pos + 1) == Some(&b'*') {
                self.skip_comment();
                continue;
            }
            break;
        }
    }

    fn skip_comment(&mut self) {
        match self.src[self.pos + 2..].find("*/") {
            Some(i) => self.pos += i + 4,
            None => self.pos = self.src.len(),
        }
    }

    /// Lexes the token at the position and moves past it.
    fn lex(&mut self) -> Token {
        self.skip_space();
        let b = self.src.as_bytes();
        let start = self.pos;
        let Some(&c) = b.get(start) else {
            return Token {
                tok: Tok::Eof,
                start,
                end: start,
            };
        };
        let tok = if c == b'.' && b.get(start + 1).is_some_and(u8::is_ascii_digit) {
            self.lex_dot_number()
        } else if is_ident_start(c) {
            self.pos += 1;
            while self.pos < b.len() && is_ident_char(b[self.pos]) {
                self.pos += 1;
            }
            Tok::Ident
        } else if c.is_ascii_digit() {
            self.lex_number()
        } else if c == b'"' {
            self.lex_string()
        } else {
            self.lex_punct(c)
        };
        Token {
            tok,
            start: self.error_at.take().unwrap_or(start),
            end: self.pos,
        }
    }

    fn lex_string(&mut self) -> Tok {
        let b = self.src.as_bytes();
        self.pos += 1;
        while self.pos < b.len() && b[self.pos] != b'"' {
            self.pos += if b[self.pos] == b'\\' { 2 } else { 1 };
        }
        if self.pos < b.len() {
            self.pos += 1;
            Tok::Str
        } else {
            self.pos = b.len();
            Tok::Error
        }
    }

    fn lex_punct(&mut self, c: u8) -> Tok {
        let next = self.src.as_bytes().get(self.pos + 1).copied();
        let (p, len) = match (c, next) {
            (b'<', Some(b'<')) => (Punct::Shl, 2),
            (b'>', Some(b'>')) => (Punct::Shr, 2),
            (b'<', Some(b'=')) => (Punct::LessEq, 2),
            (b'>', Some(b'=')) => (Punct::GreaterEq, 2),
            (b'=', Some(b'=')) => (Punct::EqEq, 2),
            (b'!', Some(b'=')) => (Punct::NotEq, 2),
            (b'<', Some(b'>')) => (Punct::LessGreater, 2),
            (b'&', Some(b'&')) => (Punct::AmpAmp, 2),
            (b'|', Some(b'|')) => (Punct::PipePipe, 2),
            (b'[', _) => (Punct::LBracket, 1),
            (b'{', _) => (Punct::LBrace, 1),
            (b'}', _) => (Punct::RBrace, 1),
            (b']', _) => (Punct::RBracket, 1),
            (b'(', _) => (Punct::LParen, 1),
            (b')', _) => (Punct::RParen, 1),
            (b':', _) => (Punct::Colon, 1),
            (b',', _) => (Punct::Comma, 1),
            (b'|', _) => (Punct::Pipe, 1),
            (b'-', _) => (Punct::Minus, 1),
            (b'+', _) => (Punct::Plus, 1),
            (b'*', _) => (Punct::Star, 1),
            (b'/', _) => (Punct::Slash, 1),
            (b'%', _) => (Punct::Percent, 1),
            (b'&', _) => (Punct::Amp, 1),
            (b'^', _) => (Punct::Caret, 1),
            (b'~', _) => (Punct::Tilde, 1),
            (b'!', _) => (Punct::Bang, 1),
            (b'<', _) => (Punct::Less, 1),
            (b'>', _) => (Punct::Greater, 1),
            (b'=', _) => (Punct::Eq, 1),
            _ => {
                // Skip one whole (possibly multi-byte) character.
                let len = self.src[self.pos..]
                    .chars()
                    .next()
                    .map_or(1, char::len_utf8);
                self.pos += len;
                return Tok::Error;
            }
        };
        self.pos += len;
        Tok::Punct(p)
    }

    /// An identifier that starts with a dot and a digit: llvm-mc reads a real number
    /// there (`.5`, `.5e1`) when a character that cannot continue an identifier, or an
    /// exponent, follows the digits; otherwise an identifier (`.5a`, `.5.5`).
    fn lex_dot_number(&mut self) -> Tok {
        let b = self.src.as_bytes();
        let mut p = self.pos + 1;
        while p < b.len() && b[p].is_ascii_digit() {
            p += 1;
        }
        let real = b
            .get(p)
            .is_none_or(|&c| !is_ident_char(c) || matches!(c, b'e' | b'E'));
        if real {
            return self.lex_real(self.pos);
        }
        self.pos = p;
        while self.pos < b.len() && is_ident_char(b[self.pos]) {
            self.pos += 1;
        }
        Tok::Ident
    }

    /// The rest of a decimal real number that starts at `start`, with the position at its
    /// fraction (after a `.`, or at an exponent): digits, then an optional exponent `e`,
    /// sign and digits, each part possibly empty (llvm-mc reads `5.`, `5e`, `1.5e+` as
    /// reals). A sign right after the fraction is an error (`5.-1`), at the sign.
    fn lex_real(&mut self, start: usize) -> Tok {
        let b = self.src.as_bytes();
        if b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
        }
        while self.pos < b.len() && b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        let mantissa_end = self.pos;
        if matches!(b.get(self.pos), Some(b'+' | b'-')) {
            // The token is the sign alone; the number before it is dropped, as llvm-mc does.
            self.error_at = Some(self.pos);
            self.pos += 1;
            return Tok::Error;
        }
        let mut exponent = "";
        if matches!(b.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            let sign = self.pos;
            if matches!(b.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            let digits = self.pos;
            while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                self.pos += 1;
            }
            if self.pos > digits {
                exponent = &self.src[sign..self.pos];
            }
        }
        let mantissa = self.src[start..mantissa_end].trim_end_matches('.');
        let text = format!(
            "{}e{}",
            mantissa,
            if exponent.is_empty() { "0" } else { exponent }
        );
        text.parse().map_or(Tok::Error, Tok::Float)
    }

    /// A hexadecimal real number (`0x1p-1`, `0x1.8p1`, `0x.8p0`), the position after `0x`:
    /// hex digits with an optional fraction, then a binary exponent `p`, which must be
    /// there with at least one decimal digit.
    fn lex_hex_real(&mut self) -> Tok {
        let b = self.src.as_bytes();
        let mut mantissa: u64 = 0;
        // Digits that no longer fit the mantissa only scale it (and are assumed zero).
        let mut scale: i64 = 0;
        let mut digits = 0;
        let mut fraction = false;
        loop {
            match b.get(self.pos) {
                Some(b'.') if !fraction => fraction = true,
                Some(&c) if c.is_ascii_hexdigit() => {
                    let d = u64::from((c as char).to_digit(16).unwrap_or(0));
                    digits += 1;
                    if mantissa >> 60 == 0 {
                        mantissa = mantissa << 4 | d;
                        if fraction {
                            scale -= 4;
                        }
                    } else if !fraction {
                        scale += 4;
                    }
                }
                _ => break,
            }
            self.pos += 1;
        }
        if digits == 0 || !matches!(b.get(self.pos), Some(b'p' | b'P')) {
            return Tok::Error;
        }
        self.pos += 1;
        let negative = b.get(self.pos) == Some(&b'-');
        if matches!(b.get(self.pos), Some(b'+' | b'-')) {
            self.pos += 1;
        }
        let first = self.pos;
        let mut exponent: i64 = 0;
        while self.pos < b.len() && b[self.pos].is_ascii_digit() {
            exponent = (exponent * 10 + i64::from(b[self.pos] - b'0')).min(1 << 20);
            self.pos += 1;
        }
        if self.pos == first {
            return Tok::Error;
        }
        let exponent = if negative { -exponent } else { exponent } + scale;
        Tok::Float(scale_by_power_of_two(mantissa as f64, exponent))
    }

    fn lex_number(&mut self) -> Tok {
        let b = self.src.as_bytes();
        let start = self.pos;
        let prefix = |p: &[u8]| {
            b.len() >= start + 2
                && b[start] == b'0'
                && p.contains(&b[start + 1].to_ascii_lowercase())
        };
        if prefix(b"x") || prefix(b"b") {
            let radix = if prefix(b"x") { 16 } else { 2 };
            self.pos += 2;
            let digits = self.pos;
            if radix == 16 {
                let mut p = digits;
                while p < b.len() && b[p].is_ascii_hexdigit() {
                    p += 1;
                }
                if matches!(b.get(p), Some(b'.' | b'p' | b'P')) {
                    return self.lex_hex_real();
                }
            }
            // Hex digits only: llvm-mc lexes what follows (`0x1fh`) as the next token.
            let digit = |c: u8| {
                if radix == 16 {
                    c.is_ascii_hexdigit()
                } else {
                    c.is_ascii_alphanumeric()
                }
            };
            while self.pos < b.len() && digit(b[self.pos]) {
                self.pos += 1;
            }
            return parse_radix(&self.src[digits..self.pos], radix);
        }
        while self.pos < b.len() && b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        // A real number: digits then a fraction or an exponent, but after a leading zero
        // only a fraction (`0.5`; `00.5` is the octal 0 and `.5`, `0e1` is 0 and `e1`).
        let leading_zero = b[start] == b'0';
        let real = match b.get(self.pos) {
            Some(b'.') => !leading_zero || self.pos == start + 1,
            Some(b'e' | b'E') => !leading_zero,
            _ => false,
        };
        if real {
            return self.lex_real(start);
        }
        // A number running into letters (`12abc`, `0ffh`) ends at them, as llvm-mc lexes
        // it: the letters are the next token.
        let text = &self.src[start..self.pos];
        if text.len() > 1 && text.starts_with('0') {
            return parse_radix(&text[1..], 8);
        }
        parse_radix(text, 10)
    }
}

/// `m · 2^e`, rounded once (the steps before the last are exact, or the result is zero or
/// infinite anyway).
fn scale_by_power_of_two(mut m: f64, mut e: i64) -> f64 {
    while e > 1000 && m.is_finite() && m != 0.0 {
        m *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 && m != 0.0 {
        if e < -1000 - 1074 - 64 {
            return 0.0;
        }
        m *= 2f64.powi(-1000);
        e += 1000;
    }
    m * 2f64.powi(e as i32)
}

/// Parses digits in `radix`, wrapping like LLVM's 64-bit APInt parse would reject: values that
/// do not fit 64 bits are errors.
fn parse_radix(digits: &str, radix: u32) -> Tok {
    if digits.is_empty() {
        return Tok::Error;
    }
    u64::from_str_radix(digits, radix).map_or(Tok::Error, Tok::Int)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        let mut l = Lexer::new(s);
        let mut v = Vec::new();
        loop {
            let t = l.next_token();
            if t.tok == Tok::Eof {
                return v;
            }
            v.push(t.tok);
        }
    }

    #[test]
    fn numbers_in_every_radix() {
        assert_eq!(
            kinds("0x1f 0b101 017 42 1.5 1.0e-3 2e2"),
            vec![
                Tok::Int(31),
                Tok::Int(5),
                Tok::Int(15),
                Tok::Int(42),
                Tok::Float(1.5),
                Tok::Float(1.0e-3),
                Tok::Float(200.0)
            ]
        );
    }

    #[test]
    fn reals_as_llvm_mc_lexes_them() {
        assert_eq!(
            kinds(".5 .5e1 5. 5e 1.5e+ 0x1p-1 0x1.8p1 0x.8p0 0X1P+1 0.e1"),
            vec![
                Tok::Float(0.5),
                Tok::Float(5.0),
                Tok::Float(5.0),
                Tok::Float(5.0),
                Tok::Float(1.5),
                Tok::Float(0.5),
                Tok::Float(3.0),
                Tok::Float(0.5),
                Tok::Float(2.0),
                Tok::Float(0.0)
            ]
        );
        // Identifiers, and numbers followed by another token.
        assert_eq!(kinds(".5a .5.5"), vec![Tok::Ident, Tok::Ident]);
        assert_eq!(kinds("00.5"), vec![Tok::Int(0), Tok::Float(0.5)]);
        assert_eq!(kinds("0x1p1a"), vec![Tok::Float(2.0), Tok::Ident]);
        // Malformed: no exponent, no digits, a sign after the fraction.
        assert_eq!(kinds("0x1.8"), vec![Tok::Error]);
        assert_eq!(kinds("0x1p+"), vec![Tok::Error]);
        assert_eq!(kinds("0x.p1")[0], Tok::Error);
        assert_eq!(kinds("5.-1"), vec![Tok::Error, Tok::Int(1)]);
        assert_eq!(
            kinds("0x1p-1075 0x1p-1074"),
            vec![Tok::Float(0.0), Tok::Float(4.9e-324)]
        );
    }

    #[test]
    fn registers_and_punctuation() {
        let mut l = Lexer::new("s[0:3], -|v1| attr7.y sym@rel32@lo << >= && /* c */ ||");
        let mut texts = Vec::new();
        loop {
            let t = l.next_token();
            if t.tok == Tok::Eof {
                break;
            }
            texts.push(l.text(&t).to_string());
        }
        assert_eq!(
            texts,
            [
                "s",
                "[",
                "0",
                ":",
                "3",
                "]",
                ",",
                "-",
                "|",
                "v1",
                "|",
                "attr7.y",
                "sym@rel32@lo",
                "<<",
                ">=",
                "&&",
                "||"
            ]
        );
    }

    #[test]
    fn bad_characters_are_errors_not_panics() {
        assert_eq!(kinds("#"), vec![Tok::Error]);
        assert_eq!(kinds("é"), vec![Tok::Error]);
        assert_eq!(kinds("\"open"), vec![Tok::Error]);
        assert_eq!(kinds("0x"), vec![Tok::Error]);
        assert_eq!(kinds("99999999999999999999999"), vec![Tok::Error]);
    }

    #[test]
    fn looking_ahead_agrees_with_consuming_across_windows() {
        // More tokens than one window holds, and a comment between two of them.
        let src = "v_pk_fma_f16 v0, v1, v2, v3 op_sel:[0,1,1] /* c */ op_sel_hi:[1,0,0] clamp";
        let mut all = Vec::new();
        let mut l = Lexer::new(src);
        loop {
            let t = l.next_token();
            all.push(t);
            if t.tok == Tok::Eof {
                break;
            }
        }
        let eof = *all.last().unwrap();
        let at = |i: usize| all.get(i).copied().unwrap_or(eof);
        let mut l = Lexer::new(src);
        for i in 0..all.len() + 2 {
            assert_eq!(
                (l.peek(), l.peek2(), l.peek3()),
                (at(i), at(i + 1), at(i + 2))
            );
            assert_eq!(l.next_token(), at(i));
            assert_eq!(l.pos(), at(i).end);
        }
    }
}
