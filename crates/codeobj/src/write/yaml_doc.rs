//! YAML text to a MessagePack tree the way LLVM's `msgpack::Document::fromYAML` builds it.
//!
//! LLVM ignores YAML's quoting: every scalar, quoted or not, is typed from its text by
//! `DocNode::fromString`: an unsigned integer (`getAsUnsignedInteger` with radix sensing:
//! `0x`, `0b`, `0o`, a leading `0` for octal), else a signed one, else a boolean (`y`, `yes`,
//! `on`, `true` and their negatives, in three capitalisations), else a float (C `strtod`
//! syntax), else a string. A scalar with an explicit tag other than `!!str` stays a string.
//! Floats are kept as [`Value::F64`] because they order map keys, but LLVM's writer emits
//! them as nil (see [`super::msgpack_writer`]). An empty value (`key:`) is an empty array.

use rmpv::Value;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Nesting deeper than this is refused (real metadata is 5 levels deep).
pub(crate) const MAX_DEPTH: usize = 64;

/// A container being filled while the events arrive.
enum Open {
    Seq(Vec<Value>),
    /// Entries so far, the pending key (raw text and typed), and the raw key texts seen.
    Map(Vec<(Value, Value)>, Option<Value>, Vec<String>),
}

/// Collects parser events into one document tree.
struct Builder {
    stack: Vec<Open>,
    root: Option<Value>,
    error: Option<String>,
    documents: usize,
}

impl Builder {
    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
    }

    /// Adds a finished node to the innermost container (or makes it the root).
    fn push(&mut self, node: Value, raw_key: Option<String>, mark: Marker) {
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Open::Seq(items)) => items.push(node),
            Some(Open::Map(entries, pending, raw_keys)) => match pending.take() {
                Some(key) => entries.push((key, node)),
                None => {
                    let Some(raw) = raw_key else {
                        return self.fail(format!("{}: Map key must be a scalar", at(mark)));
                    };
                    if raw_keys.contains(&raw) {
                        return self.fail(format!("{}: duplicated mapping key '{raw}'", at(mark)));
                    }
                    // LLVM types keys from their text alone, whatever their tag.
                    *pending = Some(typed_scalar(&raw));
                    raw_keys.push(raw);
                    let _ = node;
                }
            },
        }
    }
}

fn at(mark: Marker) -> String {
    format!("YAML:{}:{}", mark.line(), mark.col() + 1)
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() || self.documents > 1 {
            return;
        }
        match ev {
            Event::DocumentStart => self.documents += 1,
            Event::Scalar(text, style, _, tag) => {
                let plain_empty = text.is_empty() && style == TScalarStyle::Plain;
                let node = if plain_empty && tag.is_none() {
                    Value::Array(Vec::new())
                } else if tag.is_some_and(|t| t.suffix != "str") {
                    Value::from(text.as_str())
                } else {
                    typed_scalar(&text)
                };
                self.push(node, Some(text), mark);
            }
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                if self.stack.len() >= MAX_DEPTH {
                    return self.fail(format!("{}: nested too deeply", at(mark)));
                }
                self.stack.push(match ev {
                    Event::SequenceStart(..) => Open::Seq(Vec::new()),
                    _ => Open::Map(Vec::new(), None, Vec::new()),
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let node = match self.stack.pop() {
                    Some(Open::Seq(items)) => Value::Array(items),
                    Some(Open::Map(entries, _, _)) => Value::Map(entries),
                    None => return,
                };
                self.push(node, None, mark);
            }
            Event::Alias(_) => self.fail(format!("{}: aliases are not supported", at(mark))),
            _ => {}
        }
    }
}

/// Parses the YAML of an `.amdgpu_metadata` block into LLVM's typed tree (maps unsorted).
pub(crate) fn parse_yaml(text: &str) -> Result<Value, String> {
    let mut b = Builder {
        stack: Vec::new(),
        root: None,
        error: None,
        documents: 0,
    };
    let mut parser = Parser::new_from_str(text);
    parser.load(&mut b, true).map_err(|e| {
        format!(
            "YAML:{}:{}: {}",
            e.marker().line(),
            e.marker().col() + 1,
            e.info()
        )
    })?;
    if let Some(e) = b.error {
        return Err(e);
    }
    Ok(b.root.unwrap_or(Value::Array(Vec::new())))
}

