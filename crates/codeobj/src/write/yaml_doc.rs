//! YAML text to a MessagePack-shaped tree the way LLVM's `msgpack::Document::fromYAML` builds
//! it.
//!
//! LLVM ignores YAML's quoting: every scalar, quoted or not, is typed from its text by
//! `DocNode::fromString`: an unsigned integer (`getAsUnsignedInteger` with radix sensing:
//! `0x`, `0b`, `0o`, a leading `0` for octal), else a signed one, else a boolean (`y`, `yes`,
//! `on`, `true` and their negatives, in three capitalisations), else a float (C `strtod`
//! syntax), else a string. A scalar with an explicit tag other than `!!str` stays a string.
//! Floats are kept as [`Node::Float`] because they order map keys, but LLVM's writer emits
//! them as nil (see [`super::msgpack_writer`]). An empty value (`key:`) is an empty array.
//!
//! The tree is flat ([`Doc`]): real metadata has about two scalars per line, and a tree of
//! boxed values with one `String` each spent more time in the allocator than the YAML
//! scanner spends on the text. Nodes live in one vector, container children in another and
//! string bytes in one buffer, so building, checking and writing allocate almost nothing per
//! node.

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Nesting deeper than this is refused (real metadata is 5 levels deep).
pub(crate) const MAX_DEPTH: usize = 64;

/// Longer texts are refused so that every offset and index of a [`Doc`] fits in a `u32`
/// (YAML escapes can make scalar text 1.5 times longer than its source).
const MAX_TEXT: usize = 1 << 30;

/// A range of [`Doc::text`] (string bytes) or of [`Doc::kids`] (child node indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
}

impl Span {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// One node of a typed metadata document.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Node {
    /// A non-negative integer (LLVM's `UInt`).
    UInt(u64),
    /// A negative integer (LLVM's `Int`; `-0` types as `UInt`).
    Int(i64),
    Bool(bool),
    Float(f64),
    /// String bytes in [`Doc::text`].
    Str(Span),
    /// Element node indices in [`Doc::kids`].
    Array(Span),
    /// `2 * len` node indices in [`Doc::kids`]: key, value, key, value, ... in input order.
    Map(Span),
}

/// A typed metadata document: every node, the children of every container, the bytes of
/// every string.
pub(crate) struct Doc {
    pub nodes: Vec<Node>,
    pub kids: Vec<u32>,
    pub text: String,
    pub root: u32,
}

impl Doc {
    /// The text of a string node's span.
    pub fn str(&self, s: Span) -> &str {
        &self.text[s.range()]
    }

    /// The child node indices of a container's span (for a map: `2 * len` of them).
    pub fn kids_of(&self, s: Span, map: bool) -> &[u32] {
        let n = s.len as usize * if map { 2 } else { 1 };
        &self.kids[s.start as usize..s.start as usize + n]
    }

    /// Appends `s` to the string bytes.
    fn push_text(&mut self, s: &str) -> Span {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        Span {
            start,
            len: s.len() as u32,
        }
    }

    fn push_node(&mut self, n: Node) -> u32 {
        self.nodes.push(n);
        (self.nodes.len() - 1) as u32
    }

    /// The node for scalar text typed as LLVM types it (a string's bytes appended).
    pub fn typed_node(&mut self, s: &str) -> Node {
        match typed_scalar(s) {
            Scalar::UInt(u) => Node::UInt(u),
            Scalar::Int(i) => Node::Int(i),
            Scalar::Bool(b) => Node::Bool(b),
            Scalar::Float(f) => Node::Float(f),
            Scalar::Str => Node::Str(self.push_text(s)),
        }
    }
}

/// A container being filled while the events arrive. Its finished children are the
/// builder's `stack` from `base` on (for a map: key, value, key, ...), the raw texts of its
/// keys `raw_keys` from `key_base` on.
struct Open {
    map: bool,
    base: usize,
    key_base: usize,
    /// True while every key's raw text sorted after the one before it: then a new key
    /// that sorts after the last one cannot repeat any, and the search for an equal one
    /// is skipped (metadata written by LLVM has its keys in order).
    keys_ascending: bool,
}

/// An error position as LLVM prints it.
fn at(mark: Marker) -> String {
    format!("YAML:{}:{}", mark.line(), mark.col() + 1)
}

