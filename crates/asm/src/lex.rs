//! A hand-written lexer for AMDGPU assembly tokens.
//!
//! The operand syntax is context-sensitive (`s[0:3]`, `offset:16`, `-|v1|`, `op_sel:[0,1]`),
//! so there is no token stream built up front: the operand parser pulls tokens one at a time
//! and may look ahead. Every token carries its byte span in the statement, for diagnostics.

use std::cell::Cell;
use std::ops::Range;

/// Punctuation and operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Punct {
    LBracket,
    RBracket,
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

/// True for characters an identifier may start with (LLVM: letters, `_`, `.`, `$`, `@`).
pub fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || matches!(c, b'_' | b'.' | b'$' | b'@')
}

/// True for characters an identifier may continue with.
pub fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'@')
}

/// The lexer: a position in the statement text.
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    /// The token last peeked at: where it starts being looked for, the token, and the
    /// position after it. The operand parser peeks before nearly every token, and lexing
    /// each token twice was a quarter of the assembler's time.
    peeked: Cell<Option<(usize, Token, usize)>>,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            peeked: Cell::new(None),
        }
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

    /// The next token without consuming it.
    pub fn peek(&self) -> Token {
        if let Some((at, t, _)) = self.peeked.get() {
            if at == self.pos {
                return t;
            }
        }
        let mut ahead = self.clone();
        let t = ahead.next_token();
        self.peeked.set(Some((self.pos, t, ahead.pos)));
        t
    }

    /// The token after the next one, without consuming either.
    pub fn peek2(&self) -> Token {
        let mut l = self.clone();
        l.next_token();
        l.next_token()
    }

    fn skip_space(&mut self) {
        let b = self.src.as_bytes();
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            // C-style comments are whitespace to llvm-mc.
            if b.get(self.pos) == Some(&b'/') && b.get(self.pos + 1) == Some(&b'*') {
                match self.src[self.pos + 2..].find("*/") {
                    Some(i) => self.pos += i + 4,
                    None => self.pos = b.len(),
                }
                continue;
            }
            break;
        }
    }

    /// Consumes and returns the next token.
    pub fn next_token(&mut self) -> Token {
        if let Some((at, t, after)) = self.peeked.get() {
            if at == self.pos {
                self.pos = after;
                return t;
            }
        }
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
        let tok = if c.is_ascii_digit() {
            self.lex_number()
        } else if is_ident_start(c) {
            self.pos += 1;
            while self.pos < b.len() && is_ident_char(b[self.pos]) {
                self.pos += 1;
            }
            Tok::Ident
        } else if c == b'"' {
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
        } else {
            self.lex_punct(c)
        };
        Token {
            tok,
            start,
            end: self.pos,
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
            (b'&', Some(b'&')) => (Punct::AmpAmp, 2),
            (b'|', Some(b'|')) => (Punct::PipePipe, 2),
            (b'[', _) => (Punct::LBracket, 1),
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
            while self.pos < b.len() && (b[self.pos] as char).is_ascii_alphanumeric() {
                self.pos += 1;
            }
            return parse_radix(&self.src[digits..self.pos], radix);
        }
        while self.pos < b.len() && b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        let mut float = false;
        if b.get(self.pos) == Some(&b'.') {
            float = true;
            self.pos += 1;
            while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                self.pos += 1;
            }
        }
        if matches!(b.get(self.pos), Some(b'e' | b'E')) {
            let mut p = self.pos + 1;
            if matches!(b.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            if b.get(p).is_some_and(u8::is_ascii_digit) {
                float = true;
                while p < b.len() && b[p].is_ascii_digit() {
                    p += 1;
                }
                self.pos = p;
            }
        }
        let text = &self.src[start..self.pos];
        // A number running into letters (`12abc`) is malformed.
        if b.get(self.pos)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        {
            while self.pos < b.len() && is_ident_char(b[self.pos]) {
                self.pos += 1;
            }
            return Tok::Error;
        }
        if float {
            return text.parse().map_or(Tok::Error, Tok::Float);
        }
        if text.len() > 1 && text.starts_with('0') {
            return parse_radix(&text[1..], 8);
        }
        parse_radix(text, 10)
    }
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
}