/// LLVM's `DocNode::fromString(S, "")`: the first of uint, int, bool, float that parses.
pub(crate) fn typed_scalar(s: &str) -> Value {
    if let Some(u) = parse_unsigned(s) {
        return Value::from(u);
    }
    if let Some(rest) = s.strip_prefix('-') {
        if let Some(u) = parse_unsigned(rest) {
            if u <= 1u64 << 63 {
                return Value::from((u as i64).wrapping_neg());
            }
        }
    }
    if let Some(b) = parse_bool(s) {
        return Value::Boolean(b);
    }
    if let Some(f) = parse_strtod(s) {
        return Value::F64(f);
    }
    Value::from(s)
}

/// LLVM's `getAsUnsignedInteger(S, 0)`: radix from the prefix, every character a digit.
fn parse_unsigned(s: &str) -> Option<u64> {
    let (radix, digits) = if let Some(r) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (16, r)
    } else if let Some(r) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (2, r)
    } else if let Some(r) = s.strip_prefix("0o") {
        (8, r)
    } else if s.len() > 1 && s.starts_with('0') && s.as_bytes()[1].is_ascii_digit() {
        (8, &s[1..])
    } else {
        (10, s)
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(36).filter(|&d| d < radix)?;
        v = v.checked_mul(u64::from(radix))?.checked_add(u64::from(d))?;
    }
    Some(v)
}

/// LLVM's `yaml::parseBool`.
fn parse_bool(s: &str) -> Option<bool> {
    let words: [(&str, bool); 7] = [
        ("y", true),
        ("n", false),
        ("on", true),
        ("no", false),
        ("off", false),
        ("yes", true),
        ("true", true),
    ];
    let lower_rest = |w: &str| s.len() == w.len() && s[1..] == w[1..];
    let upper_rest = |w: &str| s.len() == w.len() && s[1..] == w[1..].to_ascii_uppercase();
    let all = words.iter().copied().chain([("false", false)]);
    for (w, v) in all {
        let first = s.as_bytes().first().copied();
        let lf = w.as_bytes()[0];
        if first == Some(lf) && lower_rest(w) {
            return Some(v);
        }
        if first == Some(lf.to_ascii_uppercase()) && (lower_rest(w) || upper_rest(w)) {
            return Some(v);
        }
    }
    None
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
    let lower = body.to_ascii_lowercase();
    if lower == "inf" || lower == "infinity" {
        return Some(sign * f64::INFINITY);
    }
    if lower == "nan" || (lower.starts_with("nan(") && lower.ends_with(')')) {
        return Some(f64::NAN);
    }
    if let Some(hex) = lower.strip_prefix("0x") {
        return parse_hex_float(hex).map(|f| sign * f);
    }
    let bytes = body.as_bytes();
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
/// optional binary exponent `p±N`.
fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = match s.split_once('p') {
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
        assert_eq!(typed_scalar("010"), Value::from(8u64));
        assert_eq!(typed_scalar("0o17"), Value::from(15u64));
        assert_eq!(typed_scalar("0b101"), Value::from(5u64));
        assert_eq!(typed_scalar("-0x10"), Value::from(-16i64));
        assert_eq!(typed_scalar("Yes"), Value::Boolean(true));
        assert_eq!(typed_scalar("YEs"), Value::from("YEs"));
        assert_eq!(typed_scalar("n"), Value::Boolean(false));
        assert!(matches!(typed_scalar("08"), Value::F64(_)));
        assert!(matches!(typed_scalar("+5"), Value::F64(_)));
        assert!(matches!(typed_scalar(""), Value::F64(_)));
        assert!(matches!(typed_scalar("0x1p3"), Value::F64(_)));
        assert_eq!(typed_scalar("1e"), Value::from("1e"));
        assert_eq!(typed_scalar("0x"), Value::from("0x"));
        assert_eq!(typed_scalar(".inf"), Value::from(".inf"));
        assert_eq!(typed_scalar("1_000"), Value::from("1_000"));
        assert_eq!(typed_scalar("~"), Value::from("~"));
    }

    #[test]
    fn duplicate_keys_and_aliases_are_errors() {
        assert!(parse_yaml("a: 1\na: 2\n")
            .unwrap_err()
            .contains("duplicated mapping key 'a'"));
        assert!(parse_yaml("a: &x 1\nb: *x\n").is_err());
        assert!(parse_yaml("a: [\n").is_err());
    }
}