/// Collects parser events into one [`Doc`].
struct Builder {
    doc: Doc,
    open: Vec<Open>,
    /// Finished nodes whose container is still open, innermost last.
    stack: Vec<u32>,
    /// Raw key texts (in `doc.text`) of the open maps, to find duplicates as LLVM does: by
    /// text, before typing.
    raw_keys: Vec<Span>,
    root: Option<u32>,
    error: Option<String>,
    documents: usize,
}

impl Builder {
    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
    }

    /// True when the innermost open container is a map waiting for a key.
    fn wants_key(&self) -> bool {
        self.open
            .last()
            .is_some_and(|o| o.map && (self.stack.len() - o.base).is_multiple_of(2))
    }

    /// Adds a finished node to the innermost container (or makes it the root).
    fn push(&mut self, node: Node) {
        if self.open.is_empty() {
            if self.root.is_none() {
                self.root = Some(self.doc.push_node(node));
            }
        } else {
            let i = self.doc.push_node(node);
            self.stack.push(i);
        }
    }

    /// A scalar in key position: a duplicate of an earlier key's text is an error, else the
    /// key is typed from its text alone, whatever its tag.
    fn push_key(&mut self, raw: &str, mark: Marker) {
        let Some(o) = self.open.last_mut() else {
            return;
        };
        let text = &self.doc.text;
        let keys = &self.raw_keys[o.key_base..];
        let after_last = keys
            .last()
            .is_none_or(|&k| text[k.range()].as_bytes() < raw.as_bytes());
        if !(o.keys_ascending && after_last) {
            o.keys_ascending &= after_last;
            if keys.iter().any(|&k| &text[k.range()] == raw) {
                return self.fail(format!("{}: duplicated mapping key '{raw}'", at(mark)));
            }
        }
        let span = self.doc.push_text(raw);
        self.raw_keys.push(span);
        // A string key's text is the raw text just stored; other kinds need no text.
        let node = match typed_scalar(raw) {
            Scalar::UInt(u) => Node::UInt(u),
            Scalar::Int(i) => Node::Int(i),
            Scalar::Bool(b) => Node::Bool(b),
            Scalar::Float(f) => Node::Float(f),
            Scalar::Str => Node::Str(span),
        };
        self.push(node);
    }

    /// Takes one parser event, in stream order.
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() || self.documents > 1 {
            return;
        }
        match ev {
            Event::DocumentStart => self.documents += 1,
            Event::Scalar(text, style, _, tag) => {
                if self.wants_key() {
                    return self.push_key(&text, mark);
                }
                let node = if text.is_empty() && style == TScalarStyle::Plain && tag.is_none() {
                    Node::Array(Span { start: 0, len: 0 })
                } else if tag.is_some_and(|t| t.suffix != "str") {
                    Node::Str(self.doc.push_text(&text))
                } else {
                    self.doc.typed_node(&text)
                };
                self.push(node);
            }
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                if self.open.len() >= MAX_DEPTH {
                    return self.fail(format!("{}: nested too deeply", at(mark)));
                }
                self.open.push(Open {
                    map: matches!(ev, Event::MappingStart(..)),
                    base: self.stack.len(),
                    key_base: self.raw_keys.len(),
                    keys_ascending: true,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(o) = self.open.pop() else { return };
                let mut n = self.stack.len() - o.base;
                if o.map {
                    // A key without a value is dropped (the parser always sends a value).
                    n -= n % 2;
                }
                let span = Span {
                    start: self.doc.kids.len() as u32,
                    len: if o.map { n / 2 } else { n } as u32,
                };
                self.doc
                    .kids
                    .extend_from_slice(&self.stack[o.base..o.base + n]);
                self.stack.truncate(o.base);
                self.raw_keys.truncate(o.key_base);
                if self.wants_key() {
                    return self.fail(format!("{}: Map key must be a scalar", at(mark)));
                }
                self.push(if o.map {
                    Node::Map(span)
                } else {
                    Node::Array(span)
                });
            }
            Event::Alias(_) => self.fail(format!("{}: aliases are not supported", at(mark))),
            _ => {}
        }
    }
}

/// Parses the YAML of an `.amdgpu_metadata` block into LLVM's typed tree (maps unsorted).
pub(crate) fn parse_yaml(text: &str) -> Result<Doc, String> {
    if text.len() > MAX_TEXT {
        return Err(format!(
            "metadata text of {} bytes is too large (at most {MAX_TEXT})",
            text.len()
        ));
    }
    // Sizes from real metadata (about 14 bytes of YAML per node, 40% of it scalar text),
    // so that the vectors rarely grow.
    let mut b = Builder {
        doc: Doc {
            nodes: Vec::with_capacity(text.len() / 12 + 4),
            kids: Vec::with_capacity(text.len() / 12 + 4),
            text: String::with_capacity(text.len() / 2 + 16),
            root: 0,
        },
        open: Vec::new(),
        stack: Vec::with_capacity(64),
        raw_keys: Vec::with_capacity(64),
        root: None,
        error: None,
        documents: 0,
    };
    // Events are pulled one by one rather than through `Parser::load`, whose recursive
    // descent moves every event through several frames (5% of the time on real metadata).
    // `load(_, true)` pulls exactly these events in this order, up to the first error or
    // the stream's end, so the errors are the same; its own checks of the event order never
    // fail on events from the parser's state machine.
    let mut parser = Parser::new_from_str(text);
    loop {
        let (ev, mark) = parser.next_token().map_err(|e| {
            format!(
                "YAML:{}:{}: {}",
                e.marker().line(),
                e.marker().col() + 1,
                e.info()
            )
        })?;
        if ev == Event::StreamEnd {
            break;
        }
        b.on_event(ev, mark);
    }
    if let Some(e) = b.error {
        return Err(e);
    }
    let mut doc = b.doc;
    doc.root = match b.root {
        Some(r) => r,
        None => doc.push_node(Node::Array(Span { start: 0, len: 0 })),
    };
    Ok(doc)
}

/// The kind (and value) a scalar's text types as; a string's text is the input itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Scalar {
    UInt(u64),
    Int(i64),
    Bool(bool),
    Float(f64),
    Str,
}

/// LLVM's `DocNode::fromString(S, "")`: the first of uint, int, bool, float that parses.
pub(crate) fn typed_scalar(s: &str) -> Scalar {
    if let Some(u) = parse_unsigned(s) {
        return Scalar::UInt(u);
    }
    if let Some(rest) = s.strip_prefix('-') {
        if let Some(u) = parse_unsigned(rest) {
            if u <= 1u64 << 63 {
                let i = (u as i64).wrapping_neg();
                // `-0` is a non-negative integer, which LLVM keeps as UInt.
                return if i < 0 {
                    Scalar::Int(i)
                } else {
                    Scalar::UInt(0)
                };
            }
        }
    }
    if let Some(b) = parse_bool(s) {
        return Scalar::Bool(b);
    }
    if let Some(f) = parse_strtod(s) {
        return Scalar::Float(f);
    }
    Scalar::Str
}

/// The value of an ASCII digit or letter (`a`/`A` = 10, up to 35); 99 for anything else.
fn digit_value(b: u8) -> u32 {
    match b {
        b'0'..=b'9' => u32::from(b - b'0'),
        b'a'..=b'z' => u32::from(b - b'a') + 10,
        b'A'..=b'Z' => u32::from(b - b'A') + 10,
        _ => 99,
    }
}

/// LLVM's `getAsUnsignedInteger(S, 0)`: radix from the prefix, every character a digit.
fn parse_unsigned(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    let (radix, digits) = match b {
        [b'0', b'x' | b'X', rest @ ..] => (16, rest),
        [b'0', b'b' | b'B', rest @ ..] => (2, rest),
        [b'0', b'o', rest @ ..] => (8, rest),
        [b'0', d, ..] if d.is_ascii_digit() => (8, &b[1..]),
        _ => (10, b),
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for &c in digits {
        let d = digit_value(c);
        if d >= radix {
            return None;
        }
        v = v.checked_mul(u64::from(radix))?.checked_add(u64::from(d))?;
    }
    Some(v)
}

/// LLVM's `yaml::parseBool`: each word in lower case, capitalised or in upper case.
fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "true" | "True" | "TRUE" => {
            Some(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" | "false" | "False" | "FALSE" => {
            Some(false)
        }
        _ => None,
    }
}

/// C `strtod` consuming the whole text (LLVM's `to_float`): decimal with optional
/// fraction and exponent, `inf`/`infinity`/`nan` in any case, hexadecimal floats, and the
/// empty string (which `strtod` accepts as 0).
fn parse_strtod(s: &str) -> Option<f64> {
    if s.is_empty() {
        return Some(0.0);
    }
    // strtod skips leading white space (a quoted scalar may have some).
    let s = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let sign = if s.starts_with('-') { -1.0 } else { 1.0 };
    let bytes = body.as_bytes();
    if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        return Some(sign * f64::INFINITY);
    }
    if body.eq_ignore_ascii_case("nan")
        || (bytes.len() >= 4 && bytes[..4].eq_ignore_ascii_case(b"nan(") && body.ends_with(')'))
    {
        return Some(f64::NAN);
    }
    if let [b'0', b'x' | b'X', ..] = bytes {
        return parse_hex_float(&body[2..]).map(|f| sign * f);
    }
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let mut mantissa = digits(&mut i);
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        mantissa += digits(&mut i);
    }
    if mantissa == 0 {
        return None;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        let mut j = i + 1;
        if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
            j += 1;
        }
        if digits(&mut j) > 0 {
            i = j;
        }
    }
    if i != bytes.len() {
        return None;
    }
    // The grammar above is strtod's; the value only orders map keys.
    Some(sign * body.parse::<f64>().unwrap_or(0.0))
}

/// The part of a hexadecimal float after `0x`: hex digits, an optional fraction, an
/// optional binary exponent `p±N` (either case).
fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = match s.split_once(['p', 'P']) {
        Some((m, e)) => (m, Some(e)),
        None => (s, None),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut v = 0f64;
    for c in int.chars() {
        v = v * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in frac.chars() {
        v += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    let e: i32 = match exp {
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            e.parse().unwrap_or(if e.starts_with('-') {
                i32::MIN
            } else {
                i32::MAX
            })
        }
        None => 0,
    };
    Some(v * 2f64.powi(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_are_typed_as_llvm_types_them() {
        assert_eq!(typed_scalar("010"), Scalar::UInt(8));
        assert_eq!(typed_scalar("0o17"), Scalar::UInt(15));
        assert_eq!(typed_scalar("0b101"), Scalar::UInt(5));
        assert_eq!(typed_scalar("-0x10"), Scalar::Int(-16));
        assert_eq!(typed_scalar("-0"), Scalar::UInt(0));
        assert_eq!(typed_scalar("-9223372036854775808"), Scalar::Int(i64::MIN));
        assert_eq!(typed_scalar("Yes"), Scalar::Bool(true));
        assert_eq!(typed_scalar("YEs"), Scalar::Str);
        assert_eq!(typed_scalar("n"), Scalar::Bool(false));
        assert!(matches!(typed_scalar("08"), Scalar::Float(_)));
        assert!(matches!(typed_scalar("+5"), Scalar::Float(_)));
        assert!(matches!(typed_scalar(""), Scalar::Float(_)));
        assert_eq!(typed_scalar("0x1p3"), Scalar::Float(8.0));
        assert_eq!(typed_scalar("0x1P3"), Scalar::Float(8.0));
        assert_eq!(typed_scalar("0x1.8p1"), Scalar::Float(3.0));
        assert_eq!(typed_scalar("-0X1.8P1"), Scalar::Float(-3.0));
        assert!(matches!(typed_scalar("NaN(1)"), Scalar::Float(f) if f.is_nan()));
        assert!(matches!(typed_scalar("-Infinity"), Scalar::Float(f) if f == f64::NEG_INFINITY));
        assert_eq!(typed_scalar("1e"), Scalar::Str);
        assert_eq!(typed_scalar("0x"), Scalar::Str);
        assert_eq!(typed_scalar(".inf"), Scalar::Str);
        assert_eq!(typed_scalar("1_000"), Scalar::Str);
        assert_eq!(typed_scalar("~"), Scalar::Str);
        assert_eq!(typed_scalar("é"), Scalar::Str);
    }

    #[test]
    fn duplicate_keys_and_aliases_are_errors() {
        assert!(parse_yaml("a: 1\na: 2\n")
            .err()
            .unwrap()
            .contains("duplicated mapping key 'a'"));
        assert!(parse_yaml("a: &x 1\nb: *x\n").is_err());
        assert!(parse_yaml("a: [\n").is_err());
    }
}
